//! `modctld`: the modctl daemon.
//!
//! It serves the HTTP JSON API v1 under `/api/v1` over a SQLite store, and
//! carries the operator commands (`modctld team create`, `modctld key create`,
//! ...) that work on the same database file.
//!
//! Modules:
//! - [`api`]: the v1 routes and their handlers, one submodule per resource.
//! - [`auth`]: authentication and scope/server authorization as extractors,
//!   over a cache of keys and claims that is never stale.
//! - [`api_key`]: the key format, generation and verification.
//! - [`error`]: [`error::ApiError`], the one error type every response uses.
//! - [`extract`]: JSON/query/path extractors whose rejections use our error body.
//! - [`request_limits`]: request rate limits per key and per address (429).
//! - [`response`]: JSON response bodies, serialized into a buffer kept per thread.
//! - [`http`]: the HTTP server loop, with header, body and shutdown time limits.
//! - [`store`]: the SQLite store (one writer, a pool of readers, all off the
//!   async runtime) and its domain queries.
//! - [`moderation`]: moderation actions: validation, the platform behaviour
//!   table, cases, strikes, escalation, jails and their expiry.
//! - [`platform`]: the platform adapters (Discord, Telegram, Slack, simulator)
//!   behind one trait.
//! - [`receive`]: the transports: receiving events from the platforms the
//!   way a bot does (Discord gateway, Telegram polling, and the `/hooks`
//!   endpoints the platforms post to).
//! - [`events`]: the event path: one platform-neutral event model, the
//!   decoders of each platform's payloads into it, and the fan-out to the
//!   consumers (the activity counts, later the automation).
//! - [`snapshots`]: capturing structure snapshots (roles, channels,
//!   settings) from the platforms.
//! - [`restore`]: restoring a snapshot: the plan, and the durable job that
//!   carries it out.
//! - [`plans`]: the entitlements of each plan and the 402 refusal.
//! - [`onboarding`]: the setup checklist of a server, from its live state.
//! - [`operator`]: the command line of `modctld` (serve, migrate, teams, keys,
//!   servers, demo).
//! - [`clock`]: the one source of "now", which tests set and advance.
//! - [`activity`]: community activity from the platforms and batches,
//!   aggregated into daily rollups.
//! - [`workers`]: background work (recovery of interrupted actions, jail
//!   expiry, activity flushing), started and stopped with the server.
//!
//! Tests start the daemon in-process: [`router`] builds the app and [`serve`]
//! runs it on any listener, e.g. one bound to `127.0.0.1:0`.

