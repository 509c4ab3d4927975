//! `modctld demo`: the one-command way to try modctl.
//!
//! Starts the daemon on its own throw-away database with a demo team, a
//! read+write key, a read-only key and one server per platform, each connected
//! to the simulator with a small community and holding one structure
//! snapshot, prints what to paste into another terminal and what to try
//! ([`try_these`]), and deletes the database on exit. While it runs, its
//! terminal shows what the bot posts to the simulated servers (log posts,
//! DMs), whichever process posted it
//! ([`super::simulate_posts::watch`]).

use std::net::SocketAddr;
use std::sync::Arc;

use modctl_types::config::SectionName;
use modctl_types::snapshot::{OverwriteKind, SnapshotSource};
use modctl_types::{Plan, Platform, Scope};

use super::accounts::{create_key, create_named_key};
use super::{bind, demo_webhooks, init_logging_to, shutdown_signal};
use crate::AppState;

use crate::clock::Clock;
use crate::platform::simulator::nuke::{DEFAULT_CHANNELS, DEFAULT_ROLES};
use crate::platform::simulator::{
    self, ADMINISTRATOR, BAN_MEMBERS, Community, KICK_MEMBERS, MANAGE_ROLES, MODERATE_MEMBERS,
    SimChannel, SimMember, SimOverwrite, SimRole,
};
use crate::store::connections::{self, Connection, ConnectionMode};
use crate::store::{Store, config, servers, teams};

/// The demo servers: one per platform.
pub const DISCORD: &str = "112233445566778899";
/// The demo Telegram group.
pub const TELEGRAM: &str = "-1001234567890";
/// The demo Slack workspace.
pub const SLACK: &str = "T0DEMO0001";
const SERVERS: [(Platform, &str, &str); 3] = [
    (Platform::Discord, DISCORD, "Demo Guild"),
    (Platform::Telegram, TELEGRAM, "Demo Group"),
    (Platform::Slack, SLACK, "Demo Workspace"),
];

/// How often the demo's live trickle hands over events, in seconds.
const TRICKLE_SECONDS: i64 = 5;

/// Simulated Discord members.
pub mod discord_members {
    /// The owner (Admin role).
    pub const OWNER: &str = "800000000000000001";
    /// The bot.
    pub const BOT: &str = "800000000000000002";
    /// A moderator (below the bot).
    pub const MODERATOR: &str = "800000000000000003";
    /// A member.
    pub const ALICE: &str = "800000000000000004";
    /// A member.
    pub const BOB: &str = "800000000000000005";
    /// An administrator (above the bot).
    pub const ADA: &str = "800000000000000006";
    /// A member, to try actions on.
    pub const CAROL: &str = "800000000000000007";
    /// A member, to try actions on.
    pub const DAVE: &str = "800000000000000008";
    /// A member, to try actions on.
    pub const ERIN: &str = "800000000000000009";
    /// The jail role.
    pub const JAILED_ROLE: &str = "900000000000000005";
    /// The mod-log channel.
    pub const MODLOG: &str = "700000000000000001";
}

/// Simulated Telegram members.
pub mod telegram_members {
    /// The owner.
    pub const OWNER: &str = "100001";
    /// The bot.
    pub const BOT: &str = "100002";
    /// A member.
    pub const ALICE: &str = "100003";
    /// A member.
    pub const BOB: &str = "100004";
    /// A member, to try actions on.
    pub const CAROL: &str = "100005";
    /// A member, to try actions on.
    pub const DAVE: &str = "100006";
    /// A member, to try actions on.
    pub const ERIN: &str = "100007";
    /// The mod-log: a private chat of the group's moderators, where the bot
    /// posts the logs (a group's members would see them in the group).
    pub const MODLOG: &str = "-1009876543210";
}

/// Simulated Slack members.
pub mod slack_members {
    /// The owner.
    pub const OWNER: &str = "U0DEMO0001";
    /// The bot.
    pub const BOT: &str = "U0DEMO0002";
    /// A member.
    pub const ALICE: &str = "U0DEMO0003";
    /// A member, to try actions on.
    pub const BOB: &str = "U0DEMO0004";
    /// A member, to try actions on.
    pub const CAROL: &str = "U0DEMO0005";
    /// A member, to try actions on.
    pub const DAVE: &str = "U0DEMO0006";
    /// A member, to try actions on.
    pub const ERIN: &str = "U0DEMO0007";
    /// The mod-log channel.
    pub const MODLOG: &str = "C0DEMOLOG1";
}

