//! Automod hits: every message a filter caught, one row per (message,
//! filter), written before the daemon acts on it (migrations V26, V30).
//!
//! The unique key (server, platform message id, filter) is the idempotency
//! of automod and its claim: [`record`] answers whether this call wrote the
//! row ([`Recorded::fresh`]); only that call acts on the hit (deletes, logs,
//! opens the case), so a redelivery, or an edit caught while the first
//! delivery still acts, never acts twice. What a crash cut short is left
//! unsettled ([`unsettled`]) for the start-up sweep. Whether a hit opens a
//! case or belongs to a burst already counted is decided in the same
//! transaction that writes it, from the member's earlier hits of that filter,
//! so two deliveries can never both open one.

use crate::store::sql::{Row, params};
use modctl_types::Timestamp;
use modctl_types::automod::{AutomodHitRecord, EnforcedBy, FilterName, HitOutcome};
use modctl_types::config::FilterAction;

use super::StoreError;
use crate::store::Tx;

/// How long a `case` hit whose case is neither made nor given up counts as
/// being acted on (the start of a burst): longer than the durable path
/// takes with its platform retries and a DM, so a case being made is never
/// taken for a lost one. Past it the hit is stuck (its task died without a
/// trace; the start-up sweep finishes it), and it no longer suppresses the
/// member's next case, even within a `duplicates` window of up to an hour.
pub const CASE_IN_PROGRESS_FOR: i64 = 300;

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
    /// Its message id (a native execution's stand-in for a blocked
    /// message).
    pub message_id: String,
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
    let (outcome, burst_of) = if hit.action == FilterAction::Delete {
        (HitOutcome::Delete, None)
    } else {
        // A burst: the member's earlier counted hit of this filter within
        // the window: a case, or another message of a burst (so a burst
        // that goes on stays one). A case counts once made, and while it
        // may still be being made (CASE_IN_PROGRESS_FOR: a burst arriving
        // while the first case is opened stays one); a case given up
        // (`case_detail`) or stuck past that does not, nor do the bursts
        // counted against it (`burst_of`, their case hit), so it cannot
        // suppress the member's next case. Bursts recorded before V30 have
        // no `burst_of` and count as they did.
        let earlier: Option<(i64, String, Option<i64>)> = tx.sql.opt_row(
            "SELECT h.seq, h.outcome, h.burst_of
                 FROM automod_hits AS h INDEXED BY automod_hits_by_user
                 WHERE h.server_id = ?1 AND h.user_id = ?2 AND h.filter = ?3 AND h.at > ?4
                   AND CASE h.outcome
                       WHEN 'case' THEN h.case_id IS NOT NULL
                           OR (h.case_detail IS NULL AND h.at > ?5)
                       WHEN 'burst' THEN h.burst_of IS NULL OR EXISTS (
                           SELECT 1 FROM automod_hits AS c WHERE c.seq = h.burst_of
                             AND (c.case_id IS NOT NULL
                                  OR (c.case_detail IS NULL AND c.at > ?5)))
                       ELSE 0 END
                 ORDER BY h.seq DESC LIMIT 1",
            params![
                hit.server_id,
                hit.user_id,
                hit.filter.as_str(),
                hit.now - hit.burst_window,
                hit.now - CASE_IN_PROGRESS_FOR
            ],
            |row| Ok((row.get("seq")?, row.get("outcome")?, row.get("burst_of")?)),
        )?;
        match earlier {
            None => (HitOutcome::Case, None),
            Some((seq, outcome, _)) if outcome == "case" => (HitOutcome::Burst, Some(seq)),
            Some((_, _, burst_of)) => (HitOutcome::Burst, burst_of),
        }
    };
    tx.sql
        .prepare(
            "INSERT INTO automod_hits (server_id, message_id, channel_id, user_id, filter, matched,
                 normalized, action, enforced_by, outcome, burst_of, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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
            burst_of,
            hit.now,
        ])?;
    let seq = tx.sql.last_insert_rowid();
    // The live view's event (issue #27): the hit as the listing shows it.
    let recorded = tx.sql.row(
        &format!("SELECT {HIT_COLUMNS} FROM automod_hits WHERE seq = ?1"),
        params![seq],
        hit_of,
    )?;
    super::live_events::append(
        tx,
        hit.server_id,
        modctl_types::live::LiveEventKind::AutomodHit,
        &recorded,
        hit.now,
    )?;
    Ok(Recorded {
        seq,
        message_id: hit.message_id.to_owned(),
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
    tx.sql.opt_row(
        "SELECT seq, message_id, outcome, deleted,
                    (SELECT number FROM cases WHERE cases.id = case_id) AS case_number
             FROM automod_hits WHERE server_id = ?1 AND message_id = ?2 AND filter = ?3",
        params![server_id, message_id, filter.as_str()],
        found,
    )
}

fn found(row: &Row<'_>) -> Result<Recorded, StoreError> {
    Ok(Recorded {
        seq: row.get("seq")?,
        message_id: row.get("message_id")?,
        fresh: false,
        outcome: outcome_of(row.get_str("outcome")?),
        deleted: row.get("deleted")?,
        case_number: row.get("case_number")?,
    })
}

/// Records that hit `seq`'s case will not be made, and why: the hit is
/// settled, and no longer starts a burst.
pub fn set_case_failed(tx: &Tx<'_>, seq: i64, detail: &str) -> Result<(), StoreError> {
    tx.sql
        .prepare("UPDATE automod_hits SET case_detail = ?2 WHERE seq = ?1")?
        .execute(params![seq, detail])?;
    Ok(())
}

/// A hit not carried to its end: its delete not recorded, or its case
/// neither made nor given up (a daemon stopped or killed while acting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsettled {
    /// Its row.
    pub seq: i64,
    /// The server.
    pub server_id: String,
    /// The platform's message id (or a native execution's stand-in).
    pub message_id: String,
    /// The channel, when known.
    pub channel_id: Option<String>,
    /// The member.
    pub user_id: String,
    /// The filter.
    pub filter: FilterName,
    /// What matched.
    pub matched: String,
    /// The normalized form, when only it matched.
    pub normalized: Option<String>,
    /// The filter's action when it was caught.
    pub action: FilterAction,
    /// The daemon or a native rule.
    pub enforced_by: EnforcedBy,
    /// What it leads to.
    pub outcome: HitOutcome,
    /// Whether the message is gone (`None`: the delete is not recorded).
    pub deleted: Option<bool>,
    /// Its case's number, once one is recorded.
    pub case_number: Option<i64>,
    /// When it was caught (unix seconds).
    pub at: i64,
}

