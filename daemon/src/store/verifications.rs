//! Pending verifications of new members and Discord's verify messages
//! (issue #26, `welcome.verification`; migration V35): durable, so a
//! restart neither forgets who must still verify nor gives anyone more time
//! (the deadline is fixed at the join, on the daemon's clock).

use rusqlite::{OptionalExtension, Row, params};

use super::{FromRow, StoreError};
use crate::store::Tx;

/// A member who must verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The server.
    pub server_id: String,
    /// The member.
    pub user_id: String,
    /// When they joined (unix seconds).
    pub since: i64,
    /// When they are kicked unless verified (unix seconds).
    pub deadline: i64,
    /// The prompt to delete once settled (Telegram), if any.
    pub prompt_channel_id: Option<String>,
    /// Its message id.
    pub prompt_message_id: Option<String>,
    /// `pending`, `verified`, `kicked` or `dropped`.
    pub state: String,
}

impl FromRow for Pending {
    const COLUMNS: &'static str = "server_id, user_id, since, deadline, prompt_channel_id, \
        prompt_message_id, state";

    fn from_row(row: &Row<'_>) -> rusqlite::Result<Pending> {
        Ok(Pending {
            server_id: row.get("server_id")?,
            user_id: row.get("user_id")?,
            since: row.get("since")?,
            deadline: row.get("deadline")?,
            prompt_channel_id: row.get("prompt_channel_id")?,
            prompt_message_id: row.get("prompt_message_id")?,
            state: row.get("state")?,
        })
    }
}

/// Records that `user_id` joined `server_id` at `since` and must verify by
/// `deadline`; a member who joins again starts over.
pub fn start(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    since: i64,
    deadline: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO verifications (server_id, user_id, since, deadline)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (server_id, user_id) DO UPDATE SET since = excluded.since,
             deadline = excluded.deadline, prompt_channel_id = NULL,
             prompt_message_id = NULL, state = 'pending', settled_at = NULL,
             case_id = NULL, detail = NULL",
        params![server_id, user_id, since, deadline],
    )?;
    Ok(())
}

/// Names the prompt posted for a pending member (to delete once settled).
pub fn set_prompt(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    channel_id: &str,
    message_id: &str,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE verifications SET prompt_channel_id = ?3, prompt_message_id = ?4
         WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user_id, channel_id, message_id],
    )?;
    Ok(())
}

/// `user_id`'s verification on `server_id`, whatever its state.
pub fn get(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<Option<Pending>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached(&format!(
            "SELECT {} FROM verifications WHERE server_id = ?1 AND user_id = ?2",
            Pending::COLUMNS
        ))?
        .query_row([server_id, user_id], Pending::from_row)
        .optional()?)
}

/// Settles a pending verification as `state` (`verified`, `kicked`,
/// `dropped`) at `now`: whether it was still pending (only one caller
/// settles a member: a press and the kick worker racing, one wins).
pub fn settle(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    state: &str,
    now: i64,
    detail: Option<&str>,
) -> Result<bool, StoreError> {
    let changed = tx.sql.execute(
        "UPDATE verifications SET state = ?3, settled_at = ?4, detail = ?5
         WHERE server_id = ?1 AND user_id = ?2 AND state = 'pending'",
        params![server_id, user_id, state, now, detail],
    )?;
    Ok(changed == 1)
}

/// Names the kick's case of a settled verification.
pub fn set_case(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    case_id: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE verifications SET case_id = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user_id, case_id],
    )?;
    Ok(())
}

/// The pending verifications whose deadline is at or before `now`, oldest
/// first, at most `limit`.
pub fn due(tx: &Tx<'_>, now: i64, limit: usize) -> Result<Vec<Pending>, StoreError> {
    let mut statement = tx.sql.prepare_cached(&format!(
        "SELECT {} FROM verifications WHERE state = 'pending' AND deadline <= ?1
         ORDER BY deadline LIMIT ?2",
        Pending::COLUMNS
    ))?;
    let rows = statement.query_map(params![now, limit as i64], Pending::from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The pending verifications of `server_id`, oldest first.
pub fn pending(tx: &Tx<'_>, server_id: &str) -> Result<Vec<Pending>, StoreError> {
    let mut statement = tx.sql.prepare_cached(&format!(
        "SELECT {} FROM verifications WHERE server_id = ?1 AND state = 'pending'
         ORDER BY since, user_id",
        Pending::COLUMNS
    ))?;
    let rows = statement.query_map([server_id], Pending::from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Discord's verify message of `server_id`: (channel, message).
pub fn verify_message(
    tx: &Tx<'_>,
    server_id: &str,
) -> Result<Option<(String, String)>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT channel_id, message_id FROM verify_messages WHERE server_id = ?1")?
        .query_row([server_id], |row| {
            Ok((row.get("channel_id")?, row.get("message_id")?))
        })
        .optional()?)
}

/// Records the verify message posted for `server_id`.
pub fn set_verify_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel_id: &str,
    message_id: &str,
    now: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO verify_messages (server_id, channel_id, message_id, posted_at)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (server_id) DO UPDATE SET channel_id = excluded.channel_id,
             message_id = excluded.message_id, posted_at = excluded.posted_at",
        params![server_id, channel_id, message_id, now],
    )?;
    Ok(())
}
