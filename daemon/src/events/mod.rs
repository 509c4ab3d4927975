//! One event path (issue #25): what members do on any platform, decoded into
//! one platform-neutral model and handed to every consumer.
//!
//! Three layers, each ignorant of the others' insides:
//!
//! - **transports** ([`crate::receive`]): the Discord gateway session, the
//!   Telegram poller, the `/hooks` endpoints. They keep connections alive,
//!   verify what the platforms post, remember offsets, and hand raw payloads
//!   to the decoders;
//! - **decoding** ([`decode`]): pure functions from each platform's payloads
//!   (twilight-model's types for Discord, typed structs for Slack's Events
//!   API and Telegram's Bot API) into [`Event`]s. A required field missing
//!   is an error for that payload alone, never a silent zero or empty id;
//! - **consumers** ([`fanout`]): the activity counts
//!   ([`crate::activity::events`]) and, later, the automation layer. Each has
//!   its own bounded queue and task, so one that falls behind never blocks
//!   the transport or the others; what a full queue drops is counted per
//!   consumer and shown in onboarding.
//!
//! The model keeps ids as strings, like the rest of the daemon, and says
//! only what the platforms say: `content` is `None` when the platform did not
//! give the text (Discord without the message-content intent), never a guess.
//! New kinds (interactions, audit log entries) are added as variants of
//! [`EventKind`], which is `#[non_exhaustive]` so consumers keep a `_` arm.

pub mod decode;
pub mod fanout;

use std::sync::Arc;

use modctl_types::{Platform, Timestamp};

pub use fanout::{Consumer, Fanout};

/// Something that happened on a server, as the platform told it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The platform it came from.
    pub platform: Platform,
    /// The server (Discord guild, Slack workspace, Telegram group) it
    /// happened in. A Telegram decoder gives the chat id; the transport
    /// routes it to the group's server id before publishing.
    pub server_id: Arc<str>,
    /// When it happened: the platform's time where it gives one (Slack's
    /// `event_time`, Telegram's `date`/`edit_date`), else when the daemon
    /// received it (Discord's gateway dispatches).
    pub at: Timestamp,
    /// A key that is the same each time the platform delivers this event
    /// again and differs between events (Slack's `event_id`, a Telegram or
    /// Discord message id with what happened to it), so a consumer counts or
    /// acts once per event; `None` when the platform gives nothing stable
    /// (Discord's joins, leaves and voice states).
    pub id: Option<String>,
    /// What happened.
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EventKind {
    /// A message was posted.
    MessageCreated(Message),
    /// A message was edited: its new version. Consumers that need the
    /// previous content keep it themselves (the platforms do not all send it).
    MessageEdited(Message),
    /// A message was deleted (a bulk delete is one event per message).
    MessageDeleted {
        /// Where it was.
        channel_id: String,
        /// The platform's id of the message.
        message_id: String,
    },
    /// A member joined the server, or (Slack `member_joined_channel`) a
    /// channel of it.
    MemberJoined(Membership),
    /// A member left the server (or was removed).
    MemberLeft(Membership),
    /// A member's voice state changed (Discord): in a voice channel, or in
    /// none.
    VoiceChanged(VoiceState),
    /// Who is in voice now, as a guild becomes available at the start of a
    /// gateway session (Discord `GUILD_CREATE`); bots left out.
    VoiceSnapshot(Vec<VoiceState>),
    /// Discord's native AutoMod acted on a member
    /// (`AUTO_MODERATION_ACTION_EXECUTION`).
    AutoModAction(AutoModAction),
    /// A member's state changed (Discord `GUILD_MEMBER_UPDATE`): their
    /// roles, and whether they still have membership screening to pass.
    MemberUpdated(MemberUpdate),
    /// Someone changed the server's structure or membership, as its audit
    /// log tells it (Discord `GUILD_AUDIT_LOG_ENTRY_CREATE`), or as the
    /// platforms without an audit log event tell it (Telegram `chat_member`
    /// bans, Slack `channel_archive` and `channel_deleted`): what antinuke
    /// counts (issue #26).
    AuditLogEntry(AuditEntry),
    /// A member pressed one of the bot's buttons (Discord's message
    /// component interaction, Telegram's `callback_query`, Slack's
    /// `block_actions`): issue #26's verification.
    ButtonPressed(ButtonPress),
    /// A gateway session reports on the guild from now (Discord
    /// `GUILD_CREATE`), or the guild changed (`GUILD_UPDATE`, e.g. its
    /// ownership transferred): its owner and roles, as sent.
    GuildChanged(GuildState),
    /// A role was created or changed (Discord `GUILD_ROLE_CREATE`,
    /// `GUILD_ROLE_UPDATE`).
    RoleChanged(crate::platform::Role),
    /// A role was deleted (Discord `GUILD_ROLE_DELETE`): its id.
    RoleRemoved(String),
    /// A member sent a form the bot showed them (Discord's modal,
    /// `MODAL_SUBMIT`; Slack's modal, `view_submission`): issue #26's
    /// captcha answer.
    FormSubmitted(FormSubmit),
    /// Names of members, channels and roles the platform gave beside
    /// another dispatch (Discord `GUILD_CREATE`'s channels, roles and
    /// members, `CHANNEL_CREATE`/`CHANNEL_UPDATE`): what the name cache
    /// (`crate::names`) learns besides the authors and members of the other
    /// events (issue #27). Never empty.
    NamesSeen(Vec<NameSeen>),
}

