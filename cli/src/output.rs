//! Output modes and colour.
//!
//! - **table**: a comfy-table table, the default when stdout is a terminal;
//! - **plain**: tab-separated rows without a header or colour, the default when
//!   stdout is piped (stable for `cut`, `awk`, `while read`);
//! - **json**: pretty JSON of the data as the API returns it (`--json`).
//!
//! Colour is only used on terminals, and never when `NO_COLOR` is set.

use std::io::IsTerminal;

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
}

impl Rows {
    /// Rows under `header`.
    pub fn new(header: Vec<&'static str>) -> Self {
        Rows {
            header,
            rows: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// A table (`Table`) or tab-separated lines without header (`Plain`).
    pub fn render(&self, mode: OutputMode) -> String {
        match mode {
            OutputMode::Plain => self
                .rows
                .iter()
                .map(|row| {
                    let cells: Vec<String> = row.iter().map(|c| plain_cell(c)).collect();
                    cells.join("\t") + "\n"
                })
                .collect(),
            OutputMode::Table | OutputMode::Json => {
                let mut table = new_table();
                table.set_header(self.header.clone());
                for row in &self.rows {
                    table.add_row(row.clone());
                }
                format!("{table}\n")
            }
        }
    }
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
                table.add_row(vec![key.replace('_', " "), value.clone()]);
            }
            format!("{table}\n")
        }
    }
}

/// Pretty JSON with a trailing newline.
pub fn render_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("wire types always serialize") + "\n"
}

fn new_table() -> Table {
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED);
    if let Some((_, width)) = console::Term::stdout().size_checked() {
        table.set_content_arrangement(ContentArrangement::Dynamic);
        table.set_width(width);
    }
    table
}

/// Tabs and newlines inside a value would break the row structure.
fn plain_cell(value: &str) -> String {
    value.replace(['\t', '\n', '\r'], " ")
}

/// A timestamp for people: `2026-11-21 09:08:10 UTC`.
pub fn human_time(t: &modctl_types::Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_rows_have_no_header_and_no_tabs_inside_cells() {
        let mut rows = Rows::new(vec!["A", "B"]);
        rows.push(vec!["x\ty".into(), "z".into()]);
        assert_eq!(rows.render(OutputMode::Plain), "x y\tz\n");
    }

    #[test]
    fn tables_have_a_header() {
        let mut rows = Rows::new(vec!["ID", "NAME"]);
        rows.push(vec!["1".into(), "one".into()]);
        let table = rows.render(OutputMode::Table);
        assert!(table.contains("ID") && table.contains("one"), "{table}");
    }
}
