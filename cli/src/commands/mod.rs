//! One module per command group. Each has a `run` that fetches through the
//! SDK and prints, and pure `render_*` functions that turn data into text.

pub mod action;
pub mod automod;
pub mod cases;
pub mod chart;
pub mod completions;
pub mod config;
pub mod config_rollback;
pub mod config_write;
pub mod corrections;
pub mod insights;
pub mod keys;
pub mod lockdown;
pub mod login;
pub mod names;
pub mod onboarding;
pub mod profile;
pub mod refresh;
pub mod servers;
pub mod snapshot;
pub mod watch;
pub mod webhooks;
pub mod webhooks_listen;
pub mod whoami;

use crate::output::OutputMode;

/// Prints rendered output to stdout as is (renderers end lines themselves);
/// output taller than the terminal goes through the pager.
pub fn print(text: &str) {
    use std::io::Write;
    if crate::output::page(text) {
        return;
    }
    let mut out = std::io::stdout().lock();
    // A closed pipe (`modctl ... | head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Reads a whole input: a file path, or `-` for stdin.
pub fn read_input(path: &str) -> Result<String, crate::exit::CliError> {
    use std::io::Read;
    let mut text = String::new();
    if path == "-" {
        use std::io::IsTerminal;
        // Someone at a terminal may not know that the command waits for them.
        if std::io::stdin().is_terminal() {
            eprintln!("waiting for JSON on stdin (paste it, then Ctrl-D on a line of its own)...");
        }
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| crate::exit::CliError::failure(format!("cannot read stdin: {e}")))?;
    } else {
        text = std::fs::read_to_string(path)
            .map_err(|e| crate::exit::CliError::failure(format!("cannot read {path}: {e}")))?;
    }
    Ok(text)
}

/// Parses JSON input, naming where it came from and where in it the JSON
/// breaks on failure (line and column, in words of our own: serde's
/// "EOF while parsing a value at line 1 column 16" is not for people).
pub fn parse_json(text: &str, origin: &str) -> Result<serde_json::Value, crate::exit::CliError> {
    serde_json::from_str(text).map_err(|e| {
        use serde_json::error::Category;
        let what = match e.classify() {
            Category::Eof => "it ends too early (a missing `}`, `]` or `\"`?)",
            Category::Syntax => "the JSON syntax breaks there (a stray comma, a quote missing?)",
            Category::Data | Category::Io => "it cannot be read there",
        };
        crate::exit::CliError::failure(format!(
            "{origin} is not valid JSON: line {}, column {}: {what}",
            e.line(),
            e.column()
        ))
    })
}

/// Whether the mode wants JSON.
pub fn is_json(mode: OutputMode) -> bool {
    mode == OutputMode::Json
}
