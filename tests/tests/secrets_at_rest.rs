//! Secrets at rest, end to end: the serving daemon sends the bot token it
//! stored to the platform, yet neither the token nor the webhook secret set
//! through the API is anywhere in its database file or WAL, nor in what a
//! platform's error text made of cases and answers.

use std::path::Path;

use modctl_client::StatusCode;
use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::TOKEN;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use modctld::store::receivers::Receiving;
use serde_json::json;
const WEBHOOK_SECRET: &str = "whsec_d2ViaG9vay1zZWNyZXQtdGhhdC1zdGF5cy1vdXQtdG9v";
/// Telegram's `secret_token` of the server's webhook.
const HOOK_SECRET: &str = "telegram-hook-secret-token-2f9c";

/// Whether `needle` is in the file (a missing file holds nothing).
fn file_contains(path: &Path, needle: &str) -> bool {
    std::fs::read(path)
        .unwrap_or_default()
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

#[tokio::test]
async fn the_daemon_uses_the_sealed_token_and_the_file_holds_no_secret() {
    let fixture = Fixture::start();
    // Telegram takes the token in the path and the fake refuses any other:
    // the ban only works if the daemon unsealed exactly the token it was given.
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    telegram.add_member(4242);
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TOKEN, &telegram.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Webhooks,
            &json!({"url": "https://hooks.example.com/modctl", "secret": WEBHOOK_SECRET}),
            None,
        )
        .await
        .unwrap();

    let response = client
        .perform_action(
            ALPHA_TELEGRAM,
            Action::Ban,
            &ActionRequest {
                user_id: "4242".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(response.applied, "{response:?}");
    assert!(telegram.is_banned(4242));

    let db = fixture.daemon.db_path();
    let wal = db.with_file_name("modctld.db-wal");
    // The WAL is live and holds this test's writes in plain text (the webhook
    // URL), so it is a fair place to look.
    assert!(file_contains(&wal, "hooks.example.com"));
    for file in [&db, &wal] {
        for secret in [TOKEN, WEBHOOK_SECRET] {
            assert!(
                !file_contains(file, secret),
                "{secret} is readable in {}",
                file.display()
            );
        }
    }
}

/// A platform's error text that quotes the bot token (Telegram's URL is
/// `/bot<TOKEN>/method`) or the webhook's secret token is kept, returned and
/// shown without them (issue #22): not in the action's answer, the case (nor
/// the database and WAL under it), a snapshot capture's 502, the onboarding
/// checklist. (The log: `daemon/tests/redaction.rs`.)
#[tokio::test]
async fn platform_error_text_never_carries_the_token_or_the_hook_secret() {
    let fixture = Fixture::start();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let telegram = FakeTelegram::start(chat);
    telegram.add_member(4242);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_TELEGRAM, TOKEN, &telegram.uri());
    daemon.set_receiving(
        ALPHA_TELEGRAM,
        Receiving {
            hook_url: Some("https://modctl.example.com".to_owned()),
            hook_secret: Some(HOOK_SECRET.to_owned()),
            ..Receiving::default()
        },
    );
    let client = daemon.client(&fixture.alpha_rw);
    // The fake's token is `<bot id>:<secret part>`; the bot id is public.
    let secret_part = TOKEN.split_once(':').unwrap().1;
    let shows_no_secret = |text: &str| {
        assert!(!text.contains(secret_part), "the token is in {text:?}");
        assert!(
            !text.contains(HOOK_SECRET),
            "the hook secret is in {text:?}"
        );
        assert!(
            text.contains("[redacted]"),
            "nothing was redacted in {text:?}"
        );
    };
    let ban = ActionRequest {
        user_id: "4242".into(),
        ..Default::default()
    };

    telegram.fail_quoting_path("banChatMember", 400, 1);
    let response = client
        .perform_action(ALPHA_TELEGRAM, Action::Ban, &ban)
        .await
        .unwrap();
    assert!(!response.applied, "{response:?}");
    shows_no_secret(&response.detail);
    shows_no_secret(
        &client
            .case(ALPHA_TELEGRAM, response.case_id)
            .await
            .unwrap()
            .detail,
    );

    telegram.fail(
        "POST",
        &FakeTelegram::path("banChatMember"),
        400,
        json!({"ok": false, "error_code": 400,
               "description": format!("Bad Request: webhook secret {HOOK_SECRET} is in use")}),
        1,
    );
    let response = client
        .perform_action(ALPHA_TELEGRAM, Action::Ban, &ban)
        .await
        .unwrap();
    shows_no_secret(&response.detail);

    // Past the 3 attempts of the test daemon's retries.
    telegram.fail_quoting_path("getChat", 502, 3);
    let err = client.capture_snapshot(ALPHA_TELEGRAM).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_GATEWAY), "{err}");
    shows_no_secret(err.message());

    telegram.fail_quoting_path("getChat", 403, 1);
    let checklist = client.onboarding(ALPHA_TELEGRAM, true).await.unwrap();
    let token_item = checklist
        .items
        .iter()
        .find(|item| item.id == "bot_token")
        .unwrap();
    shows_no_secret(&token_item.detail);

    let db = daemon.db_path();
    let wal = db.with_file_name("modctld.db-wal");
    assert!(
        file_contains(&wal, "[redacted]"),
        "the cases are in the WAL"
    );
    for file in [&db, &wal] {
        for secret in [secret_part, HOOK_SECRET] {
            assert!(
                !file_contains(file, secret),
                "{secret} is readable in {}",
                file.display()
            );
        }
    }
}
