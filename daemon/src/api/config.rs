//! The six `/servers/{id}/config` endpoints of the spec, plus
//! `GET /config/{section}` (additive).
//!
//! Every write builds the complete new config and goes through
//! [`crate::config::apply`] inside one write transaction: validation failures
//! return before anything is written, and the audit entries commit with the
//! change or not at all.

use axum::extract::State;
use axum::http::header::{ETAG, IF_MATCH};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use modctl_types::config::{
    AuditList, AuditSource, CloneRequest, EXPORT_FORMAT, ExportEnvelope, ExportSource, FieldError,
    ImportReport, SCHEMA_VERSION, SectionName, Sections, ServerConfig,
};
use modctl_types::query::{AuditQuery, CloneOptions, ImportOptions};
use modctl_types::{ErrorBody, ErrorCode, Platform, Server};
use serde_json::Value;

use crate::AppState;
use crate::auth::{ReadServer, WriteServer, authorize_server};
use crate::config::Change;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::response::Json;
use crate::store::config::{self, StoredConfig};
use crate::store::timestamp;

use super::openapi::{AnySection, ServerPath};

/// `GET /servers/{id}/config`
#[utoipa::path(
    get,
    path = "/servers/{id}/config",
    tag = "config",
    summary = "The full config",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "All sections, with the revision.", body = ServerConfig, headers(("ETag" = String, description = "The config revision, e.g. `\"3\"`: send it back in `If-Match`.")))),
)]
pub async fn show(State(state): State<AppState>, access: ReadServer) -> ApiResult<Response> {
    let server = access.server;
    let id = server.id.clone();
    let stored = state.store.read(move |tx| config::load(tx, &id)).await?;
    Ok(with_etag(
        stored.revision,
        Json(server_config(&server, stored)),
    ))
}

/// `GET /servers/{id}/config/{section}` (additive): one section.
#[utoipa::path(
    get,
    path = "/servers/{id}/config/{section}",
    tag = "config",
    summary = "One config section",
    params(ServerPath, ("section" = SectionName, Path, description = "The section.")),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The section.", body = AnySection, headers(("ETag" = String, description = "The config revision, e.g. `\"3\"`: send it back in `If-Match`."))),
        (status = 404, description = "No server with this id is claimed, or no section has this name.", body = ErrorBody),
    ),
)]
pub async fn show_section(
    State(state): State<AppState>,
    access: ReadServer,
    ApiPath((_, section)): ApiPath<(String, String)>,
) -> ApiResult<Response> {
    let section = parse_section(&section)?;
    let id = access.server.id.clone();
    let stored = state.store.read(move |tx| config::load(tx, &id)).await?;
    Ok(with_etag(
        stored.revision,
        Json(stored.sections.section_json(section)),
    ))
}

