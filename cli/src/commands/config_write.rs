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
use modctl_types::config::{FieldChange, SectionChange, SectionName, Sections, diff_sections};
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

/// An import or clone the daemon refused: when the field it names is a
/// channel or role id and `--drop-foreign-ids` was not given, the hint says
/// what that flag does (chosen by the error's kind and field, not its words).
fn refused(err: modctl_client::Error, dropping: bool) -> CliError {
    let invalid = err.kind() == ErrorKind::InvalidRequest;
    let id_field = err.field().is_some_and(|field| {
        let field = field.split('[').next().unwrap_or(field);
        field.ends_with("_id") || field.ends_with("_ids") || field.starts_with("logging.")
    });
    let error = guarded(err);
    if invalid && id_field && !dropping {
        error.hint(
            "ids of another server's platform cannot move: `--drop-foreign-ids` keeps this server's own id where it has one, else clears it, and lists each",
        )
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
    if let Some(sections) = envelope.get("sections").and_then(Value::as_object) {
        for (name, body) in sections {
            if let Ok(section) = name.parse::<SectionName>() {
                check_section(section, body)?;
            }
        }
    }
    let mut expected = None;
    if !options.dry_run && !yes {
        let preview_options = ImportOptions {
            dry_run: true,
            ..options
        };
        let preview = client
            .import_config_with(server, &envelope, &preview_options)
            .await
            .map_err(|e| refused(e, options.drop_foreign_ids))?;
        report_warnings(&preview);
        if preview.changed.is_empty() {
            print(&render_report(&preview, mode));
            no_changes(server, mode);
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
        .map_err(|e| refused(e, options.drop_foreign_ids))?;
    print(&render_report(&report, mode));
    if expected.is_none() {
        report_warnings(&report);
    }
    if report.changed.is_empty() {
        no_changes(server, mode);
    }
    Ok(exit::OK)
}

/// Says that an import changed nothing when stdout does not (piped rows
/// list changes only; a table says "No changes." itself).
fn no_changes(server: &str, mode: OutputMode) {
    if mode == OutputMode::Plain {
        eprintln!("no changes: the config of {server} already has these settings");
    }
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
    // A dry run changes nothing, so nothing is confirmed: the daemon's
    // report of what the copy would change is the answer.
    if !yes && !options.dry_run {
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
        .map_err(|e| refused(e, options.drop_foreign_ids).in_words_of(words::CLONE))?;
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

/// The values a typed `config set` value is tried as, in order: JSON when it
/// parses (`true`, `30`, `null`, `["a"]`), then the text itself, then a
/// comma-separated list. The first the field's type takes wins, so the field
/// decides, not JSON syntax: `900000000000000006` for `jail.role_id` (an id,
/// a string on the wire) is the id, not a number, and `-1001234567890` a
/// Telegram chat id.
fn candidates(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    if let Ok(json) = serde_json::from_str::<Value>(text) {
        out.push(json);
    }
    out.push(Value::String(text.to_owned()));
    if !text.trim_start().starts_with('[') {
        let items = text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| Value::String(item.to_owned()));
        out.push(Value::Array(items.collect()));
    }
    out
}

/// Whether the section `body` with `value` at `steps` is of the section's
/// type (its values may still be out of range: that is validation's
/// business); else serde's reason, for [`field_kind`] only.
fn fits(section: SectionName, body: &Value, steps: &[Step], value: Value) -> Result<(), String> {
    let mut body = body.clone();
    set_at(&mut body, steps, value, "").map_err(|e| e.message().to_owned())?;
    Sections::default()
        .replace_from_json(section, body)
        .map_err(|e| e.message)
}

/// Whether `text` is a placeholder of a printed example (`CHANNEL_ID`,
/// `<ROLE_ID>`) rather than a value.
pub fn is_placeholder(text: &str) -> bool {
    let inner = text.trim_start_matches('<').trim_end_matches('>');
    inner.len() > 2
        && inner.contains('_')
        && inner.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// A value typed for a field (`SECTION.FIELD`): the first of [`candidates`]
/// the field's type takes, or an error that says what the field takes.
pub(crate) fn typed_value(
    section: SectionName,
    body: &Value,
    steps: &[Step],
    path: &str,
    text: &str,
) -> Result<Value, CliError> {
    if is_placeholder(text) {
        return Err(CliError::usage(format!(
            "`{text}` is a placeholder: put the real value for {path} in its place"
        ))
        .hint("`modctl snapshot show SERVER --content` lists the server's roles and channels with their ids"));
    }
    // The field must exist (a new key of a map, e.g. a template, may be new).
    set_at(&mut body.clone(), steps, Value::Null, path)?;
    let mut unknown = false;
    for candidate in candidates(text) {
        match fits(section, body, steps, candidate.clone()) {
            Ok(()) => return Ok(candidate),
            Err(message) => unknown |= message.starts_with("unknown field"),
        }
    }
    if unknown {
        return Err(
            CliError::usage(format!("`{path}`: no such field in the config")).hint(format!(
                "`modctl config show SERVER {section}` lists the fields"
            )),
        );
    }
    Err(CliError::usage(format!(
        "{path} takes {}, got `{text}`",
        field_kind(section, body, steps)
    ))
    .hint(format!(
        "`modctl config show SERVER {section}` shows the section's values"
    )))
}

/// What a field takes, in words, found by trying one value of each kind:
/// the wire types are the schema, and the CLI asks them.
fn field_kind(section: SectionName, body: &Value, steps: &[Step]) -> String {
    let takes = |value: Value| fits(section, body, steps, value);
    let mut kinds = Vec::new();
    if takes(Value::Bool(true)).is_ok() {
        kinds.push("true or false".to_owned());
    }
    if takes(serde_json::json!(1)).is_ok() {
        // The largest whole number the field holds, and the range its
        // validation allows within it ("must be between 1 and 40320").
        let max = [255_u64, 65_535, u64::from(u32::MAX)]
            .into_iter()
            .find(|max| takes(serde_json::json!(max + 1)).is_err())
            .unwrap_or(u64::MAX);
        let allowed = [0, max].into_iter().find_map(|probe| {
            let mut probed = body.clone();
            set_at(&mut probed, steps, serde_json::json!(probe), "").ok()?;
            let mut sections = Sections::default();
            sections.replace_from_json(section, probed).ok()?;
            sections
                .validate_section(section, modctl_types::Platform::Discord)
                .into_iter()
                .find_map(|e| {
                    let (low, high) = e
                        .message
                        .strip_prefix("must be between ")?
                        .split_once(" and ")?;
                    Some(format!("from {low} to {high}"))
                })
        });
        kinds.push(format!(
            "a whole number {}",
            allowed.unwrap_or_else(|| format!("from 0 to {max}"))
        ));
    }
    match takes(Value::String("x".into())) {
        Ok(()) => kinds.push("text".to_owned()),
        // An enumeration names its values: "expected one of `a`, `b`".
        Err(message) => {
            if let Some((_, values)) = message.split_once("expected one of ") {
                kinds.push(format!("one of {}", values.replace('`', "")));
            }
        }
    }
    if takes(Value::Array(Vec::new())).is_ok() {
        kinds.push("a list (a,b,c)".to_owned());
    }
    if takes(Value::Null).is_ok() {
        kinds.push("null".to_owned());
    }
    if kinds.is_empty() {
        return "several fields (replace it with `--file`, or set its fields one by one)"
            .to_owned();
    }
    kinds.join(", or ")
}

/// Checks a whole section's JSON (a `--file`, a section of an import)
/// against its type before it is sent, so that a value of the wrong kind
/// is named with what its field takes, in the CLI's words, not serde's.
pub fn check_section(section: SectionName, body: &Value) -> Result<(), CliError> {
    let Err(error) = Sections::default().replace_from_json(section, body.clone()) else {
        return Ok(());
    };
    let path = error.path.as_str();
    let wrong = |message: String| {
        Err(CliError::usage(message).hint(format!(
            "`modctl config show SERVER {section}` shows the section as it is now"
        )))
    };
    let message = error.message.as_str();
    if message.starts_with("unknown field `") {
        return wrong(format!("{path}: no such field in the config"));
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or_default();
        return wrong(format!("{path}.{field} is missing"));
    }
    let Ok((_, steps)) = parse_path(path) else {
        // The section itself: not an object.
        return wrong(format!("{section} must be a JSON object of its fields"));
    };
    let mut got = body.clone();
    for step in &steps {
        got = match step {
            Step::Key(key) => got.get(key.as_str()),
            Step::Index(i) => got.get(*i),
        }
        .cloned()
        .unwrap_or(Value::Null);
    }
    // Probed in the default section where the field is there (the file's
    // other values may be wrong too), else in the file.
    let default = Sections::default().section_json(section);
    let probe = if set_at(&mut default.clone(), &steps, Value::Null, path).is_ok() {
        &default
    } else {
        body
    };
    wrong(format!(
        "{path} takes {}, got {got}",
        field_kind(section, probe, &steps)
    ))
}

/// One `PATH=VALUE` (or `PATH VALUE`) of `config set`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// `SECTION.FIELD`.
    pub path: String,
    /// The value as typed.
    pub text: String,
}

/// The fields `config set` was given: `PATH VALUE` (one), or `PATH=VALUE`
/// assignments (any number, all written in one revision).
pub fn assignments(target: &str, rest: &[String]) -> Result<Vec<Assignment>, CliError> {
    // A path never holds `=`; a value may (`webhooks.url https://x/?a=b`).
    let is_assignment = |arg: &str| {
        arg.split_once('=')
            .is_some_and(|(path, _)| path.contains('.') && !path.contains(['/', ':', ' ']))
    };
    if !is_assignment(target) {
        return match rest {
            [text] => Ok(vec![Assignment {
                path: target.to_owned(),
                text: text.clone(),
            }]),
            [] => Err(
                CliError::usage(format!("no value for {target}")).hint(format!(
                    "`modctl config set SERVER {target} VALUE`, or {target}=VALUE"
                )),
            ),
            [_, extra, ..] => Err(CliError::usage(format!(
                "`{extra}`: one field takes one value; to set several, write each as PATH=VALUE"
            ))
            .hint("quote a value with spaces: modctl config set SERVER welcome.message \"Hi {user}!\"")),
        };
    }
    std::iter::once(target)
        .chain(rest.iter().map(String::as_str))
        .map(|arg| match arg.split_once('=') {
            Some((path, text)) if is_assignment(arg) => Ok(Assignment {
                path: path.to_owned(),
                text: text.to_owned(),
            }),
            _ => Err(CliError::usage(format!(
                "`{arg}`: with several fields, each is PATH=VALUE"
            ))),
        })
        .collect()
}

/// `config set SERVER SECTION.FIELD VALUE` or `config set SERVER A=1 B=x`:
/// every field typed as its field's type wants, checked, and written in one
/// request at the revision read (`PUT` of the one section, or an import of
/// the whole config when several sections change): one revision.
pub async fn set_fields(
    client: &Client,
    mode: OutputMode,
    server: &str,
    fields: &[Assignment],
) -> Result<u8, CliError> {
    let config = client.config(server).await?;
    let planned = plan_set(&config.sections, config.platform, fields)?;
    if planned.changes.is_empty() {
        for field in fields {
            eprintln!("{} is already {}; nothing changed", field.path, field.text);
        }
        return Ok(exit::OK);
    }
    let revision = if let [section] = planned.sections.as_slice() {
        client
            .replace_section_json(
                server,
                *section,
                &planned.body.section_json(*section),
                Some(config.revision),
            )
            .await
            .map_err(guarded)?
            .revision
    } else {
        let mut envelope = client.export_config_json(server).await?;
        envelope["sections"] = serde_json::to_value(&planned.body).expect("wire types serialize");
        client
            .import_config_at(
                server,
                &envelope,
                &ImportOptions::default(),
                Some(config.revision),
            )
            .await
            .map_err(guarded)?
            .revision
    };
    print(&render_fields_set(&planned.changes, revision, mode));
    Ok(exit::OK)
}

/// What a `config set` writes.
#[derive(Debug)]
pub struct PlannedSet {
    /// The whole config with the fields set.
    pub body: Sections,
    /// The sections that change.
    pub sections: Vec<SectionName>,
    /// One change per field that changes.
    pub changes: Vec<FieldChange>,
}

/// Applies `fields` to `current`, each typed for its field, and checks the
/// result for `platform` as the daemon will: problems with the fields set
/// are reported here, in the CLI's words, before any request.
pub fn plan_set(
    current: &Sections,
    platform: modctl_types::Platform,
    fields: &[Assignment],
) -> Result<PlannedSet, CliError> {
    let mut bodies: Vec<(SectionName, Value)> = Vec::new();
    let mut changes = Vec::new();
    for field in fields {
        let (section, steps) = parse_path(&field.path)?;
        let at = match bodies.iter().position(|(name, _)| *name == section) {
            Some(at) => at,
            None => {
                bodies.push((section, current.section_json(section)));
                bodies.len() - 1
            }
        };
        let body = &mut bodies[at].1;
        let after = typed_value(section, body, &steps, &field.path, &field.text)?;
        let before = set_at(body, &steps, after.clone(), &field.path)?;
        if before != after {
            changes.push(FieldChange {
                path: field.path.clone(),
                before,
                after,
            });
        }
    }
    let mut next = current.clone();
    for (section, body) in &bodies {
        next.replace_from_json(*section, body.clone())
            .map_err(|e| CliError::usage(e.to_string()))?;
    }
    let set = |path: &str| {
        fields.iter().any(|f| {
            path == f.path
                || path.starts_with(&format!("{}[", f.path))
                || path.starts_with(&format!("{}.", f.path))
        })
    };
    let problems: Vec<String> = bodies
        .iter()
        .flat_map(|(section, _)| next.validate_section(*section, platform))
        .filter(|problem| set(&problem.path))
        .map(|problem| problem.to_string())
        .collect();
    if !problems.is_empty() {
        return Err(CliError::usage(problems.join("\n")));
    }
    let sections = bodies
        .iter()
        .map(|(section, _)| *section)
        .filter(|section| {
            changes
                .iter()
                .any(|c| c.path.starts_with(&format!("{section}.")))
        })
        .collect();
    Ok(PlannedSet {
        body: next,
        sections,
        changes,
    })
}

/// The result of `config set`: one line per field set (JSON: the one
/// change, or `{"changes": [...], "revision": N}` for several).
pub fn render_fields_set(changes: &[FieldChange], revision: u64, mode: OutputMode) -> String {
    match (mode, changes) {
        (OutputMode::Json, [change]) => render_field_set(change, revision, mode),
        (OutputMode::Json, _) => render_json(&serde_json::json!({
            "changes": changes,
            "revision": revision,
        })),
        (OutputMode::Table, [_, _, ..]) => {
            let set: String = changes
                .iter()
                .map(|c| format!("Set {}: {} -> {}\n", c.path, c.before, c.after))
                .collect();
            format!("{set}The config is now at revision {revision} (one change).\n")
        }
        _ => changes
            .iter()
            .map(|change| render_field_set(change, revision, mode))
            .collect(),
    }
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
    check_section(section, &body)?;
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

    /// The field's type decides what a typed value is, not JSON syntax.
    #[test]
    fn values_take_the_type_of_their_field() {
        let mut current = Sections::default();
        current.jail.role_id = Some("900000000000000001".into());
        for (path, text, want) in [
            (
                "jail.role_id",
                "900000000000000006",
                json!("900000000000000006"),
            ),
            (
                "general.modlog_channel_id",
                "-1001234567890",
                json!("-1001234567890"),
            ),
            ("general.modlog_channel_id", "null", json!(null)),
            ("moderation.require_reason", "true", json!(true)),
            ("moderation.default_timeout_minutes", "30", json!(30)),
            ("general.locale", "123", json!("123")),
            ("strikes.ladder[0].minutes", "60", json!(60)),
            ("welcome.verification", "captcha", json!("captcha")),
            (
                "welcome.message",
                "Hi {user}, see #rules",
                json!("Hi {user}, see #rules"),
            ),
            (
                "automod.blocked_words.words",
                "scam*,free nitro",
                json!(["scam*", "free nitro"]),
            ),
            ("automod.blocked_words.words", "[\"a\"]", json!(["a"])),
            ("jail.default_minutes", "null", json!(null)),
            (
                "moderation.templates.warn",
                "You were warned: {reason}",
                json!("You were warned: {reason}"),
            ),
        ] {
            let (section, steps) = parse_path(path).unwrap();
            let body = current.section_json(section);
            assert_eq!(
                typed_value(section, &body, &steps, path, text).unwrap(),
                want,
                "{path} {text}"
            );
        }
    }

    /// A value the field cannot take is refused with what it takes, in
    /// the CLI's words: no serde wording, no Rust type.
    #[test]
    fn a_value_of_the_wrong_kind_says_what_the_field_takes() {
        let current = Sections::default();
        for (path, text, want) in [
            (
                "moderation.default_timeout_minutes",
                "abc",
                "moderation.default_timeout_minutes takes a whole number from 1 to 40320, got `abc`",
            ),
            (
                "moderation.default_ban_delete_days",
                "-1",
                "moderation.default_ban_delete_days takes a whole number from 0 to 7, got `-1`",
            ),
            (
                "moderation.require_reason",
                "maybe",
                "moderation.require_reason takes true or false, got `maybe`",
            ),
            (
                "welcome.verification",
                "sms",
                "welcome.verification takes one of none, button, captcha, got `sms`",
            ),
            (
                "jail.default_minutes",
                "soon",
                "jail.default_minutes takes a whole number from 1 to 525600, or null, got `soon`",
            ),
            (
                "jail.role_id",
                "ROLE_ID",
                "`ROLE_ID` is a placeholder: put the real value for jail.role_id in its place",
            ),
        ] {
            let (section, steps) = parse_path(path).unwrap();
            let body = current.section_json(section);
            let err = typed_value(section, &body, &steps, path, text).unwrap_err();
            assert_eq!(err.message(), want);
            assert_eq!(err.code(), exit::USAGE);
        }
    }

    #[test]
    fn several_fields_are_one_plan_checked_for_the_platform() {
        let fields = assignments(
            "jail.enabled=true",
            &[
                "jail.role_id=900000000000000006".into(),
                "strikes.expiry_days=7".into(),
            ],
        )
        .unwrap();
        let plan = plan_set(
            &Sections::default(),
            modctl_types::Platform::Discord,
            &fields,
        )
        .unwrap();
        assert_eq!(plan.sections, [SectionName::Jail, SectionName::Strikes]);
        assert_eq!(
            plan.body.jail.role_id.as_deref(),
            Some("900000000000000006")
        );
        assert_eq!(plan.body.strikes.expiry_days, 7);
        assert_eq!(plan.changes.len(), 3);
        // Out of range: the validation's words, naming the field.
        let fields = assignments("strikes.expiry_days=9999", &[]).unwrap();
        let err = plan_set(
            &Sections::default(),
            modctl_types::Platform::Discord,
            &fields,
        )
        .unwrap_err();
        assert_eq!(
            err.message(),
            "strikes.expiry_days: must be between 0 and 3650"
        );
        // A Discord id on Telegram.
        let fields =
            assignments("general.modlog_channel_id", &["900000000000000006".into()]).unwrap();
        let err = plan_set(
            &Sections::default(),
            modctl_types::Platform::Telegram,
            &fields,
        )
        .unwrap_err();
        assert!(
            err.message().starts_with(
                "general.modlog_channel_id: `900000000000000006` is a discord channel id"
            ),
            "{}",
            err.message()
        );
        // `PATH VALUE` and `PATH=VALUE` forms; a value may hold `=`.
        assert_eq!(
            assignments("webhooks.url", &["https://x.example/?a=b".into()]).unwrap(),
            [Assignment {
                path: "webhooks.url".into(),
                text: "https://x.example/?a=b".into()
            }]
        );
        assert!(assignments("a.b", &[]).is_err());
        assert!(assignments("a.b=1", &["c".into()]).is_err());
        assert!(assignments("a.b", &["1".into(), "2".into()]).is_err());
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
