//! The Discord gateway as a source of activity: `GET /gateway/bot`, and the
//! dispatches a session receives, decoded into what the daemon counts.
//!
//! The session itself (heartbeats, identify, resume, reconnect) is
//! twilight-gateway's, run by [`crate::receive::gateway`]; this module only
//! reads the JSON of each dispatch (`{"op": 0, "t": ..., "s": ..., "d": ...}`)
//! into typed payloads. Only ids and flags are read: the intents do not ask
//! for message content, and none is ever kept.

use async_trait::async_trait;
use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;
use reqwest::Method;
use serde::Deserialize;
use serde_json::Value;

use super::Discord;
use crate::platform::PlatformResult;
use crate::platform::receive::{ApplicationFlags, Gateway, GatewayBot};
use crate::platform::structure::{nullable, payload};
use crate::store::activity::ActivityEvent;

#[async_trait]
impl Gateway for Discord {
    async fn gateway(&self) -> PlatformResult<GatewayBot> {
        let body = self.call(Method::GET, "/gateway/bot", None, None).await?;
        payload(body, "answer to GET /gateway/bot")
    }

    /// `GET /applications/@me` answers the application object
    /// (discord-openapi.json, `get_my_application`), whose `flags` include
    /// `GATEWAY_MESSAGE_CONTENT` (1 << 18) and `_LIMITED` (1 << 19). Bits
    /// twilight does not name are kept (`from_bits_retain`).
    async fn application_flags(&self) -> PlatformResult<ApplicationFlags> {
        #[derive(Deserialize)]
        struct Application {
            // Required in the spec's `PrivateApplicationResponse`.
            flags: u64,
        }
        let body = self
            .call(Method::GET, "/applications/@me", None, None)
            .await?;
        let application: Application = payload(body, "answer to GET /applications/@me")?;
        Ok(ApplicationFlags::from_bits_retain(application.flags))
    }
}

/// What a dispatch means for the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dispatch {
    /// Events to count now (a message, a join, a leave).
    Count(ActivityEvent),
    /// A member's voice state changed: the voice sessions decide what it
    /// counts (a join, a move, a leave, or nothing for a mute).
    Voice(VoiceState),
    /// A guild became available (at the start of a session): the members in
    /// its voice channels now.
    GuildVoice {
        /// The guild.
        guild_id: String,
        /// Members in voice (bots left out).
        states: Vec<VoiceState>,
    },
    /// Nothing the daemon counts (another event, a bot, a DM, a system
    /// message).
    Ignored,
}

/// A member's voice state: in `channel_id`, or in no voice channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceState {
    /// The guild.
    pub guild_id: String,
    /// The member.
    pub user_id: String,
    /// The voice channel, `None` when they left voice.
    pub channel_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct User {
    id: String,
    /// Discord leaves it out for humans.
    #[serde(default)]
    bot: bool,
}

/// `MESSAGE_CREATE`: `guild_id` is absent in DMs.
#[derive(Debug, Deserialize)]
struct MessageCreate {
    id: String,
    channel_id: String,
    #[serde(default)]
    guild_id: Option<String>,
    author: User,
    #[serde(rename = "type")]
    kind: u8,
    #[serde(default)]
    webhook_id: Option<String>,
}

/// `GUILD_MEMBER_ADD` and `GUILD_MEMBER_REMOVE`.
#[derive(Debug, Deserialize)]
struct GuildMember {
    guild_id: String,
    user: User,
}

#[derive(Debug, Deserialize)]
struct Member {
    user: User,
}

/// `VOICE_STATE_UPDATE`, and the voice states of `GUILD_CREATE` (which
/// leave out `guild_id`).
#[derive(Debug, Deserialize)]
struct VoiceStatePayload {
    #[serde(default)]
    guild_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    channel_id: Option<String>,
    user_id: String,
    #[serde(default)]
    member: Option<Member>,
}

impl VoiceStatePayload {
    fn is_bot(&self) -> bool {
        self.member.as_ref().is_some_and(|m| m.user.bot)
    }
}

/// `GUILD_CREATE`; an unavailable guild has only `id` and `unavailable`.
#[derive(Debug, Deserialize)]
struct GuildCreate {
    id: String,
    #[serde(default)]
    unavailable: bool,
    #[serde(default)]
    voice_states: Option<Vec<VoiceStatePayload>>,
}

/// Message types a member writes: `DEFAULT` (0) and `REPLY` (19). The others
/// are system messages (joins, pins, boosts) or application commands.
const MEMBER_MESSAGE_TYPES: [u8; 2] = [0, 19];

