//! Platform ids in a config (channels and roles): which platform an id
//! belongs to, and clearing the ones that do not belong to the server's.
//!
//! Configs travel between servers (import, clone), so an id may be valid on
//! the platform it came from and meaningless on the target. Validation names
//! such an id for what it is; `drop_foreign_ids` clears exactly the ids
//! validation would refuse, so what is left can pass [`Sections::validate`].

use super::{FieldError, Sections};
use crate::Platform;
use crate::restore::RemappedId;

/// A role or channel id a config names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferencedId {
    /// Where, e.g. `logging.moderation`.
    pub path: String,
    /// The id.
    pub id: String,
    /// A role id (else a channel id).
    pub is_role: bool,
}

/// What a config id refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum IdKind {
    Channel,
    Role,
}

impl IdKind {
    fn check(self, platform: Platform, id: &str) -> Result<(), String> {
        match self {
            IdKind::Channel => platform.validate_channel_id(id),
            IdKind::Role => platform.validate_role_id(id),
        }
    }
}

/// Checks `id` for `platform`. An id that has the shape of another
/// platform's (a config imported or cloned from a server elsewhere) says so,
/// since "not a slack channel id" alone leaves the reader wondering what it is.
pub(super) fn check_id(platform: Platform, kind: IdKind, id: &str) -> Result<(), String> {
    let Err(own) = kind.check(platform, id) else {
        return Ok(());
    };
    let Some(owner) = Platform::ALL
        .into_iter()
        .find(|other| *other != platform && is_distinctly_of(*other, kind, id))
    else {
        return Err(own);
    };
    let (owner_noun, expected) = match kind {
        IdKind::Channel => ("channel id", Some(platform.channel_id_shape())),
        IdKind::Role => (
            owner.role_id_shape().map_or("role id", |(noun, _)| noun),
            platform.role_id_shape().map(|(_, shape)| shape),
        ),
    };
    let owner_id = format!("`{id}` is a {owner} {owner_noun}");
    Err(match expected {
        Some(shape) => format!("{owner_id}; {platform} expects {shape}"),
        None => format!("{owner_id}; {platform} has no roles: leave it empty"),
    })
}

/// Whether `id` is an id of `platform` and could hardly be anything else: a
/// bare positive number is a valid Telegram chat id, but as likely a typo, so
/// only negative (group and channel) chat ids are called Telegram's.
fn is_distinctly_of(platform: Platform, kind: IdKind, id: &str) -> bool {
    kind.check(platform, id).is_ok() && (platform != Platform::Telegram || id.starts_with('-'))
}

/// Calls `f` with each id of a list as a slot of its own (`path[i]`); the
/// kept ones go back in order, a slot set to `None` is removed.
fn visit_list(
    path: &str,
    kind: IdKind,
    list: &mut Vec<String>,
    f: &mut impl FnMut(&str, IdKind, &mut Option<String>),
) {
    for (i, id) in std::mem::take(list).into_iter().enumerate() {
        let mut slot = Some(id);
        f(&format!("{path}[{i}]"), kind, &mut slot);
        list.extend(slot);
    }
}

impl Sections {
    /// Every role and channel id the config names, with its path (e.g.
    /// `jail.role_id`), for checking them against what the platform has.
    ///
    /// ```
    /// use modctl_types::config::Sections;
    /// let mut config = Sections::default();
    /// config.jail.role_id = Some("300000000000000004".into());
    /// let ids = config.referenced_ids();
    /// assert_eq!((ids[0].path.as_str(), ids[0].is_role), ("jail.role_id", true));
    /// ```
    pub fn referenced_ids(&self) -> Vec<ReferencedId> {
        let mut ids = Vec::new();
        // The visitor takes slots to change; reading goes through a copy
        // (a config is a few KiB, read once per check).
        self.clone().visit_ids_mut(|path, kind, slot| {
            if let Some(id) = slot {
                ids.push(ReferencedId {
                    path: path.to_owned(),
                    id: id.clone(),
                    is_role: kind == IdKind::Role,
                });
            }
        });
        ids
    }

