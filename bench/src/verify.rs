//! The durability check: every action the daemon acknowledged is in the
//! database, settled, with the action and member that were asked for.
//!
//! It runs after the daemon was killed with SIGKILL (see `main`), on the
//! database file itself, opened read-only: an acknowledged case must have
//! been committed before its answer was sent, not written out at shutdown.

use std::collections::HashSet;
use std::path::Path;

use anyhow::bail;
use rusqlite::{OpenFlags, OptionalExtension};

use crate::load::Acked;

/// How many acknowledged cases were checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Verified {
    /// Acknowledged cases found as acknowledged.
    pub cases: usize,
}

/// Checks every acknowledged case against the database at `db`; fails
/// naming the first problems when any case is missing or differs.
pub fn check(db: &Path, acked: &[Acked]) -> anyhow::Result<Verified> {
    let conn = rusqlite::Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut stmt = conn
        .prepare("SELECT action, user_id, state FROM cases WHERE server_id = ?1 AND number = ?2")?;
    let mut problems = Vec::new();
    let mut seen = HashSet::with_capacity(acked.len());
    for ack in acked {
        if !seen.insert((&ack.target.server_id, ack.case_id)) {
            problems.push(format!(
                "case {} was acknowledged twice, for different requests",
                ack.case_id
            ));
            continue;
        }
        let row: Option<(String, String, String)> = stmt
            .query_row(
                rusqlite::params![ack.target.server_id, ack.case_id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()?;
        match row {
            None => problems.push(format!(
                "case {} ({} of {}) was acknowledged but is not in the database",
                ack.case_id, ack.target.action, ack.target.user_id
            )),
            Some((action, user, state))
                if action != ack.target.action
                    || user != ack.target.user_id
                    || state != "settled" =>
            {
                problems.push(format!(
                    "case {} was acknowledged as a {} of {} but the database has a {state} {action} of {user}",
                    ack.case_id, ack.target.action, ack.target.user_id
                ));
            }
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        let shown: Vec<&str> = problems.iter().take(10).map(String::as_str).collect();
        bail!(
            "DURABILITY CHECK FAILED: {} of {} acknowledged cases are wrong or missing in {}:\n  {}",
            problems.len(),
            acked.len(),
            db.display(),
            shown.join("\n  ")
        );
    }
    Ok(Verified { cases: acked.len() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::WriteTarget;

    fn db_with(cases: &[(i64, &str, &str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cases.db");
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE cases (server_id TEXT, number INTEGER, action TEXT, user_id TEXT, state TEXT)",
        )
        .unwrap();
        for (id, action, user, state) in cases {
            conn.execute(
                "INSERT INTO cases VALUES ('s', ?1, ?2, ?3, ?4)",
                rusqlite::params![id, action, user, state],
            )
            .unwrap();
        }
        (dir, path)
    }

    fn ack(case_id: i64, action: &'static str, user: &str) -> Acked {
        Acked {
            case_id,
            target: WriteTarget {
                server_id: "s".into(),
                action,
                user_id: user.into(),
            },
        }
    }

    #[test]
    fn acknowledged_cases_in_the_database_pass() {
        let (_dir, db) = db_with(&[(1, "warn", "u1", "settled"), (2, "ban", "u2", "settled")]);
        let verified = check(&db, &[ack(1, "warn", "u1"), ack(2, "ban", "u2")]).unwrap();
        assert_eq!(verified.cases, 2);
    }

    #[test]
    fn a_missing_a_different_or_a_pending_case_fails_loudly() {
        let (_dir, db) = db_with(&[
            (1, "warn", "u1", "settled"),
            (2, "warn", "u2", "pending"),
            (4, "warn", "u4", "settled"),
        ]);
        for (acked, needle) in [
            (
                ack(3, "warn", "u3"),
                "case 3 (warn of u3) was acknowledged but is not in the database",
            ),
            (
                ack(1, "ban", "u1"),
                "acknowledged as a ban of u1 but the database has a settled warn of u1",
            ),
            (
                ack(2, "warn", "u2"),
                "the database has a pending warn of u2",
            ),
        ] {
            let err = check(&db, &[ack(4, "warn", "u4"), acked])
                .unwrap_err()
                .to_string();
            assert!(err.contains("DURABILITY CHECK FAILED: 1 of 2"), "{err}");
            assert!(err.contains(needle), "{err}");
        }
    }

    #[test]
    fn one_case_acknowledged_twice_fails() {
        let (_dir, db) = db_with(&[(1, "warn", "u1", "settled")]);
        let err = check(&db, &[ack(1, "warn", "u1"), ack(1, "warn", "u1")]).unwrap_err();
        assert!(err.to_string().contains("acknowledged twice"), "{err}");
    }
}
