//! Discord's native AutoMod, kept in step with the `automod` section (issue
//! #25): what Discord can enforce itself, it enforces, so the message never
//! appears and no privileged intent is needed.
//!
//! Two pure steps, then carrying them out ([`sync`]):
//! - [`plan`]: the section (with its exemptions and the moderation
//!   defaults) as the rules the daemon wants on the guild: one KEYWORD rule
//!   for `blocked_words`, one KEYWORD rule of patterns for `invite_links`,
//!   the MENTION_SPAM rule for `mention_spam`, each named `modctl: ...` and
//!   carrying `automod.exempt_role_ids` / `exempt_channel_ids`; and, for
//!   each enabled filter Discord cannot express, why it stays in the daemon.
//! - [`diff`]: those rules against the guild's current ones: create the
//!   missing, modify in place (same rule id) the changed, delete the
//!   daemon's own (a `modctl: ` name *and* the bot as creator) that are no
//!   longer wanted. Rules made by hand (another name or another creator)
//!   are never touched.
//!
//! What Discord can express (discord-docs/auto-moderation.mdx):
//! - keywords: at most 1000 of at most 60 characters, matched case
//!   insensitively with `*` at an end for prefix / suffix / anywhere and
//!   whole words otherwise: the blocked-words syntax of the config, so the
//!   list is sent as it is. One trigger per match: a `threshold` above 1
//!   needs the daemon, as does a word over 60 characters.
//! - regex patterns: at most 10 of at most 260 characters (Rust regex):
//!   the invite links, one pattern per platform's invite form; the
//!   config's allowed invites and the server's own in `allow_list` (at most
//!   100 entries, two per invite: beyond 50 invites the first 50 are
//!   allowed, see [`invite_rule`], never the rule dropped).
//! - `mention_total_limit`: the mentions a message may *have* (at most 50),
//!   so a message is blocked at one more. The config's threshold is the
//!   count that triggers, so the limit is `threshold - 1`.
//! - `exempt_roles` at most 20, `exempt_channels` at most 50: beyond them
//!   no rule can carry the exemptions, and the filters stay in the daemon.
//! - actions: BLOCK_MESSAGE alone, for every filter. Its action (warn,
//!   timeout, kick, ban) is the case the daemon makes from the
//!   AUTO_MODERATION_ACTION_EXECUTION event, as for a message the daemon
//!   caught itself; Discord's TIMEOUT action is not used, since the case
//!   applies the timeout (with strikes, escalation and the DM) and the
//!   member would be timed out twice.
//!
//! Links, caps and duplicates have no native trigger: they always run in
//! the daemon, on MESSAGE_CREATE, when the message-content intent is granted.

pub mod sync;

use std::collections::BTreeSet;

use modctl_types::automod::FilterName;
use modctl_types::config;
use serde::{Deserialize, Serialize};
use twilight_model::guild::auto_moderation::{
    AutoModerationAction, AutoModerationActionType, AutoModerationEventType, AutoModerationRule,
    AutoModerationTriggerMetadata, AutoModerationTriggerType,
};
use twilight_model::id::Id;
use twilight_model::id::marker::{ChannelMarker, RoleMarker, UserMarker};

use super::automod::links;
use crate::platform::RuleSpec;

/// The start of the name of every rule the daemon owns.
pub const PREFIX: &str = "modctl: ";
/// `keyword_filter`: at most this many keywords...
pub const MAX_KEYWORDS: usize = 1000;
/// ...of at most this many characters.
pub const MAX_KEYWORD_CHARS: usize = 60;
/// `allow_list` of a KEYWORD rule: at most this many entries.
pub const MAX_ALLOW: usize = 100;
/// `exempt_roles`: at most this many.
pub const MAX_EXEMPT_ROLES: usize = 20;
/// `exempt_channels`: at most this many.
pub const MAX_EXEMPT_CHANNELS: usize = 50;

