//! `modctl cases list|show|export`, `modctl strikes`, `modctl jails`
//! (`cases edit|void` and `strikes clear`: `corrections.rs`).

use clap::{Args, Subcommand, ValueEnum};
use modctl_client::CaseQuery;
use modctl_types::Timestamp;
use modctl_types::moderation::{Action, Case, CaseState, CaseVoid, JailRecord, StrikeSummary};

use crate::commands::{corrections, names, print};
use crate::context::Context;
use crate::exit::{CliError, api_error};
use crate::output::{OutputMode, Rows, human_time, relative_time, render_json, render_pairs};
use crate::words;

const LIST_HELP: &str = "\
Plain columns (piped or --plain): case, action, user, applied, source, actor, created, reason, detail,
actor name, voided (the time, or -), user name (the member's name when known, or -). A table
shows the user as `name (id)` when the daemon knows the name.

Examples:
  modctl cases list 112233445566778899
  modctl cases list 112233445566778899 --action ban --since 7d
  modctl cases list 112233445566778899 --user 800000000000000004 --not-applied
  modctl cases list 112233445566778899 --user @alice   # the one member known as alice
  modctl cases list 112233445566778899 --since 2026-11-01 --until 2026-11-08 --all
  modctl cases list 112233445566778899 --actor key:ab12cd34 -o wide
  modctl cases list 112233445566778899 --actor mia      # a key's name, any case: all of Mia's keys
  modctl cases list 112233445566778899 --json | jq '.[].id'";

const SHOW_HELP: &str = "\
Plain lines (piped or --plain): field<TAB>value, for id, action, user_id, actor, reason, minutes,
expires_at, delete_message_days, applied, platform, detail, source, linked_case_id, created_at, dm;
then, when set: actor_name, voided, and a correction line per edit or void, oldest first; last,
when known, user_name (the member's name)

Examples:
  modctl cases show 112233445566778899 12
  modctl cases show 112233445566778899 12 --json";

const EXPORT_HELP: &str = "\
CSV columns: id, action, user_id, actor, reason, minutes, expires_at, delete_message_days, applied,
platform, detail, source, linked_case_id, created_at, user_name, actor_name, voided (when), voided_by,
voided_by_name, voided_reason (the last six empty when unknown or not voided). JSON lines: each case
as `cases list --json` has it (user_name, actor_name and voided when set).

Examples:
  modctl cases export 112233445566778899 > cases.jsonl
  modctl cases export 112233445566778899 --format csv > cases.csv";

/// `modctl cases ...`
#[derive(Debug, Subcommand)]
pub enum CasesCommand {
    /// Recent cases, newest first, optionally filtered
    #[command(after_help = LIST_HELP)]
    List {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Only cases of this user: a user id, or `@name` for the one member known by that name
        #[arg(long)]
        user: Option<String>,
        /// Only cases of this action
        #[arg(long, value_parser = parse_action)]
        action: Option<Action>,
        /// Only cases by this actor: a key's display name (any case; every key of that
        /// name), a key id, key:<key id>, or system:expiry
        #[arg(long)]
        actor: Option<String>,
        /// Only cases recorded since then: a duration ago (30m, 12h, 7d, 2w) or a date
        /// (2026-11-01, 2026-11-01T09:00:00Z)
        #[arg(long, value_name = "WHEN", value_parser = parse_when)]
        since: Option<Timestamp>,
        /// Only cases recorded before then (same forms as --since)
        #[arg(long, value_name = "WHEN", value_parser = parse_when)]
        until: Option<Timestamp>,
        /// Only cases the platform applied
        #[arg(long, conflicts_with = "not_applied")]
        applied: bool,
        /// Only cases the platform did not apply
        #[arg(long)]
        not_applied: bool,
        /// How many (1 to 200)
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Every matching case, following the pages
        #[arg(long, conflicts_with = "limit")]
        all: bool,
        #[command(flatten)]
        layout: Layout,
    },
    /// One case, by its number on the server
    #[command(after_help = SHOW_HELP)]
    Show {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The case number (1, 2, 3, ... on each server), as `cases list` shows it
        #[arg(value_parser = parse_case_number)]
        case: i64,
    },
    /// Replace a case's reason; the old one is kept in its corrections
    #[command(after_help = corrections::EDIT_HELP)]
    Edit {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The case number, as `cases list` shows it
        #[arg(value_parser = parse_case_number)]
        case: i64,
        /// The new reason (1 to 512 characters)
        #[arg(long, short = 'r')]
        reason: String,
    },
    /// Void a case, saying why: its strikes stop counting; the case stays, marked voided
    #[command(after_help = corrections::VOID_HELP)]
    Void {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The case number, as `cases list` shows it
        #[arg(value_parser = parse_case_number)]
        case: i64,
        /// Why (1 to 512 characters); kept with the void
        #[arg(long, short = 'r')]
        reason: String,
    },
    /// Every case of a server as JSON lines or CSV, oldest first
    #[command(after_help = EXPORT_HELP)]
    Export {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The format
        #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
        format: ExportFormat,
    },
}

/// `-o FORMAT` of the listings, as kubectl spells it.
#[derive(Debug, Clone, Default, Args)]
pub struct Layout {
    /// Output format: table, wide (a table with every value whole), plain or json
    #[arg(short = 'o', long = "output", value_enum, value_name = "FORMAT")]
    pub output: Option<Format>,
}

/// The values of `-o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table fitted to the terminal.
    Table,
    /// A table with every value whole.
    Wide,
    /// Tab-separated rows.
    Plain,
    /// JSON.
    Json,
}

impl Layout {
    /// The output mode with `-o` applied over the global flags.
    pub fn mode(&self, context: &Context) -> OutputMode {
        let mode = match self.output {
            None => context.output,
            Some(Format::Table | Format::Wide) => OutputMode::Table,
            Some(Format::Plain) => OutputMode::Plain,
            Some(Format::Json) => OutputMode::Json,
        };
        crate::output::configure(
            mode,
            context.global.wide || self.output == Some(Format::Wide),
        );
        mode
    }
}

/// A case number: a positive integer.
pub fn parse_case_number(text: &str) -> Result<i64, String> {
    match text.trim_start_matches('#').parse::<i64>() {
        Ok(number) if number > 0 => Ok(number),
        _ => Err(format!(
            "`{text}` is not a case number: cases are numbered 1, 2, 3, ... on each server \
             (the CASE column of `modctl cases list SERVER`)"
        )),
    }
}

fn parse_action(text: &str) -> Result<Action, String> {
    text.parse()
}

/// `--since` / `--until`: a duration ago (`7d`) or a date or time.
pub fn parse_when(text: &str) -> Result<Timestamp, String> {
    when(text, Timestamp::now())
}

fn when(text: &str, now: Timestamp) -> Result<Timestamp, String> {
    let invalid = || {
        format!(
            "`{text}` is neither a duration ago (30m, 12h, 7d, 2w) nor a date (2026-11-01 or 2026-11-01T09:00:00Z)"
        )
    };
    if text.chars().next().is_some_and(|c| c.is_ascii_digit())
        && text.ends_with(['m', 'h', 'd', 'w'])
    {
        let minutes = crate::commands::action::parse_duration(text).map_err(|_| invalid())?;
        return minutes
            .checked_mul(60)
            .and_then(|s| now.as_second().checked_sub(s))
            .and_then(|s| Timestamp::from_second(s).ok())
            .ok_or_else(invalid);
    }
    if let Ok(t) = text.parse::<Timestamp>() {
        return Ok(t);
    }
    format!("{text}T00:00:00Z")
        .parse::<Timestamp>()
        .map_err(|_| invalid())
}

/// Formats of `cases export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header.
    Csv,
}

