//! The server's own invites end to end (issue #25: "invite links to other
//! communities ... the server's own invites allowed"): learned from each
//! platform's fake as its reference says (Discord's vanity code and invite
//! list, Telegram's `getChat`, Slack's `team.info`), then spared by the
//! invite filter (and on Discord by the native rule's allow list), while
//! another community's invite is caught.

use modctl_e2e::fakes::discord::{self, FakeDiscord, MOD_ROLE};
use modctl_e2e::fakes::slack::{self, FakeSlack};
use modctl_e2e::fakes::telegram::{self, FakeTelegram};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, TestDaemon, eventually};
use modctl_types::automod::{AutomodTestRequest, FilterName, HitQuery};
use modctl_types::config::SectionName;
use modctl_types::onboarding::{ItemStatus, OnboardingItem};
use serde_json::{Value, json};

const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

/// The invite filter on, deleting; the other filters off.
fn filter_invites(daemon: &TestDaemon, server: &str) {
    daemon.set_config(
        server,
        SectionName::Automod,
        json!({"invite_links": {"enabled": true, "action": "delete"}}),
    );
}

/// What `POST /automod/test` says of `text`: the invites it would catch.
fn caught(fixture: &Fixture, server: &str, text: &str) -> Vec<String> {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let request = AutomodTestRequest {
        text: text.into(),
        ..Default::default()
    };
    fixture
        .daemon
        .block_on(client.test_automod(server, &request))
        .expect("automod test")
        .hits
        .into_iter()
        .filter(|h| h.filter == FilterName::InviteLinks)
        .map(|h| h.matched)
        .collect()
}

/// The messages automod caught on `server`, by id.
fn hit_ids(fixture: &Fixture, server: &str) -> Vec<String> {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    fixture
        .daemon
        .block_on(client.automod_hits(server, &HitQuery::default()))
        .expect("automod hits")
        .hits
        .into_iter()
        .map(|h| h.message_id)
        .collect()
}

/// Onboarding's item of the invite filter of `server`.
fn invite_item(fixture: &Fixture, server: &str) -> OnboardingItem {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let onboarding = fixture
        .daemon
        .block_on(client.onboarding(server, false))
        .expect("onboarding");
    onboarding
        .items
        .into_iter()
        .find(|i| i.id == "automod_invite_links")
        .expect("the invite filter's item")
}