/// `PUT /servers/{id}/config/{section}`: replaces one section.
#[utoipa::path(
    put,
    path = "/servers/{id}/config/{section}",
    tag = "config",
    summary = "Replace one config section",
    description = "Validates the section for the server's platform, then replaces it whole: fields left out take \
        their defaults. A change is recorded in the audit trail and raises the revision; a body equal to the \
        current section changes nothing.",
    params(ServerPath, ("section" = SectionName, Path, description = "The section."), ("If-Match" = Option<String>, Header, description = "Refuse the write unless the config is still at this revision, as sent in `ETag` (e.g. `\"3\"`); `*` or absent: no condition."),),
    request_body = AnySection,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "The whole config after the change.", body = ServerConfig, headers(("ETag" = String, description = "The config revision, e.g. `\"3\"`: send it back in `If-Match`."))),
        (status = 404, description = "No server with this id is claimed, or no section has this name.", body = ErrorBody),
        (status = 412, description = "The config is no longer at the `If-Match` revision: read it again and retry.", body = ErrorBody),
        (status = 402, description = "The change turns on what the team's plan lacks (webhooks, scheduled snapshots); nothing was written.", body = ErrorBody),
    ),
)]
pub async fn replace_section(
    State(state): State<AppState>,
    access: WriteServer,
    ApiPath((_, section)): ApiPath<(String, String)>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Response> {
    let section = parse_section(&section)?;
    let expected_revision = if_match(&headers)?;
    let server = access.server;
    let actor = access.caller.actor();
    let id = server.id.clone();
    let platform = server.platform;
    let secrets = state.store.secrets().clone();
    let now = state.clock.now_unix();
    let stored = state
        .store
        .write(move |tx| {
            let mut sections = config::load(tx, &id)?.sections;
            sections
                .replace_from_json(section, body)
                .map_err(|e| invalid(&[e]))?;
            let errors = sections.validate_section(section, platform);
            if !errors.is_empty() {
                return Err(invalid(&errors));
            }
            let applied = crate::config::apply(
                tx,
                &secrets,
                Change {
                    server_id: &id,
                    actor: &actor,
                    source: AuditSource::Api,
                    expected_revision,
                    sections,
                    dry_run: false,
                    now,
                },
            )?;
            Ok(applied.config)
        })
        .await?;
    // Committed: the native AutoMod sync follows it now, not at its next
    // tick (it compares what the config asks with what it last synced).
    // Only the sections its rules are planned from (`automod`, and
    // `moderation`'s default timeout) can change what it wants.
    if matches!(section, SectionName::Automod | SectionName::Moderation) {
        state.native_rules_wake.notify_one();
    }
    Ok(with_etag(
        stored.revision,
        Json(server_config(&server, stored)),
    ))
}

/// `GET /servers/{id}/config/export`
#[utoipa::path(
    get,
    path = "/servers/{id}/config/export",
    tag = "config",
    summary = "Export the config",
    description = "The export envelope: every section, without secrets (`redacted` names them), ready for `import`.",
    params(ServerPath),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The export envelope.", body = ExportEnvelope)),
)]
pub async fn export(
    State(state): State<AppState>,
    access: ReadServer,
) -> ApiResult<Json<ExportEnvelope>> {
    let server = access.server;
    let id = server.id.clone();
    let stored = state.store.read(move |tx| config::load(tx, &id)).await?;
    Ok(Json(ExportEnvelope {
        format: EXPORT_FORMAT.to_owned(),
        schema_version: SCHEMA_VERSION,
        exported_at: state.clock.now(),
        source: ExportSource {
            id: server.id,
            platform: server.platform,
            name: server.name,
        },
        revision: stored.revision,
        redacted: vec!["webhooks.secret".to_owned()],
        sections: stored.sections,
    }))
}

