//! Raid lockdowns end to end (issue #26): a raid of joins through the fake
//! Discord gateway starts one (invites paused through the incident actions,
//! joiners timed out) that ends on the clock; Telegram replaces its invite
//! link and restricts joiners; Slack only alerts; started and ended by hand
//! through the API, across a restart; bots joining never count.
//!
//! The test daemons' lockdown worker waits an hour, so each test ends what
//! is due itself (`workers::lockdowns`), as it posts logs (`deliver_logs`).

use std::sync::Arc;
use std::time::Duration;

use modctl_client::{ErrorCode, ErrorKind};
use modctl_e2e::fakes::discord::gateway::FakeGateway;
use modctl_e2e::fakes::discord::{
    BOT, MANAGE_GUILD, MOD_PERMISSIONS, MOD_ROLE, TOKEN as DISCORD_TOKEN,
};
use modctl_e2e::fakes::slack::TOKEN as SLACK_TOKEN;
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram};
use modctl_e2e::webhooks::{Receiver, configure};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, TestDaemon, eventually};
use modctl_types::Platform;
use modctl_types::config::SectionName;
use modctl_types::lockdown::{Lockdown, StartLockdown};
use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use modctld::events::{Event, EventKind, MemberRef, Membership};
use serde_json::{Value, json};

const DISCORD_LOG: &str = "300000000000000010";
const SLACK_MODLOG: &str = "C0MODLOG02";
const TELEGRAM_CHAT: i64 = -1_001_000_000_001;

/// Automatic lockdowns on: more than `limit` joins a minute, for 10 minutes.
fn antinuke(daemon: &TestDaemon, server: &str, enabled: bool, limit: u32) {
    daemon.set_config(
        server,
        SectionName::Antinuke,
        json!({"enabled": enabled, "max_joins_per_minute": limit, "lockdown_minutes": 10}),
    );
}

