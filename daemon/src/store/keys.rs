//! API keys: stored with the hash of their secret only.

use crate::store::Tx;
use crate::store::sql::{Row, params};
use modctl_types::auth::KeyStatus;
use modctl_types::{Plan, Scope, Team, Timestamp};

use super::{FromRow, StoreError, scalar, timestamp};

/// A new key as the store keeps it: its public id and the hash of its
/// secret, never the secret (see [`crate::api_key::NewKey::hashed`]).
#[derive(Debug, Clone, Copy)]
pub struct Hashed<'a> {
    /// The public id.
    pub key_id: &'a str,
    /// SHA-256 of the secret.
    pub secret_hash: &'a [u8; 32],
}

/// A key as stored, without anything secret beyond the hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// The public id.
    pub key_id: String,
    /// The owning team.
    pub team_id: i64,
    /// The owning team's name.
    pub team_name: String,
    /// The highest scope held.
    pub scope: Scope,
    /// Free-text label.
    pub label: Option<String>,
    /// The display name of the person using it (issue #27).
    pub name: Option<String>,
    /// Creation time.
    pub created_at: Timestamp,
    /// Expiry, if any.
    pub expires_at: Option<Timestamp>,
    /// When the key was revoked, if it was.
    pub revoked_at: Option<Timestamp>,
    /// Last time a request authenticated with it (updated at most once a minute).
    pub last_used_at: Option<Timestamp>,
    /// Why antinuke suspended it, while it is suspended (issue #26).
    pub suspended: Option<String>,
    /// The key that replaced it, once rotated (issue #28).
    pub replaced_by: Option<String>,
}

impl KeyRecord {
    /// Where the key stands at `now` (unix seconds), in the order
    /// authentication checks: revoked, suspended, expired, then rotating
    /// (still accepted) or active.
    pub fn status(&self, now: i64) -> KeyStatus {
        if self.revoked_at.is_some() {
            KeyStatus::Revoked
        } else if self.suspended.is_some() {
            KeyStatus::Suspended
        } else if self.expires_at.is_some_and(|t| t.as_second() <= now) {
            KeyStatus::Expired
        } else if self.replaced_by.is_some() {
            KeyStatus::Rotating
        } else {
            KeyStatus::Active
        }
    }
}

/// A key record together with its secret hash, for verification only, and
/// what else authentication keeps about the caller (`GET /me` shows it).
#[derive(Debug, Clone)]
pub struct KeyWithHash {
    /// The key.
    pub record: KeyRecord,
    /// SHA-256 of the secret.
    pub secret_hash: Vec<u8>,
    /// The owning team.
    pub team: Team,
    /// How many servers the team has claimed.
    pub team_server_count: u64,
    /// The team's own request rate, when an operator set one (else the plan's).
    pub requests_per_minute: Option<u32>,
}

/// What a new key is called: its free-text label and the display name of
/// the person using it (issue #27), each as long as the operator's command
/// allows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Naming<'a> {
    /// The label.
    pub label: Option<&'a str>,
    /// The display name.
    pub name: Option<&'a str>,
}

/// Stores a freshly generated key for `team_id`, created at `now` (unix
/// seconds), labelled and without a display name.
pub fn insert(
    tx: &Tx<'_>,
    key: Hashed<'_>,
    team_id: i64,
    scope: Scope,
    label: Option<&str>,
    expires_at: Option<i64>,
    now: i64,
) -> Result<(), StoreError> {
    let naming = Naming { label, name: None };
    insert_named(tx, key, team_id, scope, naming, expires_at, now)
}

/// [`insert`], with a display name too.
pub fn insert_named(
    tx: &Tx<'_>,
    key: Hashed<'_>,
    team_id: i64,
    scope: Scope,
    naming: Naming<'_>,
    expires_at: Option<i64>,
    now: i64,
) -> Result<(), StoreError> {
    tx.sql.execute(
        "INSERT INTO api_keys (key_id, team_id, secret_hash, scope, label, name, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            key.key_id,
            team_id,
            &key.secret_hash[..],
            scope.as_str(),
            naming.label,
            naming.name,
            now,
            expires_at
        ],
    )?;
    Ok(())
}

/// Gives key `key_id` the display name `name` (`None`: no name), from its
/// next case on; cases recorded before keep the name they were recorded
/// with. Returns the key as it was.
pub fn rename(tx: &Tx<'_>, key_id: &str, name: Option<&str>) -> Result<KeyRecord, StoreError> {
    let old = get(tx, key_id)?
        .ok_or_else(|| StoreError::NotFound(format!("no key with id `{key_id}`")))?;
    tx.sql.execute(
        "UPDATE api_keys SET name = ?2 WHERE key_id = ?1",
        params![key_id, name],
    )?;
    Ok(old)
}

