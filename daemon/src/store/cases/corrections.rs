//! Corrections of cases (issue #27): a reason edited, a case voided, a
//! member's strikes cleared. Each writes one row of `case_corrections`, the
//! audit trail that is never updated, in the same transaction as the change
//! it records; a refusal changes nothing.
//!
//! A strike that stops counting is marked (`voided_at` by a void,
//! `cleared_at` by a clear) rather than deleted, and its weight leaves
//! `strike_expiry_days` (migration V15) at once, so every reader of strikes
//! (escalation's count, `GET /strikes`, the insights' strikes in force)
//! agrees from the next read on.

use crate::store::sql::{Param, Row, params};
use modctl_types::moderation::{Case, CaseCorrection, CaseState, CorrectionKind};

use super::{StoreError, expiry_day, get, row_of};
use crate::store::{Tx, parsed, timestamp};

/// Who made a correction: `key:<key_id>` (its name is looked up as the
/// correction is written, like a case's `actor_name`).
fn key_name_of(param: u8) -> String {
    format!(
        "(SELECT name FROM api_keys WHERE ?{param} LIKE 'key:%' AND key_id = substr(?{param}, 5))"
    )
}

/// Case `number` of `server_id` for a correction: not found, or still
/// pending (its strikes and outcome are not written yet), is refused.
fn correctable(tx: &Tx<'_>, server_id: &str, number: i64, what: &str) -> Result<Case, StoreError> {
    let case = get(tx, server_id, number)?.ok_or_else(|| {
        StoreError::NotFound(format!("case #{number} not found on server {server_id}"))
    })?;
    if case.state == CaseState::Pending {
        return Err(StoreError::Conflict(format!(
            "case #{number} is still being carried out: {what} it once it is settled (`cases show` says when)"
        )));
    }
    Ok(case)
}

/// How a voided case is named in a refusal: when, by whom and why.
fn voided_words(case: &Case) -> String {
    match &case.voided {
        Some(v) => format!(
            "case #{} was voided at {} by {} ({})",
            case.id,
            v.at,
            v.by_name.as_deref().unwrap_or(&v.by),
            v.reason
        ),
        None => format!("case #{} is not voided", case.id),
    }
}

/// Writes a correction row; `case_number` `None` for a clear of strikes.
struct NewCorrection<'a> {
    server_id: &'a str,
    case_number: Option<i64>,
    user_id: &'a str,
    kind: CorrectionKind,
    actor: &'a str,
    reason: &'a str,
    old_reason: Option<&'a str>,
    strikes: u32,
    now: i64,
}

fn record(tx: &Tx<'_>, c: &NewCorrection<'_>) -> Result<CaseCorrection, StoreError> {
    let id: i64 = tx
        .sql
        .row(&format!(
            "INSERT INTO case_corrections
                 (server_id, case_id, user_id, kind, actor, actor_name, reason, old_reason, strikes, created_at)
             VALUES (?1, CASE WHEN ?2 IS NULL THEN NULL ELSE {} END, ?3, ?4, ?5, {}, ?6, ?7, ?8, ?9)
             RETURNING id",
            row_of(2),
            key_name_of(5)
        ),
            params![
                c.server_id,
                c.case_number,
                c.user_id,
                c.kind.as_str(),
                c.actor,
                c.reason,
                c.old_reason,
                c.strikes,
                c.now
            ],
            |row| row.get("id"),
        )?;
    tx.sql.row(
        &format!("SELECT {COLUMNS} FROM case_corrections WHERE id = ?1"),
        [id],
        from_row,
    )
}

const COLUMNS: &str = "kind, created_at, actor, actor_name, reason, old_reason, strikes";

fn from_row(row: &Row<'_>) -> Result<CaseCorrection, StoreError> {
    Ok(CaseCorrection {
        kind: parsed(row, "kind")?,
        at: timestamp(row.get("created_at")?),
        by: row.get("actor")?,
        by_name: row.get("actor_name")?,
        reason: row.get("reason")?,
        old_reason: row.get("old_reason")?,
        strikes: row.get::<i64>("strikes")?.try_into().unwrap_or(u32::MAX),
    })
}

