//! Slack Web API (`Authorization: Bearer <bot token>`). Slack offers bots no
//! way to remove members from a workspace, so its capabilities are about
//! messages: posting (the mod-log), ephemeral notices, DMs, and deleting
//! (with the bot token only the bot's own messages; with an admin user token
//! any); snapshots read its channels and user groups ([`structure`]).

use async_trait::async_trait;
use modctl_types::Platform;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::greeting::{Greeting, slack_greeting};
use super::post::{Post, slack_batch, slack_message};
use super::structure::payload;
use super::{
    ButtonDm, CaptchaDm, ChannelNames, DeleteMessage, DirectMessage, Ephemeral, Greet,
    JoinUserGroup, JoinedChannels, MemberNames, OwnInvites, PlatformClients, PlatformError,
    PlatformResult, PostMessage, RankMember, ReadInvites, Redactor, Repeat,
};

/// The public API.
pub const DEFAULT_API_BASE: &str = "https://slack.com/api";

/// How a method's arguments are sent: Slack's write methods take JSON, but
/// many read methods (`conversations.list`, `usergroups.list`) only read
/// form fields.
#[derive(Debug, Clone, Copy)]
enum Arguments<'a> {
    Json(&'a Value),
    Form(&'a [(&'a str, &'a str)]),
}

/// A Slack workspace, through a bot.
pub struct Slack {
    clients: PlatformClients,
    base: String,
    token: String,
    /// An admin's user token (`xoxp-`), if one was given: `chat.delete`
    /// with a bot token deletes only the bot's own messages.
    user_token: Option<String>,
    /// The tokens and the connection's other secrets (the signing secret).
    secrets: Redactor,
    /// The workspace's server id, keying its user-group locks.
    workspace: String,
}

impl std::fmt::Debug for Slack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slack")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Slack {
    /// An adapter for one workspace.
    pub fn new(clients: PlatformClients, api_base: Option<String>, token: String) -> Self {
        let base = super::api_base(api_base, DEFAULT_API_BASE);
        Slack {
            clients,
            base,
            secrets: Redactor::new([&token]),
            token,
            user_token: None,
            workspace: String::new(),
        }
    }

    /// The adapter of workspace `server_id` (its user-group changes are
    /// serialized per workspace and group).
    #[must_use]
    pub fn in_workspace(mut self, server_id: &str) -> Self {
        server_id.clone_into(&mut self.workspace);
        self
    }

    /// Also deletes members' messages, with an admin's user token (kept out
    /// of errors like the bot token).
    #[must_use]
    pub fn with_user_token(mut self, user_token: Option<String>) -> Self {
        if let Some(token) = &user_token {
            self.secrets = self.secrets.with(std::slice::from_ref(token));
        }
        self.user_token = user_token;
        self
    }

    /// Also keeps `secrets` (the connection's other ones) out of its errors.
    #[must_use]
    pub fn redacting(mut self, secrets: &[String]) -> Self {
        self.secrets = self.secrets.with(secrets);
        self
    }

    /// Calls Web API method `method` with the bot token; the answer when `ok`.
    async fn call(&self, method: &str, arguments: Arguments<'_>) -> PlatformResult<Value> {
        self.call_as(&self.token, method, arguments).await
    }

    /// [`Self::call`] with `token`.
    async fn call_as(
        &self,
        token: &str,
        method: &str,
        arguments: Arguments<'_>,
    ) -> PlatformResult<Value> {
        self.clients
            .retried(Platform::Slack, repeat(method), || {
                self.send(token, method, arguments)
            })
            .await
    }

    /// One attempt of [`Self::call_as`], not retried.
    async fn send(
        &self,
        token: &str,
        method: &str,
        arguments: Arguments<'_>,
    ) -> PlatformResult<Value> {
        let url = format!("{}/{method}", self.base);
        let request = self.clients.http.post(&url).bearer_auth(token);
        let request = match arguments {
            Arguments::Json(body) => request.json(body),
            Arguments::Form(fields) => request.form(fields),
        };
        let response = request
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
        read(response, &self.secrets).await
    }
}

