//! Batches posted to `POST /servers/{id}/activity`, written together.
//!
//! # Why batches are written together
//!
//! What a batch costs the writer is mostly per distinct member and channel
//! in it (their day rows and the top lists' running totals, a few B-tree
//! writes each), not per event. Bots and importers posting at once send
//! batches about the same members: written one by one, every batch rewrites
//! those members' rows. So batches that arrive while a write of batches is
//! under way wait in a [`BatchQueue`], and the next write takes all of them
//! (up to [`MAX_EVENTS_PER_WRITE`]) and counts each server's as one
//! aggregate ([`rollups::ingest_batches`]): each member's rows are written
//! once for all of them.
//!
//! Nothing a client sees changes:
//! - each batch gets its own receipt, counted exactly as if the batches had
//!   been written one after the other in the order they arrived (a
//!   duplicate id is a duplicate of the first event that held it, in
//!   whichever batch);
//! - a batch is answered only once the commit that holds it is durable;
//! - a failure stays with its server: each server's batches are counted in
//!   a savepoint of their own, so one server's error does not fail the
//!   others' batches of the same write;
//! - a lone batch is written at once: grouping happens only when batches
//!   already wait, so it adds no latency;
//! - each batch is admitted against its team's daily quota on its own, in
//!   the order the batches came ([`count_group`]).
//!
//! The writes are run by a drain task (tracked with the daemon's other
//! in-flight work, so shutdown waits for it), never by a request: a client
//! that hangs up does not take the other batches' answers with it, and its
//! own batch is still written.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;
use tokio_util::task::TaskTracker;

use super::ActivityEvent;
use crate::plans;
use crate::store::activity::{self as rollups, Ingested};
use crate::store::days::{DayFinder, server_timezone};
use crate::store::{self, Store, StoreError, Tx, teams};

/// The most events one write takes from the queue. Bounds how long a
/// batch waits behind the others of its write, and the write's memory.
pub const MAX_EVENTS_PER_WRITE: usize = 100_000;

/// Batches waiting for the writer; see the module header. Cheap to clone;
/// clones share the queue.
#[derive(Debug, Clone, Default)]
pub struct BatchQueue {
    inner: Arc<Mutex<Queue>>,
}

#[derive(Debug, Default)]
struct Queue {
    waiting: VecDeque<Posted>,
    /// Whether a drain task is running (or about to); it empties the queue
    /// before it ends.
    draining: bool,
}

/// Why a batch was not counted.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// It would pass its team's daily quota; nothing of it was counted.
    #[error(transparent)]
    Quota(#[from] plans::QuotaExceeded),
    /// Its server is no longer its team's claim, or the store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A validated batch, who posted it, and where its receipt goes.
#[derive(Debug)]
struct Posted {
    batch: Batch,
    reply: oneshot::Sender<Result<Ingested, BatchError>>,
}

/// A validated batch of a server, as posted by a key of `team_id`.
#[derive(Debug)]
pub struct Batch {
    /// The team whose key posted it: the server must still be its claim
    /// when the batch is written.
    pub team_id: i64,
    /// The server (as claimed).
    pub server_id: String,
    /// The events, validated.
    pub events: Vec<ActivityEvent>,
    /// When it was received (unix seconds).
    pub now: i64,
    /// Its share of the memory budget ([`super::budget`]), given back when
    /// the batch is dropped: once it is written, or refused.
    pub permit: Option<super::budget::Permit>,
}

impl BatchQueue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // The queue is valid whatever a panicking holder was doing.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes the batches waiting, oldest first, up to
    /// [`MAX_EVENTS_PER_WRITE`] events (always at least one batch); or
    /// marks the queue as no longer drained when none wait.
    fn take(&self) -> Vec<Posted> {
        let mut queue = self.lock();
        let mut taken = Vec::new();
        let mut events = 0;
        while let Some(next) = queue.waiting.front() {
            let len = next.batch.events.len();
            if !taken.is_empty() && events + len > MAX_EVENTS_PER_WRITE {
                break;
            }
            events += len;
            taken.extend(queue.waiting.pop_front());
        }
        if taken.is_empty() {
            queue.draining = false;
        }
        taken
    }
}

