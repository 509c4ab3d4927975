//! Every error is `{"error": "..."}` JSON, whatever produced it.

use modctl_e2e::{Fixture, error_body};
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
