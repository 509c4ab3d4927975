//! The author's rank, for the rule that the owner and members above the bot
//! are never filtered (issue #25).
//!
//! Every platform says it its own way ([`crate::platform::RankMember`]:
//! Discord's role order, Telegram's creator and the administrators the bot
//! did not promote, Slack's owners and admins). The rank is asked once
//! something is caught (never for a clean message), and remembered for
//! [`AUTHOR_TTL`] in a bounded cache, so a member caught again within it
//! costs no request. A look-up that fails is not remembered: the message is
//! filtered (the delete then fails if the platform refuses it), and the next
//! message asks again.
//!
//! On Discord a guild message carries its author's roles (`member`, "present
//! in MESSAGE_CREATE and MESSAGE_UPDATE events from text-based guild
//! channels", the message object's docs), so only the guild's side (owner,
//! role order, the bot's roles) is asked, once per server per
//! [`AUTHOR_TTL`], and the rank is read against the roles the message came
//! with: asking four requests per new member made a raid of new accounts
//! queue its deletes behind Discord's rate limits (`modctl-bench
//! automod-latency`: deletes up to 0.7 s late in the first second), and the
//! roles of the message are fresher than any cache.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use modctl_types::Timestamp;

use std::sync::Arc;

use crate::events::Author;
use crate::platform::hierarchy::{Hierarchy, Member};
use crate::platform::{Bot, PlatformResult, ReadHierarchy};
use crate::sync::lock;

/// How long the daemon trusts what Discord said about an author's rank.
pub const AUTHOR_TTL: Duration = Duration::from_secs(300);

/// Authors remembered at most; the oldest half is forgotten beyond it.
pub const AUTHOR_CAPACITY: usize = 10_000;

/// What the platforms said about authors' ranks, remembered for
/// [`AUTHOR_TTL`].
#[derive(Debug, Default)]
pub struct Authors {
    known: Mutex<HashMap<(String, String), (bool, Timestamp)>>,
    /// Discord: each guild's owner, roles and bot member (no target).
    guilds: Mutex<HashMap<String, (Arc<Hierarchy>, Timestamp)>>,
}

impl Authors {
    /// Whether `author` of `server` is exempt, asking the platform (through
    /// `bot`) what it needs that is not remembered.
    pub(super) async fn exempt(
        &self,
        bot: &Bot,
        server: &str,
        author: &Author,
        now: Timestamp,
    ) -> bool {
        let user = author.id.as_str();
        let asked = match bot.role_order() {
            Some(order) => self.guild(order, server, user, now).await.map(|guild| {
                let mut ranked = (*guild).clone();
                ranked.target = Some(Member {
                    user_id: user.to_owned(),
                    roles: author.role_ids.clone(),
                });
                ranked.outranks_bot(user)
            }),
            None => {
                if let Some(exempt) = self.get(server, user, now) {
                    return exempt;
                }
                bot.ranks().above_automod(user).await.inspect(|exempt| {
                    self.put(server, user, *exempt, now);
                })
            }
        };
        asked.unwrap_or_else(|e| {
            tracing::debug!(server, user, error = %e, "the author's rank could not be asked: filtered, and asked again next time");
            false
        })
    }

    /// The guild's side of the rank (Discord), asked once per
    /// [`AUTHOR_TTL`] (with `user` as the look-up's target, whom the
    /// caller replaces).
    async fn guild(
        &self,
        order: &dyn ReadHierarchy,
        server: &str,
        user: &str,
        now: Timestamp,
    ) -> PlatformResult<Arc<Hierarchy>> {
        if let Some((guild, at)) = lock(&self.guilds).get(server)
            && now.duration_since(*at).unsigned_abs() < AUTHOR_TTL
        {
            return Ok(Arc::clone(guild));
        }
        let guild = Arc::new(order.hierarchy(user).await?);
        let mut guilds = lock(&self.guilds);
        if guilds.len() >= AUTHOR_CAPACITY {
            guilds.retain(|_, (_, at)| now.duration_since(*at).unsigned_abs() < AUTHOR_TTL);
        }
        guilds.insert(server.to_owned(), (Arc::clone(&guild), now));
        Ok(guild)
    }

    fn get(&self, server: &str, user: &str, now: Timestamp) -> Option<bool> {
        let known = lock(&self.known);
        let (exempt, at) = known.get(&(server.to_owned(), user.to_owned()))?;
        (now.duration_since(*at).unsigned_abs() < AUTHOR_TTL).then_some(*exempt)
    }

    fn put(&self, server: &str, user: &str, exempt: bool, now: Timestamp) {
        let mut known = lock(&self.known);
        if known.len() >= AUTHOR_CAPACITY {
            let mut ages: Vec<Timestamp> = known.values().map(|(_, at)| *at).collect();
            ages.sort_unstable();
            let cut = ages[ages.len() / 2];
            known.retain(|_, (_, at)| *at > cut);
        }
        known.insert((server.to_owned(), user.to_owned()), (exempt, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_remembered_for_their_ttl_and_the_cache_stays_bounded() {
        let authors = Authors::default();
        let t0 = Timestamp::from_second(1_000_000).unwrap();
        authors.put("g", "u", true, t0);
        let later = |secs: i64| Timestamp::from_second(1_000_000 + secs).unwrap();
        assert_eq!(authors.get("g", "u", later(299)), Some(true));
        assert_eq!(authors.get("g", "u", later(300)), None);
        assert_eq!(authors.get("g", "other", t0), None);
        for n in 0..AUTHOR_CAPACITY + 10 {
            authors.put("g", &n.to_string(), false, later(n as i64));
        }
        assert!(lock(&authors.known).len() <= AUTHOR_CAPACITY);
    }
}
