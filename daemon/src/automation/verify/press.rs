//! A press of the verify button: the member with a pending verification
//! is claimed verified (conditionally, so the deadline's kick and the press
//! settle the row once), given what verification gives on their platform,
//! and answered the platform's way; anyone else is refused politely.

use std::sync::Arc;

use modctl_types::config::{Verification, Welcome};

use super::prompt::remove_prompt;
use super::{TELEGRAM_PREFIX, Verifying};
use crate::automation::automod::act::hit::{Connected, connect};
use crate::events::{ButtonPress, PressReply};
use crate::platform::{Bot, Post};
use crate::store::verifications;

impl Verifying {
    /// A member pressed the verify button.
    pub(super) async fn pressed(&self, server_id: Arc<str>, press: ButtonPress) {
        let cx = &self.moderation;
        let connected = match connect(cx, &server_id).await {
            Ok(Some(connected)) => connected,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not read the server's connection");
                return;
            }
        };
        let welcome = self.verifying(&server_id).await;
        // A captcha server's verify button shows the member their
        // challenge instead (Discord, and Slack below: the image in the DM;
        // Telegram's captcha prompt is a keypad, docs/api.md).
        if let (Bot::Discord(discord), PressReply::Discord { id, token }, Some(w)) =
            (&connected.bot, &press.reply, &welcome)
            && w.verification == Verification::Captcha
        {
            self.discord_challenge(
                discord.as_ref(),
                &server_id,
                &press.user_id,
                (id, token),
                false,
            )
            .await;
            return;
        }
        if let (Bot::Slack(slack), PressReply::Slack { .. }, Some(w)) =
            (&connected.bot, &press.reply, &welcome)
            && w.verification == Verification::Captcha
        {
            self.slack_challenge(slack.as_ref(), &server_id, &press.user_id, false)
                .await;
            return;
        }
        // Telegram's button names the member it was posted for: anyone
        // else pressing it is refused, politely, in an alert.
        let named = press.custom_id.strip_prefix(TELEGRAM_PREFIX);
        let (answer, alert) = match (named, welcome) {
            (Some(named), _) if named != press.user_id => (
                "Sorry, this button is for the new member it greets: it does nothing for you."
                    .to_owned(),
                true,
            ),
            (_, Some(welcome)) => (
                self.verify(&connected, &welcome, &press.user_id).await,
                false,
            ),
            (_, None) => (
                "Verification is not on in this server: there is nothing to verify.".to_owned(),
                false,
            ),
        };
        let answered = match (&connected.bot, &press.reply) {
            (Bot::Discord(discord), PressReply::Discord { id, token }) => {
                discord.answer_press(id, token, &answer).await
            }
            (Bot::Telegram(telegram), PressReply::Telegram { query_id }) => {
                telegram.answer_callback(query_id, &answer, alert).await
            }
            // Slack's interactivity request was answered already (an empty
            // 200): the member is told in the DM.
            (Bot::Slack(slack), PressReply::Slack { .. }) => {
                slack
                    .direct_message(&press.user_id, &Post::text(answer.clone()))
                    .await
            }
            // A press decoded from one platform's payload for a server
            // connected to another cannot be answered through this bot (a
            // decoder or routing bug): said in the log rather than dropped.
            (
                Bot::Discord(_),
                PressReply::Telegram { .. } | PressReply::Slack { .. } | PressReply::SlackView(_),
            )
            | (
                Bot::Telegram(_),
                PressReply::Discord { .. } | PressReply::Slack { .. } | PressReply::SlackView(_),
            )
            | (
                Bot::Slack(_),
                PressReply::Discord { .. } | PressReply::Telegram { .. } | PressReply::SlackView(_),
            ) => {
                tracing::warn!(server = %server_id, platform = %connected.bot.platform().as_str(), "verification got a press whose reply is for another platform: it is not answered");
                Ok(())
            }
        };
        if let Err(e) = answered {
            tracing::warn!(server = %server_id, error = %e, "verification could not answer a press");
        }
    }

    /// Verifies `user` if they are pending: what to answer them.
    pub(super) async fn verify(
        &self,
        connected: &Connected,
        welcome: &Welcome,
        user: &str,
    ) -> String {
        let cx = &self.moderation;
        let (server, who) = (connected.server.id.clone(), user.to_owned());
        let found = cx
            .store
            .read(move |tx| verifications::get(tx, &server, &who))
            .await;
        let pending = match found {
            Ok(Some(p)) if p.state == "pending" => p,
            Ok(Some(p)) if p.state == "verified" => {
                return "You are verified already: welcome!".to_owned();
            }
            Ok(_) => {
                return "There is nothing for you to verify here: this button is for members who have just joined.".to_owned();
            }
            Err(e) => {
                tracing::warn!(server = %connected.server.id, error = %e, "verification could not read a pending verification");
                return "Verification failed on our side: please press the button again in a minute.".to_owned();
            }
        };
        // Claim the row first (pending -> verified, conditional): the kick
        // worker settles it `kicked` in its case's transaction only while it
        // is pending, so exactly one of the press and the kick wins, and a
        // member the kick won against is never told they are verified.
        let (server, who, now) = (
            connected.server.id.clone(),
            user.to_owned(),
            cx.clock.now_unix(),
        );
        let claimed = cx
            .store
            .write(move |tx| verifications::settle(tx, &server, &who, "verified", now, None))
            .await;
        match claimed {
            Ok(true) => {}
            Ok(false) => {
                return "Your time to verify ran out before this press: ask a moderator to let you back in.".to_owned();
            }
            Err(e) => {
                tracing::warn!(server = %connected.server.id, error = %e, "verification could not record a verification");
                return "Verification failed on our side: please press the button again in a minute.".to_owned();
            }
        }
        // Telegram: the join's restriction and a moderator's mute are one
        // restriction there; lifting it for a member a moderator timed out
        // or jailed meanwhile would undo the moderator's.
        let held = match &connected.bot {
            Bot::Telegram(_) => {
                let (server, who, now) = (
                    connected.server.id.clone(),
                    user.to_owned(),
                    cx.clock.now_unix(),
                );
                cx.store
                    .read(move |tx| held_by_moderator(tx, &server, &who, now))
                    .await
                    .unwrap_or_else(|e| {
                        tracing::warn!(server = %connected.server.id, error = %e, "verification could not read a member's mutes: leaving them restricted");
                        true
                    })
            }
            Bot::Discord(_) | Bot::Slack(_) => false,
        };
        if let Err(e) = grant(&connected.bot, welcome, user, held).await {
            tracing::warn!(server = %connected.server.id, user, error = %e, "verification could not give the verified role");
            // Back to pending, so the press can be tried again and the
            // deadline still applies.
            let (server, who) = (connected.server.id.clone(), user.to_owned());
            let reopened = cx
                .store
                .write(move |tx| verifications::reopen(tx, &server, &who))
                .await;
            if let Err(e) = reopened {
                tracing::warn!(server = %connected.server.id, user, error = %e, "verification could not put a failed verification back to pending");
            }
            return format!(
                "You could not be verified: {}. Please tell a moderator.",
                e.advice()
            );
        }
        remove_prompt(&connected.bot, &pending).await;
        if held {
            return "You are verified, but a moderator's mute still applies: you can send messages once it ends.".to_owned();
        }
        "You are verified: welcome!".to_owned()
    }
}

