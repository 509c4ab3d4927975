//! `GET /me`: the calling key.

use axum::extract::State;
use modctl_types::Me;

use crate::AppState;
use crate::auth::ReadKey;
use crate::error::{ApiError, ApiResult};
use crate::response::Json;
use crate::store::{keys, servers, teams};

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
    let caller = key.caller;
    let me = state
        .store
        .read(move |tx| {
            let record = keys::find_with_hash(tx, &caller.key_id)?
                .ok_or_else(|| ApiError::Unauthorized("invalid API key".into()))?
                .record;
            let team = teams::get(tx, record.team_id)?;
            Ok::<_, ApiError>(Me {
                server_count: servers::count_for_team(tx, caller.team_id)?,
                team,
                key_id: record.key_id,
                label: record.label,
                scopes: record.scope.expanded(),
                created_at: record.created_at,
                expires_at: record.expires_at,
            })
        })
        .await?;
    Ok(Json(me))
}
