//! A fake Discord gateway: a websocket server on 127.0.0.1 that speaks the
//! gateway protocol (v10, JSON, no compression) as the daemon's session
//! needs it, written from Discord's documentation.
//!
//! - On connect: HELLO (op 10) with the heartbeat interval.
//! - IDENTIFY (op 2): checked against [`super::TOKEN`] (a wrong token is
//!   closed with 4004, as Discord does); then READY with a new session id and
//!   `resume_gateway_url` (this server, under `/resume`, so a test sees that
//!   the client resumed where READY said), then a `GUILD_CREATE` per guild
//!   added with [`FakeGateway::add_guild`].
//! - HEARTBEAT (op 1): answered with a HEARTBEAT ACK (op 11), and counted.
//! - Dispatches pushed by the test ([`FakeGateway::dispatch`]) get the
//!   session's next sequence number and are kept in the session's log.
//! - [`FakeGateway::request_reconnect`] sends RECONNECT (op 7); dispatches
//!   pushed until the client resumes are only logged, as Discord keeps
//!   them for a resume.
//! - [`FakeGateway::drop_connection`] drops the connection without a close
//!   frame, as a network failure does; the client should resume too.
//! - RESUME (op 6): the events after the client's sequence are replayed, then
//!   RESUMED. An unknown session gets INVALID SESSION (op 9, not resumable).
//! - Privileged intents (gateway.mdx "Privileged Intents"): an IDENTIFY
//!   asking for GUILD_PRESENCES (1 << 8), GUILD_MEMBERS (1 << 1) or
//!   MESSAGE_CONTENT (1 << 15) while the application's flags
//!   ([`FakeGateway::set_application_flags`], [`super::GATEWAY_MESSAGE_CONTENT`]
//!   and friends) do not grant it is closed with 4014 "Disallowed
//!   intent(s)" (opcodes-and-status-codes.mdx, "Gateway Close Event Codes":
//!   not reconnectable).
//! - Message content (message.mdx, "Message Object" note [2], and
//!   gateway-events.mdx "Auto Moderation Action Execution"): a session
//!   without MESSAGE_CONTENT gets `MESSAGE_CREATE` and `MESSAGE_UPDATE`
//!   with empty `content`, `embeds`, `attachments` and `components` (and no
//!   `poll`), and `AUTO_MODERATION_ACTION_EXECUTION` with empty `content`
//!   and `matched_content`, whatever the test dispatched. Discord's
//!   exceptions (DMs, messages mentioning the bot) are not modelled.
//!
//! For the bench (issue #25's latency under load): a dispatch pushed with
//! [`FakeGateway::dispatch_timed`] has the instant its frame was written to
//! the socket recorded ([`FakeGateway::written_at`]), and every frame
//! written is counted ([`FakeGateway::frames_written`]). The writer sends
//! what is queued in batches (many frames, one flush), so thousands of
//! dispatches a second reach the client as Discord's would.
//!
//! Like the HTTP fakes it runs on its own thread with its own runtime and
//! stops when dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio_websockets::{CloseCode, Message, ServerBuilder};

use super::super::server::lock;
use super::{
    BOT, DEFAULT_APPLICATION_FLAGS, GATEWAY_GUILD_MEMBERS, GATEWAY_GUILD_MEMBERS_LIMITED,
    GATEWAY_MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT_LIMITED, GATEWAY_PRESENCE,
    GATEWAY_PRESENCE_LIMITED, TOKEN,
};

/// Gateway intents (gateway.mdx "List of Intents").
pub const GUILD_MEMBERS: u64 = 1 << 1;
/// See [`GUILD_MEMBERS`].
pub const GUILD_PRESENCES: u64 = 1 << 8;
/// See [`GUILD_MEMBERS`].
pub const GUILD_MESSAGES: u64 = 1 << 9;
/// See [`GUILD_MEMBERS`].
pub const MESSAGE_CONTENT: u64 = 1 << 15;
/// See [`GUILD_MEMBERS`].
pub const AUTO_MODERATION_EXECUTION: u64 = 1 << 21;
/// See [`GUILD_MEMBERS`]: `GUILD_AUDIT_LOG_ENTRY_CREATE`, bans.
pub const GUILD_MODERATION: u64 = 1 << 2;

