//! `modctl config show|set|edit|export|import|clone|rollback|audit|diff`;
//! the writes that confirm first are in [`super::config_write`].

use clap::{Args, Subcommand};
use modctl_client::{Client, ErrorKind};
use modctl_types::config::{
    AuditEntry, FieldChange, ImportReport, SectionChange, SectionName, diff_sections,
};
use modctl_types::query::{CloneOptions, ImportOptions};
use serde_json::Value;

use crate::commands::{config_rollback, config_write, print};
use crate::context::Context;
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, Rows, human_time, paint_stderr, render_json, render_pairs};
use crate::prompt::interactive;
use crate::words;

/// `modctl config ...`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Show the whole config, or one section (plain: `path<TAB>value` lines)
    Show {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Only this section
        #[arg(value_parser = parse_section)]
        section: Option<SectionName>,
    },
    /// Set one field (`SECTION.FIELD VALUE`), several (`A=1 B=x`, one
    /// revision), or replace a whole section with the JSON in a file
    /// (`SECTION --file FILE`)
    #[command(after_help = "Examples:\n  \
modctl config set SERVER moderation.require_reason true\n  \
modctl config set SERVER jail.role_id 900000000000000006\n  \
modctl config set SERVER general.modlog_channel_id -1001234567890\n  \
modctl config set SERVER strikes.ladder[0].minutes 60\n  \
modctl config set SERVER general.modlog_channel_id null\n  \
modctl config set SERVER jail.enabled=true jail.role_id=900000000000000006\n  \
modctl config set SERVER automod.blocked_words.words 'scam*,free nitro'\n  \
modctl config set SERVER strikes --file strikes.json\n\n\
A VALUE is read as the field's type: an id as typed, true/false, a number, text,\n\
a list as a,b,c (or JSON), null to clear.\n\
Several PATH=VALUE fields are written together, as one revision.\n\
Fields are written with If-Match on the revision they were read at: a concurrent change is refused, not overwritten.\n\
A whole-section replace resets the fields the file leaves out to their defaults, and lists them.")]
    Set {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// A field path (moderation.require_reason), PATH=VALUE, or a section with --file
        #[arg(value_name = "SECTION[.FIELD]|PATH=VALUE")]
        target: String,
        /// The field's new value, or more PATH=VALUE fields
        // Negative numbers (Telegram chat ids) are values; other words
        // starting with `-` stay flags, so `--table` after them still works.
        #[arg(
            value_name = "VALUE|PATH=VALUE",
            allow_negative_numbers = true,
            conflicts_with = "file"
        )]
        values: Vec<String>,
        /// JSON file with the new section, or `-` for stdin
        #[arg(long, short = 'f', value_name = "FILE")]
        file: Option<String>,
        /// With --file: refuse unless the config is still at this revision
        #[arg(long, value_name = "REVISION", requires = "file")]
        if_revision: Option<u64>,
    },
    /// Edit a section in $EDITOR; reopens with the error when the daemon refuses it
    Edit {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The section
        #[arg(value_parser = parse_section)]
        section: SectionName,
    },
    /// Print the export envelope (JSON) or write it to a file
    Export {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// Write to this file instead of stdout
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<String>,
    },
    /// Import an export envelope from a file or stdin; all sections or nothing
    /// (shows the changes and asks first; --yes without a terminal)
    Import(ImportArgs),
    /// Copy the config of another server of your team into this one (shows
    /// the changes and asks first; --yes without a terminal)
    Clone {
        /// The server to change
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The server to copy from
        #[arg(long, allow_hyphen_values = true, value_name = "SERVER")]
        from: String,
        /// Clear channel and role ids that are not this server's platform's
        /// (listed as warnings) instead of refusing the copy
        #[arg(long)]
        drop_foreign_ids: bool,
        /// Show what the copy would change without changing anything
        #[arg(long)]
        dry_run: bool,
        /// Do not ask for confirmation
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Put the settings of an earlier revision back (rebuilt from the audit
    /// trail), as a diff to confirm; written as one change at the current revision
    Rollback {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// The revision whose settings to restore (see `modctl config audit`)
        #[arg(long, value_name = "N")]
        to_revision: u64,
        /// Do not ask for confirmation
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Recent config changes, newest first (plain columns: id, time, actor, section, source, revision, changes)
    Audit {
        /// The server id
        #[arg(allow_hyphen_values = true)]
        server: String,
        /// How many entries (1 to 500)
        #[arg(long, default_value_t = 20)]
        limit: u32,
    },
    /// Compare the configs of two servers; exits 0 when equal, 1 when different
    Diff {
        /// First server
        #[arg(allow_hyphen_values = true)]
        a: String,
        /// Second server
        #[arg(allow_hyphen_values = true)]
        b: String,
    },
}

/// `modctl config import`
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The server to import into
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// The envelope: a file, or `-` for stdin (the default)
    #[arg(default_value = "-")]
    pub file: String,
    /// Show what would change without changing anything
    #[arg(long)]
    pub dry_run: bool,
    /// Clear channel and role ids that are not this server's platform's
    /// (listed as warnings) instead of refusing the import
    #[arg(long)]
    pub drop_foreign_ids: bool,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
}

fn parse_section(s: &str) -> Result<SectionName, String> {
    s.parse()
}

/// Runs a `config` command; `diff` returns 1 when the configs differ.
pub async fn run(context: &Context, command: ConfigCommand) -> Result<u8, CliError> {
    let client = context.client()?;
    let mode = context.output;
    match command {
        ConfigCommand::Show { server, section } => {
            let text = match section {
                Some(section) => render_section(
                    &client.config_section(&server, section).await?,
                    section,
                    mode,
                ),
                None => {
                    let config = client.config(&server).await?;
                    let value = serde_json::to_value(&config).expect("wire types serialize");
                    render_config(&value, mode)
                }
            };
            print(&text);
        }
        ConfigCommand::Set {
            server,
            target,
            values,
            file,
            if_revision,
        } => {
            let Some(file) = file else {
                let fields = config_write::assignments(&target, &values)?;
                return config_write::set_fields(&client, mode, &server, &fields).await;
            };
            let section = parse_section(&target).map_err(|e| {
                CliError::usage(e).hint(format!(
                    "to set one field: `modctl config set {server} SECTION.FIELD VALUE`"
                ))
            })?;
            return config_write::set_section(&client, mode, &server, section, &file, if_revision)
                .await;
        }
        ConfigCommand::Edit { server, section } => edit(&client, &server, section).await?,
        ConfigCommand::Export { server, output } => {
            let envelope = client.export_config_json(&server).await?;
            let text = render_json(&envelope);
            match output {
                Some(path) => {
                    std::fs::write(&path, text)
                        .map_err(|e| CliError::failure(format!("cannot write {path}: {e}")))?;
                    eprintln!("exported the config of {server} to {path}");
                }
                None => print(&text),
            }
        }
        ConfigCommand::Import(args) => {
            let options = ImportOptions {
                dry_run: args.dry_run,
                drop_foreign_ids: args.drop_foreign_ids,
                ..ImportOptions::default()
            };
            return config_write::import(
                &client,
                mode,
                &args.server,
                &args.file,
                options,
                args.yes,
            )
            .await;
        }
        ConfigCommand::Clone {
            server,
            from,
            drop_foreign_ids,
            dry_run,
            yes,
        } => {
            let options = CloneOptions {
                drop_foreign_ids,
                dry_run,
            };
            return config_write::clone(&client, mode, &server, &from, options, yes).await;
        }
        ConfigCommand::Rollback {
            server,
            to_revision,
            yes,
        } => return config_rollback::rollback(context, &client, &server, to_revision, yes).await,
        ConfigCommand::Audit { server, limit } => {
            let entries = client
                .config_audit(&server, Some(limit), None)
                .await
                .map_err(api_error(words::AUDIT))?;
            print(&render_audit(&entries, mode));
        }
        ConfigCommand::Diff { a, b } => {
            let (left, right) =
                tokio::try_join!(client.export_config(&a), client.export_config(&b))?;
            let changes = diff_sections(&left.sections, &right.sections);
            print(&render_diff(&changes, &a, &b, mode));
            return Ok(if changes.is_empty() {
                exit::OK
            } else {
                exit::FAILURE
            });
        }
    }
    Ok(exit::OK)
}

/// Opens the section in `$EDITOR` until the daemon accepts it or the user
/// gives up (saves an empty file or does not save).
async fn edit(client: &Client, server: &str, section: SectionName) -> Result<(), CliError> {
    if !interactive() {
        return Err(
            CliError::usage("`config edit` needs a terminal").hint(format!(
                "use `modctl config set {server} {section} --file FILE` in scripts"
            )),
        );
    }
    let config = client.config(server).await?;
    let original = render_json(&config.sections.section_json(section));
    let mut text = original.clone();
    let mut problem: Option<String> = None;
    loop {
        let shown = match &problem {
            Some(problem) => format!(
                "// error: {problem}\n// Fix the JSON below and save; lines starting with // are ignored. Save an empty file to give up.\n{text}"
            ),
            None => text.clone(),
        };
        let edited = dialoguer::Editor::new()
            .extension(".json")
            .edit(&shown)
            .map_err(|e| CliError::failure(format!("cannot run the editor: {e}")))?;
        let Some(edited) = edited else {
            eprintln!("not saved; nothing changed");
            return Ok(());
        };
        text = strip_comment_lines(&edited);
        if text.trim().is_empty() {
            eprintln!("empty file; nothing changed");
            return Ok(());
        }
        if problem.is_none() && text.trim() == original.trim() {
            eprintln!("no changes");
            return Ok(());
        }
        // In the CLI's words, as `config set --file` says them.
        let body = match crate::commands::parse_json(&text, "the section")
            .and_then(|body| config_write::check_section(section, &body).map(|()| body))
        {
            Ok(body) => body,
            Err(e) => {
                problem = Some(e.message().to_owned());
                continue;
            }
        };
        match client
            .replace_section_json(server, section, &body, Some(config.revision))
            .await
        {
            Ok(updated) => {
                report_saved(section, updated.revision);
                return Ok(());
            }
            Err(e) if e.kind() == ErrorKind::InvalidRequest => {
                problem = Some(e.message().to_owned())
            }
            Err(e) => return Err(e.into()),
        }
    }
}

fn strip_comment_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn report_saved(section: SectionName, revision: u64) {
    eprintln!(
        "{} saved section {section}; the config is now at revision {revision}",
        paint_stderr("✓", console::Style::new().green())
    );
}

pub(crate) fn report_warnings(report: &ImportReport) {
    for warning in &report.warnings {
        eprintln!(
            "{} {warning}",
            paint_stderr("warning:", console::Style::new().yellow())
        );
    }
}

/// A section as `path`/`value` pairs (table and plain) or JSON.
pub fn render_section(value: &Value, section: SectionName, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(value);
    }
    let mut pairs = Vec::new();
    flatten(section.as_str(), value, &mut pairs);
    render_flat(&pairs, mode)
}

