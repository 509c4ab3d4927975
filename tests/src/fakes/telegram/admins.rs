//! Administrators banning and being demoted (issue #26's antinuke):
//! [`FakeTelegram::push_ban_by`] bans a member as an administrator would in
//! a Telegram app and queues the `chat_member` update that tells it, and
//! `promoteChatMember` demotes.
//!
//! `chat_member` updates reach the bot only when it asked for them
//! (telegram-bot-api.json, getUpdates `allowed_updates`: "Specify an empty
//! list to receive all update types except chat_member, message_reaction,
//! and message_reaction_count (default). If not specified, the previous
//! setting will be used"), and only when the bot is an administrator
//! (Update `chat_member`: "The bot must be an administrator in the chat and
//! must explicitly specify "chat_member" in the list of allowed_updates to
//! receive these updates"): [`Bot::delivered`] keeps the others back.

use serde_json::{Map, Value, json};

use super::super::server::Reply;
use super::{BOT, Bot, ChatMember, FakeTelegram, Status, bad_request, member_json, ok};

/// Update types sent only when listed in `allowed_updates`.
const ONLY_WHEN_LISTED: [&str; 3] = ["chat_member", "message_reaction", "message_reaction_count"];

impl Bot {
    /// Remembers `allowed_updates` when a call gives it (getUpdates,
    /// setWebhook): "If not specified, the previous setting will be used".
    pub(super) fn remember_allowed(&mut self, params: &Map<String, Value>) {
        if let Some(Value::Array(kinds)) = params.get("allowed_updates") {
            self.allowed_updates = Some(
                kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }

    /// Whether `update` is delivered under the bot's `allowed_updates`.
    pub(super) fn delivered(&self, update: &Value) -> bool {
        let Some(kind) = update
            .as_object()
            .and_then(|u| u.keys().find(|k| *k != "update_id"))
        else {
            return true;
        };
        let listed = match &self.allowed_updates {
            Some(kinds) if !kinds.is_empty() => kinds.iter().any(|k| k == kind),
            // Nothing listed, or an empty list: the default.
            _ => !ONLY_WHEN_LISTED.contains(&kind.as_str()),
        };
        listed && (kind != "chat_member" || self.bot_is_admin)
    }

    /// `promoteChatMember` with every right false: a demotion, the only
    /// use the daemon makes of it. "The bot must be an administrator in the
    /// chat for this to work and must have the appropriate administrator
    /// rights" (`can_promote_members`: "demote administrators that they
    /// have promoted"): the target must be an administrator the bot
    /// promoted (`can_be_edited`); Telegram's wording for the refusals.
    pub(super) fn promote(&mut self, params: &Map<String, Value>) -> Reply {
        let (chat, user) = match self.target(params) {
            Ok(target) => target,
            Err(reply) => return reply,
        };
        let granting = params
            .iter()
            .any(|(k, v)| (k.starts_with("can_") || k == "is_anonymous") && *v == json!(true));
        if granting {
            return bad_request("the fake only demotes: pass every right false");
        }
        let bot_can_promote = self.bot_rights.get("can_promote_members") == Some(&json!(true));
        if !self.bot_is_admin {
            return bad_request(super::CHAT_ADMIN_REQUIRED);
        }
        if !bot_can_promote {
            return bad_request("not enough rights");
        }
        match self.member(chat, user) {
            Some(m) if m.status == Status::Creator => bad_request("can't demote chat creator"),
            Some(m) if m.status == Status::Administrator && !m.promoted_by_bot => {
                bad_request(super::CHAT_ADMIN_REQUIRED)
            }
            Some(m) if m.status == Status::Administrator => {
                self.chat(chat)
                    .members
                    .insert(user, ChatMember::with(Status::Member));
                self.demoted.push(user);
                ok(json!(true))
            }
            // Demoting a member who is no administrator changes nothing.
            _ => ok(json!(true)),
        }
    }
}

impl FakeTelegram {
    /// Administrator `by` bans `user` from the group in a Telegram app at
    /// `date`: `user` is banned, and the `chat_member` update telling it
    /// (ChatMemberUpdated: `from` the performer, the old and the new
    /// `ChatMember`) is queued; returns it.
    pub fn push_ban_by(&self, by: i64, user: i64, date: i64) -> Value {
        let mut state = self.state();
        let chat = state.chat_id;
        let old = state
            .member(chat, user)
            .cloned()
            .unwrap_or(ChatMember::with(Status::Member));
        let banned = ChatMember::with(Status::Kicked);
        let change = json!({
            "chat": {"id": chat, "type": state.chat_type(chat), "title": state.title},
            "from": {"id": by, "is_bot": by == BOT, "first_name": format!("user {by}")},
            "date": date,
            "old_chat_member": member_json(user, &old),
            "new_chat_member": member_json(user, &banned),
        });
        state.chat(chat).members.insert(user, banned);
        let update = json!({"update_id": state.next_update_id, "chat_member": change});
        state.next_update_id += 1;
        state.updates.push(update.clone());
        update
    }

    /// The users `promoteChatMember` demoted, in order.
    pub fn demoted(&self) -> Vec<i64> {
        self.state().demoted.clone()
    }

    /// The `allowed_updates` the bot last gave (`None`: never).
    pub fn allowed_updates(&self) -> Option<Vec<String>> {
        self.state().allowed_updates.clone()
    }
}
