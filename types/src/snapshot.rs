//! Structure snapshots (issue #10): a server's roles, channels and settings
//! as captured from its platform, and the metadata the API lists them by.
//!
//! The content is typed per platform ([`StructureContent`]): what a restore
//! needs to rebuild the structure, nothing about members or messages. Ids
//! are the platform's own, as strings (Telegram user ids are integers on the
//! platform and strings here, like every id of the API).

use serde::{Deserialize, Serialize};

use crate::{Platform, Timestamp};

/// Who asked for a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SnapshotSource {
    /// `POST /servers/{id}/structure-snapshot`.
    Api,
    /// The scheduled capture (`antinuke.snapshot_interval_hours`).
    Schedule,
    /// An operator command on the daemon's host.
    Operator,
}

impl SnapshotSource {
    /// The name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotSource::Api => "api",
            SnapshotSource::Schedule => "schedule",
            SnapshotSource::Operator => "operator",
        }
    }
}

impl std::str::FromStr for SnapshotSource {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            SnapshotSource::Api,
            SnapshotSource::Schedule,
            SnapshotSource::Operator,
        ]
        .into_iter()
        .find(|source| source.as_str() == s)
        .ok_or_else(|| format!("unknown snapshot source `{s}`: expected api, schedule or operator"))
    }
}

/// How many items of each kind a snapshot holds; a kind the platform does
/// not have counts 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SnapshotCounts {
    /// Discord roles, `@everyone` and managed roles included.
    pub roles: u32,
    /// Discord channels of every type (categories included), or Slack
    /// channels (archived included).
    pub channels: u32,
    /// Discord permission overwrites, over all channels.
    pub permission_overwrites: u32,
    /// Slack user groups.
    pub user_groups: u32,
    /// Telegram administrators, the creator included.
    pub administrators: u32,
}

/// One snapshot, without its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SnapshotMeta {
    /// The snapshot's number on its server (`?id=` of `GET
    /// /structure-snapshot`, `snapshot_id` of a restore): 1, 2, ... in
    /// capture order, per server like case numbers (issue #27).
    pub id: i64,
    /// The server it was captured from.
    pub server_id: String,
    /// The server's platform: which variant the content is.
    pub platform: Platform,
    /// When it was captured (the daemon's clock).
    pub captured_at: Timestamp,
    /// Who asked for it.
    pub source: SnapshotSource,
    /// `key:<key_id>` for the API, `schedule` or `operator`.
    pub actor: String,
    /// Items per kind.
    pub counts: SnapshotCounts,
    /// SHA-256 of the content's JSON, lower-case hex: two snapshots with the
    /// same hash hold the same structure (and share storage).
    pub content_hash: String,
    /// Size of the content's JSON in bytes.
    pub size_bytes: u64,
}

/// One snapshot: its metadata, and its content when asked for
/// (`?content=true`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Snapshot {
    /// The metadata.
    #[serde(flatten)]
    pub meta: SnapshotMeta,
    /// The structure; left out unless `content=true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<StructureContent>,
}

/// Response of `GET /servers/{id}/structure-snapshot` without `id`: the
/// latest snapshot and every one kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SnapshotListing {
    /// The newest snapshot, with its content when `content=true`.
    pub latest: Snapshot,
    /// Every snapshot kept, newest first (the latest included), without content.
    pub recent: Vec<SnapshotMeta>,
}

/// What `GET /servers/{id}/structure-snapshot` answers: the listing, or with
/// `?id=N` that one snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum SnapshotAnswer {
    /// Without `id`.
    Listing(SnapshotListing),
    /// With `id`.
    One(Snapshot),
}

/// Query of `GET /servers/{id}/structure-snapshot`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams), into_params(parameter_in = Query))]
#[serde(deny_unknown_fields)]
pub struct SnapshotQuery {
    /// One snapshot by id instead of the listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Include the content (of the latest, or of `id`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub content: bool,
}

/// A snapshot's content: the structure of one platform.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "platform", rename_all = "snake_case")]
#[non_exhaustive]
pub enum StructureContent {
    /// A Discord guild.
    Discord(DiscordStructure),
    /// A Telegram group.
    Telegram(TelegramStructure),
    /// A Slack workspace.
    Slack(SlackStructure),
}

impl StructureContent {
    /// The platform this content was captured on.
    pub fn platform(&self) -> Platform {
        match self {
            StructureContent::Discord(_) => Platform::Discord,
            StructureContent::Telegram(_) => Platform::Telegram,
            StructureContent::Slack(_) => Platform::Slack,
        }
    }

