//! Errors in the words the user typed (issue 14), against a real daemon: each
//! error is snapshotted with its hint and exit code, as the terminal shows
//! them.

use std::net::TcpListener;

use crate::support::{modctl, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture, UNCLAIMED};
use modctld::operator::demo::discord_members as dm;

/// `exit: N` and stderr, with what changes from run to run (ports, the
/// config file's path) replaced.
fn failure(command: &mut assert_cmd::Command) -> String {
    let output = command.output().expect("run modctl");
    assert!(
        output.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    let stderr = String::from_utf8(output.stderr).expect("utf-8 stderr");
    let mut text = format!("exit: {}\n{stderr}", output.status.code().unwrap_or(-1));
    // `127.0.0.1:43127` -> `127.0.0.1:PORT`.
    let host = "127.0.0.1:";
    let mut stable = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(host) {
        let after = &rest[at + host.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        stable.push_str(&rest[..at + host.len()]);
        stable.push_str(if digits > 0 { "PORT" } else { "" });
        rest = &after[digits..];
    }
    stable.push_str(rest);
    text = stable;
    text
}

#[test]
fn action_fields_are_named_by_their_flags_in_cli_units() {
    let fixture = Fixture::simulated();
    let key = Some(&fixture.alpha_rw);
    let err = failure(modctl(&fixture, key).args([
        "action",
        "timeout",
        ALPHA_DISCORD,
        dm::ALICE,
        "--duration",
        "29d",
    ]));
    assert_snapshot!("timeout_duration_too_long", err);
    let err = failure(modctl(&fixture, key).args([
        "action",
        "warn",
        ALPHA_DISCORD,
        dm::ALICE,
        "--duration",
        "1h",
    ]));
    assert_snapshot!("warn_with_duration", err);
    let err = failure(modctl(&fixture, key).args([
        "action",
        "ban",
        ALPHA_DISCORD,
        dm::ALICE,
        "--delete-days",
        "9",
        "--yes",
    ]));
    assert_snapshot!("ban_delete_days_out_of_range", err);
    let err = failure(modctl(&fixture, key).args([
        "action",
        "kick",
        ALPHA_DISCORD,
        dm::ALICE,
        "--delete-days",
        "1",
        "--yes",
    ]));
    assert_snapshot!("kick_with_delete_days", err);
    let err = failure(modctl(&fixture, key).args(["action", "note", ALPHA_DISCORD, "alice"]));
    assert_snapshot!("note_bad_user", err);
    let err = failure(modctl(&fixture, key).args([
        "action",
        "note",
        ALPHA_DISCORD,
        dm::ALICE,
        "--idempotency-key",
        "not visible",
    ]));
    assert_snapshot!("bad_idempotency_key", err);

    // A bulk run reports each user's error in the same words.
    let output = modctl(&fixture, key)
        .args([
            "action",
            "warn",
            ALPHA_DISCORD,
            "--users-file",
            "-",
            "--duration",
            "1h",
        ])
        .write_stdin(format!("{}\n", dm::ALICE))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("error: --duration is only used by timeout and jail, not by warn"),
        "{stdout}"
    );

    // Nothing was recorded by any of them.
    assert_eq!(
        stdout_of(
            modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD]),
            0
        ),
        ""
    );
}

#[test]
fn a_timeout_without_duration_takes_the_servers_default_and_says_so() {
    let fixture = Fixture::simulated();
    let out = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args([
            "action",
            "timeout",
            ALPHA_DISCORD,
            dm::ALICE,
            "--json",
        ]),
        0,
    );
    let response: modctl_types::moderation::ActionResponse = serde_json::from_str(&out).unwrap();
    assert!(response.applied, "{out}");
    assert!(
        response
            .detail
            .ends_with("; no minutes given: 60 from moderation.default_timeout_minutes"),
        "{}",
        response.detail
    );
}

