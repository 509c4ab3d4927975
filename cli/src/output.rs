//! Output modes and colour.
//!
//! - **table**: a comfy-table table, the default when stdout is a terminal;
//! - **plain**: tab-separated rows without a header or colour, the default when
//!   stdout is piped (stable for `cut`, `awk`, `while read`);
//! - **json**: pretty JSON of the data as the API returns it (`--json`).
//!
//! Colour is only used on terminals, and never when `NO_COLOR` is set.
//!
//! Tables fit the terminal: the long columns (reason, detail) are cut with an
//! ellipsis so that the others keep their width, and `--wide` (`-o wide`)
//! shows every value whole. On a terminal, times in tables are relative
//! ("3m ago"); piped output and JSON keep absolute times. Like the colour
//! switch of `console`, these are process-wide settings made once at start
//! ([`configure`]); the renderers stay pure functions of their data, and
//! [`Rows::render_fitted`] takes the settings explicitly for tests.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use comfy_table::{ContentArrangement, Table, presets};
use serde::Serialize;

/// How a command prints its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputMode {
    /// A table for people.
    Table,
    /// Tab-separated rows for scripts.
    Plain,
    /// JSON.
    Json,
}

impl OutputMode {
    /// `--json`, `--plain` or `--table` if given (clap keeps them exclusive),
    /// else table on a terminal and plain otherwise.
    pub fn resolve(json: bool, plain: bool, table: bool) -> OutputMode {
        if json {
            OutputMode::Json
        } else if plain {
            OutputMode::Plain
        } else if table || std::io::stdout().is_terminal() {
            OutputMode::Table
        } else {
            OutputMode::Plain
        }
    }
}

static WIDE: AtomicBool = AtomicBool::new(false);
static RELATIVE: AtomicBool = AtomicBool::new(false);

/// The process-wide table settings: `wide` shows long columns whole, and
/// times are relative when tables go to a terminal.
pub fn configure(mode: OutputMode, wide: bool) {
    WIDE.store(wide, Ordering::Relaxed);
    RELATIVE.store(
        mode == OutputMode::Table && std::io::stdout().is_terminal(),
        Ordering::Relaxed,
    );
}

/// How a table is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    /// The terminal's width; `None` when stdout is not a terminal.
    pub width: Option<usize>,
    /// Show every value whole, however wide the table gets.
    pub wide: bool,
    /// Colour values such as `applied`.
    pub colour: bool,
}

thread_local! {
    /// A layout [`with_fit`] imposes on the renderers, for tests.
    static FIT: std::cell::Cell<Option<Fit>> = const { std::cell::Cell::new(None) };
}

impl Fit {
    /// The settings of this process: the width (`COLUMNS`, else the
    /// terminal's), `--wide`, `NO_COLOR`; or the one [`with_fit`] imposes.
    pub fn current() -> Fit {
        if let Some(fit) = FIT.with(std::cell::Cell::get) {
            return fit;
        }
        Fit {
            width: terminal_width(),
            wide: WIDE.load(Ordering::Relaxed),
            colour: console::colors_enabled(),
        }
    }
}

/// Runs `render` with the layout `fit` instead of this process's: how
/// tests render at 60 and 120 columns.
pub fn with_fit<T>(fit: Fit, render: impl FnOnce() -> T) -> T {
    let before = FIT.with(|cell| cell.replace(Some(fit)));
    let out = render();
    FIT.with(|cell| cell.set(before));
    out
}

/// The width tables fit: `COLUMNS` when it is set to a number (as `ls`
/// and git honour it, also when piped with `--table`), else the
/// terminal's; `None` when neither says.
pub fn terminal_width() -> Option<usize> {
    width_from(
        std::env::var("COLUMNS").ok(),
        console::Term::stdout()
            .size_checked()
            .map(|(_, width)| usize::from(width)),
    )
}

