//! API keys, scopes and teams as seen through `GET /api/v1/me`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// How many characters a key id has (`mdk_<key_id>_<secret>`): shared by
/// the daemon, which makes and parses keys, and the config's validation,
/// which accepts `key:<key_id>` where an actor may be named.
pub const KEY_ID_LEN: usize = 12;
/// The characters a key id is made of.
pub const KEY_ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Whether `key_id` has the shape of a key id.
///
/// ```
/// assert!(modctl_types::auth::is_key_id("0r4ae0bn1txt"));
/// assert!(!modctl_types::auth::is_key_id("0R4AE0BN1TXT"));
/// ```
pub fn is_key_id(key_id: &str) -> bool {
    key_id.len() == KEY_ID_LEN && key_id.bytes().all(|b| KEY_ID_ALPHABET.contains(&b))
}

/// What a key may do. `write` implies `read`.
///
/// ```
/// use modctl_types::Scope;
/// assert_eq!("write".parse::<Scope>().unwrap(), Scope::Write);
/// assert!(Scope::Write.covers(Scope::Read));
/// assert!(!Scope::Read.covers(Scope::Write));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Scope {
    /// Read-only endpoints (`GET`).
    Read,
    /// Endpoints that change state; implies [`Scope::Read`].
    Write,
}

impl Scope {
    /// All scopes, weakest first.
    pub const ALL: [Scope; 2] = [Scope::Read, Scope::Write];

    /// The scope's name on the wire and on command lines.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Write => "write",
        }
    }

    /// Whether a key holding `self` as its highest scope may call an endpoint
    /// that requires `required`.
    pub fn covers(self, required: Scope) -> bool {
        self >= required
    }

    /// The scopes a key whose highest scope is `self` holds, as listed by
    /// `GET /me` (`write` lists both `read` and `write`).
    pub fn expanded(self) -> Vec<Scope> {
        Scope::ALL.into_iter().filter(|s| self.covers(*s)).collect()
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "read" => Ok(Scope::Read),
            "write" => Ok(Scope::Write),
            other => Err(format!(
                "unknown scope `{other}`: expected `read` or `write`"
            )),
        }
    }
}

/// A team's billing plan.
///
/// ```
/// assert_eq!("pro".parse::<modctl_types::Plan>().unwrap(), modctl_types::Plan::Pro);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Plan {
    /// The free plan.
    Free,
    /// The paid plan.
    Pro,
}

impl Plan {
    /// The plan's name on the wire and on command lines.
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Plan {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "free" => Ok(Plan::Free),
            "pro" => Ok(Plan::Pro),
            other => Err(format!("unknown plan `{other}`: expected `free` or `pro`")),
        }
    }
}

/// The team a key belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Team {
    /// Stable numeric id of the team.
    pub id: i64,
    /// Unique team name, as given to `modctld team create`.
    pub name: String,
    /// Billing plan.
    pub plan: Plan,
}

/// Response of `GET /api/v1/me`: the calling key.
///
/// ```
/// let me: modctl_types::Me = serde_json::from_value(serde_json::json!({
///     "team": {"id": 1, "name": "demo", "plan": "free"},
///     "key_id": "abcdefgh2345", "label": null, "scopes": ["read"],
///     "expires_at": null, "created_at": "2026-11-21T09:00:00Z",
///     "server_count": 3, "a_field_added_later": true
/// })).unwrap();
/// assert_eq!(me.server_count, 3);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Me {
    /// The team the key belongs to.
    pub team: Team,
    /// The public id part of the key; cases record the actor as `key:<key_id>`.
    pub key_id: String,
    /// Free-text label given when the key was created.
    pub label: Option<String>,
    /// The display name of the person using the key (additive; issue #27):
    /// cases show it beside `key:<key_id>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Every scope the key holds (`write` keys list `read` too).
    pub scopes: Vec<Scope>,
    /// When the key was created.
    pub created_at: Timestamp,
    /// When the key stops working; `null` means it never expires.
    pub expires_at: Option<Timestamp>,
    /// How many servers the key's team has claimed.
    pub server_count: u64,
    /// What the team's plan allows (absent from daemons before plans).
    #[serde(default)]
    pub plan_limits: PlanLimits,
}

/// What a plan allows; `GET /me` shows the caller's. The daemon's table of
/// plans (`modctld::plans`) is made of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanLimits {
    /// Servers the team may claim.
    pub servers: u64,
    /// The largest `days` of the insights and community-insights endpoints.
    pub insight_days: u64,
    /// Structure snapshots kept per server.
    pub retained_snapshots: u64,
    /// Whether `antinuke.snapshot_interval_hours` schedules run.
    pub scheduled_snapshots: bool,
    /// Whether webhooks may be enabled and events delivered.
    pub webhooks: bool,
    /// Users one bulk action of the CLI (`--users-file`) may name.
    pub bulk_users_per_file: u64,
    /// Requests per minute per key, sustained (unless an operator set the
    /// team's own rate: the `RateLimit-Limit` header says which applies).
    pub requests_per_minute: u32,
    /// Requests a key may make at once before the rate applies.
    pub burst: u32,
    /// Events a team's batches (`POST /servers/{id}/activity`) may count per
    /// UTC day, over all its servers (absent from daemons before the quota).
    #[serde(default)]
    pub activity_events_per_day: u64,
}

impl Me {
    /// Whether the key may call endpoints that require `scope`.
    pub fn has_scope(&self, scope: Scope) -> bool {
        self.scopes.contains(&scope)
    }
}

/// Where a key stands (`GET /keys`, `modctld key list`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum KeyStatus {
    /// Accepted.
    Active,
    /// Rotated (`replaced_by` names its replacement) and still accepted
    /// until `expires_at`, the end of its grace period.
    Rotating,
    /// Past its `expires_at`: refused with 401.
    Expired,
    /// Revoked by an operator: refused with 401.
    Revoked,
    /// Suspended by antinuke (too many bans or kicks a minute): refused
    /// with 403 until an operator re-enables it.
    Suspended,
}

impl KeyStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyStatus::Active => "active",
            KeyStatus::Rotating => "rotating",
            KeyStatus::Expired => "expired",
            KeyStatus::Revoked => "revoked",
            KeyStatus::Suspended => "suspended",
        }
    }
}

impl fmt::Display for KeyStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One of the team's keys as `GET /keys` lists it: never its secret or its
/// hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyInfo {
    /// The public id part of the key (`mdk_<key_id>_<secret>`).
    pub key_id: String,
    /// Free-text label given when the key was created.
    pub label: Option<String>,
    /// The display name of the person using the key (additive; issue #27).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Every scope the key holds (`write` keys list `read` too).
    pub scopes: Vec<Scope>,
    /// When the key was created.
    pub created_at: Timestamp,
    /// When the key stops working; `null` means it never expires.
    pub expires_at: Option<Timestamp>,
    /// When a request last authenticated with it (kept to the minute);
    /// `null` if never.
    pub last_used_at: Option<Timestamp>,
    /// Where the key stands.
    pub status: KeyStatus,
    /// The key that replaced it, once it was rotated.
    pub replaced_by: Option<String>,
    /// Whether this is the key the request was made with.
    pub current: bool,
}

/// `GET /keys`: the calling key's team's keys, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyList {
    /// The keys, revoked and expired ones included.
    pub keys: Vec<KeyInfo>,
}
