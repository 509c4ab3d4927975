//! `modctl cases edit|void` and `modctl strikes clear` (issue #27): the
//! corrections of cases, each saying why, each kept in the case's audit
//! trail (`modctl cases show` lists them).

use clap::{Args, Subcommand};
use modctl_types::moderation::{Case, CaseCorrection, CorrectionKind, StrikesCleared};

use crate::commands::cases::{Layout, render_case};
use crate::commands::print;
use crate::context::Context;
use crate::exit::{CliError, api_error};
use crate::output::{OutputMode, human_time, render_json, render_pairs};
use crate::words;

pub const EDIT_HELP: &str = "\
Prints the case as `cases show` does, its corrections listed last (the old reason kept).

Examples:
  modctl cases edit 112233445566778899 12 --reason \"spam in #general (links)\"
  modctl cases edit 112233445566778899 12 --reason \"wrong channel\" --json";

pub const VOID_HELP: &str = "\
The case stays, marked voided with who, when and why; its strikes stop counting (also for the
strike ladder's next step). What the platform did is not undone: unban or unjail for that.
Prints the case as `cases show` does.

Examples:
  modctl cases void 112233445566778899 12 --reason \"wrong member\"
  modctl cases void 112233445566778899 12 --reason \"duplicate of #11\" --json";

const STRIKES_HELP: &str = "\
Plain columns (piped or --plain): user, active, total, last strike, last cleared (its time, or -),
user name (the member's name when known, or -)

Examples:
  modctl strikes 112233445566778899
  modctl strikes 112233445566778899 --json
  modctl strikes clear 112233445566778899 800000000000000004 --reason \"appeal accepted\"";

const CLEAR_HELP: &str = "\
The member's active strikes stop counting (the strike ladder starts again from 0); they stay in
the member's total, and the clear is recorded with who, when and why (`modctl strikes SERVER -o wide`).
Plain lines (piped or --plain): field<TAB>value, for user_id, cleared, active_strikes, by, at, reason

Examples:
  modctl strikes clear 112233445566778899 800000000000000004 --reason \"appeal accepted\"
  modctl strikes clear 112233445566778899 @alice --reason \"appeal accepted\"
  modctl strikes clear -1001234567890 100003 --reason \"pardoned\" --json";

/// `modctl strikes [SERVER | clear SERVER USER]`.
#[derive(Debug, Args)]
#[command(
    after_help = STRIKES_HELP,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct StrikesArgs {
    /// Clear a member's strikes
    #[command(subcommand)]
    pub command: Option<StrikesCommand>,
    /// The server id
    #[arg(allow_hyphen_values = true, required = true)]
    pub server: Option<String>,
    #[command(flatten)]
    pub layout: Layout,
}

/// `modctl strikes clear`.
#[derive(Debug, Subcommand)]
pub enum StrikesCommand {
    /// Clear a member's active strikes (a pardon), saying why
    #[command(after_help = CLEAR_HELP)]
    Clear {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The member's user id, or `@name` for the one member known by that name
        #[arg(allow_hyphen_values = true)]
        user: String,
        /// Why (1 to 512 characters); kept with the clear
        #[arg(long, short = 'r')]
        reason: String,
    },
}

/// Runs `modctl strikes ...`.
pub async fn strikes(context: &Context, args: StrikesArgs) -> Result<(), CliError> {
    match (args.command, args.server) {
        (
            Some(StrikesCommand::Clear {
                server,
                user,
                reason,
            }),
            _,
        ) => {
            let client = context.client()?;
            let user =
                super::names::resolve_user(&client, &server, &user, words::CORRECTION).await?;
            let cleared = client
                .clear_strikes(&server, &user, &reason)
                .await
                .map_err(api_error(words::CORRECTION))?;
            eprintln!(
                "cleared {} active strike(s) of {user}: the strike ladder counts from 0 again",
                cleared.correction.strikes
            );
            print(&render_cleared(&cleared, context.output));
            Ok(())
        }
        (None, Some(server)) => {
            crate::commands::cases::strikes(context, &server, &args.layout).await
        }
        // clap requires SERVER without a subcommand.
        (None, None) => Err(CliError::usage("give a server id: modctl strikes SERVER")),
    }
}

/// Runs `modctl cases edit`.
pub async fn edit(
    context: &Context,
    server: &str,
    case: i64,
    reason: &str,
) -> Result<(), CliError> {
    let edited = context
        .client()?
        .edit_case_reason(server, case, reason)
        .await
        .map_err(api_error(words::CORRECTION))?;
    eprintln!("case #{case}: reason edited; the old one is kept in its corrections");
    print(&render_case(&edited, context.output));
    Ok(())
}

/// Runs `modctl cases void`.
pub async fn void(
    context: &Context,
    server: &str,
    case: i64,
    reason: &str,
) -> Result<(), CliError> {
    let voided = context
        .client()?
        .void_case(server, case, reason)
        .await
        .map_err(api_error(words::CORRECTION))?;
    let strikes = voided
        .corrections
        .iter()
        .rfind(|c| c.kind == CorrectionKind::Void)
        .map_or(0, |c| c.strikes);
    eprintln!(
        "case #{case} voided: {strikes} active strike(s) stopped counting; what the platform did stays as it is"
    );
    print(&render_case(&voided, context.output));
    Ok(())
}

/// A key as corrections and cases name it: `Mia (key:ab12cd34ef56)`, or
/// the actor alone when its key had no name.
pub fn who(actor: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{name} ({actor})"),
        None => actor.to_owned(),
    }
}

