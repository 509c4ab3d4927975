//! Servers (communities) claimed by teams.

use crate::store::Tx;
use modctl_types::{Platform, Server};
use rusqlite::{OptionalExtension, Row, params};

use super::{StoreError, timestamp};

/// A server row with its owning team, as the authorization checks need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerRecord {
    /// The owning team.
    pub team_id: i64,
    /// The wire view of the server.
    pub server: Server,
}

/// Records `id` as claimed by `team_id` at `now` (unix seconds). The rules
/// of a claim (the id's shape, the name, the plan's limit, one team per
/// server) are [`crate::servers::claim`]'s; a server claimed meanwhile fails
/// the primary key.
pub fn insert(
    tx: &Tx<'_>,
    team_id: i64,
    platform: Platform,
    id: &str,
    name: &str,
    now: i64,
) -> Result<Server, StoreError> {
    tx.sql.execute(
        "INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, team_id, platform.as_str(), name, now],
    )?;
    Ok(Server {
        id: id.to_owned(),
        name: name.to_owned(),
        platform,
        claimed_at: timestamp(now),
    })
}

/// The server `id` with its owner, whoever claimed it.
pub fn find(tx: &Tx<'_>, id: &str) -> Result<Option<ServerRecord>, StoreError> {
    let record = tx
        .sql
        .prepare_cached(
            "SELECT id, name, platform, claimed_at, team_id FROM servers WHERE id = ?1",
        )?
        .query_row([id], |row| {
            Ok(ServerRecord {
                team_id: row.get(4)?,
                server: from_row(row)?,
            })
        })
        .optional()?;
    Ok(record)
}

/// The servers of one team, ordered by id.
pub fn list_for_team(tx: &Tx<'_>, team_id: i64) -> Result<Vec<Server>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT id, name, platform, claimed_at FROM servers WHERE team_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([team_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every claimed server with the name of its team, for operators.
pub fn list_all(tx: &Tx<'_>) -> Result<Vec<(String, Server)>, StoreError> {
    let mut stmt = tx.sql.prepare_cached(
        "SELECT s.id, s.name, s.platform, s.claimed_at, t.name
         FROM servers s JOIN teams t ON t.id = s.team_id ORDER BY t.name, s.id",
    )?;
    let rows = stmt.query_map([], |row| Ok((row.get(4)?, from_row(row)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many servers a team has claimed.
pub fn count_for_team(tx: &Tx<'_>, team_id: i64) -> Result<u64, StoreError> {
    let count: i64 = tx
        .sql
        .prepare_cached("SELECT COUNT(*) FROM servers WHERE team_id = ?1")?
        .query_row([team_id], |row| row.get(0))?;
    Ok(count.try_into().unwrap_or(0))
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<Server> {
    let platform: String = row.get(2)?;
    Ok(Server {
        id: row.get(0)?,
        name: row.get(1)?,
        platform: platform.parse().map_err(|e: String| {
            rusqlite::Error::FromSqlConversionFailure(2, rusqlite::types::Type::Text, e.into())
        })?,
        claimed_at: timestamp(row.get(3)?),
    })
}
