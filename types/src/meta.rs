//! The API's own state: liveness and readiness, for load balancers and
//! service managers.

use serde::{Deserialize, Serialize};

/// Response of `GET /api/v1/health`: the daemon is up. Answered from memory,
/// without a key and without touching the database.
///
/// ```
/// let health: modctl_types::Health =
///     serde_json::from_str(r#"{"status":"ok","version":"0.1.0"}"#).unwrap();
/// assert_eq!(health.status, "ok");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    /// Always `ok`.
    pub status: String,
    /// The daemon's version, e.g. `0.1.0`.
    pub version: String,
}

/// Response of `GET /api/v1/ready`: the daemon can serve requests (its
/// database answers). A daemon that is not ready answers `503` instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Readiness {
    /// Always `ready`.
    pub status: String,
}
