//! The SQLite store.
//!
//! # Why it looks like this
//!
//! rusqlite is synchronous: every call may block on disk I/O or on SQLite's own
//! locks. Running it on a tokio worker thread would stall every other request
//! scheduled on that thread, so **all SQLite work runs on threads of the
//! store's own** (one writer, a few readers, each owning its connection), and
//! async code only ever *waits* for an answer.
//!
//! The API is read-heavy with occasional writes, and SQLite in WAL mode lets
//! many readers run alongside one writer. The store mirrors that:
//!
//! - **One writer thread** (`writer`) owning the one write connection.
//!   Writes are jobs queued to it, so they never fight over SQLite's write
//!   lock or hit `SQLITE_BUSY`. Each job runs in its own savepoint, and the
//!   jobs that queued together commit together with one fsync (group
//!   commit): a write still commits whole or not at all, and is acknowledged
//!   only once committed, which is what "bad input changes nothing" and
//!   "acknowledged means durable" need.
//! - **A few reader threads** (`readers`), one per read connection
//!   (`query_only`), taking reads from one queue. Each read runs in a
//!   deferred transaction, i.e. one consistent snapshot.
//!
//! One SQLite call runs outside these threads, on purpose: the auth cache's
//! `PRAGMA data_version` check ([`ChangeWatch`], for `crate::auth::cache`), a
//! few microseconds of shared-memory reads per request, where a trip to a
//! reader would cost more than the check saves.
//!
//! Durability: `synchronous = FULL`, so a write that was acknowledged survives a
//! power cut, not just a crash of the process. The schema is only ever changed
//! by the refinery migrations in the top-level `migrations/sqlite/` folder,
//! applied when the store opens (PostgreSQL's twins are in
//! `migrations/postgres/`, see [`postgres`]).
//!
//! Domain queries live in submodules as plain functions over a [`Tx`], so
//! they compose inside one transaction. A `Tx` is opaque outside this module:
//! the store is the only code that knows SQL or rusqlite (issue #24; a test,
//! `crate::source_rules`, holds every other file of the daemon to it), so callers
//! say what they want (`cases::insert(tx, ...)`) and get domain types back,
//! and a second engine under the same functions changes no caller. Inside
//! the store too, the domain modules reach the database only through
//! [`sql`], one engine-neutral surface (statements, parameters, rows read by
//! name; issue #29), so that second engine is one implementation of it, not
//! an edit of every module; only the engine's own code (threads, opening,
//! backup, integrity, the scrub) is SQLite's, each marked so. Rows are
//! read by column name, each stored type's in one place (`FromRow`, with
//! the column list its queries select), so no query's columns can shift
//! what another column is read as. Those that store or read a secret also
//! take the [`Secrets`] the store holds ([`Store::secrets`]), explicitly, so
//! a query that touches a secret says so.
//!
//! Confidentiality at rest: the database directory (when the store creates
//! it) is 0700 and the database, `-wal` and `-shm` files are 0600 (`files`).
//! Platform tokens and webhook secrets are sealed with a key that is kept out
//! of the database ([`secrets`]): a copied database file gives away no token.
//! The first open of a database from before sealing seals its plaintext
//! values and rewrites the file, so that no old copy survives in free pages
//! or the WAL.

pub mod activity;
pub mod automod_hits;
pub mod backup;
pub mod case_rollup;
pub mod cases;
mod change_watch;
pub mod config;
pub mod connections;
pub mod days;
mod files;
pub mod idempotency;
pub mod ids;
pub mod integrity;
pub mod jails;
pub mod keys;
pub mod live_events;
pub mod lockdowns;
pub mod logs;
pub mod native_rules;
pub mod postgres;
pub mod ranking;
mod readers;
pub mod receivers;
pub mod restore;
pub mod secrets;
pub mod servers;
pub mod simulator;
pub mod snapshots;
pub(in crate::store) mod sql;
pub mod teams;
pub mod telemetry;
#[cfg(test)]
pub mod testing;
pub mod verifications;
pub mod webhooks;
mod writer;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use readers::Readers;
use writer::Writer;
pub use writer::WriterStats;

pub use change_watch::ChangeWatch;
pub use files::{ServeLock, ServeLockError};
pub use secrets::{KeySource, Secrets};

mod embedded {
    refinery::embed_migrations!("../migrations/sqlite");
}

