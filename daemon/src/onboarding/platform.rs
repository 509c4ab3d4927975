//! What the checklist asks the platform, and the cache of its answers.
//!
//! Asking a platform takes a few requests (Discord: guild, roles, channels,
//! the bot's member), so the answer is kept for [`CACHE_TTL`] per server and
//! the endpoint answers from memory in between; `?refresh=true` asks now.
//! A failure is an answer too (kept as long), so a platform that is down is
//! not asked again by every dashboard refresh.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use modctl_types::Server;
use modctl_types::snapshot::StructureContent;

use crate::AppState;
use crate::platform::telegram::{BotMembership, Telegram};
use crate::platform::{self, Hierarchy, PlatformError};
use crate::store::connections::{Connection, ConnectionMode};

/// How long the platform's answers are used before it is asked again.
pub const CACHE_TTL: Duration = Duration::from_secs(300);
/// Servers remembered before the cache is emptied (memory bound).
const MAX_ENTRIES: usize = 10_000;

/// What the platform said, when.
#[derive(Debug, Clone)]
pub struct PlatformFacts {
    /// When it was asked (unix seconds, the daemon's clock).
    pub checked_at: i64,
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
    /// Telegram on its API only: the group's kind and the bot's rights in
    /// it, or why they could not be read.
    pub telegram: Option<Result<BotMembership, PlatformError>>,
}

/// The cached answers, per server; cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct FactsCache {
    entries: Arc<Mutex<HashMap<String, PlatformFacts>>>,
}

impl FactsCache {
    /// The platform's answer for `server`: from the cache when it is younger
    /// than [`CACHE_TTL`] and `refresh` is false (`true` in the pair), else
    /// asked now.
    pub async fn get(
        &self,
        state: &AppState,
        server: &Server,
        connection: Connection,
        refresh: bool,
    ) -> (PlatformFacts, bool) {
        let now = state.clock.now_unix();
        if !refresh
            && let Some(facts) = self.lock().get(&server.id)
            && now - facts.checked_at < CACHE_TTL.as_secs() as i64
        {
            return (facts.clone(), true);
        }
        let facts = PlatformFacts {
            checked_at: now,
            answer: ask(state, server, connection).await,
        };
        let mut entries = self.lock();
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(server.id.clone(), facts.clone());
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

async fn ask(
    state: &AppState,
    server: &Server,
    connection: Connection,
) -> Result<Answer, PlatformError> {
    let telegram = match (&connection.mode, server.platform) {
        (ConnectionMode::Live { token, api_base }, modctl_types::Platform::Telegram) => {
            Some(Telegram::new(
                state.platforms.clone(),
                api_base.clone(),
                token.clone(),
                connection.telegram_chat_id.as_deref().unwrap_or(&server.id),
            ))
        }
        _ => None,
    };
    let platform = platform::connect(
        &state.platforms,
        &state.store,
        server.platform,
        &server.id,
        connection,
    );
    let structure = platform.read_structure().await?;
    // The guild's own id is never a member: the hierarchy comes without a target.
    let hierarchy = match platform.hierarchy(&server.id).await {
        Ok(hierarchy) => hierarchy,
        Err(PlatformError::Unsupported(_)) => None,
        Err(e) => return Err(e),
    };
    let telegram = match telegram {
        Some(telegram) => Some(telegram.bot_membership().await),
        None => None,
    };
    Ok(Answer {
        structure,
        hierarchy,
        telegram,
    })
}
