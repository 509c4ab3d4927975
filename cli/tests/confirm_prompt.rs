//! Confirmations at a terminal (a pseudo-terminal driven by rexpect): a ban
//! shows what it will do and, answered "n", exits 6 with nothing done; an
//! import shows its diff and writes only when answered "y"; an import
//! reading a terminal's stdin says that it waits for JSON.

#![cfg(unix)]

use crate::support::{
    SECOND, at_terminal, exit_code, fixture_with_two_guilds, modctl, stderr_of, stdout_of,
};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctld::operator::demo::discord_members as dm;

#[test]
fn a_ban_answered_no_shows_the_summary_does_nothing_and_exits_6() {
    let fixture = Fixture::simulated();
    let key = &fixture.alpha_rw;
    let mut session = at_terminal(
        &fixture,
        key,
        &[
            "action",
            "ban",
            ALPHA_DISCORD,
            dm::ALICE,
            "--reason",
            "raid spam",
            "--delete-days",
            "2",
        ],
    );
    let summary = session.exp_string("[y/N]").unwrap();
    for line in [
        "action      ban",
        "server      Alpha Guild (discord, 100000000000000001)",
        &format!("user        {}", dm::ALICE),
        "on record   0 active strikes",
        "delete days 2",
        "reason      raid spam",
        // The daemon knows no name for her: the question as before names.
        &format!("ban user {} on Alpha Guild?", dm::ALICE),
    ] {
        assert!(summary.contains(line), "{line:?} not in {summary}");
    }
    session.send_line("n").unwrap();
    session
        .exp_string("cancelled; nothing was changed")
        .unwrap();
    assert_eq!(exit_code(&mut session), 6);
    let cases = stdout_of(
        modctl(&fixture, Some(key)).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(cases, "", "a cancelled ban recorded a case");

    // Answered yes, the ban is carried out.
    let mut session = at_terminal(&fixture, key, &["action", "ban", ALPHA_DISCORD, dm::ALICE]);
    session.exp_string("[y/N]").unwrap();
    session.send_line("y").unwrap();
    assert_eq!(exit_code(&mut session), 0);
    let cases = stdout_of(
        modctl(&fixture, Some(key)).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(cases.lines().count(), 1, "{cases}");
}

/// Issue #27: when the daemon knows the target's name, the summary and the
/// question name them beside their id, and the server with its id; with
/// `@name` the question shows the id it stands for.
#[test]
fn a_ban_names_its_target_when_the_daemon_knows_the_name() {
    use modctld::events::NameKind;
    let fixture = Fixture::simulated();
    let key = &fixture.alpha_rw;
    fixture
        .daemon
        .state()
        .names
        .put(ALPHA_DISCORD, NameKind::User, dm::ALICE, "Alice");
    stdout_of(
        modctl(&fixture, Some(key)).args(["action", "warn", ALPHA_DISCORD, dm::ALICE]),
        0,
    );
    for target in [dm::ALICE, "@alice"] {
        let mut session = at_terminal(&fixture, key, &["action", "ban", ALPHA_DISCORD, target]);
        let shown = session.exp_string("[y/N]").unwrap();
        for line in [
            format!("user        Alice ({})", dm::ALICE),
            "on record   1 active strike".to_owned(),
            format!(
                "ban Alice ({}) on Alpha Guild (100000000000000001)?",
                dm::ALICE
            ),
        ] {
            assert!(shown.contains(&line), "{target}: {line:?} not in {shown}");
        }
        session.send_line("n").unwrap();
        assert_eq!(exit_code(&mut session), 6);
    }
    let cases = stdout_of(
        modctl(&fixture, Some(key)).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(cases.lines().count(), 1, "only the warning: {cases}");
}

fn two_guilds_and_an_export() -> (Fixture, std::path::PathBuf) {
    let fixture = fixture_with_two_guilds();
    let key = Some(&fixture.alpha_rw);
    stderr_of(
        modctl(&fixture, key).args(["config", "set", ALPHA_DISCORD, "strikes.expiry_days", "7"]),
        0,
    );
    let file = fixture.daemon.scratch_dir().join("export.json");
    stderr_of(
        modctl(&fixture, key)
            .args(["config", "export", ALPHA_DISCORD, "-o"])
            .arg(&file),
        0,
    );
    (fixture, file)
}

fn expiry_days(fixture: &Fixture, server: &str) -> String {
    stdout_of(
        modctl(fixture, Some(&fixture.alpha_ro)).args(["config", "show", server, "strikes"]),
        0,
    )
    .lines()
    .find(|l| l.starts_with("strikes.expiry_days\t"))
    .unwrap()
    .to_owned()
}

#[test]
fn an_import_shows_its_diff_and_writes_only_when_confirmed() {
    let (fixture, file) = two_guilds_and_an_export();
    let key = &fixture.alpha_rw;
    let file = file.to_str().unwrap();
    let default = expiry_days(&fixture, SECOND);

    let mut session = at_terminal(&fixture, key, &["config", "import", SECOND, file]);
    let shown = session.exp_string("Import these changes?").unwrap();
    assert!(
        shown.contains(&format!(
            "Importing into {SECOND} changes 1 field(s) in 1 section(s):"
        )) && shown.contains("strikes.expiry_days: 30 -> 7"),
        "{shown}"
    );
    session.send_line("n").unwrap();
    assert_eq!(exit_code(&mut session), 6);
    assert_eq!(expiry_days(&fixture, SECOND), default);

    let mut session = at_terminal(&fixture, key, &["config", "import", SECOND, file]);
    session.exp_string("Import these changes?").unwrap();
    session.send_line("y").unwrap();
    assert_eq!(exit_code(&mut session), 0);
    assert_eq!(expiry_days(&fixture, SECOND), "strikes.expiry_days\t7");
}

#[test]
fn a_change_made_while_the_diff_is_shown_refuses_the_confirmed_import() {
    let (fixture, file) = two_guilds_and_an_export();
    let key = &fixture.alpha_rw;
    let mut session = at_terminal(
        &fixture,
        key,
        &["config", "import", SECOND, file.to_str().unwrap()],
    );
    session.exp_string("Import these changes?").unwrap();
    // Someone else changes the config before the answer.
    stdout_of(
        modctl(&fixture, Some(key)).args(["config", "set", SECOND, "strikes.expiry_days", "60"]),
        0,
    );
    session.send_line("y").unwrap();
    let rest = session.exp_eof().unwrap();
    assert!(
        rest.contains("hint: the config changed after it was read; nothing was written"),
        "{rest}"
    );
    match session.process.wait().unwrap() {
        rexpect::process::wait::WaitStatus::Exited(_, code) => assert_eq!(code, 1),
        other => panic!("{other:?}"),
    }
    // Their change stands.
    assert_eq!(expiry_days(&fixture, SECOND), "strikes.expiry_days\t60");
}

#[test]
fn an_import_from_a_terminal_says_it_waits_for_json() {
    let (fixture, file) = two_guilds_and_an_export();
    let envelope = std::fs::read_to_string(file).unwrap();
    let mut session = at_terminal(&fixture, &fixture.alpha_rw, &["config", "import", SECOND]);
    session.exp_string("waiting for JSON on stdin").unwrap();
    // The envelope on one line (a terminal's line length is not a concern at
    // this size), then end of input.
    let one_line: serde_json::Value = serde_json::from_str(&envelope).unwrap();
    session.send_line(&one_line.to_string()).unwrap();
    session.send_control('d').unwrap();
    session.exp_string("strikes.expiry_days: 30 -> 7").unwrap();
    session.exp_string("Import these changes?").unwrap();
    session.send_line("y").unwrap();
    assert_eq!(exit_code(&mut session), 0);
    assert_eq!(expiry_days(&fixture, SECOND), "strikes.expiry_days\t7");
}

#[test]
fn clone_and_rollback_show_their_diff_and_a_no_changes_nothing() {
    let (fixture, _) = two_guilds_and_an_export();
    let key = &fixture.alpha_rw;
    let default = expiry_days(&fixture, SECOND);

    let mut session = at_terminal(
        &fixture,
        key,
        &["config", "clone", SECOND, "--from", ALPHA_DISCORD],
    );
    let shown = session.exp_string("Copy this config?").unwrap();
    assert!(
        shown.contains(&format!(
            "Copying {ALPHA_DISCORD} into {SECOND} changes 1 field(s) in 1 section(s):"
        )) && shown.contains("strikes.expiry_days: 30 -> 7"),
        "{shown}"
    );
    session.send_line("n").unwrap();
    assert_eq!(exit_code(&mut session), 6);
    assert_eq!(expiry_days(&fixture, SECOND), default);

    let mut session = at_terminal(
        &fixture,
        key,
        &["config", "rollback", ALPHA_DISCORD, "--to-revision", "0"],
    );
    let shown = session.exp_string("Roll back?").unwrap();
    assert!(shown.contains("strikes.expiry_days: 7 -> 30"), "{shown}");
    session.send_line("n").unwrap();
    assert_eq!(exit_code(&mut session), 6);
    assert_eq!(
        expiry_days(&fixture, ALPHA_DISCORD),
        "strikes.expiry_days\t7"
    );

    let mut session = at_terminal(
        &fixture,
        key,
        &["config", "rollback", ALPHA_DISCORD, "--to-revision", "0"],
    );
    session.exp_string("Roll back?").unwrap();
    session.send_line("y").unwrap();
    session
        .exp_string("rolled back to the settings of revision 0")
        .unwrap();
    assert_eq!(exit_code(&mut session), 0);
    assert_eq!(expiry_days(&fixture, ALPHA_DISCORD), default);
}
