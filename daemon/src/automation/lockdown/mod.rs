//! Raid lockdown (issue #26): more members joining a server in a minute than
//! `antinuke.max_joins_per_minute` starts a lockdown for
//! `antinuke.lockdown_minutes`; a key starts or ends one by hand
//! (`POST`/`DELETE /servers/{id}/lockdown`).
//!
//! # The pieces
//!
//! - [`window`]: the joins of each server in a sliding minute (pure, table
//!   tested; the time from the caller's clock).
//! - [`behaviour`]: what each platform is asked at the start, for each
//!   joiner, and at the end (Discord pauses invites and times joiners out,
//!   Telegram replaces the invite link and restricts joiners, Slack only
//!   alerts), one table.
//! - this module: the event consumer ([`Slot`], bound to a [`Context`] when
//!   the daemon serves), and [`start`], [`end`] and [`end_due`] (the
//!   worker's tick, `crate::workers::lockdowns`).
//!
//! # Durable, one at a time
//!
//! A lockdown is a row (`crate::store::lockdowns`), written with its
//! `lockdown_started` webhook event and its log entry in one transaction,
//! before the platform is asked anything; at most one runs per server (a
//! start while one runs answers the running one). It ends by the worker on
//! the clock once `ends_at` has come, so a restart during a lockdown ends it
//! on time; the platform is asked first and the end is then written with
//! its `lockdown_ended` event and log entry, so a crash in between asks it
//! again (Discord's end enables invites only while they are still paused
//! until the value the start set). Each server's platform calls take turns
//! (a per-server async mutex, in-process) and read the row again under the
//! turn: a stale end or a start replayed after a `DELETE` asks nothing, and
//! a start replayed after its `ends_at` is recorded as skipped (the worker
//! ends it). A lockdown whose `ends_at` has passed holds no joiner, even
//! before the worker ends it.
//!
//! # What counts
//!
//! Server joins by members who are not bots: Slack `team_join` (a channel
//! join, `member_joined_channel`, is not a server join), Discord
//! `GUILD_MEMBER_ADD`, Telegram members becoming members. Bots never count
//! and are never held: a bot is added by an administrator, never by a raid
//! through an invite, and the daemon's own bot joining must not lock its
//! server. The daemon's own acts (timeouts, restrictions) are member
//! updates, not joins, so nothing of the lockdown feeds back into it.
//! Automatic lockdowns need `antinuke.enabled` as well as
//! `max_joins_per_minute`: the section's switch turns all of it off at once.
//!
//! # No store read per event
//!
//! The config comes from [`LiveConfig`]; whether a lockdown runs is kept in
//! memory and checked against the store at most once a [`RECHECK`] per
//! server (like `LiveConfig`), so a lockdown started or ended by another
//! process (`modctld simulate raid`) is seen within a second, and one of
//! this daemon at once. Holding a joiner during a lockdown reads the
//! server's connection and counts the joiner: a raid's joiners are each a
//! platform call anyway.

pub mod behaviour;
pub mod window;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use jiff::Timestamp;
use modctl_types::Platform;
use modctl_types::config::WebhookEvent;
use modctl_types::lockdown::{Lockdown, LockdownEvent};
use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;

use self::behaviour::Phase;
use self::window::JoinWindow;
use crate::automation::live::LiveConfig;
use crate::automation::logs::Recent;
use crate::clock::Clock;
use crate::events::{Consumer, Event, EventKind};
use crate::logs::{LockdownLog, LogEntry};
use crate::platform::{self, Bot, PlatformClients};
use crate::store::lockdowns::{self, NewLockdown};
use crate::store::{Store, StoreError, config, connections};
use crate::sync::lock;
use crate::webhooks as webhook_events;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "lockdown";

/// Who an automatic lockdown names as its starter.
pub const AUTOMATIC: &str = "automatic";

/// Who a lockdown whose time was up names as its ender.
pub const EXPIRED: &str = "expired";

