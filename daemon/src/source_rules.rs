//! Rules of the daemon's layout that the compiler does not hold, checked
//! over its sources (issue #24):
//! - the store's boundary: no file outside `src/store/` names rusqlite or
//!   holds SQL, so the store is the only code that knows the database, and
//!   a second engine under the store's functions changes no caller (the
//!   compiler holds most of it already: a [`crate::store::Tx`] runs no SQL
//!   outside the store; this catches a new `rusqlite::Connection` opened
//!   elsewhere, or SQL prepared on one);
//! - one clock: only `src/clock.rs` reads the time of day, so tests that set
//!   the [`crate::clock::Clock`] control every timestamp;
//! - `AppState` is wiring: only the ways in (`api`, `workers`, `operator`,
//!   ...) hold the whole state; domain modules take what they use (a store,
//!   a clock, the platforms, or their own `Context`), so each can be tested
//!   without the whole application.

use std::path::{Path, PathBuf};

/// The code of `line`: what comes before a `//` comment (comments may talk
/// about SQL, rusqlite and the system time; code may not).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(at) if !line[..at].contains('"') => &line[..at],
        _ => line,
    }
}

/// Why `source` (a Rust file's text) breaks the boundary: one line per
/// offending line, with its number; empty when it keeps to it.
fn offences(source: &str) -> Vec<String> {
    const SQL_KEYWORDS: [&str; 18] = [
        "SELECT",
        "INSERT",
        "UPDATE",
        "DELETE",
        "REPLACE",
        "CREATE",
        "DROP",
        "ALTER",
        "PRAGMA",
        "BEGIN",
        "COMMIT",
        "ROLLBACK",
        "SAVEPOINT",
        "RELEASE",
        "WITH",
        "VACUUM",
        "ATTACH",
        "EXPLAIN",
    ];
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = code(line);
        if code.contains("rusqlite") {
            found.push(format!("line {}: names rusqlite: {}", n + 1, line.trim()));
        }
        // SQL is a string literal that starts with a statement's keyword
        // (messages that mention one, like "(PRAGMA quick_check)", do not).
        for (at, _) in code.match_indices('"') {
            // Leading blanks and escapes (`\n`, `\t`) are skipped.
            let literal = code[at + 1..].trim_start_matches([' ', '\t', '\\', 'n', 't']);
            let word: String = literal
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // A statement goes on after its keyword (on this line or the
            // next); a lone word (`"DELETE"`, an HTTP method) is not SQL.
            let rest = &literal[word.len()..];
            let goes_on = rest.is_empty() || rest.starts_with([' ', '\t', '\\']);
            if SQL_KEYWORDS.contains(&word.as_str()) && goes_on {
                found.push(format!("line {}: holds SQL: {}", n + 1, line.trim()));
                break;
            }
        }
    }
    found
}

