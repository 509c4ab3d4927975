//! Charts of daily series: sparklines for the terminal and an SVG chart
//! for `--chart FILE.svg` (a panel per series the terminal shows, each with
//! a legend, a y axis with round ticks and the dates).
//!
//! The SVG is written by hand: a chart is a few hundred `<rect>`s, and a
//! plotting crate would bring fonts, image backends and a hundred
//! dependencies for them.

use std::fmt::Write as _;

/// The widest sparkline, in columns: with a label and the totals beside it
/// a line stays within 80 columns.
pub const SPARK_WIDTH: usize = 40;

const MARKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// How many days each column of a sparkline of `days` days sums.
pub fn days_per_mark(days: usize) -> usize {
    days.div_ceil(SPARK_WIDTH).max(1)
}

/// A sparkline of `values` (oldest first): consecutive days are summed into
/// one mark when there are more than [`SPARK_WIDTH`]. All zeros draw the
/// lowest mark; a zero among others draws a space, so quiet days show.
pub fn sparkline(values: &[u64]) -> String {
    let per = days_per_mark(values.len());
    let sums: Vec<u64> = values.chunks(per).map(|c| c.iter().sum()).collect();
    let max = sums.iter().copied().max().unwrap_or(0);
    sums.iter()
        .map(|&v| {
            if max == 0 {
                MARKS[0]
            } else if v == 0 {
                ' '
            } else {
                // 1..=max onto the 8 marks, the smallest positive value visible.
                let i = ((v as f64 / max as f64) * (MARKS.len() - 1) as f64).round() as usize;
                MARKS[i.min(MARKS.len() - 1)]
            }
        })
        .collect()
}

/// Thousands separated by commas: `12,345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Below this previous total a percentage says more about the small base
/// than about the change (1 -> 332 is "+33100.0%"): the change is shown
/// as a difference with the base instead.
pub const SMALL_BASE: f64 = 10.0;

/// A change for people, from the total `now`, the `previous` one and the
/// daemon's `percent`: `+12.5%`, `-3.0%`; from a small base the difference
/// and the base, `+331 (prev 1)`; `new` from nothing, `0` for no change.
pub fn change(now: f64, previous: f64, percent: Option<f64>) -> String {
    let number = |n: f64| {
        if n.fract() == 0.0 {
            format!("{n:+.0}")
        } else {
            format!("{n:+.1}")
        }
    };
    match percent {
        _ if now == previous => "0".into(),
        _ if previous == 0.0 => "new".into(),
        Some(p) if previous >= SMALL_BASE => format!("{p:+.1}%"),
        _ => format!(
            "{} (prev {})",
            number(now - previous),
            number(previous).trim_start_matches('+')
        ),
    }
}

/// How a series is drawn in its panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Bars; the bar series of a panel are stacked, first at the bottom.
    Bar,
    /// A line with a dot a day, over the bars.
    Line,
}

/// One daily series of a chart: its legend label, its colour and its
/// values, one a day, oldest first.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend's label (`applied`, `messages`).
    pub label: String,
    /// `#rrggbb`.
    pub colour: &'static str,
    /// How it is drawn.
    pub mark: Mark,
    /// One value a day, oldest first, as many as the chart has days.
    pub values: Vec<u64>,
}

impl Series {
    /// A series drawn as `mark`.
    pub fn new(label: &str, colour: &'static str, mark: Mark, values: Vec<u64>) -> Series {
        Series {
            label: label.to_owned(),
            colour,
            mark,
            values,
        }
    }
}

/// One panel: series sharing a y axis (what the terminal shows as one
/// sparkline, or applied and not applied stacked into the day's cases).
#[derive(Debug, Clone)]
pub struct Panel {
    /// What the y axis counts (`cases per day`).
    pub axis: String,
    /// Its series, in legend order.
    pub series: Vec<Series>,
}

/// Colours that stay apart for the colour-blind (Okabe and Ito's palette).
pub const BLUE: &str = "#0072b2";
/// See [`BLUE`].
pub const ORANGE: &str = "#e69f00";
/// See [`BLUE`].
pub const VERMILION: &str = "#d55e00";
/// See [`BLUE`].
pub const GREEN: &str = "#009e73";
/// See [`BLUE`].
pub const PURPLE: &str = "#cc79a7";
/// See [`BLUE`].
pub const SKY: &str = "#56b4e9";

/// The y axis ticks for values up to `max`: 0 and multiples of a step of
/// 1, 2 or 5 times a power of ten, at most 5 above 0, the last at or
/// above `max` (so the highest bar is inside the axis).
pub fn ticks(max: u64) -> Vec<u64> {
    let max = max.max(1);
    let mut step = 1u64;
    loop {
        for factor in [1, 2, 5] {
            let candidate = step * factor;
            if max.div_ceil(candidate) <= 5 {
                let top = max.div_ceil(candidate) * candidate;
                return (0..=top / candidate).map(|i| i * candidate).collect();
            }
        }
        step *= 10;
    }
}

