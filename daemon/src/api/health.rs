//! `GET /health` and `GET /ready`: no key, for load balancers and service
//! managers.
//!
//! `health` answers from memory, so it says only that the process serves
//! HTTP (it is also the benchmark's baseline route). `ready` asks the store,
//! so a daemon whose database is stuck is taken out of rotation, and says
//! not ready while actions a stopped daemon left pending are being settled
//! (their servers' requests wait meanwhile: see
//! [`crate::moderation::recovery`]).

use std::time::Duration;

use axum::extract::State;
use modctl_types::{ErrorBody, Health, Readiness};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::response::Json;

/// How long `ready` waits for the store before saying it is not ready.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /api/v1/health`
#[utoipa::path(
    get,
    path = "/health",
    tag = "meta",
    summary = "Liveness",
    description = "The daemon is up. Needs no key and does not touch the database.",
    responses((status = 200, description = "Up.", body = Health)),
)]
pub async fn health() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// `GET /api/v1/ready`
#[utoipa::path(
    get,
    path = "/ready",
    tag = "meta",
    summary = "Readiness",
    description = "The daemon can serve requests: the actions a stopped daemon left pending are settled, and its database answers within 2 seconds. Needs no key.",
    responses(
        (status = 200, description = "Ready.", body = Readiness),
        (status = 503, description = "Not ready: actions left pending when the daemon last stopped are still being settled, or the database did not answer; the message says which.", body = ErrorBody),
    ),
)]
pub async fn ready(State(state): State<AppState>) -> ApiResult<Json<Readiness>> {
    let settling = state.settling.count();
    if settling > 0 {
        return Err(ApiError::RetryLater {
            message: format!(
                "not ready: settling the actions left pending on {settling} server(s) when the daemon last stopped"
            ),
            retry_after: 1,
        });
    }
    let probe = state.store.read(crate::store::ping);
    match tokio::time::timeout(READY_TIMEOUT, probe).await {
        Ok(Ok(_)) => Ok(Json(Readiness {
            status: "ready".into(),
        })),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "readiness check: the database failed");
            Err(ApiError::ServiceUnavailable(
                "not ready: the database failed to answer; the daemon's log has the details".into(),
            ))
        }
        Err(_) => Err(ApiError::ServiceUnavailable(format!(
            "not ready: the database did not answer within {} s",
            READY_TIMEOUT.as_secs()
        ))),
    }
}
