//! The Telegram receivers end to end (issue #12): `getUpdates` long polling
//! against the fake Bot API (the default), with its offset kept across a
//! restart, and the webhook `POST /hooks/telegram/{server_id}` with its
//! secret token. Network waits are polls with a deadline.

use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::{BOT, TOKEN};
use modctl_e2e::{ALPHA_TELEGRAM, Fixture, TestDaemon, TestKey, error_body, eventually};
use modctl_types::Platform;
use modctl_types::moderation::{Action, ActionRequest};
use modctld::store::receivers::{self, Receiving};
use serde_json::{Value, json};

/// A second group of team alpha, on the same bot as [`ALPHA_TELEGRAM`].
const SECOND_GROUP: &str = "-1002000000002";

/// (messages, joins, leaves) of the group over the last 7 days, read from
/// `GET /servers/{id}/community-insights`.
fn totals(daemon: &TestDaemon, key: &TestKey) -> (u64, u64, u64) {
    totals_of(daemon, key, ALPHA_TELEGRAM)
}

fn totals_of(daemon: &TestDaemon, key: &TestKey, server: &str) -> (u64, u64, u64) {
    let t = daemon.community_insights(key, server).totals;
    (t.messages, t.joins, t.leaves)
}

/// [`connected`], with [`SECOND_GROUP`] a group of the same bot, claimed by
/// alpha and connected with the same token.
fn two_groups() -> (Fixture, FakeTelegram) {
    let (fixture, telegram) = connected();
    telegram.add_group(SECOND_GROUP.parse().unwrap());
    fixture
        .daemon
        .claim("alpha", Platform::Telegram, SECOND_GROUP, "Second Group");
    fixture
        .daemon
        .connect_live(SECOND_GROUP, TOKEN, &telegram.uri());
    (fixture, telegram)
}

/// Connects `server` with a webhook at https://modctl.example.com.
fn hook(daemon: &TestDaemon, server: &str, secret: &str) {
    // A URL Telegram accepts (HTTPS, port 443).
    daemon.set_receiving(
        server,
        Receiving {
            hook_url: Some("https://modctl.example.com".to_owned()),
            hook_secret: Some(secret.to_owned()),
            ..Receiving::default()
        },
    );
}

fn hook_url(server: &str) -> String {
    format!("https://modctl.example.com/hooks/telegram/{server}")
}

fn stored_offset(daemon: &TestDaemon) -> i64 {
    daemon.write(|tx| receivers::telegram_offset(tx, &[ALPHA_TELEGRAM.to_owned()]))
}

fn connected() -> (Fixture, FakeTelegram) {
    let fixture = Fixture::start();
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TOKEN, &telegram.uri());
    (fixture, telegram)
}

/// The `offset` of every `getUpdates` call so far.
fn offsets(telegram: &FakeTelegram) -> Vec<i64> {
    telegram
        .requests_to("POST", &FakeTelegram::path("getUpdates"))
        .iter()
        .map(|r| r.body["offset"].as_i64().unwrap())
        .collect()
}

#[test]
fn polled_updates_are_counted_and_a_restart_neither_loses_nor_repeats_them() {
    let (fixture, telegram) = connected();
    let Fixture {
        daemon, alpha_ro, ..
    } = fixture;
    let now = daemon.now_unix();
    telegram.push_message(5, now);
    telegram.push_message(5, now);
    telegram.push_message(BOT, now);
    telegram.push_join(6, now);
    telegram.push_leave(7, now);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the updates to be confirmed", || {
        stored_offset(&daemon) == 6
    });
    assert_eq!(
        telegram
            .requests_to("POST", &FakeTelegram::path("deleteWebhook"))
            .len(),
        1
    );
    let polled = offsets(&telegram);
    assert_eq!(
        polled[0], 0,
        "the first poll starts from what Telegram holds"
    );
    assert!(polled[1..].iter().all(|o| *o == 6), "{polled:?}");
    // The bot's own message is not counted; the join and leave are service
    // messages, not messages.
    assert_eq!(totals(&daemon, &alpha_ro), (2, 1, 1));

    // Across a restart: the poller starts at the stored offset, so nothing
    // is asked for (and counted) twice, and what came meanwhile is counted.
    let daemon = daemon.restart();
    telegram.push_message(8, now);
    let before = offsets(&telegram).len();
    daemon.start_receivers();
    eventually("the new update to be confirmed", || {
        stored_offset(&daemon) == 7
    });
    assert_eq!(offsets(&telegram)[before], 6);
    // One message more than before the restart, nothing counted twice.
    assert_eq!(totals(&daemon, &alpha_ro), (3, 1, 1));
    assert_eq!(telegram.pending_updates(), 0);
}

