//! Snapshots of an older modctld (schema V41: one global id per snapshot)
//! migrated to V42: each server's snapshots are numbered 1, 2, ... in capture
//! order, the next capture continues after its newest, and a restore job's
//! `snapshot_id` becomes the number where the snapshot is still kept.

use modctl_types::snapshot::{SnapshotCounts, SnapshotSource};

use super::snapshots::{self, NewSnapshot};
use super::*;

const A: &str = "100000000000000001";
const B: &str = "100000000000000002";

/// A V41 database: snapshots 1..5 interleaved between A (1, 3, 4) and B
/// (2, 5); a restore job of A from snapshot 4, and one from snapshot 99,
/// pruned long ago.
fn write_v41_snapshots(db: &std::path::Path) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    configure(&conn, Role::Writer).unwrap();
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(41))
        .run(&mut conn)
        .unwrap();
    let mut sql = format!(
        "INSERT INTO teams (id, name, plan, created_at) VALUES (1, 'alpha', 'pro', 0);
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{A}', 1, 'discord', 'A', 0);
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{B}', 1, 'discord', 'B', 0);
         INSERT INTO snapshot_contents (hash, content, size_bytes) VALUES ('h', '{{}}', 2);"
    );
    for (id, server) in [(1, A), (2, B), (3, A), (4, A), (5, B)] {
        sql.push_str(&format!(
            "INSERT INTO structure_snapshots (id, server_id, captured_at, source, actor, content_hash,
                 roles, channels, permission_overwrites, user_groups, administrators)
             VALUES ({id}, '{server}', {id}0, 'api', 'key:x', 'h', 0, 0, 0, 0, 0);"
        ));
    }
    for (job, snapshot) in [(1, 4), (2, 99)] {
        sql.push_str(&format!(
            "INSERT INTO restore_jobs (id, server_id, snapshot_id, actor, state, created_at, content,
                 plan_present, plan_create, plan_update, plan_skip)
             VALUES ({job}, '{A}', {snapshot}, 'key:x', 'done', 100, '{{}}', 0, 0, 0, 0);"
        ));
    }
    conn.execute_batch(&sql).unwrap();
}

#[tokio::test]
async fn older_snapshots_are_numbered_per_server_in_capture_order() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    write_v41_snapshots(&db);
    let store = Store::open(&db).await.unwrap();

    let (a, b, jobs) = store
        .read(|tx| {
            let numbers = |server| -> Result<Vec<(i64, i64)>, StoreError> {
                Ok(snapshots::list(tx, server)?
                    .iter()
                    .map(|s| (s.id, s.captured_at.as_second()))
                    .collect())
            };
            let jobs: Vec<i64> = tx.sql.rows(
                "SELECT snapshot_id FROM restore_jobs ORDER BY id",
                [],
                scalar,
            )?;
            Ok::<_, StoreError>((numbers(A)?, numbers(B)?, jobs))
        })
        .await
        .unwrap();
    // Newest first: (number, captured_at).
    assert_eq!(a, [(3, 40), (2, 30), (1, 10)]);
    assert_eq!(b, [(2, 50), (1, 20)]);
    assert_eq!(jobs, [3, 99], "snapshot 4 of A is its number 3; 99 is gone");

    let next = store
        .write(|tx| {
            let new = NewSnapshot {
                server_id: B,
                captured_at: 60,
                source: SnapshotSource::Api,
                actor: "key:x",
                content_json: "{}",
                content_hash: "h",
                counts: SnapshotCounts::default(),
                webhook_url: None,
            };
            snapshots::record(tx, &new, 10)
        })
        .await
        .unwrap();
    assert_eq!(next.id, 3, "B's next capture follows its newest");
}
