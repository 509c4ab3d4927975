//! Outbound webhooks (issue #11): delivering the outbox.
//!
//! Events are written by the changes that cause them ([`crate::store::webhooks`]);
//! the worker here posts every due delivery, signed ([`sign`]), to a URL that
//! passed the SSRF [`guard`], and records the attempt. Failures are retried
//! on [`SCHEDULE`]; see `docs/api.md`, "Webhooks (issue #11)".
//!
//! One team's endpoint must not hold up another's (issue #22): an endpoint
//! that accepts a connection and never answers costs a delivery its whole
//! [`TIMEOUT`], and did cost every team's deliveries as long as a tick
//! waited for all of its endpoints. So each endpoint (a server's URL) is
//! delivered to by a run of its own ([`start_due`]): its deliveries one after
//! another, oldest first, so a receiver sees its events in order, and up to
//! [`MAX_RUNNING`] endpoints at once. The worker's tick starts a run for each
//! endpoint with something due and none under way (a run holds its
//! endpoint's claim, [`Work::WebhookEndpoint`], so no other tick delivers to
//! it at the same time), and does not wait for them: the next tick, a
//! second later, finds the endpoints that are free again. An endpoint that timed out [`BREAKER_AFTER`] times in a row is not
//! tried for [`BREAKER_OPEN`] (its circuit breaker is open): its due
//! deliveries are postponed, not attempted, and then one delivery probes it.
//! Stopping the daemon interrupts the deliveries in flight ([`Deliverer::stop`]):
//! they stay due, unrecorded, and go again after the restart (delivery is
//! at least once; receivers deduplicate on `webhook-id`).

mod disable;
mod events;
pub mod guard;
mod send;
pub mod sign;

pub use disable::disable;
pub use events::{enqueue, jail_changed, test_data, wanted};
use send::{Sent, outcome_of, send};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use modctl_types::config::WebhookEvent;
use modctl_types::webhooks::DeliveryState;
use reqwest::{StatusCode, Url};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::clock::Clock;
use crate::coordination::{Held, Work, WorkClaims};
use crate::moderation::ModerationResult;
use crate::store::webhooks::{self as outbox, Due, Outcome};
use crate::store::{Store, StoreError, Tx, config, timestamp};

/// Seconds to wait before each attempt, counted from the failure of the one
/// before: the first is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
/// 10 h. After the last attempt fails the delivery is `failed`.
pub const SCHEDULE: [i64; 8] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/// A delivery's time limit, connection included.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// Timeouts in a row after which an endpoint's circuit breaker opens.
pub const BREAKER_AFTER: u32 = 3;

/// How long an open breaker keeps its endpoint's deliveries waiting.
pub const BREAKER_OPEN: Duration = Duration::from_secs(300);

/// Endpoints delivered to at once; the others wait for a free place at the
/// next tick. Each holds one connection (one socket) while it runs.
pub const MAX_RUNNING: usize = 128;

/// The longest `Retry-After` honoured; a bogus value cannot park a delivery
/// for months.
const MAX_RETRY_AFTER: i64 = 86_400;

/// `last_error` of a delivery dropped because webhooks were turned off.
const TURNED_OFF: &str = "webhooks were turned off for this server (or their url or secret removed) before this delivery was sent; turn them on again and redeliver it";

/// Deliveries an endpoint's run reads from the outbox at a time.
const BATCH: u32 = 200;

/// Batches one run works through at most, so that a run ends (and its
/// endpoint is looked at again: turned off, say) even while events keep
/// coming; the rest wait for the next tick, a second later.
const MAX_BATCHES: usize = 50;

/// Attempts recorded per write transaction.
const RECORD_EVERY: usize = 50;

/// How long an endpoint's claim outlives a daemon that died delivering to
/// it, for a coordination backend whose claims expire (see
/// [`WorkClaims::claim`]); in process it is not used.
pub const CLAIM_LEASE: Duration = Duration::from_secs(60);

/// What delivering webhooks uses; cheap to clone.
#[derive(Debug, Clone)]
pub struct Deliveries {
    /// The outbox and the servers' settings.
    pub store: Store,
    /// When deliveries are due, and the time stamped on attempts.
    pub clock: Clock,
    /// The client, its options, and the endpoints' breakers.
    pub deliverer: Deliverer,
    /// Claims on endpoints: one run per endpoint at a time.
    pub claims: Arc<dyn WorkClaims>,
    /// Attempts by outcome (`delivered`, `retry`, `failed`, `disabled`),
    /// for `GET /metrics`.
    pub outcomes: crate::metrics::Outcomes,
}

