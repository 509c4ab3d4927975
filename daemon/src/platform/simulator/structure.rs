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
    DiscordChannel, DiscordGuildSettings, DiscordRole, DiscordStructure, OverwriteKind,
    PermissionOverwrite, SlackChannel, SlackStructure, StructureContent, TelegramAdministrator,
    TelegramPermissions, TelegramStructure,
};
use rusqlite::{OptionalExtension, Transaction, params};

use super::{SimError, Simulator};
use crate::platform::PlatformResult;
use crate::platform::discord::structure::sort;
use crate::platform::structure::StructureReader;
use crate::store::StoreError;

/// Discord's voice and stage channel types, which have a bitrate and a
/// user limit.
const VOICE_KINDS: [u8; 2] = [2, 13];
/// Discord's text-like channel types, which have a topic and slow mode.
const TEXT_KINDS: [u8; 4] = [0, 5, 15, 16];

/// What a simulated guild's `@everyone` may do: view channels, send
/// messages, read history, connect, speak.
pub(super) const EVERYONE_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 16) | (1 << 20) | (1 << 21);

/// A channel of a simulated community, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimChannel<'a> {
    /// Channel id.
    pub channel_id: &'a str,
    /// Name.
    pub name: &'a str,
    /// Discord's channel type (0 text, 2 voice, 4 category, 5 announcement).
    pub kind: u8,
    /// Topic.
    pub topic: Option<&'a str>,
    /// The category it is in.
    pub parent_id: Option<&'a str>,
    /// Position among its siblings.
    pub position: i64,
    /// Permission overwrites.
    pub overwrites: &'a [SimOverwrite<'a>],
}

impl<'a> SimChannel<'a> {
    /// A top-level text channel without topic or overwrites.
    pub const fn text(channel_id: &'a str, name: &'a str) -> SimChannel<'a> {
        SimChannel {
            channel_id,
            name,
            kind: 0,
            topic: None,
            parent_id: None,
            position: 0,
            overwrites: &[],
        }
    }
}

/// A permission overwrite of a simulated channel, for seeding.
#[derive(Debug, Clone, Copy)]
pub struct SimOverwrite<'a> {
    /// Role or member id (`@everyone`: the server id, given as `None`).
    pub id: Option<&'a str>,
    /// Role or member.
    pub kind: OverwriteKind,
    /// Permission bits granted.
    pub allow: u64,
    /// Permission bits taken away.
    pub deny: u64,
}

/// Stores `channel` in the simulated community of `server_id`.
pub(crate) fn insert_channel(
    tx: &Transaction<'_>,
    server_id: &str,
    channel: &SimChannel<'_>,
) -> Result<(), StoreError> {
    let overwrites: Vec<PermissionOverwrite> = channel
        .overwrites
        .iter()
        .map(|o| PermissionOverwrite {
            id: o.id.unwrap_or(server_id).to_owned(),
            kind: o.kind,
            allow: o.allow.to_string(),
            deny: o.deny.to_string(),
        })
        .collect();
    tx.execute(
        "INSERT INTO sim_channels (server_id, channel_id, name, kind, topic, parent_id, position, overwrites) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            server_id,
            channel.channel_id,
            channel.name,
            channel.kind,
            channel.topic,
            channel.parent_id,
            channel.position,
            serde_json::to_string(&overwrites).expect("overwrites serialize"),
        ],
    )?;
    Ok(())
}

/// A stored channel: `(id, name, kind, topic, parent_id, position, overwrites JSON)`.
type ChannelRow = (
    String,
    String,
    u8,
    Option<String>,
    Option<String>,
    i64,
    String,
);

fn channel_rows(tx: &Transaction<'_>, server_id: &str) -> Result<Vec<ChannelRow>, SimError> {
    let mut stmt = tx.prepare_cached(
        "SELECT channel_id, name, kind, topic, parent_id, position, overwrites \
         FROM sim_channels WHERE server_id = ?1 ORDER BY channel_id",
    )?;
    let rows = stmt.query_map([server_id], |row| {
        Ok((
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
            row.get(5)?,
            row.get(6)?,
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn discord(tx: &Transaction<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let name: String = tx
        .prepare_cached("SELECT name FROM servers WHERE id = ?1")?
        .query_row([server_id], |row| row.get(0))?;
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
    let mut roles = tx
        .prepare_cached(
            "SELECT role_id, name, position, permissions, colour, hoist FROM sim_roles WHERE server_id = ?1",
        )?
        .query_map([server_id], |row| {
            Ok(DiscordRole {
                id: row.get(0)?,
                name: row.get(1)?,
                position: row.get(2)?,
                permissions: (row.get::<_, i64>(3)? as u64).to_string(),
                colour: row.get(4)?,
                hoist: row.get(5)?,
                mentionable: false,
                icon: None,
                unicode_emoji: None,
                managed: false,
                is_everyone: false,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    roles.push(everyone);
    let mut channels = channel_rows(tx, server_id)?
        .into_iter()
        .map(|(id, name, kind, topic, parent_id, position, overwrites)| {
            let permission_overwrites = serde_json::from_str(&overwrites).map_err(|e| {
                StoreError::Corrupt(format!("overwrites of simulated channel {id}: {e}"))
            })?;
            let voice = VOICE_KINDS.contains(&kind);
            Ok(DiscordChannel {
                topic: topic.filter(|_| TEXT_KINDS.contains(&kind)),
                rate_limit_per_user: TEXT_KINDS.contains(&kind).then_some(0),
                bitrate: voice.then_some(64_000),
                user_limit: voice.then_some(0),
                nsfw: false,
                id,
                kind,
                name,
                parent_id,
                position,
                permission_overwrites,
            })
        })
        .collect::<Result<Vec<_>, SimError>>()?;
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

fn slack(tx: &Transaction<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let channels = channel_rows(tx, server_id)?
        .into_iter()
        .map(|(id, name, _, topic, ..)| SlackChannel {
            id,
            name,
            is_private: false,
            topic: topic.unwrap_or_default(),
            purpose: String::new(),
            is_archived: false,
        })
        .collect();
    Ok(StructureContent::Slack(SlackStructure {
        channels,
        user_groups: Vec::new(),
    }))
}

fn telegram(tx: &Transaction<'_>, server_id: &str) -> Result<StructureContent, SimError> {
    let title: String = tx
        .prepare_cached("SELECT name FROM servers WHERE id = ?1")?
        .query_row([server_id], |row| row.get(0))?;
    let (owner_id, bot_id): (String, String) = tx
        .prepare_cached("SELECT owner_id, bot_user_id FROM sim_communities WHERE server_id = ?1")?
        .query_row([server_id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let mut name =
        tx.prepare_cached("SELECT name FROM sim_members WHERE server_id = ?1 AND user_id = ?2")?;
    let mut administrators = Vec::new();
    for (user_id, status, rights) in [
        (owner_id, "creator", &[][..]),
        (
            bot_id,
            "administrator",
            &["can_delete_messages", "can_restrict_members"][..],
        ),
    ] {
        let first_name: String = name
            .query_row([server_id, &user_id], |row| row.get(0))
            .optional()?
            .unwrap_or_else(|| user_id.clone());
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
            _ => Err(SimError::Platform(
                crate::platform::PlatformError::Unsupported("reading the structure"),
            )),
        })
        .await
    }
}
