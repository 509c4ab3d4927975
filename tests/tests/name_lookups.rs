//! The name lookups (issue #27) end to end: ids the events never named are
//! asked of the platforms in the background (Slack `users.info` and
//! `conversations.info`, Telegram `getChatMember`, Discord "Get Guild
//! Member"), each server within its budget; the next answer carries the
//! name; a departed member's miss is remembered; an old name is asked
//! again. The tests drive the worker (`look_up_names`) and read the fakes'
//! request logs for what was called.

use std::time::Duration;

use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::fakes::slack::{self, FakeSlack};
use modctl_e2e::fakes::telegram::{self, FakeTelegram};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::moderation::{Action, ActionRequest};
use modctl_types::query::CaseQuery;
use modctld::events::NameKind;
use modctld::names::lookup;

const SIGNING_SECRET: &str = "lookup-signing-secret";

fn note(fixture: &Fixture, server: &str, user: &str) -> i64 {
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let request = ActionRequest {
        user_id: user.into(),
        reason: Some("lookups".into()),
        ..Default::default()
    };
    fixture
        .daemon
        .block_on(client.perform_action(server, Action::Note, &request))
        .expect("note")
        .case_id
}

/// The `user_name` of case `id` as `GET /servers/{id}/cases` lists it.
fn listed_name(fixture: &Fixture, server: &str, id: i64) -> Option<String> {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let list = fixture
        .daemon
        .block_on(client.cases(server, &CaseQuery::default()))
        .expect("cases");
    list.cases
        .into_iter()
        .find(|c| c.id == id)
        .expect("the case is listed")
        .user_name
}

/// The value of `sample` on `GET /metrics`, 0 when absent.
fn metric(fixture: &Fixture, sample: &str) -> f64 {
    let url = fixture.daemon.metrics_url().to_owned();
    let text = fixture.daemon.block_on(async move {
        reqwest::get(url)
            .await
            .expect("scrape")
            .text()
            .await
            .expect("text")
    });
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.strip_prefix(' '))
        .map_or(0.0, |v| v.parse().expect("a number"))
}

fn slack_workspace() -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let fake = FakeSlack::start();
    fixture
        .daemon
        .connect_slack(ALPHA_SLACK, &fake.uri(), None, SIGNING_SECRET);
    (fixture, fake)
}

#[test]
fn a_slack_member_never_seen_in_an_event_is_named_after_the_lookup() {
    let (fixture, fake) = slack_workspace();
    let nora = "U0NORA0001";
    fake.add_user(nora, "nora");
    fake.set_profile(nora, "Nora N.", "Nora Nilsson");
    let case = note(&fixture, ALPHA_SLACK, nora);

    // The answer does not wait: no name yet, and nothing asked yet.
    assert_eq!(listed_name(&fixture, ALPHA_SLACK, case), None);
    assert!(fake.calls("users.info").is_empty());

    assert_eq!(fixture.daemon.look_up_names(), 1);
    let calls = fake.calls("users.info");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].body["user"], nora, "{:?}", calls[0].body);
    // The profile's display name, as Slack shows the member.
    assert_eq!(
        listed_name(&fixture, ALPHA_SLACK, case).as_deref(),
        Some("Nora N.")
    );
    // Known now: later answers ask nothing more.
    assert_eq!(fixture.daemon.look_up_names(), 0);
    assert_eq!(fake.calls("users.info").len(), 1);
    assert_eq!(
        metric(
            &fixture,
            r#"modctld_name_lookups_total{platform="slack",outcome="found"}"#
        ),
        1.0
    );

    // Without a display name, the real name.
    let olle = "U0OLLE0001";
    fake.add_user(olle, "olle");
    fake.set_profile(olle, "", "Olle Ek");
    let case = note(&fixture, ALPHA_SLACK, olle);
    listed_name(&fixture, ALPHA_SLACK, case);
    fixture.daemon.look_up_names();
    assert_eq!(
        listed_name(&fixture, ALPHA_SLACK, case).as_deref(),
        Some("Olle Ek")
    );
}

#[test]
fn a_slack_channel_is_named_through_conversations_info() {
    let (fixture, fake) = slack_workspace();
    let names = &fixture.daemon.state().names;
    assert_eq!(
        names.get(ALPHA_SLACK, NameKind::Channel, slack::MODLOG_CHANNEL),
        None
    );
    assert_eq!(fixture.daemon.look_up_names(), 1);
    let calls = fake.calls("conversations.info");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].body["channel"], slack::MODLOG_CHANNEL);
    assert_eq!(
        names
            .get(ALPHA_SLACK, NameKind::Channel, slack::MODLOG_CHANNEL)
            .as_deref(),
        Some("mod-log")
    );
}

