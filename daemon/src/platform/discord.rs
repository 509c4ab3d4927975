//! Discord REST API v10, as a bot (`Authorization: Bot <token>`).
//!
//! Every call that changes something carries the case reason in
//! `X-Audit-Log-Reason` (URL-encoded, at most 512 characters), so the guild's
//! own audit log says why.
//!
//! Every request goes through the token's [`DiscordLimiter`]: it waits for
//! room in its route bucket and the global limit before it is sent, and its
//! answer's `X-RateLimit-*` headers are recorded.

use std::sync::Arc;

use async_trait::async_trait;
use modctl_types::{Platform, Timestamp};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::Method;
use serde::Deserialize;
use serde_json::{Value, json};

use super::ratelimit::{DiscordLimiter, Observed, Route};
use twilight_model::guild::auto_moderation::AutoModerationRule;

use super::PauseInvites;
use super::greeting::{Greeting, discord_greeting};
use super::post::{Post, discord_batch, discord_message};
use super::{
    AddRole, Ban, Buttons, DeleteMessage, DirectMessage, Greet, Hierarchy, InspectMember, Kick,
    Member, MemberNames, MemberState, NativeRules, OwnInvites, PlatformClients, PlatformError,
    PlatformResult, PostMessage, RankMember, ReadHierarchy, ReadInvites, Redactor, Repeat, Revert,
    Role, RuleSpec, SetRoles, Timeout,
};

/// Creating the guild's structure for restores.
pub mod apply;
/// The gateway: where it is, and its dispatches decoded for activity.
pub mod gateway;
/// Each guild's owner and roles between reads.
pub mod guilds;
/// Reading the guild's structure for snapshots.
pub mod structure;

/// The public API.
pub const DEFAULT_API_BASE: &str = "https://discord.com/api/v10";
/// Discord wants `DiscordBot ($url, $versionNumber)` from every HTTP API
/// client and may block requests without it (Cloudflare errors):
/// shared/platform-specs/discord-docs/reference.mdx, "User Agent". The
/// daemon's general user agent (`modctld/...`) is not of that form.
pub const USER_AGENT: &str = concat!(
    "DiscordBot (",
    env!("CARGO_PKG_REPOSITORY"),
    ", ",
    env!("CARGO_PKG_VERSION"),
    ")"
);
/// Longest reason Discord keeps in its audit log.
const MAX_AUDIT_REASON_CHARS: usize = 512;
/// encodeURIComponent's set: everything but letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// A Discord guild, through a bot.
pub struct Discord {
    clients: PlatformClients,
    base: String,
    token: String,
    /// The token and the connection's other secrets.
    secrets: Redactor,
    guild_id: String,
    limiter: Arc<DiscordLimiter>,
}

impl std::fmt::Debug for Discord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discord")
            .field("base", &self.base)
            .field("guild_id", &self.guild_id)
            .finish_non_exhaustive()
    }
}

/// A request's body: JSON, or JSON with one file ("Uploading Files",
/// discord-docs/reference.mdx: `multipart/form-data` with the JSON in
/// `payload_json` and the file in `files[0]`, named in the payload's
/// `attachments`).
enum Body {
    Json(Value),
    Upload {
        payload: Value,
        name: String,
        bytes: Vec<u8>,
    },
}

/// The multipart form of an upload, built anew for each try (a form is
/// consumed by its request).
fn upload_form(
    payload: &Value,
    name: &str,
    bytes: &[u8],
) -> PlatformResult<reqwest::multipart::Form> {
    let file = reqwest::multipart::Part::bytes(bytes.to_vec())
        .file_name(name.to_owned())
        .mime_str("image/png")
        .map_err(|e| PlatformError::Invalid(format!("an upload's content type: {e}")))?;
    Ok(reqwest::multipart::Form::new()
        .text("payload_json", payload.to_string())
        .part("files[0]", file))
}

impl Discord {
    /// An adapter for guild `guild_id`.
    pub fn new(
        clients: PlatformClients,
        api_base: Option<String>,
        token: String,
        guild_id: &str,
    ) -> Self {
        let base = super::api_base(api_base, DEFAULT_API_BASE);
        let limiter = clients.discord_limits.for_token(&base, &token);
        Discord {
            limiter,
            clients,
            base,
            secrets: Redactor::new([&token]),
            token,
            guild_id: guild_id.to_owned(),
        }
    }

