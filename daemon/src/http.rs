//! The HTTP server loop: accepts connections and serves each with hyper's
//! HTTP/1.1 connection, under time and size limits.
//!
//! Why not plain `axum::serve`: it has no limits at all. A client that sends
//! half a request header, or a body that never ends, holds its connection
//! (and, after SIGTERM, the whole daemon) for as long as it likes. Here:
//!
//! - hyper's header-read timeout closes a connection whose request header is
//!   not complete in time, also between two requests of a kept-alive
//!   connection (hyper runs the same timer while it waits for the next head);
//! - a request body must arrive whole within the body timeout, counted from
//!   the moment the head was read; when it does not, the request is answered
//!   `408` with our JSON error body (see [`DeadlineBody`]);
//! - on shutdown the listener is closed, idle connections are closed, requests
//!   in flight may finish, and after the shutdown deadline every connection
//!   still open is dropped, so [`serve_http`] returns and no connection task
//!   outlives it. A dropped request's handler future is dropped with it; work
//!   that must complete anyway (moderation actions) runs in its own task.
//!
//! - a write that makes no progress for the write timeout closes the
//!   connection ([`stall`]): a client that never reads its answers does not
//!   hold the connection forever;
//! - at most so many connections are served at once, in all and from one
//!   address ([`admission`]); one over a cap is shed ([`shed`]): a health
//!   or readiness probe is still answered, anything else gets a JSON
//!   `429`/`503`, and the accept loop never stops.
//!
//! hyper answers some malformed requests itself, before any service sees
//! them, with a status line and an empty body, and offers no hook to give
//! them a body. To keep those rare, the daemon's own size limits
//! ([`MAX_URI_BYTES`], [`MAX_HEADER_BYTES`]) sit well below hyper's
//! ([`READ_BUFFER_BYTES`]), so an oversized but well-formed head reaches our
//! code and is answered with JSON. `docs/api.md` ("Errors") lists what hyper
//! still answers itself.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, Method, Request, Uri, header};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::{JoinError, JoinSet};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::error::ApiError;

pub mod admission;
pub mod shed;
pub mod stall;

pub use admission::ConnectionCaps;
use admission::{Admission, OverCap};
use stall::WriteDeadline;

/// The longest request target (path and query) the daemon reads; longer ones
/// are answered `414`. No endpoint needs a fraction of this.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// The largest header section (names and values) the daemon reads; larger
/// ones are answered `431`.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// hyper's read buffer, which bounds the request head it can parse. A head
/// that does not fit is refused by hyper itself (`431`, empty body), so this
/// stays well above [`MAX_URI_BYTES`] + [`MAX_HEADER_BYTES`]: every head
/// between our limits and this one reaches our code and gets a JSON answer.
pub const READ_BUFFER_BYTES: usize = 64 * 1024;

/// How long to wait before accepting again after the listener failed for a
/// reason other than one connection (e.g. out of file descriptors).
const ACCEPT_RETRY: Duration = Duration::from_secs(1);

/// Time limits of the HTTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// How long a client may take to send a whole request head, and how long a
    /// kept-alive connection may sit idle between requests. Default 10 s:
    /// plenty for any real client, short enough that slow-header clients
    /// cannot pile up.
    pub header_read_timeout: Duration,
    /// How long a client may take to send a whole request body, counted from
    /// the end of its head. Default 30 s: bodies are at most 256 KiB, which
    /// even a slow link sends in a few seconds.
    pub body_timeout: Duration,
    /// How long requests in flight may still run after shutdown was asked for
    /// before their connections are dropped. Default 10 s: below the 30 s
    /// service managers usually wait before they SIGKILL.
    pub shutdown_deadline: Duration,
    /// How long an answer may wait for a client that reads none of it
    /// before the connection is closed ([`stall`]). Default 20 s: any
    /// reader makes progress far sooner; the socket buffers hold the rest.
    pub write_timeout: Duration,
    /// The caps on open connections ([`admission`]).
    pub connections: ConnectionCaps,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            header_read_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            shutdown_deadline: Duration::from_secs(10),
            write_timeout: Duration::from_secs(20),
            connections: ConnectionCaps::default(),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then stops
/// accepting, lets requests in flight finish for at most
/// `limits.shutdown_deadline`, drops the connections still open, and returns.
/// `proxies` are bound by the total connection cap only.
pub async fn serve_http(
    listener: TcpListener,
    app: Router,
    limits: HttpLimits,
    proxies: crate::client_address::TrustedProxies,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let admission = Admission::new(limits.connections, proxies);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true)
        .max_buf_size(READ_BUFFER_BYTES);
    let (closing, closing_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = pin!(shutdown);

    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => match admission.admit(peer.ip()) {
                    Ok(slot) => {
                        let connection = serve_connection(stream, peer, http.clone(), app.clone(), limits, closing_rx.clone());
                        connections.spawn(async move {
                            connection.await;
                            drop(slot);
                        });
                    }
                    Err(why) => shed(&admission, &mut connections, stream, peer, &app, why, limits.connections),
                },
                Err(error) if is_connection_error(&error) => {}
                Err(error) => {
                    tracing::error!(%error, "cannot accept connections; retrying in {ACCEPT_RETRY:?}");
                    tokio::select! {
                        () = &mut shutdown => break,
                        () = tokio::time::sleep(ACCEPT_RETRY) => {}
                    }
                }
            },
            // Reaps finished connections so the set holds only open ones.
            Some(finished) = connections.join_next() => log_panic(finished),
        }
    }

    drop(listener);
    closing.send_replace(true);
    let drained = tokio::time::timeout(limits.shutdown_deadline, async {
        while let Some(finished) = connections.join_next().await {
            log_panic(finished);
        }
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            open = connections.len(),
            "shutdown deadline of {:?} passed: dropping the connections still open",
            limits.shutdown_deadline
        );
        connections.shutdown().await;
    }
    Ok(())
}