/// What a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NameKind {
    /// A member (user).
    User,
    /// A channel (Telegram: the group itself).
    Channel,
    /// A role (Slack: a user group).
    Role,
}

/// One name as the platform gave it: untrusted text, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameSeen {
    /// What it names.
    pub kind: NameKind,
    /// The platform's id of it.
    pub id: String,
    /// Its name.
    pub name: String,
}

/// A guild as `GUILD_CREATE` or `GUILD_UPDATE` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuildState {
    /// Whether a session starts reporting on it (`GUILD_CREATE`).
    pub session_start: bool,
    /// Its owner's and roles, when the dispatch carries them.
    pub whole: Option<(String, Vec<crate::platform::Role>)>,
}

/// A form sent: its fields, by the ids the bot gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormSubmit {
    /// Who sent it.
    pub user_id: String,
    /// The form's `custom_id`, as the bot set it.
    pub custom_id: String,
    /// Each text field: (its `custom_id`, what the member typed).
    pub fields: Vec<(String, String)>,
    /// How it is answered (Discord's interaction callback).
    pub reply: PressReply,
}

/// A member as `GUILD_MEMBER_UPDATE` gives them now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberUpdate {
    /// The member.
    pub member: MemberRef,
    /// Whether they have not yet passed the guild's membership screening
    /// (discord-docs/guild.mdx: "When the member completes the screening,
    /// Guild Member Update will be emitted and `pending` will be false").
    pub pending: bool,
    /// Their role ids now.
    pub role_ids: Vec<String>,
}

/// One audit log entry: who did what to what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// The platform's id of the entry.
    pub id: String,
    /// What was done.
    pub action: AuditAction,
    /// Who did it (`None`: the platform did not say).
    pub executor_id: Option<String>,
    /// What it was done to (a channel, role, member, webhook), when given.
    pub target_id: Option<String>,
    /// The reason given with it, if any.
    pub reason: Option<String>,
}

/// What an audit log entry records, as far as antinuke reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditAction {
    /// A channel was deleted.
    ChannelDeleted,
    /// A role was deleted.
    RoleDeleted,
    /// A member was banned.
    MemberBanned,
    /// A member was kicked.
    MemberKicked,
    /// Members were pruned.
    MembersPruned,
    /// A webhook was created.
    WebhookCreated,
    /// A bot was added.
    BotAdded,
    /// A member was given roles (their ids).
    RolesGranted(Vec<String>),
    /// A role was created or changed with permission bits it did not have.
    PermissionsGranted {
        /// The bits it has now and did not have before (a new role had
        /// none).
        granted: u64,
        /// Its bits before the change (`None`: the role was created, or the
        /// entry did not say): what antinuke puts back.
        before: Option<u64>,
        /// Its bits after the change (`None`: the entry did not say).
        after: Option<u64>,
    },
    /// A channel was archived (Slack, whose archive is the usual way to
    /// take a channel away: deleting needs an admin).
    ChannelArchived,
    /// Anything else (the platform's number for it).
    Other(u16),
}

