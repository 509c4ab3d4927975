//! `GET /servers/{id}/onboarding`: the setup checklist (issue #13); the
//! items are computed by [`crate::onboarding`].

use axum::extract::State;
use modctl_types::onboarding::{Onboarding, OnboardingQuery};

use crate::AppState;
use crate::auth::ReadServer;
use crate::error::ApiResult;
use crate::extract::ApiQuery;
use crate::response::Json;

use super::openapi::ServerPath;

/// `GET /servers/{id}/onboarding[?refresh=true]`
#[utoipa::path(
    get,
    path = "/servers/{id}/onboarding",
    tag = "servers",
    summary = "The setup checklist",
    description = "What is set up on this server and what is still to do, computed from its live state: each item \
        has an `id`, a `title`, a `status` (`done`, `todo`, `warning`, `not_applicable`), what was found (`detail`) \
        and the command that fixes it (`fix`). The platform's answers are cached for 5 minutes (`cached`, \
        `checked_at`); `refresh=true` asks the platform now. A platform that cannot be reached makes the items that \
        need it `warning`s; the endpoint still answers 200.",
    params(ServerPath, OnboardingQuery),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The checklist.", body = Onboarding)),
)]
pub async fn show(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<OnboardingQuery>,
) -> ApiResult<Json<Onboarding>> {
    let checklist = crate::onboarding::checklist(
        &state.checklist(),
        &access.server,
        access.caller.team(),
        query.refresh,
    )
    .await?;
    Ok(Json(checklist))
}
