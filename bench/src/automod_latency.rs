//! The `automod-latency` scenario (issue #25): the time from a gateway
//! `MESSAGE_CREATE` reaching the daemon to its delete request reaching
//! Discord, while 10,000 other messages a second flow.
//!
//! `modctld serve` runs on a fresh database whose Discord guild is
//! connected to the shared fake Discord of the end-to-end tests, gateway
//! included (`modctl_e2e::fakes::discord::gateway`), with the
//! message-content intent granted by the application's flags and the
//! `automod` config of the `automod` scenario (500 blocked words, 200
//! allowed domains, all six filters, exemptions). Once the daemon's session
//! has identified, a driver thread has the fake gateway send clean
//! `MESSAGE_CREATE`s at [`Shape::background`] a second (written in batches
//! by the fake's websocket writer) and, spread evenly over the run,
//! [`Shape::caught_per_s`] messages a filter catches (blocked words, an
//! invite, a link outside the allow-list, capitals) from a few members, each
//! also seeded in the fake's channel so its delete finds it.
//!
//! For each caught message the fake records the instant its frame was
//! written to the socket and the instant the `DELETE
//! /channels/{c}/messages/{m}` arrived: the latency is the difference, both
//! on this machine's monotonic clock. Reported: p50/p99/max, the caught
//! messages never deleted, the background rate achieved (frames the fake
//! wrote over the window), the daemon's CPU, and the events the daemon
//! dropped (onboarding's `events_dropped_*`, read at the end): a dropped
//! message is a result, not an error. The run fails only when nothing is
//! deleted at all (the scenario measured nothing) or the set-up fails.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use modctl_client::Client;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::gateway::{self, FakeGateway, Sent};
use modctl_e2e::fakes::discord::{self as fake, MEMBER_ROLE};
use modctl_types::Platform;
use serde::Serialize;

use crate::automod::{DISCORD_GUILD as GUILD, channel_id, user_id};
use crate::daemon::{Daemon, Probe};

/// Members whose messages are caught (their rank is asked of Discord once
/// each and remembered, as for any author).
const CAUGHT_AUTHORS: usize = 10;
/// Members who write the background.
const BACKGROUND_AUTHORS: usize = 5_000;
/// Channels the messages go to (the exempt one, 9, is left out).
const CHANNELS: usize = 9;

/// What caught messages say, in turn.
const CAUGHT: &[&str] = &[
    "blockedword17 is not allowed here",
    "join discord.gg/abcdef for free stuff",
    "free skins at https://sketchy-site.example.net/claim",
    "WHY IS NOBODY ANSWERING MY QUESTION",
    "what a BL0CKEDW0RD23 thing to say",
];

/// Clean chat for the background.
const CLEAN: &[&str] = &[
    "hey everyone, how is it going today?",
    "lol that was great",
    "I'll be there at 5pm, see you",
    "Does anyone know how to fix this error in my build?",
    "Ça va très bien, merci !",
    "gg, that last round was close",
    "check https://allowed7.example.com/page and tell me what you think",
    "anyone up for a game tonight? we need two more",
    "brb, dinner",
    "the docs are at https://docs.allowed42.example.com/guide#setup",
    "thanks for the help earlier, it works now",
];

/// How much is sent.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shape {
    /// Clean messages a second.
    pub background: u32,
    /// Caught messages a second, spread evenly.
    pub caught_per_s: u32,
    /// The measured window.
    pub seconds: f64,
}

impl Shape {
    /// The issue's: 10,000 a second for 20 s, 25 caught a second (500 in
    /// all: Discord's global limit of 50 requests a second leaves room for
    /// the rank look-ups); smoke: 1,000 a second for 2 s, 10 caught a second.
    pub fn of(smoke: bool) -> Shape {
        if smoke {
            Shape {
                background: 1_000,
                caught_per_s: 10,
                seconds: 2.0,
            }
        } else {
            Shape {
                background: 10_000,
                caught_per_s: 25,
                seconds: 20.0,
            }
        }
    }
}

/// What a run found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyReport {
    /// What was asked.
    pub shape: Shape,
    /// Clean messages the driver pushed in the window.
    pub background_sent: u64,
    /// Frames the fake gateway wrote in the window, over its length.
    pub background_per_s: f64,
    /// Caught messages sent.
    pub caught: usize,
    /// Of them, deleted (their `DELETE` reached the fake).
    pub deleted: usize,
    /// Frame written to delete received, milliseconds.
    pub p50_ms: Option<f64>,
    /// See `p50_ms`.
    pub p99_ms: Option<f64>,
    /// See `p50_ms`.
    pub max_ms: Option<f64>,
    /// Events the daemon's consumers dropped (onboarding's
    /// `events_dropped_*`), by consumer.
    pub events_dropped: Vec<(String, u64)>,
    /// The daemon's CPU over the window, in cores.
    pub daemon_cores: Option<f64>,
    /// 429s the fake sent.
    pub too_many_requests: usize,
    /// Deleted messages slower than the goal (20 ms).
    pub over_20ms: usize,
    /// The ten slowest: seconds into the window when sent, and milliseconds
    /// to the delete (slow ones bunched at one moment point at something
    /// the daemon did then, not at the filters).
    pub slowest: Vec<(f64, f64)>,
    /// Every deleted message, in the order sent: seconds into the window,
    /// milliseconds to the delete.
    pub timeline: Vec<(f64, f64)>,
}

