//! The SQLite store.
//!
//! # Why it looks like this
//!
//! rusqlite is synchronous: every call may block on disk I/O or on SQLite's own
//! locks. Running it on a tokio worker thread would stall every other request
//! scheduled on that thread, so **all SQLite work runs on tokio's blocking pool**
//! (`spawn_blocking`), and async code only ever *waits* for a connection.
//!
//! The API is read-heavy with occasional writes, and SQLite in WAL mode lets
//! many readers run alongside one writer. The store mirrors that:
//!
//! - **One writer connection** behind an async mutex. Writers queue on the
//!   mutex (an async wait, no thread is held) instead of fighting over SQLite's
//!   write lock and hitting `SQLITE_BUSY`. Every write runs in one
//!   `BEGIN IMMEDIATE` transaction, so a closure either commits whole or not at
//!   all, which is what "bad input changes nothing" needs.
//! - **A small pool of read connections** (`query_only`), guarded by a
//!   semaphore so that waiting for a free reader is also an async wait. Each
//!   read runs in a deferred transaction, i.e. one consistent snapshot.
//!
//! Durability: `synchronous = FULL`, so a write that was acknowledged survives a
//! power cut, not just a crash of the process. The schema is only ever changed
//! by the refinery migrations in the top-level `migrations/` folder, applied
//! when the store opens.
//!
//! Domain queries live in submodules as plain functions over a
//! [`rusqlite::Transaction`], so they compose inside one transaction. Those
//! that store or read a secret also take the [`Secrets`] the store holds
//! ([`Store::secrets`]), explicitly, so a query that touches a secret says so.
//!
//! Confidentiality at rest: the database directory (when the store creates
//! it) is 0700 and the database, `-wal` and `-shm` files are 0600 (`files`).
//! Platform tokens and webhook secrets are sealed with a key that is kept out
//! of the database ([`secrets`]): a copied database file gives away no token.
//! The first open of a database from before sealing seals its plaintext
//! values and rewrites the file, so that no old copy survives in free pages
//! or the WAL.

pub mod cases;
pub mod config;
pub mod connections;
mod files;
pub mod idempotency;
pub mod jails;
pub mod keys;
pub mod secrets;
pub mod servers;
pub mod teams;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::Duration;

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tokio::sync::{Mutex, Semaphore};

pub use secrets::{KeySource, Secrets};

mod embedded {
    refinery::embed_migrations!("../migrations");
}

