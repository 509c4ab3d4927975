//! The endpoints the platforms post events to: outside `/api/v1`, without an
//! API key, each verified with a secret the platform and the daemon share.
//!
//! - `POST /hooks/slack/interactions`: the Slack app's interactivity
//!   request URL (button presses, issue #26), signed and verified alike.
//! - `POST /hooks/slack/events`: the Slack app's Events API request URL.
//!   Signed with the app's signing secret (`X-Slack-Signature`, see
//!   [`crate::platform::slack::events`]); the secret is found through the
//!   body's `team_id` (the server), or, for `url_verification`, which names
//!   no team, among every connected Slack server's. Refused with 401 and
//!   nothing counted when the signature does not match or the timestamp is
//!   more than 5 minutes off the daemon's clock. The event counts only for
//!   the workspace whose secret verified it, and a body that repeats a key
//!   (one `team_id` to pick the secret, another to count for) is refused.
//!   An event id already counted in that workspace (Slack's retries, a
//!   replay) is acknowledged and not counted again.
//! - `POST /hooks/telegram/{server_id}`: the webhook `setWebhook` registered
//!   for a bot with a group connected with a public URL (the URL of its
//!   first such group: [`crate::receive`]). Checked with
//!   `X-Telegram-Bot-Api-Secret-Token` (the secret the daemon gave
//!   `setWebhook`, the one of the group in the path), compared in constant
//!   time; 401 when it is missing or wrong. Telegram keeps one webhook per
//!   bot, so updates of every group connected with the bot's token count,
//!   each for its group.
//!
//! Both decode the body ([`crate::events::decode`]) and answer once the
//! activity counts of its events are durable, never through a platform
//! call: the platforms do not send again what was answered 200, so an
//! answer must not run ahead of the write ([`activity::count_now`]). The
//! events then go to the other consumers of the event path, without waiting
//! for them ([`crate::events::Fanout::publish_except`]).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::post;
use modctl_types::Platform;
use serde_json::{Value, json};
use subtle::ConstantTimeEq;

use crate::activity::events::{NAME as ACTIVITY, activity_of};
use crate::error::{ApiError, ApiResult};
use crate::events::decode::slack::{self, Request};
use crate::events::decode::telegram as updates;
use crate::events::{Event, EventKind, PressReply, ViewAnswer};
use crate::extract::refuse_duplicate_keys;
use crate::platform::slack::events::{self, Refused};
use crate::response::Json;
use crate::store::receivers::{self, LiveConnection};
use crate::{AppState, activity};

/// The header Telegram puts the webhook's secret token in.
pub const TELEGRAM_SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// The routes, to be nested under `/hooks`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/slack/events", post(slack_events))
        .route("/slack/interactions", post(slack_interactions))
        .route("/telegram/{server_id}", post(telegram_update))
}

/// The ports Telegram posts webhooks to (Bot API reference, setWebhook,
/// "Notes": "Ports currently supported for webhooks: 443, 80, 88, 8443").
pub const TELEGRAM_WEBHOOK_PORTS: [u16; 4] = [443, 80, 88, 8443];

