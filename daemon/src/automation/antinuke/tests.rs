//! The pure rules of antinuke: what an entry is, who is exempt, what the
//! punishment is, and which entry opens an incident.

use super::*;
use crate::platform::hierarchy::{Member, Role};

const ADMIN: u64 = 1 << 3;

fn guild(executor_roles: &[&str]) -> Hierarchy {
    let role = |id: &str, position, permissions, managed| Role {
        id: id.into(),
        position,
        permissions,
        managed,
    };
    Hierarchy {
        guild_id: "g".into(),
        owner_id: "owner".into(),
        roles: vec![
            role("g", 0, 0, false),
            role("low", 1, 0, false),
            role("mod", 3, 1 << 28, false),
            role("botrole", 5, 1 << 28, true),
            role("high", 7, ADMIN, false),
            role("trusted", 2, 0, false),
        ],
        bot: Member {
            user_id: "bot".into(),
            roles: vec!["botrole".into()],
        },
        target: Some(Member {
            user_id: "x".into(),
            roles: executor_roles.iter().map(|r| (*r).to_owned()).collect(),
        }),
    }
}

fn granted(bits: u64) -> AuditAction {
    AuditAction::PermissionsGranted {
        granted: bits,
        before: None,
        after: Some(bits),
    }
}

#[test]
fn entries_are_counted_immediate_or_ignored() {
    let table = [
        (
            AuditAction::ChannelDeleted,
            Some(Trigger::Counted(Kind::ChannelDeletions)),
        ),
        (
            AuditAction::RoleDeleted,
            Some(Trigger::Counted(Kind::RoleDeletions)),
        ),
        (
            AuditAction::MemberBanned,
            Some(Trigger::Counted(Kind::Bans)),
        ),
        (
            AuditAction::MemberKicked,
            Some(Trigger::Counted(Kind::Bans)),
        ),
        (
            AuditAction::MembersPruned,
            Some(Trigger::Counted(Kind::Bans)),
        ),
        (
            AuditAction::WebhookCreated,
            Some(Trigger::Immediate("a webhook created".into())),
        ),
        (
            AuditAction::BotAdded,
            Some(Trigger::Immediate("a bot added".into())),
        ),
        (
            AuditAction::PermissionsGranted {
                granted: ADMIN | 1,
                before: Some(0),
                after: Some(ADMIN | 1),
            },
            Some(Trigger::Immediate(
                "a role given dangerous permissions (administrator)".into(),
            )),
        ),
        (granted(1 << 11), None),
        (granted(0), None),
        (
            AuditAction::RolesGranted(vec!["high".into()]),
            Some(Trigger::RolesGranted(vec!["high".into()])),
        ),
        (AuditAction::RolesGranted(Vec::new()), None),
        (AuditAction::Other(10), None),
    ];
    for (action, expected) in table {
        assert_eq!(classify(&action), expected, "{action:?}");
    }
}

#[test]
fn the_owner_the_bot_and_trusted_roles_are_exempt() {
    let trusted = vec!["trusted".to_owned()];
    let table = [
        ("owner", &[][..], true),
        ("bot", &[][..], true),
        ("x", &["trusted"][..], true),
        ("x", &["low"][..], false),
        ("x", &[][..], false),
    ];
    for (executor, roles, expected) in table {
        assert_eq!(
            exempt(&guild(roles), executor, &trusted),
            expected,
            "{executor} {roles:?}"
        );
    }
    assert!(grants_danger(&guild(&[]), &["high".into()]));
    assert!(grants_danger(&guild(&[]), &["mod".into()]));
    assert!(!grants_danger(&guild(&[]), &["low".into(), "gone".into()]));
}

#[test]
fn strip_roles_takes_what_the_bot_can_and_kicks_a_bot() {
    let strip = |keep: &[&str], removed: &[&str]| Punishment::Strip {
        keep: keep.iter().map(|r| (*r).to_owned()).collect(),
        removed: removed.iter().map(|r| (*r).to_owned()).collect(),
    };
    let table = [
        (
            &["low", "mod"][..],
            AntinukeAction::StripRoles,
            strip(&[], &["low", "mod"]),
        ),
        (
            &["low", "high"][..],
            AntinukeAction::StripRoles,
            strip(&["high"], &["low"]),
        ),
        // A managed role: a bot, whose role cannot be taken.
        (
            &["botrole", "low"][..],
            AntinukeAction::StripRoles,
            Punishment::Kick,
        ),
        (&["low"][..], AntinukeAction::Kick, Punishment::Kick),
        (&["low"][..], AntinukeAction::Ban, Punishment::Ban),
    ];
    for (roles, action, expected) in table {
        assert_eq!(
            punishment(&guild(roles), "x", action),
            expected,
            "{roles:?}"
        );
    }
}

