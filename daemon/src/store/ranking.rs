//! The insights' top lists, read from running totals instead of summing
//! every per-day row of a window.
//!
//! # Why running totals
//!
//! A year of a busy community is millions of member-day rows: summing them
//! per member to rank the top ten took seconds. Each ranked list ([`Ranking`])
//! therefore has, beside its per-day rows, a totals table: per server and
//! key (member, channel, moderator), the sum of the key's day rows from the
//! server's *window start* on (`ranking_windows.from_day`; every day when
//! the server has none). Writers add to the totals in the transaction that
//! adds to the day rows ([`add_activity`], [`add_case`]); the retention
//! worker moves the window start forward as days leave the longest insights
//! window and subtracts the days it passes ([`advance`]). Totals of zero are
//! deleted, so the tables hold the keys of the last year only. Members also
//! have totals of the default window, 30 days ([`MEMBERS_RECENT`]), kept the
//! same way, for windows of up to 30 days.
//!
//! # Reading a window exactly
//!
//! Counts are never negative, so a key's total is at least its sum over any
//! window starting on or after the window start: an upper bound. [`top`]
//! walks the keys by total, largest first (an index), computes each one's
//! exact sum over the window from its own day rows (another index), and
//! stops once the next total is below the tenth exact sum found: no key
//! further down can enter the list. When the window is exactly what the
//! totals cover (a year, or the month of [`MEMBERS_RECENT`]; the worker up
//! to date, nothing counted after today) the totals *are* the exact sums and the first ten entries of the
//! index are the answer (this needs the worker to have moved the window
//! start since the server's midnight: it ticks every few minutes). A
//! shorter window walks further, as far as activity is skewed (a year's
//! most active members are mostly the month's too); once the walk has read
//! about as many rows as the window holds (a bound from a few rows: members
//! active per day, cases per day), summing the window's rows is cheaper and
//! is done instead. When the window starts a day or two before the window
//! start (the server's time zone moved its today back), the keys' counts on
//! those days are read first and added to their totals and exact counts.

use crate::store::Tx;
use std::collections::{BTreeMap, HashMap};

use crate::store::sql::params;
use modctl_types::activity::Ranked;
use modctl_types::query::{INSIGHTS_DEFAULT_DAYS, INSIGHTS_MAX_DAYS};

use super::{StoreError, scalar};

/// The most entries of a top list.
pub const TOP: usize = 10;

/// Which window start a ranking's totals follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollup {
    /// Community activity of the longest window: members and channels.
    Activity,
    /// Community activity of the default window: members only (see
    /// [`MEMBERS_RECENT`]).
    RecentActivity,
    /// Cases of the longest window: repeat targets and moderators.
    Cases,
}

impl Rollup {
    const ALL: [Rollup; 3] = [Rollup::Activity, Rollup::RecentActivity, Rollup::Cases];

    fn as_str(self) -> &'static str {
        match self {
            Rollup::Activity => "activity",
            Rollup::RecentActivity => "activity-30",
            Rollup::Cases => "cases",
        }
    }

    /// How many days, ending today, the totals cover once the worker has
    /// moved the window start. The recent span is the default window: its
    /// name (`activity-30`) and migration V18 (which starts it 32 days back)
    /// say 30, hence the assertion below.
    fn span(self) -> i64 {
        match self {
            Rollup::Activity | Rollup::Cases => i64::from(INSIGHTS_MAX_DAYS),
            Rollup::RecentActivity => i64::from(INSIGHTS_DEFAULT_DAYS),
        }
    }

    /// The table with one row per server per day with anything counted.
    fn days_table(self) -> &'static str {
        match self {
            Rollup::Activity | Rollup::RecentActivity => "activity_days",
            Rollup::Cases => "case_day_counts",
        }
    }
}

/// One ranked list: its per-day rows, its totals, and the counts ranked.
#[derive(Debug, Clone, Copy)]
pub struct Ranking {
    rollup: Rollup,
    /// Per-day rows: `(server_id, day, key, counts...)`, primary key
    /// `(server_id, day, key)`.
    days: &'static str,
    /// The index `(server_id, key, day)` of `days`.
    days_by_key: &'static str,
    /// Totals: `(server_id, key, counts...)`, with an index per count.
    totals: &'static str,
    key: &'static str,
    counts: &'static [&'static str],
    /// At least as many `days` rows as days `?2..=?3` of server `?1` hold,
    /// from a few rows (see [`top`]'s walk).
    window_rows: &'static str,
}

