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
//! 10. it is claimed by the key's team, else 403.
//!
//! Unknown key ids and wrong secrets share one message so a caller cannot tell
//! which half was wrong; "revoked" and "expired" are only said to a caller who
//! proved the secret. Refusals write nothing. A successful authentication
//! records `last_used_at`, at most once a minute per key, so a busy key does not
//! turn every read into a write.

use std::marker::PhantomData;

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use modctl_types::{Scope, Server};

use crate::AppState;
use crate::api_key::PresentedKey;
use crate::error::ApiError;
use crate::store::{keys, servers};

/// How stale `last_used_at` may get before a request refreshes it.
const LAST_USED_RESOLUTION_SECS: i64 = 60;

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The public key id.
    pub key_id: String,
    /// The key's team.
    pub team_id: i64,
    /// The key's highest scope.
    pub scope: Scope,
}

impl Caller {
    /// How cases and audit entries record this caller: `key:<key_id>`.
    pub fn actor(&self) -> String {
        format!("key:{}", self.key_id)
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
        let authenticated = authenticate(parts, state, S::SCOPE).await?;
        let caller = record_use(state, authenticated).await?;
        Ok(Authorized {
            caller,
            _scope: PhantomData,
        })
    }
}

/// A caller with scope `S` and access to the server named by the `{id}` path
/// segment.
#[derive(Debug)]
pub struct ServerAccess<S> {
    /// The caller.
    pub caller: Caller,
    /// The server, claimed by the caller's team.
    pub server: Server,
    _scope: PhantomData<fn() -> S>,
}

/// Read access to a server.
pub type ReadServer = ServerAccess<NeedsRead>;
/// Write access to a server.
pub type WriteServer = ServerAccess<NeedsWrite>;

impl<S: RequiredScope> FromRequestParts<AppState> for ServerAccess<S> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let authenticated = authenticate(parts, state, S::SCOPE).await?;
        let params = RawPathParams::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::BadRequest(format!("invalid path: {e}")))?;
        let id = params
            .iter()
            .find_map(|(name, value)| (name == "id").then(|| value.to_owned()))
            .ok_or_else(|| {
                ApiError::Internal(anyhow::anyhow!("route without an {{id}} segment"))
            })?;
        let server = authorize_server(state, &authenticated.caller, &id).await?;
        let caller = record_use(state, authenticated).await?;
        Ok(ServerAccess {
            caller,
            server,
            _scope: PhantomData,
        })
    }
}

/// Loads server `id` for `caller`: 404 when nobody claimed it, 403 when another
/// team did. Also used for servers named in bodies (e.g. a clone source).
pub async fn authorize_server(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<Server, ApiError> {
    let lookup = id.to_owned();
    let record = state
        .store
        .read(move |tx| servers::find(tx, &lookup))
        .await?;
    match record {
        None => Err(ApiError::NotFound(format!(
            "server `{id}` not found: `GET /api/v1/servers` lists the servers your team has claimed"
        ))),
        Some(record) if record.team_id != caller.team_id => Err(ApiError::Forbidden(format!(
            "server `{id}` is claimed by another team"
        ))),
        Some(record) => Ok(record.server),
    }
}

/// A caller who passed checks 1 to 8, before anything was written.
struct Authenticated {
    caller: Caller,
    last_used_is_stale: bool,
}

/// Records the use of a key once every check passed, so refusals write nothing.
async fn record_use(state: &AppState, authenticated: Authenticated) -> Result<Caller, ApiError> {
    if authenticated.last_used_is_stale {
        let key_id = authenticated.caller.key_id.clone();
        let now = state.clock.now_unix();
        state
            .store
            .write(move |tx| keys::touch(tx, &key_id, now))
            .await?;
    }
    Ok(authenticated.caller)
}

async fn authenticate(
    parts: &Parts,
    state: &AppState,
    required: Scope,
) -> Result<Authenticated, ApiError> {
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
    let presented = PresentedKey::parse(token).ok_or_else(|| {
        ApiError::Unauthorized("malformed API key: expected `mdk_<key_id>_<secret>`".into())
    })?;

    let key_id = presented.key_id.to_owned();
    let stored = state
        .store
        .read(move |tx| keys::find_with_hash(tx, &key_id))
        .await?;
    let invalid = || ApiError::Unauthorized("invalid API key".into());
    let stored = stored.ok_or_else(invalid)?;
    if !presented.matches(&stored.secret_hash) {
        return Err(invalid());
    }
    let key = stored.record;
    if key.revoked_at.is_some() {
        return Err(ApiError::Unauthorized(format!(
            "API key `{}` has been revoked: ask an operator for a new one",
            key.key_id
        )));
    }
    let now = state.clock.now_unix();
    if let Some(expires_at) = key.expires_at
        && expires_at.as_second() <= now
    {
        return Err(ApiError::Unauthorized(format!(
            "API key `{}` expired at {expires_at}: ask an operator for a new one",
            key.key_id
        )));
    }

    if !key.scope.covers(required) {
        return Err(ApiError::Forbidden(format!(
            "this endpoint needs the `{required}` scope; the key has only `{}`",
            key.scope
        )));
    }
    let last_used_is_stale = key
        .last_used_at
        .is_none_or(|t| now - t.as_second() >= LAST_USED_RESOLUTION_SECS);
    Ok(Authenticated {
        caller: Caller {
            key_id: key.key_id,
            team_id: key.team_id,
            scope: key.scope,
        },
        last_used_is_stale,
    })
}
