//! The HTTP side every fake shares: a thread with its own runtime serving one
//! axum fallback handler that records the request, waits at a closed
//! [`Gate`], answers an injected failure, or hands the request to the
//! platform's logic.
//!
//! The platform logic is a plain function of the recorded request; it runs
//! synchronously under the fake's state lock, which is what makes each
//! request atomic.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

/// A request a fake received.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query, e.g. `/guilds/1/members/2`.
    pub path: String,
    /// The query string, without `?`.
    pub query: Option<String>,
    /// Headers by lower-case name; repeated headers joined with `, `.
    pub headers: HashMap<String, String>,
    /// The body: JSON as sent; a form body as an object of its fields; other
    /// text as a string; `Null` when empty.
    pub body: Value,
    /// When it arrived (its head and body read), on this process's
    /// monotonic clock: the bench times what the daemon sends by it.
    pub at: std::time::Instant,
}

impl Recorded {
    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        self.method.eq_ignore_ascii_case(method) && self.path == path
    }
}

/// An answer: status, extra headers and a JSON body (`Null`: empty body).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Extra headers, e.g. `("retry-after", "1")`.
    pub headers: Vec<(String, String)>,
    /// JSON body; `Null` sends no body.
    pub body: Value,
}

impl Reply {
    /// `status` with a JSON body.
    pub fn json(status: u16, body: Value) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// `status` with no body (e.g. Discord's 204).
    pub fn empty(status: u16) -> Reply {
        Reply::json(status, Value::Null)
    }

    /// This reply with header `name: value` added.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    fn into_response(self) -> Response {
        let mut builder = Response::builder()
            .status(StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR));
        let body = if self.body.is_null() {
            Body::empty()
        } else {
            builder = builder.header("content-type", "application/json");
            Body::from(self.body.to_string())
        };
        for (name, value) in &self.headers {
            if let (Ok(name), Ok(value)) = (
                HeaderName::try_from(name.as_str()),
                HeaderValue::try_from(value.as_str()),
            ) {
                builder = builder.header(name, value);
            }
        }
        builder.body(body).expect("a valid response")
    }
}

/// The platform's answer to a request, given the request.
pub(crate) type Platform = dyn Fn(&Recorded) -> Reply + Send + Sync;

/// Closes a route until released; returned by `hold`. Dropping the gate
/// releases it too, so a test that fails early does not leave requests
/// hanging.
#[derive(Debug)]
#[must_use = "dropping the gate releases it at once"]
pub struct Gate {
    inner: Arc<GateInner>,
}

#[derive(Debug, Default)]
struct GateInner {
    state: Mutex<GateState>,
    /// Wakes synchronous waiters (`wait_arrived`).
    changed: Condvar,
    /// Wakes asynchronous waiters (held requests, `arrived`).
    notify: Notify,
}

#[derive(Debug, Default)]
struct GateState {
    arrivals: usize,
    waiting: usize,
    released: bool,
}

impl GateInner {
    fn state(&self) -> MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn update(&self, change: impl FnOnce(&mut GateState)) {
        change(&mut self.state());
        self.changed.notify_all();
        self.notify.notify_waiters();
    }

    /// Waits, asynchronously, until `done` holds.
    async fn until(&self, done: impl Fn(&GateState) -> bool) {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            // Registered before the check, so a change between the check and
            // the await is not missed.
            notified.as_mut().enable();
            if done(&self.state()) {
                return;
            }
            notified.await;
        }
    }

    /// What a held request does: counts itself, waits for the release.
    async fn pass(&self) {
        self.update(|s| {
            s.arrivals += 1;
            s.waiting += 1;
        });
        self.until(|s| s.released).await;
        self.update(|s| s.waiting -= 1);
    }
}

impl Gate {
    /// Resolves once at least one request has arrived at the gate.
    pub async fn arrived(&self) {
        self.inner.until(|s| s.arrivals > 0).await;
    }

    /// Blocks until at least one request has arrived at the gate, for at most
    /// `timeout`; whether one did.
    pub fn wait_arrived(&self, timeout: Duration) -> bool {
        let state = self.inner.state();
        let (state, _) = self
            .inner
            .changed
            .wait_timeout_while(state, timeout, |s| s.arrivals == 0)
            .unwrap_or_else(|e| e.into_inner());
        state.arrivals > 0
    }

    /// How many requests have arrived at the gate so far.
    pub fn arrivals(&self) -> usize {
        self.inner.state().arrivals
    }

    /// How many requests are waiting at the gate now.
    pub fn waiting(&self) -> usize {
        self.inner.state().waiting
    }

    /// Lets the waiting requests, and any later matching ones, through: the
    /// hold ends.
    pub fn release(&self) {
        self.inner.update(|s| s.released = true);
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.release();
    }
}