impl Ranking {
    /// `each(count)` for every count column, joined by `separator`: a piece
    /// of SQL that names each of them.
    fn for_counts(&self, each: impl Fn(&str) -> String, separator: &str) -> String {
        let pieces: Vec<String> = self.counts.iter().map(|c| each(c)).collect();
        pieces.join(separator)
    }
}

/// Members by messages and voice minutes.
pub const MEMBERS: Ranking = Ranking {
    rollup: Rollup::Activity,
    days: "activity_member_days",
    days_by_key: "activity_member_days_by_user",
    totals: "activity_member_totals",
    key: "user_id",
    counts: &["messages", "voice_minutes"],
    window_rows: "SELECT COALESCE(SUM(active_members), 0) FROM activity_days
                  WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
};

const _: () = assert!(
    INSIGHTS_DEFAULT_DAYS == 30,
    "the recent totals (`activity-30`, migration V18) cover the default window of 30 days"
);

/// Members by messages and voice minutes, with totals of the default
/// window (30 days), for windows that short or shorter.
///
/// Why a second set of totals for members only: a window shorter than the
/// year's totals is walked key by key, each key's exact count summed from
/// its day rows (one table lookup per day: an index covering the counts
/// would have to move thousands of members' entries, pages apart, on every
/// batch of activity). Walking the year's totals for 30 days visits about a
/// hundred members; walking totals of the same 30 days visits ten. Channels
/// are few and their day index covers their counts; cases are ranked over
/// fewer keys.
pub const MEMBERS_RECENT: Ranking = Ranking {
    rollup: Rollup::RecentActivity,
    totals: "activity_member_recent_totals",
    ..MEMBERS
};

/// The members' ranking to walk for a window of `days` days.
pub fn members_for(days: i64) -> Ranking {
    if days <= Rollup::RecentActivity.span() {
        MEMBERS_RECENT
    } else {
        MEMBERS
    }
}

/// Channels by messages and voice minutes.
pub const CHANNELS: Ranking = Ranking {
    rollup: Rollup::Activity,
    days: "activity_channel_days",
    days_by_key: "activity_channel_days_by_channel",
    totals: "activity_channel_totals",
    key: "channel_id",
    counts: &["messages", "voice_minutes"],
    // Every channel with a total, on every day.
    window_rows: "SELECT (?3 - ?2 + 1) * COUNT(*) FROM activity_channel_totals WHERE server_id = ?1",
};

/// Members acted on, by cases.
pub const TARGETS: Ranking = Ranking {
    rollup: Rollup::Cases,
    days: "case_target_days",
    days_by_key: "case_target_days_by_user",
    totals: "case_target_totals",
    key: "user_id",
    counts: &["cases"],
    // A case is one row of each at most.
    window_rows: "SELECT COALESCE(SUM(cases), 0) FROM case_day_counts
                  WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
};

/// Moderators, by cases.
pub const ACTORS: Ranking = Ranking {
    rollup: Rollup::Cases,
    days: "case_actor_days",
    days_by_key: "case_actor_days_by_actor",
    totals: "case_actor_totals",
    key: "actor",
    counts: &["cases"],
    // A case is one row of each at most.
    window_rows: "SELECT COALESCE(SUM(cases), 0) FROM case_day_counts
                  WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3",
};

/// Every ranking, for the worker.
const ALL: [Ranking; 5] = [MEMBERS, MEMBERS_RECENT, CHANNELS, TARGETS, ACTORS];

/// The first day `rollup`'s totals of `server_id` cover (`None`: every day).
fn window_start(tx: &Tx<'_>, server_id: &str, rollup: Rollup) -> Result<Option<i64>, StoreError> {
    tx.sql.opt_row(
        "SELECT from_day FROM ranking_windows WHERE server_id = ?1 AND rollup = ?2",
        params![server_id, rollup.as_str()],
        scalar,
    )
}

