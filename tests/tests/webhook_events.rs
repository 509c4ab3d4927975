//! Outbound webhooks (issue #11), the events besides `test` and
//! `case_created` (those are in `webhooks.rs`): `config_changed`,
//! `jail_changed`, `snapshot_captured` and `snapshot_restored`, each written
//! with the change that causes it; the two signatures of a rotation; and an
//! endpoint turned off after failing every delivery for 5 days. The test
//! receiver checks every signature with its own implementation; no test
//! sleeps (the clock is moved, the delivery worker driven by hand).

use modctl_e2e::webhooks::{
    Received, Receiver, advance, configure, get, http, put_section, send_test, verify,
};
use modctl_e2e::{ALPHA_DISCORD, Fixture, error_body};
use modctl_types::config::AuditList;
use modctl_types::moderation::{Action, ActionRequest, JailList};
use modctl_types::webhooks::{DeliveryList, DeliveryState};
use modctld::operator::demo::discord_members::{ALICE, BOB};
use serde_json::{Value, json};

/// The bodies delivered so far, each checked against the receiver's secret.
fn bodies(receiver: &Receiver) -> Vec<Value> {
    receiver
        .received()
        .into_iter()
        .map(|r| {
            assert!(r.verified, "signature does not verify: {r:?}");
            r.body
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_config_change_delivers_its_diff_without_the_secret() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["config_changed"]),
    )
    .await;
    // Setting the secret was a change of the webhooks section, announced
    // to the endpoint it completed.
    d.deliver_webhooks();
    let first = bodies(&receiver);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0]["type"], "config_changed");
    assert_eq!(first[0]["data"]["section"], "webhooks");

    let response = put_section(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        "moderation",
        json!({"require_reason": true, "default_timeout_minutes": 30}),
    )
    .await;
    assert_eq!(response.status(), 200);
    // Refused by validation, and by a stale If-Match: nothing is announced.
    let response = put_section(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        "moderation",
        json!({"default_timeout_minutes": -1}),
    )
    .await;
    let (status, _) = error_body(response).await;
    assert_eq!(status, 400);
    let response = http()
        .put(d.api(&format!("/servers/{ALPHA_DISCORD}/config/moderation")))
        .bearer_auth(&f.alpha_rw.full)
        .header("if-match", "\"1\"")
        .json(&json!({"require_reason": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 412);
    // A secret set through the config: its change is announced, redacted.
    let config_secret = "whsec_YS1zZWNyZXQtc2V0LXRocm91Z2gtdGhlLWNvbmZpZw==";
    let response = put_section(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        "webhooks",
        json!({"enabled": true, "url": receiver.url(), "events": ["config_changed"], "secret": config_secret}),
    )
    .await;
    assert_eq!(response.status(), 200);
    receiver.set_secret(config_secret);
    d.deliver_webhooks();

    let received = receiver.received();
    assert_eq!(received.len(), 3, "{received:?}");
    for r in &received {
        let raw = String::from_utf8_lossy(&r.raw);
        assert!(!raw.contains(config_secret), "the secret was sent: {raw}");
        assert!(!raw.contains("whsec_"), "the secret was sent: {raw}");
    }
    assert!(received[2].verified);
    // `data` is the audit entry, exactly as GET /config/audit shows it.
    let audit: AuditList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/config/audit"),
    )
    .await;
    let moderation = &received[1].body["data"];
    assert_eq!(received[1].body["type"], "config_changed");
    let entry = audit
        .entries
        .iter()
        .find(|e| e.id == moderation["id"].as_i64().unwrap())
        .expect("the event's audit entry");
    assert_eq!(moderation, &serde_json::to_value(entry).unwrap());
    let paths: Vec<_> = entry.changes.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "moderation.require_reason",
            "moderation.default_timeout_minutes"
        ]
    );
    let rotation = &received[2].body["data"];
    assert_eq!(rotation["section"], "webhooks");
    assert!(
        rotation["changes"].as_array().unwrap().contains(
            &json!({"path": "webhooks.secret", "before": "<redacted>", "after": "<redacted>"})
        ),
        "{rotation}"
    );
}