/// How many read connections the pool holds; reads beyond this wait their turn.
pub const READERS: usize = 4;
/// How long SQLite itself retries on a lock held by another process (e.g. an
/// operator command run while the daemon serves).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Errors opening the store.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The database file could not be opened or configured.
    #[error("cannot open database {path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// A migration failed; the schema is left as the last successful one.
    #[error("cannot migrate database {path}: {source}")]
    Migration {
        /// The database file.
        path: PathBuf,
        /// What refinery said.
        source: refinery::Error,
    },
    /// The database directory or file could not be created or made owner-only.
    #[error("cannot prepare database file {path}: {source}")]
    Files {
        /// The database file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The key that seals the database's secrets is missing, malformed or wrong.
    #[error(transparent)]
    Key(#[from] secrets::KeyError),
}

/// A handle to the store; cheap to clone, shared by all requests.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    secrets: Secrets,
    writer: Arc<Mutex<Connection>>,
    readers: SyncMutex<Vec<Connection>>,
    reader_permits: Arc<Semaphore>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.inner.path)
            .field("secrets", &self.inner.secrets)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and applies pending
    /// migrations, with the key file beside the database (see
    /// [`Store::open_with`]). Runs on the blocking pool.
    pub async fn open(path: impl Into<PathBuf>) -> Result<Store, OpenError> {
        Store::open_with(path, KeySource::KeyFile).await
    }

    /// Opens (creating if needed) the database at `path`, applies pending
    /// migrations and establishes the key that seals its secrets from `key`
    /// (see [`secrets::unlock`]). Runs on the blocking pool.
    pub async fn open_with(path: impl Into<PathBuf>, key: KeySource) -> Result<Store, OpenError> {
        let path = path.into();
        tokio::task::spawn_blocking(move || Store::open_blocking(path, key))
            .await
            .unwrap_or_else(|join| std::panic::resume_unwind(join.into_panic()))
    }

    fn open_blocking(path: PathBuf, key: KeySource) -> Result<Store, OpenError> {
        let sqlite_err = |source| OpenError::Sqlite {
            path: path.clone(),
            source,
        };
        files::prepare(&path).map_err(|source| OpenError::Files {
            path: path.clone(),
            source,
        })?;
        let mut writer = Connection::open(&path).map_err(sqlite_err)?;
        configure(&writer, false).map_err(sqlite_err)?;
        embedded::migrations::runner()
            .run(&mut writer)
            .map_err(|source| OpenError::Migration {
                path: path.clone(),
                source,
            })?;
        let secrets = establish_secrets(&mut writer, &path, key)?;

        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open(&path)?;
                configure(&conn, true)?;
                Ok(conn)
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite_err)?;

        Ok(Store {
            inner: Arc::new(Inner {
                path,
                secrets,
                writer: Arc::new(Mutex::new(writer)),
                readers: SyncMutex::new(readers),
                reader_permits: Arc::new(Semaphore::new(READERS)),
            }),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Seals and unseals this database's secrets; clone it into a closure
    /// passed to [`Store::read`] or [`Store::write`].
    pub fn secrets(&self) -> &Secrets {
        &self.inner.secrets
    }

    /// Runs `f` on a read connection inside one deferred transaction (a
    /// consistent snapshot). Waiting for a free connection is an async wait;
    /// `f` itself runs on the blocking pool.
    pub async fn read<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&Transaction<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<rusqlite::Error> + Send + 'static,
    {
        let permit = self
            .inner
            .reader_permits
            .clone()
            .acquire_owned()
            .await
            .expect("the reader semaphore is never closed");
        let inner = self.inner.clone();
        run_blocking(move || {
            let mut lease = ReaderLease::take(&inner.readers);
            let tx = lease.conn().transaction()?;
            let result = f(&tx);
            // A read transaction has nothing to commit; dropping it rolls back.
            drop(tx);
            drop(lease);
            drop(permit);
            result
        })
        .await
    }

    /// Runs `f` on the writer inside one `BEGIN IMMEDIATE` transaction that
    /// commits only if `f` returns `Ok`.
    pub async fn write<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&Transaction<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<rusqlite::Error> + Send + 'static,
    {
        let mut writer = self.inner.writer.clone().lock_owned().await;
        run_blocking(move || {
            let tx = writer.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        })
        .await
    }
}

/// Runs a closure on the blocking pool; a panic inside it resumes on the caller
/// so it is reported like any other panic in the handler.
async fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|join| std::panic::resume_unwind(join.into_panic()))
}

/// Establishes the key and seals what an older modctld left in plaintext, in
/// one write transaction; then, once per database, rewrites the file so that
/// no plaintext copy survives in free pages or the WAL.
fn establish_secrets(
    writer: &mut Connection,
    path: &Path,
    key: KeySource,
) -> Result<Secrets, OpenError> {
    let sqlite_err = |source| OpenError::Sqlite {
        path: path.to_owned(),
        source,
    };
    let tx = writer
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite_err)?;
    let unlocked = secrets::unlock(&tx, path, key)?;
    let sealed = secrets::seal_plaintext_rows(&tx, &unlocked.secrets).map_err(sqlite_err)?;
    tx.commit().map_err(sqlite_err)?;
    if sealed > 0 {
        tracing::info!(
            db = %path.display(),
            sealed,
            "sealed platform tokens and webhook secrets stored in plaintext by an older modctld"
        );
    }
    if unlocked.needs_scrub {
        // Everything is sealed and committed; a scrub that cannot finish now
        // (another process holds the database) is tried again at the next open.
        match scrub(writer) {
            Ok(true) => {}
            Ok(false) => tracing::warn!(
                db = %path.display(),
                "could not empty the WAL while another process reads the database; will try again at the next start"
            ),
            Err(e) => tracing::warn!(
                db = %path.display(),
                error = %e,
                "could not rewrite the database to remove old plaintext copies; will try again at the next start"
            ),
        }
    }
    Ok(unlocked.secrets)
}

