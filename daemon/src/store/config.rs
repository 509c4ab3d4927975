//! Config sections, revisions, the webhook secret and the audit trail, as
//! stored.
//!
//! [`write`] stores one change that [`crate::config::apply`] (the only write
//! path: `PUT`, import, clone, restore and the daemon's own changes) decided:
//! the changed sections, the secret, one audit entry per changed section and
//! the new revision, all in the caller's transaction. What a change means
//! (revision conditions, the secret's rotation, the plan) is decided there.
//!
//! The webhook secret is stored sealed ([`super::secrets`]); only
//! [`load_secret`], [`signing_secrets`] and [`write`] (which keeps the
//! replaced secret beside the new one until the time it is given) touch it
//! unsealed.

use crate::store::Tx;
use crate::store::sql::params;
use modctl_types::config::{
    AuditEntry, AuditSource, SecretUpdate, SectionChange, SectionName, Sections,
};
use serde_json::Value;

use super::secrets::{SecretField, Secrets};
use super::{StoreError, scalar, timestamp};

/// What `GET /config` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredConfig {
    /// Current revision; 0 = never written.
    pub revision: u64,
    /// Last change, unix seconds.
    pub updated_at: Option<i64>,
    /// All sections; `webhooks.secret_set` reflects the stored secret.
    pub sections: Sections,
}

/// A server's config revision (0: never written): one indexed read, for
/// caches that reload the config only when it moved.
pub fn revision(tx: &Tx<'_>, server_id: &str) -> Result<u64, StoreError> {
    let revision: Option<i64> = tx.sql.opt_row(
        "SELECT revision FROM config_revisions WHERE server_id = ?1",
        [server_id],
        scalar,
    )?;
    Ok(revision
        .and_then(|revision| u64::try_from(revision).ok())
        .unwrap_or(0))
}

/// Loads a server's config; sections never set are their defaults.
pub fn load(tx: &Tx<'_>, server_id: &str) -> Result<StoredConfig, StoreError> {
    let (revision, updated_at) = tx
        .sql
        .opt_row(
            "SELECT revision, updated_at FROM config_revisions WHERE server_id = ?1",
            [server_id],
            |row| Ok((row.get::<i64>("revision")?, row.get::<i64>("updated_at")?)),
        )?
        .map_or((0, None), |(rev, at)| {
            (rev.try_into().unwrap_or(0), Some(at))
        });

    let mut sections = Sections::default();
    tx.sql.for_each(
        "SELECT section, value FROM config_sections WHERE server_id = ?1",
        [server_id],
        |row| {
            // Stored values were validated when written; a failure here is a
            // bug or a hand-edited database, not bad input.
            let name: SectionName = row
                .get_str("section")?
                .parse()
                .map_err(|e: String| corrupt(server_id, e))?;
            sections
                .replace_from_str(name, row.get_str("value")?)
                .map_err(|e| corrupt(server_id, e.to_string()))
        },
    )?;
    sections.webhooks.secret = SecretUpdate::Keep;
    sections.webhooks.secret_set = secret_is_set(tx, server_id)?;
    Ok(StoredConfig {
        revision,
        updated_at,
        sections,
    })
}

/// The webhook signing secret, for signing deliveries only.
pub fn load_secret(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
) -> Result<Option<String>, StoreError> {
    let sealed: Option<String> = tx.sql.opt_row(
        "SELECT secret FROM webhook_secrets WHERE server_id = ?1",
        [server_id],
        scalar,
    )?;
    sealed
        .map(|sealed| {
            secrets
                .unseal(SecretField::WebhookSecret, server_id, &sealed)
                .map_err(|e| {
                    StoreError::Corrupt(format!(
                        "the webhook secret of server {server_id} cannot be read: {e}; set a new one in the webhooks section of the config"
                    ))
                })
        })
        .transpose()
}

