//! A fake Discord guild behind the REST API v10, as the daemon's adapter
//! calls it: `{api_base}/guilds/...` with `Authorization: Bot <token>`, so
//! paths here have no `/api/v10` prefix.
//!
//! The guild keeps roles (with positions and permissions), channels, members
//! (roles, timeout), bans (with the audit-log reason) and posted messages.
//! Writes are refused the way Discord refuses them: `403 Missing Permissions`
//! when the bot lacks the permission or does not outrank the member, `404`
//! with Discord's error codes for unknown members, bans, roles and channels,
//! `400 Invalid Role, 50028` for a member role list adding or removing a
//! managed role, `400 Invalid Form Body` for a timeout ending more than 28
//! days after the fake's (the machine's) clock.
//! Those rules are written here from Discord's documentation, not borrowed
//! from the daemon, so a disagreement between the daemon's own check and the
//! platform shows up in tests.
//!
//! A request without the user agent Discord documents (`DiscordBot ($url,
//! $versionNumber)`, discord-docs/reference.mdx "User Agent") is blocked
//! with a bare 403, as Discord's edge may block it, before anything else.
//!
//! Rate limits are enforced as Discord does (see [`limits`]): every answer
//! carries the `X-RateLimit-*` headers of its route bucket, a request beyond
//! a bucket or the global limit gets a 429 and changes nothing, and the fake
//! counts the 429s it sent ([`FakeDiscord::too_many_requests`]).
//!
//! Channels have types, categories, topics and permission overwrites, and
//! the guild the settings a structure snapshot reads; the structure is
//! served on Discord's routes (`GET /guilds/{id}`, `/roles`, `/channels`)
//! with the fields each channel type has. A restore's writes ([`writes`]):
//! roles created and placed under the hierarchy's rules, channels created
//! and edited only with Manage Channels and within Discord's limits,
//! overwrites put. Messages are posted only where the bot may view the
//! channel and send (its permissions there: the guild's, then the channel's
//! overwrites, as permissions.mdx computes them). A ban names a user Discord
//! knows (every member ever added, banned users, and [`FakeDiscord::add_user`]),
//! else `404 Unknown User, 10013`. What antinuke undoes ([`undo`]): webhooks
//! deleted, a member's role removed, a role's permissions edited. Not
//! modelled: deleting roles and channels through the API.
//!
//! Messages ([`messages`]): every post is kept with its whole body
//! (`content`, `embeds`, `allowed_mentions`), members' messages are seeded
//! by tests, deletions follow Discord's permission rules, DMs go through a
//! DM channel per user and may be refused (50007), and posting is limited
//! per channel ([`MESSAGE_LIMIT`] per [`MESSAGE_WINDOW`]). AutoMod rules
//! ([`automod`]) are kept and validated; `GET /applications/@me` answers
//! the application's flags ([`FakeDiscord::set_application_flags`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::server::{FakeServer, Reply, lock};

/// The bot token the fake accepts.
pub const TOKEN: &str = "fake.discord.token";
/// The bot's user id.
pub const BOT: &str = "500000000000000001";
/// The guild owner's user id.
pub const OWNER: &str = "500000000000000002";
/// The moderators' role (position 5, [`MOD_PERMISSIONS`]); the bot has it.
pub const MOD_ROLE: &str = "600000000000000001";
/// The members' role (position 1, no permissions).
pub const MEMBER_ROLE: &str = "600000000000000002";
/// The administrators' role (position 10, Administrator).
pub const ADMIN_ROLE: &str = "600000000000000003";
/// The jail role (position 2, no permissions).
pub const JAIL_ROLE: &str = "600000000000000004";
/// A text channel the guild starts with, `#mod-log`.
pub const MODLOG_CHANNEL: &str = "700000000000000001";

