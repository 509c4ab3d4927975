//! Interactions (issue #26): a member pressing one of the bot's buttons,
//! and the bot's answer through the interaction callback.
//!
//! A press is made with [`super::FakeDiscord::press`], which issues an
//! interaction id and token and answers the `INTERACTION_CREATE` payload
//! the test dispatches over the fake gateway. `POST
//! /interactions/{id}/{token}/callback` is then held to Discord's rules
//! (discord-docs/receiving-and-responding.mdx, "Responding to an
//! Interaction"): the id and token must be one issued (else `404 Unknown
//! interaction, 10062`, opcodes-and-status-codes.mdx), one response per
//! interaction (a second: `400 Interaction has already been acknowledged,
//! 40060`), "you must send an initial response within 3 seconds of
//! receiving the event ... the token will be invalidated" (after 3 s:
//! 10062), and the response's `type` one of the callback types (1, 4-10).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::guild::{Guild, error, invalid_form};
use crate::fakes::server::Reply;

/// How long after the press Discord takes the first response.
pub const RESPONSE_DEADLINE: Duration = Duration::from_secs(3);

/// An interaction the fake issued.
#[derive(Debug, Clone)]
pub(super) struct Issued {
    pub(super) token: String,
    pub(super) at: Instant,
    /// The response the bot sent, once it did.
    pub(super) response: Option<Value>,
}

impl Guild {
    /// Issues a press of the button `custom_id` on `message` in `channel`
    /// by `user`: the `INTERACTION_CREATE` payload (an "Interaction
    /// Object" of type 3, MESSAGE_COMPONENT, component type 2).
    pub(super) fn press(
        &mut self,
        user: &str,
        channel: &str,
        message: &str,
        custom_id: &str,
    ) -> Value {
        let id = self.new_id();
        let token = format!("itoken-{id}");
        self.interactions.insert(
            id.clone(),
            Issued {
                token: token.clone(),
                at: Instant::now(),
                response: None,
            },
        );
        let roles = self
            .members
            .get(user)
            .map(|m| m.roles.clone())
            .unwrap_or_default();
        json!({
            "id": id, "application_id": super::BOT, "type": 3, "token": token, "version": 1,
            "guild_id": self.id, "channel_id": channel,
            "channel": {"id": channel, "type": 0},
            "member": {
                "user": {"id": user, "username": format!("user-{user}"), "discriminator": "0"},
                "roles": roles, "joined_at": "2026-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0, "permissions": "0",
            },
            "data": {"custom_id": custom_id, "component_type": 2},
            "message": {"id": message, "channel_id": channel, "type": 0, "content": ""},
            "app_permissions": "0", "locale": "en-US", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {}, "context": 0,
        })
    }

    /// Issues the submission by `user` of the modal the bot answered
    /// interaction `shown` with, its text inputs holding `values` by their
    /// `custom_id`: the `INTERACTION_CREATE` payload (type 5,
    /// MODAL_SUBMIT; "Modal Submit Data Structure": the modal's
    /// `custom_id`, and `components` as action rows of text inputs, each
    /// `{type: 4, custom_id, value}`). `None` when `shown` was not answered
    /// with a modal (Discord shows no form to submit).
    pub(super) fn submit_modal(
        &mut self,
        user: &str,
        channel: &str,
        shown: &str,
        values: &[(&str, &str)],
    ) -> Option<Value> {
        let modal = self.interactions.get(shown)?.response.clone()?;
        if modal["type"] != 9 {
            return None;
        }
        let rows: Vec<Value> = modal["data"]["components"]
            .as_array()?
            .iter()
            .map(|row| {
                let inputs: Vec<Value> = row["components"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|input| {
                        let id = input["custom_id"].as_str().unwrap_or_default();
                        let value = values
                            .iter()
                            .find(|(field, _)| *field == id)
                            .map_or("", |(_, v)| *v);
                        json!({"type": 4, "custom_id": id, "value": value})
                    })
                    .collect();
                json!({"type": 1, "components": inputs})
            })
            .collect();
        let mut payload = self.press(user, channel, shown, "");
        payload["type"] = json!(5);
        payload["data"] = json!({"custom_id": modal["data"]["custom_id"], "components": rows});
        payload.as_object_mut()?.remove("message");
        Some(payload)
    }