/// The lockdowns of `server`, oldest first.
fn lockdowns(daemon: &TestDaemon, server: &str) -> Vec<(String, Option<String>, i64)> {
    let server = server.to_owned();
    daemon.sql(move |c| {
        let mut statement = c.prepare(
            "SELECT started_by, ended_by, members_held FROM lockdowns WHERE server_id = ?1 ORDER BY id",
        )?;
        let rows = statement.query_map([&server], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    })
}

/// The reason the first lockdown of `server` gives.
fn why(daemon: &TestDaemon, server: &str) -> String {
    let server = server.to_owned();
    daemon.sql(move |c| {
        c.query_row(
            "SELECT why FROM lockdowns WHERE server_id = ?1 ORDER BY id LIMIT 1",
            [&server],
            |r| r.get(0),
        )
    })
}

/// An automatic lockdown of alpha's guild lasting `seconds` from now, whose
/// row was written but whose platform was never asked: the daemon stopped
/// between the two.
fn cut_short_start(daemon: &TestDaemon, seconds: i64) {
    let now = daemon.now_unix();
    daemon.write(move |tx| {
        let new = modctld::store::lockdowns::NewLockdown {
            server_id: ALPHA_DISCORD,
            started_at: now,
            ends_at: now + seconds,
            started_by: "automatic",
            why: "a raid",
        };
        modctld::store::lockdowns::start(tx, &new).map(drop)
    });
}

/// Runs the lockdown worker's tick now.
fn end_due(daemon: &TestDaemon) -> usize {
    daemon
        .block_on(modctld::workers::lockdowns(daemon.state()))
        .expect("lockdown tick")
}

/// A join of `user` to `server` on `platform` (a Slack channel join when
/// `channel` is given), now on the daemon's clock.
fn join_event(
    daemon: &TestDaemon,
    platform: Platform,
    server: &str,
    user: &str,
    bot: bool,
    channel: Option<&str>,
) -> Event {
    Event {
        platform,
        server_id: Arc::from(server),
        at: daemon.clock().now(),
        id: None,
        kind: EventKind::MemberJoined(Membership {
            member: MemberRef {
                id: user.into(),
                is_bot: bot,
                display_name: None,
            },
            channel_id: channel.map(str::to_owned),
            pending: false,
        }),
    }
}

/// Publishes `event` on the daemon's event path.
fn publish(daemon: &TestDaemon, event: Event) {
    let path = daemon.state().events.clone();
    daemon.block_on(async move { path.publish(event) });
}

/// A join (see [`join_event`]), published.
fn join(
    daemon: &TestDaemon,
    platform: Platform,
    server: &str,
    user: &str,
    bot: bool,
    channel: Option<&str>,
) {
    publish(
        daemon,
        join_event(daemon, platform, server, user, bot, channel),
    );
}

/// A fake guild behind a fake gateway, the bot a moderator there,
/// connected to the daemon's Discord server.
fn discord_guild(daemon: &TestDaemon) -> (FakeGateway, FakeDiscord) {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.add_member(BOT, &[MOD_ROLE]);
    discord.set_gateway_url(&gateway.url());
    daemon.connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    (gateway, discord)
}

/// The onboarding item of the raid lockdown, asking the platform afresh.
async fn raid_item(daemon: &TestDaemon, key: &modctl_e2e::TestKey, server: &str) -> OnboardingItem {
    let checklist = daemon
        .client(key)
        .onboarding(server, true)
        .await
        .expect("onboarding");
    checklist
        .items
        .into_iter()
        .find(|i| i.id == "raid_lockdown")
        .expect("the raid_lockdown item")
}

/// The titles of the Discord embeds posted to `channel`.
fn discord_titles(discord: &FakeDiscord, channel: &str) -> Vec<String> {
    discord
        .posted(channel)
        .iter()
        .flat_map(|m| {
            m.body["embeds"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(|e| e["title"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_discord_raid_starts_a_lockdown_that_ends_on_the_clock() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (gateway, discord) = discord_guild(daemon);
    discord.add_channel(DISCORD_LOG, "mod-log");
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Logging,
        json!({"moderation": DISCORD_LOG}),
    );
    antinuke(daemon, ALPHA_DISCORD, true, 3);
    let receiver = Receiver::start();
    configure(
        daemon,
        &fixture.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["lockdown_started", "lockdown_ended"]),
    )
    .await;
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the gateway session", || gateway.connected());

    // Three joins within the minute: at the limit, nothing happens (the
    // lockdown's reason below counts the fourth, so the third did not
    // start it).
    let raiders: Vec<String> = (0..5).map(|i| format!("80000000000000010{i}")).collect();
    for raider in &raiders[..3] {
        discord.add_member(raider, &[]);
        gateway.member_add(ALPHA_DISCORD, raider, &[]);
    }

    // The fourth crosses it: invites paused until the end, and the four
    // raiders timed out until then.
    discord.add_member(&raiders[3], &[]);
    gateway.member_add(ALPHA_DISCORD, &raiders[3], &[]);
    eventually("the raiders to be timed out", || {
        raiders[..4]
            .iter()
            .all(|r| discord.timed_out_until(r).is_some())
    });
    let started = lockdowns(daemon, ALPHA_DISCORD);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].0, "automatic");
    assert_eq!(started[0].1, None, "it runs");
    assert_eq!(
        why(daemon, ALPHA_DISCORD),
        "4 members joined within a minute (antinuke.max_joins_per_minute: 3)"
    );
    let paused = discord.incident_puts();
    assert_eq!(paused.len(), 1, "{paused:?}");
    let until: jiff::Timestamp = paused[0]["invites_disabled_until"]
        .as_str()
        .expect("a time")
        .parse()
        .expect("ISO8601");
    let expected = daemon.clock().now() + jiff::SignedDuration::from_mins(10);
    assert!(
        until.duration_since(expected).abs() < jiff::SignedDuration::from_secs(5),
        "{until}"
    );
    assert_eq!(
        discord.invites_disabled_until().as_deref(),
        paused[0]["invites_disabled_until"].as_str()
    );

    // Onboarding shows it running, with how to end it.
    let item = raid_item(daemon, &fixture.alpha_ro, ALPHA_DISCORD).await;
    assert_eq!(item.status, ItemStatus::Warning, "{item:?}");
    assert!(item.detail.contains("started by automatic"), "{item:?}");
    assert_eq!(
        item.fix.as_deref(),
        Some(format!("once the raid is over: modctl lockdown end {ALPHA_DISCORD}").as_str())
    );

    // A member joining during the lockdown is timed out until its end.
    discord.add_member(&raiders[4], &[]);
    gateway.member_add(ALPHA_DISCORD, &raiders[4], &[]);
    eventually("the late raider to be timed out", || {
        discord.timed_out_until(&raiders[4]).is_some()
    });
    eventually("five members counted as held", || {
        lockdowns(daemon, ALPHA_DISCORD)[0].2 == 5
    });

    // Not yet over: the worker leaves it.
    daemon.clock().advance(Duration::from_secs(9 * 60));
    assert_eq!(end_due(daemon), 0);
    // Its time up, the worker ends it: invites enabled again.
    daemon.clock().advance(Duration::from_secs(61));
    assert_eq!(end_due(daemon), 1);
    assert_eq!(end_due(daemon), 0, "ended once");
    let puts = discord.incident_puts();
    assert_eq!(puts.len(), 2);
    assert_eq!(
        puts[1],
        json!({"invites_disabled_until": null, "dms_disabled_until": null})
    );
    assert_eq!(discord.invites_disabled_until(), None);
    assert_eq!(
        lockdowns(daemon, ALPHA_DISCORD)[0].1.as_deref(),
        Some("expired")
    );

    // Logged, start and end, in logging.moderation; both webhook events.
    daemon.deliver_logs();
    let titles = discord_titles(&discord, DISCORD_LOG);
    assert_eq!(
        titles,
        ["Raid lockdown started", "Raid lockdown ended"],
        "{titles:?}"
    );
    daemon.deliver_webhooks();
    let kinds: Vec<Value> = receiver
        .received()
        .into_iter()
        .map(|r| r.body["type"].clone())
        .filter(|t| t.as_str().is_some_and(|t| t.starts_with("lockdown")))
        .collect();
    assert_eq!(kinds, [json!("lockdown_started"), json!("lockdown_ended")]);
    let ended = receiver
        .received()
        .into_iter()
        .find(|r| r.body["type"] == "lockdown_ended")
        .expect("the end");
    assert_eq!(ended.body["data"]["lockdown"]["ended_by"], "expired");
    assert_eq!(ended.body["data"]["lockdown"]["started_by"], "automatic");

    // A join after the end counts afresh and holds no one.
    discord.add_member("800000000000000200", &[]);
    join(
        daemon,
        Platform::Discord,
        ALPHA_DISCORD,
        "800000000000000200",
        false,
        None,
    );
    daemon.events_handled();
    assert_eq!(discord.timed_out_until("800000000000000200"), None);
    assert_eq!(lockdowns(daemon, ALPHA_DISCORD).len(), 1);
}

/// Nothing of the lockdown fires for bots (the daemon's own bot joining
/// included), for Slack channel joins, or with `antinuke.enabled` off.
/// Discord's incident-actions PUT resets a field left out
/// (hikari-py/hikari#2289): DMs the moderators paused stay paused through a
/// lockdown's start and end, and a pause of invites they set during it is
/// left at its end.
#[tokio::test(flavor = "multi_thread")]
async fn a_discord_lockdown_keeps_the_moderators_own_pauses() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (_gateway, discord) = discord_guild(daemon);
    let dms = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(5)).to_string();
    discord.pause_dms(&dms);
    let client = daemon.client(&fixture.alpha_rw);
    let request = StartLockdown {
        minutes: Some(10),
        reason: None,
    };
    client
        .start_lockdown(ALPHA_DISCORD, &request)
        .await
        .expect("start");
    eventually("invites paused", || discord.incident_puts().len() == 1);
    assert!(discord.invites_disabled_until().is_some());
    assert_eq!(discord.dms_disabled_until().as_deref(), Some(dms.as_str()));
    client.end_lockdown(ALPHA_DISCORD).await.expect("end");
    assert_eq!(discord.incident_puts().len(), 2);
    assert_eq!(discord.invites_disabled_until(), None);
    assert_eq!(discord.dms_disabled_until().as_deref(), Some(dms.as_str()));

    // The moderators pause invites themselves during a second lockdown:
    // its end leaves their pause (and asks nothing).
    client
        .start_lockdown(ALPHA_DISCORD, &request)
        .await
        .expect("start again");
    eventually("invites paused again", || {
        discord.incident_puts().len() == 3
    });
    let theirs = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(3)).to_string();
    discord.pause_invites(&theirs);
    let ended = client.end_lockdown(ALPHA_DISCORD).await.expect("end again");
    assert_eq!(discord.incident_puts().len(), 3, "no PUT at the end");
    assert_eq!(
        discord.invites_disabled_until().as_deref(),
        Some(theirs.as_str())
    );
    assert_eq!(discord.dms_disabled_until().as_deref(), Some(dms.as_str()));
    assert!(
        ended
            .end_outcome
            .as_deref()
            .is_some_and(|o| o.contains("left as they are")),
        "{ended:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bots_channel_joins_and_a_disabled_antinuke_never_count() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (gateway, discord) = discord_guild(daemon);
    antinuke(daemon, ALPHA_DISCORD, true, 3);
    // Onboarding: on, and the bot may carry it out; without MANAGE_GUILD
    // it may not pause invites.
    let item = raid_item(daemon, &fixture.alpha_ro, ALPHA_DISCORD).await;
    assert_eq!(item.status, ItemStatus::Done, "{item:?}");
    discord.add_role(MOD_ROLE, 5, MOD_PERMISSIONS & !MANAGE_GUILD);
    let item = raid_item(daemon, &fixture.alpha_ro, ALPHA_DISCORD).await;
    assert_eq!(item.status, ItemStatus::Todo, "{item:?}");
    assert!(
        item.detail.contains("lack MANAGE_GUILD (pausing invites)"),
        "{item:?}"
    );
    discord.add_role(MOD_ROLE, 5, MOD_PERMISSIONS);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the gateway session", || gateway.connected());

    // The daemon's own bot and other bots joining, many in a minute, among
    // three members: at the limit of 3, nothing happens.
    let members: Vec<String> = (0..4).map(|i| format!("80000000000000030{i}")).collect();
    gateway.bot_add(ALPHA_DISCORD, BOT);
    for (i, member) in members[..3].iter().enumerate() {
        gateway.bot_add(ALPHA_DISCORD, &format!("80000000000000090{i}"));
        discord.add_member(member, &[]);
        gateway.member_add(ALPHA_DISCORD, member, &[]);
        gateway.bot_add(ALPHA_DISCORD, &format!("80000000000000091{i}"));
    }
    // The fourth member crosses it (events are handled in order, so the
    // bots before were seen): four members counted and held, no bot.
    discord.add_member(&members[3], &[]);
    gateway.member_add(ALPHA_DISCORD, &members[3], &[]);
    eventually("four members held", || {
        lockdowns(daemon, ALPHA_DISCORD)
            .first()
            .is_some_and(|l| l.2 == 4)
    });
    let failed: i64 = daemon.sql(|c| {
        c.query_row(
            "SELECT members_failed FROM lockdowns WHERE server_id = ?1",
            [ALPHA_DISCORD],
            |r| r.get(0),
        )
    });
    assert_eq!(
        (why(daemon, ALPHA_DISCORD).as_str(), failed),
        (
            "4 members joined within a minute (antinuke.max_joins_per_minute: 3)",
            0
        )
    );
    assert!(members.iter().all(|m| discord.timed_out_until(m).is_some()));
    assert_eq!(
        discord.timed_out_until(BOT),
        None,
        "the bot never holds itself"
    );

    // Slack: channel joins are not server joins.
    antinuke(daemon, ALPHA_SLACK, true, 1);
    for i in 0..4 {
        join(
            daemon,
            Platform::Slack,
            ALPHA_SLACK,
            &format!("U0JOIN000{i}"),
            false,
            Some("C0GENERAL1"),
        );
    }
    // antinuke off: max_joins_per_minute alone starts nothing.
    antinuke(daemon, ALPHA_TELEGRAM, false, 1);
    for i in 0..4 {
        join(
            daemon,
            Platform::Telegram,
            ALPHA_TELEGRAM,
            &format!("20000{i}"),
            false,
            None,
        );
    }
    daemon.events_handled();
    assert!(lockdowns(daemon, ALPHA_SLACK).is_empty());
    assert!(lockdowns(daemon, ALPHA_TELEGRAM).is_empty());
}

