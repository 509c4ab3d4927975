//! Restoring structure snapshots on Discord (issue #10), against the
//! stateful fake on Discord's own routes: a nuked guild gets its roles,
//! categories, channels and overwrites back with the overwrites following
//! the roles to their new ids; a second restore creates nothing; what is
//! above the bot is reported, not attempted; Discord's buckets are waited
//! for, not hit; a job interrupted by a restart resumes without duplicates;
//! a dry run changes nothing; a refused item is reported and the job goes
//! on. Slack, Telegram and the simulator: `restore_platforms.rs`.

use std::time::{Duration, Instant};

use modctl_client::Client;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{
    ADMIN_ROLE, MANAGE_CHANNELS, MOD_PERMISSIONS, MOD_ROLE, OWNER, TOKEN as DISCORD_TOKEN,
};
use modctl_e2e::restore::{assert_nothing_remains, dry_run, item, post_restore, restore, wait};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture, TestDaemon, error_body};
use modctl_types::restore::{ItemKind, ItemOutcome, JobState, MatchedBy, PlanStep, RestoreJob};
use reqwest::StatusCode;
use serde_json::json;

const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;

const HELPERS: &str = "600000000000000020";
const STAFF: &str = "700000000000000010";
const STAFF_CHAT: &str = "700000000000000011";
const RULES: &str = "700000000000000014";
const STAFF_NOTES: &str = "700000000000000015";
/// A guild whose `@everyone` may view and send (so the bot may grant
/// that), with a Helpers role below the bot's, a Staff category hidden from
/// everyone but Helpers, a staff chat in it whose topic mentions Helpers and
/// the rules channel, with a role and a member overwrite.
fn guild() -> FakeDiscord {
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_role_permissions(ALPHA_DISCORD, VIEW_CHANNEL | SEND_MESSAGES);
    discord.add_role(HELPERS, 3, VIEW_CHANNEL);
    discord.style_role(HELPERS, "Helpers", 0x3498DB, true, true);
    discord.style_role(ADMIN_ROLE, "Admins", 0, false, false);
    discord.add_typed_channel(STAFF, 4, "Staff", None, 0, None);
    discord.add_typed_channel(
        STAFF_CHAT,
        0,
        "staff-chat",
        Some(STAFF),
        0,
        Some(&format!(
            "Ask <@&{HELPERS}>, read <#{RULES}> and <#{STAFF}>, write in <#{STAFF_NOTES}>"
        )),
    );
    discord.add_typed_channel(RULES, 0, "rules", None, 3, Some("Be kind"));
    discord.add_typed_channel(STAFF_NOTES, 0, "staff-notes", Some(STAFF), 1, None);
    discord.add_overwrite(STAFF, ALPHA_DISCORD, false, 0, VIEW_CHANNEL);
    discord.add_overwrite(STAFF, HELPERS, false, VIEW_CHANNEL, 0);
    discord.add_overwrite(STAFF_CHAT, HELPERS, false, VIEW_CHANNEL | SEND_MESSAGES, 0);
    discord.add_overwrite(STAFF_CHAT, OWNER, true, VIEW_CHANNEL, SEND_MESSAGES);
    discord
}

fn connected(discord: &FakeDiscord) -> (Fixture, Client) {
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    (fixture, client)
}

fn writes(discord: &FakeDiscord) -> usize {
    discord
        .requests()
        .iter()
        .filter(|r| r.method != "GET")
        .count()
}

fn only(ids: Vec<String>, what: &str) -> String {
    assert_eq!(ids.len(), 1, "expected exactly one {what}: {ids:?}");
    ids.into_iter().next().unwrap()
}

