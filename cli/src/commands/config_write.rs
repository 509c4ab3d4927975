//! The config writes that show what they will change before they change it:
//! `config import` and `config clone` (a diff, then a confirmation on a
//! terminal, `--yes` otherwise), `config set SERVER SECTION.FIELD VALUE`
//! (one field, read-modify-write guarded by `If-Match`), the warning after a
//! whole-section replace. `config rollback` builds on these in
//! [`super::config_rollback`].
//!
//! Every confirmed write carries the revision the user was shown as
//! `If-Match`: if someone changed the config in between, the daemon answers
//! 412 and nothing is written, rather than overwriting a change nobody saw.

use modctl_client::{Client, ErrorKind};
use modctl_types::config::{FieldChange, SectionChange, SectionName, diff_sections};
use modctl_types::query::{CloneOptions, ImportOptions};
use serde_json::Value;

use crate::commands::config::{render_changes, render_report, report_saved, report_warnings};
use crate::commands::{parse_json, print, read_input};
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, paint_stderr, render_json};
use crate::prompt::{self, interactive};
use crate::words;

/// Refuses a write that needs confirmation when nobody can give it.
pub(crate) fn require_terminal(what: &str) -> Result<(), CliError> {
    if interactive() {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "{what} changes the config: confirmation needed but there is no terminal"
    ))
    .hint(
        "pass --yes to write without asking (or --dry-run, where there is one, to see the changes)",
    ))
}

/// An SDK error of a write guarded by `If-Match`; a 412 says what happened
/// in the user's terms.
pub(crate) fn guarded(err: modctl_client::Error) -> CliError {
    let stale = err.kind() == ErrorKind::PreconditionFailed;
    let error = CliError::from(err);
    if stale {
        error.hint("the config changed after it was read; nothing was written. Run the command again to see the changes against the new config")
    } else {
        error
    }
}

/// Prints the changes the user is asked about (stderr: stdout keeps the
/// command's result).
fn show_changes(heading: &str, changes: &[SectionChange]) {
    eprint!("{heading}\n{}", render_changes(changes, OutputMode::Table));
}

/// `config import`: the dry run's report as the diff, confirmed, then the
/// import at the revision the dry run saw.
pub async fn import(
    client: &Client,
    mode: OutputMode,
    server: &str,
    file: &str,
    options: ImportOptions,
    yes: bool,
) -> Result<u8, CliError> {
    let origin = if file == "-" { "stdin" } else { file };
    let envelope = parse_json(&read_input(file)?, origin)?;
    let mut expected = None;
    if !options.dry_run && !yes {
        let preview_options = ImportOptions {
            dry_run: true,
            ..options
        };
        let preview = client
            .import_config_with(server, &envelope, &preview_options)
            .await?;
        report_warnings(&preview);
        if preview.changed.is_empty() {
            print(&render_report(&preview, mode));
            return Ok(exit::OK);
        }
        require_terminal("`config import`")?;
        show_changes(
            &format!(
                "Importing into {server} changes {}:",
                count(&preview.changed)
            ),
            &preview.changed,
        );
        if !prompt::confirm("Import these changes?", false)? {
            return Ok(prompt::cancelled());
        }
        expected = Some(preview.revision);
    }
    let report = client
        .import_config_at(server, &envelope, &options, expected)
        .await
        .map_err(guarded)?;
    print(&render_report(&report, mode));
    if expected.is_none() {
        report_warnings(&report);
    }
    Ok(exit::OK)
}

/// `config clone`: the difference between the two configs (what the copy
/// writes), confirmed, then the clone at the target's revision.
pub async fn clone(
    client: &Client,
    mode: OutputMode,
    server: &str,
    from: &str,
    options: CloneOptions,
    yes: bool,
) -> Result<u8, CliError> {
    let mut expected = None;
    if !yes {
        let (target, source) =
            tokio::try_join!(client.export_config(server), client.export_config(from))
                .map_err(api_error(words::CLONE))?;
        // The webhook secret stays the target's own: not part of the copy.
        let changes: Vec<SectionChange> = diff_sections(&target.sections, &source.sections)
            .into_iter()
            .filter_map(|mut section| {
                section
                    .changes
                    .retain(|c| !c.path.starts_with("webhooks.secret"));
                (!section.changes.is_empty()).then_some(section)
            })
            .collect();
        if changes.is_empty() {
            if mode != OutputMode::Json {
                eprintln!("The configs of {from} and {server} are the same; nothing to copy.");
            }
            return Ok(exit::OK);
        }
        require_terminal("`config clone`")?;
        let mut heading = format!("Copying {from} into {server} changes {}:", count(&changes));
        if options.drop_foreign_ids {
            heading +=
                "\n(ids of another platform are cleared as well; each is listed after the copy)";
        }
        show_changes(&heading, &changes);
        if !prompt::confirm("Copy this config?", false)? {
            return Ok(prompt::cancelled());
        }
        expected = Some(target.revision);
    }
    let report = client
        .clone_config_at(server, from, &options, expected)
        .await
        .map_err(|e| guarded(e).in_words_of(words::CLONE))?;
    print(&render_report(&report, mode));
    report_warnings(&report);
    Ok(exit::OK)
}

