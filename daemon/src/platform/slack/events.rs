//! The Slack Events API as a source of activity: verifying a request with the
//! app's signing secret, and decoding its body into what the daemon counts.
//!
//! Slack signs each request: `X-Slack-Signature: v0=<hex HMAC-SHA256>` over
//! `v0:{X-Slack-Request-Timestamp}:{raw body}`. A request older than
//! [`MAX_AGE_SECS`] is refused whatever its signature, so a captured request
//! cannot be replayed later; a replay within that window is caught by its
//! `event_id` ([`crate::receive::hooks`]).

use hmac::{Hmac, Mac};
use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;
use serde::Deserialize;
use serde_json::Value;
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::platform::PlatformResult;
use crate::platform::structure::payload;
use crate::store::activity::ActivityEvent;

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

/// A verified request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Slack checks the request URL: answer the challenge.
    UrlVerification {
        /// Echoed back as is.
        challenge: String,
    },
    /// An event; `event` is `None` when it is not one the daemon counts.
    Event {
        /// The workspace it happened in.
        team_id: String,
        /// Slack's id of the event, the same on each retry.
        event_id: String,
        /// What it counts for.
        event: Option<ActivityEvent>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Envelope {
    UrlVerification {
        challenge: String,
    },
    EventCallback {
        team_id: String,
        event_id: String,
        event_time: i64,
        event: Value,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
struct Message {
    channel: String,
    /// Absent for bot and system messages, which carry a subtype.
    #[serde(default)]
    user: Option<String>,
    #[serde(default)]
    subtype: Option<String>,
    #[serde(default)]
    bot_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct MemberJoinedChannel {
    user: String,
    channel: String,
}

#[derive(Debug, Deserialize)]
struct TeamJoin {
    user: SlackUser,
}

#[derive(Debug, Deserialize)]
struct SlackUser {
    id: String,
    #[serde(default)]
    is_bot: bool,
}

/// Decodes a verified request body.
///
/// Counted: `message` by a member (no subtype, no `bot_id`) per channel;
/// `member_joined_channel` as a join into that channel; `team_join` as a
/// join of the workspace. The event's time is Slack's `event_time`.
pub fn decode(body: &[u8]) -> PlatformResult<Option<Request>> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        crate::platform::PlatformError::Invalid(format!("the body is not JSON: {e}"))
    })?;
    let envelope: Envelope = payload(value, "Events API request from Slack")?;
    let (team_id, event_id, event_time, event) = match envelope {
        Envelope::UrlVerification { challenge } => {
            return Ok(Some(Request::UrlVerification { challenge }));
        }
        Envelope::EventCallback {
            team_id,
            event_id,
            event_time,
            event,
        } => (team_id, event_id, event_time, event),
        Envelope::Other => return Ok(None),
    };
    let at = Timestamp::from_second(event_time).map_err(|_| {
        crate::platform::PlatformError::Invalid(format!(
            "unexpected Events API request from Slack: event_time {event_time} is not a time"
        ))
    })?;
    let counted = |kind, user_id: String, channel_id: Option<String>| {
        Some(ActivityEvent {
            server_id: team_id.as_str().into(),
            event_id: Some(format!("slack:{event_id}")),
            kind,
            user_id,
            channel_id,
            at,
            minutes: 0,
        })
    };
    let kind = event
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let counted = match kind {
        "message" => {
            let m: Message = payload(event, "message event from Slack")?;
            match (m.user, m.subtype, m.bot_id) {
                (Some(user), None, None) => counted(ActivityKind::Message, user, Some(m.channel)),
                _ => None,
            }
        }
        "member_joined_channel" => {
            let m: MemberJoinedChannel = payload(event, "member_joined_channel event from Slack")?;
            counted(ActivityKind::Join, m.user, Some(m.channel))
        }
        "team_join" => {
            let m: TeamJoin = payload(event, "team_join event from Slack")?;
            if m.user.is_bot {
                None
            } else {
                counted(ActivityKind::Join, m.user.id, None)
            }
        }
        _ => None,
    };
    Ok(Some(Request::Event {
        team_id,
        event_id,
        event: counted,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

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

    fn callback(event: Value) -> Vec<u8> {
        json!({"type": "event_callback", "team_id": "T1", "event_id": "Ev1",
               "event_time": 1_531_420_600, "event": event})
        .to_string()
        .into_bytes()
    }

    #[test]
    fn messages_joins_and_challenges_are_decoded() {
        let challenge = json!({"type": "url_verification", "token": "t", "challenge": "abc"});
        assert_eq!(
            decode(challenge.to_string().as_bytes()).unwrap(),
            Some(Request::UrlVerification {
                challenge: "abc".into()
            })
        );
        let message = decode(&callback(
            json!({"type": "message", "channel": "C1", "user": "U1", "ts": "1.2", "text": "hi"}),
        ))
        .unwrap();
        let Some(Request::Event {
            team_id,
            event_id,
            event: Some(event),
        }) = message
        else {
            panic!("{message:?}")
        };
        assert_eq!((team_id.as_str(), event_id.as_str()), ("T1", "Ev1"));
        assert_eq!(
            (&*event.server_id, event.kind, event.user_id.as_str()),
            ("T1", ActivityKind::Message, "U1")
        );
        assert_eq!(event.channel_id.as_deref(), Some("C1"));
        assert_eq!(event.at.as_second(), 1_531_420_600);

        let joined = decode(&callback(
            json!({"type": "member_joined_channel", "user": "U2", "channel": "C1"}),
        ))
        .unwrap();
        assert!(matches!(
            joined,
            Some(Request::Event {
                event: Some(ActivityEvent {
                    kind: ActivityKind::Join,
                    ..
                }),
                ..
            })
        ));
        let team = decode(&callback(
            json!({"type": "team_join", "user": {"id": "U3"}}),
        ))
        .unwrap();
        assert!(matches!(
            team,
            Some(Request::Event {
                event: Some(ActivityEvent {
                    kind: ActivityKind::Join,
                    channel_id: None,
                    ..
                }),
                ..
            })
        ));
    }

    #[test]
    fn bot_and_subtype_messages_are_not_counted_and_missing_fields_refused() {
        for event in [
            json!({"type": "message", "channel": "C1", "subtype": "bot_message", "bot_id": "B1"}),
            json!({"type": "message", "channel": "C1", "user": "U1", "bot_id": "B1"}),
            json!({"type": "message", "channel": "C1", "user": "U1", "subtype": "channel_join"}),
            json!({"type": "reaction_added", "user": "U1"}),
        ] {
            let decoded = decode(&callback(event.clone())).unwrap();
            assert!(
                matches!(decoded, Some(Request::Event { event: None, .. })),
                "{event}: {decoded:?}"
            );
        }
        let err = decode(&callback(json!({"type": "message", "user": "U1"}))).unwrap_err();
        assert!(err.to_string().contains("channel"), "{err}");
        let no_id =
            json!({"type": "event_callback", "team_id": "T1", "event_time": 1, "event": {}});
        let err = decode(no_id.to_string().as_bytes()).unwrap_err();
        assert!(err.to_string().contains("event_id"), "{err}");
    }
}
