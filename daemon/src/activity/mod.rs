//! Community activity: events received from the platforms (Discord gateway,
//! Slack Events API, Telegram updates) or posted in batches, aggregated into
//! daily rollups for the community insights.
//!
//! Every source turns what it receives into [`ActivityEvent`]s, so the
//! aggregation does not know or care where an event came from:
//! - events received from the platforms reach [`events::ActivityCounter`],
//!   a consumer of the event path ([`crate::events`]), which calls
//!   [`Ingestor::record`] (the daemon keeps one; Discord voice states go
//!   through the voice sessions, [`voice`]), and the flush worker
//!   ([`flush`]) writes the buffer in one transaction per interval; the
//!   `/hooks` endpoints count theirs with [`count_now`] before answering;
//! - the batch endpoint writes its events before it answers, together with
//!   the other batches waiting for the writer ([`batches`]);
//! - both go through [`crate::store::activity::ingest_batches`], into daily rollups
//!   in the server's time zone ([`crate::store::days`]).

pub mod batches;
pub mod budget;
pub mod events;
pub mod insights;
pub mod voice;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::clock::Clock;
use crate::store::days;
use crate::store::{Store, StoreError, Tx, activity as rollups};

pub use crate::store::activity::ActivityEvent;

/// The most events [`Ingestor::record`] holds between two flushes. Past it,
/// events are dropped (and counted): a stalled disk must not turn into an
/// unbounded heap. A million events is about 100 MiB, tens of seconds of the
/// busiest gateway.
pub const MAX_PENDING: usize = 1_000_000;

/// Where the platform receivers hand their events: a buffer in memory,
/// written into the rollups by the flush worker ([`flush`]) in one
/// transaction per interval (group commit). A crash loses at most the
/// events of the last interval, which is the price of not paying an fsync
/// per message; events that must be durable when acknowledged go through
/// the batch endpoint instead, which writes before it answers.
///
/// Cheap to clone; clones share the buffer.
#[derive(Debug, Clone, Default)]
pub struct Ingestor {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    pending: Mutex<Pending>,
    /// Events dropped because the buffer was full.
    dropped: AtomicU64,
}

/// Events per server, waiting for the next flush.
#[derive(Debug, Default)]
struct Pending {
    by_server: HashMap<Arc<str>, Vec<ActivityEvent>>,
    len: usize,
}

impl Ingestor {
    /// Takes `event` for the next flush. Never waits for the database: it
    /// only takes a lock held for a push (or a swap, by the flush).
    pub fn record(&self, event: ActivityEvent) {
        let mut pending = self.lock();
        if pending.len >= MAX_PENDING {
            drop(pending);
            let dropped = self.inner.dropped.fetch_add(1, Ordering::Relaxed);
            // One line per 10,000 drops, not one per event.
            if dropped.is_multiple_of(10_000) {
                tracing::warn!(
                    dropped = dropped + 1,
                    "activity buffer full (the database is not keeping up): dropping events"
                );
            }
            return;
        }
        pending.len += 1;
        pending
            .by_server
            .entry(event.server_id.clone())
            .or_default()
            .push(event);
    }

    /// Events waiting for the next flush.
    pub fn pending(&self) -> usize {
        self.lock().len
    }

