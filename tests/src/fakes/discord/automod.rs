//! The guild's AutoMod rules: `GET/POST /guilds/{id}/auto-moderation/rules`
//! and `GET/PATCH/DELETE .../rules/{rule.id}`, validated as
//! discord-docs/auto-moderation.mdx documents:
//!
//! - "Auto Moderation Permission Requirements": every route needs
//!   MANAGE_GUILD (else `403 Missing Permissions, 50013`); a TIMEOUT action
//!   also needs MODERATE_MEMBERS.
//! - "Trigger Types": at most 6 KEYWORD rules per guild and 1 of each other
//!   type; one more is `400 Invalid Form Body, 50035` with
//!   `AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED` ("Maximum number of rules
//!   with trigger type 1 is 6"), the wording Discord answers (the docs give
//!   the limit, not the body; the body is the one reported by API users).
//! - "Trigger Metadata Field Limits": `keyword_filter` at most 1000
//!   strings of at most 60 characters, `regex_patterns` at most 10 of at
//!   most 260, `allow_list` at most 100 (1000 for KEYWORD_PRESET) of at
//!   most 60; `mention_total_limit` at most 50.
//! - "Auto Moderation Rule Structure": `exempt_roles` at most 20,
//!   `exempt_channels` at most 50.
//! - "Action Types" and "Action Metadata": types 1 to 4; TIMEOUT only on
//!   KEYWORD and MENTION_SPAM rules, `duration_seconds` at most 2419200;
//!   `custom_message` at most 150 characters; SEND_ALERT_MESSAGE's
//!   `channel_id` an existing channel.
//! - "Create Auto Moderation Rule": `name`, `event_type`, `trigger_type`
//!   and `actions` are required, `enabled` is false by default; "Modify":
//!   every field optional, `trigger_type` cannot change (not a parameter:
//!   ignored).
//! - "Delete": `204`. A rule id the guild does not have: `404`; the docs
//!   list no JSON code for it, so the fake answers Discord's generic
//!   `404: Not Found`, code 0.
//!
//! Each rule keeps `creator_id`: the bot for the rules it created, whoever
//! a test says for the rules made "by hand" ([`super::FakeDiscord::seed_rule`]).

use serde_json::{Map, Value, json};

use super::guild::{Guild, error};
use super::{BOT, MANAGE_GUILD, MODERATE_MEMBERS};
use crate::fakes::server::Reply;

/// Trigger types (auto-moderation.mdx "Trigger Types").
pub const KEYWORD: u64 = 1;
/// See [`KEYWORD`].
pub const SPAM: u64 = 3;
/// See [`KEYWORD`].
pub const KEYWORD_PRESET: u64 = 4;
/// See [`KEYWORD`].
pub const MENTION_SPAM: u64 = 5;
/// See [`KEYWORD`].
pub const MEMBER_PROFILE: u64 = 6;

/// "Max per Guild" of a trigger type.
fn max_per_guild(trigger_type: u64) -> usize {
    if trigger_type == KEYWORD { 6 } else { 1 }
}

/// `400 Invalid Form Body` with Discord's error `code` for `field` (a
/// path such as `trigger_metadata.keyword_filter.3`).
fn form_error(field: &str, code: &str, message: &str) -> Reply {
    let mut errors = json!({ "_errors": [{ "code": code, "message": message }] });
    for part in field.rsplit('.').filter(|p| !p.is_empty()) {
        errors = json!({ part: errors });
    }
    Reply::json(
        400,
        json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors }),
    )
}

fn max_length(field: &str, max: usize) -> Reply {
    form_error(
        field,
        "BASE_TYPE_MAX_LENGTH",
        &format!("Must be {max} or fewer in length."),
    )
}

fn required(field: &str) -> Reply {
    form_error(field, "BASE_TYPE_REQUIRED", "This field is required")
}

/// A list of strings of at most `max_items` items of at most `max_chars`
/// characters.
fn strings(
    value: &Value,
    field: &str,
    max_items: usize,
    max_chars: usize,
) -> Result<Vec<String>, Reply> {
    let Some(items) = value.as_array() else {
        return Err(form_error(
            field,
            "BASE_TYPE_LIST",
            "Must be an array of strings.",
        ));
    };
    if items.len() > max_items {
        return Err(max_length(field, max_items));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item.as_str() {
            Some(s) if s.chars().count() <= max_chars => Ok(s.to_owned()),
            Some(_) => Err(max_length(&format!("{field}.{i}"), max_chars)),
            None => Err(form_error(
                &format!("{field}.{i}"),
                "BASE_TYPE_STRING",
                "Must be a string.",
            )),
        })
        .collect()
}

