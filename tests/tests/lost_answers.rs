//! Platform calls whose answer does not say what happened (issue #22, item
//! 8): the platform carried the call out and then answered 502, or never
//! answered. A call that may have reached the platform is never repeated
//! when a repeat could act twice or answer differently, and its case never
//! says "not applied" unless the platform, asked afterwards, shows it was
//! not: it is `applied` (with its strikes), `not applied`, or `unknown`
//! with what to check.

use std::time::Duration;

use modctl_client::Client;
use modctl_e2e::fakes::discord::{BOT, MEMBER_ROLE, MOD_ROLE, TOKEN as DISCORD_TOKEN};
use modctl_e2e::fakes::slack::{MODLOG_CHANNEL as SLACK_MODLOG, TOKEN as SLACK_TOKEN};
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, TestDaemon};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, ActionResponse, CaseState};
use serde_json::json;

const TARGET: &str = "500000000000000003";
const TG_USER: i64 = 424_242;
const SLACK_USER: &str = "U0TARGET01";

fn request(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        reason: Some("raid".into()),
        ..Default::default()
    }
}

fn member_path() -> String {
    format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}")
}

fn ban_path() -> String {
    format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}")
}

/// The fixture on `daemon`, with kicks and bans worth 2 strikes each (no
/// ladder), and alpha's Discord server on a fake guild where the target is
/// a member.
fn discord_on(daemon: TestDaemon) -> (Fixture, FakeDiscord, Client) {
    let fixture = Fixture::seed(daemon);
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.add_member(BOT, &[MOD_ROLE]);
    discord.add_member(TARGET, &[MEMBER_ROLE]);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"enabled": true, "weights": {"kick": 2, "ban": 2}, "ladder": []}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    (fixture, discord, client)
}

fn discord() -> (Fixture, FakeDiscord, Client) {
    discord_on(TestDaemon::start())
}

async fn act(client: &Client, server: &str, action: Action, user: &str) -> ActionResponse {
    client
        .perform_action(server, action, &request(user))
        .await
        .unwrap_or_else(|e| panic!("{action}: {e}"))
}

/// The response and the case it recorded agree, and the case is settled.
async fn assert_recorded(client: &Client, server: &str, response: &ActionResponse) {
    let case = client.case(server, response.case_id).await.expect("case");
    assert_eq!(
        (case.applied, case.state, case.detail.as_str()),
        (response.applied, response.state, response.detail.as_str())
    );
}

#[tokio::test]
async fn a_kick_carried_out_then_answered_502_is_applied_once_with_its_strikes() {
    let (_fixture, discord, client) = discord();
    let kick = member_path();
    discord.fail_after("DELETE", &kick, 502, json!({"message": "Bad Gateway"}), 1);

    let response = act(&client, ALPHA_DISCORD, Action::Kick, TARGET).await;
    assert!(!discord.is_member(TARGET));
    assert_eq!(
        (response.applied, response.state, response.active_strikes),
        (true, CaseState::Settled, 2),
        "{response:?}"
    );
    assert!(
        response.detail.starts_with(
            "kicked (confirmed on the platform: the platform failed with status 502: Bad Gateway"
        ),
        "{}",
        response.detail
    );
    // Not repeated: a second DELETE would have been answered 404.
    assert_eq!(discord.requests_to("DELETE", &kick).len(), 1);
    assert_recorded(&client, ALPHA_DISCORD, &response).await;
}

#[tokio::test]
async fn an_unban_carried_out_then_answered_502_is_applied_once() {
    let (_fixture, discord, client) = discord();
    discord.ban_seed(TARGET);
    let unban = ban_path();
    discord.fail_after("DELETE", &unban, 502, json!({"message": "Bad Gateway"}), 1);

    let response = act(&client, ALPHA_DISCORD, Action::Unban, TARGET).await;
    assert!(!discord.is_banned(TARGET));
    assert_eq!(
        (response.applied, response.state),
        (true, CaseState::Settled),
        "{response:?}"
    );
    assert!(
        response
            .detail
            .starts_with("ban lifted (confirmed on the platform"),
        "{}",
        response.detail
    );
    assert_eq!(discord.requests_to("DELETE", &unban).len(), 1);
    assert_recorded(&client, ALPHA_DISCORD, &response).await;
}

/// A ban is safe to send again, so it is retried; when no attempt is ever
/// answered, the platform is asked, and it shows the ban.
#[tokio::test]
async fn a_ban_carried_out_and_never_answered_is_applied_with_its_strikes() {
    let (_fixture, discord, client) = discord_on(TestDaemon::start_with_platform_timeout(
        Duration::from_millis(500),
    ));
    let ban = ban_path();
    discord.lose_answers("PUT", &ban, 10);

    let response = act(&client, ALPHA_DISCORD, Action::Ban, TARGET).await;
    assert!(discord.is_banned(TARGET));
    assert_eq!(
        (response.applied, response.state, response.active_strikes),
        (true, CaseState::Settled, 2),
        "{response:?}"
    );
    assert!(
        response
            .detail
            .contains("(confirmed on the platform: the platform did not answer in time"),
        "{}",
        response.detail
    );
    assert_recorded(&client, ALPHA_DISCORD, &response).await;
}

