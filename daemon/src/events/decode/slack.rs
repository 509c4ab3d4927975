//! Slack Events API request bodies into [`Event`]s. The request's signature
//! is checked before, by the transport ([`crate::platform::slack::events`]
//! verifies, [`crate::receive::hooks`] refuses bodies that repeat a key).
//!
//! Read (Events API reference: the `message` event and its subtypes,
//! `member_joined_channel`, `team_join`):
//! - `message` without a subtype, or with a subtype that is still someone
//!   writing ([`WRITTEN`]): `file_share` (a member shares files: its
//!   `files` are the attachments, its `text` the message),
//!   `thread_broadcast` (a thread reply also sent to the channel: its
//!   `thread_ts` the thread), `me_message` (`/me` text), `bot_message` (a
//!   bot's, marked as such, as is any message with a `bot_id`): a message
//!   created; these are the subtypes of the message event reference
//!   (docs.slack.dev/reference/events/message, "Message subtypes") whose
//!   payload carries the writer's `user` (or `bot_id`) and text;
//! - `message_changed`: the new version (`message`) as an edit (its inner
//!   message read by the same rule: an edited file share or broadcast is an
//!   edit too); `message_deleted`: the `deleted_ts` as a deletion;
//! - every other subtype is left out: they are Slack speaking, not a member
//!   (`channel_join`/`channel_leave`, `channel_topic`/`purpose`/`name`,
//!   `channel_archive`/`unarchive`, `pinned_item`, `ekm_access_denied`,
//!   `message_replied` (a thread's parent changing), `tombstone`, ...), so
//!   neither automod nor the logs read them as a member's words;
//! - `member_joined_channel`: a member joined that channel; `team_join`: a
//!   member joined the workspace;
//! - `user_change` (a member's profile changed: the user object) and
//!   `channel_rename` / `channel_created` / `group_rename` (a private
//!   channel renamed; each `channel.id`, `channel.name`): the names the
//!   name cache learns (issue #27); a member's name is read as
//!   [`crate::platform::slack::shown_name`] reads `users.info`'s;
//! - `channel_archive` / `group_archive` (a public / private channel
//!   archived: `channel`, `user`) and `channel_deleted` / `group_deleted`
//!   (deleted: `channel` alone, Slack names no actor): audit entries for
//!   antinuke (issue #26), the archive with its `user` as executor. An
//!   archive by the app's own bot user is none: the envelope's
//!   `authorizations` names it (`user_id` with `is_bot`, "Events API",
//!   authorizations), and antinuke never counts the bot.
//!
//! Slack writes mentions and links into the text as markup: `<@U123>`,
//! `<!subteam^S123>`, `<!here>`, `<!channel>`, `<!everyone>`, `<#C123>`,
//! `<https://example.com|label>` ("Formatting text for app surfaces"): they
//! are read from there. The event's time is Slack's `event_time`; its id is
//! Slack's `event_id`, the same on every retry.

use std::borrow::Cow;

use modctl_types::{Platform, Timestamp};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::typed;
use crate::events::{
    Attachment, AuditAction, AuditEntry, Author, ButtonPress, Event, EventKind, FormSubmit,
    MemberRef, Membership, Mentions, Message, NameKind, NameSeen, PressReply, ViewAnswer,
};
use crate::platform::{PlatformError, PlatformResult};

/// A verified request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Slack checks the request URL: answer the challenge.
    UrlVerification {
        /// Echoed back as is.
        challenge: String,
    },
    /// An event callback; `events` is empty when it is nothing the daemon
    /// reads.
    Event {
        /// The workspace it happened in.
        team_id: String,
        /// Slack's id of the event, the same on each retry.
        event_id: String,
        /// What it says.
        events: Vec<Event>,
    },
}

/// The request, its `event` left as text: read once its `type` says which
/// payload it is (an internally tagged enum would buffer the whole event).
#[derive(Debug, Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    challenge: Option<String>,
    #[serde(default)]
    team_id: Option<String>,
    #[serde(default)]
    event_id: Option<String>,
    #[serde(default)]
    event_time: Option<i64>,
    #[serde(default, borrow)]
    event: Option<&'a RawValue>,
    /// The installation the event is visible to: for a bot token, the
    /// app's bot user (`is_bot`).
    #[serde(default)]
    authorizations: Vec<Authorization>,
}

/// One of the envelope's `authorizations`.
#[derive(Debug, Deserialize)]
struct Authorization {
    #[serde(default)]
    user_id: Option<String>,
    #[serde(default)]
    is_bot: bool,
}

/// `channel_archive` / `group_archive`.
#[derive(Debug, Deserialize)]
struct ChannelArchive {
    channel: String,
    user: String,
}

