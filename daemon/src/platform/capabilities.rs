//! The platforms' capabilities, one trait each (issue #25).
//!
//! A platform implements a capability or does not: there are no default
//! bodies that fail at run time. What a platform has is written once, in the
//! bounds of [`super::DiscordBot`], [`super::TelegramBot`] and
//! [`super::SlackBot`], and the daemon reaches a platform through the
//! [`super::Bot`] handle, so calling a primitive a platform lacks (a kick on
//! Slack, a DM on Telegram) does not compile. The simulator implements every
//! trait, so it can stand for any platform.
//!
//! | capability | Discord | Telegram | Slack |
//! |---|---|---|---|
//! | [`ReadHierarchy`] | roles and positions | - | - |
//! | [`JoinedChannels`] | - | - | the bot posts only where it is a member |
//! | [`Timeout`] | member timeout | - | - |
//! | [`Kick`] | kick | - (ban then unban) | - |
//! | [`Ban`] | ban, unban | `banChatMember`, `unbanChatMember` | - |
//! | [`SetRoles`] | member roles | - | - |
//! | [`Mute`] | - | `restrictChatMember` | - |
//! | [`InspectMember`] | member and ban | `getChatMember` | - |
//! | [`PostMessage`] | embeds | HTML | blocks |
//! | [`DeleteMessage`] | delete message | `deleteMessage` | `chat.delete` |
//! | [`DirectMessage`] | DM channel | - (a bot cannot start one) | `conversations.open` |
//! | [`Ephemeral`] | - | - | `chat.postEphemeral` |
//! | [`NativeRules`] | AutoMod rules | - | - |
//! | [`Greet`] | a channel | the group | a DM (`conversations.open`) |
//! | [`AddRole`] | `PUT .../members/{user}/roles/{role}` | - | - |
//! | [`Revert`] | delete webhook, remove member role, role permissions | - | - |
//! | [`JoinUserGroup`] | - | - | `usergroups.users.list` + `.update` |
//! | [`Buttons`] | message components, interaction callback | - | - |
//! | [`InlineButtons`] | - | inline keyboard, `answerCallbackQuery` | - |
//! | [`ButtonDm`] | - | - | Block Kit button in a DM |
//! | [`ReadInvites`] | guild invites, vanity code | `getChat` invite link, username | `team.info` domain |
//! | [`PauseInvites`] | incident actions `invites_disabled_until` | - | - |
//! | [`ReplaceInviteLink`] | - | `exportChatInviteLink` | - |
//! | [`DemoteAdmin`] | - | `getMe`, `getChatMember`, `promoteChatMember` | - |
//! | [`MemberNames`] | `GET /guilds/{guild.id}/members/{user.id}` | `getChatMember` | `users.info` |
//! | [`ChannelNames`] | - (`GUILD_CREATE` names them all) | - (one chat) | `conversations.info` |
//! | [`super::StructureReader`] | guild | group | workspace |
//! | [`super::WriteGuild`] | roles, channels, overwrites | - | - |
//! | [`super::WriteWorkspace`] | - | - | channels, user groups |
//! | [`super::WriteGroup`] | - | title, description, permissions | - |
//!
//! Receiving events is apart ([`super::receive`]): [`super::receive::Gateway`]
//! (Discord) and [`super::receive::Updates`] (Telegram) are implemented by
//! the live adapters only, which the receivers hold as concrete types.

use async_trait::async_trait;
use modctl_types::Timestamp;
use serde::Serialize;
use twilight_model::guild::auto_moderation::{
    AutoModerationAction, AutoModerationEventType, AutoModerationRule,
    AutoModerationTriggerMetadata, AutoModerationTriggerType,
};
use twilight_model::id::Id;
use twilight_model::id::marker::{ChannelMarker, RoleMarker};

use super::greeting::Greeting;
use super::post::Post;
use super::{Hierarchy, MemberState, PlatformResult};

/// Reads the role hierarchy (Discord).
#[async_trait]
pub trait ReadHierarchy: Send + Sync {
    /// The role hierarchy as it concerns `target`: roles with positions and
    /// permissions, the owner, the bot's and the target's roles.
    async fn hierarchy(&self, target: &str) -> PlatformResult<Hierarchy>;
}