#[test]
fn query_and_body_fields_of_other_commands_are_named_by_their_flags() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_rw);
    let err =
        failure(modctl(&fixture, key).args(["cases", "list", ALPHA_DISCORD, "--limit", "500"]));
    assert_snapshot!("cases_limit_too_big", err);
    let err = failure(
        modctl(&fixture, key)
            .args(["config", "import", ALPHA_DISCORD, "-"])
            .write_stdin("[]"),
    );
    assert_snapshot!("import_not_an_envelope", err);
}

#[test]
fn an_unknown_server_hints_the_command_that_lists_servers() {
    let fixture = Fixture::start();
    let err =
        failure(modctl(&fixture, Some(&fixture.alpha_ro)).args(["servers", "show", UNCLAIMED]));
    assert_snapshot!("unknown_server", err);
    // The SDK keeps the API's words.
    let message = fixture
        .daemon
        .block_on(fixture.daemon.client(&fixture.alpha_ro).server(UNCLAIMED))
        .unwrap_err()
        .message()
        .to_owned();
    assert!(message.contains("`GET /api/v1/servers`"), "{message}");
}

#[test]
fn a_url_without_its_scheme_is_refused_with_the_fix() {
    let fixture = Fixture::start();
    let bare = fixture
        .daemon
        .url()
        .trim_start_matches("http://")
        .to_owned();
    let err = failure(
        modctl(&fixture, Some(&fixture.alpha_ro))
            .env("MODCTL_URL", &bare)
            .arg("whoami"),
    );
    assert_snapshot!("url_without_scheme_env", err);
    let err = failure(
        modctl(&fixture, Some(&fixture.alpha_ro))
            .args(["--url", "localhost:7878"])
            .arg("whoami"),
    );
    assert_snapshot!("url_without_scheme_flag", err);
    // `login` checks the URL before it reads the key.
    let err = failure(
        modctl(&fixture, None)
            .env("MODCTL_URL", &bare)
            .args(["login", "--with-key"])
            .write_stdin(format!("{}\n", fixture.alpha_ro.full)),
    );
    assert_snapshot!("login_url_without_scheme", err);
    assert!(!fixture.daemon.scratch_dir().join("config.toml").exists());
}

#[test]
fn a_bad_key_at_login_does_not_hint_login() {
    let fixture = Fixture::start();
    let err = failure(
        modctl(&fixture, None)
            .args(["login", "--with-key"])
            .write_stdin("mdk_abcdefgh2345_wrongwrongwrongwrongwrongwrongwrong\n"),
    );
    assert!(!err.contains("modctl login"), "{err}");
    assert_snapshot!("login_bad_key", err);
}

#[test]
fn an_unreachable_daemon_names_the_root_cause_the_url_and_where_it_came_from() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_ro);
    // A port nothing listens on: bind one, learn it, free it.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = format!("http://127.0.0.1:{port}");
    let err = failure(
        modctl(&fixture, key)
            .env("MODCTL_URL", &closed)
            .arg("whoami"),
    );
    assert_snapshot!("refused_env", err);
    let err = failure(modctl(&fixture, key).args(["--url", &closed, "whoami"]));
    assert_snapshot!("refused_flag", err);

    // From the profile that `login` saved, once the daemon is gone.
    let config = fixture.daemon.scratch_dir().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "default_profile = \"default\"\n[profiles.default]\nurl = \"{closed}\"\napi_key = \"{}\"\n",
            fixture.alpha_ro.full
        ),
    )
    .unwrap();
    let err = failure(
        modctl(&fixture, None)
            .env_remove("MODCTL_URL")
            .arg("whoami"),
    );
    assert_snapshot!("refused_profile", err);
    std::fs::remove_file(&config).unwrap();

    // A listener that accepts and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", silent.local_addr().unwrap());
    let err = failure(modctl(&fixture, key).args(["--url", &url, "--timeout", "1", "whoami"]));
    assert_snapshot!("timed_out", err);

    // https:// to the daemon, which speaks plain HTTP.
    let https = fixture.daemon.url().replacen("http://", "https://", 1);
    let err = failure(
        modctl(&fixture, key)
            .env("MODCTL_URL", &https)
            .arg("whoami"),
    );
    assert_snapshot!("tls_handshake", err);

    // A host name that does not resolve (`.invalid` never does).
    let err = failure(
        modctl(&fixture, key)
            .env("MODCTL_URL", "http://modctl.invalid:7878")
            .arg("whoami"),
    );
    assert!(
        err.starts_with(
            "exit: 3\nerror: cannot connect to http://modctl.invalid:7878/api/v1/me: the host name does not resolve ("
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "hint: is modctld running at http://modctl.invalid:7878? That URL comes from MODCTL_URL"
        ),
        "{err}"
    );
}

