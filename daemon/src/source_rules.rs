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
//! - one surface: the store's modules run SQL through `store::sql` only;
//!   the raw connection behind it is the engine's code's alone (issue #29);
//! - rows by name: the store reads a row's columns by name (a type's in its
//!   one `FromRow` mapping), never by index, but the one column of a scalar
//!   query, through `store::scalar`; so a column added to or moved in a
//!   `SELECT` cannot shift what another column is read as.

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
const WIRING: [&str; 9] = [
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
];

/// Where `source` (a file of the store) reads a row by index rather than by
/// column name: `row.get(3)`, `r.get(0)`, `row.get::<_, i64>(at + 6)`,
/// `row.get_ref(i)`, a row turned into a tuple (`row.try_into()`).
///
/// The text does not say which values are rows, so a call counts as a read
/// of a row when it is one of `Row`'s own getters (`get_ref`, `get_unwrap`,
/// `get_ref_unwrap`), when it names two type parameters (`get::<_, T>`: a
/// map's or a slice's `get` has one), when its receiver is called `row` or
/// `r` (as every row of the store is), or when it is given a number (a
/// slice's `get(0)` is `first()` for clippy anyway). Such a read passes
/// when it names its column: a string literal; or where a lookup by name
/// found the column, a field of a value called `columns`
/// (`row.get(columns.number)`: a listing finds its columns once, not for
/// every row, see `store::cases::CaseColumns`); or either handed down to a
/// helper in a variable called `name` or `column`. The one read by index
/// allowed is the `row.get(0)` of `fn scalar` (`store/mod.rs`), which debug
/// builds check is given one-column rows only. What this misses: a row
/// bound under another name and read through a variable
/// (`x.get(i)`), or a variable called `name` that holds a number; those are
/// left to review.
fn index_reads(source: &str) -> Vec<String> {
    const GETTERS: [&str; 4] = ["get", "get_ref", "get_unwrap", "get_ref_unwrap"];
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let lines: Vec<&str> = source.lines().collect();
    let text: String = lines.iter().map(|l| code(l)).collect::<Vec<_>>().join("\n");
    // The body of `fn scalar`: from its signature to its closing brace.
    let scalar_body = lines
        .iter()
        .position(|l| code(l).contains("fn scalar<"))
        .map(|start| {
            let end = lines[start..]
                .iter()
                .position(|l| *l == "}")
                .map_or(lines.len(), |n| start + n);
            start..end
        });
    let mut found = Vec::new();
    for (dot, _) in text.match_indices('.') {
        let after = &text[dot + 1..];
        let method: String = after.chars().take_while(|&c| ident(c)).collect();
        if !GETTERS.contains(&method.as_str()) {
            continue;
        }
        let mut rest = &after[method.len()..];
        // Type parameters, `::<_, Option<i64>>`, nested brackets and all.
        let mut generics = "";
        if let Some(turbofish) = rest.strip_prefix("::<") {
            let mut depth = 1;
            let Some(end) = turbofish.find(|c| {
                depth += match c {
                    '<' => 1,
                    '>' => -1,
                    _ => 0,
                };
                depth == 0
            }) else {
                continue;
            };
            generics = &turbofish[..end];
            rest = &turbofish[end + 1..];
        }
        let Some(argument) = rest.strip_prefix('(') else {
            continue;
        };
        let argument = argument.trim_start();
        let receiver: String = text[..dot]
            .chars()
            .rev()
            .take_while(|&c| ident(c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let word: String = argument.chars().take_while(|&c| ident(c)).collect();
        let whole_word = argument[word.len()..].trim_start().starts_with([')', ',']);
        let number = !word.is_empty() && whole_word && word.chars().all(|c| c.is_ascii_digit());
        let of_a_row = method != "get"
            || generics.contains(',')
            || ["row", "r"].contains(&receiver.as_str())
            || number;
        let found_by_name = argument
            .strip_prefix("columns.")
            .is_some_and(|field| field.starts_with(|c: char| c.is_ascii_lowercase()));
        let by_name = argument.starts_with('"')
            || found_by_name
            || (whole_word && ["name", "column"].contains(&word.as_str()));
        let line = text[..dot].matches('\n').count();
        let in_scalar = scalar_body
            .as_ref()
            .is_some_and(|body| body.contains(&line));
        if of_a_row && !by_name && !(in_scalar && word == "0" && whole_word) {
            found.push(format!(
                "line {}: reads a row by index: {}",
                line + 1,
                lines[line].trim()
            ));
        }
    }
    for (n, line) in lines.iter().enumerate() {
        if [
            "row.try_into()",
            "r.try_into()",
            "try_from(row)",
            "try_from(r)",
        ]
        .iter()
        .any(|tuple| code(line).contains(tuple))
        {
            found.push(format!(
                "line {}: reads a row by position: {}",
                n + 1,
                line.trim()
            ));
        }
    }
    found
}

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
    // the store's (the simulator's tables); the
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
fn the_event_path_depends_on_no_domain_module() {
    // The model, the decoders and the fan-out sit below their consumers
    // (the activity counts, the automation), which name them, never the
    // other way round. The decoders read payloads with the platform
    // module's helpers and report its error type.
    let report = scan(
        |file| !file.starts_with("events"),
        |source| store_reaches(source, &["events", "platform", "sync"]),
    );
    assert!(
        report.is_empty(),
        "the event path may only use its own modules, the platform adapters' helpers, the store, the clock and wire types:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_log_channels_depend_on_no_module_that_writes_to_them() {
    // `crate::moderation`, `crate::config` and the automation write log
    // entries in their transactions (`crate::logs::case_settled`, ...), so
    // the log channels sit below them: they render and post, with the
    // store's errors, the platforms' posts, the locale and the claims of
    // the delivery runs, and name none of their writers. They count their
    // posts in a `crate::metrics` counter (an instrument, handed to them).
    let report = scan(
        |file| !file.starts_with("logs"),
        |source| {
            store_reaches(
                source,
                &["logs", "platform", "coordination", "locale", "metrics"],
            )
        },
    );
    assert!(
        report.is_empty(),
        "the log channels may only use their own modules, the store, the clock, the platforms, the locale, coordination, metrics counters and wire types:\n{}",
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

/// The store's files that may take the raw connection from behind the
/// `store::sql` surface (`Sql::sqlite`): the surface itself, and the engine's
/// own code that runs on a `Tx` (the key check and sealing at open). Any
/// other module speaks to the database only through the surface, so a
/// second engine under it changes no module (issue #29).
const RAW_CONNECTION: [&str; 3] = [
    "store/sql.rs",
    "store/secrets/key.rs",
    "store/secrets/mod.rs",
];

/// Where `source` takes the raw connection from behind the surface.
fn raw_connection(source: &str) -> Vec<String> {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| code(line).contains(".sqlite()"))
        .map(|(n, line)| format!("line {}: takes the raw connection: {}", n + 1, line.trim()))
        .collect()
}

#[test]
fn only_the_engine_code_reaches_the_raw_connection() {
    let report = scan(
        |file| !file.starts_with("store") || RAW_CONNECTION.iter().any(|f| file == Path::new(f)),
        raw_connection,
    );
    assert!(
        report.is_empty(),
        "run SQL through `tx.sql` (`store::sql`), not on the raw connection:\n{}",
        report.join("\n")
    );
}

#[test]
fn the_store_reads_rows_by_column_name() {
    let report = scan(|file| !file.starts_with("store"), index_reads);
    assert!(
        report.is_empty(),
        "read these columns by name (`row.get(\"number\")`, a type's in its `FromRow`), \
         or a one-column query's value through `store::scalar`:\n{}",
        report.join("\n")
    );
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

#[test]
fn the_row_check_finds_reads_by_index_but_not_by_name() {
    let bad = r#"
let a = row.get(3)?;
let b: i64 = r.get(0)?;
let c = row.get::<_, Option<i64>>(at + 6)?.map(timestamp);
let d = row.get_ref(i)?.as_str()?;
stmt.query_row([], |row| Ok((row.get(0)?, row.get("x")?)));
let f = other.get(2);
let g = row.get::<_, i64>(
    1,
)?;
let t: (i64, String) = row.try_into()?;
let u = row.get(column + 1)?;
fn scalar<T: FromSql>(row: &Row<'_>) -> rusqlite::Result<T> {
    row.get(1)
}
"#;
    let found = index_reads(bad);
    assert_eq!(found.len(), 10, "{found:#?}");
    let fine = r#"
let a = row.get("number")?;
let b = row.get::<_, Option<i64>>("expires_at")?.map(timestamp);
let c = row.get_ref("action")?.as_str()?;
let count = |name| row.get::<_, i64>(name).map(|n| n.max(0) as u64);
let id = row.get(columns.number)?;
let source = row.get_ref(columns.source)?.as_str()?;
let d = days.get(&day);
let e = sums.get(CaseSource::Escalation.as_str());
let f = TimeZone::get(&zone);
// row.get(3) in a comment
stmt.query_row([id], scalar)?;
pub(in crate::store) fn scalar<T: FromSql>(
    row: &Row<'_>,
) -> rusqlite::Result<T> {
    row.get(0)
}
"#;
    assert_eq!(index_reads(fine), Vec::<String>::new());
}
