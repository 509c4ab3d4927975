//! `welcome` as a consumer of the event path (issue #26): a member who
//! joins a server is greeted with `welcome.message` and given
//! `welcome.auto_role_ids`, each platform as [`behaviour`] says.
//!
//! What it reads per event: the config from memory
//! ([`super::live::LiveConfig`]); only a join it greets costs one store
//! read more, for the server's name and connection (joins are rare beside
//! messages, and a server with `welcome` off costs nothing).
//!
//! # Once per join
//!
//! A join redelivered (Slack retries an event it got no answer to in time,
//! with the same `event_id`; a resumed Discord session replays what the
//! client missed, and Discord's joins carry no id at all) must not greet
//! twice. The consumer remembers whom it greeted on which server for
//! [`REGREET_AFTER`] ([`Greeted`], in memory, bounded): a join of the same
//! member to the same server within that time is not greeted again, be it
//! a redelivery or the member leaving and coming back (which also keeps a
//! member from pinging themselves by rejoining). The guard is the
//! greeting's only: a member who comes back within the time still gets the
//! auto-roles (or is awaited through screening again), since leaving took
//! them; a redelivery gives roles held, which changes nothing. Memory is enough: the
//! event path never replays old joins after a restart (a new gateway
//! session replays nothing, the Telegram poller keeps its offset, a Slack
//! event answered is not sent again), so a restart cannot greet members
//! who joined long ago. A Slack retry of a join that arrives after a
//! restart, within Slack's retries (minutes), may greet a second time.
//!
//! # Membership screening (Discord)
//!
//! A member who joins a guild with membership screening is `pending` until
//! they pass it, and cannot talk; they are greeted at the join, and the
//! auto-roles wait for the `GUILD_MEMBER_UPDATE` that shows `pending:
//! false` (discord-docs/guild.mdx, "Membership Screening Object"). Whom
//! the consumer waits for is kept in memory ([`Awaiting`], bounded): the
//! update is acted on once, so the updates the daemon's own role changes
//! cause, or any later one, give nothing. A member awaited who leaves
//! (`MemberLeft`) is awaited no more, nor one who joins again not pending
//! (given the roles at that join). A restart while a member is
//! still pending forgets them (they get no auto-roles: documented in
//! docs/api.md).
//!
//! # Acting
//!
//! The decisions are taken in the consumer, in the events' order, from
//! memory; the store read and the platform calls run in tasks of their own
//! (at most [`MAX_WELCOMING`], tracked as in-flight work), so a flood of
//! joins does not fill the consumer's queue behind slow greetings. A raid
//! lockdown's joiners are left alone (neither greeted nor given roles).
//!
//! Nothing here fires for the bot's own doings: bots joining (the daemon's
//! own bot included) are neither greeted nor given roles, and the member
//! updates its own role grants cause are not screenings passed.

pub mod behaviour;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use async_trait::async_trait;
use jiff::{SignedDuration, Timestamp};
use modctl_types::config::Welcome;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::automod::act::spawn_bounded;
use super::live::LiveConfig;
use crate::clock::Clock;
use crate::events::{Consumer, Event, EventKind, MemberRef};
use crate::platform::greeting::Greeting;
use crate::platform::{self, Bot, PlatformClients};
use crate::store::{Store, StoreError, connections, servers};
use crate::sync::lock;

pub use behaviour::{Given, give_auto_roles};

/// The consumer's name, in the drop counts.
pub const NAME: &str = "welcome";

/// How long a member greeted on a server is not greeted there again.
pub const REGREET_AFTER: Duration = Duration::from_secs(10 * 60);
/// Greetings remembered at most (the oldest forgotten first).
pub const GREETED_MAX: usize = 20_000;
/// Joins (or screenings passed) acted on at once, each a store read and
/// a few platform calls.
pub const MAX_WELCOMING: usize = 16;
/// Members awaiting screening remembered at most (the oldest forgotten
/// first: they get no auto-roles).
pub const AWAITING_MAX: usize = 20_000;

/// Whom the consumer greeted lately, per server; pure (the time is a
/// parameter).
#[derive(Debug)]
pub struct Greeted {
    within: SignedDuration,
    max: usize,
    at: HashMap<(String, String), Timestamp>,
    order: VecDeque<((String, String), Timestamp)>,
}

