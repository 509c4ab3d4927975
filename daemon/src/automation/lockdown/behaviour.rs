//! What a lockdown asks of each platform, one table (issue #26), like
//! `crate::moderation::behaviour` for actions: the steps of each phase per
//! platform, decided here once and carried out by [`carry`].
//!
//! | phase | Discord | Telegram | Slack |
//! |---|---|---|---|
//! | start | pause invites (`PUT /guilds/{id}/incident-actions` `invites_disabled_until`, `dms_disabled_until` sent back as it was) | replace the primary invite link (`exportChatInviteLink` revokes the old one) | nothing: the log post is the alert |
//! | a member joins | time them out until the end (`communication_disabled_until`) | restrict them until the end (`restrictChatMember` `until_date`) | nothing |
//! | end | enable invites again (`invites_disabled_until: null`) if still paused until the start's value | nothing: restrictions end by their `until_date`; the old link stays revoked | nothing: the log post |

use jiff::{SignedDuration, Timestamp};
use modctl_types::Platform;
use modctl_types::lockdown::Lockdown;

use crate::platform::{Bot, PlatformError, PlatformResult, new_platform};

/// When in a lockdown's life a step is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// It starts.
    Start,
    /// A member joins while it runs.
    Join,
    /// It ends (by itself or by hand).
    End,
}

/// One platform call of a lockdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Discord: invites disabled until the end.
    PauseInvites,
    /// Discord: invites enabled again.
    ResumeInvites,
    /// Discord: the joiner timed out until the end.
    TimeoutJoiner,
    /// Telegram: a new primary invite link, revoking the old one.
    ReplaceInviteLink,
    /// Telegram: the joiner's send permissions taken until the end.
    RestrictJoiner,
}

/// The steps of `phase` on `platform`.
pub fn steps(platform: Platform, phase: Phase) -> &'static [Step] {
    match (platform, phase) {
        (Platform::Discord, Phase::Start) => &[Step::PauseInvites],
        (Platform::Discord, Phase::Join) => &[Step::TimeoutJoiner],
        (Platform::Discord, Phase::End) => &[Step::ResumeInvites],
        (Platform::Telegram, Phase::Start) => &[Step::ReplaceInviteLink],
        (Platform::Telegram, Phase::Join) => &[Step::RestrictJoiner],
        (Platform::Telegram, Phase::End) => &[],
        (Platform::Slack, _) => &[],
        (other, _) => new_platform(other),
    }
}

/// Discord refuses `invites_disabled_until` more than 24 hours ahead
/// (guild.mdx, "Modify Guild Incident Actions"); a minute less, so a
/// platform clock a little behind ours never refuses a day-long lockdown.
pub const MAX_INVITE_PAUSE: SignedDuration = SignedDuration::from_secs(24 * 3600 - 60);

/// Whether a start on `platform` changes the server's own invites, so the
/// own-invites cache (`crate::automation::invites`) is learned again at
/// once: Telegram's new primary link is otherwise "another community's"
/// for up to `invites::REFRESH`.
pub fn start_changes_own_invites(platform: Platform) -> bool {
    match platform {
        Platform::Telegram => true,
        Platform::Discord | Platform::Slack => false,
        other => new_platform(other),
    }
}

/// Until when the start pauses a lockdown's invites: its end, at most
/// [`MAX_INVITE_PAUSE`] after its start. Made from the row alone, so the
/// end knows the value it set (and leaves a pause someone else set since).
pub fn invites_paused_until(lockdown: &Lockdown) -> Timestamp {
    lockdown.ends_at.min(lockdown.started_at + MAX_INVITE_PAUSE)
}

/// Telegram takes an `until_date` less than 30 seconds ahead as "forever"
/// (`restrictChatMember`), so a joiner near a lockdown's end is restricted
/// at least this long.
pub const MIN_RESTRICTION: SignedDuration = SignedDuration::from_secs(60);

