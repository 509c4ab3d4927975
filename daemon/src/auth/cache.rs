//! What authentication remembers between requests: keys, server claims and
//! when each key's `last_used_at` was last written.
//!
//! # Why a cache, and why it is never stale
//!
//! Without it, every request made its own store trips before its handler
//! ran: the key, then the server, each a wait for a read connection and a hop
//! to the blocking pool, which cost more than the queries themselves. With
//! it, a request whose key and server were seen before authenticates in
//! memory, and its handler's read is its only trip.
//!
//! A key revoked (by this daemon or by `modctld key revoke` in another
//! process) must be refused from the very next request on, so the cache may
//! only answer when nothing was committed since it was filled. SQLite says
//! exactly that: `PRAGMA data_version` on a connection changes whenever
//! *another* connection, in any process, has committed since that
//! connection last looked. The cache keeps one connection of its own, the
//! *watch*, that never writes, so every commit anywhere (the daemon's own
//! writer included) changes what the watch sees. Each request first asks the
//! watch ([`AuthCache::lookup`]); if the version moved, the cache is emptied
//! before anything is looked up, and the request reads from the store.
//! The watch is the daemon's change feed
//! ([`crate::coordination::ChangeFeed`]); this one is
//! [`crate::coordination::LocalChangeFeed`]; several daemons on one
//! PostgreSQL database need a feed of their own (e.g. `LISTEN/NOTIFY`,
//! issue #29).
//!
//! The protocol, and why it cannot hide a commit `X` that finished before a
//! request `R` asked the watch:
//!
//! 1. Asking the watch and emptying happen under one lock, and emptying bumps
//!    a *generation*. The first ask after `X` sees the version move (the
//!    watch reads the WAL index afresh on every ask), so the cache was
//!    emptied after `X` and no later than `R`'s ask.
//! 2. A request that misses reads from the store *after* its own ask, and
//!    stores what it read only if the generation is still the one its ask
//!    returned. An entry read from a snapshot older than `X` comes from an
//!    ask older than `X`; it is either stored before the emptying of step 1
//!    (and emptied with it) or refused because the generation moved.
//!
//! So whatever `R` finds was read after `X`. Expiry is a matter of time, not
//! of commits: it is checked against the [`crate::clock::Clock`] on every
//! request, cached or not.
//!
//! The cost of validating is one `PRAGMA data_version`, run on the request's
//! own thread: it reads the WAL index in shared memory and does no disk I/O
//! when nothing changed (after a commit, SQLite re-reads the database header,
//! a page the OS has cached). It is the only SQLite call that does not go
//! through [`crate::store::Store`], because going through it is exactly the
//! trip this saves. The watch never waits for a lock (`busy_timeout` 0): if
//! it cannot answer at once, or cannot be opened, the cache is emptied and
//! the request reads from the store, so a broken watch costs speed, never
//! freshness.
//!
//! Any commit empties the whole cache, also commits that touch neither keys
//! nor servers: under a steady stream of writes more requests read from the
//! store (two trips instead of one, still fewer than the three before). A
//! finer signal would need a trigger-maintained counter in the schema.
//!
//! Only keys and servers that exist are cached, so made-up ids cannot grow
//! it; a map that reaches [`MAX_ENTRIES`] is emptied.
//!
//! # `last_used_at`
//!
//! A successful request records the key's use at most once a minute
//! ([`LAST_USED_RESOLUTION_SECS`]). The request that finds it stale writes it
//! before answering, so a key's record is exact once its first response is
//! seen; the time is claimed in memory first ([`AuthCache::claim_touch`]),
//! so concurrent requests of a busy key make one write, not one each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use modctl_types::Team;

use crate::coordination::ChangeFeed;
use crate::error::ApiError;
use crate::store::keys::{self, KeyRecord};
use crate::store::servers::{self, ServerRecord};
use crate::store::{Store, StoreError};
// The maps stay consistent whatever panicked while they were held.
use crate::sync::lock;

/// How stale `last_used_at` may get before a request refreshes it.
pub const LAST_USED_RESOLUTION_SECS: i64 = 60;
/// Entries per map beyond which the map is emptied.
pub const MAX_ENTRIES: usize = 10_000;

/// Keys and server claims, valid for as long as nothing commits; cheap to clone.
#[derive(Clone)]
pub struct AuthCache {
    inner: Arc<Inner>,
}

struct Inner {
    watch: Mutex<Watch>,
    entries: Mutex<Entries>,
    /// Key id -> when this daemon last wrote (or is writing) its `last_used_at`.
    touched: Mutex<HashMap<String, i64>>,
}

/// A key as cached: what authentication knows of the caller (all that
/// `GET /me` shows), and the hash the presented secret is checked against.
pub struct CachedKey {
    /// The key.
    pub record: KeyRecord,
    /// Its team.
    pub team: Team,
    /// How many servers the team has claimed.
    pub team_server_count: u64,
    /// The team's own request rate, when an operator set one.
    pub requests_per_minute: Option<u32>,
    secret_hash: Vec<u8>,
}

