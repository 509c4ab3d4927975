//! Creating a simulated community's structure for a restore, under the
//! rules a live platform enforces: on Discord, a role is created at the
//! bottom with no permission the bot lacks, only roles below the bot's
//! highest are moved, and a guild holds at most 250 roles and 500 channels;
//! a parent must be a category. On Slack a channel name is unique. What the
//! simulator does not keep (Slack user groups, Telegram settings) keeps the
//! trait's "not supported" answer.

use async_trait::async_trait;
use modctl_types::Platform;
use modctl_types::snapshot::{DiscordChannel, DiscordRole, PermissionOverwrite, SlackChannel};
use rusqlite::{OptionalExtension, Transaction, params};

use super::structure::{EVERYONE_PERMISSIONS, SimChannel, insert_channel};
use super::{SimError, Simulator, load_hierarchy};
use crate::platform::apply::StructureWriter;
use crate::platform::hierarchy::ADMINISTRATOR;
use crate::platform::{PlatformError, PlatformResult};
use crate::restore::plan::{BotStanding, MAX_CHANNELS, MAX_ROLES};

/// Ids the simulator gives what it creates start here.
const FIRST_CREATED_ID: u64 = 900_000_000_000_000_001;

fn missing_permissions() -> SimError {
    SimError::Platform(PlatformError::Forbidden(
        "Missing Permissions, code 50013".to_owned(),
    ))
}

fn invalid(message: &str) -> SimError {
    SimError::Platform(PlatformError::Invalid(message.to_owned()))
}

/// Where the bot of the simulated guild stands.
fn standing(tx: &Transaction<'_>, server_id: &str) -> Result<BotStanding, SimError> {
    let hierarchy = load_hierarchy(tx, server_id, "")?;
    if hierarchy.owner_id == hierarchy.bot.user_id {
        return Ok(BotStanding {
            top_position: i64::MAX,
            permissions: u64::MAX,
        });
    }
    let held = hierarchy
        .roles
        .iter()
        .filter(|r| hierarchy.bot.roles.contains(&r.id));
    let mut standing = BotStanding {
        top_position: 0,
        permissions: EVERYONE_PERMISSIONS,
    };
    for role in held {
        standing.top_position = standing.top_position.max(role.position);
        standing.permissions |= role.permissions;
    }
    if standing.permissions & ADMINISTRATOR != 0 {
        standing.permissions = u64::MAX;
    }
    Ok(standing)
}

/// A new id, above every id the community has and ever had: like a
/// platform's, an id is never given twice, so a config still naming a
/// deleted role never lands on a new one by chance.
fn new_id(tx: &Transaction<'_>, server_id: &str) -> Result<u64, SimError> {
    let (highest, high_water): (Option<i64>, i64) = tx
        .prepare_cached(
            "SELECT (SELECT MAX(id) FROM (SELECT CAST(role_id AS INTEGER) AS id FROM sim_roles WHERE server_id = ?1 \
             UNION ALL SELECT CAST(channel_id AS INTEGER) FROM sim_channels WHERE server_id = ?1)),
                    id_high_water
             FROM sim_communities WHERE server_id = ?1",
        )?
        .query_row([server_id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let next = (highest.unwrap_or(0).max(high_water) as u64 + 1).max(FIRST_CREATED_ID);
    tx.prepare_cached("UPDATE sim_communities SET id_high_water = ?2 WHERE server_id = ?1")?
        .execute(params![server_id, next as i64])?;
    Ok(next)
}

/// Remembers `id` (of something being deleted) as had: [`new_id`] never
/// gives it again. Ids that are not numbers (Slack's) are counted apart.
pub(super) fn retire_id(
    tx: &Transaction<'_>,
    server_id: &str,
    id: &str,
) -> Result<(), rusqlite::Error> {
    if let Ok(id) = id.parse::<i64>() {
        tx.prepare_cached(
            "UPDATE sim_communities SET id_high_water = MAX(id_high_water, ?2) WHERE server_id = ?1",
        )?
        .execute(params![server_id, id])?;
    }
    Ok(())
}

/// A new Slack channel id, shaped like Slack's (`C` and upper-case letters
/// or digits, which the daemon's own validation takes): `C9` and the
/// community's count of ids given, never given before.
fn slack_id(tx: &Transaction<'_>, server_id: &str) -> Result<String, SimError> {
    let given: i64 = tx
        .prepare_cached(
            "UPDATE sim_communities SET slack_ids_given = slack_ids_given + 1 WHERE server_id = ?1
             RETURNING slack_ids_given",
        )?
        .query_row([server_id], |row| row.get(0))?;
    Ok(format!("C9{given:08}"))
}

fn count(tx: &Transaction<'_>, table: &str, server_id: &str) -> Result<usize, SimError> {
    let n: i64 = tx
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM {table} WHERE server_id = ?1"
        ))?
        .query_row([server_id], |row| row.get(0))?;
    Ok(n as usize)
}

