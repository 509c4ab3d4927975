//! The tests of the `modctl` binary against a real daemon, as one test
//! binary (issue #24): each file of this directory is a module of it, and
//! `support` their shared helpers. Insta names each snapshot after its
//! module path, so they are `snapshots/it__<file>__<name>.snap`.
//!
//! `cargo test -p modctl --test it` runs them all, and
//! `cargo test -p modctl --test it completions::` one file's tests.

mod actions;
mod automod;
mod basics;
mod completions;
mod config;
mod config_safe;
#[cfg(unix)]
mod confirm_prompt;
mod corrections;
mod errors;
mod lockdown;
#[cfg(unix)]
mod login_prompt;
mod names;
mod onboarding;
#[cfg(unix)]
mod readable;
mod restore;
mod snapshot;
mod support;
mod watch;
mod webhooks;

/// Every file here is a module of this binary: none is left unrun.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    modctl_e2e::assert_every_test_file_is_declared(&dir, include_str!("it.rs"));
}
