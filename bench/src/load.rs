//! The load generator: kept-alive HTTP/1.1 connections on hyper, each sending
//! its next request as soon as the previous answer is read (a closed loop,
//! like wrk), for a fixed time or a fixed number of requests.
//!
//! A run has one or more groups of connections, each with its own
//! [`Workload`] and its own results, started together and measured over the
//! same window; "warn with concurrent reads" is two groups. Requests first
//! run for a warm-up (connections open, caches fill) that is not counted.
//! After it, a request counts if it started in the window and its answer
//! arrived before the window closed, so requests/second is counted requests
//! over the window's length. Each connection keeps its own histogram and
//! they are merged at the end, so nothing is shared on the hot path except
//! one atomic counter in a fixed-count run.
//!
//! While the load runs, a [`Probe`] samples the daemon's resident memory
//! every 50 ms, and its CPU time is read when the window opens and closes.
//!
//! Write workloads name the case each request should create; every answer
//! with the expected status must carry a `case_id`, and these
//! acknowledgements (warm-up included) are returned for [`crate::verify`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::daemon::{Neighbours, Probe};

/// How often the daemon's memory is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(50);
/// A connection that fails this many times in a row gives up: the daemon is
/// gone, and spinning would only hide that.
const MAX_CONSECUTIVE_FAILURES: u32 = 100;
/// Latencies are recorded in microseconds, up to a minute, to 3 digits.
const MAX_LATENCY_MICROS: u64 = 60_000_000;

/// A request to send, and for a write the case it should create.
#[derive(Debug)]
pub struct Planned {
    /// The request, with every header it needs (the load generator adds `Host`).
    pub request: Request<Full<Bytes>>,
    /// For an action: what its case must record.
    pub write: Option<WriteTarget>,
}

/// What an action's case must record, checked after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteTarget {
    /// The server acted on: a case id is its number on this server.
    pub server_id: String,
    /// The action, e.g. `warn`.
    pub action: &'static str,
    /// The member acted on.
    pub user_id: String,
}

/// Makes the requests of one group.
pub trait Workload: Send + Sync {
    /// The next request. Called concurrently by every connection of the group.
    fn next(&self) -> Planned;
    /// The status every answer must have.
    fn expected(&self) -> StatusCode {
        StatusCode::OK
    }
}

/// A group of connections sharing a workload.
#[derive(Clone)]
pub struct Group {
    /// The workload.
    pub workload: Arc<dyn Workload>,
    /// How many connections.
    pub connections: usize,
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("connections", &self.connections)
            .finish_non_exhaustive()
    }
}

/// When a run stops.
#[derive(Debug, Clone, Copy)]
pub enum Stop {
    /// After this long (after the warm-up).
    After(Duration),
    /// After this many counted requests, across all groups.
    Requests(u64),
}

/// How long a run warms up and when it stops.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Requests sent before the window opens, not counted.
    pub warmup: Duration,
    /// When the window closes.
    pub stop: Stop,
}

/// An action the daemon acknowledged: its answer had the expected status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acked {
    /// The case id in the answer (its number on the target's server).
    pub case_id: i64,
    /// What the case must record.
    pub target: WriteTarget,
}

/// What one group measured.
#[derive(Debug)]
pub struct GroupResult {
    /// Counted requests (expected status, inside the window).
    pub requests: u64,
    /// The window's length.
    pub window: Duration,
    /// Latency of the counted requests, microseconds.
    pub latency: Histogram<u64>,
    /// Answers with another status than expected, and transport failures,
    /// warm-up included.
    pub errors: u64,
    /// The first of those, for the report.
    pub first_error: Option<String>,
    /// Every acknowledged action.
    pub acked: Vec<Acked>,
}

impl GroupResult {
    /// Counted requests per second.
    pub fn per_second(&self) -> f64 {
        if self.window.is_zero() {
            0.0
        } else {
            self.requests as f64 / self.window.as_secs_f64()
        }
    }
}

/// What the daemon process used during the window.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    /// Daemon CPU time (user + system), microseconds.
    pub daemon_cpu_micros: Option<u64>,
    /// Highest resident memory sampled, KiB.
    pub daemon_rss_peak_kib: Option<u64>,
    /// The load generator's own CPU time, microseconds (it shares the machine).
    pub client_cpu_micros: Option<u64>,
    /// CPU time of the other processes on the machine, microseconds:
    /// anything more than a little means a neighbour took CPU from the
    /// measurement.
    pub other_cpu_micros: Option<u64>,
    /// CPU time the hypervisor gave to other guests, microseconds.
    pub steal_micros: Option<u64>,
}

struct Shared {
    addr: SocketAddr,
    host: hyper::header::HeaderValue,
    window_opens: Instant,
    window_closes: Option<Instant>,
    /// Counted requests still to send in a fixed-count run.
    remaining: Option<AtomicI64>,
}