/// Started by hand on Telegram: the invite link replaced, joiners
/// restricted until the end; a second start is refused; a restart in the
/// middle changes nothing, and the next start ends it once its time is up.
#[tokio::test(flavor = "multi_thread")]
async fn telegram_by_hand_across_a_restart() {
    let fixture = Fixture::start();
    let telegram = FakeTelegram::start(TELEGRAM_CHAT);
    telegram.set_invite_info(Some("https://t.me/+oldLink"), None);
    telegram.add_member(200_001);
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);

    let request = StartLockdown {
        minutes: Some(5),
        reason: Some("raid in #general".into()),
    };
    let started: Lockdown = client
        .start_lockdown(ALPHA_TELEGRAM, &request)
        .await
        .expect("start");
    assert_eq!(
        started.started_by,
        format!("key:{}", fixture.alpha_rw.key_id)
    );
    assert_eq!(started.why, "raid in #general");
    assert_eq!(telegram.revoked_links(), ["https://t.me/+oldLink"]);
    let link = telegram.invite_link().expect("a new primary link");
    assert_ne!(link, "https://t.me/+oldLink");
    assert_eq!(
        started.start_outcome.as_deref(),
        Some(format!("primary invite link replaced by {link} (the old one revoked)").as_str())
    );
    // The group's own new link is known to automod at once (not "another
    // community's" until the next refresh), the revoked one no longer.
    let own = fixture
        .daemon
        .state()
        .automod
        .invites()
        .invites(ALPHA_TELEGRAM);
    let new_form = link.trim_start_matches("https://");
    assert!(own.iter().any(|i| i == new_form), "{own:?}");
    assert!(!own.iter().any(|i| i == "t.me/+oldLink"), "{own:?}");

    // One at a time.
    let again = client
        .start_lockdown(ALPHA_TELEGRAM, &request)
        .await
        .unwrap_err();
    assert_eq!(again.kind(), ErrorKind::Conflict, "{again}");
    assert_eq!(again.code(), Some(&ErrorCode::LockdownRunning), "{again}");
    assert!(again.message().contains("already runs"), "{again}");
    // Out of range.
    let long = StartLockdown {
        minutes: Some(1441),
        reason: None,
    };
    let refused = client
        .start_lockdown(ALPHA_TELEGRAM, &long)
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::InvalidRequest, "{refused}");
    // A read key cannot start one, but reads it.
    let reader = fixture.daemon.client(&fixture.alpha_ro);
    assert_eq!(
        reader
            .start_lockdown(ALPHA_SLACK, &request)
            .await
            .unwrap_err()
            .kind(),
        ErrorKind::Forbidden
    );
    let status = reader.lockdown(ALPHA_TELEGRAM).await.expect("status");
    assert_eq!(status.current.as_ref().map(|l| l.id), Some(started.id));

    // A member joining is restricted until the end (no automatic limit is
    // set: a lockdown by hand holds joiners all the same).
    join(
        &fixture.daemon,
        Platform::Telegram,
        ALPHA_TELEGRAM,
        "200001",
        false,
        None,
    );
    eventually("the joiner to be restricted", || telegram.is_muted(200_001));
    assert_eq!(
        telegram.muted_until(200_001),
        Some(started.ends_at.as_second())
    );

    // A restart during the lockdown: it still runs; its time passes while
    // the daemon is down, and the new daemon's first tick ends it.
    let fixture = fixture.restart();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let status = client.lockdown(ALPHA_TELEGRAM).await.expect("status");
    assert_eq!(status.current.map(|l| l.id), Some(started.id));
    fixture.daemon.clock().advance(Duration::from_secs(5 * 60));
    let fixture = fixture.restart();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    eventually("the lockdown to end after the restart", || {
        lockdowns(&fixture.daemon, ALPHA_TELEGRAM)[0].1.is_some()
    });
    let status = client.lockdown(ALPHA_TELEGRAM).await.expect("status");
    assert!(status.current.is_none());
    let last = status.last.expect("the last");
    assert_eq!(last.ended_by.as_deref(), Some("expired"));
    assert_eq!(
        telegram.revoked_links().len(),
        1,
        "the link is replaced once"
    );

    // Nothing runs: ending is 404.
    let none = client.end_lockdown(ALPHA_TELEGRAM).await.unwrap_err();
    assert_eq!(none.kind(), ErrorKind::NotFound, "{none}");
    assert_eq!(none.code(), Some(&ErrorCode::NoLockdown), "{none}");
}

