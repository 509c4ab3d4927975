//! Channel and role mentions in topics (`<#id>`, `<@&id>`) during a
//! restore: remapped to the new ids, and which topics to set again once
//! everything they mention exists.

use std::collections::HashMap;

use modctl_types::restore::{ItemKind, ItemOutcome, PlanStep};
use modctl_types::snapshot::StructureContent;

use crate::store::restore::{JobRun, RunItem};

/// (live channel, snapshot topic) of the channels `job` created whose topic
/// mentions a role or channel the job created after it: when the channel
/// was created that mention had no new id to point at yet.
pub(super) fn topics_to_fix(job: &JobRun) -> Vec<(String, String)> {
    let StructureContent::Discord(guild) = &job.content else {
        return Vec::new();
    };
    let created =
        |item: &RunItem| item.planned.step == PlanStep::Create && item.outcome == ItemOutcome::Done;
    let order: HashMap<&str, usize> = job
        .items
        .iter()
        .enumerate()
        .filter(|(_, item)| created(item))
        .map(|(index, item)| (item.planned.snapshot_id.as_str(), index))
        .collect();
    job.items
        .iter()
        .enumerate()
        .filter(|(_, item)| {
            matches!(item.planned.kind, ItemKind::Category | ItemKind::Channel) && created(item)
        })
        .filter_map(|(index, item)| {
            let live = item.live_id.clone()?;
            let channel = guild
                .channels
                .iter()
                .find(|c| c.id == item.planned.snapshot_id)?;
            let topic = channel.topic.as_deref()?;
            mentions(topic)
                .any(|id| order.get(id).is_some_and(|&later| later > index))
                .then(|| (live, topic.to_owned()))
        })
        .collect()
}

/// The ids of `text`'s `<#id>` and `<@&id>` mentions.
pub(super) fn mentions(text: &str) -> impl Iterator<Item = &str> {
    text.split('<').skip(1).filter_map(|part| {
        let rest = part.strip_prefix("@&").or_else(|| part.strip_prefix('#'))?;
        let id = &rest[..rest.find('>')?];
        (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
    })
}

/// `text` with its `<#id>` and `<@&id>` mentions pointing at the live ids
/// of `resolved`; mentions of anything else are kept as they are.
pub fn remap_mentions(text: &str, resolved: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let prefix = ["<@&", "<#"].into_iter().find(|p| tail.starts_with(p));
        let mention = prefix.and_then(|prefix| {
            let digits = &tail[prefix.len()..];
            let end = digits.find('>')?;
            let id = &digits[..end];
            (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
                .then(|| (prefix, id, prefix.len() + end + 1))
        });
        match mention {
            Some((prefix, id, len)) => {
                let live = resolved.get(id).map_or(id, String::as_str);
                out.push_str(prefix);
                out.push_str(live);
                out.push('>');
                rest = &tail[len..];
            }
            None => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_and_role_mentions_follow_the_id_map_and_the_rest_is_kept() {
        let resolved = HashMap::from([
            ("11".to_owned(), "91".to_owned()),
            ("22".to_owned(), "92".to_owned()),
        ]);
        assert_eq!(
            remap_mentions(
                "see <#11>, ask <@&22> or <@33>; <#44> <# 11> <#11",
                &resolved
            ),
            "see <#91>, ask <@&92> or <@33>; <#44> <# 11> <#11"
        );
        assert_eq!(
            remap_mentions("no mentions: a < b", &resolved),
            "no mentions: a < b"
        );
        let found: Vec<&str> = mentions("<#11> <@&22> <@33> <#x> <#44").collect();
        assert_eq!(found, ["11", "22"]);
    }

    /// The topics to set again come from the job's recorded items, so a run
    /// resumed after the channels were created finds them too.
    #[test]
    fn topics_mentioning_a_later_creation_are_set_again() {
        use modctl_types::restore::PlanItem;
        use modctl_types::snapshot::{DiscordChannel, DiscordGuildSettings, DiscordStructure};
        let channel = |id: &str, topic: &str| DiscordChannel {
            id: id.into(),
            kind: 0,
            name: format!("c{id}"),
            topic: Some(topic.into()),
            nsfw: false,
            rate_limit_per_user: None,
            bitrate: None,
            user_limit: None,
            parent_id: None,
            position: 0,
            permission_overwrites: Vec::new(),
        };
        let item = |seq: i64, id: &str, step: PlanStep, outcome: ItemOutcome| RunItem {
            seq,
            planned: PlanItem {
                kind: ItemKind::Channel,
                snapshot_id: id.into(),
                name: format!("c{id}"),
                step,
                matched_by: None,
                live_id: None,
                detail: String::new(),
            },
            outcome,
            live_id: (outcome == ItemOutcome::Done).then(|| format!("9{id}")),
        };
        let job = JobRun {
            id: 1,
            server_id: "s".into(),
            snapshot_id: 1,
            actor: "operator".into(),
            content: StructureContent::Discord(DiscordStructure {
                settings: DiscordGuildSettings {
                    name: "g".into(),
                    verification_level: 0,
                    default_message_notifications: 0,
                    explicit_content_filter: 0,
                    system_channel_id: None,
                    rules_channel_id: None,
                },
                roles: Vec::new(),
                channels: vec![
                    channel("1", "see <#2>"),
                    channel("2", "see <#1>"),
                    channel("3", "see <#4>"),
                    channel("5", "see <#2>"),
                ],
            }),
            items: vec![
                // Created, mentions 2, created after it: set again.
                item(1, "1", PlanStep::Create, ItemOutcome::Done),
                // Created, mentions 1, created before it: its topic was right.
                item(2, "2", PlanStep::Create, ItemOutcome::Done),
                // Mentions 4, which the job never created: nothing to fix.
                item(3, "3", PlanStep::Create, ItemOutcome::Done),
                // Present: the restore did not set its topic at all.
                item(4, "5", PlanStep::Present, ItemOutcome::Done),
            ],
            roles_positioned: true,
            config_remapped: false,
        };
        assert_eq!(
            topics_to_fix(&job),
            [("91".to_owned(), "see <#2>".to_owned())]
        );
    }
}
