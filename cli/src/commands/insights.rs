//! `modctl insights SERVER` and `modctl activity SERVER`: moderation and
//! community insights (issue #12).
//!
//! On a terminal: one sparkline per daily series with its total and change
//! against the period before, then the top lists, within 80 columns. Piped:
//! tab-separated rows whose first field says what the row is (see the
//! commands' help). `--json` prints the API's answer; `--chart FILE.svg`
//! also writes a bar chart of the main daily series.

use clap::Args;
use modctl_types::activity::{CommunityInsights, ModerationInsights, Ranked, Window};

use crate::commands::chart::{self, Mark, Panel, Series, change, grouped, sparkline};
use crate::commands::print;
use crate::context::Context;
use crate::exit::CliError;
use crate::output::{EMPTY, OutputMode, Rows, human_time, render_json};

/// Arguments of `modctl insights` and `modctl activity`.
#[derive(Debug, Args)]
pub struct InsightsArgs {
    /// The server id
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// Days in the window, ending today in the server's time zone (1 to 365) [default: 30]
    #[arg(long, value_name = "N")]
    pub days: Option<u32>,
    /// Also write a bar chart of the daily series to this SVG file
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<std::path::PathBuf>,
    /// Redraw in place every SECONDS (1 to 3600, default 5) until Ctrl-C; on a terminal only
    #[arg(long, value_name = "SECONDS", num_args = 0..=1,
          default_missing_value = "5", conflicts_with = "chart",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub watch: Option<u64>,
}

/// Runs `modctl insights`.
pub async fn moderation(context: &Context, args: InsightsArgs) -> Result<(), CliError> {
    if let Some(seconds) = args.watch {
        return crate::commands::refresh::moderation(context, &args, seconds).await;
    }
    let insights = context
        .client()?
        .insights(&args.server, args.days)
        .await
        .map_err(crate::exit::api_error(crate::words::INSIGHTS))?;
    if let Some(path) = &args.chart {
        write_chart(path, &moderation_svg(&insights))?;
    }
    print(&render_moderation(&insights, context.output));
    Ok(())
}

/// Runs `modctl activity`.
pub async fn community(context: &Context, args: InsightsArgs) -> Result<(), CliError> {
    if let Some(seconds) = args.watch {
        return crate::commands::refresh::community(context, &args, seconds).await;
    }
    let insights = context
        .client()?
        .community_insights(&args.server, args.days)
        .await
        .map_err(crate::exit::api_error(crate::words::INSIGHTS))?;
    if let Some(path) = &args.chart {
        write_chart(path, &community_svg(&insights))?;
    }
    print(&render_community(&insights, context.output));
    Ok(())
}

/// The `insights --chart` SVG: the day's cases as applied and not applied
/// stacked (so a bar is the day's cases), escalations as a line over them.
pub fn moderation_svg(insights: &ModerationInsights) -> String {
    let daily = &insights.daily;
    let dates: Vec<String> = daily.iter().map(|d| d.date.to_string()).collect();
    let panel = Panel {
        axis: "cases per day".into(),
        series: vec![
            Series::new(
                "applied",
                chart::BLUE,
                Mark::Bar,
                daily.iter().map(|d| d.applied).collect(),
            ),
            Series::new(
                "not applied",
                chart::ORANGE,
                Mark::Bar,
                daily.iter().map(|d| d.not_applied).collect(),
            ),
            Series::new(
                "escalations",
                chart::VERMILION,
                Mark::Line,
                daily
                    .iter()
                    .map(|d| d.by_source.get("escalation").copied().unwrap_or(0))
                    .collect(),
            ),
        ],
    };
    chart::svg_chart(
        &format!(
            "Moderation of {}, {}",
            insights.server_id,
            span(&insights.window)
        ),
        &dates,
        &[panel],
    )
}