/// Counts `batch` into the rollups and returns what was counted once that
/// is durable. Written into `store` with whatever other batches wait in
/// `queue` for the writer, by a drain task tracked in `in_flight`.
pub async fn post(
    queue: &BatchQueue,
    store: &Store,
    in_flight: &TaskTracker,
    batch: Batch,
) -> Result<Ingested, BatchError> {
    let (reply, receipt) = oneshot::channel();
    let start_draining = {
        let mut queue = queue.lock();
        queue.waiting.push_back(Posted { batch, reply });
        !std::mem::replace(&mut queue.draining, true)
    };
    if start_draining {
        // Made before the task is spawned: a task dropped before it ever
        // runs (the runtime shutting down) still ends the drain.
        let guard = DrainGuard {
            queue: queue.clone(),
            ended: false,
        };
        let store = store.clone();
        in_flight.spawn(async move { drain(&store, guard).await });
    }
    receipt.await.map_err(|_| {
        BatchError::Store(StoreError::abandoned(
            "the write of this activity batch was abandoned (the daemon is stopping, or a bug); \
             it may or may not have been counted: post it again, counted ids are skipped",
        ))
    })?
}

/// Writes the batches queued in the guard's queue, a write at a time,
/// until none wait.
async fn drain(store: &Store, mut guard: DrainGuard) {
    loop {
        let taken = guard.queue.take();
        if taken.is_empty() {
            guard.ended = true;
            return;
        }
        let (batches, replies): (Vec<Batch>, Vec<_>) =
            taken.into_iter().map(|p| (p.batch, p.reply)).unzip();
        let written = store
            .write_alone(move |tx| write_batches(tx, batches))
            .await;
        match written {
            Ok(receipts) => {
                for (reply, receipt) in replies.into_iter().zip(receipts) {
                    // The client may have gone: its batch is written anyway.
                    let _ = reply.send(receipt);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, batches = replies.len(), "cannot write activity batches");
                for reply in replies {
                    let _ = reply.send(Err(e.copy().into()));
                }
            }
        }
    }
}

/// Ends a drain that did not end by emptying the queue: a write panicked,
/// or the runtime dropped the task (perhaps before it ever ran). The
/// batches still waiting are dropped, so their posters get an error (500,
/// "post it again") instead of waiting for an answer that would never
/// come, and the next batch posted starts a new drain. Deliberately not a
/// retry: the write that panicked would likely panic again.
struct DrainGuard {
    queue: BatchQueue,
    ended: bool,
}

impl Drop for DrainGuard {
    fn drop(&mut self) {
        if !self.ended {
            let mut queue = self.queue.lock();
            queue.waiting.clear();
            queue.draining = false;
        }
    }
}

/// Counts `batches` in order, each server's together, and returns each
/// batch's receipt: `NotFound` for a batch whose server is no longer its
/// team's claim, or the error that stopped its server's count (rolled back
/// alone, in a savepoint).
fn write_batches(
    tx: &Tx<'_>,
    batches: Vec<Batch>,
) -> Result<Vec<Result<Ingested, BatchError>>, StoreError> {
    // Each (team, server)'s batches, in the order they came.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<(i64, &str), usize> = HashMap::new();
    for (i, batch) in batches.iter().enumerate() {
        let group = *group_of
            .entry((batch.team_id, batch.server_id.as_str()))
            .or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
        groups[group].push(i);
    }
    let mut receipts: Vec<Option<Result<Ingested, BatchError>>> =
        batches.iter().map(|_| None).collect();
    // One server's batches need no savepoint of their own: if counting them
    // fails, the whole write fails and is rolled back, which is the same for
    // their posters, and a savepoint holds a copy of every page it changes
    // (see the store's writer).
    let alone = groups.len() == 1;
    for group in groups {
        let server_id = batches[group[0]].server_id.clone();
        let counted = if alone {
            Ok(count_group(tx, &batches, &group)?)
        } else {
            store::in_savepoint(tx, || count_group(tx, &batches, &group))?
        };
        match counted {
            Ok(Some(counted)) => {
                for (&i, receipt) in group.iter().zip(counted) {
                    receipts[i] = Some(receipt);
                }
            }
            Ok(None) => {
                for &i in &group {
                    receipts[i] = Some(Err(StoreError::NotFound(format!(
                        "server {server_id} is no longer claimed by your team"
                    ))
                    .into()));
                }
            }
            Err(e) => {
                tracing::error!(error = %e, server = server_id, "cannot count activity batches");
                for &i in &group {
                    receipts[i] = Some(Err(e.copy().into()));
                }
            }
        }
    }
    Ok(receipts
        .into_iter()
        .map(|r| r.expect("every batch is in a group"))
        .collect())
}

