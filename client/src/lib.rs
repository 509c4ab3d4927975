//! Typed Rust SDK for the modctl HTTP API v1.
//!
//! ```no_run
//! # async fn run() -> Result<(), modctl_client::Error> {
//! let client = modctl_client::Client::builder()
//!     .base_url("http://127.0.0.1:7878")
//!     .api_key(std::env::var("MODCTL_API_KEY").unwrap_or_default())
//!     .build()?;
//! let me = client.me().await?;
//! println!("team {} has {} servers", me.team.name, me.server_count);
//! for server in client.servers().await? {
//!     println!("{} {} {}", server.id, server.platform, server.name);
//! }
//! # Ok(()) }
//! ```
//!
//! Modules:
//! - [`client`]: [`Client`] and its builder; one method per endpoint.
//! - [`error`]: [`Error`] and [`ErrorKind`]; every non-2xx response becomes one.
//! - [`types`]: the wire types, shared with the daemon (re-export of
//!   `modctl-types`), so models never drift from what the server sends.
//! - [`webhooks`]: [`webhooks::verify`], checking a webhook delivery's signature.
//!
//! Models tolerate fields added within v1: unknown fields are ignored.

pub mod client;
mod config;
pub mod error;
mod insights;
mod moderation;
mod snapshots;
pub mod webhooks;

pub use client::{CaseQuery, Client, ClientBuilder};
pub use error::{Error, ErrorKind};
pub use modctl_types as types;
pub use modctl_types::Plan;
pub use reqwest::StatusCode;
pub use snapshots::RestoreWait;