impl CachedKey {
    /// SHA-256 of the secret; never leaves authentication.
    pub(super) fn secret_hash(&self) -> &[u8] {
        &self.secret_hash
    }
}

/// What a lookup found: `None` where the store has nothing.
#[derive(Debug, Default)]
pub struct Found {
    /// The key, if one has this id.
    pub key: Option<Arc<CachedKey>>,
    /// The server and its owner, if it is claimed.
    pub server: Option<ServerRecord>,
}

#[derive(Default)]
struct Entries {
    generation: u64,
    keys: HashMap<String, Arc<CachedKey>>,
    servers: HashMap<String, ServerRecord>,
}

impl Entries {
    fn clear(&mut self) {
        self.keys.clear();
        self.servers.clear();
        self.generation += 1;
    }
}

struct Watch {
    changes: Arc<dyn ChangeFeed>,
    /// The version of the last ask, `None` when it failed.
    seen: Option<i64>,
}

impl std::fmt::Debug for CachedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The hash stays out of logs like the secret it checks.
        f.debug_struct("CachedKey")
            .field("record", &self.record)
            .field("team", &self.team)
            .field("team_server_count", &self.team_server_count)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for AuthCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let entries = lock(&self.inner.entries);
        f.debug_struct("AuthCache")
            .field("generation", &entries.generation)
            .field("keys", &entries.keys.len())
            .field("servers", &entries.servers.len())
            .finish_non_exhaustive()
    }
}

