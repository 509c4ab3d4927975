//! Messages, as the Slack Web API reference documents each method:
//!
//! - `chat.postMessage`: to a channel by id or name, or a DM opened with
//!   `conversations.open`; the bot must be in the channel (`not_in_channel`);
//!   `text` or `blocks` must be given (`no_text`); `text` and `blocks` are
//!   kept per channel. Sizes: chat.postMessage's reference ("Truncating
//!   content") truncates `text` over 40,000 characters, which the fake
//!   does too (the message kept is the truncated one); Block Kit allows 50
//!   blocks a message and 3000 characters in a section's text, beyond
//!   which Slack answers `invalid_blocks`. Rate limit (api.slack.com/docs/rate-limits,
//!   "Posting messages": "1 per second", "Short bursts >1 allowed", per
//!   channel; chat.postMessage "generally allows posting one message per
//!   second per channel"): a token bucket per channel refilled with one
//!   post per [`POST_INTERVAL`] and holding at most [`POST_BURST`] (Slack
//!   gives no burst figure: the fake's choice, [`FakeSlack::set_post_limit`]
//!   changes it); beyond it HTTP `429` with `Retry-After` (whole seconds)
//!   and `{"ok": false, "error": "ratelimited"}`, nothing posted, and
//!   counted ([`FakeSlack::rate_limited`]).
//! - `chat.delete` (reference, "chat.delete": "When used with a typical
//!   user token, may only delete messages posted by that user. When used
//!   with an admin user's user token, may delete most messages posted in a
//!   workspace. When used with a bot token, may delete only messages posted
//!   by that bot."): otherwise `cant_delete_message`; an unknown `ts` is
//!   `message_not_found`, an unknown channel `channel_not_found`.
//! - `chat.postEphemeral`: `user_not_in_channel` when the user is not a
//!   member of the channel; `no_text` as above; kept per channel and user.
//! - `conversations.open` with `users` (one user): the DM channel (`D...`,
//!   the same one every time, `already_open` after the first);
//!   `users_list_not_supplied` without users, `user_not_found` for a user
//!   the workspace lacks.
//!
//! The token says who calls (auth: `xoxb-` is the bot, `xoxp-` a user):
//! [`super::TOKEN`] the bot, [`super::ADMIN_TOKEN`] an admin user,
//! [`super::MEMBER_TOKEN`] a plain member.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::{BOT, Caller, FakeSlack, SlackChannel, Workspace, failure, success, text};
use crate::fakes::server::Reply;

/// One post per channel per `POST_INTERVAL` in the long run (Slack: "1
/// per second").
pub const POST_INTERVAL: Duration = Duration::from_secs(1);
/// The longest burst of posts to one channel (Slack: "Short bursts >1
/// allowed", no figure).
pub const POST_BURST: u32 = 3;

/// A channel's token bucket: posts it may make now, as of `at`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// Takes a post at `now` from a bucket of `burst` refilled every
    /// `interval`; `Err(wait)` until the next post when it is empty.
    fn take(
        bucket: Option<Bucket>,
        now: Instant,
        burst: u32,
        interval: Duration,
    ) -> Result<Bucket, (Bucket, Duration)> {
        let mut bucket = bucket.unwrap_or(Bucket {
            tokens: f64::from(burst),
            at: now,
        });
        let refilled = now.duration_since(bucket.at).as_secs_f64() / interval.as_secs_f64();
        bucket.tokens = (bucket.tokens + refilled).min(f64::from(burst));
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(bucket)
        } else {
            let wait = interval.mul_f64(1.0 - bucket.tokens);
            Err((bucket, wait))
        }
    }
}

/// A message in a channel.
#[derive(Debug, Clone, PartialEq)]
pub struct SlackMessage {
    /// Its `ts`.
    pub ts: String,
    /// Who posted it.
    pub user: String,
    /// `text` ("" when only blocks were sent).
    pub text: String,
    /// Every argument the poster sent (`blocks`, `unfurl_links`, ...);
    /// `Null` for a message a test seeded.
    pub args: Value,
    /// Whether `chat.delete` deleted it.
    pub deleted: bool,
}

/// An ephemeral message.
#[derive(Debug, Clone, PartialEq)]
pub struct Ephemeral {
    /// The user who sees it.
    pub user: String,
    /// `text`.
    pub text: String,
    /// Every argument sent.
    pub args: Value,
}

/// Where Slack truncates `text` (chat.postMessage, "Truncating content").
const MAX_TEXT: usize = 40_000;
/// The most blocks in a message (Block Kit: "up to 50 blocks").
const MAX_BLOCKS: usize = 50;
/// The longest text of a section block (Block Kit, "Section": "maximum
/// length for the text in this field is 3000 characters").
const MAX_SECTION_TEXT: usize = 3000;

