//! `/servers/{id}/webhooks/...`: the test event, the signing secret and the
//! delivery log (issue #11). Delivery itself is [`crate::webhooks`].

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use modctl_types::ErrorBody;
use modctl_types::config::{SecretUpdate, WebhookEvent};
use modctl_types::query::DeliveryQuery;
use modctl_types::webhooks::{DeliveryDetail, DeliveryList, Enqueued, WebhookSecret};

use crate::AppState;
use crate::auth::{ReadServer, WebhooksServer};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiPath, ApiQuery};
use crate::response::Json;
use crate::store::{config, webhooks as outbox};
use crate::webhooks::sign;

use super::openapi::ServerPath;

/// `POST /servers/{id}/webhooks/test`
#[utoipa::path(
    post,
    path = "/servers/{id}/webhooks/test",
    tag = "webhooks",
    summary = "Send a test event",
    description = "Writes one `test` event for the server's webhook endpoint and answers at once (202); the delivery \
        worker posts it, signed, within a second or so. Follow it with `GET /servers/{id}/webhooks/deliveries/{delivery_id}`. \
        Refused (409) until webhooks are enabled with a `url` and a signing secret.",
    params(ServerPath),
    security(("bearer" = ["write"])),
    responses(
        (status = 402, description = "The team's plan has no webhooks (`required_plan` names the one that has).", body = ErrorBody),
        (status = 202, description = "The event and its delivery, queued.", body = Enqueued),
        (status = 409, description = "Webhooks are not configured; the message says what to set.", body = ErrorBody),
    ),
)]
pub async fn test(
    State(state): State<AppState>,
    access: WebhooksServer,
) -> ApiResult<impl IntoResponse> {
    let server = access.server;
    let now = state.clock.now_unix();
    let actor = access.caller.actor();
    let enqueued = state
        .store
        .write(move |tx| {
            let data = crate::webhooks::test_data(&actor);
            if let Some(enqueued) =
                crate::webhooks::enqueue(tx, &server.id, WebhookEvent::Test, &data, now)?
            {
                return Ok(enqueued);
            }
            let webhooks = config::load(tx, &server.id)?.sections.webhooks;
            let mut missing = Vec::new();
            if webhooks.url.is_none() {
                missing.push("`webhooks.url` (PUT /servers/{id}/config/webhooks)");
            }
            if !webhooks.enabled {
                missing.push("`webhooks.enabled: true`");
            }
            if !webhooks.secret_set {
                missing.push("a signing secret (POST /servers/{id}/webhooks/secret)");
            }
            Err(ApiError::NotConfigured(format!(
                "webhooks are not configured for server {}: set {}",
                server.id,
                missing.join(", ")
            )))
        })
        .await?;
    Ok((StatusCode::ACCEPTED, Json(enqueued)))
}

/// `POST /servers/{id}/webhooks/secret`
#[utoipa::path(
    post,
    path = "/servers/{id}/webhooks/secret",
    tag = "webhooks",
    summary = "Generate a new signing secret",
    description = "Generates a `whsec_<base64>` secret, stores it (sealed, like a secret set through the config; the \
        change is audited as `webhooks.secret`, redacted) and returns it. **Shown once**: no read returns it again.",
    params(ServerPath),
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The new secret.", body = WebhookSecret),
        (status = 402, description = "The team's plan has no webhooks (`required_plan` names the one that has).", body = ErrorBody),
    ),
)]
pub async fn rotate_secret(
    State(state): State<AppState>,
    access: WebhooksServer,
) -> ApiResult<Json<WebhookSecret>> {
    let server = access.server;
    let actor = access.caller.actor();
    let now = state.clock.now_unix();
    let secrets = state.store.secrets().clone();
    let secret = sign::generate_secret();
    let stored = secret.clone();
    state
        .store
        .write(move |tx| {
            let mut sections = config::load(tx, &server.id)?.sections;
            sections.webhooks.secret = SecretUpdate::Set(stored);
            crate::config::apply(
                tx,
                &secrets,
                crate::config::Change::by(&server.id, &actor, sections, now),
            )
        })
        .await?;
    Ok(Json(WebhookSecret { secret }))
}

