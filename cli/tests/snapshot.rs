//! `modctl snapshot`: the renderers on constructed values (plan, progress at
//! the end, report, list, content per platform), and capture, list, show and
//! the refusals against a real daemon with simulated servers.

use crate::support::{modctl, stable, stderr_of, stdout_of};
use insta::assert_snapshot;
use modctl::commands::snapshot::plan::{
    PlanView, job_failed, render_plan, render_progress_bars, render_progress_line, render_report,
};
use modctl::commands::snapshot::render::{render_content, render_list, render_meta};
use modctl::output::{Fit, OutputMode, with_fit};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::Platform;
use modctl_types::restore::{
    ItemKind, ItemOutcome, JobItem, JobState, KindProgress, MatchedBy, PlanItem, PlanStep,
    RemappedId, RestoreJob, RestorePlan,
};
use modctl_types::snapshot::{
    DiscordChannel, DiscordGuildSettings, DiscordRole, DiscordStructure, OverwriteKind,
    PermissionOverwrite, SlackChannel, SlackStructure, SlackUserGroup, Snapshot, SnapshotCounts,
    SnapshotListing, SnapshotMeta, SnapshotSource, StructureContent, TelegramAdministrator,
    TelegramPermissions, TelegramStructure,
};

const GUILD: &str = "100000000000000001";

fn role(id: &str, name: &str, position: i64) -> DiscordRole {
    DiscordRole {
        id: id.into(),
        name: name.into(),
        colour: 0,
        hoist: false,
        mentionable: false,
        permissions: "0".into(),
        position,
        icon: None,
        unicode_emoji: None,
        managed: false,
        is_everyone: false,
    }
}

fn channel(id: &str, kind: u8, name: &str, parent: Option<&str>, position: i64) -> DiscordChannel {
    DiscordChannel {
        id: id.into(),
        kind,
        name: name.into(),
        topic: None,
        nsfw: false,
        rate_limit_per_user: None,
        bitrate: None,
        user_limit: None,
        parent_id: parent.map(str::to_owned),
        position,
        permission_overwrites: Vec::new(),
    }
}

fn overwrite(id: &str, kind: OverwriteKind) -> PermissionOverwrite {
    PermissionOverwrite {
        id: id.into(),
        kind,
        allow: "1024".into(),
        deny: "2048".into(),
    }
}

fn discord() -> StructureContent {
    let mut everyone = role(GUILD, "@everyone", 0);
    everyone.is_everyone = true;
    everyone.permissions = "104324673".into();
    let mut admin = role("11", "Admin", 3);
    admin.permissions = "8".into();
    admin.colour = 0xE74C3C;
    admin.hoist = true;
    admin.unicode_emoji = Some("🛡".into());
    let mut mods = role("12", "Moderators", 2);
    mods.permissions = "1099511627776".into();
    mods.mentionable = true;
    let mut bot = role("13", "modbot", 1);
    bot.managed = true;
    let mut staff = channel("20", 4, "Staff", None, 0);
    staff.permission_overwrites = vec![
        overwrite(GUILD, OverwriteKind::Role),
        overwrite("12", OverwriteKind::Role),
    ];
    let mut staff_chat = channel("21", 0, "staff-chat", Some("20"), 0);
    staff_chat.topic = Some("Staff only".into());
    staff_chat.rate_limit_per_user = Some(10);
    staff_chat.permission_overwrites = vec![
        overwrite("12", OverwriteKind::Role),
        overwrite("900", OverwriteKind::Member),
    ];
    let mut voice = channel("22", 2, "Staff voice", Some("20"), 1);
    voice.bitrate = Some(64000);
    voice.user_limit = Some(5);
    let mut rules = channel("23", 0, "rules", None, 0);
    rules.topic = Some("Be kind".into());
    let mut news = channel("24", 5, "news", None, 1);
    news.permission_overwrites = vec![overwrite(GUILD, OverwriteKind::Role)];
    StructureContent::Discord(DiscordStructure {
        settings: DiscordGuildSettings {
            name: "Demo guild".into(),
            verification_level: 1,
            default_message_notifications: 1,
            explicit_content_filter: 2,
            system_channel_id: Some("24".into()),
            rules_channel_id: Some("23".into()),
        },
        roles: vec![admin, mods, bot, everyone],
        channels: vec![staff, rules, news, staff_chat, voice],
    })
}

