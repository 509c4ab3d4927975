//! Charts of daily series: sparklines for the terminal and an SVG bar chart
//! for `--chart FILE.svg`.
//!
//! The SVG is written by hand: a bar chart is a few dozen `<rect>`s, and a
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

/// An SVG bar chart of one daily series, with its title, the first and
/// last day under the bars and the highest value on the axis.
pub fn svg_bars(title: &str, days: &[(String, u64)]) -> String {
    const WIDTH: f64 = 800.0;
    const HEIGHT: f64 = 320.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 40.0;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let max = days.iter().map(|d| d.1).max().unwrap_or(0).max(1);
    let slot = plot_w / days.len().max(1) as f64;
    let bar = (slot * 0.8).max(0.5);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="24" font-size="16">{}</text>"#,
        escape(title)
    );
    let base = TOP + plot_h;
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{base}" x2="{}" y2="{base}" stroke="#888888"/>"##,
        WIDTH - RIGHT
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        LEFT - 6.0,
        TOP + 4.0,
        grouped(max)
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">0</text>"#,
        LEFT - 6.0,
        base + 4.0
    );
    for (i, (date, value)) in days.iter().enumerate() {
        let h = plot_h * (*value as f64) / max as f64;
        let x = LEFT + i as f64 * slot + (slot - bar) / 2.0;
        let _ = writeln!(
            svg,
            r##"<rect x="{x:.2}" y="{:.2}" width="{bar:.2}" height="{h:.2}" fill="#4a7bd0"><title>{}: {}</title></rect>"##,
            base - h,
            escape(date),
            grouped(*value)
        );
    }
    if let (Some(first), Some(last)) = (days.first(), days.last()) {
        let _ = writeln!(
            svg,
            r#"<text x="{LEFT}" y="{}">{}</text>"#,
            base + 20.0,
            escape(&first.0)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            WIDTH - RIGHT,
            base + 20.0,
            escape(&last.0)
        );
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
    fn an_svg_bar_chart() {
        let days = vec![
            ("2026-11-20".to_owned(), 5),
            ("2026-11-21".to_owned(), 0),
            ("2026-11-22".to_owned(), 10),
        ];
        insta::assert_snapshot!("svg_bars", svg_bars("Messages <per day>", &days));
    }
}
