//! The matching rules of [`super::plan`], one scenario each: a nuked guild,
//! a second restore, the bot's limits, Slack and Telegram.

use std::collections::HashMap;

use modctl_types::Platform;
use modctl_types::restore::{ItemKind, MatchedBy, PlanStep, RestorePlan};
use modctl_types::snapshot::{
    DiscordChannel, DiscordGuildSettings, DiscordRole, DiscordStructure, OverwriteKind,
    PermissionOverwrite, SlackChannel, SlackStructure, SlackUserGroup, StructureContent,
    TelegramPermissions, TelegramStructure,
};

use super::plan::{CATEGORY, PlanError, PlanInput, plan};
use crate::platform::apply::{BotStanding, MAX_ROLES};

const GUILD: &str = "900";
const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;
const MANAGE_GUILD: u64 = 1 << 5;

fn role(id: &str, name: &str, position: i64) -> DiscordRole {
    DiscordRole {
        id: id.into(),
        name: name.into(),
        colour: 0,
        hoist: false,
        mentionable: false,
        permissions: (VIEW_CHANNEL | SEND_MESSAGES).to_string(),
        position,
        icon: None,
        unicode_emoji: None,
        managed: false,
        is_everyone: id == GUILD,
    }
}

fn channel(id: &str, kind: u8, name: &str, parent: Option<&str>) -> DiscordChannel {
    DiscordChannel {
        id: id.into(),
        kind,
        name: name.into(),
        topic: None,
        nsfw: false,
        rate_limit_per_user: None,
        bitrate: None,
        user_limit: None,
        parent_id: parent.map(Into::into),
        position: 0,
        permission_overwrites: Vec::new(),
    }
}

fn overwrite(id: &str, kind: OverwriteKind) -> PermissionOverwrite {
    PermissionOverwrite {
        id: id.into(),
        kind,
        allow: SEND_MESSAGES.to_string(),
        deny: "0".into(),
    }
}

fn guild(roles: Vec<DiscordRole>, channels: Vec<DiscordChannel>) -> StructureContent {
    StructureContent::Discord(DiscordStructure {
        settings: DiscordGuildSettings {
            name: "guild".into(),
            verification_level: 1,
            default_message_notifications: 0,
            explicit_content_filter: 0,
            system_channel_id: None,
            rules_channel_id: None,
        },
        roles,
        channels,
    })
}

/// A guild before the nuke: @everyone, the bot's managed role (top), an
/// Admin above the bot... no: below the bot, Mods, Members; a category
/// `info` holding `rules`, whose overwrites name Members and one member; and
/// `general` outside any category.
fn before_nuke() -> StructureContent {
    let mut bot = role("10", "modctl", 10);
    bot.managed = true;
    let mut rules = channel("31", 0, "rules", Some("30"));
    rules.permission_overwrites = vec![
        overwrite("13", OverwriteKind::Role),
        overwrite("555", OverwriteKind::Member),
        overwrite(GUILD, OverwriteKind::Role),
    ];
    guild(
        vec![
            role(GUILD, "@everyone", 0),
            bot,
            role("11", "Admin", 12),
            role("12", "Mods", 5),
            role("13", "Members", 2),
        ],
        vec![
            channel("30", CATEGORY, "info", None),
            rules,
            channel("32", 0, "general", None),
        ],
    )
}

/// What is left after the nuke: @everyone, the bot, Admin and `general`.
fn after_nuke() -> StructureContent {
    let StructureContent::Discord(mut g) = before_nuke() else {
        unreachable!()
    };
    g.roles
        .retain(|r| ["900", "10", "11"].contains(&r.id.as_str()));
    g.channels.retain(|c| c.id == "32");
    StructureContent::Discord(g)
}

const BOT: Option<BotStanding> = Some(BotStanding {
    top_position: 10,
    permissions: VIEW_CHANNEL | SEND_MESSAGES,
});

