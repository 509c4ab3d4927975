//! Corrections of cases (issue #27): `PATCH /servers/{id}/cases/{case_id}`
//! edits a case's reason, `POST /servers/{id}/cases/{case_id}/void` voids a
//! case, `POST /servers/{id}/members/{user_id}/strikes/clear` clears a
//! member's strikes. Each needs `write`, records who did it, when and why
//! in the case's audit trail, and changes nothing when refused. None undoes
//! what the platform did (a voided ban stays a ban: unban for that).

use axum::extract::State;
use modctl_types::ErrorBody;
use modctl_types::config::WebhookEvent;
use modctl_types::moderation::{
    Case, CaseCorrected, CaseEditRequest, CorrectionRequest, StrikesCleared,
};

use super::actions::case_number;
use super::openapi::ServerPath;
use crate::AppState;
use crate::auth::WriteServer;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::moderation::corrections::check_reason;
use crate::response::Json;
use crate::store::{StoreError, Tx, cases};
use crate::webhooks::enqueue;

/// Writes the `case_corrected` event of the case's latest correction, in
/// the correction's own transaction, when the server's webhooks want it.
fn case_event(tx: &Tx<'_>, server_id: &str, case: &Case, now: i64) -> Result<(), StoreError> {
    let Some(correction) = case.corrections.last() else {
        return Ok(());
    };
    let data = CaseCorrected {
        user_id: case.user_id.clone(),
        correction: correction.clone(),
        case: Some(case.clone()),
    };
    enqueue(tx, server_id, WebhookEvent::CaseCorrected, &data, now)?;
    Ok(())
}

/// `PATCH /servers/{id}/cases/{case_id}`
#[utoipa::path(
    patch,
    path = "/servers/{id}/cases/{case_id}",
    tag = "moderation",
    summary = "Edit a case's reason",
    description = "Replaces the case's reason. The old reason is kept in the case's `corrections` (an `edit`, with \
        `old_reason`, who and when). The reason the case has already changes and records nothing (a retry is safe). \
        A voided case, or one still pending, is not edited (409).",
    params(
        ServerPath,
        ("case_id" = i64, Path, minimum = 1, description = "The case's number on this server."),
    ),
    request_body = CaseEditRequest,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The case as edited, with its corrections.", body = Case),
        (status = 400, description = "The reason is empty or longer than 512 characters, or `case_id` is not a case number.", body = ErrorBody),
        (status = 404, description = "No server with this id is claimed, or it has no such case.", body = ErrorBody),
        (status = 409, description = "The case is voided or still pending.", body = ErrorBody),
    ),
)]
pub async fn edit(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, case_id)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<CaseEditRequest>,
) -> ApiResult<Json<Case>> {
    correct_case(
        &state,
        &access,
        &case_id,
        &body.reason,
        |tx, id, number, reason, actor, now| {
            // Editing to the reason the case has records nothing, so it
            // sends nothing either.
            let (case, edited) = cases::edit_reason(tx, id, number, reason, actor, now)?;
            Ok((case, edited))
        },
    )
    .await
}

/// `POST /servers/{id}/cases/{case_id}/void`
#[utoipa::path(
    post,
    path = "/servers/{id}/cases/{case_id}/void",
    tag = "moderation",
    summary = "Void a case",
    description = "Marks the case voided (`voided`: who, when, why); its strikes stop counting, in the member's \
        active strikes and for the strike ladder's next step. The case stays listed, and what the platform did is \
        not undone (a voided ban stays in force: unban for that). An escalation the case triggered is a case of its \
        own, voided separately if it should be.",
    params(
        ServerPath,
        ("case_id" = i64, Path, minimum = 1, description = "The case's number on this server."),
    ),
    request_body = CorrectionRequest,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The case as voided, with its corrections (the void's `strikes`: how many stopped counting).", body = Case),
        (status = 400, description = "The reason is empty or longer than 512 characters, or `case_id` is not a case number.", body = ErrorBody),
        (status = 404, description = "No server with this id is claimed, or it has no such case.", body = ErrorBody),
        (status = 409, description = "The case is voided already, or still pending.", body = ErrorBody),
    ),
)]
pub async fn void(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, case_id)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<CorrectionRequest>,
) -> ApiResult<Json<Case>> {
    correct_case(
        &state,
        &access,
        &case_id,
        &body.reason,
        |tx, id, number, reason, actor, now| {
            Ok((cases::void(tx, id, number, reason, actor, now)?, true))
        },
    )
    .await
}

/// A correction of one case, `correct` being the store's: the case number
/// and reason checked, the correction and its `case_corrected` event (when
/// `correct` says it recorded one) written in one transaction, and the case
/// answered with its names.
async fn correct_case<F>(
    state: &AppState,
    access: &WriteServer,
    case_id: &str,
    reason: &str,
    correct: F,
) -> ApiResult<Json<Case>>
where
    F: FnOnce(&Tx<'_>, &str, i64, &str, &str, i64) -> Result<(Case, bool), StoreError>
        + Send
        + 'static,
{
    let number = case_number(case_id)?;
    let reason = check_reason("reason", reason)?;
    let (id, actor, now) = (
        access.server.id.clone(),
        access.caller.actor(),
        state.clock.now_unix(),
    );
    let mut case = state
        .store
        .write(move |tx| {
            let (case, recorded) = correct(tx, &id, number, &reason, &actor, now)?;
            if recorded {
                case_event(tx, &id, &case, now)?;
            }
            Ok::<_, StoreError>(case)
        })
        .await?;
    state
        .names
        .name_cases(&access.server.id, std::slice::from_mut(&mut case));
    Ok(Json(case))
}

/// `POST /servers/{id}/members/{user_id}/strikes/clear`
#[utoipa::path(
    post,
    path = "/servers/{id}/members/{user_id}/strikes/clear",
    tag = "moderation",
    summary = "Clear a member's strikes",
    description = "A pardon: the member's active strikes stop counting (the strike ladder starts again from 0), stay \
        in their `total`, and the clear is recorded with who, when and why (`last_cleared` of `GET /strikes`). \
        Their cases are left as they are.",
    params(
        ServerPath,
        ("user_id" = String, Path, description = "The member's platform user id."),
    ),
    request_body = CorrectionRequest,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The clear recorded.", body = StrikesCleared),
        (status = 400, description = "The reason is empty or longer than 512 characters, or `user_id` is not a user id of the server's platform.", body = ErrorBody),
        (status = 404, description = "No server with this id is claimed.", body = ErrorBody),
        (status = 409, description = "The member has no active strikes: nothing to clear.", body = ErrorBody),
    ),
)]
pub async fn clear_strikes(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, user_id)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<CorrectionRequest>,
) -> ApiResult<Json<StrikesCleared>> {
    access
        .server
        .platform
        .validate_user_id(&user_id)
        .map_err(|e| ApiError::invalid("{user_id}", format!("user id: {e}")))?;
    let reason = check_reason("reason", &body.reason)?;
    let (id, actor, now) = (
        access.server.id,
        access.caller.actor(),
        state.clock.now_unix(),
    );
    let user = user_id.clone();
    let correction = state
        .store
        .write(move |tx| {
            let correction = cases::clear_strikes(tx, &id, &user, &reason, &actor, now)?;
            let data = CaseCorrected {
                user_id: user.clone(),
                correction: correction.clone(),
                case: None,
            };
            enqueue(tx, &id, WebhookEvent::CaseCorrected, &data, now)?;
            Ok::<_, StoreError>(correction)
        })
        .await?;
    Ok(Json(StrikesCleared {
        user_id,
        active_strikes: 0,
        correction,
    }))
}
