//! `modctl action note|warn|timeout|kick|ban|unban|jail|unjail SERVER USER`.

use clap::{Args, ValueEnum};
use modctl_client::Client;
use modctl_types::moderation::{
    Action, ActionPreview, ActionRequest, ActionResponse, CaseState, MemberInfo,
};
use modctl_types::servers::Server;

use crate::commands::cases::applied_text;
use crate::commands::{names, print, read_input};
use crate::context::Context;
use crate::exit::{self, CliError, api_error};
use crate::output::{OutputMode, Rows, paint_stderr, render_json, render_pairs};
use crate::prompt;
use crate::words;

/// The actions, as the command line names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ActionName {
    /// Record a note
    Note,
    /// Warn
    Warn,
    /// Time out (for --duration, else the server's moderation.default_timeout_minutes)
    Timeout,
    /// Kick (asks for confirmation)
    Kick,
    /// Ban (asks for confirmation)
    Ban,
    /// Lift a ban
    Unban,
    /// Jail (asks for confirmation)
    Jail,
    /// Release from jail
    Unjail,
}

impl From<ActionName> for Action {
    fn from(name: ActionName) -> Action {
        match name {
            ActionName::Note => Action::Note,
            ActionName::Warn => Action::Warn,
            ActionName::Timeout => Action::Timeout,
            ActionName::Kick => Action::Kick,
            ActionName::Ban => Action::Ban,
            ActionName::Unban => Action::Unban,
            ActionName::Jail => Action::Jail,
            ActionName::Unjail => Action::Unjail,
        }
    }
}

/// `modctl action ...`
#[derive(Debug, Args)]
#[command(
    after_help = "Kick, ban and jail ask for confirmation on a terminal and need --yes otherwise; the question\n\
names the member as `name (id)` when the daemon knows the name (strikes and jail above it).\n\
It exits 0 when the case is recorded and the platform carried it out, 7 when the case is recorded but not\n\
applied (or whether it was is unknown): `applied` and the note on stderr say which.\n\
USER may be `@name`: the one member the daemon knows by that name (it learns names from the platform's\n\
events); several of that name exit 2 listing `name (id)` of each, none exits 5: give the id."
)]
pub struct ActionArgs {
    /// What to do
    #[arg(value_enum)]
    pub action: ActionName,
    /// The server id (Telegram ids are negative)
    #[arg(allow_hyphen_values = true)]
    pub server: String,
    /// The user id of the target, or `@name` for the one member known by that name (or --users-file)
    #[arg(required_unless_present = "users_file", conflicts_with = "users_file")]
    pub user: Option<String>,
    /// Why (at most 512 characters)
    #[arg(long, short = 'r')]
    pub reason: Option<String>,
    /// How long, for timeout and jail: 90m, 2h, 7d, 1h30m (a bare number is minutes)
    #[arg(long, short = 'd', value_parser = parse_duration, value_name = "DURATION")]
    pub duration: Option<i64>,
    /// Days of messages to delete, for ban (0 to 7)
    #[arg(long, value_name = "N")]
    pub delete_days: Option<i64>,
    /// Act on every user id in this file (one per line, `#` comments), or `-` for stdin
    #[arg(long, value_name = "FILE")]
    pub users_file: Option<String>,
    /// Do not ask for confirmation
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Send this Idempotency-Key: a retry with the same key does nothing again
    #[arg(long, value_name = "KEY", conflicts_with = "users_file")]
    pub idempotency_key: Option<String>,
    /// Say what the action would do (platform call, DM, strikes, ladder
    /// step) without recording or doing anything
    #[arg(long, conflicts_with_all = ["users_file", "idempotency_key"])]
    pub dry_run: bool,
}

/// `90m`, `2h`, `7d`, `1w`, `1h30m`, or a bare number of minutes.
pub fn parse_duration(text: &str) -> Result<i64, String> {
    let invalid = || format!("invalid duration `{text}`: use e.g. 90m, 2h, 7d or 1h30m");
    if let Ok(minutes) = text.parse::<i64>() {
        return Ok(minutes);
    }
    let mut total: i64 = 0;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'm' => 1,
            'h' => 60,
            'd' => 1440,
            'w' => 10_080,
            _ => return Err(invalid()),
        };
        let value: i64 = number.parse().map_err(|_| invalid())?;
        total = value
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(invalid)?;
        number.clear();
    }
    if !number.is_empty() || total == 0 && text.is_empty() {
        return Err(invalid());
    }
    Ok(total)
}

