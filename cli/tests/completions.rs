//! The completion scripts committed in `completions/` match what the binary
//! generates. Regenerate with `UPDATE_COMPLETIONS=1 cargo test -p modctl --test it completions::`.

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
        "stale completion scripts: {stale:?}; run `UPDATE_COMPLETIONS=1 cargo test -p modctl --test it completions::` and commit"
    );
}

/// Dynamic completion (`source <(COMPLETE=bash modctl)`): the shell asks the
/// binary, which completes server ids from the daemon, with their names, and
/// config sections and field paths from the config's shape.
#[test]
fn dynamic_completion_offers_server_ids_and_config_paths() {
    let fixture = modctl_e2e::Fixture::start();
    let complete = |words: &[&str]| {
        let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_modctl"))
            .env_clear()
            .env("COMPLETE", "fish")
            .env("MODCTL_URL", fixture.daemon.url())
            .env("MODCTL_API_KEY", &fixture.alpha_ro.full)
            .env(
                "MODCTL_CONFIG",
                fixture.daemon.scratch_dir().join("config.toml"),
            )
            .arg("--")
            .arg("modctl")
            .args(words)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let servers = complete(&["cases", "list", ""]);
    assert!(
        servers.contains(&format!(
            "{}\tAlpha Guild (discord)",
            modctl_e2e::ALPHA_DISCORD
        )),
        "{servers}"
    );
    assert!(
        !servers.contains(modctl_e2e::BETA_DISCORD),
        "another team's server: {servers}"
    );
    assert!(
        complete(&["config", "diff", modctl_e2e::ALPHA_DISCORD, "-1"])
            .contains(modctl_e2e::ALPHA_TELEGRAM)
    );
    assert_eq!(
        complete(&["config", "set", modctl_e2e::ALPHA_DISCORD, "moderation.req"]),
        "moderation.require_reason\tdefault: false\n"
    );
    assert!(complete(&["config", "show", modctl_e2e::ALPHA_DISCORD, "st"]).contains("strikes"));
    // No daemon: no server ids (only the flags), and no error in the shell.
    let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_modctl"))
        .env_clear()
        .env("COMPLETE", "fish")
        .env("MODCTL_URL", "http://127.0.0.1:9")
        .env("MODCTL_API_KEY", "mdk_x_y")
        .args(["--", "modctl", "cases", "list", ""])
        .output()
        .unwrap();
    assert!(output.status.success());
    let offered = String::from_utf8_lossy(&output.stdout);
    assert!(offered.lines().all(|l| l.starts_with("--")), "{offered}");
    assert!(output.stderr.is_empty(), "{output:?}");
}
