//! Test support: a real `modctld` on an ephemeral port over a temporary SQLite
//! file, plus seeding helpers that go through the daemon's own store code.
//!
//! The end-to-end tests of the SDK live in this crate's `tests/`. Tests of the
//! `modctl` binary live in `cli/tests/` and tests of the `modctld` binary in
//! `daemon/tests/`, because cargo only tells a package's own integration tests
//! where its binaries are (`CARGO_BIN_EXE_*`); both use this crate to start
//! the daemon.
//!
//! The daemon runs on its own multi-threaded runtime in its own thread, so a
//! test may be `async` (driving the SDK) or synchronous (running the CLI binary
//! and waiting for it) alike.

pub mod fakes;
pub mod restore;
pub mod webhooks;

use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;

use modctl_client::Client;
use modctl_types::{Plan, Platform, Scope, Server, Team};
use std::time::Duration;

use modctl_types::config::{AuditSource, SectionName};
use modctld::clock::Clock;
use modctld::http::HttpLimits;
use modctld::platform::RetryPolicy;
use modctld::platform::simulator;
use modctld::store::connections::{self, Connection, ConnectionMode};
use modctld::store::{Store, StoreError, config, keys, teams};
use modctld::webhooks::DeliveryOptions;
use modctld::{AppState, api_key, workers};
use tokio::net::TcpListener;
use tokio::runtime::Handle;
use tokio::sync::oneshot;

/// The HTTP limits of a [`TestDaemon`]: short, so the tests of slow clients
/// wait a second rather than the defaults' 10-30 s. (A kept-alive connection
/// idle for a second is closed too; clients then open a new one.)
pub const TEST_HTTP_LIMITS: HttpLimits = HttpLimits {
    header_read_timeout: Duration::from_secs(1),
    body_timeout: Duration::from_secs(1),
    shutdown_deadline: Duration::from_secs(1),
    write_timeout: Duration::from_secs(1),
    connections: modctld::http::ConnectionCaps::DEFAULT,
};

/// The production HTTP limits, but a daemon that stops within a second.
fn quick_shutdown() -> HttpLimits {
    HttpLimits {
        shutdown_deadline: Duration::from_secs(1),
        ..HttpLimits::default()
    }
}

/// The webhook options of most test daemons: as in production, but
/// internal addresses allowed (like `modctld serve --webhooks-allow-internal`)
/// to reach the test receivers on 127.0.0.1.
pub fn webhooks_to_localhost() -> DeliveryOptions {
    DeliveryOptions {
        allow_internal: true,
        ..DeliveryOptions::default()
    }
}

/// A manual clock standing at the real time now.
fn manual_clock() -> Clock {
    Clock::manual(jiff::Timestamp::now())
}

/// How a [`TestDaemon`] is set up; [`TestDaemon::restart`] starts the new
/// daemon the same way.
#[derive(Debug, Clone)]
struct Setup {
    limits: HttpLimits,
    webhooks: DeliveryOptions,
    rate_limits: bool,
    /// How long a platform request may take (`None`: the daemon's default).
    platform_timeout: Option<Duration>,
    trusted_proxies: modctld::client_address::TrustedProxies,
    /// The memory budget of activity batches (`None`: the daemon's default).
    batch_budget: Option<modctld::activity::budget::BatchBudget>,
    /// A second consumer of the event path, beside the activity counts.
    recorder: Option<Arc<EventRecorder>>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            limits: quick_shutdown(),
            webhooks: webhooks_to_localhost(),
            rate_limits: false,
            platform_timeout: None,
            trusted_proxies: Default::default(),
            batch_budget: None,
            recorder: None,
        }
    }
}

/// A running daemon; stopped when dropped.
#[derive(Debug)]
pub struct TestDaemon {
    url: String,
    metrics_url: String,
    store: Store,
    state: AppState,
    runtime: Handle,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    dir: tempfile::TempDir,
    setup: Setup,
}

/// A key created for a test: the full key and its public id.
#[derive(Debug, Clone)]
pub struct TestKey {
    /// `mdk_<key_id>_<secret>`.
    pub full: String,
    /// The key id.
    pub key_id: String,
}

impl TestDaemon {
    /// Starts a daemon on `127.0.0.1:0` with a fresh database and a manual
    /// [`Clock`] that stands at the real time of the start until the test
    /// moves it ([`TestDaemon::clock`]). Platform retries wait at most 2 s.
    /// The background workers run, but tests that need them to act call
    /// [`TestDaemon::tick_workers`] rather than waiting for them. The HTTP
    /// limits are production's, but for a shutdown deadline of a second (a
    /// 1-second keep-alive would race the SDK's reuse of pooled
    /// connections).
    pub fn start() -> TestDaemon {
        TestDaemon::start_as(Setup::default())
    }

