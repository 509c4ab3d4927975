//! The fakes refuse what their platforms refuse, for what issue #25 needs:
//! Discord's AutoMod rules, DMs, message deletion, posting limits and the
//! message-content intent; Slack's `chat.delete`, `chat.postEphemeral`,
//! `conversations.open` and posting limit; Telegram's `deleteMessage`,
//! private chats, HTML and group limit.

use std::time::Duration;

use serde_json::{Value, json};

use super::discord::{self, BOT, MOD_PERMISSIONS, MOD_ROLE, MODLOG_CHANNEL, OWNER};
use super::tests::{discord_call, discord_limited, send, telegram_call};
use super::{FakeDiscord, FakeSlack, FakeTelegram, slack, telegram};

const GUILD: &str = "100000000000000001";
const USER: &str = "500000000000000003";
const CHAT: i64 = -1_001_000_000_001;
const RULES: &str = "/guilds/100000000000000001/auto-moderation/rules";

fn keyword_rule(name: &str, keywords: Value) -> Value {
    json!({
        "name": name, "event_type": 1, "trigger_type": 1,
        "trigger_metadata": { "keyword_filter": keywords },
        "actions": [{ "type": 1 }], "enabled": true,
    })
}

/// The `_errors` codes anywhere in a Discord error body.
fn error_codes(body: &Value) -> Vec<String> {
    let mut codes = Vec::new();
    let mut stack = vec![&body["errors"]];
    while let Some(value) = stack.pop() {
        if let Some(errors) = value["_errors"].as_array() {
            codes.extend(
                errors
                    .iter()
                    .filter_map(|e| e["code"].as_str().map(str::to_owned)),
            );
        }
        if let Some(fields) = value.as_object() {
            stack.extend(fields.values());
        }
    }
    codes
}

#[tokio::test]
async fn discord_automod_rules_follow_the_documented_limits() {
    let fake = FakeDiscord::start(GUILD);
    // Made by hand: counts against the limit, keeps its creator.
    let by_hand = fake
        .seed_rule(OWNER, keyword_rule("by hand", json!(["spam"])))
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..5 {
        let (status, rule) = discord_call(
            &fake,
            "POST",
            RULES,
            Some(keyword_rule(&format!("modctl: {i}"), json!(["bad"]))),
        )
        .await;
        assert_eq!(status, 200, "{rule}");
        assert_eq!(rule["creator_id"], BOT);
        assert_eq!(rule["guild_id"], GUILD);
        ids.push(rule["id"].as_str().unwrap().to_owned());
    }
    // auto-moderation.mdx "Trigger Types": KEYWORD, 6 per guild.
    let (status, body) = discord_call(
        &fake,
        "POST",
        RULES,
        Some(keyword_rule("seventh", json!(["x"]))),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)));
    assert_eq!(
        error_codes(&body),
        ["AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED"]
    );
    // MENTION_SPAM: 1 per guild.
    let mention = json!({"name": "modctl: mentions", "event_type": 1, "trigger_type": 5,
        "trigger_metadata": {"mention_total_limit": 5}, "actions": [{"type": 1}]});
    let (status, rule) = discord_call(&fake, "POST", RULES, Some(mention.clone())).await;
    assert_eq!(
        (status, &rule["enabled"]),
        (200, &json!(false)),
        "enabled defaults to false"
    );
    let (status, body) = discord_call(&fake, "POST", RULES, Some(mention)).await;
    assert_eq!(status, 400);
    assert_eq!(
        error_codes(&body),
        ["AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED"]
    );

    let (_, listed) = discord_call(&fake, "GET", RULES, None).await;
    assert_eq!(listed.as_array().unwrap().len(), 7);
    let (_, hand) = discord_call(&fake, "GET", &format!("{RULES}/{by_hand}"), None).await;
    assert_eq!(hand["creator_id"], OWNER);
    fake.edit_rule(&by_hand, json!({"enabled": false})).unwrap();
    let edited = fake
        .automod_rules()
        .into_iter()
        .find(|r| r["id"] == json!(by_hand))
        .unwrap();
    assert_eq!(
        (&edited["enabled"], &edited["creator_id"]),
        (&json!(false), &json!(OWNER))
    );
    assert!(
        fake.edit_rule(&by_hand, json!({"exempt_roles": vec!["1"; 21]}))
            .is_err()
    );

    // Modified in place: same id, trigger_type unchanged.
    let path = format!("{RULES}/{}", ids[0]);
    let (status, rule) = discord_call(
        &fake,
        "PATCH",
        &path,
        Some(
            json!({"trigger_metadata": {"keyword_filter": ["worse"]}, "trigger_type": 5,
                    "exempt_roles": [MOD_ROLE]}),
        ),
    )
    .await;
    assert_eq!(status, 200, "{rule}");
    assert_eq!(
        (
            &rule["id"],
            &rule["trigger_type"],
            &rule["trigger_metadata"]["keyword_filter"],
            &rule["exempt_roles"]
        ),
        (
            &json!(ids[0]),
            &json!(1),
            &json!(["worse"]),
            &json!([MOD_ROLE])
        )
    );
    assert_eq!(discord_call(&fake, "DELETE", &path, None).await.0, 204);
    let (status, body) = discord_call(&fake, "GET", &path, None).await;
    assert_eq!((status, &body["code"]), (404, &json!(0)));
    assert_eq!(discord_call(&fake, "DELETE", &path, None).await.0, 404);
    // Room again for a KEYWORD rule.
    assert_eq!(
        discord_call(
            &fake,
            "POST",
            RULES,
            Some(keyword_rule("again", json!(["x"])))
        )
        .await
        .0,
        200
    );
    assert_eq!(fake.automod_rules().len(), 7);
}