/// What the audit logs and the joiner see as the reason.
pub const REASON: &str = "modctl raid lockdown";

/// Carries `step` out for `lockdown` through `bot` at `now`; `user` is the
/// joiner of a [`Phase::Join`] step. Answers what was done, in words for
/// the log and `GET /lockdown`.
pub async fn carry(
    step: Step,
    bot: &Bot,
    lockdown: &Lockdown,
    user: Option<&str>,
    now: Timestamp,
) -> PlatformResult<String> {
    let joiner = || {
        user.ok_or(PlatformError::Invalid(
            "a join step without a member".into(),
        ))
    };
    match (step, bot) {
        (Step::PauseInvites, Bot::Discord(discord)) => {
            let until = invites_paused_until(lockdown);
            discord.pause_invites(until).await?;
            Ok(format!("invites paused until {until}"))
        }
        (Step::ResumeInvites, Bot::Discord(discord)) => {
            if discord
                .resume_invites(invites_paused_until(lockdown))
                .await?
            {
                Ok("invites enabled again".into())
            } else {
                Ok("invites left as they are (paused or enabled since by someone else)".into())
            }
        }
        (Step::TimeoutJoiner, Bot::Discord(discord)) => {
            discord
                .timeout(joiner()?, lockdown.ends_at, Some(REASON))
                .await?;
            Ok(format!("timed out until {}", lockdown.ends_at))
        }
        (Step::ReplaceInviteLink, Bot::Telegram(telegram)) => {
            let link = telegram.replace_invite_link().await?;
            Ok(format!(
                "primary invite link replaced by {link} (the old one revoked)"
            ))
        }
        (Step::RestrictJoiner, Bot::Telegram(telegram)) => {
            let until = lockdown.ends_at.max(now + MIN_RESTRICTION);
            telegram.mute(joiner()?, Some(until)).await?;
            Ok(format!("restricted until {until}"))
        }
        // The table never pairs a step with a platform that lacks it.
        (
            Step::PauseInvites | Step::ResumeInvites | Step::TimeoutJoiner,
            Bot::Telegram(_) | Bot::Slack(_),
        )
        | (Step::ReplaceInviteLink | Step::RestrictJoiner, Bot::Discord(_) | Bot::Slack(_)) => {
            Err(PlatformError::Unsupported("this lockdown step"))
        }
    }
}

/// Carries every step of `phase` out; answers one line of what was done
/// (or refused) per step, and whether all were done. `None`: the platform
/// has no step for it (Slack: an alert only).
pub async fn carry_phase(
    phase: Phase,
    bot: &Bot,
    lockdown: &Lockdown,
    user: Option<&str>,
    now: Timestamp,
) -> Option<(String, bool)> {
    let steps = steps(bot.platform(), phase);
    if steps.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let mut all = true;
    for step in steps {
        match carry(*step, bot, lockdown, user, now).await {
            Ok(done) => lines.push(done),
            Err(e) => {
                all = false;
                lines.push(e.advice());
            }
        }
    }
    Some((lines.join("; "), all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_what_docs_api_md_says() {
        use Phase::*;
        use Step::*;
        let rows: &[(Platform, Phase, &[Step])] = &[
            (Platform::Discord, Start, &[PauseInvites]),
            (Platform::Discord, Join, &[TimeoutJoiner]),
            (Platform::Discord, End, &[ResumeInvites]),
            (Platform::Telegram, Start, &[ReplaceInviteLink]),
            (Platform::Telegram, Join, &[RestrictJoiner]),
            (Platform::Telegram, End, &[]),
            (Platform::Slack, Start, &[]),
            (Platform::Slack, Join, &[]),
            (Platform::Slack, End, &[]),
        ];
        for (platform, phase, want) in rows {
            assert_eq!(steps(*platform, *phase), *want, "{platform:?} {phase:?}");
        }
    }
}
