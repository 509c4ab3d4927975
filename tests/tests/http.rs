//! The HTTP server's limits on slow and oversized clients, and what hyper
//! answers on its own (see `docs/api.md`, "Errors"). Most tests speak raw
//! TCP: these are requests no HTTP client library would send.

use std::time::Duration;

use modctl_e2e::{
    ALPHA_DISCORD, Fixture, TEST_HTTP_LIMITS, TestDaemon, assert_config_untouched, error_body,
};
use modctld::AppState;
use modctld::http::{
    ConnectionCaps, HttpLimits, MAX_HEADER_BYTES, MAX_URI_BYTES, READ_BUFFER_BYTES,
};
use modctld::store::Store;
use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

/// Bounds every wait, so that a regression fails instead of hanging. Far
/// above the 1 s limits of the test daemon, and below hyper's built-in 30 s
/// header timeout, so a limit that is not applied shows.
const BOUND: Duration = Duration::from_secs(15);

/// A request head without its final empty line: the daemon waits for the rest.
const HALF_A_HEAD: &[u8] = b"GET /api/v1/me HTTP/1.1\r\nHost: modctld\r\n";

/// A whole request without a key, answered `401`.
const ANONYMOUS_ME: &[u8] = b"GET /api/v1/me HTTP/1.1\r\nHost: modctld\r\n\r\n";

/// A response read off the wire.
#[derive(Debug)]
struct RawResponse {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl RawResponse {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (field, value) = line.split_once(':')?;
            field.eq_ignore_ascii_case(name).then_some(value.trim())
        })
    }

    /// The message of an error in our format: JSON with two fields, `error`
    /// and a `code` documented for the response's status.
    fn error_message(&self) -> String {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "error responses are JSON: {}",
            self.head
        );
        let body: serde_json::Value = serde_json::from_slice(&self.body).expect("JSON body");
        let object = body.as_object().expect("error body is an object");
        assert_eq!(object.len(), 2, "error body has `error` and `code`: {body}");
        let status: u16 = self
            .head
            .split(' ')
            .nth(1)
            .and_then(|status| status.parse().ok())
            .expect("a status line");
        let code = object["code"].as_str().expect("`code` is a string");
        assert_eq!(
            modctl_types::ErrorCode::parse(code).status(),
            Some(status),
            "`{code}` is a documented code of status {status}"
        );
        let message = object["error"].as_str().expect("`error` is a string");
        assert!(!message.is_empty(), "error message is empty");
        message.to_owned()
    }
}

async fn connect(daemon: &TestDaemon) -> TcpStream {
    TcpStream::connect(daemon.url().trim_start_matches("http://"))
        .await
        .expect("connect")
}

/// Reads one response (head, then a `Content-Length` body).
async fn read_response(stream: &mut TcpStream) -> RawResponse {
    tokio::time::timeout(BOUND, async {
        let mut buffer = Vec::new();
        let head_end = loop {
            if let Some(at) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
                break at + 4;
            }
            read_some(stream, &mut buffer).await;
        };
        let head = String::from_utf8(buffer[..head_end].to_vec()).expect("UTF-8 head");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|status| status.parse().ok())
            .expect("status line");
        let mut response = RawResponse {
            status,
            head,
            body: buffer[head_end..].to_vec(),
        };
        let length: usize = response
            .header("content-length")
            .expect("responses carry Content-Length")
            .parse()
            .expect("numeric Content-Length");
        while response.body.len() < length {
            read_some(stream, &mut response.body).await;
        }
        response
    })
    .await
    .expect("a response within the bound")
}

async fn read_some(stream: &mut TcpStream, buffer: &mut Vec<u8>) {
    let mut chunk = [0u8; 4096];
    let read = stream.read(&mut chunk).await.expect("read");
    assert!(
        read > 0,
        "connection closed in the middle of a response: {:?}",
        String::from_utf8_lossy(buffer)
    );
    buffer.extend_from_slice(&chunk[..read]);
}

/// Reads until the daemon closes the connection; returns what it sent.
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    tokio::time::timeout(BOUND, async {
        let mut received = Vec::new();
        loop {
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) => return received,
                Ok(read) => received.extend_from_slice(&chunk[..read]),
                Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => {
                    return received;
                }
                Err(error) => panic!("read: {error}"),
            }
        }
    })
    .await
    .expect("the daemon closes the connection within the bound")
}

#[tokio::test]
async fn half_a_request_header_is_disconnected_without_an_answer() {
    let daemon = TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS);
    let mut stream = connect(&daemon).await;
    stream.write_all(HALF_A_HEAD).await.unwrap();
    let received = read_until_closed(&mut stream).await;
    assert!(
        received.is_empty(),
        "hyper closes a header-read timeout without a response: {:?}",
        String::from_utf8_lossy(&received)
    );
}

