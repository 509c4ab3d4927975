//! Telegram `Update`s into [`Event`]s (Bot API reference: Update, Message,
//! MessageEntity, ChatMemberUpdated).
//!
//! - `message`: a member's message is a message created, unless it is a
//!   service message (a member joining or leaving, a pin, a title change:
//!   [`SERVICE_FIELDS`]); `new_chat_members` is a join per member and
//!   `left_chat_member` a leave.
//! - `edited_message`: the new version, as an edit.
//! - `chat_member`: a member's status changed (ChatMemberUpdated). Only a
//!   change to `kicked` (ChatMemberBanned) made by someone else (`from`,
//!   "Performer of the action") is read: a ban, as an audit entry with
//!   `from` as executor, which antinuke counts (issue #26). Telegram sends
//!   `chat_member` only to an administrator bot that lists it in
//!   `allowed_updates` (getUpdates), which the adapter does
//!   (`crate::platform::telegram::updates`). Joins and leaves are not read
//!   from it: they also arrive as `new_chat_members` / `left_chat_member`
//!   messages, which every bot gets, administrator or not, so reading both
//!   would count each join twice.
//! - `callback_query`: a press of an inline keyboard button of the bot's
//!   (issue #26's verification), with its `callback_data`.
//!
//! The group is the server (its chat id, which the transport routes to the
//! group's server); the channel is the forum topic where the message is in
//! one, else the group itself. A message is in a topic only when
//! `is_topic_message` is true: `message_thread_id` is also set on replies in
//! an ordinary supergroup, where it names the thread of replies.
//!
//! Mentions and links come from `entities` (or `caption_entities` for a
//! caption), whose `offset` and `length` count UTF-16 code units, not bytes
//! or characters: `mention` (`@username`), `text_mention` (a user without a
//! username, by id), `url` (a link written in the text) and `text_link`
//! (a link behind other text, in `url`).

use std::fmt;

use modctl_types::{Platform, Timestamp};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::typed;
use crate::events::{
    Attachment, AuditAction, AuditEntry, Author, ButtonPress, Event, EventKind, MemberRef,
    Membership, Mentions, Message, PressReply,
};
use crate::platform::{PlatformError, PlatformResult};

/// Fields of a service message: it reports something that happened in the
/// group rather than something a member wrote, and never counts as a member
/// message. From the `Message` object of the Bot API reference
/// (shared/platform-specs/telegram-bot-api.json, Bot API 10.1): every field
/// whose description says "Service message", and [`SERVICE_FIELDS_UNMARKED`].
/// Sorted; `service_fields_match_the_reference` checks the list against the
/// reference, so a newer reference with more fields fails it until they are
/// added here.
pub const SERVICE_FIELDS: [&str; 52] = [
    "boost_added",
    "channel_chat_created",
    "chat_background_set",
    "chat_owner_changed",
    "chat_owner_left",
    "chat_shared",
    "checklist_tasks_added",
    "checklist_tasks_done",
    "connected_website",
    "delete_chat_photo",
    "direct_message_price_changed",
    "forum_topic_closed",
    "forum_topic_created",
    "forum_topic_edited",
    "forum_topic_reopened",
    "general_forum_topic_hidden",
    "general_forum_topic_unhidden",
    "gift",
    "gift_upgrade_sent",
    "giveaway_completed",
    "giveaway_created",
    "giveaway_winners",
    "group_chat_created",
    "left_chat_member",
    "managed_bot_created",
    "message_auto_delete_timer_changed",
    "migrate_from_chat_id",
    "migrate_to_chat_id",
    "new_chat_members",
    "new_chat_photo",
    "new_chat_title",
    "paid_message_price_changed",
    "pinned_message",
    "poll_option_added",
    "poll_option_deleted",
    "proximity_alert_triggered",
    "refunded_payment",
    "successful_payment",
    "suggested_post_approval_failed",
    "suggested_post_approved",
    "suggested_post_declined",
    "suggested_post_paid",
    "suggested_post_refunded",
    "supergroup_chat_created",
    "unique_gift",
    "users_shared",
    "video_chat_ended",
    "video_chat_participants_invited",
    "video_chat_scheduled",
    "video_chat_started",
    "web_app_data",
    "write_access_allowed",
];

