//! Discord native AutoMod executions (issue #25): a message one of the
//! daemon's `modctl: ` rules blocked becomes a hit and, for a filter whose
//! action is not `delete`, a case, like a message the daemon caught itself.
//!
//! # Whose rule
//!
//! An `AUTO_MODERATION_ACTION_EXECUTION` names its rule by id. The filter
//! is the one the native sync planned that rule from: the sync records each
//! native filter's rule id in its report (`native_rules_sync`, migration
//! V29; [`crate::automation::native::sync::Report`]), and [`owned_filter`]
//! looks the execution's rule up there. An execution of any other rule (one
//! made by hand in Discord, a preset, the spam rule) is Discord's business:
//! ignored. Nothing is guessed from what matched (an invite rule's regex
//! pattern reads like a word). The report is read from the store for each
//! execution, in the execution's own task: executions come only for
//! messages Discord blocked, far fewer than messages, and reading it there
//! sees a sync that has just finished. A rule whose last sync failed has no
//! id in the report, so its executions are ignored until a sync succeeds.
//!
//! # A blocked message has no id
//!
//! Discord sends no `message_id` for a message it blocked, and
//! `alert_system_message_id` only with a SEND_ALERT_MESSAGE execution, not
//! the BLOCK_MESSAGE one the daemon counts (discord-docs/gateway-events.mdx,
//! "Auto Moderation Action Execution"); without the MESSAGE_CONTENT intent,
//! the very case native rules are for, `content` and `matched_content` are
//! empty too, so two blocked messages of a member in a channel say the same.
//! The execution is named by its dispatch instead: the gateway transport
//! hands the decoder the session id and the dispatch's `s`, which become
//! the event's id ([`crate::events::decode::discord::decode_delivered`]). A
//! RESUME replays missed dispatches with their `s` in the same session, so
//! a replay is the same event and finds its hit; a new session replays
//! nothing. The hit's stand-in message id is a digest of that event id
//! ([`stand_in`]). An execution that came without one (no session known) is
//! named by what it says and when it was received: each delivery its own.

use std::sync::Arc;

