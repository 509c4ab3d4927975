//! The simulated community's structure: Discord roles and channels (with
//! categories and permission overwrites), Slack channels, a Telegram group's
//! settings and administrators, read for snapshots like a live platform.
//!
//! What the simulator does not keep is answered the way a fresh community
//! of that platform has it: Discord guild settings at their common values
//! (verification low, notifications only mentions, content filter for all
//! members), voice channels at 64 kbps without a user limit, no Slack user
//! groups, a Telegram group titled as the server was claimed, granting the
//! ten send permissions by default, without slow mode.

use async_trait::async_trait;
use modctl_types::Platform;
use modctl_types::snapshot::{
    DiscordChannel, DiscordGuildSettings, DiscordRole, DiscordStructure, SlackChannel,
    SlackStructure, StructureContent, TelegramAdministrator, TelegramPermissions,
    TelegramStructure,
};

use super::{SimError, Simulator};
use crate::platform::PlatformResult;
use crate::platform::discord::structure::sort;
use crate::platform::structure::StructureReader;
use crate::store::simulator as sim;
use crate::store::{StoreError, Tx, servers};

/// Discord's voice and stage channel types, which have a bitrate and a
/// user limit.
const VOICE_KINDS: [u8; 2] = [2, 13];
/// Discord's text-like channel types, which have a topic and slow mode.
const TEXT_KINDS: [u8; 4] = [0, 5, 15, 16];

/// What a simulated guild's `@everyone` may do: view channels, send
/// messages, read history, connect, speak.
pub(super) const EVERYONE_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 16) | (1 << 20) | (1 << 21);

/// The name the server was claimed under.
fn server_name(tx: &Tx<'_>, server_id: &str) -> Result<String, StoreError> {
    servers::find(tx, server_id)?
        .map(|record| record.server.name)
        .ok_or_else(|| StoreError::NotFound(format!("server {server_id} is not claimed")))
}

fn discord(tx: &Tx<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let name = server_name(tx, server_id)?;
    // The simulator's hierarchy has no `@everyone` row; every guild has one,
    // with the guild's id, at position 0.
    let everyone = DiscordRole {
        id: server_id.to_owned(),
        name: "@everyone".to_owned(),
        colour: 0,
        hoist: false,
        mentionable: false,
        permissions: EVERYONE_PERMISSIONS.to_string(),
        position: 0,
        icon: None,
        unicode_emoji: None,
        managed: false,
        is_everyone: true,
    };
    let mut roles: Vec<DiscordRole> = sim::roles(tx, server_id)?
        .into_iter()
        .map(|role| DiscordRole {
            id: role.id,
            name: role.name,
            position: role.position,
            permissions: role.permissions.to_string(),
            colour: role.colour,
            hoist: role.hoist,
            mentionable: false,
            icon: None,
            unicode_emoji: None,
            managed: false,
            is_everyone: false,
        })
        .collect();
    roles.push(everyone);
    let mut channels: Vec<DiscordChannel> = sim::channels(tx, server_id)?
        .into_iter()
        .map(|channel| {
            let kind = channel.kind;
            let voice = VOICE_KINDS.contains(&kind);
            DiscordChannel {
                topic: channel.topic.filter(|_| TEXT_KINDS.contains(&kind)),
                rate_limit_per_user: TEXT_KINDS.contains(&kind).then_some(0),
                bitrate: voice.then_some(64_000),
                user_limit: voice.then_some(0),
                nsfw: false,
                id: channel.id,
                kind,
                name: channel.name,
                parent_id: channel.parent_id,
                position: channel.position,
                permission_overwrites: channel.overwrites,
            }
        })
        .collect();
    sort(&mut roles, &mut channels);
    Ok(StructureContent::Discord(DiscordStructure {
        settings: DiscordGuildSettings {
            name,
            verification_level: 1,
            default_message_notifications: 1,
            explicit_content_filter: 2,
            system_channel_id: None,
            rules_channel_id: None,
        },
        roles,
        channels,
    }))
}

fn slack(tx: &Tx<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let channels = sim::channels(tx, server_id)?
        .into_iter()
        .map(|channel| SlackChannel {
            id: channel.id,
            name: channel.name,
            is_private: false,
            topic: channel.topic.unwrap_or_default(),
            purpose: String::new(),
            is_archived: false,
        })
        .collect();
    Ok(StructureContent::Slack(SlackStructure {
        channels,
        user_groups: Vec::new(),
    }))
}

fn telegram(tx: &Tx<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let title = server_name(tx, server_id)?;
    let (owner_id, bot_id) = sim::owner_and_bot(tx, server_id)?;
    let mut administrators = Vec::new();
    for (user_id, status, rights) in [
        (owner_id, "creator", &[][..]),
        (
            bot_id,
            "administrator",
            &["can_delete_messages", "can_restrict_members"][..],
        ),
    ] {
        let first_name =
            sim::member_name(tx, server_id, &user_id)?.unwrap_or_else(|| user_id.clone());
        administrators.push(TelegramAdministrator {
            is_bot: status == "administrator",
            user_id,
            first_name,
            username: None,
            status: status.to_owned(),
            custom_title: None,
            rights: rights.iter().map(|r| (*r).to_owned()).collect(),
        });
    }
    administrators.sort_by(|a, b| a.user_id.cmp(&b.user_id));
    Ok(StructureContent::Telegram(TelegramStructure {
        title,
        description: None,
        default_permissions: TelegramPermissions {
            can_send_messages: true,
            can_send_audios: true,
            can_send_documents: true,
            can_send_photos: true,
            can_send_videos: true,
            can_send_video_notes: true,
            can_send_voice_notes: true,
            can_send_polls: true,
            can_send_other_messages: true,
            can_add_web_page_previews: true,
            ..TelegramPermissions::default()
        },
        slow_mode_delay: None,
        administrators,
    }))
}

#[async_trait]
impl StructureReader for Simulator {
    async fn read_structure(&self) -> PlatformResult<StructureContent> {
        self.observe(|tx, server_id, platform| match platform {
            Platform::Discord => discord(tx, server_id),
            Platform::Slack => slack(tx, server_id),
            Platform::Telegram => telegram(tx, server_id),
            _ => crate::platform::new_platform(platform),
        })
        .await
    }
}
