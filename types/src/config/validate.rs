//! Validation of every config value. Errors name the field by its path from
//! the config root, e.g. `strikes.ladder[2].minutes: must be between 1 and 40320`.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::ids::{IdKind, check_id};
use super::{LadderAction, SecretUpdate, SectionName, Sections, Verification};
use crate::Platform;

/// Longest timeout the platforms accept: 28 days.
pub const MAX_TIMEOUT_MINUTES: u32 = 40_320;
/// Longest timed jail: a year.
pub const MAX_JAIL_MINUTES: u32 = 525_600;
const TEMPLATE_ACTIONS: [&str; 8] = [
    "note", "warn", "timeout", "kick", "ban", "unban", "jail", "unjail",
];

/// A value that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// Path of the field from the config root.
    pub path: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl FieldError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for FieldError {}

/// Collects errors while walking a section.
struct Check {
    /// Platform whose id shapes apply.
    platform: Platform,
    errors: Vec<FieldError>,
}

impl Check {
    fn fail(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.errors.push(FieldError::new(path, message));
    }

    fn range(&mut self, path: &str, value: u32, min: u32, max: u32) {
        if !(min..=max).contains(&value) {
            self.fail(path, format!("must be between {min} and {max}"));
        }
    }

    fn text(&mut self, path: &str, value: &str, min: usize, max: usize) {
        let len = value.chars().count();
        if len < min || len > max {
            self.fail(path, format!("must be {min} to {max} characters long"));
        }
    }

    fn list<T>(&mut self, path: &str, list: &[T], max: usize) {
        if list.len() > max {
            self.fail(path, format!("must have at most {max} entries"));
        }
    }

    fn channel(&mut self, path: &str, id: Option<&String>) {
        if let Some(id) = id
            && let Err(e) = check_id(self.platform, IdKind::Channel, id)
        {
            self.fail(path, e);
        }
    }

    fn role(&mut self, path: &str, id: Option<&String>) {
        if let Some(id) = id
            && let Err(e) = check_id(self.platform, IdKind::Role, id)
        {
            self.fail(path, e);
        }
    }
}

impl Sections {
    /// Validates every section for a server on `platform` (ids must have that
    /// platform's shapes). Returns all problems found, in section order.
    ///
    /// ```
    /// use modctl_types::{Platform, config::Sections};
    /// let mut config = Sections::default();
    /// assert!(config.validate(Platform::Discord).is_empty());
    /// config.strikes.ladder[0].minutes = Some(50_000);
    /// assert_eq!(
    ///     config.validate(Platform::Discord)[0].to_string(),
    ///     "strikes.ladder[0].minutes: must be between 1 and 40320"
    /// );
    /// ```
    pub fn validate(&self, platform: Platform) -> Vec<FieldError> {
        SectionName::ALL
            .into_iter()
            .flat_map(|name| self.validate_section(name, platform))
            .collect()
    }

    /// Validates one section.
    pub fn validate_section(&self, name: SectionName, platform: Platform) -> Vec<FieldError> {
        let mut check = Check {
            platform,
            errors: Vec::new(),
        };
        match name {
            SectionName::General => self.check_general(&mut check),
            SectionName::Moderation => self.check_moderation(&mut check),
            SectionName::Strikes => self.check_strikes(&mut check),
            SectionName::Jail => self.check_jail(&mut check),
            SectionName::Automod => self.check_automod(&mut check),
            SectionName::Logging => self.check_logging(&mut check),
            SectionName::Welcome => self.check_welcome(&mut check),
            SectionName::Antinuke => self.check_antinuke(&mut check),
            SectionName::Webhooks => self.check_webhooks(&mut check),
        }
        check.errors
    }

    fn check_general(&self, c: &mut Check) {
        let g = &self.general;
        c.channel("general.modlog_channel_id", g.modlog_channel_id.as_ref());
        if !is_locale(&g.locale) {
            c.fail(
                "general.locale",
                "must be a language tag such as `en` or `pt-BR`",
            );
        }
        if jiff::tz::TimeZone::get(&g.timezone).is_err() {
            c.fail(
                "general.timezone",
                format!(
                    "unknown time zone `{}`: use an IANA name such as `Europe/Berlin` or `UTC`",
                    g.timezone
                ),
            );
        }
    }