#[tokio::test]
async fn a_nuked_guild_gets_its_roles_channels_and_remapped_overwrites_back_once() {
    let discord = guild();
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    let snapshot = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let (roles, channels) = (discord.role_count(), discord.channel_count());

    // The nuke: a role (referenced by overwrites of the deleted channels),
    // a role above the bot, a category and the channel in it.
    discord.delete_role(HELPERS);
    discord.delete_role(ADMIN_ROLE);
    discord.delete_channel(STAFF);
    discord.delete_channel(STAFF_CHAT);
    discord.delete_channel(STAFF_NOTES);

    let plan = dry_run(daemon, key, ALPHA_DISCORD).await;
    assert_eq!(plan.snapshot_id, snapshot.id);
    // Helpers, Staff, staff-chat, staff-notes and four overwrites; Admins
    // skipped.
    assert_eq!(
        (plan.summary.create, plan.summary.skip),
        (8, 1),
        "{plan:#?}"
    );
    let admins = plan
        .items
        .iter()
        .find(|i| i.snapshot_id == ADMIN_ROLE)
        .unwrap();
    assert_eq!(admins.step, PlanStep::Skip);
    assert!(admins.detail.contains("above the bot"), "{}", admins.detail);
    assert_eq!(writes(&discord), 0, "a dry run changes nothing");
    assert_eq!(discord.role_count(), roles - 2);

    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&job);
    assert_eq!(job.snapshot_id, snapshot.id);
    assert_eq!(job.actor, format!("key:{}", key.key_id));

    let helpers = only(discord.roles_named("Helpers"), "Helpers role");
    assert_ne!(helpers, HELPERS, "a deleted role comes back with a new id");
    let (position, permissions) = discord.role_of(&helpers).unwrap();
    let (bot_top, _) = discord.role_of(MOD_ROLE).unwrap();
    assert!(
        position < bot_top,
        "placed below the bot ({position} < {bot_top})"
    );
    assert_eq!(permissions, VIEW_CHANNEL);
    assert_eq!(
        discord
            .requests_to("PATCH", &format!("/guilds/{ALPHA_DISCORD}/roles"))
            .len(),
        1,
        "positions are set in one bulk call"
    );
    // Above the bot: reported, never attempted.
    assert!(discord.roles_named("Admins").is_empty());
    let admins = item(&job, ItemKind::Role, ADMIN_ROLE);
    assert_eq!(admins.outcome, ItemOutcome::Skipped);
    let role_posts = discord.requests_to("POST", &format!("/guilds/{ALPHA_DISCORD}/roles"));
    assert_eq!(role_posts.len(), 1, "only Helpers is created");
    assert_eq!(
        item(&job, ItemKind::Role, HELPERS)
            .planned
            .live_id
            .as_deref(),
        Some(helpers.as_str())
    );

    let staff = only(discord.channels_named("Staff"), "Staff category");
    let chat = only(discord.channels_named("staff-chat"), "staff chat");
    let notes = only(discord.channels_named("staff-notes"), "staff notes");
    let (parent, topic) = discord.channel_of(&chat).unwrap();
    assert_eq!(
        parent.as_deref(),
        Some(staff.as_str()),
        "in the new category"
    );
    assert_eq!(
        topic.as_deref(),
        Some(
            format!("Ask <@&{helpers}>, read <#{RULES}> and <#{staff}>, write in <#{notes}>")
                .as_str()
        ),
        "mentions follow the id map, also to a channel created after this one"
    );
    let mut chat_overwrites = discord.overwrites_of(&chat);
    chat_overwrites.sort();
    let mut expected = vec![
        (helpers.clone(), false, VIEW_CHANNEL | SEND_MESSAGES, 0),
        (OWNER.to_owned(), true, VIEW_CHANNEL, SEND_MESSAGES),
    ];
    expected.sort();
    assert_eq!(
        chat_overwrites, expected,
        "the role overwrite points at the new role; the member's survives"
    );
    let mut staff_overwrites = discord.overwrites_of(&staff);
    staff_overwrites.sort();
    let mut expected = vec![
        (ALPHA_DISCORD.to_owned(), false, 0, VIEW_CHANNEL),
        (helpers.clone(), false, VIEW_CHANNEL, 0),
    ];
    expected.sort();
    assert_eq!(staff_overwrites, expected);
    assert_eq!(
        (discord.role_count(), discord.channel_count()),
        (roles - 1, channels)
    );

    // Restoring again creates nothing: the id map recognises what was created.
    let writes_before = writes(&discord);
    let plan = dry_run(daemon, key, ALPHA_DISCORD).await;
    assert_eq!(plan.summary.create, 0, "{plan:#?}");
    let helpers_again = plan
        .items
        .iter()
        .find(|i| i.snapshot_id == HELPERS)
        .unwrap();
    assert_eq!(helpers_again.matched_by, Some(MatchedBy::Restored));
    assert_eq!(helpers_again.live_id.as_deref(), Some(helpers.as_str()));
    let again = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&again);
    assert_eq!(again.summary.create, 0);
    assert_eq!(
        writes(&discord),
        writes_before,
        "a second restore creates nothing"
    );
    assert_eq!(
        (discord.role_count(), discord.channel_count()),
        (roles - 1, channels)
    );
}

