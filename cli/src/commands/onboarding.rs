//! `modctl onboarding SERVER`: the setup checklist, progress first, then
//! one line per item with its mark and, under each open item, the command
//! that fixes it.

use modctl_types::onboarding::{ItemStatus, Onboarding};

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{Fit, OutputMode, Rows, render_json, wrap};

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
/// what was found (wrapped between words on a narrow terminal), the fix
/// indented under open items, whole. Plain mode: one
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
            let width = Fit::current().width.unwrap_or(usize::MAX);
            let mut out = wrap(
                &format!(
                    "Server {}: {} of {} done ({}%), {source}",
                    checklist.server_id, progress.done, progress.total, progress.percent
                ),
                0,
                width,
            );
            out.push('\n');
            for item in &checklist.items {
                // The title and what was found, wrapped between words under
                // the mark; the fix stays one line, to paste as printed.
                let text = wrap(&format!("{}: {}", item.title, item.detail), 4, width);
                out.push_str(mark(item.status));
                out.push(' ');
                out.push_str(&text[4..]);
                if let Some(fix) = &item.fix {
                    out.push_str(&format!("      fix: {fix}\n"));
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use modctl_types::onboarding::{OnboardingItem, Progress};

    use super::*;
    use crate::output::at_widths;

    #[test]
    fn the_checklist_wraps_what_was_found_and_keeps_each_fix_whole() {
        let item = |id: &str, status, detail: &str, fix: Option<&str>| OnboardingItem {
            id: id.into(),
            title: id.replace('_', " "),
            status,
            detail: detail.into(),
            fix: fix.map(Into::into),
        };
        let checklist = Onboarding {
            server_id: "100000000000000001".into(),
            progress: Progress {
                done: 1,
                total: 2,
                percent: 50,
            },
            items: vec![
                item(
                    "jail",
                    ItemStatus::Done,
                    "enabled with role @Jailed (900000000000000005)",
                    None,
                ),
                item(
                    "strikes_reviewed",
                    ItemStatus::Todo,
                    "the strikes section is the untouched default (3 escalation steps); nobody chose it",
                    Some("modctl config edit 100000000000000001 strikes"),
                ),
            ],
            checked_at: "2026-11-28T03:00:00Z".parse().unwrap(),
            cached: false,
        };
        let both = at_widths(|| render(&checklist, OutputMode::Table));
        let narrow = both.split("--- 120 columns").next().unwrap();
        for line in narrow
            .lines()
            .filter(|l| !l.trim_start().starts_with("fix:"))
        {
            assert!(line.chars().count() <= 60, "{line}");
        }
        assert!(narrow.contains("      fix: modctl config edit 100000000000000001 strikes\n"));
        insta::assert_snapshot!(both);
    }
}
