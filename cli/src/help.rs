//! Examples for `--help`: every command's help ends with examples, and a
//! listing's help names its plain-output columns (the README promises both).
//!
//! They are kept in one table rather than on each clap definition, so that
//! a test can check that no command lacks them ([`command`] adds them to the
//! derived definition). Commands that carry their own `after_help` (the
//! listings of `cases`, `strikes`, `jails`, `profile`) keep it; the text
//! here is appended to any other `after_help` a command has.

use clap::{Command, CommandFactory};

use crate::args::Cli;

/// Examples (and columns) by command path, e.g. `config audit`.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "login",
        "Examples:\n  modctl login                                  # asks for the URL and the key\n  modctl login --profile prod --url https://mod.example.com\n  modctl login --url http://127.0.0.1:7878 --with-key < key.txt",
    ),
    (
        "servers list",
        "Plain columns (piped or --plain): id, platform, name, claimed at\n\nExamples:\n  modctl servers list\n  modctl servers list --plain | cut -f1",
    ),
    (
        "servers show",
        "Plain lines: field<TAB>value\n\nExamples:\n  modctl servers show 112233445566778899\n  modctl servers show -1001234567890 --json",
    ),
    (
        "config show",
        "Plain lines: path<TAB>value\n\nExamples:\n  modctl config show 112233445566778899\n  modctl config show 112233445566778899 strikes --json",
    ),
    (
        "config edit",
        "Examples:\n  modctl config edit 112233445566778899 moderation\n  EDITOR=nano modctl config edit 112233445566778899 strikes",
    ),
    (
        "config export",
        "Examples:\n  modctl config export 112233445566778899 -o alpha.json\n  modctl config export 112233445566778899 | jq .sections.strikes",
    ),
    (
        "config import",
        "Examples:\n  modctl config import 112233445566778899 alpha.json\n  modctl config import 112233445566778899 alpha.json --dry-run\n  modctl config export A | modctl config import B - --yes",
    ),
    (
        "config clone",
        "Examples:\n  modctl config clone 223344556677889900 --from 112233445566778899\n  modctl config clone -1001234567890 --from 112233445566778899 --drop-foreign-ids --yes",
    ),
    (
        "config rollback",
        "Examples:\n  modctl config audit 112233445566778899        # find the revision\n  modctl config rollback 112233445566778899 --to-revision 4",
    ),
    (
        "config audit",
        "Plain columns (piped or --plain): id, time, actor, section, source, revision, changes\n\nExamples:\n  modctl config audit 112233445566778899\n  modctl config audit 112233445566778899 --limit 100 --json",
    ),
    (
        "config diff",
        "Plain lines: section, path, first value, second value\n\nExamples:\n  modctl config diff 112233445566778899 223344556677889900\n  modctl config diff A B > /dev/null && echo same",
    ),
    (
        "action",
        "Plain lines: field<TAB>value (case, applied, platform, detail, active_strikes[, escalation][, dm]);\nwith --users-file, columns: user, case, applied, detail\n\nExamples:\n  modctl action warn 112233445566778899 800000000000000004 -r \"spam\"\n  modctl action timeout 112233445566778899 800000000000000004 --duration 2h\n  modctl action ban 112233445566778899 800000000000000004 --delete-days 1 --yes\n  modctl action kick -1001234567890 --users-file raiders.txt --yes",
    ),
    (
        "snapshot capture",
        "Plain lines: field<TAB>value\n\nExamples:\n  modctl snapshot capture 112233445566778899",
    ),
    (
        "snapshot list",
        "Examples:\n  modctl snapshot list 112233445566778899\n  modctl snapshot list 112233445566778899 --plain | head -1 | cut -f1",
    ),
    (
        "snapshot show",
        "Examples:\n  modctl snapshot show 112233445566778899\n  modctl snapshot show 112233445566778899 3 --content",
    ),
    (
        "snapshot diff",
        "Examples:\n  modctl snapshot diff 112233445566778899\n  modctl snapshot diff 112233445566778899 --from 3 --json",
    ),
    (
        "snapshot restore",
        "Examples:\n  modctl snapshot restore 112233445566778899 --dry-run\n  modctl snapshot restore 112233445566778899 --from 3 --yes",
    ),
    (
        "snapshot job",
        "Examples:\n  modctl snapshot job 112233445566778899 7\n  modctl snapshot job 112233445566778899 7 --wait",
    ),
    (
        "onboarding",
        "Examples:\n  modctl onboarding 112233445566778899\n  modctl onboarding 112233445566778899 --refresh     # ask the platform now\n  modctl onboarding 112233445566778899 --plain | grep -v '^done'",
    ),
    (
        "insights",
        "Examples:\n  modctl insights 112233445566778899\n  modctl insights 112233445566778899 --days 90 --chart cases.svg\n  modctl insights 112233445566778899 --plain | grep '^moderator'",
    ),
    (
        "activity",
        "Examples:\n  modctl activity 112233445566778899\n  modctl activity 112233445566778899 --days 7 --json | jq .totals\n  modctl activity 112233445566778899 --chart activity.svg",
    ),
    (
        "webhooks listen",
        "Examples:\n  modctl webhooks listen --port 7879              # asks for the signing secret on a terminal\n  MODCTL_WEBHOOK_SECRET=whsec_... modctl webhooks listen --port 0 --count 1 --json",
    ),
    (
        "webhooks test",
        "Examples:\n  modctl webhooks test 112233445566778899\n  modctl webhooks test 112233445566778899 --wait",
    ),
    (
        "webhooks deliveries",
        "Examples:\n  modctl webhooks deliveries 112233445566778899\n  modctl webhooks deliveries 112233445566778899 --state failed --kind case_created",
    ),
    (
        "webhooks delivery",
        "Examples:\n  modctl webhooks delivery 112233445566778899 11",
    ),
    (
        "webhooks redeliver",
        "Examples:\n  modctl webhooks redeliver 112233445566778899 11",
    ),
    (
        "webhooks rotate-secret",
        "Examples:\n  modctl webhooks rotate-secret 112233445566778899\n  modctl webhooks rotate-secret 112233445566778899 --yes --json | jq -r .secret",
    ),
    (
        "completions",
        "Examples:\n  modctl completions bash > ~/.local/share/bash-completion/completions/modctl\n  modctl completions zsh > ~/.zfunc/_modctl\n  source <(COMPLETE=bash modctl)                # dynamic: completes server ids and config fields",
    ),
];

