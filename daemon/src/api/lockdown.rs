//! `/servers/{id}/lockdown` (issue #26): starting a raid lockdown by hand,
//! ending one, and what runs. The lockdown itself is
//! [`crate::automation::lockdown`].

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use modctl_types::ErrorBody;
use modctl_types::lockdown::{Lockdown, LockdownStatus, MAX_MINUTES, StartLockdown};

use crate::AppState;
use crate::auth::{ReadServer, WriteServer};
use crate::automation::lockdown::{self, LockdownError, Started};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::response::Json;
use crate::store::{config, lockdowns};

use super::openapi::ServerPath;

/// The longest reason, as for cases.
pub const MAX_REASON_CHARS: usize = 512;

impl From<LockdownError> for ApiError {
    fn from(e: LockdownError) -> Self {
        match e {
            LockdownError::Store(e) => e.into(),
        }
    }
}

/// `POST /servers/{id}/lockdown`
#[utoipa::path(
    post,
    path = "/servers/{id}/lockdown",
    tag = "lockdown",
    summary = "Start a raid lockdown",
    description = "Starts a raid lockdown now, for `minutes` (1 to 1440; left out: `antinuke.lockdown_minutes`), \
        whatever the antinuke config says. Discord: invites are paused until its end (guild incident actions) and \
        members who join meanwhile are timed out until then; Telegram: the primary invite link is replaced (the old \
        one revoked) and members who join are restricted until its end; Slack: an alert in the log only. Its start \
        is logged to `logging.moderation` (else the mod-log) and sent as a `lockdown_started` webhook event. \
        It ends by itself, or with `DELETE`. One runs at a time: while one runs this is refused (409) and changes \
        nothing; end it first to start a longer one.",
    params(ServerPath),
    request_body = StartLockdown,
    security(("bearer" = ["write"])),
    responses(
        (status = 201, description = "The lockdown started; `start_outcome` says what the platform did.", body = Lockdown),
        (status = 400, description = "`minutes` or `reason` is out of range: the error names it.", body = ErrorBody),
        (status = 409, description = "A lockdown already runs on the server: the message says until when.", body = ErrorBody),
    ),
)]
pub async fn start(
    State(state): State<AppState>,
    access: WriteServer,
    ApiJson(body): ApiJson<serde_json::Map<String, serde_json::Value>>,
) -> ApiResult<impl IntoResponse> {
    // Read as an object first: every field of the body is optional, and
    // serde's derive would also take an array (`[null, null]`) for it.
    let body: StartLockdown = serde_path_to_error::deserialize(serde_json::Value::Object(body))
        .map_err(|e| {
            let field = e.path().to_string();
            ApiError::invalid(&field, format!("{field}: {}", e.inner()))
        })?;
    if let Some(minutes) = body.minutes
        && !(1..=MAX_MINUTES).contains(&minutes)
    {
        return Err(ApiError::invalid(
            "minutes",
            format!("minutes must be 1 to {MAX_MINUTES} (a day), got {minutes}"),
        ));
    }
    if let Some(reason) = &body.reason
        && reason.chars().count() > MAX_REASON_CHARS
    {
        return Err(ApiError::invalid(
            "reason",
            format!("reason must be at most {MAX_REASON_CHARS} characters"),
        ));
    }
    let server = access.server;
    let minutes = match body.minutes {
        Some(minutes) => minutes,
        None => {
            let id = server.id.clone();
            state
                .store
                .read(move |tx| config::load(tx, &id))
                .await?
                .sections
                .antinuke
                .lockdown_minutes
        }
    };
    let actor = access.caller.actor();
    let why = body
        .reason
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| format!("started by hand by {actor}"));
    match lockdown::start(&state.lockdowns(), &server.id, minutes, &actor, why).await? {
        Started::Started(lockdown) => Ok((StatusCode::CREATED, Json(lockdown))),
        Started::AlreadyRunning(running) => Err(ApiError::LockdownRunning(format!(
            "a lockdown already runs on server {} until {} (started by {}): end it first to start another",
            server.id, running.ends_at, running.started_by
        ))),
    }
}

/// `DELETE /servers/{id}/lockdown`
#[utoipa::path(
    delete,
    path = "/servers/{id}/lockdown",
    tag = "lockdown",
    summary = "End the running raid lockdown",
    description = "Ends the server's running lockdown now, whoever started it: Discord's invites are enabled again \
        (members timed out or restricted during it stay so until its \
        planned end: a raid's accounts are held, not released early); the end is logged and sent as a `lockdown_ended` webhook event.",
    params(ServerPath),
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The lockdown, ended; `end_outcome` says what the platform did.", body = Lockdown),
        (status = 404, description = "No lockdown runs on the server.", body = ErrorBody),
    ),
)]
pub async fn end(State(state): State<AppState>, access: WriteServer) -> ApiResult<Json<Lockdown>> {
    let server = access.server;
    let cx = state.lockdowns();
    let id = server.id.clone();
    let running = state
        .store
        .read(move |tx| lockdowns::running(tx, &id))
        .await?;
    let not_running = || ApiError::NoLockdown(format!("no lockdown runs on server {}", server.id));
    let running = running.ok_or_else(not_running)?;
    let ended = lockdown::end(&cx, &server.id, &running, &access.caller.actor()).await?;
    ended.map(Json).ok_or_else(not_running)
}

/// `GET /servers/{id}/lockdown`
#[utoipa::path(
    get,
    path = "/servers/{id}/lockdown",
    tag = "lockdown",
    summary = "The running raid lockdown",
    description = "The server's running lockdown (`current`, `null` when none runs) and the last one that ended.",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The running and the last lockdown.", body = LockdownStatus),
    ),
)]
pub async fn status(
    State(state): State<AppState>,
    access: ReadServer,
) -> ApiResult<Json<LockdownStatus>> {
    let id = access.server.id;
    let status = state
        .store
        .read(move |tx| {
            Ok::<_, crate::store::StoreError>(LockdownStatus {
                current: lockdowns::running(tx, &id)?,
                last: lockdowns::last_ended(tx, &id)?,
            })
        })
        .await?;
    Ok(Json(status))
}