    /// `POST /interactions/{id}/{token}/callback`. A response with a file
    /// comes as `multipart/form-data` ("Uploading Files",
    /// discord-docs/reference.mdx): its JSON in `payload_json`, each file
    /// `files[n]` named by an `attachments` entry of `id` n (else `400
    /// Invalid Form Body`); the response is kept as the JSON with a
    /// `files` list of what was uploaded (see the shared server's
    /// multipart reading).
    pub(super) fn interaction_callback(&mut self, id: &str, token: &str, body: &Value) -> Reply {
        let body = &match body.get("payload_json").and_then(Value::as_str) {
            Some(payload) => {
                let Ok(mut payload) = serde_json::from_str::<Value>(payload) else {
                    return invalid_form("payload_json", "Must be valid JSON.");
                };
                let mut files = Vec::new();
                for attachment in payload["data"]["attachments"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    let n = attachment["id"].as_u64().unwrap_or(u64::MAX);
                    let Some(file) = body.get(format!("files[{n}]")) else {
                        return invalid_form("data.attachments", "Attachment references no file.");
                    };
                    files.push(file.clone());
                }
                payload["files"] = json!(files);
                payload
            }
            None => body.clone(),
        };
        if body["type"] == 9 {
            let title = body["data"]["title"]
                .as_str()
                .map_or(0, |t| t.chars().count());
            let custom_id = body["data"]["custom_id"].as_str().map_or(0, str::len);
            // receiving-and-responding.mdx, "Modal": `title` max 45
            // characters, `custom_id` max 100, 1 to 5 components.
            if !(1..=45).contains(&title) {
                return invalid_form("data.title", "Must be between 1 and 45 in length.");
            }
            if !(1..=100).contains(&custom_id) {
                return invalid_form("data.custom_id", "Must be between 1 and 100 in length.");
            }
            let n = body["data"]["components"].as_array().map_or(0, Vec::len);
            if !(1..=5).contains(&n) {
                return invalid_form("data.components", "Must be between 1 and 5 in length.");
            }
        }
        let Some(issued) = self.interactions.get_mut(id) else {
            return error(404, "Unknown interaction", 10062);
        };
        if issued.token != token || issued.at.elapsed() > RESPONSE_DEADLINE {
            return error(404, "Unknown interaction", 10062);
        }
        if issued.response.is_some() {
            return error(400, "Interaction has already been acknowledged", 40060);
        }
        match body["type"].as_u64() {
            Some(1 | 4..=10) => {}
            _ => return invalid_form("type", "Value must be one of (1, 4, 5, 6, 7, 8, 9, 10)."),
        }
        issued.response = Some(body.clone());
        Reply::empty(204)
    }

    /// `GET /channels/{channel}/messages/{message}` (message.mdx, "Get
    /// Channel Message"): `404 Unknown Message, 10008` once deleted.
    pub(super) fn get_message(&self, channel: &str, message: &str) -> Reply {
        if !self.dm_channels.contains_key(channel) && !self.channels.iter().any(|c| c.id == channel)
        {
            return error(404, "Unknown Channel", 10003);
        }
        match self
            .messages
            .get(channel)
            .and_then(|all| all.iter().find(|m| m.id == message && !m.deleted))
        {
            Some(m) => Reply::json(
                200,
                json!({"id": m.id, "channel_id": channel, "content": m.content,
                       "author": {"id": m.author}, "components": m.body["components"].clone()}),
            ),
            None => error(404, "Unknown Message", 10008),
        }
    }
}
