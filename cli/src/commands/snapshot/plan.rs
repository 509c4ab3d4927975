//! Rendering restores: the plan (`diff`, `restore --dry-run`, and what
//! `restore` shows before asking), the progress of a job, and its report.
//!
//! Piped, every plan item and every job item is one row, so a script can
//! pick what it needs: plan rows are `step, kind, snapshot id, name,
//! matched by, live id, detail`; report rows are `outcome, kind, snapshot
//! id, name, live id, what happened`.

use modctl_types::restore::{
    ItemOutcome, JobItem, JobState, KindProgress, MatchedBy, PlanItem, PlanStep, RestoreJob,
    RestorePlan,
};

use crate::output::{Fit, OutputMode, render_json, wrap};

/// How much of a plan to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanView {
    /// Every item (`diff`, `restore --dry-run`).
    Full,
    /// What a restore changes; present items only counted (what `restore`
    /// shows before asking, where a large server's hundreds of present
    /// items would push the question off the screen).
    Changes,
}

/// A restore plan: on a terminal grouped as missing (to create), differing
/// (to set), present (and how each was recognised) and skipped (and why).
pub fn render_plan(plan: &RestorePlan, view: PlanView, mode: OutputMode) -> String {
    match mode {
        OutputMode::Json => return render_json(plan),
        OutputMode::Plain => {
            return plan
                .items
                .iter()
                .filter(|i| view == PlanView::Full || i.step != PlanStep::Present)
                .map(plain_plan_row)
                .collect();
        }
        OutputMode::Table => {}
    }
    let s = &plan.summary;
    let mut out = format!(
        "Snapshot {} against the server now: {} to create, {} to set, {} present, {} skipped.\n",
        plan.snapshot_id, s.create, s.update, s.present, s.skip
    );
    let groups = [
        (PlanStep::Create, "Missing, the restore creates them:"),
        (PlanStep::Update, "Different, the restore sets them:"),
        (PlanStep::Present, "Present, left as they are:"),
        (
            PlanStep::Skip,
            "Missing but not restorable, skipped with the reason:",
        ),
    ];
    for (step, title) in groups {
        let items: Vec<&PlanItem> = plan.items.iter().filter(|i| i.step == step).collect();
        if items.is_empty() {
            continue;
        }
        if step == PlanStep::Present && view == PlanView::Changes {
            out += &format!(
                "\n{} item(s) are present and left as they are (`modctl snapshot diff` lists them).\n",
                items.len()
            );
            continue;
        }
        out += &format!("\n{title}\n");
        let width = items
            .iter()
            .map(|i| i.name.chars().count())
            .max()
            .unwrap_or(0);
        for item in items {
            out += &format!(
                "  {:<9} {:<width$}  {}\n",
                item.kind.as_str(),
                item.name,
                item.detail
            );
        }
    }
    if s.create + s.update == 0 {
        out += "\nNothing to restore.\n";
    }
    out
}

fn plain_plan_row(item: &PlanItem) -> String {
    let matched = match item.matched_by {
        Some(MatchedBy::Id) => "id",
        Some(MatchedBy::Name) => "name",
        Some(MatchedBy::Restored) => "restored",
        _ => "",
    };
    row(&[
        item.step.as_str(),
        item.kind.as_str(),
        &item.snapshot_id,
        &item.name,
        matched,
        item.live_id.as_deref().unwrap_or(""),
        &item.detail,
    ])
}

fn row(cells: &[&str]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| c.replace(['\t', '\n'], " ")).collect();
    cells.join("\t") + "\n"
}

/// The items of a kind a job has worked through.
fn worked(kind: &KindProgress) -> u32 {
    kind.done + kind.failed + kind.skipped
}

/// Progress for a terminal: a bar per kind, redrawn on every poll.
pub fn render_progress_bars(job: &RestoreJob) -> String {
    const WIDTH: u32 = 24;
    let mut out = format!("Restore job {} ({}):\n", job.id, job.state.as_str());
    let name_width = job
        .progress
        .iter()
        .map(|k| k.kind.as_str().len())
        .max()
        .unwrap_or(0);
    for kind in &job.progress {
        let total = worked(kind) + kind.remaining;
        let filled = (worked(kind) * WIDTH).checked_div(total).unwrap_or(WIDTH);
        let bar = "█".repeat(filled as usize) + &"░".repeat((WIDTH - filled) as usize);
        out += &format!(
            "  {:<name_width$} {bar} {:>4}/{:<4} {} done, {} failed, {} skipped, {} remaining\n",
            kind.kind.as_str(),
            worked(kind),
            total,
            kind.done,
            kind.failed,
            kind.skipped,
            kind.remaining
        );
    }
    out
}

