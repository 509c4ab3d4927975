//! The HTTP API v1, mounted under `/api/v1`.
//!
//! One submodule per resource; each exposes its handlers and [`routes`] wires
//! them. Handlers take the auth extractors from [`crate::auth`], bodies through
//! [`crate::extract::ApiJson`], and return [`crate::error::ApiResult`].

mod me;
mod servers;

use axum::Router;
use axum::routing::get;

use crate::AppState;

/// The v1 routes, relative to `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me", get(me::show))
        .route("/servers", get(servers::list))
        .route("/servers/{id}", get(servers::show))
}
