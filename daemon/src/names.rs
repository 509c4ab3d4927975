//! Names beside ids (issue #27): what the platforms call the members,
//! channels and roles the answers name by id.
//!
//! The daemon learns names from the events it receives anyway (the
//! [`NameFeed`] consumer of [`crate::events`]): a message's author (Discord's
//! member nick, else the global name, else the username; Slack's and
//! Telegram's names as given), a member joining or updated (Discord
//! `GUILD_MEMBER_ADD`/`GUILD_MEMBER_UPDATE`: a renamed member's new nick),
//! the channels, roles and members of Discord's `GUILD_CREATE`, and Slack's
//! `user_change` and channel renames ([`EventKind::NamesSeen`]). The newest
//! name seen wins.
//!
//! Reads fill the answers' additive `*_name` fields from the cache
//! ([`NameCache::user`]) and never wait for a platform: a name not known
//! is simply absent. Asking for one the cache lacks (or holds for longer
//! than [`lookup::REFRESH_AGE`]) queues its id for the name lookups
//! ([`lookup`]), a worker that asks the platform within a budget and fills
//! the cache, so a later answer carries it; a lookup the platform answered
//! with "no such member" is remembered for [`lookup::MISS_AGE`], so a
//! departed member is not asked for on every answer.
//!
//! **In memory, bounded, not durable.** The cache holds at most
//! [`PER_SERVER`] names per server and [`TOTAL`] in all, the least recently
//! seen going first. It is not a table: a name is the platform's to keep,
//! and one kept on disk would outlive a rename the daemon did not see (or a
//! member's wish to be forgotten); after a restart the gateway's
//! `GUILD_CREATE` and the next messages bring the names back. It is one
//! daemon's memory, a single-daemon assumption named in
//! [`crate::coordination`].
//!
//! Names are untrusted text. The cache replaces control characters (tabs,
//! line breaks) with spaces and cuts a name at [`MAX_CHARS`], so a name can
//! never break a tab-separated row; the log posts escape what they show per
//! platform as before.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use modctl_types::activity::{CommunityInsights, ModerationInsights};
use modctl_types::live::{LiveEvent, LiveEventKind};
use modctl_types::moderation::{Case, JailRecord, KnownMember, MemberInfo, StrikeSummary};

use crate::clock::Clock;
use crate::events::{Consumer, Event, EventKind, NameKind, NameSeen};

pub mod lookup;

/// The names a server keeps at most; the least recently seen goes first.
pub const PER_SERVER: usize = 5_000;

/// The names kept at most, all servers together.
pub const TOTAL: usize = 100_000;

/// The longest name kept, in characters (Discord's nicks have 32, Slack's
/// display names 80, a Telegram first and last name 64 each).
pub const MAX_CHARS: usize = 100;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "names";

type Key = (NameKind, String);

/// One id whose name is to be asked of its server's platform.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Wanted {
    /// The server (the platform's id of it).
    pub server: Arc<str>,
    /// What the id names: [`NameKind::User`] or [`NameKind::Channel`] (roles
    /// are never looked up: Discord's come with `GUILD_CREATE`, and the other
    /// platforms' roles are not shown by id).
    pub kind: NameKind,
    /// The platform's id.
    pub id: String,
}

/// The names the daemon has seen; cheap to clone (one cache shared).
#[derive(Debug, Clone)]
pub struct NameCache {
    inner: Arc<Mutex<Inner>>,
    per_server: usize,
    total: usize,
}

impl NameCache {
    /// A cache of the default bounds, its entries' ages read from `clock`.
    pub fn new(clock: Clock) -> NameCache {
        NameCache::with_bounds(PER_SERVER, TOTAL, clock)
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// Where the entries' ages come from (always set by the constructors;
    /// [`NameCache::set_clock`] replaces it for every clone at once).
    clock: Option<Clock>,
    /// Counts every write: the larger, the more recently seen.
    tick: u64,
    servers: HashMap<Arc<str>, Server>,
    /// Every entry by when it was last seen: the least recent first.
    order: BTreeMap<u64, (Arc<str>, Key)>,
    /// The ids waiting for a lookup, oldest first, each once.
    queue: VecDeque<Wanted>,
    /// What `queue` holds, to keep it deduplicated.
    queued: HashSet<Wanted>,
    /// Ids the platform did not name (or a lookup failed), and the unix
    /// second from which they may be asked again.
    misses: HashMap<Wanted, i64>,
}

#[derive(Debug, Default)]
struct Server {
    /// Each entry's name, when it was last seen (the tick), and when it was
    /// learned (unix seconds, for [`lookup::REFRESH_AGE`]).
    entries: HashMap<Key, (String, u64, i64)>,
    /// The server's entries by when they were last seen.
    order: BTreeMap<u64, Key>,
}

impl Inner {
    fn now(&self) -> i64 {
        self.clock.as_ref().map_or(0, Clock::now_unix)
    }

