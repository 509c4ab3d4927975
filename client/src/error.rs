//! The SDK's error type.
//!
//! Every failed call yields one [`Error`]: its [`ErrorKind`] says what kind of
//! failure it was (match on it), [`Error::status`] carries the HTTP status when
//! the daemon answered, [`Error::code`] the daemon's machine-readable code
//! (finer than the kind: `scope_required`, `plan_limit`, `job_running`, ...),
//! [`Error::field`] the field it is about, and [`Error::message`] the daemon's
//! own `error` message, for people: its words may change in any release, so
//! decide on the kind, the code or the field, never on the message.

use std::fmt;

use std::time::Duration;

use modctl_types::{ErrorCode, Plan};
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
    /// What the daemon's body said beyond its message (boxed: errors
    /// travel in `Result`s).
    answer: Option<Box<Answer>>,
    message: String,
    limit: Option<u64>,
    retry_after: Option<Duration>,
    timed_out: bool,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// The daemon's code, field and request id.
#[derive(Debug)]
struct Answer {
    code: ErrorCode,
    field: Option<String>,
    request_id: Option<String>,
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

    /// The daemon's machine-readable code, when the daemon answered (`None`
    /// for transport and configuration errors).
    ///
    /// A daemon older than codes sends none: the code is then the general
    /// one of the status ([`ErrorCode::for_status`]). A code newer than this
    /// SDK is [`ErrorCode::Other`]: decide on [`Error::kind`] for it.
    ///
    /// ```
    /// use modctl_client::{Error, ErrorCode, ErrorKind, StatusCode};
    /// let err = Error::from_response(
    ///     StatusCode::FORBIDDEN,
    ///     r#"{"error":"this endpoint needs the `write` scope; the key has only `read`","code":"scope_required"}"#,
    /// );
    /// assert_eq!(err.kind(), ErrorKind::Forbidden);
    /// match err.code() {
    ///     Some(ErrorCode::ScopeRequired) => eprintln!("use a key with the write scope"),
    ///     Some(ErrorCode::Forbidden) => eprintln!("that server belongs to another team"),
    ///     _ => eprintln!("{err}"),
    /// }
    ///
    /// // From a newer daemon: an unknown code, handled by its kind.
    /// let newer = Error::from_response(StatusCode::CONFLICT, r#"{"error":"...","code":"frozen"}"#);
    /// assert_eq!(newer.code(), Some(&ErrorCode::Other("frozen".into())));
    /// assert_eq!(newer.kind(), ErrorKind::Conflict);
    /// ```
    pub fn code(&self) -> Option<&ErrorCode> {
        self.answer.as_ref().map(|answer| &answer.code)
    }

    /// The field the error is about, when the daemon named one: a JSON path
    /// into the body (`automod.spam.max_messages`, `events[3].at`), a query
    /// parameter (`limit`), a header (`Idempotency-Key`) or a path parameter
    /// in braces (`{id}`). Sent with `invalid_field` (always) and `not_found`
    /// (when a parameter named what was not found).
    ///
    /// ```
    /// use modctl_client::{Error, ErrorCode, StatusCode};
    /// let err = Error::from_response(
    ///     StatusCode::BAD_REQUEST,
    ///     r#"{"error":"limit must be between 1 and 200, got 0","code":"invalid_field","field":"limit"}"#,
    /// );
    /// assert_eq!(err.code(), Some(&ErrorCode::InvalidField));
    /// assert_eq!(err.field(), Some("limit"));
    /// ```
    pub fn field(&self) -> Option<&str> {
        self.answer
            .as_ref()
            .and_then(|answer| answer.field.as_deref())
    }

