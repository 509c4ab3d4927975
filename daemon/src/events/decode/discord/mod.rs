//! Discord gateway dispatches (`{"op": 0, "t": NAME, "s": ..., "d": ...}`)
//! into [`Event`]s.
//!
//! The payloads are read with twilight-model's types: its ids
//! (`Id<MessageMarker>`, ...; an id that is not a snowflake is an error),
//! [`MessageType`], [`Attachment`], [`Mention`], and its whole event structs
//! where their every required field is one Discord always sends and the
//! daemon uses ([`MessageDelete`], [`MessageDeleteBulk`],
//! [`AutoModerationActionExecution`]). Messages, members and voice states
//! are read into the structs below, of twilight-model's field types: the
//! whole `twilight_model::channel::Message` or `guild::Member` would refuse a
//! message for a field the daemon never reads (a user's `discriminator`, a
//! member's `flags`), and lose it for the counts.
//!
//! What is left out, on purpose: messages outside a guild (DMs), system
//! messages (joins, pins, boosts, application commands: only `DEFAULT` and
//! `REPLY` are a member's words), a `MESSAGE_UPDATE` without
//! `edited_timestamp` (Discord's own update of a message: embeds unfurled,
//! a pin, its flags; not the member's edit), and bots' voice states. Webhook messages
//! are kept, with their author marked as a bot.

use modctl_types::{Platform, Timestamp};
use serde::Deserialize;
use serde_json::Value;
use twilight_model::channel::Attachment as DiscordAttachment;
use twilight_model::channel::message::{Mention, MessageType};
use twilight_model::gateway::payload::incoming::{
    AutoModerationActionExecution, MessageDelete, MessageDeleteBulk,
};
use twilight_model::guild::Permissions;
use twilight_model::guild::audit_log::{AuditLogChange, AuditLogEventType};
use twilight_model::id::Id;
use twilight_model::id::marker::{
    ChannelMarker, GuildMarker, MessageMarker, RoleMarker, UserMarker, WebhookMarker,
};

use crate::events::{
    Attachment, AuditAction, AuditEntry, Author, AutoModAction, ButtonPress, Event, EventKind,
    FormSubmit, GuildState, MemberRef, MemberUpdate, Membership, Mentions, Message, NameKind,
    NameSeen, PressReply, VoiceState, non_empty,
};
use crate::platform::discord::guilds::role_from_json;
use crate::platform::structure::{nullable, payload};
use crate::platform::{PlatformError, PlatformResult};

mod audit;
mod interactions;
#[cfg(test)]
mod tests;

use audit::AuditLogEntryPayload;
use interactions::{InteractionPayload, interaction_events};

/// A gateway dispatch: its name, sequence number and data.
#[derive(Debug, Clone, PartialEq)]
pub struct Dispatch {
    /// `t`.
    pub name: String,
    /// `s`: the dispatch's place in its session, which a RESUME replays it
    /// with ("Resuming" in the gateway docs).
    pub seq: Option<u64>,
    /// `d`.
    pub data: Value,
}

/// Where a dispatch was received: what the transport knows of it, handed
/// to [`decode_delivered`]. A dispatch is one event wherever it arrives:
/// the same session and `s` when a resumed session replays it, a new
/// session (which replays nothing) for everything after an IDENTIFY.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery<'a> {
    /// The gateway session's id (READY's `session_id`).
    pub session_id: &'a str,
    /// The dispatch's `s`.
    pub seq: u64,
}

/// The JSON of a gateway message: its dispatch, or `None` for a message
/// that is not a dispatch (hello, heartbeat ACK, reconnect).
pub fn dispatch_of(json: &str) -> PlatformResult<Option<Dispatch>> {
    #[derive(Deserialize)]
    struct Envelope {
        op: u8,
        #[serde(default)]
        t: Option<String>,
        #[serde(default)]
        s: Option<u64>,
        #[serde(default)]
        d: Value,
    }
    let envelope: Envelope = serde_json::from_str(json)
        .map_err(|e| PlatformError::Invalid(format!("unreadable gateway message: {e}")))?;
    Ok(match (envelope.op, envelope.t) {
        (0, Some(name)) => Some(Dispatch {
            name,
            seq: envelope.s,
            data: envelope.d,
        }),
        _ => None,
    })
}

