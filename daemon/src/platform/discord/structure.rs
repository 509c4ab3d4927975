//! A Discord guild's structure: `GET /guilds/{id}` (settings),
//! `GET /guilds/{id}/roles` and `GET /guilds/{id}/channels`.

use async_trait::async_trait;
use modctl_types::snapshot::{
    DiscordChannel, DiscordGuildSettings, DiscordRole, DiscordStructure, OverwriteKind,
    PermissionOverwrite, StructureContent,
};
use reqwest::Method;
use serde::Deserialize;

use super::Discord;
use crate::platform::structure::{StructureReader, nullable, payload};
use crate::platform::{PlatformError, PlatformResult};

/// Discord's channel type of a category.
pub const CATEGORY: u8 = 4;

/// The guild settings a snapshot keeps, as Discord sends them.
#[derive(Debug, Deserialize)]
struct GuildPayload {
    name: String,
    verification_level: u8,
    default_message_notifications: u8,
    explicit_content_filter: u8,
    #[serde(deserialize_with = "nullable")]
    system_channel_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    rules_channel_id: Option<String>,
}

/// A role as Discord sends it; `icon` and `unicode_emoji` are optional on
/// Discord's side.
#[derive(Debug, Deserialize)]
struct RolePayload {
    id: String,
    name: String,
    color: u32,
    hoist: bool,
    #[serde(default)]
    icon: Option<String>,
    #[serde(default)]
    unicode_emoji: Option<String>,
    position: i64,
    permissions: String,
    managed: bool,
    mentionable: bool,
}

/// A guild channel as Discord sends it. The fields a type does not have are
/// absent (a voice channel has no topic), which is Discord's "none"; the
/// overwrites are always sent for guild channels, and a channel without them
/// is refused rather than recorded as having none.
#[derive(Debug, Deserialize)]
struct ChannelPayload {
    id: String,
    #[serde(rename = "type")]
    kind: u8,
    name: String,
    #[serde(default)]
    topic: Option<String>,
    #[serde(default)]
    nsfw: bool,
    #[serde(default)]
    rate_limit_per_user: Option<u32>,
    #[serde(default)]
    bitrate: Option<u32>,
    #[serde(default)]
    user_limit: Option<u32>,
    #[serde(default)]
    parent_id: Option<String>,
    position: i64,
    permission_overwrites: Vec<OverwritePayload>,
}

/// An overwrite as Discord sends it: `type` 0 for a role, 1 for a member.
#[derive(Debug, Deserialize)]
struct OverwritePayload {
    id: String,
    #[serde(rename = "type")]
    kind: u8,
    allow: String,
    deny: String,
}

impl OverwritePayload {
    fn into_wire(self) -> PlatformResult<PermissionOverwrite> {
        let kind = match self.kind {
            0 => OverwriteKind::Role,
            1 => OverwriteKind::Member,
            other => {
                return Err(PlatformError::Invalid(format!(
                    "unexpected permission overwrite type {other} from Discord (expected 0 or 1)"
                )));
            }
        };
        Ok(PermissionOverwrite {
            id: self.id,
            kind,
            allow: self.allow,
            deny: self.deny,
        })
    }
}

impl Discord {
    async fn get(&self, path: &str) -> PlatformResult<serde_json::Value> {
        let path = format!("/guilds/{}{path}", self.guild_id);
        self.call(Method::GET, &path, None, None).await
    }
}

#[async_trait]
impl StructureReader for Discord {
    async fn read_structure(&self) -> PlatformResult<StructureContent> {
        let guild: GuildPayload = payload(self.get("").await?, "guild from Discord")?;
        let roles: Vec<RolePayload> = payload(self.get("/roles").await?, "roles from Discord")?;
        let channels: Vec<ChannelPayload> =
            payload(self.get("/channels").await?, "channels from Discord")?;
        let mut roles: Vec<DiscordRole> = roles
            .into_iter()
            .map(|role| DiscordRole {
                is_everyone: role.id == self.guild_id,
                id: role.id,
                name: role.name,
                colour: role.color,
                hoist: role.hoist,
                mentionable: role.mentionable,
                permissions: role.permissions,
                position: role.position,
                icon: role.icon,
                unicode_emoji: role.unicode_emoji,
                managed: role.managed,
            })
            .collect();
        let mut channels = channels
            .into_iter()
            .map(|channel| {
                Ok(DiscordChannel {
                    id: channel.id,
                    kind: channel.kind,
                    name: channel.name,
                    topic: channel.topic,
                    nsfw: channel.nsfw,
                    rate_limit_per_user: channel.rate_limit_per_user,
                    bitrate: channel.bitrate,
                    user_limit: channel.user_limit,
                    parent_id: channel.parent_id,
                    position: channel.position,
                    permission_overwrites: channel
                        .permission_overwrites
                        .into_iter()
                        .map(OverwritePayload::into_wire)
                        .collect::<PlatformResult<_>>()?,
                })
            })
            .collect::<PlatformResult<Vec<_>>>()?;
        sort(&mut roles, &mut channels);
        Ok(StructureContent::Discord(DiscordStructure {
            settings: DiscordGuildSettings {
                name: guild.name,
                verification_level: guild.verification_level,
                default_message_notifications: guild.default_message_notifications,
                explicit_content_filter: guild.explicit_content_filter,
                system_channel_id: guild.system_channel_id,
                rules_channel_id: guild.rules_channel_id,
            },
            roles,
            channels,
        }))
    }
}

/// The order a snapshot keeps, whatever order the platform (or the
/// simulator) answered in, so the same structure always hashes the same:
/// roles highest first; categories first, then channels, each by position.
pub fn sort(roles: &mut [DiscordRole], channels: &mut [DiscordChannel]) {
    roles.sort_by(|a, b| b.position.cmp(&a.position).then_with(|| a.id.cmp(&b.id)));
    channels.sort_by(|a, b| {
        (a.kind != CATEGORY, a.position, &a.id).cmp(&(b.kind != CATEGORY, b.position, &b.id))
    });
}
