//! Telegram Bot API: `POST {base}/bot<token>/<method>` with JSON bodies.
//!
//! The token is part of the URL, so URLs are never logged or put in errors.

use async_trait::async_trait;
use modctl_types::{Platform, Timestamp};
use serde::Deserialize;
use serde_json::{Value, json};

use super::ReplaceInviteLink;
use super::greeting::{Greeting, telegram_greeting};
use super::post::{Post, telegram_batch, telegram_message};
use super::{AdminStanding, DemoteAdmin};
use super::{
    Ban, DeleteMessage, Greet, InlineButtons, InspectMember, MemberNames, MemberState, Mute,
    OwnInvites, PlatformClients, PlatformError, PlatformResult, PostMessage, RankMember,
    ReadInvites, Redactor, Repeat,
};

/// The public API.
pub const DEFAULT_API_BASE: &str = "https://api.telegram.org";

/// The permissions of a restriction: a mute takes every send permission
/// away; lifting it passes every permission as true, which is how Telegram
/// ends a restriction (a permission left out counts as false, and a member
/// short of the chat's default permissions stays restricted).
fn permissions(allowed: bool) -> Value {
    let mut permissions = send_permissions(allowed);
    if allowed {
        for other in [
            "can_change_info",
            "can_invite_users",
            "can_pin_messages",
            "can_manage_topics",
        ] {
            permissions[other] = Value::Bool(true);
        }
    }
    permissions
}

/// Every send permission, all set to `allowed`.
fn send_permissions(allowed: bool) -> Value {
    json!({
        "can_send_messages": allowed,
        "can_send_audios": allowed,
        "can_send_documents": allowed,
        "can_send_photos": allowed,
        "can_send_videos": allowed,
        "can_send_video_notes": allowed,
        "can_send_voice_notes": allowed,
        "can_send_polls": allowed,
        "can_send_other_messages": allowed,
        "can_add_web_page_previews": allowed,
    })
}

/// A Telegram group, through a bot.
pub struct Telegram {
    clients: PlatformClients,
    base: String,
    token: String,
    /// The token and the connection's other secrets (the webhook's).
    secrets: Redactor,
    chat_id: i64,
}

impl std::fmt::Debug for Telegram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telegram")
            .field("base", &self.base)
            .field("chat_id", &self.chat_id)
            .finish_non_exhaustive()
    }
}

impl Telegram {
    /// An adapter for group `chat_id` (validated as an integer when claimed).
    pub fn new(
        clients: PlatformClients,
        api_base: Option<String>,
        token: String,
        chat_id: &str,
    ) -> Self {
        let base = super::api_base(api_base, DEFAULT_API_BASE);
        Telegram {
            clients,
            base,
            secrets: Redactor::new([&token]),
            token,
            chat_id: chat_id.parse().unwrap_or_default(),
        }
    }

    /// Also keeps `secrets` (the connection's other ones) out of its errors.
    #[must_use]
    pub fn redacting(mut self, secrets: &[String]) -> Self {
        self.secrets = self.secrets.with(secrets);
        self
    }

    async fn call(&self, method: &str, body: Value) -> PlatformResult<Value> {
        self.call_redacting(method, body, &self.secrets).await
    }

    /// [`Self::call`], with `secrets` (this adapter's, perhaps with what
    /// the call sends) redacted from its errors.
    async fn call_redacting(
        &self,
        method: &str,
        body: Value,
        secrets: &Redactor,
    ) -> PlatformResult<Value> {
        let url = format!("{}/bot{}/{method}", self.base, self.token);
        self.clients
            .retried(Platform::Telegram, repeat(method), || async {
                let response = self
                    .clients
                    .http
                    .post(&url)
                    .json(&body)
                    .send()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
                read(response, secrets).await
            })
            .await
    }

    /// [`Self::call`] as `multipart/form-data` (the Bot API's way to
    /// upload a file, "Sending files"): `fields` as text parts, `file` as
    /// (field, file name, PNG bytes).
    async fn call_upload(
        &self,
        method: &str,
        fields: &[(&str, String)],
        (field, name, bytes): (&str, &str, &[u8]),
    ) -> PlatformResult<Value> {
        let url = format!("{}/bot{}/{method}", self.base, self.token);
        self.clients
            .retried(Platform::Telegram, repeat(method), || async {
                let part = reqwest::multipart::Part::bytes(bytes.to_vec())
                    .file_name(name.to_owned())
                    .mime_str("image/png")
                    .map_err(|e| {
                        PlatformError::Invalid(format!("an upload's content type: {e}"))
                    })?;
                let mut form = reqwest::multipart::Form::new();
                for (key, value) in fields {
                    form = form.text(key.to_string(), value.clone());
                }
                let response = self
                    .clients
                    .http
                    .post(&url)
                    .multipart(form.part(field.to_owned(), part))
                    .send()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
                read(response, &self.secrets).await
            })
            .await
    }

