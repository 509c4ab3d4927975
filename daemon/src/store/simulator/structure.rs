//! A simulated community's structure: roles and channels with their
//! permission overwrites, what a snapshot reads, a nuke deletes and a
//! restore creates. Deleting one follows Discord's effects (a role leaves
//! every member and overwrite, a channel takes its messages with it) and
//! retires its id ([`super::ids`]).

use std::collections::HashSet;

use crate::store::sql::params;
use modctl_types::snapshot::PermissionOverwrite;

use super::ids::{new_id, retire_id};
use super::{SimChannel, count, set_member_roles};
use crate::store::{StoreError, Tx, scalar};

/// A stored role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleRow {
    /// Role id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Position (the implicit `@everyone` is 0).
    pub position: i64,
    /// Permission bits.
    pub permissions: u64,
    /// RGB colour, 0 for none.
    pub colour: u32,
    /// Shown separately in the member list.
    pub hoist: bool,
}

/// A stored channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelRow {
    /// Channel id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Discord's channel type.
    pub kind: u8,
    /// Topic.
    pub topic: Option<String>,
    /// The category it is in.
    pub parent_id: Option<String>,
    /// Position among its siblings.
    pub position: i64,
    /// Permission overwrites.
    pub overwrites: Vec<PermissionOverwrite>,
}

/// The community's roles (without the implicit `@everyone`), by id.
pub fn roles(tx: &Tx<'_>, server_id: &str) -> Result<Vec<RoleRow>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT role_id, name, position, permissions, colour, hoist FROM sim_roles \
         WHERE server_id = ?1 ORDER BY role_id",
    )?;
    let rows = stmt.rows([server_id], |row| {
        Ok(RoleRow {
            id: row.get("role_id")?,
            name: row.get("name")?,
            position: row.get("position")?,
            permissions: row.get::<i64>("permissions")? as u64,
            colour: row.get("colour")?,
            hoist: row.get("hoist")?,
        })
    })?;
    Ok(rows)
}

/// How many roles the community has (without `@everyone`).
pub fn role_count(tx: &Tx<'_>, server_id: &str) -> Result<usize, StoreError> {
    count(tx, "sim_roles", server_id)
}

/// The role ids the bot member holds.
pub fn bot_roles(tx: &Tx<'_>, server_id: &str) -> Result<HashSet<String>, StoreError> {
    let roles: Option<String> = tx.sql.opt_row(
        "SELECT m.roles FROM sim_members m JOIN sim_communities c \
             ON c.server_id = m.server_id AND c.bot_user_id = m.user_id WHERE m.server_id = ?1",
        [server_id],
        |row| row.get("roles"),
    )?;
    let roles: Vec<String> = match roles {
        Some(json) => serde_json::from_str(&json)
            .map_err(|e| StoreError::Corrupt(format!("roles of the simulated bot: {e}")))?,
        None => Vec::new(),
    };
    Ok(roles.into_iter().collect())
}

/// Adds a role at the bottom (position 1, above `@everyone`), moving every
/// other role up one, as Discord creates roles; returns its new id.
pub fn insert_role_at_bottom(
    tx: &Tx<'_>,
    server_id: &str,
    name: &str,
    permissions: u64,
    colour: u32,
    hoist: bool,
) -> Result<String, StoreError> {
    let id = new_id(tx, server_id)?.to_string();
    tx.sql.execute(
        "UPDATE sim_roles SET position = position + 1 WHERE server_id = ?1 AND position >= 1",
        [server_id],
    )?;
    tx.sql.execute(
        "INSERT INTO sim_roles (server_id, role_id, name, position, permissions, colour, hoist) \
         VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6)",
        params![server_id, id, name, permissions as i64, colour, hoist],
    )?;
    Ok(id)
}

/// The position of role `role_id`, if the community has it.
pub fn role_position(
    tx: &Tx<'_>,
    server_id: &str,
    role_id: &str,
) -> Result<Option<i64>, StoreError> {
    tx.sql.opt_row(
        "SELECT position FROM sim_roles WHERE server_id = ?1 AND role_id = ?2",
        [server_id, role_id],
        |row| row.get("position"),
    )
}

/// Moves role `role_id` to `position`.
pub fn set_role_position(
    tx: &Tx<'_>,
    server_id: &str,
    role_id: &str,
    position: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_roles SET position = ?3 WHERE server_id = ?1 AND role_id = ?2",
        params![server_id, role_id, position],
    )?;
    Ok(())
}

/// Sets a role's permission bits; whether the role exists.
pub fn set_role_permissions(
    tx: &Tx<'_>,
    server_id: &str,
    role_id: &str,
    permissions: u64,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE sim_roles SET permissions = ?3 WHERE server_id = ?1 AND role_id = ?2",
        params![server_id, role_id, permissions as i64],
    )?;
    Ok(changed > 0)
}

