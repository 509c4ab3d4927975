//! The one error type of the HTTP API.
//!
//! Every failure a handler or extractor can produce is an [`ApiError`], and
//! every `ApiError` renders as `{"error": "<message>", "code": "<code>"}` with
//! its status (and `field` when [`ApiError::at`] named one). Internal
//! errors are logged with their cause and answered with a generic message, so
//! nothing about the database or the code leaks to callers.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use modctl_types::{ErrorBody, ErrorCode};

use crate::moderation::ModerationError;
use crate::plans::PlanLimit;
use crate::store::StoreError;

/// An API error: a status and a message that says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is invalid (`invalid_request`; `invalid_field` once
    /// [`ApiError::at`] names the field).
    #[error("{0}")]
    BadRequest(String),
    /// 401: credentials are missing or invalid.
    #[error("{0}")]
    Unauthorized(String),
    /// 401: the API key has expired (`key_expired`).
    #[error("{0}")]
    KeyExpired(String),
    /// 402: the team's plan does not allow the request (see [`crate::plans`]).
    #[error(transparent)]
    PaymentRequired(#[from] PlanLimit),
    /// 429: the key (or the client address) made too many requests; retry
    /// after this many seconds.
    #[error("{message}")]
    TooManyRequests {
        /// What happened and when to retry.
        message: String,
        /// Seconds until a request will be accepted again.
        retry_after: u64,
    },
    /// 403: the server belongs to another team.
    #[error("{0}")]
    Forbidden(String),
    /// 403: antinuke suspended the key (`key_suspended`).
    #[error("{0}")]
    KeySuspended(String),
    /// 403: the key lacks the scope the endpoint needs (`scope_required`).
    #[error("{0}")]
    ScopeRequired(String),
    /// 404: the resource does not exist.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists but not with this method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 408: the request body did not arrive in time.
    #[error("{0}")]
    RequestTimeout(String),
    /// 409: the request conflicts with the current state.
    #[error("{0}")]
    Conflict(String),
    /// 409: the server's config lacks what the request needs
    /// (`not_configured`).
    #[error("{0}")]
    NotConfigured(String),
    /// 409: a job of the server is still running (`job_running`).
    #[error("{0}")]
    JobRunning(String),
    /// 409: a raid lockdown already runs on the server (`lockdown_running`).
    #[error("{0}")]
    LockdownRunning(String),
    /// 404: no raid lockdown runs on the server (`no_lockdown`).
    #[error("{0}")]
    NoLockdown(String),
    /// 412: an `If-Match` precondition failed.
    #[error("{0}")]
    PreconditionFailed(String),
    /// 413: the body is larger than the daemon accepts.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 414: the request target (path and query) is longer than the daemon accepts.
    #[error("{0}")]
    UriTooLong(String),
    /// 415: the body is not JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 431: the request headers are larger than the daemon accepts.
    #[error("{0}")]
    HeadersTooLarge(String),
    /// 502: the platform refused or failed a call the request depends on.
    #[error("{0}")]
    BadGateway(String),
    /// 503: the daemon cannot serve requests now (its database does not answer).
    #[error("{0}")]
    ServiceUnavailable(String),
    /// 503: the daemon cannot serve this request yet; retry after this many
    /// seconds.
    #[error("{message}")]
    RetryLater {
        /// What is under way and when to retry.
        message: String,
        /// Seconds until the request is likely to be served.
        retry_after: u64,
    },
    /// 500: a bug or an infrastructure failure; the cause is logged, not shown.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
    /// `error` about `field` (see [`ApiError::at`]).
    #[error("{error}")]
    AtField {
        /// The body field (JSON path), query parameter, header or path
        /// parameter (`{id}`) the error is about.
        field: String,
        /// The error.
        error: Box<ApiError>,
    },
}

