//! A fake Telegram Bot API for one group: `POST /bot<token>/<method>` with
//! JSON (form fields and query parameters are read too), answering
//! `{"ok": true, "result": ...}` or `{"ok": false, "error_code", "description"}`
//! with Telegram's own wording.
//!
//! Each chat keeps its members with their status (`creator`, `administrator`,
//! `member`, `restricted`, `left`, `kicked`), restrictions and the bot's
//! messages. The group starts with its creator ([`OWNER`]) and the bot, an
//! administrator allowed to restrict members.
//!
//! A restriction is lifted, as on Telegram, when the permissions given are at
//! least those the chat grants its members by default; the fake's chats
//! grant the ten send permissions and nothing else, which
//! `set_default_permissions` changes, and so does `setChatPermissions`
//! (with `setChatTitle` and `setChatDescription`, in [`settings`]).
//!
//! `sendMessage` and `deleteMessage`, private chats and the group rate
//! limit are in [`messages`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value, json};

use super::server::{FakeServer, Recorded, Reply, arguments, lock};

mod admins;
mod callbacks;
mod invites;
pub mod messages;
mod settings;
mod updates;

pub use messages::TelegramMessage;

/// The bot token the fake accepts.
pub const TOKEN: &str = "123456:fake-telegram-token";
/// The bot's user id (the token's prefix, as on Telegram).
pub const BOT: i64 = 123_456;
/// The group's creator.
pub const OWNER: i64 = 1_000;

/// The send permissions of `ChatPermissions`, the ones the daemon sets.
pub const SEND_PERMISSIONS: [&str; 10] = [
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
];
/// The other permissions of `ChatPermissions`.
const OTHER_PERMISSIONS: [&str; 4] = [
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
];

/// A fake Telegram group; stopped when dropped.
#[derive(Debug)]
pub struct FakeTelegram {
    server: FakeServer,
    state: Arc<Mutex<Bot>>,
}

super::server_methods!(FakeTelegram);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Creator,
    Administrator,
    Member,
    Restricted,
    Left,
    Kicked,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Creator => "creator",
            Status::Administrator => "administrator",
            Status::Member => "member",
            Status::Restricted => "restricted",
            Status::Left => "left",
            Status::Kicked => "kicked",
        }
    }
}

#[derive(Debug, Clone)]
struct ChatMember {
    status: Status,
    /// Unix time a restriction or ban ends; 0 = forever.
    until_date: i64,
    /// A restricted member's permissions, every flag present.
    permissions: Map<String, Value>,
    /// For `restricted`: whether they are in the chat.
    is_member: bool,
    /// For `administrator`: whether the bot promoted them, so it may edit
    /// their rights (`ChatMemberAdministrator.can_be_edited`).
    promoted_by_bot: bool,
}

impl ChatMember {
    fn with(status: Status) -> ChatMember {
        ChatMember {
            status,
            until_date: 0,
            permissions: Map::new(),
            is_member: true,
            promoted_by_bot: false,
        }
    }

    fn in_chat(&self) -> bool {
        match self.status {
            Status::Left | Status::Kicked => false,
            Status::Restricted => self.is_member,
            _ => true,
        }
    }

    fn muted(&self) -> bool {
        self.status == Status::Restricted && self.permissions["can_send_messages"] == false
    }
}

#[derive(Debug, Default)]
struct Chat {
    members: BTreeMap<i64, ChatMember>,
    /// The texts the bot sent, oldest first.
    messages: Vec<String>,
    /// Every message of the chat (the bot's and pushed ones), for
    /// `deleteMessage` and tests.
    sent: Vec<TelegramMessage>,
}

