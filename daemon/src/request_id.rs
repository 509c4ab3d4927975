//! Request ids (issue #28): every answer carries `X-Request-Id`, every error
//! body its `request_id`, and every log line written while the request is
//! served its `request_id` (the request's span), so a user's report ("it
//! said internal error, request req_...") finds its log lines.
//!
//! # Why it looks like this
//!
//! Ids only need to be unique and cheap, not secret: a random 64-bit start
//! per process plus a counter, mixed (SplitMix64's finalizer, a bijection)
//! so consecutive ids do not look consecutive, costs no system call per
//! request. A client's own `X-Request-Id` is not taken: an id a client can
//! choose could make two requests' log lines look like one.
//!
//! The id reaches the code that writes error bodies through a task-local
//! ([`current`]), set around the handler by the logging middleware: an
//! `ApiError` is turned into a response deep inside the handler, where
//! nothing else of the request is at hand, and threading the id through
//! every handler's signature would be noise. Answers made outside that
//! scope (a connection shed at the cap) have no id.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

tokio::task_local! {
    static CURRENT: String;
}

/// The response header that carries the id.
pub const HEADER: &str = "x-request-id";

/// A new id: `req_` and 16 hex digits.
pub fn generate() -> String {
    static START: OnceLock<u64> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let start = *START.get_or_init(|| {
        let mut seed = [0u8; 8];
        // Unique per process is all that is needed; a failed read leaves
        // the ids unique within the process still.
        let _ = getrandom::fill(&mut seed);
        u64::from_le_bytes(seed)
    });
    let n = start.wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
    format!("req_{:016x}", mix(n))
}

/// SplitMix64's finalizer: a bijection on `u64`, so distinct inputs give
/// distinct ids.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Runs `future` with `id` as the current request's id.
pub async fn scope<F: Future>(id: String, future: F) -> F::Output {
    CURRENT.scope(id, future).await
}

/// The id of the request being served, if this runs inside one.
pub fn current() -> Option<String> {
    CURRENT.try_with(Clone::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_shaped() {
        let ids: std::collections::HashSet<String> = (0..10_000).map(|_| generate()).collect();
        assert_eq!(ids.len(), 10_000);
        for id in ids.iter().take(10) {
            assert_eq!(id.len(), 20, "{id}");
            assert!(id.starts_with("req_"), "{id}");
            assert!(id[4..].bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        }
    }

    #[tokio::test]
    async fn the_current_id_is_the_scope_s_only() {
        assert_eq!(current(), None);
        let seen = scope("req_1".to_owned(), async { current() }).await;
        assert_eq!(seen.as_deref(), Some("req_1"));
        assert_eq!(current(), None);
    }
}