/// Adds what was just added to the day rows of [`MEMBERS`],
/// [`MEMBERS_RECENT`] or [`CHANNELS`] of `server_id` to their totals:
/// `(day, key, messages, voice minutes)`. Rows of days before the ranking's
/// window start ([`window_start`]) are not in its totals and are skipped.
pub fn add_activity<'a>(
    tx: &Tx<'_>,
    ranking: Ranking,
    server_id: &str,
    rows: impl IntoIterator<Item = (i64, &'a str, i64, i64)>,
) -> Result<(), StoreError> {
    debug_assert_eq!(ranking.counts, ["messages", "voice_minutes"]);
    let from_day = window_start(tx, server_id, ranking.rollup)?;
    // A batch spanning midnight has a key on two days: one total. In key
    // order, so consecutive writes land on neighbouring pages.
    let mut by_key: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    for (day, key, messages, minutes) in rows {
        if from_day.is_none_or(|from| day >= from) {
            let sums = by_key.entry(key).or_default();
            sums.0 += messages;
            sums.1 += minutes;
        }
    }
    // One statement per count, each assigning only its column: SQLite then
    // rewrites only that column's index entry (a statement assigning both
    // would move every key's entry in both indexes). A prepared single-row
    // upsert per key, in key order, with the server bound once.
    for (i, column) in ranking.counts.iter().enumerate() {
        let mut upsert = tx.sql.prepare(&format!(
            "INSERT INTO {totals} (server_id, {key}, {column}) VALUES (?1, ?2, ?3)
             ON CONFLICT DO UPDATE SET {column} = {column} + excluded.{column}",
            totals = ranking.totals,
            key = ranking.key,
        ))?;
        upsert.bind(1, server_id)?;
        for (key, sums) in &by_key {
            let n = if i == 0 { sums.0 } else { sums.1 };
            if n > 0 {
                upsert.bind(2, *key)?;
                upsert.bind(3, n)?;
                upsert.execute_bound()?;
            }
        }
    }
    Ok(())
}

/// Adds one to `key`'s count (a [`TARGETS`] or [`ACTORS`] total) for a
/// case of `day`, unless the day is before the ranking's window start.
pub fn add_case(
    tx: &Tx<'_>,
    ranking: Ranking,
    server_id: &str,
    (day, key): (i64, &str),
) -> Result<(), StoreError> {
    debug_assert_eq!(ranking.counts, ["cases"]);
    let from_day = window_start(tx, server_id, ranking.rollup)?;
    if from_day.is_some_and(|from| day < from) {
        return Ok(());
    }
    tx.sql
        .prepare(&format!(
            "INSERT INTO {} (server_id, {}, cases) VALUES (?1, ?2, 1)
         ON CONFLICT DO UPDATE SET cases = cases + 1",
            ranking.totals, ranking.key
        ))?
        .execute(params![server_id, key])?;
    Ok(())
}

/// Moves the window start of every ranking of every server to the first day
/// of the window its totals cover ending today (the longest insights
/// window, or the default one; `today` gives a server's today), subtracting
/// the days it passes; returns how many (server, rollup) window starts
/// moved.
pub fn advance(
    tx: &Tx<'_>,
    mut today: impl FnMut(&Tx<'_>, &str) -> Result<i64, StoreError>,
) -> Result<usize, StoreError> {
    let servers: Vec<String> = tx.sql.rows("SELECT id FROM servers", [], scalar)?;
    let mut moved = 0;
    for server in servers {
        let server_today = today(tx, &server)?;
        for rollup in Rollup::ALL {
            let target = server_today - rollup.span() + 1;
            let from = match window_start(tx, &server, rollup)? {
                Some(from) if from >= target => continue,
                Some(from) => from,
                None => i64::MIN,
            };
            for ranking in ALL.iter().filter(|r| r.rollup == rollup) {
                subtract(tx, *ranking, &server, from, target)?;
            }
            tx.sql
                .prepare(
                    "INSERT INTO ranking_windows (server_id, rollup, from_day) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO UPDATE SET from_day = excluded.from_day",
                )?
                .execute(params![server, rollup.as_str(), target])?;
            moved += 1;
        }
    }
    Ok(moved)
}

/// Takes the day rows of days `from..until` out of `ranking`'s totals of
/// `server_id`, and deletes the totals that became zero.
fn subtract(
    tx: &Tx<'_>,
    ranking: Ranking,
    server_id: &str,
    from: i64,
    until: i64,
) -> Result<(), StoreError> {
    let Ranking {
        days, totals, key, ..
    } = ranking;
    let sums = ranking.for_counts(|c| format!("SUM({c}) AS {c}"), ", ");
    let sets = ranking.for_counts(|c| format!("{c} = t.{c} - d.{c}"), ", ");
    let zero = ranking.for_counts(|c| format!("{c} <= 0"), " AND ");
    tx.sql
        .prepare(&format!(
            "UPDATE {totals} AS t SET {sets}
         FROM (SELECT {key} AS k, {sums} FROM {days}
               WHERE server_id = ?1 AND day >= ?2 AND day < ?3 GROUP BY {key}) AS d
         WHERE t.server_id = ?1 AND t.{key} = d.k"
        ))?
        .execute(params![server_id, from, until])?;
    tx.sql
        .prepare(&format!(
            "DELETE FROM {totals} WHERE server_id = ?1 AND {zero}"
        ))?
        .execute([server_id])?;
    Ok(())
}

/// A top list wanted: the [`TOP`] keys of `ranking` with the highest
/// `count` (one of its columns) over days `window` (`from..=to`) of
/// `server_id`, at least `min` each.
#[derive(Debug, Clone, Copy)]
pub struct TopList<'a> {
    /// Which list.
    pub ranking: Ranking,
    /// The column ranked.
    pub count: &'static str,
    /// The server.
    pub server_id: &'a str,
    /// The days, first and last.
    pub window: (i64, i64),
    /// The least count listed.
    pub min: u64,
}

