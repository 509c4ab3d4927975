//! The simulator's own tables (`sim_*`): the stand-in communities of
//! `modctld server connect --simulated` and the demo. They hold what a
//! platform would (members with roles, bans, mutes, roles, channels with
//! overwrites, posted messages) and nothing of the daemon's own data, which
//! only ever reaches them through the simulator's platform calls
//! (`crate::platform::simulator`), as it would reach a real platform.
//!
//! Only persistence lives here: which calls a platform refuses, and with
//! which error, is the simulator's business, not the store's.

use std::collections::HashSet;

use modctl_types::snapshot::{OverwriteKind, PermissionOverwrite};
use rusqlite::{OptionalExtension, params};

use super::{StoreError, Tx, scalar};

/// Ids the simulator gives what it creates start here.
const FIRST_CREATED_ID: u64 = 900_000_000_000_000_001;

/// A member of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimMember<'a> {
    /// User id.
    pub user_id: &'a str,
    /// Display name.
    pub name: &'a str,
    /// Role ids.
    pub roles: &'a [&'a str],
}

/// A role of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimRole<'a> {
    /// Role id.
    pub role_id: &'a str,
    /// Name.
    pub name: &'a str,
    /// Position.
    pub position: i64,
    /// Permission bits.
    pub permissions: u64,
    /// RGB colour, 0 for none.
    pub colour: u32,
    /// Shown separately in the member list.
    pub hoist: bool,
}

/// A channel of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimChannel<'a> {
    /// Channel id.
    pub channel_id: &'a str,
    /// Name.
    pub name: &'a str,
    /// Discord's channel type (0 text, 2 voice, 4 category, 5 announcement).
    pub kind: u8,
    /// Topic.
    pub topic: Option<&'a str>,
    /// The category it is in.
    pub parent_id: Option<&'a str>,
    /// Position among its siblings.
    pub position: i64,
    /// Permission overwrites.
    pub overwrites: &'a [SimOverwrite<'a>],
}

impl<'a> SimChannel<'a> {
    /// A top-level text channel without topic or overwrites.
    pub const fn text(channel_id: &'a str, name: &'a str) -> SimChannel<'a> {
        SimChannel {
            channel_id,
            name,
            kind: 0,
            topic: None,
            parent_id: None,
            position: 0,
            overwrites: &[],
        }
    }
}

/// A permission overwrite of a simulated channel, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimOverwrite<'a> {
    /// Role or member id (`@everyone`: the server id, given as `None`).
    pub id: Option<&'a str>,
    /// Role or member.
    pub kind: OverwriteKind,
    /// Permission bits granted.
    pub allow: u64,
    /// Permission bits taken away.
    pub deny: u64,
}

/// A whole simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct Community<'a> {
    /// Owner's user id.
    pub owner_id: &'a str,
    /// Bot's user id.
    pub bot_user_id: &'a str,
    /// Roles (Discord).
    pub roles: &'a [SimRole<'a>],
    /// Members, bot and owner included.
    pub members: &'a [SimMember<'a>],
    /// Channels (on Slack only id, name and topic count).
    pub channels: &'a [SimChannel<'a>],
}

/// What the simulator holds for one member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberState {
    /// Role ids.
    pub roles: Vec<String>,
    /// Muted until (unix seconds), if muted.
    pub muted_until: Option<i64>,
}

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

/// Replaces the simulated community of `server_id` with `community`.
pub fn seed(tx: &Tx<'_>, server_id: &str, community: &Community<'_>) -> Result<(), StoreError> {
    for table in [
        "sim_roles",
        "sim_members",
        "sim_bans",
        "sim_channels",
        "sim_messages",
        "sim_automod_rules",
        "sim_communities",
    ] {
        tx.sql.execute(
            &format!("DELETE FROM {table} WHERE server_id = ?1"),
            [server_id],
        )?;
    }
    tx.sql.execute(
        "INSERT INTO sim_communities (server_id, owner_id, bot_user_id) VALUES (?1, ?2, ?3)",
        [server_id, community.owner_id, community.bot_user_id],
    )?;
    for role in community.roles {
        tx.sql.execute(
            "INSERT INTO sim_roles (server_id, role_id, name, position, permissions, colour, hoist) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![server_id, role.role_id, role.name, role.position, role.permissions as i64, role.colour, role.hoist],
        )?;
    }
    for member in community.members {
        tx.sql.execute(
            "INSERT INTO sim_members (server_id, user_id, name, roles) VALUES (?1, ?2, ?3, ?4)",
            params![
                server_id,
                member.user_id,
                member.name,
                serde_json::to_string(member.roles).expect("strings serialize")
            ],
        )?;
    }
    for channel in community.channels {
        insert_channel(tx, server_id, channel)?;
    }
    Ok(())
}

