//! The live view (issue #27): [`Client::events`], the server-sent events of
//! `GET /servers/{id}/events/stream` as typed items, reconnecting with
//! `Last-Event-ID` when the connection drops (a daemon restart, a network
//! blip), so a watcher misses nothing that is replayed.
//!
//! The SSE format is parsed here ([`SseParser`], the WHATWG "event stream"
//! rules that modctld uses: `event:`, `data:`, `id:`, `retry:`, comments)
//! over reqwest's `Response::chunk`, so the SDK needs no SSE crate.

use std::time::Duration;

use modctl_types::live::{Lagged, LiveEvent, LiveEventKind, Reset, StreamQuery};
use reqwest::Method;

use crate::client::Client;
use crate::error::{Error, ErrorKind};

/// Silence after which a connection counts as dead: the daemon sends a
/// keep-alive comment every 15 s.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(45);

/// The longest wait between reconnection attempts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The wait before the first reconnection unless the daemon says (`retry:`).
const FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// A stream's request has no overall time limit (the client's would cut it
/// off); [`IDLE_TIMEOUT`] finds dead connections instead.
const NO_LIMIT: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// One item of [`EventStream`].
#[derive(Debug, Clone, PartialEq)]
pub enum StreamItem {
    /// Connected (again): events follow. The first item of every
    /// connection.
    Connected,
    /// An event.
    Event(LiveEvent),
    /// The daemon could not resume from the last id: events may have been
    /// missed; refetch what is shown.
    Reset(Reset),
    /// Live-only events (`member_joined`) dropped because this client was
    /// slow.
    Lagged(Lagged),
    /// The connection dropped; the stream reconnects after `retry_in` and
    /// resumes after the last event id received.
    Disconnected {
        /// What happened.
        reason: String,
        /// How long until the next attempt.
        retry_in: Duration,
    },
}

/// Options of [`Client::events`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Only these kinds (every kind when empty).
    pub types: Vec<LiveEventKind>,
    /// Start after this event id (a `Last-Event-ID` kept from before);
    /// `None`: from now on.
    pub last_event_id: Option<i64>,
    /// Do not reconnect: the stream ends when the connection does.
    pub no_reconnect: bool,
}

/// The events of one server, read with [`EventStream::next`] (or as a
/// `futures` stream with [`EventStream::into_stream`]).
#[derive(Debug)]
pub struct EventStream {
    client: Client,
    server: String,
    options: StreamOptions,
    response: Option<reqwest::Response>,
    parser: SseParser,
    backoff: Duration,
    /// The daemon's `retry:` wait, when it sent one.
    retry: Option<Duration>,
    /// The wait before the next connection attempt.
    wait: Option<Duration>,
    done: bool,
}

impl Client {
    /// `GET /servers/{id}/events/stream`: the server's events as they
    /// happen (scope read). Connects on the first [`EventStream::next`];
    /// when the connection drops, yields [`StreamItem::Disconnected`] and
    /// reconnects with `Last-Event-ID` (backing off up to [`MAX_BACKOFF`]),
    /// unless [`StreamOptions::no_reconnect`]. An answer other than a
    /// stream that retrying cannot fix (401, 403, 404, 400, 429) is
    /// returned as an error, and the stream ends.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::live::{StreamItem, StreamOptions};
    /// let mut events = client.events("112233445566778899", StreamOptions::default());
    /// while let Some(item) = events.next().await {
    ///     if let StreamItem::Event(event) = item? {
    ///         println!("{} {}", event.kind, event.data);
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn events(&self, server: &str, options: StreamOptions) -> EventStream {
        EventStream {
            client: self.clone(),
            server: server.to_owned(),
            options,
            response: None,
            parser: SseParser::default(),
            backoff: FIRST_BACKOFF,
            retry: None,
            wait: None,
            done: false,
        }
    }
}

impl EventStream {
    /// The id of the last event received: where a reconnection resumes.
    pub fn last_event_id(&self) -> Option<i64> {
        self.options.last_event_id
    }