fn plan_of(
    snapshot: &StructureContent,
    live: &StructureContent,
    restored: &HashMap<String, String>,
    bot: Option<BotStanding>,
) -> RestorePlan {
    plan(&PlanInput {
        snapshot_id: 7,
        snapshot,
        live,
        restored,
        bot,
        member_name: &|_| None,
    })
    .unwrap()
}

/// `(kind, snapshot id, step)` of every item, in order.
fn steps(plan: &RestorePlan) -> Vec<(ItemKind, &str, PlanStep)> {
    plan.items
        .iter()
        .map(|i| (i.kind, i.snapshot_id.as_str(), i.step))
        .collect()
}

#[test]
fn a_nuked_guild_gets_its_missing_roles_and_channels_in_order() {
    let plan = plan_of(&before_nuke(), &after_nuke(), &HashMap::new(), BOT);
    use ItemKind::*;
    use PlanStep::*;
    assert_eq!(
        steps(&plan),
        [
            (Role, "11", Present),
            (Role, "10", Present),
            (Role, "12", Create),
            (Role, "13", Create),
            (Role, GUILD, Present),
            (Category, "30", Create),
            (Channel, "31", Create),
            (Channel, "32", Present),
            (Overwrite, "31/13", Create),
            (Overwrite, "31/555", Create),
            (Overwrite, "31/900", Create),
        ]
    );
    assert_eq!(plan.snapshot_id, 7);
    assert_eq!(
        (plan.summary.present, plan.summary.create, plan.summary.skip),
        (4, 7, 0)
    );
    let detail = |id: &str| {
        &plan
            .items
            .iter()
            .find(|i| i.snapshot_id == id)
            .unwrap()
            .detail
    };
    assert_eq!(detail("31"), "create, in the category this restore creates");
    assert_eq!(detail("31/13"), "create, for the role this restore creates");
    assert_eq!(detail("31/555"), "create: member ids do not change");
    let rules_members = plan
        .items
        .iter()
        .find(|i| i.snapshot_id == "31/13")
        .unwrap();
    assert_eq!(rules_members.name, "#rules → @Members");
}

#[test]
fn a_second_restore_creates_nothing() {
    // The first restore created Mods as 112, Members as 113, info as 130 and
    // rules as 131; the server now has them under those ids.
    let StructureContent::Discord(mut live) = after_nuke() else {
        unreachable!()
    };
    let StructureContent::Discord(snapshot) = before_nuke() else {
        unreachable!()
    };
    let restored: HashMap<String, String> =
        [("12", "112"), ("13", "113"), ("30", "130"), ("31", "131")]
            .into_iter()
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .collect();
    for r in snapshot
        .roles
        .iter()
        .filter(|r| ["12", "13"].contains(&r.id.as_str()))
    {
        live.roles.push(DiscordRole {
            id: restored[&r.id].clone(),
            ..r.clone()
        });
    }
    live.channels.push(channel("130", CATEGORY, "info", None));
    live.channels.push(channel("131", 0, "rules", Some("130")));
    let live = StructureContent::Discord(live);

    let plan = plan_of(&before_nuke(), &live, &restored, BOT);
    assert_eq!(
        (plan.summary.create, plan.summary.skip),
        (0, 0),
        "{plan:#?}"
    );
    let rules = plan.items.iter().find(|i| i.snapshot_id == "31").unwrap();
    assert_eq!(
        (rules.matched_by, rules.live_id.as_deref()),
        (Some(MatchedBy::Restored), Some("131"))
    );

    // Without the id map (recreated by hand, say) names still match, and a
    // channel matches only under the same parent.
    let plan = plan_of(&before_nuke(), &live, &HashMap::new(), BOT);
    assert_eq!(plan.summary.create, 0, "{plan:#?}");
    let rules = plan.items.iter().find(|i| i.snapshot_id == "31").unwrap();
    assert_eq!(
        (rules.matched_by, rules.live_id.as_deref()),
        (Some(MatchedBy::Name), Some("131"))
    );
}

