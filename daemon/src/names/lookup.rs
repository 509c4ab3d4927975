//! The name lookups (issue #27): the names the events never carried, asked
//! of the platforms in the background.
//!
//! A Slack member who never changed their profile, a Discord member of a
//! guild too large for `GUILD_CREATE` to list them, a Telegram user who
//! has not spoken since the daemon started: the event path names none of
//! them. When an answer asks the [`NameCache`] for such an id (or for a
//! name learned [`REFRESH_AGE`] ago), the cache queues it (at most
//! [`QUEUE`] ids, each once; the answer never waits), and [`look_up_due`],
//! a worker's tick (`crate::workers::name_lookups`), asks the server's
//! platform through the [`MemberNames`] and [`ChannelNames`] capabilities:
//!
//! - Discord: "Get Guild Member" (`GET /guilds/{guild.id}/members/{user.id}`);
//! - Telegram: `getChatMember`;
//! - Slack: `users.info`, and `conversations.info` for a channel.
//!
//! Each server has a budget of [`budget`] lookups per [`WINDOW`] on the
//! daemon's clock; ids past it stay queued for the next window. A name
//! found fills the cache; an id the platform does not know (a departed
//! member, a deleted channel) is remembered for [`MISS_AGE`], a failed
//! lookup for [`RETRY_FAILED`], so neither is asked for on every answer.
//! A channel on a platform without [`ChannelNames`] costs no call: it is
//! remembered as a miss at once.
//!
//! Every lookup is counted for `GET /metrics`
//! (`modctld_name_lookups{platform, outcome}`; outcome `found`,
//! `not_found` or `failed`). Like the cache, the queue, the misses and the
//! budgets are this daemon's memory (a single-daemon assumption named in
//! [`crate::coordination`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use modctl_types::Platform;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use super::{NameCache, Wanted};
use crate::clock::Clock;
use crate::events::NameKind;
use crate::platform::telemetry::CallLabels;
use crate::platform::{self, Bot, PlatformClients};
use crate::store::{Store, StoreError, connections};

/// The ids waiting for a lookup, at most, all servers together; an id
/// asked for while it is full is asked for again by a later answer.
pub const QUEUE: usize = 1_000;

/// The misses remembered at most, all servers together.
pub const MISSES: usize = 10_000;

/// A name is looked up again when an answer asks for it this long after it
/// was learned (from an event or a lookup): a rename the events did not
/// carry shows within this, plus a lookup.
pub const REFRESH_AGE: Duration = Duration::from_secs(6 * 3600);

/// How long an id the platform did not know is not asked for again.
pub const MISS_AGE: Duration = Duration::from_secs(3600);

/// How long an id whose lookup failed (the platform refused or could not
/// be reached) is not asked for again.
pub const RETRY_FAILED: Duration = Duration::from_secs(300);

/// The window a server's [`budget`] counts in.
pub const WINDOW: Duration = Duration::from_secs(60);

/// The lookups one server may make per [`WINDOW`].
///
/// A fraction of what each platform allows, so that the lookups never
/// crowd out what the daemon must do (actions, log posts, restores):
/// - Discord: 30 a minute. Every bot may make 50 requests a second in all
///   (discord-docs/rate-limits.mdx, "Global Rate Limit"), and "Get Guild
///   Member" shares its per-route bucket with the member reads of
///   recovery; a lookup is one request, waiting for its bucket like any
///   other ([`crate::platform::ratelimit`]).
/// - Slack: 20 a minute. `users.info` is a Tier 4 method (100+ a minute)
///   and `conversations.info` Tier 3 (50+ a minute), per workspace and app
///   (Slack's "Rate limits" page, docs.slack.dev/apis/web-api/rate-limits);
///   automod's rank check asks `users.info` too.
/// - Telegram: 20 a minute. The Bot API documents no limit for
///   `getChatMember` (telegram-bot-api.json), and its FAQ asks for no more
///   than about 30 requests a second overall; a group's bot also sends its
///   messages and restrictions within that.
pub fn budget(platform: Platform) -> u32 {
    match platform {
        Platform::Discord => 30,
        Platform::Slack | Platform::Telegram => 20,
        other => platform::new_platform(other),
    }
}

