//! The group's primary invite link (issue #26, raid lockdowns):
//! `exportChatInviteLink`, telegram-bot-api.json: "generate a new primary
//! invite link for a chat; any previously generated primary link is
//! revoked. The bot must be an administrator in the chat for this to work
//! and must have the appropriate administrator rights" (`can_invite_users`,
//! ChatAdministratorRights: "True, if the user is allowed to invite new
//! users to the chat"). "Returns the new invite link as String on success."
//!
//! The new link replaces `getChat`'s `invite_link`; every link revoked is
//! kept ([`FakeTelegram::revoked_links`]).

use serde_json::{Map, Value, json};

use super::{Bot, FakeTelegram, bad_request, integer, ok};
use crate::fakes::server::Reply;

impl Bot {
    pub(super) fn export_invite_link(&mut self, params: &Map<String, Value>) -> Reply {
        if integer(params.get("chat_id")) != Some(self.chat_id) {
            return bad_request("chat not found");
        }
        if !self.bot_is_admin {
            return bad_request(super::CHAT_ADMIN_REQUIRED);
        }
        if self.bot_rights.get("can_invite_users") == Some(&Value::Bool(false)) {
            return bad_request("not enough rights to manage chat invite links");
        }
        self.links_exported += 1;
        let link = format!("https://t.me/+fakeLink{}", self.links_exported);
        if let Some(old) = self.invite_link.replace(link.clone()) {
            self.revoked_links.push(old);
        }
        ok(json!(link))
    }
}

impl FakeTelegram {
    /// The primary invite links revoked by `exportChatInviteLink`, oldest
    /// first.
    pub fn revoked_links(&self) -> Vec<String> {
        self.state().revoked_links.clone()
    }

    /// The group's primary invite link now (`getChat` `invite_link`).
    pub fn invite_link(&self) -> Option<String> {
        self.state().invite_link.clone()
    }
}
