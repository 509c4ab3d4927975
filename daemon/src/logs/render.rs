//! A log entry as a post: [`render`], a pure function from a [`LogEntry`] to
//! a platform-neutral [`Post`] (title, text, fields), which each adapter
//! formats for its platform without pinging anyone.
//!
//! Every word a log post shows comes from the server's `general.locale`
//! through [`crate::locale`] (the `log-*` messages of its Fluent catalogs; a
//! locale or key without a translation falls back to English); the values
//! filled in (ids, reasons, quoted messages) are never translated.

use modctl_types::moderation::Case;

use super::{AutomodHit, LockdownLog, LogEntry, Member};
use crate::locale::{self, Arg};
use crate::platform::Post;

/// The words of one post, in one locale.
struct Words<'a> {
    locale: &'a str,
}

impl Words<'_> {
    /// The text of `key` (`case.title` is the catalogs' `log-case-title`)
    /// with each `{name}` filled with its value.
    fn text(&self, key: &str, values: &[(&str, &str)]) -> String {
        let id = format!("log-{}", key.replace(['.', '_'], "-"));
        let args: Vec<(&str, Arg<'_>)> = values
            .iter()
            .map(|(name, value)| (*name, Arg::Text((*value).into())))
            .collect();
        locale::t(self.locale, &id, &args)
    }

    fn t(&self, key: &str) -> String {
        self.text(key, &[])
    }

    fn text_of(&self, key: &str, name: &str, value: &str) -> String {
        self.text(key, &[(name, value)])
    }
}

/// The post of `entry`, in `locale` (the server's `general.locale`).
pub fn render(entry: &LogEntry, locale: &str) -> Post {
    let w = &Words { locale };
    match entry {
        LogEntry::Case(case) => render_case(w, case),
        LogEntry::Config(audit) => {
            let text = audit
                .changes
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.path,
                        w.text(
                            "config.change",
                            &[
                                ("before", &c.before.to_string()),
                                ("after", &c.after.to_string())
                            ]
                        )
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
            Post::text(text)
                .titled(w.text_of("config.title", "section", audit.section.as_str()))
                .field(w.t("config.by"), audit.actor.clone())
                .field(w.t("config.revision"), audit.revision.to_string())
        }
        LogEntry::AutomodHit(hit) => render_hit(w, hit),
        LogEntry::MessageDeleted {
            channel_id,
            message_id,
            author_id,
            content,
        } => {
            let mut post = Post::text(content.clone().unwrap_or_else(|| w.t("deleted.unknown")))
                .titled(w.t("deleted.title"));
            if let Some(author) = author_id {
                post = post.field(w.t("message.author"), author.clone());
            }
            post.field(w.t("message.channel"), channel_id.clone())
                .field(w.t("message.id"), message_id.clone())
        }
        LogEntry::MessageEdited {
            channel_id,
            message_id,
            author_id,
            before,
            after,
        } => Post::text("")
            .titled(w.t("edited.title"))
            .field(
                w.t("edited.before"),
                before.clone().unwrap_or_else(|| w.t("edited.unknown")),
            )
            .field(
                w.t("edited.after"),
                after.clone().unwrap_or_else(|| w.t("edited.unknown")),
            )
            .field(w.t("message.author"), author_id.clone())
            .field(w.t("message.channel"), channel_id.clone())
            .field(w.t("message.id"), message_id.clone()),
        LogEntry::MemberJoined(member) => render_member(w, "joined.title", member),
        LogEntry::MemberLeft(member) => render_member(w, "left.title", member),
        LogEntry::Lockdown(log) => render_lockdown(w, log),
        LogEntry::Antinuke(stopped) => Post::text(stopped.trigger.clone())
            .titled(w.t("antinuke.title"))
            .field(w.t("antinuke.executor"), stopped.executor_id.clone())
            .field(w.t("antinuke.action"), stopped.action.clone())
            .field(w.t("antinuke.outcome"), stopped.outcome.clone()),
    }
}

