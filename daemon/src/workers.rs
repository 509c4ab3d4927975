//! Background work: the one place where the daemon does things nobody asked
//! for in a request.
//!
//! Each worker is a plain async `tick` (do what is due now, return how much
//! was done) plus a loop here that calls it on an interval. The loops start
//! and stop with the server ([`Workers::start`], [`Workers::stop`]); tests do
//! not wait for the loops: they set the [`crate::clock::Clock`] and call
//! [`tick`] (or one worker's tick) themselves.
//!
//! Workers today:
//! - **recovery** ([`crate::moderation::recovery`]): settles the cases a
//!   killed daemon left pending. At start-up its orphans are adopted, and
//!   their servers marked as settling, *before* the server accepts requests;
//!   afterwards it ticks rarely, for cases whose settling write failed.
//! - **jail expiry** ([`crate::moderation::expiry`]): releases timed jails
//!   whose end has come, each under its claim.
//! - **checkpoint** ([`checkpoint`]): copies the WAL back into the database
//!   every few seconds, so no request pays for it.
//! - **scheduled snapshots** ([`crate::snapshots::capture_due`]): captures
//!   the structure of servers whose `antinuke.snapshot_interval_hours` has
//!   passed since their last snapshot. It wakes every minute: the interval is
//!   counted in hours, and the decision is taken on the clock, not the timer.
//!   One tick at a time ([`crate::coordination::Coordination::scheduled_snapshots`]):
//!   a second waits for the first, then captures what is still due.
//! - **scheduled backups** ([`crate::backups::take_due`], only with `serve
//!   --backup-dir`): a consistent copy of the database when the newest
//!   backup is `--backup-every` old, decided on the clock from the backups'
//!   file names; the oldest past `--backup-keep` are deleted. A failure is
//!   logged and tried again a minute later.
//! - **restore** ([`crate::restore::run`]): carries out queued restore jobs
//!   and resumes the ones a restart interrupted. Woken at once when a job is
//!   accepted; stopping the server drops a job mid-item, exactly like a
//!   crash, and the next start resumes it.
//!
//! - **webhook delivery** ([`crate::webhooks::start_due`]): starts a run
//!   for each endpoint with due deliveries, and does not wait for them (one
//!   hung endpoint must not hold the others). It wakes every second, the
//!   first time a second after the start; each run holds its endpoint's
//!   claim, so a tick leaves alone the endpoints a slow earlier run still
//!   delivers to; when a delivery is due is decided
//!   on the clock, so tests move the clock and tick
//!   ([`crate::webhooks::deliver_due`] waits for the runs it starts).
//!   Stopping the workers interrupts the deliveries in flight; they stay due.
//!
//! - **activity flush** ([`crate::activity::flush`]): writes the activity
//!   the platform receivers buffered into the rollups, one transaction per
//!   interval (group commit). Tests record events and tick it.
//! - **activity retention** ([`crate::activity::prune`]): moves the insights'
//!   ranking totals to the year (and the month) ending today
//!   ([`crate::store::ranking`]),
//!   then deletes per-member rollups and remembered event ids older than the
//!   retention window; one tick at a time, like the snapshots.
//! - **activity receivers** ([`crate::receive::reconcile`]): starts the
//!   platform sessions (Discord gateway, Telegram polling) the stored
//!   connections need and stops the ones no longer needed; every minute, so
//!   a connection made on a running daemon takes effect; each session is
//!   owned ([`crate::coordination::SessionOwnership`]) while it runs. The
//!   sessions stop with the workers.
//!
//! - **log delivery** ([`crate::logs::deliver::start_due`]): posts what
//!   waits in the log channels' outbox, one run per channel under its
//!   claim, not waited for (a channel kept at its platform's pace must not
//!   hold the others); every second, so a log post follows its event within
//!   about a second plus the platform's pace. Stopping the workers drops
//!   the runs; what they had not posted stays in the outbox for the next
//!   start.
//! - **log retention** ([`crate::logs::deliver::purge_ended`]): deletes
//!   the log entries that failed (their channel gone) or were given up
//!   (malformed) a week ago; hourly, one tick at a time.
//! - **own invites** ([`crate::automation::invites::refresh_due`]): learns
//!   each connected server's own invites from its platform (for the
//!   servers that filter links), at start, every 10 minutes after, a minute
//!   after a failure; it looks every 30 s, deciding on the clock.
//! - **native rules** ([`crate::automation::native::sync`]): keeps each
//!   Discord server's `modctl: ` AutoMod rules in step with its `automod`
//!   config: at start-up, whenever a config change is committed
//!   ([`AppState::native_rules_wake`]), and every 30 s for what changed by
//!   other paths, failed, or is due a drift check; a claim per server
//!   ([`crate::coordination::Work::NativeRules`]).
//!
//! - **lockdown end** ([`crate::automation::lockdown::end_due`]): ends the
//!   raid lockdowns whose time is up (Discord's invites enabled again, the
//!   `lockdown_ended` event and log entry); every 5 s, deciding on the
//!   clock, so a lockdown running when the daemon stopped ends at the next
//!   start's first tick if its time passed meanwhile; first, it asks the
//!   platform for the start of a lockdown a stop cut short between its row
//!   and that request ([`crate::automation::lockdown::resume_starts`]).
//!
//! - **automod sweep** ([`crate::automation::automod::act::sweep`]): at
//!   start-up only, the automod hits a stopped or killed daemon left
//!   unsettled (the delete not recorded, the case not made) are read before
//!   any transport runs, then carried to their end in a task of their own;
//!   tests call [`automod_sweep`].
//!
//! - **verifications** ([`crate::automation::verify`]): kicks the new
//!   members whose `welcome.verify_within_minutes` have passed unverified
//!   (a case `source: verification`), and keeps Discord's verify messages
//!   posted; every 15 s, deciding on the clock. Single-daemon: two daemons
//!   would both try a kick, which the case's idempotency key makes one.
//!
//! - **name lookups** ([`crate::names::lookup::look_up_due`]): asks the
//!   platforms for the names the answers wanted and the events never
//!   carried, each server within its budget; every 2 s, so a name follows
//!   the answer that wanted it within seconds.
//!
//! What each worker claims is in [`crate::coordination`];
//! [`AppState::deliveries`] and [`AppState::expiry`] give the delivery and
//! expiry workers what they use.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::moderation::{self, ModerationResult};
use crate::{AppState, snapshots};

