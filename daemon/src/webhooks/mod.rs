//! Outbound webhooks (issue #11): delivering the outbox.
//!
//! Events are written by the changes that cause them ([`crate::store::webhooks`]);
//! the worker here ([`deliver_due`]) posts every due delivery, signed
//! ([`sign`]), to a URL that passed the SSRF [`guard`], and records the
//! attempt. Failures are retried on [`SCHEDULE`]; see `docs/api.md`,
//! "Webhooks (issue #11)". A tick delivers to up to [`CONCURRENT_ENDPOINTS`]
//! endpoints at once, each endpoint's deliveries one after another.

pub mod guard;
pub mod sign;

use std::sync::Arc;
use std::time::{Duration, Instant};

use modctl_types::config::WebhookEvent;
use modctl_types::webhooks::DeliveryState;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, RETRY_AFTER};

use crate::AppState;
use crate::moderation::ModerationResult;
use crate::store::webhooks::{self as outbox, Due, Outcome};
use crate::store::{StoreError, config, timestamp};

/// Seconds to wait before each attempt, counted from the failure of the one
/// before: the first is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
/// 10 h. After the last attempt fails the delivery is `failed`.
pub const SCHEDULE: [i64; 8] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/// A delivery's time limit, connection included.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// The longest `Retry-After` honoured; a bogus value cannot park a delivery
/// for months.
const MAX_RETRY_AFTER: i64 = 86_400;

/// `last_error` of a delivery dropped because webhooks were turned off.
const TURNED_OFF: &str = "webhooks were turned off for this server (or their url or secret removed) before this delivery was sent; turn them on again and redeliver it";

/// Deliveries read from the outbox at a time.
const BATCH: u32 = 200;

/// Batches one tick works through at most, so that a tick ends even while
/// events keep coming; the rest wait for the next tick, a second later.
const MAX_BATCHES: usize = 50;

/// Attempts recorded per write transaction.
const RECORD_EVERY: usize = 50;

/// Endpoints posted to at once. One endpoint's deliveries go one after
/// another, oldest first, so a receiver sees its events in order and a slow
/// one delays only its own.
const CONCURRENT_ENDPOINTS: usize = 16;

/// The delivery client and its options, shared by every tick.
#[derive(Debug, Clone)]
pub struct Deliverer {
    http: reqwest::Client,
    allow_internal: bool,
    /// Held by whoever delivers (the worker's loop or a test driving it), so
    /// no delivery is attempted twice at once.
    runner: Arc<tokio::sync::Mutex<()>>,
}

impl Deliverer {
    /// A deliverer refusing internal addresses unless `allow_internal`.
    pub fn new(allow_internal: bool) -> Self {
        let builder = reqwest::Client::builder()
            .timeout(TIMEOUT)
            // A redirect would be a request to a URL nobody checked.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("modctld-webhooks/", env!("CARGO_PKG_VERSION")));
        let builder = if allow_internal {
            builder
        } else {
            builder.dns_resolver(Arc::new(guard::GuardedResolver))
        };
        Deliverer {
            http: builder
                .build()
                .expect("the HTTP client builds with a static configuration"),
            allow_internal,
            runner: Arc::default(),
        }
    }

    /// Whether internal addresses may be reached.
    pub fn allows_internal(&self) -> bool {
        self.allow_internal
    }
}

/// The worker's tick: attempts every delivery due at the clock's now, a
/// batch at a time; returns how many it attempted. An attempt never leaves
/// its delivery due at the same `now` (a retry waits at least 5 s), so the
/// batches end.
pub async fn deliver_due(state: &AppState) -> ModerationResult<usize> {
    let _running = state.webhooks.runner.lock().await;
    let now = state.clock.now_unix();
    let mut count = 0;
    for _ in 0..MAX_BATCHES {
        let due = state
            .store
            .read(move |tx| outbox::due(tx, now, BATCH))
            .await?;
        if due.is_empty() {
            break;
        }
        count += due.len();
        deliver_batch(state, due).await?;
    }
    Ok(count)
}

