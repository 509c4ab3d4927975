//! Community activity: events received from the platforms (Discord gateway,
//! Slack Events API, Telegram updates) or posted in batches, aggregated into
//! daily rollups for the community insights.
//!
//! Every source turns what it receives into [`ActivityEvent`]s, so the
//! aggregation does not know or care where an event came from.

use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;

/// One thing a member did, as a receiver decoded it from a platform (or a
/// batch). Never holds message content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityEvent {
    /// The server (the platform's id, as claimed) the event happened in.
    pub server_id: String,
    /// An id that identifies the event at its source (the batch's event id,
    /// the platform's message or update id), so an event received twice is
    /// counted once. `None` when the source has no stable id.
    pub event_id: Option<String>,
    /// What happened.
    pub kind: ActivityKind,
    /// The member, by the platform's user id.
    pub user_id: String,
    /// The channel, for messages and voice.
    pub channel_id: Option<String>,
    /// When it happened (for voice: when the session, or the part of it
    /// being reported, ended).
    pub at: Timestamp,
    /// Voice minutes; 0 for the other kinds.
    pub minutes: u32,
}