/// `ADMINISTRATOR`.
pub const ADMINISTRATOR: u64 = 1 << 3;
/// `KICK_MEMBERS`.
pub const KICK_MEMBERS: u64 = 1 << 1;
/// `BAN_MEMBERS`.
pub const BAN_MEMBERS: u64 = 1 << 2;
/// `MANAGE_ROLES`.
pub const MANAGE_ROLES: u64 = 1 << 28;
/// `MODERATE_MEMBERS`.
pub const MODERATE_MEMBERS: u64 = 1 << 40;
/// `MANAGE_CHANNELS`.
pub const MANAGE_CHANNELS: u64 = 1 << 4;
/// `VIEW_CHANNEL`.
pub const VIEW_CHANNEL: u64 = 1 << 10;
/// `SEND_MESSAGES`.
pub const SEND_MESSAGES: u64 = 1 << 11;
/// `MANAGE_GUILD` (every AutoMod route needs it).
pub const MANAGE_GUILD: u64 = 1 << 5;
/// `MANAGE_MESSAGES` (deleting others' messages needs it).
pub const MANAGE_MESSAGES: u64 = 1 << 13;
/// `VIEW_AUDIT_LOG` (one of the two that list a guild's invites).
pub const VIEW_AUDIT_LOG: u64 = 1 << 7;

/// Application flags (`GET /applications/@me` `flags`; Discord's
/// application resource, "Application Flags", as twilight-model's
/// `ApplicationFlags` has them): the privileged intents granted.
pub const GATEWAY_PRESENCE: u64 = 1 << 12;
/// See [`GATEWAY_PRESENCE`].
pub const GATEWAY_PRESENCE_LIMITED: u64 = 1 << 13;
/// See [`GATEWAY_PRESENCE`].
pub const GATEWAY_GUILD_MEMBERS: u64 = 1 << 14;
/// See [`GATEWAY_PRESENCE`].
pub const GATEWAY_GUILD_MEMBERS_LIMITED: u64 = 1 << 15;
/// The message-content intent, granted to a verified app.
pub const GATEWAY_MESSAGE_CONTENT: u64 = 1 << 18;
/// The message-content intent, granted to an app in fewer than 100 guilds
/// (enabled in the developer portal).
pub const GATEWAY_MESSAGE_CONTENT_LIMITED: u64 = 1 << 19;
/// The flags the fake application starts with: the Server Members intent
/// (which the daemon asks for) and not the message-content one.
pub const DEFAULT_APPLICATION_FLAGS: u64 = GATEWAY_GUILD_MEMBERS_LIMITED;

/// Messages per channel per [`MESSAGE_WINDOW`]. rate-limits.mdx gives no
/// figure for `POST /channels/{id}/messages` (limits are "per route" and
/// discovered from the headers); 5 per 5 s per channel is the figure
/// observed and widely reported for bots, so the fake enforces it, with
/// the usual headers and 429 (see [`limits`]).
pub const MESSAGE_LIMIT: u32 = 5;
/// See [`MESSAGE_LIMIT`].
pub const MESSAGE_WINDOW: Duration = Duration::from_secs(5);
/// What the moderators' role (and so the seeded bot) holds: KICK_MEMBERS |
/// BAN_MEMBERS | MANAGE_ROLES | MODERATE_MEMBERS | MANAGE_CHANNELS |
/// VIEW_CHANNEL | SEND_MESSAGES | MANAGE_GUILD | MANAGE_MESSAGES, every
/// permission a feature of the daemon needs.
pub const MOD_PERMISSIONS: u64 = KICK_MEMBERS
    | MANAGE_GUILD
    | MANAGE_MESSAGES
    | BAN_MEMBERS
    | MANAGE_ROLES
    | MODERATE_MEMBERS
    | MANAGE_CHANNELS
    | VIEW_CHANNEL
    | SEND_MESSAGES;

/// A user agent of the form Discord documents, for tests that call the fake
/// themselves.
pub const TEST_USER_AGENT: &str = "DiscordBot (https://example.invalid/modctl-tests, 1.0)";

/// Ids the fake gives to roles, channels and messages it creates.
const FIRST_CREATED_ID: u64 = 800_000_000_000_000_001;

/// A fake Discord guild; stopped when dropped.
#[derive(Debug)]
pub struct FakeDiscord {
    server: FakeServer,
    guild: Arc<Mutex<Guild>>,
    limits: Arc<Mutex<RateLimits>>,
}

super::server_methods!(FakeDiscord);

pub mod automod;
pub mod gateway;
mod guild;
mod incidents;
pub mod interactions;
mod limits;
pub mod messages;
mod undo;
mod writes;

use guild::{Channel, Guild, GuildMember, GuildRole, Settings, answer};
use limits::RateLimits;
pub use limits::{GLOBAL_LIMIT, GLOBAL_WINDOW, TooManyRequests};
pub use messages::Message;
pub use undo::MANAGE_WEBHOOKS;
pub use writes::{MAX_CHANNELS, MAX_ROLES};

