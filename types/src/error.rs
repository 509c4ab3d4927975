//! The error body and its machine-readable codes.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Plan;

/// The JSON body of every non-2xx response:
/// `{"error": "<what to fix>", "code": "<code>"}`.
///
/// `code` says what kind of error it is, for programs (see [`ErrorCode`]);
/// `error` says it to a person and may be reworded in any release. `field`
/// names the field, parameter or header the error is about, when the daemon
/// knows it. A refusal for a plan limit (`402`) adds `required_plan` and, for
/// a numeric limit, `limit`. Every field but `error` is additive: a client
/// that reads only `error` keeps working, and a body without `code` (from a
/// daemon older than codes) reads as [`ErrorCode::Other`] with an empty code.
///
/// ```
/// use modctl_types::{ErrorBody, ErrorCode};
/// let body: ErrorBody = serde_json::from_str(
///     r#"{"error":"limit must be between 1 and 200, got 0","code":"invalid_field","field":"limit"}"#,
/// ).unwrap();
/// assert_eq!(body.code, ErrorCode::InvalidField);
/// assert_eq!(body.field.as_deref(), Some("limit"));
/// assert_eq!(body.required_plan, None);
///
/// // An older daemon's body.
/// let old: ErrorBody = serde_json::from_str(r#"{"error":"unknown server"}"#).unwrap();
/// assert_eq!(old.error, "unknown server");
/// assert_eq!(old.code, ErrorCode::Other(String::new()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A human-readable message that says what went wrong and what to fix.
    /// Its words may change in any release: decide on `code`, not on it.
    pub error: String,
    /// What kind of error this is (always sent by this daemon). New codes
    /// may be added: treat a code you do not know by the response's status.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub code: ErrorCode,
    /// The field the error is about, when the daemon knows it: a JSON path
    /// into the body (`automod.spam.max_messages`, `events[3].at`), a query
    /// parameter (`limit`), a header (`Idempotency-Key`) or a path parameter
    /// in braces as in the path template (`{id}`, `{case_id}`). Sent with
    /// `invalid_field` (always) and `not_found` (when a parameter named what
    /// was not found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// `402` only: the plan that allows the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_plan: Option<Plan>,
    /// `402` only, for a numeric limit: the limit of the team's current plan
    /// (e.g. `3` servers, `30` days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The request's id, as in its `X-Request-Id` header (issue #28): quote
    /// it when reporting a problem; the daemon's log lines of the request
    /// carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

impl ErrorBody {
    /// A body with only a message (and an empty code: see
    /// [`ErrorBody::coded`] for the daemon's bodies).
    pub fn new(error: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error: error.into(),
            ..ErrorBody::default()
        }
    }

    /// A body with a message and its code.
    pub fn coded(code: ErrorCode, error: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error: error.into(),
            code,
            ..ErrorBody::default()
        }
    }
}

