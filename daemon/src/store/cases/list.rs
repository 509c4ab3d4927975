//! Listing a server's cases, newest first, with filters: the busiest read,
//! so every statement is checked to search an index and never scan or sort,
//! and to stay prepared across calls.

use crate::store::Tx;
use crate::store::sql::Value;
use crate::store::sql::params;
use modctl_types::moderation::{Action, Case};

use super::{CASE_COLUMNS, CaseColumns, StoreError};
use crate::store::scalar;

/// Which cases a listing wants; every field narrows it.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    /// Of this user.
    pub user_id: Option<&'a str>,
    /// By this actor.
    pub actor: Option<&'a str>,
    /// Of this action.
    pub action: Option<Action>,
    /// Applied on the platform or not.
    pub applied: Option<bool>,
    /// Recorded at or after this time (unix seconds).
    pub since: Option<i64>,
    /// Recorded before this time (unix seconds).
    pub until: Option<i64>,
    /// Older than this case (its number): the paging cursor.
    pub before: Option<i64>,
}

/// The column a listing walks on its index, newest first; the other filters
/// are checked on the rows it yields. The most selective filter present
/// leads, so the rows walked are (nearly) the rows returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lead {
    Server,
    User,
    Actor,
    Action,
    Applied,
}

impl Lead {
    #[cfg(test)]
    const ALL: [Lead; 5] = [
        Lead::Server,
        Lead::User,
        Lead::Actor,
        Lead::Action,
        Lead::Applied,
    ];

    fn of(filter: &Filter<'_>) -> Lead {
        if filter.user_id.is_some() {
            Lead::User
        } else if filter.actor.is_some() {
            Lead::Actor
        } else if filter.action.is_some() {
            Lead::Action
        } else if filter.applied.is_some() {
            Lead::Applied
        } else {
            Lead::Server
        }
    }

    /// The listing statement. `?2` is the lead's value (unused by
    /// `Server`), `?3`..`?4` the window of numbers, `?5`..`?8` the other
    /// filters, `NULL` when unset, `?9`..`?10` the time bounds.
    fn sql(self) -> String {
        // Without statistics SQLite rates the unique (server_id, number)
        // index as good as the lead's, and walking it would read every case
        // of the server to find one member's: the lead's index is named.
        let (index, lead) = match self {
            Lead::Server => ("", "?2 IS NULL"),
            Lead::User => ("INDEXED BY cases_by_user", "user_id = ?2"),
            Lead::Actor => ("INDEXED BY cases_by_actor", "actor = ?2"),
            Lead::Action => ("INDEXED BY cases_by_action", "action = ?2"),
            Lead::Applied => ("INDEXED BY cases_by_applied", "applied = ?2"),
        };
        format!("SELECT {CASE_COLUMNS} FROM cases {index} WHERE {lead} AND {CHECKS}")
    }
}

/// What every listing statement checks besides its lead: the window of
/// numbers (`?3`..`?4`), the other filters (`?5`..`?8`, `NULL` when unset)
/// and each case's own recorded time (`?9`..`?10`), newest first.
const CHECKS: &str = "server_id = ?1 AND number >= ?3 AND number < ?4
    AND (?5 IS NULL OR user_id = ?5) AND (?6 IS NULL OR actor = ?6)
    AND (?7 IS NULL OR action = ?7) AND (?8 IS NULL OR applied = ?8)
    AND created_at >= ?9 AND created_at < ?10
    ORDER BY number DESC";

/// The cases recorded while the clock stood behind an earlier case's time
/// (migration V22), on their partial index; `?2` is unused (`NULL`), the
/// rest as in [`CHECKS`].
fn behind_sql() -> String {
    format!(
        "SELECT {CASE_COLUMNS} FROM cases INDEXED BY cases_behind
         WHERE created_at < clock_high AND ?2 IS NULL AND {CHECKS}"
    )
}

