//! Exit codes and the CLI's error type.
//!
//! The codes are one table, [`TABLE`], the same for every command: `modctl
//! --help` prints it ([`help_text`]) and the README's table says the same
//! (a test compares them).

use modctl_client::{Error as ApiError, ErrorCode, ErrorKind};

use crate::output::paint_stderr;
use crate::words::{self, Flag};

/// Success.
pub const OK: u8 = 0;
/// The command failed.
pub const FAILURE: u8 = 1;
/// Bad usage or missing configuration.
pub const USAGE: u8 = 2;
/// The daemon could not be reached.
pub const UNREACHABLE: u8 = 3;
/// Authentication or permission refused.
pub const DENIED: u8 = 4;
/// Not found.
pub const NOT_FOUND: u8 = 5;
/// Cancelled at a confirmation prompt; nothing was changed.
pub const CANCELLED: u8 = 6;
/// An action's case is recorded, but the platform did not apply it (or
/// whether it did is unknown): a script's `&&` stops there.
pub const NOT_APPLIED: u8 = 7;

/// Every exit code and what it means, for every command.
pub const TABLE: &[(u8, &str)] = &[
    (OK, "success"),
    (
        FAILURE,
        "the command failed (invalid request, conflict, daemon error); `config diff` and `snapshot diff`: there are differences; `snapshot restore`: the job stopped before the end or an item failed; `webhooks test --wait`: the endpoint did not take the delivery",
    ),
    (
        USAGE,
        "usage error: bad arguments, missing configuration, confirmation needed without a terminal",
    ),
    (UNREACHABLE, "the daemon could not be reached or timed out"),
    (
        DENIED,
        "authentication or permission refused (401, 403), or the team's plan does not allow it (402, a `--users-file` over the plan's limit); the hint names the plan",
    ),
    (NOT_FOUND, "not found (404)"),
    (
        CANCELLED,
        "cancelled: the answer to a confirmation prompt was no; nothing was changed",
    ),
    (
        NOT_APPLIED,
        "`action`: the case is recorded but the platform did not apply it, or whether it did is unknown (a bulk run: any user); the output says why",
    ),
];

/// The exit code table as `--help` ends with it.
pub fn help_text() -> String {
    let mut out = String::from("Exit codes (every command):\n");
    for (code, meaning) in TABLE {
        out += &format!("  {code}  {meaning}\n");
    }
    out.trim_end().to_owned()
}

/// A failed command: what to print and which code to exit with.
#[derive(Debug)]
pub struct CliError {
    code: u8,
    message: String,
    hint: Option<String>,
    /// The daemon's `field`, for an error it answered.
    field: Option<String>,
    /// A request that got no answer in time (the SDK's `is_timeout`).
    timed_out: bool,
    /// A write refused because the key may only read (`scope_required`).
    scope_refused: bool,
}

