//! `modctld serve --config FILE` and `modctld check-config FILE` (issue
//! #28), as processes: the file's options served, an environment variable
//! and then a flag overriding them, and a bad file refused with every
//! problem by both commands alike.

use std::path::Path;
use std::process::Command;

use crate::support::{run, start_serving, status_of_request};

/// `modctld ARGS` with `env` and nothing else from the environment.
fn modctld(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_modctld"));
    command
        .env_clear()
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .args(args);
    command
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `field=value` of a text log line.
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split(&format!(" {name}="))
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {name} in {line}"))
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn serve_runs_with_the_file_s_options_an_environment_variable_and_a_flag_overriding_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("modctld.toml");
    let port = free_port();
    write(
        &file,
        &format!(
            "# relative to this file's directory\n\
             db = \"data.db\"\n\
             listen = \"127.0.0.1:{port}\"\n\
             log-format = \"json\"\n\
             max-connections = 50\n\
             max-connections-per-address = 5\n\
             trusted-proxy = [\"10.0.0.0/8\"]\n"
        ),
    );
    let config = file.to_str().unwrap();

    // The file alone: its address, its database, its log format and caps.
    let (daemon, line) = start_serving(&mut modctld(&["serve", "--config", config], &[]));
    let serving: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(serving["address"], format!("127.0.0.1:{port}"), "{line}");
    assert_eq!(serving["max_connections"], 50, "{line}");
    assert_eq!(serving["max_connections_per_address"], 5, "{line}");
    assert!(dir.path().join("data.db").exists());
    let health = format!("http://127.0.0.1:{port}/api/v1/health");
    assert_eq!(status_of_request(|client| client.get(&health)), 200);
    drop(daemon);

    // The environment beats the file (the file named by MODCTLD_CONFIG),
    // and a flag beats both.
    let (_daemon, line) = start_serving(&mut modctld(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--max-connections",
            "30",
        ],
        &[
            ("MODCTLD_CONFIG", config),
            ("MODCTLD_LOG_FORMAT", "text"),
            ("MODCTLD_MAX_CONNECTIONS", "40"),
            ("MODCTLD_MAX_CONNECTIONS_PER_ADDRESS", "4"),
        ],
    ));
    assert!(
        serde_json::from_str::<serde_json::Value>(&line).is_err(),
        "{line}"
    );
    assert_eq!(field(&line, "max_connections"), "30", "{line}");
    assert_eq!(field(&line, "max_connections_per_address"), "4", "{line}");
    let address = field(&line, "address");
    assert_ne!(address, format!("127.0.0.1:{port}"));
    let health = format!("http://{address}/api/v1/health");
    assert_eq!(status_of_request(|client| client.get(&health)), 200);
}

#[test]
fn check_config_prints_each_option_s_value_and_where_it_comes_from() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("modctld.toml");
    write(
        &file,
        "listen = \"0.0.0.0:7070\"\nbackup-dir = \"backups\"\nbackup-every = \"1d\"\n\
         no-rate-limits = true\ntrusted-proxy = [\"10.0.0.0/8\", \"192.168.0.1\"]\n",
    );
    let (out, err) = run(
        &mut modctld(
            &["check-config", file.to_str().unwrap()],
            &[("MODCTLD_BACKUP_KEEP", "7")],
        )
        .into(),
        0,
    );
    let backups = dir.path().join("backups");
    for row in [
        "listen\t0.0.0.0:7070\tfile".to_owned(),
        format!("backup-dir\t{}\tfile", backups.display()),
        "backup-every\t1d\tfile".to_owned(),
        "backup-keep\t7\t$MODCTLD_BACKUP_KEEP".to_owned(),
        "no-rate-limits\ttrue\tfile".to_owned(),
        "trusted-proxy\t10.0.0.0/8,192.168.0.1\tfile".to_owned(),
        "log-format\ttext\tdefault".to_owned(),
        "max-connections\t1024\tdefault".to_owned(),
    ] {
        assert!(out.lines().any(|l| l == row), "no row {row:?} in:\n{out}");
    }
    assert!(err.contains("is a valid config file"), "{err}");
    assert!(err.contains("(5 options set by it)"), "{err}");
}

#[test]
fn a_bad_file_is_refused_with_every_problem_by_check_config_and_serve_alike() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("modctld.toml");
    write(
        &file,
        "listn = \"127.0.0.1:7070\"\nmax-connections = 0\nlog-format = 1\n\
         secret-key = \"c2VjcmV0\"\nbackup-keep = 28\n",
    );
    let config = file.to_str().unwrap();
    let at = file.display();
    let problems = [
        format!(
            "{at}: key `log-format`: found a whole number, but it is text: write log-format = \"text\" (in quotes)"
        ),
        format!("{at}: key `max-connections`: `0` is out of range: give 1 or more"),
        format!(
            "{at}: key `secret-key`: the database key never goes in the config file (it is meant to be readable): set MODCTLD_SECRET_KEY, or keep the key file beside the database (<database>.key, created on first use)"
        ),
        format!("{at}: unknown key `listn`: did you mean `listen`?"),
    ];
    let (out, err) = run(&mut modctld(&["check-config", config], &[]).into(), 1);
    assert_eq!(out, "");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), problems.len() + 1, "{err}");
    for problem in &problems {
        assert!(
            lines.contains(&problem.as_str()),
            "no {problem:?} in:\n{err}"
        );
    }
    assert_eq!(
        lines.last().unwrap(),
        &"error: 4 problems in the config file"
    );

    // serve says the same and does not start (nor create its database).
    let db = dir.path().join("modctld.db");
    let (_, served) = run(
        &mut modctld(
            &["serve", "--config", config, "--listen", "127.0.0.1:0"],
            &[("MODCTLD_DB", db.to_str().unwrap())],
        )
        .into(),
        1,
    );
    let (problems_said, last) = served.trim_end().rsplit_once('\n').unwrap();
    assert_eq!(problems_said, err.trim_end().rsplit_once('\n').unwrap().0);
    assert_eq!(
        last,
        "error: 4 problems in the config file: modctld serve does not start"
    );
    assert!(!db.exists());

    // A bad value in the environment is the environment's.
    write(&file, "listen = \"127.0.0.1:7070\"\n");
    let (_, err) = run(
        &mut modctld(&["check-config", config], &[("MODCTLD_BACKUP_KEEP", "0")]).into(),
        1,
    );
    assert!(
        err.starts_with(
            "the environment: invalid value '0' for '--backup-keep <N>': 0 is not in 1..=10000"
        ),
        "{err}"
    );

    // A file that is not there, or not TOML.
    let (_, err) = run(
        &mut modctld(&["check-config", "/nowhere/modctld.toml"], &[]).into(),
        1,
    );
    assert!(
        err.starts_with("/nowhere/modctld.toml: cannot read it: "),
        "{err}"
    );
    write(&file, "listen = 127.0.0.1:7070\n");
    let (_, err) = run(&mut modctld(&["check-config", config], &[]).into(), 1);
    assert!(
        err.starts_with(&format!("{at}: not TOML at line 1, column ")),
        "{err}"
    );
}
