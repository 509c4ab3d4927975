//! Names beside ids (issue #27) end to end: a Discord guild connected
//! through the fake gateway tells the daemon its members' names
//! (`GUILD_CREATE`'s members, `GUILD_MEMBER_UPDATE`'s nick, a message's
//! author), cases and strikes carry them as `user_name`, a rename shows the
//! new name, a member never seen has none, `GET /servers/{id}/members`
//! finds members by name, `GET /servers/{id}/members/{user_id}` answers
//! one member by id, and the insights' repeat targets are named.

use std::time::Duration;

use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::{ALPHA_DISCORD, Fixture, NETWORK_DEADLINE, eventually};
use modctl_types::moderation::{Action, ActionRequest, Case};
use modctl_types::query::CaseQuery;
use serde_json::{Value, json};

const ALICE: &str = "800000000000000004";
const SAM: &str = "800000000000000011";
const SAM_TOO: &str = "800000000000000012";
const TABBY: &str = "800000000000000013";
const NEVER_SEEN: &str = "800000000000000099";
const GENERAL: &str = "700000000000000002";

struct Guild {
    fixture: Fixture,
    _discord: FakeDiscord,
    gateway: FakeGateway,
}

/// A guild member object (discord-docs/guild.mdx, "Guild Member Object").
fn member(id: &str, username: &str, nick: Option<&str>) -> Value {
    json!({
        "user": {"id": id, "username": username, "global_name": null, "discriminator": "0"},
        "nick": nick, "roles": [], "joined_at": "2026-01-01T00:00:00.000000+00:00",
        "deaf": false, "mute": false, "flags": 0, "pending": false,
    })
}

/// A guild connected to the fakes whose session sent a `GUILD_CREATE`
/// naming Alice, two members called Sam, and one whose name holds a tab
/// and a line break.
fn guild() -> Guild {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_gateway_url(&gateway.url());
    fake.add_channel(GENERAL, "general");
    for user in [ALICE, SAM, SAM_TOO, TABBY, NEVER_SEEN] {
        fake.add_member(user, &[discord::MEMBER_ROLE]);
    }
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    assert_eq!(daemon.start_receivers(), 1);
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter().any(|s| matches!(s, Sent::Identify { .. }))
    }));
    // The guild as a session reports it (gateway-events.mdx, "Guild
    // Create": the guild object with `members`, `channels`, `voice_states`).
    gateway.dispatch(
        "GUILD_CREATE",
        json!({
            "id": ALPHA_DISCORD, "name": "Fake Guild", "unavailable": false,
            "owner_id": "800000000000000001", "voice_states": [],
            "roles": [{"id": discord::MEMBER_ROLE, "name": "Member", "position": 1, "permissions": "0"}],
            "channels": [{"id": GENERAL, "name": "general", "type": 0}],
            "members": [
                member(ALICE, "alice", None),
                member(SAM, "sam", None),
                member(SAM_TOO, "samuel", Some("Sam")),
                member(TABBY, "tabby", Some("tab\tby\nname")),
            ],
        }),
    );
    let names = fixture.daemon.state().names.clone();
    eventually("the guild's names to be known", || {
        names.user(ALPHA_DISCORD, TABBY).is_some()
    });
    Guild {
        fixture,
        _discord: fake,
        gateway,
    }
}

impl Guild {
    fn note(&self, user: &str) -> i64 {
        let client = self.fixture.daemon.client(&self.fixture.alpha_rw);
        let request = ActionRequest {
            user_id: user.into(),
            reason: Some("names".into()),
            ..Default::default()
        };
        self.fixture
            .daemon
            .block_on(client.perform_action(ALPHA_DISCORD, Action::Note, &request))
            .expect("note")
            .case_id
    }

    fn case(&self, id: i64) -> Case {
        let client = self.fixture.daemon.client(&self.fixture.alpha_ro);
        self.fixture
            .daemon
            .block_on(client.case(ALPHA_DISCORD, id))
            .expect("case")
    }

    fn listed_name(&self, id: i64) -> Option<String> {
        let client = self.fixture.daemon.client(&self.fixture.alpha_ro);
        let list = self
            .fixture
            .daemon
            .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
            .expect("cases");
        list.cases
            .into_iter()
            .find(|c| c.id == id)
            .expect("the case is listed")
            .user_name
    }

    fn named(&self, name: &str) -> Vec<(String, String)> {
        let client = self.fixture.daemon.client(&self.fixture.alpha_ro);
        self.fixture
            .daemon
            .block_on(client.members_named(ALPHA_DISCORD, name))
            .expect("members")
            .into_iter()
            .map(|m| (m.user_id, m.name))
            .collect()
    }

