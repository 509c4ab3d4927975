//! What a request costs in store trips, and that what authentication
//! remembers between requests is never stale (issue #9, "one read trip per
//! request"). The trips are counted with [`modctld::store::Store::trips`].

use std::future::Future;
use std::time::Duration;

use modctl_e2e::{
    ALPHA_DISCORD, BETA_DISCORD, Fixture, TestDaemon, TestKey, UNCLAIMED, error_body,
};
use modctl_types::config::SectionName;
use modctl_types::{Plan, Platform, Scope};
use reqwest::StatusCode;

/// GETs `path` with `key`; returns the status and the body's error message
/// (empty on success).
async fn get(daemon: &TestDaemon, key: &TestKey, path: &str) -> (StatusCode, String) {
    let response = reqwest::Client::new()
        .get(daemon.api(path))
        .bearer_auth(&key.full)
        .send()
        .await
        .unwrap();
    if response.status().is_success() {
        (response.status(), String::new())
    } else {
        error_body(response).await
    }
}

/// The store trips one run of `f` made.
async fn trips_of<Fut: Future>(daemon: &TestDaemon, f: impl FnOnce() -> Fut) -> u64 {
    let before = daemon.store().trips();
    f().await;
    daemon.store().trips() - before
}

/// Waits until the daemon's start-up work is over: the workers that tick
/// at once when it starts (log retention, own invites, ...) each read the
/// store, and a read of theirs landing inside a measured window would be
/// counted as the request's. Quiet: no trip for 300 ms (at most 10 s).
async fn quiet(daemon: &TestDaemon) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut last = daemon.store().trips();
    let mut still = 0;
    while still < 3 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = daemon.store().trips();
        still = if now == last { still + 1 } else { 0 };
        last = now;
    }
}

/// The store trips of one successful GET of `path`.
async fn trips_of_get(daemon: &TestDaemon, key: &TestKey, path: &str) -> u64 {
    trips_of(daemon, || async {
        assert_eq!(get(daemon, key, path).await.0, StatusCode::OK, "{path}");
    })
    .await
}

/// Asserts that a run of `scenario` makes exactly the `expected` trips, each
/// element one step. A background worker waking up during a run adds trips
/// to it, never removes any, so a run above is tried again (up to 3 runs)
/// while one below fails at once.
async fn assert_trips<Fut>(expected: &[u64], mut scenario: impl FnMut() -> Fut)
where
    Fut: Future<Output = Vec<u64>>,
{
    let mut runs = Vec::new();
    for _ in 0..3 {
        let counted = scenario().await;
        assert!(
            counted.iter().zip(expected).all(|(c, e)| c >= e),
            "fewer trips than expected: {counted:?} < {expected:?}"
        );
        if counted == expected {
            return;
        }
        runs.push(counted);
    }
    panic!("expected {expected:?} trips, counted {runs:?}");
}

/// Makes requests with `key` until nothing is left to read or write for it:
/// the first one records `last_used_at`, and that commit empties the cache.
async fn warm(daemon: &TestDaemon, key: &TestKey) {
    for _ in 0..3 {
        assert_eq!(get(daemon, key, "/me").await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn a_remembered_key_costs_no_trip_before_the_handlers_one_read() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = &fixture.alpha_ro;
    let cases = format!("/servers/{ALPHA_DISCORD}/cases?limit=50");
    let server = format!("/servers/{ALPHA_DISCORD}");
    warm(daemon, key).await;
    assert_trips(&[0, 1, 0, 1], || async {
        let mut counted = Vec::new();
        for path in ["/me", &cases, &server, "/servers"] {
            counted.push(trips_of_get(daemon, key, path).await);
        }
        counted
    })
    .await;
}

#[tokio::test]
async fn a_write_makes_no_trip_before_its_own_write() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    warm(daemon, &fixture.alpha_rw).await;
    let mut days = 30;
    assert_trips(&[1, 1], || {
        // Each run commits first, so it starts with nothing remembered.
        daemon.team(&format!("other{days}"), Plan::Free);
        days += 1;
        let body = serde_json::json!({"expiry_days": days, "ladder": []});
        let client = &client;
        async move {
            // Reads the key and the server again, in one trip.
            let refill = trips_of(daemon, || async {
                client.server(ALPHA_DISCORD).await.unwrap();
            })
            .await;
            let write = trips_of(daemon, || async {
                client
                    .replace_section_json(ALPHA_DISCORD, SectionName::Strikes, &body, None)
                    .await
                    .unwrap();
            })
            .await;
            vec![refill, write]
        }
    })
    .await;
}

#[tokio::test]
async fn after_a_commit_the_next_request_reads_the_key_again() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = &fixture.alpha_ro;
    warm(daemon, key).await;
    let mut teams = 0;
    assert_trips(&[1, 0], || {
        // Any commit, even one that touches neither keys nor servers.
        teams += 1;
        daemon.team(&format!("other{teams}"), Plan::Free);
        async {
            let mut counted = Vec::new();
            for _ in 0..2 {
                counted.push(trips_of_get(daemon, key, "/me").await);
            }
            counted
        }
    })
    .await;
}

