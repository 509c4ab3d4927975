//! The log channels' delivery worker: posts what waits in the log outbox.
//!
//! [`start_due`] starts one run per channel with entries due, each under
//! the channel's claim ([`Work::LogChannel`]), and does not wait for them,
//! so one slow or rate-limited channel never holds the others up;
//! [`deliver_due`] waits for the runs it starts (tests drive it). A run
//! takes the channel's waiting entries in order, renders them
//! ([`super::render`]) and posts them as few messages as the platform allows
//! ([`crate::platform::PostMessage::post_batch`]: Discord 10 embeds and
//! 6,000 characters a message, Slack 50 blocks, Telegram 4,096 characters),
//! deleting each message's entries once it is posted. Kinds that share a
//! channel share its messages.
//!
//! Rate limits: Discord's buckets are followed by the adapter
//! ([`crate::platform::ratelimit`]), which waits before a request a bucket
//! would refuse. Slack and Telegram answer 429 without warning, so a run
//! keeps their documented pace per channel itself ([`Pace`]): Slack "1 per
//! second" per channel (api.slack.com/docs/rate-limits, "Posting
//! messages"), Telegram at most one message a second in a chat and 20 a
//! minute in a group (core.telegram.org/bots/faq, "My bot is hitting
//! limits"). A 429 that comes anyway is waited out by the adapter's retry
//! policy; a rate-limit wait longer than the policy takes (Discord's
//! adapter refuses to wait beyond it and sends nothing) is waited out by
//! the run itself, up to a minute; beyond that the entries stay waiting
//! for a later tick.
//!
//! Failures, by whose they are ([`failure`]):
//! - **the channel's**: not found or forbidden (deleted, the bot removed
//!   or without the right to post: Discord 404/403, Slack
//!   `channel_not_found`/`not_in_channel`/`is_archived`, Telegram "chat
//!   not found"/"not enough rights", a group upgraded to a supergroup, a
//!   closed topic: 400s the adapter reads as the chat's): every entry
//!   waiting for it is marked
//!   failed with the platform's reason ([`crate::store::logs::fail_channel`]),
//!   shown in onboarding and not tried again;
//! - **the connection's**: the token refused (401, Slack `invalid_auth`):
//!   no channel of the server can be posted to, which onboarding reports as
//!   the connection's problem; the entries wait with backoff (up to ten
//!   minutes apart) and are posted once the token is fixed, not failed;
//! - **the post's**: the platform calls the request invalid (Discord 400,
//!   Slack `invalid_blocks`, Telegram "can't parse entities"): a bug of the
//!   daemon in what it posted, not the channel's. The batch is posted again
//!   one entry at a time; an entry refused alone is given up
//!   ([`crate::store::logs::give_up`], logged as an error with the
//!   platform's reason) once the entry after it passes, and the others are
//!   posted. If the entry after it is refused alone too, two posts in a row
//!   refused as malformed are taken for the channel refusing in words the
//!   adapter does not know (a chat refusal answered as a bad request): the
//!   channel's failure as above, nothing given up. A refused entry with no
//!   other waiting to tell which it is waits, with backoff, for one;
//! - **passing**: 5xx, timeouts, the connection lost, a 429 that outlasted
//!   the retries: tried again later with backoff ([`backoff`]), for as
//!   long as it takes.
//!
//! Failed and given-up entries are kept [`RETENTION`] after the fact (what
//! onboarding reports), then purged ([`purge_ended`], the log retention
//! worker); delivered ones are deleted as they are posted. A post whose
//! answer was lost may be posted twice: log posts are at least once. The
//! outbox is in the database, so what was not
//! posted when the daemon stopped is posted after it starts again.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use modctl_types::Platform;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::LogEntry;
use super::render::render;
use crate::clock::Clock;
use crate::coordination::{Work, WorkClaims};
use crate::platform::{self, PlatformClients, PlatformError, Post};
use crate::store::logs::{self as outbox, DueChannel, Waiting};
use crate::store::{Store, StoreError, connections};