/// `text` or `blocks` is required (`no_text`), within their sizes; the
/// text ("" with blocks only).
fn text_or_blocks(args: &Map<String, Value>) -> Result<String, Reply> {
    let text = text(args, "text");
    let blocks = match args.get("blocks") {
        Some(Value::Array(blocks)) => blocks.clone(),
        // Form-encoded: a JSON array as a string.
        Some(Value::String(blocks)) => match serde_json::from_str::<Value>(blocks) {
            Ok(Value::Array(blocks)) => blocks,
            _ => return Err(failure("invalid_blocks_format")),
        },
        _ => Vec::new(),
    };
    if text.is_empty() && blocks.is_empty() {
        return Err(failure("no_text"));
    }
    let long_section = blocks.iter().any(|b| {
        b["type"] == "section"
            && b["text"]["text"]
                .as_str()
                .is_some_and(|t| t.chars().count() > MAX_SECTION_TEXT)
    });
    // Block Kit, "Button element": `action_id` at most 255 characters,
    // `text` a plain_text of at most 75.
    let bad_button = blocks
        .iter()
        .filter(|b| b["type"] == "actions")
        .flat_map(|b| b["elements"].as_array().cloned().unwrap_or_default())
        .filter(|e| e["type"] == "button")
        .any(|e| {
            let id = e["action_id"].as_str().map_or(0, |a| a.chars().count());
            let label = e["text"]["text"].as_str().map_or(0, |t| t.chars().count());
            e["text"]["type"] != "plain_text"
                || !(1..=255).contains(&id)
                || !(1..=75).contains(&label)
        });
    if blocks.len() > MAX_BLOCKS || long_section || bad_button {
        return Err(failure("invalid_blocks"));
    }
    Ok(text.chars().take(MAX_TEXT).collect())
}

impl Workspace {
    pub(super) fn next_ts(&mut self) -> String {
        let ts = format!("1700000000.{:06}", self.next_ts);
        self.next_ts += 1;
        ts
    }

    /// The channel named by id, or by name with or without `#`.
    fn channel_id(&self, wanted: &str) -> Option<String> {
        let name = wanted.trim_start_matches('#');
        self.channels
            .iter()
            .find(|(id, c)| id.as_str() == wanted || (!c.name.is_empty() && c.name == name))
            .map(|(id, _)| id.clone())
    }

    pub(super) fn post_message(&mut self, caller: &Caller, args: &Map<String, Value>) -> Reply {
        let Some(id) = self.channel_id(text(args, "channel")) else {
            return failure("channel_not_found");
        };
        let channel = &self.channels[&id];
        // chat.postMessage: `not_in_channel` when the bot is not a member
        // (without the `chat:write.public` scope, which the daemon does not
        // ask for).
        if !channel.bot_is_member {
            return failure("not_in_channel");
        }
        if channel.is_archived {
            return failure("is_archived");
        }
        let text = match text_or_blocks(args) {
            Ok(text) => text,
            Err(reply) => return reply,
        };
        let (burst, interval) = self.post_limit;
        let bucket = self.post_buckets.get(&id).copied();
        match Bucket::take(bucket, Instant::now(), burst, interval) {
            Ok(bucket) => {
                self.post_buckets.insert(id.clone(), bucket);
            }
            Err((bucket, wait)) => {
                self.post_buckets.insert(id.clone(), bucket);
                self.rate_limited += 1;
                let seconds = wait.as_nanos().div_ceil(1_000_000_000).max(1);
                return Reply::json(429, json!({ "ok": false, "error": "ratelimited" }))
                    .header("retry-after", &seconds.to_string());
            }
        }
        let ts = self.next_ts();
        let user = caller.user().to_owned();
        self.channels
            .get_mut(&id)
            .expect("found above")
            .messages
            .push(SlackMessage {
                ts: ts.clone(),
                user: user.clone(),
                text: text.clone(),
                args: Value::Object(args.clone()),
                deleted: false,
            });
        success(json!({
            "channel": id,
            "ts": ts,
            "message": { "type": "message", "user": user, "text": text, "ts": ts },
        }))
    }

    pub(super) fn delete_message(&mut self, caller: &Caller, args: &Map<String, Value>) -> Reply {
        let Some(channel) = self.channels.get_mut(text(args, "channel")) else {
            return failure("channel_not_found");
        };
        let ts = text(args, "ts");
        let Some(message) = channel
            .messages
            .iter_mut()
            .find(|m| m.ts == ts && !m.deleted)
        else {
            return failure("message_not_found");
        };
        let allowed = match caller {
            Caller::Bot => message.user == BOT,
            Caller::User { id, admin } => *admin || message.user == *id,
        };
        if !allowed {
            return failure("cant_delete_message");
        }
        message.deleted = true;
        success(json!({ "channel": text(args, "channel"), "ts": ts }))
    }

