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

use std::collections::BTreeMap;

use jiff::Timestamp;
use jiff::civil::Date;

/// The most events one `POST /servers/{id}/activity` takes.
pub const MAX_BATCH_EVENTS: usize = 10_000;
/// The longest event id a batch may carry, in bytes.
pub const MAX_EVENT_ID_BYTES: usize = 200;
/// The most voice minutes one event may report (a day).
pub const MAX_VOICE_MINUTES: u32 = 1440;

/// Body of `POST /servers/{id}/activity`: events from a bot or an importer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ActivityBatch {
    /// 1 to 10,000 events.
    pub events: Vec<BatchEvent>,
}

/// One event of a batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BatchEvent {
    /// Unique per server at the source (1 to 200 bytes): an event whose id
    /// was already counted is skipped, so a retried batch counts once.
    pub id: String,
    /// What happened.
    pub kind: ActivityKind,
    /// The member, by the platform's user id.
    pub user_id: String,
    /// The channel: required for `message` and `voice`, ignored otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_id: Option<String>,
    /// When it happened (for `voice`, when the minutes ended).
    pub at: Timestamp,
    /// Voice minutes, 1 to 1440: required for `voice`, absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1440))]
    pub minutes: Option<u32>,
}

/// Answer of `POST /servers/{id}/activity`: the batch is stored (durably)
/// when this is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchReceipt {
    /// Events counted now.
    pub counted: u64,
    /// Events skipped because their id was already counted (by an earlier
    /// batch, or earlier in this one).
    pub duplicates: u64,
}

/// The window of an insights answer: every day from `from` to `to`
/// (inclusive) in the server's time zone, today last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Window {
    /// Days in the window.
    pub days: u32,
    /// The first day.
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub from: Date,
    /// The last day (today).
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub to: Date,
    /// The server's `general.timezone`, in which days are counted.
    pub timezone: String,
}

/// Answer of `GET /servers/{id}/community-insights`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommunityInsights {
    /// The server.
    pub server_id: String,
    /// The days covered.
    pub window: Window,
    /// Every day of the window, oldest first, zeros included.
    pub daily: Vec<ActivityDay>,
    /// Totals over the window.
    pub totals: ActivityTotals,
    /// Totals over the period of the same length just before the window.
    pub previous: ActivityTotals,
    /// Change of each total against `previous`, in percent; `null` when the
    /// previous total was 0.
    pub change: ActivityChange,
    /// Channels with the most messages in the window (up to 10).
    pub top_channels_by_messages: Vec<Ranked>,
    /// Channels with the most voice minutes in the window (up to 10).
    pub top_channels_by_voice: Vec<Ranked>,
    /// Members with the most messages in the window (up to 10).
    pub top_members_by_messages: Vec<Ranked>,
    /// Members with the most voice minutes in the window (up to 10).
    pub top_members_by_voice: Vec<Ranked>,
    /// The time of the newest event received (`null`: none yet).
    pub last_event_at: Option<Timestamp>,
    /// When the daemon last stored activity of this server.
    pub last_received_at: Option<Timestamp>,
}

/// One day of community activity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActivityDay {
    /// The day, in the server's time zone.
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub date: Date,
    /// Messages posted.
    pub messages: u64,
    /// Distinct members who posted or spent minutes in voice.
    pub active_members: u64,
    /// Minutes spent in voice.
    pub voice_minutes: u64,
    /// Members who joined.
    pub joins: u64,
    /// Members who left.
    pub leaves: u64,
}

/// Totals of community activity over a period.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActivityTotals {
    /// Messages posted.
    pub messages: u64,
    /// Mean of the daily active members, to one decimal.
    pub average_active_members: f64,
    /// Minutes spent in voice.
    pub voice_minutes: u64,
    /// Members who joined.
    pub joins: u64,
    /// Members who left.
    pub leaves: u64,
}

/// Change of each total against the previous period, in percent (one
/// decimal); `null` when the previous period's total was 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActivityChange {
    /// Of `messages`.
    pub messages: Option<f64>,
    /// Of `average_active_members`.
    pub average_active_members: Option<f64>,
    /// Of `voice_minutes`.
    pub voice_minutes: Option<f64>,
    /// Of `joins`.
    pub joins: Option<f64>,
    /// Of `leaves`.
    pub leaves: Option<f64>,
}

/// An entry of a top list: a channel or member id and its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Ranked {
    /// The channel or member id.
    pub id: String,
    /// Its messages, voice minutes or cases, as the list says.
    pub count: u64,
    /// A name for people beside the id, when the daemon knows one (additive,
    /// issue #27): the channel's or member's name as the daemon last saw it;
    /// in `top_moderators`, the display name of the moderator's key
    /// (`modctld key create --name`). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Answer of `GET /servers/{id}/insights`: moderation insights from the cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModerationInsights {
    /// The server.
    pub server_id: String,
    /// The days covered.
    pub window: Window,
    /// Every day of the window, oldest first, zeros included.
    pub daily: Vec<CaseDay>,
    /// Totals over the window.
    pub totals: CaseTotals,
    /// Cases in the period of the same length just before the window.
    pub previous_cases: u64,
    /// Change of `totals.cases` against `previous_cases`, in percent;
    /// `null` when there were none before.
    pub change: Option<f64>,
    /// Cases per moderator (the case's actor) in the window, most first (up to 10).
    pub top_moderators: Vec<Ranked>,
    /// Members with two cases or more in the window, most first (up to 10).
    pub top_repeat_targets: Vec<Ranked>,
    /// Strikes in force now, summed over members (as `GET /strikes` counts them).
    pub active_strikes: u64,
    /// Members jailed now.
    pub active_jails: u64,
}

/// One day of cases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseDay {
    /// The day, in the server's time zone.
    #[cfg_attr(feature = "openapi", schema(value_type = String, format = Date))]
    pub date: Date,
    /// Cases recorded.
    pub cases: u64,
    /// Of them, applied on the platform.
    pub applied: u64,
    /// Of them, not applied (refused, failed, or still pending).
    pub not_applied: u64,
    /// Cases by action (`warn`, `ban`, ...); actions without cases left out.
    pub by_action: BTreeMap<String, u64>,
    /// Cases by source (`api`, `escalation`, `expiry`, `automod`); sources without
    /// cases left out.
    pub by_source: BTreeMap<String, u64>,
}

/// Totals of cases over the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CaseTotals {
    /// Cases recorded.
    pub cases: u64,
    /// Of them, applied on the platform.
    pub applied: u64,
    /// Of them, not applied.
    pub not_applied: u64,
    /// Cases by action.
    pub by_action: BTreeMap<String, u64>,
    /// Cases by source.
    pub by_source: BTreeMap<String, u64>,
    /// Cases the escalation ladder recorded (source `escalation`).
    pub escalations: u64,
}