pub mod activity;
pub mod api;
pub mod api_key;
pub mod auth;
pub mod automation;
pub mod backups;
pub mod client_address;
pub mod clock;
pub mod config;
pub mod coordination;
pub mod error;
pub mod events;
pub mod extract;
pub mod http;
pub mod live;
pub mod locale;
pub mod logs;
pub mod metrics;
pub mod moderation;
pub mod names;
pub mod onboarding;
pub mod operator;
pub mod plans;
pub mod platform;
pub mod receive;
pub mod request_id;
pub mod request_limits;
pub mod response;
pub mod restore;
pub mod servers;
pub mod snapshots;
#[cfg(test)]
mod source_rules;
pub mod store;
pub mod sync;
pub mod webhooks;
pub mod workers;

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, OriginalUri, Request};
use axum::http::{Method, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::Notify;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::auth::AuthCache;
use crate::clock::Clock;
use crate::coordination::Coordination;
use crate::error::ApiError;
use crate::http::HttpLimits;
use crate::platform::{PlatformClients, RetryPolicy};
use crate::store::Store;
use crate::workers::{Intervals, Workers};

/// State shared by every request and worker; cheap to clone.
///
/// It is wiring: the ways in (`api`, `workers`, `operator`, `receive`, the
/// extractors) hold it, and hand each domain module the part it uses (its
/// methods [`AppState::moderation`], [`AppState::restore`], ..., or single
/// fields); domain modules never name it (a test in `source_rules.rs`).
#[derive(Debug, Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// Keys and server claims as authentication last read them; never stale.
    pub auth_cache: AuthCache,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The HTTP client and retry policy of the platform adapters.
    pub platforms: PlatformClients,
    /// What assumes one daemon serves the database: member locks, the
    /// restore runner, work claims, session owners, request budgets, the
    /// change feed ([`coordination`]).
    pub coordination: Coordination,
    /// The servers whose actions left pending by a stopped daemon are being
    /// settled at start-up: their requests wait, and `/ready` is 503.
    pub settling: moderation::recovery::Settling,
    /// The tasks carrying out actions; the server waits for them when it
    /// stops, so an action whose client is gone still reaches its case.
    pub in_flight: TaskTracker,
    /// Cancelled when the shutdown deadline has passed since the daemon was
    /// asked to stop: actions and recovery still talking to a platform stop
    /// where they are (their cases stay pending for the next start), so the
    /// deadline bounds the whole stop.
    pub abandon: CancellationToken,
    /// How often the background workers wake up.
    pub worker_intervals: Intervals,
    /// Scheduled backups (`serve --backup-dir`), if any.
    pub backup_schedule: Option<backups::Schedule>,
    /// Time limits of the HTTP server (slow clients, shutdown) and its
    /// connection caps.
    pub http_limits: HttpLimits,
    /// The proxies whose `X-Forwarded-For` names the client (see
    /// [`client_address`]).
    pub trusted_proxies: client_address::TrustedProxies,
    /// Wakes the restore worker when a job is accepted.
    pub restore_wake: Arc<Notify>,
    /// The webhook delivery client (see [`webhooks`]).
    pub webhooks: webhooks::Deliverer,
    /// Request rate limits (see [`request_limits`]).
    pub request_limits: request_limits::RequestLimits,
    /// The platforms' answers to the onboarding checks (see [`onboarding`]).
    pub onboarding: onboarding::FactsCache,
    /// Community activity received from the platforms, until the flush
    /// worker writes it (see [`activity`]).
    pub activity: activity::Ingestor,
    /// Batches posted to the API, waiting to be written together (see
    /// [`activity::batches`]).
    pub activity_batches: activity::batches::BatchQueue,
    /// The memory budget of those batches, from before a body is read
    /// until its batch is written (see [`activity::budget`]).
    pub activity_budget: activity::budget::BatchBudget,
    /// The consumers of the events received from the platforms, each with
    /// its own queue (see [`events`]).
    pub events: events::Fanout,
    /// The sessions receiving events from the platforms (see [`receive`]).
    pub receivers: receive::Receivers,
    /// Each server's automod, compiled once per config revision (see
    /// [`automation::automod`]).
    pub automod: Arc<automation::automod::Compiled>,
    /// Each server's config in memory, for what acts on every event (see
    /// [`automation::live`]).
    pub live_config: automation::live::LiveConfig,
    /// The log channels' event consumer (see [`automation::logs`]), kept to
    /// give it the clock a test sets.
    pub log_events: Arc<automation::logs::LogEvents>,
    /// The pace of the log channels' posts (see [`logs::deliver`]).
    pub log_pace: logs::deliver::Pace,
    /// Wakes the native AutoMod sync worker at once (a config change was
    /// committed; see [`automation::native::sync`]).
    pub native_rules_wake: Arc<Notify>,
    /// Automod's event consumer, bound to the daemon's parts when it starts
    /// serving (see [`automation::automod::act`]).
    pub automod_acting: automation::automod::act::Slot,
    /// The welcome consumer, bound to the daemon's parts when it starts
    /// serving (see [`automation::welcome`]).
    pub welcome: automation::welcome::Slot,
    /// The raid lockdowns' joins counted and running lockdowns known (see
    /// [`automation::lockdown`]).
    pub lockdown: Arc<automation::lockdown::Shared>,
    /// The lockdown event consumer, bound when the daemon starts serving.
    pub lockdown_acting: automation::lockdown::Slot,
    /// Antinuke's event consumer, bound to the daemon's parts when it
    /// starts serving (see [`automation::antinuke`]).
    pub antinuke: automation::antinuke::Slot,
    /// Verification's event consumer, bound likewise (see
    /// [`automation::verify`]).
    pub verify: automation::verify::Slot,
    /// What the parts count for `GET /metrics` (see [`metrics`]).
    pub metrics: metrics::Instruments,
    /// The live view's streams: their caps, and their end when the daemon
    /// stops (see [`live`]).
    pub live: live::Live,
    /// The names of members, channels and roles seen in the platforms'
    /// events, for the answers' `*_name` fields (see [`names`]).
    pub names: names::NameCache,
    /// Each server's budget of name lookups (see [`names::lookup`]).
    pub name_budgets: Arc<names::lookup::Budgets>,
}

