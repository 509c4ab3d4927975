//! The guild's state and Discord's rules for changing it: routing, who may
//! do what (permissions and role positions), and Discord's answers and error
//! codes. Every function here runs under the fake's lock, so each request is
//! atomic.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use super::{ADMINISTRATOR, BAN_MEMBERS, BOT, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS, TOKEN};
use crate::fakes::server::{Recorded, Reply};

/// Discord's longest timeout, from its own clock (guild.mdx, "Modify Guild
/// Member": "up to 28 days in the future").
const MAX_TIMEOUT_SECONDS: i64 = 28 * 86_400;
/// Discord's limit on `delete_message_seconds` (7 days).
const MAX_DELETE_MESSAGE_SECONDS: i64 = 604_800;

#[derive(Debug, Clone, Default)]
pub(super) struct GuildRole {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) position: i64,
    pub(super) permissions: u64,
    pub(super) colour: u32,
    pub(super) hoist: bool,
    pub(super) mentionable: bool,
    pub(super) managed: bool,
    pub(super) unicode_emoji: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Channel {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) kind: u64,
    pub(super) topic: Option<String>,
    pub(super) parent_id: Option<String>,
    pub(super) position: i64,
    pub(super) nsfw: bool,
    pub(super) rate_limit_per_user: u32,
    /// `(id, type, allow, deny)`, type 0 role, 1 member.
    pub(super) overwrites: Vec<(String, u8, u64, u64)>,
}

/// The guild settings a snapshot reads.
#[derive(Debug, Clone, Default)]
pub(super) struct Settings {
    pub(super) verification_level: u8,
    pub(super) default_message_notifications: u8,
    pub(super) explicit_content_filter: u8,
    pub(super) system_channel_id: Option<String>,
    pub(super) rules_channel_id: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct GuildMember {
    pub(super) roles: Vec<String>,
    pub(super) communication_disabled_until: Option<String>,
    /// The member's `nick` in the guild, if set.
    pub(super) nick: Option<String>,
}

#[derive(Debug)]
pub(super) struct Guild {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) owner_id: String,
    pub(super) settings: Settings,
    pub(super) roles: Vec<GuildRole>,
    pub(super) channels: Vec<Channel>,
    pub(super) members: BTreeMap<String, GuildMember>,
    /// Banned user -> the audit-log reason, if one was given.
    pub(super) bans: BTreeMap<String, Option<String>>,
    /// The Discord users the fake knows: a ban naming another is refused.
    pub(super) users: std::collections::BTreeSet<String>,
    /// Channel id -> its messages, oldest first (the bot's and those a test
    /// seeded), deleted ones included ([`super::messages`]).
    pub(super) messages: HashMap<String, Vec<super::messages::Message>>,
    /// DM channel id -> the user it reaches.
    pub(super) dm_channels: BTreeMap<String, String>,
    /// Users who accept no DM from the bot (Discord answers 50007).
    pub(super) unreachable: std::collections::BTreeSet<String>,
    /// The guild's AutoMod rules by id ([`super::automod`]).
    pub(super) automod_rules: BTreeMap<String, Value>,
    /// `GET /applications/@me`'s `flags`.
    pub(super) application_flags: u64,
    pub(super) next_id: u64,
    /// What `GET /gateway/bot` answers as the gateway's URL.
    pub(super) gateway_url: Option<String>,
    /// The guild object's `vanity_url_code`.
    pub(super) vanity_url_code: Option<String>,
    /// The codes of the guild's invites, oldest first.
    pub(super) invites: Vec<String>,
    /// The incident actions ([`super::incidents`]).
    pub(super) incidents: super::incidents::Incidents,
    /// Interactions issued by id ([`super::interactions`]).
    pub(super) interactions: BTreeMap<String, super::interactions::Issued>,
    /// The ids of the guild's webhooks ([`super::undo`]).
    pub(super) webhooks: std::collections::BTreeSet<String>,
}

/// Discord's error body.
pub(super) fn error(status: u16, message: &str, code: u64) -> Reply {
    Reply::json(status, json!({ "message": message, "code": code }))
}

pub(super) fn missing_permissions() -> Reply {
    error(403, "Missing Permissions", 50013)
}

