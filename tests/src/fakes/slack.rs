//! A fake Slack Web API for one workspace: `POST /<method>` with
//! `Authorization: Bearer <token>`, arguments as JSON, form fields or query
//! parameters. Like Slack, it answers HTTP 200 even for failures, with
//! `{"ok": false, "error": "..."}`; rate limits (429 with `Retry-After`) and
//! outages are injected with `fail_with`.
//!
//! The workspace keeps channels (and whether the bot is in them), users and
//! the bot's messages.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value, json};

use super::server::{FakeServer, Recorded, Reply, arguments, lock};

/// The bot token the fake accepts.
pub const TOKEN: &str = "xoxb-fake-slack-token";
/// The workspace (team) id.
pub const TEAM: &str = crate::ALPHA_SLACK;
/// The bot's user id.
pub const BOT: &str = "U0MODCTL01";
/// A channel the workspace starts with, `#mod-log`, the bot in it.
pub const MODLOG_CHANNEL: &str = "C0MODLOG01";

/// A fake Slack workspace; stopped when dropped.
#[derive(Debug)]
pub struct FakeSlack {
    server: FakeServer,
    state: Arc<Mutex<Workspace>>,
}

super::server_methods!(FakeSlack);

#[derive(Debug)]
struct SlackChannel {
    name: String,
    bot_is_member: bool,
    messages: Vec<String>,
}

#[derive(Debug)]
struct Workspace {
    /// By channel id, in creation order of their ids.
    channels: BTreeMap<String, SlackChannel>,
    /// User id -> name.
    users: BTreeMap<String, String>,
    next_ts: u64,
}

impl FakeSlack {
    /// A workspace with the bot, and [`MODLOG_CHANNEL`] with the bot in it.
    pub fn start() -> FakeSlack {
        let mut workspace = Workspace {
            channels: BTreeMap::new(),
            users: BTreeMap::from([(BOT.to_owned(), "modctl".to_owned())]),
            next_ts: 1,
        };
        workspace.add_channel(MODLOG_CHANNEL, "mod-log", true);
        let state = Arc::new(Mutex::new(workspace));
        let server = FakeServer::serve(&state, answer);
        FakeSlack { server, state }
    }

    fn state(&self) -> MutexGuard<'_, Workspace> {
        lock(&self.state)
    }

    /// Adds a public channel with the bot in it.
    pub fn add_channel(&self, id: &str, name: &str) {
        self.state().add_channel(id, name, true);
    }

    /// Adds a public channel the bot has not joined (posting answers
    /// `not_in_channel`).
    pub fn add_channel_without_bot(&self, id: &str, name: &str) {
        self.state().add_channel(id, name, false);
    }

    /// Adds a user to the workspace.
    pub fn add_user(&self, id: &str, name: &str) {
        self.state().users.insert(id.to_owned(), name.to_owned());
    }

    /// The texts posted to `channel`, oldest first.
    pub fn messages(&self, channel: &str) -> Vec<String> {
        self.state()
            .channels
            .get(channel)
            .map(|c| c.messages.clone())
            .unwrap_or_default()
    }

    /// The requests to Web API method `method` (e.g. `chat.postMessage`).
    pub fn calls(&self, method: &str) -> Vec<Recorded> {
        self.requests_to("POST", &format!("/{method}"))
    }
}

fn failure(error: &str) -> Reply {
    Reply::json(200, json!({ "ok": false, "error": error }))
}

fn success(fields: Value) -> Reply {
    let mut body = json!({ "ok": true });
    if let (Value::Object(body), Value::Object(fields)) = (&mut body, fields) {
        body.extend(fields);
    }
    Reply::json(200, body)
}

fn answer(workspace: &mut Workspace, request: &Recorded) -> Reply {
    let method = request.path.trim_start_matches('/');
    if !matches!(
        method,
        "chat.postMessage" | "auth.test" | "conversations.list" | "users.info"
    ) {
        return Reply::json(404, json!({ "ok": false, "error": "unknown_method" }));
    }
    let args = arguments(request);
    let token = request
        .header("authorization")
        .and_then(|h| h.strip_prefix("Bearer "))
        .or_else(|| args.get("token").and_then(Value::as_str));
    match token {
        None => return failure("not_authed"),
        Some(token) if token != TOKEN => return failure("invalid_auth"),
        Some(_) => {}
    }
    match method {
        "auth.test" => success(json!({
            "url": "https://fake.slack.invalid/",
            "team": "Fake Workspace",
            "user": "modctl",
            "team_id": TEAM,
            "user_id": BOT,
            "bot_id": "B0MODCTL01",
        })),
        "conversations.list" => success(json!({
            "channels": workspace.channels.iter().map(|(id, c)| json!({
                "id": id, "name": c.name, "is_channel": true, "is_private": false,
                "is_archived": false, "is_member": c.bot_is_member,
            })).collect::<Vec<_>>(),
            "response_metadata": { "next_cursor": "" },
        })),
        "users.info" => {
            let user = args.get("user").and_then(Value::as_str).unwrap_or_default();
            match workspace.users.get(user) {
                Some(name) => success(json!({ "user": {
                    "id": user, "team_id": TEAM, "name": name, "deleted": false,
                    "is_admin": false, "is_bot": user == BOT,
                }})),
                None => failure("user_not_found"),
            }
        }
        _ => workspace.post_message(&args),
    }
}

impl Workspace {
    fn add_channel(&mut self, id: &str, name: &str, bot_is_member: bool) {
        self.channels.insert(
            id.to_owned(),
            SlackChannel {
                name: name.to_owned(),
                bot_is_member,
                messages: Vec::new(),
            },
        );
    }

    /// Posts to a channel named by id, or by name with or without `#`.
    fn post_message(&mut self, args: &Map<String, Value>) -> Reply {
        let ts = format!("1700000000.{:06}", self.next_ts);
        self.next_ts += 1;
        let wanted = args
            .get("channel")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let name = wanted.trim_start_matches('#');
        let Some((id, channel)) = self
            .channels
            .iter_mut()
            .find(|(id, c)| id.as_str() == wanted || c.name == name)
        else {
            return failure("channel_not_found");
        };
        if !channel.bot_is_member {
            return failure("not_in_channel");
        }
        let text = match args.get("text").and_then(Value::as_str) {
            Some(text) if !text.is_empty() => text.to_owned(),
            _ => return failure("no_text"),
        };
        channel.messages.push(text.clone());
        success(json!({
            "channel": id,
            "ts": ts,
            "message": { "type": "message", "user": BOT, "text": text, "ts": ts },
        }))
    }
}