/// The invite forms of the invite-links filter as Discord regex patterns
/// (Rust flavour, each under 260 characters): the same hosts as the
/// daemon's own finder (`automation::automod::links`), each after a word
/// boundary so `evildiscord.gg/...` is another host.
pub const INVITE_PATTERNS: [&str; 3] = [
    r"(?i)\b(?:discord\.gg|discord(?:app)?\.com/invite)/[a-z0-9-]+",
    r"(?i)\b(?:t|telegram)\.me/(?:\+|joinchat/)[a-z0-9_-]+",
    r"(?i)\bjoin\.slack\.com/\S+",
];

/// The name of the rule that carries `filter`, for the filters Discord can
/// express.
pub fn rule_name(filter: FilterName) -> Option<String> {
    match filter {
        FilterName::BlockedWords => Some(format!("{PREFIX}blocked words")),
        FilterName::InviteLinks => Some(format!("{PREFIX}invite links")),
        FilterName::MentionSpam => Some(format!("{PREFIX}mention spam")),
        _ => None,
    }
}

/// A rule the daemon wants on the guild, for one filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The filter it enforces.
    pub filter: FilterName,
    /// The rule.
    pub spec: RuleSpec,
}

/// Where an enabled filter runs, as planned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "runs", rename_all = "snake_case")]
pub enum Placement {
    /// As a native rule (its id once synced).
    Native {
        /// The rule's id, once the guild has it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule_id: Option<String>,
    },
    /// In the daemon, for this reason.
    Daemon {
        /// Why Discord cannot carry it.
        why: String,
    },
    /// Meant to be native, but the guild's rule could not be made or
    /// changed (the last sync's error and how to fix it).
    Failed {
        /// What went wrong.
        why: String,
        /// What to do about it.
        fix: String,
    },
}

/// What the daemon wants of the guild's AutoMod.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The rules, in filter order.
    pub rules: Vec<Wanted>,
    /// Every enabled filter and where it runs, in filter order.
    pub placements: Vec<(FilterName, Placement)>,
    /// What a native rule could not carry in full, by filter (the invite
    /// rule's allow list beyond Discord's limit): onboarding says it.
    pub notes: Vec<(FilterName, String)>,
}

/// The inputs of [`plan`] besides the section: what the moderation
/// section and the server add.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The server's own invite codes or links, which the invite rule allows.
    pub own_invites: &'a [String],
}

/// The rules `section` asks for on Discord, and where each enabled filter
/// runs.
pub fn plan(section: &config::Automod, cx: Context<'_>) -> Plan {
    let mut plan = Plan::default();
    let mut notes = Vec::new();
    let exemptions = exemptions(section);
    let mut place = |filter: FilterName, enabled: bool, rule: Result<Option<Wanted>, String>| {
        if !enabled {
            return;
        }
        match rule {
            Ok(Some(wanted)) => {
                plan.placements
                    .push((filter, Placement::Native { rule_id: None }));
                plan.rules.push(wanted);
            }
            // Enabled but nothing to enforce (an empty word list): no rule,
            // and nothing runs.
            Ok(None) => {}
            Err(why) => plan.placements.push((filter, Placement::Daemon { why })),
        }
    };

    let words = &section.blocked_words;
    place(
        FilterName::BlockedWords,
        words.enabled,
        exemptions.clone().and_then(|ex| {
            keyword_rule(words.threshold, &words.words).map(|metadata| {
                metadata.map(|metadata| {
                    wanted(
                        FilterName::BlockedWords,
                        AutoModerationTriggerType::Keyword,
                        metadata,
                        &ex,
                    )
                })
            })
        }),
    );

    let invites = &section.invite_links;
    let mut left_out = None;
    place(
        FilterName::InviteLinks,
        invites.enabled,
        exemptions.clone().and_then(|ex| {
            invite_rule(invites.threshold, &invites.allow, cx.own_invites).map(
                |(metadata, note)| {
                    left_out = note;
                    Some(wanted(
                        FilterName::InviteLinks,
                        AutoModerationTriggerType::Keyword,
                        metadata,
                        &ex,
                    ))
                },
            )
        }),
    );
    if invites.enabled
        && let Some(note) = left_out
    {
        notes.push((FilterName::InviteLinks, note));
    }

    place(
        FilterName::Links,
        section.links.enabled,
        Err("Discord AutoMod cannot allow-list domains".into()),
    );

    let mentions = &section.mention_spam;
    place(
        FilterName::MentionSpam,
        mentions.enabled,
        exemptions.and_then(|ex| {
            let limit = mentions.threshold.saturating_sub(1).max(1);
            if limit > 50 {
                return Err(format!(
                    "a mention threshold of {} is above Discord's limit of 50 mentions",
                    mentions.threshold
                ));
            }
            Ok(Some(wanted(
                FilterName::MentionSpam,
                AutoModerationTriggerType::MentionSpam,
                AutoModerationTriggerMetadata {
                    mention_total_limit: Some(limit as u8),
                    mention_raid_protection_enabled: Some(false),
                    ..empty_metadata()
                },
                &ex,
            )))
        }),
    );

    place(
        FilterName::Caps,
        section.caps.enabled,
        Err("Discord AutoMod has no capitals trigger".into()),
    );
    place(
        FilterName::Duplicates,
        section.duplicates.enabled,
        Err("Discord AutoMod has no repeated-message trigger".into()),
    );
    plan.notes = notes;
    plan
}

