//! Cases and strikes.
//!
//! A case is inserted `pending` (with the idempotency claim, in one
//! transaction) before the platform is called, and [`settle`]d with the
//! platform's answer, its strikes and its jail change in one transaction
//! afterwards; see [`crate::moderation`] for the lifecycle. Jails live in
//! [`super::jails`], idempotency records in [`super::idempotency`]; the
//! filtered listing, [`list()`], in `cases/list.rs`.

use crate::store::Tx;
use crate::store::sql::{Col, Row, params};
use modctl_types::Platform;
use modctl_types::moderation::{
    Action, ActionResponse, Case, CaseDm, CaseSource, CaseState, CaseVoid, DmStatus, Escalation,
    StrikeSummary,
};

use modctl_types::config::WebhookEvent;
use modctl_types::live::LiveEventKind;

use super::{FromRow, StoreError, case_rollup, live_events, parsed, scalar, timestamp, webhooks};
use crate::store::days::{DayFinder, server_timezone};

mod corrections;
mod list;
pub use corrections::{clear_strikes, corrections_of, edit_reason, void, with_corrections};
pub use list::{Filter, list};

/// A case to record.
#[derive(Debug, Clone)]
pub struct NewCase<'a> {
    /// The server.
    pub server_id: &'a str,
    /// What was done.
    pub action: Action,
    /// To whom.
    pub user_id: &'a str,
    /// By whom.
    pub actor: &'a str,
    /// Why.
    pub reason: Option<&'a str>,
    /// Duration in minutes.
    pub minutes: Option<i64>,
    /// End of the timeout or jail, unix seconds.
    pub expires_at: Option<i64>,
    /// Days of messages deleted.
    pub delete_message_days: Option<i64>,
    /// Applied on the platform.
    pub applied: bool,
    /// The platform.
    pub platform: Platform,
    /// What happened (or, while pending, what is under way).
    pub detail: &'a str,
    /// Pending (the platform call follows) or settled.
    pub state: CaseState,
    /// How it came about.
    pub source: CaseSource,
    /// The case of the same server that caused it (its number).
    pub linked_case_id: Option<i64>,
    /// When, unix seconds.
    pub now: i64,
    /// The DM's outcome when it is known as the case is written (off, not
    /// possible); `None`: a DM is to be sent ([`set_dm`], [`Settlement::dm`]).
    pub dm: Option<&'a CaseDm>,
    /// Where its `case_created` event goes when it is recorded settled
    /// ([`crate::webhooks::wanted`]); `None`: no event. A pending case's
    /// event is written when it is settled ([`Settlement::webhook_url`]).
    pub webhook_url: Option<&'a str>,
}

// A case is known outside the store by its per-server `number`; the row id
// stays internal (the foreign keys of strikes, jails, idempotency keys and
// linked cases point at it), so the linked case is read as its number (the
// lookup skipped for the cases that link none, nearly all of a listing).
impl FromRow for Case {
    const COLUMNS: &'static str = "number, action, user_id, actor, reason, minutes, expires_at,
    delete_message_days, applied, platform, detail, created_at, source,
    CASE WHEN linked_case_id IS NULL THEN NULL
         ELSE (SELECT linked.number FROM cases AS linked WHERE linked.id = cases.linked_case_id)
         END AS linked_number,
    state, dm_status, dm_detail, actor_name, voided_at, voided_by, voided_by_name, void_reason";

    fn from_row(row: &Row<'_>) -> Result<Case, StoreError> {
        CaseColumns::of(row)?.read(row)
    }
}

/// Where each column of a [`Case`] is in a statement's rows, found by name
/// once per statement: a listing reads up to hundreds of rows, and finding
/// fifteen columns by name in each (a scan of the names for each column)
/// cost more than twice what reading them does.
struct CaseColumns {
    number: Col,
    action: Col,
    user_id: Col,
    actor: Col,
    reason: Col,
    minutes: Col,
    expires_at: Col,
    delete_message_days: Col,
    applied: Col,
    platform: Col,
    detail: Col,
    created_at: Col,
    source: Col,
    linked_number: Col,
    state: Col,
    dm_status: Col,
    dm_detail: Col,
    actor_name: Col,
    voided_at: Col,
    voided_by: Col,
    voided_by_name: Col,
    void_reason: Col,
}

