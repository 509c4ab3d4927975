//! What the daemon's unit tests outside the store need to do to a database
//! that no domain function does: delete a row behind the daemon's back,
//! make a table refuse writes, count raw rows. Compiled for tests only, so
//! the SQL stays in the store (issue #24) without a back door in the build.

use crate::store::sql::params;
use modctl_types::{Plan, Platform};

use super::{Store, StoreError, Tx, servers, teams};

/// A store in a temporary directory (gone with the returned guard) with
/// one team, `t` on the pro plan, which claimed server `server_id` on
/// `platform` (named as its id) at time 0: what most unit tests of a
/// server's data start from.
pub async fn store_with_server(platform: Platform, server_id: &str) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open(dir.path().join("db"))
        .await
        .expect("a store in it");
    let id = server_id.to_owned();
    store
        .write(move |tx| {
            let team = teams::create(tx, "t", Plan::Pro, 0)?;
            servers::insert(tx, team.id, platform, &id, &id, 0)
        })
        .await
        .expect("a team and its server");
    (dir, store)
}

/// Deletes server `id` (and what cascades from it) as if it had been
/// unclaimed while something was in flight.
pub fn drop_server(tx: &Tx<'_>, id: &str) -> Result<(), StoreError> {
    tx.sql
        .execute("DELETE FROM servers WHERE id = ?1", params![id])?;
    Ok(())
}

/// Gives `server_id` the sealed webhook secret of `from`: sealed for
/// another server, it cannot be unsealed as `server_id`'s (a copied row, or
/// a hand-edited database).
pub fn copy_webhook_secret(tx: &Tx<'_>, server_id: &str, from: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO webhook_secrets (server_id, secret, updated_at)
         SELECT ?1, secret, 0 FROM webhook_secrets WHERE server_id = ?2",
        [server_id, from],
    )?;
    Ok(())
}

/// Makes inserts into `table` for `server_id` fail, on this connection only
/// (a temporary trigger: call it in a write to affect the writer).
pub fn refuse_inserts(tx: &Tx<'_>, table: &str, server_id: &str) -> Result<(), StoreError> {
    tx.sql.execute_batch(&format!(
        "CREATE TEMP TRIGGER refuse_{table} BEFORE INSERT ON {table}
         WHEN NEW.server_id = '{server_id}' BEGIN SELECT RAISE(ABORT, 'refused'); END"
    ))?;
    Ok(())
}

/// How many rows of `table` each server has, by server id.
pub fn rows_by_server(tx: &Tx<'_>, table: &str) -> Result<Vec<(String, i64)>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT server_id, COUNT(*) AS count FROM {table} GROUP BY server_id ORDER BY server_id"
    ))?;
    let rows = stmt.rows([], |row| Ok((row.get("server_id")?, row.get("count")?)))?;
    Ok(rows)
}

/// The error of a uniqueness constraint that refused a row (two writers
/// raced for it), as a write would report it.
pub fn constraint_violation() -> StoreError {
    let conn = rusqlite::Connection::open_in_memory().expect("an in-memory database");
    conn.execute_batch("CREATE TABLE t (id TEXT PRIMARY KEY); INSERT INTO t VALUES ('42');")
        .expect("a table with a row");
    conn.execute("INSERT INTO t VALUES ('42')", [])
        .expect_err("the second row is refused")
        .into()
}

/// A database failure that is not a constraint's.
pub fn other_failure() -> StoreError {
    rusqlite::Error::InvalidQuery.into()
}
