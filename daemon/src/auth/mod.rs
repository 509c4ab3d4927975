//! Authentication and authorization as extractors.
//!
//! A handler states what it needs in its signature: [`ReadKey`] / [`WriteKey`]
//! for a key with that scope, [`ReadServer`] / [`WriteServer`] for a key with
//! that scope *and* access to the server named by the `{id}` path segment.
//!
//! Checks run in this order, and the first failure answers:
//!
//! 1. `Authorization` header present, else 401;
//! 2. scheme is `Bearer`, else 401;
//! 3. key has the form `mdk_<key_id>_<secret>`, else 401;
//! 4. key id known, else 401;
//! 5. secret matches (constant-time), else 401;
//! 6. key not revoked, else 401;
//! 7. key not expired, else 401;
//! 8. key holds the endpoint's scope, else 403;
//! 9. the server `{id}` is claimed by someone, else 404;
//! 10. it is claimed by the key's team, else 403;
//! 11. the team's plan has the feature the endpoint needs, else 402 (see
//!     [`crate::plans`]: `ServerAccess<NeedsWrite, NeedsWebhooks>`).
//!
//! Rate limits ([`crate::request_limits`]) run around these checks: before
//! check 1, an address that spent its budget of failed authentications gets
//! a 429 without its key being looked up; each 401 spends from that budget;
//! after check 8, the key spends one request of its own budget (429 when
//! none is left) and the usage goes to the `RateLimit-*` headers.
//!
//! Unknown key ids and wrong secrets share one message so a caller cannot tell
//! which half was wrong; "revoked" and "expired" are only said to a caller who
//! proved the secret. Refusals write nothing. A successful authentication
//! records `last_used_at`, at most once a minute per key, so a busy key does not
//! turn every read into a write.
//!
//! # One trip per request
//!
//! Checks 4 to 10 need the key and the server as stored. They come from
//! [`cache`], which answers from memory when nothing was committed since it
//! read them and otherwise reads both in one trip; a revocation or a claim
//! committed before a request, by this daemon or by another process, is
//! always seen (the proof is in [`cache`]). So a request with a known key
//! typically makes no trip before its handler, and the handler's read is its
//! only one. The key's query also reads its team and the team's server
//! count, which [`Caller`] carries, so `GET /me` makes no trip at all.
//!
//! Why a validated cache rather than running the checks inside the handler's
//! read: the checks stay in extractors, so a handler's signature states the
//! scope it needs and cannot run without it, the order of refusals against
//! the other extractors (a bad key is a 401 before a bad query is a 400) is
//! unchanged, and writes gain as much as reads (no read trip before a write).

use std::marker::PhantomData;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, RawPathParams};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use modctl_types::{Scope, Server, Team};

use crate::AppState;
use crate::api_key::PresentedKey;
use crate::error::ApiError;
use crate::moderation::recovery::SETTLING_WAIT;
use crate::plans::{AnyPlan, RequiredFeature};
use crate::request_limits::{Rate, RequestLimits, UsageSlot};
use crate::store::keys::{self, KeyRecord};
use crate::store::servers::ServerRecord;

pub mod cache;

pub use cache::AuthCache;
use cache::CachedKey;

/// The authenticated caller, as of this request: the key, its team and how
/// many servers the team has claimed, read (or validated) by authentication
/// so that handlers need not read them again.
#[derive(Debug, Clone)]
pub struct Caller {
    entry: Arc<CachedKey>,
}

impl Caller {
    /// The key (its `last_used_at` is as it was before this request).
    pub fn key(&self) -> &KeyRecord {
        &self.entry.record
    }

    /// The public key id.
    pub fn key_id(&self) -> &str {
        &self.entry.record.key_id
    }

    /// The key's team.
    pub fn team_id(&self) -> i64 {
        self.entry.record.team_id
    }

    /// The key's team, with its plan.
    pub fn team(&self) -> &Team {
        &self.entry.team
    }

    /// How many servers the key's team has claimed.
    pub fn team_server_count(&self) -> u64 {
        self.entry.team_server_count
    }

    /// The key's highest scope.
    pub fn scope(&self) -> Scope {
        self.entry.record.scope
    }

    /// How cases and audit entries record this caller: `key:<key_id>`.
    pub fn actor(&self) -> String {
        format!("key:{}", self.entry.record.key_id)
    }
}

/// The scope an extractor demands, as a type.
pub trait RequiredScope: Send + Sync + 'static {
    /// The scope.
    const SCOPE: Scope;
}

/// Marker: the endpoint needs `read`.
#[derive(Debug)]
pub enum NeedsRead {}
/// Marker: the endpoint needs `write`.
#[derive(Debug)]
pub enum NeedsWrite {}

impl RequiredScope for NeedsRead {
    const SCOPE: Scope = Scope::Read;
}
impl RequiredScope for NeedsWrite {
    const SCOPE: Scope = Scope::Write;
}

