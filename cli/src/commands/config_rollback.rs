//! `modctl config rollback SERVER --to-revision N`: the settings of an
//! earlier revision, rebuilt from the audit trail (each entry records every
//! changed field's value before and after), shown as a diff, confirmed and
//! written as one import guarded by `If-Match`, marked `rollback_to` so the
//! audit trail says `rollback` rather than `import`.

use modctl_client::Client;
use modctl_types::config::{AuditEntry, SectionChange, Sections, diff_sections};
use modctl_types::query::{AuditQuery, ImportOptions};

use crate::commands::config::render_changes;
use crate::commands::config_write::{count, guarded, parse_path, require_terminal, set_at};
use crate::commands::print;
use crate::context::Context;
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, paint_stderr, render_json};
use crate::prompt;
use crate::words;

/// `config rollback SERVER --to-revision N`: the config as it was at
/// revision `N`, rebuilt by undoing the audit trail's changes newer than
/// `N`, shown as a diff, confirmed, and written as one import at the
/// current revision (all sections or none).
pub async fn rollback(
    context: &Context,
    client: &Client,
    server: &str,
    to_revision: u64,
    yes: bool,
) -> Result<u8, CliError> {
    let mode = context.output;
    let envelope = client.export_config(server).await?;
    if to_revision >= envelope.revision {
        return Err(CliError::usage(format!(
            "the config of {server} is at revision {}; --to-revision must be lower",
            envelope.revision
        )));
    }
    let entries = audit_since(client, server, to_revision).await?;
    // Every revision has at least one audit entry (written in the same
    // transaction); a gap would make the rebuilt config wrong, so refuse.
    if let Some(missing) =
        (to_revision + 1..=envelope.revision).find(|r| !entries.iter().any(|e| e.revision == *r))
    {
        return Err(CliError::failure(format!(
            "the audit trail of {server} has no entry for revision {missing}; cannot rebuild revision {to_revision}"
        )));
    }
    let (target, skipped) = rebuild(&envelope.sections, &entries)?;
    for path in &skipped {
        eprintln!(
            "{} {path} is write-only and cannot be rolled back; it is left as it is",
            paint_stderr("warning:", console::Style::new().yellow())
        );
    }
    let changes = diff_sections(&envelope.sections, &target);
    if changes.is_empty() {
        eprintln!("revision {to_revision} has the same settings as now; nothing to change");
        return Ok(exit::OK);
    }
    if !yes {
        require_terminal("`config rollback`")?;
    }
    if mode != OutputMode::Json || !yes {
        eprint!(
            "{}",
            render_rollback(server, envelope.revision, to_revision, &changes)
        );
    }
    if !yes && !prompt::confirm("Roll back?", false)? {
        return Ok(prompt::cancelled());
    }
    let mut body = serde_json::to_value(&envelope).expect("wire types serialize");
    body["sections"] = serde_json::to_value(&target).expect("wire types serialize");
    let report = client
        .import_config_at(
            server,
            &body,
            &ImportOptions {
                rollback_to: Some(to_revision),
                ..ImportOptions::default()
            },
            Some(envelope.revision),
        )
        .await
        .map_err(guarded)?;
    match mode {
        OutputMode::Json => print(&render_json(&report)),
        _ => eprintln!(
            "{} rolled back to the settings of revision {to_revision}; the config is now at revision {}",
            paint_stderr("✓", console::Style::new().green()),
            report.revision
        ),
    }
    Ok(exit::OK)
}

/// The diff a rollback asks about.
pub fn render_rollback(server: &str, from: u64, to: u64, changes: &[SectionChange]) -> String {
    format!(
        "Rolling {server} back from revision {from} to the settings of revision {to} changes {}:\n{}",
        count(changes),
        render_changes(changes, OutputMode::Table)
    )
}

/// Every audit entry with a revision above `revision`, newest first.
async fn audit_since(
    client: &Client,
    server: &str,
    revision: u64,
) -> Result<Vec<AuditEntry>, CliError> {
    let mut out = Vec::new();
    let mut before = None;
    loop {
        let page = client
            .config_audit_page(
                server,
                &AuditQuery {
                    limit: Some(500),
                    before,
                },
            )
            .await
            .map_err(api_error(words::AUDIT))?;
        let full = page.len() == 500;
        before = page.last().map(|e| e.id);
        let done = page.iter().any(|e| e.revision <= revision);
        out.extend(page.into_iter().filter(|e| e.revision > revision));
        if done || !full {
            return Ok(out);
        }
    }
}

/// `current` with the audit `entries` (newest first) undone: each change's
/// `before` put back at its path. Returns the sections and the write-only
/// paths that could not be restored.
fn rebuild(
    current: &Sections,
    entries: &[AuditEntry],
) -> Result<(Sections, Vec<String>), CliError> {
    let mut sections = serde_json::to_value(current).expect("wire types serialize");
    let mut skipped = Vec::new();
    for entry in entries {
        for change in &entry.changes {
            if change.path.starts_with("webhooks.secret") {
                if !skipped.contains(&change.path) {
                    skipped.push(change.path.clone());
                }
                continue;
            }
            let (section, steps) = parse_path(&change.path)?;
            let root = sections
                .get_mut(section.as_str())
                .expect("every section is present");
            set_at(root, &steps, change.before.clone(), &change.path)?;
        }
    }
    let sections = serde_json::from_value(sections).map_err(|e| {
        CliError::failure(format!(
            "the audit trail does not rebuild a valid config: {e}"
        ))
    })?;
    Ok((sections, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn rebuild_undoes_newer_changes_newest_first_and_skips_the_secret() {
        let mut current = Sections::default();
        current.strikes.expiry_days = 14;
        let entry = |revision: u64, section: &str, changes: Value| -> AuditEntry {
            serde_json::from_value(json!({
                "id": revision, "at": "2026-11-21T09:08:10Z", "actor": "key:x",
                "section": section, "source": "api", "revision": revision,
                "changes": changes,
            }))
            .unwrap()
        };
        // Newest first: 30 -> 7 at revision 1, 7 -> 14 at revision 2; the
        // secret was set at revision 2 too.
        let entries = [
            entry(
                2,
                "strikes",
                json!([{"path": "strikes.expiry_days", "before": 7, "after": 14}]),
            ),
            entry(
                2,
                "webhooks",
                json!([{"path": "webhooks.secret", "before": "<redacted>", "after": "<redacted>"}]),
            ),
            entry(
                1,
                "strikes",
                json!([{"path": "strikes.expiry_days", "before": 30, "after": 7}]),
            ),
        ];
        let (to_one, skipped) = rebuild(&current, &entries[..2]).unwrap();
        assert_eq!(to_one.strikes.expiry_days, 7);
        assert_eq!(skipped, ["webhooks.secret"]);
        let (to_zero, _) = rebuild(&current, &entries).unwrap();
        assert_eq!(to_zero, Sections::default());
    }
}
