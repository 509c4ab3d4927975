//! The new capabilities of the live adapters (issue #25) against a small
//! local HTTP server that records each request and answers from a script:
//! the method, path, token, audit-log reason and body each platform's
//! reference asks for. (The shared fakes in `tests/src/fakes` learn these
//! endpoints separately; this checks the requests themselves.)

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use twilight_model::oauth::ApplicationFlags;

use super::capabilities::*;
use super::post::Post;
use super::receive::Gateway;
use super::{PlatformClients, PlatformError, RetryPolicy, discord, slack, telegram};
use crate::clock::Clock;

/// One request as the fake saw it.
#[derive(Debug, Clone)]
struct Seen {
    method: Method,
    path: String,
    authorization: Option<String>,
    reason: Option<String>,
    body: Value,
}

#[derive(Default)]
struct Script {
    answers: Mutex<VecDeque<(u16, Option<Value>)>>,
    seen: Mutex<Vec<Seen>>,
}

async fn answer(
    State(script): State<Arc<Script>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    script.seen.lock().unwrap().push(Seen {
        method,
        path: uri.path().to_owned(),
        authorization: header("authorization"),
        reason: header("x-audit-log-reason"),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    });
    let (status, body) = script
        .answers
        .lock()
        .unwrap()
        .pop_front()
        .expect("the script has an answer for every request");
    let status = StatusCode::from_u16(status).unwrap();
    match body {
        Some(body) => (status, axum::Json(body)).into_response(),
        None => status.into_response(),
    }
}

/// A fake answering `answers` in order; its base URL.
async fn fake(answers: Vec<(u16, Option<Value>)>) -> (String, Arc<Script>) {
    let script = Arc::new(Script {
        answers: Mutex::new(answers.into()),
        ..Script::default()
    });
    let app = Router::new().fallback(answer).with_state(script.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, script)
}

fn seen(script: &Script) -> Vec<Seen> {
    script.seen.lock().unwrap().clone()
}

fn clients() -> PlatformClients {
    let start = modctl_types::Timestamp::from_second(1_700_000_000).unwrap();
    PlatformClients::new(RetryPolicy::default(), Clock::manual(start))
}

/// A rule object as Discord answers it (auto-moderation.mdx, "Auto
/// Moderation Rule Object").
fn rule_object(id: &str) -> Value {
    json!({
        "id": id, "guild_id": "10", "name": "modctl: blocked words", "creator_id": "2",
        "event_type": 1, "trigger_type": 1, "trigger_metadata": {"keyword_filter": ["spam"]},
        "actions": [{"type": 1}], "enabled": true, "exempt_roles": [], "exempt_channels": []
    })
}

fn rule_spec() -> RuleSpec {
    keyword_rule("modctl: blocked words", &["spam"])
}

#[tokio::test]
async fn discord_deletes_dms_reads_flags_and_keeps_native_rules() {
    let (base, script) = fake(vec![
        (204, None),
        (200, Some(json!({"id": "900", "type": 1}))),
        (200, Some(json!({"id": "901"}))),
        (
            200,
            Some(json!({"id": "5", "flags": (1 << 19) | (1 << 23)})),
        ),
        (200, Some(json!([]))),
        (200, Some(rule_object("77"))),
        (200, Some(rule_object("77"))),
        (204, None),
    ])
    .await;
    let discord = discord::Discord::new(clients(), Some(base), "tok".into(), "10");
    discord
        .delete_message("c1", "m1", Some("spam & scams"))
        .await
        .unwrap();
    discord
        .direct_message("42", &Post::text("You were warned <@42>"))
        .await
        .unwrap();
    let flags = discord.application_flags().await.unwrap();
    assert!(flags.contains(ApplicationFlags::GATEWAY_MESSAGE_CONTENT_LIMITED));
    assert!(!flags.contains(ApplicationFlags::GATEWAY_MESSAGE_CONTENT));
    assert!(discord.list_rules().await.unwrap().is_empty());
    let created = discord
        .create_rule(&rule_spec(), Some("config"))
        .await
        .unwrap();
    assert_eq!(created.id.to_string(), "77");
    discord.modify_rule("77", &rule_spec(), None).await.unwrap();
    discord.delete_rule("77", Some("filter off")).await.unwrap();

    let seen = seen(&script);
    let routes: Vec<(String, String)> = seen
        .iter()
        .map(|s| (s.method.to_string(), s.path.clone()))
        .collect();
    let route = |m: &str, p: &str| (m.to_owned(), p.to_owned());
    assert_eq!(
        routes,
        [
            route("DELETE", "/channels/c1/messages/m1"),
            route("POST", "/users/@me/channels"),
            route("POST", "/channels/900/messages"),
            route("GET", "/applications/@me"),
            route("GET", "/guilds/10/auto-moderation/rules"),
            route("POST", "/guilds/10/auto-moderation/rules"),
            route("PATCH", "/guilds/10/auto-moderation/rules/77"),
            route("DELETE", "/guilds/10/auto-moderation/rules/77"),
        ]
    );
    assert!(
        seen.iter()
            .all(|s| s.authorization.as_deref() == Some("Bot tok"))
    );
    assert_eq!(seen[0].reason.as_deref(), Some("spam%20%26%20scams"));
    assert_eq!(seen[1].body, json!({"recipient_id": "42"}));
    assert_eq!(
        seen[2].body,
        json!({"content": "You were warned <@42>", "allowed_mentions": {"parse": []}})
    );
    assert_eq!(seen[5].body["trigger_type"], 1);
    assert_eq!(seen[5].reason.as_deref(), Some("config"));
    assert!(
        seen[6].body.get("trigger_type").is_none(),
        "{}",
        seen[6].body
    );
    assert_eq!(seen[7].reason.as_deref(), Some("filter%20off"));
}