/// How many read connections (and reader threads) the store holds; reads
/// beyond this wait their turn.
pub const READERS: usize = 4;
/// WAL size (in pages) at which the writer checkpoints by itself; the
/// checkpoint worker normally keeps the WAL far below it.
const WRITER_AUTOCHECKPOINT_PAGES: i64 = 10_000;
/// Page cache of each connection, in KiB: SQLite's default, stated. Measured
/// with `modctl-bench cases-by-user` on the 1M-case set: 8 MiB per
/// connection raised the daemon's peak RSS from 42 to 103 MiB and gained no
/// throughput; the hot pages (keys, servers, configs, recent cases) fit.
const PAGE_CACHE_KIB: i64 = 2 * 1024;
/// The writer's page cache, in KiB: the pages writes keep coming back to
/// (the B-tree interiors of the rollups and the remembered event ids, the
/// recent leaves) stay in memory instead of being read back from the WAL or
/// the file. Measured on 10,000-event activity batches (issue #12's
/// ingestion bench): with the readers' 2 MiB, about a fifth of the writer's
/// time went to reading pages back (`pread`). It costs the daemon up to
/// 30 MiB more RSS under heavy writes.
const WRITER_PAGE_CACHE_KIB: i64 = 32 * 1024;
/// Prepared statements kept per connection (`prepare_cached`).
const PREPARED_STATEMENTS: usize = 64;
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
    /// The store's writer or reader threads could not be started.
    #[error("cannot start the threads of database {path}: {source}")]
    Threads {
        /// The database file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
}

/// What a [`Store::checkpoint`] found: how long the WAL is, and how much of
/// it is now in the database file. (The WAL is reused from its start, not
/// truncated, once everything in it was copied and no reader needs it.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpoint {
    /// Frames (pages) in the WAL.
    pub wal_frames: usize,
    /// Frames of it copied into the database file, by this checkpoint or
    /// earlier ones.
    pub copied_frames: usize,
}

impl OpenError {
    /// Whether SQLite found the database file damaged (or not a database).
    pub fn is_corruption(&self) -> bool {
        match self {
            OpenError::Sqlite { source, .. } => integrity::is_corruption(source),
            OpenError::Migration { .. }
            | OpenError::Files { .. }
            | OpenError::Key(_)
            | OpenError::Threads { .. } => false,
        }
    }
}

impl Checkpoint {
    /// Frames still to copy.
    pub fn behind(&self) -> usize {
        self.wal_frames.saturating_sub(self.copied_frames)
    }
}

/// One transaction of the store, lent to the closure of [`Store::read`] or
/// [`Store::write`]. Outside the store it can only be passed on to the
/// store's domain functions: it runs no SQL for anyone else.
pub struct Tx<'t> {
    /// The connection inside its transaction, as the store's modules run
    /// their SQL on it: only through the engine-neutral surface ([`sql`]),
    /// so a module cannot tie the store to one engine by accident.
    pub(in crate::store) sql: sql::Sql<'t>,
}

impl<'t> Tx<'t> {
    /// `tx`, lent to the store's domain functions.
    pub(in crate::store) fn new(tx: &'t Transaction<'_>) -> Self {
        Tx {
            sql: sql::Sql::new(tx),
        }
    }
}

impl std::fmt::Debug for Tx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tx").finish_non_exhaustive()
    }
}