/// An SVG chart of daily series: a title, then one panel per [`Panel`]
/// (each with its legend, a y axis with ticks, gridlines and its name, and
/// the dates under it), so every series the terminal shows is readable on
/// its own scale. `dates` are the days, oldest first.
pub fn svg_chart(title: &str, dates: &[String], panels: &[Panel]) -> String {
    const WIDTH: f64 = 860.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 20.0;
    const HEADER: f64 = 44.0;
    // A panel: its legend line, the plot, the dates under it.
    const LEGEND: f64 = 28.0;
    const PLOT: f64 = 170.0;
    const DATES: f64 = 42.0;
    let panel_h = LEGEND + PLOT + DATES;
    let height = HEADER + panel_h * panels.len() as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let days = dates.len().max(1);
    let slot = plot_w / days as f64;
    let bar = (slot * 0.8).max(0.5);
    // About eight dates under a panel, the last day always among them.
    let every = days.div_ceil(8).max(1);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="26" font-size="16" font-weight="bold">{}</text>"#,
        escape(title)
    );
    for (p, panel) in panels.iter().enumerate() {
        let top = HEADER + p as f64 * panel_h;
        let plot_top = top + LEGEND;
        let base = plot_top + PLOT;
        // The legend: a swatch and a label per series.
        let mut x = LEFT;
        for series in &panel.series {
            let swatch = match series.mark {
                Mark::Bar => format!(
                    r#"<rect x="{x}" y="{}" width="12" height="12" fill="{}"/>"#,
                    top + 6.0,
                    series.colour
                ),
                Mark::Line => format!(
                    r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="2"/><circle cx="{}" cy="{y}" r="3" fill="{}"/>"#,
                    x + 12.0,
                    series.colour,
                    x + 6.0,
                    series.colour,
                    y = top + 12.0
                ),
            };
            let total: u64 = series.values.iter().sum();
            let label = format!("{} ({})", series.label, grouped(total));
            let _ = writeln!(
                svg,
                r#"{swatch}<text x="{}" y="{}">{}</text>"#,
                x + 18.0,
                top + 17.0,
                escape(&label)
            );
            x += 18.0 + 7.0 * label.chars().count() as f64 + 20.0;
        }
        // The y axis: stacked bars reach the sum of the bar series.
        let stacked = |day: usize| -> u64 {
            panel
                .series
                .iter()
                .filter(|s| s.mark == Mark::Bar)
                .map(|s| s.values.get(day).copied().unwrap_or(0))
                .sum()
        };
        let highest = (0..dates.len())
            .map(|day| {
                panel
                    .series
                    .iter()
                    .filter(|s| s.mark == Mark::Line)
                    .map(|s| s.values.get(day).copied().unwrap_or(0))
                    .max()
                    .unwrap_or(0)
                    .max(stacked(day))
            })
            .max()
            .unwrap_or(0);
        let ticks = ticks(highest);
        let top_tick = *ticks.last().expect("0 is a tick") as f64;
        let y = |value: f64| base - PLOT * value / top_tick;
        for tick in &ticks {
            let ty = y(*tick as f64);
            let _ = writeln!(
                svg,
                r##"<line x1="{LEFT}" y1="{ty:.2}" x2="{}" y2="{ty:.2}" stroke="{}"/><text x="{}" y="{:.2}" text-anchor="end">{}</text>"##,
                WIDTH - RIGHT,
                if *tick == 0 { "#666666" } else { "#e4e4e4" },
                LEFT - 6.0,
                ty + 4.0,
                grouped(*tick)
            );
        }
        let _ = writeln!(
            svg,
            r#"<text transform="translate(16 {:.2}) rotate(-90)" text-anchor="middle">{}</text>"#,
            plot_top + PLOT / 2.0,
            escape(&panel.axis)
        );
        // The bars, stacked in legend order, each with a tooltip.
        let mut floor = vec![0u64; dates.len()];
        for series in panel.series.iter().filter(|s| s.mark == Mark::Bar) {
            for (day, date) in dates.iter().enumerate() {
                let value = series.values.get(day).copied().unwrap_or(0);
                if value == 0 {
                    continue;
                }
                let (low, high) = (floor[day] as f64, (floor[day] + value) as f64);
                floor[day] += value;
                let bx = LEFT + day as f64 * slot + (slot - bar) / 2.0;
                let _ = writeln!(
                    svg,
                    r#"<rect x="{bx:.2}" y="{:.2}" width="{bar:.2}" height="{:.2}" fill="{}"><title>{} {}: {}</title></rect>"#,
                    y(high),
                    y(low) - y(high),
                    series.colour,
                    escape(date),
                    escape(&series.label),
                    grouped(value)
                );
            }
        }
        for series in panel.series.iter().filter(|s| s.mark == Mark::Line) {
            let points: Vec<(f64, f64)> = (0..dates.len())
                .map(|day| {
                    let value = series.values.get(day).copied().unwrap_or(0) as f64;
                    (LEFT + (day as f64 + 0.5) * slot, y(value))
                })
                .collect();
            let path: Vec<String> = points
                .iter()
                .map(|(px, py)| format!("{px:.2},{py:.2}"))
                .collect();
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
                path.join(" "),
                series.colour
            );
            for (day, (px, py)) in points.iter().enumerate() {
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{px:.2}" cy="{py:.2}" r="2.5" fill="{}"><title>{} {}: {}</title></circle>"#,
                    series.colour,
                    escape(&dates[day]),
                    escape(&series.label),
                    grouped(series.values.get(day).copied().unwrap_or(0))
                );
            }
        }
        // The dates: about eight, the last day always.
        for (day, date) in dates.iter().enumerate() {
            if day % every != 0 && day + 1 != dates.len() {
                continue;
            }
            if day + 1 == dates.len() && day % every != 0 && every > 1 && day % every < every / 2 {
                // Too close to the previous label to be read apart.
                continue;
            }
            let cx = LEFT + (day as f64 + 0.5) * slot;
            let _ = writeln!(
                svg,
                r##"<line x1="{cx:.2}" y1="{base}" x2="{cx:.2}" y2="{}" stroke="#666666"/><text x="{cx:.2}" y="{}" text-anchor="middle">{}</text>"##,
                base + 4.0,
                base + 18.0,
                escape(date)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparklines_scale_to_the_highest_and_fold_long_windows() {
        assert_eq!(sparkline(&[0, 1, 2, 4, 8]), " ▂▃▅█");
        assert_eq!(sparkline(&[0, 0]), "▁▁");
        let year = vec![1; 365];
        assert_eq!(sparkline(&year).chars().count(), 365usize.div_ceil(10));
        assert_eq!(days_per_mark(365), 10);
        assert_eq!(days_per_mark(30), 1);
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        for (now, previous, percent, shown) in [
            (90.0, 80.0, Some(12.5), "+12.5%"),
            (97.0, 100.0, Some(-3.0), "-3.0%"),
            (5.0, 0.0, None, "new"),
            (0.0, 0.0, None, "0"),
            (332.0, 1.0, Some(33_100.0), "+331 (prev 1)"),
            (1.0, 4.0, Some(-75.0), "-3 (prev 4)"),
            (3.5, 2.5, Some(40.0), "+1 (prev 2.5)"),
            (10.0, 10.0, Some(0.0), "0"),
        ] {
            assert_eq!(change(now, previous, percent), shown, "{now} {previous}");
        }
    }

    #[test]
    fn ticks_are_round_and_cover_the_highest() {
        for (max, expected) in [
            (0, vec![0, 1]),
            (1, vec![0, 1]),
            (4, vec![0, 1, 2, 3, 4]),
            (7, vec![0, 2, 4, 6, 8]),
            (10, vec![0, 2, 4, 6, 8, 10]),
            (23, vec![0, 5, 10, 15, 20, 25]),
            (99, vec![0, 20, 40, 60, 80, 100]),
            (1234, vec![0, 500, 1000, 1500]),
        ] {
            assert_eq!(ticks(max), expected, "{max}");
        }
    }

    #[test]
    fn an_svg_chart_with_a_legend_stacked_bars_a_line_and_axes() {
        let dates: Vec<String> = ["2026-11-20", "2026-11-21", "2026-11-22"]
            .map(String::from)
            .to_vec();
        let panels = [
            Panel {
                axis: "cases <per day>".into(),
                series: vec![
                    Series::new("applied", BLUE, Mark::Bar, vec![4, 0, 7]),
                    Series::new("not applied", ORANGE, Mark::Bar, vec![1, 0, 3]),
                    Series::new("escalations", VERMILION, Mark::Line, vec![0, 0, 2]),
                ],
            },
            Panel {
                axis: "joins".into(),
                series: vec![Series::new("joins", GREEN, Mark::Bar, vec![0, 0, 0])],
            },
        ];
        let svg = svg_chart("Moderation & more", &dates, &panels);
        // The legend names every series with its total; the axes are labelled.
        for text in [
            "applied (11)",
            "not applied (4)",
            "escalations (2)",
            "joins (0)",
            "cases &lt;per day&gt;",
            "Moderation &amp; more",
            ">2026-11-20<",
            ">2026-11-22<",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        insta::assert_snapshot!("svg_chart", svg);
    }
}
