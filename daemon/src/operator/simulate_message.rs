//! `modctld simulate message SERVER USER "text"`: a member of a simulated
//! server says something, and automod acts on it (issue #25).
//!
//! # How it reaches the daemon
//!
//! It does not: an operator command is a process of its own, and a running
//! daemon has no way in for a member's message but the platforms'. Instead
//! the command does what the daemon does with such a message, with the
//! daemon's own code on the same database: the message is written to the
//! simulated community (`sim_messages`, where the simulator's deletes find
//! it), and the event the simulator stands for is handed to automod's
//! consumer ([`crate::automation::automod::act`]) in this process, which
//! reads the config, runs the filters, deletes, records the hit and makes
//! the case like the daemon would. A running daemon sees the result in
//! `GET /automod/hits` and `GET /cases` at once, and its log delivery
//! worker, which reads the outbox every second, posts the log entries this
//! process wrote (`modctld simulate posts` shows them). What differs: the
//! `duplicates` filter's history of a member's recent messages is in the
//! memory of each process, so messages repeated by several commands are not
//! duplicates; and mention spam counts only what the text writes as the
//! platform does (`<@id>`, `@everyone`, `<!here>`, `@username`).

use anyhow::Context as _;
use modctl_types::Platform;
use modctl_types::automod::{AutomodHitRecord, HitQuery};

use super::print_rows;
use crate::AppState;
use crate::automation::automod::count_mentions;
use crate::events::{self, Consumer, Event, EventKind};
use crate::store::connections::{self, ConnectionMode};
use crate::store::{Store, StoreError, automod_hits, servers, simulator as sim};

/// Says `text` as `user` in `channel` (or the server's first text channel)
/// of simulated server `server_id`, and acts on it as the daemon would;
/// prints the hits it made (none: nothing caught it).
pub(super) async fn message(
    store: Store,
    server_id: String,
    user: String,
    text: String,
    channel: Option<String>,
) -> anyhow::Result<()> {
    let (message_id, channel) = say_and_act(&store, &server_id, &user, &text, channel).await?;

    let (id, message) = (server_id.clone(), message_id.clone());
    let hits: Vec<AutomodHitRecord> = store
        .read(move |tx| {
            let query = HitQuery::default();
            let filter = automod_hits::Filter {
                user_id: Some(&user),
                ..automod_hits::Filter::default()
            };
            let page = query.page_size().unwrap_or(50);
            Ok::<_, StoreError>(
                automod_hits::list(tx, &id, &filter, page)?
                    .into_iter()
                    .filter(|h| h.message_id == message)
                    .collect(),
            )
        })
        .await
        .context("reading the hits back")?;
    if hits.is_empty() {
        eprintln!(
            "message {message_id} posted in {channel}: no automod filter caught it \
             (see `modctl automod test {server_id} \"...\"` for why)"
        );
        return Ok(());
    }
    print_rows(
        &[
            "HIT", "FILTER", "MATCHED", "ACTION", "OUTCOME", "DELETED", "CASE",
        ],
        hits.iter().map(|h| {
            vec![
                h.id.to_string(),
                h.filter.to_string(),
                h.matched.clone(),
                serde_json::to_value(h.action)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                h.outcome.as_str().to_owned(),
                match h.deleted {
                    Some(true) => "yes".to_owned(),
                    Some(false) => format!("no: {}", h.delete_detail.as_deref().unwrap_or("")),
                    None => String::new(),
                },
                h.case_id.map(|c| c.to_string()).unwrap_or_default(),
            ]
        }),
    );
    eprintln!(
        "message {message_id} posted in {channel} and caught; see `modctl automod hits {server_id}`"
    );
    Ok(())
}

