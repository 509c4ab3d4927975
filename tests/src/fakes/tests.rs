//! The fakes answer like their platforms, and the request log, injected
//! failures and gates do what tests rely on.

use std::time::Duration;

use serde_json::{Value, json};

use super::discord::{self, BOT, JAIL_ROLE, MEMBER_ROLE, MOD_ROLE, OWNER};
use super::{FakeDiscord, FakeSlack, FakeTelegram, Reply, slack, telegram};

const GUILD: &str = "100000000000000001";
const USER: &str = "500000000000000003";
const CHAT: i64 = -1_001_000_000_001;

/// A client with the user agent Discord wants (the other fakes ignore it).
pub(super) fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .user_agent(discord::TEST_USER_AGENT)
        .build()
        .unwrap()
}

/// Sends `method` `url` with an optional authorization header and JSON body;
/// the status, the `Retry-After` header and the JSON body (`Null` if none).
pub(super) async fn send(
    method: &str,
    url: String,
    auth: Option<&str>,
    body: Option<Value>,
) -> (u16, Option<String>, Value) {
    let http = http_client();
    let mut request = http.request(method.parse().unwrap(), url);
    if let Some(auth) = auth {
        request = request.header("authorization", auth);
    }
    if let Some(body) = body {
        request = request.json(&body);
    } else if method != "GET" && method != "DELETE" {
        // As the daemon does: a body-less write says its length (Discord
        // answers 411 otherwise).
        request = request.header("content-length", "0");
    }
    let response = request.send().await.expect("the fake answers");
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, retry_after, body)
}

pub(super) async fn discord_call(
    fake: &FakeDiscord,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let auth = format!("Bot {}", discord::TOKEN);
    let (status, _, body) = send(method, format!("{}{path}", fake.uri()), Some(&auth), body).await;
    (status, body)
}

pub(super) async fn telegram_call(fake: &FakeTelegram, method: &str, body: Value) -> (u16, Value) {
    let url = format!("{}{}", fake.uri(), FakeTelegram::path(method));
    let (status, _, body) = send("POST", url, None, Some(body)).await;
    (status, body)
}

#[tokio::test]
async fn discord_bans_remove_the_member_and_unknown_bans_are_404() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[MEMBER_ROLE]);
    let ban = format!("/guilds/{GUILD}/bans/{USER}");

    assert_eq!(
        discord_call(&fake, "DELETE", &ban, None).await,
        (404, json!({"message": "Unknown Ban", "code": 10026}))
    );
    let auth = format!("Bot {}", discord::TOKEN);
    let http = http_client();
    let status = http
        .put(format!("{}{ban}", fake.uri()))
        .header("authorization", auth)
        .header("x-audit-log-reason", "spam%20%26%20scams")
        .json(&json!({"delete_message_seconds": 86_400}))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 204);
    assert!(fake.is_banned(USER));
    assert!(!fake.is_member(USER));
    assert_eq!(fake.ban_reason(USER).as_deref(), Some("spam & scams"));
    let (status, body) = discord_call(&fake, "GET", &ban, None).await;
    assert_eq!((status, &body["reason"]), (200, &json!("spam & scams")));
    assert_eq!(
        discord_call(
            &fake,
            "GET",
            &format!("/guilds/{GUILD}/members/{USER}"),
            None
        )
        .await,
        (404, json!({"message": "Unknown Member", "code": 10007}))
    );
    assert_eq!(discord_call(&fake, "DELETE", &ban, None).await.0, 204);
    assert!(!fake.is_banned(USER));
}