/// Attempts `due`: endpoints concurrently (at most
/// [`CONCURRENT_ENDPOINTS`]), each endpoint's deliveries in order.
async fn deliver_batch(state: &AppState, due: Vec<Due>) -> ModerationResult<()> {
    // An endpoint is a server's URL: two servers may share a URL, each
    // signing with its own secret.
    let mut queues: Vec<Vec<Due>> = Vec::new();
    let mut by_endpoint = std::collections::HashMap::new();
    for delivery in due {
        let endpoint = (delivery.server_id.clone(), delivery.url.clone());
        let at = *by_endpoint.entry(endpoint).or_insert_with(|| {
            queues.push(Vec::new());
            queues.len() - 1
        });
        queues[at].push(delivery);
    }
    let mut queues = queues.into_iter();
    let mut running = tokio::task::JoinSet::new();
    let start = |running: &mut tokio::task::JoinSet<ModerationResult<()>>, queue: Vec<Due>| {
        let state = state.clone();
        running.spawn(async move { deliver_queue(&state, queue).await });
    };
    for queue in queues.by_ref().take(CONCURRENT_ENDPOINTS) {
        start(&mut running, queue);
    }
    let mut result = Ok(());
    while let Some(done) = running.join_next().await {
        match done {
            Ok(Ok(())) => {}
            // The others run to their end; the first error is the tick's.
            Ok(Err(e)) => {
                if result.is_ok() {
                    result = Err(e);
                }
            }
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // Cancelled: the runtime is stopping; the delivery stays due.
            Err(_) => {}
        }
        if let Some(queue) = queues.next() {
            start(&mut running, queue);
        }
    }
    result
}

/// Attempts one endpoint's `queue` (one server, one URL) in order. The
/// server's state is read once, and attempts are recorded a chunk at a time
/// in one write each: the writer is shared with every action, so a delivery
/// should not cost it a transaction of its own. A daemon that dies before a
/// chunk is recorded sends those deliveries again after the restart, which
/// receivers deduplicate on `webhook-id`.
async fn deliver_queue(state: &AppState, queue: Vec<Due>) -> ModerationResult<()> {
    let Some(first) = queue.first() else {
        return Ok(());
    };
    let (server_id, url) = (first.server_id.clone(), first.url.clone());
    let secrets = state.store.secrets().clone();
    let now = state.clock.now_unix();
    let (turned_on, signing) = {
        let server_id = server_id.clone();
        state
            .store
            .read(move |tx| {
                // A `test` subscription asks only that webhooks are on, with a
                // URL and a secret: the state every pending delivery needs.
                let on = outbox::subscribed(tx, &server_id, WebhookEvent::Test)?.is_some();
                Ok::<_, StoreError>((on, config::signing_secrets(tx, &secrets, &server_id, now)))
            })
            .await?
    };
    if !turned_on {
        // Turned off (or the URL or secret removed) since the events were
        // written: their owner no longer wants them sent.
        let ids: Vec<i64> = queue.iter().map(|d| d.id).collect();
        state
            .store
            .write(move |tx| {
                ids.iter()
                    .try_for_each(|&id| outbox::abandon(tx, id, TURNED_OFF))
            })
            .await?;
        return Ok(());
    }
    // The URL is checked once for the queue (all of it goes to this URL);
    // the resolved addresses are checked at each connection (see `guard`).
    let target = guard::parse(&url).and_then(|target| {
        if state.webhooks.allow_internal {
            Ok(target)
        } else {
            guard::check_literal(&target).map(|()| target)
        }
    });
    let signing = signing.map_err(|e| e.to_string()).and_then(|secrets| {
        if secrets.is_empty() {
            Err(
                "no signing secret is stored: create one with POST /servers/{id}/webhooks/secret"
                    .into(),
            )
        } else {
            Ok(secrets)
        }
    });
    for chunk in queue.chunks(RECORD_EVERY) {
        let mut attempts = Vec::with_capacity(chunk.len());
        let mut gone = false;
        for delivery in chunk {
            let now = state.clock.now_unix();
            let started = Instant::now();
            let sent = match (&target, &signing) {
                (Ok(target), Ok(secrets)) => {
                    send(&state.webhooks, target, delivery, secrets, now).await
                }
                (Err(e), _) | (_, Err(e)) => Sent::Refused(e.clone()),
            };
            let number = delivery.attempts + 1;
            let outcome = outcome_of(&sent, number, now, started.elapsed());
            if outcome.state == DeliveryState::Failed {
                tracing::warn!(delivery = delivery.id, "webhook delivery failed for good");
            }
            gone = matches!(sent, Sent::Answered { status, .. } if status == StatusCode::GONE);
            attempts.push((delivery.id, number, outcome));
            if gone {
                // Nothing more goes to an endpoint that said it is gone.
                break;
            }
        }
        record(state, &server_id, &url, attempts, gone).await?;
        if gone {
            break;
        }
    }
    Ok(())
}