#[tokio::test]
async fn discord_automod_refuses_oversized_rules_and_missing_permissions() {
    let fake = FakeDiscord::start(GUILD);
    let long = |n: usize| "a".repeat(n);
    let many = |n: usize| json!((0..n).map(|i| format!("w{i}")).collect::<Vec<_>>());
    let mut regex = keyword_rule("r", json!([]));
    regex["trigger_metadata"]["regex_patterns"] = json!([long(261)]);
    let mut regexes = keyword_rule("r", json!([]));
    regexes["trigger_metadata"]["regex_patterns"] = many(11);
    let mut roles = keyword_rule("r", json!(["x"]));
    roles["exempt_roles"] = json!((0..21).map(|i| i.to_string()).collect::<Vec<_>>());
    let mut channels = keyword_rule("r", json!(["x"]));
    channels["exempt_channels"] = json!((0..51).map(|i| i.to_string()).collect::<Vec<_>>());
    let mut timeout_preset = json!({"name": "p", "event_type": 1, "trigger_type": 4,
        "trigger_metadata": {"presets": [1]}, "actions": [{"type": 3, "metadata": {"duration_seconds": 60}}]});
    let mut long_timeout = keyword_rule("t", json!(["x"]));
    long_timeout["actions"] = json!([{"type": 3, "metadata": {"duration_seconds": 2_419_201}}]);
    let refused = [
        (
            "a keyword over 60 characters",
            keyword_rule("k", json!([long(61)])),
        ),
        ("over 1000 keywords", keyword_rule("k", many(1001))),
        ("a regex over 260 characters", regex),
        ("over 10 regexes", regexes),
        ("over 20 exempt roles", roles),
        ("over 50 exempt channels", channels),
        ("a TIMEOUT on a KEYWORD_PRESET rule", timeout_preset.take()),
        ("a timeout over 4 weeks", long_timeout),
        (
            "no actions",
            json!({"name": "n", "event_type": 1, "trigger_type": 1}),
        ),
        (
            "an unknown trigger type",
            json!({"name": "n", "event_type": 1, "trigger_type": 2, "actions": []}),
        ),
    ];
    for (what, rule) in refused {
        let (status, body) = discord_call(&fake, "POST", RULES, Some(rule)).await;
        assert_eq!(
            (status, body["code"].as_u64()),
            (400, Some(50035)),
            "{what}: {body}"
        );
    }
    // At the limits: accepted.
    let mut full = keyword_rule("full", many(1000));
    full["trigger_metadata"]["regex_patterns"] = json!(vec![long(260); 10]);
    full["exempt_roles"] = json!((0..20).map(|i| i.to_string()).collect::<Vec<_>>());
    full["exempt_channels"] = json!((0..50).map(|i| i.to_string()).collect::<Vec<_>>());
    let (status, body) = discord_call(&fake, "POST", RULES, Some(full)).await;
    assert_eq!(status, 200, "{body}");
    assert!(fake.automod_rules().len() == 1);
    // auto-moderation.mdx "Permission Requirements": MANAGE_GUILD.
    fake.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS & !discord::MANAGE_GUILD);
    let (status, body) = discord_call(&fake, "GET", RULES, None).await;
    assert_eq!((status, &body["code"]), (403, &json!(50013)));
    let (status, _) =
        discord_call(&fake, "POST", RULES, Some(keyword_rule("k", json!(["x"])))).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn discord_dms_reach_users_who_accept_them() {
    let fake = FakeDiscord::start(GUILD);
    let open = |user: &str| {
        discord_call(
            &fake,
            "POST",
            "/users/@me/channels",
            Some(json!({"recipient_id": user})),
        )
    };
    let (status, body) = open("999").await;
    assert_eq!(
        (status, &body["code"]),
        (400, &json!(50033)),
        "unknown user"
    );
    fake.add_member(USER, &[]);
    let (status, channel) = open(USER).await;
    assert_eq!((status, &channel["type"]), (200, &json!(1)));
    assert_eq!(
        open(USER).await.1["id"],
        channel["id"],
        "one DM channel per user"
    );
    let path = format!("/channels/{}/messages", channel["id"].as_str().unwrap());
    let (status, _) = discord_call(
        &fake,
        "POST",
        &path,
        Some(json!({"content": "You were warned"})),
    )
    .await;
    assert_eq!(status, 200);
    let dms = fake.dms(USER);
    assert_eq!(dms.len(), 1);
    assert_eq!(dms[0].content, "You were warned");
    fake.block_dms(USER);
    let (status, body) =
        discord_call(&fake, "POST", &path, Some(json!({"content": "again"}))).await;
    assert_eq!((status, &body["code"]), (403, &json!(50007)));
    assert_eq!(fake.dms(USER).len(), 1);
}