/// Whether `server_id` has a simulated community yet.
pub fn has_community(tx: &Tx<'_>, server_id: &str) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM sim_communities WHERE server_id = ?1)")?
        .query_row([server_id], scalar)?)
}

/// The community's owner and bot user ids.
pub fn owner_and_bot(tx: &Tx<'_>, server_id: &str) -> Result<(String, String), StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT owner_id, bot_user_id FROM sim_communities WHERE server_id = ?1")?
        .query_row([server_id], |row| {
            Ok((row.get("owner_id")?, row.get("bot_user_id")?))
        })?)
}

/// The community's owner, if it has a community.
pub fn owner(tx: &Tx<'_>, server_id: &str) -> Result<Option<String>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT owner_id FROM sim_communities WHERE server_id = ?1")?
        .query_row([server_id], |row| row.get("owner_id"))
        .optional()?)
}

// --- Members, bans, messages ---------------------------------------------

/// The role ids of member `user`; `None` when they are not a member.
pub fn member_roles(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<Vec<String>>, StoreError> {
    Ok(member_state(tx, server_id, user)?.map(|member| member.roles))
}

/// What the simulator holds for one member, for tests and the demo; `None`
/// when they are not a member.
pub fn member_state(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<MemberState>, StoreError> {
    let row: Option<(String, Option<i64>)> = tx
        .sql
        .prepare_cached(
            "SELECT roles, muted_until FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        )?
        .query_row([server_id, user], |row| {
            Ok((row.get("roles")?, row.get("muted_until")?))
        })
        .optional()?;
    Ok(row.map(|(roles, muted_until)| MemberState {
        roles: serde_json::from_str(&roles).unwrap_or_default(),
        muted_until,
    }))
}

/// The display name of member `user`, if they are one.
pub fn member_name(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<Option<String>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT name FROM sim_members WHERE server_id = ?1 AND user_id = ?2")?
        .query_row([server_id, user], |row| row.get("name"))
        .optional()?)
}

/// Removes member `user` (kicked or banned); nothing if they are not one.
pub fn remove_member(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "DELETE FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
    )?;
    Ok(())
}

/// Sets member `user`'s roles.
pub fn set_member_roles(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    roles: &[String],
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_members SET roles = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![
            server_id,
            user,
            serde_json::to_string(roles).expect("strings serialize")
        ],
    )?;
    Ok(())
}

/// Mutes member `user` until `until` (unix seconds), or unmutes with `None`.
pub fn set_muted_until(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    until: Option<i64>,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_members SET muted_until = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user, until],
    )?;
    Ok(())
}

/// Records a ban of `user` (kept once).
pub fn add_ban(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT OR IGNORE INTO sim_bans (server_id, user_id) VALUES (?1, ?2)",
        [server_id, user],
    )?;
    Ok(())
}

/// Lifts the ban of `user`; whether there was one.
pub fn remove_ban(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<bool, StoreError> {
    let removed = tx.sql.execute(
        "DELETE FROM sim_bans WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
    )?;
    Ok(removed > 0)
}

/// Whether the simulator holds a ban of `user`.
pub fn is_banned(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sim_bans WHERE server_id = ?1 AND user_id = ?2)",
        )?
        .query_row([server_id, user], scalar)?)
}

/// Records a message posted to `channel` at `now`; its id.
pub fn insert_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    text: &str,
    now: i64,
) -> Result<i64, StoreError> {
    tx.sql.execute(
        "INSERT INTO sim_messages (server_id, channel_id, text, posted_at) VALUES (?1, ?2, ?3, ?4)",
        params![server_id, channel, text, now],
    )?;
    Ok(tx.sql.last_insert_rowid())
}

/// Messages posted to `channel`, oldest first.
pub fn messages(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT text FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 ORDER BY id",
    )?;
    let rows = stmt.query_map([server_id, channel], |row| row.get("text"))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Messages posted to `channel` with their ids (what a deletion names),
