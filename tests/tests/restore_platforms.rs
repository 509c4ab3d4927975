//! Restoring structure snapshots on Slack, Telegram and the simulator
//! (issue #10): Slack channels and user groups, Telegram's title,
//! description and default permissions, and a simulated guild under the
//! same rules as Discord's, including what `modctld simulate nuke` deletes.
//! Discord: `restore.rs`.

use std::time::Duration;

use modctl_client::RestoreWait;
use modctl_e2e::fakes::slack::{TOKEN as SLACK_TOKEN, UserGroup};
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeSlack, FakeTelegram};
use modctl_e2e::restore::{assert_nothing_remains, dry_run, item, restore};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, TestDaemon};
use modctl_types::Platform;
use modctl_types::restore::{ItemKind, ItemOutcome, MatchedBy};
use modctl_types::snapshot::{DiscordStructure, StructureContent};
use modctld::platform::simulator::nuke::{Nuked, nuke};
use modctld::store::StoreError;
use serde_json::json;

#[tokio::test]
async fn a_slack_restore_recreates_channels_and_user_groups_with_their_members() {
    let slack = FakeSlack::start();
    slack.add_channel("C0GENERAL1", "general");
    slack.describe_channel("C0GENERAL1", "Hello", "Everything");
    slack.add_private_channel("C0STAFF001", "staff", "Staff only", "Moderation");
    slack.add_user_group(UserGroup {
        id: "S0MODS0001".into(),
        name: "Moderators".into(),
        handle: "mods".into(),
        description: "The mods".into(),
        channels: vec!["C0STAFF001".into()],
        users: vec!["U0ALICE001".into(), "U0BOB00001".into()],
    });
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client.capture_snapshot(ALPHA_SLACK).await.unwrap();
    slack.delete_channel("C0STAFF001");
    slack.delete_user_group("S0MODS0001");

    let job = restore(&fixture.daemon, &fixture.alpha_rw, ALPHA_SLACK).await;
    assert_nothing_remains(&job);
    assert_eq!(
        item(&job, ItemKind::Channel, "C0GENERAL1")
            .planned
            .matched_by,
        Some(MatchedBy::Id)
    );
    let (staff, private, topic, purpose) = slack.channel_named("staff").expect("staff is back");
    assert_ne!(staff, "C0STAFF001");
    assert!(private);
    assert_eq!(
        (topic.as_str(), purpose.as_str()),
        ("Staff only", "Moderation")
    );
    let groups = slack.user_groups_handled("mods");
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].name, "Moderators");
    assert_eq!(
        groups[0].channels,
        vec![staff.clone()],
        "default channels follow the new id"
    );
    assert_eq!(groups[0].users, ["U0ALICE001", "U0BOB00001"]);

    let again = restore(&fixture.daemon, &fixture.alpha_rw, ALPHA_SLACK).await;
    assert_eq!(again.summary.create, 0, "{again:#?}");
    assert_eq!(slack.calls("conversations.create").len(), 1);
    assert_eq!(slack.calls("usergroups.create").len(), 1);
}

/// A `usergroups.create` that Slack carried out but whose answer was lost
/// (a 500 after the fact) is sent again, and its `name_already_exists`
/// answer is the group made (issue #23): one group, with its members.
#[tokio::test]
async fn a_user_group_created_before_a_lost_answer_is_found_not_made_twice() {
    let slack = FakeSlack::start();
    slack.add_channel("C0GENERAL1", "general");
    slack.add_user_group(UserGroup {
        id: "S0MODS0001".into(),
        name: "Moderators".into(),
        handle: "mods".into(),
        description: "The mods".into(),
        channels: Vec::new(),
        users: vec!["U0ALICE001".into()],
    });
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client.capture_snapshot(ALPHA_SLACK).await.unwrap();
    slack.delete_user_group("S0MODS0001");
    slack.fail_after("POST", "/usergroups.create", 500, json!({}), 1);

    let job = restore(&fixture.daemon, &fixture.alpha_rw, ALPHA_SLACK).await;
    assert_nothing_remains(&job);
    assert_eq!(slack.calls("usergroups.create").len(), 2, "sent again");
    let groups = slack.user_groups_handled("mods");
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].users, ["U0ALICE001"]);
    assert_eq!(
        item(&job, ItemKind::UserGroup, "S0MODS0001").outcome,
        ItemOutcome::Done
    );
}

