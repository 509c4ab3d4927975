//! `/servers/{id}/activity`, `/insights` and `/community-insights` (issue
//! #12): batch ingestion of community activity, and the two insights read
//! from the rollups ([`crate::activity`], [`crate::store::case_rollup`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use modctl_types::ErrorBody;
use modctl_types::activity::{
    ActivityBatch, ActivityKind, BatchEvent, BatchReceipt, CommunityInsights, MAX_BATCH_EVENTS,
    MAX_EVENT_ID_BYTES, MAX_VOICE_MINUTES, ModerationInsights,
};
use modctl_types::query::InsightsQuery;

use crate::AppState;
use crate::activity::batches::{self, Batch};
use crate::activity::{ActivityEvent, MAX_FUTURE_SECONDS, insights};
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiQuery, MAX_BATCH_BODY_BYTES};
use crate::response::{Json, to_bytes};
use crate::store::StoreError;
use crate::store::activity::{self as rollups, RETENTION_DAYS};

use super::openapi::ServerPath;

/// The longest user or channel id a batch event may carry, in bytes.
const MAX_ID_BYTES: usize = 100;

/// `POST /servers/{id}/activity`
#[utoipa::path(
    post,
    path = "/servers/{id}/activity",
    tag = "insights",
    summary = "Post a batch of activity events",
    description = "Counts up to 10,000 events (messages, voice minutes, joins, leaves) into the server's daily rollups, \
        for bots and importers. The batch is validated as a whole: the first bad event is named (400) and nothing is \
        stored. An event whose `id` was already counted is skipped (`duplicates`), so a retried batch counts once. \
        Events older than the retention window (400 days) or more than 15 minutes in the future are refused. The \
        events are stored durably when the answer is sent. The body may be up to 4 MiB.",
    params(ServerPath),
    request_body = ActivityBatch,
    security(("bearer" = ["write"])),
    responses((status = 200, description = "What was counted.", body = BatchReceipt)),
)]
pub async fn ingest(
    State(state): State<AppState>,
    access: WriteServer,
    ApiJson(batch): ApiJson<ActivityBatch, MAX_BATCH_BODY_BYTES>,
) -> ApiResult<Json<BatchReceipt>> {
    let server = access.server.id;
    let now = state.clock.now_unix();
    let events = validate(&server, batch, now).map_err(ApiError::BadRequest)?;
    let batch = Batch {
        team_id: access.caller.team_id(),
        server_id: server,
        events,
        now,
    };
    let done = batches::post(&state, batch).await?;
    Ok(Json(BatchReceipt {
        counted: done.counted as u64,
        duplicates: done.duplicates as u64,
    }))
}

/// Checks every event of `batch` (received at `now`) and turns them into
/// [`ActivityEvent`]s, or names the first bad one.
fn validate(server: &str, batch: ActivityBatch, now: i64) -> Result<Vec<ActivityEvent>, String> {
    let count = batch.events.len();
    if !(1..=MAX_BATCH_EVENTS).contains(&count) {
        return Err(format!(
            "events must hold 1 to {MAX_BATCH_EVENTS} events, got {count}"
        ));
    }
    let oldest = rollups::oldest_accepted(now);
    // One copy of the server's id for the whole batch, not one per event.
    let server: Arc<str> = server.into();
    batch
        .events
        .into_iter()
        .enumerate()
        .map(|(i, event)| {
            check(&event, oldest, now)
                .map_err(|why| format!("events[{i}] (id `{}`): {why}", event.id))?;
            Ok(ActivityEvent {
                server_id: Arc::clone(&server),
                event_id: Some(event.id),
                kind: event.kind,
                user_id: event.user_id,
                channel_id: match event.kind {
                    ActivityKind::Message | ActivityKind::Voice => event.channel_id,
                    _ => None,
                },
                at: event.at,
                minutes: event.minutes.unwrap_or(0),
            })
        })
        .collect()
}

