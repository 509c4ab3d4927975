//! `modctld serve --config FILE` and `modctld check-config FILE` (issue
//! #28): `serve`'s options in a TOML file.
//!
//! The file's keys are `serve`'s own long options (`listen`,
//! `max-connections`, `trusted-proxy`...), read off the clap definition:
//! an option added to `serve` is a key of the file with no change here (and
//! `packaging/modctld.toml` must list it: a test says so).
//!
//! Precedence is flag > environment variable > file > built-in default. The
//! file's values join the command line as if typed right after `serve`,
//! but only for options neither a flag nor an environment variable gives:
//! clap then applies its own rules to them (`--backup-every` needs
//! `--backup-dir`, which the file may give). Making them clap default
//! values instead would not do: clap's `requires` counts only values given
//! by flag or environment, so `MODCTLD_BACKUP_EVERY` with the file's
//! `backup-dir` would be refused.
//!
//! Each value is checked first, on its own, by the option's own value
//! parser (a clap parse of that one option), so a bad value is reported in
//! the file's words (`FILE: key `max-connections`: ...`), every problem at
//! once, before anything starts.
//!
//! Secrets never go in the file: it is meant to be readable (packaged,
//! copied, kept in a repository). An option whose name says it carries one
//! (`...-token`, `...-secret`, `...-password`), a URL with a password, and
//! the database key are refused with where to put them instead.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Command};

use crate::store::secrets::KEY_ENV;

/// The option that names the file; not a key of it.
const CONFIG: &str = "config";

/// Why a command line with `--config` is not run.
#[derive(Debug)]
pub(super) enum Refusal {
    /// The file's problems, each a line `FILE: ...`.
    File(Vec<String>),
    /// What clap says of the whole command line (the file's values within).
    Clap(clap::Error),
}

/// A parsed command line, and which of `serve`'s options the file gave.
#[derive(Debug)]
pub(super) struct Parsed {
    pub(super) matches: ArgMatches,
    /// Ids of the options whose value is the file's.
    pub(super) from_file: BTreeSet<String>,
}

/// Parses `args` (the binary's name first) with `cli`, the values of
/// `serve --config FILE` (or `$MODCTLD_CONFIG`) in it.
pub(super) fn parse(cli: Command, args: Vec<OsString>) -> Result<Parsed, Refusal> {
    let plain = |cli: Command, args: Vec<OsString>| {
        cli.try_get_matches_from(args)
            .map(|matches| Parsed {
                matches,
                from_file: BTreeSet::new(),
            })
            .map_err(Refusal::Clap)
    };
    if args.get(1).map(OsString::as_os_str) != Some(OsStr::new("serve")) {
        return plain(cli, args);
    }
    // A first, forgiving parse: where the file is, and which options a flag
    // or the environment gives (those the file does not). Its errors, if
    // any, are the real parse's to report.
    let Ok(first) = cli.clone().ignore_errors(true).try_get_matches_from(&args) else {
        return plain(cli, args);
    };
    let Some(serve) = first.subcommand_matches("serve") else {
        return plain(cli, args);
    };
    let Some(path) = serve.get_one::<PathBuf>(CONFIG).cloned() else {
        return plain(cli, args);
    };
    let mut built = cli.clone();
    built.build();
    let serve_command = built
        .find_subcommand("serve")
        .expect("serve is a subcommand");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Refusal::File(vec![format!("{}: cannot read it: {e}", path.display())]))?;
    let settings = read(serve_command, &path, &text).map_err(Refusal::File)?;
    let given = |id: &str| {
        matches!(
            serve.value_source(id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
    };
    let (injected, from_file) = arguments(&settings, given);
    let mut args = args;
    args.splice(2..2, injected);
    // The file's values come first; should the forgiving parse have missed
    // a flag (it stops at a bad one), the flag still wins, and clap reports
    // what is wrong with it rather than a repeated option.
    cli.mut_subcommand("serve", |serve| serve.args_override_self(true))
        .try_get_matches_from(args)
        .map(|matches| Parsed { matches, from_file })
        .map_err(Refusal::Clap)
}

/// `n` problems, for the last line of a refusal.
pub(super) fn count(n: usize) -> String {
    match n {
        1 => "1 problem in the config file".to_owned(),
        n => format!("{n} problems in the config file"),
    }
}

/// `modctld check-config FILE`: the summary of `serve --config FILE` (with
/// this environment), or every problem, each a line `FILE: ...`.
pub(super) fn check(cli: Command, file: &Path) -> Result<Vec<Row>, Vec<String>> {
    let args = vec![
        OsString::from("modctld"),
        "serve".into(),
        "--config".into(),
        file.as_os_str().to_owned(),
    ];
    match parse(cli.clone(), args) {
        Ok(parsed) => Ok(summary(&cli, &parsed)),
        Err(Refusal::File(problems)) => Err(problems),
        // The file's values were each checked: a bad value now is the
        // environment's.
        Err(Refusal::Clap(e)) if e.kind() == ErrorKind::MissingRequiredArgument => {
            Err(vec![format!("{}: {}", file.display(), between(&e))])
        }
        Err(Refusal::Clap(e)) => Err(vec![format!("the environment: {}", flattened(&e))]),
    }
}

/// What an option's value is, in the file's types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A flag: `true` or `false`.
    Switch,
    /// A repeatable option: a list of strings.
    List,
    /// A whole number.
    Number,
    /// A path: relative ones are from the file's directory.
    Path,
    /// Anything else: a string.
    Text,
}

