//! Bounded retries for answers that say "later": 429 (honouring the
//! platform's `retry_after`) and 5xx or timeouts (with exponential backoff).
//!
//! A 5xx or a lost answer does not say the platform did nothing: it may
//! have carried the request out and failed afterwards. Sending it again is
//! only harmless when a second send has the effect of one and answers the
//! same ([`Repeat::Safe`]: setting a state, reading). Any other call
//! ([`Repeat::Once`]: a kick, lifting a ban, posting a message) is repeated
//! only after an answer that says it was not carried out (429) or when it
//! never left (no connection); its caller asks the platform what is true
//! (see `crate::moderation::recovery::confirm`). Otherwise a kick applied,
//! then answered 502, is repeated, answered 404 "Unknown Member", and
//! recorded as "not applied: check the user id".

use std::future::Future;
use std::time::Duration;

use super::{PlatformError, PlatformResult};

/// How often and how long to retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// A `retry_after` longer than this is not waited for; the call fails.
    pub max_wait: Duration,
    /// First backoff after a 5xx or timeout; doubles each time.
    pub backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            max_wait: Duration::from_secs(10),
            backoff: Duration::from_millis(250),
        }
    }
}

/// Whether a call may be sent again after a failure that leaves open
/// whether the platform carried it out (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Sending it twice does what sending it once does, and answers the
    /// same: retried after 5xx and lost answers too.
    Safe,
    /// A second send could act twice or answer differently: retried only
    /// after a 429 or a connection that was never made.
    Once,
}

impl RetryPolicy {
    /// Runs `call` until it succeeds, fails for good, or attempts run out;
    /// then returns the last result. `repeat` says whether a failure that
    /// may have been carried out is retried.
    pub async fn run<T, F, Fut>(&self, repeat: Repeat, mut call: F) -> PlatformResult<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = PlatformResult<T>>,
    {
        let mut attempt = 1;
        loop {
            let result = call().await;
            let wait = match &result {
                Err(PlatformError::RateLimited { retry_after })
                    if *retry_after <= self.max_wait =>
                {
                    *retry_after
                }
                Err(PlatformError::Transport(_)) => self.backoff * 2u32.saturating_pow(attempt - 1),
                Err(e) if e.may_have_applied() && repeat == Repeat::Safe => {
                    self.backoff * 2u32.saturating_pow(attempt - 1)
                }
                _ => return result,
            };
            if attempt >= self.max_attempts {
                return result;
            }
            tracing::debug!(
                attempt,
                wait_ms = wait.as_millis() as u64,
                "platform asked to retry later"
            );
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 3,
            max_wait: Duration::from_millis(50),
            backoff: Duration::from_millis(1),
        }
    }

    #[tokio::test]
    async fn a_429_then_success_succeeds() {
        let calls = AtomicU32::new(0);
        let result = policy()
            .run(Repeat::Safe, || async {
                match calls.fetch_add(1, Ordering::SeqCst) {
                    0 => Err(PlatformError::RateLimited {
                        retry_after: Duration::from_millis(5),
                    }),
                    _ => Ok(7),
                }
            })
            .await;
        assert_eq!(result, Ok(7));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn attempts_are_bounded_and_permanent_errors_are_not_retried() {
        let calls = AtomicU32::new(0);
        let result: PlatformResult<()> = policy()
            .run(Repeat::Safe, || async {
                calls.fetch_add(1, Ordering::SeqCst);
                Err(PlatformError::Server {
                    status: 502,
                    message: "bad gateway".into(),
                })
            })
            .await;
        assert!(matches!(
            result,
            Err(PlatformError::Server { status: 502, .. })
        ));
        assert_eq!(calls.load(Ordering::SeqCst), 3);

        calls.store(0, Ordering::SeqCst);
        let result: PlatformResult<()> = policy()
            .run(Repeat::Safe, || async {
                calls.fetch_add(1, Ordering::SeqCst);
                Err(PlatformError::Forbidden("Missing Permissions".into()))
            })
            .await;
        assert!(result.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    /// A call that may act twice is not sent again once the platform may
    /// have carried it out; a 429 or a connection never made still is.
    #[tokio::test]
    async fn a_call_sent_once_is_repeated_only_when_it_surely_did_nothing() {
        for failure in [
            PlatformError::Server {
                status: 502,
                message: "bad gateway".into(),
            },
            PlatformError::Timeout,
            PlatformError::Interrupted("connection reset".into()),
        ] {
            let calls = AtomicU32::new(0);
            let result: PlatformResult<()> = policy()
                .run(Repeat::Once, || async {
                    calls.fetch_add(1, Ordering::SeqCst);
                    Err(failure.clone())
                })
                .await;
            assert_eq!(result, Err(failure.clone()));
            assert_eq!(calls.load(Ordering::SeqCst), 1, "{failure:?}");
        }
        for failure in [
            PlatformError::RateLimited {
                retry_after: Duration::from_millis(1),
            },
            PlatformError::Transport("connection refused".into()),
        ] {
            let calls = AtomicU32::new(0);
            let result = policy()
                .run(Repeat::Once, || async {
                    match calls.fetch_add(1, Ordering::SeqCst) {
                        0 => Err(failure.clone()),
                        _ => Ok(()),
                    }
                })
                .await;
            assert_eq!(result, Ok(()), "{failure:?}");
            assert_eq!(calls.load(Ordering::SeqCst), 2);
        }
    }

    #[tokio::test]
    async fn a_retry_after_beyond_the_limit_is_not_waited_for() {
        let calls = AtomicU32::new(0);
        let result: PlatformResult<()> = policy()
            .run(Repeat::Safe, || async {
                calls.fetch_add(1, Ordering::SeqCst);
                Err(PlatformError::RateLimited {
                    retry_after: Duration::from_secs(60),
                })
            })
            .await;
        assert!(matches!(result, Err(PlatformError::RateLimited { .. })));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
