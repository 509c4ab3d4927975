//! Scheduled structure snapshots (issue #10): with `antinuke.enabled` and
//! `antinuke.snapshot_interval_hours`, the worker captures a snapshot when
//! the last one is that old, on the daemon's clock. The tests advance the
//! manual clock and tick the workers; nothing sleeps.

use std::time::Duration;

use modctl_client::{Client, StatusCode};
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::TOKEN as DISCORD_TOKEN;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::snapshot::{SnapshotMeta, SnapshotSource};
use serde_json::json;

const HOUR: Duration = Duration::from_secs(3600);
const SECOND: Duration = Duration::from_secs(1);

/// Every snapshot kept for `server`, newest first; none when there is none.
async fn snapshots(client: &Client, server: &str) -> Vec<SnapshotMeta> {
    match client.snapshots(server, false).await {
        Ok(listing) => listing.recent,
        Err(e) if e.status() == Some(StatusCode::NOT_FOUND) => Vec::new(),
        Err(e) => panic!("listing the snapshots of {server}: {e}"),
    }
}

fn antinuke(fixture: &Fixture, server: &str, value: serde_json::Value) {
    fixture
        .daemon
        .set_config(server, SectionName::Antinuke, value);
}

#[tokio::test]
async fn a_scheduled_snapshot_is_captured_when_the_last_one_is_as_old_as_the_interval() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    antinuke(
        &fixture,
        ALPHA_DISCORD,
        json!({"enabled": true, "snapshot_interval_hours": 6}),
    );

    // No snapshot yet: the first is due at once.
    assert_eq!(daemon.tick_workers().snapshots_captured, 1);
    let first = snapshots(&client, ALPHA_DISCORD).await;
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].source, SnapshotSource::Schedule);
    assert_eq!(first[0].actor, "schedule");
    assert_eq!(first[0].captured_at.as_second(), daemon.now_unix());
    assert!(first[0].counts.roles > 0, "{:?}", first[0].counts);

    // Not again before the interval has passed, however often it ticks.
    assert_eq!(daemon.tick_workers().snapshots_captured, 0);
    daemon.clock().advance(6 * HOUR - SECOND);
    assert_eq!(daemon.tick_workers().snapshots_captured, 0);
    assert_eq!(snapshots(&client, ALPHA_DISCORD).await.len(), 1);

    // Six hours after the last one: the next.
    daemon.clock().advance(SECOND);
    assert_eq!(daemon.tick_workers().snapshots_captured, 1);
    let second = snapshots(&client, ALPHA_DISCORD).await;
    assert_eq!(second.len(), 2);
    assert_eq!(second[0].source, SnapshotSource::Schedule);
    assert_eq!(
        second[0].captured_at.as_second() - second[1].captured_at.as_second(),
        6 * 3600
    );

    // A snapshot taken by hand counts as the last one: the schedule waits
    // six hours from it.
    daemon.clock().advance(3 * HOUR);
    let by_hand = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    daemon.clock().advance(3 * HOUR);
    assert_eq!(daemon.tick_workers().snapshots_captured, 0);
    daemon.clock().advance(3 * HOUR);
    assert_eq!(daemon.tick_workers().snapshots_captured, 1);
    let latest = &snapshots(&client, ALPHA_DISCORD).await[0];
    assert_eq!(latest.source, SnapshotSource::Schedule);
    assert_eq!(
        latest.captured_at.as_second() - by_hand.captured_at.as_second(),
        6 * 3600
    );

    // The other servers asked for nothing.
    assert!(snapshots(&client, ALPHA_TELEGRAM).await.is_empty());
}

#[tokio::test]
async fn nothing_is_scheduled_when_antinuke_is_off_or_has_no_interval_or_no_connection() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    // An interval, but antinuke is off.
    antinuke(
        &fixture,
        ALPHA_DISCORD,
        json!({"enabled": false, "snapshot_interval_hours": 1}),
    );
    // Antinuke on, but no automatic snapshots.
    antinuke(
        &fixture,
        ALPHA_TELEGRAM,
        json!({"enabled": true, "snapshot_interval_hours": null}),
    );
    // Asked for, but not connected to its platform: skipped, not failed.
    antinuke(
        &fixture,
        ALPHA_SLACK,
        json!({"enabled": true, "snapshot_interval_hours": 1}),
    );

    for _ in 0..3 {
        daemon.clock().advance(48 * HOUR);
        assert_eq!(daemon.tick_workers().snapshots_captured, 0);
    }
    for server in [ALPHA_DISCORD, ALPHA_TELEGRAM, ALPHA_SLACK] {
        assert!(snapshots(&client, server).await.is_empty(), "{server}");
    }

    // Turning antinuke on starts the schedule at the next tick.
    antinuke(
        &fixture,
        ALPHA_DISCORD,
        json!({"enabled": true, "snapshot_interval_hours": 1}),
    );
    assert_eq!(daemon.tick_workers().snapshots_captured, 1);
    assert_eq!(snapshots(&client, ALPHA_DISCORD).await.len(), 1);
}

#[tokio::test]
async fn a_scheduled_capture_that_fails_records_nothing_and_is_retried_at_the_next_tick() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    daemon.connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    antinuke(
        &fixture,
        ALPHA_DISCORD,
        json!({"enabled": true, "snapshot_interval_hours": 24}),
    );
    let roles = format!("/guilds/{ALPHA_DISCORD}/roles");
    discord.fail(
        "GET",
        &roles,
        403,
        json!({"message": "Missing Access", "code": 50001}),
        1,
    );

    // The worker survives the refusal and records nothing.
    assert_eq!(daemon.tick_workers().snapshots_captured, 0);
    assert!(snapshots(&client, ALPHA_DISCORD).await.is_empty());
    assert_eq!(discord.requests_to("GET", &roles).len(), 1, "not retried");

    // The next tick tries again, without waiting for the interval.
    assert_eq!(daemon.tick_workers().snapshots_captured, 1);
    let kept = snapshots(&client, ALPHA_DISCORD).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].source, SnapshotSource::Schedule);
}
