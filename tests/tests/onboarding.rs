//! The setup checklist (issue #13) against real state: each item is `todo`
//! (or a warning) until its state is fixed the way its `fix` says, then
//! `done`; the platform's answers are cached until `refresh=true`; a platform
//! that cannot be reached is a warning, never a 5xx.
//!
//! Alpha's Discord server runs on the simulator (the demo community, whose
//! bot role lacks MANAGE_CHANNELS and VIEW_AUDIT_LOG); the token checks use
//! the shared fake Discord.

use modctl_client::Client;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::FakeSlack;
use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::discord::TOKEN;
use modctl_e2e::fakes::slack::TOKEN as SLACK_TOKEN;
use modctl_e2e::webhooks::Receiver;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::Platform;
use modctl_types::Scope;
use modctl_types::activity::{ActivityBatch, ActivityKind, BatchEvent};
use modctl_types::config::SectionName;
use modctl_types::onboarding::{ItemStatus, Onboarding};
use modctld::operator::demo::discord_members::{ALICE, JAILED_ROLE, MODLOG};
use serde_json::json;

/// The bot's role in the demo community.
const BOT_ROLE: &str = "900000000000000002";

fn status(checklist: &Onboarding, id: &str) -> ItemStatus {
    checklist
        .items
        .iter()
        .find(|item| item.id == id)
        .unwrap_or_else(|| panic!("no item {id}: {checklist:#?}"))
        .status
}

async fn fresh(client: &Client, server: &str) -> Onboarding {
    client.onboarding(server, true).await.expect("onboarding")
}

/// Asserts `id` is `before`, runs `fix`, asserts it is `Done`.
async fn flips(client: &Client, id: &str, before: ItemStatus, fix: impl AsyncFnOnce()) {
    let checklist = fresh(client, ALPHA_DISCORD).await;
    assert_eq!(
        status(&checklist, id),
        before,
        "{id} before: {checklist:#?}"
    );
    let item = checklist.items.iter().find(|i| i.id == id).unwrap();
    assert!(
        item.fix.is_some(),
        "an open item says how to fix it: {item:?}"
    );
    fix().await;
    let checklist = fresh(client, ALPHA_DISCORD).await;
    assert_eq!(
        status(&checklist, id),
        ItemStatus::Done,
        "{id} after: {checklist:#?}"
    );
}

#[tokio::test]
async fn each_item_flips_from_todo_to_done_when_its_state_is_fixed() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    // A write key with an expiry, so the expiry item can be fixed by revoking alpha_rw.
    let rw = daemon.key_expiring("alpha", Scope::Write, Some(daemon.now_unix() + 86_400));
    let client = daemon.client(&rw);

    flips(
        &client,
        "platform_connected",
        ItemStatus::Todo,
        async || {
            daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
        },
    )
    .await;
    let checklist = fresh(&client, ALPHA_DISCORD).await;
    assert_eq!(status(&checklist, "bot_token"), ItemStatus::Done);
    assert_eq!(status(&checklist, "bot_role_position"), ItemStatus::Done);

    flips(&client, "bot_permissions", ItemStatus::Todo, async || {
        let missing = (1u64 << 4) | (1 << 7);
        daemon.sql(move |tx| {
            tx.execute(
                "UPDATE sim_roles SET permissions = permissions | ?1 WHERE role_id = ?2",
                rusqlite::params![missing as i64, BOT_ROLE],
            )?;
            Ok(())
        });
    })
    .await;
    flips(&client, "modlog_channel", ItemStatus::Todo, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::General,
            json!({"modlog_channel_id": MODLOG}),
        );
    })
    .await;
    flips(&client, "strikes_reviewed", ItemStatus::Todo, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Strikes,
            json!({"expiry_days": 60}),
        );
    })
    .await;
    flips(&client, "jail", ItemStatus::Todo, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Jail,
            json!({"enabled": true, "role_id": JAILED_ROLE}),
        );
    })
    .await;
    flips(&client, "snapshot_recent", ItemStatus::Todo, async || {
        client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    })
    .await;
    flips(&client, "snapshot_schedule", ItemStatus::Todo, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Antinuke,
            json!({"enabled": true}),
        );
    })
    .await;
    let receiver = Receiver::start();
    flips(&client, "webhooks", ItemStatus::Todo, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            json!({"enabled": true, "url": receiver.url(), "secret": "whsec_YS1zZWNyZXQtb2YtdHdlbnR5LWZvdXIh"}),
        );
        receiver.set_secret("whsec_YS1zZWNyZXQtb2YtdHdlbnR5LWZvdXIh");
        client.test_webhook(ALPHA_DISCORD).await.unwrap();
        daemon.deliver_webhooks();
    })
    .await;
    // The team's keys: alpha_ro is a read key; alpha_rw never expires.
    daemon.revoke(&fixture.alpha_ro.key_id);
    flips(&client, "read_only_key", ItemStatus::Todo, async || {
        daemon.key("alpha", Scope::Read);
    })
    .await;
    flips(
        &client,
        "write_keys_expire",
        ItemStatus::Warning,
        async || {
            daemon.revoke(&fixture.alpha_rw.key_id);
        },
    )
    .await;
    // A channel deleted since the config named it (as after a nuke).
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Logging,
        json!({"automod": "700000000000000099"}),
    );
    flips(&client, "config_ids", ItemStatus::Warning, async || {
        daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Logging,
            json!({"automod": MODLOG}),
        );
    })
    .await;
    flips(&client, "activity", ItemStatus::Todo, async || {
        let batch = ActivityBatch {
            events: vec![BatchEvent {
                id: "m1".into(),
                kind: ActivityKind::Message,
                user_id: ALICE.into(),
                channel_id: Some(MODLOG.into()),
                at: daemon.clock().now(),
                minutes: None,
            }],
        };
        client.post_activity(ALPHA_DISCORD, &batch).await.unwrap();
    })
    .await;

    let checklist = fresh(&client, ALPHA_DISCORD).await;
    assert_eq!(
        checklist.progress.done, checklist.progress.total,
        "{checklist:#?}"
    );
    assert_eq!(checklist.progress.percent, 100);
}

