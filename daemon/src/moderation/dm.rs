//! Telling the member about a case by direct message
//! (`moderation.dm_on_action`, issue #25).
//!
//! When the DM is sent is the behaviour table's ([`behaviour::dm_step`]):
//! before a kick or a ban on Discord (afterwards the bot shares no server
//! with the member), after the other actions, never on Telegram (a bot
//! cannot start a conversation: `not_possible`, never an error). Its text is
//! the server's template for the action (`moderation.templates[action]`,
//! with `{user}`, `{reason}`, `{server}`, `{duration}` and `{case}` filled
//! in, [`fill`]) or else the built-in text in `general.locale`
//! ([`crate::locale`]). The text is plain: the platform's renderer escapes
//! it (Discord allows no mentions, Slack and Telegram markup is escaped;
//! [`crate::platform::post`]), so a name or a reason can neither ping nor
//! format.
//!
//! # Durability: one DM at most per case
//!
//! The DM's outcome is on the case (`dm`). A DM that is not to be sent (off,
//! a note, not possible) is recorded when the case is written. One that is
//! leaves the case's `dm` empty while pending; then:
//!
//! - *before* a kick or a ban, once the action's checks passed (so a ban
//!   the role hierarchy refuses tells nobody), it is sent and its outcome
//!   written (one transaction) before the action goes to the platform
//!   ([`TellFirst`]), so a daemon killed between the DM and the kick leaves
//!   a case that says the DM was sent;
//! - *after* an action, it is sent once the platform answered, only when
//!   the action was carried out (or recorded, where the platform leaves it
//!   to an administrator), and its outcome is written with the settled case.
//!
//! Recovery never sends a DM: a pending case found at start-up whose `dm`
//! is still empty was stopped while its DM was due, and is settled with
//! `dm.status: unknown` (it may have arrived). A case's DM is therefore sent
//! at most once, even across crashes; a DM whose outcome was not written
//! before a crash may have been sent without the case saying so, which
//! `unknown` admits.
//!
//! A DM failure never blocks or fails the action: it is `failed`, with the
//! platform's reason, and the action goes ahead.

use modctl_types::Platform;
use modctl_types::Server;
use modctl_types::config::Sections;
use modctl_types::moderation::{Action, Case, CaseDm, CaseSource, DmStatus};

use std::sync::{Mutex, PoisonError};

use super::behaviour::{self, DmStep, TELEGRAM_NO_DM};
use super::validate::Checked;
use crate::locale::{self, Arg};
use crate::platform::{Bot, Post};
use crate::store::{Store, cases};

/// What becomes of a case's DM, decided when the case is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// To send, before or after the action.
    Send(When),
    /// Nothing to send: the outcome to record at once.
    Settled(CaseDm),
}

/// When a DM to send goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Before the action reaches the platform.
    Before,
    /// Once the platform carried it out.
    After,
}

/// The plan for a case of `action` on a server of `platform` with config
/// `sections`, `connected` or not.
pub fn plan(
    platform: Platform,
    action: Action,
    source: CaseSource,
    sections: &Sections,
    connected: bool,
) -> Plan {
    if !sections.moderation.dm_on_action {
        return Plan::Settled(CaseDm::new(DmStatus::Off, "moderation.dm_on_action is off"));
    }
    // Antinuke's punishment is a race with whoever is taking the server
    // apart: a DM before a ban or kick is a round trip and a write between
    // the crossing entry and the ban, and tells them what is coming.
    if source == CaseSource::Antinuke {
        return Plan::Settled(CaseDm::new(
            DmStatus::Off,
            "not sent: antinuke acts at once, without telling whoever it stops first",
        ));
    }
    match behaviour::dm_step(platform, action) {
        DmStep::Never(why) => Plan::Settled(CaseDm::new(DmStatus::Off, format!("not sent: {why}"))),
        DmStep::NotPossible(why) => Plan::Settled(CaseDm::new(DmStatus::NotPossible, why)),
        _ if !connected => Plan::Settled(CaseDm::new(
            DmStatus::NotPossible,
            "the server is not connected, so the bot cannot reach the member",
        )),
        DmStep::Before => Plan::Send(When::Before),
        DmStep::After => Plan::Send(When::After),
    }
}

