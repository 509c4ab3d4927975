//! Coordination: every place where modctld assumes it is the only daemon
//! serving its database, named here (issue #24), so that running several
//! daemons on one PostgreSQL (issue #29) is a matter of implementing these
//! interfaces, not of finding the assumptions first.
//!
//! Today one `modctld serve` owns a SQLite file, and each assumption below is
//! implemented in process. What each one needs from a multi-daemon backend
//! is said beside it.
//!
//! | Assumption | Interface | Today | With several daemons |
//! |---|---|---|---|
//! | Actions on one member run one at a time (moderation) | [`MemberLocking`] | [`MemberLocks`]: one async mutex per member, in memory | a lock per member held for the action (e.g. a PostgreSQL advisory lock) |
//! | A pending case whose member nobody holds was left by a daemon that stopped, so recovery may settle it (`moderation::recovery`) | [`MemberLocking::try_lock`] | a member no live task holds | leases with expiry: a case is settled only once its daemon's lease ran out |
//! | One restore runner carries out the jobs (`restore::run`) | [`Exclusive`] | [`LocalExclusive`]: an async mutex | a lease on the runner, or a claim per job |
//! | Background work is due to whoever asks: webhook deliveries (`store::webhooks::due_endpoints`), jail expiry (`store::jails::due`), scheduled snapshots (`store::snapshots::scheduled_due`), retention | none yet: the store's `due` functions | the one daemon's workers ([`crate::workers`]) | claims (`FOR UPDATE SKIP LOCKED`, or leases) in the store's `due` functions, so two daemons never take the same work |
//! | Platform sessions have one owner: each bot token's gateway, Telegram poller or webhook (`crate::receive`) | none yet: `receive::reconcile` starts a session for every stored connection | every session runs in this process | an owner per token (a lease), taken over when its daemon dies |
//! | Rate limits hold per process: Discord's buckets (`crate::platform::ratelimit`) and per-key request limits (`crate::request_limits`) | none yet | in memory | a shared budget, or a documented split between daemons |
//! | Caches see every commit: the key cache ([`crate::store::ChangeWatch`], SQLite's `data_version`) and onboarding's platform facts (`crate::onboarding::FactsCache`, keyed by stored revisions) | [`crate::store::ChangeWatch`] | `PRAGMA data_version` sees every connection's commits to the file | a change feed (e.g. `LISTEN/NOTIFY`, or a revision row) |
//!
//! The rows marked "none yet" are where issue #29 adds an interface; the
//! others are used through theirs already, so a second backend replaces the
//! value in [`Coordination`] and no caller.

mod members;

use std::fmt::Debug;
use std::sync::Arc;

use async_trait::async_trait;

pub use members::MemberLocks;

/// Serializes actions on one member of a server.
#[async_trait]
pub trait MemberLocking: Debug + Send + Sync {
    /// Waits until no other action runs on `user_id` of `server_id`, then
    /// holds the member until the guard is dropped.
    async fn lock(&self, server_id: &str, user_id: &str) -> Held;

    /// Holds the member if no action runs on it now. Recovery relies on it:
    /// a member nobody holds has no action in flight.
    fn try_lock(&self, server_id: &str, user_id: &str) -> Option<Held>;
}

/// One holder at a time of a piece of work (the restore runner).
#[async_trait]
pub trait Exclusive: Debug + Send + Sync {
    /// Waits until nobody else holds it, then holds it until the guard is
    /// dropped.
    async fn hold(&self) -> Held;
}

/// What a lock of [`MemberLocking`] or [`Exclusive`] hands out: held until
/// dropped, whatever the backend's own guard is.
pub struct Held {
    _guard: Box<dyn Send + Sync>,
}

impl Held {
    /// Holds until `guard`, a backend's own guard, is dropped.
    pub fn new(guard: impl Send + Sync + 'static) -> Self {
        Held {
            _guard: Box::new(guard),
        }
    }
}

impl Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held").finish_non_exhaustive()
    }
}

/// [`Exclusive`] within this process: an async mutex.
#[derive(Debug, Default)]
pub struct LocalExclusive {
    lock: Arc<tokio::sync::Mutex<()>>,
}

#[async_trait]
impl Exclusive for LocalExclusive {
    async fn hold(&self) -> Held {
        Held::new(self.lock.clone().lock_owned().await)
    }
}

/// What the daemon coordinates through; cheap to clone. [`Default`] is the
/// one-daemon implementation of each.
#[derive(Debug, Clone)]
pub struct Coordination {
    /// Actions on one member, one at a time.
    pub members: Arc<dyn MemberLocking>,
    /// The restore runner.
    pub restore_runner: Arc<dyn Exclusive>,
}

impl Default for Coordination {
    fn default() -> Self {
        Coordination {
            members: Arc::new(MemberLocks::default()),
            restore_runner: Arc::new(LocalExclusive::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn the_restore_runner_has_one_holder_at_a_time() {
        let runner: Arc<dyn Exclusive> = Arc::new(LocalExclusive::default());
        let first = runner.hold().await;
        let second = tokio::spawn({
            let runner = runner.clone();
            async move { runner.hold().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!second.is_finished(), "the second waits for the first");
        drop(first);
        let second = tokio::time::timeout(Duration::from_secs(5), second)
            .await
            .expect("the second holds it once the first let go")
            .unwrap();
        drop(second);
    }
}
