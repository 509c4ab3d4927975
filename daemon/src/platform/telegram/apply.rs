//! Setting a group's title, description and default permissions for a
//! restore: `setChatTitle`, `setChatDescription`, `setChatPermissions`.

use async_trait::async_trait;
use modctl_types::snapshot::TelegramPermissions;
use serde_json::json;

use super::Telegram;
use crate::platform::PlatformResult;
use crate::platform::apply::WriteGroup;

#[async_trait]
impl WriteGroup for Telegram {
    async fn set_title(&self, title: &str) -> PlatformResult<()> {
        let body = json!({ "chat_id": self.chat_id, "title": title });
        self.call("setChatTitle", body).await.map(drop)
    }

    async fn set_description(&self, description: Option<&str>) -> PlatformResult<()> {
        // An empty description is Telegram's way of clearing it.
        let body = json!({ "chat_id": self.chat_id, "description": description.unwrap_or("") });
        self.call("setChatDescription", body).await.map(drop)
    }

    async fn set_default_permissions(
        &self,
        permissions: &TelegramPermissions,
    ) -> PlatformResult<()> {
        // Independent permissions: what is set is exactly what is given
        // (otherwise Telegram derives some from others).
        let body = json!({
            "chat_id": self.chat_id,
            "permissions": permissions,
            "use_independent_chat_permissions": true,
        });
        self.call("setChatPermissions", body).await.map(drop)
    }
}
