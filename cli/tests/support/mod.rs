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

/// The second Discord guild of team alpha that some tests claim.
pub const SECOND: &str = "100000000000000002";

/// A fixture whose team alpha also has the Discord guild [`SECOND`].
pub fn fixture_with_two_guilds() -> Fixture {
    let fixture = Fixture::start();
    fixture.daemon.claim(
        "alpha",
        modctl_types::Platform::Discord,
        SECOND,
        "Second Guild",
    );
    fixture
}

/// `modctl` for a pseudo-terminal: a clean environment with the fixture's
/// private config file, no colour, no daemon URL or key.
#[cfg(unix)]
pub fn terminal_command(fixture: &Fixture) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_modctl"));
    command
        .env_clear()
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env(
            "MODCTL_CONFIG",
            fixture.daemon.scratch_dir().join("config.toml"),
        );
    command
}

/// `modctl ARGS` on a pseudo-terminal against the fixture's daemon with
/// `key`.
#[cfg(unix)]
pub fn at_terminal(
    fixture: &Fixture,
    key: &TestKey,
    args: &[&str],
) -> rexpect::session::PtySession {
    let mut command = terminal_command(fixture);
    command
        .env("MODCTL_URL", fixture.daemon.url())
        .env("MODCTL_API_KEY", &key.full)
        .args(args);
    rexpect::session::spawn_command(command, Some(20_000)).expect("spawn modctl in a pty")
}

/// Reads what is left of a pseudo-terminal session and returns its exit code.
#[cfg(unix)]
pub fn exit_code(session: &mut rexpect::session::PtySession) -> i32 {
    let _ = session.exp_eof();
    match session.process.wait().unwrap() {
        rexpect::process::wait::WaitStatus::Exited(_, code) => code,
        other => panic!("modctl did not exit: {other:?}"),
    }
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
