//! The transports: receiving what happens on the platforms the way a bot
//! does, and publishing it, decoded by [`crate::events::decode`], to the
//! event path's consumers ([`crate::events::Fanout`]). A transport keeps its
//! connection alive, verifies what it is sent and remembers where it is;
//! what a payload means is the decoders', what to do about it the
//! consumers'.
//!
//! - [`gateway`]: a Discord gateway session per bot token, shared by the
//!   guilds connected with that token (twilight-gateway: heartbeats,
//!   identify, resume and reconnect).
//! - [`telegram`]: `getUpdates` long polling per bot token, the default (it
//!   works behind NAT); a bot with a group connected with a public URL gets
//!   one webhook for all its groups instead, registered here with
//!   `setWebhook` (Telegram keeps one per bot: never a poller and a webhook
//!   for one token).
//! - [`hooks`]: the HTTP endpoints the platforms post to, outside `/api/v1`
//!   and without an API key: `POST /hooks/slack/events` (signed with the
//!   Slack app's signing secret) and `POST /hooks/telegram/{server_id}`
//!   (checked with the webhook's secret token).
//!
//! Which sessions run follows the stored connections: [`reconcile`] starts a
//! session for each bot token that has none, gives running sessions their
//! current servers, and stops sessions no connection uses any more. The
//! receivers' loop ([`crate::workers`]) runs it at start-up and then every
//! minute, so `modctld server connect` takes effect on a running daemon;
//! tests call it themselves. Sessions stop with the server ([`Receivers::stop`]).
//!
//! Each bot has one owner ([`crate::coordination::SessionOwnership`]): a
//! session starts, and a Telegram webhook is registered, only once its bot
//! is owned, and the ownership is held as long as the session runs or the
//! webhook serves the bot. In one daemon it is always granted.

pub mod gateway;
pub mod hooks;
pub mod telegram;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, watch};
use tokio::task::JoinHandle;

use crate::AppState;
use crate::coordination::{Held, SessionKey};
use crate::events::{Event, Fanout};
use crate::platform::Updates;
use crate::platform::receive::{Delivery, delivery};
use crate::store::StoreError;
use crate::store::receivers::{self, LiveConnection};

/// How long a session waits after a failure it cannot fix itself (a refused
/// token, an unreachable platform) before trying again.
pub const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(30);

/// The running receivers of a daemon; cheap to clone.
#[derive(Clone)]
pub struct Receivers {
    inner: Arc<Inner>,
}

struct Inner {
    events: Fanout,
    /// Whether the workers start the receivers' loop (tests drive
    /// [`reconcile`] themselves).
    autostart: bool,
    running: Mutex<Running>,
}

impl std::fmt::Debug for Receivers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receivers")
            .field("autostart", &self.inner.autostart)
            .finish_non_exhaustive()
    }
}

/// A bot, as far as sessions go: the same token at the same API is one
/// session, whatever number of servers it serves.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Bot {
    delivery: Delivery,
    api_base: Option<String>,
    token: String,
}

#[derive(Default)]
struct Running {
    sessions: HashMap<Bot, Session>,
    /// Telegram webhooks registered by this process: bot → URL and secret
    /// token (a new secret, from connecting the group again, is registered
    /// again even when the URL is the same).
    webhooks: BTreeMap<Bot, (String, String)>,
    /// The ownership of each bot served by a webhook, held while it is.
    hook_owners: BTreeMap<Bot, Held>,
    stopped: bool,
}

impl Bot {
    /// The session's name for its owners: a hash, never the token.
    fn session_key(&self) -> SessionKey {
        let kind = match self.delivery {
            Delivery::Gateway => "gateway",
            // A Telegram bot's poller and webhook are one session: a bot
            // has either.
            Delivery::Updates => "updates",
            Delivery::Pushed => "pushed",
        };
        SessionKey::new(
            kind,
            self.api_base.as_deref().unwrap_or_default(),
            &self.token,
        )
    }
}

/// A running session: its task, the servers it publishes events of, its stop, and
/// its bot's ownership (let go once the task ended).
struct Session {
    servers: watch::Sender<BTreeSet<String>>,
    /// What the session's task says it is doing, for `GET /metrics`.
    status: Arc<SessionStatus>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
    _owner: Held,
}

/// What a session task gets.
#[derive(Clone)]
pub struct SessionContext {
    /// The daemon (store, clock, HTTP clients).
    pub state: AppState,
    /// Where events go.
    pub events: Fanout,
    /// The bot token.
    pub token: String,
    /// The platform's API base other than its public one.
    pub api_base: Option<String>,
    /// The servers the session publishes events of (updated while it runs).
    pub servers: watch::Receiver<BTreeSet<String>>,
    /// Where the session says what it is doing ([`Receivers::census`]).
    pub status: Arc<SessionStatus>,
}

/// What a session is doing, as its task last said: `starting` (finding
/// the gateway, deleting a webhook), `running` (shards started, or the last
/// poll answered), `retrying` (it failed and waits [`RETRY_AFTER_FAILURE`]).
#[derive(Debug, Default)]
pub struct SessionStatus(std::sync::atomic::AtomicU8);

