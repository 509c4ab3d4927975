//! Why an action was refused or failed, in the moderation domain's own words;
//! [`crate::error`] maps each kind to an HTTP status at the edge.

use crate::store::StoreError;

/// An action that was not carried out.
#[derive(Debug, thiserror::Error)]
pub enum ModerationError {
    /// The request is invalid (nothing was recorded); the message says what to fix.
    #[error("{0}")]
    Invalid(String),
    /// A field of the request is invalid (nothing was recorded): the body
    /// field, or `Idempotency-Key`, and what to fix.
    #[error("{message}")]
    InvalidField {
        /// The field, as the API names it.
        field: &'static str,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The request conflicts with the member's state or with another request
    /// (nothing was recorded).
    #[error("{0}")]
    Conflict(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The task carrying the action out panicked (a bug; logged).
    #[error("the action's task failed: {0}")]
    Task(String),
    /// The daemon's shutdown deadline passed while the action was being
    /// carried out: its case is left pending, and the next start settles
    /// it by asking the platform.
    #[error(
        "the daemon stopped before the action finished: its case is left pending and settled when the daemon starts again"
    )]
    Abandoned,
}

/// Result of the moderation domain.
pub type ModerationResult<T> = Result<T, ModerationError>;
