//! Log channels end to end (issue #25): cases and config changes reach the
//! `logging.*` channels (and the mod-log as the fallback) through the log
//! outbox, formatted for each platform without pings, batched per channel
//! within the fakes' rate limits, after a restart too; a channel that is
//! gone is reported in onboarding and not tried again.
//!
//! The test daemons' delivery loop waits an hour, so each test posts what
//! waits itself (`deliver_logs`): when a post happens is the test's choice.

use modctl_client::Client;
use modctl_e2e::fakes::discord::{BOT, MOD_ROLE, TOKEN as DISCORD_TOKEN};
use modctl_e2e::fakes::slack::TOKEN as SLACK_TOKEN;
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, TestDaemon};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use serde_json::{Value, json};

const DISCORD_LOG: &str = "300000000000000010";
const DISCORD_MODLOG: &str = "300000000000000011";
const SLACK_LOG: &str = "C0LOGS0001";
const SLACK_MODLOG: &str = "C0MODLOG02";
/// A member's reason that would ping on every platform if rendered as
/// markup.
const REASON: &str = "spam <@1> @everyone <!channel> & <b>";

fn warn(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        reason: Some(REASON.into()),
        ..Default::default()
    }
}

async fn act(client: &Client, server: &str, action: Action, user: &str) {
    client
        .perform_action(server, action, &warn(user))
        .await
        .unwrap_or_else(|e| panic!("{action} on {server}: {e}"));
}

fn logging(daemon: &TestDaemon, server: &str, value: Value) {
    daemon.set_config(server, SectionName::Logging, value);
}

fn discord() -> FakeDiscord {
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.add_member(BOT, &[MOD_ROLE]);
    discord.add_channel(DISCORD_LOG, "mod-log");
    discord.add_channel(DISCORD_MODLOG, "modlog");
    discord
}

/// A fixture whose Discord server is connected to a fake guild with the log
/// channels, logging as `value` says.
fn discord_logging(value: Value) -> (Fixture, FakeDiscord) {
    let fixture = Fixture::start();
    let discord = discord();
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    logging(&fixture.daemon, ALPHA_DISCORD, value);
    (fixture, discord)
}