/// The ids of team `team_id`'s keys named `name`, ignoring case (ASCII), in
/// the order they were created: every key of one person when a rotation
/// passed the name on.
pub fn ids_named(tx: &Tx<'_>, team_id: i64, name: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT key_id FROM api_keys INDEXED BY api_keys_by_team_name
          WHERE team_id = ?1 AND name = ?2 COLLATE NOCASE AND name IS NOT NULL
          ORDER BY created_at, key_id",
    )?;
    let rows = stmt.rows(params![team_id, name], scalar)?;
    Ok(rows)
}

/// [`KeyRecord`]'s columns, for `k` = `api_keys` joined with `t` = `teams`
/// (a macro, so that the statements below stay constants).
macro_rules! key_columns {
    () => {
        "k.key_id, k.team_id, t.name AS team_name, k.scope, k.label, k.name, k.created_at,
        k.expires_at, k.revoked_at, k.last_used_at, k.suspended_reason, k.replaced_by"
    };
}

const SELECT: &str = concat!(
    "SELECT ",
    key_columns!(),
    "
    FROM api_keys k JOIN teams t ON t.id = k.team_id"
);

const SELECT_WITH_TEAM: &str = concat!(
    "SELECT ",
    key_columns!(),
    ", k.secret_hash, t.plan,
        (SELECT COUNT(*) FROM servers s WHERE s.team_id = k.team_id) AS team_server_count,
        t.requests_per_minute
    FROM api_keys k JOIN teams t ON t.id = k.team_id"
);

/// The key `key_id` with its hash, its team and the team's server count, for
/// authentication: one query.
pub fn find_with_hash(tx: &Tx<'_>, key_id: &str) -> Result<Option<KeyWithHash>, StoreError> {
    let found = tx.sql.opt_row(
        &format!("{SELECT_WITH_TEAM} WHERE k.key_id = ?1"),
        [key_id],
        |row| {
            let record = KeyRecord::from_row(row)?;
            let plan: String = row.get("plan")?;
            let count: i64 = row.get("team_server_count")?;
            Ok(KeyWithHash {
                secret_hash: row.get("secret_hash")?,
                team: Team {
                    id: record.team_id,
                    name: record.team_name.clone(),
                    // The CHECK constraint only admits known plans.
                    plan: plan.parse().unwrap_or(Plan::Free),
                },
                team_server_count: count.try_into().unwrap_or(0),
                requests_per_minute: row.get("requests_per_minute")?,
                record,
            })
        },
    )?;
    Ok(found)
}

/// The key `key_id`, if there is one.
pub fn get(tx: &Tx<'_>, key_id: &str) -> Result<Option<KeyRecord>, StoreError> {
    tx.sql.opt_row(
        &format!("{SELECT} WHERE k.key_id = ?1"),
        [key_id],
        KeyRecord::from_row,
    )
}

/// Keys, optionally of one team, newest first.
pub fn list(tx: &Tx<'_>, team_id: Option<i64>) -> Result<Vec<KeyRecord>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "{SELECT} WHERE ?1 IS NULL OR k.team_id = ?1 ORDER BY t.name, k.created_at DESC, k.key_id"
    ))?;
    let rows = stmt.rows([team_id], KeyRecord::from_row)?;
    Ok(rows)
}

/// Rotates the key `key_id` (issue #28): stores `replacement` for the same
/// team, scope, label and display name, expiring at `replacement_expires_at`, and makes
/// the old key expire at `grace_until` (or at its own expiry, if sooner),
/// naming its replacement. Returns the old key as it was. A revoked key, or
/// one rotated already, is refused: the first has nothing to hand over, the
/// second has its replacement.
pub fn rotate(
    tx: &Tx<'_>,
    key_id: &str,
    replacement: Hashed<'_>,
    replacement_expires_at: Option<i64>,
    grace_until: i64,
    now: i64,
) -> Result<KeyRecord, StoreError> {
    let old = get(tx, key_id)?
        .ok_or_else(|| StoreError::NotFound(format!("no key with id `{key_id}`")))?;
    match old.status(now) {
        KeyStatus::Revoked => {
            return Err(StoreError::Conflict(format!(
                "key `{key_id}` is revoked: create a new key instead"
            )));
        }
        KeyStatus::Expired => {
            return Err(StoreError::Conflict(format!(
                "key `{key_id}` has expired: create a new key instead"
            )));
        }
        _ => {}
    }
    if let Some(newer) = &old.replaced_by {
        return Err(StoreError::Conflict(format!(
            "key `{key_id}` was rotated already: its replacement is `{newer}` (rotate that one)"
        )));
    }
    insert_named(
        tx,
        replacement,
        old.team_id,
        old.scope,
        Naming {
            label: old.label.as_deref(),
            name: old.name.as_deref(),
        },
        replacement_expires_at,
        now,
    )?;
    tx.sql.execute(
        "UPDATE api_keys SET replaced_by = ?2, expires_at = MIN(COALESCE(expires_at, ?3), ?3)
          WHERE key_id = ?1",
        params![key_id, replacement.key_id, grace_until],
    )?;
    Ok(old)
}

