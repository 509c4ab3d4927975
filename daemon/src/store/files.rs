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
fn database_files(db: &Path) -> [PathBuf; 3] {
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
