//! A Discord gateway session for one bot token, shared by every guild
//! connected with that token.
//!
//! The session asks the REST API where the gateway is (`GET /gateway/bot`,
//! as a bot does; a connection's `api_base` thus also points the gateway at a
//! local one in tests) and how many shards Discord wants, then runs one
//! twilight-gateway [`Shard`] per shard. twilight does the protocol:
//! HELLO, IDENTIFY with the intents below, heartbeats (and a reconnect when
//! they go unanswered), RESUME at READY's `resume_gateway_url` after a
//! reconnect request (op 7) or a dropped connection, re-IDENTIFY when the
//! session cannot be resumed. This module hands each dispatch to the decoder
//! ([`crate::events::decode::discord`]) and publishes the events of the
//! session's guilds.
//!
//! Intents: GUILDS (`GUILD_CREATE` with who is in voice), GUILD_MEMBERS
//! (joins and leaves; privileged, enable it for the bot), GUILD_MESSAGES
//! (message events), GUILD_VOICE_STATES, AUTO_MODERATION_EXECUTION (what
//! the native AutoMod rules did, for automod's hits and cases), and
//! MESSAGE_CONTENT only when the application's flags grant it (`GET
//! /applications/@me`: GATEWAY_MESSAGE_CONTENT or _LIMITED): a session
//! asking for a privileged intent it lacks is closed by Discord with 4014
//! "Disallowed intent(s)" (discord-docs/gateway.mdx, "Privileged Intents"),
//! while without it the messages come with empty content and the filters
//! that read text (caps, duplicates, links) cannot run in the daemon;
//! native AutoMod needs none. The flags are read at each session start, so
//! granting the intent takes effect at the next reconnect.

use std::collections::BTreeSet;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::watch;
use tokio::task::JoinSet;
use twilight_gateway::{ConfigBuilder, Intents, Message, Shard, ShardId};

use super::{RETRY_AFTER_FAILURE, SessionContext, pause};
use crate::activity::voice;
use crate::events::decode::discord::decode_frame;
use crate::platform::Gateway;
use crate::platform::discord::Discord;
use crate::platform::receive::ApplicationFlags;
use crate::store::receivers;

/// How often the session records that it is listening (the bound on voice
/// time lost to a crash).
pub const ALIVE_EVERY: Duration = Duration::from_secs(60);

/// The intents the session identifies with, given the application's
/// `flags` (`None`: they could not be read, so the privileged content
/// intent is not risked).
pub fn intents(flags: Option<ApplicationFlags>) -> Intents {
    let base = Intents::GUILDS
        | Intents::GUILD_MEMBERS
        | Intents::GUILD_MESSAGES
        | Intents::GUILD_VOICE_STATES
        | Intents::AUTO_MODERATION_EXECUTION
        // GUILD_AUDIT_LOG_ENTRY_CREATE, for antinuke (gateway.mdx, "List of
        // Intents": GUILD_MODERATION; the bot also needs VIEW_AUDIT_LOG).
        | Intents::GUILD_MODERATION;
    if flags.is_some_and(content_granted) {
        base | Intents::MESSAGE_CONTENT
    } else {
        base
    }
}

/// Whether `flags` grant the message-content intent (the full flag, or the
/// one an application below 100 guilds gets).
pub fn content_granted(flags: ApplicationFlags) -> bool {
    flags.intersects(
        ApplicationFlags::GATEWAY_MESSAGE_CONTENT
            | ApplicationFlags::GATEWAY_MESSAGE_CONTENT_LIMITED,
    )
}

/// Runs the session until `stop` turns true, starting it again after a
/// failure (a refused token, an unreachable gateway).
pub async fn run(context: SessionContext, mut stop: watch::Receiver<bool>) {
    loop {
        match session(&context, &mut stop).await {
            Ok(()) => return,
            Err(error) => {
                context.status.retrying();
                tracing::warn!(%error, "Discord gateway session failed; starting it again in {}s", RETRY_AFTER_FAILURE.as_secs());
                if pause(RETRY_AFTER_FAILURE, &mut stop).await {
                    return;
                }
            }
        }
    }
}