/// The privileged intents `intents` asks for that `flags` do not grant.
pub fn disallowed_intents(intents: u64, flags: u64) -> u64 {
    let grants = |full: u64, limited: u64| flags & (full | limited) != 0;
    [
        (
            GUILD_MEMBERS,
            grants(GATEWAY_GUILD_MEMBERS, GATEWAY_GUILD_MEMBERS_LIMITED),
        ),
        (
            GUILD_PRESENCES,
            grants(GATEWAY_PRESENCE, GATEWAY_PRESENCE_LIMITED),
        ),
        (
            MESSAGE_CONTENT,
            grants(GATEWAY_MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT_LIMITED),
        ),
    ]
    .into_iter()
    .filter(|(intent, granted)| intents & intent != 0 && !granted)
    .fold(0, |missing, (intent, _)| missing | intent)
}

/// `d` as a session with `intents` under application `flags` receives
/// dispatch `name`: without the message-content intent (or its grant),
/// the content fields emptied.
pub fn as_received(name: &str, mut d: Value, intents: u64, flags: u64) -> Value {
    let has_content = intents & MESSAGE_CONTENT != 0
        && flags & (GATEWAY_MESSAGE_CONTENT | GATEWAY_MESSAGE_CONTENT_LIMITED) != 0;
    if has_content {
        return d;
    }
    match name {
        "MESSAGE_CREATE" | "MESSAGE_UPDATE" => {
            if let Some(fields) = d.as_object_mut() {
                fields.insert("content".to_owned(), json!(""));
                for list in ["embeds", "attachments", "components"] {
                    fields.insert(list.to_owned(), json!([]));
                }
                fields.remove("poll");
            }
        }
        "AUTO_MODERATION_ACTION_EXECUTION" => {
            if let Some(fields) = d.as_object_mut() {
                fields.insert("content".to_owned(), json!(""));
                fields.insert("matched_content".to_owned(), json!(""));
            }
        }
        _ => {}
    }
    d
}

/// The data of a `MESSAGE_CREATE` of message `id` by `author` (a member
/// with `roles`) in `channel` of `guild`, reading `content`: a message
/// object as gateway-events.mdx "Message Create" sends it (`guild_id` and a
/// partial `member`), for [`FakeGateway::dispatch`].
pub fn message_create(
    guild: &str,
    channel: &str,
    id: &str,
    author: &str,
    roles: &[&str],
    content: &str,
) -> Value {
    json!({
        "id": id, "channel_id": channel, "guild_id": guild, "type": 0,
        "content": content, "tts": false, "mention_everyone": false,
        "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "pinned": false, "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "author": {"id": author, "username": format!("user-{author}"), "discriminator": "0", "global_name": null, "avatar": null},
        "member": {"roles": roles, "joined_at": "2024-01-01T00:00:00.000000+00:00", "deaf": false, "mute": false, "flags": 0},
    })
}

/// What the client sent, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// IDENTIFY with these intents.
    Identify {
        /// The intents bit set.
        intents: u64,
        /// The shard `[id, total]`.
        shard: Option<(u64, u64)>,
    },
    /// RESUME of `session_id` after `seq`.
    Resume {
        /// The session resumed.
        session_id: String,
        /// The last sequence number the client had.
        seq: u64,
    },
    /// A HEARTBEAT.
    Heartbeat,
}

#[derive(Debug, Default)]
struct Session {
    /// Every dispatch of the session: (sequence, the whole payload).
    log: Vec<(u64, String)>,
    seq: u64,
    /// The intents the session identified with.
    intents: u64,
}

