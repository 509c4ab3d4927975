//! Pacing Discord requests so Discord never has to refuse one.
//!
//! Discord counts 401, 403 and 429 answers against an *invalid request*
//! budget (10,000 per 10 minutes per IP, then a temporary ban), so reacting
//! to 429s is not enough: every request waits, before it is sent, until its
//! route bucket and the global limit (50 per second per bot token) have room
//! for it. A 429 that still happens (another process on the same token, a
//! limit Discord changed) is recorded and waited out by the caller's bounded
//! retry policy ([`super::RetryPolicy`]).
//!
//! The rules live in [`buckets`], a pure state machine fed with "now";
//! this module only waits: [`DiscordLimiter::acquire`] asks the state whether
//! a request may go, and sleeps until the instant it names or until an
//! answer changes the state. The state is per bot token and kept in
//! [`DiscordLimiters`], which [`super::PlatformClients`] holds for the whole
//! daemon: adapters are made per request, the limits must outlive them.
//!
//! Not used: `twilight-http-ratelimiting`. It builds on `http` 0.2 (reqwest
//! uses 1.x), keys state by its own `Path` enum rather than by the bucket
//! hash Discord names (routes sharing a bucket are not tied together),
//! paces the global limit from a background task spawned when it is built,
//! and has no notion of a wait too long to take; what the daemon needs is
//! the ~300 lines here.

mod buckets;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::Notify;
use tokio::time::Instant;

pub use buckets::{Decision, GLOBAL_LIMIT, GLOBAL_WINDOW, Limits, Observed, Route, Ticket};

use super::{PlatformError, PlatformResult};

/// The limits of one bot token, shared by every adapter using it.
#[derive(Debug, Default)]
pub struct DiscordLimiter {
    limits: Mutex<Limits>,
    /// Woken by every answer: a request waiting for one looks again.
    answered: Notify,
}

impl DiscordLimiter {
    fn limits(&self) -> MutexGuard<'_, Limits> {
        // The state stays consistent between statements; a panic elsewhere
        // must not stop every later Discord request.
        self.limits.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until a request on `route` may be sent, then counts it. A
    /// wait longer than `max_wait` is not taken: the call fails as rate
    /// limited (as it would after such a 429), and nothing is sent.
    pub async fn acquire<'a>(
        &'a self,
        route: &'a Route,
        max_wait: Duration,
    ) -> PlatformResult<Permit<'a>> {
        loop {
            let answered = self.answered.notified();
            tokio::pin!(answered);
            // Registered before looking, so an answer in between is seen.
            answered.as_mut().enable();
            let now = Instant::now();
            let decision = self.limits().try_acquire(route, now);
            match decision {
                Decision::Send(ticket) => {
                    return Ok(Permit {
                        limiter: self,
                        route,
                        ticket: Some(ticket),
                    });
                }
                Decision::WaitUntil(until) => {
                    let wait = until.saturating_duration_since(now);
                    if wait > max_wait {
                        return Err(PlatformError::RateLimited { retry_after: wait });
                    }
                    tracing::debug!(
                        wait_ms = wait.as_millis() as u64,
                        "waiting for Discord's rate limit"
                    );
                    tokio::select! {
                        () = tokio::time::sleep_until(until) => {}
                        () = answered => {}
                    }
                }
                // The request in flight ends within the HTTP client's
                // timeout, and its permit notifies even if abandoned.
                Decision::WaitForAnswer => answered.await,
            }
        }
    }

    fn complete(&self, route: &Route, ticket: Ticket, answer: Option<&Observed>) {
        self.limits()
            .complete(route, ticket, answer, Instant::now());
        self.answered.notify_waiters();
    }
}

/// A request's place in its bucket; give the answer back with
/// [`Permit::answered`]. Dropped without an answer (the connection failed,
/// the call was abandoned) it frees its place but stays counted.
#[derive(Debug)]
#[must_use = "a permit dropped before sending frees its place at once"]
pub struct Permit<'a> {
    limiter: &'a DiscordLimiter,
    route: &'a Route,
    ticket: Option<Ticket>,
}

