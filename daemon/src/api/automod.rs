//! `POST /servers/{id}/automod/test` (issue #25): what the server's automod
//! would do with a message, changing nothing.
//!
//! It reads the config and the server's own invites as last learned
//! ([`crate::automation::invites`]) and nothing else: the same compiled automod the
//! event consumers use ([`crate::automation::automod::Compiled`], rebuilt
//! when the revision changes), its stateless filters only (`duplicates`
//! needs the member's recent messages, and trying a text must not count
//! as one), and no platform call: the author is not looked up, so the
//! exemptions of bots, the owner and members above the bot do not apply.
//!
//! `GET /servers/{id}/automod/hits`: the messages automod caught
//! ([`crate::automation::automod::act`] records them), newest first.

use axum::extract::State;
use modctl_types::automod::{AutomodHitList, AutomodTestRequest, AutomodTestResult, HitQuery};
use modctl_types::{ErrorBody, Platform};

use crate::AppState;
use crate::auth::ReadServer;
use crate::automation::automod::{self, Author, Message, Verdict};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiQuery};
use crate::response::Json;
use crate::store::{automod_hits, config};

use super::openapi::ServerPath;

/// The longest text tried: Discord's longest message (with Nitro).
pub const MAX_TEXT_CHARS: usize = 4000;
/// The most roles a test names.
pub const MAX_ROLES: usize = 50;

/// `POST /servers/{id}/automod/test`
#[utoipa::path(
    post,
    path = "/servers/{id}/automod/test",
    tag = "automod",
    summary = "Try a message against the automod filters",
    description = "Answers which of the server's enabled automod filters would act on a message with this text, \
        in this channel, from a member with these roles: one entry per filter, with what matched, the normalized \
        form that matched (when only that did) and the filter's action; or the exemption that spared it. \
        The server's own invites, as last learned from the platform (every 10 minutes), are spared, as are those \
        of `automod.invite_links.allow`. \
        Changes nothing: `duplicates` is never tried (it needs the member's recent messages), and the member is \
        not looked up, so bots, the owner and members above the bot are not spared here as they are for real \
        messages. A read: any key of the team may try.",
    params(ServerPath),
    request_body = AutomodTestRequest,
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The filters that would trigger, or the exemption that spares the message.", body = AutomodTestResult),
        (status = 400, description = "The body is not valid: the error names the field.", body = ErrorBody),
    ),
)]
pub async fn test(
    State(state): State<AppState>,
    access: ReadServer,
    ApiJson(body): ApiJson<AutomodTestRequest>,
) -> ApiResult<Json<AutomodTestResult>> {
    let server = access.server;
    check(server.platform, &body)?;
    let id = server.id.clone();
    let stored = state.store.read(move |tx| config::load(tx, &id)).await?;
    let automod = state.automod.get(&server.id, stored.revision, || {
        // The server's own invites as last learned from its platform
        // (`automation::invites`): a read, so the cache, never a call.
        (
            stored.sections.automod,
            state.automod.own_invites(&server.id),
        )
    });
    let (mentions, mentions_everyone) = automod::count_mentions(server.platform, &body.text);
    let message = Message {
        text: &body.text,
        channel_id: body.channel_id.as_deref().unwrap_or_default(),
        links: &[],
        mentions,
        mentions_everyone,
    };
    let author = Author {
        id: body.user_id.as_deref().unwrap_or_default(),
        roles: &body.role_ids,
        ..Author::default()
    };
    Ok(Json(match automod.check(&message, &author) {
        Verdict::Hits(hits) => AutomodTestResult {
            hits,
            spared_by: None,
        },
        Verdict::Spared(exemption) => AutomodTestResult {
            hits: Vec::new(),
            spared_by: Some(exemption.to_string()),
        },
    }))
}

/// `GET /servers/{id}/automod/hits?limit=N&filter=F&user_id=U&before=H`,
/// newest first.
#[utoipa::path(
    get,
    path = "/servers/{id}/automod/hits",
    tag = "automod",
    summary = "Recent automod hits",
    description = "Messages the automod filters caught, newest first, a page at a time: pass `next_before` as \
        `before` for the next page. One hit per message and filter: what matched, whether the message was \
        deleted (and why not), whether it opened a case (`outcome: case`, `case_id`), was a further message \
        of a burst already counted (`burst`) or needed none (`delete`). Hits of Discord's native rules say \
        `enforced_by: native`.",
    params(ServerPath, HitQuery),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "A page of hits.", body = AutomodHitList),
        (status = 400, description = "A query parameter is not valid: the error names it.", body = ErrorBody),
    ),
)]
pub async fn hits(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<HitQuery>,
) -> ApiResult<Json<AutomodHitList>> {
    let limit = query
        .page_size()
        .map_err(|e| ApiError::invalid("limit", e))?;
    if let Some(user) = &query.user_id
        && let Err(e) = access.server.platform.validate_user_id(user)
    {
        return Err(ApiError::invalid("user_id", format!("user_id: {e}")));
    }
    let id = access.server.id;
    let hits = state
        .store
        .read(move |tx| {
            let filter = automod_hits::Filter {
                filter: query.filter,
                user_id: query.user_id.as_deref(),
                before: query.before,
            };
            automod_hits::list(tx, &id, &filter, limit)
        })
        .await?;
    let next_before = (hits.len() == limit as usize)
        .then(|| hits.last().map(|h| h.id))
        .flatten();
    Ok(Json(AutomodHitList { hits, next_before }))
}

/// The body's fields, for the server's platform: each error names its field.
fn check(platform: Platform, body: &AutomodTestRequest) -> Result<(), ApiError> {
    let length = body.text.chars().count();
    if body.text.trim().is_empty() || length > MAX_TEXT_CHARS {
        return Err(ApiError::invalid(
            "text",
            format!(
                "text must be 1 to {MAX_TEXT_CHARS} characters and not only spaces, got {length}: give the message to try"
            ),
        ));
    }
    if let Some(user) = &body.user_id
        && let Err(e) = platform.validate_user_id(user)
    {
        return Err(ApiError::invalid("user_id", format!("user_id: {e}")));
    }
    if let Some(channel) = &body.channel_id
        && let Err(e) = platform.validate_channel_id(channel)
    {
        return Err(ApiError::invalid("channel_id", format!("channel_id: {e}")));
    }
    if body.role_ids.len() > MAX_ROLES {
        return Err(ApiError::invalid(
            "role_ids",
            format!(
                "role_ids must have at most {MAX_ROLES} entries, got {}",
                body.role_ids.len()
            ),
        ));
    }
    for (i, role) in body.role_ids.iter().enumerate() {
        if let Err(e) = platform.validate_role_id(role) {
            return Err(ApiError::invalid(
                format!("role_ids[{i}]"),
                format!("role_ids[{i}]: {e}"),
            ));
        }
    }
    Ok(())
}
