//! Every error is `{"error": "..."}` JSON, whatever produced it.

use modctl_client::CaseQuery;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, Fixture, assert_config_untouched, error_body};
use reqwest::{Method, StatusCode};

async fn assert_json_error(response: reqwest::Response, status: StatusCode, fragment: &str) {
    let (actual, message) = error_body(response).await;
    assert_eq!(actual, status);
    assert!(
        message.contains(fragment),
        "{message:?} should mention {fragment:?}"
    );
}

#[tokio::test]
async fn unknown_routes_are_404_json() {
    let fixture = Fixture::start();
    let http = reqwest::Client::new();
    for path in ["/", "/api/v2/me", "/api/v1/nope"] {
        let response = http
            .get(format!("{}{path}", fixture.daemon.url()))
            .bearer_auth(&fixture.alpha_rw.full)
            .send()
            .await
            .unwrap();
        assert_json_error(response, StatusCode::NOT_FOUND, "no such endpoint").await;
    }
}

#[tokio::test]
async fn wrong_methods_are_405_json_with_allow() {
    let fixture = Fixture::start();
    let response = reqwest::Client::new()
        .request(Method::DELETE, fixture.daemon.api("/servers"))
        .bearer_auth(&fixture.alpha_rw.full)
        .send()
        .await
        .unwrap();
    assert!(
        response.headers()["allow"]
            .to_str()
            .unwrap()
            .contains("GET")
    );
    assert_json_error(response, StatusCode::METHOD_NOT_ALLOWED, "/api/v1/servers").await;
}

// Body-level errors (400, 413, 415) are tested against the config endpoints
// in `config.rs`.

#[tokio::test]
async fn every_json_body_refuses_duplicate_keys_and_writes_nothing() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let export = client.export_config_json(ALPHA_DISCORD).await.unwrap();
    // A valid envelope with one key repeated deep inside: serde_json::Value
    // would keep the last one and import it.
    let envelope = serde_json::to_string(&export).unwrap().replacen(
        "\"require_reason\":false",
        "\"require_reason\":false,\"require_reason\":true",
        1,
    );
    let cases = [
        (
            Method::PUT,
            format!("/servers/{ALPHA_DISCORD}/config/moderation"),
            r#"{"require_reason":false,"require_reason":true}"#.to_owned(),
            "duplicate key `require_reason` in the top-level object",
        ),
        (
            Method::PUT,
            format!("/servers/{ALPHA_DISCORD}/config/strikes"),
            r#"{"ladder":[{"at":2,"action":"ban","at":3}]}"#.to_owned(),
            "duplicate key `at` at ladder[0].at",
        ),
        (
            Method::POST,
            format!("/servers/{ALPHA_DISCORD}/config/import"),
            envelope,
            "duplicate key `require_reason` at sections.moderation.require_reason",
        ),
        (
            Method::POST,
            format!("/servers/{ALPHA_DISCORD}/config/clone"),
            format!(r#"{{"from":"{ALPHA_SLACK}","from":"100000000000000009"}}"#),
            "duplicate key `from` in the top-level object",
        ),
        (
            Method::POST,
            format!("/servers/{ALPHA_DISCORD}/actions/warn"),
            r#"{"user_id":"800000000000000004","reason":"a","user_id":"800000000000000005"}"#
                .to_owned(),
            "duplicate key `user_id` in the top-level object",
        ),
    ];
    let http = reqwest::Client::new();
    for (method, path, body, duplicate) in cases {
        let response = http
            .request(method, fixture.daemon.api(&path))
            .bearer_auth(&fixture.alpha_rw.full)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let (status, message) = error_body(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {message}");
        assert_eq!(
            message,
            format!("request body is not valid JSON: {duplicate}"),
            "{path}"
        );
    }
    assert_config_untouched(&client, ALPHA_DISCORD).await;
    let cases = client
        .cases(ALPHA_DISCORD, &CaseQuery::default())
        .await
        .unwrap();
    assert!(cases.cases.is_empty(), "{:?}", cases.cases);
}
