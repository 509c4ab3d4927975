//! The `webhooks` scenario's receiver: the endpoint the daemon delivers to,
//! kept as cheap as a real HTTP/1.1 endpoint can be, because it runs in the
//! bench process on the same two cores as the daemon.
//!
//! In production the receiver is the customer's machine; here every
//! microsecond it spends is taken from the daemon during the `on` phases
//! only, and so counted as the outbox's cost. The end-to-end tests' receiver
//! (`modctl_e2e::webhooks::Receiver`: axum on a tokio runtime, checking each
//! signature and parsing each body as it arrives) took about as much CPU per
//! delivery as the load generator did per warn. This one is a blocking
//! thread per connection (the daemon keeps one alive per endpoint): it reads
//! a request, keeps its signature headers and raw body, and answers 200.
//! Every delivery is checked afterwards ([`Receiver::check`]) with the end
//! to end tests' own, independent, Standard Webhooks implementation
//! (`modctl_e2e::webhooks::verify`), so a delivery that does not verify still
//! fails the run.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// One delivery as received, unchecked.
#[derive(Debug, Default)]
struct Delivery {
    id: String,
    timestamp: String,
    signature: String,
    body: Vec<u8>,
}

#[derive(Debug, Default)]
struct Shared {
    /// How many deliveries arrived (polled while the backlog drains).
    count: AtomicUsize,
    received: Mutex<Vec<Delivery>>,
}

/// A receiver on `127.0.0.1`; its threads end with the process.
#[derive(Debug)]
pub struct Receiver {
    url: String,
    shared: Arc<Shared>,
}

impl Receiver {
    /// Starts a receiver on an ephemeral port.
    pub fn start() -> anyhow::Result<Receiver> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}/hook", listener.local_addr()?);
        let shared = Arc::new(Shared::default());
        let accepting = shared.clone();
        std::thread::Builder::new()
            .name("bench-receiver".into())
            .spawn(move || {
                for stream in listener.incoming().flatten() {
                    let shared = accepting.clone();
                    let _ = std::thread::Builder::new()
                        .name("bench-receiver-conn".into())
                        .spawn(move || serve(stream, &shared));
                }
            })?;
        Ok(Receiver { url, shared })
    }

    /// The URL to set as `webhooks.url`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How many deliveries arrived.
    pub fn count(&self) -> usize {
        self.shared.count.load(Ordering::Relaxed)
    }

    /// Checks every delivery received with `secret`: how many there were,
    /// and how many verified.
    pub fn check(&self, secret: &str) -> (usize, usize) {
        let received = self.shared.received.lock().expect("receiver state");
        let verified = received
            .iter()
            .filter(|d| {
                let timestamp = d.timestamp.parse().unwrap_or(-1);
                std::str::from_utf8(&d.body).is_ok_and(|body| {
                    modctl_e2e::webhooks::verify(secret, &d.id, timestamp, body, &d.signature)
                })
            })
            .count();
        (received.len(), verified)
    }
}

/// Answers every request on `stream` with 200 until the daemon closes it.
fn serve(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    loop {
        // The request line, then the headers up to the empty line.
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut delivery = Delivery::default();
        let mut length = 0;
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(0),
                "webhook-id" => delivery.id = value.to_owned(),
                "webhook-timestamp" => delivery.timestamp = value.to_owned(),
                "webhook-signature" => delivery.signature = value.to_owned(),
                _ => {}
            }
        }
        delivery.body = vec![0; length];
        if reader.read_exact(&mut delivery.body).is_err() {
            return;
        }
        shared
            .received
            .lock()
            .expect("receiver state")
            .push(delivery);
        shared.count.fetch_add(1, Ordering::Relaxed);
        if writer
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            .is_err()
        {
            return;
        }
    }
}