/// How long a run's claim is kept by a backend whose claims expire.
const CLAIM_LEASE: Duration = Duration::from_secs(300);
/// Entries read at a time: more than one message of any platform holds.
const READ_AT_ONCE: u32 = 100;
/// The longest rate-limit wait a run takes itself (Discord's per-channel
/// buckets reset within seconds); a longer one ends the run and the
/// entries are tried again later on the clock.
const MAX_RATE_WAIT: Duration = Duration::from_secs(60);
/// The longest wait between attempts of a failing channel.
const MAX_BACKOFF_SECONDS: i64 = 600;
/// How long failed and given-up entries are kept before they are purged: a
/// week, long enough for a moderator to see onboarding's report of a
/// channel that is gone, short enough that a channel gone for good does
/// not grow the table without end.
pub const RETENTION: Duration = Duration::from_secs(7 * 86_400);
/// Entries purged per statement (short writes on the one writer).
const PURGE_AT_ONCE: u32 = 1_000;

/// What the delivery worker uses; cheap to clone.
#[derive(Debug, Clone)]
pub struct LogDelivery {
    /// The outbox, the servers and their connections.
    pub store: Store,
    /// When entries are due.
    pub clock: Clock,
    /// The platform clients (Discord's rate-limit state among them).
    pub platforms: PlatformClients,
    /// One run per channel at a time.
    pub claims: Arc<dyn WorkClaims>,
    /// The pace of each channel's posts.
    pub pace: Pace,
    /// Entries by the outcome of their post (`posted`, `retry`,
    /// `channel_failed`, `given_up`), for `GET /metrics`.
    pub outcomes: crate::metrics::Outcomes,
}

/// A run posting one channel's entries; answers how many it posted.
pub type Run = JoinHandle<Result<usize, StoreError>>;

/// Starts a run for each channel with entries due, without waiting for
/// them.
pub async fn start_due(cx: &LogDelivery) -> Result<Vec<Run>, StoreError> {
    let now = cx.clock.now_unix();
    let due = cx.store.read(move |tx| outbox::due(tx, now)).await?;
    let mut runs = Vec::new();
    for channel in due {
        let work = Work::LogChannel {
            server_id: channel.server_id.clone(),
            channel_id: channel.channel_id.clone(),
        };
        // Held: a run for this channel is under way.
        let Some(held) = cx.claims.claim(work, CLAIM_LEASE).await else {
            continue;
        };
        let cx = cx.clone();
        runs.push(tokio::spawn(async move {
            let _held = held;
            run(&cx, channel).await
        }));
    }
    Ok(runs)
}

/// Starts the runs due and waits for them; answers the entries posted.
pub async fn deliver_due(cx: &LogDelivery) -> Result<usize, StoreError> {
    let mut posted = 0;
    for run in start_due(cx).await? {
        match run.await {
            Ok(done) => posted += done?,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => {}
        }
    }
    Ok(posted)
}