impl Greeted {
    /// Remembers none yet; each greeting for `within`, at most `max`.
    pub fn new(within: Duration, max: usize) -> Greeted {
        Greeted {
            within: SignedDuration::try_from(within).unwrap_or(SignedDuration::MAX),
            max,
            at: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// Whether `member` of `server` is to be greeted at `now` (not greeted
    /// within the time): remembered as greeted now if so.
    pub fn first_time(&mut self, server: &str, member: &str, now: Timestamp) -> bool {
        // What expired goes first (a clock set back expires nothing).
        while let Some((_, at)) = self.order.front() {
            if now.duration_since(*at) < self.within {
                break;
            }
            self.forget_oldest();
        }
        let key = (server.to_owned(), member.to_owned());
        if let Some(at) = self.at.get(&key)
            && now.duration_since(*at) < self.within
        {
            return false;
        }
        self.at.insert(key.clone(), now);
        self.order.push_back((key, now));
        while self.order.len() > self.max {
            self.forget_oldest();
        }
        true
    }

    /// Drops the oldest place in the order, and its greeting unless the
    /// member was greeted again since.
    fn forget_oldest(&mut self) {
        if let Some((key, at)) = self.order.pop_front()
            && self.at.get(&key) == Some(&at)
        {
            self.at.remove(&key);
        }
    }
}

/// Members greeted who still have membership screening to pass, per
/// server, oldest first, at most `max`.
#[derive(Debug)]
pub struct Awaiting {
    max: usize,
    members: HashSet<(String, String)>,
    order: VecDeque<(String, String)>,
}

impl Awaiting {
    /// None yet; at most `max`.
    pub fn new(max: usize) -> Awaiting {
        Awaiting {
            max,
            members: HashSet::new(),
            order: VecDeque::new(),
        }
    }

    /// Waits for `member` of `server` to pass screening.
    pub fn wait_for(&mut self, server: &str, member: &str) {
        let key = (server.to_owned(), member.to_owned());
        if self.members.insert(key.clone()) {
            self.order.push_back(key);
        }
        while self.order.len() > self.max {
            if let Some(old) = self.order.pop_front() {
                self.members.remove(&old);
            }
        }
    }

    /// Whether `member` of `server` was awaited: no longer, if so.
    pub fn passed(&mut self, server: &str, member: &str) -> bool {
        let key = (server.to_owned(), member.to_owned());
        if !self.members.remove(&key) {
            return false;
        }
        self.order.retain(|k| *k != key);
        true
    }
}

/// The consumer's parts: the daemon's, bound when it starts serving.
#[derive(Debug, Clone)]
pub struct Welcoming {
    /// The configs in memory.
    pub live: LiveConfig,
    /// The store (the server's name and connection).
    pub store: Store,
    /// The platforms' clients.
    pub platforms: PlatformClients,
    /// The daemon's clock.
    pub clock: Clock,
    /// Whether a raid lockdown runs (its joiners are left alone).
    pub lockdown: crate::automation::lockdown::Context,
    /// The daemon's in-flight work: greetings and role grants are part of
    /// it.
    pub in_flight: TaskTracker,
    /// Cancelled at the shutdown deadline: the work stops where it is.
    pub abandon: CancellationToken,
}

/// The welcome consumer as the event path holds it from the start, bound
/// to the daemon's final parts when it starts serving ([`Slot::bind`]), as
/// automod's is (the state is built in steps; the clock and platform
/// settings are those the daemon runs with). Events before that are not
/// acted on (no transport runs before it).
#[derive(Debug, Clone)]
pub struct Slot {
    parts: Arc<OnceLock<Welcoming>>,
    greeted: Arc<Mutex<Greeted>>,
    awaiting: Arc<Mutex<Awaiting>>,
    permits: Arc<Semaphore>,
}

impl Default for Slot {
    fn default() -> Slot {
        Slot {
            parts: Arc::default(),
            greeted: Arc::new(Mutex::new(Greeted::new(REGREET_AFTER, GREETED_MAX))),
            awaiting: Arc::new(Mutex::new(Awaiting::new(AWAITING_MAX))),
            permits: Arc::new(Semaphore::new(MAX_WELCOMING)),
        }
    }
}

impl Slot {
    /// Binds the consumer to `parts`; later calls change nothing.
    pub fn bind(&self, parts: Welcoming) {
        let _ = self.parts.set(parts);
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let Some(parts) = self.parts.get() else {
            return;
        };
        match &event.kind {
            EventKind::MemberJoined(joined) => {
                let join = behaviour::Join {
                    is_bot: joined.member.is_bot,
                    channel_only: joined.channel_id.is_some(),
                    pending: joined.pending,
                };
                self.joined(parts, &event, &joined.member, join).await;
            }
            EventKind::MemberUpdated(update)
                if !update.pending
                    && lock(&self.awaiting).passed(&event.server_id, &update.member.id) =>
            {
                self.screened(parts, &event, &update.member.id, &update.role_ids)
                    .await;
            }
            // A member awaited who left is no longer: a rejoin starts anew.
            EventKind::MemberLeft(left) if left.channel_id.is_none() => {
                lock(&self.awaiting).passed(&event.server_id, &left.member.id);
            }
            _ => {}
        }
    }
}

impl Slot {
    /// A member joined: greeted, and given the auto-roles now or later.
    /// What decides is taken here, in order (memory only, but for whether
    /// a lockdown runs: known in memory, asked of the store at most once a
    /// second); the store read and the platform calls run in a task.
    async fn joined(
        &self,
        parts: &Welcoming,
        event: &Event,
        member: &MemberRef,
        join: behaviour::Join,
    ) {
        let server = event.server_id.as_ref();
        let Some(config) = config(parts, server).await else {
            return;
        };
        let welcome = config.sections.welcome.clone();
        let plan = behaviour::plan(&welcome, join);
        if !plan.greet {
            return;
        }
        // A raid's joiners are held by the lockdown: neither greeted (the
        // raid would be pinged into the channel) nor given roles, then or
        // at its end (docs/api.md).
        match parts.lockdown.running(server).await {
            Ok(None) => {}
            Ok(Some(_)) => {
                tracing::debug!(server, member = %member.id, "welcome: a lockdown runs; joiner neither greeted nor given roles");
                return;
            }
            Err(e) => {
                tracing::warn!(server, error = %e, "welcome: cannot tell whether a lockdown runs; join not acted on");
                return;
            }
        }
        // The guard is the greeting's alone: a member who left and came
        // back within the time is not greeted again, but gets the roles
        // (a redelivered join gives roles held, which changes nothing).
        let greet = lock(&self.greeted).first_time(server, &member.id, parts.clock.now());
        if !greet {
            tracing::debug!(server, member = %member.id, "welcome: greeted lately; not again");
        }
        let roles_now = match plan.roles {
            behaviour::Roles::Now => {
                // Not pending (any more): no screening to wait for.
                lock(&self.awaiting).passed(server, &member.id);
                true
            }
            behaviour::Roles::AfterScreening => {
                lock(&self.awaiting).wait_for(server, &member.id);
                false
            }
            behaviour::Roles::None | behaviour::Roles::OnceVerified => false,
        };
        if !greet && !roles_now {
            return;
        }
        let (parts2, server, member) = (parts.clone(), server.to_owned(), member.clone());
        self.dispatch(parts, async move {
            let parts = parts2;
            let Some((name, bot)) = connected(&parts, &server).await else {
                return;
            };
            if greet {
                greet_member(&bot, &server, &welcome, &member, name).await;
            }
            if roles_now {
                give(&bot, &server, &member.id, &welcome.auto_role_ids, &[]).await;
            }
        })
        .await;
    }

    /// A member awaited passed membership screening: the auto-roles they
    /// lack, unless the config changed meanwhile (off, or verification on:
    /// then verification gives them).
    async fn screened(&self, parts: &Welcoming, event: &Event, member: &str, held: &[String]) {
        let server = event.server_id.as_ref();
        let Some(config) = config(parts, server).await else {
            return;
        };
        let welcome = &config.sections.welcome;
        let join = behaviour::Join {
            is_bot: false,
            channel_only: false,
            pending: false,
        };
        if behaviour::plan(welcome, join).roles != behaviour::Roles::Now {
            return;
        }
        let roles = welcome.auto_role_ids.clone();
        let (parts2, server, member, held) = (
            parts.clone(),
            server.to_owned(),
            member.to_owned(),
            held.to_vec(),
        );
        self.dispatch(parts, async move {
            if let Some((_, bot)) = connected(&parts2, &server).await {
                give(&bot, &server, &member, &roles, &held).await;
            }
        })
        .await;
    }

    /// Runs `work` in a task of its own once one of [`MAX_WELCOMING`] is
    /// free, waiting for it here: a flood of joins backs up into the
    /// fan-out's bounded queue, not into unbounded tasks, and the events
    /// behind a slow greeting are not held up by it; shutdown waits for the
    /// tasks (they are in-flight work).
    async fn dispatch(&self, parts: &Welcoming, work: impl Future<Output = ()> + Send + 'static) {
        spawn_bounded(
            "welcome's greeting or auto-roles",
            &self.permits,
            &parts.in_flight,
            parts.abandon.clone(),
            work,
        )
        .await;
    }
}

/// Greets `member` where the platform greets, logging what failed.
async fn greet_member(
    bot: &Bot,
    server: &str,
    welcome: &Welcome,
    member: &MemberRef,
    name: String,
) {
    // Slack greets by DM: its channel is not used, and not required.
    let channel = match (bot, &welcome.channel_id) {
        (_, Some(channel)) => channel.as_str(),
        (Bot::Slack(_), None) => "",
        (Bot::Discord(_) | Bot::Telegram(_), None) => {
            tracing::warn!(
                server,
                "welcome is on without welcome.channel_id: nobody greeted"
            );
            return;
        }
    };
    let greeting = Greeting {
        template: welcome.message.clone(),
        member_id: member.id.clone(),
        member_name: member.display_name.clone(),
        server_name: name,
        // Slack verifies with a button in the greeting DM itself (one DM);
        // a captcha there is verified with the button too (docs/api.md).
        slack_button: (matches!(bot, Bot::Slack(_))
            && welcome.verification != modctl_types::config::Verification::None)
            .then(|| {
                (
                    crate::automation::verify::BUTTON_LABEL.to_owned(),
                    crate::automation::verify::CUSTOM_ID.to_owned(),
                )
            }),
    };
    if let Err(e) = behaviour::greet(bot, channel, &greeting).await {
        tracing::warn!(server, member = %member.id, error = %e, advice = %e.advice(), "welcome: the greeting was not posted");
    }
}

/// The server's config from memory; `None` (logged) when unreadable.
async fn config(parts: &Welcoming, server: &str) -> Option<super::live::Snapshot> {
    match parts.live.get(server).await {
        Ok(config) => Some(config),
        Err(e) => {
            tracing::warn!(server, error = %e, "welcome: cannot read the config; join not acted on");
            None
        }
    }
}

/// The server's name and its platform adapter; `None` when it is not
/// claimed or not connected (or the store failed: logged).
async fn connected(parts: &Welcoming, server: &str) -> Option<(String, Bot)> {
    let (id, secrets) = (server.to_owned(), parts.store.secrets().clone());
    let found = parts
        .store
        .read(move |tx| {
            let Some(record) = servers::find(tx, &id)? else {
                return Ok::<_, StoreError>(None);
            };
            Ok(connections::get(tx, &secrets, &id)?.map(|c| (record.server, c)))
        })
        .await;
    match found {
        Ok(Some((record, connection))) => {
            let bot = platform::connect(
                &parts.platforms,
                &parts.store,
                record.platform,
                &record.id,
                connection,
            );
            Some((record.name, bot))
        }
        Ok(None) => None,
        Err(e) => {
            tracing::warn!(server, error = %e, "welcome: cannot read the server's connection");
            None
        }
    }
}

/// Gives `member` the roles of `roles` they do not hold (`held`), logging
/// what failed.
async fn give(bot: &Bot, server: &str, member: &str, roles: &[String], held: &[String]) {
    let missing: Vec<String> = roles
        .iter()
        .filter(|r| !held.contains(r))
        .cloned()
        .collect();
    let given = give_auto_roles(bot, member, &missing).await;
    for (role, e) in &given.failed {
        tracing::warn!(server, member, role, error = %e, advice = %e.advice(), "welcome: an auto-role was not given");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_is_greeted_once_within_the_time() {
        let start: Timestamp = "2026-11-27T10:00:00Z".parse().unwrap();
        let s = |n: i64| start + SignedDuration::from_secs(n);
        let mut greeted = Greeted::new(Duration::from_secs(600), 3);
        for (server, member, at, want) in [
            ("s", "1", 0, true),
            // A redelivery, or a rejoin, within the time.
            ("s", "1", 5, false),
            ("s", "1", 599, false),
            // Another server, another member.
            ("t", "1", 10, true),
            ("s", "2", 20, true),
            // After the time: greeted again.
            ("s", "1", 600, true),
            // More than `max` forgets the oldest: ("t", "1") went.
            ("s", "3", 601, true),
            ("s", "4", 602, true),
            ("t", "1", 603, true),
        ] {
            assert_eq!(
                greeted.first_time(server, member, s(at)),
                want,
                "{server} {member} at {at}"
            );
            assert!(greeted.at.len() <= 3);
        }
    }

    #[test]
    fn a_member_awaited_passes_screening_once() {
        let mut awaiting = Awaiting::new(2);
        assert!(!awaiting.passed("s", "1"), "never awaited");
        awaiting.wait_for("s", "1");
        awaiting.wait_for("s", "1");
        assert!(!awaiting.passed("t", "1"), "another server");
        assert!(awaiting.passed("s", "1"));
        assert!(!awaiting.passed("s", "1"), "once");
        awaiting.wait_for("s", "1");
        awaiting.wait_for("s", "2");
        awaiting.wait_for("s", "3");
        assert!(!awaiting.passed("s", "1"), "the oldest was forgotten");
        assert!(awaiting.passed("s", "3"));
    }
}