/// Service-message fields of `Message` whose description does not say
/// "Service message" (Telegram shows each as a service message in the
/// chat): members added or removed, a new title or photo, the upgrade to a
/// supergroup (both ends), a pin, a Telegram Login, a giveaway's winners.
pub const SERVICE_FIELDS_UNMARKED: [&str; 9] = [
    "new_chat_members",
    "left_chat_member",
    "new_chat_title",
    "new_chat_photo",
    "migrate_to_chat_id",
    "migrate_from_chat_id",
    "pinned_message",
    "connected_website",
    "giveaway_winners",
];

/// An update: its id, and the events it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// `update_id`: the next `getUpdates` offset is the last one plus one.
    pub update_id: i64,
    /// What it says, each for the chat id it names (routed to a server by
    /// the transport).
    pub events: Vec<Event>,
    /// A group upgraded to a supergroup: the message carries
    /// `migrate_to_chat_id` (in the old group) or `migrate_from_chat_id` (in
    /// the new supergroup), Message in the Bot API reference.
    pub migration: Option<Migration>,
}

/// A group's upgrade to a supergroup, which gives it a new chat id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migration {
    /// The basic group's chat id.
    pub from: i64,
    /// The supergroup's chat id, which calls must use from now on.
    pub to: i64,
}

/// An update, its messages left as text: a message is read twice, once for
/// whether it is a service message ([`IsService`]) and once into
/// [`MessagePayload`].
#[derive(Debug, Deserialize)]
struct UpdatePayload<'a> {
    update_id: i64,
    #[serde(default, borrow)]
    message: Option<&'a RawValue>,
    #[serde(default, borrow)]
    edited_message: Option<&'a RawValue>,
    #[serde(default)]
    chat_member: Option<ChatMemberUpdated>,
    #[serde(default)]
    callback_query: Option<CallbackQuery>,
}

/// `CallbackQuery` (telegram-bot-api.json): a press of an inline keyboard
/// button; `message` is the message holding it (absent for inline-mode
/// messages, which are none of the daemon's), `data` the button's
/// `callback_data`.
#[derive(Debug, Deserialize)]
struct CallbackQuery {
    id: String,
    from: User,
    #[serde(default)]
    message: Option<CallbackMessage>,
    #[serde(default)]
    data: Option<String>,
}

/// The message of a callback query (a `MaybeInaccessibleMessage`: its
/// `chat`, `message_id` and `date`, which is 0 when the message is too old
/// to be read).
#[derive(Debug, Deserialize)]
struct CallbackMessage {
    message_id: i64,
    chat: Chat,
    date: i64,
}

/// Whether a message has any of [`SERVICE_FIELDS`]: its keys are compared,
/// its values skipped unread.
struct IsService(bool);