/// The `activity --chart` SVG: a panel for each series the terminal shows
/// a sparkline of, each on its own scale as the sparklines are.
pub fn community_svg(insights: &CommunityInsights) -> String {
    let daily = &insights.daily;
    let dates: Vec<String> = daily.iter().map(|d| d.date.to_string()).collect();
    /// A panel: its label, its colour, the day's value.
    type Row = (
        &'static str,
        &'static str,
        fn(&modctl_types::activity::ActivityDay) -> u64,
    );
    let rows: [Row; 5] = [
        ("messages", chart::BLUE, |d| d.messages),
        ("active members", chart::GREEN, |d| d.active_members),
        ("voice minutes", chart::PURPLE, |d| d.voice_minutes),
        ("joins", chart::SKY, |d| d.joins),
        ("leaves", chart::ORANGE, |d| d.leaves),
    ];
    let panels: Vec<Panel> = rows
        .iter()
        .map(|(label, colour, value)| Panel {
            axis: format!("{label} per day"),
            series: vec![Series::new(
                label,
                colour,
                Mark::Bar,
                daily.iter().map(value).collect(),
            )],
        })
        .collect();
    chart::svg_chart(
        &format!(
            "Community activity of {}, {}",
            insights.server_id,
            span(&insights.window)
        ),
        &dates,
        &panels,
    )
}

fn write_chart(path: &std::path::Path, svg: &str) -> Result<(), CliError> {
    std::fs::write(path, svg)
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// `2026-10-24 to 2026-11-22 (Europe/Berlin)`.
fn span(window: &Window) -> String {
    format!("{} to {} ({})", window.from, window.to, window.timezone)
}

/// The heading of a terminal rendering.
fn heading(what: &str, server: &str, window: &Window) -> String {
    format!(
        "{what} of {server}\nlast {} day{}: {}\n",
        window.days,
        if window.days == 1 { "" } else { "s" },
        span(window)
    )
}

/// One sparkline row: label, chart, total, change.
fn series(label: &str, values: &[u64], total: &str, changed: &str) -> String {
    let line = format!(
        "{label:<15} {:<width$}  {total:>10} {changed:>8}",
        sparkline(values),
        width = chart::SPARK_WIDTH
    );
    format!("{}\n", line.trim_end())
}

/// The note under the sparklines when a mark sums several days.
fn marks_note(days: usize) -> String {
    match chart::days_per_mark(days) {
        1 => "each mark: 1 day, oldest first; total, and change vs. the period before\n".into(),
        n => {
            format!("each mark: {n} days, oldest first; total, and change vs. the period before\n")
        }
    }
}

/// Two top lists side by side: rank, first list's id and count, second's.
fn side_by_side(header: [&'static str; 4], left: &[Ranked], right: &[Ranked]) -> Rows {
    let mut rows = Rows::new(vec!["#", header[0], header[1], header[2], header[3]])
        .droppable(&["#"])
        .named(&[header[0], header[2]]);
    for i in 0..left.len().max(right.len()) {
        let cell = |list: &[Ranked]| {
            list.get(i)
                .map(|r| {
                    (
                        super::names::named(&r.id, r.name.as_deref()),
                        grouped(r.count),
                    )
                })
                .unwrap_or_default()
        };
        let ((a, an), (b, bn)) = (cell(left), cell(right));
        rows.push(vec![(i + 1).to_string(), a, an, b, bn]);
    }
    rows
}

/// The fields of every `activity` plain row: a script splits any row into
/// this many, whatever its kind (the first field).
pub const ACTIVITY_FIELDS: usize = 7;

/// One `activity` plain row of [`ACTIVITY_FIELDS`] tab-separated fields,
/// those the row has no use for (and empty ones) shown as [`EMPTY`].
fn plain_row(fields: &[String]) -> String {
    let cells: Vec<&str> = (0..ACTIVITY_FIELDS)
        .map(|i| match fields.get(i) {
            Some(field) if !field.is_empty() => field.as_str(),
            _ => EMPTY,
        })
        .collect();
    cells.join("\t") + "\n"
}

/// A total as scripts read it: `12`, `3.5`, `-2`.
fn number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        format!("{n:.1}")
    }
}

