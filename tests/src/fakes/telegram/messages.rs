//! Sending and deleting messages, from the Bot API reference:
//!
//! - `sendMessage`: `text` "1-4096 characters after entities parsing"
//!   (`Bad Request: message text is empty`, `Bad Request: message is too
//!   long`); `parse_mode` `HTML`, `MarkdownV2` or `Markdown` (else `Bad
//!   Request: unsupported parse_mode`); with `HTML` the text is parsed as
//!   "Formatting options", "HTML style" says: only the listed tags, `<`,
//!   `>` and `&` outside tags escaped as `&lt;`, `&gt;`, `&amp;` (or
//!   `&quot;`, or numeric entities), every tag closed; else `Bad Request:
//!   can't parse entities: ...`. Every argument is kept (`text`,
//!   `parse_mode`, `entities`, `link_preview_options`, the older
//!   `disable_web_page_preview`). A private chat (a user's id) can be
//!   written to only once the user started the bot
//!   ([`FakeTelegram::start_bot`]): else `403 Forbidden: bot can't initiate
//!   conversation with a user` (or `403 Forbidden: bot was blocked by the
//!   user`, [`FakeTelegram::block_bot`]).
//! - Group rate limit (Bot FAQ "My bot is hitting limits, how do I avoid
//!   this?": "your bot will not be able to send more than 20 messages per
//!   minute to the same group"): at most [`GROUP_LIMIT`] per
//!   [`GROUP_WINDOW`] per group (sliding), beyond it `429 Too Many
//!   Requests: retry after N` with `parameters.retry_after`
//!   (ResponseParameters), nothing sent, counted
//!   ([`FakeTelegram::too_many_requests`]).
//! - `deleteMessage`: "A message can only be deleted if it was sent less
//!   than 48 hours ago" (the fake's clock: the machine's, or
//!   [`FakeTelegram::set_clock`]); the bot deletes its own messages
//!   anywhere; others' in a basic group if it is an administrator, in a
//!   supergroup only with `can_delete_messages`; otherwise, and when too
//!   old, `Bad Request: message can't be deleted`. An unknown or deleted
//!   message is `Bad Request: message to delete not found`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::{BOT, Bot, FakeTelegram, bad_request, failure, integer, ok, user_json};
use crate::fakes::server::Reply;

/// Messages per group per [`GROUP_WINDOW`].
pub const GROUP_LIMIT: usize = 20;
/// See [`GROUP_LIMIT`].
pub const GROUP_WINDOW: Duration = Duration::from_secs(60);
/// "less than 48 hours ago".
const DELETE_WINDOW_SECONDS: i64 = 48 * 3600;
/// "1-4096 characters after entities parsing".
const MAX_TEXT: usize = 4096;

/// A message in a chat: one the bot sent (every argument kept) or one a
/// test pushed as a member's.
#[derive(Debug, Clone, PartialEq)]
pub struct TelegramMessage {
    /// `message_id`.
    pub message_id: i64,
    /// The sender's user id.
    pub from: i64,
    /// Unix time it was sent.
    pub date: i64,
    /// `text`.
    pub text: String,
    /// The bot's `sendMessage` arguments (`parse_mode`, `entities`,
    /// `link_preview_options`, ...); `Null` for a pushed message.
    pub args: Value,
    /// Whether `deleteMessage` deleted it.
    pub deleted: bool,
}

/// The tags "HTML style" lists.
const HTML_TAGS: [&str; 16] = [
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "tg-emoji",
    "code",
    "pre",
    "blockquote",
];

