use std::sync::Mutex;

use async_trait::async_trait;
use modctl_types::config::{Automod, FilterAction};
use serde_json::json;
use twilight_model::guild::auto_moderation::AutoModerationRule;

use super::sync::{Report, is_due, reconcile};
use super::*;
use crate::platform::{NativeRules, PlatformError, PlatformResult};
use crate::store::native_rules::LastSync;

const BOT: u64 = 42;

fn cx() -> Context<'static> {
    Context { own_invites: &[] }
}

fn words(list: &[&str]) -> Automod {
    let mut a = Automod::default();
    a.blocked_words.enabled = true;
    a.blocked_words.words = list.iter().map(|w| (*w).to_owned()).collect();
    a
}

fn daemon(why: &str) -> Placement {
    Placement::Daemon { why: why.into() }
}

fn native() -> Placement {
    Placement::Native { rule_id: None }
}

/// A name, a section, and where its enabled filters should run.
type PlacementCase = (&'static str, Automod, Vec<(FilterName, Placement)>);

/// A name, the rules wanted, the guild's rules, the steps expected, and
/// how many wanted rules are already as wanted.
type DiffCase = (
    &'static str,
    Vec<Wanted>,
    Vec<AutoModerationRule>,
    Vec<&'static str>,
    usize,
);

/// Where each enabled filter goes, by config: the limits of
/// discord-docs/auto-moderation.mdx decide.
#[test]
fn filters_are_placed_where_discord_can_carry_them() {
    let long = "x".repeat(61);
    let many_roles: Vec<String> = (1..=21).map(|n| n.to_string()).collect();
    let cases: Vec<PlacementCase> = vec![
        ("nothing enabled", Automod::default(), vec![]),
        (
            "words",
            words(&["spam", "scam*"]),
            vec![(FilterName::BlockedWords, native())],
        ),
        ("an empty list has nothing to run", words(&[" * "]), vec![]),
        (
            "a word over 60 characters",
            words(&["ok", &long]),
            vec![(
                FilterName::BlockedWords,
                daemon("longer than the 60 characters"),
            )],
        ),
        (
            "a threshold of two words",
            {
                let mut a = words(&["a"]);
                a.blocked_words.threshold = 2;
                a
            },
            vec![(FilterName::BlockedWords, daemon("threshold of 2 words"))],
        ),
        (
            "21 exempt roles",
            {
                let mut a = words(&["a"]);
                a.exempt_role_ids = many_roles.clone();
                a.mention_spam.enabled = true;
                a
            },
            vec![
                (FilterName::BlockedWords, daemon("at most 20")),
                (FilterName::MentionSpam, daemon("at most 20")),
            ],
        ),
        (
            "an exempt id that is no snowflake",
            {
                let mut a = words(&["a"]);
                a.exempt_channel_ids = vec!["general".into()];
                a
            },
            vec![(FilterName::BlockedWords, daemon("not a Discord id"))],
        ),
        (
            "every filter",
            {
                let mut a = words(&["a"]);
                a.invite_links.enabled = true;
                a.links.enabled = true;
                a.mention_spam.enabled = true;
                a.caps.enabled = true;
                a.duplicates.enabled = true;
                a
            },
            vec![
                (FilterName::BlockedWords, native()),
                (FilterName::InviteLinks, native()),
                (FilterName::Links, daemon("allow-list")),
                (FilterName::MentionSpam, native()),
                (FilterName::Caps, daemon("capitals")),
                (FilterName::Duplicates, daemon("repeated")),
            ],
        ),
        (
            "two invites needed",
            {
                let mut a = Automod::default();
                a.invite_links.enabled = true;
                a.invite_links.threshold = 2;
                a
            },
            vec![(FilterName::InviteLinks, daemon("threshold of 2 invites"))],
        ),
    ];
    for (name, section, expected) in cases {
        let plan = plan(&section, cx());
        assert_eq!(
            plan.placements.len(),
            expected.len(),
            "{name}: {:?}",
            plan.placements
        );
        for ((filter, got), (want_filter, want)) in plan.placements.iter().zip(&expected) {
            assert_eq!(filter, want_filter, "{name}");
            match (got, want) {
                (Placement::Daemon { why }, Placement::Daemon { why: part }) => {
                    assert!(
                        why.contains(part.as_str()),
                        "{name}: {why:?} lacks {part:?}"
                    );
                }
                (got, want) => assert_eq!(got, want, "{name}"),
            }
        }
        let natives = expected.iter().filter(|(_, p)| *p == native()).count();
        assert_eq!(
            plan.rules.len(),
            natives,
            "{name}: one rule per native filter"
        );
    }
}

/// The rules' fields: names, keywords as written, exemptions as sorted
/// sets, the mention limit one below the threshold, TIMEOUT for a timeout
/// filter, the own invites allowed.
#[test]
fn rules_carry_the_filters_settings() {
    let mut section = words(&["spam", "  scam*", "spam"]);
    section.exempt_role_ids = vec!["30".into(), "20".into(), "30".into()];
    section.exempt_channel_ids = vec!["7".into()];
    section.mention_spam.enabled = true;
    section.mention_spam.threshold = 6;
    section.mention_spam.action = FilterAction::Timeout;
    section.invite_links.enabled = true;
    // Allowed by hand in the config, beside what was learned.
    section.invite_links.allow = vec!["partner".into()];
    let own = vec!["discord.gg/ours".to_owned()];
    let plan = plan(&section, Context { own_invites: &own });
    let [words, invites, mentions] = &plan.rules[..] else {
        panic!("{plan:?}")
    };
    let spec = serde_json::to_value(&words.spec).unwrap();
    assert_eq!(spec["name"], "modctl: blocked words");
    assert_eq!(spec["trigger_type"], 1);
    assert_eq!(
        spec["trigger_metadata"]["keyword_filter"],
        json!(["scam*", "spam"])
    );
    assert_eq!(spec["exempt_roles"], json!(["20", "30"]));
    assert_eq!(spec["exempt_channels"], json!(["7"]));
    assert_eq!(spec["actions"], json!([{"type": 1}]));
    assert_eq!(spec["enabled"], true);

    let spec = serde_json::to_value(&invites.spec).unwrap();
    assert_eq!(spec["name"], "modctl: invite links");
    assert_eq!(
        spec["trigger_metadata"]["regex_patterns"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        spec["trigger_metadata"]["allow_list"],
        json!([
            "*discord.com/invite/ours",
            "*discord.com/invite/partner",
            "*discord.gg/ours",
            "*discord.gg/partner"
        ])
    );

    let spec = serde_json::to_value(&mentions.spec).unwrap();
    assert_eq!(spec["name"], "modctl: mention spam");
    assert_eq!(spec["trigger_type"], 5);
    assert_eq!(spec["trigger_metadata"]["mention_total_limit"], 5);
    // A `timeout` filter blocks only: the daemon's case times out, once.
    assert_eq!(spec["actions"], json!([{"type": 1}]));
}

/// The invite rule's allow list keeps within Discord's 100 entries (two per
/// invite): the config's entries first, then the vanity code (the first
/// learned), then the others in order; the rule is kept and the plan notes
/// how many were left out.
#[test]
fn the_invite_allow_list_is_capped_at_the_limit_never_dropped() {
    let mut section = Automod::default();
    section.invite_links.enabled = true;
    section.invite_links.allow = vec!["discord.com/invite/partner".into(), "t.me/+Tg".into()];
    for (invites, kept, left_out) in [
        (0, 1, None),
        (48, 49, None),
        (49, 50, None),
        (50, 50, Some("1 others")),
        (80, 50, Some("31 others")),
    ] {
        let own: Vec<String> = std::iter::once("vanity".to_owned())
            .chain((0..invites).map(|n| format!("inv{n:03}")))
            .take(invites)
            .collect();
        let plan = plan(&section, Context { own_invites: &own });
        let [rule] = &plan.rules[..] else {
            panic!("{invites}: {plan:?}")
        };
        let allow = rule.spec.trigger_metadata.allow_list.clone().unwrap();
        assert_eq!(allow.len(), kept * 2, "{invites}: {allow:?}");
        assert!(
            allow.contains(&"*discord.gg/partner".to_owned()),
            "{invites}"
        );
        if invites > 0 {
            assert!(
                allow.contains(&"*discord.com/invite/vanity".to_owned()),
                "{invites}"
            );
        }
        let mut sorted = allow.clone();
        sorted.sort();
        assert_eq!(allow, sorted, "{invites}");
        let note = plan
            .notes
            .iter()
            .find(|(f, _)| *f == FilterName::InviteLinks);
        match left_out {
            None => assert_eq!(note, None, "{invites}"),
            Some(part) => assert!(
                note.is_some_and(|(_, n)| n.contains(part)),
                "{invites}: {note:?}"
            ),
        }
    }
}

/// The invite patterns are Rust regexes under Discord's 260 characters that
/// catch every invite form the daemon's filter knows, and not another host.
#[test]
fn invite_patterns_match_the_invite_forms() {
    assert!(INVITE_PATTERNS.iter().all(|p| p.len() <= 260));
    let patterns: Vec<regex::Regex> = INVITE_PATTERNS
        .iter()
        .map(|p| regex::Regex::new(p).unwrap())
        .collect();
    let caught = |text: &str| patterns.iter().any(|p| p.is_match(text));
    for text in [
        "join https://discord.gg/abc",
        "DISCORD.COM/invite/x-y",
        "discordapp.com/invite/abc",
        "t.me/+AbC_1",
        "https://t.me/joinchat/abc",
        "telegram.me/+abc",
        "join.slack.com/t/ws/shared_invite/zt-1",
    ] {
        assert!(caught(text), "{text}");
    }
    for text in [
        "evildiscord.gg/abc",
        "t.me/channel",
        "discord.com/channels/1",
        "hello",
    ] {
        assert!(!caught(text), "{text}");
    }
}

fn rule(id: u64, creator: u64, spec: &RuleSpec) -> AutoModerationRule {
    let mut object = serde_json::to_value(spec).unwrap();
    object["id"] = json!(id.to_string());
    object["guild_id"] = json!("1");
    object["creator_id"] = json!(creator.to_string());
    serde_json::from_value(object).unwrap()
}

/// Discord's answer normalised its way: empty lists for absent ones,
/// `metadata: {}`, exemptions in another order.
fn as_discord_answers(id: u64, spec: &RuleSpec) -> AutoModerationRule {
    let mut r = rule(id, BOT, spec);
    let m = &mut r.trigger_metadata;
    m.allow_list.get_or_insert_with(Vec::new);
    m.regex_patterns.get_or_insert_with(Vec::new);
    m.keyword_filter.get_or_insert_with(Vec::new);
    r.exempt_roles.reverse();
    r
}

fn wanted_words(list: &[&str], roles: &[&str]) -> Vec<Wanted> {
    let mut section = words(list);
    section.exempt_role_ids = roles.iter().map(|r| (*r).to_owned()).collect();
    plan(&section, cx()).rules
}

fn kinds(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|s| match s {
            Step::Create(w) => format!("create {}", w.spec.name),
            Step::Modify { id, .. } => format!("modify {id}"),
            Step::Delete { id, .. } => format!("delete {id}"),
        })
        .collect()
}

/// The diff: create the missing, modify in place the changed, delete the
/// daemon's rules no longer wanted (first), leave hand-made rules alone.
#[test]
fn the_diff_changes_only_the_daemons_rules() {
    let wanted = wanted_words(&["a", "b"], &["5", "6"]);
    let spec = &wanted[0].spec;
    let other = RuleSpec {
        name: "modctl: blocked words".into(),
        trigger_metadata: AutoModerationTriggerMetadata {
            keyword_filter: Some(vec!["old".into()]),
            ..empty_metadata()
        },
        ..spec.clone()
    };
    let hand = RuleSpec {
        name: "no links please".into(),
        ..spec.clone()
    };
    let mentions = plan(
        &Automod {
            mention_spam: config::MentionFilter {
                enabled: true,
                ..Default::default()
            },
            ..Automod::default()
        },
        cx(),
    )
    .rules;
    let cases: Vec<DiffCase> = vec![
        (
            "nothing there: create",
            wanted.clone(),
            vec![],
            vec!["create modctl: blocked words"],
            0,
        ),
        (
            "already as wanted",
            wanted.clone(),
            vec![as_discord_answers(9, spec)],
            vec![],
            1,
        ),
        (
            "changed: modify in place",
            wanted.clone(),
            vec![rule(9, BOT, &other)],
            vec!["modify 9"],
            0,
        ),
        (
            "another creator's modctl-named rule is not ours",
            wanted.clone(),
            vec![rule(9, 7, &other)],
            vec!["create modctl: blocked words"],
            0,
        ),
        (
            "hand-made rules stay",
            vec![],
            vec![rule(3, BOT, &hand), rule(4, 7, &hand)],
            vec![],
            0,
        ),
        (
            "turned off: delete",
            vec![],
            vec![rule(9, BOT, spec)],
            vec!["delete 9"],
            0,
        ),
        (
            "a duplicate of ours goes, first",
            wanted.clone(),
            vec![rule(9, BOT, spec), rule(10, BOT, spec)],
            vec!["delete 10"],
            1,
        ),
        (
            "the trigger type decides which rule is which",
            mentions.clone(),
            vec![rule(9, BOT, spec)],
            vec!["delete 9", "create modctl: mention spam"],
            0,
        ),
    ];
    for (name, wanted, current, expected, unchanged) in cases {
        let (steps, same) = diff(&wanted, &current, Id::new(BOT));
        assert_eq!(kinds(&steps), expected, "{name}");
        assert_eq!(same.len(), unchanged, "{name}: {same:?}");
    }
}

/// A guild's rules in memory, as the capability sees them.
#[derive(Default)]
struct Guild {
    rules: Mutex<Vec<AutoModerationRule>>,
    refuse: Option<PlatformError>,
    next: Mutex<u64>,
}

#[async_trait]
impl NativeRules for Guild {
    async fn list_rules(&self) -> PlatformResult<Vec<AutoModerationRule>> {
        match &self.refuse {
            Some(e) => Err(e.clone()),
            None => Ok(self.rules.lock().unwrap().clone()),
        }
    }
    async fn create_rule(
        &self,
        spec: &RuleSpec,
        _: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let mut next = self.next.lock().unwrap();
        *next += 1;
        let created = rule(100 + *next, BOT, spec);
        self.rules.lock().unwrap().push(created.clone());
        Ok(created)
    }
    async fn modify_rule(
        &self,
        id: &str,
        spec: &RuleSpec,
        _: Option<&str>,
    ) -> PlatformResult<AutoModerationRule> {
        let mut rules = self.rules.lock().unwrap();
        let Some(slot) = rules.iter_mut().find(|r| r.id.to_string() == id) else {
            return Err(PlatformError::NotFound("Unknown rule".into()));
        };
        *slot = rule(slot.id.get(), slot.creator_id.get(), spec);
        Ok(slot.clone())
    }
    async fn delete_rule(&self, id: &str, _: Option<&str>) -> PlatformResult<()> {
        self.rules
            .lock()
            .unwrap()
            .retain(|r| r.id.to_string() != id);
        Ok(())
    }
}

fn rule_id(report: &Report, filter: FilterName) -> Option<String> {
    report.filters.iter().find_map(|f| match &f.placement {
        Placement::Native { rule_id } if f.filter == filter => rule_id.clone(),
        _ => None,
    })
}

/// Carried out: created, then changed in place (same id), drift put back
/// and reported, then deleted; a refusal is in the report with its fix.
#[tokio::test]
async fn reconcile_follows_the_config_and_repairs_drift() {
    let guild = Guild::default();
    let bot = Id::new(BOT);
    let first = plan(&words(&["a"]), cx());
    let report = reconcile(&guild, bot, &first, false).await;
    let id = rule_id(&report, FilterName::BlockedWords).expect("created");
    assert!(report.repaired.is_empty() && !report.failed());

    let second = plan(&words(&["a", "b"]), cx());
    let report = reconcile(&guild, bot, &second, false).await;
    assert_eq!(
        rule_id(&report, FilterName::BlockedWords),
        Some(id.clone()),
        "in place"
    );
    assert_eq!(guild.rules.lock().unwrap().len(), 1);

    // Nothing to do: no request but the list, nothing repaired.
    let report = reconcile(&guild, bot, &second, true).await;
    assert!(report.repaired.is_empty(), "{report:?}");

    // Edited by hand, then deleted by hand.
    guild.rules.lock().unwrap()[0].enabled = false;
    let report = reconcile(&guild, bot, &second, true).await;
    assert_eq!(report.repaired.len(), 1, "{report:?}");
    assert!(report.repaired[0].contains("changed in Discord"));
    assert!(guild.rules.lock().unwrap()[0].enabled);
    guild.rules.lock().unwrap().clear();
    let report = reconcile(&guild, bot, &second, true).await;
    assert!(report.repaired[0].contains("missing"), "{report:?}");

    let off = plan(&Automod::default(), cx());
    let report = reconcile(&guild, bot, &off, false).await;
    assert!(report.filters.is_empty());
    assert!(guild.rules.lock().unwrap().is_empty());

    let refusing = Guild {
        refuse: Some(PlatformError::Forbidden(
            "Missing Permissions, code 50013".into(),
        )),
        ..Guild::default()
    };
    let report = reconcile(&refusing, bot, &second, false).await;
    assert!(report.failed());
    let Placement::Failed { why, fix } = &report.filters[0].placement else {
        panic!("{report:?}")
    };
    assert!(why.contains("Missing Permissions"), "{why}");
    assert!(fix.contains("Manage Server"), "{fix}");
}

/// When a server is synced: a changed plan, a failure a minute ago, a
/// drift check every 5 minutes when it has rules; never for a server that
/// never wanted any.
#[test]
fn syncs_are_due_on_change_failure_and_drift() {
    let with = plan(&words(&["a"]), cx());
    let without = plan(&Automod::default(), cx());
    let print = sync::fingerprint(&with);
    let last = |fingerprint: &str, failed: bool, checked_at: i64| LastSync {
        fingerprint: fingerprint.into(),
        failed,
        checked_at,
        report: "{}".into(),
    };
    let drift = sync::DRIFT_EVERY.as_secs() as i64;
    let retry = sync::RETRY_FAILED.as_secs() as i64;
    let cases = [
        ("never synced, nothing wanted", None, &without, false),
        ("never synced, rules wanted", None, &with, true),
        (
            "same plan, just checked",
            Some(last(&print, false, 1000)),
            &with,
            false,
        ),
        ("another plan", Some(last("x", false, 1000)), &with, true),
        (
            "turned off",
            Some(last(&print, false, 1000)),
            &without,
            true,
        ),
        (
            "failed a moment ago",
            Some(last(&print, true, 1000 + 1 - retry)),
            &with,
            false,
        ),
        (
            "failed a while ago",
            Some(last(&print, true, 1000 - retry)),
            &with,
            true,
        ),
        (
            "drift check due",
            Some(last(&print, false, 1000 - drift)),
            &with,
            true,
        ),
    ];
    for (name, last, plan, due) in cases {
        let print = sync::fingerprint(plan);
        assert_eq!(is_due(last.as_ref(), plan, &print, 1000), due, "{name}");
    }
}
