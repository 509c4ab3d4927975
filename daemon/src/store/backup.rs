//! Backups of a running daemon's database, and putting one back (issue #28).
//!
//! SQLite engine only (issue #29): this module works on rusqlite
//! connections directly, not through [`crate::store::sql`].
//!
//! # Why it looks like this
//!
//! Copying the database file while the daemon runs copies a torn file: the
//! WAL beside it holds the newest commits, and the checkpointer rewrites
//! pages of the main file while a copy reads them. SQLite's online backup
//! API reads the database through a connection of its own, so a backup is one
//! consistent state of it, WAL included. [`take`] copies it in **one step**
//! (`sqlite3_backup_step(-1)`): one read transaction over the whole copy, so
//! the copy is the database as of one commit, and the daemon's writer is never
//! blocked (WAL lets it commit beside a reader). A copy made page range by
//! page range would restart from scratch each time another connection wrote,
//! and could in principle never finish under steady writes.
//!
//! The copy is written to a temporary file beside its destination (mode
//! 0600, like the database), synced, checked (`quick_check`) and only then
//! renamed into place, so a file at the destination is always a whole
//! backup. The source is opened read-only and without migrations: a
//! `modctld backup` of another version never changes the running daemon's
//! file.
//!
//! Secrets stay sealed in the copy (they are stored sealed); the key that
//! unseals them is not in the database, so it is not in the backup either.
//! [`check_for_restore`] refuses a backup whose secrets the key at hand
//! cannot open, a damaged one, and one written by a newer modctld, before
//! [`restore`] touches the live file; the live file and its `-wal`/`-shm`
//! are kept beside it under a new name, never deleted.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use super::integrity::{self, Depth, Verdict, scalar};
use super::secrets::{self, KeyError, KeySource};
use super::{BUSY_TIMEOUT, DatabaseError, StoreError, Tx, embedded, files};

/// How long a backup waits, in all, for SQLite's locks (a checkpoint that
/// truncates the WAL holds one briefly) before it gives up.
const LOCK_PATIENCE: Duration = Duration::from_secs(30);

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    /// The backup file.
    pub path: PathBuf,
    /// Its size.
    pub bytes: u64,
    /// The newest migration applied to the database it copies.
    pub schema_version: i64,
    /// Moderation cases in it (what an operator checks against first).
    pub cases: i64,
    /// How long the copy took.
    pub took: Duration,
}

/// Why a backup or a restore did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The destination exists; a backup never overwrites a file.
    #[error("{0} exists: give a new file name (a backup never overwrites a file)")]
    Exists(PathBuf),
    /// The database or the backup file is not there.
    #[error("{0} does not exist")]
    Missing(PathBuf),
    /// SQLite's locks stayed taken for longer than the backup waits.
    #[error("the database stayed locked for {0:?}; try again")]
    Busy(Duration),
    /// The copy (or the backup being restored) is damaged.
    #[error("{path} is damaged: {problems}")]
    Damaged {
        /// The damaged file.
        path: PathBuf,
        /// What SQLite found, `; `-separated.
        problems: String,
    },
    /// The file is not a modctld database.
    #[error("{0} is not a modctld database (it has no migration history)")]
    NotModctld(PathBuf),
    /// The backup was written by a newer modctld than this one.
    #[error(
        "{path} was written by a newer modctld (its schema is at migration {found}, this modctld knows up to {known}): restore it with that version"
    )]
    Newer {
        /// The backup.
        path: PathBuf,
        /// Its newest migration.
        found: i64,
        /// This binary's newest migration.
        known: i64,
    },
    /// The key at hand does not open the backup's secrets.
    #[error(
        "the key does not open {path}'s secrets ({source}); set MODCTLD_SECRET_KEY, or put the key file, of the database the backup was taken from"
    )]
    Key {
        /// The backup.
        path: PathBuf,
        /// Why.
        source: Box<KeyError>,
    },
    /// A file operation failed.
    #[error("{what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// To which file.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
    /// SQLite failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for BackupError {
    fn from(e: rusqlite::Error) -> Self {
        BackupError::Store(StoreError::from(e))
    }
}

fn io<'p>(what: &'static str, path: &'p Path) -> impl FnOnce(std::io::Error) -> BackupError + 'p {
    move |source| BackupError::Io {
        what,
        path: path.to_owned(),
        source,
    }
}