/// One correction on one line: `2026-11-21 09:00 edit by Mia (key:...):
/// new reason (was: old reason)`.
pub fn correction_line(c: &CaseCorrection, mode: OutputMode) -> String {
    let at = match mode {
        OutputMode::Plain => c.at.to_string(),
        _ => human_time(&c.at),
    };
    let by = who(&c.by, c.by_name.as_deref());
    let mut line = format!("{at} {} by {by}: {}", c.kind, c.reason);
    match c.kind {
        CorrectionKind::Edit => line.push_str(&format!(
            " (was: {})",
            c.old_reason.as_deref().unwrap_or("no reason")
        )),
        _ => line.push_str(&format!(" ({} strike(s) stopped counting)", c.strikes)),
    }
    line
}

/// The answer of `strikes clear`.
pub fn render_cleared(cleared: &StrikesCleared, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(cleared);
    }
    let c = &cleared.correction;
    render_pairs(
        &[
            ("user_id", cleared.user_id.clone()),
            ("cleared", c.strikes.to_string()),
            ("active_strikes", cleared.active_strikes.to_string()),
            ("by", who(&c.by, c.by_name.as_deref())),
            (
                "at",
                match mode {
                    OutputMode::Plain => c.at.to_string(),
                    _ => human_time(&c.at),
                },
            ),
            ("reason", c.reason.clone()),
        ],
        mode,
    )
}

/// The lines `cases show` adds for issue #27, only when set (the lines of
/// a case without them stay as they were): `actor_name`, `voided`, and a
/// `correction` per entry of the trail, oldest first.
pub fn case_pairs(case: &Case, mode: OutputMode) -> Vec<(&'static str, String)> {
    let time = |t: &modctl_types::Timestamp| match mode {
        OutputMode::Plain => t.to_string(),
        _ => human_time(t),
    };
    let mut pairs = Vec::new();
    if let Some(name) = &case.actor_name {
        pairs.push(("actor_name", name.clone()));
    }
    if let Some(v) = &case.voided {
        let by = who(&v.by, v.by_name.as_deref());
        pairs.push(("voided", format!("{} by {by}: {}", time(&v.at), v.reason)));
    }
    for c in &case.corrections {
        pairs.push(("correction", correction_line(c, mode)));
    }
    pairs
}