#[test]
fn a_telegram_user_is_named_through_get_chat_member() {
    let fixture = Fixture::start();
    let fake = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
    let ada: i64 = 4_242;
    fake.add_member(ada);
    fake.set_user_name(ada, "Ada", Some("Lovelace"));
    let case = note(&fixture, ALPHA_TELEGRAM, &ada.to_string());
    assert_eq!(listed_name(&fixture, ALPHA_TELEGRAM, case), None);

    assert_eq!(fixture.daemon.look_up_names(), 1);
    let calls = fake.calls("getChatMember");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].body["user_id"], ada);
    assert_eq!(
        listed_name(&fixture, ALPHA_TELEGRAM, case).as_deref(),
        Some("Ada Lovelace")
    );
}

struct Guild {
    fixture: Fixture,
    fake: FakeDiscord,
}

fn guild() -> Guild {
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fixture
        .daemon
        .connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    Guild { fixture, fake }
}

impl Guild {
    fn member_reads(&self, user: &str) -> usize {
        self.fake
            .requests_to("GET", &format!("/guilds/{ALPHA_DISCORD}/members/{user}"))
            .len()
    }
}

#[test]
fn a_departed_member_is_asked_for_once_until_the_miss_has_waited() {
    let g = guild();
    let gone = "800000000000000077";
    g.fake.add_user(gone);
    let case = note(&g.fixture, ALPHA_DISCORD, gone);
    for _ in 0..4 {
        assert_eq!(listed_name(&g.fixture, ALPHA_DISCORD, case), None);
        g.fixture.daemon.look_up_names();
    }
    // "Get Guild Member" answered 404 Unknown Member once; the miss is
    // remembered, not asked for on every answer.
    assert_eq!(g.member_reads(gone), 1);
    assert_eq!(
        metric(
            &g.fixture,
            r#"modctld_name_lookups_total{platform="discord",outcome="not_found"}"#
        ),
        1.0
    );

    // Once the miss has waited, asked again; they came back with a nick.
    g.fake.add_member(gone, &[]);
    g.fake.set_nick(gone, "Back Again");
    g.fixture.daemon.clock().advance(lookup::MISS_AGE);
    assert_eq!(listed_name(&g.fixture, ALPHA_DISCORD, case), None);
    assert_eq!(g.fixture.daemon.look_up_names(), 1);
    assert_eq!(g.member_reads(gone), 2);
    assert_eq!(
        listed_name(&g.fixture, ALPHA_DISCORD, case).as_deref(),
        Some("Back Again")
    );
}

#[test]
fn a_name_is_asked_again_once_it_is_old_and_shown_meanwhile() {
    let g = guild();
    let member = "800000000000000078";
    g.fake.add_member(member, &[]);
    let case = note(&g.fixture, ALPHA_DISCORD, member);
    listed_name(&g.fixture, ALPHA_DISCORD, case);
    g.fixture.daemon.look_up_names();
    // No nick, no global name: the username.
    assert_eq!(
        listed_name(&g.fixture, ALPHA_DISCORD, case),
        Some(format!("user-{member}"))
    );
    g.fake.set_nick(member, "Renamed");
    g.fixture
        .daemon
        .clock()
        .advance(lookup::REFRESH_AGE - Duration::from_secs(1));
    listed_name(&g.fixture, ALPHA_DISCORD, case);
    assert_eq!(g.fixture.daemon.look_up_names(), 0, "not old yet");
    g.fixture.daemon.clock().advance(Duration::from_secs(1));
    // The old name meanwhile, the new one after the lookup.
    assert_eq!(
        listed_name(&g.fixture, ALPHA_DISCORD, case),
        Some(format!("user-{member}"))
    );
    assert_eq!(g.fixture.daemon.look_up_names(), 1);
    assert_eq!(
        listed_name(&g.fixture, ALPHA_DISCORD, case).as_deref(),
        Some("Renamed")
    );
    assert_eq!(g.member_reads(member), 2);
}

