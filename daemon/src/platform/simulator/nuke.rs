//! A simulated nuke: deleting some of a simulated community's roles and
//! channels the way a compromised administrator would, so the demo (and a
//! curious operator) can see a snapshot restore put them back
//! (`modctld simulate nuke`).
//!
//! What goes is chosen to exercise a restore, deterministically:
//! - channels that carry an overwrite for a role first (their overwrites must
//!   be remapped to the recreated role), then other channels, categories
//!   last (their channels would lose their parent);
//! - roles referenced by an overwrite of a deleted channel first, then roles
//!   below the bot's highest role (which a restore can recreate), lowest
//!   first, and roles above the bot last. The bot's own roles are never
//!   deleted (the bot would lose its permissions), nor `@everyone` (the
//!   simulator keeps it implicitly, as every guild has it).
//!
//! The deletions follow Discord's effects: a deleted role leaves every
//! member's role list and every surviving channel's overwrites, a deleted
//! category's channels lose their parent, a deleted channel's messages go
//! with it. Everything happens in one transaction.

use std::collections::HashSet;

use modctl_types::Platform;
use modctl_types::snapshot::{OverwriteKind, PermissionOverwrite};
use rusqlite::{OptionalExtension, Transaction, params};

use crate::store::StoreError;

/// Roles `modctld simulate nuke` deletes when not told (Discord).
pub const DEFAULT_ROLES: u32 = 2;
/// Channels `modctld simulate nuke` deletes when not told.
pub const DEFAULT_CHANNELS: u32 = 3;

/// Discord's category channel type.
const CATEGORY: u8 = 4;

/// One deleted item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// `role`, `category` or `channel`.
    pub kind: &'static str,
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// What a nuke deleted: roles first, then channels, in deletion order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Nuked {
    /// Roles deleted.
    pub roles: Vec<Deleted>,
    /// Channels (and categories) deleted.
    pub channels: Vec<Deleted>,
}

/// Why nothing was deleted.
#[derive(Debug, thiserror::Error)]
pub enum NukeError {
    /// The platform has no such structure in the simulator.
    #[error("{0}")]
    Unsupported(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for NukeError {
    fn from(e: rusqlite::Error) -> Self {
        NukeError::Store(e.into())
    }
}

struct Channel {
    id: String,
    name: String,
    kind: u8,
    overwrites: Vec<PermissionOverwrite>,
}

struct SimRoleRow {
    id: String,
    name: String,
    position: i64,
}

/// Deletes up to `roles` roles and `channels` channels of the simulated
/// community of `server_id` (a server on `platform`), chosen as the module
/// says. Slack workspaces have channels only; Telegram groups have neither.
pub fn nuke(
    tx: &Transaction<'_>,
    server_id: &str,
    platform: Platform,
    roles: usize,
    channels: usize,
) -> Result<Nuked, NukeError> {
    match platform {
        Platform::Discord => {}
        Platform::Slack if roles == 0 => {}
        Platform::Slack => {
            return Err(NukeError::Unsupported(
                "a Slack workspace has no roles to delete: leave out --roles (or pass --roles 0)"
                    .into(),
            ));
        }
        _ => {
            return Err(NukeError::Unsupported(format!(
                "a simulated {platform} server has no roles or channels to delete: \
                 simulate nuke works on Discord and Slack servers"
            )));
        }
    }
    let all_channels = load_channels(tx, server_id)?;
    let all_roles = load_roles(tx, server_id)?;
    let bot_roles = bot_roles(tx, server_id)?;
    let role_ids: HashSet<&str> = all_roles.iter().map(|r| r.id.as_str()).collect();
    let deletable = |id: &str| role_ids.contains(id) && !bot_roles.contains(id);
    let references = |channel: &Channel| -> Vec<String> {
        channel
            .overwrites
            .iter()
            .filter(|o| o.kind == OverwriteKind::Role && deletable(&o.id))
            .map(|o| o.id.clone())
            .collect()
    };

    let mut channel_order: Vec<&Channel> = all_channels.iter().collect();
    channel_order.sort_by_key(|c| (c.kind == CATEGORY, references(c).is_empty(), c.id.clone()));
    let doomed_channels: Vec<&Channel> = channel_order.into_iter().take(channels).collect();
    let referenced: HashSet<String> = doomed_channels.iter().flat_map(|c| references(c)).collect();

    let bot_top = all_roles
        .iter()
        .filter(|r| bot_roles.contains(&r.id))
        .map(|r| r.position)
        .max()
        .unwrap_or(0);
    let mut role_order: Vec<&SimRoleRow> = all_roles.iter().filter(|r| deletable(&r.id)).collect();
    role_order.sort_by_key(|r| {
        let tier = if referenced.contains(&r.id) && r.position < bot_top {
            0
        } else if r.position < bot_top {
            1
        } else {
            2
        };
        (tier, r.position, r.id.clone())
    });
    let doomed_roles: Vec<&SimRoleRow> = role_order.into_iter().take(roles).collect();

    let mut nuked = Nuked::default();
    for role in doomed_roles {
        delete_role(tx, server_id, &role.id)?;
        nuked.roles.push(Deleted {
            kind: "role",
            id: role.id.clone(),
            name: role.name.clone(),
        });
    }
    for channel in doomed_channels {
        delete_channel(tx, server_id, channel)?;
        nuked.channels.push(Deleted {
            kind: if channel.kind == CATEGORY {
                "category"
            } else {
                "channel"
            },
            id: channel.id.clone(),
            name: channel.name.clone(),
        });
    }
    Ok(nuked)
}

fn load_channels(tx: &Transaction<'_>, server_id: &str) -> Result<Vec<Channel>, NukeError> {
    let mut stmt = tx.prepare_cached(
        "SELECT channel_id, name, kind, overwrites FROM sim_channels WHERE server_id = ?1 ORDER BY channel_id",
    )?;
    let rows = stmt.query_map([server_id], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, u8>(2)?,
            row.get::<_, String>(3)?,
        ))
    })?;
    rows.map(|row| {
        let (id, name, kind, overwrites) = row?;
        let overwrites = serde_json::from_str(&overwrites).map_err(|e| {
            StoreError::Corrupt(format!("overwrites of simulated channel {id}: {e}"))
        })?;
        Ok(Channel {
            id,
            name,
            kind,
            overwrites,
        })
    })
    .collect()
}

