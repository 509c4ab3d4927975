//! `modctl snapshot diff` and `restore` against a real daemon whose Discord
//! server is the stateful fake: capture, nuke (delete roles and a channel),
//! diff, restore piped with `--yes` and at a terminal, restore again.

use crate::support::{modctl, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::ALPHA_DISCORD;
use modctl_e2e::Fixture;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{
    ADMIN_ROLE, MEMBER_ROLE, MOD_PERMISSIONS, MOD_ROLE, OWNER, TOKEN,
};
use modctl_types::restore::{ItemOutcome, JobState, RestoreJob};

const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;
const MANAGE_CHANNELS: u64 = 1 << 4;
const LOUNGE: &str = "700000000000000020";

/// Alpha's Discord server on the fake, with a members' channel whose
/// overwrites name the members' role and the owner; captured, then nuked:
/// the members' role, the channel and the admins' role (above the bot's)
/// are gone.
fn nuked() -> (Fixture, FakeDiscord) {
    let fixture = Fixture::start();
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_role_permissions(
        MOD_ROLE,
        MOD_PERMISSIONS | MANAGE_CHANNELS | VIEW_CHANNEL | SEND_MESSAGES,
    );
    discord.add_typed_channel(LOUNGE, 0, "lounge", None, 1, Some("Members only"));
    discord.add_overwrite(LOUNGE, ALPHA_DISCORD, false, 0, VIEW_CHANNEL);
    discord.add_overwrite(LOUNGE, MEMBER_ROLE, false, VIEW_CHANNEL | SEND_MESSAGES, 0);
    discord.add_overwrite(LOUNGE, OWNER, true, VIEW_CHANNEL, 0);
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args(["snapshot", "capture", ALPHA_DISCORD]),
        0,
    );
    discord.delete_role(MEMBER_ROLE);
    discord.delete_role(ADMIN_ROLE);
    discord.delete_channel(LOUNGE);
    (fixture, discord)
}

#[test]
fn diff_shows_what_is_missing_present_and_skipped() {
    let (fixture, _discord) = nuked();
    let key = Some(&fixture.alpha_rw);
    let table = stdout_of(
        modctl(&fixture, key).args(["snapshot", "diff", ALPHA_DISCORD, "--table"]),
        // As `config diff`: 1 when the server differs.
        1,
    );
    assert_snapshot!("diff_table", table);
    let plain = stdout_of(
        modctl(&fixture, key).args(["snapshot", "diff", ALPHA_DISCORD]),
        1,
    );
    let rows: Vec<Vec<&str>> = plain.lines().map(|l| l.split('\t').collect()).collect();
    let step_of = |id: &str| {
        rows.iter()
            .find(|r| r[2] == id)
            .map(|r| r[0])
            .unwrap_or_else(|| panic!("no row for {id}:\n{plain}"))
    };
    assert_eq!(step_of(MEMBER_ROLE), "create");
    assert_eq!(step_of(LOUNGE), "create");
    assert_eq!(step_of(ADMIN_ROLE), "skip");
    assert_eq!(step_of(MOD_ROLE), "present");
}

