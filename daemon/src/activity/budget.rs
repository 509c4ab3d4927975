//! The memory budget of activity batches (issue #22): how many bytes of
//! `POST /servers/{id}/activity` bodies the daemon holds at once, from
//! before a body is read until its batch is written.
//!
//! # Why a budget, and why before the body
//!
//! A batch may be 4 MiB of JSON, and costs more than its body while it is
//! in the daemon: the body until it is parsed (dropped then, see
//! [`crate::extract::read_json`]), and its events, 1.3 to 2 times the body,
//! until the writer has counted them (see [`super::batches`]). Nothing
//! bounded how many were in flight: 96 clients posting their largest
//! batches at once took the daemon past 520 MiB, and it stayed there. So a
//! batch takes its share of a fixed budget **before** its
//! body is read, sized by its declared `Content-Length` (the body limit
//! when it has none): a batch waiting for the budget has read nothing, and
//! its body waits in the socket, in the kernel's buffers rather than the
//! daemon's. The share is held until the batch is written (or refused),
//! because its events are held that long.
//!
//! A batch waits at most [`BatchBudget::wait`] for its share; past that it
//! is refused with `Retry-After`, and changes nothing. Which refusal says
//! whose the pressure is:
//! - `503`: the daemon's budget is spent, by whoever posted: the daemon is
//!   busy, as for the total connection cap ([`crate::http`]);
//! - `429`: the posting team already holds its share, the budget less one
//!   largest batch ([`BatchBudget::team_bytes`]): this client is sending too
//!   much at once, as for the per-address connection cap. A team can never
//!   take the whole budget, so one team's flood leaves room for another
//!   team's batch: one client never starves the others.
//!
//! Both are answered after the body is read and dropped a chunk at a time
//! (never held): a client that gets an answer before it has sent its body
//! may see its connection reset instead, and lose the answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
// A map of semaphores is valid whatever a panicking holder was doing.
use crate::sync::lock;

/// The default budget: 24 MiB of batch bodies at once; a team's share is
/// 20 MiB (six of the largest batches, fourteen of the bench's 10,000 short
/// events). Chosen with `modctl-bench memory` and `activity-batch`: 96 of
/// the largest batches at once peak at 135 to 147 MiB of RSS with it (goal:
/// under 150; 32 MiB gave 145 to 152), and the bench's 32 posting
/// connections still find batches waiting to be written together: 25 to 27
/// batches a second against 28 to 29 without a budget (16 MiB: 15 to 20).
/// Those peaks were measured on the budget's own branch; `main`, with the
/// rest of issue #22 merged, peaks higher (171 to 193 MiB), not because of
/// the budget's size (see the README, "Benchmarks").
pub const DEFAULT_BUDGET_BYTES: usize = 24 * 1024 * 1024;

/// How long a batch waits for its share by default before it is refused:
/// long enough that a client posting many batches at once has them queued
/// behind the writer rather than refused (32 connections posting the
/// bench's batches wait about 1.6 s at their median, and 2 s refused the
/// slowest of them), well inside the 30 s a body has to arrive in. A
/// waiting batch holds no body: it is still in its connection.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(10);

/// What a refused batch is told to wait, seconds: about one write of
/// batches.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// Bytes of batches in flight, overall and per team. Cheap to clone;
/// clones share the budget.
#[derive(Debug, Clone)]
pub struct BatchBudget {
    total: Arc<Semaphore>,
    total_bytes: usize,
    team_bytes: usize,
    wait: Duration,
    /// Each team's share, while the team has a batch in flight.
    teams: Arc<Mutex<HashMap<i64, Arc<Semaphore>>>>,
}

/// Why a batch was not let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The daemon's budget stayed spent for the whole wait.
    Busy {
        /// The budget, bytes.
        total_bytes: usize,
    },
    /// The team's share stayed spent for the whole wait.
    TeamShare {
        /// The share, bytes.
        team_bytes: usize,
    },
}