/// Posts the channel's waiting entries until none is due or a post fails.
async fn run(cx: &LogDelivery, channel: DueChannel) -> Result<usize, StoreError> {
    let server_id = channel.server_id.clone();
    let secrets = cx.store.secrets().clone();
    let found = cx
        .store
        .read(move |tx| connections::connected_server(tx, &secrets, &server_id))
        .await?;
    let Some((record, connection, sections)) = found else {
        // Released or never connected: nothing can be posted; the entries
        // wait for a connection (a released server's go with it).
        return Ok(0);
    };
    // The posts' words are in the server's language.
    let locale = sections.general.locale;
    let platform = record.server.platform;
    let bot = platform::connect(
        &cx.platforms,
        &cx.store,
        platform,
        &channel.server_id,
        connection,
    );
    let mut posted = 0;
    // After a batch refused as malformed, entries are posted one at a time
    // until the one refused is found and given up.
    let mut one_at_a_time = false;
    // An entry refused alone as malformed, and the platform's reason: the
    // post's fault only if another entry then passes (see `Failure::Post`).
    let mut suspect: Option<(i64, String)> = None;
    loop {
        let now = cx.clock.now_unix();
        let key = channel.clone();
        let waiting = cx
            .store
            .read(move |tx| outbox::waiting(tx, &key, now, READ_AT_ONCE))
            .await?;
        if waiting.is_empty() {
            return Ok(posted);
        }
        let (mut posts, unreadable) = rendered(&waiting, &locale);
        if !unreadable.is_empty() {
            // Written by this daemon, so only a downgrade can make one
            // unreadable: dropped with a warning rather than blocking the
            // channel for good.
            tracing::warn!(count = unreadable.len(), channel = %channel.channel_id, "log entries that cannot be read are dropped");
            cx.store
                .write(move |tx| outbox::delivered(tx, &unreadable))
                .await?;
        }
        if posts.is_empty() {
            continue;
        }
        if let Some((id, reason)) = &suspect {
            posts.retain(|(entry, _)| entry != id);
            if posts.is_empty() {
                // Nothing else to tell the post's fault from the channel's:
                // the suspect waits (with backoff) for an entry that can.
                let (ids, reason) = (vec![*id], reason.clone());
                let attempts = waiting
                    .iter()
                    .find(|w| w.id == *id)
                    .map_or(0, |w| w.attempts);
                let at = cx.clock.now_unix() + backoff(attempts);
                tracing::warn!(server = %channel.server_id, channel = %channel.channel_id, entry = ids[0], error = %reason, "a log post refused as malformed, with no other entry to tell whether the channel refuses; tried again later");
                cx.store
                    .write(move |tx| outbox::retry_later(tx, &ids, at, &reason))
                    .await?;
                return Ok(posted);
            }
        }
        if one_at_a_time {
            posts.truncate(1);
        }
        cx.pace.wait(platform, &channel).await;
        let (ids, posts): (Vec<i64>, Vec<Post>) = posts.into_iter().unzip();
        let result = bot.poster().post_batch(&channel.channel_id, &posts).await;
        cx.pace.sent(platform, &channel);
        let now = cx.clock.now_unix();
        let error = match result {
            Ok(count) => {
                let done: Vec<i64> = ids.into_iter().take(count.max(1)).collect();
                posted += done.len();
                crate::metrics::count(&cx.outcomes, "posted", done.len() as u64);
                cx.store
                    .write(move |tx| outbox::delivered(tx, &done))
                    .await?;
                if let Some((id, reason)) = suspect.take() {
                    // The channel takes other posts: the suspect alone was
                    // malformed. Given up; the rest go in batches again.
                    give_up(cx, &channel, &waiting, id, reason, now).await?;
                    one_at_a_time = false;
                }
                continue;
            }
            // Waited out here, as long as it is not long: the entries stay
            // in order and none is lost.
            Err(PlatformError::RateLimited { retry_after }) if retry_after <= MAX_RATE_WAIT => {
                tokio::time::sleep(retry_after).await;
                continue;
            }
            Err(e) => e,
        };
        let reason = error.advice();
        match failure(&error) {
            Failure::Channel => {
                tracing::warn!(server = %channel.server_id, channel = %channel.channel_id, error = %error, "log channel refused; its entries are no longer tried");
                crate::metrics::count(&cx.outcomes, "channel_failed", ids.len() as u64);
                let key = channel.clone();
                cx.store
                    .write(move |tx| outbox::fail_channel(tx, &key, &reason, now))
                    .await?;
                return Ok(posted);
            }
            Failure::Post if ids.len() > 1 => {
                // Which entry is malformed is not said: find it alone.
                one_at_a_time = true;
            }
            // A second entry refused alone, none passing in between: two
            // malformed posts in a row is far less likely than a chat that
            // refuses every post in a way the platform words as a bad
            // request (a refusal `platform` does not recognise yet), so it
            // is the channel's, its entries failed and shown in onboarding
            // rather than given up one by one.
            Failure::Post if suspect.is_some() => {
                tracing::warn!(server = %channel.server_id, channel = %channel.channel_id, error = %error, "two log posts in a row refused as malformed: taken for the channel refusing; its entries are no longer tried");
                crate::metrics::count(&cx.outcomes, "channel_failed", ids.len() as u64);
                let key = channel.clone();
                cx.store
                    .write(move |tx| outbox::fail_channel(tx, &key, &reason, now))
                    .await?;
                return Ok(posted);
            }
            Failure::Post => {
                // Refused alone: the post's fault if another entry passes
                // next (then this one is given up), the channel's if it is
                // refused too.
                suspect = Some((ids[0], reason));
                one_at_a_time = true;
            }
            Failure::Connection | Failure::Passing => {
                let attempts = waiting.first().map_or(0, |w| w.attempts);
                let at = now + backoff(attempts);
                tracing::info!(server = %channel.server_id, channel = %channel.channel_id, error = %error, "log post failed; tried again later");
                crate::metrics::count(&cx.outcomes, "retry", ids.len() as u64);
                cx.store
                    .write(move |tx| outbox::retry_later(tx, &ids, at, &reason))
                    .await?;
                return Ok(posted);
            }
        }
    }
}

