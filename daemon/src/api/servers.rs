//! `GET /servers`: the servers claimed by the caller's team.

use axum::extract::State;
use modctl_types::{Server, ServerList};

use crate::AppState;
use crate::auth::{ReadKey, ReadServer};
use crate::error::ApiResult;
use crate::response::Json;
use crate::store::servers;

use super::openapi::ServerPath;

/// `GET /servers`
#[utoipa::path(
    get,
    path = "/servers",
    tag = "servers",
    summary = "The team's servers",
    description = "The servers claimed by the key's team, ordered by id.",
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The servers.", body = ServerList)),
)]
pub async fn list(State(state): State<AppState>, key: ReadKey) -> ApiResult<Json<ServerList>> {
    let team_id = key.caller.team_id();
    let servers = state
        .store
        .read(move |tx| servers::list_for_team(tx, team_id))
        .await?;
    Ok(Json(ServerList { servers }))
}

/// `GET /servers/{id}`: one claimed server (additive to the spec's table).
#[utoipa::path(
    get,
    path = "/servers/{id}",
    tag = "servers",
    summary = "One server",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The server.", body = Server)),
)]
pub async fn show(access: ReadServer) -> ApiResult<Json<Server>> {
    Ok(Json(access.server))
}
