//! Which events are recorded: a server's webhooks subscribe to them and its
//! team's plan has webhooks. Every event is written in the transaction of
//! the change that causes it ([`crate::store::webhooks`], the outbox).

use modctl_types::config::WebhookEvent;
use modctl_types::live::LiveEventKind;
use modctl_types::moderation::{Case, JailRecord};
use modctl_types::webhooks::{Enqueued, JailChange, JailTransition};
use serde::Serialize;

use crate::plans;
use crate::store::live_events;
use crate::store::webhooks as outbox;
use crate::store::{StoreError, Tx};

/// The URL `server_id`'s events of `kind` go to, when its webhooks subscribe
/// to them ([`outbox::subscription`]) and its team's plan has webhooks: a
/// downgraded team whose section is still on records no new events.
pub fn wanted(
    tx: &Tx<'_>,
    server_id: &str,
    kind: WebhookEvent,
) -> Result<Option<String>, StoreError> {
    Ok(outbox::subscription(tx, server_id, kind)?
        .filter(|subscription| plans::of(subscription.plan).webhooks)
        .map(|subscription| subscription.url))
}

/// Writes an event of `kind` with `data` and its delivery, when it is
/// [`wanted`]; `None` when it is not.
pub fn enqueue(
    tx: &Tx<'_>,
    server_id: &str,
    kind: WebhookEvent,
    data: &impl Serialize,
    now: i64,
) -> Result<Option<Enqueued>, StoreError> {
    if let Some(live) = live_kind(kind) {
        live_events::append(tx, server_id, live, data, now)?;
    }
    match wanted(tx, server_id, kind)? {
        Some(url) => outbox::write(tx, server_id, kind, &url, data, now).map(Some),
        None => Ok(None),
    }
}

/// The live view's kind (issue #27) of the events [`enqueue`] writes that
/// the stream shows too, with the same `data`: not `test` (a webhooks
/// matter), and not the snapshot events nor `case_created`/`config_changed`
/// (written elsewhere: the case and config code append theirs).
fn live_kind(kind: WebhookEvent) -> Option<LiveEventKind> {
    match kind {
        WebhookEvent::JailChanged => Some(LiveEventKind::JailChanged),
        WebhookEvent::LockdownStarted => Some(LiveEventKind::LockdownStarted),
        WebhookEvent::LockdownEnded => Some(LiveEventKind::LockdownEnded),
        WebhookEvent::AntinukeTriggered => Some(LiveEventKind::AntinukeTriggered),
        WebhookEvent::CaseCorrected => Some(LiveEventKind::CaseCorrected),
        _ => None,
    }
}

/// `data` of a `test` event asked for by `requested_by`.
pub fn test_data(requested_by: &str) -> serde_json::Value {
    serde_json::json!({ "message": "a test event from modctl", "requested_by": requested_by })
}

/// Writes a `jail_changed` event, when wanted: `jail` `change`d because of
/// `case` (the jail, the unjail or the expiry case).
pub fn jail_changed(
    tx: &Tx<'_>,
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
