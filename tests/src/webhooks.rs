//! A webhook receiver for the tests: records every delivery and checks its
//! Standard Webhooks signature with the specification's reference library
//! (the `standardwebhooks` crate), nothing of ours, so a bug in the
//! daemon's signing cannot hide behind the same bug here, and what passes
//! is what a receiver on the reference libraries accepts.
//!
//! Answers come from a script ([`Receiver::answer`], or [`Receiver::hang`]
//! for an endpoint that accepts a delivery and never answers); once it runs
//! out, every delivery gets 200.
//!
//! Then a [`RecordingProxy`], which records what reaches it and refuses it,
//! and the calls the webhook tests make over HTTP ([`configure`],
//! [`send_test`], [`delivery`], ...).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use modctl_types::webhooks::{DeliveryDetail, Enqueued};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::{oneshot, watch};

use crate::{TestDaemon, TestKey};

/// One delivery as received.
#[derive(Debug, Clone)]
pub struct Received {
    /// `webhook-id`.
    pub id: String,
    /// `webhook-timestamp`, unix seconds.
    pub timestamp: i64,
    /// `webhook-signature`, as sent.
    pub signature: String,
    /// The body as JSON.
    pub body: Value,
    /// The body as received, for checks that need its exact bytes (a
    /// signature covers those, not a re-serialization).
    pub raw: Vec<u8>,
    /// Whether the signature checked out against the receiver's secret.
    pub verified: bool,
}

/// One scripted answer.
#[derive(Debug)]
enum Answer {
    /// This status with these headers.
    Status(u16, Vec<(String, String)>),
    /// None: the request is held until the receiver stops.
    Hang,
}

#[derive(Debug, Default)]
struct Shared {
    secret: Option<String>,
    script: VecDeque<Answer>,
    received: Vec<Received>,
    /// How many of `received` verified.
    verified: usize,
}

/// The receiver's state as its handler sees it.
#[derive(Debug, Clone)]
struct Handler {
    shared: Arc<Mutex<Shared>>,
    /// Turns true when the receiver stops: the held requests end.
    stopping: watch::Receiver<bool>,
}

/// A receiver on `127.0.0.1`; stopped when dropped.
#[derive(Debug)]
pub struct Receiver {
    url: String,
    shared: Arc<Mutex<Shared>>,
    stopping: watch::Sender<bool>,
    // Dropped after `stopping` is sent (see `Drop`), so that the requests
    // held end and the server can stop.
    _server: LocalServer,
}

impl Receiver {
    /// Starts a receiver on an ephemeral port.
    pub fn start() -> Receiver {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let (stopping, stopping_rx) = watch::channel(false);
        let state = Handler {
            shared: shared.clone(),
            stopping: stopping_rx,
        };
        let server = LocalServer::start(|listener, shutdown| async move {
            let app = axum::Router::new().fallback(receive).with_state(state);
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = shutdown.await;
                })
                .await
                .expect("serve");
        });
        Receiver {
            url: format!("http://127.0.0.1:{}/hook", server.port),
            shared,
            stopping,
            _server: server,
        }
    }

    /// The URL to set as `webhooks.url`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The secret signatures are checked with.
    pub fn set_secret(&self, secret: &str) {
        self.lock().secret = Some(secret.to_owned());
    }

    /// The next delivery (after those already scripted) gets `status` with
    /// `headers`.
    pub fn answer(&self, status: u16, headers: &[(&str, &str)]) {
        let headers = headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        self.lock()
            .script
            .push_back(Answer::Status(status, headers));
    }

    /// The next delivery (after those already scripted) is received and
    /// never answered: the request is held until the receiver is dropped,
    /// as by an endpoint that hangs.
    pub fn hang(&self) {
        self.lock().script.push_back(Answer::Hang);
    }

    /// How many deliveries were received, and how many of them verified
    /// (cheaper than [`Receiver::received`] for a benchmark's polling).
    pub fn counts(&self) -> (usize, usize) {
        let shared = self.lock();
        (shared.received.len(), shared.verified)
    }

    /// Every delivery received so far, oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.lock().received.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().expect("receiver state")
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.stopping.send(true);
    }
}

