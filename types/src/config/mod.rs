//! The per-server moderation config: its sections, the export envelope, and
//! the bodies of the six `/config` endpoints.
//!
//! Validation lives here too ([`Sections::validate`]), so the daemon and any
//! client check a config by the same rules.

mod diff;
mod ids;
pub use ids::{DroppedId, ReferencedId};
mod sections;
pub mod validate;
mod webhooks;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use diff::{FieldChange, diff_sections};
pub use sections::*;
pub use validate::FieldError;

use crate::{Platform, Timestamp};

/// The `format` marker of an export envelope.
pub const EXPORT_FORMAT: &str = "modctl.config";
/// The schema version this build writes and the highest it reads.
pub const SCHEMA_VERSION: u32 = 1;

/// The name of a config section, as used in `PUT /config/{section}`.
///
/// ```
/// use modctl_types::config::SectionName;
/// assert_eq!("strikes".parse::<SectionName>().unwrap(), SectionName::Strikes);
/// assert!("nope".parse::<SectionName>().unwrap_err().contains("general, moderation"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SectionName {
    /// [`General`].
    General,
    /// [`Moderation`].
    Moderation,
    /// [`Strikes`].
    Strikes,
    /// [`Jail`].
    Jail,
    /// [`Automod`].
    Automod,
    /// [`Logging`].
    Logging,
    /// [`Welcome`].
    Welcome,
    /// [`Antinuke`].
    Antinuke,
    /// [`Webhooks`].
    Webhooks,
}

impl SectionName {
    /// Every section, in the order exports list them.
    pub const ALL: [SectionName; 9] = [
        SectionName::General,
        SectionName::Moderation,
        SectionName::Strikes,
        SectionName::Jail,
        SectionName::Automod,
        SectionName::Logging,
        SectionName::Welcome,
        SectionName::Antinuke,
        SectionName::Webhooks,
    ];

    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            SectionName::General => "general",
            SectionName::Moderation => "moderation",
            SectionName::Strikes => "strikes",
            SectionName::Jail => "jail",
            SectionName::Automod => "automod",
            SectionName::Logging => "logging",
            SectionName::Welcome => "welcome",
            SectionName::Antinuke => "antinuke",
            SectionName::Webhooks => "webhooks",
        }
    }
}

impl fmt::Display for SectionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SectionName {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SectionName::ALL
            .into_iter()
            .find(|n| n.as_str() == s)
            .ok_or_else(|| {
                let valid: Vec<&str> = SectionName::ALL.iter().map(|n| n.as_str()).collect();
                format!(
                    "unknown config section `{s}`: expected one of {}",
                    valid.join(", ")
                )
            })
    }
}

/// A typed config section: lets the SDK replace a section by its type.
///
/// ```
/// use modctl_types::config::{ConfigSection, SectionName, Strikes};
/// assert_eq!(Strikes::NAME, SectionName::Strikes);
/// ```
pub trait ConfigSection: Serialize + serde::de::DeserializeOwned {
    /// The section's name.
    const NAME: SectionName;
}

macro_rules! config_sections {
    ($($ty:ident => $name:ident),* $(,)?) => {
        $(impl ConfigSection for $ty {
            const NAME: SectionName = SectionName::$name;
        })*
    };
}

config_sections!(
    General => General,
    Moderation => Moderation,
    Strikes => Strikes,
    Jail => Jail,
    Automod => Automod,
    Logging => Logging,
    Welcome => Welcome,
    Antinuke => Antinuke,
    Webhooks => Webhooks,
);

/// All sections of a server's config. A section never set reads as its defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Sections {
    /// [`General`].
    pub general: General,
    /// [`Moderation`].
    pub moderation: Moderation,
    /// [`Strikes`].
    pub strikes: Strikes,
    /// [`Jail`].
    pub jail: Jail,
    /// [`Automod`].
    pub automod: Automod,
    /// [`Logging`].
    pub logging: Logging,
    /// [`Welcome`].
    pub welcome: Welcome,
    /// [`Antinuke`].
    pub antinuke: Antinuke,
    /// [`Webhooks`].
    pub webhooks: Webhooks,
}

impl Sections {
    /// One section as JSON, exactly as `GET /config` shows it.
    pub fn section_json(&self, name: SectionName) -> Value {
        let value = match name {
            SectionName::General => serde_json::to_value(&self.general),
            SectionName::Moderation => serde_json::to_value(&self.moderation),
            SectionName::Strikes => serde_json::to_value(&self.strikes),
            SectionName::Jail => serde_json::to_value(&self.jail),
            SectionName::Automod => serde_json::to_value(&self.automod),
            SectionName::Logging => serde_json::to_value(&self.logging),
            SectionName::Welcome => serde_json::to_value(&self.welcome),
            SectionName::Antinuke => serde_json::to_value(&self.antinuke),
            SectionName::Webhooks => serde_json::to_value(&self.webhooks),
        };
        value.expect("sections always serialize")
    }

