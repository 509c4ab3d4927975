//! Plans (issue #13): every limit of `modctld::plans` refuses on `free` with
//! a 402 that names the plan and writes nothing, passes on `pro`, and never
//! takes away what a downgraded team already has.
//!
//! Team `beta` of the fixture is on free, `alpha` on pro; a downgrade is an
//! operator's `team set-plan`, done here in the store (the binary's own test
//! is in daemon/tests/plans.rs).

use modctl_client::{ErrorKind, Plan};
use modctl_e2e::{
    ALPHA_DISCORD, BETA_DISCORD, Fixture, TestDaemon, TestKey, assert_config_untouched,
};
use modctl_types::Platform;
use modctld::snapshots;
use modctld::store::teams;
use serde_json::{Value, json};

fn set_plan(daemon: &TestDaemon, team: &'static str, plan: Plan) {
    daemon.write(move |tx| teams::set_plan(tx, team, plan));
}

async fn send(
    daemon: &TestDaemon,
    key: &TestKey,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .request(method, daemon.api(path))
        .bearer_auth(&key.full);
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.expect("request")
}

/// `PUT` of a config section (`path`) with `body`.
async fn put(daemon: &TestDaemon, key: &TestKey, path: &str, body: Value) -> reqwest::Response {
    send(daemon, key, reqwest::Method::PUT, path, Some(body)).await
}

/// A 402 in the documented shape: the message names both plans and the
/// team, `required_plan` is `pro`, `limit` as given.
async fn assert_payment_required(response: reqwest::Response, team: &str, limit: Option<u64>) {
    assert_eq!(response.status(), 402);
    let body: Value = response.json().await.unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains(&format!("needs the pro plan; team {team} is on free")),
        "{body}"
    );
    assert!(
        message.contains(&format!("modctld team set-plan {team} pro")),
        "{body}"
    );
    assert_eq!(body["required_plan"], "pro", "{body}");
    assert_eq!(body.get("limit").and_then(Value::as_u64), limit, "{body}");
}

fn webhooks_on() -> Value {
    json!({"enabled": true, "url": "https://hooks.example.com/modctl", "secret": "whsec_YS1zZWNyZXQtb2YtdHdlbnR5LWZpdmUhIQ=="})
}

#[tokio::test]
async fn enabling_webhooks_is_a_402_on_free_that_writes_nothing_and_passes_on_pro() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let path = format!("/servers/{BETA_DISCORD}/config/webhooks");
    let refused = put(daemon, &fixture.beta_rw, &path, webhooks_on()).await;
    assert_payment_required(refused, "beta", None).await;
    assert_config_untouched(&daemon.client(&fixture.beta_rw), BETA_DISCORD).await;

    // The same change by import, and with webhooks off, which free allows.
    let export = send(
        daemon,
        &fixture.beta_rw,
        reqwest::Method::GET,
        &format!("/servers/{BETA_DISCORD}/config/export"),
        None,
    )
    .await;
    let mut import: Value = export.json().await.unwrap();
    import["sections"]["webhooks"] = webhooks_on();
    let refused = send(
        daemon,
        &fixture.beta_rw,
        reqwest::Method::POST,
        &format!("/servers/{BETA_DISCORD}/config/import"),
        Some(import),
    )
    .await;
    assert_eq!(refused.status(), 402);
    assert_config_untouched(&daemon.client(&fixture.beta_rw), BETA_DISCORD).await;
    let off = json!({"enabled": false, "url": "https://hooks.example.com/modctl"});
    let allowed = put(daemon, &fixture.beta_rw, &path, off).await;
    assert_eq!(allowed.status(), 200);

    let pro = format!("/servers/{ALPHA_DISCORD}/config/webhooks");
    let allowed = put(daemon, &fixture.alpha_rw, &pro, webhooks_on()).await;
    assert_eq!(allowed.status(), 200);
}

#[tokio::test]
async fn webhook_endpoints_are_402_on_free_and_the_sdk_names_the_plan() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    for path in [
        "webhooks/test",
        "webhooks/secret",
        "webhooks/deliveries/1/redeliver",
    ] {
        let path = format!("/servers/{BETA_DISCORD}/{path}");
        let refused = send(daemon, &fixture.beta_rw, reqwest::Method::POST, &path, None).await;
        assert_payment_required(refused, "beta", None).await;
    }
    assert_config_untouched(&daemon.client(&fixture.beta_rw), BETA_DISCORD).await;

    let err = daemon
        .client(&fixture.beta_rw)
        .rotate_webhook_secret(BETA_DISCORD)
        .await
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::PaymentRequired {
            required_plan: Some(Plan::Pro)
        }
    );
    assert_eq!(err.limit(), None);

    // Pro: the same endpoints are the webhooks' own business again.
    let rotated = daemon
        .client(&fixture.alpha_rw)
        .rotate_webhook_secret(ALPHA_DISCORD)
        .await;
    assert!(rotated.is_ok(), "{rotated:?}");
}

