//! The webhook outbox (issue #11): events, their deliveries and every attempt.
//!
//! [`write`] runs inside the transaction of the change that causes the
//! event (a settled case, a jail that starts or ends, a config change, a
//! captured snapshot, a finished restore, a test request): the event commits or rolls back
//! with it, so nothing is sent for a change that did not happen and nothing
//! is lost when the daemon dies after the commit. The delivery worker
//! ([`crate::webhooks`]) reads what is [`due`] and records each attempt.
//! Which events are wanted is the domain's to say ([`crate::webhooks::wanted`]):
//! the store functions that write an event with their change (a case, a
//! snapshot, a restore's end) are given the URL it goes to, or none.
//!
//! Every row written here is paid for by an action's settling transaction
//! or by the writer thread every action shares, so the outbox is kept cheap
//! (issue #11's benchmark, see `V14__cheaper_webhook_outbox.sql`): one row
//! per event and its delivery, appended; deciding whether an event is
//! wanted takes one query; a delivery's latest attempt is kept on its row,
//! and a chunk of attempts is recorded in one statement.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::Plan;
use modctl_types::config::{WebhookEvent, Webhooks};
use modctl_types::webhooks::{Attempt, Delivery, DeliveryDetail, DeliveryState, Enqueued};
use serde::Serialize;

use super::{FromRow, StoreError, parsed, scalar, timestamp};

/// Length of the random part of an event id (`evt_` + this many characters).
const EVENT_ID_LEN: usize = 24;

/// Where a server's events of one kind would go (see [`subscription`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// The endpoint.
    pub url: String,
    /// The plan of the server's team: whether it may have webhooks is
    /// [`crate::webhooks::wanted`]'s to decide.
    pub plan: Plan,
}

/// The server's webhook endpoint when its section subscribes to events of
/// `kind`: enabled, with a URL, subscribed to `kind` (an empty list means
/// every kind) and with a signing secret stored (unsigned events are never
/// sent: without a secret there is no event). A test event needs no
/// subscription: it is asked for explicitly.
pub fn subscription(
    tx: &Tx<'_>,
    server_id: &str,
    kind: WebhookEvent,
) -> Result<Option<Subscription>, StoreError> {
    // One query, not the whole config: this runs in every settling
    // transaction. No row: no webhooks section, so nothing is wanted.
    let found: Option<(String, String, bool)> = tx.sql.opt_row(
        "SELECT c.value, t.plan,
                    EXISTS (SELECT 1 FROM webhook_secrets w WHERE w.server_id = c.server_id)
                        AS secret_set
             FROM config_sections c
             JOIN servers s ON s.id = c.server_id
             JOIN teams t ON t.id = s.team_id
             WHERE c.server_id = ?1 AND c.section = 'webhooks'",
        [server_id],
        |row| Ok((row.get("value")?, row.get("plan")?, row.get("secret_set")?)),
    )?;
    let Some((json, plan, secret_set)) = found else {
        return Ok(None);
    };
    let section: Webhooks = serde_json::from_str(&json)
        .map_err(|e| StoreError::Corrupt(format!("webhooks section of server {server_id}: {e}")))?;
    let wanted =
        kind == WebhookEvent::Test || section.events.is_empty() || section.events.contains(&kind);
    let Some(url) = section
        .url
        .filter(|_| section.enabled && wanted && secret_set)
    else {
        return Ok(None);
    };
    // The CHECK constraint only admits known plans.
    let plan: Plan = plan.parse().unwrap_or(Plan::Free);
    Ok(Some(Subscription { url, plan }))
}

/// Writes an event of `kind` with `data` and its delivery to `url`, which
/// [`crate::webhooks::wanted`] returned in the same transaction.
pub fn write(
    tx: &Tx<'_>,
    server_id: &str,
    kind: WebhookEvent,
    url: &str,
    data: &impl Serialize,
    now: i64,
) -> Result<Enqueued, StoreError> {
    let id = format!(
        "evt_{}",
        super::ids::random_string(super::ids::ALPHANUMERIC, EVENT_ID_LEN)
    );
    // Serialized once, straight from `data`: going through a
    // `serde_json::Value` first (as `Event` holds it) would build the case
    // twice on the settling transaction's time. The field names and order
    // are `Event`'s.
    #[derive(Serialize)]
    struct Body<'a, T: Serialize> {
        id: &'a str,
        #[serde(rename = "type")]
        kind: WebhookEvent,
        created_at: modctl_types::Timestamp,
        server_id: &'a str,
        data: &'a T,
    }
    let payload = serde_json::to_string(&Body {
        id: &id,
        kind,
        created_at: timestamp(now),
        server_id,
        data,
    })
    .map_err(|e| StoreError::Corrupt(format!("event payload: {e}")))?;
    // One row, appended (see `V14__cheaper_webhook_outbox.sql`).
    tx.sql
        .prepare(
            "INSERT INTO webhook_deliveries
             (event_id, server_id, kind, url, state, next_attempt_at, created_at, payload)
         VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?5, ?6)",
        )?
        .execute(params![id, server_id, kind.as_str(), url, now, payload])?;
    Ok(Enqueued {
        event_id: id,
        delivery_id: tx.sql.last_insert_rowid(),
    })
}