/// `channel_deleted` / `group_deleted`.
#[derive(Debug, Deserialize)]
struct ChannelDeleted {
    channel: String,
}

/// An event's `type`, read before the event itself.
#[derive(Debug, Deserialize)]
struct EventHead<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
}

/// A `message` event, or the `message` inside a `message_changed`.
#[derive(Debug, Deserialize)]
struct MessagePayload {
    /// Absent on the inner message of `message_changed`, which takes the
    /// outer one's.
    #[serde(default)]
    channel: Option<String>,
    /// Absent for bot and system messages, which carry a subtype.
    #[serde(default)]
    user: Option<String>,
    #[serde(default)]
    subtype: Option<String>,
    #[serde(default)]
    bot_id: Option<String>,
    /// The message's id within its channel.
    #[serde(default)]
    ts: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    thread_ts: Option<String>,
    #[serde(default)]
    files: Vec<File>,
    /// `message_changed`: the new version.
    #[serde(default)]
    message: Option<Box<MessagePayload>>,
    /// `message_deleted`: the deleted message's `ts`.
    #[serde(default)]
    deleted_ts: Option<String>,
}

#[derive(Debug, Deserialize)]
struct File {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    url_private: Option<String>,
}

#[derive(Debug, Deserialize)]
struct MemberJoinedChannel {
    user: String,
    channel: String,
}

#[derive(Debug, Deserialize)]
struct TeamJoin {
    user: SlackUser,
}

/// A user object (`team_join`, `user_change`: slack-web-openapi.json's
/// `objs_user`), its names kept whole for [`SlackUser::shown_name`].
#[derive(Debug, Deserialize)]
struct SlackUser {
    id: String,
    #[serde(default)]
    is_bot: bool,
    #[serde(flatten)]
    rest: serde_json::Value,
}

impl SlackUser {
    /// The name Slack shows: the profile's `display_name` when set, else
    /// its `real_name` (`objs_user_profile` requires both, either may be
    /// empty), else the user's `real_name` (optional), else `name` (the
    /// username, required).
    fn shown_name(&self) -> Option<String> {
        crate::platform::slack::shown_name(&self.rest)
    }
}

/// `user_change`: the member's user object.
#[derive(Debug, Deserialize)]
struct UserChange {
    user: SlackUser,
}

/// `channel_rename`, `channel_created`: the channel's id and name.
#[derive(Debug, Deserialize)]
struct ChannelNamed {
    channel: ChannelName,
}

#[derive(Debug, Deserialize)]
struct ChannelName {
    id: String,
    name: String,
}

fn missing(field: &str, what: &str) -> PlatformError {
    PlatformError::Invalid(format!(
        "unexpected {what} from Slack: missing field `{field}`"
    ))
}

/// The mentions and links Slack's markup writes into `text`.
fn markup(text: &str) -> (Mentions, Vec<String>) {
    let mut mentions = Mentions::default();
    let mut links = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('>') else { break };
        // `<target|label>`: the label is display text only.
        let target = after[..end].split('|').next().unwrap_or_default();
        if let Some(user) = target.strip_prefix('@') {
            mentions.user_ids.push(user.to_owned());
        } else if let Some(group) = target.strip_prefix("!subteam^") {
            mentions.role_ids.push(group.to_owned());
        } else if matches!(target, "!here" | "!channel" | "!everyone") {
            mentions.everyone = true;
        } else if !target.starts_with('#') && !target.starts_with('!') && target.contains(':') {
            links.push(target.to_owned());
        }
        rest = &after[end + 1..];
    }
    (mentions, links)
}

/// The `message` subtypes that are someone writing, beside none: a
/// member's (files shared with a comment, a thread reply broadcast to the
/// channel, `/me`) or a bot's.
const WRITTEN: [&str; 4] = [
    "file_share",
    "thread_broadcast",
    "me_message",
    "bot_message",
];

impl MessagePayload {
    /// The message, taking `channel` when the payload has none of its own;
    /// `None` for messages the daemon does not read (system subtypes).
    fn into_message(self, channel: Option<&str>, what: &str) -> PlatformResult<Option<Message>> {
        let subtype = self.subtype.as_deref();
        if subtype.is_some_and(|s| !WRITTEN.contains(&s)) {
            return Ok(None);
        }
        let channel_id = self
            .channel
            .or_else(|| channel.map(str::to_owned))
            .ok_or_else(|| missing("channel", what))?;
        let id = self.ts.ok_or_else(|| missing("ts", what))?;
        let is_bot = self.bot_id.is_some() || subtype == Some("bot_message");
        let Some(author) = self.user.or(self.bot_id) else {
            // A member's message always names its user, a bot's its bot.
            return Err(missing("user", what));
        };
        let text = self.text.unwrap_or_default();
        let (mentions, links) = markup(&text);
        Ok(Some(Message {
            id,
            channel_id,
            author: Author {
                id: author,
                is_bot,
                role_ids: Vec::new(),
                display_name: None,
            },
            content: crate::events::non_empty(text),
            links,
            mentions,
            attachments: self
                .files
                .into_iter()
                .map(|f| Attachment {
                    file_name: f.name,
                    url: f.url_private,
                })
                .collect(),
            reply_to: self.thread_ts,
        }))
    }
}

