//! The platform x action behaviour table: which platform primitives each
//! action uses on each platform, and what the case records when it cannot.
//! This is the one place that knows it (docs/api.md prints it as a table).
//!
//! |          | discord | telegram | slack |
//! |----------|---------|----------|-------|
//! | note/warn | recorded, applied | recorded only | recorded and posted to the mod-log |
//! | timeout  | member timeout | mute (`restrictChatMember`) | recorded; removal on the admin side |
//! | kick     | kick | ban then unban | recorded; removal on the admin side |
//! | ban      | ban | `banChatMember` | recorded; deactivation on the admin side |
//! | unban    | unban | `unbanChatMember` | recorded; reactivation on the admin side |
//! | jail     | jail role, roles the bot may take saved (managed ones kept) | indefinite or timed mute | refused (400) |
//! | unjail   | saved roles given back | mute lifted | nothing to unjail (409) |
//!
//! The DM telling the member (`moderation.dm_on_action`, [`dm_step`];
//! sending it is [`super::dm`]'s):
//!
//! |          | discord | telegram | slack |
//! |----------|---------|----------|-------|
//! | note     | never: a note stays among moderators | never | never |
//! | warn, timeout, jail, unjail | after | not possible: a bot cannot start a conversation | after |
//! | kick, ban | **before**: afterwards the member shares no server with the bot | not possible | after: the member stays until an administrator acts |
//! | unban    | not possible: a banned member shares no server with the bot | not possible | not possible: the account is deactivated |

use modctl_types::config::Sections;
use modctl_types::moderation::{Action, CaseDm, CaseState, JailRecord};
use modctl_types::{Platform, Timestamp};

use super::validate::Checked;
use crate::platform::hierarchy::Act;
use crate::platform::{Bot, DiscordBot, Hierarchy, PlatformError, Post, SlackBot};

/// What carrying out an action did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Applied on the platform.
    pub applied: bool,
    /// What happened and what to do.
    pub detail: String,
    /// Whether the case adds strikes: applied actions and actions the platform
    /// only records by design do; refusals and failures do not, so a retry
    /// after fixing permissions does not count twice.
    pub counts: bool,
    /// What the action did to the jail state.
    pub jail: JailEffect,
    /// Settled, or unknown when nobody can tell what the platform did.
    pub state: CaseState,
    /// Set when the platform call failed in a way that leaves open whether
    /// it was carried out ([`PlatformError::may_have_applied`]): the
    /// outcome is then found out by asking the platform
    /// (`moderation::carry_case` calls `recovery::confirm`). Recorded without
    /// asking, the outcome is `unknown`, never "not applied".
    pub unconfirmed: Option<Box<Unconfirmed>>,
    /// The DM's outcome, recorded when the case is settled; `None` keeps
    /// what the case has (decided when it was written, or sent before a
    /// kick or a ban).
    pub dm: Option<CaseDm>,
}

/// A platform call that may or may not have been carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unconfirmed {
    /// How the call failed.
    pub error: PlatformError,
    /// What the case records if the platform shows it done (its detail,
    /// and the jail change with the roles saved before the call).
    pub done: Outcome,
}

/// An action's effect on the member's jail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JailEffect {
    /// None.
    Unchanged,
    /// Jailed, with the roles to restore later.
    Jailed {
        /// Roles saved.
        saved_roles: Vec<String>,
    },
    /// The jail ended.
    Released,
}

impl Outcome {
    /// Applied on the platform; adds strikes.
    pub fn applied(detail: impl Into<String>) -> Self {
        Outcome {
            applied: true,
            detail: detail.into(),
            counts: true,
            jail: JailEffect::Unchanged,
            state: CaseState::Settled,
            unconfirmed: None,
            dm: None,
        }
    }

    fn recorded(detail: impl Into<String>) -> Self {
        Outcome {
            applied: false,
            counts: true,
            ..Outcome::applied(detail)
        }
    }