/// `modctl activity` in any mode.
pub fn render_community(insights: &CommunityInsights, mode: OutputMode) -> String {
    let daily = &insights.daily;
    let column = |f: fn(&modctl_types::activity::ActivityDay) -> u64| -> Vec<u64> {
        daily.iter().map(f).collect()
    };
    let (totals, changes) = (&insights.totals, &insights.change);
    let previous = &insights.previous;
    match mode {
        OutputMode::Json => render_json(insights),
        OutputMode::Plain => {
            let mut out = String::new();
            for d in daily {
                out += &plain_row(&[
                    "day".into(),
                    d.date.to_string(),
                    d.messages.to_string(),
                    d.active_members.to_string(),
                    d.voice_minutes.to_string(),
                    d.joins.to_string(),
                    d.leaves.to_string(),
                ]);
            }
            let total = |name: &str, now: f64, before: f64, changed: Option<f64>| {
                plain_row(&[
                    "total".into(),
                    name.into(),
                    number(now),
                    number(before),
                    number(now - before),
                    changed.map(|c| format!("{c:.1}")).unwrap_or_default(),
                ])
            };
            out += &total(
                "messages",
                totals.messages as f64,
                previous.messages as f64,
                changes.messages,
            );
            out += &total(
                "average_active_members",
                totals.average_active_members,
                previous.average_active_members,
                changes.average_active_members,
            );
            out += &total(
                "voice_minutes",
                totals.voice_minutes as f64,
                previous.voice_minutes as f64,
                changes.voice_minutes,
            );
            out += &total(
                "joins",
                totals.joins as f64,
                previous.joins as f64,
                changes.joins,
            );
            out += &total(
                "leaves",
                totals.leaves as f64,
                previous.leaves as f64,
                changes.leaves,
            );
            for (name, list) in [
                ("top_channel_messages", &insights.top_channels_by_messages),
                ("top_channel_voice", &insights.top_channels_by_voice),
                ("top_member_messages", &insights.top_members_by_messages),
                ("top_member_voice", &insights.top_members_by_voice),
            ] {
                for (rank, r) in list.iter().enumerate() {
                    // The name (issue #27) in the fifth field, which these
                    // rows left empty: no field moves.
                    out += &plain_row(&[
                        name.into(),
                        (rank + 1).to_string(),
                        r.id.clone(),
                        r.count.to_string(),
                        super::names::name_cell(r.name.as_deref()),
                    ]);
                }
            }
            let time =
                |t: Option<modctl_types::Timestamp>| t.map(|t| t.to_string()).unwrap_or_default();
            out += &plain_row(&[
                "last_event".into(),
                time(insights.last_event_at),
                time(insights.last_received_at),
            ]);
            out
        }
        OutputMode::Table => {
            let mut out = heading("Community activity", &insights.server_id, &insights.window);
            out += &match insights.last_event_at {
                Some(at) => format!(
                    "last event {} (received {})\n\n",
                    human_time(&at),
                    insights
                        .last_received_at
                        .map(|t| human_time(&t))
                        .unwrap_or_default()
                ),
                None => {
                    "no activity received yet: connect the platform or post to /activity\n\n".into()
                }
            };
            out += &marks_note(daily.len());
            out += &series(
                "messages",
                &column(|d| d.messages),
                &grouped(totals.messages),
                &change(
                    totals.messages as f64,
                    previous.messages as f64,
                    changes.messages,
                ),
            );
            out += &series(
                "active members",
                &column(|d| d.active_members),
                &format!("avg {:.1}", totals.average_active_members),
                &change(
                    totals.average_active_members,
                    previous.average_active_members,
                    changes.average_active_members,
                ),
            );
            out += &series(
                "voice minutes",
                &column(|d| d.voice_minutes),
                &grouped(totals.voice_minutes),
                &change(
                    totals.voice_minutes as f64,
                    previous.voice_minutes as f64,
                    changes.voice_minutes,
                ),
            );
            out += &series(
                "joins",
                &column(|d| d.joins),
                &grouped(totals.joins),
                &change(totals.joins as f64, previous.joins as f64, changes.joins),
            );
            out += &series(
                "leaves",
                &column(|d| d.leaves),
                &grouped(totals.leaves),
                &change(totals.leaves as f64, previous.leaves as f64, changes.leaves),
            );
            out += "\nTop channels\n";
            out += &side_by_side(
                ["BY MESSAGES", "MSGS", "BY VOICE", "MIN"],
                &insights.top_channels_by_messages,
                &insights.top_channels_by_voice,
            )
            .render(mode);
            out += "Top members\n";
            out += &side_by_side(
                ["BY MESSAGES", "MSGS", "BY VOICE", "MIN"],
                &insights.top_members_by_messages,
                &insights.top_members_by_voice,
            )
            .render(mode);
            out
        }
    }
}