impl AuthCache {
    /// An empty cache, emptied whenever `changes` says something committed
    /// (the daemon's is [`crate::coordination::Coordination::changes`]).
    pub fn new(changes: Arc<dyn ChangeFeed>) -> AuthCache {
        AuthCache {
            inner: Arc::new(Inner {
                watch: Mutex::new(Watch {
                    changes,
                    seen: None,
                }),
                entries: Mutex::new(Entries::default()),
                touched: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The key `key_id` and the server `server_id` (each when asked for), as
    /// of no earlier than this call: from memory when both are cached and
    /// nothing committed since, else in one read trip that also refills the
    /// cache.
    pub async fn lookup(
        &self,
        store: &Store,
        key_id: Option<&str>,
        server_id: Option<&str>,
    ) -> Result<Found, ApiError> {
        let generation = {
            let entries = self.observe();
            let key = key_id.map(|id| entries.keys.get(id).cloned());
            let server = server_id.map(|id| entries.servers.get(id).cloned());
            match (key, server) {
                (Some(None), _) | (_, Some(None)) => entries.generation,
                (key, server) => {
                    return Ok(Found {
                        key: key.flatten(),
                        server: server.flatten(),
                    });
                }
            }
        };
        let (key_id, server_id) = (key_id.map(str::to_owned), server_id.map(str::to_owned));
        let (key, server) = store
            .read(move |tx| {
                let key = match key_id {
                    Some(id) => keys::find_with_hash(tx, &id)?,
                    None => None,
                };
                let server = match server_id {
                    Some(id) => servers::find(tx, &id)?,
                    None => None,
                };
                Ok::<_, StoreError>((key, server))
            })
            .await?;
        let found = Found {
            key: key.map(|k| {
                Arc::new(CachedKey {
                    record: k.record,
                    team: k.team,
                    team_server_count: k.team_server_count,
                    requests_per_minute: k.requests_per_minute,
                    secret_hash: k.secret_hash,
                })
            }),
            server,
        };
        self.fill(generation, &found);
        Ok(found)
    }

    /// Keeps what a lookup read, unless the cache was emptied since the ask
    /// that returned `generation` (it may have been read before a commit).
    fn fill(&self, generation: u64, found: &Found) {
        let mut entries = lock(&self.inner.entries);
        if entries.generation != generation {
            return;
        }
        if let Some(key) = &found.key {
            if entries.keys.len() >= MAX_ENTRIES {
                entries.keys.clear();
            }
            entries
                .keys
                .insert(key.record.key_id.clone(), Arc::clone(key));
        }
        if let Some(server) = &found.server {
            if entries.servers.len() >= MAX_ENTRIES {
                entries.servers.clear();
            }
            entries
                .servers
                .insert(server.server.id.clone(), server.clone());
        }
    }

    /// Asks the watch whether anything committed since the last ask, empties
    /// the cache if so (or if it cannot tell), and returns the entries, locked.
    fn observe(&self) -> MutexGuard<'_, Entries> {
        let mut watch = lock(&self.inner.watch);
        let version = watch.changes.version();
        let unchanged = version.is_some() && version == watch.seen;
        watch.seen = version;
        let mut entries = lock(&self.inner.entries);
        if !unchanged {
            entries.clear();
        }
        entries
    }

    /// Whether this request should write the key's `last_used_at`: when
    /// neither the stored time nor one this daemon is writing is within the
    /// resolution. Claims the write, so concurrent requests do not repeat it;
    /// [`AuthCache::release_touch`] gives the claim back if the write fails.
    pub fn claim_touch(&self, key_id: &str, stored: Option<i64>, now: i64) -> bool {
        let mut touched = lock(&self.inner.touched);
        let last = touched.get(key_id).copied().max(stored);
        if last.is_some_and(|t| now - t < LAST_USED_RESOLUTION_SECS) {
            return false;
        }
        if touched.len() >= MAX_ENTRIES {
            touched.retain(|_, t| now - *t < LAST_USED_RESOLUTION_SECS);
        }
        touched.insert(key_id.to_owned(), now);
        true
    }

    /// Gives back a claim whose write failed, so the next request tries again.
    pub fn release_touch(&self, key_id: &str) {
        lock(&self.inner.touched).remove(key_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api_key;
    use crate::coordination::LocalChangeFeed;
    use crate::store::teams;
    use modctl_types::{Plan, Scope};
    use std::path::Path;

    fn cache_over(path: &Path) -> AuthCache {
        AuthCache::new(Arc::new(LocalChangeFeed::new(path)))
    }

    async fn store_with_key() -> (tempfile::TempDir, Store, String) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let key = api_key::generate();
        let key_id = key.key_id.clone();
        store
            .write(move |tx| {
                let team = teams::create(tx, "alpha", Plan::Free, 0)?;
                keys::insert(tx, key.hashed(), team.id, Scope::Read, None, None, 0)
            })
            .await
            .unwrap();
        (dir, store, key_id)
    }

    #[tokio::test]
    async fn a_second_lookup_is_served_from_memory_until_something_commits() {
        let (_dir, store, key_id) = store_with_key().await;
        let cache = cache_over(store.path());
        let trips = store.trips();
        let first = cache.lookup(&store, Some(&key_id), None).await.unwrap();
        assert!(first.key.is_some());
        assert_eq!(store.trips(), trips + 1, "a cold cache reads once");
        cache.lookup(&store, Some(&key_id), None).await.unwrap();
        assert_eq!(store.trips(), trips + 1, "a warm cache does not read");

        // A commit on another connection, here the store's own writer.
        let revoked = key_id.clone();
        store
            .write(move |tx| keys::revoke(tx, &revoked, 0))
            .await
            .unwrap();
        let trips = store.trips();
        let after = cache.lookup(&store, Some(&key_id), None).await.unwrap();
        assert_eq!(store.trips(), trips + 1, "a commit empties the cache");
        assert!(after.key.unwrap().record.revoked_at.is_some());
    }

    #[tokio::test]
    async fn a_commit_by_another_process_is_seen() {
        // Another `Store` on the same file has its own connections, which is
        // all SQLite knows of processes.
        let (dir, store, key_id) = store_with_key().await;
        let cache = cache_over(store.path());
        cache.lookup(&store, Some(&key_id), None).await.unwrap();
        let other = Store::open(dir.path().join("db")).await.unwrap();
        let revoked = key_id.clone();
        other
            .write(move |tx| keys::revoke(tx, &revoked, 0))
            .await
            .unwrap();
        let found = cache.lookup(&store, Some(&key_id), None).await.unwrap();
        assert!(found.key.unwrap().record.revoked_at.is_some());
    }

    #[tokio::test]
    async fn what_was_read_before_a_commit_is_not_kept_after_it() {
        let (_dir, store, key_id) = store_with_key().await;
        let cache = cache_over(store.path());
        // A request asks the watch and reads the key ...
        let stale_generation = cache.observe().generation;
        let stale = cache.lookup(&store, Some(&key_id), None).await.unwrap();
        // ... something commits, and a later request notices ...
        let revoked = key_id.clone();
        store
            .write(move |tx| keys::revoke(tx, &revoked, 0))
            .await
            .unwrap();
        let current = cache.observe().generation;
        assert_ne!(current, stale_generation);
        // ... so the first request's late fill is refused ...
        cache.fill(stale_generation, &stale);
        assert!(cache.observe().keys.is_empty());
        // ... while one quoting the current generation is kept.
        cache.fill(current, &stale);
        assert_eq!(cache.observe().keys.len(), 1);
    }

    #[tokio::test]
    async fn unknown_ids_are_not_cached() {
        let (_dir, store, _) = store_with_key().await;
        let cache = cache_over(store.path());
        for _ in 0..2 {
            let found = cache
                .lookup(&store, Some("aaaaaaaaaaaa"), Some("123"))
                .await
                .unwrap();
            assert!(found.key.is_none() && found.server.is_none());
        }
        let entries = cache.observe();
        assert!(entries.keys.is_empty() && entries.servers.is_empty());
    }

    #[test]
    fn last_use_is_claimed_once_per_resolution() {
        let cache = cache_over(Path::new("unused"));
        assert!(cache.claim_touch("k", None, 1_000));
        assert!(!cache.claim_touch("k", None, 1_000), "claimed in memory");
        assert!(!cache.claim_touch("k", Some(990), 1_049));
        assert!(cache.claim_touch("k", Some(990), 1_060));
        cache.release_touch("k");
        assert!(
            cache.claim_touch("k", Some(1_000), 1_060),
            "a failed write is retried"
        );
        assert!(!cache.claim_touch("other", Some(1_000), 1_059));
    }
}
