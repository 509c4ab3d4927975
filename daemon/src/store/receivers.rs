//! What the activity receivers keep ([`crate::receive`]): how each live
//! connection receives events (Slack's signing secret, Telegram's webhook),
//! open Discord voice sessions, Telegram's `getUpdates` offset, and when a
//! receiver was last known to listen. (The ids of events already counted
//! are kept with the counts, per server: [`super::activity`].) Secrets are sealed like the bot token ([`super::secrets`]).

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::Platform;

use super::secrets::{SecretField, Secrets};
use super::{FromRow, StoreError, scalar};

/// How a live connection receives events, beyond its bot token.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Receiving {
    /// Slack: the app's signing secret.
    pub signing_secret: Option<String>,
    /// Telegram: the daemon's public base URL; `None` means long polling.
    pub hook_url: Option<String>,
    /// Telegram: the `secret_token` given to `setWebhook`.
    pub hook_secret: Option<String>,
}

impl std::fmt::Debug for Receiving {
    // Never prints the secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiving")
            .field(
                "signing_secret",
                &self.signing_secret.as_ref().map(|_| ".."),
            )
            .field("hook_url", &self.hook_url)
            .field("hook_secret", &self.hook_secret.as_ref().map(|_| ".."))
            .finish()
    }
}

/// A live connection, as the receivers start sessions for it.
#[derive(Clone, PartialEq, Eq)]
pub struct LiveConnection {
    /// The server (the platform's id).
    pub server_id: String,
    /// Its platform.
    pub platform: Platform,
    /// The bot token.
    pub token: String,
    /// The API base other than the platform's public one.
    pub api_base: Option<String>,
    /// How it receives events.
    pub receiving: Receiving,
    /// Telegram: the chat its updates come from and calls go to, the server
    /// id unless the group was upgraded to a supergroup
    /// ([`super::connections::set_telegram_chat_id`]).
    pub chat_id: String,
}

impl std::fmt::Debug for LiveConnection {
    // Never prints the token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveConnection")
            .field("server_id", &self.server_id)
            .field("platform", &self.platform)
            .field("api_base", &self.api_base)
            .field("receiving", &self.receiving)
            .finish_non_exhaustive()
    }
}

fn unseal(
    secrets: &Secrets,
    field: SecretField,
    server_id: &str,
    sealed: Option<String>,
) -> Result<Option<String>, StoreError> {
    sealed
        .map(|sealed| {
            secrets.unseal(field, server_id, &sealed).map_err(|e| {
                StoreError::Corrupt(format!(
                    "a secret of server {server_id} cannot be read: {e}; connect the server again with `modctld server connect`"
                ))
            })
        })
        .transpose()
}

/// Sets how `server_id` (already connected) receives events.
pub fn set_receiving(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
    receiving: &Receiving,
) -> Result<(), StoreError> {
    let seal =
        |field, value: &Option<String>| value.as_deref().map(|v| secrets.seal(field, server_id, v));
    tx.sql.execute(
        "UPDATE platform_connections SET signing_secret = ?2, hook_url = ?3, hook_secret = ?4
         WHERE server_id = ?1",
        params![
            server_id,
            seal(SecretField::SlackSigningSecret, &receiving.signing_secret),
            receiving.hook_url,
            seal(SecretField::TelegramHookSecret, &receiving.hook_secret),
        ],
    )?;
    Ok(())
}

/// Every live connection, with its token and secrets unsealed.
pub fn live_connections(tx: &Tx<'_>, secrets: &Secrets) -> Result<Vec<LiveConnection>, StoreError> {
    let rows = tx.sql
        .rows(
            "SELECT c.server_id, s.platform, c.token, c.api_base, c.signing_secret, c.hook_url, c.hook_secret,
                    c.telegram_chat_id
             FROM platform_connections c JOIN servers s ON s.id = c.server_id
             WHERE c.mode = 'live' ORDER BY c.server_id", [], |row| {
            Ok((
                row.get::<String>("server_id")?,
                row.get::<String>("platform")?,
                row.get::<Option<String>>("token")?,
                row.get::<Option<String>>("api_base")?,
                row.get::<Option<String>>("signing_secret")?,
                row.get::<Option<String>>("hook_url")?,
                row.get::<Option<String>>("hook_secret")?,
                row.get::<Option<String>>("telegram_chat_id")?,
            ))
        })?
        ;
    rows.into_iter()
        .map(
            |(server_id, platform, token, api_base, signing, hook_url, hook_secret, chat_id)| {
                let platform = platform
                    .parse()
                    .map_err(|e: String| StoreError::Corrupt(format!("server {server_id}: {e}")))?;
                let token = unseal(secrets, SecretField::PlatformToken, &server_id, token)?
                    .unwrap_or_default();
                let receiving = Receiving {
                    signing_secret: unseal(
                        secrets,
                        SecretField::SlackSigningSecret,
                        &server_id,
                        signing,
                    )?,
                    hook_url,
                    hook_secret: unseal(
                        secrets,
                        SecretField::TelegramHookSecret,
                        &server_id,
                        hook_secret,
                    )?,
                };
                Ok(LiveConnection {
                    chat_id: chat_id.unwrap_or_else(|| server_id.clone()),
                    server_id,
                    platform,
                    token,
                    api_base,
                    receiving,
                })
            },
        )
        .collect()
}