/// `400 Invalid Form Body` naming the field and what is wrong with it.
pub(super) fn invalid_form(field: &str, problem: &str) -> Reply {
    Reply::json(
        400,
        json!({
            "message": "Invalid Form Body",
            "code": 50035,
            "errors": { field: { "_errors": [{ "code": "BASE_TYPE_INVALID", "message": problem }] } },
        }),
    )
}

/// shared/platform-specs/discord-docs/reference.mdx, "User Agent": HTTP
/// API clients must send `User-Agent: DiscordBot ($url, $versionNumber)`
/// (more may follow); "requests that do not have a valid User Agent
/// specified may be blocked and return a Cloudflare error". The fake always
/// blocks them, so a missing or malformed one shows in every test.
pub(super) fn valid_user_agent(agent: Option<&str>) -> bool {
    let Some(inner) = agent.and_then(|a| a.strip_prefix("DiscordBot (")) else {
        return false;
    };
    let Some((inner, _more)) = inner.split_once(')') else {
        return false;
    };
    matches!(inner.split_once(", "), Some((url, version)) if !url.trim().is_empty() && !version.trim().is_empty())
}

/// Whether `request` is a write (PUT, POST, PATCH) that says neither its
/// length nor that it is chunked, which Discord refuses 411.
pub(super) fn length_required(request: &Recorded) -> bool {
    matches!(request.method.as_str(), "PUT" | "POST" | "PATCH")
        && request.header("content-length").is_none()
        && request.header("transfer-encoding").is_none()
}

/// What Cloudflare answers a blocked client: 403 and an error page, not
/// Discord's JSON (error 1010, "the owner of this website has banned your
/// access based on your browser's signature").
pub(super) fn blocked_user_agent() -> Reply {
    Reply::empty(403)
}

fn method_not_allowed() -> Reply {
    error(405, "405: Method Not Allowed", 0)
}

