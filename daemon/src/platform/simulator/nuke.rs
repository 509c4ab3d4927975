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
use modctl_types::snapshot::OverwriteKind;

use crate::store::simulator::{self as sim, ChannelRow, RoleRow};
use crate::store::{StoreError, Tx};

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

/// Deletes up to `roles` roles and `channels` channels of the simulated
/// community of `server_id` (a server on `platform`), chosen as the module
/// says. Slack workspaces have channels only; Telegram groups have neither.
pub fn nuke(
    tx: &Tx<'_>,
    server_id: &str,
    platform: Platform,
    roles: usize,
    channels: usize,
) -> Result<Nuked, NukeError> {
    let doomed = doomed(tx, server_id, platform, roles, channels)?;
    for item in doomed.roles.iter().chain(&doomed.channels) {
        delete(tx, server_id, item)?;
    }
    Ok(doomed)
}

/// Deletes `item` of `server_id` (`simulate nuke --by` deletes one at a
/// time, at a nuke's pace).
pub fn delete(tx: &Tx<'_>, server_id: &str, item: &Deleted) -> Result<(), NukeError> {
    match item.kind {
        "role" => sim::delete_role(tx, server_id, &item.id)?,
        _ => sim::delete_channel(tx, server_id, &item.id)?,
    }
    Ok(())
}

/// What [`nuke`] would delete, in its order (roles first), deleting
/// nothing.
pub fn doomed(
    tx: &Tx<'_>,
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
    let all_channels = sim::channels(tx, server_id)?;
    let all_roles = sim::roles(tx, server_id)?;
    let bot_roles = sim::bot_roles(tx, server_id)?;
    let role_ids: HashSet<&str> = all_roles.iter().map(|r| r.id.as_str()).collect();
    let deletable = |id: &str| role_ids.contains(id) && !bot_roles.contains(id);
    let references = |channel: &ChannelRow| -> Vec<String> {
        channel
            .overwrites
            .iter()
            .filter(|o| o.kind == OverwriteKind::Role && deletable(&o.id))
            .map(|o| o.id.clone())
            .collect()
    };

    let mut channel_order: Vec<&ChannelRow> = all_channels.iter().collect();
    channel_order.sort_by_key(|c| (c.kind == CATEGORY, references(c).is_empty(), c.id.clone()));
    let doomed_channels: Vec<&ChannelRow> = channel_order.into_iter().take(channels).collect();
    let referenced: HashSet<String> = doomed_channels.iter().flat_map(|c| references(c)).collect();

    let bot_top = all_roles
        .iter()
        .filter(|r| bot_roles.contains(&r.id))
        .map(|r| r.position)
        .max()
        .unwrap_or(0);
    let mut role_order: Vec<&RoleRow> = all_roles.iter().filter(|r| deletable(&r.id)).collect();
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
    let doomed_roles: Vec<&RoleRow> = role_order.into_iter().take(roles).collect();

    let mut nuked = Nuked::default();
    for role in doomed_roles {
        nuked.roles.push(Deleted {
            kind: "role",
            id: role.id.clone(),
            name: role.name.clone(),
        });
    }
    for channel in doomed_channels {
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
