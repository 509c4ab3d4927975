//! The welcome item (issue #26): when `welcome.enabled` is on, what runs on
//! this platform and what the bot lacks for it
//! (`crate::automation::welcome::behaviour` has the table):
//!
//! - Discord: the greeting channel exists and the bot may post there
//!   (VIEW_CHANNEL, SEND_MESSAGES); for `auto_role_ids`, MANAGE_ROLES and
//!   every role below the bot's highest. Joins arrive only with the
//!   GUILD_MEMBERS intent, which the daemon asks for (the gateway refuses
//!   the session without it: the activity item says so).
//! - Slack: greeted by DM (`im:write`), joins from the `team_join` event
//!   (`users:read`); `auto_role_ids` are user groups, which need
//!   `usergroups:read` and `usergroups:write`. Slack does not tell a bot
//!   its scopes through the calls the checklist makes, so they are named,
//!   not checked.
//! - Telegram: greeted with `sendMessage` in `welcome.channel_id`; no roles.
//!
//! When `welcome` is off there is no item.

use modctl_types::Platform;
use modctl_types::config::Welcome;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use modctl_types::snapshot::StructureContent;

use super::discord::{bot_power, can_post};
use super::items::{Inputs, answer, done, item};
use crate::events::NameKind;
use crate::platform::Hierarchy;
use crate::platform::hierarchy::{ADMINISTRATOR, MANAGE_ROLES};

const ID: &str = "welcome";
const TITLE: &str = "Welcome: greeting and auto-roles";

/// The welcome item of the server, when `welcome.enabled` is on.
pub(super) fn items(inputs: &Inputs<'_>) -> Option<OnboardingItem> {
    let welcome = &inputs.store.sections.welcome;
    if !welcome.enabled {
        return None;
    }
    let server = &inputs.server.id;
    let Some(channel) = &welcome.channel_id else {
        return Some(item(
            ID,
            TITLE,
            ItemStatus::Todo,
            "welcome is on but no channel is set: nobody is greeted".into(),
            Some(format!(
                "modctl config set {server} welcome.channel_id <CHANNEL_ID>"
            )),
        ));
    };
    Some(match inputs.server.platform {
        Platform::Discord => discord(inputs, welcome, channel),
        Platform::Slack => done(
            ID,
            TITLE,
            if welcome.auto_role_ids.is_empty() {
                "members who join the workspace (team_join, users:read) are greeted by DM (im:write)".to_owned()
            } else {
                format!(
                    "members who join the workspace (team_join, users:read) are greeted by DM (im:write) and added to the user group(s) {} (the app needs usergroups:read and usergroups:write; without them the daemon's log says so at each join)",
                    welcome.auto_role_ids.join(", ")
                )
            },
        ),
        Platform::Telegram => done(
            ID,
            TITLE,
            format!(
                "members who join are greeted in chat {channel} (sendMessage, HTML); Telegram has no roles to give"
            ),
        ),
        other => crate::platform::new_platform(other),
    })
}

