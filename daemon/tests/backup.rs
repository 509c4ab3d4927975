//! `modctld backup` of a daemon serving under write load, and
//! `modctld restore-backup` of it (issue #28): the restored database passes
//! a full integrity check and holds every case acknowledged before the
//! backup began; a restore is refused while a daemon serves the database,
//! and a second `serve` of one database is refused.

use crate::support::{modctld, operator, run, seed, serve};
use modctl_types::moderation::ActionResponse;
use serde_json::json;

const SERVER: &str = "-1001234567890";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_write_load_restores_every_case_acknowledged_before_it() {
    const CLIENTS: usize = 8;
    const ACKNOWLEDGED_BEFORE_BACKUP: usize = 200;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = seed(&db, "free", "telegram", SERVER);
    let (mut daemon, url) = serve(&db, &[]);

    // Notes are recorded without a platform call: each one is a write.
    let (acks, mut acked) = tokio::sync::mpsc::unbounded_channel::<i64>();
    let stop = tokio_util::sync::CancellationToken::new();
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let (url, key, acks, stop) = (url.clone(), key.clone(), acks.clone(), stop.clone());
        clients.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            for n in 0.. {
                if stop.is_cancelled() {
                    return;
                }
                let user = format!("{}", 100_000 + client * 100_000 + n);
                let response = http
                    .post(format!("{url}/api/v1/servers/{SERVER}/actions/note"))
                    .bearer_auth(&key)
                    .json(&json!({"user_id": user, "reason": "load"}))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status(), 200);
                let answer: ActionResponse = response.json().await.unwrap();
                let _ = acks.send(answer.case_id);
            }
        }));
    }
    drop(acks);
    let mut before_backup = Vec::new();
    while before_backup.len() < ACKNOWLEDGED_BEFORE_BACKUP {
        before_backup.push(acked.recv().await.unwrap());
    }

    // The writes go on while the backup runs.
    let backup = dir.path().join("backups").join("first.db");
    std::fs::create_dir(backup.parent().unwrap()).unwrap();
    let (db2, backup2) = (db.clone(), backup.clone());
    let (_, said) =
        tokio::task::spawn_blocking(move || run(modctld(&db2).arg("backup").arg(&backup2), 0))
            .await
            .unwrap();
    assert!(said.contains("backed up"), "{said}");
    assert!(
        said.contains("modctld.db.key"),
        "says where the key is: {said}"
    );
    let mut during = 0;
    while during < 50 {
        acked.recv().await.unwrap();
        during += 1;
    }
    stop.cancel();
    for client in clients {
        client.await.unwrap();
    }

    // Refused while the daemon serves the database, which stays as it was.
    let (_, refused) = run(modctld(&db).arg("restore-backup").arg(&backup), 1);
    assert!(refused.contains("another modctld"), "{refused}");
    assert!(refused.contains("stop it first"), "{refused}");

    // And a second daemon on the same database is refused.
    let (_, second) = run(modctld(&db).args(["serve", "--listen", "127.0.0.1:0"]), 1);
    assert!(second.contains("another modctld"), "{second}");

    daemon.terminate();
    let (_, restored) = run(modctld(&db).arg("restore-backup").arg(&backup), 0);
    assert!(restored.contains("restored"), "{restored}");
    assert!(restored.contains("before-restore-"), "{restored}");

    // The restored database: sound in full, every case acknowledged before
    // the backup began.
    let (_, checked) = run(modctld(&db).arg("check"), 0);
    assert!(checked.contains("is sound"), "{checked}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let missing: Vec<i64> = before_backup
        .iter()
        .copied()
        .filter(|id| {
            conn.query_row("SELECT COUNT(*) FROM cases WHERE id = ?1", [id], |row| {
                row.get::<_, i64>(0)
            })
            .unwrap()
                != 1
        })
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} cases acknowledged before the backup are missing: {missing:?}",
        missing.len(),
        before_backup.len()
    );
    drop(conn);
    // It serves: the daemon opens it, its key still opens its secrets.
    let (_daemon, url) = serve(&db, &[]);
    let status = reqwest::Client::new()
        .get(format!("{url}/api/v1/servers/{SERVER}/cases"))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 200);
}

#[test]
fn a_backup_says_what_is_wrong_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    operator(&db, &["team", "create", "alpha"], &[]);
    let there = dir.path().join("there.db");
    std::fs::write(&there, b"keep").unwrap();
    let (_, err) = run(modctld(&db).arg("backup").arg(&there), 1);
    assert!(err.contains("exists: give a new file name"), "{err}");
    assert_eq!(std::fs::read(&there).unwrap(), b"keep");

    let (_, err) = run(
        modctld(&dir.path().join("none.db"))
            .arg("backup")
            .arg(dir.path().join("b.db")),
        1,
    );
    assert!(err.contains("there is no database at"), "{err}");

    // A backup taken with one key is refused under another, and the
    // database is left as it was.
    let backup = dir.path().join("b.db");
    run(modctld(&db).arg("backup").arg(&backup), 0);
    let before = std::fs::read(&db).unwrap();
    let (_, err) = run(
        modctld(&db).arg("restore-backup").arg(&backup).env(
            "MODCTLD_SECRET_KEY",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ),
        1,
    );
    assert!(err.contains("not restored"), "{err}");
    assert!(err.contains("MODCTLD_SECRET_KEY"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
}
