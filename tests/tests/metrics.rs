//! `GET /metrics` (issue #28): the Prometheus text format on a listener of
//! its own, its names and types, counters that move with the work done,
//! and labels that never name a server, member or key.

use std::collections::BTreeMap;

use modctl_e2e::ALPHA_DISCORD;
use modctl_types::query::CaseQuery;

use crate::automod_act::{GENERAL, MEMBER, discord, settled_hits};

/// One scrape: each sample (`name{labels}`) and its value, and the text.
struct Scraped {
    samples: BTreeMap<String, f64>,
    text: String,
}

impl Scraped {
    fn value(&self, sample: &str) -> f64 {
        *self
            .samples
            .get(sample)
            .unwrap_or_else(|| panic!("no sample `{sample}` in:\n{}", self.text))
    }

    /// The value, 0 for a series not there yet (a counter not yet moved).
    fn or_zero(&self, sample: &str) -> f64 {
        self.samples.get(sample).copied().unwrap_or(0.0)
    }

    fn has_type(&self, name: &str, kind: &str) -> bool {
        self.text
            .lines()
            .any(|l| l == format!("# TYPE {name} {kind}"))
    }
}

fn scrape(daemon: &modctl_e2e::TestDaemon) -> Scraped {
    let url = daemon.metrics_url().to_owned();
    let (content_type, text) = daemon.block_on(async move {
        let response = reqwest::get(url).await.expect("scrape");
        assert_eq!(response.status(), 200);
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        (content_type, response.text().await.unwrap())
    });
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    let samples = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (sample, value) = l.rsplit_once(' ').expect("`sample value`");
            let value = value.parse::<f64>().unwrap_or_else(|e| panic!("{e}: {l}"));
            (sample.to_owned(), value)
        })
        .collect();
    Scraped { samples, text }
}

#[test]
fn metrics_are_prometheus_text_and_count_requests_calls_hits_and_posts() {
    let d = discord("delete");
    d.log_automod();
    let daemon = &d.fixture.daemon;
    let before = scrape(daemon);

    let client = daemon.client(&d.fixture.alpha_ro);
    daemon
        .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
        .expect("cases");
    let unmatched = format!("{}/api/v1/no/such/{MEMBER}", daemon.url());
    daemon.block_on(async move { reqwest::get(unmatched).await.expect("GET") });
    let caught = d.say(GENERAL, "a scam link");
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    assert!(d.discord.is_deleted(GENERAL, &caught));
    daemon.deliver_logs();

    let after = scrape(daemon);
    for (name, kind) in [
        ("modctld_http_requests_total", "counter"),
        ("modctld_http_request_duration_seconds", "histogram"),
        ("modctld_http_requests_in_flight", "gauge"),
        ("modctld_store_writer_queue_depth", "gauge"),
        ("modctld_store_commit_duration_seconds", "histogram"),
        ("modctld_store_reader_wait_seconds", "histogram"),
        ("modctld_platform_calls_total", "counter"),
        ("modctld_platform_call_duration_seconds", "histogram"),
        ("modctld_platform_sessions", "gauge"),
        ("modctld_webhook_outbox_backlog", "gauge"),
        ("modctld_log_outbox_backlog", "gauge"),
        ("modctld_restore_jobs", "gauge"),
        ("modctld_automod_hits_total", "counter"),
        ("modctld_log_posts_total", "counter"),
        ("modctld_events_dropped_total", "counter"),
        ("process_resident_memory_bytes", "gauge"),
        ("process_cpu_seconds_total", "counter"),
    ] {
        assert!(
            after.has_type(name, kind),
            "# TYPE {name} {kind} in:\n{}",
            after.text
        );
    }

    // Requests by the route's template, never the ids in the path.
    let cases = r#"modctld_http_requests_total{route="/api/v1/servers/{id}/cases",method="GET",status="200"}"#;
    assert_eq!(after.value(cases) - before.or_zero(cases), 1.0);
    let unmatched = r#"modctld_http_requests_total{route="unmatched",method="GET",status="404"}"#;
    assert_eq!(after.value(unmatched) - before.or_zero(unmatched), 1.0);
    // The message deleted, the log posted: calls to Discord that succeeded.
    let ok = r#"modctld_platform_calls_total{platform="discord",outcome="ok"}"#;
    assert!(
        after.value(ok) >= before.or_zero(ok) + 2.0,
        "{}",
        after.text
    );
    let hits = r#"modctld_automod_hits_total{filter="blocked_words",enforced_by="daemon"}"#;
    assert_eq!(after.value(hits) - before.or_zero(hits), 1.0);
    let posted = r#"modctld_log_posts_total{outcome="posted"}"#;
    assert_eq!(after.value(posted) - before.or_zero(posted), 1.0);
    assert!(
        after.value("modctld_store_commit_duration_seconds_count")
            > before.value("modctld_store_commit_duration_seconds_count")
    );
    assert_eq!(
        after.value(r#"modctld_platform_sessions{kind="discord_gateway",state="running"}"#),
        1.0
    );
    assert_eq!(after.value("modctld_log_outbox_backlog"), 0.0);
    assert_eq!(after.value(r#"modctld_restore_jobs{state="queued"}"#), 0.0);
    assert!(after.value("process_resident_memory_bytes") > 0.0);

    // Bounded labels: no server, member, channel or message id anywhere.
    for id in [ALPHA_DISCORD, MEMBER, GENERAL, caught.as_str()] {
        assert!(
            !after.text.contains(id),
            "`{id}` in the metrics:\n{}",
            after.text
        );
    }
}

#[test]
fn the_metrics_listener_answers_nothing_but_get_metrics() {
    let d = modctl_e2e::Fixture::start();
    let other = d.daemon.metrics_url().replace("/metrics", "/api/v1/me");
    let (status, body) = d.daemon.block_on(async move {
        let response = reqwest::get(other).await.expect("GET");
        (response.status(), response.text().await.unwrap())
    });
    assert_eq!(status, 404);
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("only GET /metrics"),
        "{body}"
    );
}
