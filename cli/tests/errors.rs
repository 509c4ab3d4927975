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
    let err = failure(modctl(&fixture, Some(&fixture.alpha_rw)).args([
        "config",
        "set",
        ALPHA_DISCORD,
        "strikes",
    ]));
    assert_snapshot!("usage_without_globals", err);
    let help = stdout_of(modctl(&fixture, None).args(["config", "set", "--help"]), 0);
    let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap();
    assert_eq!(
        usage,
        "Usage: modctl config set [OPTIONS] <SERVER> <SECTION[.FIELD]> [VALUE]"
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

/// The errors the README shows are the ones the CLI prints: each `error:` and
/// `hint:` line of its example is a line of one of the snapshots above (with
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
    let shown: Vec<String> = readme
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