#[derive(Debug)]
struct Bot {
    chat_id: i64,
    /// Users' `first_name` and `last_name` given by the tests
    /// ([`FakeTelegram::set_user_name`]); the others are `user <id>`.
    user_names: BTreeMap<i64, (String, Option<String>)>,
    /// The group's `getChat` settings.
    title: String,
    description: Option<String>,
    slow_mode_delay: Option<u32>,
    /// The group's primary invite link and public username (`getChat`).
    invite_link: Option<String>,
    username: Option<String>,
    chats: BTreeMap<i64, Chat>,
    bot_can_restrict: bool,
    default_permissions: Map<String, Value>,
    next_message_id: i64,
    /// Updates not yet confirmed by a `getUpdates` offset.
    updates: Vec<Value>,
    next_update_id: i64,
    /// `setWebhook`'s URL and secret token: one per bot, whatever number
    /// of groups it is in.
    webhook: Option<(String, Option<String>)>,
    /// How many times `setWebhook` set one.
    webhooks_set: usize,
    /// Groups that are basic groups (Chat `type` "group"); the others are
    /// supergroups.
    basic_groups: std::collections::BTreeSet<i64>,
    /// Basic groups upgraded to a supergroup: old chat id → new one.
    migrated: BTreeMap<i64, i64>,
    /// Whether the bot is an administrator of its groups.
    bot_is_admin: bool,
    /// The bot's administrator rights other than can_restrict_members, as
    /// set by the test (over those every administrator has here).
    bot_rights: Map<String, Value>,
    /// Users who started the bot (it may write to them).
    started: std::collections::BTreeSet<i64>,
    /// Users who blocked the bot.
    blocked: std::collections::BTreeSet<i64>,
    /// Telegram's unix time when a test pinned it.
    clock: Option<i64>,
    /// `sendMessage` times per group, for the rate limit.
    group_sends: std::collections::HashMap<i64, std::collections::VecDeque<std::time::Instant>>,
    group_limit: (usize, std::time::Duration),
    too_many_requests: usize,
    /// How many primary links `exportChatInviteLink` made ([`invites`]).
    links_exported: usize,
    /// The primary links it revoked, oldest first.
    revoked_links: Vec<String>,
    /// Callback queries issued by [`FakeTelegram::push_press`], by id.
    queries: BTreeMap<String, callbacks::Query>,
    /// The last `allowed_updates` given ([`admins`]).
    allowed_updates: Option<Vec<String>>,
    /// Users `promoteChatMember` demoted.
    demoted: Vec<i64>,
}

impl FakeTelegram {
    /// A group `chat_id` with its creator ([`OWNER`]) and the bot, an
    /// administrator that may restrict members.
    pub fn start(chat_id: i64) -> FakeTelegram {
        let mut default_permissions: Map<String, Value> = SEND_PERMISSIONS
            .iter()
            .map(|p| ((*p).to_owned(), Value::Bool(true)))
            .collect();
        for p in OTHER_PERMISSIONS {
            default_permissions.insert(p.to_owned(), Value::Bool(false));
        }
        let mut state = Bot {
            chat_id,
            user_names: BTreeMap::new(),
            title: "Fake Group".to_owned(),
            description: None,
            slow_mode_delay: None,
            invite_link: None,
            username: None,
            chats: BTreeMap::new(),
            bot_can_restrict: true,
            default_permissions,
            next_message_id: 1,
            updates: Vec::new(),
            next_update_id: 1,
            webhook: None,
            webhooks_set: 0,
            basic_groups: std::collections::BTreeSet::new(),
            migrated: BTreeMap::new(),
            bot_is_admin: true,
            bot_rights: Map::new(),
            started: std::collections::BTreeSet::new(),
            blocked: std::collections::BTreeSet::new(),
            clock: None,
            group_sends: std::collections::HashMap::new(),
            group_limit: (messages::GROUP_LIMIT, messages::GROUP_WINDOW),
            too_many_requests: 0,
            links_exported: 0,
            revoked_links: Vec::new(),
            queries: BTreeMap::new(),
            allowed_updates: None,
            demoted: Vec::new(),
        };
        state.add_chat(chat_id);
        let state = Arc::new(Mutex::new(state));
        let server = FakeServer::serve(&state, answer);
        FakeTelegram { server, state }
    }