#[tokio::test]
async fn a_stalled_body_is_answered_408_json_and_changes_nothing() {
    let fixture = Fixture::seed(TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS));
    let mut stream = connect(&fixture.daemon).await;
    let head = format!(
        "PUT /api/v1/servers/{ALPHA_DISCORD}/config/moderation HTTP/1.1\r\n\
         Host: modctld\r\n\
         Authorization: Bearer {}\r\n\
         Content-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n",
        fixture.alpha_rw.full
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(br#"{"require_reason": "#).await.unwrap();

    let response = read_response(&mut stream).await;
    assert_eq!(response.status, 408, "{}", response.head);
    let message = response.error_message();
    assert!(message.contains("did not arrive within"), "{message}");
    assert_eq!(response.header("connection"), Some("close"));
    assert!(read_until_closed(&mut stream).await.is_empty());

    assert_config_untouched(&fixture.daemon.client(&fixture.alpha_rw), ALPHA_DISCORD).await;
}

#[tokio::test]
async fn a_stalled_client_does_not_keep_serve_alive_after_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("modctld.db")).await.unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    // Header and body limits that cannot end the stalled connection during
    // the test: only the shutdown deadline can.
    let limits = HttpLimits {
        header_read_timeout: Duration::from_secs(3600),
        body_timeout: Duration::from_secs(3600),
        shutdown_deadline: Duration::from_millis(200),
        ..HttpLimits::default()
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = tokio::spawn(modctld::serve(
        listener,
        AppState::new(store).with_http_limits(limits),
        async {
            let _ = stopped.await;
        },
    ));

    let mut stalled = TcpStream::connect(address).await.unwrap();
    stalled.write_all(HALF_A_HEAD).await.unwrap();
    // Connections are accepted in order: once a later one is answered, the
    // stalled one is being served.
    let mut later = TcpStream::connect(address).await.unwrap();
    later.write_all(ANONYMOUS_ME).await.unwrap();
    assert_eq!(read_response(&mut later).await.status, 401);

    stop.send(()).unwrap();
    let served = tokio::time::timeout(BOUND, serving)
        .await
        .expect("serve returns once the shutdown deadline has passed");
    served.expect("serve task").expect("serve");
    assert!(
        read_until_closed(&mut stalled).await.is_empty(),
        "the stalled connection was dropped with serve"
    );
}

#[tokio::test]
async fn two_requests_are_served_on_one_kept_alive_connection() {
    let fixture = Fixture::start();
    let mut stream = connect(&fixture.daemon).await;
    let request = format!(
        "GET /api/v1/me HTTP/1.1\r\nHost: modctld\r\nAuthorization: Bearer {}\r\n\r\n",
        fixture.alpha_ro.full
    );
    for _ in 0..2 {
        stream.write_all(request.as_bytes()).await.unwrap();
        let response = read_response(&mut stream).await;
        assert_eq!(response.status, 200, "{}", response.head);
        assert_ne!(response.header("connection"), Some("close"));
        let me: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
        assert_eq!(me["team"]["name"], "alpha", "{me}");
    }
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let daemon = TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS);
    let mut stream = connect(&daemon).await;
    stream.write_all(ANONYMOUS_ME).await.unwrap();
    assert_eq!(read_response(&mut stream).await.status, 401);
    assert!(read_until_closed(&mut stream).await.is_empty());
}

#[tokio::test]
async fn a_uri_over_the_limit_is_414_json() {
    let daemon = TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS);
    let query = "a".repeat(MAX_URI_BYTES);
    let response = reqwest::get(daemon.api(&format!("/me?filler={query}")))
        .await
        .unwrap();
    let (status, message) = error_body(response).await;
    assert_eq!(status, StatusCode::URI_TOO_LONG);
    assert!(message.contains(&MAX_URI_BYTES.to_string()), "{message}");
}

#[tokio::test]
async fn headers_over_the_limit_are_431_json() {
    let daemon = TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS);
    let response = reqwest::Client::new()
        .get(daemon.api("/me"))
        .header("x-filler", "a".repeat(MAX_HEADER_BYTES))
        .send()
        .await
        .unwrap();
    let (status, message) = error_body(response).await;
    assert_eq!(status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert!(message.contains(&MAX_HEADER_BYTES.to_string()), "{message}");
}

/// Sends `request` on a new connection and reads hyper's own answer: a
/// status with an empty body, after which hyper closes the connection.
/// Returns the status.
async fn answer_from_hyper(request: &[u8]) -> u16 {
    let daemon = TestDaemon::start_with_http_limits(TEST_HTTP_LIMITS);
    let mut stream = connect(&daemon).await;
    stream.write_all(request).await.unwrap();
    let response = read_response(&mut stream).await;
    assert!(response.body.is_empty(), "{response:?}");
    assert_eq!(response.header("connection"), Some("close"));
    assert!(read_until_closed(&mut stream).await.is_empty());
    response.status
}

/// Documented exception: a head too large for hyper's read buffer is refused
/// by hyper before our code sees it.
#[tokio::test]
async fn a_head_over_the_read_buffer_is_431_from_hyper_with_an_empty_body() {
    // Exactly the buffer's size and no end of head: hyper reads all of it
    // (so closing sends no reset that could swallow the answer) and gives up.
    let mut head = b"GET /api/v1/me HTTP/1.1\r\nHost: modctld\r\nX-Filler: ".to_vec();
    head.resize(READ_BUFFER_BYTES, b'a');
    assert_eq!(answer_from_hyper(&head).await, 431);
}