    /// Not applied, and no strikes: a refusal or a failure.
    pub fn refused(detail: impl Into<String>) -> Self {
        Outcome {
            applied: false,
            counts: false,
            ..Outcome::applied(detail)
        }
    }

    /// Nobody can tell whether the platform applied it: no strikes, and the
    /// detail says what to check by hand.
    pub fn unknown(detail: impl Into<String>) -> Self {
        Outcome {
            state: CaseState::Unknown,
            ..Outcome::refused(detail)
        }
    }

    /// A call that failed with `error` after it may have reached the
    /// platform; `done` is what it records if the platform shows it done.
    pub fn unconfirmed(error: PlatformError, done: Outcome) -> Self {
        Outcome {
            unconfirmed: Some(Box::new(Unconfirmed {
                error: error.clone(),
                done,
            })),
            ..Outcome::unknown(format!(
                "outcome unknown: {error}, and it was not checked on the platform"
            ))
        }
    }

    /// The same outcome with `jail` as its effect on the jail state.
    pub fn with_jail(mut self, jail: JailEffect) -> Self {
        self.jail = jail;
        self
    }
}

const ADMIN_SIDE: &str =
    "case recorded; removal from the workspace is done on the administrator side";
/// Slack's Web API gives bots no way to silence a member for a while, so a
/// timeout there is a record plus advice, and says so rather than talk of removal.
const SLACK_TIMEOUT: &str = "case recorded; Slack has no timeouts a bot can set: restrict the member on the administrator side";

/// Everything an action needs besides the request.
#[derive(Debug)]
pub struct Context<'a> {
    /// The server's platform.
    pub platform: Platform,
    /// The server id.
    pub server_id: &'a str,
    /// The server's config.
    pub config: &'a Sections,
    /// The member's active jail (for unjail).
    pub jail: Option<&'a JailRecord>,
    /// When the timeout or jail ends.
    pub until: Option<Timestamp>,
    /// Run just before a kick or a ban is sent, once its checks passed
    /// ([`DmStep::Before`]: the DM telling the member, sent while the bot
    /// can still reach them, and only when the action is going ahead).
    pub before_removal: Option<&'a dyn BeforeRemoval>,
}

/// What to do just before an action that takes the member away is sent
/// ([`Context::before_removal`]).
#[async_trait::async_trait]
pub trait BeforeRemoval: Send + Sync + std::fmt::Debug {
    /// Runs once, just before the call; it cannot stop the action.
    async fn run(&self);
}

/// Runs `cx`'s [`Context::before_removal`], if any.
async fn before_removal(cx: &Context<'_>) {
    if let Some(step) = cx.before_removal {
        step.run().await;
    }
}

/// Discord's longest timeout: `communication_disabled_until` may be "up to
/// 28 days in the future" (discord-docs/guild.mdx, "Modify Guild Member"),
/// in the future of Discord's clock.
pub const DISCORD_MAX_TIMEOUT_SECONDS: i64 = 28 * 86_400;
/// How far below that a Discord timeout's end is kept: the end is computed
/// on the daemon's clock, and one running ahead of Discord's by up to this
/// much would otherwise see a 28-day timeout refused. Five minutes is far
/// more than a synchronised clock is off, and costs a moderator at most
/// five minutes of a four-week timeout.
pub const DISCORD_CLOCK_MARGIN_SECONDS: i64 = 300;

/// When a timeout of `minutes` from `now` (unix seconds) ends on
/// `platform`: on Discord at most 28 days less the clock margin from now,
/// so the case records the end the platform was sent.
pub fn timeout_end(platform: Platform, now: i64, minutes: u32) -> i64 {
    let wanted = now + i64::from(minutes) * 60;
    match platform {
        Platform::Discord => {
            wanted.min(now + DISCORD_MAX_TIMEOUT_SECONDS - DISCORD_CLOCK_MARGIN_SECONDS)
        }
        Platform::Telegram | Platform::Slack => wanted,
        _ => crate::platform::new_platform(platform),
    }
}

