//! Log channels (issue #25): what the daemon posts to the `logging.*`
//! channels, and how it gets there.
//!
//! Every entry goes through the log outbox ([`crate::store::logs`]),
//! written in the transaction of what it reports, like the webhook events:
//!
//! - a moderation case from any source (API, escalation, expiry, automod)
//!   when it is settled ([`case_settled`], called by the settling
//!   transaction of `crate::moderation`), to `logging.moderation`, else
//!   `general.modlog_channel_id` ([`moderation_channel`]);
//! - a config change, the audit entries with secrets already redacted
//!   ([`config_changed`], called by `crate::config::apply`), to
//!   `logging.config`;
//! - an automod hit, delete-only ones included ([`automod_hit`], for the
//!   automod consumer's transaction: `crate::automation::logs::record_hit`),
//!   to `logging.automod`;
//! - what members do (messages deleted and edited, members joining and
//!   leaving), written by the event consumer `crate::automation::logs` to
//!   `logging.message_delete`, `message_edit`, `member_join`,
//!   `member_leave`.
//!
//! The entry is kept as data ([`LogEntry`]) and rendered when it is posted
//! ([`render`], whose words are one table, [`render::TEXTS`]); [`deliver`]
//! posts a channel's waiting entries as few messages as the platform allows,
//! within its rate limits.

pub mod deliver;
pub mod render;

use modctl_types::config::{AuditEntry, Logging, Sections};
use modctl_types::moderation::{Action, Case};
use modctl_types::{Platform, Timestamp};
use serde::{Deserialize, Serialize};

use crate::store::{StoreError, Tx, cases, logs};

/// One thing to post to a log channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEntry {
    /// A moderation case, as settled.
    Case(Case),
    /// A config change: one audit entry (secrets shown as `<redacted>`).
    Config(AuditEntry),
    /// Automod caught a message.
    AutomodHit(AutomodHit),
    /// A message was deleted.
    MessageDeleted {
        /// Where it was.
        channel_id: String,
        /// The platform's id of it.
        message_id: String,
        /// Who wrote it, when the daemon saw it.
        author_id: Option<String>,
        /// What it said, when the daemon saw it (`None`: unknown).
        content: Option<String>,
    },
    /// A message was edited.
    MessageEdited {
        /// Where it is.
        channel_id: String,
        /// The platform's id of it.
        message_id: String,
        /// Who wrote it.
        author_id: String,
        /// What it said before, when the daemon saw it (`None`: unknown).
        before: Option<String>,
        /// What it says now (`None`: the platform did not give it).
        after: Option<String>,
    },
    /// A member joined.
    MemberJoined(Member),
    /// A member left.
    MemberLeft(Member),
    /// A raid lockdown started or ended (issue #26).
    Lockdown(LockdownLog),
    /// Antinuke stopped someone (issue #26).
    Antinuke(modctl_types::webhooks::AntinukeTriggered),
}

/// A raid lockdown starting or ending, as logged to `logging.moderation`
/// (else the mod-log).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockdownLog {
    /// Whether it started (else ended).
    pub started: bool,
    /// The lockdown as it is then.
    pub lockdown: modctl_types::lockdown::Lockdown,
}

/// A member joining or leaving, as logged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// The platform's user id.
    pub user_id: String,
    /// The name shown, when the platform gave one.
    pub display_name: Option<String>,
    /// A bot or app account.
    pub is_bot: bool,
    /// The channel, when the platform reports joining a channel (Slack).
    pub channel_id: Option<String>,
}

/// An automod hit, as logged to `logging.automod`. The automod consumer
/// fills it from its own hit record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutomodHit {
    /// The filter's config name (`blocked_words`, `invite_links`, ...).
    pub filter: String,
    /// The member.
    pub user_id: String,
    /// Where the message was.
    pub channel_id: Option<String>,
    /// What matched.
    pub matched: Option<String>,
    /// The filter's action (`delete`, `warn`, `timeout`, ...).
    pub action: String,
    /// What was done about the message: deleted, or why not (Slack without
    /// an admin user token, a platform refusal).
    pub outcome: String,
    /// The case it made, if any (its number).
    pub case_id: Option<i64>,
    /// When.
    pub at: Timestamp,
}

impl LogEntry {
    /// The kind, as the outbox keeps it.
    pub fn kind(&self) -> &'static str {
        match self {
            LogEntry::Case(_) => "case",
            LogEntry::Config(_) => "config",
            LogEntry::AutomodHit(_) => "automod_hit",
            LogEntry::MessageDeleted { .. } => "message_deleted",
            LogEntry::MessageEdited { .. } => "message_edited",
            LogEntry::MemberJoined(_) => "member_joined",
            LogEntry::MemberLeft(_) => "member_left",
            LogEntry::Lockdown(_) => "lockdown",
            LogEntry::Antinuke(_) => "antinuke",
        }
    }
}

/// Where moderation cases are logged: `logging.moderation`, else the
/// mod-log (`general.modlog_channel_id`).
pub fn moderation_channel(sections: &Sections) -> Option<&str> {
    sections
        .logging
        .moderation
        .as_deref()
        .or(sections.general.modlog_channel_id.as_deref())
}

/// Whether case `case` on `platform` goes to `channel`. A Slack warning or
/// note is itself a post to the mod-log (Slack cannot act on members), so
/// when the log would go to that same channel it is not posted twice.
fn logs_case(platform: Platform, case: &Case, channel: &str, sections: &Sections) -> bool {
    let posted_by_the_action = platform == Platform::Slack
        && matches!(case.action, Action::Warn | Action::Note)
        && sections.general.modlog_channel_id.as_deref() == Some(channel);
    !posted_by_the_action
}

