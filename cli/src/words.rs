//! The API's words in the CLI's words.
//!
//! The daemon's messages name what an HTTP client sends: body fields
//! (`minutes`), headers (`Idempotency-Key`) and endpoints
//! (`GET /api/v1/servers`). The SDK passes them on unchanged, since its users
//! send exactly those; a person at the terminal typed `--duration 29d`, so
//! the CLI says `--duration` and `28d`. Every translation is a row of the
//! tables below, and [`reword`] is the one place that applies them:
//!
//! - [`ENDPOINTS`]: an API tail of a message, moved into the hint in CLI words;
//! - [`TEMPLATES`]: the same for a pointer to one server's (or job's)
//!   endpoint, whose command names that server;
//! - [`PHRASES`]: an API phrase inside a message, replaced;
//! - the per-command flag tables ([`ACTION`], [`CASES`], [`AUDIT`],
//!   [`CLONE`], [`SNAPSHOT_ID`], [`SNAPSHOT_QUERY`], [`RESTORE`], [`DELIVERIES`]): a field named at the start of a message, or quoted in it,
//!   becomes the flag; numbers of a field measured in minutes are written as
//!   the durations `--duration` takes.

/// How a field's numbers are written on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// As they are.
    Plain,
    /// Minutes, written as a duration: `40320` -> `28d`, `90` -> `1h30m`.
    Minutes,
}

/// A field of the API and the flag (or argument) that sets it.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// The API's name: a body field, query parameter or header.
    pub api: &'static str,
    /// What the user typed instead.
    pub cli: &'static str,
    /// How its numbers are written.
    pub unit: Unit,
}

const fn flag(api: &'static str, cli: &'static str) -> Flag {
    Flag {
        api,
        cli,
        unit: Unit::Plain,
    }
}

/// `modctl action`: the action request's fields.
pub const ACTION: &[Flag] = &[
    Flag {
        api: "minutes",
        cli: "--duration",
        unit: Unit::Minutes,
    },
    flag("delete_message_days", "--delete-days"),
    flag("reason", "--reason"),
    flag("user_id", "USER"),
    flag("Idempotency-Key", "--idempotency-key"),
];

/// `modctl cases list`: the query parameters.
pub const CASES: &[Flag] = &[
    flag("limit", "--limit"),
    flag("user_id", "--user"),
    flag("since", "--since"),
    flag("until", "--until"),
];

/// `modctl config audit`: the query parameters.
pub const AUDIT: &[Flag] = &[flag("limit", "--limit")];

/// `modctl config clone`: the body.
pub const CLONE: &[Flag] = &[flag("from", "--from")];

/// `modctl snapshot diff`: the restore plan's body names the snapshot.
pub const SNAPSHOT_ID: &[Flag] = &[flag("snapshot_id", "ID")];

/// `modctl snapshot show`: the query's snapshot id.
pub const SNAPSHOT_QUERY: &[Flag] = &[flag("id", "ID")];

/// `modctl snapshot restore`: the body and the query.
pub const RESTORE: &[Flag] = &[flag("snapshot_id", "--from"), flag("dry_run", "--dry-run")];

/// `modctl webhooks deliveries`: the query parameters.
pub const DELIVERIES: &[Flag] = &[
    flag("limit", "--limit"),
    flag("state", "--state"),
    flag("kind", "--kind"),
    flag("before", "--before"),
];

/// Messages that point at one server's (or job's) endpoint, as templates:
/// a message matching the first becomes the second, with the third as its
/// hint. `{name}` stands for any text and takes the same value wherever it
/// appears.
pub const TEMPLATES: &[(&str, &str, &str)] = &[
    (
        "{head}: capture one with `POST /api/v1/servers/{server}/structure-snapshot`",
        "{head}",
        "`modctl snapshot capture {server}` captures one",
    ),
    (
        "{head}: list the ones kept with `GET /api/v1/servers/{server}/structure-snapshot`",
        "{head}",
        "`modctl snapshot list {server}` lists the ones kept",
    ),
    (
        "restore job {job} of server {server} is still running: follow it with `GET /api/v1/servers/{server}/structure-snapshot/restore/{job}` and restore again once it has ended",
        "restore job {job} of server {server} is still running",
        "`modctl snapshot job {server} {job} --wait` follows it; restore again once it has ended",
    ),
];

