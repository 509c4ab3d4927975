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
use super::ranking::{self, Rollup};
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
    let from_day = ranking::window_start(tx, case.server_id, Rollup::Cases)?;
    let (server, day) = (case.server_id, case.day);
    ranking::add_case(tx, ranking::ACTORS, server, from_day, (day, case.actor))?;
    ranking::add_case(tx, ranking::TARGETS, server, from_day, (day, case.user_id))?;
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
    // The period before only counts: summed by SQLite.
    let previous_cases = tx
        .prepare_cached(
            "SELECT COALESCE(SUM(cases), 0) FROM case_days
             WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
        )?
        .query_row(
            params![server_id, from - (to - from + 1), from - 1],
            |row| row.get::<_, i64>(0),
        )?
        .max(0) as u64;
    let mut stmt = tx.prepare_cached(
        "SELECT day, action, source, cases, applied FROM case_days
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
    )?;
    let mut rows = stmt.query(params![server_id, from, to])?;
    while let Some(row) = rows.next()? {
        let day: i64 = row.get(0)?;
        let cases = row.get::<_, i64>(3)?.max(0) as u64;
        let applied = row.get::<_, i64>(4)?.max(0) as u64;
        let action = row.get_ref(1)?.as_str().unwrap_or_default();
        let source = row.get_ref(2)?.as_str().unwrap_or_default();
        let Some(entry) = daily.get_mut((day - from) as usize) else {
            continue;
        };
        entry.cases += cases;
        entry.applied += applied;
        add_to(&mut entry.by_action, action, cases);
        add_to(&mut entry.by_source, source, cases);
        totals.cases += cases;
        totals.applied += applied;
        add_to(&mut totals.by_action, action, cases);
        add_to(&mut totals.by_source, source, cases);
        if source == "escalation" {
            totals.escalations += cases;
        }
    }
    for day in &mut daily {
        day.not_applied = day.cases - day.applied.min(day.cases);
    }
    totals.not_applied = totals.cases - totals.applied.min(totals.cases);

    let top_moderators = ranking::top(tx, ranking::ACTORS, "cases", server_id, (from, to), 1)?;
    let top_repeat_targets = ranking::top(tx, ranking::TARGETS, "cases", server_id, (from, to), 2)?;
    Ok(CaseRollup {
        daily,
        totals,
        previous_cases,
        top_moderators,
        top_repeat_targets,
    })
}

/// Adds `n` to `key`'s count, allocating the key only the first time.
fn add_to(counts: &mut BTreeMap<String, u64>, key: &str, n: u64) {
    match counts.get_mut(key) {
        Some(count) => *count += n,
        None => {
            counts.insert(key.to_owned(), n);
        }
    }
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
    ranking::rebuild(tx, Rollup::Cases)?;
    super::cases::rebuild_strike_days(tx)?;
    Ok(tx.query_row(
        "SELECT COUNT(*) FROM cases WHERE rollup_day IS NOT NULL",
        [],
        |row| row.get::<_, i64>(0),
    )? as usize)
}
