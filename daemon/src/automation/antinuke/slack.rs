//! Antinuke on Slack (issue #26): channels archived or deleted.
//!
//! Slack has no audit log without Enterprise Grid, and a bot token can
//! neither deactivate nor demote a workspace admin: antinuke on Slack only
//! tells the team, in `logging.moderation` (else the mod-log) and with an
//! `antinuke_triggered` webhook event (action `alert`, no case).
//!
//! - An archive (`channel_archive` / `group_archive`) names who did it: it
//!   is counted per member against `max_channel_deletions_per_minute`
//!   ([`super::Watch::admit`]; `trusted_user_ids` never counted, the app's
//!   own bot user left out by the decoder), and the one that goes above
//!   the limit alerts, once per incident.
//! - A deletion (`channel_deleted` / `group_deleted`) names no one, so
//!   nothing can be counted: each one alerts (deleting a channel is rare
//!   and cannot be undone: the team hears of every one).

use std::sync::Arc;

use modctl_types::Timestamp;
use modctl_types::config::Sections;
use modctl_types::webhooks::AntinukeTriggered;

use super::{Antinuke, Watch, alert};
use crate::events::{AuditAction, AuditEntry};

/// The executor named for a deletion, which Slack does not attribute.
pub const UNKNOWN_EXECUTOR: &str = "unknown";

/// The alert `entry` of Slack workspace `server` raises, if any (pure but
/// for the counts in `watch`).
pub fn alert_for(
    watch: &Watch,
    server: &str,
    sections: &Arc<Sections>,
    entry: &AuditEntry,
    now: Timestamp,
) -> Option<AntinukeTriggered> {
    if !sections.antinuke.enabled {
        return None;
    }
    match (&entry.action, &entry.executor_id) {
        (AuditAction::ChannelDeleted, None) => Some(AntinukeTriggered {
            executor_id: UNKNOWN_EXECUTOR.to_owned(),
            trigger: format!(
                "channel {} deleted (Slack does not say by whom; an archive would have named them)",
                entry.target_id.as_deref().unwrap_or("?")
            ),
            entries: vec![entry.id.clone()],
            action: "alert".to_owned(),
            case_id: None,
            outcome: "alerted only: Slack lets no bot act on a workspace member".to_owned(),
        }),
        _ => {
            let incident = watch.admit(server, sections, entry, now)?;
            Some(AntinukeTriggered {
                trigger: format!("{} by {}", incident.what, incident.executor),
                executor_id: incident.executor,
                entries: incident.entries,
                action: "alert".to_owned(),
                case_id: None,
                outcome: "alerted only: Slack lets no bot deactivate or demote a workspace admin"
                    .to_owned(),
            })
        }
    }
}

/// Alerts the team of what `entry` raises, if anything.
pub(super) async fn handle(
    antinuke: &Antinuke,
    server: &str,
    sections: &Arc<Sections>,
    entry: &AuditEntry,
) {
    let now = antinuke.moderation.clock.now();
    if let Some(data) = alert_for(&antinuke.watch, server, sections, entry, now) {
        handle_alert(antinuke, server, sections, data).await;
    }
}

/// Writes `data` (from [`alert_for`]): the webhook event and the log post.
pub async fn handle_alert(
    antinuke: &Antinuke,
    server: &str,
    sections: &Arc<Sections>,
    data: AntinukeTriggered,
) {
    let cx = &antinuke.moderation;
    let (server_id, sections, now) = (server.to_owned(), sections.clone(), cx.clock.now_unix());
    let written = cx
        .store
        .write(move |tx| alert(tx, &sections, &server_id, &data, now))
        .await;
    if let Err(e) = written {
        tracing::warn!(server, error = %e, "antinuke could not record its Slack alert");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (entry id, action, executor, expected trigger) against a limit of
    /// 2 archives a minute, `UTRUSTED` trusted, all at one instant.
    #[test]
    fn archives_alert_above_the_limit_once_deletions_every_time() {
        let mut sections = Sections::default();
        sections.antinuke.enabled = true;
        sections.antinuke.max_channel_deletions_per_minute = 2;
        sections.antinuke.trusted_user_ids = vec!["UTRUSTED".into()];
        let sections = Arc::new(sections);
        let watch = Watch::default();
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let archive = AuditAction::ChannelArchived;
        let delete = AuditAction::ChannelDeleted;
        let table = [
            ("e1", &archive, Some("U1"), None),
            ("e2", &archive, Some("U1"), None),
            (
                "e3",
                &archive,
                Some("U1"),
                Some("3 channel deletions within a minute (limit 2) by U1"),
            ),
            // The incident is open: no second alert.
            ("e4", &archive, Some("U1"), None),
            // Someone else counts apart.
            ("e5", &archive, Some("U2"), None),
            ("t1", &archive, Some("UTRUSTED"), None),
            ("t2", &archive, Some("UTRUSTED"), None),
            ("t3", &archive, Some("UTRUSTED"), None),
            ("d1", &delete, None, Some("channel C deleted")),
            ("d2", &delete, None, Some("channel C deleted")),
        ];
        for (id, action, executor, expected) in table {
            let entry = AuditEntry {
                id: id.into(),
                action: action.clone(),
                executor_id: executor.map(str::to_owned),
                target_id: Some("C".into()),
                reason: None,
            };
            let got = alert_for(&watch, "T1", &sections, &entry, now);
            let trigger = got.as_ref().map(|a| a.trigger.as_str());
            assert_eq!(
                trigger.map(|t| expected.is_some_and(|e| t.starts_with(e))),
                expected.map(|_| true),
                "{id}: {trigger:?}"
            );
            if let Some(alert) = got {
                assert_eq!((alert.action.as_str(), alert.case_id), ("alert", None));
            }
        }
        let mut off = (*sections).clone();
        off.antinuke.enabled = false;
        let deleted = AuditEntry {
            id: "d3".into(),
            action: delete,
            executor_id: None,
            target_id: Some("C".into()),
            reason: None,
        };
        assert!(alert_for(&watch, "T1", &Arc::new(off), &deleted, now).is_none());
    }
}