fn width_from(columns: Option<String>, terminal: Option<usize>) -> Option<usize> {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|width| *width > 0)
        .or(terminal)
}

/// `text` as lines of at most `width` characters after `indent` spaces,
/// broken between words (a word longer than the line stays whole: a
/// reason or a name is never cut). Each line ends with a newline. For the
/// reports that are lines, not tables, on a narrow terminal.
pub fn wrap(text: &str, indent: usize, width: usize) -> String {
    let room = width.saturating_sub(indent).max(1);
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if !line.is_empty() && needed > room {
            out += &format!("{:indent$}{line}\n", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out += &format!("{:indent$}{line}\n", "");
    }
    out
}

/// Whether colour may be used on stderr (terminal, and `NO_COLOR` unset).
pub fn init_colours() {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    console::set_colors_enabled(!no_color && std::io::stdout().is_terminal());
    console::set_colors_enabled_stderr(!no_color && std::io::stderr().is_terminal());
}

/// `text` in `style` when stderr takes colour.
pub fn paint_stderr(text: &str, style: console::Style) -> String {
    style.for_stderr().apply_to(text).to_string()
}

/// A list of rows rendered in any mode but JSON.
#[derive(Debug)]
pub struct Rows {
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    /// Columns cut to fit the terminal, e.g. reason and detail.
    long: Vec<usize>,
    /// A yes/no column coloured green/red.
    yes_no: Option<usize>,
    /// Columns a table shows only when wide (plain rows always have them).
    wide_only: Vec<usize>,
    /// Columns a narrow table leaves out, least important first, before it
    /// cuts the long columns below [`READABLE`].
    droppable: Vec<usize>,
    /// Columns only plain rows have: a table shows what they hold another
    /// way (a name beside its id, issue #27).
    plain_only: Vec<usize>,
    /// Columns of `name (id)` cells: a table still too wide once the long
    /// columns are cut shortens the names, never the ids.
    named: Vec<usize>,
}

/// The width under which a long column is hardly worth reading: a narrow
/// table drops its droppable columns before it cuts one below this.
const READABLE: usize = 12;

/// The narrowest a long column is cut to, ellipsis included: narrower than
/// one would like, but the table fits, and `--wide` or `show` has the rest.
const MIN_LONG: usize = 3;

impl Rows {
    /// Rows under `header`.
    pub fn new(header: Vec<&'static str>) -> Self {
        Rows {
            header,
            rows: Vec::new(),
            long: Vec::new(),
            yes_no: None,
            wide_only: Vec::new(),
            droppable: Vec::new(),
            plain_only: Vec::new(),
            named: Vec::new(),
        }
    }

    /// Marks the columns named `names` as holding `name (id)` cells, whose
    /// names a table too narrow for them is cut first, the id kept whole.
    pub fn named(mut self, names: &[&str]) -> Self {
        self.named = self.columns(names);
        self
    }

    /// Marks the columns named `names` as in plain rows only (at the end,
    /// so a column added later never moves the others); a table shows what
    /// they hold in another column.
    pub fn plain_only(mut self, names: &[&str]) -> Self {
        self.plain_only = self.columns(names);
        self
    }

    /// Marks the columns named `names` as left out of a table too narrow
    /// for all of them, in this order (least important first), before any
    /// long column is cut below [`READABLE`]; plain rows keep them.
    pub fn droppable(mut self, names: &[&str]) -> Self {
        self.droppable = self.columns(names);
        self
    }

    /// Marks the columns named `names` as shown in tables only with `--wide`
    /// (as kubectl's `-o wide` adds columns); plain rows keep them.
    pub fn wide_only(mut self, names: &[&str]) -> Self {
        self.wide_only = self.columns(names);
        self
    }

    /// Marks the columns named `names` as long: cut with an ellipsis when
    /// the table is wider than the terminal.
    pub fn long(mut self, names: &[&str]) -> Self {
        self.long = self.columns(names);
        self
    }

    /// Marks column `name` as holding yes/no, coloured on a terminal.
    pub fn yes_no(mut self, name: &str) -> Self {
        self.yes_no = self.columns(&[name]).first().copied();
        self
    }

    fn columns(&self, names: &[&str]) -> Vec<usize> {
        names
            .iter()
            .filter_map(|name| self.header.iter().position(|h| h == name))
            .collect()
    }

    /// Adds a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// A table (`Table`) fitted to this process's terminal, or tab-separated
    /// lines without header (`Plain`).
    pub fn render(&self, mode: OutputMode) -> String {
        self.render_fitted(mode, Fit::current())
    }

    /// [`Rows::render`] with the layout given.
    pub fn render_fitted(&self, mode: OutputMode, fit: Fit) -> String {
        match mode {
            OutputMode::Plain => self
                .rows
                .iter()
                .map(|row| {
                    let cells: Vec<String> = row.iter().map(|c| plain_cell(c)).collect();
                    cells.join("\t") + "\n"
                })
                .collect(),
            OutputMode::Table | OutputMode::Json => self.table(fit),
        }
    }

    fn table(&self, fit: Fit) -> String {
        let mut shown: Vec<usize> = (0..self.header.len())
            .filter(|col| !self.plain_only.contains(col))
            .filter(|col| fit.wide || !self.wide_only.contains(col))
            .collect();
        if let (Some(width), false) = (fit.width, fit.wide) {
            let natural = |col: usize| {
                self.rows
                    .iter()
                    .map(|row| {
                        plain_cell(row.get(col).map_or("", String::as_str))
                            .chars()
                            .count()
                    })
                    .chain([self.header[col].chars().count()])
                    .max()
                    .unwrap_or(0)
            };
            // The width with every long column at a readable width at most.
            let needed = |shown: &[usize]| {
                shown
                    .iter()
                    .map(|&col| match self.long.contains(&col) {
                        true => natural(col).min(READABLE),
                        false => natural(col),
                    })
                    .sum::<usize>()
                    + 3 * shown.len()
                    + 1
            };
            for col in &self.droppable {
                if needed(&shown) <= width {
                    break;
                }
                shown.retain(|shown| shown != col);
            }
        }
        let header: Vec<&'static str> = shown.iter().map(|&col| self.header[col]).collect();
        // One line per row: a cell's line breaks would break the layout.
        let mut rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                shown
                    .iter()
                    .map(|&col| plain_cell(row.get(col).map_or("", String::as_str)))
                    .collect()
            })
            .collect();
        let at = |col: usize| shown.iter().position(|&c| c == col);
        if let (Some(width), false) = (fit.width, fit.wide) {
            let long: Vec<usize> = self.long.iter().filter_map(|&col| at(col)).collect();
            for (col, limit) in long_limits(&header, &long, &rows, width) {
                for row in &mut rows {
                    row[col] = cut(&row[col], limit);
                }
            }
            // Still too wide: the names beside the ids give way.
            for col in self.named.iter().filter_map(|&col| at(col)) {
                let total = widths(&header, &rows).iter().sum::<usize>() + 3 * header.len() + 1;
                if total <= width {
                    break;
                }
                let natural = widths(&header, &rows)[col];
                let limit = natural.saturating_sub(total - width);
                for row in &mut rows {
                    row[col] = cut_named(&row[col], limit);
                }
            }
        }
        let mut table = Table::new();
        table.load_style(presets::UTF8_FULL_CONDENSED);
        table.set_content_arrangement(ContentArrangement::Disabled);
        table.set_header(header);
        for row in &rows {
            table.add_row(row.clone());
        }
        let text = format!("{table}\n");
        match (self.yes_no.and_then(at), fit.colour) {
            (Some(col), true) => colour_column(&text, col),
            _ => text,
        }
    }
}