#[tokio::test]
async fn restores_answer_clear_errors_and_the_read_scope_may_follow_a_job() {
    let discord = guild();
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);

    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_TELEGRAM, true, None).await).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        message.contains("is not connected to its platform"),
        "{message}"
    );
    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_DISCORD, false, None).await).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        message.contains("no structure snapshot to restore"),
        "{message}"
    );
    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_DISCORD, true, None).await).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{message}");

    let snapshot = client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    let body = Some(json!({ "snapshot_id": snapshot.id + 100 }));
    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_DISCORD, false, body).await).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        message.contains(&format!("no structure snapshot {}", snapshot.id + 100)),
        "{message}"
    );
    let body = Some(json!({ "snapshot": 1 }));
    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_DISCORD, false, body).await).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");

    // Read-only keys may follow jobs but not start them.
    let (status, _) =
        error_body(post_restore(daemon, &fixture.alpha_ro, ALPHA_DISCORD, false, None).await).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let body = Some(json!({ "snapshot_id": snapshot.id }));
    let response = post_restore(daemon, key, ALPHA_DISCORD, false, body).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let accepted: RestoreJob = response.json().await.unwrap();
    let done = wait(daemon, &fixture.alpha_ro, ALPHA_DISCORD, accepted.id).await;
    assert_nothing_remains(&done);

    let url = daemon.api(&format!(
        "/servers/{ALPHA_DISCORD}/structure-snapshot/restore/{}",
        done.id + 1
    ));
    let response = reqwest::Client::new()
        .get(url)
        .bearer_auth(&key.full)
        .send()
        .await
        .unwrap();
    let (status, message) = error_body(response).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(message.contains("no restore job"), "{message}");
}

#[tokio::test]
async fn a_running_job_makes_another_restore_a_409() {
    let discord = guild();
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    discord.delete_channel(STAFF_CHAT);
    // The job's channel creation waits until the gate opens.
    let gate = discord.hold("POST", &format!("/guilds/{ALPHA_DISCORD}/channels"));
    let response = post_restore(daemon, key, ALPHA_DISCORD, false, None).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let first: RestoreJob = response.json().await.unwrap();
    let (status, message) =
        error_body(post_restore(daemon, key, ALPHA_DISCORD, false, None).await).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        message.contains(&format!("restore job {} of server", first.id)),
        "{message}"
    );
    gate.release();
    assert_nothing_remains(&wait(daemon, key, ALPHA_DISCORD, first.id).await);
    assert_eq!(discord.channels_named("staff-chat").len(), 1);
}

/// A guild with `count` text channels `chan-N`, captured and then deleted.
async fn nuked_channels(discord: &FakeDiscord, client: &Client, count: usize) {
    for i in 0..count {
        discord.add_typed_channel(
            &format!("7100000000000{i:05}"),
            0,
            &format!("chan-{i}"),
            None,
            10 + i as i64,
            None,
        );
    }
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    for i in 0..count {
        discord.delete_channel(&format!("7100000000000{i:05}"));
    }
}

fn assert_each_channel_once(discord: &FakeDiscord, count: usize) {
    for i in 0..count {
        assert_eq!(
            discord.channels_named(&format!("chan-{i}")).len(),
            1,
            "chan-{i}"
        );
    }
}

#[tokio::test]
async fn a_restore_of_30_channels_waits_for_the_bucket_and_a_429_is_waited_out() {
    let discord = guild();
    let channels_route = format!("/guilds/{ALPHA_DISCORD}/channels");
    discord.limit_route(
        "POST",
        "/guilds/{guild}/channels",
        5,
        Duration::from_millis(500),
    );
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    nuked_channels(&discord, &client, 30).await;

    let started = Instant::now();
    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&job);
    assert_each_channel_once(&discord, 30);
    let refused = discord.too_many_requests();
    assert_eq!(
        (refused.bucket, refused.global),
        (0, 0),
        "no request was refused: {refused:?}"
    );
    // 30 requests at 5 per 500 ms cannot take less than 5 full windows.
    assert!(
        started.elapsed() >= Duration::from_millis(2_500),
        "{:?}",
        started.elapsed()
    );

    // A 429 the limiter could not foresee is waited out, not failed.
    for i in 0..30 {
        let id = only(discord.channels_named(&format!("chan-{i}")), "channel");
        discord.delete_channel(&id);
    }
    discord.inject_429("POST", &channels_route, Duration::from_millis(2_500), false);
    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&job);
    assert!(
        job.items.iter().all(|i| i.outcome != ItemOutcome::Failed),
        "{job:#?}"
    );
    assert_each_channel_once(&discord, 30);
    assert_eq!(discord.too_many_requests().injected, 1);
}

