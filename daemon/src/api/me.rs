//! `GET /me`: the calling key.

use modctl_types::Me;

use crate::auth::ReadKey;
use crate::error::ApiResult;
use crate::response::Json;

#[utoipa::path(
    get,
    path = "/me",
    tag = "keys",
    summary = "The calling key",
    description = "The key's team, scopes, expiry, how many servers its team has claimed and what its plan allows.",
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The calling key.", body = Me)),
)]
pub async fn show(key: ReadKey) -> ApiResult<Json<Me>> {
    // Authentication read (or validated) all of it: no trip of its own.
    let caller = key.caller;
    let record = caller.key();
    Ok(Json(Me {
        team: caller.team().clone(),
        server_count: caller.team_server_count(),
        key_id: record.key_id.clone(),
        label: record.label.clone(),
        scopes: record.scope.expanded(),
        created_at: record.created_at,
        expires_at: record.expires_at,
        plan_limits: *crate::plans::of(caller.team().plan),
    }))
}