/// Revokes a key; it is refused from the next request on. Revoking twice is
/// an error so a typo'd id is never silently accepted.
pub fn revoke(tx: &Tx<'_>, key_id: &str, now: i64) -> Result<(), StoreError> {
    let revoked_at: Option<Option<i64>> = tx.sql.opt_row(
        "SELECT revoked_at FROM api_keys WHERE key_id = ?1",
        [key_id],
        scalar,
    )?;
    match revoked_at {
        None => Err(StoreError::NotFound(format!("no key with id `{key_id}`"))),
        Some(Some(_)) => Err(StoreError::Conflict(format!(
            "key `{key_id}` is already revoked"
        ))),
        Some(None) => {
            tx.sql.execute(
                "UPDATE api_keys SET revoked_at = ?2 WHERE key_id = ?1",
                params![key_id, now],
            )?;
            Ok(())
        }
    }
}

/// Suspends a key (antinuke, issue #26): refused with `key_suspended` from
/// the next request on, until [`enable`]. A key suspended already keeps its
/// first reason.
pub fn suspend(tx: &Tx<'_>, key_id: &str, reason: &str, now: i64) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE api_keys SET suspended_at = ?2, suspended_reason = ?3
          WHERE key_id = ?1 AND suspended_at IS NULL",
        params![key_id, now, reason],
    )?;
    Ok(())
}

/// Lifts a key's suspension (`modctld key enable`). A key that is not
/// suspended is an error, so a typo'd id is never silently accepted.
pub fn enable(tx: &Tx<'_>, key_id: &str) -> Result<(), StoreError> {
    let suspended: Option<Option<i64>> = tx.sql.opt_row(
        "SELECT suspended_at FROM api_keys WHERE key_id = ?1",
        [key_id],
        scalar,
    )?;
    match suspended {
        None => Err(StoreError::NotFound(format!("no key with id `{key_id}`"))),
        Some(None) => Err(StoreError::Conflict(format!(
            "key `{key_id}` is not suspended"
        ))),
        Some(Some(_)) => {
            tx.sql.execute(
                "UPDATE api_keys SET suspended_at = NULL, suspended_reason = NULL WHERE key_id = ?1",
                [key_id],
            )?;
            Ok(())
        }
    }
}

/// Records that the key was used now.
pub fn touch(tx: &Tx<'_>, key_id: &str, now: i64) -> Result<(), StoreError> {
    tx.sql.execute(
        "UPDATE api_keys SET last_used_at = ?2 WHERE key_id = ?1",
        params![key_id, now],
    )?;
    Ok(())
}

impl FromRow for KeyRecord {
    const COLUMNS: &'static str = key_columns!();

    fn from_row(row: &Row<'_>) -> Result<KeyRecord, StoreError> {
        let scope = row.get_str("scope")?;
        Ok(KeyRecord {
            key_id: row.get("key_id")?,
            team_id: row.get("team_id")?,
            team_name: row.get("team_name")?,
            // The CHECK constraint only admits known scopes.
            scope: scope.parse().unwrap_or(Scope::Read),
            label: row.get("label")?,
            name: row.get("name")?,
            created_at: timestamp(row.get("created_at")?),
            expires_at: row.get::<Option<i64>>("expires_at")?.map(timestamp),
            revoked_at: row.get::<Option<i64>>("revoked_at")?.map(timestamp),
            last_used_at: row.get::<Option<i64>>("last_used_at")?.map(timestamp),
            suspended: row.get("suspended_reason")?,
            replaced_by: row.get("replaced_by")?,
        })
    }
}