/// oldest first.
pub fn messages_with_ids(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
) -> Result<Vec<(i64, String)>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT id, text FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 ORDER BY id",
    )?;
    let rows = stmt.query_map([server_id, channel], |row| {
        Ok((row.get("id")?, row.get("text")?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

// --- Roles ------------------------------------------------------------------

/// The community's roles (without the implicit `@everyone`), by id.
pub fn roles(tx: &Tx<'_>, server_id: &str) -> Result<Vec<RoleRow>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT role_id, name, position, permissions, colour, hoist FROM sim_roles \
         WHERE server_id = ?1 ORDER BY role_id",
    )?;
    let rows = stmt.query_map([server_id], |row| {
        Ok(RoleRow {
            id: row.get("role_id")?,
            name: row.get("name")?,
            position: row.get("position")?,
            permissions: row.get::<_, i64>("permissions")? as u64,
            colour: row.get("colour")?,
            hoist: row.get("hoist")?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many roles the community has (without `@everyone`).
pub fn role_count(tx: &Tx<'_>, server_id: &str) -> Result<usize, StoreError> {
    count(tx, "sim_roles", server_id)
}

/// The role ids the bot member holds.
pub fn bot_roles(tx: &Tx<'_>, server_id: &str) -> Result<HashSet<String>, StoreError> {
    let roles: Option<String> = tx
        .sql
        .prepare_cached(
            "SELECT m.roles FROM sim_members m JOIN sim_communities c \
             ON c.server_id = m.server_id AND c.bot_user_id = m.user_id WHERE m.server_id = ?1",
        )?
        .query_row([server_id], |row| row.get("roles"))
        .optional()?;
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
    Ok(tx
        .sql
        .prepare_cached("SELECT position FROM sim_roles WHERE server_id = ?1 AND role_id = ?2")?
        .query_row([server_id, role_id], |row| row.get("position"))
        .optional()?)
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

/// Deletes a role as Discord does: from the roles, from every member who
/// holds it, and from every channel's overwrites. Its id is never given again.
pub fn delete_role(tx: &Tx<'_>, server_id: &str, role_id: &str) -> Result<(), StoreError> {
    retire_id(tx, server_id, role_id)?;
    tx.sql.execute(
        "DELETE FROM sim_roles WHERE server_id = ?1 AND role_id = ?2",
        [server_id, role_id],
    )?;
    let members: Vec<(String, String)> = tx
        .sql
        .prepare_cached("SELECT user_id, roles FROM sim_members WHERE server_id = ?1")?
        .query_map([server_id], |row| {
            Ok((row.get("user_id")?, row.get("roles")?))
        })?
        .collect::<rusqlite::Result<_>>()?;
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

// --- Channels ---------------------------------------------------------------

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
    let mut stmt = tx.sql.prepare_cached(
        "SELECT channel_id, name, kind, topic, parent_id, position, overwrites \
         FROM sim_channels WHERE server_id = ?1 ORDER BY channel_id",
    )?;
    let rows = stmt.query_map([server_id], |row| {
        Ok((
            row.get::<_, String>("channel_id")?,
            row.get::<_, String>("name")?,
            row.get::<_, u8>("kind")?,
            row.get::<_, Option<String>>("topic")?,
            row.get::<_, Option<String>>("parent_id")?,
            row.get::<_, i64>("position")?,
            row.get::<_, String>("overwrites")?,
        ))
    })?;
    rows.map(|row| {
        let (id, name, kind, topic, parent_id, position, overwrites) = row?;
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
    Ok(tx
        .sql
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2)",
        )?
        .query_row([server_id, channel], scalar)?)
}

/// The type of channel `channel`, if the community has it.
pub fn channel_kind(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<Option<u8>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT kind FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2")?
        .query_row([server_id, channel], |row| row.get("kind"))
        .optional()?)
}

/// The id of the channel named `name`, if the community has one.
pub fn channel_named(
    tx: &Tx<'_>,
    server_id: &str,
    name: &str,
) -> Result<Option<String>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT channel_id FROM sim_channels WHERE server_id = ?1 AND name = ?2")?
        .query_row([server_id, name], |row| row.get("channel_id"))
        .optional()?)
}

/// The overwrites of channel `channel`; `None` if the community has no such channel.
pub fn overwrites(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
) -> Result<Option<Vec<PermissionOverwrite>>, StoreError> {
    let stored: Option<String> = tx
        .sql
        .prepare_cached(
            "SELECT overwrites FROM sim_channels WHERE server_id = ?1 AND channel_id = ?2",
        )?
        .query_row([server_id, channel], |row| row.get("overwrites"))
        .optional()?;
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

// --- Ids ----------------------------------------------------------------------

/// A new id, above every id the community has and ever had: like a
/// platform's, an id is never given twice, so a config still naming a
/// deleted role never lands on a new one by chance.
pub fn new_id(tx: &Tx<'_>, server_id: &str) -> Result<u64, StoreError> {
    let (highest, high_water): (Option<i64>, i64) = tx
        .sql
        .prepare_cached(
            "SELECT (SELECT MAX(id) FROM (SELECT CAST(role_id AS INTEGER) AS id FROM sim_roles WHERE server_id = ?1 \
             UNION ALL SELECT CAST(channel_id AS INTEGER) FROM sim_channels WHERE server_id = ?1)) \
                 AS highest, id_high_water
             FROM sim_communities WHERE server_id = ?1",
        )?
        .query_row([server_id], |row| {
            Ok((row.get("highest")?, row.get("id_high_water")?))
        })?;
    let next = (highest.unwrap_or(0).max(high_water) as u64 + 1).max(FIRST_CREATED_ID);
    tx.sql
        .prepare_cached("UPDATE sim_communities SET id_high_water = ?2 WHERE server_id = ?1")?
        .execute(params![server_id, next as i64])?;
    Ok(next)
}

/// Remembers `id` (of something being deleted) as had: [`new_id`] never
/// gives it again. Ids that are not numbers (Slack's) are counted apart.
fn retire_id(tx: &Tx<'_>, server_id: &str, id: &str) -> Result<(), StoreError> {
    if let Ok(id) = id.parse::<i64>() {
        tx.sql
            .prepare_cached(
                "UPDATE sim_communities SET id_high_water = MAX(id_high_water, ?2) WHERE server_id = ?1",
            )?
            .execute(params![server_id, id])?;
    }
    Ok(())
}

/// A new Slack channel id, shaped like Slack's (`C` and upper-case letters
/// or digits, which the daemon's own validation takes): `C9` and the
/// community's count of ids given, never given before.
pub fn new_slack_id(tx: &Tx<'_>, server_id: &str) -> Result<String, StoreError> {
    let given: i64 = tx
        .sql
        .prepare_cached(
            "UPDATE sim_communities SET slack_ids_given = slack_ids_given + 1 WHERE server_id = ?1
             RETURNING slack_ids_given",
        )?
        .query_row([server_id], scalar)?;
    Ok(format!("C9{given:08}"))
}

fn count(tx: &Tx<'_>, table: &str, server_id: &str) -> Result<usize, StoreError> {
    let n: i64 = tx
        .sql
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM {table} WHERE server_id = ?1"
        ))?
        .query_row([server_id], scalar)?;
    Ok(n as usize)
}

fn parse_overwrites(channel: &str, json: &str) -> Result<Vec<PermissionOverwrite>, StoreError> {
    serde_json::from_str(json)
        .map_err(|e| StoreError::Corrupt(format!("overwrites of simulated channel {channel}: {e}")))
}

// --- Message deletion and native rules (issue #25) ----------------------------

/// Deletes message `id` of `channel`; whether there was one.
pub fn delete_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    id: i64,
) -> Result<bool, StoreError> {
    let deleted = tx
        .sql
        .prepare_cached(
            "DELETE FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 AND id = ?3",
        )?
        .execute(params![server_id, channel, id])?;
    Ok(deleted > 0)
}

/// The community's native AutoMod rules, as JSON, by id.
pub fn automod_rules(tx: &Tx<'_>, server_id: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT rule FROM sim_automod_rules WHERE server_id = ?1 ORDER BY rule_id",
    )?;
    let rows = stmt.query_map([server_id], |row| row.get("rule"))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Rule `rule_id` as JSON, if the community has it.
pub fn automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
) -> Result<Option<String>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT rule FROM sim_automod_rules WHERE server_id = ?1 AND rule_id = ?2")?
        .query_row([server_id, rule_id], |row| row.get("rule"))
        .optional()?)
}

/// Creates or replaces rule `rule_id`.
pub fn put_automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
    rule: &str,
) -> Result<(), StoreError> {
    tx.sql
        .prepare_cached(
            "INSERT INTO sim_automod_rules (server_id, rule_id, rule) VALUES (?1, ?2, ?3) \
             ON CONFLICT (server_id, rule_id) DO UPDATE SET rule = excluded.rule",
        )?
        .execute(params![server_id, rule_id, rule])?;
    Ok(())
}

/// Deletes rule `rule_id`; whether there was one.
pub fn delete_automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
) -> Result<bool, StoreError> {
    let deleted = tx
        .sql
        .prepare_cached("DELETE FROM sim_automod_rules WHERE server_id = ?1 AND rule_id = ?2")?
        .execute(params![server_id, rule_id])?;
    Ok(deleted > 0)
}
