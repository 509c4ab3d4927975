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