/// How often each worker wakes up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Intervals {
    /// Timed jails are checked for their end.
    pub jail_expiry: Duration,
    /// Pending cases without a task are looked for.
    pub recovery: Duration,
    /// The WAL is copied back into the database.
    pub checkpoint: Duration,
    /// Servers are checked for a scheduled snapshot that is due.
    pub snapshots: Duration,
    /// Unfinished restore jobs are looked for (a new job also wakes it).
    pub restore: Duration,
    /// Due webhook deliveries are looked for.
    pub webhooks: Duration,
    /// Log channels with entries waiting are looked for.
    pub logs: Duration,
    /// Failed and given-up log entries past their retention are purged.
    pub log_retention: Duration,
    /// Buffered activity is written (at most this much is lost in a crash).
    pub activity_flush: Duration,
    /// Activity older than the retention window is pruned.
    pub activity_retention: Duration,
    /// The activity receivers are matched to the stored connections.
    pub receivers: Duration,
    /// Discord servers are checked for native AutoMod rules to sync (a
    /// committed config change also wakes it).
    pub native_rules: Duration,
    /// Servers are checked for own invites to learn again.
    pub own_invites: Duration,
    /// Running lockdowns are checked for their end.
    pub lockdowns: Duration,
    /// Pending verifications are checked for their deadline, and Discord's
    /// verify messages for being there.
    pub verifications: Duration,
    /// The scheduled backups are checked for one due (`serve --backup-dir`).
    pub backups: Duration,
    /// The names wanted by answers are looked up.
    pub name_lookups: Duration,
}