#[test]
fn a_channel_of_the_same_name_under_another_parent_is_not_a_match() {
    let StructureContent::Discord(mut live) = after_nuke() else {
        unreachable!()
    };
    live.channels.push(channel("40", CATEGORY, "other", None));
    live.channels.push(channel("41", 0, "rules", Some("40")));
    let plan = plan_of(
        &before_nuke(),
        &StructureContent::Discord(live),
        &HashMap::new(),
        BOT,
    );
    let rules = plan.items.iter().find(|i| i.snapshot_id == "31").unwrap();
    assert_eq!(rules.step, PlanStep::Create);
}

#[test]
fn what_the_bot_cannot_create_is_reported_not_attempted() {
    let StructureContent::Discord(mut live) = after_nuke() else {
        unreachable!()
    };
    // Admin was deleted too; it sat above the bot.
    live.roles.retain(|r| r.id != "11");
    // The managed role of another bot is gone with its bot.
    let StructureContent::Discord(mut snapshot) = before_nuke() else {
        unreachable!()
    };
    let mut other_bot = role("14", "other bot", 4);
    other_bot.managed = true;
    snapshot.roles.push(other_bot);
    // Mods had a permission the bot lacks.
    snapshot
        .roles
        .iter_mut()
        .find(|r| r.id == "12")
        .unwrap()
        .permissions = (VIEW_CHANNEL | MANAGE_GUILD).to_string();
    // An overwrite for Admin, which will not be restored.
    snapshot
        .channels
        .iter_mut()
        .find(|c| c.id == "31")
        .unwrap()
        .permission_overwrites
        .push(overwrite("11", OverwriteKind::Role));

    let plan = plan_of(
        &StructureContent::Discord(snapshot),
        &StructureContent::Discord(live),
        &HashMap::new(),
        BOT,
    );
    let get = |id: &str| plan.items.iter().find(|i| i.snapshot_id == id).unwrap();
    assert_eq!(get("11").step, PlanStep::Skip);
    assert!(
        get("11")
            .detail
            .contains("at or above the bot's top role (position 10)"),
        "{}",
        get("11").detail
    );
    assert_eq!(get("14").step, PlanStep::Skip);
    assert!(get("14").detail.contains("managed by an integration"));
    assert_eq!(get("12").step, PlanStep::Create);
    assert!(
        get("12").detail.ends_with(&format!("({MANAGE_GUILD})")),
        "{}",
        get("12").detail
    );
    assert_eq!(get("31/11").step, PlanStep::Skip);
    assert_eq!(
        get("31/11").detail,
        "skipped: the role @Admin is not restored"
    );
    assert_eq!(plan.summary.skip, 3);
}

#[test]
fn discord_limits_are_reported_per_item() {
    let StructureContent::Discord(mut live) = after_nuke() else {
        unreachable!()
    };
    // One role short of the limit: Mods fits, Members does not.
    for n in 0..(MAX_ROLES - live.roles.len() - 1) {
        live.roles
            .push(role(&format!("5{n:04}"), &format!("filler {n}"), 1));
    }
    let plan = plan_of(
        &before_nuke(),
        &StructureContent::Discord(live),
        &HashMap::new(),
        BOT,
    );
    let get = |id: &str| plan.items.iter().find(|i| i.snapshot_id == id).unwrap();
    assert_eq!(get("12").step, PlanStep::Create);
    assert_eq!(
        (get("13").step, get("13").detail.as_str()),
        (PlanStep::Skip, "skipped: Discord allows at most 250 roles")
    );
    assert_eq!(get("31/13").step, PlanStep::Skip);
}

