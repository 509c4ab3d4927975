//! A fake Slack Web API for one workspace: `POST /<method>` with
//! `Authorization: Bearer <token>`, arguments as JSON, form fields or query
//! parameters. Like Slack, it answers HTTP 200 even for failures, with
//! `{"ok": false, "error": "..."}`; rate limits (429 with `Retry-After`) and
//! outages are injected with `fail_with`.
//!
//! The workspace keeps channels (public or private, topic, purpose,
//! archived, and whether the bot is in them), user groups, users and the
//! bot's messages. `conversations.list` pages by `limit` and `cursor` and
//! filters by `types`; `usergroups.list` lists members only with
//! `include_users`, as Slack does. Channels and user groups are created as
//! a restore creates them ([`writes`]). Messages, ephemeral messages,
//! deletions, DMs and the posting rate limit are in [`messages`]; a user
//! token (`xoxp-`, [`ADMIN_TOKEN`], [`MEMBER_TOKEN`]) is told from the bot's
//! (`xoxb-`, [`TOKEN`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::server::{FakeServer, Recorded, Reply, arguments, lock};

mod files;
pub mod messages;
mod writes;

pub use files::OpenedView;
pub use messages::{Ephemeral, SlackMessage};

/// The bot token the fake accepts.
pub const TOKEN: &str = "xoxb-fake-slack-token";
/// A user token of a workspace admin (`xoxp-`): `chat.delete` with it
/// deletes anyone's message.
pub const ADMIN_TOKEN: &str = "xoxp-fake-slack-admin-token";
/// The admin user [`ADMIN_TOKEN`] belongs to.
pub const ADMIN: &str = "U0ADMIN001";
/// A user token of a plain member (`xoxp-`): deletes only their own
/// messages.
pub const MEMBER_TOKEN: &str = "xoxp-fake-slack-member-token";
/// The member [`MEMBER_TOKEN`] belongs to.
pub const MEMBER: &str = "U0MEMBER01";
/// The workspace's primary owner (`users.info`: `is_owner`,
/// `is_primary_owner`, and `is_admin`, as Slack marks owners).
pub const OWNER: &str = "U0OWNER001";
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

#[derive(Debug, Default)]
struct SlackChannel {
    name: String,
    bot_is_member: bool,
    is_private: bool,
    is_archived: bool,
    topic: String,
    purpose: String,
    messages: Vec<SlackMessage>,
    /// Users in the channel (besides the bot, whose membership is
    /// `bot_is_member`).
    members: BTreeSet<String>,
    ephemerals: Vec<Ephemeral>,
    /// For a DM (`conversations.open`): the user it reaches.
    im_user: Option<String>,
}

/// Who a token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Caller {
    Bot,
    User { id: String, admin: bool },
}

impl Caller {
    fn user(&self) -> &str {
        match self {
            Caller::Bot => BOT,
            Caller::User { id, .. } => id,
        }
    }
}

/// A user group of the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserGroup {
    /// `S...`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Handle, without `@`.
    pub handle: String,
    /// Description.
    pub description: String,
    /// Default channel ids.
    pub channels: Vec<String>,
    /// Member user ids.
    pub users: Vec<String>,
}

#[derive(Debug)]
struct Workspace {
    /// By channel id, in creation order of their ids.
    channels: BTreeMap<String, SlackChannel>,
    /// By id.
    user_groups: BTreeMap<String, UserGroup>,
    /// User id -> name.
    users: BTreeMap<String, String>,
    /// User id -> (the profile's `display_name`, `real_name`), for the
    /// users given one ([`FakeSlack::set_profile`]); empty strings for the
    /// others, as Slack sends an unset name.
    profiles: BTreeMap<String, (String, String)>,
    next_ts: u64,
    /// Numbers the channels and user groups the workspace creates.
    next_id: u64,
    /// `chat.postMessage`'s token bucket per channel, for the rate limit.
    post_buckets: HashMap<String, messages::Bucket>,
    /// Burst and refill interval of those buckets.
    post_limit: (u32, Duration),
    rate_limited: usize,
    /// The workspace's domain (`team.info`): its invite links are
    /// `join.slack.com/t/<domain>/...`.
    domain: String,
    /// Whether the bot token has the `team:read` scope `team.info` needs.
    team_read: bool,
    /// Files by id, from `files.getUploadURLExternal` on ([`files`]).
    uploads: BTreeMap<String, files::Upload>,
    /// Modals opened, oldest first.
    views: Vec<OpenedView>,
}

