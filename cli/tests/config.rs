//! `modctl config ...` against a real daemon.

use std::process::Command as StdCommand;

use crate::support::{SECOND, fixture_with_two_guilds, modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture};

fn set(fixture: &Fixture, server: &str, section: &str, json: &str) {
    stderr_of(
        modctl(fixture, Some(&fixture.alpha_rw))
            .args(["config", "set", server, section, "--file", "-"])
            .write_stdin(json),
        0,
    );
}

#[test]
fn show_a_section_as_table_plain_and_json() {
    let fixture = Fixture::start();
    set(
        &fixture,
        ALPHA_DISCORD,
        "strikes",
        r#"{"expiry_days": 90, "ladder": [{"at": 2, "action": "timeout", "minutes": 30}]}"#,
    );
    let key = Some(&fixture.alpha_ro);
    let args = ["config", "show", ALPHA_DISCORD, "strikes"];
    assert_snapshot!(
        "show_strikes_table",
        stdout_of(modctl(&fixture, key).args(args).args(["--table"]), 0)
    );
    assert_snapshot!(
        "show_strikes_plain",
        stdout_of(modctl(&fixture, key).args(args), 0)
    );
    assert_snapshot!(
        "show_strikes_json",
        stdout_of(modctl(&fixture, key).args(args).arg("--json"), 0)
    );
}

#[test]
fn show_the_whole_config_starts_with_the_revision() {
    let fixture = Fixture::start();
    let out = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["config", "show", ALPHA_TELEGRAM]),
        0,
    );
    let first: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(
        first,
        [
            "revision\t0",
            "updated_at\tnull",
            "general.modlog_channel_id\tnull"
        ]
    );
    assert!(out.contains("webhooks.secret_set\tfalse\n"), "{out}");
}

#[test]
fn set_reports_validation_errors_and_exits_1() {
    let fixture = Fixture::start();
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_rw))
            .args(["config", "set", ALPHA_DISCORD, "moderation", "--file", "-"])
            .write_stdin(r#"{"default_ban_delete_days": 9}"#),
        1,
    );
    assert_eq!(
        err,
        "error: moderation.default_ban_delete_days: must be between 0 and 7\n"
    );
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "colours",
            "-f",
            "-",
        ]),
        2,
    );
    assert!(err.contains("unknown config section `colours`"), "{err}");
}