/// The states of [`SessionStatus`], by name.
pub const SESSION_STATES: [&str; 3] = ["starting", "running", "retrying"];

impl SessionStatus {
    /// Sets the state: an index of [`SESSION_STATES`].
    fn set(&self, state: usize) {
        self.0
            .store(state as u8, std::sync::atomic::Ordering::Relaxed);
    }

    /// The session started its work (shards, or a poll answered).
    pub fn running(&self) {
        self.set(1);
    }

    /// The session failed and waits before starting again.
    pub fn retrying(&self) {
        self.set(2);
    }

    fn name(&self) -> &'static str {
        SESSION_STATES[usize::from(self.0.load(std::sync::atomic::Ordering::Relaxed)).min(2)]
    }
}

/// The sessions of one kind in one state ([`Receivers::census`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCount {
    /// `discord_gateway`, `telegram_polling` or `telegram_webhook`.
    pub kind: &'static str,
    /// One of [`SESSION_STATES`] (a webhook is always `running`).
    pub state: &'static str,
    /// How many.
    pub sessions: usize,
}

impl std::fmt::Debug for SessionContext {
    // Never prints the token.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionContext")
            .field("api_base", &self.api_base)
            .field("servers", &*self.servers.borrow())
            .finish_non_exhaustive()
    }
}

impl SessionContext {
    /// Publishes `event` if it belongs to a server of this session.
    pub fn publish(&self, event: Event) -> bool {
        let ours = self.servers.borrow().contains(&*event.server_id);
        if ours {
            self.events.publish(event);
        }
        ours
    }

    /// The servers now.
    pub fn servers(&self) -> Vec<String> {
        self.servers.borrow().iter().cloned().collect()
    }
}

impl Receivers {
    /// Receivers publishing events to `events`; `autostart` says whether
    /// the workers run [`reconcile`] in a loop.
    pub fn new(events: Fanout, autostart: bool) -> Receivers {
        Receivers {
            inner: Arc::new(Inner {
                events,
                autostart,
                running: Mutex::new(Running::default()),
            }),
        }
    }

    /// Whether the workers run the receivers' loop.
    pub fn autostart(&self) -> bool {
        self.inner.autostart
    }

    /// Where events go.
    pub fn events(&self) -> &Fanout {
        &self.inner.events
    }

    /// How many sessions of each kind are in each state, every pair listed
    /// (zeros included, so a series does not vanish when it falls to 0).
    pub async fn census(&self) -> Vec<SessionCount> {
        let running = self.inner.running.lock().await;
        let mut counts = Vec::new();
        for (kind, delivery) in [
            ("discord_gateway", Delivery::Gateway),
            ("telegram_polling", Delivery::Updates),
        ] {
            for state in SESSION_STATES {
                let sessions = running
                    .sessions
                    .iter()
                    .filter(|(bot, session)| {
                        bot.delivery == delivery && session.status.name() == state
                    })
                    .count();
                counts.push(SessionCount {
                    kind,
                    state,
                    sessions,
                });
            }
        }
        counts.push(SessionCount {
            kind: "telegram_webhook",
            state: "running",
            sessions: running.hook_owners.len(),
        });
        counts
    }

    /// Stops every session (waiting for each to end) and refuses to start
    /// new ones: the server is stopping.
    pub async fn stop(&self) {
        let sessions = {
            let mut running = self.inner.running.lock().await;
            running.stopped = true;
            running.hook_owners.clear();
            std::mem::take(&mut running.sessions)
        };
        for (_, session) in sessions {
            session.end().await;
        }
    }
}

