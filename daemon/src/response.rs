//! JSON response bodies, serialized without growing a buffer per response.
//!
//! axum's `Json` serializes into a fresh 128-byte buffer that doubles as it
//! fills: a page of 50 cases (about 25 KiB) is reallocated and copied eight
//! times, which cost more than reading the cases from SQLite. [`Json`]
//! serializes into a buffer kept per thread instead, which has long reached
//! the size of the largest responses, then copies the bytes once into an
//! allocation of exactly their size for the response body.

use std::cell::RefCell;

use axum::body::Bytes;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::ApiError;

/// Buffers larger than this are not kept for the next response, so one
/// unusually large response does not pin its memory to the thread.
const KEPT_BUFFER_BYTES: usize = 1024 * 1024;

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A JSON response body (`application/json`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match to_bytes(&self.0) {
            Ok(bytes) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                bytes,
            )
                .into_response(),
            Err(e) => ApiError::Internal(anyhow::anyhow!("cannot serialize a response: {e}"))
                .into_response(),
        }
    }
}

/// `value` as JSON in an allocation of exactly its size.
pub fn to_bytes<T: Serialize>(value: &T) -> serde_json::Result<Bytes> {
    BUFFER.with_borrow_mut(|buffer| {
        buffer.clear();
        let written = serde_json::to_writer(&mut *buffer, value);
        let bytes = written.map(|()| Bytes::copy_from_slice(buffer));
        if buffer.capacity() > KEPT_BUFFER_BYTES {
            *buffer = Vec::new();
        }
        bytes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_exact_and_the_buffer_is_reused() {
        let big: Vec<u32> = (0..10_000).collect();
        let first = to_bytes(&big).unwrap();
        assert_eq!(first.as_ref(), serde_json::to_vec(&big).unwrap().as_slice());
        let small = to_bytes(&[1, 2, 3]).unwrap();
        assert_eq!(small.as_ref(), b"[1,2,3]");
        let kept = BUFFER.with_borrow(|buffer| buffer.capacity());
        assert!(
            kept >= first.len(),
            "the buffer keeps its size for the next response"
        );
    }

    #[test]
    fn a_very_large_body_does_not_stay_in_the_thread() {
        let huge = "x".repeat(KEPT_BUFFER_BYTES + 1);
        assert_eq!(to_bytes(&huge).unwrap().len(), huge.len() + 2);
        assert_eq!(BUFFER.with_borrow(|buffer| buffer.capacity()), 0);
    }
}