/// Discord permission bits the demo's overwrites use.
const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;

/// An overwrite of `@everyone` (the guild id, known only when seeding).
const fn everyone(allow: u64, deny: u64) -> SimOverwrite<'static> {
    SimOverwrite {
        id: None,
        kind: OverwriteKind::Role,
        allow,
        deny,
    }
}

const fn role(id: &'static str, allow: u64) -> SimOverwrite<'static> {
    SimOverwrite {
        id: Some(id),
        kind: OverwriteKind::Role,
        allow,
        deny: 0,
    }
}

/// The demo guild's channels: categories, text, announcement and voice
/// channels, with the overwrites a real guild has (read-only announcements,
/// a staff category hidden from everyone, a member overwrite for the owner,
/// a jail channel only the jailed see).
const DISCORD_CHANNELS: &[SimChannel<'static>] = {
    use discord_members::*;
    const INFO: &str = "700000000000000010";
    const COMMUNITY: &str = "700000000000000020";
    const STAFF: &str = "700000000000000030";
    const MODERATOR_ROLE: &str = "900000000000000003";
    const BOT_ROLE: &str = "900000000000000002";
    const STAFF_ONLY: &[SimOverwrite<'static>] = &[
        everyone(0, VIEW_CHANNEL),
        role(MODERATOR_ROLE, VIEW_CHANNEL | SEND_MESSAGES),
        role(BOT_ROLE, VIEW_CHANNEL | SEND_MESSAGES),
        SimOverwrite {
            id: Some(OWNER),
            kind: OverwriteKind::Member,
            allow: VIEW_CHANNEL,
            deny: 0,
        },
    ];
    &[
        SimChannel {
            kind: 4,
            ..SimChannel::text(INFO, "Information")
        },
        SimChannel {
            topic: Some("Read these before posting"),
            parent_id: Some(INFO),
            overwrites: &[everyone(0, SEND_MESSAGES)],
            ..SimChannel::text("700000000000000011", "rules")
        },
        SimChannel {
            kind: 5,
            topic: Some("News from the team"),
            parent_id: Some(INFO),
            position: 1,
            overwrites: &[
                everyone(0, SEND_MESSAGES),
                role(MODERATOR_ROLE, SEND_MESSAGES),
            ],
            ..SimChannel::text("700000000000000012", "announcements")
        },
        SimChannel {
            kind: 4,
            position: 1,
            ..SimChannel::text(COMMUNITY, "Community")
        },
        SimChannel {
            topic: Some("Say hello"),
            parent_id: Some(COMMUNITY),
            ..SimChannel::text("700000000000000021", "general")
        },
        SimChannel {
            kind: 2,
            parent_id: Some(COMMUNITY),
            position: 1,
            ..SimChannel::text("700000000000000022", "Voice")
        },
        SimChannel {
            kind: 4,
            position: 2,
            overwrites: STAFF_ONLY,
            ..SimChannel::text(STAFF, "Staff")
        },
        SimChannel {
            topic: Some("What modctl did, and why"),
            parent_id: Some(STAFF),
            overwrites: STAFF_ONLY,
            ..SimChannel::text(MODLOG, "mod-log")
        },
        SimChannel {
            position: 3,
            overwrites: &[
                everyone(0, VIEW_CHANNEL),
                role(JAILED_ROLE, VIEW_CHANNEL | SEND_MESSAGES),
                role(MODERATOR_ROLE, VIEW_CHANNEL | SEND_MESSAGES),
            ],
            ..SimChannel::text("700000000000000002", "jail")
        },
    ]
};

/// The demo workspace's channels.
const SLACK_CHANNELS: &[SimChannel<'static>] = &[
    SimChannel::text(slack_members::MODLOG, "mod-log"),
    SimChannel {
        topic: Some("Anything goes, within the rules"),
        ..SimChannel::text("C0DEMOGEN1", "general")
    },
];

/// The demo group's other chats: the moderators' mod-log. (The group
/// itself is the chat the bot is in without being one of these.)
const TELEGRAM_CHANNELS: &[SimChannel<'static>] =
    &[SimChannel::text(telegram_members::MODLOG, "mod-log")];

/// The community a simulated server starts with.
pub fn community(platform: Platform) -> Community<'static> {
    match platform {
        Platform::Discord => {
            use discord_members::*;
            const ROLES: &[SimRole<'static>] = &[
                SimRole {
                    role_id: "900000000000000001",
                    name: "Admin",
                    position: 10,
                    permissions: ADMINISTRATOR,
                    colour: 0xE74C3C,
                    hoist: true,
                },
                SimRole {
                    role_id: "900000000000000002",
                    name: "modctl",
                    position: 8,
                    permissions: KICK_MEMBERS | BAN_MEMBERS | MODERATE_MEMBERS | MANAGE_ROLES,
                    colour: 0x5865F2,
                    hoist: false,
                },
                SimRole {
                    role_id: "900000000000000003",
                    name: "Moderator",
                    position: 5,
                    permissions: KICK_MEMBERS | BAN_MEMBERS | MODERATE_MEMBERS,
                    colour: 0x2ECC71,
                    hoist: true,
                },
                SimRole {
                    role_id: JAILED_ROLE,
                    name: "Jailed",
                    position: 2,
                    permissions: 0,
                    colour: 0x95A5A6,
                    hoist: false,
                },
                SimRole {
                    role_id: "900000000000000004",
                    name: "Member",
                    position: 1,
                    permissions: 0,
                    colour: 0,
                    hoist: false,
                },
            ];
            const MEMBERS: &[SimMember<'static>] = &[
                SimMember {
                    user_id: OWNER,
                    name: "Olivia (owner)",
                    roles: &["900000000000000001"],
                },
                SimMember {
                    user_id: BOT,
                    name: "modctl",
                    roles: &["900000000000000002"],
                },
                SimMember {
                    user_id: MODERATOR,
                    name: "Mona (moderator)",
                    roles: &["900000000000000003"],
                },
                SimMember {
                    user_id: ALICE,
                    name: "Alice",
                    roles: &["900000000000000004"],
                },
                SimMember {
                    user_id: BOB,
                    name: "Bob",
                    roles: &["900000000000000004"],
                },
                SimMember {
                    user_id: ADA,
                    name: "Ada (admin)",
                    roles: &["900000000000000001"],
                },
                SimMember {
                    user_id: CAROL,
                    name: "Carol",
                    roles: &["900000000000000004"],
                },
                SimMember {
                    user_id: DAVE,
                    name: "Dave",
                    roles: &["900000000000000004"],
                },
                SimMember {
                    user_id: ERIN,
                    name: "Erin",
                    roles: &["900000000000000004"],
                },
            ];
            Community {
                owner_id: OWNER,
                bot_user_id: BOT,
                roles: ROLES,
                members: MEMBERS,
                channels: DISCORD_CHANNELS,
            }
        }
        Platform::Telegram => {
            use telegram_members::*;
            Community {
                owner_id: OWNER,
                bot_user_id: BOT,
                roles: &[],
                members: &[
                    SimMember {
                        user_id: OWNER,
                        name: "Olivia (owner)",
                        roles: &[],
                    },
                    SimMember {
                        user_id: BOT,
                        name: "modctl_bot",
                        roles: &[],
                    },
                    SimMember {
                        user_id: ALICE,
                        name: "Alice",
                        roles: &[],
                    },
                    SimMember {
                        user_id: BOB,
                        name: "Bob",
                        roles: &[],
                    },
                    SimMember {
                        user_id: CAROL,
                        name: "Carol",
                        roles: &[],
                    },
                    SimMember {
                        user_id: DAVE,
                        name: "Dave",
                        roles: &[],
                    },
                    SimMember {
                        user_id: ERIN,
                        name: "Erin",
                        roles: &[],
                    },
                ],
                channels: TELEGRAM_CHANNELS,
            }
        }
        Platform::Slack => {
            use slack_members::*;
            Community {
                owner_id: OWNER,
                bot_user_id: BOT,
                roles: &[],
                members: &[
                    SimMember {
                        user_id: OWNER,
                        name: "Olivia (owner)",
                        roles: &[],
                    },
                    SimMember {
                        user_id: BOT,
                        name: "modctl",
                        roles: &[],
                    },
                    SimMember {
                        user_id: ALICE,
                        name: "Alice",
                        roles: &[],
                    },
                    SimMember {
                        user_id: BOB,
                        name: "Bob",
                        roles: &[],
                    },
                    SimMember {
                        user_id: CAROL,
                        name: "Carol",
                        roles: &[],
                    },
                    SimMember {
                        user_id: DAVE,
                        name: "Dave",
                        roles: &[],
                    },
                    SimMember {
                        user_id: ERIN,
                        name: "Erin",
                        roles: &[],
                    },
                ],
                channels: SLACK_CHANNELS,
            }
        }
        _ => crate::platform::new_platform(platform),
    }
}

/// The demo's automod: blocked words that warn, caps that only delete.
fn demo_automod() -> serde_json::Value {
    serde_json::json!({
        "blocked_words": {"enabled": true, "words": ["scam*", "free nitro"], "action": "warn"},
        "caps": {"enabled": true, "action": "delete"},
    })
}

/// The demo's antinuke (issue #26): two deletions of a kind a minute, the
/// third bans, and the structure is put back from the snapshot before.
fn demo_antinuke() -> serde_json::Value {
    serde_json::json!({
        "enabled": true,
        "max_channel_deletions_per_minute": 2,
        "max_role_deletions_per_minute": 2,
        "action": "ban",
        "restore": true,
    })
}

/// The demo's log channels: every kind the simulator's events make (cases,
/// automod hits, members joining and leaving) to the server's mod-log, so
/// a caught message shows there as its hit and, for a warning, its case.
/// Deleted and edited messages are left out: the simulated members neither
/// edit nor delete.
fn demo_logging(modlog: &str) -> serde_json::Value {
    serde_json::json!({
        "moderation": modlog,
        "automod": modlog,
        "member_join": modlog,
        "member_leave": modlog,
    })
}

/// The demo's welcome (issue #26): new members greeted in `#general` (on
/// Telegram in the group, on Slack by DM) and given the `Member` role (on
/// Slack a user group; Telegram has no roles).
fn demo_welcome(id: &str) -> serde_json::Value {
    let message = "Welcome to {server}, {user}! Read the rules and say hello.";
    match id {
        DISCORD => serde_json::json!({"enabled": true, "channel_id": "700000000000000021",
            "message": message, "auto_role_ids": ["900000000000000004"]}),
        TELEGRAM => {
            serde_json::json!({"enabled": true, "channel_id": TELEGRAM, "message": message})
        }
        _ => serde_json::json!({"enabled": true, "channel_id": "C0DEMOGEN1", "message": message,
            "auto_role_ids": [DEMO_USER_GROUP]}),
    }
}

/// The Slack user group the demo's welcome adds new members to (the
/// simulator keeps a member's user groups as their roles).
pub const DEMO_USER_GROUP: &str = "S0DEMOMEMB";

/// Who joins the demo's servers now and then (the live trickle), in turn:
/// a name each, one of them trying to inject markup and a mention, which
/// the greeting shows inert.
const JOINERS: [&str; 4] = [
    "Grace",
    "@everyone <b>Eve</b> *free nitro*",
    "Linus",
    "Margaret",
];

/// The `n`th joiner's user id on demo server `id`, in the platform's shape.
fn joiner_id(id: &str, n: usize) -> String {
    match id {
        DISCORD => format!("80000000000{:07}", 1_000 + n),
        TELEGRAM => format!("{}", 200_000 + n),
        _ => format!("U0JOIN{n:04}"),
    }
}

/// What the demo's members now and then say that automod catches (the live
/// trickle), and the lines the banner suggests trying.
pub const CAUGHT_LINES: [&str; 3] = [
    "get free nitro here",
    "this is not a SCAM, trust me",
    "WHY IS NOBODY ANSWERING ME",
];

/// Who says the trickle's caught lines on demo server `id`: a member the
/// banner's lines do not ban or kick.
fn demo_speaker(id: &str) -> &'static str {
    match id {
        DISCORD => discord_members::BOB,
        TELEGRAM => telegram_members::ALICE,
        _ => slack_members::ALICE,
    }
}