/// Runs the scenario with `daemon` (a modctld binary), keeping its files
/// in `run_dir`.
pub async fn run(daemon: &Path, run_dir: &Path, shape: Shape) -> anyhow::Result<LatencyReport> {
    let gateway = Arc::new(FakeGateway::start(Duration::from_secs(45)));
    gateway.add_guild(GUILD, &[]);
    let flags = fake::DEFAULT_APPLICATION_FLAGS | fake::GATEWAY_MESSAGE_CONTENT;
    gateway.set_application_flags(flags);
    let discord = Arc::new(FakeDiscord::start(GUILD));
    discord.set_application_flags(flags);
    discord.set_gateway_url(&gateway.url());
    for n in 0..CHANNELS {
        discord.add_channel(&channel_id(Platform::Discord, n), &format!("chat-{n}"));
    }
    for n in 0..CAUGHT_AUTHORS {
        discord.add_member(&caught_author(n), &[MEMBER_ROLE]);
    }
    let db = run_dir.join("automod-latency.db");
    let key = crate::restore::seed_guild(
        &db,
        GUILD,
        "automod latency bench",
        &discord.uri(),
        |tx, secrets, now| crate::automod::write_config(tx, secrets, Platform::Discord, GUILD, now),
    )
    .await?;
    let log = run_dir.join("daemon-automod-latency.log");
    let modctld = Daemon::start(daemon, &db, &log)?;
    eprintln!(
        "modctld (pid {}) reads the fake gateway of guild {GUILD}; its log: {}",
        modctld.pid(),
        log.display()
    );
    let client = Client::builder()
        .base_url(format!("http://{}", modctld.addr()))
        .api_key(key)
        .build()?;
    let outcome = measure(
        &gateway,
        &discord,
        &client,
        Probe::new(modctld.pid()),
        shape,
    )
    .await;
    modctld.stop()?;
    outcome
}

fn caught_author(n: usize) -> String {
    user_id(Platform::Discord, 90_000 + n)
}

/// One caught message: where, which, and its dispatch's sequence number.
struct Caught {
    channel: String,
    id: String,
    seq: u64,
}

