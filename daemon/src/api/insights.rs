//! `/servers/{id}/activity`, `/insights` and `/community-insights` (issue
//! #12): batch ingestion of community activity, and the two insights read
//! from the rollups ([`crate::activity`], [`crate::store::case_rollup`]).

use std::sync::Arc;

use axum::extract::{Request, State};
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
use crate::activity::budget::{self, Refused};
use crate::activity::{ActivityEvent, MAX_FUTURE_SECONDS, insights};
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{self, ApiQuery, MAX_BATCH_BODY_BYTES};
use crate::response::{Json, to_bytes};
use crate::store::StoreError;
use crate::store::Tx;
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
        events are stored durably when the answer is sent. The body may be up to 4 MiB. The daemon holds at most \
        24 MiB of batches at once by default (a team: 4 MiB less), counted by `Content-Length` from before the body \
        is read until the batch is written; a batch that finds no room within 2 s is refused with `Retry-After`, \
        having changed nothing: 429 when its team's share is full, 503 when the daemon's budget is.",
    params(ServerPath),
    request_body = ActivityBatch,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "What was counted.", body = BatchReceipt),
        (status = 413, description = "The request body is larger than 4 MiB.", body = ErrorBody),
        (status = 429, description = "Too many requests for the key's plan, too many failed authentications from this address, or the team's batches in flight fill its share of the daemon's memory for batches (nothing was counted); `Retry-After` says when to retry.", body = ErrorBody),
        (status = 503, description = "The batches in flight fill the daemon's memory for batches; nothing was counted: post it again after `Retry-After`.", body = ErrorBody),
    ),
)]
pub async fn ingest(
    State(state): State<AppState>,
    access: WriteServer,
    request: Request,
) -> ApiResult<Json<BatchReceipt>> {
    let server = access.server.id;
    let team_id = access.caller.team_id();
    extract::require_json(request.headers())?;
    // The share of the memory budget is taken before the body is read (see
    // `activity::budget`), sized by what the body says it is.
    let declared = extract::declared_length(request.headers());
    if declared.is_some_and(|length| length > MAX_BATCH_BODY_BYTES) {
        return Err(extract::too_large(MAX_BATCH_BODY_BYTES));
    }
    let budget = &state.activity_budget;
    let permit = match budget
        .admit(team_id, declared.unwrap_or(MAX_BATCH_BODY_BYTES))
        .await
    {
        Ok(permit) => permit,
        Err(refused) => {
            extract::discard_body(request.into_body(), MAX_BATCH_BODY_BYTES).await;
            return Err(refusal(refused));
        }
    };
    // The body's bytes are dropped once parsed.
    let batch: ActivityBatch = extract::read_json(request, MAX_BATCH_BODY_BYTES).await?;
    let now = state.clock.now_unix();
    let events = validate(&server, batch, now)?;
    let batch = Batch {
        team_id,
        server_id: server,
        events,
        now,
        permit: Some(permit),
    };
    let done = batches::post(
        &state.activity_batches,
        &state.store,
        &state.in_flight,
        batch,
    )
    .await?;
    Ok(Json(BatchReceipt {
        counted: done.counted as u64,
        duplicates: done.duplicates as u64,
    }))
}

/// The answer to a batch the memory budget did not let in.
fn refusal(refused: Refused) -> ApiError {
    let retry_after = budget::RETRY_AFTER_SECONDS;
    match refused {
        Refused::Busy { total_bytes } => ApiError::RetryLater {
            message: format!(
                "the daemon is holding all the activity batches it takes at once ({}): \
                 nothing of this batch was counted; post it again after {retry_after} s",
                size(total_bytes)
            ),
            retry_after,
        },
        Refused::TeamShare { team_bytes } => ApiError::TooManyRequests {
            message: format!(
                "your team's activity batches in flight fill its share of the daemon's memory ({}): \
                 nothing of this batch was counted; post it again after {retry_after} s, \
                 or send fewer batches at once",
                size(team_bytes)
            ),
            retry_after,
        },
    }
}