impl FromRow for Delivery {
    const COLUMNS: &'static str = "id, event_id, kind, url, state, attempts, last_status,
    last_error, next_attempt_at, created_at";

    fn from_row(row: &Row<'_>) -> Result<Delivery, StoreError> {
        Ok(Delivery {
            id: row.get("id")?,
            event_id: row.get("event_id")?,
            kind: parsed(row, "kind")?,
            url: row.get("url")?,
            state: parsed(row, "state")?,
            attempts: row.get("attempts")?,
            last_status: row.get("last_status")?,
            last_error: row.get("last_error")?,
            next_attempt_at: row.get::<Option<i64>>("next_attempt_at")?.map(timestamp),
            created_at: timestamp(row.get("created_at")?),
        })
    }
}

/// The columns of a [`Delivery`], for `format!` (`{DELIVERY_COLUMNS}`).
const DELIVERY_COLUMNS: &str = Delivery::COLUMNS;

/// A server's deliveries newest first, older than `before`, optionally of one
/// state and kind.
pub fn list(
    tx: &Tx<'_>,
    server_id: &str,
    state: Option<DeliveryState>,
    kind: Option<WebhookEvent>,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<Delivery>, StoreError> {
    let mut rows = Vec::new();
    if limit == 0 {
        return Ok(rows);
    }
    tx.sql
        .prepare(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries
             WHERE server_id = ?1 AND id < ?2 AND (?3 IS NULL OR state = ?3) AND (?4 IS NULL OR kind = ?4)
             ORDER BY id DESC"
        ))?
        .while_each(
            params![
                server_id,
                before.unwrap_or(i64::MAX),
                state.map(DeliveryState::as_str),
                kind.map(WebhookEvent::as_str),
            ],
            |row| {
                rows.push(Delivery::from_row(row)?);
                Ok(rows.len() < limit as usize)
            },
        )?;
    Ok(rows)
}

/// Delivery `id` of `server_id` with its attempts; `None` also when it
/// belongs to another server.
pub fn get(tx: &Tx<'_>, server_id: &str, id: i64) -> Result<Option<DeliveryDetail>, StoreError> {
    let Some(delivery) = tx.sql.opt_row(
        &format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE server_id = ?1 AND id = ?2"
        ),
        params![server_id, id],
        Delivery::from_row,
    )?
    else {
        return Ok(None);
    };
    let history = tx.sql.rows(
        // The history, then the latest attempt, kept on the delivery
        // (a compound select's columns are named by its first).
        "SELECT attempt, at, status, error, duration_ms FROM webhook_attempts
             WHERE delivery_id = ?1
             UNION ALL
             SELECT attempts, attempt_at, attempt_status, attempt_error, attempt_ms
             FROM webhook_deliveries WHERE id = ?1 AND attempt_at IS NOT NULL
             ORDER BY 1",
        [id],
        |row| {
            Ok(Attempt {
                attempt: row.get("attempt")?,
                at: timestamp(row.get("at")?),
                status: row.get("status")?,
                error: row.get("error")?,
                duration_ms: row.get::<i64>("duration_ms")?.try_into().unwrap_or(0),
            })
        },
    )?;
    Ok(Some(DeliveryDetail { delivery, history }))
}

/// A delivery the worker is to attempt now.
#[derive(Debug, Clone)]
pub struct Due {
    /// The delivery.
    pub id: i64,
    /// Its server.
    pub server_id: String,
    /// The event id (the `webhook-id` header).
    pub event_id: String,
    /// Where to.
    pub url: String,
    /// The body, exactly as stored.
    pub payload: String,
    /// Attempts made before this one.
    pub attempts: u32,
}