fn discord(inputs: &Inputs<'_>, welcome: &Welcome, channel: &str) -> OnboardingItem {
    let server = &inputs.server.id;
    let answer = match answer(inputs, ID, TITLE) {
        Ok(answer) => answer,
        Err(item) => return item,
    };
    let StructureContent::Discord(guild) = &answer.structure else {
        return done(ID, TITLE, "greeting members who join");
    };
    let Some(found) = guild.channels.iter().find(|c| c.id == channel) else {
        return item(
            ID,
            TITLE,
            ItemStatus::Warning,
            format!(
                "the greeting channel {} no longer exists",
                inputs.shown(NameKind::Channel, channel)
            ),
            Some(format!(
                "modctl config set {server} welcome.channel_id <CHANNEL_ID>"
            )),
        );
    };
    if !can_post(guild, answer.hierarchy.as_ref(), channel) {
        return item(
            ID,
            TITLE,
            ItemStatus::Todo,
            format!(
                "the bot cannot greet in #{}: it lacks VIEW_CHANNEL or SEND_MESSAGES there",
                found.name
            ),
            Some(format!(
                "in Discord, the channel's Permissions: allow the bot's role View Channel and Send Messages in {channel}"
            )),
        );
    }
    if let Some(problem) = answer
        .hierarchy
        .as_ref()
        .and_then(|h| roles_problem(h, &welcome.auto_role_ids))
    {
        return item(
            ID,
            TITLE,
            ItemStatus::Todo,
            format!("auto-roles are not given: {problem}"),
            Some(
                "in Discord, Server Settings > Roles: give the bot's role Manage Roles and drag it above the auto-roles"
                    .into(),
            ),
        );
    }
    let roles = if welcome.auto_role_ids.is_empty() {
        String::new()
    } else {
        let named: Vec<String> = welcome
            .auto_role_ids
            .iter()
            .map(|role| inputs.shown(NameKind::Role, role))
            .collect();
        format!(
            " and given {} (after membership screening, when the guild has it)",
            named.join(", ")
        )
    };
    done(
        ID,
        TITLE,
        format!(
            "members who join are greeted in #{}{roles}; joins arrive with the GUILD_MEMBERS intent the daemon asks for",
            found.name
        ),
    )
}

/// Why the bot cannot give `roles` in `hierarchy`, if it cannot: it lacks
/// MANAGE_ROLES, or a role is unknown, or not below the bot's highest
/// (discord-docs/permissions.mdx, "Permission Hierarchy"). Pure.
pub(super) fn roles_problem(hierarchy: &Hierarchy, roles: &[String]) -> Option<String> {
    if roles.is_empty() {
        return None;
    }
    let (permissions, top) = bot_power(hierarchy);
    if permissions & (MANAGE_ROLES | ADMINISTRATOR) == 0 {
        return Some("the bot lacks MANAGE_ROLES".into());
    }
    let mut problems = Vec::new();
    for id in roles {
        match hierarchy.roles.iter().find(|r| &r.id == id) {
            None => problems.push(format!("role {id} no longer exists")),
            Some(role) if role.managed => {
                problems.push(format!("role {id} is managed by an integration"))
            }
            Some(role) if role.position >= top => problems.push(format!(
                "role {id} (position {}) is not below the bot's top role (position {top})",
                role.position
            )),
            Some(_) => {}
        }
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::{Member, Role};

    fn hierarchy(bot_permissions: u64) -> Hierarchy {
        let role = |id: &str, position, permissions, managed| Role {
            id: id.into(),
            position,
            permissions,
            managed,
        };
        Hierarchy {
            guild_id: "g".into(),
            owner_id: "owner".into(),
            roles: vec![
                role("g", 0, 0, false),
                role("member", 1, 0, false),
                role("booster", 2, 0, true),
                role("bot", 5, bot_permissions, false),
                role("admin", 10, ADMINISTRATOR, false),
            ],
            bot: Member {
                user_id: "bot-user".into(),
                roles: vec!["bot".into()],
            },
            target: None,
        }
    }

    #[test]
    fn auto_roles_need_manage_roles_and_a_place_below_the_bot() {
        let roles = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        for (permissions, auto, want) in [
            (MANAGE_ROLES, roles(&[]), None),
            (0, roles(&[]), None),
            (MANAGE_ROLES, roles(&["member"]), None),
            (ADMINISTRATOR, roles(&["member"]), None),
            (0, roles(&["member"]), Some("the bot lacks MANAGE_ROLES")),
            (
                MANAGE_ROLES,
                roles(&["member", "admin"]),
                Some("role admin (position 10) is not below the bot's top role (position 5)"),
            ),
            (
                MANAGE_ROLES,
                roles(&["gone", "booster"]),
                Some("role gone no longer exists; role booster is managed by an integration"),
            ),
        ] {
            assert_eq!(
                roles_problem(&hierarchy(permissions), &auto).as_deref(),
                want,
                "{permissions} {auto:?}"
            );
        }
    }
}
