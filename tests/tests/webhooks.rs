//! Outbound webhooks (issue #11) end to end: a real daemon delivers to the
//! test receiver ([`modctl_e2e::webhooks::Receiver`]), which checks every
//! signature with the Standard Webhooks reference library. No test sleeps: the daemon's clock
//! is moved and the delivery worker driven by hand.

use std::time::Duration;

use modctl_e2e::webhooks::{
    Receiver, RecordingProxy, advance, configure, delivery, get, http, post, put_webhooks,
    redeliver, send_test,
};
use modctl_e2e::{
    ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture, TestDaemon, TestKey, error_body, eventually,
    webhooks_to_localhost,
};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use modctl_types::webhooks::{Delivery, DeliveryList, DeliveryState};
use modctl_types::{Plan, Platform, Scope};
use modctld::operator::demo::discord_members::{ALICE, BOB};
use modctld::operator::demo::telegram_members;
use modctld::webhooks::{BREAKER_AFTER, BREAKER_OPEN, DeliveryOptions};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread")]
async fn a_test_event_is_delivered_signed_and_logged() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    let secret = configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;

    // Shown once: sealed at rest, never in a read.
    let section: Value = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/config/webhooks"),
    )
    .await;
    assert_eq!(section["secret_set"], true);
    assert!(!section.to_string().contains(&secret));
    let db = d.db_path();
    for file in [db.clone(), db.with_file_name("modctld.db-wal")] {
        let bytes = std::fs::read(&file).unwrap_or_default();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the secret is readable in {}",
            file.display()
        );
    }

    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    assert!(queued.event_id.starts_with("evt_"));
    d.deliver_webhooks();

    let received = receiver.received();
    assert_eq!(received.len(), 1, "{received:?}");
    let event = &received[0];
    assert!(event.verified, "signature does not verify: {event:?}");
    assert_eq!(event.id, queued.event_id);
    assert_eq!(event.timestamp, d.now_unix());
    assert_eq!(event.body["id"], queued.event_id.as_str());
    assert_eq!(event.body["type"], "test");
    assert_eq!(event.body["server_id"], ALPHA_DISCORD);
    assert!(event.body["data"].is_object());

    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Delivered);
    assert_eq!(detail.delivery.attempts, 1);
    assert_eq!(detail.delivery.last_status, Some(200));
    assert_eq!(detail.history.len(), 1);
    // Another team's key does not see it.
    let response = http()
        .get(d.api(&format!(
            "/servers/{ALPHA_DISCORD}/webhooks/deliveries/{}",
            queued.delivery_id
        )))
        .bearer_auth(&f.beta_rw.full)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);

    // Redelivered: the same event id, signed again.
    redeliver(d, &f.alpha_rw, ALPHA_DISCORD, queued.delivery_id).await;
    d.deliver_webhooks();
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    assert!(received[1].verified);
    assert_eq!(received[1].id, queued.event_id);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_test_event_is_refused_until_webhooks_are_configured() {
    let f = Fixture::start();
    let d = &f.daemon;
    let response = post(
        d,
        &f.alpha_rw,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/test"),
    )
    .await;
    let (status, message) = error_body(response).await;
    assert_eq!(status, 409);
    assert!(message.contains("webhooks.url"), "{message}");
    assert!(message.contains("webhooks/secret"), "{message}");
    // A read-only key may not send one.
    let response = post(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/test"),
    )
    .await;
    assert_eq!(response.status(), 403);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_action_delivers_its_case_and_a_refused_one_delivers_nothing() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    d.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    configure(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["case_created"]),
    )
    .await;
    let client = d.client(&f.alpha_rw);

    // A validation error: nothing recorded, so no event.
    let refused = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Timeout,
            &ActionRequest {
                user_id: ALICE.into(),
                minutes: Some(-5),
                ..Default::default()
            },
        )
        .await;
    assert!(refused.is_err());
    let list: DeliveryList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/deliveries"),
    )
    .await;
    assert!(list.deliveries.is_empty(), "{list:?}");

    let response = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Warn,
            &ActionRequest {
                user_id: ALICE.into(),
                reason: Some("spam".into()),
                ..Default::default()
            },
        )
        .await
        .expect("warn");
    d.deliver_webhooks();

    let received = receiver.received();
    assert_eq!(received.len(), 1, "{received:?}");
    assert!(received[0].verified);
    assert_eq!(received[0].body["type"], "case_created");
    // `data` is the case exactly as the API shows it.
    let case = client.case(ALPHA_DISCORD, response.case_id).await.unwrap();
    assert_eq!(
        received[0].body["data"],
        serde_json::to_value(&case).unwrap()
    );

    let list: DeliveryList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/deliveries?kind=case_created&state=delivered"),
    )
    .await;
    assert_eq!(list.deliveries.len(), 1);
    let list: DeliveryList = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/deliveries?kind=test"),
    )
    .await;
    assert!(list.deliveries.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn failures_are_retried_on_the_schedule() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    receiver.answer(500, &[]);
    receiver.answer(500, &[]);

    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    let start = d.now_unix();
    d.deliver_webhooks();
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Pending);
    assert_eq!(detail.delivery.last_status, Some(500));
    // Second attempt 5 s later (too short for jitter).
    assert_eq!(
        detail.delivery.next_attempt_at.unwrap().as_second(),
        start + 5
    );
    advance(d, 4);
    assert_eq!(d.deliver_webhooks(), 0);
    advance(d, 1);
    assert_eq!(d.deliver_webhooks(), 1);

    // Third 5 min later, plus up to a tenth of jitter.
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    let next = detail.delivery.next_attempt_at.unwrap().as_second();
    assert!(
        (start + 5 + 300..=start + 5 + 330).contains(&next),
        "{next}"
    );
    advance(d, 299);
    assert_eq!(d.deliver_webhooks(), 0);
    advance(d, 31);
    assert_eq!(d.deliver_webhooks(), 1);

    let received = receiver.received();
    assert_eq!(received.len(), 3);
    assert!(
        received
            .iter()
            .all(|r| r.verified && r.id == queued.event_id)
    );
    assert_eq!(
        received
            .iter()
            .map(|r| r.timestamp - start)
            .collect::<Vec<_>>(),
        [0, 5, 335]
    );
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Delivered);
    assert_eq!(
        detail.history.iter().map(|a| a.status).collect::<Vec<_>>(),
        [Some(500), Some(500), Some(200)]
    );
}

