//! `modctl action`, `cases`, `strikes` and `jails` against a real daemon whose
//! servers are connected to the simulator.

use crate::support::{modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture};
use modctld::operator::demo::{discord_members as dm, telegram_members as tm};

fn fixture() -> Fixture {
    Fixture::simulated()
}

#[test]
fn an_action_as_table_plain_and_json() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    let table = stdout_of(
        modctl(&fixture, key).args([
            "action",
            "ban",
            ALPHA_DISCORD,
            dm::ALICE,
            "--reason",
            "spam",
            "--yes",
            "--table",
        ]),
        0,
    );
    assert_snapshot!("action_ban_table", table);
    let plain = stdout_of(
        modctl(&fixture, key).args(["action", "warn", ALPHA_DISCORD, dm::BOB, "-r", "rude"]),
        0,
    );
    assert_snapshot!("action_warn_plain", plain);
    let json = stdout_of(
        modctl(&fixture, key).args(["action", "note", ALPHA_DISCORD, dm::BOB, "--json"]),
        0,
    );
    assert_snapshot!("action_note_json", json);
    // Not applied: the case is recorded, with a note on stderr, and the exit
    // code (7) stops a `&&` chain.
    let output = modctl(&fixture, key)
        .args(["action", "ban", ALPHA_DISCORD, dm::ADA, "--yes"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(i32::from(modctl::exit::NOT_APPLIED))
    );
    assert!(
        String::from_utf8_lossy(&output.stdout)
            .contains("bot's highest role is below the target's")
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("the platform did not apply it"));
}

/// `--dry-run` says what would happen, asks nothing (a ban without
/// `--yes`, no terminal) and records nothing.
#[test]
fn a_dry_run_asks_nothing_and_records_nothing() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    let plain = stdout_of(
        modctl(&fixture, key).args(["action", "ban", ALPHA_DISCORD, dm::ALICE, "--dry-run"]),
        0,
    );
    assert!(plain.starts_with("dry_run\tyes"), "{plain}");
    assert!(plain.contains("platform_call\t"), "{plain}");
    let cases = stdout_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--json"]),
        0,
    );
    assert_eq!(cases.trim(), "[]", "no case recorded: {cases}");
}

#[test]
fn destructive_actions_need_yes_without_a_terminal() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    for action in ["kick", "ban", "jail"] {
        let err = stderr_of(
            modctl(&fixture, key).args(["action", action, ALPHA_DISCORD, dm::ALICE]),
            2,
        );
        assert!(
            err.contains("confirmation needed but there is no terminal") && err.contains("--yes"),
            "{err}"
        );
    }
    // Nothing was done.
    let out = stdout_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(out, "");
    // Non-destructive ones need no confirmation; Telegram ids may be negative.
    stdout_of(
        modctl(&fixture, key).args([
            "action",
            "timeout",
            ALPHA_TELEGRAM,
            tm::ALICE,
            "--duration",
            "2h",
        ]),
        0,
    );
}

#[test]
fn a_users_file_acts_on_each_and_reports_each() {
    let fixture = fixture();
    let users = format!(
        "{}\n# the admin is above the bot\n{}\nnot-an-id\n",
        dm::ALICE,
        dm::ADA
    );
    let output = modctl(&fixture, Some(&fixture.alpha_rw))
        .args([
            "action",
            "kick",
            ALPHA_DISCORD,
            "--users-file",
            "-",
            "--yes",
            "--table",
        ])
        .write_stdin(users)
        .output()
        .unwrap();
    // One failure does not stop the rest, and makes the exit code 1.
    assert_eq!(output.status.code(), Some(1));
    assert_snapshot!("bulk_kick_table", String::from_utf8(output.stdout).unwrap());
}

