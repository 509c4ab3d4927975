//! The answers of the insights endpoints, kept until the database changes.
//!
//! An insights answer reads every day of its window and, for the top lists,
//! every member's and channel's rows of the window: on a busy server a year
//! is millions of rows, far more than one request should read each time a
//! dashboard refreshes. The rows only change when the daemon writes, so an
//! answer is kept with the writer's commit count ([`crate::store::Store::
//! writer_stats`]) read *before* it was computed, and served again while
//! that count has not moved and the minute is the same (the window's today
//! and the strikes in force move with the clock). Any commit invalidates
//! every entry: coarse, but never stale, and with a live platform feeding
//! the flush worker an answer is computed at most once per flush interval
//! per server and window instead of once per request.
//!
//! A commit counted after its answer was read only makes an entry look
//! older than it is (it is computed again); a commit can never be counted
//! before its rows are visible, because the writer counts after `COMMIT`
//! returns. Writes by other processes (operator commands) do not touch
//! activity or cases.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;

/// The most answers kept; past it the cache starts over (an answer of a
/// year is about 100 KiB).
const MAX_ENTRIES: usize = 256;

/// Which insights an answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `GET /insights`.
    Moderation,
    /// `GET /community-insights`.
    Community,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    server: String,
    kind: Kind,
    days: u32,
}

#[derive(Debug, Clone)]
struct Entry {
    commits: u64,
    minute: i64,
    body: Bytes,
}

/// Kept insights answers, as JSON bodies; cheap to clone, clones share.
#[derive(Debug, Clone, Default)]
pub struct InsightsCache {
    entries: Arc<Mutex<HashMap<Key, Entry>>>,
    /// One lock per answer being computed: requests that miss together
    /// wait for the first one's answer instead of all reading the window.
    computing: Arc<Mutex<HashMap<Key, Arc<tokio::sync::Mutex<()>>>>>,
}

impl InsightsCache {
    /// The kept answer for `server`, `kind` and `days`, if it was computed
    /// at `commits` in `minute` (unix seconds / 60).
    pub fn get(
        &self,
        server: &str,
        kind: Kind,
        days: u32,
        commits: u64,
        minute: i64,
    ) -> Option<Bytes> {
        let key = Key {
            server: server.to_owned(),
            kind,
            days,
        };
        self.lock()
            .get(&key)
            .filter(|e| e.commits == commits && e.minute == minute)
            .map(|e| e.body.clone())
    }

    /// Keeps `body` as the answer computed at `commits` in `minute`.
    pub fn put(&self, server: &str, kind: Kind, days: u32, commits: u64, minute: i64, body: Bytes) {
        let mut entries = self.lock();
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(
            Key {
                server: server.to_owned(),
                kind,
                days,
            },
            Entry {
                commits,
                minute,
                body,
            },
        );
    }

    /// The lock of the answer for `server`, `kind` and `days`: held while
    /// it is computed, so a request that missed checks again once it has it.
    pub fn computing(&self, server: &str, kind: Kind, days: u32) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self
            .computing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if locks.len() >= MAX_ENTRIES {
            // Locks in use are held by their waiters too: dropping the map's
            // copies only lets a later request compute beside them.
            locks.clear();
        }
        locks
            .entry(Key {
                server: server.to_owned(),
                kind,
                days,
            })
            .or_default()
            .clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Entry>> {
        // Entries are whole values: a panic cannot leave one half-written.
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_served_only_at_its_commit_count_and_minute() {
        let cache = InsightsCache::default();
        let body = Bytes::from_static(b"{}");
        cache.put("s1", Kind::Community, 30, 7, 100, body.clone());
        assert_eq!(cache.get("s1", Kind::Community, 30, 7, 100), Some(body));
        assert_eq!(
            cache.get("s1", Kind::Community, 30, 8, 100),
            None,
            "a commit since"
        );
        assert_eq!(
            cache.get("s1", Kind::Community, 30, 7, 101),
            None,
            "a minute later"
        );
        assert_eq!(
            cache.get("s1", Kind::Community, 7, 7, 100),
            None,
            "another window"
        );
        assert_eq!(
            cache.get("s1", Kind::Moderation, 30, 7, 100),
            None,
            "the other insights"
        );
        assert_eq!(
            cache.get("s2", Kind::Community, 30, 7, 100),
            None,
            "another server"
        );
    }
}