/// An interactivity payload (the `payload` field of the form Slack posts
/// to the app's interactivity request URL), the fields a button press
/// needs: `type` `block_actions`, `team.id`, `user.id`, the pressed
/// `actions` (`action_id`, `action_ts`), the message's `container` and the
/// `trigger_id` (to open a modal with); a `view_submission` carries the
/// modal's `view` instead of actions.
#[derive(Debug, Deserialize)]
struct InteractionPayload {
    #[serde(rename = "type")]
    kind: String,
    team: Option<IdOnly>,
    user: Option<IdOnly>,
    #[serde(default)]
    actions: Vec<ActionPayload>,
    #[serde(default)]
    container: Option<Container>,
    #[serde(default)]
    trigger_id: Option<String>,
    #[serde(default)]
    view: Option<ViewPayload>,
}

/// A submitted modal (Slack's "view_submission" payload): the
/// `callback_id` the app gave it and `state.values`, each input block's
/// elements by `block_id`, then `action_id`, their `value` what the member
/// typed (`null` for an empty optional field).
#[derive(Debug, Deserialize)]
struct ViewPayload {
    callback_id: Option<String>,
    state: Option<ViewState>,
}

#[derive(Debug, Deserialize)]
struct ViewState {
    values: std::collections::BTreeMap<String, std::collections::BTreeMap<String, InputValue>>,
}

#[derive(Debug, Deserialize)]
struct InputValue {
    #[serde(default)]
    value: Option<String>,
}

#[derive(Debug, Deserialize)]
struct IdOnly {
    id: String,
}

#[derive(Debug, Deserialize)]
struct ActionPayload {
    action_id: String,
    action_ts: String,
}

#[derive(Debug, Deserialize)]
struct Container {
    #[serde(default)]
    channel_id: Option<String>,
    #[serde(default)]
    message_ts: Option<String>,
}

/// The team an interactivity payload names, read before it is verified,
/// only to find the signing secrets to verify it with.
pub fn interaction_team(payload: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Team {
        team: Option<IdOnly>,
    }
    serde_json::from_slice::<Team>(payload)
        .ok()?
        .team
        .map(|t| t.id)
}

/// A verified interactivity payload: its team and one [`ButtonPress`] per
/// pressed action (`block_actions`, its time the action's `action_ts`), or
/// one [`EventKind::FormSubmitted`] (`view_submission`, which carries no
/// time: `received`, the daemon's); `None` for any other type (a shortcut,
/// a modal closed, ...). A submission's fields are its inputs by
/// `action_id`, and its reply a [`ViewAnswer`] nobody waits on until the
/// request handler puts its own in.
pub fn decode_interaction(
    payload: &[u8],
    received: Timestamp,
) -> PlatformResult<Option<(String, Vec<Event>)>> {
    const WHAT: &str = "interactivity payload";
    let p: InteractionPayload = typed(payload, &format_args!("{WHAT} from Slack"))?;
    if p.kind != "block_actions" && p.kind != "view_submission" {
        return Ok(None);
    }
    let team = p.team.ok_or_else(|| missing("team", WHAT))?.id;
    let user = p.user.ok_or_else(|| missing("user", WHAT))?.id;
    if p.kind == "view_submission" {
        const VIEW: &str = "view_submission payload";
        let view = p.view.ok_or_else(|| missing("view", VIEW))?;
        let custom_id = view
            .callback_id
            .ok_or_else(|| missing("view.callback_id", VIEW))?;
        let state = view.state.ok_or_else(|| missing("view.state", VIEW))?;
        let fields = state
            .values
            .into_values()
            .flatten()
            .map(|(action_id, input)| (action_id, input.value.unwrap_or_default()))
            .collect();
        let event = Event {
            platform: Platform::Slack,
            server_id: team.as_str().into(),
            at: received,
            // Each submission is the member's own try (a wrong code is
            // answered and the same view sent again): none is a repeat.
            id: None,
            kind: EventKind::FormSubmitted(FormSubmit {
                user_id: user,
                custom_id,
                fields,
                reply: PressReply::SlackView(ViewAnswer::default()),
            }),
        };
        return Ok(Some((team, vec![event])));
    }
    let (channel_id, message_id) = p
        .container
        .map(|c| (c.channel_id, c.message_ts))
        .unwrap_or_default();
    let mut events = Vec::new();
    for action in p.actions {
        let seconds = action
            .action_ts
            .split('.')
            .next()
            .and_then(|s| s.parse::<i64>().ok())
            .and_then(|s| Timestamp::from_second(s).ok())
            .ok_or_else(|| {
                PlatformError::Invalid(format!(
                    "unexpected {WHAT} from Slack: action_ts {:?} is not a time",
                    action.action_ts
                ))
            })?;
        events.push(Event {
            platform: Platform::Slack,
            server_id: team.as_str().into(),
            at: seconds,
            id: Some(format!("slack:action:{user}:{}", action.action_ts)),
            kind: EventKind::ButtonPressed(ButtonPress {
                user_id: user.clone(),
                custom_id: action.action_id,
                channel_id: channel_id.clone(),
                message_id: message_id.clone(),
                reply: PressReply::Slack {
                    trigger_id: p.trigger_id.clone(),
                },
            }),
        });
    }
    Ok(Some((team, events)))
}

