//! Community activity: what members do on a platform, as the daemon counts it.
//!
//! Only counts are kept: an event says *that* someone wrote in a channel,
//! joined or spent minutes in voice, never what they wrote.

use serde::{Deserialize, Serialize};

/// What kind of activity an event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ActivityKind {
    /// A member posted a message (bots and system messages are not counted).
    Message,
    /// A member spent `minutes` in a voice channel.
    Voice,
    /// A member joined the server.
    Join,
    /// A member left the server.
    Leave,
}

impl ActivityKind {
    /// Every kind, in the order listings show them.
    pub const ALL: [ActivityKind; 4] = [
        ActivityKind::Message,
        ActivityKind::Voice,
        ActivityKind::Join,
        ActivityKind::Leave,
    ];

    /// The wire name (`message`, `voice`, `join`, `leave`).
    pub fn as_str(self) -> &'static str {
        match self {
            ActivityKind::Message => "message",
            ActivityKind::Voice => "voice",
            ActivityKind::Join => "join",
            ActivityKind::Leave => "leave",
        }
    }
}