#[tokio::test]
async fn a_telegram_restore_sets_title_description_and_default_permissions_back() {
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    telegram.set_chat_info("Alpha Group", Some("Be kind"), None);
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client.capture_snapshot(ALPHA_TELEGRAM).await.unwrap();
    let (_, _, permissions) = telegram.chat_info();

    telegram.set_chat_info("pwned", None, None);
    telegram.set_default_permissions(json!({"can_send_messages": false, "can_invite_users": true}));
    let plan = dry_run(&fixture.daemon, &fixture.alpha_rw, ALPHA_TELEGRAM).await;
    assert_eq!(plan.summary.update, 3, "{plan:#?}");
    assert_eq!(telegram.chat_info().0, "pwned", "a dry run changes nothing");

    let job = restore(&fixture.daemon, &fixture.alpha_rw, ALPHA_TELEGRAM).await;
    assert_nothing_remains(&job);
    let (title, description, restored) = telegram.chat_info();
    assert_eq!(
        (title.as_str(), description.as_deref()),
        ("Alpha Group", Some("Be kind"))
    );
    assert_eq!(restored, permissions);

    let again = restore(&fixture.daemon, &fixture.alpha_rw, ALPHA_TELEGRAM).await;
    assert_eq!((again.summary.update, again.summary.present), (0, 3));
    assert_eq!(telegram.calls("setChatTitle").len(), 1);
}

fn discord_content(content: Option<StructureContent>) -> DiscordStructure {
    match content {
        Some(StructureContent::Discord(guild)) => guild,
        other => panic!("expected Discord content, got {other:?}"),
    }
}

#[tokio::test]
async fn a_simulated_guild_is_restored_under_the_same_rules() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let client = daemon.client(&fixture.alpha_rw);
    let before = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let before = discord_content(
        client
            .snapshot(ALPHA_DISCORD, before.id, true)
            .await
            .unwrap()
            .content,
    );
    let moderator = before
        .roles
        .iter()
        .find(|r| r.name == "Moderator")
        .unwrap()
        .clone();
    let staff = before
        .channels
        .iter()
        .find(|c| c.name == "Staff")
        .unwrap()
        .clone();
    let admin = before
        .roles
        .iter()
        .find(|r| r.name == "Admin")
        .unwrap()
        .clone();
    let nuked = [moderator.id.clone(), admin.id.clone(), staff.id.clone()];
    // Behind the daemon's back (the rows only: no member or overwrite is
    // touched).
    daemon.sql(move |db| {
        db.execute(
            "DELETE FROM sim_roles WHERE server_id = ?1 AND role_id IN (?2, ?3)",
            [ALPHA_DISCORD, &nuked[0], &nuked[1]],
        )?;
        db.execute(
            "DELETE FROM sim_channels WHERE server_id = ?1 AND (channel_id = ?2 OR parent_id = ?2)",
            [ALPHA_DISCORD, &nuked[2]],
        )
    });

    // Through the SDK, as the CLI restores.
    let plan = client.restore_plan(ALPHA_DISCORD, None).await.unwrap();
    assert!(plan.summary.create > 0, "{plan:#?}");
    let accepted = client.restore(ALPHA_DISCORD, None).await.unwrap();
    let wait = RestoreWait {
        interval: Duration::from_millis(50),
        timeout: Some(Duration::from_secs(30)),
    };
    let job = client
        .wait_for_restore(ALPHA_DISCORD, accepted.id, &wait, |_| {})
        .await
        .unwrap();
    assert_nothing_remains(&job);
    assert_eq!(job.summary, plan.summary);
    assert!(
        job.items.iter().all(|i| i.outcome != ItemOutcome::Failed),
        "{job:#?}"
    );
    assert_eq!(
        item(&job, ItemKind::Role, &admin.id).outcome,
        ItemOutcome::Skipped,
        "Admin is above the bot"
    );

    let after = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let after = discord_content(
        client
            .snapshot(ALPHA_DISCORD, after.id, true)
            .await
            .unwrap()
            .content,
    );
    let restored = after
        .roles
        .iter()
        .find(|r| r.name == "Moderator")
        .expect("Moderator is back");
    assert_ne!(restored.id, moderator.id);
    let staff_now = after
        .channels
        .iter()
        .find(|c| c.name == "Staff")
        .expect("Staff is back");
    let ids: Vec<&str> = staff_now
        .permission_overwrites
        .iter()
        .map(|o| o.id.as_str())
        .collect();
    assert!(ids.contains(&restored.id.as_str()), "{ids:?}");
    assert!(!ids.contains(&moderator.id.as_str()), "{ids:?}");
    let in_staff = |guild: &DiscordStructure, parent: &str| {
        let mut names: Vec<String> = guild
            .channels
            .iter()
            .filter(|c| c.parent_id.as_deref() == Some(parent))
            .map(|c| c.name.clone())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        in_staff(&after, &staff_now.id),
        in_staff(&before, &staff.id)
    );
    assert_eq!(after.channels.len(), before.channels.len());
    assert_eq!(after.roles.len(), before.roles.len() - 1, "all but Admin");

    let again = restore(daemon, &fixture.alpha_rw, ALPHA_DISCORD).await;
    assert_eq!(again.summary.create, 0, "{again:#?}");
}

