//! The SDK's error type.
//!
//! Every failed call yields one [`Error`]: its [`ErrorKind`] says what kind of
//! failure it was (match on it), [`Error::status`] carries the HTTP status when
//! the daemon answered, and [`Error::message`] the daemon's own `error` message.

use std::fmt;

use std::time::Duration;

use modctl_types::Plan;
use reqwest::StatusCode;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// 400, 405, 413, 415, 422: the request was invalid; the message says what to fix.
    InvalidRequest,
    /// 401: the API key is missing, malformed, unknown, revoked or expired.
    Unauthorized,
    /// 402: the team's plan does not allow the request; `required_plan` is
    /// the plan that does (`None` only from a daemon that does not say).
    /// [`Error::limit`] has the current plan's number, for a numeric limit.
    PaymentRequired {
        /// The plan that allows the request.
        required_plan: Option<Plan>,
    },
    /// 403: the key lacks the scope, or the server belongs to another team.
    Forbidden,
    /// 404: the server, case or endpoint does not exist.
    NotFound,
    /// 409: the request conflicts with the current state.
    Conflict,
    /// 412: an `If-Match` revision was stale.
    PreconditionFailed,
    /// 429: too many requests; [`Error::retry_after`] says when to try
    /// again. The client already retried as far as its
    /// [`crate::ClientBuilder::rate_limit_retries`] allowed.
    RateLimited,
    /// 5xx: the daemon failed; retrying later may help.
    Server,
    /// The daemon could not be reached, or the request timed out. The
    /// message names the URL and the root cause: `cannot connect to
    /// http://127.0.0.1:7878/api/v1/me: connection refused: ...`, the host
    /// name not resolving, a failed TLS handshake, or `no answer from ... in
    /// time`; [`std::error::Error::source`] keeps the underlying error.
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
            402 => ErrorKind::PaymentRequired {
                required_plan: None,
            },
            403 => ErrorKind::Forbidden,
            404 => ErrorKind::NotFound,
            409 => ErrorKind::Conflict,
            412 => ErrorKind::PreconditionFailed,
            429 => ErrorKind::RateLimited,
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
    limit: Option<u64>,
    retry_after: Option<Duration>,
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

    /// For a 402: the current plan's limit the request went beyond (e.g. `3`
    /// servers), when the limit is a number.
    ///
    /// ```
    /// # use modctl_client::{Error, ErrorKind, Plan, StatusCode};
    /// let err = Error::from_response(
    ///     StatusCode::PAYMENT_REQUIRED,
    ///     r#"{"error":"claiming more than 3 servers needs the pro plan","required_plan":"pro","limit":3}"#,
    /// );
    /// assert_eq!(err.kind(), ErrorKind::PaymentRequired { required_plan: Some(Plan::Pro) });
    /// assert_eq!(err.limit(), Some(3));
    /// ```
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// For a 429: how long the daemon asked to wait (its `Retry-After`).
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }

    /// Builds the error for a non-2xx response from its status and body. The
    /// body is expected to be `{"error": "..."}`; anything else is kept, cut
    /// short, as the message.
    pub fn from_response(status: StatusCode, body: &str) -> Error {
        let parsed = serde_json::from_str::<modctl_types::ErrorBody>(body);
        let mut kind = ErrorKind::from_status(status);
        let mut limit = None;
        let message = match parsed {
            Ok(parsed) => {
                if let ErrorKind::PaymentRequired { required_plan } = &mut kind {
                    *required_plan = parsed.required_plan;
                    limit = parsed.limit;
                }
                parsed.error
            }
            Err(_) if body.trim().is_empty() => status
                .canonical_reason()
                .unwrap_or("no message")
                .to_lowercase(),
            Err(_) => body.chars().take(200).collect(),
        };
        Error {
            kind,
            status: Some(status),
            message,
            limit,
            retry_after: None,
            source: None,
        }
    }

    /// [`Error::from_response`] for a 429 that said when to retry.
    pub(crate) fn with_retry_after(mut self, after: Option<Duration>) -> Error {
        self.retry_after = after;
        self
    }

    /// A request that got no answer. The message names the URL and the
    /// root cause (reqwest's own text, "error sending request for url",
    /// says neither why nor, in most programs' output, where).
    pub(crate) fn transport(err: reqwest::Error) -> Error {
        let url = err.url().map_or_else(
            || "the daemon".to_owned(),
            |url| {
                let mut url = url.clone();
                url.set_query(None);
                url.to_string()
            },
        );
        let message = if err.is_timeout() {
            format!("no answer from {url} in time: the request timed out")
        } else if err.is_connect() {
            format!("cannot connect to {url}: {}", connect_cause(&err))
        } else {
            format!("the request to {url} failed: {}", root_cause(&err))
        };
        Error {
            kind: ErrorKind::Transport,
            status: None,
            message,
            limit: None,
            retry_after: None,
            source: Some(Box::new(err)),
        }
    }

    pub(crate) fn unexpected(status: StatusCode, detail: impl fmt::Display) -> Error {
        Error {
            kind: ErrorKind::UnexpectedResponse,
            status: Some(status),
            message: format!("unexpected response: {detail}"),
            limit: None,
            retry_after: None,
            source: None,
        }
    }

    /// Waiting for something the daemon does (a restore job) took longer
    /// than the caller allowed; the daemon was reachable all along.
    pub(crate) fn timed_out(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Transport,
            status: None,
            message: message.into(),
            limit: None,
            retry_after: None,
            source: None,
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Config,
            status: None,
            message: message.into(),
            limit: None,
            retry_after: None,
            source: None,
        }
    }
}