fn create_role(
    tx: &Transaction<'_>,
    server_id: &str,
    role: &DiscordRole,
) -> Result<String, SimError> {
    let bot = standing(tx, server_id)?;
    let permissions: u64 = role
        .permissions
        .parse()
        .map_err(|_| invalid("Invalid Form Body: permissions must be a bitfield string"))?;
    if permissions & !bot.permissions != 0 {
        return Err(missing_permissions());
    }
    // `@everyone` is not a row but counts.
    if count(tx, "sim_roles", server_id)? + 1 >= MAX_ROLES {
        return Err(invalid(
            "Maximum number of server roles reached (250), code 30005",
        ));
    }
    let id = new_id(tx, server_id)?.to_string();
    tx.execute(
        "UPDATE sim_roles SET position = position + 1 WHERE server_id = ?1 AND position >= 1",
        [server_id],
    )?;
    tx.execute(
        "INSERT INTO sim_roles (server_id, role_id, name, position, permissions, colour, hoist) \
         VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6)",
        params![
            server_id,
            id,
            role.name,
            permissions as i64,
            role.colour,
            role.hoist
        ],
    )?;
    Ok(id)
}

fn position_roles(
    tx: &Transaction<'_>,
    server_id: &str,
    positions: &[(String, i64)],
) -> Result<(), SimError> {
    let bot = standing(tx, server_id)?;
    let mut current =
        tx.prepare_cached("SELECT position FROM sim_roles WHERE server_id = ?1 AND role_id = ?2")?;
    for (id, position) in positions {
        let Some(now): Option<i64> = current
            .query_row([server_id, id.as_str()], |row| row.get(0))
            .optional()?
        else {
            return Err(SimError::Platform(PlatformError::NotFound(
                "Unknown Role, code 10011".to_owned(),
            )));
        };
        if now >= bot.top_position || *position >= bot.top_position {
            return Err(missing_permissions());
        }
    }
    for (id, position) in positions {
        tx.execute(
            "UPDATE sim_roles SET position = ?3 WHERE server_id = ?1 AND role_id = ?2",
            params![server_id, id, (*position).max(1)],
        )?;
    }
    Ok(())
}

fn create_channel(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &DiscordChannel,
) -> Result<String, SimError> {
    if let Some(parent) = &channel.parent_id {
        let kind: Option<u8> = tx
            .prepare_cached(
                "SELECT kind FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
            )?
            .query_row([server_id, parent.as_str()], |row| row.get(0))
            .optional()?;
        if channel.kind == 4 || kind != Some(4) {
            return Err(invalid(
                "Invalid Form Body: parent_id: Category does not exist",
            ));
        }
    }
    if count(tx, "sim_channels", server_id)? >= MAX_CHANNELS {
        return Err(invalid(
            "Maximum number of guild channels reached (500), code 30013",
        ));
    }
    let id = new_id(tx, server_id)?.to_string();
    insert_channel(
        tx,
        server_id,
        &SimChannel {
            channel_id: &id,
            name: &channel.name,
            kind: channel.kind,
            topic: channel.topic.as_deref(),
            parent_id: channel.parent_id.as_deref(),
            position: channel.position,
            overwrites: &[],
        },
    )?;
    Ok(id)
}

