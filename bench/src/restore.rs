//! The `restore` scenario (issue #10): how close a structure restore comes
//! to the fastest that Discord's rate limits allow, and whether it ever
//! makes Discord refuse a request.
//!
//! The bench runs the shared fake Discord of the end-to-end tests
//! (`modctl_e2e::fakes::FakeDiscord`), which enforces route buckets and the
//! global limit as Discord does and counts every 429 it sends. It seeds a
//! guild of [`Shape::roles`] roles and [`Shape::channels`] channels (a tenth
//! of them categories) with role and member overwrites, points a fresh
//! database's Discord server at the fake, starts `modctld serve` on it,
//! captures a snapshot, deletes everything the snapshot holds but the bot's
//! and `@everyone`, restores, and waits for the job.
//!
//! The limits are Discord's shapes at a tenth of their windows, so a run
//! takes half a minute instead of five: role and channel creation 5 per
//! 500 ms per guild, overwrites 5 per 500 ms per channel, and the global 50
//! per second (not scaled: it is the one Discord documents). The minimum
//! the limits allow is worked out per phase, since a restore has to create
//! the roles before the overwrites that name them and the categories before
//! their channels: in each phase the slowest of its buckets and the global
//! limit, for the requests the fake actually received.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use modctl_client::{Client, RestoreWait};
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{ADMINISTRATOR, BOT, MOD_ROLE, TOKEN};
use modctl_types::Platform;
use modctl_types::restore::{ItemOutcome, JobState, PlanStep};
use modctld::store::connections::{self, Connection, ConnectionMode};
use serde::Serialize;

use crate::daemon::Daemon;

/// The guild the fake serves.
const GUILD: &str = "910000000000000001";
/// The bot's top role, above everything the restore creates.
const BOT_TOP_ROLE: &str = "610000000000000001";
/// Bucket windows: Discord's at a tenth (see the module docs).
const WINDOW: Duration = Duration::from_millis(500);
/// Requests per bucket window.
const PER_WINDOW: u32 = 5;
/// Discord's global limit per bot token.
const GLOBAL: usize = 50;
/// Its window.
const GLOBAL_WINDOW: Duration = Duration::from_secs(1);

/// How much structure is restored.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shape {
    /// Roles (besides `@everyone` and the bot's).
    pub roles: usize,
    /// Channels, categories included.
    pub channels: usize,
}

impl Shape {
    /// The issue's: 50 roles and 200 channels; smoke: 6 and 20.
    pub fn of(smoke: bool) -> Shape {
        if smoke {
            Shape {
                roles: 6,
                channels: 20,
            }
        } else {
            Shape {
                roles: 50,
                channels: 200,
            }
        }
    }
}

/// What a restore run found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct RestoreReport {
    /// What was restored.
    pub shape: Shape,
    /// Items the job created (roles, channels, overwrites).
    pub created: u32,
    /// Items the platform refused.
    pub failed: u32,
    /// Requests the fake received during the restore, by phase.
    pub requests: Phases<usize>,
    /// From `POST .../restore` to the job's end, as polled every 50 ms.
    pub wall_seconds: f64,
    /// The least the limits allow for those requests, per phase.
    pub minimum: Phases<f64>,
    /// `wall_seconds` over the sum of `minimum` (goal: at most 1.1).
    pub over_minimum: f64,
    /// 429s the fake sent during the restore (goal: 0).
    pub too_many_requests: usize,
}

/// One number per phase of a Discord restore.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Phases<T> {
    /// Creating and placing roles.
    pub roles: T,
    /// Creating categories and channels (and setting topics again).
    pub channels: T,
    /// Putting permission overwrites.
    pub overwrites: T,
}

/// Runs the scenario with `daemon` (a modctld binary), keeping its files
/// in `run_dir`.
pub async fn run(daemon: &Path, run_dir: &Path, shape: Shape) -> anyhow::Result<RestoreReport> {
    let fake = FakeDiscord::start(GUILD);
    build_guild(&fake, shape);
    let db = run_dir.join("restore.db");
    let key = seed(&db, &fake.uri()).await?;
    let log = run_dir.join("daemon-restore.log");
    let modctld = Daemon::start(daemon, &db, &log)?;
    eprintln!(
        "modctld (pid {}) restores {} roles and {} channels on {}; its log: {}",
        modctld.pid(),
        shape.roles,
        shape.channels,
        modctld.addr(),
        log.display()
    );
    let client = Client::builder()
        .base_url(format!("http://{}", modctld.addr()))
        .api_key(key)
        .build()?;
    let outcome = restore(&client, &fake, shape).await;
    modctld.stop()?;
    outcome
}