    /// Calls `f` with every role and channel id slot of the config, in
    /// section order: its path (e.g. `welcome.auto_role_ids[1]`), what it
    /// names, and the slot. Setting a slot to `None` removes the id (from
    /// a list, the entry). The one list of id fields: a new one added here
    /// is checked, dropped, listed and remapped everywhere.
    pub(super) fn visit_ids_mut(&mut self, mut f: impl FnMut(&str, IdKind, &mut Option<String>)) {
        f(
            "general.modlog_channel_id",
            IdKind::Channel,
            &mut self.general.modlog_channel_id,
        );
        f("jail.role_id", IdKind::Role, &mut self.jail.role_id);
        f(
            "jail.channel_id",
            IdKind::Channel,
            &mut self.jail.channel_id,
        );
        let automod = &mut self.automod;
        visit_list(
            "automod.exempt_role_ids",
            IdKind::Role,
            &mut automod.exempt_role_ids,
            &mut f,
        );
        visit_list(
            "automod.exempt_channel_ids",
            IdKind::Channel,
            &mut automod.exempt_channel_ids,
            &mut f,
        );
        for (name, slot) in self.logging.channels_mut() {
            f(&format!("logging.{name}"), IdKind::Channel, slot);
        }
        let welcome = &mut self.welcome;
        f(
            "welcome.channel_id",
            IdKind::Channel,
            &mut welcome.channel_id,
        );
        visit_list(
            "welcome.auto_role_ids",
            IdKind::Role,
            &mut welcome.auto_role_ids,
            &mut f,
        );
        f(
            "welcome.verified_role_id",
            IdKind::Role,
            &mut welcome.verified_role_id,
        );
        f(
            "welcome.verify_channel_id",
            IdKind::Channel,
            &mut welcome.verify_channel_id,
        );
        visit_list(
            "antinuke.trusted_role_ids",
            IdKind::Role,
            &mut self.antinuke.trusted_role_ids,
            &mut f,
        );
    }

    /// Replaces every id that `live` maps to another id (what a restore
    /// recreated under a new id), and returns one entry per replaced id, in
    /// section order.
    ///
    /// ```
    /// use modctl_types::config::Sections;
    /// let mut config = Sections::default();
    /// config.jail.role_id = Some("300000000000000004".into());
    /// let remapped = config.remap_ids(|id| (id == "300000000000000004").then(|| "900000000000000001".to_owned()));
    /// assert_eq!(config.jail.role_id.as_deref(), Some("900000000000000001"));
    /// assert_eq!(remapped[0].path, "jail.role_id");
    /// ```
    pub fn remap_ids(&mut self, live: impl Fn(&str) -> Option<String>) -> Vec<RemappedId> {
        let mut remapped = Vec::new();
        self.visit_ids_mut(|path, _, slot| {
            if let Some(from) = slot.as_deref()
                && let Some(to) = live(from).filter(|to| to != from)
            {
                remapped.push(RemappedId {
                    path: path.to_owned(),
                    from: from.to_owned(),
                    to: to.clone(),
                    name: None,
                });
                *slot = Some(to);
            }
        });
        remapped
    }

    /// Clears every channel and role id that is not an id of `platform`
    /// (`null` for a single id, removed from `welcome.auto_role_ids`), and
    /// returns one entry per cleared id, with the reason, in section order.
    /// What import and clone do with `drop_foreign_ids`; the rest of the
    /// config still has to pass [`Sections::validate`] afterwards.
    ///
    /// ```
    /// use modctl_types::{Platform, config::Sections};
    /// let mut config = Sections::default();
    /// config.jail.role_id = Some("300000000000000004".into());
    /// let dropped = config.drop_foreign_ids(Platform::Telegram);
    /// assert_eq!(config.jail.role_id, None);
    /// assert_eq!(
    ///     dropped[0].to_string(),
    ///     "jail.role_id: `300000000000000004` is a discord role id; telegram has no roles: leave it empty"
    /// );
    /// ```
    pub fn drop_foreign_ids(&mut self, platform: Platform) -> Vec<FieldError> {
        let mut dropped = Vec::new();
        self.visit_ids_mut(|path, kind, slot| {
            if let Some(Err(message)) = slot.as_deref().map(|id| check_id(platform, kind, id)) {
                dropped.push(FieldError::new(path, message));
                *slot = None;
            }
        });
        dropped
    }
}

/// An id [`Sections::drop_foreign_ids_keeping`] could not take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedId {
    /// Where, and why the id could not move (as validation says it).
    pub error: FieldError,
    /// The target's own value kept in its place, if it had a valid one.
    pub kept: Option<String>,
}

