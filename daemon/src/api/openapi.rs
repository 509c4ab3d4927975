//! The OpenAPI 3.1 document of the API, generated from the code.
//!
//! Nothing here is written by hand twice. Each handler carries a
//! `#[utoipa::path]` attribute with its path, parameters, body, success
//! response and the errors only it can answer; [`super::routes()`] registers
//! handlers with utoipa-axum's `routes!`, which builds the axum route and the
//! document's operation from the same attribute, so the router and the
//! document cannot list different paths or methods. Schemas come from the
//! wire types in `modctl-types` (its `openapi` feature derives them).
//!
//! What every operation shares is added by `SharedResponses` from facts
//! the operation already states, rather than repeated on every handler:
//!
//! - a `security` requirement (`bearer` with the scope as its role) means the
//!   key is checked: `401` and `403`, the `x-required-scope` extension and a
//!   sentence naming the scope;
//! - a `{id}` in the path means a server is looked up: `404`, and `503`
//!   while its actions left pending by a stopped daemon are being settled;
//! - parameters mean `400`; a request body means `400`, `408`, `413`, `415`;
//! - every request can meet the HTTP limits (`414`, `431`) and `500`.
//!
//! The document is served at `GET /api/v1/openapi.json` and committed as
//! `docs/openapi.json`; a test fails when the two differ.

use std::borrow::Cow;
use std::sync::LazyLock;

use axum::body::Bytes;
use axum::http::header;
use axum::response::IntoResponse;
use modctl_types::ErrorBody;
use modctl_types::config::{
    Antinuke, Automod, General, Jail, Logging, Moderation, Strikes, Webhooks, Welcome,
};
use serde_json::{Value, json};
use utoipa::openapi::path::{Operation, Parameter, ParameterIn};
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{AnyOfBuilder, SchemaType, Type};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, HeaderBuilder, OpenApi, Ref, RefOr, Schema};
use utoipa::{IntoParams, Modify, OpenApi as _, PartialSchema, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{AppState, extract, http};

/// The name of the bearer security scheme in the document.
pub const BEARER: &str = "bearer";

/// The document as served, serialized once.
static DOCUMENT_JSON: LazyLock<Bytes> = LazyLock::new(|| Bytes::from(document_json()));

/// The whole document, typed (what tests inspect); [`document_json`] is what
/// is served.
pub fn document() -> OpenApi {
    let mut document = OpenApiRouter::<AppState>::with_openapi(ApiDoc::openapi())
        .nest("/api/v1", super::routes())
        .into_openapi();
    // After the routes are in: the modifier works on their operations.
    SharedResponses.modify(&mut document);
    document
}

/// Rewrites every `description` (taken from the doc comments of the wire
/// types, which are written for rustdoc) for readers of an API reference:
/// doctests are cut, and intra-doc links (``[`Sections`]``) become plain code.
fn for_api_readers(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match item {
                    Value::String(text) if key == "description" => {
                        *text = readable(text);
                    }
                    other => for_api_readers(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(for_api_readers),
        _ => {}
    }
}

fn readable(description: &str) -> String {
    let prose = match description.find("```") {
        Some(start) => description[..start].trim_end(),
        None => description,
    };
    prose.replace("[`", "`").replace("`]", "`")
}

/// The document as served: pretty-printed JSON with a final newline, its
/// descriptions rewritten for API readers (see `for_api_readers`). These
/// are the exact bytes of the endpoint, of `modctld openapi` and of
/// `docs/openapi.json`.
pub fn document_json() -> String {
    let mut json = serde_json::to_value(document()).expect("the document serializes");
    for_api_readers(&mut json);
    let mut text = serde_json::to_string_pretty(&json).expect("JSON values serialize");
    text.push('\n');
    text
}

/// The base of the document: what is not an operation.
#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "modctl API",
        description = "The HTTP JSON API v1 of modctld, the modctl moderation daemon. \
            Every error answers `{\"error\": \"<what to fix>\", \"code\": \"<code>\"}` \
            with its status: decide on `code` (and `field`), not on the message. \
            Decisions beyond the contract are in `docs/api.md`.",
    ),
    components(schemas(
        ErrorBody,
        modctl_types::live::LiveEvent,
        modctl_types::live::Reset,
        modctl_types::live::Lagged,
        modctl_types::live::MemberJoined
    )),
    tags(
        (name = "meta", description = "The API itself: its document, health and readiness."),
        (name = "keys", description = "The calling key and its team's keys."),
        (name = "servers", description = "The servers claimed by the key's team."),
        (name = "config", description = "A server's moderation config, its export, import, clone and audit trail."),
        (name = "moderation", description = "Moderation actions and the cases, strikes and jails they record."),
        (name = "automod", description = "The automod filters: trying a message against them, and the messages they caught."),
        (name = "snapshots", description = "Structure snapshots: a server's roles, channels and settings, captured from its platform."),
        (name = "webhooks", description = "Outbound webhooks: the test event, the signing secret and the delivery log."),
        (name = "insights", description = "Community activity (batch ingestion) and the moderation and community insights."),
        (name = "lockdown", description = "Raid lockdowns: starting one by hand, ending it, and what runs."),
        (name = "events", description = "The live view: a server's events as they happen, as server-sent events."),
    )
)]
#[derive(Debug)]
pub struct ApiDoc;

