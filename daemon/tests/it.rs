//! The tests of the `modctld` binary (its operator commands and `serve`
//! processes), as one test binary (issue #24): each file of this directory
//! is a module of it, and `support` their shared helpers.
//!
//! `cargo test -p modctld --test it` runs them all, and
//! `cargo test -p modctld --test it crash::` one file's tests.

mod backup;
mod config;
mod crash;
mod integrity;
mod logs;
mod metrics;
mod operator;
mod operator_receivers;
mod operator_structure;
mod packaging;
mod plans;
mod redaction;
mod support;
mod webhooks_serve;

/// Every file here is a module of this binary: none is left unrun.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    modctl_e2e::assert_every_test_file_is_declared(&dir, include_str!("it.rs"));
}
