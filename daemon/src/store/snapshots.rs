//! Structure snapshots: one metadata row per capture, the content once per
//! content hash (`snapshot_contents`), so capturing an unchanged server again
//! costs a row, not another copy of its structure.
//!
//! Each server keeps as many snapshots as its caller says (what the team's
//! plan retains, `crate::snapshots::capture`): recording one prunes
//! older rows and the contents no snapshot refers to any more, in the same
//! transaction, so a crash cannot leave a content without its snapshot or a
//! snapshot without its content. Pruning drops an older snapshot identical
//! to a newer one before any other: a schedule capturing an unchanged
//! server (or one nuked a while ago) again and again must not push the last
//! different structure out.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::config::{Antinuke, WebhookEvent};
use modctl_types::snapshot::{SnapshotCounts, SnapshotMeta, SnapshotSource, StructureContent};
use modctl_types::{Plan, Server};

use super::{FromRow, StoreError, parsed, scalar, servers, timestamp, webhooks};

/// A snapshot to record; the content is already serialized and hashed.
#[derive(Debug, Clone)]
pub struct NewSnapshot<'a> {
    /// The server.
    pub server_id: &'a str,
    /// When it was captured (unix seconds).
    pub captured_at: i64,
    /// Who asked.
    pub source: SnapshotSource,
    /// `key:<id>`, `schedule` or `operator`.
    pub actor: &'a str,
    /// The content's JSON.
    pub content_json: &'a str,
    /// SHA-256 of `content_json`, lower-case hex.
    pub content_hash: &'a str,
    /// Items per kind.
    pub counts: SnapshotCounts,
    /// Where its `snapshot_captured` event goes
    /// ([`crate::webhooks::wanted`]); `None`: no event.
    pub webhook_url: Option<&'a str>,
}

impl FromRow for SnapshotMeta {
    /// For `s` = `structure_snapshots` joined with `c` = `snapshot_contents`
    /// and `v` = `servers` ([`META_FROM`]).
    const COLUMNS: &'static str = "s.number, s.server_id, v.platform, s.captured_at, s.source, \
        s.actor, s.content_hash, c.size_bytes, s.roles, s.channels, s.permission_overwrites, \
        s.user_groups, s.administrators";

    fn from_row(row: &Row<'_>) -> Result<SnapshotMeta, StoreError> {
        let count = |name| {
            row.get::<i64>(name)
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
        };
        Ok(SnapshotMeta {
            // Known outside the store by its per-server number (V42).
            id: row.get("number")?,
            server_id: row.get("server_id")?,
            platform: parsed(row, "platform")?,
            captured_at: timestamp(row.get("captured_at")?),
            source: parsed(row, "source")?,
            actor: row.get("actor")?,
            content_hash: row.get("content_hash")?,
            size_bytes: row.get::<i64>("size_bytes")?.try_into().unwrap_or(0),
            counts: SnapshotCounts {
                roles: count("roles")?,
                channels: count("channels")?,
                permission_overwrites: count("permission_overwrites")?,
                user_groups: count("user_groups")?,
                administrators: count("administrators")?,
            },
        })
    }
}

/// The columns of a [`SnapshotMeta`], for `format!` (`{META_COLUMNS}`).
const META_COLUMNS: &str = SnapshotMeta::COLUMNS;
const META_FROM: &str = "structure_snapshots s \
    JOIN snapshot_contents c ON c.hash = s.content_hash \
    JOIN servers v ON v.id = s.server_id";

/// Records a snapshot (its content only if no snapshot holds the same one)
/// and prunes the server's snapshots beyond the newest `keep` (what its
/// team's plan retains, decided by the caller).
pub fn record(tx: &Tx<'_>, new: &NewSnapshot<'_>, keep: usize) -> Result<SnapshotMeta, StoreError> {
    tx.sql
        .prepare(
            "INSERT INTO snapshot_contents (hash, content, size_bytes) VALUES (?1, ?2, ?3) \
         ON CONFLICT (hash) DO NOTHING",
        )?
        .execute(params![
            new.content_hash,
            new.content_json,
            new.content_json.len() as i64
        ])?;
    let counts = new.counts;
    // The next per-server number: pruning never removes a server's newest
    // snapshot, so a number is not given twice while the server is claimed.
    let number: i64 = tx.sql.row(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM structure_snapshots WHERE server_id = ?1",
        [new.server_id],
        scalar,
    )?;
    tx.sql
        .prepare(
            "INSERT INTO structure_snapshots (server_id, captured_at, source, actor, content_hash, \
         roles, channels, permission_overwrites, user_groups, administrators, number) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            new.server_id,
            new.captured_at,
            new.source.as_str(),
            new.actor,
            new.content_hash,
            counts.roles,
            counts.channels,
            counts.permission_overwrites,
            counts.user_groups,
            counts.administrators,
            number,
        ])?;
    prune(tx, new.server_id, keep)?;
    let meta = get(tx, new.server_id, number)?.ok_or_else(|| {
        StoreError::Corrupt(format!("snapshot {number} vanished after its insert"))
    })?;
    if let Some(url) = new.webhook_url {
        webhooks::write(
            tx,
            new.server_id,
            WebhookEvent::SnapshotCaptured,
            url,
            &meta,
            new.captured_at,
        )?;
    }
    Ok(meta)
}