#[tokio::test]
async fn discord_refuses_like_discord() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[MOD_ROLE]);
    let unauthorized = send(
        "GET",
        format!("{}/users/@me", fake.uri()),
        Some("Bot wrong"),
        None,
    )
    .await;
    assert_eq!(
        (unauthorized.0, unauthorized.2),
        (401, json!({"message": "401: Unauthorized", "code": 0}))
    );
    let missing = json!({"message": "Missing Permissions", "code": 50013});
    // The bot (Moderators, position 5) does not outrank another moderator,
    // and nobody kicks the owner.
    for user in [USER, OWNER] {
        let kick = format!("/guilds/{GUILD}/members/{user}");
        assert_eq!(
            discord_call(&fake, "DELETE", &kick, None).await,
            (403, missing.clone())
        );
    }
    assert_eq!(
        discord_call(&fake, "GET", "/guilds/1", None).await,
        (404, json!({"message": "Unknown Guild", "code": 10004}))
    );
    assert_eq!(
        discord_call(&fake, "GET", "/nowhere", None).await,
        (404, json!({"message": "404: Not Found", "code": 0}))
    );
    assert_eq!(
        discord_call(
            &fake,
            "POST",
            "/channels/1/messages",
            Some(json!({"content": "hi"}))
        )
        .await,
        (404, json!({"message": "Unknown Channel", "code": 10003}))
    );
    assert_eq!(fake.roles_of(USER), Some(vec![MOD_ROLE.to_owned()]));
}

#[tokio::test]
async fn discord_member_patches_replace_roles_and_set_timeouts() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[MEMBER_ROLE]);
    let member = format!("/guilds/{GUILD}/members/{USER}");

    let (status, body) =
        discord_call(&fake, "PATCH", &member, Some(json!({"roles": [JAIL_ROLE]}))).await;
    assert_eq!((status, &body["roles"]), (200, &json!([JAIL_ROLE])));
    assert_eq!(fake.roles_of(USER), Some(vec![JAIL_ROLE.to_owned()]));

    // Up to 28 days ahead of Discord's clock (the machine's), not beyond.
    let in_days = |days: i64| {
        jiff::Timestamp::from_second(jiff::Timestamp::now().as_second() + days * 86_400)
            .unwrap()
            .to_string()
    };
    let until = in_days(27);
    let patch = json!({"communication_disabled_until": until});
    assert_eq!(
        discord_call(&fake, "PATCH", &member, Some(patch)).await.0,
        200
    );
    assert_eq!(fake.timed_out_until(USER).as_deref(), Some(until.as_str()));
    let patch = json!({"communication_disabled_until": in_days(29)});
    let (status, body) = discord_call(&fake, "PATCH", &member, Some(patch)).await;
    assert_eq!(
        (status, body["code"].as_u64()),
        (400, Some(50035)),
        "{body}"
    );
    assert_eq!(fake.timed_out_until(USER).as_deref(), Some(until.as_str()));

    // A role the guild does not have changes nothing.
    let (status, body) = discord_call(&fake, "PATCH", &member, Some(json!({"roles": ["1"]}))).await;
    assert_eq!(
        (status, body),
        (404, json!({"message": "Unknown Role", "code": 10011}))
    );
    assert_eq!(fake.roles_of(USER), Some(vec![JAIL_ROLE.to_owned()]));
    // The bot cannot hand out a role above its own.
    let patch = json!({"roles": [discord::ADMIN_ROLE]});
    assert_eq!(
        discord_call(&fake, "PATCH", &member, Some(patch)).await.0,
        403
    );

    let (status, bot) = discord_call(
        &fake,
        "GET",
        &format!("/guilds/{GUILD}/members/{BOT}"),
        None,
    )
    .await;
    assert_eq!((status, &bot["roles"]), (200, &json!([MOD_ROLE])));
}

