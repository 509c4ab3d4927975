//! Raid lockdowns (issue #26, `crate::automation::lockdown`): one row per
//! lockdown, running while `ended_at` is NULL; at most one running per
//! server (a partial unique index backs the check of [`start`]).

use crate::store::sql::{Row, params};
use modctl_types::lockdown::Lockdown;

use super::{FromRow, StoreError, Tx, timestamp};

impl FromRow for Lockdown {
    const COLUMNS: &'static str = "id, started_at, ends_at, started_by, why, ended_at, ended_by,
        start_outcome, end_outcome, members_held, members_failed";

    fn from_row(row: &Row<'_>) -> Result<Lockdown, StoreError> {
        Ok(Lockdown {
            id: row.get("id")?,
            started_at: timestamp(row.get("started_at")?),
            ends_at: timestamp(row.get("ends_at")?),
            started_by: row.get("started_by")?,
            why: row.get("why")?,
            ended_at: row.get::<Option<i64>>("ended_at")?.map(timestamp),
            ended_by: row.get("ended_by")?,
            start_outcome: row.get("start_outcome")?,
            end_outcome: row.get("end_outcome")?,
            members_held: row.get("members_held")?,
            members_failed: row.get("members_failed")?,
        })
    }
}

const COLUMNS: &str = Lockdown::COLUMNS;

/// What a new lockdown is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLockdown<'a> {
    /// The server.
    pub server_id: &'a str,
    /// Unix seconds it starts.
    pub started_at: i64,
    /// Unix seconds it ends by itself.
    pub ends_at: i64,
    /// `automatic`, or the key or operator.
    pub started_by: &'a str,
    /// Why.
    pub why: &'a str,
}

/// Starts a lockdown: the new row, or `Err(running)` when one already runs
/// (nothing written).
pub fn start(tx: &Tx<'_>, new: &NewLockdown<'_>) -> Result<Result<Lockdown, Lockdown>, StoreError> {
    if let Some(running) = running(tx, new.server_id)? {
        return Ok(Err(running));
    }
    let lockdown = tx.sql.row(
        &format!(
            "INSERT INTO lockdowns (server_id, started_at, ends_at, started_by, why)
             VALUES (?1, ?2, ?3, ?4, ?5) RETURNING {COLUMNS}"
        ),
        params![
            new.server_id,
            new.started_at,
            new.ends_at,
            new.started_by,
            new.why
        ],
        Lockdown::from_row,
    )?;
    Ok(Ok(lockdown))
}

/// The running lockdown of `server_id`, if any.
pub fn running(tx: &Tx<'_>, server_id: &str) -> Result<Option<Lockdown>, StoreError> {
    tx.sql.opt_row(
        &format!("SELECT {COLUMNS} FROM lockdowns WHERE server_id = ?1 AND ended_at IS NULL"),
        [server_id],
        Lockdown::from_row,
    )
}

/// The latest lockdown of `server_id` that ended, if any.
pub fn last_ended(tx: &Tx<'_>, server_id: &str) -> Result<Option<Lockdown>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {COLUMNS} FROM lockdowns
              WHERE server_id = ?1 AND ended_at IS NOT NULL ORDER BY id DESC LIMIT 1"
        ),
        [server_id],
        Lockdown::from_row,
    )
}

/// The running lockdowns whose end has come by `now`: (server, lockdown),
/// soonest first.
pub fn due(tx: &Tx<'_>, now: i64) -> Result<Vec<(String, Lockdown)>, StoreError> {
    let mut statement = tx.sql.prepare(&format!(
        "SELECT server_id, {COLUMNS} FROM lockdowns
          WHERE ended_at IS NULL AND ends_at <= ?1 ORDER BY ends_at"
    ))?;
    let rows = statement.rows([now], |row| {
        Ok((row.get("server_id")?, Lockdown::from_row(row)?))
    })?;
    Ok(rows)
}

/// The running lockdowns started at or before `before` whose start the
/// platform was never asked for (`start_outcome` NULL: the daemon stopped
/// between writing the row and asking): (server, lockdown).
pub fn unstarted(tx: &Tx<'_>, before: i64) -> Result<Vec<(String, Lockdown)>, StoreError> {
    let mut statement = tx.sql.prepare(&format!(
        "SELECT server_id, {COLUMNS} FROM lockdowns
          WHERE ended_at IS NULL AND start_outcome IS NULL AND started_at <= ?1"
    ))?;
    let rows = statement.rows([before], |row| {
        Ok((row.get("server_id")?, Lockdown::from_row(row)?))
    })?;
    Ok(rows)
}

/// Ends lockdown `id` at `now`, by `ended_by`: the ended row, or `None`
/// when it had already ended (another ending won).
pub fn end(
    tx: &Tx<'_>,
    id: i64,
    now: i64,
    ended_by: &str,
    outcome: Option<&str>,
) -> Result<Option<Lockdown>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "UPDATE lockdowns SET ended_at = ?2, ended_by = ?3, end_outcome = ?4
              WHERE id = ?1 AND ended_at IS NULL RETURNING {COLUMNS}"
        ),
        params![id, now, ended_by, outcome],
        Lockdown::from_row,
    )
}

/// Records what the platform did at lockdown `id`'s start.
pub fn set_start_outcome(tx: &Tx<'_>, id: i64, outcome: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE lockdowns SET start_outcome = ?2 WHERE id = ?1",
        params![id, outcome],
    )?;
    Ok(())
}

/// Counts members held (`held`) or refused by the platform during lockdown
/// `id`.
pub fn count_members(tx: &Tx<'_>, id: i64, held: u32, failed: u32) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE lockdowns SET members_held = members_held + ?2,
                              members_failed = members_failed + ?3
          WHERE id = ?1",
        params![id, held, failed],
    )?;
    Ok(())
}