fn jail(user: &str, minutes: Option<i64>, reason: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        minutes,
        reason: Some(reason.into()),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn jails_starting_and_ending_are_delivered_with_their_reason() {
    let f = Fixture::simulated();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["jail_changed"]),
    )
    .await;
    let client = d.client(&f.alpha_rw);
    let jailed = client
        .perform_action(ALPHA_DISCORD, Action::Jail, &jail(ALICE, None, "raid"))
        .await
        .expect("jail");
    let listed: JailList = get(d, &f.alpha_ro, &format!("/servers/{ALPHA_DISCORD}/jails")).await;
    let unjailed = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Unjail,
            &jail(ALICE, None, "appeal accepted"),
        )
        .await
        .expect("unjail");
    let timed = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Jail,
            &jail(BOB, Some(30), "cool off"),
        )
        .await
        .expect("timed jail");
    advance(d, 30 * 60);
    assert_eq!(d.tick_workers().jails_ended, 1);
    d.deliver_webhooks();

    let events = bodies(&receiver);
    let summary: Vec<_> = events
        .iter()
        .map(|e| {
            assert_eq!(e["type"], "jail_changed");
            let data = &e["data"];
            (
                data["change"].as_str().unwrap().to_owned(),
                data["jail"]["user_id"].as_str().unwrap().to_owned(),
                data["source"].as_str().unwrap().to_owned(),
                data["reason"].clone(),
            )
        })
        .collect();
    let expiry_reason = format!("jail of case #{} ended", timed.case_id);
    assert_eq!(
        summary,
        [
            ("started".into(), ALICE.into(), "api".into(), json!("raid")),
            (
                "ended".into(),
                ALICE.into(),
                "api".into(),
                json!("appeal accepted")
            ),
            (
                "started".into(),
                BOB.into(),
                "api".into(),
                json!("cool off")
            ),
            (
                "ended".into(),
                BOB.into(),
                "expiry".into(),
                json!(expiry_reason)
            ),
        ]
    );
    // The jail as GET /jails listed it; the case that made each change.
    assert_eq!(
        events[0]["data"]["jail"],
        serde_json::to_value(&listed.jails[0]).unwrap()
    );
    assert_eq!(events[0]["data"]["case_id"], jailed.case_id);
    assert_eq!(events[1]["data"]["case_id"], unjailed.case_id);
    assert_eq!(events[1]["data"]["jail"]["case_id"], jailed.case_id);
    assert_eq!(events[3]["data"]["jail"]["case_id"], timed.case_id);
    assert_ne!(events[3]["data"]["case_id"], timed.case_id);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_captured_snapshot_and_a_finished_restore_are_delivered() {
    let f = Fixture::simulated();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["snapshot_captured", "snapshot_restored"]),
    )
    .await;
    let client = d.client(&f.alpha_rw);
    let meta = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let started = client.restore(ALPHA_DISCORD, None).await.unwrap();
    let job = modctl_e2e::restore::wait(d, &f.alpha_ro, ALPHA_DISCORD, started.id).await;
    d.deliver_webhooks();

    let events = bodies(&receiver);
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["type"], "snapshot_captured");
    assert_eq!(events[0]["data"], serde_json::to_value(&meta).unwrap());
    assert_eq!(events[1]["type"], "snapshot_restored");
    // The job's report, as GET .../restore/{job_id} shows the finished job.
    assert_eq!(events[1]["data"], serde_json::to_value(&job).unwrap());
    assert_eq!(events[1]["data"]["state"], "done");
}