/// Parses `text` as Telegram's HTML; the number of visible characters, or
/// what Telegram says is wrong.
pub fn parse_html(text: &str) -> Result<usize, String> {
    let mut open: Vec<String> = Vec::new();
    let mut visible = 0;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let offset = text.len() - rest.len();
        match c {
            '<' => {
                let inner = &rest[1..];
                let closing = inner.starts_with('/');
                let name: String = inner
                    .trim_start_matches('/')
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect::<String>()
                    .to_ascii_lowercase();
                if !HTML_TAGS.contains(&name.as_str()) {
                    let kind = if closing { "end" } else { "start" };
                    return Err(format!(
                        "Unsupported {kind} tag \"{name}\" at byte offset {offset}"
                    ));
                }
                let Some(end) = rest.find('>') else {
                    return Err(format!("Unclosed start tag at byte offset {offset}"));
                };
                if closing {
                    if open.pop().as_deref() != Some(name.as_str()) {
                        return Err(format!(
                            "Unmatched end tag at byte offset {offset}, expected \"</{}>\", found \"</{name}>\"",
                            open.last().map_or("", String::as_str)
                        ));
                    }
                } else {
                    open.push(name);
                }
                rest = &rest[end + 1..];
            }
            '&' => {
                let entity = rest.find(';').map(|end| &rest[1..end]).filter(|e| {
                    matches!(*e, "lt" | "gt" | "amp" | "quot")
                        || e.strip_prefix('#').is_some_and(|n| {
                            n.strip_prefix('x').map_or_else(
                                || !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
                                |hex| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
                            )
                        })
                });
                let Some(entity) = entity else {
                    return Err(format!("Character entity expected at byte offset {offset}"));
                };
                visible += 1;
                rest = &rest[entity.len() + 2..];
            }
            '>' => {
                return Err(format!("Unexpected end tag at byte offset {offset}"));
            }
            c => {
                visible += 1;
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    match open.last() {
        Some(tag) => Err(format!(
            "Can't find end tag corresponding to start tag \"{tag}\""
        )),
        None => Ok(visible),
    }
}

impl Bot {
    /// The fake's unix time: the machine's, unless a test set it.
    pub(super) fn unix_now(&self) -> i64 {
        self.clock.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        })
    }

    /// Keeps a message a test pushed, for `deleteMessage`.
    pub(super) fn remember(&mut self, chat: i64, message: &Value) {
        let (Some(message_id), Some(from)) = (
            message["message_id"].as_i64(),
            message["from"]["id"].as_i64(),
        ) else {
            return;
        };
        if let Some(chat) = self.chats.get_mut(&chat) {
            chat.sent.push(TelegramMessage {
                message_id,
                from,
                date: message["date"].as_i64().unwrap_or(0),
                text: message["text"].as_str().unwrap_or_default().to_owned(),
                args: Value::Null,
                deleted: false,
            });
        }
    }

    /// Whether the bot may write to `chat_id`, creating the private chat of
    /// a user who started the bot.
    fn reachable(&mut self, chat_id: i64) -> Result<(), Reply> {
        if self.chats.contains_key(&chat_id) {
            return Ok(());
        }
        if chat_id > 0 {
            if self.blocked.contains(&chat_id) {
                return Err(failure(403, "Forbidden: bot was blocked by the user"));
            }
            if self.started.contains(&chat_id) {
                self.chats.entry(chat_id).or_default();
                return Ok(());
            }
            return Err(failure(
                403,
                "Forbidden: bot can't initiate conversation with a user",
            ));
        }
        Err(bad_request("chat not found"))
    }

    /// Counts a message to group `chat_id` against its limit.
    fn admit(&mut self, chat_id: i64) -> Result<(), Reply> {
        if chat_id > 0 {
            return Ok(());
        }
        let now = Instant::now();
        let (limit, window) = self.group_limit;
        let sent: &mut VecDeque<Instant> = self.group_sends.entry(chat_id).or_default();
        while sent.front().is_some_and(|t| *t + window <= now) {
            sent.pop_front();
        }
        if sent.len() >= limit {
            let wait = sent.front().map_or(window, |t| *t + window - now);
            let seconds = wait.as_nanos().div_ceil(1_000_000_000).max(1);
            self.too_many_requests += 1;
            return Err(Reply::json(
                429,
                json!({
                    "ok": false, "error_code": 429,
                    "description": format!("Too Many Requests: retry after {seconds}"),
                    "parameters": { "retry_after": seconds },
                }),
            ));
        }
        sent.push_back(now);
        Ok(())
    }

    pub(super) fn send_message(&mut self, params: &Map<String, Value>) -> Reply {
        let Some(chat_id) = integer(params.get("chat_id")) else {
            return bad_request("chat not found");
        };
        if let Err(reply) = self.reachable(chat_id) {
            return reply;
        }
        let text = match params.get("text").and_then(Value::as_str) {
            Some(text) if !text.trim().is_empty() => text.to_owned(),
            _ => return bad_request("message text is empty"),
        };
        let visible = match params.get("parse_mode").and_then(Value::as_str) {
            None | Some("") => text.chars().count(),
            Some("HTML") => match parse_html(&text) {
                Ok(visible) => visible,
                Err(problem) => return bad_request(&format!("can't parse entities: {problem}")),
            },
            // Markdown is accepted as sent (not parsed by the fake).
            Some("MarkdownV2" | "Markdown") => text.chars().count(),
            Some(_) => return bad_request("unsupported parse_mode"),
        };
        if visible > MAX_TEXT {
            return bad_request("message is too long");
        }
        if let Err(reply) = Bot::check_reply_markup(params) {
            return reply;
        }
        if let Err(reply) = self.admit(chat_id) {
            return reply;
        }
        let message_id = self.next_message_id;
        self.next_message_id += 1;
        let date = self.unix_now();
        let kind = if chat_id > 0 {
            "private"
        } else {
            self.chat_type(chat_id)
        };
        let chat = self.chat(chat_id);
        chat.messages.push(text.clone());
        chat.sent.push(TelegramMessage {
            message_id,
            from: BOT,
            date,
            text: text.clone(),
            args: Value::Object(params.clone()),
            deleted: false,
        });
        ok(json!({
            "message_id": message_id,
            "from": user_json(BOT),
            "chat": { "id": chat_id, "type": kind },
            "date": date,
            "text": text,
        }))
    }

    /// `sendPhoto` (telegram-bot-api.json): `chat_id`, `photo` (here an
    /// upload: "Sending files", multipart/form-data, so every field is a
    /// string and `reply_markup` a JSON-serialized object), `caption`
    /// "0-1024 characters after entities parsing". The photo must be a
    /// PNG the shared server could read the size of ("PHOTO_INVALID_DIMENSIONS"
    /// otherwise, as for an image Telegram cannot process). Kept like a
    /// message, its caption as the text and `reply_markup` parsed.
    pub(super) fn send_photo(&mut self, params: &Map<String, Value>) -> Reply {
        let Some(chat_id) = integer(params.get("chat_id")) else {
            return bad_request("chat not found");
        };
        if let Err(reply) = self.reachable(chat_id) {
            return reply;
        }
        let Some(photo) = params.get("photo").filter(|p| p.is_object()) else {
            return bad_request("there is no photo in the request");
        };
        if photo["png"]["width"].as_u64().unwrap_or(0) == 0 {
            return bad_request("PHOTO_INVALID_DIMENSIONS");
        }
        let caption = params
            .get("caption")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if caption.chars().count() > 1024 {
            return bad_request("message caption is too long");
        }
        let mut params = params.clone();
        if let Some(Value::String(markup)) = params.get("reply_markup") {
            match serde_json::from_str::<Value>(markup) {
                Ok(markup) => {
                    params.insert("reply_markup".into(), markup);
                }
                Err(_) => return bad_request("can't parse reply keyboard markup JSON object"),
            }
        }
        if let Err(reply) = Bot::check_reply_markup(&params) {
            return reply;
        }
        if let Err(reply) = self.admit(chat_id) {
            return reply;
        }
        let message_id = self.next_message_id;
        self.next_message_id += 1;
        let date = self.unix_now();
        let kind = self.chat_type(chat_id);
        let chat = self.chat(chat_id);
        chat.sent.push(TelegramMessage {
            message_id,
            from: BOT,
            date,
            text: caption.clone(),
            args: Value::Object(params),
            deleted: false,
        });
        ok(json!({
            "message_id": message_id,
            "from": user_json(BOT),
            "chat": { "id": chat_id, "type": kind },
            "date": date,
            "caption": caption,
            "photo": [{"file_id": format!("photo-{message_id}"), "file_unique_id": format!("p{message_id}"),
                       "width": photo["png"]["width"], "height": photo["png"]["height"]}],
        }))
    }

    pub(super) fn delete_message(&mut self, params: &Map<String, Value>) -> Reply {
        let Some(chat_id) = integer(params.get("chat_id")).filter(|id| self.chats.contains_key(id))
        else {
            return bad_request("chat not found");
        };
        let message_id = integer(params.get("message_id")).unwrap_or(0);
        let now = self.unix_now();
        let basic = self.basic_groups.contains(&chat_id);
        // can_delete_messages: every administrator of the fake's groups
        // has it unless the test took it away (`set_bot_right`).
        let can_delete = self.bot_is_admin
            && (basic
                || self
                    .bot_rights
                    .get("can_delete_messages")
                    .is_none_or(|v| *v == true));
        let chat = self.chat(chat_id);
        let Some(message) = chat
            .sent
            .iter_mut()
            .find(|m| m.message_id == message_id && !m.deleted)
        else {
            return bad_request("message to delete not found");
        };
        let allowed = message.from == BOT || chat_id > 0 || can_delete;
        if !allowed || now - message.date >= DELETE_WINDOW_SECONDS {
            return bad_request("message can't be deleted");
        }
        message.deleted = true;
        ok(json!(true))
    }
}