/// A caller whose key holds scope `S`.
#[derive(Debug)]
pub struct Authorized<S> {
    /// The caller.
    pub caller: Caller,
    _scope: PhantomData<fn() -> S>,
}

/// A caller with `read`.
pub type ReadKey = Authorized<NeedsRead>;
/// A caller with `write`.
pub type WriteKey = Authorized<NeedsWrite>;

impl<S: RequiredScope> FromRequestParts<AppState> for Authorized<S> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let (caller, _) = authorize(parts, state, S::SCOPE, None).await?;
        Ok(Authorized {
            caller,
            _scope: PhantomData,
        })
    }
}

/// A caller with scope `S` and access to the server named by the `{id}` path
/// segment, whose team's plan has feature `F` (any plan by default).
#[derive(Debug)]
pub struct ServerAccess<S, F = AnyPlan> {
    /// The caller.
    pub caller: Caller,
    /// The server, claimed by the caller's team.
    pub server: Server,
    _scope: PhantomData<fn() -> (S, F)>,
}

/// Read access to a server.
pub type ReadServer = ServerAccess<NeedsRead>;
/// Write access to a server.
pub type WriteServer = ServerAccess<NeedsWrite>;
/// Write access to a server whose team's plan has webhooks.
pub type WebhooksServer = ServerAccess<NeedsWrite, crate::plans::NeedsWebhooks>;

impl<S: RequiredScope, F: RequiredFeature> FromRequestParts<AppState> for ServerAccess<S, F> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        // Read now, reported only after the key's checks: a bad key is a 401
        // whatever the path.
        let id = server_id_from_path(parts, state).await;
        let (caller, server) = authorize(parts, state, S::SCOPE, Some(id)).await?;
        F::check(caller.team())?;
        let server = server.ok_or_else(|| {
            ApiError::Internal(anyhow::anyhow!("a server check without a server"))
        })?;
        settled(state, &server.id).await?;
        Ok(ServerAccess {
            caller,
            server,
            _scope: PhantomData,
        })
    }
}

/// Waits while actions a stopped daemon left pending on server `id` are
/// being settled, so no request sees them pending (see
/// [`crate::moderation::recovery::Settling`]); `503` with `Retry-After` when
/// that takes longer than [`SETTLING_WAIT`].
async fn settled(state: &AppState, id: &str) -> Result<(), ApiError> {
    if state.settling.wait(id, SETTLING_WAIT).await {
        return Ok(());
    }
    Err(ApiError::RetryLater {
        message: format!(
            "server `{id}` is settling actions left pending when the daemon last stopped (asking its platform how they ended): retry in a few seconds"
        ),
        retry_after: 5,
    })
}

/// Loads server `id` for `caller`: 404 when nobody claimed it, 403 when another
/// team did. Also used for servers named in bodies (e.g. a clone source).
pub async fn authorize_server(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<Server, ApiError> {
    let found = state
        .auth_cache
        .lookup(&state.store, None, Some(id))
        .await?;
    check_server(caller, id, found.server)
}

/// Checks 9 and 10.
fn check_server(
    caller: &Caller,
    id: &str,
    record: Option<ServerRecord>,
) -> Result<Server, ApiError> {
    match record {
        None => Err(ApiError::NotFound(format!(
            "server `{id}` not found: `GET /api/v1/servers` lists the servers your team has claimed"
        ))
        .at("{id}")),
        Some(record) if record.team_id != caller.team_id() => Err(ApiError::Forbidden(format!(
            "server `{id}` is claimed by another team"
        ))),
        Some(record) => Ok(record.server),
    }
}

/// The `{id}` path segment, or why it cannot be read.
async fn server_id_from_path(parts: &mut Parts, state: &AppState) -> Result<String, ApiError> {
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|e| ApiError::BadRequest(format!("invalid path: {e}")))?;
    params
        .iter()
        .find_map(|(name, value)| (name == "id").then(|| value.to_owned()))
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("route without an {{id}} segment")))
}