/// Runs an action, on one user or on a file of them.
pub async fn run(context: &Context, args: ActionArgs) -> Result<u8, CliError> {
    let action: Action = args.action.into();
    let client = context.client()?;
    // The name an `@name` stood for, for the confirmation prompt.
    let (users, typed_name) = match (&args.user, &args.users_file) {
        (Some(user), _) => {
            let (id, name) =
                super::names::resolve_member(&client, &args.server, user, words::ACTION).await?;
            (vec![id], name)
        }
        (None, Some(file)) => (parse_users(&read_input(file)?), None),
        (None, None) => unreachable!("clap requires a user or --users-file"),
    };
    if users.is_empty() {
        return Err(CliError::usage("the users file holds no user ids"));
    }
    if args.users_file.is_some() {
        check_bulk_limit(&client, users.len()).await?;
    }
    if args.dry_run {
        // Nothing happens, so nothing is confirmed.
        let request = ActionRequest {
            user_id: users[0].clone(),
            reason: args.reason.clone(),
            minutes: args.duration,
            delete_message_days: args.delete_days,
        };
        let preview = client
            .preview_action(&args.server, action, &request)
            .await
            .map_err(api_error(words::ACTION))?;
        print(&render_preview(&preview, context.output));
        return Ok(exit::OK);
    }
    if action.is_destructive() && !args.yes {
        // The summary names the server as the daemon knows it, so a wrong id
        // is caught at the prompt rather than after the ban.
        let server = if prompt::interactive() {
            Some(
                client
                    .server(&args.server)
                    .await
                    .map_err(api_error(words::ACTION))?,
            )
        } else {
            None
        };
        // And the member as the daemon knows them (name, strikes, jail), so
        // that the moderator sees who `123` is before banning them. Only a
        // decoration: a daemon that cannot say (one from before this read,
        // or an id it refuses, which the action itself will name) leaves
        // the prompt as it was.
        let member = match (&server, users.as_slice()) {
            (Some(_), [one]) => client.member(&args.server, one).await.ok(),
            _ => None,
        };
        let target = Target {
            name: member.as_ref().and_then(|m| m.name.clone()).or(typed_name),
            member,
        };
        if let Some(server) = &server {
            eprint!("{}", render_summary(action, server, &users, &target, &args));
        }
        let question = render_question(action, server.as_ref(), &args.server, &users, &target);
        if !prompt::confirm(&question, args.yes)? {
            return Ok(prompt::cancelled());
        }
    }
    let body = |user: &str| ActionRequest {
        user_id: user.to_owned(),
        reason: args.reason.clone(),
        minutes: args.duration,
        delete_message_days: args.delete_days,
    };
    if args.users_file.is_none() {
        let request = body(&users[0]);
        let response = match &args.idempotency_key {
            Some(key) => {
                client
                    .perform_action_idempotent(&args.server, action, &request, key)
                    .await
            }
            None => client.perform_action(&args.server, action, &request).await,
        }
        .map_err(api_error(words::ACTION))?;
        print(&render_response(&response, context.output));
        let note = match response.state {
            CaseState::Unknown => Some(
                "whether the platform applied it is unknown: the detail says what to check; the case is recorded",
            ),
            _ if !response.applied => Some("the platform did not apply it; the case is recorded"),
            _ => None,
        };
        if let Some(note) = note {
            eprintln!(
                "{} {note}",
                paint_stderr("note:", console::Style::new().yellow())
            );
        }
        return Ok(applied_code([response.applied]));
    }
    bulk(&client, context, &args.server, action, &users, body).await
}

