//! Antinuke end to end (issue #26): audit log entries arrive over the fake
//! Discord gateway (`GUILD_AUDIT_LOG_ENTRY_CREATE`, sent only to a session
//! that identified with GUILD_MODERATION), and the daemon stops the
//! executor whose count goes above its limit: one case `source: antinuke`,
//! the punishment on the fake, the owner told by DM, and (with
//! `antinuke.restore`) what was deleted put back from the snapshot taken
//! before. The owner, the bot and trusted members are never counted.

use std::time::Duration;

use modctl_client::RestoreWait;
use modctl_e2e::fakes::discord::gateway::{FakeGateway, GUILD_MODERATION, Sent};
use modctl_e2e::fakes::discord::{self, BOT, FakeDiscord, OWNER};
use modctl_e2e::{ALPHA_DISCORD, Fixture, NETWORK_DEADLINE, eventually};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CaseSource};
use modctl_types::query::CaseQuery;
use serde_json::{Value, json};

const NUKER: &str = "800000000000000041";
const TRUSTED: &str = "800000000000000042";
const TRUSTED_ROLE_MEMBER: &str = "800000000000000043";
const TRUSTED_ROLE: &str = "600000000000000041";
/// audit-log.mdx, "Audit Log Events".
const CHANNEL_DELETE: u64 = 12;
const ROLE_DELETE: u64 = 32;
const MEMBER_BAN_ADD: u64 = 22;
const WEBHOOK_CREATE: u64 = 50;

struct Guild {
    fixture: Fixture,
    discord: FakeDiscord,
    gateway: FakeGateway,
    next: std::cell::Cell<u64>,
}

/// Alpha's guild on the fakes with antinuke on (`antinuke` merged into
/// the defaults), its session identified.
fn guild(antinuke: Value) -> Guild {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_gateway_url(&gateway.url());
    fake.add_role(TRUSTED_ROLE, 1, 0);
    fake.add_member(NUKER, &[discord::MEMBER_ROLE]);
    fake.add_member(TRUSTED, &[discord::MEMBER_ROLE]);
    fake.add_member(TRUSTED_ROLE_MEMBER, &[TRUSTED_ROLE]);
    for n in 0..8 {
        fake.add_channel(&format!("70000000000000010{n}"), &format!("channel-{n}"));
    }
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    let mut section = json!({
        "enabled": true, "max_channel_deletions_per_minute": 2,
        "max_role_deletions_per_minute": 2, "max_bans_per_minute": 2, "action": "ban",
        "trusted_user_ids": [TRUSTED], "trusted_role_ids": [TRUSTED_ROLE],
    });
    for (k, v) in antinuke.as_object().unwrap() {
        section[k] = v.clone();
    }
    daemon.set_config(ALPHA_DISCORD, SectionName::Antinuke, section);
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"modlog_channel_id": discord::MODLOG_CHANNEL}),
    );
    assert_eq!(daemon.start_receivers(), 1);
    assert!(gateway.wait_for(NETWORK_DEADLINE, |sent| {
        sent.iter().any(|s| matches!(s, Sent::Identify { .. }))
    }));
    Guild {
        fixture,
        discord: fake,
        gateway,
        next: std::cell::Cell::new(1),
    }
}

impl Guild {
    /// `user` did `action` to `target`: an audit log entry; its id.
    fn entry(&self, action: u64, user: &str, target: &str) -> String {
        let n = self.next.get();
        self.next.set(n + 1);
        let id = format!("9000000000000{n:05}");
        self.gateway
            .audit_log_entry(ALPHA_DISCORD, &id, action, user, target, json!([]));
        id
    }

    /// `user` deletes channel number `n`, as Discord tells it.
    fn delete_channel(&self, user: &str, n: u32) -> String {
        let channel = format!("70000000000000010{n}");
        self.discord.delete_channel(&channel);
        self.entry(CHANNEL_DELETE, user, &channel)
    }

    fn cases(&self) -> Vec<Case> {
        let client = self.fixture.daemon.client(&self.fixture.alpha_ro);
        self.fixture
            .daemon
            .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
            .expect("cases")
            .cases
            .into_iter()
            .filter(|c| c.source == CaseSource::Antinuke)
            .collect()
    }

