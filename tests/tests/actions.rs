//! Every cell of the platform x action table (docs/api.md), against local fake
//! platform servers that check the exact requests: method, path, body, auth
//! header and audit-log reason. Plus hierarchy refusals and platform failures.

use modctl_client::{Client, ErrorKind, StatusCode};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, ActionResponse};
use serde_json::{Value, json};
use wiremock::matchers::{body_json, body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const DISCORD_TOKEN: &str = "fake.discord.token";
const TELEGRAM_TOKEN: &str = "123456:fake-telegram-token";
const SLACK_TOKEN: &str = "xoxb-fake-slack-token";

const BOT: &str = "500000000000000001";
const OWNER: &str = "500000000000000002";
const TARGET: &str = "500000000000000003";
const MOD_ROLE: &str = "600000000000000001";
const MEMBER_ROLE: &str = "600000000000000002";
const ADMIN_ROLE: &str = "600000000000000003";
const JAIL_ROLE: &str = "600000000000000004";
/// KICK_MEMBERS | BAN_MEMBERS | MANAGE_ROLES | MODERATE_MEMBERS
const MOD_PERMISSIONS: u64 = 2 | 4 | (1 << 28) | (1 << 40);

const TG_USER: &str = "424242";
const SLACK_USER: &str = "U0TARGET01";
const SLACK_MODLOG: &str = "C0MODLOG01";

fn request(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        ..Default::default()
    }
}

fn with_reason(user: &str, reason: &str) -> ActionRequest {
    ActionRequest {
        reason: Some(reason.into()),
        ..request(user)
    }
}

/// Fails the test if anything but the mocks mounted with a higher priority
/// is called with a method that changes something.
async fn forbid_other_writes(server: &MockServer) {
    for verb in ["PUT", "PATCH", "DELETE", "POST"] {
        Mock::given(method(verb))
            .respond_with(ResponseTemplate::new(500))
            .expect(0)
            .with_priority(u8::MAX)
            .mount(server)
            .await;
    }
}

/// A fake Discord guild: the bot has `bot_roles`, the target `target_roles`
/// (`None`: not a member).
async fn fake_discord(bot_roles: &[&str], target_roles: Option<&[&str]>) -> MockServer {
    let server = MockServer::start().await;
    let auth = format!("Bot {DISCORD_TOKEN}");
    let role = |id: &str, position: i64, permissions: u64| json!({"id": id, "position": position, "permissions": permissions.to_string()});
    let guild = json!({
        "id": ALPHA_DISCORD,
        "owner_id": OWNER,
        "roles": [
            role(ALPHA_DISCORD, 0, 0),
            role(MOD_ROLE, 5, MOD_PERMISSIONS),
            role(MEMBER_ROLE, 1, 0),
            role(ADMIN_ROLE, 10, 8),
            role(JAIL_ROLE, 2, 0),
        ]
    });
    Mock::given(method("GET"))
        .and(path(format!("/guilds/{ALPHA_DISCORD}")))
        .and(header("authorization", auth.as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(guild))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/users/@me"))
        .and(header("authorization", auth.as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": BOT, "bot": true})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/guilds/{ALPHA_DISCORD}/members/{BOT}")))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"user": {"id": BOT}, "roles": bot_roles})),
        )
        .mount(&server)
        .await;
    let target = match target_roles {
        Some(roles) => ResponseTemplate::new(200)
            .set_body_json(json!({"user": {"id": TARGET}, "roles": roles})),
        None => ResponseTemplate::new(404)
            .set_body_json(json!({"message": "Unknown Member", "code": 10007})),
    };
    Mock::given(method("GET"))
        .and(path(format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}")))
        .respond_with(target)
        .mount(&server)
        .await;
    forbid_other_writes(&server).await;
    server
}

/// A Discord write the adapter must send exactly once.
fn discord_write(verb: &str, route: String, reason: Option<&str>) -> wiremock::MockBuilder {
    let builder = Mock::given(method(verb)).and(path(route)).and(header(
        "authorization",
        format!("Bot {DISCORD_TOKEN}").as_str(),
    ));
    match reason {
        Some(reason) => builder.and(header("x-audit-log-reason", reason)),
        None => builder,
    }
}

