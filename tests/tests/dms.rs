//! DMs about cases (`moderation.dm_on_action`, issue #25) through the fake
//! platforms: before a kick or a ban, after the other actions, from the
//! server's template or the built-in text in its locale; a DM that cannot
//! be delivered never stops the action, and its outcome is on the case.

use modctl_client::Client;
use modctl_e2e::fakes::discord::{ADMIN_ROLE, BOT, MEMBER_ROLE, MOD_ROLE, TOKEN as DISCORD_TOKEN};
use modctl_e2e::fakes::slack::TOKEN as SLACK_TOKEN;
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::fakes::{FakeDiscord, FakeSlack, FakeTelegram};
use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CaseDm, CaseState, DmStatus};
use serde_json::json;

const TARGET: &str = "500000000000000003";
const TG_USER: &str = "424242";
const SLACK_USER: &str = "U0TARGET01";

struct Setup {
    fixture: Fixture,
    client: Client,
}

/// A daemon whose servers add no strikes (so no escalation joins in).
fn setup() -> Setup {
    let fixture = Fixture::start();
    for server in [ALPHA_DISCORD, ALPHA_TELEGRAM, ALPHA_SLACK] {
        fixture
            .daemon
            .set_config(server, SectionName::Strikes, json!({"enabled": false}));
    }
    let client = fixture.daemon.client(&fixture.alpha_rw);
    Setup { fixture, client }
}

impl Setup {
    fn discord(&self) -> FakeDiscord {
        let discord = FakeDiscord::start(ALPHA_DISCORD);
        discord.add_member(BOT, &[MOD_ROLE]);
        discord.add_member(TARGET, &[MEMBER_ROLE]);
        self.fixture
            .daemon
            .connect_live(ALPHA_DISCORD, DISCORD_TOKEN, &discord.uri());
        discord
    }

    fn moderation(&self, server: &str, section: serde_json::Value) {
        self.fixture
            .daemon
            .set_config(server, SectionName::Moderation, section);
    }

    /// Performs `action` on `user` with `reason` and answers its case.
    async fn act(&self, server: &str, action: Action, user: &str, reason: &str) -> Case {
        let body = ActionRequest {
            user_id: user.into(),
            reason: Some(reason.into()),
            minutes: (action == Action::Timeout).then_some(120),
            ..Default::default()
        };
        let response = self
            .client
            .perform_action(server, action, &body)
            .await
            .unwrap_or_else(|e| panic!("{action}: {e}"));
        let dm = response.dm.clone();
        let case = self.client.case(server, response.case_id).await.unwrap();
        assert_eq!(dm, case.dm, "the response and the case agree on the DM");
        case
    }
}

/// Where the first request to `method` `path` (a prefix) is among all the
/// fake's requests.
fn position(discord: &FakeDiscord, method: &str, path: &str) -> usize {
    discord
        .requests()
        .iter()
        .position(|r| r.method == method && r.path.starts_with(path))
        .unwrap_or_else(|| panic!("no {method} {path} in {:?}", discord.requests()))
}

#[tokio::test]
async fn a_ban_is_told_before_it_is_carried_out_with_the_template_filled() {
    let s = setup();
    s.moderation(
        ALPHA_DISCORD,
        json!({
            "dm_on_action": true,
            "templates": {"ban": "{user}: banned from {server} for {reason} (case {case})"},
        }),
    );
    let discord = s.discord();
    let case = s
        .act(ALPHA_DISCORD, Action::Ban, TARGET, "spam & <scams>")
        .await;
    assert!(case.applied, "{case:?}");
    assert!(discord.is_banned(TARGET));
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(dm.status, DmStatus::Sent, "{dm:?}");
    assert_eq!(dm.detail, "sent before the ban");

    let dms = discord.dms(TARGET);
    assert_eq!(dms.len(), 1, "{dms:?}");
    assert_eq!(
        dms[0].content,
        format!(
            "{TARGET}: banned from Alpha Guild for spam & <scams> (case {})",
            case.id
        )
    );
    // Whatever the text holds, the DM pings nobody.
    assert_eq!(dms[0].body["allowed_mentions"], json!({"parse": []}));
    let told = position(&discord, "POST", "/users/@me/channels");
    let posted = position(&discord, "POST", "/channels/");
    let banned = position(
        &discord,
        "PUT",
        &format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}"),
    );
    assert!(
        told < posted && posted < banned,
        "the DM ({told}, {posted}) arrives before the ban ({banned})"
    );
}

