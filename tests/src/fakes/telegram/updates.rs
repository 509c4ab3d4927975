//! The bot's update queue: `getUpdates` (an offset confirms, and drops,
//! every update before it; refused with 409 while a webhook is set, as on
//! Telegram), `setWebhook` and `deleteWebhook`. Tests queue messages with
//! [`FakeTelegram::push_message`] and friends.
//!
//! `getUpdates` answers at once, also when the queue is empty (Telegram
//! would hold the request for `timeout` seconds): the daemon's poller must
//! cope with a quick empty answer anyway.

use serde_json::{Map, Value, json};

use super::super::server::Reply;
use super::{Bot, FakeTelegram, failure, ok};

impl Bot {
    pub(super) fn get_updates(&mut self, params: &Map<String, Value>) -> Reply {
        // getUpdates, "Notes": "This method will not work if an outgoing
        // webhook is set up"; Telegram answers 409 Conflict (its wording).
        if self.webhook.is_some() {
            return failure(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            );
        }
        self.remember_allowed(params);
        let offset = params.get("offset").and_then(Value::as_i64).unwrap_or(0);
        self.updates
            .retain(|u| u["update_id"].as_i64().unwrap_or(0) >= offset);
        // Types the bot did not ask for are not delivered ([`super::admins`]).
        let delivered = self
            .updates
            .iter()
            .filter(|u| self.delivered(u))
            .cloned()
            .collect();
        ok(Value::Array(delivered))
    }

    /// One webhook per bot: a second `setWebhook` replaces the first
    /// (setWebhook: "specify a URL and receive incoming updates"; the bot
    /// has one URL, which `getWebhookInfo` reports). The URL must be HTTPS
    /// on port 443, 80, 88 or 8443 (setWebhook, "Notes": "Ports currently
    /// supported for webhooks: 443, 80, 88, 8443"; the `url` field: "HTTPS
    /// URL to send updates to"), refused with Telegram's own wording.
    pub(super) fn set_webhook(&mut self, params: &Map<String, Value>) -> Reply {
        let Some(url) = params.get("url").and_then(Value::as_str) else {
            return failure(400, "Bad Request: bad webhook: URL host is empty");
        };
        // An empty URL removes the webhook (setWebhook `url`).
        if url.is_empty() {
            self.webhook = None;
            return ok(json!(true));
        }
        let Ok(parsed) = reqwest::Url::parse(url) else {
            return failure(400, "Bad Request: bad webhook: URL host is empty");
        };
        if parsed.scheme() != "https" {
            return failure(
                400,
                "Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
            );
        }
        if !matches!(parsed.port_or_known_default(), Some(443 | 80 | 88 | 8443)) {
            return failure(
                400,
                "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
            );
        }
        self.remember_allowed(params);
        let secret = params
            .get("secret_token")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.webhook = Some((url.to_owned(), secret));
        self.webhooks_set += 1;
        ok(json!(true))
    }

    pub(super) fn delete_webhook(&mut self) -> Reply {
        self.webhook = None;
        ok(json!(true))
    }

    fn push(&mut self, message: Value) -> Value {
        let update = json!({"update_id": self.next_update_id, "message": message});
        self.next_update_id += 1;
        self.updates.push(update.clone());
        update
    }
}

impl FakeTelegram {
    fn message(&self, chat: i64, from: i64, extra: Value) -> Value {
        let mut state = self.state();
        let id = state.next_message_id;
        state.next_message_id += 1;
        let kind = state.chat_type(chat);
        let mut message = json!({
            "message_id": id, "date": 1_800_000_000,
            "chat": {"id": chat, "type": kind, "title": state.title},
            "from": {"id": from, "is_bot": from == super::BOT, "first_name": format!("user {from}")},
        });
        for (k, v) in extra.as_object().into_iter().flatten() {
            message[k] = v.clone();
        }
        message
    }

    /// Queues a text message by `from` at unix time `date`; returns the
    /// update (for posting it to a webhook).
    pub fn push_message(&self, from: i64, date: i64) -> Value {
        let chat = self.state().chat_id;
        self.push_message_in(chat, from, date)
    }

    /// Queues a text message by `from` in group `chat` (one of the bot's:
    /// [`FakeTelegram::add_group`]).
    pub fn push_message_in(&self, chat: i64, from: i64, date: i64) -> Value {
        self.push_in(chat, from, json!({"text": "hello", "date": date}))
    }

    /// Queues a message by `from` in `chat` with `fields` (e.g. a service
    /// message's), at `date`.
    pub fn push_in(&self, chat: i64, from: i64, fields: Value) -> Value {
        let message = self.message(chat, from, fields);
        let mut state = self.state();
        state.remember(chat, &message);
        state.push(message)
    }

    /// Queues `user` joining the group at `date`.
    pub fn push_join(&self, user: i64, date: i64) -> Value {
        let chat = self.state().chat_id;
        self.push_in(
            chat,
            user,
            json!({"date": date, "new_chat_members": [{"id": user, "is_bot": false, "first_name": "new"}]}),
        )
    }

    /// Queues `user` (a bot when `is_bot`) named `first_name` joining the
    /// group at `date` (Bot API `Message.new_chat_members`, `User` with
    /// `id`, `is_bot`, `first_name` required).
    pub fn push_join_named(&self, user: i64, first_name: &str, is_bot: bool, date: i64) -> Value {
        let chat = self.state().chat_id;
        self.push_in(
            chat,
            user,
            json!({"date": date, "new_chat_members": [{"id": user, "is_bot": is_bot, "first_name": first_name}]}),
        )
    }

    /// Queues `user` leaving the group at `date`.
    pub fn push_leave(&self, user: i64, date: i64) -> Value {
        let chat = self.state().chat_id;
        self.push_in(
            chat,
            user,
            json!({"date": date, "left_chat_member": {"id": user, "is_bot": false, "first_name": "gone"}}),
        )
    }

    /// The service message announcing the upgrade, in the old group (its
    /// chat is gone from the fake by then).
    pub(super) fn push_old_chat(&self, from: i64, to: i64, date: i64) -> Value {
        let mut message = self.message(
            to,
            super::OWNER,
            json!({"date": date, "migrate_to_chat_id": to}),
        );
        message["chat"]["id"] = json!(from);
        message["chat"]["type"] = json!("group");
        self.state().push(message)
    }

    /// How many `setWebhook` calls set a webhook.
    pub fn webhooks_set(&self) -> usize {
        self.state().webhooks_set
    }

    /// Updates not yet confirmed by an offset.
    pub fn pending_updates(&self) -> usize {
        self.state().updates.len()
    }

    /// The webhook `setWebhook` registered: URL and secret token.
    pub fn webhook(&self) -> Option<(String, Option<String>)> {
        self.state().webhook.clone()
    }
}
