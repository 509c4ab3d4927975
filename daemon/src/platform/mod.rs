//! Platform adapters: how the daemon talks to Discord, Telegram and Slack.
//!
//! What a platform can do is a set of capabilities, one trait each
//! ([`capabilities`]: time out, kick, ban, set roles, mute, read the role
//! hierarchy or a member's state, post, delete a message, DM, ephemeral
//! notices, native AutoMod rules). A platform implements a capability or it
//! does not; no trait has a default that fails at run time (issue #25).
//! [`DiscordBot`], [`TelegramBot`] and [`SlackBot`] name what each platform
//! has, and [`connect`] hands out a [`Bot`], one variant per platform: code
//! that needs a capability only some platforms have matches on it, so the
//! compiler refuses a kick on Slack or a DM on Telegram. The simulator
//! implements every capability and is boxed as whichever platform it stands
//! for.
//!
//! They are *primitives*; which ones an action uses on which platform (the
//! behaviour table of the spec) is decided once, in
//! `crate::moderation::behaviour`, so the live adapters and the simulator
//! cannot disagree about it. Matches over [`Platform`] are exhaustive: the
//! arm the type's `#[non_exhaustive]` forces calls [`new_platform`], and a
//! compile-time assertion stops the build when a platform is added.
//!
//! - [`capabilities`]: the capability traits and [`RuleSpec`].
//! - [`post`]: [`Post`], a message in platform-neutral terms, and how each
//!   platform is sent it (Discord embeds, Slack blocks, Telegram HTML),
//!   never pinging anyone.
//! - [`discord`]: Discord REST API v10 with a bot token.
//! - [`telegram`]: Telegram Bot API.
//! - [`slack`]: Slack Web API.
//! - [`simulator`]: a stand-in community kept in the store, for the demo.
//! - [`retry`]: the bounded retry policy for 429 and 5xx answers.
//! - [`ratelimit`]: Discord's rate limits, followed before each request.
//! - [`structure`]: [`structure::StructureReader`], reading a server's roles,
//!   channels and settings for a snapshot, a capability of its own.
//! - [`apply`]: [`WriteGuild`], [`WriteWorkspace`], [`WriteGroup`]:
//!   creating roles, channels, overwrites and user groups and setting a
//!   group's settings for a restore, one capability per platform.
//! - [`receive`]: [`Gateway`] (Discord) and [`Updates`] (Telegram), what a
//!   platform offers a bot to learn what members do, for the receivers.
//!
//! - [`redact`]: [`Redactor`], keeping a connection's secrets out of the
//!   platform text an error carries.
//!
//! Tokens live only inside the adapters; their `Debug` output, errors and log
//! lines never contain them: reqwest errors are stripped of their URL (which
//! for Telegram contains the token), and every text an adapter builds an
//! error from passes through its connection's [`Redactor`] (issue #22).

pub mod apply;
pub mod capabilities;
pub mod discord;
pub mod greeting;
pub mod hierarchy;
pub mod post;
pub mod ratelimit;
pub mod receive;
pub mod redact;
pub mod retry;
pub mod simulator;
pub mod slack;
pub mod structure;
pub mod telegram;
pub mod telemetry;
#[cfg(test)]
mod wire_tests;

use std::time::Duration;

use modctl_types::{Platform, Timestamp};

