//! `modctl lockdown start|end|status`: a server's raid lockdown (issue
//! #26). The daemon starts one by itself when more members join in a
//! minute than `antinuke.max_joins_per_minute`; these start one by hand,
//! end the running one, and show it.

use clap::Subcommand;
use modctl_types::error::ErrorCode;
use modctl_types::lockdown::{Lockdown, LockdownStatus, StartLockdown};

use crate::commands::print;
use crate::context::Context;
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, human_time, render_json, render_pairs};
use crate::words;

/// `modctl lockdown ...`
#[derive(Debug, Subcommand)]
pub enum LockdownCommand {
    /// Start a raid lockdown now (plain: field<TAB>value)
    #[command(
        after_help = "Discord pauses invites and times joiners out until the end; Telegram replaces the\n\
                            invite link and restricts joiners; Slack alerts the mod-log only.\n\
                            One runs at a time: while one runs this fails (exit 1); end it first.\n\
                            Plain fields: id, state, started, ends, started by, why, ended, ended by,\n\
                            platform at start, platform at end, members held, members refused\n\n\
                            Examples:\n  \
                            modctl lockdown start 112233445566778899 --minutes 30 --reason \"raid in #general\"\n  \
                            modctl lockdown start -1001234567890"
    )]
    Start {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// How long, 1 to 1440 minutes [default: the server's antinuke.lockdown_minutes]
        #[arg(long, value_name = "N")]
        minutes: Option<u32>,
        /// Why, shown in the log post and the webhook event
        #[arg(long)]
        reason: Option<String>,
    },
    /// End the running lockdown now (plain as start's)
    #[command(
        after_help = "Discord's invites are enabled again; members held during it stay held until its planned end.\n\
                            Exits 5 when no lockdown runs.\n\n\
                            Examples:\n  \
                            modctl lockdown end 112233445566778899"
    )]
    End {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
    },
    /// The running lockdown, else the last one (plain as start's; `state` is running, ended or none)
    #[command(after_help = "Examples:\n  \
                            modctl lockdown status 112233445566778899\n  \
                            modctl lockdown status 112233445566778899 --json")]
    Status {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
    },
}

/// Runs a `lockdown` command.
pub async fn run(context: &Context, command: LockdownCommand) -> Result<u8, CliError> {
    let mode = context.output;
    let client = context.client()?;
    let text = match command {
        LockdownCommand::Start {
            server,
            minutes,
            reason,
        } => {
            let request = StartLockdown { minutes, reason };
            let lockdown = client
                .start_lockdown(&server, &request)
                .await
                .map_err(|e| hinted(e, &server))?;
            render_lockdown(Some(&lockdown), mode)
        }
        LockdownCommand::End { server } => {
            let lockdown = client
                .end_lockdown(&server)
                .await
                .map_err(|e| hinted(e, &server))?;
            render_lockdown(Some(&lockdown), mode)
        }
        LockdownCommand::Status { server } => {
            let status = client
                .lockdown(&server)
                .await
                .map_err(api_error(words::LOCKDOWN))?;
            render_status(&status, mode)
        }
    };
    print(&text);
    Ok(exit::OK)
}

/// The daemon's refusal in the CLI's words, with the command that helps:
/// `lockdown end` when one already runs, `lockdown status` when none does
/// (decided on the error's code, never its words).
fn hinted(err: modctl_client::Error, server: &str) -> CliError {
    let code = err.code().cloned();
    let error = api_error(words::LOCKDOWN)(err);
    match code {
        Some(ErrorCode::LockdownRunning) => {
            error.hint(format!("`modctl lockdown end {server}` ends it"))
        }
        Some(ErrorCode::NoLockdown) => error.hint(format!(
            "`modctl lockdown status {server}` shows the last one"
        )),
        _ => error,
    }
}

/// `status`: the running lockdown, else the last one, else `state: none`;
/// `--json`: the daemon's answer as it is.
pub fn render_status(status: &LockdownStatus, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(status);
    }
    render_lockdown(status.current.as_ref().or(status.last.as_ref()), mode)
}

/// One lockdown as field/value pairs (`--json`: the lockdown).
pub fn render_lockdown(lockdown: Option<&Lockdown>, mode: OutputMode) -> String {
    let Some(l) = lockdown else {
        return match mode {
            OutputMode::Json => render_json(&serde_json::Value::Null),
            _ => render_pairs(&[("state", "none".to_owned())], mode),
        };
    };
    if mode == OutputMode::Json {
        return render_json(l);
    }
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
    let state = if l.ended_at.is_some() {
        "ended"
    } else {
        "running"
    };
    let pairs = [
        ("id", l.id.to_string()),
        ("state", state.to_owned()),
        ("started", human_time(&l.started_at)),
        ("ends", human_time(&l.ends_at)),
        ("started_by", l.started_by.clone()),
        ("why", l.why.clone()),
        ("ended", opt(l.ended_at.as_ref().map(human_time))),
        ("ended_by", opt(l.ended_by.clone())),
        ("platform_at_start", opt(l.start_outcome.clone())),
        ("platform_at_end", opt(l.end_outcome.clone())),
        ("members_held", l.members_held.to_string()),
        ("members_refused", l.members_failed.to_string()),
    ];
    render_pairs(&pairs, mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lockdown(ended: bool) -> Lockdown {
        let at = |s: &str| s.parse().unwrap();
        Lockdown {
            id: 3,
            started_at: at("2026-11-27T10:00:00Z"),
            ends_at: at("2026-11-27T10:10:00Z"),
            started_by: "automatic".into(),
            why: "12 members joined within a minute (antinuke.max_joins_per_minute: 10)".into(),
            ended_at: ended.then(|| at("2026-11-27T10:10:00Z")),
            ended_by: ended.then(|| "expired".into()),
            start_outcome: Some("invites paused until 2026-11-27T10:10:00Z".into()),
            end_outcome: ended.then(|| "invites enabled again".into()),
            members_held: 14,
            members_failed: 1,
        }
    }

    #[test]
    fn a_lockdown_renders_as_pairs_and_json() {
        insta::assert_snapshot!(
            "lockdown_running_plain",
            render_lockdown(Some(&lockdown(false)), OutputMode::Plain)
        );
        insta::assert_snapshot!(
            "lockdown_ended_plain",
            render_lockdown(Some(&lockdown(true)), OutputMode::Plain)
        );
        let status = LockdownStatus {
            current: None,
            last: Some(lockdown(true)),
        };
        insta::assert_snapshot!(
            "lockdown_status_json",
            render_status(&status, OutputMode::Json)
        );
        assert_eq!(
            render_status(
                &LockdownStatus {
                    current: None,
                    last: None
                },
                OutputMode::Plain
            ),
            "state\tnone\n"
        );
    }
}
