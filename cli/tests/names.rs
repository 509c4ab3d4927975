//! Names beside ids (issue #27) in the CLI, against a real daemon whose
//! servers are connected to the simulator and whose name cache is given
//! the members' names as the event path would: tables show `name (id)` at
//! 60 and 120 columns, piped rows keep the id and add the name at the end
//! (a tab or line break in a name never splits a row), and `@name` stands
//! for a user id when exactly one member has that name.

use crate::support::{modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctld::events::NameKind;
use modctld::operator::demo::discord_members as dm;

/// A fixture whose daemon knows Alice, Bob (a name with a tab and a line
/// break) and two members called Sam; Bob warned, Alice jailed by `@alice`.
fn fixture() -> Fixture {
    let fixture = Fixture::simulated();
    let names = &fixture.daemon.state().names;
    names.put(ALPHA_DISCORD, NameKind::User, dm::ALICE, "alice");
    names.put(ALPHA_DISCORD, NameKind::User, dm::BOB, "Bob\tthe\nBuilder");
    names.put(ALPHA_DISCORD, NameKind::User, dm::MODERATOR, "sam");
    names.put(ALPHA_DISCORD, NameKind::User, dm::ADA, "Sam");
    let key = Some(&fixture.alpha_rw);
    stdout_of(
        modctl(&fixture, key).args(["action", "warn", ALPHA_DISCORD, dm::BOB, "-r", "spam"]),
        0,
    );
    stdout_of(
        modctl(&fixture, key).args(["action", "jail", ALPHA_DISCORD, "@alice", "--yes"]),
        0,
    );
    fixture
}

#[test]
fn tables_show_name_and_id_and_piped_rows_add_a_name_column() {
    let fixture = fixture();
    let keys = [&fixture.alpha_rw];
    let at = |columns: &str, args: &[&str]| {
        stable(
            &stdout_of(
                modctl(&fixture, Some(&fixture.alpha_ro))
                    .env("COLUMNS", columns)
                    .args(args)
                    .arg("--table"),
                0,
            ),
            &keys,
        )
    };
    let list = ["cases", "list", ALPHA_DISCORD];
    let jails = ["jails", ALPHA_DISCORD];
    let strikes = ["strikes", ALPHA_DISCORD];
    assert_snapshot!("cases_list_60", at("60", &list));
    assert_snapshot!("cases_list_120", at("120", &list));
    assert_snapshot!("jails_60", at("60", &jails));
    assert_snapshot!("jails_120", at("120", &jails));
    assert_snapshot!("strikes_60", at("60", &strikes));
    assert_snapshot!("strikes_120", at("120", &strikes));
    for table in [at("60", &list), at("60", &jails), at("60", &strikes)] {
        for line in table.lines() {
            assert!(line.chars().count() <= 60, "{line}");
        }
    }

    // Piped: the id where it always was, the name last, the tab and line
    // break of Bob's name as spaces (one row per case, every row as many
    // fields).
    let plain = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_snapshot!("cases_list_plain", stable(&plain, &keys));
    let rows: Vec<Vec<&str>> = plain.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{plain}");
    assert!(rows.iter().all(|r| r.len() == 12), "{plain}");
    assert_eq!((rows[1][2], rows[1][11]), (dm::BOB, "Bob the Builder"));
    assert_eq!((rows[0][2], rows[0][11]), (dm::ALICE, "alice"));
    let jails_plain = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["jails", ALPHA_DISCORD]),
        0,
    );
    assert_snapshot!("jails_plain", stable(&jails_plain, &keys));
    let show = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["cases", "show", ALPHA_DISCORD, "1"]),
        0,
    );
    assert!(show.ends_with("user_name\tBob the Builder\n"), "{show}");

    // `--user @name` lists that member's cases.
    let bobs = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args([
            "cases",
            "list",
            ALPHA_DISCORD,
            "--user",
            "@alice",
        ]),
        0,
    );
    assert_eq!(bobs.lines().count(), 1, "{bobs}");
    assert!(bobs.starts_with("2\tjail\t"), "{bobs}");
}

