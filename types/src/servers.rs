//! Claimed servers and their platforms.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// The kind of messaging platform a server lives on.
///
/// ```
/// use modctl_types::Platform;
/// assert_eq!("telegram".parse::<Platform>().unwrap(), Platform::Telegram);
/// assert!(Platform::Discord.validate_server_id("123456789012345678").is_ok());
/// assert!(Platform::Slack.validate_server_id("123").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Platform {
    /// The guild-based chat platform (full support).
    Discord,
    /// The group-chat messaging platform (Telegram Bot API).
    Telegram,
    /// The workspace messaging platform (Slack Web API).
    Slack,
}

impl Platform {
    /// All platforms.
    pub const ALL: [Platform; 3] = [Platform::Discord, Platform::Telegram, Platform::Slack];

    /// The platform's name on the wire and on command lines.
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Discord => "discord",
            Platform::Telegram => "telegram",
            Platform::Slack => "slack",
        }
    }

    /// Checks that `id` has the shape of a server (community) id on this
    /// platform. The shapes do not overlap, so an id alone names one server.
    ///
    /// - Discord: a snowflake, 17 to 20 digits.
    /// - Telegram: a group or supergroup chat id, a negative integer.
    /// - Slack: a workspace (team) id, `T` followed by 8 to 12 upper-case letters or digits.
    pub fn validate_server_id(self, id: &str) -> Result<(), String> {
        let ok = match self {
            Platform::Discord => is_snowflake(id),
            Platform::Telegram => id
                .strip_prefix('-')
                .is_some_and(|digits| is_digits(digits, 1, 16) && !digits.starts_with('0')),
            Platform::Slack => id.strip_prefix('T').is_some_and(|rest| {
                (8..=12).contains(&rest.len())
                    && rest
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "`{id}` is not a {} server id: expected {}",
                self.as_str(),
                self.server_id_shape()
            ))
        }
    }

    /// Checks that `id` has the shape of a user id on this platform.
    ///
    /// - Discord: a snowflake, 17 to 20 digits.
    /// - Telegram: the positive integer Telegram assigns to each account.
    /// - Slack: a member id, `U` or `W` followed by 8 to 12 upper-case letters or digits.
    ///
    /// ```
    /// use modctl_types::Platform;
    /// assert!(Platform::Telegram.validate_user_id("424242").is_ok());
    /// assert_eq!(
    ///     Platform::Telegram.validate_user_id("@alice").unwrap_err(),
    ///     "`@alice` is not a telegram user id: expected the positive integer Telegram \
    ///      assigns to each account, e.g. 424242 (not a @username)"
    /// );
    /// ```
    pub fn validate_user_id(self, id: &str) -> Result<(), String> {
        let (ok, shape) = match self {
            Platform::Discord => (is_snowflake(id), "a snowflake of 17 to 20 digits"),
            Platform::Telegram => (
                is_digits(id, 1, 16) && !id.starts_with('0'),
                // Users often have a @username at hand, which the Bot API cannot act on.
                "the positive integer Telegram assigns to each account, e.g. 424242 (not a @username)",
            ),
            Platform::Slack => (
                id.strip_prefix(['U', 'W']).is_some_and(|rest| {
                    (8..=12).contains(&rest.len())
                        && rest
                            .bytes()
                            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
                }),
                "`U` or `W` followed by 8 to 12 upper-case letters or digits",
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "`{id}` is not a {} user id: expected {shape}",
                self.as_str()
            ))
        }
    }

    /// Checks that `id` has the shape of a channel (or chat) id on this platform.
    ///
    /// - Discord: a snowflake.
    /// - Telegram: a chat id, an integer (groups and channels are negative).
    /// - Slack: `C`, `G` or `D` followed by 8 to 12 upper-case letters or digits.
    pub fn validate_channel_id(self, id: &str) -> Result<(), String> {
        let ok = match self {
            Platform::Discord => is_snowflake(id),
            Platform::Telegram => is_digits(id.strip_prefix('-').unwrap_or(id), 1, 16),
            Platform::Slack => id
                .strip_prefix(['C', 'G', 'D'])
                .is_some_and(is_slack_suffix),
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "`{id}` is not a {} channel id: expected {}",
                self.as_str(),
                self.channel_id_shape()
            ))
        }
    }

    /// What a channel id of this platform looks like, for messages.
    pub(crate) fn channel_id_shape(self) -> &'static str {
        match self {
            Platform::Discord => "a snowflake of 17 to 20 digits",
            Platform::Telegram => "an integer chat id such as -1001234567890",
            Platform::Slack => "`C`, `G` or `D` followed by 8 to 12 upper-case letters or digits",
        }
    }

    /// Checks that `id` has the shape of a role id on this platform.
    ///
    /// - Discord: a snowflake.
    /// - Telegram: has no roles; every role id is refused.
    /// - Slack: a user group id, `S` followed by 8 to 12 upper-case letters or digits.
    pub fn validate_role_id(self, id: &str) -> Result<(), String> {
        let ok = match self {
            Platform::Discord => is_snowflake(id),
            Platform::Telegram => false,
            Platform::Slack => id.strip_prefix('S').is_some_and(is_slack_suffix),
        };
        match self.role_id_shape() {
            _ if ok => Ok(()),
            Some((noun, shape)) => Err(format!(
                "`{id}` is not a {} {noun}: expected {shape}",
                self.as_str()
            )),
            None => Err(format!("{} has no roles: leave it empty", self.as_str())),
        }
    }

    /// What this platform calls a role id and what one looks like, for
    /// messages; `None` for a platform without roles.
    pub(crate) fn role_id_shape(self) -> Option<(&'static str, &'static str)> {
        match self {
            Platform::Discord => Some(("role id", "a snowflake of 17 to 20 digits")),
            Platform::Telegram => None,
            Platform::Slack => Some((
                "user group id",
                "`S` followed by 8 to 12 upper-case letters or digits",
            )),
        }
    }

    fn server_id_shape(self) -> &'static str {
        match self {
            Platform::Discord => "a guild snowflake of 17 to 20 digits",
            Platform::Telegram => "a negative group chat id such as -1001234567890",
            Platform::Slack => "a workspace id such as T0123ABCD",
        }
    }
}

/// Whether `id` is a platform snowflake (Discord ids of guilds, users, roles, channels).
pub fn is_snowflake(id: &str) -> bool {
    is_digits(id, 17, 20)
}

fn is_slack_suffix(rest: &str) -> bool {
    (8..=12).contains(&rest.len())
        && rest
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

fn is_digits(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Platform {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Platform::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                format!("unknown platform `{s}`: expected one of discord, telegram, slack")
            })
    }
}

/// A server (community) claimed by the caller's team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Server {
    /// The platform's own id of the server, as a string.
    pub id: String,
    /// Display name given when the server was claimed.
    pub name: String,
    /// The platform the server lives on.
    pub platform: Platform,
    /// When the team claimed the server.
    pub claimed_at: Timestamp,
}

/// Response of `GET /api/v1/servers`.
///
/// The list is wrapped in an object so fields (such as paging) can be added
/// within v1 without changing the shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServerList {
    /// The team's servers, ordered by id.
    pub servers: Vec<Server>,
}