struct Setup {
    fixture: Fixture,
    client: Client,
}

fn setup() -> Setup {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Jail,
        json!({"enabled": true, "role_id": JAIL_ROLE}),
    );
    daemon.set_config(ALPHA_TELEGRAM, SectionName::Jail, json!({"enabled": true}));
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::General,
        json!({"modlog_channel_id": SLACK_MODLOG}),
    );
    // No strikes, so no escalation interferes with the table.
    for server in [ALPHA_DISCORD, ALPHA_TELEGRAM, ALPHA_SLACK] {
        daemon.set_config(server, SectionName::Strikes, json!({"enabled": false}));
    }
    let client = daemon.client(&fixture.alpha_rw);
    Setup { fixture, client }
}

impl Setup {
    async fn act(&self, server: &str, action: Action, body: &ActionRequest) -> ActionResponse {
        self.client
            .perform_action(server, action, body)
            .await
            .unwrap_or_else(|e| panic!("{action}: {e}"))
    }
}

fn assert_outcome(response: &ActionResponse, applied: bool, detail_starts: &str) {
    assert_eq!(response.applied, applied, "{response:?}");
    assert!(
        response.detail.starts_with(detail_starts),
        "detail {:?} should start with {detail_starts:?}",
        response.detail
    );
}

fn until_is_about(value: &str, minutes: i64) -> bool {
    let Ok(until) = value.parse::<modctl_types::Timestamp>() else {
        return false;
    };
    let expected = jiff_now() + minutes * 60;
    (until.as_second() - expected).abs() <= 5
}

fn jiff_now() -> i64 {
    jiff::Timestamp::now().as_second()
}

#[tokio::test]
async fn discord_every_action() {
    let s = setup();
    let connect = |server: &MockServer| {
        s.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &server.uri())
    };
    let member = Some(&[MEMBER_ROLE][..]);

    // note, warn: recorded, nothing sent.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    connect(&discord);
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Note, &request(TARGET)).await,
        true,
        "note recorded",
    );
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Warn, &request(TARGET)).await,
        true,
        "warning recorded",
    );
    drop(discord);

    // timeout: PATCH member with communication_disabled_until.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write(
        "PATCH",
        format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
        Some("too%20loud"),
    )
    .and(|req: &Request| {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        body.as_object().is_some_and(|o| o.len() == 1)
            && body["communication_disabled_until"]
                .as_str()
                .is_some_and(|u| until_is_about(u, 30))
    })
    .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    let body = ActionRequest {
        minutes: Some(30),
        ..with_reason(TARGET, "too loud")
    };
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Timeout, &body).await,
        true,
        "timed out until",
    );
    drop(discord);

    // kick: DELETE member.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write(
        "DELETE",
        format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
        Some("spam%20%26%20scams"),
    )
    .respond_with(ResponseTemplate::new(204))
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    assert_outcome(
        &s.act(
            ALPHA_DISCORD,
            Action::Kick,
            &with_reason(TARGET, "spam & scams"),
        )
        .await,
        true,
        "kicked",
    );
    drop(discord);

    // ban: PUT ban with delete_message_seconds.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write(
        "PUT",
        format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}"),
        Some("raid"),
    )
    .and(body_json(json!({"delete_message_seconds": 172_800})))
    .respond_with(ResponseTemplate::new(204))
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    let body = ActionRequest {
        delete_message_days: Some(2),
        ..with_reason(TARGET, "raid")
    };
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Ban, &body).await,
        true,
        "banned; deleted 2 day(s)",
    );
    drop(discord);

    // unban: DELETE ban (the user is no longer a member).
    let discord = fake_discord(&[MOD_ROLE], None).await;
    discord_write(
        "DELETE",
        format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}"),
        Some("appeal%20accepted"),
    )
    .respond_with(ResponseTemplate::new(204))
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    assert_outcome(
        &s.act(
            ALPHA_DISCORD,
            Action::Unban,
            &with_reason(TARGET, "appeal accepted"),
        )
        .await,
        true,
        "ban lifted",
    );
    drop(discord);

    // jail then unjail: roles saved and replaced by the jail role, then restored.
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE, "600000000000000009"])).await;
    discord_write(
        "PATCH",
        format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
        None,
    )
    .and(body_json(json!({"roles": [JAIL_ROLE]})))
    .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
    .expect(1)
    .mount(&discord)
    .await;
    discord_write(
        "PATCH",
        format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
        None,
    )
    .and(body_json(
        json!({"roles": [MEMBER_ROLE, "600000000000000009"]}),
    ))
    .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Jail, &request(TARGET)).await,
        true,
        "jailed until unjailed: 2 role(s) saved",
    );
    let jails = s.client.jails(ALPHA_DISCORD).await.unwrap();
    assert_eq!(jails[0].saved_roles, [MEMBER_ROLE, "600000000000000009"]);
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Unjail, &request(TARGET)).await,
        true,
        "released: 2 role(s) restored",
    );
    assert!(s.client.jails(ALPHA_DISCORD).await.unwrap().is_empty());
}

