//! Reading a server's structure (roles, channels, settings) for a snapshot.
//!
//! A capability of its own, [`StructureReader`], apart from the moderation
//! capabilities ([`super::capabilities`]): the moderation path never reads
//! structure, and a snapshot never acts on members. [`super::Bot::structure`]
//! gives it on every platform. Each live adapter implements it in a
//! `structure` submodule next to its own HTTP code (Discord: guild, roles,
//! channels; Slack: `conversations.list` and `usergroups.list`; Telegram:
//! `getChat` and `getChatAdministrators`), and the simulator reads what it
//! keeps in the store.
//!
//! What the platforms send is read into typed payload structs: a field the
//! snapshot needs that the platform left out fails the capture with
//! [`PlatformError::Invalid`], never a silent default that a restore would
//! later take for the truth. Fields the platform itself documents as optional
//! keep the platform's meaning of "absent" (Discord's `nsfw` is false,
//! Telegram's permissions are false).

use async_trait::async_trait;
use modctl_types::snapshot::StructureContent;
use serde::{Deserialize, Deserializer};

use super::{PlatformError, PlatformResult};

/// Reads a server's structure from its platform (only reads; changes nothing).
#[async_trait]
pub trait StructureReader: Send + Sync + std::fmt::Debug {
    /// The server's roles, channels and settings as the platform has them now.
    async fn read_structure(&self) -> PlatformResult<StructureContent>;
}

/// For a field the platform always sends, possibly as `null`: absent is an
/// error (serde would otherwise read a missing `Option` as `None`).
pub(crate) fn nullable<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer)
}

/// `value` as `T`, or [`PlatformError::Invalid`] naming what was read from whom.
pub(crate) fn payload<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    what: &str,
) -> PlatformResult<T> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| PlatformError::Invalid(format!("unexpected {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize)]
    struct Guild {
        #[serde(deserialize_with = "nullable")]
        system_channel_id: Option<String>,
    }

    #[test]
    fn a_nullable_field_may_be_null_but_not_missing() {
        let null: Guild = payload(json!({"system_channel_id": null}), "guild").unwrap();
        assert_eq!(null.system_channel_id, None);
        let set: Guild = payload(json!({"system_channel_id": "1"}), "guild").unwrap();
        assert_eq!(set.system_channel_id.as_deref(), Some("1"));
        let missing = payload::<Guild>(json!({}), "guild from Discord").unwrap_err();
        assert!(
            missing.to_string().contains("system_channel_id"),
            "{missing}"
        );
    }
}