/// `bytes` for a message: whole MiB as such, anything else in bytes.
fn size(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// Checks every event of `batch` (received at `now`) and turns them into
/// [`ActivityEvent`]s, or names the first bad one.
fn validate(server: &str, batch: ActivityBatch, now: i64) -> Result<Vec<ActivityEvent>, ApiError> {
    let count = batch.events.len();
    if !(1..=MAX_BATCH_EVENTS).contains(&count) {
        return Err(ApiError::invalid(
            "events",
            format!("events must hold 1 to {MAX_BATCH_EVENTS} events, got {count}"),
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
            check(&event, oldest, now).map_err(|(field, why)| {
                ApiError::invalid(
                    format!("events[{i}].{field}"),
                    format!("events[{i}] (id `{}`): {why}", event.id),
                )
            })?;
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

/// `Err` names the event's field that is wrong, and why.
fn check(event: &BatchEvent, oldest: i64, now: i64) -> Result<(), (&'static str, String)> {
    if event.id.is_empty() || event.id.len() > MAX_EVENT_ID_BYTES {
        return Err(("id", format!("id must be 1 to {MAX_EVENT_ID_BYTES} bytes")));
    }
    if event.user_id.is_empty() || event.user_id.len() > MAX_ID_BYTES {
        return Err((
            "user_id",
            format!("user_id must be 1 to {MAX_ID_BYTES} bytes"),
        ));
    }
    let needs_channel = matches!(event.kind, ActivityKind::Message | ActivityKind::Voice);
    match &event.channel_id {
        None if needs_channel => {
            return Err((
                "channel_id",
                format!("a {} event needs a channel_id", event.kind.as_str()),
            ));
        }
        Some(c) if c.is_empty() || c.len() > MAX_ID_BYTES => {
            return Err((
                "channel_id",
                format!("channel_id must be 1 to {MAX_ID_BYTES} bytes"),
            ));
        }
        _ => {}
    }
    match (event.kind, event.minutes) {
        (ActivityKind::Voice, Some(m)) if (1..=MAX_VOICE_MINUTES).contains(&m) => {}
        (ActivityKind::Voice, _) => {
            return Err((
                "minutes",
                format!("a voice event needs minutes from 1 to {MAX_VOICE_MINUTES}"),
            ));
        }
        (kind, Some(_)) => {
            return Err((
                "minutes",
                format!("minutes is only for voice events, not {}", kind.as_str()),
            ));
        }
        _ => {}
    }
    let at = event.at.as_second();
    if at < oldest {
        return Err((
            "at",
            format!(
                "at {} is older than the retention window of {RETENTION_DAYS} days",
                event.at
            ),
        ));
    }
    if at > now + MAX_FUTURE_SECONDS {
        return Err((
            "at",
            format!(
                "at {} is more than {} minutes in the future",
                event.at,
                MAX_FUTURE_SECONDS / 60
            ),
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
    let names = state.names.clone();
    answer(&state, access.server.id, move |tx, id, now| {
        let mut answer = insights::moderation(tx, id, days, now)?;
        names.name_moderation(id, &mut answer);
        Ok(answer)
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
    let names = state.names.clone();
    answer(&state, access.server.id, move |tx, id, now| {
        let mut answer = insights::community(tx, id, days, now)?;
        names.name_community(id, &mut answer);
        Ok(answer)
    })
    .await
}

/// The window both insights read: `days` as given (or the default), within
/// what the team's plan allows.
fn window_days(access: &ReadServer, query: &InsightsQuery) -> ApiResult<u32> {
    let days = query.days().map_err(|e| ApiError::invalid("days", e))?;
    crate::plans::check_days(access.caller.team(), u64::from(days))?;
    Ok(days)
}

/// Computes an answer with `read` in one read transaction. Nothing is
/// kept: read from the rollups and the ranking totals, a year costs well
/// under a millisecond (see "Cost" in `docs/api.md`).
async fn answer<T, F>(state: &AppState, server: String, read: F) -> ApiResult<Response>
where
    T: serde::Serialize + Send + 'static,
    F: FnOnce(&Tx<'_>, &str, i64) -> Result<T, StoreError> + Send + 'static,
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
