//! Extractors whose rejections speak our error body.
//!
//! axum's own `Json`, `Query` and `Path` reject with plain-text bodies; these
//! wrappers turn every rejection into an [`ApiError`] with the right status
//! (400 malformed, 413 too large, 415 not JSON) and a message that names what
//! to fix.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// The largest request body the daemon reads. Config envelopes are the biggest
/// bodies in the API and stay far below this.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// A JSON request body.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(
            "request body must be JSON: send `Content-Type: application/json`".into(),
        ),
        JsonRejection::JsonSyntaxError(e) => ApiError::BadRequest(format!(
            "request body is not valid JSON: {}",
            source_message(&e)
        )),
        JsonRejection::JsonDataError(e) => {
            ApiError::BadRequest(format!("invalid request body: {}", source_message(&e)))
        }
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(
            format!("request body is too large: the limit is {MAX_BODY_BYTES} bytes"),
        ),
        other => ApiError::BadRequest(format!("cannot read request body: {}", other.body_text())),
    }
}

/// serde_json's message without axum's "Failed to deserialize..." wrapper,
/// e.g. "user_id: invalid type: integer `5`, expected a string at line 1 column 13".
fn source_message(err: &dyn std::error::Error) -> String {
    let mut source = err;
    while let Some(next) = source.source() {
        source = next;
    }
    source.to_string()
}

/// Query string parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| ApiQuery(q.0))
            .map_err(|rejection: QueryRejection| {
                ApiError::BadRequest(format!(
                    "invalid query string: {}",
                    source_message(&rejection)
                ))
            })
    }
}

/// Path parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| ApiPath(p.0))
            .map_err(|rejection: PathRejection| {
                ApiError::BadRequest(format!("invalid path: {}", source_message(&rejection)))
            })
    }
}
