//! The `logs` scenario (issue #25): 1,000 log entries waiting for one
//! Discord channel, delivered by `modctld serve`'s log delivery worker: how
//! close it comes to the least time the channel's rate limit allows, in how
//! many messages, and whether the fake ever answers 429.
//!
//! The entries are written into the outbox of a fresh database before the
//! daemon starts (as a burst of events would leave them), so what is timed
//! is the delivery alone: from the first message the fake receives to the
//! last. The fake Discord's per-channel message limit is Discord's 5 per
//! 5 s at a tenth of its window (5 per 500 ms, as the `restore` scenario
//! scales its buckets), so a run takes seconds, not minutes. The least time
//! is that of the messages the fake received: the last of `m` can go after
//! `ceil(m / 5) - 1` windows.

use std::path::Path;
use std::time::{Duration, Instant};

use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{BOT, MOD_ROLE};
use modctld::logs::{LogEntry, Member};
use serde::Serialize;

use crate::daemon::Daemon;

/// The guild the fake serves.
const GUILD: &str = "910000000000000002";
/// The log channel.
const CHANNEL: &str = "720000000000000999";
/// The channel's message limit: Discord's 5 per 5 s at a tenth.
const PER_WINDOW: usize = 5;
/// Its window.
const WINDOW: Duration = Duration::from_millis(500);

/// What a run found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct LogsReport {
    /// Entries waiting at the start.
    pub entries: usize,
    /// Entries posted.
    pub posted: usize,
    /// Messages they were posted in.
    pub messages: usize,
    /// From the first message the fake received to the last.
    pub wall_seconds: f64,
    /// The least time the channel's limit allows for those messages.
    pub minimum_seconds: f64,
    /// `wall_seconds` over `minimum_seconds` (goal: at most 1.1).
    pub over_minimum: f64,
    /// 429s the fake sent (goal: 0).
    pub too_many_requests: usize,
}

/// Runs the scenario with `daemon` (a modctld binary) and `entries` log
/// entries, keeping its files in `run_dir`.
pub async fn run(daemon: &Path, run_dir: &Path, entries: usize) -> anyhow::Result<LogsReport> {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(BOT, &[MOD_ROLE]);
    fake.add_channel(CHANNEL, "mod-log");
    fake.limit_route(
        "POST",
        "/channels/{channel}/messages",
        PER_WINDOW as u32,
        WINDOW,
    );
    let db = run_dir.join("logs.db");
    seed(&db, &fake.uri(), entries).await?;
    let log = run_dir.join("daemon-logs.log");
    let modctld = Daemon::start(daemon, &db, &log)?;
    eprintln!(
        "modctld (pid {}) posts {entries} log entries to one channel; its log: {}",
        modctld.pid(),
        log.display()
    );
    let outcome = measure(&fake, entries).await;
    modctld.stop()?;
    outcome
}

async fn measure(fake: &FakeDiscord, entries: usize) -> anyhow::Result<LogsReport> {
    let posted = |fake: &FakeDiscord| -> (usize, usize) {
        let messages = fake.posted(CHANNEL);
        let embeds = messages
            .iter()
            .map(|m| m.body["embeds"].as_array().map_or(0, Vec::len))
            .sum();
        (messages.len(), embeds)
    };
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut first = None;
    loop {
        let (messages, embeds) = posted(fake);
        if messages > 0 && first.is_none() {
            first = Some(Instant::now());
        }
        if embeds >= entries {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "only {embeds} of {entries} entries were posted in 5 minutes"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let wall = first.map_or(0.0, |f| f.elapsed().as_secs_f64());
    let (messages, embeds) = posted(fake);
    let minimum = least(messages);
    let sent = fake.too_many_requests();
    Ok(LogsReport {
        entries,
        posted: embeds,
        messages,
        wall_seconds: wall,
        minimum_seconds: minimum,
        over_minimum: if minimum > 0.0 { wall / minimum } else { 0.0 },
        too_many_requests: sent.bucket + sent.global + sent.injected + sent.shared,
    })
}

/// The least time `messages` posts to one channel take under its limit.
fn least(messages: usize) -> f64 {
    messages.div_ceil(PER_WINDOW).saturating_sub(1) as f64 * WINDOW.as_secs_f64()
}

/// A database with the guild claimed, connected to the fake, and `entries`
/// entries waiting for [`CHANNEL`].
async fn seed(db: &Path, fake_uri: &str, entries: usize) -> anyhow::Result<()> {
    crate::restore::seed_guild(db, GUILD, "logs bench", fake_uri, move |tx, _, now| {
        for n in 0..entries {
            let entry = LogEntry::MemberJoined(Member {
                user_id: format!("5{n:017}"),
                display_name: Some(format!("member {n}")),
                is_bot: false,
                channel_id: None,
            });
            modctld::logs::write(tx, GUILD, CHANNEL, &entry, now)?;
        }
        Ok(())
    })
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_time_counts_the_windows_after_the_first() {
        for (messages, seconds) in [(0, 0.0), (5, 0.0), (6, 0.5), (100, 9.5)] {
            assert_eq!(least(messages), seconds, "{messages}");
        }
    }
}