impl FakeTelegram {
    /// Every message of `chat` (the bot's and pushed ones), oldest first.
    pub fn all_messages(&self, chat: i64) -> Vec<TelegramMessage> {
        self.state()
            .chats
            .get(&chat)
            .map(|c| c.sent.clone())
            .unwrap_or_default()
    }

    /// The messages the bot sent to `chat`, with their arguments.
    pub fn sent(&self, chat: i64) -> Vec<TelegramMessage> {
        self.all_messages(chat)
            .into_iter()
            .filter(|m| m.from == BOT)
            .collect()
    }

    /// Whether message `message_id` of `chat` was deleted.
    pub fn is_deleted(&self, chat: i64, message_id: i64) -> bool {
        self.all_messages(chat)
            .iter()
            .any(|m| m.message_id == message_id && m.deleted)
    }

    /// `user` started the bot: it may now write to them (their private
    /// chat's id is their user id).
    pub fn start_bot(&self, user: i64) {
        let mut state = self.state();
        state.blocked.remove(&user);
        state.started.insert(user);
    }

    /// `user` blocked the bot.
    pub fn block_bot(&self, user: i64) {
        let mut state = self.state();
        state.started.remove(&user);
        state.chats.remove(&user);
        state.blocked.insert(user);
    }

    /// Telegram's clock for `deleteMessage`'s 48 hours, as unix seconds
    /// (default: the machine's).
    pub fn set_clock(&self, unix: i64) {
        self.state().clock = Some(unix);
    }

    /// At most `limit` messages per group in any `window` (default
    /// [`GROUP_LIMIT`] per [`GROUP_WINDOW`]).
    pub fn set_group_limit(&self, limit: usize, window: Duration) {
        self.state().group_limit = (limit.max(1), window);
    }

    /// How many 429s `sendMessage` answered.
    pub fn too_many_requests(&self) -> usize {
        self.state().too_many_requests
    }
}
