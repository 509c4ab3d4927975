//! Scheduled backups (issue #28): `modctld serve --backup-dir DIR
//! --backup-every 6h --backup-keep N`.
//!
//! The copy itself is the store's ([`crate::store::backup::take`]: SQLite's
//! online backup, one consistent state, never blocking the writer). What is
//! here is the schedule: a backup is due when the newest one in the
//! directory is `every` old, decided on the [`Clock`] from the time in its
//! file name (`modctld-20261127T060000Z.db`), so a restart neither takes an
//! extra backup nor skips one, and tests move the clock instead of waiting.
//! After each backup the oldest of the directory's backups past `keep` are
//! deleted; files of any other name are never touched.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::clock::Clock;
use crate::store::Store;
use crate::store::backup::{self, BackupError, Taken};

/// The file names' prefix and suffix; the UTC time of the backup between.
const PREFIX: &str = "modctld-";
const SUFFIX: &str = ".db";
const STAMP: &str = "%Y%m%dT%H%M%SZ";

/// When and where backups are taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The directory the backups go to (created 0700 if missing).
    pub dir: PathBuf,
    /// A backup is taken when the newest is this old.
    pub every: Duration,
    /// The newest this many are kept.
    pub keep: usize,
}

/// What the schedule uses of the daemon.
#[derive(Debug, Clone)]
pub struct Backups {
    /// The database to copy.
    pub store: Store,
    /// "Now".
    pub clock: Clock,
    /// The schedule.
    pub schedule: Schedule,
}

/// The backup file name of a backup taken at `unix` seconds.
pub fn file_name(unix: i64) -> String {
    let stamp = jiff::Timestamp::from_second(unix)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .strftime(STAMP);
    format!("{PREFIX}{stamp}{SUFFIX}")
}

/// The time (unix seconds) in a backup's file name; `None` for any other
/// file.
pub fn taken_at(name: &str) -> Option<i64> {
    let stamp = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let time = jiff::civil::DateTime::strptime(STAMP, stamp).ok()?;
    Some(
        time.to_zoned(jiff::tz::TimeZone::UTC)
            .ok()?
            .timestamp()
            .as_second(),
    )
}

/// The backups in `dir`, oldest first, as (time, path).
fn existing(dir: &Path) -> std::io::Result<Vec<(i64, PathBuf)>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        if let Some(at) = entry.file_name().to_str().and_then(taken_at) {
            found.push((at, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// Takes a backup if the newest in the directory is `every` old (or there is
/// none), then deletes those past `keep`. Returns the backup taken, if one
/// was.
pub async fn take_due(cx: &Backups) -> Result<Option<Taken>, BackupError> {
    let schedule = cx.schedule.clone();
    let now = cx.clock.now_unix();
    let db = cx.store.path().to_owned();
    let every = i64::try_from(schedule.every.as_secs()).unwrap_or(i64::MAX);
    let taken = tokio::task::spawn_blocking(move || -> Result<Option<Taken>, BackupError> {
        let dir = &schedule.dir;
        let io = |what| {
            move |source| BackupError::Io {
                what,
                path: dir.clone(),
                source,
            }
        };
        let newest = existing(dir)
            .map_err(io("cannot list"))?
            .last()
            .map(|(at, _)| *at);
        if newest.is_some_and(|at| now.saturating_sub(at) < every) {
            return Ok(None);
        }
        create_dir(dir).map_err(io("cannot create"))?;
        let taken = backup::take(&db, &dir.join(file_name(now)))?;
        let all = existing(dir).map_err(io("cannot list"))?;
        let excess = all.len().saturating_sub(schedule.keep.max(1));
        for (_, old) in &all[..excess] {
            if let Err(e) = std::fs::remove_file(old) {
                tracing::warn!(file = %old.display(), error = %e, "could not delete an old backup");
            }
        }
        Ok(Some(taken))
    })
    .await
    .unwrap_or_else(|join| std::panic::resume_unwind(join.into_panic()))?;
    if let Some(taken) = &taken {
        tracing::info!(
            file = %taken.path.display(),
            bytes = taken.bytes,
            cases = taken.cases,
            took_ms = taken.took.as_millis() as u64,
            "backup taken"
        );
    }
    Ok(taken)
}

#[cfg(unix)]
fn create_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(not(unix))]
fn create_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_carry_their_time_and_nothing_else_is_taken_for_one() {
        let at = 1_795_737_600; // 2026-11-27T00:00:00Z
        assert_eq!(file_name(at), "modctld-20261127T000000Z.db");
        assert_eq!(taken_at(&file_name(at + 3725)), Some(at + 3725));
        for other in [
            "modctld.db",
            "modctld-20261127T000000Z.db-wal",
            "modctld-20261127.db",
            "notes.txt",
            "modctld-20261127T000000Z.db.partial",
        ] {
            assert_eq!(taken_at(other), None, "{other}");
        }
    }

    #[tokio::test]
    async fn a_backup_is_taken_when_the_newest_is_old_enough_and_the_oldest_go() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_with(
            dir.path().join("modctld.db"),
            crate::store::KeySource::Environment(zeroize::Zeroizing::new(
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".to_owned(),
            )),
        )
        .await
        .unwrap();
        let start = jiff::Timestamp::from_second(1_795_737_600).unwrap();
        let clock = Clock::manual(start);
        let backups_dir = dir.path().join("backups");
        std::fs::create_dir(&backups_dir).unwrap();
        std::fs::write(backups_dir.join("notes.txt"), b"the operator's").unwrap();
        let cx = Backups {
            store,
            clock: clock.clone(),
            schedule: Schedule {
                dir: backups_dir.clone(),
                every: Duration::from_secs(6 * 3600),
                keep: 2,
            },
        };
        let names = || {
            let mut names: Vec<String> = std::fs::read_dir(&backups_dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        };

        assert!(
            take_due(&cx).await.unwrap().is_some(),
            "none yet: one is due"
        );
        clock.advance(Duration::from_secs(6 * 3600 - 1));
        assert!(
            take_due(&cx).await.unwrap().is_none(),
            "the newest is not 6h old"
        );
        clock.advance(Duration::from_secs(1));
        assert!(take_due(&cx).await.unwrap().is_some());
        clock.advance(Duration::from_secs(6 * 3600));
        assert!(take_due(&cx).await.unwrap().is_some());
        assert_eq!(
            names(),
            [
                "modctld-20261127T060000Z.db",
                "modctld-20261127T120000Z.db",
                "notes.txt",
            ],
            "the newest two kept, the operator's file untouched"
        );
    }
}