/// How long the knowledge of a server's running lockdown is used before
/// the store is asked again.
pub const RECHECK: Duration = Duration::from_secs(1);

/// Joiners held at once (each a platform call); the consumer waits for a
/// free one before spawning, so a raid backs up into the fan-out's bounded
/// queue rather than into unbounded tasks.
pub const MAX_HOLDING: usize = 16;

/// Joins whose platform id is remembered against redeliveries.
pub const RECENT_JOINS: usize = 10_000;

/// What the lockdowns use of the daemon.
#[derive(Debug, Clone)]
pub struct Context {
    /// The database.
    pub store: Store,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The platform clients.
    pub platforms: PlatformClients,
    /// Each server's config in memory.
    pub live: LiveConfig,
    /// The joins counted and the running lockdowns known.
    pub shared: Arc<Shared>,
    /// The daemon's in-flight work: holding joiners is part of it.
    pub in_flight: TaskTracker,
    /// The servers' own invites, learned again after a start that changes
    /// them (Telegram's new link).
    pub own_invites: Arc<crate::automation::invites::OwnInvitesCache>,
}

/// What every [`Context`] of a daemon shares.
#[derive(Debug)]
pub struct Shared {
    window: Mutex<JoinWindow>,
    /// The platform ids of the latest joins counted, so a redelivery
    /// (Slack sends an event again when it got no answer in time) counts
    /// once.
    recent: Mutex<Recent>,
    running: Mutex<HashMap<String, Known>>,
    holding: Arc<Semaphore>,
    /// Each server's lockdown platform calls, one at a time (in-process:
    /// `crate::coordination`'s table), so a stale end never enables
    /// invites again during a newer lockdown.
    platform_calls: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            window: Mutex::default(),
            recent: Mutex::new(Recent::new(RECENT_JOINS)),
            running: Mutex::default(),
            holding: Arc::new(Semaphore::new(MAX_HOLDING)),
            platform_calls: Mutex::default(),
        }
    }
}

/// A server's running lockdown as last known.
#[derive(Debug, Clone)]
struct Known {
    running: Option<Lockdown>,
    checked_at: Timestamp,
}

/// How a start went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Started {
    /// A new lockdown, written; the platform was asked after.
    Started(Lockdown),
    /// One already runs: this one, unchanged.
    AlreadyRunning(Lockdown),
}

/// Why a start or end could not be carried out.
#[derive(Debug, thiserror::Error)]
pub enum LockdownError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Context {
    fn remember(&self, server_id: &str, running: Option<Lockdown>) {
        lock(&self.shared.running).insert(
            server_id.to_owned(),
            Known {
                running,
                checked_at: self.clock.now(),
            },
        );
    }

    /// `server_id`'s running lockdown: as known, or asked of the store once
    /// [`RECHECK`] has passed.
    pub async fn running(&self, server_id: &str) -> Result<Option<Lockdown>, StoreError> {
        let now = self.clock.now();
        if let Some(known) = lock(&self.shared.running).get(server_id)
            && now.duration_since(known.checked_at).unsigned_abs() < RECHECK
        {
            return Ok(known.running.clone());
        }
        let id = server_id.to_owned();
        let running = self
            .store
            .read(move |tx| lockdowns::running(tx, &id))
            .await?;
        self.remember(server_id, running.clone());
        Ok(running)
    }

    /// Takes `server_id`'s turn for lockdown platform calls, then reads
    /// whether `lockdown` still runs: the caller asks the platform only
    /// then, holding the turn.
    async fn turn(
        &self,
        server_id: &str,
        lockdown: &Lockdown,
    ) -> Result<(tokio::sync::OwnedMutexGuard<()>, bool), StoreError> {
        let calls = lock(&self.shared.platform_calls)
            .entry(server_id.to_owned())
            .or_default()
            .clone();
        let guard = calls.lock_owned().await;
        let id = server_id.to_owned();
        let running = self
            .store
            .read(move |tx| lockdowns::running(tx, &id))
            .await?;
        Ok((guard, running.is_some_and(|r| r.id == lockdown.id)))
    }

