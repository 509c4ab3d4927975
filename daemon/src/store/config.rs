//! Config sections, revisions, the webhook secret and the audit trail.
//!
//! [`apply`] is the only write path: `PUT`, import and clone all build the
//! complete new config and hand it over, and `apply` diffs it against what is
//! stored, writes the changed sections, the secret, one audit entry per
//! changed section and the new revision, all in the caller's transaction.
//!
//! The webhook secret is stored sealed ([`super::secrets`]); only
//! [`load_secret`], [`signing_secrets`] and [`apply`] (to tell a rotation
//! from a no-op, and keep the replaced secret) unseal it. A rotation keeps
//! the replaced secret signing next to the new one for [`ROTATION_OVERLAP`].
//!
//! `apply` also writes the outbox's `config_changed` events, one per changed
//! section, in the same transaction ([`super::webhooks`]): a change that is
//! refused or rolled back announces nothing.

use crate::store::Tx;
use modctl_types::config::{
    AuditEntry, AuditSource, FieldChange, SecretUpdate, SectionChange, SectionName, Sections,
    WebhookEvent, diff_sections,
};
use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::secrets::{SecretField, Secrets};
use super::{StoreError, scalar, timestamp, webhooks};

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

const REDACTED: &str = "<redacted>";

/// How long a replaced webhook secret keeps signing next to the new one, in
/// seconds: a receiver has a day to switch to the new secret.
pub const ROTATION_OVERLAP: i64 = 86_400;

/// The actor of the config change that turns webhooks off when an endpoint
/// answers 410 Gone; the only one that sets `webhooks.disabled_reason`.
pub const DISABLING_ACTOR: &str = "system:webhooks";

/// Loads a server's config; sections never set are their defaults.
pub fn load(tx: &Tx<'_>, server_id: &str) -> Result<StoredConfig, StoreError> {
    let (revision, updated_at) = tx
        .sql
        .prepare_cached("SELECT revision, updated_at FROM config_revisions WHERE server_id = ?1")?
        .query_row([server_id], |row| {
            Ok((
                row.get::<_, i64>("revision")?,
                row.get::<_, i64>("updated_at")?,
            ))
        })
        .optional()?
        .map_or((0, None), |(rev, at)| {
            (rev.try_into().unwrap_or(0), Some(at))
        });

    let mut sections = Sections::default();
    let mut stmt = tx
        .sql
        .prepare_cached("SELECT section, value FROM config_sections WHERE server_id = ?1")?;
    let rows = stmt.query_map([server_id], |row| {
        Ok((
            row.get::<_, String>("section")?,
            row.get::<_, String>("value")?,
        ))
    })?;
    for row in rows {
        let (name, json) = row?;
        // Stored values were validated when written; a failure here is a bug
        // or a hand-edited database, not bad input.
        let name: SectionName = name.parse().map_err(|e: String| corrupt(server_id, e))?;
        sections
            .replace_from_str(name, &json)
            .map_err(|e| corrupt(server_id, e.to_string()))?;
    }
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
    let sealed: Option<String> = tx
        .sql
        .prepare_cached("SELECT secret FROM webhook_secrets WHERE server_id = ?1")?
        .query_row([server_id], scalar)
        .optional()?;
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
/// one it replaced while that is within [`ROTATION_OVERLAP`] of the rotation.
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
    let previous: Option<String> = tx
        .sql
        .prepare_cached(
            "SELECT previous_secret FROM webhook_secrets
             WHERE server_id = ?1 AND previous_secret IS NOT NULL AND previous_until > ?2",
        )?
        .query_row(params![server_id, now], scalar)
        .optional()?;
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
    Ok(tx
        .sql
        .prepare_cached(
            "SELECT value FROM config_sections WHERE server_id = ?1 AND section = 'general'",
        )?
        .query_row([server_id], scalar)
        .optional()?)
}

fn secret_is_set(tx: &Tx<'_>, server_id: &str) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM webhook_secrets WHERE server_id = ?1)")?
        .query_row([server_id], scalar)?)
}

