//! Shared helpers of the `modctl` binary tests.

#![allow(dead_code)]

use assert_cmd::Command;
use modctl_e2e::{Fixture, TestKey};

/// `modctl` with a clean environment: the fixture's daemon and `key`, a
/// private config file, no colour.
pub fn modctl(fixture: &Fixture, key: Option<&TestKey>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_modctl"));
    command
        .env_clear()
        .env("NO_COLOR", "1")
        .env(
            "MODCTL_CONFIG",
            fixture.daemon.scratch_dir().join("config.toml"),
        )
        .env("MODCTL_URL", fixture.daemon.url());
    if let Some(key) = key {
        command.env("MODCTL_API_KEY", &key.full);
    }
    command
}

/// Runs and returns stdout, asserting the exit code.
pub fn stdout_of(command: &mut Command, code: i32) -> String {
    let output = command.output().expect("run modctl");
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 stdout")
}

/// Runs and returns stderr, asserting the exit code.
pub fn stderr_of(command: &mut Command, code: i32) -> String {
    let output = command.output().expect("run modctl");
    assert_eq!(
        output.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stderr).expect("utf-8 stderr")
}

/// Replaces what changes from run to run (times, key ids) with placeholders
/// of the same width, so tables keep their shape.
pub fn stable(text: &str, keys: &[&TestKey]) -> String {
    let mut text = text.to_owned();
    for key in keys {
        text = text.replace(&key.key_id, "xxxxxxxxxxxx");
    }
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(len) = timestamp_at(&bytes[i..]) {
            out.push_str(if len == 20 {
                "YYYY-MM-DDThh:mm:ssZ"
            } else {
                "YYYY-MM-DD hh:mm:ss"
            });
            i += len;
        } else {
            out.push(text[i..].chars().next().unwrap());
            i += text[i..].chars().next().unwrap().len_utf8();
        }
    }
    out
}

/// `2026-11-21T09:08:10Z` (20 bytes) or `2026-11-21 09:08:10` (19 bytes).
fn timestamp_at(b: &[u8]) -> Option<usize> {
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let shape = (0..4).all(digit)
        && at(4, b'-')
        && digit(5)
        && digit(6)
        && at(7, b'-')
        && digit(8)
        && digit(9)
        && (at(10, b'T') || at(10, b' '))
        && digit(11)
        && digit(12)
        && at(13, b':')
        && digit(14)
        && digit(15)
        && at(16, b':')
        && digit(17)
        && digit(18);
    if !shape {
        return None;
    }
    Some(if at(10, b'T') && at(19, b'Z') { 20 } else { 19 })
}
