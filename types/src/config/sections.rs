//! The nine config sections. Every field has a default, so a section that was
//! never set reads as [`Default::default`], and a `PUT` body may leave out any
//! field to get its default. Unknown fields are rejected, naming the field.
//! The ninth, `webhooks`, with its write-only secret, is in `webhooks.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::webhooks::{SecretUpdate, WebhookEvent, Webhooks};

/// `general`: where the bot logs and how it formats things.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct General {
    /// Channel that receives the moderation log; `null` for none.
    pub modlog_channel_id: Option<String>,
    /// Language of bot messages, e.g. `en` or `pt-BR`.
    pub locale: String,
    /// IANA time zone used in messages, e.g. `Europe/Berlin`.
    pub timezone: String,
}

impl Default for General {
    fn default() -> Self {
        General {
            modlog_channel_id: None,
            locale: "en".into(),
            timezone: "UTC".into(),
        }
    }
}

/// `moderation`: how actions behave by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Moderation {
    /// Refuse actions that carry no reason.
    pub require_reason: bool,
    /// Send the member a direct message about the action.
    pub dm_on_action: bool,
    /// Timeout length when none is given, in minutes (1 to 40320 = 28 days).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 40320))]
    pub default_timeout_minutes: u32,
    /// Days of messages deleted by a ban when none is given (0 to 7).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 7))]
    pub default_ban_delete_days: u8,
    /// Message templates by action (`warn`, `timeout`, `kick`, `ban`, ...);
    /// placeholders `{user}`, `{reason}`, `{server}`, `{duration}`, `{case}`.
    pub templates: BTreeMap<String, String>,
}

impl Default for Moderation {
    fn default() -> Self {
        Moderation {
            require_reason: false,
            dm_on_action: true,
            default_timeout_minutes: 60,
            default_ban_delete_days: 0,
            templates: BTreeMap::new(),
        }
    }
}

/// `strikes`: weights, expiry and the escalation ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Strikes {
    /// Whether actions add strikes at all.
    pub enabled: bool,
    /// Strikes each action adds (0 to 10).
    pub weights: StrikeWeights,
    /// Days after which a strike stops counting; 0 = never (at most 3650).
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 3650))]
    pub expiry_days: u32,
    /// Escalation steps, by increasing `at` (at most 10).
    #[cfg_attr(feature = "openapi", schema(max_items = 10))]
    pub ladder: Vec<LadderStep>,
}

impl Default for Strikes {
    fn default() -> Self {
        Strikes {
            enabled: true,
            weights: StrikeWeights::default(),
            expiry_days: 30,
            ladder: vec![
                LadderStep {
                    at: 3,
                    action: LadderAction::Timeout,
                    minutes: Some(60),
                },
                LadderStep {
                    at: 5,
                    action: LadderAction::Kick,
                    minutes: None,
                },
                LadderStep {
                    at: 7,
                    action: LadderAction::Ban,
                    minutes: None,
                },
            ],
        }
    }
}

/// Strikes added per action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct StrikeWeights {
    /// `note`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub note: u32,
    /// `warn`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub warn: u32,
    /// `timeout`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub timeout: u32,
    /// `kick`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub kick: u32,
    /// `ban`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub ban: u32,
    /// `jail`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 10))]
    pub jail: u32,
}

impl Default for StrikeWeights {
    fn default() -> Self {
        StrikeWeights {
            note: 0,
            warn: 1,
            timeout: 1,
            kick: 2,
            ban: 0,
            jail: 1,
        }
    }
}

/// One escalation step: at `at` active strikes, apply `action`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct LadderStep {
    /// Active strike count that triggers the step (1 to 100).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub at: u32,
    /// What to do.
    pub action: LadderAction,
    /// Duration: required for `timeout` (1 to 40320), optional for `jail`
    /// (1 to 525600; none = until unjailed), not allowed for `kick` and `ban`.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 525600))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
}

/// What a ladder step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum LadderAction {
    /// Time the member out.
    Timeout,
    /// Kick the member.
    Kick,
    /// Ban the member.
    Ban,
    /// Jail the member.
    Jail,
}

/// `jail`: the role and channel used to jail members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Jail {
    /// Whether jailing is available.
    pub enabled: bool,
    /// Role given to jailed members; required when enabled on Discord.
    pub role_id: Option<String>,
    /// Channel jailed members can still see.
    pub channel_id: Option<String>,
    /// Remove the member's roles while jailed and restore them on unjail.
    pub strip_roles: bool,
    /// Jail length when none is given, in minutes (1 to 525600); `null` = until unjailed.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 525600))]
    pub default_minutes: Option<u32>,
}

impl Default for Jail {
    fn default() -> Self {
        Jail {
            enabled: false,
            role_id: None,
            channel_id: None,
            strip_roles: true,
            default_minutes: None,
        }
    }
}

/// What an automod filter does when it triggers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FilterAction {
    /// Delete the message.
    Delete,
    /// Delete and warn.
    Warn,
    /// Delete and time out.
    Timeout,
    /// Delete and kick.
    Kick,
    /// Delete and ban.
    Ban,
}