/// An update the daemon cannot read (here a message whose `date` is not a
/// number) is stepped over alone: the offset moves past it and the updates
/// around it count.
#[test]
fn a_polled_update_that_cannot_be_read_is_stepped_over_alone() {
    let (fixture, telegram) = connected();
    let Fixture {
        daemon, alpha_ro, ..
    } = fixture;
    let now = daemon.now_unix();
    let chat = telegram.push_message(5, now)["message"]["chat"]["id"]
        .as_i64()
        .unwrap();
    telegram.push_in(chat, 5, json!({"text": "broken", "date": "yesterday"}));
    telegram.push_message(6, now);
    daemon.start_receivers();
    eventually("the three updates (ids 1 to 3) to be confirmed", || {
        stored_offset(&daemon) == 4
    });
    assert_eq!(totals(&daemon, &alpha_ro), (2, 0, 0));
    assert_eq!(telegram.pending_updates(), 0);
}

async fn post_update(
    daemon: &TestDaemon,
    server: &str,
    update: &Value,
    secret: Option<&str>,
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(format!("{}/hooks/telegram/{server}", daemon.url()))
        .json(update);
    if let Some(secret) = secret {
        request = request.header("X-Telegram-Bot-Api-Secret-Token", secret);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn the_webhook_is_registered_and_counts_only_with_its_secret() {
    let (fixture, telegram) = connected();
    let daemon = &fixture.daemon;
    let secret = "s3cr3t-token_from-setWebhook";
    daemon.set_receiving(
        ALPHA_TELEGRAM,
        Receiving {
            hook_url: Some("https://modctl.example.com".to_owned()),
            hook_secret: Some(secret.to_owned()),
            ..Receiving::default()
        },
    );
    // A webhook bot gets no poller; the daemon registers the webhook.
    assert_eq!(daemon.start_receivers(), 0);
    assert_eq!(
        telegram.webhook(),
        Some((
            format!("https://modctl.example.com/hooks/telegram/{ALPHA_TELEGRAM}"),
            Some(secret.to_owned())
        ))
    );
    assert!(
        telegram
            .requests_to("POST", &FakeTelegram::path("getUpdates"))
            .is_empty()
    );

    let now = daemon.now_unix();
    let message = telegram.push_message(5, now);
    let (status, error) =
        error_body(post_update(daemon, ALPHA_TELEGRAM, &message, None).await).await;
    assert_eq!(status, 401);
    assert!(error.contains("X-Telegram-Bot-Api-Secret-Token"), "{error}");
    let (status, _) =
        error_body(post_update(daemon, ALPHA_TELEGRAM, &message, Some("wrong")).await).await;
    assert_eq!(status, 401);
    assert_eq!(
        totals(daemon, &fixture.alpha_ro),
        (0, 0, 0),
        "nothing counted without the secret"
    );

    let accepted = post_update(daemon, ALPHA_TELEGRAM, &message, Some(secret)).await;
    assert_eq!(accepted.status(), 200);
    assert_eq!(accepted.json::<Value>().await.unwrap()["events"], 1);
    let join = telegram.push_join(6, now);
    let accepted = post_update(daemon, ALPHA_TELEGRAM, &join, Some(secret)).await;
    assert_eq!(accepted.json::<Value>().await.unwrap()["events"], 1);
    // Counted before the answer (Telegram does not send again what was
    // answered): nothing waits in the ingestion's buffer.
    assert_eq!(daemon.state().activity.pending(), 0);
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 1, 0));
    // Telegram delivers an update again when it did not get the answer:
    // counted once.
    for update in [&message, &join] {
        let again = post_update(daemon, ALPHA_TELEGRAM, update, Some(secret)).await;
        assert_eq!(again.status(), 200);
    }
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 1, 0));

    // A body that repeats a key is refused like an API body, nothing counted.
    let repeated = format!(
        r#"{{"update_id":99,"message":{{"message_id":99,"date":{},"chat":{{"id":{ALPHA_TELEGRAM},"type":"supergroup"}},"from":{{"id":5,"is_bot":false,"first_name":"a"}},"from":{{"id":6,"is_bot":false,"first_name":"b"}},"text":"x"}}}}"#,
        daemon.now_unix()
    );
    let refused = reqwest::Client::new()
        .post(format!("{}/hooks/telegram/{ALPHA_TELEGRAM}", daemon.url()))
        .header("X-Telegram-Bot-Api-Secret-Token", secret)
        .header("content-type", "application/json")
        .body(repeated)
        .send()
        .await
        .unwrap();
    let (status, error) = error_body(refused).await;
    assert_eq!(status, 400);
    assert!(error.contains("duplicate key `from`"), "{error}");
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 1, 0));

    // A group without a webhook has no hook.
    let (status, error) =
        error_body(post_update(daemon, "-1009999", &message, Some(secret)).await).await;
    assert_eq!(status, 404);
    assert!(error.contains("--telegram-webhook-url"), "{error}");
}