impl Kind {
    fn of(arg: &clap::Arg) -> Kind {
        use std::any::TypeId;
        match arg.get_action() {
            ArgAction::SetTrue => return Kind::Switch,
            ArgAction::Append => return Kind::List,
            _ => {}
        }
        let id = arg.get_value_parser().type_id();
        let numbers = [
            TypeId::of::<usize>(),
            TypeId::of::<u64>(),
            TypeId::of::<u32>(),
            TypeId::of::<u16>(),
            TypeId::of::<u8>(),
            TypeId::of::<i64>(),
        ];
        if numbers.iter().any(|n| id == *n) {
            Kind::Number
        } else if id == TypeId::of::<PathBuf>() {
            Kind::Path
        } else {
            Kind::Text
        }
    }

    /// How to write `key`'s value, with `example` as the value.
    fn how(self, key: &str, example: &str) -> String {
        match self {
            Kind::Switch => format!("it is on or off: write {key} = true (or false)"),
            Kind::List => format!("it is a list: write {key} = [\"{example}\"]"),
            Kind::Number => format!("it is a whole number: write {key} = {example} (no quotes)"),
            Kind::Path | Kind::Text => {
                format!("it is text: write {key} = \"{example}\" (in quotes)")
            }
        }
    }
}

/// A TOML value's type, in the user's words.
fn found(value: &toml::Value) -> &'static str {
    match value {
        toml::Value::String(_) => "text",
        toml::Value::Integer(_) => "a whole number",
        toml::Value::Float(_) => "a decimal number",
        toml::Value::Boolean(_) => "true/false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
}

/// One option the file sets.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Setting {
    /// The option's clap id (`trusted_proxies`).
    id: String,
    /// Its long name, the file's key (`trusted-proxy`).
    long: String,
    kind: Kind,
    /// Its values as typed on the command line.
    values: Vec<String>,
}

/// The options of `serve` that are keys of the file: every long option but
/// `--config`, `--help` and `--version`.
fn keys(serve: &Command) -> impl Iterator<Item = (&clap::Arg, &str)> {
    serve.get_arguments().filter_map(|arg| {
        let long = arg.get_long()?;
        let value_or_flag = matches!(
            arg.get_action(),
            ArgAction::Set | ArgAction::Append | ArgAction::SetTrue
        );
        (value_or_flag && long != CONFIG).then_some((arg, long))
    })
}

