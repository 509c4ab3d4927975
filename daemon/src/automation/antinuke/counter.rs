//! The counts (issue #26): destructive entries per (server, executor, kind)
//! in a sliding minute, and the incidents they open. Pure: the time is the
//! caller's (from its `Clock`), nothing is asked of a platform or the store.
//!
//! # Which entry acts
//!
//! A limit is how many a minute are allowed ("Channel deletions per member
//! per minute before acting"): the entry that takes the count *above* it,
//! the (limit + 1)-th within 60 seconds, opens the incident and acts. The
//! audit entry arrives once the deletion is done, so a nuke gets the limit
//! plus that one plus whatever it had in flight (`modctl-bench
//! antinuke-latency` counts them).
//!
//! # One incident acts once
//!
//! Once an executor's incident is open, their later entries (a nuke keeps
//! going while the punishment is on its way) are added to it as evidence
//! and act no more, until a minute passes without one. An immediate trigger
//! (a webhook, a bot added, a dangerous permission granted) opens an
//! incident the same way.

use std::collections::{HashMap, VecDeque};

use modctl_types::config::Antinuke;

/// The sliding window.
pub const WINDOW_MS: i64 = 60_000;

/// What is counted, each against its own limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Channel deletions (Slack: deletions and archives).
    ChannelDeletions,
    /// Role deletions.
    RoleDeletions,
    /// Bans, kicks and prunes.
    Bans,
}

impl Kind {
    /// Its limit in `config`.
    pub fn limit(self, config: &Antinuke) -> u32 {
        match self {
            Kind::ChannelDeletions => config.max_channel_deletions_per_minute,
            Kind::RoleDeletions => config.max_role_deletions_per_minute,
            Kind::Bans => config.max_bans_per_minute,
        }
    }

    /// How it is named in cases and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ChannelDeletions => "channel deletions",
            Kind::RoleDeletions => "role deletions",
            Kind::Bans => "bans",
        }
    }
}

/// What counting one entry decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Within the limit: `count` in the window now.
    Below {
        /// Entries of this kind by this executor in the last minute.
        count: usize,
    },
    /// This entry took the count above the limit: an incident opens, with
    /// these entries (oldest first, this one last) as its evidence.
    Crossed {
        /// The counted entries' ids.
        entries: Vec<String>,
        /// When the first of them came (ms).
        since_ms: i64,
    },
    /// The executor's incident is open already: added to it, no new act.
    InIncident,
    /// This entry was counted already (a redelivery).
    Seen,
}

/// One executor's open incident.
#[derive(Debug, Clone)]
struct Incident {
    /// The last entry's time: the incident closes a window after it.
    last_ms: i64,
}

type Key = (String, String);

/// The counts and incidents of every server.
#[derive(Debug, Default)]
pub struct Counter {
    windows: HashMap<(Key, Kind), VecDeque<(i64, String)>>,
    incidents: HashMap<Key, Incident>,
}

impl Counter {
    /// Counts entry `entry` of `kind` by `executor` on `server` at `now_ms`
    /// against `limit`.
    pub fn count(
        &mut self,
        server: &str,
        executor: &str,
        kind: Kind,
        entry: &str,
        limit: u32,
        now_ms: i64,
    ) -> Verdict {
        let key = (server.to_owned(), executor.to_owned());
        let window = self.windows.entry((key.clone(), kind)).or_default();
        while window
            .front()
            .is_some_and(|(at, _)| now_ms - *at >= WINDOW_MS)
        {
            window.pop_front();
        }
        if window.iter().any(|(_, id)| id == entry) {
            return Verdict::Seen;
        }
        window.push_back((now_ms, entry.to_owned()));
        if let Some(incident) = self.incidents.get_mut(&key) {
            if now_ms - incident.last_ms < WINDOW_MS {
                incident.last_ms = now_ms;
                return Verdict::InIncident;
            }
            self.incidents.remove(&key);
        }
        if window.len() > limit as usize {
            let entries = window.iter().map(|(_, id)| id.clone()).collect();
            let since_ms = window.front().map_or(now_ms, |(at, _)| *at);
            self.incidents.insert(key, Incident { last_ms: now_ms });
            Verdict::Crossed { entries, since_ms }
        } else {
            Verdict::Below {
                count: window.len(),
            }
        }
    }

    /// Opens an incident for `executor` on `server` at `now_ms` (an
    /// immediate trigger): whether it is new (`false`: one is open, this
    /// entry joins it).
    pub fn open(&mut self, server: &str, executor: &str, now_ms: i64) -> bool {
        let key = (server.to_owned(), executor.to_owned());
        match self.incidents.get_mut(&key) {
            Some(incident) if now_ms - incident.last_ms < WINDOW_MS => {
                incident.last_ms = now_ms;
                false
            }
            _ => {
                self.incidents.insert(key, Incident { last_ms: now_ms });
                true
            }
        }
    }

