//! What antinuke undoes, with Discord's rules: "Delete Webhook" (`DELETE
//! /webhooks/{webhook.id}`, discord-openapi.json `delete_webhook`: 204, a
//! 4XX error otherwise; Manage Webhooks, discord-docs/permissions.mdx),
//! "Remove Guild Member Role" and "Modify Guild Role" (discord-docs/guild.mdx:
//! Manage Roles, 204 and the updated role; permissions.mdx "Permission
//! Hierarchy": "A bot can edit roles of a lower position than its highest
//! role, but it can only grant permissions it has to those roles").

use serde_json::Value;

use super::guild::{Guild, error, invalid_form, missing_permissions, role_json};
use super::{ADMINISTRATOR, BOT, MANAGE_ROLES};
use crate::fakes::server::Reply;

/// `MANAGE_WEBHOOKS` (permissions.mdx, `1 << 29`).
pub const MANAGE_WEBHOOKS: u64 = 1 << 29;

impl Guild {
    /// An unknown webhook is `404 Unknown Webhook, 10015`
    /// (opcodes-and-status-codes.mdx).
    pub(super) fn delete_webhook(&mut self, webhook: &str) -> Reply {
        if !self.webhooks.contains(webhook) {
            return error(404, "Unknown Webhook", 10015);
        }
        if let Err(reply) = self.bot_needs(MANAGE_WEBHOOKS) {
            return reply;
        }
        self.webhooks.remove(webhook);
        Reply::empty(204)
    }

    /// Refused as a member role list without the role would be: an unknown
    /// member `10007`, an unknown role `10011`, a managed role `50028`, a
    /// role at or above the bot's highest `50013`.
    pub(super) fn remove_member_role(&mut self, user: &str, role: &str) -> Reply {
        let Some(member) = self.members.get(user) else {
            return error(404, "Unknown Member", 10007);
        };
        if self.role(role).is_none() {
            return error(404, "Unknown Role", 10011);
        }
        let roles: Vec<String> = member
            .roles
            .iter()
            .filter(|r| *r != role)
            .cloned()
            .collect();
        match self.check_roles(user, &serde_json::json!(roles)) {
            Ok(roles) => {
                if let Some(member) = self.members.get_mut(user) {
                    member.roles = roles;
                }
                Reply::empty(204)
            }
            Err(reply) => reply,
        }
    }

    /// Only `permissions` is read (every field is optional); the role must
    /// be below the bot's highest, and the bits it gains held by the bot.
    pub(super) fn modify_role(&mut self, id: &str, body: &Value) -> Reply {
        let Some(role) = self.role(id) else {
            return error(404, "Unknown Role", 10011);
        };
        if let Err(reply) = self.bot_needs(MANAGE_ROLES) {
            return reply;
        }
        if BOT != self.owner_id && role.position >= self.highest(BOT) {
            return missing_permissions();
        }
        let permissions = match &body["permissions"] {
            Value::Null => role.permissions,
            Value::String(bits) => match bits.parse::<u64>() {
                Ok(bits) => bits,
                Err(_) => return invalid_form("permissions", "must be a bitfield string"),
            },
            _ => return invalid_form("permissions", "must be a bitfield string"),
        };
        let held = self.permissions(BOT);
        let gained = permissions & !role.permissions;
        if held & ADMINISTRATOR == 0 && gained & !held != 0 {
            return missing_permissions();
        }
        let Some(role) = self.roles.iter_mut().find(|r| r.id == id) else {
            return error(404, "Unknown Role", 10011);
        };
        role.permissions = permissions;
        Reply::json(200, role_json(role))
    }
}
