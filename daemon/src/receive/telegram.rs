//! Telegram `getUpdates` long polling for one bot token, shared by every
//! group connected with that token (Telegram has one update queue per bot).
//!
//! The poller asks for the updates after its offset and waits up to
//! [`POLL_SECS`] for them; each update is counted for its group if the group
//! is connected, then the next offset (the last `update_id` plus one) is
//! stored for every group of the bot before the next poll. Telegram drops
//! what an offset confirms, and a restarted daemon starts at the stored
//! offset, so a restart neither loses nor counts twice what it polled (what
//! the ingestion had not flushed when the daemon crashed is lost, as for
//! every pushed event; see [`crate::activity`]).
//!
//! A bot in webhook mode gets no poller ([`super::reconcile`]); a poller
//! removes a webhook left from earlier first, since `getUpdates` does not
//! work while one is set.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use modctl_types::Platform;

use tokio::sync::watch;

use super::{RETRY_AFTER_FAILURE, SessionContext, pause};
use crate::platform::EventSource;
use crate::platform::telegram::Telegram;
use crate::platform::telegram::updates::{decode, update_id};
use crate::store::StoreError;
use crate::store::receivers::{self, LiveConnection};

/// How long one `getUpdates` call waits for updates, in seconds.
pub const POLL_SECS: u32 = 25;

/// A poll answered empty sooner than this (a proxy or a fake that does not
/// hold the request) is followed by a pause of this length, so the poller
/// never spins.
const MIN_EMPTY_POLL: Duration = Duration::from_millis(250);

/// Runs the poller until `stop` turns true.
pub async fn run(context: SessionContext, mut stop: watch::Receiver<bool>) {
    let telegram = Telegram::new(
        context.state.platforms.clone(),
        context.api_base.clone(),
        context.token.clone(),
        "0",
    );
    let deleted = tokio::select! {
        deleted = telegram.delete_webhook() => deleted,
        _ = stop.changed() => return,
    };
    if let Err(error) = deleted {
        tracing::warn!(%error, "cannot remove the Telegram webhook; polling anyway");
    }
    let mut offset = None;
    loop {
        let started = Instant::now();
        let polled = tokio::select! {
            polled = poll(&context, &telegram, &mut offset) => polled,
            _ = stop.changed() => return,
        };
        let wait = match polled {
            Ok(0) if started.elapsed() < MIN_EMPTY_POLL => MIN_EMPTY_POLL,
            Ok(_) => Duration::ZERO,
            Err(error) => {
                tracing::warn!(%error, "Telegram getUpdates failed; trying again in {}s", RETRY_AFTER_FAILURE.as_secs());
                RETRY_AFTER_FAILURE
            }
        };
        if pause(wait, &mut stop).await {
            return;
        }
    }
}

/// One `getUpdates` call: counts what it brings and stores the next offset;
/// returns how many updates came. `offset` is read from the store on the
/// first call.
pub async fn poll(
    context: &SessionContext,
    telegram: &Telegram,
    offset: &mut Option<i64>,
) -> Result<usize, String> {
    let current = match *offset {
        Some(current) => current,
        None => {
            let servers = context.servers();
            context
                .state
                .store
                .read(move |tx| receivers::telegram_offset(tx, &servers))
                .await
                .map_err(|e: StoreError| e.to_string())?
        }
    };
    let updates = telegram
        .get_updates(current, POLL_SECS)
        .await
        .map_err(|e| e.to_string())?;
    let count = updates.len();
    let mut next = current;
    for raw in updates {
        if let Some(id) = update_id(&raw) {
            next = next.max(id + 1);
        }
        match decode(raw) {
            Ok(update) => {
                for event in update.events {
                    context.count(event);
                }
            }
            Err(error) => {
                tracing::warn!(%error, "a Telegram update the daemon cannot read; skipped")
            }
        }
    }
    if next != current {
        let servers = context.servers();
        context
            .state
            .store
            .write(move |tx| receivers::set_telegram_offset(tx, &servers, next))
            .await
            .map_err(|e| e.to_string())?;
    }
    *offset = Some(next);
    Ok(count)
}

/// The groups a Telegram bot serves, among the live connections: chat id →
/// server id, for every Telegram connection with `of`'s token and API base
/// (one bot, one update queue or webhook, whichever group `of` is).
pub fn groups_of_bot(live: &[LiveConnection], of: &LiveConnection) -> BTreeMap<String, String> {
    live.iter()
        .filter(|c| {
            c.platform == Platform::Telegram && c.token == of.token && c.api_base == of.api_base
        })
        .map(|c| (c.server_id.clone(), c.server_id.clone()))
        .collect()
}
