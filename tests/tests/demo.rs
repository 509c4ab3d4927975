//! What `modctld demo` sets up beyond moderation (issue #10): every demo
//! server starts with a structure snapshot, so listing snapshots shows one
//! and the nuke-and-restore lines the demo prints work from the start; and
//! the demo's nuke leaves something for a restore to put back. And its
//! webhook receiver (issue #11) prints a verified test event, then every
//! event of the demo guild.

use modctl_client::Client;
use modctl_e2e::TestDaemon;
use modctl_types::Platform;
use modctl_types::snapshot::SnapshotSource;
use modctld::operator::demo;
use modctld::platform::simulator::nuke;

/// Sets the demo up on `daemon`; a client with its read key.
fn demo_client(daemon: &TestDaemon) -> Client {
    let keys = daemon.block_on(demo::setup(daemon.store())).unwrap();
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
    let keys = daemon.block_on(demo::setup(daemon.store())).unwrap();
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
    client
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
    assert!(all[2].contains("warn 800000000000000004"), "{}", all[2]);

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
    use modctld::platform::simulator::activity::{HISTORY_DAYS, Rng, trickle};
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