/// A Discord embed's title, and its fields as `name: value` lines.
fn embed_text(embed: &Value) -> (String, String) {
    let fields = embed["fields"]
        .as_array()
        .map(|fields| {
            fields
                .iter()
                .map(|f| {
                    format!(
                        "{}: {}",
                        f["name"].as_str().unwrap(),
                        f["value"].as_str().unwrap()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    (
        embed["title"].as_str().unwrap_or_default().to_owned(),
        fields,
    )
}

#[tokio::test]
async fn discord_cases_go_to_the_moderation_log_else_the_modlog_as_embeds_that_ping_nobody() {
    let (fixture, discord) = discord_logging(json!({}));
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"modlog_channel_id": DISCORD_MODLOG}),
    );

    // logging.moderation unset: the mod-log gets it.
    act(&client, ALPHA_DISCORD, Action::Warn, "500000000000000009").await;
    assert_eq!(daemon.deliver_logs(), 1);
    let modlog = discord.posted(DISCORD_MODLOG);
    assert_eq!(modlog.len(), 1);
    let body = &modlog[0].body;
    assert_eq!(body["allowed_mentions"], json!({"parse": []}), "{body}");
    assert!(body.get("content").is_none(), "{body}");
    let (title, fields) = embed_text(&body["embeds"][0]);
    assert_eq!(title, "Case #1: warn");
    assert!(fields.contains(&format!("Reason: {REASON}")), "{fields}");
    assert!(fields.contains("Member: 500000000000000009"), "{fields}");

    // logging.moderation set: it gets the next one, the mod-log nothing more.
    logging(daemon, ALPHA_DISCORD, json!({"moderation": DISCORD_LOG}));
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    assert_eq!(daemon.deliver_logs(), 1);
    assert_eq!(discord.posted(DISCORD_MODLOG).len(), 1);
    let log = discord.posted(DISCORD_LOG);
    assert_eq!(log.len(), 1);
    assert_eq!(embed_text(&log[0].body["embeds"][0]).0, "Case #2: note");
    assert_eq!(log[0].body["allowed_mentions"], json!({"parse": []}));
    assert_eq!(daemon.deliver_logs(), 0, "nothing is posted twice");
}

#[tokio::test]
async fn slack_and_telegram_cases_are_logged_escaped_and_silent() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let slack = FakeSlack::start();
    slack.add_channel(SLACK_LOG, "mod-log");
    slack.add_channel(SLACK_MODLOG, "modlog");
    daemon.connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    daemon.connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let client = daemon.client(&fixture.alpha_rw);
    for server in [ALPHA_SLACK, ALPHA_TELEGRAM] {
        daemon.set_config(server, SectionName::Strikes, json!({"enabled": false}));
    }
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::General,
        json!({"modlog_channel_id": SLACK_MODLOG}),
    );
    logging(
        daemon,
        ALPHA_TELEGRAM,
        json!({"moderation": ALPHA_TELEGRAM}),
    );

    // Slack: a timeout (recorded; done by an administrator) falls back to
    // the mod-log; a warning is itself a mod-log post, not logged twice.
    act(&client, ALPHA_SLACK, Action::Timeout, "U0TARGET01").await;
    act(&client, ALPHA_SLACK, Action::Warn, "U0TARGET01").await;
    act(&client, ALPHA_TELEGRAM, Action::Warn, "424242").await;
    assert_eq!(daemon.deliver_logs(), 2);

    let modlog = slack.posted(SLACK_MODLOG);
    assert_eq!(
        modlog.len(),
        2,
        "the warning, then the timeout's log: {modlog:?}"
    );
    let logged = modlog
        .iter()
        .find(|m| m.args["blocks"][0]["type"] == "header")
        .expect("the log post has a header");
    let args = &logged.args;
    assert_eq!(args["blocks"][0]["type"], "header");
    assert_eq!(args["blocks"][0]["text"]["text"], "Case #1: timeout");
    let fields = args["blocks"][1]["fields"].to_string();
    assert!(
        fields.contains("spam &lt;@1&gt; @everyone &lt;!channel&gt; &amp; &lt;b&gt;"),
        "{fields}"
    );
    assert!(!fields.contains("<!channel>"), "{fields}");
    assert_eq!(args["parse"], "none");
    assert_eq!(args["link_names"], false);

    // Switched to logging.moderation: the mod-log gets no more.
    logging(daemon, ALPHA_SLACK, json!({"moderation": SLACK_LOG}));
    act(&client, ALPHA_SLACK, Action::Warn, "U0TARGET01").await;
    assert_eq!(daemon.deliver_logs(), 1);
    let log = slack.posted(SLACK_LOG);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].args["blocks"][0]["text"]["text"], "Case #3: warn");

    let sent = telegram.sent(chat);
    assert_eq!(sent.len(), 1, "{sent:?}");
    let text = &sent[0].text;
    assert!(text.starts_with("<b>Case #1: warn</b>"), "{text}");
    assert!(
        text.contains("spam &lt;@1&gt; @everyone &lt;!channel&gt; &amp; &lt;b&gt;"),
        "{text}"
    );
    assert_eq!(sent[0].args["parse_mode"], "HTML");
    assert_eq!(sent[0].args["disable_notification"], true);
}

#[tokio::test]
async fn a_config_change_is_logged_with_its_secret_redacted() {
    const SECRET: &str = "whsec_YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4";
    let (fixture, discord) = discord_logging(json!({"config": DISCORD_LOG}));
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            &json!({"url": "https://hooks.example.com/modctl", "secret": SECRET}),
            None,
        )
        .await
        .unwrap();
    // The logging change itself, then the webhooks change.
    assert_eq!(daemon.deliver_logs(), 2);
    let posts = discord.posted(DISCORD_LOG);
    assert_eq!(posts.len(), 1, "one message for both");
    let body = posts[0].body.to_string();
    assert!(
        !body.contains(&SECRET[6..]),
        "the secret is never posted: {body}"
    );
    let embeds = posts[0].body["embeds"].as_array().unwrap();
    assert_eq!(embed_text(&embeds[0]).0, "Config changed: logging");
    assert_eq!(embed_text(&embeds[1]).0, "Config changed: webhooks");
    let changes = embeds[1]["description"].as_str().unwrap();
    assert!(changes.contains("webhooks.url"), "{changes}");
    assert!(
        changes.contains("webhooks.secret_set: false → true"),
        "{changes}"
    );
}

