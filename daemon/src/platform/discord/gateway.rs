//! The Discord gateway as a source of events: `GET /gateway/bot`, which says
//! where the gateway is, and the application's flags, which say whether the
//! message-content intent may be asked for. The session itself (heartbeats, identify, resume,
//! reconnect) is twilight-gateway's, run by [`crate::receive::gateway`]; its
//! dispatches are decoded by [`crate::events::decode::discord`].

use async_trait::async_trait;
use reqwest::Method;
use serde::Deserialize;

use super::Discord;
use crate::platform::PlatformResult;
use crate::platform::receive::{ApplicationFlags, Gateway, GatewayBot};
use crate::platform::structure::payload;

#[async_trait]
impl Gateway for Discord {
    async fn gateway(&self) -> PlatformResult<GatewayBot> {
        let body = self.call(Method::GET, "/gateway/bot", None, None).await?;
        payload(body, "answer to GET /gateway/bot")
    }

    /// `GET /applications/@me` answers the application object
    /// (discord-openapi.json, `get_my_application`), whose `flags` include
    /// `GATEWAY_MESSAGE_CONTENT` (1 << 18) and `_LIMITED` (1 << 19). Bits
    /// twilight does not name are kept (`from_bits_retain`).
    async fn application_flags(&self) -> PlatformResult<ApplicationFlags> {
        #[derive(Deserialize)]
        struct Application {
            // Required in the spec's `PrivateApplicationResponse`.
            flags: u64,
        }
        let body = self
            .call(Method::GET, "/applications/@me", None, None)
            .await?;
        let application: Application = payload(body, "answer to GET /applications/@me")?;
        Ok(ApplicationFlags::from_bits_retain(application.flags))
    }
}