/// The note a Discord timeout's detail ends with when its length was cut
/// by [`timeout_end`]; empty otherwise.
fn discord_timeout_note(minutes: Option<u32>) -> String {
    let asked = minutes.map_or(0, |m| i64::from(m) * 60);
    let most = DISCORD_MAX_TIMEOUT_SECONDS - DISCORD_CLOCK_MARGIN_SECONDS;
    if asked <= most {
        return String::new();
    }
    format!(
        "; {minutes} minutes asked, cut to 28 days less {margin} minutes: Discord refuses a timeout ending more than 28 days ahead of its own clock, and the margin allows for the daemon's clock being ahead of it",
        minutes = asked / 60,
        margin = DISCORD_CLOCK_MARGIN_SECONDS / 60,
    )
}

/// When the member is sent a DM about an action (the second table of the
/// module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DmStep {
    /// Before the action: afterwards the platform no longer lets the bot
    /// reach the member.
    Before,
    /// Once the action is carried out (or recorded, where the platform
    /// leaves it to an administrator).
    After,
    /// The platform gives the bot no way to reach the member; why.
    NotPossible(&'static str),
    /// The action is never told to the member; why.
    Never(&'static str),
}

/// Telegram's Bot API lets a bot message only users who started a chat
/// with it first, so it cannot DM a member about a case.
pub const TELEGRAM_NO_DM: &str = "Telegram bots cannot start a conversation with a member: they may only answer one the member started";

/// When the member hears of `action` on `platform`.
pub fn dm_step(platform: Platform, action: Action) -> DmStep {
    match (platform, action) {
        (_, Action::Note) => DmStep::Never("a note stays among moderators"),
        (Platform::Telegram, _) => DmStep::NotPossible(TELEGRAM_NO_DM),
        (Platform::Discord, Action::Kick | Action::Ban) => DmStep::Before,
        (Platform::Discord, Action::Unban) => DmStep::NotPossible(
            "a banned member shares no server with the bot, and Discord lets a bot message only members of a server they share",
        ),
        (Platform::Slack, Action::Unban) => DmStep::NotPossible(
            "the account stays deactivated until an administrator reactivates it",
        ),
        (
            Platform::Discord | Platform::Slack,
            Action::Warn
            | Action::Timeout
            | Action::Kick
            | Action::Ban
            | Action::Jail
            | Action::Unjail,
        ) => DmStep::After,
        // An action added later is not told until someone decides how.
        (Platform::Discord | Platform::Slack, _) => {
            DmStep::Never("the daemon has no DM for this action")
        }
        (platform, _) => crate::platform::new_platform(platform),
    }
}

/// What carrying out `action` sends to `platform`, in its API's words, for
/// a dry run (issue #27); `None` when nothing is sent (the action is a
/// record there). The same rows as [`carry_out`]'s match, read from it.
pub fn platform_call(platform: Platform, action: Action) -> Option<&'static str> {
    match (platform, action) {
        (Platform::Discord, Action::Note | Action::Warn) => None,
        (Platform::Discord, Action::Timeout) => Some(
            "Modify Guild Member (PATCH /guilds/{guild}/members/{user}) with communication_disabled_until, after reading the role hierarchy",
        ),
        (Platform::Discord, Action::Kick) => Some(
            "Remove Guild Member (DELETE /guilds/{guild}/members/{user}), after reading the role hierarchy",
        ),
        (Platform::Discord, Action::Ban) => Some(
            "Create Guild Ban (PUT /guilds/{guild}/bans/{user}) with delete_message_seconds, after reading the role hierarchy",
        ),
        (Platform::Discord, Action::Unban) => {
            Some("Remove Guild Ban (DELETE /guilds/{guild}/bans/{user})")
        }
        (Platform::Discord, Action::Jail) => Some(
            "Modify Guild Member (PATCH /guilds/{guild}/members/{user}) with roles: the jail role in place of the member's roles (kept to give back)",
        ),
        (Platform::Discord, Action::Unjail) => Some(
            "Modify Guild Member (PATCH /guilds/{guild}/members/{user}) with roles: the roles kept at the jail, without the jail role",
        ),
        (Platform::Telegram, Action::Note | Action::Warn) => None,
        (Platform::Telegram, Action::Timeout | Action::Jail) => {
            Some("restrictChatMember with no send permissions (a mute)")
        }
        (Platform::Telegram, Action::Kick) => {
            Some("banChatMember, then unbanChatMember so they may rejoin")
        }
        (Platform::Telegram, Action::Ban) => Some("banChatMember"),
        (Platform::Telegram, Action::Unban) => Some("unbanChatMember with only_if_banned"),
        (Platform::Telegram, Action::Unjail) => {
            Some("restrictChatMember with the group's send permissions (the mute lifted)")
        }
        (Platform::Slack, Action::Note | Action::Warn) => {
            Some("chat.postMessage to the mod-log channel (general.modlog_channel_id)")
        }
        (Platform::Slack, _) => None,
        (Platform::Discord | Platform::Telegram, _) => None,
        (platform, _) => crate::platform::new_platform(platform),
    }
}

