//! `modctl webhooks test|deliveries|delivery|redeliver|rotate-secret|listen`:
//! a server's outbound webhooks (issue #11). `listen`, a local receiver, is
//! in [`super::webhooks_listen`].
//!
//! The daemon delivers events in the background; these commands queue a test
//! event, read the delivery log, queue a delivery again and replace the
//! signing secret. `test --wait` polls the delivery until it is no longer
//! pending, so a newcomer sees at once whether their endpoint answered.

use std::time::Duration;

use clap::Subcommand;
use modctl_client::Client;
use modctl_types::query::DeliveryQuery;
use modctl_types::webhooks::{
    Delivery, DeliveryDetail, DeliveryList, DeliveryState, Enqueued, WebhookEvent,
};

use crate::commands::{print, webhooks_listen};
use crate::context::Context;
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, Rows, human_time, render_json, render_pairs};
use crate::prompt;
use crate::words;

/// How often `test --wait` reads the delivery: the daemon's worker runs
/// every second, so a faster poll would mostly see the same state.
const POLL: Duration = Duration::from_secs(1);

/// `modctl webhooks ...`
#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// Queue a `test` event to the server's webhook endpoint (plain: field<TAB>value)
    Test {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Wait until the delivery is no longer pending (or its next retry is over a minute off) and show it; exits 1 unless delivered
        #[arg(long)]
        wait: bool,
    },
    /// The delivery log, newest first (plain columns: id, event, kind, state, attempts, last status, last error, next attempt, created)
    Deliveries {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Only deliveries in this state: pending, delivered, failed or disabled
        #[arg(long)]
        state: Option<DeliveryState>,
        /// Only deliveries of this event kind: case_created, config_changed, jail_changed, snapshot_captured, snapshot_restored or test
        #[arg(long)]
        kind: Option<WebhookEvent>,
        /// At most this many (1 to 200) [default: 50]
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
        /// Only deliveries older than this one (the next page, as the table's footer names it)
        #[arg(long, value_name = "ID")]
        before: Option<i64>,
    },
    /// One delivery with every attempt (plain: field<TAB>value, then `attempt<TAB>n<TAB>at<TAB>status<TAB>ms<TAB>error` per attempt)
    Delivery {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The delivery id
        id: i64,
    },
    /// Queue a delivery again: same event id, fresh attempts (plain as delivery's)
    Redeliver {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The delivery id
        delivery: i64,
    },
    /// A local receiver: verifies each delivery's signature and prints the events as they arrive (plain: created<TAB>kind<TAB>event<TAB>summary; --json: one event per line)
    #[command(
        after_help = "Listens on 127.0.0.1 only. The signing secret comes from $MODCTL_WEBHOOK_SECRET (or the\n\
                      variable --secret-env names); on a terminal it is asked for when unset.\n\
                      A delivery that does not verify is answered 400 and reported on stderr."
    )]
    Listen {
        /// The port on 127.0.0.1 (0 picks a free one, printed on stderr)
        #[arg(long, default_value_t = 7879)]
        port: u16,
        /// The environment variable holding the signing secret
        #[arg(long, value_name = "VAR", default_value = webhooks_listen::SECRET_ENV)]
        secret_env: String,
        /// Exit after this many verified events
        #[arg(long, value_name = "N")]
        count: Option<u64>,
    },
    /// Replace the signing secret and print the new one, once
    #[command(
        after_help = "The new secret signs every delivery from now on; for 24 hours the old one signs too\n\
                      (two signatures in webhook-signature), so your receiver can switch meanwhile.\n\
                      It is printed this once: the daemon never shows it again.\n\
                      On a terminal it asks first; without a terminal it needs --yes."
    )]
    RotateSecret {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Do not ask for confirmation
        #[arg(long, short = 'y')]
        yes: bool,
    },
}

