//! Every cell of the platform x action table (docs/api.md), against the
//! stateful fake platforms of the test support. Each test checks the exact
//! requests (method, path, body, auth header, audit-log reason, how many, and
//! that nothing else was written) and the effect on the fake community.
//! Plus hierarchy refusals and platform failures.

use modctl_client::{Client, ErrorKind, StatusCode};
use modctl_e2e::fakes::discord::{
    ADMIN_ROLE, BOT, JAIL_ROLE, MEMBER_ROLE, MOD_ROLE, OWNER, TOKEN as DISCORD_TOKEN,
};
use modctl_e2e::fakes::slack::{MODLOG_CHANNEL as SLACK_MODLOG, TOKEN as SLACK_TOKEN};
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram, Recorded, Reply};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, ActionResponse};
use serde_json::{Value, json};

const TARGET: &str = "500000000000000003";
/// A role of the target's that is not the member role, below the bot's.
const EXTRA_ROLE: &str = "600000000000000009";

const TG_USER: &str = "424242";
const SLACK_USER: &str = "U0TARGET01";

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

/// A fake guild where the bot has `bot_roles` and the target `target_roles`
/// (`None`: not a member).
fn fake_discord(bot_roles: &[&str], target_roles: Option<&[&str]>) -> FakeDiscord {
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.add_member(BOT, bot_roles);
    if let Some(roles) = target_roles {
        discord.add_member(TARGET, roles);
    }
    discord
}

fn member_path(user: &str) -> String {
    format!("/guilds/{ALPHA_DISCORD}/members/{user}")
}

fn ban_path(user: &str) -> String {
    format!("/guilds/{ALPHA_DISCORD}/bans/{user}")
}

/// Method and path of every request that could change something.
fn writes(requests: &[Recorded]) -> Vec<(String, String)> {
    requests
        .iter()
        .filter(|r| r.method != "GET")
        .map(|r| (r.method.clone(), r.path.clone()))
        .collect()
}

fn route(method: &str, path: &str) -> (String, String) {
    (method.to_owned(), path.to_owned())
}

/// Asserts that every request to the fake Discord carried the bot token and
/// the user agent Discord documents (`DiscordBot ($url, $versionNumber)`,
/// discord-docs/reference.mdx "User Agent"), and that the writes were exactly `expected`, in order, each with the audit-log
/// `reason` given (`None`: no header); returns the writes.
fn assert_discord_writes(
    discord: &FakeDiscord,
    expected: &[(&str, &str, Option<&str>)],
) -> Vec<Recorded> {
    let requests = discord.requests();
    for request in &requests {
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bot {DISCORD_TOKEN}").as_str()),
            "{} {}",
            request.method,
            request.path
        );
        let agent = request.header("user-agent").unwrap_or_default();
        assert!(
            agent.starts_with("DiscordBot (https://")
                && agent.ends_with(')')
                && agent.contains(", "),
            "user agent of {} {}: {agent:?}",
            request.method,
            request.path
        );
    }
    let wanted: Vec<_> = expected.iter().map(|(m, p, _)| route(m, p)).collect();
    assert_eq!(writes(&requests), wanted);
    let written: Vec<Recorded> = requests.into_iter().filter(|r| r.method != "GET").collect();
    for (request, (_, _, reason)) in written.iter().zip(expected) {
        assert_eq!(
            request.header("x-audit-log-reason"),
            *reason,
            "audit-log reason of {} {}",
            request.method,
            request.path
        );
    }
    written
}

/// Asserts that the fake Telegram was called with exactly these Bot API
/// methods, in order, each body including the given fields; returns the
/// bodies.
fn assert_telegram_calls(telegram: &FakeTelegram, expected: &[(&str, Value)]) -> Vec<Value> {
    let requests = telegram.requests();
    let called: Vec<_> = requests
        .iter()
        .map(|r| (r.method.clone(), r.path.clone()))
        .collect();
    let wanted: Vec<_> = expected
        .iter()
        .map(|(m, _)| route("POST", &FakeTelegram::path(m)))
        .collect();
    assert_eq!(called, wanted);
    for (request, (api_method, fields)) in requests.iter().zip(expected) {
        assert_includes(&request.body, fields, api_method);
    }
    requests.into_iter().map(|r| r.body).collect()
}

