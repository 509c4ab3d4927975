//! The group's settings, as a restore sets them: `setChatTitle`,
//! `setChatDescription` and `setChatPermissions`, with Telegram's checks
//! (a title of 1 to 128 characters, a description of at most 255, "not
//! modified" for a description set to what it is).

use serde_json::{Map, Value};

use super::{Bot, FakeTelegram, OTHER_PERMISSIONS, SEND_PERMISSIONS, bad_request, integer, ok};
use crate::fakes::server::Reply;

impl Bot {
    /// The chat the parameters name, if it is the group.
    fn group(&self, params: &Map<String, Value>) -> Result<(), Reply> {
        match integer(params.get("chat_id")) {
            Some(id) if id == self.chat_id => Ok(()),
            _ => Err(bad_request("chat not found")),
        }
    }

    pub(super) fn set_title(&mut self, params: &Map<String, Value>) -> Reply {
        if let Err(reply) = self.group(params) {
            return reply;
        }
        let title = params
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match title.chars().count() {
            0 => bad_request("chat title is empty"),
            1..=128 => {
                self.title = title.to_owned();
                ok(Value::Bool(true))
            }
            _ => bad_request("chat title is too long"),
        }
    }

    pub(super) fn set_description(&mut self, params: &Map<String, Value>) -> Reply {
        if let Err(reply) = self.group(params) {
            return reply;
        }
        let text = params
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if text.chars().count() > 255 {
            return bad_request("chat description is too long");
        }
        let description = (!text.is_empty()).then(|| text.to_owned());
        if description == self.description {
            return bad_request("chat description is not modified");
        }
        self.description = description;
        ok(Value::Bool(true))
    }

    pub(super) fn set_permissions(&mut self, params: &Map<String, Value>) -> Reply {
        if let Err(reply) = self.group(params) {
            return reply;
        }
        let permissions = match params.get("permissions") {
            Some(Value::Object(fields)) => fields.clone(),
            // Form-encoded requests carry the object as JSON text.
            Some(Value::String(text)) => match serde_json::from_str(text) {
                Ok(Value::Object(fields)) => fields,
                _ => return bad_request("can't parse permissions JSON object"),
            },
            _ => return bad_request("can't parse permissions JSON object"),
        };
        if permissions.values().any(|v| !v.is_boolean()) {
            return bad_request("can't parse permissions JSON object");
        }
        // Permissions left out are not granted, as with independent
        // permissions on Telegram.
        self.default_permissions = SEND_PERMISSIONS
            .iter()
            .chain(&OTHER_PERMISSIONS)
            .map(|name| {
                let granted = permissions.get(*name) == Some(&Value::Bool(true));
                ((*name).to_owned(), Value::Bool(granted))
            })
            .collect();
        ok(Value::Bool(true))
    }
}

impl FakeTelegram {
    /// The group's title, description and the permissions it grants by
    /// default (each by name, `true` or `false`).
    pub fn chat_info(&self) -> (String, Option<String>, Map<String, Value>) {
        let state = self.state();
        (
            state.title.clone(),
            state.description.clone(),
            state.default_permissions.clone(),
        )
    }
}