    /// The server's platform adapter, `None` when it has no connection.
    async fn bot(&self, server_id: &str) -> Result<Option<Bot>, StoreError> {
        let id = server_id.to_owned();
        let secrets = self.store.secrets().clone();
        let found = self
            .store
            .read(move |tx| connections::connected_server(tx, &secrets, &id))
            .await?;
        Ok(found.map(|(record, connection, _)| {
            platform::connect(
                &self.platforms,
                &self.store,
                record.server.platform,
                server_id,
                connection,
            )
        }))
    }
}

/// Starts a lockdown of `server_id` for `minutes`, by `started_by`, for
/// `why`: the row, its `lockdown_started` event and its log entry in one
/// transaction, then the platform's start steps, whose outcome is recorded
/// on the row. When one already runs, answers it and changes nothing.
pub async fn start(
    cx: &Context,
    server_id: &str,
    minutes: u32,
    started_by: &str,
    why: String,
) -> Result<Started, LockdownError> {
    let now = cx.clock.now_unix();
    let ends_at = now + i64::from(minutes) * 60;
    let (server, by) = (server_id.to_owned(), started_by.to_owned());
    let written = cx
        .store
        .write(move |tx| {
            let new = NewLockdown {
                server_id: &server,
                started_at: now,
                ends_at,
                started_by: &by,
                why: &why,
            };
            let lockdown = match lockdowns::start(tx, &new)? {
                Ok(lockdown) => lockdown,
                Err(running) => return Ok(Started::AlreadyRunning(running)),
            };
            announce(tx, &server, &lockdown, true, now)?;
            Ok::<_, StoreError>(Started::Started(lockdown))
        })
        .await?;
    let Started::Started(mut lockdown) = written else {
        return Ok(written);
    };
    lock(&cx.shared.window).forget(server_id);
    cx.remember(server_id, Some(lockdown.clone()));
    let outcome = ask_start(cx, server_id, &lockdown).await?;
    tracing::info!(
        server = server_id,
        lockdown = lockdown.id,
        by = started_by,
        outcome,
        "lockdown started"
    );
    lockdown.start_outcome = Some(outcome);
    Ok(Started::Started(lockdown))
}

/// Asks the platform for `lockdown`'s start steps and records what it
/// answered; answers that, in words.
async fn ask_start(
    cx: &Context,
    server_id: &str,
    lockdown: &Lockdown,
) -> Result<String, LockdownError> {
    let (_turn, runs) = cx.turn(server_id, lockdown).await?;
    let outcome = if !runs {
        "skipped: it had ended before the platform was asked".to_owned()
    } else if lockdown.ends_at <= cx.clock.now() {
        // A start cut short by a stop and replayed after its end: the
        // worker's `end_due` ends it; pausing now would outlive it.
        "skipped: its time was up before the platform was asked".to_owned()
    } else {
        match cx.bot(server_id).await? {
            Some(bot) => {
                let done =
                    behaviour::carry_phase(Phase::Start, &bot, lockdown, None, cx.clock.now())
                        .await
                        .map_or_else(|| "alert only".to_owned(), |(done, _)| done);
                if behaviour::start_changes_own_invites(bot.platform()) {
                    crate::automation::invites::ask(&cx.own_invites, server_id, &bot, &cx.clock)
                        .await;
                }
                done
            }
            None => "not connected: nothing asked of the platform".to_owned(),
        }
    };
    let (id, recorded) = (lockdown.id, outcome.clone());
    cx.store
        .write(move |tx| lockdowns::set_start_outcome(tx, id, &recorded))
        .await?;
    Ok(outcome)
}

/// How long after a lockdown's start the worker takes a start the platform
/// was never asked for as cut short by a stop (the starting request asks
/// within seconds).
pub const START_GRACE: i64 = 60;