#[tokio::test]
async fn a_burst_of_200_cases_arrives_in_few_messages_without_a_429() {
    let (fixture, discord) = discord_logging(json!({"moderation": DISCORD_LOG}));
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    for i in 0..200 {
        act(
            &client,
            ALPHA_DISCORD,
            Action::Note,
            &format!("5000000000000{i:05}"),
        )
        .await;
    }
    assert_eq!(daemon.deliver_logs(), 200);
    let posts = discord.posted(DISCORD_LOG);
    // 10 embeds a message: 20 messages, at Discord's pace for the channel.
    assert_eq!(posts.len(), 20, "{}", posts.len());
    let titles: Vec<String> = posts
        .iter()
        .flat_map(|p| p.body["embeds"].as_array().unwrap().clone())
        .map(|e| embed_text(&e).0)
        .collect();
    let expected: Vec<String> = (1..=200).map(|n| format!("Case #{n}: note")).collect();
    assert_eq!(titles, expected, "all of them, in order");
    assert_eq!(discord.too_many_requests(), Default::default(), "no 429");
}

#[tokio::test]
async fn a_waiting_post_is_made_after_a_restart() {
    let (fixture, discord) = discord_logging(json!({"moderation": DISCORD_LOG}));
    let client = fixture.daemon.client(&fixture.alpha_rw);
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    // Stopped before its delivery ran: the entry is in the outbox only.
    let daemon = fixture.daemon.restart();
    assert!(discord.posted(DISCORD_LOG).is_empty());
    assert_eq!(daemon.deliver_logs(), 1);
    let posts = discord.posted(DISCORD_LOG);
    assert_eq!(posts.len(), 1);
    assert_eq!(embed_text(&posts[0].body["embeds"][0]).0, "Case #1: note");
}

#[tokio::test]
async fn a_channel_that_is_gone_is_reported_and_not_tried_again() {
    const GONE: &str = "300000000000000099";
    let (fixture, discord) = discord_logging(json!({"moderation": GONE}));
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    assert_eq!(daemon.deliver_logs(), 0);
    let tried = || {
        discord
            .requests_to("POST", &format!("/channels/{GONE}/messages"))
            .len()
    };
    assert_eq!(tried(), 1, "one message for both, refused");
    // Not tried again, however much later.
    daemon
        .clock()
        .advance(std::time::Duration::from_secs(86_400));
    assert_eq!(daemon.deliver_logs(), 0);
    assert_eq!(tried(), 1);

    let onboarding = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    let item = onboarding
        .items
        .iter()
        .find(|i| i.id == "log_channels")
        .expect("a log channels item");
    assert_eq!(item.status, modctl_types::onboarding::ItemStatus::Warning);
    assert!(
        item.detail.contains(GONE) && item.detail.contains("2 post(s) not made"),
        "{}",
        item.detail
    );
    assert!(item.detail.contains("Unknown Channel"), "{}", item.detail);
}

/// The channel the member events below happen in.
const WHERE: &str = "300000000000000001";

/// An event of the Discord server, now on the daemon's clock.
fn member_event(daemon: &TestDaemon, kind: modctld::events::EventKind) -> modctld::events::Event {
    modctld::events::Event {
        platform: modctl_types::Platform::Discord,
        server_id: ALPHA_DISCORD.into(),
        at: daemon.clock().now(),
        id: None,
        kind,
    }
}

/// Member `11`'s message `id` in [`WHERE`], saying `text`.
fn said(id: &str, text: &str) -> modctld::events::Message {
    modctld::events::Message {
        id: id.into(),
        channel_id: WHERE.into(),
        author: modctld::events::Author {
            id: "11".into(),
            ..Default::default()
        },
        content: Some(text.into()),
        ..Default::default()
    }
}

/// Publishes `events` from the daemon's runtime, where the consumers'
/// tasks run, and waits until the outbox holds `rows` entries.
fn publish(daemon: &TestDaemon, events: Vec<modctld::events::Event>, rows: i64) {
    let path = daemon.state().events.clone();
    daemon.block_on(async move {
        for event in events {
            path.publish(event);
        }
    });
    modctl_e2e::eventually(&format!("{rows} log entries to be written"), || {
        daemon.sql(|c| {
            c.query_row("SELECT COUNT(*) FROM log_outbox", [], |r| {
                r.get::<_, i64>(0)
            })
        }) == rows
    });
}

