//! What the daemon knows of each Discord guild between reads: its owner,
//! its roles, and the bot's user id (issue #26 review).
//!
//! # Why here, and only here
//!
//! Every reader of the role hierarchy goes through one function, the
//! adapter's [`super::super::ReadHierarchy::hierarchy`]: the moderation
//! path's checks before an action, automod's "above automod", antinuke's
//! exemptions and punishments. Before this cache it made 4 REST calls each
//! time (the guild, `/users/@me`, the bot's member, the target's member);
//! antinuke paid them per incident and per role grant. The guild-wide part
//! (owner, roles, the bot's id) is the same for every caller, so it is kept
//! once, beside the rate-limit state every adapter of a token shares
//! ([`super::super::PlatformClients`]); members are still read each time
//! (a member's roles change with every grant and are not sent to the bot
//! without the member list). Antinuke also reads who the owner and the bot
//! are from here ([`GuildCache::identity`]) to skip their entries before
//! counting.
//!
//! # Kept fresh
//!
//! Only a guild a gateway session reports on is kept: nothing else would
//! tell the daemon that its roles changed. The session's `GUILD_CREATE`
//! starts keeping it (with its owner and roles when the dispatch carries
//! them, as Discord's does), `GUILD_UPDATE` (an ownership transfer changes
//! `owner_id`) replaces owner and roles, `GUILD_ROLE_CREATE`/`UPDATE`/
//! `DELETE` patch the roles (discord-docs/gateway-events.mdx), all through
//! the event path (`crate::automation::antinuke::guilds::GuildFeed`). A
//! hierarchy read of a guild kept but not known yet, or not refreshed whole
//! for [`MAX_AGE_MS`] (a dispatch missed while the session was away), reads
//! it and fills it in; a guild no session reports on is read every time. At
//! most [`MAX_GUILDS`] guilds are kept; the one refreshed longest ago goes
//! first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::platform::Role;

/// How long a guild's owner and roles are used without a whole refresh.
pub const MAX_AGE_MS: i64 = 10 * 60_000;
/// How many guilds are kept.
pub const MAX_GUILDS: usize = 10_000;

/// One guild as last known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedGuild {
    /// The owner's user id.
    pub owner_id: String,
    /// Every role.
    pub roles: Vec<Role>,
    /// The bot's user id, once read (`/users/@me`).
    pub bot_id: Option<String>,
    /// When owner and roles were last read or sent whole (ms).
    refreshed_ms: i64,
}

/// A guild a session reports on: known whole, or not yet.
#[derive(Debug, Clone)]
struct Kept {
    /// Owner and roles (`None`: not known yet, the next read fills them).
    guild: Option<CachedGuild>,
    /// When it was last refreshed whole or started (ms), for eviction.
    touched_ms: i64,
}

/// The guilds, shared by every Discord adapter of the daemon.
#[derive(Debug, Clone, Default)]
pub struct GuildCache {
    guilds: Arc<Mutex<HashMap<String, Kept>>>,
}