/// Records a chunk's `attempts` in one write; then turns the server's
/// webhooks off if the last one was answered 410 (`gone`) or the endpoint
/// has failed everything for [`outbox::FAILING_LIMIT`].
async fn record(
    state: &AppState,
    server_id: &str,
    url: &str,
    attempts: Vec<(i64, u32, Outcome)>,
    gone: bool,
) -> ModerationResult<()> {
    let (server_id, url) = (server_id.to_owned(), url.to_owned());
    let secrets = state.store.secrets().clone();
    state
        .store
        .write(move |tx| {
            outbox::record_attempts(tx, &attempts)?;
            let Some((_, _, last)) = attempts.last() else {
                return Ok(());
            };
            let now = last.at;
            let reason = if gone {
                Some(format!(
                    "the endpoint answered 410 Gone at {}: set webhooks.enabled to true again once it accepts events",
                    timestamp(now)
                ))
            } else if last.state != DeliveryState::Delivered {
                failing_too_long(tx, &server_id, &url, now)?
            } else {
                None
            };
            if let Some(reason) = reason {
                tracing::warn!(server = %server_id, reason, "webhooks turned off");
                outbox::disable(tx, &secrets, &server_id, reason, now)?;
            }
            Ok::<_, StoreError>(())
        })
        .await?;
    Ok(())
}

/// Why `url` should be turned off when every attempt to it has failed for
/// [`outbox::FAILING_LIMIT`] or longer at `now`; `None` otherwise.
fn failing_too_long(
    tx: &rusqlite::Transaction<'_>,
    server_id: &str,
    url: &str,
    now: i64,
) -> Result<Option<String>, StoreError> {
    Ok(outbox::failing_since(tx, server_id, url)?
        .filter(|since| now - since >= outbox::FAILING_LIMIT)
        .map(|since| {
            format!(
                "every delivery to {url} has failed since {} (5 days or more): fix the endpoint, then set webhooks.enabled to true again",
                timestamp(since)
            )
        }))
}

/// What one attempt came to.
#[derive(Debug)]
enum Sent {
    /// The endpoint answered.
    Answered {
        status: StatusCode,
        retry_after: Option<i64>,
    },
    /// No answer: connection refused, timeout, a refused address.
    Transport(String),
    /// Not sent, and sending again will not help by itself.
    Refused(String),
}

/// The Standard Webhooks headers, named once rather than parsed per request.
const WEBHOOK_ID: HeaderName = HeaderName::from_static("webhook-id");
const WEBHOOK_TIMESTAMP: HeaderName = HeaderName::from_static("webhook-timestamp");
const WEBHOOK_SIGNATURE: HeaderName = HeaderName::from_static("webhook-signature");

/// Posts `delivery` to `url` (its endpoint's URL, checked by the caller).
async fn send(
    deliverer: &Deliverer,
    url: &reqwest::Url,
    delivery: &Due,
    secrets: &[String],
    now: i64,
) -> Sent {
    let signature = sign::header(secrets, &delivery.event_id, now, &delivery.payload);
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
        Err(e) => Sent::Transport(error_chain(&e)),
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
fn outcome_of(sent: &Sent, number: u32, now: i64, took: Duration) -> Outcome {
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
        Sent::Transport(e) => (None, Some(e.clone()), true, None),
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
            at(&Sent::Transport("refused".into())),
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