#[tokio::test]
async fn member_events_are_logged_with_what_the_daemon_saw_and_share_a_channel() {
    use modctld::events::{Event, EventKind, MemberRef, Membership};
    const MESSAGES: &str = "300000000000000020";
    const JOINS: &str = "300000000000000021";
    let (fixture, discord) = discord_logging(
        json!({"message_delete": MESSAGES, "message_edit": MESSAGES, "member_join": JOINS}),
    );
    let daemon = &fixture.daemon;
    discord.add_channel(MESSAGES, "message-log");
    discord.add_channel(JOINS, "join-log");
    let event = |kind| member_event(daemon, kind);
    let redelivered = Event {
        id: Some("delete-2".into()),
        ..event(EventKind::MessageDeleted {
            channel_id: WHERE.into(),
            message_id: "2".into(),
        })
    };
    let published = vec![
        event(EventKind::MessageCreated(said("1", "hello <@&1>"))),
        event(EventKind::MessageEdited(said("1", "hello again"))),
        event(EventKind::MessageDeleted {
            channel_id: WHERE.into(),
            message_id: "1".into(),
        }),
        redelivered.clone(),
        // Delivered again by the platform: logged once.
        redelivered,
        event(EventKind::MemberJoined(Membership {
            member: MemberRef {
                id: "12".into(),
                is_bot: false,
                display_name: Some("Ada".into()),
            },
            channel_id: None,
            pending: false,
        })),
    ];
    publish(daemon, published, 4);
    assert_eq!(daemon.deliver_logs(), 4);

    let messages = discord.posted(MESSAGES);
    assert_eq!(
        messages.len(),
        1,
        "edits and deletions share the channel's message"
    );
    let embeds = messages[0].body["embeds"].as_array().unwrap();
    let texts: Vec<(String, String, String)> = embeds
        .iter()
        .map(|e| {
            let (title, fields) = embed_text(e);
            (
                title,
                e["description"].as_str().unwrap_or_default().to_owned(),
                fields,
            )
        })
        .collect();
    assert_eq!(texts[0].0, "Message edited");
    assert!(
        texts[0]
            .2
            .contains("Before: hello <@&1>\nAfter: hello again"),
        "{}",
        texts[0].2
    );
    assert_eq!(
        (texts[1].0.as_str(), texts[1].1.as_str()),
        ("Message deleted", "hello again")
    );
    assert!(texts[1].2.contains("Author: 11"), "{}", texts[1].2);
    assert_eq!(
        (texts[2].0.as_str(), texts[2].1.as_str()),
        (
            "Message deleted",
            "content unknown: the daemon did not see this message"
        )
    );
    assert_eq!(messages[0].body["allowed_mentions"], json!({"parse": []}));
    let joins = discord.posted(JOINS);
    assert_eq!(joins.len(), 1);
    let (title, fields) = embed_text(&joins[0].body["embeds"][0]);
    assert_eq!(title, "Member joined");
    assert!(fields.contains("Member: 12\nName: Ada"), "{fields}");
}

/// A passing failure (a 502: the adapter does not send a message again by
/// itself, it may have been posted) and a refused token (the connection's
/// problem, reported elsewhere: opcodes-and-status-codes.mdx, 401 "The
/// Authorization header was missing or invalid") leave the entry waiting,
/// never failed, and it is posted at its next attempt.
#[tokio::test]
async fn a_failed_post_is_tried_again_with_backoff() {
    for (status, message) in [(502, "Bad Gateway"), (401, "401: Unauthorized")] {
        let (fixture, discord) = discord_logging(json!({"moderation": DISCORD_LOG}));
        let daemon = &fixture.daemon;
        let client = daemon.client(&fixture.alpha_rw);
        act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
        discord.fail(
            "POST",
            &format!("/channels/{DISCORD_LOG}/messages"),
            status,
            json!({"message": message, "code": 0}),
            1,
        );
        assert_eq!(daemon.deliver_logs(), 0);
        assert!(discord.posted(DISCORD_LOG).is_empty());
        assert_eq!(
            outbox_states(daemon),
            [("waiting".to_owned(), 1)],
            "{status}: not the channel's failure"
        );
        // Not due again until its backoff (5 s on the daemon's clock) passed.
        assert_eq!(daemon.deliver_logs(), 0);
        daemon.clock().advance(std::time::Duration::from_secs(5));
        assert_eq!(daemon.deliver_logs(), 1, "{status}");
        assert_eq!(discord.posted(DISCORD_LOG).len(), 1);
    }
}