#[tokio::test]
async fn telegram_restrictions_show_in_get_chat_member() {
    let fake = FakeTelegram::start(CHAT);
    let user = 4242;
    fake.add_member(user);
    let target = json!({"chat_id": CHAT, "user_id": user});
    let muted: serde_json::Map<String, Value> = telegram::SEND_PERMISSIONS
        .iter()
        .map(|p| ((*p).to_owned(), json!(false)))
        .collect();
    let restrict = json!({"chat_id": CHAT, "user_id": user, "permissions": muted, "until_date": 1_900_000_000});
    assert_eq!(
        telegram_call(&fake, "restrictChatMember", restrict).await,
        (200, json!({"ok": true, "result": true}))
    );
    let (_, member) = telegram_call(&fake, "getChatMember", target.clone()).await;
    assert_eq!(member["result"]["status"], "restricted");
    assert_eq!(member["result"]["can_send_messages"], false);
    assert_eq!(member["result"]["until_date"], 1_900_000_000);
    assert_eq!(fake.muted_until(user), Some(1_900_000_000));

    let all: serde_json::Map<String, Value> = telegram::SEND_PERMISSIONS
        .iter()
        .map(|p| ((*p).to_owned(), json!(true)))
        .collect();
    let lift = json!({"chat_id": CHAT, "user_id": user, "permissions": all});
    assert_eq!(
        telegram_call(&fake, "restrictChatMember", lift).await.0,
        200
    );
    assert_eq!(fake.status_of(user).as_deref(), Some("member"));
    assert!(!fake.is_muted(user));

    let stranger = json!({"chat_id": CHAT, "user_id": 99, "permissions": {}});
    assert_eq!(
        telegram_call(&fake, "restrictChatMember", stranger).await,
        (
            400,
            json!({"ok": false, "error_code": 400, "description": "Bad Request: user not found"})
        )
    );
    let owner = json!({"chat_id": CHAT, "user_id": telegram::OWNER});
    let (status, body) = telegram_call(&fake, "banChatMember", owner).await;
    assert_eq!(
        (status, &body["description"]),
        (400, &json!("Bad Request: can't remove chat owner"))
    );
    fake.set_bot_can_restrict(false);
    let (_, body) = telegram_call(&fake, "banChatMember", target).await;
    assert_eq!(
        body["description"],
        "Bad Request: not enough rights to restrict/unrestrict chat member"
    );
}

#[tokio::test]
async fn telegram_bans_unbans_and_tokens() {
    let fake = FakeTelegram::start(CHAT);
    let user = 4242;
    fake.add_member(user);
    let target = json!({"chat_id": CHAT, "user_id": user});
    let only_if_banned = json!({"chat_id": CHAT, "user_id": user, "only_if_banned": true});

    // only_if_banned leaves a member alone; without it, unban removes them.
    assert_eq!(
        telegram_call(&fake, "unbanChatMember", only_if_banned.clone())
            .await
            .0,
        200
    );
    assert_eq!(fake.status_of(user).as_deref(), Some("member"));
    assert_eq!(
        telegram_call(&fake, "banChatMember", target.clone())
            .await
            .0,
        200
    );
    assert!(fake.is_banned(user));
    assert_eq!(
        telegram_call(&fake, "unbanChatMember", only_if_banned)
            .await
            .0,
        200
    );
    assert_eq!(fake.status_of(user).as_deref(), Some("left"));
    fake.add_member(user);
    assert_eq!(telegram_call(&fake, "unbanChatMember", target).await.0, 200);
    assert_eq!(fake.status_of(user).as_deref(), Some("left"));

    let wrong = send(
        "POST",
        format!("{}/bot1:wrong/getMe", fake.uri()),
        None,
        None,
    )
    .await;
    assert_eq!(
        (wrong.0, wrong.2),
        (
            401,
            json!({"ok": false, "error_code": 401, "description": "Unauthorized"})
        )
    );
    let lost = json!({"chat_id": -5, "text": "hello"});
    assert_eq!(
        telegram_call(&fake, "sendMessage", lost).await.1["description"],
        "Bad Request: chat not found"
    );
    assert_eq!(
        telegram_call(&fake, "sendMessage", json!({"chat_id": CHAT, "text": "hi"}))
            .await
            .0,
        200
    );
    assert_eq!(fake.messages(CHAT), ["hi"]);
    assert_eq!(fake.calls("sendMessage").len(), 2);
}