/// How deliveries are made: `modctld serve`'s options (tests shorten the
/// times).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryOptions {
    /// Let webhooks reach internal addresses (`--webhooks-allow-internal`).
    pub allow_internal: bool,
    /// The proxy every delivery goes through (`--webhooks-proxy`). Proxies
    /// in the environment (`HTTPS_PROXY`, ...) are never used.
    pub proxy: Option<Url>,
    /// A delivery's time limit.
    pub timeout: Duration,
    /// Timeouts in a row that open an endpoint's circuit breaker (1 or more).
    pub breaker_after: u32,
    /// How long an open breaker keeps the endpoint's deliveries waiting, on
    /// the daemon's clock.
    pub breaker_open: Duration,
}

impl Default for DeliveryOptions {
    /// The guard on, no proxy, [`TIMEOUT`], [`BREAKER_AFTER`], [`BREAKER_OPEN`].
    fn default() -> Self {
        DeliveryOptions {
            allow_internal: false,
            proxy: None,
            timeout: TIMEOUT,
            breaker_after: BREAKER_AFTER,
            breaker_open: BREAKER_OPEN,
        }
    }
}

/// The delivery client, its options, and the endpoints being delivered to;
/// shared by every tick.
#[derive(Debug, Clone)]
pub struct Deliverer {
    http: reqwest::Client,
    options: DeliveryOptions,
    endpoints: Arc<Mutex<Endpoints>>,
    /// The runs started, so that [`Deliverer::stop`] waits for them.
    runs: TaskTracker,
    /// Cancelled when the daemon stops: interrupts the deliveries in flight.
    stopping: CancellationToken,
}

/// Where deliveries go: a server's URL (two servers may share a URL, each
/// signing with its own secret).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Endpoint {
    server_id: String,
    url: String,
}

/// How many runs are under way, and the breakers of the endpoints that
/// timed out lately. Kept in memory: after a restart every breaker is
/// closed, but the deliveries an open one postponed stay postponed (the
/// outbox has them).
#[derive(Debug, Default)]
struct Endpoints {
    running: usize,
    breakers: HashMap<Endpoint, Breaker>,
}

/// An endpoint's circuit breaker: open while `open_until` (clock seconds)
/// is ahead. Past it, the next attempt probes the endpoint: a timeout opens
/// the breaker again at once (the count stays), an answer closes it.
#[derive(Debug, Default, Clone, Copy)]
struct Breaker {
    timeouts: u32,
    open_until: i64,
}

impl Deliverer {
    /// A deliverer with `options`; fails only on a proxy URL reqwest cannot use.
    pub fn new(options: DeliveryOptions) -> Result<Self, reqwest::Error> {
        let builder = reqwest::Client::builder()
            .timeout(options.timeout)
            // A redirect would be a request to a URL nobody checked.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("modctld-webhooks/", env!("CARGO_PKG_VERSION")))
            // `HTTPS_PROXY`, `HTTP_PROXY` and `ALL_PROXY` are not ours to
            // follow: a proxy resolves the target itself, where the guard's
            // resolver never sees it (issue #22).
            .no_proxy();
        let builder = match &options.proxy {
            // The client only ever connects to the proxy, which the operator
            // chose (it may well be internal); the target is resolved and
            // checked before each batch instead (`guard::check_resolved`).
            Some(proxy) => builder.proxy(reqwest::Proxy::all(proxy.clone())?),
            None if options.allow_internal => builder,
            None => builder.dns_resolver(Arc::new(guard::GuardedResolver)),
        };
        Ok(Deliverer {
            http: builder.build()?,
            options,
            endpoints: Arc::default(),
            runs: TaskTracker::new(),
            stopping: CancellationToken::new(),
        })
    }

    /// The options it was made with.
    pub fn options(&self) -> &DeliveryOptions {
        &self.options
    }

    /// Interrupts the deliveries in flight and waits for their runs to
    /// record what they finished. An interrupted delivery is not recorded:
    /// it stays due and is sent again after the restart, and its endpoint
    /// is not charged with a failure that was the daemon's. Nothing is
    /// delivered afterwards.
    pub async fn stop(&self) {
        self.stopping.cancel();
        self.runs.close();
        self.runs.wait().await;
    }