/// `POST /servers/{id}/config/import[?dry_run=true][&drop_foreign_ids=true]`:
/// takes an export envelope as is.
#[utoipa::path(
    post,
    path = "/servers/{id}/config/import",
    tag = "config",
    summary = "Import an export",
    description = "Takes an export envelope as `export` made it, from this server or another of any platform, \
        validates every section for this server's platform and replaces them in one write, or with `dry_run` \
        reports what would change. With `rollback_to` (what `modctl config rollback` sends) the write is audited \
        as `rollback`.",
    params(ServerPath, ImportOptions, ("If-Match" = Option<String>, Header, description = "Refuse the write unless the config is still at this revision, as sent in `ETag` (e.g. `\"3\"`); `*` or absent: no condition."),),
    request_body = ExportEnvelope,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "What changed (or would).", body = ImportReport),
        (status = 412, description = "The config is no longer at the `If-Match` revision: read it again and retry.", body = ErrorBody),
        (status = 402, description = "The change turns on what the team's plan lacks (webhooks, scheduled snapshots); nothing was written.", body = ErrorBody),
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    access: WriteServer,
    ApiQuery(options): ApiQuery<ImportOptions>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Json<ImportReport>> {
    let envelope = ParsedEnvelope::parse(body)?;
    let expected_revision = if_match(&headers)?;
    let target = access.server;
    let actor = access.caller.actor();
    let secrets = state.store.secrets().clone();
    let now = state.clock.now_unix();
    let report = state
        .store
        .write(move |tx| {
            let stored = config::load(tx, &target.id)?;
            if let Some(to) = options.rollback_to
                && to >= stored.revision
            {
                return Err(ApiError::invalid(
                    "rollback_to",
                    format!(
                        "rollback_to must be a revision below the config's current revision {}, got {to}",
                        stored.revision
                    ),
                ));
            }
            let current = stored.sections;
            let mut sections = current.clone();
            let mut errors = Vec::new();
            for (name, value) in envelope.sections.iter().cloned() {
                if let Err(e) = sections.replace_from_json(name, value) {
                    errors.push(e);
                }
            }
            if !errors.is_empty() {
                return Err(refused("import", &errors));
            }
            let imported: Vec<SectionName> =
                envelope.sections.iter().map(|(name, _)| *name).collect();
            let mut warnings = fit_to_target(
                &mut sections,
                &current,
                &imported,
                target.platform,
                options.drop_foreign_ids,
            )
            .map_err(|errors| refused("import", &errors))?;
            warnings.extend(unsigned_webhooks(&sections, &current, &target.id));
            let applied = crate::config::apply(
                tx,
                &secrets,
                Change {
                    server_id: &target.id,
                    actor: &actor,
                    // A rollback is the import of an earlier revision's
                    // settings; the audit trail says which it was.
                    source: if options.rollback_to.is_some() {
                        AuditSource::Rollback
                    } else {
                        AuditSource::Import
                    },
                    expected_revision,
                    sections,
                    dry_run: options.dry_run,
                    now,
                },
            )?;
            Ok::<_, ApiError>(ImportReport {
                dry_run: options.dry_run,
                revision: applied.revision,
                changed: applied.changed,
                warnings,
            })
        })
        .await?;
    if !report.dry_run {
        state.native_rules_wake.notify_one();
    }
    Ok(Json(report))
}