async fn measure(
    gateway: &Arc<FakeGateway>,
    discord: &Arc<FakeDiscord>,
    client: &Client,
    probe: Probe,
    shape: Shape,
) -> anyhow::Result<LatencyReport> {
    let identified = {
        let gateway = gateway.clone();
        tokio::task::spawn_blocking(move || {
            gateway.wait_for(Duration::from_secs(60), |sent| {
                sent.iter().any(|s| matches!(s, Sent::Identify { .. }))
            })
        })
        .await?
    };
    anyhow::ensure!(
        identified,
        "the daemon's gateway session did not identify within 60 s"
    );
    let content = gateway.sent().iter().any(
        |s| matches!(s, Sent::Identify { intents, .. } if intents & gateway::MESSAGE_CONTENT != 0),
    );
    anyhow::ensure!(
        content,
        "the daemon's session did not ask for the message-content intent: the filters would read no text"
    );

    // A second of warm-up at the full rate (caught messages included, so
    // the authors' ranks and the config are in the daemon's caches as in
    // a long run), then the window.
    let warmup = drive(gateway, discord, shape, Duration::from_secs(1), 0).await?;
    let frames_before = gateway.frames_written();
    let cpu_before = probe.cpu_micros();
    let started = Instant::now();
    let window = Duration::from_secs_f64(shape.seconds);
    let driven = drive(gateway, discord, shape, window, warmup.next).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let frames = gateway.frames_written() - frames_before;
    let daemon_cores = match (cpu_before, probe.cpu_micros()) {
        (Some(before), Some(after)) => Some((after - before) as f64 / 1e6 / elapsed),
        _ => None,
    };

    // Every caught message's delete, or 10 s for the last ones.
    let deadline = Instant::now() + Duration::from_secs(10);
    let deletes = loop {
        let deletes = deletes(discord);
        let all = driven
            .caught
            .iter()
            .all(|c| deletes.contains_key(&(c.channel.clone(), c.id.clone())));
        if all || Instant::now() >= deadline {
            break deletes;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut timed: Vec<(f64, f64)> = driven
        .caught
        .iter()
        .filter_map(|c| {
            let arrived = deletes.get(&(c.channel.clone(), c.id.clone()))?;
            let written = gateway.written_at(c.seq)?;
            Some((
                written.saturating_duration_since(started).as_secs_f64(),
                arrived.saturating_duration_since(written).as_secs_f64() * 1e3,
            ))
        })
        .collect();
    let timeline = timed.clone();
    timed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut latencies: Vec<f64> = timed.iter().map(|(_, ms)| *ms).collect();
    latencies.sort_by(f64::total_cmp);
    anyhow::ensure!(
        !latencies.is_empty(),
        "none of the {} caught messages was deleted: see the daemon's log",
        driven.caught.len()
    );
    let events_dropped = dropped(client).await?;
    let sent = discord.too_many_requests();
    Ok(LatencyReport {
        shape,
        background_sent: driven.background,
        background_per_s: frames as f64 / elapsed,
        caught: driven.caught.len(),
        deleted: latencies.len(),
        p50_ms: percentile(&latencies, 0.50),
        p99_ms: percentile(&latencies, 0.99),
        max_ms: latencies.last().copied(),
        events_dropped,
        daemon_cores,
        too_many_requests: sent.bucket + sent.global + sent.injected + sent.shared,
        over_20ms: latencies.iter().filter(|ms| **ms > 20.0).count(),
        slowest: timed.into_iter().take(10).collect(),
        timeline,
    })
}

/// The `q` quantile of `sorted` (nearest rank).
pub(crate) fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// When each message delete reached the fake: (channel, message) → instant.
fn deletes(discord: &FakeDiscord) -> HashMap<(String, String), Instant> {
    discord
        .requests()
        .into_iter()
        .filter(|r| r.method == "DELETE")
        .filter_map(|r| {
            let parts: Vec<&str> = r.path.trim_start_matches('/').split('/').collect();
            match parts.as_slice() {
                ["channels", channel, "messages", message] => {
                    Some((((*channel).to_owned(), (*message).to_owned()), r.at))
                }
                _ => None,
            }
        })
        .collect()
}

/// What the daemon's onboarding says its consumers dropped.
async fn dropped(client: &Client) -> anyhow::Result<Vec<(String, u64)>> {
    let onboarding = client
        .onboarding(GUILD, false)
        .await
        .context("reading the onboarding checklist")?;
    Ok(onboarding
        .items
        .iter()
        .filter_map(|item| {
            let consumer = item.id.strip_prefix("events_dropped_")?;
            // "N event(s) received ... were dropped"; done items say none.
            let count = item
                .detail
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            Some((consumer.to_owned(), count))
        })
        .collect())
}

/// What one drive sent.
struct Driven {
    background: u64,
    caught: Vec<Caught>,
    /// The next message number.
    next: u64,
}

/// Sends `shape`'s messages for `window` from a thread of its own (the
/// fake's API is blocking), message numbers from `first`.
async fn drive(
    gateway: &Arc<FakeGateway>,
    discord: &Arc<FakeDiscord>,
    shape: Shape,
    window: Duration,
    first: u64,
) -> anyhow::Result<Driven> {
    let (gateway, discord) = (gateway.clone(), discord.clone());
    let driven = tokio::task::spawn_blocking(move || {
        drive_blocking(&gateway, &discord, shape, window, first)
    })
    .await?;
    Ok(driven)
}

fn drive_blocking(
    gateway: &FakeGateway,
    discord: &FakeDiscord,
    shape: Shape,
    window: Duration,
    first: u64,
) -> Driven {
    let started = Instant::now();
    let mut n = first;
    let mut background = 0u64;
    let mut caught = Vec::new();
    let caught_every = 1.0 / f64::from(shape.caught_per_s.max(1));
    loop {
        let elapsed = started.elapsed();
        if elapsed >= window {
            break;
        }
        let secs = elapsed.as_secs_f64();
        // Caught messages on their schedule, first.
        while (caught.len() as f64) * caught_every <= secs {
            let k = caught.len();
            let channel = channel_id(Platform::Discord, k % CHANNELS);
            let author = caught_author(k % CAUGHT_AUTHORS);
            let text = CAUGHT[k % CAUGHT.len()];
            let id = discord.seed_message(&channel, &author, text);
            let seq = gateway.dispatch_timed(
                "MESSAGE_CREATE",
                gateway::message_create(GUILD, &channel, &id, &author, &[MEMBER_ROLE], text),
            );
            caught.push(Caught { channel, id, seq });
        }
        // The background up to where the rate says it should be.
        let due = (secs * f64::from(shape.background)) as u64;
        while background < due {
            let i = n as usize;
            let channel = channel_id(Platform::Discord, i % CHANNELS);
            let author = user_id(Platform::Discord, (i * 7919) % BACKGROUND_AUTHORS);
            // Message ids no seeded message has (the fake numbers its own
            // from a lower range).
            let id = format!("{}", 1_400_000_000_000_000_000u64 + n);
            gateway.dispatch(
                "MESSAGE_CREATE",
                gateway::message_create(
                    GUILD,
                    &channel,
                    &id,
                    &author,
                    &[MEMBER_ROLE],
                    CLEAN[i % CLEAN.len()],
                ),
            );
            background += 1;
            n += 1;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    Driven {
        background,
        caught,
        next: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let sorted: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&sorted, 0.5), Some(100.0));
        assert_eq!(percentile(&sorted, 0.99), Some(198.0));
        assert_eq!(percentile(&[3.0], 0.99), Some(3.0));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
