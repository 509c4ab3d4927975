//! The decoders: pure functions from each platform's payloads into
//! [`super::Event`]s, one module per platform. No I/O, no clock (the caller
//! passes the time of receipt where the platform gives none), no store: what
//! a payload means is decided here, what to do about it by the consumers.
//!
//! Each payload is read into typed structs (twilight-model's types for
//! Discord), where a field the model needs and the platform always sends is
//! required: a missing one is an error for that payload alone
//! ([`crate::platform::PlatformError::Invalid`], naming the field), which the
//! transport logs and skips.

pub mod discord;
pub mod slack;
pub mod telegram;

use std::fmt::Display;

use serde::Deserialize;
use serde_json::error::Category;

use crate::platform::{PlatformError, PlatformResult};

/// `json` read as `T`. Read plainly first; only a payload that fails is read
/// again with its path tracked, so the error names the field (tracking the
/// path, or going through a `serde_json::Value`, costs every payload: the
/// decoders read tens of thousands a second).
pub(crate) fn typed<'de, T: Deserialize<'de>>(
    json: &'de [u8],
    what: &dyn Display,
) -> PlatformResult<T> {
    serde_json::from_slice(json).or_else(|plain| {
        if plain.classify() != Category::Data {
            return Err(PlatformError::Invalid(format!(
                "the {what} is not JSON: {plain}"
            )));
        }
        let mut reader = serde_json::Deserializer::from_slice(json);
        serde_path_to_error::deserialize(&mut reader)
            .map_err(|e| PlatformError::Invalid(format!("unexpected {what}: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Message {
        #[allow(dead_code)]
        author: Author,
    }

    #[derive(Debug, Deserialize)]
    struct Author {
        #[allow(dead_code)]
        id: u64,
    }

    fn read(json: &str) -> PlatformResult<Message> {
        typed(json.as_bytes(), &"message from X")
    }

    fn invalid(json: &str) -> String {
        match read(json).unwrap_err() {
            PlatformError::Invalid(text) => text,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_payload_that_fails_names_its_field_or_says_it_is_not_json() {
        assert!(read(r#"{"author": {"id": 1}}"#).is_ok());
        let missing = invalid(r#"{"author": {}}"#);
        assert_eq!(
            missing,
            "unexpected message from X: author: missing field `id` at line 1 column 13"
        );
        let wrong = invalid(r#"{"author": {"id": "x"}}"#);
        assert!(
            wrong.starts_with("unexpected message from X: author.id: invalid type"),
            "{wrong}"
        );
        let broken = invalid(r#"{"author": "#);
        assert!(
            broken.starts_with("the message from X is not JSON: EOF"),
            "{broken}"
        );
        let trailing = invalid(r#"{"author": {"id": 1}} trailing"#);
        assert!(trailing.contains("trailing characters"), "{trailing}");
    }
}
