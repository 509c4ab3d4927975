//! Telegram `getUpdates` long polling for one bot token, shared by every
//! group connected with that token (Telegram has one update queue per bot).
//!
//! The poller asks for the updates after its offset and waits up to
//! [`POLL_SECS`] for them; each update is decoded
//! ([`crate::events::decode::telegram`]) and its events published for its
//! group if the group is connected, then the next offset (the last
//! `update_id` plus one) is stored for every group of the bot before the
//! next poll. Telegram drops what an offset confirms, and a restarted daemon
//! starts at the stored offset, so a restart neither loses nor publishes
//! twice what it polled (what the consumers had not handled or written when
//! the daemon crashed is lost, as for every pushed event; see
//! [`crate::activity`]).
//!
//! A bot in webhook mode gets no poller ([`super::reconcile`]); a poller
//! removes a webhook left from earlier first, since `getUpdates` does not
//! work while one is set.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use modctl_types::Platform;

use tokio::sync::watch;

use super::{RETRY_AFTER_FAILURE, SessionContext, pause};
use crate::AppState;
use crate::events::Event;
use crate::events::decode::telegram::{Migration, Update, decode, update_id};
use crate::platform::Updates;
use crate::platform::telegram::Telegram;
use crate::store::StoreError;
use crate::store::connections;
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
        match polled {
            Ok(_) => context.status.running(),
            Err(_) => context.status.retrying(),
        }
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

/// One `getUpdates` call: publishes what it brings and stores the next offset;
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
    let servers = context.servers();
    let mut groups = context
        .state
        .store
        .read(move |tx| receivers::telegram_chats(tx, &servers))
        .await
        .map_err(|e| e.to_string())?;
    for raw in updates {
        let raw = raw.get().as_bytes();
        if let Some(id) = update_id(raw) {
            next = next.max(id + 1);
        }
        match decode(raw) {
            Ok(update) => {
                let routed = route(&context.state, &mut groups, update)
                    .await
                    .map_err(|e| e.to_string())?;
                for event in routed.into_values().flatten() {
                    context.publish(event);
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
/// (one bot, one update queue or webhook, whichever group `of` is), by
/// server id and by the chat id of a group upgraded to a supergroup.
pub fn groups_of_bot(live: &[LiveConnection], of: &LiveConnection) -> BTreeMap<String, String> {
    live.iter()
        .filter(|c| {
            c.platform == Platform::Telegram && c.token == of.token && c.api_base == of.api_base
        })
        .flat_map(|c| {
            [
                (c.server_id.clone(), c.server_id.clone()),
                (c.chat_id.clone(), c.server_id.clone()),
            ]
        })
        .collect()
}

/// Routes one update of a bot to its groups (`groups`: chat id → server id,
/// [`groups_of_bot`] or [`receivers::telegram_chats`]): each event goes to
/// the server of the chat it names, and is dropped when the chat is none of
/// the bot's connected groups. A group's upgrade to a supergroup is followed
/// first: its server records the new chat id (platform calls go there; the
/// server keeps its id and history), and the supergroup's updates are its
/// events from then on.
pub async fn route(
    state: &AppState,
    groups: &mut BTreeMap<String, String>,
    update: Update,
) -> Result<BTreeMap<String, Vec<Event>>, StoreError> {
    if let Some(Migration { from, to }) = update.migration {
        let known = groups.get(&from.to_string()).cloned();
        if let Some(server) = known {
            let new_chat = to.to_string();
            if groups.get(&new_chat) != Some(&server) {
                let (id, chat) = (server.clone(), new_chat.clone());
                state
                    .store
                    .write(move |tx| connections::set_telegram_chat_id(tx, &id, Some(&chat)))
                    .await?;
                tracing::info!(server = %server, chat = %new_chat, "the Telegram group was upgraded to a supergroup; following its new chat id");
                // The checklist's answer was about the old group.
                state.onboarding.forget(&server);
                groups.insert(new_chat, server);
            }
        }
    }
    let mut by_server: BTreeMap<String, Vec<Event>> = BTreeMap::new();
    for event in update.events {
        if let Some(server) = groups.get(&*event.server_id) {
            let event = event.for_server(server.as_str().into());
            by_server.entry(server.clone()).or_default().push(event);
        }
    }
    Ok(by_server)
}