/// The section's exemptions as rule fields, or why no rule can carry them.
type Exempt = (Vec<Id<RoleMarker>>, Vec<Id<ChannelMarker>>);

fn exemptions(section: &config::Automod) -> Result<Exempt, String> {
    if section.exempt_role_ids.len() > MAX_EXEMPT_ROLES {
        return Err(format!(
            "automod.exempt_role_ids has {} roles and a Discord rule exempts at most {MAX_EXEMPT_ROLES}",
            section.exempt_role_ids.len()
        ));
    }
    if section.exempt_channel_ids.len() > MAX_EXEMPT_CHANNELS {
        return Err(format!(
            "automod.exempt_channel_ids has {} channels and a Discord rule exempts at most {MAX_EXEMPT_CHANNELS}",
            section.exempt_channel_ids.len()
        ));
    }
    Ok((
        snowflakes(&section.exempt_role_ids, "automod.exempt_role_ids")?,
        snowflakes(&section.exempt_channel_ids, "automod.exempt_channel_ids")?,
    ))
}

/// `ids` as Discord ids, sorted and without repeats (Discord keeps them as
/// a set; sorting makes the comparison with the guild's rule exact).
fn snowflakes<T>(ids: &[String], field: &str) -> Result<Vec<Id<T>>, String> {
    let set: BTreeSet<u64> = ids
        .iter()
        .map(|id| {
            id.parse::<u64>()
                .ok()
                .filter(|n| *n != 0)
                .ok_or_else(|| format!("{field} holds {id:?}, which is not a Discord id"))
        })
        .collect::<Result<_, _>>()?;
    Ok(set.into_iter().map(Id::new).collect())
}

fn empty_metadata() -> AutoModerationTriggerMetadata {
    AutoModerationTriggerMetadata {
        allow_list: None,
        keyword_filter: None,
        presets: None,
        mention_raid_protection_enabled: None,
        mention_total_limit: None,
        regex_patterns: None,
    }
}

/// The blocked words as a keyword list (`None`: nothing to block), or why
/// Discord cannot carry them.
fn keyword_rule(
    threshold: u32,
    words: &[String],
) -> Result<Option<AutoModerationTriggerMetadata>, String> {
    if threshold > 1 {
        return Err(format!(
            "a threshold of {threshold} words needs counting, and a Discord rule acts on the first"
        ));
    }
    // The engine's reading: trimmed, and `*` alone would block everything.
    let mut keywords: Vec<String> = words
        .iter()
        .map(|w| w.trim().to_owned())
        .filter(|w| !w.trim_matches('*').is_empty())
        .collect();
    keywords.sort();
    keywords.dedup();
    if keywords.is_empty() {
        return Ok(None);
    }
    if keywords.len() > MAX_KEYWORDS {
        return Err(format!(
            "{} words are more than the {MAX_KEYWORDS} of a Discord rule",
            keywords.len()
        ));
    }
    if let Some(long) = keywords
        .iter()
        .find(|w| w.chars().count() > MAX_KEYWORD_CHARS)
    {
        return Err(format!(
            "the word {long:?} is longer than the {MAX_KEYWORD_CHARS} characters of a Discord keyword"
        ));
    }
    Ok(Some(AutoModerationTriggerMetadata {
        keyword_filter: Some(keywords),
        ..empty_metadata()
    }))
}