impl AppState {
    /// State over an opened store, with the system clock and default
    /// platform settings.
    pub fn new(store: Store) -> Self {
        let activity = activity::Ingestor::default();
        let live_config = automation::live::LiveConfig::new(store.clone(), Clock::system());
        let log_events =
            automation::logs::LogEvents::new(store.clone(), live_config.clone(), Clock::system());
        let automod_acting = automation::automod::act::Slot::default();
        let welcome = automation::welcome::Slot::default();
        let lockdown_acting = automation::lockdown::Slot::default();
        let antinuke = automation::antinuke::Slot::default();
        let verify = automation::verify::Slot::default();
        let platforms = PlatformClients::new(RetryPolicy::default(), Clock::system());
        let coordination = Coordination::in_process(store.path());
        let names = names::NameCache::new(Clock::system());
        let events = events::Fanout::new(vec![
            Arc::new(activity::events::ActivityCounter::new(
                activity.clone(),
                store.clone(),
            )),
            log_events.clone(),
            Arc::new(automod_acting.clone()),
            Arc::new(welcome.clone()),
            Arc::new(lockdown_acting.clone()),
            Arc::new(antinuke.clone()),
            Arc::new(verify.clone()),
            Arc::new(automation::antinuke::guilds::GuildFeed::new(
                platforms.discord_guilds.clone(),
            )),
            Arc::new(live::JoinFeed::new(coordination.live.clone())),
            Arc::new(names::NameFeed::new(names.clone())),
        ]);
        AppState {
            auth_cache: AuthCache::new(coordination.changes.clone()),
            store,
            clock: Clock::system(),
            platforms,
            request_limits: request_limits::RequestLimits::on(coordination.budgets.clone()),
            coordination,
            settling: moderation::recovery::Settling::default(),
            in_flight: TaskTracker::new(),
            abandon: CancellationToken::new(),
            worker_intervals: Intervals::default(),
            backup_schedule: None,
            http_limits: HttpLimits::default(),
            trusted_proxies: client_address::TrustedProxies::default(),
            restore_wake: Arc::new(Notify::new()),
            webhooks: webhooks::Deliverer::new(webhooks::DeliveryOptions::default())
                .expect("the default delivery options build"),
            onboarding: onboarding::FactsCache::default(),
            activity: activity.clone(),
            activity_batches: activity::batches::BatchQueue::default(),
            activity_budget: activity::budget::BatchBudget::default(),
            receivers: receive::Receivers::new(events.clone(), true),
            events,
            automod: Arc::default(),
            live_config,
            log_events,
            log_pace: logs::deliver::Pace::default(),
            native_rules_wake: Arc::new(Notify::new()),
            automod_acting,
            welcome,
            lockdown: Arc::default(),
            lockdown_acting,
            antinuke,
            verify,
            metrics: metrics::Instruments::default(),
            live: live::Live::default(),
            names,
            name_budgets: Arc::default(),
        }
    }

    /// Adds `consumer` to the event path, after those already there (the
    /// automation, beside the activity counts). Call it before the
    /// receivers start.
    pub fn with_event_consumer(mut self, consumer: Arc<dyn events::Consumer>) -> Self {
        self.events = self.events.with(consumer);
        self.receivers = receive::Receivers::new(self.events.clone(), self.receivers.autostart());
        self
    }