/// A batch's share of the budget, given back when dropped.
#[derive(Debug)]
pub struct Permit {
    bytes: usize,
    _total: OwnedSemaphorePermit,
    _team: TeamPermit,
}

/// A team's share, and how to forget the team once it holds nothing.
#[derive(Debug)]
struct TeamPermit {
    permit: Option<OwnedSemaphorePermit>,
    team_id: i64,
    teams: Arc<Mutex<HashMap<i64, Arc<Semaphore>>>>,
}

impl Drop for TeamPermit {
    fn drop(&mut self) {
        drop(self.permit.take());
        let mut teams = lock(&self.teams);
        // Forgotten when no batch of the team holds or waits for its share
        // (the map's own reference is the last one).
        if teams
            .get(&self.team_id)
            .is_some_and(|share| Arc::strong_count(share) == 1)
        {
            teams.remove(&self.team_id);
        }
    }
}

impl Permit {
    /// The bytes it holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Default for BatchBudget {
    fn default() -> Self {
        BatchBudget::new(DEFAULT_BUDGET_BYTES, DEFAULT_WAIT)
    }
}

impl BatchBudget {
    /// A budget of `total_bytes`, each team's share the budget less one
    /// largest batch (half the budget when that would be less), waits of at
    /// most `wait`.
    pub fn new(total_bytes: usize, wait: Duration) -> Self {
        let largest = crate::extract::MAX_BATCH_BODY_BYTES;
        let team_bytes = total_bytes
            .saturating_sub(largest)
            .max(total_bytes / 2)
            .max(1);
        BatchBudget::with_team_share(total_bytes, team_bytes, wait)
    }

    /// A budget of `total_bytes` (at most 4 GiB), of which one team may
    /// hold `team_bytes`.
    pub fn with_team_share(total_bytes: usize, team_bytes: usize, wait: Duration) -> Self {
        let total_bytes = total_bytes.clamp(1, u32::MAX as usize);
        BatchBudget {
            total: Arc::new(Semaphore::new(total_bytes)),
            total_bytes,
            team_bytes: team_bytes.clamp(1, total_bytes),
            wait,
            teams: Arc::default(),
        }
    }

    /// The budget, bytes.
    pub fn total_bytes(&self) -> usize {
        self.total_bytes
    }

    /// What one team may hold, bytes.
    pub fn team_bytes(&self) -> usize {
        self.team_bytes
    }

    /// How long a batch waits for its share before it is refused.
    pub fn wait(&self) -> Duration {
        self.wait
    }

    /// Bytes held by batches in flight now.
    pub fn in_flight_bytes(&self) -> usize {
        self.total_bytes - self.total.available_permits()
    }

    /// Takes `bytes` (at most a team's share: a larger batch is charged the
    /// share) for a batch of `team_id`, waiting at most [`Self::wait`]:
    /// first the team's share, then the daemon's.
    pub async fn admit(&self, team_id: i64, bytes: usize) -> Result<Permit, Refused> {
        let bytes = bytes.clamp(1, self.team_bytes);
        let deadline = Instant::now() + self.wait;
        let share = Arc::clone(
            lock(&self.teams)
                .entry(team_id)
                .or_insert_with(|| Arc::new(Semaphore::new(self.team_bytes))),
        );
        // Made before the wait, so a refused or cancelled wait still
        // forgets the team when it was its last user.
        let mut team = TeamPermit {
            permit: None,
            team_id,
            teams: Arc::clone(&self.teams),
        };
        let acquire = Arc::clone(&share).acquire_many_owned(count(bytes));
        drop(share);
        team.permit = Some(
            tokio::time::timeout_at(deadline, acquire)
                .await
                .map_err(|_| Refused::TeamShare {
                    team_bytes: self.team_bytes,
                })?
                .expect("the semaphore is never closed"),
        );
        let total = Arc::clone(&self.total).acquire_many_owned(count(bytes));
        let total = tokio::time::timeout_at(deadline, total)
            .await
            .map_err(|_| Refused::Busy {
                total_bytes: self.total_bytes,
            })?
            .expect("the semaphore is never closed");
        Ok(Permit {
            bytes,
            _total: total,
            _team: team,
        })
    }
}