#[test]
fn usage_lines_leave_the_global_options_out() {
    let fixture = Fixture::start();
    // The URL and key in the environment are not "used" arguments.
    let err =
        failure(modctl(&fixture, Some(&fixture.alpha_rw)).args(["cases", "show", ALPHA_DISCORD]));
    assert_snapshot!("usage_without_globals", err);
    let help = stdout_of(modctl(&fixture, None).args(["config", "set", "--help"]), 0);
    let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap();
    assert_eq!(
        usage,
        "Usage: modctl config set [OPTIONS] <SERVER> <SECTION[.FIELD]|PATH=VALUE> [VALUE|PATH=VALUE]..."
    );
    let globals = help.split("Global options:\n").nth(1).expect(&help);
    for flag in [
        "--url <URL>",
        "--key <KEY>",
        "--profile <NAME>",
        "--json",
        "--timeout",
    ] {
        assert!(
            globals.contains(flag),
            "{flag} not under Global options:\n{help}"
        );
    }
    let own = help.split("Global options:\n").next().unwrap();
    assert!(!own.contains("--url"), "{help}");
}

/// The errors the README's CLI section shows are the ones the CLI prints:
/// each `error:` and `hint:` line of its example is a line of one of the snapshots above (with
/// the README's port for the tests' `PORT`).
#[test]
fn the_readme_shows_the_errors_as_printed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).unwrap();
    let mut printed = String::new();
    for entry in std::fs::read_dir(root.join("tests/snapshots")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("it__errors__") && name.ends_with(".snap") {
            printed.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    let printed: Vec<&str> = printed.lines().collect();
    // The CLI's section: the operator's (`modctld`) errors are its own.
    let cli = &readme[readme.find("## Using the CLI").expect("the CLI section")..];
    let cli = &cli[..cli[1..].find("\n## ").map_or(cli.len(), |end| end + 1)];
    let shown: Vec<String> = cli
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("error: ") || line.starts_with("hint: "))
        .map(|line| line.replace("127.0.0.1:7878", "127.0.0.1:PORT"))
        .collect();
    assert!(
        shown.len() >= 7,
        "the README's error examples are gone: {shown:?}"
    );
    for line in &shown {
        assert!(
            printed.contains(&line.as_str()),
            "the README shows `{line}`, which no snapshot of cli/tests/errors.rs prints"
        );
    }
}

#[test]
fn a_plan_limit_exits_4_with_a_hint_naming_the_plan() {
    let fixture = Fixture::start();
    let key = Some(&fixture.beta_rw);
    let err = failure(modctl(&fixture, key).args(["webhooks", "test", BETA_DISCORD]));
    assert_snapshot!("webhooks_test_on_free", err);

    // A users file longer than free allows is refused before anything is asked.
    let file = fixture.daemon.scratch_dir().join("users.txt");
    let users: Vec<String> = (0..26).map(|i| format!("3000000000000000{i:02}")).collect();
    std::fs::write(&file, users.join("\n")).unwrap();
    let err = failure(modctl(&fixture, key).args([
        "action",
        "kick",
        BETA_DISCORD,
        "--users-file",
        file.to_str().unwrap(),
        "--yes",
    ]));
    assert_snapshot!("bulk_over_the_free_limit", err);
}

/// A daemon that answers every request with `status` and `body`, for as
/// long as the test runs: enough to see what the CLI makes of an answer.
fn fake_daemon(status: u16, body: &'static str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some((name, value)) = line.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut request_body = vec![0; length];
            let _ = reader.read_exact(&mut request_body);
            let _ = reader.get_mut().write_all(
                format!(
                    "HTTP/1.1 {status} Whatever\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            );
        }
    });
    url
}

