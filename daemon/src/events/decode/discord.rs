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
    FormSubmit, GuildState, MemberRef, MemberUpdate, Membership, Mentions, Message, PressReply,
    VoiceState, non_empty,
};
use crate::platform::discord::guilds::role_from_json;
use crate::platform::structure::{nullable, payload};
use crate::platform::{PlatformError, PlatformResult};

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
            vec![
                event(
                    g.id,
                    None,
                    EventKind::GuildChanged(guild_state(g.owner_id, g.roles, true)),
                ),
                event(g.id, None, EventKind::VoiceSnapshot(states)),
            ]
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

/// `GUILD_AUDIT_LOG_ENTRY_CREATE`: an audit log entry object with
/// `guild_id` (gateway-events.mdx, "Guild Audit Log Entry Create";
/// audit-log.mdx, "Audit Log Entry Object"). Read field by field rather
/// than as twilight-model's whole `AuditLogEntry`: its `changes` is an enum
/// of the change keys twilight knows, and a key Discord adds later would
/// refuse the whole entry, and with it a nuke's evidence. Each change is
/// read alone as twilight's [`AuditLogChange`]; one it does not know is
/// skipped.
#[derive(Debug, Deserialize)]
struct AuditLogEntryPayload {
    id: Id<twilight_model::id::marker::AuditLogEntryMarker>,
    action_type: AuditLogEventType,
    #[serde(default)]
    guild_id: Option<Id<GuildMarker>>,
    #[serde(default)]
    user_id: Option<Id<UserMarker>>,
    #[serde(default)]
    target_id: Option<Id<twilight_model::id::marker::GenericMarker>>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    changes: Vec<Value>,
}

impl AuditLogEntryPayload {
    fn into_entry(self) -> AuditEntry {
        let changes: Vec<AuditLogChange> = self
            .changes
            .into_iter()
            .filter_map(|c| serde_json::from_value(c).ok())
            .collect();
        AuditEntry {
            id: self.id.to_string(),
            action: audit_action(self.action_type, &changes),
            executor_id: self.user_id.map(|u| u.to_string()),
            target_id: self.target_id.map(|t| t.to_string()),
            reason: self.reason.and_then(non_empty),
        }
    }
}

/// What an entry of `kind` with `changes` records, for antinuke.
fn audit_action(kind: AuditLogEventType, changes: &[AuditLogChange]) -> AuditAction {
    match kind {
        AuditLogEventType::ChannelDelete => AuditAction::ChannelDeleted,
        AuditLogEventType::RoleDelete => AuditAction::RoleDeleted,
        AuditLogEventType::MemberBanAdd => AuditAction::MemberBanned,
        AuditLogEventType::MemberKick => AuditAction::MemberKicked,
        AuditLogEventType::MemberPrune => AuditAction::MembersPruned,
        AuditLogEventType::WebhookCreate => AuditAction::WebhookCreated,
        AuditLogEventType::BotAdd => AuditAction::BotAdded,
        AuditLogEventType::MemberRoleUpdate => AuditAction::RolesGranted(
            changes
                .iter()
                .flat_map(|c| match c {
                    AuditLogChange::RoleAdded { new, .. } => new.as_slice(),
                    _ => &[],
                })
                .map(|r| r.id.to_string())
                .collect(),
        ),
        AuditLogEventType::RoleCreate | AuditLogEventType::RoleUpdate => {
            // The bits the role has now and did not have before (a new role
            // had none), and both sides for putting them back.
            let (old, new) = changes
                .iter()
                .find_map(|c| match c {
                    AuditLogChange::Permissions { new, old } => Some((*old, *new)),
                    _ => None,
                })
                .unwrap_or((None, None));
            let granted = new.unwrap_or(Permissions::empty()) - old.unwrap_or(Permissions::empty());
            AuditAction::PermissionsGranted {
                granted: granted.bits(),
                before: old.map(|p| p.bits()),
                after: new.map(|p| p.bits()),
            }
        }
        other => AuditAction::Other(u16::from(other)),
    }
}

