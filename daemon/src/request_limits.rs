//! Request rate limits of the API (spec section 8), per key and, for failed
//! authentication, per client address. Not to be confused with
//! [`crate::platform::ratelimit`], which paces the daemon's own requests to
//! Discord.
//!
//! # Per key
//!
//! Every request whose key authenticates spends one unit of its key's
//! budget: the team's plan gives the rate and the burst
//! ([`crate::plans::Entitlements::requests_per_minute`] and `burst`), and an
//! operator may set a team's own rate (`modctld team set-rate-limit`; the
//! burst is then half a minute's worth). The budget is a GCRA (in process,
//! from `governor`; the budgets are the daemon's
//! [`crate::coordination::RateBudgets`]): a key may make `burst` requests at
//! once, then one every `60 / rate` seconds. A request over budget is answered `429` with
//! `Retry-After` (whole seconds, rounded up) before its handler runs, so it
//! changes nothing and is safe to send again.
//!
//! Each response to an authenticated request carries the budget, in the
//! names of the IETF draft (draft-ietf-httpapi-ratelimit-headers):
//! `RateLimit-Limit` (requests per minute), `RateLimit-Remaining` (requests
//! that may be made at once now), `RateLimit-Reset` (seconds until the whole
//! burst is available again) and `RateLimit-Policy` (`600;w=60;burst=120`).
//! The auth extractor computes them ([`RequestLimits::check_key`]) and a
//! middleware ([`headers`]) copies them onto whatever response the request
//! ends with, a `402` or a `409` included.
//!
//! # Failed authentication, per address and per key
//!
//! Each `401` spends a unit of its client address's budget
//! ([`FAILURES_PER_MINUTE`], bursts of [`FAILURE_BURST`]), and, when the key
//! id is a real key's (a wrong secret), of that key's. Once a budget is
//! spent, failed authentications from the address (or of the key) are
//! answered `429` with `Retry-After` instead of `401`, until the budget
//! allows one again (two seconds at most): a client that keeps sending
//! wrong keys is told to back off.
//!
//! A valid key is never refused for anyone's failures, its own address's
//! included: every request is still checked, and one that authenticates
//! goes through. Behind a NAT or a proxy everyone shares an address, and
//! one misconfigured client must not lock the others out (the address is
//! the client's as [`crate::client_address`] finds it, so a trusted proxy's
//! clients each have their own). What the budgets save is not a key's
//! secret (40 random characters; no rate of guesses reaches one), but the
//! daemon's time: a request with no key, or a malformed one, costs nothing
//! to refuse, and one with a made-up key id costs a single read by primary
//! key. A key's request budget is never spent by someone else's wrong
//! secrets: only authenticated requests spend it.
//!
//! `modctld serve --no-rate-limits` turns both off (the benchmarks do; so do
//! the e2e tests, except those of the limits themselves).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

pub use crate::coordination::Rate;
use crate::coordination::{Budget, RateBudgets};
use crate::error::ApiError;
use crate::plans::Entitlements;
// A panic while holding the lock leaves the maps consistent (each
// operation is one insert or remove).
use crate::sync::lock;

/// Failed authentications per minute per client address.
pub const FAILURES_PER_MINUTE: u32 = 30;
/// Failed authentications an address may make at once.
pub const FAILURE_BURST: u32 = 10;
/// Addresses remembered as having spent their budget before the map is
/// trimmed (memory bound).
const MAX_TRACKED: usize = 10_000;

impl Rate {
    /// The rate of `plan`, or the team's own `per_minute` when set.
    pub fn for_team(plan: &Entitlements, own: Option<u32>) -> Rate {
        match own {
            Some(per_minute) => Rate {
                per_minute,
                burst: (per_minute / 2).max(1),
            },
            None => Rate {
                per_minute: plan.requests_per_minute,
                burst: plan.burst,
            },
        }
    }
}

/// The rate of failed authentications, per address and per key.
const FAILURES: Rate = Rate {
    per_minute: FAILURES_PER_MINUTE,
    burst: FAILURE_BURST,
};

/// A key's budget after a request: what the headers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// The rate applied.
    pub rate: Rate,
    /// Requests that may be made at once now.
    pub remaining: u32,
    /// Seconds until the whole burst is available again.
    pub reset_secs: u64,
}