#[tokio::test]
async fn other_actions_are_told_after_they_are_carried_out() {
    let s = setup();
    let discord = s.discord();
    // A timeout: the DM follows the platform call.
    let case = s
        .act(ALPHA_DISCORD, Action::Timeout, TARGET, "flooding")
        .await;
    assert!(case.applied, "{case:?}");
    let timeout_case = case.id;
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (DmStatus::Sent, "sent after the timeout")
    );
    let timed_out = position(
        &discord,
        "PATCH",
        &format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}"),
    );
    let told = position(&discord, "POST", "/users/@me/channels");
    assert!(
        timed_out < told,
        "the timeout ({timed_out}) precedes the DM ({told})"
    );

    // A warning, which Discord only records: told all the same, built-in
    // text (no template) in English.
    let case = s.act(ALPHA_DISCORD, Action::Warn, TARGET, "be nice").await;
    assert_eq!(case.dm.unwrap().status, DmStatus::Sent);
    let dms: Vec<String> = discord.dms(TARGET).into_iter().map(|m| m.content).collect();
    assert_eq!(
        dms,
        [
            format!(
                "You have been timed out on Alpha Guild for 2 hours: flooding (case #{timeout_case})"
            ),
            format!(
                "You have been warned on Alpha Guild: be nice (case #{})",
                case.id
            ),
        ]
    );

    // A note stays among moderators.
    let case = s.act(ALPHA_DISCORD, Action::Note, TARGET, "watch").await;
    assert_eq!(case.dm.unwrap().status, DmStatus::Off);
    assert_eq!(discord.dms(TARGET).len(), 2);
}

#[tokio::test]
async fn a_member_who_blocks_dms_is_banned_all_the_same() {
    let s = setup();
    let discord = s.discord();
    discord.block_dms(TARGET);
    let case = s.act(ALPHA_DISCORD, Action::Ban, TARGET, "spam").await;
    assert!(case.applied, "{case:?}");
    assert!(discord.is_banned(TARGET), "the ban went ahead");
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(dm.status, DmStatus::Failed, "{dm:?}");
    assert!(
        dm.detail.contains("Cannot send messages to this user")
            && dm.detail.contains("the ban went ahead"),
        "{}",
        dm.detail
    );
    assert!(discord.dms(TARGET).is_empty());
}

/// The DM before a ban goes out once the ban's checks passed: a ban the
/// hierarchy refuses tells nobody.
#[tokio::test]
async fn a_ban_refused_by_the_hierarchy_is_not_told() {
    let s = setup();
    let discord = s.discord();
    discord.add_member(TARGET, &[ADMIN_ROLE]);
    let case = s.act(ALPHA_DISCORD, Action::Ban, TARGET, "spam").await;
    assert!(!case.applied, "{case:?}");
    assert!(
        case.detail
            .starts_with("not applied: bot's highest role is below the target's"),
        "{}",
        case.detail
    );
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (
            DmStatus::NotPossible,
            "not sent: the ban was not carried out"
        )
    );
    assert!(
        discord
            .requests_to("POST", "/users/@me/channels")
            .is_empty()
    );
}

#[tokio::test]
async fn dm_on_action_off_sends_nothing() {
    let s = setup();
    s.moderation(ALPHA_DISCORD, json!({"dm_on_action": false}));
    let discord = s.discord();
    let case = s.act(ALPHA_DISCORD, Action::Kick, TARGET, "spam").await;
    assert!(case.applied, "{case:?}");
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(dm.status, DmStatus::Off);
    assert_eq!(dm.detail, "moderation.dm_on_action is off");
    assert!(
        discord
            .requests_to("POST", "/users/@me/channels")
            .is_empty()
    );
}

#[tokio::test]
async fn a_pt_br_server_gets_the_translated_text() {
    let s = setup();
    s.fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"locale": "pt-BR"}),
    );
    let discord = s.discord();
    let case = s.act(ALPHA_DISCORD, Action::Kick, TARGET, "spam").await;
    assert_eq!(case.dm.unwrap().status, DmStatus::Sent);
    let dms: Vec<String> = discord.dms(TARGET).into_iter().map(|m| m.content).collect();
    assert_eq!(
        dms,
        [format!(
            "Você foi removido de Alpha Guild: spam (caso #{})",
            case.id
        )]
    );
}