/// The keys `setup` created.
#[derive(Debug)]
pub struct DemoKeys {
    /// Read+write key.
    pub write: String,
    /// Read-only key.
    pub read: String,
}

/// Creates the demo team, keys and servers, connects the servers to the
/// simulator with their communities, sets up jail, mod-log, log channels
/// (`demo_logging`) and automod config, and
/// captures one structure snapshot of each server (source and actor
/// `operator`), so listing snapshots shows something and a nuke can be
/// restored at once; and writes 90 days of community activity and cases
/// (`simulator::activity`), so both insights show something at once.
pub async fn setup(store: &Store, clock: &Clock) -> anyhow::Result<DemoKeys> {
    let secrets = store.secrets().clone();
    let now = clock.now_unix();
    store
        .write(move |tx| {
            let team = teams::create(tx, "demo", Plan::Pro, now)?;
            for (platform, id, name) in SERVERS {
                crate::servers::claim(tx, team.id, platform, id, name, now)?;
                connections::set(tx, &secrets, id, &Connection::new(ConnectionMode::Simulated), now)?;
                simulator::seed(tx, id, &community(platform))?;
            }
            let demo_config = [
                (DISCORD, SectionName::General, serde_json::json!({"modlog_channel_id": discord_members::MODLOG})),
                (
                    DISCORD,
                    SectionName::Jail,
                    serde_json::json!({"enabled": true, "role_id": discord_members::JAILED_ROLE, "channel_id": "700000000000000002"}),
                ),
                (TELEGRAM, SectionName::General, serde_json::json!({"modlog_channel_id": telegram_members::MODLOG})),
                (TELEGRAM, SectionName::Jail, serde_json::json!({"enabled": true})),
                (SLACK, SectionName::General, serde_json::json!({"modlog_channel_id": slack_members::MODLOG})),
                (DISCORD, SectionName::Logging, demo_logging(discord_members::MODLOG)),
                (TELEGRAM, SectionName::Logging, demo_logging(telegram_members::MODLOG)),
                (SLACK, SectionName::Logging, demo_logging(slack_members::MODLOG)),
                (DISCORD, SectionName::Automod, demo_automod()),
                (DISCORD, SectionName::Antinuke, demo_antinuke()),
                (TELEGRAM, SectionName::Automod, demo_automod()),
                (SLACK, SectionName::Automod, demo_automod()),
                (DISCORD, SectionName::Welcome, demo_welcome(DISCORD)),
                (TELEGRAM, SectionName::Welcome, demo_welcome(TELEGRAM)),
                (SLACK, SectionName::Welcome, demo_welcome(SLACK)),
            ];
            for (server_id, section, value) in demo_config {
                let mut sections = config::load(tx, server_id)?.sections;
                sections.replace_from_json(section, value).map_err(|e| anyhow::anyhow!("demo config: {e}"))?;
                crate::config::apply(
                    tx,
                    &secrets,
                    crate::config::Change::by(server_id, "operator:demo", sections, now),
                )?;
            }
            Ok::<_, anyhow::Error>(())
        })
        .await?;
    // History for the insights: 90 days of activity and cases per server.
    for (platform, id, _) in SERVERS {
        store
            .write(move |tx| super::demo_activity::seed_history(tx, id, platform, now))
            .await?;
    }
    // Capturing from the simulator needs no platform client nor the
    // daemon's clock: a state of its own will do.
    let state = AppState::new(store.clone());
    for (_, id, _) in SERVERS {
        let server = store
            .read(move |tx| servers::find(tx, id))
            .await?
            .ok_or_else(|| anyhow::anyhow!("demo server {id} vanished"))?
            .server;
        crate::snapshots::capture(
            &state.snapshots(),
            &server,
            SnapshotSource::Operator,
            "operator".into(),
        )
        .await?;
    }
    // Named, so the demo's cases show a person beside the key id (issue #27).
    let write = create_named_key(
        store,
        "demo",
        Scope::Write,
        Some("demo read+write".into()),
        Some("Demo moderator".into()),
        None,
    )
    .await?;
    let read = create_key(
        store,
        "demo",
        Scope::Read,
        Some("demo read-only".into()),
        None,
    )
    .await?;
    Ok(DemoKeys {
        write: write.full,
        read: read.full,
    })
}

