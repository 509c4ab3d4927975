//! The `webhooks` scenario (issue #11): how fast the delivery worker drains
//! a backlog to a local receiver, and what the outbox costs an action.
//!
//! A fresh database holds two Discord servers of one team: `off`, without
//! webhooks, and `on`, whose webhooks (every `case_created`) go to a local
//! receiver ([`crate::webhooks_receiver`], a minimal HTTP/1.1 endpoint).
//! Before the daemon starts, a backlog of events is written to the outbox
//! of `on`; the daemon (`--webhooks-allow-internal`) delivers it from its
//! first worker tick, and the time from the first to the last delivery gives
//! events/s to one endpoint (one endpoint's deliveries go one after another,
//! so this is the per-endpoint rate).
//!
//! The receiver runs in this process, on the same two cores as the daemon
//! and the load generator, where a real one is the customer's machine. So
//! it only records each delivery while anything is timed and checks every
//! signature after the last phase, with the end-to-end tests' independent
//! implementation (`receiver_check_us` is what that takes per delivery); a
//! delivery that does not verify still fails the run. The end-to-end tests'
//! receiver (axum, checking each delivery as it arrived) took about as much
//! CPU per delivery as the load generator per warn, from the daemon's share
//! of the machine, in the `on` phases only: on/off measured it as much as
//! the outbox. The daemon's CPU per warn (`cpu_us_per_warn_*`) is its own.
//!
//! Then warns are driven by the load generator on `off` and on `on` in
//! turn, off, on, off, on, each for the run's duration, and the two rates
//! are compared (goal: on at least 0.9 of off). Alternating halves the
//! effect of a machine that gets busier or quieter during the run. The
//! deliveries of the `on` phases go on in the daemon meanwhile, as in
//! production.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use modctl_types::Platform;
use modctl_types::config::{SecretUpdate, WebhookEvent, Webhooks};
use modctld::store::config;
use modctld::store::connections::{self, Connection, ConnectionMode};
use serde::Serialize;

use crate::daemon::{Daemon, Probe};
use crate::load::{self, Group, Timing};
use crate::scenario;
use crate::webhooks_receiver::Receiver;

/// The server without webhooks.
const OFF: &str = "930000000000000001";
/// The server whose webhooks go to the receiver.
const ON: &str = "930000000000000002";
/// The receiver's secret.
const SECRET: &str = "whsec_YmVuY2gtYmVuY2gtYmVuY2gtYmVuY2gtYmVuY2g=";
/// How long the backlog may take to arrive before the run gives up.
const DRAIN_LIMIT: Duration = Duration::from_secs(300);

/// What the scenario found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct WebhooksReport {
    /// Events in the backlog.
    pub backlog: usize,
    /// Seconds from the first delivery received to the last.
    pub drain_seconds: f64,
    /// Deliveries per second to the one endpoint.
    pub events_per_s: f64,
    /// Deliveries whose signature the receiver could not verify (goal: 0).
    pub unverified: usize,
    /// The receiver's time to check one delivery, after the run (deferred:
    /// see the module header), microseconds.
    pub receiver_check_us: f64,
    /// warn req/s on the server without webhooks, per phase.
    pub warn_off_per_s: Vec<f64>,
    /// warn req/s on the server with webhooks, per phase.
    pub warn_on_per_s: Vec<f64>,
    /// Mean of `warn_on_per_s` over mean of `warn_off_per_s` (goal: >= 0.9).
    pub on_over_off: f64,
    /// The daemon's CPU time per warn without webhooks, microseconds, per
    /// phase.
    pub cpu_us_per_warn_off: Vec<f64>,
    /// The same with webhooks: the outbox write, and the delivery worker
    /// posting the events meanwhile (the receiver's own CPU, in the bench
    /// process, is not in it).
    pub cpu_us_per_warn_on: Vec<f64>,
    /// Requests that failed (any phase).
    pub errors: u64,
}

/// Runs the scenario with `daemon`, a backlog of `backlog` events and the
/// warn phases timed by `timing` with `connections` connections.
pub async fn run(
    daemon: &Path,
    run_dir: &Path,
    backlog: usize,
    timing: Timing,
    connections: usize,
) -> anyhow::Result<WebhooksReport> {
    let receiver = Receiver::start()?;
    let db = run_dir.join("webhooks.db");
    let key = seed(&db, receiver.url(), backlog).await?;
    let log = run_dir.join("daemon-webhooks.log");
    let modctld = Daemon::start_with(daemon, &db, &log, &["--webhooks-allow-internal"])?;
    eprintln!(
        "modctld (pid {}) delivers {backlog} events to {}; its log: {}",
        modctld.pid(),
        receiver.url(),
        log.display()
    );
    let outcome = measure(&modctld, &receiver, &key, backlog, timing, connections).await;
    modctld.stop()?;
    outcome
}

