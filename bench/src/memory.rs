//! The `memory` scenario (issue #22): what a burst of the largest activity
//! batches costs the daemon's memory, and whether it gives the memory back.
//!
//! A fresh database holds one Discord server of the bench team. The daemon
//! starts idle; then [`Shape::batches`] batches of [`Shape::events`] events
//! with [`Shape::id_bytes`]-byte ids (the largest a batch may carry, about
//! 3.3 MiB of JSON each) are posted at once, each on a connection of its
//! own, as a crowd of importers would. A batch refused for the daemon's
//! memory budget (`503` or `429` with `Retry-After`) is posted again after
//! the wait it was given, as a client should; every batch must end counted
//! whole. The daemon's `VmRSS` is sampled every 20 ms from the first post to
//! the last answer (the peak), then every 100 ms for [`Shape::watch`]
//! after it: how long until it is back under [`SETTLED_KIB`].
//!
//! Goals (issue #22): a peak under [`PEAK_GOAL_KIB`], back under
//! [`SETTLED_KIB`] within 30 s. Reported, never asserted: the run fails
//! only on a wrong answer or a batch not counted.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, RETRY_AFTER};
use hyper::{Method, Request, StatusCode};
use modctl_types::Platform;
use modctl_types::activity::BatchReceipt;
use serde::Serialize;
use tokio::time::Instant;

use crate::daemon::{Daemon, Probe};
use crate::load;

/// The server the batches are posted to.
const SERVER: &str = "940000000000000001";
/// The goal of the peak, KiB (150 MiB).
pub const PEAK_GOAL_KIB: u64 = 150 * 1024;
/// What the daemon should be back under after the burst, KiB (60 MiB).
pub const SETTLED_KIB: u64 = 60 * 1024;
/// Seconds after the burst at which the report gives the daemon's RSS (and
/// at the end of the watch).
const REPORT_AFTER_S: [f64; 6] = [0.0, 1.0, 5.0, 10.0, 15.0, 20.0];
/// A batch refused more often than this fails the run: the daemon is not
/// letting it in at all.
const MAX_ATTEMPTS: u32 = 200;

/// How big the burst is, and how long the daemon is watched after it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shape {
    /// Batches posted at once, each on its own connection.
    pub batches: usize,
    /// Events per batch.
    pub events: usize,
    /// Bytes of each event id.
    pub id_bytes: usize,
    /// How long the daemon's memory is watched after the last answer.
    #[serde(serialize_with = "seconds")]
    pub watch: Duration,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Shape {
    /// The issue's burst (96 batches of 10,000 events, 200-byte ids,
    /// watched 30 s), or for `--smoke` twelve of them (twice what the
    /// default budget lets one team hold, so some are refused and posted
    /// again) watched 2 s.
    pub fn of(smoke: bool) -> Shape {
        Shape {
            batches: if smoke { 12 } else { 96 },
            events: modctl_types::activity::MAX_BATCH_EVENTS,
            id_bytes: modctl_types::activity::MAX_EVENT_ID_BYTES,
            watch: Duration::from_secs(if smoke { 2 } else { 30 }),
        }
    }
}

/// What the scenario found, as the JSON has it.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryReport {
    /// The burst.
    pub shape: Shape,
    /// Bytes of each batch's body.
    pub body_bytes: usize,
    /// The daemon's RSS before the burst, KiB.
    pub idle_rss_kib: Option<u64>,
    /// Its highest RSS sampled from the first post to the last answer, KiB
    /// (goal: under [`PEAK_GOAL_KIB`]).
    pub peak_rss_kib: Option<u64>,
    /// Seconds from the first post to the last answer.
    pub burst_seconds: f64,
    /// Answers `503`/`429` (memory budget spent), each posted again after
    /// its `Retry-After`.
    pub refused: u64,
    /// Events counted, over every receipt (must be batches x events).
    pub counted: u64,
    /// The daemon's RSS after the last answer: (seconds after it, KiB), at
    /// 0, 1, 5, 10, 15, 20 s and the end of the watch.
    pub rss_after_kib: Vec<(f64, u64)>,
    /// Seconds after the last answer when RSS was first under
    /// [`SETTLED_KIB`] (goal: within 30 s); `None` if it never was while
    /// watched.
    pub settled_after_s: Option<f64>,
    /// Wrong answers and failed requests.
    pub errors: u64,
    /// The first of those.
    pub first_error: Option<String>,
}