/// Counts the batches `group` of `batches` (one server's, in order) as one
/// aggregate and returns each one's receipt, or its refusal when it would
/// pass the team's daily quota ([`plans::check_activity_quota`]); `None` if
/// the server is no longer the posting team's claim. The events are read
/// where they are, never copied into one list.
fn count_group(
    tx: &Tx<'_>,
    batches: &[Batch],
    group: &[usize],
) -> Result<Option<Vec<Result<Ingested, BatchError>>>, StoreError> {
    let first = &batches[group[0]];
    let (team_id, server_id) = (first.team_id, first.server_id.as_str());
    if !rollups::claimed_by(tx, server_id, team_id)? {
        return Ok(None);
    }
    // The quota's day is the day the batches were received (UTC). Each
    // batch is admitted whole against what is counted so far plus its
    // size, in the order the batches came.
    let team = teams::get(tx, team_id)?;
    let own = teams::activity_quota(tx, team_id)?;
    let day = rollups::utc_day(first.now);
    let mut used = rollups::quota_used(tx, team_id, day)?;
    let mut receipts: Vec<Option<Result<Ingested, BatchError>>> =
        group.iter().map(|_| None).collect();
    let mut events: Vec<&[ActivityEvent]> = Vec::with_capacity(group.len());
    let mut admitted = Vec::with_capacity(group.len());
    let mut now = i64::MIN;
    for (k, &i) in group.iter().enumerate() {
        let batch = &batches[i];
        let size = batch.events.len() as u64;
        if let Err(exceeded) = plans::check_activity_quota(&team, own, used, size, batch.now) {
            receipts[k] = Some(Err(exceeded.into()));
            continue;
        }
        used += size;
        admitted.push(k);
        events.push(&batch.events[..]);
        now = now.max(batch.now);
    }
    if !admitted.is_empty() {
        let mut days = DayFinder::new(server_timezone(tx, server_id)?);
        let counted = rollups::ingest_batches(tx, server_id, &events, &mut days, now)?;
        let spent: usize = counted.iter().map(|c| c.counted).sum();
        rollups::add_quota_used(tx, team_id, day, spent as u64)?;
        for (k, receipt) in admitted.into_iter().zip(counted) {
            receipts[k] = Some(Ok(receipt));
        }
    }
    Ok(Some(
        receipts
            .into_iter()
            .map(|r| r.expect("every batch is admitted or refused"))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc as std_mpsc;

    use modctl_types::activity::ActivityKind;
    use modctl_types::{Plan, Platform, Timestamp};

    use super::*;
    use crate::store::{Store, servers, teams, testing};

    const GUILD: &str = "100000000000000001";
    const GONE: &str = "100000000000000002";
    /// 2026-11-22T12:00:00Z.
    const NOON: i64 = 1_795_348_800;

    fn message(server: &str, id: &str, user: &str) -> ActivityEvent {
        ActivityEvent {
            server_id: server.into(),
            event_id: Some(id.into()),
            kind: ActivityKind::Message,
            user_id: user.into(),
            channel_id: Some("c".into()),
            at: Timestamp::from_second(NOON).unwrap(),
            minutes: 0,
        }
    }

    fn batch(server: &str, ids_and_users: &[(&str, &str)]) -> Vec<ActivityEvent> {
        ids_and_users
            .iter()
            .map(|(id, user)| message(server, id, user))
            .collect()
    }

    fn posted(team_id: i64, server: &str, events: Vec<ActivityEvent>) -> Batch {
        Batch {
            team_id,
            server_id: server.into(),
            events,
            now: NOON,
            permit: None,
        }
    }

    /// A store where team `alpha` claims `claims`, and the team's id.
    async fn store_claiming(claims: &'static [&'static str]) -> (tempfile::TempDir, Store, i64) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let team = store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro, 0)?;
                for (i, id) in claims.iter().enumerate() {
                    servers::insert(tx, team.id, Platform::Discord, id, &format!("s{i}"), 0)?;
                }
                Ok::<_, StoreError>(team.id)
            })
            .await
            .unwrap();
        (dir, store, team)
    }

    fn receipt(counted: usize, duplicates: usize) -> Ingested {
        Ingested {
            counted,
            duplicates,
        }
    }

    /// Batches posted while the writer is busy are written together, each
    /// with the receipt it would have had alone, in the order posted; a
    /// batch whose server went meanwhile is refused alone.
    #[tokio::test]
    async fn batches_waiting_for_the_writer_are_written_together_as_if_one_by_one() {
        let (_dir, store, team) = store_claiming(&[GUILD, GONE]).await;
        let (queue, in_flight) = (BatchQueue::default(), TaskTracker::new());

        // Hold the writer; the held write unclaims GONE when released.
        let (started, has_started) = std_mpsc::channel();
        let (release, released) = std_mpsc::channel::<()>();
        let held = store.write(move |tx| {
            started.send(()).unwrap();
            released.recv().unwrap();
            testing::drop_server(tx, GONE)
        });
        has_started.recv().unwrap();
        let before = store.writer_stats();

        let posts = [
            (
                GUILD,
                batch(GUILD, &[("a", "u1"), ("b", "u2"), ("b", "u3")]),
            ),
            (GUILD, batch(GUILD, &[("b", "u2"), ("c", "u2")])),
            (GONE, batch(GONE, &[("x", "u9")])),
            (GUILD, batch(GUILD, &[("a", "u1"), ("d", "u4")])),
        ];
        // Spawned in this order on the test's one thread, they queue in it.
        let tasks: Vec<_> = posts
            .into_iter()
            .map(|(server, events)| {
                let (queue, store, in_flight) = (queue.clone(), store.clone(), in_flight.clone());
                tokio::spawn(async move {
                    post(&queue, &store, &in_flight, posted(team, server, events)).await
                })
            })
            .collect();
        tokio::task::yield_now().await;
        release.send(()).unwrap();
        held.await.unwrap();

        let mut receipts = Vec::new();
        for task in tasks {
            receipts.push(task.await.unwrap());
        }
        assert_eq!(
            receipts[0].as_ref().unwrap(),
            &receipt(2, 1),
            "a, b; b again"
        );
        assert_eq!(
            receipts[1].as_ref().unwrap(),
            &receipt(1, 1),
            "c; b was counted"
        );
        assert!(
            matches!(&receipts[2], Err(BatchError::Store(StoreError::NotFound(m))) if m.contains(GONE)),
            "{:?}",
            receipts[2]
        );
        assert_eq!(
            receipts[3].as_ref().unwrap(),
            &receipt(1, 1),
            "d; a was counted"
        );
        let after = store.writer_stats();
        assert_eq!(
            after.writes - before.writes,
            2,
            "the held write, then one write for the four batches"
        );

        let days = store
            .read(|tx| rollups::days_between(tx, GUILD, i64::MIN, i64::MAX))
            .await
            .unwrap();
        let (messages, active) = (days[0].messages, days[0].active_members);
        assert_eq!(days.len(), 1, "{days:?}");
        assert_eq!(
            (messages, active),
            (4, 3),
            "a by u1, b and c by u2, d by u4"
        );
    }

    /// A batch posted alone is written at once, and the queue is ready for
    /// the next one afterwards.
    #[tokio::test]
    async fn a_lone_batch_is_written_alone_and_the_next_starts_a_new_drain() {
        let (_dir, store, team) = store_claiming(&[GUILD]).await;
        let (queue, in_flight) = (BatchQueue::default(), TaskTracker::new());
        for (i, id) in ["a", "b"].into_iter().enumerate() {
            let batch = posted(team, GUILD, batch(GUILD, &[(id, "u1")]));
            let done = post(&queue, &store, &in_flight, batch).await.unwrap();
            assert_eq!(done, receipt(1, 0), "batch {i}");
            // The drain took the queue again, found it empty and ended
            // before this task ran again: on the test's one thread it runs
            // from sending the receipt to that check without yielding.
            assert!(!queue.lock().draining, "batch {i}");
        }
        // A key of another team cannot write to it (the server was
        // unclaimed and claimed again while the batch waited, say).
        let refused = post(
            &queue,
            &store,
            &in_flight,
            posted(team + 1, GUILD, batch(GUILD, &[("c", "u1")])),
        )
        .await;
        assert!(
            matches!(refused, Err(BatchError::Store(StoreError::NotFound(_)))),
            "{refused:?}"
        );
    }

    /// When counting one server's batches fails, that server's batches get
    /// the error and are rolled back; the other servers' batches of the
    /// same write are counted and committed.
    #[tokio::test]
    async fn a_server_whose_count_fails_fails_alone() {
        let (_dir, store, team) = store_claiming(&[GUILD, GONE]).await;
        store
            .write(|tx| {
                // On the writer's connection only: the day rows of GONE
                // cannot be written.
                testing::refuse_inserts(tx, "activity_member_days", GONE)
            })
            .await
            .unwrap();
        let batches = vec![
            posted(team, GONE, batch(GONE, &[("a", "u1")])),
            posted(team, GUILD, batch(GUILD, &[("a", "u1")])),
        ];
        let receipts = store
            .write(move |tx| write_batches(tx, batches))
            .await
            .unwrap();
        assert!(receipts[0].is_err(), "{:?}", receipts[0]);
        assert_eq!(receipts[1].as_ref().unwrap(), &receipt(1, 0));
        let counted: Vec<(String, i64)> = store
            .read(|tx| testing::rows_by_server(tx, "activity_seen"))
            .await
            .unwrap();
        assert_eq!(
            counted,
            [(GUILD.to_owned(), 1)],
            "GONE's id was rolled back"
        );
    }

    /// A write takes at most `MAX_EVENTS_PER_WRITE` events, oldest first,
    /// but always at least one batch; the rest wait for the next write.
    #[test]
    fn a_write_takes_the_oldest_batches_up_to_the_event_cap() {
        let queue = BatchQueue::default();
        let events = |n: usize| vec![message(GUILD, "x", "u"); n];
        let mut receipts = Vec::new();
        for n in [60_000, 40_000, 1, MAX_EVENTS_PER_WRITE + 1] {
            let (reply, receipt) = oneshot::channel();
            receipts.push(receipt);
            let batch = posted(1, GUILD, events(n));
            queue.lock().waiting.push_back(Posted { batch, reply });
        }
        let sizes = |taken: Vec<Posted>| -> Vec<usize> {
            taken.iter().map(|p| p.batch.events.len()).collect()
        };
        queue.lock().draining = true;
        assert_eq!(sizes(queue.take()), [60_000, 40_000]);
        assert_eq!(sizes(queue.take()), [1]);
        assert_eq!(sizes(queue.take()), [MAX_EVENTS_PER_WRITE + 1], "alone");
        assert!(queue.lock().draining);
        assert!(queue.take().is_empty());
        assert!(!queue.lock().draining, "an empty queue ends the drain");
    }
}
