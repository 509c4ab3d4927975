//! The end-to-end tests of the SDK against a real daemon, as one test binary
//! (issue #24): each file of this directory is a module of it, so a change
//! to the daemon relinks one binary instead of one per file.
//!
//! `cargo test -p modctl-e2e --test it` runs them all, and
//! `cargo test -p modctl-e2e --test it openapi::` one file's tests.

mod actions;
mod activity;
mod auth;
mod cases;
mod config;
mod demo;
mod docs;
mod durability;
mod errors;
mod health;
mod http;
mod insights;
mod insights_ranking;
mod isolation;
mod lost_answers;
mod onboarding;
mod openapi;
mod plans;
mod ratelimits;
mod read_path;
mod receivers_gateway;
mod receivers_slack;
mod receivers_telegram;
mod request_limits;
mod restarts;
mod restore;
mod restore_platforms;
mod secrets_at_rest;
mod snapshot_schedule;
mod snapshots;
mod webhook_events;
mod webhooks;

/// Cargo no longer makes a test binary of each file here (`autotests =
/// false`): a file this root does not declare would never be compiled or
/// run. Each one is declared.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let root = include_str!("it.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        let module = match name.strip_suffix(".rs") {
            Some(module) if module != "it" => module.to_owned(),
            _ if path.join("mod.rs").is_file() => name.to_owned(),
            _ => continue,
        };
        assert!(
            root.lines().any(|line| line == format!("mod {module};")),
            "tests/{name} is not declared in tests/it.rs (`mod {module};`), so it never runs"
        );
    }
}