/// Issue #23: Telegram keeps one webhook per bot, so two groups on one token
/// get one `setWebhook` (the first group's URL) and the updates of both
/// come through it, each counted for its group.
#[tokio::test]
async fn two_groups_on_one_bot_share_one_webhook() {
    let (fixture, telegram) = two_groups();
    let daemon = &fixture.daemon;
    hook(daemon, ALPHA_TELEGRAM, "secret-one");
    hook(daemon, SECOND_GROUP, "secret-two");
    assert_eq!(daemon.start_receivers(), 0);
    assert_eq!(daemon.start_receivers(), 0);
    assert_eq!(telegram.webhooks_set(), 1, "one setWebhook for the bot");
    assert_eq!(
        telegram.webhook(),
        Some((hook_url(ALPHA_TELEGRAM), Some("secret-one".to_owned())))
    );
    assert!(telegram.calls("getUpdates").is_empty());
    assert!(telegram.calls("deleteWebhook").is_empty());

    let now = daemon.now_unix();
    let second: i64 = SECOND_GROUP.parse().unwrap();
    let theirs = telegram.push_message_in(second, 5, now);
    let ours = telegram.push_message(5, now);
    for update in [&theirs, &ours] {
        let accepted = post_update(daemon, ALPHA_TELEGRAM, update, Some("secret-one")).await;
        assert_eq!(accepted.status(), 200);
        assert_eq!(accepted.json::<Value>().await.unwrap()["counted"], 1);
    }
    assert_eq!(
        totals_of(daemon, &fixture.alpha_ro, SECOND_GROUP),
        (1, 0, 0)
    );
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 0, 0));

    // A chat the bot is in but nobody connected counts nothing.
    telegram.add_group(-1003000000003);
    let stranger = telegram.push_message_in(-1003000000003, 5, now);
    let accepted = post_update(daemon, ALPHA_TELEGRAM, &stranger, Some("secret-one")).await;
    assert_eq!(accepted.json::<Value>().await.unwrap()["events"], 0);
    // The other group's secret is not the registered webhook's.
    let (status, _) =
        error_body(post_update(daemon, ALPHA_TELEGRAM, &theirs, Some("secret-two")).await).await;
    assert_eq!(status, 401);
}