impl CaseColumns {
    /// The columns of [`Case::COLUMNS`] in the rows of `row`'s statement, by name.
    fn of(row: &Row<'_>) -> Result<CaseColumns, StoreError> {
        let at = |name| row.column(name);
        Ok(CaseColumns {
            number: at("number")?,
            action: at("action")?,
            user_id: at("user_id")?,
            actor: at("actor")?,
            reason: at("reason")?,
            minutes: at("minutes")?,
            expires_at: at("expires_at")?,
            delete_message_days: at("delete_message_days")?,
            applied: at("applied")?,
            platform: at("platform")?,
            detail: at("detail")?,
            created_at: at("created_at")?,
            source: at("source")?,
            linked_number: at("linked_number")?,
            state: at("state")?,
            dm_status: at("dm_status")?,
            dm_detail: at("dm_detail")?,
            actor_name: at("actor_name")?,
            voided_at: at("voided_at")?,
            voided_by: at("voided_by")?,
            voided_by_name: at("voided_by_name")?,
            void_reason: at("void_reason")?,
        })
    }

    /// The case `row` holds, a row of the statement these columns are of.
    fn read(&self, row: &Row<'_>) -> Result<Case, StoreError> {
        let columns = self;
        Ok(Case {
            id: row.get(columns.number)?,
            action: parsed(row, columns.action)?,
            user_id: row.get(columns.user_id)?,
            actor: row.get(columns.actor)?,
            reason: row.get(columns.reason)?,
            minutes: row.get(columns.minutes)?,
            expires_at: row.get::<Option<i64>>(columns.expires_at)?.map(timestamp),
            delete_message_days: row.get(columns.delete_message_days)?,
            applied: row.get(columns.applied)?,
            platform: parsed(row, columns.platform)?,
            detail: row.get(columns.detail)?,
            created_at: timestamp(row.get(columns.created_at)?),
            source: match row.get_str(columns.source)? {
                "escalation" => CaseSource::Escalation,
                "expiry" => CaseSource::Expiry,
                "automod" => CaseSource::Automod,
                "verification" => CaseSource::Verification,
                "antinuke" => CaseSource::Antinuke,
                _ => CaseSource::Api,
            },
            linked_case_id: row.get(columns.linked_number)?,
            state: parsed(row, columns.state)?,
            dm: match row.get_opt_str(columns.dm_status)? {
                None => None,
                Some(_) => Some(CaseDm {
                    status: parsed::<DmStatus>(row, columns.dm_status)?,
                    detail: row
                        .get::<Option<String>>(columns.dm_detail)?
                        .unwrap_or_default(),
                }),
            },
            actor_name: row.get(columns.actor_name)?,
            voided: match row.get::<Option<i64>>(columns.voided_at)? {
                None => None,
                Some(at) => Some(CaseVoid {
                    at: timestamp(at),
                    by: row
                        .get::<Option<String>>(columns.voided_by)?
                        .unwrap_or_default(),
                    by_name: row.get(columns.voided_by_name)?,
                    reason: row
                        .get::<Option<String>>(columns.void_reason)?
                        .unwrap_or_default(),
                }),
            },
            corrections: Vec::new(),
            user_name: None,
        })
    }
}

/// The columns of a [`Case`], for `format!` (`{CASE_COLUMNS}`).
const CASE_COLUMNS: &str = Case::COLUMNS;

/// The row id of case `number` of server `?1`, for statements that store a
/// reference to a case (`?N` is the number's parameter).
fn row_of(param: u8) -> String {
    format!("(SELECT id FROM cases WHERE server_id = ?1 AND number = ?{param})")
}

/// The number the server's next case would get (a dry run's "case #N").
pub fn next_number(tx: &Tx<'_>, server_id: &str) -> Result<i64, StoreError> {
    tx.sql.row(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM cases WHERE server_id = ?1",
        [server_id],
        scalar,
    )
}

