//! `GET /servers`: the servers claimed by the caller's team.

use axum::Json;
use axum::extract::State;
use modctl_types::{Server, ServerList};

use crate::AppState;
use crate::auth::{ReadKey, ReadServer};
use crate::error::ApiResult;
use crate::store::servers;

pub async fn list(State(state): State<AppState>, key: ReadKey) -> ApiResult<Json<ServerList>> {
    let team_id = key.caller.team_id;
    let servers = state
        .store
        .read(move |tx| servers::list_for_team(tx, team_id))
        .await?;
    Ok(Json(ServerList { servers }))
}

/// `GET /servers/{id}`: one claimed server (additive to the spec's table).
pub async fn show(access: ReadServer) -> ApiResult<Json<Server>> {
    Ok(Json(access.server))
}
