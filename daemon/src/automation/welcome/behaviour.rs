//! The platform x action table of `welcome` (issue #26): what greeting a
//! member and giving them `welcome.auto_role_ids` is on each platform, and
//! when it happens. The one place that knows it (docs/api.md, "Welcome
//! (issue #26)", prints it).
//!
//! |          | discord | telegram | slack |
//! |----------|---------|----------|-------|
//! | joins greeted | `GUILD_MEMBER_ADD` | `new_chat_members` | `team_join` (not `member_joined_channel`: joining a channel is not joining the workspace) |
//! | greeting | "Create Message" in `welcome.channel_id`, mentioning the member alone | `sendMessage` (HTML) in `welcome.channel_id` (the group) | a DM: `conversations.open` + `chat.postMessage`; `welcome.channel_id` unused, not required |
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
    use modctl_types::Platform;

    use super::*;
    use crate::clock::Clock;
    use crate::operator::demo;
    use crate::platform::simulator::{self, Simulator};
    use crate::store::testing::store_with_server;

    /// A simulated server of `platform` with the demo's community, and a
    /// member `newbie` without roles.
    async fn simulated(platform: Platform, id: &str, newbie: &str) -> (tempfile::TempDir, Bot) {
        let (dir, store) = store_with_server(platform, id).await;
        let (server, member) = (id.to_owned(), newbie.to_owned());
        store
            .write(move |tx| {
                simulator::seed(tx, &server, &demo::community(platform))?;
                crate::store::simulator::add_member(tx, &server, &member, "Newbie").map(drop)
            })
            .await
            .unwrap();
        let clock = Clock::manual(modctl_types::Timestamp::from_second(1_800_000_000).unwrap());
        let sim = Simulator::new(store, clock, id, platform);
        let bot = match platform {
            Platform::Discord => Bot::Discord(Box::new(sim)),
            Platform::Slack => Bot::Slack(Box::new(sim)),
            Platform::Telegram => Bot::Telegram(Box::new(sim)),
            other => crate::platform::new_platform(other),
        };
        (dir, bot)
    }

    /// What verification calls once a member is verified: each role tried
    /// alone, what was given, held or refused said apart.
    #[tokio::test]
    async fn auto_roles_are_given_each_alone_as_the_platform_has_them() {
        let roles = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let newbie = "800000000000000042";
        let (_dir, discord) = simulated(Platform::Discord, demo::DISCORD, newbie).await;
        // Member (below the bot) is given; Admin (above it) is refused.
        let given = give_auto_roles(
            &discord,
            newbie,
            &roles(&["900000000000000004", "900000000000000001"]),
        )
        .await;
        assert_eq!(given.given, ["900000000000000004"]);
        assert_eq!(given.failed.len(), 1, "{given:?}");
        assert_eq!(given.failed[0].0, "900000000000000001");
        assert!(matches!(given.failed[0].1, PlatformError::Forbidden(_)));
        // A member who is not one any more: refused, nothing given.
        let gone = give_auto_roles(
            &discord,
            "800000000000000099",
            &roles(&["900000000000000004"]),
        )
        .await;
        assert!(gone.given.is_empty() && gone.failed.len() == 1, "{gone:?}");

        let (_dir, slack) = simulated(Platform::Slack, demo::SLACK, "U0NEWBIE01").await;
        let groups = roles(&["S0DEMOMEMB"]);
        let first = give_auto_roles(&slack, "U0NEWBIE01", &groups).await;
        assert_eq!((first.given, first.already), (groups.clone(), vec![]));
        let again = give_auto_roles(&slack, "U0NEWBIE01", &groups).await;
        assert_eq!((again.given, again.already), (vec![], groups));

        // Telegram has no roles: nothing is asked of it.
        let (_dir, telegram) = simulated(Platform::Telegram, demo::TELEGRAM, "300001").await;
        assert_eq!(
            give_auto_roles(&telegram, "300001", &roles(&["1"])).await,
            Given::default()
        );
    }

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