/// A fake Telegram Bot API; `calls` are the methods expected once each, in
/// any order, with their partial bodies.
async fn fake_telegram(calls: &[(&str, Value)]) -> MockServer {
    let server = MockServer::start().await;
    for (api_method, body) in calls {
        Mock::given(method("POST"))
            .and(path(format!("/bot{TELEGRAM_TOKEN}/{api_method}")))
            .and(body_partial_json(body))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({"ok": true, "result": true})),
            )
            .expect(1)
            .mount(&server)
            .await;
    }
    forbid_other_writes(&server).await;
    server
}

fn all_send_permissions(allowed: bool) -> Value {
    json!({
        "can_send_messages": allowed, "can_send_audios": allowed, "can_send_documents": allowed,
        "can_send_photos": allowed, "can_send_videos": allowed, "can_send_video_notes": allowed,
        "can_send_voice_notes": allowed, "can_send_polls": allowed, "can_send_other_messages": allowed,
        "can_add_web_page_previews": allowed
    })
}

#[tokio::test]
async fn telegram_every_action() {
    let s = setup();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let user: i64 = TG_USER.parse().unwrap();
    let connect = |server: &MockServer| {
        s.fixture
            .daemon
            .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &server.uri())
    };

    // note, warn: case recorded only.
    let telegram = fake_telegram(&[]).await;
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Note, &request(TG_USER)).await,
        false,
        "case recorded only",
    );
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Warn, &request(TG_USER)).await,
        false,
        "case recorded only",
    );
    drop(telegram);

    // timeout: a mute with restrictChatMember until the end.
    let telegram = fake_telegram(&[(
        "restrictChatMember",
        json!({"chat_id": chat, "user_id": user, "permissions": all_send_permissions(false)}),
    )])
    .await;
    connect(&telegram);
    let response = s
        .act(
            ALPHA_TELEGRAM,
            Action::Timeout,
            &ActionRequest {
                minutes: Some(90),
                ..request(TG_USER)
            },
        )
        .await;
    assert_outcome(&response, true, "muted until");
    let sent: Value =
        serde_json::from_slice(&telegram.received_requests().await.unwrap()[0].body).unwrap();
    assert!(
        (sent["until_date"].as_i64().unwrap() - (jiff_now() + 90 * 60)).abs() <= 5,
        "{sent}"
    );
    drop(telegram);

    // kick: banChatMember then unbanChatMember.
    let telegram = fake_telegram(&[
        (
            "banChatMember",
            json!({"chat_id": chat, "user_id": user, "revoke_messages": false}),
        ),
        (
            "unbanChatMember",
            json!({"chat_id": chat, "user_id": user, "only_if_banned": true}),
        ),
    ])
    .await;
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Kick, &request(TG_USER)).await,
        true,
        "removed with a ban followed by an unban",
    );
    let order: Vec<String> = telegram
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(
        order,
        [
            format!("/bot{TELEGRAM_TOKEN}/banChatMember"),
            format!("/bot{TELEGRAM_TOKEN}/unbanChatMember")
        ]
    );
    drop(telegram);

    // ban: banChatMember, revoking messages when deletion is asked.
    let telegram = fake_telegram(&[(
        "banChatMember",
        json!({"chat_id": chat, "user_id": user, "revoke_messages": true}),
    )])
    .await;
    connect(&telegram);
    let body = ActionRequest {
        delete_message_days: Some(1),
        ..request(TG_USER)
    };
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Ban, &body).await,
        true,
        "banned (banChatMember); their messages were revoked",
    );
    drop(telegram);

    // unban: unbanChatMember only_if_banned.
    let telegram = fake_telegram(&[(
        "unbanChatMember",
        json!({"chat_id": chat, "user_id": user, "only_if_banned": true}),
    )])
    .await;
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Unban, &request(TG_USER))
            .await,
        true,
        "ban lifted (unbanChatMember)",
    );
    drop(telegram);

    // jail: a mute for good (until_date 0); unjail: every permission back.
    let telegram = fake_telegram(&[
        (
            "restrictChatMember",
            json!({"chat_id": chat, "user_id": user, "permissions": all_send_permissions(false), "until_date": 0}),
        ),
        ("restrictChatMember", json!({"chat_id": chat, "user_id": user, "permissions": all_send_permissions(true)})),
    ])
    .await;
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Jail, &request(TG_USER)).await,
        true,
        "jailed: muted until unjailed",
    );
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Unjail, &request(TG_USER))
            .await,
        true,
        "released: send permissions restored",
    );
}

