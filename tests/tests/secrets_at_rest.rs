//! Secrets at rest, end to end: the serving daemon sends the bot token it
//! stored to the platform, yet neither the token nor the webhook secret set
//! through the API is anywhere in its database file or WAL.

use std::path::Path;

use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "987654:token-that-stays-out-of-the-database";
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
    let telegram = MockServer::start().await;
    // Telegram takes the token in the path: the ban only matches if the daemon
    // unsealed exactly the token it was given.
    Mock::given(method("POST"))
        .and(path(format!("/bot{TOKEN}/banChatMember")))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ok": true, "result": true})))
        .expect(1)
        .mount(&telegram)
        .await;
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