    /// Events dropped because the buffer was full, since the daemon started.
    pub fn dropped(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    fn take(&self) -> Pending {
        std::mem::take(&mut *self.lock())
    }

    /// Puts back events a failed flush took, ahead of those recorded since.
    fn put_back(&self, mut taken: Pending) {
        let mut pending = self.lock();
        for (server, mut newer) in std::mem::take(&mut pending.by_server) {
            taken
                .by_server
                .entry(server)
                .or_default()
                .append(&mut newer);
        }
        taken.len += pending.len;
        *pending = taken;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        // A panic while holding the lock leaves a valid buffer behind.
        self.inner
            .pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The flush worker's tick: writes every event buffered in `ingestor` into
/// the rollups in one transaction, each in its server's time zone, and
/// returns how many were counted. Events of servers nobody claimed, older than the retention
/// window or more than [`MAX_FUTURE_SECONDS`] ahead of the clock are
/// dropped. If the write fails, the events go back into the buffer for the
/// next tick.
pub async fn flush(ingestor: &Ingestor, store: &Store, clock: &Clock) -> Result<usize, StoreError> {
    let taken = ingestor.take();
    if taken.len == 0 {
        return Ok(0);
    }
    let taken = Arc::new(taken);
    let now = clock.now_unix();
    let batch = taken.clone();
    let written = store
        .write(move |tx| {
            let mut counted = 0;
            for (server, events) in &batch.by_server {
                counted += count_received(tx, server, events, now)?;
            }
            Ok::<_, StoreError>(counted)
        })
        .await;
    match written {
        Ok(counted) => Ok(counted),
        Err(e) => {
            let taken = Arc::try_unwrap(taken).unwrap_or_else(|shared| Pending {
                by_server: shared.by_server.clone(),
                len: shared.len,
            });
            ingestor.put_back(taken);
            Err(e)
        }
    }
}

/// Counts events a platform pushed for `server` and answers once they are
/// durable: how many counted (an id already counted counts 0).
///
/// For the hooks whose caller takes the answer as "received": Slack does
/// not send an event again once it was answered 200, so an event that sat
/// in the [`Ingestor`]'s buffer when the daemon died would be lost for
/// good. The event's id is remembered in the same transaction as its count
/// ([`rollups::ingest`]), so a retry after a failure counts it once.
pub async fn count_now(
    store: &Store,
    clock: &Clock,
    server: String,
    events: Vec<ActivityEvent>,
) -> Result<usize, StoreError> {
    if events.is_empty() {
        return Ok(0);
    }
    let now = clock.now_unix();
    store
        .write(move |tx| count_received(tx, &server, &events, now))
        .await
}

/// Counts `events` of `server` as received from its platform: dropped when
/// nobody claims the server, or when older than the retention window or more
/// than [`MAX_FUTURE_SECONDS`] ahead of `now`.
fn count_received(
    tx: &Tx<'_>,
    server: &str,
    events: &[ActivityEvent],
    now: i64,
) -> Result<usize, StoreError> {
    if !rollups::server_exists(tx, server)? {
        tracing::debug!(
            server,
            events = events.len(),
            "activity for an unclaimed server dropped"
        );
        return Ok(0);
    }
    let oldest = rollups::oldest_accepted(now);
    let events: Vec<ActivityEvent> = events
        .iter()
        .filter(|e| (oldest..=now + MAX_FUTURE_SECONDS).contains(&e.at.as_second()))
        .cloned()
        .collect();
    let mut finder = days::DayFinder::new(days::server_timezone(tx, server)?);
    Ok(rollups::ingest(tx, server, &events, &mut finder, now)?.counted)
}

/// How far ahead of the clock an event may be (platform clocks and ours
/// disagree a little); beyond it an event is refused, or dropped.
pub const MAX_FUTURE_SECONDS: i64 = 15 * 60;

/// The retention worker's tick: moves the top lists' running totals to the
/// windows they cover ending today, the year and the default month
/// ([`crate::store::ranking::advance`]),
/// then deletes per-member rows and remembered event ids older than
/// [`rollups::RETENTION_DAYS`]; returns how many rows went. In one
/// transaction, in this order, so no day row is deleted before the totals
/// let go of it.
pub async fn prune(store: &Store, clock: &Clock) -> Result<usize, StoreError> {
    let now = clock.now_unix();
    store
        .write(move |tx| {
            crate::store::ranking::advance(tx, |tx, server| {
                Ok(days::DayFinder::new(days::server_timezone(tx, server)?).today(now))
            })?;
            rollups::prune(tx, now)
        })
        .await
}
