//! The Discord-only items: the bot's permissions and its place in the role
//! hierarchy, and whether it may post in a channel (Discord's overwrite order).

use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use modctl_types::snapshot::DiscordStructure;

use super::items::{Inputs, answer, done, item, not_applicable};
use crate::platform::hierarchy::{
    ADMINISTRATOR, BAN_MEMBERS, Hierarchy, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS,
};

/// `MANAGE_CHANNELS` (restoring channels).
const MANAGE_CHANNELS: u64 = 1 << 4;
/// `VIEW_AUDIT_LOG` (who deleted what, for antinuke).
const VIEW_AUDIT_LOG: u64 = 1 << 7;
/// `VIEW_CHANNEL`.
const VIEW_CHANNEL: u64 = 1 << 10;
/// `SEND_MESSAGES`.
const SEND_MESSAGES: u64 = 1 << 11;

/// The permissions the bot needs on Discord, with their names.
const NEEDED: [(u64, &str); 6] = [
    (BAN_MEMBERS, "BAN_MEMBERS"),
    (KICK_MEMBERS, "KICK_MEMBERS"),
    (MODERATE_MEMBERS, "MODERATE_MEMBERS"),
    (MANAGE_ROLES, "MANAGE_ROLES"),
    (MANAGE_CHANNELS, "MANAGE_CHANNELS"),
    (VIEW_AUDIT_LOG, "VIEW_AUDIT_LOG"),
];

/// The bot's guild-level permissions and its highest role's position.
pub(super) fn bot_power(hierarchy: &Hierarchy) -> (u64, i64) {
    let mut permissions = 0;
    let mut top = 0;
    for role in &hierarchy.roles {
        if role.id == hierarchy.guild_id || hierarchy.bot.roles.contains(&role.id) {
            permissions |= role.permissions;
            if role.id != hierarchy.guild_id {
                top = top.max(role.position);
            }
        }
    }
    (permissions, top)
}

/// The names of the permissions of `needed` that `permissions` lacks.
pub(super) fn lacking(permissions: u64, needed: &[(u64, &'static str)]) -> Vec<&'static str> {
    needed
        .iter()
        .filter(|(bit, _)| permissions & bit == 0)
        .map(|(_, name)| *name)
        .collect()
}

pub(super) fn bot_permissions(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = (
        "bot_permissions",
        "Bot permissions for moderation and restore",
    );
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let Some(hierarchy) = &answer.hierarchy else {
        return not_applicable(id, title, "the platform has no role permissions");
    };
    let (permissions, _) = bot_power(hierarchy);
    if permissions & ADMINISTRATOR != 0 {
        return done(id, title, "the bot is an administrator");
    }
    let missing = lacking(permissions, &NEEDED);
    if missing.is_empty() {
        return done(
            id,
            title,
            "the bot holds every permission the actions and restores need",
        );
    }
    item(
        id,
        title,
        ItemStatus::Todo,
        format!("the bot's roles lack {}", missing.join(", ")),
        Some(format!(
            "in Discord, Server Settings > Roles: give the bot's role {}",
            missing.join(", ")
        )),
    )
}

pub(super) fn bot_role(inputs: &Inputs<'_>) -> OnboardingItem {
    let (id, title) = ("bot_role_position", "Bot's role above the roles it manages");
    let answer = match answer(inputs, id, title) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let Some(hierarchy) = &answer.hierarchy else {
        return not_applicable(id, title, "the platform has no role hierarchy");
    };
    let (_, top) = bot_power(hierarchy);
    let jail = &inputs.store.sections.jail;
    let jail_role = jail
        .role_id
        .as_ref()
        .filter(|_| jail.enabled)
        .and_then(|id| hierarchy.roles.iter().find(|r| &r.id == id));
    match jail_role {
        Some(role) if role.position >= top => item(
            id,
            title,
            ItemStatus::Todo,
            format!(
                "the jail role {} (position {}) is not below the bot's top role (position {top}): jailing fails",
                role.id, role.position
            ),
            Some(
                "in Discord, Server Settings > Roles: drag the bot's role above the jail role"
                    .into(),
            ),
        ),
        Some(role) => done(
            id,
            title,
            format!(
                "the bot's top role (position {top}) is above the jail role ({})",
                role.position
            ),
        ),
        None => done(
            id,
            title,
            format!("the bot's top role is at position {top}"),
        ),
    }
}

/// Whether the bot may view and send in `channel`: the guild permissions,
/// then the channel's overwrites for `@everyone`, the bot's roles and the
/// bot itself, in Discord's order.
pub(super) fn can_post(
    guild: &DiscordStructure,
    hierarchy: Option<&Hierarchy>,
    channel: &str,
) -> bool {
    let Some(hierarchy) = hierarchy else {
        return true;
    };
    let (mut permissions, _) = bot_power(hierarchy);
    if permissions & ADMINISTRATOR != 0 {
        return true;
    }
    let Some(channel) = guild.channels.iter().find(|c| c.id == channel) else {
        return false;
    };
    let bits = |s: &str| s.parse::<u64>().unwrap_or(0);
    let (mut allow, mut deny) = (0, 0);
    for overwrite in &channel.permission_overwrites {
        if overwrite.id == hierarchy.guild_id {
            permissions = (permissions & !bits(&overwrite.deny)) | bits(&overwrite.allow);
        } else if hierarchy.bot.roles.contains(&overwrite.id) {
            allow |= bits(&overwrite.allow);
            deny |= bits(&overwrite.deny);
        }
    }
    permissions = (permissions & !deny) | allow;
    if let Some(own) = channel
        .permission_overwrites
        .iter()
        .find(|o| o.id == hierarchy.bot.user_id)
    {
        permissions = (permissions & !bits(&own.deny)) | bits(&own.allow);
    }
    let needed = VIEW_CHANNEL | SEND_MESSAGES;
    permissions & needed == needed
}
