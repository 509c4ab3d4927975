//! Active jails: one row per jailed member, deleted when the jail ends (the
//! cases keep the history). The primary key `(server_id, user_id)` makes a
//! second jail of one member impossible; the action path also checks it under
//! the member's lock, so the constraint is a backstop, not the mechanism.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::moderation::JailRecord;

use super::{FromRow, StoreError, scalar, timestamp};

/// Records an active jail.
pub fn insert(tx: &Tx<'_>, server_id: &str, jail: &JailRecord) -> Result<(), StoreError> {
    tx.sql.execute(
        // `case_id` is the case's number on the wire, the row id in the table.
        "INSERT INTO jails (server_id, user_id, case_id, saved_roles, since, until)
         VALUES (?1, ?2, (SELECT id FROM cases WHERE server_id = ?1 AND number = ?3), ?4, ?5, ?6)",
        params![
            server_id,
            jail.user_id,
            jail.case_id,
            serde_json::to_string(&jail.saved_roles).expect("strings serialize"),
            jail.since.as_second(),
            jail.until.map(|t| t.as_second()),
        ],
    )?;
    Ok(())
}

impl FromRow for JailRecord {
    const COLUMNS: &'static str = "user_id, since, until, saved_roles,
    (SELECT number FROM cases WHERE cases.id = jails.case_id) AS case_number";

    fn from_row(row: &Row<'_>) -> Result<JailRecord, StoreError> {
        let saved = row.get_str("saved_roles")?;
        Ok(JailRecord {
            user_id: row.get("user_id")?,
            since: timestamp(row.get("since")?),
            until: row.get::<Option<i64>>("until")?.map(timestamp),
            // Saved roles are the one thing an unjail gives back: unreadable
            // ones are corrupt data, not "no roles".
            saved_roles: serde_json::from_str(saved).map_err(|e| row.invalid("saved_roles", e))?,
            case_id: row.get("case_number")?,
            user_name: None,
        })
    }
}

/// The columns of a [`JailRecord`], for `format!` (`{JAIL_COLUMNS}`).
const JAIL_COLUMNS: &str = JailRecord::COLUMNS;

/// The active jail of `user_id`, if any.
pub fn find(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<Option<JailRecord>, StoreError> {
    tx.sql.opt_row(
        &format!("SELECT {JAIL_COLUMNS} FROM jails WHERE server_id = ?1 AND user_id = ?2"),
        [server_id, user_id],
        JailRecord::from_row,
    )
}

/// Ends the jail of `user_id`; whether there was one.
pub fn release(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<bool, StoreError> {
    Ok(tx.sql.execute(
        "DELETE FROM jails WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user_id],
    )? > 0)
}

/// How many members of `server_id` are jailed.
pub fn count(tx: &Tx<'_>, server_id: &str) -> Result<u64, StoreError> {
    let count: i64 = tx.sql.row(
        "SELECT COUNT(*) FROM jails WHERE server_id = ?1",
        [server_id],
        scalar,
    )?;
    Ok(count.max(0) as u64)
}

/// Active jails of a server, oldest first.
pub fn list(tx: &Tx<'_>, server_id: &str) -> Result<Vec<JailRecord>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {JAIL_COLUMNS} FROM jails WHERE server_id = ?1 ORDER BY since, user_id"
    ))?;
    let rows = stmt.rows([server_id], JailRecord::from_row)?;
    Ok(rows)
}

/// Jails whose time is up at `now`, with their servers.
pub fn due(tx: &Tx<'_>, now: i64) -> Result<Vec<(String, JailRecord)>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT server_id, {JAIL_COLUMNS} FROM jails WHERE until IS NOT NULL AND until <= ?1 ORDER BY until LIMIT 100"
    ))?;
    let rows = stmt.rows([now], |row| {
        Ok((row.get("server_id")?, JailRecord::from_row(row)?))
    })?;
    Ok(rows)
}
