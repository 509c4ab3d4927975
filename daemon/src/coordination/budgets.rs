//! Rate budgets in process: a GCRA per key from `governor`, one keyed
//! limiter per budget and rate in use.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use super::{Budget, Rate, RateBudgets};

/// Keys or rates remembered before a map is trimmed (memory bound).
const MAX_TRACKED: usize = 10_000;

type Keyed =
    RateLimiter<String, DefaultKeyedStateStore<String>, DefaultClock, StateInformationMiddleware>;

/// [`RateBudgets`] within this process, in memory.
#[derive(Default)]
pub struct LocalBudgets {
    /// One keyed limiter per budget and rate in use (plans and operators'
    /// raises), keyed by the budget's key.
    limiters: Mutex<HashMap<(Budget, Rate), Arc<Keyed>>>,
}

impl std::fmt::Debug for LocalBudgets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalBudgets").finish_non_exhaustive()
    }
}

impl RateBudgets for LocalBudgets {
    fn take(&self, budget: Budget, key: &str, rate: Rate) -> Result<u32, Duration> {
        let limiter = {
            // One insert or clear at a time: consistent after a panic.
            let mut limiters = crate::sync::lock(&self.limiters);
            if limiters.len() >= MAX_TRACKED {
                limiters.clear();
            }
            Arc::clone(
                limiters
                    .entry((budget, rate))
                    .or_insert_with(|| Arc::new(RateLimiter::keyed(quota(rate)).with_middleware())),
            )
        };
        let taken = match limiter.check_key(&key.to_owned()) {
            Ok(snapshot) => Ok(snapshot.remaining_burst_capacity()),
            Err(not_until) => Err(not_until.wait_time_from(limiter.clock().now())),
        };
        // The limiter keeps a cell per key it has seen; made-up keys (the
        // failures of addresses and key ids) must not grow it without end.
        // Only keys whose budget is whole again are forgotten. Requests come
        // from real keys only, a bounded set, and `len` visits every shard
        // of the limiter's map: not on every request's path.
        if budget != Budget::Requests && limiter.len() >= MAX_TRACKED {
            limiter.retain_recent();
        }
        taken
    }
}

/// `rate` as governor's quota: `burst` at once, then one every minute /
/// `per_minute`.
fn quota(rate: Rate) -> Quota {
    let one = NonZeroU32::MIN;
    let period = Duration::from_secs(60) / rate.per_minute.max(1);
    Quota::with_period(period)
        .unwrap_or_else(|| Quota::per_second(one))
        .allow_burst(NonZeroU32::new(rate.burst).unwrap_or(one))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_gives_its_burst_then_says_how_long_to_wait() {
        let budgets = LocalBudgets::default();
        let rate = Rate {
            per_minute: 60,
            burst: 2,
        };
        assert_eq!(budgets.take(Budget::Requests, "k", rate), Ok(1));
        assert_eq!(budgets.take(Budget::Requests, "k", rate), Ok(0));
        let wait = budgets.take(Budget::Requests, "k", rate).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // Each key, and each budget of one key, is its own.
        assert_eq!(budgets.take(Budget::Requests, "other", rate), Ok(1));
        assert_eq!(budgets.take(Budget::FailuresOfKey, "k", rate), Ok(1));
    }
}
