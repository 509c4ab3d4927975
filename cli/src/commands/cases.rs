//! `modctl cases list|show|export`, `modctl strikes`, `modctl jails`.

use clap::{Subcommand, ValueEnum};
use modctl_client::CaseQuery;
use modctl_types::moderation::{Case, JailRecord, StrikeSummary};

use crate::commands::print;
use crate::context::Context;
use crate::exit::{CliError, api_error};
use crate::output::{OutputMode, Rows, human_time, render_json, render_pairs};
use crate::words;

/// `modctl cases ...`
#[derive(Debug, Subcommand)]
pub enum CasesCommand {
    /// Recent cases, newest first (plain columns: id, number, action, user, applied, source, actor, created, reason, detail)
    List {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Only cases of this user
        #[arg(long)]
        user: Option<String>,
        /// How many (1 to 200)
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Every case, following the pages
        #[arg(long, conflicts_with = "limit")]
        all: bool,
    },
    /// One case
    Show {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The case id
        case: i64,
    },
    /// Every case of a server as JSON lines or CSV, oldest first
    Export {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The format
        #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
        format: ExportFormat,
    },
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
            limit,
            all,
        } => {
            let cases = if all {
                client
                    .all_cases(&server, user.as_deref())
                    .await
                    .map_err(api_error(words::CASES))?
            } else {
                client
                    .cases(
                        &server,
                        &CaseQuery {
                            limit: Some(limit),
                            user_id: user,
                            before: None,
                        },
                    )
                    .await
                    .map_err(api_error(words::CASES))?
                    .cases
            };
            print(&render_cases(&cases, context.output));
        }
        CasesCommand::Show { server, case } => {
            let case = client.case(&server, case).await?;
            print(&render_case(&case, context.output));
        }
        CasesCommand::Export { server, format } => {
            let mut cases = client.all_cases(&server, None).await?;
            cases.reverse();
            print(&export(&cases, format));
        }
    }
    Ok(())
}

/// Runs `modctl strikes SERVER`.
pub async fn strikes(context: &Context, server: &str) -> Result<(), CliError> {
    let strikes = context.client()?.strikes(server).await?;
    print(&render_strikes(&strikes, context.output));
    Ok(())
}

/// Runs `modctl jails SERVER`.
pub async fn jails(context: &Context, server: &str) -> Result<(), CliError> {
    let jails = context.client()?.jails(server).await?;
    print(&render_jails(&jails, context.output));
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
    let mut rows = Rows::new(vec![
        "ID", "#", "ACTION", "USER", "APPLIED", "SOURCE", "ACTOR", "CREATED", "REASON", "DETAIL",
    ]);
    for c in cases {
        rows.push(vec![
            c.id.to_string(),
            c.number.to_string(),
            c.action.to_string(),
            c.user_id.clone(),
            if c.applied { "yes".into() } else { "no".into() },
            c.source.to_string(),
            c.actor.clone(),
            time(&c.created_at, mode),
            c.reason.clone().unwrap_or_else(|| "-".into()),
            c.detail.clone(),
        ]);
    }
    rows.render(mode)
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
            ("number", case.number.to_string()),
            ("action", case.action.to_string()),
            ("user_id", case.user_id.clone()),
            ("actor", case.actor.clone()),
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
            ("applied", case.applied.to_string()),
            ("platform", case.platform.to_string()),
            ("detail", case.detail.clone()),
            ("source", case.source.to_string()),
            (
                "linked_case_id",
                optional(case.linked_case_id.map(|id| id.to_string())),
            ),
            ("created_at", time(&case.created_at, mode)),
        ],
        mode,
    )
}

/// Strike counts.
pub fn render_strikes(strikes: &[StrikeSummary], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(strikes);
    }
    let mut rows = Rows::new(vec!["USER", "ACTIVE", "TOTAL", "LAST STRIKE"]);
    for s in strikes {
        rows.push(vec![
            s.user_id.clone(),
            s.active.to_string(),
            s.total.to_string(),
            time(&s.last_strike_at, mode),
        ]);
    }
    rows.render(mode)
}

/// Active jails.
pub fn render_jails(jails: &[JailRecord], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(jails);
    }
    let mut rows = Rows::new(vec!["USER", "SINCE", "UNTIL", "SAVED ROLES", "CASE"]);
    for j in jails {
        rows.push(vec![
            j.user_id.clone(),
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
        ]);
    }
    rows.render(mode)
}

const CSV_HEADER: &str = "id,number,action,user_id,actor,reason,minutes,expires_at,delete_message_days,applied,platform,detail,source,linked_case_id,created_at";

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
                let fields = [
                    c.id.to_string(),
                    c.number.to_string(),
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

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
