//! The members of a simulated community (their roles and mutes) and its
//! bans: what moderation actions change.

use crate::store::sql::params;

use crate::store::{StoreError, Tx, scalar};

/// What the simulator holds for one member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberState {
    /// Role ids.
    pub roles: Vec<String>,
    /// Muted until (unix seconds), if muted.
    pub muted_until: Option<i64>,
}

/// The role ids of member `user`; `None` when they are not a member.
pub fn member_roles(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<Vec<String>>, StoreError> {
    Ok(member_state(tx, server_id, user)?.map(|member| member.roles))
}

/// What the simulator holds for one member, for tests and the demo; `None`
/// when they are not a member.
pub fn member_state(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
) -> Result<Option<MemberState>, StoreError> {
    let row: Option<(String, Option<i64>)> = tx.sql.opt_row(
        "SELECT roles, muted_until FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
        |row| Ok((row.get("roles")?, row.get("muted_until")?)),
    )?;
    Ok(row.map(|(roles, muted_until)| MemberState {
        roles: serde_json::from_str(&roles).unwrap_or_default(),
        muted_until,
    }))
}

/// The display name of member `user`, if they are one.
pub fn member_name(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<Option<String>, StoreError> {
    tx.sql.opt_row(
        "SELECT name FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
        |row| row.get("name"),
    )
}

/// Every member of the simulated server and their display name, by id
/// (the demo tells its name cache who is who, issue #27).
pub fn member_names(tx: &Tx<'_>, server_id: &str) -> Result<Vec<(String, String)>, StoreError> {
    let mut statement = tx
        .sql
        .prepare("SELECT user_id, name FROM sim_members WHERE server_id = ?1 ORDER BY user_id")?;
    let rows = statement.rows([server_id], |row| {
        Ok((row.get("user_id")?, row.get("name")?))
    })?;
    Ok(rows)
}

/// Adds `user` (shown as `name`) as a member without roles, as joining does
/// (`modctld simulate join`, `simulate raid`); whether they were added
/// (`false`: already a member).
pub fn add_member(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    name: &str,
) -> Result<bool, StoreError> {
    let added = tx.sql.execute(
        "INSERT INTO sim_members (server_id, user_id, name, roles) VALUES (?1, ?2, ?3, '[]') ON CONFLICT DO NOTHING",
        [server_id, user, name],
    )?;
    Ok(added == 1)
}

/// Removes member `user` (kicked or banned); nothing if they are not one.
pub fn remove_member(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "DELETE FROM sim_members WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
    )?;
    Ok(())
}

/// Sets member `user`'s roles.
pub fn set_member_roles(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    roles: &[String],
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_members SET roles = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![
            server_id,
            user,
            serde_json::to_string(roles).expect("strings serialize")
        ],
    )?;
    Ok(())
}

/// Mutes member `user` until `until` (unix seconds), or unmutes with `None`.
pub fn set_muted_until(
    tx: &Tx<'_>,
    server_id: &str,
    user: &str,
    until: Option<i64>,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE sim_members SET muted_until = ?3 WHERE server_id = ?1 AND user_id = ?2",
        params![server_id, user, until],
    )?;
    Ok(())
}

/// Records a ban of `user` (kept once).
pub fn add_ban(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO sim_bans (server_id, user_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        [server_id, user],
    )?;
    Ok(())
}

/// Lifts the ban of `user`; whether there was one.
pub fn remove_ban(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<bool, StoreError> {
    let removed = tx.sql.execute(
        "DELETE FROM sim_bans WHERE server_id = ?1 AND user_id = ?2",
        [server_id, user],
    )?;
    Ok(removed > 0)
}

/// Whether the simulator holds a ban of `user`.
pub fn is_banned(tx: &Tx<'_>, server_id: &str, user: &str) -> Result<bool, StoreError> {
    tx.sql.row(
        "SELECT EXISTS (SELECT 1 FROM sim_bans WHERE server_id = ?1 AND user_id = ?2)",
        [server_id, user],
        scalar,
    )
}
