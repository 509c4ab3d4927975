//! Request rate limits (issue #13, spec section 8) on a daemon that runs them
//! as `modctld serve` does: per key by plan, `RateLimit-*` headers on every
//! authenticated response, `429` with `Retry-After`, the SDK's bounded retry,
//! an operator's raise, and the budget of failed authentications per address.
//!
//! The limits are real time: free's burst is 30 and one more request a
//! second, so these tests wait a second or two at most.

use std::time::{Duration, Instant};

use modctl_client::{Client, ErrorKind, Plan};
use modctl_e2e::{TestDaemon, TestKey};
use modctl_types::Scope;
use modctld::plans::{FREE, PRO};
use modctld::request_limits::FAILURE_BURST;
use modctld::store::teams;
use serde_json::Value;

async fn get_me(daemon: &TestDaemon, key: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(daemon.api("/me"))
        .bearer_auth(key)
        .send()
        .await
        .expect("request")
}

fn header(response: &reqwest::Response, name: &str) -> Option<u64> {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().parse().unwrap())
}

/// Requests until the key's budget is spent: at least `burst` requests
/// pass (more if the rate refilled meanwhile, on a slow machine), each a 200
/// with the headers; returns the first 429.
async fn exhaust(daemon: &TestDaemon, key: &TestKey, burst: u32) -> reqwest::Response {
    let mut passed = 0;
    loop {
        let response = get_me(daemon, &key.full).await;
        if response.status() == 429 {
            assert!(passed >= burst, "refused after {passed} requests");
            return response;
        }
        assert_eq!(response.status(), 200);
        assert!(header(&response, "ratelimit-remaining").unwrap() < u64::from(burst));
        passed += 1;
        assert!(passed < burst * 3, "never refused");
    }
}

fn start() -> (TestDaemon, TestKey) {
    let daemon = TestDaemon::start_with_rate_limits();
    daemon.team("beta", Plan::Free);
    let key = daemon.key("beta", Scope::Write);
    (daemon, key)
}

#[tokio::test]
async fn every_response_says_the_budget_and_the_one_over_it_is_a_429_with_retry_after() {
    let (daemon, key) = start();
    let first = get_me(&daemon, &key.full).await;
    assert_eq!(
        header(&first, "ratelimit-limit"),
        Some(u64::from(FREE.requests_per_minute))
    );
    assert_eq!(
        header(&first, "ratelimit-remaining"),
        Some(u64::from(FREE.burst - 1))
    );
    assert_eq!(header(&first, "ratelimit-reset"), Some(1));
    assert_eq!(
        first.headers()["ratelimit-policy"],
        format!("{};w=60;burst={}", FREE.requests_per_minute, FREE.burst).as_str()
    );
    // Error answers after authentication carry them too.
    let missing = reqwest::Client::new()
        .get(daemon.api("/servers/999999999999999999"))
        .bearer_auth(&key.full)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(
        header(&missing, "ratelimit-remaining"),
        Some(u64::from(FREE.burst - 2))
    );

    let refused = exhaust(&daemon, &key, FREE.burst - 2).await;
    assert_eq!(header(&refused, "retry-after"), Some(1));
    assert_eq!(header(&refused, "ratelimit-remaining"), Some(0));
    let body: Value = refused.json().await.unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("this key may make 60 requests a minute (bursts of 30); retry after 1 s"),
        "{body}"
    );

    // Another key of the same team has its own budget.
    let other = daemon.key("beta", Scope::Read);
    assert_eq!(get_me(&daemon, &other.full).await.status(), 200);
    // And the budget comes back at the plan's rate.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(get_me(&daemon, &key.full).await.status(), 200);
}