impl Session {
    async fn end(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// Starts, updates and stops sessions to match the stored connections;
/// returns how many sessions run.
pub async fn reconcile(state: &AppState) -> Result<usize, StoreError> {
    let secrets = state.store.secrets().clone();
    let live = state
        .store
        .read(move |tx| receivers::live_connections(tx, &secrets))
        .await?;

    let mut wanted: BTreeMap<Bot, BTreeSet<String>> = BTreeMap::new();
    // Telegram keeps one webhook URL per bot, and `getUpdates` does not
    // work while one is set (setWebhook, getUpdates in the Bot API
    // reference): every group of a token is served by one webhook or by one
    // poller, never both, so the groups are gathered by bot first.
    let mut telegram_bots: BTreeMap<Bot, Vec<LiveConnection>> = BTreeMap::new();
    for connection in live {
        let delivery = delivery(connection.platform);
        let bot = Bot {
            delivery,
            api_base: connection.api_base.clone(),
            token: connection.token.clone(),
        };
        match delivery {
            Delivery::Gateway => {
                wanted.entry(bot).or_default().insert(connection.server_id);
            }
            Delivery::Updates => telegram_bots.entry(bot).or_default().push(connection),
            Delivery::Pushed => {}
        }
    }
    let mut webhooks = Vec::new();
    for (bot, groups) in telegram_bots {
        match webhook_of(&groups) {
            Some(hook) => webhooks.push((bot, hook)),
            None => {
                wanted.insert(bot, groups.into_iter().map(|c| c.server_id).collect());
            }
        }
    }

    let receivers = &state.receivers;
    let mut running = receivers.inner.running.lock().await;
    if running.stopped {
        return Ok(0);
    }
    let gone: Vec<Bot> = running
        .sessions
        .keys()
        .filter(|bot| !wanted.contains_key(*bot))
        .cloned()
        .collect();
    for bot in gone {
        if let Some(session) = running.sessions.remove(&bot) {
            session.end().await;
        }
    }
    // A bot that polls now forgets its webhook (its poller deleted it), so
    // that going back to a webhook registers it again; it lets go of the
    // webhook's ownership before its poller asks for it.
    let hooked: BTreeSet<Bot> = webhooks.iter().map(|(bot, _)| bot.clone()).collect();
    running.webhooks.retain(|bot, _| hooked.contains(bot));
    running.hook_owners.retain(|bot, _| hooked.contains(bot));
    for (bot, servers) in wanted {
        if let Some(session) = running.sessions.get(&bot) {
            session.servers.send_if_modified(|current| {
                let changed = *current != servers;
                *current = servers.clone();
                changed
            });
            continue;
        }
        let Some(owner) = state
            .coordination
            .sessions
            .acquire(&bot.session_key())
            .await
        else {
            tracing::debug!(servers = ?servers, "a platform session is owned elsewhere; not started here");
            continue;
        };
        let (servers_tx, servers_rx) = watch::channel(servers);
        let (stop_tx, stop_rx) = watch::channel(false);
        let status = Arc::new(SessionStatus::default());
        let context = SessionContext {
            state: state.clone(),
            events: receivers.inner.events.clone(),
            token: bot.token.clone(),
            api_base: bot.api_base.clone(),
            servers: servers_rx,
            status: status.clone(),
        };
        let task = match bot.delivery {
            Delivery::Gateway => tokio::spawn(gateway::run(context, stop_rx)),
            Delivery::Updates | Delivery::Pushed => tokio::spawn(telegram::run(context, stop_rx)),
        };
        running.sessions.insert(
            bot,
            Session {
                servers: servers_tx,
                status,
                stop: stop_tx,
                task,
                _owner: owner,
            },
        );
    }
    for (bot, hook) in webhooks {
        if !running.hook_owners.contains_key(&bot) {
            let Some(owner) = state
                .coordination
                .sessions
                .acquire(&bot.session_key())
                .await
            else {
                tracing::debug!(server = %hook.server_id, "a Telegram webhook is owned elsewhere; not registered here");
                continue;
            };
            running.hook_owners.insert(bot.clone(), owner);
        }
        register_webhook(state, &mut running.webhooks, bot, hook).await;
    }
    Ok(running.sessions.len())
}

/// The webhook serving every group of one Telegram bot: the one of its
/// first group (by id) connected with a webhook URL, so the choice is the
/// same on every reconcile and after a restart. `None`: no group asked for a
/// webhook, the bot polls.
///
/// A bot with a webhook group and a polled group is served by the webhook
/// for both: the operator asked for a webhook, and a poller would remove it
/// (`getUpdates` needs `deleteWebhook` first).
pub fn webhook_of(groups: &[LiveConnection]) -> Option<LiveConnection> {
    groups
        .iter()
        .filter(|c| c.receiving.hook_url.is_some() && c.receiving.hook_secret.is_some())
        .min_by(|a, b| a.server_id.cmp(&b.server_id))
        .cloned()
}

/// Registers a bot's Telegram webhook with `setWebhook`, once per process,
/// URL and secret (Telegram keeps it; a failure is tried again at the next
/// reconcile). A second `setWebhook` replaces the first, so a bot has one.
async fn register_webhook(
    state: &AppState,
    registered: &mut BTreeMap<Bot, (String, String)>,
    bot: Bot,
    connection: LiveConnection,
) {
    let (Some(base), Some(secret)) = (
        connection.receiving.hook_url.as_deref(),
        connection.receiving.hook_secret.as_deref(),
    ) else {
        return;
    };
    let url = hooks::telegram_hook_url(base, &connection.server_id);
    let wanted = (url.clone(), secret.to_owned());
    if registered.get(&bot) == Some(&wanted) {
        return;
    }
    let adapter = crate::platform::telegram::Telegram::new(
        state.platforms.clone(),
        connection.api_base.clone(),
        connection.token.clone(),
        &connection.server_id,
    );
    match adapter.set_webhook(&url, secret).await {
        Ok(()) => {
            tracing::info!(server = %connection.server_id, %url, "Telegram webhook registered for every group of the bot");
            registered.insert(bot, wanted);
        }
        Err(e) => tracing::warn!(
            server = %connection.server_id,
            error = %e,
            "cannot register the Telegram webhook; trying again at the next check"
        ),
    }
}

/// Sleeps `duration`, or less if `stop` turns true; whether to stop.
pub(crate) async fn pause(duration: Duration, stop: &mut watch::Receiver<bool>) -> bool {
    if *stop.borrow() {
        return true;
    }
    tokio::select! {
        _ = tokio::time::sleep(duration) => *stop.borrow(),
        _ = stop.changed() => true,
    }
}
