//! `modctld server connect` with the options of the activity receivers:
//! Slack's signing secret (`--signing-secret-env`, sealed at rest like the
//! token) and a Telegram webhook (`--telegram-webhook-url`, for which the
//! daemon makes the secret token itself).

use std::path::Path;

use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::TOKEN;
use modctld::store::Store;
use modctld::store::receivers::{self, LiveConnection};

use crate::support;

use crate::support::{modctld, run};

const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
/// An API base nothing listens at (the discard port of the loopback): a
/// Telegram group's check (getChat) cannot be made, so it is connected with
/// a warning. The checks themselves are tested against the fake below.
const UNREACHABLE_API: &str = "http://127.0.0.1:9";

fn claim(db: &Path, platform: &str, id: &str) {
    support::claim(db, "alpha", platform, id);
}

fn connections(db: &Path) -> Vec<LiveConnection> {
    let db = db.to_owned();
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(async move {
            let store = Store::open(db).await.unwrap();
            let secrets = store.secrets().clone();
            store
                .read(move |tx| receivers::live_connections(tx, &secrets))
                .await
                .unwrap()
        })
}

#[test]
fn the_signing_secret_is_stored_sealed_and_the_webhook_gets_a_secret_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    claim(&db, "slack", "T0123ABCD");
    claim(&db, "telegram", "-1001");
    run(
        modctld(&db)
            .env("BOT_TOKEN", "xoxb-token")
            .env("SIGNING", SIGNING_SECRET)
            .args([
                "server",
                "connect",
                "T0123ABCD",
                "--platform-token-env",
                "BOT_TOKEN",
                "--signing-secret-env",
                "SIGNING",
            ]),
        0,
    );
    run(
        modctld(&db).env("BOT_TOKEN", "1:tg-token").args([
            "server",
            "connect",
            "-1001",
            "--platform-token-env",
            "BOT_TOKEN",
            "--telegram-webhook-url",
            "https://modctl.example.com/",
            "--api-base",
            UNREACHABLE_API,
        ]),
        0,
    );

    let live = connections(&db);
    let slack = live.iter().find(|c| c.server_id == "T0123ABCD").unwrap();
    assert_eq!(
        slack.receiving.signing_secret.as_deref(),
        Some(SIGNING_SECRET)
    );
    let telegram = live.iter().find(|c| c.server_id == "-1001").unwrap();
    assert_eq!(
        telegram.receiving.hook_url.as_deref(),
        Some("https://modctl.example.com")
    );
    let secret = telegram.receiving.hook_secret.clone().unwrap();
    assert_eq!(secret.len(), 64);
    assert!(secret.chars().all(|c| c.is_ascii_hexdigit()), "{secret}");

    for suffix in ["", "-wal"] {
        let Ok(bytes) = std::fs::read(format!("{}{suffix}", db.display())) else {
            continue;
        };
        for plain in [SIGNING_SECRET, &secret] {
            assert!(
                !bytes.windows(plain.len()).any(|w| w == plain.as_bytes()),
                "a secret is readable in the database file{suffix}"
            );
        }
    }

    // Connecting again without the option drops what it set.
    run(
        modctld(&db).env("BOT_TOKEN", "xoxb-token").args([
            "server",
            "connect",
            "T0123ABCD",
            "--platform-token-env",
            "BOT_TOKEN",
        ]),
        0,
    );
    let live = connections(&db);
    let slack = live.iter().find(|c| c.server_id == "T0123ABCD").unwrap();
    assert_eq!(slack.receiving.signing_secret, None);
}

/// `server connect ID --platform-token-env BOT_TOKEN` plus `extra`, with
/// `SIGNING` set; expects exit code `code`, returns stderr.
fn connect(db: &Path, id: &str, extra: &[&str], code: i32) -> String {
    let mut command = modctld(db);
    command
        .env("BOT_TOKEN", "token")
        .env("SIGNING", SIGNING_SECRET)
        .args(["server", "connect", id, "--platform-token-env", "BOT_TOKEN"])
        .args(["--api-base", UNREACHABLE_API])
        .args(extra);
    run(&mut command, code).1
}