fn slack() -> StructureContent {
    let channel = |id: &str, name: &str, private: bool, archived: bool, topic: &str| SlackChannel {
        id: id.into(),
        name: name.into(),
        is_private: private,
        topic: topic.into(),
        purpose: String::new(),
        is_archived: archived,
    };
    StructureContent::Slack(SlackStructure {
        channels: vec![
            channel("C01", "general", false, false, "Say hi"),
            channel("C02", "mods", true, false, ""),
            channel("C03", "old-launch", false, true, ""),
        ],
        user_groups: vec![SlackUserGroup {
            id: "S01".into(),
            name: "Moderators".into(),
            handle: "mods".into(),
            description: "The mod team".into(),
            default_channels: vec!["C02".into()],
            members: vec!["U01".into(), "U02".into()],
        }],
    })
}

fn telegram() -> StructureContent {
    StructureContent::Telegram(TelegramStructure {
        title: "Demo group".into(),
        description: Some("A friendly group".into()),
        default_permissions: TelegramPermissions {
            can_send_messages: true,
            can_send_photos: true,
            can_invite_users: true,
            ..TelegramPermissions::default()
        },
        slow_mode_delay: Some(30),
        administrators: vec![
            TelegramAdministrator {
                user_id: "1001".into(),
                first_name: "Alice".into(),
                username: Some("alice".into()),
                is_bot: false,
                status: "creator".into(),
                custom_title: Some("Founder".into()),
                rights: Vec::new(),
            },
            TelegramAdministrator {
                user_id: "2002".into(),
                first_name: "modbot".into(),
                username: Some("demo_modbot".into()),
                is_bot: true,
                status: "administrator".into(),
                custom_title: None,
                rights: vec!["can_delete_messages".into(), "can_restrict_members".into()],
            },
        ],
    })
}

fn meta(id: i64, content: &StructureContent, source: SnapshotSource) -> SnapshotMeta {
    SnapshotMeta {
        id,
        server_id: GUILD.into(),
        platform: content.platform(),
        captured_at: format!("2026-11-2{id}T09:00:00Z").parse().unwrap(),
        source,
        actor: match source {
            SnapshotSource::Schedule => "schedule".into(),
            _ => "key:abcdef123456".into(),
        },
        counts: content.counts(),
        content_hash: format!("{id:0>64}"),
        size_bytes: 2048 + id as u64,
    }
}

#[test]
fn list_as_table_and_plain() {
    let content = discord();
    let listing = SnapshotListing {
        latest: Snapshot {
            meta: meta(2, &content, SnapshotSource::Api),
            content: None,
        },
        recent: vec![
            meta(2, &content, SnapshotSource::Api),
            meta(1, &content, SnapshotSource::Schedule),
        ],
    };
    assert_snapshot!("list_table", render_list(&listing, OutputMode::Table));
    assert_snapshot!("list_plain", render_list(&listing, OutputMode::Plain));
    assert_eq!(
        render_meta(&listing.recent[0], OutputMode::Plain)
            .lines()
            .find(|l| l.starts_with("roles\t")),
        Some("roles\t4")
    );
}

#[test]
fn content_of_each_platform_as_outline_and_rows() {
    for (name, content) in [
        ("discord", discord()),
        ("slack", slack()),
        ("telegram", telegram()),
    ] {
        assert_snapshot!(
            format!("show_{name}_table"),
            render_content(&content, OutputMode::Table)
        );
        let plain = render_content(&content, OutputMode::Plain);
        assert!(
            plain.lines().all(|l| l.split('\t').count() == 5),
            "every piped row has five columns:\n{plain}"
        );
        assert_snapshot!(format!("show_{name}_plain"), plain);
    }
}

fn planned(kind: ItemKind, id: &str, name: &str, step: PlanStep, detail: &str) -> PlanItem {
    PlanItem {
        kind,
        snapshot_id: id.into(),
        name: name.into(),
        step,
        matched_by: None,
        live_id: None,
        detail: detail.into(),
    }
}

fn present(kind: ItemKind, id: &str, name: &str, how: MatchedBy, live: &str) -> PlanItem {
    let detail = match how {
        MatchedBy::Restored => format!("present: an earlier restore created it as {live}"),
        MatchedBy::Name => format!("present: matched by name, as {live}"),
        _ => format!("present, as {live}"),
    };
    PlanItem {
        matched_by: Some(how),
        live_id: Some(live.into()),
        ..planned(kind, id, name, PlanStep::Present, &detail)
    }
}

