//! One module per command group. Each has a `run` that fetches through the
//! SDK and prints, and pure `render_*` functions that turn data into text.

pub mod completions;
pub mod login;
pub mod servers;
pub mod whoami;

use crate::output::OutputMode;

/// Prints rendered output to stdout as is (renderers end lines themselves).
pub fn print(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed pipe (`modctl ... | head`) is not an error worth reporting.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Whether the mode wants JSON.
pub fn is_json(mode: OutputMode) -> bool {
    mode == OutputMode::Json
}