/// A message, as the platform gave it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Message {
    /// The platform's id of the message (Discord snowflake, Slack `ts`,
    /// Telegram `message_id`).
    pub id: String,
    /// The channel it is in (Telegram: the forum topic when the message is in
    /// one, else the group).
    pub channel_id: String,
    /// Who wrote it.
    pub author: Author,
    /// Its text; `None` when the platform did not give any (Discord without
    /// the message-content intent sends `""`, which cannot be told from a
    /// message without text: both are `None`).
    pub content: Option<String>,
    /// Links the platform gives apart from the text (Telegram `url` and
    /// `text_link` entities, Slack's `<url|label>` markup); links written in
    /// plain text without such markup are for the consumer to find.
    pub links: Vec<String>,
    /// Who and what it mentions.
    pub mentions: Mentions,
    /// Files attached to it.
    pub attachments: Vec<Attachment>,
    /// The message it replies to, or the thread it is in, when the platform
    /// says (Discord `message_reference`, Slack `thread_ts`, Telegram
    /// `reply_to_message`).
    pub reply_to: Option<String>,
}

/// A message's author.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Author {
    /// The platform's user id (Slack: the `bot_id` for a bot without a user).
    pub id: String,
    /// A bot, an app, or a webhook: never a member's own words.
    pub is_bot: bool,
    /// The member's role ids where the payload carries them (Discord's
    /// `member.roles`); empty elsewhere.
    pub role_ids: Vec<String>,
    /// The name shown, when the payload gives one.
    pub display_name: Option<String>,
}

/// What a message mentions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mentions {
    /// Users, by id.
    pub user_ids: Vec<String>,
    /// Users the platform names without an id (Telegram `@username`).
    pub usernames: Vec<String>,
    /// Roles or user groups, by id (Discord roles, Slack `<!subteam^ID>`).
    pub role_ids: Vec<String>,
    /// `@everyone`, `@here`, Slack's `<!channel>`.
    pub everyone: bool,
}

/// A file attached to a message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Attachment {
    /// Its name, when given (Telegram photos have none).
    pub file_name: Option<String>,
    /// Where to fetch it, when the platform gives a URL (Telegram gives a
    /// file id instead).
    pub url: Option<String>,
}

/// A member joining or leaving.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Membership {
    /// The member.
    pub member: MemberRef,
    /// The channel, when the platform reports joining a channel rather than
    /// the server (Slack `member_joined_channel`).
    pub channel_id: Option<String>,
    /// Discord: the member joined a guild with membership screening and
    /// has not passed it yet (`pending` of `GUILD_MEMBER_ADD`); always
    /// `false` elsewhere.
    pub pending: bool,
}

/// A member, as far as an event names them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemberRef {
    /// The platform's user id.
    pub id: String,
    /// A bot or app account.
    pub is_bot: bool,
    /// The name shown, when the payload gives one.
    pub display_name: Option<String>,
}

/// A member's voice state: in `channel_id`, or in no voice channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoiceState {
    /// The member.
    pub user_id: String,
    /// The voice channel, `None` when they left voice.
    pub channel_id: Option<String>,
}

/// Discord's native AutoMod acting on a member's message or profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoModAction {
    /// The rule that triggered.
    pub rule_id: String,
    /// The rule's trigger type (Discord's number: 1 keyword, 3 spam,
    /// 4 keyword preset, 5 mention spam, 6 member profile).
    pub trigger_type: u8,
    /// The action taken (Discord's number: 1 block message, 2 send alert,
    /// 3 timeout, 4 block member interaction).
    pub action_type: u8,
    /// The member.
    pub user_id: String,
    /// Where, when it was a message.
    pub channel_id: Option<String>,
    /// The message, unless it was blocked (a blocked message never exists).
    pub message_id: Option<String>,
    /// The keyword or pattern that matched, when given.
    pub matched_keyword: Option<String>,
    /// The text that matched it (empty without the message-content intent:
    /// `None`).
    pub matched_content: Option<String>,
    /// The whole text the member tried to send (`None` likewise).
    pub content: Option<String>,
}