pub(crate) fn count(changes: &[SectionChange]) -> String {
    let fields: usize = changes.iter().map(|s| s.changes.len()).sum();
    format!("{fields} field(s) in {} section(s)", changes.len())
}

/// One step of a field path: `.key` or `[index]`.
#[derive(Debug, PartialEq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// `moderation.require_reason` or `strikes.ladder[0].minutes` -> the
/// section and the steps inside it.
pub(crate) fn parse_path(path: &str) -> Result<(SectionName, Vec<Step>), CliError> {
    let bad = |why: &str| {
        CliError::usage(format!("invalid field path `{path}`: {why}"))
            .hint("paths look like moderation.require_reason or strikes.ladder[0].minutes (see `modctl config show SERVER`)")
    };
    let (section, rest) = path
        .split_once('.')
        .ok_or_else(|| bad("it names no field"))?;
    let section: SectionName = section.parse().map_err(|e: String| bad(&e))?;
    let mut steps = Vec::new();
    for part in rest.split('.') {
        let (key, mut indexes) = match part.split_once('[') {
            Some((key, tail)) => (key, Some(format!("[{tail}"))),
            None => (part, None),
        };
        if key.is_empty() {
            return Err(bad("an empty field name"));
        }
        steps.push(Step::Key(key.to_owned()));
        while let Some(tail) = indexes.take() {
            let (index, after) = tail[1..]
                .split_once(']')
                .ok_or_else(|| bad("a `[` without `]`"))?;
            let index = index.parse().map_err(|_| bad("an index is not a number"))?;
            steps.push(Step::Index(index));
            if !after.is_empty() {
                if !after.starts_with('[') {
                    return Err(bad("text after `]`"));
                }
                indexes = Some(after.to_owned());
            }
        }
    }
    Ok((section, steps))
}

/// Sets the value at `steps` in `root`; the last key may be new (the daemon
/// refuses unknown fields, naming them), everything before it must exist.
pub(crate) fn set_at(
    root: &mut Value,
    steps: &[Step],
    value: Value,
    path: &str,
) -> Result<Value, CliError> {
    let missing = || {
        CliError::usage(format!("`{path}`: no such field in the config"))
            .hint("`modctl config show SERVER SECTION` lists the fields")
    };
    let (last, parents) = steps.split_last().ok_or_else(missing)?;
    let mut node = root;
    for step in parents {
        node = match step {
            Step::Key(key) => node.get_mut(key.as_str()),
            Step::Index(i) => node.get_mut(*i),
        }
        .ok_or_else(missing)?;
    }
    match (last, node) {
        (Step::Key(key), Value::Object(map)) => {
            Ok(map.insert(key.clone(), value).unwrap_or(Value::Null))
        }
        (Step::Index(i), Value::Array(items)) if *i < items.len() => {
            Ok(std::mem::replace(&mut items[*i], value))
        }
        _ => Err(missing()),
    }
}