/// The Bot API rules the fake enforces for issue #23, each as the
/// reference states it (see the comments in `fakes/telegram*.rs`).
#[tokio::test]
async fn telegram_enforces_webhooks_supergroups_and_admin_rights() {
    let fake = FakeTelegram::start(CHAT);
    let description = |body: &Value| body["description"].as_str().unwrap_or_default().to_owned();
    // setWebhook: HTTPS only, ports 443, 80, 88, 8443.
    let (status, body) = telegram_call(
        &fake,
        "setWebhook",
        json!({"url": "http://example.com/hook"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        description(&body).contains("HTTPS URL must be provided"),
        "{body}"
    );
    let (status, body) = telegram_call(
        &fake,
        "setWebhook",
        json!({"url": "https://example.com:8080/hook"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        description(&body).contains("ports 80, 88, 443 or 8443"),
        "{body}"
    );
    assert_eq!(fake.webhook(), None);
    // One webhook per bot: the second replaces the first.
    for url in [
        "https://one.example.com:8443/a",
        "https://two.example.com/b",
    ] {
        let (status, _) = telegram_call(&fake, "setWebhook", json!({"url": url})).await;
        assert_eq!(status, 200);
    }
    assert_eq!(fake.webhook().unwrap().0, "https://two.example.com/b");
    // getUpdates while a webhook is set: 409 Conflict.
    let (status, _) = telegram_call(&fake, "getUpdates", json!({})).await;
    assert_eq!(status, 409);

    // Basic groups: no restrictChatMember, no unbanChatMember.
    let user = 4242;
    fake.add_member(user);
    fake.make_basic_group(CHAT);
    let (_, chat) = telegram_call(&fake, "getChat", json!({"chat_id": CHAT})).await;
    assert_eq!(chat["result"]["type"], "group");
    let permissions = json!({"can_send_messages": false});
    let (status, body) = telegram_call(
        &fake,
        "restrictChatMember",
        json!({"chat_id": CHAT, "user_id": user, "permissions": permissions}),
    )
    .await;
    assert_eq!(
        (status, description(&body).as_str()),
        (400, "Bad Request: method is available only for supergroups")
    );
    let (status, body) = telegram_call(
        &fake,
        "unbanChatMember",
        json!({"chat_id": CHAT, "user_id": user}),
    )
    .await;
    assert_eq!(
        (status, description(&body).as_str()),
        (
            400,
            "Bad Request: method is available for supergroup and channel chats only"
        )
    );
    // The upgrade: the old id answers with the new one.
    let new = -1_009_000_000_001_i64;
    let (old_update, new_update) = fake.upgrade_to_supergroup(CHAT, new, 1_800_000_000);
    assert_eq!(old_update["message"]["migrate_to_chat_id"], new);
    assert_eq!(new_update["message"]["migrate_from_chat_id"], CHAT);
    let (status, body) = telegram_call(&fake, "getChat", json!({"chat_id": CHAT})).await;
    assert_eq!(status, 400);
    assert_eq!(body["parameters"]["migrate_to_chat_id"], new);
    let (_, chat) = telegram_call(&fake, "getChat", json!({"chat_id": new})).await;
    assert_eq!(chat["result"]["type"], "supergroup");

    // A bot that is no administrator: CHAT_ADMIN_REQUIRED.
    fake.set_bot_admin(false);
    let (status, body) = telegram_call(
        &fake,
        "banChatMember",
        json!({"chat_id": new, "user_id": user}),
    )
    .await;
    assert_eq!(
        (status, description(&body).as_str()),
        (400, "Bad Request: CHAT_ADMIN_REQUIRED")
    );
    let (_, bot) = telegram_call(
        &fake,
        "getChatMember",
        json!({"chat_id": new, "user_id": telegram::BOT}),
    )
    .await;
    assert_eq!(bot["result"]["status"], "member");
}

#[tokio::test]
async fn slack_answers_200_with_ok_false() {
    let fake = FakeSlack::start();
    fake.add_channel_without_bot("C0OTHER001", "other");
    let post = |channel: &str, token: &str| {
        let url = format!("{}/chat.postMessage", fake.uri());
        let auth = format!("Bearer {token}");
        let body = json!({"channel": channel, "text": "case 1"});
        async move { send("POST", url, Some(&auth), Some(body)).await }
    };
    let error = |e: &str| (200, None, json!({"ok": false, "error": e}));
    assert_eq!(
        post(slack::MODLOG_CHANNEL, "xoxb-wrong").await,
        error("invalid_auth")
    );
    assert_eq!(
        post("C0NOWHERE1", slack::TOKEN).await,
        error("channel_not_found")
    );
    assert_eq!(
        post("C0OTHER001", slack::TOKEN).await,
        error("not_in_channel")
    );
    let (status, _, body) = post(slack::MODLOG_CHANNEL, slack::TOKEN).await;
    assert_eq!(
        (status, &body["ok"], &body["channel"]),
        (200, &json!(true), &json!(slack::MODLOG_CHANNEL))
    );
    assert_eq!(fake.messages(slack::MODLOG_CHANNEL), ["case 1"]);
    assert_eq!(fake.calls("chat.postMessage").len(), 4);
}

#[tokio::test]
async fn injected_failures_answer_instead_and_change_nothing() {
    let fake = FakeSlack::start();
    let path = "/chat.postMessage";
    fake.fail_with(
        "POST",
        path,
        Reply::json(429, json!({"ok": false, "error": "ratelimited"})).header("Retry-After", "3"),
        1,
    );
    let url = format!("{}{path}", fake.uri());
    let auth = format!("Bearer {}", slack::TOKEN);
    let body = json!({"channel": slack::MODLOG_CHANNEL, "text": "x"});
    let first = send("POST", url.clone(), Some(&auth), Some(body.clone())).await;
    assert_eq!((first.0, first.1.as_deref()), (429, Some("3")));
    assert!(fake.messages(slack::MODLOG_CHANNEL).is_empty());
    let second = send("POST", url, Some(&auth), Some(body)).await;
    assert_eq!((second.0, &second.2["ok"]), (200, &json!(true)));
    assert_eq!(fake.messages(slack::MODLOG_CHANNEL), ["x"]);
    let recorded = fake.requests_to("POST", path);
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0].header("Authorization"), Some(auth.as_str()));
    assert_eq!(recorded[0].body["text"], "x");
}

/// A failure after the platform acted changes the state as the request
/// asked, then answers the injected reply, or nothing at all; the calls
/// after the injected ones are answered by the platform again (so a repeat
/// of a kick sees the member gone).
#[tokio::test]
async fn failures_after_the_platform_acted_change_the_state_and_lose_the_answer() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[MEMBER_ROLE]);
    let kick = format!("/guilds/{GUILD}/members/{USER}");
    fake.fail_after("DELETE", &kick, 502, json!({"message": "Bad Gateway"}), 1);
    let (status, body) = discord_call(&fake, "DELETE", &kick, None).await;
    assert_eq!((status, &body["message"]), (502, &json!("Bad Gateway")));
    assert!(!fake.is_member(USER), "the kick was carried out");
    let (status, body) = discord_call(&fake, "DELETE", &kick, None).await;
    assert_eq!((status, &body["code"]), (404, &json!(10007)), "{body}");

    let ban = format!("/guilds/{GUILD}/bans/{USER}");
    fake.lose_answers("PUT", &ban, 1);
    let url = format!("{}{ban}", fake.uri());
    let lost = tokio::time::timeout(
        Duration::from_millis(300),
        send("PUT", url, Some(&format!("Bot {}", discord::TOKEN)), None),
    )
    .await;
    assert!(lost.is_err(), "no answer: {lost:?}");
    assert!(fake.is_banned(USER), "the ban was carried out");
}