/// The outcome recorded for a case whose DM was due when the daemon stopped
/// before recording it (see the module docs).
pub fn unknown_after_restart() -> CaseDm {
    CaseDm::new(
        DmStatus::Unknown,
        "the daemon stopped while this case's DM was being sent; it may or may not have arrived, and it is not sent again",
    )
}

/// The outcome recorded for a DM that was due after an action the platform
/// did not carry out: no DM about something that did not happen.
pub fn not_carried_out(action: Action) -> CaseDm {
    CaseDm::new(
        DmStatus::NotPossible,
        format!("not sent: the {action} was not carried out"),
    )
}

/// Sends the DM of `case` (carried out as `input`) through `bot`, `when`
/// the step says; answers its outcome. Never fails: a refusal is `failed`
/// with the platform's reason.
pub async fn send(
    bot: &Bot,
    server: &Server,
    sections: &Sections,
    input: &Checked,
    case: &Case,
    when: When,
) -> CaseDm {
    // The handle's match: Telegram has no DMs, whatever the table says.
    let Some(dms) = bot.direct_messages() else {
        return CaseDm::new(DmStatus::NotPossible, TELEGRAM_NO_DM);
    };
    let text = message(server, sections, input, case.id);
    let when = match when {
        When::Before => "before",
        When::After => "after",
    };
    match dms.direct_message(&input.user_id, &Post::text(text)).await {
        Ok(()) => CaseDm::new(DmStatus::Sent, format!("sent {when} the {}", input.action)),
        Err(e) => {
            tracing::info!(server = %server.id, case = case.id, error = %e, "a DM about a case was not delivered");
            CaseDm::new(
                DmStatus::Failed,
                format!(
                    "not delivered ({e}): the member may not accept DMs from the bot; the {} went ahead",
                    input.action
                ),
            )
        }
    }
}

/// The DM sent just before a kick or a ban, once its checks passed
/// ([`behaviour::BeforeRemoval`]): sent, then its outcome written on the
/// pending case in a transaction of its own, both before the action goes
/// to the platform.
#[derive(Debug)]
pub struct TellFirst<'a> {
    /// Where the outcome is written.
    pub store: &'a Store,
    /// The platform.
    pub bot: &'a Bot,
    /// The server acted on.
    pub server: &'a Server,
    /// Its config.
    pub sections: &'a Sections,
    /// The action.
    pub input: &'a Checked,
    /// Its pending case.
    pub case: &'a Case,
    /// The outcome, once sent.
    pub told: Mutex<Option<CaseDm>>,
}

impl TellFirst<'_> {
    /// The DM's outcome; `None` when it was not sent (a check refused the
    /// action first).
    pub fn into_told(self) -> Option<CaseDm> {
        self.told
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait::async_trait]
impl behaviour::BeforeRemoval for TellFirst<'_> {
    async fn run(&self) {
        let told = send(
            self.bot,
            self.server,
            self.sections,
            self.input,
            self.case,
            When::Before,
        )
        .await;
        let (id, case_id, record) = (self.server.id.clone(), self.case.id, told.clone());
        // Written before the action is sent: a daemon killed after the DM
        // leaves it on the case, and recovery does not send it again. A
        // failed write does not stop the action; the settling writes the DM
        // with the case.
        if let Err(e) = self
            .store
            .write(move |tx| cases::set_dm(tx, &id, case_id, &record))
            .await
        {
            tracing::error!(server = %self.server.id, case = case_id, error = %e, "cannot record a case's DM before its action");
        }
        *self.told.lock().unwrap_or_else(PoisonError::into_inner) = Some(told);
    }
}

