//! One delivery attempt: the signed request to the endpoint, and what its
//! answer (or its absence) means for the delivery: delivered, retried when,
//! or failed.

use std::time::Duration;

use modctl_types::signing::{self, SigningKey};
use modctl_types::webhooks::DeliveryState;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, RETRY_AFTER};

use super::{Deliverer, MAX_RETRY_AFTER, SCHEDULE, guard};
use crate::store::webhooks::{Due, Outcome};

/// What one attempt came to.
#[derive(Debug, Clone)]
pub(super) enum Sent {
    /// The endpoint answered.
    Answered {
        status: StatusCode,
        retry_after: Option<i64>,
    },
    /// No answer: connection refused, a timeout (`timed_out`, which the
    /// endpoint's breaker counts).
    Transport { error: String, timed_out: bool },
    /// Not sent, and sending again will not help by itself.
    Refused(String),
}

/// The Standard Webhooks headers, named once rather than parsed per request.
const WEBHOOK_ID: HeaderName = HeaderName::from_static("webhook-id");
const WEBHOOK_TIMESTAMP: HeaderName = HeaderName::from_static("webhook-timestamp");
const WEBHOOK_SIGNATURE: HeaderName = HeaderName::from_static("webhook-signature");

/// Posts `delivery` to `url` (its endpoint's URL, checked by the caller).
pub(super) async fn send(
    deliverer: &Deliverer,
    url: &reqwest::Url,
    delivery: &Due,
    keys: &[SigningKey],
    now: i64,
) -> Sent {
    let signature = signing::header(keys, &delivery.event_id, now, delivery.payload.as_bytes());
    let response = deliverer
        .http
        .post(url.clone())
        .header(CONTENT_TYPE, "application/json")
        .header(WEBHOOK_ID, &delivery.event_id)
        .header(WEBHOOK_TIMESTAMP, now.to_string())
        .header(WEBHOOK_SIGNATURE, signature)
        .body(delivery.payload.clone())
        .send()
        .await;
    match response {
        Ok(response) => Sent::Answered {
            status: response.status(),
            retry_after: retry_after(response.headers(), now),
        },
        Err(e) if refused_by_guard(&e) => Sent::Refused(error_chain(&e)),
        Err(e) => Sent::Transport {
            error: error_chain(&e),
            timed_out: e.is_timeout(),
        },
    }
}

/// Whether the guarded resolver refused the host (see [`guard::InternalAddress`]).
fn refused_by_guard(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(err);
    while let Some(e) = source {
        if e.is::<guard::InternalAddress>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// An error with its sources: reqwest's own message rarely says why.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// `Retry-After` in seconds from `now`: delta-seconds or an HTTP date.
fn retry_after(headers: &HeaderMap, now: i64) -> Option<i64> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    let seconds = match value.parse::<i64>() {
        Ok(seconds) => seconds,
        Err(_) => jiff::fmt::rfc2822::DateTimeParser::new()
            .parse_timestamp(value)
            .ok()?
            .as_second()
            .saturating_sub(now),
    };
    Some(seconds.clamp(0, MAX_RETRY_AFTER))
}

/// The record of attempt `number` that ended as `sent` at `now`.
pub(super) fn outcome_of(sent: &Sent, number: u32, now: i64, took: Duration) -> Outcome {
    let (status, error, retry, wait) = match sent {
        Sent::Answered { status, .. } if status.is_success() => (Some(*status), None, false, None),
        Sent::Answered {
            status,
            retry_after,
        } => {
            let retry = status.is_server_error() || *status == StatusCode::TOO_MANY_REQUESTS;
            let error = if *status == StatusCode::GONE {
                "the endpoint answered 410 Gone: webhooks were turned off for this server".into()
            } else if status.is_redirection() {
                format!("the endpoint answered {status}; redirects are not followed")
            } else {
                format!("the endpoint answered {status}")
            };
            (Some(*status), Some(error), retry, *retry_after)
        }
        Sent::Transport { error, .. } => (None, Some(error.clone()), true, None),
        Sent::Refused(e) => (None, Some(e.clone()), false, None),
    };
    let (state, next) = match (status, retry) {
        (Some(s), _) if s.is_success() => (DeliveryState::Delivered, None),
        (Some(StatusCode::GONE), _) => (DeliveryState::Disabled, None),
        (_, true) => match SCHEDULE.get(number as usize) {
            Some(&delay) => {
                let delay = delay + jitter(delay);
                (
                    DeliveryState::Pending,
                    Some(now + wait.map_or(delay, |w| w.max(delay))),
                )
            }
            None => (DeliveryState::Failed, None),
        },
        _ => (DeliveryState::Failed, None),
    };
    Outcome {
        at: now,
        status: status.map(|s| s.as_u16()),
        error,
        duration_ms: took.as_millis().try_into().unwrap_or(u64::MAX),
        state,
        next_attempt_at: next,
    }
}

/// Up to a tenth of `delay` more, so that deliveries failing together (an
/// endpoint down) do not all come back in the same second.
fn jitter(delay: i64) -> i64 {
    let tenth = delay / 10;
    if tenth == 0 {
        return 0;
    }
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the OS random generator is available");
    (u64::from_le_bytes(bytes) % (tenth as u64 + 1)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(code: u16, retry_after: Option<i64>) -> Sent {
        Sent::Answered {
            status: StatusCode::from_u16(code).unwrap(),
            retry_after,
        }
    }

    #[test]
    fn retries_follow_the_schedule_then_fail() {
        let now = 1_000;
        for (number, delay) in SCHEDULE.iter().enumerate().skip(1) {
            let o = outcome_of(&answered(500, None), number as u32, now, Duration::ZERO);
            assert_eq!(o.state, DeliveryState::Pending);
            let next = o.next_attempt_at.unwrap() - now;
            assert!(
                (*delay..=delay + delay / 10).contains(&next),
                "{number}: {next}"
            );
        }
        let last = outcome_of(&answered(503, None), 8, now, Duration::ZERO);
        assert_eq!(
            (last.state, last.next_attempt_at),
            (DeliveryState::Failed, None)
        );
    }

    #[test]
    fn answers_decide_the_state() {
        let at = |sent: &Sent| outcome_of(sent, 1, 0, Duration::ZERO).state;
        assert_eq!(at(&answered(204, None)), DeliveryState::Delivered);
        assert_eq!(at(&answered(410, None)), DeliveryState::Disabled);
        assert_eq!(at(&answered(429, None)), DeliveryState::Pending);
        assert_eq!(at(&answered(400, None)), DeliveryState::Failed);
        assert_eq!(at(&answered(302, None)), DeliveryState::Failed);
        assert_eq!(
            at(&Sent::Transport {
                error: "refused".into(),
                timed_out: false
            }),
            DeliveryState::Pending
        );
        assert_eq!(at(&Sent::Refused("internal".into())), DeliveryState::Failed);
        let later = outcome_of(&answered(429, Some(120)), 1, 0, Duration::ZERO);
        assert_eq!(later.next_attempt_at, Some(120));
    }

    #[test]
    fn retry_after_takes_seconds_or_a_date() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "30".parse().unwrap());
        assert_eq!(retry_after(&headers, 0), Some(30));
        headers.insert(
            RETRY_AFTER,
            "Thu, 01 Jan 1970 00:01:40 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&headers, 40), Some(60));
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers, 0), None);
    }
}