#[tokio::test]
async fn scheduled_snapshots_are_a_402_on_free_and_antinuke_without_them_passes() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let path = format!("/servers/{BETA_DISCORD}/config/antinuke");
    let scheduled = json!({"enabled": true, "snapshot_interval_hours": 24});
    let refused = put(daemon, &fixture.beta_rw, &path, scheduled.clone()).await;
    assert_payment_required(refused, "beta", None).await;
    assert_config_untouched(&daemon.client(&fixture.beta_rw), BETA_DISCORD).await;

    let unscheduled = json!({"enabled": true, "snapshot_interval_hours": null});
    let allowed = put(daemon, &fixture.beta_rw, &path, unscheduled).await;
    assert_eq!(allowed.status(), 200);

    let pro = format!("/servers/{ALPHA_DISCORD}/config/antinuke");
    let allowed = put(daemon, &fixture.alpha_rw, &pro, scheduled).await;
    assert_eq!(allowed.status(), 200);
}

#[tokio::test]
async fn a_downgraded_team_keeps_reading_what_it_has_and_its_schedule_stops() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let alpha = daemon.client(&fixture.alpha_rw);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(alpha.capture_snapshot(ALPHA_DISCORD).await.unwrap().id);
    }
    let antinuke = format!("/servers/{ALPHA_DISCORD}/config/antinuke");
    let scheduled = json!({"enabled": true, "snapshot_interval_hours": 1});
    let set = put(daemon, &fixture.alpha_rw, &antinuke, scheduled).await;
    assert_eq!(set.status(), 200);
    let webhooks = format!("/servers/{ALPHA_DISCORD}/config/webhooks");
    let set = put(daemon, &fixture.alpha_rw, &webhooks, webhooks_on()).await;
    assert_eq!(set.status(), 200);
    daemon.clock().advance(std::time::Duration::from_secs(7200));
    let now = daemon.now_unix();
    let due = daemon.write(move |tx| snapshots::scheduled_due(tx, now));
    assert_eq!(due.len(), 1, "pro: the schedule runs");

    set_plan(daemon, "alpha", Plan::Free);
    // Everything it has stays readable: snapshots beyond free's one, the
    // config with webhooks still on, the delivery log.
    let listing = alpha.snapshots(ALPHA_DISCORD, false).await.unwrap();
    assert_eq!(listing.recent.len(), 3);
    for id in &ids {
        alpha.snapshot(ALPHA_DISCORD, *id, false).await.unwrap();
    }
    let config = alpha.config(ALPHA_DISCORD).await.unwrap();
    assert!(config.sections.webhooks.enabled);
    alpha
        .webhook_deliveries(ALPHA_DISCORD, &Default::default())
        .await
        .unwrap();
    // Other sections stay editable; the schedule no longer runs.
    let strikes = format!("/servers/{ALPHA_DISCORD}/config/strikes");
    let edited = put(
        daemon,
        &fixture.alpha_rw,
        &strikes,
        json!({"expiry_days": 60}),
    )
    .await;
    assert_eq!(edited.status(), 200);
    let due = daemon.write(move |tx| snapshots::scheduled_due(tx, now));
    assert!(due.is_empty(), "free: no scheduled snapshots: {due:?}");

    // New use: the next capture keeps what free retains.
    let newest = alpha.capture_snapshot(ALPHA_DISCORD).await.unwrap().id;
    let listing = alpha.snapshots(ALPHA_DISCORD, false).await.unwrap();
    let kept: Vec<i64> = listing.recent.iter().map(|s| s.id).collect();
    assert_eq!(kept, vec![newest]);
}

#[tokio::test]
async fn the_fourth_free_server_is_refused_and_pro_passes() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.claim("beta", Platform::Telegram, "-1002000000001", "Beta One");
    daemon.claim("beta", Platform::Telegram, "-1002000000002", "Beta Two");
    let servers = daemon.client(&fixture.beta_rw);
    let now = daemon.now_unix();
    let refused = daemon
        .block_on(daemon.store().write(move |tx| {
            let team = teams::get_by_name(tx, "beta")?;
            modctld::servers::claim(
                tx,
                team.id,
                Platform::Telegram,
                "-1002000000003",
                "Beta Three",
                now,
            )
        }))
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("needs the pro plan; team beta is on free (its limit is 3)"),
        "{refused}"
    );
    assert_eq!(servers.servers().await.unwrap().len(), 3);

    set_plan(daemon, "beta", Plan::Pro);
    daemon.claim("beta", Platform::Telegram, "-1002000000003", "Beta Three");
    assert_eq!(servers.servers().await.unwrap().len(), 4);
    // Downgraded, it keeps its four servers and reads them all.
    set_plan(daemon, "beta", Plan::Free);
    let me = daemon.client(&fixture.beta_rw).me().await.unwrap();
    assert_eq!(me.team.plan, Plan::Free);
    assert_eq!(servers.servers().await.unwrap().len(), 4);
}

#[tokio::test]
async fn insights_beyond_the_plans_days_are_a_402_and_within_them_pass() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    for endpoint in ["insights", "community-insights"] {
        let path = format!("/servers/{BETA_DISCORD}/{endpoint}?days=31");
        let refused = send(daemon, &fixture.beta_rw, reqwest::Method::GET, &path, None).await;
        assert_payment_required(refused, "beta", Some(30)).await;
        let path = format!("/servers/{BETA_DISCORD}/{endpoint}?days=30");
        let allowed = send(daemon, &fixture.beta_rw, reqwest::Method::GET, &path, None).await;
        assert_eq!(allowed.status(), 200, "{endpoint}");
        let path = format!("/servers/{ALPHA_DISCORD}/{endpoint}?days=365");
        let pro = send(daemon, &fixture.alpha_rw, reqwest::Method::GET, &path, None).await;
        assert_eq!(pro.status(), 200, "{endpoint}");
    }
}