    /// Waits until case `id` is listed with `name`.
    fn wait_for_name(&self, id: i64, name: &str) {
        eventually(&format!("case #{id} to show {name}"), || {
            self.listed_name(id).as_deref() == Some(name)
        });
    }
}

#[test]
fn cases_show_the_members_name_and_a_rename_shows_the_new_one() {
    let guild = guild();
    let case = guild.note(ALICE);
    assert_eq!(guild.case(case).user_name.as_deref(), Some("alice"));
    assert_eq!(guild.listed_name(case).as_deref(), Some("alice"));

    // A nick set: GUILD_MEMBER_UPDATE carries it (gateway-events.mdx,
    // "Guild Member Update": `nick`).
    let mut renamed = member(ALICE, "alice", Some("Alice R."));
    renamed["guild_id"] = json!(ALPHA_DISCORD);
    guild.gateway.dispatch("GUILD_MEMBER_UPDATE", renamed);
    guild.wait_for_name(case, "Alice R.");

    // A message of hers with another nick: her name as the message shows it.
    let mut message = discord::gateway::message_create(
        ALPHA_DISCORD,
        GENERAL,
        "900000000000000001",
        ALICE,
        &[],
        "hi",
    );
    message["member"]["nick"] = json!("Ally");
    guild.gateway.dispatch("MESSAGE_CREATE", message);
    guild.wait_for_name(case, "Ally");
    assert_eq!(guild.case(case).user_name.as_deref(), Some("Ally"));

    // The activity top lists name the member and the channel too.
    let daemon = &guild.fixture.daemon;
    eventually("her message to be counted", || {
        !daemon
            .community_insights(&guild.fixture.alpha_ro, ALPHA_DISCORD)
            .top_members_by_messages
            .is_empty()
    });
    let insights = daemon.community_insights(&guild.fixture.alpha_ro, ALPHA_DISCORD);
    let top = &insights.top_members_by_messages[0];
    assert_eq!(
        (top.id.as_str(), top.name.as_deref()),
        (ALICE, Some("Ally"))
    );
    let channel = &insights.top_channels_by_messages[0];
    assert_eq!(
        (channel.id.as_str(), channel.name.as_deref()),
        (GENERAL, Some("general"))
    );
}

#[test]
fn a_member_never_seen_has_no_name_and_a_tab_never_reaches_the_answer() {
    let guild = guild();
    let unknown = guild.note(NEVER_SEEN);
    assert_eq!(guild.case(unknown).user_name, None);
    // Absent, not null: the field is additive.
    let url = guild
        .fixture
        .daemon
        .api(&format!("/servers/{ALPHA_DISCORD}/cases/{unknown}"));
    let key = guild.fixture.alpha_ro.full.clone();
    let raw: Value = guild.fixture.daemon.block_on(async move {
        reqwest::Client::new()
            .get(url)
            .bearer_auth(key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    });
    assert!(raw.get("user_name").is_none(), "{raw}");

    let tabby = guild.note(TABBY);
    assert_eq!(guild.case(tabby).user_name.as_deref(), Some("tab by name"));

    let client = guild.fixture.daemon.client(&guild.fixture.alpha_ro);
    let strikes = guild
        .fixture
        .daemon
        .block_on(client.strikes(ALPHA_DISCORD))
        .expect("strikes");
    assert!(
        strikes
            .iter()
            .all(|s| s.user_name.is_none() || s.user_id == TABBY)
    );
}

#[test]
fn members_are_found_by_name_one_several_or_none() {
    let guild = guild();
    assert_eq!(
        guild.named("@ALICE"),
        vec![(ALICE.to_owned(), "alice".to_owned())]
    );
    assert_eq!(
        guild.named("sam"),
        vec![
            (SAM.to_owned(), "sam".to_owned()),
            (SAM_TOO.to_owned(), "Sam".to_owned())
        ]
    );
    assert_eq!(guild.named("nobody"), vec![]);
    // Only whole names: not a prefix.
    assert_eq!(guild.named("ali"), vec![]);

    // No name: a 400 that says what to give.
    let client = guild.fixture.daemon.client(&guild.fixture.alpha_ro);
    let refused = guild
        .fixture
        .daemon
        .block_on(client.members_named(ALPHA_DISCORD, "@"))
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
    assert!(refused.to_string().contains("?name=alice"), "{refused}");
}

/// The demo's simulated servers send no `GUILD_CREATE`: the demo tells the
/// cache their members as the simulator holds them, and cases show them.
#[test]
fn the_demos_simulated_members_have_their_names() {
    use modctld::operator::demo;
    let daemon = modctl_e2e::TestDaemon::start();
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    let state = daemon.state();
    for server in [demo::DISCORD, demo::TELEGRAM, demo::SLACK] {
        let learned = daemon
            .block_on(modctld::names::learn_simulated(
                &state.store,
                &state.names,
                server,
            ))
            .unwrap();
        assert!(learned >= 3, "{server}: {learned}");
    }
    let client = modctl_client::Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.write)
        .build()
        .unwrap();
    let request = ActionRequest {
        user_id: demo::discord_members::BOB.into(),
        ..Default::default()
    };
    let response = daemon
        .block_on(client.perform_action(demo::DISCORD, Action::Note, &request))
        .unwrap();
    let case = daemon
        .block_on(client.case(demo::DISCORD, response.case_id))
        .unwrap();
    assert_eq!(case.user_name.as_deref(), Some("Bob"));
}

