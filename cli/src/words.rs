//! The API's words in the CLI's words.
//!
//! The daemon's messages name what an HTTP client sends: body fields
//! (`minutes`), headers (`Idempotency-Key`) and endpoints
//! (`GET /api/v1/servers`). The SDK passes them on unchanged, since its users
//! send exactly those; a person at the terminal typed `--duration 29d`, so
//! the CLI says `--duration` and `28d`.
//!
//! These tables only *word* messages: what the CLI does about an error (its
//! exit code, which hint it shows, which field is the flag) is decided on the
//! daemon's code, status and field (see [`crate::exit`]), never on its
//! message, whose words may change in any release. [`reword`] applies them:
//!
//! - the per-command flag tables ([`ACTION`], [`CASES`], [`AUDIT`],
//!   [`CLONE`], [`SNAPSHOT_ID`], [`SNAPSHOT_QUERY`], [`RESTORE`],
//!   [`DELIVERIES`], [`AUTOMOD_TEST`]): the error's `field`, where the message names it (at
//!   its start, or quoted), becomes the flag; numbers of a field measured in
//!   minutes are written as the durations `--duration` takes;
//! - [`API_TAILS`]: an API pointer at the end of a message, cut (the hint
//!   says it with a command);
//! - [`PHRASES`]: an API phrase inside a message, replaced.

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

/// `modctl lockdown start`.
pub const LOCKDOWN: &[Flag] = &[flag("minutes", "--minutes"), flag("reason", "--reason")];

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
    flag("actor", "--actor"),
];

