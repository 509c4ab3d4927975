//! The outbox of an older modctld (schema V13: an event table with a text
//! key, its deliveries, every attempt in the history) migrated to V14 (one
//! row per event and delivery, the latest attempt on it): every delivery, its
//! payload and its attempt history read as they did before, and the worker
//! goes on from where it was.

use modctl_types::config::WebhookEvent;
use modctl_types::webhooks::DeliveryState;

use super::webhooks::{self as outbox, Outcome};
use super::*;

const SERVER: &str = "123456789012345678";
const URL: &str = "https://hooks.example.com/modctl";

/// A V13 database: delivery 5 delivered at the first try, 6 failed twice and
/// due again, 7 dropped without an attempt when webhooks were turned off.
fn write_v13_outbox(db: &std::path::Path) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    configure(&conn, Role::Writer).unwrap();
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(13))
        .run(&mut conn)
        .unwrap();
    conn.execute_batch(&format!(
        "INSERT INTO teams (id, name, plan, created_at) VALUES (1, 'alpha', 'pro', 0);
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{SERVER}', 1, 'discord', 'G', 0);
         INSERT INTO webhook_events (id, server_id, kind, created_at, payload) VALUES
             ('evt_first', '{SERVER}', 'test', 100, '{{\"id\":\"evt_first\"}}'),
             ('evt_retried', '{SERVER}', 'case_created', 110, '{{\"id\":\"evt_retried\"}}'),
             ('evt_dropped', '{SERVER}', 'test', 120, '{{\"id\":\"evt_dropped\"}}');
         INSERT INTO webhook_deliveries (id, event_id, server_id, kind, url, state, attempts,
                 next_attempt_at, last_status, last_error, created_at) VALUES
             (5, 'evt_first', '{SERVER}', 'test', '{URL}', 'delivered', 1, NULL, 204, NULL, 100),
             (6, 'evt_retried', '{SERVER}', 'case_created', '{URL}', 'pending', 2, 500, 503, 'the endpoint answered 503 Service Unavailable', 110),
             (7, 'evt_dropped', '{SERVER}', 'test', '{URL}', 'disabled', 0, NULL, NULL, 'turned off', 120);
         INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES
             (5, 1, 101, 204, NULL, 3),
             (6, 1, 111, NULL, 'connection refused', 1),
             (6, 2, 116, 503, 'the endpoint answered 503 Service Unavailable', 2);"
    ))
    .unwrap();
}

#[tokio::test]
async fn an_older_outbox_reads_the_same_after_v14_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    write_v13_outbox(&db);
    let store = Store::open(&db).await.unwrap();

    let (list, first, retried, dropped) = store
        .read(|tx| {
            Ok::<_, StoreError>((
                outbox::list(tx, SERVER, None, None, None, 10)?,
                outbox::get(tx, SERVER, 5)?.unwrap(),
                outbox::get(tx, SERVER, 6)?.unwrap(),
                outbox::get(tx, SERVER, 7)?.unwrap(),
            ))
        })
        .await
        .unwrap();
    let ids: Vec<_> = list.iter().map(|d| (d.id, d.event_id.as_str())).collect();
    assert_eq!(
        ids,
        [(7, "evt_dropped"), (6, "evt_retried"), (5, "evt_first")]
    );
    let summary = |d: &modctl_types::webhooks::DeliveryDetail| {
        d.history
            .iter()
            .map(|a| (a.attempt, a.at.as_second(), a.status, a.error.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(first.delivery.state, DeliveryState::Delivered);
    assert_eq!(summary(&first), [(1, 101, Some(204), None)]);
    assert_eq!(first.history[0].duration_ms, 3);
    assert_eq!(retried.delivery.kind, WebhookEvent::CaseCreated);
    // The two attempts of delivery 6 before the migration.
    let before = vec![
        (1, 111, None, Some("connection refused".to_owned())),
        (
            2,
            116,
            Some(503),
            Some("the endpoint answered 503 Service Unavailable".to_owned()),
        ),
    ];
    assert_eq!(summary(&retried), before);
    assert_eq!(
        (
            dropped.delivery.last_error.as_deref(),
            dropped.history.len()
        ),
        (Some("turned off"), 0),
        "a drop is no attempt"
    );

    // The worker picks the retried delivery up with its payload, and its
    // third attempt joins the history after the two before it.
    let (due_endpoints, due) = store
        .read(|tx| {
            Ok::<_, StoreError>((
                outbox::due_endpoints(tx, 600)?,
                outbox::due_to(tx, SERVER, URL, 600, 10)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(due_endpoints, [(SERVER.to_owned(), URL.to_owned())]);
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].id, due[0].event_id.as_str(), due[0].payload.as_str()),
        (6, "evt_retried", r#"{"id":"evt_retried"}"#)
    );
    assert_eq!(due[0].attempts, 2);
    let third = Outcome {
        at: 600,
        status: Some(200),
        error: None,
        duration_ms: 4,
        state: DeliveryState::Delivered,
        next_attempt_at: None,
    };
    let (retried, failing_since) = store
        .write(move |tx| {
            outbox::record_attempts(tx, &[(6, 3, third)])?;
            Ok::<_, StoreError>((
                outbox::get(tx, SERVER, 6)?.unwrap(),
                outbox::failing_since(tx, SERVER, URL)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(retried.delivery.state, DeliveryState::Delivered);
    assert_eq!(retried.delivery.attempts, 3);
    let mut after = before;
    after.push((3, 600, Some(200), None));
    assert_eq!(summary(&retried), after);
    assert_eq!(failing_since, None, "the latest attempt succeeded");
}

#[tokio::test]
async fn failures_since_the_last_success_count_the_latest_attempts_too() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    write_v13_outbox(&db);
    let store = Store::open(&db).await.unwrap();
    let failed = |at| Outcome {
        at,
        status: Some(500),
        error: Some("the endpoint answered 500".into()),
        duration_ms: 1,
        state: DeliveryState::Pending,
        next_attempt_at: Some(at + 5),
    };
    let since = store
        .write(move |tx| {
            // Delivery 5 succeeded at 101; 6 failed at 111 and 116 (history)
            // and now at 700 (on its row), and a new one fails at its first
            // attempt at 800 (only on its row).
            outbox::record_attempts(tx, &[(6, 3, failed(700))])?;
            let new = outbox::write(
                tx,
                SERVER,
                WebhookEvent::Test,
                URL,
                &serde_json::json!({}),
                790,
            )?;
            outbox::record_attempts(tx, &[(new.delivery_id, 1, failed(800))])?;
            let history: i64 = tx.sql.row(
                "SELECT COUNT(*) FROM webhook_attempts WHERE delivery_id = ?1",
                [new.delivery_id],
                crate::store::scalar,
            )?;
            assert_eq!(history, 0, "a first attempt stays on its delivery's row");
            outbox::failing_since(tx, SERVER, URL)
        })
        .await
        .unwrap();
    assert_eq!(since, Some(111));
}
