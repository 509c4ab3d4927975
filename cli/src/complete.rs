//! Dynamic shell completion (clap_complete's `unstable-dynamic` engine):
//! the shell asks `modctl` itself what fits, so server ids come from the
//! daemon and config paths from the config's own shape.
//!
//! Set up with `source <(COMPLETE=bash modctl)` (or zsh, fish, elvish,
//! powershell); the static scripts of `modctl completions SHELL` (committed
//! in `completions/`) complete commands and flags only. Completion must
//! never hang or print errors into the shell, so a daemon that is not
//! configured or does not answer within two seconds completes nothing.

use clap::Command;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};
use modctl_types::config::{SectionName, Sections};

use crate::commands::config::flatten;
use crate::context::Context;

/// Arguments that take a server id, by command path (`*` = every command).
const SERVER_ARGS: &[(&str, &str)] = &[
    ("*", "server"),
    ("config diff", "a"),
    ("config diff", "b"),
    ("config clone", "from"),
];

/// `command` with completers on the arguments that take a server id, a
/// config section or a config field path.
pub fn with_completers(command: Command) -> Command {
    attach(command, "")
}

fn attach(mut command: Command, path: &str) -> Command {
    // `mut_args` keeps the arguments in place (`mut_arg` would move one to
    // the end, and so renumber the positional ones).
    command = command.mut_args(|arg| {
        let id = arg.get_id().as_str();
        let server = SERVER_ARGS
            .iter()
            .any(|(at, name)| *name == id && (*at == "*" || *at == path));
        if server {
            arg.add(ArgValueCandidates::new(servers))
        } else if path.starts_with("config") && id == "section" {
            arg.add(ArgValueCandidates::new(sections))
        } else if path == "config set" && id == "target" {
            arg.add(ArgValueCandidates::new(config_paths))
        } else {
            arg
        }
    });
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_owned())
        .collect();
    for name in names {
        let sub_path = format!("{path} {name}").trim().to_owned();
        command = command.mut_subcommand(&name, move |sub| attach(sub, &sub_path));
    }
    command
}

/// The servers the configured key's team has claimed, with their names.
fn servers() -> Vec<CompletionCandidate> {
    let context = Context::from_environment(None, None, 2);
    let Ok(client) = context.client() else {
        return Vec::new();
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return Vec::new();
    };
    runtime
        .block_on(client.servers())
        .unwrap_or_default()
        .into_iter()
        .map(|server| {
            CompletionCandidate::new(server.id.clone()).help(Some(
                format!("{} ({})", server.name, server.platform).into(),
            ))
        })
        .collect()
}

/// The config's sections.
fn sections() -> Vec<CompletionCandidate> {
    SectionName::ALL
        .iter()
        .map(|name| CompletionCandidate::new(name.as_str()))
        .collect()
}

/// Every section, and every field path with its default value as help.
pub fn config_paths() -> Vec<CompletionCandidate> {
    let defaults = serde_json::to_value(Sections::default()).expect("sections serialize");
    let mut candidates = sections();
    if let serde_json::Value::Object(map) = defaults {
        for (section, value) in &map {
            let mut pairs = Vec::new();
            flatten(section, value, &mut pairs);
            candidates.extend(pairs.into_iter().map(|(path, default)| {
                CompletionCandidate::new(path).help(Some(format!("default: {default}").into()))
            }));
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_paths_are_every_section_and_field() {
        let paths: Vec<String> = config_paths()
            .iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect();
        for want in [
            "moderation",
            "moderation.require_reason",
            "strikes.expiry_days",
        ] {
            assert!(paths.iter().any(|p| p == want), "{want} not in {paths:?}");
        }
    }

    #[test]
    fn server_arguments_get_the_server_completer() {
        let command = with_completers(crate::help::command());
        let has = |path: &[&str], id: &str| {
            let mut sub = &command;
            for name in path {
                sub = sub.find_subcommand(name).unwrap();
            }
            let arg = sub.get_arguments().find(|a| a.get_id() == id).unwrap();
            arg.get::<ArgValueCandidates>().is_some()
        };
        assert!(has(&["cases", "list"], "server"));
        assert!(has(&["config", "diff"], "b"));
        assert!(has(&["config", "set"], "target"));
        assert!(has(&["config", "show"], "section"));
        assert!(!has(&["cases", "list"], "user"));
    }
}
