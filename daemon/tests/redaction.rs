//! A real `modctld serve` whose platform answers with text quoting the bot
//! token (issue #22): what it logs of those answers has the token redacted.
//! (What it keeps and returns: `tests/tests/secrets_at_rest.rs`.)

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Child;
use std::sync::mpsc;
use std::time::Duration;

use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::TOKEN;

use crate::support::{claim, modctld, run, spawn_serve};

const GROUP: &str = "-1001234567890";

/// A `modctld serve` process, killed when dropped (also when a test fails).
struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `modctld serve` on an ephemeral port, with its log lines sent to the
/// returned channel as they are written.
fn serve(db: &Path) -> (Daemon, mpsc::Receiver<String>) {
    let mut child = spawn_serve(db);
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (lines_tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    (Daemon(child), lines)
}

#[test]
fn logged_platform_errors_do_not_carry_the_bot_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let chat: i64 = GROUP.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    claim(&db, "alpha", "telegram", GROUP);
    run(
        modctld(&db).env("BOT_TOKEN", TOKEN).args([
            "server",
            "connect",
            GROUP,
            "--platform-token-env",
            "BOT_TOKEN",
            "--api-base",
            &telegram.uri(),
        ]),
        0,
    );
    // The poller's first calls fail with the token in the description; each
    // failure is logged.
    telegram.fail_quoting_path("deleteWebhook", 400, 1);
    telegram.fail_quoting_path("getUpdates", 502, 1);

    let (_daemon, lines) = serve(&db);
    let mut logged = Vec::new();
    while !logged
        .iter()
        .any(|line: &String| line.contains("getUpdates failed"))
    {
        // Not a measure of speed: a guard against waiting forever.
        match lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => logged.push(line),
            Err(e) => panic!("no getUpdates failure logged ({e}); the log: {logged:#?}"),
        }
    }
    let secret_part = TOKEN.split_once(':').unwrap().1;
    for failure in ["cannot remove the Telegram webhook", "getUpdates failed"] {
        let line = logged
            .iter()
            .find(|line| line.contains(failure))
            .unwrap_or_else(|| panic!("no {failure:?} in {logged:#?}"));
        assert!(line.contains("/bot[redacted]/"), "{line}");
    }
    for line in &logged {
        assert!(!line.contains(secret_part), "the token is logged: {line}");
    }
}
