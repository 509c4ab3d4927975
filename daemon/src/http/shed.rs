//! Connections over a cap ([`super::admission`]): one request each, under
//! short timeouts, then closed.
//!
//! `GET /api/v1/health` and `GET /api/v1/ready` are answered as usual, so a
//! monitor (or a load balancer sharing an address with a flooding client)
//! still learns the truth about the daemon; anything else gets `429` (the
//! address has too many connections open) or `503` (the daemon does), with
//! `Retry-After` and `Connection: close`.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Method, Request, header};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tower::ServiceExt;

use super::admission::{ConnectionCaps, OverCap, Slot};
use super::stall::WriteDeadline;
use crate::error::ApiError;

/// How long a shed connection may take to send its request, and to read
/// the answer; the whole exchange gets twice this.
pub const SHED_TIMEOUT: Duration = Duration::from_secs(2);

/// The probes a shed connection may still ask.
const PROBES: [&str; 2] = ["/api/v1/health", "/api/v1/ready"];

/// Serves one request on a connection over a cap, then closes it; `slot`
/// is its place among the shed connections.
pub async fn serve_shed(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    why: OverCap,
    caps: ConnectionCaps,
    slot: Slot,
) {
    let _ = stream.set_nodelay(true);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(SHED_TIMEOUT)
        .keep_alive(false)
        .max_buf_size(super::MAX_URI_BYTES + super::MAX_HEADER_BYTES);
    let service =
        hyper::service::service_fn(move |request| answer(app.clone(), peer, why, caps, request));
    let io = TokioIo::new(WriteDeadline::new(stream, SHED_TIMEOUT));
    let served = tokio::time::timeout(SHED_TIMEOUT * 2, http.serve_connection(io, service)).await;
    if let Ok(Err(error)) = served {
        tracing::debug!(%error, "shed connection closed with an error");
    }
    drop(slot);
}

async fn answer(
    app: Router,
    peer: SocketAddr,
    why: OverCap,
    caps: ConnectionCaps,
    mut request: Request<Incoming>,
) -> Result<Response, Infallible> {
    if request.method() == Method::GET && PROBES.contains(&request.uri().path()) {
        request.extensions_mut().insert(ConnectInfo(peer));
        return app.oneshot(request.map(Body::new)).await;
    }
    tracing::info!(
        method = %request.method(),
        path = request.uri().path(),
        peer = %peer.ip(),
        ?why,
        "connection over its cap shed"
    );
    let mut response = match why {
        OverCap::Address => ApiError::TooManyRequests {
            message: format!(
                "too many connections from your address: at most {} may be open at once; \
                 close idle ones (or reuse them) and retry",
                caps.per_address
            ),
            retry_after: 1,
        }
        .into_response(),
        OverCap::Total => ApiError::RetryLater {
            message: format!(
                "the daemon has its {} connections open: retry in a moment",
                caps.total
            ),
            retry_after: 1,
        }
        .into_response(),
    };
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    Ok(response)
}