    fn check_moderation(&self, c: &mut Check) {
        let m = &self.moderation;
        c.range(
            "moderation.default_timeout_minutes",
            m.default_timeout_minutes,
            1,
            MAX_TIMEOUT_MINUTES,
        );
        c.range(
            "moderation.default_ban_delete_days",
            m.default_ban_delete_days.into(),
            0,
            7,
        );
        for (action, template) in &m.templates {
            let path = format!("moderation.templates.{action}");
            if !TEMPLATE_ACTIONS.contains(&action.as_str()) {
                c.fail(
                    &path,
                    format!(
                        "unknown action: templates exist for {}",
                        TEMPLATE_ACTIONS.join(", ")
                    ),
                );
            }
            c.text(&path, template, 1, 1000);
            if let Some(bad) =
                unknown_placeholder(template, &["user", "reason", "server", "duration", "case"])
            {
                c.fail(&path, format!("unknown placeholder `{{{bad}}}`: use {{user}}, {{reason}}, {{server}}, {{duration}} or {{case}}"));
            }
        }
    }

    fn check_strikes(&self, c: &mut Check) {
        let s = &self.strikes;
        let w = &s.weights;
        for (name, value) in [
            ("note", w.note),
            ("warn", w.warn),
            ("timeout", w.timeout),
            ("kick", w.kick),
            ("ban", w.ban),
            ("jail", w.jail),
        ] {
            c.range(&format!("strikes.weights.{name}"), value, 0, 10);
        }
        c.range("strikes.expiry_days", s.expiry_days, 0, 3650);
        c.list("strikes.ladder", &s.ladder, 10);
        let mut previous_at = 0;
        for (i, step) in s.ladder.iter().enumerate() {
            let path = format!("strikes.ladder[{i}]");
            c.range(&format!("{path}.at"), step.at, 1, 100);
            if step.at <= previous_at {
                c.fail(
                    format!("{path}.at"),
                    format!("must be greater than the previous step's `at` ({previous_at})"),
                );
            }
            previous_at = step.at;
            let minutes_path = format!("{path}.minutes");
            match (step.action, step.minutes) {
                (LadderAction::Timeout, None) => {
                    c.fail(minutes_path, "is required for a timeout step")
                }
                (LadderAction::Timeout, Some(m)) => {
                    c.range(&minutes_path, m, 1, MAX_TIMEOUT_MINUTES)
                }
                (LadderAction::Jail, Some(m)) => c.range(&minutes_path, m, 1, MAX_JAIL_MINUTES),
                (LadderAction::Kick | LadderAction::Ban, Some(_)) => {
                    c.fail(minutes_path, "is only allowed for timeout and jail steps")
                }
                (LadderAction::Jail | LadderAction::Kick | LadderAction::Ban, None) => {}
            }
        }
    }

    fn check_jail(&self, c: &mut Check) {
        let j = &self.jail;
        c.role("jail.role_id", j.role_id.as_ref());
        c.channel("jail.channel_id", j.channel_id.as_ref());
        if j.enabled && j.role_id.is_none() && c.platform == Platform::Discord {
            c.fail("jail.role_id", "is required when jail is enabled");
        }
        if let Some(minutes) = j.default_minutes {
            c.range("jail.default_minutes", minutes, 1, MAX_JAIL_MINUTES);
        }
    }

