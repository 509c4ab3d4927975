//! What the checklist asks the platform, and the cache of its answers.
//!
//! Asking a platform takes a few requests (Discord: guild, roles, channels,
//! the bot's member), so the answer is kept for [`CACHE_TTL`] per server and
//! the endpoint answers from memory in between; `?refresh=true` asks now.
//! An answer is also dropped when what the checklist compares it with, or
//! what changed the platform through us, moved since it was asked
//! ([`Basis`]): a new config revision (the mod-log set to a channel made a
//! minute ago), a restore job (it recreated roles and channels), a
//! snapshot (it read the structure anew). Changes made on the platform by
//! hand are seen within [`CACHE_TTL`], or at once with `?refresh=true`.
//! A failure is an answer too (kept as long), so a platform that is down is
//! not asked again by every dashboard refresh.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use modctl_types::Server;
use modctl_types::snapshot::StructureContent;

use crate::platform::Gateway;
use crate::platform::discord::Discord;
use crate::platform::telegram::{BotMembership, Telegram};
use crate::platform::{self, Bot, Hierarchy, PlatformClients, PlatformError};
use crate::store::Store;
use crate::store::connections::{Connection, ConnectionMode};

/// How long the platform's answers are used before it is asked again.
pub const CACHE_TTL: Duration = Duration::from_secs(300);
/// Servers remembered before the cache is emptied (memory bound).
const MAX_ENTRIES: usize = 10_000;

/// What, in the store, an answer of the platform was asked under: when
/// any of it differs, the answer is asked again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Basis {
    /// The server's config revision.
    pub config_revision: u64,
    /// When its newest snapshot was captured.
    pub latest_snapshot_at: Option<i64>,
    /// Its newest restore job: id and state.
    pub latest_restore: Option<(i64, String)>,
}

/// What the platform said, when.
#[derive(Debug, Clone)]
pub struct PlatformFacts {
    /// When it was asked (unix seconds, the daemon's clock).
    pub checked_at: i64,
    /// What it was asked under.
    pub basis: Basis,
    /// Its structure and (Discord) the bot's place in the role hierarchy, or
    /// why it could not be read.
    pub answer: Result<Answer, PlatformError>,
}

/// The platform's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Roles, channels and settings as they are now.
    pub structure: StructureContent,
    /// Discord only: roles with permissions and the bot's roles.
    pub hierarchy: Option<Hierarchy>,
    /// Slack only: the channels the bot is a member of (it posts nowhere
    /// else).
    pub joined_channels: Option<Vec<String>>,
    /// Telegram on its API only: the group's kind and the bot's rights in
    /// it, or why they could not be read.
    pub telegram: Option<Result<BotMembership, PlatformError>>,
    /// Discord on its API only, and only when an enabled automod filter
    /// runs in the daemon: whether the application's flags grant the
    /// message-content intent, or why they could not be read.
    pub message_content: Option<Result<bool, PlatformError>>,
}

/// The cached answers, per server; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct FactsCache {
    entries: Arc<Mutex<HashMap<String, PlatformFacts>>>,
}

impl FactsCache {
    /// The platform's answer for `server_id` at `now`: from the cache when
    /// it is younger than [`CACHE_TTL`], was asked under `basis` and
    /// `refresh` is false (`true` in the pair), else asked now by awaiting
    /// `ask` (e.g. [`ask`]; not awaited when the cache answers).
    pub async fn get(
        &self,
        now: i64,
        server_id: &str,
        basis: &Basis,
        refresh: bool,
        ask: impl Future<Output = Result<Answer, PlatformError>>,
    ) -> (PlatformFacts, bool) {
        if !refresh
            && let Some(facts) = self.lock().get(server_id)
            && now - facts.checked_at < CACHE_TTL.as_secs() as i64
            && facts.basis == *basis
        {
            return (facts.clone(), true);
        }
        let facts = PlatformFacts {
            checked_at: now,
            basis: basis.clone(),
            answer: ask.await,
        };
        let mut entries = self.lock();
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(server_id.to_owned(), facts.clone());
        (facts, false)
    }