/// Runs a `cases` command.
pub async fn run(context: &Context, command: CasesCommand) -> Result<(), CliError> {
    let client = context.client()?;
    match command {
        CasesCommand::List {
            server,
            user,
            action,
            actor,
            since,
            until,
            applied,
            not_applied,
            limit,
            all,
            layout,
        } => {
            let mode = layout.mode(context);
            let user = match user {
                Some(user) => {
                    Some(super::names::resolve_user(&client, &server, &user, words::CASES).await?)
                }
                None => None,
            };
            let query = CaseQuery {
                limit: Some(limit),
                user_id: user,
                action,
                actor,
                applied: (applied || not_applied).then_some(applied),
                since,
                until,
                before: None,
            };
            let cases = if all {
                client
                    .all_cases_where(&server, &query)
                    .await
                    .map_err(api_error(words::CASES))?
            } else {
                client
                    .cases(&server, &query)
                    .await
                    .map_err(api_error(words::CASES))?
                    .cases
            };
            if cases.is_empty() && mode != OutputMode::Json {
                // Nothing on stdout keeps `| wc -l` right; a person is told.
                eprintln!("no cases match");
            }
            print(&render_cases(&cases, mode));
        }
        CasesCommand::Show { server, case } => {
            let case = client.case(&server, case).await?;
            print(&render_case(&case, context.output));
        }
        CasesCommand::Edit {
            server,
            case,
            reason,
        } => corrections::edit(context, &server, case, &reason).await?,
        CasesCommand::Void {
            server,
            case,
            reason,
        } => corrections::void(context, &server, case, &reason).await?,
        CasesCommand::Export { server, format } => {
            let mut cases = client.all_cases(&server, None).await?;
            cases.reverse();
            print(&export(&cases, format));
        }
    }
    Ok(())
}

