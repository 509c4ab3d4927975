//! Welcome end to end (issue #26): members join through the real transports
//! (the Discord gateway session, Slack's signed Events API hook, Telegram's
//! long polling) against the fakes, and the daemon greets them with
//! `welcome.message`, mentioning them alone and showing their names inert,
//! and gives them `welcome.auto_role_ids` (Discord roles, after membership
//! screening for a pending member; Slack user groups). Bots joining, the
//! bot's own role grants and redelivered joins greet nobody.

use std::time::Duration;

use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::fakes::slack::{FakeSlack, UserGroup};
use modctl_e2e::fakes::telegram::{self, FakeTelegram};
use modctl_e2e::{
    ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, NETWORK_DEADLINE, eventually,
};
use modctl_types::config::SectionName;
use serde_json::{Value, json};

const GENERAL: &str = "700000000000000002";
const NEWBIE: &str = "800000000000000042";
/// A name that would be markup, mentions and an invite if shown raw.
const HOSTILE: &str = "@everyone <@123> discord.gg/x *bold* <b>x</b>";
const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

/// Long enough for a consumer to have acted on an event it should ignore.
fn settle() {
    std::thread::sleep(Duration::from_millis(400));
}

struct Discord {
    fixture: Fixture,
    discord: FakeDiscord,
    gateway: FakeGateway,
}

/// A Discord guild connected to the fakes with `welcome` (`extra` merged
/// in), its gateway session identified.
fn discord(extra: Value) -> Discord {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_gateway_url(&gateway.url());
    fake.add_channel(GENERAL, "general");
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    let mut welcome = json!({
        "enabled": true, "channel_id": GENERAL, "message": "Welcome to {server}, {user}!",
        "auto_role_ids": [discord::MEMBER_ROLE],
    });
    if let (Some(welcome), Some(extra)) = (welcome.as_object_mut(), extra.as_object()) {
        welcome.extend(extra.clone());
    }
    daemon.set_config(ALPHA_DISCORD, SectionName::Welcome, welcome);
    assert_eq!(daemon.start_receivers(), 1);
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter().any(|s| matches!(s, Sent::Identify { .. }))
    }));
    Discord {
        fixture,
        discord: fake,
        gateway,
    }
}

impl Discord {
    /// The "Add Guild Member Role" requests for `user`.
    fn role_puts(&self, user: &str) -> usize {
        self.discord
            .requests_to(
                "PUT",
                &format!(
                    "/guilds/{ALPHA_DISCORD}/members/{user}/roles/{}",
                    discord::MEMBER_ROLE
                ),
            )
            .len()
    }

    fn has_member_role(&self, user: &str) -> bool {
        self.discord
            .roles_of(user)
            .is_some_and(|roles| roles.iter().any(|r| r == discord::MEMBER_ROLE))
    }
}

#[test]
fn discord_a_member_is_greeted_mentioning_them_alone_and_given_the_auto_roles() {
    let d = discord(json!({}));
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, HOSTILE, false, false);
    eventually("the greeting", || !d.discord.posted(GENERAL).is_empty());
    eventually("the auto-role", || d.has_member_role(NEWBIE));
    let posted = d.discord.posted(GENERAL);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert_eq!(
        posted[0].content,
        format!("Welcome to Alpha Guild, <@{NEWBIE}>!")
    );
    // Only the member may be notified: no @everyone, no role, no other
    // user, whatever the name or the template say.
    assert_eq!(
        posted[0].body["allowed_mentions"],
        json!({"parse": [], "users": [NEWBIE]})
    );
    assert!(!posted[0].content.contains("everyone"));

    // The join again (a resumed session replays it; Discord's joins carry
    // no id): greeted once; the role asked again (held: nothing changes).
    d.gateway.send_last_again();
    settle();
    assert_eq!(d.discord.posted(GENERAL).len(), 1);

    // The member leaves (their roles go) and comes back within the time:
    // not greeted again, but given the auto-role again.
    d.discord.remove_member(NEWBIE);
    d.gateway.member_remove(ALPHA_DISCORD, NEWBIE);
    d.discord.add_member(NEWBIE, &[]);
    let puts = d.role_puts(NEWBIE);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, HOSTILE, false, false);
    eventually("the auto-role after the rejoin", || {
        d.has_member_role(NEWBIE)
    });
    assert_eq!(d.role_puts(NEWBIE), puts + 1);
    settle();
    assert_eq!(d.discord.posted(GENERAL).len(), 1, "not greeted again");
}

