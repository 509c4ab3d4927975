//! Automod hits: every message a filter caught, one row per (message,
//! filter), written before the daemon acts on it (migration V26).
//!
//! The unique key (server, platform message id, filter) is the idempotency
//! of automod: a redelivered event finds its row and resumes what is left
//! (the delete, the case) instead of counting again. Whether a hit opens a
//! case or belongs to a burst already counted is decided in the same
//! transaction that writes it, from the member's earlier hits of that filter,
//! so two deliveries can never both open one.

use modctl_types::Timestamp;
use modctl_types::automod::{AutomodHitRecord, EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::FilterAction;
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, Row, params};

use super::{StoreError, scalar};
use crate::store::Tx;

/// A hit about to be recorded.
#[derive(Debug, Clone)]
pub struct NewHit<'a> {
    /// The server.
    pub server_id: &'a str,
    /// The platform's message id (or the native rule's stand-in).
    pub message_id: &'a str,
    /// The channel, when known.
    pub channel_id: Option<&'a str>,
    /// The member.
    pub user_id: &'a str,
    /// The filter.
    pub filter: FilterName,
    /// What matched.
    pub matched: &'a str,
    /// The normalized form, when only it matched.
    pub normalized: Option<&'a str>,
    /// The filter's action.
    pub action: FilterAction,
    /// The daemon or a native rule.
    pub enforced_by: EnforcedBy,
    /// Seconds within which a further hit of the same member and filter is
    /// part of the same burst.
    pub burst_window: i64,
    /// Now, unix seconds.
    pub now: i64,
}

/// A hit as recorded: new, or found again (a redelivery).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// Its row (the API's `id`).
    pub seq: i64,
    /// Written now (`false`: a redelivered event found it).
    pub fresh: bool,
    /// What it leads to.
    pub outcome: HitOutcome,
    /// Whether the message is gone (`None`: not settled yet).
    pub deleted: Option<bool>,
    /// Its case's number, once one is recorded.
    pub case_number: Option<i64>,
}

