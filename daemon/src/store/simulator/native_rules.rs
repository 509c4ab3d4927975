//! A simulated Discord guild's native AutoMod rules, kept as Discord's
//! rule objects (JSON): the simulator's `NativeRules` lists, creates,
//! modifies and deletes them as Discord would.

use crate::store::sql::params;

use crate::store::{StoreError, Tx};

/// The community's native AutoMod rules, as JSON, by id.
pub fn automod_rules(tx: &Tx<'_>, server_id: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx
        .sql
        .prepare("SELECT rule FROM sim_automod_rules WHERE server_id = ?1 ORDER BY rule_id")?;
    let rows = stmt.rows([server_id], |row| row.get("rule"))?;
    Ok(rows)
}

/// Rule `rule_id` as JSON, if the community has it.
pub fn automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
) -> Result<Option<String>, StoreError> {
    tx.sql.opt_row(
        "SELECT rule FROM sim_automod_rules WHERE server_id = ?1 AND rule_id = ?2",
        [server_id, rule_id],
        |row| row.get("rule"),
    )
}

/// Creates or replaces rule `rule_id`.
pub fn put_automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
    rule: &str,
) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "INSERT INTO sim_automod_rules (server_id, rule_id, rule) VALUES (?1, ?2, ?3) \
             ON CONFLICT (server_id, rule_id) DO UPDATE SET rule = excluded.rule",
        )?
        .execute(params![server_id, rule_id, rule])?;
    Ok(())
}

/// Deletes rule `rule_id`; whether there was one.
pub fn delete_automod_rule(
    tx: &Tx<'_>,
    server_id: &str,
    rule_id: &str,
) -> Result<bool, StoreError> {
    let deleted = tx
        .sql
        .prepare("DELETE FROM sim_automod_rules WHERE server_id = ?1 AND rule_id = ?2")?
        .execute(params![server_id, rule_id])?;
    Ok(deleted > 0)
}
