//! Creating structure, as a restore does: `POST /guilds/{id}/roles`, the
//! bulk `PATCH /guilds/{id}/roles` of positions, `POST
//! /guilds/{id}/channels`, `PATCH /channels/{id}` (its topic) and `PUT
//! /channels/{id}/permissions/{target}`,
//! with Discord's rules: Manage Roles for roles and overwrites, Manage
//! Channels for creating and editing channels, nobody
//! grants a permission they lack, nobody moves a role to or from at or above
//! their own highest, a guild has at most 250 roles and 500 channels, and a
//! parent must be a category.

use serde_json::{Value, json};

use super::guild::{
    Channel, Guild, GuildRole, error, invalid_form, missing_permissions, role_json,
};
use super::{ADMINISTRATOR, BOT, MANAGE_CHANNELS, MANAGE_ROLES};
use crate::fakes::server::Reply;

/// Discord's limits on a guild.
pub const MAX_ROLES: usize = 250;
/// See [`MAX_ROLES`].
pub const MAX_CHANNELS: usize = 500;
/// The channel types a bot may create: text, voice, category,
/// announcement, stage, forum.
const CREATABLE_TYPES: [u64; 6] = [0, 2, 4, 5, 13, 15];

/// A permission bitfield as Discord sends it: a decimal string (absent: 0).
fn bits(value: &Value, field: &str) -> Result<u64, Reply> {
    match value {
        Value::Null => Ok(0),
        Value::String(bits) => bits
            .parse()
            .map_err(|_| invalid_form(field, "must be a bitfield string")),
        _ => Err(invalid_form(field, "must be a bitfield string")),
    }
}

impl Guild {
    /// Whether the bot may grant or take away `bits` (it must hold them).
    fn bot_holds(&self, bits: u64) -> bool {
        let held = self.permissions(BOT);
        held & ADMINISTRATOR != 0 || bits & !held == 0
    }