    /// Like [`TestDaemon::start`], with an [`EventRecorder`] as a second
    /// consumer of the event path (where the automation will be).
    pub fn start_recording_events() -> (TestDaemon, Arc<EventRecorder>) {
        let recorder = Arc::new(EventRecorder::default());
        let daemon = TestDaemon::start_as(Setup {
            recorder: Some(recorder.clone()),
            ..Setup::default()
        });
        (daemon, recorder)
    }

    /// Like [`TestDaemon::start`], with these HTTP limits (e.g.
    /// [`TEST_HTTP_LIMITS`], to test slow clients quickly).
    pub fn start_with_http_limits(limits: HttpLimits) -> TestDaemon {
        TestDaemon::start_as(Setup {
            limits,
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start`], delivering webhooks with `options` (e.g.
    /// a short timeout, or a proxy).
    pub fn start_with_webhooks(options: DeliveryOptions) -> TestDaemon {
        TestDaemon::start_as(Setup {
            webhooks: options,
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start`], but a platform request that gets no
    /// answer within `timeout` fails (instead of after 10 s), for tests of
    /// platforms that never answer.
    pub fn start_with_platform_timeout(timeout: Duration) -> TestDaemon {
        TestDaemon::start_as(Setup {
            platform_timeout: Some(timeout),
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start`], with the request rate limits on, as
    /// `modctld serve` runs. Every other test daemon runs without them (like
    /// `--no-rate-limits`): the suite makes many requests per key in a
    /// second, and the limits have tests of their own (`tests/tests/request_limits.rs`).
    pub fn start_with_rate_limits() -> TestDaemon {
        TestDaemon::start_as(Setup {
            rate_limits: true,
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start`], with this memory budget for activity
    /// batches (production's is 24 MiB; tests of the budget use a few KiB).
    pub fn start_with_batch_budget(budget: modctld::activity::budget::BatchBudget) -> TestDaemon {
        TestDaemon::start_as(Setup {
            batch_budget: Some(budget),
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start_with_rate_limits`], behind a proxy on
    /// 127.0.0.1 whose `X-Forwarded-For` the daemon believes (`modctld
    /// serve --trusted-proxy 127.0.0.1`).
    pub fn start_behind_proxy() -> TestDaemon {
        TestDaemon::start_as(Setup {
            rate_limits: true,
            trusted_proxies: modctld::client_address::TrustedProxies::new(vec![
                "127.0.0.1".parse().expect("an address"),
            ]),
            ..Setup::default()
        })
    }

    /// Like [`TestDaemon::start`], but with the webhook SSRF guard on, as in
    /// production: webhooks to 127.0.0.1 and other internal addresses are
    /// refused. (Every other test daemon lets them through, like
    /// `modctld serve --webhooks-allow-internal`, to reach its receiver.)
    pub fn start_guarded() -> TestDaemon {
        TestDaemon::start_as(Setup {
            webhooks: DeliveryOptions::default(),
            ..Setup::default()
        })
    }

    /// Stops this daemon and starts a new one on the same database, set up
    /// the same way, with the same clock, as after a restart of `modctld`.
    pub fn restart(mut self) -> TestDaemon {
        self.stop();
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("temp dir"));
        TestDaemon::start_in(dir, self.state.clock.clone(), self.setup.clone())
    }

    fn start_as(setup: Setup) -> TestDaemon {
        TestDaemon::start_in(
            tempfile::tempdir().expect("temp dir"),
            manual_clock(),
            setup,
        )
    }

    fn start_in(dir: tempfile::TempDir, clock: Clock, setup: Setup) -> TestDaemon {
        let db = dir.path().join("modctld.db");
        let (ready_tx, ready_rx) = mpsc::channel();
        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        let kept = setup.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let store = Store::open(&db).await.expect("open store");
                let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
                let url = format!("http://{}", listener.local_addr().expect("address"));
                let mut state = AppState::new(store);
                if let Some(timeout) = setup.platform_timeout {
                    state = state.with_platform_timeout(timeout);
                }
                if let Some(budget) = setup.batch_budget {
                    state = state.with_batch_budget(budget);
                }
                if let Some(recorder) = setup.recorder {
                    state = state.with_event_consumer(recorder);
                }
                let state = state
                    .with_clock(clock)
                    .with_retry_policy(RetryPolicy {
                        max_attempts: 3,
                        max_wait: Duration::from_secs(2),
                        backoff: Duration::from_millis(10),
                    })
                    .with_http_limits(setup.limits)
                    .with_webhooks(
                        modctld::webhooks::Deliverer::new(setup.webhooks)
                            .expect("delivery options"),
                    )
                    .with_rate_limits(setup.rate_limits)
                    .with_trusted_proxies(setup.trusted_proxies)
                    // The delivery loop ticks only an hour after the start:
                    // the tests drive it (`deliver_webhooks`), so which
                    // attempt happens when is decided by the test alone.
                    // The activity flush ticks once at start, then the
                    // tests drive it (`flush_activity`).
                    .with_worker_intervals(workers::Intervals {
                        webhooks: Duration::from_secs(3600),
                        // Log posts likewise (`deliver_logs`).
                        logs: Duration::from_secs(3600),
                        // And learning the servers' own invites
                        // (`learn_own_invites`).
                        own_invites: Duration::from_secs(3600),
                        activity_flush: Duration::from_secs(3600),
                        // And ending raid lockdowns (`workers::lockdowns`).
                        lockdowns: Duration::from_secs(3600),
                        // And verification's kicks (`tick_workers` after
                        // moving the clock).
                        verifications: Duration::from_secs(3600),
                        // And the name lookups (`look_up_names`).
                        name_lookups: Duration::from_secs(3600),
                        ..workers::Intervals::default()
                    })
                    // Platform sessions start when a test asks
                    // (`start_receivers`), never behind its back.
                    .with_activity_receivers(false);
                // `GET /metrics` on a listener of its own, as `serve
                // --metrics-listen` does; it ends with the runtime.
                let metrics = TcpListener::bind("127.0.0.1:0").await.expect("bind");
                let metrics_url =
                    format!("http://{}/metrics", metrics.local_addr().expect("address"));
                tokio::spawn(modctld::metrics::serve_metrics(
                    metrics,
                    modctld::metrics::registry(state.metrics_parts()),
                    std::future::pending(),
                ));
                ready_tx
                    .send((url, metrics_url, state.clone(), Handle::current()))
                    .expect("report ready");
                let shutdown = async {
                    let _ = shutdown_rx.await;
                };
                modctld::serve(listener, state, shutdown)
                    .await
                    .expect("serve");
            });
        });
        let (url, metrics_url, state, runtime) = ready_rx.recv().expect("daemon started");
        TestDaemon {
            url,
            metrics_url,
            store: state.store.clone(),
            state,
            runtime,
            shutdown: Some(shutdown_tx),
            thread: Some(thread),
            dir,
            setup: kept,
        }
    }

    /// The base URL, e.g. `http://127.0.0.1:41234`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where the daemon serves `GET /metrics` (`serve --metrics-listen`).
    pub fn metrics_url(&self) -> &str {
        &self.metrics_url
    }

    /// The database file the daemon serves.
    pub fn db_path(&self) -> PathBuf {
        self.dir.path().join("modctld.db")
    }

    /// A scratch directory that lives as long as the daemon.
    pub fn scratch_dir(&self) -> &Path {
        self.dir.path()
    }

    /// The daemon's store, for assertions on what was (not) written.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The daemon's clock: `advance` it to make time pass.
    pub fn clock(&self) -> &Clock {
        &self.state.clock
    }

    /// Now on the daemon's clock, as unix seconds (for expiry arithmetic).
    pub fn now_unix(&self) -> i64 {
        self.state.clock.now_unix()
    }

    /// Runs the webhook delivery worker once at the clock's now and waits
    /// for the deliveries it started; returns the attempts it made. (An
    /// endpoint already being delivered to is left to that run.)
    pub fn deliver_webhooks(&self) -> usize {
        self.block_on(modctld::webhooks::deliver_due(&self.state.deliveries()))
            .expect("deliver webhooks")
    }

    /// [`TestDaemon::deliver_webhooks`] without waiting: runs the worker on
    /// the daemon's runtime in the background, e.g. to hang on an endpoint
    /// that never answers while the test goes on.
    pub fn deliver_webhooks_in_background(
        &self,
    ) -> tokio::task::JoinHandle<modctld::moderation::ModerationResult<usize>> {
        let deliveries = self.state.deliveries();
        self.runtime
            .spawn(async move { modctld::webhooks::deliver_due(&deliveries).await })
    }

    /// Runs the log channels' delivery worker once at the clock's now and
    /// waits for the runs it started; returns the entries posted.
    pub fn deliver_logs(&self) -> usize {
        self.block_on(modctld::logs::deliver::deliver_due(
            &self.state.log_delivery(),
        ))
        .expect("deliver logs")
    }

    /// Connects Slack workspace `server` to the fake at `api_base` with the
    /// fakes' bot token (and `user_token`, an admin's, when given), its
    /// Events API hook verified with `signing_secret`.
    pub fn connect_slack(
        &self,
        server: &str,
        api_base: &str,
        user_token: Option<&str>,
        signing_secret: &str,
    ) {
        let connection = Connection {
            user_token: user_token.map(str::to_owned),
            ..Connection::new(ConnectionMode::Live {
                token: crate::fakes::slack::TOKEN.to_owned(),
                api_base: Some(api_base.to_owned()),
            })
        };
        let (server_id, secrets, now) = (
            server.to_owned(),
            self.store.secrets().clone(),
            self.now_unix(),
        );
        self.block_on(
            self.store
                .write(move |tx| connections::set(tx, &secrets, &server_id, &connection, now)),
        )
        .expect("connect");
        self.set_receiving(
            server,
            modctld::store::receivers::Receiving {
                signing_secret: Some(signing_secret.to_owned()),
                ..Default::default()
            },
        );
    }

    /// Member [`fakes::slack::MEMBER`] says `text` in `channel` of Slack
    /// workspace `team`: seeded in `fake` (so it can be deleted), then
    /// posted to the daemon as a signed `message` event `event_id`. Answers
    /// the message's `ts`.
    pub fn slack_member_says(
        &self,
        fake: &fakes::FakeSlack,
        signing_secret: &str,
        (team, channel): (&str, &str),
        event_id: &str,
        text: &str,
    ) -> String {
        let member = fakes::slack::MEMBER;
        let ts = fake.seed_message(channel, member, text);
        let event = serde_json::json!({"type": "message", "channel": channel, "user": member,
                                       "ts": ts, "text": text});
        let status = self.post_slack_event(signing_secret, team, event_id, event);
        assert_eq!(status, 200, "the Slack hook refused the event");
        ts
    }

    /// Posts a Slack Events API callback of `team` carrying `event` (id
    /// `event_id`, now on the daemon's clock) to the daemon's
    /// `/hooks/slack/events`, signed with `signing_secret` as Slack signs
    /// ("Verifying requests from Slack"); answers the HTTP status.
    pub fn post_slack_event(
        &self,
        signing_secret: &str,
        team: &str,
        event_id: &str,
        event: serde_json::Value,
    ) -> u16 {
        let now = self.now_unix();
        // `authorizations`: the installation the event is visible to, the
        // app's bot user for a bot token ("Events API", authorizations).
        let body = serde_json::json!({"token": "t", "team_id": team, "api_app_id": "A1",
            "type": "event_callback", "event_id": event_id, "event_time": now, "event": event,
            "authorizations": [{"enterprise_id": null, "team_id": team,
                "user_id": fakes::slack::BOT, "is_bot": true, "is_enterprise_install": false}]})
        .to_string();
        let timestamp = now.to_string();
        let signature =
            modctld::platform::slack::events::sign(signing_secret, &timestamp, body.as_bytes());
        let answer = self.block_on(
            reqwest::Client::new()
                .post(format!("{}/hooks/slack/events", self.url()))
                .header("content-type", "application/json")
                .header("x-slack-request-timestamp", &timestamp)
                .header("x-slack-signature", signature)
                .body(body)
                .send(),
        );
        answer.expect("the Slack hook answers").status().as_u16()
    }

    /// Runs the own invites' worker once: the servers that filter links
    /// and are due learn their own invites from their platform; answers
    /// how many were asked.
    pub fn learn_own_invites(&self) -> usize {
        self.block_on(modctld::workers::own_invites(&self.state))
            .expect("learn own invites")
    }

    /// Runs the name lookups' worker once: the ids answers wanted are asked
    /// of their platforms within each server's budget; answers how many
    /// were asked.
    pub fn look_up_names(&self) -> usize {
        self.block_on(modctld::workers::name_lookups(&self.state))
            .expect("name lookups")
    }

    /// Runs the activity flush worker once: what the platform receivers
    /// recorded is written into the rollups; returns the events counted.
    pub fn flush_activity(&self) -> usize {
        let state = &self.state;
        self.block_on(modctld::activity::flush(
            &state.activity,
            &state.store,
            &state.clock,
        ))
        .expect("flush activity")
    }

    /// Flushes what the receivers recorded, then reads the community
    /// insights of `server` for the last 7 days through the API with `key`,
    /// as a moderator would see them.
    pub fn community_insights(
        &self,
        key: &TestKey,
        server: &str,
    ) -> modctl_types::activity::CommunityInsights {
        self.flush_activity();
        let client = self.client(key);
        self.block_on(client.community_insights(server, Some(7)))
            .expect("community insights")
    }

    /// Starts the activity receivers the stored connections need (a gateway
    /// session, a Telegram poller, webhooks) and updates the running ones,
    /// as the receivers' loop does; returns how many sessions run.
    pub fn start_receivers(&self) -> usize {
        self.block_on(modctld::receive::reconcile(&self.state))
            .expect("start the activity receivers")
    }

    /// Sets how a connected `server` receives activity (Slack's signing
    /// secret, Telegram's webhook).
    pub fn set_receiving(&self, server: &str, receiving: modctld::store::receivers::Receiving) {
        let server = server.to_owned();
        let secrets = self.store.secrets().clone();
        self.write(move |tx| {
            modctld::store::receivers::set_receiving(tx, &secrets, &server, &receiving)
        });
    }

    /// The daemon's state (e.g. `state().activity` to record events).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Waits until every event published so far has been handled by every
    /// consumer, and the tasks they started (antinuke's incidents, the
    /// actions) have ended: a positive wait for "nothing more comes of
    /// them", where a pause could pass before the daemon even looked. An
    /// event published directly is covered at once; one sent through a
    /// fake transport only once it was published, which a later event's
    /// observed effect shows (a sentinel: transports publish in order).
    pub fn events_handled(&self) {
        let events = self.state.events.clone();
        let drained = self.block_on(async move { events.drain(NETWORK_DEADLINE).await });
        assert!(
            drained,
            "the event consumers did not handle what they were given: {:?}",
            self.state.events.queued()
        );
        eventually("the tasks the events started to end", || {
            self.state.in_flight.is_empty()
        });
    }

    /// Runs every background worker once, as its loop would when due, and
    /// waits for it: e.g. advance the clock past a jail's end, then tick.
    pub fn tick_workers(&self) -> workers::Ticked {
        self.block_on(workers::tick(&self.state))
            .expect("worker tick")
    }

    /// Runs `future` on the daemon's runtime and waits for it; callable from
    /// synchronous and async tests alike.
    pub fn block_on<F>(&self, future: F) -> F::Output
    where
        F: std::future::Future + Send,
        F::Output: Send,
    {
        std::thread::scope(|scope| {
            scope
                .spawn(|| self.runtime.block_on(future))
                .join()
                .expect("seeding panicked")
        })
    }

    /// Creates a team.
    pub fn team(&self, name: &str, plan: Plan) -> Team {
        let (name, now) = (name.to_owned(), self.now_unix());
        self.block_on(
            self.store
                .write(move |tx| teams::create(tx, &name, plan, now)),
        )
        .expect("create team")
    }

    /// Creates a key for `team` with `scope`.
    pub fn key(&self, team: &str, scope: Scope) -> TestKey {
        self.key_expiring(team, scope, None)
    }

    /// Creates a key that expires at `expires_at` (unix seconds; may be in the past).
    pub fn key_expiring(&self, team: &str, scope: Scope, expires_at: Option<i64>) -> TestKey {
        let key = api_key::generate();
        let stored = key.clone();
        let (team, now) = (team.to_owned(), self.now_unix());
        self.block_on(self.store.write(move |tx| {
            let team = teams::get_by_name(tx, &team)?;
            keys::insert(
                tx,
                stored.hashed(),
                team.id,
                scope,
                Some("test"),
                expires_at,
                now,
            )
        }))
        .expect("create key");
        TestKey {
            full: key.full,
            key_id: key.key_id,
        }
    }

    /// Creates a key for `team` with `scope` and the display name `name`, as
    /// `modctld key create --name` does (issue #27).
    pub fn named_key(&self, team: &str, scope: Scope, name: &str) -> TestKey {
        let key = api_key::generate();
        let stored = key.clone();
        let (team, name, now) = (team.to_owned(), name.to_owned(), self.now_unix());
        self.block_on(self.store.write(move |tx| {
            let team = teams::get_by_name(tx, &team)?;
            let naming = keys::Naming {
                label: Some("test"),
                name: Some(&name),
            };
            keys::insert_named(tx, stored.hashed(), team.id, scope, naming, None, now)
        }))
        .expect("create named key");
        TestKey {
            full: key.full,
            key_id: key.key_id,
        }
    }

    /// Rotates a key as `modctld key rotate` does: its replacement (for the
    /// same team and scope), the old key accepted for `grace` more seconds.
    pub fn rotate(&self, key_id: &str, grace: i64) -> TestKey {
        let key = api_key::generate();
        let stored = key.clone();
        let (key_id, now) = (key_id.to_owned(), self.now_unix());
        self.block_on(
            self.store.write(move |tx| {
                keys::rotate(tx, &key_id, stored.hashed(), None, now + grace, now)
            }),
        )
        .expect("rotate key");
        TestKey {
            full: key.full,
            key_id: key.key_id,
        }
    }

    /// Revokes a key.
    pub fn revoke(&self, key_id: &str) {
        let (key_id, now) = (key_id.to_owned(), self.now_unix());
        self.block_on(self.store.write(move |tx| keys::revoke(tx, &key_id, now)))
            .expect("revoke");
    }

    /// The stored record of a key (to check what a request did or did not write).
    pub fn key_record(&self, key_id: &str) -> keys::KeyRecord {
        let key_id = key_id.to_owned();
        self.block_on(self.store.read(move |tx| keys::find_with_hash(tx, &key_id)))
            .expect("read key")
            .expect("key exists")
            .record
    }

    /// Claims a server for `team`.
    pub fn claim(&self, team: &str, platform: Platform, id: &str, name: &str) -> Server {
        let (team, id, name) = (team.to_owned(), id.to_owned(), name.to_owned());
        let now = self.now_unix();
        self.block_on(self.store.write(move |tx| {
            let team = teams::get_by_name(tx, &team)?;
            modctld::servers::claim(tx, team.id, platform, &id, &name, now)
        }))
        .expect("claim server")
    }

    /// An SDK client using `key`.
    pub fn client(&self, key: &TestKey) -> Client {
        Client::builder()
            .base_url(&self.url)
            .api_key(&key.full)
            .build()
            .expect("client")
    }

    /// The URL of an API path, e.g. `api("/me")`.
    pub fn api(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.url)
    }
}

impl TestDaemon {
    /// Stops the daemon as SIGTERM does (its shutdown deadline applies) and
    /// waits until it has stopped. Its database stays for
    /// [`TestDaemon::db_path`] and [`TestDaemon::restart`].
    pub fn stop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Connects `server` to a (fake) platform at `api_base` with `token`.
    pub fn connect_live(&self, server: &str, token: &str, api_base: &str) {
        let (server, mode) = (
            server.to_owned(),
            ConnectionMode::Live {
                token: token.to_owned(),
                api_base: Some(api_base.to_owned()),
            },
        );
        let secrets = self.store.secrets().clone();
        let now = self.now_unix();
        self.block_on(
            self.store.write(move |tx| {
                connections::set(tx, &secrets, &server, &Connection::new(mode), now)
            }),
        )
        .expect("connect");
    }