    fn user(user: &str) -> PlatformResult<i64> {
        user.parse()
            .map_err(|_| PlatformError::Invalid(format!("`{user}` is not a Telegram user id")))
    }

    async fn restrict(
        &self,
        user: &str,
        allowed: bool,
        until: Option<Timestamp>,
    ) -> PlatformResult<()> {
        let mut body = json!({
            "chat_id": self.chat_id,
            "user_id": Self::user(user)?,
            "permissions": permissions(allowed),
        });
        if !allowed {
            // 0 means "forever" to Telegram.
            body["until_date"] = json!(until.map_or(0, |t| t.as_second()));
        }
        self.call("restrictChatMember", body).await.map(drop)
    }
}

/// What `getChat` says a chat is, for connecting it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatKind {
    /// A supergroup: every method the daemon calls works.
    Supergroup,
    /// A basic group: `restrictChatMember` and `unbanChatMember` work only in
    /// supergroups (their entries in the Bot API reference).
    BasicGroup,
    /// The group was upgraded to the supergroup with this id
    /// (ResponseParameters `migrate_to_chat_id`).
    MigratedTo(i64),
    /// A private chat or a channel (`type`).
    Other(String),
}

impl Telegram {
    /// `getChat` for the group (ChatFullInfo `type`: "private", "group",
    /// "supergroup" or "channel"), following an upgrade: a group that became
    /// a supergroup answers every call with `migrate_to_chat_id` in the
    /// error's `parameters` (ResponseParameters).
    pub async fn chat_kind(&self) -> PlatformResult<ChatKind> {
        let url = format!("{}/bot{}/getChat", self.base, self.token);
        let body = json!({ "chat_id": self.chat_id });
        let secrets = &self.secrets;
        self.clients
            .retried(Platform::Telegram, Repeat::Safe, || async {
                let response = self
                    .clients
                    .http
                    .post(&url)
                    .json(&body)
                    .send()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
                let status = response.status().as_u16();
                let text = response
                    .text()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
                let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                if let Some(to) = answer["parameters"]["migrate_to_chat_id"].as_i64() {
                    return Ok(ChatKind::MigratedTo(to));
                }
                let chat = interpret(status, answer, secrets)?;
                Ok(match chat["type"].as_str() {
                    Some("supergroup") => ChatKind::Supergroup,
                    Some("group") => ChatKind::BasicGroup,
                    Some(other) => ChatKind::Other(other.to_owned()),
                    None => {
                        return Err(PlatformError::Invalid(
                            "unexpected chat from Telegram: no `type`".to_owned(),
                        ));
                    }
                })
            })
            .await
    }
}

/// The bot's own place in the group, for the onboarding checklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotMembership {
    /// What the group is.
    pub chat: ChatKind,
    /// The bot's `ChatMember` status (`administrator`, `member`, ...).
    pub status: String,
    /// Its administrator rights that are true (ChatMemberAdministrator
    /// `can_*`), sorted; none unless it is an administrator.
    pub rights: Vec<String>,
}

impl Telegram {
    /// The group's kind (`getChat`) and the bot's status and rights in it
    /// (`getMe` for its id, then `getChatMember`).
    pub async fn bot_membership(&self) -> PlatformResult<BotMembership> {
        let chat = self.chat_kind().await?;
        let me = self.call("getMe", json!({})).await?;
        let Some(bot) = me["id"].as_i64() else {
            return Err(PlatformError::Invalid(
                "unexpected answer to getMe from Telegram: no `id`".to_owned(),
            ));
        };
        let member = self
            .call(
                "getChatMember",
                json!({ "chat_id": self.chat_id, "user_id": bot }),
            )
            .await?;
        let status = member["status"].as_str().unwrap_or_default().to_owned();
        let mut rights: Vec<String> = member
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(name, value)| name.starts_with("can_") && **value == Value::Bool(true))
            .map(|(name, _)| name.clone())
            .collect();
        rights.sort();
        Ok(BotMembership {
            chat,
            status,
            rights,
        })
    }
}