/// Records a case with the next per-server number.
pub fn insert(tx: &Tx<'_>, case: &NewCase<'_>) -> Result<Case, StoreError> {
    // The last case is a single probe of the (server_id, number) unique
    // index; its `clock_high` carries the latest time recorded so far, which
    // this case's raises unless the clock stepped back (migration V22).
    let (number, clock_high): (i64, i64) = tx
        .sql
        .opt_row(
            "SELECT number + 1 AS next_number, MAX(clock_high, ?2) AS next_clock_high
             FROM cases WHERE server_id = ?1 ORDER BY number DESC LIMIT 1",
            params![case.server_id, case.now],
            |row| Ok((row.get("next_number")?, row.get("next_clock_high")?)),
        )?
        .unwrap_or((1, case.now));
    let day = DayFinder::new(server_timezone(tx, case.server_id)?).day(case.now);
    tx.sql.prepare(&format!(
        "INSERT INTO cases (server_id, number, action, user_id, actor, reason, minutes, expires_at,
             delete_message_days, applied, platform, detail, source, linked_case_id, created_at, state,
             rollup_day, clock_high, dm_status, dm_detail, actor_name)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, {}, ?15, ?16, ?17, ?18, ?19, ?20, {})",
        row_of(14),
        KEY_NAME_OF_ACTOR_5,
    ))?
    .execute(params![
        case.server_id,
        number,
        case.action.as_str(),
        case.user_id,
        case.actor,
        case.reason,
        case.minutes,
        case.expires_at,
        case.delete_message_days,
        case.applied,
        case.platform.as_str(),
        case.detail,
        case.source.as_str(),
        case.linked_case_id,
        case.now,
        case.state.as_str(),
        day,
        clock_high,
        case.dm.map(|dm| dm.status.as_str()),
        case.dm.map(|dm| dm.detail.as_str()),
    ])?;
    // Counted applied only once settled, whether now or by `settle`.
    let settled = case.state != CaseState::Pending;
    case_rollup::count(
        tx,
        &case_rollup::Counted {
            server_id: case.server_id,
            day,
            action: case.action,
            source: case.source,
            actor: case.actor,
            user_id: case.user_id,
            applied: settled && case.applied,
        },
    )?;
    let inserted = get(tx, case.server_id, number)?
        .ok_or_else(|| StoreError::Corrupt(format!("case #{number} vanished after insert")))?;
    if let Some(url) = case.webhook_url
        && inserted.state != CaseState::Pending
    {
        // Recorded settled at once (an expiry, a skipped ladder step): its
        // event is written now, in the same transaction.
        webhooks::write(
            tx,
            case.server_id,
            WebhookEvent::CaseCreated,
            url,
            &inserted,
            case.now,
        )?;
    }
    if inserted.state != CaseState::Pending {
        // The live view's event (issue #27), whether or not webhooks want it.
        live_events::append(
            tx,
            case.server_id,
            LiveEventKind::CaseCreated,
            &inserted,
            case.now,
        )?;
    }
    Ok(inserted)
}

/// The display name the key of actor `?5` has now (issue #27), recorded on
/// the case so that renaming the key later leaves the case as it was;
/// `NULL` for `system:` actors and keys without a name.
const KEY_NAME_OF_ACTOR_5: &str =
    "(SELECT name FROM api_keys WHERE ?5 LIKE 'key:%' AND key_id = substr(?5, 5))";

/// Case `case_id` (its number) of `server_id`; `None` when there is none.
pub fn get(tx: &Tx<'_>, server_id: &str, case_id: i64) -> Result<Option<Case>, StoreError> {
    let case = tx.sql.opt_row(
        &format!("SELECT {CASE_COLUMNS} FROM cases WHERE server_id = ?1 AND number = ?2"),
        params![server_id, case_id],
        Case::from_row,
    )?;
    Ok(case)
}

