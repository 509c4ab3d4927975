//! `INTERACTION_CREATE`: button presses and modal submissions (verification,
//! issue #26).

use super::*;

/// `INTERACTION_CREATE` (discord-docs/receiving-and-responding.mdx,
/// "Interaction Object"), the fields a button press needs, in
/// twilight-model's types. Read into this struct rather than
/// `twilight_model::application::interaction::Interaction`, like messages
/// above: the whole type requires the whole `message` object, and a press is
/// kept whatever the message carries.
#[derive(Debug, Deserialize)]
pub(super) struct InteractionPayload {
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
pub(super) fn interaction_events(i: InteractionPayload, at: Timestamp) -> Vec<Event> {
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
