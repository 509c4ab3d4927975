//! The operator commands of the `modctld` binary, on a real database file,
//! also while a daemon serves it: what they change is seen by the very next
//! request, even where the daemon remembered the key or server (`auth::cache`).

use std::path::Path;
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use modctl_e2e::TestDaemon;
use modctl_types::{Plan, Platform, Scope};

use crate::support::{modctld, run, status_of_request};

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    run(
        modctld(&db).args(["team", "create", "alpha", "--plan", "pro"]),
        0,
    );
    (dir, db)
}

#[test]
fn key_create_prints_the_whole_key_once_as_the_only_stdout_line() {
    let (_dir, db) = setup();
    let (out, err) = run(
        modctld(&db).args([
            "key",
            "create",
            "--team",
            "alpha",
            "--scopes",
            "read,write",
            "--label",
            "ci",
        ]),
        0,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let parts: Vec<&str> = lines[0].split('_').collect();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[0], "mdk");
    assert!(
        err.contains(parts[1]) && !err.contains(parts[2]),
        "stderr names the id, never the secret: {err}"
    );

    // Listed without the secret, with its scopes and label.
    let (list, _) = run(modctld(&db).args(["key", "list"]), 0);
    assert!(
        !list.contains(parts[2]),
        "secret leaked into key list: {list}"
    );
    let row: Vec<&str> = list.lines().next().unwrap().split('\t').collect();
    assert_eq!(&row[..4], &[parts[1], "alpha", "read,write", "ci"]);
    assert_eq!(row[7], "active");

    // Nor is the secret anywhere in the database file.
    let bytes = std::fs::read(&db).unwrap();
    let secret = parts[2].as_bytes();
    assert!(!bytes.windows(secret.len()).any(|w| w == secret));
}

#[test]
fn operator_errors_exit_non_zero_with_one_line() {
    let (_dir, db) = setup();
    for (args, fragment) in [
        (vec!["team", "create", "alpha"], "already exists"),
        (vec!["team", "create", "no spaces"], "invalid team name"),
        (
            vec!["key", "create", "--team", "nobody", "--scopes", "read"],
            "no team named `nobody`: create it with `modctld team create nobody`",
        ),
        (
            vec![
                "server",
                "claim",
                "--team",
                "nobody",
                "--platform",
                "discord",
                "--id",
                "123456789012345678",
                "--name",
                "x",
            ],
            "no team",
        ),
        (
            vec![
                "server",
                "claim",
                "--team",
                "alpha",
                "--platform",
                "discord",
                "--id",
                "abc",
                "--name",
                "x",
            ],
            "not a discord server id",
        ),
        (vec!["key", "revoke", "aaaaaaaaaaaa"], "no key with id"),
        (vec!["key", "revoke", "not-an-id"], "is not a key id"),
    ] {
        let (_, err) = run(modctld(&db).args(&args), 1);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(fragment),
            "{args:?}: {err}"
        );
    }
    // Bad values rejected by the argument parser: exit 2 with the reason.
    let (_, err) = run(
        modctld(&db).args(["key", "create", "--team", "alpha", "--scopes", "read,admin"]),
        2,
    );
    assert!(err.contains("unknown scope `admin`"), "{err}");
    let (_, err) = run(
        modctld(&db).args([
            "server",
            "claim",
            "--team",
            "alpha",
            "--platform",
            "irc",
            "--id",
            "1",
            "--name",
            "x",
        ]),
        2,
    );
    assert!(err.contains("unknown platform"), "{err}");
}

/// `server claim` of Telegram group `id`, "Group", for `team`.
fn claim_group(db: &Path, team: &str, id: &str) -> Command {
    let mut command = modctld(db);
    command.args([
        "server",
        "claim",
        "--team",
        team,
        "--platform",
        "telegram",
        "--id",
        id,
        "--name",
        "Group",
    ]);
    command
}

