//! The OpenAPI document: the committed copy is current, the daemon serves it
//! without a key, and it lists exactly the routes the router has, with the
//! methods and scopes they really take.
//!
//! Regenerate `docs/openapi.json` with
//! `UPDATE_OPENAPI=1 cargo test -p modctl-e2e --test openapi` (or
//! `modctld openapi > docs/openapi.json`).

use std::collections::BTreeSet;

use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon, error_body};
use modctld::AppState;
use modctld::api::openapi::{self, required_scope};
use reqwest::Method;
use utoipa::openapi::path::Operation;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/openapi.json");

/// The methods the API could take; HEAD and OPTIONS are left to axum.
const METHODS: [Method; 5] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
];

#[test]
fn the_committed_document_is_current() {
    let current = openapi::document_json();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(COMMITTED, &current).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    assert!(
        committed == current,
        "docs/openapi.json is stale: regenerate it with \
         `UPDATE_OPENAPI=1 cargo test -p modctl-e2e --test openapi` and commit it"
    );
}

#[test]
fn the_document_is_openapi_3_1_with_the_bearer_scheme() {
    let document: serde_json::Value = serde_json::from_str(&openapi::document_json()).unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    assert_eq!(
        document["components"]["securitySchemes"][openapi::BEARER]["scheme"],
        "bearer"
    );
    assert_eq!(
        document["info"]["version"],
        env!("CARGO_PKG_VERSION"),
        "the document's version is the daemon's"
    );
}

#[tokio::test]
async fn the_daemon_serves_the_document_without_a_key() {
    let daemon = TestDaemon::start();
    let response = reqwest::get(daemon.api("/openapi.json")).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "application/json"
    );
    assert_eq!(response.text().await.unwrap(), openapi::document_json());
}

/// Every path the router routes, read from its `Debug` output (axum has no
/// other way to list routes; if that output ever changes shape, this finds
/// nothing and fails rather than passing).
fn routed_paths(daemon: &TestDaemon) -> BTreeSet<String> {
    let router = modctld::router(AppState::new(daemon.store().clone()));
    let debug = format!("{router:?}");
    // The fallback router (JSON 404s for everything else) comes after the
    // path router and routes `/` and a catch-all.
    let (path_router, _fallback) = debug
        .split_once("fallback_router")
        .expect("the router's Debug output names its fallback router");
    path_router
        .split('"')
        .filter(|s| s.starts_with('/') && !s.contains("__private__"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_router_routes_exactly_the_documented_paths() {
    let daemon = TestDaemon::start();
    let routed = routed_paths(&daemon);
    let documented: BTreeSet<String> = openapi::document().paths.paths.into_keys().collect();
    assert!(
        routed.len() >= 10,
        "found too few routes in the router's Debug output: {routed:?}"
    );
    assert_eq!(
        routed, documented,
        "left: routed by the router; right: in the document"
    );
}

/// The documented operations: path, method, operation.
fn operations() -> Vec<(String, Method, Operation)> {
    let mut all = Vec::new();
    for (path, item) in openapi::document().paths.paths {
        let by_method = [
            (Method::GET, item.get),
            (Method::POST, item.post),
            (Method::PUT, item.put),
            (Method::PATCH, item.patch),
            (Method::DELETE, item.delete),
        ];
        for (method, operation) in by_method {
            if let Some(operation) = operation {
                all.push((path.clone(), method, operation));
            }
        }
    }
    all
}

/// `path` with its parameters filled in with values that exist in the fixture.
fn concrete(path: &str) -> String {
    path.replace("{id}", ALPHA_DISCORD)
        .replace("{section}", "general")
        .replace("{action}", "warn")
        .replace("{case_id}", "1")
}

fn request(method: &Method, url: &str) -> reqwest::RequestBuilder {
    let request = reqwest::Client::new().request(method.clone(), url);
    if *method == Method::GET {
        request
    } else {
        request
            .header("content-type", "application/json")
            .body("{}")
    }
}

#[tokio::test]
async fn every_documented_method_is_routed_and_every_other_is_405() {
    let fixture = Fixture::start();
    let base = fixture.daemon.url().to_owned();
    let operations = operations();
    let paths: BTreeSet<&String> = operations.iter().map(|(path, _, _)| path).collect();
    for path in paths {
        let documented: BTreeSet<&str> = operations
            .iter()
            .filter(|(p, _, _)| p == path)
            .map(|(_, method, _)| method.as_str())
            .collect();
        let url = format!("{base}{}", concrete(path));
        for method in &METHODS {
            let response = request(method, &url).send().await.unwrap();
            let status = response.status();
            if documented.contains(method.as_str()) {
                assert_ne!(status, 405, "{method} {path} is documented");
                let (_, message) = match status.is_success() {
                    true => continue,
                    false => error_body(response).await,
                };
                assert!(
                    !message.contains("no such endpoint"),
                    "{method} {path} is documented but not routed: {message}"
                );
            } else {
                assert_eq!(status, 405, "{method} {path} is not documented");
                let allow: BTreeSet<String> = response.headers()["allow"]
                    .to_str()
                    .unwrap()
                    .split(',')
                    .map(|m| m.trim().to_owned())
                    .filter(|m| m != "HEAD")
                    .collect();
                let documented: BTreeSet<String> =
                    documented.iter().map(|m| m.to_string()).collect();
                assert_eq!(allow, documented, "Allow of {path}");
            }
        }
    }
}

#[tokio::test]
async fn every_operation_states_its_scope_and_the_daemon_enforces_it() {
    let fixture = Fixture::start();
    let base = fixture.daemon.url().to_owned();
    let mut checked = 0;
    for (path, method, operation) in operations() {
        let url = format!("{base}{}", concrete(&path));
        let Some(scope) = required_scope(&operation) else {
            // Only the API's own meta endpoints need no key.
            assert!(
                ["/api/v1/openapi.json", "/api/v1/health", "/api/v1/ready"]
                    .contains(&path.as_str()),
                "{method} {path} documents no security requirement"
            );
            let response = request(&method, &url).send().await.unwrap();
            assert_eq!(response.status(), 200, "{method} {path} without a key");
            continue;
        };
        let extension = serde_json::to_value(&operation.extensions).unwrap();
        assert_eq!(extension["x-required-scope"], scope.as_str(), "{path}");
        assert!(
            operation
                .description
                .as_deref()
                .unwrap_or_default()
                .contains(&format!("scope `{scope}`")),
            "{method} {path} names its scope in its description"
        );
        for status in ["401", "403", "500"] {
            assert!(
                operation.responses.responses.contains_key(status),
                "{method} {path} documents {status}"
            );
        }

        let anonymous = request(&method, &url).send().await.unwrap();
        assert_eq!(anonymous.status(), 401, "{method} {path} without a key");

        let read_only = request(&method, &url)
            .bearer_auth(&fixture.alpha_ro.full)
            .send()
            .await
            .unwrap();
        let status = read_only.status();
        match scope.as_str() {
            "write" => {
                let (status, message) = error_body(read_only).await;
                assert_eq!(status, 403, "{method} {path} with a read-only key");
                assert!(message.contains("write"), "{message}");
            }
            "read" => assert!(
                status != 401 && status != 403,
                "{method} {path} takes a read-only key, got {status}"
            ),
            other => panic!("{method} {path}: unknown scope {other}"),
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} secured operations");
}
