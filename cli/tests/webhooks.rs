//! `modctl webhooks` against a real daemon delivering to the test receiver
//! ([`modctl_e2e::webhooks::Receiver`], which checks every signature with an
//! implementation of its own): the secret printed once, a test event waited
//! for, the delivery log, a redelivery, and the refusals in CLI words.

use crate::support;

use std::time::{Duration, Instant};

use crate::support::{modctl, stderr_of, stdout_of};
use modctl_client::webhooks::{HeaderMap, VerifyError, verify_at};
use modctl_e2e::webhooks::Receiver;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture, TestKey};
use modctl_types::config::SectionName;
use serde_json::json;

/// Runs and returns the exit code, stdout and stderr.
fn run(command: &mut assert_cmd::Command) -> (i32, String, String) {
    let output = command.output().expect("run modctl");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `modctl ARGS` as a child process, so the test can drive the daemon's
/// delivery worker while the command waits.
fn spawn(fixture: &Fixture, key: &TestKey, args: &[&str]) -> std::process::Child {
    child(fixture, key, args).spawn().expect("spawn modctl")
}

/// The command [`spawn`] starts, for more environment first.
fn child(fixture: &Fixture, key: &TestKey, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_modctl"));
    command
        .env_clear()
        .env("NO_COLOR", "1")
        .env(
            "MODCTL_CONFIG",
            fixture.daemon.scratch_dir().join("config.toml"),
        )
        .env("MODCTL_URL", fixture.daemon.url())
        .env("MODCTL_API_KEY", &key.full)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    command
}

/// Runs the delivery worker until it made an attempt (the command queues the
/// delivery some time after it starts).
fn deliver_one(fixture: &Fixture) {
    let start = Instant::now();
    while fixture.daemon.deliver_webhooks() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "nothing to deliver"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A receiver, with ALPHA_DISCORD's webhooks on and pointed at it, signed
/// with a fixed secret.
fn signed_receiver(fixture: &Fixture) -> Receiver {
    let receiver = Receiver::start();
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Webhooks,
        json!({"enabled": true, "url": receiver.url(), "events": ["test"], "secret": "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ=="}),
    );
    receiver
}

/// `modctl webhooks test ALPHA_DISCORD --wait --plain`, running.
fn spawn_test_wait(fixture: &Fixture) -> std::process::Child {
    spawn(
        fixture,
        &fixture.alpha_rw,
        &["webhooks", "test", ALPHA_DISCORD, "--wait", "--plain"],
    )
}

/// Exit code, stdout and stderr of a finished `child`.
fn finished(child: std::process::Child) -> (Option<i32>, String, String) {
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_test_event_is_waited_for_listed_shown_and_redelivered() {
    let f = Fixture::start();
    let receiver = Receiver::start();
    f.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Webhooks,
        json!({"enabled": true, "url": receiver.url(), "events": ["test"]}),
    );

    // Piped, rotating needs --yes, and nothing changes without it.
    let refused = stderr_of(
        modctl(&f, Some(&f.alpha_rw)).args(["webhooks", "rotate-secret", ALPHA_DISCORD]),
        2,
    );
    assert!(refused.contains("--yes"), "{refused}");

    let (code, stdout, stderr) = run(modctl(&f, Some(&f.alpha_rw)).args([
        "webhooks",
        "rotate-secret",
        ALPHA_DISCORD,
        "--yes",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let secret = stdout.trim().to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(stdout.lines().count(), 1);
    assert!(stderr.contains("will not be shown again"), "{stderr}");
    receiver.set_secret(&secret);

    // `test --wait` polls until the worker has delivered it.
    let child = spawn_test_wait(&f);
    deliver_one(&f);
    let (code, stdout, stderr) = finished(child);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("state\tdelivered\n"), "{stdout}");
    assert!(stdout.contains("kind\ttest\n"), "{stdout}");
    assert!(stderr.contains("attempt 1: HTTP 200"), "{stderr}");
    let received = receiver.received();
    assert_eq!(received.len(), 1);
    assert!(received[0].verified, "{:?}", received[0]);
    let event_id = received[0].id.clone();
    // The SDK's verify accepts what the daemon signed, and refuses it changed.
    let event = &received[0];
    let mut headers = HeaderMap::new();
    headers.insert("webhook-id", event.id.parse().unwrap());
    headers.insert(
        "webhook-timestamp",
        event.timestamp.to_string().parse().unwrap(),
    );
    headers.insert("webhook-signature", event.signature.parse().unwrap());
    assert_eq!(
        verify_at(&secret, &headers, &event.raw, event.timestamp),
        Ok(())
    );
    let mut tampered = event.raw.clone();
    tampered.push(b' ');
    assert_eq!(
        verify_at(&secret, &headers, &tampered, event.timestamp),
        Err(VerifyError::NoMatch)
    );

    // The log, one row per delivery.
    let listed = stdout_of(
        modctl(&f, Some(&f.alpha_ro)).args([
            "webhooks",
            "deliveries",
            ALPHA_DISCORD,
            "--state",
            "delivered",
        ]),
        0,
    );
    let rows: Vec<Vec<String>> = listed
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0][1], event_id);
    assert_eq!(rows[0][2..6], ["test", "delivered", "1", "200"]);
    let id = rows[0][0].clone();
    let none = stdout_of(
        modctl(&f, Some(&f.alpha_ro)).args([
            "webhooks",
            "deliveries",
            ALPHA_DISCORD,
            "--state",
            "failed",
        ]),
        0,
    );
    assert_eq!(none, "");

    // Redelivered: the same event again, with a second attempt.
    let again = stdout_of(
        modctl(&f, Some(&f.alpha_rw)).args(["webhooks", "redeliver", ALPHA_DISCORD, &id, "--json"]),
        0,
    );
    let detail: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(detail["state"], "pending");
    deliver_one(&f);
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[1].id, event_id);
    assert!(received[1].verified);
    let shown = stdout_of(
        modctl(&f, Some(&f.alpha_ro)).args(["webhooks", "delivery", ALPHA_DISCORD, &id, "--plain"]),
        0,
    );
    let attempts: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("attempt\t"))
        .collect();
    assert_eq!(attempts.len(), 2, "{shown}");
    assert!(attempts.iter().all(|a| a.split('\t').nth(3) == Some("200")));
}