/// Asserts that every field of `expected` is in `actual` with that value.
fn assert_includes(actual: &Value, expected: &Value, what: &str) {
    let expected = expected.as_object().expect("expected fields");
    for (field, value) in expected {
        assert_eq!(&actual[field], value, "{what}.{field} in {actual}");
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
    // No strikes, so no escalation interferes with the table; no DMs, so
    // the writes are the actions' own (DMs are tested in dms.rs).
    for server in [ALPHA_DISCORD, ALPHA_TELEGRAM, ALPHA_SLACK] {
        daemon.set_config(server, SectionName::Strikes, json!({"enabled": false}));
        daemon.set_config(
            server,
            SectionName::Moderation,
            json!({"dm_on_action": false}),
        );
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
    let connect = |server: &FakeDiscord| {
        s.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &server.uri())
    };
    let member = Some(&[MEMBER_ROLE][..]);
    let target = member_path(TARGET);
    let ban = ban_path(TARGET);

    // note, warn: recorded, nothing sent.
    let discord = fake_discord(&[MOD_ROLE], member);
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
    assert_discord_writes(&discord, &[]);
    drop(discord);

    // timeout: PATCH member with communication_disabled_until only.
    let discord = fake_discord(&[MOD_ROLE], member);
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
    let sent = assert_discord_writes(&discord, &[("PATCH", &target, Some("too%20loud"))]);
    let fields = sent[0].body.as_object().expect("a JSON object");
    assert_eq!(fields.len(), 1, "{}", sent[0].body);
    let until = fields["communication_disabled_until"].as_str().unwrap();
    assert!(until_is_about(until, 30), "{until}");
    assert_eq!(discord.timed_out_until(TARGET).as_deref(), Some(until));
    drop(discord);

    // kick: DELETE member.
    let discord = fake_discord(&[MOD_ROLE], member);
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
    assert_discord_writes(&discord, &[("DELETE", &target, Some("spam%20%26%20scams"))]);
    assert!(!discord.is_member(TARGET));
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // ban: PUT ban with delete_message_seconds.
    let discord = fake_discord(&[MOD_ROLE], member);
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
    let sent = assert_discord_writes(&discord, &[("PUT", &ban, Some("raid"))]);
    assert_eq!(sent[0].body, json!({"delete_message_seconds": 172_800}));
    assert!(discord.is_banned(TARGET));
    assert_eq!(discord.ban_reason(TARGET).as_deref(), Some("raid"));
    assert!(!discord.is_member(TARGET));
    drop(discord);

    // unban: DELETE ban (the user is no longer a member).
    let discord = fake_discord(&[MOD_ROLE], None);
    discord.ban_seed(TARGET);
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
    assert_discord_writes(&discord, &[("DELETE", &ban, Some("appeal%20accepted"))]);
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // jail then unjail: roles saved and replaced by the jail role, then restored.
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE, EXTRA_ROLE]));
    discord.add_role(EXTRA_ROLE, 3, 0);
    connect(&discord);
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Jail, &request(TARGET)).await,
        true,
        "jailed until unjailed: 2 role(s) saved",
    );
    assert_eq!(discord.roles_of(TARGET), Some(vec![JAIL_ROLE.to_owned()]));
    let jails = s.client.jails(ALPHA_DISCORD).await.unwrap();
    assert_eq!(jails[0].saved_roles, [MEMBER_ROLE, EXTRA_ROLE]);
    assert_outcome(
        &s.act(ALPHA_DISCORD, Action::Unjail, &request(TARGET)).await,
        true,
        "released: 2 role(s) restored",
    );
    assert!(s.client.jails(ALPHA_DISCORD).await.unwrap().is_empty());
    let sent = assert_discord_writes(
        &discord,
        &[("PATCH", &target, None), ("PATCH", &target, None)],
    );
    assert_eq!(sent[0].body, json!({"roles": [JAIL_ROLE]}));
    assert_eq!(sent[1].body, json!({"roles": [MEMBER_ROLE, EXTRA_ROLE]}));
    assert_eq!(
        discord.roles_of(TARGET),
        Some(vec![MEMBER_ROLE.to_owned(), EXTRA_ROLE.to_owned()])
    );
}

/// A role an integration manages (the server booster role), below the bot.
const BOOSTER_ROLE: &str = "600000000000000010";