/// A 502 that came before the platform acted: the kick is not repeated (it
/// cannot be told from one that came after), and the platform, asked, shows
/// the member still there: not applied, no strikes, and said why.
#[tokio::test]
async fn a_kick_the_platform_did_not_carry_out_is_not_applied() {
    let (_fixture, discord, client) = discord();
    let kick = member_path();
    discord.fail("DELETE", &kick, 502, json!({"message": "Bad Gateway"}), 1);

    let response = act(&client, ALPHA_DISCORD, Action::Kick, TARGET).await;
    assert!(discord.is_member(TARGET));
    assert_eq!(
        (response.applied, response.state, response.active_strikes),
        (false, CaseState::Settled, 0),
        "{response:?}"
    );
    assert!(
        response.detail.starts_with(
            "not applied: the platform failed with status 502: Bad Gateway, and asked afterwards discord shows the kick was not carried out; kick again if it is still needed"
        ),
        "{}",
        response.detail
    );
    assert_eq!(discord.requests_to("DELETE", &kick).len(), 1);
    assert_recorded(&client, ALPHA_DISCORD, &response).await;
}

/// The kick's answer is lost and so is every answer to the check: nobody
/// can tell, so the case is `unknown`, adds no strikes, and says what to
/// look at.
#[tokio::test]
async fn a_kick_whose_outcome_cannot_be_checked_is_unknown() {
    let (_fixture, discord, client) = discord();
    let kick = member_path();
    discord.fail_after("DELETE", &kick, 502, json!({"message": "Bad Gateway"}), 1);
    // The check reads the member and the ban; every read of the ban fails.
    discord.fail(
        "GET",
        &ban_path(),
        503,
        json!({"message": "Service Unavailable"}),
        100,
    );

    let response = act(&client, ALPHA_DISCORD, Action::Kick, TARGET).await;
    assert!(!discord.is_member(TARGET));
    assert_eq!(
        (response.applied, response.state, response.active_strikes),
        (false, CaseState::Unknown, 0),
        "{response:?}"
    );
    assert!(
        response.detail.starts_with(
            "outcome unknown: the platform failed with status 502: Bad Gateway while this kick was being sent to discord, and checking afterwards failed"
        ),
        "{}",
        response.detail
    );
    assert!(
        response
            .detail
            .contains(&format!("check whether user {TARGET} is still a member")),
        "{}",
        response.detail
    );
    assert_eq!(discord.requests_to("DELETE", &kick).len(), 1);
    assert_recorded(&client, ALPHA_DISCORD, &response).await;
}

/// Telegram: the unban that ends a kick carried out, then answered 502 at
/// every attempt; asked, Telegram shows the member gone and not banned.
#[tokio::test]
async fn a_telegram_kick_whose_unban_answers_502_is_applied() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    telegram.add_member(TG_USER);
    daemon.connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    let failed = json!({"ok": false, "error_code": 502, "description": "Bad Gateway"});
    let unban = FakeTelegram::path("unbanChatMember");
    telegram.fail_after("POST", &unban, 502, failed, 10);
    let client = daemon.client(&fixture.alpha_rw);

    let response = act(&client, ALPHA_TELEGRAM, Action::Kick, &TG_USER.to_string()).await;
    assert!(!telegram.is_banned(TG_USER));
    assert_eq!(
        (response.applied, response.state),
        (true, CaseState::Settled),
        "{response:?}"
    );
    assert!(
        response.detail.starts_with(
            "removed with a ban followed by an unban; they may rejoin (confirmed on the platform"
        ),
        "{}",
        response.detail
    );
    assert_recorded(&client, ALPHA_TELEGRAM, &response).await;
}

/// Slack: a mod-log post answered 500 after it may have been written is
/// not posted again (that would post it twice), and Slack offers no way to
/// check: `unknown`, with where to look.
#[tokio::test]
async fn a_slack_mod_log_post_answered_500_is_not_repeated_and_is_unknown() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let slack = FakeSlack::start();
    daemon.connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    daemon.set_config(ALPHA_SLACK, SectionName::Strikes, json!({"enabled": false}));
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::General,
        json!({"modlog_channel_id": SLACK_MODLOG}),
    );
    let post = "/chat.postMessage";
    slack.fail_after("POST", post, 500, serde_json::Value::Null, 10);
    let client = daemon.client(&fixture.alpha_rw);

    let response = act(&client, ALPHA_SLACK, Action::Warn, SLACK_USER).await;
    assert_eq!(slack.messages(SLACK_MODLOG).len(), 1, "posted once");
    assert_eq!(slack.requests_to("POST", post).len(), 1);
    assert_eq!(
        (response.applied, response.state),
        (false, CaseState::Unknown),
        "{response:?}"
    );
    assert!(
        response
            .detail
            .ends_with("check the mod-log channel for it"),
        "{}",
        response.detail
    );
    assert_recorded(&client, ALPHA_SLACK, &response).await;
}