impl<'de> Deserialize<'de> for IsService {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// One key: whether it is a service field.
        struct Key;
        impl<'de> DeserializeSeed<'de> for Key {
            type Value = bool;
            fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
                deserializer.deserialize_str(self)
            }
        }
        impl Visitor<'_> for Key {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
                Ok(SERVICE_FIELDS.binary_search(&key).is_ok())
            }
        }
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = IsService;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a message object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IsService, A::Error> {
                let mut service = false;
                while let Some(key) = map.next_key_seed(Key)? {
                    service |= key;
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(IsService(service))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

#[derive(Debug, Deserialize)]
struct MessagePayload {
    message_id: i64,
    date: i64,
    #[serde(default)]
    edit_date: Option<i64>,
    chat: Chat,
    #[serde(default)]
    from: Option<User>,
    #[serde(default)]
    message_thread_id: Option<i64>,
    #[serde(default)]
    is_topic_message: bool,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    entities: Vec<Entity>,
    #[serde(default)]
    caption: Option<String>,
    #[serde(default)]
    caption_entities: Vec<Entity>,
    #[serde(default)]
    reply_to_message: Option<Reply>,
    #[serde(default)]
    photo: Option<Vec<IgnoredAny>>,
    #[serde(default)]
    document: Option<FileRef>,
    #[serde(default)]
    video: Option<FileRef>,
    #[serde(default)]
    audio: Option<FileRef>,
    #[serde(default)]
    animation: Option<FileRef>,
    #[serde(default)]
    new_chat_members: Option<Vec<User>>,
    #[serde(default)]
    left_chat_member: Option<User>,
    #[serde(default)]
    migrate_to_chat_id: Option<i64>,
    #[serde(default)]
    migrate_from_chat_id: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct Chat {
    id: i64,
}

#[derive(Debug, Deserialize)]
struct User {
    id: i64,
    is_bot: bool,
    #[serde(default)]
    first_name: Option<String>,
    #[serde(default)]
    last_name: Option<String>,
}

impl User {
    fn display_name(&self) -> Option<String> {
        match (&self.first_name, &self.last_name) {
            (Some(first), Some(last)) => Some(format!("{first} {last}")),
            (Some(first), None) => Some(first.clone()),
            (None, last) => last.clone(),
        }
    }

    fn member(&self) -> MemberRef {
        MemberRef {
            id: self.id.to_string(),
            is_bot: self.is_bot,
            display_name: self.display_name(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Reply {
    message_id: i64,
}

#[derive(Debug, Deserialize)]
struct FileRef {
    #[serde(default)]
    file_name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Entity {
    #[serde(rename = "type")]
    kind: String,
    offset: usize,
    length: usize,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    user: Option<User>,
}

#[derive(Debug, Deserialize)]
struct ChatMemberUpdated {
    chat: Chat,
    /// "Performer of the action, which resulted in the change".
    from: User,
    date: i64,
    old_chat_member: ChatMember,
    new_chat_member: ChatMember,
}

#[derive(Debug, Deserialize)]
struct ChatMember {
    status: String,
    user: User,
}

/// The `update_id` of a raw update, so one that cannot be decoded can still
/// be stepped over.
pub fn update_id(update: &[u8]) -> Option<i64> {
    #[derive(Deserialize)]
    struct Id {
        update_id: i64,
    }
    serde_json::from_slice::<Id>(update)
        .ok()
        .map(|id| id.update_id)
}

fn time(seconds: i64, what: &str) -> PlatformResult<Timestamp> {
    Timestamp::from_second(seconds).map_err(|_| {
        PlatformError::Invalid(format!(
            "unexpected {what} from Telegram: {seconds} is not a time"
        ))
    })
}

/// The part of `text` an entity covers: `offset` and `length` in UTF-16
/// code units (MessageEntity in the Bot API reference).
fn covered(units: &[u16], entity: &Entity) -> PlatformResult<String> {
    let end = entity.offset.checked_add(entity.length);
    let slice = end
        .and_then(|end| units.get(entity.offset..end))
        .ok_or_else(|| {
            PlatformError::Invalid(format!(
                "unexpected message from Telegram: a `{}` entity at {}+{} is outside its text of {} UTF-16 units",
                entity.kind,
                entity.offset,
                entity.length,
                units.len()
            ))
        })?;
    Ok(String::from_utf16_lossy(slice))
}

/// The mentions and links of `text`'s entities.
fn entities(text: &str, entities: &[Entity]) -> PlatformResult<(Mentions, Vec<String>)> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut mentions = Mentions::default();
    let mut links = Vec::new();
    for entity in entities {
        match entity.kind.as_str() {
            "mention" => {
                let name = covered(&units, entity)?;
                mentions
                    .usernames
                    .push(name.trim_start_matches('@').to_owned());
            }
            "text_mention" => {
                if let Some(user) = &entity.user {
                    mentions.user_ids.push(user.id.to_string());
                }
            }
            "url" => links.push(covered(&units, entity)?),
            "text_link" => links.extend(entity.url.clone()),
            _ => {}
        }
    }
    Ok((mentions, links))
}

impl MessagePayload {
    fn attachments(&self) -> Vec<Attachment> {
        let named = [&self.document, &self.video, &self.audio, &self.animation]
            .into_iter()
            .flatten()
            .map(|f| Attachment {
                file_name: f.file_name.clone(),
                url: None,
            });
        let photo = self.photo.iter().map(|_| Attachment::default());
        named.chain(photo).collect()
    }

    /// The message its author wrote.
    fn message(&self, author: &User) -> PlatformResult<Message> {
        let chat = self.chat.id.to_string();
        let topic = self.message_thread_id.filter(|_| self.is_topic_message);
        let (text, text_entities) = match (&self.text, &self.caption) {
            (Some(text), _) => (Some(text), &self.entities),
            (None, Some(caption)) => (Some(caption), &self.caption_entities),
            (None, None) => (None, &self.entities),
        };
        let (mentions, links) = match text {
            Some(text) => entities(text, text_entities)?,
            None => Default::default(),
        };
        Ok(Message {
            id: self.message_id.to_string(),
            channel_id: topic.map_or(chat, |thread| thread.to_string()),
            author: Author {
                id: author.id.to_string(),
                is_bot: author.is_bot,
                role_ids: Vec::new(),
                display_name: author.display_name(),
            },
            content: text.cloned(),
            links,
            mentions,
            attachments: self.attachments(),
            reply_to: self
                .reply_to_message
                .as_ref()
                .map(|r| r.message_id.to_string()),
        })
    }
}

/// Decodes one update (its JSON).
pub fn decode(update: &[u8]) -> PlatformResult<Update> {
    let update: UpdatePayload<'_> = typed(update, &"update from Telegram")?;
    let mut decoded = Update {
        update_id: update.update_id,
        events: Vec::new(),
        migration: None,
    };
    if let Some(raw) = update.message {
        decode_message(raw, &mut decoded)?;
    }
    if let Some(raw) = update.edited_message {
        let m: MessagePayload = typed(raw.get().as_bytes(), &"edited message from Telegram")?;
        if let Some(author) = &m.from {
            let edited = m.edit_date.unwrap_or(m.date);
            decoded.events.push(Event {
                platform: Platform::Telegram,
                server_id: m.chat.id.to_string().into(),
                at: time(edited, "edited message")?,
                id: Some(format!(
                    "telegram:{}:{}:edit:{edited}",
                    m.chat.id, m.message_id
                )),
                kind: EventKind::MessageEdited(m.message(author)?),
            });
        }
    }
    if let Some(change) = update.chat_member {
        let banned = &change.new_chat_member.user;
        // A member leaving sets their own status (`left`, never `kicked`);
        // only a ban by someone else is read.
        if change.new_chat_member.status == "kicked"
            && change.old_chat_member.status != "kicked"
            && change.from.id != banned.id
        {
            decoded.events.push(Event {
                platform: Platform::Telegram,
                server_id: change.chat.id.to_string().into(),
                at: time(change.date, "chat member update")?,
                id: Some(format!(
                    "telegram:{}:ban:{}",
                    change.chat.id, update.update_id
                )),
                kind: EventKind::AuditLogEntry(AuditEntry {
                    // The update's id: the same on a redelivery, so counted
                    // once.
                    id: format!("ban:{}:{}", banned.id, update.update_id),
                    action: AuditAction::MemberBanned,
                    executor_id: Some(change.from.id.to_string()),
                    target_id: Some(banned.id.to_string()),
                    reason: None,
                }),
            });
        }
    }
    if let Some(query) = update.callback_query
        && let (Some(message), Some(data)) = (query.message, query.data)
    {
        decoded.events.push(Event {
            platform: Platform::Telegram,
            server_id: message.chat.id.to_string().into(),
            // Telegram gives no time for a press: the prompt's own.
            at: time(message.date, "callback query's message")?,
            id: Some(format!("telegram:callback:{}", query.id)),
            kind: EventKind::ButtonPressed(ButtonPress {
                user_id: query.from.id.to_string(),
                custom_id: data,
                channel_id: Some(message.chat.id.to_string()),
                message_id: Some(message.message_id.to_string()),
                reply: PressReply::Telegram { query_id: query.id },
            }),
        });
    }
    Ok(decoded)
}

/// A `message` update: the message, joins, leaves and the group's upgrade.
fn decode_message(raw: &RawValue, decoded: &mut Update) -> PlatformResult<()> {
    let what = "message from Telegram";
    let IsService(service) = typed(raw.get().as_bytes(), &what)?;
    let message: MessagePayload = typed(raw.get().as_bytes(), &what)?;
    let at = time(message.date, "message")?;
    let chat = message.chat.id;
    let event = |id: String, kind| Event {
        platform: Platform::Telegram,
        server_id: chat.to_string().into(),
        at,
        // From the message id, so an update delivered twice (a webhook
        // retry) counts once.
        id: Some(id),
        kind,
    };
    let id = |what: &str, user: &User| {
        format!("telegram:{chat}:{}:{what}:{}", message.message_id, user.id)
    };
    for member in message.new_chat_members.iter().flatten() {
        decoded.events.push(event(
            id("join", member),
            EventKind::MemberJoined(Membership {
                member: member.member(),
                channel_id: None,
                pending: false,
            }),
        ));
    }
    if let Some(member) = &message.left_chat_member {
        decoded.events.push(event(
            id("leave", member),
            EventKind::MemberLeft(Membership {
                member: member.member(),
                channel_id: None,
                pending: false,
            }),
        ));
    }
    if let Some(author) = message.from.as_ref().filter(|_| !service) {
        decoded.events.push(event(
            format!("telegram:{chat}:{}", message.message_id),
            EventKind::MessageCreated(message.message(author)?),
        ));
    }
    decoded.migration = match (message.migrate_to_chat_id, message.migrate_from_chat_id) {
        (Some(to), _) => Some(Migration { from: chat, to }),
        (None, Some(from)) => Some(Migration { from, to: chat }),
        (None, None) => None,
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn decode(update: Value) -> PlatformResult<Update> {
        super::decode(update.to_string().as_bytes())
    }

    fn message(extra: Value) -> Value {
        let mut message = json!({"message_id": 7, "date": 1_800_000_000,
            "chat": {"id": -100, "type": "supergroup", "title": "G"},
            "from": {"id": 5, "is_bot": false, "first_name": "Ada", "last_name": "L"}});
        for (k, v) in extra.as_object().unwrap() {
            message[k] = v.clone();
        }
        json!({"update_id": 42, "message": message})
    }

    fn created(update: &Update) -> Vec<&Message> {
        update
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::MessageCreated(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_member_message_is_read_in_its_group_or_topic() {
        let update = decode(message(json!({"text": "hi"}))).unwrap();
        assert_eq!(update.update_id, 42);
        let event = &update.events[0];
        assert_eq!(
            (&*event.server_id, event.id.as_deref(), event.at.as_second()),
            ("-100", Some("telegram:-100:7"), 1_800_000_000)
        );
        let m = created(&update)[0];
        assert_eq!(
            (m.id.as_str(), m.channel_id.as_str(), m.content.as_deref()),
            ("7", "-100", Some("hi"))
        );
        assert_eq!(m.author.display_name.as_deref(), Some("Ada L"));
        let topic = decode(message(
            json!({"message_thread_id": 3, "is_topic_message": true}),
        ))
        .unwrap();
        assert_eq!(created(&topic)[0].channel_id, "3");
        // A reply in an ordinary supergroup has a thread, not a topic.
        let reply = decode(message(
            json!({"message_thread_id": 3, "reply_to_message": {"message_id": 3, "date": 1, "chat": {"id": -100}}}),
        ))
        .unwrap();
        assert_eq!(created(&reply)[0].channel_id, "-100");
        assert_eq!(created(&reply)[0].reply_to.as_deref(), Some("3"));
    }

    #[test]
    fn entities_count_utf16_units() {
        // "🙂" is two UTF-16 units: an offset in bytes or chars would cut
        // the wrong text.
        let text = "🙂 @alice see example.com and this";
        let update = decode(message(json!({"text": text, "entities": [
            {"type": "mention", "offset": 3, "length": 6},
            {"type": "url", "offset": 14, "length": 11},
            {"type": "text_link", "offset": 30, "length": 4, "url": "https://t.me/+AbCd"},
            {"type": "text_mention", "offset": 0, "length": 2, "user": {"id": 9, "is_bot": false, "first_name": "B"}},
            {"type": "bold", "offset": 0, "length": 2}
        ]})))
        .unwrap();
        let m = created(&update)[0];
        assert_eq!(m.mentions.usernames, ["alice"]);
        assert_eq!(m.mentions.user_ids, ["9"]);
        assert_eq!(m.links, ["example.com", "https://t.me/+AbCd"]);

        let captioned = decode(message(json!({"caption": "go to x.io", "photo": [{}],
            "caption_entities": [{"type": "url", "offset": 6, "length": 4}]})))
        .unwrap();
        let m = created(&captioned)[0];
        assert_eq!(
            (m.content.as_deref(), m.links.as_slice()),
            (Some("go to x.io"), &["x.io".to_owned()][..])
        );
        assert_eq!(m.attachments, vec![Attachment::default()]);

        let outside = decode(message(json!({"text": "hi", "entities": [
            {"type": "url", "offset": 1, "length": 5}]})));
        assert!(outside.unwrap_err().to_string().contains("outside"));
    }

    #[test]
    fn joins_leaves_edits_and_member_updates() {
        let joined = decode(message(json!({"new_chat_members": [
            {"id": 6, "is_bot": false, "first_name": "N"}, {"id": 9, "is_bot": true, "first_name": "B"}
        ]})))
        .unwrap();
        let joins: Vec<_> = joined
            .events
            .iter()
            .map(|e| match &e.kind {
                EventKind::MemberJoined(m) => (m.member.id.as_str(), m.member.is_bot),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(joins, [("6", false), ("9", true)]);
        assert_eq!(
            joined.events[0].id.as_deref(),
            Some("telegram:-100:7:join:6")
        );
        let left = decode(message(
            json!({"left_chat_member": {"id": 6, "is_bot": false}}),
        ))
        .unwrap();
        assert!(matches!(
            &left.events[..],
            [Event {
                kind: EventKind::MemberLeft(_),
                ..
            }]
        ));

        let mut edit = message(json!({"text": "new", "edit_date": 1_800_000_100}));
        edit["edited_message"] = edit["message"].take();
        edit.as_object_mut().unwrap().remove("message");
        let edited = decode(edit).unwrap();
        assert!(
            matches!(&edited.events[..], [Event { kind: EventKind::MessageEdited(m), at, .. }]
            if m.content.as_deref() == Some("new") && at.as_second() == 1_800_000_100)
        );

        let member = |status: &str| json!({"status": status, "user": {"id": 6, "is_bot": false, "first_name": "N"}});
        for (old, new, from, expected) in [
            // Joins and leaves come from the messages alone.
            ("left", "member", 6, None),
            ("member", "left", 6, None),
            ("member", "kicked", 1, Some(("1", "6"))),
            ("restricted", "kicked", 1, Some(("1", "6"))),
            // Banned again (a new until_date): no new ban.
            ("kicked", "kicked", 1, None),
            ("member", "administrator", 1, None),
        ] {
            let update = json!({"update_id": 50, "chat_member": {"chat": {"id": -100, "type": "supergroup"},
                "from": {"id": from, "is_bot": false, "first_name": "A"}, "date": 1_800_000_000,
                "old_chat_member": member(old), "new_chat_member": member(new)}});
            let events = decode(update).unwrap().events;
            let got = events.first().map(|e| match &e.kind {
                EventKind::AuditLogEntry(entry) => {
                    assert_eq!(entry.action, AuditAction::MemberBanned);
                    assert_eq!(entry.id, "ban:6:50");
                    assert_eq!(&*e.server_id, "-100");
                    (
                        entry.executor_id.clone().unwrap(),
                        entry.target_id.clone().unwrap(),
                    )
                }
                other => panic!("{other:?}"),
            });
            let expected = expected.map(|(by, to)| (by.to_owned(), to.to_owned()));
            assert_eq!(got, expected, "{old} -> {new} by {from}");
        }
        // `from` is required (ChatMemberUpdated): an error for this update.
        let no_from = json!({"update_id": 51, "chat_member": {"chat": {"id": -100}, "date": 1,
            "old_chat_member": member("member"), "new_chat_member": member("kicked")}});
        assert!(decode(no_from).unwrap_err().to_string().contains("from"));
    }

    #[test]
    fn bots_are_marked_and_service_messages_are_no_messages() {
        let bot = decode(message(
            json!({"from": {"id": 9, "is_bot": true}, "text": "x"}),
        ))
        .unwrap();
        assert!(created(&bot)[0].author.is_bot);
        for field in SERVICE_FIELDS {
            // The fields the decoder reads have their own types.
            let value = match field {
                "new_chat_members" => json!([]),
                "left_chat_member" => json!({"id": 9, "is_bot": true}),
                "migrate_to_chat_id" | "migrate_from_chat_id" => json!(-1_009_000_000_001_i64),
                _ => json!({}),
            };
            let update = decode(message(json!({ field: value }))).unwrap();
            assert!(created(&update).is_empty(), "{field}");
        }
        let other = decode(json!({"update_id": 43, "poll": {}})).unwrap();
        assert_eq!((other.update_id, other.events.len()), (43, 0));
    }

    #[test]
    fn a_group_upgrade_is_followed() {
        let upgraded = decode(message(json!({"migrate_to_chat_id": -1_009}))).unwrap();
        assert_eq!(
            upgraded.migration,
            Some(Migration {
                from: -100,
                to: -1_009
            })
        );
        let arrived = decode(message(json!({"migrate_from_chat_id": -5}))).unwrap();
        assert_eq!(arrived.migration, Some(Migration { from: -5, to: -100 }));
    }

    /// The service fields against the reference: every `Message` field
    /// whose description says it is a service message, plus the unmarked
    /// ones (which must still be fields of `Message`). The reference is the
    /// one next to the repository (`../shared/platform-specs`, or
    /// `MODCTL_PLATFORM_SPECS`); without it the check is skipped, loudly.
    #[test]
    fn service_fields_match_the_reference() {
        let specs = std::env::var("MODCTL_PLATFORM_SPECS").map_or_else(
            |_| {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/platform-specs")
            },
            std::path::PathBuf::from,
        );
        let path = specs.join("telegram-bot-api.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!(
                "SKIPPED: no Telegram Bot API reference at {}; set MODCTL_PLATFORM_SPECS",
                path.display()
            );
            return;
        };
        let reference: Value = serde_json::from_str(&text).unwrap();
        let fields = reference["types"]["Message"]["fields"].as_array().unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
        let mut expected: Vec<&str> = fields
            .iter()
            .filter(|f| {
                f["description"]
                    .as_str()
                    .unwrap()
                    .to_lowercase()
                    .contains("service message")
            })
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        for unmarked in SERVICE_FIELDS_UNMARKED {
            assert!(
                names.contains(&unmarked),
                "`{unmarked}` is not a Message field any more"
            );
            expected.push(unmarked);
        }
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(
            SERVICE_FIELDS.to_vec(),
            expected,
            "SERVICE_FIELDS differs from the reference's service-message fields of Message (Bot API {})",
            reference["version"]
        );
    }

    #[test]
    fn a_missing_field_is_an_error() {
        let err = decode(json!({"message": {}})).unwrap_err();
        assert!(err.to_string().contains("update_id"), "{err}");
        let mut no_chat = message(json!({}));
        no_chat["message"].as_object_mut().unwrap().remove("chat");
        let err = decode(no_chat.clone()).unwrap_err();
        assert!(err.to_string().contains("chat"), "{err}");
        assert_eq!(update_id(no_chat.to_string().as_bytes()), Some(42));
        let mut no_flag = message(json!({}));
        no_flag["message"]["from"] = json!({"id": 5});
        let err = decode(no_flag).unwrap_err();
        assert!(err.to_string().contains("is_bot"), "{err}");
    }

    /// CallbackQuery (telegram-bot-api.json): a press of the bot's inline
    /// button is read with its `callback_data` and its query id to answer;
    /// one without `data` or `message` (a game, an inline-mode message) is
    /// none of the daemon's.
    #[test]
    fn a_callback_query_is_a_button_press() {
        let query = |data: Option<&str>| {
            json!({"update_id": 43, "callback_query": {
                "id": "q1", "chat_instance": "-1",
                "from": {"id": 7, "is_bot": false, "first_name": "n"},
                "message": {"message_id": 9, "date": 1_800_000_000,
                            "chat": {"id": -1005, "type": "supergroup"}},
                "data": data,
            }})
        };
        let update = decode(query(Some("modctl:verify:7"))).unwrap();
        assert_eq!(update.events.len(), 1);
        let event = &update.events[0];
        assert_eq!(event.server_id.as_ref(), "-1005");
        assert_eq!(event.id.as_deref(), Some("telegram:callback:q1"));
        assert_eq!(
            event.kind,
            EventKind::ButtonPressed(ButtonPress {
                user_id: "7".into(),
                custom_id: "modctl:verify:7".into(),
                channel_id: Some("-1005".into()),
                message_id: Some("9".into()),
                reply: PressReply::Telegram {
                    query_id: "q1".into()
                },
            })
        );
        assert!(decode(query(None)).unwrap().events.is_empty());
    }
}
