//! What `modctld demo` sets up beyond moderation (issue #10): every demo
//! server starts with a structure snapshot, so listing snapshots shows one
//! and the nuke-and-restore lines the demo prints work from the start; and
//! the demo's nuke leaves something for a restore to put back. And its
//! webhook receiver (issue #11) prints a verified test event, then every
//! event of the demo guild.

use std::collections::{HashMap, HashSet};

use modctl_client::Client;
use modctl_e2e::TestDaemon;
use modctl_types::Platform;
use modctl_types::config::AuditSource;
use modctl_types::restore::{JobState, RestoreJob};
use modctl_types::snapshot::{SnapshotSource, StructureContent};
use modctld::operator::demo;
use modctld::platform::simulator::nuke;

/// Sets the demo up on `daemon`; a client with its read key.
fn demo_client(daemon: &TestDaemon) -> Client {
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.read)
        .build()
        .unwrap()
}

#[tokio::test]
async fn every_demo_server_starts_with_one_operator_snapshot() {
    let daemon = TestDaemon::start();
    let client = demo_client(&daemon);
    for server in [demo::DISCORD, demo::TELEGRAM, demo::SLACK] {
        let listing = client.snapshots(server, false).await.unwrap();
        assert_eq!(listing.recent.len(), 1, "{server}");
        let meta = &listing.latest.meta;
        assert_eq!(
            (meta.source, meta.actor.as_str()),
            (SnapshotSource::Operator, "operator"),
            "{server}"
        );
    }
    let guild = client.snapshots(demo::DISCORD, false).await.unwrap();
    let counts = guild.latest.meta.counts;
    assert!(
        counts.roles > 2 && counts.channels > 3 && counts.permission_overwrites > 0,
        "{counts:?}"
    );

    // The demo's nuke, with the defaults `modctld simulate nuke` takes,
    // finds what it says it deletes.
    let nuked = daemon
        .block_on(daemon.store().write(|tx| {
            nuke::nuke(
                tx,
                demo::DISCORD,
                Platform::Discord,
                nuke::DEFAULT_ROLES as usize,
                nuke::DEFAULT_CHANNELS as usize,
            )
        }))
        .unwrap();
    assert_eq!(
        (nuked.roles.len(), nuked.channels.len()),
        (
            nuke::DEFAULT_ROLES as usize,
            nuke::DEFAULT_CHANNELS as usize
        )
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_receiver_prints_a_verified_test_event_then_every_event() {
    use std::sync::{Arc, Mutex};

    use modctl_types::moderation::{Action, ActionRequest};
    use modctld::operator::demo_webhooks;

    let daemon = TestDaemon::start();
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let printed = lines.clone();
    let report: demo_webhooks::Report = Arc::new(move |line| printed.lock().unwrap().push(line));
    let receiver = daemon
        .block_on(demo_webhooks::start(report))
        .expect("receiver");
    let queued = daemon
        .block_on(demo_webhooks::subscribe(
            daemon.store(),
            demo::DISCORD,
            &receiver,
            daemon.now_unix(),
        ))
        .unwrap();
    // Subscribing was a config change, announced first; then the test event.
    assert_eq!(daemon.deliver_webhooks(), 2);
    let first = lines.lock().unwrap().clone();
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(
        first[0].starts_with("webhook received, signature verified: config_changed evt_")
            && first[0].ends_with("(webhooks: enabled, url, secret_set (by operator:demo))"),
        "{}",
        first[0]
    );
    assert_eq!(
        first[1],
        format!(
            "webhook received, signature verified: test {} (a test event from modctl)",
            queued.event_id
        )
    );

    // An action on the demo guild arrives as its case, verified too.
    let client = Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.write)
        .build()
        .unwrap();
    let warned = client
        .perform_action(
            demo::DISCORD,
            Action::Warn,
            &ActionRequest {
                user_id: demo::discord_members::ALICE.into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    daemon.deliver_webhooks();
    let all = lines.lock().unwrap().clone();
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(
        all[2].starts_with("webhook received, signature verified: case_created evt_"),
        "{}",
        all[2]
    );
    assert!(
        all[2].contains(&format!(
            "case #{}: warn 800000000000000004",
            warned.case_id
        )),
        "{}",
        all[2]
    );

    // A delivery signed with another secret is refused and said so.
    let forged = reqwest::Client::new()
        .post(&receiver.url)
        .header("webhook-id", "evt_forged")
        .header("webhook-timestamp", daemon.now_unix().to_string())
        .header(
            "webhook-signature",
            "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        )
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
    let last = lines.lock().unwrap().last().cloned().unwrap();
    assert!(last.contains("refused"), "{last}");
}

#[tokio::test]
async fn every_demo_server_is_partly_set_up() {
    use modctl_types::onboarding::ItemStatus;
    let daemon = TestDaemon::start();
    let client = demo_client(&daemon);
    for server in [demo::DISCORD, demo::TELEGRAM, demo::SLACK] {
        let checklist = client.onboarding(server, false).await.unwrap();
        let has = |status| checklist.items.iter().any(|i| i.status == status);
        assert!(
            has(ItemStatus::Done) && has(ItemStatus::Todo),
            "{server}: {checklist:#?}"
        );
        let progress = checklist.progress;
        assert!(
            progress.done > 0 && progress.done < progress.total,
            "{server}: {progress:?}"
        );
    }
}

/// Both insights show something on the first try: 90 days of history on
/// every demo server, and the live trickle adds to today.
#[tokio::test]
async fn the_demo_servers_start_with_ninety_days_of_insights() {
    use modctld::operator::demo_activity::{HISTORY_DAYS, Rng, trickle};
    let daemon = TestDaemon::start();
    daemon.clock().set(jiff::Timestamp::now());
    let client = demo_client(&daemon);
    for (server, platform) in [
        (demo::DISCORD, Platform::Discord),
        (demo::TELEGRAM, Platform::Telegram),
        (demo::SLACK, Platform::Slack),
    ] {
        let activity = client.community_insights(server, Some(90)).await.unwrap();
        let quiet = activity.daily.iter().filter(|d| d.messages == 0).count();
        // The history ends yesterday; today fills from the trickle.
        assert!(quiet <= 1, "{server}: {quiet} days without messages");
        assert!(
            activity.totals.average_active_members > 10.0,
            "{server}: {:?}",
            activity.totals
        );
        assert!(
            activity.totals.joins > 0 && activity.totals.leaves > 0,
            "{server}"
        );
        assert_eq!(activity.top_members_by_messages.len(), 10, "{server}");
        assert!(!activity.top_channels_by_messages.is_empty(), "{server}");
        assert!(activity.last_event_at.is_some(), "{server}");
        if platform == Platform::Discord {
            assert!(activity.totals.voice_minutes > 0);
            assert!(!activity.top_members_by_voice.is_empty());
        }
        // A 30-day window compares with the 30 days before: both have data.
        let month = client.community_insights(server, Some(30)).await.unwrap();
        assert!(month.change.messages.is_some(), "{server}");

        let moderation = client
            .insights(server, Some(HISTORY_DAYS as u32))
            .await
            .unwrap();
        assert!(
            moderation.totals.cases >= HISTORY_DAYS as u64,
            "{server}: {:?}",
            moderation.totals
        );
        assert!(moderation.totals.escalations > 0, "{server}");
        assert!(moderation.totals.not_applied > 0, "{server}");
        assert!(moderation.top_moderators.len() >= 2, "{server}");
        assert!(!moderation.top_repeat_targets.is_empty(), "{server}");

        // The live trickle: what the demo records every few seconds is
        // counted into today by the flush.
        let today = |insights: &modctl_types::activity::CommunityInsights| {
            insights.daily.last().unwrap().messages
        };
        let before = today(&client.community_insights(server, Some(1)).await.unwrap());
        let events = trickle(&mut Rng::new(7), server, platform, daemon.now_unix(), 5);
        assert!(!events.is_empty());
        let messages = events
            .iter()
            .filter(|e| e.kind == modctl_types::activity::ActivityKind::Message)
            .count() as u64;
        for event in events {
            daemon.state().activity.record(event);
        }
        daemon.flush_activity();
        let after = today(&client.community_insights(server, Some(1)).await.unwrap());
        assert_eq!(after, before + messages, "{server}");
    }
}

/// Sets the demo up on `daemon`; a client with its write key.
fn demo_writer(daemon: &TestDaemon) -> Client {
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.write)
        .build()
        .unwrap()
}

/// Restores `snapshot` on `server` and waits for the job's end.
async fn restore_and_wait(client: &Client, server: &str, snapshot: i64) -> RestoreJob {
    let job = client.restore(server, Some(snapshot)).await.unwrap();
    let wait = modctl_client::RestoreWait {
        interval: std::time::Duration::from_millis(50),
        timeout: Some(std::time::Duration::from_secs(60)),
    };
    client
        .wait_for_restore(server, job.id, &wait, |_| {})
        .await
        .unwrap()
}

/// The names of a Discord structure's roles and channels, by id.
fn names(content: &StructureContent) -> HashMap<String, String> {
    let StructureContent::Discord(guild) = content else {
        panic!("not a guild: {content:?}");
    };
    let roles = guild.roles.iter().map(|r| (r.id.clone(), r.name.clone()));
    let channels = guild
        .channels
        .iter()
        .map(|c| (c.id.clone(), c.name.clone()));
    roles.chain(channels).collect()
}

/// After a nuke and a restore, the config names what the restore made, not
/// what the nuke deleted (issue #23: `jail.role_id` kept the deleted Jailed
/// role's id, which the simulator then gave the new Moderator role), in one
/// config revision of source `restore` that the job's report lists; and the
/// simulator never gives an id twice.
#[tokio::test(flavor = "multi_thread")]
async fn a_restore_points_the_config_at_what_it_recreated() {
    let daemon = TestDaemon::start();
    let client = demo_writer(&daemon);
    let server = demo::DISCORD;
    let snapshot = client
        .snapshots(server, false)
        .await
        .unwrap()
        .latest
        .meta
        .id;
    let before = names(
        &client
            .snapshot(server, snapshot, true)
            .await
            .unwrap()
            .content
            .unwrap(),
    );
    let config = client.config(server).await.unwrap().sections;
    let named = [
        (
            "general.modlog_channel_id",
            config.general.modlog_channel_id.clone(),
        ),
        ("jail.role_id", config.jail.role_id.clone()),
        ("jail.channel_id", config.jail.channel_id.clone()),
    ];

    // Every role and channel the nuke may delete goes.
    let nuked = daemon
        .block_on(
            daemon
                .store()
                .write(|tx| nuke::nuke(tx, server, Platform::Discord, 100, 100)),
        )
        .unwrap();
    let gone: HashSet<String> = nuked
        .roles
        .iter()
        .chain(&nuked.channels)
        .map(|d| d.id.clone())
        .collect();
    for (path, id) in &named {
        assert!(
            gone.contains(id.as_deref().unwrap()),
            "{path} was not nuked"
        );
    }

    let job = restore_and_wait(&client, server, snapshot).await;
    assert_eq!(job.state, JobState::Done, "{job:?}");
    let live = names(
        &client
            .snapshot(
                server,
                client.capture_snapshot(server).await.unwrap().id,
                true,
            )
            .await
            .unwrap()
            .content
            .unwrap(),
    );
    assert!(
        live.keys().all(|id| !gone.contains(id)),
        "an id was given again"
    );

    let after = client.config(server).await.unwrap();
    let sections = &after.sections;
    let now_named = [
        sections.general.modlog_channel_id.clone(),
        sections.jail.role_id.clone(),
        sections.jail.channel_id.clone(),
    ];
    for ((path, old), new) in named.iter().zip(&now_named) {
        let (old, new) = (old.as_deref().unwrap(), new.as_deref().unwrap());
        assert_ne!(old, new, "{path} still names the deleted id");
        assert_eq!(
            live.get(new),
            before.get(old),
            "{path} names something else"
        );
        assert!(
            job.config_remapped
                .iter()
                .any(|r| r.path == *path && r.from == old && r.to == new
                    // Named as what the restore made (issue #27).
                    && r.name.as_deref() == live.get(new).map(String::as_str)),
            "{path} not in the report: {:?}",
            job.config_remapped
        );
    }
    // One revision, of source `restore`, by the key that asked.
    let audit = client.config_audit(server, Some(10), None).await.unwrap();
    let restored: Vec<_> = audit
        .iter()
        .filter(|e| e.source == AuditSource::Restore)
        .collect();
    assert!(!restored.is_empty(), "{audit:?}");
    assert!(restored.iter().all(|e| e.revision == after.revision));
    assert!(
        restored.iter().all(|e| e.actor.starts_with("key:")),
        "{restored:?}"
    );
}

/// A channel the simulator recreates in a Slack workspace has an id shaped
/// like Slack's, so the daemon's own validation takes it in the config
/// (issue #23: it was `C900000000000000002`, refused as a Slack channel id).
#[tokio::test(flavor = "multi_thread")]
async fn a_restored_slack_channel_has_an_id_the_config_takes() {
    let daemon = TestDaemon::start();
    let client = demo_writer(&daemon);
    let server = demo::SLACK;
    let snapshot = client
        .snapshots(server, false)
        .await
        .unwrap()
        .latest
        .meta
        .id;
    let nuked = daemon
        .block_on(
            daemon
                .store()
                .write(|tx| nuke::nuke(tx, server, Platform::Slack, 0, 2)),
        )
        .unwrap();
    assert_eq!(nuked.channels.len(), 2);
    let job = restore_and_wait(&client, server, snapshot).await;
    assert_eq!(job.state, JobState::Done, "{job:?}");
    let created: Vec<String> = job
        .items
        .iter()
        .filter(|i| {
            i.result
                .as_deref()
                .is_some_and(|r| r.starts_with("created as"))
        })
        .filter_map(|i| i.planned.live_id.clone())
        .collect();
    assert_eq!(created.len(), 2, "{job:?}");
    assert_ne!(created[0], created[1]);
    for id in created {
        assert!(
            Platform::Slack.validate_channel_id(&id).is_ok(),
            "{id} is not a Slack channel id"
        );
        client
            .replace_section_json(
                server,
                modctl_types::config::SectionName::General,
                &serde_json::json!({"modlog_channel_id": id}),
                None,
            )
            .await
            .unwrap();
    }
}

/// Issue #25's demo lines: on each demo server a caught message is deleted
/// and logged to the server's mod-log: `simulate message` acts in a process
/// of its own (here a state of its own on the same database), the daemon's
/// log delivery posts what it wrote, and `simulate posts` lists the posts
/// as posted (title and fields), beside the member's DM where there is one.
#[test]
fn a_caught_message_is_logged_on_each_demo_server() {
    use modctld::operator::demo::{discord_members, slack_members, telegram_members};
    use modctld::operator::{simulate_message, simulate_posts};

    let daemon = TestDaemon::start();
    // `simulate message` runs on the system clock, as the demo does.
    daemon.clock().set(jiff::Timestamp::now());
    daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    for (server, speaker, line, modlog, case) in [
        (
            demo::DISCORD,
            discord_members::BOB,
            demo::CAUGHT_LINES[0],
            discord_members::MODLOG,
            true,
        ),
        (
            demo::TELEGRAM,
            telegram_members::ALICE,
            demo::CAUGHT_LINES[2],
            telegram_members::MODLOG,
            false,
        ),
        (
            demo::SLACK,
            slack_members::ALICE,
            demo::CAUGHT_LINES[1],
            slack_members::MODLOG,
            true,
        ),
    ] {
        daemon
            .block_on(simulate_message::say_and_act(
                daemon.store(),
                server,
                speaker,
                line,
                None,
            ))
            .unwrap();
        // The daemon's clock, manual here, catches up with the system's.
        daemon.clock().set(jiff::Timestamp::now());
        assert!(daemon.deliver_logs() > 0, "{server}: nothing was logged");
        let shown = daemon
            .block_on(simulate_posts::latest(daemon.store(), server, None, 20))
            .unwrap();
        let in_modlog: Vec<_> = shown
            .iter()
            .filter(|m| m.channel_id == modlog)
            .flat_map(|m| &m.posts)
            .collect();
        let hit = in_modlog
            .iter()
            .find(|p| {
                p.title
                    .as_deref()
                    .is_some_and(|t| t.starts_with("Automod:"))
            })
            .unwrap_or_else(|| panic!("{server}: no hit in the mod-log: {shown:#?}"));
        assert!(
            hit.fields
                .iter()
                .any(|(name, value)| name == "Member" && value == speaker),
            "{server}: {hit:?}"
        );
        assert!(
            shown
                .iter()
                .all(|m| m.channel_id != modlog || m.channel_name.as_deref() == Some("mod-log")),
            "{server}: {shown:#?}"
        );
        // A warning is a case, logged too (on Slack the warning posted to
        // the mod-log is that log); and the member is told by DM where the
        // platform lets a bot start one.
        let warned = in_modlog.iter().any(|p| {
            p.title.as_deref().is_some_and(|t| t.starts_with("Case #"))
                || p.text.starts_with("Warning for")
        });
        assert_eq!(warned, case, "{server}: {shown:#?}");
        let dm = shown
            .iter()
            .any(|m| m.channel_id == format!("dm:{speaker}"));
        assert_eq!(dm, case, "{server}: {shown:#?}");
        let lines = simulate_posts::watch_lines(None, shown.last().unwrap());
        assert!(lines[0].starts_with("posted to "), "{lines:?}");
    }
}

/// Issue #27: each demo server has members enough to try every action on,
/// and the banner lists them. On each platform every action is tried on a
/// listed member: a timeout, kick, ban, unban, jail and unjail are carried
/// out on Discord and Telegram; Slack answers what its bots cannot do as
/// docs/api.md's table says (recorded, not applied; jail 400, unjail 409).
#[tokio::test(flavor = "multi_thread")]
async fn every_action_can_be_tried_on_the_members_the_banner_lists() {
    use modctl_client::ErrorKind;
    use modctl_types::moderation::{Action, ActionRequest};

    let daemon = TestDaemon::start();
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    let client = Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.write)
        .build()
        .unwrap();
    let banner = demo::member_lines().join("\n");
    assert!(banner.lines().all(|l| l.chars().count() <= 100), "{banner}");
    for (platform, server) in [
        (Platform::Discord, demo::DISCORD),
        (Platform::Telegram, demo::TELEGRAM),
        (Platform::Slack, demo::SLACK),
    ] {
        // Ada, above the bot, is listed for what is not applied.
        let members: Vec<&str> = demo::members_to_try(platform)
            .into_iter()
            .filter(|(id, _)| *id != demo::discord_members::ADA)
            .map(|(id, name)| {
                assert!(banner.contains(&format!("{id} {name}")), "{id}: {banner}");
                id
            })
            .collect();
        assert!(members.len() >= 4, "{platform:?}: {members:?}");
        for action in Action::ALL {
            // A member for what leaves them there, one jailed and released,
            // one kicked, one banned and unbanned.
            let member = match action {
                Action::Note | Action::Warn | Action::Timeout => members[0],
                Action::Jail | Action::Unjail => members[1],
                Action::Kick => members[2],
                Action::Ban | Action::Unban => members[3],
                other => panic!("no member chosen for {other:?}: add it here"),
            };
            let request = ActionRequest {
                user_id: member.into(),
                minutes: (action == Action::Timeout).then_some(60),
                ..Default::default()
            };
            let answer = client.perform_action(server, action, &request).await;
            match (platform, action) {
                (Platform::Slack, Action::Jail | Action::Unjail) => {
                    let err = answer.unwrap_err();
                    assert!(
                        matches!(err.kind(), ErrorKind::InvalidRequest | ErrorKind::Conflict),
                        "{action:?}: {err}"
                    );
                }
                (Platform::Slack, _) | (_, Action::Note | Action::Warn) => {
                    answer.unwrap_or_else(|e| panic!("{platform:?} {action:?}: {e}"));
                }
                _ => {
                    let answer = answer.unwrap_or_else(|e| panic!("{platform:?} {action:?}: {e}"));
                    assert!(answer.applied, "{platform:?} {action:?}: {answer:?}");
                }
            }
        }
    }
}