async fn restore(
    client: &Client,
    fake: &FakeDiscord,
    shape: Shape,
) -> anyhow::Result<RestoreReport> {
    let snapshot = client.capture_snapshot(GUILD).await?;
    nuke(fake, shape);
    for (method, template) in [
        ("POST", "/guilds/{guild}/roles"),
        ("POST", "/guilds/{guild}/channels"),
        ("PUT", "/channels/{channel}/permissions/{target}"),
    ] {
        fake.limit_route(method, template, PER_WINDOW, WINDOW);
    }
    fake.set_global_limit(GLOBAL, GLOBAL_WINDOW);
    let before_requests = fake.requests().len();
    let before_429 = total_429(fake);

    let started = Instant::now();
    let job = client.restore(GUILD, Some(snapshot.id)).await?;
    let wait = RestoreWait {
        interval: Duration::from_millis(50),
        timeout: Some(Duration::from_secs(600)),
    };
    let job = client
        .wait_for_restore(GUILD, job.id, &wait, |_| {})
        .await
        .context("waiting for the restore job")?;
    let wall = started.elapsed().as_secs_f64();
    anyhow::ensure!(
        job.state == JobState::Done,
        "the restore job ended {}: {}",
        job.state.as_str(),
        job.detail.as_deref().unwrap_or("")
    );
    let count = |outcome| {
        let counted = job
            .items
            .iter()
            .filter(|i| i.outcome == outcome && i.planned.step != PlanStep::Present);
        u32::try_from(counted.count()).unwrap_or(u32::MAX)
    };
    let requests = phases(&fake.requests()[before_requests..]);
    let minimum = Phases {
        roles: least(&requests.roles_by_bucket),
        channels: least(&requests.channels_by_bucket),
        overwrites: least(&requests.overwrites_by_bucket),
    };
    let least_total = minimum.roles + minimum.channels + minimum.overwrites;
    Ok(RestoreReport {
        shape,
        created: count(ItemOutcome::Done),
        failed: count(ItemOutcome::Failed),
        requests: Phases {
            roles: requests.roles_by_bucket.values().sum(),
            channels: requests.channels_by_bucket.values().sum(),
            overwrites: requests.overwrites_by_bucket.values().sum(),
        },
        wall_seconds: wall,
        minimum,
        over_minimum: if least_total > 0.0 {
            wall / least_total
        } else {
            0.0
        },
        too_many_requests: total_429(fake) - before_429,
    })
}

fn total_429(fake: &FakeDiscord) -> usize {
    let sent = fake.too_many_requests();
    sent.bucket + sent.global + sent.injected + sent.shared
}

/// A guild of `shape`: the bot on a top role with every permission, roles
/// below it, a category per ten channels, each channel with overwrites for
/// two roles and one member.
fn build_guild(fake: &FakeDiscord, shape: Shape) {
    fake.add_role(BOT_TOP_ROLE, 1000, ADMINISTRATOR);
    fake.style_role(BOT_TOP_ROLE, "modctl", 0, false, false);
    fake.mark_role(BOT_TOP_ROLE, None, true);
    fake.add_member(BOT, &[MOD_ROLE, BOT_TOP_ROLE]);
    for n in 0..shape.roles {
        fake.add_role(&role_id(n), 100 + n as i64, 1 << 10 | 1 << 11);
        fake.style_role(
            &role_id(n),
            &format!("role-{n}"),
            0x3498db,
            n % 5 == 0,
            false,
        );
    }
    let categories = shape.channels.div_ceil(10);
    for n in 0..shape.channels {
        let id = channel_id(n);
        if n < categories {
            fake.add_typed_channel(&id, 4, &format!("category-{n}"), None, n as i64, None);
            continue;
        }
        let parent = channel_id(n % categories);
        let topic = format!("about channel {n}; see <#{parent}>");
        fake.add_typed_channel(
            &id,
            0,
            &format!("channel-{n}"),
            Some(&parent),
            n as i64,
            Some(&topic),
        );
        if shape.roles > 0 {
            fake.add_overwrite(&id, &role_id(n % shape.roles), false, 1 << 11, 0);
            fake.add_overwrite(&id, &role_id((n + 1) % shape.roles), false, 0, 1 << 11);
        }
        fake.add_overwrite(&id, "500000000000000002", true, 1 << 10, 0);
    }
}

/// Deletes every role and channel [`build_guild`] made (the fake's own
/// seeded ones stay, and are matched by id).
fn nuke(fake: &FakeDiscord, shape: Shape) {
    for n in 0..shape.roles {
        fake.delete_role(&role_id(n));
    }
    for n in 0..shape.channels {
        fake.delete_channel(&channel_id(n));
    }
}