/// The secrets a delivery at `now` is signed with: the current one, then the
/// one it replaced until the time [`write`] was given for it.
/// Empty when none is stored.
pub fn signing_secrets(
    tx: &Tx<'_>,
    secrets: &Secrets,
    server_id: &str,
    now: i64,
) -> Result<Vec<String>, StoreError> {
    let Some(current) = load_secret(tx, secrets, server_id)? else {
        return Ok(Vec::new());
    };
    let previous: Option<String> = tx.sql.opt_row(
        "SELECT previous_secret FROM webhook_secrets
             WHERE server_id = ?1 AND previous_secret IS NOT NULL AND previous_until > ?2",
        params![server_id, now],
        scalar,
    )?;
    // An unreadable previous secret only loses the overlap, never a delivery.
    let previous = previous.and_then(|sealed| {
        secrets
            .unseal(SecretField::PreviousWebhookSecret, server_id, &sealed)
            .inspect_err(|e| {
                tracing::warn!(server = server_id, error = %e, "the replaced webhook secret cannot be read; signing with the new one only");
            })
            .ok()
    });
    Ok(std::iter::once(current).chain(previous).collect())
}

/// Whether a webhook secret is stored, without unsealing it.
/// The `general` section of `server_id`'s config as stored (JSON), if it
/// was ever set; one indexed row, for what reads a single section on a hot
/// path (the time zone of activity rollups).
pub fn general_section(tx: &Tx<'_>, server_id: &str) -> Result<Option<String>, StoreError> {
    tx.sql.opt_row(
        "SELECT value FROM config_sections WHERE server_id = ?1 AND section = 'general'",
        [server_id],
        scalar,
    )
}

fn secret_is_set(tx: &Tx<'_>, server_id: &str) -> Result<bool, StoreError> {
    tx.sql.row(
        "SELECT EXISTS (SELECT 1 FROM webhook_secrets WHERE server_id = ?1)",
        [server_id],
        scalar,
    )
}

/// What happens to the stored webhook secret in a [`Write`].
#[derive(Debug)]
pub enum SecretWrite {
    /// Nothing.
    Keep,
    /// It goes, with any replaced one.
    Clear,
    /// `secret` is the one signing from now; `previous`, when given, keeps
    /// signing beside it until the unix second given with it.
    Set {
        /// The new secret, in plain text (sealed here).
        secret: String,
        /// The replaced secret and until when it still signs.
        previous: Option<(String, i64)>,
    },
}

/// One change of a server's config, as [`crate::config::apply`] decided it.
#[derive(Debug)]
pub struct Write<'a> {
    /// The server.
    pub server_id: &'a str,
    /// Who made it (`key:<key_id>`, `operator:...`, `system:...`).
    pub actor: &'a str,
    /// How it was made.
    pub source: AuditSource,
    /// The revision it makes (the stored one plus one).
    pub revision: u64,
    /// When, unix seconds.
    pub now: i64,
    /// The whole config afterwards; only `changed` sections are written.
    pub sections: &'a Sections,
    /// What changed, per section: the audit entries.
    pub changed: &'a [SectionChange],
    /// What happens to the webhook secret.
    pub secret: SecretWrite,
}