    /// Replaces section `name` with `value`, parsed strictly: an unknown field
    /// or a wrong type is an error naming its path (`strikes.ladder[0].foo`).
    /// Fields left out take their defaults.
    pub fn replace_from_json(&mut self, name: SectionName, value: Value) -> Result<(), FieldError> {
        fn parse<T: serde::de::DeserializeOwned>(
            name: SectionName,
            value: Value,
        ) -> Result<T, FieldError> {
            serde_path_to_error::deserialize(value).map_err(|err| {
                let path = err.path().to_string();
                let path = if path == "." {
                    name.to_string()
                } else {
                    format!("{name}.{path}")
                };
                FieldError::new(path, err.into_inner().to_string())
            })
        }
        // serde's derive would also take a struct as a positional array.
        if !value.is_object() {
            return Err(FieldError::new(
                name.to_string(),
                format!("must be a JSON object, not {}", json_kind(&value)),
            ));
        }
        match name {
            SectionName::General => self.general = parse(name, value)?,
            SectionName::Moderation => self.moderation = parse(name, value)?,
            SectionName::Strikes => self.strikes = parse(name, value)?,
            SectionName::Jail => self.jail = parse(name, value)?,
            SectionName::Automod => self.automod = parse(name, value)?,
            SectionName::Logging => self.logging = parse(name, value)?,
            SectionName::Welcome => self.welcome = parse(name, value)?,
            SectionName::Antinuke => self.antinuke = parse(name, value)?,
            SectionName::Webhooks => self.webhooks = parse(name, value)?,
        }
        Ok(())
    }

    /// [`Sections::replace_from_json`] from JSON text, in one pass when the
    /// text is valid (no intermediate [`Value`]: the daemon reads every stored
    /// section this way, on every action). Invalid text takes the slower
    /// path, for the error naming the field.
    pub fn replace_from_str(&mut self, name: SectionName, json: &str) -> Result<(), FieldError> {
        fn parse<T: serde::de::DeserializeOwned>(json: &str) -> Option<T> {
            // Only an object: serde's derive would also take a positional array.
            let object = json.trim_start().starts_with('{');
            object.then(|| serde_json::from_str(json).ok()).flatten()
        }
        let parsed = match name {
            SectionName::General => parse(json).map(|v| self.general = v),
            SectionName::Moderation => parse(json).map(|v| self.moderation = v),
            SectionName::Strikes => parse(json).map(|v| self.strikes = v),
            SectionName::Jail => parse(json).map(|v| self.jail = v),
            SectionName::Automod => parse(json).map(|v| self.automod = v),
            SectionName::Logging => parse(json).map(|v| self.logging = v),
            SectionName::Welcome => parse(json).map(|v| self.welcome = v),
            SectionName::Antinuke => parse(json).map(|v| self.antinuke = v),
            SectionName::Webhooks => parse(json).map(|v| self.webhooks = v),
        };
        if parsed.is_some() {
            return Ok(());
        }
        let value: Value = serde_json::from_str(json)
            .map_err(|e| FieldError::new(name.to_string(), format!("is not JSON: {e}")))?;
        self.replace_from_json(name, value)
    }

