//! What the last sync of each Discord server's native AutoMod rules found
//! (`crate::automation::native::sync`): a digest of the rules the config
//! asked for, whether it failed, when, and its report as JSON.

use crate::store::sql::{Row, params};

use super::{FromRow, StoreError};
use crate::store::Tx;

/// The last sync of one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastSync {
    /// The digest of the rules the config asked for then.
    pub fingerprint: String,
    /// Whether something could not be done.
    pub failed: bool,
    /// When (unix seconds).
    pub checked_at: i64,
    /// The report (JSON of `automation::native::sync::Report`).
    pub report: String,
}

impl FromRow for LastSync {
    const COLUMNS: &'static str = "native_rules_sync.fingerprint, native_rules_sync.failed, \
        native_rules_sync.checked_at, native_rules_sync.report";

    fn from_row(row: &Row<'_>) -> Result<LastSync, StoreError> {
        Ok(LastSync {
            fingerprint: row.get("fingerprint")?,
            failed: row.get::<i64>("failed")? != 0,
            checked_at: row.get("checked_at")?,
            report: row.get("report")?,
        })
    }
}

/// The Discord servers with a connection (live or simulated), each with
/// its last sync if any.
pub fn connected_discord(tx: &Tx<'_>) -> Result<Vec<(String, Option<LastSync>)>, StoreError> {
    let mut statement = tx.sql.prepare(&format!(
        "SELECT servers.id AS server_id, native_rules_sync.server_id AS synced, {}
         FROM servers
         JOIN platform_connections c ON c.server_id = servers.id
         LEFT JOIN native_rules_sync ON native_rules_sync.server_id = servers.id
         WHERE servers.platform = 'discord'
         ORDER BY servers.id",
        LastSync::COLUMNS
    ))?;
    let rows = statement.rows([], |row| {
        let server: String = row.get("server_id")?;
        let synced: Option<String> = row.get("synced")?;
        let last = match synced {
            Some(_) => Some(LastSync::from_row(row)?),
            None => None,
        };
        Ok((server, last))
    })?;
    Ok(rows)
}

/// `server_id`'s last sync, if any.
pub fn last(tx: &Tx<'_>, server_id: &str) -> Result<Option<LastSync>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {} FROM native_rules_sync WHERE server_id = ?1",
            LastSync::COLUMNS
        ),
        [server_id],
        LastSync::from_row,
    )
}

/// Records `server_id`'s sync.
pub fn record(tx: &Tx<'_>, server_id: &str, sync: &LastSync) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO native_rules_sync (server_id, fingerprint, failed, checked_at, report)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (server_id) DO UPDATE SET fingerprint = excluded.fingerprint,
             failed = excluded.failed, checked_at = excluded.checked_at, report = excluded.report",
        params![
            server_id,
            sync.fingerprint,
            i64::from(sync.failed),
            sync.checked_at,
            sync.report
        ],
    )?;
    Ok(())
}
