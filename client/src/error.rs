//! The SDK's error type.
//!
//! Every failed call yields one [`Error`]: its [`ErrorKind`] says what kind of
//! failure it was (match on it), [`Error::status`] carries the HTTP status when
//! the daemon answered, and [`Error::message`] the daemon's own `error` message.

use std::fmt;

use reqwest::StatusCode;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// 400, 405, 413, 415, 422: the request was invalid; the message says what to fix.
    InvalidRequest,
    /// 401: the API key is missing, malformed, unknown, revoked or expired.
    Unauthorized,
    /// 402: refused for a billing reason.
    PaymentRequired,
    /// 403: the key lacks the scope, or the server belongs to another team.
    Forbidden,
    /// 404: the server, case or endpoint does not exist.
    NotFound,
    /// 409: the request conflicts with the current state.
    Conflict,
    /// 412: an `If-Match` revision was stale.
    PreconditionFailed,
    /// 5xx: the daemon failed; retrying later may help.
    Server,
    /// The daemon could not be reached, or the request timed out.
    Transport,
    /// The daemon answered with something the SDK does not understand.
    UnexpectedResponse,
    /// The client was configured wrongly (e.g. an invalid base URL).
    Config,
}

impl ErrorKind {
    /// The kind an HTTP error status maps to.
    ///
    /// ```
    /// use modctl_client::{ErrorKind, StatusCode};
    /// assert_eq!(ErrorKind::from_status(StatusCode::UNAUTHORIZED), ErrorKind::Unauthorized);
    /// assert_eq!(ErrorKind::from_status(StatusCode::PAYLOAD_TOO_LARGE), ErrorKind::InvalidRequest);
    /// ```
    pub fn from_status(status: StatusCode) -> ErrorKind {
        match status.as_u16() {
            400 | 405 | 413 | 415 | 422 => ErrorKind::InvalidRequest,
            401 => ErrorKind::Unauthorized,
            402 => ErrorKind::PaymentRequired,
            403 => ErrorKind::Forbidden,
            404 => ErrorKind::NotFound,
            409 => ErrorKind::Conflict,
            412 => ErrorKind::PreconditionFailed,
            500..=599 => ErrorKind::Server,
            _ => ErrorKind::UnexpectedResponse,
        }
    }
}

/// An SDK error.
///
/// ```
/// use modctl_client::{Error, ErrorKind, StatusCode};
/// let err = Error::from_response(StatusCode::NOT_FOUND, r#"{"error":"server `1` not found"}"#);
/// assert_eq!(err.kind(), ErrorKind::NotFound);
/// assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
/// assert_eq!(err.message(), "server `1` not found");
/// ```
#[derive(Debug, thiserror::Error)]
pub struct Error {
    kind: ErrorKind,
    status: Option<StatusCode>,
    message: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Error {
    /// The kind of failure; match on it to decide what to do.
    ///
    /// ```
    /// # use modctl_client::{Error, ErrorKind, StatusCode};
    /// let err = Error::from_response(StatusCode::FORBIDDEN, r#"{"error":"this endpoint needs the `write` scope"}"#);
    /// match err.kind() {
    ///     ErrorKind::Unauthorized | ErrorKind::Forbidden => eprintln!("check the key: {}", err.message()),
    ///     _ => eprintln!("{err}"),
    /// }
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The HTTP status, when the daemon answered (`None` for transport and
    /// configuration errors).
    ///
    /// ```
    /// # use modctl_client::{Error, StatusCode};
    /// let err = Error::from_response(StatusCode::PRECONDITION_FAILED, r#"{"error":"stale"}"#);
    /// assert_eq!(err.status(), Some(StatusCode::PRECONDITION_FAILED));
    /// ```
    pub fn status(&self) -> Option<StatusCode> {
        self.status
    }

    /// The daemon's `error` message, or a description of a local failure.
    ///
    /// ```
    /// # use modctl_client::{Error, StatusCode};
    /// // A body that is not our error format is kept, cut short.
    /// let err = Error::from_response(StatusCode::BAD_GATEWAY, "<html>bad gateway</html>");
    /// assert_eq!(err.message(), "<html>bad gateway</html>");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Builds the error for a non-2xx response from its status and body. The
    /// body is expected to be `{"error": "..."}`; anything else is kept, cut
    /// short, as the message.
    pub fn from_response(status: StatusCode, body: &str) -> Error {
        let message = match serde_json::from_str::<modctl_types::ErrorBody>(body) {
            Ok(parsed) => parsed.error,
            Err(_) if body.trim().is_empty() => status
                .canonical_reason()
                .unwrap_or("no message")
                .to_lowercase(),
            Err(_) => body.chars().take(200).collect(),
        };
        Error {
            kind: ErrorKind::from_status(status),
            status: Some(status),
            message,
            source: None,
        }
    }

    pub(crate) fn transport(err: reqwest::Error) -> Error {
        let message = if err.is_timeout() {
            "the request timed out".to_owned()
        } else if err.is_connect() {
            "cannot connect to the daemon".to_owned()
        } else {
            "the request failed".to_owned()
        };
        Error {
            kind: ErrorKind::Transport,
            status: None,
            message,
            source: Some(Box::new(err)),
        }
    }

    pub(crate) fn unexpected(status: StatusCode, detail: impl fmt::Display) -> Error {
        Error {
            kind: ErrorKind::UnexpectedResponse,
            status: Some(status),
            message: format!("unexpected response: {detail}"),
            source: None,
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Config,
            status: None,
            message: message.into(),
            source: None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Some(status) => write!(f, "{} ({})", self.message, status.as_u16()),
            None => f.write_str(&self.message),
        }
    }
}