/// Runs `modctl strikes SERVER`.
pub async fn strikes(context: &Context, server: &str, layout: &Layout) -> Result<(), CliError> {
    let mode = layout.mode(context);
    let strikes = context.client()?.strikes(server).await?;
    print(&render_strikes(&strikes, mode));
    Ok(())
}

/// Runs `modctl jails SERVER`.
pub async fn jails(context: &Context, server: &str, layout: &Layout) -> Result<(), CliError> {
    let mode = layout.mode(context);
    let jails = context.client()?.jails(server).await?;
    print(&render_jails(&jails, mode));
    Ok(())
}

fn time(t: &modctl_types::Timestamp, mode: OutputMode) -> String {
    match mode {
        OutputMode::Plain => t.to_string(),
        _ => human_time(t),
    }
}

/// A list of cases.
pub fn render_cases(cases: &[Case], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(cases);
    }
    cases_rows(cases, mode, crate::output::relative_to()).render(mode)
}

/// `applied` as tables and plain output show it: `unknown` for a case
/// whose outcome nobody could check and `pending` for one being carried
/// out, rather than a "no" that may be untrue; otherwise `yes` or `no` as
/// the caller words them (JSON keeps the boolean and the `state`).
pub fn applied_text(applied: bool, state: CaseState) -> String {
    match state {
        CaseState::Unknown | CaseState::Pending => state.as_str().to_owned(),
        _ => crate::output::yes_no(applied).to_owned(),
    }
}

/// The rows of [`render_cases`]; table times relative to `now` if given.
/// A table shows source and actor with `--wide` only; plain rows have every
/// column.
pub fn cases_rows(cases: &[Case], mode: OutputMode, now: Option<Timestamp>) -> Rows {
    let mut rows = Rows::new(vec![
        "CASE",
        "ACTION",
        "USER",
        "APPLIED",
        "SOURCE",
        "ACTOR",
        "CREATED",
        "REASON",
        "DETAIL",
        "ACTOR NAME",
        "VOIDED",
        "USER NAME",
    ])
    .long(&["REASON", "DETAIL"])
    .wide_only(&["SOURCE", "ACTOR", "ACTOR NAME", "VOIDED"])
    .plain_only(&["USER NAME"])
    .named(&["USER"])
    .droppable(&["CREATED", "DETAIL", "APPLIED"])
    .yes_no("APPLIED");
    let table = mode != OutputMode::Plain;
    for c in cases {
        rows.push(vec![
            c.id.to_string(),
            // A table marks a voided case where the eye reads first; plain
            // rows keep the action alone and say it in VOIDED.
            match &c.voided {
                Some(_) if table => format!("{} (voided)", c.action),
                _ => c.action.to_string(),
            },
            user_cell(&c.user_id, c.user_name.as_deref(), mode),
            applied_text(c.applied, c.state),
            match c.linked_case_id {
                Some(linked) if mode != OutputMode::Plain => format!("{} of #{linked}", c.source),
                _ => c.source.to_string(),
            },
            if table {
                corrections::who(&c.actor, c.actor_name.as_deref())
            } else {
                c.actor.clone()
            },
            match (mode, now) {
                (OutputMode::Table, Some(now)) => relative_time(&c.created_at, &now),
                _ => time(&c.created_at, mode),
            },
            c.reason.clone().unwrap_or_else(|| "-".into()),
            c.detail.clone(),
            c.actor_name.clone().unwrap_or_else(|| "-".into()),
            c.voided
                .as_ref()
                .map_or_else(|| "-".into(), |v| time(&v.at, mode)),
            names::name_cell(c.user_name.as_deref()),
        ]);
    }
    rows
}

