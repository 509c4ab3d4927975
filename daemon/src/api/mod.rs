//! The HTTP API v1, mounted under `/api/v1`.
//!
//! One submodule per resource; each exposes its handlers and [`routes`] wires
//! them. Handlers take the auth extractors from [`crate::auth`], bodies through
//! [`crate::extract::ApiJson`], and return [`crate::error::ApiResult`].

mod actions;
mod config;
mod me;
mod servers;

use axum::Router;
use axum::routing::{get, post};

use crate::AppState;

/// The v1 routes, relative to `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me", get(me::show))
        .route("/servers", get(servers::list))
        .route("/servers/{id}", get(servers::show))
        .route("/servers/{id}/config", get(config::show))
        .route("/servers/{id}/config/export", get(config::export))
        .route("/servers/{id}/config/import", post(config::import))
        .route("/servers/{id}/config/clone", post(config::clone))
        .route("/servers/{id}/config/audit", get(config::audit))
        .route(
            "/servers/{id}/config/{section}",
            get(config::show_section).put(config::replace_section),
        )
        .route("/servers/{id}/actions/{action}", post(actions::perform))
        .route("/servers/{id}/cases", get(actions::list))
        .route("/servers/{id}/cases/{case_id}", get(actions::show))
        .route("/servers/{id}/strikes", get(actions::strikes))
        .route("/servers/{id}/jails", get(actions::jails))
}