    fn check_automod(&self, c: &mut Check) {
        let a = &self.automod;
        c.range(
            "automod.blocked_words.threshold",
            a.blocked_words.threshold,
            1,
            10,
        );
        c.list("automod.blocked_words.words", &a.blocked_words.words, 500);
        for (i, word) in a.blocked_words.words.iter().enumerate() {
            c.text(&format!("automod.blocked_words.words[{i}]"), word, 1, 100);
        }
        c.range(
            "automod.invite_links.threshold",
            a.invite_links.threshold,
            1,
            10,
        );
        c.list("automod.invite_links.allow", &a.invite_links.allow, 50);
        for (i, invite) in a.invite_links.allow.iter().enumerate() {
            let path = format!("automod.invite_links.allow[{i}]");
            c.text(&path, invite, 1, 200);
            if invite.chars().any(char::is_whitespace) {
                c.fail(
                    path,
                    format!("`{invite}` has a space: give a code such as `abc` or a link such as `discord.gg/abc`"),
                );
            }
        }
        c.range("automod.links.threshold", a.links.threshold, 1, 10);
        c.list("automod.links.allow", &a.links.allow, 200);
        for (i, domain) in a.links.allow.iter().enumerate() {
            if !is_domain(domain) {
                c.fail(
                    format!("automod.links.allow[{i}]"),
                    format!("`{domain}` is not a domain name such as `example.com`"),
                );
            }
        }
        c.range(
            "automod.mention_spam.threshold",
            a.mention_spam.threshold,
            2,
            50,
        );
        c.range("automod.caps.threshold", a.caps.threshold, 50, 100);
        c.range("automod.caps.min_letters", a.caps.min_letters, 1, 200);
        c.range(
            "automod.duplicates.threshold",
            a.duplicates.threshold,
            2,
            20,
        );
        c.range(
            "automod.duplicates.window_seconds",
            a.duplicates.window_seconds,
            5,
            3600,
        );
        c.list("automod.exempt_role_ids", &a.exempt_role_ids, 50);
        for (i, role) in a.exempt_role_ids.iter().enumerate() {
            c.role(&format!("automod.exempt_role_ids[{i}]"), Some(role));
        }
        c.list("automod.exempt_channel_ids", &a.exempt_channel_ids, 50);
        for (i, channel) in a.exempt_channel_ids.iter().enumerate() {
            c.channel(&format!("automod.exempt_channel_ids[{i}]"), Some(channel));
        }
    }

    fn check_logging(&self, c: &mut Check) {
        for (name, channel) in self.logging.channels() {
            c.channel(&format!("logging.{name}"), channel.as_ref());
        }
    }

    fn check_welcome(&self, c: &mut Check) {
        let w = &self.welcome;
        c.channel("welcome.channel_id", w.channel_id.as_ref());
        c.text("welcome.message", &w.message, 1, 2000);
        if let Some(bad) = unknown_placeholder(&w.message, &["user", "server"]) {
            c.fail(
                "welcome.message",
                format!("unknown placeholder `{{{bad}}}`: use {{user}} or {{server}}"),
            );
        }
        c.list("welcome.auto_role_ids", &w.auto_role_ids, 10);
        for (i, role) in w.auto_role_ids.iter().enumerate() {
            c.role(&format!("welcome.auto_role_ids[{i}]"), Some(role));
        }
        c.role("welcome.verified_role_id", w.verified_role_id.as_ref());
        c.channel("welcome.verify_channel_id", w.verify_channel_id.as_ref());
        c.range(
            "welcome.verify_within_minutes",
            w.verify_within_minutes,
            1,
            1440,
        );
        if w.verification != Verification::None
            && w.verified_role_id.is_none()
            && c.platform == Platform::Discord
        {
            c.fail(
                "welcome.verified_role_id",
                "is required when verification is not `none`",
            );
        }
        // Slack greets by DM: no channel to name there.
        if w.enabled && w.channel_id.is_none() && c.platform != Platform::Slack {
            c.fail("welcome.channel_id", "is required when welcome is enabled");
        }
    }