    /// The next item; `None` once the stream has ended (no reconnection
    /// asked for, or after an error).
    pub async fn next(&mut self) -> Option<Result<StreamItem, Error>> {
        loop {
            if self.done {
                return None;
            }
            if let Some(sse) = self.parser.next_event() {
                if let Some(item) = self.item(sse) {
                    return Some(item);
                }
                continue;
            }
            let Some(response) = self.response.as_mut() else {
                if let Some(wait) = self.wait.take() {
                    tokio::time::sleep(wait).await;
                }
                match self.connect().await {
                    Ok(response) => {
                        self.response = Some(response);
                        self.parser = SseParser::default();
                        self.backoff = FIRST_BACKOFF;
                        return Some(Ok(StreamItem::Connected));
                    }
                    Err(error) if retryable(&error) => {
                        return self.disconnected(error.message().to_owned()).await;
                    }
                    Err(error) => {
                        self.done = true;
                        return Some(Err(error));
                    }
                }
            };
            match tokio::time::timeout(IDLE_TIMEOUT, response.chunk()).await {
                Ok(Ok(Some(bytes))) => self.parser.push(&bytes),
                Ok(Ok(None)) => {
                    return self
                        .disconnected("the daemon ended the stream".to_owned())
                        .await;
                }
                Ok(Err(error)) => {
                    let reason = Error::transport(error).message().to_owned();
                    return self.disconnected(reason).await;
                }
                Err(_) => {
                    return self
                        .disconnected(format!("nothing from the daemon for {IDLE_TIMEOUT:?}"))
                        .await;
                }
            }
        }
    }

    /// Turns the stream into a `futures` `Stream` of the same items.
    pub fn into_stream(
        self,
    ) -> impl futures_util::Stream<Item = Result<StreamItem, Error>> + Send + Unpin {
        Box::pin(futures_util::stream::unfold(
            self,
            |mut stream| async move {
                let item = stream.next().await?;
                Some((item, stream))
            },
        ))
    }

    async fn connect(&self) -> Result<reqwest::Response, Error> {
        let types: Vec<&str> = self.options.types.iter().map(|k| k.as_str()).collect();
        let query = StreamQuery {
            types: (!types.is_empty()).then(|| types.join(",")),
        };
        let mut request = self
            .client
            .request(Method::GET, &["servers", &self.server, "events", "stream"])
            .query(&query)
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .timeout(NO_LIMIT);
        if let Some(id) = self.options.last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.map_err(Error::transport)?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let body = response.text().await.map_err(Error::transport)?;
        Err(Error::from_response(status, &body))
    }

    /// Ends this connection; yields the disconnection and waits before the
    /// next attempt (or ends the stream when not reconnecting).
    async fn disconnected(&mut self, reason: String) -> Option<Result<StreamItem, Error>> {
        self.response = None;
        if self.options.no_reconnect {
            self.done = true;
            return None;
        }
        let retry_in = self.retry.unwrap_or(self.backoff).min(MAX_BACKOFF);
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        // The wait comes before the next attempt: the caller shows the
        // disconnection at once, then `next` waits.
        self.parser = SseParser::default();
        self.wait = Some(retry_in);
        Some(Ok(StreamItem::Disconnected { reason, retry_in }))
    }

    fn item(&mut self, sse: SseEvent) -> Option<Result<StreamItem, Error>> {
        if let Some(retry) = sse.retry {
            self.retry = Some(retry);
        }
        if let Some(id) = sse.id.as_deref().and_then(|id| id.parse::<i64>().ok()) {
            self.options.last_event_id = Some(id);
        }
        let parsed = match sse.event.as_str() {
            "" if sse.data.is_empty() => return None,
            "reset" => serde_json::from_str(&sse.data).map(|reset: Reset| {
                self.options.last_event_id = Some(reset.last_id);
                StreamItem::Reset(reset)
            }),
            "lagged" => serde_json::from_str(&sse.data).map(StreamItem::Lagged),
            // A kind this SDK does not know yet (added within v1) is
            // skipped, as unknown fields are.
            kind if kind.parse::<LiveEventKind>().is_err() => return None,
            _ => serde_json::from_str(&sse.data).map(StreamItem::Event),
        };
        Some(parsed.map_err(|e| Error::unexpected(reqwest::StatusCode::OK, e)))
    }
}