    fn state(&self) -> MutexGuard<'_, Bot> {
        lock(&self.state)
    }

    /// The path of Bot API method `method`, e.g. `/bot<TOKEN>/banChatMember`,
    /// for `requests_to`, `fail` and `hold`.
    pub fn path(method: &str) -> String {
        format!("/bot{TOKEN}/{method}")
    }

    /// The next `times` calls of `method` fail with `code` and a
    /// description that quotes the request's path, bot token included, as a
    /// misrouted request's answer (or a proxy's page) does: the text a
    /// daemon must not keep, return or log as it came (issue #22).
    pub fn fail_quoting_path(&self, method: &str, code: u16, times: usize) {
        let path = Self::path(method);
        let description =
            format!("Bad Request: cannot route POST {path} (https://api.telegram.org{path})");
        self.fail_with("POST", &path, failure(code, &description), times);
    }

    /// The requests to Bot API method `method`.
    pub fn calls(&self, method: &str) -> Vec<Recorded> {
        self.requests_to("POST", &Self::path(method))
    }

    /// Another chat the bot administers (e.g. a mod-log channel).
    pub fn add_chat(&self, chat_id: i64) {
        self.state().add_chat(chat_id);
    }

    /// Another group of the bot (one bot serves several groups, with one
    /// update queue or webhook), with the bot an administrator and
    /// [`OWNER`] its creator.
    pub fn add_group(&self, chat_id: i64) {
        let mut state = self.state();
        state.add_chat(chat_id);
        state
            .chat(chat_id)
            .members
            .insert(OWNER, ChatMember::with(Status::Creator));
    }

    /// Makes `chat` a basic group (Chat `type` "group"), where Telegram
    /// refuses `restrictChatMember` and `unbanChatMember` (both "in a
    /// supergroup" in their Bot API entries).
    pub fn make_basic_group(&self, chat: i64) {
        self.state().basic_groups.insert(chat);
    }

    /// Upgrades basic group `from` to supergroup `to`, as Telegram does: the
    /// members move to the new chat, the old id answers every call with
    /// "group chat was upgraded to a supergroup chat" and
    /// `parameters.migrate_to_chat_id` (ResponseParameters), and two service
    /// messages are queued: `migrate_to_chat_id` in the old group and
    /// `migrate_from_chat_id` in the new one (Message). Returns both updates.
    pub fn upgrade_to_supergroup(&self, from: i64, to: i64, date: i64) -> (Value, Value) {
        {
            let mut state = self.state();
            state.basic_groups.remove(&from);
            let chat = state.chats.remove(&from).unwrap_or_default();
            state.chats.insert(to, chat);
            state.migrated.insert(from, to);
            if state.chat_id == from {
                state.chat_id = to;
            }
        }
        let old = self.push_old_chat(from, to, date);
        let new = self.push_in(
            to,
            OWNER,
            json!({"date": date, "migrate_from_chat_id": from}),
        );
        (old, new)
    }

    /// Whether the bot is an administrator of its groups; a bot that is not
    /// gets CHAT_ADMIN_REQUIRED for what needs one.
    pub fn set_bot_admin(&self, admin: bool) {
        self.state().bot_is_admin = admin;
    }

    /// Gives or takes an administrator right of the bot (`can_delete_messages`,
    /// `can_change_info`, `can_invite_users`, ...; ChatMemberAdministrator).
    pub fn set_bot_right(&self, right: &str, allowed: bool) {
        self.state()
            .bot_rights
            .insert(right.to_owned(), Value::Bool(allowed));
    }

    /// Makes `user` a plain member of the group.
    pub fn add_member(&self, user: i64) {
        self.set_status(user, Status::Member);
    }

    /// Makes `user` an administrator of the group, promoted by someone
    /// else than the bot.
    pub fn add_admin(&self, user: i64) {
        self.set_status(user, Status::Administrator);
    }

    /// Makes `user` an administrator the bot promoted: `getChatMember`
    /// says `can_be_edited` ("True, if the bot is allowed to edit
    /// administrator privileges of that user", telegram-bot-api.json,
    /// `ChatMemberAdministrator`).
    pub fn add_admin_promoted_by_bot(&self, user: i64) {
        let mut state = self.state();
        let chat_id = state.chat_id;
        let mut member = ChatMember::with(Status::Administrator);
        member.promoted_by_bot = true;
        state.chat(chat_id).members.insert(user, member);
    }

    /// Gives `user`, a member of the group, a first and last name (`User`:
    /// `first_name` required, `last_name` optional, telegram-bot-api.json).
    pub fn set_user_name(&self, user: i64, first: &str, last: Option<&str>) {
        self.state()
            .user_names
            .insert(user, (first.to_owned(), last.map(str::to_owned)));
    }

    /// Makes `user`, a member, leave the group (`ChatMemberLeft`).
    pub fn leave(&self, user: i64) {
        let mut state = self.state();
        let chat_id = state.chat_id;
        if let Some(member) = state.chat(chat_id).members.get_mut(&user) {
            member.status = Status::Left;
        }
    }

    /// Bans `user` for good, as if done before the test.
    pub fn ban_seed(&self, user: i64) {
        self.set_status(user, Status::Kicked);
    }

    fn set_status(&self, user: i64, status: Status) {
        let mut state = self.state();
        let chat_id = state.chat_id;
        state
            .chat(chat_id)
            .members
            .insert(user, ChatMember::with(status));
    }

    /// Whether the bot may restrict and ban members.
    pub fn set_bot_can_restrict(&self, allowed: bool) {
        self.state().bot_can_restrict = allowed;
    }

    /// The permissions the group grants members by default (merged into
    /// the current ones).
    pub fn set_default_permissions(&self, permissions: Value) {
        if let Value::Object(fields) = permissions {
            self.state().default_permissions.extend(fields);
        }
    }

    /// Sets the group's title, description and slow mode (`getChat`).
    pub fn set_chat_info(
        &self,
        title: &str,
        description: Option<&str>,
        slow_mode_delay: Option<u32>,
    ) {
        let mut state = self.state();
        state.title = title.to_owned();
        state.description = description.map(str::to_owned);
        state.slow_mode_delay = slow_mode_delay;
    }

    /// Sets the group's primary invite link (`https://t.me/+...`) and its
    /// public username, which `getChat` answers (ChatFullInfo
    /// `invite_link`, `username`).
    pub fn set_invite_info(&self, invite_link: Option<&str>, username: Option<&str>) {
        let mut state = self.state();
        state.invite_link = invite_link.map(str::to_owned);
        state.username = username.map(str::to_owned);
    }

    /// `user`'s status in the group, as `getChatMember` says it; `None` for
    /// a user the group never saw.
    pub fn status_of(&self, user: i64) -> Option<String> {
        self.member(user).map(|m| m.status.name().to_owned())
    }

    /// Whether `user` is banned from the group.
    pub fn is_banned(&self, user: i64) -> bool {
        self.member(user)
            .is_some_and(|m| m.status == Status::Kicked)
    }

    /// Whether `user` may not send messages in the group.
    pub fn is_muted(&self, user: i64) -> bool {
        self.member(user).is_some_and(|m| m.muted())
    }

    /// When `user`'s mute ends (0: never); `None` when not muted.
    pub fn muted_until(&self, user: i64) -> Option<i64> {
        self.member(user)
            .filter(ChatMember::muted)
            .map(|m| m.until_date)
    }

    /// The texts the bot sent to `chat`, oldest first.
    pub fn messages(&self, chat: i64) -> Vec<String> {
        self.state()
            .chats
            .get(&chat)
            .map(|c| c.messages.clone())
            .unwrap_or_default()
    }

    fn member(&self, user: i64) -> Option<ChatMember> {
        let state = self.state();
        state.chats[&state.chat_id].members.get(&user).cloned()
    }
}

