//! What the last sync of each Discord server's native AutoMod rules found
//! (`crate::automation::native::sync`): a digest of the rules the config
//! asked for, whether it failed, when, and its report as JSON.

use rusqlite::{OptionalExtension, params};

use super::StoreError;
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

/// The Discord servers with a connection (live or simulated), each with
/// its last sync if any.
pub fn connected_discord(tx: &Tx<'_>) -> Result<Vec<(String, Option<LastSync>)>, StoreError> {
    let mut statement = tx.sql.prepare_cached(
        "SELECT s.id, n.fingerprint, n.failed, n.checked_at, n.report
         FROM servers s
         JOIN platform_connections c ON c.server_id = s.id
         LEFT JOIN native_rules_sync n ON n.server_id = s.id
         WHERE s.platform = 'discord'
         ORDER BY s.id",
    )?;
    let rows = statement.query_map([], |row| {
        let server: String = row.get(0)?;
        let fingerprint: Option<String> = row.get(1)?;
        let last = match fingerprint {
            Some(fingerprint) => Some(LastSync {
                fingerprint,
                failed: row.get::<_, i64>(2)? != 0,
                checked_at: row.get(3)?,
                report: row.get(4)?,
            }),
            None => None,
        };
        Ok((server, last))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// `server_id`'s last sync, if any.
pub fn last(tx: &Tx<'_>, server_id: &str) -> Result<Option<LastSync>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached(
            "SELECT fingerprint, failed, checked_at, report FROM native_rules_sync
             WHERE server_id = ?1",
        )?
        .query_row([server_id], |row| {
            Ok(LastSync {
                fingerprint: row.get(0)?,
                failed: row.get::<_, i64>(1)? != 0,
                checked_at: row.get(2)?,
                report: row.get(3)?,
            })
        })
        .optional()?)
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