    fn endpoints(&self) -> MutexGuard<'_, Endpoints> {
        // Each change is one insert or remove: consistent whatever a
        // panicking holder was doing.
        crate::sync::lock(&self.endpoints)
    }

    /// Counts `sent`, an attempt to `endpoint` at `now`, in its breaker;
    /// returns the breaker if the attempt opened it.
    fn count(&self, endpoint: &Endpoint, sent: &Sent, now: i64) -> Option<Breaker> {
        let mut endpoints = self.endpoints();
        if !matches!(
            sent,
            Sent::Transport {
                timed_out: true,
                ..
            }
        ) {
            endpoints.breakers.remove(endpoint);
            return None;
        }
        let breaker = endpoints.breakers.entry(endpoint.clone()).or_default();
        breaker.timeouts += 1;
        (breaker.timeouts >= self.options.breaker_after.max(1)).then(|| {
            breaker.open_until = now + seconds(self.options.breaker_open);
            *breaker
        })
    }
}

/// Whole seconds of `d`, for the clock's arithmetic.
fn seconds(d: Duration) -> i64 {
    d.as_secs().try_into().unwrap_or(i64::MAX)
}

/// An endpoint claimed by a run, and its place among the [`MAX_RUNNING`];
/// both freed when the run ends, however it ends.
struct Claim {
    endpoint: Endpoint,
    endpoints: Arc<Mutex<Endpoints>>,
    _held: Held,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut endpoints = crate::sync::lock(&self.endpoints);
        endpoints.running = endpoints.running.saturating_sub(1);
    }
}

/// A run under way: the attempts it made, once it ends.
pub type Run = JoinHandle<ModerationResult<usize>>;

/// The worker's tick: starts a run for every endpoint with deliveries due at
/// the clock's now whose claim it gets (none under way; up to
/// [`MAX_RUNNING`] at once), and
/// returns without waiting for them. The due deliveries of an endpoint whose
/// breaker is open are postponed to its end instead.
pub async fn start_due(cx: &Deliveries) -> ModerationResult<Vec<Run>> {
    let deliverer = &cx.deliverer;
    if deliverer.stopping.is_cancelled() {
        return Ok(Vec::new());
    }
    let now = cx.clock.now_unix();
    let due = cx
        .store
        .read(move |tx| outbox::due_endpoints(tx, now))
        .await?;
    let mut claims = Vec::new();
    let mut postponed = Vec::new();
    for (server_id, url) in due {
        let work = Work::WebhookEndpoint {
            server_id: server_id.clone(),
            url: url.clone(),
        };
        // Held: a run is under way (this daemon's or, with several, another's).
        let Some(held) = cx.claims.claim(work, CLAIM_LEASE).await else {
            continue;
        };
        let endpoint = Endpoint { server_id, url };
        let mut endpoints = deliverer.endpoints();
        match endpoints.breakers.get(&endpoint) {
            Some(breaker) if breaker.open_until > now => {
                postponed.push((endpoint, *breaker));
            }
            _ if endpoints.running < MAX_RUNNING => {
                endpoints.running += 1;
                claims.push(Claim {
                    endpoint,
                    endpoints: deliverer.endpoints.clone(),
                    _held: held,
                });
            }
            _ => {}
        }
    }
    if !postponed.is_empty() {
        cx.store
            .write(move |tx| {
                postponed
                    .iter()
                    .try_for_each(|(endpoint, breaker)| postpone(tx, endpoint, breaker))
            })
            .await?;
    }
    Ok(claims
        .into_iter()
        .map(|claim| {
            let cx = cx.clone();
            deliverer.runs.spawn(async move {
                let result = run(&cx, &claim.endpoint, now).await;
                if let Err(e) = &result {
                    tracing::error!(server = %claim.endpoint.server_id, error = %e, "webhook delivery run failed");
                }
                drop(claim);
                result
            })
        })
        .collect())
}

/// Runs the delivery worker once and waits for it: starts what
/// [`start_due`] starts and waits for those runs (not for a run already
/// under way); returns the attempts they made. Tests drive the worker with
/// it after moving the clock.
pub async fn deliver_due(cx: &Deliveries) -> ModerationResult<usize> {
    let mut attempts = 0;
    for run in start_due(cx).await? {
        match run.await {
            Ok(made) => attempts += made?,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // Cancelled: the runtime is stopping; the deliveries stay due.
            Err(_) => {}
        }
    }
    Ok(attempts)
}