/// Records `hit`, or finds it when it was recorded before: never two rows,
/// never a second case for one message and filter.
pub fn record(tx: &Tx<'_>, hit: &NewHit<'_>) -> Result<Recorded, StoreError> {
    if let Some(found) = find(tx, hit.server_id, hit.message_id, hit.filter)? {
        return Ok(found);
    }
    let outcome = if hit.action == FilterAction::Delete {
        HitOutcome::Delete
    } else {
        // A burst: the member's earlier counted hit of this filter within
        // the window (a case, or another message of the same burst, so a
        // burst that goes on stays one).
        let earlier: Option<i64> = tx
            .sql
            .prepare_cached(
                "SELECT seq FROM automod_hits INDEXED BY automod_hits_by_user
                 WHERE server_id = ?1 AND user_id = ?2 AND filter = ?3
                   AND outcome IN ('case', 'burst') AND at > ?4
                 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(
                params![
                    hit.server_id,
                    hit.user_id,
                    hit.filter.as_str(),
                    hit.now - hit.burst_window
                ],
                scalar,
            )
            .optional()?;
        if earlier.is_some() {
            HitOutcome::Burst
        } else {
            HitOutcome::Case
        }
    };
    tx.sql
        .prepare_cached(
            "INSERT INTO automod_hits (server_id, message_id, channel_id, user_id, filter, matched,
                 normalized, action, enforced_by, outcome, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(params![
            hit.server_id,
            hit.message_id,
            hit.channel_id,
            hit.user_id,
            hit.filter.as_str(),
            hit.matched,
            hit.normalized,
            FilterAction::as_str(hit.action),
            enforced_str(hit.enforced_by),
            outcome.as_str(),
            hit.now,
        ])?;
    Ok(Recorded {
        seq: tx.sql.last_insert_rowid(),
        fresh: true,
        outcome,
        deleted: None,
        case_number: None,
    })
}

fn find(
    tx: &Tx<'_>,
    server_id: &str,
    message_id: &str,
    filter: FilterName,
) -> Result<Option<Recorded>, StoreError> {
    Ok(tx
        .sql
        .prepare_cached(
            "SELECT seq, outcome, deleted,
                    (SELECT number FROM cases WHERE cases.id = case_id) AS case_number
             FROM automod_hits WHERE server_id = ?1 AND message_id = ?2 AND filter = ?3",
        )?
        .query_row(params![server_id, message_id, filter.as_str()], |row| {
            Ok(Recorded {
                seq: row.get("seq")?,
                fresh: false,
                outcome: outcome_of(row.get_ref("outcome")?.as_str()?),
                deleted: row.get("deleted")?,
                case_number: row.get("case_number")?,
            })
        })
        .optional()?)
}

/// Records whether hit `seq`'s message was deleted, and why not.
pub fn set_deleted(
    tx: &Tx<'_>,
    seq: i64,
    deleted: bool,
    detail: Option<&str>,
) -> Result<(), StoreError> {
    tx.sql
        .prepare_cached("UPDATE automod_hits SET deleted = ?2, delete_detail = ?3 WHERE seq = ?1")?
        .execute(params![seq, deleted, detail])?;
    Ok(())
}

/// Records that hit `seq` opened case `number` of its server.
pub fn set_case(tx: &Tx<'_>, seq: i64, number: i64) -> Result<(), StoreError> {
    tx.sql
        .prepare_cached(
            "UPDATE automod_hits SET case_id =
                 (SELECT id FROM cases WHERE cases.server_id = automod_hits.server_id AND number = ?2)
             WHERE seq = ?1",
        )?
        .execute(params![seq, number])?;
    Ok(())
}

/// Which hits a listing wants.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    /// Of this filter.
    pub filter: Option<FilterName>,
    /// Of this member.
    pub user_id: Option<&'a str>,
    /// Older than this hit: the paging cursor.
    pub before: Option<i64>,
}

/// A page of `server_id`'s hits, newest first.
pub fn list(
    tx: &Tx<'_>,
    server_id: &str,
    filter: &Filter<'_>,
    limit: u32,
) -> Result<Vec<AutomodHitRecord>, StoreError> {
    // The index that leads with what the listing narrows to.
    let index = match (filter.user_id, filter.filter) {
        (Some(_), _) => "automod_hits_by_user",
        (None, Some(_)) => "automod_hits_by_filter",
        (None, None) => "automod_hits_by_server",
    };
    let sql = format!(
        "SELECT seq, filter, matched, normalized, action, user_id, channel_id, message_id,
                enforced_by, outcome, deleted, delete_detail,
                (SELECT number FROM cases WHERE cases.id = case_id) AS case_number, at
         FROM automod_hits INDEXED BY {index}
         WHERE server_id = ?1 AND (?2 IS NULL OR filter = ?2) AND (?3 IS NULL OR user_id = ?3)
           AND (?4 IS NULL OR seq < ?4)
         ORDER BY seq DESC LIMIT ?5"
    );
    let filter_name = filter.filter.map(|f| Value::Text(f.as_str().to_owned()));
    let rows = tx
        .sql
        .prepare_cached(&sql)?
        .query_map(
            params![
                server_id,
                filter_name,
                filter.user_id,
                filter.before,
                i64::from(limit)
            ],
            hit_of,
        )?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

fn hit_of(row: &Row<'_>) -> rusqlite::Result<AutomodHitRecord> {
    let text = |name: &str| -> rusqlite::Result<String> { row.get(name) };
    Ok(AutomodHitRecord {
        id: row.get("seq")?,
        filter: filter_of(&text("filter")?),
        matched: row.get("matched")?,
        normalized: row.get("normalized")?,
        action: action_of(&text("action")?),
        user_id: row.get("user_id")?,
        channel_id: row.get("channel_id")?,
        message_id: row.get("message_id")?,
        enforced_by: if text("enforced_by")? == "native" {
            EnforcedBy::Native
        } else {
            EnforcedBy::Daemon
        },
        outcome: outcome_of(&text("outcome")?),
        deleted: row.get("deleted")?,
        delete_detail: row.get("delete_detail")?,
        case_id: row.get("case_number")?,
        at: Timestamp::from_second(row.get("at")?).unwrap_or(Timestamp::UNIX_EPOCH),
    })
}

fn action_of(text: &str) -> FilterAction {
    match text {
        "warn" => FilterAction::Warn,
        "timeout" => FilterAction::Timeout,
        "kick" => FilterAction::Kick,
        "ban" => FilterAction::Ban,
        _ => FilterAction::Delete,
    }
}

fn enforced_str(by: EnforcedBy) -> &'static str {
    match by {
        EnforcedBy::Native => "native",
        _ => "daemon",
    }
}

fn outcome_of(text: &str) -> HitOutcome {
    match text {
        "case" => HitOutcome::Case,
        "burst" => HitOutcome::Burst,
        _ => HitOutcome::Delete,
    }
}

/// The filter named `text` in a stored row (written from [`FilterName`]).
fn filter_of(text: &str) -> FilterName {
    match text {
        "invite_links" => FilterName::InviteLinks,
        "links" => FilterName::Links,
        "mention_spam" => FilterName::MentionSpam,
        "caps" => FilterName::Caps,
        "duplicates" => FilterName::Duplicates,
        _ => FilterName::BlockedWords,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::store_with_server;

    fn hit<'a>(message: &'a str, user: &'a str, action: FilterAction, now: i64) -> NewHit<'a> {
        NewHit {
            server_id: "g1",
            message_id: message,
            channel_id: Some("c1"),
            user_id: user,
            filter: FilterName::BlockedWords,
            matched: "bad",
            normalized: None,
            action,
            enforced_by: EnforcedBy::Daemon,
            burst_window: 60,
            now,
        }
    }

    #[tokio::test]
    async fn a_redelivery_finds_its_hit_and_a_burst_counts_once() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let outcomes = store
            .write(|tx| {
                // (message, user, action, now) -> (outcome, fresh)
                let table = [
                    ("m1", "u1", FilterAction::Warn, 1000, HitOutcome::Case, true),
                    (
                        "m1",
                        "u1",
                        FilterAction::Warn,
                        1001,
                        HitOutcome::Case,
                        false,
                    ),
                    (
                        "m2",
                        "u1",
                        FilterAction::Warn,
                        1030,
                        HitOutcome::Burst,
                        true,
                    ),
                    (
                        "m3",
                        "u1",
                        FilterAction::Warn,
                        1080,
                        HitOutcome::Burst,
                        true,
                    ),
                    ("m4", "u2", FilterAction::Warn, 1080, HitOutcome::Case, true),
                    ("m5", "u1", FilterAction::Warn, 1200, HitOutcome::Case, true),
                    (
                        "m6",
                        "u1",
                        FilterAction::Delete,
                        1201,
                        HitOutcome::Delete,
                        true,
                    ),
                ];
                let mut seen = Vec::new();
                for (message, user, action, now, outcome, fresh) in table {
                    let got = record(tx, &hit(message, user, action, now))?;
                    seen.push(((message, got.outcome, got.fresh), (message, outcome, fresh)));
                }
                Ok::<_, StoreError>(seen)
            })
            .await
            .unwrap();
        for (got, want) in outcomes {
            assert_eq!(got, want);
        }
        let listed = store
            .read(|tx| {
                list(
                    tx,
                    "g1",
                    &Filter {
                        user_id: Some("u1"),
                        ..Filter::default()
                    },
                    10,
                )
            })
            .await
            .unwrap();
        let messages: Vec<_> = listed.iter().map(|h| h.message_id.as_str()).collect();
        assert_eq!(messages, ["m6", "m5", "m3", "m2", "m1"]);
    }
}
