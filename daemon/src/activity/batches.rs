//! Batches posted to `POST /servers/{id}/activity`, written together.
//!
//! # Why batches are written together
//!
//! What a batch costs the writer is mostly per distinct member and channel
//! in it (their day rows and the top lists' running totals, a few B-tree
//! writes each), not per event. Bots and importers posting at once send
//! batches about the same members: written one by one, every batch rewrites
//! those members' rows. So batches that arrive while the writer is busy wait
//! in a [`BatchQueue`], and the next write takes all of them (up to
//! [`MAX_EVENTS_PER_WRITE`]) and counts them as one aggregate
//! ([`rollups::ingest_batches`]): each member's rows are written once for
//! all of them.
//!
//! Nothing a client sees changes:
//! - each batch gets its own receipt, counted exactly as if the batches had
//!   been written one after the other in the order they arrived (a
//!   duplicate id is a duplicate of the first event that held it, in
//!   whichever batch);
//! - a batch is answered only once the commit that holds it is durable;
//! - a lone batch is written at once: grouping happens only when batches
//!   already wait, so it adds no latency.
//!
//! The writes are run by a drain task (tracked with the daemon's other
//! in-flight work, so shutdown waits for it), never by a request: a client
//! that hangs up does not take the other batches' answers with it, and its
//! own batch is still written.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::ActivityEvent;
use super::days::{DayFinder, server_timezone};
use crate::AppState;
use crate::store::StoreError;
use crate::store::activity::{self as rollups, Ingested};

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
    /// Whether a drain task is running; it empties the queue before it ends.
    draining: bool,
}

/// A validated batch and where its receipt goes.
#[derive(Debug)]
struct Posted {
    server_id: String,
    events: Vec<ActivityEvent>,
    now: i64,
    reply: oneshot::Sender<Result<Ingested, StoreError>>,
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
            if !taken.is_empty() && events + next.events.len() > MAX_EVENTS_PER_WRITE {
                break;
            }
            events += next.events.len();
            taken.extend(queue.waiting.pop_front());
        }
        if taken.is_empty() {
            queue.draining = false;
        }
        taken
    }
}

/// Counts `events`, a validated batch of `server_id` received at `now` (unix
/// seconds), into the rollups, and returns what was counted once that is
/// durable. Written with whatever other batches wait for the writer.
pub async fn post(
    state: &AppState,
    server_id: String,
    events: Vec<ActivityEvent>,
    now: i64,
) -> Result<Ingested, StoreError> {
    let (reply, receipt) = oneshot::channel();
    let start_draining = {
        let mut queue = state.activity_batches.lock();
        queue.waiting.push_back(Posted {
            server_id,
            events,
            now,
            reply,
        });
        !std::mem::replace(&mut queue.draining, true)
    };
    if start_draining {
        let drain_state = state.clone();
        state
            .in_flight
            .spawn(async move { drain(&drain_state).await });
    }
    receipt.await.map_err(|_| {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ABORT),
            Some("the activity batch was dropped before it was written".into()),
        ))
    })?
}

/// Writes the queued batches, a write at a time, until none wait.
async fn drain(state: &AppState) {
    let mut guard = DrainGuard {
        queue: &state.activity_batches,
        ended: false,
    };
    loop {
        let taken = state.activity_batches.take();
        if taken.is_empty() {
            guard.ended = true;
            return;
        }
        let mut replies = Vec::with_capacity(taken.len());
        let mut batches = Vec::with_capacity(taken.len());
        for posted in taken {
            replies.push(posted.reply);
            batches.push((posted.server_id, posted.events, posted.now));
        }
        let written = state
            .store
            .write(move |tx| write_batches(tx, batches))
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
                    let _ = reply.send(Err(copy(&e)));
                }
            }
        }
    }
}

/// Ends a drain that did not end by emptying the queue (a write panicked,
/// or the runtime dropped the task): the batches still waiting are dropped,
/// so their posters get an error instead of waiting forever, and the next
/// batch posted starts a new drain.
struct DrainGuard<'a> {
    queue: &'a BatchQueue,
    ended: bool,
}

impl Drop for DrainGuard<'_> {
    fn drop(&mut self) {
        if !self.ended {
            let mut queue = self.queue.lock();
            queue.waiting.clear();
            queue.draining = false;
        }
    }
}

