//! The error body.

use serde::{Deserialize, Serialize};

use crate::Plan;

/// The JSON body of every non-2xx response: `{"error": "<what to fix>"}`.
///
/// A refusal for a plan limit (`402`) adds `required_plan` and, for a
/// numeric limit, `limit`; other errors carry neither (the fields are
/// additive: a client that reads only `error` keeps working).
///
/// ```
/// let body: modctl_types::ErrorBody = serde_json::from_str(r#"{"error":"unknown server"}"#).unwrap();
/// assert_eq!(body.error, "unknown server");
/// assert_eq!(body.required_plan, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A human-readable message that says what went wrong and what to fix.
    pub error: String,
    /// `402` only: the plan that allows the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_plan: Option<Plan>,
    /// `402` only, for a numeric limit: the limit of the team's current plan
    /// (e.g. `3` servers, `30` days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

impl ErrorBody {
    /// A body with only a message.
    pub fn new(error: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error: error.into(),
            ..ErrorBody::default()
        }
    }
}