/// Whether a member is one automod never filters (issue #25: "bots, the
/// server owner and members above the bot are never filtered"), as each
/// platform ranks its members (every platform; docs/api.md, "Who automod
/// spares"): Discord, the guild's owner and members whose highest role is at
/// or above the bot's; Telegram, the group's creator and the administrators
/// the bot did not promote (it cannot restrict them); Slack, the workspace's
/// owners and admins.
#[async_trait]
pub trait RankMember: Send + Sync {
    /// Whether `user` is the owner or ranks above the bot.
    async fn above_automod(&self, user: &str) -> PlatformResult<bool>;
}

/// The channels the bot is a member of (Slack, where a bot posts only in
/// those; on Discord posting is a matter of permissions, and a Telegram bot
/// is in its one chat).
#[async_trait]
pub trait JoinedChannels: Send + Sync {
    /// The ids of the channels the bot has joined.
    async fn joined_channels(&self) -> PlatformResult<Vec<String>>;
}

/// Times a member out (Discord).
#[async_trait]
pub trait Timeout: Send + Sync {
    /// Times the member out until `until`.
    async fn timeout(
        &self,
        user: &str,
        until: Timestamp,
        reason: Option<&str>,
    ) -> PlatformResult<()>;
}

/// Removes a member who may come back (Discord; Telegram's kick is a ban
/// and an unban, decided in the behaviour table).
#[async_trait]
pub trait Kick: Send + Sync {
    /// Removes the member.
    async fn kick(&self, user: &str, reason: Option<&str>) -> PlatformResult<()>;
}

/// Bans and lifts bans (Discord, Telegram).
#[async_trait]
pub trait Ban: Send + Sync {
    /// Bans the member, deleting `delete_message_days` days of their messages
    /// (Telegram: all of them when more than 0).
    async fn ban(
        &self,
        user: &str,
        delete_message_days: u8,
        reason: Option<&str>,
    ) -> PlatformResult<()>;

    /// Lifts a ban.
    async fn unban(&self, user: &str, reason: Option<&str>) -> PlatformResult<()>;
}

/// Replaces a member's roles (Discord jail and unjail).
#[async_trait]
pub trait SetRoles: Send + Sync {
    /// Gives the member exactly `roles`.
    async fn set_roles(
        &self,
        user: &str,
        roles: &[String],
        reason: Option<&str>,
    ) -> PlatformResult<()>;
}

/// Takes a member's send permissions away and gives them back (Telegram).
#[async_trait]
pub trait Mute: Send + Sync {
    /// Takes away every send permission until `until`, or for good.
    async fn mute(&self, user: &str, until: Option<Timestamp>) -> PlatformResult<()>;

    /// Gives the send permissions back.
    async fn unmute(&self, user: &str) -> PlatformResult<()>;
}

/// Reads a member's state (Discord, Telegram): how recovery finds out
/// whether an action whose answer was lost took effect.
#[async_trait]
pub trait InspectMember: Send + Sync {
    /// The member's state now (only reads; changes nothing).
    async fn inspect_member(&self, user: &str) -> PlatformResult<MemberState>;
}

/// Posts a message to a channel, formatted for the platform and never
/// pinging anyone (every platform).
#[async_trait]
pub trait PostMessage: Send + Sync {
    /// Posts `post` to `channel`.
    async fn post(&self, channel: &str, post: &Post) -> PlatformResult<()>;

    /// Posts the first of `posts` to `channel` as one message holding as
    /// many as the platform's limits allow (log channels' batches); answers
    /// how many it posted, at least one unless `posts` is empty.
    async fn post_batch(&self, channel: &str, posts: &[Post]) -> PlatformResult<usize>;
}

/// Deletes a member's message (every platform; Slack only with an admin
/// user token, else only the bot's own).
#[async_trait]
pub trait DeleteMessage: Send + Sync {
    /// Deletes message `message` of `channel` (Slack: its `ts`; Telegram: its
    /// `message_id`, in the adapter's chat), with `reason` in the audit log
    /// where the platform keeps one.
    async fn delete_message(
        &self,
        channel: &str,
        message: &str,
        reason: Option<&str>,
    ) -> PlatformResult<()>;
}