/// Runs a `webhooks` command; `test --wait` returns 1 when the endpoint did
/// not take the delivery.
pub async fn run(context: &Context, command: WebhooksCommand) -> Result<u8, CliError> {
    let mode = context.output;
    // The receiver talks to no daemon: it needs no URL nor key.
    if let WebhooksCommand::Listen {
        port,
        secret_env,
        count,
    } = command
    {
        let listen = webhooks_listen::Listen {
            port,
            secret_env,
            count,
        };
        return webhooks_listen::run(&listen, mode);
    }
    let client = context.client()?;
    match command {
        WebhooksCommand::Listen { .. } => unreachable!("answered above"),
        WebhooksCommand::Test { server, wait } => {
            let queued = client
                .test_webhook(&server)
                .await
                .map_err(|e| not_configured(e, &server))?;
            if !wait {
                print(&render_enqueued(&queued, mode));
                return Ok(exit::OK);
            }
            if mode != OutputMode::Json {
                eprintln!(
                    "queued event {} as delivery {}; waiting for it...",
                    queued.event_id, queued.delivery_id
                );
            }
            let detail = follow(&client, &server, queued.delivery_id).await?;
            print(&render_delivery(&detail, mode));
            return Ok(exit_code(&detail.delivery));
        }
        WebhooksCommand::Deliveries {
            server,
            state,
            kind,
            limit,
            before,
        } => {
            let query = DeliveryQuery {
                limit,
                state,
                kind,
                before,
            };
            let list = client
                .webhook_deliveries(&server, &query)
                .await
                .map_err(api_error(words::DELIVERIES))?;
            print(&render_deliveries(&list, mode));
        }
        WebhooksCommand::Delivery { server, id } => {
            let detail = client.webhook_delivery(&server, id).await?;
            print(&render_delivery(&detail, mode));
        }
        WebhooksCommand::Redeliver { server, delivery } => {
            let detail = client.redeliver_webhook(&server, delivery).await?;
            if mode != OutputMode::Json {
                eprintln!(
                    "delivery {delivery} queued again; `modctl webhooks delivery {server} {delivery}` shows how it went"
                );
            }
            print(&render_delivery(&detail, mode));
        }
        WebhooksCommand::RotateSecret { server, yes } => {
            let question = format!(
                "Replace the webhook signing secret of server {server}? The current one keeps signing for 24 hours, then stops"
            );
            if !prompt::confirm(&question, yes)? {
                return Ok(prompt::cancelled());
            }
            let secret = client.rotate_webhook_secret(&server).await?;
            // JSON prints the object as the API returns it; otherwise the
            // secret alone on stdout (so `| tee` or `$(...)` takes it whole)
            // and the warning on stderr.
            match mode {
                OutputMode::Json => print(&render_json(&secret)),
                _ => print(&format!("{}\n", secret.secret)),
            }
            eprintln!(
                "this secret will not be shown again: store it in your receiver's configuration now"
            );
        }
    }
    Ok(exit::OK)
}

/// The daemon's `not_configured` names config endpoints; the hint names the
/// commands.
fn not_configured(err: modctl_client::Error, server: &str) -> CliError {
    let unconfigured = err.code() == Some(&modctl_client::ErrorCode::NotConfigured);
    let error = CliError::from(err);
    if unconfigured && error.hint_text().is_none() {
        error.hint(format!(
            "`modctl config set {server} webhooks.url https://...` and `modctl config set {server} webhooks.enabled true`; \
             `modctl webhooks rotate-secret {server}` creates a signing secret"
        ))
    } else {
        error
    }
}

/// How long a retry may be off for `test --wait` to keep waiting: the
/// daemon's first retry comes 5 s after a failure, the next ones minutes to
/// hours later, too long for a person at the terminal.
const LONGEST_WAIT_SECS: i64 = 60;

/// Reads the delivery until it is no longer pending, or its next retry is
/// more than [`LONGEST_WAIT_SECS`] after the failed attempt, saying on stderr
/// what each attempt did. Interrupting stops the waiting, not the delivery.
async fn follow(client: &Client, server: &str, id: i64) -> Result<DeliveryDetail, CliError> {
    let mut seen = 0;
    loop {
        let detail = client.webhook_delivery(server, id).await?;
        for attempt in detail.history.iter().skip(seen) {
            eprintln!(
                "attempt {}: {}",
                attempt.attempt,
                attempt_outcome(attempt.status, attempt.error.as_deref())
            );
        }
        seen = detail.history.len();
        if detail.delivery.state != DeliveryState::Pending {
            return Ok(detail);
        }
        // Both times are the daemon's, so a skewed local clock does not matter.
        if let (Some(next), Some(last)) = (detail.delivery.next_attempt_at, detail.history.last())
            && next.as_second() - last.at.as_second() > LONGEST_WAIT_SECS
        {
            eprintln!(
                "the daemon retries at {}; `modctl webhooks delivery {server} {id}` shows how it went",
                human_time(&next)
            );
            return Ok(detail);
        }
        tokio::time::sleep(POLL).await;
    }
}

