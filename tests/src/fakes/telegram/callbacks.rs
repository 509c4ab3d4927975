//! Inline keyboard buttons and their callback queries (issue #26).
//!
//! `sendMessage`'s `reply_markup` is checked where the bot puts a button
//! (telegram-bot-api.json, InlineKeyboardButton `callback_data`: "1-64
//! bytes"; else `400 Bad Request: BUTTON_DATA_INVALID`). A press is queued
//! by [`FakeTelegram::push_press`] as a `callback_query` update naming the
//! message and its `callback_data`; `answerCallbackQuery` must name a
//! query the fake issued, once (Telegram answers a second or an unknown one
//! "query is too old and response timeout expired or query ID is
//! invalid"), with `text` of 0-200 characters (answerCallbackQuery `text`).

use serde_json::{Map, Value, json};

use super::super::server::Reply;
use super::{Bot, FakeTelegram, bad_request, ok};

/// A press's query as the fake issued it, and the bot's answer.
#[derive(Debug, Clone, Default)]
pub(super) struct Query {
    pub(super) answer: Option<Value>,
}

impl Bot {
    /// The `callback_data` of `params`' inline keyboard, if it is not valid.
    pub(super) fn check_reply_markup(params: &Map<String, Value>) -> Result<(), Reply> {
        let Some(markup) = params.get("reply_markup") else {
            return Ok(());
        };
        for row in markup["inline_keyboard"].as_array().into_iter().flatten() {
            for button in row.as_array().into_iter().flatten() {
                if let Some(data) = button.get("callback_data") {
                    let n = data.as_str().map_or(0, str::len);
                    if !(1..=64).contains(&n) {
                        return Err(bad_request("BUTTON_DATA_INVALID"));
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn answer_callback_query(&mut self, params: &Map<String, Value>) -> Reply {
        let id = params
            .get("callback_query_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let stale = "query is too old and response timeout expired or query ID is invalid";
        let Some(query) = self.queries.get_mut(id) else {
            return bad_request(stale);
        };
        if query.answer.is_some() {
            return bad_request(stale);
        }
        let text = params.get("text").and_then(Value::as_str).unwrap_or("");
        if text.chars().count() > 200 {
            return bad_request("MESSAGE_TOO_LONG");
        }
        query.answer = Some(Value::Object(params.clone()));
        ok(json!(true))
    }
}

impl FakeTelegram {
    /// Queues `user` pressing the button of the bot's message `message_id`
    /// in the group, which sends `data`: the query's id.
    pub fn push_press(&self, user: i64, message_id: i64, data: &str) -> String {
        let mut state = self.state();
        let id = format!("cbq-{}", state.next_update_id);
        state.queries.insert(id.clone(), Query::default());
        let chat = state.chat_id;
        let kind = state.chat_type(chat);
        let update = json!({
            "update_id": state.next_update_id,
            "callback_query": {
                "id": id, "chat_instance": "-4242",
                "from": {"id": user, "is_bot": false, "first_name": format!("user {user}")},
                "message": {"message_id": message_id, "date": 1_800_000_000,
                            "chat": {"id": chat, "type": kind}},
                "data": data,
            },
        });
        state.next_update_id += 1;
        state.updates.push(update);
        id
    }

    /// The bot's answer to query `id` (its `answerCallbackQuery`
    /// arguments), once it answered.
    pub fn callback_answer(&self, id: &str) -> Option<Value> {
        self.state().queries.get(id).and_then(|q| q.answer.clone())
    }
}