    pub(super) fn post_ephemeral(&mut self, args: &Map<String, Value>) -> Reply {
        let Some(id) = self.channel_id(text(args, "channel")) else {
            return failure("channel_not_found");
        };
        let user = text(args, "user").to_owned();
        let text = match text_or_blocks(args) {
            Ok(text) => text,
            Err(reply) => return reply,
        };
        let ts = self.next_ts();
        let channel = self.channels.get_mut(&id).expect("found above");
        if channel.is_archived {
            return failure("is_archived");
        }
        if !channel.members.contains(&user) {
            return failure("user_not_in_channel");
        }
        channel.ephemerals.push(Ephemeral {
            user,
            text,
            args: Value::Object(args.clone()),
        });
        success(json!({ "message_ts": ts }))
    }

    pub(super) fn open_conversation(&mut self, args: &Map<String, Value>) -> Reply {
        let users: Vec<&str> = text(args, "users")
            .split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .collect();
        let [user] = users.as_slice() else {
            // Several users open a multi-person DM on Slack; the fake
            // models one-to-one DMs only.
            return failure(if users.is_empty() {
                "users_list_not_supplied"
            } else {
                "method_not_supported_for_channel_type"
            });
        };
        if !self.users.contains_key(*user) {
            return failure("user_not_found");
        }
        let existing = self
            .channels
            .iter()
            .find(|(_, c)| c.im_user.as_deref() == Some(*user))
            .map(|(id, _)| id.clone());
        let already_open = existing.is_some();
        let id = match existing {
            Some(id) => id,
            None => {
                let id = self.new_id("D");
                self.channels.insert(
                    id.clone(),
                    SlackChannel {
                        bot_is_member: true,
                        is_private: true,
                        im_user: Some((*user).to_owned()),
                        members: [(*user).to_owned(), BOT.to_owned()].into(),
                        ..SlackChannel::default()
                    },
                );
                id
            }
        };
        success(json!({
            "no_op": already_open, "already_open": already_open,
            "channel": { "id": id },
        }))
    }
}

impl FakeSlack {
    /// The messages of `channel` (the bot's, users', deleted ones), oldest
    /// first, with what their posters sent.
    pub fn all_messages(&self, channel: &str) -> Vec<SlackMessage> {
        self.state()
            .channels
            .get(channel)
            .map(|c| c.messages.clone())
            .unwrap_or_default()
    }

    /// The messages the bot posted to `channel`, oldest first.
    pub fn posted(&self, channel: &str) -> Vec<SlackMessage> {
        self.all_messages(channel)
            .into_iter()
            .filter(|m| m.user == BOT)
            .collect()
    }

    /// Seeds a message by `user` in `channel`; its `ts`.
    pub fn seed_message(&self, channel: &str, user: &str, text: &str) -> String {
        let mut state = self.state();
        let ts = state.next_ts();
        if let Some(c) = state.channels.get_mut(channel) {
            c.messages.push(SlackMessage {
                ts: ts.clone(),
                user: user.to_owned(),
                text: text.to_owned(),
                args: Value::Null,
                deleted: false,
            });
        }
        ts
    }

    /// Whether the message `ts` of `channel` was deleted.
    pub fn is_deleted(&self, channel: &str, ts: &str) -> bool {
        self.all_messages(channel)
            .iter()
            .any(|m| m.ts == ts && m.deleted)
    }

    /// Makes `user` (a workspace user, added if new) a member of `channel`.
    pub fn add_channel_member(&self, channel: &str, user: &str) {
        let mut state = self.state();
        state
            .users
            .entry(user.to_owned())
            .or_insert_with(|| format!("user-{user}"));
        if let Some(c) = state.channels.get_mut(channel) {
            c.members.insert(user.to_owned());
        }
    }

    /// The ephemeral messages shown in `channel`, oldest first.
    pub fn ephemerals(&self, channel: &str) -> Vec<Ephemeral> {
        self.state()
            .channels
            .get(channel)
            .map(|c| c.ephemerals.clone())
            .unwrap_or_default()
    }

    /// The messages the bot sent `user` in their DM, oldest first.
    pub fn dms(&self, user: &str) -> Vec<SlackMessage> {
        let channel = self
            .state()
            .channels
            .iter()
            .find(|(_, c)| c.im_user.as_deref() == Some(user))
            .map(|(id, _)| id.clone());
        channel.map(|c| self.posted(&c)).unwrap_or_default()
    }

    /// `chat.postMessage` per channel: bursts of at most `burst`, one
    /// post per `interval` in the long run (default [`POST_BURST`],
    /// [`POST_INTERVAL`]); every channel starts with a full bucket.
    pub fn set_post_limit(&self, burst: u32, interval: Duration) {
        let mut state = self.state();
        state.post_limit = (burst.max(1), interval);
        state.post_buckets.clear();
    }

    /// How many 429s `chat.postMessage` answered.
    pub fn rate_limited(&self) -> usize {
        self.state().rate_limited
    }
}
