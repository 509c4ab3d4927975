//! A Telegram group's structure: `getChat` (title, description, default
//! permissions, slow mode) and `getChatAdministrators`.

use std::collections::BTreeMap;

use async_trait::async_trait;
use modctl_types::snapshot::{
    StructureContent, TelegramAdministrator, TelegramPermissions, TelegramStructure,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Telegram;
use crate::platform::PlatformResult;
use crate::platform::structure::{StructureReader, payload};

/// `ChatFullInfo` as Telegram sends it for a group: `permissions` is there
/// for every group and supergroup, so a chat without it is refused.
#[derive(Debug, Deserialize)]
struct ChatPayload {
    title: String,
    #[serde(default)]
    description: Option<String>,
    permissions: TelegramPermissions,
    #[serde(default)]
    slow_mode_delay: Option<u32>,
}

/// A `ChatMember` of `getChatAdministrators`: the `can_*` rights are read
/// from the remaining fields.
#[derive(Debug, Deserialize)]
struct AdministratorPayload {
    status: String,
    user: UserPayload,
    #[serde(default)]
    custom_title: Option<String>,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Debug, Deserialize)]
struct UserPayload {
    id: i64,
    is_bot: bool,
    first_name: String,
    #[serde(default)]
    username: Option<String>,
}

#[async_trait]
impl StructureReader for Telegram {
    async fn read_structure(&self) -> PlatformResult<StructureContent> {
        let chat = json!({ "chat_id": self.chat_id });
        let info: ChatPayload = payload(
            self.call("getChat", chat.clone()).await?,
            "chat from Telegram",
        )?;
        let admins: Vec<AdministratorPayload> = payload(
            self.call("getChatAdministrators", chat).await?,
            "chat administrators from Telegram",
        )?;
        let mut administrators: Vec<TelegramAdministrator> = admins
            .into_iter()
            .map(|admin| TelegramAdministrator {
                user_id: admin.user.id.to_string(),
                first_name: admin.user.first_name,
                username: admin.user.username,
                is_bot: admin.user.is_bot,
                status: admin.status,
                custom_title: admin.custom_title,
                // BTreeMap: already sorted.
                rights: admin
                    .rest
                    .into_iter()
                    .filter(|(name, value)| name.starts_with("can_") && *value == Value::Bool(true))
                    .map(|(name, _)| name)
                    .collect(),
            })
            .collect();
        administrators.sort_by(|a, b| a.user_id.cmp(&b.user_id));
        Ok(StructureContent::Telegram(TelegramStructure {
            title: info.title,
            description: info.description,
            default_permissions: info.permissions,
            slow_mode_delay: info.slow_mode_delay,
            administrators,
        }))
    }
}
