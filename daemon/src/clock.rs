//! The one source of time of the daemon.
//!
//! Every decision that depends on "now" (key expiry, when a timed jail or a
//! timeout ends, when strikes expire, when an `Idempotency-Key` is forgotten,
//! and later webhook backoff and daily rollups) reads it from the [`Clock`]
//! in [`crate::AppState`], never from the system directly. In production it
//! is the system clock; tests use a manual clock they set and advance, so
//! time-dependent behaviour is tested without sleeping and without editing
//! timestamps in the database by hand.
//!
//! The clock says what time it *is*; it does not schedule anything. Background
//! workers still wake up on tokio timers, and tests drive them directly with
//! their `tick` entry points after advancing the clock.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

/// Where time comes from; cheap to clone, clones share the same time.
#[derive(Debug, Clone)]
pub struct Clock {
    source: Source,
}

#[derive(Debug, Clone)]
enum Source {
    System,
    Manual(Arc<Mutex<Timestamp>>),
}

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock {
            source: Source::System,
        }
    }

    /// A clock that stands still at `start` until it is set or advanced.
    pub fn manual(start: Timestamp) -> Clock {
        Clock {
            source: Source::Manual(Arc::new(Mutex::new(start))),
        }
    }

    /// Now.
    pub fn now(&self) -> Timestamp {
        match &self.source {
            Source::System => Timestamp::now(),
            Source::Manual(now) => *lock(now),
        }
    }

    /// Now as unix seconds, the representation stored in every table.
    pub fn now_unix(&self) -> i64 {
        self.now().as_second()
    }

    /// Moves a manual clock forward by `by`.
    ///
    /// # Panics
    ///
    /// On the system clock, which nobody may move.
    pub fn advance(&self, by: Duration) {
        let by = SignedDuration::try_from(by).expect("a clock advance fits a signed duration");
        let mut now = self.manual_time("advance");
        *now = now
            .checked_add(by)
            .expect("the clock stays within jiff's range");
    }

    /// Sets a manual clock to `to` (also backwards, to test clock skew).
    ///
    /// # Panics
    ///
    /// On the system clock.
    pub fn set(&self, to: Timestamp) {
        *self.manual_time("set") = to;
    }

    fn manual_time(&self, what: &str) -> std::sync::MutexGuard<'_, Timestamp> {
        match &self.source {
            Source::Manual(now) => lock(now),
            Source::System => panic!("cannot {what} the system clock: use Clock::manual"),
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

fn lock(now: &Mutex<Timestamp>) -> std::sync::MutexGuard<'_, Timestamp> {
    // A panic while holding the lock cannot leave a timestamp half-written.
    now.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_stands_still_until_moved_and_clones_share_it() {
        let start: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let clock = Clock::manual(start);
        let shared = clock.clone();
        assert_eq!(clock.now(), start);
        shared.advance(Duration::from_secs(90 * 60));
        assert_eq!(clock.now_unix(), start.as_second() + 5400);
        clock.set(start);
        assert_eq!(shared.now(), start);
    }

    #[test]
    #[should_panic(expected = "cannot advance the system clock")]
    fn the_system_clock_cannot_be_moved() {
        Clock::system().advance(Duration::from_secs(1));
    }
}