/// A handle to the store; cheap to clone, shared by all requests.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    secrets: Secrets,
    writer: Writer,
    readers: Readers,
    /// Copies the WAL back into the database ([`Store::checkpoint`]), so
    /// neither the writer nor a reader ever does it on a request's time.
    checkpointer: Arc<std::sync::Mutex<Connection>>,
    /// Calls of [`Store::read`] and [`Store::write`]; see [`Store::trips`].
    trips: AtomicU64,
    /// The writer's and readers' instruments ([`telemetry`]).
    metrics: telemetry::StoreMetrics,
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
        // SQLite engine only: opening, configuring and migrating the connections.
        let mut writer = Connection::open(&path).map_err(sqlite_err)?;
        configure(&writer, Role::Writer).map_err(sqlite_err)?;
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
                configure(&conn, Role::Reader)?;
                Ok(conn)
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite_err)?;

        let checkpointer = Connection::open(&path).map_err(sqlite_err)?;
        configure(&checkpointer, Role::Checkpointer).map_err(sqlite_err)?;
        let threads = |source| OpenError::Threads {
            path: path.clone(),
            source,
        };
        let metrics = telemetry::StoreMetrics::default();
        let writer = Writer::start(writer, metrics.clone()).map_err(threads)?;
        let readers = Readers::start(readers, metrics.clone()).map_err(threads)?;
        Ok(Store {
            inner: Arc::new(Inner {
                path,
                secrets,
                writer,
                readers,
                checkpointer: Arc::new(std::sync::Mutex::new(checkpointer)),
                trips: AtomicU64::new(0),
                metrics,
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

    /// How many trips ([`Store::read`] and [`Store::write`] calls) this store
    /// has made since it opened, whatever made them. Tests use it to pin down
    /// how many trips a request costs; it is one relaxed atomic add per trip,
    /// next to a thread hop, so it is always on.
    pub fn trips(&self) -> u64 {
        self.inner.trips.load(Ordering::Relaxed)
    }

    /// Runs `f` on a read connection inside one deferred transaction (a
    /// consistent snapshot), on one of the reader threads. Waiting for a free
    /// one is an async wait.
    pub async fn read<T, E, F>(&self, f: F) -> Result<T, E>
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner.trips.fetch_add(1, Ordering::Relaxed);
        self.inner
            .readers
            .run(move |conn| {
                let tx = conn.transaction().map_err(StoreError::from)?;
                // A read transaction has nothing to commit; dropping it rolls back.
                f(&Tx::new(&tx))
            })
            .await
    }

    /// Copies what the WAL holds back into the database file without
    /// waiting for anyone (a `PASSIVE` checkpoint: frames a reader still
    /// needs are left for the next one), on a connection of its own.
    pub async fn checkpoint(&self) -> Result<Checkpoint, StoreError> {
        // SQLite engine only: the WAL's checkpoint.
        let checkpointer = self.inner.checkpointer.clone();
        tokio::task::spawn_blocking(move || {
            let conn = checkpointer
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                let count = |name| {
                    row.get::<_, i64>(name)
                        .map(|n| usize::try_from(n).unwrap_or(0))
                };
                Ok(Checkpoint {
                    wal_frames: count("log")?,
                    copied_frames: count("checkpointed")?,
                })
            })
            .map_err(StoreError::from)
        })
        .await
        .unwrap_or_else(|join| std::panic::resume_unwind(join.into_panic()))
    }

    /// Runs `f` as one write: inside a savepoint of a `BEGIN IMMEDIATE`
    /// transaction that may hold other writes queued at the same time, and
    /// commits only what `f` did if it returns `Ok` (see the `writer` module). Returns
    /// once the commit holding it is durable.
    ///
    /// The write is queued when this is called, not when the future is
    /// first polled, so writes run in the order they were asked for.
    pub fn write<T, E, F>(&self, f: F) -> impl Future<Output = Result<T, E>> + Send + 'static
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner.trips.fetch_add(1, Ordering::Relaxed);
        self.inner.writer.write(f)
    }

    /// Runs `f` as one write in a transaction of its own, with no savepoint:
    /// for a write that changes many pages, whose savepoint would hold a
    /// copy of each in memory until the commit (see the `writer` module).
    /// Otherwise as [`Store::write`].
    pub fn write_alone<T, E, F>(&self, f: F) -> impl Future<Output = Result<T, E>> + Send + 'static
    where
        F: FnOnce(&Tx<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner.trips.fetch_add(1, Ordering::Relaxed);
        self.inner.writer.write_alone(f)
    }

    /// How many commits the writer made and how many writes they held.
    pub fn writer_stats(&self) -> WriterStats {
        self.inner.writer.stats()
    }

    /// The writer's and readers' instruments, for `GET /metrics`.
    pub fn metrics(&self) -> &telemetry::StoreMetrics {
        &self.inner.metrics
    }
}

/// Runs `f` in a savepoint of `tx`, rolled back if `f` fails, so a part of
/// a write can fail alone (one server's activity batches among others'); the
/// outer error is one the transaction itself cannot go on from.
pub fn in_savepoint<T>(
    tx: &Tx<'_>,
    f: impl FnOnce() -> Result<T, StoreError>,
) -> Result<Result<T, StoreError>, StoreError> {
    // Standard SQL; PostgreSQL's savepoints take the same three statements.
    let run = |sql: &str| tx.sql.prepare(sql)?.execute([]).map(drop);
    run("SAVEPOINT part")?;
    let result = f();
    if result.is_err() {
        run("ROLLBACK TO part")?;
    }
    run("RELEASE part")?;
    Ok(result)
}