/// The values of `template`'s `{name}`s in `text`, if it matches. Each
/// `{name}` takes the shortest text up to the literal that follows it (the
/// rest of `text` when none does); a name seen twice must match the same text.
fn match_template<'t>(template: &'t str, text: &str) -> Option<Vec<(&'t str, String)>> {
    let mut values: Vec<(&str, String)> = Vec::new();
    let (mut template, mut text) = (template, text);
    loop {
        let Some(open) = template.find('{') else {
            return (template == text).then_some(values);
        };
        text = text.strip_prefix(&template[..open])?;
        let close = open + template[open..].find('}')?;
        let name = &template[open + 1..close];
        template = &template[close + 1..];
        let literal = &template[..template.find('{').unwrap_or(template.len())];
        let end = if literal.is_empty() {
            text.len()
        } else {
            text.find(literal)?
        };
        let value = &text[..end];
        if value.is_empty() {
            return None;
        }
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, seen)) if seen != value => return None,
            Some(_) => {}
            None => values.push((name, value.to_owned())),
        }
        text = &text[end..];
    }
}

fn fill(template: &str, values: &[(&str, String)]) -> String {
    values
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

/// A message ending in an API pointer: the tail is cut from the message and
/// the hint says the same with the CLI's command.
pub const ENDPOINTS: &[(&str, &str)] = &[(
    ": `GET /api/v1/servers` lists the servers your team has claimed",
    "`modctl servers list` lists the servers your team has claimed",
)];

/// API phrases inside a message and what the CLI says instead.
pub const PHRASES: &[(&str, &str)] = &[(
    "as `GET /config/export` returns",
    "as `modctl config export` prints",
)];

/// `message` (and its hint, if any) in the CLI's words, for a command whose
/// flags are `flags`. Returns the new message and, when an endpoint pointer
/// was moved out of the message, the hint that replaces it.
pub fn reword(message: &str, flags: &[Flag]) -> (String, Option<String>) {
    let mut text = message.to_owned();
    let mut hint = None;
    for (tail, cli) in ENDPOINTS {
        if let Some(head) = text.strip_suffix(tail) {
            text = head.to_owned();
            hint = Some((*cli).to_owned());
        }
    }
    for (api, cli, cli_hint) in TEMPLATES {
        if let Some(values) = match_template(api, &text) {
            text = fill(cli, &values);
            hint = Some(fill(cli_hint, &values));
        }
    }
    for (api, cli) in PHRASES {
        text = text.replace(api, cli);
    }
    for flag in flags {
        text = reword_field(&text, flag);
    }
    (text, hint)
}

/// Renames `flag`'s field where the message names it: at its start
/// (`minutes must be ...`, `user_id: ...`) or quoted (`"reason"`, `` `from` ``).
/// Plain-text uses elsewhere ("requires a reason") are the English word, not
/// the field, and stay.
fn reword_field(message: &str, flag: &Flag) -> String {
    let mut text = message
        .replace(&format!("\"{}\"", flag.api), flag.cli)
        .replace(&format!("`{}`", flag.api), flag.cli);
    let leads = text
        .strip_prefix(flag.api)
        .is_some_and(|rest| rest.starts_with([' ', ':']));
    if leads {
        text = format!("{}{}", flag.cli, &text[flag.api.len()..]);
        if flag.unit == Unit::Minutes {
            text = minutes_as_durations(&text);
        }
    }
    text
}

/// Writes the numbers of a range or value (`between A and B`, `got V`,
/// `A to B`) as durations; other numbers (`(28 days)`) stay.
fn minutes_as_durations(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let digits = word.trim_end_matches([',', ':', ';']);
        let punctuation = &word[digits.len()..];
        let before = i.checked_sub(1).map(|j| words[j]);
        let after = words.get(i + 1).copied();
        let in_range =
            matches!(before, Some("between" | "and" | "got" | "to")) || after == Some("to");
        match digits.parse::<i64>() {
            Ok(minutes) if in_range => out.push(format!("{}{punctuation}", duration(minutes))),
            _ => out.push((*word).to_owned()),
        }
    }
    out.join(" ")
}