/// The invite patterns with an allow list: the config's `allow` entries
/// first, then the server's `own` invites as learned (Discord's vanity code
/// first, then the guild's invites), each entry read as the daemon reads it
/// ([`links::discord_invite_code`]; a Telegram or Slack link has no Discord
/// form and no place here). Each code takes two entries (`discord.gg/` and
/// `discord.com/invite/`), so at most [`MAX_ALLOW`]` / 2` codes fit: the
/// ones beyond are left out, never the rule (which would move the whole
/// filter to the daemon, or stop it without the message-content intent),
/// and the second value says how many were left out (onboarding shows it).
fn invite_rule(
    threshold: u32,
    allow: &[String],
    own: &[String],
) -> Result<(AutoModerationTriggerMetadata, Option<String>), String> {
    if threshold > 1 {
        return Err(format!(
            "a threshold of {threshold} invites needs counting, and a Discord rule acts on the first"
        ));
    }
    let mut codes: Vec<&str> = Vec::new();
    for code in allow
        .iter()
        .chain(own)
        .filter_map(|entry| links::discord_invite_code(entry))
    {
        // `*discord.com/invite/` + the code must keep within a keyword.
        if !codes.contains(&code)
            && code.chars().count() + "*discord.com/invite/".len() <= MAX_KEYWORD_CHARS
        {
            codes.push(code);
        }
    }
    let fit = MAX_ALLOW / 2;
    let left_out = (codes.len() > fit).then(|| {
        format!(
            "Discord's invite rule allows at most {fit} invites ({MAX_ALLOW} allow-list entries) and {} are allowed: the config's `invite_links.allow` entries, then the vanity code, then the first of the others are allowed natively; {} others are blocked by Discord as another community's",
            codes.len(),
            codes.len() - fit
        )
    });
    codes.truncate(fit);
    // `*discord.gg/abc`: a word that ends with the link (`https://` before
    // it), not `discord.gg/abcdef`.
    let mut entries: Vec<String> = codes
        .iter()
        .flat_map(|code| {
            ["discord.gg/", "discord.com/invite/"].map(|host| format!("*{host}{code}"))
        })
        .collect();
    // Sorted: the comparison with the guild's rule is exact.
    entries.sort();
    Ok((
        AutoModerationTriggerMetadata {
            regex_patterns: Some(INVITE_PATTERNS.iter().map(|p| (*p).to_owned()).collect()),
            allow_list: (!entries.is_empty()).then_some(entries),
            ..empty_metadata()
        },
        left_out,
    ))
}

fn wanted(
    filter: FilterName,
    trigger_type: AutoModerationTriggerType,
    trigger_metadata: AutoModerationTriggerMetadata,
    (roles, channels): &Exempt,
) -> Wanted {
    // BLOCK_MESSAGE alone, whatever the filter's action: the daemon's case
    // from the execution applies a timeout (or a kick, a ban) once, with
    // strikes, escalation and the DM as any case; Discord's own TIMEOUT
    // action would time the member out a second time.
    let actions = vec![AutoModerationAction {
        kind: AutoModerationActionType::BlockMessage,
        metadata: None,
    }];
    Wanted {
        filter,
        spec: RuleSpec {
            name: rule_name(filter).expect("only filters Discord can express get a rule"),
            event_type: AutoModerationEventType::MessageSend,
            trigger_type,
            trigger_metadata,
            actions,
            enabled: true,
            exempt_roles: roles.clone(),
            exempt_channels: channels.clone(),
        },
    }
}

/// One change to the guild's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Create this rule.
    Create(Wanted),
    /// Change rule `id` in place to this one.
    Modify {
        /// The rule's id.
        id: String,
        /// What it becomes.
        wanted: Wanted,
    },
    /// Delete the daemon's rule `id`, named `name`, no longer wanted.
    Delete {
        /// The rule's id.
        id: String,
        /// Its name.
        name: String,
    },
}

