//! Applying structure to a server (issue #10's restore): creating the roles,
//! channels, overwrites and user groups a snapshot has and the server lacks,
//! and setting Telegram's group settings.
//!
//! A capability of its own, [`StructureWriter`], like
//! [`super::StructureReader`]: only the restore job creates structure. The
//! primitives are the platforms' own (one request each, as far as the
//! platform allows), so the job decides the order and records each outcome
//! before the next call; a platform without a primitive keeps the default,
//! which reports [`PlatformError::Unsupported`] and fails that item only.
//!
//! Every input is already remapped by the job: a channel's `parent_id` and
//! an overwrite's role are the *live* ids, never the snapshot's.

use async_trait::async_trait;
use modctl_types::snapshot::{
    DiscordChannel, DiscordRole, PermissionOverwrite, SlackChannel, SlackUserGroup,
    TelegramPermissions,
};

use super::{PlatformError, PlatformResult};

/// Where the bot stands on a Discord server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotStanding {
    /// The position of its highest role: it can create and manage roles
    /// only below it.
    pub top_position: i64,
    /// The permissions it holds: a role it creates gets no others.
    pub permissions: u64,
}

/// Discord's limits on a guild.
pub const MAX_ROLES: usize = 250;
/// See [`MAX_ROLES`].
pub const MAX_CHANNELS: usize = 500;

/// Creates structure on a server. Each method is one change; the answer is
/// the new item's live id where there is one.
#[async_trait]
pub trait StructureWriter: Send + Sync + std::fmt::Debug {
    /// Discord: where the bot stands (its highest role's position and its
    /// guild permissions). `None` on platforms without roles.
    async fn bot_standing(&self) -> PlatformResult<Option<BotStanding>> {
        Ok(None)
    }

    /// Discord: creates `role` with exactly the permissions given (the job
    /// clamps them to the bot's); answers its id. Discord puts it at the
    /// bottom; [`StructureWriter::position_roles`] moves it.
    async fn create_role(&self, _role: &DiscordRole, _reason: &str) -> PlatformResult<String> {
        Err(PlatformError::Unsupported("creating roles"))
    }

    /// Discord: sets the positions of these roles (`(id, position)`) in one
    /// call.
    async fn position_roles(
        &self,
        _positions: &[(String, i64)],
        _reason: &str,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("moving roles"))
    }

    /// Discord: creates `channel` (its type, name, topic, flags, parent and
    /// position; its overwrites are put one by one afterwards); answers its id.
    async fn create_channel(
        &self,
        _channel: &DiscordChannel,
        _reason: &str,
    ) -> PlatformResult<String> {
        Err(PlatformError::Unsupported("creating channels"))
    }

    /// Discord: sets the topic of `channel` (after the channels a topic
    /// mentions were created).
    async fn set_channel_topic(
        &self,
        _channel: &str,
        _topic: &str,
        _reason: &str,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("setting channel topics"))
    }

    /// Discord: puts `overwrite` on `channel` (creating or replacing it).
    async fn put_overwrite(
        &self,
        _channel: &str,
        _overwrite: &PermissionOverwrite,
        _reason: &str,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("permission overwrites"))
    }

    /// Slack: creates `channel` with its topic and purpose; answers its id.
    /// A channel of that name already there is taken as the one wanted.
    async fn create_conversation(&self, _channel: &SlackChannel) -> PlatformResult<String> {
        Err(PlatformError::Unsupported("creating conversations"))
    }

    /// Slack: creates the user group with its default channels (live ids)
    /// and members; answers its id.
    async fn create_user_group(&self, _group: &SlackUserGroup) -> PlatformResult<String> {
        Err(PlatformError::Unsupported("creating user groups"))
    }

    /// Telegram: sets the group's title.
    async fn set_title(&self, _title: &str) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("setting the title"))
    }

    /// Telegram: sets (or, with `None`, clears) the group's description.
    async fn set_description(&self, _description: Option<&str>) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("setting the description"))
    }

    /// Telegram: sets the members' default permissions.
    async fn set_default_permissions(
        &self,
        _permissions: &TelegramPermissions,
    ) -> PlatformResult<()> {
        Err(PlatformError::Unsupported("setting default permissions"))
    }
}
