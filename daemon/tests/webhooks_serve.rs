//! Webhook delivery in a real `modctld serve` process (issue #22):
//!
//! - with proxies in its environment: a proxy resolves the target itself,
//!   past the SSRF guard's resolver, so deliveries never go through
//!   `HTTPS_PROXY`, `HTTP_PROXY` or `ALL_PROXY` (only through
//!   `--webhooks-proxy`, tested in `tests/tests/webhooks.rs`). A process of
//!   its own: setting the variables in the test process would race every
//!   other test's HTTP client;
//! - stopped with SIGTERM while its worker waits on an endpoint that never
//!   answers: the stop does not wait for the delivery, records no failure
//!   for it, and the next start delivers it.

use std::time::{Duration, Instant};

use crate::support::{seed, serve};
use modctl_e2e::webhooks::{Receiver, RecordingProxy};
use modctl_types::webhooks::{DeliveryDetail, DeliveryState};
use modctld::http::HttpLimits;
use serde_json::{Value, json};

const GUILD: &str = "112233445566778899";

#[tokio::test(flavor = "multi_thread")]
async fn proxies_in_the_environment_do_not_carry_webhooks_past_the_guard() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = seed(&db, "pro", "discord", GUILD);
    let proxy = RecordingProxy::start();
    let env: Vec<(&str, &str)> = [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "ALL_PROXY",
        "all_proxy",
    ]
    .into_iter()
    .map(|var| (var, proxy.url()))
    .collect();
    // The guard on, as `modctld serve` runs by default.
    let (_daemon, url) = serve(&db, &env);

    // A name for this machine: the guard refuses it when it resolves it.
    let receiver = Receiver::start();
    let local = receiver.url().replace("127.0.0.1", "localhost");
    let api = Api::new(&url, &key);
    let id = api.send_test_to(&local, &receiver).await;

    let detail = api.attempted(id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Failed);
    let error = detail.delivery.last_error.unwrap_or_default();
    assert!(error.contains("internal address"), "{error}");
    assert_eq!(proxy.seen(), Vec::<String>::new(), "sent to the proxy");
    assert!(receiver.received().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_interrupts_a_hung_delivery_which_goes_again_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = seed(&db, "pro", "discord", GUILD);
    let receiver = Receiver::start();
    receiver.hang();
    let env = [("MODCTLD_WEBHOOKS_ALLOW_INTERNAL", "true")];
    let (mut daemon, url) = serve(&db, &env);
    let id = Api::new(&url, &key)
        .send_test_to(receiver.url(), &receiver)
        .await;
    // The worker (every second) sends it; the endpoint never answers.
    let deadline = Instant::now() + Duration::from_secs(20);
    while receiver.received().is_empty() {
        assert!(Instant::now() < deadline, "the delivery never came");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let (status, took) = daemon.terminate();
    assert!(status.success(), "{status}");
    // Not the delivery's 15 s: the deliveries in flight are interrupted.
    let deadline = HttpLimits::default().shutdown_deadline;
    assert!(took < deadline, "SIGTERM took {took:?}");
    // The daemon's stop is not the endpoint's failure: nothing recorded.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (state, attempts): (String, u32) = conn
        .query_row(
            "SELECT state, attempts FROM webhook_deliveries WHERE id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((state.as_str(), attempts), ("pending", 0));

    // The next start sends it again, and the endpoint answers this time.
    let (_daemon, url) = serve(&db, &env);
    let detail = Api::new(&url, &key).attempted(id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Delivered);
    assert_eq!(
        detail.history.iter().map(|a| a.status).collect::<Vec<_>>(),
        [Some(200)]
    );
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    assert!(
        received
            .iter()
            .all(|r| r.id == received[0].id && r.verified)
    );
}

/// [`GUILD`]'s webhook endpoints, with a key.
struct Api {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl Api {
    fn new(url: &str, key: &str) -> Api {
        Api {
            http: reqwest::Client::new(),
            base: format!("{url}/api/v1/servers/{GUILD}"),
            key: key.to_owned(),
        }
    }

    /// Points the webhooks at `url` (`receiver`'s, by some name) with a new
    /// secret, which `receiver` checks signatures with; sends a test event.
    /// Its delivery id.
    async fn send_test_to(&self, url: &str, receiver: &Receiver) -> i64 {
        let response = self
            .http
            .put(format!("{}/config/webhooks", self.base))
            .bearer_auth(&self.key)
            .json(&json!({"enabled": true, "url": url, "events": ["test"]}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let post = |path: &str| {
            self.http
                .post(format!("{}{path}", self.base))
                .bearer_auth(&self.key)
                .send()
        };
        let secret: Value = post("/webhooks/secret")
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        receiver.set_secret(secret["secret"].as_str().expect("a secret"));
        let queued: Value = post("/webhooks/test").await.unwrap().json().await.unwrap();
        queued["delivery_id"].as_i64().expect("a delivery id")
    }

    /// Delivery `id` once the daemon's worker (every second) attempted it.
    async fn attempted(&self, id: i64) -> DeliveryDetail {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let detail: DeliveryDetail = self
                .http
                .get(format!("{}/webhooks/deliveries/{id}", self.base))
                .bearer_auth(&self.key)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if detail.delivery.attempts > 0 {
                return detail;
            }
            assert!(Instant::now() < deadline, "never attempted: {detail:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