#[tokio::test]
async fn a_held_request_completes_only_after_release() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[MEMBER_ROLE]);
    let kick = format!("/guilds/{GUILD}/members/{USER}");
    let gate = fake.hold("DELETE", &kick);
    let url = format!("{}{kick}", fake.uri());
    let held = tokio::spawn(async move {
        send(
            "DELETE",
            url,
            Some(&format!("Bot {}", discord::TOKEN)),
            None,
        )
        .await
        .0
    });
    gate.arrived().await;
    assert_eq!(gate.waiting(), 1);
    // Other routes still answer, and the held kick has not happened.
    assert_eq!(discord_call(&fake, "GET", "/users/@me", None).await.0, 200);
    assert!(fake.is_member(USER));
    assert!(!held.is_finished());
    assert_eq!(
        fake.requests_to("DELETE", &kick).len(),
        1,
        "recorded on arrival"
    );

    gate.release();
    assert_eq!(held.await.unwrap(), 204);
    assert!(!fake.is_member(USER));
    assert_eq!(gate.waiting(), 0);
}

#[test]
fn gates_work_from_sync_code_and_release_when_dropped() {
    let fake = FakeTelegram::start(CHAT);
    let gate = fake.hold("POST", &FakeTelegram::path("getMe"));
    assert!(
        !gate.wait_arrived(Duration::from_millis(10)),
        "nothing came yet"
    );
    let url = format!("{}{}", fake.uri(), FakeTelegram::path("getMe"));
    let caller = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(send("POST", url, None, None)).0
    });
    assert!(gate.wait_arrived(Duration::from_secs(10)));
    drop(gate);
    assert_eq!(caller.join().unwrap(), 200);
}

