//! Discord native AutoMod kept in step with the `automod` config (issue
//! #25), end to end against the fake Discord: rules created on a config
//! change with the exemptions, changed in place, deleted when the filter is
//! turned off, hand-made rules left alone, imports and clones synced too,
//! drift put back by the worker, refusals reported in onboarding; and the
//! gateway asking for message content only when the application has it.

use std::time::Duration;

use modctl_client::Client;
use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{
    FakeDiscord, GATEWAY_MESSAGE_CONTENT_LIMITED, MANAGE_GUILD, MOD_PERMISSIONS, MOD_ROLE, OWNER,
    TOKEN,
};
use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon, eventually};
use modctl_types::Platform;
use modctl_types::config::{Automod, FilterAction};
use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use serde_json::{Value, json};

const EXEMPT_ROLE: &str = "600000000000000009";
const EXEMPT_CHANNEL: &str = "700000000000000009";
/// A second Discord server of team alpha.
const GAMMA_DISCORD: &str = "200000000000000003";
/// MESSAGE_CONTENT in IDENTIFY's `intents` (discord-docs/gateway.mdx).
const MESSAGE_CONTENT_INTENT: u64 = 1 << 15;

fn automod(words: &[&str]) -> Automod {
    let mut automod = Automod::default();
    automod.blocked_words.enabled = true;
    automod.blocked_words.words = words.iter().map(|w| (*w).to_owned()).collect();
    automod.mention_spam.enabled = true;
    automod.mention_spam.threshold = 6;
    automod.mention_spam.action = FilterAction::Warn;
    automod.caps.enabled = true;
    automod.exempt_role_ids = vec![EXEMPT_ROLE.into()];
    automod.exempt_channel_ids = vec![EXEMPT_CHANNEL.into()];
    automod
}

/// The guild's rules named `name`.
fn named(discord: &FakeDiscord, name: &str) -> Vec<Value> {
    discord
        .automod_rules()
        .into_iter()
        .filter(|r| r["name"] == name)
        .collect()
}

fn words_of(discord: &FakeDiscord) -> Option<Value> {
    named(discord, "modctl: blocked words")
        .first()
        .map(|r| r["trigger_metadata"]["keyword_filter"].clone())
}

async fn item(client: &Client, server: &str, id: &str) -> OnboardingItem {
    let checklist = client.onboarding(server, true).await.expect("onboarding");
    checklist
        .items
        .into_iter()
        .find(|i| i.id == id)
        .unwrap_or_else(|| panic!("no item {id}"))
}

/// Waits until Alpha's onboarding item `id` has `status` (the sync runs
/// beside the test).
fn until_status(daemon: &TestDaemon, client: &Client, id: &str, status: ItemStatus) {
    eventually(&format!("{id} to be {status:?}"), || {
        daemon.block_on(item(client, ALPHA_DISCORD, id)).status == status
    });
}

fn hand_made(discord: &FakeDiscord) -> String {
    discord
        .seed_rule(
            OWNER,
            json!({"name": "no crypto", "event_type": 1, "trigger_type": 1,
                   "trigger_metadata": {"keyword_filter": ["crypto"]},
                   "actions": [{"type": 1}], "enabled": true}),
        )
        .expect("a hand-made rule")
}

