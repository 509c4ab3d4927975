//! Listing a server's cases, newest first, with filters: the busiest read,
//! so every statement is checked to search an index and never scan or sort,
//! and to stay prepared across calls.

use modctl_types::moderation::{Action, Case};
use rusqlite::{OptionalExtension, Transaction, params};

use super::{CASE_COLUMNS, StoreError, case_from_row};

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
    /// filters, `NULL` when unset.
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
        format!(
            "SELECT {CASE_COLUMNS} FROM cases {index}
             WHERE server_id = ?1 AND {lead} AND number >= ?3 AND number < ?4
               AND (?5 IS NULL OR user_id = ?5) AND (?6 IS NULL OR actor = ?6)
               AND (?7 IS NULL OR action = ?7) AND (?8 IS NULL OR applied = ?8)
             ORDER BY number DESC"
        )
    }
}

/// Cases newest first that pass `filter`, at most `limit`. Each filter has an
/// index yielding its cases newest first (migration V13), and the time bounds
/// become a window of case numbers with one index probe each, so the cost
/// depends on `limit` (and on how many walked rows the other filters
/// reject), not on how many cases the table holds.
pub fn list(
    tx: &Transaction<'_>,
    server_id: &str,
    filter: &Filter<'_>,
    limit: u32,
) -> Result<Vec<Case>, StoreError> {
    // Case numbers follow the order cases are recorded in, so "recorded
    // since T" is "numbered from the first case recorded at or after T".
    let mut low = 1;
    let mut high = filter.before.unwrap_or(i64::MAX);
    if let Some(until) = filter.until
        && let Some(first) = first_recorded_at(tx, server_id, until)?
    {
        high = high.min(first);
    }
    if let Some(since) = filter.since {
        match first_recorded_at(tx, server_id, since)? {
            Some(first) => low = first,
            None => return Ok(Vec::new()),
        }
    }
    let lead = Lead::of(filter);
    let lead_value: rusqlite::types::Value = match lead {
        Lead::Server => rusqlite::types::Value::Null,
        Lead::User => filter.user_id.unwrap_or_default().to_owned().into(),
        Lead::Actor => filter.actor.unwrap_or_default().to_owned().into(),
        Lead::Action => filter
            .action
            .map(|a| a.as_str())
            .unwrap_or_default()
            .to_owned()
            .into(),
        Lead::Applied => i64::from(filter.applied.unwrap_or_default()).into(),
    };
    let rows = tx
        .prepare_cached(&lead.sql())?
        .query_map(
            params![
                server_id,
                lead_value,
                low,
                high,
                filter.user_id,
                filter.actor,
                filter.action.map(Action::as_str),
                filter.applied,
            ],
            case_from_row,
        )?
        .take(limit as usize)
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

// The listing statements have no `LIMIT ?`: SQLite lets a bound LIMIT steer
// the plan, so it marks that parameter and re-prepares the statement every
// time it is bound (a sixth of a listing's CPU, measured by the bench's
// `cases-1m`). The index already yields the rows newest first, so the caller
// stops stepping after `limit` rows instead; the statement stays in the cache
// prepared once.

const FIRST_RECORDED_SQL: &str =
    "SELECT number FROM cases WHERE server_id = ?1 AND created_at >= ?2
     ORDER BY created_at, number LIMIT 1";

/// The number of the first case of `server_id` recorded at or after `at`.
fn first_recorded_at(
    tx: &Transaction<'_>,
    server_id: &str,
    at: i64,
) -> Result<Option<i64>, StoreError> {
    Ok(tx
        .prepare_cached(FIRST_RECORDED_SQL)?
        .query_row(params![server_id, at], |row| row.get(0))
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, config};

    /// SQLite's plan for `sql` (every parameter bound to 1), one line per step.
    fn plan(tx: &Transaction<'_>, sql: &str) -> Vec<String> {
        let mut stmt = tx.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let params = rusqlite::params_from_iter(std::iter::repeat_n(1, stmt.parameter_count()));
        stmt.query_map(params, |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
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
        use rusqlite::StatementStatus::RePrepare;
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
                    counts.push(tx.prepare_cached(&lead.sql())?.get_status(RePrepare));
                }
                counts.push(tx.prepare_cached(FIRST_RECORDED_SQL)?.get_status(RePrepare));
                counts.push(tx.prepare_cached(config::AUDIT_SQL)?.get_status(RePrepare));
                Ok::<_, StoreError>(counts)
            })
            .await
            .unwrap();
        assert_eq!(reprepared, [0; 7]);
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
                plans.push((plan(tx, FIRST_RECORDED_SQL), "cases_by_time"));
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
}