/// Slack only alerts: the start and the end posted to the mod-log, no other
/// call; an automatic start, ended by hand.
#[tokio::test(flavor = "multi_thread")]
async fn slack_alerts_only_and_ends_by_hand() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let slack = FakeSlack::start();
    slack.add_channel(SLACK_MODLOG, "mod-log");
    daemon.connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::General,
        json!({"modlog_channel_id": SLACK_MODLOG}),
    );
    antinuke(daemon, ALPHA_SLACK, true, 2);
    // One team_join delivered three times (Slack retries an event it got
    // no answer for in time) is one join.
    let mut redelivered = join_event(
        daemon,
        Platform::Slack,
        ALPHA_SLACK,
        "U0RAID0009",
        false,
        None,
    );
    redelivered.id = Some("Ev0RAID0009".into());
    for _ in 0..3 {
        publish(daemon, redelivered.clone());
    }
    daemon.events_handled();
    assert!(lockdowns(daemon, ALPHA_SLACK).is_empty());
    for i in 0..3 {
        join(
            daemon,
            Platform::Slack,
            ALPHA_SLACK,
            &format!("U0RAID000{i}"),
            false,
            None,
        );
    }
    eventually("the lockdown to start", || {
        !lockdowns(daemon, ALPHA_SLACK).is_empty()
    });
    let client = daemon.client(&fixture.alpha_rw);
    let status = client.lockdown(ALPHA_SLACK).await.expect("status");
    let current = status.current.expect("it runs");
    assert_eq!(current.start_outcome.as_deref(), Some("alert only"));

    let ended = client.end_lockdown(ALPHA_SLACK).await.expect("end");
    assert_eq!(
        ended.ended_by,
        Some(format!("key:{}", fixture.alpha_rw.key_id))
    );
    assert_eq!(ended.end_outcome, None, "Slack is asked nothing at the end");
    daemon.deliver_logs();
    let posts = slack.messages(SLACK_MODLOG).join("\n");
    assert!(posts.contains("Raid lockdown started"), "{posts}");
    assert!(posts.contains("Raid lockdown ended"), "{posts}");
    assert!(
        posts.contains("3 members joined within a minute"),
        "{posts}"
    );
    // Alert only: the log posts are all Slack was asked, through the whole
    // lockdown and its end.
    let methods: std::collections::BTreeSet<String> = slack
        .requests()
        .iter()
        .map(|r| r.path.trim_start_matches('/').to_owned())
        .collect();
    assert_eq!(
        methods,
        std::collections::BTreeSet::from(["chat.postMessage".to_owned()]),
        "{methods:?}"
    );
}

