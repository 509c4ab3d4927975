//! Servers (communities) claimed by teams.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::{Platform, Server};

use super::{FromRow, StoreError, parsed, scalar, timestamp};

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
    let record = tx.sql.opt_row(
        &format!(
            "SELECT {}, team_id FROM servers WHERE id = ?1",
            Server::COLUMNS
        ),
        [id],
        |row| {
            Ok(ServerRecord {
                team_id: row.get("team_id")?,
                server: Server::from_row(row)?,
            })
        },
    )?;
    Ok(record)
}

/// The servers of one team, ordered by id.
pub fn list_for_team(tx: &Tx<'_>, team_id: i64) -> Result<Vec<Server>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {} FROM servers WHERE team_id = ?1 ORDER BY id",
        Server::COLUMNS
    ))?;
    let rows = stmt.rows([team_id], Server::from_row)?;
    Ok(rows)
}

/// Every claimed server with the name of its team, for operators.
pub fn list_all(tx: &Tx<'_>) -> Result<Vec<(String, Server)>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {}, t.name AS team_name
         FROM servers JOIN teams t ON t.id = servers.team_id ORDER BY t.name, servers.id",
        Server::COLUMNS
    ))?;
    let rows = stmt.rows([], |row| {
        Ok((row.get("team_name")?, Server::from_row(row)?))
    })?;
    Ok(rows)
}

/// How many servers a team has claimed.
pub fn count_for_team(tx: &Tx<'_>, team_id: i64) -> Result<u64, StoreError> {
    let count: i64 = tx.sql.row(
        "SELECT COUNT(*) FROM servers WHERE team_id = ?1",
        [team_id],
        scalar,
    )?;
    Ok(count.try_into().unwrap_or(0))
}

impl FromRow for Server {
    // Named by their table: a query may join `teams`, which has an `id` and
    // a `name` too.
    const COLUMNS: &'static str = "servers.id, servers.name, servers.platform, servers.claimed_at";

    fn from_row(row: &Row<'_>) -> Result<Server, StoreError> {
        Ok(Server {
            id: row.get("id")?,
            name: row.get("name")?,
            platform: parsed(row, "platform")?,
            claimed_at: timestamp(row.get("claimed_at")?),
        })
    }
}