/// The members of demo server `id` to try actions on: every simulated
/// member but its owner, the bot and the moderator (whose part is the
/// nuke), as `(id, name)`, in the community's order.
pub fn members_to_try(platform: Platform) -> Vec<(&'static str, &'static str)> {
    let community = community(platform);
    community
        .members
        .iter()
        .filter(|m| {
            m.user_id != community.owner_id
                && m.user_id != community.bot_user_id
                && m.user_id != discord_members::MODERATOR
        })
        .map(|m| (m.user_id, m.name))
        .collect()
}

/// The banner's lines of who is where: per server its mod-log and the
/// members to try every action on (note, warn, timeout, kick, ban, unban,
/// jail, unjail), made from the simulated communities so they cannot
/// drift apart.
pub fn member_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for (platform, id, _) in SERVERS {
        let modlog = match platform {
            Platform::Discord => format!("mod-log {}", discord_members::MODLOG),
            Platform::Telegram => format!("mod-log chat {}", telegram_members::MODLOG),
            _ => format!("mod-log {}", slack_members::MODLOG),
        };
        lines.push(format!("{:<9}{id}  {modlog}", platform.as_str()));
        // Wrapped within 100 columns, a member never split.
        let mut line = "    members:".to_owned();
        for (user, name) in members_to_try(platform) {
            let member = format!(" {user} {name},");
            if line.len() + member.len() > 98 && line.ends_with(',') {
                lines.push(line);
                line = "            ".to_owned();
            }
            line.push_str(&member);
        }
        lines.push(line.trim_end_matches(',').to_owned());
    }
    lines
}

