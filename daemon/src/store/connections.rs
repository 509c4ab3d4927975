//! How each server reaches its platform: a live bot token or the simulator.
//!
//! The token is stored sealed ([`super::secrets`]); only [`get`] unseals it
//! (with the receiving secrets, [`Connection::other_secrets`]).

use crate::store::Tx;
use crate::store::sql::params;
use modctl_types::config::Sections;

use super::StoreError;
use super::secrets::{SecretField, Secrets};

/// A server's connection.
#[derive(Clone, PartialEq, Eq)]
pub struct Connection {
    /// Live or simulated.
    pub mode: ConnectionMode,
    /// The connection's other stored secrets (a Slack signing secret, a
    /// Telegram webhook's secret token), unsealed by [`get`] so that the
    /// adapter keeps them out of what the platform says, like the token
    /// ([`crate::platform::Redactor`]). [`set`] stores none of them: they are
    /// set with [`super::receivers::set_receiving`].
    pub other_secrets: Vec<String>,
    /// Telegram: the chat id the platform calls use when it is not the
    /// server id (the supergroup a group was upgraded to; see
    /// [`set_telegram_chat_id`]). [`set`] keeps the stored one.
    pub telegram_chat_id: Option<String>,
    /// Slack: an admin's user token (`xoxp-`), with which automod deletes
    /// members' messages; `None` without one. [`set`] stores it sealed like
    /// the bot token (and clears it when `None`).
    pub user_token: Option<String>,
}

impl Connection {
    /// A connection in `mode`, with no other secrets.
    pub fn new(mode: ConnectionMode) -> Connection {
        Connection {
            mode,
            other_secrets: Vec::new(),
            telegram_chat_id: None,
            user_token: None,
        }
    }
}

/// Records that the Telegram group `server_id` is now chat `chat_id` (it
/// was upgraded to a supergroup): platform calls go there, the server keeps
/// its id and history. `None` goes back to the server id.
pub fn set_telegram_chat_id(
    tx: &Tx<'_>,
    server_id: &str,
    chat_id: Option<&str>,
) -> Result<(), StoreError> {
    let chat_id = chat_id.filter(|chat| *chat != server_id);
    tx.sql.execute(
        "UPDATE platform_connections SET telegram_chat_id = ?2 WHERE server_id = ?1",
        params![server_id, chat_id],
    )?;
    Ok(())
}

/// Live (with a token) or simulated.
#[derive(Clone, PartialEq, Eq)]
#[allow(missing_debug_implementations)] // `Connection`'s Debug prints it without the token.
pub enum ConnectionMode {
    /// The real platform API.
    Live {
        /// The bot token.
        token: String,
        /// An API base URL other than the platform's public one.
        api_base: Option<String>,
    },
    /// The built-in simulator.
    Simulated,
}

impl std::fmt::Debug for Connection {
    // Never prints the token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.mode {
            ConnectionMode::Live { api_base, .. } => f
                .debug_struct("Live")
                .field("api_base", api_base)
                .finish_non_exhaustive(),
            ConnectionMode::Simulated => f.write_str("Simulated"),
        }
    }
}

/// The connection of `server_id`, if it has one.
pub fn get(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
) -> Result<Option<Connection>, StoreError> {
    let row = tx.sql.opt_row(
        "SELECT mode, token, api_base, signing_secret, hook_secret, telegram_chat_id,
                    user_token
             FROM platform_connections WHERE server_id = ?1",
        [server_id],
        |row| {
            Ok((
                row.get::<String>("mode")?,
                row.get::<Option<String>>("token")?,
                row.get::<Option<String>>("api_base")?,
                row.get::<Option<String>>("signing_secret")?,
                row.get::<Option<String>>("hook_secret")?,
                row.get::<Option<String>>("telegram_chat_id")?,
                row.get::<Option<String>>("user_token")?,
            ))
        },
    )?;
    let Some((mode, sealed, api_base, signing_secret, hook_secret, telegram_chat_id, user_token)) =
        row
    else {
        return Ok(None);
    };
    // One that does not unseal is left out rather than failing the action:
    // the daemon cannot have sent what it cannot read, and the receivers
    // report it (`receivers::live_connections`).
    let other_secrets = [
        (SecretField::SlackSigningSecret, signing_secret),
        (SecretField::TelegramHookSecret, hook_secret),
    ]
    .into_iter()
    .filter_map(|(field, sealed)| secrets.unseal(field, server_id, &sealed?).ok())
    .collect();
    // Like the other secrets: one that does not unseal is left out (and
    // automod says the message could not be deleted).
    let user_token = user_token.and_then(|sealed| {
        secrets
            .unseal(SecretField::SlackUserToken, server_id, &sealed)
            .ok()
    });
    let mode = match (mode.as_str(), sealed) {
        ("live", Some(sealed)) => ConnectionMode::Live {
            token: secrets
                .unseal(SecretField::PlatformToken, server_id, &sealed)
                .map_err(|e| {
                    StoreError::Corrupt(format!(
                        "the bot token of server {server_id} cannot be read: {e}; connect the server again with `modctld server connect`"
                    ))
                })?,
            api_base,
        },
        _ => ConnectionMode::Simulated,
    };
    let mut other_secrets: Vec<String> = other_secrets;
    other_secrets.extend(user_token.clone());
    Ok(Some(Connection {
        mode,
        other_secrets,
        telegram_chat_id,
        user_token,
    }))
}

/// Connects `server_id` at `now` (unix seconds), replacing any earlier
/// connection; the token is sealed.
pub fn set(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
    connection: &Connection,
    now: i64,
) -> Result<(), StoreError> {
    let (mode, sealed, api_base) = match &connection.mode {
        ConnectionMode::Live { token, api_base } => (
            "live",
            Some(secrets.seal(SecretField::PlatformToken, server_id, token)),
            api_base.as_deref(),
        ),
        ConnectionMode::Simulated => ("simulated", None, None),
    };
    let user_token = connection
        .user_token
        .as_deref()
        .map(|token| secrets.seal(SecretField::SlackUserToken, server_id, token));
    tx.sql.execute(
        "INSERT INTO platform_connections (server_id, mode, token, api_base, connected_at, user_token)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (server_id) DO UPDATE SET mode = excluded.mode, token = excluded.token,
             api_base = excluded.api_base, connected_at = excluded.connected_at,
             user_token = excluded.user_token",
        params![server_id, mode, sealed, api_base, now, user_token],
    )?;
    Ok(())
}

/// The ids of the servers with a connection (live or simulated), in id
/// order: the servers whose platform can be asked something.
pub fn connected(tx: &Tx<'_>) -> Result<Vec<String>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT servers.id AS server_id FROM servers
             JOIN platform_connections c ON c.server_id = servers.id
             ORDER BY servers.id",
        [],
        |row| row.get::<String>("server_id"),
    )?;
    Ok(rows)
}

/// A connected server as a worker acting on it reads it, in one trip: its
/// record, its connection and its config; `None` when it was released or
/// is not connected.
pub fn connected_server(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
) -> Result<Option<(super::servers::ServerRecord, Connection, Sections)>, StoreError> {
    let Some(server) = super::servers::find(tx, server_id)? else {
        return Ok(None);
    };
    let Some(connection) = get(tx, secrets, server_id)? else {
        return Ok(None);
    };
    let sections = super::config::load(tx, server_id)?.sections;
    Ok(Some((server, connection, sections)))
}