fn put_overwrite(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &str,
    overwrite: &PermissionOverwrite,
) -> Result<(), SimError> {
    let stored: Option<String> = tx
        .prepare_cached(
            "SELECT overwrites FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        )?
        .query_row([server_id, channel], |row| row.get(0))
        .optional()?;
    let Some(stored) = stored else {
        return Err(SimError::Platform(PlatformError::NotFound(
            "Unknown Channel, code 10003".to_owned(),
        )));
    };
    let bits = |text: &str| {
        text.parse::<u64>()
            .map_err(|_| invalid("Invalid Form Body: allow and deny must be bitfield strings"))
    };
    let (allow, deny) = (bits(&overwrite.allow)?, bits(&overwrite.deny)?);
    if (allow | deny) & !standing(tx, server_id)?.permissions != 0 {
        return Err(missing_permissions());
    }
    let mut overwrites: Vec<PermissionOverwrite> = serde_json::from_str(&stored)
        .map_err(|e| crate::store::StoreError::Corrupt(format!("overwrites of {channel}: {e}")))?;
    overwrites.retain(|o| o.id != overwrite.id);
    overwrites.push(overwrite.clone());
    tx.execute(
        "UPDATE sim_channels SET overwrites = ?3 WHERE server_id = ?1 AND channel_id = ?2",
        params![
            server_id,
            channel,
            serde_json::to_string(&overwrites).expect("overwrites serialize")
        ],
    )?;
    Ok(())
}

fn create_conversation(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &SlackChannel,
) -> Result<String, SimError> {
    // A name is unique in a workspace: the channel of that name is the one.
    let existing: Option<String> = tx
        .prepare_cached("SELECT channel_id FROM sim_channels WHERE server_id = ?1 AND name = ?2")?
        .query_row([server_id, channel.name.as_str()], |row| row.get(0))
        .optional()?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let id = slack_id(tx, server_id)?;
    let topic = (!channel.topic.is_empty()).then_some(channel.topic.as_str());
    insert_channel(
        tx,
        server_id,
        &SimChannel {
            topic,
            ..SimChannel::text(&id, &channel.name)
        },
    )?;
    Ok(id)
}

fn discord_only(platform: Platform) -> Result<(), SimError> {
    match platform {
        Platform::Discord => Ok(()),
        _ => Err(SimError::Platform(PlatformError::Unsupported(
            "roles and Discord channels",
        ))),
    }
}

#[async_trait]
impl StructureWriter for Simulator {
    async fn bot_standing(&self) -> PlatformResult<Option<BotStanding>> {
        if self.platform != Platform::Discord {
            return Ok(None);
        }
        self.observe(|tx, server_id, _| standing(tx, server_id).map(Some))
            .await
    }

    async fn create_role(&self, role: &DiscordRole, _reason: &str) -> PlatformResult<String> {
        let role = role.clone();
        self.act(move |tx, server_id, platform| {
            discord_only(platform)?;
            create_role(tx, server_id, &role)
        })
        .await
    }

    async fn position_roles(
        &self,
        positions: &[(String, i64)],
        _reason: &str,
    ) -> PlatformResult<()> {
        let positions = positions.to_vec();
        self.act(move |tx, server_id, platform| {
            discord_only(platform)?;
            position_roles(tx, server_id, &positions)
        })
        .await
    }

    async fn create_channel(
        &self,
        channel: &DiscordChannel,
        _reason: &str,
    ) -> PlatformResult<String> {
        let channel = channel.clone();
        self.act(move |tx, server_id, platform| {
            discord_only(platform)?;
            create_channel(tx, server_id, &channel)
        })
        .await
    }

    async fn set_channel_topic(
        &self,
        channel: &str,
        topic: &str,
        _reason: &str,
    ) -> PlatformResult<()> {
        let (channel, topic) = (channel.to_owned(), topic.to_owned());
        self.act(move |tx, server_id, platform| {
            discord_only(platform)?;
            let changed = tx.execute(
                "UPDATE sim_channels SET topic = ?3 WHERE server_id = ?1 AND channel_id = ?2",
                params![server_id, channel, topic],
            )?;
            match changed {
                0 => Err(SimError::Platform(PlatformError::NotFound(
                    "Unknown Channel, code 10003".to_owned(),
                ))),
                _ => Ok(()),
            }
        })
        .await
    }

    async fn put_overwrite(
        &self,
        channel: &str,
        overwrite: &PermissionOverwrite,
        _reason: &str,
    ) -> PlatformResult<()> {
        let (channel, overwrite) = (channel.to_owned(), overwrite.clone());
        self.act(move |tx, server_id, platform| {
            discord_only(platform)?;
            put_overwrite(tx, server_id, &channel, &overwrite)
        })
        .await
    }

    async fn create_conversation(&self, channel: &SlackChannel) -> PlatformResult<String> {
        let channel = channel.clone();
        self.act(move |tx, server_id, platform| match platform {
            Platform::Slack => create_conversation(tx, server_id, &channel),
            _ => Err(SimError::Platform(PlatformError::Unsupported(
                "Slack conversations",
            ))),
        })
        .await
    }
}
