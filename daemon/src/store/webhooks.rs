//! The webhook outbox (issue #11): events, their deliveries and every attempt.
//!
//! [`enqueue`] runs inside the transaction of the change that causes the
//! event (a settled case, a jail that starts or ends, a config change, a
//! captured snapshot, a finished restore, a test request): the event commits or rolls back
//! with it, so nothing is sent for a change that did not happen and nothing
//! is lost when the daemon dies after the commit. The delivery worker
//! ([`crate::webhooks`]) reads what is [`due`] and records each attempt.

use modctl_types::config::{WebhookEvent, Webhooks};
use modctl_types::moderation::{Case, JailRecord};
use modctl_types::webhooks::{
    Attempt, Delivery, DeliveryDetail, DeliveryState, Enqueued, JailChange, JailTransition,
};
use rusqlite::{OptionalExtension, Row, Transaction, params};
use serde::Serialize;

use super::secrets::Secrets;
use super::{StoreError, config, timestamp};

/// Length of the random part of an event id (`evt_` + this many characters).
const EVENT_ID_LEN: usize = 24;

/// The server's webhook URL when events of `kind` are delivered to it:
/// enabled, with a URL, and subscribed to `kind` (an empty list means every
/// kind), with a signing secret stored, and the team's plan has webhooks (a
/// downgraded team whose section is still on records no new events). A test
/// event needs no subscription: it is asked for explicitly.
pub fn subscribed(
    tx: &Transaction<'_>,
    server_id: &str,
    kind: WebhookEvent,
) -> Result<Option<String>, StoreError> {
    // One row of the section table, not the whole config: this runs in every
    // settling transaction.
    let json: Option<String> = tx
        .prepare_cached(
            "SELECT value FROM config_sections WHERE server_id = ?1 AND section = 'webhooks'",
        )?
        .query_row([server_id], |row| row.get(0))
        .optional()?;
    let Some(json) = json else {
        return Ok(None);
    };
    let section: Webhooks = serde_json::from_str(&json)
        .map_err(|e| StoreError::Corrupt(format!("webhooks section of server {server_id}: {e}")))?;
    let wanted =
        kind == WebhookEvent::Test || section.events.is_empty() || section.events.contains(&kind);
    let Some(url) = section.url.clone().filter(|_| section.enabled && wanted) else {
        return Ok(None);
    };
    if !crate::plans::of(super::teams::of_server(tx, server_id)?.plan).webhooks {
        return Ok(None);
    }
    // Unsigned events are never sent: without a secret there is no event.
    let secret_set: bool = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM webhook_secrets WHERE server_id = ?1)")?
        .query_row([server_id], |row| row.get(0))?;
    Ok(secret_set.then_some(url))
}

/// Writes an event of `kind` with `data` and its delivery, when the server's
/// webhooks want it (see [`subscribed`]); `None` when they do not.
pub fn enqueue(
    tx: &Transaction<'_>,
    server_id: &str,
    kind: WebhookEvent,
    data: &impl Serialize,
    now: i64,
) -> Result<Option<Enqueued>, StoreError> {
    match subscribed(tx, server_id, kind)? {
        Some(url) => write(tx, server_id, kind, &url, data, now).map(Some),
        None => Ok(None),
    }
}

/// `data` of a `test` event asked for by `requested_by`.
pub fn test_data(requested_by: &str) -> serde_json::Value {
    serde_json::json!({ "message": "a test event from modctl", "requested_by": requested_by })
}

/// Writes a `jail_changed` event, when wanted: `jail` `change`d because of
/// `case` (the jail, the unjail or the expiry case).
pub fn jail_changed(
    tx: &Transaction<'_>,
    server_id: &str,
    change: JailTransition,
    case: &Case,
    jail: JailRecord,
    now: i64,
) -> Result<(), StoreError> {
    let data = JailChange {
        change,
        case_id: case.id,
        source: case.source,
        reason: case.reason.clone(),
        jail,
    };
    enqueue(tx, server_id, WebhookEvent::JailChanged, &data, now)?;
    Ok(())
}

