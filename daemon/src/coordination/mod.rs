//! Coordination: every place where modctld assumes it is the only daemon
//! serving its database, named here (issue #24), so that running several
//! daemons on one PostgreSQL (issue #29) is a matter of implementing these
//! interfaces, not of finding the assumptions first.
//!
//! Today one `modctld serve` owns a SQLite file, and each assumption below is
//! implemented in process. What each one needs from a multi-daemon backend
//! is said beside it.
//!
//! | Assumption | Interface | Today | With several daemons |
//! |---|---|---|---|
//! | Actions on one member run one at a time (moderation) | [`MemberLocking`] | [`MemberLocks`]: one async mutex per member, in memory | a lock per member held for the action (e.g. a PostgreSQL advisory lock) |
//! | A Slack user group's members are changed one at a time per (workspace, group): `usergroups.users.update` replaces the whole list, so the list is read, changed and written under the lock (welcome's auto-roles, verification; `platform::slack`) | [`MemberLocking`] (key: the workspace's server id and `usergroup:<id>`), held by `crate::platform::PlatformClients::slack_user_groups` | [`MemberLocks`] | the same lock across daemons (e.g. an advisory lock per group); Slack has no compare-and-set, so changes made outside modctld between the read and the write are still overwritten |
//! | A pending case whose member nobody holds was left by a daemon that stopped, so recovery may settle it (`moderation::recovery`) | [`MemberLocking::try_lock`] | a member no live task holds | leases with expiry: a case is settled only once its daemon's lease ran out |
//! | One restore runner carries out the jobs (`restore::run`) | [`Exclusive`] | [`LocalExclusive`]: an async mutex | a lease on the runner, or a claim per job |
//! | Background work is done by one worker at a time: webhook deliveries (a claim per endpoint, `crate::webhooks::start_due`), jail expiry (a claim per jail, `crate::moderation::expiry::release_due`) | [`WorkClaims`] | [`LocalClaims`]: the work held now, in memory (a tick overlapping a slow earlier one leaves its work alone); the store's `due` functions still hand every due item to whoever asks | claims that exclude other daemons (`FOR UPDATE SKIP LOCKED` in the `due` functions, or lease rows, taken over `lease` after their daemon died) |
//! | One tick at a time of the scheduled snapshots (`crate::snapshots::capture_due`) and of the activity retention (`crate::activity::prune`), both from [`crate::workers`] | [`Exclusive`] | [`LocalExclusive`] each: a second tick waits for the first, then does what is still due | a lease on each tick (the retention is one write), or for the snapshots a [`WorkClaims`] claim per server once `capture_due` takes one |
//! | Platform sessions have one owner: each bot token's gateway, Telegram poller or webhook (`crate::receive`) | [`SessionOwnership`] | [`LocalSessions`]: granted unless this process already holds that bot (one holder per bot); `receive::reconcile` asks before it starts a session or registers a webhook, and holds it while that runs | an owner per token (a lease), taken over when its daemon dies; a daemon refused a session does not start it |
//! | Webhook deliveries are paced per process: the cap of endpoints delivered to at once ([`crate::webhooks::MAX_RUNNING`]) and each endpoint's circuit breaker (timeouts in a row, in [`crate::webhooks::Deliverer`]) | none: they follow the endpoint's [`WorkClaims`] claim | in memory | the claim decides which daemon delivers to an endpoint, so its breaker is that daemon's (one that takes an endpoint over starts with the breaker closed, costing at most `breaker_after` more timeouts), and the cap holds per daemon (documented as such); a breaker that outlives its daemon would keep its open-until time on the endpoint's row |
//! | Per-key request limits hold per process (`crate::request_limits`) | [`RateBudgets`] | [`LocalBudgets`]: a GCRA per key (`governor`), in memory | a shared budget, or a documented split (each daemon `rate / daemons`); the call is synchronous because it is on every request's path, so a shared one keeps a local share refreshed in the background |
//! | Discord's limits hold per process: route buckets and the global 50 requests a second per bot token | none, by choice: the named type [`crate::platform::ratelimit::DiscordLimiters`], held by [`crate::platform::PlatformClients`] | one state machine per token, in memory ([`crate::platform::ratelimit`]) | not a budget to take and give back: each request reserves its place until its answer says which bucket it counted against and what is left of the window, and waiters wake on those answers, so an interface over it would be that whole state machine, shared per request. Rather a documented split: each daemon paces its own share of the global limit, and learns the buckets from its own answers (a bucket another daemon emptied costs a 429, which the retry policy waits out); or each token's calls go through the daemon that owns its session ([`SessionOwnership`]) |
//! | Automod hits left unsettled were left by a daemon that stopped, so the start-up sweep may finish them (`crate::automation::automod::act::sweep`, run only at start-up, from `crate::workers::Workers::start`, before this daemon's transports run) | [`WorkClaims`] ([`Work::AutomodMessage`], taken by the sweep per message) | the sweep runs once, before any hit of this run exists, so every unsettled hit is a stopped daemon's; [`LocalClaims`] grants every claim | a daemon starting beside a running one would take that one's hits being acted on (a second delete, a second log post): the acting tasks hold the same claim per message while they act (issue #29: a lease per hit), the sweep skips what it cannot claim and runs now and then, not only at start-up, taking over claims whose lease ran out |
//! | Caches see every commit: the key cache (`crate::auth::cache`) | [`ChangeFeed`] | [`LocalChangeFeed`]: SQLite's `PRAGMA data_version` ([`crate::store::ChangeWatch`]) sees every connection's commits to the file | a change feed (e.g. `LISTEN/NOTIFY` counted by a listener, or a revision row) |
//! | Raid lockdowns count joins in the daemon that receives them, and end by one worker (`crate::automation::lockdown`) | none: the join window and the running lockdown known per server are in memory; ending and resuming a start are idempotent in the store (`lockdowns::end` ends a row once); each server's lockdown platform calls take turns on a per-server async mutex in `Shared`, and the row is read again under it, so a stale end or a replayed start never acts on a lockdown that ended or a newer one | in memory: [`crate::automation::lockdown::Shared`]; the running lockdown is read again from the store once a second, so a start or end by another process is seen | the joins of one server arrive through the one session that owns its bot token ([`SessionOwnership`]), so one daemon counts them; the one-running-lockdown index keeps a second start out. The per-server turn is in-process: a second daemon's end worker (or `DELETE`) racing this one's start could enable invites during a newer lockdown (not harmless; Discord's end enables them only while still paused until the ended lockdown's own value, which narrows it to the same lockdown's start and end crossing) |
//! | Antinuke counts each executor's audit-log entries, and each API key's bans and kicks, in the daemon that sees them, and acts once per incident (`crate::automation::antinuke`) | none: the counter (its `Watch`: sliding windows per server, executor and kind, the open incidents, the guilds' owner and bot) is in memory | in memory, per process; lost at a restart (a nuke under way starts counting again) | Discord's audit-log entries of one guild arrive through the session that owns its bot token ([`SessionOwnership`]), so one daemon counts them; a key's requests may reach any daemon, so its `key:` counts are split between them (a burst spread over `n` daemons needs `n` times the limit): a shared window per key (a store row, or a lease on the key's counting) |
//! | One verify message per Discord server (`crate::automation::verify::ensure_prompt`, from a join and from the worker's `keep_prompts`) | none: an in-process async mutex (`Verifying::prompts`) makes the read-post-record of the message one step | in memory: one post at a time in this process | two daemons could both see no message and both post one: a [`WorkClaims`] claim per server around the post (or a conditional insert of the message row before posting) |
//! | A Telegram captcha's keypad digits read and written as one step (`crate::automation::verify::captcha::flow`, each key press a task of its own) | none: an in-process async mutex (`Verifying::answers`) around the read-compute-write of the stored digits; wrong answers are counted by one conditional `UPDATE ... RETURNING` | in memory: one key at a time in this process | two daemons could interleave a member's quick presses and lose a digit (the member presses again; a wrong answer is still counted once per judged code): a conditional update of `entered` on its previous value, retried |
//! | The verification kick worker kicks each member past their deadline once (`crate::automation::verify::kick_due`) | none: not claimed through [`WorkClaims`]; `verifications::due` hands every due row to whoever asks | one worker per process; the case's idempotency key (`server:user:since`) and the conditional settle in the case's transaction make a second kick of the same join a replay, and a member's press and the kick settle the row once | two daemons' workers could both act on the same row: the second's kick replays the first's case (no second kick) or meets its "still being carried out" conflict and tries again at its next tick, so it is wasted work, not a double kick; a claim per verification (`FOR UPDATE SKIP LOCKED` in `due`) keeps them apart |
//! | One `modctld serve` per database file, so a restore never replaces a file a daemon holds (`crate::operator`, `serve` and `restore-backup`) | none: [`crate::store::ServeLock`], a `flock` on `<database>.lock` held while serving | a second `serve` of the file, or a `restore-backup` under a running one, is refused | on PostgreSQL several daemons serve one database by design: no lock; a restore is the database's own tooling, with every daemon stopped |
//! | Scheduled backups are taken by the daemon that serves the file (`crate::backups::take_due`) | none: the schedule is decided from the backup files' names in `--backup-dir` | one daemon, one directory | the database's own backups (`pg_dump`, base backups); several daemons given one `--backup-dir` would each take one per interval, so the option stays SQLite's |
//! | Names beside ids (issue #27): the members', channels' and roles' names answers carry (`crate::names::NameCache`) | none: a bounded in-memory cache fed by the events this daemon receives and by its name lookups (`crate::names::lookup`: their queue, remembered misses and per-server budgets are this daemon's too, so N daemons may ask a platform N times the budget) | in memory, per process; lost at a restart until `GUILD_CREATE` and new messages bring the names back | each server's events arrive at the daemon owning its session ([`SessionOwnership`]), so another daemon answering a read knows no names for it: a shared cache (a store table refreshed by the session's owner, or asking the owner), or the names stay absent, which the answers allow |
//! | Onboarding's platform facts (`crate::onboarding::FactsCache`) | none needed | cached per server, keyed by the stored revisions the answer was asked under | the same: every daemon reads the revisions from the shared store |
//! | The live view's notices reach every stream of a server (issue #27, `GET /servers/{id}/events/stream`, [`crate::live`]): "events up to id N are stored" and the live-only events (joins, which only the daemon holding the platform session sees) | [`LiveBroadcast`] | [`LocalBroadcast`]: a bounded broadcast channel per watched server, in memory; each daemon's hub ([`crate::live::run_hub`]) polls the store for new ids when the [`ChangeFeed`] moves, so stored events written by any process reach it | the stored part already holds (every daemon's hub reads the shared store); the live-only events need a shared bus (e.g. PostgreSQL `LISTEN/NOTIFY` or a pub/sub), published by the session's owner and received by every daemon |
//! | The caps on open event streams (per key, per team, in all) hold per process ([`crate::live::StreamCaps`]) | none, by choice | counts in memory | a documented split (each daemon caps its own streams), or counts in the shared store with a lease per stream |
//!
//! [`Coordination::in_process`] holds each interface's implementation for
//! one daemon; callers use the interfaces only, so a second backend
//! replaces the values there and no caller.