fn render_lockdown(w: &Words<'_>, log: &LockdownLog) -> Post {
    let lockdown = &log.lockdown;
    if log.started {
        let mut post = Post::text(lockdown.why.clone())
            .titled(w.t("lockdown.started_title"))
            .field(w.t("lockdown.by"), lockdown.started_by.clone())
            .field(w.t("lockdown.until"), lockdown.ends_at.to_string());
        if let Some(outcome) = &lockdown.start_outcome {
            post = post.field(w.t("lockdown.platform"), outcome.clone());
        }
        return post;
    }
    let mut post = Post::text(lockdown.why.clone())
        .titled(w.t("lockdown.ended_title"))
        .field(
            w.t("lockdown.ended_by"),
            lockdown.ended_by.clone().unwrap_or_default(),
        )
        .field(w.t("lockdown.held"), lockdown.members_held.to_string());
    if let Some(outcome) = &lockdown.end_outcome {
        post = post.field(w.t("lockdown.platform"), outcome.clone());
    }
    post
}

fn render_case(w: &Words<'_>, case: &Case) -> Post {
    let number = case.id.to_string();
    let mut post = Post::text("")
        .titled(w.text(
            "case.title",
            &[("number", &number), ("action", case.action.as_str())],
        ))
        .field(w.t("case.member"), case.user_id.clone())
        // The moderator's name beside the key id, as the case recorded it
        // (issue #27): a person, and the key to tell two Mias apart.
        .field(
            w.t("case.moderator"),
            match &case.actor_name {
                Some(name) => format!("{name} ({})", case.actor),
                None => case.actor.clone(),
            },
        )
        .field(
            w.t("case.reason"),
            case.reason.clone().unwrap_or_else(|| w.t("case.no_reason")),
        );
    if let Some(minutes) = case.minutes {
        post = post.field(
            w.t("case.duration"),
            w.text_of("case.minutes", "minutes", &minutes.to_string()),
        );
    }
    post = post.field(w.t("case.source"), case.source.as_str());
    if let Some(linked) = case.linked_case_id {
        post = post.field(
            w.t("case.linked"),
            w.text_of("case.linked_value", "number", &linked.to_string()),
        );
    }
    post.field(w.t("case.outcome"), case.detail.clone())
}

fn render_hit(w: &Words<'_>, hit: &AutomodHit) -> Post {
    let mut post = Post::text("")
        .titled(w.text_of("automod.title", "filter", &hit.filter))
        .field(w.t("automod.member"), hit.user_id.clone());
    if let Some(channel) = &hit.channel_id {
        post = post.field(w.t("automod.channel"), channel.clone());
    }
    if let Some(matched) = &hit.matched {
        post = post.field(w.t("automod.matched"), matched.clone());
    }
    post = post
        .field(w.t("automod.action"), hit.action.clone())
        .field(w.t("automod.outcome"), hit.outcome.clone());
    if let Some(case) = hit.case_id {
        post = post.field(
            w.t("automod.case"),
            w.text_of("case.linked_value", "number", &case.to_string()),
        );
    }
    post
}

fn render_member(w: &Words<'_>, title: &str, member: &Member) -> Post {
    let mut post = Post::text("")
        .titled(w.t(title))
        .field(w.t("member.id"), member.user_id.clone());
    if let Some(name) = &member.display_name {
        post = post.field(w.t("member.name"), name.clone());
    }
    if member.is_bot {
        post = post.field(w.t("member.bot"), w.t("yes"));
    }
    if let Some(channel) = &member.channel_id {
        post = post.field(w.t("member.channel"), channel.clone());
    }
    post
}

#[cfg(test)]
mod tests {
    use modctl_types::Platform;
    use modctl_types::Timestamp;
    use modctl_types::config::{AuditEntry, AuditSource, FieldChange, SectionName};
    use modctl_types::moderation::{Action, CaseSource, CaseState};
    use serde_json::json;

    use super::*;

    #[test]
    fn placeholders_fill_and_a_missing_key_shows_itself() {
        let en = Words { locale: "en" };
        assert_eq!(en.text("case.minutes", &[("minutes", "60")]), "60 min");
        assert_eq!(en.t("no.such.key"), "log-no-such-key");
        let de = Words { locale: "de" };
        assert_eq!(
            de.text_of("case.title", "number", "7"),
            "Fall #7: {$action}"
        );
        // A locale without a catalog reads English.
        assert_eq!(Words { locale: "fr" }.t("case.reason"), "Reason");
    }

    /// An entry, and its post's title, text and fields.
    type Rendered = (
        LogEntry,
        &'static str,
        &'static str,
        Vec<(&'static str, &'static str)>,
    );