#[tokio::test]
async fn a_job_interrupted_by_a_restart_resumes_without_creating_anything_twice() {
    const COUNT: usize = 40;
    let discord = guild();
    discord.limit_route(
        "POST",
        "/guilds/{guild}/channels",
        5,
        Duration::from_millis(500),
    );
    let (fixture, client) = connected(&discord);
    nuked_channels(&discord, &client, COUNT).await;
    let base = discord.channel_count();
    let Fixture {
        daemon, alpha_rw, ..
    } = fixture;

    let response = post_restore(&daemon, &alpha_rw, ALPHA_DISCORD, false, None).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let accepted: RestoreJob = response.json().await.unwrap();
    let started = Instant::now();
    while discord.channel_count() < base + 10 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the job does not start"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let daemon = tokio::task::spawn_blocking(move || daemon.restart())
        .await
        .unwrap();
    let at_restart = discord.channel_count();
    assert!(
        at_restart < base + COUNT,
        "the job ended before the restart: nothing to resume"
    );

    let job = wait(&daemon, &alpha_rw, ALPHA_DISCORD, accepted.id).await;
    assert_nothing_remains(&job);
    assert_each_channel_once(&discord, COUNT);
    assert_eq!(discord.channel_count(), base + COUNT);
    // Every channel-creation request made a channel: none was sent twice.
    let posts = discord.requests_to("POST", &format!("/guilds/{ALPHA_DISCORD}/channels"));
    let mut names: Vec<&str> = posts
        .iter()
        .filter_map(|r| r.body["name"].as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), COUNT);
}

#[tokio::test]
async fn a_channel_created_just_before_a_restart_is_found_by_name_not_created_again() {
    const COUNT: usize = 3;
    let discord = guild();
    let (fixture, client) = connected(&discord);
    nuked_channels(&discord, &client, COUNT).await;
    let base = discord.channel_count();
    let Fixture {
        daemon, alpha_rw, ..
    } = fixture;
    let channels = format!("/guilds/{ALPHA_DISCORD}/channels");

    // The first creation reaches Discord, but its answer never reaches the
    // daemon: it is stopped while the request is held.
    let creation = discord.hold("POST", &channels);
    let response = post_restore(&daemon, &alpha_rw, ALPHA_DISCORD, false, None).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let accepted: RestoreJob = response.json().await.unwrap();
    creation.arrived().await;
    // The restarted daemon's first look at the channels waits until the
    // lost creation has taken effect on Discord.
    let reading = discord.hold("GET", &channels);
    let daemon = tokio::task::spawn_blocking(move || daemon.restart())
        .await
        .unwrap();
    reading.arrived().await;
    creation.release();
    let started = Instant::now();
    while discord.channel_count() < base + 1 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the held creation never landed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    reading.release();

    let job = wait(&daemon, &alpha_rw, ALPHA_DISCORD, accepted.id).await;
    assert_nothing_remains(&job);
    assert_each_channel_once(&discord, COUNT);
    assert_eq!(discord.channel_count(), base + COUNT);
    assert_eq!(
        discord.requests_to("POST", &channels).len(),
        COUNT,
        "one creation per channel"
    );
    let found: Vec<_> = job
        .items
        .iter()
        .filter(|i| {
            i.result
                .as_deref()
                .is_some_and(|r| r.contains("found present"))
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "the lost creation is found by name: {job:#?}"
    );
    assert!(
        found[0]
            .result
            .as_deref()
            .unwrap()
            .contains("matched by name"),
        "{found:?}"
    );
}

#[tokio::test]
async fn an_item_the_platform_refuses_is_reported_and_the_job_goes_on() {
    let discord = guild();
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    nuked_channels(&discord, &client, 3).await;
    discord.fail(
        "POST",
        &format!("/guilds/{ALPHA_DISCORD}/channels"),
        403,
        json!({"message": "Missing Permissions", "code": 50013}),
        1,
    );

    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&job);
    let channels = job
        .progress
        .iter()
        .find(|p| p.kind == ItemKind::Channel)
        .unwrap();
    assert_eq!((channels.failed, channels.remaining), (1, 0), "{job:#?}");
    let failed: Vec<_> = job
        .items
        .iter()
        .filter(|i| i.outcome == ItemOutcome::Failed)
        .collect();
    assert_eq!(failed.len(), 1, "{job:#?}");
    let reason = failed[0].result.as_deref().unwrap();
    assert!(reason.contains("Missing Permissions"), "{reason}");
    assert_eq!(failed[0].planned.name, "chan-0");
    assert!(discord.channels_named("chan-0").is_empty());
    assert_eq!(discord.channels_named("chan-1").len(), 1);
    assert_eq!(discord.channels_named("chan-2").len(), 1);
}

