//! The platform x action table of `welcome` (issue #26): what greeting a
//! member and giving them `welcome.auto_role_ids` is on each platform, and
//! when it happens. The one place that knows it (docs/api.md, "Welcome
//! (issue #26)", prints it).
//!
//! |          | discord | telegram | slack |
//! |----------|---------|----------|-------|
//! | joins greeted | `GUILD_MEMBER_ADD` | `new_chat_members` | `team_join` (not `member_joined_channel`: joining a channel is not joining the workspace) |
//! | greeting | "Create Message" in `welcome.channel_id`, mentioning the member alone | `sendMessage` (HTML) in `welcome.channel_id` (the group) | a DM: `conversations.open` + `chat.postMessage`; `welcome.channel_id` unused |
//! | auto-roles | "Add Guild Member Role", one `PUT` per role (MANAGE_ROLES, roles below the bot's) | none: Telegram has no roles (the config refuses role ids on Telegram) | user groups: `usergroups.users.list` + `usergroups.users.update` (`usergroups:read`, `usergroups:write`) |
//! | auto-roles when | at the join; a member `pending` membership screening: at the `GUILD_MEMBER_UPDATE` that shows `pending: false` | - | at the join |
//! | with `welcome.verification` not `none` | greeted at the join; auto-roles once verified (the verify code calls [`give_auto_roles`]) | greeted | greeted; user groups once verified |
//! | bots joining | neither greeted nor given roles | same | same |

use modctl_types::config::{Verification, Welcome};

use crate::platform::greeting::Greeting;
use crate::platform::{Bot, PlatformError};

/// When a joining member gets the auto-roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roles {
    /// None to give (none configured, or the platform has none).
    None,
    /// Now, with the greeting.
    Now,
    /// Once Discord says they passed membership screening.
    AfterScreening,
    /// Once verified: the verify code gives them ([`give_auto_roles`]).
    OnceVerified,
}

/// What a join leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Greet the member.
    pub greet: bool,
    /// When they get the auto-roles.
    pub roles: Roles,
}

/// The facts of a join that decide what happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Join {
    /// A bot or app account.
    pub is_bot: bool,
    /// A channel joined (Slack `member_joined_channel`), not the server.
    pub channel_only: bool,
    /// Discord: membership screening not passed yet.
    pub pending: bool,
}

/// What to do for `join` under `welcome`: nothing when it is off, for a
/// bot, or for a channel join; else a greeting, and the auto-roles now,
/// after screening, or once verified. Pure: table-tested below.
pub fn plan(welcome: &Welcome, join: Join) -> Plan {
    if !welcome.enabled || join.is_bot || join.channel_only {
        return Plan {
            greet: false,
            roles: Roles::None,
        };
    }
    let roles = if welcome.auto_role_ids.is_empty() {
        Roles::None
    } else if welcome.verification != Verification::None {
        Roles::OnceVerified
    } else if join.pending {
        Roles::AfterScreening
    } else {
        Roles::Now
    };
    Plan { greet: true, roles }
}

/// Greets the member `greeting` names where the platform greets (the
/// table above): `channel` on Discord and Telegram, a DM on Slack.
pub async fn greet(bot: &Bot, channel: &str, greeting: &Greeting) -> Result<(), PlatformError> {
    bot.greeter().greet(channel, greeting).await
}

/// What [`give_auto_roles`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    /// The roles (Slack: user groups) the member was given.
    pub given: Vec<String>,
    /// Those they already had (Slack only: a Discord "Add Guild Member
    /// Role" of a role held answers 204 like any other).
    pub already: Vec<String>,
    /// Those that failed, with why.
    pub failed: Vec<(String, PlatformError)>,
}

/// The audit-log reason of the auto-roles (Discord).
pub const AUTO_ROLE_REASON: &str = "modctl welcome: auto-role";

/// Gives `user` the roles `role_ids` (`welcome.auto_role_ids`) as the
/// platform has them: Discord roles added one by one (the member's others
/// kept), Slack user groups joined (read-modify-write of each group's
/// list), nothing on Telegram (no roles). Each role is tried whatever
/// became of the others. For the welcome consumer and for verification,
/// which gives them once a member is verified.
pub async fn give_auto_roles(bot: &Bot, user: &str, role_ids: &[String]) -> Given {
    let mut result = Given::default();
    for role in role_ids {
        let outcome = match bot {
            Bot::Discord(discord) => discord
                .add_role(user, role, Some(AUTO_ROLE_REASON))
                .await
                .map(|()| true),
            Bot::Slack(slack) => slack.join_user_group(role, user).await,
            // The config refuses role ids on Telegram; an older config that
            // holds some has nothing to give them with.
            Bot::Telegram(_) => continue,
        };
        match outcome {
            Ok(true) => result.given.push(role.clone()),
            Ok(false) => result.already.push(role.clone()),
            Err(e) => result.failed.push((role.clone(), e)),
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_is_greeted_and_given_roles_as_the_table_says() {
        let welcome = |enabled: bool, roles: bool, verification: Verification| Welcome {
            enabled,
            channel_id: Some("1".into()),
            auto_role_ids: if roles { vec!["2".into()] } else { vec![] },
            verification,
            ..Welcome::default()
        };
        let join = |is_bot, channel_only, pending| Join {
            is_bot,
            channel_only,
            pending,
        };
        let none = Verification::None;
        let button = Verification::Button;
        let quiet = Plan {
            greet: false,
            roles: Roles::None,
        };
        let greeted = |roles| Plan { greet: true, roles };
        for (config, joined, want) in [
            (welcome(false, true, none), join(false, false, false), quiet),
            (welcome(true, true, none), join(true, false, false), quiet),
            (welcome(true, true, none), join(false, true, false), quiet),
            (
                welcome(true, true, none),
                join(false, false, false),
                greeted(Roles::Now),
            ),
            (
                welcome(true, true, none),
                join(false, false, true),
                greeted(Roles::AfterScreening),
            ),
            (
                welcome(true, true, button),
                join(false, false, true),
                greeted(Roles::OnceVerified),
            ),
            (
                welcome(true, true, Verification::Captcha),
                join(false, false, false),
                greeted(Roles::OnceVerified),
            ),
            (
                welcome(true, false, none),
                join(false, false, true),
                greeted(Roles::None),
            ),
        ] {
            assert_eq!(plan(&config, joined), want, "{joined:?}");
        }
    }
}