    /// Whether the workers start the activity receivers' loop; when not,
    /// tests start them with [`receive::reconcile`].
    pub fn with_activity_receivers(mut self, autostart: bool) -> Self {
        self.receivers = receive::Receivers::new(self.events.clone(), autostart);
        self
    }

    /// Turns the request rate limits on or off (`modctld serve
    /// --no-rate-limits`; the e2e tests run without them unless they test them).
    pub fn with_rate_limits(mut self, on: bool) -> Self {
        self.request_limits = if on {
            request_limits::RequestLimits::on(self.coordination.budgets.clone())
        } else {
            request_limits::RequestLimits::off()
        };
        self
    }

    /// Reads time from `clock` (tests use a manual one).
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.platforms.clock = clock.clone();
        self.live_config = automation::live::LiveConfig::new(self.store.clone(), clock.clone());
        self.log_events
            .rewire(clock.clone(), self.live_config.clone());
        self.names.set_clock(clock.clone());
        self.clock = clock;
        self
    }

    /// Uses `retry` for platform calls (tests shorten the waits).
    pub fn with_retry_policy(mut self, retry: RetryPolicy) -> Self {
        self.platforms.retry = retry;
        self
    }

    /// Gives up on a platform request after `timeout` instead of
    /// [`platform::REQUEST_TIMEOUT`] (tests of platforms that never answer).
    pub fn with_platform_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.platforms = self.platforms.with_request_timeout(timeout);
        self
    }

    /// Wakes the background workers at these intervals.
    pub fn with_worker_intervals(mut self, intervals: Intervals) -> Self {
        self.worker_intervals = intervals;
        self
    }

    /// Takes backups on this schedule ([`backups`]).
    pub fn with_backups(mut self, schedule: backups::Schedule) -> Self {
        self.backup_schedule = Some(schedule);
        self
    }

    /// What the scheduled backups use, when there is a schedule.
    pub fn backups(&self) -> Option<backups::Backups> {
        Some(backups::Backups {
            store: self.store.clone(),
            clock: self.clock.clone(),
            schedule: self.backup_schedule.clone()?,
        })
    }

    /// Lets webhooks reach loopback, private and link-local addresses
    /// (`modctld serve --webhooks-allow-internal`; tests and the demo).
    pub fn with_webhooks_allow_internal(self, allow: bool) -> Self {
        let options = webhooks::DeliveryOptions {
            allow_internal: allow,
            ..webhooks::DeliveryOptions::default()
        };
        self.with_webhooks(
            webhooks::Deliverer::new(options).expect("delivery options without a proxy build"),
        )
    }

    /// Delivers webhooks with `deliverer` (`modctld serve`'s options; tests
    /// shorten the times).
    pub fn with_webhooks(mut self, deliverer: webhooks::Deliverer) -> Self {
        self.webhooks = deliverer;
        self
    }

    /// Uses `limits` for the HTTP server (tests shorten them).
    pub fn with_http_limits(mut self, limits: HttpLimits) -> Self {
        self.http_limits = limits;
        self
    }

    /// Bounds the activity batches in flight with `budget` (`modctld serve
    /// --batch-budget-mib`; tests use a small one).
    pub fn with_batch_budget(mut self, budget: activity::budget::BatchBudget) -> Self {
        self.activity_budget = budget;
        self
    }

    /// Believes `X-Forwarded-For` from these proxies (`modctld serve
    /// --trusted-proxy`).
    pub fn with_trusted_proxies(mut self, proxies: client_address::TrustedProxies) -> Self {
        self.trusted_proxies = proxies;
        self
    }
}

/// What each domain module is handed: the pieces of the state it uses, not
/// the state (see README, "The daemon's layers").
impl AppState {
    /// What moderation uses ([`moderation::perform`], recovery).
    pub fn moderation(&self) -> moderation::Context {
        moderation::Context {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            members: self.coordination.members.clone(),
            settling: self.settling.clone(),
            in_flight: self.in_flight.clone(),
            abandon: self.abandon.clone(),
        }
    }

