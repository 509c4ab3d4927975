//! Creating a guild's structure for a restore: `POST /guilds/{id}/roles`,
//! one bulk `PATCH /guilds/{id}/roles` for positions, `POST
//! /guilds/{id}/channels`, `PATCH /channels/{id}` for a topic and `PUT
//! /channels/{id}/permissions/{target}`;
//! and the bot's standing (`GET /users/@me`, its member, the roles).

use async_trait::async_trait;
use modctl_types::snapshot::{DiscordChannel, DiscordRole, OverwriteKind, PermissionOverwrite};
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Discord;
use crate::platform::apply::StructureWriter;
use crate::platform::structure::payload;
use crate::platform::{PlatformError, PlatformResult};
use crate::restore::plan::BotStanding;

/// Discord's ADMINISTRATOR bit: holding it is holding every permission.
const ADMINISTRATOR: u64 = 1 << 3;

#[derive(Debug, Deserialize)]
struct Created {
    id: String,
}

#[derive(Debug, Deserialize)]
struct RolePayload {
    id: String,
    position: i64,
    permissions: String,
}

fn id_of(value: Value, what: &str) -> PlatformResult<String> {
    payload::<Created>(value, what).map(|c| c.id)
}

#[async_trait]
impl StructureWriter for Discord {
    async fn bot_standing(&self) -> PlatformResult<Option<BotStanding>> {
        let me: Created = payload(
            self.call(Method::GET, "/users/@me", None, None).await?,
            "user from Discord",
        )?;
        let guild = self
            .call(
                Method::GET,
                &format!("/guilds/{}", self.guild_id),
                None,
                None,
            )
            .await?;
        let Some(bot) = self.member(&me.id).await? else {
            return Err(PlatformError::Forbidden(
                "the bot is not a member of this guild: invite it first".to_owned(),
            ));
        };
        let roles: Vec<RolePayload> = payload(guild["roles"].clone(), "roles from Discord")?;
        if guild["owner_id"].as_str() == Some(me.id.as_str()) {
            return Ok(Some(BotStanding {
                top_position: i64::MAX,
                permissions: u64::MAX,
            }));
        }
        let held = roles
            .iter()
            .filter(|r| r.id == self.guild_id || bot.roles.contains(&r.id));
        let mut standing = BotStanding {
            top_position: 0,
            permissions: 0,
        };
        for role in held {
            standing.top_position = standing.top_position.max(role.position);
            standing.permissions |= role.permissions.parse::<u64>().unwrap_or(0);
        }
        if standing.permissions & ADMINISTRATOR != 0 {
            standing.permissions = u64::MAX;
        }
        Ok(Some(standing))
    }

    async fn create_role(&self, role: &DiscordRole, reason: &str) -> PlatformResult<String> {
        let mut body = json!({
            "name": role.name,
            "permissions": role.permissions,
            "color": role.colour,
            "hoist": role.hoist,
            "mentionable": role.mentionable,
        });
        if let Some(emoji) = &role.unicode_emoji {
            body["unicode_emoji"] = json!(emoji);
        }
        let path = format!("/guilds/{}/roles", self.guild_id);
        let created = self
            .call(Method::POST, &path, Some(body), Some(reason))
            .await?;
        id_of(created, "role from Discord")
    }

    async fn position_roles(
        &self,
        positions: &[(String, i64)],
        reason: &str,
    ) -> PlatformResult<()> {
        let body: Vec<Value> = positions
            .iter()
            .map(|(id, position)| json!({ "id": id, "position": position }))
            .collect();
        let path = format!("/guilds/{}/roles", self.guild_id);
        self.call(Method::PATCH, &path, Some(json!(body)), Some(reason))
            .await
            .map(drop)
    }

    async fn create_channel(
        &self,
        channel: &DiscordChannel,
        reason: &str,
    ) -> PlatformResult<String> {
        let mut body = json!({
            "name": channel.name,
            "type": channel.kind,
            "position": channel.position,
            "nsfw": channel.nsfw,
        });
        let optional = [
            ("topic", channel.topic.as_ref().map(|t| json!(t))),
            (
                "rate_limit_per_user",
                channel.rate_limit_per_user.map(|v| json!(v)),
            ),
            ("bitrate", channel.bitrate.map(|v| json!(v))),
            ("user_limit", channel.user_limit.map(|v| json!(v))),
            ("parent_id", channel.parent_id.as_ref().map(|p| json!(p))),
        ];
        for (field, value) in optional {
            if let Some(value) = value {
                body[field] = value;
            }
        }
        let path = format!("/guilds/{}/channels", self.guild_id);
        let created = self
            .call(Method::POST, &path, Some(body), Some(reason))
            .await?;
        id_of(created, "channel from Discord")
    }

    async fn set_channel_topic(
        &self,
        channel: &str,
        topic: &str,
        reason: &str,
    ) -> PlatformResult<()> {
        let body = json!({ "topic": topic });
        self.call(
            Method::PATCH,
            &format!("/channels/{channel}"),
            Some(body),
            Some(reason),
        )
        .await
        .map(drop)
    }

    async fn put_overwrite(
        &self,
        channel: &str,
        overwrite: &PermissionOverwrite,
        reason: &str,
    ) -> PlatformResult<()> {
        let kind = match overwrite.kind {
            OverwriteKind::Role => 0,
            OverwriteKind::Member => 1,
        };
        let body = json!({ "type": kind, "allow": overwrite.allow, "deny": overwrite.deny });
        let path = format!("/channels/{channel}/permissions/{}", overwrite.id);
        self.call(Method::PUT, &path, Some(body), Some(reason))
            .await
            .map(drop)
    }
}