/// The endpoints (server and URL) with deliveries due at `now`, the one
/// waiting longest first.
pub fn due_endpoints(tx: &Tx<'_>, now: i64) -> Result<Vec<(String, String)>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT server_id, url FROM webhook_deliveries
             WHERE state = 'pending' AND next_attempt_at <= ?1
             GROUP BY server_id, url
             ORDER BY MIN(next_attempt_at), MIN(id)",
        [now],
        |row| Ok((row.get("server_id")?, row.get("url")?)),
    )?;
    Ok(rows)
}

/// `server_id`'s pending deliveries to `url` whose next attempt is due at
/// `now`, oldest first, at most `limit`. Read along the due index, which is
/// in that order, so the read stops at `limit`; left to itself SQLite takes
/// the server's index and sorts every delivery the server ever had.
pub fn due_to(
    tx: &Tx<'_>,
    server_id: &str,
    url: &str,
    now: i64,
    limit: u32,
) -> Result<Vec<Due>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT id, server_id, event_id, url, payload, attempts
             FROM webhook_deliveries INDEXED BY webhook_deliveries_due
             WHERE state = 'pending' AND next_attempt_at <= ?3 AND server_id = ?1 AND url = ?2
             ORDER BY next_attempt_at, id
             LIMIT ?4",
        params![server_id, url, now, limit],
        |row| {
            Ok(Due {
                id: row.get("id")?,
                server_id: row.get("server_id")?,
                event_id: row.get("event_id")?,
                url: row.get("url")?,
                payload: row.get("payload")?,
                attempts: row.get("attempts")?,
            })
        },
    )?;
    Ok(rows)
}

/// Puts `server_id`'s pending deliveries to `url` that are due before
/// `until` off to `until`, without an attempt, `why` as their last error
/// (the endpoint's circuit breaker is open). Along the due index, as
/// [`due_to`]: the pending ones only.
pub fn postpone(
    tx: &Tx<'_>,
    server_id: &str,
    url: &str,
    until: i64,
    why: &str,
) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE webhook_deliveries INDEXED BY webhook_deliveries_due
         SET next_attempt_at = ?3, last_error = ?4
         WHERE server_id = ?1 AND url = ?2 AND state = 'pending' AND next_attempt_at < ?3",
        )?
        .execute(params![server_id, url, until, why])?;
    Ok(())
}

/// One attempt's result, as recorded.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// When it was made.
    pub at: i64,
    /// The HTTP status, if any.
    pub status: Option<u16>,
    /// What went wrong, if anything.
    pub error: Option<String>,
    /// How long it took.
    pub duration_ms: u64,
    /// The delivery's state afterwards.
    pub state: DeliveryState,
    /// The next attempt, while pending.
    pub next_attempt_at: Option<i64>,
}

/// One attempt to record: the delivery, the attempt's number, its outcome.
pub type Recorded = (i64, u32, Outcome);

/// Records `attempts` and each delivery's new state, in two statements at
/// most whatever their number: the writer is shared with every action. Each
/// attempt is kept on its delivery's row; the one it replaces, if any, moves
/// to the history first, so a delivery accepted at the first try costs one
/// row update and no history row.
pub fn record_attempts(tx: &Tx<'_>, attempts: &[Recorded]) -> Result<(), StoreError> {
    if attempts.is_empty() {
        return Ok(());
    }
    // [id, attempt, state, next_attempt_at, status, error, at, duration_ms]
    let rows: Vec<serde_json::Value> = attempts
        .iter()
        .map(|(id, number, o)| {
            serde_json::json!([
                id,
                number,
                o.state.as_str(),
                o.next_attempt_at,
                o.status,
                o.error,
                o.at,
                i64::try_from(o.duration_ms).unwrap_or(i64::MAX),
            ])
        })
        .collect();
    let rows = serde_json::Value::Array(rows).to_string();
    if attempts.iter().any(|(_, number, _)| *number > 1) {
        tx.sql.prepare(
            "INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms)
             SELECT d.id, d.attempts, d.attempt_at, d.attempt_status, d.attempt_error, d.attempt_ms
             FROM json_each(?1) j JOIN webhook_deliveries d ON d.id = j.value ->> 0
             WHERE d.attempt_at IS NOT NULL",
        )?
        .execute([&rows])?;
    }
    tx.sql
        .prepare(
            "UPDATE webhook_deliveries AS d SET attempts = j.value ->> 1, state = j.value ->> 2,
             next_attempt_at = j.value ->> 3, last_status = j.value ->> 4,
             last_error = j.value ->> 5, attempt_at = j.value ->> 6,
             attempt_status = j.value ->> 4, attempt_error = j.value ->> 5,
             attempt_ms = j.value ->> 7
         FROM json_each(?1) AS j
         WHERE d.id = j.value ->> 0",
        )?
        .execute([&rows])?;
    Ok(())
}

