//! `modctl cases edit|void`, `modctl strikes clear` and key names on cases
//! (issue #27) against a real daemon whose servers are connected to the
//! simulator: tables, piped rows and `--json`.

use crate::support::{modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::Scope;
use modctld::operator::demo::discord_members as dm;

/// A fixture with two warnings of Bob, the first by Mia's named key, and
/// a note of Alice by the unnamed `alpha_rw`.
fn fixture() -> (Fixture, modctl_e2e::TestKey) {
    let fixture = Fixture::simulated();
    let mia = fixture.daemon.named_key("alpha", Scope::Write, "Mia");
    stdout_of(
        modctl(&fixture, Some(&mia)).args(["action", "warn", ALPHA_DISCORD, dm::BOB, "-r", "spam"]),
        0,
    );
    stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args([
            "action",
            "warn",
            ALPHA_DISCORD,
            dm::BOB,
            "-r",
            "rude",
        ]),
        0,
    );
    stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args([
            "action",
            "note",
            ALPHA_DISCORD,
            dm::ALICE,
            "-r",
            "watch",
        ]),
        0,
    );
    (fixture, mia)
}

#[test]
fn edit_and_void_print_the_case_with_its_corrections() {
    let (fixture, mia) = fixture();
    let keys = [&mia, &fixture.alpha_rw];
    let as_mia = || modctl(&fixture, Some(&mia));
    let edited = stdout_of(
        as_mia().args([
            "cases",
            "edit",
            ALPHA_DISCORD,
            "1",
            "--reason",
            "spam links",
            "--table",
        ]),
        0,
    );
    assert_snapshot!("edit_table", stable(&edited, &keys));
    let voided = stdout_of(
        as_mia().args(["cases", "void", ALPHA_DISCORD, "1", "-r", "wrong member"]),
        0,
    );
    assert_snapshot!("void_plain", stable(&voided, &keys));
    let json = stdout_of(
        as_mia().args(["cases", "show", ALPHA_DISCORD, "1", "--json"]),
        0,
    );
    assert_snapshot!("show_voided_json", stable(&json, &keys));

    // Listings: voided in the table's action, the name beside the key id
    // (wide), and both trailing columns piped.
    let wide = stdout_of(
        as_mia().args(["cases", "list", ALPHA_DISCORD, "-o", "wide"]),
        0,
    );
    assert_snapshot!("list_wide", stable(&wide, &keys));
    let plain = stdout_of(as_mia().args(["cases", "list", ALPHA_DISCORD]), 0);
    assert_snapshot!("list_plain", stable(&plain, &keys));
    let by_mia = stdout_of(
        as_mia().args(["cases", "list", ALPHA_DISCORD, "--actor", "mia"]),
        0,
    );
    assert_eq!(by_mia.lines().count(), 1, "{by_mia}");
    assert!(by_mia.starts_with("1\twarn\t"), "{by_mia}");
}

#[test]
fn strikes_clear_prints_the_clear_and_strikes_show_it() {
    let (fixture, mia) = fixture();
    let keys = [&mia, &fixture.alpha_rw];
    let as_mia = || modctl(&fixture, Some(&mia));
    let table = stdout_of(
        as_mia().args([
            "strikes",
            "clear",
            ALPHA_DISCORD,
            dm::BOB,
            "--reason",
            "appeal accepted",
            "--table",
        ]),
        0,
    );
    assert_snapshot!("clear_table", stable(&table, &keys));
    let plain = stdout_of(as_mia().args(["strikes", ALPHA_DISCORD]), 0);
    assert_snapshot!("strikes_plain_after_clear", stable(&plain, &keys));
    let wide = stdout_of(as_mia().args(["strikes", ALPHA_DISCORD, "-o", "wide"]), 0);
    assert_snapshot!("strikes_wide_after_clear", stable(&wide, &keys));
    let json = stdout_of(as_mia().args(["strikes", ALPHA_DISCORD, "--json"]), 0);
    assert_snapshot!("strikes_json_after_clear", stable(&json, &keys));

    // Nothing left to clear: exit 1, in the CLI's words.
    let err = stderr_of(
        as_mia().args(["strikes", "clear", ALPHA_DISCORD, dm::BOB, "-r", "again"]),
        1,
    );
    assert_snapshot!("clear_nothing", stable(&err, &keys));
}

#[test]
fn refused_corrections_speak_the_clis_words() {
    let (fixture, mia) = fixture();
    let keys = [&mia, &fixture.alpha_rw];
    let empty = stderr_of(
        modctl(&fixture, Some(&mia)).args(["cases", "void", ALPHA_DISCORD, "1", "--reason", " "]),
        1,
    );
    assert_snapshot!("void_empty_reason", stable(&empty, &keys));
    let read_only = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args([
            "cases",
            "edit",
            ALPHA_DISCORD,
            "1",
            "--reason",
            "x",
        ]),
        4,
    );
    assert!(read_only.contains("write"), "{read_only}");
    let missing = stderr_of(
        modctl(&fixture, Some(&mia)).args(["cases", "void", ALPHA_DISCORD, "1"]),
        2,
    );
    assert!(missing.contains("--reason"), "{missing}");
    let unknown = stderr_of(
        modctl(&fixture, Some(&mia)).args(["cases", "list", ALPHA_DISCORD, "--actor", "zed"]),
        1,
    );
    assert_snapshot!("actor_unknown", stable(&unknown, &keys));
}

#[test]
fn whoami_names_a_named_key() {
    let fixture = Fixture::start();
    let mia = fixture.daemon.named_key("alpha", Scope::Write, "Mia");
    let plain = stdout_of(modctl(&fixture, Some(&mia)).args(["whoami", "--plain"]), 0);
    assert!(
        plain.contains("\nlabel\ttest\nname\tMia\nscopes\t"),
        "{plain}"
    );
    let unnamed = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args(["whoami", "--plain"]),
        0,
    );
    assert!(!unnamed.contains("\nname\t"), "{unnamed}");
}