/// Counts `batches` (server, events, received at), in order, grouping each
/// server's batches into one aggregate; returns each batch's receipt, or
/// `NotFound` for a batch whose server was unclaimed since it was posted.
fn write_batches(
    tx: &rusqlite::Transaction<'_>,
    batches: Vec<(String, Vec<ActivityEvent>, i64)>,
) -> Result<Vec<Result<Ingested, StoreError>>, StoreError> {
    let mut receipts: Vec<Option<Result<Ingested, StoreError>>> =
        (0..batches.len()).map(|_| None).collect();
    // Each server's batches, in the order they came.
    let mut servers: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (server, _, _)) in batches.iter().enumerate() {
        match servers.iter_mut().find(|(s, _)| s == server) {
            Some((_, of_server)) => of_server.push(i),
            None => servers.push((server.clone(), vec![i])),
        }
    }
    let mut batches: Vec<_> = batches.into_iter().map(Some).collect();
    for (server, of_server) in servers {
        if !rollups::server_exists(tx, &server)? {
            for i in of_server {
                receipts[i] = Some(Err(StoreError::NotFound(format!(
                    "server {server} is no longer claimed"
                ))));
            }
            continue;
        }
        let mut events = Vec::new();
        let mut lengths = Vec::with_capacity(of_server.len());
        let mut now = i64::MIN;
        for &i in &of_server {
            let (_, mut batch, at) = batches[i].take().expect("each batch once");
            lengths.push(batch.len());
            events.append(&mut batch);
            now = now.max(at);
        }
        let mut days = DayFinder::new(server_timezone(tx, &server)?);
        let counted = rollups::ingest_batches(tx, &server, &events, &lengths, &mut days, now)?;
        for (i, receipt) in of_server.into_iter().zip(counted) {
            receipts[i] = Some(Ok(receipt));
        }
    }
    Ok(receipts
        .into_iter()
        .map(|r| r.expect("every batch has a receipt"))
        .collect())
}

/// A copy of `error` for each batch of a failed write (`StoreError` is not
/// `Clone`).
fn copy(error: &StoreError) -> StoreError {
    match error {
        StoreError::NotFound(m) => StoreError::NotFound(m.clone()),
        other => StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(other.to_string()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc as std_mpsc;

    use modctl_types::activity::ActivityKind;
    use modctl_types::{Plan, Platform, Timestamp};
    use rusqlite::params;

    use super::*;
    use crate::store::{Store, servers, teams};

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
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro)?;
                servers::claim(tx, team.id, Platform::Discord, GUILD, "a")?;
                servers::claim(tx, team.id, Platform::Discord, GONE, "b")?;
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        let state = AppState::new(store.clone());

        // Hold the writer; the held write unclaims GONE when released.
        let (started, has_started) = std_mpsc::channel();
        let (release, released) = std_mpsc::channel::<()>();
        let held = store.write(move |tx| {
            started.send(()).unwrap();
            released.recv().unwrap();
            tx.execute("DELETE FROM servers WHERE id = ?1", params![GONE])
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
                let state = state.clone();
                tokio::spawn(async move { post(&state, server.into(), events, NOON).await })
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
            matches!(&receipts[2], Err(StoreError::NotFound(m)) if m.contains(GONE)),
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

        let (messages, active): (i64, i64) = store
            .read(|tx| {
                tx.query_row(
                    "SELECT messages, active_members FROM activity_days WHERE server_id = ?1",
                    [GUILD],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
            })
            .await
            .unwrap();
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
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        store
            .write(|tx| {
                let team = teams::create(tx, "alpha", Plan::Pro)?;
                servers::claim(tx, team.id, Platform::Discord, GUILD, "a")
            })
            .await
            .unwrap();
        let state = AppState::new(store.clone());
        for (i, id) in ["a", "b"].into_iter().enumerate() {
            let done = post(&state, GUILD.into(), batch(GUILD, &[(id, "u1")]), NOON)
                .await
                .unwrap();
            assert_eq!(done, receipt(1, 0), "batch {i}");
            assert!(!state.activity_batches.lock().draining, "batch {i}");
        }
    }
}
