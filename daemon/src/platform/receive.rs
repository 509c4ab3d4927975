//! Receiving activity from the platforms the way a bot does (issue #12):
//! what each platform offers a bot to learn what members do.
//!
//! A capability of its own, [`EventSource`], like [`super::StructureReader`]
//! and [`super::StructureWriter`]: only the receivers ([`crate::receive`])
//! use it. How events reach a bot differs by platform ([`delivery`], one
//! exhaustive decision):
//!
//! - **Discord** pushes them over a gateway websocket; the REST API only
//!   says where the gateway is ([`EventSource::gateway`], `GET /gateway/bot`,
//!   which is also how tests point the session at a local gateway).
//! - **Telegram** queues them for `getUpdates` long polling, or posts them to
//!   a webhook registered with `setWebhook`.
//! - **Slack** posts them to the Events API request URL; nothing to call.
//!
//! The platforms' payloads are decoded into [`crate::events::Event`]s by the
//! pure functions of [`crate::events::decode`], apart from the adapters.

use async_trait::async_trait;
use modctl_types::Platform;
use serde::Deserialize;
use serde_json::Value;

use super::{PlatformError, PlatformResult};

/// How a platform delivers events to a bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Delivery {
    /// A websocket session per bot token (Discord's gateway).
    Gateway,
    /// Long polling per bot token, or a webhook (Telegram).
    Updates,
    /// The platform posts to the daemon's hook; nothing to start (Slack).
    Pushed,
}

/// How `platform` delivers events to a bot.
pub fn delivery(platform: Platform) -> Delivery {
    match platform {
        Platform::Discord => Delivery::Gateway,
        Platform::Telegram => Delivery::Updates,
        Platform::Slack => Delivery::Pushed,
        // `Platform` is non-exhaustive for other crates only; a new platform
        // must be added above, and until then nothing is started for it.
        _ => Delivery::Pushed,
    }
}

/// `GET /gateway/bot`: where to connect and how many shards Discord wants.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GatewayBot {
    /// The gateway's websocket URL, e.g. `wss://gateway.discord.gg`.
    pub url: String,
    /// The recommended number of shards.
    pub shards: u32,
    /// How many sessions the bot may still start today.
    pub session_start_limit: SessionStartLimit,
}

/// The part of `session_start_limit` the daemon heeds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SessionStartLimit {
    /// Session starts left in the current window.
    pub remaining: u32,
    /// Milliseconds until the window resets.
    pub reset_after: u64,
}

/// Receiving events from a platform. Primitives a platform does not have
/// keep the default, which reports [`PlatformError::Unsupported`].
#[async_trait]
pub trait EventSource: Send + Sync + std::fmt::Debug {
    /// Discord: where the gateway is (`GET /gateway/bot`).
    async fn gateway(&self) -> PlatformResult<GatewayBot> {
        Err(PlatformError::Unsupported("the gateway"))
    }

    /// Telegram: the updates after `offset`, waiting up to `timeout_secs`
    /// for the first (`getUpdates`, long polling). Each update is returned
    /// raw, so one the daemon cannot read is skipped alone.
    async fn get_updates(&self, _offset: i64, _timeout_secs: u32) -> PlatformResult<Vec<Value>> {
        Err(PlatformError::Unsupported("getUpdates"))
    }

    /// Telegram: has updates posted to `url` with `secret` in
    /// `X-Telegram-Bot-Api-Secret-Token` (`setWebhook`).
    async fn set_webhook(&self, _url: &str, _secret: &str) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("setWebhook"))
    }

    /// Telegram: removes the webhook, so `getUpdates` works again
    /// (`deleteWebhook`; updates queued meanwhile are kept).
    async fn delete_webhook(&self) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("deleteWebhook"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_platform_has_its_way_of_delivering() {
        assert_eq!(delivery(Platform::Discord), Delivery::Gateway);
        assert_eq!(delivery(Platform::Telegram), Delivery::Updates);
        assert_eq!(delivery(Platform::Slack), Delivery::Pushed);
    }
}
