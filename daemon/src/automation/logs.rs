//! The log channels as a consumer of the event path ([`crate::events`]):
//! messages deleted and edited, members joining and leaving, each written
//! to the log outbox for its `logging.*` channel ([`crate::logs`], which
//! posts it), read from the in-memory config ([`super::live::LiveConfig`]):
//! no store read per event.
//!
//! A deleted message is logged with what it said when the daemon saw it:
//! the consumer keeps the messages it sees created or edited in a bounded
//! cache with a time to live ([`MessageCache`]), only for servers that log
//! deletions or edits; a message it never saw (before the daemon started,
//! evicted, expired, or without its text: Discord without the
//! message-content intent) is logged as "content unknown". Its age is
//! counted on the daemon's [`Clock`] (the wiring's), not a monotonic
//! timer, so tests move it past [`CACHE_TTL`].
//!
//! One small write per logged event: a deletion or an edit is a member's
//! act, far rarer than messages (which cost no write here), and each write
//! is one appended row on the writer thread; batching them would hold an
//! event in memory, where a crash loses it. A redelivered event may be
//! logged once: the ids of the last [`RECENT_EVENTS`] events logged are
//! remembered (a restart forgets them; log posts are at least once).
//!
//! The automod consumer logs its hits itself, in the transaction that
//! records what became of the message ([`crate::logs::automod_hit`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use async_trait::async_trait;
use jiff::{SignedDuration, Timestamp};
use modctl_types::config::Logging;

use super::live::LiveConfig;
use crate::clock::Clock;
use crate::events::{Consumer, Event, EventKind, Membership};
use crate::logs::{LogEntry, Member, event_channel};
use crate::store::Store;
use crate::sync::lock;

/// The consumer's name, in the drop counts.
pub const NAME: &str = "logs";

/// Messages the cache holds at most (the oldest go first).
pub const CACHE_MESSAGES: usize = 20_000;
/// Characters of message text the cache holds at most (about 4 bytes a
/// character at worst: 32 MiB).
pub const CACHE_CHARS: usize = 8 * 1024 * 1024;
/// Logged events whose platform id is remembered, so a redelivery (Slack
/// sends an event again when it got no answer in time) is not logged twice.
pub const RECENT_EVENTS: usize = 10_000;
/// How long a message's text is kept after it was seen.
pub const CACHE_TTL: Duration = Duration::from_secs(6 * 3600);

/// The consumer.
#[derive(Debug)]
pub struct LogEvents {
    store: Store,
    wiring: RwLock<Wiring>,
    cache: Mutex<MessageCache>,
    recent: Mutex<Recent>,
}

/// The ids of the latest events logged, oldest first, at most `max`.
#[derive(Debug, Default)]
pub struct Recent {
    max: usize,
    ids: std::collections::HashSet<(String, String)>,
    order: VecDeque<(String, String)>,
}

impl Recent {
    /// Remembers none yet; at most `max`.
    pub fn new(max: usize) -> Recent {
        Recent {
            max,
            ..Recent::default()
        }
    }

    /// Whether event `id` of `server` is new: remembered now if so.
    pub fn first_time(&mut self, server: &str, id: &str) -> bool {
        let key = (server.to_owned(), id.to_owned());
        if !self.ids.insert(key.clone()) {
            return false;
        }
        self.order.push_back(key);
        while self.order.len() > self.max {
            if let Some(old) = self.order.pop_front() {
                self.ids.remove(&old);
            }
        }
        true
    }
}

/// The clock and the config cache, replaced together when a test sets its
/// clock after the consumer was made.
#[derive(Debug, Clone)]
struct Wiring {
    clock: Clock,
    live: LiveConfig,
}

impl LogEvents {
    /// A consumer writing to `store`, reading configs from `live` and the
    /// time from `clock`.
    pub fn new(store: Store, live: LiveConfig, clock: Clock) -> Arc<LogEvents> {
        Arc::new(LogEvents {
            store,
            wiring: RwLock::new(Wiring { clock, live }),
            cache: Mutex::new(MessageCache::new(CACHE_MESSAGES, CACHE_CHARS, CACHE_TTL)),
            recent: Mutex::new(Recent::new(RECENT_EVENTS)),
        })
    }

    /// Uses `clock` and `live` from now on.
    pub fn rewire(&self, clock: Clock, live: LiveConfig) {
        *self.wiring.write().expect("wiring lock") = Wiring { clock, live };
    }

    fn wiring(&self) -> Wiring {
        self.wiring.read().expect("wiring lock").clone()
    }
}

/// Whether a server's logging wants the messages' text kept.
fn keeps_messages(logging: &Logging) -> bool {
    logging.message_delete.is_some() || logging.message_edit.is_some()
}