/// Refuses a users file longer than the team's plan allows, before anything
/// is asked or done (exit 4, like the daemon's 402s). The API sees only
/// single actions, so this plan limit is the CLI's to apply; the number
/// comes from the daemon's table through `GET /me`.
async fn check_bulk_limit(client: &Client, users: usize) -> Result<(), CliError> {
    let me = client.me().await.map_err(api_error(words::ACTION))?;
    let limit = me.plan_limits.bulk_users_per_file;
    // 0: a daemon from before plans, which sets no limit.
    if limit == 0 || users as u64 <= limit {
        return Ok(());
    }
    let (message, hint) = if me.team.plan == modctl_types::Plan::Free {
        (
            format!(
                "a users file of {users} users needs the pro plan; team {} is on free (its limit is {limit} users per file)",
                me.team.name
            ),
            format!(
                "split the file into parts of at most {limit} users, or ask the operator of the daemon to move your team to the pro plan"
            ),
        )
    } else {
        (
            format!(
                "a users file of {users} users is over the {} plan's limit of {limit} users per file",
                me.team.plan
            ),
            format!("split the file into parts of at most {limit} users"),
        )
    };
    Err(CliError::with_code(exit::DENIED, message).hint(hint))
}

/// What the confirmation knows of a single target beyond their id.
#[derive(Debug, Default)]
pub struct Target {
    /// Their name: the daemon's, else the one an `@name` was resolved by.
    pub name: Option<String>,
    /// What the daemon knows of them (`GET /servers/{id}/members/{user_id}`).
    pub member: Option<MemberInfo>,
}

/// The confirmation question: `ban alice (123) on Alpha Guild (456)?` when
/// the target's name is known (the server named with its id too: both are
/// what a wrong paste gets wrong), else as before names: `ban user 123 on
/// Alpha Guild?`, `kick 7 users on Alpha Guild?`.
pub fn render_question(
    action: Action,
    server: Option<&Server>,
    server_arg: &str,
    users: &[String],
    target: &Target,
) -> String {
    let place = |with_id: bool| match server {
        Some(s) if with_id => format!("{} ({})", names::clean(&s.name), s.id),
        Some(s) => s.name.clone(),
        None => server_arg.to_owned(),
    };
    match (users, target.name.as_deref()) {
        ([one], Some(name)) if !names::clean(name).is_empty() => {
            format!(
                "{action} {} on {}?",
                names::named(one, Some(name)),
                place(true)
            )
        }
        ([one], _) => format!("{action} user {one} on {}?", place(false)),
        (many, _) => format!("{action} {} users on {}?", many.len(), place(false)),
    }
}

/// How many user ids of a `--users-file` the confirmation lists.
const SHOWN_USERS: usize = 5;

