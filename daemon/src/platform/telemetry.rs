//! What the platform adapters measure for `GET /metrics` (issue #28):
//! every attempt of a call to a platform's API by platform and outcome,
//! its duration, the time spent waiting before a retry (a 429's
//! `retry_after`, a 5xx's backoff), and the time Discord requests waited
//! for their rate-limit bucket before being sent.
//!
//! Labels are the platform and a fixed set of outcomes: never a route, a
//! server or a user (the cardinality stays bounded whatever the daemon
//! serves). Telegram's `getUpdates` long polls are not calls here: they are
//! the polling session, and last up to 30 s by design.

use std::future::Future;
use std::time::{Duration, Instant};

use modctl_types::Platform;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

use super::retry::{Repeat, RetryPolicy};
use super::{PlatformError, PlatformResult};

/// A platform, as a label.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PlatformLabel {
    /// `discord`, `telegram` or `slack`.
    pub platform: &'static str,
}

/// A call's platform and outcome, as labels.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    /// `discord`, `telegram` or `slack`.
    pub platform: &'static str,
    /// `ok` or what failed ([`outcome`]).
    pub outcome: &'static str,
}

/// The adapters' instruments; cheap to clone (each is shared).
#[derive(Debug, Clone)]
pub struct PlatformMetrics {
    /// Attempts, by platform and outcome.
    pub calls: Family<CallLabels, Counter>,
    /// Seconds an attempt took, answer read, by platform.
    pub call_seconds: Family<PlatformLabel, Histogram>,
    /// Seconds waited between attempts of one call, by platform.
    pub retry_wait_seconds: Family<PlatformLabel, Counter<f64>>,
    /// Seconds Discord requests waited for their rate-limit bucket.
    pub rate_limit_wait_seconds: Family<PlatformLabel, Counter<f64>>,
}

impl Default for PlatformMetrics {
    fn default() -> Self {
        PlatformMetrics {
            calls: Family::default(),
            // 10 ms to about 10 s (the request timeout).
            call_seconds: Family::new_with_constructor(|| {
                Histogram::new(exponential_buckets(0.01, 2.0, 11))
            }),
            retry_wait_seconds: Family::default(),
            rate_limit_wait_seconds: Family::default(),
        }
    }
}

impl PlatformMetrics {
    /// Runs `call` under `retry` like [`RetryPolicy::run`], counting each
    /// attempt, its duration, and the waits between attempts.
    pub async fn retried<T, F, Fut>(
        &self,
        platform: Platform,
        retry: &RetryPolicy,
        repeat: Repeat,
        mut call: F,
    ) -> PlatformResult<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = PlatformResult<T>>,
    {
        let label = PlatformLabel {
            platform: platform.as_str(),
        };
        // When the previous attempt ended (a `Mutex`, not a `Cell`: the
        // call's future must be `Send`; it is never contended).
        let last_end = std::sync::Mutex::new(None::<Instant>);
        let last_end = &last_end;
        retry
            .run(repeat, || {
                let started = Instant::now();
                let previous = *last_end.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(end) = previous {
                    self.retry_wait_seconds
                        .get_or_create(&label)
                        .inc_by(started.duration_since(end).as_secs_f64());
                }
                let attempt = call();
                let label = label.clone();
                async move {
                    let result = attempt.await;
                    let ended = Instant::now();
                    *last_end.lock().unwrap_or_else(|e| e.into_inner()) = Some(ended);
                    self.call_seconds
                        .get_or_create(&label)
                        .observe(ended.duration_since(started).as_secs_f64());
                    self.calls
                        .get_or_create(&CallLabels {
                            platform: label.platform,
                            outcome: outcome(&result),
                        })
                        .inc();
                    result
                }
            })
            .await
    }

    /// Counts a wait for Discord's rate limit before a request was sent.
    pub fn waited_for_rate_limit(&self, platform: Platform, waited: Duration) {
        if !waited.is_zero() {
            self.rate_limit_wait_seconds
                .get_or_create(&PlatformLabel {
                    platform: platform.as_str(),
                })
                .inc_by(waited.as_secs_f64());
        }
    }
}

/// An attempt's outcome, as a label value: one per kind of
/// [`PlatformError`], so the set is fixed.
pub fn outcome<T>(result: &PlatformResult<T>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(PlatformError::Forbidden(_)) => "forbidden",
        Err(PlatformError::NotFound(_)) => "not_found",
        Err(PlatformError::RateLimited { .. }) => "rate_limited",
        Err(PlatformError::Server { .. }) => "server_error",
        Err(PlatformError::Unauthorized) => "unauthorized",
        Err(PlatformError::Invalid(_)) => "invalid",
        Err(PlatformError::Timeout) => "timeout",
        Err(PlatformError::Transport(_)) => "unreachable",
        Err(PlatformError::Interrupted(_)) => "interrupted",
        Err(PlatformError::Unsupported(_)) => "unsupported",
    }
}