/// Sheds a connection over a cap ([`shed`]), or closes it at once when as
/// many shed connections are open as there are places for.
fn shed(
    admission: &Admission,
    connections: &mut JoinSet<()>,
    stream: TcpStream,
    peer: SocketAddr,
    app: &Router,
    why: OverCap,
    caps: ConnectionCaps,
) {
    match admission.shed_slot() {
        Some(slot) => {
            connections.spawn(shed::serve_shed(stream, peer, app.clone(), why, caps, slot));
        }
        None => {
            tracing::debug!(peer = %peer.ip(), ?why, "connection over its cap closed: no shed place left");
            drop(stream);
        }
    }
}

/// Errors of one incoming connection (the client gave up before `accept`),
/// which say nothing about the listener.
fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        error.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

fn log_panic(finished: Result<(), JoinError>) {
    if let Err(error) = finished
        && error.is_panic()
    {
        tracing::error!(%error, "a connection task panicked");
    }
}

/// Serves one connection until the client closes it, a limit closes it, or
/// `closing` turns true; then finishes the request in flight (hyper closes
/// the connection after it) unless the task is dropped first.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    http: http1::Builder,
    app: Router,
    limits: HttpLimits,
    mut closing: watch::Receiver<bool>,
) {
    // Responses are written whole; waiting to coalesce them only adds latency.
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |request| {
        handle_request(app.clone(), peer, limits.body_timeout, request)
    });
    let io = TokioIo::new(WriteDeadline::new(stream, limits.write_timeout));
    let mut connection = pin!(http.serve_connection(io, service));
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = closing_started(&mut closing) => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        // Clients that vanish or time out are routine, not the daemon's fault.
        tracing::debug!(%error, "connection closed with an error");
    }
}

/// Completes when `closing` turns true, or when its sender is gone: serve_http
/// is ending either way.
async fn closing_started(closing: &mut watch::Receiver<bool>) {
    let _ = closing.wait_for(|closing| *closing).await;
}

/// Refuses an oversized head, otherwise runs `app` with the body under its
/// deadline, and answers `408` instead of whatever the app made of a body
/// that did not arrive in time.
async fn handle_request(
    app: Router,
    peer: SocketAddr,
    body_timeout: Duration,
    mut request: Request<Incoming>,
) -> Result<Response, Infallible> {
    // The client's address, for the limits on failed authentication.
    request.extensions_mut().insert(ConnectInfo(peer));
    if let Some(refusal) = refuse_oversized_head(request.uri(), request.headers()) {
        tracing::info!(method = %request.method(), status = refusal.status().as_u16(), "request refused before routing");
        return Ok(refusal.into_response());
    }
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let timed_out = Arc::new(AtomicBool::new(false));
    let deadline = Instant::now() + body_timeout;
    let request =
        request.map(|body| Body::new(DeadlineBody::new(body, deadline, Arc::clone(&timed_out))));
    let response = app.oneshot(request).await?;
    if timed_out.load(Ordering::Relaxed) {
        return Ok(body_timed_out(&method, &path, body_timeout));
    }
    Ok(response)
}

fn refuse_oversized_head(uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
    let uri_bytes = uri
        .path_and_query()
        .map_or(0, |target| target.as_str().len())
        + uri
            .authority()
            .map_or(0, |authority| authority.as_str().len());
    if uri_bytes > MAX_URI_BYTES {
        return Some(ApiError::UriTooLong(format!(
            "the request path and query are {uri_bytes} bytes long; the daemon reads at most {MAX_URI_BYTES}"
        )));
    }
    // Each field as it is sent: `name: value\r\n`.
    let header_bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if header_bytes > MAX_HEADER_BYTES {
        return Some(ApiError::HeadersTooLarge(format!(
            "the request headers are {header_bytes} bytes; the daemon reads at most {MAX_HEADER_BYTES}: drop or shorten headers"
        )));
    }
    None
}

/// The `408` for a body that stalled. The rest of the body may still be on
/// its way, so the connection is closed rather than reused.
fn body_timed_out(method: &Method, path: &str, body_timeout: Duration) -> Response {
    // The app logged its own view of the request (a body it could not read);
    // this line records what the client was actually told.
    tracing::info!(%method, path, status = 408, "request body timed out");
    let mut response = ApiError::RequestTimeout(format!(
        "the request body did not arrive within {body_timeout:?}: send it whole, \
         and no fewer bytes than its Content-Length says"
    ))
    .into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A request body that fails once its deadline has passed while it still
/// waits for data, and records that it did, so [`handle_request`] can answer
/// `408` whatever the handler made of the error.
///
/// The deadline covers the whole body, not each read: a client that trickles
/// a byte now and then is cut off as surely as one that stops.
#[derive(Debug)]
struct DeadlineBody {
    inner: Incoming,
    deadline: Instant,
    /// Created on the first wait, so bodies that are already there cost no timer.
    sleep: Option<Pin<Box<Sleep>>>,
    timed_out: Arc<AtomicBool>,
}

impl DeadlineBody {
    fn new(inner: Incoming, deadline: Instant, timed_out: Arc<AtomicBool>) -> Self {
        DeadlineBody {
            inner,
            deadline,
            sleep: None,
            timed_out,
        }
    }
}

/// The error a [`DeadlineBody`] fails with.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
struct BodyTimedOut;

impl http_body::Body for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        let deadline = this.deadline;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.timed_out.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(BodyTimedOut.into())))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
