//! Running the `modctld` binary from the operator tests: its commands, and
//! `modctld serve` as a process of its own.
// Each test crate includes this module and uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// `modctld` on `db`, with nothing else from the environment.
pub fn modctld(db: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_modctld"));
    command.env_clear().env("MODCTLD_DB", db);
    command
}

/// Runs, asserts the exit code, returns (stdout, stderr).
pub fn run(command: &mut Command, code: i32) -> (String, String) {
    let output = command.output().unwrap();
    let (out, err) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout: {out}\nstderr: {err}"
    );
    (out, err)
}

/// Starts `modctld serve` on `db` and an ephemeral port (the address is in
/// its `serving` log line), with its log (stderr) piped and no colours.
// Each test crate includes this module; not all of them serve.
#[allow(dead_code)]
pub fn spawn_serve(db: &Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_modctld"))
        .env_clear()
        .env("MODCTLD_DB", db)
        .env("NO_COLOR", "1")
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Claims server `id` on `platform` for `team`, named "Community".
// Each test crate includes this module; not all of them claim servers.
#[allow(dead_code)]
pub fn claim(db: &Path, team: &str, platform: &str, id: &str) {
    run(
        modctld(db).args([
            "server",
            "claim",
            "--team",
            team,
            "--platform",
            platform,
            "--id",
            id,
            "--name",
            "Community",
        ]),
        0,
    );
}

/// The status the daemon answers `request` with (made on a client of its own).
pub fn status_of_request(request: impl FnOnce(reqwest::Client) -> reqwest::RequestBuilder) -> u16 {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            request(reqwest::Client::new())
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
}

/// Runs an operator command with `env` that must succeed; its stdout.
pub fn operator(db: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    run(modctld(db).args(args).envs(env.iter().copied()), 0).0
}

/// A team `alpha` on `plan` with a read+write key (returned) and a claim on
/// `server` of `platform`.
pub fn seed(db: &Path, plan: &str, platform: &str, server: &str) -> String {
    operator(db, &["team", "create", "alpha", "--plan", plan], &[]);
    let key = operator(
        db,
        &["key", "create", "--team", "alpha", "--scopes", "read,write"],
        &[],
    );
    operator(
        db,
        &[
            "server",
            "claim",
            "--team",
            "alpha",
            "--platform",
            platform,
            "--id",
            server,
            "--name",
            "Server",
        ],
        &[],
    );
    key.trim().to_owned()
}

/// A `modctld serve` process, killed when dropped (also when a test fails).
pub struct Daemon(Child);

impl Daemon {
    /// SIGKILL: no shutdown, no settling of what is in flight.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }

    /// SIGTERM, as a service manager stops it; waits for the exit. Returns
    /// how it exited and how long it took.
    pub fn terminate(&mut self) -> (ExitStatus, Duration) {
        let started = Instant::now();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -TERM failed");
        let status = self.0.wait().unwrap();
        (status, started.elapsed())
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `modctld serve` on `db` and an ephemeral port, with `env` and nothing
/// else from the environment; its base URL once it listens. Without request
/// rate limits: the tests send more than a key's budget, and check other things.
pub fn serve(db: &Path, env: &[(&str, &str)]) -> (Daemon, String) {
    let (daemon, line) = start_serving(
        std::process::Command::new(env!("CARGO_BIN_EXE_modctld"))
            .env_clear()
            .env("MODCTLD_DB", db)
            .envs(env.iter().copied())
            .args(["serve", "--listen", "127.0.0.1:0", "--no-rate-limits"])
            .env("NO_COLOR", "1"),
    );
    // `address=...` in text logs, `"address":"..."` in JSON ones.
    let address = match line.split("address=").nth(1) {
        Some(rest) => rest.split_whitespace().next(),
        None => line
            .split("\"address\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next()),
    };
    let address = address.unwrap_or_else(|| panic!("no address in {line}"));
    (daemon, format!("http://{address}"))
}

/// Starts `command`, a `modctld serve`, with its log (stderr) piped; its
/// log line `serving` (with the address) once it listens.
pub fn start_serving(command: &mut std::process::Command) -> (Daemon, String) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let daemon = Daemon(child);
    let mut lines = stderr.lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.contains("serving") && line.contains("address") {
            // The rest of the log is read (and dropped) until the process
            // ends, so that it never writes to a closed pipe.
            std::thread::spawn(move || lines.for_each(drop));
            return (daemon, line);
        }
    }
    panic!("modctld serve exited before it listened");
}