/// Sends a member a direct message (Discord, Slack; a Telegram bot cannot
/// start a conversation, so Telegram has none).
#[async_trait]
pub trait DirectMessage: Send + Sync {
    /// Opens (or reuses) the DM channel with `user` and posts `post` there.
    async fn direct_message(&self, user: &str, post: &Post) -> PlatformResult<()>;
}

/// Greets a member who joined (every platform, issue #26): the one
/// message the daemon sends that notifies someone, the member alone
/// ([`super::greeting`]).
#[async_trait]
pub trait Greet: Send + Sync {
    /// Posts `greeting` in `channel` (Discord, Telegram), or in a DM with
    /// the member (Slack, which greets by DM: `channel` unused).
    async fn greet(&self, channel: &str, greeting: &Greeting) -> PlatformResult<()>;
}

/// Reads one member's name as the platform shows it (every platform;
/// issue #27's name lookups, [`crate::names::lookup`]): for the members the
/// events never named.
#[async_trait]
pub trait MemberNames: Send + Sync {
    /// `user`'s name now; `None` when the platform does not know them in
    /// this server (not a member, or no such user).
    async fn member_name(&self, user: &str) -> PlatformResult<Option<String>>;
}

/// Reads one channel's name (Slack, whose bot learns a channel's name from
/// `conversations.info`; Discord's come with `GUILD_CREATE`, and a Telegram
/// group is its one chat).
#[async_trait]
pub trait ChannelNames: Send + Sync {
    /// `channel`'s name now; `None` when the platform does not know it.
    async fn channel_name(&self, channel: &str) -> PlatformResult<Option<String>>;
}

/// Gives a member one more role, keeping the others (Discord's welcome
/// auto-roles).
#[async_trait]
pub trait AddRole: Send + Sync {
    /// Adds `role` to `user`'s roles.
    async fn add_role(&self, user: &str, role: &str, reason: Option<&str>) -> PlatformResult<()>;
}

/// Undoes what a member did that acts at once (Discord antinuke, issue
/// #26): a webhook created, a role given, a role's permissions raised. A bot
/// added is kicked ([`Kick`]).
#[async_trait]
pub trait Revert: Send + Sync {
    /// Deletes webhook `webhook`: "Delete Webhook", `DELETE
    /// /webhooks/{webhook.id}` (discord-openapi.json `delete_webhook`: 204;
    /// needs `MANAGE_WEBHOOKS`, discord-docs/permissions.mdx).
    async fn delete_webhook(&self, webhook: &str, reason: Option<&str>) -> PlatformResult<()>;
    /// Takes `role` from `user`, keeping their other roles: "Remove Guild
    /// Member Role" (discord-docs/guild.mdx; `MANAGE_ROLES`, 204).
    async fn remove_role(&self, user: &str, role: &str, reason: Option<&str>)
    -> PlatformResult<()>;
    /// Sets `role`'s permissions to `permissions`: "Modify Guild Role"
    /// (discord-docs/guild.mdx; `MANAGE_ROLES`, a role below the bot's
    /// highest, and only permissions the bot holds, permissions.mdx
    /// "Permission Hierarchy").
    async fn set_role_permissions(
        &self,
        role: &str,
        permissions: u64,
        reason: Option<&str>,
    ) -> PlatformResult<()>;
}

/// Adds a member to a user group, keeping its other members (Slack's
/// welcome auto-roles are user groups).
#[async_trait]
pub trait JoinUserGroup: Send + Sync {
    /// Adds `user` to user group `group`; whether they were added (`false`:
    /// already in it).
    async fn join_user_group(&self, group: &str, user: &str) -> PlatformResult<bool>;
}

/// Posts a message only one member sees (Slack).
#[async_trait]
pub trait Ephemeral: Send + Sync {
    /// Shows `post` to `user` in `channel`.
    async fn post_ephemeral(&self, channel: &str, user: &str, post: &Post) -> PlatformResult<()>;
}