/// One line saying what `event` is about, for people: the webhook
/// summary ([`crate::webhooks::summarize`]) for the kinds webhooks share
/// (`case 3: warn 8000... (settled)`), and for the others the hit or the
/// member.
pub fn summarize(event: &LiveEvent) -> String {
    use modctl_types::webhooks::{Event, WebhookEvent};
    let data = &event.data;
    let text = |value: &serde_json::Value| match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    };
    let shared = match event.kind {
        LiveEventKind::CaseCreated => Some(WebhookEvent::CaseCreated),
        LiveEventKind::JailChanged => Some(WebhookEvent::JailChanged),
        LiveEventKind::ConfigChanged => Some(WebhookEvent::ConfigChanged),
        LiveEventKind::LockdownStarted => Some(WebhookEvent::LockdownStarted),
        LiveEventKind::LockdownEnded => Some(WebhookEvent::LockdownEnded),
        LiveEventKind::AntinukeTriggered => Some(WebhookEvent::AntinukeTriggered),
        LiveEventKind::CaseCorrected => Some(WebhookEvent::CaseCorrected),
        LiveEventKind::AutomodHit | LiveEventKind::MemberJoined => None,
    };
    if let Some(kind) = shared {
        return crate::webhooks::summarize(&Event {
            id: event.id.map(|id| id.to_string()).unwrap_or_default(),
            kind,
            created_at: event.created_at,
            server_id: event.server_id.clone(),
            data: data.clone(),
        });
    }
    match event.kind {
        LiveEventKind::AutomodHit => {
            let case = match &data["case_id"] {
                serde_json::Value::Null => String::new(),
                number => format!(", case {number}"),
            };
            format!(
                "hit {}: {} `{}` from {} ({}{case})",
                text(&data["id"]),
                text(&data["filter"]),
                text(&data["matched"]),
                text(&data["user_id"]),
                text(&data["action"]),
            )
        }
        _ => {
            let user = text(&data["user_id"]);
            let who = match data["name"].as_str() {
                Some(name) if !name.is_empty() => format!("{name} ({user})"),
                _ => user,
            };
            let bot = if data["is_bot"] == true {
                " (a bot)"
            } else {
                ""
            };
            match data["channel_id"].as_str() {
                Some(channel) => format!("{who}{bot} joined channel {channel}"),
                None => format!("{who}{bot} joined"),
            }
        }
    }
}

/// Whether reconnecting may help: the daemon unreachable or failing, not
/// a refusal of this request.
fn retryable(error: &Error) -> bool {
    matches!(error.kind(), ErrorKind::Transport | ErrorKind::Server)
}

/// One dispatched SSE event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field (empty when none was sent).
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The `id:` field, when sent.
    pub id: Option<String>,
    /// The `retry:` field, when sent.
    pub retry: Option<Duration>,
}

/// An incremental parser of `text/event-stream`: bytes in, events out.
#[derive(Debug, Default)]
pub struct SseParser {
    buffer: Vec<u8>,
    current: SseEvent,
    has_data: bool,
    ready: std::collections::VecDeque<SseEvent>,
}