/// Each server's lookups in its current window.
#[derive(Debug, Default)]
pub struct Budgets {
    /// Server id -> (the window's start, unix seconds; lookups made in it).
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

impl Budgets {
    /// Takes one lookup from `server`'s budget at `now`; whether there was
    /// one left.
    fn take(&self, server: &str, platform: Platform, now: i64) -> bool {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let window = windows.entry(server.to_owned()).or_insert((now, 0));
        if now - window.0 >= WINDOW.as_secs() as i64 {
            *window = (now, 0);
        }
        if window.1 >= budget(platform) {
            return false;
        }
        window.1 += 1;
        true
    }
}

/// Lookups by platform and outcome (`found`, `not_found`, `failed`).
pub type LookupCounts = Family<CallLabels, Counter>;

/// The outcomes counted, every one shown from the first scrape.
pub const OUTCOMES: [&str; 3] = ["found", "not_found", "failed"];

/// What the lookups use (`AppState::name_lookups` builds it).
#[derive(Debug, Clone)]
pub struct Lookups {
    /// The servers and their connections.
    pub store: Store,
    /// When it is (budgets and ages).
    pub clock: Clock,
    /// The platform adapters' clients.
    pub platforms: PlatformClients,
    /// Where the names go, and where the wanted ids wait.
    pub names: NameCache,
    /// Each server's budget.
    pub budgets: Arc<Budgets>,
    /// Lookups by platform and outcome.
    pub counts: LookupCounts,
}

/// What one lookup came to.
enum Outcome {
    Found(String),
    NotFound,
    Failed,
}

/// The worker's tick: asks the platforms for the ids queued, each server
/// within its budget; answers how many lookups were made (calls to a
/// platform). Ids of a server whose budget is spent wait for its next
/// window; ids of a server not connected are dropped (nothing to ask).
pub async fn look_up_due(cx: &Lookups) -> Result<usize, StoreError> {
    let wanted = cx.names.take_wanted();
    if wanted.is_empty() {
        return Ok(0);
    }
    let mut by_server: Vec<(Arc<str>, Vec<Wanted>)> = Vec::new();
    for w in wanted {
        match by_server.iter_mut().find(|(s, _)| *s == w.server) {
            Some((_, list)) => list.push(w),
            None => by_server.push((w.server.clone(), vec![w])),
        }
    }
    let mut asked = 0;
    let mut later = Vec::new();
    for (server, list) in by_server {
        let id = server.to_string();
        let secrets = cx.store.secrets().clone();
        let found = cx
            .store
            .read(move |tx| connections::connected_server(tx, &secrets, &id))
            .await?;
        let Some((record, connection, _)) = found else {
            continue;
        };
        let platform = record.server.platform;
        let bot = platform::connect(&cx.platforms, &cx.store, platform, &server, connection);
        for w in list {
            if w.kind == NameKind::Channel && bot.channel_names().is_none() {
                // Nothing to ask: the platform names its channels otherwise.
                cx.names.missed(&w, MISS_AGE.as_secs() as i64);
                continue;
            }
            if !cx.budgets.take(&server, platform, cx.clock.now_unix()) {
                later.push(w);
                continue;
            }
            asked += 1;
            let outcome = ask(&bot, &w).await;
            let label = match outcome {
                Outcome::Found(name) => {
                    cx.names.put(&w.server, w.kind, &w.id, &name);
                    "found"
                }
                Outcome::NotFound => {
                    cx.names.missed(&w, MISS_AGE.as_secs() as i64);
                    "not_found"
                }
                Outcome::Failed => {
                    cx.names.missed(&w, RETRY_FAILED.as_secs() as i64);
                    "failed"
                }
            };
            cx.counts
                .get_or_create(&CallLabels {
                    platform: platform.as_str(),
                    outcome: label,
                })
                .inc();
        }
    }
    cx.names.put_back(later);
    Ok(asked)
}

/// Asks `bot` for `wanted`'s name.
async fn ask(bot: &Bot, wanted: &Wanted) -> Outcome {
    let answer = match wanted.kind {
        NameKind::User => bot.member_names().member_name(&wanted.id).await,
        NameKind::Channel => match bot.channel_names() {
            Some(channels) => channels.channel_name(&wanted.id).await,
            None => Ok(None),
        },
        NameKind::Role => Ok(None),
    };
    match answer {
        Ok(Some(name)) => Outcome::Found(name),
        Ok(None) => Outcome::NotFound,
        Err(e) => {
            // The id and the platform's words only: never a token (the
            // adapters redact their errors).
            tracing::info!(server = %wanted.server, id = %wanted.id, error = %e, "a name lookup failed; asked again later");
            Outcome::Failed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_holds_per_server_and_window() {
        let budgets = Budgets::default();
        let taken = (0..50)
            .filter(|_| budgets.take("t", Platform::Slack, 1_000))
            .count();
        assert_eq!(taken, 20);
        // Another server has its own.
        assert!(budgets.take("u", Platform::Slack, 1_000));
        // Still in the window: none.
        assert!(!budgets.take("t", Platform::Slack, 1_059));
        // The next window: a budget again.
        assert!(budgets.take("t", Platform::Slack, 1_060));
    }

    #[test]
    fn unknown_and_stale_names_are_wanted_once_and_misses_wait() {
        let clock = Clock::manual(modctl_types::Timestamp::from_second(1_000_000).unwrap());
        let names = NameCache::new(clock.clone());
        assert_eq!(names.user("s", "1"), None);
        assert_eq!(names.user("s", "1"), None);
        assert_eq!(names.get("s", NameKind::Role, "9"), None);
        let wanted = names.take_wanted();
        assert_eq!(wanted.len(), 1, "queued once, roles never: {wanted:?}");
        // A miss is not wanted again until it has waited.
        names.missed(&wanted[0], 60);
        assert_eq!(names.user("s", "1"), None);
        assert_eq!(names.wanted_len(), 0);
        clock.advance(Duration::from_secs(60));
        assert_eq!(names.user("s", "1"), None);
        assert_eq!(names.wanted_len(), 1);
        let _ = names.take_wanted();

        // A name learned is fresh until REFRESH_AGE, then wanted again (and
        // still answered meanwhile).
        names.put("s", NameKind::User, "2", "bo");
        assert_eq!(names.user("s", "2").as_deref(), Some("bo"));
        assert_eq!(names.wanted_len(), 0);
        clock.advance(REFRESH_AGE);
        assert_eq!(names.user("s", "2").as_deref(), Some("bo"));
        assert_eq!(names.wanted_len(), 1);
    }

    #[test]
    fn the_queue_is_bounded_and_what_is_put_back_goes_first() {
        let names = NameCache::new(Clock::manual(modctl_types::Timestamp::UNIX_EPOCH));
        for id in 0..QUEUE + 10 {
            names.user("s", &id.to_string());
        }
        assert_eq!(names.wanted_len(), QUEUE);
        let mut wanted = names.take_wanted();
        names.user("s", "late");
        let back = wanted.split_off(QUEUE - 2);
        names.put_back(back);
        let again = names.take_wanted();
        assert_eq!(
            again.iter().map(|w| w.id.as_str()).collect::<Vec<_>>(),
            vec![&*(QUEUE - 2).to_string(), &*(QUEUE - 1).to_string(), "late"]
        );
    }
}