/// Checks the daemon's public base URL for a Telegram webhook as Telegram
/// will (setWebhook: an HTTPS URL, on one of [`TELEGRAM_WEBHOOK_PORTS`]),
/// so a URL it would refuse is refused when the group is connected rather
/// than failing every minute in the log; returns it without a trailing `/`.
/// The error says what to fix.
pub fn check_telegram_webhook_base(url: &str) -> Result<String, String> {
    const EXAMPLE: &str = "e.g. https://modctl.example.com or https://modctl.example.com:8443";
    let parsed = reqwest::Url::parse(url).map_err(|e| {
        format!("--telegram-webhook-url `{url}` is not a URL ({e}): give the daemon's public https:// base URL, {EXAMPLE}")
    })?;
    if parsed.scheme() != "https" {
        return Err(format!(
            "--telegram-webhook-url must be an https:// URL (Telegram posts webhooks over HTTPS only), not `{}://`: serve the daemon behind TLS, {EXAMPLE}",
            parsed.scheme()
        ));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(format!(
            "--telegram-webhook-url `{url}` has no host: {EXAMPLE}"
        ));
    }
    let port = parsed.port_or_known_default().unwrap_or(443);
    if !TELEGRAM_WEBHOOK_PORTS.contains(&port) {
        return Err(format!(
            "--telegram-webhook-url uses port {port}, but Telegram posts webhooks only to ports 443, 80, 88 or 8443: expose the daemon (or a proxy in front of it) on one of them, {EXAMPLE}"
        ));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!(
            "--telegram-webhook-url must be a base URL without `?` or `#` (the daemon appends /hooks/telegram/ID): {EXAMPLE}"
        ));
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// The webhook URL of `server_id` under the daemon's public base URL.
pub fn telegram_hook_url(base: &str, server_id: &str) -> String {
    format!("{}/hooks/telegram/{server_id}", base.trim_end_matches('/'))
}

async fn live(state: &AppState) -> ApiResult<Vec<LiveConnection>> {
    let secrets = state.store.secrets().clone();
    Ok(state
        .store
        .read(move |tx| receivers::live_connections(tx, &secrets))
        .await?)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// `POST /hooks/slack/events`
async fn slack_events(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    // Before the team is read: a body that named two teams would pick the
    // secret by one and count for the other.
    refuse_duplicate_keys(&body)?;
    let team = events::team_of(&body);
    let workspace = signed_workspace(&state, &headers, &body, team.as_deref()).await?;

    match slack::decode(&body).map_err(|e| ApiError::BadRequest(e.to_string()))? {
        Some(Request::UrlVerification { challenge }) => Ok(Json(json!({ "challenge": challenge }))),
        // The workspace whose secret signed the request is the only one its
        // event may count for.
        Some(Request::Event { team_id, .. }) if team_id != workspace => {
            Err(ApiError::Unauthorized(format!(
                "the request is signed with the signing secret of `{workspace}` but its event is of `{team_id}`"
            )))
        }
        Some(Request::Event { events, .. }) => {
            // Counted before the answer, its id with it: Slack sends no
            // event again once it was answered, and a retry of one that was
            // counted counts 0.
            let counted = count_then_publish(&state, workspace, events).await?;
            Ok(Json(json!({ "ok": true, "counted": counted > 0 })))
        }
        None => Ok(Json(json!({ "ok": true, "counted": false }))),
    }
}

/// The Slack workspace whose signing secret signed `body` (Slack's
/// "Verifying requests from Slack": `X-Slack-Request-Timestamp` and
/// `X-Slack-Signature`), among those of `team` when the body names one,
/// else of every Slack server connected with a signing secret: the events
/// and the interactivity endpoints verify alike.
async fn signed_workspace(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
    team: Option<&str>,
) -> ApiResult<String> {
    let connections: Vec<LiveConnection> = live(state)
        .await?
        .into_iter()
        .filter(|c| c.platform == Platform::Slack && c.receiving.signing_secret.is_some())
        .filter(|c| team.is_none_or(|team| c.server_id == team))
        .collect();
    if connections.is_empty() {
        return Err(ApiError::Unauthorized(match team {
            Some(team) => format!(
                "no Slack server `{team}` is connected with a signing secret: connect it with `modctld server connect {team} --signing-secret-env VAR`"
            ),
            None => "no Slack server is connected with a signing secret: connect one with `modctld server connect ID --signing-secret-env VAR`".to_owned(),
        }));
    }
    let secrets = connections
        .iter()
        .filter_map(|c| c.receiving.signing_secret.as_deref());
    let signed_by = events::verify(
        secrets,
        header(headers, "x-slack-request-timestamp"),
        header(headers, "x-slack-signature"),
        body,
        state.clock.now(),
    )
    .map_err(|refused| match refused {
        Refused::Malformed(m) => ApiError::Unauthorized(m),
        other => ApiError::Unauthorized(other.to_string()),
    })?;
    Ok(connections[signed_by].server_id.clone())
}

/// `POST /hooks/slack/interactions`: the Slack app's interactivity request
/// URL (issue #26's verification button and captcha modal). Slack posts a
/// form whose one field `payload` is the JSON; the signature is over the
/// whole form body, verified like the events endpoint's
/// ([`signed_workspace`]). A `block_actions` press is handed to the event
/// path as a [`crate::events::EventKind::ButtonPressed`] (not counted as
/// activity); the answer is an empty 200, which Slack needs within 3
/// seconds.
///
/// A `view_submission` (a modal sent) is handed on as a
/// [`crate::events::EventKind::FormSubmitted`] whose consumer answers this
/// very request ([`ViewAnswer`]): Slack shows a field's error only from
/// the submission's own response (`{"response_action": "errors",
/// "errors": {block_id: text}}`; an empty 200 closes the modal). It is
/// waited for [`VIEW_WAIT`], within Slack's 3 seconds; without an answer by
/// then (nobody's form, a consumer behind) the modal is closed and the
/// consumer tells the member another way.
async fn slack_interactions(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).map_err(|e| {
        ApiError::BadRequest(format!(
            "the interactivity request is not a form (Slack posts `payload=<JSON>`): {e}"
        ))
    })?;
    let Some((_, payload)) = fields.into_iter().find(|(name, _)| name == "payload") else {
        return Err(ApiError::BadRequest(
            "the interactivity request has no `payload` field (Slack posts `payload=<JSON>`)"
                .to_owned(),
        ));
    };
    refuse_duplicate_keys(payload.as_bytes())?;
    let team = slack::interaction_team(payload.as_bytes());
    let workspace = signed_workspace(&state, &headers, &body, team.as_deref()).await?;
    let closed = axum::http::StatusCode::OK.into_response();
    match slack::decode_interaction(payload.as_bytes(), state.clock.now())
        .map_err(|e| ApiError::BadRequest(e.to_string()))?
    {
        Some((team_id, _)) if team_id != workspace => Err(ApiError::Unauthorized(format!(
            "the request is signed with the signing secret of `{workspace}` but its payload is of `{team_id}`"
        ))),
        Some((_, events)) => {
            let mut waiting = None;
            for mut event in events {
                if let EventKind::FormSubmitted(form) = &mut event.kind
                    && let PressReply::SlackView(answer) = &mut form.reply
                {
                    let (mine, receiver) = ViewAnswer::pair();
                    *answer = mine;
                    waiting = Some(receiver);
                }
                state.events.publish_except(event, Some(ACTIVITY));
            }
            let Some(receiver) = waiting else {
                return Ok(closed);
            };
            Ok(match tokio::time::timeout(VIEW_WAIT, receiver).await {
                Ok(Ok(Some((block_id, text)))) => Json(json!({
                    "response_action": "errors",
                    "errors": { block_id: text },
                }))
                .into_response(),
                Ok(Ok(None) | Err(_)) | Err(_) => closed,
            })
        }
        None => Ok(closed),
    }
}

/// How long a `view_submission`'s answer is waited for: Slack closes the
/// request after 3 seconds ("view_submission" responses must come within
/// 3 seconds, else the member sees an error in the modal).
pub const VIEW_WAIT: std::time::Duration = std::time::Duration::from_millis(2500);

/// `POST /hooks/telegram/{server_id}`
async fn telegram_update(
    State(state): State<AppState>,
    Path(server_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let live = live(&state).await?;
    let connection = live
        .iter()
        .find(|c| c.server_id == server_id && c.platform == Platform::Telegram);
    let Some((connection, expected)) =
        connection.and_then(|c| Some((c, c.receiving.hook_secret.as_deref()?)))
    else {
        return Err(ApiError::NotFound(format!(
            "no Telegram group `{server_id}` is connected with a webhook: connect it with `modctld server connect {server_id} --telegram-webhook-url URL`"
        )));
    };
    let given = header(&headers, TELEGRAM_SECRET_HEADER).ok_or_else(|| {
        ApiError::Unauthorized(
            "the X-Telegram-Bot-Api-Secret-Token header is missing: only Telegram may post here"
                .to_owned(),
        )
    })?;
    if !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
        return Err(ApiError::Unauthorized(
            "the X-Telegram-Bot-Api-Secret-Token header does not match the webhook's secret"
                .to_owned(),
        ));
    }
    refuse_duplicate_keys(&body)?;
    let update = updates::decode(&body).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // The bot has one webhook for all its groups (Telegram keeps one per
    // bot): the events of every group connected with the same token count,
    // each for its own server; other chats the bot is in count nothing.
    let mut groups = super::telegram::groups_of_bot(&live, connection);
    let by_server = super::telegram::route(&state, &mut groups, update).await?;
    let received = by_server.values().map(Vec::len).sum::<usize>();
    // Counted before the answer, each with its id: Telegram does not send an
    // update again once it was answered, and sends it again (counted once)
    // when it was not.
    let mut counted = 0;
    for (server, events) in by_server {
        counted += count_then_publish(&state, server, events).await?;
    }
    Ok(Json(
        json!({ "ok": true, "events": received, "counted": counted }),
    ))
}

/// Counts the activity of `events` of `server` durably (the answer to the
/// platform waits for it), then hands them to the event path's other
/// consumers; how many were counted.
async fn count_then_publish(
    state: &AppState,
    server: String,
    events: Vec<Event>,
) -> ApiResult<usize> {
    let activity = events.iter().filter_map(activity_of).collect();
    let counted = activity::count_now(&state.store, &state.clock, server, activity).await?;
    for event in events {
        state.events.publish_except(event, Some(ACTIVITY));
    }
    Ok(counted)
}