/// `modctld simulate raid`: joins of a simulated server in the operator's
/// process start a lockdown the running daemon sees, and holds the raiders
/// in the simulated community.
#[tokio::test(flavor = "multi_thread")]
async fn a_simulated_raid_starts_a_lockdown_the_daemon_sees() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    antinuke(daemon, ALPHA_DISCORD, true, 10);
    let store = daemon.store().clone();
    daemon
        .block_on(modctld::operator::simulate_raid::raid(
            store,
            ALPHA_DISCORD.into(),
            12,
        ))
        .expect("raid");
    let client = daemon.client(&fixture.alpha_ro);
    let status = client.lockdown(ALPHA_DISCORD).await.expect("status");
    let current = status.current.expect("a lockdown runs");
    assert_eq!(current.started_by, "automatic");
    assert_eq!(current.members_held, 12);
    assert!(
        current
            .start_outcome
            .as_deref()
            .is_some_and(|o| o.starts_with("invites paused until")),
        "{current:?}"
    );
    let muted: i64 = daemon.sql(|c| {
        c.query_row(
            "SELECT COUNT(*) FROM sim_members WHERE server_id = ?1 AND muted_until = ?2",
            rusqlite::params![ALPHA_DISCORD, current.ends_at.as_second()],
            |r| r.get(0),
        )
    });
    assert_eq!(muted, 12, "every raider timed out until the end");
}

