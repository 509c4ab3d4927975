//! The log channels' outbox (issue #25, `V27__log_outbox.sql`).
//!
//! [`write`] runs inside the transaction of what the entry reports (a case
//! settled, a config change, an automod hit), like the webhook outbox
//! ([`super::webhooks::write`]): the entry commits or rolls back with it, so
//! nothing is posted about a change that did not happen and nothing is lost
//! when the daemon dies after the commit. Which channel an entry goes to is
//! the domain's to say (`crate::logs`); the store only keeps it.
//!
//! The delivery worker (`crate::logs::deliver`) reads the channels with
//! something [`due`], a channel's [`waiting`] entries in order, and then
//! deletes what it posted ([`delivered`]), moves the rest later
//! ([`retry_later`]), marks the channel's entries failed ([`fail_channel`],
//! shown by onboarding through [`failures`]) or one malformed entry given
//! up ([`give_up`]). Failed and given-up entries are deleted a retention
//! after they ended ([`purge_ended`]).

use crate::store::sql::params;
use serde::Serialize;

use super::{StoreError, Tx, scalar};
use crate::store::timestamp;

/// A channel with entries waiting.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DueChannel {
    /// The server.
    pub server_id: String,
    /// The channel.
    pub channel_id: String,
}

/// One waiting entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Its row id: entries are posted in this order.
    pub id: i64,
    /// What kind of entry (`case`, `config`, `message_deleted`, ...).
    pub kind: String,
    /// The entry, JSON as written.
    pub entry: String,
    /// Failed posts of it so far.
    pub attempts: i64,
}

/// A channel whose entries could not be posted and are no longer tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelFailure {
    /// The channel.
    pub channel_id: String,
    /// Why (the platform's answer).
    pub reason: String,
    /// Entries left unposted.
    pub entries: i64,
    /// When it was found, unix seconds.
    pub at: jiff::Timestamp,
}

/// Writes an entry of `kind` for `channel_id` of `server_id`, to be posted
/// from `now` on.
pub fn write(
    tx: &Tx<'_>,
    server_id: &str,
    channel_id: &str,
    kind: &str,
    entry: &impl Serialize,
    now: i64,
) -> Result<(), StoreError> {
    let entry =
        serde_json::to_string(entry).map_err(|e| StoreError::Corrupt(format!("log entry: {e}")))?;
    tx.sql
        .prepare(
            "INSERT INTO log_outbox (server_id, channel_id, kind, state, next_attempt_at, created_at, entry)
             VALUES (?1, ?2, ?3, 'waiting', ?4, ?4, ?5)",
        )?
        .execute(params![server_id, channel_id, kind, now, entry])?;
    Ok(())
}

/// The channels with a waiting entry whose time has come at `now`.
pub fn due(tx: &Tx<'_>, now: i64) -> Result<Vec<DueChannel>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT DISTINCT server_id, channel_id FROM log_outbox
             WHERE state = 'waiting' AND next_attempt_at <= ?1",
        [now],
        |row| {
            Ok(DueChannel {
                server_id: row.get("server_id")?,
                channel_id: row.get("channel_id")?,
            })
        },
    )?;
    Ok(rows)
}

/// Up to `limit` waiting entries of a channel whose time has come, oldest
/// first.
pub fn waiting(
    tx: &Tx<'_>,
    channel: &DueChannel,
    now: i64,
    limit: u32,
) -> Result<Vec<Waiting>, StoreError> {
    let rows = tx
        .sql
        .rows(
            "SELECT id, kind, entry, attempts FROM log_outbox
             WHERE server_id = ?1 AND channel_id = ?2 AND state = 'waiting' AND next_attempt_at <= ?3
             ORDER BY id LIMIT ?4",
            params![channel.server_id, channel.channel_id, now, limit],
            |row| {
                Ok(Waiting {
                    id: row.get("id")?,
                    kind: row.get("kind")?,
                    entry: row.get("entry")?,
                    attempts: row.get("attempts")?,
                })
            },
        )?
        ;
    Ok(rows)
}

/// Entries `ids` were posted: they are removed.
pub fn delivered(tx: &Tx<'_>, ids: &[i64]) -> Result<(), StoreError> {
    let mut delete = tx.sql.prepare("DELETE FROM log_outbox WHERE id = ?1")?;
    for id in ids {
        delete.execute([id])?;
    }
    Ok(())
}

