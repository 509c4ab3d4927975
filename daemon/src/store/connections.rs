//! How each server reaches its platform: a live bot token or the simulator.

use rusqlite::{OptionalExtension, Transaction, params};

use super::{StoreError, now_unix};

/// A server's connection.
#[derive(Clone, PartialEq, Eq)]
pub struct Connection {
    /// Live or simulated.
    pub mode: ConnectionMode,
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
pub fn get(tx: &Transaction<'_>, server_id: &str) -> Result<Option<Connection>, StoreError> {
    let row = tx
        .prepare_cached(
            "SELECT mode, token, api_base FROM platform_connections WHERE server_id = ?1",
        )?
        .query_row([server_id], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, Option<String>>(1)?,
                row.get::<_, Option<String>>(2)?,
            ))
        })
        .optional()?;
    Ok(row.map(|(mode, token, api_base)| Connection {
        mode: match (mode.as_str(), token) {
            ("live", Some(token)) => ConnectionMode::Live { token, api_base },
            _ => ConnectionMode::Simulated,
        },
    }))
}

/// Connects `server_id`, replacing any earlier connection.
pub fn set(
    tx: &Transaction<'_>,
    server_id: &str,
    connection: &Connection,
) -> Result<(), StoreError> {
    let (mode, token, api_base) = match &connection.mode {
        ConnectionMode::Live { token, api_base } => {
            ("live", Some(token.as_str()), api_base.as_deref())
        }
        ConnectionMode::Simulated => ("simulated", None, None),
    };
    tx.execute(
        "INSERT INTO platform_connections (server_id, mode, token, api_base, connected_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (server_id) DO UPDATE SET mode = excluded.mode, token = excluded.token,
             api_base = excluded.api_base, connected_at = excluded.connected_at",
        params![server_id, mode, token, api_base, now_unix()],
    )?;
    Ok(())
}