/// Whether `method` may be sent again after a failure that leaves open
/// whether Slack carried it out (see [`super::retry`]): reads
/// (`conversations.list`, `usergroups.list`) and methods that set a state
/// (`conversations.setTopic`, `conversations.setPurpose`,
/// `usergroups.users.update`, shared/platform-specs/slack-web-openapi.json)
/// may, and so may `conversations.create` and `usergroups.create`, whose
/// `name_taken` and `name_already_exists` answers to a repeat the adapter
/// takes as the channel or group made ([`apply`]), and `conversations.open`,
/// which "opens or resumes" the one DM with a user; `chat.postMessage` and
/// `chat.postEphemeral` would post twice, and a repeated `chat.delete` is
/// answered `message_not_found`.
fn repeat(method: &str) -> Repeat {
    match method {
        "conversations.create"
        | "usergroups.create"
        | "conversations.list"
        | "usergroups.list"
        | "conversations.setTopic"
        | "conversations.setPurpose"
        | "usergroups.users.update"
        | "conversations.open"
        | "usergroups.users.list"
        | "team.info" => Repeat::Safe,
        _ => Repeat::Once,
    }
}

/// Creating channels and user groups for restores.
pub mod apply;
/// The Events API: verifying requests and decoding them for activity.
pub mod events;
/// Reading the workspace's structure for snapshots.
pub mod structure;

/// The answer when `ok`, or the error it reports with `secrets` redacted.
async fn read(response: reqwest::Response, secrets: &Redactor) -> PlatformResult<Value> {
    let status = response.status();
    if status.as_u16() == 429 {
        let retry_after = super::retry_after_header(&response).unwrap_or(1.0);
        return Err(PlatformError::RateLimited {
            retry_after: super::seconds(retry_after),
        });
    }
    if status.is_server_error() {
        return Err(PlatformError::Server {
            status: status.as_u16(),
            message: status.to_string(),
        });
    }
    let text = response
        .text()
        .await
        .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
    let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if body["ok"] == Value::Bool(true) {
        return Ok(body);
    }
    let error = body["error"].as_str().unwrap_or("unknown_error").to_owned();
    Err(match error.as_str() {
        // `token_expired`: a rotating token past its 12 hours (Slack's token
        // rotation docs) is as refused as a revoked one until replaced.
        "invalid_auth" | "not_authed" | "token_revoked" | "token_expired" | "account_inactive" => {
            PlatformError::Unauthorized
        }
        // The errors of chat.delete, chat.postEphemeral and
        // conversations.open are slack-web-openapi.json's.
        "channel_not_found" | "message_not_found" | "user_not_found" => {
            PlatformError::NotFound(error)
        }
        "not_in_channel"
        | "missing_scope"
        | "restricted_action"
        | "is_archived"
        | "cant_delete_message"
        | "no_permission"
        | "user_not_in_channel"
        | "user_disabled"
        | "user_not_visible" => PlatformError::Forbidden(error),
        _ => PlatformError::Invalid(error),
    }
    .redacted(secrets))
}

#[async_trait]
impl JoinedChannels for Slack {
    async fn joined_channels(&self) -> PlatformResult<Vec<String>> {
        self.member_channels().await
    }
}

/// `args` (a rendered post) with `channel` (and `user`) added.
fn addressed(mut args: Map<String, Value>, channel: &str, user: Option<&str>) -> Value {
    args.insert("channel".into(), json!(channel));
    if let Some(user) = user {
        args.insert("user".into(), json!(user));
    }
    Value::Object(args)
}

#[async_trait]
impl PostMessage for Slack {
    /// `chat.postMessage` (slack-web-openapi.json) with blocks and a
    /// fallback text, all escaped so nobody is mentioned ([`slack_message`]).
    async fn post(&self, channel: &str, post: &Post) -> PlatformResult<()> {
        let body = addressed(slack_message(post), channel, None);
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(drop)
    }

    /// One `chat.postMessage` with up to 50 blocks, a divider between posts
    /// ([`slack_batch`]).
    async fn post_batch(&self, channel: &str, posts: &[Post]) -> PlatformResult<usize> {
        if posts.is_empty() {
            return Ok(0);
        }
        let (args, count) = slack_batch(posts);
        let body = addressed(args, channel, None);
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(|_| count)
    }
}

#[async_trait]
impl RankMember for Slack {
    /// `users.info` (slack-web-openapi.json, `objs_user`; the bot needs
    /// `users:read`, which the activity events already ask): the workspace's
    /// owners (`is_owner`, `is_primary_owner`) and admins (`is_admin`).
    /// Slack has no role order; admins are the workspace's own moderators,
    /// as a Discord member ranked above the bot is.
    async fn above_automod(&self, user: &str) -> PlatformResult<bool> {
        #[derive(Deserialize)]
        struct Info {
            user: User,
        }
        #[derive(Deserialize)]
        struct User {
            #[serde(default)]
            is_owner: bool,
            #[serde(default)]
            is_primary_owner: bool,
            #[serde(default)]
            is_admin: bool,
        }
        let body = json!({ "user": user });
        let info: Info = payload(
            self.call("users.info", Arguments::Json(&body)).await?,
            "user from Slack",
        )?;
        let user = info.user;
        Ok(user.is_owner || user.is_primary_owner || user.is_admin)
    }
}