fn load_roles(tx: &Transaction<'_>, server_id: &str) -> Result<Vec<SimRoleRow>, NukeError> {
    let mut stmt = tx.prepare_cached(
        "SELECT role_id, name, position FROM sim_roles WHERE server_id = ?1 ORDER BY role_id",
    )?;
    let rows = stmt.query_map([server_id], |row| {
        Ok(SimRoleRow {
            id: row.get(0)?,
            name: row.get(1)?,
            position: row.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The role ids the bot member holds.
fn bot_roles(tx: &Transaction<'_>, server_id: &str) -> Result<HashSet<String>, NukeError> {
    let roles: Option<String> = tx
        .prepare_cached(
            "SELECT m.roles FROM sim_members m JOIN sim_communities c \
             ON c.server_id = m.server_id AND c.bot_user_id = m.user_id WHERE m.server_id = ?1",
        )?
        .query_row([server_id], |row| row.get(0))
        .optional()?;
    let roles: Vec<String> = match roles {
        Some(json) => serde_json::from_str(&json)
            .map_err(|e| StoreError::Corrupt(format!("roles of the simulated bot: {e}")))?,
        None => Vec::new(),
    };
    Ok(roles.into_iter().collect())
}

/// Deletes a role as Discord does: from the roles, from every member who
/// holds it, and from every channel's overwrites.
fn delete_role(tx: &Transaction<'_>, server_id: &str, role_id: &str) -> Result<(), NukeError> {
    super::apply::retire_id(tx, server_id, role_id)?;
    tx.execute(
        "DELETE FROM sim_roles WHERE server_id = ?1 AND role_id = ?2",
        [server_id, role_id],
    )?;
    let members: Vec<(String, String)> = tx
        .prepare_cached("SELECT user_id, roles FROM sim_members WHERE server_id = ?1")?
        .query_map([server_id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (user_id, json) in members {
        let roles: Vec<String> = serde_json::from_str(&json).unwrap_or_default();
        if roles.iter().any(|r| r == role_id) {
            let kept: Vec<&String> = roles.iter().filter(|r| *r != role_id).collect();
            tx.execute(
                "UPDATE sim_members SET roles = ?3 WHERE server_id = ?1 AND user_id = ?2",
                params![
                    server_id,
                    user_id,
                    serde_json::to_string(&kept).expect("strings serialize")
                ],
            )?;
        }
    }
    for channel in load_channels(tx, server_id)? {
        if channel.overwrites.iter().any(|o| o.id == role_id) {
            let kept: Vec<&PermissionOverwrite> = channel
                .overwrites
                .iter()
                .filter(|o| o.id != role_id)
                .collect();
            tx.execute(
                "UPDATE sim_channels SET overwrites = ?3 WHERE server_id = ?1 AND channel_id = ?2",
                params![
                    server_id,
                    channel.id,
                    serde_json::to_string(&kept).expect("overwrites serialize")
                ],
            )?;
        }
    }
    Ok(())
}

/// Deletes a channel with its messages; a category's channels stay, without
/// a parent.
fn delete_channel(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &Channel,
) -> Result<(), NukeError> {
    super::apply::retire_id(tx, server_id, &channel.id)?;
    for sql in [
        "DELETE FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        "DELETE FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2",
        "UPDATE sim_channels SET parent_id = NULL WHERE server_id = ?1 AND parent_id = ?2",
    ] {
        tx.execute(sql, [server_id, &channel.id])?;
    }
    Ok(())
}