/// Telegram's failure body; `error_code` is also the HTTP status.
fn failure(code: u16, description: &str) -> Reply {
    Reply::json(
        code,
        json!({ "ok": false, "error_code": code, "description": description }),
    )
}

fn bad_request(problem: &str) -> Reply {
    failure(400, &format!("Bad Request: {problem}"))
}

fn ok(result: Value) -> Reply {
    Reply::json(200, json!({ "ok": true, "result": result }))
}

const NOT_ENOUGH_RIGHTS: &str = "not enough rights to restrict/unrestrict chat member";
const CHAT_ADMIN_REQUIRED: &str = "CHAT_ADMIN_REQUIRED";

/// An integer parameter, sent as a number or a numeric string.
fn integer(value: Option<&Value>) -> Option<i64> {
    match value? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn flag(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    }
}

fn answer(state: &mut Bot, request: &Recorded) -> Reply {
    let Some(rest) = request.path.strip_prefix("/bot") else {
        return failure(404, "Not Found");
    };
    let Some((token, method)) = rest.split_once('/') else {
        return failure(404, "Not Found");
    };
    if token != TOKEN {
        return failure(401, "Unauthorized");
    }
    if !matches!(request.method.as_str(), "GET" | "POST") {
        return failure(404, "Not Found");
    }
    let params = arguments(request);
    // An upgraded group's old id answers every call with the new one
    // (ResponseParameters `migrate_to_chat_id`).
    if let Some(to) = integer(params.get("chat_id")).and_then(|chat| state.migrated.get(&chat)) {
        return Reply::json(
            400,
            json!({
                "ok": false, "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": to},
            }),
        );
    }
    match method {
        "getMe" => ok(json!({
            "id": BOT, "is_bot": true, "first_name": "modctl", "username": "modctl_bot",
            "can_join_groups": true, "can_read_all_group_messages": false, "supports_inline_queries": false,
        })),
        "getChatMember" => state.get_chat_member(&params),
        "getChat" => state.get_chat(&params),
        "getChatAdministrators" => state.get_chat_administrators(&params),
        "banChatMember" => state.ban(&params),
        "unbanChatMember" => state.unban(&params),
        "restrictChatMember" => state.restrict(&params),
        "sendMessage" => state.send_message(&params),
        "sendPhoto" => state.send_photo(&params),
        "deleteMessage" => state.delete_message(&params),
        "answerCallbackQuery" => state.answer_callback_query(&params),
        "setChatTitle" => state.set_title(&params),
        "setChatDescription" => state.set_description(&params),
        "setChatPermissions" => state.set_permissions(&params),
        "exportChatInviteLink" => state.export_invite_link(&params),
        "promoteChatMember" => state.promote(&params),
        "getUpdates" => state.get_updates(&params),
        "setWebhook" => state.set_webhook(&params),
        "deleteWebhook" => state.delete_webhook(),
        _ => failure(404, "Not Found"),
    }
}

