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
//! "Auto Moderation Action Execution"). The hit's stand-in id is a digest
//! of the execution's own fields ([`stand_in_prefix`]) and the second it
//! was first seen: the same execution delivered again within
//! [`REPLAY_WINDOW`] (a resumed gateway session replays what it missed,
//! within seconds of the reconnect) finds that hit
//! ([`automod_hits::find_replay`]) and does nothing, while the member
//! blocked again later with the same text is a hit of its own.

use std::sync::Arc;
use std::time::Duration;

use modctl_types::automod::{EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::Sections;
use sha2::{Digest, Sha256};

use super::hit::{OwnedHit, Target, connect, open_case, record_deleted};
use super::{Acting, burst_window};
use crate::automation::automod::Hit;
use crate::automation::native::Placement;
use crate::automation::native::sync::{self, Report};
use crate::events::AutoModAction;
use crate::store::automod_hits::{self, NewHit, Recorded};
use crate::store::{StoreError, native_rules};

/// Discord's action type of the execution the daemon counts: BLOCK_MESSAGE
/// (a rule sends one execution per action; its TIMEOUT or SEND_ALERT ones
/// are the same message again).
pub const BLOCK_MESSAGE: u8 = 1;

/// How long a native execution seen again is taken for the same one: a
/// replay comes right after the session resumes. Within the burst window
/// (60 s), so a member blocked twice with the same text within it loses at
/// most a `burst` hit, never a case.
pub const REPLAY_WINDOW: Duration = Duration::from_secs(60);

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

/// The start of a blocked message's stand-in id: a digest of the server
/// and everything the execution says (rule, member, channel, what was
/// written and what matched), so a delivery of the same execution makes the
/// same prefix. The second it was first seen follows it.
pub fn stand_in_prefix(server_id: &str, action: &AutoModAction) -> String {
    let fields = [
        Some(server_id),
        Some(action.rule_id.as_str()),
        Some(action.user_id.as_str()),
        action.channel_id.as_deref(),
        action.content.as_deref(),
        action.matched_keyword.as_deref(),
        action.matched_content.as_deref(),
    ];
    let mut digest = Sha256::new();
    digest.update([action.trigger_type, action.action_type]);
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
    format!("native:{hex}:")
}

/// A Discord native rule's execution, recorded in its own task.
pub(super) struct Native {
    pub(super) acting: Acting,
    pub(super) server_id: Arc<str>,
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
/// else by the stand-in, a delivery within [`REPLAY_WINDOW`] of the first
/// finding the first's hit.
async fn claim(native: &Native, sections: &Sections, hit: &Hit) -> Result<Recorded, StoreError> {
    let cx = &native.acting.moderation;
    let action = &native.action;
    let now = cx.clock.now_unix();
    let prefix = stand_in_prefix(&native.server_id, action);
    let message_id = action
        .message_id
        .clone()
        .unwrap_or_else(|| format!("{prefix}{now}"));
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
    let owned = OwnedHit::from(&new);
    let stand_in = action.message_id.is_none();
    let since = now - REPLAY_WINDOW.as_secs() as i64;
    let (server_id, filter) = (native.server_id.to_string(), hit.filter);
    cx.store
        .write(move |tx| {
            if stand_in
                && let Some(found) =
                    automod_hits::find_replay(tx, &server_id, &prefix, filter, since)?
            {
                return Ok(found);
            }
            automod_hits::record(tx, &owned.as_new())
        })
        .await
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
    fn the_stand_in_is_the_same_for_the_same_execution_only() {
        let base = stand_in_prefix("g", &execution("1", "2", Some("buy bad stuff")));
        assert!(base.starts_with("native:") && base.ends_with(':'), "{base}");
        assert_eq!(
            base,
            stand_in_prefix("g", &execution("1", "2", Some("buy bad stuff")))
        );
        let others = [
            stand_in_prefix("h", &execution("1", "2", Some("buy bad stuff"))),
            stand_in_prefix("g", &execution("9", "2", Some("buy bad stuff"))),
            stand_in_prefix("g", &execution("1", "9", Some("buy bad stuff"))),
            stand_in_prefix("g", &execution("1", "2", Some("other bad stuff"))),
            stand_in_prefix("g", &execution("1", "2", None)),
            stand_in_prefix("g", &execution("1", "2", Some(""))),
        ];
        for other in &others {
            assert_ne!(&base, other);
        }
    }
}