    /// Forgets `server`'s answer (its connection changed).
    pub fn forget(&self, server_id: &str) {
        self.lock().remove(server_id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, PlatformFacts>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Asks `server`'s platform, over `connection`, what the checklist needs;
/// `content_needed` says an automod filter runs in the daemon, so whether
/// Discord delivers message content matters.
pub async fn ask(
    store: &Store,
    platforms: &PlatformClients,
    server: &Server,
    connection: Connection,
    content_needed: bool,
) -> Result<Answer, PlatformError> {
    let discord = match (&connection.mode, server.platform) {
        (ConnectionMode::Live { token, api_base }, modctl_types::Platform::Discord)
            if content_needed =>
        {
            Some(Discord::new(
                platforms.clone(),
                api_base.clone(),
                token.clone(),
                &server.id,
            ))
        }
        _ => None,
    };
    let telegram = match (&connection.mode, server.platform) {
        (ConnectionMode::Live { token, api_base }, modctl_types::Platform::Telegram) => {
            Some(Telegram::new(
                platforms.clone(),
                api_base.clone(),
                token.clone(),
                connection.telegram_chat_id.as_deref().unwrap_or(&server.id),
            ))
        }
        _ => None,
    };
    let platform = platform::connect(platforms, store, server.platform, &server.id, connection);
    let structure = platform.reader().read_structure().await?;
    // Roles are Discord's, joined channels Slack's. The guild's own id is
    // never a member: the hierarchy comes without a target.
    let (hierarchy, joined_channels) = match &platform {
        Bot::Discord(discord) => (Some(discord.hierarchy(&server.id).await?), None),
        Bot::Slack(slack) => (None, Some(slack.joined_channels().await?)),
        Bot::Telegram(_) => (None, None),
    };
    let telegram = match telegram {
        Some(telegram) => Some(telegram.bot_membership().await),
        None => None,
    };
    let message_content = match discord {
        Some(discord) => Some(
            discord
                .application_flags()
                .await
                .map(crate::receive::gateway::content_granted),
        ),
        None => None,
    };
    Ok(Answer {
        structure,
        hierarchy,
        joined_channels,
        telegram,
        message_content,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// The cache answers for [`CACHE_TTL`] under the same basis; a refresh,
    /// another basis, an older answer or a forgotten server asks again.
    #[tokio::test]
    async fn the_cache_answers_under_its_basis_for_its_time() {
        let cache = FactsCache::default();
        let asked = AtomicUsize::new(0);
        let ask = || async {
            asked.fetch_add(1, Ordering::SeqCst);
            Err(PlatformError::Unauthorized)
        };
        let basis = Basis::default();
        let ttl = CACHE_TTL.as_secs() as i64;
        let get = |now, basis: &Basis, refresh| {
            let basis = basis.clone();
            let cache = cache.clone();
            let ask = ask();
            async move { cache.get(now, "s", &basis, refresh, ask).await.1 }
        };

        assert!(!get(1_000, &basis, false).await, "nothing cached yet");
        assert!(get(1_000 + ttl - 1, &basis, false).await);
        assert_eq!(asked.load(Ordering::SeqCst), 1, "the cache answered");
        assert!(!get(1_000, &basis, true).await, "refresh");
        let revised = Basis {
            config_revision: 1,
            ..Basis::default()
        };
        assert!(!get(1_000, &revised, false).await, "another basis");
        assert!(get(1_000, &revised, false).await);
        assert!(!get(1_000 + ttl, &revised, false).await, "too old");
        cache.forget("s");
        assert!(!get(1_000 + ttl, &revised, false).await, "forgotten");
        assert_eq!(asked.load(Ordering::SeqCst), 5);
        let (facts, cached) = cache.get(1_000 + ttl, "s", &revised, false, ask()).await;
        assert!(cached && facts.checked_at == 1_000 + ttl, "{facts:?}");
        assert!(matches!(facts.answer, Err(PlatformError::Unauthorized)));
    }
}