#[tokio::test]
async fn what_the_simulated_nuke_deletes_a_restore_puts_back_on_discord_and_slack() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    for (server, platform) in [
        (ALPHA_DISCORD, Platform::Discord),
        (ALPHA_SLACK, Platform::Slack),
    ] {
        daemon.connect_simulated(server, platform);
        let client = daemon.client(&fixture.alpha_rw);
        client.capture_snapshot(server).await.unwrap();
        // The demo workspace has two channels.
        let (roles, channels) = match platform {
            Platform::Discord => (2, 3),
            _ => (0, 2),
        };
        let nuked = simulate_nuke(daemon, server, platform, roles, channels);
        assert_eq!(
            (nuked.roles.len(), nuked.channels.len()),
            (roles, channels),
            "{platform:?}"
        );

        let job = restore(daemon, &fixture.alpha_rw, server).await;
        assert_nothing_remains(&job);
        assert!(
            job.items.iter().all(|i| i.outcome != ItemOutcome::Failed),
            "{job:#?}"
        );
        for deleted in nuked.roles.iter().chain(&nuked.channels) {
            let item = job
                .items
                .iter()
                .find(|i| i.planned.snapshot_id == deleted.id)
                .unwrap_or_else(|| panic!("{} is in the job", deleted.name));
            assert_eq!(item.outcome, ItemOutcome::Done, "{item:#?}");
            assert_ne!(item.planned.live_id.as_deref(), Some(deleted.id.as_str()));
        }
        let plan = client.restore_plan(server, None).await.unwrap();
        assert_eq!(
            plan.summary.create, 0,
            "{platform:?}: everything is back: {plan:#?}"
        );
    }
}

/// `modctld simulate nuke` on a simulated server, as the demo suggests.
fn simulate_nuke(
    daemon: &TestDaemon,
    server: &'static str,
    platform: Platform,
    roles: usize,
    channels: usize,
) -> Nuked {
    daemon.write(move |tx| {
        nuke(tx, server, platform, roles, channels).map_err(|e| StoreError::Corrupt(e.to_string()))
    })
}
