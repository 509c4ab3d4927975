//! `GET /servers/{id}/events/stream` (issue #27): the live view, as
//! server-sent events. What is sent and how is [`crate::live`]; here the
//! request is read (the key, the server, `?types=`, `Last-Event-ID`), a
//! place among the open streams taken, and the items written as SSE.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream;
use modctl_types::ErrorBody;
use modctl_types::live::{LiveEventKind, StreamQuery};

use crate::AppState;
use crate::auth::ReadServer;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::live::{self, Item, Start};
use crate::store::live_events;

use super::openapi::ServerPath;

/// A comment line this often keeps proxies and clients from taking a quiet
/// stream for a dead one.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a client waits before reconnecting after the stream ends (the
/// SSE `retry:` field, sent first).
const RETRY: Duration = Duration::from_secs(2);

/// One server-sent event as its lines carry it (the fields of the
/// `text/event-stream` format): how the OpenAPI document describes the
/// stream, since an SSE event is lines of text, not one JSON object.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct SseEvent {
    /// The event's type: `case_created`, ..., `member_joined`, or `reset`
    /// or `lagged`.
    event: Option<String>,
    /// The JSON text of one `LiveEvent` (of `Reset` or `Lagged` for those).
    data: Option<String>,
    /// The event's number on its server, for `Last-Event-ID`; absent for
    /// `member_joined`, `reset` and `lagged`.
    id: Option<String>,
    /// Milliseconds to wait before reconnecting (the stream's first lines;
    /// a number in the text, which SSE parsers read as text or integer).
    retry: Option<serde_json::Value>,
}

/// `GET /servers/{id}/events/stream`
#[utoipa::path(
    get,
    path = "/servers/{id}/events/stream",
    tag = "events",
    summary = "Watch the server's events as they happen (server-sent events)",
    description = "A `text/event-stream` of what happens on the server from now on: `case_created`, `automod_hit`, \
        `jail_changed`, `config_changed`, `lockdown_started`, `lockdown_ended`, `antinuke_triggered`, \
        `case_corrected` and `member_joined`. Each event's `event:` is its type and its `data:` one JSON `LiveEvent`, whose `data` is \
        what a webhook of that type carries (the case, the hit, ...). Every event but `member_joined` has an `id:`, \
        counted per server: reconnect with `Last-Event-ID` set to the last one seen to get exactly the events \
        missed (the newest 1000 of the server are kept). An id that cannot be resumed from (older than those \
        kept, or newer than any) gets `event: reset` (data: `Reset`) first: refetch, then go on. `member_joined` \
        is live only: never replayed; a client too slow to take them gets `event: lagged` (data: `Lagged`). \
        A comment line (`: keep-alive`) comes every 15 s. `?types=case_created,automod_hit` sends only those. \
        At most 4 streams per key and 16 per team are open at once (429 beyond). The stream ends when the \
        daemon stops; reconnect (`retry:` says after how long).",
    params(ServerPath, StreamQuery, ("Last-Event-ID" = Option<i64>, Header, description = "The last `id:` received: the stream starts after it.")),
    security(("bearer" = ["read"])),
    responses(
        (status = 200, description = "The stream: one SSE event per `LiveEvent` (its `data:` line the JSON text of one).", content_type = "text/event-stream", body = SseEvent),
        (status = 400, description = "`types` names an unknown type, or `Last-Event-ID` is not a number.", body = ErrorBody),
        (status = 429, description = "Too many streams open for this key, its team, or the daemon: the message says which.", body = ErrorBody),
    ),
)]
pub async fn stream(
    State(state): State<AppState>,
    access: ReadServer,
    ApiQuery(query): ApiQuery<StreamQuery>,
    headers: HeaderMap,
) -> ApiResult<impl IntoResponse> {
    let kinds = LiveEventKind::parse_list(query.types.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::BadRequest(format!("`types`: {e}")))?;
    let last_event_id = last_event_id(&headers)?;
    let slot = state
        .live
        .caps
        .admit(access.caller.key_id(), access.caller.team_id())
        .map_err(|over| ApiError::TooManyRequests {
            message: over.message(),
            retry_after: 60,
        })?;
    let server_id = access.server.id;
    // Subscribed before the bounds are read: an event stored in between is
    // announced to this stream, not lost.
    let notices = state.coordination.live.subscribe(&server_id);
    let id = server_id.clone();
    let held = state
        .store
        .read(move |tx| live_events::bounds(tx, &id))
        .await?;
    let start = live::start(last_event_id, held);
    if let Start::Reset(reset) = &start {
        tracing::debug!(server = %server_id, reason = %reset.reason, "event stream reset");
    }
    let items = live::Stream::new(
        state.store.clone(),
        server_id,
        kinds,
        start,
        notices,
        state.live.stopping.clone(),
        slot,
    );
    let first = stream::once(async { Ok::<_, Infallible>(Event::default().retry(RETRY)) });
    // Names beside ids (issue #27), as the reads have them: filled when
    // sent, from the cache as it is then, so a replayed event shows the
    // member's name as it is now.
    let names = state.names.clone();
    let events = stream::unfold(items, move |mut items| {
        let names = names.clone();
        async move {
            let mut item = items.next().await?;
            if let live::Item::Event(event) = &mut item {
                names.name_live_event(event);
            }
            Some((Ok::<_, Infallible>(sse_event(item)), items))
        }
    });
    use futures_util::StreamExt;
    Ok(Sse::new(first.chain(events))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive")))
}

/// The `Last-Event-ID` header as a number, `None` when absent or empty.
fn last_event_id(headers: &HeaderMap) -> Result<Option<i64>, ApiError> {
    let Some(value) = headers.get("last-event-id") else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("?").trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<i64>()
        .ok()
        .filter(|id| *id >= 0)
        .map(Some)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "`Last-Event-ID` must be the `id:` of an event of this stream (a number), not `{text}`; leave it out to start from now"
            ))
        })
}

/// One item as an SSE event.
fn sse_event(item: Item) -> Event {
    let (event, id, data) = match item {
        Item::Event(event) => (event.kind.as_str(), event.id, serde_json::to_string(&event)),
        Item::Reset(reset) => ("reset", None, serde_json::to_string(&reset)),
        Item::Lagged(lagged) => ("lagged", None, serde_json::to_string(&lagged)),
    };
    let mut sse = Event::default()
        .event(event)
        .data(data.unwrap_or_else(|_| "{}".to_owned()));
    if let Some(id) = id {
        sse = sse.id(id.to_string());
    }
    sse
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn last_event_ids_are_numbers_or_absent() {
        // (header, Some(parsed) or None for a 400)
        let cases: &[(Option<&str>, Option<Option<i64>>)] = &[
            (None, Some(None)),
            (Some(""), Some(None)),
            (Some(" 42 "), Some(Some(42))),
            (Some("0"), Some(Some(0))),
            (Some("-1"), None),
            (Some("evt_abc"), None),
        ];
        for (value, want) in cases {
            let mut headers = HeaderMap::new();
            if let Some(value) = value {
                headers.insert("last-event-id", HeaderValue::from_str(value).unwrap());
            }
            let got = last_event_id(&headers).ok();
            assert_eq!(&got, want, "{value:?}");
        }
    }
}