fn role_id(n: usize) -> String {
    format!("62{n:016}")
}

fn channel_id(n: usize) -> String {
    format!("72{n:016}")
}

/// A database with team `bench`, a read+write key (returned) and the guild
/// claimed and connected to the fake.
async fn seed(db: &Path, fake_uri: &str) -> anyhow::Result<String> {
    seed_guild(db, GUILD, "restore bench", fake_uri, |_, _, _| Ok(())).await
}

/// A database with team `bench`, a read+write key (returned) and Discord
/// guild `guild` claimed as `name` and connected to the fake at `fake_uri`;
/// `then` writes what else the scenario needs in the same transaction (at
/// `now`, unix seconds, with the store's secrets).
pub(crate) async fn seed_guild(
    db: &Path,
    guild: &'static str,
    name: &'static str,
    fake_uri: &str,
    then: impl FnOnce(&modctld::store::Tx<'_>, &modctld::store::Secrets, i64) -> anyhow::Result<()>
    + Send
    + 'static,
) -> anyhow::Result<String> {
    let (store, team, key) = crate::seed::fresh(db, name).await?;
    let now = jiff::Timestamp::now().as_second();
    let secrets = store.secrets().clone();
    let api_base = fake_uri.to_owned();
    store
        .write(move |tx| {
            modctld::servers::claim(tx, team, Platform::Discord, guild, name, now)?;
            connections::set(
                tx,
                &secrets,
                guild,
                &Connection::new(ConnectionMode::Live {
                    token: TOKEN.to_owned(),
                    api_base: Some(api_base),
                }),
                now,
            )?;
            then(tx, &secrets, now)
        })
        .await?;
    Ok(key)
}

/// The restore's requests, counted per bucket within each phase.
#[derive(Debug, Default)]
struct Counted {
    roles_by_bucket: HashMap<String, usize>,
    channels_by_bucket: HashMap<String, usize>,
    overwrites_by_bucket: HashMap<String, usize>,
}

fn phases(requests: &[modctl_e2e::fakes::Recorded]) -> Counted {
    let mut counted = Counted::default();
    for request in requests {
        let segments: Vec<&str> = request.path.trim_start_matches('/').split('/').collect();
        let (phase, bucket) = match (request.method.as_str(), segments.as_slice()) {
            ("POST" | "PATCH", ["guilds", _, "roles", ..]) => (
                &mut counted.roles_by_bucket,
                format!("{} roles", request.method),
            ),
            ("POST", ["guilds", _, "channels"]) => {
                (&mut counted.channels_by_bucket, "POST channels".to_owned())
            }
            ("PATCH", ["channels", channel]) => (
                &mut counted.channels_by_bucket,
                format!("PATCH channel {channel}"),
            ),
            ("PUT", ["channels", channel, "permissions", _]) => (
                &mut counted.overwrites_by_bucket,
                format!("PUT overwrites {channel}"),
            ),
            _ => continue,
        };
        *phase.entry(bucket).or_default() += 1;
    }
    counted
}

/// The least time `by_bucket`'s requests take under the limits: the
/// slowest bucket (only the limited ones wait) or the global limit.
fn least(by_bucket: &HashMap<String, usize>) -> f64 {
    let windows = |n: usize, per: usize, window: Duration| {
        n.div_ceil(per).saturating_sub(1) as f64 * window.as_secs_f64()
    };
    let buckets = by_bucket
        .iter()
        .filter(|(bucket, _)| !bucket.starts_with("PATCH"))
        .map(|(_, n)| windows(*n, PER_WINDOW as usize, WINDOW))
        .fold(0.0, f64::max);
    let global = windows(by_bucket.values().sum(), GLOBAL, GLOBAL_WINDOW);
    buckets.max(global)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_time_is_the_slowest_bucket_or_the_global_limit() {
        let of = |pairs: &[(&str, usize)]| {
            least(&pairs.iter().map(|(b, n)| ((*b).to_owned(), *n)).collect())
        };
        // 20 channel creations at 5 per 500 ms: the 20th goes at 1.5 s.
        assert_eq!(of(&[("POST channels", 20)]), 1.5);
        // 5 fit in the first window: no wait at all.
        assert_eq!(of(&[("POST channels", 5)]), 0.0);
        // 120 overwrites over 40 channels: 3 per bucket, the global limit
        // of 50 per second decides: 2 s.
        let spread: Vec<(String, usize)> = (0..40)
            .map(|c| (format!("PUT overwrites {c}"), 3))
            .collect();
        assert_eq!(least(&spread.into_iter().collect()), 2.0);
    }
}
