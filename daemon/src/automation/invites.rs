//! The servers' own invites (issue #25: "invite links to other communities
//! ... the server's own invites allowed"), learned from the platforms and
//! kept in memory for the automod filters.
//!
//! What a server's own invites are is the platform's to say, through the
//! [`ReadInvites`] capability of each adapter (and the simulator):
//!
//! - Discord: the guild's `vanity_url_code` and every invite of "Get Guild
//!   Invites", which needs `MANAGE_GUILD` (or `VIEW_AUDIT_LOG`); refused,
//!   the vanity code alone is known, and onboarding says what to grant;
//! - Telegram: the group's primary `invite_link` and its public username
//!   (`t.me/<username>`: a link to the group itself), from `getChat`;
//! - Slack: every `join.slack.com/t/<domain>/...` link of the workspace,
//!   its domain from `team.info`.
//!
//! [`refresh_due`] is a worker's tick (`crate::workers::own_invites`): it
//! learns them for each connected server whose automod has the invite or
//! the link filter on (a server that filters no link costs no request),
//! when never learned, every [`REFRESH`] after (an invite made since is
//! "another community's" until then: a member's new invite is caught for
//! at most that long), and [`RETRY_FAILED`] after a failure (the invites
//! learned before are kept meanwhile). The answer is kept per server in
//! [`OwnInvitesCache`], in memory only: a restart learns them again at its
//! first tick. Nothing on a message's path asks the platform: automod
//! ([`super::automod::Compiled`]), `POST /automod/test` and the native
//! invite rule's allow list ([`super::native`]) read the cache.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::clock::Clock;
use crate::platform::{self, Bot, OwnInvites, PlatformClients};
use crate::store::{Store, StoreError, connections};

/// How often a server's own invites are learned again.
pub const REFRESH: Duration = Duration::from_secs(600);
/// How soon a failed learning is tried again.
pub const RETRY_FAILED: Duration = Duration::from_secs(60);

/// What was learned of one server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Learned {
    /// Its own invites, in [`OwnInvites::invites`]' forms.
    pub invites: Arc<[String]>,
    /// What the platform would not list, and how to let it (Discord
    /// without `MANAGE_GUILD`).
    pub refused: Option<String>,
    /// Why the last learning failed, if it did (the invites are the ones
    /// learned before).
    pub failed: Option<String>,
    /// When it was last asked, unix seconds on the daemon's clock.
    pub at: i64,
    /// Bumped each time the invites change: what automod compiled with
    /// them is compiled again.
    pub version: u64,
}

/// Each server's learned invites; cheap to read on every message.
#[derive(Debug, Default)]
pub struct OwnInvitesCache {
    servers: RwLock<HashMap<String, Learned>>,
}

impl OwnInvitesCache {
    /// The server's own invites (none before they are learned).
    pub fn invites(&self, server: &str) -> Vec<String> {
        self.read()
            .get(server)
            .map(|l| l.invites.to_vec())
            .unwrap_or_default()
    }

    /// The version of the server's invites (0: none learned).
    pub fn version(&self, server: &str) -> u64 {
        self.read().get(server).map_or(0, |l| l.version)
    }

    /// What was learned of the server, if anything.
    pub fn learned(&self, server: &str) -> Option<Learned> {
        self.read().get(server).cloned()
    }

    /// Keeps `answer` (asked at `at`) as the server's.
    pub fn learn(&self, server: &str, answer: OwnInvites, at: i64) {
        let mut servers = self.write();
        let entry = servers.entry(server.to_owned()).or_default();
        let mut invites = answer.invites;
        invites.dedup();
        if *entry.invites != *invites {
            entry.invites = invites.into();
            entry.version += 1;
        }
        entry.refused = answer.refused;
        entry.failed = None;
        entry.at = at;
    }

    /// Notes that asking failed at `at` (`why`), keeping what was learned.
    pub fn fail(&self, server: &str, why: String, at: i64) {
        let mut servers = self.write();
        let entry = servers.entry(server.to_owned()).or_default();
        entry.failed = Some(why);
        entry.at = at;
    }

