//! The Slack Events API receiver end to end (issue #12): `POST
//! /hooks/slack/events` on a real daemon, signed like Slack signs, counted
//! into the activity rollups. The 5-minute window is measured on the
//! daemon's clock.

use std::time::Duration;

use modctl_e2e::fakes::FakeSlack;
use modctl_e2e::{ALPHA_SLACK, Fixture, TestDaemon, error_body};
use modctld::platform::slack::events::sign;
use modctld::store::receivers::Receiving;
use serde_json::{Value, json};

const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

/// (messages, joins) of the workspace over the last 7 days, read from
/// `GET /servers/{id}/community-insights`.
fn totals(fixture: &Fixture) -> (u64, u64) {
    let t = fixture
        .daemon
        .community_insights(&fixture.alpha_ro, ALPHA_SLACK)
        .totals;
    (t.messages, t.joins)
}

fn connected() -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let slack = FakeSlack::start();
    fixture
        .daemon
        .connect_live(ALPHA_SLACK, "xoxb-fake", &slack.uri());
    fixture.daemon.set_receiving(
        ALPHA_SLACK,
        Receiving {
            signing_secret: Some(SIGNING_SECRET.to_owned()),
            ..Receiving::default()
        },
    );
    (fixture, slack)
}

fn callback(event_id: &str, event: Value, at: i64) -> String {
    json!({"token": "t", "team_id": ALPHA_SLACK, "api_app_id": "A1", "type": "event_callback",
           "event_id": event_id, "event_time": at, "event": event})
    .to_string()
}

