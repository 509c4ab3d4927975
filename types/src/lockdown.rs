//! Raid lockdowns (issue #26): `POST`, `DELETE` and `GET
//! /servers/{id}/lockdown`, and the `lockdown_started` / `lockdown_ended`
//! webhook events.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// The longest lockdown, in minutes: a day, as `antinuke.lockdown_minutes`
/// allows, and Discord's cap on `invites_disabled_until` (24 hours ahead,
/// "Modify Guild Incident Actions").
pub const MAX_MINUTES: u32 = 1440;

/// A lockdown of a server, running or ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Lockdown {
    /// Its number on the daemon (increasing).
    pub id: i64,
    /// When it started.
    pub started_at: Timestamp,
    /// When it ends (or ended) by itself.
    pub ends_at: Timestamp,
    /// Who started it: `automatic` (more joins in a minute than
    /// `antinuke.max_joins_per_minute`), or the key (`key:<key_id>`) or
    /// operator that did.
    pub started_by: String,
    /// Why it started.
    pub why: String,
    /// When it ended; `null` while it runs.
    pub ended_at: Option<Timestamp>,
    /// Who ended it: `expired` when its time was up, else the key.
    pub ended_by: Option<String>,
    /// What the platform did at the start (invites paused, the invite link
    /// replaced, an alert only), or why it could not; `null` until the
    /// platform was asked.
    pub start_outcome: Option<String>,
    /// What the platform did at the end; `null` until then.
    pub end_outcome: Option<String>,
    /// Members who joined during it and were timed out or restricted until
    /// its end.
    pub members_held: u32,
    /// Members the platform refused to time out or restrict.
    pub members_failed: u32,
}

/// Response of `GET /servers/{id}/lockdown`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LockdownStatus {
    /// The running lockdown; `null` when none runs.
    pub current: Option<Lockdown>,
    /// The latest lockdown that ended, if any.
    pub last: Option<Lockdown>,
}

/// Body of `POST /servers/{id}/lockdown`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StartLockdown {
    /// How long, 1 to 1440 minutes; left out: `antinuke.lockdown_minutes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Why (shown in the log post and the webhook event), at most 512
    /// characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `data` of the `lockdown_started` and `lockdown_ended` webhook events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LockdownEvent {
    /// The lockdown as it is now (ended: with `ended_at` and `ended_by`).
    pub lockdown: Lockdown,
}
