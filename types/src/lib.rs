//! Wire types of the modctl HTTP API v1.
//!
//! Every request and response body the daemon (`modctld`) produces or accepts is
//! defined here exactly once, and both the daemon and the SDK (`modctl-client`)
//! use these definitions, so a field can never drift between server and client.
//!
//! Modules:
//! - [`activity`]: community activity events (messages, voice, joins).
//! - [`auth`]: API keys as the caller sees them (`GET /me`), scopes and plans.
//! - [`automod`]: the automod filters by name, their hits, and the body and
//!   answer of `POST /servers/{id}/automod/test`.
//! - [`moderation`]: actions, cases, strikes and jails.
//! - [`servers`]: claimed servers and the platforms they live on.
//! - [`config`]: the moderation config sections, their validation, the export
//!   envelope and the bodies of the `/config` endpoints.
//! - [`error`]: the error body every non-2xx response carries.
//! - [`meta`]: the API's own health and readiness.
//! - [`query`]: query strings (case filters, paging, import and clone options)
//!   and their bounds.
//! - [`signing`]: Standard Webhooks signatures of webhook deliveries, made
//!   by the daemon and checked by the SDK with the same code.
//! - [`snapshot`]: structure snapshots (roles, channels, settings) and their
//!   metadata.
//!
//! v1 is additive: response structs tolerate unknown fields when deserialized
//! (serde's default), and enums are `#[non_exhaustive]` so new values can be
//! introduced without breaking callers that match on them.

pub mod activity;
pub mod auth;
pub mod automod;
pub mod config;
pub mod error;
pub mod live;
pub mod lockdown;
pub mod meta;
pub mod moderation;
pub mod onboarding;
pub mod query;
pub mod restore;
pub mod servers;
pub mod signing;
pub mod snapshot;
pub mod webhooks;

pub use auth::{Me, Plan, PlanLimits, Scope, Team};
pub use error::{ErrorBody, ErrorCode};
pub use meta::{Health, Readiness};
pub use servers::{Platform, Server, ServerList};

/// Timestamps on the wire are RFC 3339 strings in UTC, e.g. `2026-11-21T09:00:00Z`.
pub type Timestamp = jiff::Timestamp;