/// Reads the server's own invite links (every platform): what automod's
/// invite filter spares (issue #25: "the server's own invites allowed").
#[async_trait]
pub trait ReadInvites: Send + Sync {
    /// The server's invites as the platform lists them now. A platform
    /// that refuses part (Discord's invite list without `MANAGE_GUILD`)
    /// answers the rest with [`OwnInvites::refused`] saying why; an error is
    /// for nothing learned at all.
    async fn own_invites(&self) -> PlatformResult<OwnInvites>;
}

/// A server's own invites, as [`ReadInvites`] learned them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnInvites {
    /// Each one a code (`abc`, a Discord invite or vanity code: no `/`), a
    /// link from its host on (`t.me/+AbC`, `t.me/group`), or the beginning
    /// of links ending in `/` (`join.slack.com/t/acme/`: every invite of
    /// that workspace).
    pub invites: Vec<String>,
    /// What the platform would not list, and how to let it: the invites
    /// above are the rest.
    pub refused: Option<String>,
}

/// Pauses the server's invites for a raid lockdown (Discord): "Modify Guild
/// Incident Actions", `PUT /guilds/{guild.id}/incident-actions`
/// (shared/platform-specs/discord-docs/guild.mdx; needs `MANAGE_GUILD`; at
/// most 24 hours ahead).
#[async_trait]
pub trait PauseInvites: Send + Sync {
    /// Disables invites until `until`. The PUT resets a field left out
    /// (hikari-py/hikari#2289: it "will reset any previous security
    /// measures if not specified. This is a Discord limitation"), so the
    /// guild's current `dms_disabled_until` is read and sent back.
    async fn pause_invites(&self, until: Timestamp) -> PlatformResult<()>;
    /// Enables invites again if they are still paused until `paused_until`
    /// (the value the lockdown set); a pause the moderators set since is
    /// left. Answers whether invites were enabled. `dms_disabled_until` is
    /// sent back as it is.
    async fn resume_invites(&self, paused_until: Timestamp) -> PlatformResult<bool>;
}

/// Replaces the group's primary invite link, revoking the old one
/// (Telegram `exportChatInviteLink`: "generate a new primary invite link
/// for a chat; any previously generated primary link is revoked").
#[async_trait]
pub trait ReplaceInviteLink: Send + Sync {
    /// Revokes the primary link; answers the new one.
    async fn replace_invite_link(&self) -> PlatformResult<String>;
}

/// Messages with a button the members press, and the answer to a press
/// (issue #26's verification; Discord).
#[async_trait]
pub trait Buttons: Send + Sync {
    /// Posts `post` to `channel` with one button labelled `label` whose
    /// press names `custom_id`; answers the message's id.
    async fn post_button(
        &self,
        channel: &str,
        post: &Post,
        label: &str,
        custom_id: &str,
    ) -> PlatformResult<String>;

    /// Whether message `message` of `channel` is still there (a `NotFound`
    /// channel counts as gone).
    async fn message_exists(&self, channel: &str, message: &str) -> PlatformResult<bool>;

    /// Answers the press that came as interaction `id` with `token`, with
    /// `text` shown to the presser alone.
    async fn answer_press(&self, id: &str, token: &str, text: &str) -> PlatformResult<()>;
}

/// Messages in the group with an inline keyboard button, and the answer to
/// its `callback_query` (issue #26's verification; Telegram).
#[async_trait]
pub trait InlineButtons: Send + Sync {
    /// Posts `post` in the group with one button labelled `label` whose
    /// press sends `callback_data` (1 to 64 bytes); answers the message's
    /// id.
    async fn post_inline_button(
        &self,
        post: &Post,
        label: &str,
        callback_data: &str,
    ) -> PlatformResult<String>;

    /// Answers callback query `query_id` with `text`, as an alert the
    /// presser must dismiss when `alert`, else a passing notice.
    async fn answer_callback(&self, query_id: &str, text: &str, alert: bool) -> PlatformResult<()>;
}

/// Where a member stands among the chat's administrators (Telegram's
/// `ChatMember` status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminStanding {
    /// The chat's creator (`creator`): its owner, whom nothing demotes.
    Owner,
    /// An administrator; `editable` when the bot may change their rights
    /// (`ChatMemberAdministrator.can_be_edited`: the bot promoted them).
    Admin {
        /// Whether the bot may demote them.
        editable: bool,
    },
    /// Anyone else (a member, restricted, gone, or unknown to the chat).
    Other,
}

