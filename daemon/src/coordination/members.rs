//! One lock per member of a server, so actions on the same member run one at
//! a time.
//!
//! An action reads the member's state (jailed or not, the roles to save),
//! changes it on the platform, and records the change. Two of those running
//! side by side on one member read the same state and both act on it: two
//! jails that both save roles (one of them saving the jail role itself), two
//! unjails that both record a case. Holding this lock from the first read to
//! the last write makes each action see the state the previous one left.
//!
//! These locks are in memory: one daemon serves a database (operator
//! commands do not act on members); see [`super`] for what several daemons
//! need instead. It is held by the task that carries the action out,
//! not by the request, so a client that disconnects does not release it
//! while the platform call is still running. Waiting for it is an async wait.
//! Actions on different members never wait for each other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use async_trait::async_trait;
use tokio::sync::Mutex as AsyncMutex;

use super::{Held, MemberLocking};

/// The member locks of the daemon; cheap to clone, clones share the locks.
#[derive(Debug, Clone, Default)]
pub struct MemberLocks {
    // Weak, so a lock nobody holds or waits for is freed; dead entries are
    // swept when the map grows, keeping it as small as the members in action.
    locks: Arc<Mutex<HashMap<MemberKey, Weak<AsyncMutex<()>>>>>,
}

type MemberKey = (String, String);

#[async_trait]
impl MemberLocking for MemberLocks {
    async fn lock(&self, server_id: &str, user_id: &str) -> Held {
        let lock = self.lock_for(server_id, user_id);
        Held::new(lock.lock_owned().await)
    }

    fn try_lock(&self, server_id: &str, user_id: &str) -> Option<Held> {
        let lock = self.lock_for(server_id, user_id);
        lock.try_lock_owned().ok().map(Held::new)
    }
}

impl MemberLocks {
    fn lock_for(&self, server_id: &str, user_id: &str) -> Arc<AsyncMutex<()>> {
        let mut locks = crate::sync::lock(&self.locks);
        let key = (server_id.to_owned(), user_id.to_owned());
        if let Some(lock) = locks.get(&key).and_then(Weak::upgrade) {
            return lock;
        }
        if locks.len() >= 64 && locks.len().is_power_of_two() {
            locks.retain(|_, lock| lock.strong_count() > 0);
        }
        let lock = Arc::new(AsyncMutex::new(()));
        locks.insert(key, Arc::downgrade(&lock));
        lock
    }

    /// How many members have a live lock entry (tests check that idle locks
    /// are freed).
    #[cfg(test)]
    fn live(&self) -> usize {
        crate::sync::lock(&self.locks)
            .values()
            .filter(|lock| lock.strong_count() > 0)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn one_member_at_a_time_and_other_members_are_free() {
        let locks = MemberLocks::default();
        let first = locks.lock("s", "alice").await;
        assert!(locks.try_lock("s", "alice").is_none());
        assert!(locks.try_lock("s", "bob").is_some());
        assert!(locks.try_lock("t", "alice").is_some());

        let waiter = tokio::spawn({
            let locks = locks.clone();
            async move { locks.lock("s", "alice").await }
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(first);
        let second = tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("the waiter gets the lock once it is free")
            .unwrap();
        drop(second);
        assert_eq!(locks.live(), 0, "idle locks are freed");
    }
}