/// `POST /servers/{id}/config/clone[?drop_foreign_ids=true]` with `{"from": "<server id>"}`.
#[utoipa::path(
    post,
    path = "/servers/{id}/config/clone",
    tag = "config",
    summary = "Clone another server's config",
    description = "Copies every section of `from`, another server of the same team, into this one, validated for \
        this server's platform. The target keeps its own webhook signing secret.",
    params(ServerPath, CloneOptions, ("If-Match" = Option<String>, Header, description = "Refuse the write unless the config is still at this revision, as sent in `ETag` (e.g. `\"3\"`); `*` or absent: no condition."),),
    request_body = CloneRequest,
    security(("bearer" = ["write"])),
    responses(
        (status = 200, description = "What changed.", body = ImportReport),
        (status = 404, description = "This server, or `from`, is not claimed.", body = ErrorBody),
        (status = 412, description = "The config is no longer at the `If-Match` revision: read it again and retry.", body = ErrorBody),
        (status = 402, description = "The change turns on what the team's plan lacks (webhooks, scheduled snapshots); nothing was written.", body = ErrorBody),
    ),
)]
pub async fn clone(
    State(state): State<AppState>,
    access: WriteServer,
    ApiQuery(options): ApiQuery<CloneOptions>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<Json<ImportReport>> {
    let from = clone_source(&body, &access.server.id)?;
    let expected_revision = if_match(&headers)?;
    // The source server is the body's `from`, not the path's `{id}`.
    let source = authorize_server(&state, &access.caller, &from)
        .await
        .map_err(|e| match e.code() {
            ErrorCode::NotFound => e.at("from"),
            _ => e,
        })?;
    let target = access.server;
    let actor = access.caller.actor();
    let secrets = state.store.secrets().clone();
    let now = state.clock.now_unix();
    let report = state
        .store
        .write(move |tx| {
            // Every section is copied, so the target's current ones are not needed;
            // the signing secret belongs to one server, and the target keeps its own.
            let mut sections = config::load(tx, &source.id)?.sections;
            sections.webhooks.secret = modctl_types::config::SecretUpdate::Keep;
            let current = config::load(tx, &target.id)?.sections;
            let mut warnings = fit_to_target(
                &mut sections,
                &current,
                &SectionName::ALL,
                target.platform,
                options.drop_foreign_ids,
            )
            .map_err(|errors| refused("clone", &errors))?;
            warnings.extend(unsigned_webhooks(&sections, &current, &target.id));
            let applied = crate::config::apply(
                tx,
                &secrets,
                Change {
                    server_id: &target.id,
                    actor: &actor,
                    source: AuditSource::Clone,
                    expected_revision,
                    sections,
                    dry_run: options.dry_run,
                    now,
                },
            )?;
            Ok::<_, ApiError>(ImportReport {
                dry_run: options.dry_run,
                revision: applied.revision,
                changed: applied.changed,
                warnings,
            })
        })
        .await?;
    if !report.dry_run {
        state.native_rules_wake.notify_one();
    }
    Ok(Json(report))
}

/// `GET /servers/{id}/config/audit?limit=N&before=ID`, newest first.
#[utoipa::path(
    get,
    path = "/servers/{id}/config/audit",
    tag = "config",
    summary = "The config audit trail",
    description = "One entry per changed section per write, newest first; secrets show as `\"<redacted>\"`.",
    params(ServerPath, AuditQuery),
    security(("bearer" = ["read"])),
    responses((status = 200, description = "The entries.", body = AuditList)),
)]
pub async fn audit(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> ApiResult<Json<AuditList>> {
    let limit = query
        .page_size()
        .map_err(|e| ApiError::invalid("limit", e))?;
    let id = access.server.id;
    let entries = state
        .store
        .read(move |tx| config::audit(tx, &id, limit, query.before))
        .await?;
    Ok(Json(AuditList { entries }))
}

fn server_config(server: &Server, stored: StoredConfig) -> ServerConfig {
    ServerConfig {
        server_id: server.id.clone(),
        platform: server.platform,
        revision: stored.revision,
        updated_at: stored.updated_at.map(timestamp),
        sections: stored.sections,
    }
}

fn with_etag(revision: u64, body: impl IntoResponse) -> Response {
    let mut response = body.into_response();
    let etag =
        HeaderValue::from_str(&format!("\"{revision}\"")).expect("digits are a valid header");
    response.headers_mut().insert(ETAG, etag);
    response
}

fn parse_section(name: &str) -> Result<SectionName, ApiError> {
    name.parse()
        .map_err(|e| ApiError::NotFound(e).at("{section}"))
}

/// `If-Match: "3"` (also `W/"3"`, `3`); `*` or no header means no condition.
fn if_match(headers: &HeaderMap) -> Result<Option<u64>, ApiError> {
    let Some(value) = headers.get(IF_MATCH) else {
        return Ok(None);
    };
    let bad = || {
        ApiError::invalid(
            "If-Match",
            "If-Match must be a revision as sent in the ETag header, e.g. \"3\"",
        )
    };
    let text = value.to_str().map_err(|_| bad())?.trim();
    if text == "*" {
        return Ok(None);
    }
    let text = text.strip_prefix("W/").unwrap_or(text).trim_matches('"');
    text.parse().map(Some).map_err(|_| bad())
}

/// A `400` for config values that failed validation: `field` is the first
/// one's path from the config root (the message names them all).
fn invalid(errors: &[FieldError]) -> ApiError {
    at_first(ApiError::BadRequest(join(errors)), errors)
}

/// `what` is `import` or `clone`. One problem a line: a config copied from
/// another platform has several, and each is fixed on its own.
fn refused(what: &str, errors: &[FieldError]) -> ApiError {
    let lines: Vec<String> = errors.iter().map(|e| format!("\n  {e}")).collect();
    at_first(
        ApiError::BadRequest(format!(
            "{what} refused, nothing was changed:{}",
            lines.concat()
        )),
        errors,
    )
}

/// The id `current` has at `path` (as [`Sections::id_fields`] names it).
fn current_id<'a>(current: &'a Sections, path: &str) -> &'a str {
    current
        .id_fields()
        .into_iter()
        .find(|(own, _)| own == path)
        .map_or("", |(_, id)| id)
}

