//! Extractors whose rejections speak our error body.
//!
//! axum's own `Json`, `Query` and `Path` reject with plain-text bodies; these
//! wrappers turn every rejection into an [`ApiError`] with the right status
//! (400 malformed, 413 too large, 415 not JSON) and a message that names what
//! to fix.
//!
//! [`ApiJson`] also refuses an object that repeats a key, whatever `T` is:
//! typed bodies would refuse it anyway, but `serde_json::Value` (config
//! sections, envelopes) silently keeps the last one, and a body whose meaning
//! depends on which duplicate wins is a mistake worth naming.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use http_body_util::BodyExt as _;
use serde::de::{DeserializeOwned, DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};

use crate::error::ApiError;

/// The largest request body the daemon reads. Config envelopes are the biggest
/// bodies in the API and stay far below this.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The largest body of `POST /servers/{id}/activity` (10,000 events of a
/// few hundred bytes each); only that route reads past [`MAX_BODY_BYTES`].
pub const MAX_BATCH_BODY_BYTES: usize = 4 * 1024 * 1024;

/// A JSON request body of at most `LIMIT` bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T, const LIMIT: usize = MAX_BODY_BYTES>(pub T);

impl<S, T, const LIMIT: usize> FromRequest<S> for ApiJson<T, LIMIT>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        // axum's `Json` checks the same, but reads the body only to parse it;
        // we need the bytes twice (duplicate keys, then `T`).
        require_json(req.headers())?;
        if LIMIT != MAX_BODY_BYTES {
            // The router's limit is for every other route: read this body
            // with its own.
            return read_json(req, LIMIT).await.map(ApiJson);
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| json_rejection(JsonRejection::from(e)))?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Refuses (415) a request whose body is not declared JSON.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    if is_json_content_type(headers) {
        Ok(())
    } else {
        Err(not_json())
    }
}

/// The body's declared `Content-Length`, if it has a valid one.
pub fn declared_length(headers: &HeaderMap) -> Option<usize> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// The 413 of a body over `limit` bytes.
pub fn too_large(limit: usize) -> ApiError {
    ApiError::PayloadTooLarge(format!(
        "request body is too large: the limit is {limit} bytes"
    ))
}

/// Reads a JSON body of at most `limit` bytes into `T`, holding the body
/// only until `T` is parsed.
///
/// For the large bodies (activity batches, up to 4 MiB): the body is
/// copied once, from the chunks as they arrive into one buffer sized by
/// its `Content-Length` (axum's `to_bytes` keeps the chunks until the end,
/// then copies them into a second buffer: twice the body at once), and
/// that buffer is dropped as soon as `T` is parsed.
pub async fn read_json<T: DeserializeOwned>(req: Request, limit: usize) -> Result<T, ApiError> {
    require_json(req.headers())?;
    let declared = declared_length(req.headers());
    if declared.is_some_and(|length| length > limit) {
        return Err(too_large(limit));
    }
    let mut body = req.into_body();
    let mut bytes = Vec::with_capacity(declared.unwrap_or(0));
    while let Some(frame) = body.frame().await {
        // A body that stalls fails here; the server answers 408 for it
        // whatever this says (see `crate::http`).
        let frame =
            frame.map_err(|e| ApiError::BadRequest(format!("cannot read request body: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > limit {
                return Err(too_large(limit));
            }
            bytes.extend_from_slice(&data);
        }
    }
    parse_json(&bytes)
}

/// Reads and drops what is left of `body`, a chunk at a time, up to
/// `limit` bytes: for a request refused before its body was read, so the
/// client, which may still be sending it, gets the answer (a connection
/// closed with unread data is reset, and the answer can be lost with it).
pub async fn discard_body(body: axum::body::Body, limit: usize) {
    let mut body = body;
    let mut read = 0;
    while let Some(Ok(frame)) = body.frame().await {
        read += frame.data_ref().map_or(0, Bytes::len);
        if read > limit {
            break;
        }
    }
}

/// Parses a JSON body: refuses repeated keys, then `T`.
fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    refuse_duplicate_keys(bytes)?;
    // serde_json alone on the way in; axum's parse, which tracks the
    // path to every value to name it in an error, only to explain one.
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(_) => match axum::Json::<T>::from_bytes(bytes) {
            Err(rejection) => Err(json_rejection(rejection)),
            Ok(axum::Json(value)) => Ok(value),
        },
    }
}

/// `application/json`, or any `application/*+json`, parameters ignored.
fn is_json_content_type(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or_default().trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    let subtype = subtype.to_ascii_lowercase();
    kind.eq_ignore_ascii_case("application") && (subtype == "json" || subtype.ends_with("+json"))
}