#[tokio::test]
async fn slack_every_action() {
    let s = setup();
    let slack = MockServer::start().await;
    for (kind, reason) in [("Note", "watch closely"), ("Warning", "be nice")] {
        Mock::given(method("POST"))
            .and(path("/chat.postMessage"))
            .and(header("authorization", format!("Bearer {SLACK_TOKEN}").as_str()))
            .and(body_json(json!({"channel": SLACK_MODLOG, "text": format!("{kind} for <@{SLACK_USER}>: {reason}")})))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true, "ts": "1.2"})))
            .expect(1)
            .mount(&slack)
            .await;
    }
    forbid_other_writes(&slack).await;
    s.fixture
        .daemon
        .connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());

    let note = s
        .act(
            ALPHA_SLACK,
            Action::Note,
            &with_reason(SLACK_USER, "watch closely"),
        )
        .await;
    assert_outcome(&note, true, "case recorded and written to the mod-log");
    let warn = s
        .act(
            ALPHA_SLACK,
            Action::Warn,
            &with_reason(SLACK_USER, "be nice"),
        )
        .await;
    assert_outcome(&warn, true, "case recorded and written to the mod-log");
    let admin_side = "case recorded; removal from the workspace is done on the administrator side";
    let timeout = s
        .act(
            ALPHA_SLACK,
            Action::Timeout,
            &ActionRequest {
                minutes: Some(10),
                ..request(SLACK_USER)
            },
        )
        .await;
    assert_outcome(&timeout, false, admin_side);
    assert_outcome(
        &s.act(ALPHA_SLACK, Action::Kick, &request(SLACK_USER)).await,
        false,
        admin_side,
    );
    assert_outcome(
        &s.act(ALPHA_SLACK, Action::Ban, &request(SLACK_USER)).await,
        false,
        "case recorded; Slack bots cannot ban",
    );
    assert_outcome(
        &s.act(ALPHA_SLACK, Action::Unban, &request(SLACK_USER))
            .await,
        false,
        "case recorded; reactivate the account",
    );

    let err = s
        .client
        .perform_action(ALPHA_SLACK, Action::Jail, &request(SLACK_USER))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
    assert!(
        err.message().starts_with("jail is not available on slack"),
        "{}",
        err.message()
    );
    let err = s
        .client
        .perform_action(ALPHA_SLACK, Action::Unjail, &request(SLACK_USER))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert_eq!(
        err.message(),
        format!("user {SLACK_USER} is not jailed on this server")
    );

    // Six cases, all on record.
    let cases = s.client.all_cases(ALPHA_SLACK, None).await.unwrap();
    assert_eq!(cases.len(), 6);
}