pub use apply::{WriteGroup, WriteGuild, WriteWorkspace};
pub use capabilities::Revert;
pub use capabilities::{
    AddRole, Ban, ButtonDm, Buttons, DeleteMessage, DirectMessage, Ephemeral, Greet, InlineButtons,
    InspectMember, JoinUserGroup, JoinedChannels, Kick, Mute, NativeRules, OwnInvites,
    PauseInvites, PostMessage, RankMember, ReadHierarchy, ReadInvites, ReplaceInviteLink, RuleSpec,
    SetRoles, Timeout,
};
pub use capabilities::{AdminStanding, CaptchaDm, CaptchaInteractions, DemoteAdmin, PhotoKeyboard};
pub use capabilities::{ChannelNames, MemberNames};
pub use hierarchy::{Hierarchy, Member, Role};
pub use post::Post;
pub use receive::{Gateway, Updates};
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
    /// A structure change a restore asked of the simulator, which does not
    /// keep that part of a platform (Slack user groups, Telegram settings):
    /// what the snapshot holds decides, not code, and the item fails alone.
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
    /// Calls, their outcomes and waits, for `GET /metrics` ([`telemetry`]).
    pub metrics: telemetry::PlatformMetrics,
    /// Each Discord guild's owner and roles, shared by all adapters
    /// ([`discord::guilds`]).
    pub discord_guilds: discord::guilds::GuildCache,
    /// One Slack user-group change at a time per (workspace, group): its
    /// list is read, changed and written back whole (see
    /// `crate::coordination`, a single-daemon assumption).
    pub slack_user_groups: std::sync::Arc<dyn crate::coordination::MemberLocking>,
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
            metrics: telemetry::PlatformMetrics::default(),
            discord_guilds: discord::guilds::GuildCache::default(),
            slack_user_groups: std::sync::Arc::new(crate::coordination::MemberLocks::default()),
        }
    }

    /// Runs `call` under the retry policy ([`RetryPolicy::run`]), counted
    /// for `GET /metrics` as calls to `platform`.
    pub async fn retried<T, F, Fut>(
        &self,
        platform: Platform,
        repeat: Repeat,
        call: F,
    ) -> PlatformResult<T>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = PlatformResult<T>>,
    {
        self.metrics
            .retried(platform, &self.retry, repeat, call)
            .await
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

/// Declares a platform's bot trait as its capabilities plus
/// [`StructureReader`] (every platform's structure can be read),
/// with the blanket impl that gives it to every type having them all (the
/// live adapter, and the simulator, which has every capability).
macro_rules! bot_trait {
    ($(#[$doc:meta])* $name:ident: $($capability:ident),+ $(,)?) => {
        $(#[$doc])*
        pub trait $name: $($capability +)+ StructureReader + std::fmt::Debug {}

        impl<T: $($capability +)+ StructureReader + std::fmt::Debug> $name for T {}
    };
}

bot_trait!(
    /// A connected Discord guild: everything Discord offers a bot.
    DiscordBot: ReadHierarchy, Timeout, Kick, Ban, SetRoles, InspectMember, PostMessage,
    DeleteMessage, DirectMessage, NativeRules, ReadInvites, WriteGuild, RankMember,
    Greet, AddRole, PauseInvites, Buttons, Revert, CaptchaInteractions, MemberNames,
);

bot_trait!(
    /// A connected Telegram group: no kick (a ban and an unban), no roles,
    /// no DMs (a bot cannot start a conversation).
    TelegramBot: Ban, Mute, InspectMember, PostMessage, DeleteMessage, ReadInvites, WriteGroup,
    RankMember, Greet, ReplaceInviteLink, InlineButtons, DemoteAdmin, PhotoKeyboard, MemberNames,
);

bot_trait!(
    /// A connected Slack workspace: a bot can post, delete (its own
    /// messages, or any with an admin user token), DM and show ephemeral
    /// notices, but not act on members.
    SlackBot: JoinedChannels, PostMessage, DeleteMessage, DirectMessage, Ephemeral,
    ReadInvites, WriteWorkspace, RankMember, Greet, JoinUserGroup, ButtonDm, CaptchaDm,
    MemberNames, ChannelNames,
);

/// A connected server, by platform: what the daemon holds to act on one.
/// Code that needs a capability some platforms lack matches on it, so the
/// compiler decides which platform has what ([`capabilities`]). A Discord
/// member can be kicked:
///
/// ```no_run
/// use modctld::platform::{Bot, Kick};
/// async fn remove(bot: &Bot) {
///     if let Bot::Discord(discord) = bot {
///         let _ = discord.kick("80000", Some("spam")).await;
///     }
/// }
/// ```
///
/// and a Slack member cannot, at compile time (Slack has no [`Kick`]):
///
/// ```compile_fail
/// use modctld::platform::{Bot, Kick};
/// async fn remove(bot: &Bot) {
///     if let Bot::Slack(slack) = bot {
///         let _ = slack.kick("U0001", Some("spam")).await;
///     }
/// }
/// ```
///
/// nor does a Telegram member get a DM (a bot cannot start one):
///
/// ```compile_fail
/// use modctld::platform::{Bot, DirectMessage, Post};
/// async fn tell(bot: &Bot) {
///     if let Bot::Telegram(telegram) = bot {
///         let _ = telegram.direct_message("100", &Post::text("hi")).await;
///     }
/// }
/// ```
#[derive(Debug)]
pub enum Bot {
    /// A Discord guild.
    Discord(Box<dyn DiscordBot>),
    /// A Telegram group.
    Telegram(Box<dyn TelegramBot>),
    /// A Slack workspace.
    Slack(Box<dyn SlackBot>),
}

impl Bot {
    /// The platform it is connected to.
    pub fn platform(&self) -> Platform {
        match self {
            Bot::Discord(_) => Platform::Discord,
            Bot::Telegram(_) => Platform::Telegram,
            Bot::Slack(_) => Platform::Slack,
        }
    }

    /// Reading the server's structure (every platform).
    pub fn reader(&self) -> &dyn StructureReader {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// Posting messages (every platform).
    pub fn poster(&self) -> &dyn PostMessage {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// Deleting messages (every platform).
    pub fn deleter(&self) -> &dyn DeleteMessage {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// Reading the server's own invites (every platform).
    pub fn invites(&self) -> &dyn ReadInvites {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// Who automod spares: the owner and members above the bot (every
    /// platform, each by its own ranks).
    pub fn ranks(&self) -> &dyn RankMember {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// The role order the members' ranks are read against, where a
    /// member's roles come with their messages (Discord's `member.roles`),
    /// so a rank needs no request per member.
    pub fn role_order(&self) -> Option<&dyn ReadHierarchy> {
        match self {
            Bot::Discord(bot) => Some(bot.as_ref()),
            Bot::Telegram(_) | Bot::Slack(_) => None,
        }
    }

    /// Messages only one member sees, where the platform has them (Slack).
    pub fn ephemeral(&self) -> Option<&dyn Ephemeral> {
        match self {
            Bot::Slack(bot) => Some(bot.as_ref()),
            Bot::Discord(_) | Bot::Telegram(_) => None,
        }
    }

    /// Greeting members who join (every platform).
    pub fn greeter(&self) -> &dyn Greet {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// Buttons the members press, where the bot keeps a message with one
    /// (Discord; issue #26's verification).
    pub fn buttons(&self) -> Option<&dyn Buttons> {
        match self {
            Bot::Discord(bot) => Some(bot.as_ref()),
            Bot::Telegram(_) | Bot::Slack(_) => None,
        }
    }

    /// One member's name (every platform; the name lookups).
    pub fn member_names(&self) -> &dyn MemberNames {
        match self {
            Bot::Discord(bot) => bot.as_ref(),
            Bot::Telegram(bot) => bot.as_ref(),
            Bot::Slack(bot) => bot.as_ref(),
        }
    }

    /// One channel's name, where the platform answers it alone (Slack).
    pub fn channel_names(&self) -> Option<&dyn ChannelNames> {
        match self {
            Bot::Slack(bot) => Some(bot.as_ref()),
            Bot::Discord(_) | Bot::Telegram(_) => None,
        }
    }

    /// Direct messages, where the platform lets a bot start one (`None`:
    /// Telegram).
    pub fn direct_messages(&self) -> Option<&dyn DirectMessage> {
        match self {
            Bot::Discord(bot) => Some(bot.as_ref()),
            Bot::Slack(bot) => Some(bot.as_ref()),
            Bot::Telegram(_) => None,
        }
    }
}

/// The platform behind a server's stored connection: the live adapter, or
/// the simulator standing in for `platform`.
pub fn connect(
    clients: &PlatformClients,
    store: &Store,
    platform: Platform,
    server_id: &str,
    connection: Connection,
) -> Bot {
    match connection.mode {
        ConnectionMode::Simulated => {
            let simulator = simulator::Simulator::new(
                store.clone(),
                clients.clock.clone(),
                server_id,
                platform,
            );
            match platform {
                Platform::Discord => Bot::Discord(Box::new(simulator)),
                Platform::Telegram => Bot::Telegram(Box::new(simulator)),
                Platform::Slack => Bot::Slack(Box::new(simulator)),
                _ => new_platform(platform),
            }
        }
        ConnectionMode::Live { token, api_base } => {
            let secrets = &connection.other_secrets;
            match platform {
                Platform::Discord => Bot::Discord(Box::new(
                    discord::Discord::new(clients.clone(), api_base, token, server_id)
                        .redacting(secrets),
                )),
                // An upgraded group's calls go to its supergroup's id.
                Platform::Telegram => Bot::Telegram(Box::new(
                    telegram::Telegram::new(
                        clients.clone(),
                        api_base,
                        token,
                        connection.telegram_chat_id.as_deref().unwrap_or(server_id),
                    )
                    .redacting(secrets),
                )),
                Platform::Slack => Bot::Slack(Box::new(
                    slack::Slack::new(clients.clone(), api_base, token)
                        .in_workspace(server_id)
                        .with_user_token(connection.user_token.clone())
                        .redacting(secrets),
                )),
                _ => new_platform(platform),
            }
        }
    }
}

/// The arm a match over [`Platform`] needs because the enum is
/// `#[non_exhaustive]` for other crates. Never reached: [`Platform::ALL`]
/// lists every platform, and the assertion below stops the build when one
/// is added to it, so whoever adds one finds every match to extend (search
/// for `new_platform`) instead of having it silently taken for another.
pub fn new_platform(platform: Platform) -> ! {
    unreachable!("{platform:?} is a platform the daemon was not built for")
}

const _: () = assert!(
    Platform::ALL.len() == 3,
    "a new platform: give it an arm in every match that calls new_platform"
);