#[tokio::test]
async fn a_busy_key_records_its_use_once_a_minute() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = &fixture.alpha_ro;
    // Its first window has no retry (the first use is written once).
    quiet(daemon).await;
    let first = trips_of(daemon, || async {
        let mut requests = tokio::task::JoinSet::new();
        for _ in 0..8 {
            let (url, full) = (daemon.api("/me"), key.full.clone());
            requests.spawn(async move {
                let response = reqwest::Client::new().get(url).bearer_auth(full).send();
                response.await.unwrap().status()
            });
        }
        while let Some(status) = requests.join_next().await {
            assert_eq!(status.unwrap(), StatusCode::OK);
        }
    })
    .await;
    let used = daemon.key_record(&key.key_id).last_used_at.unwrap();
    assert_eq!(used.as_second(), daemon.now_unix());
    // One write and 1 to 8 reads of the key (the write empties the cache):
    // concurrent requests claim the write once.
    assert!((2..=9).contains(&first), "{first} trips");

    daemon.clock().advance(Duration::from_secs(59));
    warm(daemon, key).await;
    assert_eq!(daemon.key_record(&key.key_id).last_used_at, Some(used));
    daemon.clock().advance(Duration::from_secs(1));
    warm(daemon, key).await;
    assert_eq!(
        daemon
            .key_record(&key.key_id)
            .last_used_at
            .unwrap()
            .as_second(),
        daemon.now_unix()
    );
}

#[tokio::test]
async fn a_remembered_key_that_expires_is_refused_at_once() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = daemon.key_expiring("alpha", Scope::Read, Some(daemon.now_unix() + 60));
    warm(daemon, &key).await;
    let cached = trips_of_get(daemon, &key, "/me").await;
    assert_eq!(cached, 0, "the key was remembered");
    let used = daemon.key_record(&key.key_id).last_used_at;

    daemon.clock().advance(Duration::from_secs(60));
    let (status, message) = get(daemon, &key, "/me").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message.contains("expired"), "{message}");
    assert_eq!(
        daemon.key_record(&key.key_id).last_used_at,
        used,
        "refusals write nothing"
    );
}

#[tokio::test]
async fn a_remembered_key_that_is_revoked_is_refused_at_once() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = &fixture.alpha_rw;
    let path = format!("/servers/{ALPHA_DISCORD}/cases");
    warm(daemon, key).await;
    get(daemon, key, &path).await;
    let cached = trips_of_get(daemon, key, &path).await;
    assert_eq!(cached, 1, "the key and the server were remembered");
    daemon.revoke(&key.key_id);
    let (status, message) = get(daemon, key, &path).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(message.contains("revoked"), "{message}");
}

#[tokio::test]
async fn claims_made_while_serving_are_seen_at_once() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let key = &fixture.alpha_ro;
    let client = daemon.client(key);
    let unclaimed = format!("/servers/{UNCLAIMED}");
    let beta = format!("/servers/{BETA_DISCORD}");
    warm(daemon, key).await;
    assert_eq!(trips_of_get(daemon, key, "/me").await, 0);
    assert_eq!(client.me().await.unwrap().server_count, 3);
    assert_eq!(get(daemon, key, &unclaimed).await.0, StatusCode::NOT_FOUND);
    assert_eq!(get(daemon, key, &beta).await.0, StatusCode::FORBIDDEN);
    daemon.claim("alpha", Platform::Discord, UNCLAIMED, "New Guild");
    assert_eq!(get(daemon, key, &unclaimed).await.0, StatusCode::OK);
    // The server count `/me` shows is remembered with the key, and as fresh.
    assert_eq!(client.me().await.unwrap().server_count, 4);
    // A remembered claim of another team stays refused.
    assert_eq!(get(daemon, key, &beta).await.0, StatusCode::FORBIDDEN);
}