impl FilterAction {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterAction::Delete => "delete",
            FilterAction::Warn => "warn",
            FilterAction::Timeout => "timeout",
            FilterAction::Kick => "kick",
            FilterAction::Ban => "ban",
        }
    }
}

/// `automod`: message filters.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Automod {
    /// Messages containing blocked words.
    pub blocked_words: WordFilter,
    /// Invite links to other servers.
    pub invite_links: InviteFilter,
    /// Links to domains outside the allow-list.
    pub links: LinkFilter,
    /// Too many mentions in one message.
    pub mention_spam: MentionFilter,
    /// Messages mostly in capitals.
    pub caps: CapsFilter,
    /// The same message repeated.
    pub duplicates: DuplicateFilter,
    /// Roles whose members no filter acts on (additive), at most 50.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub exempt_role_ids: Vec<String>,
    /// Channels where no filter acts (additive), at most 50.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub exempt_channel_ids: Vec<String>,
}

/// Defines a filter without a list; each has its own default threshold, so a
/// body that only says `{"enabled": true}` gets a sensible one.
macro_rules! filter {
    ($(#[$doc:meta])* $name:ident, threshold = $default:expr, $min:tt..=$max:tt, $threshold_doc:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            /// Whether the filter runs.
            pub enabled: bool,
            /// What it does when it triggers.
            pub action: FilterAction,
            #[doc = $threshold_doc]
            #[cfg_attr(feature = "openapi", schema(minimum = $min, maximum = $max))]
            pub threshold: u32,
        }

        impl Default for $name {
            fn default() -> Self {
                $name { enabled: false, action: FilterAction::Delete, threshold: $default }
            }
        }
    };
}

/// The invite-link filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct InviteFilter {
    /// Whether the filter runs.
    pub enabled: bool,
    /// What it does when it triggers.
    pub action: FilterAction,
    /// Invite links in one message before it triggers (1 to 10).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    pub threshold: u32,
    /// More of the server's own invites to allow, beside those the daemon
    /// learns from the platform (additive; at most 50): a code (`abc`), a
    /// link from its host on (`discord.gg/abc`, `t.me/+AbC`, `t.me/group`),
    /// or the beginning of links, ending in `/` (`join.slack.com/t/acme/`).
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub allow: Vec<String>,
}

impl Default for InviteFilter {
    fn default() -> Self {
        InviteFilter {
            enabled: false,
            action: FilterAction::Delete,
            threshold: 1,
            allow: Vec::new(),
        }
    }
}

filter!(
    /// The mention-spam filter.
    MentionFilter, threshold = 5, 2..=50, "Mentions in one message before it triggers (2 to 50)."
);

/// The capitals filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CapsFilter {
    /// Whether the filter runs.
    pub enabled: bool,
    /// What it does when it triggers.
    pub action: FilterAction,
    /// Percent of capital letters that triggers it (50 to 100).
    #[cfg_attr(feature = "openapi", schema(minimum = 50, maximum = 100))]
    pub threshold: u32,
    /// Letters a message needs before the filter looks at it, so a short
    /// "OK" is not shouting (additive; 1 to 200).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 200))]
    pub min_letters: u32,
}

impl Default for CapsFilter {
    fn default() -> Self {
        CapsFilter {
            enabled: false,
            action: FilterAction::Delete,
            threshold: 70,
            min_letters: 8,
        }
    }
}

/// The duplicate-message filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DuplicateFilter {
    /// Whether the filter runs.
    pub enabled: bool,
    /// What it does when it triggers.
    pub action: FilterAction,
    /// Identical messages in a row that trigger it (2 to 20).
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 20))]
    pub threshold: u32,
    /// Seconds from the first of the identical messages within which the
    /// rest must come (additive; 5 to 3600).
    #[cfg_attr(feature = "openapi", schema(minimum = 5, maximum = 3600))]
    pub window_seconds: u32,
}

impl Default for DuplicateFilter {
    fn default() -> Self {
        DuplicateFilter {
            enabled: false,
            action: FilterAction::Delete,
            threshold: 3,
            window_seconds: 60,
        }
    }
}

/// The blocked-words filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct WordFilter {
    /// Whether the filter runs.
    pub enabled: bool,
    /// What it does when it triggers.
    pub action: FilterAction,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    /// Blocked words in one message before it triggers (1 to 10).
    pub threshold: u32,
    /// The words (at most 500, each 1 to 100 characters).
    #[cfg_attr(feature = "openapi", schema(max_items = 500))]
    pub words: Vec<String>,
}

impl Default for WordFilter {
    fn default() -> Self {
        WordFilter {
            enabled: false,
            action: FilterAction::Delete,
            threshold: 1,
            words: Vec::new(),
        }
    }
}

/// The link filter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct LinkFilter {
    /// Whether the filter runs.
    pub enabled: bool,
    /// What it does when it triggers.
    pub action: FilterAction,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    /// Links outside the allow-list in one message before it triggers (1 to 10).
    pub threshold: u32,
    /// Allowed domains, e.g. `example.com` (at most 200).
    #[cfg_attr(feature = "openapi", schema(max_items = 200))]
    pub allow: Vec<String>,
}

