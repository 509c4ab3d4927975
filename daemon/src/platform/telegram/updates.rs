//! Telegram updates as a source of activity: `getUpdates` (long polling),
//! `setWebhook` / `deleteWebhook`, and decoding an `Update` into what the
//! daemon counts.
//!
//! Only `message` updates are asked for (`allowed_updates`). A message counts
//! as a message of its author unless the author is a bot or it is a service
//! message (a member joining or leaving, a pin, a title change, ...);
//! `new_chat_members` counts a join per member and `left_chat_member` a
//! leave. The group is the server; the channel is the forum topic where the
//! message is in one, else the group itself. A message is in a topic only
//! when `is_topic_message` is true: `message_thread_id` is also set on
//! replies in an ordinary supergroup (Message, Bot API reference), where it
//! names the thread of replies, not a topic.

use std::time::Duration;

use async_trait::async_trait;
use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Telegram, read};
use crate::platform::receive::Updates;
use crate::platform::structure::payload;
use crate::platform::{PlatformError, PlatformResult};
use crate::store::activity::ActivityEvent;

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

#[async_trait]
impl Updates for Telegram {
    async fn get_updates(&self, offset: i64, timeout_secs: u32) -> PlatformResult<Vec<Value>> {
        // Not through the retry policy: the poller itself is the retry, and
        // the long poll needs a longer time limit than other calls.
        let url = format!("{}/bot{}/getUpdates", self.base, self.token);
        let response = self
            .clients
            .http
            .post(&url)
            .timeout(Duration::from_secs(u64::from(timeout_secs) + 10))
            .json(&json!({
                "offset": offset,
                "timeout": timeout_secs,
                "allowed_updates": ["message"],
            }))
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
        payload(read(response, &self.secrets).await?, "answer to getUpdates")
    }

    async fn set_webhook(&self, url: &str, secret: &str) -> PlatformResult<()> {
        // The secret token is sent: an answer quoting it must not keep it.
        self.call_redacting(
            "setWebhook",
            json!({"url": url, "secret_token": secret, "allowed_updates": ["message"]}),
            &self.secrets.with([secret]),
        )
        .await
        .map(drop)
    }

    async fn delete_webhook(&self) -> PlatformResult<()> {
        self.call("deleteWebhook", json!({})).await.map(drop)
    }
}

/// An update: its id, and what it counts for (none for updates the daemon
/// does not count).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    /// `update_id`: the next `getUpdates` offset is the last one plus one.
    pub update_id: i64,
    /// What it counts for.
    pub events: Vec<ActivityEvent>,
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

