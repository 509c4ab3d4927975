//! `POST /servers/{id}/actions/{action}` and the reads of cases, strikes and jails.

use axum::extract::State;
use axum::http::HeaderMap;
use modctl_types::ErrorBody;
use modctl_types::moderation::{
    Action, ActionPreview, ActionRequest, ActionResponse, Case, CaseList, JailList, KnownMembers,
    MemberInfo, StrikeList,
};
use modctl_types::query::CaseQuery;

use crate::AppState;
use crate::auth::{ReadServer, WriteServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::moderation::{self, validate};
use crate::response::Json;
use crate::store::{cases, jails};

use super::openapi::ServerPath;

/// `POST /servers/{id}/actions/{action}`
#[utoipa::path(
    post,
    path = "/servers/{id}/actions/{action}",
    tag = "moderation",
    summary = "Perform a moderation action",
    description = "Records a case and carries the action out on the platform. What each action does on each platform, \
        and which fields it uses, is in `docs/api.md` (\"Behaviour by platform\", \"Body fields per action\"). The case is recorded even when the \
        platform refuses (`applied: false`, `detail` says why). With an `Idempotency-Key`, a retry answers the first \
        response again instead of acting twice.",
    params(
        ServerPath,
        ("action" = Action, Path, description = "The action."),
        ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes retries safe: 1 to 255 visible ASCII characters, e.g. a UUID. \
            A retry with the same key and body answers the first response; with another body, 409."),
        ("dry_run" = Option<bool>, Query, description = "`true`: check the action and answer what it would do (an `ActionPreview`: the platform call, \
            the DM, the strikes and the ladder step it would reach) without recording a case or calling the platform. \
            Refused exactly as the action would be (400, 409). An `Idempotency-Key` is ignored."),
    ),
    request_body = ActionRequest,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The case recorded, and whether the platform applied the action; with `dry_run=true`, what it would do.", body = ActionAnswer),
        (status = 409, description = "The Idempotency-Key was used with another body, or an earlier action on this member \
            is still being carried out or settled; retry later.", body = ErrorBody),
    ),
)]
pub async fn perform(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, action)): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ActionQuery>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ActionRequest>,
) -> ApiResult<Json<ActionAnswer>> {
    let action: Action = action
        .parse()
        .map_err(|e| ApiError::invalid("{action}", e))?;
    if query.dry_run {
        let preview =
            moderation::preview::preview(&state.store, &state.clock, access.server, action, body)
                .await?;
        return Ok(Json(ActionAnswer::Preview(preview)));
    }
    let idempotency_key = headers
        .get("idempotency-key")
        // A header that is not even ASCII fails the same check as a bad one.
        .map(|v| validate::idempotency_key(v.to_str().unwrap_or_default()))
        .transpose()?;
    let (server_id, key_id) = (access.server.id.clone(), access.caller.key_id().to_owned());
    let call = moderation::ActionCall {
        server: access.server,
        key_id: key_id.clone(),
        actor: access.caller.actor(),
        action,
        body,
        idempotency_key,
        source: modctl_types::moderation::CaseSource::Api,
        with_case: None,
    };
    // Antinuke (issue #26): a key's bans and kicks carried out count against
    // the server's `antinuke.max_bans_per_minute`; the one above it suspends
    // the key (this answer still goes out: its ban is done). The count runs
    // in the same tracked task as the action, not after this handler's
    // await: a client that drops its request does not stop the ban (see
    // `moderation::perform`), so it must not stop the count either, or a
    // key would escape suspension by hanging up on every request.
    let cx = state.moderation();
    let antinuke = state.antinuke.get().cloned();
    let response = cx
        .in_flight
        .clone()
        .spawn(async move {
            let response = moderation::perform(&cx, call).await?;
            if matches!(action, Action::Ban | Action::Kick)
                && response.applied
                && let Some(antinuke) = antinuke
            {
                antinuke
                    .count_key_action(&server_id, &key_id, response.case_id)
                    .await;
            }
            Ok::<_, moderation::ModerationError>(response)
        })
        .await
        .map_err(|e| moderation::ModerationError::Task(e.to_string()))??;
    Ok(Json(ActionAnswer::Done(response)))
}

/// The query of `POST /servers/{id}/actions/{action}`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct ActionQuery {
    /// Answer what the action would do, doing nothing.
    #[serde(default)]
    dry_run: bool,
}

/// What `POST /servers/{id}/actions/{action}` answers: the settled case's
/// response, or with `dry_run=true` the preview. Untagged: each is the
/// object it always was.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum ActionAnswer {
    /// The action was carried out.
    Done(ActionResponse),
    /// `dry_run=true`: what it would do.
    Preview(ActionPreview),
}

