//! A cheap "has anything committed?" for caches over the store (the key
//! cache, `crate::auth::cache`): `PRAGMA data_version` on a connection of
//! its own changes whenever any other connection (the daemon's writer, an
//! operator command in another process) commits. The why of the cache that
//! uses it is in that module's header.
//!
//! SQLite engine only (issue #29): this module works on rusqlite
//! connections directly, not through [`crate::store::sql`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// A watch connection over the database at a path, opened on first use
/// (when the store has made the database).
#[derive(Debug)]
pub struct ChangeWatch {
    path: PathBuf,
    conn: Option<Connection>,
}

impl ChangeWatch {
    /// A watch of the database at `path`; nothing is opened yet.
    pub fn new(path: &Path) -> ChangeWatch {
        ChangeWatch {
            path: path.to_owned(),
            conn: None,
        }
    }

    /// A number that changes whenever something committed since the last
    /// ask, or `None` when the watch cannot say now (it never waits: a
    /// caller then reads from the store, so a broken watch costs speed,
    /// never correctness).
    pub fn version(&mut self) -> Option<i64> {
        if self.conn.is_none() {
            match open(&self.path) {
                Ok(conn) => self.conn = Some(conn),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot open the key cache's watch connection; reading keys from the store");
                    return None;
                }
            }
        }
        let conn = self.conn.as_ref()?;
        let version = conn
            .prepare_cached("PRAGMA data_version")
            .and_then(|mut stmt| stmt.query_row([], |row| row.get("data_version")));
        match version {
            Ok(version) => Some(version),
            Err(e) => {
                // Busy (e.g. another process recovering the WAL) or worse:
                // the caller reads from the store; the next one asks again.
                tracing::debug!(error = %e, "the key cache's watch could not answer");
                None
            }
        }
    }
}

/// Opens the watch: never creates the database, never writes, never waits.
fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::ZERO)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
}