/// The commands the demo suggests trying, in order: moderation, then
/// capturing the guild's structure, nuking it and restoring it, then
/// webhooks. The README's
/// demo section shows the same lines (`tests/tests/docs.rs` checks).
pub fn try_these() -> Vec<String> {
    use discord_members::{ADA, ALICE, BOB};
    let (tg_bob, slack_alice) = (telegram_members::BOB, slack_members::ALICE);
    // Comments line up after the longest command.
    let noted = |command: String, note: &str| format!("{command:<62} # {note}");
    vec![
        "modctl whoami".into(),
        "modctl servers list".into(),
        format!("modctl action ban {DISCORD} {ALICE} --reason spam --yes"),
        noted(
            format!("modctl action ban {DISCORD} {ADA} --yes"),
            "not applied (exit 7): Ada's role is above the bot's",
        ),
        format!("modctl action kick {TELEGRAM} {tg_bob} --yes"),
        format!("modctl action timeout {SLACK} {slack_alice} --duration 1h"),
        format!("modctl cases list {DISCORD}"),
        noted(
            format!("modctl watch {DISCORD}"),
            "cases, automod hits, joins as they happen; Ctrl-C stops",
        ),
        noted(
            format!("modctl insights {DISCORD} --days 90"),
            "cases per day, moderators, repeat targets",
        ),
        noted(
            format!("modctl activity {DISCORD}"),
            "messages, voice, joins; updates every few seconds",
        ),
        noted(
            format!("modctl insights {DISCORD} --chart cases.svg"),
            "also an SVG: applied and not applied stacked, escalations, a legend",
        ),
        noted(
            format!("modctl activity {DISCORD} --chart activity.svg"),
            "also an SVG: a panel with its own axis per series the terminal shows",
        ),
        noted(
            format!("modctl snapshot list {DISCORD}"),
            "the demo captured one at start",
        ),
        format!("modctl snapshot capture {DISCORD}"),
        noted(
            format!("modctld simulate nuke {DISCORD}"),
            &format!("deletes {DEFAULT_ROLES} roles and {DEFAULT_CHANNELS} channels"),
        ),
        noted(
            format!("modctl snapshot restore {DISCORD} --dry-run"),
            "what a restore would create",
        ),
        format!("modctl snapshot restore {DISCORD} --yes"),
        noted(
            format!(
                "modctld simulate nuke {DISCORD} --by {} --channels 8",
                discord_members::MODERATOR
            ),
            "Mona nukes: antinuke bans her part-way and restores",
        ),
        noted(
            format!("modctl webhooks test {DISCORD} --wait"),
            "the demo's receiver prints it, verified",
        ),
        format!("modctl webhooks deliveries {DISCORD}"),
        noted(
            format!(
                "modctld simulate message {DISCORD} {BOB} \"{}\"",
                CAUGHT_LINES[0]
            ),
            "deleted, a hit and a warning case",
        ),
        noted(
            format!("modctld simulate posts {DISCORD}"),
            "the DM to Bob; the hit and the case in #mod-log",
        ),
        noted(
            format!(
                "modctld simulate message {TELEGRAM} {} \"{}\"",
                telegram_members::ALICE,
                CAUGHT_LINES[2]
            ),
            "capitals: deleted and a hit, no case",
        ),
        noted(
            format!("modctld simulate posts {TELEGRAM}"),
            "the hit in the moderators' mod-log chat",
        ),
        noted(
            format!(
                "modctld simulate message {SLACK} {slack_alice} \"{}\"",
                CAUGHT_LINES[1]
            ),
            "deleted, a hit and a warning case",
        ),
        noted(
            format!("modctld simulate posts {SLACK}"),
            "the warning in #mod-log, the DM to Alice, the hit",
        ),
        noted(
            format!("modctl automod hits {DISCORD}"),
            "what automod caught, the trickle's too",
        ),
        noted(
            format!(
                "modctld simulate join {DISCORD} 800000000000000042 --name \"@everyone *Eve*\""
            ),
            "greeted in #general, mentioning her alone; given Member",
        ),
        noted(
            format!("modctld simulate join {TELEGRAM} 300001 --name \"<b>Eve</b>\""),
            "greeted in the group, the name shown as written",
        ),
        noted(
            format!("modctld simulate join {SLACK} U0NEWBIE01 --name Sam"),
            &format!("greeted by DM, added to user group {DEMO_USER_GROUP}"),
        ),
        noted(
            format!("modctl config set {TELEGRAM} welcome.verification captcha"),
            "newcomers to the group answer a captcha",
        ),
        noted(
            format!("modctld simulate join {TELEGRAM} 300002 --name Zoe"),
            "restricted; a photo of a code with a keypad",
        ),
        noted(
            format!("modctld simulate verify {TELEGRAM} 300002 --answer 00000"),
            "a wrong code: 1 of 3 wrong answers",
        ),
        noted(
            format!("modctld simulate verify {TELEGRAM} 300002"),
            "answered with the code the simulator drew: verified",
        ),
        noted(
            format!("modctl config set {SLACK} welcome.verification captcha"),
            "newcomers to the workspace answer a captcha by DM",
        ),
        noted(
            format!("modctld simulate join {SLACK} U0NEWBIE02 --name Max"),
            "greeted by DM with the verify button",
        ),
        noted(
            format!("modctld simulate verify {SLACK} U0NEWBIE02"),
            "the image in the DM, the code typed in the modal: verified",
        ),
        noted(
            format!("modctl config set {DISCORD} antinuke.max_joins_per_minute 10"),
            "more joins in a minute: a raid lockdown",
        ),
        noted(
            format!("modctld simulate raid {DISCORD} --joins 12"),
            "invites paused, the 12 raiders timed out",
        ),
        noted(
            format!("modctl lockdown status {DISCORD}"),
            "ends by itself in 10 minutes, or:",
        ),
        format!("modctl lockdown end {DISCORD}"),
    ]
}