    /// Items per kind.
    pub fn counts(&self) -> SnapshotCounts {
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        match self {
            StructureContent::Discord(guild) => SnapshotCounts {
                roles: count(guild.roles.len()),
                channels: count(guild.channels.len()),
                permission_overwrites: count(
                    guild
                        .channels
                        .iter()
                        .map(|c| c.permission_overwrites.len())
                        .sum(),
                ),
                ..SnapshotCounts::default()
            },
            StructureContent::Telegram(group) => SnapshotCounts {
                administrators: count(group.administrators.len()),
                ..SnapshotCounts::default()
            },
            StructureContent::Slack(workspace) => SnapshotCounts {
                channels: count(workspace.channels.len()),
                user_groups: count(workspace.user_groups.len()),
                ..SnapshotCounts::default()
            },
        }
    }
}

/// A Discord guild's structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiscordStructure {
    /// The guild settings a moderator cares about.
    pub settings: DiscordGuildSettings,
    /// Every role, highest position first.
    pub roles: Vec<DiscordRole>,
    /// Every channel, categories first, then by position.
    pub channels: Vec<DiscordChannel>,
}

/// Guild settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiscordGuildSettings {
    /// The guild's name.
    pub name: String,
    /// 0 none to 4 very high.
    pub verification_level: u8,
    /// 0 all messages, 1 only mentions.
    pub default_message_notifications: u8,
    /// 0 disabled, 1 members without roles, 2 all members.
    pub explicit_content_filter: u8,
    /// Where system messages go.
    pub system_channel_id: Option<String>,
    /// The rules channel (community guilds).
    pub rules_channel_id: Option<String>,
}

/// A Discord role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiscordRole {
    /// Role id (`@everyone`'s is the guild id).
    pub id: String,
    /// Name.
    pub name: String,
    /// RGB colour as an integer; 0 is none.
    pub colour: u32,
    /// Shown separately in the member list.
    pub hoist: bool,
    /// Anyone may mention it.
    pub mentionable: bool,
    /// Permission bitfield, as Discord writes it: a decimal string.
    pub permissions: String,
    /// Position; higher is above.
    pub position: i64,
    /// Icon hash, if it has an icon.
    pub icon: Option<String>,
    /// Unicode emoji shown as its icon, if any.
    pub unicode_emoji: Option<String>,
    /// Managed by an integration (a bot's own role): recorded, never created.
    pub managed: bool,
    /// The `@everyone` role: recorded, never created.
    pub is_everyone: bool,
}

/// A Discord channel of any type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DiscordChannel {
    /// Channel id.
    pub id: String,
    /// Discord's channel type: 0 text, 2 voice, 4 category, 5 announcement,
    /// 13 stage, 15 forum, 16 media.
    #[serde(rename = "type")]
    pub kind: u8,
    /// Name.
    pub name: String,
    /// Topic (text, announcement, forum and media channels).
    pub topic: Option<String>,
    /// Age-restricted.
    pub nsfw: bool,
    /// Slow mode in seconds, where the type has it.
    pub rate_limit_per_user: Option<u32>,
    /// Voice bitrate in bits per second (voice and stage).
    pub bitrate: Option<u32>,
    /// Voice user limit, 0 is none (voice and stage).
    pub user_limit: Option<u32>,
    /// The category it is in.
    pub parent_id: Option<String>,
    /// Position among its siblings.
    pub position: i64,
    /// Every permission overwrite, role and member.
    pub permission_overwrites: Vec<PermissionOverwrite>,
}

/// Whom an overwrite is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum OverwriteKind {
    /// A role (Discord's type 0).
    Role,
    /// A member (Discord's type 1).
    Member,
}

/// A channel's permission overwrite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PermissionOverwrite {
    /// The role or member id.
    pub id: String,
    /// Role or member.
    #[serde(rename = "type")]
    pub kind: OverwriteKind,
    /// Permissions granted, a decimal bitfield string.
    pub allow: String,
    /// Permissions taken away, a decimal bitfield string.
    pub deny: String,
}

/// A Slack workspace's structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SlackStructure {
    /// Public and private channels the bot can see, archived included.
    pub channels: Vec<SlackChannel>,
    /// User groups (enabled ones).
    pub user_groups: Vec<SlackUserGroup>,
}

