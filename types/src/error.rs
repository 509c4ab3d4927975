//! The error body.

use serde::{Deserialize, Serialize};

/// The JSON body of every non-2xx response: `{"error": "<what to fix>"}`.
///
/// ```
/// let body: modctl_types::ErrorBody = serde_json::from_str(r#"{"error":"unknown server"}"#).unwrap();
/// assert_eq!(body.error, "unknown server");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A human-readable message that says what went wrong and what to fix.
    pub error: String,
}
