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