/// Writes an event of `kind` with `data` and its delivery to `url`, which
/// [`subscribed`] returned in the same transaction.
pub fn write(
    tx: &Transaction<'_>,
    server_id: &str,
    kind: WebhookEvent,
    url: &str,
    data: &impl Serialize,
    now: i64,
) -> Result<Enqueued, StoreError> {
    let id = format!(
        "evt_{}",
        crate::api_key::random_string(crate::api_key::SECRET_ALPHABET, EVENT_ID_LEN)
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
    tx.prepare_cached(
        "INSERT INTO webhook_events (id, server_id, kind, created_at, payload)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, server_id, kind.as_str(), now, payload])?;
    tx.prepare_cached(
        "INSERT INTO webhook_deliveries (event_id, server_id, kind, url, state, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?5)",
    )?
    .execute(params![id, server_id, kind.as_str(), url, now])?;
    Ok(Enqueued {
        event_id: id,
        delivery_id: tx.last_insert_rowid(),
    })
}

const DELIVERY_COLUMNS: &str = "id, event_id, kind, url, state, attempts, last_status, last_error,
    next_attempt_at, created_at";

fn delivery_from_row(row: &Row<'_>) -> rusqlite::Result<Delivery> {
    let parse_err = |i: usize, e: String| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e.into())
    };
    let kind: String = row.get(2)?;
    let state: String = row.get(4)?;
    Ok(Delivery {
        id: row.get(0)?,
        event_id: row.get(1)?,
        kind: kind.parse().map_err(|e| parse_err(2, e))?,
        url: row.get(3)?,
        state: state.parse().map_err(|e| parse_err(4, e))?,
        attempts: row.get(5)?,
        last_status: row.get(6)?,
        last_error: row.get(7)?,
        next_attempt_at: row.get::<_, Option<i64>>(8)?.map(timestamp),
        created_at: timestamp(row.get(9)?),
    })
}

