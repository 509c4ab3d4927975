//! Owner-only permissions for the database directory and files.
//!
//! The database holds sealed secrets, API key hashes and every moderation
//! case; nobody but the daemon's user has a reason to read it. SQLite creates
//! a new database file with the process umask (typically 0644) and gives the
//! `-wal` and `-shm` files the mode of the database file, so creating the
//! database file 0600 *before* SQLite opens it is what makes all three
//! owner-only. A directory the daemon creates is 0700. Files left readable by
//! an older modctld are tightened at open, with a warning; an existing
//! directory is the operator's and is left as it is.
//!
//! Unix only: elsewhere the files get the platform's defaults.

use std::path::{Path, PathBuf};

/// The files SQLite keeps for the database at `db`.
pub(super) fn database_files(db: &Path) -> [PathBuf; 3] {
    let with_suffix = |suffix: &str| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [db.to_owned(), with_suffix("-wal"), with_suffix("-shm")]
}

/// Creates the directory of `db` (0700) and the database file (0600) if they
/// are missing, and makes existing database files owner-only.
#[cfg(unix)]
pub(super) fn prepare(db: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};

    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        // A missing directory is the common first-run failure; create it
        // rather than make the operator do it.
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)?;
    }
    // Appending to nothing truncates nothing: an existing file is untouched.
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(db)?;
    for file in database_files(db) {
        tighten(&file)?;
    }
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn prepare(db: &Path) -> std::io::Result<()> {
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    Ok(())
}

/// Creates `file` new (never an existing one), readable by its owner only:
/// a backup holds what the database holds.
pub(super) fn create_private(file: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(file).map(drop)
}

/// The lock `modctld serve` holds on `<database>.lock` while it serves the
/// database: a second `serve` of the same file, or a `restore-backup`
/// under a running daemon, is refused instead of corrupting what the first
/// one holds in memory (issue #28). An advisory `flock` on a file of its
/// own, not on the database (SQLite's own locks are `fcntl` locks on it, and
/// the two must not be mixed on one file); the kernel drops it when the
/// process ends, however it ends, so a daemon killed with SIGKILL leaves no
/// stale lock. The file holds the holder's pid, for the refusal's message.
#[derive(Debug)]
pub struct ServeLock {
    _file: std::fs::File,
}

/// Why [`ServeLock::acquire`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeLockError {
    /// Another process holds it.
    #[error(
        "another modctld (pid {pid}) serves the database {db}: stop it first (only one daemon may serve a SQLite database)"
    )]
    Held {
        /// The database.
        db: String,
        /// The holder's pid, as it wrote it ("unknown" if unreadable).
        pid: String,
    },
    /// The lock file could not be opened or locked.
    #[error("cannot lock {path}: {source}")]
    Io {
        /// The lock file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

impl ServeLock {
    /// The lock file of the database at `db`.
    pub fn path(db: &Path) -> PathBuf {
        let mut name = db.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Takes the serve lock of the database at `db`, or says who holds it.
    pub fn acquire(db: &Path) -> Result<ServeLock, ServeLockError> {
        use std::io::{Read, Seek, Write};

        let path = ServeLock::path(db);
        let failed = |source| ServeLockError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&path).map_err(failed)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                let pid = pid.trim();
                return Err(ServeLockError::Held {
                    db: db.display().to_string(),
                    pid: if pid.is_empty() { "unknown" } else { pid }.to_owned(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(failed(e)),
        }
        file.set_len(0).map_err(failed)?;
        file.rewind().map_err(failed)?;
        write!(file, "{}", std::process::id()).map_err(failed)?;
        Ok(ServeLock { _file: file })
    }
}

/// Sets `file` to 0600 if group or others have any access; a missing file is fine.
#[cfg(unix)]
fn tighten(file: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;

    let mode = match std::fs::metadata(file) {
        Ok(metadata) => metadata.permissions().mode() & 0o7777,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if mode & 0o077 != 0 {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
        tracing::warn!(
            file = %file.display(),
            was = %format!("{mode:04o}"),
            "made a database file readable by its owner only (mode 0600)"
        );
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn new_directories_and_files_are_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("a/b/modctld.db");
        prepare(&db).unwrap();
        assert_eq!(mode(&dir.path().join("a")), 0o700);
        assert_eq!(mode(&dir.path().join("a/b")), 0o700);
        assert_eq!(mode(&db), 0o600);
    }

    #[test]
    fn readable_files_are_tightened_and_content_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let db = dir.path().join("modctld.db");
        for file in database_files(&db) {
            std::fs::write(&file, b"kept").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        prepare(&db).unwrap();
        for file in database_files(&db) {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
            assert_eq!(std::fs::read(&file).unwrap(), b"kept");
        }
        // The operator's own directory is not changed.
        assert_eq!(mode(dir.path()), 0o755);
    }
}
