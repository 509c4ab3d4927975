//! `modctl automod test SERVER TEXT`: what the server's automod would do
//! with a message (issue #25), changing nothing; `modctl automod hits
//! SERVER`: the messages it caught.

use clap::Subcommand;
use modctl_types::automod::{AutomodHitRecord, AutomodTestRequest, AutomodTestResult, HitQuery};

use crate::commands::cases::Layout;
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

const HITS_HELP: &str = "\
Newest first. Plain columns (piped or --plain): id, at, user, channel, filter, matched, action,
outcome (case, burst or delete), case, deleted (yes, no, or empty while being deleted), why not
deleted and why a case hit has no case. A burst is a further message of the same member caught by the same filter within its
window: deleted, without another case.

Examples:
  modctl automod hits 112233445566778899
  modctl automod hits 112233445566778899 --filter blocked_words --user 800000000000000004
  modctl automod hits 112233445566778899 -o json";

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
    /// The messages the server's automod caught, newest first
    #[command(after_help = HITS_HELP)]
    Hits {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Only hits of this filter (blocked_words, invite_links, links, mention_spam, caps,
        /// duplicates)
        #[arg(long, value_parser = parse_filter)]
        filter: Option<modctl_types::automod::FilterName>,
        /// Only hits of this member
        #[arg(long)]
        user: Option<String>,
        /// How many (1 to 200)
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Only hits older than this one (the last id of the previous page)
        #[arg(long)]
        before: Option<i64>,
        #[command(flatten)]
        layout: Layout,
    },
}

/// `--filter`: a filter's config name.
fn parse_filter(value: &str) -> Result<modctl_types::automod::FilterName, String> {
    serde_json::from_value(serde_json::Value::String(value.to_owned())).map_err(|_| {
        format!(
            "`{value}` is not a filter: blocked_words, invite_links, links, mention_spam, caps or duplicates"
        )
    })
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
        AutomodCommand::Hits {
            server,
            filter,
            user,
            limit,
            before,
            layout,
        } => {
            let mode = layout.mode(context);
            let query = HitQuery {
                limit: Some(limit),
                filter,
                user_id: user,
                before,
            };
            let page = context
                .client()?
                .automod_hits(&server, &query)
                .await
                .map_err(api_error(words::AUTOMOD_HITS))?;
            if page.hits.is_empty() && mode != OutputMode::Json {
                // Nothing on stdout keeps `| wc -l` right; a person is told.
                eprintln!("no automod hits match");
            }
            print(&render_hits(&page.hits, mode, Fit::current()));
        }
    }
    Ok(())
}

/// Renders hits: a table, tab-separated rows, or JSON.
pub fn render_hits(hits: &[AutomodHitRecord], mode: OutputMode, fit: Fit) -> String {
    if mode == OutputMode::Json {
        return render_json(&hits);
    }
    let mut rows = Rows::new(vec![
        "ID", "AT", "USER", "CHANNEL", "FILTER", "MATCHED", "ACTION", "OUTCOME", "CASE", "DELETED",
        "WHY NOT",
    ])
    .wide_only(&["CHANNEL", "ACTION", "WHY NOT"])
    .long(&["MATCHED"])
    .droppable(&["AT", "OUTCOME", "ID", "CASE"])
    .yes_no("DELETED");
    let name = |value: serde_json::Result<serde_json::Value>| {
        value
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    for hit in hits {
        rows.push(vec![
            hit.id.to_string(),
            hit.at.to_string(),
            hit.user_id.clone(),
            hit.channel_id.clone().unwrap_or_default(),
            hit.filter.to_string(),
            hit.matched.clone(),
            name(serde_json::to_value(hit.action)),
            name(serde_json::to_value(hit.outcome)),
            hit.case_id.map(|c| c.to_string()).unwrap_or_default(),
            match hit.deleted {
                Some(true) => "yes".into(),
                Some(false) => "no".into(),
                None => String::new(),
            },
            // Why the message is still there, and why a `case` hit has
            // no case.
            [
                hit.delete_detail.clone(),
                hit.case_detail
                    .as_ref()
                    .map(|why| format!("no case: {why}")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; "),
        ]);
    }
    rows.render_fitted(mode, fit)
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

    fn records() -> Vec<AutomodHitRecord> {
        use modctl_types::automod::{EnforcedBy, HitOutcome};
        let hit =
            |id, filter, matched: &str, action, outcome, case_id, deleted, why: Option<&str>| {
                AutomodHitRecord {
                    id,
                    filter,
                    matched: matched.into(),
                    normalized: None,
                    action,
                    user_id: "U0000000001".into(),
                    channel_id: Some("C0000000001".into()),
                    message_id: "1700000000.000100".into(),
                    enforced_by: EnforcedBy::Daemon,
                    outcome,
                    deleted,
                    delete_detail: why.map(str::to_owned),
                    case_detail: None,
                    case_id,
                    at: modctl_types::Timestamp::from_second(1_800_000_000).unwrap(),
                }
            };
        vec![
            hit(
                3,
                FilterName::BlockedWords,
                "bad",
                FilterAction::Warn,
                HitOutcome::Burst,
                None,
                Some(true),
                None,
            ),
            hit(
                2,
                FilterName::BlockedWords,
                "bad",
                FilterAction::Warn,
                HitOutcome::Case,
                Some(7),
                Some(false),
                Some("Slack: no admin user token, the member was shown an ephemeral notice"),
            ),
            hit(
                1,
                FilterName::Caps,
                "90% capitals (9 of 10 letters)",
                FilterAction::Delete,
                HitOutcome::Delete,
                None,
                None,
                None,
            ),
        ]
    }

    #[test]
    fn automod_hits_as_a_table_and_as_plain_rows() {
        insta::assert_snapshot!(render_hits(&records(), OutputMode::Table, AT_80));
        let plain = render_hits(&records(), OutputMode::Plain, AT_80);
        let lines: Vec<&str> = plain.lines().collect();
        assert_eq!(lines.len(), 3, "{plain}");
        assert_eq!(
            lines[0],
            "3\t2027-01-15T08:00:00Z\tU0000000001\tC0000000001\tblocked_words\tbad\twarn\tburst\t-\tyes\t-"
        );
        assert!(
            lines[2].ends_with("\tdelete\tdelete\t-\t-\t-"),
            "{}",
            lines[2]
        );
        let json: serde_json::Value =
            serde_json::from_str(&render_hits(&records(), OutputMode::Json, AT_80)).unwrap();
        assert_eq!(json[1]["case_id"], 7);
    }

    #[test]
    fn a_filter_is_named_by_its_config_name() {
        assert_eq!(parse_filter("mention_spam"), Ok(FilterName::MentionSpam));
        assert!(parse_filter("spam").unwrap_err().contains("blocked_words"));
    }

    #[test]
    fn hits_as_a_table_and_as_plain_rows() {
        insta::assert_snapshot!(render_test(&hits(), OutputMode::Table, AT_80));
        assert_eq!(
            render_test(&hits(), OutputMode::Plain, AT_80),
            "blocked_words\tＢＡＤ, b4d\tbad, bad\tdelete\ninvite_links\tdiscord.gg/abc\t-\tban\n"
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

    #[test]
    fn hits_at_60_and_120_columns() {
        insta::assert_snapshot!(crate::output::at_widths(|| render_hits(
            &records(),
            OutputMode::Table,
            crate::output::Fit::current()
        )));
    }
}
