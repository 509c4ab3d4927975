//! Creating a guild's structure for a restore: `POST /guilds/{id}/roles`,
//! one bulk `PATCH /guilds/{id}/roles` for positions, `POST
//! /guilds/{id}/channels`, `PATCH /channels/{id}` for a topic and `PUT
//! /channels/{id}/permissions/{target}`;
//! and the bot's standing (`GET /users/@me`, its member, the roles).

use std::collections::HashSet;

use async_trait::async_trait;
use modctl_types::snapshot::{DiscordChannel, DiscordRole, OverwriteKind, PermissionOverwrite};
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Discord;
use crate::platform::apply::BotStanding;
use crate::platform::apply::WriteGuild;
use crate::platform::structure::payload;
use crate::platform::{PlatformError, PlatformResult};

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

/// The fields of a role's creation that say a listed role is the one a
/// lost answer made: the name the restore matches roles by (see
/// `crate::restore::plan`), and what else was sent.
const ROLE_FIELDS: [&str; 5] = ["name", "permissions", "color", "hoist", "mentionable"];
/// The same for a channel: the restore's key (type, name, parent).
const CHANNEL_FIELDS: [&str; 3] = ["name", "type", "parent_id"];

/// The ids in a list of roles or channels.
fn listed_ids(list: &Value) -> HashSet<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["id"].as_str().map(str::to_owned))
        .collect()
}

/// The item of `list` that was not there `before` and has every one of
/// `fields` as `body` sent it (a field not sent must be absent or null,
/// e.g. a channel without a parent) and is not managed: the one the lost
/// creation made. The oldest, should there be several.
fn made_by(
    list: &Value,
    before: &HashSet<String>,
    body: &Value,
    fields: &[&str],
) -> Option<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter(|item| item["id"].as_str().is_some_and(|id| !before.contains(id)))
        .filter(|item| item["managed"].as_bool() != Some(true))
        .filter(|item| fields.iter().all(|f| item[*f] == body[*f]))
        .filter_map(|item| item["id"].as_str().map(str::to_owned))
        .min_by_key(|id| (id.len(), id.clone()))
}

impl Discord {
    /// `POST path` with `body`, for a creation, sent again only when the
    /// first try surely made nothing. A 5xx or a lost answer may come
    /// after Discord created the item (the retry policy never repeats a
    /// `POST` on its own): then the items at `list` are read and one that
    /// was not there before and matches what was sent is taken as the
    /// created one; only when there is none is the `POST` sent again (with
    /// the policy's attempts and backoff). Reading the list before the
    /// first try is what tells a new item from one of the same name that
    /// was already there.
    async fn create_once(
        &self,
        path: &str,
        list: &str,
        body: Value,
        fields: &[&str],
        reason: &str,
        (what, needs): (&str, &str),
    ) -> PlatformResult<String> {
        let before = listed_ids(&self.call(Method::GET, list, None, None).await?);
        let policy = self.clients.retry;
        let mut attempt = 1;
        loop {
            let error = match self
                .call(Method::POST, path, Some(body.clone()), Some(reason))
                .await
            {
                Ok(created) => return id_of(created, &format!("{what} from Discord")),
                Err(e) if e.may_have_applied() => e,
                // Discord's refusal says only "Missing Permissions"; which
                // one is documented per route (guild.mdx, "Create Guild
                // Role" needs MANAGE_ROLES, "Create Guild Channel"
                // MANAGE_CHANNELS).
                Err(PlatformError::Forbidden(m)) => {
                    return Err(PlatformError::Forbidden(format!(
                        "{m}; creating a {what} needs the {needs} permission"
                    )));
                }
                Err(e) => return Err(e),
            };
            // The list cannot be read: the item may exist, so it is not
            // created again; the restore's next run matches it by name.
            let Ok(now) = self.call(Method::GET, list, None, None).await else {
                return Err(error);
            };
            if let Some(id) = made_by(&now, &before, &body, fields) {
                tracing::info!(
                    id,
                    error = %error,
                    "a {what} was created although its answer failed; found it, not created again"
                );
                return Ok(id);
            }
            if attempt >= policy.max_attempts {
                return Err(error);
            }
            tokio::time::sleep(policy.backoff * 2u32.saturating_pow(attempt - 1)).await;
            attempt += 1;
        }
    }
}

#[async_trait]
impl WriteGuild for Discord {
    async fn bot_standing(&self) -> PlatformResult<BotStanding> {
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
            return Ok(BotStanding {
                top_position: i64::MAX,
                permissions: u64::MAX,
            });
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
        Ok(standing)
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
        self.create_once(
            &path,
            &path,
            body,
            &ROLE_FIELDS,
            reason,
            ("role", "Manage Roles"),
        )
        .await
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
        self.create_once(
            &path,
            &path,
            body,
            &CHANNEL_FIELDS,
            reason,
            ("channel", "Manage Channels"),
        )
        .await
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