/// Whether carrying out `action` on `platform` changes anything on the
/// platform. Cases of actions that do not can be settled again from scratch
/// after a crash; the others must be checked on the platform.
pub fn touches_platform(platform: Platform, action: Action) -> bool {
    match (platform, action) {
        (Platform::Discord, Action::Note | Action::Warn) => false,
        (Platform::Telegram, Action::Note | Action::Warn) => false,
        (Platform::Slack, Action::Note | Action::Warn) => true,
        (Platform::Slack, Action::Timeout | Action::Kick | Action::Ban | Action::Unban) => false,
        (Platform::Slack, Action::Jail | Action::Unjail) => false,
        (Platform::Discord | Platform::Telegram, _) => true,
        // A platform added later is assumed to act until its row is written.
        _ => true,
    }
}

/// The outcome of `action` when it is known without calling the platform:
/// on a server with no connection (refused), and for the actions that are
/// only a record on `platform`. `None`: [`carry_out`] must ask the platform.
///
/// An action whose outcome is known is settled in the transaction that
/// records it (`moderation::Begin`): one write instead of two.
pub fn known_outcome(
    platform: Platform,
    server_id: &str,
    action: Action,
    connected: bool,
) -> Option<Outcome> {
    if !connected {
        return Some(Outcome::refused(format!(
            "not applied: server {server_id} is not connected to {platform}; an operator can connect it with `modctld server connect {server_id}`"
        )));
    }
    match (platform, action) {
        (Platform::Discord, Action::Note) => Some(Outcome::applied("note recorded")),
        (Platform::Discord, Action::Warn) => Some(Outcome::applied("warning recorded")),
        (Platform::Telegram, Action::Note | Action::Warn) => Some(Outcome::recorded(
            "case recorded only: Telegram has no notes or warnings a bot could give",
        )),
        (Platform::Slack, Action::Timeout) => Some(Outcome::recorded(SLACK_TIMEOUT)),
        (Platform::Slack, Action::Kick) => Some(Outcome::recorded(ADMIN_SIDE)),
        (Platform::Slack, Action::Ban) => Some(Outcome::recorded(
            "case recorded; Slack bots cannot ban: deactivate the account on the administrator side",
        )),
        (Platform::Slack, Action::Unban) => Some(Outcome::recorded(
            "case recorded; reactivate the account on the administrator side",
        )),
        _ => None,
    }
}