/// Runs the scenario with `daemon` (a binary) in `run_dir`.
pub async fn run(daemon: &Path, run_dir: &Path, shape: Shape) -> anyhow::Result<MemoryReport> {
    let db = run_dir.join("memory.db");
    let key = seed(&db).await?;
    let log = run_dir.join("daemon-memory.log");
    let modctld = Daemon::start(daemon, &db, &log)?;
    eprintln!(
        "modctld (pid {}) takes {} batches of {} events at once; its log: {}",
        modctld.pid(),
        shape.batches,
        shape.events,
        log.display()
    );
    let outcome = measure(&modctld, &key, shape).await;
    modctld.stop()?;
    outcome
}

/// A database with team `bench` (Pro), a read+write key (returned) and
/// the server the batches go to.
async fn seed(db: &Path) -> anyhow::Result<String> {
    let (store, team, key) = crate::seed::fresh(db, "bench memory").await?;
    let now = jiff::Timestamp::now().as_second();
    store
        .write(move |tx| {
            modctld::servers::claim(tx, team, Platform::Discord, SERVER, "memory", now)
        })
        .await?;
    Ok(key)
}

/// The body of batch `n`: [`Shape::events`] messages with ids unique to
/// the run, [`Shape::id_bytes`] long, members and channels spread as in
/// `activity-batch`, a minute ago.
fn body(shape: Shape, run_id: &str, n: usize, at: &str) -> Bytes {
    use std::fmt::Write as _;
    let mut body = String::with_capacity(shape.events * (shape.id_bytes + 130));
    body.push_str(r#"{"events":["#);
    for i in 0..shape.events {
        if i > 0 {
            body.push(',');
        }
        let k = (n * shape.events + i) as u64;
        let mut id = format!("mem-{run_id}-{n}-{i}-");
        id.extend(std::iter::repeat_n(
            'x',
            shape.id_bytes.saturating_sub(id.len()),
        ));
        let _ = write!(
            body,
            r#"{{"id":"{id}","kind":"message","user_id":"5{:017}","channel_id":"7{:017}","at":"{at}"}}"#,
            k.wrapping_mul(2_654_435_761) % 20_000,
            k % 40,
        );
    }
    body.push_str("]}");
    Bytes::from(body)
}

async fn measure(modctld: &Daemon, key: &str, shape: Shape) -> anyhow::Result<MemoryReport> {
    let run_id = format!(
        "{}-{}",
        jiff::Timestamp::now().as_second(),
        std::process::id()
    );
    let at = jiff::Timestamp::now()
        .checked_sub(jiff::SignedDuration::from_secs(60))
        .expect("now minus a minute")
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let bodies: Vec<Bytes> = (0..shape.batches)
        .map(|n| body(shape, &run_id, n, &at))
        .collect();
    let body_bytes = bodies.first().map_or(0, Bytes::len);
    let target = Target {
        addr: modctld.addr(),
        uri: format!("/api/v1/servers/{SERVER}/activity"),
        auth: format!("Bearer {key}"),
    };
    let probe = Probe::new(modctld.pid());
    let idle_rss_kib = probe.rss_kib();

    // Every connection is open before the first batch is sent.
    let mut senders = Vec::with_capacity(shape.batches);
    for _ in 0..shape.batches {
        senders.push(load::connect(target.addr).await?);
    }
    let target = Arc::new(target);
    let done = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn(peak(probe, done.clone()));
    let started = Instant::now();
    let posts: Vec<_> = senders
        .into_iter()
        .zip(bodies)
        .map(|(sender, body)| tokio::spawn(post(target.clone(), sender, body)))
        .collect();
    let mut outcome = Posted::default();
    for post in posts {
        let one = post.await.expect("a post task panicked");
        outcome.counted += one.counted;
        outcome.refused += one.refused;
        outcome.errors += one.errors;
        outcome.first_error = outcome.first_error.or(one.first_error);
    }
    let burst = started.elapsed();
    done.store(true, Ordering::Release);
    let peak_rss_kib = sampler.await.expect("the sampler panicked");

    let expected = (shape.batches * shape.events) as u64;
    if outcome.counted != expected && outcome.errors == 0 {
        outcome.errors += 1;
        outcome.first_error = Some(format!(
            "{} events counted, {expected} posted (every id is new)",
            outcome.counted
        ));
    }

    // After the burst: when the daemon is back under SETTLED_KIB, and its
    // RSS at a few points for the report.
    let settled_from = Instant::now();
    let mut rss_after_kib = Vec::new();
    let mut settled_after_s = None;
    let mut points = REPORT_AFTER_S
        .iter()
        .copied()
        .filter(|&s| s < shape.watch.as_secs_f64())
        .chain([shape.watch.as_secs_f64()])
        .peekable();
    while let Some(&point) = points.peek() {
        let after = settled_from.elapsed().as_secs_f64();
        let Some(rss) = probe.rss_kib() else { break };
        if settled_after_s.is_none() && rss < SETTLED_KIB {
            settled_after_s = Some(after);
        }
        if after >= point {
            rss_after_kib.push((point, rss));
            points.next();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(MemoryReport {
        shape,
        body_bytes,
        idle_rss_kib,
        peak_rss_kib,
        burst_seconds: burst.as_secs_f64(),
        refused: outcome.refused,
        counted: outcome.counted,
        rss_after_kib,
        settled_after_s,
        errors: outcome.errors,
        first_error: outcome.first_error,
    })
}

/// Where the batches go, and the key.
struct Target {
    addr: SocketAddr,
    uri: String,
    auth: String,
}

/// What posting one batch (or all of them) came to.
#[derive(Debug, Default)]
struct Posted {
    counted: u64,
    refused: u64,
    errors: u64,
    first_error: Option<String>,
}

/// Posts `body` until it is counted: again after each refusal's
/// `Retry-After`, on a new connection if the daemon closed this one.
async fn post(target: Arc<Target>, sender: SendRequest<Full<Bytes>>, body: Bytes) -> Posted {
    let mut me = Posted::default();
    let mut sender = Some(sender);
    for _ in 0..MAX_ATTEMPTS {
        let live = match sender.as_mut() {
            Some(live) => live,
            None => match load::connect(target.addr).await {
                Ok(new) => sender.insert(new),
                Err(e) => {
                    me.errors += 1;
                    me.first_error = Some(format!("cannot connect: {e}"));
                    return me;
                }
            },
        };
        let request = Request::builder()
            .method(Method::POST)
            .uri(&target.uri)
            .header(HOST, target.addr.to_string())
            .header(AUTHORIZATION, &target.auth)
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(body.clone()))
            .expect("a valid request");
        let answer = async {
            live.ready().await?;
            let response = live.send_request(request).await?;
            let status = response.status();
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
            let body = response.into_body().collect().await?.to_bytes();
            anyhow::Ok((status, retry_after, body))
        };
        match answer.await {
            Ok((StatusCode::OK, _, answer)) => {
                match serde_json::from_slice::<BatchReceipt>(&answer) {
                    Ok(receipt) => me.counted += receipt.counted,
                    Err(e) => {
                        me.errors += 1;
                        me.first_error = Some(format!("a receipt that does not parse: {e}"));
                    }
                }
                return me;
            }
            Ok((
                StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS,
                Some(wait),
                _,
            )) => {
                me.refused += 1;
                tokio::time::sleep(Duration::from_secs(wait)).await;
            }
            Ok((status, _, answer)) => {
                me.errors += 1;
                me.first_error = Some(format!(
                    "expected 200 (or 503/429 with Retry-After), got {status}: {}",
                    String::from_utf8_lossy(&answer[..answer.len().min(300)])
                ));
                return me;
            }
            Err(e) => {
                // The daemon may close a connection it refused a batch on:
                // the next attempt opens a new one.
                me.refused += 1;
                sender = None;
                if me.refused > u64::from(MAX_ATTEMPTS) / 2 {
                    me.errors += 1;
                    me.first_error = Some(format!("request failed: {e}"));
                    return me;
                }
            }
        }
    }
    me.errors += 1;
    me.first_error = Some(format!("refused {MAX_ATTEMPTS} times"));
    me
}

/// The highest RSS of the daemon, sampled every 20 ms until `done`.
async fn peak(probe: Probe, done: Arc<AtomicBool>) -> Option<u64> {
    let mut peak = probe.rss_kib();
    while !done.load(Ordering::Acquire) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        peak = peak.max(probe.rss_kib());
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_has_the_events_and_id_length_asked_for() {
        let shape = Shape {
            batches: 1,
            events: 3,
            id_bytes: 200,
            watch: Duration::ZERO,
        };
        let body = body(shape, "run", 7, "2026-01-01T00:00:00Z");
        let batch: modctl_types::activity::ActivityBatch = serde_json::from_slice(&body).unwrap();
        assert_eq!(batch.events.len(), 3);
        assert!(batch.events.iter().all(|e| e.id.len() == 200));
        assert!(batch.events[0].id.starts_with("mem-run-7-0-"));
        // The full burst's batches are about 3.2 MB (3.05 MiB) each.
        let full = super::body(
            Shape::of(false),
            "1700000000-12345",
            95,
            "2026-01-01T00:00:00Z",
        );
        assert!(
            (3_100_000..3_400_000).contains(&full.len()),
            "{}",
            full.len()
        );
    }
}