/// A complete new config to store.
#[derive(Debug)]
pub struct Change<'a> {
    /// The server.
    pub server_id: &'a str,
    /// `key:<key_id>`.
    pub actor: &'a str,
    /// How the change was made.
    pub source: AuditSource,
    /// Refuse unless the stored revision is this one (`If-Match`).
    pub expected_revision: Option<u64>,
    /// The whole new config; `webhooks.secret` says what happens to the secret.
    pub sections: Sections,
    /// Compute the changes but write nothing.
    pub dry_run: bool,
    /// When, unix seconds (the daemon's clock).
    pub now: i64,
}

impl<'a> Change<'a> {
    /// `sections`, the whole new config, stored by `actor` at `now` through
    /// the API's path, with no revision condition: the daemon's own changes
    /// (a new secret, a 410 turning webhooks off, the demo's setup).
    pub fn by(server_id: &'a str, actor: &'a str, sections: Sections, now: i64) -> Self {
        Change {
            server_id,
            actor,
            source: AuditSource::Api,
            expected_revision: None,
            sections,
            dry_run: false,
            now,
        }
    }
}

/// The outcome of [`apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The revision after the change (unchanged when nothing changed or dry run).
    pub revision: u64,
    /// What changed, per section.
    pub changed: Vec<SectionChange>,
    /// The config as stored afterwards (as before, for a dry run), exactly as
    /// [`load`] would read it back.
    pub config: StoredConfig,
}