/// `modctl insights` in any mode.
pub fn render_moderation(insights: &ModerationInsights, mode: OutputMode) -> String {
    let daily = &insights.daily;
    let totals = &insights.totals;
    match mode {
        OutputMode::Json => render_json(insights),
        OutputMode::Plain => {
            let pairs = |map: &std::collections::BTreeMap<String, u64>| {
                map.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let mut out = String::new();
            for d in daily {
                out += &format!(
                    "day\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    d.date,
                    d.cases,
                    d.applied,
                    d.not_applied,
                    pairs(&d.by_action),
                    pairs(&d.by_source)
                );
            }
            out += &format!(
                "total\tcases\t{}\t{}\t{}\n",
                totals.cases,
                insights.previous_cases,
                insights
                    .change
                    .map(|c| format!("{c:.1}"))
                    .unwrap_or_default()
            );
            out += &format!("total\tapplied\t{}\n", totals.applied);
            out += &format!("total\tnot_applied\t{}\n", totals.not_applied);
            out += &format!("total\tescalations\t{}\n", totals.escalations);
            for (action, n) in &totals.by_action {
                out += &format!("action\t{action}\t{n}\n");
            }
            for (source, n) in &totals.by_source {
                out += &format!("source\t{source}\t{n}\n");
            }
            // The key's display name last (added by issue #27), `-` if none.
            for r in &insights.top_moderators {
                out += &format!(
                    "moderator\t{}\t{}\t{}\n",
                    r.id,
                    r.count,
                    r.name.as_deref().filter(|n| !n.is_empty()).unwrap_or(EMPTY)
                );
            }
            // The member's name last, as the moderators' (issue #27), `-`
            // when unknown: no field moves.
            for r in &insights.top_repeat_targets {
                let name = super::names::name_cell(r.name.as_deref());
                out += &format!(
                    "repeat_target\t{}\t{}\t{}\n",
                    r.id,
                    r.count,
                    if name.is_empty() { EMPTY } else { &name }
                );
            }
            out += &format!("active_strikes\t{}\n", insights.active_strikes);
            out += &format!("active_jails\t{}\n", insights.active_jails);
            out
        }
        OutputMode::Table => {
            let column = |f: &dyn Fn(&modctl_types::activity::CaseDay) -> u64| -> Vec<u64> {
                daily.iter().map(f).collect()
            };
            let mut out = heading("Moderation", &insights.server_id, &insights.window);
            out += &format!(
                "now: {} active strike{}, {} member{} jailed\n\n",
                insights.active_strikes,
                if insights.active_strikes == 1 {
                    ""
                } else {
                    "s"
                },
                insights.active_jails,
                if insights.active_jails == 1 { "" } else { "s" },
            );
            out += &marks_note(daily.len());
            out += &series(
                "cases",
                &column(&|d| d.cases),
                &grouped(totals.cases),
                &change(
                    totals.cases as f64,
                    insights.previous_cases as f64,
                    insights.change,
                ),
            );
            out += &series(
                "applied",
                &column(&|d| d.applied),
                &grouped(totals.applied),
                "",
            );
            out += &series(
                "not applied",
                &column(&|d| d.not_applied),
                &grouped(totals.not_applied),
                "",
            );
            out += &series(
                "escalations",
                &column(&|d| d.by_source.get("escalation").copied().unwrap_or(0)),
                &grouped(totals.escalations),
                "",
            );
            let mut breakdown = Rows::new(vec!["ACTION", "CASES", "SOURCE", "CASES"]);
            let actions: Vec<_> = totals.by_action.iter().collect();
            let sources: Vec<_> = totals.by_source.iter().collect();
            for i in 0..actions.len().max(sources.len()) {
                let cell = |list: &[(&String, &u64)]| {
                    list.get(i)
                        .map(|(k, v)| ((*k).clone(), grouped(**v)))
                        .unwrap_or_default()
                };
                let ((a, an), (s, sn)) = (cell(&actions), cell(&sources));
                breakdown.push(vec![a, an, s, sn]);
            }
            out += "\nCases by action and source\n";
            out += &breakdown.render(mode);
            out += "Moderators and repeat targets\n";
            out += &side_by_side(
                ["MODERATOR", "CASES", "MEMBER", "CASES"],
                &insights.top_moderators,
                &insights.top_repeat_targets,
            )
            .render(mode);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use modctl_types::activity::{
        ActivityChange, ActivityDay, ActivityTotals, CaseDay, CaseTotals,
    };

    use super::*;

    fn window(days: u32) -> Window {
        Window {
            days,
            from: "2026-11-16".parse().unwrap(),
            to: "2026-11-22".parse().unwrap(),
            timezone: "Europe/Berlin".into(),
        }
    }

    fn ranked(pairs: &[(&str, u64)]) -> Vec<Ranked> {
        pairs
            .iter()
            .map(|(id, count)| Ranked {
                id: (*id).into(),
                count: *count,
                name: None,
            })
            .collect()
    }

    fn community() -> CommunityInsights {
        let messages = [120, 340, 0, 95, 410, 388, 1204];
        let daily = messages
            .iter()
            .enumerate()
            .map(|(i, &m)| ActivityDay {
                date: jiff::civil::date(2026, 11, 16 + i as i8),
                messages: m,
                active_members: m / 10,
                voice_minutes: m / 3,
                joins: (i % 3) as u64,
                leaves: (i % 2) as u64,
            })
            .collect();
        CommunityInsights {
            server_id: "100000000000000001".into(),
            window: window(7),
            daily,
            totals: ActivityTotals {
                messages: 2557,
                average_active_members: 36.1,
                voice_minutes: 850,
                joins: 6,
                leaves: 3,
            },
            previous: ActivityTotals {
                messages: 2000,
                average_active_members: 30.0,
                voice_minutes: 0,
                joins: 4,
                leaves: 3,
            },
            change: ActivityChange {
                messages: Some(27.9),
                average_active_members: Some(20.3),
                voice_minutes: None,
                joins: Some(50.0),
                leaves: Some(0.0),
            },
            top_channels_by_messages: ranked(&[
                ("700000000000000002", 1800),
                ("700000000000000003", 757),
            ]),
            top_channels_by_voice: ranked(&[("700000000000000009", 850)]),
            top_members_by_messages: ranked(&[
                ("800000000000000004", 410),
                ("800000000000000005", 380),
                ("800000000000000007", 52),
            ]),
            top_members_by_voice: ranked(&[
                ("800000000000000005", 600),
                ("800000000000000004", 250),
            ]),
            last_event_at: Some("2026-11-22T11:58:00Z".parse().unwrap()),
            last_received_at: Some("2026-11-22T11:58:02Z".parse().unwrap()),
        }
    }

    fn moderation() -> ModerationInsights {
        let day =
            |i: i8, cases: u64, applied: u64, actions: &[(&str, u64)], sources: &[(&str, u64)]| {
                CaseDay {
                    date: jiff::civil::date(2026, 11, 16 + i),
                    cases,
                    applied,
                    not_applied: cases - applied,
                    by_action: actions.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
                    by_source: sources.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
                }
            };
        let daily = vec![
            day(0, 0, 0, &[], &[]),
            day(1, 3, 3, &[("warn", 2), ("ban", 1)], &[("api", 3)]),
            day(2, 0, 0, &[], &[]),
            day(
                3,
                5,
                4,
                &[("warn", 3), ("timeout", 2)],
                &[("api", 4), ("escalation", 1)],
            ),
            day(4, 1, 1, &[("kick", 1)], &[("api", 1)]),
            day(5, 0, 0, &[], &[]),
            day(
                6,
                2,
                1,
                &[("warn", 1), ("unban", 1)],
                &[("api", 1), ("expiry", 1)],
            ),
        ];
        let mut by_action = BTreeMap::new();
        let mut by_source = BTreeMap::new();
        for d in &daily {
            for (k, v) in &d.by_action {
                *by_action.entry(k.clone()).or_default() += v;
            }
            for (k, v) in &d.by_source {
                *by_source.entry(k.clone()).or_default() += v;
            }
        }
        ModerationInsights {
            server_id: "100000000000000001".into(),
            window: window(7),
            daily,
            totals: CaseTotals {
                cases: 11,
                applied: 9,
                not_applied: 2,
                by_action,
                by_source,
                escalations: 1,
            },
            previous_cases: 8,
            change: Some(37.5),
            top_moderators: {
                let mut moderators = ranked(&[("key:k1a2b3c4", 7), ("key:m9n8b7v6", 4)]);
                moderators[0].name = Some("Mia".into());
                moderators
            },
            top_repeat_targets: ranked(&[("800000000000000004", 4), ("800000000000000005", 2)]),
            active_strikes: 6,
            active_jails: 1,
        }
    }

    #[test]
    fn activity_on_a_terminal_and_piped() {
        let table = render_community(&community(), OutputMode::Table);
        assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
        insta::assert_snapshot!("activity_table", table);
        insta::assert_snapshot!(
            "activity_plain",
            render_community(&community(), OutputMode::Plain)
        );
    }

    #[test]
    fn insights_on_a_terminal_and_piped() {
        let table = render_moderation(&moderation(), OutputMode::Table);
        assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
        insta::assert_snapshot!("insights_table", table);
        insta::assert_snapshot!(
            "insights_plain",
            render_moderation(&moderation(), OutputMode::Plain)
        );
    }

    #[test]
    fn a_year_folds_into_forty_marks_and_json_is_the_answer() {
        let mut year = community();
        year.window.days = 365;
        year.daily = (0..365)
            .map(|i| ActivityDay {
                date: jiff::civil::date(2025, 11, 23)
                    .checked_add(jiff::Span::new().days(i))
                    .unwrap(),
                messages: i as u64,
                active_members: 1,
                voice_minutes: 0,
                joins: 0,
                leaves: 0,
            })
            .collect();
        let table = render_community(&year, OutputMode::Table);
        assert!(table.contains("each mark: 10 days"), "{table}");
        assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
        let json: serde_json::Value =
            serde_json::from_str(&render_community(&year, OutputMode::Json)).unwrap();
        assert_eq!(json["daily"].as_array().unwrap().len(), 365);
    }

    #[test]
    fn activity_and_insights_at_60_and_120_columns() {
        insta::assert_snapshot!(
            "activity_at_widths",
            crate::output::at_widths(|| render_community(&community(), OutputMode::Table))
        );
        insta::assert_snapshot!(
            "insights_at_widths",
            crate::output::at_widths(|| render_moderation(&moderation(), OutputMode::Table))
        );
    }

    /// The `--chart` SVGs (issue #27): insights shows applied, not applied
    /// and escalations with a legend; activity a panel for every series the
    /// terminal shows a sparkline of, each labelled with its total.
    #[test]
    fn the_charts_show_every_series_the_terminal_shows() {
        let svg = moderation_svg(&moderation());
        for legend in ["applied (9)", "not applied (2)", "escalations (1)"] {
            assert!(svg.contains(legend), "{legend}: {svg}");
        }
        assert!(svg.contains(">cases per day<"), "{svg}");
        insta::assert_snapshot!("insights_svg", svg);

        let svg = community_svg(&community());
        let table = render_community(&community(), OutputMode::Table);
        for series in [
            "messages",
            "active members",
            "voice minutes",
            "joins",
            "leaves",
        ] {
            assert!(table.contains(&format!("\n{series} ")), "{series}: {table}");
            assert!(svg.contains(&format!(">{series} (")), "{series}: {svg}");
            assert!(svg.contains(&format!(">{series} per day<")), "{series}");
        }
        insta::assert_snapshot!("activity_svg", svg);
    }

    /// Every plain row of `activity` has the same number of fields, and a
    /// change from a tiny base reads as a difference, not a percentage.
    #[test]
    fn activity_plain_rows_have_a_fixed_number_of_fields() {
        let mut insights = community();
        insights.previous.joins = 1;
        insights.totals.joins = 332;
        insights.change.joins = Some(33_100.0);
        let plain = render_community(&insights, OutputMode::Plain);
        for line in plain.lines() {
            assert_eq!(line.split('\t').count(), ACTIVITY_FIELDS, "{line}");
        }
        assert!(
            plain.contains("total\tjoins\t332\t1\t331\t33100.0\t-\n"),
            "{plain}"
        );
        let table = render_community(&insights, OutputMode::Table);
        assert!(table.contains("+331 (prev 1)"), "{table}");
        assert!(!table.contains("33100"), "{table}");
    }

    /// Names beside ids (issue #27): the top lists show `name (id)` in a
    /// table, the names cut before the ids at 60 columns; piped, the name is
    /// the fifth field and every row keeps its 7.
    #[test]
    fn activity_top_lists_show_names() {
        let mut insights = community();
        insights.top_channels_by_messages[0].name = Some("general".into());
        insights.top_members_by_messages[0].name = Some("Alice\tthe\nGreat".into());
        insights.top_members_by_voice[0].name = Some("bob".into());
        insta::assert_snapshot!(
            "activity_names_at_widths",
            crate::output::at_widths(|| render_community(&insights, OutputMode::Table))
        );
        let plain = render_community(&insights, OutputMode::Plain);
        for line in plain.lines() {
            assert_eq!(line.split('\t').count(), ACTIVITY_FIELDS, "{line}");
        }
        assert!(
            plain.contains(
                "top_member_messages\t1\t800000000000000004\t410\tAlice the Great\t-\t-\n"
            ),
            "{plain}"
        );
    }

    /// The repeat targets carry their names (issue #27): `name (id)` in a
    /// table, the names cut before the ids at 60 columns; piped, the name
    /// is the last field of a `repeat_target` row (`-` when unknown), as
    /// the moderators' key names are.
    #[test]
    fn insights_repeat_targets_show_names() {
        let mut insights = moderation();
        insights.top_repeat_targets[0].name = Some("Alice\tthe\nGreat".into());
        insta::assert_snapshot!(
            "insights_names_at_widths",
            crate::output::at_widths(|| render_moderation(&insights, OutputMode::Table))
        );
        let plain = render_moderation(&insights, OutputMode::Plain);
        assert!(
            plain.contains("repeat_target\t800000000000000004\t4\tAlice the Great\n"),
            "{plain}"
        );
        assert!(
            plain.contains("repeat_target\t800000000000000005\t2\t-\n"),
            "{plain}"
        );
    }
}