/// The signatures of `received`'s header that `secret` makes.
fn signed_by(received: &Received, secret: &str) -> bool {
    let body = String::from_utf8_lossy(&received.raw);
    verify(
        secret,
        &received.id,
        received.timestamp,
        &body,
        &received.signature,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rotation_signs_with_both_secrets_for_a_day() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    let old = configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    let new = configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    assert_ne!(old, new);
    // The replaced secret is kept sealed, like the current one.
    let db = d.db_path();
    for file in [db.clone(), db.with_file_name("modctld.db-wal")] {
        let bytes = std::fs::read(&file).unwrap_or_default();
        for secret in [&old, &new] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "a secret is readable in {}",
                file.display()
            );
        }
    }

    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    advance(d, 86_399);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    advance(d, 1);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();

    let received = receiver.received();
    assert_eq!(received.len(), 3);
    for (i, r) in received.iter().enumerate() {
        let entries = r.signature.split(' ').count();
        let (old_signs, expected) = if i < 2 { (true, 2) } else { (false, 1) };
        assert_eq!(entries, expected, "delivery {i}: {}", r.signature);
        assert!(
            signed_by(r, &new),
            "delivery {i} not signed by the new secret"
        );
        assert_eq!(
            signed_by(r, &old),
            old_signs,
            "delivery {i}: {}",
            r.signature
        );
    }

    // A secret set through the config starts an overlap too.
    let config_secret = "whsec_YS1zZWNyZXQtc2V0LXRocm91Z2gtdGhlLWNvbmZpZw==";
    let response = put_section(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        "webhooks",
        json!({"enabled": true, "url": receiver.url(), "events": ["test"], "secret": config_secret}),
    )
    .await;
    assert_eq!(response.status(), 200);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let last = receiver.received().pop().unwrap();
    assert!(signed_by(&last, config_secret) && signed_by(&last, &new));
    assert!(!signed_by(&last, &old));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_failing_for_five_days_is_turned_off() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    for _ in 0..500 {
        receiver.answer(503, &[]);
    }
    let webhooks = format!("/servers/{ALPHA_DISCORD}/config/webhooks");
    // An event a day, every attempt refused, for a little under 5 days.
    let start = d.now_unix();
    for _day in 0..5 {
        send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
        for _hour in 0..24 {
            d.deliver_webhooks();
            if d.now_unix() - start < 5 * 86_400 - 3_600 {
                advance(d, 3_600);
            }
        }
    }
    let section: Value = get(d, &f.alpha_ro, &webhooks).await;
    assert_eq!(section["enabled"], true, "{section}");
    assert!(section.get("disabled_reason").is_none());

    // The first failure at 5 days turns the endpoint off.
    advance(d, 3_600);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let section: Value = get(d, &f.alpha_ro, &webhooks).await;
    assert_eq!(section["enabled"], false, "{section}");
    let reason = section["disabled_reason"].as_str().unwrap();
    assert!(reason.contains("5 days"), "{reason}");
    assert!(reason.contains("webhooks.enabled"), "{reason}");
    let pending: DeliveryList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/deliveries?state=pending"),
    )
    .await;
    assert!(pending.deliveries.is_empty(), "{pending:?}");
    let disabled: DeliveryList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/deliveries?state=disabled"),
    )
    .await;
    assert!(!disabled.deliveries.is_empty());
    assert!(
        disabled
            .deliveries
            .iter()
            .all(|d| d.state == DeliveryState::Disabled)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_success_within_five_days_keeps_the_endpoint_on() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    receiver.answer(503, &[]);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    // Delivered at the second attempt, then nothing fails for 5 days.
    advance(d, 5);
    d.deliver_webhooks();
    advance(d, 5 * 86_400);
    receiver.answer(503, &[]);
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let section: Value = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/config/webhooks"),
    )
    .await;
    assert_eq!(section["enabled"], true, "{section}");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_tick_delivers_a_backlog_in_order() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    // More than one batch of the worker.
    let mut sent = Vec::new();
    for _ in 0..250 {
        sent.push(send_test(d, &f.alpha_rw, ALPHA_DISCORD).await.event_id);
    }
    assert_eq!(d.deliver_webhooks(), 250);
    let received: Vec<String> = receiver
        .received()
        .into_iter()
        .map(|r| {
            assert!(r.verified);
            r.id
        })
        .collect();
    assert_eq!(received, sent);
}