    fn check_antinuke(&self, c: &mut Check) {
        let a = &self.antinuke;
        if let Some(hours) = a.snapshot_interval_hours {
            c.range("antinuke.snapshot_interval_hours", hours, 1, 168);
        }
        c.range(
            "antinuke.max_channel_deletions_per_minute",
            a.max_channel_deletions_per_minute,
            1,
            50,
        );
        c.range(
            "antinuke.max_role_deletions_per_minute",
            a.max_role_deletions_per_minute,
            1,
            50,
        );
        c.range(
            "antinuke.max_bans_per_minute",
            a.max_bans_per_minute,
            1,
            100,
        );
        c.list("antinuke.trusted_user_ids", &a.trusted_user_ids, 50);
        for (i, user) in a.trusted_user_ids.iter().enumerate() {
            // An API key is a moderator too (its bans count): `key:<key id>`
            // trusts one, as the case's actor names it.
            let checked = match user.strip_prefix("key:") {
                Some(key_id) if crate::auth::is_key_id(key_id) => Ok(()),
                Some(_) => Err(format!(
                    "`key:` must be followed by a key id: {} lowercase letters or digits, as in `key:0r4ae0bn1txt`",
                    crate::auth::KEY_ID_LEN
                )),
                None => c
                    .platform
                    .validate_user_id(user)
                    .map_err(|e| format!("{e}, or `key:<key id>` for an API key")),
            };
            if let Err(e) = checked {
                c.fail(format!("antinuke.trusted_user_ids[{i}]"), e);
            }
        }
        c.list("antinuke.trusted_role_ids", &a.trusted_role_ids, 50);
        for (i, role) in a.trusted_role_ids.iter().enumerate() {
            c.role(&format!("antinuke.trusted_role_ids[{i}]"), Some(role));
        }
        if let Some(joins) = a.max_joins_per_minute {
            c.range("antinuke.max_joins_per_minute", joins, 1, 1000);
        }
        c.range("antinuke.lockdown_minutes", a.lockdown_minutes, 1, 1440);
    }

    fn check_webhooks(&self, c: &mut Check) {
        let w = &self.webhooks;
        if let Some(url) = &w.url
            && let Err(e) = check_webhook_url(url)
        {
            c.fail("webhooks.url", e);
        }
        if w.enabled && w.url.is_none() {
            c.fail("webhooks.url", "is required when webhooks are enabled");
        }
        if let SecretUpdate::Set(secret) = &w.secret {
            // Never echo the secret itself.
            if let Err(e) = crate::signing::SigningKey::parse(secret) {
                c.fail("webhooks.secret", e.to_string());
            }
        }
        let mut events = w.events.clone();
        events.sort();
        events.dedup();
        if events.len() != w.events.len() {
            c.fail("webhooks.events", "must not repeat an event kind");
        }
    }
}

fn is_locale(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let language = parts.next().unwrap_or_default();
    let region = parts.next();
    parts.next().is_none()
        && (2..=3).contains(&language.len())
        && language.bytes().all(|b| b.is_ascii_lowercase())
        && region.is_none_or(|r| r.len() == 2 && r.bytes().all(|b| b.is_ascii_uppercase()))
}

