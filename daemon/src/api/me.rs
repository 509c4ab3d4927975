//! `GET /me`: the calling key; `GET /keys`: its team's keys (issue #28).

use axum::extract::State;
use modctl_types::Me;
use modctl_types::auth::{KeyInfo, KeyList};

use crate::AppState;
use crate::auth::ReadKey;
use crate::error::ApiResult;
use crate::response::Json;
use crate::store::keys as store_keys;

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
        name: record.name.clone(),
        scopes: record.scope.expanded(),
        created_at: record.created_at,
        expires_at: record.expires_at,
        plan_limits: *crate::plans::of(caller.team().plan),
    }))
}

#[utoipa::path(
    get,
    path = "/keys",
    tag = "keys",
    summary = "The team's keys",
    description = "Every key of the calling key's team, newest first, revoked and expired ones included: id, label, \
        scopes, when it was created, expires and was last used (kept to the minute), where it stands (`active`, \
        `rotating`: replaced and accepted until `expires_at`, `expired`, `revoked`, `suspended`), its replacement \
        once rotated, and which one made the request. Never a secret or a hash. Keys are issued, rotated and \
        revoked by an operator (`modctld key`).",
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The team's keys.", body = KeyList)),
)]
pub async fn keys(State(state): State<AppState>, key: ReadKey) -> ApiResult<Json<KeyList>> {
    let caller = key.caller;
    let team_id = caller.team_id();
    let current = caller.key_id().to_owned();
    let now = state.clock.now_unix();
    let records = state
        .store
        .read(move |tx| store_keys::list(tx, Some(team_id)))
        .await?;
    Ok(Json(KeyList {
        keys: records
            .into_iter()
            .map(|k| KeyInfo {
                status: k.status(now),
                current: k.key_id == current,
                scopes: k.scope.expanded(),
                key_id: k.key_id,
                label: k.label,
                name: k.name,
                created_at: k.created_at,
                expires_at: k.expires_at,
                last_used_at: k.last_used_at,
                replaced_by: k.replaced_by,
            })
            .collect(),
    }))
}