fn check(event: &BatchEvent, oldest: i64, now: i64) -> Result<(), String> {
    if event.id.is_empty() || event.id.len() > MAX_EVENT_ID_BYTES {
        return Err(format!("id must be 1 to {MAX_EVENT_ID_BYTES} bytes"));
    }
    if event.user_id.is_empty() || event.user_id.len() > MAX_ID_BYTES {
        return Err(format!("user_id must be 1 to {MAX_ID_BYTES} bytes"));
    }
    let needs_channel = matches!(event.kind, ActivityKind::Message | ActivityKind::Voice);
    match &event.channel_id {
        None if needs_channel => {
            return Err(format!(
                "a {} event needs a channel_id",
                event.kind.as_str()
            ));
        }
        Some(c) if c.is_empty() || c.len() > MAX_ID_BYTES => {
            return Err(format!("channel_id must be 1 to {MAX_ID_BYTES} bytes"));
        }
        _ => {}
    }
    match (event.kind, event.minutes) {
        (ActivityKind::Voice, Some(m)) if (1..=MAX_VOICE_MINUTES).contains(&m) => {}
        (ActivityKind::Voice, _) => {
            return Err(format!(
                "a voice event needs minutes from 1 to {MAX_VOICE_MINUTES}"
            ));
        }
        (kind, Some(_)) => {
            return Err(format!(
                "minutes is only for voice events, not {}",
                kind.as_str()
            ));
        }
        _ => {}
    }
    let at = event.at.as_second();
    if at < oldest {
        return Err(format!(
            "at {} is older than the retention window of {RETENTION_DAYS} days",
            event.at
        ));
    }
    if at > now + MAX_FUTURE_SECONDS {
        return Err(format!(
            "at {} is more than {} minutes in the future",
            event.at,
            MAX_FUTURE_SECONDS / 60
        ));
    }
    Ok(())
}

/// `GET /servers/{id}/insights`
#[utoipa::path(
    get,
    path = "/servers/{id}/insights",
    tag = "insights",
    summary = "Moderation insights",
    description = "Cases per day of the last `days` days (today included, in the server's `general.timezone`), every \
        day listed, zeros included: by action, by source, applied or not; totals and the change against the period \
        of the same length before; cases per moderator; members with repeated cases; strikes and jails in force now. \
        Read from a rollup kept with the cases, so the answer costs the same however many cases the server has.",
    params(ServerPath, InsightsQuery),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The insights.", body = ModerationInsights),
        (status = 402, description = "`days` is beyond the team's plan (30 on free, 365 on pro).", body = ErrorBody),
    ),
)]
pub async fn moderation(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<InsightsQuery>,
) -> ApiResult<Response> {
    let days = window_days(&access, &query)?;
    answer(&state, access.server.id, move |tx, id, now| {
        insights::moderation(tx, id, days, now)
    })
    .await
}

/// `GET /servers/{id}/community-insights`
#[utoipa::path(
    get,
    path = "/servers/{id}/community-insights",
    tag = "insights",
    summary = "Community activity insights",
    description = "Messages, active members, voice minutes, joins and leaves per day of the last `days` days (today \
        included, in the server's `general.timezone`), every day listed, zeros included; totals and the change \
        against the period of the same length before; top channels and members by messages and by voice minutes; \
        when activity was last received, so a moderator can see that ingestion works.",
    params(ServerPath, InsightsQuery),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The insights.", body = CommunityInsights),
        (status = 402, description = "`days` is beyond the team's plan (30 on free, 365 on pro).", body = ErrorBody),
    ),
)]
pub async fn community(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<InsightsQuery>,
) -> ApiResult<Response> {
    let days = window_days(&access, &query)?;
    answer(&state, access.server.id, move |tx, id, now| {
        insights::community(tx, id, days, now)
    })
    .await
}

/// The window both insights read: `days` as given (or the default), within
/// what the team's plan allows.
fn window_days(access: &ReadServer, query: &InsightsQuery) -> ApiResult<u32> {
    let days = query.days().map_err(ApiError::BadRequest)?;
    crate::plans::check_days(access.caller.team(), u64::from(days))?;
    Ok(days)
}

/// Computes an answer with `read` in one read transaction. Nothing is
/// kept: read from the rollups and the ranking totals, a year costs well
/// under a millisecond (see "Cost" in `docs/api.md`).
async fn answer<T, F>(state: &AppState, server: String, read: F) -> ApiResult<Response>
where
    T: serde::Serialize + Send + 'static,
    F: FnOnce(&rusqlite::Transaction<'_>, &str, i64) -> Result<T, StoreError> + Send + 'static,
{
    let now = state.clock.now_unix();
    let answer = state.store.read(move |tx| read(tx, &server, now)).await?;
    let body = to_bytes(&answer)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("cannot serialize insights: {e}")))?;
    Ok(json_body(body))
}

fn json_body(body: axum::body::Bytes) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}