#[tokio::test]
async fn a_message_seen_longer_ago_than_the_cache_keeps_is_logged_as_unknown() {
    use modctld::automation::logs::CACHE_TTL;
    use modctld::events::{EventKind, MemberRef, Membership};
    const MESSAGES: &str = "300000000000000020";
    let (fixture, discord) =
        discord_logging(json!({"message_delete": MESSAGES, "member_join": MESSAGES}));
    let daemon = &fixture.daemon;
    discord.add_channel(MESSAGES, "message-log");
    // Seen, then a join: once the join is written, the message was seen
    // (one consumer handles its events in order).
    let join = EventKind::MemberJoined(Membership {
        member: MemberRef {
            id: "12".into(),
            ..MemberRef::default()
        },
        channel_id: None,
        pending: false,
    });
    let seen = EventKind::MessageCreated(said("1", "said long ago"));
    publish(
        daemon,
        vec![member_event(daemon, seen), member_event(daemon, join)],
        1,
    );
    // On the daemon's clock, the message is now older than the cache keeps.
    daemon
        .clock()
        .advance(CACHE_TTL + std::time::Duration::from_secs(1));
    let deleted = EventKind::MessageDeleted {
        channel_id: WHERE.into(),
        message_id: "1".into(),
    };
    publish(daemon, vec![member_event(daemon, deleted)], 2);
    assert_eq!(daemon.deliver_logs(), 2);
    let embeds = discord.posted(MESSAGES)[0].body["embeds"].clone();
    let deleted = embeds
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["title"] == "Message deleted")
        .expect("the deletion's embed");
    assert_eq!(
        deleted["description"],
        "content unknown: the daemon did not see this message"
    );
}