#[derive(Debug)]
struct Hold {
    method: String,
    path: String,
    gate: Arc<GateInner>,
}

/// What an injected failure does with a request.
#[derive(Debug, Clone)]
pub(crate) enum Fault {
    /// Answered with this reply; the platform never sees the request.
    Instead(Reply),
    /// The platform carries the request out, and this reply is sent instead
    /// of its answer (a gateway's 502 after the service acted).
    After(Reply),
    /// The platform carries the request out, and no answer ever comes (the
    /// connection stays open until the client gives up).
    Lost,
}

#[derive(Debug)]
struct Injected {
    method: String,
    path: String,
    fault: Fault,
    remaining: usize,
}

/// What the handler shares with the fake's owner.
struct Shared {
    log: Mutex<Vec<Recorded>>,
    injected: Mutex<Vec<Injected>>,
    holds: Mutex<Vec<Hold>>,
    platform: Box<Platform>,
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A test that panicked while holding a lock must not hide its own
    // failure behind a poisoned-lock panic here.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    async fn answer(&self, request: Recorded) -> Reply {
        lock(&self.log).push(request.clone());
        let gate = lock(&self.holds)
            .iter()
            .find(|h| request.matches(&h.method, &h.path) && !h.gate.state().released)
            .map(|h| h.gate.clone());
        if let Some(gate) = gate {
            gate.pass().await;
        }
        match self.injected_fault(&request) {
            None => (self.platform)(&request),
            Some(Fault::Instead(reply)) => reply,
            Some(Fault::After(reply)) => {
                (self.platform)(&request);
                reply
            }
            Some(Fault::Lost) => {
                (self.platform)(&request);
                std::future::pending().await
            }
        }
    }

    fn injected_fault(&self, request: &Recorded) -> Option<Fault> {
        let mut injected = lock(&self.injected);
        let position = injected
            .iter()
            .position(|i| request.matches(&i.method, &i.path) && i.remaining > 0)?;
        let entry = &mut injected[position];
        entry.remaining -= 1;
        let fault = entry.fault.clone();
        if entry.remaining == 0 {
            injected.remove(position);
        }
        Some(fault)
    }
}

/// A running fake HTTP server; stopped when dropped.
pub(crate) struct FakeServer {
    uri: String,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FakeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeServer")
            .field("uri", &self.uri)
            .finish_non_exhaustive()
    }
}

impl FakeServer {
    /// Serves a platform whose state is `state` and whose logic is
    /// `answer`, run under the state's lock: the fake's owner keeps `state`
    /// for its helpers.
    pub(crate) fn serve<S: Send + 'static>(
        state: &Arc<Mutex<S>>,
        answer: fn(&mut S, &Recorded) -> Reply,
    ) -> FakeServer {
        let state = state.clone();
        FakeServer::start(Box::new(move |request| answer(&mut lock(&state), request)))
    }

    /// Serves `platform` on `127.0.0.1:0` from a thread of its own (for a
    /// platform with more than one piece of state, e.g. Discord's limits).
    pub(crate) fn start(platform: Box<Platform>) -> FakeServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a fake platform");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let uri = format!("http://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            log: Mutex::default(),
            injected: Mutex::default(),
            holds: Mutex::default(),
            platform,
        });
        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                // Not a graceful shutdown: held requests and idle keep-alive
                // connections are dropped with the runtime.
                tokio::select! {
                    result = axum::serve(listener, app) => result.expect("serve"),
                    _ = shutdown_rx => {}
                }
            });
        });
        FakeServer {
            uri,
            shared,
            shutdown: Some(shutdown_tx),
            thread: Some(thread),
        }
    }

    pub(crate) fn uri(&self) -> String {
        self.uri.clone()
    }

    pub(crate) fn requests(&self) -> Vec<Recorded> {
        lock(&self.shared.log).clone()
    }

    pub(crate) fn requests_to(&self, method: &str, path: &str) -> Vec<Recorded> {
        lock(&self.shared.log)
            .iter()
            .filter(|r| r.matches(method, path))
            .cloned()
            .collect()
    }

    /// The next `times` requests to `method` `path` meet `fault`.
    pub(crate) fn inject(&self, method: &str, path: &str, fault: Fault, times: usize) {
        if times == 0 {
            return;
        }
        lock(&self.shared.injected).push(Injected {
            method: method.to_owned(),
            path: path.to_owned(),
            fault,
            remaining: times,
        });
    }

    pub(crate) fn hold(&self, method: &str, path: &str) -> Gate {
        let inner = Arc::new(GateInner::default());
        let mut holds = lock(&self.shared.holds);
        holds.retain(|h| !h.gate.state().released);
        holds.push(Hold {
            method: method.to_owned(),
            path: path.to_owned(),
            gate: inner.clone(),
        });
        Gate { inner }
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let request = record(method, &uri, &headers, &body);
    // In a task of its own: if the client hangs up, hyper drops this handler,
    // but the platform still finishes what it started.
    let answer = tokio::spawn(async move { shared.answer(request).await });
    match answer.await {
        Ok(reply) => reply.into_response(),
        Err(_) => Reply::empty(500).into_response(),
    }
}

