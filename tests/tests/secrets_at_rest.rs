//! Secrets at rest, end to end: the serving daemon sends the bot token it
//! stored to the platform, yet neither the token nor the webhook secret set
//! through the API is anywhere in its database file or WAL.

use std::path::Path;

use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::TOKEN;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use serde_json::json;
const WEBHOOK_SECRET: &str = "webhook-secret-that-stays-out-too";

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