/// The whole config (`ServerConfig` as JSON): revision first, then every field.
pub fn render_config(value: &Value, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(value);
    }
    let mut pairs = vec![
        ("revision".to_owned(), scalar(&value["revision"])),
        ("updated_at".to_owned(), scalar(&value["updated_at"])),
    ];
    for section in SectionName::ALL {
        flatten(
            section.as_str(),
            &value["sections"][section.as_str()],
            &mut pairs,
        );
    }
    render_flat(&pairs, mode)
}

fn render_flat(pairs: &[(String, String)], mode: OutputMode) -> String {
    let pairs: Vec<(&str, String)> = pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    match mode {
        // Paths keep their underscores in tables too: they are what `set` takes.
        OutputMode::Table => {
            let mut rows = Rows::new(vec!["FIELD", "VALUE"]).long(&["VALUE"]);
            for (key, value) in pairs {
                rows.push(vec![key.to_owned(), value]);
            }
            rows.render(mode)
        }
        _ => render_pairs(&pairs, mode),
    }
}

/// `a.b[0].c`-style paths to scalar values; lists of scalars stay on one line.
pub fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, item) in map {
                flatten(&format!("{prefix}.{key}"), item, out);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            for (i, item) in items.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), item, out);
            }
        }
        Value::Array(items) => out.push((
            prefix.to_owned(),
            items.iter().map(scalar).collect::<Vec<_>>().join(","),
        )),
        other => out.push((prefix.to_owned(), scalar(other))),
    }
}