/// Permits for `bytes`: at most a team's share, so at most the budget,
/// which fits in a `u32`.
fn count(bytes: usize) -> u32 {
    u32::try_from(bytes).expect("a share is at most the budget, at most u32::MAX")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_secs(2);

    /// A team holds at most its share, everyone together at most the
    /// budget; a refusal says which was full, after the wait.
    #[tokio::test(start_paused = true)]
    async fn a_team_holds_at_most_its_share_and_all_at_most_the_budget() {
        let budget = BatchBudget::with_team_share(100, 60, WAIT);
        let a1 = budget.admit(1, 40).await.unwrap();
        assert_eq!(
            budget.admit(1, 40).await.unwrap_err(),
            Refused::TeamShare { team_bytes: 60 },
            "team 1 would hold 80 of its 60"
        );
        let b1 = budget.admit(2, 50).await.unwrap();
        assert_eq!(budget.in_flight_bytes(), 90);
        let waited = Instant::now();
        assert_eq!(
            budget.admit(3, 20).await.unwrap_err(),
            Refused::Busy { total_bytes: 100 },
            "110 of 100"
        );
        assert_eq!(waited.elapsed(), WAIT, "refused after the wait, not before");
        let c1 = budget.admit(3, 10).await.unwrap();
        assert_eq!(budget.in_flight_bytes(), 100);
        drop((a1, b1, c1));
        assert_eq!(budget.in_flight_bytes(), 0);
    }

    /// A batch that waits gets in as soon as one in flight is written.
    #[tokio::test(start_paused = true)]
    async fn a_waiting_batch_gets_in_when_another_is_written() {
        let budget = BatchBudget::with_team_share(100, 100, WAIT);
        let first = budget.admit(1, 80).await.unwrap();
        let waiting = tokio::spawn({
            let budget = budget.clone();
            async move { budget.admit(2, 80).await.map(|p| p.bytes()) }
        });
        tokio::time::sleep(WAIT / 2).await;
        drop(first);
        assert_eq!(waiting.await.unwrap(), Ok(80));
    }

    /// A batch larger than a team's share is charged the share (it would
    /// never get in otherwise), and the default share leaves room for one
    /// more largest batch of another team.
    #[tokio::test(start_paused = true)]
    async fn shares_fit_the_largest_batch() {
        let budget = BatchBudget::with_team_share(100, 60, WAIT);
        assert_eq!(budget.admit(1, 1_000).await.unwrap().bytes(), 60);
        let largest = crate::extract::MAX_BATCH_BODY_BYTES;
        let default = BatchBudget::default();
        assert_eq!(
            default.team_bytes() + largest,
            default.total_bytes(),
            "a team's share is all but one largest batch"
        );
        let flood = default.admit(1, default.team_bytes()).await.unwrap();
        let other = default.admit(2, largest).await.unwrap();
        drop((flood, other));
        // Tiny budgets (tests) still give a team half.
        assert_eq!(BatchBudget::new(10, WAIT).team_bytes(), 5);
    }

    /// A team is remembered only while a batch of it holds or waits for
    /// its share.
    #[tokio::test(start_paused = true)]
    async fn a_team_is_forgotten_when_nothing_of_it_is_in_flight() {
        let budget = BatchBudget::with_team_share(100, 50, WAIT);
        let held = budget.admit(7, 50).await.unwrap();
        assert!(budget.admit(7, 10).await.is_err());
        assert_eq!(lock(&budget.teams).len(), 1);
        drop(held);
        assert!(lock(&budget.teams).is_empty());
        let _ = budget.admit(8, 10).await.unwrap();
        assert!(lock(&budget.teams).is_empty());
    }
}