/// A lockdown whose row was written but whose platform was never asked (the
/// daemon stopped in between) is started on the platform by the worker
/// once the starting request would have asked, and only then.
#[tokio::test(flavor = "multi_thread")]
async fn a_start_cut_short_by_a_stop_is_asked_of_the_platform_by_the_worker() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (_gateway, discord) = discord_guild(daemon);
    cut_short_start(daemon, 600);
    // Within the grace the starting request is taken to be asking still.
    assert_eq!(end_due(daemon), 0);
    assert!(discord.incident_puts().is_empty());
    daemon.clock().advance(Duration::from_secs(61));
    end_due(daemon);
    assert_eq!(discord.incident_puts().len(), 1);
    let client = daemon.client(&fixture.alpha_ro);
    let current = client
        .lockdown(ALPHA_DISCORD)
        .await
        .expect("status")
        .current
        .expect("it runs");
    assert!(
        current
            .start_outcome
            .as_deref()
            .is_some_and(|o| o.starts_with("invites paused until")),
        "{current:?}"
    );
    end_due(daemon);
    assert_eq!(discord.incident_puts().len(), 1, "asked once");
}

/// A start cut short by a stop whose time was up before the worker saw it
/// is not asked of the platform: recorded as skipped, and ended.
#[tokio::test(flavor = "multi_thread")]
async fn a_start_cut_short_past_its_end_is_skipped_and_ended() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (_gateway, discord) = discord_guild(daemon);
    cut_short_start(daemon, 60);
    daemon.clock().advance(Duration::from_secs(61));
    assert_eq!(end_due(daemon), 1, "ended by the worker");
    assert!(discord.incident_puts().is_empty(), "nothing asked");
    let outcome: Option<String> = daemon.sql(|c| {
        c.query_row(
            "SELECT start_outcome FROM lockdowns WHERE server_id = ?1",
            [ALPHA_DISCORD],
            |r| r.get(0),
        )
    });
    assert!(
        outcome.as_deref().is_some_and(|o| o.starts_with("skipped")),
        "{outcome:?}"
    );
}