/// The native invite rule's allow list, as the fake guild holds it.
fn native_allow_list(fake: &FakeDiscord) -> Option<Vec<String>> {
    let rule = fake
        .automod_rules()
        .into_iter()
        .find(|r| r["name"].as_str().is_some_and(|n| n.contains("invite")))?;
    Some(
        rule["trigger_metadata"]["allow_list"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

#[test]
fn discord_the_guilds_invites_and_vanity_code_are_spared_natively_and_by_the_test() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_vanity_url_code(Some("acme"));
    fake.add_invite("Ours123");
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    filter_invites(daemon, ALPHA_DISCORD);
    // Before they are learned, every invite is another community's.
    assert_eq!(
        caught(&fixture, ALPHA_DISCORD, "discord.gg/acme"),
        ["discord.gg/acme"]
    );
    assert_eq!(daemon.learn_own_invites(), 1);
    assert_eq!(
        fake.requests_to("GET", &format!("/guilds/{ALPHA_DISCORD}/invites"))
            .len(),
        1
    );
    // Learned: spared (the vanity code and an invite), another's caught.
    assert!(
        caught(
            &fixture,
            ALPHA_DISCORD,
            "join discord.gg/acme or https://discord.com/invite/Ours123"
        )
        .is_empty()
    );
    assert_eq!(
        caught(&fixture, ALPHA_DISCORD, "join discord.gg/theirs"),
        ["discord.gg/theirs"]
    );
    // Not asked again before the refresh is due.
    assert_eq!(daemon.learn_own_invites(), 0);
    // Discord's own invite rule allows them too.
    eventually(
        "the native invite rule to allow the guild's invites",
        || {
            daemon
                .block_on(modctld::workers::native_rules(daemon.state()))
                .unwrap();
            native_allow_list(&fake).is_some_and(|allow| {
                [
                    "*discord.gg/acme",
                    "*discord.gg/Ours123",
                    "*discord.com/invite/Ours123",
                ]
                .iter()
                .all(|want| allow.iter().any(|a| a == want))
            })
        },
    );
}

#[test]
fn discord_without_manage_server_the_vanity_code_alone_is_spared_and_onboarding_says_so() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_vanity_url_code(Some("acme"));
    fake.add_invite("Ours123");
    // The bot's role without Manage Server (nor View Audit Log).
    fake.set_role_permissions(MOD_ROLE, discord::MOD_PERMISSIONS & !discord::MANAGE_GUILD);
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    filter_invites(daemon, ALPHA_DISCORD);
    assert_eq!(daemon.learn_own_invites(), 1);
    assert!(caught(&fixture, ALPHA_DISCORD, "discord.gg/acme").is_empty());
    assert_eq!(
        caught(&fixture, ALPHA_DISCORD, "discord.gg/Ours123"),
        ["discord.gg/Ours123"]
    );
    let item = invite_item(&fixture, ALPHA_DISCORD);
    assert_ne!(item.status, ItemStatus::Done, "{item:?}");
    assert!(item.detail.contains("Missing Permissions"), "{item:?}");
    assert!(
        item.fix
            .as_deref()
            .unwrap_or_default()
            .contains("Manage Server"),
        "{item:?}"
    );
}

#[test]
fn telegram_the_groups_invite_link_and_name_are_spared_another_groups_invite_deleted() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let fake = FakeTelegram::start(chat);
    fake.set_invite_info(Some("https://t.me/+OurGroupX1"), Some("acme_group"));
    daemon.connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Automod,
        json!({"invite_links": {"enabled": true, "action": "delete"},
               "links": {"enabled": true, "action": "delete"}}),
    );
    assert_eq!(daemon.learn_own_invites(), 1);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let ours: Value = fake.push_in(
        chat,
        5,
        json!({"text": "invite friends: https://t.me/+OurGroupX1, t.me/joinchat/OurGroupX1 or t.me/acme_group", "date": now}),
    );
    let theirs: Value = fake.push_in(
        chat,
        5,
        json!({"text": "better here: https://t.me/+TheirGroup", "date": now}),
    );
    assert_eq!(daemon.start_receivers(), 1);
    let id = |update: &Value| update["message"]["message_id"].as_i64().unwrap();
    eventually("the other group's invite to be deleted", || {
        fake.is_deleted(chat, id(&theirs))
    });
    eventually("its hit to be recorded", || {
        hit_ids(&fixture, ALPHA_TELEGRAM) == [id(&theirs).to_string()]
    });
    assert!(!fake.is_deleted(chat, id(&ours)));
}

/// A Slack workspace (domain `acme`) connected to the fake with an admin
/// user token, its Events API hook verified with the signing secret.
fn slack_workspace() -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let fake = FakeSlack::start();
    fake.set_domain("acme");
    fake.add_channel("C0GENERAL1", "general");
    fake.add_channel_member("C0GENERAL1", slack::MEMBER);
    let daemon = &fixture.daemon;
    daemon.connect_slack(
        ALPHA_SLACK,
        &fake.uri(),
        Some(slack::ADMIN_TOKEN),
        SIGNING_SECRET,
    );
    filter_invites(daemon, ALPHA_SLACK);
    (fixture, fake)
}