fn record(method: Method, uri: &Uri, headers: &HeaderMap, body: &Bytes) -> Recorded {
    let mut names: HashMap<String, String> = HashMap::new();
    for (name, value) in headers {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        names
            .entry(name.as_str().to_owned())
            .and_modify(|joined| {
                joined.push_str(", ");
                joined.push_str(&value);
            })
            .or_insert(value);
    }
    let is_form = names
        .get("content-type")
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let boundary = names
        .get("content-type")
        .and_then(|t| t.strip_prefix("multipart/form-data"))
        .and_then(|t| t.split("boundary=").nth(1))
        .map(|b| b.trim_matches('"').to_owned());
    let body = match boundary {
        Some(boundary) => multipart_object(body, &boundary),
        None => parse_body(body, is_form),
    };
    Recorded {
        method: method.as_str().to_owned(),
        path: uri.path().to_owned(),
        query: uri.query().map(str::to_owned),
        headers: names,
        body,
        at: std::time::Instant::now(),
    }
}

fn parse_body(body: &[u8], is_form: bool) -> Value {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Value::Null;
    }
    if is_form {
        return form_object(body);
    }
    serde_json::from_slice(body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))
}

/// A method's arguments, for the RPC-style APIs (Telegram, Slack): the
/// query's fields, then the body's.
pub(crate) fn arguments(request: &Recorded) -> serde_json::Map<String, Value> {
    let mut fields = match request.query.as_deref().map(|q| form_object(q.as_bytes())) {
        Some(Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    if let Value::Object(body) = &request.body {
        fields.extend(body.clone());
    }
    fields
}

/// A form (or query) string as a JSON object of string fields.
/// A `multipart/form-data` body (RFC 7578) as an object: each text part
/// as its field's string, each file part (one with a `filename`) as
/// `{"filename", "content_type", "size"}` plus, for a PNG, its
/// `"png": {"width", "height"}` from its IHDR chunk. A body that is not
/// well-formed is `{"multipart_error": why}`, which no fake accepts.
fn multipart_object(body: &[u8], boundary: &str) -> Value {
    let delimiter = format!("--{boundary}");
    let mut fields = serde_json::Map::new();
    let mut rest = body;
    let Some(start) = find(rest, delimiter.as_bytes()) else {
        return json!({"multipart_error": "no boundary"});
    };
    rest = &rest[start + delimiter.len()..];
    loop {
        if rest.starts_with(b"--") {
            return Value::Object(fields);
        }
        let Some(rest_after_crlf) = rest.strip_prefix(b"\r\n") else {
            return json!({"multipart_error": "no CRLF after a boundary"});
        };
        let Some(end) = find(rest_after_crlf, format!("\r\n{delimiter}").as_bytes()) else {
            return json!({"multipart_error": "a part without its closing boundary"});
        };
        let part = &rest_after_crlf[..end];
        rest = &rest_after_crlf[end + 2 + delimiter.len()..];
        let Some(split) = find(part, b"\r\n\r\n") else {
            return json!({"multipart_error": "a part without headers"});
        };
        let (head, content) = (String::from_utf8_lossy(&part[..split]), &part[split + 4..]);
        let disposition = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-disposition:"))
            .unwrap_or_default();
        let param = |name: &str| {
            disposition
                .split(';')
                .map(str::trim)
                .find_map(|p| p.strip_prefix(&format!("{name}=")))
                .map(|v| v.trim_matches('"').to_owned())
        };
        let Some(name) = param("name") else {
            return json!({"multipart_error": "a part without a name"});
        };
        let value = match param("filename") {
            Some(filename) => {
                let content_type = head
                    .lines()
                    .find_map(|l| {
                        l.strip_prefix("Content-Type: ")
                            .or(l.strip_prefix("content-type: "))
                    })
                    .map(str::to_owned);
                let mut file = json!({"filename": filename, "content_type": content_type,
                                      "size": content.len()});
                if content.len() >= 24 && content.starts_with(b"\x89PNG\r\n\x1a\n") {
                    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                    file["png"] =
                        json!({"width": be(&content[16..20]), "height": be(&content[20..24])});
                }
                file
            }
            None => Value::String(String::from_utf8_lossy(content).into_owned()),
        };
        fields.insert(name, value);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn form_object(form: &[u8]) -> Value {
    Value::Object(
        url::form_urlencoded::parse(form)
            .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
            .collect(),
    )
}