    /// What verification uses ([`automation::verify`]).
    pub fn verifying(&self) -> automation::verify::Verifying {
        automation::verify::Verifying::new(
            self.live_config.clone(),
            self.moderation(),
            &self.verify,
        )
    }

    /// What automod's acting on events uses ([`automation::automod::act`]).
    pub fn automod_acting(&self) -> automation::automod::act::Acting {
        automation::automod::act::Acting::new(
            self.live_config.clone(),
            self.automod.clone(),
            self.moderation(),
            self.metrics.automod_hits.clone(),
        )
    }

    /// What greeting members who join uses ([`automation::welcome`]).
    pub fn welcoming(&self) -> automation::welcome::Welcoming {
        automation::welcome::Welcoming {
            live: self.live_config.clone(),
            store: self.store.clone(),
            platforms: self.platforms.clone(),
            clock: self.clock.clone(),
            lockdown: self.lockdowns(),
            in_flight: self.in_flight.clone(),
            abandon: self.abandon.clone(),
        }
    }

    /// What raid lockdowns use ([`automation::lockdown`]).
    pub fn lockdowns(&self) -> automation::lockdown::Context {
        automation::lockdown::Context {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            live: self.live_config.clone(),
            shared: self.lockdown.clone(),
            in_flight: self.in_flight.clone(),
            own_invites: self.automod.invites().clone(),
        }
    }

    /// What antinuke uses ([`automation::antinuke`]).
    pub fn antinuke(&self) -> automation::antinuke::Antinuke {
        automation::antinuke::Antinuke::new(
            self.live_config.clone(),
            self.moderation(),
            self.restore(),
        )
    }

    /// What restores use ([`restore::job`], [`restore::run`]).
    pub fn restore(&self) -> restore::Context {
        restore::Context {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            runner: self.coordination.restore_runner.clone(),
            wake: self.restore_wake.clone(),
            names: self.names.clone(),
        }
    }

    /// What structure snapshots use ([`snapshots::capture`]).
    pub fn snapshots(&self) -> snapshots::Context {
        snapshots::Context {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            outcomes: self.metrics.snapshots.clone(),
        }
    }

    /// What webhook delivery uses ([`webhooks::start_due`]), with the
    /// claims on endpoints.
    pub fn deliveries(&self) -> webhooks::Deliveries {
        webhooks::Deliveries {
            store: self.store.clone(),
            clock: self.clock.clone(),
            deliverer: self.webhooks.clone(),
            claims: self.coordination.work.clone(),
            outcomes: self.metrics.webhook_deliveries.clone(),
        }
    }

    /// What the log channels' delivery uses ([`logs::deliver::start_due`]),
    /// with the claims on channels.
    pub fn log_delivery(&self) -> logs::deliver::LogDelivery {
        logs::deliver::LogDelivery {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            claims: self.coordination.work.clone(),
            pace: self.log_pace.clone(),
            outcomes: self.metrics.log_posts.clone(),
        }
    }

    /// What ending timed jails uses ([`moderation::expiry::release_due`]),
    /// with the claims on jails.
    pub fn expiry(&self) -> moderation::expiry::Expiry {
        moderation::expiry::Expiry {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            members: self.coordination.members.clone(),
            claims: self.coordination.work.clone(),
        }
    }

    /// What the native AutoMod sync uses
    /// ([`automation::native::sync::sync_due`]).
    pub fn native_rules(&self) -> automation::native::sync::Syncer {
        automation::native::sync::Syncer {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            claims: self.coordination.work.clone(),
            invites: self.automod.invites().clone(),
        }
    }

    /// What learning the servers' own invites uses
    /// ([`automation::invites::refresh_due`]).
    pub fn own_invites(&self) -> automation::invites::Learning {
        automation::invites::Learning {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            cache: self.automod.invites().clone(),
        }
    }