fn entry(id: &str, executor: &str, action: AuditAction) -> AuditEntry {
    AuditEntry {
        id: id.into(),
        action,
        executor_id: Some(executor.into()),
        target_id: None,
        reason: None,
    }
}

/// With limit 2, the third deletion opens the incident (its evidence all
/// three) and the fourth joins it; trusted users and a disabled section
/// open none.
#[test]
fn the_entry_above_the_limit_opens_the_incident_once() {
    let antinuke = Watch::default();
    let mut sections = Sections::default();
    sections.antinuke.enabled = true;
    sections.antinuke.max_channel_deletions_per_minute = 2;
    sections.antinuke.trusted_user_ids = vec!["friend".into()];
    let sections = Arc::new(sections);
    let t0 = Timestamp::from_second(1_800_000_000).unwrap();
    let at = |s: i64| t0 + jiff::SignedDuration::from_secs(s);
    let deleted = |id: &str, who: &str| entry(id, who, AuditAction::ChannelDeleted);
    assert!(
        antinuke
            .admit("g", &sections, &deleted("1", "x"), at(0))
            .is_none()
    );
    assert!(
        antinuke
            .admit("g", &sections, &deleted("2", "x"), at(1))
            .is_none()
    );
    let incident = antinuke
        .admit("g", &sections, &deleted("3", "x"), at(2))
        .expect("the third opens it");
    assert_eq!(incident.entries, ["1", "2", "3"]);
    assert_eq!(incident.since, at(0));
    assert_eq!(
        incident.what,
        "3 channel deletions within a minute (limit 2)"
    );
    assert!(
        antinuke
            .admit("g", &sections, &deleted("4", "x"), at(3))
            .is_none()
    );
    for n in 0..5 {
        let id = format!("f{n}");
        assert!(
            antinuke
                .admit("g", &sections, &deleted(&id, "friend"), at(3))
                .is_none()
        );
    }
    let webhook = entry("w", "y", AuditAction::WebhookCreated);
    assert!(antinuke.admit("g", &sections, &webhook, at(4)).is_some());
    let mut off = (*sections).clone();
    off.antinuke.enabled = false;
    let webhook = entry("w2", "z", AuditAction::WebhookCreated);
    assert!(
        antinuke
            .admit("g", &Arc::new(off), &webhook, at(4))
            .is_none()
    );
    let reason = Incident {
        entries: (0..100)
            .map(|n| format!("9000000000000000{n:02}"))
            .collect(),
        ..incident
    }
    .reason();
    assert!(reason.len() <= 512, "{}", reason.len());
    assert!(reason.ends_with("more"), "{reason}");
}

/// What undoes an entry that acts at once: the webhook, the bot, the
/// member's roles given, the role's permissions as they were (a created
/// role keeps its harmless bits); nothing for counted entries, harmless
/// grants or an entry that names no target.
#[test]
fn what_acts_at_once_is_undone() {
    const SEND: u64 = 1 << 11;
    let entry = |action: AuditAction, target: Option<&str>| AuditEntry {
        id: "1".into(),
        action,
        executor_id: Some("x".into()),
        target_id: target.map(str::to_owned),
        reason: None,
    };
    let set = |permissions| {
        Some(Undo::SetPermissions {
            role: "r".into(),
            permissions,
        })
    };
    let table = [
        (
            entry(AuditAction::WebhookCreated, Some("w")),
            Some(Undo::DeleteWebhook("w".into())),
        ),
        (
            entry(AuditAction::BotAdded, Some("b")),
            Some(Undo::KickBot("b".into())),
        ),
        (
            entry(AuditAction::RolesGranted(vec!["high".into()]), Some("m")),
            Some(Undo::TakeRoles {
                member: "m".into(),
                roles: vec!["high".into()],
            }),
        ),
        (
            entry(
                AuditAction::PermissionsGranted {
                    granted: ADMIN,
                    before: Some(SEND),
                    after: Some(ADMIN | SEND),
                },
                Some("r"),
            ),
            set(SEND),
        ),
        (
            entry(
                AuditAction::PermissionsGranted {
                    granted: ADMIN | SEND,
                    before: None,
                    after: Some(ADMIN | SEND),
                },
                Some("r"),
            ),
            set(SEND),
        ),
        (entry(granted(SEND), Some("r")), None),
        (entry(AuditAction::WebhookCreated, None), None),
        (entry(AuditAction::ChannelDeleted, Some("c")), None),
        (
            entry(AuditAction::RolesGranted(Vec::new()), Some("m")),
            None,
        ),
    ];
    for (entry, expected) in table {
        assert_eq!(undo(&entry), expected, "{entry:?}");
    }
}
