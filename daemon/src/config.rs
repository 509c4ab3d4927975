//! Changing a server's config: the one write path.
//!
//! [`apply`] is the only way config changes: `PUT`, import, clone, a
//! restore's remapping and the daemon's own changes (a new secret, webhooks
//! turned off after a 410, the demo) all build the complete new config and
//! hand it over. `apply` diffs it against what is stored, decides what the
//! change means (the `If-Match` revision, the webhook secret's rotation, the
//! plan's limits) and has the store write the changed sections, the secret,
//! one audit entry per changed section and the new revision
//! ([`store::config::write`]), all in the caller's transaction.
//!
//! It also writes the outbox's `config_changed` events, one per changed
//! section, in the same transaction ([`store::webhooks`]): a change that is
//! refused or rolled back announces nothing.

use modctl_types::config::{
    AuditSource, FieldChange, SecretUpdate, SectionChange, SectionName, Sections, WebhookEvent,
    diff_sections,
};
use serde_json::Value;

use crate::plans::{self, PlanLimit};
use crate::store::config::{self as stored, SecretWrite, StoredConfig};
use crate::store::secrets::Secrets;
use crate::store::{StoreError, Tx, teams, webhooks};

/// How a replaced secret appears in the audit trail.
const REDACTED: &str = "<redacted>";

/// How long a replaced webhook secret keeps signing next to the new one, in
/// seconds: a receiver has a day to switch to the new secret.
pub const ROTATION_OVERLAP: i64 = 86_400;

/// The actor of the config change that turns webhooks off when an endpoint
/// answers 410 Gone; the only one that sets `webhooks.disabled_reason`.
pub const DISABLING_ACTOR: &str = "system:webhooks";

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
    /// [`stored::load`] would read it back.
    pub config: StoredConfig,
}