/// The limits; cheap to clone. Off: every check passes and no header is sent.
#[derive(Clone, Default)]
pub struct RequestLimits {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    /// The budgets: of requests by key id, of failures by address and by
    /// key id (the daemon's are [`crate::coordination::Coordination::budgets`]).
    budgets: Arc<dyn RateBudgets>,
    /// Addresses whose failures are spent, until when.
    address_failures: Spent<IpAddr>,
    /// Key ids whose failures (wrong secrets of a real key) are spent.
    key_failures: Spent<String>,
}

/// Who spent their budget of failed authentications, until when.
struct Spent<K: Hash + Eq + Clone> {
    budget: Budget,
    until: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq + Clone + std::fmt::Display> Spent<K> {
    fn new(budget: Budget) -> Self {
        Spent {
            budget,
            until: Mutex::new(HashMap::new()),
        }
    }

    fn spend(&self, budgets: &dyn RateBudgets, key: &K) {
        if let Err(wait) = budgets.take(self.budget, &key.to_string(), FAILURES) {
            let mut spent = lock(&self.until);
            let now = Instant::now();
            if spent.len() >= MAX_TRACKED {
                spent.retain(|_, until| *until > now);
            }
            spent.insert(key.clone(), now + wait);
        }
    }

    /// How long until `key` may fail again, if its budget is spent.
    fn wait(&self, key: &K) -> Option<Duration> {
        let now = Instant::now();
        let mut spent = lock(&self.until);
        match spent.get(key) {
            Some(until) if *until > now => Some(*until - now),
            Some(_) => {
                spent.remove(key);
                None
            }
            None => None,
        }
    }
}

impl std::fmt::Debug for RequestLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestLimits")
            .field("on", &self.inner.is_some())
            .finish_non_exhaustive()
    }
}

impl RequestLimits {
    /// Limits on (what `modctld serve` runs with), spending `budgets`.
    pub fn on(budgets: Arc<dyn RateBudgets>) -> RequestLimits {
        RequestLimits {
            inner: Some(Arc::new(Inner {
                budgets,
                address_failures: Spent::new(Budget::FailuresFromAddress),
                key_failures: Spent::new(Budget::FailuresOfKey),
            })),
        }
    }

    /// Limits off (`--no-rate-limits`).
    pub fn off() -> RequestLimits {
        RequestLimits { inner: None }
    }

    /// Whether limits apply.
    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// Spends one request of `key_id`'s budget at `rate`: its usage, or a
    /// 429 carrying it. `None` when limits are off.
    pub fn check_key(&self, key_id: &str, rate: Rate) -> Result<Option<Usage>, (ApiError, Usage)> {
        let Some(inner) = &self.inner else {
            return Ok(None);
        };
        match inner.budgets.take(Budget::Requests, key_id, rate) {
            Ok(remaining) => Ok(Some(usage(rate, remaining))),
            Err(wait) => {
                let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let retry_after = retry_after.max(1);
                let error = ApiError::TooManyRequests {
                    message: format!(
                        "too many requests: this key may make {} requests a minute (bursts of {}); retry after {retry_after} s",
                        rate.per_minute, rate.burst
                    ),
                    retry_after,
                };
                Err((error, usage(rate, 0)))
            }
        }
    }

    /// Records a failed authentication (a `401`) from `address`, of
    /// `key_id` when the key exists, and returns what to answer: the `401`,
    /// or a `429` once the address's or the key's failures are spent.
    pub fn failed(
        &self,
        error: ApiError,
        address: Option<IpAddr>,
        key_id: Option<&str>,
    ) -> ApiError {
        let Some(inner) = &self.inner else {
            return error;
        };
        let key_id = key_id.map(str::to_owned);
        let budgets = &*inner.budgets;
        if let Some(address) = &address {
            inner.address_failures.spend(budgets, address);
        }
        if let Some(key_id) = &key_id {
            inner.key_failures.spend(budgets, key_id);
        }
        let by_address = address.and_then(|a| inner.address_failures.wait(&a));
        let by_key = key_id.and_then(|k| inner.key_failures.wait(&k));
        let (whose, wait) = match (by_address, by_key) {
            (Some(wait), _) => ("from this address", wait),
            (None, Some(wait)) => ("of this key", wait),
            (None, None) => return error,
        };
        let retry_after = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
        ApiError::TooManyRequests {
            message: format!(
                "too many failed authentications {whose} ({error}): retry after {retry_after} s with a valid key"
            ),
            retry_after,
        }
    }
}

fn usage(rate: Rate, remaining: u32) -> Usage {
    let per_request = 60.0 / f64::from(rate.per_minute.max(1));
    let missing = f64::from(rate.burst.saturating_sub(remaining));
    Usage {
        rate,
        remaining,
        reset_secs: (missing * per_request).ceil() as u64,
    }
}