/// How wide each long column may be so that the table fits `width`: the
/// other columns keep their width, and the long ones share what is left, the
/// narrowest first, none below [`MIN_LONG`].
fn long_limits(
    header: &[&str],
    long: &[usize],
    rows: &[Vec<String>],
    width: usize,
) -> Vec<(usize, usize)> {
    let natural: Vec<usize> = (0..header.len())
        .map(|col| {
            rows.iter()
                .map(|row| row[col].chars().count())
                .chain([header[col].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // "│ " before each cell, " " after it, and the closing "│".
    let frame = 3 * header.len() + 1;
    let total: usize = natural.iter().sum::<usize>() + frame;
    if total <= width || long.is_empty() {
        return Vec::new();
    }
    let fixed: usize = (0..natural.len())
        .filter(|col| !long.contains(col))
        .map(|col| natural[col])
        .sum();
    let mut left = width.saturating_sub(fixed + frame);
    let mut long = long.to_vec();
    long.sort_by_key(|col| natural[*col]);
    let mut limits = Vec::new();
    for (i, col) in long.iter().enumerate() {
        let share = left / (long.len() - i);
        let limit = natural[*col].min(share.max(MIN_LONG));
        left = left.saturating_sub(limit);
        limits.push((*col, limit));
    }
    limits
}

/// Each column's width: its widest cell or header.
fn widths(header: &[&str], rows: &[Vec<String>]) -> Vec<usize> {
    (0..header.len())
        .map(|col| {
            rows.iter()
                .map(|row| row[col].chars().count())
                .chain([header[col].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// A `name (id)` cell in `limit` characters: the name cut (with an
/// ellipsis) and the id whole, or the id alone when no room is left for a
/// name; other cells as they are.
fn cut_named(cell: &str, limit: usize) -> String {
    if cell.chars().count() <= limit || !cell.ends_with(')') {
        return cell.to_owned();
    }
    let Some(at) = cell.rfind(" (") else {
        return cell.to_owned();
    };
    let (name, id) = (&cell[..at], &cell[at..]);
    let room = limit.saturating_sub(id.chars().count());
    if room >= 2 {
        format!("{}{id}", cut(name, room))
    } else {
        id[2..id.len() - 1].to_owned()
    }
}

/// `text` cut to `limit` characters, ending in an ellipsis when cut.
pub(crate) fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(limit.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The bytes of a table's vertical line, `│` or `┆`.
const BAR: usize = 3;

/// Colours the yes/no cells of column `col` in a rendered table: green for
/// yes, red for no. Done on the text because comfy-table (built without its
/// styling features) would count the escape codes as width.
fn colour_column(table: &str, col: usize) -> String {
    let mut out = String::with_capacity(table.len() + 64);
    for line in table.lines() {
        // The outer border is `│`, the lines between cells `┆`.
        let bars: Vec<usize> = line.match_indices(['│', '┆']).map(|(i, _)| i).collect();
        if let (Some(&start), Some(&end)) = (bars.get(col), bars.get(col + 1)) {
            let cell = &line[start + BAR..end];
            let style = match cell.trim() {
                "yes" | "true" => Some(console::Style::new().green()),
                "no" | "false" => Some(console::Style::new().red()),
                _ => None,
            };
            if let Some(style) = style {
                let value = cell.trim();
                let at = cell.find(value).unwrap_or(0);
                out.push_str(&line[..start + BAR]);
                out.push_str(&cell[..at]);
                out.push_str(&style.force_styling(true).apply_to(value).to_string());
                out.push_str(&cell[at + value.len()..]);
                out.push_str(&line[end..]);
                out.push('\n');
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Key/value pairs, e.g. `whoami`: a two-column table, or `key\tvalue` lines.
pub fn render_pairs(pairs: &[(&str, String)], mode: OutputMode) -> String {
    match mode {
        OutputMode::Plain => pairs
            .iter()
            .map(|(key, value)| format!("{key}\t{}\n", plain_cell(value)))
            .collect(),
        OutputMode::Table | OutputMode::Json => {
            let mut table = new_table();
            for (key, value) in pairs {
                table.add_row(vec![key.replace('_', " "), plain_cell(value)]);
            }
            format!("{table}\n")
        }
    }
}

/// How every table and plain row shows a value that is not there (`null`,
/// an empty list or text): one way, whatever the command.
pub const EMPTY: &str = "-";

/// How every table and plain row shows a yes/no value (JSON keeps `true`
/// and `false`; config values stay as `config set` takes them).
pub fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

/// Pretty JSON with a trailing newline.
pub fn render_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("wire types always serialize") + "\n"
}

/// A table of key/value pairs: wrapped to the terminal (the values are the
/// point, so they are never cut).
fn new_table() -> Table {
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED);
    if let Some(width) = Fit::current().width {
        table.set_content_arrangement(ContentArrangement::Dynamic);
        table.set_width(u16::try_from(width).unwrap_or(u16::MAX));
    }
    table
}

/// A value as a cell: tabs and newlines inside it would break the row
/// structure, and an empty value is shown as [`EMPTY`].
fn plain_cell(value: &str) -> String {
    if value.trim().is_empty() {
        return EMPTY.to_owned();
    }
    value.replace(['\t', '\n', '\r'], " ")
}

/// Shows `text` through the pager when stdout is a terminal and `text` is
/// taller than it, as git and gh do; whether it did. Never when piped. The
/// pager is `MODCTL_PAGER`, else `PAGER`, else `less` (with `LESS=FRX`
/// unless `LESS` is set: colours pass, and it quits at the end); an empty
/// value or `cat` turns paging off.
pub fn page(text: &str) -> bool {
    let term = console::Term::stdout();
    if !std::io::stdout().is_terminal() {
        return false;
    }
    let Some((height, _)) = term.size_checked() else {
        return false;
    };
    if text.lines().count() < usize::from(height) {
        return false;
    }
    let pager = pager(|name| std::env::var(name).ok());
    let Some(pager) = pager else {
        return false;
    };
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", &pager])
        .stdin(std::process::Stdio::piped());
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRX");
    }
    let Ok(mut child) = command.spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        // The reader quitting early (`q` in less) closes the pipe: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    let _ = child.wait();
    true
}

/// The pager command from the environment `env`, or `None` for no paging.
fn pager(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    let chosen = env("MODCTL_PAGER")
        .or_else(|| env("PAGER"))
        .unwrap_or_else(|| "less".into());
    let chosen = chosen.trim();
    (!chosen.is_empty() && chosen != "cat").then(|| chosen.to_owned())
}

/// A timestamp for people: relative ("3m ago") when tables go to a
/// terminal, else `2026-11-21 09:08:10 UTC`.
pub fn human_time(t: &modctl_types::Timestamp) -> String {
    if RELATIVE.load(Ordering::Relaxed) {
        relative_time(t, &modctl_types::Timestamp::now())
    } else {
        absolute_time(t)
    }
}

/// The time to which tables' times are relative: `Some(now)` when they go
/// to a terminal, else `None` (absolute times).
pub fn relative_to() -> Option<modctl_types::Timestamp> {
    RELATIVE
        .load(Ordering::Relaxed)
        .then(modctl_types::Timestamp::now)
}

/// `2026-11-21 09:08:10 UTC`.
pub fn absolute_time(t: &modctl_types::Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// `t` relative to `now`: "just now", "3m ago", "2h ago", "5d ago", "in
/// 10m"; past 30 days away, the date.
pub fn relative_time(t: &modctl_types::Timestamp, now: &modctl_types::Timestamp) -> String {
    let seconds = now.as_second() - t.as_second();
    let (amount, unit) = match seconds.abs() {
        0..10 => return "just now".into(),
        s @ 10..60 => (s, "s"),
        s @ 60..3_600 => (s / 60, "m"),
        s @ 3_600..86_400 => (s / 3_600, "h"),
        s @ 86_400..2_592_000 => (s / 86_400, "d"),
        _ => return t.strftime("%Y-%m-%d").to_string(),
    };
    if seconds >= 0 {
        format!("{amount}{unit} ago")
    } else {
        format!("in {amount}{unit}")
    }
}

/// What `render` prints at 60 and at 120 columns, one after the other, for
/// the snapshot tests of every table: what a narrow terminal leaves out
/// (least important first) before it cuts words. Asserts that every table
/// line fits (the sparkline lines of `activity` are not tables).
#[cfg(test)]
pub(crate) fn at_widths(render: impl Fn() -> String) -> String {
    let mut out = String::new();
    for width in [60, 120] {
        let fit = Fit {
            width: Some(width),
            wide: false,
            colour: false,
        };
        let text = with_fit(fit, &render);
        for line in text.lines().filter(|l| l.starts_with(['┌', '│', '╞', '└'])) {
            assert!(line.chars().count() <= width, "{width}: {line}");
        }
        out += &format!("--- {width} columns\n{text}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_between_words_and_never_cuts_one() {
        assert_eq!(wrap("one two three", 2, 11), "  one two\n  three\n");
        assert_eq!(
            wrap("a 0123456789abcdef b", 0, 8),
            "a\n0123456789abcdef\nb\n"
        );
        assert_eq!(wrap("", 4, 10), "");
    }

    #[test]
    fn a_named_cell_gives_way_name_first_never_the_id() {
        for (cell, limit, shown) in [
            ("alice (123)", 20, "alice (123)"),
            ("alice (123)", 11, "alice (123)"),
            ("alice (123)", 10, "ali… (123)"),
            ("alice (123)", 8, "a… (123)"),
            ("alice (123)", 7, "123"),
            ("123", 2, "123"),
            ("(x)", 1, "(x)"),
        ] {
            assert_eq!(cut_named(cell, limit), shown, "{cell} in {limit}");
        }
    }

    #[test]
    fn plain_rows_have_no_header_and_no_tabs_inside_cells() {
        let mut rows = Rows::new(vec!["A", "B"]);
        rows.push(vec!["x\ty".into(), "z".into()]);
        assert_eq!(rows.render(OutputMode::Plain), "x y\tz\n");
    }

    #[test]
    fn the_pager_comes_from_the_environment_and_can_be_turned_off() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(pager(env(&[])), Some("less".into()));
        assert_eq!(pager(env(&[("PAGER", "more")])), Some("more".into()));
        assert_eq!(
            pager(env(&[("PAGER", "more"), ("MODCTL_PAGER", "less -S")])),
            Some("less -S".into())
        );
        assert_eq!(pager(env(&[("PAGER", "cat")])), None);
        assert_eq!(pager(env(&[("MODCTL_PAGER", ""), ("PAGER", "more")])), None);
    }

    #[test]
    fn relative_times() {
        let now: modctl_types::Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let at = |s: i64| modctl_types::Timestamp::from_second(now.as_second() - s).unwrap();
        let cases = [
            (3, "just now"),
            (42, "42s ago"),
            (180, "3m ago"),
            (7_200, "2h ago"),
            (5 * 86_400, "5d ago"),
            (-600, "in 10m"),
            (40 * 86_400, "2026-10-13"),
        ];
        for (seconds, want) in cases {
            assert_eq!(relative_time(&at(seconds), &now), want, "{seconds}");
        }
    }

    #[test]
    fn long_columns_are_cut_to_fit_and_wide_keeps_them() {
        let mut rows = Rows::new(vec!["ID", "STATUS", "DETAIL"])
            .long(&["DETAIL"])
            .yes_no("STATUS");
        rows.push(vec!["1".into(), "yes".into(), "word ".repeat(30)]);
        rows.push(vec!["2".into(), "no".into(), "short".into()]);
        let fit = Fit {
            width: Some(40),
            wide: false,
            colour: false,
        };
        let table = rows.render_fitted(OutputMode::Table, fit);
        for line in table.lines() {
            assert!(line.chars().count() <= 40, "{table}");
        }
        assert!(table.contains("word w…"), "{table}");
        let wide = rows.render_fitted(OutputMode::Table, Fit { wide: true, ..fit });
        assert!(
            wide.contains(&"word ".repeat(30).trim_end().to_string()),
            "{wide}"
        );
        let coloured = rows.render_fitted(
            OutputMode::Table,
            Fit {
                colour: true,
                ..fit
            },
        );
        assert!(coloured.contains("\u{1b}[32myes\u{1b}[0m"), "{coloured:?}");
        assert!(coloured.contains("\u{1b}[31mno\u{1b}[0m"), "{coloured:?}");
        let stripped = coloured
            .replace("\u{1b}[32m", "")
            .replace("\u{1b}[31m", "")
            .replace("\u{1b}[0m", "");
        assert_eq!(stripped, table);
    }

    #[test]
    fn tables_have_a_header() {
        let mut rows = Rows::new(vec!["ID", "NAME"]);
        rows.push(vec!["1".into(), "one".into()]);
        let table = rows.render(OutputMode::Table);
        assert!(table.contains("ID") && table.contains("one"), "{table}");
    }

    #[test]
    fn columns_honours_columns_then_the_terminal() {
        assert_eq!(width_from(Some("60".into()), Some(200)), Some(60));
        assert_eq!(width_from(Some(" 120 ".into()), None), Some(120));
        assert_eq!(width_from(Some("wide".into()), Some(200)), Some(200));
        assert_eq!(width_from(Some("0".into()), None), None);
        assert_eq!(width_from(None, Some(80)), Some(80));
    }

    /// A narrow table leaves out its droppable columns, least important
    /// first, before it cuts a long one below a readable width; a wide
    /// enough one keeps them all; plain rows always have every column.
    #[test]
    fn narrow_tables_drop_columns_before_cutting_words() {
        let mut rows = Rows::new(vec!["ID", "WHEN", "WHO", "TEXT"])
            .long(&["TEXT"])
            .droppable(&["WHEN", "WHO"]);
        rows.push(vec![
            "1".into(),
            "2026-11-21 09:08:10 UTC".into(),
            "moderator".into(),
            "a reason long enough to be cut somewhere".into(),
        ]);
        let at = |width| {
            rows.render_fitted(
                OutputMode::Table,
                Fit {
                    width: Some(width),
                    wide: false,
                    colour: false,
                },
            )
        };
        let header = |table: &str| table.lines().nth(1).unwrap().to_owned();
        assert!(header(&at(120)).contains("WHEN") && header(&at(120)).contains("WHO"));
        // 60: all fit with the text at a readable width, cut.
        let sixty = at(60);
        assert!(header(&sixty).contains("WHEN"), "{sixty}");
        // 45: the text would go below it: WHEN goes first, the text keeps more.
        let narrower = at(45);
        assert!(
            !header(&narrower).contains("WHEN") && header(&narrower).contains("WHO"),
            "{narrower}"
        );
        assert!(narrower.contains("a reason long enough to"), "{narrower}");
        let narrow = at(30);
        assert!(!header(&narrow).contains("WHO"), "{narrow}");
        assert!(narrow.contains('…'), "{narrow}");
        assert_eq!(rows.render(OutputMode::Plain).split('\t').count(), 4);
        // Empty values are one way everywhere.
        let mut empty = Rows::new(vec!["A", "B"]);
        empty.push(vec!["x".into(), String::new()]);
        assert_eq!(empty.render(OutputMode::Plain), "x\t-\n");
        assert!(
            empty
                .render_fitted(
                    OutputMode::Table,
                    Fit {
                        width: None,
                        wide: false,
                        colour: false
                    }
                )
                .contains("│ x ┆ - │")
        );
    }
}