#[test]
fn duplicate_claims_are_refused() {
    let (_dir, db) = setup();
    run(modctld(&db).args(["team", "create", "beta"]), 0);
    run(&mut claim_group(&db, "alpha", "-1001"), 0);
    let (_, err) = run(&mut claim_group(&db, "beta", "-1001"), 1);
    assert!(err.contains("already claimed"), "{err}");
    let (list, _) = run(modctld(&db).args(["server", "list"]), 0);
    assert_eq!(list.lines().count(), 1);
    assert!(
        list.starts_with("-1001\ttelegram\talpha\tGroup\t"),
        "{list}"
    );
    let (teams, _) = run(modctld(&db).args(["team", "list"]), 0);
    assert_eq!(teams, "alpha\tpro\t1\nbeta\tfree\t2\n");
}

#[test]
fn migrate_is_idempotent() {
    let (_dir, db) = setup();
    run(modctld(&db).arg("migrate"), 0);
    let (_, err) = run(modctld(&db).arg("migrate"), 0);
    assert!(err.contains("up to date"), "{err}");
}

/// Kills the served daemon if the test fails half-way.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The status of a GET of `url` with `key`.
fn status_of(url: &str, key: &str) -> u16 {
    status_of_request(|client| client.get(url).bearer_auth(key))
}

