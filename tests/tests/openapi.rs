//! The OpenAPI document: the committed copy is current, the daemon serves it
//! without a key, and it lists exactly the routes the router has, with the
//! methods and scopes they really take.
//!
//! Regenerate `docs/openapi.json` with
//! `UPDATE_OPENAPI=1 cargo test -p modctl-e2e --test it openapi::` (or
//! `modctld openapi > docs/openapi.json`).

use std::collections::BTreeSet;

use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon, error_body};
use modctl_types::Platform;
use modctl_types::config::{SectionName, Sections};
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
         `UPDATE_OPENAPI=1 cargo test -p modctl-e2e --test it openapi::` and commit it"
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
    let (hooks, routed): (BTreeSet<String>, BTreeSet<String>) = routed_paths(&daemon)
        .into_iter()
        .partition(|path| path.starts_with("/hooks/"));
    // The endpoints the platforms post to are outside the API (no key, the
    // platforms' own formats) and documented in docs/api.md instead.
    assert_eq!(
        hooks,
        BTreeSet::from([
            "/hooks/slack/events".to_owned(),
            "/hooks/slack/interactions".to_owned(),
            "/hooks/telegram/{server_id}".to_owned()
        ])
    );
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

/// A parameter documented `in: path` is one of the path's `{...}` segments,
/// and every segment is documented: a query type registered without
/// `parameter_in = Query` would show up as a path parameter (the fuzzer
/// found one, `dry_run`).
#[test]
fn path_parameters_are_exactly_the_paths_segments() {
    use utoipa::openapi::path::ParameterIn;
    for (path, method, operation) in operations() {
        let mut documented: Vec<String> = operation
            .parameters
            .iter()
            .flatten()
            .filter_map(|p| match p {
                utoipa::openapi::RefOr::T(p) => Some(p),
                utoipa::openapi::RefOr::Ref(_) => None,
            })
            .filter(|p| matches!(p.parameter_in, ParameterIn::Path))
            .map(|p| p.name.clone())
            .collect();
        documented.sort();
        let mut segments: Vec<String> = path
            .split('/')
            .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
            .map(str::to_owned)
            .collect();
        segments.sort();
        assert_eq!(documented, segments, "{method} {path}");
    }
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
                if status.is_success() {
                    continue;
                }
                let (_, message) = error_body(response).await;
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

/// One bounded field of a config section in the document.
#[derive(Debug)]
struct Bounded {
    /// JSON path inside the section, e.g. `["weights", "warn"]` or
    /// `["ladder", "0", "at"]`.
    path: Vec<String>,
    /// Integer bounds or string length bounds.
    min: i64,
    max: i64,
    is_string: bool,
}

fn resolve<'a>(
    document: &'a serde_json::Value,
    schema: &'a serde_json::Value,
) -> &'a serde_json::Value {
    // A property that is a `$ref` (possibly inside `oneOf` with `null`).
    let reference = schema["$ref"].as_str().or_else(|| {
        schema["oneOf"]
            .as_array()?
            .iter()
            .find_map(|s| s["$ref"].as_str())
    });
    match reference {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &document["components"]["schemas"][name]
        }
        None => schema,
    }
}

fn bounded_fields(
    document: &serde_json::Value,
    schema: &serde_json::Value,
    path: Vec<String>,
    out: &mut Vec<Bounded>,
) {
    let schema = resolve(document, schema);
    if let Some(properties) = schema["properties"].as_object() {
        for (name, property) in properties {
            let mut inner = path.clone();
            inner.push(name.clone());
            bounded_fields(document, property, inner, out);
        }
        return;
    }
    if schema["items"].is_object() {
        let mut inner = path.clone();
        inner.push("0".into());
        bounded_fields(document, &schema["items"], inner, out);
        return;
    }
    let bounds = [
        ("minimum", "maximum", false),
        ("minLength", "maxLength", true),
    ];
    for (low, high, is_string) in bounds {
        if let (Some(min), Some(max)) = (schema[low].as_i64(), schema[high].as_i64()) {
            out.push(Bounded {
                path: path.clone(),
                min,
                max,
                is_string,
            });
        }
    }
}

/// The config path validation reports, e.g. `strikes.ladder[0].at`.
fn error_path(section: SectionName, path: &[String]) -> String {
    let mut text = section.to_string();
    for part in path {
        if part.parse::<usize>().is_ok() {
            text.push_str(&format!("[{part}]"));
        } else {
            text.push('.');
            text.push_str(part);
        }
    }
    text
}

/// Errors at `path` when `section` has `value` there, from parsing or validation.
fn errors_at(
    section: SectionName,
    base: &serde_json::Value,
    field: &Bounded,
    value: serde_json::Value,
) -> Vec<String> {
    let mut body = base.clone();
    let mut slot = &mut body;
    for part in &field.path {
        slot = match part.parse::<usize>() {
            Ok(index) => &mut slot[index],
            Err(_) => &mut slot[part.as_str()],
        };
    }
    *slot = value;
    let wanted = error_path(section, &field.path);
    let mut sections = Sections::default();
    let errors = match sections.replace_from_json(section, body) {
        Err(error) => vec![error],
        Ok(()) => sections.validate_section(section, Platform::Discord),
    };
    errors
        .into_iter()
        .filter(|e| e.path == wanted)
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn config_bounds_in_the_document_are_the_ones_validation_enforces() {
    let document: serde_json::Value = serde_json::from_str(&openapi::document_json()).unwrap();
    let mut checked = Vec::new();
    for section in SectionName::ALL {
        let schema_name = {
            let name = section.as_str();
            format!("{}{}", name[..1].to_uppercase(), &name[1..])
        };
        let mut fields = Vec::new();
        let schema = &document["components"]["schemas"][schema_name.as_str()];
        assert!(schema.is_object(), "no schema for section {section}");
        bounded_fields(&document, schema, Vec::new(), &mut fields);

        let mut base = Sections::default().section_json(section);
        if section == SectionName::Strikes {
            // One jail step: the only ladder step whose `minutes` may reach the
            // documented maximum (a timeout step stops at 40320, as its
            // description says), and the only step, so `at` may be 100.
            base["ladder"] = serde_json::json!([{"at": 1, "action": "jail", "minutes": 60}]);
        }
        for field in &fields {
            let value = |n: i64| match field.is_string {
                true => serde_json::json!("x".repeat(n.max(0) as usize)),
                false => serde_json::json!(n),
            };
            let at = error_path(section, &field.path);
            for inside in [field.min, field.max] {
                let errors = errors_at(section, &base, field, value(inside));
                assert!(
                    errors.is_empty(),
                    "{at} = {inside} is within the documented bounds, refused: {errors:?}"
                );
            }
            for outside in [field.min - 1, field.max + 1] {
                if field.is_string && outside < 0 {
                    continue;
                }
                let errors = errors_at(section, &base, field, value(outside));
                assert!(
                    !errors.is_empty(),
                    "{at} = {outside} is outside the documented bounds {}..={}, accepted",
                    field.min,
                    field.max
                );
            }
            checked.push(at);
        }
    }
    assert!(
        checked.len() >= 20,
        "only {} bounded config fields: {checked:?}",
        checked.len()
    );
}