/// `INTERACTION_CREATE` (discord-docs/receiving-and-responding.mdx,
/// "Interaction Object"), the fields a button press needs, in
/// twilight-model's types. Read into this struct rather than
/// `twilight_model::application::interaction::Interaction`, like messages
/// above: the whole type requires the whole `message` object, and a press is
/// kept whatever the message carries.
#[derive(Debug, Deserialize)]
struct InteractionPayload {
    id: Id<twilight_model::id::marker::InteractionMarker>,
    #[serde(rename = "type")]
    kind: twilight_model::application::interaction::InteractionType,
    token: String,
    #[serde(default)]
    guild_id: Option<Id<GuildMarker>>,
    #[serde(default)]
    channel_id: Option<Id<ChannelMarker>>,
    #[serde(default)]
    member: Option<InteractionMember>,
    #[serde(default)]
    data: Option<ComponentData>,
    #[serde(default)]
    message: Option<InteractionMessage>,
}

#[derive(Debug, Deserialize)]
struct InteractionMember {
    user: User,
}

/// "Message Component Data Structure": `custom_id`, `component_type`.
#[derive(Debug, Deserialize)]
struct ComponentData {
    #[serde(default)]
    custom_id: Option<String>,
    /// A modal's submitted components ("Modal Submit Data Structure"):
    /// action rows (type 1) or labels (type 18) holding text inputs with
    /// their `custom_id` and `value`; read loosely, see [`form_fields`].
    #[serde(default)]
    components: Vec<Value>,
}

/// The text fields of a submitted modal, (`custom_id`, `value`), wherever
/// they sit in its rows (an action row's `components`, a label's
/// `component`).
fn form_fields(components: &[Value]) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    let mut stack: Vec<&Value> = components.iter().rev().collect();
    while let Some(c) = stack.pop() {
        if let (Some(id), Some(value)) = (c["custom_id"].as_str(), c["value"].as_str()) {
            fields.push((id.to_owned(), value.to_owned()));
        }
        if let Some(children) = c["components"].as_array() {
            stack.extend(children.iter().rev());
        }
        if c["component"].is_object() {
            stack.push(&c["component"]);
        }
    }
    fields
}

#[derive(Debug, Deserialize)]
struct InteractionMessage {
    id: Id<MessageMarker>,
}