    /// Connects `server` to the simulator with the demo community of its platform.
    pub fn connect_simulated(&self, server: &str, platform: Platform) {
        let server = server.to_owned();
        let secrets = self.store.secrets().clone();
        let now = self.now_unix();
        self.block_on(self.store.write(move |tx| {
            connections::set(
                tx,
                &secrets,
                &server,
                &Connection::new(ConnectionMode::Simulated),
                now,
            )?;
            simulator::seed(tx, &server, &modctld::operator::demo::community(platform))
        }))
        .expect("connect simulated");
    }

    /// Replaces a config section of `server` directly in the store.
    pub fn set_config(&self, server: &str, section: SectionName, value: serde_json::Value) {
        let server = server.to_owned();
        let secrets = self.store.secrets().clone();
        let now = self.now_unix();
        self.block_on(self.store.write(move |tx| {
            let mut sections = config::load(tx, &server)?.sections;
            sections
                .replace_from_json(section, value)
                .map_err(|e| StoreError::Invalid(e.to_string()))?;
            modctld::config::apply(
                tx,
                &secrets,
                modctld::config::Change {
                    server_id: &server,
                    actor: "test",
                    source: AuditSource::Api,
                    expected_revision: None,
                    sections,
                    dry_run: false,
                    now,
                },
            )
        }))
        .expect("set config");
    }

