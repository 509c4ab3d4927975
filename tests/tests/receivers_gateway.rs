//! The Discord gateway receiver end to end (issue #12): a real daemon runs a
//! twilight-gateway session against the local fake gateway, which the fake
//! REST API names in `GET /gateway/bot`. What the session receives lands in
//! the activity rollups. Time moves on the daemon's clock; network waits
//! are polls with a deadline, never sleeps.

use std::time::Duration;

use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{FakeDiscord, TOKEN};
use modctl_e2e::{
    ALPHA_DISCORD, BETA_DISCORD, Fixture, NETWORK_DEADLINE, TestDaemon, TestKey, eventually,
};
use serde_json::{Value, json};

/// GUILDS | GUILD_MEMBERS | GUILD_VOICE_STATES | GUILD_MESSAGES, and not
/// MESSAGE_CONTENT.
// GUILDS, GUILD_MEMBERS, GUILD_MODERATION (antinuke's audit log entries),
// GUILD_VOICE_STATES, GUILD_MESSAGES, AUTO_MODERATION_EXECUTION; no
// MESSAGE_CONTENT without its grant.
const INTENTS: u64 = 1 | (1 << 1) | (1 << 2) | (1 << 7) | (1 << 9) | (1 << 21);

/// (messages, voice minutes, joins, leaves) of `server` over the last 7
/// days, read from `GET /servers/{id}/community-insights`.
fn totals(daemon: &TestDaemon, key: &TestKey, server: &str) -> (u64, u64, u64, u64) {
    let t = daemon.community_insights(key, server).totals;
    (t.messages, t.voice_minutes, t.joins, t.leaves)
}

/// The open voice sessions of `server`: (user, channel).
fn voice_sessions(daemon: &TestDaemon, server: &str) -> Vec<(String, String)> {
    let server = server.to_owned();
    daemon.write(move |tx| {
        Ok(modctld::store::receivers::voice_sessions(tx, &server)?
            .into_iter()
            .map(|s| (s.user_id, s.channel_id))
            .collect())
    })
}

fn message(id: &str, author: &str, channel: &str, bot: bool) -> Value {
    json!({"id": id, "channel_id": channel, "guild_id": ALPHA_DISCORD, "type": 0,
           "author": {"id": author, "username": "u", "bot": bot},
           "content": "", "timestamp": "2026-11-22T10:00:00Z"})
}

fn voice(user: &str, channel: Option<&str>) -> Value {
    json!({"guild_id": ALPHA_DISCORD, "channel_id": channel, "user_id": user,
           "session_id": "s", "deaf": false, "mute": false, "self_deaf": false,
           "self_mute": false, "self_video": false, "suppress": false})
}

/// A fixture whose Discord server is connected to a fake guild whose REST
/// API points at `gateway`.
fn connected(gateway: &FakeGateway) -> (Fixture, FakeDiscord) {
    let fixture = Fixture::start();
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_gateway_url(&gateway.url());
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    (fixture, discord)
}

