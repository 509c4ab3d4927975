//! The safer config writes against a real daemon, without a terminal:
//! single-field set, the reset warning of a whole-section replace,
//! rollback from the audit trail, and import/clone/rollback refused without
//! `--yes` when nobody can confirm.

use crate::support::{SECOND, fixture_with_two_guilds, modctl, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, Fixture};

/// `modctl ARGS` with the read-write key: its stderr, asserting the exit code.
fn stderr_with_rw(fixture: &Fixture, args: &[&str], code: i32) -> String {
    stderr_of(modctl(fixture, Some(&fixture.alpha_rw)).args(args), code)
}

/// `modctl config set ALPHA_DISCORD PATH VALUE`, which must succeed.
fn set(fixture: &Fixture, path: &str, value: &str) {
    stdout_of(
        modctl(fixture, Some(&fixture.alpha_rw)).args([
            "config",
            "set",
            ALPHA_DISCORD,
            path,
            value,
        ]),
        0,
    );
}

fn field(fixture: &Fixture, path: &str) -> String {
    let section = path.split('.').next().unwrap();
    let out = stdout_of(
        modctl(fixture, Some(&fixture.alpha_ro)).args(["config", "show", ALPHA_DISCORD, section]),
        0,
    );
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{path}\t")))
        .unwrap_or_else(|| panic!("{path} not in {out}"))
        .to_owned()
}

fn revision(fixture: &Fixture) -> String {
    let out = stdout_of(
        modctl(fixture, Some(&fixture.alpha_ro)).args(["config", "show", ALPHA_DISCORD]),
        0,
    );
    out.lines().next().unwrap().to_owned()
}

#[test]
fn one_field_is_set_with_its_value_parsed_as_json_or_text() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_rw);
    let table = stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "moderation.require_reason",
            "true",
            "--table",
        ]),
        0,
    );
    assert_snapshot!("set_field_table", table);
    assert_eq!(field(&fixture, "moderation.require_reason"), "true");
    // The rest of the section is kept (not reset by the write).
    let plain = stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "moderation.default_timeout_minutes",
            "90",
        ]),
        0,
    );
    assert_snapshot!("set_field_plain", plain);
    assert_eq!(field(&fixture, "moderation.require_reason"), "true");
    // Text that is not JSON is a string; the daemon validates it.
    set(&fixture, "general.locale", "de");
    assert_eq!(field(&fixture, "general.locale"), "de");
    // Setting the same value writes nothing.
    let before = revision(&fixture);
    let err = stderr_with_rw(
        &fixture,
        &["config", "set", ALPHA_DISCORD, "general.locale", "de"],
        0,
    );
    assert!(err.contains("already de; nothing changed"), "{err}");
    assert_eq!(revision(&fixture), before);
}

#[test]
fn bad_field_paths_and_values_are_refused_and_change_nothing() {
    let fixture = Fixture::start();
    let before = revision(&fixture);
    // (path, value, exit code, what stderr says): path, field and value are
    // checked by modctl before any request (2).
    for (path, value, code, says) in [
        (
            "moderation",
            "true",
            2,
            "invalid field path `moderation`: it names no field",
        ),
        (
            "strikes.ladder[3].at",
            "1",
            2,
            "`strikes.ladder[3].at`: no such field",
        ),
        (
            "moderation.no_such_field",
            "1",
            2,
            "`moderation.no_such_field`: no such field",
        ),
        (
            "moderation.require_reason",
            "maybe",
            2,
            "moderation.require_reason takes true or false, got `maybe`",
        ),
        (
            "strikes.expiry_days",
            "9999",
            2,
            "strikes.expiry_days: must be between 0 and 3650",
        ),
    ] {
        let err = stderr_with_rw(
            &fixture,
            &["config", "set", ALPHA_DISCORD, path, value],
            code,
        );
        assert!(err.contains(says), "{path} {value}: {err}");
    }
    assert_eq!(revision(&fixture), before);
}

#[test]
fn a_whole_section_replace_lists_the_fields_it_reset() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_rw);
    set(&fixture, "moderation.require_reason", "true");
    set(&fixture, "moderation.default_timeout_minutes", "90");
    let err = stderr_of(
        modctl(&fixture, key)
            .args(["config", "set", ALPHA_DISCORD, "moderation", "--file", "-"])
            .write_stdin(r#"{"default_timeout_minutes": 90}"#),
        0,
    );
    assert_snapshot!("section_replace_reset_warning", err);
    assert_eq!(field(&fixture, "moderation.require_reason"), "false");
}

