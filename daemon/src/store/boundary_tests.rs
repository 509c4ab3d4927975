//! The store's boundary, held (issue #24): no file of the daemon outside
//! `src/store/` names rusqlite or holds SQL, so the store is the only code
//! that knows the database, and a second engine under the store's functions
//! changes no caller. The compiler holds most of it already (a [`super::Tx`]
//! runs no SQL outside the store); this catches the rest: a new
//! `rusqlite::Connection` opened elsewhere, or SQL prepared on one.

use std::path::{Path, PathBuf};

/// Why `source` (a Rust file's text) breaks the boundary: one line per
/// offending line, with its number; empty when it keeps to it.
fn offences(source: &str) -> Vec<String> {
    const SQL_STARTS: [&str; 9] = [
        "SELECT ",
        "INSERT ",
        "UPDATE ",
        "DELETE ",
        "CREATE ",
        "PRAGMA ",
        "BEGIN",
        "SAVEPOINT ",
        "WITH ",
    ];
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        // Comments may talk about SQL and rusqlite; code may not.
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        if code.contains("rusqlite") {
            found.push(format!("line {}: names rusqlite: {}", n + 1, line.trim()));
        }
        // SQL is a string literal that starts with a statement's keyword
        // (messages that mention one, like "(PRAGMA quick_check)", do not).
        for (at, _) in code.match_indices('"') {
            let literal = code[at + 1..].trim_start_matches([' ', '\\', 'n']);
            if SQL_STARTS.iter().any(|k| literal.starts_with(k)) {
                found.push(format!("line {}: holds SQL: {}", n + 1, line.trim()));
                break;
            }
        }
    }
    found
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let store = src.join("store");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut report = Vec::new();
    let mut checked = 0;
    for file in files.iter().filter(|f| !f.starts_with(&store)) {
        checked += 1;
        let source = std::fs::read_to_string(file).expect("read a source file");
        for offence in offences(&source) {
            report.push(format!(
                "{}: {offence}",
                file.strip_prefix(&src).unwrap_or(file).display()
            ));
        }
    }
    assert!(
        checked > 50,
        "only {checked} files found under {}",
        src.display()
    );
    assert!(
        report.is_empty(),
        "only `daemon/src/store/` may know the database: move these into a store function\n{}",
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
"#;
    let found = offences(bad);
    assert_eq!(found.len(), 4, "{found:#?}");
    let fine = r#"
//! `PRAGMA data_version` changes whenever another connection commits.
// rusqlite is synchronous
let m = "the start-up check (PRAGMA quick_check) found nothing";
let n = "select a server"; // SELECT in a comment
"#;
    assert_eq!(offences(fine), Vec::<String>::new());
}