#[test]
fn a_name_must_be_one_known_member() {
    let fixture = fixture();
    let warn = |user: &str| {
        let mut command = modctl(&fixture, Some(&fixture.alpha_rw));
        command.args(["action", "warn", ALPHA_DISCORD, user]);
        command
    };
    // Two members are called Sam (ignoring case): exit 2, each listed.
    let ambiguous = stderr_of(&mut warn("@sam"), 2);
    assert_snapshot!("ambiguous", ambiguous);
    // Nobody is: exit 5, with a hint to give the id.
    let unknown = stderr_of(&mut warn("@nobody"), 5);
    assert_snapshot!("unknown", unknown);
    // `@` alone: exit 2, in the CLI's words (no query string).
    let bare = stderr_of(&mut warn("@"), 2);
    assert!(bare.contains("`@` needs a name after it"), "{bare}");
    assert!(!bare.contains("?name="), "{bare}");
    // None recorded a case: only the fixture's two.
    let cases = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["cases", "list", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(cases.lines().count(), 2, "{cases}");
}

/// The export carries the names and the void in columns appended after the
/// old ones (issue #27), and `insights` names the repeat targets: in a
/// table as `name (id)`, piped as the last field.
#[test]
fn the_export_and_the_insights_carry_names() {
    let fixture = fixture();
    let key = Some(&fixture.alpha_rw);
    stdout_of(
        modctl(&fixture, key).args(["action", "warn", ALPHA_DISCORD, dm::BOB, "-r", "again"]),
        0,
    );
    stdout_of(
        modctl(&fixture, key).args(["cases", "void", ALPHA_DISCORD, "1", "-r", "wrong, sorry"]),
        0,
    );
    let csv = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args([
            "cases",
            "export",
            ALPHA_DISCORD,
            "--format",
            "csv",
        ]),
        0,
    );
    let mut records = read_csv(&csv).into_iter();
    let header = records.next().unwrap();
    // The columns from before names, where they were.
    assert_eq!(header[2], "user_id");
    assert_eq!(header[13], "created_at");
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    // Case 1 (Bob's voided warning) first: oldest first.
    let first = records.next().unwrap();
    assert_eq!(first.len(), header.len(), "{csv}");
    assert_eq!(first[column("user_id")], dm::BOB);
    assert_eq!(first[column("user_name")], "Bob the Builder");
    assert!(first[column("voided")].starts_with("20"), "{csv}");
    assert!(first[column("voided_by")].starts_with("key:"), "{csv}");
    assert_eq!(first[column("voided_reason")], "wrong, sorry");
    let second = records.next().unwrap();
    assert_eq!(second[column("voided")], "", "{csv}");
    let jsonl = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["cases", "export", ALPHA_DISCORD]),
        0,
    );
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["user_name"], "Bob the Builder");
    assert_eq!(first["voided"]["reason"], "wrong, sorry");

    // Bob has two cases: a repeat target, named.
    let plain = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["insights", ALPHA_DISCORD]),
        0,
    );
    assert!(
        plain.contains(&format!("repeat_target\t{}\t2\tBob the Builder\n", dm::BOB)),
        "{plain}"
    );
    // A table: `name (id)`; at 60 columns the name gives way, the id stays.
    for (columns, shown) in [
        ("120", format!("Bob the Builder ({})", dm::BOB)),
        ("60", format!("┆ {} ", dm::BOB)),
    ] {
        let table = stdout_of(
            modctl(&fixture, Some(&fixture.alpha_ro))
                .env("COLUMNS", columns)
                .args(["insights", ALPHA_DISCORD, "--table"]),
            0,
        );
        assert!(table.contains(&shown), "{columns}: {table}");
    }
}

/// Records of RFC 4180 CSV as a spreadsheet reads them: fields split at
/// commas outside quotes, `""` inside quotes a quote.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (c, _) => field.push(c),
        }
    }
    records
}