/// The machine-readable kind of an error: the `code` of [`ErrorBody`].
///
/// Each code comes with one status. The set may grow in any release (v1 is
/// additive): a code this version does not know reads as
/// [`ErrorCode::Other`], never as an error, and is best handled by the
/// response's status.
///
/// ```
/// use modctl_types::ErrorCode;
/// let code: ErrorCode = serde_json::from_str(r#""plan_required""#).unwrap();
/// assert_eq!(code, ErrorCode::PlanRequired);
/// // A code from a newer daemon.
/// let newer: ErrorCode = serde_json::from_str(r#""teapot""#).unwrap();
/// assert_eq!(newer, ErrorCode::Other("teapot".into()));
/// assert_eq!(serde_json::to_string(&newer).unwrap(), r#""teapot""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// 400: the request cannot be read as sent: a body that is not JSON or
    /// not of the expected shape, an unreadable body, a repeated key, or a
    /// value that is wrong in a way no single field the daemon names is.
    InvalidRequest,
    /// 400: a value is invalid; `field` names it.
    InvalidField,
    /// 401: the API key (or a platform's signature on its hooks) is missing,
    /// malformed, unknown or revoked.
    Unauthorized,
    /// 401: the API key has expired.
    KeyExpired,
    /// 403: the API key was suspended by antinuke (issue #26) for too many
    /// destructive actions; an operator re-enables it.
    KeySuspended,
    /// 402: the team's plan does not have the feature (`required_plan`
    /// names the one that has).
    PlanRequired,
    /// 402: the request goes beyond a numeric limit of the team's plan
    /// (`limit` is the current plan's, `required_plan` the plan that allows
    /// more).
    PlanLimit,
    /// 403: the API key lacks the scope the endpoint needs.
    ScopeRequired,
    /// 403: the server belongs to another team.
    Forbidden,
    /// 404: the endpoint, server or resource does not exist.
    NotFound,
    /// 404: no raid lockdown runs on the server.
    NoLockdown,
    /// 405: the path exists, but not with this method (see `Allow`).
    MethodNotAllowed,
    /// 408: the request body did not arrive in time.
    RequestTimeout,
    /// 409: the request conflicts with the current state (or lost a race
    /// with a concurrent change: read again and retry).
    Conflict,
    /// 409: the server's configuration lacks what the request needs (e.g.
    /// webhooks are not configured).
    NotConfigured,
    /// 409: a job of the server (a restore) is still running; retry once it
    /// has ended.
    JobRunning,
    /// 409: a raid lockdown already runs on the server; end it first.
    LockdownRunning,
    /// 412: an `If-Match` revision is no longer current.
    PreconditionFailed,
    /// 413: the body is larger than the daemon accepts.
    PayloadTooLarge,
    /// 414: the path and query are longer than the daemon accepts.
    UriTooLong,
    /// 415: the body is not declared JSON.
    UnsupportedMediaType,
    /// 429: too many requests, failed authentications or connections, or
    /// activity in flight; retry after `Retry-After`.
    RateLimited,
    /// 431: the request headers are larger than the daemon accepts.
    HeadersTooLarge,
    /// 500: a bug or an infrastructure failure; the daemon's log has the
    /// cause.
    Internal,
    /// 502: the platform refused or failed a call the request depends on.
    PlatformError,
    /// 503 with `Retry-After`: the daemon cannot serve this request yet
    /// (settling actions, connections or memory full); retry then.
    Busy,
    /// 503: the daemon cannot serve requests now (its database does not
    /// answer, or it is stopping).
    Unavailable,
    /// A code this version does not know (from a newer daemon), or none (an
    /// empty string: from a daemon older than codes). Decide by status.
    Other(String),
}

impl Default for ErrorCode {
    fn default() -> Self {
        ErrorCode::Other(String::new())
    }
}

impl ErrorCode {
    /// Every code this version knows, in the order of the documentation.
    pub const KNOWN: [ErrorCode; 27] = [
        ErrorCode::InvalidRequest,
        ErrorCode::InvalidField,
        ErrorCode::Unauthorized,
        ErrorCode::KeyExpired,
        ErrorCode::PlanRequired,
        ErrorCode::PlanLimit,
        ErrorCode::ScopeRequired,
        ErrorCode::Forbidden,
        ErrorCode::KeySuspended,
        ErrorCode::NotFound,
        ErrorCode::NoLockdown,
        ErrorCode::MethodNotAllowed,
        ErrorCode::RequestTimeout,
        ErrorCode::Conflict,
        ErrorCode::NotConfigured,
        ErrorCode::JobRunning,
        ErrorCode::LockdownRunning,
        ErrorCode::PreconditionFailed,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UriTooLong,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::RateLimited,
        ErrorCode::HeadersTooLarge,
        ErrorCode::Internal,
        ErrorCode::PlatformError,
        ErrorCode::Busy,
        ErrorCode::Unavailable,
    ];

    /// The code as sent: `not_found`, `invalid_field`, ...
    pub fn as_str(&self) -> &str {
        match self {
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidField => "invalid_field",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::KeyExpired => "key_expired",
            ErrorCode::PlanRequired => "plan_required",
            ErrorCode::PlanLimit => "plan_limit",
            ErrorCode::ScopeRequired => "scope_required",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::KeySuspended => "key_suspended",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NoLockdown => "no_lockdown",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::RequestTimeout => "request_timeout",
            ErrorCode::Conflict => "conflict",
            ErrorCode::NotConfigured => "not_configured",
            ErrorCode::JobRunning => "job_running",
            ErrorCode::LockdownRunning => "lockdown_running",
            ErrorCode::PreconditionFailed => "precondition_failed",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UriTooLong => "uri_too_long",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::HeadersTooLarge => "headers_too_large",
            ErrorCode::Internal => "internal",
            ErrorCode::PlatformError => "platform_error",
            ErrorCode::Busy => "busy",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::Other(code) => code,
        }
    }