    #[test]
    fn entries_render_to_posts() {
        let case = Case {
            id: 7,
            action: Action::Timeout,
            user_id: "42".into(),
            actor: "key:abc".into(),
            reason: Some("spam @everyone".into()),
            minutes: Some(60),
            expires_at: None,
            delete_message_days: None,
            applied: true,
            platform: Platform::Discord,
            detail: "timed out".into(),
            created_at: Timestamp::UNIX_EPOCH,
            source: CaseSource::Escalation,
            linked_case_id: Some(6),
            state: CaseState::Settled,
            dm: None,
            actor_name: None,
            voided: None,
            corrections: Vec::new(),
            user_name: None,
        };
        let audit = AuditEntry {
            id: 1,
            at: Timestamp::UNIX_EPOCH,
            actor: "key:abc".into(),
            section: SectionName::Webhooks,
            source: AuditSource::Api,
            revision: 3,
            changes: vec![FieldChange {
                path: "webhooks.secret".into(),
                before: json!(null),
                after: json!("<redacted>"),
            }],
        };
        let cases: Vec<Rendered> = vec![
            (
                LogEntry::Case(case),
                "Case #7: timeout",
                "",
                vec![
                    ("Member", "42"),
                    ("Moderator", "key:abc"),
                    ("Reason", "spam @everyone"),
                    ("Duration", "60 min"),
                    ("Source", "escalation"),
                    ("Because of", "case #6"),
                    ("Outcome", "timed out"),
                ],
            ),
            (
                LogEntry::Config(audit),
                "Config changed: webhooks",
                "webhooks.secret: null → \"<redacted>\"",
                vec![("By", "key:abc"), ("Revision", "3")],
            ),
            (
                LogEntry::MessageDeleted {
                    channel_id: "c1".into(),
                    message_id: "m1".into(),
                    author_id: None,
                    content: None,
                },
                "Message deleted",
                "content unknown: the daemon did not see this message",
                vec![("Channel", "c1"), ("Message", "m1")],
            ),
            (
                LogEntry::MessageEdited {
                    channel_id: "c1".into(),
                    message_id: "m1".into(),
                    author_id: "u1".into(),
                    before: Some("old".into()),
                    after: None,
                },
                "Message edited",
                "",
                vec![
                    ("Before", "old"),
                    ("After", "unknown"),
                    ("Author", "u1"),
                    ("Channel", "c1"),
                    ("Message", "m1"),
                ],
            ),
            (
                LogEntry::MemberLeft(Member {
                    user_id: "u2".into(),
                    display_name: Some("Ada".into()),
                    is_bot: true,
                    channel_id: None,
                }),
                "Member left",
                "",
                vec![("Member", "u2"), ("Name", "Ada"), ("Bot", "yes")],
            ),
        ];
        for (entry, title, body, fields) in cases {
            let post = render(&entry, "en");
            assert_eq!(post.title.as_deref(), Some(title), "{entry:?}");
            assert_eq!(post.text, body, "{entry:?}");
            let got: Vec<(&str, &str)> = post
                .fields
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            assert_eq!(got, fields, "{entry:?}");
        }
    }

    #[test]
    fn a_named_moderator_is_shown_beside_the_key_id() {
        let case: Case = serde_json::from_value(json!({
            "id": 3, "action": "warn", "user_id": "42", "actor": "key:abc",
            "actor_name": "Mia", "reason": null, "minutes": null, "expires_at": null,
            "delete_message_days": null, "applied": true, "platform": "discord",
            "detail": "warned", "created_at": "2026-11-27T10:00:00Z", "source": "api",
            "linked_case_id": null
        }))
        .unwrap();
        let post = render(&LogEntry::Case(case), "en");
        assert!(
            post.fields
                .iter()
                .any(|(n, v)| n == "Moderator" && v == "Mia (key:abc)"),
            "{:?}",
            post.fields
        );
    }

    #[test]
    fn a_server_in_another_locale_gets_its_words_and_keeps_its_values() {
        let entry = LogEntry::MemberLeft(Member {
            user_id: "u2".into(),
            display_name: Some("Ada".into()),
            is_bot: true,
            channel_id: None,
        });
        for (locale, title, fields) in [
            (
                "pt-BR",
                "Membro saiu",
                [("Membro", "u2"), ("Nome", "Ada"), ("Bot", "sim")],
            ),
            (
                "de",
                "Mitglied gegangen",
                [("Mitglied", "u2"), ("Name", "Ada"), ("Bot", "ja")],
            ),
        ] {
            let post = render(&entry, locale);
            assert_eq!(post.title.as_deref(), Some(title));
            let got: Vec<(&str, &str)> = post
                .fields
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            assert_eq!(got, fields, "{locale}");
        }
    }
}
