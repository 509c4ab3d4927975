//! `POST` and `GET /servers/{id}/structure-snapshot`: capture a server's
//! structure now, and read the snapshots kept (issue #10).

use axum::extract::State;
use axum::http::StatusCode;
use modctl_types::ErrorBody;
use modctl_types::snapshot::{
    Snapshot, SnapshotAnswer, SnapshotListing, SnapshotMeta, SnapshotQuery, SnapshotSource,
};

use crate::AppState;
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::response::Json;
use crate::snapshots;
use crate::store::StoreError;
use crate::store::snapshots as stored;

use super::openapi::ServerPath;

/// `POST /servers/{id}/structure-snapshot`
#[utoipa::path(
    post,
    path = "/servers/{id}/structure-snapshot",
    tag = "snapshots",
    summary = "Capture a structure snapshot",
    description = "Reads the server's roles, channels and settings from its platform now and records them as a new \
        snapshot (`source` `api`, `actor` `key:<key_id>`); answers its metadata. Content identical to an earlier \
        snapshot is recorded again with its own id and time but stored once. A server keeps as many snapshots as its \
        team's plan retains (1 on free, 30 on pro): this capture prunes the oldest beyond that. What a snapshot holds per platform is in `docs/api.md` (\"Structure snapshots\"). Takes no body.",
    params(ServerPath),
    security(("bearer" = ["write"])),
    responses(
        (status = 201, description = "The snapshot recorded.", body = SnapshotMeta),
        (status = 409, description = "The server is not connected to its platform.", body = ErrorBody),
        (status = 502, description = "The platform refused or failed (the message says what to do); nothing was recorded.", body = ErrorBody),
    ),
)]
pub async fn capture(
    State(state): State<AppState>,
    access: WriteServer,
) -> ApiResult<(StatusCode, Json<SnapshotMeta>)> {
    let meta = snapshots::capture(
        &state.snapshots(),
        &access.server,
        SnapshotSource::Api,
        access.caller.actor(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(meta)))
}

/// `GET /servers/{id}/structure-snapshot?id=N&content=true`
#[utoipa::path(
    get,
    path = "/servers/{id}/structure-snapshot",
    tag = "snapshots",
    summary = "Structure snapshots",
    description = "Without `id`: the latest snapshot and every one kept, newest first (`SnapshotListing`). With `id`: \
        that snapshot (`Snapshot`). With `content=true` the snapshot answered (the latest, or `id`) carries its content.",
    params(ServerPath, SnapshotQuery),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The listing, or the one snapshot asked for.", body = SnapshotAnswer),
        (status = 404, description = "No server with this id is claimed, it has no snapshot yet (capture one with \
            `POST`), or it has no snapshot with this `id`.", body = ErrorBody),
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<SnapshotQuery>,
) -> ApiResult<Json<SnapshotAnswer>> {
    let SnapshotQuery { id, content } = query;
    let server = access.server.id;
    let read_server = server.clone();
    let answer = state
        .store
        .read(move |tx| {
            let server = read_server;
            let with_content = |meta: SnapshotMeta| -> Result<Snapshot, StoreError> {
                let content = content
                    .then(|| stored::content(tx, &meta.content_hash))
                    .transpose()?;
                Ok(Snapshot { meta, content })
            };
            Ok::<_, StoreError>(match id {
                Some(id) => stored::get(tx, &server, id)?
                    .map(with_content)
                    .transpose()?
                    .map(SnapshotAnswer::One),
                None => {
                    let recent = stored::list(tx, &server)?;
                    match recent.first().cloned() {
                        Some(latest) => Some(SnapshotAnswer::Listing(SnapshotListing {
                            latest: with_content(latest)?,
                            recent,
                        })),
                        None => None,
                    }
                }
            })
        })
        .await?;
    answer.map(Json).ok_or_else(|| match id {
        Some(id) => ApiError::NotFound(format!(
            "server {server} has no structure snapshot {id}: list the ones kept with `GET /api/v1/servers/{server}/structure-snapshot`"
        ))
        .at("id"),
        None => ApiError::NotFound(format!(
            "server {server} has no structure snapshot yet: capture one with `POST /api/v1/servers/{server}/structure-snapshot`"
        )),
    })
}