#[test]
fn discord_a_pending_member_gets_the_roles_once_screening_is_passed() {
    let d = discord(json!({}));
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, "Pat", true, false);
    eventually("the greeting", || !d.discord.posted(GENERAL).is_empty());
    // Still pending (another update while screening): no roles yet.
    d.gateway.member_update(ALPHA_DISCORD, NEWBIE, &[], true);
    settle();
    assert_eq!(d.role_puts(NEWBIE), 0);
    assert!(!d.has_member_role(NEWBIE));

    // Screening passed.
    d.gateway.member_update(ALPHA_DISCORD, NEWBIE, &[], false);
    eventually("the auto-role", || d.has_member_role(NEWBIE));
    // The update Discord sends for the role the bot gave, and any later
    // one, give nothing again.
    d.gateway
        .member_update(ALPHA_DISCORD, NEWBIE, &[discord::MEMBER_ROLE], false);
    d.gateway.member_update(ALPHA_DISCORD, NEWBIE, &[], false);
    settle();
    assert_eq!(d.role_puts(NEWBIE), 1);
    assert_eq!(d.discord.posted(GENERAL).len(), 1);

    // A member the daemon never saw join pending (a role change by a
    // moderator) gets nothing.
    d.discord.add_member("800000000000000043", &[]);
    d.gateway
        .member_update(ALPHA_DISCORD, "800000000000000043", &[], false);
    settle();
    assert_eq!(d.role_puts("800000000000000043"), 0);
}

/// During a raid lockdown its joiners are held by it: neither greeted nor
/// given roles (then or at its end).
#[test]
fn discord_a_lockdown_s_joiners_are_neither_greeted_nor_given_roles() {
    let d = discord(json!({}));
    let daemon = &d.fixture.daemon;
    let client = daemon.client(&d.fixture.alpha_rw);
    let request = modctl_types::lockdown::StartLockdown {
        minutes: Some(5),
        reason: Some("raid".into()),
    };
    daemon
        .block_on(client.start_lockdown(ALPHA_DISCORD, &request))
        .expect("start a lockdown");
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, "Raider", false, false);
    settle();
    assert!(d.discord.posted(GENERAL).is_empty(), "not greeted");
    assert_eq!(d.role_puts(NEWBIE), 0, "no auto-role");
}

#[test]
fn discord_bots_joining_are_neither_greeted_nor_given_roles() {
    let d = discord(json!({}));
    let robot = "800000000000000044";
    d.discord.add_member(robot, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, robot, "Some Bot", false, true);
    // The daemon's own bot joining (added to a guild) is a bot too.
    d.gateway
        .member_join(ALPHA_DISCORD, discord::BOT, "modctl", false, true);
    // A person after them: greeted, so the bots were seen and passed over.
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, "Pat", false, false);
    eventually("the person's greeting", || {
        !d.discord.posted(GENERAL).is_empty()
    });
    settle();
    let posted = d.discord.posted(GENERAL);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0].content.contains(NEWBIE));
    assert_eq!(d.role_puts(robot), 0);
    assert_eq!(d.role_puts(discord::BOT), 0);
}

#[test]
fn discord_with_verification_on_the_member_is_greeted_and_the_roles_wait() {
    let d = discord(json!({"verification": "button", "verified_role_id": discord::JAIL_ROLE}));
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, "Pat", false, false);
    eventually("the greeting", || !d.discord.posted(GENERAL).is_empty());
    d.gateway.member_update(ALPHA_DISCORD, NEWBIE, &[], false);
    settle();
    assert_eq!(d.role_puts(NEWBIE), 0, "verification gives them");
}