/// `{id}`: a server claimed by the key's team.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ServerPath {
    /// The platform's own id of the server: a Discord guild snowflake, a
    /// Telegram chat id (e.g. `-1001234567890`) or a Slack team id (`T...`).
    pub id: String,
}

/// The body of one config section: which section is named by the
/// `{section}` path segment.
#[derive(Debug)]
pub struct AnySection;

/// Adds the schemas a schema refers to (`ToSchema::schemas`).
type CollectSchemas = fn(&mut Vec<(String, RefOr<Schema>)>);

/// The nine sections: name in the document, schema, and what it refers to.
fn section_schemas() -> [(Cow<'static, str>, RefOr<Schema>, CollectSchemas); 9] {
    fn section<T: ToSchema>() -> (Cow<'static, str>, RefOr<Schema>, CollectSchemas) {
        (T::name(), T::schema(), T::schemas)
    }
    [
        section::<General>(),
        section::<Moderation>(),
        section::<Strikes>(),
        section::<Jail>(),
        section::<Automod>(),
        section::<Logging>(),
        section::<Welcome>(),
        section::<Antinuke>(),
        section::<Webhooks>(),
    ]
}

impl PartialSchema for AnySection {
    fn schema() -> RefOr<Schema> {
        // `anyOf`, not `oneOf`: every field of a section is optional, so `{}`
        // is a valid body of all nine.
        section_schemas()
            .into_iter()
            .fold(
                AnyOfBuilder::new().description(Some(
                    "The section named by `{section}`; fields left out take their defaults.",
                )),
                |any, (name, _, _)| any.item(Ref::from_schema_name(name)),
            )
            .into()
    }
}

impl ToSchema for AnySection {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        for (name, schema, collect_referenced) in section_schemas() {
            schemas.push((name.into_owned(), schema));
            collect_referenced(schemas);
        }
    }
}

/// Adds what every operation shares; see the module header.
#[derive(Debug)]
struct SharedResponses;

impl Modify for SharedResponses {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("mdk_<key_id>_<secret>")
                    .description(Some(
                        "An API key made by `modctld key create`: \
                         `Authorization: Bearer mdk_<key_id>_<secret>`. \
                         The role of each requirement is the scope the key must hold.",
                    ))
                    .build(),
            ),
        );
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                item.get.as_mut(),
                item.put.as_mut(),
                item.post.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ];
            for operation in operations.into_iter().flatten() {
                add_shared(path, operation);
            }
        }
    }
}

/// The scope an operation's security requirement names, if it has one.
/// (`SecurityRequirement` keeps its map private; its JSON form is public.)
pub fn required_scope(operation: &Operation) -> Option<String> {
    let requirements = serde_json::to_value(operation.security.as_ref()?).ok()?;
    requirements
        .as_array()?
        .iter()
        .find_map(|requirement| requirement.get(BEARER)?.get(0)?.as_str().map(str::to_owned))
}

/// A parameter is absent or a string on the wire, never `null`; utoipa makes
/// an `Option<T>` parameter nullable as it does an `Option<T>` field.
fn not_nullable(parameter: &mut Parameter) {
    if let Some(RefOr::T(Schema::Object(object))) = parameter.schema.as_mut()
        && let SchemaType::Array(types) = &object.schema_type
    {
        let types: Vec<Type> = types
            .iter()
            .filter(|t| **t != Type::Null)
            .cloned()
            .collect();
        object.schema_type = match types.as_slice() {
            [single] => SchemaType::Type(single.clone()),
            _ => SchemaType::Array(types),
        };
    }
}

