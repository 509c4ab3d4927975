//! Cases, strikes, jails and idempotency records.
//!
//! A case and its effects (a strike, a jail row, the idempotent response) are
//! written by the caller in one transaction, so none exists without the other.

use modctl_types::Platform;
use modctl_types::moderation::{Action, Case, CaseSource, JailRecord, StrikeSummary};
use rusqlite::{OptionalExtension, Row, Transaction, params};

use super::{StoreError, timestamp};

/// How long an `Idempotency-Key` is remembered.
pub const IDEMPOTENCY_WINDOW_SECS: i64 = 24 * 60 * 60;

/// A case to record.
#[derive(Debug, Clone)]
pub struct NewCase<'a> {
    /// The server.
    pub server_id: &'a str,
    /// What was done.
    pub action: Action,
    /// To whom.
    pub user_id: &'a str,
    /// By whom.
    pub actor: &'a str,
    /// Why.
    pub reason: Option<&'a str>,
    /// Duration in minutes.
    pub minutes: Option<i64>,
    /// End of the timeout or jail, unix seconds.
    pub expires_at: Option<i64>,
    /// Days of messages deleted.
    pub delete_message_days: Option<i64>,
    /// Applied on the platform.
    pub applied: bool,
    /// The platform.
    pub platform: Platform,
    /// What happened.
    pub detail: &'a str,
    /// How it came about.
    pub source: CaseSource,
    /// The case that caused it.
    pub linked_case_id: Option<i64>,
    /// When, unix seconds.
    pub now: i64,
}

const CASE_COLUMNS: &str =
    "id, number, action, user_id, actor, reason, minutes, expires_at, delete_message_days,
    applied, platform, detail, created_at, source, linked_case_id";

/// Records a case with the next per-server number.
pub fn insert(tx: &Transaction<'_>, case: &NewCase<'_>) -> Result<Case, StoreError> {
    // MAX over the (server_id, number) unique index is a single index probe.
    let number: i64 = tx
        .prepare_cached("SELECT COALESCE(MAX(number), 0) + 1 FROM cases WHERE server_id = ?1")?
        .query_row([case.server_id], |row| row.get(0))?;
    tx.execute(
        "INSERT INTO cases (server_id, number, action, user_id, actor, reason, minutes, expires_at,
             delete_message_days, applied, platform, detail, source, linked_case_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            case.server_id,
            number,
            case.action.as_str(),
            case.user_id,
            case.actor,
            case.reason,
            case.minutes,
            case.expires_at,
            case.delete_message_days,
            case.applied,
            case.platform.as_str(),
            case.detail,
            case.source.as_str(),
            case.linked_case_id,
            case.now,
        ],
    )?;
    let id = tx.last_insert_rowid();
    get(tx, case.server_id, id)?
        .ok_or_else(|| StoreError::Corrupt(format!("case {id} vanished after insert")))
}

/// Case `case_id` of `server_id`; `None` also when it belongs to another server.
pub fn get(
    tx: &Transaction<'_>,
    server_id: &str,
    case_id: i64,
) -> Result<Option<Case>, StoreError> {
    let case = tx
        .prepare_cached(&format!(
            "SELECT {CASE_COLUMNS} FROM cases WHERE server_id = ?1 AND id = ?2"
        ))?
        .query_row(params![server_id, case_id], case_from_row)
        .optional()?;
    Ok(case)
}