    /// What `GET /metrics` reads: every part's instruments ([`metrics`]).
    pub fn metrics_parts(&self) -> metrics::Parts {
        metrics::Parts {
            store: self.store.clone(),
            receivers: self.receivers.clone(),
            http: self.metrics.http.clone(),
            platforms: self.platforms.metrics.clone(),
            hits: self.metrics.automod_hits.clone(),
            webhook_deliveries: self.metrics.webhook_deliveries.clone(),
            log_posts: self.metrics.log_posts.clone(),
            snapshots: self.metrics.snapshots.clone(),
            events: self.events.clone(),
            name_lookups: self.metrics.name_lookups.clone(),
        }
    }

    /// What the name lookups use ([`names::lookup::look_up_due`]).
    pub fn name_lookups(&self) -> names::lookup::Lookups {
        names::lookup::Lookups {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            names: self.names.clone(),
            budgets: self.name_budgets.clone(),
            counts: self.metrics.name_lookups.clone(),
        }
    }

    /// What the onboarding checklist uses ([`onboarding::checklist`]),
    /// with the cache of the platforms' answers ([`AppState::onboarding`]).
    pub fn checklist(&self) -> onboarding::Context {
        onboarding::Context {
            store: self.store.clone(),
            clock: self.clock.clone(),
            platforms: self.platforms.clone(),
            facts: self.onboarding.clone(),
            events_dropped: self.events.dropped(),
            invites: self.automod.invites().clone(),
            names: self.names.clone(),
        }
    }
}

/// The whole HTTP application: `/api/v1` plus JSON answers for everything
/// that matches no route.
pub fn router(state: AppState) -> Router {
    // The document half is built by `api::openapi::document` when it is asked for.
    let (api, _document) = api::routes().split_for_parts();
    let api = api
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(middleware::from_fn(record_route));
    Router::new()
        .nest("/api/v1", api)
        .nest(
            "/hooks",
            receive::hooks::routes().route_layer(middleware::from_fn(record_route)),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(extract::MAX_BODY_BYTES))
        .layer(middleware::from_fn(request_limits::headers))
        .layer(middleware::from_fn_with_state(
            state.metrics.http.clone(),
            json_errors_and_logging,
        ))
        .with_state(state)
}

/// Serves the app on `listener` until `shutdown` completes.
///
/// In order: the background [`workers`] start (first adopting the actions a
/// killed daemon left pending, so no request races their settling); requests
/// are served; on `shutdown` the requests in flight finish within the
/// shutdown deadline (see [`http::serve_http`]); then the actions they
/// started finish too, also those whose client is gone or whose request was
/// dropped at the deadline; then the workers stop.
///
/// The shutdown deadline, counted from `shutdown`, bounds all of it: when
/// it passes, [`AppState::abandon`] stops the actions and the recovery
/// still waiting for a platform, leaving their cases pending for the next
/// start, and the workers' loops stop at once.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    state.automod_acting.bind(state.automod_acting());
    state.welcome.bind(state.welcoming());
    state.lockdown_acting.bind(state.lockdowns());
    state.antinuke.bind(state.antinuke());
    state.verify.bind(state.verifying());
    let workers = Workers::start(&state).await;
    let hub = tokio::spawn(live::run_hub(
        state.store.clone(),
        state.coordination.changes.clone(),
        state.coordination.live.clone(),
        state.live.stopping.clone(),
    ));
    let (abandon, deadline) = (state.abandon.clone(), state.http_limits.shutdown_deadline);
    let stopping = state.live.stopping.clone();
    let shutdown = async move {
        shutdown.await;
        // Event streams end now, not at the deadline: they never finish
        // by themselves.
        stopping.cancel();
        tokio::spawn(async move {
            tokio::time::sleep(deadline).await;
            abandon.cancel();
        });
    };
    let result = http::serve_http(
        listener,
        router(state.clone()),
        state.http_limits,
        state.trusted_proxies.clone(),
        shutdown,
    )
    .await;
    state.live.stopping.cancel();
    let _ = hub.await;
    state.in_flight.close();
    state.in_flight.wait().await;
    if state.abandon.is_cancelled() {
        tracing::warn!(
            "shutdown deadline of {:?} passed: actions still being carried out were left pending; the next start settles them",
            state.http_limits.shutdown_deadline
        );
    }
    workers.stop().await;
    // What the transports handed the event path is handled, then what the
    // activity counts buffered since the last flush is written before the
    // daemon stops (a crash loses it; a clean stop does not).
    state.events.drain(EVENTS_DRAIN).await;
    // What the consumers started while draining (automod deleting and
    // recording what it caught) is in-flight work like an action: waited
    // for, and stopped where it is once the shutdown deadline has passed.
    state.in_flight.wait().await;
    if let Err(e) = activity::flush(&state.activity, &state.store, &state.clock).await {
        tracing::error!(error = %e, "cannot write the last activity buffer");
    }
    result
}

