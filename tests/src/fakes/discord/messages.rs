//! Messages and DMs: `POST /channels/{id}/messages` (guild and DM channels,
//! the whole body kept), `DELETE /channels/{id}/messages/{id}`, `POST
//! /users/@me/channels` (a DM channel) and `GET /applications/@me` (the
//! application's flags, which say whether the message-content intent is
//! granted), with Discord's rules:
//!
//! - message.mdx "Create Message": the bot needs VIEW_CHANNEL (else `403
//!   Missing Access, 50001`) and SEND_MESSAGES (else `403 Missing
//!   Permissions, 50013`); a message needs at least one of `content`,
//!   `embeds`, `sticker_ids`, `components`, `files` or `poll` (else `400
//!   Cannot send an empty message, 50006`); `content` is at most 2000
//!   characters and `embeds` at most 10 (else `400 Invalid Form Body`);
//!   each embed within message.mdx "Embed Limits" (title 256, description
//!   4096, 25 fields of name 256 and value 1024, footer 2048, author 256,
//!   trimmed, and 6000 characters across all embeds of the message; else
//!   `400 Invalid Form Body`).
//! - message.mdx "Delete Message": a message the bot did not send needs
//!   MANAGE_MESSAGES in its channel (else `403 Missing Permissions`); an
//!   unknown (or already deleted) message is `404 Unknown Message, 10008`,
//!   an unknown channel `404 Unknown Channel, 10003`
//!   (opcodes-and-status-codes.mdx "JSON Error Codes"); success is `204`.
//! - user.mdx "Create DM": `recipient_id` gives a DM channel (type 1); the
//!   same user always gets the same channel. A user the fake does not know
//!   is `400 Invalid Recipient(s), 50033`. Posting to a user who accepts no
//!   DM from the bot ([`super::FakeDiscord::block_dms`]) is `403 Cannot send
//!   messages to this user, 50007`.
//!
//! The per-channel rate limit of posting is in [`super::limits`]
//! ([`super::MESSAGE_LIMIT`]).

use serde_json::{Value, json};

use super::guild::{Guild, error, invalid_form, missing_permissions};
use super::{BOT, MANAGE_MESSAGES, SEND_MESSAGES, VIEW_CHANNEL};
use crate::fakes::server::Reply;

/// Message.mdx "Create Message" JSON params: `content` "up to 2000
/// characters", `embeds` "up to 10".
const MAX_CONTENT: usize = 2000;
const MAX_EMBEDS: usize = 10;

/// A message in a channel: one the bot posted (its whole body kept) or one
/// a test seeded as a member's.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The message id.
    pub id: String,
    /// Who wrote it.
    pub author: String,
    /// `content` ("" when the message had none).
    pub content: String,
    /// The JSON body the bot sent (`Null` for seeded messages): `embeds`,
    /// `allowed_mentions` and the rest, as sent.
    pub body: Value,
    /// Whether it was deleted (`DELETE /channels/{id}/messages/{id}`).
    pub deleted: bool,
}

/// The application as `GET /applications/@me` answers it (the fields the
/// OpenAPI's `PrivateApplicationResponse` requires, `flags` as set).
pub(super) fn application_json(flags: u64) -> Value {
    json!({
        "id": BOT, "name": "modctl", "icon": null, "description": "", "type": null,
        "bot": { "id": BOT, "username": "modctl", "discriminator": "0", "bot": true },
        "bot_public": false, "bot_require_code_grant": false, "verify_key": "00",
        "flags": flags, "flags_new": flags.to_string(), "redirect_uris": [],
        "interactions_endpoint_url": null, "role_connections_verification_url": null,
        "owner": { "id": super::OWNER, "username": "owner", "discriminator": "0" },
        "approximate_guild_count": 1,
    })
}

