//! The Discord gateway as a source of events: `GET /gateway/bot`, which says
//! where the gateway is. The session itself (heartbeats, identify, resume,
//! reconnect) is twilight-gateway's, run by [`crate::receive::gateway`]; its
//! dispatches are decoded by [`crate::events::decode::discord`].

use async_trait::async_trait;
use reqwest::Method;

use super::Discord;
use crate::platform::PlatformResult;
use crate::platform::receive::{EventSource, GatewayBot};
use crate::platform::structure::payload;

#[async_trait]
impl EventSource for Discord {
    async fn gateway(&self) -> PlatformResult<GatewayBot> {
        let body = self.call(Method::GET, "/gateway/bot", None, None).await?;
        payload(body, "answer to GET /gateway/bot")
    }
}
