//! The duplicates filter's memory: per server and member, the message they
//! last sent (as a hash) and how many times in a row, since when.
//!
//! Bounded: a run older than its window cannot continue, so it is dropped
//! when the table is full; if that is not enough, the oldest runs go. Time
//! comes in from the caller's `Clock` (unix seconds).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Mutex;

use crate::sync::lock;

/// How many members' runs are kept at most, over all servers.
pub const DEFAULT_CAPACITY: usize = 100_000;

/// One member's current run of identical messages.
#[derive(Debug, Clone, Copy)]
struct Run {
    text: u64,
    count: u32,
    since: i64,
    until: i64,
}

/// The runs of identical messages, per server and member.
#[derive(Debug)]
pub struct Duplicates {
    runs: Mutex<HashMap<u64, Run>>,
    capacity: usize,
    /// Keys of the table: hashes of (server, member) and of texts, seeded
    /// once per process so nobody can aim collisions at it.
    hasher: std::collections::hash_map::RandomState,
}

impl Default for Duplicates {
    fn default() -> Self {
        Duplicates::with_capacity(DEFAULT_CAPACITY)
    }
}

impl Duplicates {
    /// A table keeping at most `capacity` runs.
    pub fn with_capacity(capacity: usize) -> Duplicates {
        Duplicates {
            runs: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
            hasher: Default::default(),
        }
    }

    /// Records that `member` of `server` sent `text` at `now`, and answers
    /// how many identical messages in a row that makes within `window`
    /// seconds of the first. Identical means the same text once trimmed,
    /// letter case aside.
    pub fn observe(&self, server: &str, member: &str, text: &str, window: u32, now: i64) -> u32 {
        let key = self.hasher.hash_one((server, member));
        let text = {
            let mut h = self.hasher.build_hasher();
            for c in text.trim().chars().flat_map(char::to_lowercase) {
                c.hash(&mut h);
            }
            h.finish()
        };
        let mut runs = lock(&self.runs);
        if let Some(run) = runs.get_mut(&key) {
            if run.text == text && now <= run.until {
                run.count += 1;
                return run.count;
            }
            *run = Run {
                text,
                count: 1,
                since: now,
                until: now + i64::from(window),
            };
            return 1;
        }
        if runs.len() >= self.capacity {
            evict(&mut runs, self.capacity, now);
        }
        runs.insert(
            key,
            Run {
                text,
                count: 1,
                since: now,
                until: now + i64::from(window),
            },
        );
        1
    }

    /// How many runs are kept.
    pub fn len(&self) -> usize {
        lock(&self.runs).len()
    }

    /// Whether no run is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Drops the runs whose window is over, then, while the table is still over
/// three quarters full, the oldest ones.
fn evict(runs: &mut HashMap<u64, Run>, capacity: usize, now: i64) {
    runs.retain(|_, run| run.until >= now);
    let keep = capacity * 3 / 4;
    if runs.len() <= keep {
        return;
    }
    let mut since: Vec<i64> = runs.values().map(|r| r.since).collect();
    let cut = runs.len() - keep;
    let (_, oldest_kept, _) = since.select_nth_unstable(cut);
    let oldest_kept = *oldest_kept;
    runs.retain(|_, run| run.since >= oldest_kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_identical_messages_in_a_row_within_the_window() {
        let d = Duplicates::default();
        // (member, text, at, window, expected count)
        #[rustfmt::skip]
        let steps = [
            ("a", "buy now", 0, 60, 1),
            ("a", "buy now", 10, 60, 2),
            ("a", " BUY NOW ", 20, 60, 3),
            ("b", "buy now", 21, 60, 1), // another member
            ("a", "buy now", 61, 60, 1), // the window since the first is over
            ("a", "buy now", 62, 60, 2),
            ("a", "something else", 63, 60, 1), // not in a row
            ("a", "buy now", 64, 60, 1),
        ];
        for (i, (member, text, at, window, want)) in steps.into_iter().enumerate() {
            assert_eq!(d.observe("s", member, text, window, at), want, "step {i}");
        }
        assert_eq!(d.observe("other server", "a", "buy now", 60, 65), 1);
    }

    #[test]
    fn stays_within_its_capacity_dropping_expired_then_oldest_runs() {
        let d = Duplicates::with_capacity(100);
        for i in 0..1000 {
            d.observe("s", &format!("m{i}"), "hi", 3600, i);
            assert!(d.len() <= 100, "{} runs after {i}", d.len());
        }
        // The newest member's run survived the evictions.
        assert_eq!(d.observe("s", "m999", "hi", 3600, 1000), 2);
    }

    #[test]
    fn runs_whose_window_is_over_go_first() {
        let d = Duplicates::with_capacity(2);
        d.observe("s", "a", "hi", 5, 0);
        d.observe("s", "b", "hi", 3600, 1);
        d.observe("s", "c", "hi", 5, 100);
        assert_eq!(d.len(), 2);
        // `a` was dropped (its window ended at 5), `b` kept.
        assert_eq!(d.observe("s", "b", "hi", 3600, 101), 2);
    }
}
