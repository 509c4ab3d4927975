//! The platform x action table of antinuke (issue #26): what is counted on
//! each platform, from what, and what is done to whoever goes above a
//! limit. This is the one place that says it (docs/api.md prints it).
//!
//! |                  | discord | telegram | slack |
//! |------------------|---------|----------|-------|
//! | seen from        | audit log (`GUILD_AUDIT_LOG_ENTRY_CREATE`) | `chat_member` updates (a status change to `kicked` and who made it) | Events API `channel_archive` / `group_archive` (with `user`), `channel_deleted` / `group_deleted` (no actor) |
//! | counted          | channel and role deletions, bans/kicks/prunes; webhooks, bots, dangerous grants act at once | bans | archives, per actor (`max_channel_deletions_per_minute`) |
//! | never counted    | owner, bot, `trusted_user_ids`, `trusted_role_ids` | creator, bot, `trusted_user_ids` (no roles) | the app's bot user, `trusted_user_ids` |
//! | above the limit  | `antinuke.action` (strip roles, kick, ban) | demoted (`promoteChatMember`, every right false) when the bot promoted them (`can_be_edited`), else alerted only | alerted only |
//! | a deletion       | counted like the rest | - | alerted each time, no one to count (Slack names no actor) |
//! | case             | the action's (strip roles: a note) | a note saying demoted or why not | none (no one to act on) |
//! | told             | mod log, `antinuke_triggered`, the owner by DM | mod log, `antinuke_triggered` (a bot cannot DM the creator) | mod log, `antinuke_triggered` |
//! | restore          | `antinuke.restore` from the last snapshot | no (a ban is not structure) | no (an archived channel is unarchived by an admin) |
//!
//! "Mod log" is `logging.moderation`, else the mod-log channel. Slack has no
//! audit log without Enterprise Grid, and a bot token can neither
//! deactivate nor demote a workspace admin, so Slack's antinuke only tells
//! the team.

use crate::platform::AdminStanding;

/// What antinuke does to a Telegram administrator whose bans went above
/// the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TelegramResponse {
    /// The bot or the chat's creator: never counted, nothing done.
    Exempt,
    /// An administrator the bot promoted: demoted.
    Demote,
    /// Anyone else: the team is alerted, with why nothing more was done.
    AlertOnly(&'static str),
}

/// The response to `executor` (standing `standing`) in a chat whose bot is
/// `bot_id` (pure).
pub fn telegram(executor: &str, bot_id: &str, standing: AdminStanding) -> TelegramResponse {
    if executor == bot_id {
        return TelegramResponse::Exempt;
    }
    match standing {
        AdminStanding::Owner => TelegramResponse::Exempt,
        AdminStanding::Admin { editable: true } => TelegramResponse::Demote,
        AdminStanding::Admin { editable: false } => TelegramResponse::AlertOnly(
            "not demoted: the bot did not promote them, and Telegram lets a bot demote only the administrators it promoted; the chat's creator can",
        ),
        AdminStanding::Other => {
            TelegramResponse::AlertOnly("not demoted: they are no longer an administrator")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_is_demoted_on_telegram() {
        let alert = |r: &TelegramResponse| matches!(r, TelegramResponse::AlertOnly(_));
        for (executor, standing, expected) in [
            ("9", AdminStanding::Admin { editable: false }, "exempt"),
            ("9", AdminStanding::Admin { editable: true }, "exempt"),
            ("1", AdminStanding::Owner, "exempt"),
            ("2", AdminStanding::Admin { editable: true }, "demote"),
            ("3", AdminStanding::Admin { editable: false }, "alert"),
            ("4", AdminStanding::Other, "alert"),
        ] {
            let got = telegram(executor, "9", standing);
            let name = match &got {
                TelegramResponse::Exempt => "exempt",
                TelegramResponse::Demote => "demote",
                r if alert(r) => "alert",
                _ => unreachable!(),
            };
            assert_eq!(name, expected, "{executor} {standing:?}");
        }
    }
}