mod budgets;
mod changes;
mod claims;
mod live;
mod members;

use std::fmt::Debug;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use sha2::{Digest, Sha256};

pub use budgets::LocalBudgets;
pub use changes::LocalChangeFeed;
pub use claims::{LocalClaims, LocalSessions};
pub use live::LocalBroadcast;
pub use members::MemberLocks;

/// Serializes actions on one member of a server.
#[async_trait]
pub trait MemberLocking: Debug + Send + Sync {
    /// Waits until no other action runs on `user_id` of `server_id`, then
    /// holds the member until the guard is dropped.
    async fn lock(&self, server_id: &str, user_id: &str) -> Held;

    /// Holds the member if no action runs on it now. Recovery relies on it:
    /// a member nobody holds has no action in flight.
    fn try_lock(&self, server_id: &str, user_id: &str) -> Option<Held>;
}

/// One holder at a time of a piece of work (the restore runner, the
/// scheduled snapshots' tick, the retention's tick).
#[async_trait]
pub trait Exclusive: Debug + Send + Sync {
    /// Waits until nobody else holds it, then holds it until the guard is
    /// dropped.
    async fn hold(&self) -> Held;
}

/// Claims on background work: a worker claims an item before doing it, and
/// releases it by dropping the guard.
#[async_trait]
pub trait WorkClaims: Debug + Send + Sync {
    /// Holds `work` until the guard is dropped, or `None` when someone
    /// holds it already (a backend that cannot tell now says `None` too: the
    /// work stays due for a later tick). `lease` is how long a backend whose
    /// claims expire keeps the claim of a holder that stopped renewing it
    /// (its daemon died) before handing the work to someone else; it keeps
    /// renewing while the guard lives. In process it is not needed: the
    /// claims die with the process that holds them.
    async fn claim(&self, work: Work, lease: Duration) -> Option<Held>;
}