impl FakeDiscord {
    /// A guild `guild_id` with the `@everyone` role (id = guild id, position
    /// 0) and the moderator, member, admin and jail roles; the owner and the
    /// bot (with [`MOD_ROLE`]) are members; one channel, [`MODLOG_CHANNEL`].
    pub fn start(guild_id: &str) -> FakeDiscord {
        let role = |id: &str, name: &str, position: i64, permissions: u64| GuildRole {
            id: id.to_owned(),
            name: name.to_owned(),
            position,
            permissions,
            ..GuildRole::default()
        };
        let guild = Guild {
            id: guild_id.to_owned(),
            name: "Fake Guild".to_owned(),
            owner_id: OWNER.to_owned(),
            settings: Settings::default(),
            roles: vec![
                role(guild_id, "@everyone", 0, 0),
                role(MOD_ROLE, "Moderators", 5, MOD_PERMISSIONS),
                role(MEMBER_ROLE, "Members", 1, 0),
                role(ADMIN_ROLE, "Admins", 10, ADMINISTRATOR),
                role(JAIL_ROLE, "Jail", 2, 0),
            ],
            channels: vec![Channel {
                id: MODLOG_CHANNEL.to_owned(),
                name: "mod-log".to_owned(),
                ..Channel::default()
            }],
            members: BTreeMap::from([
                (OWNER.to_owned(), GuildMember::default()),
                (
                    BOT.to_owned(),
                    GuildMember {
                        roles: vec![MOD_ROLE.to_owned()],
                        ..GuildMember::default()
                    },
                ),
            ]),
            bans: BTreeMap::new(),
            users: [OWNER, BOT].iter().map(|u| (*u).to_owned()).collect(),
            messages: HashMap::new(),
            dm_channels: BTreeMap::new(),
            unreachable: std::collections::BTreeSet::new(),
            automod_rules: BTreeMap::new(),
            application_flags: DEFAULT_APPLICATION_FLAGS,
            next_id: FIRST_CREATED_ID,
            gateway_url: None,
            vanity_url_code: None,
            invites: Vec::new(),
            incidents: Default::default(),
            interactions: BTreeMap::new(),
            webhooks: Default::default(),
        };
        let guild = Arc::new(Mutex::new(guild));
        let mut limits = RateLimits::default();
        limits.add_rule(
            "POST",
            "/channels/{channel}/messages",
            MESSAGE_LIMIT,
            MESSAGE_WINDOW,
        );
        let limits = Arc::new(Mutex::new(limits));
        let server = FakeServer::start(Box::new({
            let (guild, limits) = (guild.clone(), limits.clone());
            move |request| {
                // Discord's edge blocks clients without the documented user
                // agent before the API sees them.
                if !guild::valid_user_agent(request.header("user-agent")) {
                    return guild::blocked_user_agent();
                }
                // A body-less write without `Content-Length` is refused at
                // the edge: RFC 9110 §8.6 ("a user agent SHOULD send
                // Content-Length in a request when the method defines a
                // meaning for enclosed content"), and Discord answers such a
                // PUT 411 Length Required (serenity-rs/serenity#483).
                if guild::length_required(request) {
                    return Reply::empty(411);
                }
                // A wrong token is refused before any limit counts it.
                if request.header("authorization") != Some(&format!("Bot {TOKEN}")) {
                    return answer(&mut lock(&guild), request);
                }
                let admitted = lock(&limits).admit(request, Instant::now());
                match admitted {
                    Ok(headers) => {
                        let mut reply = answer(&mut lock(&guild), request);
                        reply.headers.extend(headers);
                        reply
                    }
                    Err(refused) => refused,
                }
            }
        }));
        FakeDiscord {
            server,
            guild,
            limits,
        }
    }

    /// Requests matching `method` and `template` share one bucket (per major
    /// parameter) of `limit` requests per `window`; segments in braces match
    /// any segment, e.g. `("PUT", "/guilds/{guild}/bans/{user}", 5, 500ms)`.
    /// Routes no rule names have a bucket of their own, 1000 per second.
    pub fn limit_route(&self, method: &str, template: &str, limit: u32, window: Duration) {
        lock(&self.limits).add_rule(method, template, limit, window);
    }