use modctl_types::Timestamp;
use modctl_types::automod::{EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::Sections;
use sha2::{Digest, Sha256};

use super::hit::{Target, connect, open_case, record, record_deleted};
use super::{Acting, burst_window};
use crate::automation::automod::Hit;
use crate::automation::native::Placement;
use crate::automation::native::sync::{self, Report};
use crate::events::AutoModAction;
use crate::store::automod_hits::{NewHit, Recorded};
use crate::store::{StoreError, native_rules};

/// Discord's action type of the execution the daemon counts: BLOCK_MESSAGE
/// (a rule sends one execution per action; its TIMEOUT or SEND_ALERT ones
/// are the same message again).
pub const BLOCK_MESSAGE: u8 = 1;

/// What the hit's outcome says about the message.
const BLOCKED: &str = "blocked by Discord before it was posted";

/// The filter whose rule is `rule_id`, as the last sync of the daemon's
/// rules recorded it (`None`: not one of the daemon's rules).
pub fn owned_filter(report: &Report, rule_id: &str) -> Option<FilterName> {
    report.filters.iter().find_map(|f| match &f.placement {
        Placement::Native { rule_id: Some(id) } if id == rule_id => Some(f.filter),
        _ => None,
    })
}

/// A blocked message's stand-in id: a digest of the server and the
/// execution's event id (its gateway session and `s`), the same for every
/// delivery of that dispatch and different for every other. Without an
/// event id, of everything the execution says and `at`, when it was
/// received: each delivery a hit of its own.
pub fn stand_in(
    server_id: &str,
    event_id: Option<&str>,
    action: &AutoModAction,
    at: Timestamp,
) -> String {
    let received = at.as_nanosecond().to_string();
    let fields: Vec<Option<&str>> = match event_id {
        Some(id) => vec![Some(server_id), Some(id)],
        None => vec![
            Some(server_id),
            Some(action.rule_id.as_str()),
            Some(action.user_id.as_str()),
            action.channel_id.as_deref(),
            action.content.as_deref(),
            action.matched_keyword.as_deref(),
            action.matched_content.as_deref(),
            Some(&received),
        ],
    };
    let mut digest = Sha256::new();
    digest.update([u8::from(event_id.is_some())]);
    for field in fields {
        // Length-prefixed, and absent told from empty, so no two field
        // lists hash alike.
        match field {
            Some(text) => {
                digest.update((text.len() as u64 + 1).to_le_bytes());
                digest.update(text.as_bytes());
            }
            None => digest.update(0u64.to_le_bytes()),
        }
    }
    let hex: String = digest.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("native:{hex}")
}

/// A Discord native rule's execution, recorded in its own task.
pub(super) struct Native {
    pub(super) acting: Acting,
    pub(super) server_id: Arc<str>,
    /// The event's id: the dispatch's session and `s` when the message has
    /// no id.
    pub(super) event_id: Option<String>,
    /// When the event was received.
    pub(super) at: Timestamp,
    pub(super) action: AutoModAction,
}

impl Native {
    pub(super) async fn run(self) {
        let cx = &self.acting.moderation;
        let action = &self.action;
        let id = self.server_id.to_string();
        let last = match cx.store.read(move |tx| native_rules::last(tx, &id)).await {
            Ok(last) => last,
            Err(e) => {
                tracing::warn!(server = %self.server_id, error = %e, "automod could not read the native rules' last sync");
                return;
            }
        };
        let filter = sync::read_report(last.as_ref())
            .and_then(|(report, _)| owned_filter(&report, &action.rule_id));
        let Some(filter) = filter else {
            tracing::debug!(server = %self.server_id, rule = %action.rule_id, "an AutoMod rule the daemon does not own acted: left to Discord");
            return;
        };
        let Ok(snapshot) = self.acting.live.get(&self.server_id).await else {
            return;
        };
        let sections = snapshot.sections;
        let config = &sections.automod;
        let (enabled, filter_action) = match filter {
            FilterName::MentionSpam => (config.mention_spam.enabled, config.mention_spam.action),
            FilterName::InviteLinks => (config.invite_links.enabled, config.invite_links.action),
            FilterName::BlockedWords => (config.blocked_words.enabled, config.blocked_words.action),
            // The sync plans no rule for the others.
            _ => return,
        };
        // Turned off since the rule was synced: the sync deletes the rule.
        if !enabled {
            return;
        }
        let Ok(Some(connected)) = connect(cx, &self.server_id).await else {
            return;
        };
        let hit = Hit {
            filter,
            matched: action
                .matched_content
                .clone()
                .or_else(|| action.matched_keyword.clone())
                .unwrap_or_else(|| "(content not given)".into()),
            normalized: None,
            action: filter_action,
        };
        let recorded = match claim(&self, &sections, &hit).await {
            Ok(recorded) => recorded,
            Err(e) => {
                tracing::warn!(server = %self.server_id, error = %e, "automod could not record a native rule's hit");
                return;
            }
        };
        // Delivered before: that delivery acts.
        if !recorded.fresh {
            return;
        }
        super::hit::count_hit(&self.acting.hits, filter, EnforcedBy::Native);
        let target = Target {
            channel_id: action.channel_id.clone().unwrap_or_default(),
            message_id: recorded.message_id.clone(),
            user_id: action.user_id.clone(),
        };
        let entries = vec![(recorded.seq, hit.clone(), action.channel_id.clone())];
        let server = &connected.server;
        record_deleted(
            cx,
            &sections,
            &server.id,
            &action.user_id,
            entries,
            true,
            Some(BLOCKED.to_owned()),
        )
        .await;
        if recorded.outcome == HitOutcome::Case {
            open_case(
                cx,
                server,
                &target.message_id,
                &target.user_id,
                &hit,
                recorded.seq,
                true,
            )
            .await;
        }
    }
}

/// Claims the execution's hit: by the message id when Discord gave one,
/// else by the [`stand_in`], which a replayed dispatch shares.
async fn claim(native: &Native, sections: &Sections, hit: &Hit) -> Result<Recorded, StoreError> {
    let cx = &native.acting.moderation;
    let action = &native.action;
    let now = cx.clock.now_unix();
    let message_id = action.message_id.clone().unwrap_or_else(|| {
        stand_in(
            &native.server_id,
            native.event_id.as_deref(),
            action,
            native.at,
        )
    });
    let new = NewHit {
        server_id: &native.server_id,
        message_id: &message_id,
        channel_id: action.channel_id.as_deref(),
        user_id: &action.user_id,
        filter: hit.filter,
        matched: &hit.matched,
        normalized: None,
        action: hit.action,
        enforced_by: EnforcedBy::Native,
        burst_window: burst_window(hit.filter, &sections.automod),
        now,
    };
    record(cx, new).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automation::native::sync::FilterReport;

    fn execution(rule: &str, user: &str, content: Option<&str>) -> AutoModAction {
        AutoModAction {
            rule_id: rule.into(),
            trigger_type: 1,
            action_type: BLOCK_MESSAGE,
            user_id: user.into(),
            channel_id: Some("3".into()),
            message_id: None,
            matched_keyword: Some("bad*".into()),
            matched_content: None,
            content: content.map(str::to_owned),
        }
    }

    #[test]
    fn executions_map_to_the_filter_their_synced_rule_was_planned_from() {
        let placed = |filter, rule: Option<&str>| FilterReport {
            filter,
            placement: Placement::Native {
                rule_id: rule.map(str::to_owned),
            },
        };
        let report = Report {
            filters: vec![
                placed(FilterName::BlockedWords, Some("11")),
                placed(FilterName::InviteLinks, Some("12")),
                placed(FilterName::MentionSpam, None),
                FilterReport {
                    filter: FilterName::Caps,
                    placement: Placement::Daemon { why: "x".into() },
                },
            ],
            repaired: Vec::new(),
        };
        // (rule id of the execution, filter)
        let table = [
            ("11", Some(FilterName::BlockedWords)),
            ("12", Some(FilterName::InviteLinks)),
            // A hand-made rule, or one not synced yet: not the daemon's.
            ("99", None),
            ("", None),
        ];
        for (rule, want) in table {
            assert_eq!(owned_filter(&report, rule), want, "rule {rule}");
        }
        assert_eq!(owned_filter(&Report::default(), "11"), None);
    }

    #[test]
    fn the_stand_in_is_the_same_for_the_same_dispatch_only() {
        let at = |s: i64| Timestamp::from_second(1_000_000 + s).unwrap();
        let blocked = execution("1", "2", None);
        let dispatch =
            |session: &str, seq: u64| format!("discord:automod:1:dispatch:{session}:{seq}:1");
        let first = dispatch("abc", 41);
        let base = stand_in("g", Some(&first), &blocked, at(0));
        assert!(base.starts_with("native:"), "{base}");
        // The same dispatch delivered again (a RESUME replays it with its
        // `s`), whenever and whatever it says: the same stand-in.
        assert_eq!(base, stand_in("g", Some(&first), &blocked, at(90)));
        let other_text = execution("1", "2", Some("other"));
        assert_eq!(base, stand_in("g", Some(&first), &other_text, at(0)));
        // Another dispatch of the session, another session, another server:
        // another hit, though the execution says the same.
        let others = [
            stand_in("g", Some(&dispatch("abc", 42)), &blocked, at(0)),
            stand_in("g", Some(&dispatch("def", 41)), &blocked, at(0)),
            stand_in("h", Some(&first), &blocked, at(0)),
            // No event id: each delivery its own.
            stand_in("g", None, &blocked, at(0)),
        ];
        for other in &others {
            assert_ne!(&base, other);
        }
        assert_ne!(
            stand_in("g", None, &blocked, at(0)),
            stand_in("g", None, &blocked, at(1))
        );
    }
}
