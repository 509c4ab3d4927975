//! Telegram updates as a source of events: `getUpdates` (long polling),
//! `setWebhook` / `deleteWebhook`. The updates are decoded by
//! [`crate::events::decode::telegram`].

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{Telegram, interpret, read_text};
use crate::platform::receive::Updates;
use crate::platform::{PlatformError, PlatformResult};

/// The update types the daemon asks for (getUpdates and setWebhook
/// `allowed_updates`): members' messages, presses of the bot's inline
/// buttons (issue #26's verification), and members' status changes
/// (`chat_member`: bans, which antinuke counts per administrator, issue
/// #26). telegram-bot-api.json, getUpdates `allowed_updates`: `chat_member`
/// is not sent by default, only when listed, and only to a bot that is an
/// administrator of the chat.
pub const ALLOWED_UPDATES: [&str; 3] = ["message", "callback_query", "chat_member"];

#[async_trait]
impl Updates for Telegram {
    async fn get_updates(
        &self,
        offset: i64,
        timeout_secs: u32,
    ) -> PlatformResult<Vec<Box<RawValue>>> {
        // Not through the retry policy: the poller itself is the retry, and
        // the long poll needs a longer time limit than other calls.
        let url = format!("{}/bot{}/getUpdates", self.base, self.token);
        let response = self
            .clients
            .http
            .post(&url)
            .timeout(Duration::from_secs(u64::from(timeout_secs) + 10))
            .json(&json!({
                "offset": offset,
                "timeout": timeout_secs,
                // `callback_query`: presses of the verify button;
                // `chat_member`: bans for antinuke (issue #26).
                "allowed_updates": ALLOWED_UPDATES,
            }))
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
        let (status, text) = read_text(response, &self.secrets).await?;
        // The updates are kept as their JSON text, each read once by the
        // decoder: not through a `Value` first (the decoders read tens of
        // thousands a second).
        #[derive(Deserialize)]
        struct Answer {
            ok: bool,
            #[serde(default)]
            result: Vec<Box<RawValue>>,
        }
        match serde_json::from_str::<Answer>(&text) {
            Ok(Answer { ok: true, result }) => Ok(result),
            _ => interpret(
                status,
                serde_json::from_str(&text).unwrap_or(Value::Null),
                &self.secrets,
            )
            .and_then(|_| {
                // `ok`, with a result that is not a list of updates.
                Err(PlatformError::Invalid(
                    "unexpected answer to getUpdates: its result is not a list of updates".into(),
                ))
            }),
        }
    }

    async fn set_webhook(&self, url: &str, secret: &str) -> PlatformResult<()> {
        // The secret token is sent: an answer quoting it must not keep it.
        self.call_redacting(
            "setWebhook",
            json!({"url": url, "secret_token": secret, "allowed_updates": ALLOWED_UPDATES}),
            &self.secrets.with([secret]),
        )
        .await
        .map(drop)
    }

    async fn delete_webhook(&self) -> PlatformResult<()> {
        self.call("deleteWebhook", json!({})).await.map(drop)
    }
}