    /// At most `limit` requests in any `window` (default [`GLOBAL_LIMIT`]
    /// per [`GLOBAL_WINDOW`]), whatever the route.
    pub fn set_global_limit(&self, limit: usize, window: Duration) {
        lock(&self.limits).set_global(limit, window);
    }

    /// The next request to `method` `path` is answered `429` with
    /// `retry_after` (a global one when `global`), and does not count.
    pub fn inject_429(&self, method: &str, path: &str, retry_after: Duration, global: bool) {
        lock(&self.limits).inject(method, path, retry_after, global, false);
    }

    /// The next request to `method` `path` is answered `429` with only a
    /// `Retry-After` header (whole seconds, at least 1) and no body: a 429
    /// from outside Discord's buckets, as a proxy in front of the API sends.
    pub fn inject_unbucketed_429(&self, method: &str, path: &str, retry_after: Duration) {
        lock(&self.limits).inject(method, path, retry_after, false, true);
    }

    /// Every request to `path` (any method) for the next `retry_after` is
    /// answered `429` with `X-RateLimit-Scope: shared`: the resource is
    /// limited, its bucket is not (see [`limits`]).
    pub fn limit_resource(&self, path: &str, retry_after: Duration) {
        lock(&self.limits).limit_resource(path, Instant::now() + retry_after);
    }

    /// The 429s sent so far, by cause.
    pub fn too_many_requests(&self) -> TooManyRequests {
        lock(&self.limits).refused
    }

