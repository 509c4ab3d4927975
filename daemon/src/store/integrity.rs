//! Whether the database file is sound.
//!
//! SQLite engine only (issue #29): this module works on rusqlite
//! connections directly, not through [`crate::store::sql`].
//!
//! A damaged page (a failing disk, a file copied while written, an edit by
//! hand) is otherwise found only by the request that reads it, as a `500`,
//! while `/ready` says the daemon is fine (issue #22). So `modctld serve`
//! checks the file before it listens and refuses to serve a corrupt one, and
//! `modctld check` checks it in full:
//!
//! - [`Depth::Quick`] is SQLite's `PRAGMA quick_check`: every page of every
//!   table and index is read and its structure checked (what a damaged page
//!   breaks), but an index is not compared with its table. It reads the whole
//!   file once (about 1 s per 450 MB from the page cache), so at start it
//!   runs under a time budget: a file too large to check in it is served
//!   after a warning saying how far the check got, and `modctld check` is
//!   the full answer.
//! - [`Depth::Full`] is `PRAGMA integrity_check`, which also matches every
//!   index entry with its row (about ten times the cost of the quick one).
//!
//! Both run on a connection of their own that writes nothing (`query_only`)
//! and never creates the file.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::BUSY_TIMEOUT;

/// The problems listed at most; SQLite stops looking after as many.
pub const MAX_PROBLEMS: usize = 100;

/// How thorough a check is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// `PRAGMA quick_check`, stopped after the budget.
    Quick {
        /// The most it may take.
        budget: Duration,
    },
    /// `PRAGMA integrity_check`, to the end.
    Full,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No problem.
    Sound,
    /// The file is damaged: SQLite's description of each problem found (at
    /// most [`MAX_PROBLEMS`]).
    Corrupt(Vec<String>),
    /// A quick check ran out of its budget before the end, having found
    /// nothing so far.
    Unfinished {
        /// How long it ran.
        after: Duration,
    },
}

/// Checks the database at `path` (which must exist) to `depth`. An error is a
/// failure to check (the file cannot be opened, another process holds a
/// lock), not a verdict: a file SQLite finds damaged while opening it is
/// [`Verdict::Corrupt`].
pub fn check(path: &Path, depth: Depth) -> Result<Verdict, super::StoreError> {
    match run(path, depth) {
        Err(e) if is_corruption(&e) => Ok(Verdict::Corrupt(vec![e.to_string()])),
        other => Ok(other?),
    }
}

fn run(path: &Path, depth: Depth) -> rusqlite::Result<Verdict> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "query_only", true)?;
    let (pragma, budget) = match depth {
        Depth::Quick { budget } => ("quick_check", Some(budget)),
        Depth::Full => ("integrity_check", None),
    };
    let started = Instant::now();
    // The budget is kept by a thread that interrupts the check when it runs
    // out, unless told (or dropped) first.
    let (done, finished) = mpsc::channel::<()>();
    let timer = budget.map(|budget| {
        let interrupt = conn.get_interrupt_handle();
        std::thread::spawn(move || {
            if finished.recv_timeout(budget) == Err(mpsc::RecvTimeoutError::Timeout) {
                interrupt.interrupt();
            }
        })
    });
    let problems = problems(&conn, pragma);
    drop(done);
    if let Some(timer) = timer {
        // The thread only waits on the channel, now closed.
        let _ = timer.join();
    }
    match problems {
        Ok(problems) if problems.is_empty() => Ok(Verdict::Sound),
        Ok(problems) => Ok(Verdict::Corrupt(problems)),
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::OperationInterrupted) => {
            Ok(Verdict::Unfinished {
                after: started.elapsed(),
            })
        }
        Err(e) => Err(e),
    }
}

/// The problems `pragma` finds in the whole file. Besides walking the pages,
/// the checks read each table's rows (for its `NOT NULL` and `CHECK`
/// constraints), and a damaged table stops that with "database disk image is
/// malformed", naming nothing: then each table is checked on its own, so the
/// report names the damaged ones.
fn problems(conn: &Connection, pragma: &str) -> rusqlite::Result<Vec<String>> {
    let whole = match rows(conn, &format!("PRAGMA {pragma}({MAX_PROBLEMS})")) {
        Err(e) if is_corruption(&e) => e,
        other => return other.map(without_ok),
    };
    let tables = rows(
        conn,
        "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name",
    )?;
    let mut problems = Vec::new();
    for table in tables {
        let quoted = table.replace('"', "\"\"");
        match rows(conn, &format!("PRAGMA {pragma}(\"{quoted}\")")) {
            Ok(found) => problems.extend(
                without_ok(found)
                    .into_iter()
                    .map(|problem| format!("table {table}: {problem}")),
            ),
            Err(e) if is_corruption(&e) => problems.push(format!("table {table}: {e}")),
            Err(e) => return Err(e),
        }
        if problems.len() >= MAX_PROBLEMS {
            problems.truncate(MAX_PROBLEMS);
            break;
        }
    }
    if problems.is_empty() {
        problems.push(whole.to_string());
    }
    Ok(problems)
}

/// SQLite engine only: the value of a one-column row read on a raw
/// connection (the checks', a backup's summary), as [`super::sql::Row::scalar`]
/// reads the domain queries'; debug builds check the row has one column.
pub(in crate::store) fn scalar<T: rusqlite::types::FromSql>(
    row: &rusqlite::Row<'_>,
) -> rusqlite::Result<T> {
    debug_assert_eq!(
        row.as_ref().column_count(),
        1,
        "a scalar read of several columns"
    );
    row.get(0)
}

/// Every row of `sql`, a one-column query, as text.
fn rows(conn: &Connection, sql: &str) -> rusqlite::Result<Vec<String>> {
    conn.prepare(sql)?
        .query_map([], scalar::<String>)?
        .collect()
}

/// A check's answer without its "ok" (its whole answer when it found nothing).
fn without_ok(mut rows: Vec<String>) -> Vec<String> {
    rows.retain(|row| row != "ok");
    rows
}

/// Whether `error` says the database file is damaged (or not a database).
pub(in crate::store) fn is_corruption(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[tokio::test]
    async fn a_new_database_is_sound_to_either_depth() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("modctld.db");
        let store = Store::open(&db).await.unwrap();
        for depth in [
            Depth::Quick {
                budget: Duration::from_secs(60),
            },
            Depth::Full,
        ] {
            assert_eq!(check(&db, depth).unwrap(), Verdict::Sound);
        }
        drop(store);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_corrupt_and_a_missing_one_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("modctld.db");
        std::fs::write(&db, vec![0x5a; 8192]).unwrap();
        match check(&db, Depth::Full).unwrap() {
            Verdict::Corrupt(problems) => {
                assert!(problems[0].contains("not a database"), "{problems:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(check(&dir.path().join("missing.db"), Depth::Full).is_err());
        assert!(!dir.path().join("missing.db").exists());
    }
}
