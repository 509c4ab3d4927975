//! The event path end to end (issue #25): what the platforms send reaches a
//! second consumer beside the activity counts (here a recorder, where the
//! automation will be), decoded into the platform-neutral model, through
//! the real transports: the Discord gateway session against the fake
//! gateway, and Slack's signed `/hooks/slack/events`.

use std::time::Duration;

use modctl_e2e::fakes::FakeSlack;
use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{
    DEFAULT_APPLICATION_FLAGS, FakeDiscord, GATEWAY_MESSAGE_CONTENT, TOKEN,
};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, Fixture, NETWORK_DEADLINE, TestDaemon, eventually};
use modctld::events::{Event, EventKind};
use modctld::platform::slack::events::sign;
use modctld::store::receivers::Receiving;
use serde_json::{Value, json};

const CHANNEL: &str = "300000000000000001";

fn kinds(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .map(|e| match &e.kind {
            EventKind::MessageCreated(_) => "created",
            EventKind::MessageEdited(_) => "edited",
            EventKind::MessageDeleted { .. } => "deleted",
            EventKind::MemberJoined(_) => "joined",
            EventKind::MemberLeft(_) => "left",
            EventKind::VoiceChanged(_) => "voice",
            EventKind::VoiceSnapshot(_) => "voice snapshot",
            EventKind::AutoModAction(_) => "automod",
            _ => "other",
        })
        .collect()
}

fn message(id: &str, content: &str) -> Value {
    json!({"id": id, "channel_id": CHANNEL, "guild_id": ALPHA_DISCORD, "type": 0,
           "author": {"id": "11", "username": "u"}, "content": content,
           "mentions": [], "mention_roles": ["500000000000000001"], "mention_everyone": false,
           "attachments": [], "embeds": [], "pinned": false, "tts": false,
           "timestamp": "2026-11-22T10:00:00Z", "edited_timestamp": null,
           "member": {"roles": ["500000000000000002"], "nick": "Ann", "deaf": false, "mute": false,
                      "joined_at": "2026-01-01T00:00:00Z", "flags": 0}})
}

#[test]
fn gateway_dispatches_reach_every_consumer_decoded() {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let (daemon, recorder) = TestDaemon::start_recording_events();
    let fixture = Fixture::seed(daemon);
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_gateway_url(&gateway.url());
    // The application has the message-content intent, so the session asks
    // for it (`receive::gateway`) and the messages come with their text.
    let flags = DEFAULT_APPLICATION_FLAGS | GATEWAY_MESSAGE_CONTENT;
    discord.set_application_flags(flags);
    gateway.set_application_flags(flags);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    assert_eq!(daemon.start_receivers(), 1);
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter().any(|s| matches!(s, Sent::Identify { .. }))
    }));

    gateway.dispatch("MESSAGE_CREATE", message("1", "buy now at https://x.io"));
    let mut edited = message("1", "nothing to see");
    edited["edited_timestamp"] = json!("2026-11-22T10:01:00Z");
    gateway.dispatch("MESSAGE_UPDATE", edited);
    gateway.dispatch(
        "MESSAGE_DELETE_BULK",
        json!({"ids": ["1", "2"], "channel_id": CHANNEL, "guild_id": ALPHA_DISCORD}),
    );
    gateway.dispatch(
        "AUTO_MODERATION_ACTION_EXECUTION",
        json!({"guild_id": ALPHA_DISCORD, "action": {"type": 1}, "rule_id": "600000000000000001",
               "rule_trigger_type": 1, "user_id": "11", "channel_id": CHANNEL,
               "content": "", "matched_keyword": "buy*", "matched_content": null}),
    );
    eventually("the dispatches to reach the recorder", || {
        kinds(&recorder.events()).ends_with(&["created", "edited", "deleted", "deleted", "automod"])
    });
    let events = recorder.events();
    let created = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::MessageCreated(m) => Some(m),
            _ => None,
        })
        .unwrap();
    assert_eq!(created.content.as_deref(), Some("buy now at https://x.io"));
    assert_eq!(created.author.role_ids, ["500000000000000002"]);
    assert_eq!(created.author.display_name.as_deref(), Some("Ann"));
    assert_eq!(created.mentions.role_ids, ["500000000000000001"]);
    let automod = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::AutoModAction(a) => Some(a),
            _ => None,
        })
        .unwrap();
    // A blocked message never exists, and without the content intent the
    // text is empty: neither is made up.
    assert_eq!(
        (automod.message_id.as_ref(), automod.content.as_ref()),
        (None, None)
    );
    assert_eq!(automod.matched_keyword.as_deref(), Some("buy*"));
    // The activity counts, the first consumer, got the message too.
    eventually("the message to be counted", || {
        daemon.state().activity.pending() == 1
    });
    assert_eq!(
        daemon.state().events.dropped(),
        [
            ("activity", 0),
            ("logs", 0),
            ("automod", 0),
            ("welcome", 0),
            ("lockdown", 0),
            ("antinuke", 0),
            ("verify", 0),
            ("discord_guilds", 0),
            ("live_view", 0),
            ("names", 0),
            ("recorder", 0)
        ]
    );
}

#[tokio::test]
async fn a_slack_event_is_counted_before_the_answer_and_reaches_the_other_consumers() {
    const SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
    let (daemon, recorder) = TestDaemon::start_recording_events();
    let fixture = Fixture::seed(daemon);
    let slack = FakeSlack::start();
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_SLACK, "xoxb-fake", &slack.uri());
    daemon.set_receiving(
        ALPHA_SLACK,
        Receiving {
            signing_secret: Some(SECRET.to_owned()),
            ..Receiving::default()
        },
    );
    let now = daemon.now_unix();
    let body = json!({"token": "t", "team_id": ALPHA_SLACK, "api_app_id": "A1",
        "type": "event_callback", "event_id": "Ev9", "event_time": now,
        "event": {"type": "message", "channel": "C1", "user": "U1", "ts": "1.1",
                  "text": "hi <@U2>, see <https://example.com|this>"}})
    .to_string();
    let timestamp = now.to_string();
    let answer = reqwest::Client::new()
        .post(format!("{}/hooks/slack/events", daemon.url()))
        .header("content-type", "application/json")
        .header("x-slack-request-timestamp", &timestamp)
        .header(
            "x-slack-signature",
            sign(SECRET, &timestamp, body.as_bytes()),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.json::<Value>().await.unwrap()["counted"], true);
    // Counted by the hook itself, before it answered: nothing for the
    // activity consumer's buffer.
    assert_eq!(daemon.state().activity.pending(), 0);
    let mut events = Vec::new();
    for _ in 0..200 {
        events = recorder.events();
        if !events.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let [event] = &events[..] else {
        panic!("one event for the recorder: {events:?}")
    };
    let EventKind::MessageCreated(m) = &event.kind else {
        panic!("{event:?}")
    };
    assert_eq!((m.author.id.as_str(), m.channel_id.as_str()), ("U1", "C1"));
    assert_eq!(m.mentions.user_ids, ["U2"]);
    assert_eq!(m.links, ["https://example.com"]);
    assert_eq!(event.id.as_deref(), Some("slack:Ev9"));
}
