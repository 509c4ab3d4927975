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
//!
//! A day is one row of `case_day_counts`, its counts by action and by source
//! in columns (migration V15): a year is 365 rows to read. The statements
//! that name those columns are made from [`Action::ALL`] and
//! [`CaseSource::ALL`], so an action added without its column fails every
//! test that records a case, not silently.

use crate::store::Tx;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::store::sql::{Col, Row, params};
use modctl_types::activity::{CaseDay, CaseTotals, Ranked};
use modctl_types::moderation::{Action, CaseSource};

use super::ranking::{self, Rollup};
use super::{StoreError, scalar};
use crate::store::days;

/// A case as the rollup counts it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    /// The server.
    pub server_id: &'a str,
    /// The case's day.
    pub day: i64,
    /// `warn`, `ban`, ...
    pub action: Action,
    /// `api`, `escalation`, `expiry`.
    pub source: CaseSource,
    /// The moderator.
    pub actor: &'a str,
    /// The member acted on.
    pub user_id: &'a str,
    /// Applied on the platform (and settled).
    pub applied: bool,
}

/// What the count columns of `case_day_counts` after `cases` and `applied`
/// count, in their order: the cases whose `field` (`action` or `source`, the
/// column of `cases`) is `value`, one per action, then one per source. The
/// column is named `{field}_{value}`.
fn counted() -> impl Iterator<Item = (&'static str, &'static str)> {
    let actions = Action::ALL.iter().map(|a| ("action", a.as_str()));
    actions.chain(CaseSource::ALL.iter().map(|s| ("source", s.as_str())))
}

/// The count columns of `case_day_counts`, in [`counted`]'s order.
fn count_columns() -> impl Iterator<Item = String> {
    counted().map(|(field, value)| format!("{field}_{value}"))
}

/// Where the columns of a `case_day_counts` row are in a statement's rows,
/// found by name.
struct DayColumns {
    day: Col,
    cases: Col,
    applied: Col,
    /// The count columns, in [`counted`]'s order.
    counts: Vec<Col>,
}

/// Counts a case just inserted.
pub fn count(tx: &Tx<'_>, case: &Counted<'_>) -> Result<(), StoreError> {
    // ?3 applied, ?4 the action, ?5 the source: each column adds 1 or 0.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let columns: Vec<String> = count_columns().collect();
        let ones = counted().map(|(field, value)| {
            let param = if field == "action" { "?4" } else { "?5" };
            format!("{param} = '{value}'")
        });
        let adds = columns.iter().map(|c| format!("{c} = {c} + excluded.{c}"));
        format!(
            "INSERT INTO case_day_counts (server_id, day, cases, applied, {})
             VALUES (?1, ?2, 1, ?3, {})
             ON CONFLICT DO UPDATE SET cases = cases + 1, applied = applied + excluded.applied, {}",
            columns.join(", "),
            ones.collect::<Vec<_>>().join(", "),
            adds.collect::<Vec<_>>().join(", "),
        )
    });
    tx.sql.prepare(&SQL)?.execute(params![
        case.server_id,
        case.day,
        i64::from(case.applied),
        case.action.as_str(),
        case.source.as_str(),
    ])?;
    tx.sql
        .prepare(
            "INSERT INTO case_actor_days (server_id, day, actor, cases) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT DO UPDATE SET cases = cases + 1",
        )?
        .execute(params![case.server_id, case.day, case.actor])?;
    tx.sql
        .prepare(
            "INSERT INTO case_target_days (server_id, day, user_id, cases) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT DO UPDATE SET cases = cases + 1",
        )?
        .execute(params![case.server_id, case.day, case.user_id])?;
    let (server, day) = (case.server_id, case.day);
    ranking::add_case(tx, ranking::ACTORS, server, (day, case.actor))?;
    ranking::add_case(tx, ranking::TARGETS, server, (day, case.user_id))?;
    Ok(())
}