#[tokio::test]
async fn telegram_bots_cannot_start_a_conversation() {
    let s = setup();
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    telegram.add_member(TG_USER.parse().unwrap());
    s.fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let case = s.act(ALPHA_TELEGRAM, Action::Ban, TG_USER, "spam").await;
    assert!(case.applied, "{case:?}");
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(dm.status, DmStatus::NotPossible, "{dm:?}");
    assert!(
        dm.detail.contains("cannot start a conversation"),
        "{}",
        dm.detail
    );
    assert!(telegram.calls("sendMessage").is_empty());
}

#[tokio::test]
async fn slack_members_are_told_in_a_dm_channel() {
    let s = setup();
    let slack = FakeSlack::start();
    slack.add_user(SLACK_USER, "target");
    s.fixture
        .daemon
        .connect_live(ALPHA_SLACK, SLACK_TOKEN, &slack.uri());
    // Slack leaves a ban to an administrator, so the member is still there
    // to be told, after the case is recorded.
    let case = s
        .act(ALPHA_SLACK, Action::Ban, SLACK_USER, "spam <!channel>")
        .await;
    let dm = case.dm.expect("a DM outcome");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (DmStatus::Sent, "sent after the ban")
    );
    let opened = slack.calls("conversations.open");
    assert_eq!(opened.len(), 1);
    assert_eq!(opened[0].body["users"], SLACK_USER);
    let posts = slack.calls("chat.postMessage");
    assert_eq!(posts.len(), 1, "{posts:?}");
    assert!(posts[0].body["channel"].as_str().unwrap().starts_with('D'));
    // Escaped: `<!channel>` is shown, not announced.
    assert_eq!(
        posts[0].body["text"],
        format!(
            "You have been banned from Alpha Workspace: spam &lt;!channel&gt; (case #{})",
            case.id
        )
    );
}

/// A daemon killed between the DM and the ban: the case is pending with
/// its DM recorded. Recovery settles the ban from what Discord shows and
/// keeps the DM as recorded, without sending it again.
#[tokio::test]
async fn recovery_never_sends_a_recorded_dm_again() {
    let s = setup();
    let discord = s.discord();
    let daemon = &s.fixture.daemon;
    let sent = CaseDm::new(DmStatus::Sent, "sent before the ban");
    let orphan = daemon.orphan_ban(ALPHA_DISCORD, TARGET, Some(sent));
    assert_eq!(daemon.tick_workers().recovered, 1);
    let settled = s.client.case(ALPHA_DISCORD, orphan.id).await.unwrap();
    assert_eq!(settled.state, CaseState::Settled);
    assert!(
        !settled.applied,
        "the ban never reached Discord: {settled:?}"
    );
    let dm = settled.dm.expect("the DM recorded before the ban");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (DmStatus::Sent, "sent before the ban")
    );
    assert!(
        discord
            .requests_to("POST", "/users/@me/channels")
            .is_empty()
    );
}

/// A ladder step is told like any case, after the warning that reached it,
/// with its own text and case number.
#[tokio::test]
async fn an_escalation_is_told_too() {
    let s = setup();
    s.fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"weights": {"warn": 1}, "expiry_days": 30, "ladder": [{"at": 1, "action": "timeout", "minutes": 15}]}),
    );
    let discord = s.discord();
    let warn = s.act(ALPHA_DISCORD, Action::Warn, TARGET, "spam").await;
    assert_eq!(warn.dm.unwrap().status, DmStatus::Sent);
    let escalation = s.client.case(ALPHA_DISCORD, warn.id + 1).await.unwrap();
    assert_eq!(
        (
            escalation.action,
            escalation.linked_case_id,
            escalation.applied
        ),
        (Action::Timeout, Some(warn.id), true)
    );
    let dm = escalation.dm.expect("the escalation's DM");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (DmStatus::Sent, "sent after the timeout")
    );
    let dms: Vec<String> = discord.dms(TARGET).into_iter().map(|m| m.content).collect();
    assert_eq!(dms.len(), 2, "{dms:?}");
    assert!(
        dms[1].starts_with("You have been timed out on Alpha Guild for 15 minutes: strike ladder"),
        "{}",
        dms[1]
    );
    assert!(
        dms[1].ends_with(&format!("(case #{})", escalation.id)),
        "{}",
        dms[1]
    );
}