impl Default for Intervals {
    fn default() -> Self {
        Intervals {
            jail_expiry: Duration::from_secs(15),
            recovery: Duration::from_secs(60),
            checkpoint: Duration::from_secs(5),
            snapshots: Duration::from_secs(60),
            restore: Duration::from_secs(30),
            webhooks: Duration::from_secs(1),
            logs: Duration::from_secs(1),
            // A week's retention: an hour late is nothing.
            log_retention: Duration::from_secs(3600),
            activity_flush: Duration::from_secs(2),
            // Old rows go a day at a time: small deletions, often.
            activity_retention: Duration::from_secs(300),
            receivers: Duration::from_secs(60),
            native_rules: Duration::from_secs(30),
            // When each server is due is decided on the clock
            // (`automation::invites::REFRESH`); this only looks.
            own_invites: Duration::from_secs(30),
            lockdowns: Duration::from_secs(5),
            // Deadlines are decided on the clock; a kick may come up to
            // this late.
            verifications: Duration::from_secs(15),
            // When one is due is decided on the clock, in minutes at least.
            backups: Duration::from_secs(60),
            // The budgets are counted on the clock; this only looks.
            name_lookups: Duration::from_secs(2),
        }
    }
}

/// What one [`tick`] of every worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ticked {
    /// Pending cases settled by recovery.
    pub recovered: usize,
    /// Timed jails ended.
    pub jails_ended: usize,
    /// WAL frames the checkpoint could not copy yet.
    pub wal_frames_behind: usize,
    /// Scheduled structure snapshots recorded.
    pub snapshots_captured: usize,
    /// Restore jobs run to their end.
    pub restore_jobs: usize,
    /// Webhook delivery attempts made.
    pub webhook_attempts: usize,
    /// Log entries posted to their channels.
    pub log_entries_posted: usize,
    /// Failed and given-up log entries purged after their retention.
    pub log_entries_purged: usize,
    /// Buffered activity events counted into the rollups.
    pub activity_flushed: usize,
    /// Activity rows older than the retention window deleted.
    pub activity_pruned: usize,
    /// Discord servers whose native AutoMod rules were synced.
    pub native_rules_synced: usize,
    /// Servers whose own invites were asked of their platform.
    pub own_invites_asked: usize,
    /// Raid lockdowns ended because their time was up.
    pub lockdowns_ended: usize,
    /// Members kicked for not verifying in time.
    pub unverified_kicked: usize,
    /// Discord verify messages posted (again).
    pub verify_prompts_posted: usize,
    /// Scheduled backups taken.
    pub backups_taken: usize,
    /// Names asked of the platforms.
    pub names_looked_up: usize,
}

/// Runs every worker once, in start-up order: what is due now gets done.
pub async fn tick(state: &AppState) -> ModerationResult<Ticked> {
    Ok(Ticked {
        recovered: moderation::recovery::settle_orphans(&state.moderation()).await?,
        jails_ended: moderation::expiry::release_due(&state.expiry()).await?,
        wal_frames_behind: checkpoint(state).await?,
        snapshots_captured: scheduled_snapshots(state).await?,
        restore_jobs: restore(state).await?,
        webhook_attempts: crate::webhooks::deliver_due(&state.deliveries()).await?,
        log_entries_posted: crate::logs::deliver::deliver_due(&state.log_delivery()).await?,
        log_entries_purged: log_retention(state).await?,
        activity_flushed: crate::activity::flush(&state.activity, &state.store, &state.clock)
            .await?,
        activity_pruned: retention(state).await?,
        own_invites_asked: own_invites(state).await?,
        native_rules_synced: native_rules(state).await?,
        lockdowns_ended: lockdowns(state).await?,
        verify_prompts_posted: verify_prompts(state).await?,
        unverified_kicked: verifications(state).await?,
        backups_taken: scheduled_backups(state).await?,
        names_looked_up: name_lookups(state).await?,
    })
}

/// The name lookups' tick ([`crate::names::lookup::look_up_due`]): the ids
/// the answers wanted, asked of their platforms within each server's
/// budget; answers how many were asked.
pub async fn name_lookups(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::names::lookup::look_up_due(&state.name_lookups()).await?)
}

/// The scheduled backups' tick ([`crate::backups::take_due`]): a backup when
/// the newest is `--backup-every` old; nothing without `--backup-dir`.
pub async fn scheduled_backups(state: &AppState) -> ModerationResult<usize> {
    let Some(backups) = state.backups() else {
        return Ok(0);
    };
    match crate::backups::take_due(&backups).await {
        Ok(taken) => Ok(usize::from(taken.is_some())),
        Err(crate::store::backup::BackupError::Store(e)) => Err(e.into()),
        // A full disk or a directory gone: said in the log each time, and
        // tried again at the next tick; nothing else stops for it.
        Err(e) => {
            tracing::error!(error = %e, "scheduled backup failed");
            Ok(0)
        }
    }
}