/// Deletes a role as Discord does: from the roles, from every member who
/// holds it, and from every channel's overwrites. Its id is never given again.
pub fn delete_role(tx: &Tx<'_>, server_id: &str, role_id: &str) -> Result<(), StoreError> {
    retire_id(tx, server_id, role_id)?;
    tx.sql.execute(
        "DELETE FROM sim_roles WHERE server_id = ?1 AND role_id = ?2",
        [server_id, role_id],
    )?;
    let members: Vec<(String, String)> = tx.sql.rows(
        "SELECT user_id, roles FROM sim_members WHERE server_id = ?1",
        [server_id],
        |row| Ok((row.get("user_id")?, row.get("roles")?)),
    )?;
    for (user_id, json) in members {
        let roles: Vec<String> = serde_json::from_str(&json).unwrap_or_default();
        if roles.iter().any(|r| r == role_id) {
            let kept: Vec<String> = roles.into_iter().filter(|r| r != role_id).collect();
            set_member_roles(tx, server_id, &user_id, &kept)?;
        }
    }
    for channel in channels(tx, server_id)? {
        if channel.overwrites.iter().any(|o| o.id == role_id) {
            let kept: Vec<PermissionOverwrite> = channel
                .overwrites
                .into_iter()
                .filter(|o| o.id != role_id)
                .collect();
            set_overwrites(tx, server_id, &channel.id, &kept)?;
        }
    }
    Ok(())
}

/// Stores `channel` in the simulated community of `server_id`.
pub fn insert_channel(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &SimChannel<'_>,
) -> Result<(), StoreError> {
    let overwrites: Vec<PermissionOverwrite> = channel
        .overwrites
        .iter()
        .map(|o| PermissionOverwrite {
            id: o.id.unwrap_or(server_id).to_owned(),
            kind: o.kind,
            allow: o.allow.to_string(),
            deny: o.deny.to_string(),
        })
        .collect();
    tx.sql.execute(
        "INSERT INTO sim_channels (server_id, channel_id, name, kind, topic, parent_id, position, overwrites) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            server_id,
            channel.channel_id,
            channel.name,
            channel.kind,
            channel.topic,
            channel.parent_id,
            channel.position,
            serde_json::to_string(&overwrites).expect("overwrites serialize"),
        ],
    )?;
    Ok(())
}

/// The community's channels, by id.
pub fn channels(tx: &Tx<'_>, server_id: &str) -> Result<Vec<ChannelRow>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT channel_id, name, kind, topic, parent_id, position, overwrites \
         FROM sim_channels WHERE server_id = ?1 ORDER BY channel_id",
    )?;
    let rows = stmt.rows([server_id], |row| {
        Ok((
            row.get::<String>("channel_id")?,
            row.get::<String>("name")?,
            row.get::<u8>("kind")?,
            row.get::<Option<String>>("topic")?,
            row.get::<Option<String>>("parent_id")?,
            row.get::<i64>("position")?,
            row.get::<String>("overwrites")?,
        ))
    })?;
    rows.into_iter()
        .map(|(id, name, kind, topic, parent_id, position, overwrites)| {
            let overwrites = parse_overwrites(&id, &overwrites)?;
            Ok(ChannelRow {
                id,
                name,
                kind,
                topic,
                parent_id,
                position,
                overwrites,
            })
        })
        .collect()
}

/// How many channels the community has.
pub fn channel_count(tx: &Tx<'_>, server_id: &str) -> Result<usize, StoreError> {
    count(tx, "sim_channels", server_id)
}

/// Whether the community has channel `channel`.
pub fn channel_exists(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<bool, StoreError> {
    tx.sql.row(
        "SELECT EXISTS (SELECT 1 FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2)",
        [server_id, channel],
        scalar,
    )
}

/// The type of channel `channel`, if the community has it.
pub fn channel_kind(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<Option<u8>, StoreError> {
    tx.sql.opt_row(
        "SELECT kind FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        [server_id, channel],
        |row| row.get("kind"),
    )
}

/// The id of the channel named `name`, if the community has one.
pub fn channel_named(
    tx: &Tx<'_>,
    server_id: &str,
    name: &str,
) -> Result<Option<String>, StoreError> {
    tx.sql.opt_row(
        "SELECT channel_id FROM sim_channels WHERE server_id = ?1 AND name = ?2",
        [server_id, name],
        |row| row.get("channel_id"),
    )
}

/// The overwrites of channel `channel`; `None` if the community has no such channel.
pub fn overwrites(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
) -> Result<Option<Vec<PermissionOverwrite>>, StoreError> {
    let stored: Option<String> = tx.sql.opt_row(
        "SELECT overwrites FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        [server_id, channel],
        |row| row.get("overwrites"),
    )?;
    stored
        .map(|json| parse_overwrites(channel, &json))
        .transpose()
}

/// Replaces the overwrites of channel `channel`.
pub fn set_overwrites(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    overwrites: &[PermissionOverwrite],
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_channels SET overwrites = ?3 WHERE server_id = ?1 AND channel_id = ?2",
        params![
            server_id,
            channel,
            serde_json::to_string(overwrites).expect("overwrites serialize")
        ],
    )?;
    Ok(())
}

/// Sets channel `channel`'s topic; whether the community has that channel.
pub fn set_topic(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    topic: &str,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE sim_channels SET topic = ?3 WHERE server_id = ?1 AND channel_id = ?2",
        params![server_id, channel, topic],
    )?;
    Ok(changed > 0)
}

/// Deletes a channel with its messages; a category's channels stay, without
/// a parent. Its id is never given again.
pub fn delete_channel(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<(), StoreError> {
    retire_id(tx, server_id, channel)?;
    for sql in [
        "DELETE FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        "DELETE FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2",
        "UPDATE sim_channels SET parent_id = NULL WHERE server_id = ?1 AND parent_id = ?2",
    ] {
        tx.sql.execute(sql, [server_id, channel])?;
    }
    Ok(())
}

fn parse_overwrites(channel: &str, json: &str) -> Result<Vec<PermissionOverwrite>, StoreError> {
    serde_json::from_str(json)
        .map_err(|e| StoreError::Corrupt(format!("overwrites of simulated channel {channel}: {e}")))
}