    /// Closes `executor`'s incident on `server` (they turned out to be
    /// exempt: the owner, the bot, trusted) and forgets their counts, so
    /// their next entries are not held against them.
    pub fn close(&mut self, server: &str, executor: &str) {
        let key = (server.to_owned(), executor.to_owned());
        self.incidents.remove(&key);
        self.windows.retain(|(k, _), _| *k != key);
    }

    /// Ends `executor`'s incident on `server` without acting on it (the
    /// guild's roles could not be read, or the punishment failed) but keeps
    /// their counts: their next entry, still above the limit, crosses it
    /// again and is acted on, instead of joining an incident nobody acts on.
    pub fn release(&mut self, server: &str, executor: &str) {
        self.incidents
            .remove(&(server.to_owned(), executor.to_owned()));
    }

    /// Forgets windows and incidents idle for a window at `now_ms`, so the
    /// counter stays as small as the servers' last minute.
    pub fn prune(&mut self, now_ms: i64) {
        self.windows
            .retain(|_, w| w.back().is_some_and(|(at, _)| now_ms - *at < WINDOW_MS));
        self.incidents.retain(|_, i| now_ms - i.last_ms < WINDOW_MS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (entry, at ms, expected) for one executor's channel deletions
    /// against a limit of 2.
    #[test]
    fn the_entry_above_the_limit_opens_one_incident_in_a_sliding_minute() {
        use Verdict::*;
        let crossed = |ids: &[&str], since_ms| Crossed {
            entries: ids.iter().map(|s| (*s).to_owned()).collect(),
            since_ms,
        };
        let table: Vec<(&str, i64, Verdict)> = vec![
            ("a", 0, Below { count: 1 }),
            ("a", 10, Seen),
            ("b", 1_000, Below { count: 2 }),
            // `a` left the window: still two.
            ("c", 60_000, Below { count: 2 }),
            ("d", 60_500, crossed(&["b", "c", "d"], 1_000)),
            ("e", 61_000, InIncident),
            ("f", 100_000, InIncident),
            // A minute after the incident's last entry it is closed, and
            // the window (g alone: f at 100 000 is 60 s old) counts anew.
            ("g", 160_000, Below { count: 1 }),
        ];
        let mut counter = Counter::default();
        for (entry, at, expected) in table {
            let got = counter.count("s", "x", Kind::ChannelDeletions, entry, 2, at);
            assert_eq!(got, expected, "entry {entry} at {at}");
        }
    }

    #[test]
    fn kinds_executors_and_servers_are_counted_apart() {
        let mut counter = Counter::default();
        let cases = [
            ("s", "x", Kind::RoleDeletions),
            ("s", "x", Kind::Bans),
            ("s", "y", Kind::RoleDeletions),
            ("t", "x", Kind::RoleDeletions),
        ];
        for (n, (server, executor, kind)) in cases.into_iter().enumerate() {
            let verdict = counter.count(server, executor, kind, &n.to_string(), 1, 0);
            assert_eq!(
                verdict,
                Verdict::Below { count: 1 },
                "{server} {executor} {kind:?}"
            );
        }
        // An open incident holds every kind of that executor.
        assert_eq!(
            counter.count("s", "x", Kind::Bans, "b2", 1, 5),
            Verdict::Crossed {
                entries: vec!["1".into(), "b2".into()],
                since_ms: 0,
            }
        );
        assert_eq!(
            counter.count("s", "x", Kind::RoleDeletions, "r2", 1, 6),
            Verdict::InIncident
        );
    }

    #[test]
    fn immediate_triggers_open_once_and_closing_forgets() {
        let mut counter = Counter::default();
        assert!(counter.open("s", "x", 0));
        assert!(!counter.open("s", "x", 30_000));
        assert!(counter.open("s", "x", 90_000), "a minute after the last");
        counter.close("s", "x");
        assert!(counter.open("s", "x", 90_001));
        counter.close("s", "x");
        assert_eq!(
            counter.count("s", "x", Kind::Bans, "1", 1, 0),
            Verdict::Below { count: 1 }
        );
        counter.prune(WINDOW_MS);
        assert!(counter.windows.is_empty() && counter.incidents.is_empty());
    }

    #[test]
    fn a_released_incident_is_crossed_again_by_the_next_entry() {
        let mut counter = Counter::default();
        assert_eq!(
            counter.count("s", "x", Kind::Bans, "1", 1, 0),
            Verdict::Below { count: 1 }
        );
        assert!(matches!(
            counter.count("s", "x", Kind::Bans, "2", 1, 10),
            Verdict::Crossed { .. }
        ));
        assert_eq!(
            counter.count("s", "x", Kind::Bans, "3", 1, 20),
            Verdict::InIncident
        );
        counter.release("s", "x");
        assert_eq!(
            counter.count("s", "x", Kind::Bans, "4", 1, 30),
            Verdict::Crossed {
                entries: ["1", "2", "3", "4"].map(String::from).to_vec(),
                since_ms: 0,
            }
        );
        counter.release("s", "x");
        assert!(
            counter.open("s", "x", 40),
            "an immediate trigger acts again"
        );
    }
}