/// Discord refuses a member role list that adds or removes a managed role
/// (the fake answers `400 Invalid Role, 50028` as Discord does): a jail keeps
/// it, saves only what it took, and the unjail gives back exactly that,
/// without the roles the bot can no longer give.
#[tokio::test]
async fn discord_jail_keeps_managed_roles_and_gives_back_what_it_took() {
    let s = setup();
    let target = member_path(TARGET);
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE, BOOSTER_ROLE, EXTRA_ROLE]));
    discord.add_role(EXTRA_ROLE, 3, 0);
    discord.add_role(BOOSTER_ROLE, 4, 0);
    discord.mark_role(BOOSTER_ROLE, None, true);
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());

    let jailed = s.act(ALPHA_DISCORD, Action::Jail, &request(TARGET)).await;
    assert_outcome(
        &jailed,
        true,
        &format!(
            "jailed until unjailed: 2 role(s) saved, jail role given; kept 1 role(s) the bot may not take away (managed by Discord or an integration, or not below the bot's highest role): {BOOSTER_ROLE}"
        ),
    );
    assert_eq!(
        discord.roles_of(TARGET),
        Some(vec![BOOSTER_ROLE.to_owned(), JAIL_ROLE.to_owned()])
    );
    let jails = s.client.jails(ALPHA_DISCORD).await.unwrap();
    assert_eq!(jails[0].saved_roles, [MEMBER_ROLE, EXTRA_ROLE]);

    let released = s.act(ALPHA_DISCORD, Action::Unjail, &request(TARGET)).await;
    assert_outcome(&released, true, "released: 2 role(s) restored");
    assert_eq!(released.detail, "released: 2 role(s) restored");
    let sent = assert_discord_writes(
        &discord,
        &[("PATCH", &target, None), ("PATCH", &target, None)],
    );
    assert_eq!(sent[0].body, json!({"roles": [BOOSTER_ROLE, JAIL_ROLE]}));
    assert_eq!(
        sent[1].body,
        json!({"roles": [BOOSTER_ROLE, MEMBER_ROLE, EXTRA_ROLE]})
    );
    assert_eq!(
        discord.roles_of(TARGET),
        Some(vec![
            BOOSTER_ROLE.to_owned(),
            MEMBER_ROLE.to_owned(),
            EXTRA_ROLE.to_owned()
        ])
    );

    // A saved role deleted while they were jailed is not asked for (Discord
    // would refuse the whole list: 10011 Unknown Role), and the detail says so.
    s.act(ALPHA_DISCORD, Action::Jail, &request(TARGET)).await;
    discord.delete_role(EXTRA_ROLE);
    let released = s.act(ALPHA_DISCORD, Action::Unjail, &request(TARGET)).await;
    assert_eq!(
        released.detail,
        format!(
            "released: 1 role(s) restored; not given back, the bot may no longer give them (deleted, managed, or not below its highest role): {EXTRA_ROLE}"
        )
    );
    assert!(released.applied);
    assert_eq!(
        discord.roles_of(TARGET),
        Some(vec![BOOSTER_ROLE.to_owned(), MEMBER_ROLE.to_owned()])
    );
    assert!(s.client.jails(ALPHA_DISCORD).await.unwrap().is_empty());
}

/// guild.mdx, "Modify Guild Member": a timeout ends "up to 28 days in the
/// future", of Discord's clock. With the daemon's clock a minute ahead of
/// Discord's (the fake's is the machine's), a 28-day timeout is sent 5
/// minutes short, says so, and its case records the end sent; a clock
/// further ahead than the margin is refused, and the case says why.
#[tokio::test]
async fn discord_a_28_day_timeout_keeps_a_margin_for_clock_difference() {
    let s = setup();
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE]));
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let daemon = &s.fixture.daemon;
    daemon.clock().advance(std::time::Duration::from_secs(60));
    let body = ActionRequest {
        minutes: Some(40_320),
        ..request(TARGET)
    };

    let response = s.act(ALPHA_DISCORD, Action::Timeout, &body).await;
    assert!(response.applied, "{response:?}");
    assert!(
        response.detail.ends_with(
            "; 40320 minutes asked, cut to 28 days less 5 minutes: Discord refuses a timeout ending more than 28 days ahead of its own clock, and the margin allows for the daemon's clock being ahead of it"
        ),
        "{}",
        response.detail
    );
    let case = s
        .client
        .case(ALPHA_DISCORD, response.case_id)
        .await
        .unwrap();
    let expires = case.expires_at.expect("a timeout's end");
    assert_eq!(
        expires.as_second() - case.created_at.as_second(),
        28 * 86_400 - 300
    );
    let sent = discord.timed_out_until(TARGET).expect("timed out");
    assert_eq!(sent.parse::<modctl_types::Timestamp>().unwrap(), expires);

    // Ten minutes more ahead: beyond the margin, Discord refuses, and the
    // case names the field and Discord's reason.
    daemon.clock().advance(std::time::Duration::from_secs(600));
    let refused = s.act(ALPHA_DISCORD, Action::Timeout, &body).await;
    assert!(!refused.applied, "{refused:?}");
    assert_eq!(
        refused.detail,
        "not applied: the platform refused the request: Invalid Form Body, code 50035 (communication_disabled_until: Timeout cannot be longer than 28 days.)"
    );
    assert_eq!(
        discord.timed_out_until(TARGET).as_deref(),
        Some(sent.as_str())
    );
}