fn user_json(user: i64) -> Value {
    json!({ "id": user, "is_bot": user == BOT, "first_name": format!("user {user}") })
}

fn member_json(user: i64, member: &ChatMember) -> Value {
    let mut object = json!({ "status": member.status.name(), "user": user_json(user) });
    match member.status {
        Status::Creator => object["is_anonymous"] = json!(false),
        Status::Administrator => {
            object["can_be_edited"] = json!(member.promoted_by_bot);
            object["is_anonymous"] = json!(false);
            object["can_manage_chat"] = json!(true);
            object["can_delete_messages"] = json!(true);
            object["can_restrict_members"] = json!(user == BOT);
            object["can_promote_members"] = json!(false);
            object["can_change_info"] = json!(false);
            object["can_invite_users"] = json!(true);
            object["can_pin_messages"] = json!(true);
        }
        Status::Restricted => {
            object["is_member"] = json!(member.is_member);
            object["until_date"] = json!(member.until_date);
            if let Value::Object(fields) = &mut object {
                fields.extend(member.permissions.clone());
            }
        }
        Status::Kicked => object["until_date"] = json!(member.until_date),
        Status::Member | Status::Left => {}
    }
    object
}

impl Bot {
    fn add_chat(&mut self, chat_id: i64) {
        let chat = self.chats.entry(chat_id).or_default();
        chat.members
            .insert(BOT, ChatMember::with(Status::Administrator));
        if chat_id == self.chat_id {
            chat.members
                .insert(OWNER, ChatMember::with(Status::Creator));
        }
    }