impl FakeSlack {
    /// A workspace with the bot, and [`MODLOG_CHANNEL`] with the bot in it.
    pub fn start() -> FakeSlack {
        let mut workspace = Workspace {
            channels: BTreeMap::new(),
            user_groups: BTreeMap::new(),
            users: BTreeMap::from([
                (BOT.to_owned(), "modctl".to_owned()),
                (ADMIN.to_owned(), "admin".to_owned()),
                (MEMBER.to_owned(), "member".to_owned()),
                (OWNER.to_owned(), "owner".to_owned()),
            ]),
            profiles: BTreeMap::new(),
            next_ts: 1,
            next_id: 0,
            post_buckets: HashMap::new(),
            post_limit: (messages::POST_BURST, messages::POST_INTERVAL),
            rate_limited: 0,
            domain: "fake-workspace".to_owned(),
            team_read: true,
            uploads: BTreeMap::new(),
            views: Vec::new(),
        };
        workspace.add_channel(MODLOG_CHANNEL, "mod-log", true);
        let state = Arc::new(Mutex::new(workspace));
        let server = FakeServer::serve(&state, answer);
        FakeSlack { server, state }
    }

    fn state(&self) -> MutexGuard<'_, Workspace> {
        lock(&self.state)
    }

    /// Sets the workspace's domain, as `team.info` answers it.
    pub fn set_domain(&self, domain: &str) {
        self.state().domain = domain.to_owned();
    }

    /// Takes the `team:read` scope from the bot token: `team.info` answers
    /// `missing_scope`.
    pub fn revoke_team_read(&self) {
        self.state().team_read = false;
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

    /// Adds a private channel the bot is not in: Slack does not list it to
    /// the bot.
    pub fn add_private_channel_without_bot(&self, id: &str, name: &str) {
        let mut state = self.state();
        state.add_channel(id, name, false);
        state.channels.get_mut(id).expect("just added").is_private = true;
    }

    /// Adds a private channel the bot is in, with a topic and purpose.
    pub fn add_private_channel(&self, id: &str, name: &str, topic: &str, purpose: &str) {
        let mut state = self.state();
        state.add_channel(id, name, true);
        let channel = state.channels.get_mut(id).expect("just added");
        channel.is_private = true;
        channel.topic = topic.to_owned();
        channel.purpose = purpose.to_owned();
    }

    /// Sets a channel's topic and purpose.
    pub fn describe_channel(&self, id: &str, topic: &str, purpose: &str) {
        if let Some(channel) = self.state().channels.get_mut(id) {
            channel.topic = topic.to_owned();
            channel.purpose = purpose.to_owned();
        }
    }

    /// Archives a channel.
    pub fn archive(&self, id: &str) {
        if let Some(channel) = self.state().channels.get_mut(id) {
            channel.is_archived = true;
        }
    }

    /// Deletes a channel, as a nuke would.
    pub fn delete_channel(&self, id: &str) {
        self.state().channels.remove(id);
    }

    /// `user` archives channel `id` in a Slack client: archived here, and
    /// the Events API event Slack sends for it ("channel_archive": `type`,
    /// `channel`, `user`; `group_archive` for a private channel), for
    /// `Daemon::post_slack_event` to deliver signed.
    pub fn archive_by(&self, id: &str, user: &str) -> serde_json::Value {
        let private = self.state().channels.get(id).is_some_and(|c| c.is_private);
        self.archive(id);
        let kind = if private {
            "group_archive"
        } else {
            "channel_archive"
        };
        serde_json::json!({"type": kind, "channel": id, "user": user,
                           "event_ts": "1800000000.000100"})
    }

    /// Channel `id` is deleted by an admin: gone here, and the event Slack
    /// sends (`channel_deleted`: `type` and `channel` alone, no actor).
    pub fn delete_channel_event(&self, id: &str) -> serde_json::Value {
        self.delete_channel(id);
        serde_json::json!({"type": "channel_deleted", "channel": id})
    }

    /// Adds (or replaces) a user group.
    pub fn add_user_group(&self, group: UserGroup) {
        self.state().user_groups.insert(group.id.clone(), group);
    }

    /// How many channels the workspace has, private and archived included.
    pub fn channel_count(&self) -> usize {
        self.state().channels.len()
    }

    /// Adds a user to the workspace.
    pub fn add_user(&self, id: &str, name: &str) {
        self.state().users.insert(id.to_owned(), name.to_owned());
    }

    /// Gives user `id` a profile `display_name` and `real_name` (either
    /// may be empty, as on Slack).
    pub fn set_profile(&self, id: &str, display_name: &str, real_name: &str) {
        self.state().profiles.insert(
            id.to_owned(),
            (display_name.to_owned(), real_name.to_owned()),
        );
    }

    /// The texts the bot posted to `channel`, oldest first.
    pub fn messages(&self, channel: &str) -> Vec<String> {
        self.posted(channel).into_iter().map(|m| m.text).collect()
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
    // An `upload_url` of `files.getUploadURLExternal`: no token, the URL
    // is the grant ([`files`]).
    if let Some(id) = request.path.strip_prefix("/upload/") {
        return workspace.receive_upload(request, id);
    }
    let method = request.path.trim_start_matches('/');
    if !matches!(
        method,
        "chat.postMessage"
            | "chat.delete"
            | "chat.postEphemeral"
            | "conversations.open"
            | "auth.test"
            | "conversations.list"
            | "users.info"
            | "conversations.info"
            | "usergroups.list"
            | "conversations.create"
            | "conversations.setTopic"
            | "conversations.setPurpose"
            | "usergroups.create"
            | "usergroups.users.update"
            | "usergroups.users.list"
            | "team.info"
            | "files.getUploadURLExternal"
            | "files.completeUploadExternal"
            | "views.open"
    ) {
        return Reply::json(404, json!({ "ok": false, "error": "unknown_method" }));
    }
    let args = arguments(request);
    let token = request
        .header("authorization")
        .and_then(|h| h.strip_prefix("Bearer "))
        .or_else(|| args.get("token").and_then(Value::as_str));
    let caller = match token {
        None => return failure("not_authed"),
        Some(TOKEN) => Caller::Bot,
        Some(ADMIN_TOKEN) => Caller::User {
            id: ADMIN.to_owned(),
            admin: true,
        },
        Some(MEMBER_TOKEN) => Caller::User {
            id: MEMBER.to_owned(),
            admin: false,
        },
        Some(_) => return failure("invalid_auth"),
    };
    match method {
        // auth.test: a bot token answers its `bot_id`; a user token does not.
        "auth.test" => {
            let mut body = json!({
                "url": "https://fake.slack.invalid/",
                "team": "Fake Workspace",
                "user": workspace.users.get(caller.user()).cloned().unwrap_or_default(),
                "team_id": TEAM,
                "user_id": caller.user(),
            });
            if caller == Caller::Bot {
                body["bot_id"] = json!("B0MODCTL01");
            }
            success(body)
        }
        // team.info (slack-web-openapi.json): `team` is an `objs_team`,
        // whose required fields are `id`, `name`, `domain`, `email_domain`
        // and `icon`; the method needs the `team:read` scope.
        "team.info" => {
            if !workspace.team_read {
                return failure("missing_scope");
            }
            success(json!({ "team": {
                "id": TEAM, "name": "Fake Workspace", "domain": workspace.domain,
                "email_domain": "", "icon": {"image_default": true},
            }}))
        }
        "chat.delete" => workspace.delete_message(&caller, &args),
        "chat.postEphemeral" => workspace.post_ephemeral(&args),
        "conversations.open" => workspace.open_conversation(&args),
        "conversations.list" => workspace.conversations(&args),
        "usergroups.list" => workspace.user_groups(&args),
        "conversations.create" => workspace.create_conversation(&args),
        "conversations.setTopic" => workspace.describe(&args, false),
        "conversations.setPurpose" => workspace.describe(&args, true),
        "usergroups.create" => workspace.create_user_group(&args),
        "usergroups.users.update" => workspace.update_group_users(&args),
        "usergroups.users.list" => workspace.group_users(&args),
        "files.getUploadURLExternal" => workspace.upload_url(request, &args),
        "files.completeUploadExternal" => workspace.complete_upload(&args),
        "views.open" => workspace.open_view(&args),
        "users.info" => {
            let user = args.get("user").and_then(Value::as_str).unwrap_or_default();
            let (display_name, real_name) =
                workspace.profiles.get(user).cloned().unwrap_or_default();
            match workspace.users.get(user) {
                // `objs_user` (slack-web-openapi.json): `is_owner`,
                // `is_primary_owner`, `is_admin` (an owner is an admin too);
                // `name` (the username) and `profile` are required, and
                // `objs_user_profile` requires `display_name` and
                // `real_name`, which Slack sends empty when unset.
                Some(name) => success(json!({ "user": {
                    "id": user, "team_id": TEAM, "name": name, "deleted": false,
                    "is_admin": user == ADMIN || user == OWNER, "is_bot": user == BOT,
                    "is_owner": user == OWNER, "is_primary_owner": user == OWNER,
                    "is_app_user": false, "updated": 1_800_000_000,
                    "real_name": real_name,
                    "profile": {"display_name": display_name, "real_name": real_name,
                                "display_name_normalized": display_name,
                                "real_name_normalized": real_name},
                }})),
                None => failure("user_not_found"),
            }
        }
        // conversations.info (slack-web-openapi.json): `channel` an
        // `objs_conversation`; `channel_not_found` for an id the token
        // cannot see (a private channel the bot is not in, as
        // conversations.list hides them).
        "conversations.info" => {
            let id = text(&args, "channel");
            match workspace.channels.get(id) {
                Some(c) if c.im_user.is_none() && (!c.is_private || c.bot_is_member) => {
                    success(json!({ "channel": {
                        "id": id, "name": c.name, "is_channel": true, "is_private": c.is_private,
                        "is_archived": c.is_archived, "is_member": c.bot_is_member,
                        "created": 1_700_000_000,
                    }}))
                }
                _ => failure("channel_not_found"),
            }
        }
        _ => workspace.post_message(&caller, &args),
    }
}

/// A text argument (`topic` of a channel, `value` of a cursor) as sent.
fn text<'a>(args: &'a Map<String, Value>, name: &str) -> &'a str {
    args.get(name).and_then(Value::as_str).unwrap_or_default()
}

