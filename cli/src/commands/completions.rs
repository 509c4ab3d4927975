//! `modctl completions SHELL`: prints a completion script. The generated
//! scripts are also committed in the top-level `completions/` folder; a test
//! fails when they are stale (regenerate with `UPDATE_COMPLETIONS=1 cargo test
//! -p modctl --test it completions::`).

use clap::CommandFactory;
use clap_complete::Shell;

use crate::args::Cli;
use crate::exit::CliError;

/// Prints the completion script for `shell` to stdout.
pub fn run(shell: Shell) -> Result<(), CliError> {
    super::print(&script(shell));
    Ok(())
}

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "modctl", &mut buffer);
    String::from_utf8(buffer).expect("completion scripts are UTF-8")
}

/// The file name under `completions/` for `shell`, as each shell expects it.
pub fn file_name(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "modctl.bash",
        Shell::Zsh => "_modctl",
        Shell::Fish => "modctl.fish",
        Shell::PowerShell => "_modctl.ps1",
        Shell::Elvish => "modctl.elv",
        _ => "modctl.unknown",
    }
}