/// Runs `groups` against `addr` with `timing`, watching the daemon with `probe`.
pub async fn run(
    addr: SocketAddr,
    groups: &[Group],
    timing: Timing,
    probe: Probe,
) -> (Vec<GroupResult>, Usage) {
    let started = Instant::now();
    let window_opens = started + timing.warmup;
    let (window_closes, remaining) = match timing.stop {
        Stop::After(length) => (Some(window_opens + length), None),
        Stop::Requests(n) => (None, Some(AtomicI64::new(n as i64))),
    };
    let shared = Arc::new(Shared {
        addr,
        host: hyper::header::HeaderValue::from_str(&addr.to_string())
            .expect("an address is a valid header"),
        window_opens,
        window_closes,
        remaining,
    });

    let finished = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn(sample(probe, window_opens, window_closes, finished.clone()));
    let mut tasks = Vec::new();
    for group in groups {
        let connections: Vec<_> = (0..group.connections)
            .map(|_| tokio::spawn(connection(shared.clone(), group.workload.clone())))
            .collect();
        tasks.push(connections);
    }
    let mut results = Vec::new();
    for connections in tasks {
        let mut merged = Connection::new();
        for task in connections {
            merged.merge(task.await.expect("a connection task panicked"));
        }
        results.push(merged);
    }
    finished.store(true, Ordering::Release);
    let usage = sampler.await.expect("the sampler panicked");

    // A fixed-count window closes when its last counted answer arrives.
    let closes = window_closes.unwrap_or_else(|| {
        results
            .iter()
            .filter_map(|r| r.last_counted)
            .max()
            .unwrap_or(window_opens)
    });
    let window = closes.saturating_duration_since(window_opens);
    let results = results
        .into_iter()
        .map(|c| GroupResult {
            requests: c.requests,
            window,
            latency: c.latency,
            errors: c.errors,
            first_error: c.first_error,
            acked: c.acked,
        })
        .collect();
    (results, usage)
}

async fn sample(
    probe: Probe,
    window_opens: Instant,
    window_closes: Option<Instant>,
    finished: Arc<AtomicBool>,
) -> Usage {
    let client = Probe::new(std::process::id());
    tokio::time::sleep_until(window_opens).await;
    let (cpu_before, client_before) = (probe.cpu_micros(), client.cpu_micros());
    let exclude = [probe.pid(), std::process::id()];
    let neighbours_before = Neighbours::now(&exclude);
    let mut peak = probe.rss_kib();
    loop {
        let now = Instant::now();
        let done = match window_closes {
            Some(closes) => now >= closes,
            None => finished.load(Ordering::Acquire),
        };
        if done {
            break;
        }
        let next = now + SAMPLE_EVERY;
        tokio::time::sleep_until(window_closes.map_or(next, |c| next.min(c))).await;
        peak = peak.max(probe.rss_kib());
    }
    let delta = |before: Option<u64>, after: Option<u64>| Some(after?.saturating_sub(before?));
    let daemon_cpu = delta(cpu_before, probe.cpu_micros());
    let client_cpu = delta(client_before, client.cpu_micros());
    let neighbours_after = Neighbours::now(&exclude);
    let neighbours = |field: fn(&Neighbours) -> u64| {
        delta(
            neighbours_before.as_ref().map(field),
            neighbours_after.as_ref().map(field),
        )
    };
    Usage {
        daemon_cpu_micros: daemon_cpu,
        daemon_rss_peak_kib: peak,
        client_cpu_micros: client_cpu,
        other_cpu_micros: neighbours(|n| n.busy),
        steal_micros: neighbours(|n| n.steal),
    }
}

/// What one connection measured.
struct Connection {
    requests: u64,
    latency: Histogram<u64>,
    errors: u64,
    first_error: Option<String>,
    acked: Vec<Acked>,
    last_counted: Option<Instant>,
}

impl Connection {
    fn new() -> Connection {
        Connection {
            requests: 0,
            latency: new_histogram(),
            errors: 0,
            first_error: None,
            acked: Vec::new(),
            last_counted: None,
        }
    }

    fn merge(&mut self, other: Connection) {
        self.requests += other.requests;
        self.latency
            .add(&other.latency)
            .expect("histograms with equal bounds merge");
        self.errors += other.errors;
        self.first_error = self.first_error.take().or(other.first_error);
        self.acked.extend(other.acked);
        self.last_counted = self.last_counted.max(other.last_counted);
    }

    fn error(&mut self, message: impl FnOnce() -> String) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(message());
        }
    }
}

/// An empty latency histogram, microseconds.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_LATENCY_MICROS, 3).expect("valid histogram bounds")
}