/// The worker's other half: asks the platform for the start of the running
/// lockdowns whose start it was never asked for (the daemon stopped between
/// writing the row and asking); answers how many.
pub async fn resume_starts(cx: &Context) -> Result<usize, LockdownError> {
    let before = cx.clock.now_unix() - START_GRACE;
    let unstarted = cx
        .store
        .read(move |tx| lockdowns::unstarted(tx, before))
        .await?;
    for (server, lockdown) in &unstarted {
        let outcome = ask_start(cx, server, lockdown).await?;
        tracing::warn!(
            server,
            lockdown = lockdown.id,
            outcome,
            "lockdown start asked of the platform after a stop"
        );
    }
    Ok(unstarted.len())
}

/// Ends `lockdown` of `server_id` by `ended_by`: the platform's end steps,
/// then the end written with its `lockdown_ended` event and log entry.
/// `None` when it had already ended (another ending won).
pub async fn end(
    cx: &Context,
    server_id: &str,
    lockdown: &Lockdown,
    ended_by: &str,
) -> Result<Option<Lockdown>, LockdownError> {
    // Under the server's turn, and only while it still runs: a stale end
    // (another ending won) must not enable invites during a newer one.
    let (_turn, runs) = cx.turn(server_id, lockdown).await?;
    if !runs {
        return Ok(None);
    }
    let outcome = match cx.bot(server_id).await? {
        Some(bot) => behaviour::carry_phase(Phase::End, &bot, lockdown, None, cx.clock.now())
            .await
            .map(|(done, _)| done),
        None => Some("not connected: nothing asked of the platform".to_owned()),
    };
    let now = cx.clock.now_unix();
    let (server, id, by) = (server_id.to_owned(), lockdown.id, ended_by.to_owned());
    let ended = cx
        .store
        .write(move |tx| {
            let Some(ended) = lockdowns::end(tx, id, now, &by, outcome.as_deref())? else {
                return Ok(None);
            };
            announce(tx, &server, &ended, false, now)?;
            Ok::<_, StoreError>(Some(ended))
        })
        .await?;
    cx.remember(server_id, None);
    if ended.is_some() {
        tracing::info!(
            server = server_id,
            lockdown = id,
            by = ended_by,
            "lockdown ended"
        );
    }
    Ok(ended)
}

/// The worker's tick: ends the running lockdowns whose time is up; answers
/// how many it ended.
pub async fn end_due(cx: &Context) -> Result<usize, LockdownError> {
    let now = cx.clock.now_unix();
    let due = cx.store.read(move |tx| lockdowns::due(tx, now)).await?;
    let mut ended = 0;
    for (server, lockdown) in due {
        if end(cx, &server, &lockdown, EXPIRED).await?.is_some() {
            ended += 1;
        }
    }
    Ok(ended)
}

/// Writes a lockdown's webhook event (when wanted) and log entry (to
/// `logging.moderation`, else the mod-log, when set) in `tx`.
fn announce(
    tx: &crate::store::Tx<'_>,
    server_id: &str,
    lockdown: &Lockdown,
    started: bool,
    now: i64,
) -> Result<(), StoreError> {
    let kind = if started {
        WebhookEvent::LockdownStarted
    } else {
        WebhookEvent::LockdownEnded
    };
    let data = LockdownEvent {
        lockdown: lockdown.clone(),
    };
    webhook_events::enqueue(tx, server_id, kind, &data, now)?;
    let sections = config::load(tx, server_id)?.sections;
    if let Some(channel) = crate::logs::moderation_channel(&sections) {
        let entry = LogEntry::Lockdown(LockdownLog {
            started,
            lockdown: lockdown.clone(),
        });
        crate::logs::write(tx, server_id, channel, &entry, now)?;
    }
    Ok(())
}