/// The corrections of case `number` of `server_id`, oldest first.
pub fn corrections_of(
    tx: &Tx<'_>,
    server_id: &str,
    number: i64,
) -> Result<Vec<CaseCorrection>, StoreError> {
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {COLUMNS} FROM case_corrections WHERE case_id = {} ORDER BY id",
        row_of(2)
    ))?;
    let rows = stmt.rows(params![server_id, number], from_row)?;
    Ok(rows)
}

/// The latest clear of `user_id`'s strikes on `server_id`, if any.
pub(super) fn last_clear(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
) -> Result<Option<CaseCorrection>, StoreError> {
    tx.sql.opt_row(
        &format!(
            "SELECT {COLUMNS} FROM case_corrections
              WHERE server_id = ?1 AND user_id = ?2 AND kind = 'clear_strikes'
              ORDER BY id DESC LIMIT 1"
        ),
        params![server_id, user_id],
        from_row,
    )
}

/// Case `number` of `server_id` with its corrections, as the correction
/// endpoints and `GET /cases/{case_id}` answer it.
pub fn with_corrections(
    tx: &Tx<'_>,
    server_id: &str,
    number: i64,
) -> Result<Option<Case>, StoreError> {
    let Some(mut case) = get(tx, server_id, number)? else {
        return Ok(None);
    };
    case.corrections = corrections_of(tx, server_id, number)?;
    Ok(Some(case))
}

/// Replaces the reason of case `number` of `server_id` with `reason` (checked
/// by the caller), keeping the old one in the audit trail. A voided case
/// keeps its reason: the void says why it no longer counts. The reason the
/// case has already changes nothing and records nothing (a retry after a
/// lost answer gets the case as it is): the second value says whether the
/// edit was recorded.
pub fn edit_reason(
    tx: &Tx<'_>,
    server_id: &str,
    number: i64,
    reason: &str,
    actor: &str,
    now: i64,
) -> Result<(Case, bool), StoreError> {
    let case = correctable(tx, server_id, number, "edit")?;
    if case.voided.is_some() {
        return Err(StoreError::Conflict(format!(
            "{}: a voided case's reason is not edited",
            voided_words(&case)
        )));
    }
    if case.reason.as_deref() == Some(reason) {
        let case = with_corrections(tx, server_id, number)?
            .ok_or_else(|| StoreError::Corrupt(format!("case #{number} vanished")))?;
        return Ok((case, false));
    }
    tx.sql
        .prepare("UPDATE cases SET reason = ?3 WHERE server_id = ?1 AND number = ?2")?
        .execute(params![server_id, number, reason])?;
    record(
        tx,
        &NewCorrection {
            server_id,
            case_number: Some(number),
            user_id: &case.user_id,
            kind: CorrectionKind::Edit,
            actor,
            reason,
            old_reason: case.reason.as_deref(),
            strikes: 0,
            now,
        },
    )?;
    let case = with_corrections(tx, server_id, number)?
        .ok_or_else(|| StoreError::Corrupt(format!("case #{number} vanished after an edit")))?;
    Ok((case, true))
}