/// A ban may name a user who is not a member, but Discord refuses one it
/// does not know (`404 Unknown User, 10013`): the case says so and asks to
/// check the id; a user Discord knows is banned though not a member.
#[tokio::test]
async fn discord_a_ban_of_an_unknown_user_is_refused_clearly() {
    let s = setup();
    let discord = fake_discord(&[MOD_ROLE], None);
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());

    let refused = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_eq!(
        (refused.applied, refused.detail.as_str()),
        (
            false,
            "not applied: not found on the platform (Unknown User, code 10013): check the user id"
        )
    );
    assert!(!discord.is_banned(TARGET));

    discord.add_user(TARGET);
    let banned = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert!(banned.applied, "{banned:?}");
    assert!(discord.is_banned(TARGET));
}

fn all_send_permissions(allowed: bool) -> Value {
    json!({
        "can_send_messages": allowed, "can_send_audios": allowed, "can_send_documents": allowed,
        "can_send_photos": allowed, "can_send_videos": allowed, "can_send_video_notes": allowed,
        "can_send_voice_notes": allowed, "can_send_polls": allowed, "can_send_other_messages": allowed,
        "can_add_web_page_previews": allowed
    })
}

/// Every permission true: how Telegram lifts a restriction.
fn every_permission() -> Value {
    let mut permissions = all_send_permissions(true);
    for other in [
        "can_change_info",
        "can_invite_users",
        "can_pin_messages",
        "can_manage_topics",
    ] {
        permissions[other] = json!(true);
    }
    permissions
}

/// A fake Telegram group with the target a member.
fn fake_telegram(chat: i64, user: i64) -> FakeTelegram {
    let telegram = FakeTelegram::start(chat);
    telegram.add_member(user);
    telegram
}

#[tokio::test]
async fn telegram_every_action() {
    let s = setup();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let user: i64 = TG_USER.parse().unwrap();
    let connect = |server: &FakeTelegram| {
        s.fixture
            .daemon
            .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &server.uri())
    };

    // note, warn: case recorded only.
    let telegram = fake_telegram(chat, user);
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
    assert_telegram_calls(&telegram, &[]);
    drop(telegram);

    // timeout: a mute with restrictChatMember until the end.
    let telegram = fake_telegram(chat, user);
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
    let sent = assert_telegram_calls(
        &telegram,
        &[(
            "restrictChatMember",
            json!({"chat_id": chat, "user_id": user, "permissions": all_send_permissions(false)}),
        )],
    );
    let until = sent[0]["until_date"].as_i64().unwrap();
    assert!((until - (jiff_now() + 90 * 60)).abs() <= 5, "{}", sent[0]);
    assert_eq!(telegram.muted_until(user), Some(until));
    assert_eq!(telegram.status_of(user).as_deref(), Some("restricted"));
    drop(telegram);

    // kick: banChatMember then unbanChatMember.
    let telegram = fake_telegram(chat, user);
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Kick, &request(TG_USER)).await,
        true,
        "removed with a ban followed by an unban",
    );
    assert_telegram_calls(
        &telegram,
        &[
            (
                "banChatMember",
                json!({"chat_id": chat, "user_id": user, "revoke_messages": false}),
            ),
            (
                "unbanChatMember",
                json!({"chat_id": chat, "user_id": user, "only_if_banned": true}),
            ),
        ],
    );
    assert_eq!(telegram.status_of(user).as_deref(), Some("left"));
    drop(telegram);

    // ban: banChatMember, revoking messages when deletion is asked.
    let telegram = fake_telegram(chat, user);
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
    assert_telegram_calls(
        &telegram,
        &[(
            "banChatMember",
            json!({"chat_id": chat, "user_id": user, "revoke_messages": true}),
        )],
    );
    assert!(telegram.is_banned(user));
    drop(telegram);

    // unban: unbanChatMember only_if_banned.
    let telegram = fake_telegram(chat, user);
    telegram.ban_seed(user);
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Unban, &request(TG_USER))
            .await,
        true,
        "ban lifted (unbanChatMember)",
    );
    assert_telegram_calls(
        &telegram,
        &[(
            "unbanChatMember",
            json!({"chat_id": chat, "user_id": user, "only_if_banned": true}),
        )],
    );
    assert!(!telegram.is_banned(user));
    drop(telegram);

    // jail: a mute for good (until_date 0); unjail: every permission back,
    // also in a group whose members may invite by default.
    let telegram = fake_telegram(chat, user);
    telegram.set_default_permissions(json!({"can_invite_users": true}));
    connect(&telegram);
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Jail, &request(TG_USER)).await,
        true,
        "jailed: muted until unjailed",
    );
    assert_eq!(telegram.muted_until(user), Some(0));
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Unjail, &request(TG_USER))
            .await,
        true,
        "released: send permissions restored",
    );
    assert_telegram_calls(
        &telegram,
        &[
            (
                "restrictChatMember",
                json!({"chat_id": chat, "user_id": user, "permissions": all_send_permissions(false), "until_date": 0}),
            ),
            (
                "restrictChatMember",
                json!({"chat_id": chat, "user_id": user, "permissions": every_permission()}),
            ),
        ],
    );
    assert_eq!(telegram.status_of(user).as_deref(), Some("member"));
}