/// `modctl cases edit|void`, `modctl strikes clear`: the body and the path.
pub const CORRECTION: &[Flag] = &[
    flag("reason", "--reason"),
    flag("{case_id}", "CASE"),
    flag("{user_id}", "USER"),
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

/// `modctl automod test`: the body's fields.
pub const AUTOMOD_TEST: &[Flag] = &[
    flag("text", "TEXT"),
    flag("user_id", "--user"),
    flag("channel_id", "--channel"),
    flag("role_ids", "--role"),
];

/// `modctl insights` and `modctl activity`: the query parameters.
pub const INSIGHTS: &[Flag] = &[flag("days", "--days")];

/// `modctl automod hits`: the query parameters.
pub const AUTOMOD_HITS: &[Flag] = &[
    flag("limit", "--limit"),
    flag("filter", "--filter"),
    flag("user_id", "--user"),
    flag("before", "--before"),
];

/// The tails of daemon messages that point at an API endpoint, cut from
/// the message: the CLI says the same with a command in its hint, which it
/// chooses by the error's code and field (see [`crate::exit`]), never by
/// these words. A message whose words changed keeps its tail, and the same
/// hint.
pub const API_TAILS: &[&str] = &[
    ": `GET /api/v1/servers` lists the servers your team has claimed",
    ": capture one with `POST /api/v1/servers/",
    ": list the ones kept with `GET /api/v1/servers/",
    ": follow it with `GET /api/v1/servers/",
];

/// API phrases inside a message and what the CLI says instead.
pub const PHRASES: &[(&str, &str)] = &[(
    "as `GET /config/export` returns",
    "as `modctl config export` prints",
)];

/// `message` in the words of a command whose flags are `flags`, for an
/// error about `field` (the daemon's `field`, if any): the field is renamed
/// to its flag where the message names it, an API tail is cut and API
/// phrases are replaced. Returns the message and, when the field is one of
/// `flags` but the message does not name it where it can be renamed, a
/// hint naming the flag.
pub fn reword(message: &str, field: Option<&str>, flags: &[Flag]) -> (String, Option<String>) {
    let mut text = message.to_owned();
    for tail in API_TAILS {
        if let Some(at) = text.find(tail) {
            text.truncate(at);
        }
    }
    for (api, cli) in PHRASES {
        text = text.replace(api, cli);
    }
    let mut hint = None;
    if let Some(flag) = field.and_then(|field| flags.iter().find(|f| f.api == field)) {
        let renamed = reword_field(&text, flag);
        if renamed == text {
            hint = Some(format!("`{}` is what {} sets", flag.api, flag.cli));
        }
        text = renamed;
    }
    (text, hint)
}

/// The number of the restore job a `job_running` message names
/// (`restore job 4 of server 1 is still running`), to word the hint with;
/// `None` when the words are not those.
pub fn running_job(message: &str) -> Option<i64> {
    let rest = message.strip_prefix("restore job ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[..digits].parse().ok()
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
        for (field, api, cli) in [
            (
                "minutes",
                "minutes must be between 1 and 40320 for timeout, got 41760",
                "--duration must be between 1m and 28d for timeout, got 29d",
            ),
            (
                "minutes",
                "minutes must be between 1 and 525600 for jail, got 0",
                "--duration must be between 1m and 365d for jail, got 0m",
            ),
            (
                "minutes",
                "minutes is only used by timeout and jail, not by warn",
                "--duration is only used by timeout and jail, not by warn",
            ),
            (
                "minutes",
                "minutes is required for timeout: 1 to 40320 (28 days)",
                "--duration is required for timeout: 1m to 28d (28 days)",
            ),
            (
                "delete_message_days",
                "delete_message_days must be between 0 and 7 for ban, got 9",
                "--delete-days must be between 0 and 7 for ban, got 9",
            ),
            (
                "delete_message_days",
                "delete_message_days is only used by ban, not by kick",
                "--delete-days is only used by ban, not by kick",
            ),
            (
                "reason",
                "this server requires a reason for every action (moderation.require_reason): add \"reason\"",
                "this server requires a reason for every action (moderation.require_reason): add --reason",
            ),
            (
                "user_id",
                "user_id: `alice` is not a discord user id",
                "USER: `alice` is not a discord user id",
            ),
            (
                "Idempotency-Key",
                "Idempotency-Key must be 1 to 255 visible ASCII characters, e.g. a UUID",
                "--idempotency-key must be 1 to 255 visible ASCII characters, e.g. a UUID",
            ),
        ] {
            assert_eq!(reword(api, Some(field), ACTION), (cli.to_owned(), None));
        }
    }

    #[test]
    fn only_the_field_the_daemon_names_is_renamed() {
        // "minutes" as a word inside a sentence, and a field of another command.
        let message = "the timeout ended 5 minutes ago; limit must be between 1 and 200";
        assert_eq!(reword(message, None, ACTION).0, message);
        assert_eq!(reword(message, Some("limit"), ACTION).0, message);
        // Without a field, nothing is renamed, whatever the words.
        let message = "minutes must be between 1 and 40320 for timeout, got 41760";
        assert_eq!(reword(message, None, ACTION), (message.to_owned(), None));
        assert_eq!(
            reword(
                "limit must be between 1 and 200, got 201",
                Some("limit"),
                CASES
            )
            .0,
            "--limit must be between 1 and 200, got 201"
        );
        assert_eq!(
            reword(
                "`from` is required: the id of the server",
                Some("from"),
                CLONE
            )
            .0,
            "--from is required: the id of the server"
        );
        assert_eq!(
            reword(
                "snapshot_id 9 is not a snapshot of server 1",
                Some("snapshot_id"),
                RESTORE
            )
            .0,
            "--from 9 is not a snapshot of server 1"
        );
    }

    #[test]
    fn a_field_the_message_does_not_name_is_named_in_the_hint() {
        // The daemon's words changed; its field did not.
        assert_eq!(
            reword(
                "the timeout may last 28 days at most",
                Some("minutes"),
                ACTION
            ),
            (
                "the timeout may last 28 days at most".to_owned(),
                Some("`minutes` is what --duration sets".to_owned())
            )
        );
    }

    #[test]
    fn api_pointers_are_cut_from_messages() {
        for (api, cli) in [
            (
                "server -100 has no structure snapshot yet: capture one with `POST /api/v1/servers/-100/structure-snapshot`",
                "server -100 has no structure snapshot yet",
            ),
            (
                "server 1 has no structure snapshot 9: list the ones kept with `GET /api/v1/servers/1/structure-snapshot`",
                "server 1 has no structure snapshot 9",
            ),
            (
                "restore job 4 of server 1 is still running: follow it with `GET /api/v1/servers/1/structure-snapshot/restore/4` and restore again once it has ended",
                "restore job 4 of server 1 is still running",
            ),
            (
                "server `1` not found: `GET /api/v1/servers` lists the servers your team has claimed",
                "server `1` not found",
            ),
            (
                "the import body must be an export envelope: a JSON object as `GET /config/export` returns",
                "the import body must be an export envelope: a JSON object as `modctl config export` prints",
            ),
        ] {
            assert_eq!(reword(api, None, &[]), (cli.to_owned(), None));
        }
        assert_eq!(
            running_job("restore job 4 of server 1 is still running: ..."),
            Some(4)
        );
        assert_eq!(running_job("a restore is still running"), None);
    }
}