fn not_json() -> ApiError {
    ApiError::UnsupportedMediaType(
        "request body must be JSON: send `Content-Type: application/json`".into(),
    )
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => not_json(),
        JsonRejection::JsonSyntaxError(e) => ApiError::BadRequest(format!(
            "request body is not valid JSON: {}",
            source_message(&e)
        )),
        JsonRejection::JsonDataError(e) => {
            let error =
                ApiError::BadRequest(format!("invalid request body: {}", source_message(&e)));
            match json_path(&e) {
                Some(path) => error.at(path),
                None => error,
            }
        }
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(
            format!("request body is too large: the limit is {MAX_BODY_BYTES} bytes"),
        ),
        other => ApiError::BadRequest(format!("cannot read request body: {}", other.body_text())),
    }
}

/// The path to the value a typed body failed at (`events[3].at`), when it
/// is not the whole body (a missing field fails at the object that lacks it:
/// `.` for the top level, which names no field).
fn json_path(err: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut source = Some(err);
    while let Some(current) = source {
        if let Some(e) = current.downcast_ref::<serde_path_to_error::Error<serde_json::Error>>() {
            let path = e.path().to_string();
            return (path != ".").then_some(path);
        }
        source = current.source();
    }
    None
}

/// The query parameter a typed query failed at (`limit`), if one.
fn query_parameter(err: &(dyn std::error::Error + 'static)) -> Option<String> {
    type QueryError = serde_path_to_error::Error<serde_urlencoded::de::Error>;
    let mut source = Some(err);
    while let Some(current) = source {
        if let Some(e) = current.downcast_ref::<QueryError>() {
            let path = e.path().to_string();
            return (path != ".").then_some(path);
        }
        source = current.source();
    }
    None
}

/// serde_json's message without axum's "Failed to deserialize..." wrapper,
/// e.g. "user_id: invalid type: integer `5`, expected a string at line 1 column 13".
fn source_message(err: &dyn std::error::Error) -> String {
    let mut source = err;
    while let Some(next) = source.source() {
        source = next;
    }
    source.to_string()
}

/// A key repeated within one JSON object, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
struct DuplicateKey {
    key: String,
    /// Path of the second occurrence, e.g. `sections.strikes.ladder[0].at`.
    path: String,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path == self.key {
            write!(f, "duplicate key `{}` in the top-level object", self.key)
        } else {
            write!(f, "duplicate key `{}` at {}", self.key, self.path)
        }
    }
}

/// Refuses a body whose objects repeat a key (400, naming the key and where
/// it is). For every JSON body the daemon reads, the platforms' hooks
/// included: a body that means one thing to the check that picks a secret
/// and another to the parse that follows is how a request reaches what its
/// signer does not own.
pub fn refuse_duplicate_keys(bytes: &[u8]) -> Result<(), ApiError> {
    match first_duplicate_key(bytes) {
        Some(duplicate) => Err(ApiError::BadRequest(format!(
            "request body is not valid JSON: {duplicate}"
        ))),
        None => Ok(()),
    }
}

/// The first repeated key in `bytes`. `None` when there is none, and also
/// when `bytes` is not JSON at all: the typed parse that follows says why,
/// with serde_json's line and column.
///
/// Every body goes through this before its typed parse, and a batch of
/// activity is 10,000 objects, so the walk allocates nothing per value: keys
/// are borrowed from `bytes` where they have no escapes, the keys of the
/// objects being walked share one stack, and the path is only spelled out
/// for the duplicate found.
fn first_duplicate_key(bytes: &[u8]) -> Option<DuplicateKey> {
    let mut found = None;
    let walk = Walk {
        path: &mut Vec::new(),
        keys: &mut Vec::new(),
        found: &mut found,
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // Its error is either our stop signal or a syntax error: both leave `found` as it should be.
    let _ = walk.deserialize(&mut deserializer);
    found
}

/// One step of the path to a value.
enum Step {
    /// Into an array, at this index.
    Index(usize),
    /// Into an object, at the key this many keys up the shared stack.
    Key(usize),
}

/// Keys of an object up to which a linear search beats hashing.
const LINEAR_KEYS: usize = 32;

/// Visits every value of a JSON document, keeping the path to it, and stops
/// at the first object that repeats a key. serde_json's recursion limit
/// bounds the depth.
struct Walk<'a, 'de> {
    path: &'a mut Vec<Step>,
    /// The keys of every object on the path, outermost first.
    keys: &'a mut Vec<Cow<'de, str>>,
    found: &'a mut Option<DuplicateKey>,
}

impl<'de> Walk<'_, 'de> {
    fn child(&mut self) -> Walk<'_, 'de> {
        Walk {
            path: self.path,
            keys: self.keys,
            found: self.found,
        }
    }

    /// The path to the current value, e.g. `sections.strikes.ladder[0].at`.
    fn spell_path(&self) -> String {
        let mut spelled = String::new();
        for step in self.path.iter() {
            match step {
                Step::Index(i) => spelled.push_str(&format!("[{i}]")),
                Step::Key(k) => {
                    if !spelled.is_empty() {
                        spelled.push('.');
                    }
                    spelled.push_str(&self.keys[*k]);
                }
            }
        }
        spelled
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_, 'de> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// An object key, borrowed from the body unless it has escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_owned()))
    }
}