/// Whether `method` may be sent again after a failure that leaves open
/// whether Telegram carried it out (see [`super::retry`]). The methods the
/// daemon calls set a state and answer `True` whatever it was before
/// (shared/platform-specs/telegram-bot-api.json: `banChatMember`,
/// `restrictChatMember`, `setChat*`; `unbanChatMember` because the daemon
/// passes `only_if_banned`, without which a repeat would remove a member
/// who rejoined) or only read; `sendMessage` sends a second message.
fn repeat(method: &str) -> Repeat {
    match method {
        "sendMessage" => Repeat::Once,
        _ if method.starts_with("get") => Repeat::Safe,
        "banChatMember" | "unbanChatMember" | "restrictChatMember" | "setChatTitle"
        | "setChatDescription" | "setChatPermissions" | "setWebhook" | "deleteWebhook" => {
            Repeat::Safe
        }
        // Only ever sent with every right false (a demotion): the same
        // state whatever it was.
        "promoteChatMember" => Repeat::Safe,
        // A method added later is not repeated until its entry says it may be.
        _ => Repeat::Once,
    }
}

/// Setting the group's title, description and permissions for restores.
pub mod apply;
/// Reading the group's structure for snapshots.
pub mod structure;
/// Updates (long polling, webhook) decoded for activity.
pub mod updates;

/// A `ChatMember` as Telegram sends it (the fields the daemon reads);
/// `can_send_messages` is only there for restricted members.
#[derive(Debug, Deserialize)]
struct ChatMember {
    status: String,
    /// Every `ChatMember` kind has its `user` (telegram-bot-api.json).
    #[serde(default)]
    user: Option<ChatUser>,
    #[serde(default)]
    can_send_messages: Option<bool>,
    /// `ChatMemberAdministrator.can_be_edited`: "True, if the bot is
    /// allowed to edit administrator privileges of that user".
    #[serde(default)]
    can_be_edited: Option<bool>,
}

/// A `User`'s names (telegram-bot-api.json: `first_name` required,
/// `last_name` optional).
#[derive(Debug, Deserialize)]
struct ChatUser {
    #[serde(default)]
    first_name: String,
    #[serde(default)]
    last_name: Option<String>,
}

/// The answer's `result`, or the error it reports with `secrets` redacted
/// (a description may quote the request's path, `/bot<TOKEN>/method`).
async fn read(response: reqwest::Response, secrets: &Redactor) -> PlatformResult<Value> {
    let (status, text) = read_text(response, secrets).await?;
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    interpret(status, body, secrets)
}

/// The answer's status and body.
async fn read_text(
    response: reqwest::Response,
    secrets: &Redactor,
) -> PlatformResult<(u16, String)> {
    let status = response.status().as_u16();
    let text = response
        .text()
        .await
        .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
    Ok((status, text))
}