fn is_domain(domain: &str) -> bool {
    domain.len() <= 253
        && domain.contains('.')
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// `https://host[...]`, or `http://` to a loopback host (for local testing).
///
/// Parsed with the `url` crate, as every HTTP client parses it: a hand-made
/// split reads `http://169.254.169.254\@localhost/` as a URL for localhost,
/// while clients send it to 169.254.169.254. Which addresses may be reached
/// is decided again when a delivery is sent (the daemon's SSRF guard).
fn check_webhook_url(raw: &str) -> Result<(), String> {
    if raw.len() > 2000 {
        return Err("must be at most 2000 characters long".into());
    }
    let absolute = || "must be an absolute URL such as https://example.com/hook".to_owned();
    if raw.contains(char::is_whitespace) {
        return Err(absolute());
    }
    let url = url::Url::parse(raw).map_err(|_| absolute())?;
    let Some(host) = url.host() else {
        return Err(absolute());
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err("must not carry a user name or password before the host".into());
    }
    let loopback = match host {
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    };
    match url.scheme() {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        "http" => Err("must use https:// (http:// is only allowed for localhost)".into()),
        other => Err(format!("unsupported scheme `{other}`: use https://")),
    }
}

/// The first `{name}` in `text` that is not one of `allowed`.
fn unknown_placeholder<'a>(text: &'a str, allowed: &[&str]) -> Option<&'a str> {
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let end = after.find('}')?;
        let name = &after[..end];
        if !allowed.contains(&name) {
            return Some(name);
        }
        rest = &after[end + 1..];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::check_webhook_url;

    #[test]
    fn webhook_urls_are_judged_as_http_clients_parse_them() {
        // Sent to 169.254.169.254 by every client: not a localhost URL.
        assert!(check_webhook_url("http://169.254.169.254\\@localhost/").is_err());
        assert!(check_webhook_url("http://user@localhost/").is_err());
        assert!(check_webhook_url("http://example.com/hook").is_err());
        for ok in [
            "https://example.com/hook",
            "http://localhost:8080/hook",
            "http://127.0.0.1:9/",
            "http://[::1]:9/",
        ] {
            assert_eq!(check_webhook_url(ok), Ok(()), "{ok}");
        }
        for bad in [
            "example.com/hook",
            "https://",
            "https://exa mple.com",
            "ftp://x.org/",
        ] {
            assert!(check_webhook_url(bad).is_err(), "{bad}");
        }
    }

    /// The fields issue #26 added: each refused out of range or of the wrong
    /// platform's shape, by its path.
    #[test]
    fn the_verification_and_antinuke_fields_are_checked() {
        use crate::Platform;
        use crate::config::Sections;
        let paths = |change: &dyn Fn(&mut Sections)| {
            let mut config = Sections::default();
            change(&mut config);
            config
                .validate(Platform::Discord)
                .into_iter()
                .map(|e| e.path)
                .collect::<Vec<_>>()
        };
        assert!(paths(&|_| {}).is_empty());
        type Case<'a> = (&'a dyn Fn(&mut Sections), &'a str);
        let cases: [Case<'_>; 9] = [
            (
                &|c| c.welcome.verify_within_minutes = 0,
                "welcome.verify_within_minutes",
            ),
            (
                &|c| c.welcome.verify_within_minutes = 1441,
                "welcome.verify_within_minutes",
            ),
            (
                &|c| c.welcome.verify_channel_id = Some("C123".into()),
                "welcome.verify_channel_id",
            ),
            (
                &|c| c.antinuke.trusted_user_ids = vec!["@alice".into()],
                "antinuke.trusted_user_ids[0]",
            ),
            (
                &|c| c.antinuke.trusted_user_ids = vec!["key:ABC".into()],
                "antinuke.trusted_user_ids[0]",
            ),
            (
                &|c| c.antinuke.trusted_user_ids = vec!["key:0r4ae0bn1txt1".into()],
                "antinuke.trusted_user_ids[0]",
            ),
            (
                &|c| c.antinuke.trusted_role_ids = vec!["x".into()],
                "antinuke.trusted_role_ids[0]",
            ),
            (
                &|c| c.antinuke.max_joins_per_minute = Some(0),
                "antinuke.max_joins_per_minute",
            ),
            (
                &|c| c.antinuke.lockdown_minutes = 1441,
                "antinuke.lockdown_minutes",
            ),
        ];
        for (change, path) in cases {
            assert_eq!(paths(change), [path]);
        }
        let fine = paths(&|c| {
            c.welcome.verify_within_minutes = 1440;
            c.antinuke.trusted_user_ids =
                vec!["100000000000000001".into(), "key:0r4ae0bn1txt".into()];
            c.antinuke.max_joins_per_minute = Some(1000);
        });
        assert!(fine.is_empty(), "{fine:?}");
    }

    /// An enabled welcome needs `channel_id` where the greeting is posted
    /// in a channel, not on Slack, which greets by DM.
    #[test]
    fn welcome_channel_id_is_required_except_on_slack() {
        use crate::Platform;
        use crate::config::Sections;
        let mut config = Sections::default();
        config.welcome.enabled = true;
        for (platform, want) in [
            (Platform::Discord, vec!["welcome.channel_id"]),
            (Platform::Telegram, vec!["welcome.channel_id"]),
            (Platform::Slack, vec![]),
        ] {
            let paths: Vec<_> = config
                .validate(platform)
                .into_iter()
                .map(|e| e.path)
                .collect();
            assert_eq!(paths, want, "{platform:?}");
        }
    }
}