/// A press of one of the bot's buttons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ButtonPress {
    /// Who pressed it.
    pub user_id: String,
    /// What the button names (Discord `custom_id`, Telegram
    /// `callback_data`, Slack the action's `value`), as the bot set it.
    pub custom_id: String,
    /// The channel of the message holding the button, when given.
    pub channel_id: Option<String>,
    /// The message holding the button, when given.
    pub message_id: Option<String>,
    /// How the press is answered.
    pub reply: PressReply,
}

/// How a press is answered, per platform: each one's handle for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressReply {
    /// Discord: the interaction's id and token, for
    /// `POST /interactions/{id}/{token}/callback` (within 3 seconds).
    Discord {
        /// The interaction's id.
        id: String,
        /// Its token (valid 15 minutes).
        token: String,
    },
    /// Telegram: the `callback_query`'s id, for `answerCallbackQuery`.
    Telegram {
        /// The query's id.
        query_id: String,
    },
    /// Slack: answered by the interactivity request's own response; the
    /// member is told by DM. A `block_actions` press carries its
    /// `trigger_id` (a modal can be opened with it for 3 seconds).
    Slack {
        /// The press's `trigger_id`, for `views.open`.
        trigger_id: Option<String>,
    },
    /// Slack: a modal's `view_submission`, answered by the interactivity
    /// request's own response (a field's error, or the modal closed).
    SlackView(ViewAnswer),
}

/// What the consumer of a Slack `view_submission` answers its request
/// with: `Some((block_id, text))` is an error shown under that input block
/// of the modal, `None` closes the modal. The `/hooks/slack/interactions` handler waits
/// for it (Slack gives the response 3 seconds); the first answer is the
/// one sent, and one given too late is refused ([`ViewAnswer::send`]
/// answers `false`) so the consumer tells the member another way.
#[derive(Clone, Default)]
pub struct ViewAnswer(Arc<std::sync::Mutex<Option<tokio::sync::oneshot::Sender<ViewReply>>>>);

/// A `view_submission`'s answer: an input block's id and the error shown
/// under it, or `None` to close the modal.
pub type ViewReply = Option<(String, String)>;

impl ViewAnswer {
    /// An answer and the receiver the request handler waits on.
    pub fn pair() -> (ViewAnswer, tokio::sync::oneshot::Receiver<ViewReply>) {
        let (tx, rx) = tokio::sync::oneshot::channel();
        (ViewAnswer(Arc::new(std::sync::Mutex::new(Some(tx)))), rx)
    }

    /// Answers the request; `false` when nobody waits any more (answered
    /// already, timed out, or an answer made without a request).
    pub fn send(&self, answer: ViewReply) -> bool {
        let sender = self.0.lock().map(|mut s| s.take()).unwrap_or_default();
        sender.is_some_and(|s| s.send(answer).is_ok())
    }
}

impl std::fmt::Debug for ViewAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewAnswer")
    }
}

/// Two answers are the same when they answer the same request.
impl PartialEq for ViewAnswer {
    fn eq(&self, other: &ViewAnswer) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ViewAnswer {}

impl Event {
    /// The same event for another server id (a Telegram chat routed to its
    /// group's server).
    pub fn for_server(mut self, server_id: Arc<str>) -> Event {
        self.server_id = server_id;
        self
    }
}

/// `Some(text)` unless it is empty: the platforms send `""` for "no text".
pub(crate) fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod view_answer_tests {
    use super::*;

    #[test]
    fn a_view_is_answered_once_and_only_while_someone_waits() {
        let (answer, mut waiting) = ViewAnswer::pair();
        let copy = answer.clone();
        assert_eq!(copy, answer, "clones answer the same request");
        assert_ne!(ViewAnswer::default(), answer);
        let error = Some(("code".to_owned(), "Wrong code".to_owned()));
        assert!(copy.send(error.clone()));
        assert!(!answer.send(None), "the first answer is the one sent");
        assert_eq!(waiting.try_recv().unwrap(), error);
        assert!(!ViewAnswer::default().send(None), "nobody waits");
        let (late, waiting) = ViewAnswer::pair();
        drop(waiting);
        assert!(!late.send(None), "the request gave up");
    }
}