/// Copies the database at `db` (in use or not) to `dest`, which must not
/// exist. Blocking: run it on a blocking thread.
pub fn take(db: &Path, dest: &Path) -> Result<Taken, BackupError> {
    let started = Instant::now();
    if !db.exists() {
        return Err(BackupError::Missing(db.to_owned()));
    }
    if dest.exists() {
        return Err(BackupError::Exists(dest.to_owned()));
    }
    let partial = sibling(dest, ".partial");
    let _cleanup = RemoveOnDrop(partial.clone());
    files::create_private(&partial).map_err(io("cannot create", &partial))?;
    let source = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(BUSY_TIMEOUT)?;
    {
        let mut copy = Connection::open(&partial)?;
        copy_all(&source, &mut copy)?;
        // The copy keeps the source's WAL mode in its header; a backup is
        // one file, so it is made a rollback-journal database, whole in
        // itself (a restore turns WAL back on at its first open).
        copy.pragma_update(None, "journal_mode", "DELETE")?;
    }
    let summary = summarize(&partial)?;
    verify_sound(
        &partial,
        Depth::Quick {
            budget: Duration::MAX,
        },
    )?;
    sync_file(&partial)?;
    std::fs::rename(&partial, dest).map_err(io("cannot move the backup to", dest))?;
    sync_parent(dest)?;
    let bytes = std::fs::metadata(dest)
        .map_err(io("cannot read", dest))?
        .len();
    Ok(Taken {
        path: dest.to_owned(),
        bytes,
        schema_version: summary.schema_version,
        cases: summary.cases,
        took: started.elapsed(),
    })
}

/// One `sqlite3_backup_step(-1)`: the whole database in one read
/// transaction, tried again while another connection holds a lock.
fn copy_all(source: &Connection, copy: &mut Connection) -> Result<(), BackupError> {
    let backup = Backup::new(source, copy)?;
    let started = Instant::now();
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            // -1 copies every page in the step, so `More` only comes after a
            // lock interrupted it: step again.
            StepResult::More | StepResult::Busy | StepResult::Locked => {
                if started.elapsed() > LOCK_PATIENCE {
                    return Err(BackupError::Busy(LOCK_PATIENCE));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            // `StepResult` is non-exhaustive; nothing else is documented.
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// A database's migration level and case count.
#[derive(Debug, Clone, Copy)]
struct Summary {
    schema_version: i64,
    cases: i64,
}

fn summarize(path: &Path) -> Result<Summary, BackupError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let has_history: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'refinery_schema_history')",
        [],
        scalar,
    )?;
    if !has_history {
        return Err(BackupError::NotModctld(path.to_owned()));
    }
    let schema_version: i64 = conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM refinery_schema_history",
        [],
        scalar,
    )?;
    let cases: i64 = conn.query_row("SELECT COUNT(*) FROM cases", [], scalar)?;
    Ok(Summary {
        schema_version,
        cases,
    })
}

fn verify_sound(path: &Path, depth: Depth) -> Result<(), BackupError> {
    match integrity::check(path, depth)? {
        Verdict::Sound | Verdict::Unfinished { .. } => Ok(()),
        Verdict::Corrupt(problems) => Err(BackupError::Damaged {
            path: path.to_owned(),
            problems: problems.join("; "),
        }),
    }
}

/// What [`check_for_restore`] found in a backup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The copy of the backup, beside the database, that [`restore`] puts
    /// in place.
    staged: PathBuf,
    /// The newest migration applied to the backup.
    pub schema_version: i64,
    /// Moderation cases in it.
    pub cases: i64,
}