/// Stores `change`: see the module docs.
pub fn apply(tx: &Tx<'_>, secrets: &Secrets, change: Change<'_>) -> Result<Applied, StoreError> {
    let current = load(tx, change.server_id)?;
    if let Some(expected) = change.expected_revision
        && expected != current.revision
    {
        return Err(StoreError::PreconditionFailed(format!(
            "the config changed since revision {expected} (it is now at revision {}): fetch it again and reapply your change",
            current.revision
        )));
    }

    let secret_update = change.sections.webhooks.secret.clone();
    let mut next = change.sections;
    next.webhooks.secret = SecretUpdate::Keep;
    next.webhooks.secret_set = match &secret_update {
        SecretUpdate::Keep => current.sections.webhooks.secret_set,
        SecretUpdate::Clear => false,
        SecretUpdate::Set(_) => true,
    };
    // `disabled_reason` is the daemon's to set (when an endpoint answers 410);
    // it stays while webhooks stay off and goes when they are enabled again.
    next.webhooks.disabled_reason = if next.webhooks.enabled {
        None
    } else if change.actor == DISABLING_ACTOR {
        next.webhooks.disabled_reason.take()
    } else {
        current.sections.webhooks.disabled_reason.clone()
    };
    // A replaced secret that can be read keeps signing for a day; one that
    // cannot (replacing it is how it gets repaired) just goes.
    let (rotated, replaced) = match &secret_update {
        SecretUpdate::Set(new) => match load_secret(tx, secrets, change.server_id) {
            Ok(old) => {
                let replaced = old.filter(|old| old != new);
                (replaced.is_some(), replaced)
            }
            Err(StoreError::Corrupt(_)) => (true, None),
            Err(e) => return Err(e),
        },
        SecretUpdate::Keep | SecretUpdate::Clear => (false, None),
    };

    let mut changed = diff_sections(&current.sections, &next);
    if rotated {
        record_rotation(&mut changed);
    }
    // Turning webhooks off must work on any plan, also for the daemon itself.
    if change.actor != DISABLING_ACTOR {
        let names: Vec<SectionName> = changed.iter().map(|c| c.section).collect();
        let team = super::teams::of_server(tx, change.server_id)?;
        crate::plans::check_config(&team, &names, &next)?;
    }
    if changed.is_empty() || change.dry_run {
        return Ok(Applied {
            revision: current.revision,
            changed,
            config: current,
        });
    }

    let now = change.now;
    let revision = current.revision + 1;
    let mut audit_ids = Vec::with_capacity(changed.len());
    for section in &changed {
        let json = serde_json::to_string(&next.section_json(section.section))
            .expect("JSON values serialize");
        tx.sql.execute(
            "INSERT INTO config_sections (server_id, section, value, updated_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (server_id, section) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            params![change.server_id, section.section.as_str(), json, now],
        )?;
        tx.sql.execute(
            "INSERT INTO config_audit (server_id, at, actor, section, source, revision, changes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                change.server_id,
                now,
                change.actor,
                section.section.as_str(),
                change.source.as_str(),
                revision as i64,
                serde_json::to_string(&section.changes).expect("JSON values serialize"),
            ],
        )?;
        audit_ids.push(tx.sql.last_insert_rowid());
    }
    match secret_update {
        SecretUpdate::Keep => {}
        SecretUpdate::Clear => {
            tx.sql.execute(
                "DELETE FROM webhook_secrets WHERE server_id = ?1",
                [change.server_id],
            )?;
        }
        // The same secret again: nothing to store, and an overlap under way
        // goes on.
        SecretUpdate::Set(_) if !rotated && current.sections.webhooks.secret_set => {}
        SecretUpdate::Set(secret) => {
            let previous = replaced.map(|old| {
                secrets.seal(SecretField::PreviousWebhookSecret, change.server_id, &old)
            });
            let until = previous.as_ref().map(|_| now + ROTATION_OVERLAP);
            tx.sql.execute(
                "INSERT INTO webhook_secrets (server_id, secret, updated_at, previous_secret, previous_until)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (server_id) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at,
                     previous_secret = excluded.previous_secret, previous_until = excluded.previous_until",
                params![
                    change.server_id,
                    secrets.seal(SecretField::WebhookSecret, change.server_id, &secret),
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
        params![change.server_id, revision as i64, now],
    )?;
    // Deliveries still to be made go to the endpoint as it is now, not to
    // the one their event was written for: a URL is changed because the
    // old one is wrong or gone.
    if let Some(url) = &next.webhooks.url
        && current.sections.webhooks.url.as_ref() != Some(url)
    {
        webhooks::follow_url(tx, change.server_id, url)?;
    }
    // Looked up after the writes: a change that turns webhooks on (or sets
    // the secret) is announced to the endpoint it configures; one that turns
    // them off is not.
    if let Some(url) = webhooks::subscribed(tx, change.server_id, WebhookEvent::ConfigChanged)? {
        for (section, &id) in changed.iter().zip(&audit_ids) {
            let entry = AuditEntry {
                id,
                at: timestamp(now),
                actor: change.actor.to_owned(),
                section: section.section,
                source: change.source,
                revision,
                changes: section.changes.clone(),
            };
            webhooks::write(
                tx,
                change.server_id,
                WebhookEvent::ConfigChanged,
                &url,
                &entry,
                now,
            )?;
        }
    }
    Ok(Applied {
        revision,
        changed,
        config: StoredConfig {
            revision,
            updated_at: Some(now),
            sections: next,
        },
    })
}

/// A replaced secret changes nothing visible (`secret_set` stays true), yet it
/// is a change worth auditing: record it as `webhooks.secret`, redacted.
fn record_rotation(changed: &mut Vec<SectionChange>) {
    let change = FieldChange {
        path: "webhooks.secret".into(),
        before: Value::String(REDACTED.into()),
        after: Value::String(REDACTED.into()),
    };
    match changed
        .iter_mut()
        .find(|c| c.section == SectionName::Webhooks)
    {
        Some(section) => section.changes.push(change),
        None => changed.push(SectionChange {
            section: SectionName::Webhooks,
            changes: vec![change],
        }),
    }
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
    let mut stmt = tx.sql.prepare_cached(AUDIT_SQL)?;
    // No `LIMIT ?`: it would re-prepare the statement on every call (see
    // `cases::list`).
    let rows = stmt.query_map(params![server_id, before], |row| {
        Ok((
            row.get::<_, i64>("id")?,
            row.get::<_, i64>("at")?,
            row.get::<_, String>("actor")?,
            row.get::<_, String>("section")?,
            row.get::<_, String>("source")?,
            row.get::<_, i64>("revision")?,
            row.get::<_, String>("changes")?,
        ))
    })?;
    rows.take(limit as usize)
        .map(|row| {
            let (id, at, actor, section, source, revision, changes) = row?;
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
    let names = tx
        .sql
        .prepare_cached("SELECT section FROM config_sections WHERE server_id = ?1")?
        .query_map([server_id], |row| row.get::<_, String>("section"))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(names
        .into_iter()
        .filter_map(|name| name.parse().ok())
        .collect())
}
