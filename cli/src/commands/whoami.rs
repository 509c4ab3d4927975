//! `modctl whoami`.

use modctl_types::Me;

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, human_time, render_json, render_pairs};

/// Fetches `/me` and prints it.
pub async fn run(context: &Context) -> Result<(), CliError> {
    let me = context.client()?.me().await?;
    print(&render(&me, context.output));
    Ok(())
}

/// Renders the calling key. Plain mode prints `field\tvalue` lines with
/// machine-readable values (RFC 3339 times, comma-separated scopes).
pub fn render(me: &Me, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(me);
    }
    let time = |t: &modctl_types::Timestamp| match mode {
        OutputMode::Plain => t.to_string(),
        _ => human_time(t),
    };
    let scopes = me
        .scopes
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let pairs = [
        ("team", me.team.name.clone()),
        ("plan", me.team.plan.to_string()),
        ("key_id", me.key_id.clone()),
        ("label", me.label.clone().unwrap_or_default()),
        ("scopes", scopes),
        ("created_at", time(&me.created_at)),
        (
            "expires_at",
            me.expires_at
                .as_ref()
                .map_or_else(|| "never".to_owned(), time),
        ),
        ("servers", me.server_count.to_string()),
    ];
    render_pairs(&pairs, mode)
}