/// Writes the log entry of case `case_number` of `server_id`, just settled
/// in this transaction, when the server logs moderation.
pub fn case_settled(
    tx: &Tx<'_>,
    sections: &Sections,
    server_id: &str,
    case_number: i64,
    now: i64,
) -> Result<(), StoreError> {
    let Some(channel) = moderation_channel(sections) else {
        return Ok(());
    };
    let Some(case) = cases::get(tx, server_id, case_number)? else {
        return Ok(());
    };
    if logs_case(case.platform, &case, channel, sections) {
        write(tx, server_id, channel, &LogEntry::Case(case), now)?;
    }
    Ok(())
}

/// Writes the log entries of a config change (its audit entries) to
/// `logging.config` as the change leaves it, or as it was when the change
/// turned config logging off (so that change is seen too).
pub fn config_changed(
    tx: &Tx<'_>,
    before: &Logging,
    after: &Logging,
    server_id: &str,
    entries: &[AuditEntry],
    now: i64,
) -> Result<(), StoreError> {
    let Some(channel) = after.config.as_deref().or(before.config.as_deref()) else {
        return Ok(());
    };
    for entry in entries {
        write(
            tx,
            server_id,
            channel,
            &LogEntry::Config(entry.clone()),
            now,
        )?;
    }
    Ok(())
}

/// Writes an automod hit to `logging.automod`, when set.
pub fn automod_hit(
    tx: &Tx<'_>,
    logging: &Logging,
    server_id: &str,
    hit: AutomodHit,
    now: i64,
) -> Result<(), StoreError> {
    match logging.automod.as_deref() {
        Some(channel) => write(tx, server_id, channel, &LogEntry::AutomodHit(hit), now),
        None => Ok(()),
    }
}

/// The channel an event's entry goes to: the `logging.*` field of its kind.
pub fn event_channel<'a>(logging: &'a Logging, entry: &LogEntry) -> Option<&'a str> {
    match entry {
        LogEntry::MessageDeleted { .. } => logging.message_delete.as_deref(),
        LogEntry::MessageEdited { .. } => logging.message_edit.as_deref(),
        LogEntry::MemberJoined(_) => logging.member_join.as_deref(),
        LogEntry::MemberLeft(_) => logging.member_leave.as_deref(),
        LogEntry::AutomodHit(_) => logging.automod.as_deref(),
        LogEntry::Config(_) => logging.config.as_deref(),
        LogEntry::Case(_) | LogEntry::Lockdown(_) | LogEntry::Antinuke(_) => {
            logging.moderation.as_deref()
        }
    }
}

/// Writes `entry` to the outbox for `channel`.
pub fn write(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    entry: &LogEntry,
    now: i64,
) -> Result<(), StoreError> {
    logs::write(tx, server_id, channel, entry.kind(), entry, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use modctl_types::moderation::{CaseSource, CaseState};

    fn case(action: Action) -> Case {
        Case {
            id: 1,
            action,
            user_id: "u".into(),
            actor: "key:k".into(),
            reason: None,
            minutes: None,
            expires_at: None,
            delete_message_days: None,
            applied: true,
            platform: Platform::Slack,
            detail: String::new(),
            created_at: Timestamp::UNIX_EPOCH,
            source: CaseSource::Api,
            linked_case_id: None,
            state: CaseState::Settled,
            dm: None,
            actor_name: None,
            voided: None,
            corrections: Vec::new(),
            user_name: None,
        }
    }

    #[test]
    fn moderation_goes_to_its_channel_else_the_modlog() {
        let mut sections = Sections::default();
        assert_eq!(moderation_channel(&sections), None);
        sections.general.modlog_channel_id = Some("C0MODLOG1".into());
        assert_eq!(moderation_channel(&sections), Some("C0MODLOG1"));
        sections.logging.moderation = Some("C0LOGS001".into());
        assert_eq!(moderation_channel(&sections), Some("C0LOGS001"));
    }

    /// A Slack warning already is a mod-log post: not posted there twice.
    #[test]
    fn slack_warnings_are_not_posted_twice_to_the_modlog() {
        let mut sections = Sections::default();
        sections.general.modlog_channel_id = Some("C0MODLOG1".into());
        for (platform, action, channel, logged) in [
            (Platform::Slack, Action::Warn, "C0MODLOG1", false),
            (Platform::Slack, Action::Note, "C0MODLOG1", false),
            (Platform::Slack, Action::Warn, "C0LOGS001", true),
            (Platform::Slack, Action::Timeout, "C0MODLOG1", true),
            (Platform::Discord, Action::Warn, "C0MODLOG1", true),
        ] {
            let mut case = case(action);
            case.platform = platform;
            assert_eq!(
                logs_case(platform, &case, channel, &sections),
                logged,
                "{platform} {action} {channel}"
            );
        }
    }

    #[test]
    fn entries_round_trip_with_their_kind() {
        let entry = LogEntry::MessageDeleted {
            channel_id: "c".into(),
            message_id: "m".into(),
            author_id: None,
            content: Some("hi".into()),
        };
        let json = serde_json::to_value(&entry).unwrap();
        assert_eq!(json["kind"], entry.kind());
        assert_eq!(serde_json::from_value::<LogEntry>(json).unwrap(), entry);
        let case = LogEntry::Case(case(Action::Ban));
        let json = serde_json::to_string(&case).unwrap();
        assert_eq!(serde_json::from_str::<LogEntry>(&json).unwrap(), case);
    }
}
