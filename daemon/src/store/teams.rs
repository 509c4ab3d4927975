//! Teams: the owners of keys and servers.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::{Plan, Team};

use super::{FromRow, StoreError, scalar};

/// Creates a team at `now` (unix seconds); names are unique (what a name
/// may be is the operator's command's rule, `operator::accounts`).
pub fn create(tx: &Tx<'_>, name: &str, plan: Plan, now: i64) -> Result<Team, StoreError> {
    if find_by_name(tx, name)?.is_some() {
        return Err(StoreError::Conflict(format!(
            "team `{name}` already exists"
        )));
    }
    tx.sql.execute(
        "INSERT INTO teams (name, plan, created_at) VALUES (?1, ?2, ?3)",
        params![name, plan.as_str(), now],
    )?;
    Ok(Team {
        id: tx.sql.last_insert_rowid(),
        name: name.to_owned(),
        plan,
    })
}

/// All teams, by name.
pub fn list(tx: &Tx<'_>) -> Result<Vec<Team>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {} FROM teams ORDER BY name",
        Team::COLUMNS
    ))?;
    let rows = stmt.rows([], Team::from_row)?;
    Ok(rows)
}

/// The team with id `id`.
pub fn get(tx: &Tx<'_>, id: i64) -> Result<Team, StoreError> {
    let team = tx.sql.row(
        &format!("SELECT {} FROM teams WHERE id = ?1", Team::COLUMNS),
        [id],
        Team::from_row,
    )?;
    Ok(team)
}

/// The team that claimed server `server_id`, for the plan checks of writes
/// that name only the server (config, snapshots, webhooks).
pub fn of_server(tx: &Tx<'_>, server_id: &str) -> Result<Team, StoreError> {
    tx.sql
        .opt_row(
            &format!(
                "SELECT {} FROM teams JOIN servers s ON s.team_id = teams.id WHERE s.id = ?1",
                Team::COLUMNS
            ),
            [server_id],
            Team::from_row,
        )?
        .ok_or_else(|| StoreError::NotFound(format!("server `{server_id}` is not claimed")))
}

/// Moves the team called `name` to `plan`; takes effect on its next request
/// (the commit empties the auth cache, see [`crate::auth::cache`]).
pub fn set_plan(tx: &Tx<'_>, name: &str, plan: Plan) -> Result<Team, StoreError> {
    let mut team = get_by_name(tx, name)?;
    tx.sql.execute(
        "UPDATE teams SET plan = ?1 WHERE id = ?2",
        params![plan.as_str(), team.id],
    )?;
    team.plan = plan;
    Ok(team)
}

/// Sets the request rate of every key of team `name`, per minute; `None`
/// goes back to the plan's. Takes effect on the team's next request.
pub fn set_rate_limit(
    tx: &Tx<'_>,
    name: &str,
    requests_per_minute: Option<u32>,
) -> Result<Team, StoreError> {
    let team = get_by_name(tx, name)?;
    tx.sql.execute(
        "UPDATE teams SET requests_per_minute = ?1 WHERE id = ?2",
        params![requests_per_minute, team.id],
    )?;
    Ok(team)
}

/// Sets how many activity events team `name`'s batches may count a UTC
/// day; `None` goes back to the plan's. Takes effect on its next batch.
pub fn set_activity_quota(
    tx: &Tx<'_>,
    name: &str,
    events_per_day: Option<u64>,
) -> Result<Team, StoreError> {
    let team = get_by_name(tx, name)?;
    let events = events_per_day.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    tx.sql.execute(
        "UPDATE teams SET activity_events_per_day = ?1 WHERE id = ?2",
        params![events, team.id],
    )?;
    Ok(team)
}

/// Team `team_id`'s own daily activity quota, if an operator set one.
pub fn activity_quota(tx: &Tx<'_>, team_id: i64) -> Result<Option<u64>, StoreError> {
    let own: Option<i64> = tx.sql.row(
        "SELECT activity_events_per_day FROM teams WHERE id = ?1",
        [team_id],
        scalar,
    )?;
    Ok(own.map(|n| n.max(0) as u64))
}

/// The team called `name`, if any.
pub fn find_by_name(tx: &Tx<'_>, name: &str) -> Result<Option<Team>, StoreError> {
    let team = tx.sql.opt_row(
        &format!("SELECT {} FROM teams WHERE name = ?1", Team::COLUMNS),
        [name],
        Team::from_row,
    )?;
    Ok(team)
}

/// The team called `name`, or a not-found error naming it.
pub fn get_by_name(tx: &Tx<'_>, name: &str) -> Result<Team, StoreError> {
    find_by_name(tx, name)?.ok_or_else(|| StoreError::NotFound(format!("no team named `{name}`")))
}

impl FromRow for Team {
    // Named by their table: a query may join `servers`, which has an `id`
    // and a `name` too.
    const COLUMNS: &'static str = "teams.id, teams.name, teams.plan";

    fn from_row(row: &Row<'_>) -> Result<Team, StoreError> {
        let plan = row.get_str("plan")?;
        Ok(Team {
            id: row.get("id")?,
            name: row.get("name")?,
            // The CHECK constraint only admits known plans.
            plan: plan.parse().unwrap_or(Plan::Free),
        })
    }
}
