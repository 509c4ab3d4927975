//! `modctl snapshot capture|list|show|diff|restore|job`: a server's structure
//! snapshots (issue #10).
//!
//! - [`render`]: snapshots and their content, per platform;
//! - [`plan`]: restore plans, job progress and reports.
//!
//! `restore` is the one long-running command of the CLI: the daemon runs the
//! restore as a job (minutes under Discord's rate limits), and the command
//! polls it, drawing progress on stderr, until it ends. Interrupting the
//! command does not stop the job.

pub mod plan;
pub mod render;

use std::io::IsTerminal;

use clap::{Args, Subcommand};
use modctl_client::{Client, ErrorCode, RestoreWait};
use modctl_types::restore::{KindProgress, RestoreJob};

use crate::commands::print;
use crate::context::Context;
use crate::exit::{self, CliError};
use crate::output::OutputMode;
use crate::prompt;
use crate::words;

use plan::{
    PlanView, job_failed, render_plan, render_progress_bars, render_progress_line, render_report,
};
use render::{render_content, render_list, render_meta};

/// `modctl snapshot ...`
#[derive(Debug, Subcommand)]
pub enum SnapshotCommand {
    /// Capture the server's roles, channels and settings now (plain: field<TAB>value)
    Capture {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
    },
    /// The snapshots kept, newest first (plain columns: id, captured, source, actor, roles, channels, overwrites, user groups, administrators, size in bytes, content hash)
    List {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
    },
    /// One snapshot's metadata, or with --content what it holds (plain content columns: kind, id, name, parent, detail)
    Show(ShowArgs),
    /// The snapshot against the server now: what is missing, what is present (and how it was recognised), what a restore would skip and why (plain columns: step, kind, snapshot id, name, matched by, live id, detail)
    Diff {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The snapshot [default: the latest]
        id: Option<i64>,
    },
    /// Restore the missing roles and channels from a snapshot; exits 1 when the job stopped or any item failed (plain report columns: outcome, kind, snapshot id, name, live id, what happened)
    #[command(
        after_help = "On a terminal it shows the plan, asks, draws progress until the job ends and prints the report.\n\
                      Without a terminal it needs --yes, prints progress lines on stderr and the report on stdout.\n\
                      Nothing that exists is deleted or changed; restoring twice creates nothing the second time.\n\
                      Interrupting modctl does not stop the job: the daemon finishes it."
    )]
    Restore(RestoreArgs),
    /// A restore job's report; --wait follows it until it ends and exits 1 like restore (plain columns as restore's)
    Job {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The job id, as `restore` printed it
        job: i64,
        /// Draw progress until the job ends
        #[arg(long)]
        wait: bool,
    },
}

/// `modctl snapshot show`
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The server id
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// The snapshot [default: the latest]
    pub id: Option<i64>,
    /// Show the roles, channels and settings it holds
    #[arg(long)]
    pub content: bool,
}

/// `modctl snapshot restore`
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The server id
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// The snapshot to restore [default: the latest]
    #[arg(long, value_name = "ID")]
    pub from: Option<i64>,
    /// Show the plan and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
}

/// The SDK's error in the words of a snapshot command on `server` whose
/// flags are `flags`, with the hint its code and field call for: no snapshot
/// yet (`not_found` naming no field), no snapshot with the id given
/// (`not_found` of `id` or `snapshot_id`), a restore still running
/// (`job_running`).
fn snapshot_error<'a>(
    server: &'a str,
    flags: &'static [words::Flag],
) -> impl Fn(modctl_client::Error) -> CliError + 'a {
    move |err| {
        let hint = match (err.code(), err.field()) {
            (Some(ErrorCode::NotFound), None) => {
                Some(format!("`modctl snapshot capture {server}` captures one"))
            }
            (Some(ErrorCode::NotFound), Some("id" | "snapshot_id")) => Some(format!(
                "`modctl snapshot list {server}` lists the ones kept"
            )),
            (Some(ErrorCode::JobRunning), _) => {
                // The job's number, if the message's words still say it.
                let job = words::running_job(err.message())
                    .map_or_else(|| "JOB".to_owned(), |job| job.to_string());
                Some(format!(
                    "`modctl snapshot job {server} {job} --wait` follows it; restore again once it has ended"
                ))
            }
            _ => None,
        };
        let error = CliError::from(err).in_words_of(flags);
        match hint {
            Some(hint) => error.hint(hint),
            None => error,
        }
    }
}