#[test]
fn discord_an_auto_role_above_the_bot_fails_alone() {
    let d = discord(json!({"auto_role_ids": [discord::ADMIN_ROLE, discord::MEMBER_ROLE]}));
    d.discord.add_member(NEWBIE, &[]);
    d.gateway
        .member_join(ALPHA_DISCORD, NEWBIE, "Pat", false, false);
    eventually("the role the bot may give", || d.has_member_role(NEWBIE));
    let roles = d.discord.roles_of(NEWBIE).unwrap();
    assert!(!roles.iter().any(|r| r == discord::ADMIN_ROLE), "{roles:?}");
    assert_eq!(d.discord.posted(GENERAL).len(), 1);
}

/// A Slack workspace connected to the fake with `welcome` on, user group
/// `S0MEMBERS1` holding one member already.
fn slack() -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let fake = FakeSlack::start();
    fake.add_channel("C0GENERAL1", "general");
    fake.add_user_group(UserGroup {
        id: "S0MEMBERS1".into(),
        name: "Members".into(),
        handle: "members".into(),
        description: String::new(),
        channels: Vec::new(),
        users: vec!["U0OLDTIMER".into()],
    });
    let daemon = &fixture.daemon;
    daemon.connect_slack(ALPHA_SLACK, &fake.uri(), None, SIGNING_SECRET);
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": "C0GENERAL1",
               "message": "Welcome to {server}, {user}! <!channel>", "auto_role_ids": ["S0MEMBERS1"]}),
    );
    (fixture, fake)
}

fn team_join(user: &str, name: &str, bot: bool) -> Value {
    json!({"type": "team_join", "user": {"id": user, "team_id": ALPHA_SLACK, "name": name,
           "real_name": name, "is_bot": bot}})
}

#[test]
fn slack_a_new_member_is_greeted_by_dm_and_added_to_the_user_groups() {
    let (fixture, fake) = slack();
    let daemon = &fixture.daemon;
    let user = "U0NEWBIE01";
    fake.add_user(user, "newbie");
    let event = team_join(user, "<!here> *Eve*", false);
    assert_eq!(
        daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, "EvJoin1", event.clone()),
        200
    );
    eventually("the greeting DM", || !fake.dms(user).is_empty());
    eventually("the user group", || {
        fake.user_group_users("S0MEMBERS1").unwrap().len() == 2
    });
    let dm = &fake.dms(user)[0];
    // The member alone is mentioned; the template's broadcast is text.
    assert_eq!(
        dm.text,
        format!("Welcome to Alpha Workspace, <@{user}>! &lt;!channel&gt;")
    );
    assert_eq!(dm.args["parse"], "none");
    assert_eq!(dm.args["link_names"], false);
    // Read, then written whole: the member who was there stays.
    assert_eq!(
        fake.user_group_users("S0MEMBERS1").unwrap(),
        ["U0OLDTIMER", user]
    );

    // Slack retries the event (same id): one greeting, one update.
    assert_eq!(
        daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, "EvJoin1", event),
        200
    );
    // Joining a channel is not joining the workspace; a bot is not greeted.
    let channel_join = json!({"type": "member_joined_channel", "user": "U0OLDTIMER",
                              "channel": "C0GENERAL1", "channel_type": "C", "team": ALPHA_SLACK});
    assert_eq!(
        daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, "EvJoin2", channel_join),
        200
    );
    fake.add_user("U0ROBOT001", "robot");
    let bot = team_join("U0ROBOT001", "robot", true);
    assert_eq!(
        daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, "EvJoin3", bot),
        200
    );
    settle();
    assert_eq!(fake.dms(user).len(), 1);
    assert!(fake.dms("U0OLDTIMER").is_empty());
    assert!(fake.dms("U0ROBOT001").is_empty());
    assert_eq!(fake.calls("usergroups.users.update").len(), 1);
}