impl Permit<'_> {
    /// Records what the answer said.
    pub fn answered(mut self, answer: &Observed) {
        if let Some(ticket) = self.ticket.take() {
            self.limiter.complete(self.route, ticket, Some(answer));
        }
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        if let Some(ticket) = self.ticket.take() {
            self.limiter.complete(self.route, ticket, None);
        }
    }
}

/// One [`DiscordLimiter`] per bot token (and API base), for the daemon.
#[derive(Debug, Clone, Default)]
pub struct DiscordLimiters {
    /// Keyed by a SHA-256 of API base and token, so the map holds no token.
    by_token: Arc<Mutex<HashMap<[u8; 32], Arc<DiscordLimiter>>>>,
}

impl DiscordLimiters {
    /// The limiter of `token` at `api_base` (made on first use).
    pub fn for_token(&self, api_base: &str, token: &str) -> Arc<DiscordLimiter> {
        let mut hash = Sha256::new();
        hash.update(api_base.as_bytes());
        hash.update([0]);
        hash.update(token.as_bytes());
        let key: [u8; 32] = hash.finalize().into();
        self.by_token
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(remaining: u32) -> Observed {
        Observed {
            status: 200,
            bucket: Some("b".into()),
            limit: Some(2),
            remaining: Some(remaining),
            reset_after: Some(Duration::from_millis(300)),
            ..Observed::default()
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_waits_for_its_bucket_to_reset() {
        let limiter = DiscordLimiter::default();
        let route = Route::new("PUT", "/guilds/1/bans/2");
        let max = Duration::from_secs(1);
        limiter
            .acquire(&route, max)
            .await
            .unwrap()
            .answered(&answer(1));
        limiter
            .acquire(&route, max)
            .await
            .unwrap()
            .answered(&answer(0));
        let start = Instant::now();
        let permit = limiter.acquire(&route, max).await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_millis(300));
        drop(permit);
    }

    #[tokio::test(start_paused = true)]
    async fn a_wait_beyond_the_limit_fails_without_sending() {
        let limiter = DiscordLimiter::default();
        let route = Route::new("PUT", "/guilds/1/bans/2");
        let max = Duration::from_millis(100);
        limiter
            .acquire(&route, max)
            .await
            .unwrap()
            .answered(&answer(0));
        let refused = limiter.acquire(&route, max).await.unwrap_err();
        assert_eq!(
            refused,
            PlatformError::RateLimited {
                retry_after: Duration::from_millis(300)
            }
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_waiting_for_an_answer_goes_when_it_comes() {
        let limiter = Arc::new(DiscordLimiter::default());
        let route = Route::new("GET", "/users/@me");
        let max = Duration::from_secs(1);
        let first = limiter.acquire(&route, max).await.unwrap();
        let waiter = {
            let limiter = limiter.clone();
            tokio::spawn(async move {
                let route = Route::new("GET", "/users/@me");
                limiter.acquire(&route, max).await.map(drop)
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        // Abandoned, not answered: the place is free all the same.
        drop(first);
        waiter.await.unwrap().unwrap();
    }

    #[test]
    fn limiters_are_per_token_and_api_base() {
        let limiters = DiscordLimiters::default();
        let a = limiters.for_token("https://discord.com/api/v10", "token-a");
        assert!(Arc::ptr_eq(
            &a,
            &limiters
                .clone()
                .for_token("https://discord.com/api/v10", "token-a")
        ));
        assert!(!Arc::ptr_eq(
            &a,
            &limiters.for_token("https://discord.com/api/v10", "token-b")
        ));
        assert!(!Arc::ptr_eq(
            &a,
            &limiters.for_token("http://127.0.0.1:1", "token-a")
        ));
    }
}