#[test]
fn a_session_counts_messages_joins_and_leaves_and_resumes_after_a_reconnect() {
    let gateway = FakeGateway::start(Duration::from_millis(100));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let (fixture, discord) = connected(&gateway);
    let daemon = &fixture.daemon;
    assert_eq!(daemon.start_receivers(), 1, "one session for the bot token");
    assert!(
        gateway.wait_for(NETWORK_DEADLINE, |sent| sent
            .iter()
            .any(|s| matches!(s, Sent::Identify { .. }))),
        "the session identifies"
    );
    assert_eq!(discord.requests_to("GET", "/gateway/bot").len(), 1);
    assert_eq!(
        gateway.sent()[0],
        Sent::Identify {
            intents: INTENTS,
            shard: Some((0, 1))
        }
    );
    // Heartbeats go out at HELLO's interval and are acknowledged.
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter().filter(|s| **s == Sent::Heartbeat).count() >= 2
    }));

    let channel = "300000000000000001";
    gateway.dispatch("MESSAGE_CREATE", message("1", "11", channel, false));
    gateway.dispatch("MESSAGE_CREATE", message("2", "11", channel, false));
    gateway.dispatch(
        "MESSAGE_CREATE",
        message("3", "12", "300000000000000002", false),
    );
    gateway.dispatch("MESSAGE_CREATE", message("4", "99", channel, true));
    let mut elsewhere = message("5", "11", channel, false);
    elsewhere["guild_id"] = json!(BETA_DISCORD);
    gateway.dispatch("MESSAGE_CREATE", elsewhere);
    gateway.dispatch(
        "GUILD_MEMBER_ADD",
        json!({"guild_id": ALPHA_DISCORD, "user": {"id": "13", "username": "n"},
               "roles": [], "joined_at": "2026-11-22T10:00:00Z", "deaf": false, "mute": false}),
    );
    gateway.dispatch(
        "GUILD_MEMBER_REMOVE",
        json!({"guild_id": ALPHA_DISCORD, "user": {"id": "14", "username": "l"}}),
    );
    eventually("the dispatches to be counted", || {
        daemon.state().activity.pending() >= 5
    });

    // Discord asks for a reconnect; what happens meanwhile is replayed on
    // the resume, at READY's resume_gateway_url.
    gateway.request_reconnect();
    gateway.dispatch("MESSAGE_CREATE", message("6", "12", channel, false));
    assert!(
        gateway.wait_for(NETWORK_DEADLINE, |sent| sent
            .iter()
            .any(|s| matches!(s, Sent::Resume { .. }))),
        "the session resumes"
    );
    let Some(Sent::Resume { session_id, seq }) = gateway
        .sent()
        .into_iter()
        .find(|s| matches!(s, Sent::Resume { .. }))
    else {
        unreachable!()
    };
    assert_eq!(session_id, "session-1");
    // READY, GUILD_CREATE and the seven dispatches above.
    assert_eq!(seq, 9);
    assert_eq!(gateway.connections(), vec!["/", "/resume/"]);
    let identifies = gateway
        .sent()
        .iter()
        .filter(|s| matches!(s, Sent::Identify { .. }))
        .count();
    assert_eq!(identifies, 1, "a resume, not a new session");
    eventually("the replayed message to be counted", || {
        daemon.state().activity.pending() >= 6
    });

    // The connection drops without a word (a network failure): the session
    // reconnects and resumes as well.
    gateway.drop_connection();
    gateway.dispatch("MESSAGE_CREATE", message("7", "12", channel, false));
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter()
            .filter(|s| matches!(s, Sent::Resume { .. }))
            .count()
            == 2
    }));
    assert_eq!(gateway.connections(), vec!["/", "/resume/", "/resume/"]);
    eventually("the message sent while disconnected to be counted", || {
        daemon.state().activity.pending() >= 7
    });

    // Messages of members only (the bot's and another guild's are not
    // counted), the join and the leave.
    let key = &fixture.alpha_ro;
    assert_eq!(totals(daemon, key, ALPHA_DISCORD), (5, 0, 1, 1));
    let insights = daemon.community_insights(key, ALPHA_DISCORD);
    let ranked = |list: &[modctl_types::activity::Ranked]| {
        list.iter()
            .map(|r| (r.id.clone(), r.count))
            .collect::<Vec<_>>()
    };
    // Per channel and per author.
    assert_eq!(
        ranked(&insights.top_channels_by_messages),
        vec![
            (channel.to_owned(), 4),
            ("300000000000000002".to_owned(), 1)
        ]
    );
    assert_eq!(
        ranked(&insights.top_members_by_messages),
        vec![("12".to_owned(), 3), ("11".to_owned(), 2)]
    );
    assert!(insights.last_event_at.is_some());
    let beta = daemon.community_insights(&fixture.beta_rw, BETA_DISCORD);
    assert_eq!(
        beta.totals.messages, 0,
        "another guild's message is not counted"
    );
}

