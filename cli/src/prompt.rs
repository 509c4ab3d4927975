//! Prompts and confirmations.
//!
//! modctl only asks questions when both stdin and stdout are terminals: a
//! script never hangs on a prompt. Destructive commands without a terminal
//! need `--yes` and fail with a usage error (exit 2) otherwise.

use std::io::IsTerminal;

use crate::exit::{self, CliError};

/// Whether a person is at the keyboard.
pub fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Asks "`question` [y/N]" unless `yes` was given. Without a terminal and
/// without `yes`, refuses with a usage error that names `--yes`.
pub fn confirm(question: &str, yes: bool) -> Result<bool, CliError> {
    if yes {
        return Ok(true);
    }
    if !interactive() {
        return Err(CliError::usage(format!(
            "{question}: confirmation needed but there is no terminal"
        ))
        .hint("pass --yes to confirm"));
    }
    dialoguer::Confirm::new()
        .with_prompt(question)
        .default(false)
        .interact()
        .map_err(|e| CliError::failure(format!("cannot read the answer: {e}")))
}

/// Says that nothing was done after a "no" and gives the exit code for it
/// ([`exit::CANCELLED`]), so a script can tell a refusal from a failure.
pub fn cancelled() -> u8 {
    eprintln!("cancelled; nothing was changed");
    exit::CANCELLED
}