impl GuildCache {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Kept>) -> T) -> T {
        f(&mut self.guilds.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// `guild` if known whole and refreshed within [`MAX_AGE_MS`] of
    /// `now_ms`.
    pub fn fresh(&self, guild: &str, now_ms: i64) -> Option<CachedGuild> {
        self.with(|guilds| {
            guilds
                .get(guild)
                .and_then(|k| k.guild.as_ref())
                .filter(|g| now_ms - g.refreshed_ms < MAX_AGE_MS)
                .cloned()
        })
    }

    /// Who `guild`'s owner and bot are, as last known (whatever its age:
    /// the gateway keeps the owner fresh).
    pub fn identity(&self, guild: &str) -> Option<(String, Option<String>)> {
        self.with(|guilds| {
            guilds
                .get(guild)
                .and_then(|k| k.guild.as_ref())
                .map(|g| (g.owner_id.clone(), g.bot_id.clone()))
        })
    }

    /// A session reports on `guild` from now (`GUILD_CREATE`), with its
    /// owner and roles when the dispatch carries them. The bot's id is
    /// forgotten: the session may be another bot token's.
    pub fn start(&self, guild: &str, whole: Option<(String, Vec<Role>)>, now_ms: i64) {
        self.with(|guilds| {
            if !guilds.contains_key(guild) && guilds.len() >= MAX_GUILDS {
                let oldest = guilds
                    .iter()
                    .min_by_key(|(_, k)| k.touched_ms)
                    .map(|(id, _)| id.clone());
                if let Some(oldest) = oldest {
                    guilds.remove(&oldest);
                }
            }
            let guild_now = whole.map(|(owner_id, roles)| CachedGuild {
                owner_id,
                roles,
                bot_id: None,
                refreshed_ms: now_ms,
            });
            guilds.insert(
                guild.to_owned(),
                Kept {
                    guild: guild_now,
                    touched_ms: now_ms,
                },
            );
        });
    }

    /// `guild`'s owner and roles, read or sent whole (`GUILD_UPDATE`) at
    /// `now_ms`, for a guild a session reports on (others are not kept);
    /// the bot's id stays.
    pub fn refresh(&self, guild: &str, owner_id: String, roles: Vec<Role>, now_ms: i64) {
        self.with(|guilds| {
            if let Some(kept) = guilds.get_mut(guild) {
                let bot_id = kept.guild.take().and_then(|g| g.bot_id);
                kept.guild = Some(CachedGuild {
                    owner_id,
                    roles,
                    bot_id,
                    refreshed_ms: now_ms,
                });
                kept.touched_ms = now_ms;
            }
        });
    }

    /// The bot's user id in `guild` (guilds known whole only).
    pub fn put_bot(&self, guild: &str, bot_id: String) {
        self.with(|guilds| {
            if let Some(g) = guilds.get_mut(guild).and_then(|k| k.guild.as_mut()) {
                g.bot_id = Some(bot_id);
            }
        });
    }

    /// A role created or changed; a guild not known whole is left to its
    /// next read.
    pub fn put_role(&self, guild: &str, role: Role) {
        self.with(|guilds| {
            if let Some(g) = guilds.get_mut(guild).and_then(|k| k.guild.as_mut()) {
                match g.roles.iter_mut().find(|r| r.id == role.id) {
                    Some(known) => *known = role,
                    None => g.roles.push(role),
                }
            }
        });
    }

    /// A role deleted.
    pub fn remove_role(&self, guild: &str, role: &str) {
        self.with(|guilds| {
            if let Some(g) = guilds.get_mut(guild).and_then(|k| k.guild.as_mut()) {
                g.roles.retain(|r| r.id != role);
            }
        });
    }
}

/// A role object (discord-docs/permissions.mdx, "Role Object") as the
/// hierarchy needs it; Discord sends permission bitfields as strings.
pub fn role_from_json(role: &Value) -> Role {
    Role {
        id: role["id"].as_str().unwrap_or_default().to_owned(),
        position: role["position"].as_i64().unwrap_or(0),
        permissions: role["permissions"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .unwrap_or(0),
        managed: role["managed"].as_bool().unwrap_or(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(id: &str, position: i64) -> Role {
        Role {
            id: id.into(),
            position,
            permissions: 0,
            managed: false,
        }
    }

    /// Only a guild a session reports on is kept; a whole read is used for
    /// [`MAX_AGE_MS`]; role events patch it; a refresh keeps the bot, a
    /// session start forgets it.
    #[test]
    fn guilds_are_kept_patched_and_expire() {
        let cache = GuildCache::default();
        cache.refresh("g", "owner".into(), vec![role("a", 1)], 0);
        cache.put_role("g", role("r", 1));
        assert_eq!(cache.identity("g"), None, "no session reports on it");
        cache.start("g", None, 0);
        assert_eq!(cache.fresh("g", 0), None, "not known yet");
        cache.refresh("g", "owner".into(), vec![role("a", 1)], 0);
        cache.put_bot("g", "bot".into());
        cache.put_role("g", role("b", 2));
        cache.put_role("g", role("a", 3));
        cache.remove_role("g", "b");
        let g = cache.fresh("g", MAX_AGE_MS - 1).expect("fresh");
        assert_eq!(g.roles, vec![role("a", 3)]);
        assert_eq!(cache.fresh("g", MAX_AGE_MS), None, "expired");
        cache.refresh("g", "new-owner".into(), Vec::new(), 10);
        assert_eq!(
            cache.identity("g"),
            Some(("new-owner".into(), Some("bot".into())))
        );
        cache.start("g", Some(("new-owner".into(), Vec::new())), 20);
        assert_eq!(cache.identity("g"), Some(("new-owner".into(), None)));
    }

    #[test]
    fn the_guild_refreshed_longest_ago_goes_first() {
        let cache = GuildCache::default();
        let whole = || Some(("o".to_owned(), Vec::new()));
        for n in 0..MAX_GUILDS {
            cache.start(&format!("g{n}"), whole(), n as i64 + 1);
        }
        cache.refresh("g0", "o".into(), Vec::new(), 0);
        cache.start("new", whole(), 99_999);
        assert_eq!(cache.identity("g0"), None);
        assert!(cache.identity("g1").is_some() && cache.identity("new").is_some());
    }
}