/// Progress without a terminal (or with `NO_COLOR`): one line per kind,
/// printed when its numbers change.
pub fn render_progress_line(kind: &KindProgress) -> String {
    format!(
        "{}: {} done, {} failed, {} skipped, {} remaining\n",
        kind.kind.as_str(),
        kind.done,
        kind.failed,
        kind.skipped,
        kind.remaining
    )
}

/// Whether a job that ended counts as failed for the exit code: it stopped
/// before the end, or the platform refused an item.
pub fn job_failed(job: &RestoreJob) -> bool {
    job.state == JobState::Failed || job.items.iter().any(|i| i.outcome == ItemOutcome::Failed)
}

/// The report of a job: on a terminal a summary line, then the failed and
/// skipped items with their reasons (and the items not worked on yet, when
/// the job stopped or is still going); piped, one row per item. A line
/// too long for the terminal puts its reason (or a remapped id's new
/// value) on the lines below, wrapped between words.
pub fn render_report(job: &RestoreJob, mode: OutputMode) -> String {
    match mode {
        OutputMode::Json => return render_json(job),
        OutputMode::Plain => return job.items.iter().map(plain_report_row).collect(),
        OutputMode::Table => {}
    }
    let width = Fit::current().width.unwrap_or(usize::MAX);
    // `head` then `tail` on one line when they fit, else `tail` wrapped
    // under `head`.
    let line = |head: String, tail: &str| {
        if head.chars().count() + tail.chars().count() <= width {
            format!("{head}{tail}\n")
        } else {
            format!("{}\n{}", head.trim_end(), wrap(tail, 6, width))
        }
    };
    let count = |outcome| job.items.iter().filter(|i| i.outcome == outcome).count();
    let created = job
        .items
        .iter()
        .filter(|i| i.outcome == ItemOutcome::Done && i.planned.step != PlanStep::Present)
        .count();
    let present = count(ItemOutcome::Done) - created;
    let (failed, skipped, pending) = (
        count(ItemOutcome::Failed),
        count(ItemOutcome::Skipped),
        count(ItemOutcome::Pending),
    );
    let mut out = match (job.state, &job.detail) {
        (JobState::Failed, Some(detail)) => {
            format!("Restore job {} stopped before the end: {detail}\n", job.id)
        }
        (state, _) => format!(
            "Restore job {} of snapshot {} {}:\n",
            job.id,
            job.snapshot_id,
            match state {
                JobState::Done => "done",
                JobState::Failed => "stopped before the end",
                JobState::Queued => "queued",
                _ => "running",
            }
        ),
    };
    let mut summary = format!(
        "{created} created or set, {present} already present, {failed} failed, {skipped} skipped"
    );
    if pending > 0 {
        summary += &format!(", {pending} not worked on yet");
    }
    out += &wrap(&summary, 2, width);
    let sections = [
        (ItemOutcome::Failed, "Failed (the platform refused them):"),
        (ItemOutcome::Skipped, "Skipped:"),
        (ItemOutcome::Pending, "Not worked on yet:"),
    ];
    for (outcome, title) in sections {
        let items: Vec<&JobItem> = job.items.iter().filter(|i| i.outcome == outcome).collect();
        if items.is_empty() {
            continue;
        }
        out += &format!("\n{title}\n");
        let name_width = items
            .iter()
            .map(|i| i.planned.name.chars().count())
            .max()
            .unwrap_or(0);
        for item in items {
            let head = format!(
                "  {:<9} {:<name_width$}  ",
                item.planned.kind.as_str(),
                item.planned.name,
            );
            out += &line(head, reason(item));
        }
    }
    if !job.config_remapped.is_empty() {
        out += "\n";
        out += &wrap(
            "Config pointed at what was recreated (one revision, source restore):",
            0,
            width,
        );
        let path_width = job
            .config_remapped
            .iter()
            .map(|r| r.path.chars().count())
            .max()
            .unwrap_or(0);
        for remapped in &job.config_remapped {
            // The new id beside the name of what it is, `name (id)`.
            let to = match &remapped.name {
                Some(name) => format!("{name} ({})", remapped.to),
                None => remapped.to.clone(),
            };
            let head = format!("  {:<path_width$}  ", remapped.path);
            out += &line(head, &format!("{} -> {to}", remapped.from));
        }
    }
    out
}

/// What happened to an item, or else why it was planned that way.
fn reason(item: &JobItem) -> &str {
    item.result.as_deref().unwrap_or(&item.planned.detail)
}

fn plain_report_row(item: &JobItem) -> String {
    let outcome = match item.outcome {
        ItemOutcome::Pending => "pending",
        ItemOutcome::Done => "done",
        ItemOutcome::Failed => "failed",
        ItemOutcome::Skipped => "skipped",
        _ => "other",
    };
    row(&[
        outcome,
        item.planned.kind.as_str(),
        &item.planned.snapshot_id,
        &item.planned.name,
        item.planned.live_id.as_deref().unwrap_or(""),
        reason(item),
    ])
}