/// Runs `modctld demo` until Ctrl-C.
pub async fn run(listen: SocketAddr, rate_limits: bool) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("modctld-demo-{}", std::process::id()));
    let db = dir.join("demo.db");
    // Beside the demo's directory, not in it: kept after the demo stops,
    // for reading what happened.
    let log_path = std::env::temp_dir().join(format!("modctld-demo-{}.log", std::process::id()));
    let log_file = std::fs::File::create(&log_path)
        .map_err(|e| anyhow::anyhow!("cannot create the demo's log {}: {e}", log_path.display()))?;
    let _cleanup = RemoveOnDrop(dir);
    // Bind first: a busy port should fail before anything is printed.
    let listener = bind(listen).await?;
    let address = listener.local_addr()?;
    let store = Store::open(&db).await?;
    let clock = Clock::system();
    let keys = setup(&store, &clock).await?;
    // The demo guild's events go to a receiver of the demo's own, which
    // prints each one it verified below the banner.
    let report: demo_webhooks::Report = Arc::new(|line| println!("{line}"));
    let receiver = demo_webhooks::start(report).await?;
    demo_webhooks::subscribe(&store, DISCORD, &receiver, clock.now_unix()).await?;

    let url = format!("http://{address}");
    println!(
        "modctld demo is serving {url}/api/v1 (database {db})

Team `demo` has three servers, each connected to the built-in simulator, with members to try
every action on (note, warn, timeout, kick, ban, unban, jail, unjail; on Discord an action on Ada,
an admin above the bot, is not applied; Slack records what its bots cannot do):
{members}

The daemon's log (every request, warnings) goes to {log}, not here: `tail -f {log}`.

  read+write key: {write}
  read-only key:  {read}

Paste this into another terminal (MODCTLD_DB points the operator commands at the demo's database):

  export MODCTL_URL={url} MODCTL_API_KEY={write} MODCTLD_DB={db}

then try:

{try_these}

Automod is on in each server, and its hits and cases are logged to the server's mod-log. Welcome is
on too: a member who joins (`modctld simulate join`, and now and then the trickle) is greeted. What the
bot posts to the simulated servers (log posts, DMs, notices) is printed here as it arrives
(`posted to discord #mod-log: ...`); `modctld simulate posts SERVER` lists it.

Webhooks: the Discord server's events go, signed, to a receiver inside this demo ({hook_url}), which
checks each signature with the SDK's verify and prints the event here; a test event is on its way.
To watch them in your own terminal instead (with `modctl webhooks listen`):

  MODCTL_WEBHOOK_SECRET={hook_secret} modctl webhooks listen --port 7879
  modctl config set {DISCORD} webhooks.url http://127.0.0.1:7879/

(from a checkout, `cargo run -q -p modctl --` stands in for `modctl`, `cargo run -q -p modctld --` for `modctld`).
Press Ctrl-C to stop; the demo database is deleted on exit.",
        db = db.display(),
        log = log_path.display(),
        members = member_lines()
            .iter()
            .map(|line| format!("  {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        try_these = try_these()
            .iter()
            .map(|line| format!("  {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        write = keys.write,
        read = keys.read,
        hook_url = receiver.url,
        hook_secret = receiver.secret,
    );
    // What the bot posts to the simulated communities (log posts, DMs,
    // notices), printed here as it arrives, whichever process posted it.
    let printer: demo_webhooks::Report = Arc::new(|line| println!("{line}"));
    tokio::spawn(super::simulate_posts::watch(store.clone(), printer));
    // The daemon's log goes to a file: every request logged on the
    // terminal would push the banner and the posts out of sight.
    let _logging = init_logging_to(super::LogFormat::Text, log_file, false);
    let state = AppState::new(store)
        .with_clock(clock.clone())
        .with_webhooks_allow_internal(true)
        .with_rate_limits(rate_limits);
    // The members' names beside their ids (issue #27), as a gateway's
    // GUILD_CREATE would give them.
    for (_, id, _) in SERVERS {
        if let Err(e) = crate::names::learn_simulated(&state.store, &state.names, id).await {
            tracing::debug!(error = %e, "the demo's member names were not learned");
        }
    }
    // The live trickle: a few events every few seconds, as a gateway would
    // hand them over, through the event path to its consumers (voice
    // minutes straight to the counts); the flush worker writes them.
    let live = state.activity.clone();
    let events = state.events.clone();
    let trickle_store = state.store.clone();
    tokio::spawn(async move {
        let mut rng = super::demo_activity::Rng::new(clock.now_unix() as u64);
        let mut tick = 0usize;
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(TRICKLE_SECONDS as u64)).await;
            let now = clock.now_unix();
            // Now and then (every sixth tick, a server in turn) a member
            // says something automod catches, through the same event path.
            tick += 1;
            if tick.is_multiple_of(6) {
                let (_, id, _) = SERVERS[(tick / 6) % SERVERS.len()];
                let user = demo_speaker(id);
                let line = CAUGHT_LINES[(tick / 6) % CAUGHT_LINES.len()];
                match super::simulate_message::speak(
                    &trickle_store,
                    clock.now(),
                    id,
                    user,
                    line,
                    None,
                )
                .await
                {
                    Ok(event) => events.publish(event),
                    Err(e) => tracing::debug!(error = %e, "the demo's caught line was not said"),
                }
            }
            // Now and then (every twelfth tick, a server in turn) someone
            // new joins and is greeted, through the same event path.
            if tick % 12 == 3 {
                let n = tick / 12;
                let (_, id, _) = SERVERS[n % SERVERS.len()];
                let name = JOINERS[n % JOINERS.len()].to_owned();
                match super::simulate_join::enter(
                    &trickle_store,
                    clock.now(),
                    id,
                    &joiner_id(id, n),
                    Some(name),
                )
                .await
                {
                    Ok(event) => events.publish(event),
                    Err(e) => tracing::debug!(error = %e, "the demo's joiner did not join"),
                }
            }
            for (platform, id, _) in SERVERS {
                for event in
                    super::demo_activity::trickle(&mut rng, id, platform, now, TRICKLE_SECONDS)
                {
                    // Joins are the joiners' above, who become members of
                    // the simulated community that welcome greets and gives
                    // roles to; a made-up id joining would be greeted
                    // without being one.
                    if matches!(event.kind, modctl_types::activity::ActivityKind::Join) {
                        continue;
                    }
                    match super::demo_activity::live_event(platform, event) {
                        Ok(event) => events.publish(event),
                        Err(voice) => live.record(voice),
                    }
                }
            }
        }
    });
    crate::serve(listener, state, shutdown_signal()).await?;
    Ok(())
}

struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