#[tokio::test]
async fn the_platform_is_asked_again_only_after_five_minutes_or_on_refresh() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Jail,
        json!({"enabled": true, "role_id": JAILED_ROLE}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    let first = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    assert!(!first.cached);
    assert_eq!(status(&first, "jail"), ItemStatus::Done);

    // The jail role is deleted on the platform: the cache does not know yet.
    daemon.sql(|tx| {
        tx.execute("DELETE FROM sim_roles WHERE role_id = ?1", [JAILED_ROLE])?;
        Ok(())
    });
    let cached = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    assert!(cached.cached);
    assert_eq!(cached.checked_at, first.checked_at);
    assert_eq!(status(&cached, "jail"), ItemStatus::Done);
    let refreshed = client.onboarding(ALPHA_DISCORD, true).await.unwrap();
    assert!(!refreshed.cached);
    assert_eq!(status(&refreshed, "jail"), ItemStatus::Todo);
    assert_eq!(status(&refreshed, "config_ids"), ItemStatus::Warning);

    // Issue #23: what changes the answer drops it. The role is back on the
    // platform; a config change (it may name what was just made there)
    // asks the platform again, and so does a snapshot (or a restore).
    daemon.sql(|tx| {
        tx.execute(
            "INSERT INTO sim_roles (server_id, role_id, name, position, permissions) VALUES (?1, ?2, 'Jailed', 2, 0)",
            [ALPHA_DISCORD, JAILED_ROLE],
        )?;
        Ok(())
    });
    assert!(
        client
            .onboarding(ALPHA_DISCORD, false)
            .await
            .unwrap()
            .cached
    );
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"expiry_days": 60}),
    );
    let changed = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    assert!(!changed.cached);
    assert_eq!(status(&changed, "strikes_reviewed"), ItemStatus::Done);
    assert_eq!(status(&changed, "jail"), ItemStatus::Done);
    daemon.sql(|tx| {
        tx.execute("DELETE FROM sim_roles WHERE role_id = ?1", [JAILED_ROLE])?;
        Ok(())
    });
    assert!(
        client
            .onboarding(ALPHA_DISCORD, false)
            .await
            .unwrap()
            .cached
    );
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let snapshotted = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    assert!(!snapshotted.cached);
    assert_eq!(status(&snapshotted, "jail"), ItemStatus::Todo);

    // After five minutes the cache is not used either.
    daemon.sql(|tx| {
        tx.execute(
            "INSERT INTO sim_roles (server_id, role_id, name, position, permissions) VALUES (?1, ?2, 'Jailed', 2, 0)",
            [ALPHA_DISCORD, JAILED_ROLE],
        )?;
        Ok(())
    });
    assert_eq!(
        status(
            &client.onboarding(ALPHA_DISCORD, false).await.unwrap(),
            "jail"
        ),
        ItemStatus::Todo
    );
    daemon.clock().advance(std::time::Duration::from_secs(301));
    let later = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    assert!(!later.cached);
    assert_eq!(status(&later, "jail"), ItemStatus::Done);
}