/// Rewrites the database so that free pages hold no old content, and empties
/// the WAL, which may hold old page images; records it when both are done.
/// Returns whether they are.
fn scrub(writer: &Connection) -> rusqlite::Result<bool> {
    writer.execute_batch("VACUUM")?;
    let busy: bool = writer.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
    if busy {
        return Ok(false);
    }
    secrets::mark_scrubbed(writer)?;
    Ok(true)
}

fn configure(conn: &Connection, read_only: bool) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    if read_only {
        conn.pragma_update(None, "query_only", true)?;
    } else {
        // WAL is a property of the file; the writer sets it once for everyone.
        conn.pragma_update(None, "journal_mode", "WAL")?;
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    Ok(())
}

/// A read connection borrowed from the pool; returned on drop, also when the
/// closure using it panics, so the pool never shrinks.
struct ReaderLease<'a> {
    pool: &'a SyncMutex<Vec<Connection>>,
    conn: Option<Connection>,
}

impl<'a> ReaderLease<'a> {
    fn take(pool: &'a SyncMutex<Vec<Connection>>) -> Self {
        let conn = pool
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop()
            .expect("a reader permit guarantees a free connection");
        ReaderLease {
            pool,
            conn: Some(conn),
        }
    }

    fn conn(&mut self) -> &mut Connection {
        self.conn.as_mut().expect("present until drop")
    }
}

impl Drop for ReaderLease<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            self.pool
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(conn);
        }
    }
}

/// Errors of the domain queries: SQLite failures, and refusals a caller can act on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed; an internal error, never shown to API callers.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// The change conflicts with existing data (a duplicate name or claim).
    #[error("{0}")]
    Conflict(String),
    /// A named thing does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The input is invalid; the message says what to fix.
    #[error("{0}")]
    Invalid(String),
    /// Stored data cannot be read back (a bug or a hand-edited database).
    #[error("corrupt data: {0}")]
    Corrupt(String),
    /// An `If-Match` precondition no longer holds.
    #[error("{0}")]
    PreconditionFailed(String),
}

/// Current time as unix seconds, the representation stored in every table.
pub fn now_unix() -> i64 {
    jiff::Timestamp::now().as_second()
}

/// Converts a stored unix-seconds column into a wire timestamp.
pub fn timestamp(seconds: i64) -> jiff::Timestamp {
    jiff::Timestamp::from_second(seconds).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

#[cfg(test)]
mod at_rest_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn migrations_apply_and_reads_see_committed_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("nested/modctld.db"))
            .await
            .unwrap();
        let team = store
            .write(|tx| teams::create(tx, "alpha", modctl_types::Plan::Free))
            .await
            .unwrap();
        let listed = store.read(teams::list).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id, team.id);
    }

    #[tokio::test]
    async fn a_failed_write_commits_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let result: Result<(), anyhow::Error> = store
            .write(|tx| {
                teams::create(tx, "alpha", modctl_types::Plan::Free)?;
                anyhow::bail!("validation failed after the insert")
            })
            .await;
        assert!(result.is_err());
        assert!(store.read(teams::list).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn readers_refuse_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let result = store.read(|tx| tx.execute("DELETE FROM teams", [])).await;
        assert!(result.is_err());
    }

    #[tokio::test]
    async fn reopening_keeps_data_and_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        {
            let store = Store::open(&path).await.unwrap();
            store
                .write(|tx| teams::create(tx, "alpha", modctl_types::Plan::Pro))
                .await
                .unwrap();
        }
        let store = Store::open(&path).await.unwrap();
        let listed = store.read(teams::list).await.unwrap();
        assert_eq!(listed[0].name, "alpha");
    }
}