/// The roles a verified member gets: `verified_role_id`, then
/// `auto_role_ids` (issue #26: given "once verified" when verification is
/// on).
pub fn roles_once_verified(welcome: &Welcome) -> Vec<String> {
    let mut roles: Vec<String> = welcome.verified_role_id.iter().cloned().collect();
    for role in &welcome.auto_role_ids {
        if !roles.contains(role) {
            roles.push(role.clone());
        }
    }
    roles
}

/// Whether a moderator's timeout or jail of `user` is in force at `now`
/// (active cases: a timeout not yet expired, a jail not yet released).
fn held_by_moderator(
    tx: &crate::store::Tx<'_>,
    server_id: &str,
    user_id: &str,
    now: i64,
) -> Result<bool, crate::store::StoreError> {
    Ok(
        crate::store::cases::timeout_in_force_until(tx, server_id, user_id, now)?.is_some()
            || crate::store::jails::find(tx, server_id, user_id)?.is_some(),
    )
}

/// Gives `user` what verification gives on the platform; `held`: a
/// moderator's mute is in force (Telegram then stays restricted).
async fn grant(
    bot: &Bot,
    welcome: &Welcome,
    user: &str,
    held: bool,
) -> Result<(), crate::platform::PlatformError> {
    match bot {
        // One "Add Guild Member Role" per role (a PUT of that role alone):
        // the member's other roles are not sent, so a role given or taken
        // by someone else meanwhile is not undone, as a PATCH of the whole
        // list read a moment before would. A PUT of a role they have
        // already changes nothing.
        Bot::Discord(discord) => {
            for role in roles_once_verified(welcome) {
                discord
                    .add_role(user, &role, Some("modctl: verified"))
                    .await?;
            }
            Ok(())
        }
        // The restriction of the join lifted: every permission given back,
        // which leaves the member with the group's defaults (Telegram
        // gives a member no more than the group allows).
        Bot::Telegram(_) if held => Ok(()),
        Bot::Telegram(telegram) => telegram.unmute(user).await,
        // Slack: `auto_role_ids` are user groups (`verified_role_id` has no
        // meaning there), each keeping its other members.
        Bot::Slack(slack) => {
            for group in &welcome.auto_role_ids {
                slack.join_user_group(group, user).await?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_member_gets_the_verified_role_then_the_auto_roles_each_once() {
        let welcome = |verified: Option<&str>, auto: &[&str]| Welcome {
            verified_role_id: verified.map(str::to_owned),
            auto_role_ids: auto.iter().map(|r| (*r).to_owned()).collect(),
            ..Welcome::default()
        };
        let s = |v: &[&str]| v.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>();
        let table = [
            (welcome(Some("v"), &[]), s(&["v"])),
            (welcome(Some("v"), &["a", "b"]), s(&["v", "a", "b"])),
            (welcome(Some("v"), &["v", "a"]), s(&["v", "a"])),
            (welcome(None, &["a"]), s(&["a"])),
        ];
        for (w, expected) in table {
            assert_eq!(roles_once_verified(&w), expected, "{w:?}");
        }
    }
}