/// Posts `body` signed with `secret` at unix time `timestamp`.
async fn post(daemon: &TestDaemon, body: &str, secret: &str, timestamp: i64) -> reqwest::Response {
    let timestamp = timestamp.to_string();
    reqwest::Client::new()
        .post(format!("{}/hooks/slack/events", daemon.url()))
        .header("content-type", "application/json")
        .header("x-slack-request-timestamp", &timestamp)
        .header(
            "x-slack-signature",
            sign(secret, &timestamp, body.as_bytes()),
        )
        .body(body.to_owned())
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn signed_events_are_counted_once_and_the_challenge_is_answered() {
    let (fixture, _slack) = connected();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();

    let challenge = json!({"token": "t", "challenge": "3eZbrw1aB", "type": "url_verification"});
    let answer = post(daemon, &challenge.to_string(), SIGNING_SECRET, now).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(
        answer.json::<Value>().await.unwrap(),
        json!({"challenge": "3eZbrw1aB"})
    );

    let message = callback(
        "Ev1",
        json!({"type": "message", "channel": "C1", "user": "U1", "text": "hi", "ts": "1.1"}),
        now,
    );
    let first = post(daemon, &message, SIGNING_SECRET, now).await;
    assert_eq!(first.status(), 200);
    assert_eq!(first.json::<Value>().await.unwrap()["counted"], true);
    // Slack's retry (a new timestamp) and a replay of the same request are
    // acknowledged and not counted again.
    let retry = post(daemon, &message, SIGNING_SECRET, now + 60).await;
    assert_eq!(retry.json::<Value>().await.unwrap()["counted"], false);
    let replay = post(daemon, &message, SIGNING_SECRET, now).await;
    assert_eq!(replay.json::<Value>().await.unwrap()["counted"], false);

    for (id, event) in [
        (
            "Ev2",
            json!({"type": "message", "subtype": "bot_message", "bot_id": "B1", "channel": "C1", "ts": "1.2"}),
        ),
        (
            "Ev3",
            json!({"type": "message", "subtype": "channel_topic", "user": "U1", "channel": "C1", "ts": "1.3"}),
        ),
    ] {
        let answer = post(daemon, &callback(id, event, now), SIGNING_SECRET, now).await;
        assert_eq!(
            answer.json::<Value>().await.unwrap()["counted"],
            false,
            "{id}"
        );
    }
    for (id, event) in [
        (
            "Ev4",
            json!({"type": "team_join", "user": {"id": "U2", "is_bot": false}}),
        ),
        (
            "Ev5",
            json!({"type": "member_joined_channel", "user": "U3", "channel": "C1", "channel_type": "C"}),
        ),
    ] {
        let answer = post(daemon, &callback(id, event, now), SIGNING_SECRET, now).await;
        assert_eq!(
            answer.json::<Value>().await.unwrap()["counted"],
            true,
            "{id}"
        );
    }
    assert_eq!(totals(&fixture), (1, 2));
}

#[tokio::test]
async fn bad_signatures_and_old_timestamps_are_refused_and_nothing_is_counted() {
    let (fixture, _slack) = connected();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();
    let message = |id: &str| {
        callback(
            id,
            json!({"type": "message", "channel": "C1", "user": "U1", "ts": "1.1"}),
            now,
        )
    };

    let (status, error) =
        error_body(post(daemon, &message("Ev1"), "not the secret", now).await).await;
    assert_eq!(status, 401);
    assert!(error.contains("signature"), "{error}");

    // Signed 5 minutes and a second before the daemon's now.
    let (status, error) =
        error_body(post(daemon, &message("Ev2"), SIGNING_SECRET, now - 301).await).await;
    assert_eq!(status, 401);
    assert!(error.contains("5 minutes"), "{error}");
    // The same request later on the clock: a replay past the window.
    let signed_now = message("Ev3");
    assert_eq!(
        post(daemon, &signed_now, SIGNING_SECRET, now)
            .await
            .status(),
        200
    );
    daemon.clock().advance(Duration::from_secs(301));
    let (status, _) = error_body(post(daemon, &signed_now, SIGNING_SECRET, now).await).await;
    assert_eq!(status, 401);

    // A body altered after signing.
    let timestamp = daemon.now_unix().to_string();
    let signature = sign(SIGNING_SECRET, &timestamp, message("Ev4").as_bytes());
    let altered = reqwest::Client::new()
        .post(format!("{}/hooks/slack/events", daemon.url()))
        .header("x-slack-request-timestamp", &timestamp)
        .header("x-slack-signature", signature)
        .body(message("Ev5"))
        .send()
        .await
        .unwrap();
    assert_eq!(error_body(altered).await.0, 401);

    // No signature at all.
    let unsigned = reqwest::Client::new()
        .post(format!("{}/hooks/slack/events", daemon.url()))
        .body(message("Ev6"))
        .send()
        .await
        .unwrap();
    let (status, error) = error_body(unsigned).await;
    assert_eq!(status, 401);
    assert!(error.contains("X-Slack"), "{error}");

    // Only the one good request counted.
    assert_eq!(totals(&fixture), (1, 0));
}

#[tokio::test]
async fn a_workspace_without_a_signing_secret_is_refused_with_what_to_do() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();
    let body = callback(
        "Ev1",
        json!({"type": "team_join", "user": {"id": "U2"}}),
        now,
    );
    let (status, error) = error_body(post(daemon, &body, SIGNING_SECRET, now).await).await;
    assert_eq!(status, 401);
    assert!(error.contains("--signing-secret-env"), "{error}");
    assert_eq!(totals(&fixture), (0, 0));
}

/// Team beta's Slack workspace, for the tests of what one workspace's
/// secret can reach.
const BETA_SLACK: &str = "T0BETA0001";
const BETA_SIGNING_SECRET: &str = "beta-signing-secret-0123456789ab";

/// `connected()`, plus a Slack workspace of team beta with its own secret.
fn two_teams_connected() -> (Fixture, FakeSlack) {
    let (fixture, slack) = connected();
    let daemon = &fixture.daemon;
    daemon.claim(
        "beta",
        modctl_types::Platform::Slack,
        BETA_SLACK,
        "Beta Workspace",
    );
    daemon.connect_live(BETA_SLACK, "xoxb-beta", &slack.uri());
    daemon.set_receiving(
        BETA_SLACK,
        Receiving {
            signing_secret: Some(BETA_SIGNING_SECRET.to_owned()),
            ..Receiving::default()
        },
    );
    (fixture, slack)
}

/// Beta's messages over the last 7 days, read with beta's key.
fn beta_messages(fixture: &Fixture) -> u64 {
    fixture
        .daemon
        .community_insights(&fixture.beta_rw, BETA_SLACK)
        .totals
        .messages
}