#[test]
fn slack_the_workspaces_invite_links_are_spared_another_workspaces_deleted() {
    let (fixture, fake) = slack_workspace();
    let daemon = &fixture.daemon;
    assert_eq!(daemon.learn_own_invites(), 1);
    assert_eq!(fake.calls("team.info").len(), 1);
    let ours = crate::automod_act::slack_say(
        daemon,
        &fake,
        "EvOurs",
        "join us: <https://join.slack.com/t/acme/shared_invite/zt-1abc>",
    );
    let theirs = crate::automod_act::slack_say(
        daemon,
        &fake,
        "EvTheirs",
        "come over: <https://join.slack.com/t/other/shared_invite/zt-2def>",
    );
    eventually("the other workspace's invite to be deleted", || {
        fake.is_deleted("C0GENERAL1", &theirs)
    });
    eventually("its hit to be recorded", || {
        hit_ids(&fixture, ALPHA_SLACK) == [theirs.clone()]
    });
    assert!(!fake.is_deleted("C0GENERAL1", &ours));
}

#[test]
fn slack_without_team_read_nothing_is_learned_and_onboarding_says_why() {
    let (fixture, fake) = slack_workspace();
    fake.revoke_team_read();
    let daemon = &fixture.daemon;
    assert_eq!(daemon.learn_own_invites(), 1);
    assert_eq!(
        caught(
            &fixture,
            ALPHA_SLACK,
            "https://join.slack.com/t/acme/shared_invite/zt-1abc"
        ),
        ["join.slack.com/t/acme/shared_invite/zt-1abc"]
    );
    let item = invite_item(&fixture, ALPHA_SLACK);
    assert!(item.detail.contains("missing_scope"), "{item:?}");
    // Asked again a minute later, not at once.
    assert_eq!(daemon.learn_own_invites(), 0);
    daemon
        .clock()
        .advance(modctld::automation::invites::RETRY_FAILED);
    assert_eq!(daemon.learn_own_invites(), 1);
}

#[test]
fn the_simulator_answers_one_own_invite_per_server_in_its_platforms_shape() {
    use modctl_types::Platform;
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let telegram = ALPHA_TELEGRAM.trim_start_matches('-');
    let slack = ALPHA_SLACK.to_ascii_lowercase();
    let cases = [
        (
            ALPHA_DISCORD,
            Platform::Discord,
            format!("discord.gg/sim-{ALPHA_DISCORD}"),
            "discord.gg/other",
        ),
        (
            ALPHA_TELEGRAM,
            Platform::Telegram,
            format!("t.me/+sim{telegram}"),
            "t.me/+other",
        ),
        (
            ALPHA_SLACK,
            Platform::Slack,
            format!("join.slack.com/t/sim-{slack}/x"),
            "join.slack.com/t/other/x",
        ),
    ];
    for (server, platform, ours, _) in &cases {
        daemon.connect_simulated(server, *platform);
        filter_invites(daemon, server);
        assert_eq!(
            caught(&fixture, server, ours),
            [ours.as_str()],
            "not learned yet"
        );
    }
    assert_eq!(daemon.learn_own_invites(), 3);
    for (server, _, ours, theirs) in &cases {
        assert!(caught(&fixture, server, ours).is_empty(), "{ours}");
        assert_eq!(caught(&fixture, server, theirs), [*theirs], "{server}");
    }
}

#[test]
fn discord_the_first_native_invite_rule_already_allows_the_guilds_invites() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_vanity_url_code(Some("acme"));
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    // No learning tick ran: the native sync asks for the invites itself
    // before it writes the rule (the config change wakes it; a tick here
    // does the same if it has not yet).
    filter_invites(daemon, ALPHA_DISCORD);
    eventually("the invite rule to be created", || {
        daemon
            .block_on(modctld::workers::native_rules(daemon.state()))
            .unwrap();
        native_allow_list(&fake).is_some()
    });
    let allow = native_allow_list(&fake).unwrap();
    assert!(allow.contains(&"*discord.gg/acme".to_owned()), "{allow:?}");
    let rules = format!("/guilds/{ALPHA_DISCORD}/auto-moderation/rules");
    assert_eq!(fake.requests_to("POST", &rules).len(), 1);
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.starts_with(&rules)),
        "written once, not again with the invites"
    );
    // Learned: the invites' worker does not ask again before its refresh.
    assert_eq!(daemon.learn_own_invites(), 0);
}