/// What the CLI does about a daemon's error follows its code, status and
/// field, never its words (issue #24): the daemon may reword any message in
/// any release, and the exit code and hint stay.
#[test]
fn reworded_daemon_messages_keep_the_exit_code_and_the_hint() {
    let fixture = Fixture::start();
    let run = |status: u16, body: &'static str, args: &[&str]| {
        let url = fake_daemon(status, body);
        failure(
            modctl(&fixture, Some(&fixture.alpha_rw))
                .env("MODCTL_URL", &url)
                .args(args),
        )
    };
    let snapshot_show = ["snapshot", "show", "-100"];
    // Today's words and new ones, with the same code: the same hint.
    let today = run(
        404,
        r#"{"error":"server -100 has no structure snapshot yet: capture one with `POST /api/v1/servers/-100/structure-snapshot`","code":"not_found"}"#,
        &snapshot_show,
    );
    assert_eq!(
        today,
        "exit: 5\nerror: server -100 has no structure snapshot yet\nhint: `modctl snapshot capture -100` captures one\n"
    );
    let reworded = run(
        404,
        r#"{"error":"nothing captured for this group so far","code":"not_found"}"#,
        &snapshot_show,
    );
    assert_eq!(
        reworded,
        "exit: 5\nerror: nothing captured for this group so far\nhint: `modctl snapshot capture -100` captures one\n"
    );

    let reworded = run(
        404,
        r#"{"error":"no server 42 here","code":"not_found","field":"{id}"}"#,
        &["servers", "show", "42"],
    );
    assert_eq!(
        reworded,
        "exit: 5\nerror: no server 42 here\nhint: `modctl servers list` lists the servers your team has claimed\n"
    );

    // The webhooks hint follows `not_configured`, not the words: today's
    // words under another code get no hint.
    let hint = "hint: `modctl config set 1 webhooks.url https://...` and `modctl config set 1 webhooks.enabled true`; `modctl webhooks rotate-secret 1` creates a signing secret\n";
    let reworded = run(
        409,
        r#"{"error":"set up webhooks first","code":"not_configured"}"#,
        &["webhooks", "test", "1"],
    );
    assert_eq!(
        reworded,
        format!("exit: 1\nerror: set up webhooks first\n{hint}")
    );
    let other = run(
        409,
        r#"{"error":"webhooks are not configured for server 1: set `webhooks.url`","code":"conflict"}"#,
        &["webhooks", "test", "1"],
    );
    assert_eq!(
        other,
        "exit: 1\nerror: webhooks are not configured for server 1: set `webhooks.url`\n"
    );

    // The field becomes the flag where the message names it, and is named
    // in a hint where the words no longer do; no field, no renaming.
    let timeout = [
        "action",
        "timeout",
        ALPHA_DISCORD,
        dm::ALICE,
        "--duration",
        "29d",
    ];
    let today = run(
        400,
        r#"{"error":"minutes must be between 1 and 40320 for timeout, got 41760","code":"invalid_field","field":"minutes"}"#,
        &timeout,
    );
    assert_eq!(
        today,
        "exit: 1\nerror: --duration must be between 1m and 28d for timeout, got 29d\n"
    );
    let reworded = run(
        400,
        r#"{"error":"a timeout lasts 28 days at most","code":"invalid_field","field":"minutes"}"#,
        &timeout,
    );
    assert_eq!(
        reworded,
        "exit: 1\nerror: a timeout lasts 28 days at most\nhint: `minutes` is what --duration sets\n"
    );
    let unnamed = run(
        400,
        r#"{"error":"minutes must be between 1 and 40320 for timeout, got 41760","code":"invalid_request"}"#,
        &timeout,
    );
    assert_eq!(
        unnamed,
        "exit: 1\nerror: minutes must be between 1 and 40320 for timeout, got 41760\n"
    );

    // A running restore: the job's number when the words still say it,
    // the same hint with a placeholder when they do not.
    let restore = ["snapshot", "restore", "1", "--yes"];
    let today = run(
        409,
        r#"{"error":"restore job 4 of server 1 is still running: follow it with `GET /api/v1/servers/1/structure-snapshot/restore/4` and restore again once it has ended","code":"job_running"}"#,
        &restore,
    );
    assert_eq!(
        today,
        "exit: 1\nerror: restore job 4 of server 1 is still running\nhint: `modctl snapshot job 1 4 --wait` follows it; restore again once it has ended\n"
    );
    let reworded = run(
        409,
        r#"{"error":"a restore of this server is under way","code":"job_running"}"#,
        &restore,
    );
    assert_eq!(
        reworded,
        "exit: 1\nerror: a restore of this server is under way\nhint: `modctl snapshot job 1 JOB --wait` follows it; restore again once it has ended\n"
    );

    // A code newer than this CLI: decided by its status.
    let newer = run(
        403,
        r#"{"error":"this key is frozen","code":"key_frozen"}"#,
        &["servers", "show", "42"],
    );
    assert_eq!(newer, "exit: 4\nerror: this key is frozen\n");
}

