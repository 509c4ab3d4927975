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