/// Retries, and a redelivery, go to the server's endpoint as it is now:
/// a URL is changed because the old one is wrong or gone.
#[tokio::test(flavor = "multi_thread")]
async fn retries_and_redeliveries_go_to_the_endpoint_as_it_is_now() {
    let f = Fixture::start();
    let (old, new) = (Receiver::start(), Receiver::start());
    let d = &f.daemon;
    let secret = configure(d, &f.alpha_rw, ALPHA_DISCORD, &old, json!(["test"])).await;
    new.set_secret(&secret);
    old.answer(500, &[]);
    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    assert_eq!(old.received().len(), 1);

    let response = put_webhooks(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        json!({"enabled": true, "url": new.url(), "events": ["test"]}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(
        detail.delivery.url,
        new.url(),
        "the pending retry follows the URL"
    );
    advance(d, 5);
    assert_eq!(d.deliver_webhooks(), 1);
    assert_eq!(old.received().len(), 1, "nothing more to the old URL");
    let received = new.received();
    assert_eq!(received.len(), 1);
    assert!(received[0].verified);
    assert_eq!(received[0].id, queued.event_id);

    // A delivered event redelivered after the URL changed again goes to
    // the new one too.
    let third = Receiver::start();
    third.set_secret(&secret);
    let response = put_webhooks(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        json!({"enabled": true, "url": third.url(), "events": ["test"]}),
    )
    .await;
    assert_eq!(response.status(), 200);
    redeliver(d, &f.alpha_rw, ALPHA_DISCORD, queued.delivery_id).await;
    d.deliver_webhooks();
    assert_eq!(new.received().len(), 1);
    assert_eq!(third.received().len(), 1);
    assert!(third.received()[0].verified);
}

/// The SDK's `verify` takes what the daemon sends (the reference library
/// checks it in the receiver), and a secret stored before secrets were
/// checked when set, which the reference libraries cannot read, signs
/// nothing: its deliveries fail saying how to replace it.
#[tokio::test(flavor = "multi_thread")]
async fn the_sdk_verifies_deliveries_and_an_unreadable_stored_secret_signs_nothing() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    let secret = configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let received = receiver.received();
    assert!(received[0].verified, "{:?}", received[0]);
    let mut headers = modctl_client::webhooks::HeaderMap::new();
    headers.insert("webhook-id", received[0].id.parse().unwrap());
    headers.insert("webhook-timestamp", received[0].timestamp.into());
    headers.insert("webhook-signature", received[0].signature.parse().unwrap());
    assert_eq!(
        modctl_client::webhooks::verify_at(
            &secret,
            &headers,
            &received[0].raw,
            received[0].timestamp
        ),
        Ok(())
    );

    // As an older modctld stored a secret set through the config, unchecked.
    let legacy = "a passphrase, not base64";
    let secrets = d.store().secrets().clone();
    d.store()
        .write(move |tx| {
            let mut sections = modctld::store::config::load(tx, ALPHA_DISCORD)?.sections;
            sections.webhooks.secret = modctl_types::config::SecretUpdate::Set(legacy.into());
            modctld::config::apply(
                tx,
                &secrets,
                modctld::config::Change::by(ALPHA_DISCORD, "operator", sections, 0),
            )
        })
        .await
        .unwrap();
    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    assert_eq!(receiver.received().len(), 1, "nothing was sent unsigned");
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    let error = detail.delivery.last_error.unwrap_or_default();
    assert!(error.contains("rotate-secret"), "{error}");
    assert!(!error.contains(legacy), "{error}");
}

#[tokio::test(flavor = "multi_thread")]
async fn retry_after_is_honoured() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    receiver.answer(429, &[("retry-after", "120")]);

    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    advance(d, 119);
    assert_eq!(d.deliver_webhooks(), 0, "retried before Retry-After");
    advance(d, 1);
    assert_eq!(d.deliver_webhooks(), 1);
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Delivered);
    assert_eq!(detail.delivery.attempts, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn turning_webhooks_off_drops_the_pending_retries() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    receiver.answer(503, &[]);
    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let response = put_webhooks(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        json!({"enabled": false, "url": receiver.url()}),
    )
    .await;
    assert_eq!(response.status(), 200);

    advance(d, 5);
    d.deliver_webhooks();
    assert_eq!(
        receiver.received().len(),
        1,
        "sent after webhooks were turned off"
    );
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Disabled);
    assert_eq!(detail.history.len(), 1);
    assert!(detail.delivery.last_error.unwrap().contains("turned off"));
}