/// Discord may create a role or channel and still answer 500, or create it
/// and lose the answer: the adapter then looks for what it sent among the
/// guild's roles or channels that were not there before, and records the
/// one it finds instead of creating a second. A 5xx that came before
/// Discord acted leaves nothing to find, and the creation is sent again.
#[tokio::test]
async fn a_creation_answered_500_or_never_is_found_not_created_twice() {
    let discord = guild();
    let fixture = Fixture::seed(TestDaemon::start_with_platform_timeout(
        Duration::from_millis(500),
    ));
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    discord.delete_role(HELPERS);
    discord.delete_channel(RULES);
    discord.delete_channel(STAFF_NOTES);
    let roles = format!("/guilds/{ALPHA_DISCORD}/roles");
    let channels = format!("/guilds/{ALPHA_DISCORD}/channels");
    // The role: created, then answered 500.
    discord.fail_after(
        "POST",
        &roles,
        500,
        json!({"message": "500: Internal Server Error", "code": 0}),
        1,
    );
    // The first channel: created, and its answer never comes; the second:
    // refused with a 502 before Discord acted, then created on the retry.
    discord.lose_answers("POST", &channels, 1);
    discord.fail(
        "POST",
        &channels,
        502,
        json!({"message": "502: Bad Gateway", "code": 0}),
        1,
    );

    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_nothing_remains(&job);
    let helpers = only(discord.roles_named("Helpers"), "Helpers role");
    assert_eq!(
        discord.requests_to("POST", &roles).len(),
        1,
        "never sent twice"
    );
    assert_eq!(
        item(&job, ItemKind::Role, HELPERS)
            .planned
            .live_id
            .as_deref(),
        Some(helpers.as_str())
    );
    let rules = only(discord.channels_named("rules"), "rules channel");
    let notes = only(discord.channels_named("staff-notes"), "staff-notes channel");
    assert_eq!(
        discord.requests_to("POST", &channels).len(),
        3,
        "the lost one once, the refused one twice"
    );
    assert_eq!(
        item(&job, ItemKind::Channel, RULES)
            .planned
            .live_id
            .as_deref(),
        Some(rules.as_str())
    );
    assert_eq!(
        item(&job, ItemKind::Channel, STAFF_NOTES)
            .planned
            .live_id
            .as_deref(),
        Some(notes.as_str())
    );
    for (kind, id) in [
        (ItemKind::Role, HELPERS),
        (ItemKind::Channel, RULES),
        (ItemKind::Channel, STAFF_NOTES),
    ] {
        let done = item(&job, kind, id);
        assert_eq!(done.outcome, ItemOutcome::Done, "{done:#?}");
    }
}

/// Creating a channel needs Manage Channels (guild.mdx, "Create Guild
/// Channel"; the fake refuses without it): a bot without it gets the roles
/// back, and each channel is reported failed with the permission it needs.
#[tokio::test]
async fn a_bot_without_manage_channels_is_told_which_permission_a_channel_needs() {
    let discord = guild();
    let (fixture, client) = connected(&discord);
    let (daemon, key) = (&fixture.daemon, &fixture.alpha_rw);
    client.capture_snapshot(ALPHA_DISCORD).await.unwrap();
    discord.delete_role(HELPERS);
    discord.delete_channel(RULES);
    discord.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS & !MANAGE_CHANNELS);

    let job = restore(daemon, key, ALPHA_DISCORD).await;
    assert_eq!(job.state, JobState::Done, "{job:#?}");
    assert_eq!(
        item(&job, ItemKind::Role, HELPERS).outcome,
        ItemOutcome::Done
    );
    only(discord.roles_named("Helpers"), "Helpers role");
    let rules = item(&job, ItemKind::Channel, RULES);
    assert_eq!(rules.outcome, ItemOutcome::Failed, "{rules:#?}");
    assert_eq!(
        rules.result.as_deref(),
        Some(
            "the platform refused: Missing Permissions, code 50013; creating a channel needs the Manage Channels permission"
        )
    );
    assert!(discord.channels_named("rules").is_empty());
}
