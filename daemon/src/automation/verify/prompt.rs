//! The prompts a member verifies with: Discord's one verify message per
//! server (kept by [`ensure_prompt`], from a join and from the worker's
//! [`keep_prompts`]), a Telegram newcomer's own prompt in the group, and
//! their removal once a verification is settled.

use modctl_types::config::Welcome;

use super::{BUTTON_LABEL, CUSTOM_ID, TELEGRAM_PREFIX, Verifying};
use crate::automation::automod::act::hit::connect;
use crate::events::MemberRef;
use crate::moderation;
use crate::platform::{Bot, Buttons, Post};
use crate::store::{StoreError, verifications};

impl Verifying {
    /// Telegram: restricts the newcomer until verified
    /// (`restrictChatMember`, every send permission off) and posts their
    /// prompt in the group, its button naming them, recorded to delete once
    /// settled; with `captcha`, the prompt is the captcha's keypad.
    pub(super) async fn prompt_telegram(
        &self,
        telegram: &dyn crate::platform::TelegramBot,
        server_id: &str,
        member: &MemberRef,
        captcha: bool,
    ) -> Result<(), PromptError> {
        let cx = &self.moderation;
        telegram.mute(&member.id, None).await?;
        if captcha {
            return self
                .prompt_telegram_captcha(telegram, server_id, member)
                .await;
        }
        let name = member
            .display_name
            .as_deref()
            .map_or_else(|| "New member".to_owned(), |n| n.to_owned());
        let post = Post::text(format!(
            "{name}, welcome! Press the button below within the time given to verify that you are a person; until then you cannot send messages here."
        ))
        .titled("Verification");
        let data = telegram_callback_data(&member.id);
        let message = telegram
            .post_inline_button(&post, BUTTON_LABEL, &data)
            .await?;
        let (server, user) = (server_id.to_owned(), member.id.clone());
        cx.store
            .write(move |tx| verifications::set_prompt(tx, &server, &user, &server, &message))
            .await?;
        Ok(())
    }
}

/// Deletes a settled member's own prompt (Telegram), if it has one; one
/// already gone is fine.
pub(super) async fn remove_prompt(bot: &Bot, pending: &verifications::Pending) {
    let (Some(channel), Some(message)) = (&pending.prompt_channel_id, &pending.prompt_message_id)
    else {
        return;
    };
    match bot
        .deleter()
        .delete_message(channel, message, Some("modctl: verification settled"))
        .await
    {
        Ok(()) | Err(crate::platform::PlatformError::NotFound(_)) => {}
        Err(e) => {
            tracing::warn!(server = %pending.server_id, error = %e, "verification could not delete a prompt")
        }
    }
}

/// The `callback_data` of `user`'s Telegram prompt: [`TELEGRAM_PREFIX`]
/// and the member (at most 64 bytes: a user id has at most 20 digits).
pub fn telegram_callback_data(user: &str) -> String {
    format!("{TELEGRAM_PREFIX}{user}")
}

/// Makes sure `server_id`'s verify message is in its channel: the stored
/// one if it is still there, else a new one, recorded. Answers whether it
/// posted one.
pub async fn ensure_prompt(
    cx: &moderation::Context,
    buttons: &dyn Buttons,
    server_id: &str,
    welcome: &Welcome,
) -> Result<bool, PromptError> {
    let Some(channel) = welcome
        .verify_channel_id
        .clone()
        .or_else(|| welcome.channel_id.clone())
    else {
        return Err(PromptError::NoChannel);
    };
    let server = server_id.to_owned();
    let stored = cx
        .store
        .read(move |tx| verifications::verify_message(tx, &server))
        .await?;
    if let Some((stored_channel, message)) = stored
        && stored_channel == channel
        && buttons.message_exists(&channel, &message).await?
    {
        return Ok(false);
    }
    let post = Post::text(
        "New here? Press the button below to verify that you are a person and get access to the server.",
    )
    .titled("Verification");
    let message = buttons
        .post_button(&channel, &post, BUTTON_LABEL, CUSTOM_ID)
        .await?;
    let (server, now) = (server_id.to_owned(), cx.clock.now_unix());
    cx.store
        .write(move |tx| verifications::set_verify_message(tx, &server, &channel, &message, now))
        .await?;
    Ok(true)
}

/// Why the verify message could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// Neither channel is set.
    #[error(
        "no channel for the verify message: set welcome.verify_channel_id or welcome.channel_id"
    )]
    NoChannel,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The platform refused or failed.
    #[error("{}", .0.advice())]
    Platform(#[from] crate::platform::PlatformError),
}

/// Keeps the verify message of every connected Discord server that
/// verifies with a button (re-posted when deleted, moved when the channel
/// changed); answers how many it posted.
pub async fn keep_prompts(verifying: &Verifying) -> Result<usize, StoreError> {
    let cx = &verifying.moderation;
    let servers = cx
        .store
        .read(crate::store::native_rules::connected_discord)
        .await?;
    let mut posted = 0;
    for (server_id, _) in servers {
        let Some(welcome) = verifying.verifying(&server_id).await else {
            continue;
        };
        let Ok(Some(connected)) = connect(cx, &server_id).await else {
            continue;
        };
        let Some(buttons) = connected.bot.buttons() else {
            continue;
        };
        let _one = verifying.prompts.lock().await;
        match ensure_prompt(cx, buttons, &server_id, &welcome).await {
            Ok(true) => posted += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(server = %server_id, error = %e, "verification could not keep its verify message")
            }
        }
    }
    Ok(posted)
}
