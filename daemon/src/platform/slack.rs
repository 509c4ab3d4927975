//! Slack Web API (`Authorization: Bearer <bot token>`). Slack offers bots no
//! way to remove members from a workspace, so the only primitive is posting
//! to the mod-log channel; snapshots read its channels and user groups
//! ([`structure`]).

use async_trait::async_trait;
use serde_json::{Value, json};

use super::{PlatformAdapter, PlatformClients, PlatformError, PlatformResult, Redactor, Repeat};

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
    /// The token and the connection's other secrets (the signing secret).
    secrets: Redactor,
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
        }
    }

    /// Also keeps `secrets` (the connection's other ones) out of its errors.
    #[must_use]
    pub fn redacting(mut self, secrets: &[String]) -> Self {
        self.secrets = self.secrets.with(secrets);
        self
    }

    /// Calls Web API method `method`; the answer when `ok`.
    async fn call(&self, method: &str, arguments: Arguments<'_>) -> PlatformResult<Value> {
        let url = format!("{}/{method}", self.base);
        self.clients
            .retry
            .run(repeat(method), || async {
                let request = self.clients.http.post(&url).bearer_auth(&self.token);
                let request = match arguments {
                    Arguments::Json(body) => request.json(body),
                    Arguments::Form(fields) => request.form(fields),
                };
                let response = request
                    .send()
                    .await
                    .map_err(|e| PlatformError::from_reqwest(e, &self.secrets))?;
                read(response, &self.secrets).await
            })
            .await
    }
}

/// Whether `method` may be sent again after a failure that leaves open
/// whether Slack carried it out (see [`super::retry`]): reads
/// (`conversations.list`, `usergroups.list`) and methods that set a state
/// (`conversations.setTopic`, `conversations.setPurpose`,
/// `usergroups.users.update`, shared/platform-specs/slack-web-openapi.json)
/// may, and so may `conversations.create` and `usergroups.create`, whose
/// `name_taken` and `name_already_exists` answers to a repeat the adapter
/// takes as the channel or group made ([`apply`]); `chat.postMessage` would
/// post twice.
fn repeat(method: &str) -> Repeat {
    match method {
        "conversations.create"
        | "usergroups.create"
        | "conversations.list"
        | "usergroups.list"
        | "conversations.setTopic"
        | "conversations.setPurpose"
        | "usergroups.users.update" => Repeat::Safe,
        _ => Repeat::Once,
    }
}

/// Creating channels and user groups for restores.
pub mod apply;
/// The Events API: verifying requests and decoding them for activity.
pub mod events;
/// Reading the workspace's structure for snapshots.
pub mod structure;

/// Slack pushes events to the daemon's hook; it has nothing to call for them.
impl crate::platform::EventSource for Slack {}

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
        "channel_not_found" => PlatformError::NotFound(error),
        "not_in_channel" | "missing_scope" | "restricted_action" | "is_archived" => {
            PlatformError::Forbidden(error)
        }
        _ => PlatformError::Invalid(error),
    }
    .redacted(secrets))
}

#[async_trait]
impl PlatformAdapter for Slack {
    async fn joined_channels(&self) -> PlatformResult<Option<Vec<String>>> {
        self.joined_channels().await.map(Some)
    }

    async fn post_message(&self, channel: &str, text: &str) -> PlatformResult<()> {
        let body = json!({ "channel": channel, "text": text });
        self.call("chat.postMessage", Arguments::Json(&body))
            .await
            .map(drop)
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