/// Says `text` as `user` in `channel` (or the server's first text channel)
/// of simulated server `server_id` and runs automod on it in this process,
/// as the daemon would, on `store` (what it writes, log entries included, a
/// running daemon on the same database sees); answers the message's id and
/// channel.
pub async fn say_and_act(
    store: &Store,
    server_id: &str,
    user: &str,
    text: &str,
    channel: Option<String>,
) -> anyhow::Result<(String, String)> {
    let state = AppState::new(store.clone());
    let event = speak(store, state.clock.now(), server_id, user, text, channel).await?;
    let said = match &event.kind {
        EventKind::MessageCreated(m) => (m.id.clone(), m.channel_id.clone()),
        _ => unreachable!("speak makes a message"),
    };
    // The server's own invites, as the daemon learns them at start (the
    // simulator's answer, no network): spared as they would be there. This
    // server's alone: the others, live ones among them, are the daemon's
    // to ask, within its rate limits.
    crate::automation::invites::learn(&state.own_invites(), server_id).await?;
    state.automod_acting().handle(event).await;
    // The acting runs in a tracked task, as in the daemon: wait for it.
    state.in_flight.close();
    state.in_flight.wait().await;
    Ok(said)
}

/// Writes `text` as `user`'s message in `channel` (or the server's first
/// text channel) of simulated server `server_id` at `now`, and answers the
/// event the simulator stands for (what a gateway would hand over): for
/// `simulate message` and the demo's trickle.
pub async fn speak(
    store: &Store,
    now: modctl_types::Timestamp,
    server_id: &str,
    user: &str,
    text: &str,
    channel: Option<String>,
) -> anyhow::Result<Event> {
    if text.trim().is_empty() {
        anyhow::bail!("the message is empty: give its text in quotes");
    }
    let (id, secrets) = (server_id.to_owned(), store.secrets().clone());
    let (member, said) = (user.to_owned(), text.to_owned());
    let written = store
        .write(move |tx| {
            let record = servers::find(tx, &id)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "server `{id}` is not claimed: claim it with `modctld server claim`"
                ))
            })?;
            let platform = record.server.platform;
            if !matches!(
                connections::get(tx, &secrets, &id)?.map(|c| c.mode),
                Some(ConnectionMode::Simulated)
            ) {
                return Err(StoreError::Invalid(format!(
                    "server {id} is not connected to the simulator: simulate message only speaks \
                     in simulated servers (`modctld server connect {id} --simulated`)"
                )));
            }
            let channel = match channel {
                Some(channel)
                    if sim::channel_exists(tx, &id, &channel)?
                        || (platform == Platform::Telegram && channel == id) =>
                {
                    channel
                }
                Some(channel) => {
                    return Err(StoreError::NotFound(format!(
                        "channel {channel} is not in simulated server {id}"
                    )));
                }
                None => first_text_channel(tx, &id, platform)?,
            };
            let roles = sim::member_roles(tx, &id, &member)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "user {member} is not a member of simulated server {id}"
                ))
            })?;
            let message_id = sim::insert_message(tx, &id, &channel, &said, now.as_second())?;
            Ok((platform, channel, roles, message_id))
        })
        .await?;
    let (platform, channel, roles, message_id) = written;
    let (mentions, everyone) = count_mentions(platform, text);
    let message = events::Message {
        id: message_id.to_string(),
        channel_id: channel,
        author: events::Author {
            id: user.to_owned(),
            role_ids: roles,
            ..events::Author::default()
        },
        content: Some(text.to_owned()),
        mentions: events::Mentions {
            // The engine counts them; who they are does not matter to it.
            user_ids: vec![String::new(); mentions as usize],
            everyone,
            ..events::Mentions::default()
        },
        ..events::Message::default()
    };
    Ok(Event {
        platform,
        server_id: server_id.into(),
        at: now,
        id: Some(format!("sim:{message_id}")),
        kind: EventKind::MessageCreated(message),
    })
}

/// The channel a member's message goes to when none is named: the
/// community's `general` text channel, else its first text channel (Discord
/// type 0; every channel elsewhere); a Telegram group is its own channel.
fn first_text_channel(
    tx: &crate::store::Tx<'_>,
    server_id: &str,
    platform: Platform,
) -> Result<String, StoreError> {
    if platform == Platform::Telegram {
        return Ok(server_id.to_owned());
    }
    let text: Vec<_> = sim::channels(tx, server_id)?
        .into_iter()
        .filter(|c| platform != Platform::Discord || c.kind == 0)
        .collect();
    text.iter()
        .find(|c| c.name == "general")
        .or(text.first())
        .map(|c| c.id.clone())
        .ok_or_else(|| {
            StoreError::NotFound(format!(
                "simulated server {server_id} has no text channel to speak in"
            ))
        })
}