/// How a pending case ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement<'a> {
    /// Settled, or unknown when the platform could not be checked.
    pub state: CaseState,
    /// Applied on the platform.
    pub applied: bool,
    /// What happened and what to do.
    pub detail: &'a str,
    /// The member's active strikes after this case.
    pub active_strikes: u32,
    /// Where the case's `case_created` event goes
    /// ([`crate::webhooks::wanted`]); `None`: no event.
    pub webhook_url: Option<&'a str>,
    /// The DM's outcome; `None` keeps the one recorded (before a kick or a
    /// ban, [`set_dm`]; or when the case was written).
    pub dm: Option<&'a CaseDm>,
}

/// Settles pending case `case_id` (its number) of `server_id`. Fails with a
/// conflict when it is not pending: two settlements of one case would be a
/// bug in the caller's locking, and must not silently overwrite the first.
pub fn settle(
    tx: &Tx<'_>,
    server_id: &str,
    case_id: i64,
    settlement: &Settlement<'_>,
) -> Result<(), StoreError> {
    // The `case_created` event carries the case as settled, so it is written
    // here, in the settling transaction, and not when the case went pending;
    // the case is read back by the update itself when an event is wanted.
    let url = settlement.webhook_url;
    type Settled = (i64, Option<i64>, Case);
    let settled: Option<Settled> = tx.sql.opt_row(
        &format!(
            "UPDATE cases SET state = ?3, applied = ?4, detail = ?5, active_strikes = ?6,
             dm_status = coalesce(?7, dm_status), dm_detail = coalesce(?8, dm_detail)
         WHERE server_id = ?1 AND number = ?2 AND state = 'pending'
         RETURNING rollup_day, {CASE_COLUMNS}"
        ),
        params![
            server_id,
            case_id,
            settlement.state.as_str(),
            settlement.applied,
            settlement.detail,
            settlement.active_strikes,
            settlement.dm.map(|dm| dm.status.as_str()),
            settlement.dm.map(|dm| dm.detail.as_str()),
        ],
        // Read back for the live view's event (issue #27) even when no
        // webhook wants it.
        |row| {
            Ok((
                row.get("created_at")?,
                row.get("rollup_day")?,
                Case::from_row(row)?,
            ))
        },
    )?;
    let Some((created_at, day, case)) = settled else {
        return Err(StoreError::Conflict(format!(
            "case #{case_id} of server {server_id} was already settled"
        )));
    };
    if settlement.applied
        && let Some(day) = day
    {
        case_rollup::count_applied(tx, server_id, day)?;
    }
    if let Some(url) = url {
        webhooks::write(
            tx,
            server_id,
            WebhookEvent::CaseCreated,
            url,
            &case,
            created_at,
        )?;
    }
    live_events::append(tx, server_id, LiveEventKind::CaseCreated, &case, created_at)?;
    Ok(())
}

/// Records the DM of pending case `case_id` (its number) of `server_id`:
/// written before a kick or a ban is sent, so that a daemon killed between
/// the DM and the action leaves the DM on the case (recovery never sends it
/// again). Does nothing when the case is no longer pending.
pub fn set_dm(tx: &Tx<'_>, server_id: &str, case_id: i64, dm: &CaseDm) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE cases SET dm_status = ?3, dm_detail = ?4
             WHERE server_id = ?1 AND number = ?2 AND state = 'pending'",
        )?
        .execute(params![
            server_id,
            case_id,
            dm.status.as_str(),
            dm.detail.as_str()
        ])?;
    Ok(())
}

/// Cases left pending, oldest first, with their server ids: at start-up these
/// are the actions a killed daemon had in flight.
pub fn pending(tx: &Tx<'_>) -> Result<Vec<(String, Case)>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT server_id, {CASE_COLUMNS} FROM cases WHERE state = 'pending' ORDER BY id"
    ))?;
    let rows = stmt.rows([], |row| {
        let server: String = row.get("server_id")?;
        Ok((server, Case::from_row(row)?))
    })?;
    Ok(rows)
}

