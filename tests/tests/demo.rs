//! What `modctld demo` sets up beyond moderation (issue #10): every demo
//! server starts with a structure snapshot, so listing snapshots shows one
//! and the nuke-and-restore lines the demo prints work from the start; and
//! the demo's nuke leaves something for a restore to put back.

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
