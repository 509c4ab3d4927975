//! The HTTP API v1, mounted under `/api/v1`.
//!
//! One submodule per resource; each exposes its handlers and [`routes()`] wires
//! them. Handlers take the auth extractors from [`crate::auth`], bodies through
//! [`crate::extract::ApiJson`], and return [`crate::error::ApiResult`].
//!
//! Every handler carries a `#[utoipa::path]` attribute and is registered with
//! `routes!`, which makes the axum route and the OpenAPI operation from that
//! one attribute (see [`openapi`]). Register handlers only that way: a route
//! added with a plain `.route(...)` would be missing from the document.

mod actions;
mod automod;
mod config;
mod corrections;
mod health;
mod insights;
mod lockdown;
mod me;
mod onboarding;
pub mod openapi;
mod restore;
mod servers;
mod snapshots;
mod stream;
mod webhooks;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

/// The v1 routes, relative to `/api/v1`, with their OpenAPI operations.
/// `routes!` takes the handlers of one path.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(openapi::serve_document))
        .routes(routes!(health::health))
        .routes(routes!(health::ready))
        .routes(routes!(me::show))
        .routes(routes!(me::keys))
        .routes(routes!(servers::list))
        .routes(routes!(servers::show))
        .routes(routes!(onboarding::show))
        .routes(routes!(config::show))
        .routes(routes!(config::export))
        .routes(routes!(config::import))
        .routes(routes!(config::clone))
        .routes(routes!(config::audit))
        .routes(routes!(config::show_section, config::replace_section))
        .routes(routes!(actions::perform))
        .routes(routes!(actions::list))
        .routes(routes!(actions::show, corrections::edit))
        .routes(routes!(corrections::void))
        .routes(routes!(corrections::clear_strikes))
        .routes(routes!(actions::strikes))
        .routes(routes!(actions::jails))
        .routes(routes!(actions::members))
        .routes(routes!(actions::member))
        .routes(routes!(automod::test))
        .routes(routes!(automod::hits))
        .routes(routes!(snapshots::show, snapshots::capture))
        .routes(routes!(restore::restore))
        .routes(routes!(restore::show))
        .routes(routes!(webhooks::test))
        .routes(routes!(webhooks::rotate_secret))
        .routes(routes!(webhooks::deliveries))
        .routes(routes!(webhooks::delivery))
        .routes(routes!(webhooks::redeliver))
        .routes(routes!(insights::ingest))
        .routes(routes!(insights::moderation))
        .routes(routes!(insights::community))
        .routes(routes!(lockdown::status, lockdown::start, lockdown::end))
        .routes(routes!(stream::stream))
}