impl Sections {
    /// The lists of ids, by path, for [`Sections::drop_foreign_ids_keeping`].
    fn id_lists_mut(&mut self) -> [(&'static str, IdKind, &mut Vec<String>); 4] {
        [
            (
                "automod.exempt_role_ids",
                IdKind::Role,
                &mut self.automod.exempt_role_ids,
            ),
            (
                "automod.exempt_channel_ids",
                IdKind::Channel,
                &mut self.automod.exempt_channel_ids,
            ),
            (
                "welcome.auto_role_ids",
                IdKind::Role,
                &mut self.welcome.auto_role_ids,
            ),
            (
                "antinuke.trusted_role_ids",
                IdKind::Role,
                &mut self.antinuke.trusted_role_ids,
            ),
        ]
    }

    /// [`Sections::drop_foreign_ids`] for a config moving onto a server
    /// whose config is `current`: an id that cannot move keeps the target's
    /// own value where that one is valid for `platform` (a single id field
    /// its id; a list all of whose ids were foreign, the target's list),
    /// rather than becoming empty. One entry per id dropped, in section
    /// order, with what was kept.
    ///
    /// ```
    /// use modctl_types::{Platform, config::Sections};
    /// let mut current = Sections::default();
    /// current.general.modlog_channel_id = Some("-1001234567890".into());
    /// let mut moving = Sections::default();
    /// moving.general.modlog_channel_id = Some("300000000000000004".into());
    /// moving.jail.role_id = Some("300000000000000005".into());
    /// let dropped = moving.drop_foreign_ids_keeping(Platform::Telegram, &current);
    /// assert_eq!(moving.general.modlog_channel_id.as_deref(), Some("-1001234567890"));
    /// assert_eq!(dropped[0].kept.as_deref(), Some("-1001234567890"));
    /// assert_eq!((moving.jail.role_id.as_ref(), dropped[1].kept.as_ref()), (None, None));
    /// ```
    pub fn drop_foreign_ids_keeping(
        &mut self,
        platform: Platform,
        current: &Sections,
    ) -> Vec<DroppedId> {
        let own: std::collections::BTreeMap<String, (IdKind, String)> = {
            let mut own = std::collections::BTreeMap::new();
            current.clone().visit_ids_mut(|path, kind, slot| {
                if let Some(id) = slot {
                    own.insert(path.to_owned(), (kind, id.clone()));
                }
            });
            own
        };
        let lists_before: Vec<usize> = self
            .id_lists_mut()
            .iter()
            .map(|(_, _, l)| l.len())
            .collect();
        let mut dropped = Vec::new();
        self.visit_ids_mut(|path, kind, slot| {
            let Some(Err(message)) = slot.as_deref().map(|id| check_id(platform, kind, id)) else {
                return;
            };
            // A list's entry goes; the list as a whole is seen to below.
            let kept = (!path.ends_with(']'))
                .then(|| own.get(path))
                .flatten()
                .filter(|(own_kind, id)| *own_kind == kind && check_id(platform, kind, id).is_ok())
                .map(|(_, id)| id.clone());
            *slot = kept.clone();
            dropped.push(DroppedId {
                error: FieldError::new(path, message),
                kept,
            });
        });
        let mut target = current.clone();
        let theirs = target.id_lists_mut();
        for ((path, kind, list), (before, (_, _, own_list))) in self
            .id_lists_mut()
            .into_iter()
            .zip(lists_before.into_iter().zip(theirs))
        {
            if before > 0 && list.is_empty() {
                let valid: Vec<String> = own_list
                    .iter()
                    .filter(|id| check_id(platform, kind, id).is_ok())
                    .cloned()
                    .collect();
                if !valid.is_empty() {
                    for entry in dropped.iter_mut().filter(|d| {
                        d.error.path.starts_with(path)
                            && d.error.path[path.len()..].starts_with('[')
                    }) {
                        entry.kept = Some(valid.join(","));
                    }
                    *list = valid;
                }
            }
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISCORD_ID: &str = "300000000000000004";

    fn errors(config: &Sections, platform: Platform) -> Vec<String> {
        config
            .validate(platform)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn ids_of_another_platform_are_named_as_such() {
        let mut config = Sections::default();
        config.jail.role_id = Some(DISCORD_ID.into());
        config.general.modlog_channel_id = Some(DISCORD_ID.into());
        assert_eq!(
            errors(&config, Platform::Telegram),
            [
                format!(
                    "general.modlog_channel_id: `{DISCORD_ID}` is a discord channel id; telegram expects an integer chat id such as -1001234567890"
                ),
                format!(
                    "jail.role_id: `{DISCORD_ID}` is a discord role id; telegram has no roles: leave it empty"
                ),
            ]
        );
        assert_eq!(
            errors(&config, Platform::Slack),
            [
                format!(
                    "general.modlog_channel_id: `{DISCORD_ID}` is a discord channel id; slack expects `C`, `G` or `D` followed by 8 to 12 upper-case letters or digits"
                ),
                format!(
                    "jail.role_id: `{DISCORD_ID}` is a discord role id; slack expects `S` followed by 8 to 12 upper-case letters or digits"
                ),
            ]
        );
        let mut slack = Sections::default();
        slack.welcome.auto_role_ids = vec!["S0123ABCD".into()];
        slack.logging.automod = Some("-1001234567890".into());
        assert_eq!(
            errors(&slack, Platform::Discord),
            [
                "logging.automod: `-1001234567890` is a telegram channel id; discord expects a snowflake of 17 to 20 digits",
                "welcome.auto_role_ids[0]: `S0123ABCD` is a slack user group id; discord expects a snowflake of 17 to 20 digits",
            ]
        );
    }

    #[test]
    fn ids_of_no_platform_keep_the_plain_message() {
        let mut config = Sections::default();
        // A bare small number is a valid Telegram chat id but more likely a typo.
        config.general.modlog_channel_id = Some("12".into());
        config.jail.role_id = Some("nope".into());
        assert_eq!(
            errors(&config, Platform::Discord),
            [
                "general.modlog_channel_id: `12` is not a discord channel id: expected a snowflake of 17 to 20 digits",
                "jail.role_id: `nope` is not a discord role id: expected a snowflake of 17 to 20 digits",
            ]
        );
    }

    #[test]
    fn dropping_foreign_ids_clears_exactly_the_ids_validation_refuses() {
        let mut config = Sections::default();
        config.general.modlog_channel_id = Some("C0123ABCD".into());
        config.jail.role_id = Some(DISCORD_ID.into());
        config.jail.channel_id = Some("-1001234567890".into());
        config.automod.exempt_role_ids = vec![DISCORD_ID.into(), "S0123ABCF".into()];
        config.automod.exempt_channel_ids = vec!["C0123ABCE".into(), "-1001234567890".into()];
        config.logging.moderation = Some(DISCORD_ID.into());
        config.logging.config = Some("G0123ABCD".into());
        config.welcome.channel_id = Some("bad".into());
        config.welcome.auto_role_ids = vec![
            "S0123ABCD".into(),
            DISCORD_ID.into(),
            "S0123ABCE".into(),
            "300000000000000005".into(),
        ];
        config.welcome.verified_role_id = Some(DISCORD_ID.into());
        let refused: Vec<String> = config
            .validate(Platform::Slack)
            .iter()
            .map(|e| e.path.clone())
            .collect();

        let dropped = config.drop_foreign_ids(Platform::Slack);
        let paths: Vec<&str> = dropped.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "jail.role_id",
                "jail.channel_id",
                "automod.exempt_role_ids[0]",
                "automod.exempt_channel_ids[1]",
                "logging.moderation",
                "welcome.channel_id",
                "welcome.auto_role_ids[1]",
                "welcome.auto_role_ids[3]",
                "welcome.verified_role_id",
            ]
        );
        assert_eq!(paths, refused);
        assert!(config.validate(Platform::Slack).is_empty());
        assert_eq!(
            config.general.modlog_channel_id.as_deref(),
            Some("C0123ABCD")
        );
        assert_eq!(config.logging.config.as_deref(), Some("G0123ABCD"));
        assert_eq!(config.logging.moderation, None);
        assert_eq!(config.welcome.auto_role_ids, ["S0123ABCD", "S0123ABCE"]);
        assert_eq!(config.automod.exempt_role_ids, ["S0123ABCF"]);
        assert_eq!(config.automod.exempt_channel_ids, ["C0123ABCE"]);
        assert_eq!(config.welcome.verified_role_id, None);
        // Nothing left to drop.
        assert!(config.drop_foreign_ids(Platform::Slack).is_empty());
    }
}