/// A Bot API answer's `result`, or the error it reports with `secrets`
/// redacted.
fn interpret(status: u16, body: Value, secrets: &Redactor) -> PlatformResult<Value> {
    if body["ok"] == Value::Bool(true) {
        return Ok(body["result"].clone());
    }
    let code = body["error_code"].as_u64().map_or(status, |c| c as u16);
    let mut description = body["description"]
        .as_str()
        .unwrap_or("no description")
        .to_owned();
    // A call to a group upgraded to a supergroup (ResponseParameters
    // `migrate_to_chat_id`): the daemon follows the upgrade from the
    // service messages; until it has, connecting again follows it.
    let migrated = body["parameters"]["migrate_to_chat_id"].as_i64();
    if let Some(to) = migrated {
        description = format!(
            "{description} (now supergroup {to}: connect the server again with `modctld server connect`, which follows the upgrade; a log chat: set its id to {to} in the `logging` config)"
        );
    }
    let lower = description.to_lowercase();
    Err(match code {
        401 => PlatformError::Unauthorized,
        // The chat refuses every call at this id: it lives on under
        // another. A refusal of the chat, not a malformed request (a log
        // channel is failed and shown in onboarding, not its entries given
        // up); not NotFound, which some callers take for "already done"
        // (a message to delete that is gone, a member never seen).
        _ if migrated.is_some() => PlatformError::Forbidden(description),
        403 => PlatformError::Forbidden(description),
        429 => PlatformError::RateLimited {
            retry_after: super::seconds(body["parameters"]["retry_after"].as_f64().unwrap_or(1.0)),
        },
        500..=599 => PlatformError::Server {
            status: code,
            message: description,
        },
        // Telegram reports most refusals as 400 with a description: the bot
        // is not an administrator (CHAT_ADMIN_REQUIRED, "need administrator
        // rights"), lacks a right ("not enough rights to ...", "have no
        // rights to ..."), may not write (CHAT_WRITE_FORBIDDEN), or the
        // member is out of its reach (the owner, an administrator). Each is
        // a refusal to fix on Telegram, not a request to fix here. So are a
        // chat whose members may not write (CHAT_RESTRICTED) and a closed
        // forum topic (TOPIC_CLOSED): the chat refuses until it is opened.
        _ if lower.contains("not enough rights")
            || lower.contains("have no rights")
            || lower.contains("chat_admin_required")
            || lower.contains("chat_write_forbidden")
            || lower.contains("chat_restricted")
            || lower.contains("topic_closed")
            || lower.contains("can't remove chat owner")
            || lower.contains("administrator") =>
        {
            PlatformError::Forbidden(description)
        }
        _ if lower.contains("user not found")
            || lower.contains("participant_id_invalid")
            || lower.contains("chat not found")
            || lower.contains("message thread not found")
            || lower.contains("topic_deleted") =>
        {
            PlatformError::NotFound(description)
        }
        _ => PlatformError::Invalid(description),
    }
    .redacted(secrets))
}

#[async_trait]
impl Ban for Telegram {
    async fn ban(
        &self,
        user: &str,
        delete_message_days: u8,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let body = json!({
            "chat_id": self.chat_id,
            "user_id": Self::user(user)?,
            "revoke_messages": delete_message_days > 0,
        });
        self.call("banChatMember", body).await.map(drop)
    }

    async fn unban(&self, user: &str, _reason: Option<&str>) -> PlatformResult<()> {
        let body = json!({ "chat_id": self.chat_id, "user_id": Self::user(user)?, "only_if_banned": true });
        self.call("unbanChatMember", body).await.map(drop)
    }
}

#[async_trait]
impl ReplaceInviteLink for Telegram {
    async fn replace_invite_link(&self) -> PlatformResult<String> {
        let link = self
            .call("exportChatInviteLink", json!({ "chat_id": self.chat_id }))
            .await?;
        link.as_str()
            .map(str::to_owned)
            .ok_or_else(|| PlatformError::Invalid("exportChatInviteLink answered no link".into()))
    }
}

#[async_trait]
impl Mute for Telegram {
    async fn mute(&self, user: &str, until: Option<Timestamp>) -> PlatformResult<()> {
        self.restrict(user, false, until).await
    }

    async fn unmute(&self, user: &str) -> PlatformResult<()> {
        self.restrict(user, true, None).await
    }
}

