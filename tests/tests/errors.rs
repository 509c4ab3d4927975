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

/// A request and the error it must get: method, path, key, content type,
/// body, extra header; status, code, field.
type Row<'a> = (
    Method,
    String,
    Option<&'a str>,
    Option<&'a str>,
    &'a str,
    Option<(&'a str, &'a str)>,
    u16,
    &'a str,
    Option<&'a str>,
);

/// Every error the API answers has a machine-readable `code` (issue #24),
/// documented with the status it comes with, and `field` where the daemon
/// knows which field is wrong: one request per code this suite can provoke
/// without a platform (`rate_limited`, `busy`, `request_timeout`,
/// `headers_too_large`, and the bodies of every other test, are checked
/// by `error_parts` wherever `error_body` reads them).
#[tokio::test]
async fn every_error_has_a_code_and_names_its_field() {
    use modctl_e2e::{BETA_DISCORD, UNCLAIMED, error_parts};

    let fixture = Fixture::start();
    let http = reqwest::Client::new();
    let (rw, ro) = (&fixture.alpha_rw.full, &fixture.alpha_ro.full);
    let beta = &fixture.beta_rw.full;
    let json = Some("application/json");
    let moderation = format!("/servers/{ALPHA_DISCORD}/config/moderation");
    let cases = format!("/servers/{ALPHA_DISCORD}/cases");
    let long_query = format!("{cases}?user_id={}", "1".repeat(9 * 1024));
    let big_body = format!(r#"{{"reason":"{}"}}"#, "x".repeat(300 * 1024));
    let unclaimed_source = format!(r#"{{"from":"{UNCLAIMED}"}}"#);
    // (method, path, key, content type, body, extra header) -> (status, code, field)
    #[rustfmt::skip]
    let table: Vec<Row<'_>> = vec![
        (Method::PUT, moderation.clone(), Some(rw), json, "not json", None, 400, "invalid_request", None),
        (Method::PUT, moderation.clone(), Some(rw), json, r#"{"default_timeout_minutes":0}"#, None, 400, "invalid_field", Some("moderation.default_timeout_minutes")),
        (Method::GET, format!("{cases}?limit=500"), Some(ro), None, "", None, 400, "invalid_field", Some("limit")),
        (Method::GET, format!("{cases}?limit=lots"), Some(ro), None, "", None, 400, "invalid_field", Some("limit")),
        (Method::GET, format!("{cases}/first"), Some(ro), None, "", None, 400, "invalid_field", Some("{case_id}")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/actions/smite"), Some(rw), json, r#"{"user_id":"800000000000000004"}"#, None, 400, "invalid_field", Some("{action}")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/actions/warn"), Some(rw), json, r#"{"user_id":"alice"}"#, None, 400, "invalid_field", Some("user_id")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/actions/warn"), Some(rw), json, r#"{"user_id":"800000000000000004","minutes":5}"#, None, 400, "invalid_field", Some("minutes")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/actions/warn"), Some(rw), json, r#"{"user_id":5}"#, None, 400, "invalid_field", Some("user_id")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/actions/warn"), Some(rw), json, r#"{"user_id":"800000000000000004"}"#, Some(("idempotency-key", " ")), 400, "invalid_field", Some("Idempotency-Key")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/config/clone"), Some(rw), json, "{}", None, 400, "invalid_field", Some("from")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/config/import"), Some(rw), json, r#"{"format":"zip"}"#, None, 400, "invalid_field", Some("format")),
        (Method::PUT, moderation.clone(), Some(rw), json, "{}", Some(("if-match", "three")), 400, "invalid_field", Some("If-Match")),
        (Method::GET, "/me".into(), None, None, "", None, 401, "unauthorized", None),
        (Method::GET, "/me".into(), Some("mdk_abcdefgh2345_wrongwrongwrongwrongwrongwrongwrong"), None, "", None, 401, "unauthorized", None),
        (Method::POST, format!("/servers/{BETA_DISCORD}/webhooks/test"), Some(beta), None, "", None, 402, "plan_required", None),
        (Method::GET, format!("/servers/{BETA_DISCORD}/insights?days=31"), Some(beta), None, "", None, 402, "plan_limit", None),
        (Method::PUT, moderation.clone(), Some(ro), json, "{}", None, 403, "scope_required", None),
        (Method::GET, format!("/servers/{BETA_DISCORD}"), Some(rw), None, "", None, 403, "forbidden", None),
        (Method::GET, format!("/servers/{UNCLAIMED}"), Some(ro), None, "", None, 404, "not_found", Some("{id}")),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/config/clone"), Some(rw), json, &unclaimed_source, None, 404, "not_found", Some("from")),
        (Method::GET, format!("/servers/{ALPHA_DISCORD}/config/nosuch"), Some(ro), None, "", None, 404, "not_found", Some("{section}")),
        (Method::GET, format!("{cases}/999"), Some(ro), None, "", None, 404, "not_found", Some("{case_id}")),
        (Method::GET, format!("/servers/{ALPHA_DISCORD}/structure-snapshot/restore/77"), Some(ro), None, "", None, 404, "not_found", Some("{job_id}")),
        (Method::GET, format!("/servers/{ALPHA_DISCORD}/structure-snapshot"), Some(ro), None, "", None, 404, "not_found", None),
        (Method::GET, format!("/servers/{ALPHA_DISCORD}/structure-snapshot?id=77"), Some(ro), None, "", None, 404, "not_found", Some("id")),
        (Method::GET, "/nope".into(), Some(ro), None, "", None, 404, "not_found", None),
        (Method::DELETE, "/servers".into(), Some(ro), None, "", None, 405, "method_not_allowed", None),
        (Method::POST, format!("/servers/{ALPHA_SLACK}/actions/unjail"), Some(rw), json, r#"{"user_id":"U0ALICE01"}"#, None, 409, "conflict", None),
        (Method::POST, format!("/servers/{ALPHA_DISCORD}/webhooks/test"), Some(rw), None, "", None, 409, "not_configured", None),
        (Method::PUT, moderation.clone(), Some(rw), json, "{}", Some(("if-match", "\"99\"")), 412, "precondition_failed", None),
        (Method::PUT, moderation.clone(), Some(rw), json, &big_body, None, 413, "payload_too_large", None),
        (Method::GET, long_query, Some(ro), None, "", None, 414, "uri_too_long", None),
        (Method::PUT, moderation.clone(), Some(rw), Some("text/plain"), "{}", None, 415, "unsupported_media_type", None),
    ];
    let mut wrong = Vec::new();
    for (method, path, key, content_type, body, header, status, code, field) in table {
        let mut request = http
            .request(method.clone(), fixture.daemon.api(&path))
            .body(body.to_owned());
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        let parts = error_parts(request.send().await.unwrap()).await;
        let got = (
            parts.status.as_u16(),
            parts.code.as_str(),
            parts.field.as_deref(),
        );
        if got != (status, code, field) {
            let shown: String = path.chars().take(80).collect();
            wrong.push(format!(
                "{method} {shown}: {got:?} ({:?}), expected {:?}",
                parts.message,
                (status, code, field)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_config_untouched(&fixture.daemon.client(&fixture.alpha_rw), ALPHA_DISCORD).await;
}

/// Every answer names its request (issue #28): `X-Request-Id` on success
/// and failure alike, the same id in an error's body, a new id per request.
#[tokio::test]
async fn every_answer_carries_its_request_id_and_errors_repeat_it() {
    let fixture = Fixture::start();
    let http = reqwest::Client::new();
    let id_of = |response: &reqwest::Response| {
        response
            .headers()
            .get("x-request-id")
            .expect("an X-Request-Id header")
            .to_str()
            .unwrap()
            .to_owned()
    };
    let ok = http
        .get(fixture.daemon.api("/me"))
        .bearer_auth(&fixture.alpha_rw.full)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    let first = id_of(&ok);
    assert!(first.starts_with("req_") && first.len() == 20, "{first}");

    for response in [
        // Refused by authentication, by a handler, and by no route at all.
        http.get(fixture.daemon.api("/me")).send().await.unwrap(),
        http.get(fixture.daemon.api("/servers/999999999999999999"))
            .bearer_auth(&fixture.alpha_rw.full)
            .send()
            .await
            .unwrap(),
        http.get(format!("{}/nope", fixture.daemon.url()))
            .send()
            .await
            .unwrap(),
    ] {
        let id = id_of(&response);
        assert_ne!(id, first, "a new id per request");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["request_id"], id.as_str(), "{body}");
    }
    // The SDK's errors carry it too, for the user's report.
    let err = fixture
        .daemon
        .client(&fixture.alpha_rw)
        .server("999999999999999999")
        .await
        .unwrap_err();
    assert!(
        err.request_id().is_some_and(|id| id.starts_with("req_")),
        "{err:?}"
    );
}