/// Whether `rule` is the daemon's: a `modctl: ` name, made by the bot.
pub fn is_ours(rule: &AutoModerationRule, bot: Id<UserMarker>) -> bool {
    rule.creator_id == bot && rule.name.starts_with(PREFIX)
}

/// The steps that turn the guild's `current` rules into `wanted`, the
/// daemon's own rules being those [`is_ours`] says (made by `bot`), and the
/// ids of the wanted rules the guild already has as wanted (`(filter, id)`).
pub fn diff(
    wanted: &[Wanted],
    current: &[AutoModerationRule],
    bot: Id<UserMarker>,
) -> (Vec<Step>, Vec<(FilterName, String)>) {
    let ours: Vec<&AutoModerationRule> = current.iter().filter(|r| is_ours(r, bot)).collect();
    let mut steps = Vec::new();
    let mut unchanged = Vec::new();
    let mut kept = BTreeSet::new();
    for want in wanted {
        // The first of the daemon's rules by that name and trigger type is
        // the one kept (a rule's trigger type never changes); any other of
        // that name is deleted below.
        let existing = ours.iter().find(|r| {
            r.name == want.spec.name
                && r.trigger_type == want.spec.trigger_type
                && !kept.contains(&r.id.get())
        });
        match existing {
            Some(rule) => {
                kept.insert(rule.id.get());
                if same(rule, &want.spec) {
                    unchanged.push((want.filter, rule.id.to_string()));
                } else {
                    steps.push(Step::Modify {
                        id: rule.id.to_string(),
                        wanted: want.clone(),
                    });
                }
            }
            None => steps.push(Step::Create(want.clone())),
        }
    }
    // Deletions first, so a guild at its limit of KEYWORD rules has room
    // for the creations.
    let deletions = ours
        .iter()
        .filter(|r| !kept.contains(&r.id.get()))
        .map(|r| Step::Delete {
            id: r.id.to_string(),
            name: r.name.clone(),
        });
    let steps = deletions.chain(steps).collect();
    (steps, unchanged)
}

/// Whether the guild's `rule` is already `spec`: what Discord answers
/// normalised the way it stores it (absent lists empty, exemptions as
/// sets, empty action metadata absent).
fn same(rule: &AutoModerationRule, spec: &RuleSpec) -> bool {
    rule.name == spec.name
        && rule.event_type == spec.event_type
        && rule.trigger_type == spec.trigger_type
        && rule.enabled == spec.enabled
        && sorted(&rule.exempt_roles) == sorted(&spec.exempt_roles)
        && sorted(&rule.exempt_channels) == sorted(&spec.exempt_channels)
        && metadata(&rule.trigger_metadata) == metadata(&spec.trigger_metadata)
        && actions(&rule.actions) == actions(&spec.actions)
}

fn sorted<T>(ids: &[Id<T>]) -> Vec<u64> {
    let set: BTreeSet<u64> = ids.iter().map(|id| id.get()).collect();
    set.into_iter().collect()
}

type Normal = (
    BTreeSet<String>,
    BTreeSet<String>,
    BTreeSet<String>,
    Option<u8>,
    bool,
);

fn metadata(m: &AutoModerationTriggerMetadata) -> Normal {
    let set = |list: &Option<Vec<String>>| -> BTreeSet<String> {
        list.iter().flatten().cloned().collect()
    };
    (
        set(&m.keyword_filter),
        set(&m.regex_patterns),
        set(&m.allow_list),
        m.mention_total_limit,
        m.mention_raid_protection_enabled.unwrap_or(false),
    )
}

fn actions(actions: &[AutoModerationAction]) -> Vec<(u8, Option<u32>, Option<String>)> {
    let mut normal: Vec<_> = actions
        .iter()
        .map(|a| {
            let m = a.metadata.as_ref();
            (
                u8::from(a.kind),
                m.and_then(|m| m.duration_seconds),
                m.and_then(|m| m.custom_message.clone())
                    .filter(|c| !c.is_empty()),
            )
        })
        .collect();
    normal.sort();
    normal
}

#[cfg(test)]
mod tests;
