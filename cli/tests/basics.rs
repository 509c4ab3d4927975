//! `modctl whoami`, `servers`, `login` and the exit codes, against a real daemon.

use crate::support::{modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, BETA_DISCORD, Fixture, TestDaemon, UNCLAIMED};

#[test]
fn whoami_as_table_plain_and_json() {
    let fixture = Fixture::start();
    let keys = [&fixture.alpha_rw];
    let url = fixture.daemon.url().to_owned();
    let stable = |text: &str, keys: &[&modctl_e2e::TestKey]| {
        stable(&text.replace(&url, "http://127.0.0.1:PORT"), keys)
    };
    let table = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args(["whoami", "--table"]),
        0,
    );
    assert_snapshot!("whoami_table", stable(&table, &keys));
    // Piped without flags: plain.
    let plain = stdout_of(modctl(&fixture, Some(&fixture.alpha_rw)).arg("whoami"), 0);
    assert_snapshot!("whoami_plain", stable(&plain, &keys));
    let json = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_rw)).args(["whoami", "--json"]),
        0,
    );
    assert_snapshot!("whoami_json", stable(&json, &keys));
    let parsed: modctl_types::Me = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed.key_id, fixture.alpha_rw.key_id);
}

/// `--version` names the daemon's version too when one is configured and
/// answers, and says so when it does not.
/// `modctl keys`: the team's keys, the one in use marked, no secret; a
/// read key may list them.
#[test]
fn keys_lists_the_teams_keys_without_secrets() {
    let fixture = Fixture::start();
    let json = stdout_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["keys", "--json"]),
        0,
    );
    let keys: serde_json::Value = serde_json::from_str(&json).unwrap();
    let ids: Vec<&str> = keys
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["key_id"].as_str().unwrap())
        .collect();
    for key in [&fixture.alpha_ro, &fixture.alpha_rw] {
        assert!(
            ids.contains(&key.key_id.as_str()),
            "{} in {ids:?}",
            key.key_id
        );
        let secret = key.full.rsplit('_').next().unwrap();
        assert!(!json.contains(secret), "a secret in {json}");
    }
    assert!(
        !ids.contains(&fixture.beta_rw.key_id.as_str()),
        "another team's key listed"
    );
    let current: Vec<&serde_json::Value> = keys
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["current"] == true)
        .collect();
    assert_eq!(current.len(), 1);
    let plain = stdout_of(modctl(&fixture, Some(&fixture.alpha_ro)).args(["keys"]), 0);
    assert_eq!(plain.lines().count(), ids.len(), "{plain}");
}

#[test]
fn version_shows_the_daemons_when_reachable() {
    let fixture = Fixture::start();
    let url = fixture.daemon.url().to_owned();
    let version = env!("CARGO_PKG_VERSION");
    let out = stdout_of(modctl(&fixture, None).arg("--version"), 0);
    assert_eq!(
        out,
        format!("modctl {version}\nmodctld {version} at {url}\n")
    );
    let out = stdout_of(
        modctl(&fixture, None).args(["--url", "http://127.0.0.1:9", "--version"]),
        0,
    );
    assert!(
        out.starts_with(&format!(
            "modctl {version}\nmodctld: not reachable at http://127.0.0.1:9 ("
        )),
        "{out}"
    );
    let out = stdout_of(
        modctl(&fixture, None)
            .env_remove("MODCTL_URL")
            .arg("--version"),
        0,
    );
    assert_eq!(out, format!("modctl {version}\n"));
}