/// The number of a pending case of `user_id`, if any.
pub fn pending_of(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<Option<i64>, StoreError> {
    tx.sql
        .opt_row(
            "SELECT number FROM cases WHERE state = 'pending' AND server_id = ?1 AND user_id = ?2 LIMIT 1", [server_id, user_id], scalar)
}

/// The escalation case that case `case_id` of `server_id` triggered, if any.
pub fn escalation_of(
    tx: &Tx<'_>,
    server_id: &str,
    case_id: i64,
) -> Result<Option<Case>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {CASE_COLUMNS} FROM cases WHERE linked_case_id = {} AND source = 'escalation'",
            row_of(2)
        ),
        params![server_id, case_id],
        Case::from_row,
    )
}

/// The response of the action that recorded `case_id`, rebuilt from the
/// store: the first answer and every idempotent replay are this same value,
/// so a replay returns exactly what the first request got (or would have got,
/// had its client waited). `None` when the case does not exist.
pub fn response_for(
    tx: &Tx<'_>,
    server_id: &str,
    case_id: i64,
) -> Result<Option<ActionResponse>, StoreError> {
    // `active_strikes` follows the case's columns: one read of the row.
    let Some((case, active_strikes)) = tx.sql.opt_row(
        &format!(
            "SELECT {CASE_COLUMNS}, active_strikes FROM cases WHERE server_id = ?1 AND number = ?2"
        ),
        params![server_id, case_id],
        |row| {
            Ok((
                Case::from_row(row)?,
                row.get::<Option<i64>>("active_strikes")?,
            ))
        },
    )?
    else {
        return Ok(None);
    };
    let escalation = escalation_of(tx, server_id, case_id)?.map(|e| Escalation {
        case_id: e.id,
        action: e.action,
        applied: e.applied,
        detail: e.detail,
        state: e.state,
    });
    Ok(Some(ActionResponse {
        case_id: case.id,
        applied: case.applied,
        platform: case.platform,
        detail: case.detail,
        active_strikes: active_strikes.unwrap_or(0).try_into().unwrap_or(u32::MAX),
        escalation,
        state: case.state,
        dm: case.dm,
    }))
}

/// Whether the member's latest applied ban is still in force (no applied
/// unban since), as far as this daemon's cases know.
pub fn is_banned(tx: &Tx<'_>, server_id: &str, user_id: &str) -> Result<bool, StoreError> {
    let latest: Option<String> = tx.sql.opt_row(
        "SELECT action FROM cases
             WHERE server_id = ?1 AND user_id = ?2 AND applied = 1 AND action IN ('ban', 'unban')
             ORDER BY number DESC LIMIT 1",
        [server_id, user_id],
        scalar,
    )?;
    Ok(latest.as_deref() == Some("ban"))
}

/// The end (unix seconds) of the longest applied timeout of the member that
/// is still running at `now`, if any.
pub fn timeout_in_force_until(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    now: i64,
) -> Result<Option<i64>, StoreError> {
    tx.sql.row(
        "SELECT MAX(expires_at) FROM cases
             WHERE server_id = ?1 AND user_id = ?2 AND applied = 1 AND action = 'timeout'
               AND expires_at > ?3",
        params![server_id, user_id, now],
        scalar,
    )
}

/// Adds `weight` strikes for case `case_id` (its number) of `server_id`.
pub fn add_strike(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    case_id: i64,
    weight: u32,
    now: i64,
    expires_at: Option<i64>,
) -> Result<(), StoreError> {
    tx.sql
        .prepare(&format!(
            "INSERT INTO strikes (server_id, user_id, case_id, weight, created_at, expires_at)
         VALUES (?1, ?2, {}, ?4, ?5, ?6)",
            row_of(3)
        ))?
        .execute(params![
            server_id, user_id, case_id, weight, now, expires_at
        ])?;
    tx.sql
        .prepare(
            "INSERT INTO strike_expiry_days (server_id, day, weight) VALUES (?1, ?2, ?3)
         ON CONFLICT DO UPDATE SET weight = weight + excluded.weight",
        )?
        .execute(params![server_id, expiry_day(expires_at), weight])?;
    Ok(())
}