/// Sends `method` `path` to the fake Discord with its token; the status,
/// the `x-ratelimit-*`, `retry-after` headers and the JSON body.
pub(super) async fn discord_limited(
    fake: &FakeDiscord,
    method: &str,
    path: &str,
) -> (u16, std::collections::HashMap<String, String>, Value) {
    let response = http_client()
        .request(method.parse().unwrap(), format!("{}{path}", fake.uri()))
        .header("authorization", format!("Bot {}", discord::TOKEN))
        .header("content-length", "0")
        .send()
        .await
        .expect("the fake answers");
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str().starts_with("x-ratelimit") || *name == "retry-after")
        .map(|(name, value)| (name.as_str().to_owned(), value.to_str().unwrap().to_owned()))
        .collect();
    let body = serde_json::from_str(&response.text().await.unwrap()).unwrap_or(Value::Null);
    (status, headers, body)
}

#[tokio::test]
async fn discord_refuses_a_body_less_write_without_its_length() {
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(USER, &[]);
    let url = format!(
        "{}/guilds/{GUILD}/members/{USER}/roles/{MEMBER_ROLE}",
        fake.uri()
    );
    let bare = http_client()
        .put(&url)
        .header("authorization", format!("Bot {}", discord::TOKEN))
        .send()
        .await
        .expect("the fake answers");
    assert_eq!(bare.status().as_u16(), 411);
    let (status, _, _) = send("PUT", url, Some(&format!("Bot {}", discord::TOKEN)), None).await;
    assert_eq!(status, 204, "with Content-Length: 0");
}

#[tokio::test]
async fn discord_enforces_route_buckets_per_major_parameter() {
    let fake = FakeDiscord::start(GUILD);
    fake.limit_route(
        "GET",
        "/guilds/{guild}/bans/{user}",
        2,
        Duration::from_secs(30),
    );
    let ban = format!("/guilds/{GUILD}/bans/{USER}");

    let (status, headers, _) = discord_limited(&fake, "GET", &ban).await;
    assert_eq!(status, 404);
    assert_eq!(headers["x-ratelimit-limit"], "2");
    assert_eq!(headers["x-ratelimit-remaining"], "1");
    let bucket = headers["x-ratelimit-bucket"].clone();
    let reset_after: f64 = headers["x-ratelimit-reset-after"].parse().unwrap();
    assert!(reset_after > 29.0 && reset_after <= 30.0, "{reset_after}");
    // Another user on the same route: the same bucket.
    let other = format!("/guilds/{GUILD}/bans/{OWNER}");
    let (_, headers, _) = discord_limited(&fake, "GET", &other).await;
    assert_eq!(
        (
            headers["x-ratelimit-remaining"].as_str(),
            &headers["x-ratelimit-bucket"]
        ),
        ("0", &bucket)
    );
    let (status, headers, body) = discord_limited(&fake, "GET", &ban).await;
    assert_eq!(status, 429);
    assert_eq!(headers["x-ratelimit-scope"], "user");
    assert_eq!(headers["retry-after"], "30");
    assert_eq!(body["global"], json!(false));
    assert!(body["retry_after"].as_f64().unwrap() > 29.0);
    // Other routes and other guilds have buckets of their own.
    let (status, headers, _) = discord_limited(&fake, "GET", "/users/@me").await;
    assert_eq!(status, 200);
    assert_ne!(headers["x-ratelimit-bucket"], bucket);
    let (status, _, _) = discord_limited(&fake, "GET", "/guilds/123/bans/1").await;
    assert_eq!(status, 404);
    assert_eq!(
        fake.too_many_requests(),
        discord::TooManyRequests {
            bucket: 1,
            ..Default::default()
        }
    );
}