    /// Every platform id the config refers to (channels and roles), with its
    /// path, e.g. `("jail.role_id", "123...")`.
    pub fn id_fields(&self) -> Vec<(String, &str)> {
        let general_jail_welcome = [
            ("general.modlog_channel_id", &self.general.modlog_channel_id),
            ("jail.role_id", &self.jail.role_id),
            ("jail.channel_id", &self.jail.channel_id),
            ("welcome.channel_id", &self.welcome.channel_id),
            ("welcome.verified_role_id", &self.welcome.verified_role_id),
        ]
        .into_iter()
        .map(|(path, id)| (path.to_owned(), id));
        let logging = self
            .logging
            .channels()
            .into_iter()
            .map(|(name, id)| (format!("logging.{name}"), id));
        let auto_roles = self.welcome.auto_role_ids.iter().enumerate();
        general_jail_welcome
            .chain(logging)
            .filter_map(|(path, id)| id.as_deref().map(|id| (path, id)))
            .chain(auto_roles.map(|(i, id)| (format!("welcome.auto_role_ids[{i}]"), id.as_str())))
            .collect()
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Response of `GET /servers/{id}/config` (and of a successful `PUT`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServerConfig {
    /// The server.
    pub server_id: String,
    /// Its platform.
    pub platform: Platform,
    /// Increases by one with every write that changes something; 0 = never
    /// written. Also sent as the `ETag` header; send it back in `If-Match` to
    /// refuse a write over changes you have not seen.
    pub revision: u64,
    /// When the config last changed; `null` = never.
    pub updated_at: Option<Timestamp>,
    /// All sections.
    pub sections: Sections,
}

/// Where an export came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExportSource {
    /// Server id.
    pub id: String,
    /// Platform.
    pub platform: Platform,
    /// Server name.
    pub name: String,
}

/// The export envelope (`GET /config/export`), taken as is by `POST /config/import`.
///
/// Field order is fixed, so two exports diff cleanly. Secrets are never
/// exported: `redacted` names the fields left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExportEnvelope {
    /// Always `modctl.config` ([`EXPORT_FORMAT`]).
    #[cfg_attr(feature = "openapi", schema(pattern = "^modctl\\.config$"))]
    pub format: String,
    /// The schema version of `sections`; this build writes and reads 1.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1))]
    pub schema_version: u32,
    /// When the export was made.
    pub exported_at: Timestamp,
    /// The server exported.
    pub source: ExportSource,
    /// Its config revision at export time.
    pub revision: u64,
    /// Fields left out because they are secret, e.g. `webhooks.secret`.
    pub redacted: Vec<String>,
    /// All sections.
    pub sections: Sections,
}

/// Body of `POST /servers/{id}/config/clone`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CloneRequest {
    /// Id of the server (of the same team) whose config is copied.
    pub from: String,
}

/// Changes to one section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SectionChange {
    /// The section.
    pub section: SectionName,
    /// Field-level changes, paths relative to the config root (`strikes.expiry_days`).
    pub changes: Vec<FieldChange>,
}

/// Response of import and clone: what changed (or would, with `dry_run`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImportReport {
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// The revision after the write (unchanged by a dry run or a no-op).
    pub revision: u64,
    /// Sections that changed, with their field-level changes.
    pub changed: Vec<SectionChange>,
    /// Things to look at: ids cleared by `drop_foreign_ids`
    /// (`jail.role_id: cleared: ...`), and ids kept without checking that
    /// they exist on the target server.
    pub warnings: Vec<String>,
}

/// How a config change was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AuditSource {
    /// `PUT /config/{section}`.
    Api,
    /// `POST /config/import`.
    Import,
    /// `POST /config/clone`.
    Clone,
    /// A restore pointing the config at what it recreated (issue #23).
    Restore,
    /// `POST /config/import?rollback_to=N`: `modctl config rollback` putting
    /// back the settings of an earlier revision (issue #27).
    Rollback,
}

impl AuditSource {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditSource::Api => "api",
            AuditSource::Import => "import",
            AuditSource::Clone => "clone",
            AuditSource::Restore => "restore",
            AuditSource::Rollback => "rollback",
        }
    }
}

impl fmt::Display for AuditSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of the config audit trail: one changed section in one write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    /// Entry id, increasing.
    pub id: i64,
    /// When.
    pub at: Timestamp,
    /// Who: `key:<key_id>`.
    pub actor: String,
    /// Which section.
    pub section: SectionName,
    /// How.
    pub source: AuditSource,
    /// The config revision this write produced.
    pub revision: u64,
    /// Field-level changes (secrets shown as `"<redacted>"`).
    pub changes: Vec<FieldChange>,
}

/// Response of `GET /servers/{id}/config/audit`, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditList {
    /// The entries.
    pub entries: Vec<AuditEntry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text parses to what the same JSON as a value does, with every section
    /// in play; and text the strict path refuses is refused with its path.
    #[test]
    fn sections_from_text_parse_as_from_values() {
        let mut full = Sections::default();
        full.strikes.expiry_days = 30;
        full.strikes.ladder.clear();
        full.jail.enabled = true;
        for name in SectionName::ALL {
            let value = full.section_json(name);
            let (mut from_text, mut from_value) = (Sections::default(), Sections::default());
            from_text
                .replace_from_str(name, &value.to_string())
                .unwrap();
            from_value.replace_from_json(name, value).unwrap();
            assert_eq!(from_text, from_value, "{name}");
        }
        let mut sections = Sections::default();
        for (text, path) in [
            (r#"{"ladder": [{"at": 2, "foo": 1}]}"#, "strikes.ladder[0]"),
            (r#"[]"#, "strikes"),
            (r#"{"ladder": "#, "strikes"),
        ] {
            let err = sections
                .replace_from_str(SectionName::Strikes, text)
                .unwrap_err();
            assert!(err.to_string().starts_with(path), "{text}: {err}");
        }
        assert_eq!(sections, Sections::default());
    }
}
