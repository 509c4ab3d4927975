//! `modctl webhooks listen`: a local receiver that checks every delivery's
//! signature with the SDK's [`verify`] and prints the events as they arrive
//! (the `stripe listen` experience), to try webhooks or debug a receiver.
//!
//! Deliberately small: a blocking HTTP/1.1 server on 127.0.0.1 over std's
//! `TcpListener`, one connection at a time, the body read by its
//! `Content-Length` (the daemon always sends one), `Connection: close` after
//! each answer. A verified delivery gets 200; anything else gets 400, which
//! the daemon does not retry, and a line on stderr saying why (a wrong secret
//! shows up at once, not as silent retries).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::time::Duration;

use modctl_client::webhooks::{HeaderMap, VerifyError, summarize, verify};
use modctl_types::webhooks::Event;

use crate::exit::{self, CliError};
use crate::output::{Fit, OutputMode, cut, human_time};
use crate::prompt;

/// The variable the secret is read from unless `--secret-env` names another.
pub const SECRET_ENV: &str = "MODCTL_WEBHOOK_SECRET";

/// The largest body accepted; an event is a few kilobytes, a restore report
/// with every item some hundreds.
const MAX_BODY: usize = 8 << 20;

/// How long one connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// What to listen on and for.
#[derive(Debug, Clone)]
pub struct Listen {
    /// The port on 127.0.0.1; 0 picks a free one (printed).
    pub port: u16,
    /// The variable holding the signing secret.
    pub secret_env: String,
    /// Stop after this many verified events.
    pub count: Option<u64>,
}

/// Runs the receiver until Ctrl-C (or `count` events).
pub fn run(listen: &Listen, mode: OutputMode) -> Result<u8, CliError> {
    let secret = secret(&listen.secret_env)?;
    // A malformed secret would refuse every delivery: say so before listening.
    if verify(&secret, &HeaderMap::new(), b"") == Err(VerifyError::BadSecret) {
        return Err(
            CliError::usage(VerifyError::BadSecret.to_string()).hint(format!(
                "check ${} (a whsec_ secret is whsec_ followed by base64, `=` padding included)",
                listen.secret_env
            )),
        );
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, listen.port)).map_err(|e| {
        CliError::failure(format!("cannot listen on 127.0.0.1:{}: {e}", listen.port))
            .hint("pick another port with --port (0 picks a free one)")
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| CliError::failure(e.to_string()))?
        .port();
    eprintln!(
        "listening on http://127.0.0.1:{port}/ for signed modctl webhooks; Ctrl-C to stop\n\
         point a server at it: `modctl config set SERVER webhooks.url http://127.0.0.1:{port}/` and \
         `modctl config set SERVER webhooks.enabled true`\n\
         (the daemon reaches 127.0.0.1 only with `modctld serve --webhooks-allow-internal`; the demo has it)"
    );
    let mut seen = 0u64;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        if let Some(event) = handle(stream, &secret) {
            print!("{}", line(&event, mode, seen == 0));
            seen += 1;
            if listen.count.is_some_and(|count| seen >= count) {
                break;
            }
        }
    }
    Ok(exit::OK)
}

/// The secret from `var`, else asked for on a terminal.
fn secret(var: &str) -> Result<String, CliError> {
    if let Some(secret) = std::env::var(var).ok().filter(|s| !s.is_empty()) {
        return Ok(secret);
    }
    if !prompt::interactive() {
        return Err(CliError::usage(format!(
            "no webhook signing secret: ${var} is not set"
        ))
        .hint(format!(
            "export {var}=whsec_... (the secret `modctl webhooks rotate-secret` printed), or name another variable with --secret-env"
        )));
    }
    dialoguer::Password::new()
        .with_prompt("Webhook signing secret (whsec_...)")
        .interact()
        .map_err(|e| CliError::failure(format!("cannot read the secret: {e}")))
}

/// Answers one connection; the event when its delivery verified.
fn handle(mut stream: TcpStream, secret: &str) -> Option<Event> {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let outcome = read_request(&stream).and_then(|(headers, body)| {
        verify(secret, &headers, &body).map_err(|e| e.to_string())?;
        serde_json::from_slice::<Event>(&body)
            .map_err(|e| format!("the body is not a modctl event: {e}"))
    });
    let (status, event) = match outcome {
        Ok(event) => ("200 OK", Some(event)),
        Err(why) => {
            eprintln!("refused a delivery: {why}");
            ("400 Bad Request", None)
        }
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    );
    event
}