impl<'de> Visitor<'de> for Walk<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        for index in 0.. {
            self.path.push(Step::Index(index));
            let more = seq.next_element_seed(self.child())?;
            self.path.pop();
            if more.is_none() {
                break;
            }
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        // This object's keys are `keys[first..]`; past `LINEAR_KEYS` of them
        // they are also in a set.
        let first = self.keys.len();
        let mut many: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(key) = map.next_key_seed(Key)? {
            let repeated = match &mut many {
                Some(set) => !set.insert(key.clone()),
                None => self.keys[first..].contains(&key),
            };
            self.keys.push(key);
            let at = self.keys.len() - 1;
            if repeated {
                self.path.push(Step::Key(at));
                *self.found = Some(DuplicateKey {
                    key: self.keys[at].to_string(),
                    path: self.spell_path(),
                });
                return Err(A::Error::custom("duplicate key"));
            }
            if many.is_none() && at - first == LINEAR_KEYS {
                many = Some(self.keys[first..].iter().cloned().collect());
            }
            self.path.push(Step::Key(at));
            map.next_value_seed(self.child())?;
            self.path.pop();
        }
        self.keys.truncate(first);
        Ok(())
    }
}

/// Query string parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| ApiQuery(q.0))
            .map_err(|rejection: QueryRejection| {
                let error = ApiError::BadRequest(format!(
                    "invalid query string: {}",
                    source_message(&rejection)
                ));
                match query_parameter(&rejection) {
                    Some(name) => error.at(name),
                    None => error,
                }
            })
    }
}

/// Path parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| ApiPath(p.0))
            .map_err(|rejection: PathRejection| {
                ApiError::BadRequest(format!("invalid path: {}", source_message(&rejection)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(json: &str) -> Option<String> {
        first_duplicate_key(json.as_bytes()).map(|d| d.to_string())
    }

    #[test]
    fn repeated_keys_are_found_with_their_path() {
        assert_eq!(
            duplicate(r#"{"require_reason":false,"require_reason":true}"#).as_deref(),
            Some("duplicate key `require_reason` in the top-level object")
        );
        assert_eq!(
            duplicate(r#"{"sections":{"moderation":{"a":1,"require_reason":false,"require_reason":true}}}"#)
                .as_deref(),
            Some("duplicate key `require_reason` at sections.moderation.require_reason")
        );
        assert_eq!(
            duplicate(r#"{"ladder":[{"at":1},{"at":2,"action":"ban","at":3}]}"#).as_deref(),
            Some("duplicate key `at` at ladder[1].at")
        );
        // A key written with an escape is the same key.
        assert_eq!(
            duplicate(r#"{"a":[{"b":1}],"x":{"key":1,"k\u0065y":2}}"#).as_deref(),
            Some("duplicate key `key` at x.key")
        );
        // An object past the linear search's length.
        let keys: Vec<String> = (0..40).map(|i| format!(r#""k{i}":{i}"#)).collect();
        let big = format!(r#"{{"list":[{{{}, "k3": 0}}]}}"#, keys.join(","));
        assert_eq!(
            duplicate(&big).as_deref(),
            Some("duplicate key `k3` at list[0].k3")
        );
        let late = format!(r#"{{{}, "k39": 0}}"#, keys.join(","));
        assert_eq!(
            duplicate(&late).as_deref(),
            Some("duplicate key `k39` in the top-level object")
        );
    }

    #[test]
    fn the_same_key_in_different_objects_is_fine() {
        for json in [
            r#"{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}"#,
            r#"[1, "two", null, true, 2.5, -3, {"x": [[], {}]}]"#,
            r#""just a string""#,
            // Not JSON: left to the typed parse, which reports it with a position.
            r#"{"a": "#,
        ] {
            assert_eq!(duplicate(json), None, "{json}");
        }
    }

    #[test]
    fn json_content_types() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, value.parse().unwrap());
            is_json_content_type(&headers)
        };
        assert!(with("application/json"));
        assert!(with("application/json; charset=utf-8"));
        assert!(with("Application/JSON"));
        assert!(with("application/merge-patch+json"));
        assert!(!with("text/plain"));
        assert!(!with("application/jsonx"));
        assert!(!is_json_content_type(&HeaderMap::new()));
    }
}