/// The name Slack shows for a user object (slack-web-openapi.json:
/// `objs_user_profile` requires `display_name` and `real_name`, either of
/// which may be empty; `objs_user` requires `name`, the username, and may
/// carry `real_name`): the display name when set, else the real name, else
/// the username. The event decoder reads `user_change` by the same rule
/// ([`crate::events::decode`]).
pub fn shown_name(user: &Value) -> Option<String> {
    let profile = &user["profile"];
    [
        &profile["display_name"],
        &profile["real_name"],
        &user["real_name"],
        &user["name"],
    ]
    .into_iter()
    .filter_map(Value::as_str)
    .find(|n| !n.trim().is_empty())
    .map(str::to_owned)
}

#[async_trait]
impl MemberNames for Slack {
    /// `users.info` (slack-web-openapi.json: form arguments, `users:read`;
    /// `user_not_found` for an id the workspace does not know). A
    /// deactivated member (`deleted: true`) keeps their name.
    async fn member_name(&self, user: &str) -> PlatformResult<Option<String>> {
        match self
            .call("users.info", Arguments::Form(&[("user", user)]))
            .await
        {
            Ok(answer) => Ok(shown_name(&answer["user"])),
            Err(PlatformError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[async_trait]
impl ChannelNames for Slack {
    /// `conversations.info` (slack-web-openapi.json: form arguments,
    /// `channels:read`/`groups:read`; `channel.name` of `objs_conversation`;
    /// `channel_not_found` for one the bot cannot see).
    async fn channel_name(&self, channel: &str) -> PlatformResult<Option<String>> {
        match self
            .call(
                "conversations.info",
                Arguments::Form(&[("channel", channel)]),
            )
            .await
        {
            Ok(answer) => Ok(answer["channel"]["name"]
                .as_str()
                .filter(|n| !n.trim().is_empty())
                .map(str::to_owned)),
            Err(PlatformError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[async_trait]
impl Ephemeral for Slack {
    /// `chat.postEphemeral` (slack-web-openapi.json): shown to `user` only,
    /// who "should be in the channel" (else `user_not_in_channel`).
    async fn post_ephemeral(&self, channel: &str, user: &str, post: &Post) -> PlatformResult<()> {
        let body = addressed(slack_message(post), channel, Some(user));
        self.call("chat.postEphemeral", Arguments::Json(&body))
            .await
            .map(drop)
    }
}

#[async_trait]
impl DirectMessage for Slack {
    /// `conversations.open` with `users` (one user: "creates a 1:1 DM", or
    /// resumes it), then `chat.postMessage` to the channel it answers
    /// (slack-web-openapi.json; the bot needs `im:write`).
    async fn direct_message(&self, user: &str, post: &Post) -> PlatformResult<()> {
        let channel = self.open_dm(user).await?;
        self.post(&channel, post).await
    }
}

impl Slack {
    /// `conversations.open` with `users` (one user: "creates a 1:1 DM", or
    /// resumes it): the DM channel's id.
    async fn open_dm(&self, user: &str) -> PlatformResult<String> {
        #[derive(Deserialize)]
        struct Opened {
            channel: Channel,
        }
        #[derive(Deserialize)]
        struct Channel {
            id: String,
        }
        let args = json!({ "users": user });
        let opened = self
            .call("conversations.open", Arguments::Json(&args))
            .await?;
        let opened: Opened = payload(opened, "conversations.open answer from Slack")?;
        Ok(opened.channel.id)
    }
}

#[async_trait]
impl Greet for Slack {
    /// Slack greets by DM (issue #26): `conversations.open`, then
    /// `chat.postMessage` there with the greeting's mrkdwn text
    /// ([`slack_greeting`]); `channel` is unused.
    async fn greet(&self, _channel: &str, greeting: &Greeting) -> PlatformResult<()> {
        let channel = self.open_dm(&greeting.member_id).await?;
        let body = addressed(slack_greeting(greeting), &channel, None);
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(drop)
    }
}

#[async_trait]
impl ButtonDm for Slack {
    /// The DM ([`Slack::open_dm`]), then `chat.postMessage` with the post's
    /// blocks and an `actions` block holding one `button` element
    /// (Block Kit reference: `action_id` of at most 255 characters, `text`
    /// a `plain_text` of at most 75).
    async fn direct_message_button(
        &self,
        user: &str,
        post: &Post,
        label: &str,
        action_id: &str,
    ) -> PlatformResult<()> {
        let channel = self.open_dm(user).await?;
        let mut args = slack_message(post);
        if let Some(Value::Array(blocks)) = args.get_mut("blocks") {
            blocks.push(json!({
                "type": "actions",
                "elements": [{"type": "button", "action_id": action_id, "style": "primary",
                              "text": {"type": "plain_text", "text": label, "emoji": false}}],
            }));
        }
        let body = addressed(args, &channel, None);
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(drop)
    }
}

#[async_trait]
impl CaptchaDm for Slack {
    /// Slack's upload in three steps (docs.slack.dev, methods
    /// `files.getUploadURLExternal` and `files.completeUploadExternal`;
    /// `files.upload`, the one of slack-web-openapi.json, was retired in
    /// 2025): `files.getUploadURLExternal` with the `filename` and its
    /// `length` in bytes answers an `upload_url` and a `file_id`; the bytes
    /// are POSTed to the `upload_url` (no token: the URL is the grant);
    /// `files.completeUploadExternal` with `files: [{id, title}]`,
    /// `channel_id` (the DM, [`Slack::open_dm`]) and `initial_comment`
    /// shares it there. The buttons follow in a message of their own
    /// ([`ButtonDm`]'s `actions` block): `completeUploadExternal`'s
    /// `blocks` are documented as text blocks only, and are ignored when
    /// `initial_comment` is given. Needs `files:write`.
    async fn direct_message_image(
        &self,
        user: &str,
        text: &str,
        image: &[u8],
        buttons: &[(&str, String)],
    ) -> PlatformResult<()> {
        #[derive(Deserialize)]
        struct UploadUrl {
            upload_url: String,
            file_id: String,
        }
        let channel = self.open_dm(user).await?;
        let length = image.len().to_string();
        let got = self
            .call(
                "files.getUploadURLExternal",
                Arguments::Form(&[("filename", "captcha.png"), ("length", &length)]),
            )
            .await?;
        let got: UploadUrl = payload(got, "files.getUploadURLExternal answer from Slack")?;
        let uploaded = self
            .clients
            .http
            .post(&got.upload_url)
            .header(reqwest::header::CONTENT_TYPE, "image/png")
            .body(image.to_vec())
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
        if !uploaded.status().is_success() {
            return Err(PlatformError::Server {
                status: uploaded.status().as_u16(),
                message: format!("the image upload was answered {}", uploaded.status()),
            });
        }
        let args = json!({
            "files": [{"id": got.file_id, "title": "Verification code"}],
            "channel_id": channel,
            "initial_comment": text,
        });
        self.call("files.completeUploadExternal", Arguments::Json(&args))
            .await?;
        let elements: Vec<Value> = buttons
            .iter()
            .map(|(label, action_id)| {
                json!({"type": "button", "action_id": action_id,
                       "text": {"type": "plain_text", "text": label, "emoji": false}})
            })
            .collect();
        let body = json!({
            "channel": channel,
            "text": "Answer the challenge above:",
            "blocks": [{"type": "actions", "elements": elements}],
        });
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(drop)
    }

    /// `views.open` (slack-web-openapi.json: `trigger_id`, "Exchange a
    /// trigger to post to the user", valid 3 seconds after the press, and
    /// `view`) with a `modal` view (Block Kit reference: `title` and
    /// `submit` `plain_text` of at most 24 characters, `callback_id` at
    /// most 255) holding one `input` block whose element is a
    /// `plain_text_input` with `min_length` and `max_length`.
    async fn open_code_modal(
        &self,
        trigger_id: &str,
        callback_id: &str,
        title: &str,
        (field_id, label): (&str, &str),
        length: usize,
    ) -> PlatformResult<()> {
        let args = json!({
            "trigger_id": trigger_id,
            "view": {
                "type": "modal",
                "callback_id": callback_id,
                "title": {"type": "plain_text", "text": title},
                "submit": {"type": "plain_text", "text": "Verify"},
                "close": {"type": "plain_text", "text": "Cancel"},
                "blocks": [{
                    "type": "input",
                    "block_id": field_id,
                    "label": {"type": "plain_text", "text": label},
                    "element": {"type": "plain_text_input", "action_id": field_id,
                                "min_length": length, "max_length": length},
                }],
            },
        });
        self.call("views.open", Arguments::Json(&args))
            .await
            .map(drop)
    }
}

#[async_trait]
impl JoinUserGroup for Slack {
    /// `usergroups.users.list` (`usergroups:read`), then, unless the user is
    /// in it, `usergroups.users.update` (`usergroups:write`) with the list
    /// read and the user: "the entire list of users for the User Group"
    /// (slack-web-openapi.json), so it is a read-modify-write. Slack offers
    /// no compare-and-set: a change made by someone else between the two
    /// calls is overwritten (the window is one round trip; the next join
    /// reads the list again).
    ///
    /// Two members added to one group by this daemon at once (the welcome
    /// consumer's tasks, verification's) would each write the list without
    /// the other: the group's lock ([`PlatformClients::slack_user_groups`])
    /// is held across the read and the write. A failed write is never sent
    /// again with the list it read (someone may have changed the group
    /// since): the whole read-modify-write is what is retried.
    async fn join_user_group(&self, group: &str, user: &str) -> PlatformResult<bool> {
        #[derive(Deserialize)]
        struct Listed {
            users: Vec<String>,
        }
        let key = format!("usergroup:{group}");
        let _held = self
            .clients
            .slack_user_groups
            .lock(&self.workspace, &key)
            .await;
        // Not counted as a call: the calls inside are.
        self.clients
            .retry
            .run(Repeat::Safe, || async {
                let listed = self
                    .call(
                        "usergroups.users.list",
                        Arguments::Form(&[("usergroup", group)]),
                    )
                    .await?;
                let mut users =
                    payload::<Listed>(listed, "usergroups.users.list answer from Slack")?.users;
                if users.iter().any(|u| u == user) {
                    return Ok(false);
                }
                users.push(user.to_owned());
                let args = json!({ "usergroup": group, "users": users.join(",") });
                self.send(
                    &self.token,
                    "usergroups.users.update",
                    Arguments::Json(&args),
                )
                .await
                .map(|_| true)
            })
            .await
    }
}

#[async_trait]
impl DeleteMessage for Slack {
    /// `chat.delete` with `channel` and the message's `ts`
    /// (slack-web-openapi.json). With the bot token Slack deletes only the
    /// bot's own messages (`cant_delete_message` otherwise); with an admin's
    /// user token ([`Slack::with_user_token`]) any member's. Slack keeps no
    /// audit reason for it.
    async fn delete_message(
        &self,
        channel: &str,
        message: &str,
        _reason: Option<&str>,
    ) -> PlatformResult<()> {
        let token = self.user_token.as_deref().unwrap_or(&self.token);
        let body = json!({ "channel": channel, "ts": message });
        self.call_as(token, "chat.delete", Arguments::Json(&body))
            .await
            .map(drop)
    }
}

#[async_trait]
impl ReadInvites for Slack {
    /// `team.info` (slack-web-openapi.json: "Gets information about the
    /// current team", scope `team:read`; `team.domain` is required in its
    /// `objs_team`): the workspace's invite links are
    /// `join.slack.com/t/<domain>/...`, every one of them its own.
    async fn own_invites(&self) -> PlatformResult<OwnInvites> {
        let answer = self.call("team.info", Arguments::Form(&[])).await?;
        let Some(domain) = answer["team"]["domain"].as_str().filter(|d| !d.is_empty()) else {
            return Err(PlatformError::Invalid(
                "unexpected team.info from Slack: no `team.domain`".to_owned(),
            ));
        };
        Ok(OwnInvites {
            invites: vec![format!("join.slack.com/t/{domain}/")],
            refused: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::platform::redact::{REDACTED, answer};

    /// Slack's `error` is a code, but whatever it says (a proxy's text
    /// included) loses the bot token and the signing secret.
    #[tokio::test]
    async fn an_error_quoting_the_token_or_signing_secret_is_redacted() {
        let secrets = Redactor::new(["xoxb-1-2-slack-token", "8f742231b10e8888abcd99yyyzzz85a5"]);
        for error in [
            "invalid_arguments: token xoxb-1-2-slack-token",
            "channel_not_found xoxb-1-2-slack-token",
            "missing_scope 8f742231b10e8888abcd99yyyzzz85a5",
        ] {
            let body = json!({"ok": false, "error": error});
            let text = read(answer(200, body), &secrets)
                .await
                .unwrap_err()
                .to_string();
            assert!(!text.contains("slack-token"), "{text}");
            assert!(!text.contains("8f742231b10e"), "{text}");
            assert!(text.contains(REDACTED), "{text}");
        }
    }
}