/// A warning when the copied config turns webhooks on for a server that
/// has no signing secret (the secret never travels with a config): nothing
/// is delivered until one is made.
fn unsigned_webhooks(sections: &Sections, current: &Sections, server: &str) -> Option<String> {
    use modctl_types::config::SecretUpdate;
    let secret = match &sections.webhooks.secret {
        SecretUpdate::Keep => current.webhooks.secret_set,
        SecretUpdate::Clear => false,
        SecretUpdate::Set(_) => true,
    };
    (sections.webhooks.enabled && !secret).then(|| {
        format!(
            "webhooks.enabled: webhooks are on but server {server} has no signing secret, so nothing is delivered until one is made (`modctl webhooks rotate-secret {server}`)"
        )
    })
}

fn at_first(error: ApiError, errors: &[FieldError]) -> ApiError {
    match errors.first() {
        Some(first) if !first.path.is_empty() => error.at(first.path.clone()),
        _ => error,
    }
}

fn join(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The parts of an import body we act on, checked before any section.
#[derive(Debug)]
struct ParsedEnvelope {
    sections: Vec<(SectionName, Value)>,
}

impl ParsedEnvelope {
    fn parse(body: Value) -> Result<ParsedEnvelope, ApiError> {
        let Value::Object(mut body) = body else {
            return Err(ApiError::BadRequest(
                "the import body must be an export envelope: a JSON object as `GET /config/export` returns".into(),
            ));
        };
        match body.get("format") {
            Some(Value::String(format)) if format == EXPORT_FORMAT => {}
            Some(Value::String(other)) => {
                return Err(ApiError::invalid(
                    "format",
                    format!(
                        "not a modctl config export: `format` is \"{other}\", expected \"{EXPORT_FORMAT}\""
                    ),
                ));
            }
            _ => {
                return Err(ApiError::invalid(
                    "format",
                    format!("not a modctl config export: `format` must be \"{EXPORT_FORMAT}\""),
                ));
            }
        }
        match body.get("schema_version").and_then(Value::as_u64) {
            Some(version) if version > u64::from(SCHEMA_VERSION) => {
                return Err(ApiError::invalid(
                    "schema_version",
                    format!(
                        "the export has schema version {version}, newer than this daemon reads ({SCHEMA_VERSION}): upgrade modctld"
                    ),
                ));
            }
            Some(version) if version >= 1 => {}
            _ => {
                return Err(ApiError::invalid(
                    "schema_version",
                    "`schema_version` must be a positive integer, as in an export",
                ));
            }
        }
        // Not acted on, but what an export holds and the API documents: an
        // envelope with them missing or malformed is not an export.
        informational::<modctl_types::Timestamp>(&body, "exported_at", "a date-time")?;
        informational::<modctl_types::config::ExportSource>(
            &body,
            "source",
            "the exported server: `id`, `platform` (discord, telegram or slack) and `name`",
        )?;
        informational::<u64>(&body, "revision", "a revision number")?;
        informational::<Vec<String>>(&body, "redacted", "a list of field names")?;
        let Some(Value::Object(sections)) = body.remove("sections") else {
            return Err(ApiError::invalid(
                "sections",
                "`sections` must be an object of config sections",
            ));
        };
        let sections = sections
            .into_iter()
            .map(|(name, value)| {
                let name = name.parse::<SectionName>().map_err(|e| {
                    ApiError::invalid(format!("sections.{name}"), format!("sections: {e}"))
                })?;
                Ok((name, value))
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(ParsedEnvelope { sections })
    }
}

/// Checks that the envelope's field `name` is there and reads as a `T`.
fn informational<T: serde::de::DeserializeOwned>(
    body: &serde_json::Map<String, Value>,
    name: &str,
    what: &str,
) -> Result<(), ApiError> {
    let value = body.get(name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "not a modctl config export: `{name}` is missing (import an envelope as `GET /config/export` returns it)"
        ))
    })?;
    T::deserialize(value)
        .map(drop)
        .map_err(|e| ApiError::invalid(name, format!("`{name}` must be {what}: {e}")))
}

