//! The one error type of the HTTP API.
//!
//! Every failure a handler or extractor can produce is an [`ApiError`], and
//! every `ApiError` renders as `{"error": "<message>"}` with its status. Internal
//! errors are logged with their cause and answered with a generic message, so
//! nothing about the database or the code leaks to callers.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use modctl_types::ErrorBody;

use crate::moderation::ModerationError;
use crate::plans::PlanLimit;
use crate::store::StoreError;

/// An API error: a status and a message that says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is invalid.
    #[error("{0}")]
    BadRequest(String),
    /// 401: credentials are missing or invalid.
    #[error("{0}")]
    Unauthorized(String),
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
    /// 403: the key may not do this (scope, or a server of another team).
    #[error("{0}")]
    Forbidden(String),
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
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
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
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            ApiError::Internal(cause) => {
                tracing::error!(error = format!("{cause:#}"), "internal error");
                "internal error; the daemon's log has the details".to_owned()
            }
            other => other.to_string(),
        };
        let mut body = ErrorBody::new(message);
        if let ApiError::PaymentRequired(limit) = &self {
            body.required_plan = Some(limit.required_plan);
            body.limit = limit.limit;
        }
        let mut response = (status, Json(body)).into_response();
        match &self {
            ApiError::Unauthorized(_) => {
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
            StoreError::PreconditionFailed(m) => ApiError::PreconditionFailed(m),
            StoreError::PlanLimit(limit) => ApiError::PaymentRequired(limit),
            StoreError::Quota(quota) => ApiError::TooManyRequests {
                message: quota.message,
                retry_after: quota.retry_after,
            },
        }
    }
}

impl From<ModerationError> for ApiError {
    fn from(err: ModerationError) -> Self {
        match err {
            ModerationError::Invalid(m) => ApiError::BadRequest(m),
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