#[tokio::test]
async fn discord_hierarchy_and_permission_refusals_send_nothing() {
    let s = setup();
    // (bot roles, target roles or not a member, action, detail)
    type Refusal<'a> = (&'a [&'a str], Option<&'a [&'a str]>, Action, &'a str);
    let cases: Vec<Refusal<'_>> = vec![
        (
            &[MOD_ROLE],
            Some(&[ADMIN_ROLE]),
            Action::Ban,
            "not applied: bot's highest role is below the target's",
        ),
        (
            &[MOD_ROLE],
            Some(&[MOD_ROLE]),
            Action::Kick,
            "not applied: bot's highest role is below the target's",
        ),
        (
            &[MEMBER_ROLE],
            Some(&[]),
            Action::Kick,
            "not applied: the bot lacks the Kick Members permission",
        ),
        (
            &[ADMIN_ROLE],
            Some(&[ADMIN_ROLE]),
            Action::Timeout,
            "not applied: administrators cannot be timed out",
        ),
        (
            &[MOD_ROLE],
            None,
            Action::Timeout,
            "not applied: the user is not a member of this server",
        ),
    ];
    for (bot_roles, target_roles, action, detail) in cases {
        let discord = fake_discord(bot_roles, target_roles).await;
        s.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
        let body = ActionRequest {
            minutes: (action == Action::Timeout).then_some(10),
            ..request(TARGET)
        };
        let response = s.act(ALPHA_DISCORD, action, &body).await;
        assert_eq!(
            (response.applied, response.detail.as_str()),
            (false, detail),
            "{action} with bot {bot_roles:?}"
        );
        // The catch-all mocks verify on drop that nothing was changed.
    }

    // The owner can never be acted on.
    let discord = fake_discord(&[ADMIN_ROLE], Some(&[])).await;
    let owner_member =
        ResponseTemplate::new(200).set_body_json(json!({"user": {"id": OWNER}, "roles": []}));
    Mock::given(method("GET"))
        .and(path(format!("/guilds/{ALPHA_DISCORD}/members/{OWNER}")))
        .respond_with(owner_member)
        .mount(&discord)
        .await;
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let response = s.act(ALPHA_DISCORD, Action::Kick, &request(OWNER)).await;
    assert_eq!(
        response.detail,
        "not applied: the target is the server owner"
    );
    // Every refusal is still a case.
    assert_eq!(
        s.client.all_cases(ALPHA_DISCORD, None).await.unwrap().len(),
        6
    );
}