/// One session: until `stop` (`Ok`) or a failure that needs a fresh start.
async fn session(context: &SessionContext, stop: &mut watch::Receiver<bool>) -> Result<(), String> {
    let discord = Discord::new(
        context.state.platforms.clone(),
        context.api_base.clone(),
        context.token.clone(),
        "",
    );
    let gateway = tokio::select! {
        gateway = discord.gateway() => gateway.map_err(|e| format!("cannot find the gateway: {e}"))?,
        _ = stop.changed() => return Ok(()),
    };
    if gateway.session_start_limit.remaining == 0 {
        let wait = Duration::from_millis(gateway.session_start_limit.reset_after);
        tracing::warn!(
            "the bot may start no more gateway sessions today; waiting {}s",
            wait.as_secs()
        );
        return if pause(wait, stop).await {
            Ok(())
        } else {
            Err("waited for the session start limit".to_owned())
        };
    }

    // What a stopped or crashed daemon left open is closed before the
    // guilds say who is in voice now.
    let mut servers = context.servers.clone();
    let mut known: BTreeSet<String> = servers.borrow_and_update().clone();
    close_left_open(context, known.iter().cloned()).await?;
    alive(context).await;

    let flags = tokio::select! {
        flags = discord.application_flags() => flags,
        _ = stop.changed() => return Ok(()),
    };
    let flags = match flags {
        Ok(flags) => Some(flags),
        Err(error) => {
            tracing::warn!(%error, "cannot read the application's flags: the session does not ask for message content");
            None
        }
    };
    let config = ConfigBuilder::new(context.token.clone(), intents(flags))
        .proxy_url(gateway.url.trim_end_matches('/').to_owned())
        .build();
    let total = gateway.shards.max(1);
    let mut shards = JoinSet::new();
    for number in 0..total {
        let shard = Shard::with_config(ShardId::new(number, total), config.clone());
        shards.spawn(run_shard(context.clone(), shard, stop.clone()));
    }
    context.status.running();
    let mut every =
        tokio::time::interval_at(tokio::time::Instant::now() + ALIVE_EVERY, ALIVE_EVERY);
    let ended = loop {
        tokio::select! {
            _ = every.tick() => alive(context).await,
            // A guild connected while the session runs: its GUILD_CREATE has
            // passed, so only what an earlier run left open is closed; its
            // members' next voice updates open sessions.
            Ok(()) = servers.changed() => {
                let now: BTreeSet<String> = servers.borrow_and_update().clone();
                let added: Vec<String> = now.difference(&known).cloned().collect();
                known = now;
                if let Err(error) = close_left_open(context, added).await {
                    break Err(error);
                }
            }
            ended = shards.join_next() => match ended {
                Some(Ok(Ok(()))) | None => break Ok(()),
                Some(Ok(Err(error))) => break Err(error),
                Some(Err(join)) => break Err(format!("a shard task failed: {join}")),
            },
        }
    };
    // Stopping (or one shard failed): every shard ends, and the time of the
    // end is recorded for the voice sessions still open.
    shards.shutdown().await;
    alive(context).await;
    ended
}

/// Closes the voice sessions left open in `guilds` and counts them. The
/// session's own gap, not a platform event: only the session knows it was
/// away, so it counts this voice time itself, before its guilds'
/// `GUILD_CREATE` reach the activity counts.
async fn close_left_open(
    context: &SessionContext,
    guilds: impl IntoIterator<Item = String>,
) -> Result<(), String> {
    for guild in guilds {
        let left_open = voice::close_left_open(&context.state.store, guild)
            .await
            .map_err(|e| e.to_string())?;
        for event in left_open {
            context.state.activity.record(event);
        }
    }
    Ok(())
}

/// Records that the session is listening now.
async fn alive(context: &SessionContext) {
    let servers = context.servers();
    let now = context.state.clock.now_unix();
    if let Err(e) = context
        .state
        .store
        .write(move |tx| receivers::set_alive(tx, &servers, now))
        .await
    {
        tracing::warn!(error = %e, "cannot record that the gateway session is listening");
    }
}

/// Reads one shard's messages until `stop`; an error only when the gateway
/// closed the session for good (a refused token, intents not allowed).
async fn run_shard(
    context: SessionContext,
    mut shard: Shard,
    mut stop: watch::Receiver<bool>,
) -> Result<(), String> {
    loop {
        let next = tokio::select! {
            next = shard.next() => next,
            _ = stop.changed() => return Ok(()),
        };
        match next {
            None => {
                return Err(
                    "the gateway closed the session for good: check the bot token and that the \
                     GUILD_MEMBERS intent is enabled for the bot"
                        .to_owned(),
                );
            }
            // twilight reconnects by itself after these.
            Some(Err(error)) => tracing::warn!(%error, "Discord gateway error"),
            Some(Ok(Message::Close(frame))) => {
                tracing::debug!(?frame, "Discord gateway connection closed; reconnecting");
            }
            Some(Ok(Message::Text(json))) => {
                // twilight has read READY (or RESUMED) before it hands a
                // dispatch on, so its session is the one it came in.
                handle(&context, &json, shard.session().map(|s| s.id()));
            }
        }
    }
}

/// Decodes one gateway message, received in session `session`, and
/// publishes what it says about the session's guilds.
fn handle(context: &SessionContext, json: &str, session: Option<&str>) {
    match decode_frame(json, context.state.clock.now(), session) {
        Ok(Some((_, events))) => {
            for event in events {
                context.publish(event);
            }
        }
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(%error, "a Discord gateway message the daemon cannot read; skipped");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MESSAGE_CONTENT is asked for only when a flag grants it.
    #[test]
    fn message_content_is_asked_only_when_granted() {
        let cases = [
            (None, false),
            (Some(ApplicationFlags::empty()), false),
            (Some(ApplicationFlags::GATEWAY_GUILD_MEMBERS), false),
            (Some(ApplicationFlags::GATEWAY_MESSAGE_CONTENT), true),
            (
                Some(ApplicationFlags::GATEWAY_MESSAGE_CONTENT_LIMITED),
                true,
            ),
        ];
        for (flags, asked) in cases {
            let intents = intents(flags);
            assert_eq!(
                intents.contains(Intents::MESSAGE_CONTENT),
                asked,
                "{flags:?}"
            );
            assert!(intents.contains(
                Intents::GUILD_MESSAGES | Intents::GUILD_MEMBERS | Intents::GUILD_MODERATION
            ));
        }
    }
}
