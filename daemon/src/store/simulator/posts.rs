//! What the bot posted to a simulated community (log posts, DMs, ephemeral
//! notices, warnings), kept as posted: the plain text the simulator's
//! readers use, and the posts themselves (title, text and fields, as JSON
//! the simulator writes) so they can be shown as the platform would
//! (`modctld simulate posts`, the demo's terminal). One row is one message:
//! a log batch holds several posts.

use crate::store::sql::{Row, params};

use crate::store::{StoreError, Tx, scalar};

/// A message the bot posted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The message id (what a deletion names).
    pub id: i64,
    /// The simulated server.
    pub server_id: String,
    /// Where: a channel id, or the simulator's `dm:USER` and
    /// `ephemeral:CHANNEL:USER`.
    pub channel_id: String,
    /// The channel's name, when it is a channel of the community.
    pub channel_name: Option<String>,
    /// When (unix seconds).
    pub posted_at: i64,
    /// The posts of the message, as the simulator wrote them (JSON).
    pub posts: String,
}

/// Records a message of the bot posted to `channel` at `now`: its plain
/// `text` and its `posts` (JSON); its id.
pub fn insert_post(
    tx: &Tx<'_>,
    server_id: &str,
    channel: &str,
    text: &str,
    posts: &str,
    now: i64,
) -> Result<i64, StoreError> {
    tx.sql
        .prepare(
            "INSERT INTO sim_messages (server_id, channel_id, text, posted_at, posts) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![server_id, channel, text, now, posts])?;
    Ok(tx.sql.last_insert_rowid())
}

const SELECT: &str = "SELECT m.id, m.server_id, m.channel_id, c.name AS channel_name, m.posted_at, m.posts \
     FROM sim_messages m LEFT JOIN sim_channels c \
     ON c.server_id = m.server_id AND c.channel_id = m.channel_id";

fn posted(row: &Row<'_>) -> Result<Posted, StoreError> {
    Ok(Posted {
        id: row.get("id")?,
        server_id: row.get("server_id")?,
        channel_id: row.get("channel_id")?,
        channel_name: row.get("channel_name")?,
        posted_at: row.get("posted_at")?,
        posts: row.get("posts")?,
    })
}

/// The latest `limit` messages the bot posted in `server_id` (to `channel`
/// only, when given), oldest first.
pub fn posts(
    tx: &Tx<'_>,
    server_id: &str,
    channel: Option<&str>,
    limit: u32,
) -> Result<Vec<Posted>, StoreError> {
    let sql = format!(
        "SELECT * FROM ({SELECT} WHERE m.server_id = ?1 AND m.posts IS NOT NULL \
         AND (?2 IS NULL OR m.channel_id = ?2) ORDER BY m.id DESC LIMIT ?3) ORDER BY id"
    );
    let mut stmt = tx.sql.prepare(&sql)?;
    let rows = stmt.rows(params![server_id, channel, limit], posted)?;
    Ok(rows)
}

/// Up to `limit` messages the bot posted in any simulated server after
/// message `after`, oldest first: what a watcher has not seen yet.
pub fn posts_after(tx: &Tx<'_>, after: i64, limit: u32) -> Result<Vec<Posted>, StoreError> {
    let sql = format!("{SELECT} WHERE m.id > ?1 AND m.posts IS NOT NULL ORDER BY m.id LIMIT ?2");
    let mut stmt = tx.sql.prepare(&sql)?;
    let rows = stmt.rows(params![after, limit], posted)?;
    Ok(rows)
}

/// The id of the latest message in any simulated server (0: none): where a
/// watcher that shows only what comes next starts.
pub fn latest_message_id(tx: &Tx<'_>) -> Result<i64, StoreError> {
    tx.sql
        .row("SELECT COALESCE(MAX(id), 0) FROM sim_messages", [], scalar)
}

#[cfg(test)]
mod tests {
    use modctl_types::Platform;

    use super::*;
    use crate::store::simulator::{Community, SimChannel, insert_message, seed};
    use crate::store::testing::store_with_server;

    #[tokio::test]
    async fn the_latest_posts_of_a_channel_oldest_first_and_what_came_after() {
        let (_dir, store) = store_with_server(Platform::Slack, "T1").await;
        let listed = store
            .write(|tx| {
                const CHANNELS: &[SimChannel<'static>] = &[
                    SimChannel::text("C0LOG0001", "mod-log"),
                    SimChannel::text("C0GEN0001", "general"),
                ];
                let community = Community {
                    owner_id: "U1",
                    bot_user_id: "U2",
                    roles: &[],
                    members: &[],
                    channels: CHANNELS,
                };
                seed(tx, "T1", &community)?;
                // A member's message is not the bot's post.
                insert_message(tx, "T1", "C0GEN0001", "hello", 1)?;
                let first = insert_post(tx, "T1", "C0LOG0001", "a", "[1]", 2)?;
                insert_post(tx, "T1", "dm:U3", "b", "[2]", 3)?;
                insert_post(tx, "T1", "C0LOG0001", "c", "[3]", 4)?;
                let posts_of =
                    |channel: Option<&str>, limit: u32| -> Result<Vec<String>, StoreError> {
                        Ok(posts(tx, "T1", channel, limit)?
                            .into_iter()
                            .map(|p| p.posts)
                            .collect())
                    };
                let after: Vec<String> = posts_after(tx, first, 10)?
                    .into_iter()
                    .map(|p| p.posts)
                    .collect();
                let named: Vec<Option<String>> = posts(tx, "T1", None, 10)?
                    .into_iter()
                    .map(|p| p.channel_name)
                    .collect();
                Ok::<_, StoreError>((
                    posts_of(None, 10)?,
                    posts_of(None, 2)?,
                    posts_of(Some("C0LOG0001"), 10)?,
                    posts_of(Some("dm:U3"), 10)?,
                    after,
                    named,
                    latest_message_id(tx)?,
                ))
            })
            .await
            .unwrap();
        let (all, latest_two, modlog, dm, after, named, latest) = listed;
        assert_eq!(all, ["[1]", "[2]", "[3]"]);
        assert_eq!(latest_two, ["[2]", "[3]"]);
        assert_eq!(modlog, ["[1]", "[3]"]);
        assert_eq!(dm, ["[2]"]);
        assert_eq!(after, ["[2]", "[3]"]);
        assert_eq!(
            named,
            [Some("mod-log".to_owned()), None, Some("mod-log".to_owned())]
        );
        assert_eq!(latest, 4);
    }
}