#[derive(Debug, Deserialize)]
struct UpdatePayload {
    update_id: i64,
    #[serde(default)]
    message: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Message {
    message_id: i64,
    date: i64,
    chat: Chat,
    #[serde(default)]
    from: Option<User>,
    #[serde(default)]
    message_thread_id: Option<i64>,
    #[serde(default)]
    is_topic_message: bool,
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
}

/// The `update_id` of a raw update, so one that cannot be decoded can still
/// be stepped over.
pub fn update_id(update: &Value) -> Option<i64> {
    update.get("update_id").and_then(Value::as_i64)
}

/// Decodes one update.
pub fn decode(update: Value) -> PlatformResult<Update> {
    let update: UpdatePayload = payload(update, "update from Telegram")?;
    let Some(raw) = update.message else {
        return Ok(Update {
            update_id: update.update_id,
            events: Vec::new(),
            migration: None,
        });
    };
    let service = SERVICE_FIELDS.iter().any(|f| raw.get(f).is_some());
    let message: Message = payload(raw, "message from Telegram")?;
    let at = Timestamp::from_second(message.date).map_err(|_| {
        PlatformError::Invalid(format!(
            "unexpected message from Telegram: date {} is not a time",
            message.date
        ))
    })?;
    let chat: std::sync::Arc<str> = message.chat.id.to_string().into();
    let event = |kind, user: &User, channel_id, event_id| ActivityEvent {
        server_id: chat.clone(),
        event_id,
        kind,
        user_id: user.id.to_string(),
        channel_id,
        at,
        minutes: 0,
    };
    let mut events = Vec::new();
    // Ids from the message id, so an update delivered twice (a webhook
    // retry) counts once.
    let id = |what: &str, user: &User| {
        Some(format!(
            "telegram:{chat}:{}:{what}:{}",
            message.message_id, user.id
        ))
    };
    for member in message.new_chat_members.iter().flatten() {
        if !member.is_bot {
            events.push(event(ActivityKind::Join, member, None, id("join", member)));
        }
    }
    if let Some(member) = message.left_chat_member.as_ref().filter(|m| !m.is_bot) {
        events.push(event(
            ActivityKind::Leave,
            member,
            None,
            id("leave", member),
        ));
    }
    if let Some(author) = message.from.as_ref().filter(|a| !a.is_bot && !service) {
        let topic = message
            .message_thread_id
            .filter(|_| message.is_topic_message);
        let channel = topic.map_or_else(|| chat.to_string(), |thread| thread.to_string());
        events.push(event(
            ActivityKind::Message,
            author,
            Some(channel),
            Some(format!("telegram:{chat}:{}", message.message_id)),
        ));
    }
    let migration = match (message.migrate_to_chat_id, message.migrate_from_chat_id) {
        (Some(to), _) => Some(Migration {
            from: message.chat.id,
            to,
        }),
        (None, Some(from)) => Some(Migration {
            from,
            to: message.chat.id,
        }),
        (None, None) => None,
    };
    Ok(Update {
        update_id: update.update_id,
        events,
        migration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(extra: Value) -> Value {
        let mut message = json!({"message_id": 7, "date": 1_800_000_000,
            "chat": {"id": -100, "type": "supergroup"}, "from": {"id": 5, "is_bot": false}});
        for (k, v) in extra.as_object().unwrap() {
            message[k] = v.clone();
        }
        json!({"update_id": 42, "message": message})
    }

    #[test]
    fn a_member_message_counts_in_its_group() {
        let update = decode(message(json!({"text": "hi"}))).unwrap();
        assert_eq!(update.update_id, 42);
        assert_eq!(
            update.events,
            vec![ActivityEvent {
                server_id: "-100".into(),
                event_id: Some("telegram:-100:7".into()),
                kind: ActivityKind::Message,
                user_id: "5".into(),
                channel_id: Some("-100".into()),
                at: Timestamp::from_second(1_800_000_000).unwrap(),
                minutes: 0,
            }]
        );
        let topic = decode(message(
            json!({"message_thread_id": 3, "is_topic_message": true}),
        ))
        .unwrap();
        assert_eq!(topic.events[0].channel_id.as_deref(), Some("3"));
        // A reply in an ordinary supergroup has a thread, not a topic.
        let reply = decode(message(json!({"message_thread_id": 3}))).unwrap();
        assert_eq!(reply.events[0].channel_id.as_deref(), Some("-100"));
    }

    #[test]
    fn joins_and_leaves_are_counted_not_as_messages() {
        let joined = decode(message(json!({"new_chat_members": [
            {"id": 6, "is_bot": false}, {"id": 9, "is_bot": true}
        ]})))
        .unwrap();
        let kinds: Vec<_> = joined
            .events
            .iter()
            .map(|e| (e.kind, e.user_id.as_str()))
            .collect();
        assert_eq!(kinds, vec![(ActivityKind::Join, "6")]);
        let left = decode(message(
            json!({"left_chat_member": {"id": 6, "is_bot": false}}),
        ))
        .unwrap();
        let kinds: Vec<_> = left.events.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec![ActivityKind::Leave]);
    }

    #[test]
    fn bots_service_messages_and_other_updates_count_nothing() {
        let bot = decode(message(json!({"from": {"id": 9, "is_bot": true}}))).unwrap();
        assert!(bot.events.is_empty());
        let pinned = decode(message(json!({"pinned_message": {}}))).unwrap();
        assert!(pinned.events.is_empty());
        let edited = decode(json!({"update_id": 43, "edited_message": {}})).unwrap();
        assert_eq!((edited.update_id, edited.events.len()), (43, 0));
    }

    #[test]
    fn every_service_message_counts_nothing() {
        for field in SERVICE_FIELDS {
            // The fields the decoder reads have their own types.
            let value = match field {
                "new_chat_members" => json!([]),
                "left_chat_member" => json!({"id": 9, "is_bot": true}),
                "migrate_to_chat_id" | "migrate_from_chat_id" => json!(-1_009_000_000_001_i64),
                _ => json!({}),
            };
            let update = decode(message(json!({ field: value }))).unwrap();
            let messages = update
                .events
                .iter()
                .filter(|e| e.kind == ActivityKind::Message)
                .count();
            assert_eq!(messages, 0, "{field}");
        }
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
        assert_eq!(update_id(&no_chat), Some(42));
        let mut no_flag = message(json!({}));
        no_flag["message"]["from"] = json!({"id": 5});
        let err = decode(no_flag).unwrap_err();
        assert!(err.to_string().contains("is_bot"), "{err}");
    }
}
