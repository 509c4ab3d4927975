//! The cases rollup: counts of cases per day by action and source, applied
//! or not, per moderator and per member acted on.
//!
//! Written by [`super::cases::insert`] and [`super::cases::settle`] in the
//! case's own transaction, so the rollup never disagrees with the cases, and
//! read by `GET /insights`, whose cost then depends on the window, not on how
//! many cases exist. A case counts on the day it was recorded, in the
//! server's time zone at that moment (`cases.rollup_day`); it counts as
//! applied once it is applied: when inserted already settled, or settled
//! later.

use std::collections::BTreeMap;

use modctl_types::activity::{CaseDay, CaseTotals, Ranked};
use rusqlite::{Transaction, params};

use super::StoreError;
use crate::activity::days;

/// A case as the rollup counts it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    /// The server.
    pub server_id: &'a str,
    /// The case's day.
    pub day: i64,
    /// `warn`, `ban`, ...
    pub action: &'a str,
    /// `api`, `escalation`, `expiry`.
    pub source: &'a str,
    /// The moderator.
    pub actor: &'a str,
    /// The member acted on.
    pub user_id: &'a str,
    /// Applied on the platform (and settled).
    pub applied: bool,
}

/// Counts a case just inserted.
pub fn count(tx: &Transaction<'_>, case: &Counted<'_>) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO case_days (server_id, day, action, source, cases, applied)
         VALUES (?1, ?2, ?3, ?4, 1, ?5)
         ON CONFLICT DO UPDATE SET cases = cases + 1, applied = applied + excluded.applied",
    )?
    .execute(params![
        case.server_id,
        case.day,
        case.action,
        case.source,
        i64::from(case.applied)
    ])?;
    tx.prepare_cached(
        "INSERT INTO case_actor_days (server_id, day, actor, cases) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT DO UPDATE SET cases = cases + 1",
    )?
    .execute(params![case.server_id, case.day, case.actor])?;
    tx.prepare_cached(
        "INSERT INTO case_target_days (server_id, day, user_id, cases) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT DO UPDATE SET cases = cases + 1",
    )?
    .execute(params![case.server_id, case.day, case.user_id])?;
    Ok(())
}

/// Counts a pending case that settled applied.
pub fn count_applied(
    tx: &Transaction<'_>,
    server_id: &str,
    day: i64,
    action: &str,
    source: &str,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "UPDATE case_days SET applied = applied + 1
         WHERE server_id = ?1 AND day = ?2 AND action = ?3 AND source = ?4",
    )?
    .execute(params![server_id, day, action, source])?;
    Ok(())
}

/// The most entries of a top list.
pub const TOP: usize = 10;

/// What `GET /insights` reads from the rollup for days `from..=to` (day
/// numbers), with the cases of the `days` before `from`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRollup {
    /// Every day of the window, oldest first.
    pub daily: Vec<CaseDay>,
    /// Totals over the window.
    pub totals: CaseTotals,
    /// Cases in the period before.
    pub previous_cases: u64,
    /// Moderators, most cases first.
    pub top_moderators: Vec<Ranked>,
    /// Members with two cases or more, most first.
    pub top_repeat_targets: Vec<Ranked>,
}