/// Words that belong to the API, serde or Rust, never to what the CLI
/// prints: an API path, serde's messages, Rust's type names.
const NOT_THE_CLIS_WORDS: &[&str] = &[
    "/api/v1",
    "invalid type:",
    "invalid value:",
    "expected u",
    "expected i",
    "expected a string",
    "expected struct",
    "expected a sequence",
    "at line",
    "unknown variant",
    "missing field",
    "Option<",
    "Vec<",
    "String",
    "u32",
    "u64",
    "i64",
    "serde",
    "::",
];

/// Every error the CLI prints for a set of bad inputs (bad flag values, bad
/// config values and files, a read-only key writing, an unknown server, case,
/// snapshot or delivery) speaks the CLI's words: none of
/// [`NOT_THE_CLIS_WORDS`], whatever the exit code.
#[test]
fn errors_never_speak_the_apis_or_serdes_words() {
    let fixture = Fixture::simulated();
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let not_json = file("not.json", "{\"expiry_days\": 3,,}");
    let cut_short = file("cut.json", "{\"expiry_days\": ");
    let wrong_types = file("types.json", r#"{"expiry_days": "soon", "ladder": 3}"#);
    let envelope = |sections: &str| {
        format!(
            r#"{{"format": "modctl.config", "schema_version": 1, "exported_at": "2026-11-21T09:08:10Z",
            "source": {{"id": "1", "platform": "discord", "name": "x"}}, "revision": 1, "redacted": [],
            "sections": {sections}}}"#
        )
    };
    let wrong_kinds = file(
        "envelope.json",
        &envelope(r#"{"strikes": {"expiry_days": -4}, "welcome": {"verification": "sms"}}"#),
    );
    let unknown_field = file("unknown.json", &envelope(r#"{"jail": {"role": "1"}}"#));
    let missing_field = file(
        "missing.json",
        &envelope(r#"{"strikes": {"ladder": [{"action": "kick"}]}}"#),
    );
    let s = ALPHA_DISCORD;
    let (rw, ro) = (&fixture.alpha_rw, &fixture.alpha_ro);
    let cases: Vec<(&modctl_e2e::TestKey, Vec<&str>)> = vec![
        (
            rw,
            vec![
                "config",
                "set",
                s,
                "moderation.default_timeout_minutes",
                "-5",
            ],
        ),
        (
            rw,
            vec![
                "config",
                "set",
                s,
                "moderation.default_timeout_minutes",
                "abc",
            ],
        ),
        (
            rw,
            vec![
                "config",
                "set",
                s,
                "moderation.default_timeout_minutes",
                "99999999999",
            ],
        ),
        (
            rw,
            vec![
                "config",
                "set",
                s,
                "moderation.default_ban_delete_days",
                "300",
            ],
        ),
        (rw, vec!["config", "set", s, "strikes.ladder", "3"]),
        (rw, vec!["config", "set", s, "strikes.ladder[0]", "x"]),
        (rw, vec!["config", "set", s, "welcome.verification", "sms"]),
        (rw, vec!["config", "set", s, "jail.role_id", "-100123"]),
        (rw, vec!["config", "set", s, "nope.x", "1"]),
        (rw, vec!["config", "set", s, "strikes.nope", "1"]),
        (rw, vec!["config", "set", s, "strikes", "--file", &not_json]),
        (
            rw,
            vec!["config", "set", s, "strikes", "--file", &cut_short],
        ),
        (
            rw,
            vec!["config", "set", s, "strikes", "--file", &wrong_types],
        ),
        (rw, vec!["config", "import", s, &wrong_kinds, "--yes"]),
        (rw, vec!["config", "import", s, &missing_field, "--yes"]),
        (rw, vec!["config", "import", s, &unknown_field, "--yes"]),
        (rw, vec!["config", "import", s, &not_json, "--yes"]),
        (
            rw,
            vec!["config", "rollback", s, "--to-revision", "99", "--yes"],
        ),
        (rw, vec!["config", "audit", s, "--limit", "0"]),
        (rw, vec!["config", "audit", s, "--limit", "-1"]),
        (rw, vec!["config", "clone", s, "--from", UNCLAIMED, "--yes"]),
        (
            ro,
            vec!["config", "set", s, "moderation.require_reason", "true"],
        ),
        (ro, vec!["action", "warn", s, dm::ALICE, "--reason", "x"]),
        (ro, vec!["snapshot", "capture", s]),
        (rw, vec!["action", "warn", UNCLAIMED, dm::ALICE]),
        (
            rw,
            vec!["action", "timeout", s, dm::ALICE, "--duration", "soon"],
        ),
        (
            rw,
            vec![
                "action",
                "ban",
                s,
                dm::ALICE,
                "--delete-days",
                "-1",
                "--yes",
            ],
        ),
        (rw, vec!["cases", "show", s, "999"]),
        (rw, vec!["cases", "show", s, "x"]),
        (rw, vec!["cases", "list", s, "--limit", "0"]),
        (rw, vec!["cases", "list", s, "--limit", "abc"]),
        (rw, vec!["config", "audit", s, "--limit", "99999999999"]),
        (rw, vec!["cases", "list", s, "--since", "yesterday"]),
        (rw, vec!["cases", "list", UNCLAIMED]),
        (rw, vec!["snapshot", "show", s, "999"]),
        (
            rw,
            vec!["snapshot", "restore", s, "--from", "999", "--dry-run"],
        ),
        (rw, vec!["webhooks", "delivery", s, "999"]),
        (rw, vec!["webhooks", "deliveries", s, "--state", "nope"]),
        (rw, vec!["automod", "hits", s, "--limit", "0"]),
        (rw, vec!["lockdown", "end", s]),
        (rw, vec!["lockdown", "start", s, "--minutes", "0"]),
        (rw, vec!["insights", s, "--days", "0"]),
        (rw, vec!["activity", s, "--days", "9999"]),
        (rw, vec!["--timeout", "soon", "whoami"]),
    ];
    let mut report = String::new();
    for (key, args) in &cases {
        let output = modctl(&fixture, Some(key)).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(
            output.status.code(),
            Some(0),
            "{args:?} succeeded: {stderr}"
        );
        report.push_str(&format!("$ modctl {}\n{stderr}", args.join(" ")));
        for word in NOT_THE_CLIS_WORDS {
            assert!(
                !stderr.contains(word),
                "`modctl {}` printed `{word}`:\n{stderr}",
                args.join(" ")
            );
        }
    }
    if std::env::var_os("SHOW_ERRORS").is_some() {
        eprintln!("{report}");
    }
    // A read-only key writing: which key is in use and what to use instead.
    let err = failure(modctl(&fixture, Some(ro)).args([
        "config",
        "set",
        s,
        "moderation.require_reason",
        "true",
    ]));
    assert!(
        err.starts_with("exit: 4\nerror: the API key in use may only read: this command changes things and needs a read+write key\nhint: the key in use comes from MODCTL_API_KEY; use a read+write key instead: `--profile NAME`"),
        "{err}"
    );
}