/// Entries `ids` could not be posted (`error`): tried again from `at` on,
/// one more attempt counted.
pub fn retry_later(tx: &Tx<'_>, ids: &[i64], at: i64, error: &str) -> Result<(), StoreError> {
    let mut update = tx.sql.prepare(
        "UPDATE log_outbox SET attempts = attempts + 1, next_attempt_at = ?2, last_error = ?3
         WHERE id = ?1 AND state = 'waiting'",
    )?;
    for id in ids {
        update.execute(params![id, at, error])?;
    }
    Ok(())
}

/// The channel is gone or refuses the bot: every entry waiting for it is
/// marked failed with `reason` and no longer tried.
pub fn fail_channel(
    tx: &Tx<'_>,
    channel: &DueChannel,
    reason: &str,
    now: i64,
) -> Result<usize, StoreError> {
    let failed = tx
        .sql
        .prepare(
            "UPDATE log_outbox SET state = 'failed', attempts = attempts + 1, last_error = ?3,
                 next_attempt_at = ?4
             WHERE server_id = ?1 AND channel_id = ?2 AND state = 'waiting'",
        )?
        .execute(params![channel.server_id, channel.channel_id, reason, now])?;
    Ok(failed)
}

/// Entry `id` was refused as malformed (`reason`): it alone is given up,
/// kept (with the reason) until the retention purges it, and no longer
/// tried; its channel's other entries go on.
pub fn give_up(tx: &Tx<'_>, id: i64, reason: &str, now: i64) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE log_outbox SET state = 'given_up', attempts = attempts + 1, last_error = ?2,
                 next_attempt_at = ?3
             WHERE id = ?1 AND state = 'waiting'",
        )?
        .execute(params![id, reason, now])?;
    Ok(())
}

/// Deletes the failed and given-up entries that ended before `before`
/// (their `next_attempt_at` is when), at most `limit` of them: the
/// retention keeps the outbox bounded. Answers how many went.
pub fn purge_ended(tx: &Tx<'_>, before: i64, limit: u32) -> Result<usize, StoreError> {
    let purged = tx
        .sql
        .prepare(
            "DELETE FROM log_outbox WHERE id IN (
                 SELECT id FROM log_outbox
                 WHERE state IN ('failed', 'given_up') AND next_attempt_at < ?1
                 LIMIT ?2)",
        )?
        .execute(params![before, limit])?;
    Ok(purged)
}

/// The server's channels with failed entries, the latest failure of each,
/// most recent first.
pub fn failures(tx: &Tx<'_>, server_id: &str) -> Result<Vec<ChannelFailure>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT channel_id, COUNT(*) AS entries, MAX(next_attempt_at) AS at,
                    (SELECT last_error FROM log_outbox l
                     WHERE l.server_id = o.server_id AND l.channel_id = o.channel_id
                       AND l.state = 'failed'
                     ORDER BY next_attempt_at DESC, id DESC LIMIT 1) AS reason
             FROM log_outbox o
             WHERE server_id = ?1 AND state = 'failed'
             GROUP BY channel_id ORDER BY at DESC",
        [server_id],
        |row| {
            Ok(ChannelFailure {
                channel_id: row.get("channel_id")?,
                reason: row.get::<Option<String>>("reason")?.unwrap_or_default(),
                entries: row.get("entries")?,
                at: timestamp(row.get("at")?),
            })
        },
    )?;
    Ok(rows)
}

/// Entries still waiting for the server's channels (all of them, or due
/// later), for onboarding and tests.
pub fn waiting_count(tx: &Tx<'_>, server_id: &str) -> Result<i64, StoreError> {
    let count = tx
        .sql
        .opt_row(
            "SELECT COUNT(*) AS waiting FROM log_outbox WHERE server_id = ?1 AND state = 'waiting'",
            [server_id],
            |row| row.get("waiting"),
        )?
        .unwrap_or(0);
    Ok(count)
}

/// Entries waiting for any server's channels, due or not (`GET /metrics`).
pub fn backlog(tx: &Tx<'_>) -> Result<i64, StoreError> {
    tx.sql.row(
        "SELECT COUNT(*) FROM log_outbox WHERE state = 'waiting'",
        [],
        scalar,
    )
}
