//! Telegram updates as a source of events: `getUpdates` (long polling),
//! `setWebhook` / `deleteWebhook`. The updates are decoded by
//! [`crate::events::decode::telegram`].

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::{Telegram, read};
use crate::platform::receive::Updates;
use crate::platform::structure::payload;
use crate::platform::{PlatformError, PlatformResult};

#[async_trait]
impl Updates for Telegram {
    async fn get_updates(&self, offset: i64, timeout_secs: u32) -> PlatformResult<Vec<Value>> {
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
                "allowed_updates": ["message"],
            }))
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
        payload(read(response, &self.secrets).await?, "answer to getUpdates")
    }

    async fn set_webhook(&self, url: &str, secret: &str) -> PlatformResult<()> {
        // The secret token is sent: an answer quoting it must not keep it.
        self.call_redacting(
            "setWebhook",
            json!({"url": url, "secret_token": secret, "allowed_updates": ["message"]}),
            &self.secrets.with([secret]),
        )
        .await
        .map(drop)
    }

    async fn delete_webhook(&self) -> PlatformResult<()> {
        self.call("deleteWebhook", json!({})).await.map(drop)
    }
}