impl CliError {
    /// A failure (exit 1).
    pub fn failure(message: impl Into<String>) -> Self {
        CliError {
            code: FAILURE,
            message: message.into(),
            hint: None,
            field: None,
            timed_out: false,
            scope_refused: false,
        }
    }

    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: USAGE,
            message: message.into(),
            hint: None,
            field: None,
            timed_out: false,
            scope_refused: false,
        }
    }

    /// An error with an explicit exit code.
    pub fn with_code(code: u8, message: impl Into<String>) -> Self {
        CliError {
            code,
            message: message.into(),
            hint: None,
            field: None,
            timed_out: false,
            scope_refused: false,
        }
    }

    /// Adds a hint line printed under the error.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The exit code.
    pub fn code(&self) -> u8 {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The hint, if any.
    pub fn hint_text(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    /// Whether the daemon did not answer in time.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// Whether the key in use may only read and the command writes.
    pub fn scope_refused(&self) -> bool {
        self.scope_refused
    }

    /// The message in the words of a command whose flags are `flags`
    /// (see [`crate::words`]): the daemon's `field` becomes its flag. A hint
    /// the translation yields is added when there is none.
    pub fn in_words_of(mut self, flags: &[Flag]) -> Self {
        let (message, hint) = words::reword(&self.message, self.field.as_deref(), flags);
        self.message = message;
        if self.hint.is_none() {
            self.hint = hint;
        }
        self
    }

    /// Prints `error: ...` (and the hint) to stderr.
    pub fn print(&self) {
        eprintln!(
            "{} {}",
            paint_stderr("error:", console::Style::new().red().bold()),
            self.message
        );
        if let Some(hint) = &self.hint {
            eprintln!(
                "{} {hint}",
                paint_stderr("hint:", console::Style::new().yellow())
            );
        }
    }
}

impl From<ApiError> for CliError {
    /// The SDK's error with its exit code and a hint, chosen by its kind
    /// (the status), code and field, never by its message; the API's
    /// pointers to endpoints are cut from the message (flag names are the
    /// command's business: see [`CliError::in_words_of`]).
    fn from(err: ApiError) -> Self {
        let message = err.message().to_owned();
        let server_not_found = err.code() == Some(&ErrorCode::NotFound)
            && matches!(err.field(), Some("{id}" | "from"));
        let mut error = match err.kind() {
            ErrorKind::Unauthorized => CliError::with_code(DENIED, message)
                .hint("run `modctl login` to save a working key, or set MODCTL_API_KEY"),
            // The daemon says which scope an endpoint needs; the person
            // needs to know which key to use instead.
            ErrorKind::Forbidden if err.code() == Some(&ErrorCode::ScopeRequired) => {
                CliError::with_code(
                    DENIED,
                    "the API key in use may only read: this command changes things and needs a read+write key",
                )
                .hint(
                    "use a read+write key instead: `--profile NAME` picks a saved one (`modctl profile list`), \
                     `modctl login --profile NAME` saves one, and an operator makes one with \
                     `modctld key create --team TEAM --scopes read,write`",
                )
            }
            ErrorKind::Forbidden => CliError::with_code(DENIED, message),
            ErrorKind::PaymentRequired { required_plan } => {
                let plan = required_plan.map_or_else(|| "another".to_owned(), |p| p.to_string());
                CliError::with_code(DENIED, message).hint(format!(
                    "this needs the {plan} plan: ask the operator of the daemon to move your team to it"
                ))
            }
            ErrorKind::RateLimited => {
                let wait = err.retry_after().map_or_else(
                    || "a minute".to_owned(),
                    |d| format!("{} seconds", d.as_secs().max(1)),
                );
                CliError::failure(message).hint(format!(
                    "the daemon limits requests per key: wait {wait} and run the command again"
                ))
            }
            ErrorKind::NotFound if server_not_found => CliError::with_code(NOT_FOUND, message)
                .hint("`modctl servers list` lists the servers your team has claimed"),
            ErrorKind::NotFound => CliError::with_code(NOT_FOUND, message),
            // The SDK's message names the URL and the root cause; which
            // setting the URL came from is added by `Context::explain`.
            ErrorKind::Transport => CliError::with_code(UNREACHABLE, message).hint(
                "is modctld running? Check the daemon URL (--url, MODCTL_URL or the profile)",
            ),
            ErrorKind::Config => CliError::usage(message),
            _ => CliError::failure(message),
        };
        error.field = err.field().map(str::to_owned);
        error.timed_out = err.is_timeout();
        error.scope_refused = err.code() == Some(&ErrorCode::ScopeRequired);
        error.in_words_of(&[])
    }
}

/// Converts an SDK error in the words of a command whose flags are `flags`:
/// `.map_err(api_error(words::ACTION))`.
pub fn api_error(flags: &'static [Flag]) -> impl Fn(ApiError) -> CliError {
    move |err| CliError::from(err).in_words_of(flags)
}

impl From<std::io::Error> for CliError {
    fn from(err: std::io::Error) -> Self {
        CliError::failure(err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's exit code table, `--help`'s and [`TABLE`] say the same.
    #[test]
    fn the_readme_and_help_list_the_same_exit_codes() {
        let readme = include_str!("../../README.md");
        let table = readme
            .split("- **Exit codes**:")
            .nth(1)
            .expect("README has an exit code table");
        let rows: Vec<(u8, String)> = table
            .lines()
            .map(str::trim)
            .skip_while(|line| !line.starts_with('|'))
            .take_while(|line| line.starts_with('|'))
            .filter_map(|line| {
                let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
                Some((
                    cells.first()?.trim().parse().ok()?,
                    cells.get(1)?.trim().to_owned(),
                ))
            })
            .collect();
        let ours: Vec<(u8, String)> = TABLE.iter().map(|(c, m)| (*c, (*m).to_owned())).collect();
        assert_eq!(rows, ours, "README.md's exit code table is stale");
        // clap wraps help to the terminal: compare the words. The top
        // level's help and every command's (`modctl action --help`, ...).
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut top = crate::help::command();
        let mut helps = vec![("modctl".to_owned(), top.render_long_help().to_string())];
        for sub in top.get_subcommands_mut() {
            let name = sub.get_name().to_owned();
            if sub.get_subcommands().next().is_none() && name != "help" {
                helps.push((name.clone(), sub.render_long_help().to_string()));
            }
            for leaf in sub.get_subcommands_mut().filter(|l| l.get_name() != "help") {
                let leaf_name = format!("{name} {}", leaf.get_name());
                helps.push((leaf_name, leaf.render_long_help().to_string()));
            }
        }
        assert!(helps.len() > 20, "{}", helps.len());
        for (command, help) in &helps {
            let help = words(help);
            for (code, meaning) in TABLE {
                assert!(
                    help.contains(&words(&format!("{code} {meaning}"))),
                    "`{command} --help` lacks exit code {code}:\n{help}"
                );
            }
        }
    }
}