/// The lockdown worker's tick ([`crate::automation::lockdown::end_due`]):
/// ends the raid lockdowns whose time is up.
pub async fn lockdowns(state: &AppState) -> ModerationResult<usize> {
    use crate::automation::lockdown::{self, LockdownError};
    let cx = state.lockdowns();
    let store = |LockdownError::Store(e)| e.into();
    lockdown::resume_starts(&cx).await.map_err(store)?;
    lockdown::end_due(&cx).await.map_err(store)
}

/// The verification worker's kicks ([`crate::automation::verify::kick_due`]):
/// the members past their deadline, kicked with a case `source:
/// verification`.
pub async fn verifications(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::automation::verify::kick_due(&state.verifying()).await?)
}

/// Discord's verify messages kept ([`crate::automation::verify::keep_prompts`]).
pub async fn verify_prompts(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::automation::verify::keep_prompts(&state.verifying()).await?)
}

/// The own invites' tick ([`crate::automation::invites::refresh_due`]):
/// learns the invites of the servers that filter links and are due.
pub async fn own_invites(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::automation::invites::refresh_due(&state.own_invites()).await?)
}

/// The native AutoMod sync's tick ([`crate::automation::native::sync::sync_due`]):
/// the Discord servers whose config asks for other rules than last synced,
/// whose last sync failed, or whose rules are due a drift check.
pub async fn native_rules(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::automation::native::sync::sync_due(&state.native_rules()).await?)
}

/// The automod sweep ([`crate::automation::automod::act::sweep`]): settles
/// the hits left unsettled; answers how many messages it finished. Run at
/// start-up by [`Workers::start`]; not part of [`tick`], since a hit being
/// acted on in this daemon is unsettled too.
pub async fn automod_sweep(state: &AppState) -> ModerationResult<usize> {
    let claims = state.coordination.work.clone();
    Ok(crate::automation::automod::act::sweep::sweep(&state.moderation(), claims.as_ref()).await?)
}

/// The scheduled snapshots' tick: captures what is due
/// ([`snapshots::capture_due`]), one tick at a time (a second waits for the
/// first, then captures what is still due).
pub async fn scheduled_snapshots(state: &AppState) -> ModerationResult<usize> {
    let _tick = state.coordination.scheduled_snapshots.hold().await;
    Ok(snapshots::capture_due(&state.snapshots()).await?)
}

/// The activity retention's tick ([`crate::activity::prune`]), one at a
/// time like the snapshots'.
pub async fn retention(state: &AppState) -> ModerationResult<usize> {
    let _tick = state.coordination.retention.hold().await;
    Ok(crate::activity::prune(&state.store, &state.clock).await?)
}

/// The log retention's tick ([`crate::logs::deliver::purge_ended`]):
/// deletes the failed and given-up log entries older than
/// [`crate::logs::deliver::RETENTION`]; one at a time like the activity's.
pub async fn log_retention(state: &AppState) -> ModerationResult<usize> {
    let _tick = state.coordination.retention.hold().await;
    Ok(crate::logs::deliver::purge_ended(&state.store, &state.clock).await?)
}

/// The checkpoint worker's tick: copies the WAL back into the database, off
/// the writer's and the readers' time (see [`crate::store::Store::checkpoint`]).
/// Returns the frames it could not copy yet (readers still need them).
pub async fn checkpoint(state: &AppState) -> ModerationResult<usize> {
    let done = state.store.checkpoint().await?;
    Ok(done.behind())
}

/// The restore worker's tick: runs every unfinished restore job to its end
/// (waiting for a run under way first); returns how many it ran.
pub async fn restore(state: &AppState) -> ModerationResult<usize> {
    Ok(crate::restore::run::run_due(&state.restore()).await?)
}

/// The running workers of a server.
#[derive(Debug)]
pub struct Workers {
    stop: watch::Sender<bool>,
    loops: Vec<JoinHandle<()>>,
    receivers: crate::receive::Receivers,
    webhooks: crate::webhooks::Deliverer,
}

