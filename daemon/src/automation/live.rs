//! Each server's config as the automation reads it: an in-memory copy,
//! refreshed when its revision changes (issue #25: no store read per
//! message).
//!
//! # Why a revision check a second, and not a notice from the write path
//!
//! Config is written by `crate::config::apply` inside store transactions
//! that several places run (the API, imports, clones, restores, the demo,
//! operator commands in other processes), and a write is only real once its
//! transaction commits, which `apply` does not see. So instead of being told,
//! the cache asks: a server's copy is used as it is for [`RECHECK`] after it
//! was last checked, and then one indexed read of its revision says whether
//! to load it again. A busy server costs one small read a second, whatever
//! its message rate; a change is acted on within a second everywhere,
//! another process's or daemon's included (several daemons on one database
//! need nothing more: see `crate::coordination`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use modctl_types::Timestamp;
use modctl_types::config::Sections;

use crate::clock::Clock;
use crate::store::{self, Store, StoreError};
use crate::sync::lock;

/// How long a copy is used before its revision is checked again.
pub const RECHECK: Duration = Duration::from_secs(1);

/// A server's config at one revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// Its revision (0: never written; every section its default).
    pub revision: u64,
    /// Its sections.
    pub sections: Arc<Sections>,
}

/// The servers' configs in memory; cheap to clone.
#[derive(Debug, Clone)]
pub struct LiveConfig {
    store: Store,
    clock: Clock,
    servers: Arc<Mutex<HashMap<String, Entry>>>,
}

#[derive(Debug, Clone)]
struct Entry {
    snapshot: Snapshot,
    checked_at: Timestamp,
}

impl LiveConfig {
    /// An empty cache over `store`.
    pub fn new(store: Store, clock: Clock) -> LiveConfig {
        LiveConfig {
            store,
            clock,
            servers: Arc::default(),
        }
    }

    /// `server_id`'s config: the copy in memory if it was checked less than
    /// [`RECHECK`] ago, else after checking its revision (and loading it
    /// again if it moved).
    pub async fn get(&self, server_id: &str) -> Result<Snapshot, StoreError> {
        let now = self.clock.now();
        let cached = lock(&self.servers).get(server_id).cloned();
        if let Some(entry) = &cached
            && now.duration_since(entry.checked_at).unsigned_abs() < RECHECK
        {
            return Ok(entry.snapshot.clone());
        }
        let server = server_id.to_owned();
        let known = cached.as_ref().map(|e| e.snapshot.revision);
        let snapshot = self
            .store
            .read(move |tx| {
                let revision = store::config::revision(tx, &server)?;
                if Some(revision) == known {
                    return Ok(None);
                }
                let stored = store::config::load(tx, &server)?;
                Ok::<_, StoreError>(Some(Snapshot {
                    revision: stored.revision,
                    sections: Arc::new(stored.sections),
                }))
            })
            .await?;
        let snapshot = match (snapshot, cached) {
            (Some(fresh), _) => fresh,
            (None, Some(entry)) => entry.snapshot,
            (None, None) => unreachable!("nothing cached means the revision is loaded"),
        };
        lock(&self.servers).insert(
            server_id.to_owned(),
            Entry {
                snapshot: snapshot.clone(),
                checked_at: now,
            },
        );
        Ok(snapshot)
    }

    /// Forgets `server_id`'s copy: the next event reads it again (a server
    /// released or claimed anew).
    pub fn forget(&self, server_id: &str) {
        lock(&self.servers).remove(server_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Change, apply};
    use crate::store::testing::store_with_server;

    #[tokio::test]
    async fn a_change_is_seen_after_the_recheck_and_not_read_before() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let clock = Clock::manual(Timestamp::from_second(1_800_000_000).unwrap());
        let live = LiveConfig::new(store.clone(), clock.clone());
        let first = live.get("g1").await.unwrap();
        assert_eq!(first.revision, 0);
        assert!(!first.sections.automod.caps.enabled);

        let mut sections = (*first.sections).clone();
        sections.automod.caps.enabled = true;
        let secrets = store.secrets().clone();
        store
            .write(move |tx| apply(tx, &secrets, Change::by("g1", "test", sections, 0)))
            .await
            .unwrap();
        let trips = store.trips();
        let cached = live.get("g1").await.unwrap();
        assert_eq!(cached.revision, 0, "within RECHECK the copy is used");
        assert_eq!(store.trips(), trips, "and the store is not read");

        clock.advance(RECHECK);
        let fresh = live.get("g1").await.unwrap();
        assert_eq!(fresh.revision, 1);
        assert!(fresh.sections.automod.caps.enabled);
    }
}
