//! The Slack Events API as a source of events: verifying a request with the
//! app's signing secret. Its body is decoded by
//! [`crate::events::decode::slack`] once verified.
//!
//! Slack signs each request: `X-Slack-Signature: v0=<hex HMAC-SHA256>` over
//! `v0:{X-Slack-Request-Timestamp}:{raw body}`. A request older than
//! [`MAX_AGE_SECS`] is refused whatever its signature, so a captured request
//! cannot be replayed later; a replay within that window is caught by its
//! `event_id` ([`crate::receive::hooks`]).

use hmac::{Hmac, Mac};
use modctl_types::Timestamp;
use serde::Deserialize;
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// How old a signed request may be, in seconds (Slack's own advice).
pub const MAX_AGE_SECS: i64 = 5 * 60;

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A header is missing or unreadable.
    #[error("{0}")]
    Malformed(String),
    /// The timestamp is more than [`MAX_AGE_SECS`] away from now.
    #[error(
        "the request timestamp is more than 5 minutes away from the daemon's time: a replay, or a clock to fix"
    )]
    Stale,
    /// No signing secret produces this signature.
    #[error("the signature does not match the body: check the app's signing secret")]
    BadSignature,
}

/// The `v0=<hex>` signature of `body` sent at `timestamp` under `secret`.
pub fn sign(secret: &str, timestamp: &str, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(b"v0:");
    mac.update(timestamp.as_bytes());
    mac.update(b":");
    mac.update(body);
    let digest = mac.finalize().into_bytes();
    let mut hex = String::with_capacity(3 + digest.len() * 2);
    hex.push_str("v0=");
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// Checks a request's timestamp (against `now`) and signature (against each
/// of `secrets`, in constant time: the signature is compared whole, never
/// byte by byte with an early exit); the index of the secret that signed it.
/// The caller lets the request touch only what that secret's workspace owns.
pub fn verify<'a>(
    secrets: impl IntoIterator<Item = &'a str>,
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: Timestamp,
) -> Result<usize, Refused> {
    let timestamp = timestamp.ok_or_else(|| {
        Refused::Malformed("the X-Slack-Request-Timestamp header is missing".to_owned())
    })?;
    let signature = signature
        .ok_or_else(|| Refused::Malformed("the X-Slack-Signature header is missing".to_owned()))?;
    let sent: i64 = timestamp.parse().map_err(|_| {
        Refused::Malformed("X-Slack-Request-Timestamp is not a unix time in seconds".to_owned())
    })?;
    if (now.as_second() - sent).abs() > MAX_AGE_SECS {
        return Err(Refused::Stale);
    }
    let mut signed_by = None;
    for (i, secret) in secrets.into_iter().enumerate() {
        let expected = sign(secret, timestamp, body);
        if bool::from(expected.as_bytes().ct_eq(signature.as_bytes())) {
            // Two workspaces sharing a secret: the first is as good as any,
            // the caller checks the body names it.
            signed_by.get_or_insert(i);
        }
    }
    signed_by.ok_or(Refused::BadSignature)
}

/// The team a request body names, read before it is verified, only to find
/// the signing secrets to verify it with. `url_verification` names none.
pub fn team_of(body: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Team {
        team_id: Option<String>,
    }
    serde_json::from_slice::<Team>(body).ok()?.team_id
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

    fn now() -> Timestamp {
        Timestamp::from_second(1_531_420_618).unwrap()
    }

    #[test]
    fn slacks_documented_example_verifies() {
        // The example of Slack's "Verifying requests from Slack" page.
        let body = b"token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
        let signature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
        assert_eq!(sign(SECRET, "1531420618", body), signature);
        verify([SECRET], Some("1531420618"), Some(signature), body, now()).unwrap();
    }

    #[test]
    fn a_wrong_signature_an_old_or_missing_timestamp_is_refused() {
        let body = b"{}";
        let good = sign(SECRET, "1531420618", body);
        let other = sign("another secret", "1531420618", body);
        assert_eq!(
            verify([SECRET], Some("1531420618"), Some(&other), body, now()),
            Err(Refused::BadSignature)
        );
        assert_eq!(
            verify(
                ["x", SECRET],
                Some("1531420618"),
                Some(&good),
                b"{ }",
                now()
            ),
            Err(Refused::BadSignature)
        );
        assert_eq!(
            verify(["x", SECRET], Some("1531420618"), Some(&good), body, now()),
            Ok(1)
        );
        let old = (now().as_second() - MAX_AGE_SECS - 1).to_string();
        let signed_old = sign(SECRET, &old, body);
        assert_eq!(
            verify([SECRET], Some(&old), Some(&signed_old), body, now()),
            Err(Refused::Stale)
        );
        assert!(matches!(
            verify([SECRET], None, Some(&good), body, now()),
            Err(Refused::Malformed(_))
        ));
        assert_eq!(
            verify([], Some("1531420618"), Some(&good), body, now()),
            Err(Refused::BadSignature)
        );
    }
}