fn member(membership: &Membership) -> Member {
    Member {
        user_id: membership.member.id.clone(),
        display_name: membership.member.display_name.clone(),
        is_bot: membership.member.is_bot,
        channel_id: membership.channel_id.clone(),
    }
}

#[async_trait]
impl Consumer for LogEvents {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let wiring = self.wiring();
        let config = match wiring.live.get(&event.server_id).await {
            Ok(config) => config,
            Err(e) => {
                tracing::warn!(server = %event.server_id, error = %e, "log channels: cannot read the config; event not logged");
                return;
            }
        };
        let logging = &config.sections.logging;
        let server = event.server_id.as_ref();
        // The daemon's clock, not a monotonic one: tests move it past the
        // cache's time to live.
        let now = wiring.clock.now();
        let entry = match event.kind {
            EventKind::MessageCreated(message) => {
                if keeps_messages(logging)
                    && let Some(content) = message.content
                {
                    lock(&self.cache).put(
                        key(server, &message.channel_id, &message.id),
                        message.author.id,
                        content,
                        now,
                    );
                }
                return;
            }
            EventKind::MessageEdited(message) => {
                let key = key(server, &message.channel_id, &message.id);
                let before = if keeps_messages(logging) {
                    let mut cache = lock(&self.cache);
                    let before = cache.get(&key, now).map(|seen| seen.content.clone());
                    if let Some(content) = &message.content {
                        cache.put(key, message.author.id.clone(), content.clone(), now);
                    }
                    before
                } else {
                    None
                };
                if before == message.content {
                    // The text did not change (Discord's own updates,
                    // without `edited_timestamp`, are dropped by its
                    // decoder; another platform may still send one): not
                    // an edit of the text; nor is an update whose text is
                    // unknown both before and after (Discord without the
                    // message-content intent), "unknown -> unknown".
                    return;
                }
                LogEntry::MessageEdited {
                    channel_id: message.channel_id,
                    message_id: message.id,
                    author_id: message.author.id,
                    before,
                    after: message.content,
                }
            }
            EventKind::MessageDeleted {
                channel_id,
                message_id,
            } => {
                let seen = lock(&self.cache).take(&key(server, &channel_id, &message_id), now);
                LogEntry::MessageDeleted {
                    channel_id,
                    message_id,
                    author_id: seen.as_ref().map(|s| s.author_id.clone()),
                    content: seen.map(|s| s.content),
                }
            }
            EventKind::MemberJoined(joined) => LogEntry::MemberJoined(member(&joined)),
            EventKind::MemberLeft(left) => LogEntry::MemberLeft(member(&left)),
            _ => return,
        };
        let Some(channel) = event_channel(logging, &entry).map(str::to_owned) else {
            return;
        };
        if let Some(id) = &event.id
            && !lock(&self.recent).first_time(server, id)
        {
            return;
        }
        let (server, at) = (server.to_owned(), wiring.clock.now_unix());
        let written = self
            .store
            .write(move |tx| crate::logs::write(tx, &server, &channel, &entry, at))
            .await;
        if let Err(e) = written {
            tracing::warn!(server = %event.server_id, error = %e, "log channels: event not logged");
        }
    }
}

/// A message's cache key: server, channel, message id.
type Key = (String, String, String);

fn key(server: &str, channel: &str, message: &str) -> Key {
    (server.to_owned(), channel.to_owned(), message.to_owned())
}

/// A message as the daemon saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Its author.
    pub author_id: String,
    /// Its text.
    pub content: String,
    at: Timestamp,
}

/// The messages the daemon saw lately, bounded in count and characters,
/// each kept at most a time to live. Pure: the time is a parameter.
#[derive(Debug)]
pub struct MessageCache {
    max_messages: usize,
    max_chars: usize,
    ttl: SignedDuration,
    chars: usize,
    seen: HashMap<Key, Seen>,
    /// Keys in the order put, oldest first (a key put again appears twice;
    /// the older place is skipped when it comes up).
    order: VecDeque<(Key, Timestamp)>,
}

