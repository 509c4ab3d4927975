//! `modctl watch SERVER`: the server's events as they happen (issue #27),
//! one line each, like `stripe listen` or `kubectl get -w`. Reads the
//! SDK's [`Client::events`](modctl_client::Client::events), which
//! reconnects with `Last-Event-ID` when the daemon restarts, so nothing
//! replayable is missed; Ctrl-C ends it (exit 0).
//!
//! Lines: on a terminal `TIME  TYPE  SUMMARY` (UTC time, a short type name,
//! cut to the width);
//! piped, tab-separated `time<TAB>type<TAB>id<TAB>summary`; `--json`, the
//! event's JSON on one line. A `reset` (events may have been missed) and a
//! `lagged` (joins dropped) are lines too; the connection's state goes to
//! stderr. A daemon that cannot be reached at the start is an error (exit
//! 3); once connected, a lost connection is retried until Ctrl-C.

use std::io::{IsTerminal, Write};

use modctl_client::live::{StreamItem, StreamOptions, summarize};
use modctl_types::Timestamp;
use modctl_types::live::{LiveEvent, LiveEventKind};

use crate::context::Context;
use crate::exit::{self, CliError};
use crate::output::{Fit, OutputMode, paint_stderr};

/// `modctl watch --help`'s closing lines.
pub const WATCH_HELP: &str = "\
Lines: on a terminal TIME (UTC)  TYPE (short)  SUMMARY; piped (or --plain), tab-separated
  time<TAB>type<TAB>id<TAB>summary
and with --json the event's JSON, one a line. A `reset` line means events may have been
missed (refetch); a `lagged` line, that joins were dropped. When the daemon restarts, watch
reconnects and resumes after the last id it printed (joins are not replayed).

Examples:
  modctl watch 112233445566778899
  modctl watch 112233445566778899 --types case_created,automod_hit
  modctl watch 112233445566778899 --json | jq -r 'select(.type == \"case_created\") | .data.id'
  modctl watch 112233445566778899 --since 41 --count 5";

/// `modctl watch`'s arguments.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// The server id
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// Only these event types, comma-separated: case_created, automod_hit, jail_changed,
    /// config_changed, lockdown_started, lockdown_ended, antinuke_triggered, case_corrected,
    /// member_joined
    #[arg(long, value_delimiter = ',', value_name = "TYPE", value_parser = parse_kind)]
    pub types: Vec<LiveEventKind>,
    /// Start after this event id (an id printed before): the events since then come first
    #[arg(long, value_name = "ID")]
    pub since: Option<i64>,
    /// Stop after this many events
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
}

fn parse_kind(text: &str) -> Result<LiveEventKind, String> {
    text.trim().parse()
}

/// Runs `modctl watch` until Ctrl-C (or `--count` events).
pub async fn run(context: &Context, args: WatchArgs) -> Result<u8, CliError> {
    let client = context.client()?;
    let mode = context.output;
    let mut stream = client.events(
        &args.server,
        StreamOptions {
            types: args.types.clone(),
            last_event_id: args.since,
            no_reconnect: false,
        },
    );
    let status = std::io::stderr().is_terminal();
    let mut seen = 0u64;
    let mut reconnecting = false;
    let mut connected = false;
    loop {
        let item = tokio::select! {
            _ = tokio::signal::ctrl_c() => return Ok(exit::OK),
            item = stream.next() => item,
        };
        let Some(item) = item else {
            return Ok(exit::OK);
        };
        match item? {
            StreamItem::Connected => {
                if reconnecting {
                    eprintln!(
                        "{}",
                        paint_stderr(
                            &format!(
                                "reconnected; resuming after event {}",
                                stream
                                    .last_event_id()
                                    .map_or("-".into(), |id| id.to_string())
                            ),
                            console::Style::new().green()
                        )
                    );
                } else if status {
                    eprintln!(
                        "watching {}{}; Ctrl-C to stop",
                        args.server,
                        types_note(&args.types)
                    );
                }
                reconnecting = false;
                connected = true;
            }
            // Never connected: a wrong URL or a daemon that is down is
            // said at once (exit 3), not retried behind the user's back.
            StreamItem::Disconnected { reason, .. } if !connected => {
                return Err(CliError::with_code(
                    exit::UNREACHABLE,
                    format!("cannot reach the daemon: {reason}"),
                )
                .hint(
                    "check that modctld runs and the URL (`modctl whoami` shows the one in use)",
                ));
            }
            StreamItem::Disconnected { reason, retry_in } => {
                reconnecting = true;
                eprintln!(
                    "{}",
                    paint_stderr(
                        &format!(
                            "connection lost ({reason}); reconnecting in {}s",
                            retry_in.as_secs().max(1)
                        ),
                        console::Style::new().yellow()
                    )
                );
            }
            StreamItem::Event(event) => {
                emit(&event_line(&event, mode, Fit::current().width));
                seen += 1;
                if args.count.is_some_and(|count| seen >= count) {
                    return Ok(exit::OK);
                }
            }
            StreamItem::Reset(reset) => emit(&notice_line(
                "reset",
                Some(reset.last_id),
                &format!("events may have been missed: {}", reset.reason),
                &serde_json::to_value(&reset).unwrap_or_default(),
                &Timestamp::now(),
                mode,
                Fit::current().width,
            )),
            StreamItem::Lagged(lagged) => emit(&notice_line(
                "lagged",
                None,
                &format!(
                    "{} joins dropped: this terminal read too slowly",
                    lagged.missed
                ),
                &serde_json::to_value(&lagged).unwrap_or_default(),
                &Timestamp::now(),
                mode,
                Fit::current().width,
            )),
        }
    }
}