/// The command line's definition with the examples added, and every
/// command's help ending with the exit codes (one table for all: see
/// [`crate::exit::TABLE`]).
pub fn command() -> Command {
    let mut command = Cli::command();
    for (path, text) in EXAMPLES {
        command = with_help(command, &path.split(' ').collect::<Vec<_>>(), text);
    }
    with_exit_codes(command, true)
}

/// Appends the exit code table to the help of every command under
/// `command` that a person runs (the leaves; the top level has it already).
fn with_exit_codes(command: Command, top: bool) -> Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .filter(|name| name != "help")
        .collect();
    if names.is_empty() && !top {
        let text = crate::exit::help_text();
        let after = match command.get_after_help() {
            Some(existing) => format!("{existing}\n\n{text}"),
            None => text,
        };
        return command.after_help(after);
    }
    names.into_iter().fold(command, |command, name| {
        command.mut_subcommand(name, |sub| with_exit_codes(sub, false))
    })
}

/// `command` with `text` appended to the help of its subcommand at `path`.
fn with_help(command: Command, path: &[&str], text: &'static str) -> Command {
    match path {
        [] => {
            let after = match command.get_after_help() {
                Some(existing) => format!("{existing}\n\n{text}"),
                None => text.to_owned(),
            };
            command.after_help(after)
        }
        [first, rest @ ..] => {
            let rest = rest.to_vec();
            command.mut_subcommand(*first, move |sub| with_help(sub, &rest, text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command a person runs (every leaf of the tree) has examples.
    #[test]
    fn every_command_has_examples() {
        fn leaves(command: &Command, path: String, out: &mut Vec<(String, String)>) {
            let subs: Vec<&Command> = command
                .get_subcommands()
                .filter(|c| c.get_name() != "help")
                .collect();
            if subs.is_empty() {
                let help = command
                    .get_after_help()
                    .map(|h| h.to_string())
                    .unwrap_or_default();
                out.push((path.clone(), help));
            }
            for sub in subs {
                leaves(
                    sub,
                    format!("{path} {}", sub.get_name()).trim().to_owned(),
                    out,
                );
            }
        }
        let mut all = Vec::new();
        leaves(&command(), String::new(), &mut all);
        let missing: Vec<&str> = all
            .iter()
            .filter(|(_, help)| !help.contains("Examples:\n  modctl "))
            .map(|(path, _)| path.as_str())
            .collect();
        assert!(
            missing.is_empty(),
            "no examples in the help of: {missing:?}"
        );
        assert!(all.len() > 30, "{}", all.len());
        // The table names only commands that exist.
        for (path, _) in EXAMPLES {
            assert!(
                all.iter().any(|(p, _)| p == path),
                "`{path}` is not a command"
            );
        }
    }

    /// The listings name their plain columns.
    #[test]
    fn listings_name_their_columns() {
        let mut command = command();
        for path in [
            &["cases", "list"][..],
            &["servers", "list"],
            &["config", "audit"],
            &["strikes"],
            &["jails"],
            &["profile", "list"],
        ] {
            let mut sub = &mut command;
            for name in path {
                sub = sub.find_subcommand_mut(name).unwrap();
            }
            let help = sub.render_long_help().to_string();
            assert!(help.contains("Plain columns"), "{path:?}: {help}");
        }
    }
}