#[tokio::test]
async fn discord_deletes_messages_as_discord_allows() {
    let fake = FakeDiscord::start(GUILD);
    let theirs = fake.seed_message(MODLOG_CHANNEL, USER, "bad words");
    let path = |id: &str| format!("/channels/{MODLOG_CHANNEL}/messages/{id}");
    // Another's message needs MANAGE_MESSAGES (message.mdx "Delete Message").
    fake.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS & !discord::MANAGE_MESSAGES);
    let (status, body) = discord_call(&fake, "DELETE", &path(&theirs), None).await;
    assert_eq!((status, &body["code"]), (403, &json!(50013)));
    assert!(!fake.is_deleted(MODLOG_CHANNEL, &theirs));
    // The bot's own: no permission needed.
    let (_, own) = discord_call(
        &fake,
        "POST",
        &format!("/channels/{MODLOG_CHANNEL}/messages"),
        Some(json!({"content": "mine"})),
    )
    .await;
    let own = own["id"].as_str().unwrap().to_owned();
    assert_eq!(
        discord_call(&fake, "DELETE", &path(&own), None).await.0,
        204
    );
    fake.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS);
    assert_eq!(
        discord_call(&fake, "DELETE", &path(&theirs), None).await.0,
        204
    );
    assert!(fake.is_deleted(MODLOG_CHANNEL, &theirs));
    // Oldest first: the seeded message, then the bot's.
    assert_eq!(fake.deleted(MODLOG_CHANNEL), [theirs.clone(), own]);
    let (status, body) = discord_call(&fake, "DELETE", &path(&theirs), None).await;
    assert_eq!(
        (status, &body["code"]),
        (404, &json!(10008)),
        "already deleted"
    );
    let (status, body) = discord_call(&fake, "DELETE", "/channels/123/messages/456", None).await;
    assert_eq!((status, &body["code"]), (404, &json!(10003)));
}

#[tokio::test]
async fn discord_keeps_whole_posts_and_limits_them_per_channel() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_channel("700000000000000002", "automod-log");
    let post = |channel: &str, body: Value| {
        let path = format!("/channels/{channel}/messages");
        let fake = &fake;
        async move { discord_call(fake, "POST", &path, Some(body)).await }
    };
    let embed = json!({"embeds": [{"title": "Case 1", "description": "warn"}], "allowed_mentions": {"parse": []}});
    assert_eq!(
        post(MODLOG_CHANNEL, embed.clone()).await.0,
        200,
        "embeds alone are a message"
    );
    let (status, body) = post(MODLOG_CHANNEL, json!({"allowed_mentions": {"parse": []}})).await;
    assert_eq!((status, &body["code"]), (400, &json!(50006)));
    let (status, body) = post(MODLOG_CHANNEL, json!({"content": "x".repeat(2001)})).await;
    assert_eq!((status, &body["code"]), (400, &json!(50035)));
    // Embed limits: 4096 per description, 6000 in all.
    let (status, body) = post(
        MODLOG_CHANNEL,
        json!({"embeds": [{"description": "x".repeat(4097)}]}),
    )
    .await;
    assert_eq!((status, &body["code"]), (400, &json!(50035)));
    let big = json!({"description": "x".repeat(3000)});
    let (status, body) = post(
        MODLOG_CHANNEL,
        json!({"embeds": [big, big, {"title": "t"}]}),
    )
    .await;
    assert_eq!(
        (status, &body["code"]),
        (400, &json!(50035)),
        "6001 characters"
    );
    let posted = fake.posted(MODLOG_CHANNEL);
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0].body, embed);
    assert_eq!(posted[0].content, "");
    // 5 per 5 s per channel, refused requests included (a bucket counts
    // requests, not messages): the 5 above spent the window.
    let (status, headers, body) = discord_limited(
        &fake,
        "POST",
        &format!("/channels/{MODLOG_CHANNEL}/messages"),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(body["retry_after"].as_f64().unwrap() > 0.0);
    assert_eq!(headers["x-ratelimit-limit"], "5");
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert!(headers.contains_key("x-ratelimit-bucket"));
    assert_eq!(fake.too_many_requests().bucket, 1);
    assert_eq!(fake.posted(MODLOG_CHANNEL).len(), 1);
    // Another channel has its own bucket.
    assert_eq!(
        post("700000000000000002", json!({"content": "hit"}))
            .await
            .0,
        200
    );
    // A test can loosen the limit.
    fake.limit_route(
        "POST",
        "/channels/{channel}/messages",
        100,
        Duration::from_secs(1),
    );
    assert_eq!(
        post(MODLOG_CHANNEL, json!({"content": "later"})).await.0,
        200
    );
}