    /// Forgets servers no longer connected.
    fn keep_only(&self, servers: &[String]) {
        self.write().retain(|id, _| servers.contains(id));
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Learned>> {
        // A panic while holding the lock leaves whole entries only.
        self.servers.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Learned>> {
        self.servers.write().unwrap_or_else(|p| p.into_inner())
    }
}

/// Whether `learned` (if any) is due to be asked again at `now`.
pub fn is_due(learned: Option<&Learned>, now: i64) -> bool {
    let Some(learned) = learned else {
        return true;
    };
    let wait = if learned.failed.is_some() {
        RETRY_FAILED
    } else {
        REFRESH
    };
    now - learned.at >= wait.as_secs() as i64
}

/// What learning uses (`AppState::own_invites` builds it).
#[derive(Debug, Clone)]
pub struct Learning {
    /// The servers, their connections and configs.
    pub store: Store,
    /// When it is.
    pub clock: Clock,
    /// The platform adapters' clients.
    pub platforms: PlatformClients,
    /// Where the answers go.
    pub cache: Arc<OwnInvitesCache>,
}

/// The worker's tick: learns the own invites of every connected server
/// that filters links and is due ([`is_due`]); answers how many were asked.
pub async fn refresh_due(cx: &Learning) -> Result<usize, StoreError> {
    let connected = cx.store.read(connections::connected).await?;
    cx.cache.keep_only(&connected);
    let mut asked = 0;
    for server_id in connected {
        if !is_due(cx.cache.learned(&server_id).as_ref(), cx.clock.now_unix()) {
            continue;
        }
        if learn(cx, &server_id).await? {
            asked += 1;
        }
    }
    Ok(asked)
}

/// Asks the platform for `server_id`'s invites, if it filters links
/// (whether or not they are due); answers whether it asked. The worker's
/// tick calls it for each server due; `simulate message` for its one
/// simulated server alone, so that a CLI run (whose cache starts empty)
/// never asks a live platform, outside the daemon's rate limiters.
pub async fn learn(cx: &Learning, server_id: &str) -> Result<bool, StoreError> {
    let id = server_id.to_owned();
    let secrets = cx.store.secrets().clone();
    let found = cx
        .store
        .read(move |tx| connections::connected_server(tx, &secrets, &id))
        .await?;
    let Some((record, connection, sections)) = found else {
        return Ok(false);
    };
    let automod = &sections.automod;
    if !automod.invite_links.enabled && !automod.links.enabled {
        return Ok(false);
    }
    let bot = platform::connect(
        &cx.platforms,
        &cx.store,
        record.server.platform,
        server_id,
        connection,
    );
    ask(&cx.cache, server_id, &bot, &cx.clock).await;
    Ok(true)
}

/// Asks `bot` for `server_id`'s own invites and keeps the answer (or the
/// failure) in `cache`. The native AutoMod sync calls it too, for a guild
/// never asked yet, so the rule it writes first already allows them.
pub async fn ask(cache: &OwnInvitesCache, server_id: &str, bot: &Bot, clock: &Clock) {
    let answer = bot.invites().own_invites().await;
    let now = clock.now_unix();
    match answer {
        Ok(own) => {
            if let Some(refused) = &own.refused {
                tracing::info!(server = %server_id, %refused, "the platform lists only part of the server's own invites");
            }
            cache.learn(server_id, own, now);
        }
        Err(e) => {
            tracing::warn!(server = %server_id, error = %e, "cannot learn the server's own invites; tried again soon");
            cache.fail(server_id, e.advice(), now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(invites: &[&str]) -> OwnInvites {
        OwnInvites {
            invites: invites.iter().map(|s| (*s).to_owned()).collect(),
            refused: None,
        }
    }

    #[test]
    fn learning_keeps_the_latest_answer_and_versions_its_changes() {
        let cache = OwnInvitesCache::default();
        assert_eq!((cache.invites("g"), cache.version("g")), (vec![], 0));
        cache.learn("g", own(&["a"]), 100);
        assert_eq!(
            (cache.invites("g"), cache.version("g")),
            (vec!["a".to_owned()], 1)
        );
        // The same answer again: no new version (nothing to compile again).
        cache.learn("g", own(&["a"]), 700);
        assert_eq!(cache.version("g"), 1);
        // A failure keeps what was learned.
        cache.fail("g", "down".into(), 800);
        let learned = cache.learned("g").unwrap();
        assert_eq!(
            (&*learned.invites, learned.failed.as_deref()),
            (&["a".to_owned()][..], Some("down"))
        );
        cache.learn("g", own(&["a", "b"]), 900);
        assert_eq!(
            (cache.version("g"), cache.learned("g").unwrap().failed),
            (2, None)
        );
        cache.keep_only(&[]);
        assert_eq!(cache.version("g"), 0);
    }

    #[test]
    fn a_server_is_asked_again_after_the_refresh_or_sooner_after_a_failure() {
        let learned = |at, failed: bool| Learned {
            at,
            failed: failed.then(|| "down".to_owned()),
            ..Learned::default()
        };
        let refresh = REFRESH.as_secs() as i64;
        let retry = RETRY_FAILED.as_secs() as i64;
        for (last, now, due) in [
            (None, 0, true),
            (Some(learned(1000, false)), 1000 + refresh - 1, false),
            (Some(learned(1000, false)), 1000 + refresh, true),
            (Some(learned(1000, true)), 1000 + retry - 1, false),
            (Some(learned(1000, true)), 1000 + retry, true),
        ] {
            assert_eq!(is_due(last.as_ref(), now), due, "{last:?} at {now}");
        }
    }
}
