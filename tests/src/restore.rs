//! Helpers of the restore tests (issue #10): starting a restore over HTTP
//! (the SDK's own calls are tested with them), reading and waiting for its
//! job, and finding an item of its report.

use std::time::{Duration, Instant};

use modctl_types::restore::{ItemKind, JobItem, JobState, RestoreJob, RestorePlan};
use reqwest::StatusCode;
use serde_json::Value;

use crate::{TestDaemon, TestKey};

/// The restore endpoint of `server`, with `?dry_run=true` when asked.
pub fn restore_url(daemon: &TestDaemon, server: &str, dry_run: bool) -> String {
    let query = if dry_run { "?dry_run=true" } else { "" };
    daemon.api(&format!(
        "/servers/{server}/structure-snapshot/restore{query}"
    ))
}

/// `POST .../restore` with `key`, and `body` when given.
pub async fn post_restore(
    daemon: &TestDaemon,
    key: &TestKey,
    server: &str,
    dry_run: bool,
    body: Option<Value>,
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(restore_url(daemon, server, dry_run))
        .bearer_auth(&key.full);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

/// The dry run's plan (200).
pub async fn dry_run(daemon: &TestDaemon, key: &TestKey, server: &str) -> RestorePlan {
    let response = post_restore(daemon, key, server, true, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// Starts a restore (202 with its `Location`) and waits for its end.
pub async fn restore(daemon: &TestDaemon, key: &TestKey, server: &str) -> RestoreJob {
    let response = post_restore(daemon, key, server, false, None).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let job: RestoreJob = response.json().await.unwrap();
    assert_eq!(
        location,
        format!(
            "/api/v1/servers/{server}/structure-snapshot/restore/{}",
            job.id
        )
    );
    wait(daemon, key, server, job.id).await
}

/// `GET .../restore/{id}` (200).
pub async fn job(daemon: &TestDaemon, key: &TestKey, server: &str, id: i64) -> RestoreJob {
    let url = daemon.api(&format!(
        "/servers/{server}/structure-snapshot/restore/{id}"
    ));
    let response = reqwest::Client::new()
        .get(url)
        .bearer_auth(&key.full)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// Polls the job until it has ended (at most 30 s).
pub async fn wait(daemon: &TestDaemon, key: &TestKey, server: &str, id: i64) -> RestoreJob {
    let started = Instant::now();
    loop {
        let job = job(daemon, key, server, id).await;
        if job.state.is_final() {
            return job;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "job stuck: {job:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The job's item of `kind` and `snapshot_id`.
pub fn item<'a>(job: &'a RestoreJob, kind: ItemKind, snapshot_id: &str) -> &'a JobItem {
    job.items
        .iter()
        .find(|i| i.planned.kind == kind && i.planned.snapshot_id == snapshot_id)
        .unwrap_or_else(|| panic!("no {kind} {snapshot_id} in {job:#?}"))
}

/// The job is done, with nothing left to do.
pub fn assert_nothing_remains(job: &RestoreJob) {
    assert_eq!(job.state, JobState::Done, "{job:#?}");
    assert!(job.finished_at.is_some());
    assert!(
        job.progress.iter().all(|p| p.remaining == 0),
        "{:?}",
        job.progress
    );
}