/// Carries out `input` through `bot` (`None`: the server is not connected).
/// The match is over the connected platform's handle, so each arm can call
/// only the primitives that platform has (a kick on Slack does not
/// compile).
pub async fn carry_out(bot: Option<&Bot>, input: &Checked, cx: &Context<'_>) -> Outcome {
    let known = known_outcome(cx.platform, cx.server_id, input.action, bot.is_some());
    let (None, Some(bot)) = (known.clone(), bot) else {
        return known.expect("an unconnected server's outcome is known");
    };
    let user = input.user_id.as_str();
    let reason = input.reason.as_deref();
    let until_text = cx
        .until
        .map_or_else(|| "until unjailed".to_owned(), |t| format!("until {t}"));
    match (bot, input.action) {
        (Bot::Slack(slack), Action::Note | Action::Warn) => {
            post_to_modlog(slack.as_ref(), input, cx).await
        }

        (Bot::Discord(discord), Action::Timeout) => {
            let until = cx.until.expect("timeouts have an end");
            checked(discord.as_ref(), user, Act::Timeout, async {
                result(
                    discord.timeout(user, until, reason).await,
                    Outcome::applied(format!(
                        "timed out until {until}{}",
                        discord_timeout_note(input.minutes)
                    )),
                )
            })
            .await
        }
        (Bot::Telegram(telegram), Action::Timeout) => result(
            telegram.mute(user, cx.until).await,
            Outcome::applied(format!("muted {until_text} (restrictChatMember)")),
        ),

        (Bot::Discord(discord), Action::Kick) => {
            checked(discord.as_ref(), user, Act::Kick, async {
                before_removal(cx).await;
                result(discord.kick(user, reason).await, Outcome::applied("kicked"))
            })
            .await
        }
        (Bot::Telegram(telegram), Action::Kick) => {
            // Telegram has no kick: ban, then unban so the member may rejoin.
            let done = Outcome::applied("removed with a ban followed by an unban; they may rejoin");
            match telegram.ban(user, 0, reason).await {
                Err(e) => result(Err(e), done),
                // Banned for sure: whatever stopped the unban, the platform
                // is asked what the member's state is now.
                Ok(()) => match telegram.unban(user, reason).await {
                    Ok(()) => done,
                    Err(e) => Outcome::unconfirmed(e, done),
                },
            }
        }

        (Bot::Discord(discord), Action::Ban) => {
            let days = input.delete_message_days.unwrap_or(0);
            checked(discord.as_ref(), user, Act::Ban, async {
                before_removal(cx).await;
                result(
                    discord.ban(user, days, reason).await,
                    Outcome::applied(format!("banned; deleted {days} day(s) of their messages")),
                )
            })
            .await
        }
        (Bot::Telegram(telegram), Action::Ban) => {
            let days = input.delete_message_days.unwrap_or(0);
            let detail = if days > 0 {
                "banned (banChatMember); their messages were revoked"
            } else {
                "banned (banChatMember)"
            };
            result(
                telegram.ban(user, days, reason).await,
                Outcome::applied(detail),
            )
        }

        (Bot::Discord(discord), Action::Unban) => {
            checked(discord.as_ref(), user, Act::Unban, async {
                result(
                    discord.unban(user, reason).await,
                    Outcome::applied("ban lifted"),
                )
            })
            .await
        }
        (Bot::Telegram(telegram), Action::Unban) => result(
            telegram.unban(user, reason).await,
            Outcome::applied("ban lifted (unbanChatMember); they may rejoin"),
        ),

        (Bot::Discord(discord), Action::Jail) => discord_jail(discord.as_ref(), input, cx).await,
        (Bot::Telegram(telegram), Action::Jail) => result(
            telegram.mute(user, cx.until).await,
            Outcome::applied(format!("jailed: muted {until_text}")).with_jail(JailEffect::Jailed {
                saved_roles: Vec::new(),
            }),
        ),
        (Bot::Discord(discord), Action::Unjail) => {
            discord_unjail(discord.as_ref(), input, cx).await
        }
        (Bot::Telegram(telegram), Action::Unjail) => result(
            telegram.unmute(user).await,
            Outcome::applied("released: send permissions restored").with_jail(JailEffect::Released),
        ),
        // The record-only actions were answered by `known_outcome`.
        // Validation keeps the others from getting here: Slack has no jail,
        // and future actions are refused rather than half-done.
        (bot, action) => Outcome::refused(format!(
            "not applied: {action} is not available on {}",
            bot.platform()
        )),
    }
}