impl Guild {
    pub(super) fn list_rules(&self) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_GUILD) {
            return reply;
        }
        Reply::json(200, json!(self.automod_rules.values().collect::<Vec<_>>()))
    }

    pub(super) fn get_rule(&self, rule: &str) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_GUILD) {
            return reply;
        }
        match self.automod_rules.get(rule) {
            Some(rule) => Reply::json(200, rule.clone()),
            None => error(404, "404: Not Found", 0),
        }
    }

    pub(super) fn create_rule(&mut self, body: &Value) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_GUILD) {
            return reply;
        }
        match self.insert_rule(BOT, body) {
            Ok(rule) => Reply::json(200, rule),
            Err(reply) => reply,
        }
    }

    pub(super) fn modify_rule(&mut self, id: &str, body: &Value) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_GUILD) {
            return reply;
        }
        match self.update_rule(id, body) {
            Ok(rule) => Reply::json(200, rule),
            Err(reply) => reply,
        }
    }

    /// A new rule by `creator` from "Create Auto Moderation Rule"'s
    /// `body`, if Discord accepts it.
    pub(super) fn insert_rule(&mut self, creator: &str, body: &Value) -> Result<Value, Reply> {
        let Some(fields) = body.as_object() else {
            return Err(required("name"));
        };
        for field in ["name", "event_type", "trigger_type", "actions"] {
            if fields.get(field).is_none_or(Value::is_null) {
                return Err(required(field));
            }
        }
        let id = self.new_id();
        let rule = json!({
            "id": id, "guild_id": self.id, "creator_id": creator, "name": "",
            "event_type": 1, "trigger_type": fields["trigger_type"],
            "trigger_metadata": {}, "actions": [], "enabled": false,
            "exempt_roles": [], "exempt_channels": [],
        });
        let rule = self.checked_rule(rule, fields, None)?;
        self.automod_rules.insert(id, rule.clone());
        Ok(rule)
    }

    /// Rule `id` changed by "Modify Auto Moderation Rule"'s `body`, if
    /// Discord accepts the result.
    pub(super) fn update_rule(&mut self, id: &str, body: &Value) -> Result<Value, Reply> {
        let Some(current) = self.automod_rules.get(id).cloned() else {
            return Err(error(404, "404: Not Found", 0));
        };
        let mut fields = body.as_object().cloned().unwrap_or_default();
        // Not a parameter of "Modify Auto Moderation Rule".
        fields.remove("trigger_type");
        let rule = self.checked_rule(current, &fields, Some(id))?;
        self.automod_rules.insert(id.to_owned(), rule.clone());
        Ok(rule)
    }

    pub(super) fn delete_rule(&mut self, id: &str) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_GUILD) {
            return reply;
        }
        match self.automod_rules.remove(id) {
            Some(_) => Reply::empty(204),
            None => error(404, "404: Not Found", 0),
        }
    }

    /// `rule` with `fields` applied, if the result is a rule Discord
    /// accepts; `replacing` is the id of the rule being modified (it does
    /// not count against its type's limit).
    fn checked_rule(
        &self,
        mut rule: Value,
        fields: &Map<String, Value>,
        replacing: Option<&str>,
    ) -> Result<Value, Reply> {
        for (name, value) in fields {
            if [
                "name",
                "event_type",
                "trigger_type",
                "trigger_metadata",
                "actions",
                "enabled",
                "exempt_roles",
                "exempt_channels",
            ]
            .contains(&name.as_str())
            {
                rule[name] = value.clone();
            }
        }
        let trigger_type = rule["trigger_type"].as_u64().unwrap_or(0);
        if ![KEYWORD, SPAM, KEYWORD_PRESET, MENTION_SPAM, MEMBER_PROFILE].contains(&trigger_type) {
            return Err(form_error(
                "trigger_type",
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 3, 4, 5, 6}.",
            ));
        }
        if !matches!(rule["event_type"].as_u64(), Some(1 | 2)) {
            return Err(form_error(
                "event_type",
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 2}.",
            ));
        }
        if !rule["name"].is_string() {
            return Err(required("name"));
        }
        if !rule["enabled"].is_boolean() {
            return Err(form_error(
                "enabled",
                "BASE_TYPE_BOOLEAN",
                "Must be a boolean.",
            ));
        }
        let same_type = self
            .automod_rules
            .iter()
            .filter(|(id, r)| {
                Some(id.as_str()) != replacing && r["trigger_type"].as_u64() == Some(trigger_type)
            })
            .count();
        if replacing.is_none() && same_type >= max_per_guild(trigger_type) {
            return Err(form_error(
                "",
                "AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED",
                &format!(
                    "Maximum number of rules with trigger type {trigger_type} is {}",
                    max_per_guild(trigger_type)
                ),
            ));
        }
        self.check_metadata(&mut rule["trigger_metadata"], trigger_type)?;
        self.check_actions(&rule["actions"], trigger_type)?;
        let roles = strings(&rule["exempt_roles"], "exempt_roles", 20, 20)?;
        let channels = strings(&rule["exempt_channels"], "exempt_channels", 50, 20)?;
        rule["exempt_roles"] = json!(roles);
        rule["exempt_channels"] = json!(channels);
        Ok(rule)
    }

    fn check_metadata(&self, metadata: &mut Value, trigger_type: u64) -> Result<(), Reply> {
        if metadata.is_null() {
            *metadata = json!({});
        }
        let field = |name: &str| format!("trigger_metadata.{name}");
        if matches!(trigger_type, KEYWORD | MEMBER_PROFILE) {
            for (name, items, chars) in [("keyword_filter", 1000, 60), ("regex_patterns", 10, 260)]
            {
                let value = metadata[name].take();
                let list = if value.is_null() {
                    Vec::new()
                } else {
                    strings(&value, &field(name), items, chars)?
                };
                metadata[name] = json!(list);
            }
        }
        if matches!(trigger_type, KEYWORD | MEMBER_PROFILE | KEYWORD_PRESET) {
            let items = if trigger_type == KEYWORD_PRESET {
                1000
            } else {
                100
            };
            let value = metadata["allow_list"].take();
            let list = if value.is_null() {
                Vec::new()
            } else {
                strings(&value, &field("allow_list"), items, 60)?
            };
            metadata["allow_list"] = json!(list);
        }
        if trigger_type == MENTION_SPAM {
            match &metadata["mention_total_limit"] {
                Value::Null => {}
                value if value.as_u64().is_some_and(|n| n <= 50) => {}
                _ => {
                    return Err(form_error(
                        &field("mention_total_limit"),
                        "NUMBER_TYPE_MAX",
                        "int value should be less than or equal to 50.",
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_actions(&self, actions: &Value, trigger_type: u64) -> Result<(), Reply> {
        let Some(actions) = actions.as_array() else {
            return Err(required("actions"));
        };
        for (i, action) in actions.iter().enumerate() {
            let at = |name: &str| format!("actions.{i}.{name}");
            let metadata = &action["metadata"];
            match action["type"].as_u64() {
                Some(1) => {
                    if metadata["custom_message"]
                        .as_str()
                        .is_some_and(|m| m.chars().count() > 150)
                    {
                        return Err(max_length(&at("metadata.custom_message"), 150));
                    }
                }
                Some(2) => {
                    let channel = metadata["channel_id"].as_str().unwrap_or_default();
                    if !self.channels.iter().any(|c| c.id == channel) {
                        return Err(form_error(
                            &at("metadata.channel_id"),
                            "CHANNEL_TYPE_INVALID",
                            "Unknown channel",
                        ));
                    }
                }
                Some(3) => {
                    if !matches!(trigger_type, KEYWORD | MENTION_SPAM) {
                        return Err(form_error(
                            &at("type"),
                            "AUTO_MODERATION_INVALID_ACTION_FOR_TRIGGER",
                            "A TIMEOUT action can only be set up for KEYWORD and MENTION_SPAM rules.",
                        ));
                    }
                    if metadata["duration_seconds"]
                        .as_u64()
                        .is_none_or(|d| d > 2_419_200)
                    {
                        return Err(form_error(
                            &at("metadata.duration_seconds"),
                            "NUMBER_TYPE_MAX",
                            "int value should be less than or equal to 2419200.",
                        ));
                    }
                    self.bot_needs(MODERATE_MEMBERS)?;
                }
                Some(4) => {}
                _ => {
                    return Err(form_error(
                        &at("type"),
                        "BASE_TYPE_CHOICES",
                        "Value must be one of {1, 2, 3, 4}.",
                    ));
                }
            }
        }
        Ok(())
    }
}
