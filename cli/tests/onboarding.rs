//! `modctl onboarding SERVER` against a real daemon whose server runs on the
//! simulator, partly set up: the progress line, then the checklist with its
//! marks and the fix under each open item.

use crate::support::{modctl, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::onboarding::{ItemStatus, Onboarding};

#[test]
fn the_checklist_as_table_plain_and_json() {
    // Connected, jail set up; the rest is still to do.
    let fixture = Fixture::simulated();
    let key = Some(&fixture.alpha_rw);
    // Key ids are random: the snapshots name them by their role.
    let stable = |text: String| text.replace(&fixture.alpha_rw.key_id, "ALPHA_RW_KEY_ID");
    let table = stable(stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--table"]),
        0,
    ));
    assert_snapshot!("onboarding_table", table);
    // Asked again: the platform's answer comes from the cache.
    let again = stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert!(again.lines().next().unwrap().contains("cached"), "{again}");

    let plain = stable(stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--refresh"]),
        0,
    ));
    assert_snapshot!("onboarding_plain", plain);

    let json = stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--json"]),
        0,
    );
    let parsed: Onboarding = serde_json::from_str(&json).unwrap();
    assert_eq!(
        parsed.items.len(),
        table.lines().filter(|l| l.starts_with('[')).count()
    );
    assert!(parsed.items.iter().any(|i| i.status == ItemStatus::Done));
    assert!(parsed.items.iter().any(|i| i.status == ItemStatus::Todo));
}

/// The `modctl` commands of a fix line: the whole line, or the commands
/// quoted in it (`` `modctl ...` ``), split where a line chains them.
fn commands_of(fix: &str) -> Vec<String> {
    let pieces: Vec<&str> = if fix.contains('`') {
        fix.split('`').skip(1).step_by(2).collect()
    } else {
        vec![fix]
    };
    pieces
        .iter()
        .flat_map(|piece| piece.split(" && "))
        .map(str::trim)
        .filter(|piece| piece.starts_with("modctl "))
        .map(str::to_owned)
        .collect()
}

/// Every `modctl` command an onboarding fix line prints works when pasted
/// as printed: the shell sees no `<`, `(` or `;` in it, the CLI's parser
/// takes it, and a `config set` types and validates its values for the
/// server (a placeholder such as `CHANNEL_ID` is the one thing to replace).
#[test]
fn fix_lines_parse_as_printed() {
    use clap::FromArgMatches;
    use modctl::args::{Cli, Command};
    use modctl::commands::config::ConfigCommand;
    use modctl::commands::config_write::{assignments, is_placeholder, plan_set};

    let fixture = Fixture::simulated();
    let key = Some(&fixture.alpha_rw);
    let mut checked = 0;
    let mut config_sets = 0;
    let mut pasted = 0;
    for server in [
        ALPHA_DISCORD,
        modctl_e2e::ALPHA_TELEGRAM,
        modctl_e2e::ALPHA_SLACK,
    ] {
        let json = stdout_of(
            modctl(&fixture, key).args(["onboarding", server, "--json"]),
            0,
        );
        let checklist: Onboarding = serde_json::from_str(&json).unwrap();
        let config: modctl_types::config::ServerConfig = serde_json::from_str(&stdout_of(
            modctl(&fixture, key).args(["config", "show", server, "--json"]),
            0,
        ))
        .unwrap();
        for fix in checklist.items.iter().filter_map(|i| i.fix.as_deref()) {
            let commands = commands_of(fix);
            if fix.contains("modctl ") {
                assert!(!commands.is_empty(), "a command in prose: {fix}");
            }
            for command in commands {
                assert!(
                    !command.contains(['<', '>', '(', ')', ';', '"', '\'']),
                    "the shell would not take `{command}` as printed"
                );
                let words: Vec<&str> = command.split_whitespace().collect();
                let matches = modctl::help::command()
                    .try_get_matches_from(&words)
                    .unwrap_or_else(|e| panic!("`{command}`: {e}"));
                let cli = Cli::from_arg_matches(&matches).unwrap();
                checked += 1;
                let Command::Config(ConfigCommand::Set {
                    target,
                    values,
                    file: None,
                    ..
                }) = cli.command
                else {
                    continue;
                };
                let fields = assignments(&target, &values)
                    .unwrap_or_else(|e| panic!("`{command}`: {}", e.message()));
                let all = fields.len();
                let concrete: Vec<_> = fields
                    .into_iter()
                    .filter(|f| !is_placeholder(&f.path) && !is_placeholder(&f.text))
                    .collect();
                plan_set(&config.sections, config.platform, &concrete)
                    .unwrap_or_else(|e| panic!("`{command}`: {}", e.message()));
                config_sets += 1;
                // Nothing to replace in the line (a chain with a
                // placeholder stops at it): pasted as printed, it works.
                let placeholder = fix
                    .split_whitespace()
                    .any(|w| is_placeholder(w.trim_matches(['`', ',', ';'])));
                if concrete.len() == all && !placeholder {
                    let output = modctl(&fixture, key).args(&words[1..]).output().unwrap();
                    assert!(
                        output.status.success(),
                        "`{command}`: {}",
                        String::from_utf8_lossy(&output.stderr)
                    );
                    pasted += 1;
                }
            }
        }
    }
    assert!(
        checked >= 5 && config_sets >= 3 && pasted >= 1,
        "{checked} {config_sets} {pasted}"
    );
}
