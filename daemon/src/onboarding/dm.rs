//! The DM item (issue #25): when `moderation.dm_on_action` is on, what
//! becomes of the DM telling a member about their case on this platform,
//! so a team is not surprised by the `dm` outcome its cases record
//! (`crate::moderation::dm`, whose behaviour table decides it):
//!
//! - Discord: sent by the bot, before a kick or a ban (afterwards it shares
//!   no server with the member), after the other actions; a member who
//!   turned off DMs from server members is `failed` (Discord's 50007,
//!   discord-docs/opcodes-and-status-codes.mdx) and the action goes ahead.
//! - Slack: opened with `conversations.open` (the bot needs `im:write`,
//!   slack-web-openapi.json) and posted there, after each action.
//! - Telegram: `not_possible`: a bot cannot start a conversation, only
//!   answer one the member started, so every case records it; the fix is to
//!   turn `dm_on_action` off, which says so once instead of on every case.
//!
//! When `dm_on_action` is off there is no item: nothing is sent, and each
//! case says `off`.

use modctl_types::Platform;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};

use super::items::{Inputs, done, item};
use crate::moderation::behaviour::TELEGRAM_NO_DM;

const ID: &str = "dm_on_action";
const TITLE: &str = "DMs to members about their cases";

/// The DM item of the server, when `moderation.dm_on_action` is on.
pub(super) fn items(inputs: &Inputs<'_>) -> Option<OnboardingItem> {
    if !inputs.store.sections.moderation.dm_on_action {
        return None;
    }
    Some(match inputs.server.platform {
        Platform::Discord => done(
            ID,
            TITLE,
            "sent by the bot before a kick or a ban, after the other actions; a member who does not accept DMs from server members gets none (the case's dm is `failed`) and the action goes ahead",
        ),
        Platform::Slack => done(
            ID,
            TITLE,
            "sent by the bot after each action, in a direct message it opens with conversations.open (the app needs the im:write scope; without it the case's dm is `failed` and the action goes ahead)",
        ),
        Platform::Telegram => item(
            ID,
            TITLE,
            ItemStatus::Warning,
            format!("never sent: {TELEGRAM_NO_DM}; every case records its dm as `not_possible`"),
            Some(format!(
                "to stop asking for DMs Telegram cannot send: `modctl config set {} moderation.dm_on_action false`",
                inputs.server.id
            )),
        ),
        other => crate::platform::new_platform(other),
    })
}