/// The DM's text: the server's template for the action, filled in, or the
/// built-in text in the server's locale.
pub fn message(server: &Server, sections: &Sections, input: &Checked, case: i64) -> String {
    let locale = sections.general.locale.as_str();
    let reason = input
        .reason
        .clone()
        .unwrap_or_else(|| locale::t(locale, "dm-no-reason", &[]));
    let length = input
        .minutes
        .map(|m| locale::duration(locale, i64::from(m)));
    let duration = match (input.action, length) {
        (_, Some(length)) => length,
        (Action::Jail, None) => locale::t(locale, "duration-until-released", &[]),
        (_, None) => String::new(),
    };
    if let Some(template) = sections.moderation.templates.get(input.action.as_str()) {
        let case = case.to_string();
        return fill(
            template,
            &[
                ("user", &input.user_id),
                ("reason", &reason),
                ("server", &server.name),
                ("duration", &duration),
                ("case", &case),
            ],
        );
    }
    // A jail's built-in text reads "jailed on S for 2 hours" or "... until
    // you are released"; a timeout's always has a length.
    let duration = match (input.action, input.minutes) {
        (Action::Jail, Some(_)) => {
            locale::t(locale, "duration-for", &[("duration", Arg::from(duration))])
        }
        _ => duration,
    };
    locale::t(
        locale,
        &format!("dm-{}", input.action),
        &[
            ("server", Arg::from(server.name.as_str())),
            ("reason", Arg::from(reason)),
            ("case", Arg::Number(case)),
            ("duration", Arg::from(duration)),
        ],
    )
}