fn plan() -> RestorePlan {
    use ItemKind::*;
    RestorePlan::new(
        7,
        vec![
            present(Role, "11", "Admin", MatchedBy::Id, "11"),
            planned(
                Role,
                "12",
                "Moderators",
                PlanStep::Create,
                "create, with its permissions",
            ),
            planned(
                Role,
                "14",
                "Owners",
                PlanStep::Skip,
                "skipped: above the bot's top role (modbot, position 1)",
            ),
            present(Category, "20", "Staff", MatchedBy::Name, "30"),
            planned(
                Channel,
                "21",
                "staff-chat",
                PlanStep::Create,
                "create, in the category 30",
            ),
            present(Channel, "23", "rules", MatchedBy::Restored, "33"),
            planned(
                Overwrite,
                "21/12",
                "#staff-chat → @Moderators",
                PlanStep::Create,
                "create, for the role the restore creates",
            ),
            planned(
                Overwrite,
                "21/900",
                "#staff-chat → member 900",
                PlanStep::Create,
                "create, for the member 900",
            ),
            planned(
                Overwrite,
                "21/14",
                "#staff-chat → @Owners",
                PlanStep::Skip,
                "skipped: the role @Owners is not restored",
            ),
        ],
    )
}

#[test]
fn plan_in_full_with_changes_only_and_piped() {
    let plan = plan();
    assert_snapshot!(
        "plan_table",
        render_plan(&plan, PlanView::Full, OutputMode::Table)
    );
    assert_snapshot!(
        "plan_changes_table",
        render_plan(&plan, PlanView::Changes, OutputMode::Table)
    );
    assert_snapshot!(
        "plan_plain",
        render_plan(&plan, PlanView::Full, OutputMode::Plain)
    );
    let nothing = RestorePlan::new(
        7,
        vec![present(ItemKind::Role, "11", "Admin", MatchedBy::Id, "11")],
    );
    assert!(
        render_plan(&nothing, PlanView::Changes, OutputMode::Table)
            .ends_with("Nothing to restore.\n")
    );
}

/// The plan's job at its end: everything worked through, one channel
/// refused by the platform.
fn ended_job() -> RestoreJob {
    let plan = plan();
    let items = plan
        .items
        .into_iter()
        .map(|planned| {
            let (outcome, result) = match planned.step {
                PlanStep::Skip => (ItemOutcome::Skipped, None),
                _ if planned.snapshot_id == "21" => (
                    ItemOutcome::Failed,
                    Some("Discord refused it: Missing Permissions (50013)".to_owned()),
                ),
                _ if planned.snapshot_id.starts_with("21/") => (
                    ItemOutcome::Skipped,
                    Some("skipped: its channel was not created".to_owned()),
                ),
                PlanStep::Present => (ItemOutcome::Done, None),
                _ => (ItemOutcome::Done, Some("created as 40".to_owned())),
            };
            JobItem {
                planned,
                outcome,
                result,
            }
        })
        .collect();
    let progress = |kind, done, failed, skipped| KindProgress {
        kind,
        done,
        failed,
        skipped,
        remaining: 0,
    };
    RestoreJob {
        id: 3,
        server_id: GUILD.into(),
        snapshot_id: 7,
        actor: "key:abcdef123456".into(),
        state: JobState::Done,
        detail: None,
        created_at: "2026-11-21T09:00:00Z".parse().unwrap(),
        finished_at: Some("2026-11-21T09:02:00Z".parse().unwrap()),
        summary: plan.summary,
        progress: vec![
            progress(ItemKind::Role, 2, 0, 1),
            progress(ItemKind::Category, 1, 0, 0),
            progress(ItemKind::Channel, 1, 1, 0),
            progress(ItemKind::Overwrite, 0, 0, 3),
        ],
        items,
        config_remapped: vec![RemappedId {
            path: "jail.role_id".into(),
            from: "12".into(),
            to: "40".into(),
            name: Some("Jailed".into()),
        }],
    }
}

#[test]
fn progress_at_the_end_as_bars_and_lines() {
    let job = ended_job();
    assert_snapshot!("progress_end_bars", render_progress_bars(&job));
    let lines: String = job.progress.iter().map(render_progress_line).collect();
    assert_snapshot!("progress_end_lines", lines);
    // Halfway: the bar is half full.
    let mut halfway = job.clone();
    halfway.state = JobState::Running;
    halfway.progress = vec![KindProgress {
        kind: ItemKind::Channel,
        done: 5,
        failed: 0,
        skipped: 0,
        remaining: 5,
    }];
    let bars = render_progress_bars(&halfway);
    assert!(
        bars.contains(&format!("{}{}", "█".repeat(12), "░".repeat(12))),
        "{bars}"
    );
}

