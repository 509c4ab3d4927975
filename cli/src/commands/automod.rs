//! `modctl automod test SERVER TEXT`: what the server's automod would do
//! with a message (issue #25), changing nothing.

use clap::Subcommand;
use modctl_types::automod::{AutomodTestRequest, AutomodTestResult};

use crate::commands::print;
use crate::context::Context;
use crate::exit::{CliError, api_error};
use crate::output::{Fit, OutputMode, Rows, render_json};
use crate::words;

const TEST_HELP: &str = "\
Plain columns (piped or --plain): filter, matched, normalized, action; a message an exemption
spares prints one line instead: spared_by<TAB>exemption. The duplicates filter is never tried
(it needs the member's recent messages), and the member is not looked up: bots, the owner and
members above the bot are spared for real messages, not here.

Examples:
  modctl automod test 112233445566778899 \"join discord.gg/abc\"
  modctl automod test 112233445566778899 \"so bad\" --channel 400000000000000001
  modctl automod test 112233445566778899 \"so bad\" --role 300000000000000001 --json";

/// `modctl automod ...`
#[derive(Debug, Subcommand)]
pub enum AutomodCommand {
    /// Try a message against the server's automod filters: which would act, on what, and how
    #[command(after_help = TEST_HELP)]
    Test {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The message text (quote it)
        #[arg(allow_hyphen_values = true)]
        text: String,
        /// The author's user id
        #[arg(long, value_name = "USER")]
        user: Option<String>,
        /// The channel it is sent in (tries automod.exempt_channel_ids)
        #[arg(long, value_name = "CHANNEL", allow_hyphen_values = true)]
        channel: Option<String>,
        /// A role of the author (tries automod.exempt_role_ids); repeat for several
        #[arg(long = "role", value_name = "ROLE")]
        roles: Vec<String>,
    },
}

/// Runs an `automod` command.
pub async fn run(context: &Context, command: AutomodCommand) -> Result<(), CliError> {
    match command {
        AutomodCommand::Test {
            server,
            text,
            user,
            channel,
            roles,
        } => {
            let request = AutomodTestRequest {
                text,
                user_id: user,
                channel_id: channel,
                role_ids: roles,
            };
            let result = context
                .client()?
                .test_automod(&server, &request)
                .await
                .map_err(api_error(words::AUTOMOD_TEST))?;
            print(&render_test(&result, context.output, Fit::current()));
        }
    }
    Ok(())
}

/// Renders a test's answer: a table of the filters that would act (or a
/// sentence when none would), tab-separated rows, or JSON.
pub fn render_test(result: &AutomodTestResult, mode: OutputMode, fit: Fit) -> String {
    match (mode, &result.spared_by) {
        (OutputMode::Json, _) => render_json(result),
        (OutputMode::Plain, Some(exemption)) => format!("spared_by\t{exemption}\n"),
        (_, Some(exemption)) => {
            format!("Spared by {exemption}: no filter acts on this message.\n")
        }
        (OutputMode::Table, None) if result.hits.is_empty() => {
            "No filter would act on this message (duplicates is not tried).\n".to_owned()
        }
        (mode, None) => {
            let mut rows = Rows::new(vec!["FILTER", "MATCHED", "NORMALIZED", "ACTION"])
                .long(&["MATCHED", "NORMALIZED"]);
            for hit in &result.hits {
                let action = serde_json::to_value(hit.action)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                rows.push(vec![
                    hit.filter.to_string(),
                    hit.matched.clone(),
                    hit.normalized.clone().unwrap_or_default(),
                    action,
                ]);
            }
            rows.render_fitted(mode, fit)
        }
    }
}

#[cfg(test)]
mod tests {
    use modctl_types::automod::{AutomodHit, FilterName};
    use modctl_types::config::FilterAction;

    use super::*;

    const AT_80: Fit = Fit {
        width: Some(80),
        wide: false,
        colour: false,
    };

    fn hits() -> AutomodTestResult {
        AutomodTestResult {
            hits: vec![
                AutomodHit {
                    filter: FilterName::BlockedWords,
                    matched: "ＢＡＤ, b4d".into(),
                    normalized: Some("bad, bad".into()),
                    action: FilterAction::Delete,
                },
                AutomodHit {
                    filter: FilterName::InviteLinks,
                    matched: "discord.gg/abc".into(),
                    normalized: None,
                    action: FilterAction::Ban,
                },
            ],
            spared_by: None,
        }
    }

    #[test]
    fn hits_as_a_table_and_as_plain_rows() {
        insta::assert_snapshot!(render_test(&hits(), OutputMode::Table, AT_80));
        assert_eq!(
            render_test(&hits(), OutputMode::Plain, AT_80),
            "blocked_words\tＢＡＤ, b4d\tbad, bad\tdelete\ninvite_links\tdiscord.gg/abc\t\tban\n"
        );
    }

    #[test]
    fn an_exemption_and_no_hits_are_said_in_words() {
        let spared = AutomodTestResult {
            hits: Vec::new(),
            spared_by: Some("exempt_role:300000000000000001".into()),
        };
        let none = AutomodTestResult {
            hits: Vec::new(),
            spared_by: None,
        };
        let cases = [
            (
                &spared,
                OutputMode::Table,
                "Spared by exempt_role:300000000000000001: no filter acts on this message.\n",
            ),
            (
                &spared,
                OutputMode::Plain,
                "spared_by\texempt_role:300000000000000001\n",
            ),
            (
                &none,
                OutputMode::Table,
                "No filter would act on this message (duplicates is not tried).\n",
            ),
            (&none, OutputMode::Plain, ""),
        ];
        for (result, mode, want) in cases {
            assert_eq!(render_test(result, mode, AT_80), want, "{mode:?}");
        }
        assert!(
            render_test(&spared, OutputMode::Json, AT_80).contains("\"spared_by\": \"exempt_role:")
        );
    }
}