/// Marks the strikes in `where_clause` (over `strikes`, `?1` the server,
/// `?2` the case row or member, `?3` now) with `column` at now, leaving out
/// voided ones; those that still counted (`counted`, an expression over the
/// row as updated) leave `strike_expiry_days`. Returns the weight of those
/// that were in force: the strikes that stopped counting now.
fn stop_counting(
    tx: &Tx<'_>,
    column: &str,
    where_clause: &str,
    counted: &str,
    key: &dyn Param,
    server_id: &str,
    now: i64,
) -> Result<u32, StoreError> {
    let stopped: Vec<(i64, Option<i64>, bool)> = tx.sql.rows(
        &format!(
            "UPDATE strikes SET {column} = ?3
              WHERE server_id = ?1 AND {where_clause} AND voided_at IS NULL
              RETURNING weight, expires_at, {counted} AS counted"
        ),
        params![server_id, key, now],
        |row| {
            Ok((
                row.get("weight")?,
                row.get("expires_at")?,
                row.get("counted")?,
            ))
        },
    )?;
    let mut active = 0i64;
    for (weight, expires_at, counted) in stopped {
        if !counted {
            continue;
        }
        tx.sql
            .prepare(
                "UPDATE strike_expiry_days SET weight = weight - ?3 WHERE server_id = ?1 AND day = ?2",
            )?
            .execute(params![server_id, expiry_day(expires_at), weight])?;
        if expires_at.is_none_or(|at| at > now) {
            active += weight;
        }
    }
    Ok(active.try_into().unwrap_or(u32::MAX))
}

/// Voids case `number` of `server_id`: the case stays, marked with who,
/// when and why, and its strikes stop counting (escalation's next count
/// among them). What the platform did is not undone.
pub fn void(
    tx: &Tx<'_>,
    server_id: &str,
    number: i64,
    reason: &str,
    actor: &str,
    now: i64,
) -> Result<Case, StoreError> {
    let case = correctable(tx, server_id, number, "void")?;
    if case.voided.is_some() {
        return Err(StoreError::Conflict(format!(
            "{}: it is voided already",
            voided_words(&case)
        )));
    }
    // Cleared strikes are voided too, so they leave the member's total;
    // only those still counting leave the expiry totals.
    let strikes = stop_counting(
        tx,
        "voided_at",
        &format!("case_id = {}", row_of(2)),
        "cleared_at IS NULL",
        &number,
        server_id,
        now,
    )?;
    tx.sql
        .prepare(&format!(
            "UPDATE cases SET voided_at = ?3, voided_by = ?4, voided_by_name = {}, void_reason = ?5
              WHERE server_id = ?1 AND number = ?2",
            key_name_of(4)
        ))?
        .execute(params![server_id, number, now, actor, reason])?;
    record(
        tx,
        &NewCorrection {
            server_id,
            case_number: Some(number),
            user_id: &case.user_id,
            kind: CorrectionKind::Void,
            actor,
            reason,
            old_reason: None,
            strikes,
            now,
        },
    )?;
    with_corrections(tx, server_id, number)?
        .ok_or_else(|| StoreError::Corrupt(format!("case #{number} vanished after a void")))
}

/// Clears `user_id`'s active strikes on `server_id` (a pardon): they stop
/// counting, stay in the member's total, and the clear is recorded. A
/// member without active strikes is refused: nothing would change.
pub fn clear_strikes(
    tx: &Tx<'_>,
    server_id: &str,
    user_id: &str,
    reason: &str,
    actor: &str,
    now: i64,
) -> Result<CaseCorrection, StoreError> {
    if super::active_strikes(tx, server_id, user_id, now)? == 0 {
        return Err(StoreError::Conflict(format!(
            "{user_id} has no active strikes on server {server_id}: nothing to clear \
             (`modctl strikes {server_id}` lists who has)"
        )));
    }
    // Only strikes in force: an expired one has stopped counting by itself.
    let strikes = stop_counting(
        tx,
        "cleared_at",
        "user_id = ?2 AND cleared_at IS NULL AND (expires_at IS NULL OR expires_at > ?3)",
        "1",
        &user_id,
        server_id,
        now,
    )?;
    record(
        tx,
        &NewCorrection {
            server_id,
            case_number: None,
            user_id,
            kind: CorrectionKind::ClearStrikes,
            actor,
            reason,
            old_reason: None,
            strikes,
            now,
        },
    )
}

#[cfg(test)]
mod tests {
    use modctl_types::Platform;
    use modctl_types::moderation::{Action, CaseSource, CaseState};

