//! `GUILD_AUDIT_LOG_ENTRY_CREATE` (antinuke's evidence, issue #26).

use super::*;

/// `GUILD_AUDIT_LOG_ENTRY_CREATE`: an audit log entry object with
/// `guild_id` (gateway-events.mdx, "Guild Audit Log Entry Create";
/// audit-log.mdx, "Audit Log Entry Object"). Read field by field rather
/// than as twilight-model's whole `AuditLogEntry`: its `changes` is an enum
/// of the change keys twilight knows, and a key Discord adds later would
/// refuse the whole entry, and with it a nuke's evidence. Each change is
/// read alone as twilight's [`AuditLogChange`]; one it does not know is
/// skipped.
#[derive(Debug, Deserialize)]
pub(super) struct AuditLogEntryPayload {
    pub(super) id: Id<twilight_model::id::marker::AuditLogEntryMarker>,
    action_type: AuditLogEventType,
    #[serde(default)]
    pub(super) guild_id: Option<Id<GuildMarker>>,
    #[serde(default)]
    user_id: Option<Id<UserMarker>>,
    #[serde(default)]
    target_id: Option<Id<twilight_model::id::marker::GenericMarker>>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    changes: Vec<Value>,
}

impl AuditLogEntryPayload {
    pub(super) fn into_entry(self) -> AuditEntry {
        let changes: Vec<AuditLogChange> = self
            .changes
            .into_iter()
            .filter_map(|c| serde_json::from_value(c).ok())
            .collect();
        AuditEntry {
            id: self.id.to_string(),
            action: audit_action(self.action_type, &changes),
            executor_id: self.user_id.map(|u| u.to_string()),
            target_id: self.target_id.map(|t| t.to_string()),
            reason: self.reason.and_then(non_empty),
        }
    }
}

/// What an entry of `kind` with `changes` records, for antinuke.
fn audit_action(kind: AuditLogEventType, changes: &[AuditLogChange]) -> AuditAction {
    match kind {
        AuditLogEventType::ChannelDelete => AuditAction::ChannelDeleted,
        AuditLogEventType::RoleDelete => AuditAction::RoleDeleted,
        AuditLogEventType::MemberBanAdd => AuditAction::MemberBanned,
        AuditLogEventType::MemberKick => AuditAction::MemberKicked,
        AuditLogEventType::MemberPrune => AuditAction::MembersPruned,
        AuditLogEventType::WebhookCreate => AuditAction::WebhookCreated,
        AuditLogEventType::BotAdd => AuditAction::BotAdded,
        AuditLogEventType::MemberRoleUpdate => AuditAction::RolesGranted(
            changes
                .iter()
                .flat_map(|c| match c {
                    AuditLogChange::RoleAdded { new, .. } => new.as_slice(),
                    _ => &[],
                })
                .map(|r| r.id.to_string())
                .collect(),
        ),
        AuditLogEventType::RoleCreate | AuditLogEventType::RoleUpdate => {
            // The bits the role has now and did not have before (a new role
            // had none), and both sides for putting them back.
            let (old, new) = changes
                .iter()
                .find_map(|c| match c {
                    AuditLogChange::Permissions { new, old } => Some((*old, *new)),
                    _ => None,
                })
                .unwrap_or((None, None));
            let granted = new.unwrap_or(Permissions::empty()) - old.unwrap_or(Permissions::empty());
            AuditAction::PermissionsGranted {
                granted: granted.bits(),
                before: old.map(|p| p.bits()),
                after: new.map(|p| p.bits()),
            }
        }
        other => AuditAction::Other(u16::from(other)),
    }
}