pub(super) fn answer(guild: &mut Guild, request: &Recorded) -> Reply {
    if request.header("authorization") != Some(&format!("Bot {TOKEN}")) {
        return error(401, "401: Unauthorized", 0);
    }
    let segments: Vec<&str> = request.path.trim_start_matches('/').split('/').collect();
    let method = request.method.as_str();
    match segments.as_slice() {
        // Where the gateway is: the fake gateway a test started, if any (no
        // test reaches the real one).
        ["gateway", "bot"] => match (method, &guild.gateway_url) {
            ("GET", Some(url)) => Reply::json(
                200,
                json!({"url": url, "shards": 1, "session_start_limit":
                    {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}),
            ),
            ("GET", None) => error(404, "404: Not Found (no fake gateway)", 0),
            _ => method_not_allowed(),
        },
        ["applications", "@me"] => match method {
            "GET" => Reply::json(
                200,
                super::messages::application_json(guild.application_flags),
            ),
            _ => method_not_allowed(),
        },
        ["users", "@me", "channels"] => match method {
            "POST" => guild.open_dm(&request.body),
            _ => method_not_allowed(),
        },
        ["users", "@me"] => match method {
            "GET" => Reply::json(
                200,
                json!({"id": BOT, "username": "modctl", "discriminator": "0", "bot": true}),
            ),
            _ => method_not_allowed(),
        },
        ["guilds", id, rest @ ..] => {
            if *id != guild.id {
                return error(404, "Unknown Guild", 10004);
            }
            guild_route(guild, method, rest, request)
        }
        ["channels", channel, "messages"] => match method {
            "POST" => guild.post_message(channel, &request.body),
            _ => method_not_allowed(),
        },
        ["channels", channel, "messages", message] => match method {
            "DELETE" => guild.delete_message(channel, message),
            "GET" => guild.get_message(channel, message),
            _ => method_not_allowed(),
        },
        ["interactions", id, token, "callback"] => match method {
            "POST" => guild.interaction_callback(id, token, &request.body),
            _ => method_not_allowed(),
        },
        ["webhooks", webhook] => match method {
            "DELETE" => guild.delete_webhook(webhook),
            _ => method_not_allowed(),
        },
        ["channels", channel] => match method {
            "PATCH" => guild.modify_channel(channel, &request.body),
            _ => method_not_allowed(),
        },
        ["channels", channel, "permissions", target] => match method {
            "PUT" => guild.put_overwrite(channel, target, &request.body),
            _ => method_not_allowed(),
        },
        _ => error(404, "404: Not Found", 0),
    }
}

fn guild_route(guild: &mut Guild, method: &str, rest: &[&str], request: &Recorded) -> Reply {
    match (rest, method) {
        ([], "GET") => Reply::json(200, guild.json()),
        (["members", user], "GET") => match guild.members.get(*user) {
            Some(member) => Reply::json(200, member_json(user, member)),
            None => error(404, "Unknown Member", 10007),
        },
        (["members", user], "PATCH") => guild.modify_member(user, &request.body),
        (["members", user], "DELETE") => guild.kick(user),
        (["members", user, "roles", role], "PUT") => guild.add_member_role(user, role),
        (["members", user, "roles", role], "DELETE") => guild.remove_member_role(user, role),
        (["roles", role], "PATCH") => guild.modify_role(role, &request.body),
        (["bans", user], "GET") => guild.ban_of(user),
        (["bans", user], "PUT") => guild.ban(user, request),
        (["bans", user], "DELETE") => guild.unban(user),
        (["invites"], "GET") => guild.list_invites(),
        (["incident-actions"], "PUT") => guild.put_incident_actions(&request.body),
        (["roles"], "GET") => Reply::json(200, json!(guild.roles_json())),
        (["roles"], "POST") => guild.create_role(&request.body),
        (["channels"], "GET") => Reply::json(200, guild.channels_json()),
        (["channels"], "POST") => guild.create_channel(&request.body),
        (["roles"], "PATCH") => guild.position_roles(&request.body),
        (["auto-moderation", "rules"], "GET") => guild.list_rules(),
        (["auto-moderation", "rules"], "POST") => guild.create_rule(&request.body),
        (["auto-moderation", "rules", rule], "GET") => guild.get_rule(rule),
        (["auto-moderation", "rules", rule], "PATCH") => guild.modify_rule(rule, &request.body),
        (["auto-moderation", "rules", rule], "DELETE") => guild.delete_rule(rule),
        (["auto-moderation", "rules"] | ["auto-moderation", "rules", _], _) => method_not_allowed(),
        ([] | ["members" | "bans" | "roles", _] | ["roles" | "channels" | "invites"], _)
        | (["members", _, "roles", _], _) => method_not_allowed(),
        _ => error(404, "404: Not Found", 0),
    }
}

fn member_json(user: &str, member: &GuildMember) -> Value {
    json!({
        "user": { "id": user, "username": format!("user-{user}"), "discriminator": "0" },
        "nick": member.nick,
        "roles": member.roles,
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "communication_disabled_until": member.communication_disabled_until,
    })
}

pub(super) fn role_json(role: &GuildRole) -> Value {
    let mut json = json!({
        "id": role.id,
        "name": role.name,
        "color": role.colour,
        "colors": { "primary_color": role.colour, "secondary_color": null, "tertiary_color": null },
        "hoist": role.hoist,
        "icon": null,
        "position": role.position,
        // Discord sends permission bitfields as strings.
        "permissions": role.permissions.to_string(),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    });
    // Discord leaves `unicode_emoji` out of roles without one.
    if let Some(emoji) = &role.unicode_emoji {
        json["unicode_emoji"] = json!(emoji);
    }
    json
}

/// The audit-log reason as Discord stores it: the header is URL-encoded.
fn audit_reason(request: &Recorded) -> Option<String> {
    request.header("x-audit-log-reason").map(|raw| {
        percent_encoding::percent_decode_str(raw)
            .decode_utf8_lossy()
            .into_owned()
    })
}

impl Guild {
    fn json(&self) -> Value {
        let settings = &self.settings;
        json!({
            "id": self.id,
            "name": self.name,
            "icon": null,
            "owner_id": self.owner_id,
            "verification_level": settings.verification_level,
            "default_message_notifications": settings.default_message_notifications,
            "explicit_content_filter": settings.explicit_content_filter,
            "system_channel_id": settings.system_channel_id,
            "rules_channel_id": settings.rules_channel_id,
            "vanity_url_code": self.vanity_url_code,
            "roles": self.roles_json(),
            "incidents_data": self.incidents_data(),
        })
    }

    /// "Get Guild Invites" (discord-docs/guild.mdx): "Returns a list of
    /// invite objects. Requires the `MANAGE_GUILD` or `VIEW_AUDIT_LOG`
    /// permission"; refused, 403 Missing Permissions (50013). Each invite
    /// as the invite object's required fields give it (`type` 0: a guild's,
    /// `code`, `channel`).
    fn list_invites(&self) -> Reply {
        if let Err(refused) = self.bot_needs(super::MANAGE_GUILD | super::VIEW_AUDIT_LOG) {
            return refused;
        }
        let channel = self.channels.first();
        let invites: Vec<Value> = self
            .invites
            .iter()
            .map(|code| {
                json!({
                    "type": 0, "code": code,
                    "guild": {"id": self.id, "name": self.name},
                    "channel": channel.map(|c| json!({"id": c.id, "type": c.kind, "name": c.name})),
                    "uses": 0, "max_uses": 0, "max_age": 0, "temporary": false,
                    "created_at": "2026-01-01T00:00:00.000000+00:00",
                })
            })
            .collect();
        Reply::json(200, json!(invites))
    }

    pub(super) fn roles_json(&self) -> Vec<Value> {
        self.roles.iter().map(role_json).collect()
    }

    fn channels_json(&self) -> Value {
        let channels: Vec<Value> = self.channels.iter().map(|c| self.channel_json(c)).collect();
        json!(channels)
    }

    /// A channel as Discord sends it: the fields of its type only (a voice
    /// channel has no topic, a category no slow mode).
    pub(super) fn channel_json(&self, channel: &Channel) -> Value {
        let overwrites: Vec<Value> = channel
            .overwrites
            .iter()
            .map(|(id, kind, allow, deny)| {
                json!({ "id": id, "type": kind, "allow": allow.to_string(), "deny": deny.to_string() })
            })
            .collect();
        let mut json = json!({
            "id": channel.id,
            "type": channel.kind,
            "guild_id": self.id,
            "name": channel.name,
            "position": channel.position,
            "flags": 0,
            "permission_overwrites": overwrites,
        });
        if channel.kind != 4 {
            json["parent_id"] = json!(channel.parent_id);
            json["nsfw"] = json!(channel.nsfw);
            json["rate_limit_per_user"] = json!(channel.rate_limit_per_user);
        }
        match channel.kind {
            2 | 13 => {
                json["bitrate"] = json!(64_000);
                json["user_limit"] = json!(0);
            }
            4 => {}
            _ => json["topic"] = json!(channel.topic),
        }
        json
    }

    pub(super) fn new_id(&mut self) -> String {
        let id = self.next_id;
        self.next_id += 1;
        id.to_string()
    }

    pub(super) fn role(&self, id: &str) -> Option<&GuildRole> {
        self.roles.iter().find(|r| r.id == id)
    }

    /// The position of `user`'s highest role (`@everyone` is 0).
    pub(super) fn highest(&self, user: &str) -> i64 {
        self.members
            .get(user)
            .into_iter()
            .flat_map(|m| &m.roles)
            .filter_map(|id| self.role(id))
            .map(|r| r.position)
            .max()
            .unwrap_or(0)
    }

    /// `user`'s guild-wide permissions: `@everyone`'s and their roles'; the
    /// owner and administrators have them all.
    pub(super) fn permissions(&self, user: &str) -> u64 {
        if user == self.owner_id {
            return u64::MAX;
        }
        let bits = self
            .members
            .get(user)
            .into_iter()
            .flat_map(|m| m.roles.iter())
            .chain(std::iter::once(&self.id))
            .filter_map(|id| self.role(id))
            .fold(0, |bits, role| bits | role.permissions);
        if bits & ADMINISTRATOR != 0 {
            u64::MAX
        } else {
            bits
        }
    }

    /// `user`'s permissions in `channel`, as permissions.mdx "Permission
    /// Overwrites" computes them: the guild-wide ones (all of them for the
    /// owner and administrators), then the channel's `@everyone`
    /// overwrite, the member's roles' overwrites (denies, then allows), and
    /// the member's own.
    pub(super) fn channel_permissions(&self, user: &str, channel: &str) -> u64 {
        let base = self.permissions(user);
        if base & ADMINISTRATOR != 0 || base == u64::MAX {
            return u64::MAX;
        }
        let Some(channel) = self.channels.iter().find(|c| c.id == channel) else {
            return base;
        };
        let overwrite = |id: &str, kind: u8| {
            channel
                .overwrites
                .iter()
                .find(|(o, k, ..)| o == id && *k == kind)
                .map(|(_, _, allow, deny)| (*allow, *deny))
        };
        let mut bits = base;
        if let Some((allow, deny)) = overwrite(&self.id, 0) {
            bits = (bits & !deny) | allow;
        }
        let roles = self
            .members
            .get(user)
            .map(|m| m.roles.clone())
            .unwrap_or_default();
        let (mut allow, mut deny) = (0, 0);
        for role in &roles {
            if let Some((a, d)) = overwrite(role, 0) {
                allow |= a;
                deny |= d;
            }
        }
        bits = (bits & !deny) | allow;
        if let Some((allow, deny)) = overwrite(user, 1) {
            bits = (bits & !deny) | allow;
        }
        bits
    }

    /// The bot must be a member with `permission`.
    pub(super) fn bot_needs(&self, permission: u64) -> Result<(), Reply> {
        if !self.members.contains_key(BOT) {
            return Err(error(403, "Missing Access", 50001));
        }
        if self.permissions(BOT) & permission == 0 {
            return Err(missing_permissions());
        }
        Ok(())
    }

    /// Whether the bot may act on member `target`: nobody acts on the owner;
    /// otherwise the bot's highest role must be above the target's.
    fn bot_outranks(&self, target: &str) -> bool {
        target != self.owner_id
            && (BOT == self.owner_id || self.highest(BOT) > self.highest(target))
    }

    fn modify_member(&mut self, user: &str, body: &Value) -> Reply {
        let Some(member) = self.members.get(user) else {
            return error(404, "Unknown Member", 10007);
        };
        let mut updated = member.clone();
        let fields = match body {
            Value::Null => serde_json::Map::new(),
            Value::Object(fields) => fields.clone(),
            _ => return invalid_form("_root", "the body must be a JSON object"),
        };
        if let Some(roles) = fields.get("roles") {
            match self.check_roles(user, roles) {
                Ok(roles) => updated.roles = roles,
                Err(reply) => return reply,
            }
        }
        if let Some(until) = fields.get("communication_disabled_until") {
            match self.check_timeout(user, until) {
                Ok(until) => updated.communication_disabled_until = until,
                Err(reply) => return reply,
            }
        }
        // Validated as a whole, applied as a whole: one PATCH is atomic.
        self.members.insert(user.to_owned(), updated.clone());
        Reply::json(200, member_json(user, &updated))
    }

    /// "Add Guild Member Role" (discord-docs/guild.mdx): `PUT
    /// /guilds/{guild.id}/members/{user.id}/roles/{role.id}`, "Requires the
    /// `MANAGE_ROLES` permission. Returns a 204 empty response on success";
    /// the member's other roles stay. Refused as a member list adding the
    /// role would be ([`Self::check_roles`]: unknown role, managed role,
    /// role at or above the bot's highest); an unknown member is `10007`.
    fn add_member_role(&mut self, user: &str, role: &str) -> Reply {
        let Some(member) = self.members.get(user) else {
            return error(404, "Unknown Member", 10007);
        };
        let mut roles = member.roles.clone();
        if !roles.iter().any(|r| r == role) {
            roles.push(role.to_owned());
        }
        match self.check_roles(user, &json!(roles)) {
            Ok(roles) => {
                if let Some(member) = self.members.get_mut(user) {
                    member.roles = roles;
                }
                Reply::empty(204)
            }
            Err(reply) => reply,
        }
    }

    /// The new role list, if the bot may give it: Manage Roles, every role
    /// known, and every role added or removed below the bot's highest.
    pub(super) fn check_roles(&self, user: &str, roles: &Value) -> Result<Vec<String>, Reply> {
        let Some(items) = roles.as_array() else {
            return Err(invalid_form("roles", "must be an array of role ids"));
        };
        let mut wanted: Vec<String> = Vec::new();
        for item in items {
            let Some(id) = item.as_str() else {
                return Err(invalid_form("roles", "must be an array of role ids"));
            };
            if id == self.id || self.role(id).is_none() {
                return Err(error(404, "Unknown Role", 10011));
            }
            if !wanted.iter().any(|w| w == id) {
                wanted.push(id.to_owned());
            }
        }
        self.bot_needs(MANAGE_ROLES)?;
        let current = &self.members[user].roles;
        let bot_highest = self.highest(BOT);
        let changed = wanted
            .iter()
            .filter(|r| !current.contains(r))
            .chain(current.iter().filter(|r| !wanted.contains(r)));
        for id in changed {
            // Only Discord gives and takes a role an integration manages
            // (the role object's `managed`, discord-docs/permissions.mdx
            // "Role Object"): a member list adding or removing one is
            // refused as a whole with `50028 Invalid role`
            // (opcodes-and-status-codes.mdx, "JSON Error Codes").
            if self.role(id).is_some_and(|r| r.managed) {
                return Err(error(400, "Invalid Role", 50028));
            }
            // permissions.mdx "Permission Hierarchy": a bot grants (and
            // takes) only roles below its own highest.
            let position = self.role(id).map_or(0, |r| r.position);
            if BOT != self.owner_id && position >= bot_highest {
                return Err(missing_permissions());
            }
        }
        Ok(wanted)
    }

    /// The new timeout, if the bot may set it: Moderate Members, outranking
    /// the member, who must not be an administrator.
    fn check_timeout(&self, user: &str, until: &Value) -> Result<Option<String>, Reply> {
        let until = match until {
            Value::Null => None,
            // guild.mdx, "Modify Guild Member": `communication_disabled_until`
            // is "up to 28 days in the future", on Discord's clock: here the
            // machine's real one (a test puts the daemon's clock ahead of it
            // by advancing the daemon's).
            Value::String(text)
                if text.parse::<modctl_types::Timestamp>().is_ok_and(|t| {
                    t.as_second() > jiff::Timestamp::now().as_second() + MAX_TIMEOUT_SECONDS
                }) =>
            {
                return Err(invalid_form(
                    "communication_disabled_until",
                    "Timeout cannot be longer than 28 days.",
                ));
            }
            Value::String(text) if text.parse::<modctl_types::Timestamp>().is_ok() => {
                Some(text.clone())
            }
            _ => {
                return Err(invalid_form(
                    "communication_disabled_until",
                    "Could not parse as an ISO8601 timestamp.",
                ));
            }
        };
        self.bot_needs(MODERATE_MEMBERS)?;
        if !self.bot_outranks(user) || self.permissions(user) & ADMINISTRATOR != 0 {
            return Err(missing_permissions());
        }
        Ok(until)
    }

    fn kick(&mut self, user: &str) -> Reply {
        if !self.members.contains_key(user) {
            return error(404, "Unknown Member", 10007);
        }
        if let Err(reply) = self.bot_needs(KICK_MEMBERS) {
            return reply;
        }
        if !self.bot_outranks(user) {
            return missing_permissions();
        }
        self.members.remove(user);
        Reply::empty(204)
    }

    fn ban_of(&self, user: &str) -> Reply {
        if let Err(reply) = self.bot_needs(BAN_MEMBERS) {
            return reply;
        }
        match self.bans.get(user) {
            Some(reason) => Reply::json(
                200,
                json!({
                    "reason": reason,
                    "user": { "id": user, "username": format!("user-{user}"), "discriminator": "0" },
                }),
            ),
            None => error(404, "Unknown Ban", 10026),
        }
    }

    fn ban(&mut self, user: &str, request: &Recorded) -> Reply {
        let seconds = match &request.body["delete_message_seconds"] {
            Value::Null => 0,
            value => value.as_i64().unwrap_or(-1),
        };
        if !(0..=MAX_DELETE_MESSAGE_SECONDS).contains(&seconds) {
            return invalid_form(
                "delete_message_seconds",
                "must be an integer from 0 to 604800",
            );
        }
        if let Err(reply) = self.bot_needs(BAN_MEMBERS) {
            return reply;
        }
        // A ban may name a user who is not a member, but not one who does
        // not exist: `404 Unknown User, 10013` (opcodes-and-status-codes.mdx,
        // "JSON Error Codes"; guild.mdx "Create Guild Ban" bans a user).
        if !self.users.contains(user) {
            return error(404, "Unknown User", 10013);
        }
        if user == self.owner_id || (self.members.contains_key(user) && !self.bot_outranks(user)) {
            return missing_permissions();
        }
        self.members.remove(user);
        self.bans.insert(user.to_owned(), audit_reason(request));
        Reply::empty(204)
    }

    fn unban(&mut self, user: &str) -> Reply {
        if let Err(reply) = self.bot_needs(BAN_MEMBERS) {
            return reply;
        }
        match self.bans.remove(user) {
            Some(_) => Reply::empty(204),
            None => error(404, "Unknown Ban", 10026),
        }
    }
}