/// Copies the backup at `backup` beside the database at `db` and checks the
/// copy: a modctld database, sound in full (`integrity_check`), not from a
/// newer modctld, its secrets opened by `key` (the key the daemon will use
/// for `db`). Changes nothing at `db`. Blocking.
pub fn check_for_restore(backup: &Path, db: &Path, key: KeySource) -> Result<Checked, BackupError> {
    if !backup.exists() {
        return Err(BackupError::Missing(backup.to_owned()));
    }
    let staged = sibling(db, ".restoring");
    // A staged copy left by an interrupted restore is this command's own.
    remove_if_there(&staged)?;
    files::create_private(&staged).map_err(io("cannot create", &staged))?;
    let mut cleanup = RemoveOnDrop(staged.clone());
    {
        let source = Connection::open_with_flags(
            backup,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        let mut copy = Connection::open(&staged)?;
        copy_all(&source, &mut copy).map_err(|e| not_a_database(backup, e))?;
        copy.pragma_update(None, "journal_mode", "DELETE")?;
    }
    verify_sound(&staged, Depth::Full).map_err(|e| match e {
        BackupError::Damaged { problems, .. } => BackupError::Damaged {
            path: backup.to_owned(),
            problems,
        },
        other => other,
    })?;
    let summary = summarize(&staged).map_err(|e| match e {
        BackupError::NotModctld(_) => BackupError::NotModctld(backup.to_owned()),
        other => other,
    })?;
    let known = embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0);
    if summary.schema_version > known {
        return Err(BackupError::Newer {
            path: backup.to_owned(),
            found: summary.schema_version,
            known,
        });
    }
    check_key(&staged, backup, db, key)?;
    cleanup.keep();
    Ok(Checked {
        staged,
        schema_version: summary.schema_version,
        cases: summary.cases,
    })
}

/// SQLite says "file is not a database" for anything else: name the file.
fn not_a_database(backup: &Path, e: BackupError) -> BackupError {
    match e {
        BackupError::Store(StoreError::Database(DatabaseError(source)))
            if source.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) =>
        {
            BackupError::NotModctld(backup.to_owned())
        }
        other => other,
    }
}

/// Whether `key` opens the secrets of the staged copy, as it would once the
/// copy is the database at `db` (the key file is looked for beside `db`).
/// Rolled back: the copy is left as the backup had it.
fn check_key(staged: &Path, backup: &Path, db: &Path, key: KeySource) -> Result<(), BackupError> {
    let mut conn = Connection::open(staged)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
    let unlocked = secrets::unlock(&Tx::new(&tx), db, key);
    drop(tx);
    match unlocked {
        Ok(_) => Ok(()),
        Err(e) => Err(BackupError::Key {
            path: backup.to_owned(),
            source: Box::new(e),
        }),
    }
}

/// Puts a checked backup in place of the database at `db`, which no daemon
/// may be serving (the caller holds [`crate::store::files`]'s serve lock or
/// knows). The database and its `-wal`/`-shm` files, when there, are moved
/// to `<db>.before-restore-<stamp>` (with the same suffixes, so that it
/// opens as it was). Returns where the old database went, if there was one.
pub fn restore(checked: Checked, db: &Path, stamp: &str) -> Result<Option<PathBuf>, BackupError> {
    let aside = sibling(db, &format!(".before-restore-{stamp}"));
    let mut kept = None;
    if db.exists() {
        for (from, to) in files::database_files(db)
            .into_iter()
            .zip(files::database_files(&aside))
        {
            if from.exists() {
                std::fs::rename(&from, &to).map_err(io("cannot move aside", &from))?;
            }
        }
        kept = Some(aside);
    }
    sync_file(&checked.staged)?;
    std::fs::rename(&checked.staged, db).map_err(io("cannot put the backup at", db))?;
    sync_parent(db)?;
    Ok(kept)
}

/// `path` with `suffix` appended to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn remove_if_there(path: &Path) -> Result<(), BackupError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io("cannot remove", path)(e)),
        _ => Ok(()),
    }
}

fn sync_file(path: &Path) -> Result<(), BackupError> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(io("cannot sync", path))
}

/// A rename is durable once its directory is synced.
fn sync_parent(path: &Path) -> Result<(), BackupError> {
    let parent = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => parent,
        None => Path::new("."),
    };
    #[cfg(unix)]
    std::fs::File::open(parent)
        .and_then(|f| f.sync_all())
        .map_err(io("cannot sync", parent))?;
    Ok(())
}

/// Removes a temporary file when the work that made it fails.
struct RemoveOnDrop(PathBuf);

impl RemoveOnDrop {
    fn keep(&mut self) {
        self.0 = PathBuf::new();
    }
}

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if !self.0.as_os_str().is_empty() {
            // The file may already be renamed into place, or never made.
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

#[cfg(test)]
mod tests;
