//! `modctl onboarding SERVER`: the setup checklist, progress first, then
//! one line per item with its mark and, under each open item, the command
//! that fixes it.

use modctl_types::onboarding::{ItemStatus, Onboarding};

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, Rows, render_json};

/// Fetches the checklist and prints it.
pub async fn run(context: &Context, server: &str, refresh: bool) -> Result<(), CliError> {
    let checklist = context.client()?.onboarding(server, refresh).await?;
    print(&render(&checklist, context.output));
    Ok(())
}

fn mark(status: ItemStatus) -> &'static str {
    match status {
        ItemStatus::Done => "[x]",
        ItemStatus::Todo => "[ ]",
        ItemStatus::Warning => "[!]",
        ItemStatus::NotApplicable => "[-]",
    }
}

/// The checklist. Table mode: the progress line, then each item with its
/// mark (`[x]` done, `[ ]` to do, `[!]` warning, `[-]` not applicable) and
/// what was found, the fix indented under open items. Plain mode: one
/// tab-separated row per item (status, id, title, detail, fix).
pub fn render(checklist: &Onboarding, mode: OutputMode) -> String {
    match mode {
        OutputMode::Json => render_json(checklist),
        OutputMode::Plain => {
            let mut rows = Rows::new(vec!["STATUS", "ID", "TITLE", "DETAIL", "FIX"]);
            for item in &checklist.items {
                rows.push(vec![
                    item.status.as_str().to_owned(),
                    item.id.clone(),
                    item.title.clone(),
                    item.detail.clone(),
                    item.fix.clone().unwrap_or_default(),
                ]);
            }
            rows.render(mode)
        }
        OutputMode::Table => {
            let progress = checklist.progress;
            let source = if checklist.cached {
                "platform checks cached; --refresh to check now"
            } else {
                "platform checked now"
            };
            let mut out = format!(
                "Server {}: {} of {} done ({}%), {source}\n\n",
                checklist.server_id, progress.done, progress.total, progress.percent
            );
            for item in &checklist.items {
                out.push_str(&format!(
                    "{} {}: {}\n",
                    mark(item.status),
                    item.title,
                    item.detail
                ));
                if let Some(fix) = &item.fix {
                    out.push_str(&format!("      fix: {fix}\n"));
                }
            }
            out
        }
    }
}
