//! The metrics listener (`modctld serve --metrics-listen`): `GET /metrics`
//! and nothing else.

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::Mutex;

use super::{CONTENT_TYPE, Scrape, render};

/// Serves `GET /metrics` on `listener` until `shutdown` completes.
///
/// Scrapes run one at a time: each sets the gauges it reads before
/// encoding them, and Prometheus scrapes every 15 s or so, so a second
/// scrape waiting for the first costs nothing.
pub async fn serve_metrics(
    listener: TcpListener,
    scrape: Scrape,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Router::new()
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .with_state(Arc::new(Mutex::new(scrape)));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

async fn metrics(State(scrape): State<Arc<Mutex<Scrape>>>) -> Response {
    let scrape = scrape.lock().await;
    match render(&scrape).await {
        Ok(text) => ([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot read the store for GET /metrics");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the database cannot be read now; see the daemon's log",
            )
        }
    }
}

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "this listener serves only GET /metrics; the API is on --listen",
    )
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        axum::Json(modctl_types::ErrorBody::coded(
            modctl_types::ErrorCode::for_status(status.as_u16()),
            message.to_owned(),
        )),
    )
        .into_response()
}