/// `login` saves profiles; `profile list|use|remove`, `logout` and `whoami`
/// show and change which one is in use, and no key is ever printed.
#[test]
fn profiles_are_listed_chosen_removed_and_logged_out_of() {
    let fixture = Fixture::start();
    let url = fixture.daemon.url().to_owned();
    let bare = || {
        let mut command = modctl(&fixture, None);
        command.env_remove("MODCTL_URL");
        command
    };
    // The first profile becomes the default; another only with --default.
    for (name, key, default) in [
        ("default", &fixture.alpha_ro, None),
        ("ro", &fixture.alpha_ro, None),
        ("beta", &fixture.beta_rw, Some("--default")),
    ] {
        let err = stderr_of(
            bare()
                .args(["login", "--profile", name, "--url", &url, "--with-key"])
                .args(default)
                .write_stdin(format!("{}\n", key.full)),
            0,
        );
        if name == "ro" {
            assert!(err.contains("the default stays `default`"), "{err}");
            let list = stdout_of(bare().args(["profile", "list"]), 0);
            assert_eq!(list, format!("default\t{url}\tyes\nro\t{url}\tno\n"));
            stderr_of(bare().args(["profile", "remove", "ro"]), 0);
        }
    }
    let list = stdout_of(bare().args(["profile", "list"]), 0);
    assert_eq!(list, format!("beta\t{url}\tyes\ndefault\t{url}\tno\n"));
    let whoami = |command: &mut assert_cmd::Command| {
        let out = stdout_of(command.arg("whoami"), 0);
        out.lines()
            .filter(|l| {
                ["team", "url", "url_from", "profile"].contains(&l.split('\t').next().unwrap())
            })
            .collect::<Vec<_>>()
            .join("|")
    };
    assert_eq!(
        whoami(&mut bare()),
        format!("team\tbeta|url\t{url}|url_from\tprofile beta|profile\tbeta")
    );
    let err = stderr_of(bare().args(["profile", "use", "staging"]), 2);
    assert!(
        err.contains("no profile named `staging`") && err.contains("saved profiles: beta, default"),
        "{err}"
    );
    let err = stderr_of(bare().args(["profile", "use", "default"]), 0);
    assert!(
        err.contains(&format!("now using profile `default` ({url})")),
        "{err}"
    );
    assert_eq!(
        whoami(&mut bare()),
        format!("team\talpha|url\t{url}|url_from\tprofile default|profile\tdefault")
    );
    // The environment's URL and key win, and no profile is in use then.
    let env = whoami(modctl(&fixture, Some(&fixture.alpha_rw)).env("MODCTL_PROFILE", "beta"));
    assert_eq!(
        env,
        format!("team\talpha|url\t{url}|url_from\tMODCTL_URL|profile\t-")
    );

    let err = stderr_of(bare().args(["profile", "remove", "beta"]), 0);
    assert!(err.contains("removed profile `beta`"), "{err}");
    let err = stderr_of(bare().arg("logout"), 0);
    assert!(
        err.contains("removed profile `default`") && err.contains("no profiles are left"),
        "{err}"
    );
    assert_eq!(stdout_of(bare().args(["profile", "list"]), 0), "");
    let err = stderr_of(bare().arg("logout"), 2);
    assert!(err.contains("not logged in"), "{err}");
    let config = std::fs::read_to_string(fixture.daemon.scratch_dir().join("config.toml")).unwrap();
    assert!(!config.contains("mdk_"), "{config}");
}

#[test]
fn servers_list_as_table_plain_and_json() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_ro);
    let table = stdout_of(
        modctl(&fixture, key).args(["servers", "list", "--table"]),
        0,
    );
    assert_snapshot!("servers_table", stable(&table, &[]));
    let plain = stdout_of(modctl(&fixture, key).args(["servers", "list"]), 0);
    assert_snapshot!("servers_plain", stable(&plain, &[]));
    let json = stdout_of(modctl(&fixture, key).args(["servers", "list", "--json"]), 0);
    assert_snapshot!("servers_json", stable(&json, &[]));
}