/// Documented exception: a request line hyper cannot parse.
#[tokio::test]
async fn a_malformed_request_line_is_400_from_hyper_with_an_empty_body() {
    assert_eq!(answer_from_hyper(b"THIS IS NOT HTTP\r\n\r\n").await, 400);
}

/// Documented exception: more header fields than hyper parses, however small.
#[tokio::test]
async fn more_than_100_header_fields_is_431_from_hyper_with_an_empty_body() {
    let mut head = String::from("GET /api/v1/me HTTP/1.1\r\nHost: modctld\r\n");
    for field in 0..100 {
        head.push_str(&format!("X-Field-{field}: a\r\n"));
    }
    head.push_str("\r\n");
    assert_eq!(answer_from_hyper(head.as_bytes()).await, 431);
}

/// A client that pipelines `count` requests for the OpenAPI document (some
/// 270 KB each, far more than the sockets buffer) and reads none of them.
async fn never_reading(daemon: &TestDaemon, count: usize) -> TcpStream {
    let mut stream = connect(daemon).await;
    let request = b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: modctld\r\n\r\n".repeat(count);
    stream.write_all(&request).await.unwrap();
    stream
}

/// Sends `request` on a new connection and reads the answer.
async fn one_request(daemon: &TestDaemon, request: &[u8]) -> RawResponse {
    let mut stream = connect(daemon).await;
    stream.write_all(request).await.unwrap();
    read_response(&mut stream).await
}

#[tokio::test]
async fn clients_that_never_read_are_capped_per_address_and_closed_by_the_write_timeout() {
    let per_address = 8;
    let daemon = TestDaemon::start_with_http_limits(HttpLimits {
        connections: ConnectionCaps {
            total: 1024,
            per_address,
        },
        ..TEST_HTTP_LIMITS
    });
    const PIPELINED: usize = 100;
    let mut stalled = Vec::new();
    for _ in 0..per_address {
        stalled.push(never_reading(&daemon, PIPELINED).await);
    }

    // One connection more from the address is shed: a probe still gets its
    // answer, anything else a JSON 429 saying why, and it is closed.
    let health = one_request(&daemon, b"GET /api/v1/health HTTP/1.1\r\nHost: m\r\n\r\n").await;
    assert_eq!(health.status, 200, "{health:?}");
    let ready = one_request(&daemon, b"GET /api/v1/ready HTTP/1.1\r\nHost: m\r\n\r\n").await;
    assert_eq!(ready.status, 200, "{ready:?}");
    let shed = one_request(&daemon, ANONYMOUS_ME).await;
    assert_eq!(shed.status, 429, "{shed:?}");
    assert!(
        shed.error_message()
            .contains("too many connections from your address")
    );
    assert_eq!(shed.header("retry-after"), Some("1"));
    assert_eq!(shed.header("connection"), Some("close"));

    // Past the write timeout (1 s), the daemon has closed the stalled
    // connections: what they read now is what the sockets held, far from the
    // hundred documents they asked for.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let document = modctld::api::openapi::document_json().len();
    for mut stream in stalled {
        let received = read_until_closed(&mut stream).await.len();
        assert!(
            received < PIPELINED * document / 2,
            "{received} bytes: the connection was served on"
        );
    }
    // Their places are free again.
    assert_eq!(one_request(&daemon, ANONYMOUS_ME).await.status, 401);
}

#[tokio::test]
async fn over_the_total_cap_a_probe_is_answered_and_the_rest_is_503() {
    let daemon = TestDaemon::start_with_http_limits(HttpLimits {
        connections: ConnectionCaps {
            total: 4,
            per_address: 4,
        },
        // Long enough that the held connections stay for the test.
        write_timeout: Duration::from_secs(60),
        header_read_timeout: Duration::from_secs(60),
        ..TEST_HTTP_LIMITS
    });
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&daemon).await;
        stream.write_all(HALF_A_HEAD).await.unwrap();
        held.push(stream);
    }
    let health = one_request(&daemon, b"GET /api/v1/health HTTP/1.1\r\nHost: m\r\n\r\n").await;
    assert_eq!(health.status, 200);
    let shed = one_request(&daemon, ANONYMOUS_ME).await;
    assert_eq!(shed.status, 503, "{shed:?}");
    assert!(shed.error_message().contains("4 connections"), "{shed:?}");
    assert_eq!(shed.header("retry-after"), Some("1"));
    drop(held);
    // The accept loop gives the places back as the connections close.
    let mut status = 0;
    for _ in 0..100 {
        status = one_request(&daemon, ANONYMOUS_ME).await.status;
        if status == 401 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, 401);
}

/// Documented exception: a path beyond hyper's own URI limit (64 KiB) is
/// refused by hyper before our code sees it.
#[tokio::test]
async fn a_path_over_64_kib_is_414_from_hyper_with_an_empty_body() {
    let head = format!(
        "GET /api/v1/me?filler={} HTTP/1.1\r\nHost: modctld\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    assert_eq!(answer_from_hyper(head.as_bytes()).await, 414);
}