#[test]
fn cases_strikes_and_jails() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    stdout_of(
        modctl(&fixture, key).args([
            "action",
            "warn",
            ALPHA_DISCORD,
            dm::BOB,
            "-r",
            "spam, again",
        ]),
        0,
    );
    stdout_of(
        modctl(&fixture, key).args(["action", "jail", ALPHA_DISCORD, dm::ALICE, "--yes"]),
        0,
    );
    let keys = [&fixture.alpha_rw];

    let list = stdout_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert_snapshot!("cases_list_table", stable(&list, &keys));
    let plain = stdout_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--user", dm::BOB]),
        0,
    );
    assert_snapshot!("cases_list_plain", stable(&plain, &keys));
    let first_id = plain.split('\t').next().unwrap().to_owned();
    let show = stdout_of(
        modctl(&fixture, key).args(["cases", "show", ALPHA_DISCORD, &first_id, "--table"]),
        0,
    );
    assert_snapshot!("cases_show_table", stable(&show, &keys));

    let strikes = stdout_of(
        modctl(&fixture, key).args(["strikes", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert_snapshot!("strikes_table", stable(&strikes, &keys));
    let jails = stdout_of(
        modctl(&fixture, key).args(["jails", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert_snapshot!("jails_table", stable(&jails, &keys));

    let csv = stdout_of(
        modctl(&fixture, key).args(["cases", "export", ALPHA_DISCORD, "--format", "csv"]),
        0,
    );
    assert_snapshot!("cases_export_csv", stable(&csv, &keys));
    let jsonl = stdout_of(
        modctl(&fixture, key).args(["cases", "export", ALPHA_DISCORD]),
        0,
    );
    let parsed: Vec<modctl_types::moderation::Case> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed.iter().map(|c| c.id).collect::<Vec<_>>(), [1, 2]);

    let err = stderr_of(
        modctl(&fixture, key).args(["cases", "show", ALPHA_DISCORD, "999"]),
        5,
    );
    assert!(err.contains("case #999 not found"), "{err}");
    let err = stderr_of(
        modctl(&fixture, key).args(["cases", "show", ALPHA_DISCORD, "abc"]),
        2,
    );
    assert!(
        err.contains("`abc` is not a case number: cases are numbered 1, 2, 3, ... on each server"),
        "{err}"
    );
}

#[test]
fn cases_list_filters_by_action_actor_applied_and_time() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    for args in [
        ["action", "warn", ALPHA_DISCORD, dm::BOB, "--yes"],
        ["action", "ban", ALPHA_DISCORD, dm::ADA, "--yes"],
        ["action", "note", ALPHA_DISCORD, dm::BOB, "--yes"],
        ["action", "warn", ALPHA_DISCORD, dm::ALICE, "--yes"],
    ] {
        // Ada's ban is not applied (her role is above the bot's): exit 7.
        let code = if args[3] == dm::ADA { 7 } else { 0 };
        stdout_of(modctl(&fixture, key).args(args), code);
    }
    let keys = [&fixture.alpha_rw];
    let list = |filters: &[&str]| {
        let mut args = vec!["cases", "list", ALPHA_DISCORD];
        args.extend_from_slice(filters);
        let out = stdout_of(modctl(&fixture, key).args(&args), 0);
        // Case number, action, user, applied: what the filters decide.
        let rows: Vec<String> = out
            .lines()
            .map(|l| l.split('\t').take(4).collect::<Vec<_>>().join(" "))
            .collect();
        stable(&rows.join("\n"), &keys)
    };
    let actor = format!("key:{}", fixture.alpha_rw.key_id);
    let report = [
        ("--action warn", list(&["--action", "warn"])),
        ("--not-applied", list(&["--not-applied"])),
        (
            "--applied --user BOB",
            list(&["--applied", "--user", dm::BOB]),
        ),
        ("--actor key", list(&["--actor", &actor, "--limit", "2"])),
        ("--actor other", list(&["--actor", "system:expiry"])),
        ("--since 1h", list(&["--since", "1h", "--action", "note"])),
        ("--until 2001-01-01", list(&["--until", "2001-01-01"])),
        ("--since tomorrow", list(&["--since", "2999-01-01"])),
    ]
    .map(|(name, rows)| format!("{name}:\n{rows}\n"))
    .join("\n");
    assert_snapshot!("cases_list_filters", report);

    let err = stderr_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--since", "last week"]),
        2,
    );
    assert!(err.contains("is neither a duration ago"), "{err}");
    let err = stderr_of(
        modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--action", "smite"]),
        2,
    );
    assert!(err.contains("expected one of note, warn"), "{err}");
    let err = stderr_of(
        modctl(&fixture, key).args([
            "cases",
            "list",
            ALPHA_DISCORD,
            "--since",
            "2026-11-02",
            "--until",
            "2026-11-01",
        ]),
        1,
    );
    assert!(err.contains("--since"), "{err}");
}