/// Created with the exemptions on a config change, changed in place on the
/// next, deleted when the filter is turned off; the hand-made rule is never
/// touched; onboarding says where each filter runs.
#[tokio::test(flavor = "multi_thread")]
async fn rules_follow_config_changes_and_leave_hand_made_rules_alone() {
    let fixture = Fixture::start();
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    let hand = hand_made(&discord);
    let before = discord.automod_rules();
    let client = fixture.daemon.client(&fixture.alpha_rw);

    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam", "scam*"]), None)
        .await
        .expect("config");
    eventually("the rules are created", || {
        named(&discord, "modctl: blocked words").len() == 1
            && named(&discord, "modctl: mention spam").len() == 1
    });
    let words = &named(&discord, "modctl: blocked words")[0];
    assert_eq!(
        words["trigger_metadata"]["keyword_filter"],
        json!(["scam*", "spam"])
    );
    assert_eq!(words["exempt_roles"], json!([EXEMPT_ROLE]));
    assert_eq!(words["exempt_channels"], json!([EXEMPT_CHANNEL]));
    assert_eq!(words["actions"][0]["type"], 1, "BLOCK_MESSAGE");
    assert_eq!(words["enabled"], true);
    let mentions = &named(&discord, "modctl: mention spam")[0];
    assert_eq!(mentions["trigger_type"], 5);
    assert_eq!(mentions["trigger_metadata"]["mention_total_limit"], 5);
    let id = words["id"].as_str().unwrap().to_owned();

    until_status(
        &fixture.daemon,
        &client,
        "automod_blocked_words",
        ItemStatus::Done,
    );
    let words_item = item(&client, ALPHA_DISCORD, "automod_blocked_words").await;
    assert_eq!(
        words_item.detail,
        format!("natively on Discord (rule id {id})")
    );
    // Caps runs in the daemon: the fake application has no content intent.
    let caps = item(&client, ALPHA_DISCORD, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Todo, "{caps:?}");
    assert!(caps.detail.starts_with("cannot run"), "{caps:?}");
    assert!(caps.fix.unwrap().contains("Message Content Intent"));
    discord.set_application_flags(GATEWAY_MESSAGE_CONTENT_LIMITED);
    let caps = item(&client, ALPHA_DISCORD, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Done, "{caps:?}");
    assert!(caps.detail.contains("message content granted"), "{caps:?}");

    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam", "fraud"]), None)
        .await
        .expect("config");
    eventually("the rule is changed", || {
        words_of(&discord) == Some(json!(["fraud", "spam"]))
    });
    assert_eq!(
        named(&discord, "modctl: blocked words")[0]["id"],
        id.as_str(),
        "in place"
    );

    let mut off = automod(&["spam"]);
    off.blocked_words.enabled = false;
    client
        .replace_section(ALPHA_DISCORD, &off, None)
        .await
        .expect("config");
    eventually("the rule is deleted", || {
        named(&discord, "modctl: blocked words").is_empty()
    });
    assert_eq!(named(&discord, "modctl: mention spam").len(), 1);
    let hand_now: Vec<Value> = discord
        .automod_rules()
        .into_iter()
        .filter(|r| r["id"] == hand.as_str())
        .collect();
    assert_eq!(hand_now, before, "the hand-made rule is untouched");
}

/// An import and a clone reach Discord like a section write.
#[tokio::test(flavor = "multi_thread")]
async fn imports_and_clones_sync_the_rules() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .claim("alpha", Platform::Discord, GAMMA_DISCORD, "Gamma Guild");
    let discord = FakeDiscord::start(GAMMA_DISCORD);
    fixture
        .daemon
        .connect_live(GAMMA_DISCORD, TOKEN, &discord.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);

    // Alpha is not connected: its config is only a source.
    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam"]), None)
        .await
        .expect("config");
    client
        .clone_config(GAMMA_DISCORD, ALPHA_DISCORD)
        .await
        .expect("clone");
    eventually("the clone made the rule", || {
        words_of(&discord) == Some(json!(["spam"]))
    });
    let id = named(&discord, "modctl: blocked words")[0]["id"].clone();

    let mut envelope = client
        .export_config_json(ALPHA_DISCORD)
        .await
        .expect("export");
    envelope["sections"]["automod"]["blocked_words"]["words"] = json!(["imported"]);
    client
        .import_config(GAMMA_DISCORD, &envelope, false)
        .await
        .expect("import");
    eventually("the import changed the rule", || {
        words_of(&discord) == Some(json!(["imported"]))
    });
    assert_eq!(
        named(&discord, "modctl: blocked words")[0]["id"],
        id,
        "in place"
    );
}