#[tokio::test]
async fn discord_application_flags_are_what_the_test_set() {
    let fake = FakeDiscord::start(GUILD);
    let (status, app) = discord_call(&fake, "GET", "/applications/@me", None).await;
    assert_eq!(
        (status, &app["flags"]),
        (200, &json!(discord::DEFAULT_APPLICATION_FLAGS))
    );
    fake.set_application_flags(discord::GATEWAY_MESSAGE_CONTENT_LIMITED);
    let (_, app) = discord_call(&fake, "GET", "/applications/@me", None).await;
    assert_eq!(app["flags"], json!(1 << 19));
}

#[test]
fn the_gateway_refuses_privileged_intents_the_application_lacks() {
    use discord::gateway::{
        GUILD_MEMBERS, GUILD_MESSAGES, GUILD_PRESENCES, MESSAGE_CONTENT, disallowed_intents,
    };
    let default = discord::DEFAULT_APPLICATION_FLAGS;
    let content = discord::GATEWAY_MESSAGE_CONTENT;
    let limited = discord::GATEWAY_MESSAGE_CONTENT_LIMITED;
    let cases = [
        (GUILD_MESSAGES, 0, 0),
        (GUILD_MEMBERS | GUILD_MESSAGES, default, 0),
        (GUILD_MEMBERS, 0, GUILD_MEMBERS),
        (MESSAGE_CONTENT | GUILD_MESSAGES, default, MESSAGE_CONTENT),
        (MESSAGE_CONTENT, default | content, 0),
        (MESSAGE_CONTENT, default | limited, 0),
        (
            GUILD_PRESENCES | MESSAGE_CONTENT,
            default,
            GUILD_PRESENCES | MESSAGE_CONTENT,
        ),
    ];
    for (intents, flags, refused) in cases {
        assert_eq!(
            disallowed_intents(intents, flags),
            refused,
            "intents {intents:#x} flags {flags:#x}"
        );
    }
}

#[test]
fn the_gateway_sends_content_only_to_sessions_that_may_read_it() {
    use discord::gateway::{GUILD_MESSAGES, MESSAGE_CONTENT, as_received};
    let message = json!({"id": "1", "content": "buy n1tro", "embeds": [{"title": "x"}],
        "attachments": [{"id": "2"}], "components": [], "poll": {}, "author": {"id": USER}});
    let execution = json!({"rule_id": "9", "content": "buy n1tro", "matched_content": "n1tro",
        "matched_keyword": "n*tro"});
    let granted = discord::DEFAULT_APPLICATION_FLAGS | discord::GATEWAY_MESSAGE_CONTENT;
    let cases = [
        (
            "MESSAGE_CREATE",
            &message,
            GUILD_MESSAGES | MESSAGE_CONTENT,
            granted,
            true,
        ),
        ("MESSAGE_CREATE", &message, GUILD_MESSAGES, granted, false),
        (
            "MESSAGE_UPDATE",
            &message,
            GUILD_MESSAGES | MESSAGE_CONTENT,
            discord::DEFAULT_APPLICATION_FLAGS,
            false,
        ),
        (
            "AUTO_MODERATION_ACTION_EXECUTION",
            &execution,
            GUILD_MESSAGES,
            granted,
            false,
        ),
        (
            "AUTO_MODERATION_ACTION_EXECUTION",
            &execution,
            MESSAGE_CONTENT,
            granted,
            true,
        ),
    ];
    for (name, d, intents, flags, readable) in cases {
        let received = as_received(name, d.clone(), intents, flags);
        assert_eq!(received == *d, readable, "{name} intents {intents:#x}");
        if !readable {
            assert_eq!(received["content"], "", "{name}");
        }
    }
    let stripped = as_received("MESSAGE_CREATE", message.clone(), GUILD_MESSAGES, granted);
    assert_eq!(
        (
            &stripped["embeds"],
            &stripped["attachments"],
            stripped.get("poll"),
            &stripped["author"]
        ),
        (&json!([]), &json!([]), None, &message["author"])
    );
    let stripped = as_received(
        "AUTO_MODERATION_ACTION_EXECUTION",
        execution.clone(),
        0,
        granted,
    );
    assert_eq!(
        (&stripped["matched_content"], &stripped["matched_keyword"]),
        (&json!(""), &json!("n*tro"))
    );
    // Other dispatches pass as they are.
    let join = json!({"user": {"id": USER}, "guild_id": GUILD});
    assert_eq!(as_received("GUILD_MEMBER_ADD", join.clone(), 0, 0), join);
}