impl Workspace {
    fn add_channel(&mut self, id: &str, name: &str, bot_is_member: bool) {
        self.channels.insert(
            id.to_owned(),
            SlackChannel {
                name: name.to_owned(),
                bot_is_member,
                ..SlackChannel::default()
            },
        );
    }

    /// One page of the channels of the asked `types` (default: public
    /// only, as on Slack), in id order; the cursor is the next page's first id.
    fn conversations(&self, args: &Map<String, Value>) -> Reply {
        let types = match text(args, "types") {
            "" => "public_channel",
            types => types,
        };
        let limit = match text(args, "limit") {
            "" => 100,
            limit => match limit.parse::<usize>() {
                Ok(limit) if (1..=1000).contains(&limit) => limit,
                _ => return failure("invalid_limit"),
            },
        };
        let cursor = text(args, "cursor");
        let mut wanted = self
            .channels
            .iter()
            .filter(|(_, c)| {
                // DMs are type `im`, which the fake does not list.
                c.im_user.is_none()
                    && types.split(',').any(|t| match t {
                        "public_channel" => !c.is_private,
                        // conversations.list (Slack Web API reference): a bot
                        // token lists the private channels its bot is a member
                        // of, no others.
                        "private_channel" => c.is_private && c.bot_is_member,
                        _ => false,
                    })
            })
            .filter(|(id, _)| cursor.is_empty() || id.as_str() >= cursor)
            .filter(|(_, c)| !(c.is_archived && text(args, "exclude_archived") == "true"));
        let page: Vec<Value> = wanted
            .by_ref()
            .take(limit)
            .map(|(id, c)| {
                json!({
                    "id": id, "name": c.name, "is_channel": true, "is_private": c.is_private,
                    "is_archived": c.is_archived, "is_member": c.bot_is_member,
                    "topic": { "value": c.topic, "creator": "", "last_set": 0 },
                    "purpose": { "value": c.purpose, "creator": "", "last_set": 0 },
                })
            })
            .collect();
        let next = wanted.next().map(|(id, _)| id.clone()).unwrap_or_default();
        success(json!({ "channels": page, "response_metadata": { "next_cursor": next } }))
    }

    fn user_groups(&self, args: &Map<String, Value>) -> Reply {
        let include_users = text(args, "include_users") == "true";
        let groups: Vec<Value> = self
            .user_groups
            .values()
            .map(|g| {
                let mut group = json!({
                    "id": g.id, "team_id": TEAM, "is_usergroup": true, "name": g.name,
                    "handle": g.handle, "description": g.description, "date_delete": 0,
                    "prefs": { "channels": g.channels, "groups": [] },
                    "user_count": g.users.len(),
                });
                if include_users {
                    group["users"] = json!(g.users);
                }
                group
            })
            .collect();
        success(json!({ "usergroups": groups }))
    }
}