/// A server's deliveries newest first, older than `before`, optionally of one
/// state and kind.
pub fn list(
    tx: &Transaction<'_>,
    server_id: &str,
    state: Option<DeliveryState>,
    kind: Option<WebhookEvent>,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<Delivery>, StoreError> {
    let rows = tx
        .prepare_cached(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries
             WHERE server_id = ?1 AND id < ?2 AND (?3 IS NULL OR state = ?3) AND (?4 IS NULL OR kind = ?4)
             ORDER BY id DESC"
        ))?
        .query_map(
            params![
                server_id,
                before.unwrap_or(i64::MAX),
                state.map(DeliveryState::as_str),
                kind.map(WebhookEvent::as_str),
            ],
            delivery_from_row,
        )?
        .take(limit as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Delivery `id` of `server_id` with its attempts; `None` also when it
/// belongs to another server.
pub fn get(
    tx: &Transaction<'_>,
    server_id: &str,
    id: i64,
) -> Result<Option<DeliveryDetail>, StoreError> {
    let Some(delivery) = tx
        .prepare_cached(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE server_id = ?1 AND id = ?2"
        ))?
        .query_row(params![server_id, id], delivery_from_row)
        .optional()?
    else {
        return Ok(None);
    };
    let history = tx
        .prepare_cached(
            "SELECT attempt, at, status, error, duration_ms FROM webhook_attempts
             WHERE delivery_id = ?1 ORDER BY attempt",
        )?
        .query_map([id], |row| {
            Ok(Attempt {
                attempt: row.get(0)?,
                at: timestamp(row.get(1)?),
                status: row.get(2)?,
                error: row.get(3)?,
                duration_ms: row.get::<_, i64>(4)?.try_into().unwrap_or(0),
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
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

/// Pending deliveries whose next attempt is due at `now`, oldest first.
pub fn due(tx: &Transaction<'_>, now: i64, limit: u32) -> Result<Vec<Due>, StoreError> {
    let rows = tx
        .prepare_cached(
            "SELECT d.id, d.server_id, d.event_id, d.url, e.payload, d.attempts
             FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
             WHERE d.state = 'pending' AND d.next_attempt_at <= ?1
             ORDER BY d.next_attempt_at, d.id",
        )?
        .query_map([now], |row| {
            Ok(Due {
                id: row.get(0)?,
                server_id: row.get(1)?,
                event_id: row.get(2)?,
                url: row.get(3)?,
                payload: row.get(4)?,
                attempts: row.get(5)?,
            })
        })?
        .take(limit as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
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

/// Records attempt number `attempt` of delivery `id` and the delivery's new
/// state, in one transaction. A 410 also turns the server's webhooks off
/// (see [`disable`]).
pub fn record_attempt(
    tx: &Transaction<'_>,
    id: i64,
    attempt: u32,
    outcome: &Outcome,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        id,
        attempt,
        outcome.at,
        outcome.status,
        outcome.error,
        i64::try_from(outcome.duration_ms).unwrap_or(i64::MAX),
    ])?;
    tx.prepare_cached(
        "UPDATE webhook_deliveries SET attempts = ?2, state = ?3, next_attempt_at = ?4,
             last_status = ?5, last_error = ?6
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        attempt,
        outcome.state.as_str(),
        outcome.next_attempt_at,
        outcome.status,
        outcome.error,
    ])?;
    Ok(())
}

/// Drops pending delivery `id` without an attempt: `disabled`, with `reason`
/// as its last error.
pub fn abandon(tx: &Transaction<'_>, id: i64, reason: &str) -> Result<(), StoreError> {
    tx.prepare_cached(
        "UPDATE webhook_deliveries SET state = 'disabled', next_attempt_at = NULL, last_error = ?2
         WHERE id = ?1 AND state = 'pending'",
    )?
    .execute(params![id, reason])?;
    Ok(())
}

/// Puts delivery `id` of `server_id` back in the queue, due at `now`, for one
/// more round of attempts. `false` when there is no such delivery.
pub fn redeliver(
    tx: &Transaction<'_>,
    server_id: &str,
    id: i64,
    now: i64,
) -> Result<bool, StoreError> {
    let changed = tx
        .prepare_cached(
            "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?3
             WHERE server_id = ?1 AND id = ?2",
        )?
        .execute(params![server_id, id, now])?;
    Ok(changed > 0)
}

/// How long an endpoint may fail every delivery before its webhooks are
/// turned off, in seconds: 5 days.
pub const FAILING_LIMIT: i64 = 5 * 86_400;

/// When the current run of failures of `url` (a server's endpoint) began:
/// the first attempt after its last success, or its first attempt if none
/// ever succeeded. `None` when the last attempt succeeded or none was made.
pub fn failing_since(
    tx: &Transaction<'_>,
    server_id: &str,
    url: &str,
) -> Result<Option<i64>, StoreError> {
    Ok(tx
        .prepare_cached(
            "SELECT MIN(a.at) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
             WHERE d.server_id = ?1 AND d.url = ?2 AND a.at > COALESCE(
                 (SELECT MAX(s.at) FROM webhook_attempts s JOIN webhook_deliveries sd ON sd.id = s.delivery_id
                  WHERE sd.server_id = ?1 AND sd.url = ?2 AND s.status BETWEEN 200 AND 299), -1)",
        )?
        .query_row(params![server_id, url], |row| row.get(0))?)
}

/// Turns the server's webhooks off at `now` because of `reason` (its
/// endpoint answered 410 Gone, or failed every delivery for
/// [`FAILING_LIMIT`]): a config change (audited, new revision) by
/// [`config::DISABLING_ACTOR`] that sets `webhooks.disabled_reason`. Pending
/// deliveries become `disabled`.
pub fn disable(
    tx: &Transaction<'_>,
    secrets: &Secrets,
    server_id: &str,
    reason: String,
    now: i64,
) -> Result<(), StoreError> {
    let mut sections = config::load(tx, server_id)?.sections;
    if !sections.webhooks.enabled {
        return Ok(());
    }
    sections.webhooks.enabled = false;
    let last_error = format!("webhooks were turned off: {reason}");
    sections.webhooks.disabled_reason = Some(reason);
    config::apply(
        tx,
        secrets,
        config::Change::by(server_id, config::DISABLING_ACTOR, sections, now),
    )?;
    tx.prepare_cached(
        "UPDATE webhook_deliveries SET state = 'disabled', next_attempt_at = NULL,
             last_error = COALESCE(last_error, ?2)
         WHERE server_id = ?1 AND state = 'pending'",
    )?
    .execute(params![server_id, last_error])?;
    Ok(())
}
