//! The simulator's own tables (`sim_*`): the stand-in communities of
//! `modctld server connect --simulated` and the demo. They hold what a
//! platform would (members with roles, bans, mutes, roles, channels with
//! overwrites, native AutoMod rules, members' messages and the bot's posts)
//! and nothing of the daemon's own data, which only ever reaches them
//! through the simulator's platform calls (`crate::platform::simulator`), as
//! it would reach a real platform.
//!
//! Only persistence lives here: which calls a platform refuses, and with
//! which error, is the simulator's business, not the store's. One file per
//! part of a community:
//!
//! - [`seed`]: the community as it starts (`modctld server connect
//!   --simulated`, the demo), its owner and bot;
//! - [`members`]: members with their roles and mutes, and bans;
//! - [`structure`]: roles and channels with their overwrites (what a
//!   snapshot reads, a nuke deletes and a restore creates), and [`ids`]
//!   for what is created;
//! - [`messages`]: members' messages (what automod deletes);
//! - [`posts`]: what the bot posted (log posts, DMs, notices), as posted;
//! - [`native_rules`]: Discord's native AutoMod rules.

mod ids;
mod members;
mod messages;
mod native_rules;
mod posts;
mod seed;
mod structure;

pub use ids::{new_id, new_slack_id};
pub use members::*;
pub use messages::*;
pub use native_rules::*;
pub use posts::*;
pub use seed::*;
pub use structure::*;

use super::{StoreError, Tx, scalar};

/// How many rows of `table` the community has.
fn count(tx: &Tx<'_>, table: &str, server_id: &str) -> Result<usize, StoreError> {
    let n: i64 = tx.sql.row(
        &format!("SELECT COUNT(*) FROM {table} WHERE server_id = ?1"),
        [server_id],
        scalar,
    )?;
    Ok(n as usize)
}