    /// Runs `f` on a connection of the test's own to the daemon's database,
    /// in plain SQL: for what no store function does (reading raw rows,
    /// changing a simulated platform behind the daemon's back). The daemon's
    /// own code never runs SQL outside its store; tests may.
    pub fn sql<T>(&self, f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>) -> T {
        let conn = rusqlite::Connection::open(self.db_path()).expect("open the database");
        conn.busy_timeout(Duration::from_secs(10))
            .expect("set a busy timeout");
        f(&conn).expect("plain SQL on the daemon's database")
    }

    /// Runs `f` in a write transaction of the daemon's store.
    pub fn write<T, F>(&self, f: F) -> T
    where
        F: FnOnce(&modctld::store::Tx<'_>) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        self.block_on(self.store.write(f)).expect("store write")
    }

    /// Writes a pending Discord ban of `user` on `server` that no task
    /// carries out, as a daemon killed mid-action leaves it, with `dm` as
    /// its DM's outcome (`None`: the DM was still to be sent); the case.
    pub fn orphan_ban(
        &self,
        server: &str,
        user: &str,
        dm: Option<modctl_types::moderation::CaseDm>,
    ) -> modctl_types::moderation::Case {
        use modctl_types::moderation::{Action, CaseSource, CaseState};
        let (server, user, now) = (server.to_owned(), user.to_owned(), self.now_unix());
        self.write(move |tx| {
            modctld::store::cases::insert(
                tx,
                &modctld::store::cases::NewCase {
                    server_id: &server,
                    action: Action::Ban,
                    user_id: &user,
                    actor: "key:test",
                    reason: None,
                    minutes: None,
                    expires_at: None,
                    delete_message_days: Some(0),
                    applied: false,
                    platform: Platform::Discord,
                    detail: "pending",
                    source: CaseSource::Api,
                    linked_case_id: None,
                    state: CaseState::Pending,
                    now,
                    dm: dm.as_ref(),
                    webhook_url: None,
                },
            )
        })
    }
}

impl Drop for TestDaemon {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A daemon seeded the way most tests want it: team `alpha` (key `alpha_rw`
/// with write, `alpha_ro` read-only) owning a Discord, a Telegram and a Slack
/// server, and team `beta` owning one Discord server.
#[derive(Debug)]
pub struct Fixture {
    /// The daemon.
    pub daemon: TestDaemon,
    /// Team alpha, read+write.
    pub alpha_rw: TestKey,
    /// Team alpha, read-only.
    pub alpha_ro: TestKey,
    /// Team beta, read+write.
    pub beta_rw: TestKey,
}

/// Team alpha's Discord server.
pub const ALPHA_DISCORD: &str = "100000000000000001";
/// Team alpha's Telegram group.
pub const ALPHA_TELEGRAM: &str = "-1001000000001";
/// Team alpha's Slack workspace.
pub const ALPHA_SLACK: &str = "T0ALPHA001";
/// Team beta's Discord server.
pub const BETA_DISCORD: &str = "200000000000000002";
/// A Discord id nobody claimed.
pub const UNCLAIMED: &str = "999999999999999999";

impl Fixture {
    /// Starts and seeds the daemon.
    pub fn start() -> Fixture {
        Fixture::seed(TestDaemon::start())
    }

    /// Restarts the daemon on the same database, keeping the keys (see
    /// [`TestDaemon::restart`]).
    pub fn restart(self) -> Fixture {
        Fixture {
            daemon: self.daemon.restart(),
            ..self
        }
    }

    /// Seeds `daemon` (e.g. one started with other HTTP limits).
    pub fn seed(daemon: TestDaemon) -> Fixture {
        daemon.team("alpha", Plan::Pro);
        daemon.team("beta", Plan::Free);
        daemon.claim("alpha", Platform::Discord, ALPHA_DISCORD, "Alpha Guild");
        daemon.claim("alpha", Platform::Telegram, ALPHA_TELEGRAM, "Alpha Group");
        daemon.claim("alpha", Platform::Slack, ALPHA_SLACK, "Alpha Workspace");
        daemon.claim("beta", Platform::Discord, BETA_DISCORD, "Beta Guild");
        Fixture {
            alpha_rw: daemon.key("alpha", Scope::Write),
            alpha_ro: daemon.key("alpha", Scope::Read),
            beta_rw: daemon.key("beta", Scope::Write),
            daemon,
        }
    }
}

/// A consumer of the daemon's event path that keeps every event it is
/// given, to see what the decoders made of the platforms' payloads.
#[derive(Debug, Default)]
pub struct EventRecorder {
    events: std::sync::Mutex<Vec<modctld::events::Event>>,
}

impl EventRecorder {
    /// The events received so far, in order.
    pub fn events(&self) -> Vec<modctld::events::Event> {
        self.events.lock().expect("recorder lock").clone()
    }
}

#[async_trait::async_trait]
impl modctld::events::Consumer for EventRecorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    async fn handle(&self, event: modctld::events::Event) {
        self.events.lock().expect("recorder lock").push(event);
    }
}

/// How long [`eventually`] waits for something that comes over the network.
pub const NETWORK_DEADLINE: Duration = Duration::from_secs(20);

/// Checks that every file of an integration-test directory `tests_dir`
/// (a crate's `tests/`) is declared as a module of its one test binary,
/// whose root is `root` (the text of `tests/it.rs`). The crates build their
/// integration tests as one binary (`autotests = false`, issue #24), so a
/// file the root does not declare would never be compiled or run.
pub fn assert_every_test_file_is_declared(tests_dir: &std::path::Path, root: &str) {
    for entry in std::fs::read_dir(tests_dir).expect("read the tests directory") {
        let path = entry.expect("a directory entry").path();
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        let module = match name.strip_suffix(".rs") {
            Some(module) if module != "it" => module.to_owned(),
            _ if path.join("mod.rs").is_file() => name.to_owned(),
            _ => continue,
        };
        assert!(
            root.lines().any(|line| line == format!("mod {module};")),
            "tests/{name} is not declared in tests/it.rs (`mod {module};`), so it never runs"
        );
    }
}

/// Polls `done` every 10 ms until it holds, for something that comes over
/// the network (a gateway event, a poll); fails the test after
/// [`NETWORK_DEADLINE`]. Not for waiting for time to pass: move the clock.
pub fn eventually(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + NETWORK_DEADLINE;
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reads a response that must be an error in our format: `application/json`
/// with a non-empty `error` string and a `code` whose status is the
/// response's (see [`error_parts`]). Returns the status and the message.
pub async fn error_body(response: reqwest::Response) -> (reqwest::StatusCode, String) {
    let parts = error_parts(response).await;
    (parts.status, parts.message)
}

/// An error answer, read and checked by [`error_parts`].
#[derive(Debug, Clone)]
pub struct ErrorParts {
    /// The response's status.
    pub status: reqwest::StatusCode,
    /// `error`.
    pub message: String,
    /// `code`, as sent.
    pub code: String,
    /// `field`, if sent.
    pub field: Option<String>,
}

/// Reads a response that must be an error in our format: `application/json`
/// with a non-empty `error` string and a `code` this daemon documents, sent
/// with the response's status; `field` (a non-empty string) always with
/// `invalid_field`, otherwise only with `not_found`; `required_plan` and
/// `limit` only on a 402; no other field.
pub async fn error_parts(response: reqwest::Response) -> ErrorParts {
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or_default().to_owned());
    assert_eq!(
        content_type.as_deref(),
        Some("application/json"),
        "error responses are JSON ({status})"
    );
    let header_id = response
        .headers()
        .get("x-request-id")
        .map(|v| v.to_str().unwrap_or_default().to_owned());
    let body: serde_json::Value = response.json().await.expect("JSON body");
    let object = body.as_object().expect("error body is an object");
    // Every error the API's middleware answers names its request, in the
    // header and the body alike (issue #28).
    assert_eq!(
        object.get("request_id").and_then(serde_json::Value::as_str),
        header_id.as_deref(),
        "the body's request_id is the X-Request-Id header: {body}"
    );
    let message = object["error"].as_str().expect("`error` is a string");
    assert!(!message.is_empty(), "error message is empty");
    let code = object
        .get("code")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_else(|| panic!("error body has a string `code`: {body}"));
    let known = modctl_types::ErrorCode::parse(code);
    assert_eq!(
        known.status(),
        Some(status.as_u16()),
        "`{code}` is a documented code of status {status}: {body}"
    );
    let field = object.get("field").map(|field| {
        let field = field.as_str().expect("`field` is a string");
        assert!(!field.is_empty(), "`field` is empty: {body}");
        field.to_owned()
    });
    match known {
        modctl_types::ErrorCode::InvalidField => {
            assert!(field.is_some(), "invalid_field names its field: {body}")
        }
        modctl_types::ErrorCode::NotFound => {}
        _ => assert!(
            field.is_none(),
            "only invalid_field and not_found name a field: {body}"
        ),
    }
    let plan_fields = ["required_plan", "limit"];
    for key in object.keys() {
        let allowed = ["error", "code", "field", "request_id"].contains(&key.as_str())
            || (status == reqwest::StatusCode::PAYMENT_REQUIRED
                && plan_fields.contains(&key.as_str()));
        assert!(
            allowed,
            "unexpected field `{key}` in the error body: {body}"
        );
    }
    ErrorParts {
        status,
        message: message.to_owned(),
        code: code.to_owned(),
        field,
    }
}

/// Asserts that a server's config was never written: revision 0, no audit entries.
pub async fn assert_config_untouched(client: &Client, server: &str) {
    let config = client.config(server).await.expect("read config");
    assert_eq!(config.revision, 0, "config of {server} was written");
    let audit = client
        .config_audit(server, None, None)
        .await
        .expect("read audit");
    assert!(audit.is_empty(), "audit of {server} has entries: {audit:?}");
}

impl Fixture {
    /// The fixture with alpha's Discord and Telegram servers connected to the
    /// simulator (the demo communities) and jail set up on both.
    pub fn simulated() -> Fixture {
        let fixture = Fixture::start();
        let daemon = &fixture.daemon;
        daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
        daemon.connect_simulated(ALPHA_TELEGRAM, Platform::Telegram);
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Jail,
            serde_json::json!({"enabled": true, "role_id": modctld::operator::demo::discord_members::JAILED_ROLE}),
        );
        daemon.set_config(
            ALPHA_TELEGRAM,
            SectionName::Jail,
            serde_json::json!({"enabled": true}),
        );
        fixture
    }
}