/// A member's cell: `name (id)` in a table when the name is known; piped,
/// the id alone (the name has a column of its own at the end).
fn user_cell(id: &str, name: Option<&str>, mode: OutputMode) -> String {
    match mode {
        OutputMode::Plain => id.to_owned(),
        _ => names::named(id, name),
    }
}

/// One case, field by field.
pub fn render_case(case: &Case, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(case);
    }
    let optional = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    render_pairs(
        &[
            ("id", case.id.to_string()),
            ("action", case.action.to_string()),
            (
                "user_id",
                user_cell(&case.user_id, case.user_name.as_deref(), mode),
            ),
            (
                "actor",
                // A table names the person; plain lines keep `actor` as
                // recorded and add `actor_name` (issue #27).
                match mode {
                    OutputMode::Plain => case.actor.clone(),
                    _ => corrections::who(&case.actor, case.actor_name.as_deref()),
                },
            ),
            ("reason", optional(case.reason.clone())),
            ("minutes", optional(case.minutes.map(|m| m.to_string()))),
            (
                "expires_at",
                optional(case.expires_at.as_ref().map(|t| time(t, mode))),
            ),
            (
                "delete_message_days",
                optional(case.delete_message_days.map(|d| d.to_string())),
            ),
            ("applied", applied_text(case.applied, case.state)),
            ("platform", case.platform.to_string()),
            ("detail", case.detail.clone()),
            ("source", case.source.to_string()),
            (
                "linked_case_id",
                optional(case.linked_case_id.map(|id| id.to_string())),
            ),
            ("created_at", time(&case.created_at, mode)),
            (
                "dm",
                optional(
                    case.dm
                        .as_ref()
                        .map(|dm| format!("{}: {}", dm.status, dm.detail)),
                ),
            ),
        ]
        .into_iter()
        .chain(corrections::case_pairs(case, mode))
        // Piped, the name when known is a line of its own after the others
        // (issue #27).
        .chain(
            case.user_name
                .as_deref()
                .filter(|_| mode == OutputMode::Plain)
                .map(|name| ("user_name", names::name_cell(Some(name)))),
        )
        .collect::<Vec<_>>(),
        mode,
    )
}

/// Strike counts.
pub fn render_strikes(strikes: &[StrikeSummary], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(strikes);
    }
    let mut rows = Rows::new(vec![
        "USER",
        "ACTIVE",
        "TOTAL",
        "LAST STRIKE",
        "LAST CLEARED",
        "USER NAME",
    ])
    .wide_only(&["LAST CLEARED"])
    .plain_only(&["USER NAME"])
    .named(&["USER"])
    .droppable(&["LAST STRIKE"]);
    for s in strikes {
        rows.push(vec![
            user_cell(&s.user_id, s.user_name.as_deref(), mode),
            s.active.to_string(),
            s.total.to_string(),
            time(&s.last_strike_at, mode),
            // Piped, the time alone (a field to sort or compare); a wide
            // table says who and why too.
            s.last_cleared.as_ref().map_or_else(
                || "-".into(),
                |c| match mode {
                    OutputMode::Plain => time(&c.at, mode),
                    _ => corrections::correction_line(c, mode),
                },
            ),
            names::name_cell(s.user_name.as_deref()),
        ]);
    }
    rows.render(mode)
}

/// Active jails.
pub fn render_jails(jails: &[JailRecord], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(jails);
    }
    let mut rows = Rows::new(vec![
        "USER",
        "SINCE",
        "UNTIL",
        "SAVED ROLES",
        "CASE",
        "USER NAME",
    ])
    .long(&["SAVED ROLES"])
    .plain_only(&["USER NAME"])
    .named(&["USER"])
    .droppable(&["SAVED ROLES", "SINCE"]);
    for j in jails {
        rows.push(vec![
            user_cell(&j.user_id, j.user_name.as_deref(), mode),
            time(&j.since, mode),
            j.until
                .as_ref()
                .map_or_else(|| "until unjailed".into(), |t| time(t, mode)),
            if j.saved_roles.is_empty() {
                "-".into()
            } else {
                j.saved_roles.join(",")
            },
            j.case_id.to_string(),
            names::name_cell(j.user_name.as_deref()),
        ]);
    }
    rows.render(mode)
}