#[test]
fn slack_restores_missing_channels_and_user_groups() {
    let channel = |id: &str, name: &str, archived: bool| SlackChannel {
        id: id.into(),
        name: name.into(),
        is_private: false,
        topic: String::new(),
        purpose: String::new(),
        is_archived: archived,
    };
    let group = |id: &str, handle: &str| SlackUserGroup {
        id: id.into(),
        name: handle.to_uppercase(),
        handle: handle.into(),
        description: String::new(),
        default_channels: Vec::new(),
        members: vec!["U1".into(), "U2".into()],
    };
    let snapshot = StructureContent::Slack(SlackStructure {
        channels: vec![
            channel("C1", "general", false),
            channel("C2", "mods", false),
            channel("C3", "old", true),
            channel("C4", "renamed-elsewhere", false),
        ],
        user_groups: vec![group("S1", "mods"), group("S2", "oncall")],
    });
    let live = StructureContent::Slack(SlackStructure {
        channels: vec![
            channel("C1", "general", false),
            channel("C9", "renamed-elsewhere", false),
        ],
        user_groups: vec![group("S9", "oncall")],
    });
    let plan = plan_of(&snapshot, &live, &HashMap::new(), None);
    use ItemKind::*;
    use PlanStep::*;
    assert_eq!(
        steps(&plan),
        [
            (Channel, "C1", Present),
            (Channel, "C2", Create),
            (Channel, "C3", Skip),
            (Channel, "C4", Present),
            (UserGroup, "S1", Create),
            (UserGroup, "S2", Present),
        ]
    );
    assert_eq!(
        plan.items[1].detail,
        "create, public, with its topic and purpose"
    );
    assert_eq!(plan.items[4].detail, "create @mods, with its 2 member(s)");
}

#[test]
fn telegram_sets_the_settings_that_differ() {
    let group = |title: &str, can_send: bool| {
        StructureContent::Telegram(TelegramStructure {
            title: title.into(),
            description: Some("rules: be kind".into()),
            default_permissions: TelegramPermissions {
                can_send_messages: can_send,
                ..TelegramPermissions::default()
            },
            slow_mode_delay: None,
            administrators: Vec::new(),
        })
    };
    let plan = plan_of(
        &group("Rust", true),
        &group("hacked", false),
        &HashMap::new(),
        None,
    );
    use ItemKind::Setting;
    use PlanStep::*;
    assert_eq!(
        steps(&plan),
        [
            (Setting, "title", Update),
            (Setting, "description", Present),
            (Setting, "permissions", Update),
        ]
    );
    assert_eq!(plan.items[0].detail, "set to \"Rust\" (now \"hacked\")");
    let again = plan_of(
        &group("Rust", true),
        &group("Rust", true),
        &HashMap::new(),
        None,
    );
    assert_eq!(again.summary.update, 0);
}

#[test]
fn a_member_overwrite_is_named_where_the_daemon_knows_the_member() {
    let named = |id: &str| (id == "555").then(|| "alice".to_owned());
    let plan = plan(&PlanInput {
        snapshot_id: 7,
        snapshot: &before_nuke(),
        live: &after_nuke(),
        restored: &HashMap::new(),
        bot: BOT,
        member_name: &named,
    })
    .unwrap();
    let name = |id: &str| {
        plan.items
            .iter()
            .find(|i| i.snapshot_id == id)
            .map(|i| i.name.clone())
            .unwrap()
    };
    assert_eq!(name("31/555"), "#rules → alice (555)");
    // Unknown: as before, by id.
    let unnamed = plan_of(&before_nuke(), &after_nuke(), &HashMap::new(), BOT);
    let item = unnamed.items.iter().find(|i| i.snapshot_id == "31/555");
    assert_eq!(item.unwrap().name, "#rules → member 555");
}

#[test]
fn a_snapshot_of_another_platform_is_refused() {
    let slack = StructureContent::Slack(SlackStructure {
        channels: Vec::new(),
        user_groups: Vec::new(),
    });
    let err = plan(&PlanInput {
        snapshot_id: 1,
        snapshot: &slack,
        live: &before_nuke(),
        restored: &HashMap::new(),
        bot: None,
        member_name: &|_| None,
    })
    .unwrap_err();
    assert_eq!(
        err,
        PlanError::PlatformMismatch {
            snapshot: Platform::Slack,
            live: Platform::Discord
        }
    );
}