/// A path segment is never empty: `/servers//activity` does not reach the
/// route (an empty id collapses into another path), so the document says
/// so, and generated clients and the fuzzer never send one.
fn non_empty_path_segment(parameter: &mut Parameter) {
    if parameter.parameter_in == ParameterIn::Path
        && let Some(RefOr::T(Schema::Object(object))) = parameter.schema.as_mut()
        && object.schema_type == SchemaType::Type(Type::String)
        && object.min_length.is_none()
    {
        object.min_length = Some(1);
    }
}

fn add_shared(path: &str, operation: &mut Operation) {
    for parameter in operation.parameters.iter_mut().flatten() {
        if let RefOr::T(parameter) = parameter {
            not_nullable(parameter);
            non_empty_path_segment(parameter);
        }
    }
    if let Some(scope) = required_scope(operation) {
        let sentence = format!("Requires a key with scope `{scope}`.");
        operation.description = Some(match operation.description.take() {
            Some(description) => format!("{description}\n\n{sentence}"),
            None => sentence,
        });
        let extensions = operation.extensions.get_or_insert_with(Default::default);
        extensions.merge(
            utoipa::openapi::extensions::ExtensionsBuilder::new()
                .add("x-required-scope", json!(scope))
                .build(),
        );
        if let Some(response) = add_error(
            operation,
            "401",
            "The key is missing, malformed, unknown, revoked or expired.",
        ) {
            let challenge = HeaderBuilder::new()
                .schema(Some(String::schema()))
                .description(Some("Always `Bearer`."))
                .build();
            response
                .headers
                .insert("WWW-Authenticate".to_owned(), RefOr::T(challenge));
        }
        add_error(
            operation,
            "403",
            "The key lacks the scope, or the server is claimed by another team.",
        );
        add_error(
            operation,
            "429",
            "Too many requests for the key's plan, or too many failed authentications from this address; `Retry-After` says when to retry.",
        );
    }
    if path.contains("{id}") {
        add_error(operation, "404", "No server with this id is claimed.");
        add_error(
            operation,
            "503",
            &format!(
                "The server's actions left pending when the daemon last stopped are still being settled after {} s; `Retry-After` says when to retry.",
                crate::moderation::recovery::SETTLING_WAIT.as_secs()
            ),
        );
        // `/servers//activity` and `/servers/./activity` reach the daemon
        // as `/servers/activity`: the `{id}` route, which has other methods.
        add_error(
            operation,
            "405",
            "The path, with an empty or `.` segment, is another path that does not take this method; the `Allow` header lists the ones it takes.",
        );
    }
    let has_parameters = operation
        .parameters
        .as_ref()
        .is_some_and(|parameters| !parameters.is_empty());
    if has_parameters {
        add_error(
            operation,
            "400",
            "A parameter is malformed or out of bounds; the message names it.",
        );
    }
    if operation.request_body.is_some() {
        add_error(
            operation,
            "400",
            "The body is not valid JSON or fails validation; the message names the field.",
        );
        add_error(operation, "408", "The request body did not arrive in time.");
        add_error(
            operation,
            "413",
            &format!(
                "The request body is larger than {} KiB.",
                extract::MAX_BODY_BYTES / 1024
            ),
        );
        add_error(
            operation,
            "415",
            "The request body is not `application/json`.",
        );
    }
    add_error(
        operation,
        "414",
        &format!(
            "The path and query are longer than {} KiB.",
            http::MAX_URI_BYTES / 1024
        ),
    );
    add_error(
        operation,
        "431",
        &format!(
            "The request headers are larger than {} KiB.",
            http::MAX_HEADER_BYTES / 1024
        ),
    );
    add_error(
        operation,
        "500",
        "An internal error; the daemon's log has the details.",
    );
}

/// Adds an error response with `description` under `status` unless the
/// operation already documents that status (its own wording wins). Returns
/// the response when it was added.
fn add_error<'a>(
    operation: &'a mut Operation,
    status: &str,
    description: &str,
) -> Option<&'a mut Response> {
    let responses = &mut operation.responses.responses;
    if responses.contains_key(status) {
        return None;
    }
    responses.insert(status.to_owned(), RefOr::T(error_response(description)));
    match responses.get_mut(status) {
        Some(RefOr::T(response)) => Some(response),
        _ => None,
    }
}

/// A response with the error body.
pub fn error_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(ErrorBody::name())))
                .build(),
        )
        .build()
}

/// `GET /api/v1/openapi.json`
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    summary = "This document",
    description = "The OpenAPI 3.1 document of the API. Needs no key.",
    responses((status = 200, description = "The document.", content_type = "application/json", body = Object)),
)]
pub async fn serve_document() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT_JSON.clone(),
    )
}