/// The native invite rule's id on the fake guild.
fn native_invite_rule_id(fake: &FakeDiscord) -> Option<String> {
    fake.automod_rules()
        .into_iter()
        .find(|r| r["name"].as_str().is_some_and(|n| n.contains("invite")))
        .and_then(|r| r["id"].as_str().map(str::to_owned))
}

/// A guild with more invites than Discord's allow list holds (100 entries,
/// two per invite: discord-docs/auto-moderation.mdx, "Trigger Metadata
/// Field Limits") keeps its native invite rule, allowing the config's
/// entries first, then the vanity code, then the first of the others; the
/// rule keeps its id across syncs and onboarding says what was left out.
#[test]
fn discord_eighty_invites_keep_one_native_rule_at_the_allow_list_limit() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_vanity_url_code(Some("acme"));
    for n in 0..80 {
        fake.add_invite(&format!("Ours{n:03}"));
    }
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Automod,
        json!({"invite_links": {"enabled": true, "action": "delete",
                                "allow": ["https://discord.com/invite/partner"]}}),
    );
    assert_eq!(daemon.learn_own_invites(), 1);
    let sync = || {
        daemon
            .block_on(modctld::workers::native_rules(daemon.state()))
            .unwrap();
    };
    sync();
    let first = native_invite_rule_id(&fake).expect("the native invite rule");
    let allow = native_allow_list(&fake).unwrap();
    assert_eq!(allow.len(), 100, "{allow:?}");
    for kept in [
        "*discord.gg/partner",
        "*discord.com/invite/acme",
        "*discord.gg/Ours000",
    ] {
        assert!(allow.iter().any(|a| a == kept), "{kept} in {allow:?}");
    }
    assert!(!allow.iter().any(|a| a.ends_with("Ours079")), "{allow:?}");
    // The daemon reads the config's entry as the rule does: its code, so
    // every Discord form of the partner's invite is spared by the test too.
    assert!(
        caught(
            &fixture,
            ALPHA_DISCORD,
            "discord.gg/partner or discordapp.com/invite/partner"
        )
        .is_empty()
    );
    // Learned again with one more invite, synced again: the same rule.
    fake.add_invite("Ours080");
    daemon
        .clock()
        .advance(std::time::Duration::from_secs(3_600));
    assert_eq!(daemon.learn_own_invites(), 1);
    sync();
    sync();
    assert_eq!(native_invite_rule_id(&fake), Some(first));
    assert_eq!(native_allow_list(&fake).unwrap().len(), 100);
    let item = invite_item(&fixture, ALPHA_DISCORD);
    assert_eq!(item.status, ItemStatus::Warning, "{item:?}");
    assert!(item.detail.contains("natively on Discord"), "{item:?}");
    assert!(item.detail.contains("at most 50 invites"), "{item:?}");
    assert!(item.detail.contains("33 others"), "{item:?}");
}

/// `modctld simulate message` learns the own invites of its simulated
/// server alone: a live server in the same database is never asked (that
/// is the daemon's, within its rate limits; the CLI's cache starts empty).
#[test]
fn simulate_message_asks_no_live_platform_for_invites() {
    use modctld::operator::demo::telegram_members;
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.add_invite("Ours123");
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    filter_invites(daemon, ALPHA_DISCORD);
    daemon.connect_simulated(ALPHA_TELEGRAM, modctl_types::Platform::Telegram);
    filter_invites(daemon, ALPHA_TELEGRAM);
    daemon
        .block_on(modctld::operator::simulate_message::say_and_act(
            daemon.store(),
            ALPHA_TELEGRAM,
            telegram_members::ALICE,
            "join us at https://t.me/+TheirGroup",
            None,
        ))
        .expect("simulate message");
    assert_eq!(hit_ids(&fixture, ALPHA_TELEGRAM).len(), 1);
    let guild = format!("/guilds/{ALPHA_DISCORD}");
    for path in [guild.clone(), format!("{guild}/invites")] {
        assert_eq!(fake.requests_to("GET", &path).len(), 0, "{path}");
    }
}