/// `GET /servers/{id}/cases?limit=N&user_id=U&action=A&actor=K&applied=B&since=T&until=T&before=C`,
/// newest first.
#[utoipa::path(
    get,
    path = "/servers/{id}/cases",
    tag = "moderation",
    summary = "Recent cases",
    description = "Cases, newest first, a page at a time: pass `next_before` as `before` for the next page. \
        The filters combine (all must hold); `since` and `until` select by the time a case was recorded.",
    params(ServerPath, CaseQuery),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "A page of cases.", body = CaseList)),
)]
pub async fn list(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<CaseQuery>,
) -> ApiResult<Json<CaseList>> {
    let limit = query
        .page_size()
        .map_err(|e| ApiError::invalid("limit", e))?;
    if let (Some(since), Some(until)) = (query.since, query.until)
        && since >= until
    {
        return Err(ApiError::invalid(
            "since",
            format!("since ({since}) must be before until ({until})"),
        ));
    }
    let id = access.server.id.clone();
    let team_id = access.caller.team_id();
    let cases = state
        .store
        .read(move |tx| {
            let actors = match query.actor.as_deref() {
                Some(actor) => Some(actors_matching(tx, team_id, actor)?),
                None => None,
            };
            let filter = cases::Filter {
                user_id: query.user_id.as_deref(),
                actor: None,
                action: query.action,
                applied: query.applied,
                since: query.since.map(|t| t.as_second()),
                until: query.until.map(|t| t.as_second()),
                before: query.before,
            };
            let Some(actors) = actors else {
                return Ok::<_, ApiError>(cases::list(tx, &id, &filter, limit)?);
            };
            // One indexed walk per actor (a person's keys, after a
            // rotation), merged newest first: each walk is bounded by the
            // page, so the cost stays the page's times the keys'.
            let mut merged = Vec::new();
            for actor in &actors {
                let one = cases::Filter {
                    actor: Some(actor),
                    ..filter.clone()
                };
                merged.extend(cases::list(tx, &id, &one, limit)?);
            }
            merged.sort_by_key(|c| std::cmp::Reverse(c.id));
            merged.truncate(limit as usize);
            Ok(merged)
        })
        .await?;
    let mut cases = cases;
    state.names.name_cases(&access.server.id, &mut cases);
    let next_before = (cases.len() == limit as usize)
        .then(|| cases.last().map(|c| c.id))
        .flatten();
    Ok(Json(CaseList { cases, next_before }))
}

/// `GET /servers/{id}/cases/{case_id}`
#[utoipa::path(
    get,
    path = "/servers/{id}/cases/{case_id}",
    tag = "moderation",
    summary = "One case",
    params(
        ServerPath,
        ("case_id" = i64, Path, minimum = 1, description = "The case's number on this server (`id` of a case, `case_id` of an action response)."),
    ),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The case.", body = Case),
        (status = 400, description = "`case_id` is not a case number (a positive integer).", body = ErrorBody),
        (status = 404, description = "No server with this id is claimed, or it has no such case.", body = ErrorBody),
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, case_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<Case>> {
    let number = case_number(&case_id)?;
    let id = access.server.id.clone();
    let case = state
        .store
        .read(move |tx| cases::with_corrections(tx, &id, number))
        .await?;
    let mut case = case;
    if let Some(case) = &mut case {
        state
            .names
            .name_cases(&access.server.id, std::slice::from_mut(case));
    }
    case.map(Json).ok_or_else(|| {
        ApiError::NotFound(format!(
            "case #{number} not found on server {}",
            access.server.id
        ))
        .at("{case_id}")
    })
}

/// The actors `actor` of `GET /cases?actor=` stands for (issue #27): an
/// actor as recorded (`key:<key_id>`, `system:<what>`) as it is; else the
/// team's keys whose display name it is, ignoring case (all of them: a
/// person keeps the name through rotations, and two keys of one name are
/// read as one person's); else a bare key id. Anything else is refused,
/// naming what is accepted.
fn actors_matching(
    tx: &crate::store::Tx<'_>,
    team_id: i64,
    actor: &str,
) -> Result<Vec<String>, ApiError> {
    if actor.starts_with("key:") || actor.starts_with("system:") {
        return Ok(vec![actor.to_owned()]);
    }
    let named = crate::store::keys::ids_named(tx, team_id, actor.trim())?;
    if !named.is_empty() {
        return Ok(named.into_iter().map(|id| format!("key:{id}")).collect());
    }
    if modctl_types::auth::is_key_id(actor) {
        return Ok(vec![format!("key:{actor}")]);
    }
    Err(ApiError::invalid(
        "actor",
        format!(
            "no key of your team is named `{actor}`: give a key's display name, \
             its key id, `key:<key_id>` or `system:<what>`"
        ),
    ))
}

/// The case number of a `{case_id}` path segment: a positive integer.
pub(super) fn case_number(case_id: &str) -> Result<i64, ApiError> {
    match case_id.parse::<i64>() {
        Ok(number) if number > 0 => Ok(number),
        _ => Err(ApiError::invalid(
            "{case_id}",
            format!(
                "case id `{case_id}` is not a case number: cases are numbered 1, 2, 3, ... on each server"
            ),
        )),
    }
}

