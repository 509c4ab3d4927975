//! `POST /servers/{id}/structure-snapshot/restore` (the plan, or a restore
//! job) and `GET /servers/{id}/structure-snapshot/restore/{job_id}` (the
//! job's progress and report), issue #10.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, State};
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use modctl_types::ErrorBody;
use modctl_types::restore::{RestoreJob, RestorePlan, RestoreQuery, RestoreRequest};

use crate::AppState;
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::response::Json;
use crate::restore::job::{self, RestoreError};
use crate::store::restore as stored;

use super::openapi::ServerPath;

impl From<RestoreError> for ApiError {
    fn from(err: RestoreError) -> Self {
        match err {
            RestoreError::NoSnapshot { message, asked } => {
                let error = ApiError::NotFound(message);
                if asked {
                    error.at("snapshot_id")
                } else {
                    error
                }
            }
            e @ RestoreError::NotConnected(_) => ApiError::Conflict(e.to_string()),
            e @ RestoreError::Busy { .. } => ApiError::JobRunning(e.to_string()),
            e @ RestoreError::Platform { .. } => ApiError::BadGateway(e.to_string()),
            e @ RestoreError::Plan(_) => ApiError::Conflict(e.to_string()),
            RestoreError::Store(e) => e.into(),
        }
    }
}

/// The optional body: none (or an empty one) is the default request.
async fn optional_body(headers: &HeaderMap, body: Bytes) -> ApiResult<RestoreRequest> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(RestoreRequest::default());
    }
    // Through the API's JSON extractor, so the body gets the same checks
    // (content type, duplicate keys, unknown fields) as every other.
    let mut request = Request::new(Body::from(body));
    if let Some(kind) = headers.get(header::CONTENT_TYPE) {
        request
            .headers_mut()
            .insert(header::CONTENT_TYPE, kind.clone());
    }
    let ApiJson(request) = ApiJson::<RestoreRequest>::from_request(request, &()).await?;
    Ok(request)
}

/// `POST /servers/{id}/structure-snapshot/restore?dry_run=true`
#[utoipa::path(
    post,
    path = "/servers/{id}/structure-snapshot/restore",
    tag = "snapshots",
    summary = "Restore a structure snapshot",
    description = "Restores what the latest snapshot (or body `snapshot_id`) has and the server lacks: roles, then \
        categories, channels and the permission overwrites of the channels it creates (remapped to the new ids), \
        Slack channels and user groups, Telegram's title, description and default permissions. Nothing on the server \
        is deleted or edited. An item is present when its id exists, else when an earlier restore created it and its \
        new id exists, else when an item of the same kind, name and parent exists. With `dry_run=true`: answers the \
        plan (200) and changes nothing. Otherwise: answers the accepted job (202, `Location` is where to follow it), \
        which a background worker carries out and resumes after a restart; an item the platform refuses is \
        reported and the job goes on. The body is optional.",
    params(ServerPath, RestoreQuery),
    request_body(content = Option<RestoreRequest>, description = "Optional: the snapshot to restore from."),
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "Dry run: the plan; nothing changed.", body = RestorePlan),
        (status = 202, description = "The job, queued.", body = RestoreJob, headers(("Location" = String, description = "The job's URL."))),
        (status = 404, description = "No server with this id is claimed, it has no snapshot, or none with `snapshot_id`.", body = ErrorBody),
        (status = 409, description = "The server is not connected to its platform, a restore job of it is still running, or the snapshot is of another platform.", body = ErrorBody),
        (status = 502, description = "The platform refused or failed while its structure was read; nothing changed.", body = ErrorBody),
    ),
)]
pub async fn restore(
    State(state): State<AppState>,
    access: WriteServer,
    ApiQuery(query): ApiQuery<RestoreQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let request = optional_body(&headers, body).await?;
    if query.dry_run {
        let plan = job::dry_run(&state.restore(), &access.server, request.snapshot_id).await?;
        return Ok(Json(plan).into_response());
    }
    let job = job::start(
        &state.restore(),
        &access.server,
        request.snapshot_id,
        access.caller.actor(),
    )
    .await?;
    let location = format!(
        "/api/v1/servers/{}/structure-snapshot/restore/{}",
        job.server_id, job.id
    );
    Ok((
        StatusCode::ACCEPTED,
        [(header::LOCATION, location)],
        Json(job),
    )
        .into_response())
}

/// `GET /servers/{id}/structure-snapshot/restore/{job_id}`
#[utoipa::path(
    get,
    path = "/servers/{id}/structure-snapshot/restore/{job_id}",
    tag = "snapshots",
    summary = "A restore job",
    description = "The job's state, its progress per kind (done, failed, skipped, remaining) and every item with \
        its outcome: the report.",
    params(ServerPath, ("job_id" = i64, Path, description = "The job's id, as the restore answered it.")),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The job.", body = RestoreJob),
        (status = 404, description = "No server with this id is claimed, or it has no restore job with this id.", body = ErrorBody),
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, job_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<RestoreJob>> {
    let server = access.server.id;
    let unknown = || {
        ApiError::NotFound(format!(
            "server {server} has no restore job `{job_id}`: the job id is the `id` the restore answered"
        ))
        .at("{job_id}")
    };
    let id: i64 = job_id.parse().map_err(|_| unknown())?;
    let read_server = server.clone();
    let job = state
        .store
        .read(move |tx| stored::get(tx, &read_server, id))
        .await?;
    job.map(Json).ok_or_else(unknown)
}
