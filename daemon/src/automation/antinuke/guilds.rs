//! Keeps each Discord guild's owner and roles fresh from the gateway
//! (issue #26 review): the consumer that feeds
//! [`crate::platform::discord::guilds::GuildCache`], where the adapter's
//! hierarchy reads and antinuke's "never counted" look them up. It lives
//! with antinuke, whose exemptions need the owner current after a transfer
//! (`GUILD_UPDATE`), and is a consumer of its own so that antinuke's queue
//! (or a server with antinuke off) never holds the cache back.

use async_trait::async_trait;

use crate::events::{Consumer, Event, EventKind};
use crate::platform::discord::guilds::GuildCache;

/// The consumer's name, in logs and the drop counts.
pub const NAME: &str = "discord_guilds";

/// Applies guild and role dispatches to the cache.
#[derive(Debug, Clone)]
pub struct GuildFeed {
    guilds: GuildCache,
}

impl GuildFeed {
    /// A feed into `guilds` (the daemon's `PlatformClients::discord_guilds`).
    pub fn new(guilds: GuildCache) -> GuildFeed {
        GuildFeed { guilds }
    }
}

#[async_trait]
impl Consumer for GuildFeed {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn handle(&self, event: Event) {
        let guild = event.server_id.as_ref();
        match event.kind {
            EventKind::GuildChanged(state) => {
                // When the dispatch was received, on the daemon's clock (the
                // one the adapter's reads compare with).
                let now_ms = event.at.as_millisecond();
                if state.session_start {
                    self.guilds.start(guild, state.whole, now_ms);
                } else if let Some((owner, roles)) = state.whole {
                    self.guilds.refresh(guild, owner, roles, now_ms);
                }
            }
            EventKind::RoleChanged(role) => self.guilds.put_role(guild, role),
            EventKind::RoleRemoved(role) => self.guilds.remove_role(guild, &role),
            _ => {}
        }
    }
}