#[test]
fn serve_answers_refuses_a_revoked_key_at_once_and_stops_on_sigterm() {
    let (_dir, db) = setup();
    let (key, _) = run(
        modctld(&db).args(["key", "create", "--team", "alpha", "--scopes", "read"]),
        0,
    );
    let key = key.trim().to_owned();
    let key_id = key.split('_').nth(1).unwrap().to_owned();

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let mut served = Served(
        StdCommand::new(env!("CARGO_BIN_EXE_modctld"))
            .env_clear()
            .env("MODCTLD_DB", &db)
            .args(["serve", "--listen", &address])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(&address).is_err() {
        assert!(Instant::now() < deadline, "modctld serve did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    let me = format!("http://{address}/api/v1/me");
    assert_eq!(status_of(&me, &key), 200);
    run(modctld(&db).args(["key", "revoke", &key_id]), 0);
    assert_eq!(status_of(&me, &key), 401);
    let (list, _) = run(modctld(&db).args(["key", "list", "--team", "alpha"]), 0);
    assert!(list.contains("\trevoked\t"), "{list}");

    let status = StdCommand::new("kill")
        .args(["-TERM", &served.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = served.0.wait().unwrap();
    assert!(exit.success(), "graceful shutdown exits 0, got {exit:?}");
}

/// GETs `url` until the daemon answers it in `handler_trips` store trips,
/// i.e. without reading the key or the server: it remembers them.
fn remember(daemon: &TestDaemon, url: &str, key: &str, handler_trips: u64) {
    for _ in 0..10 {
        let before = daemon.store().trips();
        assert_eq!(status_of(url, key), 200, "{url}");
        if daemon.store().trips() - before == handler_trips {
            return;
        }
    }
    panic!("{url} never stopped reading the key");
}

#[test]
fn a_remembered_key_revoked_by_another_process_is_refused_on_the_next_request() {
    let daemon = TestDaemon::start();
    daemon.team("alpha", Plan::Pro);
    let key = daemon.key("alpha", Scope::Read);
    let me = daemon.api("/me");
    remember(&daemon, &me, &key.full, 0);

    run(
        modctld(&daemon.db_path()).args(["key", "revoke", &key.key_id]),
        0,
    );
    assert_eq!(status_of(&me, &key.full), 401);
}

#[test]
fn servers_claimed_by_another_process_are_seen_on_the_next_request() {
    let daemon = TestDaemon::start();
    daemon.team("alpha", Plan::Pro);
    daemon.team("beta", Plan::Free);
    daemon.claim(
        "alpha",
        Platform::Discord,
        "100000000000000001",
        "Alpha Guild",
    );
    let key = daemon.key("alpha", Scope::Read);
    remember(
        &daemon,
        &daemon.api("/servers/100000000000000001"),
        &key.full,
        0,
    );
    let (mine, theirs) = (daemon.api("/servers/-1001"), daemon.api("/servers/-1002"));
    assert_eq!(status_of(&mine, &key.full), 404);
    assert_eq!(status_of(&theirs, &key.full), 404);

    run(&mut claim_group(&daemon.db_path(), "alpha", "-1001"), 0);
    assert_eq!(status_of(&mine, &key.full), 200);
    run(&mut claim_group(&daemon.db_path(), "beta", "-1002"), 0);
    assert_eq!(status_of(&theirs, &key.full), 403);
}

const TOKEN: &str = "123456:operator-token-that-stays-sealed";
/// An API base nothing listens at (the discard port of the loopback).
const UNREACHABLE_API: &str = "http://127.0.0.1:9";
/// Two keys in the format `MODCTLD_SECRET_KEY` takes (base64 of 32 bytes).
const KEY_ONE: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
const KEY_TWO: &str = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=";

fn key_file(db: &Path) -> std::path::PathBuf {
    db.with_file_name("modctld.db.key")
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
#[test]
fn operator_commands_leave_owner_only_files_and_a_sealed_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state/modctld.db");
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    run(&mut claim_group(&db, "alpha", "-1001"), 0);
    // Nothing listens at the API base: the group's check (getChat) cannot
    // be made, which connects it anyway with a warning.
    run(
        modctld(&db).env("BOT_TOKEN", TOKEN).args([
            "server",
            "connect",
            "-1001",
            "--platform-token-env",
            "BOT_TOKEN",
            "--api-base",
            UNREACHABLE_API,
        ]),
        0,
    );
    let (list, _) = run(modctld(&db).args(["server", "list"]), 0);
    assert!(list.trim_end().ends_with("\tlive"), "{list}");

    assert_eq!(mode(&dir.path().join("state")), 0o700);
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(&key_file(&db)), 0o600);
    let mut checked = 0;
    for suffix in ["", "-wal", "-shm"] {
        let file = std::path::PathBuf::from(format!("{}{suffix}", db.display()));
        let Ok(bytes) = std::fs::read(&file) else {
            continue; // SQLite removes the WAL and SHM when the last connection closes.
        };
        assert_eq!(mode(&file), 0o600, "{}", file.display());
        assert!(
            !bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()),
            "the token is readable in {}",
            file.display()
        );
        checked += usize::from(bytes.windows(5).any(|w| w == b"Group"));
    }
    assert!(checked > 0, "the server's row is on disk, in plain text");
}

#[test]
fn the_secret_key_comes_from_the_environment_and_a_wrong_or_missing_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let with_key = |key: &str| {
        let mut command = modctld(&db);
        command.env("MODCTLD_SECRET_KEY", key);
        command
    };
    run(with_key(KEY_ONE).args(["team", "create", "alpha"]), 0);
    assert!(
        !key_file(&db).exists(),
        "a key from the environment needs no file"
    );

    for (mut command, fragments) in [
        (with_key(KEY_TWO), vec!["MODCTLD_SECRET_KEY", "not the key"]),
        (
            modctld(&db),
            vec![
                "MODCTLD_SECRET_KEY is not set",
                "modctld.db.key does not exist",
            ],
        ),
        (with_key("not-a-key"), vec!["openssl rand -base64 32"]),
    ] {
        command.args(["team", "list"]);
        let (out, err) = run(&mut command, 1);
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        for fragment in fragments {
            assert!(
                err.starts_with("error: ") && err.contains(fragment),
                "{fragment}: {err}"
            );
        }
    }
    assert!(!key_file(&db).exists(), "a missing key is never replaced");
    let (teams, _) = run(with_key(KEY_ONE).args(["team", "list"]), 0);
    assert!(teams.starts_with("alpha\t"), "{teams}");
}

#[cfg(unix)]
#[test]
fn a_key_file_others_can_read_is_refused() {
    let (_dir, db) = setup();
    set_mode(&key_file(&db), 0o644);
    let (_, err) = run(modctld(&db).args(["team", "list"]), 1);
    assert!(
        err.contains("mode 0644") && err.contains("chmod 600"),
        "{err}"
    );
    set_mode(&key_file(&db), 0o600);
    run(modctld(&db).args(["team", "list"]), 0);
}

#[test]
fn db_is_offered_only_by_the_commands_that_open_the_database() {
    let (dir, db) = setup();
    let help = |args: &[&str]| run(modctld(&db).args(args).arg("--help"), 0).0;
    assert!(!help(&["demo"]).contains("--db"), "{}", help(&["demo"]));
    for command in [
        &["serve"][..],
        &["migrate"],
        &["team", "list"],
        &["key", "create"],
        &["server", "connect"],
        &["snapshot", "capture"],
        &["simulate", "nuke"],
    ] {
        let text = help(command);
        assert!(
            text.contains("--db <PATH>") && text.contains("MODCTLD_DB"),
            "{command:?}: {text}"
        );
    }

    // `--db` wins over MODCTLD_DB, before or after the subcommand's name.
    let other = dir.path().join("other.db");
    run(
        modctld(&db)
            .args(["team", "create", "beta", "--db"])
            .arg(&other),
        0,
    );
    let (teams, _) = run(
        modctld(&db).args(["team", "--db"]).arg(&other).arg("list"),
        0,
    );
    assert_eq!(teams, "beta\tfree\t1\n");
    let (teams, _) = run(modctld(&db).args(["team", "list"]), 0);
    assert_eq!(teams, "alpha\tpro\t1\n");

    // The demo refuses a database it would not use, naming the argument.
    let (_, err) = run(modctld(&db).args(["demo", "--db"]).arg(&other), 2);
    assert!(err.contains("unexpected argument '--db'"), "{err}");
}

#[test]
fn openapi_prints_the_document_the_daemon_serves_without_opening_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never-created.db");
    let (out, _) = run(modctld(&db).arg("openapi"), 0);
    assert_eq!(out, modctld::api::openapi::document_json());
    let document: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    assert!(!db.exists(), "printing the document touches no database");
}

#[test]
fn an_operator_sets_and_resets_a_teams_daily_activity_quota() {
    let (_dir, db) = setup();
    let (_, err) = run(
        modctld(&db).args(["team", "set-activity-quota", "alpha", "5000000"]),
        0,
    );
    assert!(
        err.contains("may count 5000000 activity events a UTC day"),
        "{err}"
    );
    let (_, err) = run(
        modctld(&db).args(["team", "set-activity-quota", "alpha", "default"]),
        0,
    );
    assert!(err.contains("pro plan's quota (2000000"), "{err}");
    let (_, err) = run(
        modctld(&db).args(["team", "set-activity-quota", "alpha", "0"]),
        2,
    );
    assert!(err.contains("at least 1"), "{err}");
}

/// `key rotate` (issue #28): the replacement printed once, for the same
/// team and scopes, lasting as long as the old key was made to; the old key
/// ends with its grace period and names its replacement in `key list`.
#[test]
fn key_rotate_issues_a_replacement_and_ends_the_old_key_after_its_grace() {
    let (_dir, db) = setup();
    let (old, _) = run(
        modctld(&db).args([
            "key",
            "create",
            "--team",
            "alpha",
            "--scopes",
            "read,write",
            "--expires",
            "30d",
        ]),
        0,
    );
    let old_id = old.trim().split('_').nth(1).unwrap().to_owned();
    let (new, said) = run(
        modctld(&db).args(["key", "rotate", &old_id, "--grace", "0m"]),
        0,
    );
    let new = new.trim();
    assert!(new.starts_with("mdk_") && !new.contains('\n'), "{new}");
    let new_id = new.split('_').nth(1).unwrap();
    assert!(
        said.contains(&format!("its replacement is {new_id}")),
        "{said}"
    );
    assert!(said.contains("scopes read,write"), "{said}");

    let (list, _) = run(modctld(&db).args(["key", "list", "--team", "alpha"]), 0);
    let row = |id: &str| -> Vec<String> {
        list.lines()
            .find(|line| line.starts_with(id))
            .unwrap_or_else(|| panic!("{id} in {list}"))
            .split('\t')
            .map(str::to_owned)
            .collect()
    };
    let (old_row, new_row) = (row(&old_id), row(new_id));
    assert_eq!(
        old_row[7..9],
        ["expired".to_owned(), new_id.to_owned()],
        "{list}"
    );
    assert_eq!(
        new_row[7..9],
        ["active".to_owned(), "-".to_owned()],
        "{list}"
    );
    assert_eq!(new_row[2], "read,write");
    let expires = |row: &[String]| row[5].parse::<jiff::Timestamp>().unwrap().as_second();
    let created = |row: &[String]| row[4].parse::<jiff::Timestamp>().unwrap().as_second();
    assert_eq!(
        expires(&new_row) - created(&new_row),
        30 * 86_400,
        "the replacement lasts as long as the old key was made to: {list}"
    );

    // Exit 2: clap refused the option; 1: the command failed.
    for (args, code, error) in [
        (vec!["key", "rotate", old_id.as_str()], 1, "has expired"),
        (
            vec!["key", "rotate", new_id, "--grace", "31d"],
            2,
            "out of range: from 0m to 30d",
        ),
        (vec!["key", "rotate", "aaaaaaaaaaaa"], 1, "no key with id"),
    ] {
        let (_, err) = run(modctld(&db).args(&args), code);
        assert!(err.contains(error), "{args:?}: {err}");
    }
    let (_, err) = run(
        modctld(&db).args(["key", "rotate", new_id, "--grace", "1h"]),
        0,
    );
    assert!(err.contains("accepted until"), "{err}");
    let (_, err) = run(modctld(&db).args(["key", "rotate", new_id]), 1);
    assert!(err.contains("rotated already"), "{err}");
}

/// Key display names (issue #27): given at `key create --name`, listed last
/// by `key list`, passed on by `key rotate`, changed by `key rename`, and
/// refused where they would read as a key id or hold a line break.
#[test]
fn a_keys_name_is_created_listed_rotated_and_renamed() {
    let (_dir, db) = setup();
    let (key, _) = run(
        modctld(&db).args([
            "key",
            "create",
            "--team",
            "alpha",
            "--scopes",
            "read,write",
            "--name",
            " Mia ",
        ]),
        0,
    );
    let id = key.trim().split('_').nth(1).unwrap().to_owned();
    let name_of = |id: &str| -> String {
        let (list, _) = run(modctld(&db).args(["key", "list"]), 0);
        let row = list
            .lines()
            .find(|line| line.starts_with(id))
            .unwrap_or_else(|| panic!("{id} in {list}"));
        row.split('\t').nth(9).expect("a NAME column").to_owned()
    };
    assert_eq!(name_of(&id), "Mia");
    let (new, _) = run(
        modctld(&db).args(["key", "rotate", &id, "--grace", "1h"]),
        0,
    );
    let new_id = new.trim().split('_').nth(1).unwrap().to_owned();
    assert_eq!(name_of(&new_id), "Mia", "a rotation keeps the name");
    let (_, said) = run(modctld(&db).args(["key", "rename", &new_id, "Mia R."]), 0);
    assert!(said.contains("now named `Mia R.` (was `Mia`)"), "{said}");
    assert_eq!(name_of(&new_id), "Mia R.");
    assert_eq!(name_of(&id), "Mia", "the old key keeps its own");
    run(modctld(&db).args(["key", "rename", &new_id, "--clear"]), 0);
    assert_eq!(name_of(&new_id), "-");

    for (args, error) in [
        (
            vec!["key", "rename", id.as_str(), "abcdefghijkl"],
            "reads as a key id",
        ),
        (
            vec!["key", "rename", id.as_str(), "a\tb"],
            "control characters",
        ),
        (
            vec!["key", "rename", id.as_str(), "  "],
            "1 to 64 characters",
        ),
        (
            vec!["key", "rename", "aaaaaaaaaaaa", "Sam"],
            "no key with id",
        ),
    ] {
        let (_, err) = run(modctld(&db).args(&args), 1);
        assert!(err.contains(error), "{args:?}: {err}");
    }
    assert_eq!(name_of(&id), "Mia", "refusals change nothing");
}