impl SseParser {
    /// Takes the next bytes of the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
        while let Some(end) = self.buffer.iter().position(|b| *b == b'\n' || *b == b'\r') {
            // A `\r\n` pair is one line end; a lone `\r` at the very end may
            // be the first half of one, so wait for the next byte.
            let newline_len = match (self.buffer[end], self.buffer.get(end + 1)) {
                (b'\r', Some(b'\n')) => 2,
                (b'\r', None) => break,
                _ => 1,
            };
            let line: Vec<u8> = self.buffer.drain(..end + newline_len).collect();
            let line = String::from_utf8_lossy(&line[..end]).into_owned();
            self.line(&line);
        }
    }

    /// The next complete event, if any.
    pub fn next_event(&mut self) -> Option<SseEvent> {
        self.ready.pop_front()
    }

    fn line(&mut self, line: &str) {
        if line.is_empty() {
            let event = std::mem::take(&mut self.current);
            if self.has_data || !event.event.is_empty() || event.id.is_some() {
                self.ready.push_back(event);
            } else if event.retry.is_some() {
                // A `retry:` alone still counts: keep it for the caller.
                self.ready.push_back(event);
            }
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => self.current.event = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.current.data.push('\n');
                }
                self.current.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.current.id = Some(value.to_owned()),
            "retry" => {
                if let Ok(ms) = value.parse::<u64>() {
                    self.current.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&str]) -> Vec<SseEvent> {
        let mut parser = SseParser::default();
        let mut out = Vec::new();
        for chunk in chunks {
            parser.push(chunk.as_bytes());
            while let Some(event) = parser.next_event() {
                out.push(event);
            }
        }
        out
    }

    fn event(event: &str, data: &str, id: Option<&str>) -> SseEvent {
        SseEvent {
            event: event.into(),
            data: data.into(),
            id: id.map(Into::into),
            retry: None,
        }
    }

    /// A daemon stand-in on 127.0.0.1: each connection's request head is
    /// sent back on the channel, and the connection answered with the next
    /// of `bodies` (an SSE body), then closed.
    async fn serve(
        bodies: Vec<&'static str>,
    ) -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (heads, seen) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            for body in bodies {
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    if socket.read(&mut byte).await.unwrap() == 0 {
                        break;
                    }
                    head.push(byte[0]);
                }
                let _ = heads.send(String::from_utf8_lossy(&head).to_lowercase());
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{body}"
                );
                socket.write_all(answer.as_bytes()).await.unwrap();
                socket.shutdown().await.unwrap();
            }
        });
        (url, seen)
    }

    const FIRST: &str = "retry: 10\n\nid: 5\nevent: case_created\ndata: {\"id\":5,\"type\":\"case_created\",\"created_at\":\"2026-11-27T21:04:05Z\",\"server_id\":\"S\",\"data\":{\"id\":12}}\n\n";
    const SECOND: &str = "event: some_future_kind\ndata: {}\n\nid: 6\nevent: config_changed\ndata: {\"id\":6,\"type\":\"config_changed\",\"created_at\":\"2026-11-27T21:04:06Z\",\"server_id\":\"S\",\"data\":{}}\n\n";

    #[tokio::test]
    async fn a_dropped_connection_is_resumed_with_the_last_event_id() {
        let (url, mut heads) = serve(vec![FIRST, SECOND]).await;
        let client = Client::builder()
            .base_url(&url)
            .api_key("k")
            .build()
            .unwrap();
        let mut stream = client.events(
            "S",
            StreamOptions {
                types: vec![LiveEventKind::CaseCreated, LiveEventKind::ConfigChanged],
                ..Default::default()
            },
        );
        async fn next(stream: &mut EventStream) -> StreamItem {
            tokio::time::timeout(Duration::from_secs(10), stream.next())
                .await
                .expect("in time")
                .expect("goes on")
                .expect("no error")
        }
        assert_eq!(next(&mut stream).await, StreamItem::Connected);
        let first = heads.recv().await.unwrap();
        assert!(
            first.starts_with(
                "get /api/v1/servers/s/events/stream?types=case_created%2cconfig_changed "
            ),
            "{first}"
        );
        assert!(!first.contains("last-event-id"), "{first}");
        match next(&mut stream).await {
            StreamItem::Event(event) => assert_eq!(event.id, Some(5)),
            other => panic!("{other:?}"),
        }
        match next(&mut stream).await {
            // The daemon's `retry:` (10 ms) is the wait.
            StreamItem::Disconnected { retry_in, .. } => {
                assert_eq!(retry_in, Duration::from_millis(10))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(next(&mut stream).await, StreamItem::Connected);
        let second = heads.recv().await.unwrap();
        assert!(second.contains("last-event-id: 5\r\n"), "{second}");
        // A kind this SDK does not know is skipped.
        match next(&mut stream).await {
            StreamItem::Event(event) => {
                assert_eq!(
                    (event.id, event.kind),
                    (Some(6), LiveEventKind::ConfigChanged)
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn without_reconnecting_the_stream_ends_with_its_connection() {
        let (url, _heads) = serve(vec![FIRST]).await;
        let client = Client::builder()
            .base_url(&url)
            .api_key("k")
            .build()
            .unwrap();
        let mut stream = client.events(
            "S",
            StreamOptions {
                no_reconnect: true,
                ..Default::default()
            },
        );
        assert_eq!(stream.next().await.unwrap().unwrap(), StreamItem::Connected);
        assert!(matches!(
            stream.next().await,
            Some(Ok(StreamItem::Event(_)))
        ));
        assert!(stream.next().await.is_none());
        assert!(stream.next().await.is_none(), "and stays ended");
    }

    #[test]
    fn events_are_parsed_across_chunks_and_line_ends() {
        let cases: Vec<(Vec<&str>, Vec<SseEvent>)> = vec![
            (
                vec!["event: case_created\nid: 3\ndata: {\"a\":1}\n\n"],
                vec![event("case_created", "{\"a\":1}", Some("3"))],
            ),
            (
                vec!["event: x\r\nda", "ta: 1\r", "\n\r\n"],
                vec![event("x", "1", None)],
            ),
            (
                vec![": keep-alive\n\n", "data: a\ndata: b\n\n"],
                vec![event("", "a\nb", None)],
            ),
            (vec!["data:no space\n\n"], vec![event("", "no space", None)]),
            (vec!["event: half\ndata: 1\n"], vec![]),
            (
                vec!["retry: 2000\n\n"],
                vec![SseEvent {
                    retry: Some(Duration::from_secs(2)),
                    ..SseEvent::default()
                }],
            ),
        ];
        for (chunks, want) in cases {
            assert_eq!(parse(&chunks), want, "{chunks:?}");
        }
    }
}
