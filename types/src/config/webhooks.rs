//! The `webhooks` section: where events go, which kinds, and the signing
//! secret, which is write-only (see [`SecretUpdate`]). Apart from the other
//! sections because of that secret's own (de)serialization.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Kinds of webhook events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WebhookEvent {
    /// A case was recorded.
    CaseCreated,
    /// The config changed.
    ConfigChanged,
    /// A member was jailed or unjailed.
    JailChanged,
    /// A structure snapshot was captured.
    SnapshotCaptured,
    /// A restore job finished.
    SnapshotRestored,
    /// A test event (`POST /webhooks/test`).
    Test,
    /// A raid lockdown started (issue #26).
    LockdownStarted,
    /// A raid lockdown ended.
    LockdownEnded,
    /// Antinuke stopped someone (issue #26): who, why, what was done.
    AntinukeTriggered,
    /// A case was corrected (its reason edited, or voided) or a member's
    /// strikes cleared (issue #27): the correction, and the case as it is now.
    CaseCorrected,
}

impl WebhookEvent {
    /// Every kind, in the order documentation lists them.
    pub const ALL: [WebhookEvent; 10] = [
        WebhookEvent::CaseCreated,
        WebhookEvent::ConfigChanged,
        WebhookEvent::JailChanged,
        WebhookEvent::SnapshotCaptured,
        WebhookEvent::SnapshotRestored,
        WebhookEvent::Test,
        WebhookEvent::LockdownStarted,
        WebhookEvent::LockdownEnded,
        WebhookEvent::AntinukeTriggered,
        WebhookEvent::CaseCorrected,
    ];

    /// The name stored and shown (the event's `type`).
    pub fn as_str(self) -> &'static str {
        match self {
            WebhookEvent::CaseCreated => "case_created",
            WebhookEvent::ConfigChanged => "config_changed",
            WebhookEvent::JailChanged => "jail_changed",
            WebhookEvent::SnapshotCaptured => "snapshot_captured",
            WebhookEvent::SnapshotRestored => "snapshot_restored",
            WebhookEvent::Test => "test",
            WebhookEvent::LockdownStarted => "lockdown_started",
            WebhookEvent::LockdownEnded => "lockdown_ended",
            WebhookEvent::AntinukeTriggered => "antinuke_triggered",
            WebhookEvent::CaseCorrected => "case_corrected",
        }
    }
}

impl std::str::FromStr for WebhookEvent {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "case_created" => WebhookEvent::CaseCreated,
            "config_changed" => WebhookEvent::ConfigChanged,
            "jail_changed" => WebhookEvent::JailChanged,
            "snapshot_captured" => WebhookEvent::SnapshotCaptured,
            "snapshot_restored" => WebhookEvent::SnapshotRestored,
            "test" => WebhookEvent::Test,
            "lockdown_started" => WebhookEvent::LockdownStarted,
            "lockdown_ended" => WebhookEvent::LockdownEnded,
            "antinuke_triggered" => WebhookEvent::AntinukeTriggered,
            "case_corrected" => WebhookEvent::CaseCorrected,
            _ => {
                return Err(format!(
                    "unknown event kind `{s}`: use case_created, config_changed, jail_changed, snapshot_captured, snapshot_restored, test, lockdown_started, lockdown_ended, antinuke_triggered or case_corrected"
                ));
            }
        })
    }
}

/// `webhooks`: where events are delivered and how they are signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Webhooks {
    /// Whether events are delivered.
    pub enabled: bool,
    /// The endpoint: `https://`, or `http://` to a loopback host for testing.
    pub url: Option<String>,
    /// Event kinds delivered; empty = all.
    pub events: Vec<WebhookEvent>,
    /// The signing secret, **write-only**: never returned. In a `PUT` body,
    /// leave it out to keep the stored one, send a Standard Webhooks
    /// secret (`whsec_` and the base64 of 24 to 64 bytes, see
    /// [`crate::signing`]) to replace it, or `null` to remove it.
    #[serde(skip_serializing_if = "SecretUpdate::is_keep")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            value_type = Option<String>,
            write_only,
            pattern = "^whsec_[A-Za-z0-9+/]+={0,2}$"
        )
    )]
    pub secret: SecretUpdate,
    /// Read-only: whether a signing secret is stored. Ignored on input.
    #[cfg_attr(feature = "openapi", schema(read_only))]
    pub secret_set: bool,
    /// Read-only: why the daemon turned webhooks off (the endpoint answered
    /// 410 Gone), until they are enabled again. Ignored on input.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(read_only))]
    pub disabled_reason: Option<String>,
}

impl Default for Webhooks {
    fn default() -> Self {
        Webhooks {
            enabled: false,
            url: None,
            events: Vec::new(),
            secret: SecretUpdate::Keep,
            secret_set: false,
            disabled_reason: None,
        }
    }
}

/// A change to a write-only secret.
#[derive(Clone, PartialEq, Eq, Default)]
pub enum SecretUpdate {
    /// Field absent: keep the stored secret.
    #[default]
    Keep,
    /// `null`: remove it.
    Clear,
    /// A string: store this one.
    Set(String),
}

impl SecretUpdate {
    /// Whether this leaves the stored secret alone.
    pub fn is_keep(&self) -> bool {
        matches!(self, SecretUpdate::Keep)
    }
}

impl std::fmt::Debug for SecretUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretUpdate::Keep => f.write_str("Keep"),
            SecretUpdate::Clear => f.write_str("Clear"),
            SecretUpdate::Set(_) => f.write_str("Set(<redacted>)"),
        }
    }
}

impl Serialize for SecretUpdate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Only request bodies carry secrets; responses skip the field (`Keep`).
        match self {
            SecretUpdate::Keep | SecretUpdate::Clear => serializer.serialize_none(),
            SecretUpdate::Set(secret) => serializer.serialize_str(secret),
        }
    }
}

impl<'de> Deserialize<'de> for SecretUpdate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Reached only when the field is present; absence is `Keep` via `default`.
        Ok(match Option::<String>::deserialize(deserializer)? {
            None => SecretUpdate::Clear,
            Some(secret) => SecretUpdate::Set(secret),
        })
    }
}
