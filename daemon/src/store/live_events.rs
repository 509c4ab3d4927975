//! The live view's replayable events (issue #27, `V43__live_events.sql`):
//! appended in the transaction of the change that causes them, numbered per
//! server, the newest [`KEEP`] of each server kept. Read by
//! `GET /servers/{id}/events/stream` after the id a client last saw.

use crate::store::sql::params;
use modctl_types::live::{LiveEvent, LiveEventKind};
use serde::Serialize;

use super::{StoreError, Tx, timestamp};

/// Events kept per server ([`modctl_types::live::REPLAY_WINDOW`]).
pub const KEEP: i64 = modctl_types::live::REPLAY_WINDOW;

/// Older events are deleted once every this many appends, not at each: a
/// server holds between [`KEEP`] and `KEEP + PRUNE_EVERY` events.
const PRUNE_EVERY: i64 = 100;

/// Appends an event of `kind` with `data` to `server_id`'s events; its
/// number is one more than the newest. Returns the number.
pub fn append(
    tx: &Tx<'_>,
    server_id: &str,
    kind: LiveEventKind,
    data: &impl Serialize,
    now: i64,
) -> Result<i64, StoreError> {
    let data =
        serde_json::to_string(data).map_err(|e| StoreError::Corrupt(format!("live event: {e}")))?;
    let seq: i64 = tx.sql.row(
        "INSERT INTO live_events (server_id, seq, kind, created_at, data)
             SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4
             FROM live_events WHERE server_id = ?1
             RETURNING seq",
        params![server_id, kind.as_str(), now, data],
        |row| row.get("seq"),
    )?;
    if seq % PRUNE_EVERY == 0 {
        tx.sql
            .prepare("DELETE FROM live_events WHERE server_id = ?1 AND seq <= ?2")?
            .execute(params![server_id, seq - KEEP])?;
    }
    Ok(seq)
}

/// The oldest and newest event numbers `server_id` holds; `None` when it
/// has none.
pub fn bounds(tx: &Tx<'_>, server_id: &str) -> Result<Option<(i64, i64)>, StoreError> {
    tx.sql.opt_row(
        "SELECT min(seq) AS oldest, max(seq) AS newest FROM live_events
             WHERE server_id = ?1 HAVING count(*) > 0",
        params![server_id],
        |row| Ok((row.get("oldest")?, row.get("newest")?)),
    )
}

/// The newest event number of `server_id`, 0 when it has none.
pub fn newest(tx: &Tx<'_>, server_id: &str) -> Result<i64, StoreError> {
    Ok(bounds(tx, server_id)?.map_or(0, |(_, newest)| newest))
}

/// Up to `limit` events of `server_id` after number `after`, oldest first,
/// of `kinds` only (every kind when empty); and the number of the last
/// event looked at (so a filtered reader moves past what it skipped).
pub fn after(
    tx: &Tx<'_>,
    server_id: &str,
    after: i64,
    kinds: &[LiveEventKind],
    limit: u32,
) -> Result<(Vec<LiveEvent>, i64), StoreError> {
    let mut statement = tx.sql.prepare(
        "SELECT seq, kind, created_at, data FROM live_events
         WHERE server_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
    )?;
    let rows = statement.rows(params![server_id, after, i64::from(limit)], |row| {
        let seq: i64 = row.get("seq")?;
        let kind: String = row.get("kind")?;
        let created_at: i64 = row.get("created_at")?;
        let data: String = row.get("data")?;
        Ok((seq, kind, created_at, data))
    })?;
    let mut events = Vec::new();
    let mut last = after;
    for (seq, kind, created_at, data) in rows {
        last = seq;
        let kind: LiveEventKind = kind
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("live event {seq}: {e}")))?;
        if !kinds.is_empty() && !kinds.contains(&kind) {
            continue;
        }
        let data = serde_json::from_str(&data)
            .map_err(|e| StoreError::Corrupt(format!("live event {seq}: {e}")))?;
        events.push(LiveEvent {
            id: Some(seq),
            kind,
            created_at: timestamp(created_at),
            server_id: server_id.to_owned(),
            data,
        });
    }
    Ok((events, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, servers, teams};
    use modctl_types::{Plan, Platform};

    async fn store_with(servers_: &[&str]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let ids: Vec<String> = servers_.iter().map(|s| s.to_string()).collect();
        store
            .write(move |tx| {
                let team = teams::create(tx, "alpha", Plan::Free, 0)?;
                for id in &ids {
                    servers::insert(tx, team.id, Platform::Discord, id, "S", 0)?;
                }
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn numbers_count_per_server_and_old_events_are_pruned() {
        let (_dir, store) = store_with(&["1", "2"]).await;
        let total = KEEP + PRUNE_EVERY + 5;
        store
            .write(move |tx| {
                for n in 0..total {
                    append(tx, "1", LiveEventKind::CaseCreated, &n, n)?;
                }
                append(tx, "2", LiveEventKind::AutomodHit, &"x", 0)?;
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        let (bounds_1, bounds_2, page, filtered) = store
            .read(move |tx| {
                Ok::<_, StoreError>((
                    bounds(tx, "1")?,
                    bounds(tx, "2")?,
                    after(tx, "1", total - 3, &[], 10)?,
                    after(tx, "1", total - 3, &[LiveEventKind::AutomodHit], 10)?,
                ))
            })
            .await
            .unwrap();
        // Pruned at seq 1100 down to 1100 - KEEP; 5 more since.
        assert_eq!(bounds_1, Some((KEEP + PRUNE_EVERY - KEEP + 1, total)));
        assert_eq!(bounds_2, Some((1, 1)), "another server counts from 1");
        let (events, last) = page;
        assert_eq!(
            events.iter().map(|e| e.id.unwrap()).collect::<Vec<_>>(),
            vec![total - 2, total - 1, total]
        );
        assert_eq!(events[0].data, serde_json::json!(total - 3));
        assert_eq!(last, total);
        assert_eq!(filtered, (vec![], total), "skipped, but moved past");
    }
}