#[test]
fn refusals_are_in_the_cli_words() {
    let f = Fixture::start();

    // Not configured: the hint names the commands that configure it.
    let stderr = stderr_of(
        modctl(&f, Some(&f.alpha_rw)).args(["webhooks", "test", ALPHA_TELEGRAM]),
        1,
    );
    assert!(stderr.contains("webhooks are not configured"), "{stderr}");
    assert!(
        stderr.contains(&format!("modctl webhooks rotate-secret {ALPHA_TELEGRAM}")),
        "{stderr}"
    );

    let missing = stderr_of(
        modctl(&f, Some(&f.alpha_ro)).args(["webhooks", "delivery", ALPHA_DISCORD, "9999"]),
        5,
    );
    assert!(missing.contains("9999"), "{missing}");

    let limit = stderr_of(
        modctl(&f, Some(&f.alpha_ro)).args([
            "webhooks",
            "deliveries",
            ALPHA_DISCORD,
            "--limit",
            "0",
        ]),
        1,
    );
    assert!(limit.contains("--limit"), "{limit}");

    // A read-only key cannot rotate the secret.
    stderr_of(
        modctl(&f, Some(&f.alpha_ro)).args(["webhooks", "rotate-secret", ALPHA_DISCORD, "--yes"]),
        4,
    );
}

#[test]
fn a_test_event_the_endpoint_refuses_exits_one_with_the_attempt() {
    let f = Fixture::start();
    let receiver = signed_receiver(&f);
    // A 404 fails the delivery at once (no retry), so --wait ends.
    receiver.answer(404, &[]);
    let child = spawn_test_wait(&f);
    deliver_one(&f);
    let (code, stdout, stderr) = finished(child);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("state\tfailed\n"), "{stdout}");
    assert!(stdout.contains("last_status\t404\n"), "{stdout}");
    assert!(stderr.contains("attempt 1: HTTP 404"), "{stderr}");
}

/// On a terminal, rotating asks first; "no" changes nothing.
#[cfg(unix)]
#[test]
fn rotating_on_a_terminal_asks_first() {
    let f = Fixture::start();
    let mut session = support::at_terminal(
        &f,
        &f.alpha_rw,
        &["webhooks", "rotate-secret", ALPHA_DISCORD],
    );
    session.exp_string("[y/N]").unwrap();
    session.send_line("n").unwrap();
    session
        .exp_string("cancelled; nothing was changed")
        .unwrap();
    assert_eq!(support::exit_code(&mut session), 6);

    let mut session = support::at_terminal(
        &f,
        &f.alpha_rw,
        &["webhooks", "rotate-secret", ALPHA_DISCORD],
    );
    session.exp_string("[y/N]").unwrap();
    session.send_line("y").unwrap();
    session.exp_string("whsec_").unwrap();
    session.exp_string("will not be shown again").unwrap();
    assert_eq!(support::exit_code(&mut session), 0);
}