fn types_note(types: &[LiveEventKind]) -> String {
    if types.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = types.iter().map(|k| k.as_str()).collect();
    format!(" ({})", names.join(", "))
}

/// Writes a line at once (a watcher's pipe must not wait for a buffer).
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The width of the type column on a terminal: the longest [`label`].
const TYPE_WIDTH: usize = 12;

/// A type's short name on a terminal, where width is scarce (piped lines
/// and JSON keep the type's own name, which `--types` takes).
fn label(kind: &str) -> &str {
    match kind {
        "case_created" => "case",
        "automod_hit" => "automod hit",
        "jail_changed" => "jail",
        "config_changed" => "config",
        "lockdown_started" => "lockdown on",
        "lockdown_ended" => "lockdown off",
        "antinuke_triggered" => "antinuke",
        "case_corrected" => "correction",
        "member_joined" => "join",
        other => other,
    }
}

/// One event as printed in `mode`, cut to `width` on a terminal.
pub fn event_line(event: &LiveEvent, mode: OutputMode, width: Option<usize>) -> String {
    match mode {
        OutputMode::Json => format!(
            "{}\n",
            serde_json::to_string(event).expect("events serialize")
        ),
        OutputMode::Plain => format!(
            "{}\t{}\t{}\t{}\n",
            event.created_at,
            event.kind,
            event.id.map(|id| id.to_string()).unwrap_or_default(),
            summarize(event)
        ),
        OutputMode::Table => {
            let line = |event: &LiveEvent, width| {
                table_line(
                    &event.created_at,
                    event.kind.as_str(),
                    &summarize(event),
                    width,
                )
            };
            match width {
                Some(width) => line(&name_cut(event, &line(event, None), width), Some(width)),
                None => line(event, None),
            }
        }
    }
}

/// `event` with the member's name (issue #27) cut so that `name (id)` ends
/// within `width` in its uncut `line`, or left out when fewer than 2 of
/// its characters would be left: a narrow terminal cuts the name, never
/// the id, as the tables do.
fn name_cut(event: &LiveEvent, line: &str, width: usize) -> LiveEvent {
    let mut event = event.clone();
    let member = match event.data.get("jail") {
        Some(serde_json::Value::Object(_)) => event.data.get_mut("jail"),
        _ => Some(&mut event.data),
    };
    let Some(serde_json::Value::Object(member)) = member else {
        return event;
    };
    let (Some(name), Some(id)) = (
        member.get("user_name").and_then(|n| n.as_str()),
        member.get("user_id").and_then(|n| n.as_str()),
    ) else {
        return event;
    };
    let shown = format!("{name} ({id})");
    let Some(at) = line.find(&shown) else {
        return event;
    };
    // Where `name (id)` ends, in characters; a cut line keeps width - 1
    // of them before its `…`.
    let end = line[..at].chars().count() + shown.chars().count();
    let over = end.saturating_sub(width.saturating_sub(1));
    if over == 0 {
        return event;
    }
    let room = name.chars().count().saturating_sub(over);
    if room >= 2 {
        let cut = crate::output::cut(name, room);
        member.insert("user_name".into(), cut.into());
    } else {
        member.remove("user_name");
    }
    event
}

/// A `reset` or `lagged` notice as printed in `mode`: the same fields as
/// an event's line (`json` is its data for `--json`).
pub fn notice_line(
    kind: &str,
    id: Option<i64>,
    text: &str,
    json: &serde_json::Value,
    now: &Timestamp,
    mode: OutputMode,
    width: Option<usize>,
) -> String {
    match mode {
        OutputMode::Json => {
            let mut object = serde_json::Map::new();
            object.insert("type".into(), kind.into());
            if let serde_json::Value::Object(fields) = json {
                object.extend(fields.clone());
            }
            format!("{}\n", serde_json::Value::Object(object))
        }
        OutputMode::Plain => format!(
            "{now}\t{kind}\t{}\t{text}\n",
            id.map(|id| id.to_string()).unwrap_or_default()
        ),
        OutputMode::Table => table_line(now, kind, text, width),
    }
}

