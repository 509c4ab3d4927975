//! Members' messages in a simulated community's channels: written by
//! `modctld simulate message` and the demo's trickle, deleted by the
//! simulator's `DeleteMessage` (automod) and with their channel. What the
//! bot posts is kept in the same table, with the posts themselves
//! ([`super::posts`]).

use crate::store::sql::params;

use crate::store::{StoreError, Tx};

/// Records a message posted to `channel` at `now`; its id.
pub fn insert_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    text: &str,
    now: i64,
) -> Result<i64, StoreError> {
    tx.sql.execute(
        "INSERT INTO sim_messages (server_id, channel_id, text, posted_at) VALUES (?1, ?2, ?3, ?4)",
        params![server_id, channel, text, now],
    )?;
    Ok(tx.sql.last_insert_rowid())
}

/// Messages posted to `channel`, oldest first.
pub fn messages(tx: &Tx<'_>, server_id: &str, channel: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT text FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 ORDER BY id",
    )?;
    let rows = stmt.rows([server_id, channel], |row| row.get("text"))?;
    Ok(rows)
}

/// Messages posted to `channel` with their ids (what a deletion names),
/// oldest first.
pub fn messages_with_ids(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
) -> Result<Vec<(i64, String)>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT id, text FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 ORDER BY id",
    )?;
    let rows = stmt.rows([server_id, channel], |row| {
        Ok((row.get("id")?, row.get("text")?))
    })?;
    Ok(rows)
}

/// Deletes message `id` of `channel`; whether there was one.
pub fn delete_message(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    id: i64,
) -> Result<bool, StoreError> {
    let deleted = tx
        .sql
        .prepare("DELETE FROM sim_messages WHERE server_id = ?1 AND channel_id = ?2 AND id = ?3")?
        .execute(params![server_id, channel, id])?;
    Ok(deleted > 0)
}

/// Whether message `id` of `channel` is there.
pub fn message_exists(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    id: i64,
) -> Result<bool, StoreError> {
    tx.sql.row(
        "SELECT EXISTS (SELECT 1 FROM sim_messages \
             WHERE server_id = ?1 AND channel_id = ?2 AND id = ?3)",
        params![server_id, channel, id],
        crate::store::scalar,
    )
}