async fn slack_call(
    fake: &FakeSlack,
    method: &str,
    token: &str,
    body: Value,
) -> (u16, Option<String>, Value) {
    let url = format!("{}/{method}", fake.uri());
    send("POST", url, Some(&format!("Bearer {token}")), Some(body)).await
}

#[tokio::test]
async fn slack_deletes_only_what_the_token_may() {
    let fake = FakeSlack::start();
    let channel = slack::MODLOG_CHANNEL;
    let theirs = fake.seed_message(channel, "U0SPAMMER1", "spam");
    let delete = |token: &'static str, ts: String| {
        slack_call(
            &fake,
            "chat.delete",
            token,
            json!({"channel": channel, "ts": ts}),
        )
    };
    let error = |e: &str| (200, None, json!({"ok": false, "error": e}));
    assert_eq!(
        delete(slack::TOKEN, theirs.clone()).await,
        error("cant_delete_message")
    );
    assert_eq!(
        delete(slack::MEMBER_TOKEN, theirs.clone()).await,
        error("cant_delete_message")
    );
    assert!(!fake.is_deleted(channel, &theirs));
    let (_, _, body) = delete(slack::ADMIN_TOKEN, theirs.clone()).await;
    assert_eq!(body["ok"], true, "{body}");
    assert!(fake.is_deleted(channel, &theirs));
    assert_eq!(
        delete(slack::ADMIN_TOKEN, theirs).await,
        error("message_not_found")
    );
    let (_, _, posted) = slack_call(
        &fake,
        "chat.postMessage",
        slack::TOKEN,
        json!({"channel": channel, "text": "log"}),
    )
    .await;
    let own = posted["ts"].as_str().unwrap().to_owned();
    assert_eq!(delete(slack::TOKEN, own).await.2["ok"], true);
    assert_eq!(
        slack_call(
            &fake,
            "chat.delete",
            slack::TOKEN,
            json!({"channel": "C0NOPE0001", "ts": "1.2"})
        )
        .await,
        error("channel_not_found")
    );
    // xoxp- tokens are users: no bot_id.
    let (_, _, auth) = slack_call(&fake, "auth.test", slack::ADMIN_TOKEN, json!({})).await;
    assert_eq!(
        (&auth["user_id"], auth.get("bot_id")),
        (&json!(slack::ADMIN), None)
    );
    let (_, _, auth) = slack_call(&fake, "auth.test", slack::TOKEN, json!({})).await;
    assert_eq!(auth["bot_id"], "B0MODCTL01");
}

