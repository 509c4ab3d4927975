//! The `antinuke-latency` scenario (issue #26): the time from the audit log
//! entry that takes a count above its limit reaching the daemon to the
//! punishing request reaching Discord, and how many destructive actions a
//! scripted nuke at Discord's real rate gets through before it is stopped.
//!
//! `modctld serve` runs on a fresh database whose Discord guild is
//! connected to the shared fake Discord of the end-to-end tests, gateway
//! included, with antinuke on (2 channel deletions a minute, `ban`). Once
//! the daemon's session has identified (with GUILD_MODERATION, or nothing
//! would arrive), each of [`Shape::nukers`] members in turn deletes
//! channels at [`PACE`] (a nuke's pace under Discord's per-route limits):
//! each deletion is made on the fake and sent as a
//! `GUILD_AUDIT_LOG_ENTRY_CREATE`, and the nuke goes on until the member's
//! ban (`PUT /guilds/{g}/bans/{user}`) has reached the fake, or
//! [`MAX_DELETIONS`].
//!
//! For the entry that crosses the limit (the third) the fake records when
//! its frame was written to the socket, and when the ban arrived: the
//! latency is the difference, both on this machine's monotonic clock
//! (p50/p99/max, goal p99 < 50 ms). Per nuke, the deletions it made: the
//! goal is no more than the limit plus what was in flight (the crossing
//! entry itself, and any sent before the ban landed).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::MEMBER_ROLE;
use modctl_e2e::fakes::discord::gateway::{self, FakeGateway, Sent};
use modctl_types::config::{SectionName, Sections};
use serde::Serialize;
use serde_json::json;

use crate::automod_latency::percentile;
use crate::daemon::Daemon;

/// The bench's guild (its own: the fake is fresh per run).
const GUILD: &str = "100000000000000026";
/// The limit of channel deletions a minute.
pub const LIMIT: u32 = 2;
/// The time between a nuker's deletions.
pub const PACE: Duration = Duration::from_millis(250);
/// A nuke never stopped ends here.
pub const MAX_DELETIONS: usize = 20;
/// `CHANNEL_DELETE` (audit-log.mdx, "Audit Log Events").
const CHANNEL_DELETE: u64 = 12;

/// How much is run.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shape {
    /// Nukes, one after another, each by a member of their own.
    pub nukers: usize,
}

impl Shape {
    /// 100 nukes (p99 of 100 samples); smoke: 5.
    pub fn of(smoke: bool) -> Shape {
        Shape {
            nukers: if smoke { 5 } else { 100 },
        }
    }
}

/// What a run found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct AntinukeReport {
    /// What was asked.
    pub shape: Shape,
    /// The limit of deletions a minute.
    pub limit: u32,
    /// Nukes whose executor was banned.
    pub stopped: usize,
    /// Crossing entry's frame written to the ban received, milliseconds.
    pub p50_ms: Option<f64>,
    /// See `p50_ms`.
    pub p99_ms: Option<f64>,
    /// See `p50_ms`.
    pub max_ms: Option<f64>,
    /// Deletions each nuke made before it stopped, in order.
    pub deletions: Vec<usize>,
    /// The most any nuke made.
    pub most_deletions: usize,
}

