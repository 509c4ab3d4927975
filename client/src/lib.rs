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
//! - [`types`]: the wire types, shared with the daemon (the `modctl-types`
//!   crate, re-exported and documented inline), so models never drift from
//!   what the server sends.
//! - [`webhooks`]: [`webhooks::verify`], checking a webhook delivery's signature.
//! - [`live`]: [`Client::events`], a server's events as they happen (SSE).
//!
//! Models tolerate fields added within v1: unknown fields are ignored.

mod automod;
pub mod client;
mod config;
mod corrections;
pub mod error;
mod insights;
pub mod live;
mod lockdown;
mod moderation;
mod snapshots;
pub mod webhooks;

pub use client::{CaseQuery, Client, ClientBuilder};
pub use error::{Error, ErrorKind};
/// The wire types of API v1, shared with the daemon so that models never
/// drift from what it sends: this is the `modctl-types` crate, re-exported
/// here (with its modules documented inline) so that one dependency on the
/// SDK is enough. Request bodies and query strings are built from the same
/// structs the daemon parses.
///
/// ```
/// use modctl_client::types::moderation::{Action, ActionRequest};
/// let request = ActionRequest { user_id: "800000000000000004".into(), ..Default::default() };
/// assert_eq!(serde_json::to_string(&request).unwrap(), r#"{"user_id":"800000000000000004"}"#);
/// assert_eq!("ban".parse::<Action>(), Ok(Action::Ban));
/// ```
pub mod types {
    #[doc(inline)]
    pub use modctl_types::*;
}

/// The README's SDK example, compiled as a doctest so that it cannot drift
/// from the SDK (`cargo test -p modctl-client --doc`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
pub use modctl_types::{ErrorCode, Plan};
pub use reqwest::StatusCode;
pub use snapshots::RestoreWait;
