//! The end-to-end tests of the SDK against a real daemon, as one test binary
//! (issue #24): each file of this directory is a module of it, so a change
//! to the daemon relinks one binary instead of one per file.
//!
//! `cargo test -p modctl-e2e --test it` runs them all, and
//! `cargo test -p modctl-e2e --test it openapi::` one file's tests.

mod actions;
mod activity;
mod antinuke;
mod auth;
mod automod;
mod automod_act;
mod automod_native;
mod automod_settling;
mod cases;
mod config;
mod corrections;
mod demo;
mod dms;
mod docs;
mod dry_run;
mod durability;
mod errors;
mod events;
mod health;
mod http;
mod insights;
mod insights_ranking;
mod isolation;
mod live;
mod lockdown;
mod logs;
mod lost_answers;
mod metrics;
mod name_lookups;
mod names;
mod onboarding;
mod openapi;
mod own_invites;
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
mod verify;
mod webhook_events;
mod webhooks;
mod welcome;

/// Every file here is a module of this binary: none is left unrun.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    modctl_e2e::assert_every_test_file_is_declared(&dir, include_str!("it.rs"));
}