async fn measure(
    modctld: &Daemon,
    receiver: &Receiver,
    key: &str,
    backlog: usize,
    timing: Timing,
    connections: usize,
) -> anyhow::Result<WebhooksReport> {
    // The backlog: polled every 5 ms, from the first delivery seen.
    let started = Instant::now();
    let mut first: Option<(Instant, usize)> = None;
    loop {
        let received = receiver.count();
        if received > 0 && first.is_none() {
            first = Some((Instant::now(), received));
        }
        if received >= backlog {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < DRAIN_LIMIT,
            "only {received} of {backlog} events arrived in {} s",
            DRAIN_LIMIT.as_secs()
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (first_at, first_count) = first.expect("the loop saw a delivery");
    let drain = first_at.elapsed().as_secs_f64();
    let events_per_s = (backlog - first_count) as f64 / drain.max(1e-6);

    let run_id = format!(
        "{}-{}",
        jiff::Timestamp::now().as_second(),
        std::process::id()
    );
    let off = scenario::warns_on(OFF, key, &format!("{run_id}-off"));
    let on = scenario::warns_on(ON, key, &format!("{run_id}-on"));
    let probe = Probe::new(modctld.pid());
    let (mut warn_off_per_s, mut warn_on_per_s, mut errors) = (Vec::new(), Vec::new(), 0);
    let (mut cpu_us_per_warn_off, mut cpu_us_per_warn_on) = (Vec::new(), Vec::new());
    for phase in 0..4 {
        let (workload, rates, cpu) = if phase % 2 == 0 {
            (off.clone(), &mut warn_off_per_s, &mut cpu_us_per_warn_off)
        } else {
            (on.clone(), &mut warn_on_per_s, &mut cpu_us_per_warn_on)
        };
        let groups = [Group {
            workload,
            connections,
        }];
        let (results, usage) = load::run(modctld.addr(), &groups, timing, probe).await;
        errors += results[0].errors;
        rates.push(results[0].per_second());
        if let Some(micros) = usage.daemon_cpu_micros.filter(|_| results[0].requests > 0) {
            cpu.push(micros as f64 / results[0].requests as f64);
        }
    }
    let mean = |rates: &[f64]| rates.iter().sum::<f64>() / rates.len() as f64;
    let on_over_off = mean(&warn_on_per_s) / mean(&warn_off_per_s).max(1e-9);
    let checking = Instant::now();
    let (received, verified) = receiver.check(SECRET);
    let checking = checking.elapsed();
    Ok(WebhooksReport {
        backlog,
        drain_seconds: drain,
        events_per_s,
        unverified: received - verified,
        receiver_check_us: checking.as_secs_f64() * 1e6 / received.max(1) as f64,
        warn_off_per_s,
        warn_on_per_s,
        on_over_off,
        cpu_us_per_warn_off,
        cpu_us_per_warn_on,
        errors,
    })
}

/// A database with team `bench` (Pro), a read+write key (returned), the two
/// servers on the simulator, `on`'s webhooks pointed at `url` and a backlog
/// of `backlog` events in its outbox.
async fn seed(db: &Path, url: &str, backlog: usize) -> anyhow::Result<String> {
    let (store, team, key) = crate::seed::fresh(db, "bench webhooks").await?;
    let now = jiff::Timestamp::now().as_second();
    let secrets = store.secrets().clone();
    let url = url.to_owned();
    store
        .write(move |tx| {
            for (id, name) in [(OFF, "webhooks off"), (ON, "webhooks on")] {
                modctld::servers::claim(tx, team, Platform::Discord, id, name, now)?;
                connections::set(
                    tx,
                    &secrets,
                    id,
                    &Connection::new(ConnectionMode::Simulated),
                    now,
                )?;
            }
            let mut sections = config::load(tx, ON)?.sections;
            sections.webhooks = Webhooks {
                enabled: true,
                url: Some(url),
                events: vec![WebhookEvent::CaseCreated],
                secret: SecretUpdate::Set(SECRET.into()),
                ..Webhooks::default()
            };
            modctld::config::apply(
                tx,
                &secrets,
                modctld::config::Change::by(
                    ON,
                    "bench",
                    sections,
                    jiff::Timestamp::now().as_second(),
                ),
            )?;
            let now = jiff::Timestamp::now().as_second();
            for n in 0..backlog {
                modctld::webhooks::enqueue(
                    tx,
                    ON,
                    WebhookEvent::Test,
                    &modctld::webhooks::test_data("bench"),
                    now,
                )?
                .with_context(|| format!("event {n} of the backlog was not written"))?;
            }
            Ok::<_, anyhow::Error>(())
        })
        .await?;
    Ok(key)
}