/// A user as messages and members carry it.
#[derive(Debug, Deserialize)]
struct User {
    id: Id<UserMarker>,
    /// Discord leaves it out for humans.
    #[serde(default)]
    bot: bool,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    global_name: Option<String>,
}

/// The `member` of a `MESSAGE_CREATE` (a partial guild member).
#[derive(Debug, Default, Deserialize)]
struct PartialMember {
    #[serde(default)]
    roles: Vec<Id<RoleMarker>>,
    #[serde(default)]
    nick: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Reference {
    #[serde(default)]
    message_id: Option<Id<MessageMarker>>,
}

/// `MESSAGE_CREATE` and `MESSAGE_UPDATE` (a whole message object since API
/// v10, "Message Update" in the gateway events reference): `guild_id` is
/// absent in DMs. The lists Discord always sends default to empty, so a
/// message counts even when they are left out.
#[derive(Debug, Deserialize)]
struct MessagePayload {
    id: Id<MessageMarker>,
    channel_id: Id<ChannelMarker>,
    #[serde(default)]
    guild_id: Option<Id<GuildMarker>>,
    author: User,
    #[serde(rename = "type")]
    kind: MessageType,
    #[serde(default)]
    webhook_id: Option<Id<WebhookMarker>>,
    #[serde(default)]
    content: String,
    #[serde(default)]
    member: Option<PartialMember>,
    #[serde(default)]
    mentions: Vec<Mention>,
    #[serde(default)]
    mention_roles: Vec<Id<RoleMarker>>,
    #[serde(default)]
    mention_everyone: bool,
    #[serde(default)]
    attachments: Vec<DiscordAttachment>,
    #[serde(default)]
    message_reference: Option<Reference>,
    /// When it was last edited (`null` until then).
    #[serde(default)]
    edited_timestamp: Option<String>,
}

/// `GUILD_MEMBER_ADD`, `GUILD_MEMBER_UPDATE` and `GUILD_MEMBER_REMOVE`
/// (the fields of twilight-model's `MemberUpdate` the daemon reads).
/// `roles` and `pending` are not in a removal; "In `GUILD_` events,
/// `pending` will always be included as true or false"
/// (discord-docs/guild.mdx, "Guild Member Object").
#[derive(Debug, Deserialize)]
struct GuildMember {
    guild_id: Id<GuildMarker>,
    user: User,
    #[serde(default)]
    nick: Option<String>,
    #[serde(default)]
    roles: Vec<Id<RoleMarker>>,
    #[serde(default)]
    pending: bool,
}

#[derive(Debug, Deserialize)]
struct VoiceMember {
    user: User,
}

/// `VOICE_STATE_UPDATE`, and the voice states of `GUILD_CREATE` (which
/// leave out `guild_id`). `channel_id` is required, `null` when the member
/// left voice: a missing one must not read as a leave.
#[derive(Debug, Deserialize)]
struct VoiceStatePayload {
    #[serde(default)]
    guild_id: Option<Id<GuildMarker>>,
    #[serde(deserialize_with = "nullable")]
    channel_id: Option<Id<ChannelMarker>>,
    user_id: Id<UserMarker>,
    #[serde(default)]
    member: Option<VoiceMember>,
}

impl VoiceStatePayload {
    fn is_bot(&self) -> bool {
        self.member.as_ref().is_some_and(|m| m.user.bot)
    }