#[tokio::test]
async fn an_unreachable_platform_is_a_warning_and_a_refused_token_a_todo() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    // Nothing listens on port 9 of 127.0.0.1.
    daemon.connect_live(ALPHA_TELEGRAM, "123:token", "http://127.0.0.1:9");
    let client = daemon.client(&fixture.alpha_ro);
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    assert_eq!(status(&checklist, "platform_connected"), ItemStatus::Done);
    assert_eq!(status(&checklist, "bot_token"), ItemStatus::Warning);
    let token = checklist
        .items
        .iter()
        .find(|i| i.id == "bot_token")
        .unwrap();
    assert!(token.detail.contains("could not be reached"), "{token:?}");
    assert!(
        !token.detail.contains("123:token"),
        "no token in the answer: {token:?}"
    );

    let discord = FakeDiscord::start(ALPHA_DISCORD);
    daemon.connect_live(ALPHA_DISCORD, "not.the.token", &discord.uri());
    let checklist = fresh(&client, ALPHA_DISCORD).await;
    assert_eq!(status(&checklist, "bot_token"), ItemStatus::Todo);
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    let checklist = fresh(&client, ALPHA_DISCORD).await;
    assert_eq!(
        status(&checklist, "bot_token"),
        ItemStatus::Done,
        "{checklist:#?}"
    );
    // The fake's bot holds the moderation permissions but not MANAGE_CHANNELS or VIEW_AUDIT_LOG.
    assert_eq!(status(&checklist, "bot_permissions"), ItemStatus::Todo);
}

#[tokio::test]
async fn free_teams_see_plan_items_as_not_applicable_and_others_need_read() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let beta = daemon.client(&fixture.beta_rw);
    let checklist = fresh(&beta, modctl_e2e::BETA_DISCORD).await;
    assert_eq!(status(&checklist, "webhooks"), ItemStatus::NotApplicable);
    assert_eq!(
        status(&checklist, "snapshot_schedule"),
        ItemStatus::NotApplicable
    );
    let err = beta.onboarding(ALPHA_DISCORD, false).await.unwrap_err();
    assert_eq!(err.status(), Some(modctl_client::StatusCode::FORBIDDEN));
}

/// Slack (issue #23): the mod-log item asks that the bot be a member of
/// the channel, not only that it exists (without `chat:write.public` a bot
/// posts nowhere else), and an expired rotating token is a refused one.
#[tokio::test]
async fn on_slack_the_mod_log_needs_the_bot_in_it_and_an_expired_token_is_refused() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let slack = FakeSlack::start();
    slack.add_channel_without_bot("C0LOGS0001", "mod-logs");
    daemon.connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::General,
        json!({"modlog_channel_id": "C0LOGS0001"}),
    );
    let client = daemon.client(&fixture.alpha_ro);
    let checklist = fresh(&client, ALPHA_SLACK).await;
    let modlog = checklist
        .items
        .iter()
        .find(|i| i.id == "modlog_channel")
        .unwrap();
    assert_eq!(modlog.status, ItemStatus::Todo, "{modlog:?}");
    assert!(modlog.detail.contains("not a member"), "{modlog:?}");
    assert!(
        modlog
            .fix
            .as_deref()
            .unwrap_or_default()
            .contains("/invite"),
        "{modlog:?}"
    );
    // The bot is invited.
    slack.add_channel("C0LOGS0001", "mod-logs");
    let checklist = fresh(&client, ALPHA_SLACK).await;
    assert_eq!(status(&checklist, "modlog_channel"), ItemStatus::Done);

    slack.fail(
        "POST",
        "/conversations.list",
        200,
        json!({"ok": false, "error": "token_expired"}),
        1,
    );
    let checklist = fresh(&client, ALPHA_SLACK).await;
    assert_eq!(
        status(&checklist, "bot_token"),
        ItemStatus::Todo,
        "{checklist:#?}"
    );
}

fn item<'a>(checklist: &'a Onboarding, id: &str) -> &'a modctl_types::onboarding::OnboardingItem {
    checklist.items.iter().find(|i| i.id == id).unwrap()
}