/// Deletes the failed and given-up entries older than [`RETENTION`] on
/// `clock` (the log retention worker's tick); answers how many went.
pub async fn purge_ended(store: &Store, clock: &Clock) -> Result<usize, StoreError> {
    let before = clock.now_unix() - RETENTION.as_secs() as i64;
    let mut purged = 0;
    loop {
        let done = store
            .write(move |tx| outbox::purge_ended(tx, before, PURGE_AT_ONCE))
            .await?;
        purged += done;
        if done < PURGE_AT_ONCE as usize {
            return Ok(purged);
        }
    }
}

/// Gives up entry `id` of `channel` (one of `waiting`), refused as
/// malformed with `reason`: a bug of the daemon in what it posted, logged
/// as an error.
async fn give_up(
    cx: &LogDelivery,
    channel: &DueChannel,
    waiting: &[Waiting],
    id: i64,
    reason: String,
    now: i64,
) -> Result<(), StoreError> {
    let kind = waiting.iter().find(|w| w.id == id).map(|w| w.kind.clone());
    tracing::error!(server = %channel.server_id, channel = %channel.channel_id, entry = id, kind = ?kind, error = %reason, "the platform refused a log post as malformed (a bug of the daemon): this entry is given up, the channel's others are posted");
    crate::metrics::count(&cx.outcomes, "given_up", 1);
    cx.store
        .write(move |tx| outbox::give_up(tx, id, &reason, now))
        .await
}

/// The entries as posts with their ids, and the ids of those that cannot
/// be read.
fn rendered(waiting: &[Waiting], locale: &str) -> (Vec<(i64, Post)>, Vec<i64>) {
    let mut posts = Vec::new();
    let mut unreadable = Vec::new();
    for entry in waiting {
        match serde_json::from_str::<LogEntry>(&entry.entry) {
            Ok(log) => posts.push((entry.id, render(&log, locale))),
            Err(_) => unreadable.push(entry.id),
        }
    }
    (posts, unreadable)
}

/// Whose problem a failed post is, which decides what becomes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// The channel is gone or refuses the bot, for good: retrying would get
    /// the same answer until someone fixes it on the platform.
    Channel,
    /// The bot's token was refused: every channel of the server would say
    /// so; retried (with backoff) until the connection is fixed.
    Connection,
    /// The platform refused this request as malformed: the daemon's bug in
    /// one post, not the channel's.
    Post,
    /// Anything that may pass (5xx, timeouts, the network, rate limits).
    Passing,
}

/// Whose problem `error` is (see the module's "Failures").
fn failure(error: &PlatformError) -> Failure {
    match error {
        // Unsupported: the platform (the simulator) cannot post there at
        // all, which only a change of the channel or connection mends.
        PlatformError::NotFound(_)
        | PlatformError::Forbidden(_)
        | PlatformError::Unsupported(_) => Failure::Channel,
        PlatformError::Unauthorized => Failure::Connection,
        PlatformError::Invalid(_) => Failure::Post,
        PlatformError::RateLimited { .. }
        | PlatformError::Server { .. }
        | PlatformError::Timeout
        | PlatformError::Transport(_)
        | PlatformError::Interrupted(_) => Failure::Passing,
    }
}

/// Seconds until the next attempt after `attempts` failed ones: 5, 10, 20,
/// ... up to [`MAX_BACKOFF_SECONDS`].
fn backoff(attempts: i64) -> i64 {
    let doubled = 5_i64.saturating_mul(1_i64 << attempts.clamp(0, 16));
    doubled.min(MAX_BACKOFF_SECONDS)
}

/// The pace of posts per channel, for the platforms whose limits are not
/// announced before they refuse (Slack, Telegram): the times of the latest
/// posts of each channel, in monotonic time (a rate limit is about real
/// seconds, not the daemon's clock).
#[derive(Debug, Clone, Default)]
pub struct Pace {
    sent: Arc<Mutex<HashMap<DueChannel, VecDeque<Instant>>>>,
}