/// Decodes a verified request body.
pub fn decode(body: &[u8]) -> PlatformResult<Option<Request>> {
    const WHAT: &str = "Events API request";
    let envelope: Envelope<'_> = typed(body, &format_args!("{WHAT} from Slack"))?;
    match &*envelope.kind {
        "url_verification" => {
            let challenge = envelope
                .challenge
                .ok_or_else(|| missing("challenge", WHAT))?;
            return Ok(Some(Request::UrlVerification { challenge }));
        }
        "event_callback" => {}
        _ => return Ok(None),
    }
    let team_id = envelope.team_id.ok_or_else(|| missing("team_id", WHAT))?;
    let event_id = envelope.event_id.ok_or_else(|| missing("event_id", WHAT))?;
    let event_time = envelope
        .event_time
        .ok_or_else(|| missing("event_time", WHAT))?;
    let event = envelope
        .event
        .ok_or_else(|| missing("event", WHAT))?
        .get()
        .as_bytes();
    let at = Timestamp::from_second(event_time).map_err(|_| {
        PlatformError::Invalid(format!(
            "unexpected {WHAT} from Slack: event_time {event_time} is not a time"
        ))
    })?;
    let make = |kind| Event {
        platform: Platform::Slack,
        server_id: team_id.as_str().into(),
        at,
        id: Some(format!("slack:{event_id}")),
        kind,
    };
    let head: EventHead<'_> = typed(event, &"event from Slack")?;
    let kind = match &*head.kind {
        "message" => {
            let what = "message event";
            let m: MessagePayload = typed(event, &"message event from Slack")?;
            match m.subtype.as_deref() {
                Some("message_changed") => {
                    let channel = m.channel.clone();
                    let inner = m.message.ok_or_else(|| missing("message", what))?;
                    inner
                        .into_message(channel.as_deref(), what)?
                        .map(EventKind::MessageEdited)
                }
                Some("message_deleted") => Some(EventKind::MessageDeleted {
                    channel_id: m.channel.ok_or_else(|| missing("channel", what))?,
                    message_id: m.deleted_ts.ok_or_else(|| missing("deleted_ts", what))?,
                }),
                _ => m.into_message(None, what)?.map(EventKind::MessageCreated),
            }
        }
        "member_joined_channel" => {
            let m: MemberJoinedChannel = typed(event, &"member_joined_channel event from Slack")?;
            Some(EventKind::MemberJoined(Membership {
                member: MemberRef {
                    id: m.user,
                    is_bot: false,
                    display_name: None,
                },
                channel_id: Some(m.channel),
                pending: false,
            }))
        }
        "team_join" => {
            let m: TeamJoin = typed(event, &"team_join event from Slack")?;
            Some(EventKind::MemberJoined(Membership {
                member: MemberRef {
                    display_name: m.user.shown_name(),
                    id: m.user.id,
                    is_bot: m.user.is_bot,
                },
                channel_id: None,
                pending: false,
            }))
        }
        "user_change" => {
            let m: UserChange = typed(event, &"user_change event from Slack")?;
            m.user.shown_name().map(|name| {
                EventKind::NamesSeen(vec![NameSeen {
                    kind: NameKind::User,
                    id: m.user.id,
                    name,
                }])
            })
        }
        // `group_rename` ("A private channel was renamed", Events API
        // reference) has `channel_rename`'s shape.
        "channel_rename" | "channel_created" | "group_rename" => {
            let m: ChannelNamed = typed(event, &format_args!("{} event from Slack", head.kind))?;
            Some(EventKind::NamesSeen(vec![NameSeen {
                kind: NameKind::Channel,
                id: m.channel.id,
                name: m.channel.name,
            }]))
        }
        "channel_archive" | "group_archive" => {
            let m: ChannelArchive = typed(event, &format_args!("{} event from Slack", head.kind))?;
            let by_bot = envelope
                .authorizations
                .iter()
                .any(|a| a.is_bot && a.user_id.as_deref() == Some(m.user.as_str()));
            (!by_bot).then(|| {
                EventKind::AuditLogEntry(AuditEntry {
                    id: event_id.clone(),
                    action: AuditAction::ChannelArchived,
                    executor_id: Some(m.user),
                    target_id: Some(m.channel),
                    reason: None,
                })
            })
        }
        "channel_deleted" | "group_deleted" => {
            let m: ChannelDeleted = typed(event, &format_args!("{} event from Slack", head.kind))?;
            Some(EventKind::AuditLogEntry(AuditEntry {
                id: event_id.clone(),
                action: AuditAction::ChannelDeleted,
                executor_id: None,
                target_id: Some(m.channel),
                reason: None,
            }))
        }
        _ => None,
    };
    Ok(Some(Request::Event {
        events: kind.map(make).into_iter().collect(),
        team_id,
        event_id,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn callback(event: Value) -> Vec<u8> {
        json!({"token": "XXYYZZ", "team_id": "T1", "api_app_id": "A1",
               "type": "event_callback", "event_id": "Ev1", "event_time": 1_531_420_600,
               "event": event})
        .to_string()
        .into_bytes()
    }

    fn events(event: Value) -> Vec<Event> {
        match decode(&callback(event.clone())).unwrap() {
            Some(Request::Event { events, .. }) => events,
            other => panic!("{event}: {other:?}"),
        }
    }

    fn kind(event: Value) -> Option<EventKind> {
        events(event).into_iter().next().map(|e| e.kind)
    }

    #[test]
    fn challenges_and_other_requests() {
        let challenge = json!({"type": "url_verification", "token": "t", "challenge": "abc"});
        assert_eq!(
            decode(challenge.to_string().as_bytes()).unwrap(),
            Some(Request::UrlVerification {
                challenge: "abc".into()
            })
        );
        let other = json!({"type": "app_rate_limited", "team_id": "T1"});
        assert_eq!(decode(other.to_string().as_bytes()).unwrap(), None);
    }

    #[test]
    fn a_message_with_markup_is_read_whole() {
        // The `message` event of the Events API reference, with markup.
        let event = json!({"type": "message", "channel": "C2147483705", "user": "U2147483697",
            "text": "Hello <@U0G9QF9C6> and <!subteam^SAZ94GDB8>, <!here>: see <https://example.com/a|this> or <#C1|general>",
            "ts": "1355517523.000005", "thread_ts": "1355517500.000001",
            "files": [{"id": "F1", "name": "notes.txt", "url_private": "https://files.slack.com/notes.txt"}]});
        let decoded = events(event);
        assert_eq!(decoded.len(), 1);
        let e = &decoded[0];
        assert_eq!(
            (&*e.server_id, e.id.as_deref(), e.at.as_second(), e.platform),
            ("T1", Some("slack:Ev1"), 1_531_420_600, Platform::Slack)
        );
        let EventKind::MessageCreated(m) = &e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(
            (m.id.as_str(), m.channel_id.as_str(), m.author.id.as_str()),
            ("1355517523.000005", "C2147483705", "U2147483697")
        );
        assert!(!m.author.is_bot);
        assert_eq!(
            m.mentions,
            Mentions {
                user_ids: vec!["U0G9QF9C6".into()],
                usernames: vec![],
                role_ids: vec!["SAZ94GDB8".into()],
                everyone: true
            }
        );
        assert_eq!(m.links, ["https://example.com/a"]);
        assert_eq!(m.reply_to.as_deref(), Some("1355517500.000001"));
        assert_eq!(m.attachments[0].file_name.as_deref(), Some("notes.txt"));
    }

    #[test]
    fn subtypes_bots_edits_and_deletes() {
        let bot = json!({"type": "message", "subtype": "bot_message", "channel": "C1",
                         "bot_id": "B1", "text": "beep", "ts": "1.1"});
        assert!(
            matches!(kind(bot), Some(EventKind::MessageCreated(m)) if m.author.is_bot && m.author.id == "B1")
        );
        let app = json!({"type": "message", "channel": "C1", "user": "U1", "bot_id": "B1",
                         "text": "x", "ts": "1.2"});
        assert!(
            matches!(kind(app), Some(EventKind::MessageCreated(m)) if m.author.is_bot && m.author.id == "U1")
        );
        // Slack's `message_changed` example.
        let changed = json!({"type": "message", "subtype": "message_changed", "hidden": true,
            "channel": "C1", "ts": "1358878755.000001", "event_ts": "1358878755.000001",
            "message": {"type": "message", "user": "U1", "text": "Hello, world!",
                        "ts": "1358878749.000002", "edited": {"user": "U1", "ts": "1358878755.000001"}}});
        assert!(matches!(kind(changed), Some(EventKind::MessageEdited(m))
            if m.channel_id == "C1" && m.id == "1358878749.000002" && m.content.as_deref() == Some("Hello, world!")));
        let deleted = json!({"type": "message", "subtype": "message_deleted", "hidden": true,
            "channel": "C1", "ts": "1358878755.000001", "deleted_ts": "1358878749.000002"});
        assert_eq!(
            kind(deleted),
            Some(EventKind::MessageDeleted {
                channel_id: "C1".into(),
                message_id: "1358878749.000002".into()
            })
        );
        for ignored in [
            json!({"type": "message", "channel": "C1", "user": "U1", "subtype": "channel_join", "ts": "1.3"}),
            json!({"type": "reaction_added", "user": "U1"}),
        ] {
            assert_eq!(kind(ignored.clone()), None, "{ignored}");
        }
    }

    /// Every subtype the decoder meets, and what it makes of it: a member's
    /// or a bot's message created (with the text and files it carries), an
    /// edit, a deletion, or nothing (Slack speaking, not a member). Shapes
    /// from the message event reference's subtypes (file_share,
    /// thread_broadcast, me_message, bot_message, channel_join, ...).
    #[test]
    fn each_subtype_is_read_as_what_it_is() {
        #[derive(Debug, PartialEq)]
        enum Made {
            Created {
                bot: bool,
                text: Option<&'static str>,
                files: usize,
            },
            Edited,
            Deleted,
            Nothing,
        }
        let base = |subtype: &str, extra: Value| {
            let mut e = json!({"type": "message", "subtype": subtype, "channel": "C1",
                               "user": "U1", "text": "buy at discord.gg/x", "ts": "1.5"});
            e.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            e
        };
        let file = json!({"id": "F1", "name": "scam.txt", "mode": "hosted",
                          "url_private": "https://files.slack.com/files-pri/T1-F1/scam.txt"});
        let cases = [
            (
                base(
                    "file_share",
                    json!({"files": [file], "upload": true, "display_as_bot": false}),
                ),
                Made::Created {
                    bot: false,
                    text: Some("buy at discord.gg/x"),
                    files: 1,
                },
            ),
            (
                base(
                    "thread_broadcast",
                    json!({"thread_ts": "1.1",
                     "root": {"text": "parent", "user": "U2", "ts": "1.1"}}),
                ),
                Made::Created {
                    bot: false,
                    text: Some("buy at discord.gg/x"),
                    files: 0,
                },
            ),
            (
                base("me_message", json!({})),
                Made::Created {
                    bot: false,
                    text: Some("buy at discord.gg/x"),
                    files: 0,
                },
            ),
            (
                base("bot_message", json!({"bot_id": "B1"})),
                Made::Created {
                    bot: true,
                    text: Some("buy at discord.gg/x"),
                    files: 0,
                },
            ),
            (
                json!({"type": "message", "subtype": "message_changed", "channel": "C1",
                       "message": {"type": "message", "subtype": "thread_broadcast", "user": "U1",
                                   "text": "new", "ts": "1.5"}}),
                Made::Edited,
            ),
            (
                json!({"type": "message", "subtype": "message_deleted", "channel": "C1",
                       "deleted_ts": "1.5"}),
                Made::Deleted,
            ),
            (
                json!({"type": "message", "subtype": "message_changed", "channel": "C1",
                       "message": {"type": "message", "subtype": "tombstone", "user": "USLACKBOT",
                                   "text": "This message was deleted.", "ts": "1.5"}}),
                Made::Nothing,
            ),
        ]
        .into_iter()
        .chain(
            [
                "channel_join",
                "channel_leave",
                "channel_topic",
                "channel_purpose",
                "channel_name",
                "channel_archive",
                "channel_unarchive",
                "pinned_item",
                "ekm_access_denied",
                "message_replied",
                "tombstone",
                "some_future_subtype",
            ]
            .map(|subtype| (base(subtype, json!({})), Made::Nothing)),
        );
        for (event, want) in cases {
            let made = match kind(event.clone()) {
                Some(EventKind::MessageCreated(m)) => Made::Created {
                    bot: m.author.is_bot,
                    text: m.content.map(|t| &*t.leak()),
                    files: m.attachments.len(),
                },
                Some(EventKind::MessageEdited(_)) => Made::Edited,
                Some(EventKind::MessageDeleted { .. }) => Made::Deleted,
                None => Made::Nothing,
                Some(other) => panic!("{other:?}"),
            };
            assert_eq!(made, want, "{event}");
        }
        // A file shared is the member's message, its file an attachment.
        let shared = base(
            "file_share",
            json!({"files": [{"name": "a.png",
            "url_private": "https://files.slack.com/a.png"}]}),
        );
        let Some(EventKind::MessageCreated(m)) = kind(shared) else {
            panic!()
        };
        assert_eq!(
            (m.author.id.as_str(), m.attachments[0].file_name.as_deref()),
            ("U1", Some("a.png"))
        );
    }

    #[test]
    fn joins_of_a_channel_and_of_the_workspace() {
        let joined = json!({"type": "member_joined_channel", "user": "U2", "channel": "C1",
                            "channel_type": "C", "team": "T1"});
        assert!(matches!(kind(joined), Some(EventKind::MemberJoined(m))
            if m.member.id == "U2" && m.channel_id.as_deref() == Some("C1")));
        let team =
            json!({"type": "team_join", "user": {"id": "U3", "is_bot": true, "real_name": "Bot"}});
        assert!(matches!(kind(team), Some(EventKind::MemberJoined(m))
            if m.member.is_bot && m.channel_id.is_none()));
        // The name as Slack shows it: the display name before the real name.
        let named = json!({"type": "team_join", "user": {"id": "U4", "name": "nn",
            "real_name": "Nina N", "profile": {"display_name": "Nina", "real_name": "Nina N"}}});
        assert!(matches!(kind(named), Some(EventKind::MemberJoined(m))
            if m.member.display_name.as_deref() == Some("Nina")));
    }

    #[test]
    fn profile_changes_and_channel_renames_give_names() {
        let named = |event: Value| match kind(event) {
            Some(EventKind::NamesSeen(names)) => names
                .into_iter()
                .map(|n| (n.kind, n.id, n.name))
                .collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        for (user, shown) in [
            (
                json!({"id": "U1", "name": "ada", "real_name": "Ada L", "profile": {"display_name": "Ada"}}),
                "Ada",
            ),
            (
                json!({"id": "U1", "name": "ada", "real_name": "Ada L", "profile": {"display_name": ""}}),
                "Ada L",
            ),
            (json!({"id": "U1", "name": "ada"}), "ada"),
            // The profile's real name when the user object has none at its
            // top (`objs_user.real_name` is optional, the profile's required).
            (
                json!({"id": "U1", "name": "ada", "profile": {"display_name": "", "real_name": "Ada Prof"}}),
                "Ada Prof",
            ),
        ] {
            assert_eq!(
                named(json!({"type": "user_change", "user": user})),
                vec![(NameKind::User, "U1".to_owned(), shown.to_owned())]
            );
        }
        assert_eq!(
            kind(json!({"type": "user_change", "user": {"id": "U1"}})),
            None
        );
        assert_eq!(
            named(
                json!({"type": "channel_rename", "channel": {"id": "C1", "name": "general", "created": 1}})
            ),
            vec![(NameKind::Channel, "C1".to_owned(), "general".to_owned())]
        );
        assert_eq!(
            named(
                json!({"type": "group_rename", "channel": {"id": "G1", "name": "staff", "created": 1}})
            ),
            vec![(NameKind::Channel, "G1".to_owned(), "staff".to_owned())]
        );
    }

    #[test]
    fn archives_and_deletions_are_audit_entries_the_bot_s_own_archives_none() {
        let entry = |event: Value, bot: &str| {
            let mut body: Value = serde_json::from_slice(&callback(event)).unwrap();
            body["authorizations"] =
                json!([{"enterprise_id": null, "team_id": "T1", "user_id": bot, "is_bot": true}]);
            match decode(body.to_string().as_bytes()).unwrap() {
                Some(Request::Event { events, .. }) => {
                    events.into_iter().next().map(|e| match e.kind {
                        EventKind::AuditLogEntry(entry) => entry,
                        other => panic!("{other:?}"),
                    })
                }
                other => panic!("{other:?}"),
            }
        };
        for kind in ["channel_archive", "group_archive"] {
            let archived = json!({"type": kind, "channel": "C1", "user": "U1"});
            let got = entry(archived.clone(), "UBOT").unwrap();
            assert_eq!(
                (
                    got.action,
                    got.executor_id.as_deref(),
                    got.target_id.as_deref()
                ),
                (AuditAction::ChannelArchived, Some("U1"), Some("C1")),
                "{kind}"
            );
            assert_eq!(entry(archived, "U1"), None, "{kind} by the bot");
        }
        for kind in ["channel_deleted", "group_deleted"] {
            let got = entry(json!({"type": kind, "channel": "C2"}), "UBOT").unwrap();
            assert_eq!(
                (got.action, got.executor_id, got.target_id.as_deref()),
                (AuditAction::ChannelDeleted, None, Some("C2")),
                "{kind}"
            );
        }
    }

    #[test]
    fn missing_fields_are_refused() {
        for (event, field) in [
            (
                json!({"type": "message", "user": "U1", "ts": "1.1"}),
                "channel",
            ),
            (
                json!({"type": "message", "channel": "C1", "user": "U1"}),
                "ts",
            ),
            (
                json!({"type": "message", "channel": "C1", "ts": "1.1"}),
                "user",
            ),
            (
                json!({"type": "message", "subtype": "message_changed", "channel": "C1"}),
                "message",
            ),
            (
                json!({"type": "message", "subtype": "message_deleted", "channel": "C1"}),
                "deleted_ts",
            ),
            (
                json!({"type": "member_joined_channel", "user": "U1"}),
                "channel",
            ),
            (json!({"type": "channel_archive", "channel": "C1"}), "user"),
            (json!({"type": "channel_deleted"}), "channel"),
        ] {
            let err = decode(&callback(event.clone())).unwrap_err();
            assert!(err.to_string().contains(field), "{event}: {err}");
        }
        let no_id =
            json!({"type": "event_callback", "team_id": "T1", "event_time": 1, "event": {}});
        let err = decode(no_id.to_string().as_bytes()).unwrap_err();
        assert!(err.to_string().contains("event_id"), "{err}");
    }

    fn interaction(payload: &Value) -> PlatformResult<Option<(String, Vec<Event>)>> {
        decode_interaction(
            payload.to_string().as_bytes(),
            Timestamp::from_second(1_700_000_000).unwrap(),
        )
    }

    #[test]
    fn a_press_carries_its_trigger_id() {
        let press = json!({"type": "block_actions", "team": {"id": "T1"}, "user": {"id": "U1"},
            "trigger_id": "13345224609.738474920.8088930838d88f008e0",
            "container": {"channel_id": "D1", "message_ts": "1.2"},
            "actions": [{"action_id": "modctl:captcha:enter", "action_ts": "1700000000.1"}]});
        let (team, events) = interaction(&press).unwrap().unwrap();
        assert_eq!(team, "T1");
        let EventKind::ButtonPressed(p) = &events[0].kind else {
            panic!("{events:?}")
        };
        assert_eq!(p.custom_id, "modctl:captcha:enter");
        assert_eq!(
            p.reply,
            PressReply::Slack {
                trigger_id: Some("13345224609.738474920.8088930838d88f008e0".into())
            }
        );
    }

    #[test]
    fn a_view_submission_is_a_form_sent() {
        let submitted = json!({"type": "view_submission", "team": {"id": "T1"},
            "user": {"id": "U1"}, "trigger_id": "1.2.3",
            "view": {"id": "V1", "callback_id": "modctl:captcha:answer",
                     "state": {"values": {"code": {"code": {"type": "plain_text_input", "value": "12345"}},
                                          "other": {"note": {"type": "plain_text_input", "value": null}}}}}});
        let (team, events) = interaction(&submitted).unwrap().unwrap();
        assert_eq!(team, "T1");
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].id, None);
        let EventKind::FormSubmitted(form) = &events[0].kind else {
            panic!("{events:?}")
        };
        assert_eq!(form.user_id, "U1");
        assert_eq!(form.custom_id, "modctl:captcha:answer");
        assert_eq!(
            form.fields,
            vec![
                ("code".to_owned(), "12345".to_owned()),
                ("note".to_owned(), String::new())
            ]
        );
        assert!(matches!(form.reply, PressReply::SlackView(_)));
    }

    #[test]
    fn a_view_submission_missing_a_field_is_refused_and_others_are_ignored() {
        let whole = json!({"type": "view_submission", "team": {"id": "T1"},
            "user": {"id": "U1"},
            "view": {"callback_id": "c", "state": {"values": {}}}});
        assert!(interaction(&whole).unwrap().is_some());
        for (path, field) in [
            ("/team", "team"),
            ("/user", "user"),
            ("/view", "view"),
            ("/view/callback_id", "view.callback_id"),
            ("/view/state", "view.state"),
        ] {
            let mut p = whole.clone();
            let (parent, key) = path.rsplit_once('/').unwrap();
            p.pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .unwrap()
                .remove(key);
            let err = interaction(&p).unwrap_err();
            assert!(err.to_string().contains(field), "{path}: {err}");
        }
        let closed = json!({"type": "view_closed", "team": {"id": "T1"}, "user": {"id": "U1"}});
        assert_eq!(interaction(&closed).unwrap(), None);
    }
}