#[test]
fn telegram_a_new_member_is_greeted_in_the_group_by_an_escaped_name() {
    let fixture = Fixture::start();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let fake = FakeTelegram::start(chat);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": ALPHA_TELEGRAM,
               "message": "Welcome to {server}, {user}! <i>not markup</i>"}),
    );
    let now = daemon.now_unix();
    fake.push_join_named(77, "Robo", true, now);
    fake.push_join_named(5, "<b>Eve</b> @everyone t.me/x", false, now);
    assert_eq!(daemon.start_receivers(), 1);
    eventually("the greeting", || !fake.sent(chat).is_empty());
    settle();
    let sent = fake.sent(chat);
    assert_eq!(
        sent.len(),
        1,
        "the bot that joined is not greeted: {sent:?}"
    );
    assert_eq!(
        sent[0].args["text"],
        "Welcome to Alpha Group, <a href=\"tg://user?id=5\">&lt;b&gt;Eve&lt;/b&gt; @everyone t.me/x</a>! \
         &lt;i&gt;not markup&lt;/i&gt;"
    );
    assert_eq!(sent[0].args["parse_mode"], "HTML");
    assert_eq!(
        sent[0].args["link_preview_options"],
        json!({"is_disabled": true})
    );
}

#[test]
fn the_simulator_greets_a_join_through_the_event_path() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, modctl_types::Platform::Discord);
    let general = "700000000000000021";
    let member_role = "900000000000000004";
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": general, "auto_role_ids": [member_role]}),
    );
    let event = daemon
        .block_on(modctld::operator::simulate_join::enter(
            daemon.store(),
            daemon.clock().now(),
            ALPHA_DISCORD,
            NEWBIE,
            Some("Grace".into()),
        ))
        .expect("the simulated member joins");
    let events = daemon.state().events.clone();
    daemon.block_on(async move { events.publish(event) });
    let read = |f: fn(&modctld::store::Tx<'_>) -> Vec<String>| {
        daemon
            .block_on(
                daemon
                    .store()
                    .read(move |tx| Ok::<_, modctld::store::StoreError>(f(tx))),
            )
            .unwrap()
    };
    eventually("the member role", || {
        read(|tx| {
            modctld::store::simulator::member_roles(tx, ALPHA_DISCORD, NEWBIE)
                .unwrap()
                .unwrap_or_default()
        })
        .iter()
        .any(|r| r == member_role)
    });
    let posted = read(|tx| {
        modctld::store::simulator::messages(tx, ALPHA_DISCORD, "700000000000000021").unwrap()
    });
    assert_eq!(posted, ["Welcome to Alpha Guild, @Grace!"]);
    // Joining again while a member is refused, as the platform would.
    let again = daemon.block_on(modctld::operator::simulate_join::enter(
        daemon.store(),
        daemon.clock().now(),
        ALPHA_DISCORD,
        NEWBIE,
        None,
    ));
    assert!(again.unwrap_err().to_string().contains("already a member"));
}

/// Onboarding says what welcome lacks on Discord: an auto-role above the
/// bot's top role is a to-do naming it; once only roles the bot may give
/// are set, the item is done.
#[test]
fn discord_onboarding_names_an_auto_role_the_bot_cannot_give() {
    let d = discord(json!({"auto_role_ids": [discord::ADMIN_ROLE]}));
    let daemon = &d.fixture.daemon;
    let client = daemon.client(&d.fixture.alpha_ro);
    let welcome = |refresh| {
        let checklist = daemon
            .block_on(client.onboarding(ALPHA_DISCORD, refresh))
            .expect("onboarding");
        checklist
            .items
            .into_iter()
            .find(|i| i.id == "welcome")
            .expect("a welcome item")
    };
    let item = welcome(true);
    assert_eq!(
        item.status,
        modctl_types::onboarding::ItemStatus::Todo,
        "{item:?}"
    );
    assert!(item.detail.contains(discord::ADMIN_ROLE), "{}", item.detail);
    assert!(item.fix.is_some());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": GENERAL, "auto_role_ids": [discord::MEMBER_ROLE]}),
    );
    let item = welcome(true);
    assert_eq!(
        item.status,
        modctl_types::onboarding::ItemStatus::Done,
        "{item:?}"
    );
    assert!(item.detail.contains("#general"), "{}", item.detail);
}