/// `GET /servers/{id}/members/{user_id}` (issue #27): a member's name as
/// the cache has it, with their strikes and jail; a member never seen is
/// still a valid target (200, `name` null); a bad id is a 400 naming the
/// path parameter; another team's key reaches nothing.
#[test]
fn one_member_by_id_known_or_never_seen() {
    let guild = guild();
    let daemon = &guild.fixture.daemon;
    let client = daemon.client(&guild.fixture.alpha_rw);
    let warn = ActionRequest {
        user_id: ALICE.into(),
        reason: Some("names".into()),
        ..Default::default()
    };
    daemon
        .block_on(client.perform_action(ALPHA_DISCORD, Action::Warn, &warn))
        .expect("warn");
    let reader = daemon.client(&guild.fixture.alpha_ro);
    let alice = daemon
        .block_on(reader.member(ALPHA_DISCORD, ALICE))
        .expect("alice");
    assert_eq!(alice.user_id, ALICE);
    assert_eq!(alice.name.as_deref(), Some("alice"));
    assert_eq!(alice.active_strikes, 1);
    assert!(!alice.jailed);
    // The name is read from the cache as the other answers are: a rename
    // shows at once.
    let mut renamed = member(ALICE, "alice", Some("Alice R."));
    renamed["guild_id"] = json!(ALPHA_DISCORD);
    guild.gateway.dispatch("GUILD_MEMBER_UPDATE", renamed);
    eventually("the new name", || {
        daemon
            .block_on(reader.member(ALPHA_DISCORD, ALICE))
            .expect("alice")
            .name
            .as_deref()
            == Some("Alice R.")
    });

    // Never seen: a valid target, nothing known; `name` is there, null.
    let url = daemon.api(&format!("/servers/{ALPHA_DISCORD}/members/{NEVER_SEEN}"));
    let key = guild.fixture.alpha_ro.full.clone();
    let (status, raw): (u16, Value) = daemon.block_on(async move {
        let response = reqwest::Client::new()
            .get(url)
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.json().await.unwrap())
    });
    assert_eq!(status, 200, "{raw}");
    assert_eq!(
        raw,
        json!({"user_id": NEVER_SEEN, "name": null, "active_strikes": 0, "jailed": false})
    );
    // The tab and line break of a name never reach the answer.
    let tabby = daemon
        .block_on(reader.member(ALPHA_DISCORD, TABBY))
        .expect("tabby");
    assert_eq!(tabby.name.as_deref(), Some("tab by name"));

    // Not a Discord user id: 400, the path parameter named, what to give.
    let refused = daemon
        .block_on(reader.member(ALPHA_DISCORD, "alice"))
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
    assert_eq!(refused.field(), Some("{user_id}"), "{refused}");
    assert!(refused.to_string().contains("snowflake"), "{refused}");

    // Another team's key: refused as every read of a server not theirs
    // (403), the name unseen.
    let beta = daemon.client(&guild.fixture.beta_rw);
    let other = daemon
        .block_on(beta.member(ALPHA_DISCORD, ALICE))
        .unwrap_err();
    assert_eq!(other.status().map(|s| s.as_u16()), Some(403), "{other}");
    assert!(!other.to_string().contains("Alice"), "{other}");
}

/// The moderation insights' repeat targets carry the members' names
/// (issue #27), as the community insights' top members do.
#[test]
fn the_insights_repeat_targets_are_named() {
    let guild = guild();
    for _ in 0..2 {
        guild.note(ALICE);
        guild.note(NEVER_SEEN);
    }
    guild.note(SAM);
    let daemon = &guild.fixture.daemon;
    let client = daemon.client(&guild.fixture.alpha_ro);
    let insights = daemon
        .block_on(client.insights(ALPHA_DISCORD, Some(7)))
        .expect("insights");
    let mut targets: Vec<(String, Option<String>)> = insights
        .top_repeat_targets
        .into_iter()
        .map(|r| (r.id, r.name))
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        vec![
            (ALICE.to_owned(), Some("alice".to_owned())),
            (NEVER_SEEN.to_owned(), None)
        ]
    );
}
