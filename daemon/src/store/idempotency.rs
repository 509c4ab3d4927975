//! `Idempotency-Key` records.
//!
//! A key is claimed in the same transaction that writes the action's pending
//! case, and points at that case. There is no separate "store the response"
//! step: the response is rebuilt from the case ([`super::cases::response_for`]),
//! so a claimed key always has a case, and a case whose request died with the
//! daemon answers its key once start-up has settled it.

use crate::store::Tx;
use crate::store::sql::params;

use super::StoreError;

/// How long an `Idempotency-Key` is remembered.
pub const WINDOW_SECS: i64 = 24 * 60 * 60;

/// What claiming an `Idempotency-Key` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// First use: the caller records its case and [`attach`]es it.
    New,
    /// Used before for the same request, which recorded this case.
    Replay(i64),
    /// Used before for the same request by a daemon older than this store
    /// version, which kept the response itself (JSON).
    ReplayStored(String),
    /// Used before for another request (a different fingerprint).
    Refused,
}

/// Claims `key` of API key `key_id` for a request with `fingerprint`,
/// forgetting keys older than the window first.
pub fn claim(
    tx: &Tx<'_>,
    key_id: &str,
    key: &str,
    fingerprint: &str,
    now: i64,
) -> Result<Claim, StoreError> {
    tx.sql
        .prepare("DELETE FROM idempotency_keys WHERE created_at <= ?1")?
        .execute([now - WINDOW_SECS])?;
    let existing: Option<(String, Option<i64>, Option<String>)> = tx.sql.opt_row(
        "SELECT fingerprint, (SELECT number FROM cases WHERE cases.id = case_id) AS case_number,
                    response
             FROM idempotency_keys WHERE key_id = ?1 AND idempotency_key = ?2",
        [key_id, key],
        |row| {
            Ok((
                row.get("fingerprint")?,
                row.get("case_number")?,
                row.get("response")?,
            ))
        },
    )?;
    Ok(match existing {
        None => Claim::New,
        Some((stored, _, _)) if stored != fingerprint => Claim::Refused,
        Some((_, Some(case_id), _)) => Claim::Replay(case_id),
        Some((_, None, Some(response))) => Claim::ReplayStored(response),
        // Only a daemon older than this store version left such rows (a claim
        // whose request never finished); it is long gone, so start afresh.
        Some((_, None, None)) => {
            tx.sql
                .prepare("DELETE FROM idempotency_keys WHERE key_id = ?1 AND idempotency_key = ?2")?
                .execute([key_id, key])?;
            Claim::New
        }
    })
}

/// Records that `key` created case `case_id` (its number) of `server_id`;
/// called in the transaction of a [`Claim::New`] claim.
pub fn attach(
    tx: &Tx<'_>,
    key_id: &str,
    key: &str,
    fingerprint: &str,
    server_id: &str,
    case_id: i64,
    now: i64,
) -> Result<(), StoreError> {
    tx.sql.prepare(
        "INSERT INTO idempotency_keys (key_id, idempotency_key, fingerprint, case_id, created_at)
         VALUES (?1, ?2, ?3, (SELECT id FROM cases WHERE server_id = ?4 AND number = ?5), ?6)",
    )?
    .execute(params![key_id, key, fingerprint, server_id, case_id, now])?;
    Ok(())
}