/// The list `list` asks for, most first, ties by key. See the module's
/// documentation for how.
pub fn top(tx: &Tx<'_>, list: &TopList<'_>) -> Result<Vec<Ranked>, StoreError> {
    let TopList {
        ranking,
        count,
        server_id,
        window: (from, to),
        min,
    } = *list;
    // `count` is put into SQL: only the constants' column names may be.
    assert!(
        ranking.counts.contains(&count),
        "{count} is not a count of {}",
        ranking.totals
    );
    let Ranking {
        days, totals, key, ..
    } = ranking;
    let min = min.max(1);
    let start = window_start(tx, server_id, ranking.rollup)?;
    // Days of the window before the window start (the server's zone moved
    // its today back): the totals miss them, so each key's counts on them
    // are added to its total (an upper bound again) and to its exact count.
    let mut early: HashMap<String, u64> = HashMap::new();
    if let Some(start) = start.filter(|&start| start > from) {
        let mut stmt = tx.sql.prepare(&format!(
            "SELECT {key} AS ranked_key, SUM({count}) AS n FROM {days}
             WHERE server_id = ?1 AND day >= ?2 AND day < ?3 GROUP BY {key}"
        ))?;
        let mut rows = stmt.query(params![server_id, from, start.min(to + 1)])?;
        while let Some(row) = rows.next()? {
            early.insert(row.get("ranked_key")?, row.get::<i64>("n")?.max(0) as u64);
        }
    }
    let most_early = early.values().copied().max().unwrap_or(0);
    // The totals are the exact counts of the days from the window start on
    // when the window holds all of them (nothing counted after `to`).
    let totals_exact = start.is_some_and(|start| start >= from)
        && !counted_after(tx, ranking.rollup, server_id, to)?;
    let mut by_total = tx.sql.prepare(&format!(
        "SELECT {key} AS ranked_key, {count} AS n FROM {totals}
         WHERE server_id = ?1 AND {count} >= ?2
         ORDER BY {count} DESC, {key}"
    ))?;
    let lowest = i64::try_from(min.saturating_sub(most_early)).unwrap_or(i64::MAX);
    let mut rows = by_total.query(params![server_id, lowest])?;
    // Named: without statistics SQLite prefers the primary key's range of
    // days, i.e. every row of the window, to the key's few rows.
    let mut exact_sum = tx.sql.prepare(&format!(
        "SELECT COALESCE(SUM({count}), 0) FROM {days} INDEXED BY {by_key}
         WHERE server_id = ?1 AND {key} = ?2 AND day BETWEEN ?3 AND ?4",
        by_key = ranking.days_by_key,
    ))?;
    // A key's exact count reads up to a window of its rows: past about as
    // many rows as the window holds, summing the window is cheaper (a short
    // window whose top keys are not the year's, or fewer than TOP keys in it).
    let window_days = u64::try_from(to - from + 1).unwrap_or(1);
    let mut read_rows = 0u64;
    let mut window_rows: Option<u64> = None;
    // The best found so far, most first, ties by key: at most TOP.
    let mut best: Vec<(String, u64)> = Vec::with_capacity(TOP + 1);
    let mut ended = true;
    while let Some(row) = rows.next()? {
        let total = row.get::<i64>("n")?.max(0) as u64;
        if best.len() == TOP {
            let tenth = best[TOP - 1].1;
            // In index order ties come by key: exact totals end at the tenth.
            if (totals_exact && early.is_empty()) || total + most_early < tenth {
                ended = false;
                break; // nobody further down can reach the list
            }
        }
        let id: String = row.get("ranked_key")?;
        let before_start = early.remove(&id).unwrap_or(0);
        let exact = if totals_exact {
            total + before_start
        } else {
            read_rows += window_days;
            if read_rows > 4 * 1024 && window_rows.is_none() {
                let bound: i64 =
                    tx.sql
                        .row(ranking.window_rows, params![server_id, from, to], scalar)?;
                window_rows = Some(bound.max(0) as u64);
            }
            if window_rows.is_some_and(|rows| read_rows > rows) {
                return sum_window(tx, &TopList { min, ..*list });
            }
            exact_sum
                .row(params![server_id, id, from, to], scalar::<i64>)?
                .max(0) as u64
        };
        if exact >= min {
            keep_best(&mut best, (id, exact));
        }
    }
    if ended {
        // Keys whose only counts are before the window start have no total.
        for (id, exact) in early {
            if exact >= min {
                keep_best(&mut best, (id, exact));
            }
        }
    }
    Ok(ranked(best))
}

