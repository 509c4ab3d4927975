//! What the bot posted to a simulated community, shown as the platform
//! would show it: `modctld simulate posts SERVER [CHANNEL]` lists the
//! latest posts (log posts, DMs, notices, Slack warnings), and the demo's
//! terminal prints each one as the simulator receives it ([`watch`]).
//!
//! Both show the posts the daemon sent, as sent: the simulator keeps each
//! message's posts (title, text, fields; a log batch holds several) beside
//! its plain text (`crate::store::simulator::posts`), so what is shown is
//! the rendered [`Post`], not the log entry rendered again. Both read the
//! database, so they see what any process posted: the running daemon's log
//! delivery as well as `modctld simulate message`'s own DMs and notices.

use std::time::Duration;

use modctl_types::Platform;
use serde::Serialize;

use super::print_rows;
use crate::platform::Post;
use crate::store::connections::{self, ConnectionMode};
use crate::store::simulator::{self as sim, Posted};
use crate::store::{Store, StoreError, servers, timestamp};

/// How many of the latest messages `simulate posts` shows when not told.
pub const DEFAULT_LIMIT: u32 = 20;

/// One message the bot posted, as `simulate posts --json` prints it.
#[derive(Debug, Serialize)]
pub struct ShownMessage {
    /// The simulated message id.
    pub message_id: i64,
    /// Where: a channel id, `dm:USER` or `ephemeral:CHANNEL:USER`.
    pub channel_id: String,
    /// The channel's name, when it is one of the community's channels.
    pub channel_name: Option<String>,
    /// When.
    pub posted_at: modctl_types::Timestamp,
    /// Its posts, as the daemon sent them.
    pub posts: Vec<Post>,
}

pub(super) fn shown(posted: Posted) -> Result<ShownMessage, StoreError> {
    let posts = serde_json::from_str(&posted.posts).map_err(|e| {
        StoreError::Corrupt(format!("the posts of simulated message {}: {e}", posted.id))
    })?;
    Ok(ShownMessage {
        message_id: posted.id,
        channel_id: posted.channel_id,
        channel_name: posted.channel_name,
        posted_at: timestamp(posted.posted_at),
        posts,
    })
}

/// Where a message was posted, as a member would name it: `#mod-log`,
/// `DM to USER`, `notice to USER in #general`; a channel the community no
/// longer has by its id.
pub fn place(message: &ShownMessage) -> String {
    if let Some(name) = &message.channel_name {
        return format!("#{name}");
    }
    let id = &message.channel_id;
    if let Some(user) = id.strip_prefix("dm:") {
        return format!("DM to {user}");
    }
    if let Some((channel, user)) = id
        .strip_prefix("ephemeral:")
        .and_then(|rest| rest.rsplit_once(':'))
    {
        return format!("notice to {user} in {channel}");
    }
    id.clone()
}

/// The latest `limit` messages the bot posted in simulated server
/// `server_id` (to `channel` alone, when given), oldest first.
pub async fn latest(
    store: &Store,
    server_id: &str,
    channel: Option<String>,
    limit: u32,
) -> anyhow::Result<Vec<ShownMessage>> {
    let (id, secrets) = (server_id.to_owned(), store.secrets().clone());
    Ok(store
        .read(move |tx| {
            servers::find(tx, &id)?.ok_or_else(|| {
                StoreError::NotFound(format!(
                    "server `{id}` is not claimed: claim it with `modctld server claim`"
                ))
            })?;
            if !matches!(
                connections::get(tx, &secrets, &id)?.map(|c| c.mode),
                Some(ConnectionMode::Simulated)
            ) {
                return Err(StoreError::Invalid(format!(
                    "server {id} is not connected to the simulator: simulate posts only shows \
                     what the bot posted in simulated servers (a real platform shows its own)"
                )));
            }
            sim::posts(tx, &id, channel.as_deref(), limit)?
                .into_iter()
                .map(shown)
                .collect()
        })
        .await?)
}