#[test]
fn options_of_another_platform_or_a_bad_url_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    claim(&db, "discord", "100000000000000001");
    claim(&db, "telegram", "-1001");
    let err = connect(
        &db,
        "100000000000000001",
        &["--signing-secret-env", "SIGNING"],
        1,
    );
    assert!(err.contains("--signing-secret-env is for Slack"), "{err}");
    let err = connect(
        &db,
        "-1001",
        &["--telegram-webhook-url", "modctl.example.com"],
        1,
    );
    assert!(
        err.contains("--telegram-webhook-url `modctl.example.com` is not a URL"),
        "{err}"
    );
    // Telegram posts webhooks over HTTPS only, to ports 443, 80, 88 and 8443
    // (setWebhook): anything else is refused with what to fix.
    let err = connect(
        &db,
        "-1001",
        &["--telegram-webhook-url", "http://modctl.example.com"],
        1,
    );
    assert!(
        err.contains("must be an https:// URL") && err.contains("not `http://`"),
        "{err}"
    );
    let err = connect(
        &db,
        "-1001",
        &["--telegram-webhook-url", "https://modctl.example.com:8080"],
        1,
    );
    assert!(
        err.contains("port 8080") && err.contains("443, 80, 88 or 8443"),
        "{err}"
    );
    for accepted in [
        "https://modctl.example.com:8443/",
        "https://modctl.example.com:88",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("modctld.db");
        run(modctld(&db).args(["team", "create", "alpha"]), 0);
        claim(&db, "telegram", "-1001");
        connect(&db, "-1001", &["--telegram-webhook-url", accepted], 0);
        assert_eq!(
            connections(&db)[0].receiving.hook_url.as_deref(),
            Some(accepted.trim_end_matches('/'))
        );
    }
    let err = connect(&db, "-1001", &["--signing-secret-env", "UNSET_VARIABLE"], 1);
    assert!(err.contains("UNSET_VARIABLE is not set"), "{err}");
    // Nothing was connected by the refused commands.
    assert!(connections(&db).is_empty());
    // Polling, the default, needs no option.
    let err = connect(&db, "-1001", &[], 0);
    assert!(err.contains("getUpdates long polling"), "{err}");
}

/// `server connect` for Telegram group `id` at the fake with its token;
/// expects exit code `code`, returns stderr.
fn connect_to_fake(db: &Path, id: &str, telegram: &FakeTelegram, code: i32) -> String {
    let mut command = modctld(db);
    command
        .env("BOT_TOKEN", TOKEN)
        .args(["server", "connect", id, "--platform-token-env", "BOT_TOKEN"])
        .args(["--api-base", &telegram.uri()]);
    run(&mut command, code).1
}

fn telegram_chat_id(db: &Path, id: &str) -> Option<String> {
    let (db, id) = (db.to_owned(), id.to_owned());
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(async move {
            let store = Store::open(db).await.unwrap();
            let secrets = store.secrets().clone();
            store
                .read(move |tx| modctld::store::connections::get(tx, &secrets, &id))
                .await
                .unwrap()
                .and_then(|c| c.telegram_chat_id)
        })
}

/// Issue #23: restrictChatMember and unbanChatMember work only in
/// supergroups, so `server connect` asks Telegram (getChat) and refuses a
/// basic group with how to upgrade it; a group upgraded since it was
/// claimed is followed to its supergroup's id, the server keeping its own.
#[test]
fn a_basic_group_is_refused_and_an_upgraded_one_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    claim(&db, "telegram", "-1001");
    let telegram = FakeTelegram::start(-1001);
    telegram.make_basic_group(-1001);
    let err = connect_to_fake(&db, "-1001", &telegram, 1);
    assert!(
        err.contains("-1001 is a basic group")
            && err.contains("supergroup")
            && err.contains("Upgrade it"),
        "{err}"
    );
    assert!(!err.contains(TOKEN), "{err}");
    assert!(connections(&db).is_empty(), "nothing connected");

    telegram.upgrade_to_supergroup(-1001, -1_009_000_000_001, 1_800_000_000);
    let err = connect_to_fake(&db, "-1001", &telegram, 0);
    assert!(
        err.contains("upgraded to supergroup -1009000000001"),
        "{err}"
    );
    assert_eq!(
        telegram_chat_id(&db, "-1001").as_deref(),
        Some("-1009000000001")
    );
    // Connecting again asks the supergroup, and keeps following it.
    connect_to_fake(&db, "-1001", &telegram, 0);
    assert_eq!(
        telegram_chat_id(&db, "-1001").as_deref(),
        Some("-1009000000001")
    );
    // A chat the bot is not in is refused with what to do.
    claim(&db, "telegram", "-1002");
    let err = connect_to_fake(&db, "-1002", &telegram, 1);
    assert!(err.contains("add the bot to the group"), "{err}");
}

/// Issue #23: Telegram keeps one webhook per bot, so a group connected for
/// polling with the token of a group that has a webhook is told its updates
/// arrive through that webhook.
#[test]
fn a_group_sharing_a_bot_with_a_webhook_group_is_told_it_shares_the_webhook() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    run(modctld(&db).args(["team", "create", "alpha"]), 0);
    claim(&db, "telegram", "-1001");
    claim(&db, "telegram", "-1002");
    connect(
        &db,
        "-1001",
        &["--telegram-webhook-url", "https://modctl.example.com"],
        0,
    );
    let err = connect(&db, "-1002", &[], 0);
    assert!(
        err.contains(
            "Telegram will post updates to https://modctl.example.com/hooks/telegram/-1001 for this group and the bot's other group(s) -1001"
        ),
        "{err}"
    );
}
