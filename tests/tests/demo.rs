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
