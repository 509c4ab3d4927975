//! The completion scripts committed in `completions/` match what the binary
//! generates. Regenerate with `UPDATE_COMPLETIONS=1 cargo test -p modctl --test completions`.

use std::path::Path;

use clap_complete::Shell;

#[test]
fn committed_completion_scripts_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../completions");
    let update = std::env::var_os("UPDATE_COMPLETIONS").is_some();
    let mut stale = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_modctl"))
            .env_clear()
            .args(["completions", &shell.to_string()])
            .output()
            .unwrap();
        assert!(output.status.success());
        let path = dir.join(modctl::commands::completions::file_name(shell));
        if update {
            std::fs::write(&path, &output.stdout).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(&output.stdout[..]) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale completion scripts: {stale:?}; run `UPDATE_COMPLETIONS=1 cargo test -p modctl --test completions` and commit"
    );
}