#[tokio::test]
async fn slack_ephemeral_notices_and_dms() {
    let fake = FakeSlack::start();
    let channel = slack::MODLOG_CHANNEL;
    let notice =
        json!({"channel": channel, "user": "U0SPAMMER1", "text": "Your message was removed"});
    let error = |e: &str| (200, None, json!({"ok": false, "error": e}));
    assert_eq!(
        slack_call(&fake, "chat.postEphemeral", slack::TOKEN, notice.clone()).await,
        error("user_not_in_channel")
    );
    fake.add_channel_member(channel, "U0SPAMMER1");
    assert_eq!(
        slack_call(&fake, "chat.postEphemeral", slack::TOKEN, notice)
            .await
            .2["ok"],
        true
    );
    let shown = fake.ephemerals(channel);
    assert_eq!((shown.len(), shown[0].user.as_str()), (1, "U0SPAMMER1"));

    assert_eq!(
        slack_call(
            &fake,
            "conversations.open",
            slack::TOKEN,
            json!({"users": "U0NOBODY01"})
        )
        .await,
        error("user_not_found")
    );
    assert_eq!(
        slack_call(&fake, "conversations.open", slack::TOKEN, json!({})).await,
        error("users_list_not_supplied")
    );
    let (_, _, opened) = slack_call(
        &fake,
        "conversations.open",
        slack::TOKEN,
        json!({"users": "U0SPAMMER1"}),
    )
    .await;
    let dm = opened["channel"]["id"].as_str().unwrap().to_owned();
    assert!(dm.starts_with('D'), "{opened}");
    let (_, _, again) = slack_call(
        &fake,
        "conversations.open",
        slack::TOKEN,
        json!({"users": "U0SPAMMER1"}),
    )
    .await;
    assert_eq!(
        (&again["channel"]["id"], &again["already_open"]),
        (&json!(dm), &json!(true))
    );
    let blocks =
        json!([{"type": "section", "text": {"type": "mrkdwn", "text": "You were warned"}}]);
    let (_, _, sent) = slack_call(
        &fake,
        "chat.postMessage",
        slack::TOKEN,
        json!({"channel": dm, "blocks": blocks}),
    )
    .await;
    assert_eq!(
        sent["ok"], true,
        "blocks without text are a message: {sent}"
    );
    let dms = fake.dms("U0SPAMMER1");
    assert_eq!((dms.len(), &dms[0].args["blocks"]), (1, &blocks));
    let many = json!(vec![json!({"type": "divider"}); 51]);
    assert_eq!(
        slack_call(
            &fake,
            "chat.postMessage",
            slack::TOKEN,
            json!({"channel": dm, "blocks": many})
        )
        .await,
        error("invalid_blocks")
    );
    let long = json!({"type": "section", "text": {"type": "mrkdwn", "text": "x".repeat(3001)}});
    assert_eq!(
        slack_call(
            &fake,
            "chat.postMessage",
            slack::TOKEN,
            json!({"channel": dm, "blocks": [long]})
        )
        .await,
        error("invalid_blocks")
    );
    fake.set_post_limit(10, Duration::from_secs(1));
    let (_, _, sent) = slack_call(
        &fake,
        "chat.postMessage",
        slack::TOKEN,
        json!({"channel": dm, "text": "x".repeat(40_001)}),
    )
    .await;
    assert_eq!(sent["ok"], true, "{sent}");
    assert_eq!(
        fake.dms("U0SPAMMER1")[1].text.len(),
        40_000,
        "truncated as Slack does"
    );
    // DMs are not channels conversations.list shows.
    let (_, _, listed) = slack_call(&fake, "conversations.list", slack::TOKEN, json!({})).await;
    assert!(
        listed["channels"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["id"] != json!(dm))
    );
}

#[tokio::test]
async fn slack_limits_posts_per_channel() {
    let fake = FakeSlack::start();
    fake.add_channel("C0OTHER001", "other");
    let post = |channel: &'static str| {
        slack_call(
            &fake,
            "chat.postMessage",
            slack::TOKEN,
            json!({"channel": channel, "text": "log"}),
        )
    };
    // A burst of POST_BURST, then one per second.
    for _ in 0..slack::messages::POST_BURST {
        assert_eq!(post(slack::MODLOG_CHANNEL).await.2["ok"], true);
    }
    let (status, retry_after, body) = post(slack::MODLOG_CHANNEL).await;
    assert_eq!(
        (status, retry_after.as_deref(), &body["error"]),
        (429, Some("1"), &json!("ratelimited"))
    );
    assert_eq!(fake.messages(slack::MODLOG_CHANNEL).len(), 3);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(post(slack::MODLOG_CHANNEL).await.2["ok"], true, "refilled");
    assert_eq!(post(slack::MODLOG_CHANNEL).await.0, 429, "one a second");
    assert_eq!(fake.rate_limited(), 2);
    assert_eq!(post("C0OTHER001").await.2["ok"], true, "per channel");
    fake.set_post_limit(10, Duration::from_secs(1));
    assert_eq!(post(slack::MODLOG_CHANNEL).await.2["ok"], true);
}

#[tokio::test]
async fn telegram_deletes_messages_the_bot_may_delete() {
    let fake = FakeTelegram::start(CHAT);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let update = fake.push_message(5, now);
    let id = update["message"]["message_id"].as_i64().unwrap();
    let delete = |id: i64| {
        telegram_call(
            &fake,
            "deleteMessage",
            json!({"chat_id": CHAT, "message_id": id}),
        )
    };
    let refused = |d: &str| {
        (
            400,
            json!({"ok": false, "error_code": 400, "description": format!("Bad Request: {d}")}),
        )
    };
    fake.set_bot_right("can_delete_messages", false);
    assert_eq!(delete(id).await, refused("message can't be deleted"));
    fake.set_bot_right("can_delete_messages", true);
    assert_eq!(delete(id).await, (200, json!({"ok": true, "result": true})));
    assert!(fake.is_deleted(CHAT, id));
    assert_eq!(delete(id).await, refused("message to delete not found"));
    assert_eq!(delete(9999).await, refused("message to delete not found"));
    // Older than 48 hours.
    let old = fake.push_message(5, now - 49 * 3600)["message"]["message_id"]
        .as_i64()
        .unwrap();
    assert_eq!(delete(old).await, refused("message can't be deleted"));
    fake.set_clock(now - 48 * 3600);
    assert_eq!(delete(old).await.0, 200, "young on Telegram's clock");
    // Not an administrator: only its own.
    fake.set_bot_admin(false);
    let theirs = fake.push_message(6, now)["message"]["message_id"]
        .as_i64()
        .unwrap();
    assert_eq!(delete(theirs).await, refused("message can't be deleted"));
    let (_, sent) = telegram_call(
        &fake,
        "sendMessage",
        json!({"chat_id": CHAT, "text": "log"}),
    )
    .await;
    assert_eq!(
        delete(sent["result"]["message_id"].as_i64().unwrap())
            .await
            .0,
        200
    );
}