/// The event of an interaction: a press of a button in a guild
/// (`MESSAGE_COMPONENT`, type 3); other interactions (slash commands,
/// pings, DMs) are none of the daemon's.
fn interaction_events(i: InteractionPayload, at: Timestamp) -> Vec<Event> {
    use twilight_model::application::interaction::InteractionType;
    if let (Some(guild), Some(member), InteractionType::ModalSubmit) =
        (i.guild_id, i.member.as_ref(), i.kind)
    {
        let Some(data) = i.data else {
            return Vec::new();
        };
        let Some(custom_id) = data.custom_id else {
            return Vec::new();
        };
        return vec![Event {
            platform: Platform::Discord,
            server_id: guild.to_string().into(),
            at,
            id: Some(format!("discord:interaction:{}", i.id)),
            kind: EventKind::FormSubmitted(FormSubmit {
                user_id: member.user.id.to_string(),
                custom_id,
                fields: form_fields(&data.components),
                reply: PressReply::Discord {
                    id: i.id.to_string(),
                    token: i.token,
                },
            }),
        }];
    }
    let (Some(guild), Some(member), InteractionType::MessageComponent) =
        (i.guild_id, i.member, i.kind)
    else {
        return Vec::new();
    };
    let Some(custom_id) = i.data.and_then(|d| d.custom_id) else {
        return Vec::new();
    };
    vec![Event {
        platform: Platform::Discord,
        server_id: guild.to_string().into(),
        at,
        id: Some(format!("discord:interaction:{}", i.id)),
        kind: EventKind::ButtonPressed(ButtonPress {
            user_id: member.user.id.to_string(),
            custom_id,
            channel_id: i.channel_id.map(|c| c.to_string()),
            message_id: i.message.map(|m| m.id.to_string()),
            reply: PressReply::Discord {
                id: i.id.to_string(),
                token: i.token,
            },
        }),
    }]
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::platform::Role;

    const GUILD: &str = "100000000000000001";
    const CHANNEL: &str = "300000000000000001";

    fn at() -> Timestamp {
        "2026-11-22T10:00:00Z".parse().unwrap()
    }

    /// A `MESSAGE_CREATE` as the gateway events reference shows one (a
    /// message object with `guild_id` and `member`).
    fn message(author: Value, kind: u8) -> Value {
        json!({
            "id": "334385199974967042", "channel_id": CHANNEL, "guild_id": GUILD,
            "author": author, "type": kind, "content": "hello <@80351110224678912>",
            "timestamp": "2026-11-22T10:00:00Z", "edited_timestamp": null, "tts": false,
            "mention_everyone": false,
            "mentions": [{"id": "80351110224678912", "username": "Nelly",
                          "discriminator": "1337", "avatar": null, "public_flags": 0}],
            "mention_roles": ["41771983423143936"],
            "attachments": [{"id": "1", "filename": "cat.png", "size": 10,
                             "url": "https://cdn.discordapp.com/attachments/1/1/cat.png",
                             "proxy_url": "https://media.discordapp.net/attachments/1/1/cat.png",
                             "content_type": "image/png"}],
            "embeds": [], "pinned": false,
            "member": {"roles": ["41771983423143937"], "nick": "Nell", "joined_at": "2026-01-01T00:00:00Z",
                       "deaf": false, "mute": false, "flags": 0},
        })
    }

    fn one(events: Vec<Event>) -> Event {
        assert_eq!(events.len(), 1, "{events:?}");
        events.into_iter().next().unwrap()
    }

    /// A whole frame decodes as `dispatch_of` then `decode` do, messages
    /// (read without a `Value`) and other dispatches alike; a frame that
    /// is no dispatch is nothing; a message missing a required field is
    /// an error that names it.
    #[test]
    fn a_frame_decodes_as_dispatch_of_then_decode() {
        let author = json!({"id": "53908232506183680", "username": "Mason", "discriminator": "0"});
        let member = json!({"guild_id": GUILD, "user": author.clone(), "roles": []});
        let mut update = message(author.clone(), 0);
        update["edited_timestamp"] = json!("2026-11-22T10:01:00Z");
        let frames = [
            json!({"op": 0, "t": "MESSAGE_CREATE", "s": 1, "d": message(author.clone(), 0)}),
            json!({"op": 0, "t": "MESSAGE_UPDATE", "s": 2, "d": update}),
            json!({"t": "GUILD_MEMBER_ADD", "s": 3, "op": 0, "d": member}),
            json!({"op": 0, "t": "MESSAGE_CREATE", "s": 4, "d": message(author.clone(), 6)}),
            json!({"op": 11, "d": null}),
            json!({"op": 0, "t": "TYPING_START", "s": 5, "d": {}}),
        ];
        for frame in frames {
            let text = frame.to_string();
            let slow = dispatch_of(&text)
                .unwrap()
                .map(|d| (d.name.clone(), decode(&d.name, d.data, at()).unwrap()));
            assert_eq!(decode_frame(&text, at(), None).unwrap(), slow, "{text}");
        }
        let mut broken = message(author, 0);
        broken.as_object_mut().unwrap().remove("channel_id");
        let frame = json!({"op": 0, "t": "MESSAGE_CREATE", "s": 6, "d": broken}).to_string();
        let error = decode_frame(&frame, at(), None).unwrap_err().to_string();
        assert!(error.contains("channel_id"), "{error}");
        assert!(decode_frame("{not json", at(), None).is_err());
    }

    #[test]
    fn a_member_message_is_read_whole() {
        let author = json!({"id": "53908232506183680", "username": "Mason", "discriminator": "0"});
        let event = one(decode("MESSAGE_CREATE", message(author, 0), at()).unwrap());
        assert_eq!(&*event.server_id, GUILD);
        assert_eq!(event.platform, Platform::Discord);
        assert_eq!(
            event.id.as_deref(),
            Some("discord:message:334385199974967042")
        );
        let EventKind::MessageCreated(m) = event.kind else {
            panic!("{event:?}")
        };
        assert_eq!(
            m,
            Message {
                id: "334385199974967042".into(),
                channel_id: CHANNEL.into(),
                author: Author {
                    id: "53908232506183680".into(),
                    is_bot: false,
                    role_ids: vec!["41771983423143937".into()],
                    display_name: Some("Nell".into()),
                },
                content: Some("hello <@80351110224678912>".into()),
                links: vec![],
                mentions: Mentions {
                    user_ids: vec!["80351110224678912".into()],
                    usernames: vec![],
                    role_ids: vec!["41771983423143936".into()],
                    everyone: false,
                },
                attachments: vec![Attachment {
                    file_name: Some("cat.png".into()),
                    url: Some("https://cdn.discordapp.com/attachments/1/1/cat.png".into()),
                }],
                reply_to: None,
            }
        );
    }

    #[test]
    fn without_the_content_intent_there_is_no_content() {
        // What Discord sends without MESSAGE_CONTENT: empty text and lists.
        let d = json!({"id": "9", "channel_id": CHANNEL, "guild_id": GUILD, "type": 19,
                       "author": {"id": "5", "username": "u"}, "content": "",
                       "timestamp": "2026-11-22T10:00:00Z",
                       "message_reference": {"message_id": "8", "channel_id": CHANNEL}});
        let event = one(decode("MESSAGE_CREATE", d, at()).unwrap());
        let EventKind::MessageCreated(m) = event.kind else {
            panic!()
        };
        assert_eq!((m.content, m.reply_to.as_deref()), (None, Some("8")));
        assert!(m.mentions.user_ids.is_empty() && m.attachments.is_empty());
    }

    #[test]
    fn bots_and_webhooks_are_marked_system_messages_and_dms_left_out() {
        let cases = [
            (
                json!({"id": "7", "username": "b", "bot": true}),
                0,
                None,
                true,
                Some(true),
            ),
            (
                json!({"id": "7", "username": "w"}),
                0,
                Some("77"),
                true,
                Some(true),
            ),
            (json!({"id": "7", "username": "u"}), 6, None, true, None),
            (json!({"id": "7", "username": "u"}), 0, None, false, None),
        ];
        for (author, kind, webhook, in_guild, expected) in cases {
            let mut d = message(author.clone(), kind);
            if let Some(w) = webhook {
                d["webhook_id"] = json!(w);
            }
            if !in_guild {
                d.as_object_mut().unwrap().remove("guild_id");
            }
            let events = decode("MESSAGE_CREATE", d, at()).unwrap();
            let is_bot = events.first().map(|e| match &e.kind {
                EventKind::MessageCreated(m) => m.author.is_bot,
                other => panic!("{other:?}"),
            });
            assert_eq!(is_bot, expected, "{author} type {kind} webhook {webhook:?}");
        }
    }

    #[test]
    fn edits_and_deletes_single_and_bulk() {
        let author = json!({"id": "5", "username": "u"});
        let mut update = message(author, 0);
        update["edited_timestamp"] = json!("2026-11-22T10:05:00Z");
        let edited = one(decode("MESSAGE_UPDATE", update, at()).unwrap());
        assert!(matches!(edited.kind, EventKind::MessageEdited(ref m) if m.content.is_some()));
        assert_eq!(
            edited.id.as_deref(),
            Some("discord:edited:334385199974967042:2026-11-22T10:05:00Z")
        );
        let deleted = one(decode(
            "MESSAGE_DELETE",
            json!({"id": "9", "channel_id": CHANNEL, "guild_id": GUILD}),
            at(),
        )
        .unwrap());
        assert_eq!(
            deleted.kind,
            EventKind::MessageDeleted {
                channel_id: CHANNEL.into(),
                message_id: "9".into()
            }
        );
        let bulk = decode(
            "MESSAGE_DELETE_BULK",
            json!({"ids": ["9", "10"], "channel_id": CHANNEL, "guild_id": GUILD}),
            at(),
        )
        .unwrap();
        let ids: Vec<_> = bulk
            .iter()
            .map(|e| match &e.kind {
                EventKind::MessageDeleted { message_id, .. } => message_id.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(ids, ["9", "10"]);
    }

    #[test]
    fn an_update_without_edited_timestamp_is_not_an_edit() {
        // What Discord sends when it unfurls a link's embed: the whole
        // message again, `edited_timestamp` null, the embed filled in.
        let author = json!({"id": "5", "username": "u"});
        let mut unfurled = message(author, 0);
        unfurled["content"] = json!("look https://example.com");
        unfurled["embeds"] = json!([{"type": "link", "url": "https://example.com",
                                      "title": "Example Domain"}]);
        assert_eq!(unfurled["edited_timestamp"], Value::Null);
        assert_eq!(
            decode("MESSAGE_UPDATE", unfurled.clone(), at()).unwrap(),
            vec![]
        );
        // Left out altogether (a partial update): not an edit either.
        unfurled.as_object_mut().unwrap().remove("edited_timestamp");
        assert_eq!(
            decode("MESSAGE_UPDATE", unfurled.clone(), at()).unwrap(),
            vec![]
        );
        // The member's edit carries its time.
        unfurled["edited_timestamp"] = json!("2026-11-22T10:05:00Z");
        let edited = one(decode("MESSAGE_UPDATE", unfurled, at()).unwrap());
        assert!(matches!(edited.kind, EventKind::MessageEdited(_)));
    }

    #[test]
    fn an_automod_execution_is_read() {
        // The shape of "Auto Moderation Action Execution" in the gateway
        // events reference.
        let d = json!({
            "guild_id": GUILD, "action": {"type": 1, "metadata": {}},
            "rule_id": "200000000000000001", "rule_trigger_type": 1,
            "user_id": "5", "channel_id": CHANNEL, "message_id": "9",
            "alert_system_message_id": null, "content": "buy cheap stuff",
            "matched_keyword": "cheap*", "matched_content": "cheap"
        });
        let event = one(decode("AUTO_MODERATION_ACTION_EXECUTION", d.clone(), at()).unwrap());
        assert_eq!(
            event.kind,
            EventKind::AutoModAction(AutoModAction {
                rule_id: "200000000000000001".into(),
                trigger_type: 1,
                action_type: 1,
                user_id: "5".into(),
                channel_id: Some(CHANNEL.into()),
                message_id: Some("9".into()),
                matched_keyword: Some("cheap*".into()),
                matched_content: Some("cheap".into()),
                content: Some("buy cheap stuff".into()),
            })
        );
        // A blocked message has no id: the dispatch names it, when the
        // transport says where it came from.
        let mut blocked = d.clone();
        blocked.as_object_mut().unwrap().remove("message_id");
        let delivered = |delivery| {
            let events = decode_delivered(
                "AUTO_MODERATION_ACTION_EXECUTION",
                blocked.clone(),
                at(),
                delivery,
            );
            one(events.unwrap()).id
        };
        let table = [
            (
                Some(Delivery {
                    session_id: "abc",
                    seq: 41,
                }),
                Some("discord:automod:200000000000000001:dispatch:abc:41:1"),
            ),
            (
                Some(Delivery {
                    session_id: "abd",
                    seq: 41,
                }),
                Some("discord:automod:200000000000000001:dispatch:abd:41:1"),
            ),
            (None, None),
        ];
        for (delivery, id) in table {
            assert_eq!(delivered(delivery).as_deref(), id, "{delivery:?}");
        }
        // With a message id, that names it, wherever it came from.
        let with_id = decode_delivered(
            "AUTO_MODERATION_ACTION_EXECUTION",
            d.clone(),
            at(),
            Some(Delivery {
                session_id: "abc",
                seq: 41,
            }),
        );
        assert_eq!(
            one(with_id.unwrap()).id.as_deref(),
            Some("discord:automod:200000000000000001:9:1")
        );
        let mut no_rule = d;
        no_rule.as_object_mut().unwrap().remove("rule_id");
        let err = decode("AUTO_MODERATION_ACTION_EXECUTION", no_rule, at()).unwrap_err();
        assert!(err.to_string().contains("rule_id"), "{err}");
    }

    /// audit-log.mdx: an entry's `action_type` and `changes` (`$add` with
    /// partial roles, `permissions` as strings) read into what antinuke
    /// counts; a change key twilight does not know is skipped, not an error.
    #[test]
    fn audit_log_entries_say_what_was_done_by_whom() {
        let entry = |action: u16, changes: Value| {
            json!({"id": "900000000000000001", "guild_id": GUILD, "user_id": "500000000000000009",
                   "target_id": "700000000000000005", "action_type": action, "changes": changes,
                   "reason": ""})
        };
        let table = [
            (12, json!([]), AuditAction::ChannelDeleted),
            (32, json!([]), AuditAction::RoleDeleted),
            (22, json!([]), AuditAction::MemberBanned),
            (20, json!([]), AuditAction::MemberKicked),
            (21, json!([]), AuditAction::MembersPruned),
            (50, json!([]), AuditAction::WebhookCreated),
            (28, json!([]), AuditAction::BotAdded),
            (
                25,
                json!([{"key": "$add", "new_value": [{"id": "600000000000000003", "name": "Admins"}]},
                       {"key": "some_future_key", "new_value": 1}]),
                AuditAction::RolesGranted(vec!["600000000000000003".into()]),
            ),
            (
                31,
                json!([{"key": "permissions", "old_value": "2", "new_value": "10"}]),
                AuditAction::PermissionsGranted {
                    granted: 8,
                    before: Some(2),
                    after: Some(10),
                },
            ),
            (
                30,
                json!([{"key": "permissions", "new_value": "4"}]),
                AuditAction::PermissionsGranted {
                    granted: 4,
                    before: None,
                    after: Some(4),
                },
            ),
            (
                31,
                json!([{"key": "name", "new_value": "x"}]),
                AuditAction::PermissionsGranted {
                    granted: 0,
                    before: None,
                    after: None,
                },
            ),
            (10, json!([]), AuditAction::Other(10)),
        ];
        for (action, changes, expected) in table {
            let events = decode("GUILD_AUDIT_LOG_ENTRY_CREATE", entry(action, changes), at());
            let event = one(events.unwrap());
            assert_eq!(event.server_id.as_ref(), GUILD);
            assert_eq!(
                event.id.as_deref(),
                Some("discord:audit:900000000000000001")
            );
            let EventKind::AuditLogEntry(e) = event.kind else {
                panic!("{:?}", event.kind)
            };
            assert_eq!(e.action, expected, "action_type {action}");
            assert_eq!(e.executor_id.as_deref(), Some("500000000000000009"));
            assert_eq!(e.target_id.as_deref(), Some("700000000000000005"));
            assert_eq!(e.reason, None);
        }
        let mut no_type = entry(12, json!([]));
        no_type.as_object_mut().unwrap().remove("action_type");
        let err = decode("GUILD_AUDIT_LOG_ENTRY_CREATE", no_type, at()).unwrap_err();
        assert!(err.to_string().contains("action_type"), "{err}");
    }

    #[test]
    fn a_missing_field_or_a_bad_id_is_an_error_not_a_zero() {
        let mut no_author = message(json!({"id": "5", "username": "u"}), 0);
        no_author.as_object_mut().unwrap().remove("author");
        let err = decode("MESSAGE_CREATE", no_author, at()).unwrap_err();
        assert!(err.to_string().contains("author"), "{err}");
        let bad_id = message(json!({"id": "not a snowflake", "username": "u"}), 0);
        assert!(decode("MESSAGE_CREATE", bad_id, at()).is_err());
        let err = decode("GUILD_MEMBER_ADD", json!({"user": {"id": "5"}}), at()).unwrap_err();
        assert!(err.to_string().contains("guild_id"), "{err}");
        let err = decode(
            "VOICE_STATE_UPDATE",
            json!({"guild_id": GUILD, "user_id": "5"}),
            at(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("channel_id"), "{err}");
        let err = decode("GUILD_CREATE", json!({"id": GUILD}), at()).unwrap_err();
        assert!(err.to_string().contains("voice_states"), "{err}");
    }

    /// receiving-and-responding.mdx, "Interaction Object": a guild button
    /// press (type 3) is read with its reply handle; a slash command
    /// (type 2), a DM press (no `guild_id`) and a payload without `token`
    /// are not a press.
    #[test]
    fn a_button_press_is_read_and_other_interactions_are_not() {
        let press = |kind: u8, guild: Option<&str>| {
            json!({"id": "900", "type": kind, "token": "tok", "application_id": "1",
                   "guild_id": guild, "channel_id": "70",
                   "member": {"user": {"id": "5", "username": "n"}, "roles": []},
                   "data": {"custom_id": "modctl:verify", "component_type": 2},
                   "message": {"id": "71"}})
        };
        let event = one(decode("INTERACTION_CREATE", press(3, Some(GUILD)), at()).unwrap());
        assert_eq!(event.server_id.as_ref(), GUILD);
        assert_eq!(event.id.as_deref(), Some("discord:interaction:900"));
        assert_eq!(
            event.kind,
            EventKind::ButtonPressed(ButtonPress {
                user_id: "5".into(),
                custom_id: "modctl:verify".into(),
                channel_id: Some("70".into()),
                message_id: Some("71".into()),
                reply: PressReply::Discord {
                    id: "900".into(),
                    token: "tok".into()
                },
            })
        );
        let table = [press(2, Some(GUILD)), press(3, None)];
        for d in table {
            assert!(
                decode("INTERACTION_CREATE", d.clone(), at())
                    .unwrap()
                    .is_empty(),
                "{d}"
            );
        }
        let mut no_token = press(3, Some(GUILD));
        no_token.as_object_mut().unwrap().remove("token");
        let err = decode("INTERACTION_CREATE", no_token, at()).unwrap_err();
        assert!(err.to_string().contains("token"), "{err}");
    }

    /// receiving-and-responding.mdx, "Modal Submit Data Structure": a
    /// guild modal submission (type 5) is read with its text fields, in an
    /// action row (type 1) or a label (type 18) alike; one in a DM is not.
    #[test]
    fn a_modal_submission_is_read_with_its_fields() {
        let submit = |guild: Option<&str>| {
            json!({"id": "901", "type": 5, "token": "tok", "application_id": "1",
            "guild_id": guild, "channel_id": "70",
            "member": {"user": {"id": "5", "username": "n"}, "roles": []},
            "data": {"custom_id": "modctl:captcha:answer", "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": "code", "value": "12345"}]},
                {"type": 18, "component": {"type": 4, "custom_id": "note", "value": "hi"}},
            ]}})
        };
        let event = one(decode("INTERACTION_CREATE", submit(Some(GUILD)), at()).unwrap());
        assert_eq!(event.id.as_deref(), Some("discord:interaction:901"));
        assert_eq!(
            event.kind,
            EventKind::FormSubmitted(FormSubmit {
                user_id: "5".into(),
                custom_id: "modctl:captcha:answer".into(),
                fields: vec![
                    ("code".into(), "12345".into()),
                    ("note".into(), "hi".into())
                ],
                reply: PressReply::Discord {
                    id: "901".into(),
                    token: "tok".into()
                },
            })
        );
        assert!(
            decode("INTERACTION_CREATE", submit(None), at())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn joins_leaves_and_voice_states_are_read() {
        let join = one(decode(
            "GUILD_MEMBER_ADD",
            json!({"guild_id": GUILD, "user": {"id": "5", "username": "n"}, "roles": [],
                       "joined_at": "2026-11-22T10:00:00Z", "deaf": false, "mute": false}),
            at(),
        )
        .unwrap());
        assert_eq!(
            join.kind,
            EventKind::MemberJoined(Membership {
                member: MemberRef {
                    id: "5".into(),
                    is_bot: false,
                    display_name: Some("n".into())
                },
                channel_id: None,
                pending: false
            })
        );
        let screened = one(decode(
            "GUILD_MEMBER_ADD",
            json!({"guild_id": GUILD, "user": {"id": "7", "username": "p"}, "roles": [],
                       "joined_at": "2026-11-22T10:00:00Z", "pending": true}),
            at(),
        )
        .unwrap());
        assert!(matches!(screened.kind, EventKind::MemberJoined(ref m) if m.pending));
        let passed = one(decode(
            "GUILD_MEMBER_UPDATE",
            json!({"guild_id": GUILD, "user": {"id": "7", "username": "p"}, "nick": "Pat",
                   "roles": ["600000000000000009"], "joined_at": "2026-11-22T10:00:00Z",
                   "pending": false}),
            at(),
        )
        .unwrap());
        assert_eq!(
            passed.kind,
            EventKind::MemberUpdated(MemberUpdate {
                member: MemberRef {
                    id: "7".into(),
                    is_bot: false,
                    display_name: Some("Pat".into())
                },
                pending: false,
                role_ids: vec!["600000000000000009".into()],
            })
        );
        let err = decode(
            "GUILD_MEMBER_UPDATE",
            json!({"guild_id": GUILD, "user": {"id": "7"}, "roles": ["not a snowflake"]}),
            at(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("roles"), "{err}");
        let leave = one(decode(
            "GUILD_MEMBER_REMOVE",
            json!({"guild_id": GUILD, "user": {"id": "6", "bot": true}}),
            at(),
        )
        .unwrap());
        assert!(matches!(leave.kind, EventKind::MemberLeft(ref m) if m.member.is_bot));

        let left = one(decode(
            "VOICE_STATE_UPDATE",
            json!({"guild_id": GUILD, "channel_id": null, "user_id": "5", "session_id": "s"}),
            at(),
        )
        .unwrap());
        assert_eq!(
            left.kind,
            EventKind::VoiceChanged(VoiceState {
                user_id: "5".into(),
                channel_id: None
            })
        );
        let mut guild = decode(
            "GUILD_CREATE",
            json!({"id": GUILD, "voice_states": [
                {"channel_id": "400000000000000001", "user_id": "5", "session_id": "s"},
                {"channel_id": "400000000000000001", "user_id": "6",
                 "member": {"user": {"id": "6", "bot": true}}}
            ]}),
            at(),
        )
        .unwrap();
        assert_eq!(guild.len(), 2, "{guild:?}");
        let voice = guild.pop().unwrap();
        assert_eq!(
            guild[0].kind,
            EventKind::GuildChanged(GuildState {
                session_start: true,
                whole: None
            })
        );
        assert_eq!(
            voice.kind,
            EventKind::VoiceSnapshot(vec![VoiceState {
                user_id: "5".into(),
                channel_id: Some("400000000000000001".into())
            }])
        );
        let unavailable = decode(
            "GUILD_CREATE",
            json!({"id": GUILD, "unavailable": true}),
            at(),
        );
        assert_eq!(unavailable.unwrap(), vec![]);
    }

    /// gateway-events.mdx: `GUILD_CREATE` and `GUILD_UPDATE` carry the
    /// guild's owner and roles (permissions as strings), the role events a
    /// role object or its id; a guild object without them says nothing of
    /// them.
    #[test]
    fn guild_and_role_dispatches_keep_the_hierarchy() {
        let role = |id: &str, position, permissions| Role {
            id: id.into(),
            position,
            permissions,
            managed: false,
        };
        let roles = json!([{"id": GUILD, "position": 0, "permissions": "0"},
                           {"id": "600000000000000001", "position": 3, "permissions": "8",
                            "managed": false}]);
        let whole = Some((
            "500000000000000002".to_owned(),
            vec![role(GUILD, 0, 0), role("600000000000000001", 3, 8)],
        ));
        let table = [
            (
                "GUILD_CREATE",
                json!({"id": GUILD, "voice_states": [], "owner_id": "500000000000000002",
                       "roles": roles}),
                EventKind::GuildChanged(GuildState {
                    session_start: true,
                    whole: whole.clone(),
                }),
            ),
            (
                "GUILD_UPDATE",
                json!({"id": GUILD, "owner_id": "500000000000000002", "roles": roles}),
                EventKind::GuildChanged(GuildState {
                    session_start: false,
                    whole,
                }),
            ),
            (
                "GUILD_UPDATE",
                json!({"id": GUILD, "name": "renamed"}),
                EventKind::GuildChanged(GuildState {
                    session_start: false,
                    whole: None,
                }),
            ),
            (
                "GUILD_ROLE_UPDATE",
                json!({"guild_id": GUILD, "role": {"id": "600000000000000001", "position": 3,
                       "permissions": "16", "managed": true}}),
                EventKind::RoleChanged(Role {
                    managed: true,
                    ..role("600000000000000001", 3, 16)
                }),
            ),
            (
                "GUILD_ROLE_DELETE",
                json!({"guild_id": GUILD, "role_id": "600000000000000001"}),
                EventKind::RoleRemoved("600000000000000001".into()),
            ),
        ];
        for (name, d, expected) in table {
            let events = decode(name, d, at()).unwrap();
            assert_eq!(events[0].server_id.as_ref(), GUILD);
            assert_eq!(events[0].kind, expected, "{name}");
        }
    }

    #[test]
    fn only_dispatches_are_decoded() {
        let hello = r#"{"op": 10, "d": {"heartbeat_interval": 41250}}"#;
        assert_eq!(dispatch_of(hello).unwrap(), None);
        let dispatch = dispatch_of(r#"{"op": 0, "t": "READY", "s": 1, "d": {"v": 10}}"#)
            .unwrap()
            .unwrap();
        assert_eq!(
            dispatch,
            Dispatch {
                name: "READY".into(),
                seq: Some(1),
                data: json!({"v": 10})
            }
        );
        assert!(dispatch_of("not json").is_err());
        assert_eq!(decode("TYPING_START", json!({}), at()).unwrap(), vec![]);
    }
}
