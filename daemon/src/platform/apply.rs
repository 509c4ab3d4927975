//! Applying structure to a server (issue #10's restore): creating the roles,
//! channels, overwrites and user groups a snapshot has and the server lacks,
//! and setting Telegram's group settings.
//!
//! Capabilities of their own, one per platform ([`WriteGuild`],
//! [`WriteWorkspace`], [`WriteGroup`]), like [`super::StructureReader`]:
//! only the restore job creates structure. The primitives are the
//! platforms' own (one request each, as far as the platform allows), so the
//! job decides the order and records each outcome before the next call. A
//! platform has its writer or not: an item of another platform's snapshot
//! is refused by the job (what the snapshot holds decides, not code).
//!
//! Every input is already remapped by the job: a channel's `parent_id` and
//! an overwrite's role are the *live* ids, never the snapshot's.

use async_trait::async_trait;
use modctl_types::snapshot::{
    DiscordChannel, DiscordRole, PermissionOverwrite, SlackChannel, SlackUserGroup,
    TelegramPermissions,
};

use super::PlatformResult;

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

/// Discord: creates a guild's roles, channels and overwrites. Each method
/// is one change; the answer is the new item's live id where there is one.
#[async_trait]
pub trait WriteGuild: Send + Sync {
    /// Where the bot stands (its highest role's position and its guild
    /// permissions).
    async fn bot_standing(&self) -> PlatformResult<BotStanding>;

    /// Creates `role` with exactly the permissions given (the job clamps
    /// them to the bot's); answers its id. Discord puts it at the bottom;
    /// [`WriteGuild::position_roles`] moves it.
    async fn create_role(&self, role: &DiscordRole, reason: &str) -> PlatformResult<String>;

    /// Sets the positions of these roles (`(id, position)`) in one call.
    async fn position_roles(&self, positions: &[(String, i64)], reason: &str)
    -> PlatformResult<()>;

    /// Creates `channel` (its type, name, topic, flags, parent and position;
    /// its overwrites are put one by one afterwards); answers its id.
    async fn create_channel(
        &self,
        channel: &DiscordChannel,
        reason: &str,
    ) -> PlatformResult<String>;

    /// Sets the topic of `channel` (after the channels a topic mentions
    /// were created).
    async fn set_channel_topic(
        &self,
        channel: &str,
        topic: &str,
        reason: &str,
    ) -> PlatformResult<()>;

    /// Puts `overwrite` on `channel` (creating or replacing it).
    async fn put_overwrite(
        &self,
        channel: &str,
        overwrite: &PermissionOverwrite,
        reason: &str,
    ) -> PlatformResult<()>;
}

/// Slack: creates a workspace's channels and user groups.
#[async_trait]
pub trait WriteWorkspace: Send + Sync {
    /// Creates `channel` with its topic and purpose; answers its id. A
    /// channel of that name already there is taken as the one wanted.
    async fn create_conversation(&self, channel: &SlackChannel) -> PlatformResult<String>;

    /// Creates the user group with its default channels (live ids) and
    /// members; answers its id.
    async fn create_user_group(&self, group: &SlackUserGroup) -> PlatformResult<String>;
}

/// Telegram: sets a group's settings.
#[async_trait]
pub trait WriteGroup: Send + Sync {
    /// Sets the group's title.
    async fn set_title(&self, title: &str) -> PlatformResult<()>;

    /// Sets (or, with `None`, clears) the group's description.
    async fn set_description(&self, description: Option<&str>) -> PlatformResult<()>;

    /// Sets the members' default permissions.
    async fn set_default_permissions(
        &self,
        permissions: &TelegramPermissions,
    ) -> PlatformResult<()>;
}