/// `GET /servers/{id}/webhooks/deliveries`
#[utoipa::path(
    get,
    path = "/servers/{id}/webhooks/deliveries",
    tag = "webhooks",
    summary = "The delivery log",
    description = "Deliveries, newest first, a page at a time: pass `next_before` as `before` for the next page.",
    params(ServerPath, DeliveryQuery),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "A page of deliveries.", body = DeliveryList)),
)]
pub async fn deliveries(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<DeliveryQuery>,
) -> ApiResult<Json<DeliveryList>> {
    let limit = query
        .page_size()
        .map_err(|e| ApiError::invalid("limit", e))?;
    let id = access.server.id;
    let deliveries = state
        .store
        .read(move |tx| outbox::list(tx, &id, query.state, query.kind, query.before, limit))
        .await?;
    let next_before = (deliveries.len() == limit as usize)
        .then(|| deliveries.last().map(|d| d.id))
        .flatten();
    Ok(Json(DeliveryList {
        deliveries,
        next_before,
    }))
}

/// `GET /servers/{id}/webhooks/deliveries/{delivery_id}`
#[utoipa::path(
    get,
    path = "/servers/{id}/webhooks/deliveries/{delivery_id}",
    tag = "webhooks",
    summary = "One delivery with its attempts",
    params(
        ServerPath,
        ("delivery_id" = i64, Path, description = "The delivery id."),
    ),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The delivery and every attempt.", body = DeliveryDetail),
        (status = 404, description = "No such delivery on this server.", body = ErrorBody),
    ),
)]
pub async fn delivery(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, delivery_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<DeliveryDetail>> {
    let server_id = access.server.id;
    let id = delivery_number(&server_id, &delivery_id)?;
    let found = {
        let server_id = server_id.clone();
        state
            .store
            .read(move |tx| outbox::get(tx, &server_id, id))
            .await?
    };
    found
        .map(Json)
        .ok_or_else(|| not_found(&server_id, &delivery_id))
}

/// `POST /servers/{id}/webhooks/deliveries/{delivery_id}/redeliver`
#[utoipa::path(
    post,
    path = "/servers/{id}/webhooks/deliveries/{delivery_id}/redeliver",
    tag = "webhooks",
    summary = "Deliver an event again",
    description = "Queues the delivery for one more attempt now, whatever its state, with the same event id and body \
        (receivers deduplicate on `webhook-id`). It goes to the URL the event was written for.",
    params(
        ServerPath,
        ("delivery_id" = i64, Path, description = "The delivery id."),
    ),
    security(("bearer" = ["write"])),
    responses(
        (status = 402, description = "The team's plan has no webhooks (`required_plan` names the one that has).", body = ErrorBody),
        (status = 202, description = "The delivery, queued.", body = DeliveryDetail),
        (status = 404, description = "No such delivery on this server.", body = ErrorBody),
    ),
)]
pub async fn redeliver(
    State(state): State<AppState>,
    access: WebhooksServer,
    ApiPath((_, delivery_id)): ApiPath<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let server_id = access.server.id;
    let id = delivery_number(&server_id, &delivery_id)?;
    let now = state.clock.now_unix();
    let found = {
        let server_id = server_id.clone();
        state
            .store
            .write(move |tx| {
                let url = crate::webhooks::wanted(tx, &server_id, WebhookEvent::Test)?;
                if outbox::redeliver(tx, &server_id, id, url.as_deref(), now)? {
                    outbox::get(tx, &server_id, id)
                } else {
                    Ok(None)
                }
            })
            .await?
    };
    let detail = found.ok_or_else(|| not_found(&server_id, &delivery_id))?;
    Ok((StatusCode::ACCEPTED, Json(detail)))
}

fn delivery_number(server_id: &str, raw: &str) -> ApiResult<i64> {
    raw.parse().map_err(|_| not_found(server_id, raw))
}

fn not_found(server_id: &str, delivery_id: &str) -> ApiError {
    ApiError::NotFound(format!(
        "webhook delivery `{delivery_id}` not found on server {server_id}"
    ))
    .at("{delivery_id}")
}