/// An end that lost to another (the lockdown ended, a new one runs) asks
/// the platform nothing: invites stay paused for the new lockdown.
#[tokio::test(flavor = "multi_thread")]
async fn a_stale_end_leaves_a_new_lockdown_alone() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (_gateway, discord) = discord_guild(daemon);
    let client = daemon.client(&fixture.alpha_rw);
    let request = StartLockdown {
        minutes: Some(10),
        reason: None,
    };
    let first = client
        .start_lockdown(ALPHA_DISCORD, &request)
        .await
        .expect("start");
    client.end_lockdown(ALPHA_DISCORD).await.expect("end");
    // Same clock second, same length: the same invites_disabled_until, so
    // only the re-read under the server's turn tells the two apart.
    client
        .start_lockdown(ALPHA_DISCORD, &request)
        .await
        .expect("start again");
    eventually("invites paused again", || {
        discord.incident_puts().len() == 3
    });
    let cx = daemon.state().lockdowns();
    let stale = daemon
        .block_on(modctld::automation::lockdown::end(
            &cx,
            ALPHA_DISCORD,
            &first,
            "key:stale",
        ))
        .expect("stale end");
    assert!(stale.is_none(), "{stale:?}");
    assert_eq!(discord.incident_puts().len(), 3, "nothing asked");
    assert!(discord.invites_disabled_until().is_some());
}