    /// The code of `code` as sent; one this version does not know is
    /// [`ErrorCode::Other`].
    pub fn parse(code: &str) -> ErrorCode {
        ErrorCode::KNOWN
            .into_iter()
            .find(|known| known.as_str() == code)
            .unwrap_or_else(|| ErrorCode::Other(code.to_owned()))
    }

    /// The HTTP status this code is sent with (`None` for
    /// [`ErrorCode::Other`]).
    pub fn status(&self) -> Option<u16> {
        Some(match self {
            ErrorCode::InvalidRequest | ErrorCode::InvalidField => 400,
            ErrorCode::Unauthorized | ErrorCode::KeyExpired => 401,
            ErrorCode::PlanRequired | ErrorCode::PlanLimit => 402,
            ErrorCode::ScopeRequired | ErrorCode::Forbidden | ErrorCode::KeySuspended => 403,
            ErrorCode::NotFound | ErrorCode::NoLockdown => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::RequestTimeout => 408,
            ErrorCode::Conflict
            | ErrorCode::NotConfigured
            | ErrorCode::JobRunning
            | ErrorCode::LockdownRunning => 409,
            ErrorCode::PreconditionFailed => 412,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::UriTooLong => 414,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::RateLimited => 429,
            ErrorCode::HeadersTooLarge => 431,
            ErrorCode::Internal => 500,
            ErrorCode::PlatformError => 502,
            ErrorCode::Busy | ErrorCode::Unavailable => 503,
            ErrorCode::Other(_) => return None,
        })
    }

    /// The general code of an error status, for an answer that carries no
    /// code of its own (the daemon's fallback for errors produced below its
    /// handlers; a client's for a daemon older than codes).
    ///
    /// ```
    /// use modctl_types::ErrorCode;
    /// assert_eq!(ErrorCode::for_status(404), ErrorCode::NotFound);
    /// assert_eq!(ErrorCode::for_status(503), ErrorCode::Unavailable);
    /// assert_eq!(ErrorCode::for_status(418), ErrorCode::InvalidRequest);
    /// ```
    pub fn for_status(status: u16) -> ErrorCode {
        match status {
            401 => ErrorCode::Unauthorized,
            402 => ErrorCode::PlanRequired,
            403 => ErrorCode::Forbidden,
            404 => ErrorCode::NotFound,
            405 => ErrorCode::MethodNotAllowed,
            408 => ErrorCode::RequestTimeout,
            409 => ErrorCode::Conflict,
            412 => ErrorCode::PreconditionFailed,
            413 => ErrorCode::PayloadTooLarge,
            414 => ErrorCode::UriTooLong,
            415 => ErrorCode::UnsupportedMediaType,
            429 => ErrorCode::RateLimited,
            431 => ErrorCode::HeadersTooLarge,
            500 => ErrorCode::Internal,
            502 | 504 => ErrorCode::PlatformError,
            503 => ErrorCode::Unavailable,
            501..=599 => ErrorCode::Internal,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    /// Any string: one this version does not know is [`ErrorCode::Other`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(ErrorCode::parse(&code))
    }
}

/// A string, not an enum, in the OpenAPI document: a client generated from
/// it must accept codes added later.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let known: Vec<&str> = ErrorCode::KNOWN.iter().map(ErrorCode::as_str).collect();
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(format!(
                "What kind of error this is, for programs (the message is for people). \
                 New codes may be added in any release: treat a code you do not know by \
                 the response's status. Known codes: {}. `docs/api.md` (\"Error codes\") \
                 says the status and meaning of each.",
                known.join(", ")
            )))
            .examples(["not_found", "invalid_field"])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_code_reads_back_as_itself_with_one_status() {
        for code in ErrorCode::KNOWN {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).unwrap(), code);
            let status = code.status().unwrap();
            assert!((400..600).contains(&status), "{code}");
            assert!(
                code.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
        }
        let mut names: Vec<&str> = ErrorCode::KNOWN.iter().map(ErrorCode::as_str).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::KNOWN.len());
    }

    #[test]
    fn unknown_codes_are_kept_not_refused() {
        let body: ErrorBody =
            serde_json::from_str(r#"{"error":"x","code":"quota_exhausted","field":"a.b"}"#)
                .unwrap();
        assert_eq!(body.code, ErrorCode::Other("quota_exhausted".into()));
        assert_eq!(body.code.status(), None);
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({"error": "x", "code": "quota_exhausted", "field": "a.b"})
        );
    }
}