/// A platform call's result as an outcome: `done` when it succeeded; a
/// refusal becomes `applied: false` with advice; a failure after which the
/// platform may have carried it out (a 5xx, a lost answer) is never
/// recorded as not applied: the platform is asked ([`Outcome::unconfirmed`]).
fn result(call: Result<(), PlatformError>, done: Outcome) -> Outcome {
    match call {
        Ok(()) => done,
        Err(e) if e.may_have_applied() => Outcome::unconfirmed(e, done),
        Err(e) => Outcome::refused(format!("not applied: {}", e.advice())),
    }
}

/// Reads the hierarchy and checks it before doing anything on Discord, so a
/// refusal names its reason and no doomed request is sent. A failed read
/// changed nothing, so it is a plain refusal.
async fn checked(
    adapter: &dyn DiscordBot,
    user: &str,
    act: Act<'_>,
    call: impl Future<Output = Outcome>,
) -> Outcome {
    match roles_hierarchy(adapter, user, act).await {
        Ok(_) => call.await,
        Err(refusal) => refusal,
    }
}

async fn discord_jail(adapter: &dyn DiscordBot, input: &Checked, cx: &Context<'_>) -> Outcome {
    let Some(jail_role) = cx.config.jail.role_id.as_deref() else {
        return Outcome::refused("not applied: jail.role_id is not set");
    };
    let hierarchy = match roles_hierarchy(
        adapter,
        &input.user_id,
        Act::ChangeRoles {
            granting: Some(jail_role),
        },
    )
    .await
    {
        Ok(h) => h,
        Err(refusal) => return refusal,
    };
    let current: Vec<String> = hierarchy
        .roles_of(&input.user_id)
        .unwrap_or_default()
        .iter()
        .filter(|r| *r != jail_role)
        .cloned()
        .collect();
    // Discord refuses a role list that takes away a role the bot may not
    // (an integration's or the booster role, or one at or above the bot's
    // highest): those stay, and only what is taken is saved, so the unjail
    // gives back exactly that.
    let (saved_roles, kept): (Vec<String>, Vec<String>) = if cx.config.jail.strip_roles {
        current
            .iter()
            .cloned()
            .partition(|r| hierarchy.bot_may_assign(r))
    } else {
        (current.clone(), Vec::new())
    };
    let mut new_roles = if cx.config.jail.strip_roles {
        kept.clone()
    } else {
        current
    };
    new_roles.push(jail_role.to_owned());
    let until = cx
        .until
        .map_or_else(|| "until unjailed".to_owned(), |t| format!("until {t}"));
    let saved = saved_roles.len();
    let kept_note = if kept.is_empty() {
        String::new()
    } else {
        format!(
            "; kept {} role(s) the bot may not take away (managed by Discord or an integration, or not below the bot's highest role): {}",
            kept.len(),
            kept.join(", ")
        )
    };
    let done = Outcome::applied(format!(
        "jailed {until}: {saved} role(s) saved, jail role given{kept_note}"
    ))
    .with_jail(JailEffect::Jailed { saved_roles });
    result(
        adapter
            .set_roles(&input.user_id, &new_roles, input.reason.as_deref())
            .await,
        done,
    )
}

