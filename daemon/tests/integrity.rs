//! A damaged database file is found before it is served (issue #22): with
//! garbage written into a page of the cases table of a copy of the file,
//! `modctld serve` refuses to start and `modctld check` reports the damage
//! and exits 1; the healthy original passes both.

use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use modctl_types::moderation::{Action, CaseSource, CaseState};
use modctl_types::{Plan, Platform};
use modctld::store::cases::{self, NewCase};
use modctld::store::{Store, StoreError, servers, teams};

use crate::support::{modctld, run, spawn_serve};

const SERVER: &str = "112233445566778899";

/// A database with 300 cases (their table spans many pages), checkpointed
/// so that the file alone holds everything, and its key file.
async fn healthy_database(dir: &Path) -> PathBuf {
    let db = dir.join("modctld.db");
    let store = Store::open(&db).await.unwrap();
    store
        .write(|tx| {
            let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
            servers::insert(tx, team.id, Platform::Discord, SERVER, "Community", 0)?;
            let reason = "a reason long enough to fill the pages of the table ".repeat(3);
            for i in 0..300 {
                cases::insert(
                    tx,
                    &NewCase {
                        server_id: SERVER,
                        action: Action::Note,
                        user_id: &format!("5000000000000{i:05}"),
                        actor: "key:test",
                        reason: Some(&reason),
                        minutes: None,
                        expires_at: None,
                        delete_message_days: None,
                        applied: true,
                        platform: Platform::Discord,
                        detail: "note recorded",
                        state: CaseState::Settled,
                        source: CaseSource::Api,
                        linked_case_id: None,
                        now: 1_800_000_000 + i,
                        dm: None,
                        webhook_url: None,
                    },
                )?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let checkpoint = store.checkpoint().await.unwrap();
    assert_eq!(checkpoint.behind(), 0, "{checkpoint:?}");
    db
}

/// A copy of `db` (and its key) with garbage written over the root page of
/// the cases table.
fn corrupted_copy(db: &Path) -> PathBuf {
    let copy = db.with_file_name("corrupt.db");
    std::fs::copy(db, &copy).unwrap();
    std::fs::copy(
        db.with_file_name("modctld.db.key"),
        copy.with_file_name("corrupt.db.key"),
    )
    .unwrap();
    let (page_size, root): (u64, u64) = {
        let conn = rusqlite::Connection::open(&copy).unwrap();
        (
            conn.query_row("PRAGMA page_size", [], |row| row.get(0))
                .unwrap(),
            conn.query_row(
                "SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'cases'",
                [],
                |row| row.get(0),
            )
            .unwrap(),
        )
    };
    assert!(root > 1, "the cases table is not on the file's first page");
    let mut file = std::fs::OpenOptions::new().write(true).open(&copy).unwrap();
    file.seek(SeekFrom::Start((root - 1) * page_size)).unwrap();
    file.write_all(&vec![0xA5; page_size as usize]).unwrap();
    file.sync_all().unwrap();
    copy
}

/// `modctld serve` on `db`: `Ok(address)` once it listens (then stopped),
/// or `Err(stderr)` when it exits first.
fn serve(db: &Path) -> Result<String, String> {
    let mut child = spawn_serve(db);
    let mut stderr = String::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(address) = line.split("address=").nth(1) {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(address.to_owned());
        }
        stderr.push_str(&line);
        stderr.push('\n');
    }
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "serve exited 0 without listening: {stderr}"
    );
    Err(stderr)
}

#[tokio::test]
async fn a_corrupt_database_is_refused_by_serve_and_reported_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let db = healthy_database(dir.path()).await;
    let copy = corrupted_copy(&db);

    let refused = serve(&copy).expect_err("serve started on a corrupt database");
    assert!(
        refused.contains(&format!(
            "database {} is corrupt, so modctld does not serve it: table cases: ",
            copy.display()
        )),
        "{refused}"
    );
    assert!(refused.contains("run `modctld check --db"), "{refused}");

    let (out, err) = run(
        modctld(&copy)
            .arg("check")
            .timeout(Duration::from_secs(120)),
        1,
    );
    // The damaged table is named.
    assert!(
        out.lines().any(|line| line.starts_with("table cases: ")),
        "{out}"
    );
    assert!(err.starts_with("error: database "), "{err}");
    assert!(
        err.contains("is corrupt: 1 problem found, listed on stdout"),
        "{err}"
    );
    assert!(err.contains("modctld restore-backup"), "{err}");

    // The original, untouched, passes both.
    let (out, err) = run(modctld(&db).arg("check"), 0);
    assert_eq!(out, "");
    assert!(err.contains("is sound"), "{err}");
    serve(&db).expect("serve refused a sound database");
}

#[test]
fn check_refuses_a_missing_database_without_creating_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    let (_, err) = run(modctld(&db).arg("check"), 1);
    assert!(err.contains("there is no database at"), "{err}");
    assert!(!db.exists());
}