/// Minutes as `--duration` takes them: `40320` -> `28d`, `90` -> `1h30m`,
/// `0` -> `0m`.
pub fn duration(minutes: i64) -> String {
    if minutes <= 0 {
        return format!("{minutes}m");
    }
    let mut text = String::new();
    let mut rest = minutes;
    for (unit, size) in [("d", 1440), ("h", 60), ("m", 1)] {
        if rest >= size {
            text.push_str(&format!("{}{unit}", rest / size));
            rest %= size;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_written_as_the_flag_takes_them() {
        assert_eq!(duration(40_320), "28d");
        assert_eq!(duration(41_760), "29d");
        assert_eq!(duration(90), "1h30m");
        assert_eq!(duration(1), "1m");
        assert_eq!(duration(0), "0m");
        assert_eq!(duration(-5), "-5m");
        // What the CLI prints, it reads back.
        for minutes in [1, 59, 61, 1441, 40_320, 525_600] {
            assert_eq!(
                crate::commands::action::parse_duration(&duration(minutes)),
                Ok(minutes)
            );
        }
    }

    #[test]
    fn action_fields_become_flags() {
        for (api, cli) in [
            (
                "minutes must be between 1 and 40320 for timeout, got 41760",
                "--duration must be between 1m and 28d for timeout, got 29d",
            ),
            (
                "minutes must be between 1 and 525600 for jail, got 0",
                "--duration must be between 1m and 365d for jail, got 0m",
            ),
            (
                "minutes is only used by timeout and jail, not by warn",
                "--duration is only used by timeout and jail, not by warn",
            ),
            (
                "minutes is required for timeout: 1 to 40320 (28 days)",
                "--duration is required for timeout: 1m to 28d (28 days)",
            ),
            (
                "delete_message_days must be between 0 and 7 for ban, got 9",
                "--delete-days must be between 0 and 7 for ban, got 9",
            ),
            (
                "delete_message_days is only used by ban, not by kick",
                "--delete-days is only used by ban, not by kick",
            ),
            (
                "this server requires a reason for every action (moderation.require_reason): add \"reason\"",
                "this server requires a reason for every action (moderation.require_reason): add --reason",
            ),
            (
                "user_id: `alice` is not a discord user id",
                "USER: `alice` is not a discord user id",
            ),
            (
                "Idempotency-Key must be 1 to 255 visible ASCII characters, e.g. a UUID",
                "--idempotency-key must be 1 to 255 visible ASCII characters, e.g. a UUID",
            ),
        ] {
            assert_eq!(reword(api, ACTION), (cli.to_owned(), None));
        }
    }

    #[test]
    fn a_field_is_only_renamed_where_the_message_names_it() {
        // "minutes" as a word inside a sentence, and a field of another command.
        let message = "the timeout ended 5 minutes ago; limit must be between 1 and 200";
        assert_eq!(reword(message, ACTION).0, message);
        assert_eq!(
            reword("limit must be between 1 and 200, got 201", CASES).0,
            "--limit must be between 1 and 200, got 201"
        );
        assert_eq!(
            reword("`from` is required: the id of the server", CLONE).0,
            "--from is required: the id of the server"
        );
    }

    #[test]
    fn snapshot_pointers_become_commands_for_the_server_they_name() {
        assert_eq!(
            reword(
                "server -100 has no structure snapshot yet: capture one with `POST /api/v1/servers/-100/structure-snapshot`",
                &[]
            ),
            (
                "server -100 has no structure snapshot yet".to_owned(),
                Some("`modctl snapshot capture -100` captures one".to_owned())
            )
        );
        assert_eq!(
            reword(
                "server 1 has no structure snapshot 9: list the ones kept with `GET /api/v1/servers/1/structure-snapshot`",
                &[]
            ),
            (
                "server 1 has no structure snapshot 9".to_owned(),
                Some("`modctl snapshot list 1` lists the ones kept".to_owned())
            )
        );
        assert_eq!(
            reword(
                "restore job 4 of server 1 is still running: follow it with `GET /api/v1/servers/1/structure-snapshot/restore/4` and restore again once it has ended",
                &[]
            ),
            (
                "restore job 4 of server 1 is still running".to_owned(),
                Some(
                    "`modctl snapshot job 1 4 --wait` follows it; restore again once it has ended"
                        .to_owned()
                )
            )
        );
        // A name seen twice must be the same text both times.
        assert_eq!(match_template("job {job} of {job}", "job 4 of 5"), None);
        assert_eq!(
            reword("snapshot_id 9 is not a snapshot of server 1", RESTORE).0,
            "--from 9 is not a snapshot of server 1"
        );
    }

    #[test]
    fn endpoint_pointers_become_commands_in_the_hint() {
        assert_eq!(
            reword(
                "server `1` not found: `GET /api/v1/servers` lists the servers your team has claimed",
                &[]
            ),
            (
                "server `1` not found".to_owned(),
                Some("`modctl servers list` lists the servers your team has claimed".to_owned())
            )
        );
    }
}