/// How long a stopping daemon waits for the event consumers to handle what
/// they were given.
const EVENTS_DRAIN: std::time::Duration = std::time::Duration::from_secs(5);

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no such endpoint `{}`: the API lives under /api/v1",
        uri.path()
    ))
}

async fn method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "method {method} is not allowed on `{}`; the Allow header lists the methods it takes",
        uri.path()
    ))
}

/// Names the matched route (the path template, `/servers/{id}/cases`) in
/// the request's span, for the log, and in the response for the metrics:
/// known only once the router has matched, inside the logging middleware.
async fn record_route(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(|route| MatchedRoute(route.as_str().into()));
    if let Some(MatchedRoute(route)) = &route {
        tracing::Span::current().record("route", &**route);
    }
    let mut response = next.run(request).await;
    if let Some(route) = route {
        response.extensions_mut().insert(route);
    }
    response
}

/// The route a request matched, carried out in its response's extensions.
#[derive(Debug, Clone)]
struct MatchedRoute(Arc<str>);

/// Logs every request (never its headers, which carry the key) in a span
/// holding its [`request_id`] (also sent back as `X-Request-Id` and in error
/// bodies), and makes sure no error leaves the daemon without our JSON
/// body, whatever produced it.
async fn json_errors_and_logging(
    axum::extract::State(measured): axum::extract::State<metrics::Http>,
    request: Request,
    next: Next,
) -> Response {
    use tracing::Instrument;
    let started = Instant::now();
    measured.in_flight.inc();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let id = request_id::generate();
    // `route` and `key_id` are filled in as they become known (the API's
    // router, authentication).
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        route = tracing::field::Empty,
        key_id = tracing::field::Empty,
    );
    let mut response = request_id::scope(id.clone(), next.run(request))
        .instrument(span.clone())
        .await;
    let status = response.status();
    measured.in_flight.dec();
    metrics::count_request(
        &measured,
        response
            .extensions()
            .get::<MatchedRoute>()
            .map(|MatchedRoute(route)| &**route),
        &method,
        status.as_u16(),
        started.elapsed(),
    );
    span.in_scope(|| {
        tracing::info!(%method, path, status = status.as_u16(), elapsed_ms = started.elapsed().as_millis() as u64, "request");
    });
    if let Ok(value) = header::HeaderValue::from_str(&id) {
        response.headers_mut().insert(request_id::HEADER, value);
    }

    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = status.canonical_reason().unwrap_or("error").to_lowercase();
        let mut body = modctl_types::ErrorBody::coded(
            modctl_types::ErrorCode::for_status(status.as_u16()),
            message,
        );
        body.request_id = Some(id.clone());
        let mut replaced = (status, axum::Json(body)).into_response();
        if let Some(value) = response.headers().get(request_id::HEADER) {
            replaced
                .headers_mut()
                .insert(request_id::HEADER, value.clone());
        }
        if let Some(allow) = response.headers().get(header::ALLOW) {
            replaced.headers_mut().insert(header::ALLOW, allow.clone());
        }
        return replaced;
    }
    response
}
