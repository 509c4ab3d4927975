//! Platform adapters: how the daemon talks to Discord, Telegram and Slack.
//!
//! [`PlatformAdapter`] is the one trait for what the daemon needs from a
//! platform. It offers *primitives* (time out, kick, ban, set roles, mute,
//! post a message, read the role hierarchy); which primitives an action uses
//! on which platform (the behaviour table of the spec) is decided once, in
//! [`crate::moderation`], so the live adapters and the simulator cannot
//! disagree about it.
//!
//! - [`discord`]: Discord REST API v10 with a bot token.
//! - [`telegram`]: Telegram Bot API.
//! - [`slack`]: Slack Web API.
//! - [`simulator`]: a stand-in community kept in the store, for the demo.
//! - [`retry`]: the bounded retry policy for 429 and 5xx answers.
//! - [`ratelimit`]: Discord's rate limits, followed before each request.
//! - [`structure`]: [`structure::StructureReader`], reading a server's roles,
//!   channels and settings for a snapshot, a capability of its own.
//! - [`apply`]: [`apply::StructureWriter`], creating roles, channels,
//!   overwrites and user groups for a restore, another capability.
//! - [`receive`]: [`receive::EventSource`], what a platform offers a bot to
//!   learn what members do (the gateway, updates), for community activity.
//!
//! - [`redact`]: [`Redactor`], keeping a connection's secrets out of the
//!   platform text an error carries.
//!
//! Tokens live only inside the adapters; their `Debug` output, errors and log
//! lines never contain them: reqwest errors are stripped of their URL (which
//! for Telegram contains the token), and every text an adapter builds an
//! error from passes through its connection's [`Redactor`] (issue #22).

pub mod apply;
pub mod discord;
pub mod hierarchy;
pub mod ratelimit;
pub mod receive;
pub mod redact;
pub mod retry;
pub mod simulator;
pub mod slack;
pub mod structure;
pub mod telegram;

use std::time::Duration;

use async_trait::async_trait;
use modctl_types::{Platform, Timestamp};

pub use apply::StructureWriter;
pub use hierarchy::{Hierarchy, Member, Role};
pub use receive::EventSource;
pub use redact::Redactor;
pub use retry::{Repeat, RetryPolicy};
pub use structure::StructureReader;

use crate::clock::Clock;
use crate::store::Store;
use crate::store::connections::{Connection, ConnectionMode};

/// Why a platform call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlatformError {
    /// The bot lacks a permission or may not act on this member.
    #[error("the platform refused: {0}")]
    Forbidden(String),
    /// The member, ban, channel or server is unknown to the platform.
    #[error("not found on the platform: {0}")]
    NotFound(String),
    /// Rate limited; the platform asked to wait this long.
    #[error("rate limited by the platform for {}s", .retry_after.as_secs_f64())]
    RateLimited {
        /// How long to wait.
        retry_after: Duration,
    },
    /// The platform failed (5xx).
    #[error("the platform failed with status {status}: {message}")]
    Server {
        /// HTTP status.
        status: u16,
        /// The platform's message.
        message: String,
    },
    /// The bot token was refused.
    #[error("the platform refused the bot token")]
    Unauthorized,
    /// The platform refused the request as invalid.
    #[error("the platform refused the request: {0}")]
    Invalid(String),
    /// No answer in time: the request may have been carried out.
    #[error("the platform did not answer in time")]
    Timeout,
    /// The platform could not be reached: no connection, so the request
    /// was never sent.
    #[error("cannot reach the platform: {0}")]
    Transport(String),
    /// The connection failed after the request was sent (reset, closed
    /// mid-answer): the request may have been carried out.
    #[error("the connection to the platform failed before its answer arrived: {0}")]
    Interrupted(String),
    /// The adapter has no such primitive (a bug in the behaviour table).
    #[error("{0} is not supported on this platform")]
    Unsupported(&'static str),
}

impl PlatformError {
    /// Turns a reqwest failure into a platform error without its URL (a
    /// Telegram URL carries the bot token) and with `secrets` redacted from
    /// the rest of its text. Only a failure to connect says the request was
    /// never sent; any later failure may have come after the platform acted
    /// on it.
    pub fn from_reqwest(err: reqwest::Error, secrets: &Redactor) -> PlatformError {
        if err.is_connect() {
            PlatformError::Transport(secrets.redact(&err.without_url().to_string()))
        } else if err.is_timeout() {
            PlatformError::Timeout
        } else {
            PlatformError::Interrupted(secrets.redact(&err.without_url().to_string()))
        }
    }

