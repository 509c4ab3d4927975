//! The registry of every instrument, and what is read at each scrape.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::registry::Registry;

use super::{Hits, Outcomes, process};
use crate::platform::telemetry::PlatformMetrics;
use crate::receive::Receivers;
use crate::store::telemetry::StoreMetrics;
use crate::store::{self, Store, StoreError};

/// The `Content-Type` of what [`render`] writes: the Prometheus text
/// format, version 0.0.4 (what every Prometheus scrapes).
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// What a scrape reads and writes: the registry, and the gauges set from
/// the store and the sessions before it is encoded.
#[derive(Debug)]
pub struct Scrape {
    registry: Registry,
    store: Store,
    receivers: Receivers,
    webhook_backlog: Gauge,
    log_backlog: Gauge,
    restore_jobs: Family<StateLabel, Gauge>,
    sessions: Family<SessionLabels, Gauge>,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SessionLabels {
    kind: &'static str,
    state: &'static str,
}

/// The instruments of a serving daemon, each kept by its part (see the
/// module header).
#[derive(Debug)]
pub struct Parts {
    /// The database, read at each scrape; its writer's and readers'
    /// instruments.
    pub store: Store,
    /// The platform sessions, counted at each scrape.
    pub receivers: Receivers,
    /// The HTTP API's requests.
    pub http: super::Http,
    /// Calls to the platforms.
    pub platforms: PlatformMetrics,
    /// Automod's hits.
    pub hits: Hits,
    /// Webhook delivery attempts by outcome.
    pub webhook_deliveries: Outcomes,
    /// Log entries by the outcome of their post.
    pub log_posts: Outcomes,
    /// Structure snapshots taken, by outcome.
    pub snapshots: Outcomes,
    /// The event path, whose consumers' queues are read at each scrape.
    pub events: crate::events::Fanout,
    /// Name lookups by platform and outcome.
    pub name_lookups: crate::names::lookup::LookupCounts,
}

/// The restore jobs' states, every one shown (zeros included).
const RESTORE_STATES: [&str; 4] = ["queued", "running", "done", "failed"];

/// Registers every instrument of `parts` under `modctld_`, and the process's
/// figures under their conventional names.
pub fn registry(parts: Parts) -> Scrape {
    let mut root = Registry::default();
    root.register_collector(Box::new(ProcessCollector));
    let ours = root.sub_registry_with_prefix("modctld");
    let Parts {
        store,
        receivers,
        http,
        platforms,
        hits,
        webhook_deliveries,
        log_posts,
        snapshots,
        events,
        name_lookups,
    } = parts;

    ours.register(
        "http_requests",
        "Requests answered by the API, by route (path template), method and status",
        http.requests,
    );
    ours.register(
        "http_request_duration_seconds",
        "Seconds from a request's arrival to its answer, by route and method",
        http.request_seconds,
    );
    ours.register(
        "http_requests_in_flight",
        "Requests being served now",
        http.in_flight,
    );

    let StoreMetrics {
        writer_queue,
        commit_seconds,
        writes_per_commit,
        reader_wait_seconds,
    } = store.metrics().clone();
    ours.register(
        "store_writer_queue_depth",
        "Writes waiting for the writer thread",
        writer_queue,
    );
    ours.register(
        "store_commit_duration_seconds",
        "Seconds a commit took (its fsync)",
        commit_seconds,
    );
    ours.register(
        "store_writes_per_commit",
        "Writes one committed transaction held (writes are grouped while they queue)",
        writes_per_commit,
    );
    ours.register(
        "store_reader_wait_seconds",
        "Seconds a read waited for a free reader connection",
        reader_wait_seconds,
    );

    ours.register(
        "platform_calls",
        "Attempts of calls to the platforms' APIs, by platform and outcome",
        platforms.calls,
    );
    ours.register(
        "platform_call_duration_seconds",
        "Seconds an attempt of a platform call took, by platform",
        platforms.call_seconds,
    );
    ours.register(
        "platform_retry_wait_seconds",
        "Seconds waited before retrying a platform call (429 retry_after, 5xx backoff)",
        platforms.retry_wait_seconds,
    );
    ours.register(
        "platform_rate_limit_wait_seconds",
        "Seconds Discord requests waited for their rate-limit bucket before being sent",
        platforms.rate_limit_wait_seconds,
    );

    // Every known outcome shown from the start, at 0: a rate over a series
    // that appears only at its first increment misses that increment.
    for (counts, outcomes) in [
        (
            &webhook_deliveries,
            &["delivered", "retry", "failed", "disabled"][..],
        ),
        (
            &log_posts,
            &["posted", "retry", "channel_failed", "given_up"][..],
        ),
        (&snapshots, &["taken", "failed"][..]),
    ] {
        for &outcome in outcomes {
            super::count(counts, outcome, 0);
        }
    }
    ours.register(
        "automod_hits",
        "Messages caught by automod, by filter and enforcer (daemon or native)",
        hits,
    );
    ours.register(
        "webhook_deliveries",
        "Webhook delivery attempts, by outcome (delivered, retry, failed)",
        webhook_deliveries,
    );
    ours.register(
        "log_posts",
        "Log channel entries, by the outcome of their post (posted, retry, channel_failed, given_up)",
        log_posts,
    );
    ours.register(
        "snapshots",
        "Structure snapshots taken, by outcome (taken, failed)",
        snapshots,
    );
    for platform in modctl_types::Platform::ALL {
        for outcome in crate::names::lookup::OUTCOMES {
            name_lookups
                .get_or_create(&crate::platform::telemetry::CallLabels {
                    platform: platform.as_str(),
                    outcome,
                })
                .inc_by(0);
        }
    }
    ours.register(
        "name_lookups",
        "Names asked of the platforms for ids the events never named, by platform and outcome (found, not_found, failed)",
        name_lookups,
    );
    ours.register_collector(Box::new(EventsCollector(events)));

    let (webhook_backlog, log_backlog) = (Gauge::default(), Gauge::default());
    let restore_jobs = Family::<StateLabel, Gauge>::default();
    let sessions = Family::<SessionLabels, Gauge>::default();
    ours.register(
        "webhook_outbox_backlog",
        "Webhook deliveries waiting for an attempt",
        webhook_backlog.clone(),
    );
    ours.register(
        "log_outbox_backlog",
        "Log channel entries waiting to be posted",
        log_backlog.clone(),
    );
    ours.register(
        "restore_jobs",
        "Restore jobs, by state",
        restore_jobs.clone(),
    );
    ours.register(
        "platform_sessions",
        "Platform sessions (gateway, polling, webhook) of this daemon, by kind and state",
        sessions.clone(),
    );
    Scrape {
        registry: root,
        store,
        receivers,
        webhook_backlog,
        log_backlog,
        restore_jobs,
        sessions,
    }
}

/// Reads what is a state now (backlogs, jobs, sessions) and writes every
/// metric in the Prometheus text format.
pub async fn render(scrape: &Scrape) -> Result<String, StoreError> {
    let (webhooks, logs, jobs) = scrape
        .store
        .read(|tx| {
            Ok::<_, StoreError>((
                store::webhooks::pending_count(tx)?,
                store::logs::backlog(tx)?,
                store::restore::count_by_state(tx)?,
            ))
        })
        .await?;
    scrape.webhook_backlog.set(webhooks);
    scrape.log_backlog.set(logs);
    for state in RESTORE_STATES {
        let count = jobs.iter().find(|(s, _)| s == state).map_or(0, |(_, n)| *n);
        scrape
            .restore_jobs
            .get_or_create(&StateLabel { state })
            .set(count);
    }
    for count in scrape.receivers.census().await {
        scrape
            .sessions
            .get_or_create(&SessionLabels {
                kind: count.kind,
                state: count.state,
            })
            .set(count.sessions as i64);
    }
    let mut text = String::new();
    prometheus_client::encoding::prometheus_text::encode(&mut text, &scrape.registry)
        .expect("writing to a String cannot fail");
    Ok(text)
}

/// The process's figures, read from `/proc/self` as they are encoded.
#[derive(Debug)]
struct ProcessCollector;

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let Some(stats) = process::read() else {
            return Ok(());
        };
        let gauges = [
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes",
                stats.resident_bytes,
            ),
            (
                "process_virtual_memory_bytes",
                "Virtual memory size in bytes",
                stats.virtual_bytes,
            ),
            (
                "process_open_fds",
                "Number of open file descriptors",
                stats.open_fds,
            ),
        ];
        for (name, help, value) in gauges {
            let gauge = ConstGauge::new(value as i64);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)?;
        }
        if let Some(max) = stats.max_fds {
            let gauge = ConstGauge::new(max.min(i64::MAX as u64) as i64);
            gauge.encode(encoder.encode_descriptor(
                "process_max_fds",
                "Maximum number of open file descriptors",
                None,
                gauge.metric_type(),
            )?)?;
        }
        let cpu = ConstCounter::new(stats.cpu_seconds);
        cpu.encode(encoder.encode_descriptor(
            "process_cpu_seconds",
            "Total user and system CPU time spent in seconds",
            None,
            cpu.metric_type(),
        )?)
    }
}

/// The event path's consumers: events queued for each now, and events
/// dropped because a consumer's queue was full (read as they are encoded;
/// the consumers are a fixed list).
#[derive(Debug)]
struct EventsCollector(crate::events::Fanout);

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ConsumerLabel {
    consumer: &'static str,
}

impl Collector for EventsCollector {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let dropped = self.0.dropped();
        let mut family = encoder.encode_descriptor(
            "events_dropped",
            "Platform events a consumer's full queue dropped, by consumer",
            None,
            prometheus_client::metrics::MetricType::Counter,
        )?;
        for (consumer, count) in dropped {
            ConstCounter::new(count).encode(family.encode_family(&ConsumerLabel { consumer })?)?;
        }
        let queued = self.0.queued();
        let mut family = encoder.encode_descriptor(
            "events_queued",
            "Platform events waiting for a consumer, by consumer",
            None,
            prometheus_client::metrics::MetricType::Gauge,
        )?;
        for (consumer, count) in queued {
            ConstGauge::new(count as i64)
                .encode(family.encode_family(&ConsumerLabel { consumer })?)?;
        }
        Ok(())
    }
}