/// `modctld simulate posts`: prints one row per post (message, posted at,
/// where, the post on one line), or the messages as JSON.
pub(super) async fn posts(
    store: Store,
    server_id: String,
    channel: Option<String>,
    limit: u32,
    json: bool,
) -> anyhow::Result<()> {
    let messages = latest(&store, &server_id, channel.clone(), limit).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&messages)?);
        return Ok(());
    }
    if messages.is_empty() {
        let into = channel.map_or_else(String::new, |c| format!(" to {c}"));
        eprintln!(
            "the bot has posted nothing{into} in simulated server {server_id} yet \
             (a caught message is logged within a second or two while the daemon runs)"
        );
        return Ok(());
    }
    print_rows(
        &["MESSAGE", "POSTED AT", "WHERE", "POST"],
        messages.iter().flat_map(|m| {
            m.posts.iter().map(move |post| {
                vec![
                    m.message_id.to_string(),
                    m.posted_at.to_string(),
                    place(m),
                    post.one_line(usize::MAX),
                ]
            })
        }),
    );
    Ok(())
}

/// How long a post line of the demo's terminal may be.
const WATCH_LINE: usize = 200;
/// How often the demo looks for new posts.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// The lines the demo prints for `message`, posted on `platform`: one per
/// post, `posted to discord #mod-log: Case #3: warn | Member: ...`.
pub fn watch_lines(platform: Option<Platform>, message: &ShownMessage) -> Vec<String> {
    let on = platform.map_or_else(String::new, |p| format!("{p} "));
    let place = place(message);
    message
        .posts
        .iter()
        .map(|post| format!("posted to {on}{place}: {}", post.one_line(WATCH_LINE)))
        .collect()
}

/// Prints (through `report`) each post the bot makes in any simulated
/// server from now on, by whichever process, until the task is dropped:
/// the demo's terminal shows the log posts as they arrive.
pub async fn watch(store: Store, report: super::demo_webhooks::Report) {
    let mut seen = match store.read(sim::latest_message_id).await {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!(error = %e, "the demo cannot show what the bot posts");
            return;
        }
    };
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let after = seen;
        let found = store
            .read(move |tx| {
                let posted = sim::posts_after(tx, after, 100)?;
                posted
                    .into_iter()
                    .map(|p| {
                        let platform = servers::find(tx, &p.server_id)?.map(|r| r.server.platform);
                        Ok((platform, shown(p)?))
                    })
                    .collect::<Result<Vec<_>, StoreError>>()
            })
            .await;
        match found {
            Ok(messages) => {
                for (platform, message) in messages {
                    seen = seen.max(message.message_id);
                    for line in watch_lines(platform, &message) {
                        report(line);
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e, "looking for the bot's new posts"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(channel_id: &str, channel_name: Option<&str>) -> ShownMessage {
        ShownMessage {
            message_id: 1,
            channel_id: channel_id.into(),
            channel_name: channel_name.map(Into::into),
            posted_at: modctl_types::Timestamp::UNIX_EPOCH,
            posts: vec![
                Post::text("").titled("Case #3: warn").field("Member", "42"),
                Post::text("hi"),
            ],
        }
    }

    #[test]
    fn a_post_is_placed_as_a_member_would_name_it() {
        for (channel, name, want) in [
            ("700000000000000001", Some("mod-log"), "#mod-log"),
            ("dm:800000000000000005", None, "DM to 800000000000000005"),
            (
                "ephemeral:C0DEMOGEN1:U0DEMO0003",
                None,
                "notice to U0DEMO0003 in C0DEMOGEN1",
            ),
            ("700000000000000009", None, "700000000000000009"),
        ] {
            assert_eq!(place(&message(channel, name)), want);
        }
    }

    #[test]
    fn the_demo_prints_one_line_per_post_of_a_message() {
        let lines = watch_lines(
            Some(Platform::Discord),
            &message("700000000000000001", Some("mod-log")),
        );
        assert_eq!(
            lines,
            [
                "posted to discord #mod-log: Case #3: warn | Member: 42",
                "posted to discord #mod-log: hi",
            ]
        );
    }
}