/// Seconds in a UTC day.
const DAY_SECONDS: i64 = 86_400;

/// The `strike_expiry_days` day of a strike ending at `expires_at` (see
/// migration V15): its UTC day, or the last day for a strike without end.
fn expiry_day(expires_at: Option<i64>) -> i64 {
    expires_at.map_or(i64::MAX, |at| at.div_euclid(DAY_SECONDS))
}

/// The weights of every strike of `server_id` in force at `now`: those
/// ending after today (a row per day), plus today's not ended yet.
pub fn strikes_in_force(tx: &Tx<'_>, server_id: &str, now: i64) -> Result<u64, StoreError> {
    let today = now.div_euclid(DAY_SECONDS);
    let later: i64 = tx.sql.row(
        "SELECT COALESCE(SUM(weight), 0) FROM strike_expiry_days
             WHERE server_id = ?1 AND day > ?2",
        params![server_id, today],
        scalar,
    )?;
    let rest_of_today: i64 = tx.sql.row(
        "SELECT COALESCE(SUM(weight), 0) FROM strikes
             WHERE server_id = ?1 AND expires_at > ?2 AND expires_at < ?3
               AND voided_at IS NULL AND cleared_at IS NULL",
        params![server_id, now, (today + 1) * DAY_SECONDS],
        scalar,
    )?;
    Ok((later + rest_of_today).max(0) as u64)
}

/// Recomputes `strike_expiry_days` from the strikes, for strikes written
/// around [`add_strike`] (the bench's bulk seeding).
pub fn rebuild_strike_days(tx: &Tx<'_>) -> Result<(), StoreError> {
    tx.sql.execute_batch(
        "DELETE FROM strike_expiry_days;
         INSERT INTO strike_expiry_days (server_id, day, weight)
             SELECT server_id, COALESCE(expires_at / 86400, 9223372036854775807), SUM(weight)
             FROM strikes WHERE voided_at IS NULL AND cleared_at IS NULL GROUP BY 1, 2;",
    )?;
    Ok(())
}

/// Strikes of `user_id` that have not expired at `now`.
pub fn active_strikes(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    now: i64,
) -> Result<u32, StoreError> {
    let active: i64 = tx.sql.row(
        "SELECT COALESCE(SUM(weight), 0) FROM strikes
             WHERE server_id = ?1 AND user_id = ?2 AND (expires_at IS NULL OR expires_at > ?3)
               AND voided_at IS NULL AND cleared_at IS NULL",
        params![server_id, user_id, now],
        scalar,
    )?;
    Ok(active.try_into().unwrap_or(u32::MAX))
}

/// Members with strikes, most active first.
pub fn strike_summaries(
    tx: &Tx<'_>,
    server_id: &str,
    now: i64,
) -> Result<Vec<StrikeSummary>, StoreError> {
    let mut stmt = tx.sql.prepare(
        "SELECT user_id,
                COALESCE(SUM(CASE WHEN (expires_at IS NULL OR expires_at > ?2) AND cleared_at IS NULL
                                  THEN weight END), 0) AS active,
                SUM(weight) AS total, MAX(created_at) AS last_strike_at
         FROM strikes WHERE server_id = ?1 AND weight > 0 AND voided_at IS NULL
         GROUP BY user_id ORDER BY active DESC, user_id",
    )?;
    let rows = stmt.rows(params![server_id, now], |row| {
        Ok(StrikeSummary {
            user_id: row.get("user_id")?,
            active: row.get::<i64>("active")?.try_into().unwrap_or(u32::MAX),
            total: row.get::<i64>("total")?.try_into().unwrap_or(u32::MAX),
            last_strike_at: timestamp(row.get("last_strike_at")?),
            last_cleared: None,
            user_name: None,
        })
    })?;
    let mut summaries: Vec<StrikeSummary> = rows;
    drop(stmt);
    for summary in &mut summaries {
        summary.last_cleared = corrections::last_clear(tx, server_id, &summary.user_id)?;
    }
    Ok(summaries)
}