impl MessageCache {
    /// An empty cache.
    pub fn new(max_messages: usize, max_chars: usize, ttl: Duration) -> MessageCache {
        MessageCache {
            max_messages,
            max_chars,
            ttl: SignedDuration::try_from(ttl).unwrap_or(SignedDuration::MAX),
            chars: 0,
            seen: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// Keeps `content` as message `key`'s, seen at `now`.
    pub fn put(&mut self, key: Key, author_id: String, content: String, now: Timestamp) {
        self.remove(&key);
        self.chars += content.chars().count();
        self.order.push_back((key.clone(), now));
        self.seen.insert(
            key,
            Seen {
                author_id,
                content,
                at: now,
            },
        );
        self.evict(now);
    }

    /// Message `key` as seen, unless it was never seen or is gone.
    pub fn get(&mut self, key: &Key, now: Timestamp) -> Option<&Seen> {
        self.evict(now);
        self.seen.get(key)
    }

    /// Message `key` as seen, forgotten (it was deleted).
    pub fn take(&mut self, key: &Key, now: Timestamp) -> Option<Seen> {
        self.evict(now);
        self.remove(key)
    }

    /// Messages held.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    fn remove(&mut self, key: &Key) -> Option<Seen> {
        let seen = self.seen.remove(key)?;
        self.chars -= seen.content.chars().count();
        Some(seen)
    }

    /// Drops what expired and, oldest first, what is over the bounds.
    fn evict(&mut self, now: Timestamp) {
        while let Some((key, at)) = self.order.front() {
            let current = self.seen.get(key).is_some_and(|s| s.at == *at);
            let over = self.seen.len() > self.max_messages || self.chars > self.max_chars;
            // A clock set back (skew) makes nothing expire early.
            let expired = now.duration_since(*at) > self.ttl;
            if current && !over && !expired {
                break;
            }
            let (key, _) = self.order.pop_front().expect("a front");
            if current {
                self.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(id: &str) -> Key {
        key("s", "c", id)
    }

    /// Max messages, max characters, (id, text, seconds after start) put,
    /// the id looked up, when, and the text wanted.
    type Case = (
        usize,
        usize,
        &'static [(&'static str, &'static str, u64)],
        &'static str,
        u64,
        Option<&'static str>,
    );

    #[test]
    fn the_cache_keeps_within_its_bounds_and_time() {
        let start: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let s = |n: u64| SignedDuration::from_secs(n as i64);
        // (messages put: id, text, seconds after start), looked up at, want.
        let cases: Vec<Case> = vec![
            (10, 100, &[("1", "hi", 0)], "1", 5, Some("hi")),
            // Expired after the TTL (60 s here).
            (10, 100, &[("1", "hi", 0)], "1", 61, None),
            // The oldest goes when over the count.
            (
                2,
                100,
                &[("1", "a", 0), ("2", "b", 1), ("3", "c", 2)],
                "1",
                3,
                None,
            ),
            (
                2,
                100,
                &[("1", "a", 0), ("2", "b", 1), ("3", "c", 2)],
                "2",
                3,
                Some("b"),
            ),
            // ... or over the characters.
            (10, 5, &[("1", "aaa", 0), ("2", "bbb", 1)], "1", 2, None),
            (
                10,
                5,
                &[("1", "aaa", 0), ("2", "bbb", 1)],
                "2",
                2,
                Some("bbb"),
            ),
            // Put again (an edit): the new text, its time renewed.
            (
                10,
                100,
                &[("1", "old", 0), ("2", "x", 1), ("1", "new", 50)],
                "1",
                100,
                Some("new"),
            ),
        ];
        for (max, chars, puts, look, at, want) in cases {
            let mut cache = MessageCache::new(max, chars, Duration::from_secs(60));
            for (id, text, when) in puts {
                cache.put(k(id), "u".into(), (*text).into(), start + s(*when));
            }
            let got = cache
                .get(&k(look), start + s(at))
                .map(|s| s.content.as_str());
            assert_eq!(got, want, "{puts:?} then {look} at {at}");
            assert!(cache.len() <= max);
        }
    }

    #[test]
    fn a_redelivered_event_is_new_once_until_forgotten() {
        let mut recent = Recent::new(2);
        for (server, id, new) in [
            ("s", "e1", true),
            ("s", "e1", false),
            ("t", "e1", true),
            ("s", "e2", true),
            // Only the latest two are remembered: e1 of s was forgotten.
            ("s", "e1", true),
            ("s", "e2", false),
        ] {
            assert_eq!(recent.first_time(server, id), new, "{server} {id}");
        }
    }

    #[test]
    fn a_deleted_message_is_taken_once() {
        let now: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let mut cache = MessageCache::new(10, 100, Duration::from_secs(60));
        cache.put(k("1"), "u1".into(), "hello".into(), now);
        let seen = cache.take(&k("1"), now).unwrap();
        assert_eq!(
            (seen.author_id.as_str(), seen.content.as_str()),
            ("u1", "hello")
        );
        assert!(cache.take(&k("1"), now).is_none());
        assert!(cache.is_empty());
        assert_eq!(cache.chars, 0);
    }
}
