//! Running the `modctld` binary from the operator tests.

use std::path::Path;

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
// Each test crate includes this module; not all of them make requests.
#[allow(dead_code)]
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