#[tokio::test]
async fn telegram_sends_to_users_who_started_the_bot_and_parses_html() {
    let fake = FakeTelegram::start(CHAT);
    let send_to = |chat: i64, text: &str, mode: Option<&str>| {
        let mut body = json!({"chat_id": chat, "text": text,
            "entities": [], "link_preview_options": {"is_disabled": true}});
        if let Some(mode) = mode {
            body["parse_mode"] = json!(mode);
        }
        telegram_call(&fake, "sendMessage", body)
    };
    let forbidden = |d: &str| {
        (
            403,
            json!({"ok": false, "error_code": 403, "description": format!("Forbidden: {d}")}),
        )
    };
    assert_eq!(
        send_to(42, "hi", None).await,
        forbidden("bot can't initiate conversation with a user")
    );
    fake.start_bot(42);
    assert_eq!(send_to(42, "hi", None).await.0, 200);
    assert_eq!(fake.sent(42).len(), 1);
    fake.block_bot(42);
    assert_eq!(
        send_to(42, "hi", None).await,
        forbidden("bot was blocked by the user")
    );

    let (status, body) = send_to(CHAT, "a < b", Some("HTML")).await;
    assert_eq!(status, 400);
    assert!(
        body["description"]
            .as_str()
            .unwrap()
            .starts_with("Bad Request: can't parse entities: "),
        "{body}"
    );
    assert_eq!(
        send_to(CHAT, "<b>Case 1</b> a &lt; b &amp; c", Some("HTML"))
            .await
            .0,
        200
    );
    let (status, body) = send_to(CHAT, "x", Some("html5")).await;
    assert_eq!(
        (status, &body["description"]),
        (400, &json!("Bad Request: unsupported parse_mode"))
    );
    let sent = fake.sent(CHAT);
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (
            &sent[0].args["parse_mode"],
            &sent[0].args["link_preview_options"],
            &sent[0].args["entities"]
        ),
        (&json!("HTML"), &json!({"is_disabled": true}), &json!([]))
    );
    let (status, body) = send_to(CHAT, &"x".repeat(4097), None).await;
    assert_eq!(
        (status, &body["description"]),
        (400, &json!("Bad Request: message is too long"))
    );
    assert_eq!(
        send_to(CHAT, &format!("<b>{}</b>", "x".repeat(4096)), Some("HTML"))
            .await
            .0,
        200,
        "tags do not count"
    );
}