/// message.mdx "Embed Limits", measured on trimmed text.
fn check_embeds(embeds: &Value) -> Result<(), Reply> {
    let length = |value: &Value| value.as_str().map_or(0, |s| s.trim().chars().count());
    let mut total = 0;
    for (i, embed) in embeds.as_array().into_iter().flatten().enumerate() {
        let limited = [
            ("title", &embed["title"], 256),
            ("description", &embed["description"], 4096),
            ("footer.text", &embed["footer"]["text"], 2048),
            ("author.name", &embed["author"]["name"], 256),
        ];
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err(invalid_form(
                &format!("embeds.{i}.fields"),
                "Must be 25 or fewer in length.",
            ));
        }
        let field_texts = fields.iter().enumerate().flat_map(|(j, f)| {
            [
                (format!("fields.{j}.name"), f["name"].clone(), 256),
                (format!("fields.{j}.value"), f["value"].clone(), 1024),
            ]
        });
        let all = limited
            .into_iter()
            .map(|(name, value, max)| (name.to_owned(), value.clone(), max))
            .chain(field_texts);
        for (name, value, max) in all {
            let n = length(&value);
            if n > max {
                return Err(invalid_form(
                    &format!("embeds.{i}.{name}"),
                    &format!("Must be {max} or fewer in length."),
                ));
            }
            total += n;
        }
    }
    if total > 6000 {
        return Err(invalid_form(
            "embeds",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    Ok(())
}

impl Guild {
    pub(super) fn post_message(&mut self, channel: &str, body: &Value) -> Reply {
        let dm_user = self.dm_channels.get(channel).cloned();
        if dm_user.is_none() {
            if !self.channels.iter().any(|c| c.id == channel) {
                return error(404, "Unknown Channel", 10003);
            }
            // A channel the bot cannot view does not exist for it: `403
            // Missing Access, 50001` (permissions.mdx, VIEW_CHANNEL; the code
            // in opcodes-and-status-codes.mdx). Posting also needs
            // SEND_MESSAGES there (message.mdx, "Create Message": "the
            // current user must have the SEND_MESSAGES permission"): else
            // `403 Missing Permissions`.
            let held = self.channel_permissions(BOT, channel);
            if held & VIEW_CHANNEL == 0 {
                return error(403, "Missing Access", 50001);
            }
            if held & SEND_MESSAGES == 0 {
                return missing_permissions();
            }
        }
        let content = body["content"].as_str().unwrap_or_default().to_owned();
        let embeds = body["embeds"].as_array().map_or(0, Vec::len);
        let has_other = ["sticker_ids", "components", "files", "poll"]
            .iter()
            .any(|f| !body[*f].is_null());
        if content.is_empty() && embeds == 0 && !has_other {
            return error(400, "Cannot send an empty message", 50006);
        }
        if content.chars().count() > MAX_CONTENT {
            return invalid_form("content", "Must be 2000 or fewer in length.");
        }
        if embeds > MAX_EMBEDS {
            return invalid_form("embeds", "Must be 10 or fewer in length.");
        }
        if let Err(reply) = check_embeds(&body["embeds"]) {
            return reply;
        }
        if let Some(user) = &dm_user
            && self.unreachable.contains(user)
        {
            return error(403, "Cannot send messages to this user", 50007);
        }
        let id = self.new_id();
        let mut reply = json!({
            "id": id,
            "channel_id": channel,
            "type": 0,
            "content": content,
            "embeds": body["embeds"].as_array().cloned().unwrap_or_default(),
            "author": { "id": BOT, "username": "modctl", "discriminator": "0", "bot": true },
        });
        if dm_user.is_none() {
            reply["guild_id"] = json!(self.id);
        }
        self.messages
            .entry(channel.to_owned())
            .or_default()
            .push(Message {
                id,
                author: BOT.to_owned(),
                content,
                body: body.clone(),
                deleted: false,
            });
        Reply::json(200, reply)
    }

    pub(super) fn delete_message(&mut self, channel: &str, message: &str) -> Reply {
        let is_dm = self.dm_channels.contains_key(channel);
        if !is_dm && !self.channels.iter().any(|c| c.id == channel) {
            return error(404, "Unknown Channel", 10003);
        }
        let held = if is_dm {
            0
        } else {
            self.channel_permissions(BOT, channel)
        };
        if !is_dm && held & VIEW_CHANNEL == 0 {
            return error(403, "Missing Access", 50001);
        }
        let Some(found) = self
            .messages
            .get_mut(channel)
            .and_then(|all| all.iter_mut().find(|m| m.id == message && !m.deleted))
        else {
            return error(404, "Unknown Message", 10008);
        };
        if found.author != BOT {
            // In a DM the bot deletes only its own messages: "Cannot
            // execute action on a DM channel, 50003".
            if is_dm {
                return error(403, "Cannot execute action on a DM channel", 50003);
            }
            if held & MANAGE_MESSAGES == 0 {
                return missing_permissions();
            }
        }
        found.deleted = true;
        Reply::empty(204)
    }

    pub(super) fn open_dm(&mut self, body: &Value) -> Reply {
        let Some(user) = body["recipient_id"]
            .as_str()
            .map(str::to_owned)
            .or_else(|| body["recipient_id"].as_u64().map(|u| u.to_string()))
        else {
            return invalid_form("recipient_id", "This field is required");
        };
        if !self.users.contains(&user) || user == BOT {
            return error(400, "Invalid Recipient(s)", 50033);
        }
        let existing = self
            .dm_channels
            .iter()
            .find(|(_, u)| **u == user)
            .map(|(c, _)| c.clone());
        let channel = match existing {
            Some(channel) => channel,
            None => {
                let channel = self.new_id();
                self.dm_channels.insert(channel.clone(), user.clone());
                channel
            }
        };
        Reply::json(
            200,
            json!({
                "id": channel, "type": 1, "last_message_id": null, "flags": 0,
                "recipients": [{ "id": user, "username": format!("user-{user}"), "discriminator": "0" }],
            }),
        )
    }

    /// Seeds a member's message in `channel`; its id.
    pub(super) fn seed_message(&mut self, channel: &str, author: &str, content: &str) -> String {
        let id = self.new_id();
        self.messages
            .entry(channel.to_owned())
            .or_default()
            .push(Message {
                id: id.clone(),
                author: author.to_owned(),
                content: content.to_owned(),
                body: Value::Null,
                deleted: false,
            });
        id
    }
}