/// Why [`apply`] changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The stored revision is not the one the caller expected (`If-Match`).
    #[error("{0}")]
    Stale(String),
    /// The team's plan does not allow the new config.
    #[error(transparent)]
    Plan(#[from] PlanLimit),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stores `change`: see the module docs.
pub fn apply(tx: &Tx<'_>, secrets: &Secrets, change: Change<'_>) -> Result<Applied, ApplyError> {
    let current = stored::load(tx, change.server_id)?;
    if let Some(expected) = change.expected_revision
        && expected != current.revision
    {
        return Err(ApplyError::Stale(format!(
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
        SecretUpdate::Set(new) => match stored::load_secret(tx, secrets, change.server_id) {
            Ok(old) => {
                let replaced = old.filter(|old| old != new);
                (replaced.is_some(), replaced)
            }
            Err(StoreError::Corrupt(_)) => (true, None),
            Err(e) => return Err(e.into()),
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
        let team = teams::of_server(tx, change.server_id)?;
        plans::check_config(&team, &names, &next)?;
    }
    if changed.is_empty() || change.dry_run {
        return Ok(Applied {
            revision: current.revision,
            changed,
            config: current,
        });
    }

    let now = change.now;
    let secret = match secret_update {
        SecretUpdate::Keep => SecretWrite::Keep,
        SecretUpdate::Clear => SecretWrite::Clear,
        // The same secret again: nothing to store, and an overlap under way
        // goes on.
        SecretUpdate::Set(_) if !rotated && current.sections.webhooks.secret_set => {
            SecretWrite::Keep
        }
        SecretUpdate::Set(secret) => SecretWrite::Set {
            secret,
            previous: replaced.map(|old| (old, now + ROTATION_OVERLAP)),
        },
    };
    let revision = current.revision + 1;
    let entries = stored::write(
        tx,
        secrets,
        stored::Write {
            server_id: change.server_id,
            actor: change.actor,
            source: change.source,
            revision,
            now,
            sections: &next,
            changed: &changed,
            secret,
        },
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
    if let Some(url) = crate::webhooks::wanted(tx, change.server_id, WebhookEvent::ConfigChanged)? {
        for entry in &entries {
            webhooks::write(
                tx,
                change.server_id,
                WebhookEvent::ConfigChanged,
                &url,
                entry,
                now,
            )?;
        }
    }
    // The live view's events (issue #27): one per audit entry, as webhooks.
    for entry in &entries {
        crate::store::live_events::append(
            tx,
            change.server_id,
            modctl_types::live::LiveEventKind::ConfigChanged,
            entry,
            now,
        )?;
    }
    crate::logs::config_changed(
        tx,
        &current.sections.logging,
        &next.logging,
        change.server_id,
        &entries,
        now,
    )?;
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

#[cfg(test)]
mod tests {
    use modctl_types::Plan;

    use super::*;
    use crate::store::{Store, servers, testing};

    const SERVER: &str = "100000000000000001";
    const OTHER: &str = "100000000000000002";

    fn set_secret(tx: &Tx<'_>, secrets: &Secrets, server: &str, secret: &str) -> Applied {
        let mut sections = stored::load(tx, server).unwrap().sections;
        sections.webhooks.secret = SecretUpdate::Set(secret.to_owned());
        apply(tx, secrets, Change::by(server, "test", sections, 10)).unwrap()
    }

    #[tokio::test]
    async fn an_unreadable_webhook_secret_can_be_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let secrets = store.secrets().clone();
        let (applied, secret, previous) = store
            .write(move |tx| {
                let team = teams::create(tx, "t", Plan::Pro, 0)?;
                for id in [SERVER, OTHER] {
                    servers::insert(tx, team.id, modctl_types::Platform::Discord, id, "s", 0)?;
                }
                set_secret(tx, &secrets, OTHER, "the other server's secret");
                testing::copy_webhook_secret(tx, SERVER, OTHER)?;
                let applied = set_secret(tx, &secrets, SERVER, "the new secret");
                let secret = stored::load_secret(tx, &secrets, SERVER)?;
                let previous = stored::signing_secrets(tx, &secrets, SERVER, 10)?;
                Ok::<_, StoreError>((applied, secret, previous))
            })
            .await
            .unwrap();
        assert_eq!(secret.as_deref(), Some("the new secret"));
        assert_eq!(
            previous,
            ["the new secret"],
            "nothing readable was replaced"
        );
        assert!(
            applied.changed.iter().any(|c| c
                .changes
                .iter()
                .any(|f| f.path == "webhooks.secret" && f.after == REDACTED)),
            "the replacement is audited, redacted: {:?}",
            applied.changed
        );
    }

    #[tokio::test]
    async fn a_stale_revision_and_a_plan_refuse_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let secrets = store.secrets().clone();
        let (stale, plan, revision) = store
            .write(move |tx| {
                let team = teams::create(tx, "t", Plan::Free, 0)?;
                servers::insert(tx, team.id, modctl_types::Platform::Discord, SERVER, "s", 0)?;
                let sections = stored::load(tx, SERVER)?.sections;
                let stale = apply(
                    tx,
                    &secrets,
                    Change {
                        expected_revision: Some(3),
                        ..Change::by(SERVER, "test", sections.clone(), 10)
                    },
                );
                let mut webhooks_on = sections;
                webhooks_on.webhooks.enabled = true;
                webhooks_on.webhooks.url = Some("https://example.com/hook".into());
                let plan = apply(tx, &secrets, Change::by(SERVER, "test", webhooks_on, 10));
                Ok::<_, StoreError>((stale, plan, stored::load(tx, SERVER)?.revision))
            })
            .await
            .unwrap();
        assert!(
            matches!(&stale, Err(ApplyError::Stale(m)) if m.contains("revision 3")),
            "{stale:?}"
        );
        assert!(matches!(plan, Err(ApplyError::Plan(_))), "{plan:?}");
        assert_eq!(revision, 0, "nothing was written");
    }
}