/// The chat's administrators as antinuke needs them (Telegram, issue #26):
/// the bot's own id, where a member stands, and demoting one the bot
/// promoted. Discord's equivalent is [`ReadHierarchy`] with [`SetRoles`];
/// Slack has none (a bot token cannot change a member's standing).
#[async_trait]
pub trait DemoteAdmin: Send + Sync {
    /// The bot's own user id (`getMe`).
    async fn bot_user_id(&self) -> PlatformResult<String>;

    /// Where `user` stands (`getChatMember`).
    async fn admin_standing(&self, user: &str) -> PlatformResult<AdminStanding>;

    /// Takes every administrator right from `user`, leaving them a member
    /// (`promoteChatMember` with every right false: "Pass False for all
    /// boolean parameters to demote a user").
    async fn demote(&self, user: &str) -> PlatformResult<()>;
}

/// The answers of a captcha's presses (issue #26's `verification:
/// captcha`; Discord's interaction callbacks).
#[async_trait]
pub trait CaptchaInteractions: Send + Sync {
    /// Answers interaction `id` with `token` with a message shown to the
    /// presser alone: `text`, the PNG `image` attached, and one row of
    /// buttons, each (label, `custom_id`).
    async fn answer_press_image(
        &self,
        id: &str,
        token: &str,
        text: &str,
        image: &[u8],
        buttons: &[(&str, String)],
    ) -> PlatformResult<()>;

    /// Answers interaction `id` with `token` with a modal `custom_id`
    /// titled `title`, holding one short text field `field_id` labelled
    /// `label`, of exactly `length` characters.
    async fn answer_press_modal(
        &self,
        id: &str,
        token: &str,
        custom_id: &str,
        title: &str,
        field: (&str, &str),
        length: usize,
    ) -> PlatformResult<()>;
}

/// A photo posted in the group with an inline keyboard under it (issue
/// #26's captcha; Telegram).
#[async_trait]
pub trait PhotoKeyboard: Send + Sync {
    /// Posts the PNG `image` in the group with `caption` and `keyboard`'s
    /// rows of buttons, each (label, `callback_data`); answers the
    /// message's id.
    async fn post_photo_keyboard(
        &self,
        caption: &str,
        image: &[u8],
        keyboard: &[Vec<(String, String)>],
    ) -> PlatformResult<String>;
}

/// A direct message with a button (Slack: Block Kit `actions`, pressed
/// through the app's interactivity request URL; issue #26).
#[async_trait]
pub trait ButtonDm: Send + Sync {
    /// Opens (or reuses) the DM with `user` and posts `post` there with one
    /// button labelled `label` whose press names `action_id`.
    async fn direct_message_button(
        &self,
        user: &str,
        post: &Post,
        label: &str,
        action_id: &str,
    ) -> PlatformResult<()>;
}

/// A Slack captcha (issue #26's `verification: captcha`): the challenge's
/// image put in the member's DM with the buttons that answer it, and the
/// modal the code is typed in.
#[async_trait]
pub trait CaptchaDm: Send + Sync {
    /// Opens (or reuses) the DM with `user` and shares the PNG `image`
    /// there with `text`, then one row of buttons, each (label,
    /// `action_id`).
    async fn direct_message_image(
        &self,
        user: &str,
        text: &str,
        image: &[u8],
        buttons: &[(&str, String)],
    ) -> PlatformResult<()>;

    /// Opens, with a press's `trigger_id`, a modal `callback_id` titled
    /// `title` holding one text input `field_id` (its block's id and its
    /// element's) labelled `label`, of exactly `length` characters.
    async fn open_code_modal(
        &self,
        trigger_id: &str,
        callback_id: &str,
        title: &str,
        field: (&str, &str),
        length: usize,
    ) -> PlatformResult<()>;
}