/// Cases newest first that pass `filter`, at most `limit`. Each filter has an
/// index yielding its cases newest first (migration V13), and the time bounds
/// narrow the walk to a window of case numbers with one index probe each, so
/// the cost depends on `limit` (and on how many walked rows the other filters
/// reject), not on how many cases the table holds.
///
/// A case is selected by its own `created_at`, whatever order the clock gave
/// the cases. Its `clock_high` (the latest time of the cases up to it) never
/// decreases along the numbers (migration V22), so:
/// - every case recorded at or after `since` is numbered from the first whose
///   `clock_high` reaches `since`; the walk starts there, and rejects only
///   cases recorded behind the clock's earlier high;
/// - every case numbered before the first whose `clock_high` reaches `until`
///   was recorded before `until`; of the cases from there on, only those
///   recorded behind that high can have been, and their partial index yields
///   them (newest first, all numbered above the others) ahead of the walk.
///
/// While the clock never steps back nothing is behind: two probes and the walk
/// of the page, as before V22.
pub fn list(
    tx: &Tx<'_>,
    server_id: &str,
    filter: &Filter<'_>,
    limit: u32,
) -> Result<Vec<Case>, StoreError> {
    let mut low = 1;
    let high = filter.before.unwrap_or(i64::MAX);
    if let Some(since) = filter.since {
        match first_reaching(tx, server_id, since)? {
            Some(first) => low = first,
            None => return Ok(Vec::new()),
        }
    }
    let split = match filter.until {
        Some(until) => first_reaching(tx, server_id, until)?.unwrap_or(i64::MAX),
        None => i64::MAX,
    };
    let lead = Lead::of(filter);
    let lead_value: Value<'_> = match lead {
        Lead::Server => Value::Null,
        Lead::User => Value::Text(filter.user_id.unwrap_or_default()),
        Lead::Actor => Value::Text(filter.actor.unwrap_or_default()),
        Lead::Action => Value::Text(filter.action.map(|a| a.as_str()).unwrap_or_default()),
        Lead::Applied => Value::Integer(i64::from(filter.applied.unwrap_or_default())),
    };
    let limit = limit as usize;
    let mut cases = Vec::new();
    walk(
        tx,
        &behind_sql(),
        (server_id, Value::Null),
        (low.max(split), high),
        filter,
        limit,
        &mut cases,
    )?;
    walk(
        tx,
        &lead.sql(),
        (server_id, lead_value),
        (low, high.min(split)),
        filter,
        limit,
        &mut cases,
    )?;
    Ok(cases)
}