/// Runs the checks in the documented order (9 and 10 only with a server id),
/// then records the key's use: refusals write nothing.
async fn authorize(
    parts: &Parts,
    state: &AppState,
    required: Scope,
    server_id: Option<Result<String, ApiError>>,
) -> Result<(Caller, Option<Server>), ApiError> {
    let address = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| state.trusted_proxies.client(info.0.ip(), &parts.headers));
    let limits = &state.request_limits;
    // Failures spend the address's (and a real key's) budget, and are
    // answered 429 once it is spent; a key that checks out always passes.
    let unauthorized = |error: ApiError, key_id: Option<&str>| match error {
        ApiError::Unauthorized(_) | ApiError::KeyExpired(_) => {
            limits.failed(error, address, key_id)
        }
        other => other,
    };
    let presented = presented_key(parts).map_err(|e| unauthorized(e, None))?;
    let wanted = server_id.as_ref().and_then(|id| id.as_deref().ok());
    let found = state
        .auth_cache
        .lookup(&state.store, Some(presented.key_id), wanted)
        .await?;
    let now = state.clock.now_unix();
    let known = found.key.is_some().then_some(presented.key_id);
    let caller =
        check_key(&presented, found.key, required, now).map_err(|e| unauthorized(e, known))?;
    spend_request(parts, limits, &caller)?;
    let server = match server_id {
        None => None,
        Some(id) => Some(check_server(&caller, &id?, found.server)?),
    };
    record_use(state, &caller, now).await?;
    Ok((caller, server))
}

/// Spends one request of the caller's budget, and leaves the usage for the
/// `RateLimit-*` headers (also on the 429).
fn spend_request(parts: &Parts, limits: &RequestLimits, caller: &Caller) -> Result<(), ApiError> {
    let rate = Rate::for_team(
        crate::plans::of(caller.team().plan),
        caller.entry.requests_per_minute,
    );
    let slot = parts.extensions.get::<UsageSlot>();
    match limits.check_key(caller.key_id(), rate) {
        Ok(usage) => {
            if let (Some(slot), Some(usage)) = (slot, usage) {
                slot.set(usage);
            }
            Ok(())
        }
        Err((error, usage)) => {
            if let Some(slot) = slot {
                slot.set(usage);
            }
            Err(error)
        }
    }
}

/// Checks 1 to 3: the header holds a well-formed bearer key.
fn presented_key(parts: &Parts) -> Result<PresentedKey<'_>, ApiError> {
    let header = parts.headers.get(AUTHORIZATION).ok_or_else(|| {
        ApiError::Unauthorized(
            "missing Authorization header: send `Authorization: Bearer <API key>`".into(),
        )
    })?;
    let header = header.to_str().map_err(|_| {
        ApiError::Unauthorized("the Authorization header is not valid ASCII".into())
    })?;
    let token = match header.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => token.trim(),
        _ => {
            return Err(ApiError::Unauthorized(
                "unsupported authorization scheme: send `Authorization: Bearer <API key>`".into(),
            ));
        }
    };
    PresentedKey::parse(token).ok_or_else(|| {
        ApiError::Unauthorized("malformed API key: expected `mdk_<key_id>_<secret>`".into())
    })
}

/// Checks 4 to 8 on the stored key.
fn check_key(
    presented: &PresentedKey<'_>,
    stored: Option<Arc<CachedKey>>,
    required: Scope,
    now: i64,
) -> Result<Caller, ApiError> {
    let invalid = || ApiError::Unauthorized("invalid API key".into());
    let stored = stored.ok_or_else(invalid)?;
    if !presented.matches(stored.secret_hash()) {
        return Err(invalid());
    }
    let key = &stored.record;
    if key.revoked_at.is_some() {
        return Err(ApiError::Unauthorized(format!(
            "API key `{}` has been revoked: ask an operator for a new one",
            key.key_id
        )));
    }
    if let Some(reason) = &key.suspended {
        return Err(ApiError::KeySuspended(format!(
            "API key `{id}` is suspended: {reason}. An operator re-enables it with `modctld key enable {id}`",
            id = key.key_id
        )));
    }
    if let Some(expires_at) = key.expires_at
        && expires_at.as_second() <= now
    {
        return Err(ApiError::KeyExpired(match &key.replaced_by {
            Some(newer) => format!(
                "API key `{}` was rotated and its grace period ended at {expires_at}: use its replacement, key `{newer}`",
                key.key_id
            ),
            None => format!(
                "API key `{}` expired at {expires_at}: ask an operator for a new one",
                key.key_id
            ),
        }));
    }
    if !key.scope.covers(required) {
        return Err(ApiError::ScopeRequired(format!(
            "this endpoint needs the `{required}` scope; the key has only `{}`",
            key.scope
        )));
    }
    // The request's log lines name the key (never its secret).
    tracing::Span::current().record("key_id", key.key_id.as_str());
    Ok(Caller { entry: stored })
}

/// Records the use of a key once every check passed, at most once a minute
/// per key (see [`cache`]).
async fn record_use(state: &AppState, caller: &Caller, now: i64) -> Result<(), ApiError> {
    let stored = caller.key().last_used_at.map(|t| t.as_second());
    if !state.auth_cache.claim_touch(caller.key_id(), stored, now) {
        return Ok(());
    }
    let key_id = caller.key_id().to_owned();
    let written = state
        .store
        .write(move |tx| keys::touch(tx, &key_id, now))
        .await;
    if written.is_err() {
        state.auth_cache.release_touch(caller.key_id());
    }
    Ok(written?)
}
