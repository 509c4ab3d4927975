//! Exit codes and the CLI's error type.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | the command failed (invalid request, conflict, daemon error); `snapshot restore`: the job stopped or an item failed |
//! | 2 | usage error (bad arguments, missing configuration, confirmation needed without a terminal) |
//! | 3 | the daemon could not be reached or timed out |
//! | 4 | authentication or permission refused (401, 402, 403) |
//! | 5 | not found (404) |
//! | 6 | cancelled: the user answered no at a confirmation; nothing was changed |

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
                    "use a read+write key: `--profile NAME` picks a saved one (`modctl profile list`), \
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