#[test]
fn audit_as_table_and_plain() {
    let fixture = Fixture::start();
    set(&fixture, ALPHA_DISCORD, "general", r#"{"locale": "de"}"#);
    set(&fixture, ALPHA_DISCORD, "strikes", r#"{"expiry_days": 7}"#);
    let keys = [&fixture.alpha_rw];
    let key = Some(&fixture.alpha_ro);
    let table = stdout_of(
        modctl(&fixture, key).args(["config", "audit", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert_snapshot!("audit_table", stable(&table, &keys));
    let plain = stdout_of(
        modctl(&fixture, key).args(["config", "audit", ALPHA_DISCORD]),
        0,
    );
    assert_snapshot!("audit_plain", stable(&plain, &keys));
}

#[test]
fn diff_exits_1_when_different_and_0_when_equal() {
    let fixture = fixture_with_two_guilds();
    let key = Some(&fixture.alpha_ro);
    let out = stdout_of(
        modctl(&fixture, key).args(["config", "diff", ALPHA_DISCORD, SECOND]),
        0,
    );
    assert_eq!(out, "");
    set(&fixture, ALPHA_DISCORD, "strikes", r#"{"expiry_days": 7}"#);
    set(
        &fixture,
        ALPHA_DISCORD,
        "automod",
        r#"{"blocked_words": {"enabled": true, "words": ["spam", "scam"]}}"#,
    );
    let plain = stdout_of(
        modctl(&fixture, key).args(["config", "diff", ALPHA_DISCORD, SECOND]),
        1,
    );
    assert_snapshot!("diff_plain", plain);
    let table = stdout_of(
        modctl(&fixture, key).args(["config", "diff", ALPHA_DISCORD, SECOND, "--table"]),
        1,
    );
    assert_snapshot!("diff_table", table);
}

#[test]
fn export_piped_into_import_copies_the_config_between_servers() {
    let fixture = fixture_with_two_guilds();
    set(&fixture, ALPHA_DISCORD, "strikes", r#"{"expiry_days": 7}"#);
    set(
        &fixture,
        ALPHA_DISCORD,
        "jail",
        r#"{"enabled": true, "role_id": "300000000000000004"}"#,
    );

    // A real shell pipe, no terminal anywhere: no prompt, only JSON on stdout.
    let bin = env!("CARGO_BIN_EXE_modctl");
    let output = StdCommand::new("sh")
        .arg("-c")
        .arg(format!(
            "'{bin}' config export {ALPHA_DISCORD} | '{bin}' config import {SECOND} - --yes"
        ))
        .env_clear()
        .env("NO_COLOR", "1")
        .env(
            "MODCTL_CONFIG",
            fixture.daemon.scratch_dir().join("config.toml"),
        )
        .env("MODCTL_URL", fixture.daemon.url())
        .env("MODCTL_API_KEY", &fixture.alpha_rw.full)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "stdout: {out}\nstderr: {err}");
    assert_snapshot!("import_plain_changes", out);
    assert!(
        err.contains("warning: jail.role_id: `300000000000000004` was kept"),
        "{err}"
    );

    let key = Some(&fixture.alpha_ro);
    stdout_of(
        modctl(&fixture, key).args(["config", "diff", ALPHA_DISCORD, SECOND]),
        0,
    );

    // The export on stdout is exactly the envelope.
    let export = stdout_of(
        modctl(&fixture, key).args(["config", "export", ALPHA_DISCORD]),
        0,
    );
    let envelope: serde_json::Value = serde_json::from_str(&export).unwrap();
    assert_eq!(envelope["format"], "modctl.config");
}

#[test]
fn import_dry_run_shows_a_readable_diff_and_changes_nothing() {
    let fixture = fixture_with_two_guilds();
    set(&fixture, ALPHA_DISCORD, "strikes", r#"{"expiry_days": 7}"#);
    let file = fixture.daemon.scratch_dir().join("export.json");
    let key = Some(&fixture.alpha_rw);
    stderr_of(
        modctl(&fixture, key)
            .args(["config", "export", ALPHA_DISCORD, "-o"])
            .arg(&file),
        0,
    );
    let out = stdout_of(
        modctl(&fixture, key)
            .args(["config", "import", SECOND])
            .arg(&file)
            .args(["--dry-run", "--table"]),
        0,
    );
    assert_snapshot!("import_dry_run_table", out);
    stdout_of(
        modctl(&fixture, key).args(["config", "diff", ALPHA_DISCORD, SECOND]),
        1,
    );
}

#[test]
fn clone_copies_and_reports() {
    let fixture = fixture_with_two_guilds();
    set(&fixture, ALPHA_DISCORD, "general", r#"{"locale": "de"}"#);
    let out = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args([
            "config",
            "clone",
            SECOND,
            "--from",
            ALPHA_DISCORD,
            "--json",
            "--yes",
        ]),
        0,
    );
    let report: modctl_types::config::ImportReport = serde_json::from_str(&out).unwrap();
    assert_eq!(report.revision, 1);
    assert_eq!(report.changed[0].changes[0].path, "general.locale");
}

#[test]
fn foreign_ids_refuse_import_and_clone_unless_dropped() {
    let fixture = Fixture::start();
    set(
        &fixture,
        ALPHA_DISCORD,
        "jail",
        r#"{"enabled": true, "role_id": "300000000000000004"}"#,
    );
    let key = Some(&fixture.alpha_rw);
    let file = fixture.daemon.scratch_dir().join("export.json");
    stderr_of(
        modctl(&fixture, key)
            .args(["config", "export", ALPHA_DISCORD, "-o"])
            .arg(&file),
        0,
    );
    let refused = "`300000000000000004` is a discord role id; telegram has no roles";
    let import = || {
        let mut command = modctl(&fixture, key);
        command
            .args(["config", "import", ALPHA_TELEGRAM, "--yes"])
            .arg(&file);
        command
    };
    let clone = || {
        let mut command = modctl(&fixture, key);
        command.args([
            "config",
            "clone",
            ALPHA_TELEGRAM,
            "--from",
            ALPHA_DISCORD,
            "--yes",
        ]);
        command
    };
    let err = stderr_of(&mut import(), 1);
    assert!(
        err.contains("import refused, nothing was changed:\n  jail.role_id: ")
            && err.contains(refused)
            && err.contains(
                "hint: ids of another server's platform cannot move: `--drop-foreign-ids`"
            ),
        "{err}"
    );
    let err = stderr_of(&mut clone(), 1);
    assert!(
        err.contains("clone refused, nothing was changed:\n  jail.role_id: ")
            && err.contains(refused)
            && err.contains("--drop-foreign-ids"),
        "{err}"
    );

    let cleared = format!("warning: jail.role_id: cleared: {refused}");
    let err = stderr_of(import().args(["--drop-foreign-ids", "--dry-run"]), 0);
    assert!(err.contains(&cleared), "{err}");
    let err = stderr_of(clone().arg("--drop-foreign-ids"), 0);
    assert!(err.contains(&cleared), "{err}");
    let jail = stdout_of(
        modctl(&fixture, key).args(["config", "show", ALPHA_TELEGRAM, "jail", "--json"]),
        0,
    );
    let jail: serde_json::Value = serde_json::from_str(&jail).unwrap();
    assert_eq!(jail["enabled"], true);
    assert_eq!(jail["role_id"], serde_json::Value::Null);
}

#[test]
fn edit_needs_a_terminal() {
    let fixture = Fixture::start();
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args(["config", "edit", ALPHA_DISCORD, "jail"]),
        2,
    );
    assert!(
        err.contains("needs a terminal") && err.contains("config set"),
        "{err}"
    );
}

/// Re-importing a server's own export changes nothing and says so; with
/// `--drop-foreign-ids`, an id that cannot move keeps the target's own
/// valid value; a copy that turns webhooks on without a secret warns.
#[test]
fn reimport_keeps_target_ids_and_warns_of_unsigned_webhooks() {
    let fixture = fixture_with_two_guilds();
    let key = Some(&fixture.alpha_rw);
    let export = stdout_of(
        modctl(&fixture, key).args(["config", "export", ALPHA_DISCORD]),
        0,
    );
    let show = |server: &str| {
        stdout_of(
            modctl(&fixture, key).args(["config", "show", server, "--json"]),
            0,
        )
    };
    let before = show(ALPHA_DISCORD);
    let output = modctl(&fixture, key)
        .args(["config", "import", ALPHA_DISCORD, "-", "--yes"])
        .write_stdin(export.clone())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("no changes"), "{err}");
    let table = stdout_of(
        modctl(&fixture, key)
            .args(["config", "import", ALPHA_DISCORD, "-", "--yes", "--table"])
            .write_stdin(export),
        0,
    );
    assert_eq!(table, "No changes.\n");
    assert_eq!(show(ALPHA_DISCORD), before);

    // Telegram's own mod-log chat stays; Discord's jail role cannot move
    // and Telegram has none: cleared.
    stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "general.modlog_channel_id=300000000000000003",
            "jail.role_id=300000000000000004",
        ]),
        0,
    );
    stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_TELEGRAM,
            "general.modlog_channel_id",
            "-1001234567890",
        ]),
        0,
    );
    let err = stderr_of(
        modctl(&fixture, key).args([
            "config",
            "clone",
            ALPHA_TELEGRAM,
            "--from",
            ALPHA_DISCORD,
            "--drop-foreign-ids",
            "--yes",
        ]),
        0,
    );
    assert!(
        err.contains("warning: general.modlog_channel_id: kept this server's `-1001234567890`: `300000000000000003` is a discord channel id"),
        "{err}"
    );
    assert!(err.contains("warning: jail.role_id: cleared: "), "{err}");
    let telegram: serde_json::Value = serde_json::from_str(&show(ALPHA_TELEGRAM)).unwrap();
    assert_eq!(
        telegram["sections"]["general"]["modlog_channel_id"],
        "-1001234567890"
    );
    assert_eq!(
        telegram["sections"]["jail"]["role_id"],
        serde_json::Value::Null
    );

    // Webhooks on, no secret on the target: the copy warns.
    fixture
        .daemon
        .write(|tx| modctld::store::teams::set_plan(tx, "alpha", modctl_types::Plan::Pro));
    stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "webhooks.url=https://hooks.example.com/modctl",
            "webhooks.enabled=true",
        ]),
        0,
    );
    let err = stderr_of(
        modctl(&fixture, key).args(["config", "clone", SECOND, "--from", ALPHA_DISCORD, "--yes"]),
        0,
    );
    assert!(
        err.contains("warning: webhooks.enabled: webhooks are on but server 100000000000000002 has no signing secret"),
        "{err}"
    );
}