    /// This error with `secrets` redacted from the platform's text it
    /// carries: adapters build every error from a platform's answer through
    /// this.
    #[must_use]
    pub fn redacted(self, secrets: &Redactor) -> PlatformError {
        match self {
            PlatformError::Forbidden(m) => PlatformError::Forbidden(secrets.redact(&m)),
            PlatformError::NotFound(m) => PlatformError::NotFound(secrets.redact(&m)),
            PlatformError::Server { status, message } => PlatformError::Server {
                status,
                message: secrets.redact(&message),
            },
            PlatformError::Invalid(m) => PlatformError::Invalid(secrets.redact(&m)),
            PlatformError::Transport(m) => PlatformError::Transport(secrets.redact(&m)),
            PlatformError::Interrupted(m) => PlatformError::Interrupted(secrets.redact(&m)),
            PlatformError::RateLimited { .. }
            | PlatformError::Unauthorized
            | PlatformError::Timeout
            | PlatformError::Unsupported(_) => self,
        }
    }

    /// Whether the platform may have carried the request out although the
    /// call failed: it answered 5xx (it had the request), or the answer was
    /// lost (a timeout, a connection that failed after sending). A refusal
    /// (4xx, 429) or a connection never made says it did not.
    pub fn may_have_applied(&self) -> bool {
        match self {
            PlatformError::Server { .. }
            | PlatformError::Timeout
            | PlatformError::Interrupted(_) => true,
            PlatformError::Forbidden(_)
            | PlatformError::NotFound(_)
            | PlatformError::RateLimited { .. }
            | PlatformError::Unauthorized
            | PlatformError::Invalid(_)
            | PlatformError::Transport(_)
            | PlatformError::Unsupported(_) => false,
        }
    }

    /// What to tell the moderator: what happened and what to do about it.
    pub fn advice(&self) -> String {
        match self {
            PlatformError::Forbidden(m) => {
                format!("the platform refused ({m}): give the bot the permission it needs and a role above the member's")
            }
            PlatformError::NotFound(m) => format!("not found on the platform ({m}): check the user id"),
            PlatformError::RateLimited { retry_after } => format!(
                "still rate limited by the platform after retrying (retry after {:.1}s): try again later",
                retry_after.as_secs_f64()
            ),
            PlatformError::Server { status, message } => {
                format!("the platform failed with status {status} ({message}) after retrying: try again later")
            }
            PlatformError::Unauthorized => {
                "the platform refused the bot token: an operator should reconnect the server with a valid token"
                    .to_owned()
            }
            PlatformError::Invalid(m) => format!("the platform refused the request: {m}"),
            PlatformError::Timeout => "the platform did not answer in time after retrying: try again later".to_owned(),
            PlatformError::Transport(m) => format!("cannot reach the platform ({m}): try again later"),
            PlatformError::Interrupted(m) => format!("the connection to the platform failed before its answer arrived ({m}): try again later"),
            PlatformError::Unsupported(what) => format!("{what} is not supported on this platform"),
        }
    }
}

/// Result of a platform call.
pub type PlatformResult<T> = Result<T, PlatformError>;

/// What the platform says about a member right now. Read after a restart to
/// find out whether an action whose answer was lost took effect; a field is
/// `None` where the platform cannot tell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberState {
    /// A member of the server now.
    pub present: bool,
    /// Banned from the server.
    pub banned: bool,
    /// The member's roles (Discord).
    pub roles: Option<Vec<String>>,
    /// The end of a running timeout (Discord), if any.
    pub timed_out_until: Option<Timestamp>,
    /// Whether every send permission is taken away (Telegram).
    pub muted: Option<bool>,
}

/// What the daemon needs from a platform. Primitives a platform does not have
/// keep the default, which reports [`PlatformError::Unsupported`].
#[async_trait]
pub trait PlatformAdapter: Send + Sync + std::fmt::Debug {
    /// The role hierarchy as it concerns `target`: roles with positions and
    /// permissions, the owner, the bot's and the target's roles. `None` on
    /// platforms without roles.
    async fn hierarchy(&self, _target: &str) -> PlatformResult<Option<Hierarchy>> {
        Ok(None)
    }

    /// The channels the bot is a member of, on platforms where a bot posts
    /// only in those (Slack); `None` where being able to post is a matter
    /// of permissions (Discord: see [`PlatformAdapter::hierarchy`]) or the
    /// bot is in its one chat (Telegram).
    async fn joined_channels(&self) -> PlatformResult<Option<Vec<String>>> {
        Ok(None)
    }