    use super::super::{NewCase, add_strike, insert, rebuild_strike_days, strikes_in_force};
    use super::*;
    use crate::store::testing::store_with_server;

    const SERVER: &str = "123456789012345678";
    /// Noon of a day, so "later today" and "tomorrow" differ.
    const NOW: i64 = 20_000 * 86_400 + 43_200;
    const HOUR: i64 = 3_600;
    const DAY: i64 = 86_400;

    fn case(tx: &Tx<'_>, user: &str) -> Result<i64, StoreError> {
        let case = insert(
            tx,
            &NewCase {
                server_id: SERVER,
                action: Action::Warn,
                user_id: user,
                actor: "key:abc",
                reason: Some("spam"),
                minutes: None,
                expires_at: None,
                delete_message_days: None,
                applied: true,
                platform: Platform::Discord,
                detail: "warned",
                state: CaseState::Settled,
                source: CaseSource::Api,
                linked_case_id: None,
                now: NOW - DAY,
                dm: None,
                webhook_url: None,
            },
        )?;
        Ok(case.id)
    }

    /// What a correction does, and what it must answer.
    enum Op {
        Void(usize),
        Clear(&'static str),
    }

    /// The expiry totals kept as strikes stop counting (migration V15) read
    /// as those rebuilt from the strikes would, at every probe: today,
    /// later today, tomorrow and past the longest expiry. Each step also
    /// says how many strikes in force stopped counting.
    #[tokio::test]
    async fn expiry_totals_stay_those_the_strikes_make() {
        let (_dir, store) = store_with_server(Platform::Discord, SERVER).await;
        // (member, weight, expiry relative to NOW; None: never)
        let strikes: [(&str, u32, Option<i64>); 5] = [
            ("u1", 1, Some(10 * DAY)),
            ("u1", 2, None),
            ("u2", 1, Some(-HOUR)),
            ("u2", 3, Some(HOUR)),
            ("u3", 4, Some(2 * DAY)),
        ];
        let steps: [(Op, u32); 6] = [
            (Op::Clear("u1"), 3),
            (Op::Void(2), 0), // expired already
            (Op::Void(3), 3),
            (Op::Void(0), 0), // cleared already
            (Op::Clear("u3"), 4),
            (Op::Void(4), 0), // cleared already
        ];
        store
            .write(move |tx| {
                let mut numbers = Vec::new();
                for (user, weight, expires) in strikes {
                    let number = case(tx, user)?;
                    add_strike(
                        tx,
                        SERVER,
                        user,
                        number,
                        weight,
                        NOW - DAY,
                        expires.map(|e| NOW + e),
                    )?;
                    numbers.push(number);
                }
                let probes = [NOW, NOW + 2 * HOUR, NOW + DAY, NOW + 11 * DAY];
                for (i, (op, stopped)) in steps.iter().enumerate() {
                    let got = match op {
                        Op::Void(n) => void(tx, SERVER, numbers[*n], "why", "key:abc", NOW)?
                            .corrections
                            .last()
                            .map_or(0, |c| c.strikes),
                        Op::Clear(user) => {
                            clear_strikes(tx, SERVER, user, "why", "key:abc", NOW)?.strikes
                        }
                    };
                    assert_eq!(got, *stopped, "step {i}");
                    let kept: Vec<u64> = probes
                        .iter()
                        .map(|at| strikes_in_force(tx, SERVER, *at))
                        .collect::<Result<_, _>>()?;
                    rebuild_strike_days(tx)?;
                    let rebuilt: Vec<u64> = probes
                        .iter()
                        .map(|at| strikes_in_force(tx, SERVER, *at))
                        .collect::<Result<_, _>>()?;
                    assert_eq!(kept, rebuilt, "step {i}");
                }
                // Everything voided or cleared: nothing in force.
                assert_eq!(strikes_in_force(tx, SERVER, NOW)?, 0);
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
    }
}