impl Workers {
    /// Adopts the cases a killed daemon left pending (so no request can race
    /// their settling), then starts every worker's loop.
    pub async fn start(state: &AppState) -> Workers {
        let cx = state.moderation();
        match moderation::recovery::adopt_orphans(&cx).await {
            Ok(orphans) if !orphans.is_empty() => {
                tracing::warn!(
                    count = orphans.len(),
                    "settling actions left pending by a daemon that stopped mid-call"
                );
                // Before the first request: requests naming these servers
                // wait for their settling, and `/ready` says not ready.
                state.settling.begin(&orphans);
                state.in_flight.spawn(async move {
                    // Past the shutdown deadline the rest stays pending for
                    // the next start.
                    let settling = moderation::recovery::settle_adopted(&cx, orphans);
                    let _ = moderation::until_abandoned(&cx.abandon, settling).await;
                });
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "cannot look for pending cases"),
        }
        // Read before the transports start (they start in the loops below,
        // and hooks with the server after this), so no hit of this run is
        // taken for one a stopped daemon left.
        let sweep = crate::automation::automod::act::sweep::adopt(&state.moderation()).await;
        match sweep {
            Ok(hits) if !hits.is_empty() => {
                tracing::warn!(
                    count = hits.len(),
                    "finishing automod hits left unsettled by a daemon that stopped while acting"
                );
                let (cx, claims) = (state.moderation(), state.coordination.work.clone());
                state.in_flight.spawn(async move {
                    // Start-up only: a single-daemon assumption (see
                    // `crate::coordination`'s table).
                    let settling =
                        crate::automation::automod::act::sweep::settle(&cx, claims.as_ref(), hits);
                    let _ = moderation::until_abandoned(&cx.abandon, settling).await;
                });
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "cannot look for unsettled automod hits"),
        }

        let (stop, stopped) = watch::channel(false);
        let intervals = state.worker_intervals;
        let mut loops = vec![
            every(
                "jail expiry",
                Start::Now,
                intervals.jail_expiry,
                stopped.clone(),
                state.clone(),
                // Abandoned at the shutdown deadline: a release not recorded
                // is simply sent again by the next start's tick.
                |state| async move {
                    let expiry = state.expiry();
                    let releasing = moderation::expiry::release_due(&expiry);
                    moderation::until_abandoned(&state.abandon, releasing).await?
                },
            ),
            every(
                "recovery",
                Start::Now,
                intervals.recovery,
                stopped.clone(),
                state.clone(),
                // Abandoned at the shutdown deadline: its cases stay pending.
                |state| async move {
                    let cx = state.moderation();
                    let settling = moderation::recovery::settle_orphans(&cx);
                    moderation::until_abandoned(&cx.abandon, settling).await?
                },
            ),
            every(
                "verifications",
                Start::Now,
                intervals.verifications,
                stopped.clone(),
                state.clone(),
                // Abandoned at the shutdown deadline: a kick's case stays
                // pending for recovery, its verification for the next tick.
                |state| async move {
                    let kicking = async {
                        Ok::<_, moderation::ModerationError>(
                            verify_prompts(&state).await? + verifications(&state).await?,
                        )
                    };
                    moderation::until_abandoned(&state.abandon, kicking).await?
                },
            ),
            every(
                "checkpoint",
                Start::Now,
                intervals.checkpoint,
                stopped.clone(),
                state.clone(),
                |state| async move { checkpoint(&state).await },
            ),
            every(
                "scheduled snapshots",
                Start::Now,
                intervals.snapshots,
                stopped.clone(),
                state.clone(),
                |state| async move { scheduled_snapshots(&state).await },
            ),
            every(
                "scheduled backups",
                Start::AfterInterval,
                intervals.backups,
                stopped.clone(),
                state.clone(),
                |state| async move { scheduled_backups(&state).await },
            ),
            every(
                "webhook delivery",
                Start::AfterInterval,
                intervals.webhooks,
                stopped.clone(),
                state.clone(),
                |state| async move { Ok(crate::webhooks::start_due(&state.deliveries()).await?.len()) },
            ),
            every(
                "log delivery",
                // Like the webhooks': tests drive it themselves.
                Start::AfterInterval,
                intervals.logs,
                stopped.clone(),
                state.clone(),
                |state| async move {
                    Ok(crate::logs::deliver::start_due(&state.log_delivery())
                        .await?
                        .len())
                },
            ),
            every(
                "activity flush",
                Start::Now,
                intervals.activity_flush,
                stopped.clone(),
                state.clone(),
                |state| async move {
                    Ok(crate::activity::flush(&state.activity, &state.store, &state.clock).await?)
                },
            ),
            every(
                "activity retention",
                Start::Now,
                intervals.activity_retention,
                stopped.clone(),
                state.clone(),
                |state| async move { retention(&state).await },
            ),
            every(
                "log retention",
                Start::Now,
                intervals.log_retention,
                stopped.clone(),
                state.clone(),
                |state| async move { log_retention(&state).await },
            ),
            woken(
                "restore",
                intervals.restore,
                state.restore_wake.clone(),
                stopped.clone(),
                state.clone(),
                |state| async move { restore(&state).await },
            ),
            every(
                "own invites",
                Start::Now,
                intervals.own_invites,
                stopped.clone(),
                state.clone(),
                |state| async move { own_invites(&state).await },
            ),
            every(
                "name lookups",
                // Tests drive it (`workers::name_lookups`).
                Start::AfterInterval,
                intervals.name_lookups,
                stopped.clone(),
                state.clone(),
                |state| async move { name_lookups(&state).await },
            ),
            every(
                "lockdown end",
                Start::Now,
                intervals.lockdowns,
                stopped.clone(),
                state.clone(),
                |state| async move { lockdowns(&state).await },
            ),
            woken(
                "native rules",
                intervals.native_rules,
                state.native_rules_wake.clone(),
                stopped.clone(),
                state.clone(),
                |state| async move { native_rules(&state).await },
            ),
        ];
        if state.receivers.autostart() {
            loops.push(every(
                "activity receivers",
                Start::Now,
                intervals.receivers,
                stopped,
                state.clone(),
                |state| async move { Ok(crate::receive::reconcile(&state).await?) },
            ));
        }
        Workers {
            stop,
            loops,
            receivers: state.receivers.clone(),
            webhooks: state.webhooks.clone(),
        }
    }

