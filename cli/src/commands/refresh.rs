//! `modctl activity|insights --watch [SECONDS]` (issue #27): the terminal
//! rendering redrawn in place every few seconds, like `watch(1)`, until
//! Ctrl-C.
//!
//! Decided: only on a terminal. Piped (or with `--plain`/`--json`) a
//! redraw means nothing to a reader, and printing the whole answer once
//! per interval would make a stream nobody can tell the ends of; the
//! command refuses with a hint (a shell loop, or `modctl watch` for events
//! as they come). `--chart` is written once per run, so it is not taken
//! with `--watch`.

use std::future::Future;
use std::io::{IsTerminal, Write};
use std::time::Duration;

use modctl_types::Timestamp;

use crate::commands::insights::{InsightsArgs, render_community, render_moderation};
use crate::context::Context;
use crate::exit::{self, CliError};
use crate::output::OutputMode;

/// Moves the cursor home and clears the screen (ANSI), so each frame
/// replaces the one before instead of scrolling.
const CLEAR: &str = "\x1b[H\x1b[2J";

/// Checks that `--watch` can redraw: a terminal and the table output.
pub fn check(context: &Context, command: &str, server: &str) -> Result<(), CliError> {
    if context.output == OutputMode::Table && std::io::stdout().is_terminal() {
        return Ok(());
    }
    Err(
        CliError::usage(format!(
            "--watch redraws the terminal, and {command}'s output is not going to one (piped, --plain or --json)"
        ))
        .hint(format!(
            "to sample it, loop: `while sleep 60; do modctl {command} {server} --plain; done`; for events as they happen: `modctl watch {server}`"
        )),
    )
}

/// `modctl insights SERVER --watch`.
pub async fn moderation(
    context: &Context,
    args: &InsightsArgs,
    seconds: u64,
) -> Result<(), CliError> {
    check(context, "insights", &args.server)?;
    let client = context.client()?;
    run(Duration::from_secs(seconds), || async {
        let insights = client
            .insights(&args.server, args.days)
            .await
            .map_err(crate::exit::api_error(crate::words::INSIGHTS))?;
        Ok(render_moderation(&insights, OutputMode::Table))
    })
    .await
    .map(drop)
}

/// `modctl activity SERVER --watch`.
pub async fn community(
    context: &Context,
    args: &InsightsArgs,
    seconds: u64,
) -> Result<(), CliError> {
    check(context, "activity", &args.server)?;
    let client = context.client()?;
    run(Duration::from_secs(seconds), || async {
        let insights = client
            .community_insights(&args.server, args.days)
            .await
            .map_err(crate::exit::api_error(crate::words::INSIGHTS))?;
        Ok(render_community(&insights, OutputMode::Table))
    })
    .await
    .map(drop)
}

/// One frame: the screen cleared, a status line, the rendering.
pub fn frame(body: &str, every: Duration, now: &Timestamp) -> String {
    format!(
        "{CLEAR}every {}s, updated {} UTC; Ctrl-C to stop\n\n{body}",
        every.as_secs(),
        now.strftime("%H:%M:%S")
    )
}

/// Fetches and renders with `render` every `every` until Ctrl-C (exit 0).
/// The first fetch's error ends it (a wrong server id, a key without
/// access); a later one is shown in the frame and tried again at the next
/// tick, so a daemon restart does not end the view.
pub async fn run<F, Fut>(every: Duration, mut render: F) -> Result<u8, CliError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<String, CliError>>,
{
    let mut first = true;
    loop {
        let body = match render().await {
            Ok(body) => body,
            Err(error) if first => return Err(error),
            Err(error) => format!("error: {} (trying again)\n", error.message()),
        };
        first = false;
        {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(frame(&body, every, &Timestamp::now()).as_bytes());
            let _ = out.flush();
        }
        tokio::select! {
            _ = tokio::signal::ctrl_c() => return Ok(exit::OK),
            () = tokio::time::sleep(every) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_clears_the_screen_then_says_when_it_was_drawn() {
        let now: Timestamp = "2026-11-27T21:04:05Z".parse().unwrap();
        assert_eq!(
            frame("body\n", Duration::from_secs(5), &now),
            "\x1b[H\x1b[2Jevery 5s, updated 21:04:05 UTC; Ctrl-C to stop\n\nbody\n"
        );
    }
}