#[tokio::test]
async fn discord_enforces_the_global_limit_and_injected_429s() {
    let fake = FakeDiscord::start(GUILD);
    fake.set_global_limit(3, Duration::from_secs(30));
    for _ in 0..3 {
        assert_eq!(discord_limited(&fake, "GET", "/users/@me").await.0, 200);
    }
    let (status, headers, body) = discord_limited(&fake, "GET", &format!("/guilds/{GUILD}")).await;
    assert_eq!(status, 429);
    assert_eq!(headers["x-ratelimit-global"], "true");
    assert_eq!(headers["x-ratelimit-scope"], "global");
    assert_eq!(body["global"], json!(true));

    let fake = FakeDiscord::start(GUILD);
    fake.inject_429("GET", "/users/@me", Duration::from_millis(250), false);
    let (status, headers, body) = discord_limited(&fake, "GET", "/users/@me").await;
    assert_eq!(status, 429);
    assert_eq!(body["retry_after"], json!(0.25));
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert_eq!(discord_limited(&fake, "GET", "/users/@me").await.0, 200);
    assert_eq!(fake.too_many_requests().injected, 1);
}

/// The rules of issue #23, each as Discord documents it: the user agent,
/// managed roles, Manage Channels, posting where the bot may view and send,
/// bans of users Discord does not know, and a resource's `shared` 429.
#[tokio::test]
async fn discord_enforces_the_documented_rules_of_issue_23() {
    let fake = FakeDiscord::start(GUILD);
    // reference.mdx "User Agent": no `DiscordBot (url, version)`, blocked.
    let status = reqwest::Client::new()
        .get(format!("{}/users/@me", fake.uri()))
        .header("authorization", format!("Bot {}", discord::TOKEN))
        .header("content-length", "0")
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 403);
    assert_eq!(discord_call(&fake, "GET", "/users/@me", None).await.0, 200);

    // A managed role is neither given nor taken.
    fake.add_role("600000000000000077", 1, 0);
    fake.mark_role("600000000000000077", None, true);
    fake.add_member(USER, &[MEMBER_ROLE, "600000000000000077"]);
    let member = format!("/guilds/{GUILD}/members/{USER}");
    let (status, body) =
        discord_call(&fake, "PATCH", &member, Some(json!({"roles": [JAIL_ROLE]}))).await;
    assert_eq!(
        (status, body),
        (400, json!({"message": "Invalid Role", "code": 50028}))
    );
    let keep = json!({"roles": ["600000000000000077", JAIL_ROLE]});
    assert_eq!(
        discord_call(&fake, "PATCH", &member, Some(keep)).await.0,
        200
    );

    // Posting: View Channel, then Send Messages, in that channel.
    let post = format!("/channels/{}/messages", discord::MODLOG_CHANNEL);
    let hello = json!({"content": "hello"});
    assert_eq!(
        discord_call(&fake, "POST", &post, Some(hello.clone()))
            .await
            .0,
        200
    );
    fake.add_overwrite(
        discord::MODLOG_CHANNEL,
        MOD_ROLE,
        false,
        0,
        discord::SEND_MESSAGES,
    );
    let (status, body) = discord_call(&fake, "POST", &post, Some(hello.clone())).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50013)));
    fake.add_overwrite(discord::MODLOG_CHANNEL, BOT, true, 0, discord::VIEW_CHANNEL);
    let (status, body) = discord_call(&fake, "POST", &post, Some(hello)).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50001)));
    assert_eq!(fake.messages(discord::MODLOG_CHANNEL), ["hello"]);

    // A ban names a user Discord knows, member or not.
    let ban = |user: &str| format!("/guilds/{GUILD}/bans/{user}");
    let (status, body) =
        discord_call(&fake, "PUT", &ban("500000000000000077"), Some(json!({}))).await;
    assert_eq!(
        (status, body),
        (404, json!({"message": "Unknown User", "code": 10013}))
    );
    fake.add_user("500000000000000077");
    let (status, _) = discord_call(&fake, "PUT", &ban("500000000000000077"), Some(json!({}))).await;
    assert_eq!(status, 204);

    // Creating and editing channels needs Manage Channels.
    fake.set_role_permissions(
        MOD_ROLE,
        discord::MOD_PERMISSIONS & !discord::MANAGE_CHANNELS,
    );
    let channels = format!("/guilds/{GUILD}/channels");
    let (status, body) = discord_call(
        &fake,
        "POST",
        &channels,
        Some(json!({"name": "x", "type": 0})),
    )
    .await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50013)));
    let edit = format!("/channels/{}", discord::MODLOG_CHANNEL);
    let (status, _) = discord_call(&fake, "PATCH", &edit, Some(json!({"topic": "t"}))).await;
    assert_eq!(status, 403);

    // rate-limits.mdx: a resource's limit answers `shared` 429s and leaves
    // its bucket's room alone.
    let (_, headers, _) = discord_limited(&fake, "GET", &format!("/guilds/{GUILD}/bans/1")).await;
    let remaining = headers["x-ratelimit-remaining"].clone();
    let limited = format!("/guilds/{GUILD}/bans/2");
    fake.limit_resource(&limited, Duration::from_secs(60));
    let (status, headers, body) = discord_limited(&fake, "GET", &limited).await;
    assert_eq!(status, 429);
    assert_eq!(headers["x-ratelimit-scope"], "shared");
    assert_eq!(body["message"], "The resource is being rate limited.");
    assert_eq!(headers["x-ratelimit-remaining"], remaining);
    let (status, _, _) = discord_limited(&fake, "GET", &format!("/guilds/{GUILD}/bans/3")).await;
    assert_eq!(status, 404, "another resource of the bucket is served");
    assert_eq!(fake.too_many_requests().shared, 1);
}