#[tokio::test(flavor = "multi_thread")]
async fn gone_disables_the_endpoint() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    let d = &f.daemon;
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    receiver.answer(410, &[]);

    let queued = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
    assert_eq!(detail.delivery.state, DeliveryState::Disabled);
    assert_eq!(detail.delivery.next_attempt_at, None);

    let section: Value = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/config/webhooks"),
    )
    .await;
    assert_eq!(section["enabled"], false);
    assert!(
        section["disabled_reason"].as_str().unwrap().contains("410"),
        "{section}"
    );
    // Nothing more is sent until webhooks are enabled again.
    let response = post(
        d,
        &f.alpha_rw,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/test"),
    )
    .await;
    assert_eq!(response.status(), 409);
    advance(d, 86_400);
    d.deliver_webhooks();
    assert_eq!(receiver.received().len(), 1);

    // Enabling again clears the reason.
    let response = put_webhooks(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        json!({"enabled": true, "url": receiver.url()}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let section: Value = get(
        d,
        &f.alpha_ro,
        &format!("/servers/{ALPHA_DISCORD}/config/webhooks"),
    )
    .await;
    assert!(section.get("disabled_reason").is_none(), "{section}");
}

#[tokio::test(flavor = "multi_thread")]
async fn internal_addresses_are_refused() {
    // The config refuses the backslash-at trick: clients send it to
    // 169.254.169.254, not to localhost.
    let f = Fixture::start();
    let response = put_webhooks(
        &f.daemon,
        &f.alpha_rw,
        ALPHA_DISCORD,
        json!({"enabled": true, "url": "http://169.254.169.254\\@localhost/"}),
    )
    .await;
    let (status, message) = error_body(response).await;
    assert_eq!(status, 400);
    assert!(message.contains("webhooks.url"), "{message}");

    // Without --webhooks-allow-internal, a name that resolves to 127.0.0.1
    // is refused when the delivery is sent, and nothing reaches it.
    let d = TestDaemon::start_guarded();
    let key = alpha_with_a_secret(&d).await;
    let receiver = Receiver::start();
    let local = receiver.url().replace("127.0.0.1", "localhost");
    let refused = guarded_attempt(&d, &key, &local).await;
    assert!(receiver.received().is_empty());
    assert_eq!(refused.state, DeliveryState::Failed);
    let error = refused.last_error.unwrap();
    assert!(error.contains("internal address"), "{error}");

    // An address literal is refused before any connection too.
    let refused = guarded_attempt(&d, &key, receiver.url()).await;
    assert!(receiver.received().is_empty());
    assert_eq!(refused.state, DeliveryState::Failed);
    assert!(refused.last_error.unwrap().contains("127.0.0.1"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_configured_proxy_does_not_get_past_the_address_guard() {
    // `modctld serve --webhooks-proxy URL`, the guard on.
    let proxy = RecordingProxy::start();
    let d = TestDaemon::start_with_webhooks(DeliveryOptions {
        proxy: Some(proxy.url().parse().unwrap()),
        ..DeliveryOptions::default()
    });
    let key = alpha_with_a_secret(&d).await;

    // The proxy would resolve `localhost` itself: the daemon resolves it
    // first, and refuses it.
    let receiver = Receiver::start();
    let local = receiver.url().replace("127.0.0.1", "localhost");
    let refused = guarded_attempt(&d, &key, &local).await;
    assert_eq!(proxy.seen(), Vec::<String>::new(), "sent to the proxy");
    assert!(receiver.received().is_empty());
    assert_eq!(refused.state, DeliveryState::Failed);
    let error = refused.last_error.unwrap();
    assert!(error.contains("internal address"), "{error}");

    // A public address goes through the proxy (which, an internal address
    // itself, is the operator's choice): it refuses the tunnel, so the
    // delivery waits for its retry.
    let public = guarded_attempt(&d, &key, "https://93.184.216.34/hook").await;
    // (The config change that set the URL is announced to it too.)
    let seen = proxy.seen();
    assert!(
        !seen.is_empty()
            && seen
                .iter()
                .all(|line| line == "CONNECT 93.184.216.34:443 HTTP/1.1"),
        "{seen:?}"
    );
    assert_eq!(public.state, DeliveryState::Pending);
}

/// Team gamma's Discord server: another team with webhooks (beta's plan has none).
const GAMMA_DISCORD: &str = "300000000000000003";

#[tokio::test(flavor = "multi_thread")]
async fn another_teams_delivery_goes_out_while_an_endpoint_hangs() {
    let f = Fixture::start();
    let d = &f.daemon;
    let hung = Receiver::start();
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &hung, json!(["test"])).await;
    hung.hang();
    let stuck = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    let _hanging = d.deliver_webhooks_in_background();
    eventually("the delivery to reach the hung endpoint", || {
        hung.received().len() == 1
    });

    d.team("gamma", Plan::Pro);
    d.claim("gamma", Platform::Discord, GAMMA_DISCORD, "Gamma Guild");
    let gamma = d.key("gamma", Scope::Write);
    let receiver = Receiver::start();
    configure(d, &gamma, GAMMA_DISCORD, &receiver, json!(["test"])).await;
    let queued = send_test(d, &gamma, GAMMA_DISCORD).await;
    assert_eq!(d.deliver_webhooks(), 1);
    let received = receiver.received();
    assert_eq!(received.len(), 1);
    assert!(received[0].verified);
    assert_eq!(received[0].id, queued.event_id);
    // Delivered while the other endpoint still holds its delivery: that
    // attempt has not ended, so nothing is recorded of it yet.
    let stuck = delivery(d, &f.alpha_ro, ALPHA_DISCORD, stuck.delivery_id).await;
    assert_eq!(
        (stuck.delivery.state, stuck.delivery.attempts),
        (DeliveryState::Pending, 0)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tick_leaves_alone_an_endpoint_a_slow_run_still_delivers_to() {
    // The run holds its endpoint's claim (issue #24's coordination): a
    // later tick finds the delivery still due but sends nothing to that
    // endpoint while the run is under way.
    let f = Fixture::start();
    let d = &f.daemon;
    let slow = Receiver::start();
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &slow, json!(["test"])).await;
    slow.hang();
    let first = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    let _running = d.deliver_webhooks_in_background();
    eventually("the delivery to reach the slow endpoint", || {
        slow.received().len() == 1
    });
    let second = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    assert_eq!(d.deliver_webhooks(), 0, "the endpoint's run is under way");
    assert_eq!(slow.received().len(), 1, "nothing sent beside the run");
    for queued in [&first, &second] {
        let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, queued.delivery_id).await;
        assert_eq!(
            (detail.delivery.state, detail.delivery.attempts),
            (DeliveryState::Pending, 0)
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_that_keeps_timing_out_waits_behind_its_open_breaker() {
    let f = Fixture::seed(TestDaemon::start_with_webhooks(DeliveryOptions {
        // Each hung attempt ends after a second rather than 15.
        timeout: Duration::from_secs(1),
        ..webhooks_to_localhost()
    }));
    let d = &f.daemon;
    let receiver = Receiver::start();
    configure(d, &f.alpha_rw, ALPHA_DISCORD, &receiver, json!(["test"])).await;
    let timeouts = BREAKER_AFTER as usize;
    for _ in 0..timeouts {
        receiver.hang();
    }
    let mut queued = Vec::new();
    for _ in 0..=timeouts {
        queued.push(send_test(d, &f.alpha_rw, ALPHA_DISCORD).await);
    }
    let until = d.now_unix() + BREAKER_OPEN.as_secs() as i64;

    // Three timeouts in a row open the breaker: the fourth delivery is not
    // attempted, and every one waits for the breaker's end.
    assert_eq!(d.deliver_webhooks(), timeouts);
    assert_eq!(receiver.received().len(), timeouts);
    for (n, q) in queued.iter().enumerate() {
        let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, q.delivery_id).await;
        let delivery = detail.delivery;
        assert_eq!(delivery.state, DeliveryState::Pending);
        assert_eq!(delivery.attempts, u32::from(n < timeouts), "{n}");
        assert_eq!(delivery.next_attempt_at.unwrap().as_second(), until, "{n}");
        let error = delivery.last_error.unwrap();
        assert!(error.contains("circuit breaker"), "{error}");
    }
    // While it is open, a new event waits too, and nothing is attempted.
    let late = send_test(d, &f.alpha_rw, ALPHA_DISCORD).await;
    assert_eq!(d.deliver_webhooks(), 0);
    let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, late.delivery_id).await;
    assert_eq!(detail.delivery.attempts, 0);
    assert_eq!(detail.delivery.next_attempt_at.unwrap().as_second(), until);
    advance(d, BREAKER_OPEN.as_secs() - 1);
    assert_eq!(d.deliver_webhooks(), 0);
    assert_eq!(receiver.received().len(), timeouts);

    // Then the endpoint answers again: everything goes, in order.
    advance(d, 1);
    assert_eq!(d.deliver_webhooks(), queued.len() + 1);
    queued.push(late);
    let received: Vec<String> = receiver.received()[timeouts..]
        .iter()
        .map(|r| r.id.clone())
        .collect();
    let sent: Vec<String> = queued.iter().map(|q| q.event_id.clone()).collect();
    assert_eq!(received, sent);
    for q in &queued {
        let detail = delivery(d, &f.alpha_ro, ALPHA_DISCORD, q.delivery_id).await;
        assert_eq!(detail.delivery.state, DeliveryState::Delivered);
    }
}

/// Team alpha on the pro plan with ALPHA_DISCORD and a webhook secret, on a
/// daemon not seeded by [`Fixture`]; its read+write key.
async fn alpha_with_a_secret(d: &TestDaemon) -> TestKey {
    d.team("alpha", Plan::Pro);
    d.claim("alpha", Platform::Discord, ALPHA_DISCORD, "Alpha Guild");
    let key = d.key("alpha", Scope::Write);
    let response = post(
        d,
        &key,
        &format!("/servers/{ALPHA_DISCORD}/webhooks/secret"),
    )
    .await;
    assert_eq!(response.status(), 200);
    key
}

/// Points the webhooks of a guarded daemon's server at `url`, sends a test
/// event and makes its first attempt; returns the delivery afterwards.
async fn guarded_attempt(d: &TestDaemon, key: &TestKey, url: &str) -> Delivery {
    let response = put_webhooks(d, key, ALPHA_DISCORD, json!({"enabled": true, "url": url})).await;
    assert_eq!(response.status(), 200);
    let queued = send_test(d, key, ALPHA_DISCORD).await;
    d.deliver_webhooks();
    delivery(d, key, ALPHA_DISCORD, queued.delivery_id)
        .await
        .delivery
}

#[tokio::test(flavor = "multi_thread")]
async fn escalations_and_expiries_deliver_their_cases_too() {
    let f = Fixture::simulated();
    let d = &f.daemon;
    let discord = Receiver::start();
    let telegram = Receiver::start();
    configure(
        d,
        &f.alpha_rw,
        ALPHA_DISCORD,
        &discord,
        json!(["case_created"]),
    )
    .await;
    configure(
        d,
        &f.alpha_rw,
        ALPHA_TELEGRAM,
        &telegram,
        json!(["case_created"]),
    )
    .await;
    d.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"weights": {"warn": 1}, "ladder": [{"at": 2, "action": "timeout", "minutes": 15}]}),
    );
    let client = d.client(&f.alpha_rw);
    for _ in 0..2 {
        client
            .perform_action(ALPHA_DISCORD, Action::Warn, &request(BOB))
            .await
            .expect("warn");
    }
    client
        .perform_action(
            ALPHA_TELEGRAM,
            Action::Jail,
            &ActionRequest {
                minutes: Some(60),
                ..request(telegram_members::ALICE)
            },
        )
        .await
        .expect("jail");
    advance(d, 3600);
    assert_eq!(d.tick_workers().jails_ended, 1);
    d.deliver_webhooks();

    let sources = |receiver: &Receiver| {
        let received = receiver.received();
        assert!(received.iter().all(|r| r.verified), "{received:?}");
        received
            .iter()
            .map(|r| {
                assert_eq!(r.body["type"], "case_created");
                let data = &r.body["data"];
                (data["action"].clone(), data["source"].clone())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sources(&discord),
        [
            (json!("warn"), json!("api")),
            (json!("warn"), json!("api")),
            (json!("timeout"), json!("escalation")),
        ]
    );
    assert_eq!(
        sources(&telegram),
        [
            (json!("jail"), json!("api")),
            (json!("unjail"), json!("expiry"))
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_event_committed_before_a_restart_is_delivered_after_it() {
    let Fixture {
        daemon, alpha_rw, ..
    } = Fixture::start();
    let receiver = Receiver::start();
    configure(
        &daemon,
        &alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["test"]),
    )
    .await;
    let queued = send_test(&daemon, &alpha_rw, ALPHA_DISCORD).await;
    // Stopped before the worker got to it; the next start delivers it (its
    // loop's first tick a second after the start; here the test's).
    assert!(receiver.received().is_empty());
    let daemon = daemon.restart();
    daemon.deliver_webhooks();
    let received = receiver.received();
    assert_eq!(received.len(), 1);
    assert!(received[0].verified);
    assert_eq!(received[0].id, queued.event_id);
}

fn request(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        ..Default::default()
    }
}