#[test]
fn the_budget_holds_many_unknown_ids_to_a_few_calls_a_window() {
    let (fixture, fake) = slack_workspace();
    let budget = lookup::budget(modctl_types::Platform::Slack) as usize;
    let users: Vec<String> = (0..budget + 5).map(|n| format!("U0MANY{n:04}")).collect();
    for user in &users {
        fake.add_user(user, &format!("name{user}"));
        note(&fixture, ALPHA_SLACK, user);
    }
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let query = CaseQuery {
        limit: Some(100),
        ..CaseQuery::default()
    };
    let list = || {
        fixture
            .daemon
            .block_on(client.cases(ALPHA_SLACK, &query))
            .expect("cases")
            .cases
    };
    assert_eq!(list().len(), users.len());
    // `conversations.info` of the mod-log is not asked: no answer named it.
    assert_eq!(fixture.daemon.look_up_names(), budget);
    assert_eq!(fake.calls("users.info").len(), budget);
    // The rest wait for the next window, however often answers ask.
    list();
    assert_eq!(fixture.daemon.look_up_names(), 0);
    assert_eq!(fake.calls("users.info").len(), budget);

    fixture.daemon.clock().advance(lookup::WINDOW);
    assert_eq!(fixture.daemon.look_up_names(), 5);
    assert_eq!(fake.calls("users.info").len(), budget + 5);
    assert!(list().iter().all(|c| c.user_name.is_some()));
}

/// Onboarding's texts name a channel `#name (id)` where the daemon knows
/// its name: here one Slack renamed (`channel_rename`) before it was
/// deleted, which the config still names.
#[test]
fn onboarding_names_the_channels_it_reports_by_id() {
    let (fixture, fake) = slack_workspace();
    let daemon = &fixture.daemon;
    let gone = "C0GONE0001";
    let status = daemon.post_slack_event(
        SIGNING_SECRET,
        ALPHA_SLACK,
        "Ev0RENAME01",
        serde_json::json!({"type": "channel_rename",
            "channel": {"id": gone, "name": "old-mod-log", "created": 1_700_000_000}}),
    );
    assert_eq!(status, 200);
    daemon.events_handled();
    daemon.set_config(
        ALPHA_SLACK,
        modctl_types::config::SectionName::General,
        serde_json::json!({"modlog_channel_id": gone}),
    );
    // The lockdown's alert channel on Slack, named the same way.
    daemon.set_config(
        ALPHA_SLACK,
        modctl_types::config::SectionName::Logging,
        serde_json::json!({"moderation": gone}),
    );
    daemon.set_config(
        ALPHA_SLACK,
        modctl_types::config::SectionName::Antinuke,
        serde_json::json!({"enabled": true, "max_joins_per_minute": 10}),
    );
    let client = daemon.client(&fixture.alpha_ro);
    let onboarding = daemon
        .block_on(client.onboarding(ALPHA_SLACK, true))
        .expect("onboarding");
    let item = |id: &str| {
        onboarding
            .items
            .iter()
            .find(|i| i.id == id)
            .unwrap_or_else(|| panic!("no {id} in {:?}", onboarding.items))
            .clone()
    };
    let modlog = item("modlog_channel");
    assert_eq!(
        modlog.detail, "channel #old-mod-log (C0GONE0001) no longer exists",
        "{modlog:?}"
    );
    let lockdown = item("raid_lockdown");
    assert!(
        lockdown
            .detail
            .contains("Slack is alerted in #old-mod-log (C0GONE0001) only"),
        "{lockdown:?}"
    );
    let ids = item("config_ids");
    assert!(
        ids.detail
            .contains("general.modlog_channel_id = #old-mod-log (C0GONE0001)"),
        "{ids:?}"
    );
    // The name was learned just now: nothing to ask Slack.
    assert_eq!(daemon.look_up_names(), 0);
    assert!(fake.calls("conversations.info").is_empty());
    // Six hours on, it is asked again; Slack no longer knows the channel,
    // and the name learned before stays.
    daemon.clock().advance(modctld::names::lookup::REFRESH_AGE);
    let asking = daemon
        .block_on(client.onboarding(ALPHA_SLACK, false))
        .expect("onboarding");
    assert_eq!(asking.items.len(), onboarding.items.len());
    assert_eq!(daemon.look_up_names(), 1);
    assert_eq!(fake.calls("conversations.info").len(), 1);
    let again = daemon
        .block_on(client.onboarding(ALPHA_SLACK, false))
        .expect("onboarding");
    assert!(
        again
            .items
            .iter()
            .any(|i| i.detail == "channel #old-mod-log (C0GONE0001) no longer exists")
    );
}