/// The top list of days `from..=to` summed from the window's rows.
fn sum_window(tx: &Tx<'_>, list: &TopList<'_>) -> Result<Vec<Ranked>, StoreError> {
    let Ranking { days, key, .. } = list.ranking;
    let (count, server_id, (from, to), min) = (list.count, list.server_id, list.window, list.min);
    let mut stmt = tx.sql.prepare(&format!(
        "SELECT {key} AS ranked_key, SUM({count}) AS n FROM {days}
         WHERE server_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY {key} HAVING n >= ?4"
    ))?;
    let min = i64::try_from(min).unwrap_or(i64::MAX);
    let all = stmt.rows(params![server_id, from, to, min], |row| {
        Ok((
            row.get::<String>("ranked_key")?,
            row.get::<i64>("n")?.max(0) as u64,
        ))
    })?;
    Ok(ranked(all))
}

/// The order of a top list: most first, ties by key.
fn order(a: &(String, u64), b: &(String, u64)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0))
}

/// Puts `entry` into `best` (in [`order`]) if it belongs in the first
/// [`TOP`].
fn keep_best(best: &mut Vec<(String, u64)>, entry: (String, u64)) {
    let at = best.partition_point(|kept| order(kept, &entry).is_lt());
    if at < TOP {
        best.insert(at, entry);
        best.truncate(TOP);
    }
}

/// The [`TOP`] entries of `counts`, in [`order`].
fn ranked(mut counts: Vec<(String, u64)>) -> Vec<Ranked> {
    if counts.len() > TOP {
        counts.select_nth_unstable_by(TOP - 1, order);
        counts.truncate(TOP);
    }
    counts.sort_unstable_by(order);
    counts
        .into_iter()
        .map(|(id, count)| Ranked {
            id,
            count,
            name: None,
        })
        .collect()
}

/// Whether `server_id` has anything counted after day `to` (events a little
/// ahead of the clock, in the next day of the server's zone).
fn counted_after(
    tx: &Tx<'_>,
    rollup: Rollup,
    server_id: &str,
    to: i64,
) -> Result<bool, StoreError> {
    Ok(tx
        .sql
        .opt_row(
            &format!(
                "SELECT 1 FROM {} WHERE server_id = ?1 AND day > ?2 LIMIT 1",
                rollup.days_table()
            ),
            params![server_id, to],
            |_| Ok(()),
        )?
        .is_some())
}

/// Recomputes every total of `rollup` from the day rows (every day counts),
/// for rows written around [`add_activity`] and [`add_case`] (the bench's
/// bulk seeding).
pub fn rebuild(tx: &Tx<'_>, rollup: Rollup) -> Result<(), StoreError> {
    // Both sets of activity totals are sums of the same day rows.
    let rollups: &[Rollup] = match rollup {
        Rollup::Activity | Rollup::RecentActivity => &[Rollup::Activity, Rollup::RecentActivity],
        Rollup::Cases => &[Rollup::Cases],
    };
    for rollup in rollups {
        tx.sql.execute(
            "DELETE FROM ranking_windows WHERE rollup = ?1",
            [rollup.as_str()],
        )?;
    }
    for ranking in ALL.iter().filter(|r| rollups.contains(&r.rollup)) {
        let Ranking {
            days, totals, key, ..
        } = *ranking;
        let columns = ranking.counts.join(", ");
        let sums = ranking.for_counts(|c| format!("SUM({c})"), ", ");
        tx.sql.execute_batch(&format!(
            "DELETE FROM {totals};
             INSERT INTO {totals} (server_id, {key}, {columns})
                 SELECT server_id, {key}, {sums} FROM {days} GROUP BY server_id, {key};"
        ))?;
    }
    Ok(())
}