/// Strings bare, everything else as JSON (`null`, `true`, `3`, `{}`).
fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An import or clone report: changes per section, or JSON.
pub fn render_report(report: &ImportReport, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(report);
    }
    let mut out = String::new();
    if mode == OutputMode::Table {
        out += &match (report.dry_run, report.changed.is_empty()) {
            (_, true) => "No changes.\n".to_owned(),
            (true, false) => format!(
                "Would change {} section(s) (dry run, nothing written):\n",
                report.changed.len()
            ),
            (false, false) => format!(
                "Changed {} section(s); the config is now at revision {}:\n",
                report.changed.len(),
                report.revision
            ),
        };
    }
    out += &render_changes(&report.changed, mode);
    out
}

/// Field changes: `path: before -> after` lines on a terminal (coloured),
/// `path<TAB>before<TAB>after` when piped.
pub(crate) fn render_changes(sections: &[SectionChange], mode: OutputMode) -> String {
    let mut out = String::new();
    for section in sections {
        for change in &section.changes {
            out += &render_change(change, mode);
        }
    }
    out
}

fn render_change(change: &FieldChange, mode: OutputMode) -> String {
    let (before, after) = (change.before.to_string(), change.after.to_string());
    match mode {
        OutputMode::Plain => format!("{}\t{before}\t{after}\n", change.path),
        _ => format!(
            "  {}: {} -> {}\n",
            change.path,
            console::style(before).red(),
            console::style(after).green()
        ),
    }
}