    /// Gives the entries sent so far time to be handled (for what must
    /// not happen).
    fn settle(&self) {
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn a_nuke_is_stopped_above_the_limit_and_the_owner_bot_and_trusted_are_not() {
    let g = guild(json!({}));
    let identified = g.gateway.sent().into_iter().find_map(|s| match s {
        Sent::Identify { intents, .. } => Some(intents),
        _ => None,
    });
    assert_eq!(
        identified.map(|i| i & GUILD_MODERATION),
        Some(GUILD_MODERATION),
        "the session asks for the audit log"
    );
    // Never counted: the owner, the bot itself, a trusted user, a member of
    // a trusted role; each deletes more than the limit.
    for (n, who) in [OWNER, BOT, TRUSTED, TRUSTED_ROLE_MEMBER]
        .into_iter()
        .enumerate()
    {
        for k in 0..3 {
            g.entry(CHANNEL_DELETE, who, &format!("7100000000000{n}{k:04}"));
        }
    }
    g.settle();
    for who in [OWNER, TRUSTED, TRUSTED_ROLE_MEMBER] {
        assert!(!g.discord.is_banned(who), "{who} was punished");
    }
    assert!(g.cases().is_empty(), "{:#?}", g.cases());

    // The nuker: two deletions are within the limit.
    let first = g.delete_channel(NUKER, 0);
    let second = g.delete_channel(NUKER, 1);
    g.settle();
    assert!(!g.discord.is_banned(NUKER), "banned at the limit");
    // The third takes the count above it, the fourth is already in flight.
    let third = g.delete_channel(NUKER, 2);
    g.delete_channel(NUKER, 3);
    eventually("the nuker to be banned", || g.discord.is_banned(NUKER));
    eventually("the case to be recorded", || !g.cases().is_empty());
    g.settle();
    let cases = g.cases();
    assert_eq!(cases.len(), 1, "one incident, one case: {cases:#?}");
    let case = &cases[0];
    assert_eq!((case.action, case.user_id.as_str()), (Action::Ban, NUKER));
    let reason = case.reason.clone().unwrap_or_default();
    assert!(
        reason.contains("3 channel deletions within a minute (limit 2)"),
        "{reason}"
    );
    for id in [&first, &second, &third] {
        assert!(reason.contains(id.as_str()), "{id} not in {reason}");
    }
    assert_eq!(case.actor, "system:antinuke");
    // The channels deleted before it stopped are gone; the rest are there.
    assert_eq!(g.discord.channels_named("channel-4").len(), 1);
    eventually("the owner to be told", || {
        g.discord
            .dms(OWNER)
            .iter()
            .any(|m| m.body.to_string().contains("Antinuke stopped"))
    });
    for who in [OWNER, TRUSTED, TRUSTED_ROLE_MEMBER] {
        assert!(!g.discord.is_banned(who), "{who} was punished");
    }
}

#[test]
fn roles_are_stripped_and_what_went_comes_back_from_the_snapshot() {
    let g = guild(json!({"action": "strip_roles", "restore": true}));
    let daemon = &g.fixture.daemon;
    g.discord
        .add_member(NUKER, &[discord::MEMBER_ROLE, discord::JAIL_ROLE]);
    let client = daemon.client(&g.fixture.alpha_rw);
    daemon
        .block_on(client.capture_snapshot(ALPHA_DISCORD))
        .expect("snapshot");
    daemon.clock().advance(Duration::from_secs(5));
    // Two roles (the limit) and three channels, deleted.
    for role in [discord::JAIL_ROLE, TRUSTED_ROLE] {
        g.discord.delete_role(role);
        g.entry(ROLE_DELETE, NUKER, role);
    }
    g.settle();
    assert_eq!(
        g.discord.roles_of(NUKER),
        Some(vec![discord::MEMBER_ROLE.to_owned()]),
        "within the limit"
    );
    for n in 0..3 {
        g.delete_channel(NUKER, n);
    }
    eventually("the nuker's roles to be taken", || {
        g.discord.roles_of(NUKER).is_some_and(|r| r.is_empty())
    });
    eventually("the case", || !g.cases().is_empty());
    let case = &g.cases()[0];
    assert_eq!(case.action, Action::Note, "{case:#?}");
    assert!(
        case.reason
            .as_deref()
            .unwrap_or_default()
            .contains("roles removed"),
        "{case:#?}"
    );
    // The fixture's first restore job.
    eventually("a restore job to start", || {
        daemon
            .block_on(client.restore_job(ALPHA_DISCORD, 1))
            .is_ok()
    });
    let wait = RestoreWait {
        interval: Duration::from_millis(50),
        timeout: Some(Duration::from_secs(30)),
    };
    daemon
        .block_on(client.wait_for_restore(ALPHA_DISCORD, 1, &wait, |_| {}))
        .expect("the restore ends");
    for n in 0..3 {
        let name = format!("channel-{n}");
        assert_eq!(g.discord.channels_named(&name).len(), 1, "{name} is back");
    }
    assert_eq!(
        g.discord.roles_named("Jail").len(),
        1,
        "the Jail role is back"
    );
}

#[test]
fn an_immediate_trigger_acts_at_once_and_bans_count_per_executor() {
    let g = guild(json!({"action": "kick"}));
    g.entry(WEBHOOK_CREATE, NUKER, "710000000000000001");
    eventually("the webhook's creator to be kicked", || {
        !g.discord.is_member(NUKER)
    });
    // Bans by the bot itself (the daemon's own actions) are never counted.
    for n in 0..5 {
        g.entry(MEMBER_BAN_ADD, BOT, &format!("81000000000000000{n}"));
    }
    g.settle();
    let cases = g.cases();
    assert_eq!(cases.len(), 1, "{cases:#?}");
    assert_eq!(cases[0].action, Action::Kick);
    assert!(
        cases[0]
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("a webhook created"),
        "{cases:#?}"
    );
}

/// A key's bans carried out count against `max_bans_per_minute`: the one
/// above it is done and suspends the key; every later request of the key
/// is refused with 403 `key_suspended`, saying how an operator re-enables
/// it; the team is alerted in the mod-log; `key enable` lifts it.
#[test]
fn a_key_is_suspended_after_a_burst_of_bans() {
    let g = guild(json!({}));
    let daemon = &g.fixture.daemon;
    let members: Vec<String> = (0..4).map(|n| format!("80000000000000006{n}")).collect();
    for m in &members {
        g.discord.add_member(m, &[discord::MEMBER_ROLE]);
    }
    let client = daemon.client(&g.fixture.alpha_rw);
    let ban = |user: &str| {
        let request = ActionRequest {
            user_id: user.to_owned(),
            ..ActionRequest::default()
        };
        daemon.block_on(client.perform_action(ALPHA_DISCORD, Action::Ban, &request))
    };
    for m in &members[..3] {
        let done = ban(m).expect("the ban is done");
        assert!(done.applied, "{done:?}");
    }
    let refused = ban(&members[3]).expect_err("the key is suspended");
    assert_eq!(refused.code().map(|c| c.as_str()), Some("key_suspended"));
    let key_id = g.fixture.alpha_rw.key_id.clone();
    let message = refused.to_string();
    assert!(
        message.contains(&format!("modctld key enable {key_id}")),
        "{message}"
    );
    assert!(!g.discord.is_banned(&members[3]));
    let me = daemon
        .block_on(client.me())
        .expect_err("every request is refused");
    assert_eq!(me.code().map(|c| c.as_str()), Some("key_suspended"));
    // The bot's own bans, as the audit log tells them, are not counted again.
    for m in &members[..3] {
        g.entry(MEMBER_BAN_ADD, BOT, m);
    }
    eventually("the team to be alerted in the mod-log", || {
        daemon.tick_workers();
        g.discord
            .posted(discord::MODLOG_CHANNEL)
            .iter()
            .any(|m| m.body.to_string().contains("through the API (limit 2)"))
    });
    let id = key_id.clone();
    daemon.write(move |tx| modctld::store::keys::enable(tx, &id));
    assert!(daemon.block_on(client.me()).is_ok(), "enabled again");
}

/// Telegram and Slack (issue #26), which have no audit log: Telegram's
/// bans come as `chat_member` updates through `getUpdates` (only because
/// the daemon lists them in `allowed_updates`), Slack's archives and
/// deletions as signed Events API callbacks. Every wait is for something
/// that must happen; what must not is checked once a later event's effect
/// is seen.
mod telegram_and_slack {
    use modctl_e2e::fakes::slack::{self, FakeSlack};
    use modctl_e2e::fakes::telegram::{self, FakeTelegram};
    use modctl_e2e::{ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, eventually};
    use modctl_types::config::SectionName;
    use modctl_types::moderation::{Action, Case, CaseSource};
    use modctl_types::query::CaseQuery;
    use serde_json::json;

    /// Administrators of the group: one the bot promoted, one it did not,
    /// one trusted.
    const PROMOTED: i64 = 41;
    const NOT_PROMOTED: i64 = 42;
    const TRUSTED: i64 = 43;
    const SIGNING_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

    fn cases(fixture: &Fixture, server: &str) -> Vec<Case> {
        let client = fixture.daemon.client(&fixture.alpha_ro);
        fixture
            .daemon
            .block_on(client.cases(server, &CaseQuery::default()))
            .expect("cases")
            .cases
            .into_iter()
            .filter(|c| c.source == CaseSource::Antinuke)
            .collect()
    }

    /// Alpha's group on the fake with antinuke on (2 bans a minute), the
    /// mod-log in the group itself, the poller running.
    fn group() -> (Fixture, FakeTelegram, i64) {
        let fixture = Fixture::start();
        let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
        let fake = FakeTelegram::start(chat);
        fake.set_bot_right("can_promote_members", true);
        fake.add_admin_promoted_by_bot(PROMOTED);
        fake.add_admin(NOT_PROMOTED);
        fake.add_admin(TRUSTED);
        for user in 500..540 {
            fake.add_member(user);
        }
        let daemon = &fixture.daemon;
        daemon.connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
        daemon.set_config(
            ALPHA_TELEGRAM,
            SectionName::Antinuke,
            json!({"enabled": true, "max_bans_per_minute": 2,
                   "trusted_user_ids": [TRUSTED.to_string()]}),
        );
        daemon.set_config(
            ALPHA_TELEGRAM,
            SectionName::General,
            json!({"modlog_channel_id": ALPHA_TELEGRAM}),
        );
        assert_eq!(daemon.start_receivers(), 1);
        (fixture, fake, chat)
    }

    #[test]
    fn telegram_an_admin_the_bot_promoted_is_demoted_one_it_did_not_only_alerted() {
        let (fixture, fake, chat) = group();
        let daemon = &fixture.daemon;
        let now = daemon.now_unix();
        let mut victims = 500..540;
        let mut ban = |by: i64, times: usize| {
            for _ in 0..times {
                fake.push_ban_by(by, victims.next().unwrap(), now);
            }
        };
        // Never counted: the creator, a trusted administrator, the bot
        // itself (the daemon's own bans); each bans above the limit.
        ban(telegram::OWNER, 3);
        ban(TRUSTED, 3);
        ban(telegram::BOT, 4);
        // Two bans are within the limit; the third goes above it.
        ban(PROMOTED, 3);
        eventually("the administrator the bot promoted to be demoted", || {
            fake.demoted() == [PROMOTED]
        });
        assert_eq!(fake.status_of(PROMOTED).as_deref(), Some("member"));
        assert!(
            fake.allowed_updates()
                .is_some_and(|kinds| kinds.iter().any(|k| k == "chat_member")),
            "the daemon asks for chat_member: {:?}",
            fake.allowed_updates()
        );
        // An administrator the bot did not promote: alerted only.
        ban(NOT_PROMOTED, 3);
        eventually("both cases", || cases(&fixture, ALPHA_TELEGRAM).len() == 2);
        let cases = cases(&fixture, ALPHA_TELEGRAM);
        let by = |user: i64| {
            cases
                .iter()
                .find(|c| c.user_id == user.to_string())
                .unwrap_or_else(|| panic!("no case for {user}: {cases:#?}"))
        };
        let demoted = by(PROMOTED);
        assert_eq!(demoted.action, Action::Note);
        assert_eq!(demoted.actor, "system:antinuke");
        let reason = demoted.reason.clone().unwrap_or_default();
        assert!(
            reason.contains("3 bans within a minute (limit 2)"),
            "{reason}"
        );
        assert!(
            reason.contains("demoted: every administrator right removed"),
            "{reason}"
        );
        let alerted = by(NOT_PROMOTED).reason.clone().unwrap_or_default();
        assert!(
            alerted.contains("not demoted: the bot did not promote them"),
            "{alerted}"
        );
        assert_eq!(
            fake.status_of(NOT_PROMOTED).as_deref(),
            Some("administrator")
        );
        // The creator, the trusted administrator and the bot: no case, no
        // demotion (their bans came before those above, in one queue).
        assert_eq!(fake.demoted(), [PROMOTED]);
        assert_eq!(fake.status_of(TRUSTED).as_deref(), Some("administrator"));
        assert_eq!(fake.status_of(telegram::OWNER).as_deref(), Some("creator"));
        // The team is told in the mod-log, once per incident.
        eventually("the alerts in the mod-log", || {
            daemon.deliver_logs();
            let posts = fake.messages(chat);
            let alerts = |user: i64| {
                posts
                    .iter()
                    .filter(|m| {
                        m.contains("3 bans within a minute") && m.contains(&user.to_string())
                    })
                    .count()
            };
            alerts(PROMOTED) >= 1 && alerts(NOT_PROMOTED) >= 1
        });
    }

    #[test]
    fn slack_archives_above_the_limit_and_every_deletion_are_alerted_the_bot_s_own_not() {
        let fixture = Fixture::start();
        let fake = FakeSlack::start();
        fake.add_channel(slack::MODLOG_CHANNEL, "mod-log");
        for n in 0..8 {
            fake.add_channel(&format!("C0DOOMED0{n}"), &format!("doomed-{n}"));
        }
        let daemon = &fixture.daemon;
        daemon.connect_slack(ALPHA_SLACK, &fake.uri(), None, SIGNING_SECRET);
        daemon.set_config(
            ALPHA_SLACK,
            SectionName::Antinuke,
            json!({"enabled": true, "max_channel_deletions_per_minute": 2}),
        );
        daemon.set_config(
            ALPHA_SLACK,
            SectionName::General,
            json!({"modlog_channel_id": slack::MODLOG_CHANNEL}),
        );
        let post = |id: &str, event: serde_json::Value| {
            assert_eq!(
                daemon.post_slack_event(SIGNING_SECRET, ALPHA_SLACK, id, event),
                200
            );
        };
        // The bot's own archives (the app's bot user, as `authorizations`
        // names it) are never counted: four of them.
        for n in 0..4 {
            post(
                &format!("EvBot{n}"),
                fake.archive_by(&format!("C0DOOMED0{n}"), slack::BOT),
            );
        }
        // A member's third archive goes above the limit.
        for n in 4..7 {
            post(
                &format!("EvNuke{n}"),
                fake.archive_by(&format!("C0DOOMED0{n}"), slack::MEMBER),
            );
        }
        let alerts = || {
            daemon.deliver_logs();
            fake.posted(slack::MODLOG_CHANNEL)
                .into_iter()
                .map(|m| format!("{} {}", m.text, m.args))
                .filter(|m| m.contains("within a minute") || m.contains("deleted"))
                .collect::<Vec<_>>()
        };
        eventually("the member's archives to be alerted", || {
            alerts()
                .iter()
                .any(|m| m.contains("3 channel deletions within a minute (limit 2)"))
        });
        // A deletion names no one: alerted at once.
        post("EvDelete", fake.delete_channel_event("C0DOOMED07"));
        eventually("the deletion to be alerted", || {
            alerts()
                .iter()
                .any(|m| m.contains("channel C0DOOMED07 deleted"))
        });
        let all = alerts();
        assert_eq!(all.len(), 2, "the bot's archives alert nothing: {all:#?}");
        assert!(all.iter().all(|m| !m.contains(slack::BOT)), "{all:#?}");
        // No case on Slack: nobody can be acted on.
        assert!(cases(&fixture, ALPHA_SLACK).is_empty());
    }
}