/// A Slack channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SlackChannel {
    /// Channel id.
    pub id: String,
    /// Name, without `#`.
    pub name: String,
    /// Private channel.
    pub is_private: bool,
    /// Topic ("" when none).
    pub topic: String,
    /// Purpose ("" when none).
    pub purpose: String,
    /// Archived.
    pub is_archived: bool,
}

/// A Slack user group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SlackUserGroup {
    /// User group id (`S...`).
    pub id: String,
    /// Name.
    pub name: String,
    /// Mention handle, without `@`.
    pub handle: String,
    /// Description ("" when none).
    pub description: String,
    /// Channels its members are added to by default.
    pub default_channels: Vec<String>,
    /// Member user ids.
    pub members: Vec<String>,
}

/// A Telegram group's structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramStructure {
    /// Title.
    pub title: String,
    /// Description, if set.
    pub description: Option<String>,
    /// What members may do by default.
    pub default_permissions: TelegramPermissions,
    /// Slow mode in seconds, if on.
    pub slow_mode_delay: Option<u32>,
    /// The administrators, creator included (for the record; a restore does
    /// not promote anyone).
    pub administrators: Vec<TelegramAdministrator>,
}

/// Telegram's `ChatPermissions`; a permission Telegram leaves out is `false`,
/// as Telegram defines it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramPermissions {
    /// Send text messages, contacts, locations and venues.
    #[serde(default)]
    pub can_send_messages: bool,
    /// Send audios.
    #[serde(default)]
    pub can_send_audios: bool,
    /// Send documents.
    #[serde(default)]
    pub can_send_documents: bool,
    /// Send photos.
    #[serde(default)]
    pub can_send_photos: bool,
    /// Send videos.
    #[serde(default)]
    pub can_send_videos: bool,
    /// Send video notes.
    #[serde(default)]
    pub can_send_video_notes: bool,
    /// Send voice notes.
    #[serde(default)]
    pub can_send_voice_notes: bool,
    /// Send polls.
    #[serde(default)]
    pub can_send_polls: bool,
    /// Send animations, games, stickers and inline bot results.
    #[serde(default)]
    pub can_send_other_messages: bool,
    /// Add web page previews to messages.
    #[serde(default)]
    pub can_add_web_page_previews: bool,
    /// Change the chat title, photo and other settings.
    #[serde(default)]
    pub can_change_info: bool,
    /// Invite new users.
    #[serde(default)]
    pub can_invite_users: bool,
    /// Pin messages.
    #[serde(default)]
    pub can_pin_messages: bool,
    /// Create forum topics.
    #[serde(default)]
    pub can_manage_topics: bool,
}

/// A Telegram administrator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TelegramAdministrator {
    /// User id.
    pub user_id: String,
    /// First name.
    pub first_name: String,
    /// Username, without `@`, if they have one.
    pub username: Option<String>,
    /// A bot.
    pub is_bot: bool,
    /// `creator` or `administrator`.
    pub status: String,
    /// Custom title, if set.
    pub custom_title: Option<String>,
    /// The `can_*` rights they hold, sorted (the creator holds them all and
    /// Telegram lists none).
    pub rights: Vec<String>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn content_is_tagged_by_platform_and_overwrites_name_their_type() {
        let content = StructureContent::Slack(SlackStructure {
            channels: Vec::new(),
            user_groups: Vec::new(),
        });
        assert_eq!(
            serde_json::to_value(&content).unwrap(),
            json!({"platform": "slack", "channels": [], "user_groups": []})
        );
        let overwrite = PermissionOverwrite {
            id: "1".into(),
            kind: OverwriteKind::Member,
            allow: "1024".into(),
            deny: "0".into(),
        };
        assert_eq!(
            serde_json::to_value(&overwrite).unwrap(),
            json!({"id": "1", "type": "member", "allow": "1024", "deny": "0"})
        );
        assert_eq!(content.platform(), Platform::Slack);
        assert_eq!(content.counts(), SnapshotCounts::default());
    }

    #[test]
    fn sources_round_trip_through_their_names() {
        for source in [
            SnapshotSource::Api,
            SnapshotSource::Schedule,
            SnapshotSource::Operator,
        ] {
            assert_eq!(source.as_str().parse::<SnapshotSource>(), Ok(source));
        }
        assert!(
            "cron"
                .parse::<SnapshotSource>()
                .unwrap_err()
                .contains("api, schedule or operator")
        );
    }
}
