//! The tests of the `modctl` binary against a real daemon, as one test
//! binary (issue #24): each file of this directory is a module of it, and
//! `support` their shared helpers. Insta names each snapshot after its
//! module path, so they are `snapshots/it__<file>__<name>.snap`.
//!
//! `cargo test -p modctl --test it` runs them all, and
//! `cargo test -p modctl --test it completions::` one file's tests.

mod actions;
mod basics;
mod completions;
mod config;
mod config_safe;
#[cfg(unix)]
mod confirm_prompt;
mod errors;
#[cfg(unix)]
mod login_prompt;
mod onboarding;
#[cfg(unix)]
mod readable;
mod restore;
mod snapshot;
mod support;
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