impl ApiError {
    /// A `400` about `field`: `invalid_field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest(message.into()).at(field)
    }

    /// This error, about `field`: a JSON path into the body
    /// (`automod.spam.max_messages`, `events[3].at`), a query parameter
    /// (`limit`), a header (`Idempotency-Key`) or a path parameter in braces
    /// (`{id}`). A `400` becomes `invalid_field`; a `404` keeps `not_found`
    /// and names the parameter whose value was not found. Only those two
    /// carry a field (`docs/api.md`, "Error codes"; the e2e tests check it).
    pub fn at(self, field: impl Into<String>) -> ApiError {
        let error = match self {
            ApiError::AtField { error, .. } => error,
            other => Box::new(other),
        };
        ApiError::AtField {
            field: field.into(),
            error,
        }
    }

    /// The field this error is about, if it names one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ApiError::AtField { field, .. } => Some(field),
            _ => None,
        }
    }

    /// The machine-readable code of this error (see `docs/api.md`, "Error
    /// codes").
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::BadRequest(_) => ErrorCode::InvalidRequest,
            ApiError::Unauthorized(_) => ErrorCode::Unauthorized,
            ApiError::KeyExpired(_) => ErrorCode::KeyExpired,
            ApiError::PaymentRequired(limit) if limit.limit.is_some() => ErrorCode::PlanLimit,
            ApiError::PaymentRequired(_) => ErrorCode::PlanRequired,
            ApiError::TooManyRequests { .. } => ErrorCode::RateLimited,
            ApiError::Forbidden(_) => ErrorCode::Forbidden,
            ApiError::KeySuspended(_) => ErrorCode::KeySuspended,
            ApiError::ScopeRequired(_) => ErrorCode::ScopeRequired,
            ApiError::NotFound(_) => ErrorCode::NotFound,
            ApiError::MethodNotAllowed(_) => ErrorCode::MethodNotAllowed,
            ApiError::RequestTimeout(_) => ErrorCode::RequestTimeout,
            ApiError::Conflict(_) => ErrorCode::Conflict,
            ApiError::NotConfigured(_) => ErrorCode::NotConfigured,
            ApiError::JobRunning(_) => ErrorCode::JobRunning,
            ApiError::LockdownRunning(_) => ErrorCode::LockdownRunning,
            ApiError::NoLockdown(_) => ErrorCode::NoLockdown,
            ApiError::PreconditionFailed(_) => ErrorCode::PreconditionFailed,
            ApiError::PayloadTooLarge(_) => ErrorCode::PayloadTooLarge,
            ApiError::UriTooLong(_) => ErrorCode::UriTooLong,
            ApiError::UnsupportedMediaType(_) => ErrorCode::UnsupportedMediaType,
            ApiError::HeadersTooLarge(_) => ErrorCode::HeadersTooLarge,
            ApiError::BadGateway(_) => ErrorCode::PlatformError,
            ApiError::ServiceUnavailable(_) => ErrorCode::Unavailable,
            ApiError::RetryLater { .. } => ErrorCode::Busy,
            ApiError::Internal(_) => ErrorCode::Internal,
            ApiError::AtField { error, .. } => match error.code() {
                ErrorCode::InvalidRequest => ErrorCode::InvalidField,
                other => other,
            },
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) | ApiError::KeyExpired(_) => StatusCode::UNAUTHORIZED,
            ApiError::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Forbidden(_) | ApiError::ScopeRequired(_) | ApiError::KeySuspended(_) => {
                StatusCode::FORBIDDEN
            }
            ApiError::NotFound(_) | ApiError::NoLockdown(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict(_)
            | ApiError::NotConfigured(_)
            | ApiError::JobRunning(_)
            | ApiError::LockdownRunning(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::ServiceUnavailable(_) | ApiError::RetryLater { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::AtField { error, .. } => error.status(),
        }
    }

    /// The error under any [`ApiError::AtField`].
    fn inner(&self) -> &ApiError {
        match self {
            ApiError::AtField { error, .. } => error.inner(),
            other => other,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match self.inner() {
            ApiError::Internal(cause) => {
                tracing::error!(error = format!("{cause:#}"), "internal error");
                "internal error; the daemon's log has the details".to_owned()
            }
            other => other.to_string(),
        };
        let mut body = ErrorBody::coded(self.code(), message);
        body.field = self.field().map(str::to_owned);
        body.request_id = crate::request_id::current();
        if let ApiError::PaymentRequired(limit) = self.inner() {
            body.required_plan = Some(limit.required_plan);
            body.limit = limit.limit;
        }
        let mut response = (status, Json(body)).into_response();
        match self.inner() {
            ApiError::Unauthorized(_) | ApiError::KeyExpired(_) => {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::TooManyRequests { retry_after, .. }
            | ApiError::RetryLater { retry_after, .. } => {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
            }
            _ => {}
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            // Every write checks its preconditions inside its transaction, so a
            // constraint only fails when two requests raced for the same row:
            // the loser is told to retry, and it is never a 500.
            StoreError::Database(e) if e.is_constraint_violation() => {
                tracing::warn!(error = %e, "a concurrent change won the race");
                ApiError::Conflict(
                    "the request conflicts with a change made at the same time: read the current state and retry"
                        .into(),
                )
            }
            StoreError::Database(e) => ApiError::Internal(e.into()),
            e @ StoreError::Corrupt(_) => ApiError::Internal(e.into()),
            StoreError::Conflict(m) => ApiError::Conflict(m),
            StoreError::NotFound(m) => ApiError::NotFound(m),
            StoreError::Invalid(m) => ApiError::BadRequest(m),
        }
    }
}

impl From<crate::activity::batches::BatchError> for ApiError {
    fn from(err: crate::activity::batches::BatchError) -> Self {
        use crate::activity::batches::BatchError;
        match err {
            BatchError::Quota(quota) => ApiError::TooManyRequests {
                message: quota.message,
                retry_after: quota.retry_after,
            },
            BatchError::Store(e) => e.into(),
        }
    }
}

impl From<crate::config::ApplyError> for ApiError {
    fn from(err: crate::config::ApplyError) -> Self {
        use crate::config::ApplyError;
        match err {
            ApplyError::Stale(m) => ApiError::PreconditionFailed(m),
            ApplyError::Plan(limit) => ApiError::PaymentRequired(limit),
            ApplyError::Store(e) => e.into(),
        }
    }
}

impl From<ModerationError> for ApiError {
    fn from(err: ModerationError) -> Self {
        match err {
            ModerationError::Invalid(m) => ApiError::BadRequest(m),
            ModerationError::InvalidField { field, message } => ApiError::invalid(field, message),
            ModerationError::Conflict(m) => ApiError::Conflict(m),
            ModerationError::Store(e) => e.into(),
            e @ ModerationError::Task(_) => ApiError::Internal(e.into()),
            e @ ModerationError::Abandoned => ApiError::ServiceUnavailable(e.to_string()),
        }
    }
}

impl From<crate::snapshots::CaptureError> for ApiError {
    fn from(err: crate::snapshots::CaptureError) -> Self {
        use crate::snapshots::CaptureError;
        match err {
            e @ CaptureError::NotConnected(_) => ApiError::Conflict(e.to_string()),
            e @ CaptureError::Platform { .. } => ApiError::BadGateway(e.to_string()),
            CaptureError::Store(e) => e.into(),
        }
    }
}

/// Result type of handlers.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constraint_lost_to_a_concurrent_write_is_a_409_not_a_500() {
        let error = ApiError::from(crate::store::testing::constraint_violation());
        assert_eq!(error.status(), StatusCode::CONFLICT, "{error}");
        assert!(error.to_string().contains("retry"), "{error}");

        assert_eq!(
            ApiError::from(crate::store::testing::other_failure()).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }
}

#[cfg(test)]
mod code_tests {
    use super::*;

    async fn body(error: ApiError) -> (StatusCode, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn every_error_has_a_code_and_a_field_when_named() {
        let (status, json) = body(ApiError::invalid("limit", "limit must be 1 to 200")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            json,
            serde_json::json!({"error": "limit must be 1 to 200", "code": "invalid_field", "field": "limit"})
        );
        let (status, json) = body(ApiError::NotFound("no".into()).at("{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(json["code"], "not_found");
        assert_eq!(json["field"], "{id}");
        let (_, json) = body(ApiError::BadRequest("not JSON".into())).await;
        assert_eq!(
            json,
            serde_json::json!({"error": "not JSON", "code": "invalid_request"})
        );
        // A field named twice keeps the last, with one layer.
        let twice = ApiError::invalid("a", "x").at("b");
        assert_eq!(
            (twice.field(), twice.code()),
            (Some("b"), ErrorCode::InvalidField)
        );
        for (error, code) in [
            (ApiError::KeyExpired("x".into()), "key_expired"),
            (ApiError::ScopeRequired("x".into()), "scope_required"),
            (ApiError::JobRunning("x".into()), "job_running"),
            (ApiError::LockdownRunning("x".into()), "lockdown_running"),
            (ApiError::NoLockdown("x".into()), "no_lockdown"),
            (ApiError::NotConfigured("x".into()), "not_configured"),
            (
                ApiError::RetryLater {
                    message: "x".into(),
                    retry_after: 1,
                },
                "busy",
            ),
            (ApiError::ServiceUnavailable("x".into()), "unavailable"),
            (ApiError::BadGateway("x".into()), "platform_error"),
            (
                ApiError::Internal(anyhow::anyhow!("secret cause")),
                "internal",
            ),
        ] {
            let status = error.status();
            let (answered, json) = body(error).await;
            assert_eq!(answered, status);
            assert_eq!(json["code"], code);
            assert_eq!(
                ErrorCode::parse(code).status(),
                Some(status.as_u16()),
                "{code}"
            );
        }
    }
}
