//! Turning a server's webhooks off when its endpoint is gone or has failed
//! for too long: a config change like any other, made by the daemon.

use crate::config::{self, ApplyError, Change, DISABLING_ACTOR};
use crate::store::secrets::Secrets;
use crate::store::webhooks as outbox;
use crate::store::{StoreError, Tx, config as stored};

/// Turns the server's webhooks off at `now` because of `reason` (its
/// endpoint answered 410 Gone, or failed every delivery for
/// [`outbox::FAILING_LIMIT`]): a config change (audited, new revision) by
/// [`DISABLING_ACTOR`] that sets `webhooks.disabled_reason`. Pending
/// deliveries become `disabled`.
pub fn disable(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
    reason: String,
    now: i64,
) -> Result<(), StoreError> {
    let mut sections = stored::load(tx, server_id)?.sections;
    if !sections.webhooks.enabled {
        return Ok(());
    }
    sections.webhooks.enabled = false;
    let last_error = format!("webhooks were turned off: {reason}");
    sections.webhooks.disabled_reason = Some(reason);
    config::apply(
        tx,
        secrets,
        Change::by(server_id, DISABLING_ACTOR, sections, now),
    )
    .map_err(|e| match e {
        ApplyError::Store(e) => e,
        // Neither can happen to this change: it names no revision, and
        // `DISABLING_ACTOR`'s changes pass every plan (`config::apply`).
        e @ (ApplyError::Stale(_) | ApplyError::Plan(_)) => {
            unreachable!("turning webhooks off was refused: {e}")
        }
    })?;
    outbox::disable_pending(tx, server_id, &last_error)
}