/// A server on `127.0.0.1` in a thread with a runtime of its own; stopped
/// (its shutdown signal sent, its thread joined) when dropped.
#[derive(Debug)]
struct LocalServer {
    port: u16,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl LocalServer {
    /// Binds an ephemeral port and runs `serve` on it until the shutdown
    /// signal it is given completes.
    fn start<F, Fut>(serve: F) -> LocalServer
    where
        F: FnOnce(tokio::net::TcpListener, oneshot::Receiver<()>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()>,
    {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                let port = listener.local_addr().expect("address").port();
                ready_tx.send(port).expect("report ready");
                serve(listener, shutdown_rx).await;
            });
        });
        LocalServer {
            port: ready_rx.recv().expect("server started"),
            shutdown: Some(shutdown_tx),
            thread: Some(thread),
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn receive(State(handler): State<Handler>, headers: HeaderMap, body: Bytes) -> Response {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let id = header("webhook-id");
    let timestamp = header("webhook-timestamp").parse().unwrap_or(-1);
    let signature = header("webhook-signature");
    let text = String::from_utf8_lossy(&body).into_owned();
    let next = {
        let mut shared = handler.shared.lock().expect("receiver state");
        let verified = shared
            .secret
            .as_deref()
            .is_some_and(|secret| verify(secret, &id, timestamp, &text, &signature));
        shared.verified += usize::from(verified);
        shared.received.push(Received {
            id,
            timestamp,
            signature,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
            raw: body.to_vec(),
            verified,
        });
        shared.script.pop_front()
    };
    let (status, extra) = match next {
        Some(Answer::Status(status, extra)) => (status, extra),
        None => (200, Vec::new()),
        Some(Answer::Hang) => {
            let mut stopping = handler.stopping;
            let _ = stopping.wait_for(|stopping| *stopping).await;
            (503, Vec::new())
        }
    };
    let mut response = StatusCode::from_u16(status)
        .expect("a valid status")
        .into_response();
    for (name, value) in extra {
        response.headers_mut().insert(
            axum::http::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
            value.parse().expect("header value"),
        );
    }
    response
}

/// An HTTP proxy on `127.0.0.1` that proxies nothing: it records the
/// request line of every connection (`POST http://host/...` or `CONNECT
/// host:443`) and answers 502. Stopped when dropped.
#[derive(Debug)]
pub struct RecordingProxy {
    url: String,
    seen: Arc<Mutex<Vec<String>>>,
    _server: LocalServer,
}

impl RecordingProxy {
    /// Starts one on an ephemeral port.
    pub fn start() -> RecordingProxy {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = seen.clone();
        let server = LocalServer::start(|listener, mut shutdown| async move {
            loop {
                let (stream, _) = tokio::select! {
                    accepted = listener.accept() => accepted.expect("accept"),
                    _ = &mut shutdown => return,
                };
                let recorded = recorded.clone();
                tokio::spawn(async move {
                    let mut stream = tokio::io::BufReader::new(stream);
                    let mut line = String::new();
                    let _ = stream.read_line(&mut line).await;
                    recorded
                        .lock()
                        .expect("proxy state")
                        .push(line.trim_end().to_owned());
                    let _ = stream
                        .get_mut()
                        .write_all(
                            b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        )
                        .await;
                });
            }
        });
        RecordingProxy {
            url: format!("http://127.0.0.1:{}", server.port),
            seen,
            _server: server,
        }
    }

    /// Its URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The request line of every connection so far.
    pub fn seen(&self) -> Vec<String> {
        self.seen.lock().expect("proxy state").clone()
    }
}

/// Standard Webhooks verification by the specification's reference
/// library (the `standardwebhooks` crate): one of the space-separated
/// entries of `header` is the signature it makes of `id`, `timestamp` and
/// `body` with `secret`. A secret it cannot read verifies nothing. (Its own
/// `verify` also checks the timestamp against the system clock, which the
/// tests' manual clock moves away from; the signature is what is checked
/// here.)
pub fn verify(secret: &str, id: &str, timestamp: i64, body: &str, header: &str) -> bool {
    let Ok(reference) = standardwebhooks::Webhook::new(secret) else {
        return false;
    };
    let Ok(expected) = reference.sign(id, timestamp, body.as_bytes()) else {
        return false;
    };
    header.split(' ').any(|entry| entry == expected)
}

// The API calls of the webhook tests.

/// A plain HTTP client (the tests check raw responses, not the SDK's).
pub fn http() -> reqwest::Client {
    reqwest::Client::new()
}

/// `POST path` with `key`, no body.
pub async fn post(daemon: &TestDaemon, key: &TestKey, path: &str) -> reqwest::Response {
    http()
        .post(daemon.api(path))
        .bearer_auth(&key.full)
        .send()
        .await
        .expect("request")
}

/// `GET path` with `key`: must answer 200; its JSON.
pub async fn get<T: serde::de::DeserializeOwned>(
    daemon: &TestDaemon,
    key: &TestKey,
    path: &str,
) -> T {
    let response = http()
        .get(daemon.api(path))
        .bearer_auth(&key.full)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200, "GET {path}");
    response.json().await.expect("JSON")
}