/// Appends to `cases`, until it holds `limit`, the cases of `server_id`
/// that `sql` yields for `filter` within the numbers `[low, high)`.
fn walk(
    tx: &Tx<'_>,
    sql: &str,
    (server_id, lead_value): (&str, Value<'_>),
    (low, high): (i64, i64),
    filter: &Filter<'_>,
    limit: usize,
    cases: &mut Vec<Case>,
) -> Result<(), StoreError> {
    let wanted = limit.saturating_sub(cases.len());
    if wanted == 0 || low >= high {
        return Ok(());
    }
    let mut statement = tx.sql.prepare(sql)?;
    let mut columns = None;
    statement.while_each(
        params![
            server_id,
            lead_value,
            low,
            high,
            filter.user_id,
            filter.actor,
            filter.action.map(Action::as_str),
            filter.applied,
            filter.since.unwrap_or(i64::MIN),
            filter.until.unwrap_or(i64::MAX),
        ],
        |row| {
            // Found once for the walk, not for every row.
            if columns.is_none() {
                columns = Some(CaseColumns::of(row)?);
            }
            cases.push(columns.as_ref().expect("just found").read(row)?);
            // Stepping stops after the page (no bound `LIMIT`, see below).
            Ok(cases.len() < limit)
        },
    )
}

// The listing statements have no `LIMIT ?`: SQLite lets a bound LIMIT steer
// the plan, so it marks that parameter and re-prepares the statement every
// time it is bound (a sixth of a listing's CPU, measured by the bench's
// `cases-1m`). The index already yields the rows newest first, so the caller
// stops stepping after `limit` rows instead; the statement stays in the cache
// prepared once.

const FIRST_REACHING_SQL: &str =
    "SELECT number FROM cases WHERE server_id = ?1 AND clock_high >= ?2
     ORDER BY clock_high, number LIMIT 1";

/// The number of the first case of `server_id` whose `clock_high` reaches
/// `at`: the first recorded at or after `at`, and the first after which a
/// case recorded before `at` must have been recorded behind the clock's high.
fn first_reaching(tx: &Tx<'_>, server_id: &str, at: i64) -> Result<Option<i64>, StoreError> {
    tx.sql
        .opt_row(FIRST_REACHING_SQL, params![server_id, at], scalar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, config};

    /// SQLite's plan for `sql` (every parameter bound to 1), one line per step.
    fn plan(tx: &Tx<'_>, sql: &str) -> Vec<String> {
        let mut stmt = tx
            .sql
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let ones = vec![1; stmt.parameter_count()];
        let params: Vec<&dyn crate::store::sql::Param> = ones
            .iter()
            .map(|n| n as &dyn crate::store::sql::Param)
            .collect();
        stmt.rows(&params[..], |row| row.get::<String>("detail"))
            .unwrap()
    }

    fn filters() -> Vec<Filter<'static>> {
        vec![
            Filter::default(),
            Filter {
                user_id: Some("1"),
                before: Some(9),
                ..Filter::default()
            },
            Filter {
                actor: Some("key:a"),
                applied: Some(false),
                since: Some(5),
                ..Filter::default()
            },
            Filter {
                action: Some(Action::Ban),
                until: Some(7),
                ..Filter::default()
            },
            Filter {
                applied: Some(true),
                ..Filter::default()
            },
        ]
    }

    /// Listing is the busiest read: its statements are prepared once and
    /// reused whatever the page, filter or size asked for.
    #[tokio::test]
    async fn listing_cases_reuses_its_prepared_statements() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let reprepared = store
            .read(|tx| {
                for filter in filters() {
                    for limit in [50, 2, 50] {
                        list(tx, "s", &filter, limit)?;
                        config::audit(tx, "s", limit, filter.before)?;
                    }
                }
                let mut counts = Vec::new();
                for lead in Lead::ALL {
                    counts.push(tx.sql.prepare(&lead.sql())?.reprepared());
                }
                counts.push(tx.sql.prepare(&behind_sql())?.reprepared());
                counts.push(tx.sql.prepare(FIRST_REACHING_SQL)?.reprepared());
                counts.push(tx.sql.prepare(config::AUDIT_SQL)?.reprepared());
                Ok::<_, StoreError>(counts)
            })
            .await
            .unwrap();
        assert_eq!(reprepared, [0; 8]);
    }

    #[tokio::test]
    async fn listing_cases_searches_an_index_and_never_scans_or_sorts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("db")).await.unwrap();
        let plans = store
            .read(|tx| {
                let mut plans: Vec<(Vec<String>, &str)> = Lead::ALL
                    .into_iter()
                    .map(|lead| {
                        let index = match lead {
                            Lead::Server => "sqlite_autoindex_cases_1",
                            Lead::User => "cases_by_user",
                            Lead::Actor => "cases_by_actor",
                            Lead::Action => "cases_by_action",
                            Lead::Applied => "cases_by_applied",
                        };
                        (plan(tx, &lead.sql()), index)
                    })
                    .collect();
                plans.push((plan(tx, &behind_sql()), "cases_behind"));
                plans.push((plan(tx, FIRST_REACHING_SQL), "cases_by_clock_high"));
                Ok::<_, StoreError>(plans)
            })
            .await
            .unwrap();
        for (steps, index) in plans {
            let text = steps.join(" | ");
            assert!(
                text.contains(&format!("SEARCH cases USING INDEX {index} "))
                    || text.contains(&format!("SEARCH cases USING COVERING INDEX {index} ")),
                "{text}"
            );
            assert!(
                !text.contains("SCAN") && !text.contains("TEMP B-TREE"),
                "{text}"
            );
        }
    }

    /// A database of V21, whose clock stepped back between cases, migrated:
    /// V22 finds each case's `clock_high` from the cases before it (per
    /// server), and the time filters select by the recorded times.
    #[tokio::test]
    async fn cases_recorded_before_v20_filter_by_their_times() {
        use crate::store::{Role, configure, embedded};
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("modctld.db");
        {
            let mut conn = rusqlite::Connection::open(&db).unwrap();
            configure(&conn, Role::Writer).unwrap();
            embedded::migrations::runner()
                .set_target(refinery::Target::Version(21))
                .run(&mut conn)
                .unwrap();
            // Server a: cases 1-3 at 1000-1002, 4-5 stepped back to 500-501,
            // 6 at 1003. Server b: 1-2 at 600-601, never stepped back.
            conn.execute_batch(
                "INSERT INTO teams (id, name, plan, created_at) VALUES (1, 't', 'pro', 0);
                 INSERT INTO servers (id, team_id, platform, name, claimed_at)
                     VALUES ('a', 1, 'discord', 'A', 0), ('b', 1, 'discord', 'B', 0);
                 INSERT INTO cases (server_id, number, action, user_id, actor, applied, platform,
                                    detail, source, created_at, rollup_day)
                 VALUES ('a', 1, 'note', 'u', 'k', 1, 'discord', '', 'api', 1000, 0),
                        ('a', 2, 'note', 'u', 'k', 1, 'discord', '', 'api', 1001, 0),
                        ('b', 1, 'note', 'u', 'k', 1, 'discord', '', 'api', 600, 0),
                        ('a', 3, 'note', 'u', 'k', 1, 'discord', '', 'api', 1002, 0),
                        ('a', 4, 'note', 'u', 'k', 1, 'discord', '', 'api', 500, 0),
                        ('b', 2, 'note', 'u', 'k', 1, 'discord', '', 'api', 601, 0),
                        ('a', 5, 'note', 'u', 'k', 1, 'discord', '', 'api', 501, 0),
                        ('a', 6, 'note', 'u', 'k', 1, 'discord', '', 'api', 1003, 0);",
            )
            .unwrap();
        }
        let store = Store::open(&db).await.unwrap();
        let numbers = |server: &'static str, since: Option<i64>, until: Option<i64>| {
            store.read(move |tx| {
                let filter = Filter {
                    since,
                    until,
                    ..Filter::default()
                };
                let cases = list(tx, server, &filter, 50)?;
                Ok::<_, StoreError>(cases.iter().map(|c| c.id).collect::<Vec<_>>())
            })
        };
        assert_eq!(numbers("a", Some(900), None).await.unwrap(), [6, 3, 2, 1]);
        assert_eq!(numbers("a", None, Some(900)).await.unwrap(), [5, 4]);
        assert_eq!(
            numbers("a", Some(501), Some(1002)).await.unwrap(),
            [5, 2, 1]
        );
        assert_eq!(numbers("b", Some(601), None).await.unwrap(), [2]);
        assert_eq!(numbers("b", None, Some(601)).await.unwrap(), [1]);
        let highs = store
            .read(|tx| {
                let mut statement = tx.sql.prepare(
                    "SELECT server_id, number, clock_high FROM cases ORDER BY server_id, number",
                )?;
                let rows = statement.rows([], |row| {
                    Ok((
                        row.get("server_id")?,
                        row.get("number")?,
                        row.get("clock_high")?,
                    ))
                })?;
                let rows: Vec<(String, i64, i64)> = rows;
                Ok::<_, StoreError>(rows)
            })
            .await
            .unwrap();
        let a = |n, high| ("a".to_owned(), n, high);
        let b = |n, high| ("b".to_owned(), n, high);
        assert_eq!(
            highs,
            [
                a(1, 1000),
                a(2, 1001),
                a(3, 1002),
                a(4, 1002),
                a(5, 1002),
                a(6, 1003),
                b(1, 600),
                b(2, 601)
            ]
        );
    }
}