/// Brings the server down to `keep` snapshots: first the
/// oldest of those whose content a newer snapshot of the server has, then
/// the oldest; then deletes the contents no snapshot (of any server) holds.
fn prune(tx: &Tx<'_>, server_id: &str, keep: usize) -> Result<(), StoreError> {
    let held: i64 = tx.sql.row(
        "SELECT count(*) FROM structure_snapshots WHERE server_id = ?1",
        [server_id],
        scalar,
    )?;
    let keep = i64::try_from(keep).unwrap_or(i64::MAX);
    let excess = held - keep;
    if excess <= 0 {
        return Ok(());
    }
    // Their content stays held by the newer copy: no orphans from these.
    tx.sql.prepare(
        "DELETE FROM structure_snapshots WHERE id IN          (SELECT s.id FROM structure_snapshots s WHERE s.server_id = ?1 AND EXISTS             (SELECT 1 FROM structure_snapshots n              WHERE n.server_id = ?1 AND n.content_hash = s.content_hash AND n.id > s.id)           ORDER BY s.id LIMIT ?2)",
    )?
    .execute(params![server_id, excess])?;
    let pruned: Vec<String> = tx.sql.rows(
        "DELETE FROM structure_snapshots WHERE server_id = ?1 AND id NOT IN \
             (SELECT id FROM structure_snapshots WHERE server_id = ?1 ORDER BY id DESC LIMIT ?2) \
             RETURNING content_hash",
        params![server_id, keep],
        scalar,
    )?;
    let mut orphans = tx.sql.prepare(
        "DELETE FROM snapshot_contents WHERE hash = ?1 \
         AND NOT EXISTS (SELECT 1 FROM structure_snapshots WHERE content_hash = ?1)",
    )?;
    for hash in pruned {
        orphans.execute([hash])?;
    }
    Ok(())
}

/// The server's snapshots, newest first.
pub fn list(tx: &Tx<'_>, server_id: &str) -> Result<Vec<SnapshotMeta>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {META_COLUMNS} FROM {META_FROM} WHERE s.server_id = ?1 ORDER BY s.id DESC"
    ))?;
    let rows = stmt.rows([server_id], SnapshotMeta::from_row)?;
    Ok(rows)
}

/// Snapshot `number` of the server (its per-server number, the API's `id`);
/// `None` if it has no such snapshot. Lookups are per server: a number never
/// finds another server's snapshot.
pub fn get(tx: &Tx<'_>, server_id: &str, number: i64) -> Result<Option<SnapshotMeta>, StoreError> {
    tx.sql.opt_row(
        &format!("SELECT {META_COLUMNS} FROM {META_FROM} WHERE s.server_id = ?1 AND s.number = ?2"),
        params![server_id, number],
        SnapshotMeta::from_row,
    )
}

/// The content stored under `hash`.
pub fn content(tx: &Tx<'_>, hash: &str) -> Result<StructureContent, StoreError> {
    let json: Option<String> = tx.sql.opt_row(
        "SELECT content FROM snapshot_contents WHERE hash = ?1",
        [hash],
        scalar,
    )?;
    let json =
        json.ok_or_else(|| StoreError::Corrupt(format!("snapshot content {hash} is missing")))?;
    serde_json::from_str(&json)
        .map_err(|e| StoreError::Corrupt(format!("snapshot content {hash} cannot be read: {e}")))
}

/// The servers whose scheduled snapshot is due at `now` (unix seconds):
/// `antinuke.enabled` with `antinuke.snapshot_interval_hours` set, connected
/// to their platform, and whose newest snapshot (whatever asked for it) is at
/// least the interval old, or which have none yet. A snapshot taken by hand
/// resets the schedule: the structure is that fresh either way. Each comes
/// with its team's plan: whether the plan has scheduled snapshots is the
/// caller's rule (`crate::snapshots::scheduled_due`).
pub fn scheduled_due(tx: &Tx<'_>, now: i64) -> Result<Vec<(Server, Plan)>, StoreError> {
    let rows: Vec<(String, String, Option<i64>)> = tx.sql
        .rows(
            "SELECT c.server_id, c.value, \
             (SELECT MAX(s.captured_at) FROM structure_snapshots s WHERE s.server_id = c.server_id) \
                 AS last_captured_at \
             FROM config_sections c JOIN platform_connections p ON p.server_id = c.server_id \
             WHERE c.section = 'antinuke' ORDER BY c.server_id", [], |row| {
            Ok((
                row.get("server_id")?,
                row.get("value")?,
                row.get("last_captured_at")?,
            ))
        })?
        ;
    let mut due = Vec::new();
    for (server_id, json, last) in rows {
        // Stored sections were validated when written; one that cannot be
        // read (a hand-edited database) must not stop the other servers'
        // snapshots, so it is reported and skipped.
        let antinuke: Antinuke = match serde_json::from_str(&json) {
            Ok(antinuke) => antinuke,
            Err(e) => {
                tracing::error!(server = %server_id, error = %e, "antinuke config cannot be read; no scheduled snapshot");
                continue;
            }
        };
        let Some(hours) = antinuke
            .snapshot_interval_hours
            .filter(|_| antinuke.enabled)
        else {
            continue;
        };
        if last.is_some_and(|last| now - last < i64::from(hours) * 3600) {
            continue;
        }
        let team = super::teams::of_server(tx, &server_id)?;
        if let Some(record) = servers::find(tx, &server_id)? {
            due.push((record.server, team.plan));
        }
    }
    Ok(due)
}