/// The innermost error of `err`'s chain: the one that says what went wrong.
fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = err;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

/// Why a connection failed, in words a person can act on: refused (nothing
/// listens there), a host name that does not resolve, a TLS handshake that
/// failed, or else the root cause as is.
fn connect_cause(err: &reqwest::Error) -> String {
    let root = root_cause(err);
    let mut refused = false;
    let mut dns = false;
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(current) = cause {
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            refused |= io.kind() == std::io::ErrorKind::ConnectionRefused;
        }
        // hyper-util names its resolver's failures so, and nothing else.
        dns |= current.to_string() == "dns error";
        cause = current.source();
    }
    let https = err.url().is_some_and(|url| url.scheme() == "https");
    if refused {
        // The OS's own text says no more ("Connection refused (os error 111)").
        "connection refused: nothing listens at that address and port".to_owned()
    } else if dns {
        format!("the host name does not resolve ({root})")
    } else if https {
        format!("the TLS handshake failed ({root})")
    } else {
        root
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

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::time::Duration;

    use super::*;

    async fn me_at(url: &str, timeout: Duration) -> Error {
        crate::Client::builder()
            .base_url(url)
            .api_key("mdk_x")
            .timeout(timeout)
            .build()
            .unwrap()
            .me()
            .await
            .unwrap_err()
    }

    /// A port nothing listens on: bound, learnt, freed.
    fn free_port() -> u16 {
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    #[tokio::test]
    async fn transport_errors_name_the_url_and_the_root_cause() {
        let port = free_port();
        let err = me_at(&format!("http://127.0.0.1:{port}"), Duration::from_secs(5)).await;
        assert_eq!(err.kind(), ErrorKind::Transport);
        assert!(
            err.message().starts_with(&format!(
                "cannot connect to http://127.0.0.1:{port}/api/v1/me: connection refused: nothing listens"
            )),
            "{}",
            err.message()
        );

        // A listener that accepts and never answers.
        let silent = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", silent.local_addr().unwrap());
        let err = me_at(&url, Duration::from_millis(300)).await;
        assert_eq!(
            err.message(),
            format!("no answer from {url}/api/v1/me in time: the request timed out")
        );

        // https:// to a plain HTTP server: the handshake fails.
        let plain = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = plain.local_addr().unwrap();
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = plain.accept() {
                let mut buffer = [0; 1024];
                let _ = stream.read(&mut buffer);
                let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
            }
        });
        let err = me_at(&format!("https://{addr}"), Duration::from_secs(5)).await;
        assert!(
            err.message().starts_with(&format!(
                "cannot connect to https://{addr}/api/v1/me: the TLS handshake failed ("
            )),
            "{}",
            err.message()
        );

        // `.invalid` never resolves (RFC 6761), offline or not.
        let err = me_at("http://modctl.invalid:7878", Duration::from_secs(10)).await;
        assert!(
            err.message().starts_with(
                "cannot connect to http://modctl.invalid:7878/api/v1/me: the host name does not resolve ("
            ),
            "{}",
            err.message()
        );
    }
}