/// The Slack adapter on the fake, as the daemon builds it for workspace
/// `ALPHA_SLACK`.
fn slack_adapter(fake: &FakeSlack) -> modctld::platform::slack::Slack {
    use modctld::platform::{PlatformClients, retry::RetryPolicy};
    let clients = PlatformClients::new(RetryPolicy::default(), modctld::clock::Clock::system());
    modctld::platform::slack::Slack::new(
        clients,
        Some(fake.uri()),
        modctl_e2e::fakes::slack::TOKEN.into(),
    )
    .in_workspace(ALPHA_SLACK)
}

/// Two members added to one user group at once (welcome's tasks,
/// verification) are both in it: the second read waits for the first
/// write. A write that failed is not sent again with the list it read:
/// the list is read again.
#[tokio::test(flavor = "multi_thread")]
async fn slack_user_group_changes_at_once_lose_no_member() {
    use modctld::platform::capabilities::JoinUserGroup;
    let (_fixture, fake) = slack();
    let adapter = std::sync::Arc::new(slack_adapter(&fake));
    let gate = fake.hold("POST", "/usergroups.users.update");
    let first = tokio::spawn({
        let adapter = adapter.clone();
        async move { adapter.join_user_group("S0MEMBERS1", "U0FIRST001").await }
    });
    let arrived = tokio::task::block_in_place(|| gate.wait_arrived(Duration::from_secs(5)));
    assert!(arrived, "the first write arrives");
    let second = tokio::spawn({
        let adapter = adapter.clone();
        async move { adapter.join_user_group("S0MEMBERS1", "U0SECOND01").await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        fake.requests_to("POST", "/usergroups.users.list").len(),
        1,
        "the second read waits for the first write"
    );
    gate.release();
    assert!(first.await.unwrap().unwrap());
    assert!(second.await.unwrap().unwrap());
    let mut users = fake.user_group_users("S0MEMBERS1").unwrap();
    users.sort();
    assert_eq!(users, ["U0FIRST001", "U0OLDTIMER", "U0SECOND01"]);

    // A write refused with a 500: the list is read again before it is.
    fake.fail(
        "POST",
        "/usergroups.users.update",
        500,
        json!({"ok": false, "error": "internal_error"}),
        1,
    );
    let reads = fake.requests_to("POST", "/usergroups.users.list").len();
    assert!(
        adapter
            .join_user_group("S0MEMBERS1", "U0THIRD001")
            .await
            .unwrap()
    );
    assert_eq!(
        fake.requests_to("POST", "/usergroups.users.list").len(),
        reads + 2
    );
    assert_eq!(fake.user_group_users("S0MEMBERS1").unwrap().len(), 4);
}

/// Slack greets by DM: `welcome.channel_id` is neither required nor used.
#[test]
fn slack_greets_by_dm_without_a_channel() {
    let (fixture, fake) = slack();
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::Welcome,
        json!({"enabled": true, "message": "Hi {user}", "auto_role_ids": ["S0MEMBERS1"]}),
    );
    let user = "U0NEWBIE02";
    fake.add_user(user, "newbie");
    assert_eq!(
        daemon.post_slack_event(
            SIGNING_SECRET,
            ALPHA_SLACK,
            "EvJoin9",
            team_join(user, "Sam", false)
        ),
        200
    );
    eventually("the greeting DM", || !fake.dms(user).is_empty());
    assert_eq!(fake.dms(user)[0].text, format!("Hi <@{user}>"));
}