/// Issue #23: a polled group and a webhook group on one token are served by
/// the webhook alone (a poller would delete it); once no group asks for a
/// webhook, one poller serves both.
#[tokio::test]
async fn a_polled_group_and_a_webhook_group_on_one_bot_never_poll_and_hook_at_once() {
    let (fixture, telegram) = two_groups();
    let daemon = &fixture.daemon;
    hook(daemon, SECOND_GROUP, "secret-two");
    assert_eq!(daemon.start_receivers(), 0, "no poller next to the webhook");
    assert!(telegram.calls("deleteWebhook").is_empty());
    assert!(telegram.calls("getUpdates").is_empty());
    assert_eq!(
        telegram.webhook(),
        Some((hook_url(SECOND_GROUP), Some("secret-two".to_owned())))
    );
    let now = daemon.now_unix();
    let polled_groups = telegram.push_message(5, now);
    let accepted = post_update(daemon, SECOND_GROUP, &polled_groups, Some("secret-two")).await;
    assert_eq!(accepted.json::<Value>().await.unwrap()["counted"], 1);
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 0, 0));

    // Back to polling: one poller for both groups, after deleteWebhook.
    daemon.set_receiving(SECOND_GROUP, Receiving::default());
    let second: i64 = SECOND_GROUP.parse().unwrap();
    telegram.push_message_in(second, 6, now);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the updates to be confirmed", || stored_offset(daemon) == 3);
    assert_eq!(telegram.calls("deleteWebhook").len(), 1);
    assert_eq!(telegram.webhook(), None);
    assert_eq!(
        totals_of(daemon, &fixture.alpha_ro, SECOND_GROUP),
        (1, 0, 0)
    );
    // The message already counted through the webhook is not counted again.
    assert_eq!(totals(daemon, &fixture.alpha_ro), (1, 0, 0));
}

/// Issue #23: Telegram refuses a webhook that is not HTTPS on port 443, 80,
/// 88 or 8443 (setWebhook), and so does the fake: a URL stored before
/// `server connect` checked it is not registered, and no poller takes its
/// place behind the operator's back.
#[test]
fn a_webhook_url_telegram_refuses_is_not_registered() {
    let (fixture, telegram) = connected();
    let daemon = &fixture.daemon;
    for base in [
        "http://modctl.example.com",
        "https://modctl.example.com:8080",
    ] {
        daemon.set_receiving(
            ALPHA_TELEGRAM,
            Receiving {
                hook_url: Some(base.to_owned()),
                hook_secret: Some("secret".to_owned()),
                ..Receiving::default()
            },
        );
        assert_eq!(daemon.start_receivers(), 0);
    }
    assert_eq!(telegram.calls("setWebhook").len(), 2);
    assert_eq!(telegram.webhook(), None);
    assert_eq!(telegram.webhooks_set(), 0);
}