    /// The id of the request the daemon answered (its `X-Request-Id`): quote
    /// it when reporting a problem, the daemon's log lines carry it.
    ///
    /// ```
    /// # use modctl_client::{Error, StatusCode};
    /// let err = Error::from_response(
    ///     StatusCode::INTERNAL_SERVER_ERROR,
    ///     r#"{"error":"internal error","code":"internal","request_id":"req_5f0c4ad8e1b29c37"}"#,
    /// );
    /// assert_eq!(err.request_id(), Some("req_5f0c4ad8e1b29c37"));
    /// ```
    pub fn request_id(&self) -> Option<&str> {
        self.answer
            .as_ref()
            .and_then(|answer| answer.request_id.as_deref())
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

    /// Whether this [`ErrorKind::Transport`] error is a request that got no
    /// answer within the client's timeout ([`crate::ClientBuilder::timeout`]):
    /// the daemon may only be slow. (Waiting for a restore job longer than
    /// the caller allowed is a transport error too, but not this.)
    pub fn is_timeout(&self) -> bool {
        self.timed_out
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
        let mut code = ErrorCode::for_status(status.as_u16());
        let mut field = None;
        let mut request_id = None;
        let message = match parsed {
            Ok(parsed) => {
                if let ErrorKind::PaymentRequired { required_plan } = &mut kind {
                    *required_plan = parsed.required_plan;
                    limit = parsed.limit;
                }
                // An older daemon sends no code: keep the status's.
                if parsed.code != ErrorCode::Other(String::new()) {
                    code = parsed.code;
                } else if parsed.limit.is_some() {
                    code = ErrorCode::PlanLimit;
                }
                field = parsed.field;
                request_id = parsed.request_id;
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
            answer: Some(Box::new(Answer {
                code,
                field,
                request_id,
            })),
            message,
            limit,
            retry_after: None,
            timed_out: false,
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
        let timed_out = err.is_timeout();
        let message = if timed_out {
            format!("no answer from {url} in time: the request timed out")
        } else if err.is_connect() {
            format!("cannot connect to {url}: {}", connect_cause(&err))
        } else {
            format!("the request to {url} failed: {}", root_cause(&err))
        };
        Error {
            kind: ErrorKind::Transport,
            status: None,
            answer: None,
            message,
            limit: None,
            retry_after: None,
            timed_out,
            source: Some(Box::new(err)),
        }
    }

    pub(crate) fn unexpected(status: StatusCode, detail: impl fmt::Display) -> Error {
        Error {
            kind: ErrorKind::UnexpectedResponse,
            status: Some(status),
            answer: None,
            message: format!("unexpected response: {detail}"),
            limit: None,
            retry_after: None,
            timed_out: false,
            source: None,
        }
    }

    /// Waiting for something the daemon does (a restore job) took longer
    /// than the caller allowed; the daemon was reachable all along.
    pub(crate) fn timed_out(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Transport,
            status: None,
            answer: None,
            message: message.into(),
            limit: None,
            retry_after: None,
            timed_out: false,
            source: None,
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Config,
            status: None,
            answer: None,
            message: message.into(),
            limit: None,
            retry_after: None,
            timed_out: false,
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

    #[test]
    fn codes_come_from_the_body_or_else_from_the_status() {
        let err = Error::from_response(
            StatusCode::CONFLICT,
            r#"{"error":"restore job 4 of server 1 is still running","code":"job_running"}"#,
        );
        assert_eq!(err.kind(), ErrorKind::Conflict);
        assert_eq!(err.code(), Some(&ErrorCode::JobRunning));
        assert_eq!(err.field(), None);
        // A daemon older than codes: the status's code.
        let old =
            Error::from_response(StatusCode::NOT_FOUND, r#"{"error":"server `1` not found"}"#);
        assert_eq!(old.code(), Some(&ErrorCode::NotFound));
        let old = Error::from_response(
            StatusCode::PAYMENT_REQUIRED,
            r#"{"error":"x","required_plan":"pro","limit":3}"#,
        );
        assert_eq!(old.code(), Some(&ErrorCode::PlanLimit));
        // Not our body at all.
        let html = Error::from_response(StatusCode::BAD_GATEWAY, "<html>bad gateway</html>");
        assert_eq!(html.code(), Some(&ErrorCode::PlatformError));
        assert_eq!(html.field(), None);
    }

    #[tokio::test]
    async fn transport_errors_name_the_url_and_the_root_cause() {
        let port = free_port();
        let err = me_at(&format!("http://127.0.0.1:{port}"), Duration::from_secs(5)).await;
        assert_eq!(err.kind(), ErrorKind::Transport);
        assert!(!err.is_timeout());
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
        assert!(err.is_timeout());
        assert_eq!(err.code(), None);
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