/// `GET /servers/{id}/strikes`
#[utoipa::path(
    get,
    path = "/servers/{id}/strikes",
    tag = "moderation",
    summary = "Strike counts",
    description = "Members with strikes, most active strikes first.",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The members' strikes.", body = StrikeList)),
)]
pub async fn strikes(
    State(state): State<AppState>,
    access: ReadServer,
) -> ApiResult<Json<StrikeList>> {
    let id = access.server.id.clone();
    let now = state.clock.now_unix();
    let mut strikes = state
        .store
        .read(move |tx| cases::strike_summaries(tx, &id, now))
        .await?;
    state.names.name_strikes(&access.server.id, &mut strikes);
    Ok(Json(StrikeList { strikes }))
}

/// `GET /servers/{id}/jails`
#[utoipa::path(
    get,
    path = "/servers/{id}/jails",
    tag = "moderation",
    summary = "Active jails",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "Active jails, oldest first.", body = JailList)),
)]
pub async fn jails(State(state): State<AppState>, access: ReadServer) -> ApiResult<Json<JailList>> {
    let id = access.server.id.clone();
    let mut jails = state.store.read(move |tx| jails::list(tx, &id)).await?;
    state.names.name_jails(&access.server.id, &mut jails);
    Ok(Json(JailList { jails }))
}

/// `GET /servers/{id}/members?name=N` (issue #27).
#[utoipa::path(
    get,
    path = "/servers/{id}/members",
    tag = "moderation",
    summary = "Members known by name",
    description = "The members of the server the daemon knows by this name (ignoring case and a leading `@`), from the \
        names it has seen in the platform's events (messages, joins, member updates, Discord's guild data); it asks \
        no platform. A member it has not seen is not listed: give their id instead. Several members may share a name: \
        a client taking a name for an id uses it only when exactly one matches.",
    params(
        ServerPath,
        ("name" = String, Query, description = "The name, as shown on the platform (`alice` or `@alice`)."),
    ),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The members called that name, by id (none: no member of that name is known).", body = KnownMembers),
        (status = 400, description = "`name` is missing or empty.", body = ErrorBody),
    ),
)]
pub async fn members(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<MembersQuery>,
) -> ApiResult<Json<KnownMembers>> {
    let name = query.name.as_deref().map(str::trim).unwrap_or_default();
    if name.trim_start_matches('@').is_empty() {
        return Err(ApiError::invalid(
            "name",
            "give the member's name to look up: `?name=alice`",
        ));
    }
    let members = state.names.users_named(&access.server.id, name);
    Ok(Json(KnownMembers { members }))
}

/// `GET /servers/{id}/members/{user_id}` (issue #27).
#[utoipa::path(
    get,
    path = "/servers/{id}/members/{user_id}",
    tag = "moderation",
    summary = "One member, as the daemon knows them",
    description = "The member's name as the daemon last saw it in the platform's events (`null` when it has seen \
        none), their strikes in force and whether they are jailed: what a client shows before acting on them (the \
        CLI's confirmation prompt names its target with it). It asks no platform. Any user id valid on the server's \
        platform has an answer: a member the daemon never saw is still a valid target (200, `name` null, nothing on \
        record), never a 404.",
    params(
        ServerPath,
        ("user_id" = String, Path, description = "The member's platform user id."),
    ),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "What the daemon knows of the member.", body = MemberInfo),
        (status = 400, description = "`user_id` is not a user id of the server's platform.", body = ErrorBody),
        (status = 404, description = "No server with this id is claimed.", body = ErrorBody),
    ),
)]
pub async fn member(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, user_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<MemberInfo>> {
    access
        .server
        .platform
        .validate_user_id(&user_id)
        .map_err(|e| ApiError::invalid("{user_id}", format!("user id: {e}")))?;
    let (id, user, now) = (
        access.server.id.clone(),
        user_id.clone(),
        state.clock.now_unix(),
    );
    let (active_strikes, jailed) = state
        .store
        .read(move |tx| {
            let strikes = cases::active_strikes(tx, &id, &user, now)?;
            let jailed = jails::find(tx, &id, &user)?.is_some();
            Ok::<_, crate::store::StoreError>((strikes, jailed))
        })
        .await?;
    let mut member = MemberInfo {
        user_id,
        name: None,
        active_strikes,
        jailed,
    };
    state
        .names
        .name_members(&access.server.id, std::slice::from_mut(&mut member));
    Ok(Json(member))
}

/// The query of `GET /servers/{id}/members`.
#[derive(Debug, Default, serde::Deserialize)]
pub struct MembersQuery {
    /// The name to look up.
    pub name: Option<String>,
}