/// Postpones `endpoint`'s pending deliveries to the end of its open `breaker`.
fn postpone(tx: &Tx<'_>, endpoint: &Endpoint, breaker: &Breaker) -> Result<(), StoreError> {
    let why = format!(
        "not attempted: the endpoint timed out {} times in a row, so its deliveries wait until {} (circuit breaker)",
        breaker.timeouts,
        timestamp(breaker.open_until)
    );
    outbox::postpone(
        tx,
        &endpoint.server_id,
        &endpoint.url,
        breaker.open_until,
        &why,
    )
}

/// One endpoint's run: its deliveries due at `now`, in order, a batch at a
/// time; returns the attempts made.
async fn run(cx: &Deliveries, endpoint: &Endpoint, now: i64) -> ModerationResult<usize> {
    let mut attempts = 0;
    for _ in 0..MAX_BATCHES {
        let (server_id, url) = (endpoint.server_id.clone(), endpoint.url.clone());
        let due = cx
            .store
            .read(move |tx| outbox::due_to(tx, &server_id, &url, now, BATCH))
            .await?;
        if due.is_empty() {
            break;
        }
        let (made, go_on) = deliver_queue(cx, endpoint, due).await?;
        attempts += made;
        if !go_on {
            break;
        }
    }
    Ok(attempts)
}

/// Attempts `queue`, due deliveries to `endpoint`, in order; returns the
/// attempts made and whether the run may go on (not when the endpoint said
/// it is gone, its breaker opened or the daemon is stopping). The server's
/// state is read once, and attempts are recorded a chunk at a time in one
/// write each: the writer is shared with every action, so a delivery should
/// not cost it a transaction of its own. A daemon that dies before a chunk
/// is recorded sends those deliveries again after the restart, which
/// receivers deduplicate on `webhook-id`.
async fn deliver_queue(
    cx: &Deliveries,
    endpoint: &Endpoint,
    queue: Vec<Due>,
) -> ModerationResult<(usize, bool)> {
    let deliverer = &cx.deliverer;
    let secrets = cx.store.secrets().clone();
    let now = cx.clock.now_unix();
    let (turned_on, signing) = {
        let server_id = endpoint.server_id.clone();
        cx.store
            .read(move |tx| {
                // A `test` subscription asks only that webhooks are on, with a
                // URL and a secret: the state every pending delivery needs.
                let on = wanted(tx, &server_id, WebhookEvent::Test)?.is_some();
                Ok::<_, StoreError>((on, config::signing_secrets(tx, &secrets, &server_id, now)))
            })
            .await?
    };
    if !turned_on {
        // Turned off (or the URL or secret removed) since the events were
        // written: their owner no longer wants them sent.
        let ids: Vec<i64> = queue.iter().map(|d| d.id).collect();
        cx.store
            .write(move |tx| {
                ids.iter()
                    .try_for_each(|&id| outbox::abandon(tx, id, TURNED_OFF))
            })
            .await?;
        return Ok((0, true));
    }
    // The URL is checked once for the queue (all of it goes to this URL);
    // the resolved addresses are checked at each connection (see `guard`),
    // or here when a proxy resolves them.
    let target = check_target(deliverer, &endpoint.url).await;
    let signing = signing
        .map_err(|e| e.to_string())
        .and_then(|secrets| sign::keys(&secrets));
    let mut made = 0;
    for chunk in queue.chunks(RECORD_EVERY) {
        let mut attempts = Vec::with_capacity(chunk.len());
        let (mut gone, mut opened, mut interrupted) = (false, None, false);
        for delivery in chunk {
            let now = cx.clock.now_unix();
            let started = Instant::now();
            let sent = match (&target, &signing) {
                (Ok(target), Ok(keys)) => {
                    let sending = send(deliverer, target, delivery, keys, now);
                    tokio::select! {
                        biased;
                        () = deliverer.stopping.cancelled() => None,
                        sent = sending => Some(sent),
                    }
                }
                (Err(refused), _) => Some(refused.clone()),
                (_, Err(e)) => Some(Sent::Refused(e.clone())),
            };
            let Some(sent) = sent else {
                // Our own stop: not the endpoint's failure, and not an
                // attempt; the delivery stays due.
                interrupted = true;
                break;
            };
            if target.is_ok() && signing.is_ok() {
                opened = deliverer.count(endpoint, &sent, now);
            }
            let number = delivery.attempts + 1;
            let outcome = outcome_of(&sent, number, now, started.elapsed());
            crate::metrics::count(&cx.outcomes, outcome_label(outcome.state), 1);
            if outcome.state == DeliveryState::Failed {
                tracing::warn!(delivery = delivery.id, "webhook delivery failed for good");
            }
            gone = matches!(sent, Sent::Answered { status, .. } if status == StatusCode::GONE);
            attempts.push((delivery.id, number, outcome));
            // Nothing more goes to an endpoint that said it is gone, or
            // whose breaker just opened.
            if gone || opened.is_some() {
                break;
            }
        }
        made += attempts.len();
        record(cx, endpoint, attempts, gone, opened).await?;
        if gone || opened.is_some() || interrupted {
            return Ok((made, false));
        }
    }
    Ok((made, true))
}