/// `(posts, per)`: at most `posts` in any `per`, for a channel of
/// `platform`. Discord's are followed by its adapter, the simulator has
/// none.
fn limits(platform: Platform) -> &'static [(usize, Duration)] {
    const SLACK: &[(usize, Duration)] = &[(1, Duration::from_secs(1))];
    const TELEGRAM: &[(usize, Duration)] =
        &[(1, Duration::from_secs(1)), (20, Duration::from_secs(60))];
    match platform {
        Platform::Slack => SLACK,
        Platform::Telegram => TELEGRAM,
        Platform::Discord => &[],
        other => crate::platform::new_platform(other),
    }
}

/// The wait before the next post, given the times of the latest posts
/// (oldest first) at `now`: none while every limit has room.
fn wait_for(sent: &VecDeque<Instant>, limits: &[(usize, Duration)], now: Instant) -> Duration {
    limits
        .iter()
        .filter_map(|&(posts, per)| {
            // The post `posts` back must be more than `per` ago.
            let index = sent.len().checked_sub(posts)?;
            let free_at = sent[index] + per;
            free_at.checked_duration_since(now)
        })
        .max()
        .unwrap_or_default()
}

impl Pace {
    /// Waits until a post to `channel` keeps within `platform`'s limits.
    async fn wait(&self, platform: Platform, channel: &DueChannel) {
        let limits = limits(platform);
        if limits.is_empty() {
            return;
        }
        let wait = {
            let sent = self.sent.lock().expect("pace lock");
            sent.get(channel)
                .map(|s| wait_for(s, limits, Instant::now()))
                .unwrap_or_default()
        };
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }

    /// Notes a post to `channel` now (made or refused: both count).
    fn sent(&self, platform: Platform, channel: &DueChannel) {
        let limits = limits(platform);
        let Some(keep) = limits.iter().map(|&(posts, _)| posts).max() else {
            return;
        };
        let mut sent = self.sent.lock().expect("pace lock");
        let times = sent.entry(channel.clone()).or_default();
        times.push_back(Instant::now());
        while times.len() > keep {
            times.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_ten_minutes() {
        for (attempts, seconds) in [(0, 5), (1, 10), (2, 20), (6, 320), (7, 600), (60, 600)] {
            assert_eq!(backoff(attempts), seconds, "{attempts}");
        }
    }

    #[test]
    fn each_failure_is_the_channel_s_the_connection_s_the_post_s_or_passing() {
        for (error, whose) in [
            (
                PlatformError::NotFound("channel_not_found".into()),
                Failure::Channel,
            ),
            (
                PlatformError::NotFound("Bad Request: chat not found".into()),
                Failure::Channel,
            ),
            (
                PlatformError::Forbidden("not_in_channel".into()),
                Failure::Channel,
            ),
            (PlatformError::Unsupported("posts"), Failure::Channel),
            (PlatformError::Unauthorized, Failure::Connection),
            (
                PlatformError::Invalid("Invalid Form Body (embeds.0.title: too long)".into()),
                Failure::Post,
            ),
            (
                PlatformError::Invalid("Bad Request: can't parse entities".into()),
                Failure::Post,
            ),
            (
                PlatformError::RateLimited {
                    retry_after: Duration::from_secs(1),
                },
                Failure::Passing,
            ),
            (
                PlatformError::Server {
                    status: 502,
                    message: String::new(),
                },
                Failure::Passing,
            ),
            (PlatformError::Timeout, Failure::Passing),
            (PlatformError::Transport("refused".into()), Failure::Passing),
            (PlatformError::Interrupted("reset".into()), Failure::Passing),
        ] {
            assert_eq!(failure(&error), whose, "{error:?}");
        }
    }

    #[test]
    fn the_pace_waits_for_the_oldest_post_of_each_limit() {
        let start = Instant::now();
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        let telegram = limits(Platform::Telegram);
        let at = |offsets: &[u64]| -> VecDeque<Instant> {
            offsets.iter().map(|&o| start + ms(o)).collect()
        };
        for (sent, now, want) in [
            // Nothing sent: no wait.
            (at(&[]), start, Duration::ZERO),
            // One a second.
            (at(&[0]), start + ms(400), ms(600)),
            (at(&[0]), start + s(2), Duration::ZERO),
            // Twenty a minute: the 21st waits for the first to be a
            // minute old.
            (
                (0..20).map(|i| start + s(i * 2)).collect(),
                start + s(40),
                s(20),
            ),
        ] {
            assert_eq!(wait_for(&sent, telegram, now), want);
        }
        assert!(
            limits(Platform::Discord).is_empty(),
            "the adapter follows Discord's"
        );
    }
}
