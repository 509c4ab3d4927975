//! Outbound webhooks (issue #11): the event a receiver gets, and the
//! delivery log the API shows.
//!
//! An event's body is [`Event`]; its `data` holds the same resource shape the
//! API returns for it (a `case_created` event holds the case as
//! `GET /servers/{id}/cases/{case_id}` shows it, a `config_changed` event an
//! entry of the config audit trail, a `jail_changed` event a [`JailChange`]
//! around the jail as `GET /servers/{id}/jails` lists it).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

pub use crate::config::WebhookEvent;
use crate::moderation::{CaseSource, JailRecord};

/// The JSON body of one delivery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Event {
    /// `evt_...`; also the `webhook-id` header, the same on every retry.
    pub id: String,
    /// The kind.
    #[serde(rename = "type")]
    pub kind: WebhookEvent,
    /// When the change happened.
    pub created_at: Timestamp,
    /// The server.
    pub server_id: String,
    /// The resource, as the API shows it.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: serde_json::Value,
}

/// Whether a jail began or ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum JailTransition {
    /// The member was jailed.
    Started,
    /// The member was released: unjailed, or the jail's time was up.
    Ended,
}

/// `data` of a `jail_changed` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JailChange {
    /// Started or ended.
    pub change: JailTransition,
    /// The case that made the change: the jail, the unjail, or the expiry
    /// case recorded when a timed jail ended.
    pub case_id: i64,
    /// How that case came about: `api`, `escalation` or `expiry`.
    pub source: CaseSource,
    /// Why: the reason of that case (for an expiry, `jail of case N ended`).
    pub reason: Option<String>,
    /// The jail, as `GET /servers/{id}/jails` lists it (for an ended jail,
    /// as it was until it ended).
    pub jail: JailRecord,
}

/// Where a delivery is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    /// Waiting for its next attempt.
    Pending,
    /// The endpoint answered 2xx.
    Delivered,
    /// Every attempt failed.
    Failed,
    /// The endpoint answered 410 Gone: webhooks were turned off.
    Disabled,
}

impl DeliveryState {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Pending => "pending",
            DeliveryState::Delivered => "delivered",
            DeliveryState::Failed => "failed",
            DeliveryState::Disabled => "disabled",
        }
    }
}

impl std::str::FromStr for DeliveryState {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "pending" => DeliveryState::Pending,
            "delivered" => DeliveryState::Delivered,
            "failed" => DeliveryState::Failed,
            "disabled" => DeliveryState::Disabled,
            _ => {
                return Err(format!(
                    "unknown delivery state `{s}`: use pending, delivered, failed or disabled"
                ));
            }
        })
    }
}

/// One event to one endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Delivery {
    /// The delivery id.
    pub id: i64,
    /// The event delivered.
    pub event_id: String,
    /// The event's kind.
    pub kind: WebhookEvent,
    /// Where it goes.
    pub url: String,
    /// Where it is.
    pub state: DeliveryState,
    /// Attempts made so far.
    pub attempts: u32,
    /// HTTP status of the last attempt, if it got an answer.
    pub last_status: Option<u16>,
    /// What went wrong in the last attempt.
    pub last_error: Option<String>,
    /// When the next attempt is due (pending only).
    pub next_attempt_at: Option<Timestamp>,
    /// When the event was written.
    pub created_at: Timestamp,
}

/// One attempt of a delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attempt {
    /// 1 for the first attempt.
    pub attempt: u32,
    /// When it was made.
    pub at: Timestamp,
    /// The HTTP status, if the endpoint answered.
    pub status: Option<u16>,
    /// What went wrong, if it failed.
    pub error: Option<String>,
    /// How long it took.
    pub duration_ms: u64,
}

/// Response of `GET /servers/{id}/webhooks/deliveries/{delivery_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeliveryDetail {
    /// The delivery.
    #[serde(flatten)]
    pub delivery: Delivery,
    /// Every attempt, oldest first.
    pub history: Vec<Attempt>,
}

/// Response of `GET /servers/{id}/webhooks/deliveries`, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeliveryList {
    /// The deliveries.
    pub deliveries: Vec<Delivery>,
    /// Pass as `before` to get the next (older) page; `null` on the last page.
    pub next_before: Option<i64>,
}

/// Response of `POST /servers/{id}/webhooks/test` (202).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Enqueued {
    /// The event written.
    pub event_id: String,
    /// Its delivery.
    pub delivery_id: i64,
}

/// Response of `POST /servers/{id}/webhooks/secret`: the new secret, shown
/// this once.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookSecret {
    /// `whsec_<base64>`: the base64 part, decoded, is the HMAC key.
    pub secret: String,
}

impl std::fmt::Debug for WebhookSecret {
    // Never printed, not even in a test failure.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookSecret { secret: <redacted> }")
    }
}

/// `data` of an `antinuke_triggered` event (issue #26): who antinuke
/// stopped, why, and what it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AntinukeTriggered {
    /// The member (Discord, Telegram, Slack), `key:<key_id>` for an API
    /// key, or `unknown` for a Slack channel deletion (Slack names no one).
    pub executor_id: String,
    /// What set it off, e.g. `3 channel deletions within a minute (limit 2)`
    /// or `a webhook created`.
    pub trigger: String,
    /// The platform's ids of the entries counted (Discord audit log
    /// entries, Telegram `ban:<user>:<update id>`, Slack event ids),
    /// oldest first.
    pub entries: Vec<String>,
    /// What was done: `strip_roles`, `kick`, `ban`, `suspend_key`, `demote`
    /// or `alert`.
    pub action: String,
    /// Its case, when one was recorded.
    pub case_id: Option<i64>,
    /// What came of it (`done`, or why not).
    pub outcome: String,
}