/// Every unsettled hit, oldest first.
pub fn unsettled(tx: &Tx<'_>) -> Result<Vec<Unsettled>, StoreError> {
    let rows = tx.sql.rows(
        "SELECT seq, server_id, message_id, channel_id, user_id, filter, matched, normalized,
                    action, enforced_by, outcome, deleted,
                    (SELECT number FROM cases WHERE cases.id = case_id) AS case_number, at
             FROM automod_hits INDEXED BY automod_hits_unsettled
             WHERE deleted IS NULL
                OR (outcome = 'case' AND case_id IS NULL AND case_detail IS NULL)
             ORDER BY seq",
        [],
        |row| {
            let text = |name: &str| -> Result<String, StoreError> { row.get(name) };
            Ok(Unsettled {
                seq: row.get("seq")?,
                server_id: row.get("server_id")?,
                message_id: row.get("message_id")?,
                channel_id: row.get("channel_id")?,
                user_id: row.get("user_id")?,
                filter: filter_of(&text("filter")?),
                matched: row.get("matched")?,
                normalized: row.get("normalized")?,
                action: action_of(&text("action")?),
                enforced_by: enforced_of(&text("enforced_by")?),
                outcome: outcome_of(&text("outcome")?),
                deleted: row.get("deleted")?,
                case_number: row.get("case_number")?,
                at: row.get("at")?,
            })
        },
    )?;
    Ok(rows)
}

/// Records whether hit `seq`'s message was deleted, and why not.
pub fn set_deleted(
    tx: &Tx<'_>,
    seq: i64,
    deleted: bool,
    detail: Option<&str>,
) -> Result<(), StoreError> {
    tx.sql
        .prepare("UPDATE automod_hits SET deleted = ?2, delete_detail = ?3 WHERE seq = ?1")?
        .execute(params![seq, deleted, detail])?;
    Ok(())
}

/// Records that hit `seq` opened case `number` of its server.
pub fn set_case(tx: &Tx<'_>, seq: i64, number: i64) -> Result<(), StoreError> {
    tx.sql
        .prepare(
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
        "SELECT {HIT_COLUMNS}
         FROM automod_hits INDEXED BY {index}
         WHERE server_id = ?1 AND (?2 IS NULL OR filter = ?2) AND (?3 IS NULL OR user_id = ?3)
           AND (?4 IS NULL OR seq < ?4)
         ORDER BY seq DESC LIMIT ?5"
    );
    let filter_name = filter.filter.map(|f| f.as_str());
    let rows = tx.sql.rows(
        &sql,
        params![
            server_id,
            filter_name,
            filter.user_id,
            filter.before,
            i64::from(limit)
        ],
        hit_of,
    )?;
    Ok(rows)
}

/// The columns [`hit_of`] reads.
const HIT_COLUMNS: &str =
    "seq, filter, matched, normalized, action, user_id, channel_id, message_id,
    enforced_by, outcome, deleted, delete_detail, case_detail,
    (SELECT number FROM cases WHERE cases.id = case_id) AS case_number, at";

