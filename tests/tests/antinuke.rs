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
const BOT_ADD: u64 = 28;
const MEMBER_ROLE_UPDATE: u64 = 25;
const ROLE_UPDATE: u64 = 31;
/// A role below the bot's (position 3) whose Manage Channels is dangerous.
const DANGER_ROLE: &str = "600000000000000051";
/// `SEND_MESSAGES`: harmless.
const SEND: u64 = discord::SEND_MESSAGES;

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
        self.entry_with(action, user, target, json!([]))
    }

    /// An audit log entry with `changes` (audit-log.mdx, "Audit Log Change
    /// Object"); its id.
    fn entry_with(&self, action: u64, user: &str, target: &str, changes: Value) -> String {
        let n = self.next.get();
        self.next.set(n + 1);
        let id = format!("9000000000000{n:05}");
        self.gateway
            .audit_log_entry(ALPHA_DISCORD, &id, action, user, target, changes);
        id
    }

    /// `user` gives `member` `role` (`$add`, audit-log.mdx "Audit Log Change
    /// Key Exceptions"), on the fake too.
    fn give_role(&self, user: &str, member: &str, role: &str) -> String {
        let mut roles = self.discord.roles_of(member).unwrap_or_default();
        roles.push(role.to_owned());
        let roles: Vec<&str> = roles.iter().map(String::as_str).collect();
        self.discord.add_member(member, &roles);
        self.entry_with(
            MEMBER_ROLE_UPDATE,
            user,
            member,
            json!([{"key": "$add", "new_value": [{"id": role, "name": "Danger"}]}]),
        )
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

    /// Waits until every entry sent so far was handled and what it started
    /// (incidents, actions) has ended, so that what must not happen can be
    /// asserted: a message sent after them (the sentinel) reaches the
    /// activity counts once the gateway delivered it, which it does in
    /// order, so the entries were published; then the event path is
    /// drained.
    fn settle(&self) {
        let daemon = &self.fixture.daemon;
        let before = daemon.state().activity.pending();
        let n = self.next.get();
        self.next.set(n + 1);
        self.gateway.message_create(
            ALPHA_DISCORD,
            discord::MODLOG_CHANNEL,
            &format!("9100000000000{n:05}"),
            OWNER,
            &[],
            "sentinel",
        );
        eventually("the sentinel message to be counted", || {
            daemon.state().activity.pending() > before
        });
        daemon.events_handled();
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

    // The nuker: two deletions are within the limit (the case's reason
    // below counts three).
    let first = g.delete_channel(NUKER, 0);
    let second = g.delete_channel(NUKER, 1);
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
    assert!(g.cases().is_empty(), "{:#?}", g.cases());
    for n in 0..3 {
        g.delete_channel(NUKER, n);
    }
    eventually("the nuker's roles to be taken", || {
        g.discord.roles_of(NUKER).is_some_and(|r| r.is_empty())
    });
    eventually("the case", || !g.cases().is_empty());
    let case = &g.cases()[0];
    assert_eq!(case.action, Action::Note, "{case:#?}");
    let reason = case.reason.as_deref().unwrap_or_default();
    assert!(reason.contains("roles removed"), "{case:#?}");
    assert!(
        reason.contains("3 channel deletions within a minute (limit 2)"),
        "the channels crossed, not the roles: {case:#?}"
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

/// What acts at once is also undone (issue #26 review): the webhook an
/// untrusted member created is deleted, the bot one added is kicked, a
/// dangerous role given is taken back, a role's raised permissions are put
/// back; the case says so. A trusted member's grant is left alone, and
/// what the bot cannot undo is said.
#[test]
fn what_acts_at_once_is_undone_and_a_trusted_grant_is_left() {
    let g = guild(json!({"action": "kick"}));
    let nukers: Vec<String> = (0..5).map(|n| format!("80000000000000007{n}")).collect();
    for nuker in &nukers {
        g.discord.add_member(nuker, &[discord::MEMBER_ROLE]);
    }
    g.discord.add_role(DANGER_ROLE, 3, discord::MANAGE_CHANNELS);
    let (victim, spared) = ("800000000000000081", "800000000000000082");
    g.discord.add_member(victim, &[discord::MEMBER_ROLE]);
    g.discord.add_member(spared, &[discord::MEMBER_ROLE]);
    // The bot may not delete webhooks yet: said, not undone.
    g.discord.add_webhook("720000000000000001");
    g.entry(WEBHOOK_CREATE, &nukers[0], "720000000000000001");
    eventually("the webhook's creator to be kicked", || {
        !g.discord.is_member(&nukers[0])
    });
    eventually("the case", || g.cases().len() == 1);
    let reason = g.cases()[0].reason.clone().unwrap_or_default();
    assert!(
        reason.contains("webhook 720000000000000001 not deleted"),
        "{reason}"
    );
    assert!(g.discord.has_webhook("720000000000000001"));

    g.discord.set_role_permissions(
        discord::MOD_ROLE,
        discord::MOD_PERMISSIONS | discord::MANAGE_WEBHOOKS,
    );
    g.discord.add_webhook("720000000000000002");
    g.entry(WEBHOOK_CREATE, &nukers[1], "720000000000000002");
    let bot = "800000000000000091";
    g.discord.add_member(bot, &[]);
    g.entry(BOT_ADD, &nukers[2], bot);
    g.discord
        .set_role_permissions(discord::JAIL_ROLE, SEND | discord::ADMINISTRATOR);
    g.entry_with(
        ROLE_UPDATE,
        &nukers[3],
        discord::JAIL_ROLE,
        json!([{"key": "permissions", "old_value": SEND.to_string(),
                "new_value": (SEND | discord::ADMINISTRATOR).to_string()}]),
    );
    // The trusted member's grant comes before the last untrusted one,
    // which is the sentinel: entries are admitted in order, and a trusted
    // user's is dropped there.
    g.give_role(TRUSTED, spared, DANGER_ROLE);
    g.give_role(&nukers[4], victim, DANGER_ROLE);
    eventually("the webhook to be deleted", || {
        !g.discord.has_webhook("720000000000000002")
    });
    eventually("the bot to be kicked", || !g.discord.is_member(bot));
    eventually("the role's permissions to be put back", || {
        g.discord.role_of(discord::JAIL_ROLE) == Some((2, SEND))
    });
    eventually("the role given to be taken", || {
        g.discord.roles_of(victim) == Some(vec![discord::MEMBER_ROLE.to_owned()])
    });
    eventually("every executor's case", || g.cases().len() == 5);
    eventually("every executor kicked", || {
        nukers.iter().all(|n| !g.discord.is_member(n))
    });
    let reasons: Vec<String> = g
        .cases()
        .iter()
        .map(|c| c.reason.clone().unwrap_or_default())
        .collect();
    for said in [
        "webhook 720000000000000002 deleted",
        "bot 800000000000000091 kicked",
        "role 600000000000000004's permissions put back",
        "roles 600000000000000051 taken from 800000000000000081",
    ] {
        assert!(
            reasons.iter().any(|r| r.contains(said)),
            "{said}: {reasons:#?}"
        );
    }
    g.settle();
    assert_eq!(
        g.discord.roles_of(spared),
        Some(vec![
            discord::MEMBER_ROLE.to_owned(),
            DANGER_ROLE.to_owned()
        ]),
        "the trusted member's grant is left"
    );
    assert!(g.discord.is_member(TRUSTED));
}

/// The guild's owner, roles and the bot's id are read once and kept fresh
/// from the gateway (issue #26 review): two incidents read the guild once;
/// after `GUILD_UPDATE` transfers the ownership, the new owner is never
/// counted and the old one is, with no read; a role made dangerous by
/// `GUILD_ROLE_UPDATE` acts when given, with no read.
#[test]
fn the_guild_is_read_once_and_kept_fresh_from_the_gateway() {
    let g = guild(json!({"action": "kick"}));
    let guild_path = format!("/guilds/{ALPHA_DISCORD}");
    let reads = || {
        (
            g.discord.requests_to("GET", &guild_path).len(),
            g.discord.requests_to("GET", "/users/@me").len(),
        )
    };
    let nukers: Vec<String> = (0..3).map(|n| format!("80000000000000011{n}")).collect();
    for nuker in &nukers {
        g.discord.add_member(nuker, &[discord::MEMBER_ROLE]);
    }
    let before = reads();
    g.entry(WEBHOOK_CREATE, &nukers[0], "720000000000000011");
    eventually("the first incident", || !g.discord.is_member(&nukers[0]));
    g.entry(WEBHOOK_CREATE, &nukers[1], "720000000000000012");
    eventually("the second incident", || !g.discord.is_member(&nukers[1]));
    let warm = reads();
    assert_eq!(
        (warm.0 - before.0, warm.1 - before.1),
        (1, 1),
        "the guild and the bot read once for two incidents"
    );

    // The ownership goes to another member, as Discord tells it.
    let new_owner = "800000000000000121";
    g.discord.add_member(new_owner, &[]);
    g.discord.set_owner(new_owner);
    g.gateway.dispatch(
        "GUILD_UPDATE",
        json!({"id": ALPHA_DISCORD, "owner_id": new_owner, "roles": g.discord.role_objects()}),
    );
    for n in 0..3 {
        g.entry(CHANNEL_DELETE, new_owner, &format!("71000000000000100{n}"));
    }
    // The old owner's deletions come after the new owner's: once they are
    // acted on, the new owner's were handled (entries are admitted in order).
    for n in 0..3 {
        g.entry(CHANNEL_DELETE, OWNER, &format!("71000000000000200{n}"));
    }
    eventually("the former owner to be kicked", || {
        !g.discord.is_member(OWNER)
    });
    g.settle();
    assert!(g.discord.is_member(new_owner), "the owner was punished");
    assert!(
        g.cases().iter().all(|c| c.user_id != new_owner),
        "{:#?}",
        g.cases()
    );

    // The jail role gets Manage Channels; the gateway says so.
    g.discord
        .set_role_permissions(discord::JAIL_ROLE, discord::MANAGE_CHANNELS);
    let jail = g
        .discord
        .role_objects()
        .into_iter()
        .find(|r| r["id"] == discord::JAIL_ROLE)
        .expect("the jail role");
    g.gateway.dispatch(
        "GUILD_ROLE_UPDATE",
        json!({"guild_id": ALPHA_DISCORD, "role": jail}),
    );
    let victim = "800000000000000122";
    g.discord.add_member(victim, &[discord::MEMBER_ROLE]);
    g.give_role(&nukers[2], victim, discord::JAIL_ROLE);
    eventually("the grant's executor to be kicked", || {
        !g.discord.is_member(&nukers[2])
    });
    assert_eq!(
        g.discord.roles_of(victim),
        Some(vec![discord::MEMBER_ROLE.to_owned()])
    );
    assert_eq!(reads().0, warm.0, "no more reads of the guild");
}