impl Telegram {
    /// `getChatMember` of `user` in the chat: `None` when Telegram does not
    /// know them there.
    async fn chat_member(&self, user: &str) -> PlatformResult<Option<ChatMember>> {
        let body = json!({ "chat_id": self.chat_id, "user_id": Self::user(user)? });
        match self.call("getChatMember", body).await {
            Ok(member) => serde_json::from_value(member).map(Some).map_err(|e| {
                PlatformError::Invalid(format!("unexpected chat member from Telegram: {e}"))
            }),
            Err(PlatformError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[async_trait]
impl RankMember for Telegram {
    /// `getChatMember` (telegram-bot-api.json): the group's `creator`, and
    /// an `administrator` the bot cannot edit (`can_be_edited` false: one
    /// the bot did not promote, which Telegram does not let it restrict or
    /// ban, so "above the bot"). Telegram has no role order beyond that; an
    /// administrator the bot promoted is filtered like any member.
    async fn above_automod(&self, user: &str) -> PlatformResult<bool> {
        // Never seen in the chat: an ordinary member at most.
        let Some(member) = self.chat_member(user).await? else {
            return Ok(false);
        };
        Ok(match member.status.as_str() {
            "creator" => true,
            "administrator" => member.can_be_edited != Some(true),
            _ => false,
        })
    }
}

/// Every right `promoteChatMember` takes (telegram-bot-api.json): all false
/// demotes.
const ADMIN_RIGHTS: [&str; 17] = [
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_post_messages",
    "can_edit_messages",
    "can_pin_messages",
    "can_manage_topics",
    "can_manage_direct_messages",
    "can_manage_tags",
];

#[async_trait]
impl DemoteAdmin for Telegram {
    async fn bot_user_id(&self) -> PlatformResult<String> {
        let me = self.call("getMe", json!({})).await?;
        me["id"].as_i64().map(|id| id.to_string()).ok_or_else(|| {
            PlatformError::Invalid("unexpected answer to getMe from Telegram: no `id`".to_owned())
        })
    }

    async fn admin_standing(&self, user: &str) -> PlatformResult<AdminStanding> {
        let Some(member) = self.chat_member(user).await? else {
            return Ok(AdminStanding::Other);
        };
        Ok(match member.status.as_str() {
            "creator" => AdminStanding::Owner,
            "administrator" => AdminStanding::Admin {
                editable: member.can_be_edited == Some(true),
            },
            _ => AdminStanding::Other,
        })
    }

    async fn demote(&self, user: &str) -> PlatformResult<()> {
        let mut body = json!({ "chat_id": self.chat_id, "user_id": Self::user(user)? });
        for right in ADMIN_RIGHTS {
            body[right] = json!(false);
        }
        self.call("promoteChatMember", body).await.map(drop)
    }
}

#[async_trait]
impl InspectMember for Telegram {
    async fn inspect_member(&self, user: &str) -> PlatformResult<MemberState> {
        // Never seen in the chat: neither there, nor banned, nor muted.
        let Some(member) = self.chat_member(user).await? else {
            return Ok(MemberState {
                muted: Some(false),
                ..MemberState::default()
            });
        };
        Ok(MemberState {
            present: !matches!(member.status.as_str(), "left" | "kicked"),
            banned: member.status == "kicked",
            roles: None,
            timed_out_until: None,
            muted: Some(member.status == "restricted" && member.can_send_messages == Some(false)),
        })
    }
}

#[async_trait]
impl MemberNames for Telegram {
    /// `getChatMember` (telegram-bot-api.json: "Use this method to get
    /// information about a member of a chat"): the `user`'s first and last
    /// name, as the event path reads a message's author. A member who left
    /// or was banned is still named (their `ChatMemberLeft`/`Banned` carries
    /// the user); one Telegram never saw in the chat ("user not found") is
    /// `None`.
    async fn member_name(&self, user: &str) -> PlatformResult<Option<String>> {
        let Some(member) = self.chat_member(user).await? else {
            return Ok(None);
        };
        Ok(member.user.and_then(|u| {
            let full = match u.last_name.filter(|l| !l.trim().is_empty()) {
                Some(last) => format!("{} {last}", u.first_name),
                None => u.first_name,
            };
            (!full.trim().is_empty()).then_some(full)
        }))
    }
}

/// A chat id as Telegram takes it: an integer, or an `@username`.
fn chat_id(chat: &str) -> Value {
    chat.parse::<i64>()
        .map_or_else(|_| json!(chat), |id| json!(id))
}

#[async_trait]
impl PostMessage for Telegram {
    /// `sendMessage` (telegram-bot-api.json) with the post as escaped HTML,
    /// without link previews, silently ([`telegram_message`]).
    async fn post(&self, channel: &str, post: &Post) -> PlatformResult<()> {
        let mut args = telegram_message(post);
        args.insert("chat_id".into(), chat_id(channel));
        self.call("sendMessage", Value::Object(args))
            .await
            .map(drop)
    }

    /// One `sendMessage` of up to 4096 characters, a blank line between
    /// posts ([`telegram_batch`]).
    async fn post_batch(&self, channel: &str, posts: &[Post]) -> PlatformResult<usize> {
        if posts.is_empty() {
            return Ok(0);
        }
        let (mut args, count) = telegram_batch(posts);
        args.insert("chat_id".into(), chat_id(channel));
        self.call("sendMessage", Value::Object(args))
            .await
            .map(|_| count)
    }
}

#[async_trait]
impl Greet for Telegram {
    /// `sendMessage` to `channel` (the group, as `welcome.channel_id`
    /// names it) with the greeting as HTML mentioning the member
    /// ([`telegram_greeting`]).
    async fn greet(&self, channel: &str, greeting: &Greeting) -> PlatformResult<()> {
        let mut args = telegram_greeting(greeting);
        args.insert("chat_id".into(), chat_id(channel));
        self.call("sendMessage", Value::Object(args))
            .await
            .map(drop)
    }
}

#[async_trait]
impl InlineButtons for Telegram {
    /// `sendMessage` (telegram-bot-api.json) with `reply_markup` an
    /// `InlineKeyboardMarkup` of one `InlineKeyboardButton` (`text`,
    /// `callback_data`); the sent Message's `message_id`.
    async fn post_inline_button(
        &self,
        post: &Post,
        label: &str,
        callback_data: &str,
    ) -> PlatformResult<String> {
        let mut args = telegram_message(post);
        args.insert("chat_id".into(), json!(self.chat_id));
        args.insert(
            "reply_markup".into(),
            json!({"inline_keyboard": [[{"text": label, "callback_data": callback_data}]]}),
        );
        let sent = self.call("sendMessage", Value::Object(args)).await?;
        sent["message_id"]
            .as_i64()
            .map(|id| id.to_string())
            .ok_or_else(|| PlatformError::Invalid("sendMessage answered no `message_id`".into()))
    }

    /// `answerCallbackQuery` (telegram-bot-api.json): `callback_query_id`,
    /// `text` (0-200 characters), `show_alert`.
    async fn answer_callback(&self, query_id: &str, text: &str, alert: bool) -> PlatformResult<()> {
        let text: String = text.chars().take(200).collect();
        self.call(
            "answerCallbackQuery",
            json!({"callback_query_id": query_id, "text": text, "show_alert": alert}),
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl super::PhotoKeyboard for Telegram {
    /// `sendPhoto` (telegram-bot-api.json) uploading the photo as
    /// `multipart/form-data`, `caption` (0-1024 characters), `reply_markup`
    /// an `InlineKeyboardMarkup` (JSON-serialized, as every object field of
    /// a multipart call); the sent Message's `message_id`.
    async fn post_photo_keyboard(
        &self,
        caption: &str,
        image: &[u8],
        keyboard: &[Vec<(String, String)>],
    ) -> PlatformResult<String> {
        let rows: Vec<Vec<Value>> = keyboard
            .iter()
            .map(|row| {
                row.iter()
                    .map(|(text, data)| json!({"text": text, "callback_data": data}))
                    .collect()
            })
            .collect();
        let caption: String = caption.chars().take(1024).collect();
        let fields = [
            ("chat_id", self.chat_id.to_string()),
            ("caption", caption),
            (
                "reply_markup",
                json!({ "inline_keyboard": rows }).to_string(),
            ),
        ];
        let sent = self
            .call_upload("sendPhoto", &fields, ("photo", "captcha.png", image))
            .await?;
        sent["message_id"]
            .as_i64()
            .map(|id| id.to_string())
            .ok_or_else(|| PlatformError::Invalid("sendPhoto answered no `message_id`".into()))
    }
}

#[async_trait]
impl DeleteMessage for Telegram {
    /// `deleteMessage` with `chat_id` and the integer `message_id`
    /// (telegram-bot-api.json): any message of a group the bot administers
    /// with `can_delete_messages`, sent less than 48 hours ago. `channel` is
    /// the chat (a group's messages are in the group itself).
    async fn delete_message(
        &self,
        channel: &str,
        message: &str,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let message_id: i64 = message.parse().map_err(|_| {
            PlatformError::Invalid(format!(
                "Telegram message ids are integers, not {message:?}"
            ))
        })?;
        let body = json!({ "chat_id": chat_id(channel), "message_id": message_id });
        self.call("deleteMessage", body).await.map(drop)
    }
}

#[async_trait]
impl ReadInvites for Telegram {
    /// `getChat` (Bot API reference: "Returns a ChatFullInfo object"): its
    /// `invite_link` ("Primary invite link, for groups, supergroups and
    /// channel chats", absent unless the bot is an administrator with the
    /// right to invite; also under its older `joinchat/` form) and its
    /// public `username`/`active_usernames` (a public supergroup's
    /// `t.me/<username>`), each under both of Telegram's hosts (`t.me`,
    /// `telegram.me`).
    async fn own_invites(&self) -> PlatformResult<OwnInvites> {
        let chat = self
            .call("getChat", json!({ "chat_id": self.chat_id }))
            .await?;
        let mut links = Vec::new();
        if let Some(link) = chat["invite_link"].as_str() {
            let path = link
                .trim_start_matches("https://")
                .trim_start_matches("http://")
                .trim_start_matches("t.me/")
                .trim_start_matches("telegram.me/");
            links.push(path.to_owned());
            // The same invite under its other form: `+HASH` is what
            // `joinchat/HASH` was, and Telegram opens both.
            if let Some(hash) = path.strip_prefix('+') {
                links.push(format!("joinchat/{hash}"));
            } else if let Some(hash) = path.strip_prefix("joinchat/") {
                links.push(format!("+{hash}"));
            }
        }
        let names = chat["active_usernames"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(std::iter::once(&chat["username"]))
            .filter_map(Value::as_str);
        for name in names {
            if !links.iter().any(|l| l.eq_ignore_ascii_case(name)) {
                links.push(name.to_owned());
            }
        }
        Ok(OwnInvites {
            invites: links
                .iter()
                .flat_map(|path| [format!("t.me/{path}"), format!("telegram.me/{path}")])
                .collect(),
            refused: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::platform::redact::{REDACTED, answer};

    const TOKEN: &str = "123456:AAE-telegram-secret-part-0123456789";

    /// A description quoting the request's path carries the bot token: the
    /// error keeps the description without it, whatever kind it is read as.
    #[tokio::test]
    async fn a_description_quoting_the_token_is_redacted() {
        let secrets = Redactor::new([TOKEN, "hook-secret-token"]);
        let quoting = format!("wrong path /bot{TOKEN}/banChatMember (secret hook-secret-token)");
        for (code, description) in [
            (400, format!("Bad Request: {quoting}")),
            (403, format!("Forbidden: {quoting}")),
            (400, format!("Bad Request: user not found at {quoting}")),
            (502, format!("Bad Gateway: {quoting}")),
        ] {
            let body = json!({"ok": false, "error_code": code, "description": description});
            let error = read(answer(code, body), &secrets).await.unwrap_err();
            let text = error.to_string();
            assert!(!text.contains("telegram-secret-part"), "{text}");
            assert!(!text.contains("hook-secret-token"), "{text}");
            assert!(
                text.contains(&format!("/bot{REDACTED}/banChatMember")),
                "{text}"
            );
        }
    }

    /// Telegram's 400s read by whose problem they are: the chat refusing
    /// (gone, moved, closed, restricted) is not a malformed request. The
    /// descriptions are the Bot API's (a migrated group answers with
    /// ResponseParameters `migrate_to_chat_id`).
    #[test]
    fn refusals_of_the_chat_are_told_from_malformed_requests() {
        #[derive(Debug, PartialEq)]
        enum Kind {
            NotFound,
            Forbidden,
            Invalid,
        }
        let secrets = Redactor::new([TOKEN]);
        for (description, parameters, want) in [
            (
                "Bad Request: group chat was upgraded to a supergroup chat",
                json!({"migrate_to_chat_id": -1001234567890_i64}),
                Kind::Forbidden,
            ),
            ("Bad Request: chat not found", json!(null), Kind::NotFound),
            (
                "Bad Request: message thread not found",
                json!(null),
                Kind::NotFound,
            ),
            ("Bad Request: TOPIC_DELETED", json!(null), Kind::NotFound),
            ("Bad Request: TOPIC_CLOSED", json!(null), Kind::Forbidden),
            ("Bad Request: CHAT_RESTRICTED", json!(null), Kind::Forbidden),
            (
                "Bad Request: not enough rights to send text messages to the chat",
                json!(null),
                Kind::Forbidden,
            ),
            (
                "Bad Request: CHAT_WRITE_FORBIDDEN",
                json!(null),
                Kind::Forbidden,
            ),
            (
                "Bad Request: can't parse entities: unsupported start tag",
                json!(null),
                Kind::Invalid,
            ),
            (
                "Bad Request: message is too long",
                json!(null),
                Kind::Invalid,
            ),
        ] {
            let body = json!({"ok": false, "error_code": 400, "description": description, "parameters": parameters});
            let kind = match interpret(400, body, &secrets) {
                Err(PlatformError::NotFound(_)) => Kind::NotFound,
                Err(PlatformError::Forbidden(_)) => Kind::Forbidden,
                Err(PlatformError::Invalid(_)) => Kind::Invalid,
                other => panic!("{description}: {other:?}"),
            };
            assert_eq!(kind, want, "{description}");
        }
    }
}