/// Drops pending delivery `id` without an attempt: `disabled`, with `reason`
/// as its last error.
pub fn abandon(tx: &Tx<'_>, id: i64, reason: &str) -> Result<(), StoreError> {
    tx.sql.prepare(
        "UPDATE webhook_deliveries SET state = 'disabled', next_attempt_at = NULL, last_error = ?2
         WHERE id = ?1 AND state = 'pending'",
    )?
    .execute(params![id, reason])?;
    Ok(())
}

/// Points `server_id`'s pending deliveries at `url`, its endpoint now: a
/// delivery's `url` is where its next attempt goes (and, once it is made,
/// where its last one went).
pub fn follow_url(tx: &Tx<'_>, server_id: &str, url: &str) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE webhook_deliveries SET url = ?2 WHERE server_id = ?1 AND state = 'pending'",
        )?
        .execute(params![server_id, url])?;
    Ok(())
}

/// Puts delivery `id` of `server_id` back in the queue, due at `now`, for one
/// more round of attempts, to `url`, the server's endpoint as it is now (the
/// URL it was first sent to may be the reason it failed). `false` when there
/// is no such delivery.
pub fn redeliver(
    tx: &Tx<'_>,
    server_id: &str,
    id: i64,
    url: Option<&str>,
    now: i64,
) -> Result<bool, StoreError> {
    // With webhooks off (or no URL) the delivery keeps its URL: the run
    // that picks it up abandons it, saying they are off.
    let changed = tx
        .sql
        .prepare(
            "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?3,
                 url = COALESCE(?4, url)
             WHERE server_id = ?1 AND id = ?2",
        )?
        .execute(params![server_id, id, now, url])?;
    Ok(changed > 0)
}

/// How long an endpoint may fail every delivery before its webhooks are
/// turned off, in seconds: 5 days.
pub const FAILING_LIMIT: i64 = 5 * 86_400;

/// When the current run of failures of `url` (a server's endpoint) began:
/// the first attempt after its last success, or its first attempt if none
/// ever succeeded. `None` when the last attempt succeeded or none was made.
pub fn failing_since(tx: &Tx<'_>, server_id: &str, url: &str) -> Result<Option<i64>, StoreError> {
    tx.sql.row(
        // Every attempt to the endpoint: the histories and the latest
        // attempts, kept on the deliveries.
        "WITH tried (at, status) AS (
                 SELECT a.at, a.status FROM webhook_attempts a
                 JOIN webhook_deliveries d ON d.id = a.delivery_id
                 WHERE d.server_id = ?1 AND d.url = ?2
                 UNION ALL
                 SELECT attempt_at, attempt_status FROM webhook_deliveries
                 WHERE server_id = ?1 AND url = ?2 AND attempt_at IS NOT NULL)
             SELECT MIN(at) FROM tried WHERE at > COALESCE(
                 (SELECT MAX(at) FROM tried WHERE status BETWEEN 200 AND 299), -1)",
        params![server_id, url],
        scalar,
    )
}

/// Marks `server_id`'s pending deliveries `disabled`, with `last_error`
/// where they have none: its webhooks were turned off
/// ([`crate::webhooks::disable`]).
pub fn disable_pending(tx: &Tx<'_>, server_id: &str, last_error: &str) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE webhook_deliveries SET state = 'disabled', next_attempt_at = NULL,
             last_error = COALESCE(last_error, ?2)
         WHERE server_id = ?1 AND state = 'pending'",
        )?
        .execute(params![server_id, last_error])?;
    Ok(())
}

/// `server_id`'s newest webhook delivery: its state and last error.
pub fn last_delivery(
    tx: &Tx<'_>,
    server_id: &str,
) -> Result<Option<(String, Option<String>)>, StoreError> {
    tx.sql.opt_row(
        "SELECT state, last_error FROM webhook_deliveries WHERE server_id = ?1 \
             ORDER BY id DESC LIMIT 1",
        [server_id],
        |row| Ok((row.get("state")?, row.get("last_error")?)),
    )
}

/// Deliveries waiting for an attempt, due or not (`GET /metrics`; the
/// partial index of pending deliveries answers it).
pub fn pending_count(tx: &Tx<'_>) -> Result<i64, StoreError> {
    tx.sql.row(
        "SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'pending'",
        [],
        scalar,
    )
}
