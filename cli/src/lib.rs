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
        Err(err) => {
            // clap prints help and version to stdout with exit 0, usage errors with exit 2.
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
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
    };
    // `login` tries the URL it was given, not the configured one, and says so itself.
    if login {
        result
    } else {
        result.map_err(|e| context.explain(e))
    }
}