#[test]
fn a_piped_restore_with_yes_prints_progress_and_the_report_and_twice_creates_nothing() {
    let (fixture, discord) = nuked();
    let key = Some(&fixture.alpha_rw);
    let output = modctl(&fixture, key)
        .args(["snapshot", "restore", ALPHA_DISCORD, "--yes"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("role: "),
        "progress lines on stderr: {stderr}"
    );
    assert!(
        stdout.contains(&format!("skipped\trole\t{ADMIN_ROLE}\t")),
        "{stdout}"
    );
    let members = discord.roles_named("Members");
    assert_eq!(members.len(), 1, "{stdout}");
    let lounge = discord.channels_named("lounge");
    assert_eq!(lounge.len(), 1, "{stdout}");
    let overwrites = discord.overwrites_of(&lounge[0]);
    assert!(
        overwrites
            .iter()
            .any(|(id, member, _, _)| id == &members[0] && !member),
        "the overwrite points at the new role: {overwrites:?}"
    );
    // Again, as JSON: nothing created the second time.
    let (roles, channels) = (discord.role_count(), discord.channel_count());
    let json = stdout_of(
        modctl(&fixture, key).args(["snapshot", "restore", ALPHA_DISCORD, "--yes", "--json"]),
        0,
    );
    let job: RestoreJob = serde_json::from_str(&json).unwrap();
    assert_eq!(job.state, JobState::Done);
    // The job can be read again later, as the same report.
    let again = stdout_of(
        modctl(&fixture, key).args([
            "snapshot",
            "job",
            ALPHA_DISCORD,
            &job.id.to_string(),
            "--json",
        ]),
        0,
    );
    assert_eq!(serde_json::from_str::<RestoreJob>(&again).unwrap(), job);
    assert!(job.items.iter().all(|i| i.outcome != ItemOutcome::Failed));
    assert_eq!(
        (discord.role_count(), discord.channel_count()),
        (roles, channels)
    );
}

#[test]
fn an_item_the_platform_refuses_fails_the_command_with_the_reason() {
    let (fixture, discord) = nuked();
    // The bot can no longer create channels (Manage Channels, which the
    // fake requires as Discord does).
    discord.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS & !MANAGE_CHANNELS);
    let output = modctl(&fixture, Some(&fixture.alpha_rw))
        .args(["snapshot", "restore", ALPHA_DISCORD, "--yes", "--table"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("Failed (the platform refused them):"),
        "{stdout}"
    );
    assert!(stdout.contains("lounge"), "{stdout}");
}

/// At a terminal (a pseudo-terminal driven by rexpect): the plan, the
/// question, progress until the job ends, the report.
#[cfg(unix)]
mod terminal {
    use std::process::Command;

    use crate::support::exit_code;
    use rexpect::session::{PtySession, spawn_command};

    use super::*;

    fn restore(fixture: &Fixture) -> PtySession {
        restore_coloured(fixture, false)
    }

    fn restore_coloured(fixture: &Fixture, colour: bool) -> PtySession {
        let mut command = Command::new(env!("CARGO_BIN_EXE_modctl"));
        command.env_clear();
        if !colour {
            command.env("NO_COLOR", "1");
        }
        command
            .env("TERM", "xterm")
            .env(
                "MODCTL_CONFIG",
                fixture.daemon.scratch_dir().join("config.toml"),
            )
            .env("MODCTL_URL", fixture.daemon.url())
            .env("MODCTL_API_KEY", &fixture.alpha_rw.full)
            .args(["snapshot", "restore", ALPHA_DISCORD]);
        spawn_command(command, Some(20_000)).expect("spawn modctl in a pty")
    }

    #[test]
    fn the_plan_is_shown_and_asked_about_then_progress_and_the_report() {
        let (fixture, discord) = nuked();
        let mut session = restore(&fixture);
        let shown = session.exp_string("[y/N]").unwrap();
        assert!(
            shown.contains("5 to create") && shown.contains("4 item(s) are present"),
            "{shown}"
        );
        assert!(shown.contains("Restore 5 item(s) of snapshot 1"), "{shown}");
        session.send_line("y").unwrap();
        // NO_COLOR: progress as lines, not redrawn bars.
        session.exp_string("overwrite: ").unwrap();
        let report = session.exp_string("already present").unwrap();
        assert!(report.contains("Restore job"), "{report}");
        session.exp_string("Skipped:").unwrap();
        assert_eq!(exit_code(&mut session), 0);
        assert_eq!(discord.roles_named("Members").len(), 1);
    }

    #[test]
    fn with_colour_the_progress_is_bars_redrawn_in_place() {
        let (fixture, _discord) = nuked();
        let mut session = restore_coloured(&fixture, true);
        session.exp_string("[y/N]").unwrap();
        session.send_line("y").unwrap();
        let drawn = session.exp_string("already present").unwrap();
        // The bars are drawn, and the cursor goes back up to redraw them
        // (rexpect reads bytes as Latin-1, so the bar itself is not compared).
        assert!(drawn.contains("Restore job 1 (done):"), "{drawn}");
        assert!(drawn.contains("\u{1b}[4A"), "redrawn in place: {drawn}");
        assert!(!drawn.contains("\noverwrite: "), "no plain lines: {drawn}");
        assert_eq!(exit_code(&mut session), 0);
    }

    #[test]
    fn answering_no_restores_nothing() {
        let (fixture, discord) = nuked();
        let channels = discord.channel_count();
        let mut session = restore(&fixture);
        session.exp_string("[y/N]").unwrap();
        session.send_line("n").unwrap();
        session
            .exp_string("cancelled; nothing was changed")
            .unwrap();
        assert_eq!(exit_code(&mut session), 6);
        assert_eq!(discord.channel_count(), channels);
        assert!(discord.roles_named("Members").is_empty());
    }
}