    /// Times the member out until `until` (Discord).
    async fn timeout(
        &self,
        _user: &str,
        _until: Timestamp,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("timeout"))
    }

    /// Removes the member.
    async fn kick(&self, _user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("kick"))
    }

    /// Bans the member, deleting `delete_message_days` days of their messages.
    async fn ban(
        &self,
        _user: &str,
        _delete_message_days: u8,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("ban"))
    }

    /// Lifts a ban.
    async fn unban(&self, _user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("unban"))
    }

    /// Replaces the member's roles (Discord jail and unjail).
    async fn set_roles(
        &self,
        _user: &str,
        _roles: &[String],
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("changing roles"))
    }

    /// Takes away every send permission until `until`, or for good (Telegram).
    async fn mute(&self, _user: &str, _until: Option<Timestamp>) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("muting"))
    }

    /// Gives the send permissions back (Telegram).
    async fn unmute(&self, _user: &str) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("unmuting"))
    }

    /// Posts `text` to `channel` (mod-log).
    async fn post_message(&self, _channel: &str, _text: &str) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("posting messages"))
    }

    /// Reads the member's state (only reads; changes nothing).
    async fn inspect_member(&self, _user: &str) -> PlatformResult<MemberState> {
        Err(PlatformError::Unsupported("reading a member's state"))
    }
}

/// `api_base` without a trailing slash, or the platform's public API.
fn api_base(api_base: Option<String>, default: &str) -> String {
    api_base
        .as_deref()
        .unwrap_or(default)
        .trim_end_matches('/')
        .to_owned()
}

/// A `Retry-After` header in seconds, if the response has a readable one.
fn retry_after_header(response: &reqwest::Response) -> Option<f64> {
    response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// A wait the platform asked for, clamped to a day so a bogus value cannot
/// overflow a `Duration`.
fn seconds(value: f64) -> Duration {
    Duration::from_secs_f64(value.clamp(0.0, 86_400.0))
}

/// Shared by all adapters.
#[derive(Debug, Clone)]
pub struct PlatformClients {
    /// One HTTP client (connection pool) for every platform.
    pub http: reqwest::Client,
    /// How 429 and 5xx answers are retried.
    pub retry: RetryPolicy,
    /// The daemon's clock (the simulator stamps what it records with it).
    pub clock: Clock,
    /// Discord's rate-limit state per bot token, shared by all adapters.
    pub discord_limits: ratelimit::DiscordLimiters,
}

/// How long one platform request may take, answer included, before it
/// fails with [`PlatformError::Timeout`].
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

impl PlatformClients {
    /// Clients with a [`REQUEST_TIMEOUT`] and the default retry policy.
    pub fn new(retry: RetryPolicy, clock: Clock) -> Self {
        PlatformClients {
            http: http_client(REQUEST_TIMEOUT),
            retry,
            clock,
            discord_limits: ratelimit::DiscordLimiters::default(),
        }
    }

    /// The same clients with another request timeout (tests of platforms
    /// that never answer shorten it).
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.http = http_client(timeout);
        self
    }
}

fn http_client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .user_agent(concat!(
            "modctld/",
            env!("CARGO_PKG_VERSION"),
            " (+https://example.invalid/modctl)"
        ))
        .build()
        .expect("the HTTP client builds with a static configuration")
}

/// Everything a connected platform offers: the moderation primitives,
/// reading its structure, creating it and receiving events. Callers take the
/// capability they need (a `Box<dyn Connected>` coerces to
/// `Box<dyn PlatformAdapter>`).
pub trait Connected: PlatformAdapter + StructureReader + StructureWriter + EventSource {}

impl<T: PlatformAdapter + StructureReader + StructureWriter + EventSource> Connected for T {}

/// The adapter for a server's stored connection.
pub fn adapter_for(
    clients: &PlatformClients,
    store: &Store,
    platform: Platform,
    server_id: &str,
    connection: Connection,
) -> Box<dyn PlatformAdapter> {
    connect(clients, store, platform, server_id, connection)
}

/// The platform behind a server's stored connection, with every capability.
pub fn connect(
    clients: &PlatformClients,
    store: &Store,
    platform: Platform,
    server_id: &str,
    connection: Connection,
) -> Box<dyn Connected> {
    match connection.mode {
        ConnectionMode::Simulated => Box::new(simulator::Simulator::new(
            store.clone(),
            clients.clock.clone(),
            server_id,
            platform,
        )),
        ConnectionMode::Live { token, api_base } => {
            let secrets = &connection.other_secrets;
            match platform {
                Platform::Discord => Box::new(
                    discord::Discord::new(clients.clone(), api_base, token, server_id)
                        .redacting(secrets),
                ),
                // An upgraded group's calls go to its supergroup's id.
                Platform::Telegram => Box::new(
                    telegram::Telegram::new(
                        clients.clone(),
                        api_base,
                        token,
                        connection.telegram_chat_id.as_deref().unwrap_or(server_id),
                    )
                    .redacting(secrets),
                ),
                _ => {
                    Box::new(slack::Slack::new(clients.clone(), api_base, token).redacting(secrets))
                }
            }
        }
    }
}