#[test]
fn voice_sessions_count_minutes_and_a_crash_closes_them_at_the_last_alive_time() {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    // Member 21 is in voice when the session starts.
    gateway.add_guild(ALPHA_DISCORD, &[("21", "400000000000000001")]);
    let (fixture, _discord) = connected(&gateway);
    let Fixture {
        daemon, alpha_ro, ..
    } = fixture;
    daemon.start_receivers();
    eventually("GUILD_CREATE to open the voice session", || {
        voice_sessions(&daemon, ALPHA_DISCORD)
            == vec![("21".to_owned(), "400000000000000001".to_owned())]
    });
    let minute = Duration::from_secs(60);

    // 10 minutes in the first channel, then a move; a mute changes nothing.
    daemon.clock().advance(10 * minute);
    gateway.dispatch(
        "VOICE_STATE_UPDATE",
        voice("21", Some("400000000000000001")),
    );
    gateway.dispatch(
        "VOICE_STATE_UPDATE",
        voice("21", Some("400000000000000002")),
    );
    eventually("the move", || {
        voice_sessions(&daemon, ALPHA_DISCORD)
            == vec![("21".to_owned(), "400000000000000002".to_owned())]
            && daemon.state().activity.pending() == 1
    });
    // 5 minutes in the second, then a leave; member 22 joins and stays.
    daemon.clock().advance(5 * minute);
    gateway.dispatch("VOICE_STATE_UPDATE", voice("21", None));
    gateway.dispatch(
        "VOICE_STATE_UPDATE",
        voice("22", Some("400000000000000001")),
    );
    eventually("the leave and the join", || {
        voice_sessions(&daemon, ALPHA_DISCORD)
            == vec![("22".to_owned(), "400000000000000001".to_owned())]
            && daemon.state().activity.pending() == 2
    });
    assert_eq!(totals(&daemon, &alpha_ro, ALPHA_DISCORD), (0, 15, 0, 0));

    // The daemon goes away with member 22 still in voice; the last sign of
    // life it left is 3 minutes after 22 joined (as after a crash: a clean
    // stop records its own time).
    let joined = daemon.now_unix();
    daemon.clock().advance(30 * minute);
    let daemon = daemon.restart();
    daemon.write(move |tx| {
        modctld::store::receivers::set_alive(tx, &[ALPHA_DISCORD.to_owned()], joined + 180)
    });
    daemon.start_receivers();
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter()
            .filter(|s| matches!(s, Sent::Identify { .. }))
            .count()
            == 2
    }));
    // 22's session ended at the last alive time: 3 minutes, not 30; the new
    // session's GUILD_CREATE says 21 is in voice now, which starts afresh.
    eventually("the sessions to be brought up to date", || {
        voice_sessions(&daemon, ALPHA_DISCORD)
            == vec![("21".to_owned(), "400000000000000001".to_owned())]
            && daemon.state().activity.pending() == 1
    });
    assert_eq!(totals(&daemon, &alpha_ro, ALPHA_DISCORD), (0, 18, 0, 0));
    let insights = daemon.community_insights(&alpha_ro, ALPHA_DISCORD);
    let voice: Vec<_> = insights
        .top_members_by_voice
        .iter()
        .map(|r| (r.id.as_str(), r.count))
        .collect();
    assert_eq!(voice, vec![("21", 15), ("22", 3)]);
}

#[test]
fn one_session_serves_every_guild_of_a_token_and_stops_when_no_connection_needs_it() {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    gateway.add_guild(BETA_DISCORD, &[]);
    let (fixture, discord) = connected(&gateway);
    let daemon = &fixture.daemon;
    daemon.connect_live(BETA_DISCORD, TOKEN, &discord.uri());
    assert_eq!(daemon.start_receivers(), 1, "one session for both guilds");
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| !sent.is_empty()));
    for (id, guild) in [
        ("1", ALPHA_DISCORD),
        ("2", BETA_DISCORD),
        ("3", BETA_DISCORD),
    ] {
        let mut m = message(id, "11", "300000000000000001", false);
        m["guild_id"] = json!(guild);
        gateway.dispatch("MESSAGE_CREATE", m);
    }
    eventually("the messages to be counted", || {
        daemon.state().activity.pending() == 3
    });
    assert_eq!(totals(daemon, &fixture.alpha_ro, ALPHA_DISCORD).0, 1);
    assert_eq!(totals(daemon, &fixture.beta_rw, BETA_DISCORD).0, 2);
    // Checking again changes nothing: still the one session.
    assert_eq!(daemon.start_receivers(), 1);
    assert_eq!(
        gateway
            .sent()
            .iter()
            .filter(|s| matches!(s, Sent::Identify { .. }))
            .count(),
        1
    );

    // No live connection left for the token: the session ends.
    daemon.connect_simulated(ALPHA_DISCORD, modctl_types::Platform::Discord);
    daemon.connect_simulated(BETA_DISCORD, modctl_types::Platform::Discord);
    assert_eq!(daemon.start_receivers(), 0);
    eventually("the session to close", || !gateway.connected());
}