#[tokio::test]
async fn the_sdk_waits_out_retry_after_and_can_be_told_not_to() {
    let (daemon, key) = start();
    // 10 a minute (bursts of 5): once spent, the next request is about 6 s
    // away, so the SDK's first attempt below is surely refused.
    daemon.write(|tx| teams::set_rate_limit(tx, "beta", Some(10)));
    exhaust(&daemon, &key, 5).await;

    let no_retry = Client::builder()
        .base_url(daemon.url())
        .api_key(&key.full)
        .rate_limit_retries(0)
        .build()
        .unwrap();
    let err = no_retry.me().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    let wait = err.retry_after().expect("Retry-After");
    assert!(
        (Duration::from_secs(5)..=Duration::from_secs(6)).contains(&wait),
        "{wait:?}"
    );

    let started = Instant::now();
    let me = daemon
        .client(&key)
        .me()
        .await
        .expect("retried after Retry-After");
    assert_eq!(me.team.name, "beta");
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "the SDK waited: {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn pro_has_its_own_rate_and_an_operator_can_raise_a_teams() {
    let (daemon, key) = start();
    daemon.team("alpha", Plan::Pro);
    let pro = daemon.key("alpha", Scope::Read);
    let response = get_me(&daemon, &pro.full).await;
    assert_eq!(
        header(&response, "ratelimit-limit"),
        Some(u64::from(PRO.requests_per_minute))
    );

    daemon.write(|tx| teams::set_rate_limit(tx, "beta", Some(1000)));
    let raised = get_me(&daemon, &key.full).await;
    assert_eq!(header(&raised, "ratelimit-limit"), Some(1000));
    assert_eq!(header(&raised, "ratelimit-remaining"), Some(499));
    daemon.write(|tx| teams::set_rate_limit(tx, "beta", None));
    let back = get_me(&daemon, &key.full).await;
    assert_eq!(header(&back, "ratelimit-limit"), Some(60));
}

#[tokio::test]
async fn wrong_keys_spend_the_addresss_budget_but_a_valid_key_from_it_always_passes() {
    let (daemon, key) = start();
    // The same key id, its secret's last character changed.
    let (kept, last) = key.full.split_at(key.full.len() - 1);
    let wrong = format!("{kept}{}", if last == "x" { "y" } else { "x" });
    for n in 0..FAILURE_BURST {
        let response = get_me(&daemon, &wrong).await;
        assert_eq!(response.status(), 401, "attempt {n}");
        assert!(response.headers().get("ratelimit-limit").is_none());
    }
    // The budget is spent: failures are told to back off...
    let refused = get_me(&daemon, &wrong).await;
    assert_eq!(refused.status(), 429);
    assert!(header(&refused, "retry-after").unwrap() >= 1);
    // ...and a malformed key costs no lookup to refuse.
    let trips = daemon.store().trips();
    let refused = get_me(&daemon, "mdk_unknownkey12_secret").await;
    assert_eq!(refused.status(), 429);
    assert_eq!(daemon.store().trips(), trips, "the key was not looked up");
    // The valid key from the same address is never refused for those
    // failures (behind a NAT, they are someone else's), interleaved with
    // five more wrong keys a second as the hostile test sent them.
    for _ in 0..20 {
        // 401 when the budget has refilled one failure (one per 2 s).
        let failed = get_me(&daemon, &wrong).await.status();
        assert!(matches!(failed.as_u16(), 401 | 429), "{failed}");
        let response = get_me(&daemon, &key.full).await;
        assert_eq!(response.status(), 200);
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_failure_budget() {
    let daemon = TestDaemon::start_behind_proxy();
    daemon.team("beta", Plan::Free);
    let key = daemon.key("beta", Scope::Read);
    // Made-up keys, so only the addresses' budgets count (a real key's
    // wrong secrets spend that key's budget too, whoever sends them).
    let wrong = "mdk_unknownkey12_0123456789abcdefghij0123456789abcdefghij".to_owned();
    let from = |client: &'static str, key: String| {
        let url = daemon.api("/me");
        async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(key)
                // A client's own claim first; the proxy appends the address
                // it received the request from.
                .header("x-forwarded-for", format!("198.51.100.99, {client}"))
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    for _ in 0..FAILURE_BURST {
        assert_eq!(from("203.0.113.1", wrong.clone()).await, 401);
    }
    assert_eq!(from("203.0.113.1", wrong.clone()).await, 429);
    // Another client of the same proxy has a whole budget: its failure is a
    // plain 401, not a share of the first one's 429.
    assert_eq!(from("203.0.113.2", wrong.clone()).await, 401);
    assert_eq!(from("203.0.113.2", key.full.clone()).await, 200);
}

#[tokio::test]
async fn a_daemon_without_limits_sends_no_headers_and_never_429s() {
    let daemon = TestDaemon::start();
    daemon.team("beta", Plan::Free);
    let key = daemon.key("beta", Scope::Read);
    for _ in 0..FREE.burst + 5 {
        let response = get_me(&daemon, &key.full).await;
        assert_eq!(response.status(), 200);
        assert!(response.headers().get("ratelimit-limit").is_none());
    }
}
