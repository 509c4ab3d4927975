//! The packaging files (issue #28), checked as far as this machine allows:
//! the systemd unit by `systemd-analyze verify` (with no warning at all: it
//! exits 0 on unknown keys and bad values, and only says so), and both
//! files' settings against the binary itself (every `MODCTLD_*` variable is
//! one `modctld serve` reads, and `serve` starts with their values, the
//! unit's with the config file `packaging/modctld.toml` it installs), and
//! the container file by the rules a linter (hadolint) would check first.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::serve;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../packaging")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `MODCTLD_*=value` settings of the unit's `Environment=` lines.
fn unit_environment(unit: &str) -> BTreeMap<String, String> {
    unit.lines()
        .filter_map(|line| line.strip_prefix("Environment="))
        .map(|setting| {
            let (name, value) = setting.split_once('=').expect("NAME=value");
            (name.to_owned(), value.to_owned())
        })
        .collect()
}

/// `MODCTLD_*=value` settings of the container file's `ENV` instruction.
fn container_environment(file: &str) -> BTreeMap<String, String> {
    let joined = file.replace("\\\n", " ");
    joined
        .lines()
        .filter_map(|line| line.strip_prefix("ENV "))
        .flat_map(|settings| settings.split_whitespace())
        .map(|setting| {
            let (name, value) = setting.split_once('=').expect("NAME=value");
            (name.to_owned(), value.to_owned())
        })
        .collect()
}

/// The variables `modctld serve --help` names (`[env: NAME=]`).
fn serve_variables() -> Vec<String> {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_modctld"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    help.split("[env: ")
        .skip(1)
        .map(|rest| rest.split('=').next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_systemd_unit_verifies_without_a_warning() {
    let unit = read("modctld.service");
    if std::process::Command::new("systemd-analyze")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "systemd-analyze is not installed here: the unit is checked against the binary only"
        );
        return;
    }
    // Verified as installed, with the binary this build made.
    let dir = tempfile::tempdir().unwrap();
    let installed = dir.path().join("modctld.service");
    std::fs::write(
        &installed,
        unit.replace("/usr/local/bin/modctld", env!("CARGO_BIN_EXE_modctld")),
    )
    .unwrap();
    let out = std::process::Command::new("systemd-analyze")
        .arg("verify")
        .arg(&installed)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.trim().is_empty(), "systemd-analyze warned: {said}");
}

#[test]
fn the_unit_and_the_container_file_set_only_what_serve_reads_and_serve_starts_with_it() {
    let known = serve_variables();
    assert!(known.contains(&"MODCTLD_LISTEN".to_owned()), "{known:?}");
    for (file, settings) in [
        (
            "modctld.service",
            unit_environment(&read("modctld.service")),
        ),
        (
            "Containerfile",
            container_environment(&read("Containerfile")),
        ),
    ] {
        assert!(settings.len() >= 2, "{file}: {settings:?}");
        for name in settings.keys() {
            assert!(
                name == "MODCTLD_DB" || known.contains(name),
                "{file} sets {name}, which `modctld serve` does not read"
            );
        }
        // The values as they are, but where to keep things and listen here.
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("modctld.db");
        let backups = dir.path().join("backups");
        let mut env: Vec<(String, String)> = settings
            .into_iter()
            .filter(|(name, _)| !["MODCTLD_DB", "MODCTLD_LISTEN"].contains(&name.as_str()))
            .collect();
        // The packaged config file, keeping things here too.
        let config = dir.path().join("modctld.toml");
        std::fs::write(
            &config,
            read("modctld.toml")
                .replace("/var/lib/modctld/", &format!("{}/", dir.path().display())),
        )
        .unwrap();
        for (name, value) in &mut env {
            match name.as_str() {
                "MODCTLD_BACKUP_DIR" => *value = backups.display().to_string(),
                "MODCTLD_CONFIG" => *value = config.display().to_string(),
                _ => {}
            }
        }
        let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let (mut daemon, url) = serve(&db, &env);
        assert!(url.starts_with("http://127.0.0.1:"), "{file}: {url}");
        daemon.terminate();
    }
}

#[test]
fn the_unit_s_config_file_is_the_packaged_one_and_check_config_finds_it_valid() {
    let unit = read("modctld.service");
    let config = &unit_environment(&unit)["MODCTLD_CONFIG"];
    // Installed where the unit reads it, by the unit's own install steps.
    assert!(
        unit.contains(&format!("packaging/modctld.toml {config}")),
        "the unit's header does not install packaging/modctld.toml as {config}"
    );
    let packaged = Path::new(env!("CARGO_MANIFEST_DIR")).join("../packaging/modctld.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modctld"))
        .env_clear()
        .arg("check-config")
        .arg(&packaged)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    for row in [
        "log-format\tjson\tfile",
        "backup-dir\t/var/lib/modctld/backups\tfile",
        "listen\t127.0.0.1:7878\tfile",
    ] {
        assert!(stdout.lines().any(|l| l == row), "no {row:?} in {stdout}");
    }
}

#[test]
fn the_container_file_keeps_a_linter_s_first_rules() {
    let file = read("Containerfile");
    let joined = file.replace("\\\n", " ");
    let instructions: Vec<&str> = joined
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // DL3006/DL3007: every base image has a tag, never `latest`.
    for from in instructions.iter().filter(|l| l.starts_with("FROM ")) {
        let image = from.split_whitespace().nth(1).unwrap();
        let tag = image.rsplit_once(':').map(|(_, tag)| tag);
        assert!(
            tag.is_some_and(|t| t != "latest"),
            "untagged or latest base image: {from}"
        );
    }
    // DL3015, DL3009: no recommended extras, and apt's lists removed in the
    // same layer.
    for run in instructions
        .iter()
        .filter(|l| l.contains("apt-get install"))
    {
        assert!(run.contains("--no-install-recommends"), "{run}");
        assert!(run.contains("rm -rf /var/lib/apt/lists/*"), "{run}");
    }
    // DL3002: the last USER is not root, and comes before the entry point.
    let user = instructions
        .iter()
        .rposition(|l| l.starts_with("USER "))
        .expect("a USER instruction");
    assert!(
        !["USER root", "USER 0", "USER 0:0"].contains(&instructions[user]),
        "{}",
        instructions[user]
    );
    let entry = instructions
        .iter()
        .position(|l| l.starts_with("ENTRYPOINT "))
        .expect("an ENTRYPOINT");
    assert!(user < entry, "USER comes before ENTRYPOINT");
    // DL3025: the entry point and command in exec form, so SIGTERM reaches
    // modctld and not a shell.
    for l in instructions
        .iter()
        .filter(|l| l.starts_with("ENTRYPOINT ") || l.starts_with("CMD "))
    {
        let args = l.split_once(' ').unwrap().1;
        assert!(
            serde_json::from_str::<Vec<String>>(args).is_ok(),
            "not exec form: {l}"
        );
    }
    // The port exposed is the one it listens on, on every address.
    let env = container_environment(&file);
    assert_eq!(env["MODCTLD_LISTEN"], "0.0.0.0:7878");
    assert!(instructions.contains(&"EXPOSE 7878"));
    // What it copies out of the build is what the workspace builds.
    for binary in ["modctld", "modctl"] {
        assert!(
            joined.contains(&format!("/src/target/release/{binary} ")),
            "{binary}"
        );
    }
}