/// `PUT /servers/{server}/config/{section}` with `value`.
pub async fn put_section(
    daemon: &TestDaemon,
    key: &TestKey,
    server: &str,
    section: &str,
    value: Value,
) -> reqwest::Response {
    http()
        .put(daemon.api(&format!("/servers/{server}/config/{section}")))
        .bearer_auth(&key.full)
        .json(&value)
        .send()
        .await
        .expect("request")
}

/// `PUT /servers/{server}/config/webhooks` with `section`.
pub async fn put_webhooks(
    daemon: &TestDaemon,
    key: &TestKey,
    server: &str,
    section: Value,
) -> reqwest::Response {
    put_section(daemon, key, server, "webhooks", section).await
}

/// Points `server`'s webhooks at `receiver` through the API (enabled, the
/// URL, only the kinds of `events`, a generated secret the receiver checks
/// with); returns the secret.
pub async fn configure(
    daemon: &TestDaemon,
    key: &TestKey,
    server: &str,
    receiver: &Receiver,
    events: Value,
) -> String {
    let response = put_webhooks(
        daemon,
        key,
        server,
        json!({"enabled": true, "url": receiver.url(), "events": events}),
    )
    .await;
    assert_eq!(response.status(), 200, "{:?}", response.text().await);
    let response = post(daemon, key, &format!("/servers/{server}/webhooks/secret")).await;
    assert_eq!(response.status(), 200);
    let secret: Value = response.json().await.unwrap();
    let secret = secret["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"), "{secret}");
    receiver.set_secret(secret);
    secret.to_owned()
}

/// `POST /servers/{server}/webhooks/test`: must answer 202.
pub async fn send_test(daemon: &TestDaemon, key: &TestKey, server: &str) -> Enqueued {
    let response = post(daemon, key, &format!("/servers/{server}/webhooks/test")).await;
    assert_eq!(response.status(), 202);
    response.json().await.unwrap()
}

/// `POST /servers/{server}/webhooks/deliveries/{id}/redeliver`: must
/// answer 202.
pub async fn redeliver(daemon: &TestDaemon, key: &TestKey, server: &str, id: i64) {
    let response = post(
        daemon,
        key,
        &format!("/servers/{server}/webhooks/deliveries/{id}/redeliver"),
    )
    .await;
    assert_eq!(response.status(), 202);
}

/// `GET /servers/{server}/webhooks/deliveries/{id}`.
pub async fn delivery(daemon: &TestDaemon, key: &TestKey, server: &str, id: i64) -> DeliveryDetail {
    get(
        daemon,
        key,
        &format!("/servers/{server}/webhooks/deliveries/{id}"),
    )
    .await
}

/// Moves the daemon's clock `seconds` on.
pub fn advance(daemon: &TestDaemon, seconds: u64) {
    daemon.clock().advance(Duration::from_secs(seconds));
}
