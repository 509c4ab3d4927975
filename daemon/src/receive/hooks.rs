//! The endpoints the platforms post events to: outside `/api/v1`, without an
//! API key, each verified with a secret the platform and the daemon share.
//!
//! - `POST /hooks/slack/events`: the Slack app's Events API request URL.
//!   Signed with the app's signing secret (`X-Slack-Signature`, see
//!   [`crate::platform::slack::events`]); the secret is found through the
//!   body's `team_id` (the server), or, for `url_verification`, which names
//!   no team, among every connected Slack server's. Refused with 401 and
//!   nothing counted when the signature does not match or the timestamp is
//!   more than 5 minutes off the daemon's clock. An event id already counted
//!   (Slack's retries, a replay) is acknowledged and not counted again.
//! - `POST /hooks/telegram/{server_id}`: the webhook `setWebhook` registered
//!   for a group connected with a public URL. Checked with
//!   `X-Telegram-Bot-Api-Secret-Token` (the secret the daemon gave
//!   `setWebhook`), compared in constant time; 401 when it is missing or
//!   wrong. Only updates of that group count.
//!
//! Both answer 200 quickly: the events go to the ingestion's buffer, never
//! through a platform call.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::post;
use modctl_types::Platform;
use serde_json::{Value, json};
use subtle::ConstantTimeEq;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::platform::slack::events::{self, Refused, Request};
use crate::platform::telegram::updates;
use crate::response::Json;
use crate::store::receivers::{self, LiveConnection};

/// The header Telegram puts the webhook's secret token in.
pub const TELEGRAM_SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// The routes, to be nested under `/hooks`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/slack/events", post(slack_events))
        .route("/telegram/{server_id}", post(telegram_update))
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
    let team = events::team_of(&body);
    let connections: Vec<LiveConnection> = live(&state)
        .await?
        .into_iter()
        .filter(|c| c.platform == Platform::Slack && c.receiving.signing_secret.is_some())
        .filter(|c| team.as_ref().is_none_or(|team| &c.server_id == team))
        .collect();
    if connections.is_empty() {
        return Err(ApiError::Unauthorized(match &team {
            Some(team) => format!(
                "no Slack server `{team}` is connected with a signing secret: connect it with `modctld server connect {team} --signing-secret-env VAR`"
            ),
            None => "no Slack server is connected with a signing secret: connect one with `modctld server connect ID --signing-secret-env VAR`".to_owned(),
        }));
    }
    let secrets = connections
        .iter()
        .filter_map(|c| c.receiving.signing_secret.as_deref());
    events::verify(
        secrets,
        header(&headers, "x-slack-request-timestamp"),
        header(&headers, "x-slack-signature"),
        &body,
        state.clock.now(),
    )
    .map_err(|refused| match refused {
        Refused::Malformed(m) => ApiError::Unauthorized(m),
        other => ApiError::Unauthorized(other.to_string()),
    })?;

    match events::decode(&body).map_err(|e| ApiError::BadRequest(e.to_string()))? {
        Some(Request::UrlVerification { challenge }) => Ok(Json(json!({ "challenge": challenge }))),
        Some(Request::Event {
            event_id,
            event: Some(event),
        }) => {
            // Only events that count are remembered: the others cost no write.
            let now = state.clock.now_unix();
            let first = state
                .store
                .write(move |tx| receivers::first_slack_sighting(tx, &event_id, now))
                .await?;
            if first {
                state.receivers.sink()(event);
            }
            Ok(Json(json!({ "ok": true, "counted": first })))
        }
        Some(Request::Event { event: None, .. }) => {
            Ok(Json(json!({ "ok": true, "counted": false })))
        }
        None => Ok(Json(json!({ "ok": true, "counted": false }))),
    }
}

/// `POST /hooks/telegram/{server_id}`
async fn telegram_update(
    State(state): State<AppState>,
    Path(server_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let connection = live(&state)
        .await?
        .into_iter()
        .find(|c| c.server_id == server_id && c.platform == Platform::Telegram);
    let Some(expected) = connection.and_then(|c| c.receiving.hook_secret) else {
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
    let update: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::BadRequest(format!("the body is not JSON: {e}")))?;
    let update = updates::decode(update).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    // Handed to the ingestion, which counts an event id once (Telegram
    // delivers an update again when an answer is lost).
    let mut events = 0;
    for event in update.events {
        if event.server_id == server_id {
            state.receivers.sink()(event);
            events += 1;
        }
    }
    Ok(Json(json!({ "ok": true, "events": events })))
}
