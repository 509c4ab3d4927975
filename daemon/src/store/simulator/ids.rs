//! Ids of what the simulator creates: like a platform's, never given
//! twice, so a config still naming a deleted role or channel never lands on
//! a new one by chance.

use crate::store::sql::params;

use crate::store::{StoreError, Tx, scalar};

/// Ids the simulator gives what it creates start here.
const FIRST_CREATED_ID: u64 = 900_000_000_000_000_001;

/// A new id, above every id the community has and ever had: like a
/// platform's, an id is never given twice, so a config still naming a
/// deleted role never lands on a new one by chance.
pub fn new_id(tx: &Tx<'_>, server_id: &str) -> Result<u64, StoreError> {
    let (highest, high_water): (Option<i64>, i64) = tx
        .sql
        .row(
            "SELECT (SELECT MAX(id) FROM (SELECT CAST(role_id AS INTEGER) AS id FROM sim_roles WHERE server_id = ?1 \
             UNION ALL SELECT CAST(channel_id AS INTEGER) FROM sim_channels WHERE server_id = ?1)) \
                 AS highest, id_high_water
             FROM sim_communities WHERE server_id = ?1", [server_id], |row| {
            Ok((row.get("highest")?, row.get("id_high_water")?))
        })?;
    let next = (highest.unwrap_or(0).max(high_water) as u64 + 1).max(FIRST_CREATED_ID);
    tx.sql
        .prepare("UPDATE sim_communities SET id_high_water = ?2 WHERE server_id = ?1")?
        .execute(params![server_id, next as i64])?;
    Ok(next)
}

/// Remembers `id` (of something being deleted) as had: [`new_id`] never
/// gives it again. Ids that are not numbers (Slack's) are counted apart.
pub(super) fn retire_id(tx: &Tx<'_>, server_id: &str, id: &str) -> Result<(), StoreError> {
    if let Ok(id) = id.parse::<i64>() {
        tx.sql
            .prepare(
                "UPDATE sim_communities SET id_high_water = MAX(id_high_water, ?2) WHERE server_id = ?1",
            )?
            .execute(params![server_id, id])?;
    }
    Ok(())
}

/// A new Slack channel id, shaped like Slack's (`C` and upper-case letters
/// or digits, which the daemon's own validation takes): `C9` and the
/// community's count of ids given, never given before.
pub fn new_slack_id(tx: &Tx<'_>, server_id: &str) -> Result<String, StoreError> {
    let given: i64 = tx.sql.row(
        "UPDATE sim_communities SET slack_ids_given = slack_ids_given + 1 WHERE server_id = ?1
             RETURNING slack_ids_given",
        [server_id],
        scalar,
    )?;
    Ok(format!("C9{given:08}"))
}