#[tokio::test]
async fn slack_every_action() {
    let s = setup();
    let slack = FakeSlack::start();
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
    assert_outcome(
        &timeout,
        false,
        "case recorded; Slack has no timeouts a bot can set: restrict the member on the administrator side",
    );
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

    // Exactly the two mod-log posts, nothing else. Posts never ping (issue
    // #25): the member is named, escaped, so Slack shows `<@U...>` as
    // written instead of mentioning them.
    let texts = [
        format!("Note for &lt;@{SLACK_USER}&gt;: watch closely"),
        format!("Warning for &lt;@{SLACK_USER}&gt;: be nice"),
    ];
    let requests = slack.requests();
    assert_eq!(
        writes(&requests),
        [
            route("POST", "/chat.postMessage"),
            route("POST", "/chat.postMessage")
        ]
    );
    for (request, text) in requests.iter().zip(&texts) {
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {SLACK_TOKEN}").as_str())
        );
        assert_eq!(request.body["channel"], SLACK_MODLOG);
        assert_eq!(request.body["text"], json!(text));
        assert_eq!(request.body["blocks"][0]["text"]["text"], json!(text));
        assert_eq!(request.body["parse"], "none");
        assert_eq!(request.body["link_names"], false);
    }
    assert_eq!(slack.messages(SLACK_MODLOG), texts);

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
        let discord = fake_discord(bot_roles, target_roles);
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
        assert_discord_writes(&discord, &[]);
        let roles: Option<Vec<String>> =
            target_roles.map(|roles| roles.iter().map(|r| (*r).to_owned()).collect());
        assert_eq!(discord.roles_of(TARGET), roles, "the target is untouched");
        assert_eq!(discord.timed_out_until(TARGET), None);
    }

    // The owner can never be acted on.
    let discord = fake_discord(&[ADMIN_ROLE], Some(&[]));
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    let response = s.act(ALPHA_DISCORD, Action::Kick, &request(OWNER)).await;
    assert_eq!(
        response.detail,
        "not applied: the target is the server owner"
    );
    assert_discord_writes(&discord, &[]);
    assert!(discord.is_member(OWNER));
    // Every refusal is still a case.
    assert_eq!(
        s.client.all_cases(ALPHA_DISCORD, None).await.unwrap().len(),
        6
    );
}