fn table_line(time: &Timestamp, kind: &str, summary: &str, width: Option<usize>) -> String {
    let line = format!(
        "{}  {:<TYPE_WIDTH$}  {summary}",
        time.strftime("%H:%M:%S"),
        label(kind)
    );
    format!("{}\n", cut(&line, width))
}

/// `text` cut to `width` characters, ending in `…` when cut.
fn cut(text: &str, width: Option<usize>) -> String {
    match width {
        Some(width) if text.chars().count() > width && width > 1 => {
            let kept: String = text.chars().take(width - 1).collect();
            format!("{}…", kept.trim_end())
        }
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at() -> Timestamp {
        "2026-11-27T21:04:05Z".parse().unwrap()
    }

    fn events() -> Vec<LiveEvent> {
        let event = |id: Option<i64>, kind, data| LiveEvent {
            id,
            kind,
            created_at: at(),
            server_id: "112233445566778899".into(),
            data,
        };
        vec![
            event(
                Some(41),
                LiveEventKind::CaseCreated,
                json!({"id": 315, "action": "warn", "user_id": "800000000000000004", "user_name": "Alice", "state": "settled", "reason": "spam in #general"}),
            ),
            event(
                Some(42),
                LiveEventKind::AutomodHit,
                json!({"id": 77, "filter": "blocked_words", "matched": "free nitro", "user_id": "800000000000000005", "action": "warn", "case_id": 316}),
            ),
            event(
                Some(43),
                LiveEventKind::JailChanged,
                json!({"change": "started", "case_id": 317, "source": "api", "reason": null, "jail": {"user_id": "800000000000000006"}}),
            ),
            // The daemon names a case's member when it knows the name
            // (issue #27); this one it does not.
            event(
                Some(45),
                LiveEventKind::CaseCreated,
                json!({"id": 318, "action": "note", "user_id": "800000000000000007", "state": "settled"}),
            ),
            event(
                Some(44),
                LiveEventKind::ConfigChanged,
                json!({"section": "automod", "actor": "key:lhqsjyhvu1q7", "changes": [{"path": "automod.blocked_words"}, {"path": "automod.exempt_role_ids"}]}),
            ),
            event(
                None,
                LiveEventKind::MemberJoined,
                json!({"user_id": "800000000000000042", "name": "Eve", "is_bot": false, "channel_id": null}),
            ),
        ]
    }

    fn render(mode: OutputMode, width: Option<usize>) -> String {
        let mut out: String = events()
            .iter()
            .map(|e| event_line(e, mode, width))
            .collect();
        out += &notice_line(
            "reset",
            Some(44),
            "events may have been missed: events after 3 are no longer kept (the oldest kept is 9): refetch what you show",
            &json!({"reason": "events after 3 are no longer kept", "last_id": 44}),
            &at(),
            mode,
            width,
        );
        out
    }

    #[test]
    fn watch_lines_at_60_and_120_columns() {
        insta::assert_snapshot!("watch_table_60", render(OutputMode::Table, Some(60)));
        insta::assert_snapshot!("watch_table_120", render(OutputMode::Table, Some(120)));
        for line in render(OutputMode::Table, Some(60)).lines() {
            assert!(line.chars().count() <= 60, "{line}");
        }
    }

    #[test]
    fn watch_lines_piped_and_as_json() {
        insta::assert_snapshot!("watch_plain", render(OutputMode::Plain, Some(60)));
        let json = render(OutputMode::Json, Some(60));
        insta::assert_snapshot!("watch_json", json);
        for line in json.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect(line);
            assert!(value["type"].is_string(), "{line}");
        }
        let plain = render(OutputMode::Plain, None);
        assert!(
            plain.lines().all(|l| l.split('\t').count() == 4),
            "four fields a line: {plain}"
        );
    }

    /// A narrow terminal cuts a member's name, never their id (issue #27):
    /// the name shortened with `…`, or left out when too little of it
    /// would be left; piped lines keep it whole.
    #[test]
    fn a_narrow_line_cuts_the_name_not_the_id() {
        let mut case = events().remove(0);
        case.data["user_name"] = json!("Alexandra the Magnificent");
        let at = |width| event_line(&case, OutputMode::Table, Some(width));
        assert_eq!(
            at(120),
            "21:04:05  case          case #315: warn Alexandra the Magnificent (800000000000000004) (settled)\n"
        );
        assert_eq!(
            at(70),
            "21:04:05  case          case #315: warn Alexand… (800000000000000004)…\n"
        );
        assert_eq!(
            at(60),
            "21:04:05  case          case #315: warn 800000000000000004…\n"
        );
        for width in [60, 70, 80] {
            assert!(at(width).chars().count() <= width + 1, "{width}");
        }
        assert!(
            event_line(&case, OutputMode::Plain, Some(60))
                .contains("Alexandra the Magnificent (800000000000000004)")
        );
    }
}
