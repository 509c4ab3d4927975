//! `POST /servers/{id}/actions/{action}` and the reads of cases, strikes and jails.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use modctl_types::moderation::{
    Action, ActionRequest, ActionResponse, Case, CaseList, JailList, StrikeList,
};
use modctl_types::query::CaseQuery;

use crate::AppState;
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::moderation::{self, validate};
use crate::store::{cases, jails};

/// `POST /servers/{id}/actions/{action}`
pub async fn perform(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, action)): ApiPath<(String, String)>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ActionRequest>,
) -> ApiResult<Json<ActionResponse>> {
    let action: Action = action.parse().map_err(ApiError::BadRequest)?;
    let idempotency_key = headers
        .get("idempotency-key")
        // A header that is not even ASCII fails the same check as a bad one.
        .map(|v| validate::idempotency_key(v.to_str().unwrap_or_default()))
        .transpose()?;
    let call = moderation::ActionCall {
        server: access.server,
        key_id: access.caller.key_id.clone(),
        actor: access.caller.actor(),
        action,
        body,
        idempotency_key,
    };
    Ok(Json(moderation::perform(&state, call).await?))
}

/// `GET /servers/{id}/cases?limit=N&user_id=U&before=C`, newest first.
pub async fn list(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<CaseQuery>,
) -> ApiResult<Json<CaseList>> {
    let limit = query.page_size().map_err(ApiError::BadRequest)?;
    let id = access.server.id;
    let cases = state
        .store
        .read(move |tx| cases::list(tx, &id, query.user_id.as_deref(), query.before, limit))
        .await?;
    let next_before = (cases.len() == limit as usize)
        .then(|| cases.last().map(|c| c.id))
        .flatten();
    Ok(Json(CaseList { cases, next_before }))
}

/// `GET /servers/{id}/cases/{case_id}`
pub async fn show(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, case_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<Case>> {
    let not_found = || {
        ApiError::NotFound(format!(
            "case `{case_id}` not found on server {}",
            access.server.id
        ))
    };
    let Ok(number) = case_id.parse::<i64>() else {
        return Err(not_found());
    };
    let id = access.server.id.clone();
    let case = state
        .store
        .read(move |tx| cases::get(tx, &id, number))
        .await?;
    case.map(Json).ok_or_else(not_found)
}

/// `GET /servers/{id}/strikes`
pub async fn strikes(
    State(state): State<AppState>,
    access: ReadServer,
) -> ApiResult<Json<StrikeList>> {
    let id = access.server.id;
    let now = state.clock.now_unix();
    let strikes = state
        .store
        .read(move |tx| cases::strike_summaries(tx, &id, now))
        .await?;
    Ok(Json(StrikeList { strikes }))
}

/// `GET /servers/{id}/jails`
pub async fn jails(State(state): State<AppState>, access: ReadServer) -> ApiResult<Json<JailList>> {
    let id = access.server.id;
    let jails = state.store.read(move |tx| jails::list(tx, &id)).await?;
    Ok(Json(JailList { jails }))
}