/// Whether an option's name says it carries a secret.
fn carries_secret(long: &str) -> bool {
    long.split(['-', '_'])
        .any(|word| matches!(word, "secret" | "token" | "password" | "passphrase"))
}

/// Where a secret goes instead of the file.
fn secret_elsewhere(key: &str, env: Option<&OsStr>) -> String {
    let env = env.map_or_else(
        || "its environment variable".to_owned(),
        |env| env.to_string_lossy().into_owned(),
    );
    format!(
        "key `{key}` carries a secret, which never goes in the config file (it is meant to be \
         readable): set {env} instead, from a file only modctld reads (systemd's \
         EnvironmentFile=, mode 0600) or your orchestrator's secret store"
    )
}

/// `key` as an option's name could be meant: lower case, `-` for `_`,
/// without a `MODCTLD_` prefix (an environment variable's name).
fn normalized(key: &str) -> String {
    let key = key.to_lowercase().replace('_', "-");
    key.strip_prefix("modctld-").unwrap_or(&key).to_owned()
}

/// The key `key` is most likely a typo of, if one is close.
fn suggestion<'a>(serve: &'a Command, key: &str) -> Option<&'a str> {
    let wanted = normalized(key);
    let mut best: Option<(usize, &str)> = None;
    for (arg, long) in keys(serve) {
        // The environment variable's name, as written in the file.
        let env = arg.get_env().map(|env| normalized(&env.to_string_lossy()));
        if wanted == long || env.as_deref() == Some(wanted.as_str()) {
            return Some(long);
        }
        let distance = strsim::levenshtein(&wanted, long);
        if distance <= (long.len() / 3).max(2) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, long));
        }
    }
    best.map(|(_, long)| long)
}

/// An unknown key's problem.
fn unknown(serve: &Command, key: &str) -> String {
    let wanted = normalized(key);
    if wanted == "secret-key" || wanted == "key" {
        return format!(
            "key `{key}`: the database key never goes in the config file (it is meant to be \
             readable): set {KEY_ENV}, or keep the key file beside the database \
             (<database>.key, created on first use)"
        );
    }
    if wanted == CONFIG {
        return format!("key `{key}`: a config file cannot name another one");
    }
    match suggestion(serve, key) {
        Some(long) => format!("unknown key `{key}`: did you mean `{long}`?"),
        None => {
            let all: Vec<&str> = keys(serve).map(|(_, long)| long).collect();
            format!(
                "unknown key `{key}`: the keys are `modctld serve`'s options: {}",
                all.join(", ")
            )
        }
    }
}

/// The settings of the config file at `path` (its content `text`) for the
/// built `serve` command, or every problem found, each a line `PATH: ...`.
fn read(serve: &Command, path: &Path, text: &str) -> Result<Vec<Setting>, Vec<String>> {
    let at = path.display();
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let place = e.span().map_or_else(String::new, |span| {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(" at line {line}, column {column}")
        });
        vec![format!(
            "{at}: not TOML{place}: {}",
            e.message().trim_end().replace('\n', "; ")
        )]
    })?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut settings = Vec::new();
    let mut problems = Vec::new();
    for (key, value) in &table {
        match setting(serve, dir, key, value) {
            Ok(setting) => settings.push(setting),
            Err(problem) => problems.push(format!("{at}: {problem}")),
        }
    }
    if problems.is_empty() {
        Ok(settings)
    } else {
        Err(problems)
    }
}