    /// Stops every loop, letting a tick under way finish first; the webhook
    /// deliveries in flight are interrupted (they stay due).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        for handle in self.loops {
            let _ = handle.await;
        }
        self.webhooks.stop().await;
        // Sessions started by the loop or by a test.
        self.receivers.stop().await;
    }
}

/// A loop that ticks now, then whenever `wake` is notified or `interval`
/// passes: the restore worker (woken when a job is accepted; on `stop` the
/// job under way is dropped where it is, its record says what it did, and
/// the next start resumes it) and the native AutoMod sync (woken when a
/// config change is committed).
fn woken<F, Fut>(
    name: &'static str,
    interval: Duration,
    wake: std::sync::Arc<tokio::sync::Notify>,
    mut stop: watch::Receiver<bool>,
    state: AppState,
    tick: F,
) -> JoinHandle<()>
where
    F: Fn(AppState) -> Fut + Send + 'static,
    Fut: Future<Output = ModerationResult<usize>> + Send,
{
    tokio::spawn(async move {
        loop {
            tokio::select! {
                result = tick(state.clone()) => match result {
                    Ok(0) => {}
                    Ok(done) => tracing::debug!(worker = name, done, "worker tick"),
                    Err(e) => tracing::error!(worker = name, error = %e, "worker tick failed"),
                },
                _ = stop.changed() => return,
            }
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = wake.notified() => {}
                _ = stop.changed() => return,
            }
        }
    })
}

/// When a loop's first tick comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// At once.
    Now,
    /// One interval after the start: for a worker whose tick starts work
    /// that tests drive themselves (webhook delivery), so that the loop never
    /// races them after a test daemon starts.
    AfterInterval,
}

/// Calls `tick` from `start` on and then every `interval`, until `stop`
/// turns true.
fn every<F, Fut>(
    name: &'static str,
    start: Start,
    interval: Duration,
    mut stop: watch::Receiver<bool>,
    state: AppState,
    tick: F,
) -> JoinHandle<()>
where
    F: Fn(AppState) -> Fut + Send + 'static,
    Fut: Future<Output = ModerationResult<usize>> + Send,
{
    tokio::spawn(async move {
        if start == Start::AfterInterval {
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = stop.changed() => return,
            }
        }
        loop {
            match tick(state.clone()).await {
                Ok(0) => {}
                Ok(done) => tracing::debug!(worker = name, done, "worker tick"),
                Err(e) => tracing::error!(worker = name, error = %e, "worker tick failed"),
            }
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = stop.changed() => return,
            }
        }
    })
}
