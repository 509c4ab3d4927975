//! Claims on background work and ownership of platform sessions, in
//! process: a set of what is held, each entry removed when its guard drops.
//!
//! In one daemon the set still does something: a worker tick that overlaps
//! a slow previous one (a webhook run still delivering, a test's tick beside
//! the loop's) leaves alone what the other holds, so nothing is done twice
//! at once. Leases are not needed here: a claim can only outlive its holder
//! if the process dies, and the set dies with it.

use std::collections::HashSet;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;

use super::{Held, SessionKey, SessionOwnership, Work, WorkClaims};
// Each change is one insert or remove: consistent whatever a panicking
// holder was doing.
use crate::sync::lock;

/// What is held, by key; cheap to clone, clones share the set.
#[derive(Debug)]
struct Holders<K> {
    held: Arc<Mutex<HashSet<K>>>,
}

impl<K> Clone for Holders<K> {
    fn clone(&self) -> Self {
        Holders {
            held: self.held.clone(),
        }
    }
}

impl<K> Default for Holders<K> {
    fn default() -> Self {
        Holders {
            held: Arc::default(),
        }
    }
}

impl<K: Hash + Eq + Clone + Send + Sync + 'static> Holders<K> {
    /// Holds `key` unless it is held; free again when the guard drops.
    fn take(&self, key: K) -> Option<Held> {
        if !lock(&self.held).insert(key.clone()) {
            return None;
        }
        Some(Held::new(Release {
            key: Some(key),
            held: self.held.clone(),
        }))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.held).len()
    }
}

/// Removes its key from the set when dropped.
struct Release<K: Hash + Eq> {
    key: Option<K>,
    held: Arc<Mutex<HashSet<K>>>,
}

impl<K: Hash + Eq> Drop for Release<K> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            lock(&self.held).remove(&key);
        }
    }
}

/// [`WorkClaims`] within this process: the work held now, in memory.
#[derive(Debug, Clone, Default)]
pub struct LocalClaims {
    holders: Holders<Work>,
}

#[async_trait]
impl WorkClaims for LocalClaims {
    async fn claim(&self, work: Work, _lease: Duration) -> Option<Held> {
        self.holders.take(work)
    }
}

/// [`SessionOwnership`] within this process: every session is granted, to
/// one holder per key at a time.
#[derive(Debug, Clone, Default)]
pub struct LocalSessions {
    holders: Holders<SessionKey>,
}

#[async_trait]
impl SessionOwnership for LocalSessions {
    async fn acquire(&self, session: &SessionKey) -> Option<Held> {
        self.holders.take(session.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEASE: Duration = Duration::from_secs(60);

    fn endpoint(url: &str) -> Work {
        Work::WebhookEndpoint {
            server_id: "s".into(),
            url: url.into(),
        }
    }

    #[tokio::test]
    async fn a_claim_held_is_refused_to_a_second_claimer_until_dropped() {
        let claims = LocalClaims::default();
        let first = claims.claim(endpoint("https://a"), LEASE).await;
        assert!(first.is_some());
        assert!(
            claims.claim(endpoint("https://a"), LEASE).await.is_none(),
            "held by the first"
        );
        // Other work is free: another URL, another kind of work.
        let other = claims.claim(endpoint("https://b"), LEASE).await;
        assert!(other.is_some());
        let jail = Work::JailExpiry {
            server_id: "s".into(),
            case_id: 1,
        };
        assert!(claims.claim(jail, LEASE).await.is_some());

        drop(first);
        assert!(
            claims.claim(endpoint("https://a"), LEASE).await.is_some(),
            "free again once its holder let go"
        );
        drop(other);
        assert_eq!(claims.holders.len(), 0, "nothing stays held");
    }

    #[tokio::test]
    async fn sessions_are_granted_to_one_holder_per_key() {
        let sessions = LocalSessions::default();
        let gateway = SessionKey::new("gateway", "https://discord.com/api/v10", "token-a");
        let owner = sessions.acquire(&gateway).await;
        assert!(owner.is_some(), "in process, always granted");
        assert!(sessions.acquire(&gateway).await.is_none(), "one owner");
        let other = SessionKey::new("gateway", "https://discord.com/api/v10", "token-b");
        assert!(sessions.acquire(&other).await.is_some());
        drop(owner);
        assert!(sessions.acquire(&gateway).await.is_some());
    }

    #[test]
    fn a_session_key_never_shows_its_token() {
        let key = SessionKey::new("updates", "", "123:secret-token");
        assert!(!format!("{key:?}").contains("secret-token"));
        assert_eq!(key, SessionKey::new("updates", "", "123:secret-token"));
        assert_ne!(key, SessionKey::new("updates", "", "123:other-token"));
        assert_ne!(key, SessionKey::new("gateway", "", "123:secret-token"));
        assert_ne!(
            key,
            SessionKey::new("updates", "http://x", "123:secret-token")
        );
    }
}