#[test]
fn rollback_restores_an_earlier_revision_as_one_change() {
    let fixture = Fixture::start();
    for (path, value) in [
        ("strikes.expiry_days", "7"),
        ("moderation.require_reason", "true"),
        ("strikes.expiry_days", "14"),
        ("general.locale", "de"),
    ] {
        set(&fixture, path, value);
    }
    assert_eq!(revision(&fixture), "revision\t4");
    // Nobody to confirm: refused, nothing changed.
    let err = stderr_with_rw(
        &fixture,
        &["config", "rollback", ALPHA_DISCORD, "--to-revision", "1"],
        2,
    );
    assert!(err.contains("--yes"), "{err}");
    assert_eq!(revision(&fixture), "revision\t4");

    let err = stderr_with_rw(
        &fixture,
        &[
            "config",
            "rollback",
            ALPHA_DISCORD,
            "--to-revision",
            "1",
            "--yes",
        ],
        0,
    );
    assert_snapshot!("rollback_diff", err);
    assert_eq!(field(&fixture, "strikes.expiry_days"), "7");
    assert_eq!(field(&fixture, "moderation.require_reason"), "false");
    assert_eq!(field(&fixture, "general.locale"), "en");
    assert_eq!(revision(&fixture), "revision\t5");
    // The audit trail says it was a rollback, not an import (issue #27).
    let audit = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["config", "audit", ALPHA_DISCORD]),
        0,
    );
    // Plain rows: id, when, actor, section, source, revision, changes.
    let sources: Vec<(&str, &str)> = audit
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            (fields[5], fields[4])
        })
        .collect();
    assert!(sources.contains(&("5", "rollback")), "{audit}");
    assert!(
        sources
            .iter()
            .all(|(rev, source)| (*rev == "5") == (*source == "rollback")),
        "{audit}"
    );

    let err = stderr_with_rw(
        &fixture,
        &[
            "config",
            "rollback",
            ALPHA_DISCORD,
            "--to-revision",
            "5",
            "--yes",
        ],
        2,
    );
    assert!(
        err.contains("is at revision 5; --to-revision must be lower"),
        "{err}"
    );
}

#[test]
fn import_and_clone_without_a_terminal_need_yes_and_change_nothing() {
    let fixture = fixture_with_two_guilds();
    let key = Some(&fixture.alpha_rw);
    stdout_of(
        modctl(&fixture, key).args(["config", "set", SECOND, "strikes.expiry_days", "7"]),
        0,
    );
    let envelope = stdout_of(modctl(&fixture, key).args(["config", "export", SECOND]), 0);
    let err = stderr_of(
        modctl(&fixture, key)
            .args(["config", "import", ALPHA_DISCORD])
            .write_stdin(envelope),
        2,
    );
    assert!(
        err.contains("`config import` changes the config: confirmation needed")
            && err.contains("--yes"),
        "{err}"
    );
    let err = stderr_with_rw(
        &fixture,
        &["config", "clone", ALPHA_DISCORD, "--from", SECOND],
        2,
    );
    assert!(err.contains("`config clone` changes the config"), "{err}");
    assert_eq!(revision(&fixture), "revision\t0");
}

/// An id is taken as typed (the field's type decides, not JSON syntax), and
/// several fields, of several sections, are one write: one revision.
#[test]
fn ids_as_typed_and_several_fields_in_one_revision() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_rw);
    set(&fixture, "jail.role_id", "900000000000000006");
    assert_eq!(field(&fixture, "jail.role_id"), "900000000000000006");
    stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            modctl_e2e::ALPHA_TELEGRAM,
            "general.modlog_channel_id",
            "-1001234567890",
        ]),
        0,
    );
    let before: u64 = revision(&fixture)
        .rsplit('\t')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let out = stdout_of(
        modctl(&fixture, key).args([
            "config",
            "set",
            ALPHA_DISCORD,
            "jail.enabled=true",
            "jail.channel_id=900000000000000007",
            "strikes.expiry_days=7",
        ]),
        0,
    );
    assert_eq!(out.lines().count(), 3, "{out}");
    let after: u64 = revision(&fixture)
        .rsplit('\t')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(after, before + 1);
    assert_eq!(field(&fixture, "jail.enabled"), "true");
    assert_eq!(field(&fixture, "jail.channel_id"), "900000000000000007");
    assert_eq!(field(&fixture, "strikes.expiry_days"), "7");
    // One bad field and nothing is written.
    stderr_with_rw(
        &fixture,
        &[
            "config",
            "set",
            ALPHA_DISCORD,
            "strikes.expiry_days=8",
            "jail.enabled=maybe",
        ],
        2,
    );
    assert_eq!(field(&fixture, "strikes.expiry_days"), "7");
}
