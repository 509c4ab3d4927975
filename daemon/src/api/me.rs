//! `GET /me`: the calling key.

use axum::extract::State;
use modctl_types::Me;

use crate::AppState;
use crate::auth::ReadKey;
use crate::error::ApiResult;
use crate::response::Json;
use crate::store::{StoreError, servers, teams};

#[utoipa::path(
    get,
    path = "/me",
    tag = "keys",
    summary = "The calling key",
    description = "The key's team, scopes, expiry and how many servers its team has claimed.",
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The calling key.", body = Me)),
)]
pub async fn show(State(state): State<AppState>, key: ReadKey) -> ApiResult<Json<Me>> {
    // The key was read by authentication; only the team is read here.
    let record = key.caller.key;
    let team_id = record.team_id;
    let (team, server_count) = state
        .store
        .read(move |tx| {
            Ok::<_, StoreError>((
                teams::get(tx, team_id)?,
                servers::count_for_team(tx, team_id)?,
            ))
        })
        .await?;
    Ok(Json(Me {
        team,
        server_count,
        key_id: record.key_id.clone(),
        label: record.label.clone(),
        scopes: record.scope.expanded(),
        created_at: record.created_at,
        expires_at: record.expires_at,
    }))
}