/// Cases newest first, optionally of one user and older than case `before`.
/// Served by `cases_by_server` / `cases_by_user`, so its cost depends on
/// `limit`, not on how many cases the table holds.
pub fn list(
    tx: &Transaction<'_>,
    server_id: &str,
    user_id: Option<&str>,
    before: Option<i64>,
    limit: u32,
) -> Result<Vec<Case>, StoreError> {
    let before = before.unwrap_or(i64::MAX);
    let rows = match user_id {
        Some(user) => tx
            .prepare_cached(&list_by_user_sql())?
            .query_map(params![server_id, user, before, limit], case_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?,
        None => tx
            .prepare_cached(&list_sql())?
            .query_map(params![server_id, before, limit], case_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?,
    };
    Ok(rows)
}

fn list_sql() -> String {
    format!(
        "SELECT {CASE_COLUMNS} FROM cases WHERE server_id = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3"
    )
}

fn list_by_user_sql() -> String {
    format!(
        "SELECT {CASE_COLUMNS} FROM cases WHERE server_id = ?1 AND user_id = ?2 AND id < ?3 ORDER BY id DESC LIMIT ?4"
    )
}

fn case_from_row(row: &Row<'_>) -> rusqlite::Result<Case> {
    let parse_err = |i: usize, e: String| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, e.into())
    };
    let action: String = row.get(2)?;
    let platform: String = row.get(10)?;
    let source: String = row.get(13)?;
    Ok(Case {
        id: row.get(0)?,
        number: row.get(1)?,
        action: action.parse().map_err(|e| parse_err(2, e))?,
        user_id: row.get(3)?,
        actor: row.get(4)?,
        reason: row.get(5)?,
        minutes: row.get(6)?,
        expires_at: row.get::<_, Option<i64>>(7)?.map(timestamp),
        delete_message_days: row.get(8)?,
        applied: row.get(9)?,
        platform: platform.parse().map_err(|e| parse_err(10, e))?,
        detail: row.get(11)?,
        created_at: timestamp(row.get(12)?),
        source: match source.as_str() {
            "escalation" => CaseSource::Escalation,
            "expiry" => CaseSource::Expiry,
            _ => CaseSource::Api,
        },
        linked_case_id: row.get(14)?,
    })
}

/// Adds `weight` strikes for `case_id`.
pub fn add_strike(
    tx: &Transaction<'_>,
    server_id: &str,
    user_id: &str,
    case_id: i64,
    weight: u32,
    now: i64,
    expires_at: Option<i64>,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO strikes (server_id, user_id, case_id, weight, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![server_id, user_id, case_id, weight, now, expires_at],
    )?;
    Ok(())
}

/// Strikes of `user_id` that have not expired at `now`.
pub fn active_strikes(
    tx: &Transaction<'_>,
    server_id: &str,
    user_id: &str,
    now: i64,
) -> Result<u32, StoreError> {
    let active: i64 = tx
        .prepare_cached(
            "SELECT COALESCE(SUM(weight), 0) FROM strikes
             WHERE server_id = ?1 AND user_id = ?2 AND (expires_at IS NULL OR expires_at > ?3)",
        )?
        .query_row(params![server_id, user_id, now], |row| row.get(0))?;
    Ok(active.try_into().unwrap_or(u32::MAX))
}