    /// Also keeps `secrets` (the connection's other ones) out of its errors.
    #[must_use]
    pub fn redacting(mut self, secrets: &[String]) -> Self {
        self.secrets = self.secrets.with(secrets);
        self
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        reason: Option<&str>,
    ) -> PlatformResult<Value> {
        self.send(method, path, body.map(Body::Json), reason).await
    }

    /// [`Self::call`] with a body of either kind.
    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Body>,
        reason: Option<&str>,
    ) -> PlatformResult<Value> {
        let url = format!("{}{path}", self.base);
        let route = Route::new(method.as_str(), path);
        self.clients
            .retried(Platform::Discord, repeat(&method), || async {
                let asked = std::time::Instant::now();
                let permit = self
                    .limiter
                    .acquire(&route, self.clients.retry.max_wait)
                    .await?;
                self.clients
                    .metrics
                    .waited_for_rate_limit(Platform::Discord, asked.elapsed());
                let mut request = self
                    .clients
                    .http
                    .request(method.clone(), &url)
                    .header(
                        reqwest::header::AUTHORIZATION,
                        format!("Bot {}", self.token),
                    )
                    .header(reqwest::header::USER_AGENT, USER_AGENT);
                if let Some(reason) = reason.filter(|r| !r.is_empty()) {
                    request = request.header("X-Audit-Log-Reason", audit_log_reason(reason));
                }
                if let Some(Body::Json(body)) = &body {
                    request = request.json(body);
                } else if let Some(Body::Upload {
                    payload,
                    name,
                    bytes,
                }) = &body
                {
                    request = request.multipart(upload_form(payload, name, bytes)?);
                } else if needs_length(&method) {
                    // hyper sends no `Content-Length` for an empty body, and
                    // Discord answers a body-less PUT (a role grant) 411
                    // Length Required (RFC 9110 §8.6; serenity-rs/serenity#483).
                    request = request.header(reqwest::header::CONTENT_LENGTH, "0");
                }
                let response = request
                    .send()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
                let mut observed = Observed::from_headers(response.status().as_u16(), |name| {
                    response.headers().get(name).and_then(|v| v.to_str().ok())
                });
                let result = read(response, &self.secrets).await;
                if let Err(PlatformError::RateLimited { retry_after }) = &result {
                    // The body's `retry_after` (more precise than the header).
                    observed.retry_after = Some(*retry_after);
                }
                permit.answered(&observed);
                result
            })
            .await
    }

    fn rules_path(&self) -> String {
        format!("/guilds/{}/auto-moderation/rules", self.guild_id)
    }

    fn member_path(&self, user: &str) -> String {
        format!("/guilds/{}/members/{user}", self.guild_id)
    }

    async fn member(&self, user: &str) -> PlatformResult<Option<Member>> {
        match self
            .call(Method::GET, &self.member_path(user), None, None)
            .await
        {
            Ok(member) => Ok(Some(Member {
                user_id: user.to_owned(),
                roles: string_list(&member["roles"]),
            })),
            Err(PlatformError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// Whether a request may be sent again after a failure that leaves open
/// whether Discord carried it out (see [`super::retry`]). GET reads; every
/// PUT and PATCH the daemon sends sets a state (a ban, a member's roles or
/// timeout, a channel's topic, an overwrite, role positions), so a repeat
/// does what one did (shared/platform-specs/discord-docs/guild.mdx, "Create
/// Guild Ban", "Modify Guild Member"). A repeated DELETE is answered 404
/// Unknown Member or Unknown Ban ("Remove Guild Member", "Remove Guild
/// Ban"), and a repeated POST creates a second role, channel or message:
/// a restore's creations look for what a failed POST made before sending it
/// again (`apply::create_once`, issue #23).
fn repeat(method: &Method) -> Repeat {
    if *method == Method::GET || *method == Method::PUT || *method == Method::PATCH {
        Repeat::Safe
    } else {
        Repeat::Once
    }
}

/// Whether a request of `method` without a body still says its length
/// (a method that defines a meaning for enclosed content, RFC 9110 §8.6).
fn needs_length(method: &Method) -> bool {
    *method == Method::PUT || *method == Method::POST || *method == Method::PATCH
}

/// The reason as Discord wants it in the header.
pub fn audit_log_reason(reason: &str) -> String {
    let cut: String = reason.chars().take(MAX_AUDIT_REASON_CHARS).collect();
    utf8_percent_encode(&cut, URI_COMPONENT).to_string()
}

/// The answer's JSON, or the error it reports with `secrets` redacted.
async fn read(response: reqwest::Response, secrets: &Redactor) -> PlatformResult<Value> {
    let status = response.status();
    let retry_after_header = super::retry_after_header(&response);
    let text = response
        .text()
        .await
        .map_err(|e| PlatformError::from_reqwest(e, secrets))?;
    let body: Value = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::Null)
    };
    if status.is_success() {
        return Ok(body);
    }
    let mut message = body["message"].as_str().map_or_else(
        || status.to_string(),
        |m| match body["code"].as_i64() {
            Some(code) => format!("{m}, code {code}"),
            None => m.to_owned(),
        },
    );
    // "Invalid Form Body" says which field and why only in `errors`
    // (opcodes-and-status-codes.mdx, "Example JSON Error Response").
    let mut fields = Vec::new();
    field_errors(&body["errors"], "", &mut fields);
    if !fields.is_empty() {
        message = format!("{message} ({})", fields.join("; "));
    }
    Err(match status.as_u16() {
        401 => PlatformError::Unauthorized,
        403 => PlatformError::Forbidden(message),
        // A 400 that is the channel's, not the request's
        // (opcodes-and-status-codes.mdx, JSON error codes): 50008 "Cannot
        // send messages in a non-text channel", 50024 "Cannot execute
        // action on this channel type", 50083 an archived thread. The
        // channel refuses, whatever is sent to it.
        400 if matches!(body["code"].as_i64(), Some(50008 | 50024 | 50083)) => {
            PlatformError::Forbidden(message)
        }
        404 => PlatformError::NotFound(message),
        429 => PlatformError::RateLimited {
            retry_after: super::seconds(
                body["retry_after"]
                    .as_f64()
                    .or(retry_after_header)
                    .unwrap_or(1.0),
            ),
        },
        500..=599 => PlatformError::Server {
            status: status.as_u16(),
            message,
        },
        _ => PlatformError::Invalid(message),
    }
    .redacted(secrets))
}

/// The `field: message` pairs of a 50035 error's `errors` tree, whose
/// leaves are `_errors` arrays under the field's path (`roles.0`).
fn field_errors(errors: &Value, path: &str, out: &mut Vec<String>) {
    let Some(object) = errors.as_object() else {
        return;
    };
    for (key, value) in object {
        if key == "_errors" {
            for error in value.as_array().into_iter().flatten() {
                if let Some(text) = error["message"].as_str() {
                    out.push(format!("{path}: {text}"));
                }
            }
        } else if path.is_empty() {
            field_errors(value, key, out);
        } else {
            field_errors(value, &format!("{path}.{key}"), out);
        }
    }
}

/// A guild member as Discord sends it (the fields the daemon reads).
#[derive(Debug, Deserialize)]
struct GuildMember {
    roles: Vec<String>,
    #[serde(default)]
    communication_disabled_until: Option<Timestamp>,
}

/// `value` as `T`; a payload without a field the daemon needs is the
/// platform's error, never a silent default.
fn typed<T: serde::de::DeserializeOwned>(value: Value, what: &str) -> PlatformResult<T> {
    serde_json::from_value(value)
        .map_err(|e| PlatformError::Invalid(format!("unexpected {what} from Discord: {e}")))
}

fn string_list(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[async_trait]
impl RankMember for Discord {
    /// The guild's owner, or a member whose highest role is at or above the
    /// bot's ([`Hierarchy::outranks_bot`], from the same reads as every
    /// hierarchy check).
    async fn above_automod(&self, user: &str) -> PlatformResult<bool> {
        Ok(self.hierarchy(user).await?.outranks_bot(user))
    }
}

#[async_trait]
impl ReadHierarchy for Discord {
    /// The guild's owner, roles and the bot's id from the shared cache
    /// ([`guilds`]) when it has them, else read (`GET /guilds/{id}`, `GET
    /// /users/@me`) and kept; the bot's and the target's members are read
    /// each time. So a warm read is 2 calls, a cold one 4.
    async fn hierarchy(&self, target: &str) -> PlatformResult<Hierarchy> {
        let cache = &self.clients.discord_guilds;
        let now_ms = self.clients.clock.now().as_millisecond();
        let (owner_id, roles, bot_id) = match cache.fresh(&self.guild_id, now_ms) {
            Some(cached) => (cached.owner_id, cached.roles, cached.bot_id),
            None => {
                let guild = self
                    .call(
                        Method::GET,
                        &format!("/guilds/{}", self.guild_id),
                        None,
                        None,
                    )
                    .await?;
                let roles: Vec<Role> = guild["roles"]
                    .as_array()
                    .map(|roles| roles.iter().map(guilds::role_from_json).collect())
                    .unwrap_or_default();
                let owner = guild["owner_id"].as_str().unwrap_or_default().to_owned();
                cache.refresh(&self.guild_id, owner.clone(), roles.clone(), now_ms);
                let bot_id = cache.identity(&self.guild_id).and_then(|(_, bot)| bot);
                (owner, roles, bot_id)
            }
        };
        let bot_id = match bot_id {
            Some(id) => id,
            None => {
                let me = self.call(Method::GET, "/users/@me", None, None).await?;
                let id = me["id"].as_str().unwrap_or_default().to_owned();
                cache.put_bot(&self.guild_id, id.clone());
                id
            }
        };
        let bot = self.member(&bot_id).await?.ok_or_else(|| {
            PlatformError::Forbidden(
                "the bot is not a member of this guild: invite it first".to_owned(),
            )
        })?;
        Ok(Hierarchy {
            guild_id: self.guild_id.clone(),
            owner_id,
            roles,
            bot,
            target: self.member(target).await?,
        })
    }
}

#[async_trait]
impl Timeout for Discord {
    async fn timeout(
        &self,
        user: &str,
        until: Timestamp,
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        let body = json!({ "communication_disabled_until": until.to_string() });
        self.call(Method::PATCH, &self.member_path(user), Some(body), reason)
            .await
            .map(drop)
    }
}

impl Discord {
    /// The guild's incident actions (`incidents_data` of "Get Guild",
    /// guild.mdx; `null` when none is set): invites and DMs paused until.
    async fn incidents(&self) -> PlatformResult<(Option<Timestamp>, Option<String>)> {
        let path = format!("/guilds/{}", self.guild_id);
        let guild = self.call(Method::GET, &path, None, None).await?;
        let data = &guild["incidents_data"];
        let invites = data["invites_disabled_until"]
            .as_str()
            .and_then(|text| text.parse().ok());
        let dms = data["dms_disabled_until"].as_str().map(str::to_owned);
        Ok((invites, dms))
    }

    /// "Modify Guild Incident Actions" with both fields: a field left out
    /// is reset (hikari-py/hikari#2289), so `dms` is always passed back.
    async fn put_incidents(
        &self,
        invites: Option<Timestamp>,
        dms: Option<String>,
    ) -> PlatformResult<()> {
        // guild.mdx: ISO8601, `null` disables the action.
        let body = json!({
            "invites_disabled_until": invites.map(|t| t.to_string()),
            "dms_disabled_until": dms,
        });
        let path = format!("/guilds/{}/incident-actions", self.guild_id);
        self.call(Method::PUT, &path, Some(body), None)
            .await
            .map(drop)
    }
}

#[async_trait]
impl PauseInvites for Discord {
    async fn pause_invites(&self, until: Timestamp) -> PlatformResult<()> {
        let (_, dms) = self.incidents().await?;
        self.put_incidents(Some(until), dms).await
    }

    async fn resume_invites(&self, paused_until: Timestamp) -> PlatformResult<bool> {
        let (invites, dms) = self.incidents().await?;
        if invites != Some(paused_until) {
            return Ok(false);
        }
        self.put_incidents(None, dms).await.map(|()| true)
    }
}

#[async_trait]
impl Kick for Discord {
    async fn kick(&self, user: &str, reason: Option<&str>) -> PlatformResult<()> {
        self.call(Method::DELETE, &self.member_path(user), None, reason)
            .await
            .map(drop)
    }
}

#[async_trait]
impl Ban for Discord {
    async fn ban(
        &self,
        user: &str,
        delete_message_days: u8,
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        let body = json!({ "delete_message_seconds": u32::from(delete_message_days) * 86_400 });
        let path = format!("/guilds/{}/bans/{user}", self.guild_id);
        self.call(Method::PUT, &path, Some(body), reason)
            .await
            .map(drop)
    }

    async fn unban(&self, user: &str, reason: Option<&str>) -> PlatformResult<()> {
        let path = format!("/guilds/{}/bans/{user}", self.guild_id);
        self.call(Method::DELETE, &path, None, reason)
            .await
            .map(drop)
    }
}

#[async_trait]
impl SetRoles for Discord {
    async fn set_roles(
        &self,
        user: &str,
        roles: &[String],
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        let body = json!({ "roles": roles });
        self.call(Method::PATCH, &self.member_path(user), Some(body), reason)
            .await
            .map(drop)
    }
}

#[async_trait]
impl InspectMember for Discord {
    async fn inspect_member(&self, user: &str) -> PlatformResult<MemberState> {
        let member = match self
            .call(Method::GET, &self.member_path(user), None, None)
            .await
        {
            Ok(member) => Some(typed::<GuildMember>(member, "guild member")?),
            Err(PlatformError::NotFound(_)) => None,
            Err(e) => return Err(e),
        };
        let ban_path = format!("/guilds/{}/bans/{user}", self.guild_id);
        let banned = match self.call(Method::GET, &ban_path, None, None).await {
            Ok(_) => true,
            Err(PlatformError::NotFound(_)) => false,
            Err(e) => return Err(e),
        };
        Ok(MemberState {
            present: member.is_some(),
            banned,
            timed_out_until: member.as_ref().and_then(|m| m.communication_disabled_until),
            roles: member.map(|m| m.roles),
            muted: None,
        })
    }
}

#[async_trait]
impl MemberNames for Discord {
    /// "Get Guild Member", `GET /guilds/{guild.id}/members/{user.id}`
    /// (discord-docs/guild.mdx; 404 Unknown Member for someone not in the
    /// guild): the name Discord shows, the member's `nick`, else the user's
    /// `global_name`, else the `username` (discord-docs/user.mdx, "Display
    /// Names"), as the event path reads it.
    async fn member_name(&self, user: &str) -> PlatformResult<Option<String>> {
        match self
            .call(Method::GET, &self.member_path(user), None, None)
            .await
        {
            Ok(member) => Ok(member_display_name(&member)),
            Err(PlatformError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A guild member object's shown name: `nick`, else `user.global_name`,
/// else `user.username`, the first that is a non-empty string.
fn member_display_name(member: &Value) -> Option<String> {
    let user = &member["user"];
    [&member["nick"], &user["global_name"], &user["username"]]
        .into_iter()
        .filter_map(Value::as_str)
        .find(|n| !n.trim().is_empty())
        .map(str::to_owned)
}

#[async_trait]
impl PostMessage for Discord {
    /// "Create Message" (`POST /channels/{channel.id}/messages`,
    /// discord-docs/channel.mdx), rendered by [`discord_message`]: embeds
    /// for titles and fields, and no mention pings anyone.
    async fn post(&self, channel: &str, post: &Post) -> PlatformResult<()> {
        self.call(
            Method::POST,
            &format!("/channels/{channel}/messages"),
            Some(discord_message(post)),
            None,
        )
        .await
        .map(drop)
    }

    /// One "Create Message" with up to 10 embeds, one per post
    /// ([`discord_batch`]).
    async fn post_batch(&self, channel: &str, posts: &[Post]) -> PlatformResult<usize> {
        if posts.is_empty() {
            return Ok(0);
        }
        let (body, count) = discord_batch(posts);
        self.call(
            Method::POST,
            &format!("/channels/{channel}/messages"),
            Some(body),
            None,
        )
        .await
        .map(|_| count)
    }
}

#[async_trait]
impl Greet for Discord {
    /// "Create Message" in `channel` with the greeting's content and
    /// `allowed_mentions` naming the member alone ([`discord_greeting`]).
    async fn greet(&self, channel: &str, greeting: &Greeting) -> PlatformResult<()> {
        self.call(
            Method::POST,
            &format!("/channels/{channel}/messages"),
            Some(discord_greeting(greeting)),
            None,
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl Buttons for Discord {
    /// "Create Message" with one action row holding one button
    /// (discord-docs/components-reference.mdx: an Action Row, type 1,
    /// holding a Button, type 2, style 1 Primary, with its `custom_id` of
    /// at most 100 characters).
    async fn post_button(
        &self,
        channel: &str,
        post: &Post,
        label: &str,
        custom_id: &str,
    ) -> PlatformResult<String> {
        let mut body = discord_message(post);
        body["components"] = serde_json::json!([{
            "type": 1,
            "components": [{"type": 2, "style": 1, "label": label, "custom_id": custom_id}],
        }]);
        let message = self
            .call(
                Method::POST,
                &format!("/channels/{channel}/messages"),
                Some(body),
                None,
            )
            .await?;
        message["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| PlatformError::Invalid("Create Message answered no `id`".into()))
    }

    /// "Get Channel Message" (`GET /channels/{channel.id}/messages/{message.id}`,
    /// discord-docs/message.mdx): 404 Unknown Message (or Unknown
    /// Channel) means gone.
    async fn message_exists(&self, channel: &str, message: &str) -> PlatformResult<bool> {
        match self
            .call(
                Method::GET,
                &format!("/channels/{channel}/messages/{message}"),
                None,
                None,
            )
            .await
        {
            Ok(_) => Ok(true),
            Err(PlatformError::NotFound(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// "Create Interaction Response" (`POST /interactions/{id}/{token}/callback`,
    /// discord-docs/receiving-and-responding.mdx): type 4
    /// `CHANNEL_MESSAGE_WITH_SOURCE` with flags 64 `EPHEMERAL`, so only the
    /// presser sees it. Sent once (a POST): Discord takes one response per
    /// interaction, within 3 seconds.
    async fn answer_press(&self, id: &str, token: &str, text: &str) -> PlatformResult<()> {
        let body = serde_json::json!({
            "type": 4,
            "data": {"content": text, "flags": 64, "allowed_mentions": {"parse": []}},
        });
        self.call(
            Method::POST,
            &format!("/interactions/{id}/{token}/callback"),
            Some(body),
            None,
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl super::CaptchaInteractions for Discord {
    /// "Create Interaction Response" type 4 with flags 64 `EPHEMERAL`, the
    /// image uploaded with it (discord-docs/receiving-and-responding.mdx:
    /// a response may carry files the way a message does, as
    /// `multipart/form-data`), and one action row of buttons.
    async fn answer_press_image(
        &self,
        id: &str,
        token: &str,
        text: &str,
        image: &[u8],
        buttons: &[(&str, String)],
    ) -> PlatformResult<()> {
        let buttons: Vec<Value> = buttons
            .iter()
            .map(|(label, custom_id)| {
                json!({"type": 2, "style": 1, "label": label, "custom_id": custom_id})
            })
            .collect();
        let payload = json!({
            "type": 4,
            "data": {
                "content": text, "flags": 64, "allowed_mentions": {"parse": []},
                "attachments": [{"id": 0, "filename": CAPTCHA_FILE}],
                "components": [{"type": 1, "components": buttons}],
            },
        });
        let body = Body::Upload {
            payload,
            name: CAPTCHA_FILE.to_owned(),
            bytes: image.to_vec(),
        };
        self.send(
            Method::POST,
            &format!("/interactions/{id}/{token}/callback"),
            Some(body),
            None,
        )
        .await
        .map(drop)
    }

    /// "Create Interaction Response" type 9 `MODAL`
    /// (discord-docs/receiving-and-responding.mdx: `custom_id`, `title` of
    /// at most 45 characters, `components`), holding one action row with
    /// one Text Input (components-reference.mdx: type 4, style 1 Short,
    /// `min_length`/`max_length`, `required`).
    async fn answer_press_modal(
        &self,
        id: &str,
        token: &str,
        custom_id: &str,
        title: &str,
        (field_id, label): (&str, &str),
        length: usize,
    ) -> PlatformResult<()> {
        let body = json!({
            "type": 9,
            "data": {
                "custom_id": custom_id,
                "title": title,
                "components": [{"type": 1, "components": [{
                    "type": 4, "custom_id": field_id, "style": 1, "label": label,
                    "min_length": length, "max_length": length, "required": true,
                }]}],
            },
        });
        self.call(
            Method::POST,
            &format!("/interactions/{id}/{token}/callback"),
            Some(body),
            None,
        )
        .await
        .map(drop)
    }
}

/// The file name of a captcha's image in a response.
const CAPTCHA_FILE: &str = "captcha.png";

#[async_trait]
impl AddRole for Discord {
    /// "Add Guild Member Role" (`PUT
    /// /guilds/{guild.id}/members/{user.id}/roles/{role.id}`,
    /// discord-docs/guild.mdx): needs `MANAGE_ROLES` (and the role below
    /// the bot's highest), answers 204, supports `X-Audit-Log-Reason`. A
    /// PUT sets a state, so a repeat does what one did.
    async fn add_role(&self, user: &str, role: &str, reason: Option<&str>) -> PlatformResult<()> {
        self.call(
            Method::PUT,
            &format!("{}/roles/{role}", self.member_path(user)),
            None,
            reason,
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl Revert for Discord {
    /// "Delete Webhook" (`DELETE /webhooks/{webhook.id}`,
    /// discord-openapi.json `delete_webhook`): 204; `X-Audit-Log-Reason`
    /// names antinuke's case in the guild's audit log.
    async fn delete_webhook(&self, webhook: &str, reason: Option<&str>) -> PlatformResult<()> {
        self.call(
            Method::DELETE,
            &format!("/webhooks/{webhook}"),
            None,
            reason,
        )
        .await
        .map(drop)
    }

    /// "Remove Guild Member Role" (`DELETE
    /// /guilds/{guild.id}/members/{user.id}/roles/{role.id}`,
    /// discord-docs/guild.mdx): `MANAGE_ROLES`, 204.
    async fn remove_role(
        &self,
        user: &str,
        role: &str,
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        self.call(
            Method::DELETE,
            &format!("{}/roles/{role}", self.member_path(user)),
            None,
            reason,
        )
        .await
        .map(drop)
    }

    /// "Modify Guild Role" (`PATCH /guilds/{guild.id}/roles/{role.id}`,
    /// discord-docs/guild.mdx) with only `permissions`, a bitfield sent as
    /// a string (permissions.mdx, "Permissions").
    async fn set_role_permissions(
        &self,
        role: &str,
        permissions: u64,
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        let body = json!({ "permissions": permissions.to_string() });
        self.call(
            Method::PATCH,
            &format!("/guilds/{}/roles/{role}", self.guild_id),
            Some(body),
            reason,
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl DeleteMessage for Discord {
    /// "Delete Message" (`DELETE /channels/{channel.id}/messages/{message.id}`,
    /// discord-docs/channel.mdx): another member's message needs
    /// `MANAGE_MESSAGES`; "This endpoint supports the `X-Audit-Log-Reason`
    /// header", which carries `reason`. Answers 204.
    async fn delete_message(
        &self,
        channel: &str,
        message: &str,
        reason: Option<&str>,
    ) -> PlatformResult<()> {
        self.call(
            Method::DELETE,
            &format!("/channels/{channel}/messages/{message}"),
            None,
            reason,
        )
        .await
        .map(drop)
    }
}

#[async_trait]
impl DirectMessage for Discord {
    /// "Create DM" (`POST /users/@me/channels` with `recipient_id`,
    /// discord-docs/user.mdx), which answers the DM channel (the same one
    /// each time), then "Create Message" there. A member who shares no
    /// guild with the bot or has DMs from servers off is refused with 50007
    /// "Cannot send messages to this user" (a 403, [`PlatformError::Forbidden`]).
    async fn direct_message(&self, user: &str, post: &Post) -> PlatformResult<()> {
        #[derive(Deserialize)]
        struct DmChannel {
            id: String,
        }
        let channel = self
            .call(
                Method::POST,
                "/users/@me/channels",
                Some(json!({ "recipient_id": user })),
                None,
            )
            .await?;
        let channel: DmChannel = typed(channel, "DM channel")?;
        self.post(&channel.id, post).await
    }
}

#[async_trait]
impl ReadInvites for Discord {
    /// The guild's `vanity_url_code` (guild object, discord-docs/guild.mdx;
    /// `null` without one) and the codes of "Get Guild Invites" (`GET
    /// /guilds/{guild.id}/invites`: invite objects, which "Requires the
    /// `MANAGE_GUILD` or `VIEW_AUDIT_LOG` permission"). Refused that
    /// permission, the vanity code alone is answered, with what to grant.
    async fn own_invites(&self) -> PlatformResult<OwnInvites> {
        #[derive(Deserialize)]
        struct Guild {
            #[serde(default)]
            vanity_url_code: Option<String>,
        }
        #[derive(Deserialize)]
        struct Invite {
            code: String,
        }
        let path = format!("/guilds/{}", self.guild_id);
        let guild: Guild = typed(self.call(Method::GET, &path, None, None).await?, "guild")?;
        let mut own = OwnInvites {
            invites: guild.vanity_url_code.into_iter().collect(),
            refused: None,
        };
        match self
            .call(Method::GET, &format!("{path}/invites"), None, None)
            .await
        {
            Ok(list) => {
                let invites: Vec<Invite> = typed(list, "guild invites")?;
                own.invites.extend(invites.into_iter().map(|i| i.code));
            }
            Err(PlatformError::Forbidden(why)) => {
                own.refused = Some(format!(
                    "Discord refused the guild's invite list ({why}): give the bot's role Manage Server (or View Audit Log) in Server Settings > Roles; until then only the vanity invite is known as the server's own"
                ));
            }
            Err(other) => return Err(other),
        }
        Ok(own)
    }
}

#[async_trait]
impl NativeRules for Discord {
    /// "List Auto Moderation Rules for Guild" (`GET
    /// /guilds/{guild.id}/auto-moderation/rules`, discord-docs/auto-moderation.mdx;
    /// needs `MANAGE_GUILD`).
    async fn list_rules(&self) -> PlatformResult<Vec<AutoModerationRule>> {
        let rules = self
            .call(Method::GET, &self.rules_path(), None, None)
            .await?;
        typed(rules, "auto moderation rules")
    }

    /// "Create Auto Moderation Rule" (`POST`, with `X-Audit-Log-Reason`);
    /// answers the rule.
    async fn create_rule(
        &self,
        rule: &RuleSpec,
        reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let body = serde_json::to_value(rule)
            .map_err(|e| PlatformError::Invalid(format!("cannot encode the rule: {e}")))?;
        let created = self
            .call(Method::POST, &self.rules_path(), Some(body), reason)
            .await?;
        typed(created, "auto moderation rule")
    }

    /// "Modify Auto Moderation Rule" (`PATCH .../rules/{rule.id}`, every
    /// field but `trigger_type`: [`RuleSpec::modify_body`]); the rule keeps
    /// its id.
    async fn modify_rule(
        &self,
        id: &str,
        rule: &RuleSpec,
        reason: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let path = format!("{}/{id}", self.rules_path());
        let modified = self
            .call(Method::PATCH, &path, Some(rule.modify_body()), reason)
            .await?;
        typed(modified, "auto moderation rule")
    }

    /// "Delete Auto Moderation Rule" (`DELETE .../rules/{rule.id}`, 204).
    async fn delete_rule(&self, id: &str, reason: Option<&str>) -> PlatformResult<()> {
        let path = format!("{}/{id}", self.rules_path());
        self.call(Method::DELETE, &path, None, reason)
            .await
            .map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::redact::{REDACTED, answer};

    /// Discord's `message`, whatever the status, loses the bot token.
    #[tokio::test]
    async fn a_message_quoting_the_token_is_redacted() {
        let token = "MTIzNDU2Nzg5MDEy.GhIjKl.discord-secret-token";
        let secrets = Redactor::new([token]);
        for status in [400, 403, 404, 500] {
            let body = json!({"message": format!("Invalid Authorization Bot {token}"), "code": 0});
            let text = read(answer(status, body), &secrets)
                .await
                .unwrap_err()
                .to_string();
            assert!(!text.contains("discord-secret-token"), "{text}");
            assert!(text.contains(&format!("Bot {REDACTED}, code 0")), "{text}");
        }
    }

    /// reference.mdx, "User Agent": `DiscordBot ($url, $versionNumber)`.
    #[test]
    fn the_user_agent_has_discords_form() {
        let inner = USER_AGENT
            .strip_prefix("DiscordBot (")
            .and_then(|rest| rest.strip_suffix(')'))
            .expect("DiscordBot (...)");
        let (url, version) = inner.split_once(", ").expect("url, version");
        assert!(url.starts_with("https://"), "{url}");
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn audit_log_reasons_are_encoded_and_cut_to_512_characters() {
        assert_eq!(
            audit_log_reason("spam & scams (again)"),
            "spam%20%26%20scams%20(again)"
        );
        assert_eq!(audit_log_reason("ü"), "%C3%BC");
        let long = "é".repeat(600);
        assert_eq!(audit_log_reason(&long), "%C3%A9".repeat(512));
    }
}