/// The audit trail.
pub fn render_audit(entries: &[AuditEntry], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(entries);
    }
    let mut rows = Rows::new(vec![
        "ID", "WHEN", "ACTOR", "SECTION", "SOURCE", "REV", "CHANGES",
    ])
    .long(&["CHANGES"])
    .droppable(&["ID", "SOURCE", "ACTOR", "REV"]);
    for entry in entries {
        let changes: Vec<String> = entry
            .changes
            .iter()
            .map(|c| {
                format!(
                    "{}: {} -> {}",
                    c.path
                        .strip_prefix(&format!("{}.", entry.section))
                        .unwrap_or(&c.path),
                    c.before,
                    c.after
                )
            })
            .collect();
        rows.push(vec![
            entry.id.to_string(),
            match mode {
                OutputMode::Plain => entry.at.to_string(),
                _ => human_time(&entry.at),
            },
            entry.actor.clone(),
            entry.section.to_string(),
            entry.source.to_string(),
            entry.revision.to_string(),
            changes.join(if mode == OutputMode::Plain {
                "; "
            } else {
                "\n"
            }),
        ]);
    }
    rows.render(mode)
}

/// The difference between two servers' configs.
pub fn render_diff(changes: &[SectionChange], a: &str, b: &str, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(changes);
    }
    if mode == OutputMode::Table {
        if changes.is_empty() {
            return format!("The configs of {a} and {b} are the same.\n");
        }
        let count: usize = changes.iter().map(|s| s.changes.len()).sum();
        return format!(
            "{count} field(s) differ ({a} -> {b}):\n{}",
            render_changes(changes, mode)
        );
    }
    render_changes(changes, mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sections_flatten_to_paths() {
        let value = json!({"ladder": [{"at": 3, "action": "kick"}], "expiry_days": 30, "words": ["a", "b"], "none": null});
        let mut pairs = Vec::new();
        flatten("strikes", &value, &mut pairs);
        let rendered: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            rendered,
            [
                "strikes.ladder[0].at=3",
                "strikes.ladder[0].action=kick",
                "strikes.expiry_days=30",
                "strikes.words=a,b",
                "strikes.none=null"
            ]
        );
    }

    #[test]
    fn comment_lines_are_dropped_before_parsing() {
        assert_eq!(
            strip_comment_lines("// error: x\n{\"a\": 1}\n  // more"),
            "{\"a\": 1}"
        );
    }

    fn audit() -> Vec<AuditEntry> {
        serde_json::from_value(json!([
            {"id": 7, "at": "2026-11-21T09:08:10Z", "actor": "key:lhqsjyhvu1q7", "section": "jail",
             "source": "api", "revision": 4, "changes": [
                {"path": "jail.enabled", "before": false, "after": true},
                {"path": "jail.role_id", "before": null, "after": "900000000000000006"}]},
            {"id": 6, "at": "2026-11-21T09:00:00Z", "actor": "key:lhqsjyhvu1q7", "section": "strikes",
             "source": "import", "revision": 3, "changes": [
                {"path": "strikes.expiry_days", "before": 30, "after": 14}]},
        ]))
        .unwrap()
    }

    /// The audit trail and a section at 60 and 120 columns.
    #[test]
    fn audit_and_show_at_60_and_120_columns() {
        insta::assert_snapshot!(
            "audit_at_widths",
            crate::output::at_widths(|| render_audit(&audit(), OutputMode::Table))
        );
        let mut sections = modctl_types::config::Sections::default();
        sections.automod.blocked_words.words = vec![
            "scam*".into(),
            "free nitro".into(),
            "discord-gift".into(),
            "steamcommunity.ru".into(),
        ];
        let automod = sections.section_json(SectionName::Automod);
        insta::assert_snapshot!(
            "show_automod_at_widths",
            crate::output::at_widths(|| render_section(
                &automod,
                SectionName::Automod,
                OutputMode::Table
            ))
        );
    }

    /// `config set` of several fields: one line each, one revision.
    #[test]
    fn several_fields_set_in_every_mode() {
        let changes = [
            FieldChange {
                path: "jail.enabled".into(),
                before: json!(false),
                after: json!(true),
            },
            FieldChange {
                path: "jail.role_id".into(),
                before: json!(null),
                after: json!("900000000000000006"),
            },
        ];
        let render = |mode| config_write::render_fields_set(&changes, 5, mode);
        insta::assert_snapshot!(
            "set_fields",
            format!(
                "{}{}{}",
                render(OutputMode::Table),
                render(OutputMode::Plain),
                render(OutputMode::Json)
            )
        );
    }
}