/// The setting of `key = value`, checked, or its problem.
fn setting(serve: &Command, dir: &Path, key: &str, value: &toml::Value) -> Result<Setting, String> {
    let Some((arg, long)) = keys(serve).find(|(_, long)| *long == key) else {
        if value.is_table() {
            return Err(format!(
                "[{key}]: the file has no tables: write the options at its top, before any [table]"
            ));
        }
        return Err(unknown(serve, key));
    };
    if carries_secret(long) {
        return Err(secret_elsewhere(key, arg.get_env()));
    }
    let kind = Kind::of(arg);
    let example = arg
        .get_default_values()
        .first()
        .map(|v| v.to_string_lossy().into_owned())
        .or_else(|| arg.get_value_names()?.first().map(ToString::to_string))
        .unwrap_or_else(|| "...".to_owned());
    let wrong = |found: &str| {
        format!(
            "key `{key}`: found {found}, but {}",
            kind.how(key, &example)
        )
    };
    let values = match (kind, value) {
        (Kind::Switch, toml::Value::Boolean(on)) => vec![on.to_string()],
        (Kind::Number, toml::Value::Integer(n)) => vec![n.to_string()],
        (Kind::Text | Kind::Path, toml::Value::String(s)) => vec![s.clone()],
        (Kind::List, toml::Value::Array(items)) => {
            let mut values = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match item {
                    toml::Value::String(s) => values.push(s.clone()),
                    other => {
                        return Err(format!(
                            "key `{key}`: item {} is {}, but each is text: write {key} = [\"{example}\"]",
                            i + 1,
                            found(other)
                        ));
                    }
                }
            }
            values
        }
        (_, other) => return Err(wrong(found(other))),
    };
    let values: Vec<String> = match kind {
        Kind::Path => values
            .into_iter()
            .map(|v| dir.join(v).display().to_string())
            .collect(),
        _ => values,
    };
    for v in &values {
        if has_password(v) {
            return Err(secret_elsewhere(key, arg.get_env()));
        }
        checked(serve, arg, v).map_err(|e| format!("key `{key}`: {e}"))?;
    }
    Ok(Setting {
        id: arg.get_id().to_string(),
        long: long.to_owned(),
        kind,
        values,
    })
}

/// Whether `value` is a URL with a password in it.
fn has_password(value: &str) -> bool {
    url::Url::parse(value).is_ok_and(|url| url.password().is_some())
}

/// `value` checked by `arg`'s own value parser: a parse of `serve` with
/// that option alone (no environment, no rule between options), so that
/// only the value can be at fault.
fn checked(serve: &Command, arg: &clap::Arg, value: &str) -> Result<(), String> {
    let id = arg.get_id().clone();
    let alone = serve.clone().no_binary_name(true).mut_args(|a| {
        a.env(None::<&str>)
            .requires(clap::builder::Resettable::Reset)
    });
    let long = arg.get_long().unwrap_or_default();
    let typed = match Kind::of(arg) {
        Kind::Switch => format!("--{long}"),
        _ => format!("--{long}={value}"),
    };
    match alone.try_get_matches_from([typed]) {
        Ok(_) => Ok(()),
        Err(e) => Err(said(&e, value, id.as_str())),
    }
}

/// What clap's error `e` says is wrong with `value`, in one sentence.
fn said(e: &clap::Error, value: &str, id: &str) -> String {
    match e.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e).map_or_else(String::new, ToString::to_string);
            if why.contains(value) {
                why
            } else {
                format!("`{value}` is not valid: {why}")
            }
        }
        ErrorKind::InvalidValue => match e.get(ContextKind::ValidValue) {
            Some(ContextValue::Strings(valid)) => {
                format!("`{value}` is not one of: {}", valid.join(", "))
            }
            _ => format!("`{value}` is not valid"),
        },
        _ => format!("`{value}` is not a value of {id}: {}", flattened(e)),
    }
}