    fn state(self) -> VoiceState {
        VoiceState {
            user_id: self.user_id.to_string(),
            channel_id: self.channel_id.map(|c| c.to_string()),
        }
    }
}

/// `GUILD_CREATE`; an unavailable guild has only `id` and `unavailable`.
#[derive(Debug, Deserialize)]
struct GuildCreate {
    id: Id<GuildMarker>,
    #[serde(default)]
    unavailable: bool,
    #[serde(default)]
    voice_states: Option<Vec<VoiceStatePayload>>,
    #[serde(default)]
    owner_id: Option<Id<UserMarker>>,
    #[serde(default)]
    roles: Option<Vec<Value>>,
    /// Its channels (guild channel objects), for their names.
    #[serde(default)]
    channels: Vec<Value>,
    /// Some of its members (guild member objects; all of them only in small
    /// guilds), for their names.
    #[serde(default)]
    members: Vec<Value>,
}

/// The name a guild member object shows: its nick, else the user's global
/// name, else the username (discord-docs/guild.mdx, "Guild Member Object";
/// user.mdx, "User Object"), as the message and member dispatches read it.
fn member_name(member: &Value) -> Option<&str> {
    let user = &member["user"];
    [&member["nick"], &user["global_name"], &user["username"]]
        .into_iter()
        .find_map(|v| v.as_str().filter(|s| !s.is_empty()))
}

/// The names `GUILD_CREATE` carries: its channels', roles' and members'
/// (issue #27's names beside ids); entries without an id or name are left
/// out.
fn names_seen(channels: &[Value], roles: &[Value], members: &[Value]) -> Vec<NameSeen> {
    let named = |kind: NameKind, id: &Value, name: Option<&str>| {
        Some(NameSeen {
            kind,
            id: id.as_str()?.to_owned(),
            name: name?.to_owned(),
        })
    };
    let channels = channels
        .iter()
        .filter_map(|c| named(NameKind::Channel, &c["id"], c["name"].as_str()));
    let roles = roles
        .iter()
        .filter_map(|r| named(NameKind::Role, &r["id"], r["name"].as_str()));
    let members = members
        .iter()
        .filter_map(|m| named(NameKind::User, &m["user"]["id"], member_name(m)));
    channels.chain(roles).chain(members).collect()
}

/// A guild object's owner and roles (discord-docs/guild.mdx, "Guild
/// Object"), for the role hierarchy kept between reads
/// (`crate::platform::discord::guilds`).
fn guild_state(
    owner_id: Option<Id<UserMarker>>,
    roles: Option<Vec<Value>>,
    session_start: bool,
) -> GuildState {
    let whole = match (owner_id, roles) {
        (Some(owner), Some(roles)) => Some((
            owner.to_string(),
            roles.iter().map(role_from_json).collect(),
        )),
        _ => None,
    };
    GuildState {
        session_start,
        whole,
    }
}

/// `GUILD_UPDATE`: a guild object.
#[derive(Debug, Deserialize)]
struct GuildUpdate {
    id: Id<GuildMarker>,
    #[serde(default)]
    owner_id: Option<Id<UserMarker>>,
    #[serde(default)]
    roles: Option<Vec<Value>>,
}

/// `GUILD_ROLE_CREATE`, `GUILD_ROLE_UPDATE`: `guild_id` and a role object;
/// `GUILD_ROLE_DELETE`: `guild_id` and `role_id` (gateway-events.mdx).
#[derive(Debug, Deserialize)]
struct GuildRoleEvent {
    guild_id: Id<GuildMarker>,
    #[serde(default)]
    role: Option<Value>,
    #[serde(default)]
    role_id: Option<Id<RoleMarker>>,
}

/// Message types a member writes: `DEFAULT` (0) and `REPLY` (19).
fn is_members(kind: MessageType) -> bool {
    matches!(kind, MessageType::Regular | MessageType::Reply)
}

impl MessagePayload {
    /// The message and when it was edited, if it is one a member (or bot)
    /// wrote in a guild.
    fn into_parts(self) -> Option<(Id<GuildMarker>, Message, Option<String>)> {
        let guild = self.guild_id.filter(|_| is_members(self.kind))?;
        let member = self.member.unwrap_or_default();
        let display_name = member
            .nick
            .or(self.author.global_name)
            .or(self.author.username);
        let message = Message {
            id: self.id.to_string(),
            channel_id: self.channel_id.to_string(),
            author: Author {
                id: self.author.id.to_string(),
                // A webhook's message is no member's: treated as a bot's.
                is_bot: self.author.bot || self.webhook_id.is_some(),
                role_ids: member.roles.iter().map(ToString::to_string).collect(),
                display_name,
            },
            content: non_empty(self.content),
            // Discord gives no links apart from the text (embeds are made
            // from the text's links).
            links: Vec::new(),
            mentions: Mentions {
                user_ids: self.mentions.iter().map(|m| m.id.to_string()).collect(),
                usernames: Vec::new(),
                role_ids: self.mention_roles.iter().map(ToString::to_string).collect(),
                everyone: self.mention_everyone,
            },
            attachments: self
                .attachments
                .into_iter()
                .map(|a| Attachment {
                    file_name: Some(a.filename),
                    url: Some(a.url),
                })
                .collect(),
            reply_to: self
                .message_reference
                .and_then(|r| r.message_id)
                .map(|id| id.to_string()),
        };
        Some((guild, message, self.edited_timestamp))
    }
}

/// Decodes dispatch `name` with data `d`, received at `at`: the events it
/// says (none for dispatches the daemon does not read, several for a bulk
/// delete). Without a [`Delivery`]: a blocked message's execution has no id.
pub fn decode(name: &str, d: Value, at: Timestamp) -> PlatformResult<Vec<Event>> {
    decode_delivered(name, d, at, None)
}

/// [`decode`], with where the dispatch was received (`delivery`), which
/// names an AutoMod execution that has no message id (a blocked message
/// never exists): by its session and `s`, so a replay is the same event and
/// every other execution another, whatever it says (without the
/// MESSAGE_CONTENT intent two blocked messages of a member in a channel say
/// the same: no content, the same keyword).
pub fn decode_delivered(
    name: &str,
    d: Value,
    at: Timestamp,
    delivery: Option<Delivery<'_>>,
) -> PlatformResult<Vec<Event>> {
    let event = |guild: Id<GuildMarker>, id: Option<String>, kind| Event {
        platform: Platform::Discord,
        server_id: guild.to_string().into(),
        at,
        id,
        kind,
    };
    let what = format!("{name} from Discord");
    Ok(match name {
        "MESSAGE_CREATE" | "MESSAGE_UPDATE" => message_events(name, payload(d, &what)?, at),
        "MESSAGE_DELETE" => {
            let m: MessageDelete = payload(d, &what)?;
            m.guild_id
                .map(|guild| {
                    event(
                        guild,
                        Some(format!("discord:deleted:{}", m.id)),
                        EventKind::MessageDeleted {
                            channel_id: m.channel_id.to_string(),
                            message_id: m.id.to_string(),
                        },
                    )
                })
                .into_iter()
                .collect()
        }
        "MESSAGE_DELETE_BULK" => {
            let m: MessageDeleteBulk = payload(d, &what)?;
            let Some(guild) = m.guild_id else {
                return Ok(Vec::new());
            };
            m.ids
                .iter()
                .map(|id| {
                    event(
                        guild,
                        Some(format!("discord:deleted:{id}")),
                        EventKind::MessageDeleted {
                            channel_id: m.channel_id.to_string(),
                            message_id: id.to_string(),
                        },
                    )
                })
                .collect()
        }
        "GUILD_MEMBER_UPDATE" => {
            let m: GuildMember = payload(d, &what)?;
            let update = MemberUpdate {
                pending: m.pending,
                role_ids: m.roles.iter().map(ToString::to_string).collect(),
                member: MemberRef {
                    id: m.user.id.to_string(),
                    is_bot: m.user.bot,
                    display_name: m.nick.or(m.user.global_name).or(m.user.username),
                },
            };
            vec![event(m.guild_id, None, EventKind::MemberUpdated(update))]
        }
        "GUILD_MEMBER_ADD" | "GUILD_MEMBER_REMOVE" => {
            let m: GuildMember = payload(d, &what)?;
            let membership = Membership {
                member: MemberRef {
                    id: m.user.id.to_string(),
                    is_bot: m.user.bot,
                    display_name: m.nick.or(m.user.global_name).or(m.user.username),
                },
                channel_id: None,
                pending: m.pending,
            };
            let kind = if name == "GUILD_MEMBER_ADD" {
                EventKind::MemberJoined(membership)
            } else {
                EventKind::MemberLeft(membership)
            };
            vec![event(m.guild_id, None, kind)]
        }
        "VOICE_STATE_UPDATE" => {
            let v: VoiceStatePayload = payload(d, &what)?;
            match v.guild_id {
                Some(guild) if !v.is_bot() => {
                    vec![event(guild, None, EventKind::VoiceChanged(v.state()))]
                }
                _ => Vec::new(),
            }
        }
        "GUILD_CREATE" => {
            let g: GuildCreate = payload(d, &what)?;
            if g.unavailable {
                return Ok(Vec::new());
            }
            let states = g
                .voice_states
                .ok_or_else(|| {
                    PlatformError::Invalid(
                        "unexpected GUILD_CREATE from Discord: missing field `voice_states`"
                            .to_owned(),
                    )
                })?
                .into_iter()
                .filter(|v| !v.is_bot())
                .map(VoiceStatePayload::state)
                .collect();
            let names = names_seen(&g.channels, g.roles.as_deref().unwrap_or(&[]), &g.members);
            let mut events = vec![
                event(
                    g.id,
                    None,
                    EventKind::GuildChanged(guild_state(g.owner_id, g.roles, true)),
                ),
                event(g.id, None, EventKind::VoiceSnapshot(states)),
            ];
            if !names.is_empty() {
                events.push(event(g.id, None, EventKind::NamesSeen(names)));
            }
            events
        }
        "CHANNEL_CREATE" | "CHANNEL_UPDATE" => {
            // A guild channel object (gateway-events.mdx, "Channel
            // Create"); a DM channel has no `guild_id` and no name.
            let guild = d["guild_id"]
                .as_str()
                .and_then(|g| g.parse::<Id<GuildMarker>>().ok());
            let names = names_seen(std::slice::from_ref(&d), &[], &[]);
            match guild {
                Some(guild) if !names.is_empty() => {
                    vec![event(guild, None, EventKind::NamesSeen(names))]
                }
                _ => Vec::new(),
            }
        }
        "GUILD_UPDATE" => {
            let g: GuildUpdate = payload(d, &what)?;
            vec![event(
                g.id,
                None,
                EventKind::GuildChanged(guild_state(g.owner_id, g.roles, false)),
            )]
        }
        "GUILD_ROLE_CREATE" | "GUILD_ROLE_UPDATE" => {
            let r: GuildRoleEvent = payload(d, &what)?;
            match r.role {
                Some(role) => vec![event(
                    r.guild_id,
                    None,
                    EventKind::RoleChanged(role_from_json(&role)),
                )],
                None => Vec::new(),
            }
        }
        "GUILD_ROLE_DELETE" => {
            let r: GuildRoleEvent = payload(d, &what)?;
            match r.role_id {
                Some(id) => vec![event(
                    r.guild_id,
                    None,
                    EventKind::RoleRemoved(id.to_string()),
                )],
                None => Vec::new(),
            }
        }
        "AUTO_MODERATION_ACTION_EXECUTION" => {
            let a: AutoModerationActionExecution = payload(d, &what)?;
            // One execution per action of the rule: the message id and rule
            // say which message, the action which execution. A blocked
            // message has no id: the dispatch itself names it.
            let action = u8::from(a.action.kind);
            let id = match (a.message_id, delivery) {
                (Some(m), _) => Some(format!("discord:automod:{}:{m}:{action}", a.rule_id)),
                (None, Some(Delivery { session_id, seq })) => Some(format!(
                    "discord:automod:{}:dispatch:{session_id}:{seq}:{action}",
                    a.rule_id
                )),
                (None, None) => None,
            };
            vec![event(
                a.guild_id,
                id,
                EventKind::AutoModAction(AutoModAction {
                    rule_id: a.rule_id.to_string(),
                    trigger_type: a.rule_trigger_type.into(),
                    action_type: a.action.kind.into(),
                    user_id: a.user_id.to_string(),
                    channel_id: a.channel_id.map(|c| c.to_string()),
                    message_id: a.message_id.map(|m| m.to_string()),
                    matched_keyword: a.matched_keyword,
                    matched_content: a.matched_content.and_then(non_empty),
                    content: non_empty(a.content),
                }),
            )]
        }
        "GUILD_AUDIT_LOG_ENTRY_CREATE" => {
            let entry: AuditLogEntryPayload = payload(d, &what)?;
            let Some(guild) = entry.guild_id else {
                return Ok(Vec::new());
            };
            let id = Some(format!("discord:audit:{}", entry.id));
            vec![event(
                guild,
                id,
                EventKind::AuditLogEntry(entry.into_entry()),
            )]
        }
        "INTERACTION_CREATE" => {
            let i: InteractionPayload = payload(d, &what)?;
            interaction_events(i, at)
        }
        _ => Vec::new(),
    })
}

/// The event of a `MESSAGE_CREATE` or `MESSAGE_UPDATE` (`name`): none for a
/// message that is no member's words in a guild.
fn message_events(name: &str, m: MessagePayload, at: Timestamp) -> Vec<Event> {
    let Some((guild, message, edited)) = m.into_parts() else {
        return Vec::new();
    };
    let (id, kind) = if name == "MESSAGE_CREATE" {
        let id = Some(format!("discord:message:{}", message.id));
        (id, EventKind::MessageCreated(message))
    } else if let Some(edited) = edited {
        // One edit is one `edited_timestamp`: a replayed update is the same
        // event, the next edit another.
        let id = Some(format!("discord:edited:{}:{edited}", message.id));
        (id, EventKind::MessageEdited(message))
    } else {
        // No `edited_timestamp` ("when this message was edited (or null if
        // never)", message.mdx): the member did not edit it. Discord
        // updates a message by itself when it unfurls the embeds of its
        // links, pins it, or changes its flags; none is the member saying
        // something new, so it is dropped rather than read as an edit
        // (which the logs would post and automod would check again).
        return Vec::new();
    };
    vec![Event {
        platform: Platform::Discord,
        server_id: guild.to_string().into(),
        at,
        id,
        kind,
    }]
}

/// One gateway message (JSON text) straight into its dispatch's name and
/// events: what [`dispatch_of`] then [`decode`] give, without the `Value`
/// in between for messages. `None` for a message that is not a dispatch.
///
/// Why: messages are most of a busy gateway (thousands a second), and
/// reading each into a `Value` first (a map per object, every key and
/// string allocated, then read again into the typed payload) was most of
/// their decoding (issue #25's 200,000 messages/s through decoding and the
/// filters; `modctl-bench automod`). A message's frame is read twice from
/// the text instead: its `op` and `t` (skipping the rest without
/// allocating), then its `d` into the typed payload. The other dispatches,
/// a trickle, go through [`dispatch_of`] and [`decode_delivered`], with
/// `session` (the gateway session it arrived in; see [`Delivery`]).
pub fn decode_frame(
    json: &str,
    at: Timestamp,
    session: Option<&str>,
) -> PlatformResult<Option<(String, Vec<Event>)>> {
    #[derive(Deserialize)]
    struct Head {
        op: u8,
        #[serde(default)]
        t: Option<String>,
    }
    #[derive(Deserialize)]
    struct MessageFrame {
        d: MessagePayload,
    }
    let head: Head = serde_json::from_str(json)
        .map_err(|e| PlatformError::Invalid(format!("unreadable gateway message: {e}")))?;
    match (head.op, head.t) {
        (0, Some(name)) if name == "MESSAGE_CREATE" || name == "MESSAGE_UPDATE" => {
            let frame: MessageFrame =
                super::typed(json.as_bytes(), &format_args!("{name} from Discord"))?;
            let events = message_events(&name, frame.d, at);
            Ok(Some((name, events)))
        }
        (0, Some(_)) => match dispatch_of(json)? {
            Some(dispatch) => {
                let delivery = match (session, dispatch.seq) {
                    (Some(session_id), Some(seq)) => Some(Delivery { session_id, seq }),
                    _ => None,
                };
                let events = decode_delivered(&dispatch.name, dispatch.data, at, delivery)?;
                Ok(Some((dispatch.name, events)))
            }
            None => Ok(None),
        },
        _ => Ok(None),
    }
}