/// The CSV columns. The first fourteen are the export's from before issue
/// #27 and keep their positions; the names and the void were appended
/// after them, so a reader by position keeps working and one by header
/// finds them.
const CSV_HEADER: &str = "id,action,user_id,actor,reason,minutes,expires_at,delete_message_days,applied,platform,detail,source,linked_case_id,created_at,user_name,actor_name,voided,voided_by,voided_by_name,voided_reason";

/// Cases as JSON lines or CSV (RFC 4180 quoting).
pub fn export(cases: &[Case], format: ExportFormat) -> String {
    match format {
        ExportFormat::Jsonl => cases
            .iter()
            .map(|c| serde_json::to_string(c).expect("cases serialize") + "\n")
            .collect(),
        ExportFormat::Csv => {
            let mut out = String::from(CSV_HEADER);
            out.push('\n');
            for c in cases {
                let voided = |field: fn(&CaseVoid) -> String| {
                    c.voided.as_ref().map(field).unwrap_or_default()
                };
                let fields = [
                    c.id.to_string(),
                    c.action.to_string(),
                    c.user_id.clone(),
                    c.actor.clone(),
                    c.reason.clone().unwrap_or_default(),
                    c.minutes.map(|m| m.to_string()).unwrap_or_default(),
                    c.expires_at.map(|t| t.to_string()).unwrap_or_default(),
                    c.delete_message_days
                        .map(|d| d.to_string())
                        .unwrap_or_default(),
                    c.applied.to_string(),
                    c.platform.to_string(),
                    c.detail.clone(),
                    c.source.to_string(),
                    c.linked_case_id
                        .map(|id| id.to_string())
                        .unwrap_or_default(),
                    c.created_at.to_string(),
                    // Issue #27, appended: empty when unknown or not voided.
                    c.user_name.as_deref().map(names::clean).unwrap_or_default(),
                    c.actor_name.clone().unwrap_or_default(),
                    voided(|v| v.at.to_string()),
                    voided(|v| v.by.clone()),
                    voided(|v| v.by_name.clone().unwrap_or_default()),
                    voided(|v| v.reason.clone()),
                ];
                let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
                out += &line.join(",");
                out.push('\n');
            }
            out
        }
    }
}

fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Fit;
    use modctl_types::Platform;
    use modctl_types::moderation::{CaseSource, CaseState};

    fn case(id: i64, action: Action, applied: bool, detail: &str) -> Case {
        Case {
            id,
            action,
            user_id: "800000000000000004".into(),
            actor: "key:ab12cd34ef56".into(),
            reason: Some("spam in #general, three times after a warning".into()),
            minutes: None,
            expires_at: None,
            delete_message_days: None,
            applied,
            platform: Platform::Discord,
            detail: detail.into(),
            created_at: "2026-11-21T09:08:10Z".parse().unwrap(),
            source: CaseSource::Api,
            linked_case_id: None,
            state: CaseState::Settled,
            dm: None,
            actor_name: None,
            voided: None,
            corrections: Vec::new(),
            user_name: None,
        }
    }

    fn cases() -> Vec<Case> {
        let mut escalation = case(3, Action::Timeout, true, "timed out for 60 minutes");
        escalation.source = CaseSource::Escalation;
        escalation.linked_case_id = Some(2);
        escalation.reason =
            Some("strike ladder: 3 active strikes reached step `at 3` (case #2)".into());
        vec![
            escalation,
            case(
                2,
                Action::Warn,
                true,
                "warned; the member has 3 active strikes",
            ),
            case(
                1,
                Action::Ban,
                false,
                "not applied: the bot's highest role is below the target's; move the bot's role above theirs in Server Settings > Roles and retry",
            ),
        ]
    }

    const AT_80: Fit = Fit {
        width: Some(80),
        wide: false,
        colour: false,
    };

    fn now() -> Option<Timestamp> {
        Some("2026-11-21T09:11:10Z".parse().unwrap())
    }

    /// A case whose outcome could not be checked never reads "no".
    #[test]
    fn an_unknown_outcome_is_shown_as_unknown() {
        let mut unknown = case(
            4,
            Action::Kick,
            false,
            "outcome unknown: the platform did not answer in time while this kick was being sent to discord, and checking afterwards failed; check whether user 800000000000000004 is still a member",
        );
        unknown.state = CaseState::Unknown;
        let plain = cases_rows(std::slice::from_ref(&unknown), OutputMode::Plain, None)
            .render(OutputMode::Plain);
        assert_eq!(plain.split('\t').nth(3), Some("unknown"), "{plain}");
        let shown = render_case(&unknown, OutputMode::Plain);
        assert!(shown.contains("applied\tunknown\n"), "{shown}");
    }

    /// The DM's outcome is shown with why; a case from before DMs shows `-`.
    #[test]
    fn a_case_shows_its_dm() {
        use modctl_types::moderation::{CaseDm, DmStatus};
        let mut told = case(5, Action::Ban, true, "banned");
        let shown = render_case(&told, OutputMode::Plain);
        assert!(
            shown.ends_with("dm\t-\n") || shown.ends_with("dm\t-"),
            "{shown}"
        );
        told.dm = Some(CaseDm::new(DmStatus::Failed, "not delivered (403)"));
        let shown = render_case(&told, OutputMode::Plain);
        assert!(shown.contains("dm\tfailed: not delivered (403)"), "{shown}");
        let json = render_case(&told, OutputMode::Json);
        assert!(json.contains("\"status\": \"failed\""), "{json}");
    }

    #[test]
    fn a_table_at_80_columns_cuts_reason_and_detail() {
        let table =
            cases_rows(&cases(), OutputMode::Table, now()).render_fitted(OutputMode::Table, AT_80);
        for line in table.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
        insta::assert_snapshot!(table);
    }

    #[test]
    fn a_wide_table_shows_everything() {
        let fit = Fit {
            wide: true,
            ..AT_80
        };
        let table =
            cases_rows(&cases(), OutputMode::Table, now()).render_fitted(OutputMode::Table, fit);
        assert!(
            table.contains("Server Settings > Roles and retry"),
            "{table}"
        );
        assert!(
            table.contains("escalation of #2") && table.contains("ACTOR"),
            "{table}"
        );
        insta::assert_snapshot!(table);
    }

    #[test]
    fn case_numbers_and_times() {
        assert_eq!(parse_case_number("12"), Ok(12));
        assert_eq!(parse_case_number("#12"), Ok(12));
        for bad in ["abc", "0", "-3", "1.5"] {
            let err = parse_case_number(bad).unwrap_err();
            assert!(err.contains("is not a case number"), "{err}");
        }
        let now: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        assert_eq!(when("7d", now).unwrap().to_string(), "2026-11-15T10:00:00Z");
        assert_eq!(
            when("90m", now).unwrap().to_string(),
            "2026-11-22T08:30:00Z"
        );
        assert_eq!(
            when("2026-11-01", now).unwrap().to_string(),
            "2026-11-01T00:00:00Z"
        );
        assert_eq!(
            when("2026-11-01T09:30:00Z", now).unwrap().to_string(),
            "2026-11-01T09:30:00Z"
        );
        for bad in ["yesterday", "7x", "2026-13-01", ""] {
            assert!(when(bad, now).is_err(), "{bad}");
        }
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }

    #[test]
    fn cases_strikes_and_jails_at_60_and_120_columns() {
        insta::assert_snapshot!(crate::output::at_widths(|| cases_rows(
            &cases(),
            OutputMode::Table,
            now()
        )
        .render(OutputMode::Table)));
        let strikes: Vec<StrikeSummary> = serde_json::from_value(serde_json::json!([
            {"user_id": "800000000000000004", "active": 3, "total": 5, "last_strike_at": "2026-11-21T09:08:10Z"},
            {"user_id": "800000000000000005", "active": 0, "total": 1, "last_strike_at": "2026-10-01T12:00:00Z"},
        ]))
        .unwrap();
        insta::assert_snapshot!(
            "strikes_at_widths",
            crate::output::at_widths(|| render_strikes(&strikes, OutputMode::Table))
        );
        let jails: Vec<JailRecord> = serde_json::from_value(serde_json::json!([
            {"user_id": "800000000000000004", "since": "2026-11-21T09:08:10Z", "until": null,
             "saved_roles": ["900000000000000001", "900000000000000002", "900000000000000003"], "case_id": 4},
            {"user_id": "800000000000000005", "since": "2026-11-21T10:00:00Z", "until": "2026-11-22T10:00:00Z",
             "saved_roles": [], "case_id": 9},
        ]))
        .unwrap();
        insta::assert_snapshot!(
            "jails_at_widths",
            crate::output::at_widths(|| render_jails(&jails, OutputMode::Table))
        );
    }

    /// Records of RFC 4180 CSV, as a spreadsheet reads them: fields split
    /// at commas outside quotes, `""` inside quotes a quote.
    fn read_csv(text: &str) -> Vec<Vec<String>> {
        let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
        let (mut quoted, mut chars) = (false, text.chars().peekable());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => record.push(std::mem::take(&mut field)),
                ('\n', false) => {
                    record.push(std::mem::take(&mut field));
                    records.push(std::mem::take(&mut record));
                }
                (c, _) => field.push(c),
            }
        }
        records
    }

    /// The export's CSV (issue #27): the names and the void appended, so a
    /// reader by header finds them and one by position finds the old
    /// columns where they were; JSON lines carry them as the API does.
    #[test]
    fn the_export_appends_names_and_the_void_after_the_old_columns() {
        use modctl_types::moderation::CaseVoid;
        let mut voided = case(2, Action::Warn, true, "warned, \"twice\"");
        voided.user_name = Some("Alice\tR.".into());
        voided.actor_name = Some("Mia".into());
        voided.voided = Some(CaseVoid {
            at: "2026-11-22T10:00:00Z".parse().unwrap(),
            by: "key:ab12cd34ef56".into(),
            by_name: Some("Mia".into()),
            reason: "wrong member, sorry".into(),
        });
        let plain = case(1, Action::Note, true, "noted");
        let csv = export(&[plain, voided.clone()], ExportFormat::Csv);
        let mut records = read_csv(&csv).into_iter();
        let header = records.next().expect("a header");
        // The columns from before names, at the positions they had.
        let old = [
            "id",
            "action",
            "user_id",
            "actor",
            "reason",
            "minutes",
            "expires_at",
            "delete_message_days",
            "applied",
            "platform",
            "detail",
            "source",
            "linked_case_id",
            "created_at",
        ];
        assert_eq!(&header[..old.len()], old.as_slice());
        assert_eq!(
            &header[old.len()..],
            [
                "user_name",
                "actor_name",
                "voided",
                "voided_by",
                "voided_by_name",
                "voided_reason"
            ]
            .as_slice()
        );
        let rows: Vec<std::collections::HashMap<String, String>> = records
            .map(|record| {
                assert_eq!(record.len(), header.len(), "{record:?}");
                header.iter().cloned().zip(record).collect()
            })
            .collect();
        assert_eq!(rows.len(), 2);
        let (first, second) = (&rows[0], &rows[1]);
        assert_eq!(first["id"], "1");
        for column in &header[old.len()..] {
            assert_eq!(first[column.as_str()], "", "{column}: not voided, no names");
        }
        assert_eq!(second["detail"], "warned, \"twice\"");
        assert_eq!(second["user_name"], "Alice R.");
        assert_eq!(second["actor_name"], "Mia");
        assert_eq!(second["voided"], "2026-11-22T10:00:00Z");
        assert_eq!(second["voided_by"], "key:ab12cd34ef56");
        assert_eq!(second["voided_by_name"], "Mia");
        assert_eq!(second["voided_reason"], "wrong member, sorry");
        insta::assert_snapshot!("export_csv", csv);

        let jsonl = export(&[voided], ExportFormat::Jsonl);
        let line: serde_json::Value = serde_json::from_str(jsonl.trim_end()).unwrap();
        assert_eq!(line["user_name"], "Alice\tR.");
        assert_eq!(line["actor_name"], "Mia");
        assert_eq!(line["voided"]["reason"], "wrong member, sorry");
    }
}
