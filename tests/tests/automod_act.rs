//! Automod acting end to end (issue #25): messages arrive through the real
//! transports (the Discord gateway session, Slack's signed Events API hook,
//! Telegram's long polling) against the fakes, and the daemon deletes what
//! its filters catch, records the hits (`GET /servers/{id}/automod/hits`)
//! and, for filters whose action is not `delete`, one case `source: automod`
//! per burst, once however often the platform delivers the message.

use std::time::Duration;

use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::fakes::slack::{self, FakeSlack};
use modctl_e2e::fakes::telegram::{self, FakeTelegram};
use modctl_e2e::{
    ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, NETWORK_DEADLINE, TestDaemon, eventually,
};
use modctl_types::automod::{AutomodHitRecord, EnforcedBy, FilterName, HitOutcome, HitQuery};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, CaseSource};
use modctl_types::query::CaseQuery;
use serde_json::{Value, json};

pub(crate) const MEMBER: &str = "800000000000000004";
pub(crate) const GENERAL: &str = "700000000000000002";
const EXEMPT: &str = "700000000000000003";
const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

/// Blocked words (`action`), the exempt channel, and duplicates off.
pub(crate) fn automod(daemon: &TestDaemon, server: &str, action: &str) {
    daemon.set_config(
        server,
        SectionName::Automod,
        json!({
            "blocked_words": {"enabled": true, "words": ["badword", "scam*"], "action": action},
            "exempt_channel_ids": [if server == ALPHA_DISCORD { EXEMPT } else { "C0EXEMPT01" }],
        }),
    );
}

pub(crate) fn hits(fixture: &Fixture, server: &str) -> Vec<AutomodHitRecord> {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    fixture
        .daemon
        .block_on(client.automod_hits(server, &HitQuery::default()))
        .expect("automod hits")
        .hits
}

/// The automod cases of `server`: (action, user, reason).
pub(crate) fn automod_cases(fixture: &Fixture, server: &str) -> Vec<(Action, String, String)> {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let cases = fixture
        .daemon
        .block_on(client.cases(server, &CaseQuery::default()))
        .expect("cases")
        .cases;
    cases
        .into_iter()
        .filter(|c| c.source == CaseSource::Automod)
        .map(|c| (c.action, c.user_id, c.reason.unwrap_or_default()))
        .collect()
}

