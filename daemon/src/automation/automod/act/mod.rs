//! Automod acting (issue #25): the event consumer that runs the filters on
//! every message a member sends and carries the hits out.
//!
//! # What happens to a message
//!
//! 1. **Check, in the consumer's task** (this module; no platform call, no
//!    store read in the steady state): the server's config from
//!    [`LiveConfig`], its compiled [`Automod`] from [`Compiled`], the
//!    author's facts from the event (bot, roles), and the filters,
//!    `duplicates` with its per-member history. Nothing caught: done.
//! 2. **Dispatch**: a caught message is acted on in a task of its own
//!    tracked by the daemon's in-flight work (a stopping daemon waits for it
//!    like for an API action, and abandons it at the shutdown deadline), so
//!    a slow platform never holds up the next events. At most
//!    [`MAX_ACTING`] such tasks run at once; the consumer waits for a free
//!    one *before* spawning, so a raid backs up into the fan-out's bounded
//!    queue, whose drops are counted, instead of into unbounded tasks.
//! 3. **Act** ([`hit`]): the author's rank ([`authors`]: the
//!    owner and members above the bot are never filtered), then each hit is
//!    claimed in the store, and only the delivery that claimed it deletes
//!    the message, logs it and opens the case (the API's durable path,
//!    source `automod`, actor `system:automod`, an idempotency key per
//!    (server, message, filter)).
//!
//! Discord native AutoMod executions ([`native`]) become hits and cases of
//! the daemon's own rules; the start-up sweep ([`sweep`]) finishes what a
//! crash cut short.
//!
//! # Edits
//!
//! An edit is checked like a new message by the stateless filters (an edit
//! that brings in a blocked word is caught), but not by `duplicates`: an
//! edit is not another message in a row. Its hit has the message's id, so a
//! message caught when sent and again when edited is one hit per filter,
//! acted on once.

pub mod authors;
pub(crate) mod hit;
pub mod native;
pub mod sweep;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use modctl_types::automod::FilterName;
use modctl_types::config::{FilterAction, Sections};
use modctl_types::moderation::Action;
use tokio::sync::Semaphore;

use self::authors::Authors;
pub use self::authors::{AUTHOR_CAPACITY, AUTHOR_TTL};
use self::hit::Work;
use self::native::{BLOCK_MESSAGE, Native};
use super::{Automod, Compiled, Duplicates, Hit, Verdict};
use crate::automation::live::LiveConfig;
use crate::clock::Clock;
use crate::events::{Consumer, Event, EventKind, Message};
use crate::moderation;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "automod";

/// Who automod's cases name as actor.
pub const ACTOR: &str = "system:automod";

/// The `key_id` of automod's idempotency keys: not an API key's id (those
/// are hex), so they never share a key.
pub const IDEMPOTENCY_KEY_ID: &str = "automod";

/// The window of a burst for the filters without one of their own (all but
/// `duplicates`, whose `window_seconds` it is): a member caught again by
/// the same filter within it is deleted without another case.
pub const BURST_WINDOW: Duration = Duration::from_secs(60);

/// Caught messages acted on at once. Each holds a few platform calls (a
/// rank look-up, a delete, a case with its DM): 64 of them keep any
/// platform at its pace (Discord lets a bot make 50 requests a second, and
/// deletes in one channel far fewer), so more would only wait inside the
/// platform clients' rate limits, each holding its message and a socket.
/// The waiting belongs in the fan-out's queue instead: bounded, and what it
/// cannot hold is dropped and counted where onboarding shows it.
pub const MAX_ACTING: usize = 64;

/// The burst window of `filter` under `config`, in seconds.
pub fn burst_window(filter: FilterName, config: &modctl_types::config::Automod) -> i64 {
    match filter {
        FilterName::Duplicates => i64::from(config.duplicates.window_seconds),
        _ => BURST_WINDOW.as_secs() as i64,
    }
}

/// The case action of a filter action (`None`: `delete`, no case).
pub fn case_action(action: FilterAction) -> Option<Action> {
    match action {
        FilterAction::Delete => None,
        FilterAction::Warn => Some(Action::Warn),
        FilterAction::Timeout => Some(Action::Timeout),
        FilterAction::Kick => Some(Action::Kick),
        FilterAction::Ban => Some(Action::Ban),
    }
}

/// The case's reason: the filter and what matched, within the 512
/// characters a reason may have.
pub fn reason(hit: &Hit, native: bool) -> String {
    let by = if native {
        "automod (Discord native rule)"
    } else {
        "automod"
    };
    let normalized = hit
        .normalized
        .as_deref()
        .map(|n| format!(" (normalized: \"{}\")", super::shorten(n, 100)))
        .unwrap_or_default();
    format!(
        "{by}: {} matched \"{}\"{normalized}",
        hit.filter,
        super::shorten(&hit.matched, 300)
    )
}