#[tokio::test]
async fn platform_failures_become_applied_false_and_the_case_is_kept() {
    let s = setup();
    let connect = |server: &MockServer| {
        s.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &server.uri())
    };
    let member = Some(&[MEMBER_ROLE][..]);
    let ban_route = format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}");

    // 403 from the platform.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write("PUT", ban_route.clone(), None)
        .respond_with(
            ResponseTemplate::new(403)
                .set_body_json(json!({"message": "Missing Permissions", "code": 50013})),
        )
        .expect(1)
        .mount(&discord)
        .await;
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: the platform refused (Missing Permissions, code 50013)",
    );
    drop(discord);

    // 404 from the platform.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write(
        "DELETE",
        format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
        None,
    )
    .respond_with(
        ResponseTemplate::new(404)
            .set_body_json(json!({"message": "Unknown Member", "code": 10007})),
    )
    .expect(1)
    .mount(&discord)
    .await;
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Kick, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: not found on the platform (Unknown Member, code 10007)",
    );
    drop(discord);

    // 429, then success: retried after retry_after.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write("PUT", ban_route.clone(), None)
        .respond_with(ResponseTemplate::new(429).set_body_json(
            json!({"message": "You are being rate limited.", "retry_after": 0.2, "global": false}),
        ))
        .up_to_n_times(1)
        .expect(1)
        .with_priority(1)
        .mount(&discord)
        .await;
    discord_write("PUT", ban_route.clone(), None)
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&discord)
        .await;
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(&response, true, "banned");
    drop(discord);

    // 5xx every time: a bounded number of attempts, then applied: false.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write("PUT", ban_route.clone(), None)
        .respond_with(ResponseTemplate::new(502).set_body_json(json!({"message": "Bad Gateway"})))
        .expect(3)
        .mount(&discord)
        .await;
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: the platform failed with status 502 (Bad Gateway) after retrying",
    );
    drop(discord);

    // A 429 longer than the daemon waits: not retried, said so.
    let discord = fake_discord(&[MOD_ROLE], member).await;
    discord_write("PUT", ban_route, None)
        .respond_with(
            ResponseTemplate::new(429)
                .set_body_json(json!({"message": "slow down", "retry_after": 600.0})),
        )
        .expect(1)
        .mount(&discord)
        .await;
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: still rate limited by the platform after retrying (retry after 600.0s)",
    );
    drop(discord);

    // Telegram's own 429 format.
    let telegram = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(format!("/bot{TELEGRAM_TOKEN}/banChatMember")))
        .respond_with(ResponseTemplate::new(429).set_body_json(
            json!({"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}}),
        ))
        .up_to_n_times(1)
        .with_priority(1)
        .expect(1)
        .mount(&telegram)
        .await;
    Mock::given(method("POST"))
        .and(path(format!("/bot{TELEGRAM_TOKEN}/banChatMember")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true, "result": true})))
        .expect(1)
        .mount(&telegram)
        .await;
    s.fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Ban, &request(TG_USER)).await,
        true,
        "banned",
    );

    // An unreachable platform.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    s.fixture.daemon.connect_live(
        ALPHA_TELEGRAM,
        TELEGRAM_TOKEN,
        &format!("http://127.0.0.1:{port}"),
    );
    let response = s.act(ALPHA_TELEGRAM, Action::Ban, &request(TG_USER)).await;
    assert_outcome(&response, false, "not applied: cannot reach the platform");
    assert!(
        !response.detail.contains(TELEGRAM_TOKEN),
        "the token leaked into the detail: {}",
        response.detail
    );

    // Every attempt is on record.
    assert_eq!(
        s.client.all_cases(ALPHA_DISCORD, None).await.unwrap().len(),
        5
    );
    assert_eq!(
        s.client
            .all_cases(ALPHA_TELEGRAM, None)
            .await
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn an_unconnected_server_records_the_case_and_says_how_to_connect() {
    let s = setup();
    let response = s.act(ALPHA_DISCORD, Action::Kick, &request(TARGET)).await;
    assert!(!response.applied);
    assert!(
        response.detail.contains("modctld server connect"),
        "{}",
        response.detail
    );
    assert_eq!(
        s.client
            .case(ALPHA_DISCORD, response.case_id)
            .await
            .unwrap()
            .action,
        Action::Kick
    );
}

#[tokio::test]
async fn the_token_never_appears_in_responses() {
    let s = setup();
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE])).await;
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    s.act(ALPHA_DISCORD, Action::Note, &request(TARGET)).await;
    let http = reqwest::Client::new();
    for route in [
        "",
        "/config",
        "/config/export",
        "/cases",
        "/strikes",
        "/jails",
    ] {
        let text = http
            .get(
                s.fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}{route}")),
            )
            .bearer_auth(&s.fixture.alpha_rw.full)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!text.contains(DISCORD_TOKEN), "token leaked by {route}");
    }
}

#[tokio::test]
async fn read_only_keys_cannot_act() {
    let s = setup();
    let reader = s.fixture.daemon.client(&s.fixture.alpha_ro);
    let err = reader
        .perform_action(ALPHA_DISCORD, Action::Note, &request(TARGET))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden);
    reader
        .cases(ALPHA_DISCORD, &Default::default())
        .await
        .unwrap();
}