/// How many contents are stored (tests check that identical captures share one).
pub fn stored_contents(tx: &Tx<'_>) -> Result<i64, StoreError> {
    tx.sql
        .row("SELECT COUNT(*) FROM snapshot_contents", [], scalar)
}

/// When `server_id`'s newest snapshot was captured (unix seconds), if it has one.
pub fn latest_at(tx: &Tx<'_>, server_id: &str) -> Result<Option<i64>, StoreError> {
    tx.sql.row(
        "SELECT MAX(captured_at) FROM structure_snapshots WHERE server_id = ?1",
        [server_id],
        scalar,
    )
}

#[cfg(test)]
mod tests {
    use modctl_types::Plan;

    use super::*;
    use crate::store::{Store, servers, teams};
    use modctl_types::Platform;

    const GUILD: &str = "100000000000000001";
    const OTHER: &str = "100000000000000002";
    /// The pruning rules are the same whatever a plan retains; 10 keeps the
    /// indexes below readable.
    const KEEP_PER_SERVER: usize = 10;

    fn record(tx: &Tx<'_>, new: &NewSnapshot<'_>) -> Result<SnapshotMeta, StoreError> {
        super::record(tx, new, KEEP_PER_SERVER)
    }

    fn snapshot<'a>(server_id: &'a str, captured_at: i64, hash: &'a str) -> NewSnapshot<'a> {
        NewSnapshot {
            server_id,
            captured_at,
            source: SnapshotSource::Api,
            actor: "key:test",
            content_json: r#"{"platform":"slack","channels":[],"user_groups":[]}"#,
            content_hash: hash,
            counts: SnapshotCounts::default(),
            webhook_url: None,
        }
    }

    fn contents(tx: &Tx<'_>) -> Vec<String> {
        tx.sql
            .prepare("SELECT hash FROM snapshot_contents ORDER BY hash")
            .unwrap()
            .rows([], scalar)
            .unwrap()
    }

    #[tokio::test]
    async fn each_server_keeps_ten_and_contents_no_one_holds_go() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                servers::insert(tx, team.id, Platform::Discord, GUILD, "a", 0)?;
                servers::insert(tx, team.id, Platform::Discord, OTHER, "b", 0)?;
                // Another server holds `shared`: pruning GUILD's copy keeps it.
                record(tx, &snapshot(OTHER, 1, "shared"))?;
                record(tx, &snapshot(GUILD, 1, "shared"))?;
                for at in 2..=10 {
                    record(tx, &snapshot(GUILD, at, &format!("v{at}")))?;
                }
                // The ninth distinct one pushes the oldest out.
                record(tx, &snapshot(GUILD, 11, "v11"))?;
                let kept = list(tx, GUILD)?;
                assert_eq!(kept.len(), KEEP_PER_SERVER);
                assert_eq!(kept[0].captured_at.as_second(), 11, "newest first");
                assert_eq!(kept[9].content_hash, "v2");
                assert!(
                    contents(tx).contains(&"shared".to_owned()),
                    "OTHER holds it"
                );
                // The same content again and again (a schedule on an unchanged
                // or nuked server) replaces its own older copies, never v2..v10.
                for at in 12..=30 {
                    record(tx, &snapshot(GUILD, at, "nuked"))?;
                }
                let kept = list(tx, GUILD)?;
                let hashes: Vec<&str> = kept.iter().map(|s| s.content_hash.as_str()).collect();
                assert_eq!(
                    hashes,
                    [
                        "nuked", "v11", "v10", "v9", "v8", "v7", "v6", "v5", "v4", "v3"
                    ]
                );
                assert_eq!(kept[0].captured_at.as_second(), 30);
                assert_eq!(
                    contents(tx),
                    [
                        "nuked", "shared", "v10", "v11", "v3", "v4", "v5", "v6", "v7", "v8", "v9"
                    ],
                    "v2 is no one's"
                );
                assert_eq!(list(tx, OTHER)?.len(), 1);
                // Numbered per server in capture order (V42): OTHER's first
                // is 1 as GUILD's was; GUILD's 30th capture is number 30,
                // whatever pruning removed before it.
                assert_eq!(list(tx, OTHER)?[0].id, 1);
                let numbers: Vec<i64> = list(tx, GUILD)?.iter().map(|s| s.id).collect();
                assert_eq!(numbers, [30, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
                assert_eq!(get(tx, GUILD, 30)?.unwrap().captured_at.as_second(), 30);
                assert!(get(tx, OTHER, 2)?.is_none(), "OTHER has only 1");
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
    }
}