/// Runs the scenario with `daemon` (a modctld binary), keeping its files
/// in `run_dir`.
pub async fn run(daemon: &Path, run_dir: &Path, shape: Shape) -> anyhow::Result<AntinukeReport> {
    let gateway = Arc::new(FakeGateway::start(Duration::from_secs(45)));
    gateway.add_guild(GUILD, &[]);
    let discord = Arc::new(FakeDiscord::start(GUILD));
    discord.set_gateway_url(&gateway.url());
    for n in 0..shape.nukers {
        discord.add_member(&nuker(n), &[MEMBER_ROLE]);
        for k in 0..MAX_DELETIONS {
            discord.add_channel(&channel(n, k), &format!("chan-{n}-{k}"));
        }
    }
    let db = run_dir.join("antinuke-latency.db");
    crate::restore::seed_guild(
        &db,
        GUILD,
        "antinuke latency bench",
        &discord.uri(),
        |tx, secrets, now| {
            let mut sections: Sections = modctld::store::config::load(tx, GUILD)?.sections;
            sections
                .replace_from_json(
                    SectionName::Antinuke,
                    json!({"enabled": true, "max_channel_deletions_per_minute": LIMIT, "action": "ban"}),
                )
                .map_err(|e| anyhow::anyhow!("bench antinuke config: {e}"))?;
            modctld::config::apply(
                tx,
                secrets,
                modctld::config::Change::by(GUILD, "operator:bench", sections, now),
            )?;
            Ok(())
        },
    )
    .await?;
    let log = run_dir.join("daemon-antinuke-latency.log");
    let modctld = Daemon::start(daemon, &db, &log)?;
    eprintln!(
        "modctld (pid {}) reads the fake gateway of guild {GUILD}; its log: {}",
        modctld.pid(),
        log.display()
    );
    let outcome = {
        let (gateway, discord) = (gateway.clone(), discord.clone());
        tokio::task::spawn_blocking(move || measure(&gateway, &discord, shape)).await?
    };
    modctld.stop()?;
    outcome
}

fn nuker(n: usize) -> String {
    format!("{}", 810_000_000_000_000_000u64 + n as u64)
}

fn channel(n: usize, k: usize) -> String {
    format!("{}", 720_000_000_000_000_000u64 + (n * 100 + k) as u64)
}

/// When the ban of `user` reached the fake, if it did.
fn banned_at(discord: &FakeDiscord, user: &str) -> Option<Instant> {
    let path = format!("/guilds/{GUILD}/bans/{user}");
    discord
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path == path)
        .map(|r| r.at)
}

fn measure(
    gateway: &FakeGateway,
    discord: &FakeDiscord,
    shape: Shape,
) -> anyhow::Result<AntinukeReport> {
    anyhow::ensure!(
        gateway.wait_for(Duration::from_secs(60), |sent| {
            sent.iter().any(|s| {
                matches!(s, Sent::Identify { intents, .. } if intents & gateway::GUILD_MODERATION != 0)
            })
        }),
        "the daemon's gateway session did not identify with GUILD_MODERATION within 60 s"
    );
    let mut latencies = Vec::new();
    let mut deletions = Vec::new();
    let mut entry = 0u64;
    for n in 0..shape.nukers {
        let user = nuker(n);
        let mut made = 0;
        let mut crossing = None;
        while made < MAX_DELETIONS && banned_at(discord, &user).is_none() {
            let target = channel(n, made);
            discord.delete_channel(&target);
            entry += 1;
            let d = json!({
                "guild_id": GUILD, "id": format!("{}", 930_000_000_000_000_000u64 + entry),
                "action_type": CHANNEL_DELETE, "user_id": user, "target_id": target, "changes": [],
            });
            let seq = gateway.dispatch_timed("GUILD_AUDIT_LOG_ENTRY_CREATE", d);
            made += 1;
            if made == LIMIT as usize + 1 {
                crossing = Some(seq);
            }
            std::thread::sleep(PACE);
        }
        deletions.push(made);
        // The ban may land after the last sleep: give it a second.
        let deadline = Instant::now() + Duration::from_secs(1);
        let banned = loop {
            match banned_at(discord, &user) {
                Some(at) => break Some(at),
                None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                None => break None,
            }
        };
        if let (Some(banned), Some(written)) =
            (banned, crossing.and_then(|s| gateway.written_at(s)))
        {
            latencies.push(banned.saturating_duration_since(written).as_secs_f64() * 1e3);
        }
    }
    anyhow::ensure!(
        !latencies.is_empty(),
        "no nuker was banned: see the daemon's log"
    );
    let stopped = latencies.len();
    latencies.sort_by(f64::total_cmp);
    Ok(AntinukeReport {
        shape,
        limit: LIMIT,
        stopped,
        p50_ms: percentile(&latencies, 0.50),
        p99_ms: percentile(&latencies, 0.99),
        max_ms: latencies.last().copied(),
        most_deletions: deletions.iter().copied().max().unwrap_or(0),
        deletions,
    })
}