/// The `webhook-*` headers and the body of one request.
fn read_request(stream: &TcpStream) -> Result<(HeaderMap, Vec<u8>), String> {
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    reader
        .read_line(&mut request_line)
        .map_err(|e| format!("cannot read the request: {e}"))?;
    if !request_line.starts_with("POST ") {
        return Err(format!(
            "expected a POST, got `{}`",
            request_line.trim_end()
        ));
    }
    let mut headers = HeaderMap::new();
    let mut length = None;
    loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the headers: {e}"))?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("a malformed header line: `{line}`"));
        };
        let value = value.trim();
        let name = name.trim().to_ascii_lowercase();
        let parsed = || {
            value
                .parse()
                .map_err(|_| format!("a malformed {name} header"))
        };
        match name.as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "webhook-id" => drop(headers.insert("webhook-id", parsed()?)),
            "webhook-timestamp" => drop(headers.insert("webhook-timestamp", parsed()?)),
            "webhook-signature" => drop(headers.insert("webhook-signature", parsed()?)),
            _ => {}
        }
    }
    let length = length.ok_or("no content-length header (a modctl delivery has one)")?;
    if length > MAX_BODY {
        return Err(format!("a body of {length} bytes is too large"));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| format!("cannot read the body: {e}"))?;
    Ok((headers, body))
}

/// One event as printed: a row of a table (with the header first), a
/// tab-separated line, or the event's JSON on one line.
fn line(event: &Event, mode: OutputMode, first: bool) -> String {
    match mode {
        OutputMode::Json => format!(
            "{}\n",
            serde_json::to_string(event).expect("events serialize")
        ),
        OutputMode::Plain => format!(
            "{}\t{}\t{}\t{}\n",
            event.created_at,
            event.kind.as_str(),
            event.id,
            summarize(event)
        ),
        OutputMode::Table => {
            // The summary (with its case number) is what a moderator reads:
            // on a narrower terminal the event id goes first, then the kind
            // (the summary says it too) and the date (a listener is live:
            // the time of day is enough); then the summary is cut to the
            // width (`--wide`: everything whole).
            let fit = Fit::current();
            let narrow = |columns: usize| !fit.wide && fit.width.is_some_and(|w| w < columns);
            let (with_id, with_kind) = (!narrow(150), !narrow(100));
            let row = |time: &str, kind: &str, id: &str, what: &str| {
                let start = if with_id {
                    format!("{time:<23}  {kind:<17}  {id:<28}  ")
                } else if with_kind {
                    format!("{time:<23}  {kind:<17}  ")
                } else {
                    let time = if time == "TIME" {
                        time
                    } else {
                        time.split_whitespace().nth(1).unwrap_or(time)
                    };
                    format!("{time:<8}  ")
                };
                let what = match fit.width {
                    Some(width) if !fit.wide => {
                        cut(what, width.saturating_sub(start.chars().count()).max(8))
                    }
                    _ => what.to_owned(),
                };
                format!("{start}{what}\n")
            };
            let header = if first {
                row("TIME", "KIND", "EVENT", "WHAT (signature verified)")
            } else {
                String::new()
            };
            header
                + &row(
                    &human_time(&event.created_at),
                    event.kind.as_str(),
                    &event.id,
                    &summarize(event),
                )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modctl_types::webhooks::WebhookEvent;

    fn event() -> Event {
        Event {
            id: "evt_0123456789abcdefghijklmn".into(),
            kind: WebhookEvent::CaseCreated,
            created_at: "2026-11-22T08:20:16Z".parse().unwrap(),
            server_id: "100000000000000001".into(),
            data: serde_json::json!({"id": 3, "action": "warn", "user_id": "800000000000000004", "state": "settled"}),
        }
    }

    #[test]
    fn events_print_in_every_mode() {
        let e = event();
        assert_eq!(
            line(&e, OutputMode::Plain, true),
            "2026-11-22T08:20:16Z\tcase_created\tevt_0123456789abcdefghijklmn\tcase #3: warn 800000000000000004 (settled)\n"
        );
        let json = line(&e, OutputMode::Json, true);
        assert_eq!(json.lines().count(), 1);
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
        let table = line(&e, OutputMode::Table, true);
        assert!(table.starts_with("TIME"), "{table}");
        assert_eq!(table.lines().count(), 2);
        assert_eq!(line(&e, OutputMode::Table, false).lines().count(), 1);
    }

    /// The table lines at 60 and 120 columns: the case number always shows;
    /// at 60 the event id is left out and the summary cut to the width.
    #[test]
    fn table_lines_at_60_and_120_columns() {
        let mut named = event();
        named.data = serde_json::json!({"id": 12, "action": "ban", "user_id": "800000000000000004",
            "user_name": "Alice", "actor_name": "Demo moderator", "state": "settled"});
        let text = crate::output::at_widths(|| {
            line(&event(), OutputMode::Table, true) + &line(&named, OutputMode::Table, false)
        });
        for (width, block) in [(60, 1), (120, 2)] {
            let lines: Vec<&str> = text
                .split("--- ")
                .nth(block)
                .unwrap()
                .lines()
                .skip(1)
                .collect();
            assert!(
                lines.iter().all(|l| l.chars().count() <= width),
                "{width}: {text}"
            );
        }
        insta::assert_snapshot!("listen_table_at_widths", text);
        assert!(
            text.contains("case #12: ban Alice (800000000000000004) by Demo moderator (settled)")
        );
    }
}