/// The daemon's modules the store's code names (`crate::x`), but those the
/// store may use: its own, the clock and `ALLOWED`.
fn store_reaches(source: &str, allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        for (at, _) in code(line).match_indices("crate::") {
            let module: String = code(line)[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !["store", "clock"].contains(&module.as_str()) && !allowed.contains(&module.as_str())
            {
                found.push(format!(
                    "line {}: uses crate::{module}: {}",
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

/// Where `source` reads the time of day other than through the clock, or
/// makes a system clock of its own instead of using the one it is given.
fn clock_reads(source: &str) -> Vec<String> {
    const READS: [&str; 7] = [
        "Timestamp::now",
        "SystemTime::now",
        "Zoned::now",
        "UNIX_EPOCH.elapsed",
        "Utc::now",
        "OffsetDateTime::now",
        "Clock::system()",
    ];
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| READS.iter().any(|r| code(line).contains(r)))
        .map(|(n, line)| format!("line {}: reads the time of day: {}", n + 1, line.trim()))
        .collect()
}

/// Where `source` names `AppState` in its code (comments may talk about it).
fn names_app_state(source: &str) -> Vec<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = code(line);
            code.match_indices("AppState").any(|(at, word)| {
                !code[..at].ends_with(is_ident) && !code[at + word.len()..].starts_with(is_ident)
            })
        })
        .map(|(n, line)| format!("line {}: names AppState: {}", n + 1, line.trim()))
        .collect()
}

/// The files (and folders) that may hold the whole `AppState`: the wiring.
const WIRING: [&str; 11] = [
    // Defines it, and hands each domain module its part.
    "lib.rs",
    // The ways in: the HTTP API and its extractors, the HTTP server, the
    // background workers, the operator's commands, platform events.
    "api",
    "extract.rs",
    "auth",
    "http.rs",
    "http",
    "workers.rs",
    "operator",
    "receive",
    // Debt, being narrowed (issue #24): domain code that still takes the
    // whole state. Nothing may be added here.
    "webhooks",
    "moderation/expiry.rs",
];

/// Every `.rs` file under the daemon's `src/` but those `skip` says to,
/// with what `check` finds in it, as report lines.
fn scan(skip: impl Fn(&Path) -> bool, check: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "only {} files found under {}",
        files.len(),
        src.display()
    );
    let mut report = Vec::new();
    for file in files
        .iter()
        .filter(|f| !skip(f.strip_prefix(&src).unwrap_or(f)))
    {
        let source = std::fs::read_to_string(file).expect("read a source file");
        for found in check(&source) {
            report.push(format!(
                "{}: {found}",
                file.strip_prefix(&src).unwrap_or(file).display()
            ));
        }
    }
    report
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the daemon's sources") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

#[test]
fn no_code_outside_the_store_names_rusqlite_or_holds_sql() {
    // `source_rules.rs` names what it looks for.
    let report = scan(
        |file| file.starts_with("store") || file == Path::new("source_rules.rs"),
        offences,
    );
    assert!(
        report.is_empty(),
        "only `daemon/src/store/` may know the database: move these into a store function\n{}",
        report.join("\n")
    );
}

#[test]
fn the_store_depends_on_no_domain_module() {
    // The store sits at the bottom: wire types, the clock and its own
    // modules. The plan rules (claims, config writes, which events are
    // wanted) and key generation left it in issue #24; nothing reaches up.
    const STILL_REACHED: [&str; 0] = [];
    let report = scan(
        |file| !file.starts_with("store"),
        |source| store_reaches(source, &STILL_REACHED),
    );
    assert!(
        report.is_empty(),
        "the store may only use its own modules, the clock and wire types:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_platform_adapters_depend_on_no_domain_module() {
    // The adapters speak the platforms' protocols in their own types and
    // the store's (the events they decode, the simulator's tables); the
    // rules that use them sit above. `coordination` is below them too: the
    // interfaces of what several daemons would share (rate limits).
    let report = scan(
        |file| !file.starts_with("platform"),
        |source| store_reaches(source, &["platform", "coordination"]),
    );
    assert!(
        report.is_empty(),
        "the platform adapters may only use their own modules, the store, the clock, coordination and wire types:\n{}",
        report.join("\n")
    );
}

#[test]
fn only_the_clock_reads_the_time_of_day() {
    // Where a system clock is made: the clock itself; `AppState`'s
    // default (`lib.rs`); the operator's commands, which run without an
    // `AppState` (`operator::now`, the demo); the secret key's own stamps,
    // written while the store opens, before any `AppState` exists; tests.
    // `source_rules.rs` names what it looks for.
    const MAKE_THE_CLOCK: [&str; 4] = [
        "clock.rs",
        "lib.rs",
        "source_rules.rs",
        "store/secrets/key.rs",
    ];
    let report = scan(
        |file| {
            MAKE_THE_CLOCK.iter().any(|f| file == Path::new(f))
                || file.starts_with("operator")
                || file.to_string_lossy().ends_with("_tests.rs")
        },
        clock_reads,
    );
    assert!(
        report.is_empty(),
        "read the time from the `Clock` (in `AppState`, or passed in) instead:\n{}",
        report.join("\n")
    );
}

#[test]
fn only_the_wiring_names_app_state() {
    // `source_rules.rs` names what it looks for.
    let report = scan(
        |file| file == Path::new("source_rules.rs") || WIRING.iter().any(|w| file.starts_with(w)),
        names_app_state,
    );
    assert!(
        report.is_empty(),
        "`AppState` is wiring: take what you use (the store, the clock, the platforms, or a \
         `Context` of your module that `AppState` builds) instead:\n{}",
        report.join("\n")
    );
    // Every entry of the list is there, so none outlives what it names.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for wiring in WIRING {
        assert!(src.join(wiring).exists(), "{wiring} is in WIRING but gone");
    }
}

#[test]
fn the_check_finds_sql_and_rusqlite_but_not_words_about_them() {
    let bad = r#"
use rusqlite::params;
fn f(tx: &Tx) { tx.execute("DELETE FROM sim_roles WHERE id = ?1", [1]); }
const Q: &str = "SELECT 1";
let s = conn.prepare_cached(
    "\n   UPDATE servers SET name = ?1");
let t = tx.execute("\tDROP TABLE x", []);
let u = "SELECT
    id FROM teams";
"#;
    let found = offences(bad);
    assert_eq!(found.len(), 6, "{found:#?}");
    let fine = r#"
//! `PRAGMA data_version` changes whenever another connection commits.
// rusqlite is synchronous
let m = "the start-up check (PRAGMA quick_check) found nothing";
let n = "select a server"; // SELECT in a comment
let route = Route::new("DELETE", "/guilds/1/bans/2");
"#;
    assert_eq!(offences(fine), Vec::<String>::new());
}

#[test]
fn the_clock_check_finds_reads_of_the_time_but_not_words_about_them() {
    let bad = "let now = jiff::Timestamp::now();\nlet t = std::time::SystemTime::now();\n\
               let c = Clock::system();\nlet n = x.unwrap_or_else(Timestamp::now);\n";
    assert_eq!(clock_reads(bad).len(), 4);
    let fine =
        "// not Timestamp::now(): the clock\nlet now = clock.now();\nlet t = Instant::now();\n";
    assert_eq!(clock_reads(fine), Vec::<String>::new());
}

#[test]
fn the_store_check_finds_a_domain_module() {
    let source = "use crate::activity::ActivityEvent;\nuse crate::store::Tx;\n// see crate::moderation\nlet k = crate::plans::of(p);\n";
    assert_eq!(store_reaches(source, &[]).len(), 2);
    assert_eq!(store_reaches(source, &["plans"]).len(), 1);
}

#[test]
fn the_app_state_check_finds_the_state_but_not_words_about_it() {
    let bad = "use crate::AppState;\nuse crate::{AppState, plans};\n\
               pub async fn f(state: &AppState) {}\nlet s = AppState::new(store);\n";
    assert_eq!(names_app_state(bad).len(), 4, "{:#?}", names_app_state(bad));
    let fine = "//! kept in [`crate::AppState`]\n/// ([`AppState::abandon`])\n\
                let app_state = 1; // AppState\nstruct AppStates;\nlet x = MyAppState::new();\n";
    assert_eq!(names_app_state(fine), Vec::<String>::new());
}