#[derive(Debug)]
struct State {
    url: String,
    heartbeat_interval_ms: u64,
    guilds: Vec<Value>,
    sessions: HashMap<String, Session>,
    /// The session the live connection serves, and its outbox.
    live: Option<(String, mpsc::UnboundedSender<Outgoing>)>,
    /// The last session READY gave (dispatches go there, live or not).
    current: Option<String>,
    sent: Vec<Sent>,
    /// The request path of every websocket connection, in order.
    connections: Vec<String>,
    next_session: u64,
    /// The application's flags: which privileged intents it may ask for.
    application_flags: u64,
    /// The close codes the fake closed sessions with, in order.
    closes: Vec<u16>,
    /// When the frame of each dispatch pushed with
    /// [`FakeGateway::dispatch_timed`] was written, by sequence number.
    written_at: HashMap<u64, Instant>,
}

#[derive(Debug)]
enum Outgoing {
    Text(String),
    /// A dispatch whose write instant is recorded under its sequence number.
    Timed(String, u64),
    Close(u16, &'static str),
    /// Drops the connection without a close frame, as a network failure does.
    Drop,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    /// Text frames written to clients so far.
    frames_written: AtomicU64,
}

/// A fake Discord gateway; stopped when dropped.
#[derive(Debug)]
pub struct FakeGateway {
    url: String,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl FakeGateway {
    /// A gateway that asks for heartbeats every `heartbeat_interval`.
    pub fn start(heartbeat_interval: Duration) -> FakeGateway {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a fake gateway");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let url = format!("ws://{}", listener.local_addr().expect("address"));
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                url: url.clone(),
                heartbeat_interval_ms: u64::try_from(heartbeat_interval.as_millis())
                    .unwrap_or(u64::MAX),
                guilds: Vec::new(),
                sessions: HashMap::new(),
                live: None,
                current: None,
                sent: Vec::new(),
                connections: Vec::new(),
                next_session: 1,
                application_flags: DEFAULT_APPLICATION_FLAGS,
                closes: Vec::new(),
                written_at: HashMap::new(),
            }),
            changed: Condvar::new(),
            frames_written: AtomicU64::new(0),
        });
        let (shutdown_tx, shutdown_rx) = oneshot::channel::<()>();
        let thread = std::thread::spawn({
            let shared = shared.clone();
            move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async move {
                    let listener = TcpListener::from_std(listener).expect("listener");
                    let accept = async {
                        loop {
                            let Ok((stream, _)) = listener.accept().await else {
                                continue;
                            };
                            tokio::spawn(connection(shared.clone(), stream));
                        }
                    };
                    tokio::select! {
                        () = accept => {}
                        _ = shutdown_rx => {}
                    }
                });
            }
        });
        FakeGateway {
            url,
            shared,
            shutdown: Some(shutdown_tx),
            thread: Some(thread),
        }
    }

    /// The gateway's URL, e.g. `ws://127.0.0.1:40123`: what
    /// [`super::FakeDiscord::set_gateway_url`] should answer.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// `GUILD_CREATE` after READY will carry `guild_id` with `voice_states`
    /// (each `(user, channel)`).
    pub fn add_guild(&self, guild_id: &str, voice_states: &[(&str, &str)]) {
        let states: Vec<Value> = voice_states
            .iter()
            .map(|(user, channel)| json!({"user_id": user, "channel_id": channel, "session_id": "s"}))
            .collect();
        lock(&self.shared.state).guilds.push(json!({
            "id": guild_id, "name": "Fake Guild", "unavailable": false,
            "member_count": 2, "voice_states": states, "channels": [], "members": [],
        }));
    }

    /// Pushes dispatch `name` with data `d` into the current session; sent
    /// now when the client is connected, else kept for its resume.
    pub fn dispatch(&self, name: &str, d: Value) {
        self.push(name, d, false);
    }

    /// [`FakeGateway::dispatch`], and the instant its frame is written to
    /// the live connection is recorded: its sequence number, for
    /// [`FakeGateway::written_at`].
    pub fn dispatch_timed(&self, name: &str, d: Value) -> u64 {
        self.push(name, d, true)
    }

    /// When the frame of dispatch `seq` (pushed with
    /// [`FakeGateway::dispatch_timed`]) was written, if it was.
    pub fn written_at(&self, seq: u64) -> Option<Instant> {
        lock(&self.shared.state).written_at.get(&seq).copied()
    }

    /// Text frames (dispatches, HELLO, ACKs, ...) written to clients so far.
    pub fn frames_written(&self) -> u64 {
        self.shared.frames_written.load(Ordering::Relaxed)
    }

    fn push(&self, name: &str, d: Value, timed: bool) -> u64 {
        let mut state = lock(&self.shared.state);
        let current = state
            .current
            .clone()
            .expect("no session yet: wait for IDENTIFY");
        let flags = state.application_flags;
        let session = state.sessions.entry(current.clone()).or_default();
        // gateway.mdx, "List of Intents": GUILD_AUDIT_LOG_ENTRY_CREATE is
        // sent only to sessions that identified with GUILD_MODERATION.
        if name == "GUILD_AUDIT_LOG_ENTRY_CREATE" && session.intents & GUILD_MODERATION == 0 {
            return 0;
        }
        session.seq += 1;
        let d = as_received(name, d, session.intents, flags);
        let payload = json!({"op": 0, "t": name, "s": session.seq, "d": d}).to_string();
        let seq = session.seq;
        session.log.push((seq, payload.clone()));
        if let Some((live, outbox)) = &state.live
            && *live == current
        {
            let _ = outbox.send(if timed {
                Outgoing::Timed(payload, seq)
            } else {
                Outgoing::Text(payload)
            });
        }
        seq
    }

    /// The application's flags (as [`super::FakeDiscord::set_application_flags`]):
    /// which privileged intents an IDENTIFY may ask for, and whether
    /// dispatches carry message content.
    pub fn set_application_flags(&self, flags: u64) {
        lock(&self.shared.state).application_flags = flags;
    }

    /// `MESSAGE_CREATE` of message `id` by `author` in `channel` of `guild`
    /// with `content` (emptied if the session may not read it), the author
    /// a member with `roles`.
    pub fn message_create(
        &self,
        guild: &str,
        channel: &str,
        id: &str,
        author: &str,
        roles: &[&str],
        content: &str,
    ) {
        self.dispatch(
            "MESSAGE_CREATE",
            message_create(guild, channel, id, author, roles, content),
        );
    }

    /// `MESSAGE_UPDATE` of message `id` by `author` in `channel` of `guild`,
    /// now reading `content` (emptied if the session may not read it).
    pub fn message_update(
        &self,
        guild: &str,
        channel: &str,
        id: &str,
        author: &str,
        content: &str,
    ) {
        self.dispatch(
            "MESSAGE_UPDATE",
            json!({
                "id": id, "channel_id": channel, "guild_id": guild, "type": 0,
                "content": content, "mentions": [], "mention_roles": [], "attachments": [],
                "embeds": [], "edited_timestamp": "2026-01-01T00:01:00.000000+00:00",
                "author": {"id": author, "username": format!("user-{author}"), "discriminator": "0"},
            }),
        );
    }

    /// `GUILD_MEMBER_ADD`: `user` joined `guild` with `roles`.
    pub fn member_add(&self, guild: &str, user: &str, roles: &[&str]) {
        self.dispatch(
            "GUILD_MEMBER_ADD",
            json!({
                "guild_id": guild, "roles": roles, "joined_at": "2026-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0,
                "user": {"id": user, "username": format!("user-{user}"), "discriminator": "0"},
            }),
        );
    }

    /// `GUILD_MEMBER_ADD` of `user` named `name`, with `pending` as a guild
    /// with membership screening sends it: "In `GUILD_` events, `pending`
    /// will always be included as true or false" (discord-docs/guild.mdx,
    /// "Guild Member Object"); a bot user is marked `bot`.
    pub fn member_join(&self, guild: &str, user: &str, name: &str, pending: bool, bot: bool) {
        self.dispatch(
            "GUILD_MEMBER_ADD",
            json!({
                "guild_id": guild, "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0, "pending": pending,
                "user": {"id": user, "username": name, "global_name": name, "discriminator": "0", "bot": bot},
            }),
        );
    }

    /// `GUILD_MEMBER_ADD` of a bot account `user` (`user.bot: true`):
    /// a bot added to `guild`.
    pub fn bot_add(&self, guild: &str, user: &str) {
        self.member_join(guild, user, &format!("bot-{user}"), false, true);
    }

    /// `GUILD_MEMBER_UPDATE` of `user` in `guild` holding `roles`
    /// (gateway-events.mdx "Guild Member Update": `guild_id`, `roles`,
    /// `user`, `joined_at` required; `pending` as in every `GUILD_` event).
    /// Discord sends one when a member passes membership screening
    /// (`pending` false, guild.mdx "Membership Screening Object") and when
    /// their roles change.
    pub fn member_update(&self, guild: &str, user: &str, roles: &[&str], pending: bool) {
        self.dispatch(
            "GUILD_MEMBER_UPDATE",
            json!({
                "guild_id": guild, "roles": roles, "joined_at": "2026-01-01T00:00:00.000000+00:00",
                "pending": pending, "flags": 0, "deaf": false, "mute": false,
                "user": {"id": user, "username": format!("user-{user}"), "discriminator": "0"},
            }),
        );
    }

    /// `GUILD_AUDIT_LOG_ENTRY_CREATE`: entry `id` of `guild`, `user` did
    /// `action_type` (audit-log.mdx, "Audit Log Events": 12 channel
    /// delete, 22 ban, 32 role delete, 50 webhook create, ...) to `target`
    /// with `changes`; the entry object of audit-log.mdx with `guild_id`
    /// (gateway-events.mdx, "Guild Audit Log Entry Create").
    pub fn audit_log_entry(
        &self,
        guild: &str,
        id: &str,
        action_type: u64,
        user: &str,
        target: &str,
        changes: Value,
    ) {
        self.dispatch(
            "GUILD_AUDIT_LOG_ENTRY_CREATE",
            json!({
                "guild_id": guild, "id": id, "action_type": action_type, "user_id": user,
                "target_id": target, "changes": changes,
            }),
        );
    }

    /// `GUILD_MEMBER_REMOVE`: `user` left (or was removed from) `guild`.
    pub fn member_remove(&self, guild: &str, user: &str) {
        self.dispatch(
            "GUILD_MEMBER_REMOVE",
            json!({
                "guild_id": guild,
                "user": {"id": user, "username": format!("user-{user}"), "discriminator": "0"},
            }),
        );
    }

    /// `MESSAGE_DELETE` of message `id` in `channel` of `guild`.
    pub fn message_delete(&self, guild: &str, channel: &str, id: &str) {
        self.dispatch(
            "MESSAGE_DELETE",
            json!({"id": id, "channel_id": channel, "guild_id": guild}),
        );
    }

    /// `AUTO_MODERATION_ACTION_EXECUTION`: rule `rule` (trigger type
    /// `trigger_type`) blocked `content` by `user` in `channel`, matching
    /// `keyword` (`matched_keyword`) in `matched` (`matched_content`).
    #[allow(clippy::too_many_arguments)]
    pub fn automod_execution(
        &self,
        guild: &str,
        rule: &str,
        trigger_type: u64,
        user: &str,
        channel: &str,
        content: &str,
        keyword: Option<&str>,
        matched: &str,
    ) {
        self.dispatch(
            "AUTO_MODERATION_ACTION_EXECUTION",
            json!({
                "guild_id": guild, "rule_id": rule, "rule_trigger_type": trigger_type,
                "action": {"type": 1, "metadata": {}}, "user_id": user, "channel_id": channel,
                "content": content, "matched_keyword": keyword, "matched_content": matched,
            }),
        );
    }

    /// Sends the current session's last dispatch to the client again, as it
    /// was, its `s` too: what a client that resumes from a sequence number
    /// before it gets (RESUME replays every dispatch after the `seq` the
    /// client sends; gateway.mdx, "Resuming").
    pub fn send_last_again(&self) {
        let state = lock(&self.shared.state);
        let current = state.current.clone().expect("no session yet");
        let (_, payload) = state.sessions[&current]
            .log
            .last()
            .cloned()
            .expect("no dispatch yet");
        if let Some((live, outbox)) = &state.live
            && *live == current
        {
            let _ = outbox.send(Outgoing::Text(payload));
        }
    }

    /// Sends RECONNECT (op 7): the client should come back and resume;
    /// dispatches pushed meanwhile are kept for the resume.
    pub fn request_reconnect(&self) {
        let mut state = lock(&self.shared.state);
        if let Some((_, outbox)) = state.live.take() {
            let _ = outbox.send(Outgoing::Text(json!({"op": 7, "d": null}).to_string()));
        }
    }

    /// Drops the live connection without a close frame (a network failure);
    /// dispatches pushed until the client resumes are kept for it.
    pub fn drop_connection(&self) {
        let mut state = lock(&self.shared.state);
        if let Some((_, outbox)) = state.live.take() {
            let _ = outbox.send(Outgoing::Drop);
        }
    }

    /// Whether a client is connected to a session now.
    pub fn connected(&self) -> bool {
        lock(&self.shared.state).live.is_some()
    }

    /// The close codes the fake closed sessions with so far (4004 for a
    /// wrong token, 4014 for a disallowed intent).
    pub fn closes(&self) -> Vec<u16> {
        lock(&self.shared.state).closes.clone()
    }

    /// What the client sent so far.
    pub fn sent(&self) -> Vec<Sent> {
        lock(&self.shared.state).sent.clone()
    }

    /// The request path of every connection so far (`/` first, `/resume/`
    /// after a resume at READY's `resume_gateway_url`).
    pub fn connections(&self) -> Vec<String> {
        lock(&self.shared.state).connections.clone()
    }

    /// Waits until `done` holds for what the client sent and the client is
    /// connected to a session (so a dispatch reaches it at once), for at
    /// most `timeout`; whether it did.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&[Sent]) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = lock(&self.shared.state);
        loop {
            if done(&state.sent) && state.live.is_some() {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for FakeGateway {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the fake answers to one client message, under the state's lock.
fn answer(state: &mut State, outbox: &mpsc::UnboundedSender<Outgoing>, message: &Value) {
    let send = |value: Value| {
        let _ = outbox.send(Outgoing::Text(value.to_string()));
    };
    match message["op"].as_u64() {
        Some(1) => {
            state.sent.push(Sent::Heartbeat);
            send(json!({"op": 11, "d": null}));
        }
        Some(2) => {
            let d = &message["d"];
            let shard = d["shard"]
                .as_array()
                .and_then(|s| Some((s.first()?.as_u64()?, s.get(1)?.as_u64()?)));
            let intents = d["intents"].as_u64().unwrap_or(0);
            state.sent.push(Sent::Identify { intents, shard });
            if d["token"].as_str() != Some(&format!("Bot {TOKEN}"))
                && d["token"].as_str() != Some(TOKEN)
            {
                state.closes.push(4004);
                let _ = outbox.send(Outgoing::Close(4004, "Authentication failed."));
                return;
            }
            if disallowed_intents(intents, state.application_flags) != 0 {
                state.closes.push(4014);
                let _ = outbox.send(Outgoing::Close(4014, "Disallowed intent(s)."));
                return;
            }
            let id = format!("session-{}", state.next_session);
            state.next_session += 1;
            let mut session = Session {
                intents,
                ..Session::default()
            };
            let mut dispatch = |name: &str, d: Value| {
                session.seq += 1;
                let payload = json!({"op": 0, "t": name, "s": session.seq, "d": d}).to_string();
                session.log.push((session.seq, payload.clone()));
                let _ = outbox.send(Outgoing::Text(payload));
            };
            let unavailable: Vec<Value> = state
                .guilds
                .iter()
                .map(|g| json!({"id": g["id"], "unavailable": true}))
                .collect();
            dispatch(
                "READY",
                json!({"v": 10, "user": {"id": BOT, "username": "modctl", "discriminator": "0", "bot": true},
                       "guilds": unavailable, "session_id": id,
                       "resume_gateway_url": format!("{}/resume", state.url),
                       "shard": [0, 1], "application": {"id": BOT, "flags": state.application_flags}}),
            );
            for guild in state.guilds.clone() {
                dispatch("GUILD_CREATE", guild);
            }
            state.sessions.insert(id.clone(), session);
            state.current = Some(id.clone());
            state.live = Some((id, outbox.clone()));
        }
        Some(6) => {
            let d = &message["d"];
            let session_id = d["session_id"].as_str().unwrap_or_default().to_owned();
            let seq = d["seq"].as_u64().unwrap_or(0);
            state.sent.push(Sent::Resume {
                session_id: session_id.clone(),
                seq,
            });
            let Some(session) = state.sessions.get_mut(&session_id) else {
                send(json!({"op": 9, "d": false}));
                return;
            };
            for (_, payload) in session.log.iter().filter(|(s, _)| *s > seq) {
                let _ = outbox.send(Outgoing::Text(payload.clone()));
            }
            session.seq += 1;
            let resumed = json!({"op": 0, "t": "RESUMED", "s": session.seq, "d": {}}).to_string();
            session.log.push((session.seq, resumed.clone()));
            let _ = outbox.send(Outgoing::Text(resumed));
            state.current = Some(session_id.clone());
            state.live = Some((session_id, outbox.clone()));
        }
        _ => {}
    }
}

/// Frames the writer sends with one flush at most.
const WRITE_BATCH: usize = 256;

/// Writes `batch` in order, flushing once; whether the connection goes on
/// (not after a write error, a close or a drop).
async fn write<S>(
    shared: &Shared,
    socket: &mut tokio_websockets::WebSocketStream<S>,
    batch: Vec<Outgoing>,
) -> bool
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut timed = Vec::new();
    let mut texts = 0;
    let mut go_on = true;
    for out in batch {
        let text = match out {
            Outgoing::Text(text) => text,
            Outgoing::Timed(text, seq) => {
                timed.push(seq);
                text
            }
            Outgoing::Drop => {
                go_on = false;
                break;
            }
            Outgoing::Close(code, reason) => {
                let _ = socket.flush().await;
                let code = CloseCode::try_from(code).unwrap_or(CloseCode::POLICY_VIOLATION);
                let _ = socket.send(Message::close(Some(code), reason)).await;
                return false;
            }
        };
        if socket.feed(Message::text(text)).await.is_err() {
            return false;
        }
        texts += 1;
    }
    // What came before a drop is written first, as it was queued first.
    if socket.flush().await.is_err() {
        return false;
    }
    shared.frames_written.fetch_add(texts, Ordering::Relaxed);
    if !timed.is_empty() {
        let now = Instant::now();
        let mut state = lock(&shared.state);
        for seq in timed {
            state.written_at.insert(seq, now);
        }
    }
    go_on
}

/// Serves one websocket connection.
async fn connection(shared: Arc<Shared>, stream: tokio::net::TcpStream) {
    let Ok((request, mut socket)) = ServerBuilder::new().accept(stream).await else {
        return;
    };
    let (outbox, mut outgoing) = mpsc::unbounded_channel();
    {
        let mut state = lock(&shared.state);
        state.connections.push(request.uri().path().to_owned());
        let hello = json!({"op": 10, "d": {"heartbeat_interval": state.heartbeat_interval_ms}});
        let _ = outbox.send(Outgoing::Text(hello.to_string()));
    }
    shared.changed.notify_all();
    loop {
        tokio::select! {
            incoming = socket.next() => {
                let Some(Ok(message)) = incoming else { break };
                let Some(text) = message.as_text() else {
                    if message.is_close() { break }
                    continue;
                };
                let Ok(value) = serde_json::from_str::<Value>(text) else { break };
                answer(&mut lock(&shared.state), &outbox, &value);
                shared.changed.notify_all();
            }
            Some(first) = outgoing.recv() => {
                // What is queued goes out as one batch: each frame fed, one
                // flush, so a burst of dispatches is not a write per frame.
                let mut batch = vec![first];
                while batch.len() < WRITE_BATCH {
                    match outgoing.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                if !write(&shared, &mut socket, batch).await { break }
            }
        }
    }
    // The connection is gone: it no longer receives dispatches.
    let mut state = lock(&shared.state);
    if state
        .live
        .as_ref()
        .is_some_and(|(_, live)| live.same_channel(&outbox))
    {
        state.live = None;
    }
    drop(state);
    shared.changed.notify_all();
}