/// A piece of background work, by kind and key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Work {
    /// Delivering the due webhooks of a server to one URL (a run, see
    /// `crate::webhooks`).
    WebhookEndpoint {
        /// The server whose events they are.
        server_id: String,
        /// Where they go.
        url: String,
    },
    /// Ending one timed jail, named by the case that jailed.
    JailExpiry {
        /// The server.
        server_id: String,
        /// The jail's case.
        case_id: i64,
    },
    /// Posting the waiting entries of one log channel (a run, see
    /// `crate::logs::deliver`).
    LogChannel {
        /// The server.
        server_id: String,
        /// The channel.
        channel_id: String,
    },
    /// Syncing a Discord server's native AutoMod rules with its config
    /// (`crate::automation::native::sync`).
    NativeRules {
        /// The server.
        server_id: String,
    },
    /// Finishing the automod hits of one message that a stopped daemon
    /// left unsettled (`crate::automation::automod::act::sweep`).
    AutomodMessage {
        /// The server.
        server_id: String,
        /// The platform's message id (or a native execution's stand-in).
        message_id: String,
    },
}

/// Ownership of platform sessions: the receivers ask before a session
/// starts, and hold the answer as long as it runs.
#[async_trait]
pub trait SessionOwnership: Debug + Send + Sync {
    /// Owns `session` until the guard is dropped, or `None` when another
    /// holder owns it (then the session is not started here).
    async fn acquire(&self, session: &SessionKey) -> Option<Held>;
}