/// Someone edits one `modctl: ` rule and deletes another in Discord: the
/// worker's drift check puts them back (the edited one under its id) and
/// onboarding says so.
#[tokio::test(flavor = "multi_thread")]
async fn drift_is_put_back_by_the_worker_and_reported() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    let client = daemon.client(&fixture.alpha_rw);
    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam"]), None)
        .await
        .expect("config");
    eventually("the rules are created", || {
        discord.automod_rules().len() == 2
    });
    until_status(daemon, &client, "automod_native_rules", ItemStatus::Done);
    let words = named(&discord, "modctl: blocked words")[0].clone();
    let mentions = named(&discord, "modctl: mention spam")[0].clone();

    discord
        .edit_rule(
            words["id"].as_str().unwrap(),
            json!({"enabled": false, "exempt_roles": []}),
        )
        .expect("edit by hand");
    discord.remove_rule(mentions["id"].as_str().unwrap());
    // Nothing is due before the drift check's time (the worker's own loop
    // may tick too: whichever runs, the result is the same).
    daemon
        .block_on(modctld::workers::native_rules(daemon.state()))
        .unwrap();
    assert_eq!(named(&discord, "modctl: mention spam"), Vec::<Value>::new());
    daemon
        .clock()
        .advance(modctld::automation::native::sync::DRIFT_EVERY);
    daemon
        .block_on(modctld::workers::native_rules(daemon.state()))
        .unwrap();
    eventually("the drift is put back", || {
        named(&discord, "modctl: mention spam").len() == 1
    });

    assert_eq!(
        named(&discord, "modctl: blocked words"),
        vec![words],
        "put back in place"
    );
    let recreated = named(&discord, "modctl: mention spam");
    assert_eq!(recreated.len(), 1);
    assert_ne!(recreated[0]["id"], mentions["id"], "created again");
    let drift = item(&client, ALPHA_DISCORD, "automod_native_rules").await;
    assert_eq!(drift.status, ItemStatus::Warning, "{drift:?}");
    assert!(drift.detail.contains("changed in Discord"), "{drift:?}");
    assert!(drift.detail.contains("missing from Discord"), "{drift:?}");
    assert!(drift.fix.unwrap().contains("not in Discord"));
}

/// Without MANAGE_GUILD the config write still succeeds; onboarding says
/// the filter cannot run and how to fix it, and once fixed the retry makes
/// the rule.
#[tokio::test(flavor = "multi_thread")]
async fn a_refusal_is_reported_with_its_fix_and_never_fails_the_write() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let discord = FakeDiscord::start(ALPHA_DISCORD);
    discord.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS & !MANAGE_GUILD);
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
    let client = daemon.client(&fixture.alpha_rw);
    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam"]), None)
        .await
        .expect("the write succeeds");
    until_status(daemon, &client, "automod_blocked_words", ItemStatus::Todo);
    let words = item(&client, ALPHA_DISCORD, "automod_blocked_words").await;
    assert!(words.detail.contains("Missing Permissions"), "{words:?}");
    assert!(words.fix.unwrap().contains("Manage Server"));

    discord.set_role_permissions(MOD_ROLE, MOD_PERMISSIONS);
    daemon
        .clock()
        .advance(modctld::automation::native::sync::RETRY_FAILED);
    daemon
        .block_on(modctld::workers::native_rules(daemon.state()))
        .unwrap();
    eventually("the retry makes the rule", || {
        named(&discord, "modctl: blocked words").len() == 1
    });
}

/// The session asks for MESSAGE_CONTENT only when the application's flags
/// grant it: without them it is not asked and the fake gateway (which
/// closes a session asking for it with 4014) keeps the session up.
#[test]
fn message_content_is_asked_for_only_when_granted() {
    for (flags, asked) in [(0, false), (GATEWAY_MESSAGE_CONTENT_LIMITED, true)] {
        let gateway = FakeGateway::start(Duration::from_secs(45));
        gateway.add_guild(ALPHA_DISCORD, &[]);
        let fixture = Fixture::start();
        let discord = FakeDiscord::start(ALPHA_DISCORD);
        discord.set_gateway_url(&gateway.url());
        let base = modctl_e2e::fakes::discord::DEFAULT_APPLICATION_FLAGS;
        discord.set_application_flags(base | flags);
        gateway.set_application_flags(base | flags);
        fixture
            .daemon
            .connect_live(ALPHA_DISCORD, TOKEN, &discord.uri());
        assert_eq!(fixture.daemon.start_receivers(), 1);
        // A refused IDENTIFY (4014) is closed before it is recorded.
        eventually("an IDENTIFY or a close", || {
            gateway
                .sent()
                .iter()
                .any(|s| matches!(s, Sent::Identify { .. }))
                || !gateway.closes().is_empty()
        });
        assert!(
            gateway.closes().is_empty(),
            "closed: {:?}",
            gateway.closes()
        );
        let intents = gateway
            .sent()
            .iter()
            .find_map(|s| match s {
                Sent::Identify { intents, .. } => Some(*intents),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            intents & MESSAGE_CONTENT_INTENT != 0,
            asked,
            "flags {flags:#x}"
        );
        // The session is up, and stays up.
        eventually("the session is up", || gateway.connected());
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            gateway.connected() && gateway.closes().is_empty(),
            "{:?}",
            gateway.closes()
        );
    }
}