/// What automod uses of the daemon.
#[derive(Debug, Clone)]
pub struct Acting {
    /// Each server's config in memory.
    pub live: LiveConfig,
    /// Each server's compiled automod.
    pub compiled: Arc<Compiled>,
    /// The members' recent messages, for `duplicates`.
    pub history: Arc<Duplicates>,
    /// The moderation path (store, clock, platforms, in-flight work).
    pub moderation: moderation::Context,
    /// What Discord said about authors' ranks.
    pub authors: Arc<Authors>,
    /// The caught messages that may be acted on at once ([`MAX_ACTING`]).
    pub permits: Arc<Semaphore>,
    /// The messages this daemon is deleting now ([`hit::Deleting`]).
    pub deleting: Arc<hit::Deleting>,
    /// Hits claimed by this daemon, by filter, for `GET /metrics`.
    pub hits: crate::metrics::Hits,
}

impl Acting {
    /// Automod over these parts of the daemon.
    pub fn new(
        live: LiveConfig,
        compiled: Arc<Compiled>,
        moderation: moderation::Context,
        hits: crate::metrics::Hits,
    ) -> Self {
        Acting {
            hits,
            live,
            compiled,
            history: Arc::default(),
            moderation,
            authors: Arc::default(),
            permits: Arc::new(Semaphore::new(MAX_ACTING)),
            deleting: Arc::default(),
        }
    }

    /// Runs `work` in a task of its own once a permit is free, waiting for
    /// it here (see [`MAX_ACTING`]).
    async fn dispatch(&self, work: impl Future<Output = ()> + Send + 'static) {
        let cx = &self.moderation;
        spawn_bounded(
            "automod's acting on a message",
            &self.permits,
            &cx.in_flight,
            cx.abandon.clone(),
            work,
        )
        .await;
    }
}

/// Spawns `work` into `tracker` holding one of `permits`, which is waited
/// for first, in the caller; at the shutdown deadline (`abandon`) the work
/// stops where it is (logged as `what`). Also welcome's.
pub(crate) async fn spawn_bounded(
    what: &'static str,
    permits: &Arc<Semaphore>,
    tracker: &tokio_util::task::TaskTracker,
    abandon: tokio_util::sync::CancellationToken,
    work: impl Future<Output = ()> + Send + 'static,
) {
    // The semaphore is never closed.
    let Ok(permit) = permits.clone().acquire_owned().await else {
        return;
    };
    tracker.spawn(async move {
        if moderation::until_abandoned(&abandon, work).await.is_err() {
            tracing::warn!("{what} was abandoned at the shutdown deadline");
        }
        drop(permit);
    });
}

#[async_trait]
impl Consumer for Acting {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let (message, edited) = match &event.kind {
            EventKind::MessageCreated(m) => (m, false),
            EventKind::MessageEdited(m) => (m, true),
            EventKind::AutoModAction(action) => {
                if action.action_type == BLOCK_MESSAGE {
                    let native = Native {
                        acting: self.clone(),
                        server_id: event.server_id.clone(),
                        event_id: event.id.clone(),
                        at: event.at,
                        action: action.clone(),
                    };
                    self.dispatch(native.run()).await;
                }
                return;
            }
            _ => return,
        };
        let Some((sections, hits)) = screen(
            &self.live,
            &self.compiled,
            &self.history,
            &self.moderation.clock,
            &event,
            message,
            edited,
        )
        .await
        else {
            return;
        };
        let work = Work {
            acting: self.clone(),
            sections,
            server_id: event.server_id.clone(),
            message: message.clone(),
            hits,
        };
        self.dispatch(work.run()).await;
    }
}

/// The automod consumer as the event path holds it from the start, bound to
/// the daemon's final parts when it starts serving ([`Slot::bind`]): the
/// state is built in steps (`AppState::with_clock`, `with_retry_policy`,
/// ...), and automod must act with the clock and platform settings the
/// daemon runs with, not those of the first step. Events before that are
/// not checked (no transport runs before it).
#[derive(Debug, Clone, Default)]
pub struct Slot {
    acting: Arc<std::sync::OnceLock<Acting>>,
}

impl Slot {
    /// Binds the consumer to `acting`; later calls change nothing.
    pub fn bind(&self, acting: Acting) {
        let _ = self.acting.set(acting);
    }
}

#[async_trait]
impl Consumer for Slot {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        if let Some(acting) = self.acting.get() {
            acting.handle(event).await;
        }
    }
}