/// Members with strikes, most active first.
pub fn strike_summaries(
    tx: &Transaction<'_>,
    server_id: &str,
    now: i64,
) -> Result<Vec<StrikeSummary>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT user_id,
                COALESCE(SUM(CASE WHEN expires_at IS NULL OR expires_at > ?2 THEN weight END), 0) AS active,
                SUM(weight), MAX(created_at)
         FROM strikes WHERE server_id = ?1 AND weight > 0
         GROUP BY user_id ORDER BY active DESC, user_id",
    )?;
    let rows = stmt.query_map(params![server_id, now], |row| {
        Ok(StrikeSummary {
            user_id: row.get(0)?,
            active: row.get::<_, i64>(1)?.try_into().unwrap_or(u32::MAX),
            total: row.get::<_, i64>(2)?.try_into().unwrap_or(u32::MAX),
            last_strike_at: timestamp(row.get(3)?),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records an active jail.
pub fn insert_jail(
    tx: &Transaction<'_>,
    server_id: &str,
    jail: &JailRecord,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO jails (server_id, user_id, case_id, saved_roles, since, until) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
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

const JAIL_COLUMNS: &str = "user_id, since, until, saved_roles, case_id";

fn jail_from_row(row: &Row<'_>) -> rusqlite::Result<JailRecord> {
    let saved: String = row.get(3)?;
    Ok(JailRecord {
        user_id: row.get(0)?,
        since: timestamp(row.get(1)?),
        until: row.get::<_, Option<i64>>(2)?.map(timestamp),
        saved_roles: serde_json::from_str(&saved).unwrap_or_default(),
        case_id: row.get(4)?,
    })
}

/// The active jail of `user_id`, if any.
pub fn find_jail(
    tx: &Transaction<'_>,
    server_id: &str,
    user_id: &str,
) -> Result<Option<JailRecord>, StoreError> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {JAIL_COLUMNS} FROM jails WHERE server_id = ?1 AND user_id = ?2"
        ))?
        .query_row([server_id, user_id], jail_from_row)
        .optional()?)
}

/// Ends the jail of `user_id`; whether there was one.
pub fn release_jail(
    tx: &Transaction<'_>,
    server_id: &str,
    user_id: &str,
) -> Result<bool, StoreError> {
    Ok(tx.execute(
        "DELETE FROM jails WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user_id],
    )? > 0)
}

/// Active jails of a server, oldest first.
pub fn jails(tx: &Transaction<'_>, server_id: &str) -> Result<Vec<JailRecord>, StoreError> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT {JAIL_COLUMNS} FROM jails WHERE server_id = ?1 ORDER BY since, user_id"
    ))?;
    let rows = stmt.query_map([server_id], jail_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Jails whose time is up at `now`, with their servers.
pub fn due_jails(tx: &Transaction<'_>, now: i64) -> Result<Vec<(String, JailRecord)>, StoreError> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT server_id, {JAIL_COLUMNS} FROM jails WHERE until IS NOT NULL AND until <= ?1 ORDER BY until LIMIT 100"
    ))?;
    let rows = stmt.query_map([now], |row| {
        let server: String = row.get(0)?;
        let saved: String = row.get(4)?;
        Ok((
            server,
            JailRecord {
                user_id: row.get(1)?,
                since: timestamp(row.get(2)?),
                until: row.get::<_, Option<i64>>(3)?.map(timestamp),
                saved_roles: serde_json::from_str(&saved).unwrap_or_default(),
                case_id: row.get(5)?,
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What an `Idempotency-Key` lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// First use: the key is now claimed for this request.
    New,
    /// Used before for the same request: its response (JSON).
    Replay(String),
    /// Used before for another request, or still in progress.
    Refused(String),
}

/// Claims `key` for a request with `fingerprint`, forgetting keys older than
/// the window first.
pub fn claim_idempotency(
    tx: &Transaction<'_>,
    key_id: &str,
    key: &str,
    fingerprint: &str,
    now: i64,
) -> Result<Claim, StoreError> {
    tx.execute(
        "DELETE FROM idempotency_keys WHERE created_at <= ?1",
        [now - IDEMPOTENCY_WINDOW_SECS],
    )?;
    let existing: Option<(String, Option<String>)> = tx
        .prepare_cached("SELECT fingerprint, response FROM idempotency_keys WHERE key_id = ?1 AND idempotency_key = ?2")?
        .query_row([key_id, key], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    Ok(match existing {
        None => {
            tx.execute(
                "INSERT INTO idempotency_keys (key_id, idempotency_key, fingerprint, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![key_id, key, fingerprint, now],
            )?;
            Claim::New
        }
        Some((stored, _)) if stored != fingerprint => Claim::Refused(format!(
            "Idempotency-Key `{key}` was already used for a different request: use a new key for a new request"
        )),
        Some((_, Some(response))) => Claim::Replay(response),
        Some((_, None)) => Claim::Refused(format!(
            "a request with Idempotency-Key `{key}` is still in progress: retry in a moment"
        )),
    })
}

/// Stores the response of a claimed key.
pub fn finish_idempotency(
    tx: &Transaction<'_>,
    key_id: &str,
    key: &str,
    response: &str,
) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE idempotency_keys SET response = ?3 WHERE key_id = ?1 AND idempotency_key = ?2",
        [key_id, key, response],
    )?;
    Ok(())
}

/// Gives up a claim whose request failed before anything was recorded.
pub fn release_idempotency(
    tx: &Transaction<'_>,
    key_id: &str,
    key: &str,
) -> Result<(), StoreError> {
    tx.execute(
        "DELETE FROM idempotency_keys WHERE key_id = ?1 AND idempotency_key = ?2 AND response IS NULL",
        [key_id, key],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    /// SQLite's plan for `sql` (every parameter bound to 1), one line per step.
    fn plan(tx: &Transaction<'_>, sql: &str) -> Vec<String> {
        let mut stmt = tx.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let params = rusqlite::params_from_iter(std::iter::repeat_n(1, stmt.parameter_count()));
        stmt.query_map(params, |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[tokio::test]
    async fn listing_cases_searches_an_index_and_never_scans_or_sorts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let plans = store
            .read(|tx| Ok::<_, StoreError>((plan(tx, &list_sql()), plan(tx, &list_by_user_sql()))))
            .await
            .unwrap();
        for (steps, index) in [(plans.0, "cases_by_server"), (plans.1, "cases_by_user")] {
            let text = steps.join(" | ");
            assert!(
                text.contains(&format!("SEARCH cases USING INDEX {index}")),
                "{text}"
            );
            assert!(
                !text.contains("SCAN") && !text.contains("TEMP B-TREE"),
                "{text}"
            );
        }
    }
}