/// The log outbox's rows by state.
fn outbox_states(daemon: &TestDaemon) -> Vec<(String, i64)> {
    daemon.sql(|c| {
        let mut statement =
            c.prepare("SELECT state, COUNT(*) AS n FROM log_outbox GROUP BY state ORDER BY state")?;
        statement
            .query_map([], |r| {
                Ok((r.get::<_, String>("state")?, r.get::<_, i64>("n")?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
    })
}

#[tokio::test]
async fn a_malformed_post_is_given_up_alone_and_the_channel_goes_on() {
    let (fixture, discord) = discord_logging(json!({"moderation": DISCORD_LOG}));
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    // Discord's 400 "Invalid Form Body" (opcodes-and-status-codes.mdx, JSON
    // error code 50035): the batch of both, then the first alone.
    discord.fail(
        "POST",
        &format!("/channels/{DISCORD_LOG}/messages"),
        400,
        json!({"message": "Invalid Form Body", "code": 50035,
               "errors": {"embeds": {"0": {"title": {"_errors": [
                   {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}}}),
        2,
    );
    assert_eq!(daemon.deliver_logs(), 1, "the second entry is posted");
    let posts = discord.posted(DISCORD_LOG);
    assert_eq!(posts.len(), 1);
    assert_eq!(embed_text(&posts[0].body["embeds"][0]).0, "Case #2: note");
    assert_eq!(outbox_states(daemon), [("given_up".to_owned(), 1)]);
    let reason: String =
        daemon.sql(|c| c.query_row("SELECT last_error FROM log_outbox", [], |r| r.get(0)));
    assert!(reason.contains("Invalid Form Body"), "{reason}");
    // The channel is not reported as failing, and takes the next entries.
    let onboarding = client.onboarding(ALPHA_DISCORD, false).await.unwrap();
    let item = onboarding
        .items
        .iter()
        .find(|i| i.id == "log_channels")
        .expect("a log channels item");
    assert!(!item.detail.contains("not made"), "{}", item.detail);
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    assert_eq!(daemon.deliver_logs(), 1);
}

#[tokio::test]
async fn failed_and_given_up_entries_are_purged_after_a_week() {
    const GONE: &str = "300000000000000099";
    let (fixture, _discord) = discord_logging(json!({"moderation": GONE}));
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    act(&client, ALPHA_DISCORD, Action::Note, "500000000000000009").await;
    assert_eq!(daemon.deliver_logs(), 0);
    assert_eq!(outbox_states(daemon), [("failed".to_owned(), 1)]);
    let purge = || {
        daemon
            .block_on(modctld::workers::log_retention(daemon.state()))
            .unwrap()
    };
    // Kept while onboarding reports it...
    daemon
        .clock()
        .advance(modctld::logs::deliver::RETENTION - std::time::Duration::from_secs(60));
    assert_eq!(purge(), 0);
    assert_eq!(outbox_states(daemon).len(), 1);
    // ... and gone a week after it failed.
    daemon.clock().advance(std::time::Duration::from_secs(120));
    assert_eq!(purge(), 1);
    assert!(outbox_states(daemon).is_empty());
}

/// A Telegram server whose moderation log goes to its own log chat
/// `log_chat`, with `warns` warnings waiting to be logged there.
async fn telegram_logging(log_chat: i64, warns: usize) -> (Fixture, FakeTelegram) {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    telegram.add_group(log_chat);
    daemon.connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    logging(
        daemon,
        ALPHA_TELEGRAM,
        json!({"moderation": log_chat.to_string()}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    for _ in 0..warns {
        act(&client, ALPHA_TELEGRAM, Action::Warn, "424242").await;
    }
    (fixture, telegram)
}

/// The log channels item of `server`'s onboarding.
async fn log_channels_item(
    fixture: &Fixture,
    server: &str,
) -> modctl_types::onboarding::OnboardingItem {
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let onboarding = client.onboarding(server, false).await.unwrap();
    onboarding
        .items
        .into_iter()
        .find(|i| i.id == "log_channels")
        .expect("a log channels item")
}

/// A Telegram log chat upgraded to a supergroup refuses every post with 400
/// and `parameters.migrate_to_chat_id` (Bot API, ResponseParameters): the
/// chat's refusal, so its entries are failed and onboarding says so, not
/// given up one by one as malformed posts.
#[tokio::test]
async fn a_telegram_log_chat_upgraded_to_a_supergroup_is_the_channels_failure() {
    const LOG_CHAT: i64 = -1002000000001;
    let (fixture, telegram) = telegram_logging(LOG_CHAT, 3).await;
    let daemon = &fixture.daemon;
    telegram.make_basic_group(LOG_CHAT);
    telegram.upgrade_to_supergroup(LOG_CHAT, -1002000000002, daemon.now_unix());
    assert_eq!(daemon.deliver_logs(), 0);
    assert_eq!(outbox_states(daemon), [("failed".to_owned(), 3)]);
    assert_eq!(telegram.calls("sendMessage").len(), 1, "one batch, refused");
    let item = log_channels_item(&fixture, ALPHA_TELEGRAM).await;
    assert!(
        item.detail.contains(&LOG_CHAT.to_string()) && item.detail.contains("3 post(s) not made"),
        "{}",
        item.detail
    );
    assert!(
        item.detail.contains("upgraded to a supergroup"),
        "{}",
        item.detail
    );
}

/// The safety net: a chat refusing every post in words the adapter does
/// not know as the chat's (answered as a bad request) is the channel's
/// failure once two entries in a row are refused alone, not a backlog
/// given up entry by entry.
#[tokio::test]
async fn posts_refused_as_malformed_twice_in_a_row_fail_the_channel() {
    const LOG_CHAT: i64 = -1002000000003;
    let (fixture, telegram) = telegram_logging(LOG_CHAT, 4).await;
    let daemon = &fixture.daemon;
    telegram.fail(
        "POST",
        &FakeTelegram::path("sendMessage"),
        400,
        json!({"ok": false, "error_code": 400, "description": "Bad Request: SOME_NEW_CHAT_REFUSAL"}),
        100,
    );
    assert_eq!(daemon.deliver_logs(), 0);
    // The batch, then the first alone, then the second alone.
    assert_eq!(telegram.calls("sendMessage").len(), 3);
    assert_eq!(outbox_states(daemon), [("failed".to_owned(), 4)]);
    let item = log_channels_item(&fixture, ALPHA_TELEGRAM).await;
    assert!(
        item.detail.contains("4 post(s) not made"),
        "{}",
        item.detail
    );
}