/// Names a platform session (one bot token's gateway, poller or webhook) by
/// a hash: a backend may store and show it, and never sees the token.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SessionKey {
    kind: &'static str,
    hash: [u8; 32],
}

impl SessionKey {
    /// The session of `kind` (e.g. `gateway`, `updates`) for `token` at
    /// `api_base` (empty for the platform's own).
    pub fn new(kind: &'static str, api_base: &str, token: &str) -> SessionKey {
        let mut hash = Sha256::new();
        hash.update(kind.as_bytes());
        hash.update([0]);
        hash.update(api_base.as_bytes());
        hash.update([0]);
        hash.update(token.as_bytes());
        SessionKey {
            kind,
            hash: hash.finalize().into(),
        }
    }
}

impl Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short: String = self.hash[..6].iter().map(|b| format!("{b:02x}")).collect();
        write!(f, "SessionKey({}:{short})", self.kind)
    }
}

/// Rate budgets per key: what a key may still spend, wherever its requests
/// are served. Synchronous: it is asked on every request's path (see the
/// table above for what a shared backend does about that).
pub trait RateBudgets: Debug + Send + Sync {
    /// Spends one unit of `key`'s `budget` at `rate` (`burst` units at once,
    /// then one every minute / `per_minute`): `Ok` with the units that may
    /// still be spent at once, or `Err` with how long until one may, nothing
    /// spent.
    fn take(&self, budget: Budget, key: &str, rate: Rate) -> Result<u32, Duration>;
}

/// Which budget a key spends: each key has one of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Authenticated requests, by key id.
    Requests,
    /// Failed authentications, by client address.
    FailuresFromAddress,
    /// Failed authentications, by key id (wrong secrets of a real key).
    FailuresOfKey,
}

/// A rate and a burst, as a budget applies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rate {
    /// Units per minute, sustained.
    pub per_minute: u32,
    /// Units at once.
    pub burst: u32,
}

/// Says whether anything was committed to the database, by this daemon or
/// any other writer, so that caches over the store are never stale.
pub trait ChangeFeed: Debug + Send + Sync {
    /// A number that changes whenever something committed since it was last
    /// read, or `None` when the feed cannot tell now. Never waits: it is
    /// asked on every request's path, and a caller that gets `None` reads
    /// from the store (a broken feed costs speed, never freshness).
    fn version(&self) -> Option<i64>;
}

