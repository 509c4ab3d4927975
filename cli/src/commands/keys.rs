//! `modctl keys`: the API keys of the calling key's team (`GET /keys`),
//! their status, expiry, last use and replacement; never a secret. Keys are
//! made, rotated and revoked by the daemon's operator (`modctld key ...`).

use modctl_types::auth::KeyInfo;

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, Rows, human_time, render_json};

/// Fetches the team's keys and prints them.
pub async fn run(context: &Context) -> Result<(), CliError> {
    let keys = context.client()?.keys().await?.keys;
    print(&render(&keys, context.output));
    Ok(())
}

/// The keys, newest first, the one in use marked.
pub fn render(keys: &[KeyInfo], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(keys);
    }
    let time = |t: &modctl_types::Timestamp| match mode {
        OutputMode::Plain => t.to_string(),
        _ => human_time(t),
    };
    let mut rows = Rows::new(vec![
        "KEY ID",
        "NAME",
        "LABEL",
        "SCOPES",
        "STATUS",
        "EXPIRES",
        "LAST USED",
        "REPLACED BY",
        "IN USE",
    ])
    .droppable(&["LABEL", "LAST USED", "REPLACED BY", "EXPIRES"])
    .yes_no("IN USE");
    for key in keys {
        rows.push(vec![
            key.key_id.clone(),
            key.name.clone().unwrap_or_else(|| "-".into()),
            key.label.clone().unwrap_or_else(|| "-".into()),
            key.scopes
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(","),
            key.status.to_string(),
            key.expires_at.as_ref().map_or_else(|| "never".into(), time),
            key.last_used_at
                .as_ref()
                .map_or_else(|| "never".into(), time),
            key.replaced_by.clone().unwrap_or_else(|| "-".into()),
            crate::output::yes_no(key.current).to_owned(),
        ]);
    }
    rows.render(mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_at_60_and_120_columns_and_piped() {
        let keys: Vec<KeyInfo> = serde_json::from_value(serde_json::json!([
            {"key_id": "q7k2m9x4p1ab", "label": "ci", "name": "Mia", "scopes": ["read", "write"],
             "created_at": "2026-11-20T09:00:00Z", "expires_at": "2027-02-18T09:00:00Z",
             "last_used_at": "2026-11-21T09:00:00Z", "status": "active", "replaced_by": null, "current": true},
            {"key_id": "lhqsjyhvu1q7", "label": null, "scopes": ["read"],
             "created_at": "2026-10-01T09:00:00Z", "expires_at": null, "last_used_at": null,
             "status": "expired", "replaced_by": "q7k2m9x4p1ab", "current": false},
        ]))
        .unwrap();
        insta::assert_snapshot!(
            "keys_at_widths",
            crate::output::at_widths(|| render(&keys, OutputMode::Table))
        );
        insta::assert_snapshot!("keys_plain", render(&keys, OutputMode::Plain));
    }
}