/// What clap says of the options together, in the file's words where it
/// can: an option another one needs is named as its key.
fn between(e: &clap::Error) -> String {
    if e.kind() == ErrorKind::MissingRequiredArgument
        && let Some(ContextValue::Strings(missing)) = e.get(ContextKind::InvalidArg)
    {
        let keys: Vec<String> = missing
            .iter()
            .filter_map(|m| m.strip_prefix("--")?.split_whitespace().next())
            .map(|key| format!("`{key}`"))
            .collect();
        return format!(
            "set {} too: an option set here or in the environment needs it",
            keys.join(", ")
        );
    }
    flattened(e)
}

/// A clap error on one line, without its `error:` and usage.
fn flattened(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let text = text.split("\n\nUsage:").next().unwrap_or(text);
    let text = text
        .split("\n\nFor more information")
        .next()
        .unwrap_or(text);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The arguments that set `settings` but those `given` otherwise (by a
/// flag or the environment), and the ids of the ones set.
fn arguments(
    settings: &[Setting],
    given: impl Fn(&str) -> bool,
) -> (Vec<OsString>, BTreeSet<String>) {
    let mut args = Vec::new();
    let mut set = BTreeSet::new();
    for setting in settings.iter().filter(|s| !given(&s.id)) {
        match setting.kind {
            Kind::Switch => {
                if setting.values.iter().any(|v| v == "true") {
                    args.push(format!("--{}", setting.long).into());
                }
            }
            _ => args.extend(
                setting
                    .values
                    .iter()
                    .map(|v| OsString::from(format!("--{}={v}", setting.long))),
            ),
        }
        set.insert(setting.id.clone());
    }
    (args, set)
}

/// One row of `check-config`'s summary: an option, its value, where the
/// value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) key: String,
    /// `-` when unset.
    pub(super) value: String,
    /// `file`, `flag`, `$NAME` (the environment) or `default`.
    pub(super) source: String,
}

/// Every option of `serve` in `parsed` (the whole command line's), with its
/// value (passwords in URLs masked) and where it comes from.
pub(super) fn summary(cli: &Command, parsed: &Parsed) -> Vec<Row> {
    let mut built = cli.clone();
    built.build();
    let serve_command = built
        .find_subcommand("serve")
        .expect("serve is a subcommand");
    let Some(serve) = parsed.matches.subcommand_matches("serve") else {
        return Vec::new();
    };
    keys(serve_command)
        .map(|(arg, long)| {
            let id = arg.get_id().as_str();
            let value = serve.get_raw(id).map_or_else(
                || "-".to_owned(),
                |raw| {
                    raw.map(|v| masked(&v.to_string_lossy()))
                        .collect::<Vec<_>>()
                        .join(",")
                },
            );
            let source = match serve.value_source(id) {
                Some(ValueSource::CommandLine) if parsed.from_file.contains(id) => "file".into(),
                Some(ValueSource::CommandLine) => "flag".into(),
                Some(ValueSource::EnvVariable) => arg.get_env().map_or_else(
                    || "environment".into(),
                    |e| format!("${}", e.to_string_lossy()),
                ),
                _ => "default".into(),
            };
            Row {
                key: long.to_owned(),
                value,
                source,
            }
        })
        .collect()
}

/// `value` with the password of a URL in it replaced by `***`.
fn masked(value: &str) -> String {
    match url::Url::parse(value) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn cli() -> Command {
        super::super::Cli::command()
    }

    fn serve_command() -> Command {
        let mut cli = cli();
        cli.build();
        cli.find_subcommand("serve").unwrap().clone()
    }

    fn read_text(text: &str) -> Result<Vec<Setting>, Vec<String>> {
        read(
            &serve_command(),
            Path::new("/etc/modctld/modctld.toml"),
            text,
        )
    }

    /// Parses `modctld serve ARGS` with the file `text`; the rows of the
    /// summary by key.
    fn effective(cli: Command, text: &str, args: &[&str]) -> Vec<(String, String, String)> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("modctld.toml");
        std::fs::write(&file, text).unwrap();
        let mut argv: Vec<OsString> = vec!["modctld".into(), "serve".into()];
        argv.extend(args.iter().map(OsString::from));
        argv.push("--config".into());
        argv.push(file.into_os_string());
        let parsed = match parse(cli.clone(), argv) {
            Ok(parsed) => parsed,
            Err(Refusal::File(problems)) => panic!("{problems:?}"),
            Err(Refusal::Clap(e)) => panic!("{e}"),
        };
        summary(&cli, &parsed)
            .into_iter()
            .map(|r| (r.key, r.value, r.source))
            .collect()
    }

    fn row(rows: &[(String, String, String)], key: &str) -> (String, String) {
        let (_, value, source) = rows.iter().find(|r| r.0 == key).unwrap();
        (value.clone(), source.clone())
    }

    #[test]
    fn good_files_give_the_options_their_values() {
        let settings = read_text(
            "listen = \"0.0.0.0:7070\"\nmax-connections = 512\n\
             trusted-proxy = [\"10.0.0.0/8\", \"192.168.1.1\"]\nno-rate-limits = true\n\
             backup-dir = \"backups\"\nlog-format = \"json\"\n",
        )
        .unwrap();
        let by_key = |key: &str| {
            settings
                .iter()
                .find(|s| s.long == key)
                .map(|s| s.values.clone())
                .unwrap()
        };
        assert_eq!(by_key("listen"), ["0.0.0.0:7070"]);
        assert_eq!(by_key("max-connections"), ["512"]);
        assert_eq!(by_key("trusted-proxy"), ["10.0.0.0/8", "192.168.1.1"]);
        assert_eq!(by_key("no-rate-limits"), ["true"]);
        // Relative paths are from the file's directory.
        assert_eq!(by_key("backup-dir"), ["/etc/modctld/backups"]);
        assert_eq!(by_key("log-format"), ["json"]);
        assert!(read_text("").unwrap().is_empty());
    }

    #[test]
    fn every_problem_is_reported_on_its_own_line_in_the_file_s_words() {
        let f = "/etc/modctld/modctld.toml";
        let cases: &[(&str, &[&str])] = &[
            // Unknown keys, with the key meant when one is close.
            (
                "listn = \"x\"",
                &["unknown key `listn`: did you mean `listen`?"],
            ),
            (
                "max_connections = 5",
                &["unknown key `max_connections`: did you mean `max-connections`?"],
            ),
            (
                "MODCTLD_TRUSTED_PROXIES = []",
                &["unknown key `MODCTLD_TRUSTED_PROXIES`: did you mean `trusted-proxy`?"],
            ),
            (
                "colour = true",
                &["unknown key `colour`: the keys are `modctld serve`'s options: "],
            ),
            // Wrong TOML types, said as the user wrote them.
            (
                "max-connections = \"512\"",
                &[
                    "key `max-connections`: found text, but it is a whole number: write max-connections = ",
                ],
            ),
            (
                "listen = 7070",
                &[
                    "key `listen`: found a whole number, but it is text: write listen = \"127.0.0.1:7878\" (in quotes)",
                ],
            ),
            (
                "no-rate-limits = \"yes\"",
                &[
                    "key `no-rate-limits`: found text, but it is on or off: write no-rate-limits = true (or false)",
                ],
            ),
            (
                "trusted-proxy = \"10.0.0.0/8\"",
                &[
                    "key `trusted-proxy`: found text, but it is a list: write trusted-proxy = [\"ADDRESS|RANGE\"]",
                ],
            ),
            (
                "trusted-proxy = [\"10.0.0.1\", 8]",
                &["key `trusted-proxy`: item 2 is a whole number, but each is text"],
            ),
            // Bad values, in the words of the option's own parser.
            (
                "max-connections = 0",
                &["key `max-connections`: `0` is out of range: give 1 or more"],
            ),
            (
                "batch-budget-mib = 4",
                &["key `batch-budget-mib`: 4 is not in 8..=4095"],
            ),
            (
                "backup-every = \"6x\"",
                &["key `backup-every`: `6x` has no unit: give it as minutes, hours or days"],
            ),
            (
                "log-format = \"xml\"",
                &["key `log-format`: `xml` is not one of: text, json"],
            ),
            (
                "listen = \"localhost\"",
                &["key `listen`: `localhost` is not valid: invalid socket address syntax"],
            ),
            // Secrets are refused, with where they go.
            (
                "secret-key = \"abc\"",
                &[
                    "key `secret-key`: the database key never goes in the config file",
                    "set MODCTLD_SECRET_KEY",
                ],
            ),
            (
                "webhooks-proxy = \"http://user:pw@proxy:3128\"",
                &[
                    "key `webhooks-proxy` carries a secret",
                    "set MODCTLD_WEBHOOKS_PROXY instead",
                ],
            ),
            // Not TOML at all: where.
            ("listen =", &["not TOML at line 1, column 9: "]),
            (
                "[serve]\nlisten = \"127.0.0.1:1\"",
                &["[serve]: the file has no tables: write the options at its top"],
            ),
        ];
        for (text, wanted) in cases {
            let problems = read_text(text).unwrap_err();
            assert_eq!(problems.len(), 1, "{text}: {problems:?}");
            assert!(
                problems[0].starts_with(&format!("{f}: ")),
                "{text}: {problems:?}"
            );
            for part in *wanted {
                assert!(
                    problems[0].contains(part),
                    "{text}: {problems:?} lacks {part}"
                );
            }
            assert!(!problems[0].contains('\n'), "{problems:?}");
        }
        // All at once.
        let problems =
            read_text("listn = \"x\"\nmax-connections = 0\nlog-format = 1\nbackup-keep = 5\n")
                .unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    #[test]
    fn secret_carrying_options_are_known_by_their_names() {
        for secret in ["metrics-token", "signing-secret", "proxy-password"] {
            assert!(carries_secret(secret), "{secret}");
        }
        for plain in ["listen", "backup-keep", "trusted-proxy", "key-file"] {
            assert!(!carries_secret(plain), "{plain}");
        }
        assert_eq!(
            masked("http://user:pw@proxy:3128/"),
            "http://user:***@proxy:3128/"
        );
    }

    #[test]
    fn a_flag_beats_the_environment_which_beats_the_file_which_beats_the_default() {
        let text = "listen = \"127.0.0.1:7070\"\nmax-connections = 512\nbackup-dir = \"/b\"\n";
        let rows = effective(cli(), text, &[]);
        assert_eq!(
            row(&rows, "listen"),
            ("127.0.0.1:7070".into(), "file".into())
        );
        assert_eq!(row(&rows, "max-connections"), ("512".into(), "file".into()));
        assert_eq!(row(&rows, "log-format"), ("text".into(), "default".into()));
        assert_eq!(row(&rows, "backup-every"), ("6h".into(), "default".into()));
        assert_eq!(row(&rows, "webhooks-proxy"), ("-".into(), "default".into()));
        // A flag beats the file.
        let rows = effective(cli(), text, &["--listen", "127.0.0.1:9"]);
        assert_eq!(row(&rows, "listen"), ("127.0.0.1:9".into(), "flag".into()));
        assert_eq!(row(&rows, "max-connections"), ("512".into(), "file".into()));
        // The environment beats the file (PATH is always set: it stands
        // in for MODCTLD_DB), and a flag the environment.
        let with_env = || cli().mut_subcommand("serve", |s| s.mut_arg("db", |a| a.env("PATH")));
        let path = std::env::var("PATH").unwrap();
        let rows = effective(with_env(), "db = \"/var/lib/modctld/modctld.db\"", &[]);
        assert_eq!(row(&rows, "db"), (path, "$PATH".into()));
        let rows = effective(with_env(), "db = \"/var/lib/x.db\"", &["--db", "/y.db"]);
        assert_eq!(row(&rows, "db"), ("/y.db".into(), "flag".into()));
        // A flag's list replaces the file's.
        let rows = effective(
            cli(),
            "trusted-proxy = [\"10.0.0.0/8\"]",
            &["--trusted-proxy", "192.168.0.1"],
        );
        assert_eq!(
            row(&rows, "trusted-proxy"),
            ("192.168.0.1".into(), "flag".into())
        );
    }

    #[test]
    fn the_file_s_values_meet_the_rules_between_options() {
        // backup-every needs backup-dir: the file's counts.
        let rows = effective(cli(), "backup-dir = \"/b\"", &["--backup-every", "1d"]);
        assert_eq!(row(&rows, "backup-every"), ("1d".into(), "flag".into()));
        assert_eq!(row(&rows, "backup-dir"), ("/b".into(), "file".into()));
        // And an option the file sets without the one it needs is told so.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("modctld.toml");
        std::fs::write(&file, "backup-every = \"1d\"\n").unwrap();
        assert_eq!(
            check(cli(), &file).unwrap_err(),
            [format!(
                "{}: set `backup-dir` too: an option set here or in the environment needs it",
                file.display()
            )]
        );
    }

    /// The packaged example, `packaging/modctld.toml`.
    const PACKAGED: &str = include_str!("../../../packaging/modctld.toml");

    /// `key = value` lines of `text`, with those commented out (`# key = value`)
    /// when `commented`.
    fn lines_setting(text: &str, commented: bool) -> Vec<&str> {
        text.lines()
            .filter_map(|line| match line.strip_prefix("# ") {
                Some(rest) if commented => Some(rest),
                Some(_) => None,
                None => Some(line),
            })
            .filter(|line| {
                line.split_once(" = ").is_some_and(|(key, _)| {
                    !key.is_empty() && key.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                })
            })
            .collect()
    }

    #[test]
    fn the_packaged_file_lists_every_serve_option_with_its_variable_and_default() {
        let serve = serve_command();
        let set = lines_setting(PACKAGED, false);
        let shown = lines_setting(PACKAGED, true);
        for (arg, long) in keys(&serve) {
            // A new option of `serve` is documented here, with its variable.
            let env = arg
                .get_env()
                .unwrap_or_else(|| panic!("--{long} has no MODCTLD_* variable"))
                .to_string_lossy();
            assert!(
                PACKAGED.contains(&*env),
                "packaging/modctld.toml never names {env}"
            );
            if carries_secret(long) {
                assert!(!set.iter().any(|l| l.starts_with(&format!("{long} = "))));
                continue;
            }
            let line = shown
                .iter()
                .find(|l| l.starts_with(&format!("{long} = ")))
                .unwrap_or_else(|| panic!("packaging/modctld.toml lacks `{long} = ...`"));
            // A line commented out shows the built-in default, where there is one.
            if !set.contains(line)
                && let Some(default) = arg.get_default_values().first()
            {
                let value = line.split_once(" = ").unwrap().1.trim_matches('"');
                assert_eq!(value, default.to_string_lossy(), "{line}");
            }
        }
        // It is valid as it is, and with every line commented out in use.
        let path = Path::new("/etc/modctld/modctld.toml");
        read(&serve, path, PACKAGED).unwrap();
        let every = shown.join("\n");
        assert_eq!(
            read(&serve, path, &every).unwrap().len(),
            keys(&serve).count()
        );
    }

    #[test]
    fn the_readme_s_sample_config_file_is_valid() {
        let readme = include_str!("../../../README.md");
        let section = readme
            .split("\n### Configuration file\n")
            .nth(1)
            .expect("README has a section \"Configuration file\"");
        let sample = section
            .split("```toml\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("a ```toml block in it");
        let settings = read(&serve_command(), Path::new("modctld.toml"), sample).unwrap();
        assert!(settings.len() >= 4, "{settings:?}");
    }
}