/// `template` with each `{name}` of `values` replaced by its value, in one
/// pass (a value holding `{case}` stays as it is). A placeholder not in
/// `values`, and a `{` without its `}`, are left as typed, so a template
/// written for a later version still reads.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let known = after.find('}').and_then(|close| {
            let name = &after[..close];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, value)| (*value, close))
        });
        match known {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use modctl_types::Timestamp;

    use super::*;
    use crate::platform::post::{discord_message, slack_message, telegram_message};

    const VALUES: &[(&str, &str)] = &[
        ("user", "42"),
        ("reason", "spam"),
        ("server", "Cafe"),
        ("duration", "2 hours"),
        ("case", "7"),
    ];

    #[test]
    fn templates_fill_known_placeholders_and_keep_the_rest() {
        for (template, want) in [
            ("", ""),
            ("no placeholders", "no placeholders"),
            (
                "{user}: banned from {server} for {reason} (#{case})",
                "42: banned from Cafe for spam (#7)",
            ),
            ("timed out {duration}", "timed out 2 hours"),
            ("{reason}{reason}", "spamspam"),
            ("{unknown} stays", "{unknown} stays"),
            ("{User} is case-sensitive", "{User} is case-sensitive"),
            ("{ user } needs no spaces", "{ user } needs no spaces"),
            ("a { alone", "a { alone"),
            ("trailing {", "trailing {"),
            ("{{case}}", "{7}"),
            ("{}", "{}"),
            ("nested {re{case}}", "nested {re7}"),
            ("ünïcödé {server} ✓", "ünïcödé Cafe ✓"),
        ] {
            assert_eq!(fill(template, VALUES), want, "{template:?}");
        }
    }

    /// A value is inserted as it is, never filled again: a reason that
    /// reads `{case}` stays `{case}`.
    #[test]
    fn values_are_not_filled_again() {
        let values = [("reason", "{case}"), ("case", "7")];
        assert_eq!(fill("{reason} #{case}", &values), "{case} #7");
    }

    fn server() -> Server {
        Server {
            id: "1".into(),
            name: "<b>Cafe</b> & @everyone".into(),
            platform: Platform::Discord,
            claimed_at: Timestamp::UNIX_EPOCH,
        }
    }

    fn input(action: Action, reason: Option<&str>, minutes: Option<u32>) -> Checked {
        Checked {
            action,
            user_id: "42".into(),
            reason: reason.map(Into::into),
            minutes,
            delete_message_days: None,
            defaulted: None,
        }
    }

    /// Names and reasons go in as plain text; each platform's renderer
    /// escapes them, so they can neither format nor ping.
    #[test]
    fn names_are_escaped_by_each_platform() {
        let mut sections = Sections::default();
        sections
            .moderation
            .templates
            .insert("warn".into(), "{server}: {reason}".into());
        let text = message(
            &server(),
            &sections,
            &input(Action::Warn, Some("<@&1> *bold*"), None),
            3,
        );
        assert_eq!(text, "<b>Cafe</b> & @everyone: <@&1> *bold*");
        let post = Post::text(text);
        let discord = discord_message(&post);
        assert_eq!(discord["allowed_mentions"]["parse"], serde_json::json!([]));
        assert_eq!(
            slack_message(&post)["text"],
            "&lt;b&gt;Cafe&lt;/b&gt; &amp; @everyone: &lt;@&amp;1&gt; *bold*"
        );
        assert_eq!(
            telegram_message(&post)["text"],
            "&lt;b&gt;Cafe&lt;/b&gt; &amp; @everyone: &lt;@&amp;1&gt; *bold*"
        );
    }

    #[test]
    fn built_in_texts_follow_the_locale() {
        let server = Server {
            name: "Cafe".into(),
            ..server()
        };
        let mut sections = Sections::default();
        for (locale, input, want) in [
            (
                "en",
                input(Action::Ban, Some("spam"), None),
                "You have been banned from Cafe: spam (case #5)",
            ),
            (
                "en",
                input(Action::Warn, None, None),
                "You have been warned on Cafe: no reason given (case #5)",
            ),
            (
                "en",
                input(Action::Timeout, Some("flood"), Some(120)),
                "You have been timed out on Cafe for 2 hours: flood (case #5)",
            ),
            (
                "en",
                input(Action::Jail, Some("x"), None),
                "You have been jailed on Cafe until you are released: x (case #5)",
            ),
            (
                "en",
                input(Action::Jail, Some("x"), Some(30)),
                "You have been jailed on Cafe for 30 minutes: x (case #5)",
            ),
            (
                "pt-BR",
                input(Action::Ban, Some("spam"), None),
                "Você foi banido de Cafe: spam (caso #5)",
            ),
            (
                "pt-BR",
                input(Action::Timeout, None, Some(1)),
                "Você foi silenciado em Cafe por 1 minuto: nenhum motivo informado (caso #5)",
            ),
            (
                "de",
                input(Action::Kick, Some("spam"), None),
                "Du wurdest von Cafe entfernt: spam (Fall #5)",
            ),
            (
                "ja",
                input(Action::Kick, Some("spam"), None),
                "You have been removed from Cafe: spam (case #5)",
            ),
        ] {
            sections.general.locale = locale.into();
            assert_eq!(message(&server, &sections, &input, 5), want, "{locale}");
        }
    }

    #[test]
    fn the_plan_follows_the_config_and_the_table() {
        let on = Sections::default();
        let mut off = Sections::default();
        off.moderation.dm_on_action = false;
        let status = |plan: Plan| match plan {
            Plan::Settled(dm) => dm.status.as_str(),
            Plan::Send(When::Before) => "before",
            Plan::Send(When::After) => "after",
        };
        for (platform, action, sections, connected, want) in [
            (Platform::Discord, Action::Ban, &on, true, "before"),
            (Platform::Discord, Action::Kick, &on, true, "before"),
            (Platform::Discord, Action::Warn, &on, true, "after"),
            (Platform::Discord, Action::Jail, &on, true, "after"),
            (Platform::Discord, Action::Unban, &on, true, "not_possible"),
            (Platform::Discord, Action::Note, &on, true, "off"),
            (Platform::Discord, Action::Ban, &off, true, "off"),
            (Platform::Discord, Action::Ban, &on, false, "not_possible"),
            (Platform::Slack, Action::Ban, &on, true, "after"),
            (Platform::Slack, Action::Warn, &on, true, "after"),
            (Platform::Telegram, Action::Ban, &on, true, "not_possible"),
            (Platform::Telegram, Action::Warn, &on, true, "not_possible"),
            (Platform::Telegram, Action::Warn, &off, true, "off"),
        ] {
            assert_eq!(
                status(plan(platform, action, CaseSource::Api, sections, connected)),
                want,
                "{platform} {action} connected={connected}"
            );
        }
        // Antinuke bans and kicks at once, telling nobody first.
        for action in [Action::Ban, Action::Kick] {
            let planned = plan(Platform::Discord, action, CaseSource::Antinuke, &on, true);
            assert_eq!(status(planned), "off", "{action}");
            assert_eq!(
                status(plan(
                    Platform::Discord,
                    action,
                    CaseSource::Automod,
                    &on,
                    true
                )),
                "before",
                "{action}"
            );
        }
    }
}
