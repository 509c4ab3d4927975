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
