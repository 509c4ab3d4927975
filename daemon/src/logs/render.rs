//! A log entry as a post: [`render`], a pure function from a [`LogEntry`] to
//! a platform-neutral [`Post`] (title, text, fields), which each adapter
//! formats for its platform without pinging anyone.
//!
//! Every word a log post shows is in [`TEXTS`], one table of message keys
//! and their English text, so `general.locale` translations replace the
//! table's texts key by key (an unknown key falls back to English); the
//! values filled in (ids, reasons, quoted messages) are never translated.

use modctl_types::moderation::Case;

use super::{AutomodHit, LogEntry, Member};
use crate::platform::Post;

/// The words of log posts, by key: the one place to translate.
pub const TEXTS: &[(&str, &str)] = &[
    ("case.title", "Case #{number}: {action}"),
    ("case.member", "Member"),
    ("case.moderator", "Moderator"),
    ("case.reason", "Reason"),
    ("case.no_reason", "no reason given"),
    ("case.duration", "Duration"),
    ("case.minutes", "{minutes} min"),
    ("case.source", "Source"),
    ("case.linked", "Because of"),
    ("case.linked_value", "case #{number}"),
    ("case.outcome", "Outcome"),
    ("config.title", "Config changed: {section}"),
    ("config.by", "By"),
    ("config.revision", "Revision"),
    ("config.change", "{before} → {after}"),
    ("automod.title", "Automod: {filter}"),
    ("automod.member", "Member"),
    ("automod.channel", "Channel"),
    ("automod.matched", "Matched"),
    ("automod.action", "Action"),
    ("automod.outcome", "Message"),
    ("automod.case", "Case"),
    ("deleted.title", "Message deleted"),
    (
        "deleted.unknown",
        "content unknown: the daemon did not see this message",
    ),
    ("message.author", "Author"),
    ("message.channel", "Channel"),
    ("message.id", "Message"),
    ("edited.title", "Message edited"),
    ("edited.before", "Before"),
    ("edited.after", "After"),
    ("edited.unknown", "unknown"),
    ("joined.title", "Member joined"),
    ("left.title", "Member left"),
    ("member.id", "Member"),
    ("member.name", "Name"),
    ("member.bot", "Bot"),
    ("member.channel", "Channel"),
    ("yes", "yes"),
];

/// The English text of `key` with each `{name}` replaced by its value.
/// A key missing from [`TEXTS`] is shown as itself, so a typo is visible
/// rather than an empty field.
pub fn text(key: &str, values: &[(&str, &str)]) -> String {
    let template = TEXTS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(key, |(_, text)| *text);
    values
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

fn t(key: &str) -> String {
    text(key, &[])
}

/// The post of `entry`.
pub fn render(entry: &LogEntry) -> Post {
    match entry {
        LogEntry::Case(case) => render_case(case),
        LogEntry::Config(audit) => {
            let text = audit
                .changes
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.path,
                        text(
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
                .titled(text_of("config.title", "section", audit.section.as_str()))
                .field(t("config.by"), audit.actor.clone())
                .field(t("config.revision"), audit.revision.to_string())
        }
        LogEntry::AutomodHit(hit) => render_hit(hit),
        LogEntry::MessageDeleted {
            channel_id,
            message_id,
            author_id,
            content,
        } => {
            let mut post = Post::text(content.clone().unwrap_or_else(|| t("deleted.unknown")))
                .titled(t("deleted.title"));
            if let Some(author) = author_id {
                post = post.field(t("message.author"), author.clone());
            }
            post.field(t("message.channel"), channel_id.clone())
                .field(t("message.id"), message_id.clone())
        }
        LogEntry::MessageEdited {
            channel_id,
            message_id,
            author_id,
            before,
            after,
        } => Post::text("")
            .titled(t("edited.title"))
            .field(
                t("edited.before"),
                before.clone().unwrap_or_else(|| t("edited.unknown")),
            )
            .field(
                t("edited.after"),
                after.clone().unwrap_or_else(|| t("edited.unknown")),
            )
            .field(t("message.author"), author_id.clone())
            .field(t("message.channel"), channel_id.clone())
            .field(t("message.id"), message_id.clone()),
        LogEntry::MemberJoined(member) => render_member("joined.title", member),
        LogEntry::MemberLeft(member) => render_member("left.title", member),
    }
}

fn text_of(key: &str, name: &str, value: &str) -> String {
    text(key, &[(name, value)])
}

fn render_case(case: &Case) -> Post {
    let number = case.id.to_string();
    let mut post = Post::text("")
        .titled(text(
            "case.title",
            &[("number", &number), ("action", case.action.as_str())],
        ))
        .field(t("case.member"), case.user_id.clone())
        .field(t("case.moderator"), case.actor.clone())
        .field(
            t("case.reason"),
            case.reason.clone().unwrap_or_else(|| t("case.no_reason")),
        );
    if let Some(minutes) = case.minutes {
        post = post.field(
            t("case.duration"),
            text_of("case.minutes", "minutes", &minutes.to_string()),
        );
    }
    post = post.field(t("case.source"), case.source.as_str());
    if let Some(linked) = case.linked_case_id {
        post = post.field(
            t("case.linked"),
            text_of("case.linked_value", "number", &linked.to_string()),
        );
    }
    post.field(t("case.outcome"), case.detail.clone())
}

fn render_hit(hit: &AutomodHit) -> Post {
    let mut post = Post::text("")
        .titled(text_of("automod.title", "filter", &hit.filter))
        .field(t("automod.member"), hit.user_id.clone());
    if let Some(channel) = &hit.channel_id {
        post = post.field(t("automod.channel"), channel.clone());
    }
    if let Some(matched) = &hit.matched {
        post = post.field(t("automod.matched"), matched.clone());
    }
    post = post
        .field(t("automod.action"), hit.action.clone())
        .field(t("automod.outcome"), hit.outcome.clone());
    if let Some(case) = hit.case_id {
        post = post.field(
            t("automod.case"),
            text_of("case.linked_value", "number", &case.to_string()),
        );
    }
    post
}

fn render_member(title: &str, member: &Member) -> Post {
    let mut post = Post::text("")
        .titled(t(title))
        .field(t("member.id"), member.user_id.clone());
    if let Some(name) = &member.display_name {
        post = post.field(t("member.name"), name.clone());
    }
    if member.is_bot {
        post = post.field(t("member.bot"), t("yes"));
    }
    if let Some(channel) = &member.channel_id {
        post = post.field(t("member.channel"), channel.clone());
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
    fn every_key_used_is_in_the_table_and_placeholders_fill() {
        let keys: Vec<&str> = TEXTS.iter().map(|(k, _)| *k).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "a key is listed twice");
        assert_eq!(text("case.minutes", &[("minutes", "60")]), "60 min");
        assert_eq!(text("no.such.key", &[]), "no.such.key");
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
            let post = render(&entry);
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
}