#[test]
fn waiting_stops_at_a_distant_retry() {
    let f = Fixture::start();
    let receiver = signed_receiver(&f);
    receiver.answer(500, &[]);
    receiver.answer(500, &[]);
    let child = spawn_test_wait(&f);
    // The first retry is 5 s off: the command keeps waiting through it.
    deliver_one(&f);
    f.daemon.clock().advance(Duration::from_secs(6));
    deliver_one(&f);
    // The next is 5 minutes off: it stops and says when.
    let (code, stdout, stderr) = finished(child);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("state\tpending\n"), "{stdout}");
    assert!(stdout.contains("attempts\t2\n"), "{stdout}");
    assert!(stderr.contains("attempt 2: HTTP 500"), "{stderr}");
    assert!(stderr.contains("the daemon retries at"), "{stderr}");
}

#[test]
fn listen_verifies_and_prints_each_event_and_refuses_a_forgery() {
    const SECRET: &str = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ==";
    let f = Fixture::start();
    let mut listener = child(
        &f,
        &f.alpha_ro,
        &[
            "webhooks", "listen", "--port", "0", "--count", "2", "--json",
        ],
    )
    .env("MODCTL_WEBHOOK_SECRET", SECRET)
    .spawn()
    .expect("spawn modctl");
    // The first line on stderr names the URL it listens on.
    let mut stderr = std::io::BufReader::new(listener.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut first).unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {first:?}"))
        .trim_end_matches(';')
        .to_owned();
    f.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Webhooks,
        json!({"enabled": true, "url": url, "events": ["test"], "secret": SECRET}),
    );

    let client = f.daemon.client(&f.alpha_rw);
    let first_event = f
        .daemon
        .block_on(client.test_webhook(ALPHA_DISCORD))
        .unwrap();
    deliver_one(&f);
    // A delivery signed with another secret is refused (400), not printed.
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let mut forged = std::net::TcpStream::connect(address).unwrap();
    std::io::Write::write_all(
        &mut forged,
        format!(
            "POST / HTTP/1.1\r\nhost: {address}\r\nwebhook-id: evt_forged\r\nwebhook-timestamp: {}\r\n\
             webhook-signature: v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\ncontent-length: 2\r\n\r\n{{}}",
            f.daemon.now_unix()
        )
        .as_bytes(),
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut forged, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    let second_event = f
        .daemon
        .block_on(client.test_webhook(ALPHA_DISCORD))
        .unwrap();
    deliver_one(&f);

    let output = listener.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let ids: Vec<String> = stdout
        .lines()
        .map(|line| {
            let event: modctl_types::webhooks::Event = serde_json::from_str(line).unwrap();
            assert_eq!(event.server_id, ALPHA_DISCORD);
            event.id
        })
        .collect();
    assert_eq!(ids, [first_event.event_id, second_event.event_id]);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(
        rest.contains("refused a delivery: no signature matches"),
        "{rest}"
    );
    // Both real deliveries were answered 200.
    let delivered = f
        .daemon
        .block_on(client.webhook_deliveries(ALPHA_DISCORD, &Default::default()))
        .unwrap();
    assert!(
        delivered
            .deliveries
            .iter()
            .all(|d| d.last_status == Some(200)),
        "{delivered:?}"
    );
}

#[test]
fn listen_needs_a_well_formed_secret() {
    let f = Fixture::start();
    let missing = stderr_of(
        modctl(&f, None).args(["webhooks", "listen", "--port", "0"]),
        2,
    );
    assert!(
        missing.contains("$MODCTL_WEBHOOK_SECRET is not set"),
        "{missing}"
    );
    let malformed = stderr_of(
        modctl(&f, None)
            .env("HOOK_SECRET", "whsec_not base64!")
            .args([
                "webhooks",
                "listen",
                "--port",
                "0",
                "--secret-env",
                "HOOK_SECRET",
            ]),
        2,
    );
    assert!(malformed.contains("whsec_<base64>"), "{malformed}");
    assert!(malformed.contains("$HOOK_SECRET"), "{malformed}");
}