fn hit_of(row: &Row<'_>) -> Result<AutomodHitRecord, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { row.get(name) };
    Ok(AutomodHitRecord {
        id: row.get("seq")?,
        filter: filter_of(&text("filter")?),
        matched: row.get("matched")?,
        normalized: row.get("normalized")?,
        action: action_of(&text("action")?),
        user_id: row.get("user_id")?,
        channel_id: row.get("channel_id")?,
        message_id: row.get("message_id")?,
        enforced_by: enforced_of(&text("enforced_by")?),
        outcome: outcome_of(&text("outcome")?),
        deleted: row.get("deleted")?,
        delete_detail: row.get("delete_detail")?,
        case_detail: row.get("case_detail")?,
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

fn enforced_of(text: &str) -> EnforcedBy {
    if text == "native" {
        EnforcedBy::Native
    } else {
        EnforcedBy::Daemon
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

    /// Two deliveries of one message and filter: the first claims it, the
    /// second is told it is not fresh (and acts on nothing).
    #[tokio::test]
    async fn only_the_first_delivery_claims_a_hit() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let (first, second) = store
            .write(|tx| {
                let first = record(tx, &hit("m1", "u1", FilterAction::Warn, 1000))?;
                let second = record(tx, &hit("m1", "u1", FilterAction::Warn, 1000))?;
                Ok::<_, StoreError>((first, second))
            })
            .await
            .unwrap();
        assert!(first.fresh && !second.fresh);
        assert_eq!(first.seq, second.seq);
        assert_eq!(second.message_id, "m1");
    }

    /// A case being made counts as the start of a burst; a case given up
    /// (`set_case_failed`), or stuck past `CASE_IN_PROGRESS_FOR`, does not,
    /// nor do the bursts counted against it, so it suppresses no later case.
    #[tokio::test]
    async fn a_case_given_up_or_stuck_starts_no_burst_and_one_in_progress_does() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let outcomes = store
            .write(|tx| {
                let stuck = record(tx, &hit("m1", "u1", FilterAction::Warn, 1000))?;
                // In progress: the next message is a burst.
                let during = record(tx, &hit("m2", "u2", FilterAction::Warn, 1000))?;
                let burst = record(tx, &hit("m3", "u2", FilterAction::Warn, 1010))?;
                // Given up: the member's next message opens a case.
                set_case_failed(tx, stuck.seq, "refused")?;
                let next = record(tx, &hit("m4", "u1", FilterAction::Warn, 1010))?;
                // A burst counted against a case later given up no longer
                // counts either.
                let root = record(tx, &hit("m5", "u3", FilterAction::Warn, 1000))?;
                let chained = record(tx, &hit("m6", "u3", FilterAction::Warn, 1010))?;
                set_case_failed(tx, root.seq, "refused")?;
                let after_chain = record(tx, &hit("m7", "u3", FilterAction::Warn, 1020))?;
                // Within a long window, a case neither made nor given up
                // counts only while it may still be in progress.
                let long = |message, now| NewHit {
                    burst_window: 3600,
                    ..hit(message, "u4", FilterAction::Warn, now)
                };
                record(tx, &long("m8", 1000))?;
                let soon = record(tx, &long("m9", 1000 + CASE_IN_PROGRESS_FOR - 1))?;
                let late = record(tx, &long("m10", 1000 + CASE_IN_PROGRESS_FOR))?;
                Ok::<_, StoreError>([
                    stuck.outcome,
                    during.outcome,
                    burst.outcome,
                    next.outcome,
                    chained.outcome,
                    after_chain.outcome,
                    soon.outcome,
                    late.outcome,
                ])
            })
            .await
            .unwrap();
        assert_eq!(
            outcomes,
            [
                HitOutcome::Case,
                HitOutcome::Case,
                HitOutcome::Burst,
                HitOutcome::Case,
                HitOutcome::Burst,
                HitOutcome::Case,
                HitOutcome::Burst,
                HitOutcome::Case,
            ]
        );
    }

    /// The sweep's reading: hits whose delete is not recorded, or whose
    /// case is neither made nor given up.
    #[tokio::test]
    async fn unsettled_hits_are_found() {
        let (_dir, store) = store_with_server(modctl_types::Platform::Discord, "g1").await;
        let left = store
            .write(|tx| {
                let deleted_no_case = record(tx, &hit("m1", "u1", FilterAction::Warn, 1000))?;
                set_deleted(tx, deleted_no_case.seq, true, None)?;
                record(tx, &hit("m2", "u2", FilterAction::Delete, 1000))?;
                let settled = record(tx, &hit("m3", "u3", FilterAction::Delete, 1000))?;
                set_deleted(tx, settled.seq, false, Some("refused"))?;
                let given_up = record(tx, &hit("m4", "u4", FilterAction::Warn, 1000))?;
                set_deleted(tx, given_up.seq, true, None)?;
                set_case_failed(tx, given_up.seq, "refused")?;
                record(tx, &hit("native:abc", "u5", FilterAction::Delete, 1000))?;
                let left: Vec<String> = unsettled(tx)?.into_iter().map(|h| h.message_id).collect();
                Ok::<_, StoreError>(left)
            })
            .await
            .unwrap();
        assert_eq!(left, ["m1", "m2", "native:abc"]);
    }
}