/// Carries the live view's notices to the streams of a server, on every
/// daemon (issue #27).
pub trait LiveBroadcast: Debug + Send + Sync {
    /// Tells every stream of `server_id` (none listening: nothing happens).
    /// Never waits: a stream that is behind loses the oldest notices and is
    /// told so when it reads.
    fn publish(&self, server_id: &str, notice: LiveNotice);

    /// The notices of `server_id` from now on.
    fn subscribe(&self, server_id: &str) -> tokio::sync::broadcast::Receiver<LiveNotice>;

    /// The servers someone subscribed to and still listens on.
    fn watched(&self) -> Vec<String>;
}

/// What [`LiveBroadcast`] carries.
#[derive(Debug, Clone)]
pub enum LiveNotice {
    /// The server's stored events go up to this id now: read them from the
    /// store.
    Stored(i64),
    /// An event that is not stored (a join), whole.
    Live(Arc<modctl_types::live::LiveEvent>),
}

/// What a lock of [`MemberLocking`] or [`Exclusive`], a claim of
/// [`WorkClaims`] or an ownership of [`SessionOwnership`] hands out: held
/// until dropped, whatever the backend's own guard is.
pub struct Held {
    _guard: Box<dyn Send + Sync>,
}

impl Held {
    /// Holds until `guard`, a backend's own guard, is dropped.
    pub fn new(guard: impl Send + Sync + 'static) -> Self {
        Held {
            _guard: Box::new(guard),
        }
    }
}

impl Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held").finish_non_exhaustive()
    }
}

/// [`Exclusive`] within this process: an async mutex.
#[derive(Debug, Default)]
pub struct LocalExclusive {
    lock: Arc<tokio::sync::Mutex<()>>,
}

#[async_trait]
impl Exclusive for LocalExclusive {
    async fn hold(&self) -> Held {
        Held::new(self.lock.clone().lock_owned().await)
    }
}

/// What the daemon coordinates through; cheap to clone.
#[derive(Debug, Clone)]
pub struct Coordination {
    /// Actions on one member, one at a time.
    pub members: Arc<dyn MemberLocking>,
    /// The restore runner.
    pub restore_runner: Arc<dyn Exclusive>,
    /// The scheduled snapshots' tick.
    pub scheduled_snapshots: Arc<dyn Exclusive>,
    /// The activity retention's tick.
    pub retention: Arc<dyn Exclusive>,
    /// Claims on background work (webhook runs, jail expiry, log channels).
    pub work: Arc<dyn WorkClaims>,
    /// Owners of the platform sessions.
    pub sessions: Arc<dyn SessionOwnership>,
    /// Per-key request budgets.
    pub budgets: Arc<dyn RateBudgets>,
    /// Commits to the database, for the key cache.
    pub changes: Arc<dyn ChangeFeed>,
    /// The live view's notices to its streams (issue #27).
    pub live: Arc<dyn LiveBroadcast>,
}

impl Coordination {
    /// The one-daemon implementation of each, over the SQLite file at
    /// `database` (its change feed).
    pub fn in_process(database: &Path) -> Self {
        Coordination {
            members: Arc::new(MemberLocks::default()),
            restore_runner: Arc::new(LocalExclusive::default()),
            scheduled_snapshots: Arc::new(LocalExclusive::default()),
            retention: Arc::new(LocalExclusive::default()),
            work: Arc::new(LocalClaims::default()),
            sessions: Arc::new(LocalSessions::default()),
            budgets: Arc::new(LocalBudgets::default()),
            changes: Arc::new(LocalChangeFeed::new(database)),
            live: Arc::new(LocalBroadcast::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn the_restore_runner_has_one_holder_at_a_time() {
        let runner: Arc<dyn Exclusive> = Arc::new(LocalExclusive::default());
        let first = runner.hold().await;
        let second = tokio::spawn({
            let runner = runner.clone();
            async move { runner.hold().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!second.is_finished(), "the second waits for the first");
        drop(first);
        let second = tokio::time::timeout(Duration::from_secs(5), second)
            .await
            .expect("the second holds it once the first let go")
            .unwrap();
        drop(second);
    }
}
