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

use super::{Antinuke, alert};
use crate::events::{AuditAction, AuditEntry};

/// The executor named for a deletion, which Slack does not attribute.
pub const UNKNOWN_EXECUTOR: &str = "unknown";

/// The alert `entry` of Slack workspace `server` raises, if any (pure but
/// for the counts).
pub fn alert_for(
    antinuke: &Antinuke,
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
            let incident = antinuke.watch.admit(server, sections, entry, now)?;
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
    let cx = &antinuke.moderation;
    let Some(data) = alert_for(antinuke, server, sections, entry, cx.clock.now()) else {
        return;
    };
    let (server_id, sections, now) = (server.to_owned(), sections.clone(), cx.clock.now_unix());
    let written = cx
        .store
        .write(move |tx| alert(tx, &sections, &server_id, &data, now))
        .await;
    if let Err(e) = written {
        tracing::warn!(server, error = %e, "antinuke could not record its Slack alert");
    }
}