/// Issue #23: a basic group upgraded to a supergroup gets a new chat id
/// (Message `migrate_to_chat_id` in the old group, `migrate_from_chat_id`
/// in the new one). The server follows it: the supergroup's messages count
/// for the same server, next to what the group had, and actions go to the
/// supergroup (the old id answers every call with an error).
#[test]
fn an_upgraded_group_keeps_its_server_and_its_history() {
    let (fixture, telegram) = connected();
    let daemon = &fixture.daemon;
    let old: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let new: i64 = -1_009_000_000_001;
    telegram.make_basic_group(old);
    let now = daemon.now_unix();
    telegram.push_message(5, now);
    telegram.upgrade_to_supergroup(old, new, now);
    telegram.push_message_in(new, 5, now);
    telegram.add_member(6);
    let client = daemon.client(&fixture.alpha_rw);
    let timeout = ActionRequest {
        user_id: "6".into(),
        minutes: Some(60),
        ..Default::default()
    };
    // Before the daemon heard of the upgrade, a call to the old id says
    // what to do.
    let response = daemon
        .block_on(client.perform_action(ALPHA_TELEGRAM, Action::Timeout, &timeout))
        .unwrap();
    assert!(!response.applied, "{response:?}");
    assert!(
        response
            .detail
            .contains("now supergroup -1009000000001: connect the server again"),
        "{response:?}"
    );
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the updates to be confirmed", || stored_offset(daemon) == 5);
    // Both messages of the member, in the group and then the supergroup,
    // count for the server; the two service messages do not.
    assert_eq!(totals(daemon, &fixture.alpha_ro), (2, 0, 0));
    let secrets = daemon.store().secrets().clone();
    let chat =
        daemon.write(move |tx| modctld::store::connections::get(tx, &secrets, ALPHA_TELEGRAM));
    assert_eq!(
        chat.unwrap().telegram_chat_id.as_deref(),
        Some("-1009000000001")
    );

    let response = daemon
        .block_on(client.perform_action(ALPHA_TELEGRAM, Action::Timeout, &timeout))
        .unwrap();
    assert!(response.applied, "{response:?}");
    assert!(telegram.is_muted(6));
    let restrict = telegram.calls("restrictChatMember");
    assert_eq!(restrict.last().unwrap().body["chat_id"], new);
}

/// Issue #23: a message is in a forum topic only when `is_topic_message` is
/// true (`message_thread_id` is also set on replies in an ordinary
/// supergroup), and the service messages of the current Bot API (chat owner
/// left, a boost, a topic edited, a gift, a video chat ended, ...) never
/// count as member messages.
#[tokio::test]
async fn topics_replies_and_service_messages_count_as_the_reference_says() {
    let (fixture, telegram) = connected();
    let daemon = &fixture.daemon;
    hook(daemon, ALPHA_TELEGRAM, "secret");
    daemon.start_receivers();
    let now = daemon.now_unix();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let reply = telegram.push_in(
        chat,
        5,
        serde_json::json!({"date": now, "text": "a reply", "message_thread_id": 77,
            "reply_to_message": {"message_id": 77, "date": now, "chat": {"id": chat, "type": "supergroup"}}}),
    );
    let in_topic = telegram.push_in(
        chat,
        5,
        serde_json::json!({"date": now, "text": "in a topic", "message_thread_id": 12, "is_topic_message": true}),
    );
    let mut posted = vec![reply, in_topic];
    for service in [
        serde_json::json!({"chat_owner_left": {}}),
        serde_json::json!({"boost_added": {"boost_count": 1}}),
        serde_json::json!({"forum_topic_edited": {"name": "renamed"}}),
        serde_json::json!({"video_chat_ended": {"duration": 60}}),
        serde_json::json!({"gift": {}}),
        serde_json::json!({"paid_message_price_changed": {"paid_message_star_count": 1}}),
    ] {
        let mut fields = service;
        fields["date"] = now.into();
        posted.push(telegram.push_in(chat, 5, fields));
    }
    for update in &posted {
        let accepted = post_update(daemon, ALPHA_TELEGRAM, update, Some("secret")).await;
        assert_eq!(accepted.status(), 200);
    }
    assert_eq!(totals(daemon, &fixture.alpha_ro), (2, 0, 0));
    let mut channels: Vec<(String, u64)> = daemon
        .community_insights(&fixture.alpha_ro, ALPHA_TELEGRAM)
        .top_channels_by_messages
        .into_iter()
        .map(|r| (r.id, r.count))
        .collect();
    channels.sort();
    assert_eq!(
        channels,
        vec![(ALPHA_TELEGRAM.to_owned(), 1), ("12".to_owned(), 1)],
        "the reply counts in the group, the topic message in its topic"
    );
}