/// A lockdown whose time is up holds no joiner even before the worker ends
/// it; a joiner of a running one is timed out until exactly its end.
#[tokio::test(flavor = "multi_thread")]
async fn joiners_are_held_until_the_end_and_not_after_it() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (gateway, discord) = discord_guild(daemon);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the gateway session", || gateway.connected());
    let client = daemon.client(&fixture.alpha_rw);
    let short = StartLockdown {
        minutes: Some(1),
        reason: None,
    };
    client
        .start_lockdown(ALPHA_DISCORD, &short)
        .await
        .expect("start");
    daemon.clock().advance(Duration::from_secs(61));
    let (late, sentinel) = ("800000000000000201", "800000000000000202");
    discord.add_member(late, &[]);
    join(daemon, Platform::Discord, ALPHA_DISCORD, late, false, None);
    assert_eq!(end_due(daemon), 1);
    // The late join must be handled before the next lockdown starts, or
    // that one holds it (rightly): published directly, it is handled once
    // the event path has nothing left.
    daemon.events_handled();
    let running = client
        .start_lockdown(ALPHA_DISCORD, &short)
        .await
        .expect("start again");
    // The sentinel's join is handled after the late one (in order, one
    // consumer): once it is held, the late joiner's handling is done.
    discord.add_member(sentinel, &[]);
    gateway.member_add(ALPHA_DISCORD, sentinel, &[]);
    eventually("the sentinel timed out", || {
        discord.timed_out_until(sentinel).is_some()
    });
    let until: jiff::Timestamp = discord
        .timed_out_until(sentinel)
        .expect("timed out")
        .parse()
        .expect("ISO8601");
    assert_eq!(until, running.ends_at);
    assert_eq!(
        discord.timed_out_until(late),
        None,
        "not held after the end"
    );
}

/// Another team's key on the lockdown routes of alpha's guild gets the
/// answer every route gives another team's server, whatever the route and
/// method, and changes nothing: no lockdown started, a running one not
/// ended, nothing asked of the platform.
#[tokio::test(flavor = "multi_thread")]
async fn another_teams_key_is_refused_on_the_lockdown_routes_and_changes_nothing() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let (_gateway, discord) = discord_guild(daemon);
    let beta = daemon.client(&fixture.beta_rw);
    let refused = beta
        .server(ALPHA_DISCORD)
        .await
        .expect_err("another team's");
    let same = |e: modctl_client::Error, route: &str| {
        assert_eq!(
            (e.kind(), e.status(), e.message()),
            (refused.kind(), refused.status(), refused.message()),
            "{route}"
        );
    };
    let request = StartLockdown {
        minutes: Some(10),
        reason: None,
    };
    same(
        beta.start_lockdown(ALPHA_DISCORD, &request)
            .await
            .expect_err("start"),
        "POST",
    );
    same(
        beta.lockdown(ALPHA_DISCORD).await.expect_err("status"),
        "GET",
    );
    same(
        beta.end_lockdown(ALPHA_DISCORD).await.expect_err("end"),
        "DELETE",
    );
    assert!(lockdowns(daemon, ALPHA_DISCORD).is_empty(), "none started");
    // Alpha's running lockdown is not beta's to end.
    let alpha = daemon.client(&fixture.alpha_rw);
    alpha
        .start_lockdown(ALPHA_DISCORD, &request)
        .await
        .expect("alpha starts one");
    eventually("invites paused", || discord.incident_puts().len() == 1);
    same(
        beta.end_lockdown(ALPHA_DISCORD).await.expect_err("end"),
        "DELETE",
    );
    same(
        beta.lockdown(ALPHA_DISCORD).await.expect_err("status"),
        "GET",
    );
    let running = lockdowns(daemon, ALPHA_DISCORD);
    assert_eq!(running.len(), 1);
    assert_eq!(running[0].1, None, "still running");
    assert_eq!(discord.incident_puts().len(), 1, "nothing more asked");
}