/// The consumer's whole work on a message before anything is spawned: the
/// server's config from `live`, its compiled automod from `compiled`, and
/// the filters (`duplicates` with `history`, unless it is an edit). `None`:
/// nothing to act on (a bot's message, the config unreadable, nothing
/// caught). Public so that the bench measures this very work, not a copy.
pub async fn screen(
    live: &LiveConfig,
    compiled: &Compiled,
    history: &Duplicates,
    clock: &Clock,
    event: &Event,
    message: &Message,
    edited: bool,
) -> Option<(Arc<Sections>, Vec<Hit>)> {
    if message.author.is_bot {
        return None;
    }
    let snapshot = match live.get(&event.server_id).await {
        Ok(snapshot) => snapshot,
        Err(e) => {
            tracing::warn!(server = %event.server_id, error = %e, "automod could not read the server's config");
            return None;
        }
    };
    let automod = compiled.get(&event.server_id, snapshot.revision, || {
        // The server's own invites, as learned from its platform
        // (`automation::invites`): spared by the invite and link filters.
        (
            snapshot.sections.automod.clone(),
            compiled.own_invites(&event.server_id),
        )
    });
    let hits = check(&automod, event, message, edited, history, clock.now_unix());
    (!hits.is_empty()).then_some((snapshot.sections, hits))
}

/// The filters on one message: its hits (none when an exemption spared it).
fn check(
    automod: &Automod,
    event: &Event,
    message: &Message,
    edited: bool,
    history: &Duplicates,
    now: i64,
) -> Vec<Hit> {
    if !automod.any_enabled() {
        return Vec::new();
    }
    let mentions = &message.mentions;
    let count = mentions.user_ids.len() + mentions.role_ids.len() + mentions.usernames.len();
    let facts = super::Message {
        text: message.content.as_deref().unwrap_or_default(),
        channel_id: &message.channel_id,
        links: &message.links,
        mentions: u32::try_from(count).unwrap_or(u32::MAX),
        mentions_everyone: mentions.everyone,
    };
    let author = super::Author {
        id: &message.author.id,
        roles: &message.author.role_ids,
        is_bot: message.author.is_bot,
        is_owner: false,
        above_bot: false,
    };
    let verdict = if edited {
        automod.check(&facts, &author)
    } else {
        automod.check_with_history(&event.server_id, &facts, &author, history, now)
    };
    match verdict {
        Verdict::Hits(hits) => hits,
        Verdict::Spared(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_actions_map_to_case_actions_and_reasons_stay_short() {
        let table = [
            (FilterAction::Delete, None),
            (FilterAction::Warn, Some(Action::Warn)),
            (FilterAction::Timeout, Some(Action::Timeout)),
            (FilterAction::Kick, Some(Action::Kick)),
            (FilterAction::Ban, Some(Action::Ban)),
        ];
        for (filter, case) in table {
            assert_eq!(case_action(filter), case);
        }
        let hit = Hit {
            filter: FilterName::BlockedWords,
            matched: "x".repeat(2000),
            normalized: Some("y".repeat(2000)),
            action: FilterAction::Warn,
        };
        let reason = reason(&hit, false);
        assert!(reason.starts_with("automod: blocked_words matched \"xxx"));
        assert!(reason.chars().count() <= 512, "{}", reason.len());
    }

    #[test]
    fn bursts_use_the_filters_window() {
        let mut config = modctl_types::config::Automod::default();
        config.duplicates.window_seconds = 30;
        assert_eq!(burst_window(FilterName::Duplicates, &config), 30);
        assert_eq!(burst_window(FilterName::Caps, &config), 60);
    }

    /// The bound holds: with every permit's work stalled, the next dispatch
    /// waits in the caller (the consumer), and never more than the bound
    /// run at once.
    #[tokio::test]
    async fn no_more_than_the_bound_act_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        const BOUND: usize = 3;
        let permits = Arc::new(Semaphore::new(BOUND));
        let tracker = tokio_util::task::TaskTracker::new();
        let abandon = tokio_util::sync::CancellationToken::new();
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let stall = Arc::new(tokio::sync::Notify::new());
        let dispatched = Arc::new(AtomicUsize::new(0));
        let consumer = {
            let (permits, tracker, dispatched) =
                (permits.clone(), tracker.clone(), dispatched.clone());
            let (running, most, stall) = (running.clone(), most.clone(), stall.clone());
            tokio::spawn(async move {
                for _ in 0..10 {
                    let (running, most, stall) = (running.clone(), most.clone(), stall.clone());
                    spawn_bounded("test", &permits, &tracker, abandon.clone(), async move {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        stall.notified().await;
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await;
                    dispatched.fetch_add(1, Ordering::SeqCst);
                }
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(running.load(Ordering::SeqCst), BOUND);
        assert_eq!(
            dispatched.load(Ordering::SeqCst),
            BOUND,
            "the fourth waits in the consumer"
        );
        while !consumer.is_finished() || running.load(Ordering::SeqCst) > 0 {
            stall.notify_waiters();
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(dispatched.load(Ordering::SeqCst), 10);
        assert_eq!(most.load(Ordering::SeqCst), BOUND);
    }
}