async fn discord_unjail(adapter: &dyn DiscordBot, input: &Checked, cx: &Context<'_>) -> Outcome {
    let jail_role = cx.config.jail.role_id.as_deref();
    let hierarchy =
        match roles_hierarchy(adapter, &input.user_id, Act::ChangeRoles { granting: None }).await {
            Ok(h) => h,
            Err(refusal) if refusal.detail.contains("not a member") => {
                return Outcome::refused(
                    "the member is no longer in the server; the jail was closed",
                )
                .with_jail(JailEffect::Released);
            }
            Err(refusal) => return refusal,
        };
    let saved = cx.jail.map(|j| j.saved_roles.clone()).unwrap_or_default();
    // What they have now (minus the jail role) stays: the roles the jail
    // kept (managed, above the bot) and any given since. The saved roles
    // are added back, except those the bot can no longer give (deleted, or
    // moved to or above its highest role, or now managed): Discord would
    // refuse the whole list for one of them.
    let mut restored: Vec<String> = hierarchy
        .roles_of(&input.user_id)
        .unwrap_or_default()
        .iter()
        .filter(|r| Some(r.as_str()) != jail_role)
        .cloned()
        .collect();
    let mut given = 0;
    let mut not_given = Vec::new();
    if cx.config.jail.strip_roles {
        for role in saved {
            if restored.contains(&role) {
                continue;
            }
            if hierarchy.bot_may_assign(&role) {
                restored.push(role);
                given += 1;
            } else {
                not_given.push(role);
            }
        }
    } else {
        given = restored.len();
    }
    let not_given_note = if not_given.is_empty() {
        String::new()
    } else {
        format!(
            "; not given back, the bot may no longer give them (deleted, managed, or not below its highest role): {}",
            not_given.join(", ")
        )
    };
    result(
        adapter
            .set_roles(&input.user_id, &restored, input.reason.as_deref())
            .await,
        Outcome::applied(format!(
            "released: {given} role(s) restored{not_given_note}"
        ))
        .with_jail(JailEffect::Released),
    )
}

/// The hierarchy, checked for `act`; `Err` is the outcome to record instead.
async fn roles_hierarchy(
    adapter: &dyn DiscordBot,
    user: &str,
    act: Act<'_>,
) -> Result<Hierarchy, Outcome> {
    let refused = |why: String| Outcome::refused(format!("not applied: {why}"));
    let hierarchy = adapter
        .hierarchy(user)
        .await
        .map_err(|e| refused(e.advice()))?;
    hierarchy.check(act).map_err(refused)?;
    Ok(hierarchy)
}

async fn post_to_modlog(adapter: &dyn SlackBot, input: &Checked, cx: &Context<'_>) -> Outcome {
    let noun = if input.action == Action::Note {
        "Note"
    } else {
        "Warning"
    };
    let Some(channel) = cx.config.general.modlog_channel_id.as_deref() else {
        return Outcome::recorded(
            "case recorded; not written to the mod-log: no mod-log channel is set (general.modlog_channel_id)",
        );
    };
    let text = format!(
        "{noun} for <@{user}>: {reason}",
        user = input.user_id,
        reason = input.reason.as_deref().unwrap_or("no reason given")
    );
    let done = Outcome::applied("case recorded and written to the mod-log");
    match adapter.post(channel, &Post::text(text)).await {
        Ok(()) => done,
        // Posted or not, nobody can tell from here: the case says what to check.
        Err(e) if e.may_have_applied() => Outcome::unconfirmed(e, done),
        Err(e) => Outcome::recorded(format!(
            "case recorded; not written to the mod-log: {}",
            e.advice()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outcome known without a call is one that changed nothing on the
    /// platform, so recovery may settle such a case again from scratch; and
    /// an unconnected server's outcome is always known.
    #[test]
    fn known_outcomes_are_those_that_touch_no_platform() {
        for platform in Platform::ALL {
            for action in Action::ALL {
                let known = known_outcome(platform, "s", action, true);
                if known.is_some() {
                    assert!(!touches_platform(platform, action), "{platform} {action}");
                }
                let refused = known_outcome(platform, "s", action, false).unwrap();
                assert!(!refused.applied && refused.detail.contains("not connected"));
            }
        }
        assert_eq!(
            known_outcome(Platform::Discord, "s", Action::Warn, true),
            Some(Outcome::applied("warning recorded"))
        );
        assert_eq!(
            known_outcome(Platform::Discord, "s", Action::Ban, true),
            None
        );
        assert_eq!(
            known_outcome(Platform::Slack, "s", Action::Warn, true),
            None
        );
    }
}
