//! `GET /health` and `GET /ready`: no key; `ready` tells whether the
//! database answers.

use std::sync::mpsc;

use modctl_e2e::{TestDaemon, error_body};
use modctl_types::{Health, Readiness};

#[tokio::test]
async fn health_answers_without_a_key_with_the_version() {
    let daemon = TestDaemon::start();
    let response = reqwest::get(daemon.api("/health")).await.unwrap();
    assert_eq!(response.status(), 200);
    let health: Health = response.json().await.unwrap();
    assert_eq!(health.status, "ok");
    assert_eq!(health.version, env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn the_sdk_reads_health_readiness_and_the_document_with_any_key_or_none() {
    let daemon = TestDaemon::start();
    let client = modctl_client::Client::builder()
        .base_url(daemon.url())
        .api_key("not-a-key")
        .build()
        .unwrap();
    assert_eq!(client.health().await.unwrap().status, "ok");
    assert_eq!(client.ready().await.unwrap().status, "ready");
    let document = client.openapi().await.unwrap();
    assert_eq!(document["openapi"], "3.1.0");
}

#[tokio::test]
async fn ready_answers_when_the_database_does() {
    let daemon = TestDaemon::start();
    let response = reqwest::get(daemon.api("/ready")).await.unwrap();
    assert_eq!(response.status(), 200);
    let ready: Readiness = response.json().await.unwrap();
    assert_eq!(ready.status, "ready");
}

// Multi-threaded: the test blocks its own thread while the reads start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ready_is_503_while_the_database_does_not_answer_and_health_stays_200() {
    let daemon = TestDaemon::start();
    // The daemon reads the store before it serves (it settles actions a
    // killed daemon left pending): let it get that far first.
    let health = reqwest::get(daemon.api("/health")).await.unwrap();
    assert_eq!(health.status(), 200);
    // Hold every reader connection in a read that waits for us: the database
    // is stuck as far as the daemon can tell.
    let (release, held) = mpsc::channel::<()>();
    let held = std::sync::Arc::new(std::sync::Mutex::new(held));
    let (started, all_started) = mpsc::channel::<()>();
    let mut stuck = Vec::new();
    for _ in 0..modctld::store::READERS {
        let held = held.clone();
        let started = started.clone();
        let store = daemon.store().clone();
        stuck.push(tokio::spawn(async move {
            store
                .read(move |_tx| {
                    started.send(()).unwrap();
                    let _ = held.lock().unwrap().recv();
                    Ok::<_, modctld::store::StoreError>(())
                })
                .await
        }));
    }
    for _ in 0..modctld::store::READERS {
        all_started.recv().unwrap();
    }

    let health = reqwest::get(daemon.api("/health")).await.unwrap();
    assert_eq!(health.status(), 200, "health does not touch the database");
    let (status, message) = error_body(reqwest::get(daemon.api("/ready")).await.unwrap()).await;
    assert_eq!(status, 503);
    assert!(message.contains("did not answer"), "{message}");

    for _ in 0..modctld::store::READERS {
        release.send(()).unwrap();
    }
    for task in stuck {
        task.await.unwrap().unwrap();
    }
    let ready = reqwest::get(daemon.api("/ready")).await.unwrap();
    assert_eq!(ready.status(), 200, "ready again once the database answers");
}