#[tokio::test]
async fn a_workspace_signing_for_another_teams_workspace_counts_nothing_there() {
    let (fixture, _slack) = two_teams_connected();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();
    let event = r#"{"type":"message","channel":"C1","user":"U1","ts":"1.1"}"#;

    // Alpha knows its own secret and names itself first, beta last: the
    // secret would be picked by one team_id and the event counted for the
    // other. A body that repeats a key is refused before anything is read.
    let forged = format!(
        r#"{{"team_id":"{ALPHA_SLACK}","type":"event_callback","event_id":"EvX","event_time":{now},"event":{event},"team_id":"{BETA_SLACK}"}}"#
    );
    let (status, error) = error_body(post(daemon, &forged, SIGNING_SECRET, now).await).await;
    assert_eq!(status, 400);
    assert!(error.contains("duplicate key `team_id`"), "{error}");

    // Naming beta alone, signed with alpha's secret: only beta's secret is
    // tried, and it did not sign this.
    let beta_body = format!(
        r#"{{"team_id":"{BETA_SLACK}","type":"event_callback","event_id":"EvY","event_time":{now},"event":{event}}}"#
    );
    let (status, _) = error_body(post(daemon, &beta_body, SIGNING_SECRET, now).await).await;
    assert_eq!(status, 401);
    // A duplicate nested in the event is refused too (the user would be one
    // to a reader and another to the count).
    let nested = format!(
        r#"{{"team_id":"{ALPHA_SLACK}","type":"event_callback","event_id":"EvZ","event_time":{now},"event":{{"type":"message","channel":"C1","user":"U1","user":"U2","ts":"1.1"}}}}"#
    );
    let (status, _) = error_body(post(daemon, &nested, SIGNING_SECRET, now).await).await;
    assert_eq!(status, 400);

    assert_eq!(beta_messages(&fixture), 0, "nothing counted for beta");
    assert_eq!(totals(&fixture), (0, 0), "nor for alpha");

    // Beta's own secret counts for beta.
    let answer = post(daemon, &beta_body, BETA_SIGNING_SECRET, now).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(beta_messages(&fixture), 1);
}

#[tokio::test]
async fn event_ids_are_remembered_per_workspace() {
    let (fixture, _slack) = two_teams_connected();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();
    let event = json!({"type": "message", "channel": "C1", "user": "U1", "ts": "1.1"});
    // Slack's event ids are unique per app, not across the apps of every
    // workspace a daemon serves: the same id in another workspace is
    // another event.
    let alpha = callback("Ev1", event.clone(), now);
    let beta = callback("Ev1", event, now).replace(ALPHA_SLACK, BETA_SLACK);
    for (body, secret) in [(&alpha, SIGNING_SECRET), (&beta, BETA_SIGNING_SECRET)] {
        let answer = post(daemon, body, secret, now).await;
        assert_eq!(answer.json::<Value>().await.unwrap()["counted"], true);
    }
    assert_eq!(totals(&fixture).0, 1);
    assert_eq!(beta_messages(&fixture), 1);
}

#[tokio::test]
async fn an_event_answered_counted_is_in_the_database_before_the_answer() {
    let (fixture, _slack) = connected();
    let daemon = &fixture.daemon;
    let now = daemon.now_unix();
    for i in 0..5 {
        let body = callback(
            &format!("Ev{i}"),
            json!({"type": "message", "channel": "C1", "user": "U1", "ts": "1.1"}),
            now,
        );
        let answer = post(daemon, &body, SIGNING_SECRET, now).await;
        assert_eq!(answer.json::<Value>().await.unwrap()["counted"], true);
    }
    // Nothing waits in the ingestion's buffer (which a kill would lose, and
    // Slack would never send again): read without flushing it.
    assert_eq!(daemon.state().activity.pending(), 0);
    let insights = fixture
        .daemon
        .client(&fixture.alpha_ro)
        .community_insights(ALPHA_SLACK, Some(7))
        .await
        .unwrap();
    assert_eq!(insights.totals.messages, 5);
}