/// 1 when the endpoint did not take the delivery: it failed, was disabled,
/// or is waiting for a retry after a failed attempt.
fn exit_code(delivery: &Delivery) -> u8 {
    match delivery.state {
        DeliveryState::Delivered => exit::OK,
        DeliveryState::Pending if delivery.attempts == 0 => exit::OK,
        DeliveryState::Pending | DeliveryState::Failed | DeliveryState::Disabled => exit::FAILURE,
    }
}

fn attempt_outcome(status: Option<u16>, error: Option<&str>) -> String {
    match (status, error) {
        (Some(status), Some(error)) => format!("HTTP {status}: {error}"),
        (Some(status), None) => format!("HTTP {status}"),
        (None, Some(error)) => error.to_owned(),
        (None, None) => "no answer".to_owned(),
    }
}

/// `test` without `--wait`: what was queued.
pub fn render_enqueued(queued: &Enqueued, mode: OutputMode) -> String {
    match mode {
        OutputMode::Json => render_json(queued),
        _ => render_pairs(
            &[
                ("event", queued.event_id.clone()),
                ("delivery", queued.delivery_id.to_string()),
            ],
            mode,
        ),
    }
}

/// `deliveries`: one row per delivery; the table names the next page.
pub fn render_deliveries(list: &DeliveryList, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(list);
    }
    let mut rows = Rows::new(vec![
        "ID",
        "EVENT",
        "KIND",
        "STATE",
        "ATTEMPTS",
        "STATUS",
        "LAST ERROR",
        "NEXT ATTEMPT",
        "CREATED",
    ])
    .long(&["LAST ERROR"])
    .droppable(&["EVENT", "CREATED", "NEXT ATTEMPT", "STATUS", "ATTEMPTS"]);
    for d in &list.deliveries {
        rows.push(vec![
            d.id.to_string(),
            d.event_id.clone(),
            d.kind.as_str().to_owned(),
            d.state.as_str().to_owned(),
            d.attempts.to_string(),
            d.last_status.map(|s| s.to_string()).unwrap_or_default(),
            d.last_error.clone().unwrap_or_default(),
            d.next_attempt_at
                .as_ref()
                .map(human_time)
                .unwrap_or_default(),
            human_time(&d.created_at),
        ]);
    }
    let mut text = rows.render(mode);
    if mode == OutputMode::Table {
        if list.deliveries.is_empty() {
            text.push_str("no deliveries\n");
        }
        if let Some(before) = list.next_before {
            text.push_str(&format!("more: --before {before}\n"));
        }
    }
    text
}