/// The JSON of a gateway message: its dispatch name and data, or `None` for
/// a message that is not a dispatch (hello, heartbeat ACK, reconnect).
pub fn dispatch_of(json: &str) -> PlatformResult<Option<(String, Value)>> {
    #[derive(Deserialize)]
    struct Envelope {
        op: u8,
        #[serde(default)]
        t: Option<String>,
        #[serde(default)]
        d: Value,
    }
    let envelope: Envelope = serde_json::from_str(json).map_err(|e| {
        crate::platform::PlatformError::Invalid(format!("unreadable gateway message: {e}"))
    })?;
    Ok(match (envelope.op, envelope.t) {
        (0, Some(name)) => Some((name, envelope.d)),
        _ => None,
    })
}

/// Decodes dispatch `name` with data `d`, received at `at`.
pub fn decode(name: &str, d: Value, at: Timestamp) -> PlatformResult<Dispatch> {
    let event = |guild_id: String, kind, user_id: String, channel_id, event_id| {
        Dispatch::Count(ActivityEvent {
            server_id: guild_id.into(),
            event_id,
            kind,
            user_id,
            channel_id,
            at,
            minutes: 0,
        })
    };
    Ok(match name {
        "MESSAGE_CREATE" => {
            let m: MessageCreate = payload(d, "MESSAGE_CREATE from Discord")?;
            match m.guild_id {
                Some(guild_id)
                    if !m.author.bot
                        && m.webhook_id.is_none()
                        && MEMBER_MESSAGE_TYPES.contains(&m.kind) =>
                {
                    event(
                        guild_id,
                        ActivityKind::Message,
                        m.author.id,
                        Some(m.channel_id),
                        Some(format!("discord:message:{}", m.id)),
                    )
                }
                _ => Dispatch::Ignored,
            }
        }
        "GUILD_MEMBER_ADD" | "GUILD_MEMBER_REMOVE" => {
            let m: GuildMember = payload(d, &format!("{name} from Discord"))?;
            if m.user.bot {
                return Ok(Dispatch::Ignored);
            }
            let kind = if name == "GUILD_MEMBER_ADD" {
                ActivityKind::Join
            } else {
                ActivityKind::Leave
            };
            event(m.guild_id, kind, m.user.id, None, None)
        }
        "VOICE_STATE_UPDATE" => {
            let v: VoiceStatePayload = payload(d, "VOICE_STATE_UPDATE from Discord")?;
            match v.guild_id.clone() {
                Some(guild_id) if !v.is_bot() => Dispatch::Voice(VoiceState {
                    guild_id,
                    user_id: v.user_id,
                    channel_id: v.channel_id,
                }),
                _ => Dispatch::Ignored,
            }
        }
        "GUILD_CREATE" => {
            let g: GuildCreate = payload(d, "GUILD_CREATE from Discord")?;
            if g.unavailable {
                return Ok(Dispatch::Ignored);
            }
            let states = g
                .voice_states
                .ok_or_else(|| {
                    crate::platform::PlatformError::Invalid(
                        "unexpected GUILD_CREATE from Discord: missing field `voice_states`"
                            .to_owned(),
                    )
                })?
                .into_iter()
                .filter(|v| !v.is_bot())
                .map(|v| VoiceState {
                    guild_id: g.id.clone(),
                    user_id: v.user_id,
                    channel_id: v.channel_id,
                })
                .collect();
            Dispatch::GuildVoice {
                guild_id: g.id,
                states,
            }
        }
        _ => Dispatch::Ignored,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at() -> Timestamp {
        "2026-11-22T10:00:00Z".parse().unwrap()
    }

    fn message(author: Value, kind: u8) -> Value {
        json!({"id": "9", "channel_id": "C", "guild_id": "G", "author": author, "type": kind,
               "content": "", "timestamp": "2026-11-22T10:00:00Z"})
    }

    #[test]
    fn a_member_message_counts_per_channel_and_author() {
        let d = decode("MESSAGE_CREATE", message(json!({"id": "U"}), 0), at()).unwrap();
        assert_eq!(
            d,
            Dispatch::Count(ActivityEvent {
                server_id: "G".into(),
                event_id: Some("discord:message:9".into()),
                kind: ActivityKind::Message,
                user_id: "U".into(),
                channel_id: Some("C".into()),
                at: at(),
                minutes: 0,
            })
        );
        let reply = decode("MESSAGE_CREATE", message(json!({"id": "U"}), 19), at()).unwrap();
        assert!(matches!(reply, Dispatch::Count(_)));
    }

    #[test]
    fn bots_system_messages_webhooks_and_dms_are_not_counted() {
        let bot = message(json!({"id": "B", "bot": true}), 0);
        assert_eq!(
            decode("MESSAGE_CREATE", bot, at()).unwrap(),
            Dispatch::Ignored
        );
        let pin = message(json!({"id": "U"}), 6);
        assert_eq!(
            decode("MESSAGE_CREATE", pin, at()).unwrap(),
            Dispatch::Ignored
        );
        let mut hook = message(json!({"id": "U"}), 0);
        hook["webhook_id"] = json!("W");
        assert_eq!(
            decode("MESSAGE_CREATE", hook, at()).unwrap(),
            Dispatch::Ignored
        );
        let mut dm = message(json!({"id": "U"}), 0);
        dm.as_object_mut().unwrap().remove("guild_id");
        assert_eq!(
            decode("MESSAGE_CREATE", dm, at()).unwrap(),
            Dispatch::Ignored
        );
    }

    #[test]
    fn a_missing_field_is_an_error_not_a_zero() {
        let mut no_author = message(json!({"id": "U"}), 0);
        no_author.as_object_mut().unwrap().remove("author");
        let err = decode("MESSAGE_CREATE", no_author, at()).unwrap_err();
        assert!(err.to_string().contains("author"), "{err}");
        let err = decode("GUILD_MEMBER_ADD", json!({"user": {"id": "U"}}), at()).unwrap_err();
        assert!(err.to_string().contains("guild_id"), "{err}");
        let err = decode(
            "VOICE_STATE_UPDATE",
            json!({"guild_id": "G", "user_id": "U"}),
            at(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("channel_id"), "{err}");
        let err = decode("GUILD_CREATE", json!({"id": "G"}), at()).unwrap_err();
        assert!(err.to_string().contains("voice_states"), "{err}");
    }

    #[test]
    fn joins_leaves_and_voice_states_are_read() {
        let join = decode(
            "GUILD_MEMBER_ADD",
            json!({"guild_id": "G", "user": {"id": "U"}, "joined_at": "2026-11-22T10:00:00Z"}),
            at(),
        )
        .unwrap();
        assert!(matches!(
            join,
            Dispatch::Count(ActivityEvent {
                kind: ActivityKind::Join,
                ..
            })
        ));
        let leave = decode(
            "GUILD_MEMBER_REMOVE",
            json!({"guild_id": "G", "user": {"id": "U"}}),
            at(),
        )
        .unwrap();
        assert!(matches!(
            leave,
            Dispatch::Count(ActivityEvent {
                kind: ActivityKind::Leave,
                ..
            })
        ));
        let bot = decode(
            "GUILD_MEMBER_ADD",
            json!({"guild_id": "G", "user": {"id": "B", "bot": true}}),
            at(),
        )
        .unwrap();
        assert_eq!(bot, Dispatch::Ignored);

        let left = decode(
            "VOICE_STATE_UPDATE",
            json!({"guild_id": "G", "channel_id": null, "user_id": "U", "session_id": "s"}),
            at(),
        )
        .unwrap();
        assert_eq!(
            left,
            Dispatch::Voice(VoiceState {
                guild_id: "G".into(),
                user_id: "U".into(),
                channel_id: None
            })
        );
        let guild = decode(
            "GUILD_CREATE",
            json!({"id": "G", "voice_states": [
                {"channel_id": "V", "user_id": "U", "session_id": "s"},
                {"channel_id": "V", "user_id": "B", "member": {"user": {"id": "B", "bot": true}}}
            ]}),
            at(),
        )
        .unwrap();
        assert_eq!(
            guild,
            Dispatch::GuildVoice {
                guild_id: "G".into(),
                states: vec![VoiceState {
                    guild_id: "G".into(),
                    user_id: "U".into(),
                    channel_id: Some("V".into())
                }]
            }
        );
    }

    #[test]
    fn only_dispatches_are_decoded() {
        let hello = r#"{"op": 10, "d": {"heartbeat_interval": 41250}}"#;
        assert_eq!(dispatch_of(hello).unwrap(), None);
        let (name, d) = dispatch_of(r#"{"op": 0, "t": "READY", "s": 1, "d": {"v": 10}}"#)
            .unwrap()
            .unwrap();
        assert_eq!((name.as_str(), d), ("READY", json!({"v": 10})));
        assert!(dispatch_of("not json").is_err());
    }
}
