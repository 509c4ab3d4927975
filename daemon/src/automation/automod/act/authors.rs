//! The author's rank, for the rule that the owner and members above the bot
//! are never filtered (issue #25).
//!
//! Only Discord gives a rank the daemon can check cheaply: the author's
//! place in the hierarchy is asked once something is caught (never for a
//! clean message), and remembered for [`AUTHOR_TTL`] in a bounded cache, so
//! a member caught again within it costs no request. A look-up that fails
//! is not remembered: the message is filtered (the delete then fails if
//! Discord refuses it), and the next message asks again. Slack's and
//! Telegram's admins are left to `automod.exempt_role_ids` /
//! `exempt_channel_ids`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use modctl_types::Timestamp;

use crate::platform::Bot;
use crate::sync::lock;

/// How long the daemon trusts what Discord said about an author's rank.
pub const AUTHOR_TTL: Duration = Duration::from_secs(300);

/// Authors remembered at most; the oldest half is forgotten beyond it.
pub const AUTHOR_CAPACITY: usize = 10_000;

/// What Discord said about authors' ranks, remembered for [`AUTHOR_TTL`].
#[derive(Debug, Default)]
pub struct Authors {
    known: Mutex<HashMap<(String, String), (bool, Timestamp)>>,
}

impl Authors {
    /// Whether `user` of `server` is exempt, asking Discord (through `bot`)
    /// when it is not remembered; `false` on the other platforms.
    pub(super) async fn exempt(&self, bot: &Bot, server: &str, user: &str, now: Timestamp) -> bool {
        if !matches!(bot, Bot::Discord(_)) {
            return false;
        }
        if let Some(exempt) = self.get(server, user, now) {
            return exempt;
        }
        match discord_exempt(bot, user).await {
            Some(exempt) => {
                self.put(server, user, exempt, now);
                exempt
            }
            None => false,
        }
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

/// Whether Discord says `user` is the owner or ranks at or above the bot
/// (whom the bot could not act on): never filtered. `None` when it cannot
/// be told (the look-up failed).
async fn discord_exempt(bot: &Bot, user: &str) -> Option<bool> {
    let Bot::Discord(discord) = bot else {
        return Some(false);
    };
    let hierarchy = discord.hierarchy(user).await.ok()?;
    if hierarchy.owner_id == user {
        return Some(true);
    }
    let highest = |roles: &[String]| {
        roles
            .iter()
            .filter_map(|id| hierarchy.roles.iter().find(|r| &r.id == id))
            .map(|r| r.position)
            .max()
            .unwrap_or(0)
    };
    Some(
        hierarchy
            .target
            .as_ref()
            .is_some_and(|t| highest(&t.roles) >= highest(&hierarchy.bot.roles)),
    )
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
