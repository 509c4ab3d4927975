//! The joins of each server in a sliding minute: pure, the time handed in
//! by the caller (from its [`crate::clock::Clock`]), so a table of joins
//! and times says when a raid crosses the limit.

use std::collections::{HashMap, VecDeque};

use jiff::{SignedDuration, Timestamp};

/// How far back joins are counted.
pub const WINDOW: SignedDuration = SignedDuration::from_secs(60);

/// The latest joins of each server, at most `limit + 1` kept per server
/// (more are never needed to tell whether the limit is crossed).
#[derive(Debug, Default)]
pub struct JoinWindow {
    servers: HashMap<String, VecDeque<(Timestamp, String)>>,
}

impl JoinWindow {
    /// Counts `member` joining `server` at `now`. When that makes more than
    /// `limit` joins within [`WINDOW`], answers the members of those joins,
    /// oldest first, and starts counting afresh (the lockdown they start
    /// holds the joins after them); else `None`.
    pub fn record(
        &mut self,
        server: &str,
        member: &str,
        now: Timestamp,
        limit: u32,
    ) -> Option<Vec<String>> {
        let joins = self.servers.entry(server.to_owned()).or_default();
        // A clock set back (skew) keeps what it had: `now - at` is then
        // negative, never past the window.
        while joins
            .front()
            .is_some_and(|(at, _)| now.duration_since(*at) >= WINDOW)
        {
            joins.pop_front();
        }
        joins.push_back((now, member.to_owned()));
        let keep = limit as usize + 1;
        while joins.len() > keep {
            joins.pop_front();
        }
        if joins.len() > limit as usize {
            let crossed = joins.drain(..).map(|(_, member)| member).collect();
            self.servers.remove(server);
            return Some(crossed);
        }
        None
    }

    /// Forgets `server`'s joins (a lockdown started by hand).
    pub fn forget(&mut self, server: &str) {
        self.servers.remove(server);
    }

    /// Servers with joins counted (for tests of its bounds).
    pub fn servers(&self) -> usize {
        self.servers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_joins_than_the_limit_within_a_minute_cross_it() {
        let start: Timestamp = "2026-11-27T10:00:00Z".parse().unwrap();
        // (limit, joins as (server, member, seconds after start), the index
        // of the join that crosses, if any, and who it answers).
        type Case = (
            u32,
            &'static [(&'static str, &'static str, i64)],
            Option<(usize, &'static [&'static str])>,
        );
        let cases: &[Case] = &[
            // At the limit: no crossing.
            (3, &[("s", "a", 0), ("s", "b", 1), ("s", "c", 2)], None),
            // One more within the minute crosses, answering all four.
            (
                3,
                &[("s", "a", 0), ("s", "b", 1), ("s", "c", 2), ("s", "d", 59)],
                Some((3, &["a", "b", "c", "d"])),
            ),
            // The first join slid out of the minute: still 3.
            (
                3,
                &[("s", "a", 0), ("s", "b", 1), ("s", "c", 2), ("s", "d", 60)],
                None,
            ),
            // Joins of another server do not count.
            (
                2,
                &[("s", "a", 0), ("t", "b", 1), ("s", "c", 2), ("t", "d", 3)],
                None,
            ),
            // A limit of 1: the second join crosses.
            (1, &[("s", "a", 0), ("s", "b", 30)], Some((1, &["a", "b"]))),
            // After crossing, counting starts afresh.
            (
                1,
                &[("s", "a", 0), ("s", "b", 1), ("s", "c", 2)],
                Some((1, &["a", "b"])),
            ),
            // A clock set back keeps the joins it had.
            (1, &[("s", "a", 10), ("s", "b", 5)], Some((1, &["a", "b"]))),
        ];
        for (limit, joins, want) in cases {
            let mut window = JoinWindow::default();
            let mut got = None;
            for (i, (server, member, at)) in joins.iter().enumerate() {
                let now = start + SignedDuration::from_secs(*at);
                if let Some(crossed) = window.record(server, member, now, *limit)
                    && got.is_none()
                {
                    got = Some((i, crossed));
                }
            }
            let want = want.map(|(i, m)| (i, m.iter().map(|s| s.to_string()).collect()));
            assert_eq!(got, want, "limit {limit}, joins {joins:?}");
        }
    }

    #[test]
    fn it_keeps_no_more_than_it_needs() {
        let start: Timestamp = "2026-11-27T10:00:00Z".parse().unwrap();
        let mut window = JoinWindow::default();
        for i in 0..1000 {
            // One join every two minutes never crosses a limit of 1.
            let now = start + SignedDuration::from_secs(i * 120);
            assert_eq!(window.record("s", "m", now, 1), None);
        }
        assert_eq!(window.servers["s"].len(), 1);
        window.forget("s");
        assert_eq!(window.servers(), 0);
    }
}