    /// A new role goes to the bottom, just above `@everyone`, as on Discord.
    pub(super) fn create_role(&mut self, body: &Value) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_ROLES) {
            return reply;
        }
        let permissions = match bits(&body["permissions"], "permissions") {
            Ok(bits) => bits,
            Err(reply) => return reply,
        };
        if !self.bot_holds(permissions) {
            return missing_permissions();
        }
        if self.roles.len() >= MAX_ROLES {
            return error(400, "Maximum number of server roles reached (250)", 30005);
        }
        let name = body["name"].as_str().unwrap_or("new role").to_owned();
        for role in self.roles.iter_mut().filter(|r| r.position >= 1) {
            role.position += 1;
        }
        let role = GuildRole {
            id: self.new_id(),
            name,
            position: 1,
            permissions,
            colour: body["color"].as_u64().unwrap_or(0) as u32,
            hoist: body["hoist"].as_bool().unwrap_or(false),
            mentionable: body["mentionable"].as_bool().unwrap_or(false),
            managed: false,
            unicode_emoji: body["unicode_emoji"].as_str().map(str::to_owned),
        };
        let reply = Reply::json(200, role_json(&role));
        self.roles.push(role);
        reply
    }

    /// Sets the positions of the roles listed, in one request: every role
    /// moved must be below the bot's highest, where it is and where it goes.
    pub(super) fn position_roles(&mut self, body: &Value) -> Reply {
        if let Err(reply) = self.bot_needs(MANAGE_ROLES) {
            return reply;
        }
        let Some(moves) = body.as_array() else {
            return invalid_form("_root", "must be an array of {id, position}");
        };
        let bot_highest = self.highest(BOT);
        let mut positions = Vec::new();
        for entry in moves {
            let (Some(id), Some(position)) = (entry["id"].as_str(), entry["position"].as_i64())
            else {
                return invalid_form("_root", "must be an array of {id, position}");
            };
            let Some(role) = self.role(id) else {
                return error(404, "Unknown Role", 10011);
            };
            if id == self.id {
                return invalid_form("position", "the @everyone role cannot be moved");
            }
            if BOT != self.owner_id && (role.position >= bot_highest || position >= bot_highest) {
                return missing_permissions();
            }
            positions.push((id.to_owned(), position.max(1)));
        }
        for (id, position) in positions {
            if let Some(role) = self.roles.iter_mut().find(|r| r.id == id) {
                role.position = position;
            }
        }
        Reply::json(
            200,
            json!(self.roles.iter().map(role_json).collect::<Vec<_>>()),
        )
    }

    pub(super) fn create_channel(&mut self, body: &Value) -> Reply {
        // guild.mdx, "Create Guild Channel": "Requires the MANAGE_CHANNELS
        // permission."
        if let Err(reply) = self.bot_needs(MANAGE_CHANNELS) {
            return reply;
        }
        let name = match body["name"].as_str() {
            Some(name) if (1..=100).contains(&name.chars().count()) => name.to_owned(),
            _ => return invalid_form("name", "must be 1 to 100 characters long"),
        };
        let kind = body["type"].as_u64().unwrap_or(0);
        if !CREATABLE_TYPES.contains(&kind) {
            return invalid_form("type", "Value must be one of {0, 2, 4, 5, 13, 15}.");
        }
        let parent_id = body["parent_id"].as_str().map(str::to_owned);
        if let Some(parent) = &parent_id {
            let is_category = self.channels.iter().any(|c| &c.id == parent && c.kind == 4);
            if kind == 4 || !is_category {
                return invalid_form("parent_id", "Category does not exist");
            }
        }
        if self.channels.len() >= MAX_CHANNELS {
            return error(400, "Maximum number of guild channels reached (500)", 30013);
        }
        let position = body["position"]
            .as_i64()
            .unwrap_or(self.channels.len() as i64);
        let channel = Channel {
            id: self.new_id(),
            name,
            kind,
            topic: body["topic"].as_str().map(str::to_owned),
            parent_id,
            position,
            nsfw: body["nsfw"].as_bool().unwrap_or(false),
            rate_limit_per_user: body["rate_limit_per_user"].as_u64().unwrap_or(0) as u32,
            overwrites: Vec::new(),
        };
        let reply = Reply::json(201, self.channel_json(&channel));
        self.channels.push(channel);
        reply
    }

    /// `PATCH /channels/{id}`: its topic (the one field a restore sets),
    /// at most 1024 characters.
    pub(super) fn modify_channel(&mut self, channel: &str, body: &Value) -> Reply {
        let Some(index) = self.channels.iter().position(|c| c.id == channel) else {
            return error(404, "Unknown Channel", 10003);
        };
        // channel.mdx, "Modify Channel": "Requires the MANAGE_CHANNELS
        // permission for the guild."
        if let Err(reply) = self.bot_needs(MANAGE_CHANNELS) {
            return reply;
        }
        match &body["topic"] {
            Value::Null => {}
            Value::String(topic) if topic.chars().count() <= 1024 => {
                self.channels[index].topic = Some(topic.clone());
            }
            _ => return invalid_form("topic", "must be at most 1024 characters long"),
        }
        Reply::json(200, self.channel_json(&self.channels[index]))
    }

    /// Creates or replaces the overwrite of `target` on `channel`.
    pub(super) fn put_overwrite(&mut self, channel: &str, target: &str, body: &Value) -> Reply {
        if !self.channels.iter().any(|c| c.id == channel) {
            return error(404, "Unknown Channel", 10003);
        }
        let kind = match body["type"].as_u64() {
            Some(kind @ (0 | 1)) => kind as u8,
            _ => return invalid_form("type", "must be 0 (role) or 1 (member)"),
        };
        let (allow, deny) = match (bits(&body["allow"], "allow"), bits(&body["deny"], "deny")) {
            (Ok(allow), Ok(deny)) => (allow, deny),
            (Err(reply), _) | (_, Err(reply)) => return reply,
        };
        if kind == 0 && self.role(target).is_none() {
            return error(404, "Unknown Role", 10011);
        }
        if let Err(reply) = self.bot_needs(MANAGE_ROLES) {
            return reply;
        }
        if !self.bot_holds(allow | deny) {
            return missing_permissions();
        }
        let channel = self
            .channels
            .iter_mut()
            .find(|c| c.id == channel)
            .expect("checked above");
        channel.overwrites.retain(|(id, ..)| id != target);
        channel
            .overwrites
            .push((target.to_owned(), kind, allow, deny));
        Reply::empty(204)
    }
}