/// On Slack and Telegram every filter runs in the daemon; onboarding says
/// whether what it catches can be deleted: Slack without an admin user
/// token cannot (ephemeral notice only), Telegram needs the bot's
/// `can_delete_messages`.
#[tokio::test(flavor = "multi_thread")]
async fn slack_and_telegram_say_whether_caught_messages_can_be_deleted() {
    use modctl_e2e::fakes::{FakeSlack, FakeTelegram};
    use modctl_e2e::{ALPHA_SLACK, ALPHA_TELEGRAM};
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let slack = FakeSlack::start();
    daemon.connect_live(ALPHA_SLACK, modctl_e2e::fakes::slack::TOKEN, &slack.uri());
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    daemon.connect_live(
        ALPHA_TELEGRAM,
        modctl_e2e::fakes::telegram::TOKEN,
        &telegram.uri(),
    );
    let client = daemon.client(&fixture.alpha_rw);
    let mut section = Automod::default();
    section.caps.enabled = true;
    for server in [ALPHA_SLACK, ALPHA_TELEGRAM] {
        client
            .replace_section(server, &section, None)
            .await
            .expect("config");
    }

    let caps = item(&client, ALPHA_SLACK, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Warning, "{caps:?}");
    assert!(caps.detail.contains("ephemeral notice only"), "{caps:?}");
    assert!(caps.fix.unwrap().contains("--user-token-env"));
    // With an admin user token (`server connect --user-token-env`), caught
    // messages are deleted.
    let connection = modctld::store::connections::Connection {
        user_token: Some(modctl_e2e::fakes::slack::ADMIN_TOKEN.to_owned()),
        ..modctld::store::connections::Connection::new(
            modctld::store::connections::ConnectionMode::Live {
                token: modctl_e2e::fakes::slack::TOKEN.to_owned(),
                api_base: Some(slack.uri()),
            },
        )
    };
    let secrets = daemon.store().secrets().clone();
    let now = daemon.now_unix();
    daemon
        .store()
        .write(move |tx| {
            modctld::store::connections::set(tx, &secrets, ALPHA_SLACK, &connection, now)
        })
        .await
        .expect("connect with a user token");
    let caps = item(&client, ALPHA_SLACK, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Done, "{caps:?}");
    assert!(caps.detail.contains("admin user token"), "{caps:?}");

    let caps = item(&client, ALPHA_TELEGRAM, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Done, "{caps:?}");
    assert!(caps.detail.contains("can_delete_messages"), "{caps:?}");
    telegram.set_bot_right("can_delete_messages", false);
    let caps = item(&client, ALPHA_TELEGRAM, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Todo, "{caps:?}");
    assert!(
        caps.fix.as_deref().unwrap().contains("Delete messages"),
        "{caps:?}"
    );
}

/// The simulator keeps native rules like Discord: a simulated Discord
/// server (the demo's) gets them too.
#[tokio::test(flavor = "multi_thread")]
async fn a_simulated_discord_server_gets_the_rules() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let client = daemon.client(&fixture.alpha_rw);
    client
        .replace_section(ALPHA_DISCORD, &automod(&["spam"]), None)
        .await
        .expect("config");
    until_status(daemon, &client, "automod_blocked_words", ItemStatus::Done);
    let rules: Vec<String> = daemon.sql(|c| {
        let mut rows = c.prepare("SELECT rule FROM sim_automod_rules ORDER BY rule_id")?;
        rows.query_map([], |r| r.get(0))?.collect()
    });
    let names: Vec<Value> = rules
        .iter()
        .map(|r| serde_json::from_str::<Value>(r).unwrap()["name"].clone())
        .collect();
    assert_eq!(
        names,
        [
            json!("modctl: blocked words"),
            json!("modctl: mention spam")
        ]
    );
    let caps = item(&client, ALPHA_DISCORD, "automod_caps").await;
    assert_eq!(caps.status, ItemStatus::Done, "{caps:?}");
}