/// The value as typed: JSON when it parses (`true`, `30`, `null`,
/// `["a"]`), else the text itself as a string.
fn parse_value(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// `config set SERVER SECTION.FIELD VALUE`.
pub async fn set_field(
    client: &Client,
    mode: OutputMode,
    server: &str,
    path: &str,
    value: &str,
) -> Result<u8, CliError> {
    let (section, steps) = parse_path(path)?;
    let config = client.config(server).await?;
    let mut body = config.sections.section_json(section);
    let after = parse_value(value);
    let before = set_at(&mut body, &steps, after.clone(), path)?;
    if before == after {
        eprintln!("{path} is already {after}; nothing changed");
        return Ok(exit::OK);
    }
    let updated = client
        .replace_section_json(server, section, &body, Some(config.revision))
        .await
        .map_err(guarded)?;
    let change = FieldChange {
        path: path.to_owned(),
        before,
        after,
    };
    print(&render_field_set(&change, updated.revision, mode));
    Ok(exit::OK)
}

/// The result of a single-field set.
pub fn render_field_set(change: &FieldChange, revision: u64, mode: OutputMode) -> String {
    match mode {
        OutputMode::Json => render_json(&serde_json::json!({
            "path": change.path,
            "before": change.before,
            "after": change.after,
            "revision": revision,
        })),
        OutputMode::Plain => format!(
            "{}\t{}\t{}\t{revision}\n",
            change.path, change.before, change.after
        ),
        OutputMode::Table => format!(
            "Set {}: {} -> {}; the config is now at revision {revision}.\n",
            change.path, change.before, change.after
        ),
    }
}

/// `config set SERVER SECTION --file F`: the write, then a warning that
/// names the fields the file left out and that the replace reset.
pub async fn set_section(
    client: &Client,
    mode: OutputMode,
    server: &str,
    section: SectionName,
    file: &str,
    if_revision: Option<u64>,
) -> Result<u8, CliError> {
    let body = parse_json(&read_input(file)?, if file == "-" { "stdin" } else { file })?;
    let before = client.config(server).await?;
    let config = client
        .replace_section_json(server, section, &body, if_revision)
        .await
        .map_err(guarded)?;
    report_saved(section, config.revision);
    if let Some(warning) = reset_warning(
        server,
        section,
        &body,
        &before.sections.section_json(section),
        &config.sections.section_json(section),
    ) {
        eprint!("{warning}");
    }
    if mode == OutputMode::Json {
        print(&render_json(&config.sections.section_json(section)));
    }
    Ok(exit::OK)
}

/// The fields of `section` that `body` left out and whose value the replace
/// changed (back to the default), or `None` when there are none.
pub fn reset_warning(
    server: &str,
    section: SectionName,
    body: &Value,
    before: &Value,
    after: &Value,
) -> Option<String> {
    let (Some(before), Some(after)) = (before.as_object(), after.as_object()) else {
        return None;
    };
    let reset: Vec<String> = before
        .iter()
        .filter(|(key, _)| body.get(key.as_str()).is_none() && key.as_str() != "secret_set")
        .filter_map(|(key, old)| {
            let new = after.get(key).unwrap_or(&Value::Null);
            (old != new).then(|| format!("  {section}.{key}: {old} -> {new}\n"))
        })
        .collect();
    if reset.is_empty() {
        return None;
    }
    Some(format!(
        "{} the file left out {} field(s) of {section}, which the replace reset to their defaults:\n{}{} to change one field, use `modctl config set {server} {section}.FIELD VALUE`\n",
        paint_stderr("warning:", console::Style::new().yellow()),
        reset.len(),
        reset.concat(),
        paint_stderr("hint:", console::Style::new().yellow()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_parse_into_keys_and_indexes() {
        let (section, steps) = parse_path("strikes.ladder[1].minutes").unwrap();
        assert_eq!(section, SectionName::Strikes);
        assert_eq!(
            steps,
            [
                Step::Key("ladder".into()),
                Step::Index(1),
                Step::Key("minutes".into())
            ]
        );
        for bad in [
            "strikes",
            "nope.x",
            "strikes.",
            "strikes.ladder[x]",
            "strikes.ladder[0",
        ] {
            assert!(parse_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_json_when_they_parse_else_strings() {
        assert_eq!(parse_value("true"), json!(true));
        assert_eq!(parse_value("30"), json!(30));
        assert_eq!(parse_value("null"), json!(null));
        assert_eq!(parse_value("[\"a\"]"), json!(["a"]));
        assert_eq!(parse_value("#mod-log"), json!("#mod-log"));
    }

    #[test]
    fn set_at_replaces_existing_values_and_refuses_missing_parents() {
        let mut value = json!({"ladder": [{"at": 3}], "expiry_days": 30});
        let (_, steps) = parse_path("strikes.ladder[0].at").unwrap();
        assert_eq!(set_at(&mut value, &steps, json!(5), "p").unwrap(), json!(3));
        assert_eq!(value["ladder"][0]["at"], json!(5));
        let (_, steps) = parse_path("strikes.ladder[4].at").unwrap();
        assert!(set_at(&mut value, &steps, json!(5), "p").is_err());
    }

    #[test]
    fn the_reset_warning_lists_left_out_fields_that_changed() {
        let before =
            json!({"require_reason": true, "default_timeout_minutes": 30, "dm_on_action": false});
        let after =
            json!({"require_reason": false, "default_timeout_minutes": 60, "dm_on_action": false});
        let body = json!({"default_timeout_minutes": 60});
        insta::assert_snapshot!(
            "reset_warning",
            reset_warning(
                "100000000000000001",
                SectionName::Moderation,
                &body,
                &before,
                &after
            )
            .unwrap()
        );
        assert_eq!(
            reset_warning("1", SectionName::Moderation, &after, &before, &after),
            None
        );
    }
}
