//! `modctl`: the terminal tool for moderation teams, built on `modctl-client`.
//!
//! Modules:
//! - [`args`]: the clap definition of the whole command line.
//! - [`commands`]: one module per command group (`whoami`, `servers`,
//!   `config`, `action`, `cases` (with strikes and jails), `snapshot`,
//!   `login`, `completions`). Each splits *fetching* (SDK calls) from
//!   *rendering* (pure functions from data to text), so output is testable
//!   without a daemon.
//! - [`complete`]: dynamic shell completion of server ids and config paths.
//! - [`context`]: resolves the daemon URL and key (flags, environment, profile)
//!   and builds the SDK client.
//! - [`output`]: the output modes (table on a terminal, tab-separated when
//!   piped, JSON with `--json`) and colour (off when piped or with `NO_COLOR`).
//! - [`profile`]: the config file with named profiles written by `modctl login`.
//! - [`prompt`]: confirmations and prompts, only when stdin and stdout are terminals.
//! - [`exit`]: [`exit::CliError`] and the documented exit codes.
//! - [`help`]: the examples every command's `--help` ends with.
//! - [`words`]: the API's field names and endpoints in the CLI's flags and
//!   commands, for error messages.

pub mod args;
pub mod commands;
pub mod complete;
pub mod context;
pub mod exit;
pub mod help;
pub mod output;
pub mod profile;
pub mod prompt;
pub mod words;

use std::process::ExitCode;

use clap::FromArgMatches;

use crate::args::{Cli, Command};
use crate::context::Context;
use crate::exit::CliError;

/// Entry point of the `modctl` binary.
pub fn main() -> ExitCode {
    // `COMPLETE=bash modctl ...`: the shell asking for completions.
    clap_complete::CompleteEnv::with_factory(|| complete::with_completers(help::command()))
        .complete();
    let cli = match help::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(err) if err.kind() == clap::error::ErrorKind::DisplayVersion => {
            let _ = err.print();
            // The daemon's version too, when one is configured and answers.
            if let Some(line) = daemon_version() {
                println!("{line}");
            }
            return ExitCode::from(exit::OK);
        }
        Err(err) if err.use_stderr() => {
            // Usage errors exit 2, in the CLI's words (see `clap_words`).
            eprint!("{}", clap_words(&err.render().to_string()));
            return ExitCode::from(exit::USAGE);
        }
        Err(err) => {
            // clap prints help and version to stdout with exit 0.
            let _ = err.print();
            return ExitCode::from(exit::OK);
        }
    };
    output::init_colours();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            return report(CliError::failure(format!(
                "cannot start the async runtime: {e}"
            )));
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(err) => report(err),
    }
}

/// `modctld VERSION at URL` from the daemon's `GET /health` (no key
/// needed), or why it could not be asked; `None` when no URL is configured.
/// The URL comes from `--url`, `MODCTL_URL` or the profile, as for any
/// command (clap stopped at `--version`, so the flags are looked up here).
fn daemon_version() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| {
        args.iter().enumerate().find_map(|(i, arg)| {
            arg.strip_prefix(&format!("{name}="))
                .map(str::to_owned)
                .or_else(|| (arg == name).then(|| args.get(i + 1).cloned()).flatten())
        })
    };
    let context = Context::from_environment(flag("--url"), flag("--profile"), 2);
    let (url, origin) = context.url().ok().flatten()?;
    if context::check_url(&url, &origin).is_err() {
        return Some(format!(
            "modctld: {url} (from {origin}) is not a daemon URL"
        ));
    }
    let client = context::build_client(&url, "-", context.timeout()).ok()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    Some(match runtime.block_on(client.health()) {
        Ok(health) => format!("modctld {} at {url}", health.version),
        Err(e) => format!("modctld: not reachable at {url} ({})", e.message()),
    })
}