/// Runs a `snapshot` command; `restore` returns 1 when its job failed.
pub async fn run(context: &Context, command: SnapshotCommand) -> Result<u8, CliError> {
    let client = context.client()?;
    let mode = context.output;
    match command {
        SnapshotCommand::Capture { server } => {
            let meta = client
                .capture_snapshot(&server)
                .await
                .map_err(snapshot_error(&server, &[]))?;
            print(&render_meta(&meta, mode));
        }
        SnapshotCommand::List { server } => {
            let listing = client
                .snapshots(&server, false)
                .await
                .map_err(snapshot_error(&server, &[]))?;
            print(&render_list(&listing, mode));
        }
        SnapshotCommand::Show(args) => show(&client, args, mode).await?,
        SnapshotCommand::Diff { server, id } => {
            let plan = client
                .restore_plan(&server, id)
                .await
                .map_err(snapshot_error(&server, words::SNAPSHOT_ID))?;
            print(&render_plan(&plan, PlanView::Full, mode));
            // As `config diff`: 1 when the server differs from the snapshot.
            let summary = &plan.summary;
            if summary.create + summary.update + summary.skip > 0 {
                return Ok(exit::FAILURE);
            }
        }
        SnapshotCommand::Restore(args) => return restore(&client, args, mode).await,
        SnapshotCommand::Job { server, job, wait } => {
            let job = if wait {
                follow(&client, &server, job).await?
            } else {
                client
                    .restore_job(&server, job)
                    .await
                    .map_err(snapshot_error(&server, &[]))?
            };
            print(&render_report(&job, mode));
            return Ok(exit_code(&job));
        }
    }
    Ok(exit::OK)
}

async fn show(client: &Client, args: ShowArgs, mode: OutputMode) -> Result<(), CliError> {
    let snapshot = match args.id {
        Some(id) => client
            .snapshot(&args.server, id, args.content)
            .await
            .map_err(snapshot_error(&args.server, words::SNAPSHOT_QUERY))?,
        None => {
            client
                .snapshots(&args.server, args.content)
                .await
                .map_err(snapshot_error(&args.server, &[]))?
                .latest
        }
    };
    let text = match (mode, &snapshot.content) {
        (OutputMode::Json, _) => crate::output::render_json(&snapshot),
        // Piped content is rows of one shape: the metadata would break it.
        (OutputMode::Plain, Some(content)) => render_content(content, mode),
        (_, Some(content)) => {
            render_meta(&snapshot.meta, mode) + "\n" + &render_content(content, mode)
        }
        (_, None) => render_meta(&snapshot.meta, mode),
    };
    print(&text);
    Ok(())
}

async fn restore(client: &Client, args: RestoreArgs, mode: OutputMode) -> Result<u8, CliError> {
    let reword = snapshot_error(&args.server, words::RESTORE);
    if args.dry_run {
        let plan = client
            .restore_plan(&args.server, args.from)
            .await
            .map_err(&reword)?;
        print(&render_plan(&plan, PlanView::Full, mode));
        return Ok(exit::OK);
    }
    let interactive = prompt::interactive();
    if !interactive && !args.yes {
        // Refused before any request: a script never starts a restore by accident.
        return Err(CliError::usage(format!(
            "restoring the structure of server {}: confirmation needed but there is no terminal",
            args.server
        ))
        .hint("pass --yes to confirm; --dry-run shows the plan without changing anything"));
    }
    // On a terminal the plan is shown first, and the job restores the very
    // snapshot the plan was made from, even if another is captured meanwhile.
    let mut snapshot = args.from;
    if interactive {
        let plan = client
            .restore_plan(&args.server, args.from)
            .await
            .map_err(&reword)?;
        print(&render_plan(&plan, PlanView::Changes, mode));
        if plan.summary.create + plan.summary.update == 0 {
            return Ok(exit::OK);
        }
        let question = format!(
            "Restore {} item(s) of snapshot {} onto server {}?",
            plan.summary.create + plan.summary.update,
            plan.snapshot_id,
            args.server
        );
        if !prompt::confirm(&question, args.yes)? {
            return Ok(prompt::cancelled());
        }
        snapshot = Some(plan.snapshot_id);
    }
    let job = client
        .restore(&args.server, snapshot)
        .await
        .map_err(&reword)?;
    let job = follow(client, &args.server, job.id).await?;
    print(&render_report(&job, mode));
    Ok(exit_code(&job))
}

/// Polls a job until it ends, drawing its progress.
async fn follow(client: &Client, server: &str, job: i64) -> Result<RestoreJob, CliError> {
    let mut progress = Progress::new();
    Ok(client
        .wait_for_restore(server, job, &RestoreWait::default(), |job| {
            progress.show(job)
        })
        .await?)
}

/// 1 when a job that ended stopped early or had an item refused.
fn exit_code(job: &RestoreJob) -> u8 {
    if job.state.is_final() && job_failed(job) {
        exit::FAILURE
    } else {
        exit::OK
    }
}

/// Draws a job's progress on stderr: bars redrawn in place on a terminal
/// that takes colour, else a line per kind whenever its numbers change (a
/// log or a `NO_COLOR` terminal gets no escape sequences).
struct Progress {
    term: console::Term,
    redraw: bool,
    drawn: usize,
    last: Vec<KindProgress>,
}

impl Progress {
    fn new() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Progress {
            term: console::Term::stderr(),
            redraw: std::io::stderr().is_terminal() && !no_color,
            drawn: 0,
            last: Vec::new(),
        }
    }

    fn show(&mut self, job: &RestoreJob) {
        if self.redraw {
            let text = render_progress_bars(job);
            let _ = self.term.clear_last_lines(self.drawn);
            let _ = self.term.write_str(&text);
            self.drawn = text.lines().count();
            return;
        }
        for kind in &job.progress {
            if !self.last.contains(kind) {
                eprint!("{}", render_progress_line(kind));
            }
        }
        self.last = job.progress.clone();
    }
}