#[test]
fn report_with_failures_and_skips_and_its_exit_status() {
    let job = ended_job();
    let at = |width| Fit {
        width,
        wide: false,
        colour: false,
    };
    let report = |job: &RestoreJob, mode, width| with_fit(at(width), || render_report(job, mode));
    assert_snapshot!("report_table", report(&job, OutputMode::Table, None));
    assert_snapshot!("report_plain", report(&job, OutputMode::Plain, None));
    // On a narrow terminal a reason too long for its line goes below it,
    // wrapped between words; the names and ids stay whole.
    for width in [60, 120] {
        let table = report(&job, OutputMode::Table, Some(width));
        assert!(
            table.lines().all(|l| l.chars().count() <= width),
            "{width} columns:\n{table}"
        );
        assert_snapshot!(format!("report_table_{width}"), table);
    }
    assert!(job_failed(&job), "a failed item fails the command");
    let mut clean = job.clone();
    clean.items.retain(|i| i.outcome != ItemOutcome::Failed);
    assert!(!job_failed(&clean));
    let mut stopped = clean.clone();
    stopped.state = JobState::Failed;
    stopped.detail = Some("the server lost its platform connection".into());
    stopped.items[0].outcome = ItemOutcome::Pending;
    assert!(job_failed(&stopped));
    assert_snapshot!(
        "report_stopped_table",
        report(&stopped, OutputMode::Table, None)
    );
    // `snapshot job` without --wait may show a job still going.
    let mut running = clean;
    running.state = JobState::Running;
    running.items[0].outcome = ItemOutcome::Pending;
    assert!(!job_failed(&running));
    let report = report(&running, OutputMode::Table, None);
    assert!(
        report.starts_with("Restore job 3 of snapshot 7 running:\n")
            && report.contains("\nNot worked on yet:\n  role      Admin  present, as 11\n"),
        "{report}"
    );
}

#[test]
fn capture_list_and_show_against_the_simulated_servers() {
    let fixture = Fixture::simulated();
    fixture
        .daemon
        .connect_simulated(ALPHA_SLACK, Platform::Slack);
    let key = Some(&fixture.alpha_rw);
    for server in [ALPHA_DISCORD, ALPHA_TELEGRAM, ALPHA_SLACK] {
        let captured = stdout_of(
            modctl(&fixture, key).args(["snapshot", "capture", server]),
            0,
        );
        let id = captured
            .lines()
            .find_map(|l| l.strip_prefix("id\t"))
            .expect("the id row")
            .to_owned();
        assert!(
            captured.contains(&format!("server\t{server}\n")),
            "{captured}"
        );
        let listed = stdout_of(modctl(&fixture, key).args(["snapshot", "list", server]), 0);
        assert_eq!(listed.lines().count(), 1, "{listed}");
        assert!(listed.starts_with(&format!("{id}\t")), "{listed}");
        let json = stdout_of(
            modctl(&fixture, key).args(["snapshot", "show", server, &id, "--content", "--json"]),
            0,
        );
        let snapshot: Snapshot = serde_json::from_str(&json).unwrap();
        let content = snapshot.content.expect("content asked for");
        // The content the CLI prints piped is the content the API holds.
        let plain = stdout_of(
            modctl(&fixture, key).args(["snapshot", "show", server, "--content"]),
            0,
        );
        assert_eq!(plain, render_content(&content, OutputMode::Plain));
        let table = stdout_of(
            modctl(&fixture, key).args(["snapshot", "show", server, "--content", "--table"]),
            0,
        );
        let keys = [&fixture.alpha_rw];
        assert_snapshot!(
            format!("sim_show_{}", content.platform()),
            stable(&table, &keys)
        );
    }
    let counts: SnapshotCounts = serde_json::from_str::<SnapshotMeta>(&stdout_of(
        modctl(&fixture, key).args(["snapshot", "capture", ALPHA_DISCORD, "--json"]),
        0,
    ))
    .unwrap()
    .counts;
    assert!(counts.roles > 0 && counts.channels > 0, "{counts:?}");
}

#[test]
fn no_snapshot_yet_names_the_command_that_captures_one() {
    let fixture = Fixture::simulated();
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["snapshot", "show", ALPHA_TELEGRAM]),
        5,
    );
    assert_snapshot!("show_none_yet", err);
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["snapshot", "show", ALPHA_DISCORD, "99"]),
        5,
    );
    assert!(
        err.contains(&format!("hint: `modctl snapshot list {ALPHA_DISCORD}`")),
        "{err}"
    );
}

#[test]
fn a_restore_without_a_terminal_needs_yes_and_asks_nothing_of_the_daemon() {
    let fixture = Fixture::simulated();
    // An unreachable URL: the refusal comes before any request.
    let err = stderr_of(
        modctl(&fixture, Some(&fixture.alpha_rw))
            .env("MODCTL_URL", "http://127.0.0.1:9")
            .args(["snapshot", "restore", ALPHA_DISCORD]),
        2,
    );
    assert!(
        err.contains("confirmation needed but there is no terminal") && err.contains("--yes"),
        "{err}"
    );
}