impl Default for LinkFilter {
    fn default() -> Self {
        LinkFilter {
            enabled: false,
            action: FilterAction::Delete,
            threshold: 1,
            allow: Vec::new(),
        }
    }
}

/// `logging`: a channel per event kind; `null` turns that log off.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Logging {
    /// Deleted messages.
    pub message_delete: Option<String>,
    /// Edited messages.
    pub message_edit: Option<String>,
    /// Members joining.
    pub member_join: Option<String>,
    /// Members leaving.
    pub member_leave: Option<String>,
    /// Moderation actions.
    pub moderation: Option<String>,
    /// Automod triggers.
    pub automod: Option<String>,
    /// Config changes.
    pub config: Option<String>,
}

impl Logging {
    /// Every log channel with its field name, in declaration order.
    pub fn channels(&self) -> [(&'static str, &Option<String>); 7] {
        [
            ("message_delete", &self.message_delete),
            ("message_edit", &self.message_edit),
            ("member_join", &self.member_join),
            ("member_leave", &self.member_leave),
            ("moderation", &self.moderation),
            ("automod", &self.automod),
            ("config", &self.config),
        ]
    }

    /// As [`Logging::channels`], to change them.
    pub fn channels_mut(&mut self) -> [(&'static str, &mut Option<String>); 7] {
        [
            ("message_delete", &mut self.message_delete),
            ("message_edit", &mut self.message_edit),
            ("member_join", &mut self.member_join),
            ("member_leave", &mut self.member_leave),
            ("moderation", &mut self.moderation),
            ("automod", &mut self.automod),
            ("config", &mut self.config),
        ]
    }
}

/// How new members are verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verification {
    /// No verification.
    #[default]
    None,
    /// A button to press.
    Button,
    /// A captcha to solve.
    Captcha,
}

/// `welcome`: greeting, auto-roles and verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Welcome {
    /// Whether new members are greeted.
    pub enabled: bool,
    /// Where the greeting is posted.
    pub channel_id: Option<String>,
    /// The greeting (at most 2000 characters); placeholders `{user}`, `{server}`.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 2000))]
    pub message: String,
    /// Roles given to every new member (at most 10).
    #[cfg_attr(feature = "openapi", schema(max_items = 10))]
    pub auto_role_ids: Vec<String>,
    /// How new members are verified.
    pub verification: Verification,
    /// Role given once verified; required unless `verification` is `none`.
    pub verified_role_id: Option<String>,
    /// Where Discord's verify message with its button is kept (additive);
    /// `null` = `channel_id`.
    pub verify_channel_id: Option<String>,
    /// Minutes a new member has to verify before being kicked (additive;
    /// 1 to 1440).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1440))]
    pub verify_within_minutes: u32,
}

impl Default for Welcome {
    fn default() -> Self {
        Welcome {
            enabled: false,
            channel_id: None,
            message: "Welcome to {server}, {user}!".into(),
            auto_role_ids: Vec::new(),
            verification: Verification::None,
            verified_role_id: None,
            verify_channel_id: None,
            verify_within_minutes: 10,
        }
    }
}

/// What anti-nuke does to a member who crosses a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum AntinukeAction {
    /// Remove the member's roles.
    StripRoles,
    /// Kick the member.
    Kick,
    /// Ban the member.
    Ban,
}

/// `antinuke`: structure snapshots and limits on mass destruction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Antinuke {
    /// Whether the limits are enforced.
    pub enabled: bool,
    /// Take a structure snapshot automatically every N hours (1 to 168); `null` = never.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 168))]
    pub snapshot_interval_hours: Option<u32>,
    /// Channel deletions per member per minute before acting (1 to 50).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 50))]
    pub max_channel_deletions_per_minute: u32,
    /// Role deletions per member per minute before acting (1 to 50).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 50))]
    pub max_role_deletions_per_minute: u32,
    /// Bans per member per minute before acting (1 to 100).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 100))]
    pub max_bans_per_minute: u32,
    /// What to do to the member.
    pub action: AntinukeAction,
    /// Users never counted (additive), at most 50.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub trusted_user_ids: Vec<String>,
    /// Roles whose members are never counted (additive), at most 50.
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub trusted_role_ids: Vec<String>,
    /// Put the structure back from the latest snapshot taken before an
    /// incident began, once its executor is stopped (additive).
    pub restore: bool,
    /// Joins within a minute above which a raid lockdown starts (additive;
    /// 1 to 1000); `null` = never by itself.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    pub max_joins_per_minute: Option<u32>,
    /// How long a lockdown lasts (additive; 1 to 1440 minutes).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1440))]
    pub lockdown_minutes: u32,
}

impl Default for Antinuke {
    fn default() -> Self {
        Antinuke {
            enabled: false,
            snapshot_interval_hours: Some(24),
            max_channel_deletions_per_minute: 3,
            max_role_deletions_per_minute: 3,
            max_bans_per_minute: 5,
            action: AntinukeAction::StripRoles,
            trusted_user_ids: Vec::new(),
            trusted_role_ids: Vec::new(),
            restore: false,
            max_joins_per_minute: None,
            lockdown_minutes: 10,
        }
    }
}