/// Counts a pending case of `day` that settled applied.
pub fn count_applied(tx: &Tx<'_>, server_id: &str, day: i64) -> Result<(), StoreError> {
    tx.sql
        .prepare(
            "UPDATE case_day_counts SET applied = applied + 1 WHERE server_id = ?1 AND day = ?2",
        )?
        .execute(params![server_id, day])?;
    Ok(())
}

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
pub fn read(tx: &Tx<'_>, server_id: &str, from: i64, to: i64) -> Result<CaseRollup, StoreError> {
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
        .sql
        .row(
            "SELECT COALESCE(SUM(cases), 0) FROM case_day_counts
             WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
            params![server_id, from - (to - from + 1), from - 1],
            scalar::<i64>,
        )?
        .max(0) as u64;
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT day, cases, applied, {} FROM case_day_counts
             WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
            count_columns().collect::<Vec<_>>().join(", ")
        )
    });
    static COUNT_COLUMNS: LazyLock<Vec<String>> = LazyLock::new(|| count_columns().collect());
    let mut stmt = tx.sql.prepare(&SQL)?;
    // Found by name once, not for each of up to a year of rows.
    let columns = DayColumns {
        day: stmt.column("day")?,
        cases: stmt.column("cases")?,
        applied: stmt.column("applied")?,
        counts: COUNT_COLUMNS
            .iter()
            .map(|name| stmt.column(name))
            .collect::<Result<_, _>>()?,
    };
    let mut rows = stmt.query(params![server_id, from, to])?;
    let count = |row: &Row<'_>, column: Col| row.get::<i64>(column).map(|n| n.max(0) as u64);
    // The window's sums per count column, in [`counted`]'s order: turned
    // into maps once, at the end, not a key allocated per day.
    let mut sums = [0u64; Action::ALL.len() + CaseSource::ALL.len()];
    while let Some(row) = rows.next()? {
        let day: i64 = row.get(columns.day)?;
        let Some(entry) = daily.get_mut((day - from) as usize) else {
            continue;
        };
        entry.cases = count(&row, columns.cases)?;
        entry.applied = count(&row, columns.applied)?;
        totals.cases += entry.cases;
        totals.applied += entry.applied;
        for (i, ((field, value), &column)) in counted().zip(&columns.counts).enumerate() {
            let n = count(&row, column)?;
            if n > 0 {
                by_field(field, &mut entry.by_action, &mut entry.by_source)
                    .insert(value.to_owned(), n);
                sums[i] += n;
            }
        }
    }
    for ((field, value), n) in counted().zip(sums) {
        if n > 0 {
            by_field(field, &mut totals.by_action, &mut totals.by_source)
                .insert(value.to_owned(), n);
        }
    }
    totals.escalations = totals
        .by_source
        .get(CaseSource::Escalation.as_str())
        .copied()
        .unwrap_or(0);
    for day in &mut daily {
        day.not_applied = day.cases - day.applied.min(day.cases);
    }
    totals.not_applied = totals.cases - totals.applied.min(totals.cases);

    let list = |ranking, min| ranking::TopList {
        ranking,
        count: "cases",
        server_id,
        window: (from, to),
        min,
    };
    let top_moderators = ranking::top(tx, &list(ranking::ACTORS, 1))?;
    let top_repeat_targets = ranking::top(tx, &list(ranking::TARGETS, 2))?;
    Ok(CaseRollup {
        daily,
        totals,
        previous_cases,
        top_moderators,
        top_repeat_targets,
    })
}

/// The map of `field` ([`counted`]'s `action` or `source`) of a day or of
/// the totals.
fn by_field<'a>(
    field: &str,
    by_action: &'a mut BTreeMap<String, u64>,
    by_source: &'a mut BTreeMap<String, u64>,
) -> &'a mut BTreeMap<String, u64> {
    if field == "action" {
        by_action
    } else {
        by_source
    }
}

/// Recomputes the whole rollup from the cases and their `rollup_day`s, for
/// cases written around [`super::cases::insert`] (the bench's bulk seeding);
/// returns the cases counted.
pub fn rebuild(tx: &Tx<'_>) -> Result<usize, StoreError> {
    let sums = counted()
        .map(|(field, value)| format!("SUM({field} = '{value}')"))
        .collect::<Vec<_>>()
        .join(", ");
    tx.sql.execute_batch(&format!(
        "DELETE FROM case_day_counts; DELETE FROM case_actor_days; DELETE FROM case_target_days;
         INSERT INTO case_day_counts (server_id, day, cases, applied, {columns})
             SELECT server_id, rollup_day, COUNT(*), SUM(applied AND state <> 'pending'), {sums}
             FROM cases WHERE rollup_day IS NOT NULL GROUP BY server_id, rollup_day;
         INSERT INTO case_actor_days (server_id, day, actor, cases)
             SELECT server_id, rollup_day, actor, COUNT(*) FROM cases
             WHERE rollup_day IS NOT NULL GROUP BY server_id, rollup_day, actor;
         INSERT INTO case_target_days (server_id, day, user_id, cases)
             SELECT server_id, rollup_day, user_id, COUNT(*) FROM cases
             WHERE rollup_day IS NOT NULL GROUP BY server_id, rollup_day, user_id;",
        columns = count_columns().collect::<Vec<_>>().join(", "),
    ))?;
    ranking::rebuild(tx, Rollup::Cases)?;
    super::cases::rebuild_strike_days(tx)?;
    Ok(tx.sql.row(
        "SELECT COUNT(*) FROM cases WHERE rollup_day IS NOT NULL",
        [],
        scalar::<i64>,
    )? as usize)
}