/// A clap usage error with the standard library's number-parsing messages
/// ("invalid digit found in string", "number too large to fit in target
/// type": Rust's words about Rust's types) said for people.
pub fn clap_words(rendered: &str) -> String {
    const RUST: &[(&str, &str)] = &[
        ("invalid digit found in string", "not a whole number"),
        (
            "number too large to fit in target type",
            "too large a number",
        ),
        (
            "number too small to fit in target type",
            "too small a number",
        ),
        (
            "cannot parse integer from empty string",
            "empty: give a whole number",
        ),
        ("invalid float literal", "not a number"),
    ];
    let text = RUST.iter().fold(rendered.to_owned(), |text, (rust, ours)| {
        text.replace(rust, ours)
    });
    // A range check: "is not in 1..=500" -> "must be from 1 to 500".
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("is not in ") {
        let after = &rest[at + "is not in ".len()..];
        let end = after.find(char::is_whitespace).unwrap_or(after.len());
        match after[..end].split_once("..=") {
            Some((low, high)) => {
                out.push_str(&rest[..at]);
                out.push_str(&format!("must be from {low} to {high}"));
            }
            None => out.push_str(&rest[..at + "is not in ".len() + end]),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn report(err: CliError) -> ExitCode {
    err.print();
    ExitCode::from(err.code())
}

/// Runs one command; returns the exit code on success (0, or a command's own
/// non-error code such as `config diff`'s 1 for "different").
pub async fn run(cli: Cli) -> Result<u8, CliError> {
    let context = Context::new(cli.global);
    output::configure(context.output, context.global.wide);
    let ok = |result: Result<(), CliError>| result.map(|()| exit::OK);
    let login = matches!(cli.command, Command::Login(_));
    let result = match cli.command {
        Command::Login(args) => ok(commands::login::run(&context, args).await),
        Command::Whoami => ok(commands::whoami::run(&context).await),
        Command::Keys => ok(commands::keys::run(&context).await),
        Command::Logout => ok(commands::profile::logout(&context)),
        Command::Profile(command) => ok(commands::profile::run(&context, command)),
        Command::Servers(command) => ok(commands::servers::run(&context, command).await),
        Command::Onboarding { server, refresh } => {
            ok(commands::onboarding::run(&context, &server, refresh).await)
        }
        Command::Config(command) => commands::config::run(&context, command).await,
        Command::Action(args) => commands::action::run(&context, args).await,
        Command::Cases(command) => ok(commands::cases::run(&context, command).await),
        Command::Automod(command) => ok(commands::automod::run(&context, command).await),
        Command::Snapshot(command) => commands::snapshot::run(&context, command).await,
        Command::Webhooks(command) => commands::webhooks::run(&context, command).await,
        Command::Lockdown(command) => commands::lockdown::run(&context, command).await,
        Command::Insights(args) => ok(commands::insights::moderation(&context, args).await),
        Command::Activity(args) => ok(commands::insights::community(&context, args).await),
        Command::Strikes(args) => ok(commands::corrections::strikes(&context, args).await),
        Command::Jails { server, layout } => {
            ok(commands::cases::jails(&context, &server, &layout).await)
        }
        Command::Completions { shell } => ok(commands::completions::run(shell)),
        Command::Watch(args) => commands::watch::run(&context, args).await,
    };
    // `login` tries the URL it was given, not the configured one, and says so itself.
    if login {
        result
    } else {
        result.map_err(|e| context.explain(e))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_errors_lose_rusts_words() {
        for (clap, ours) in [
            (
                "error: invalid value 'x' for '--limit <N>': invalid digit found in string\n",
                "error: invalid value 'x' for '--limit <N>': not a whole number\n",
            ),
            (
                "error: invalid value '99999999999' for '--limit <N>': 99999999999 is not in 0..=4294967295\n",
                "error: invalid value '99999999999' for '--limit <N>': 99999999999 must be from 0 to 4294967295\n",
            ),
            ("error: is not in the list\n", "error: is not in the list\n"),
        ] {
            assert_eq!(super::clap_words(clap), ours);
        }
    }
}