/// Issue #23: on Telegram the checklist asks for the bot's rights
/// (`getChatMember` of the bot): an administrator with can_restrict_members
/// for the moderation actions, and the rights of each enabled feature
/// (can_change_info for antinuke restores, ...); it says what to turn on,
/// and flags a bot that is no administrator and a basic group.
#[tokio::test]
async fn telegram_bot_rights_follow_the_enabled_features() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    daemon.connect_live(
        ALPHA_TELEGRAM,
        modctl_e2e::fakes::telegram::TOKEN,
        &telegram.uri(),
    );
    let client = daemon.client(&fixture.alpha_ro);
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    let rights = item(&checklist, "bot_permissions");
    assert_eq!(rights.status, ItemStatus::Done, "{rights:?}");
    assert!(rights.detail.contains("can_restrict_members"), "{rights:?}");

    // Antinuke restores the group's settings: can_change_info, which the
    // fake's bot lacks.
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Antinuke,
        json!({"enabled": true}),
    );
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    let rights = item(&checklist, "bot_permissions");
    assert_eq!(rights.status, ItemStatus::Todo, "{rights:?}");
    assert!(
        rights.detail.contains("can_change_info (antinuke"),
        "{rights:?}"
    );
    assert!(
        rights
            .fix
            .as_deref()
            .unwrap()
            .ends_with("turn on can_change_info, can_promote_members"),
        "{rights:?}"
    );
    // Antinuke demotes an administrator who bans too many:
    // can_promote_members.
    assert!(
        rights.detail.contains("can_promote_members (antinuke"),
        "{rights:?}"
    );
    telegram.set_bot_right("can_change_info", true);
    telegram.set_bot_right("can_promote_members", true);
    assert_eq!(
        status(&fresh(&client, ALPHA_TELEGRAM).await, "bot_permissions"),
        ItemStatus::Done
    );

    telegram.set_bot_can_restrict(false);
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    let rights = item(&checklist, "bot_permissions");
    assert_eq!(rights.status, ItemStatus::Todo);
    assert!(
        rights.detail.contains("lack can_restrict_members"),
        "{rights:?}"
    );
    telegram.set_bot_can_restrict(true);

    telegram.set_bot_admin(false);
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    let rights = item(&checklist, "bot_permissions");
    assert_eq!(rights.status, ItemStatus::Todo);
    assert!(rights.detail.contains("not an administrator"), "{rights:?}");
    assert!(
        rights.fix.as_deref().unwrap().contains("Add Admin"),
        "{rights:?}"
    );
    telegram.set_bot_admin(true);

    telegram.make_basic_group(ALPHA_TELEGRAM.parse().unwrap());
    let checklist = fresh(&client, ALPHA_TELEGRAM).await;
    let rights = item(&checklist, "bot_permissions");
    assert_eq!(rights.status, ItemStatus::Todo);
    assert!(rights.detail.contains("basic group"), "{rights:?}");
}

/// Issue #25: with `moderation.dm_on_action` on (the default), the
/// checklist says what becomes of the DMs on each platform: sent on
/// Discord (a member refusing DMs is `failed`) and Slack
/// (conversations.open), never on Telegram, a warning whose fix turns the
/// setting off; with it off there is no DM item.
#[tokio::test]
async fn the_dm_item_says_what_each_platform_does_with_dms() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    for (server, platform) in [
        (ALPHA_DISCORD, Platform::Discord),
        (ALPHA_SLACK, Platform::Slack),
        (ALPHA_TELEGRAM, Platform::Telegram),
    ] {
        daemon.connect_simulated(server, platform);
    }
    let client = daemon.client(&fixture.alpha_ro);
    for (server, want, says) in [
        (ALPHA_DISCORD, ItemStatus::Done, "`failed`"),
        (ALPHA_SLACK, ItemStatus::Done, "conversations.open"),
        (ALPHA_TELEGRAM, ItemStatus::Warning, "`not_possible`"),
    ] {
        let checklist = fresh(&client, server).await;
        let dm = item(&checklist, "dm_on_action");
        assert_eq!(dm.status, want, "{server}: {dm:?}");
        assert!(dm.detail.contains(says), "{server}: {dm:?}");
        if want == ItemStatus::Warning {
            let fix = dm.fix.as_deref().unwrap();
            assert!(
                fix.contains(&format!(
                    "modctl config set {server} moderation.dm_on_action false"
                )),
                "{fix}"
            );
        }

        daemon.set_config(
            server,
            SectionName::Moderation,
            json!({"dm_on_action": false}),
        );
        let checklist = fresh(&client, server).await;
        assert!(
            checklist.items.iter().all(|i| i.id != "dm_on_action"),
            "{server}: {checklist:#?}"
        );
    }
}
