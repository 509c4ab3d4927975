//! Seeding a simulated community: the shapes a community is described in
//! (the demo's and the tests' communities are constants of these), writing
//! one in place of what the server had, and the community's owner and bot,
//! which every platform call of the simulator starts from.

use crate::store::sql::params;

use super::insert_channel;
use crate::store::{StoreError, Tx, scalar};
use modctl_types::snapshot::OverwriteKind;

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
    tx.sql.row(
        "SELECT EXISTS (SELECT 1 FROM sim_communities WHERE server_id = ?1)",
        [server_id],
        scalar,
    )
}

/// The community's owner and bot user ids.
pub fn owner_and_bot(tx: &Tx<'_>, server_id: &str) -> Result<(String, String), StoreError> {
    tx.sql.row(
        "SELECT owner_id, bot_user_id FROM sim_communities WHERE server_id = ?1",
        [server_id],
        |row| Ok((row.get("owner_id")?, row.get("bot_user_id")?)),
    )
}

/// The community's owner, if it has a community.
pub fn owner(tx: &Tx<'_>, server_id: &str) -> Result<Option<String>, StoreError> {
    tx.sql.opt_row(
        "SELECT owner_id FROM sim_communities WHERE server_id = ?1",
        [server_id],
        |row| row.get("owner_id"),
    )
}