/// Answers whether the database answers at all (a trivial query): the
/// readiness check's probe.
pub fn ping(tx: &Tx<'_>) -> Result<(), StoreError> {
    tx.sql.row("SELECT 1", [], |_| Ok(()))?;
    Ok(())
}

/// Waits for the answer of a job sent to one of the store's threads: its
/// value, or its panic resumed here, so it is reported like any other panic
/// in the caller. `stopped` is the panic message if the thread went away.
async fn receive<T>(
    answer: tokio::sync::oneshot::Receiver<std::thread::Result<T>>,
    stopped: &str,
) -> T {
    match answer.await {
        Ok(Ok(value)) => value,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("{stopped}"),
    }
}

/// Establishes the key and seals what an older modctld left in plaintext, in
/// one write transaction; then, once per database, rewrites the file so that
/// no plaintext copy survives in free pages or the WAL.
/// SQLite engine only: runs on the writer's raw connection at open.
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
    let unlocked = secrets::unlock(&Tx::new(&tx), path, key)?;
    let sealed =
        secrets::seal_plaintext_rows(&Tx::new(&tx), &unlocked.secrets).map_err(sqlite_err)?;
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
    // SQLite engine only: VACUUM and the WAL.
    writer.execute_batch("VACUUM")?;
    let busy: bool =
        writer.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get("busy"))?;
    if busy {
        return Ok(false);
    }
    secrets::mark_scrubbed(writer)?;
    Ok(true)
}

/// What a connection of the store is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Writer,
    Reader,
    Checkpointer,
}

/// SQLite engine only: the PRAGMAs each connection runs with.
fn configure(conn: &Connection, role: Role) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    match role {
        Role::Writer => {
            // WAL is a property of the file; the writer sets it once for everyone.
            conn.pragma_update(None, "journal_mode", "WAL")?;
            // The checkpoint worker keeps the WAL short; the writer only
            // checkpoints by itself (after a commit, delaying its batch) if
            // that worker falls far behind.
            conn.pragma_update(None, "wal_autocheckpoint", WRITER_AUTOCHECKPOINT_PAGES)?;
            // Each job of a batch runs in a savepoint, and SQLite keeps a copy
            // of every page a savepoint changes (the sub-journal) to roll it
            // back. Past 64 KiB that copy goes to a temporary file: a tenth of
            // the writer's time under load went to those writes (bench's
            // `warn`). In memory it is at most a batch's pages.
            conn.pragma_update(None, "temp_store", "MEMORY")?;
        }
        Role::Reader => conn.pragma_update(None, "query_only", true)?,
        Role::Checkpointer => {}
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    // Negative: KiB; each connection keeps its own.
    let cache = match role {
        Role::Writer => WRITER_PAGE_CACHE_KIB,
        _ => PAGE_CACHE_KIB,
    };
    conn.pragma_update(None, "cache_size", -cache)?;
    conn.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
    Ok(())
}

/// A failure of the database itself (SQLite's error, kept whole for the
/// logs); what callers may ask of it is what they can act on.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct DatabaseError(rusqlite::Error);

impl DatabaseError {
    /// Whether a uniqueness or foreign-key constraint refused the change:
    /// every write checks its preconditions inside its transaction, so this
    /// only happens when two requests raced for the same row.
    pub fn is_constraint_violation(&self) -> bool {
        self.0.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation)
    }

    /// Whether SQLite found the database damaged.
    pub fn is_corruption(&self) -> bool {
        integrity::is_corruption(&self.0)
    }
}

impl DatabaseError {
    /// Whether a statement that must yield one row ([`sql::Sql::row`])
    /// yielded none.
    pub fn is_no_rows(&self) -> bool {
        matches!(self.0, rusqlite::Error::QueryReturnedNoRows)
    }