/// The chats of Telegram groups `servers`: chat id → server id, with both
/// the server id and, for a group upgraded to a supergroup, its new chat id
/// (the old group's last messages, e.g. the one announcing the upgrade,
/// still carry the old id).
pub fn telegram_chats(
    tx: &Tx<'_>,
    servers: &[String],
) -> Result<std::collections::BTreeMap<String, String>, StoreError> {
    let mut chats = std::collections::BTreeMap::new();
    for server in servers {
        let chat: Option<Option<String>> = tx.sql.opt_row(
            "SELECT telegram_chat_id FROM platform_connections WHERE server_id = ?1",
            [server],
            scalar,
        )?;
        if let Some(chat) = chat.flatten() {
            chats.insert(chat, server.clone());
        }
        chats.insert(server.clone(), server.clone());
    }
    Ok(chats)
}

/// Telegram's next `getUpdates` offset for a bot serving `servers`: the
/// highest any of them recorded (0: from what Telegram still holds).
pub fn telegram_offset(tx: &Tx<'_>, servers: &[String]) -> Result<i64, StoreError> {
    let mut offset = 0;
    for server in servers {
        let stored: Option<Option<i64>> = tx.sql.opt_row(
            "SELECT telegram_offset FROM activity_receivers WHERE server_id = ?1",
            [server],
            scalar,
        )?;
        offset = offset.max(stored.flatten().unwrap_or(0));
    }
    Ok(offset)
}

/// Records the next `getUpdates` offset for every server of a bot.
pub fn set_telegram_offset(tx: &Tx<'_>, servers: &[String], offset: i64) -> Result<(), StoreError> {
    for server in servers {
        tx.sql
            .prepare(
                "INSERT INTO activity_receivers (server_id, telegram_offset) VALUES (?1, ?2)
             ON CONFLICT (server_id) DO UPDATE SET telegram_offset = excluded.telegram_offset",
            )?
            .execute(params![server, offset])?;
    }
    Ok(())
}

/// Records that the receiver of `servers` was listening at `now`.
pub fn set_alive(tx: &Tx<'_>, servers: &[String], now: i64) -> Result<(), StoreError> {
    for server in servers {
        tx.sql
            .prepare(
                "INSERT INTO activity_receivers (server_id, alive_at) VALUES (?1, ?2)
             ON CONFLICT (server_id) DO UPDATE SET alive_at = excluded.alive_at",
            )?
            .execute(params![server, now])?;
    }
    Ok(())
}

/// When the receiver of `server` was last known to listen.
pub fn alive_at(tx: &Tx<'_>, server: &str) -> Result<Option<i64>, StoreError> {
    let stored: Option<Option<i64>> = tx.sql.opt_row(
        "SELECT alive_at FROM activity_receivers WHERE server_id = ?1",
        [server],
        scalar,
    )?;
    Ok(stored.flatten())
}

/// An open voice session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceSession {
    /// The member.
    pub user_id: String,
    /// Their voice channel.
    pub channel_id: String,
    /// Unix time they joined it.
    pub started_at: i64,
}

impl FromRow for VoiceSession {
    const COLUMNS: &'static str = "user_id, channel_id, started_at";

    fn from_row(row: &Row<'_>) -> Result<VoiceSession, StoreError> {
        Ok(VoiceSession {
            user_id: row.get("user_id")?,
            channel_id: row.get("channel_id")?,
            started_at: row.get("started_at")?,
        })
    }
}

/// The voice session of `user` in `server`, if one is open.
pub fn voice_session(
    tx: &Tx<'_>,
    server: &str,
    user: &str,
) -> Result<Option<VoiceSession>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {} FROM voice_sessions WHERE server_id = ?1 AND user_id = ?2",
            VoiceSession::COLUMNS
        ),
        [server, user],
        VoiceSession::from_row,
    )
}

/// Every open voice session of `server`.
pub fn voice_sessions(tx: &Tx<'_>, server: &str) -> Result<Vec<VoiceSession>, StoreError> {
    tx.sql.rows(
        &format!(
            "SELECT {} FROM voice_sessions WHERE server_id = ?1 ORDER BY user_id",
            VoiceSession::COLUMNS
        ),
        [server],
        VoiceSession::from_row,
    )
}

/// Opens (or replaces) the voice session of a member.
pub fn open_voice(tx: &Tx<'_>, server: &str, session: &VoiceSession) -> Result<(), StoreError> {
    tx.sql.prepare(
        "INSERT INTO voice_sessions (server_id, user_id, channel_id, started_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (server_id, user_id) DO UPDATE SET channel_id = excluded.channel_id,
             started_at = excluded.started_at",
    )?
    .execute(params![server, session.user_id, session.channel_id, session.started_at])?;
    Ok(())
}

/// Closes the voice session of a member.
pub fn close_voice(tx: &Tx<'_>, server: &str, user: &str) -> Result<(), StoreError> {
    tx.sql
        .prepare("DELETE FROM voice_sessions WHERE server_id = ?1 AND user_id = ?2")?
        .execute([server, user])?;
    Ok(())
}