    /// Queues `wanted` for a lookup unless it is queued already, or the
    /// queue is full ([`lookup::QUEUE`]: the id is wanted again by a later
    /// answer).
    fn want(&mut self, wanted: Wanted) {
        if self.queue.len() >= lookup::QUEUE || self.queued.contains(&wanted) {
            return;
        }
        self.queued.insert(wanted.clone());
        self.queue.push_back(wanted);
    }

    /// Forgets the entry seen at `tick`.
    fn evict(&mut self, tick: u64) {
        let Some((server, key)) = self.order.remove(&tick) else {
            return;
        };
        if let Some(names) = self.servers.get_mut(&server) {
            names.entries.remove(&key);
            names.order.remove(&tick);
            if names.entries.is_empty() {
                self.servers.remove(&server);
            }
        }
    }
}

/// `name` as kept: control characters (tabs, line breaks) as spaces, cut
/// at [`MAX_CHARS`], trimmed; `None` when nothing is left.
pub fn clean(name: &str) -> Option<String> {
    let cleaned: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_CHARS)
        .collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_owned())
}

impl NameCache {
    /// A cache of at most `per_server` names per server and `total` in all,
    /// its entries' ages read from `clock`.
    pub fn with_bounds(per_server: usize, total: usize, clock: Clock) -> NameCache {
        let cache = NameCache {
            inner: Arc::default(),
            per_server: per_server.max(1),
            total: total.max(1),
        };
        cache.set_clock(clock);
        cache
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves a consistent map (each
        // write is done before the next step): keep using it.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers that `id` of `server` is called `name` now (the newest
    /// name wins); a name that is empty once cleaned is ignored.
    pub fn put(&self, server: &str, kind: NameKind, id: &str, name: &str) {
        let Some(name) = clean(name) else { return };
        if id.is_empty() {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let key: Key = (kind, id.to_owned());
        let seen = inner
            .servers
            .get(server)
            .and_then(|s| s.entries.get(&key))
            .map(|(_, at, _)| *at);
        match seen {
            Some(at) => inner.evict(at),
            None => {
                let full = inner
                    .servers
                    .get(server)
                    .filter(|s| s.entries.len() >= self.per_server)
                    .and_then(|s| s.order.keys().next().copied());
                if let Some(oldest) = full {
                    inner.evict(oldest);
                }
                if inner.order.len() >= self.total
                    && let Some(oldest) = inner.order.keys().next().copied()
                {
                    inner.evict(oldest);
                }
            }
        }
        let server: Arc<str> = match inner.servers.get_key_value(server) {
            Some((known, _)) => known.clone(),
            None => server.into(),
        };
        let now = inner.now();
        inner.misses.remove(&Wanted {
            server: server.clone(),
            kind,
            id: id.to_owned(),
        });
        inner.order.insert(tick, (server.clone(), key.clone()));
        let names = inner.servers.entry(server).or_default();
        names.order.insert(tick, key.clone());
        names.entries.insert(key, (name, tick, now));
    }

    /// Reads entry ages from `clock` (the daemon's; tests set a manual
    /// one), for this cache and every clone of it.
    pub fn set_clock(&self, clock: Clock) {
        self.lock().clock = Some(clock);
    }

    /// The name of `id` of `server`, if one was seen. An answer asks
    /// through here: a member or channel whose name is not known (and not
    /// a remembered miss), or was learned [`lookup::REFRESH_AGE`] ago or
    /// more, is queued for a lookup; the answer does not wait for it.
    pub fn get(&self, server: &str, kind: NameKind, id: &str) -> Option<String> {
        if id.is_empty() {
            return None;
        }
        let mut inner = self.lock();
        let now = inner.now();
        let found = inner
            .servers
            .get(server)
            .and_then(|names| names.entries.get(&(kind, id.to_owned())))
            .map(|(name, _, learned)| (name.clone(), *learned));
        if kind == NameKind::Role {
            return found.map(|(name, _)| name);
        }
        let wanted = Wanted {
            server: server.into(),
            kind,
            id: id.to_owned(),
        };
        let due = match &found {
            Some((_, learned)) => now - learned >= lookup::REFRESH_AGE.as_secs() as i64,
            None => true,
        };
        let held_back = inner.misses.get(&wanted).is_some_and(|from| now < *from);
        if due && !held_back {
            inner.want(wanted);
        }
        found.map(|(name, _)| name)
    }

    /// The member `id`'s name on `server`, if one was seen (queued for a
    /// lookup otherwise, see [`NameCache::get`]).
    pub fn user(&self, server: &str, id: &str) -> Option<String> {
        self.get(server, NameKind::User, id)
    }

    /// Takes every id waiting for a lookup, oldest first.
    pub fn take_wanted(&self) -> Vec<Wanted> {
        let mut inner = self.lock();
        inner.queued.clear();
        inner.queue.drain(..).collect()
    }

    /// Puts back ids taken but not looked up (their server's budget was
    /// spent), ahead of those queued since.
    pub fn put_back(&self, wanted: Vec<Wanted>) {
        let mut inner = self.lock();
        for w in wanted.into_iter().rev() {
            if inner.queued.insert(w.clone()) {
                inner.queue.push_front(w);
            }
        }
        while inner.queue.len() > lookup::QUEUE {
            if let Some(w) = inner.queue.pop_back() {
                inner.queued.remove(&w);
            }
        }
    }

    /// How many ids wait for a lookup.
    pub fn wanted_len(&self) -> usize {
        self.lock().queue.len()
    }

    /// Remembers that asking for `wanted` found no name (or failed): it is
    /// not queued again for `for_secs`. A name already known stays (a
    /// departed member's case still shows who they were) and counts as
    /// checked now. At most [`lookup::MISSES`] are remembered; past that the
    /// expired go first, and if none has, nothing more is remembered (the
    /// budget still bounds the asking).
    pub fn missed(&self, wanted: &Wanted, for_secs: i64) {
        let mut inner = self.lock();
        let now = inner.now();
        let key = (wanted.kind, wanted.id.clone());
        if let Some(entry) = inner
            .servers
            .get_mut(&*wanted.server)
            .and_then(|names| names.entries.get_mut(&key))
        {
            entry.2 = now + for_secs - lookup::REFRESH_AGE.as_secs() as i64;
            return;
        }
        if inner.misses.len() >= lookup::MISSES {
            inner.misses.retain(|_, from| *from > now);
        }
        if inner.misses.len() < lookup::MISSES || inner.misses.contains_key(wanted) {
            inner.misses.insert(wanted.clone(), now + for_secs);
        }
    }

    /// The known members of `server` called `name` (ignoring case and a
    /// leading `@`), by id.
    pub fn users_named(&self, server: &str, name: &str) -> Vec<KnownMember> {
        let wanted = name.trim().trim_start_matches('@').to_lowercase();
        let inner = self.lock();
        let Some(names) = inner.servers.get(server) else {
            return Vec::new();
        };
        let mut found: Vec<KnownMember> = names
            .entries
            .iter()
            .filter(|((kind, _), (name, _, _))| {
                *kind == NameKind::User && name.to_lowercase() == wanted
            })
            .map(|((_, id), (name, _, _))| KnownMember {
                user_id: id.clone(),
                name: name.clone(),
            })
            .collect();
        found.sort_by(|a, b| a.user_id.cmp(&b.user_id));
        found
    }

    /// How many names are kept, all servers together.
    pub fn len(&self) -> usize {
        self.lock().order.len()
    }

    /// Whether no name is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills the cases' `user_name` from what is known of `server`.
    pub fn name_cases(&self, server: &str, cases: &mut [Case]) {
        for case in cases {
            case.user_name = self.user(server, &case.user_id);
        }
    }

    /// Fills the jails' `user_name`.
    pub fn name_jails(&self, server: &str, jails: &mut [JailRecord]) {
        for jail in jails {
            jail.user_name = self.user(server, &jail.user_id);
        }
    }

    /// Fills the names of the community insights' top channels and members.
    pub fn name_community(&self, server: &str, insights: &mut CommunityInsights) {
        let lists = [
            (NameKind::Channel, &mut insights.top_channels_by_messages),
            (NameKind::Channel, &mut insights.top_channels_by_voice),
            (NameKind::User, &mut insights.top_members_by_messages),
            (NameKind::User, &mut insights.top_members_by_voice),
        ];
        for (kind, list) in lists {
            for ranked in list.iter_mut() {
                ranked.name = self.get(server, kind, &ranked.id);
            }
        }
    }

    /// Fills the moderation insights' repeat targets' names (the top
    /// moderators are keys, named from the keys' display names instead).
    pub fn name_moderation(&self, server: &str, insights: &mut ModerationInsights) {
        for ranked in &mut insights.top_repeat_targets {
            ranked.name = self.user(server, &ranked.id);
        }
    }

    /// Fills the members' `name` (`GET /servers/{id}/members/{user_id}`).
    pub fn name_members(&self, server: &str, members: &mut [MemberInfo]) {
        for member in members {
            member.name = self.user(server, &member.user_id);
        }
    }

    /// Fills `user_name` in a stored live event's data where its type has
    /// one: the case of `case_created` and of `case_corrected`, the jail of
    /// `jail_changed` (`Case::user_name`, `JailRecord::user_name`). The
    /// other kinds name no member, or have no field for a name (an automod
    /// hit, as `GET /automod/hits` lists it); `member_joined` carries the
    /// platform's own.
    pub fn name_live_event(&self, event: &mut LiveEvent) {
        let member = match event.kind {
            LiveEventKind::CaseCreated => Some(&mut event.data),
            LiveEventKind::CaseCorrected => event.data.get_mut("case"),
            LiveEventKind::JailChanged => event.data.get_mut("jail"),
            LiveEventKind::AutomodHit
            | LiveEventKind::ConfigChanged
            | LiveEventKind::LockdownStarted
            | LiveEventKind::LockdownEnded
            | LiveEventKind::AntinukeTriggered
            | LiveEventKind::MemberJoined => None,
        };
        let Some(serde_json::Value::Object(member)) = member else {
            return;
        };
        let name = member
            .get("user_id")
            .and_then(serde_json::Value::as_str)
            .and_then(|id| self.user(&event.server_id, id));
        if let Some(name) = name {
            member.insert("user_name".into(), name.into());
        }
    }

    /// Fills the strike summaries' `user_name`.
    pub fn name_strikes(&self, server: &str, strikes: &mut [StrikeSummary]) {
        for strike in strikes {
            strike.user_name = self.user(server, &strike.user_id);
        }
    }
}

/// Tells `names` the members of simulated server `server` as the simulator
/// holds them (`modctld demo` at start: a simulated community sends no
/// `GUILD_CREATE`); how many.
pub async fn learn_simulated(
    store: &crate::store::Store,
    names: &NameCache,
    server: &str,
) -> Result<usize, crate::store::StoreError> {
    let id = server.to_owned();
    let members = store
        .read(move |tx| crate::store::simulator::member_names(tx, &id))
        .await?;
    for (user, name) in &members {
        names.put(server, NameKind::User, user, name);
    }
    Ok(members.len())
}

/// The event consumer that keeps the [`NameCache`] fresh.
#[derive(Debug, Clone)]
pub struct NameFeed {
    names: NameCache,
}

impl NameFeed {
    /// A feed into `names` (the daemon's `AppState::names`).
    pub fn new(names: NameCache) -> NameFeed {
        NameFeed { names }
    }

    /// What `event` says of names.
    pub fn apply(&self, event: &Event) {
        let server = event.server_id.as_ref();
        let user = |id: &str, name: &Option<String>| {
            if let Some(name) = name {
                self.names.put(server, NameKind::User, id, name);
            }
        };
        match &event.kind {
            // A new message's author as shown now. Edits are left out:
            // Discord's `MESSAGE_UPDATE` may come without the member, and a
            // username would then replace the nick.
            EventKind::MessageCreated(message) if !message.author.is_bot => {
                user(&message.author.id, &message.author.display_name);
            }
            EventKind::MemberJoined(joined) => {
                user(&joined.member.id, &joined.member.display_name);
            }
            EventKind::MemberUpdated(update) => {
                user(&update.member.id, &update.member.display_name);
            }
            EventKind::NamesSeen(names) => {
                for NameSeen { kind, id, name } in names {
                    self.names.put(server, *kind, id, name);
                }
            }
            _ => {}
        }
    }
}

#[async_trait]
impl Consumer for NameFeed {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        self.apply(&event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Clock {
        Clock::manual(modctl_types::Timestamp::from_second(1_000_000).unwrap())
    }

    #[test]
    fn names_are_cleaned_of_what_breaks_a_row() {
        for (given, kept) in [
            ("alice", Some("alice")),
            ("  bob  ", Some("bob")),
            ("a\tb\nc\rd", Some("a b c d")),
            ("\t\n", None),
            ("", None),
        ] {
            assert_eq!(clean(given).as_deref(), kept, "{given:?}");
        }
        assert_eq!(clean(&"x".repeat(500)).unwrap().chars().count(), MAX_CHARS);
    }

    #[test]
    fn the_newest_name_wins() {
        let cache = NameCache::new(clock());
        cache.put("s", NameKind::User, "1", "alice");
        cache.put("s", NameKind::User, "1", "Alice R.");
        assert_eq!(cache.user("s", "1").as_deref(), Some("Alice R."));
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.user("other", "1"), None, "names are per server");
        assert_eq!(cache.get("s", NameKind::Channel, "1"), None, "and per kind");
    }

    #[test]
    fn a_server_keeps_its_bound_the_least_recently_seen_going_first() {
        let cache = NameCache::with_bounds(3, 100, clock());
        for id in ["1", "2", "3"] {
            cache.put("s", NameKind::User, id, &format!("u{id}"));
        }
        // Seen again: now the most recent.
        cache.put("s", NameKind::User, "1", "u1");
        cache.put("s", NameKind::User, "4", "u4");
        let kept: Vec<Option<String>> = ["1", "2", "3", "4"]
            .iter()
            .map(|id| cache.user("s", id))
            .collect();
        assert_eq!(
            kept,
            vec![
                Some("u1".into()),
                None,
                Some("u3".into()),
                Some("u4".into())
            ]
        );
        // Another server is not held back by this one's bound.
        cache.put("t", NameKind::User, "1", "t1");
        assert_eq!(cache.len(), 4);
    }

    #[test]
    fn all_servers_together_keep_the_total_bound() {
        let cache = NameCache::with_bounds(10, 4, clock());
        for server in ["a", "b", "c", "d", "e", "f"] {
            cache.put(server, NameKind::Channel, "1", server);
        }
        assert_eq!(cache.len(), 4);
        assert_eq!(cache.get("a", NameKind::Channel, "1"), None);
        assert_eq!(cache.get("b", NameKind::Channel, "1"), None);
        assert_eq!(cache.get("f", NameKind::Channel, "1").as_deref(), Some("f"));
        // A server whose names all went is forgotten with them.
        assert!(!cache.lock().servers.contains_key("a"));
    }

    #[test]
    fn live_events_name_their_case_or_jail_member() {
        let cache = NameCache::new(clock());
        cache.put("s", NameKind::User, "1", "alice");
        let event = |kind, data| LiveEvent {
            id: Some(1),
            kind,
            created_at: "2026-11-27T21:04:05Z".parse().unwrap(),
            server_id: "s".into(),
            data,
        };
        let named = |kind, data| {
            let mut event = event(kind, data);
            cache.name_live_event(&mut event);
            event.data
        };
        let case = serde_json::json!({"id": 3, "user_id": "1"});
        assert_eq!(
            named(LiveEventKind::CaseCreated, case.clone())["user_name"],
            "alice"
        );
        let jail = serde_json::json!({"change": "started", "jail": {"user_id": "1"}});
        assert_eq!(
            named(LiveEventKind::JailChanged, jail)["jail"]["user_name"],
            "alice"
        );
        let corrected = serde_json::json!({"user_id": "1", "case": case});
        assert_eq!(
            named(LiveEventKind::CaseCorrected, corrected)["case"]["user_name"],
            "alice"
        );
        // No name known, or no field for one: as stored.
        let unknown = serde_json::json!({"id": 4, "user_id": "2"});
        assert_eq!(named(LiveEventKind::CaseCreated, unknown.clone()), unknown);
        let hit = serde_json::json!({"id": 5, "user_id": "1"});
        assert_eq!(named(LiveEventKind::AutomodHit, hit.clone()), hit);
    }

    #[test]
    fn members_are_found_by_name_ignoring_case_and_the_at() {
        let cache = NameCache::new(clock());
        cache.put("s", NameKind::User, "2", "Alice");
        cache.put("s", NameKind::User, "1", "alice");
        cache.put("s", NameKind::User, "3", "bob");
        cache.put("s", NameKind::Role, "4", "alice");
        let ids = |name: &str| -> Vec<String> {
            cache
                .users_named("s", name)
                .into_iter()
                .map(|m| m.user_id)
                .collect()
        };
        assert_eq!(ids("@ALICE"), vec!["1", "2"]);
        assert_eq!(ids("bob"), vec!["3"]);
        assert_eq!(ids("bo"), Vec::<String>::new());
        assert!(cache.users_named("t", "bob").is_empty());
    }
}