/// `delivery`, `redeliver` and `test --wait`: the delivery and its attempts.
pub fn render_delivery(detail: &DeliveryDetail, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(detail);
    }
    let d = &detail.delivery;
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
    let pairs = [
        ("id", d.id.to_string()),
        ("event", d.event_id.clone()),
        ("kind", d.kind.as_str().to_owned()),
        ("url", d.url.clone()),
        ("state", d.state.as_str().to_owned()),
        ("attempts", d.attempts.to_string()),
        ("last_status", opt(d.last_status.map(|s| s.to_string()))),
        ("last_error", opt(d.last_error.clone())),
        (
            "next_attempt",
            opt(d.next_attempt_at.as_ref().map(human_time)),
        ),
        ("created", human_time(&d.created_at)),
    ];
    let mut text = render_pairs(&pairs, mode);
    if mode == OutputMode::Plain {
        for a in &detail.history {
            text.push_str(&format!(
                "attempt\t{}\t{}\t{}\t{}\t{}\n",
                a.attempt,
                human_time(&a.at),
                a.status.map(|s| s.to_string()).unwrap_or_default(),
                a.duration_ms,
                a.error
                    .as_deref()
                    .unwrap_or_default()
                    .replace(['\t', '\n', '\r'], " ")
            ));
        }
        return text;
    }
    if detail.history.is_empty() {
        text.push_str("no attempts yet\n");
        return text;
    }
    let mut rows = Rows::new(vec!["ATTEMPT", "AT", "STATUS", "TIME", "ERROR"])
        .long(&["ERROR"])
        .droppable(&["TIME", "AT"]);
    for a in &detail.history {
        rows.push(vec![
            a.attempt.to_string(),
            human_time(&a.at),
            a.status.map(|s| s.to_string()).unwrap_or_default(),
            format!("{} ms", a.duration_ms),
            a.error.clone().unwrap_or_default(),
        ]);
    }
    text.push('\n');
    text.push_str(&rows.render(mode));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(id: i64, state: &str, attempts: u32) -> serde_json::Value {
        serde_json::json!({
            "id": id,
            "event_id": format!("evt_{id:04}"),
            "kind": "case_created",
            "url": "https://hooks.example.com/modctl",
            "state": state,
            "attempts": attempts,
            "last_status": if attempts > 0 { serde_json::json!(500) } else { serde_json::Value::Null },
            "last_error": if state == "failed" { serde_json::json!("HTTP 500 Internal Server Error") } else { serde_json::Value::Null },
            "next_attempt_at": if state == "pending" { serde_json::json!("2026-11-21T09:13:10Z") } else { serde_json::Value::Null },
            "created_at": "2026-11-21T09:08:10Z",
        })
    }

    fn list() -> DeliveryList {
        serde_json::from_value(serde_json::json!({
            "deliveries": [delivery(12, "failed", 8), delivery(11, "pending", 1), delivery(10, "delivered", 0)],
            "next_before": 10,
        }))
        .unwrap()
    }

    fn detail() -> DeliveryDetail {
        let mut value = delivery(11, "pending", 2);
        value["history"] = serde_json::json!([
            {"attempt": 1, "at": "2026-11-21T09:08:11Z", "status": 500, "error": "HTTP 500 Internal Server Error", "duration_ms": 12},
            {"attempt": 2, "at": "2026-11-21T09:08:16Z", "status": null, "error": "connection refused\tby peer", "duration_ms": 3},
        ]);
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn delivery_lists_in_every_mode() {
        insta::assert_snapshot!(
            "deliveries_table",
            render_deliveries(&list(), OutputMode::Table)
        );
        insta::assert_snapshot!(
            "deliveries_plain",
            render_deliveries(&list(), OutputMode::Plain)
        );
        let json: serde_json::Value =
            serde_json::from_str(&render_deliveries(&list(), OutputMode::Json)).unwrap();
        assert_eq!(json["next_before"], 10);
        assert_eq!(json["deliveries"][0]["state"], "failed");
    }

    #[test]
    fn a_delivery_shows_its_attempts() {
        insta::assert_snapshot!(
            "delivery_table",
            render_delivery(&detail(), OutputMode::Table)
        );
        insta::assert_snapshot!(
            "delivery_plain",
            render_delivery(&detail(), OutputMode::Plain)
        );
    }

    #[test]
    fn a_test_event_names_its_delivery() {
        let queued = Enqueued {
            event_id: "evt_0042".into(),
            delivery_id: 42,
        };
        assert_eq!(
            render_enqueued(&queued, OutputMode::Plain),
            "event\tevt_0042\ndelivery\t42\n"
        );
    }

    #[test]
    fn only_an_ended_failure_exits_one() {
        let mut d = detail().delivery;
        // Pending after a failed attempt: the endpoint did not take it.
        assert_eq!(exit_code(&d), exit::FAILURE);
        d.attempts = 0;
        assert_eq!(exit_code(&d), exit::OK);
        d.state = DeliveryState::Failed;
        assert_eq!(exit_code(&d), exit::FAILURE);
        d.state = DeliveryState::Disabled;
        assert_eq!(exit_code(&d), exit::FAILURE);
        d.state = DeliveryState::Delivered;
        assert_eq!(exit_code(&d), exit::OK);
    }

    #[test]
    fn deliveries_at_60_and_120_columns() {
        insta::assert_snapshot!(crate::output::at_widths(|| render_deliveries(
            &list(),
            OutputMode::Table
        )));
        insta::assert_snapshot!(
            "delivery_at_widths",
            crate::output::at_widths(|| render_delivery(&detail(), OutputMode::Table))
        );
    }
}