    fn guild(&self) -> std::sync::MutexGuard<'_, Guild> {
        lock(&self.guild)
    }

    /// `GET /gateway/bot` answers `url` (a [`gateway::FakeGateway`]'s), as
    /// the real API answers Discord's gateway.
    pub fn set_gateway_url(&self, url: &str) {
        self.guild().gateway_url = Some(url.to_owned());
    }

    /// The guild's id.
    pub fn guild_id(&self) -> String {
        self.guild().id.clone()
    }

    /// Makes `user` a member with exactly `roles` (a member already there
    /// keeps their timeout).
    pub fn add_member(&self, user: &str, roles: &[&str]) {
        let roles = roles.iter().map(|r| (*r).to_owned()).collect();
        let mut guild = self.guild();
        guild.users.insert(user.to_owned());
        guild.members.entry(user.to_owned()).or_default().roles = roles;
    }

    /// Sets member `user`'s `nick` ("Get Guild Member" answers it; the
    /// user's `username` is `user-<id>`).
    pub fn set_nick(&self, user: &str, nick: &str) {
        if let Some(member) = self.guild().members.get_mut(user) {
            member.nick = Some(nick.to_owned());
        }
    }

    /// Makes `user` a Discord user the guild has never seen (not a member):
    /// one a ban may name.
    pub fn add_user(&self, user: &str) {
        self.guild().users.insert(user.to_owned());
    }

    /// Removes `user` from the guild (as if they left).
    pub fn remove_member(&self, user: &str) {
        self.guild().members.remove(user);
    }

    /// Whether `user` is a member.
    pub fn is_member(&self, user: &str) -> bool {
        self.guild().members.contains_key(user)
    }

    /// The roles of member `user`; `None` when not a member.
    pub fn roles_of(&self, user: &str) -> Option<Vec<String>> {
        self.guild().members.get(user).map(|m| m.roles.clone())
    }

    /// The member's `communication_disabled_until`, as last set.
    pub fn timed_out_until(&self, user: &str) -> Option<String> {
        self.guild()
            .members
            .get(user)
            .and_then(|m| m.communication_disabled_until.clone())
    }

    /// Whether `user` is banned.
    pub fn is_banned(&self, user: &str) -> bool {
        self.guild().bans.contains_key(user)
    }

    /// The (decoded) audit-log reason of `user`'s ban, if banned with one.
    pub fn ban_reason(&self, user: &str) -> Option<String> {
        self.guild().bans.get(user).cloned().flatten()
    }

    /// Bans `user` without a reason, as if done before the test (removes
    /// them from the members).
    pub fn ban_seed(&self, user: &str) {
        let mut guild = self.guild();
        guild.members.remove(user);
        guild.users.insert(user.to_owned());
        guild.bans.insert(user.to_owned(), None);
    }

    /// Adds a role (or replaces the one with this id).
    pub fn add_role(&self, id: &str, position: i64, permissions: u64) {
        let mut guild = self.guild();
        guild.roles.retain(|r| r.id != id);
        guild.roles.push(GuildRole {
            id: id.to_owned(),
            name: format!("role-{id}"),
            position,
            permissions,
            ..GuildRole::default()
        });
    }

    /// Adds a text channel (or renames the one with this id).
    pub fn add_channel(&self, id: &str, name: &str) {
        let mut guild = self.guild();
        guild.channels.retain(|c| c.id != id);
        let position = guild.channels.len() as i64;
        guild.channels.push(Channel {
            id: id.to_owned(),
            name: name.to_owned(),
            position,
            ..Channel::default()
        });
    }

    /// Adds a channel of Discord type `kind` (0 text, 2 voice, 4 category,
    /// 5 announcement) in category `parent` at `position`, with `topic`.
    pub fn add_typed_channel(
        &self,
        id: &str,
        kind: u64,
        name: &str,
        parent: Option<&str>,
        position: i64,
        topic: Option<&str>,
    ) {
        let mut guild = self.guild();
        guild.channels.retain(|c| c.id != id);
        guild.channels.push(Channel {
            id: id.to_owned(),
            name: name.to_owned(),
            kind,
            topic: topic.map(str::to_owned),
            parent_id: parent.map(str::to_owned),
            position,
            ..Channel::default()
        });
    }

    /// Sets a channel's age restriction and slow mode.
    pub fn set_channel_flags(&self, channel: &str, nsfw: bool, rate_limit_per_user: u32) {
        if let Some(c) = self.guild().channels.iter_mut().find(|c| c.id == channel) {
            c.nsfw = nsfw;
            c.rate_limit_per_user = rate_limit_per_user;
        }
    }

    /// Adds a permission overwrite to `channel` for a role (`member` false)
    /// or a member.
    pub fn add_overwrite(&self, channel: &str, id: &str, member: bool, allow: u64, deny: u64) {
        if let Some(c) = self.guild().channels.iter_mut().find(|c| c.id == channel) {
            c.overwrites.retain(|(o, ..)| o != id);
            c.overwrites
                .push((id.to_owned(), u8::from(member), allow, deny));
        }
    }

    /// Gives a role a name, colour, hoist and mentionability.
    pub fn style_role(&self, id: &str, name: &str, colour: u32, hoist: bool, mentionable: bool) {
        if let Some(r) = self.guild().roles.iter_mut().find(|r| r.id == id) {
            r.name = name.to_owned();
            r.colour = colour;
            r.hoist = hoist;
            r.mentionable = mentionable;
        }
    }

    /// Gives a role a unicode emoji, and says whether an integration manages it.
    pub fn mark_role(&self, id: &str, unicode_emoji: Option<&str>, managed: bool) {
        if let Some(r) = self.guild().roles.iter_mut().find(|r| r.id == id) {
            r.unicode_emoji = unicode_emoji.map(str::to_owned);
            r.managed = managed;
        }
    }

    /// Sets the guild settings a snapshot reads.
    pub fn set_settings(
        &self,
        verification_level: u8,
        default_message_notifications: u8,
        explicit_content_filter: u8,
        system_channel_id: Option<&str>,
        rules_channel_id: Option<&str>,
    ) {
        self.guild().settings = Settings {
            verification_level,
            default_message_notifications,
            explicit_content_filter,
            system_channel_id: system_channel_id.map(str::to_owned),
            rules_channel_id: rules_channel_id.map(str::to_owned),
        };
    }

    /// Makes `user` the guild's owner (an ownership transfer).
    pub fn set_owner(&self, user: &str) {
        self.guild().owner_id = user.to_owned();
    }

    /// Adds a webhook, as a member creating one would.
    pub fn add_webhook(&self, id: &str) {
        self.guild().webhooks.insert(id.to_owned());
    }

    /// Whether webhook `id` exists.
    pub fn has_webhook(&self, id: &str) -> bool {
        self.guild().webhooks.contains(id)
    }

    /// The guild's role objects, as `GET /guilds/{id}/roles` answers them
    /// (for a `GUILD_UPDATE` or `GUILD_ROLE_UPDATE` a test dispatches).
    pub fn role_objects(&self) -> Vec<serde_json::Value> {
        self.guild().roles_json()
    }

    /// Deletes a role (members lose it), as a nuke would.
    pub fn delete_role(&self, id: &str) {
        let mut guild = self.guild();
        guild.roles.retain(|r| r.id != id);
        for member in guild.members.values_mut() {
            member.roles.retain(|r| r != id);
        }
    }

    /// Deletes a channel, as a nuke would.
    pub fn delete_channel(&self, id: &str) {
        self.guild().channels.retain(|c| c.id != id);
    }

    /// How many roles the guild has, `@everyone` included.
    pub fn role_count(&self) -> usize {
        self.guild().roles.len()
    }

    /// How many channels the guild has, categories included.
    pub fn channel_count(&self) -> usize {
        self.guild().channels.len()
    }

    /// The ids of the roles named `name`, in the guild's order.
    pub fn roles_named(&self, name: &str) -> Vec<String> {
        let guild = self.guild();
        guild
            .roles
            .iter()
            .filter(|r| r.name == name)
            .map(|r| r.id.clone())
            .collect()
    }

    /// A role's position and permissions, if it exists.
    pub fn role_of(&self, id: &str) -> Option<(i64, u64)> {
        let guild = self.guild();
        guild
            .roles
            .iter()
            .find(|r| r.id == id)
            .map(|r| (r.position, r.permissions))
    }

    /// The ids of the channels named `name`, in the guild's order.
    pub fn channels_named(&self, name: &str) -> Vec<String> {
        let guild = self.guild();
        guild
            .channels
            .iter()
            .filter(|c| c.name == name)
            .map(|c| c.id.clone())
            .collect()
    }

    /// A channel's parent category and topic, if it exists.
    pub fn channel_of(&self, id: &str) -> Option<(Option<String>, Option<String>)> {
        let guild = self.guild();
        guild
            .channels
            .iter()
            .find(|c| c.id == id)
            .map(|c| (c.parent_id.clone(), c.topic.clone()))
    }

    /// A channel's permission overwrites: `(id, is_member, allow, deny)`.
    pub fn overwrites_of(&self, channel: &str) -> Vec<(String, bool, u64, u64)> {
        let guild = self.guild();
        guild
            .channels
            .iter()
            .find(|c| c.id == channel)
            .map(|c| {
                c.overwrites
                    .iter()
                    .map(|(id, kind, allow, deny)| (id.clone(), *kind == 1, *allow, *deny))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Sets the permissions of a role (e.g. `@everyone`'s, whose id is the
    /// guild's).
    pub fn set_role_permissions(&self, id: &str, permissions: u64) {
        if let Some(r) = self.guild().roles.iter_mut().find(|r| r.id == id) {
            r.permissions = permissions;
        }
    }

    /// The contents of the messages the bot posted to `channel`, oldest
    /// first (deleted ones included).
    pub fn messages(&self, channel: &str) -> Vec<String> {
        self.posted(channel)
            .into_iter()
            .map(|m| m.content)
            .collect()
    }

    /// The messages the bot posted to `channel`, oldest first, each with
    /// the whole body it sent.
    pub fn posted(&self, channel: &str) -> Vec<Message> {
        self.all_messages(channel)
            .into_iter()
            .filter(|m| m.author == BOT)
            .collect()
    }

    /// Every message of `channel` (the bot's and seeded ones), oldest
    /// first, deleted ones included.
    pub fn all_messages(&self, channel: &str) -> Vec<Message> {
        self.guild()
            .messages
            .get(channel)
            .cloned()
            .unwrap_or_default()
    }

    /// Seeds a message by `author` in `channel` (as a member posting it);
    /// its id, for a `MESSAGE_CREATE` the test dispatches and for the
    /// daemon to delete.
    pub fn seed_message(&self, channel: &str, author: &str, content: &str) -> String {
        self.guild().seed_message(channel, author, content)
    }

    /// Whether message `id` of `channel` was deleted.
    pub fn is_deleted(&self, channel: &str, id: &str) -> bool {
        self.all_messages(channel)
            .iter()
            .any(|m| m.id == id && m.deleted)
    }

    /// The ids of the messages of `channel` deleted so far.
    pub fn deleted(&self, channel: &str) -> Vec<String> {
        self.all_messages(channel)
            .into_iter()
            .filter(|m| m.deleted)
            .map(|m| m.id)
            .collect()
    }

    /// The DMs the bot sent `user`, oldest first.
    pub fn dms(&self, user: &str) -> Vec<Message> {
        let channel = self
            .guild()
            .dm_channels
            .iter()
            .find(|(_, u)| *u == user)
            .map(|(c, _)| c.clone());
        channel.map(|c| self.posted(&c)).unwrap_or_default()
    }

    /// `user` accepts no DM from the bot (DMs closed, or the bot blocked):
    /// posting to their DM channel answers `403 Cannot send messages to
    /// this user, 50007`, as Discord does.
    pub fn block_dms(&self, user: &str) {
        self.guild().unreachable.insert(user.to_owned());
    }

    /// Sets the application's `flags` (`GET /applications/@me`), e.g.
    /// [`DEFAULT_APPLICATION_FLAGS`] `|` [`GATEWAY_MESSAGE_CONTENT`]. The
    /// fake gateway has its own copy ([`gateway::FakeGateway::set_application_flags`]).
    pub fn set_application_flags(&self, flags: u64) {
        self.guild().application_flags = flags;
    }

    /// The guild's vanity invite code (`vanity_url_code` of the guild
    /// object, discord-docs/guild.mdx; `null` without one).
    pub fn set_vanity_url_code(&self, code: Option<&str>) {
        self.guild().vanity_url_code = code.map(str::to_owned);
    }

    /// Adds an invite `code` to the guild's ("Get Guild Invites" lists it).
    pub fn add_invite(&self, code: &str) {
        self.guild().invites.push(code.to_owned());
    }

    /// Issues a press by `user` of the button `custom_id` on `message` in
    /// `channel`: the `INTERACTION_CREATE` payload to dispatch over the
    /// fake gateway ([`interactions`]).
    pub fn press(
        &self,
        user: &str,
        channel: &str,
        message: &str,
        custom_id: &str,
    ) -> serde_json::Value {
        lock(&self.guild).press(user, channel, message, custom_id)
    }

    /// Issues `user`'s submission of the modal the bot answered
    /// interaction `shown` with, its text inputs holding `values`: the
    /// `INTERACTION_CREATE` payload to dispatch ([`interactions`]); `None`
    /// when that answer was no modal.
    pub fn submit_modal(
        &self,
        user: &str,
        channel: &str,
        shown: &str,
        values: &[(&str, &str)],
    ) -> Option<serde_json::Value> {
        lock(&self.guild).submit_modal(user, channel, shown, values)
    }

    /// Deletes message `id` of `channel` as a moderator would by hand.
    pub fn remove_message(&self, channel: &str, id: &str) {
        let mut guild = lock(&self.guild);
        if let Some(m) = guild
            .messages
            .get_mut(channel)
            .and_then(|all| all.iter_mut().find(|m| m.id == id))
        {
            m.deleted = true;
        }
    }

    /// The responses the bot sent to interactions, by interaction id.
    pub fn interaction_responses(&self) -> BTreeMap<String, serde_json::Value> {
        lock(&self.guild)
            .interactions
            .iter()
            .filter_map(|(id, i)| i.response.clone().map(|r| (id.clone(), r)))
            .collect()
    }

    /// The guild's AutoMod rules, in id order, as `GET` answers them.
    pub fn automod_rules(&self) -> Vec<serde_json::Value> {
        self.guild().automod_rules.values().cloned().collect()
    }

    /// Adds an AutoMod rule as if `creator` made it by hand in Discord
    /// (`fields` as for "Create Auto Moderation Rule", validated the same
    /// way, the limits included); its id.
    pub fn seed_rule(&self, creator: &str, fields: serde_json::Value) -> Result<String, Reply> {
        let rule = self.guild().insert_rule(creator, &fields)?;
        Ok(rule["id"].as_str().unwrap_or_default().to_owned())
    }

    /// Changes AutoMod rule `id` as if by hand in Discord (drift the daemon
    /// should see): `fields` as for "Modify Auto Moderation Rule", validated
    /// the same way; the creator stays.
    pub fn edit_rule(&self, id: &str, fields: serde_json::Value) -> Result<(), Reply> {
        self.guild().update_rule(id, &fields).map(drop)
    }

    /// Deletes an AutoMod rule as if by hand (drift the daemon should see).
    pub fn remove_rule(&self, id: &str) {
        self.guild().automod_rules.remove(id);
    }
}