#[test]
fn servers_show_maps_403_and_404_to_exit_codes() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_ro);
    let plain = stdout_of(
        modctl(&fixture, key).args(["servers", "show", ALPHA_DISCORD]),
        0,
    );
    assert!(plain.starts_with(ALPHA_DISCORD), "{plain}");
    // Telegram ids are negative and must not be taken for flags.
    let plain = stdout_of(
        modctl(&fixture, key).args(["servers", "show", ALPHA_TELEGRAM, "--json"]),
        0,
    );
    assert!(plain.contains("\"platform\": \"telegram\""), "{plain}");
    let err = stderr_of(
        modctl(&fixture, key).args(["servers", "show", BETA_DISCORD]),
        4,
    );
    assert!(err.contains("another team"), "{err}");
    let err = stderr_of(
        modctl(&fixture, key).args(["servers", "show", UNCLAIMED]),
        5,
    );
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn a_bad_key_exits_4_with_a_login_hint() {
    let fixture = Fixture::start();
    let err = stderr_of(
        modctl(&fixture, None)
            .env("MODCTL_API_KEY", "mdk_bad")
            .arg("whoami"),
        4,
    );
    assert_snapshot!("whoami_bad_key", err);
}

#[test]
fn missing_configuration_is_a_usage_error() {
    let fixture = Fixture::start();
    let err = stderr_of(
        modctl(&fixture, None)
            .env_remove("MODCTL_URL")
            .arg("whoami"),
        2,
    );
    assert!(
        err.contains("no daemon URL") && err.contains("modctl login"),
        "{err}"
    );
    let err = stderr_of(modctl(&fixture, None).arg("whoami"), 2);
    assert!(
        err.contains("no API key configured")
            && err.contains("modctl login")
            && err.contains("MODCTL_API_KEY"),
        "{err}"
    );
}

#[test]
fn an_unreachable_daemon_exits_3() {
    let fixture = Fixture::start();
    // A port nothing listens on: bind one, learn it, free it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_ro))
            .env("MODCTL_URL", format!("http://127.0.0.1:{port}"))
            .arg("whoami"),
        3,
    );
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let fixture = Fixture::start();
    stderr_of(modctl(&fixture, None).arg("no-such-command"), 2);
    stderr_of(
        modctl(&fixture, None).args(["whoami", "--json", "--plain"]),
        2,
    );
}

#[test]
fn login_with_key_checks_the_key_saves_a_private_profile_and_is_used_afterwards() {
    let fixture = Fixture::start();
    let config = fixture.daemon.scratch_dir().join("config.toml");

    // A wrong key is refused and nothing is saved.
    let err = stderr_of(
        modctl(&fixture, None)
            .args(["login", "--with-key"])
            .write_stdin("mdk_wrong\n"),
        4,
    );
    assert!(err.contains("malformed API key"), "{err}");
    assert!(!config.exists());

    let err = stderr_of(
        modctl(&fixture, None)
            .args(["login", "--profile", "ops", "--with-key"])
            .write_stdin(format!("{}\n", fixture.alpha_ro.full)),
        0,
    );
    assert!(err.contains("saved as profile `ops`"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&config).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    // No URL or key in the environment: the saved profile is used.
    let out = stdout_of(
        modctl(&fixture, None)
            .env_remove("MODCTL_URL")
            .arg("whoami"),
        0,
    );
    assert!(out.contains(&fixture.alpha_ro.key_id), "{out}");
}

#[test]
fn login_without_a_terminal_or_with_key_is_a_usage_error() {
    let fixture = Fixture::start();
    let err = stderr_of(modctl(&fixture, None).arg("login"), 2);
    assert!(err.contains("--with-key"), "{err}");
}

#[test]
fn a_revoked_key_is_refused_by_the_cli_at_once() {
    let daemon = TestDaemon::start();
    daemon.team("solo", modctl_types::Plan::Free);
    let key = daemon.key("solo", modctl_types::Scope::Read);
    let fixture_like = |args: &[&str]| {
        let mut command = assert_cmd::Command::new(env!("CARGO_BIN_EXE_modctl"));
        command
            .env_clear()
            .env("NO_COLOR", "1")
            .env("MODCTL_CONFIG", daemon.scratch_dir().join("config.toml"))
            .env("MODCTL_URL", daemon.url())
            .env("MODCTL_API_KEY", &key.full)
            .args(args);
        command
    };
    stdout_of(&mut fixture_like(&["whoami"]), 0);
    daemon.revoke(&key.key_id);
    let err = stderr_of(&mut fixture_like(&["whoami"]), 4);
    assert!(err.contains("revoked"), "{err}");
}