/// Reads the rollup of `server_id` for days `from..=to`.
pub fn read(
    tx: &Transaction<'_>,
    server_id: &str,
    from: i64,
    to: i64,
) -> Result<CaseRollup, StoreError> {
    let len = usize::try_from(to - from + 1).unwrap_or(0);
    let mut daily: Vec<CaseDay> = (from..=to)
        .map(|day| CaseDay {
            date: days::date(day),
            cases: 0,
            applied: 0,
            not_applied: 0,
            by_action: BTreeMap::new(),
            by_source: BTreeMap::new(),
        })
        .collect();
    let mut totals = CaseTotals {
        cases: 0,
        applied: 0,
        not_applied: 0,
        by_action: BTreeMap::new(),
        by_source: BTreeMap::new(),
        escalations: 0,
    };
    let mut previous_cases = 0u64;
    let previous_from = from - i64::try_from(len).unwrap_or(0);
    let mut stmt = tx.prepare_cached(
        "SELECT day, action, source, cases, applied FROM case_days
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
    )?;
    let mut rows = stmt.query(params![server_id, previous_from, to])?;
    while let Some(row) = rows.next()? {
        let day: i64 = row.get(0)?;
        let cases = row.get::<_, i64>(3)?.max(0) as u64;
        if day < from {
            previous_cases += cases;
            continue;
        }
        let applied = row.get::<_, i64>(4)?.max(0) as u64;
        let action = row.get_ref(1)?.as_str().unwrap_or_default();
        let source = row.get_ref(2)?.as_str().unwrap_or_default();
        let Some(entry) = daily.get_mut((day - from) as usize) else {
            continue;
        };
        entry.cases += cases;
        entry.applied += applied;
        *entry.by_action.entry(action.to_owned()).or_default() += cases;
        *entry.by_source.entry(source.to_owned()).or_default() += cases;
        totals.cases += cases;
        totals.applied += applied;
        *totals.by_action.entry(action.to_owned()).or_default() += cases;
        *totals.by_source.entry(source.to_owned()).or_default() += cases;
        if source == "escalation" {
            totals.escalations += cases;
        }
    }
    for day in &mut daily {
        day.not_applied = day.cases - day.applied.min(day.cases);
    }
    totals.not_applied = totals.cases - totals.applied.min(totals.cases);

    let top_moderators = top(
        tx,
        "SELECT actor, SUM(cases) FROM case_actor_days
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY actor",
        server_id,
        from,
        to,
        1,
    )?;
    let top_repeat_targets = top(
        tx,
        "SELECT user_id, SUM(cases) FROM case_target_days
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY user_id",
        server_id,
        from,
        to,
        2,
    )?;
    Ok(CaseRollup {
        daily,
        totals,
        previous_cases,
        top_moderators,
        top_repeat_targets,
    })
}

/// The [`TOP`] ids with the highest counts (at least `min`) that `sql`
/// (id, count) yields, ties by id.
fn top(
    tx: &Transaction<'_>,
    sql: &str,
    server_id: &str,
    from: i64,
    to: i64,
    min: u64,
) -> Result<Vec<Ranked>, StoreError> {
    let mut stmt = tx.prepare_cached(sql)?;
    let mut rows = stmt.query(params![server_id, from, to])?;
    let mut all = Vec::new();
    while let Some(row) = rows.next()? {
        let count = row.get::<_, i64>(1)?.max(0) as u64;
        if count >= min {
            all.push((row.get::<_, String>(0)?, count));
        }
    }
    Ok(ranked(all))
}

/// The [`TOP`] entries of `counts`, most first, ties by id.
pub fn ranked(mut counts: Vec<(String, u64)>) -> Vec<Ranked> {
    let order = |a: &(String, u64), b: &(String, u64)| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0));
    if counts.len() > TOP {
        counts.select_nth_unstable_by(TOP - 1, order);
        counts.truncate(TOP);
    }
    counts.sort_unstable_by(order);
    counts
        .into_iter()
        .map(|(id, count)| Ranked { id, count })
        .collect()
}

/// Recomputes the whole rollup from the cases and their `rollup_day`s, for
/// cases written around [`super::cases::insert`] (the bench's bulk seeding);
/// returns the cases counted.
pub fn rebuild(tx: &Transaction<'_>) -> Result<usize, StoreError> {
    tx.execute_batch(
        "DELETE FROM case_days; DELETE FROM case_actor_days; DELETE FROM case_target_days;
         INSERT INTO case_days (server_id, day, action, source, cases, applied)
             SELECT server_id, rollup_day, action, source, COUNT(*),
                    SUM(applied AND state <> 'pending')
             FROM cases WHERE rollup_day IS NOT NULL
             GROUP BY server_id, rollup_day, action, source;
         INSERT INTO case_actor_days (server_id, day, actor, cases)
             SELECT server_id, rollup_day, actor, COUNT(*) FROM cases
             WHERE rollup_day IS NOT NULL GROUP BY server_id, rollup_day, actor;
         INSERT INTO case_target_days (server_id, day, user_id, cases)
             SELECT server_id, rollup_day, user_id, COUNT(*) FROM cases
             WHERE rollup_day IS NOT NULL GROUP BY server_id, rollup_day, user_id;",
    )?;
    Ok(tx.query_row(
        "SELECT COUNT(*) FROM cases WHERE rollup_day IS NOT NULL",
        [],
        |row| row.get::<_, i64>(0),
    )? as usize)
}
