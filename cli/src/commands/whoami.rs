//! `modctl whoami`.

use modctl_types::Me;
use serde::Serialize;

use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{OutputMode, human_time, render_json, render_pairs};

/// Where the CLI is talking to: the daemon URL, where it came from, and the
/// profile in use, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InUse {
    /// The daemon URL.
    pub url: String,
    /// Where the URL came from: `--url`, `MODCTL_URL` or `profile NAME`.
    pub url_from: String,
    /// The profile whose settings are used, if any.
    pub profile: Option<String>,
}

/// `whoami --json`: the calling key with what is in use (additive fields
/// next to the API's).
#[derive(Serialize)]
struct WhoAmI<'a> {
    #[serde(flatten)]
    me: &'a Me,
    #[serde(flatten)]
    in_use: &'a InUse,
}

/// Fetches `/me` and prints it with the URL and profile in use.
pub async fn run(context: &Context) -> Result<(), CliError> {
    let me = context.client()?.me().await?;
    let (url, origin) = context
        .url()?
        .ok_or_else(|| CliError::usage("no daemon URL configured"))?;
    let in_use = InUse {
        url,
        url_from: origin.to_string().replace('`', ""),
        profile: context.profile_in_use()?,
    };
    print(&render(&me, &in_use, context.output));
    Ok(())
}

/// Renders the calling key. Plain mode prints `field\tvalue` lines with
/// machine-readable values (RFC 3339 times, comma-separated scopes).
pub fn render(me: &Me, in_use: &InUse, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(&WhoAmI { me, in_use });
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
        ("url", in_use.url.clone()),
        ("url_from", in_use.url_from.clone()),
        (
            "profile",
            in_use.profile.clone().unwrap_or_else(|| "-".into()),
        ),
    ];
    // The key's display name (issue #27), after its label, when it has one:
    // the lines of a key without one stay as they were.
    let mut pairs = pairs.to_vec();
    if let Some(name) = &me.name {
        pairs.insert(4, ("name", name.clone()));
    }
    render_pairs(&pairs, mode)
}