/// A native AutoMod rule as the daemon asks for it: the fields of
/// shared/platform-specs/discord-docs/auto-moderation.mdx, "Create Auto
/// Moderation Rule" (JSON Params), in twilight-model's types. Modifying
/// sends the same fields but `trigger_type`, which a rule keeps for life
/// ("Modify Auto Moderation Rule").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSpec {
    /// The rule's name (the daemon's own start with `modctl: `).
    pub name: String,
    /// When it is checked (`MESSAGE_SEND`).
    pub event_type: AutoModerationEventType,
    /// What kind of rule (keyword, mention spam, ...); fixed once created.
    pub trigger_type: AutoModerationTriggerType,
    /// The keywords, patterns or limits.
    pub trigger_metadata: AutoModerationTriggerMetadata,
    /// What Discord does when it triggers.
    pub actions: Vec<AutoModerationAction>,
    /// Whether it is on.
    pub enabled: bool,
    /// Roles it spares (at most 20).
    pub exempt_roles: Vec<Id<RoleMarker>>,
    /// Channels it spares (at most 50).
    pub exempt_channels: Vec<Id<ChannelMarker>>,
}

/// Discord's native AutoMod rules of the guild
/// (`/guilds/{guild.id}/auto-moderation/rules`, discord-docs/auto-moderation.mdx).
#[async_trait]
pub trait NativeRules: Send + Sync {
    /// Every rule of the guild, the daemon's and those made by hand.
    async fn list_rules(&self) -> PlatformResult<Vec<AutoModerationRule>>;

    /// Creates a rule; answers it with its id.
    async fn create_rule(
        &self,
        rule: &RuleSpec,
        reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule>;

    /// Changes rule `id` in place (its trigger type stays); answers it.
    async fn modify_rule(
        &self,
        id: &str,
        rule: &RuleSpec,
        reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule>;

    /// Deletes rule `id`.
    async fn delete_rule(&self, id: &str, reason: Option<&str>) -> PlatformResult<()>;
}

impl RuleSpec {
    /// The body of "Modify Auto Moderation Rule": every field but
    /// `trigger_type`.
    pub fn modify_body(&self) -> serde_json::Value {
        let mut body = serde_json::to_value(self).expect("a rule serializes");
        if let Some(fields) = body.as_object_mut() {
            fields.remove("trigger_type");
        }
        body
    }
}

/// A KEYWORD rule blocking `words`, as tests build one.
#[cfg(test)]
pub(crate) fn keyword_rule(name: &str, words: &[&str]) -> RuleSpec {
    use twilight_model::guild::auto_moderation::AutoModerationActionType;
    RuleSpec {
        name: name.into(),
        event_type: AutoModerationEventType::MessageSend,
        trigger_type: AutoModerationTriggerType::Keyword,
        trigger_metadata: AutoModerationTriggerMetadata {
            allow_list: None,
            keyword_filter: Some(words.iter().map(|w| (*w).to_owned()).collect()),
            presets: None,
            mention_raid_protection_enabled: None,
            mention_total_limit: None,
            regex_patterns: None,
        },
        actions: vec![AutoModerationAction {
            kind: AutoModerationActionType::BlockMessage,
            metadata: None,
        }],
        enabled: true,
        exempt_roles: Vec::new(),
        exempt_channels: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> RuleSpec {
        RuleSpec {
            exempt_roles: vec![Id::new(5)],
            ..keyword_rule("modctl: blocked words", &["spam*"])
        }
    }
    /// auto-moderation.mdx: creating sends the trigger type as an integer
    /// (KEYWORD = 1, MESSAGE_SEND = 1, BLOCK_MESSAGE = 1), snowflakes as
    /// strings; modifying leaves the trigger type out.
    #[test]
    fn rules_are_sent_as_discord_documents_them() {
        let created = serde_json::to_value(rule()).unwrap();
        assert_eq!(created["trigger_type"], 1);
        assert_eq!(created["event_type"], 1);
        assert_eq!(created["actions"][0]["type"], 1);
        assert_eq!(created["exempt_roles"][0], "5");
        assert_eq!(created["trigger_metadata"]["keyword_filter"][0], "spam*");
        let modified = rule().modify_body();
        assert!(modified.get("trigger_type").is_none(), "{modified}");
        assert_eq!(modified["name"], "modctl: blocked words");
    }
}