/// Waits until the hits of `server` have settled (each deleted or said why
/// not, and each `case` hit linked to its case) and `count` of them exist.
pub(crate) fn settled_hits(fixture: &Fixture, server: &str, count: usize) -> Vec<AutomodHitRecord> {
    let settled = |hits: &[AutomodHitRecord]| {
        hits.len() == count
            && hits.iter().all(|h| {
                h.deleted.is_some() && (h.outcome != HitOutcome::Case || h.case_id.is_some())
            })
    };
    let deadline = std::time::Instant::now() + NETWORK_DEADLINE;
    loop {
        let found = hits(fixture, server);
        if settled(&found) {
            return found;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {count} settled automod hits on {server}: {found:#?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) struct Discord {
    pub(crate) fixture: Fixture,
    pub(crate) discord: FakeDiscord,
    pub(crate) gateway: FakeGateway,
}

/// A Discord guild connected to the fakes, the message-content intent
/// granted, its gateway session identified.
pub(crate) fn discord(action: &str) -> Discord {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let flags = discord::DEFAULT_APPLICATION_FLAGS | discord::GATEWAY_MESSAGE_CONTENT;
    gateway.set_application_flags(flags);
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_application_flags(flags);
    fake.set_gateway_url(&gateway.url());
    fake.add_channel(GENERAL, "general");
    fake.add_channel(EXEMPT, "off-topic");
    fake.add_member(MEMBER, &[discord::MEMBER_ROLE]);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    automod(daemon, ALPHA_DISCORD, action);
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
    /// `MEMBER` says `text` in `channel`: the message's id.
    pub(crate) fn say(&self, channel: &str, text: &str) -> String {
        let id = self.discord.seed_message(channel, MEMBER, text);
        self.redeliver(channel, &id, text);
        id
    }

    pub(crate) fn redeliver(&self, channel: &str, id: &str, text: &str) {
        self.gateway.message_create(
            ALPHA_DISCORD,
            channel,
            id,
            MEMBER,
            &[discord::MEMBER_ROLE],
            text,
        );
    }
}

#[test]
fn discord_a_blocked_word_is_deleted_and_recorded_and_an_exempt_channel_is_spared() {
    let d = discord("delete");
    let spared = d.say(EXEMPT, "what a badword");
    let clean = d.say(GENERAL, "hello there");
    let caught = d.say(GENERAL, "what a BADWORD, really");
    eventually("the caught message to be deleted", || {
        d.discord.is_deleted(GENERAL, &caught)
    });
    let hits = settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    let hit = &hits[0];
    assert_eq!(
        (
            hit.filter,
            hit.matched.as_str(),
            hit.message_id.as_str(),
            hit.user_id.as_str()
        ),
        (FilterName::BlockedWords, "BADWORD", caught.as_str(), MEMBER)
    );
    assert_eq!(
        (hit.outcome, hit.deleted, hit.case_id, hit.enforced_by),
        (HitOutcome::Delete, Some(true), None, EnforcedBy::Daemon)
    );
    assert!(!d.discord.is_deleted(EXEMPT, &spared), "exempt channel");
    assert!(!d.discord.is_deleted(GENERAL, &clean));
    // `delete` makes no case.
    assert!(automod_cases(&d.fixture, ALPHA_DISCORD).is_empty());
}

/// The guild's automod log channel.
pub(crate) const AUTOMOD_LOG: &str = "700000000000000009";

impl Discord {
    /// Adds the [`AUTOMOD_LOG`] channel and makes it `logging.automod`.
    pub(crate) fn log_automod(&self) {
        self.discord.add_channel(AUTOMOD_LOG, "automod-log");
        self.fixture.daemon.set_config(
            ALPHA_DISCORD,
            SectionName::Logging,
            json!({"automod": AUTOMOD_LOG}),
        );
    }
}

/// Every hit goes to `logging.automod`, a delete-only one included, with
/// what became of the message; once, however often Discord redelivers it.
#[test]
fn discord_a_hit_is_posted_to_the_automod_log_once() {
    let d = discord("delete");
    d.log_automod();
    let caught = d.say(GENERAL, "a scam link");
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    d.redeliver(GENERAL, &caught, "a scam link");
    d.fixture.daemon.deliver_logs();
    let posted = d.discord.posted(AUTOMOD_LOG);
    assert_eq!(posted.len(), 1, "{posted:#?}");
    let embeds = posted[0].body["embeds"].as_array().unwrap();
    assert_eq!(embeds.len(), 1, "one hit, one entry: {embeds:#?}");
    let text = embeds[0].to_string();
    for part in ["blocked_words", "scam", MEMBER, "deleted"] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert_eq!(posted[0].body["allowed_mentions"]["parse"], json!([]));
}

#[test]
fn discord_a_warn_filter_makes_one_case_per_message_and_per_burst() {
    let d = discord("warn");
    let first = d.say(GENERAL, "this is a scammer");
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    // The platform delivers it again (a resumed session): nothing new.
    d.redeliver(GENERAL, &first, "this is a scammer");
    // Two more within the burst window: deleted, no more cases.
    let second = d.say(GENERAL, "badword");
    let third = d.say(GENERAL, "badword again");
    let hits = settled_hits(&d.fixture, ALPHA_DISCORD, 3);
    // The second and third are acted on in tasks of their own, in either
    // order.
    let mut outcomes: Vec<_> = hits
        .iter()
        .map(|h| (h.message_id.clone(), h.outcome))
        .collect();
    outcomes.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        outcomes,
        [
            (first.clone(), HitOutcome::Case),
            (second.clone(), HitOutcome::Burst),
            (third.clone(), HitOutcome::Burst),
        ]
    );
    for id in [&first, &second, &third] {
        assert!(d.discord.is_deleted(GENERAL, id), "{id} deleted");
    }
    let cases = automod_cases(&d.fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
    let (action, user, reason) = &cases[0];
    assert_eq!((*action, user.as_str()), (Action::Warn, MEMBER));
    assert!(
        reason.contains("blocked_words") && reason.contains("\"scam\""),
        "{reason}"
    );
    let case_of_first = hits.iter().find(|h| h.message_id == first).unwrap().case_id;
    assert_eq!(case_of_first, Some(1), "the hit names its case");
    // The case counts a strike like any other warning.
    let client = d.fixture.daemon.client(&d.fixture.alpha_ro);
    let strikes = d
        .fixture
        .daemon
        .block_on(client.strikes(ALPHA_DISCORD))
        .expect("strikes");
    let member = strikes.iter().find(|s| s.user_id == MEMBER);
    assert_eq!(member.map(|s| s.active), Some(1), "{strikes:?}");
    // `/insights` counts it by its source.
    let insights = d
        .fixture
        .daemon
        .block_on(client.insights(ALPHA_DISCORD, Some(7)))
        .expect("insights");
    assert_eq!(insights.totals.by_source.get("automod"), Some(&1));
    // Redelivering after the case was made changes nothing either.
    d.redeliver(GENERAL, &first, "this is a scammer");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(automod_cases(&d.fixture, ALPHA_DISCORD).len(), 1);
    assert_eq!(
        hits_of(&d.fixture, ALPHA_DISCORD, Some(FilterName::Caps)),
        0
    );
}

pub(crate) fn hits_of(fixture: &Fixture, server: &str, filter: Option<FilterName>) -> usize {
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let query = HitQuery {
        filter,
        ..HitQuery::default()
    };
    fixture
        .daemon
        .block_on(client.automod_hits(server, &query))
        .expect("automod hits")
        .hits
        .len()
}

/// Discord's gateway reports that native rule `rule` blocked `MEMBER`'s
/// "buy badword now" in `GENERAL`.
fn blocked_badword(d: &Discord, rule: &str) {
    d.gateway.automod_execution(
        ALPHA_DISCORD,
        rule,
        1,
        MEMBER,
        GENERAL,
        "buy badword now",
        Some("badword"),
        "badword",
    );
}

#[test]
fn discord_a_native_rule_execution_becomes_a_hit_and_a_case() {
    let d = discord("warn");
    let rule = crate::automod_settling::synced_rule(&d, FilterName::BlockedWords);
    blocked_badword(&d, &rule);
    let hits = settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    assert_eq!(
        (hits[0].enforced_by, hits[0].outcome, hits[0].deleted),
        (EnforcedBy::Native, HitOutcome::Case, Some(true))
    );
    assert_eq!(automod_cases(&d.fixture, ALPHA_DISCORD).len(), 1);
}

/// A `timeout` filter enforced natively times the member out once: the
/// rule only blocks (no Discord TIMEOUT action, which would time the member
/// out itself), and the daemon's case from the execution makes the one
/// member PATCH.
#[test]
fn discord_a_native_timeout_filter_times_the_member_out_once() {
    let d = discord("timeout");
    let rule = crate::automod_settling::synced_rule(&d, FilterName::BlockedWords);
    let synced = d
        .discord
        .automod_rules()
        .into_iter()
        .find(|r| r["id"] == rule.as_str())
        .expect("the synced rule");
    assert_eq!(synced["actions"], json!([{"type": 1}]), "{synced}");
    blocked_badword(&d, &rule);
    settled_hits(&d.fixture, ALPHA_DISCORD, 1);
    let cases = automod_cases(&d.fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(cases[0].0, Action::Timeout);
    eventually("the member to be timed out", || {
        d.discord.timed_out_until(MEMBER).is_some()
    });
    // Time for a second timeout, were one coming.
    std::thread::sleep(Duration::from_millis(300));
    let patches = d.discord.requests_to(
        "PATCH",
        &format!("/guilds/{ALPHA_DISCORD}/members/{MEMBER}"),
    );
    assert_eq!(patches.len(), 1, "{patches:?}");
}

/// A Slack workspace connected to the fake, its Events API hook verified
/// with the signing secret; with `admin` an admin user token too.
fn slack(admin: bool, action: &str) -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let fake = FakeSlack::start();
    fake.add_channel("C0GENERAL1", "general");
    fake.add_channel_member("C0GENERAL1", slack::MEMBER);
    let daemon = &fixture.daemon;
    let admin = admin.then_some(slack::ADMIN_TOKEN);
    daemon.connect_slack(ALPHA_SLACK, &fake.uri(), admin, SIGNING_SECRET);
    automod(daemon, ALPHA_SLACK, action);
    (fixture, fake)
}

/// Slack posts a `message` event of `MEMBER` saying `text` (seeded in the
/// fake first, so it can be deleted): the message's `ts`.
pub(crate) fn slack_say(
    daemon: &TestDaemon,
    fake: &FakeSlack,
    event_id: &str,
    text: &str,
) -> String {
    let at = (ALPHA_SLACK, "C0GENERAL1");
    daemon.slack_member_says(fake, SIGNING_SECRET, at, event_id, text)
}

#[test]
fn slack_with_an_admin_user_token_deletes_the_message() {
    let (fixture, fake) = slack(true, "delete");
    let ts = slack_say(&fixture.daemon, &fake, "Ev1", "a badword here");
    eventually("the message to be deleted", || {
        fake.is_deleted("C0GENERAL1", &ts)
    });
    let hits = settled_hits(&fixture, ALPHA_SLACK, 1);
    assert_eq!(hits[0].deleted, Some(true));
    assert!(fake.ephemerals("C0GENERAL1").is_empty());
}

#[test]
fn slack_without_a_user_token_shows_an_ephemeral_notice_and_records_not_deleted() {
    let (fixture, fake) = slack(false, "warn");
    let ts = slack_say(&fixture.daemon, &fake, "Ev2", "a badword here");
    let hits = settled_hits(&fixture, ALPHA_SLACK, 1);
    let hit = &hits[0];
    assert_eq!((hit.deleted, hit.outcome), (Some(false), HitOutcome::Case));
    let why = hit.delete_detail.as_deref().unwrap_or_default();
    assert!(
        why.contains("user token") && why.contains("ephemeral"),
        "{why}"
    );
    assert!(!fake.is_deleted("C0GENERAL1", &ts));
    let notices = fake.ephemerals("C0GENERAL1");
    assert_eq!(notices.len(), 1, "{notices:?}");
    // The case is recorded all the same (a warning on Slack is a note to
    // the moderators: nothing to apply on the platform).
    let cases = automod_cases(&fixture, ALPHA_SLACK);
    assert_eq!(cases.len(), 1, "{cases:?}");
}

/// The workspace's owner is never filtered (`users.info` says `is_owner`),
/// while a member saying the same is: the owner's message stays, no hit,
/// no case.
#[test]
fn slack_the_workspace_owner_is_spared() {
    let (fixture, fake) = slack(true, "warn");
    let daemon = &fixture.daemon;
    let channel = "C0GENERAL1";
    fake.add_channel_member(channel, slack::OWNER);
    let text = "a badword here";
    let owner_ts = fake.seed_message(channel, slack::OWNER, text);
    let event = json!({"type": "message", "channel": channel, "user": slack::OWNER,
                       "ts": owner_ts, "text": text});
    assert_eq!(
        daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, "EvOwner", event),
        200
    );
    let asked = |user: &str| {
        fake.calls("users.info")
            .iter()
            .any(|c| c.body["user"] == user)
    };
    eventually("the owner's rank to be asked", || asked(slack::OWNER));
    let ts = slack_say(daemon, &fake, "EvMember", text);
    eventually("the member's message to be deleted", || {
        fake.is_deleted(channel, &ts)
    });
    let found = settled_hits(&fixture, ALPHA_SLACK, 1);
    assert_eq!(found[0].user_id, slack::MEMBER);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(hits(&fixture, ALPHA_SLACK).len(), 1);
    assert!(!fake.is_deleted(channel, &owner_ts));
    let cases = automod_cases(&fixture, ALPHA_SLACK);
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(cases[0].1, slack::MEMBER);
}

/// On Telegram the group's creator and an administrator the bot did not
/// promote (it cannot restrict them) are never filtered; an administrator
/// the bot promoted (`can_be_edited`) and a member are.
#[test]
fn telegram_the_creator_and_administrators_above_the_bot_are_spared() {
    let (fixture, fake, chat, now) = telegram();
    let daemon = &fixture.daemon;
    let (admin, promoted, member) = (7, 8, 5);
    fake.add_admin(admin);
    fake.add_admin_promoted_by_bot(promoted);
    fake.add_member(member);
    let say = |user: i64| fake.push_in(chat, user, json!({"text": "so badword", "date": now}));
    let spared = [say(telegram::OWNER), say(admin)];
    let caught = [say(promoted), say(member)];
    assert_eq!(daemon.start_receivers(), 1);
    let id = |update: &Value| update["message"]["message_id"].as_i64().unwrap();
    eventually("the caught messages to be deleted", || {
        caught.iter().all(|u| fake.is_deleted(chat, id(u)))
    });
    let found = settled_hits(&fixture, ALPHA_TELEGRAM, 2);
    let mut users: Vec<String> = found.iter().map(|h| h.user_id.clone()).collect();
    users.sort();
    assert_eq!(users, [member.to_string(), promoted.to_string()]);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(hits(&fixture, ALPHA_TELEGRAM).len(), 2);
    for update in &spared {
        assert!(!fake.is_deleted(chat, id(update)), "{update}");
    }
}

/// A Telegram group connected to the fake, blocked words `delete`: the
/// fixture, the fake, the chat's id and the time now (for updates' `date`).
pub(crate) fn telegram() -> (Fixture, FakeTelegram, i64, i64) {
    let fixture = Fixture::start();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let fake = FakeTelegram::start(chat);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
    automod(daemon, ALPHA_TELEGRAM, "delete");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    (fixture, fake, chat, now)
}

#[test]
fn telegram_deletes_with_delete_message_and_records_the_hit() {
    let (fixture, fake, chat, now) = telegram();
    let daemon = &fixture.daemon;
    let caught: Value = fake.push_in(chat, 5, json!({"text": "so badword", "date": now}));
    let clean: Value = fake.push_in(chat, 5, json!({"text": "so good", "date": now}));
    assert_eq!(daemon.start_receivers(), 1);
    let id = |update: &Value| update["message"]["message_id"].as_i64().unwrap();
    eventually("the caught message to be deleted", || {
        fake.is_deleted(chat, id(&caught))
    });
    let hits = settled_hits(&fixture, ALPHA_TELEGRAM, 1);
    assert_eq!(
        (hits[0].message_id.clone(), hits[0].deleted),
        (id(&caught).to_string(), Some(true))
    );
    assert!(!fake.is_deleted(chat, id(&clean)));
    assert_eq!(
        fake.requests_to("POST", &FakeTelegram::path("deleteMessage"))
            .len(),
        1
    );
}

#[test]
fn the_simulator_speaks_through_the_event_path_and_its_message_is_deleted() {
    use modctld::operator::demo::discord_members::BOB;
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.connect_simulated(ALPHA_DISCORD, modctl_types::Platform::Discord);
    automod(daemon, ALPHA_DISCORD, "warn");
    let event = daemon
        .block_on(modctld::operator::simulate_message::speak(
            daemon.store(),
            daemon.clock().now(),
            ALPHA_DISCORD,
            BOB,
            "what a scam",
            None,
        ))
        .expect("the simulated member speaks");
    // Published on the daemon's runtime, as the demo's trickle does.
    let events = daemon.state().events.clone();
    daemon.block_on(async move { events.publish(event) });
    let hits = settled_hits(&fixture, ALPHA_DISCORD, 1);
    assert_eq!(
        (hits[0].user_id.as_str(), hits[0].deleted, hits[0].outcome),
        (BOB, Some(true), HitOutcome::Case)
    );
    let cases = automod_cases(&fixture, ALPHA_DISCORD);
    assert_eq!(cases.len(), 1, "{cases:?}");
    // The simulated community no longer shows it.
    let channel = hits[0].channel_id.clone().unwrap();
    let left = daemon.block_on(
        daemon
            .store()
            .read(move |tx| modctld::store::simulator::messages(tx, ALPHA_DISCORD, &channel)),
    );
    assert!(!left.unwrap().iter().any(|m| m.contains("scam")));
}