    /// The `type` of `Chat` for `chat_id`.
    fn chat_type(&self, chat_id: i64) -> &'static str {
        if self.basic_groups.contains(&chat_id) {
            "group"
        } else {
            "supergroup"
        }
    }

    fn chat(&mut self, chat_id: i64) -> &mut Chat {
        self.chats.entry(chat_id).or_default()
    }

    /// The chat and user the parameters name, both valid.
    fn target(&self, params: &Map<String, Value>) -> Result<(i64, i64), Reply> {
        let Some(chat) = integer(params.get("chat_id")).filter(|id| self.chats.contains_key(id))
        else {
            return Err(bad_request("chat not found"));
        };
        let Some(user) = integer(params.get("user_id")).filter(|u| *u > 0) else {
            return Err(bad_request("invalid user_id specified"));
        };
        Ok((chat, user))
    }

    fn member(&self, chat: i64, user: i64) -> Option<&ChatMember> {
        self.chats[&chat].members.get(&user)
    }

    fn get_chat(&self, params: &Map<String, Value>) -> Reply {
        let Some(chat) = integer(params.get("chat_id")).filter(|id| self.chats.contains_key(id))
        else {
            return bad_request("chat not found");
        };
        let mut info = json!({
            "id": chat, "type": self.chat_type(chat), "title": self.title,
            "permissions": self.default_permissions,
            "accent_color_id": 0, "max_reaction_count": 11,
        });
        // Telegram leaves optional fields out rather than sending null.
        if let Some(description) = &self.description {
            info["description"] = json!(description);
        }
        if let Some(delay) = self.slow_mode_delay {
            info["slow_mode_delay"] = json!(delay);
        }
        // ChatFullInfo (telegram-bot-api.json): `invite_link` "Primary
        // invite link, for groups, supergroups and channel chats";
        // `username` "for private chats, supergroups and channels if
        // available": a basic group has none.
        if let Some(link) = &self.invite_link {
            info["invite_link"] = json!(link);
        }
        if let Some(name) = self
            .username
            .as_ref()
            .filter(|_| self.chat_type(chat) == "supergroup")
        {
            info["username"] = json!(name);
            info["active_usernames"] = json!([name]);
        }
        ok(info)
    }

    fn get_chat_administrators(&self, params: &Map<String, Value>) -> Reply {
        let Some(chat) = integer(params.get("chat_id")).filter(|id| self.chats.contains_key(id))
        else {
            return bad_request("chat not found");
        };
        let admins: Vec<Value> = self.chats[&chat]
            .members
            .iter()
            .filter(|(user, m)| {
                matches!(m.status, Status::Creator | Status::Administrator)
                    && (**user != BOT || self.bot_is_admin)
            })
            .map(|(user, m)| self.with_bot_rights(*user, member_json(*user, m)))
            .collect();
        ok(json!(admins))
    }

    fn get_chat_member(&self, params: &Map<String, Value>) -> Reply {
        let (chat, user) = match self.target(params) {
            Ok(target) => target,
            Err(reply) => return reply,
        };
        match self.member(chat, user) {
            Some(member) => {
                let mut member = member_json(user, member);
                if let Some((first, last)) = self.user_names.get(&user) {
                    member["user"]["first_name"] = json!(first);
                    if let Some(last) = last {
                        member["user"]["last_name"] = json!(last);
                    }
                }
                ok(self.with_bot_rights(user, member))
            }
            None => bad_request("user not found"),
        }
    }

    /// Checks the bot's rights, then who the member is; the target if the
    /// bot may act on them.
    fn actionable(
        &self,
        params: &Map<String, Value>,
        owner_problem: &str,
    ) -> Result<(i64, i64), Reply> {
        let (chat, user) = self.target(params)?;
        // banChatMember, restrictChatMember, unbanChatMember: "The bot must
        // be an administrator in the chat for this to work and must have the
        // appropriate administrator rights" (Bot API reference); Telegram
        // answers CHAT_ADMIN_REQUIRED to a bot that is no administrator, and
        // "not enough rights" to one without can_restrict_members.
        if !self.bot_is_admin {
            return Err(bad_request(CHAT_ADMIN_REQUIRED));
        }
        if !self.bot_can_restrict {
            return Err(bad_request(NOT_ENOUGH_RIGHTS));
        }
        match self.member(chat, user).map(|m| m.status) {
            Some(Status::Creator) => Err(bad_request(owner_problem)),
            Some(Status::Administrator) => Err(bad_request("user is an administrator of the chat")),
            _ => Ok((chat, user)),
        }
    }

    /// The bot's own `ChatMember` as the test set it up: a plain member
    /// when it is no administrator, else an administrator with the rights
    /// given (ChatMemberAdministrator `can_*`).
    fn with_bot_rights(&self, user: i64, mut member: Value) -> Value {
        if user != BOT {
            return member;
        }
        if !self.bot_is_admin {
            return json!({ "status": "member", "user": user_json(BOT) });
        }
        member["can_restrict_members"] = json!(self.bot_can_restrict);
        for (right, value) in &self.bot_rights {
            member[right] = value.clone();
        }
        member
    }

    /// `restrictChatMember` ("restrict a user in a supergroup") and
    /// `unbanChatMember` ("unban a previously banned user in a supergroup or
    /// channel") do not work in a basic group; Telegram's texts.
    fn supergroup_only(&self, params: &Map<String, Value>, method: &str) -> Result<(), Reply> {
        match integer(params.get("chat_id")) {
            Some(chat) if self.basic_groups.contains(&chat) => Err(bad_request(match method {
                "unbanChatMember" => "method is available for supergroup and channel chats only",
                _ => "method is available only for supergroups",
            })),
            _ => Ok(()),
        }
    }

    fn ban(&mut self, params: &Map<String, Value>) -> Reply {
        let (chat, user) = match self.actionable(params, "can't remove chat owner") {
            Ok(target) => target,
            Err(reply) => return reply,
        };
        let banned = ChatMember {
            until_date: integer(params.get("until_date")).unwrap_or(0),
            ..ChatMember::with(Status::Kicked)
        };
        self.chat(chat).members.insert(user, banned);
        ok(json!(true))
    }

    /// Lifts a ban; without `only_if_banned` it also removes a member, as
    /// Telegram documents.
    fn unban(&mut self, params: &Map<String, Value>) -> Reply {
        if let Err(reply) = self.supergroup_only(params, "unbanChatMember") {
            return reply;
        }
        let (chat, user) = match self.actionable(params, "can't remove chat owner") {
            Ok(target) => target,
            Err(reply) => return reply,
        };
        let member = self.member(chat, user);
        let banned = member.is_some_and(|m| m.status == Status::Kicked);
        let only_if_banned = flag(params.get("only_if_banned"));
        if banned || (!only_if_banned && member.is_some_and(ChatMember::in_chat)) {
            self.chat(chat)
                .members
                .insert(user, ChatMember::with(Status::Left));
        }
        ok(json!(true))
    }

    fn restrict(&mut self, params: &Map<String, Value>) -> Reply {
        if let Err(reply) = self.supergroup_only(params, "restrictChatMember") {
            return reply;
        }
        let Some(Value::Object(given)) = params.get("permissions") else {
            return bad_request("field \"permissions\" must be of type Object");
        };
        let (chat, user) = match self.actionable(params, "can't restrict chat owner") {
            Ok(target) => target,
            Err(reply) => return reply,
        };
        let Some(member) = self
            .member(chat, user)
            .filter(|m| m.status != Status::Kicked)
        else {
            return bad_request("user not found");
        };
        // Absent permissions are refused, as Telegram reads them.
        let permissions: Map<String, Value> = SEND_PERMISSIONS
            .iter()
            .chain(OTHER_PERMISSIONS.iter())
            .map(|p| ((*p).to_owned(), Value::Bool(flag(given.get(*p)))))
            .collect();
        let lifted = self
            .default_permissions
            .iter()
            .all(|(name, allowed)| *allowed == false || permissions[name] == true);
        let updated = match (lifted, member.in_chat()) {
            (true, true) => ChatMember::with(Status::Member),
            (true, false) => ChatMember::with(Status::Left),
            (false, is_member) => ChatMember {
                status: Status::Restricted,
                until_date: integer(params.get("until_date")).unwrap_or(0),
                permissions,
                is_member,
                promoted_by_bot: false,
            },
        };
        self.chat(chat).members.insert(user, updated);
        ok(json!(true))
    }
}