/// `chat_member` updates reach the bot only when `allowed_updates` lists
/// them (and the setting is kept until changed); `promoteChatMember`
/// demotes only an administrator the bot promoted, with `can_promote_members`.
#[tokio::test]
async fn telegram_chat_member_updates_and_demotions_follow_the_bot_api() {
    let fake = FakeTelegram::start(CHAT);
    fake.add_member(4242);
    fake.add_admin(41);
    fake.add_admin_promoted_by_bot(42);
    fake.push_ban_by(41, 4242, 1_800_000_000);
    let kinds = |answer: &Value| -> Vec<String> {
        answer["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                u.as_object()
                    .unwrap()
                    .keys()
                    .find(|k| *k != "update_id")
                    .unwrap()
                    .clone()
            })
            .collect()
    };
    let (_, default) = telegram_call(&fake, "getUpdates", json!({"offset": 0})).await;
    assert!(kinds(&default).is_empty(), "not by default: {default}");
    let listed = json!({"offset": 0, "allowed_updates": ["message", "chat_member"]});
    let (_, asked) = telegram_call(&fake, "getUpdates", listed).await;
    assert_eq!(kinds(&asked), ["chat_member"]);
    assert_eq!(asked["result"][0]["chat_member"]["from"]["id"], 41);
    assert_eq!(
        asked["result"][0]["chat_member"]["new_chat_member"]["status"],
        "kicked"
    );
    // "If not specified, the previous setting will be used."
    let (_, kept) = telegram_call(&fake, "getUpdates", json!({"offset": 0})).await;
    assert_eq!(kinds(&kept), ["chat_member"]);
    assert!(fake.is_banned(4242));

    let demote = |user: i64| json!({"chat_id": CHAT, "user_id": user, "can_manage_chat": false});
    let (status, refused) = telegram_call(&fake, "promoteChatMember", demote(42)).await;
    assert_eq!(
        (status, refused["description"].as_str()),
        (400, Some("Bad Request: not enough rights"))
    );
    fake.set_bot_right("can_promote_members", true);
    let (status, _) = telegram_call(&fake, "promoteChatMember", demote(41)).await;
    assert_eq!(status, 400, "an administrator someone else promoted");
    let (status, _) = telegram_call(&fake, "promoteChatMember", demote(telegram::OWNER)).await;
    assert_eq!(status, 400, "the creator");
    let (status, _) = telegram_call(&fake, "promoteChatMember", demote(42)).await;
    assert_eq!(status, 200);
    assert_eq!(fake.status_of(42).as_deref(), Some("member"));
    assert_eq!(fake.demoted(), [42]);
}