/// Where the auth extractor leaves a request's usage for [`headers`].
#[derive(Debug, Clone, Default)]
pub struct UsageSlot(Arc<Mutex<Option<Usage>>>);

impl UsageSlot {
    /// Records the request's usage.
    pub fn set(&self, usage: Usage) {
        *lock(&self.0) = Some(usage);
    }
}

/// Middleware: gives each request a [`UsageSlot`] and adds the `RateLimit-*`
/// headers to its response when authentication filled it.
pub async fn headers(mut request: Request, next: Next) -> Response {
    let slot = UsageSlot::default();
    request.extensions_mut().insert(slot.clone());
    let mut response = next.run(request).await;
    if let Some(usage) = *lock(&slot.0) {
        add_headers(response.headers_mut(), usage);
    }
    response
}

fn add_headers(headers: &mut HeaderMap, usage: Usage) {
    headers.insert("ratelimit-limit", HeaderValue::from(usage.rate.per_minute));
    headers.insert("ratelimit-remaining", HeaderValue::from(usage.remaining));
    headers.insert("ratelimit-reset", HeaderValue::from(usage.reset_secs));
    let policy = format!("{};w=60;burst={}", usage.rate.per_minute, usage.rate.burst);
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert("ratelimit-policy", value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordination::LocalBudgets;

    fn on() -> RequestLimits {
        RequestLimits::on(Arc::new(LocalBudgets::default()))
    }

    #[test]
    fn a_burst_passes_then_the_next_request_waits_for_the_rate() {
        let limits = on();
        let rate = Rate {
            per_minute: 60,
            burst: 3,
        };
        for left in (0..3).rev() {
            let usage = limits.check_key("k", rate).unwrap().unwrap();
            assert_eq!(usage.remaining, left);
        }
        let (error, usage) = limits.check_key("k", rate).unwrap_err();
        assert_eq!(usage.remaining, 0);
        match error {
            ApiError::TooManyRequests { retry_after, .. } => assert_eq!(retry_after, 1),
            other => panic!("{other:?}"),
        }
        // Another key has its own budget.
        assert!(limits.check_key("other", rate).is_ok());
        // Off: never refused.
        let off = RequestLimits::off();
        for _ in 0..10 {
            assert_eq!(off.check_key("k", rate).unwrap(), None);
        }
    }

    fn is_429(error: &ApiError) -> bool {
        matches!(error, ApiError::TooManyRequests { .. })
    }

    fn fail(limits: &RequestLimits, address: [u8; 4], key: Option<&str>) -> ApiError {
        let wrong = ApiError::Unauthorized("invalid API key".into());
        limits.failed(wrong, Some(IpAddr::from(address)), key)
    }

    #[test]
    fn failures_are_answered_429_once_an_address_or_a_key_spent_its_budget() {
        let limits = on();
        for _ in 0..FAILURE_BURST {
            assert!(!is_429(&fail(&limits, [10, 0, 0, 1], None)));
        }
        let error = fail(&limits, [10, 0, 0, 1], None);
        assert!(is_429(&error), "{error:?}");
        assert!(error.to_string().contains("from this address"), "{error}");
        // Another address has its own budget.
        assert!(!is_429(&fail(&limits, [10, 0, 0, 2], None)));

        // Wrong secrets of one key, from addresses that each fail once.
        for i in 0..FAILURE_BURST {
            assert!(!is_429(&fail(&limits, [10, 1, 0, i as u8], Some("k1"))));
        }
        let error = fail(&limits, [10, 2, 0, 1], Some("k1"));
        assert!(error.to_string().contains("of this key"), "{error}");
        assert!(!is_429(&fail(&limits, [10, 2, 0, 2], Some("k2"))));

        // Off: the 401 as it is.
        let off = RequestLimits::off();
        for _ in 0..FAILURE_BURST * 2 {
            assert!(!is_429(&fail(&off, [10, 0, 0, 1], Some("k1"))));
        }
    }

    #[test]
    fn an_operator_rate_replaces_the_plans() {
        let rate = Rate::for_team(&crate::plans::FREE, Some(1000));
        assert_eq!(
            rate,
            Rate {
                per_minute: 1000,
                burst: 500
            }
        );
        assert_eq!(Rate::for_team(&crate::plans::FREE, None).per_minute, 60);
    }
}