/// An attempt's outcome as a metric label: a delivery still pending after
/// it is a `retry`.
fn outcome_label(state: DeliveryState) -> &'static str {
    match state {
        DeliveryState::Pending => "retry",
        DeliveryState::Delivered => "delivered",
        DeliveryState::Failed => "failed",
        DeliveryState::Disabled => "disabled",
    }
}

/// `url` parsed and checked: refused outright when it is (or, through a
/// proxy, resolves to) an internal address; a name a proxy is to reach that
/// does not resolve is a failure to retry.
async fn check_target(deliverer: &Deliverer, url: &str) -> Result<Url, Sent> {
    let target = guard::parse(url).map_err(Sent::Refused)?;
    if deliverer.options.allow_internal {
        return Ok(target);
    }
    guard::check_literal(&target).map_err(Sent::Refused)?;
    if deliverer.options.proxy.is_some() {
        match guard::check_resolved(&target).await {
            Ok(()) => {}
            Err(Ok(internal)) => return Err(Sent::Refused(internal.to_string())),
            Err(Err(lookup)) => {
                return Err(Sent::Transport {
                    error: format!("cannot resolve the host of {target}: {lookup}"),
                    timed_out: false,
                });
            }
        }
    }
    Ok(target)
}

/// Records a chunk's `attempts` to `endpoint` in one write; postpones its
/// pending deliveries if its breaker just `opened`; then turns the server's webhooks off if the last attempt was
/// answered 410 (`gone`) or the endpoint has failed everything for
/// [`outbox::FAILING_LIMIT`].
async fn record(
    cx: &Deliveries,
    endpoint: &Endpoint,
    attempts: Vec<(i64, u32, Outcome)>,
    gone: bool,
    opened: Option<Breaker>,
) -> ModerationResult<()> {
    if attempts.is_empty() {
        // The daemon stopped before the chunk's first attempt ended.
        return Ok(());
    }
    let endpoint = endpoint.clone();
    let secrets = cx.store.secrets().clone();
    cx.store
        .write(move |tx| {
            outbox::record_attempts(tx, &attempts)?;
            let Some((_, _, last)) = attempts.last() else {
                return Ok(());
            };
            let now = last.at;
            if let Some(breaker) = &opened {
                tracing::warn!(
                    server = %endpoint.server_id,
                    timeouts = breaker.timeouts,
                    until = %timestamp(breaker.open_until),
                    "webhook endpoint keeps timing out: its deliveries wait (circuit breaker)"
                );
                postpone(tx, &endpoint, breaker)?;
            }
            let (server_id, url) = (&endpoint.server_id, &endpoint.url);
            let reason = if gone {
                Some(format!(
                    "the endpoint answered 410 Gone at {}: set webhooks.enabled to true again once it accepts events",
                    timestamp(now)
                ))
            } else if last.state != DeliveryState::Delivered {
                failing_too_long(tx, server_id, url, now)?
            } else {
                None
            };
            if let Some(reason) = reason {
                tracing::warn!(server = %server_id, reason, "webhooks turned off");
                disable(tx, &secrets, server_id, reason, now)?;
            }
            Ok::<_, StoreError>(())
        })
        .await?;
    Ok(())
}

/// Why `url` should be turned off when every attempt to it has failed for
/// [`outbox::FAILING_LIMIT`] or longer at `now`; `None` otherwise.
fn failing_too_long(
    tx: &Tx<'_>,
    server_id: &str,
    url: &str,
    now: i64,
) -> Result<Option<String>, StoreError> {
    Ok(outbox::failing_since(tx, server_id, url)?
        .filter(|since| now - since >= outbox::FAILING_LIMIT)
        .map(|since| {
            format!(
                "every delivery to {url} has failed since {} (5 days or more): fix the endpoint, then set webhooks.enabled to true again",
                timestamp(since)
            )
        }))
}
