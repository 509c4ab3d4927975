//! Backups taken while the store writes, and the checks before a restore.

use std::path::Path;

use base64::Engine;
use modctl_types::Plan;
use zeroize::Zeroizing;

use super::*;
use crate::store::{Store, StoreError, teams};

fn random_key() -> Zeroizing<String> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).unwrap();
    Zeroizing::new(base64::engine::general_purpose::STANDARD.encode(key))
}

async fn store_with_teams(db: &Path, key: &Zeroizing<String>, teams: usize) -> Store {
    let store = Store::open_with(db, KeySource::Environment(key.clone()))
        .await
        .unwrap();
    for i in 0..teams {
        store
            .write(move |tx| teams::create(tx, &format!("team-{i}"), Plan::Pro, 0))
            .await
            .unwrap();
    }
    store
}

async fn team_count(db: &Path, key: &Zeroizing<String>) -> usize {
    let store = Store::open_with(db, KeySource::Environment(key.clone()))
        .await
        .unwrap();
    store
        .read(|tx| Ok::<_, StoreError>(teams::list(tx)?.len()))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_backup_taken_during_writes_holds_every_write_committed_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = random_key();
    let store = store_with_teams(&db, &key, 50).await;
    // Writes go on while the backup runs; those acknowledged before it began
    // must be in it.
    let writing = {
        let store = store.clone();
        tokio::spawn(async move {
            for i in 50..400 {
                store
                    .write(move |tx| teams::create(tx, &format!("team-{i}"), Plan::Pro, 0))
                    .await
                    .unwrap();
            }
        })
    };
    let dest = dir.path().join("backup.db");
    let (db2, dest2) = (db.clone(), dest.clone());
    let taken = tokio::task::spawn_blocking(move || take(&db2, &dest2))
        .await
        .unwrap()
        .unwrap();
    writing.await.unwrap();
    assert_eq!(taken.path, dest);
    assert!(taken.bytes > 0);
    assert!(taken.schema_version > 30, "{taken:?}");
    assert!(!dest.with_extension("db.partial").exists());
    let in_backup = team_count(&dest, &key).await;
    assert!(
        (50..=400).contains(&in_backup),
        "{in_backup} teams in the backup"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dest).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a backup is as private as the database");
    }
}

#[tokio::test]
async fn a_backup_never_overwrites_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let _store = store_with_teams(&db, &random_key(), 1).await;
    let dest = dir.path().join("there.db");
    std::fs::write(&dest, b"keep me").unwrap();
    let err = take(&db, &dest).unwrap_err();
    assert!(matches!(err, BackupError::Exists(_)), "{err}");
    assert_eq!(std::fs::read(&dest).unwrap(), b"keep me");
    let err = take(&dir.path().join("nope.db"), &dir.path().join("x.db")).unwrap_err();
    assert!(matches!(err, BackupError::Missing(_)), "{err}");
}

#[tokio::test]
async fn a_restore_puts_the_backup_in_place_and_keeps_the_old_database_aside() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = random_key();
    let store = store_with_teams(&db, &key, 3).await;
    let backup = dir.path().join("backup.db");
    take(&db, &backup).unwrap();
    store
        .write(|tx| teams::create(tx, "after-the-backup", Plan::Pro, 0))
        .await
        .unwrap();
    drop(store);

    let checked = check_for_restore(&backup, &db, KeySource::Environment(key.clone())).unwrap();
    assert_eq!(checked.cases, 0);
    let aside = restore(checked, &db, "20261127T000000Z").unwrap().unwrap();
    assert_eq!(
        team_count(&db, &key).await,
        3,
        "the backup's teams, not the later one"
    );
    assert_eq!(
        team_count(&aside, &key).await,
        4,
        "the old database opens as it was"
    );
    assert!(!dir.path().join("modctld.db.restoring").exists());
}

#[tokio::test]
async fn a_restore_refuses_a_backup_the_key_cannot_open_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = random_key();
    let _store = store_with_teams(&db, &key, 2).await;
    let backup = dir.path().join("backup.db");
    take(&db, &backup).unwrap();
    let before = std::fs::read(&db).unwrap();

    let err = check_for_restore(&backup, &db, KeySource::Environment(random_key())).unwrap_err();
    assert!(matches!(err, BackupError::Key { .. }), "{err}");
    assert!(err.to_string().contains("MODCTLD_SECRET_KEY"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert!(!dir.path().join("modctld.db.restoring").exists());
}

#[tokio::test]
async fn a_restore_refuses_what_is_not_a_sound_modctld_database_of_this_version() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = random_key();
    let _store = store_with_teams(&db, &key, 1).await;
    let restore_key = || KeySource::Environment(key.clone());

    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![7u8; 8192]).unwrap();
    let err = check_for_restore(&junk, &db, restore_key()).unwrap_err();
    assert!(matches!(err, BackupError::NotModctld(_)), "{err}");

    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    let err = check_for_restore(&other, &db, restore_key()).unwrap_err();
    assert!(matches!(err, BackupError::NotModctld(_)), "{err}");

    let newer = dir.path().join("newer.db");
    take(&db, &newer).unwrap();
    Connection::open(&newer)
        .unwrap()
        .execute_batch(
            "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
             VALUES (9999, 'future', '2030-01-01T00:00:00Z', '0')",
        )
        .unwrap();
    let err = check_for_restore(&newer, &db, restore_key()).unwrap_err();
    assert!(
        matches!(err, BackupError::Newer { found: 9999, .. }),
        "{err}"
    );

    let err = check_for_restore(&dir.path().join("missing.db"), &db, restore_key()).unwrap_err();
    assert!(matches!(err, BackupError::Missing(_)), "{err}");
}

#[test]
fn the_serve_lock_is_held_by_one_holder_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let held = crate::store::ServeLock::acquire(&db).unwrap();
    let err = crate::store::ServeLock::acquire(&db).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    drop(held);
    crate::store::ServeLock::acquire(&db).unwrap();
}