#[tokio::test]
async fn slack_deletes_with_the_admin_token_when_given_and_dms_through_the_opened_channel() {
    let ok = |extra: Value| {
        let mut body = json!({"ok": true});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        (200, Some(body))
    };
    let (base, script) = fake(vec![
        ok(json!({})),
        (
            200,
            Some(json!({"ok": false, "error": "cant_delete_message"})),
        ),
        ok(json!({"channel": {"id": "D77"}})),
        ok(json!({"ts": "1.2"})),
        ok(json!({"message_ts": "1.3"})),
    ])
    .await;
    let with_admin = slack::Slack::new(clients(), Some(base.clone()), "xoxb-bot".into())
        .with_user_token(Some("xoxp-admin".into()));
    let bot_only = slack::Slack::new(clients(), Some(base), "xoxb-bot".into());
    with_admin
        .delete_message("C1", "1700000000.000100", Some("ignored"))
        .await
        .unwrap();
    let refused = bot_only
        .delete_message("C1", "1700000000.000100", None)
        .await;
    assert_eq!(
        refused,
        Err(PlatformError::Forbidden("cant_delete_message".into()))
    );
    with_admin
        .direct_message("U5", &Post::text("hello"))
        .await
        .unwrap();
    with_admin
        .post_ephemeral("C1", "U5", &Post::text("removed <!channel>"))
        .await
        .unwrap();

    let seen = seen(&script);
    let paths: Vec<&str> = seen.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/chat.delete",
            "/chat.delete",
            "/conversations.open",
            "/chat.postMessage",
            "/chat.postEphemeral"
        ]
    );
    let auth: Vec<Option<&str>> = seen.iter().map(|s| s.authorization.as_deref()).collect();
    assert_eq!(
        auth,
        [
            Some("Bearer xoxp-admin"),
            Some("Bearer xoxb-bot"),
            Some("Bearer xoxb-bot"),
            Some("Bearer xoxb-bot"),
            Some("Bearer xoxb-bot"),
        ]
    );
    assert_eq!(
        seen[0].body,
        json!({"channel": "C1", "ts": "1700000000.000100"})
    );
    assert_eq!(seen[2].body, json!({"users": "U5"}));
    assert_eq!(seen[3].body["channel"], "D77");
    assert_eq!(seen[4].body["user"], "U5");
    assert_eq!(seen[4].body["channel"], "C1");
    assert_eq!(seen[4].body["text"], "removed &lt;!channel&gt;");
}

#[tokio::test]
async fn telegram_deletes_by_integer_message_id_and_posts_escaped_html() {
    let (base, script) = fake(vec![
        (200, Some(json!({"ok": true, "result": true}))),
        (200, Some(json!({"ok": true, "result": {"message_id": 9}}))),
    ])
    .await;
    let token = "123:ABC";
    let telegram = telegram::Telegram::new(clients(), Some(base), token.into(), "-100200");
    telegram
        .delete_message("-100200", "55", None)
        .await
        .unwrap();
    let not_an_id = telegram.delete_message("-100200", "m55", None).await;
    assert!(
        matches!(not_an_id, Err(PlatformError::Invalid(_))),
        "{not_an_id:?}"
    );
    telegram
        .post("-100200", &Post::text("a <b> & c").titled("Log"))
        .await
        .unwrap();

    let seen = seen(&script);
    assert_eq!(seen.len(), 2, "an id that is not an integer is never sent");
    assert_eq!(seen[0].path, format!("/bot{token}/deleteMessage"));
    assert_eq!(seen[0].body, json!({"chat_id": -100200, "message_id": 55}));
    assert_eq!(seen[1].path, format!("/bot{token}/sendMessage"));
    assert_eq!(seen[1].body["chat_id"], -100200);
    assert_eq!(seen[1].body["text"], "<b>Log</b>\na &lt;b&gt; &amp; c");
    assert_eq!(seen[1].body["parse_mode"], "HTML");
}

#[tokio::test]
async fn discord_a_channel_that_takes_no_messages_refuses_and_a_bad_body_is_invalid() {
    let (base, _script) = fake(vec![
        (
            400,
            Some(json!({"message": "Cannot send messages in a non-text channel", "code": 50008})),
        ),
        (
            400,
            Some(json!({"message": "Invalid Form Body", "code": 50035,
                        "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 2000 or fewer in length."}]}}})),
        ),
    ])
    .await;
    let discord = discord::Discord::new(clients(), Some(base), "tok".into(), "10");
    let voice = discord.post("c1", &Post::text("hi")).await;
    assert!(
        matches!(voice, Err(PlatformError::Forbidden(ref m)) if m.contains("50008")),
        "{voice:?}"
    );
    let long = discord.post("c1", &Post::text("hi")).await;
    assert!(
        matches!(long, Err(PlatformError::Invalid(ref m)) if m.contains("content")),
        "{long:?}"
    );
}