/// Stores `change`; returns the audit entries it wrote, one per changed
/// section, in the order of `change.changed`.
pub fn write(
    tx: &Tx<'_>,
    secrets: &Secrets,
    change: Write<'_>,
) -> Result<Vec<AuditEntry>, StoreError> {
    let Write {
        server_id,
        actor,
        source,
        revision,
        now,
        sections,
        changed,
        secret,
    } = change;
    let mut entries = Vec::with_capacity(changed.len());
    for section in changed {
        let json = serde_json::to_string(&sections.section_json(section.section))
            .expect("JSON values serialize");
        tx.sql.execute(
            "INSERT INTO config_sections (server_id, section, value, updated_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (server_id, section) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            params![server_id, section.section.as_str(), json, now],
        )?;
        tx.sql.execute(
            "INSERT INTO config_audit (server_id, at, actor, section, source, revision, changes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                server_id,
                now,
                actor,
                section.section.as_str(),
                source.as_str(),
                revision as i64,
                serde_json::to_string(&section.changes).expect("JSON values serialize"),
            ],
        )?;
        entries.push(AuditEntry {
            id: tx.sql.last_insert_rowid(),
            at: timestamp(now),
            actor: actor.to_owned(),
            section: section.section,
            source,
            revision,
            changes: section.changes.clone(),
        });
    }
    match secret {
        SecretWrite::Keep => {}
        SecretWrite::Clear => {
            tx.sql.execute(
                "DELETE FROM webhook_secrets WHERE server_id = ?1",
                [server_id],
            )?;
        }
        SecretWrite::Set { secret, previous } => {
            let (previous, until) = match previous {
                Some((old, until)) => (
                    Some(secrets.seal(SecretField::PreviousWebhookSecret, server_id, &old)),
                    Some(until),
                ),
                None => (None, None),
            };
            tx.sql.execute(
                "INSERT INTO webhook_secrets (server_id, secret, updated_at, previous_secret, previous_until)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (server_id) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at,
                     previous_secret = excluded.previous_secret, previous_until = excluded.previous_until",
                params![
                    server_id,
                    secrets.seal(SecretField::WebhookSecret, server_id, &secret),
                    now,
                    previous,
                    until,
                ],
            )?;
        }
    }
    tx.sql.execute(
        "INSERT INTO config_revisions (server_id, revision, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (server_id) DO UPDATE SET revision = excluded.revision, updated_at = excluded.updated_at",
        params![server_id, revision as i64, now],
    )?;
    Ok(entries)
}

pub(crate) const AUDIT_SQL: &str = "SELECT id, at, actor, section, source, revision, changes
    FROM config_audit WHERE server_id = ?1 AND (?2 IS NULL OR id < ?2) ORDER BY id DESC";

/// Audit entries of a server, newest first, optionally before entry `before`.
pub fn audit(
    tx: &Tx<'_>,
    server_id: &str,
    limit: u32,
    before: Option<i64>,
) -> Result<Vec<AuditEntry>, StoreError> {
    let mut stmt = tx.sql.prepare(AUDIT_SQL)?;
    // No `LIMIT ?`: it would re-prepare the statement on every call (see
    // `cases::list`).
    let mut rows = Vec::new();
    if limit == 0 {
        return Ok(Vec::new());
    }
    stmt.while_each(params![server_id, before], |row| {
        rows.push((
            row.get::<i64>("id")?,
            row.get::<i64>("at")?,
            row.get::<String>("actor")?,
            row.get::<String>("section")?,
            row.get::<String>("source")?,
            row.get::<i64>("revision")?,
            row.get::<String>("changes")?,
        ));
        Ok(rows.len() < limit as usize)
    })?;
    rows.into_iter()
        .map(|(id, at, actor, section, source, revision, changes)| {
            Ok(AuditEntry {
                id,
                at: timestamp(at),
                actor,
                section: section.parse().map_err(|e: String| corrupt(server_id, e))?,
                source: serde_json::from_value(Value::String(source))
                    .map_err(|e| corrupt(server_id, e.to_string()))?,
                revision: revision.try_into().unwrap_or(0),
                changes: serde_json::from_str(&changes)
                    .map_err(|e| corrupt(server_id, e.to_string()))?,
            })
        })
        .collect()
}

fn corrupt(server_id: &str, detail: String) -> StoreError {
    StoreError::Corrupt(format!("stored config of server {server_id}: {detail}"))
}

/// The sections of `server_id`'s config that were ever written (the others
/// are defaults), by name; a stored name this daemon does not know is left out.
pub fn written_sections(tx: &Tx<'_>, server_id: &str) -> Result<Vec<SectionName>, StoreError> {
    let names = tx.sql.rows(
        "SELECT section FROM config_sections WHERE server_id = ?1",
        [server_id],
        |row| row.get::<String>("section"),
    )?;
    Ok(names
        .into_iter()
        .filter_map(|name| name.parse().ok())
        .collect())
}