/// The `from` of a clone body, checked strictly.
fn clone_source(body: &Value, target: &str) -> Result<String, ApiError> {
    let Value::Object(fields) = body else {
        return Err(ApiError::BadRequest(
            "the clone body must be a JSON object: {\"from\": \"<server id>\"}".into(),
        ));
    };
    if let Some(unknown) = fields.keys().find(|k| *k != "from") {
        return Err(ApiError::invalid(
            unknown.clone(),
            format!("unknown field `{unknown}` in the clone body: only `from` is accepted"),
        ));
    }
    match fields.get("from") {
        None => Err(ApiError::invalid(
            "from",
            "`from` is required: the id of the server to copy the config from",
        )),
        Some(Value::String(from)) if from.is_empty() => Err(ApiError::invalid(
            "from",
            "`from` must not be empty: give the id of the server to copy from",
        )),
        Some(Value::String(from)) if from == target => Err(ApiError::invalid(
            "from",
            "`from` is this server: name another server to copy from",
        )),
        Some(Value::String(from)) => Ok(from.clone()),
        Some(_) => Err(ApiError::invalid(
            "from",
            "`from` must be a string: the id of the server to copy from",
        )),
    }
}

/// Makes an imported or cloned config one the target server accepts, as
/// `PUT` would: the `replaced` sections are validated for the target's
/// platform (ids included, whatever platform the config came from). With
/// `drop_foreign_ids`, ids that are not the target platform's are replaced
/// by the target's own (`current`) where it has a valid one, else cleared,
/// each one reported. Returns the warnings for the report, or every
/// problem found.
fn fit_to_target(
    sections: &mut Sections,
    current: &Sections,
    replaced: &[SectionName],
    platform: Platform,
    drop_foreign_ids: bool,
) -> Result<Vec<String>, Vec<FieldError>> {
    let dropped = if drop_foreign_ids {
        sections.drop_foreign_ids_keeping(platform, current)
    } else {
        Vec::new()
    };
    let errors: Vec<FieldError> = replaced
        .iter()
        .flat_map(|name| sections.validate_section(*name, platform))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    // An id that cannot move keeps the target's own where it had a valid
    // one (see `drop_foreign_ids_keeping`), else is cleared.
    let cleared = dropped.iter().map(|d| match &d.kept {
        Some(kept) => format!(
            "{}: kept this server's `{kept}`: {}",
            d.error.path, d.error.message
        ),
        None => format!("{}: cleared: {}", d.error.path, d.error.message),
    });
    // Ids of the right shape still name channels and roles of another server
    // until the structure snapshots can check them: say so, once per id.
    let kept = sections
        .id_fields()
        .into_iter()
        .filter(|(path, _)| replaced.iter().any(|name| path.starts_with(name.as_str())))
        // The target's own ids, kept in place of foreign ones, are its own.
        .filter(|(path, id)| *id != current_id(current, path))
        .map(|(path, id)| {
            format!("{path}: `{id}` was kept without checking that it exists on this server")
        });
    Ok(cleared.chain(kept).collect())
}