/// Handles one event: a server join counted, perhaps starting a lockdown,
/// and a joiner during a lockdown held until its end.
pub async fn handle(cx: &Context, event: &Event) {
    let EventKind::MemberJoined(joined) = &event.kind else {
        return;
    };
    if joined.channel_id.is_some() || joined.member.is_bot {
        return;
    }
    let server = event.server_id.as_ref();
    if let Some(id) = &event.id
        && !lock(&cx.shared.recent).first_time(server, id)
    {
        return;
    }
    match cx.running(server).await {
        // Its time is up: not held, though the worker has not ended it yet.
        Ok(Some(lockdown)) if lockdown.ends_at <= cx.clock.now() => return,
        Ok(Some(lockdown)) => {
            hold(
                cx,
                event.platform,
                server,
                lockdown,
                vec![joined.member.id.clone()],
            )
            .await;
            return;
        }
        Ok(None) => {}
        Err(e) => {
            tracing::warn!(server, error = %e, "lockdown: cannot tell whether one runs; join not counted");
            return;
        }
    }
    let config = match cx.live.get(server).await {
        Ok(config) => config,
        Err(e) => {
            tracing::warn!(server, error = %e, "lockdown: cannot read the config; join not counted");
            return;
        }
    };
    let antinuke = &config.sections.antinuke;
    let (true, Some(limit)) = (antinuke.enabled, antinuke.max_joins_per_minute) else {
        return;
    };
    let crossed = lock(&cx.shared.window).record(server, &joined.member.id, cx.clock.now(), limit);
    let Some(joiners) = crossed else {
        return;
    };
    let why = format!(
        "{} members joined within a minute (antinuke.max_joins_per_minute: {limit})",
        joiners.len()
    );
    match start(cx, server, antinuke.lockdown_minutes, AUTOMATIC, why).await {
        // The joins that crossed the limit are the raid's first: held too.
        Ok(Started::Started(lockdown)) => hold(cx, event.platform, server, lockdown, joiners).await,
        Ok(Started::AlreadyRunning(lockdown)) => {
            hold(cx, event.platform, server, lockdown, joiners).await
        }
        Err(e) => tracing::error!(server, error = %e, "lockdown: cannot start one"),
    }
}

/// Holds `members` (timed out, restricted) until `lockdown`'s end, in a task
/// tracked as in-flight work, once a holding permit is free.
async fn hold(
    cx: &Context,
    platform: Platform,
    server: &str,
    lockdown: Lockdown,
    members: Vec<String>,
) {
    if behaviour::steps(platform, Phase::Join).is_empty() {
        return;
    }
    let Ok(permit) = cx.shared.holding.clone().acquire_owned().await else {
        return;
    };
    let (cx, server) = (cx.clone(), server.to_owned());
    cx.in_flight.clone().spawn(async move {
        let _permit = permit;
        let bot = match cx.bot(&server).await {
            Ok(Some(bot)) => bot,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(server, error = %e, "lockdown: cannot read the connection; joiners not held");
                return;
            }
        };
        let (mut held, mut failed) = (0, 0);
        for member in &members {
            let now = cx.clock.now();
            match behaviour::carry_phase(Phase::Join, &bot, &lockdown, Some(member), now).await {
                Some((_, true)) => held += 1,
                Some((why, false)) => {
                    tracing::warn!(server, member, why, "lockdown: joiner not held");
                    failed += 1;
                }
                None => {}
            }
        }
        let id = lockdown.id;
        let counted = cx
            .store
            .write(move |tx| lockdowns::count_members(tx, id, held, failed))
            .await;
        if let Err(e) = counted {
            tracing::warn!(server, error = %e, "lockdown: joiners held but not counted");
        }
    });
}

/// The lockdown consumer, bound to the daemon's parts when it starts
/// serving (like automod's: the state is built in steps, and it must run
/// with the clock and platform settings the daemon serves with).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    cx: Arc<std::sync::OnceLock<Context>>,
}

impl Slot {
    /// Binds the consumer to `cx`; later calls change nothing.
    pub fn bind(&self, cx: Context) {
        let _ = self.cx.set(cx);
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        if let Some(cx) = self.cx.get() {
            handle(cx, &event).await;
        }
    }
}
