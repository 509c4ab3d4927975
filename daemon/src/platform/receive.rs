//! Receiving activity from the platforms the way a bot does (issue #12):
//! what each platform offers a bot to learn what members do.
//!
//! Capabilities of their own, [`Gateway`] (Discord) and [`Updates`]
//! (Telegram), implemented by the live adapters alone: only the receivers
//! ([`crate::receive`]) use them. How events reach a bot differs by platform
//! ([`delivery`], one exhaustive decision):
//!
//! - **Discord** pushes them over a gateway websocket; the REST API only
//!   says where the gateway is ([`Gateway::gateway`], `GET /gateway/bot`,
//!   which is also how tests point the session at a local gateway) and
//!   whether the application may ask for message content
//!   ([`Gateway::application_flags`]).
//! - **Telegram** queues them for `getUpdates` long polling, or posts them to
//!   a webhook registered with `setWebhook` ([`Updates`]).
//! - **Slack** posts them to the Events API request URL; nothing to call.
//!
//! The platforms' payloads are decoded into [`crate::events::Event`]s by the
//! pure functions of [`crate::events::decode`], apart from the adapters.

use async_trait::async_trait;
use modctl_types::Platform;
use serde::Deserialize;
use serde_json::value::RawValue;

pub use twilight_model::oauth::ApplicationFlags;

use super::PlatformResult;

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
        _ => super::new_platform(platform),
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

/// Discord's gateway, as the REST API describes it (the live Discord adapter
/// only: the receivers hold it as such, and the simulator's activity comes
/// from the demo).
#[async_trait]
pub trait Gateway: Send + Sync + std::fmt::Debug {
    /// Where the gateway is (`GET /gateway/bot`).
    async fn gateway(&self) -> PlatformResult<GatewayBot>;

    /// The application's flags (`GET /applications/@me`,
    /// discord-docs: "Get Current Application"): whether it has the message
    /// content intent (`GATEWAY_MESSAGE_CONTENT`, or `_LIMITED` below 100
    /// guilds), which the session may ask for only when granted, since
    /// Discord closes a session that asks for a privileged intent it lacks
    /// (4014, "Disallowed intent(s)").
    async fn application_flags(&self) -> PlatformResult<ApplicationFlags>;
}

/// Telegram's update queue (the live Telegram adapter only).
#[async_trait]
pub trait Updates: Send + Sync + std::fmt::Debug {
    /// The updates after `offset`, waiting up to `timeout_secs` for the
    /// first (`getUpdates`, long polling). Each update is returned raw, so
    /// one the daemon cannot read is skipped alone.
    async fn get_updates(
        &self,
        offset: i64,
        timeout_secs: u32,
    ) -> PlatformResult<Vec<Box<RawValue>>>;

    /// Has updates posted to `url` with `secret` in
    /// `X-Telegram-Bot-Api-Secret-Token` (`setWebhook`).
    async fn set_webhook(&self, url: &str, secret: &str) -> PlatformResult<()>;

    /// Removes the webhook, so `getUpdates` works again (`deleteWebhook`;
    /// updates queued meanwhile are kept).
    async fn delete_webhook(&self) -> PlatformResult<()>;
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