    /// Column `column` (at `at`, holding a value of type `found`) could not
    /// be read as the type asked for: an internal error, like SQLite's own.
    pub(in crate::store) fn conversion(
        at: usize,
        found: rusqlite::types::Type,
        column: String,
        error: sql::ConversionError,
    ) -> Self {
        DatabaseError(rusqlite::Error::FromSqlConversionFailure(
            at,
            found,
            Box::new(ColumnConversion { column, error }),
        ))
    }
}

/// A conversion failure, with the column it is of.
#[derive(Debug, thiserror::Error)]
#[error("column `{column}`: {error}")]
struct ColumnConversion {
    column: String,
    #[source]
    error: sql::ConversionError,
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        StoreError::Database(DatabaseError(error))
    }
}

/// Errors of the domain queries: SQLite failures, and refusals a caller can act on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed; an internal error, never shown to API callers.
    #[error(transparent)]
    Database(#[from] DatabaseError),
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
}

impl StoreError {
    /// A write that was queued and whose outcome nobody will report (the
    /// daemon stopping, or a bug); `message` says what the caller should do.
    /// An internal error, like any of SQLite's.
    pub fn abandoned(message: &str) -> StoreError {
        StoreError::Database(DatabaseError(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
            Some(message.to_owned()),
        )))
    }

    /// A copy of this error, of the same kind, for each of several callers
    /// that share one failed write (`rusqlite::Error` is not `Clone`).
    pub fn copy(&self) -> StoreError {
        match self {
            StoreError::Database(e) => {
                StoreError::Database(DatabaseError(writer::copy_error(&e.0)))
            }
            StoreError::Conflict(m) => StoreError::Conflict(m.clone()),
            StoreError::NotFound(m) => StoreError::NotFound(m.clone()),
            StoreError::Invalid(m) => StoreError::Invalid(m.clone()),
            StoreError::Corrupt(m) => StoreError::Corrupt(m.clone()),
        }
    }
}

/// Converts a stored unix-seconds column into a wire timestamp.
pub fn timestamp(seconds: i64) -> jiff::Timestamp {
    jiff::Timestamp::from_second(seconds).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

/// A type the store keeps, read from a row by column name: the one place
/// its columns are mapped (issue #24). Its queries select
/// [`FromRow::COLUMNS`], so what they select and what
/// [`FromRow::from_row`] reads cannot drift apart; a query may select more
/// columns than these, each read by its own name (`crate::source_rules`
/// holds the store to reading rows by name; by index only through
/// [`scalar`]).
pub(in crate::store) trait FromRow: Sized {
    /// The columns `from_row` reads, as a `SELECT` (or `RETURNING`) lists
    /// them; computed ones carry an `AS` name.
    const COLUMNS: &'static str;
    /// The value of a row that holds [`FromRow::COLUMNS`].
    fn from_row(row: &sql::Row<'_>) -> sql::Result<Self>;
}

/// The value of a one-column row ([`sql::Row::scalar`]), as a function to
/// hand to a query (`tx.sql.row(.., scalar)`).
pub(in crate::store) fn scalar<T: sql::FromValue>(row: &sql::Row<'_>) -> sql::Result<T> {
    row.scalar()
}

/// `column` of `row` parsed from its text (the enum columns), read in
/// place ([`sql::Row::parse`]).
pub(in crate::store) fn parsed<T>(row: &sql::Row<'_>, column: impl sql::Column) -> sql::Result<T>
where
    T: std::str::FromStr,
    T::Err: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    row.parse(column)
}

#[cfg(test)]
mod at_rest_tests;

#[cfg(test)]
mod ranking_migration_tests;
#[cfg(test)]
mod snapshot_numbers_migration_tests;
#[cfg(test)]
mod webhooks_migration_tests;

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
            .write(|tx| teams::create(tx, "alpha", modctl_types::Plan::Free, 0))
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
                teams::create(tx, "alpha", modctl_types::Plan::Free, 0)?;
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
        let result = store
            .read(|tx| tx.sql.execute("DELETE FROM teams", []))
            .await;
        assert!(result.is_err());
    }

    #[tokio::test]
    async fn reopening_keeps_data_and_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db");
        {
            let store = Store::open(&path).await.unwrap();
            store
                .write(|tx| teams::create(tx, "alpha", modctl_types::Plan::Pro, 0))
                .await
                .unwrap();
        }
        let store = Store::open(&path).await.unwrap();
        let listed = store.read(teams::list).await.unwrap();
        assert_eq!(listed[0].name, "alpha");
    }
}