/// What a destructive action is about to do, for the confirmation prompt:
/// the server (name, platform, id), the target(s) and every option given.
pub fn render_summary(
    action: Action,
    server: &Server,
    users: &[String],
    known: &Target,
    args: &ActionArgs,
) -> String {
    let target = match users {
        [one] => names::named(one, known.name.as_deref()),
        many => {
            let shown = many[..many.len().min(SHOWN_USERS)].join(", ");
            let rest = many.len().saturating_sub(SHOWN_USERS);
            let more = if rest > 0 {
                format!(", and {rest} more")
            } else {
                String::new()
            };
            format!(
                "{} users from {}: {shown}{more}",
                many.len(),
                args.users_file.as_deref().unwrap_or("-")
            )
        }
    };
    let mut lines = vec![
        ("action", action.to_string()),
        (
            "server",
            format!("{} ({}, {})", server.name, server.platform, server.id),
        ),
        (if users.len() == 1 { "user" } else { "users" }, target),
    ];
    // What the daemon has on record of them, when it said: a moderator
    // about to ban may want to know the member is already jailed.
    if let Some(member) = &known.member {
        let jailed = if member.jailed { "; jailed now" } else { "" };
        lines.push((
            "on record",
            format!(
                "{} active strike{}{jailed}",
                member.active_strikes,
                plural(member.active_strikes)
            ),
        ));
    }
    if let Some(minutes) = args.duration {
        lines.push(("duration", format_minutes(minutes)));
    } else if action == Action::Jail {
        lines.push(("duration", "the server's jail.default_minutes".into()));
    }
    if action == Action::Ban {
        lines.push((
            "delete days",
            args.delete_days.map_or(
                "the server's moderation.default_ban_delete_days".into(),
                |d| d.to_string(),
            ),
        ));
    }
    lines.push((
        "reason",
        args.reason
            .clone()
            .unwrap_or_else(|| crate::output::EMPTY.into()),
    ));
    let mut out = String::from("About to:\n");
    for (label, value) in lines {
        out += &format!("  {label:<12}{value}\n");
    }
    out
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `1d 2h 30m` from minutes, as `--duration` reads them.
fn format_minutes(minutes: i64) -> String {
    let (days, hours, rest) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let mut parts = Vec::new();
    if days > 0 {
        parts.push(format!("{days}d"));
    }
    if hours > 0 {
        parts.push(format!("{hours}h"));
    }
    if rest > 0 || parts.is_empty() {
        parts.push(format!("{rest}m"));
    }
    format!("{} ({minutes} minutes)", parts.join(" "))
}

fn parse_users(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

/// One result of a bulk run.
#[derive(Debug, serde::Serialize)]
pub struct BulkResult {
    /// The user.
    pub user_id: String,
    /// The daemon's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<ActionResponse>,
    /// Why the request failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

async fn bulk(
    client: &Client,
    context: &Context,
    server: &str,
    action: Action,
    users: &[String],
    body: impl Fn(&str) -> ActionRequest,
) -> Result<u8, CliError> {
    let progress = indicatif::ProgressBar::with_draw_target(
        Some(users.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let mut results = Vec::with_capacity(users.len());
    for user in users {
        progress.set_message(user.clone());
        // One failure does not stop the rest.
        let result = match client.perform_action(server, action, &body(user)).await {
            Ok(response) => BulkResult {
                user_id: user.clone(),
                response: Some(response),
                error: None,
            },
            Err(e) => BulkResult {
                user_id: user.clone(),
                response: None,
                error: Some(
                    CliError::from(e)
                        .in_words_of(words::ACTION)
                        .message()
                        .to_owned(),
                ),
            },
        };
        results.push(result);
        progress.inc(1);
    }
    progress.finish_and_clear();
    print(&render_bulk(&results, context.output));
    Ok(if results.iter().any(|r| r.error.is_some()) {
        exit::FAILURE
    } else {
        applied_code(
            results
                .iter()
                .filter_map(|r| r.response.as_ref().map(|r| r.applied)),
        )
    })
}

/// The exit code of recorded actions: 0 when the platform applied every
/// one, else [`exit::NOT_APPLIED`], so that `modctl action ... && next`
/// stops at an action that is only on record.
pub fn applied_code(applied: impl IntoIterator<Item = bool>) -> u8 {
    if applied.into_iter().all(|applied| applied) {
        exit::OK
    } else {
        exit::NOT_APPLIED
    }
}

/// The outcome of one action.
pub fn render_response(response: &ActionResponse, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(response);
    }
    let mut pairs = vec![
        ("case", format!("#{}", response.case_id)),
        ("applied", applied_text(response.applied, response.state)),
        ("platform", response.platform.to_string()),
        ("detail", response.detail.clone()),
        ("active_strikes", response.active_strikes.to_string()),
    ];
    if mode == OutputMode::Plain {
        pairs[0].1 = response.case_id.to_string();
    }
    if let Some(escalation) = &response.escalation {
        pairs.push((
            "escalation",
            format!(
                "{} (case #{}): applied={}: {}",
                escalation.action,
                escalation.case_id,
                applied_text(escalation.applied, escalation.state),
                escalation.detail
            ),
        ));
    }
    // Last, so scripts reading the lines above by position keep working.
    if let Some(dm) = &response.dm {
        pairs.push(("dm", format!("{}: {}", dm.status, dm.detail)));
    }
    render_pairs(&pairs, mode)
}

/// What a dry run says the action would do.
pub fn render_preview(preview: &ActionPreview, mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(preview);
    }
    let none = || "-".to_owned();
    let mut pairs = vec![
        ("dry_run", "yes: nothing was recorded or sent".to_owned()),
        ("action", preview.action.to_string()),
        ("user", preview.user_id.clone()),
        ("platform", preview.platform.to_string()),
        ("reason", preview.reason.clone().unwrap_or_else(none)),
        (
            "platform_call",
            preview
                .platform_call
                .clone()
                .unwrap_or_else(|| "none: the action is a record here".to_owned()),
        ),
        ("detail", preview.detail.clone()),
        (
            "strikes",
            format!(
                "{} -> {}",
                preview.active_strikes_before, preview.active_strikes
            ),
        ),
        ("dm", preview.dm.clone()),
    ];
    if let Some(minutes) = preview.minutes {
        pairs.insert(5, ("minutes", minutes.to_string()));
    }
    if let Some(until) = &preview.expires_at {
        pairs.insert(6, ("expires_at", until.to_string()));
    }
    if let Some(hierarchy) = &preview.hierarchy {
        pairs.push(("hierarchy", hierarchy.clone()));
    }
    if let Some(step) = &preview.escalation {
        let minutes = step.minutes.map_or_else(String::new, |m| format!(" {m}m"));
        // The detail starts with `would be applied:` or `skipped:`.
        pairs.push((
            "escalation",
            format!(
                "{}{minutes} at {} strikes: {}",
                step.action, step.at, step.detail
            ),
        ));
    }
    render_pairs(&pairs, mode)
}

/// The per-user results of a bulk run.
pub fn render_bulk(results: &[BulkResult], mode: OutputMode) -> String {
    if mode == OutputMode::Json {
        return render_json(results);
    }
    let mut rows = Rows::new(vec!["USER", "CASE", "APPLIED", "DETAIL"]);
    for result in results {
        rows.push(match (&result.response, &result.error) {
            (Some(r), _) => vec![
                result.user_id.clone(),
                r.case_id.to_string(),
                applied_text(r.applied, r.state),
                r.detail.clone(),
            ],
            (None, error) => vec![
                result.user_id.clone(),
                crate::output::EMPTY.into(),
                crate::output::yes_no(false).into(),
                format!("error: {}", error.as_deref().unwrap_or("unknown")),
            ],
        });
    }
    rows.render(mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90m"), Ok(90));
        assert_eq!(parse_duration("2h"), Ok(120));
        assert_eq!(parse_duration("7d"), Ok(10_080));
        assert_eq!(parse_duration("1h30m"), Ok(90));
        assert_eq!(parse_duration("45"), Ok(45));
        for bad in ["", "h", "2x", "10m5"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    fn args(action: ActionName, users_file: Option<&str>) -> ActionArgs {
        ActionArgs {
            action,
            server: "100000000000000001".into(),
            user: None,
            reason: None,
            duration: None,
            delete_days: None,
            users_file: users_file.map(str::to_owned),
            yes: false,
            idempotency_key: None,
            dry_run: false,
        }
    }

    #[test]
    fn a_dry_run_at_60_and_120_columns_and_piped() {
        let preview: ActionPreview = serde_json::from_value(serde_json::json!({
            "dry_run": true, "action": "ban", "user_id": "800000000000000004",
            "platform": "discord", "reason": "raid spam", "minutes": null, "expires_at": null,
            "platform_call": "Create Guild Ban (PUT /guilds/{guild}/bans/{user}) with delete_message_seconds, after reading the role hierarchy",
            "detail": "the ban would be carried out on discord; the case records the platform's answer",
            "counts_strikes": true,
            "hierarchy": "checked when carried out: the bot's highest role must be above the member's",
            "dm": "sent before the ban: afterwards the bot cannot reach them",
            "active_strikes_before": 1, "active_strikes": 4,
            "escalation": {"at": 2, "action": "timeout", "minutes": 15, "applied": false,
                "detail": "skipped: the member is banned, which outweighs this step's timeout"}
        }))
        .unwrap();
        insta::assert_snapshot!(
            "dry_run_at_widths",
            crate::output::at_widths(|| render_preview(&preview, OutputMode::Table))
        );
        insta::assert_snapshot!("dry_run_plain", render_preview(&preview, OutputMode::Plain));
    }

    fn guild() -> Server {
        serde_json::from_value(serde_json::json!({
            "id": "100000000000000001",
            "name": "Alpha Guild",
            "platform": "discord",
            "claimed_at": "2026-11-21T09:08:10Z",
        }))
        .unwrap()
    }

    #[test]
    fn confirmation_summaries_name_the_server_the_target_and_every_option() {
        let mut ban = args(ActionName::Ban, None);
        ban.reason = Some("raid spam".into());
        ban.delete_days = Some(3);
        insta::assert_snapshot!(
            "summary_ban",
            render_summary(
                Action::Ban,
                &guild(),
                &["300000000000000003".into()],
                &Target::default(),
                &ban
            )
        );
        let mut jail = args(ActionName::Jail, None);
        jail.duration = Some(1530);
        insta::assert_snapshot!(
            "summary_jail",
            render_summary(
                Action::Jail,
                &guild(),
                &["300000000000000003".into()],
                &Target::default(),
                &jail
            )
        );
        let users: Vec<String> = (1..=7).map(|i| format!("30000000000000000{i}")).collect();
        let kick = args(ActionName::Kick, Some("raiders.txt"));
        insta::assert_snapshot!(
            "summary_kick_users_file",
            render_summary(Action::Kick, &guild(), &users, &Target::default(), &kick)
        );
    }

    fn known(name: Option<&str>, strikes: u32, jailed: bool) -> Target {
        Target {
            name: name.map(str::to_owned),
            member: Some(MemberInfo {
                user_id: "300000000000000003".into(),
                name: name.map(str::to_owned),
                active_strikes: strikes,
                jailed,
            }),
        }
    }

    /// The question names the target and the server with their ids when
    /// the daemon knows the target's name, and is as before names when it
    /// does not.
    #[test]
    fn the_question_names_the_target_when_the_name_is_known() {
        let one = ["300000000000000003".to_owned()];
        let ask = |target: &Target, server: Option<&Server>| {
            render_question(Action::Ban, server, "100000000000000001", &one, target)
        };
        let guild = guild();
        assert_eq!(
            ask(&known(Some("alice"), 0, false), Some(&guild)),
            "ban alice (300000000000000003) on Alpha Guild (100000000000000001)?"
        );
        // `@alice` resolved, the member read unanswered: the typed name.
        let typed = Target {
            name: Some("Alice".into()),
            member: None,
        };
        assert_eq!(
            ask(&typed, Some(&guild)),
            "ban Alice (300000000000000003) on Alpha Guild (100000000000000001)?"
        );
        // A name is untrusted text: no line break reaches the prompt.
        assert_eq!(
            ask(&known(Some("al\nice"), 0, false), Some(&guild)),
            "ban al ice (300000000000000003) on Alpha Guild (100000000000000001)?"
        );
        // Nothing known: as before names.
        assert_eq!(
            ask(&known(None, 2, false), Some(&guild)),
            "ban user 300000000000000003 on Alpha Guild?"
        );
        assert_eq!(
            ask(&Target::default(), None),
            "ban user 300000000000000003 on 100000000000000001?"
        );
        let many: Vec<String> = (1..=3).map(|i| format!("30000000000000000{i}")).collect();
        assert_eq!(
            render_question(
                Action::Kick,
                Some(&guild),
                "100000000000000001",
                &many,
                &Target::default()
            ),
            "kick 3 users on Alpha Guild?"
        );
    }

    /// The summary before the question, with what the daemon knows of the
    /// target (the text is not fitted to the width: the same at both).
    #[test]
    fn the_summary_names_the_target_and_what_is_on_record_at_60_and_120_columns() {
        let mut ban = args(ActionName::Ban, None);
        ban.reason = Some("raid spam".into());
        let one = ["300000000000000003".to_owned()];
        let shown = |target: &Target| {
            crate::output::at_widths(|| {
                render_summary(Action::Ban, &guild(), &one, target, &ban)
                    + &render_question(
                        Action::Ban,
                        Some(&guild()),
                        "100000000000000001",
                        &one,
                        target,
                    )
                    + "\n"
            })
        };
        insta::assert_snapshot!(
            "summary_ban_named_at_widths",
            shown(&known(Some("alice"), 3, true))
        );
        insta::assert_snapshot!(
            "summary_ban_unknown_at_widths",
            shown(&known(None, 1, false))
        );
    }

    #[test]
    fn users_files_skip_blanks_and_comments() {
        assert_eq!(
            parse_users("1\n\n# all of them\n2 # spammer\n  3  \n"),
            ["1", "2", "3"]
        );
    }
}