/// One connection's closed loop.
async fn connection(shared: Arc<Shared>, workload: Arc<dyn Workload>) -> Connection {
    let mut me = Connection::new();
    let mut sender: Option<SendRequest<Full<Bytes>>> = None;
    let mut failures_in_a_row = 0;
    let expected = workload.expected();
    loop {
        let now = Instant::now();
        if shared.window_closes.is_some_and(|closes| now >= closes) {
            break;
        }
        let counted = now >= shared.window_opens;
        if counted
            && let Some(remaining) = &shared.remaining
            && remaining.fetch_sub(1, Ordering::Relaxed) <= 0
        {
            break;
        }
        if failures_in_a_row >= MAX_CONSECUTIVE_FAILURES {
            me.error(|| format!("gave up after {failures_in_a_row} failures in a row"));
            break;
        }
        let live = match sender.as_mut() {
            Some(live) => live,
            None => match connect(shared.addr).await {
                Ok(new) => sender.insert(new),
                Err(e) => {
                    failures_in_a_row += 1;
                    me.error(|| format!("cannot connect: {e}"));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        let Planned { mut request, write } = workload.next();
        request
            .headers_mut()
            .insert(hyper::header::HOST, shared.host.clone());
        let sent = Instant::now();
        match exchange(live, request).await {
            Ok((status, body)) => {
                let answered = Instant::now();
                if status != expected {
                    failures_in_a_row += 1;
                    me.error(|| {
                        format!(
                            "expected {expected}, got {status}: {}",
                            String::from_utf8_lossy(&body[..body.len().min(300)])
                        )
                    });
                    continue;
                }
                failures_in_a_row = 0;
                if let Some(target) = write {
                    match case_id(&body) {
                        Some(case_id) => me.acked.push(Acked { case_id, target }),
                        None => me.error(|| {
                            format!(
                                "an acknowledged action has no case_id: {}",
                                String::from_utf8_lossy(&body[..body.len().min(300)])
                            )
                        }),
                    }
                }
                if counted && shared.window_closes.is_none_or(|closes| answered <= closes) {
                    me.requests += 1;
                    let micros = answered.duration_since(sent).as_micros() as u64;
                    me.latency
                        .saturating_record(micros.clamp(1, MAX_LATENCY_MICROS));
                    me.last_counted = Some(answered);
                }
            }
            Err(e) => {
                failures_in_a_row += 1;
                me.error(|| format!("request failed: {e}"));
                sender = None;
            }
        }
    }
    me
}

/// A kept-alive HTTP/1.1 connection to `addr`, Nagle off.
pub async fn connect(addr: SocketAddr) -> anyhow::Result<SendRequest<Full<Bytes>>> {
    let stream = TcpStream::connect(addr).await?;
    // Requests are small and answered one at a time: Nagle would only add delay.
    stream.set_nodelay(true)?;
    let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        // Ends when the sender is dropped or the daemon closes the connection;
        // the sender's next request reports the latter.
        let _ = connection.await;
    });
    Ok(sender)
}

async fn exchange(
    sender: &mut SendRequest<Full<Bytes>>,
    request: Request<Full<Bytes>>,
) -> anyhow::Result<(StatusCode, Bytes)> {
    sender.ready().await?;
    let response = sender.send_request(request).await?;
    let status = response.status();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, body))
}

/// The `case_id` of an action's answer.
fn case_id(body: &[u8]) -> Option<i64> {
    #[derive(serde::Deserialize)]
    struct Answer {
        case_id: i64,
    }
    serde_json::from_slice::<Answer>(body)
        .ok()
        .map(|a| a.case_id)
}

/// Percentiles of a latency histogram, microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Latency {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Slowest.
    pub max: u64,
}

impl Latency {
    /// The percentiles of `histogram`; all zero when it is empty.
    pub fn of(histogram: &Histogram<u64>) -> Latency {
        if histogram.is_empty() {
            return Latency {
                p50: 0,
                p90: 0,
                p99: 0,
                max: 0,
            };
        }
        Latency {
            p50: histogram.value_at_quantile(0.50),
            p90: histogram.value_at_quantile(0.90),
            p99: histogram.value_at_quantile(0.99),
            max: histogram.max(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_distribution() {
        let mut histogram = new_histogram();
        // 1..=1000 µs once each: the p-th percentile is p*10 µs.
        for micros in 1..=1000 {
            histogram.record(micros).unwrap();
        }
        let latency = Latency::of(&histogram);
        // Three significant digits: within 0.1% of the exact value.
        assert!(latency.p50.abs_diff(500) <= 1, "{latency:?}");
        assert!(latency.p90.abs_diff(900) <= 1, "{latency:?}");
        assert!(latency.p99.abs_diff(990) <= 1, "{latency:?}");
        assert!(latency.max.abs_diff(1000) <= 1, "{latency:?}");
    }

    #[test]
    fn one_slow_request_in_a_hundred_shows_at_p99_but_not_p50() {
        let mut histogram = new_histogram();
        for _ in 0..98 {
            histogram.record(200).unwrap();
        }
        histogram.record(50_000).unwrap();
        histogram.record(50_000).unwrap();
        let latency = Latency::of(&histogram);
        assert_eq!(latency.p50, 200);
        assert!(latency.p99.abs_diff(50_000) <= 50, "{latency:?}");
    }

    #[test]
    fn an_empty_histogram_has_zero_percentiles() {
        assert_eq!(Latency::of(&new_histogram()).p99, 0);
    }

    #[test]
    fn case_ids_are_read_from_action_answers() {
        assert_eq!(case_id(br#"{"case_id": 42, "applied": true}"#), Some(42));
        assert_eq!(case_id(br#"{"error": "nope"}"#), None);
        assert_eq!(case_id(b"not json"), None);
    }
}