#[test]
fn telegram_html_is_parsed_as_the_bot_api_says() {
    let cases: [(&str, Result<usize, &str>); 10] = [
        ("plain", Ok(5)),
        ("<b>bold</b> <i>it</i>", Ok(7)),
        ("<a href=\"https://x.invalid/?a=1&amp;b=2\">link</a>", Ok(4)),
        ("&lt;&gt;&amp;&quot;&#38;&#x26;", Ok(6)),
        ("<blockquote expandable>q</blockquote>", Ok(1)),
        ("a < b", Err("Unsupported start tag")),
        (
            "<script>x</script>",
            Err("Unsupported start tag \"script\""),
        ),
        (
            "<b>open",
            Err("Can't find end tag corresponding to start tag \"b\""),
        ),
        ("<b><i>x</b></i>", Err("Unmatched end tag")),
        ("Tom & Jerry", Err("Character entity expected")),
    ];
    for (text, expected) in cases {
        match (telegram::messages::parse_html(text), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{text}"),
            (Err(got), Err(want)) => assert!(got.starts_with(want), "{text}: {got}"),
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }
}

#[tokio::test]
async fn telegram_limits_messages_per_group() {
    let fake = FakeTelegram::start(CHAT);
    fake.add_group(-1_001_000_000_002);
    let send_to = |chat: i64| {
        telegram_call(
            &fake,
            "sendMessage",
            json!({"chat_id": chat, "text": "log"}),
        )
    };
    for _ in 0..telegram::messages::GROUP_LIMIT {
        assert_eq!(send_to(CHAT).await.0, 200);
    }
    let (status, body) = send_to(CHAT).await;
    assert_eq!(status, 429, "{body}");
    let retry_after = body["parameters"]["retry_after"].as_u64().unwrap();
    assert!((1..=60).contains(&retry_after));
    assert_eq!(
        body["description"],
        format!("Too Many Requests: retry after {retry_after}")
    );
    assert_eq!(fake.too_many_requests(), 1);
    assert_eq!(fake.messages(CHAT).len(), 20);
    assert_eq!(send_to(-1_001_000_000_002).await.0, 200, "per group");
    fake.start_bot(42);
    for _ in 0..25 {
        assert_eq!(send_to(42).await.0, 200, "private chats are not groups");
    }
}

mod gateway_session {
    //! The fake gateway over a real websocket: 4014 for an intent the
    //! application lacks, content only for sessions that may read it.

    use std::time::Duration;

    use futures_util::{SinkExt, StreamExt};
    use serde_json::{Value, json};
    use tokio_websockets::{ClientBuilder, MaybeTlsStream, Message, WebSocketStream};

    use super::super::discord::gateway::{
        FakeGateway, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT,
    };
    use super::super::discord::{self, TOKEN};
    use super::{GUILD, USER};

    type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

    /// Connects and identifies with `intents`.
    async fn identify(gateway: &FakeGateway, intents: u64) -> Socket {
        let uri = gateway.url().parse().unwrap();
        let (mut socket, _) = ClientBuilder::from_uri(uri).connect().await.unwrap();
        let hello = next(&mut socket).await.unwrap();
        assert_eq!(hello["op"], 10);
        let identify = json!({"op": 2, "d": {"token": TOKEN, "intents": intents,
            "properties": {"os": "linux", "browser": "t", "device": "t"}}});
        socket
            .send(Message::text(identify.to_string()))
            .await
            .unwrap();
        socket
    }

    /// The next text payload; `Err(code)` when the fake closed instead.
    async fn next(socket: &mut Socket) -> Result<Value, u16> {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("the fake gateway answers")
            .expect("a frame")
            .expect("a valid frame");
        if let Some((code, _)) = message.as_close() {
            return Err(code.into());
        }
        Ok(serde_json::from_str(message.as_text().unwrap()).unwrap())
    }

    /// The next dispatch named `name`.
    async fn dispatch(socket: &mut Socket, name: &str) -> Value {
        loop {
            let payload = next(socket).await.expect("not closed");
            if payload["t"] == name {
                return payload["d"].clone();
            }
        }
    }

    #[tokio::test]
    async fn message_content_needs_the_intent_and_the_grant() {
        let gateway = FakeGateway::start(Duration::from_secs(30));
        let wanted = GUILD_MEMBERS | GUILD_MESSAGES | MESSAGE_CONTENT;
        let mut refused = identify(&gateway, wanted).await;
        assert_eq!(next(&mut refused).await, Err(4014));
        assert_eq!(gateway.closes(), [4014]);

        gateway.set_application_flags(
            discord::DEFAULT_APPLICATION_FLAGS | discord::GATEWAY_MESSAGE_CONTENT_LIMITED,
        );
        let mut reader = identify(&gateway, wanted).await;
        let ready = dispatch(&mut reader, "READY").await;
        assert_eq!(
            ready["application"]["flags"],
            json!(discord::DEFAULT_APPLICATION_FLAGS | discord::GATEWAY_MESSAGE_CONTENT_LIMITED)
        );
        gateway.message_create(
            GUILD,
            discord::MODLOG_CHANNEL,
            "9001",
            USER,
            &[],
            "buy n1tro",
        );
        let message = dispatch(&mut reader, "MESSAGE_CREATE").await;
        assert_eq!(
            (&message["content"], &message["author"]["id"]),
            (&json!("buy n1tro"), &json!(USER))
        );
        drop(reader);

        // Granted but not asked for: no content.
        let mut blind = identify(&gateway, GUILD_MEMBERS | GUILD_MESSAGES).await;
        dispatch(&mut blind, "READY").await;
        gateway.message_create(
            GUILD,
            discord::MODLOG_CHANNEL,
            "9002",
            USER,
            &[],
            "buy n1tro",
        );
        let message = dispatch(&mut blind, "MESSAGE_CREATE").await;
        assert_eq!(
            (&message["content"], &message["id"]),
            (&json!(""), &json!("9002"))
        );
        gateway.automod_execution(
            GUILD,
            "77",
            1,
            USER,
            discord::MODLOG_CHANNEL,
            "buy n1tro",
            Some("n*tro"),
            "n1tro",
        );
        let execution = dispatch(&mut blind, "AUTO_MODERATION_ACTION_EXECUTION").await;
        assert_eq!(
            (
                &execution["rule_id"],
                &execution["matched_keyword"],
                &execution["matched_content"]
            ),
            (&json!("77"), &json!("n*tro"), &json!(""))
        );
        assert_eq!(gateway.closes(), [4014]);
    }
}