#[tokio::test]
async fn platform_failures_become_applied_false_and_the_case_is_kept() {
    let s = setup();
    let connect = |server: &FakeDiscord| {
        s.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &server.uri())
    };
    let member = Some(&[MEMBER_ROLE][..]);
    let ban = ban_path(TARGET);
    let target = member_path(TARGET);

    // 403 from the platform.
    let discord = fake_discord(&[MOD_ROLE], member);
    discord.fail(
        "PUT",
        &ban,
        403,
        json!({"message": "Missing Permissions", "code": 50013}),
        1,
    );
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: the platform refused (Missing Permissions, code 50013)",
    );
    assert_discord_writes(&discord, &[("PUT", &ban, None)]);
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // 404 from the platform.
    let discord = fake_discord(&[MOD_ROLE], member);
    discord.fail(
        "DELETE",
        &target,
        404,
        json!({"message": "Unknown Member", "code": 10007}),
        1,
    );
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Kick, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: not found on the platform (Unknown Member, code 10007)",
    );
    assert_discord_writes(&discord, &[("DELETE", &target, None)]);
    assert!(discord.is_member(TARGET));
    drop(discord);

    // 429, then success: retried after retry_after.
    let discord = fake_discord(&[MOD_ROLE], member);
    discord.fail(
        "PUT",
        &ban,
        429,
        json!({"message": "You are being rate limited.", "retry_after": 0.2, "global": false}),
        1,
    );
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(&response, true, "banned");
    assert_discord_writes(&discord, &[("PUT", &ban, None), ("PUT", &ban, None)]);
    assert!(discord.is_banned(TARGET));
    drop(discord);

    // 5xx every time: a bounded number of attempts, then applied: false.
    let discord = fake_discord(&[MOD_ROLE], member);
    discord.fail("PUT", &ban, 502, json!({"message": "Bad Gateway"}), 10);
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: the platform failed with status 502: Bad Gateway, and asked afterwards discord shows the ban was not carried out",
    );
    assert_discord_writes(&discord, &[("PUT", ban.as_str(), None); 3]);
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // A 429 longer than the daemon waits: not retried, said so.
    let discord = fake_discord(&[MOD_ROLE], member);
    discord.fail(
        "PUT",
        &ban,
        429,
        json!({"message": "slow down", "retry_after": 600.0}),
        10,
    );
    connect(&discord);
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: still rate limited by the platform after retrying (retry after 600.0s)",
    );
    assert_discord_writes(&discord, &[("PUT", &ban, None)]);
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // A token the platform does not accept: nothing written, and said so.
    let discord = fake_discord(&[MOD_ROLE], member);
    s.fixture
        .daemon
        .connect_live(ALPHA_DISCORD, "not.the.token", &discord.uri());
    let response = s.act(ALPHA_DISCORD, Action::Ban, &request(TARGET)).await;
    assert_outcome(
        &response,
        false,
        "not applied: the platform refused the bot token",
    );
    assert!(
        !response.detail.contains("not.the.token"),
        "{}",
        response.detail
    );
    assert!(writes(&discord.requests()).is_empty());
    assert!(!discord.is_banned(TARGET));
    drop(discord);

    // Telegram's own 429 format.
    let user: i64 = TG_USER.parse().unwrap();
    let telegram = fake_telegram(ALPHA_TELEGRAM.parse().unwrap(), user);
    let ban_chat_member = FakeTelegram::path("banChatMember");
    telegram.fail_with(
        "POST",
        &ban_chat_member,
        Reply::json(
            429,
            json!({"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}}),
        ),
        1,
    );
    s.fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Ban, &request(TG_USER)).await,
        true,
        "banned",
    );
    assert_eq!(telegram.requests_to("POST", &ban_chat_member).len(), 2);
    assert_eq!(telegram.requests().len(), 2, "nothing else was called");
    assert!(telegram.is_banned(user));

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
        6
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
    let discord = fake_discord(&[MOD_ROLE], Some(&[MEMBER_ROLE]));
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

/// Issue #23: Telegram answers CHAT_ADMIN_REQUIRED to a bot that is no
/// administrator and "not enough rights" to one without the right: both are
/// refusals to fix on Telegram (the bot's rights), not invalid requests.
#[tokio::test]
async fn telegram_missing_admin_rights_are_refusals() {
    let s = setup();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let user: i64 = TG_USER.parse().unwrap();
    let timeout = ActionRequest {
        minutes: Some(60),
        ..request(TG_USER)
    };

    let telegram = fake_telegram(chat, user);
    telegram.set_bot_admin(false);
    s.fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Timeout, &timeout).await,
        false,
        "not applied: the platform refused (Bad Request: CHAT_ADMIN_REQUIRED): give the bot the permission",
    );
    assert!(!telegram.is_muted(user));
    drop(telegram);

    let telegram = fake_telegram(chat, user);
    telegram.set_bot_can_restrict(false);
    s.fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    assert_outcome(
        &s.act(ALPHA_TELEGRAM, Action::Ban, &request(TG_USER)).await,
        false,
        "not applied: the platform refused (Bad Request: not enough rights",
    );
    assert!(!telegram.is_banned(user));
}
