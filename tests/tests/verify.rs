//! Verification of new members (issue #26, `welcome.verification`), end to
//! end against the fakes: a member who joins must press the verify button;
//! the press is answered through the platform's own way (Discord's
//! interaction callback), the member gets the verified role and the
//! auto-roles, anyone else pressing is refused politely; members who do not
//! verify in time are kicked on the clock with a case `source:
//! verification`; pending verifications and the verify message survive a
//! restart. Telegram: the newcomer is restricted and gets a prompt of their
//! own (an inline keyboard button naming them), answered with
//! `answerCallbackQuery`. Slack: a Block Kit button in a DM, pressed
//! through the signed interactivity endpoint, adds the newcomer to the
//! `auto_role_ids` user groups; with a captcha the press shares the image
//! in the DM and the code is typed in a modal (`views.open`), whose
//! `view_submission` is answered with a field error or closed.

use std::time::Duration;

use modctl_e2e::fakes::discord::gateway::{FakeGateway, Sent};
use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::fakes::slack::{self, FakeSlack, UserGroup};
use modctl_e2e::fakes::telegram::{self, FakeTelegram};
use modctl_e2e::{
    ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, Fixture, NETWORK_DEADLINE, eventually,
};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, CaseSource};
use modctl_types::query::CaseQuery;
use serde_json::{Value, json};

const GENERAL: &str = "700000000000000002";
const VERIFY: &str = "700000000000000005";
const VERIFIED_ROLE: &str = "600000000000000007";
const NEWCOMER: &str = "800000000000000011";
const OLD_HAND: &str = "800000000000000012";

struct Discord {
    fixture: Fixture,
    discord: FakeDiscord,
    gateway: FakeGateway,
}

/// Alpha's guild on the fakes with button verification in `#verify`
/// (verified role, one auto-role), its gateway session identified.
fn discord() -> Discord {
    discord_verifying("button")
}

/// [`discord`] with `welcome.verification` set to `verification`.
fn discord_verifying(verification: &str) -> Discord {
    let gateway = FakeGateway::start(Duration::from_secs(45));
    gateway.add_guild(ALPHA_DISCORD, &[]);
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.set_gateway_url(&gateway.url());
    fake.add_channel(GENERAL, "general");
    fake.add_channel(VERIFY, "verify");
    // Below the bot's highest role (Moderators, 5): the bot may give it.
    fake.add_role(VERIFIED_ROLE, 3, 0);
    fake.add_member(OLD_HAND, &[discord::MEMBER_ROLE]);
    let daemon = &fixture.daemon;
    // The config first: the worker's first tick may run as the server is
    // connected.
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Welcome,
        json!({
            "enabled": true, "channel_id": GENERAL, "verify_channel_id": VERIFY,
            "verification": verification, "verified_role_id": VERIFIED_ROLE,
            "auto_role_ids": [discord::MEMBER_ROLE], "verify_within_minutes": 10,
        }),
    );
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    let d = Discord {
        fixture,
        discord: fake,
        gateway,
    };
    d.connect_gateway();
    d
}

impl Discord {
    fn connect_gateway(&self) {
        let before = self.identified();
        assert_eq!(self.fixture.daemon.start_receivers(), 1);
        assert!(self.gateway.wait_for(NETWORK_DEADLINE, |sent| {
            sent.iter()
                .filter(|s| matches!(s, Sent::Identify { .. }))
                .count()
                > before
        }));
    }

    fn identified(&self) -> usize {
        self.gateway
            .sent()
            .iter()
            .filter(|s| matches!(s, Sent::Identify { .. }))
            .count()
    }

    /// `user` joins the guild (the fake's member list and the gateway).
    fn join(&self, user: &str) {
        self.discord.add_member(user, &[]);
        self.gateway.member_add(ALPHA_DISCORD, user, &[]);
    }

    /// The verify messages in `#verify` not deleted: (id, body).
    fn verify_messages(&self) -> Vec<(String, Value)> {
        self.discord
            .all_messages(VERIFY)
            .into_iter()
            .filter(|m| !m.deleted && m.author == discord::BOT)
            .map(|m| (m.id, m.body))
            .collect()
    }

    /// Waits for the one verify message: its id.
    fn verify_message(&self) -> String {
        eventually("the verify message to be posted", || {
            self.verify_messages().len() == 1
        });
        self.verify_messages().remove(0).0
    }

    /// `user` presses the verify button: the interaction's id.
    fn press(&self, user: &str, custom_id: &str) -> String {
        let message = self.verify_message();
        let payload = self.discord.press(user, VERIFY, &message, custom_id);
        let id = payload["id"].as_str().unwrap().to_owned();
        self.gateway.dispatch("INTERACTION_CREATE", payload);
        id
    }

    /// Waits for the answer to interaction `id`.
    fn answer(&self, id: &str) -> Value {
        eventually("the press to be answered", || {
            self.discord.interaction_responses().contains_key(id)
        });
        self.discord.interaction_responses()[id].clone()
    }

    fn verification_cases(&self) -> Vec<(Action, String, String)> {
        let client = self.fixture.daemon.client(&self.fixture.alpha_ro);
        self.fixture
            .daemon
            .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
            .expect("cases")
            .cases
            .into_iter()
            .filter(|c| c.source == CaseSource::Verification)
            .map(|c| (c.action, c.user_id, c.reason.unwrap_or_default()))
            .collect()
    }

    /// The state of `user`'s verification, as stored.
    fn state(&self, user: &str) -> Option<String> {
        let user = user.to_owned();
        self.fixture.daemon.sql(move |sql| {
            sql.query_row(
                "SELECT state FROM verifications WHERE server_id = ?1 AND user_id = ?2",
                [ALPHA_DISCORD, user.as_str()],
                |row| row.get(0),
            )
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
        })
    }

    fn wait_for_state(&self, user: &str, state: &str) {
        eventually(&format!("{user}'s verification to be {state}"), || {
            self.state(user).as_deref() == Some(state)
        });
    }
}

/// A join makes the verify message (a button naming its purpose) in the
/// verify channel; the newcomer's press gives the verified role and the
/// auto-role, answered ephemerally through the callback; another member
/// pressing is refused politely and gets nothing; a button of another
/// purpose is left alone.
#[test]
fn discord_a_press_verifies_the_newcomer_and_another_member_is_refused() {
    let d = discord();
    d.join(NEWCOMER);
    let message = d.verify_message();
    let body = &d.verify_messages()[0].1;
    let button = &body["components"][0]["components"][0];
    assert_eq!(body["components"][0]["type"], 1, "an action row: {body}");
    assert_eq!(button["type"], 2, "a button: {body}");
    assert_eq!(button["custom_id"], "modctl:verify");
    // #general has welcome's greeting (welcome is on), never the button.
    assert!(
        d.discord
            .all_messages(GENERAL)
            .iter()
            .all(|m| m.body["components"].is_null()),
        "no button in #general"
    );
    d.wait_for_state(NEWCOMER, "pending");

    let refused = d.press(OLD_HAND, "modctl:verify");
    let answer = d.answer(&refused);
    assert_eq!(answer["type"], 4, "{answer}");
    assert_eq!(answer["data"]["flags"], 64, "ephemeral: {answer}");
    let text = answer["data"]["content"].as_str().unwrap();
    assert!(text.contains("nothing for you to verify"), "{text}");
    assert_eq!(
        d.discord.roles_of(OLD_HAND).unwrap(),
        vec![discord::MEMBER_ROLE]
    );
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("pending"));

    // Another application's button: no answer from the daemon.
    let other = d.press(NEWCOMER, "someone-elses-button");

    let pressed = d.press(NEWCOMER, "modctl:verify");
    let answer = d.answer(&pressed);
    assert_eq!(answer["data"]["flags"], 64, "{answer}");
    let text = answer["data"]["content"].as_str().unwrap();
    assert!(text.contains("You are verified"), "{text}");
    let mut roles = d.discord.roles_of(NEWCOMER).unwrap();
    roles.sort();
    assert_eq!(roles, vec![discord::MEMBER_ROLE, VERIFIED_ROLE]);
    // Each role by its own PUT, never the member's whole list by PATCH
    // (which would undo a role change made meanwhile).
    let member = format!("/guilds/{ALPHA_DISCORD}/members/{NEWCOMER}");
    for role in [VERIFIED_ROLE, discord::MEMBER_ROLE] {
        assert_eq!(
            d.discord
                .requests_to("PUT", &format!("{member}/roles/{role}"))
                .len(),
            1,
            "{role}"
        );
    }
    assert!(d.discord.requests_to("PATCH", &member).is_empty());
    d.wait_for_state(NEWCOMER, "verified");
    assert!(!d.discord.interaction_responses().contains_key(&other));

    // The join delivered again (a resumed session replays it): still
    // verified, no second prompt.
    d.gateway.member_add(ALPHA_DISCORD, NEWCOMER, &[]);
    d.gateway.member_add(ALPHA_DISCORD, OLD_HAND, &[]);
    d.wait_for_state(OLD_HAND, "pending");
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("verified"));
    d.discord.remove_member(OLD_HAND);
    d.gateway.member_remove(ALPHA_DISCORD, OLD_HAND);
    d.wait_for_state(OLD_HAND, "dropped");
    // Verified members are not kicked when their time is up.
    d.fixture
        .daemon
        .clock()
        .advance(Duration::from_secs(11 * 60));
    d.fixture.daemon.tick_workers();
    assert!(d.discord.is_member(NEWCOMER));
    assert!(d.verification_cases().is_empty());
    assert_eq!(d.verify_messages().len(), 1, "one verify message");
    assert_eq!(d.verify_messages()[0].0, message);
}

/// A newcomer who does not press within `verify_within_minutes` is kicked
/// by the worker on the clock, with a case `source: verification`; not a
/// minute before.
#[test]
fn discord_an_unverified_member_is_kicked_when_the_time_is_up() {
    let d = discord();
    d.join(NEWCOMER);
    d.wait_for_state(NEWCOMER, "pending");
    let daemon = &d.fixture.daemon;

    daemon.clock().advance(Duration::from_secs(9 * 60));
    assert_eq!(daemon.tick_workers().unverified_kicked, 0);
    assert!(d.discord.is_member(NEWCOMER), "not before the deadline");

    daemon.clock().advance(Duration::from_secs(61));
    assert_eq!(daemon.tick_workers().unverified_kicked, 1);
    assert!(!d.discord.is_member(NEWCOMER), "kicked");
    let cases = d.verification_cases();
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(cases[0].0, Action::Kick);
    assert_eq!(cases[0].1, NEWCOMER);
    assert!(
        cases[0].2.contains("not verified within 10 minutes"),
        "{cases:?}"
    );
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("kicked"));

    daemon.clock().advance(Duration::from_secs(60));
    assert_eq!(daemon.tick_workers().unverified_kicked, 0, "once");
    assert_eq!(d.verification_cases().len(), 1);
}

/// A member who leaves before the deadline is not kicked (nor cased).
#[test]
fn discord_a_member_who_left_is_not_kicked() {
    let d = discord();
    d.join(NEWCOMER);
    d.wait_for_state(NEWCOMER, "pending");
    d.discord.remove_member(NEWCOMER);
    d.gateway.member_remove(ALPHA_DISCORD, NEWCOMER);
    d.wait_for_state(NEWCOMER, "dropped");
    d.fixture
        .daemon
        .clock()
        .advance(Duration::from_secs(11 * 60));
    assert_eq!(d.fixture.daemon.tick_workers().unverified_kicked, 0);
    assert!(d.verification_cases().is_empty());
}

/// A restart in the middle: the pending verification and its deadline
/// survive (kicked on the clock after the restart), the verify message is
/// found again rather than posted twice, and one deleted is posted again.
#[test]
fn discord_pending_verifications_and_the_verify_message_survive_a_restart() {
    let d = discord();
    d.join(NEWCOMER);
    let message = d.verify_message();
    d.wait_for_state(NEWCOMER, "pending");
    d.fixture
        .daemon
        .clock()
        .advance(Duration::from_secs(5 * 60));

    let Discord {
        fixture,
        discord: fake,
        gateway,
    } = d;
    let d = Discord {
        fixture: fixture.restart(),
        discord: fake,
        gateway,
    };
    d.connect_gateway();
    let daemon = &d.fixture.daemon;
    assert_eq!(daemon.tick_workers().verify_prompts_posted, 0);
    assert_eq!(
        d.verify_messages().len(),
        1,
        "found again, not posted twice"
    );
    assert_eq!(d.verify_messages()[0].0, message);
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("pending"));

    daemon.clock().advance(Duration::from_secs(4 * 60));
    assert_eq!(
        daemon.tick_workers().unverified_kicked,
        0,
        "the deadline held"
    );
    daemon.clock().advance(Duration::from_secs(61));
    assert_eq!(daemon.tick_workers().unverified_kicked, 1);
    assert!(!d.discord.is_member(NEWCOMER));
    assert_eq!(d.verification_cases().len(), 1);

    // Deleted by hand: the worker posts it again, and a press of the new
    // one verifies.
    d.discord.remove_message(VERIFY, &message);
    assert_eq!(daemon.tick_workers().verify_prompts_posted, 1);
    let again = d.verify_message();
    assert_ne!(again, message);
    const LATECOMER: &str = "800000000000000013";
    d.join(LATECOMER);
    d.wait_for_state(LATECOMER, "pending");
    let pressed = d.press(LATECOMER, "modctl:verify");
    assert_eq!(d.answer(&pressed)["type"], 4);
    d.wait_for_state(LATECOMER, "verified");
    assert!(
        d.discord
            .roles_of(LATECOMER)
            .unwrap()
            .contains(&VERIFIED_ROLE.to_owned())
    );
}

const TG_NEWCOMER: i64 = 4_001;
const TG_OTHER: i64 = 4_002;

/// Alpha's group on the fake Telegram with button verification, polled.
fn telegram() -> (Fixture, FakeTelegram, i64) {
    telegram_verifying("button")
}

/// [`telegram`] with `welcome.verification` set to `verification`.
fn telegram_verifying(verification: &str) -> (Fixture, FakeTelegram, i64) {
    let fixture = Fixture::start();
    let chat: i64 = ALPHA_TELEGRAM.parse().unwrap();
    let fake = FakeTelegram::start(chat);
    fake.add_member(TG_OTHER);
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_TELEGRAM,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": ALPHA_TELEGRAM, "verification": verification,
               "verify_within_minutes": 10}),
    );
    daemon.connect_live(ALPHA_TELEGRAM, telegram::TOKEN, &fake.uri());
    assert_eq!(daemon.start_receivers(), 1);
    (fixture, fake, chat)
}

/// `user` joins the group: their prompt's message id, once posted.
fn telegram_join(fake: &FakeTelegram, chat: i64, user: i64) -> i64 {
    fake.add_member(user);
    fake.push_join(user, 1_800_000_000);
    let data = format!("modctl:verify:{user}");
    let prompt = || {
        fake.sent(chat).into_iter().find(|m| {
            m.from == telegram::BOT
                && m.args["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == data.as_str()
        })
    };
    eventually("the prompt to be posted", || prompt().is_some());
    prompt().unwrap().message_id
}

fn telegram_answer(fake: &FakeTelegram, query: &str) -> Value {
    eventually("the press to be answered", || {
        fake.callback_answer(query).is_some()
    });
    fake.callback_answer(query).unwrap()
}

fn telegram_state(fixture: &Fixture, user: i64) -> Option<String> {
    fixture.daemon.sql(move |sql| {
        sql.query_row(
            "SELECT state FROM verifications WHERE server_id = ?1 AND user_id = ?2",
            [ALPHA_TELEGRAM.to_owned(), user.to_string()],
            |row| row.get(0),
        )
        .or_else(|e| match e {
            rusqlite::Error::QueryReturnedNoRows => Ok(None),
            e => Err(e),
        })
    })
}

/// A newcomer is restricted and gets a prompt of their own; another member
/// pressing it gets a polite refusal in an alert and changes nothing; the
/// newcomer's press lifts the restriction and removes the prompt.
#[test]
fn telegram_a_newcomer_is_restricted_until_their_own_press() {
    let (fixture, fake, chat) = telegram();
    let prompt = telegram_join(&fake, chat, TG_NEWCOMER);
    eventually("the newcomer to be restricted", || {
        fake.is_muted(TG_NEWCOMER)
    });
    let data = format!("modctl:verify:{TG_NEWCOMER}");

    let refused = fake.push_press(TG_OTHER, prompt, &data);
    let answer = telegram_answer(&fake, &refused);
    assert_eq!(answer["show_alert"], true, "{answer}");
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("for the new member"),
        "{answer}"
    );
    assert!(fake.is_muted(TG_NEWCOMER), "still restricted");
    assert!(!fake.is_deleted(chat, prompt));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("pending")
    );

    let pressed = fake.push_press(TG_NEWCOMER, prompt, &data);
    let answer = telegram_answer(&fake, &pressed);
    assert_eq!(answer["show_alert"], false, "{answer}");
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("You are verified"),
        "{answer}"
    );
    eventually("the restriction to be lifted", || {
        !fake.is_muted(TG_NEWCOMER)
    });
    eventually("the prompt to be deleted", || fake.is_deleted(chat, prompt));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("verified")
    );
}

/// Not pressed in time: kicked on the clock (a ban and an unban, so they
/// may come back), with a case `source: verification`; the prompt goes.
#[test]
fn telegram_an_unverified_member_is_kicked_when_the_time_is_up() {
    let (fixture, fake, chat) = telegram();
    let prompt = telegram_join(&fake, chat, TG_NEWCOMER);
    eventually("the verification to be pending", || {
        telegram_state(&fixture, TG_NEWCOMER).as_deref() == Some("pending")
    });
    let daemon = &fixture.daemon;
    daemon.clock().advance(Duration::from_secs(10 * 60 + 1));
    assert_eq!(daemon.tick_workers().unverified_kicked, 1);
    assert_eq!(fake.status_of(TG_NEWCOMER).as_deref(), Some("left"));
    assert!(!fake.is_banned(TG_NEWCOMER), "a kick, not a ban");
    assert!(fake.is_deleted(chat, prompt));
    let client = daemon.client(&fixture.alpha_ro);
    let cases = daemon
        .block_on(client.cases(ALPHA_TELEGRAM, &CaseQuery::default()))
        .expect("cases")
        .cases;
    assert_eq!(cases.len(), 1, "{cases:?}");
    assert_eq!(
        (cases[0].source, cases[0].action, cases[0].user_id.as_str()),
        (
            CaseSource::Verification,
            Action::Kick,
            TG_NEWCOMER.to_string().as_str()
        )
    );
}

const SLACK_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
const SLACK_NEWCOMER: &str = "U0NEWBIE01";
const MEMBERS_GROUP: &str = "S0MEMBERS1";

/// Alpha's workspace on the fake Slack with button verification; a user
/// group of members (the auto-role) holding the owner.
fn slack() -> (Fixture, FakeSlack) {
    let fixture = Fixture::start();
    let fake = FakeSlack::start();
    fake.add_user(SLACK_NEWCOMER, "newbie");
    fake.add_user_group(UserGroup {
        id: MEMBERS_GROUP.into(),
        name: "Members".into(),
        handle: "members".into(),
        description: String::new(),
        channels: Vec::new(),
        users: vec![slack::OWNER.into()],
    });
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_SLACK,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": slack::MODLOG_CHANNEL, "verification": "button",
               "auto_role_ids": [MEMBERS_GROUP], "verify_within_minutes": 10}),
    );
    daemon.connect_slack(ALPHA_SLACK, &fake.uri(), None, SLACK_SECRET);
    (fixture, fake)
}

/// Posts a `block_actions` press of `action_id` by `user` of `team` to
/// `/hooks/slack/interactions`, form-encoded and signed with `secret` as
/// Slack does; the HTTP status.
fn slack_press(fixture: &Fixture, secret: &str, team: &str, user: &str, action_id: &str) -> u16 {
    static PRESSES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = PRESSES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let now = fixture.daemon.now_unix();
    // Each press has a trigger of its own (Slack exchanges one for a view
    // once).
    let payload = json!({
        "type": "block_actions", "team": {"id": team, "domain": "alpha"},
        "user": {"id": user, "team_id": team}, "api_app_id": "A1", "token": "t",
        "container": {"type": "message", "channel_id": "D0NEWBIE01", "message_ts": "1700000000.000001"},
        "trigger_id": format!("{now}.{n}.3"), "response_url": "https://hooks.slack.invalid/actions/1",
        "actions": [{"type": "button", "action_id": action_id, "block_id": "b1",
                     "text": {"type": "plain_text", "text": "Verify"},
                     "action_ts": format!("{now}.{n:06}")}],
    });
    slack_interaction(fixture, secret, &payload).0
}

/// Posts interactivity `payload` to `/hooks/slack/interactions`,
/// form-encoded and signed with `secret` as Slack does; the HTTP status and
/// the body (`Null` when empty).
fn slack_interaction(fixture: &Fixture, secret: &str, payload: &Value) -> (u16, Value) {
    let daemon = &fixture.daemon;
    let body = serde_urlencoded::to_string([("payload", payload.to_string())]).unwrap();
    let timestamp = daemon.now_unix().to_string();
    let signature = modctld::platform::slack::events::sign(secret, &timestamp, body.as_bytes());
    let response = daemon
        .block_on(
            reqwest::Client::new()
                .post(format!("{}/hooks/slack/interactions", daemon.url()))
                .header("content-type", "application/x-www-form-urlencoded")
                .header("x-slack-request-timestamp", &timestamp)
                .header("x-slack-signature", signature)
                .body(body)
                .send(),
        )
        .expect("the interactivity hook answers");
    let status = response.status().as_u16();
    let text = daemon.block_on(response.text()).unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A newcomer gets a Block Kit button by DM; a press posted to the signed
/// interactivity endpoint adds them to the `auto_role_ids` user group
/// (keeping its members) and tells them by DM; a request signed with
/// another secret is refused and changes nothing.
#[test]
fn slack_a_press_in_the_dm_adds_the_newcomer_to_the_user_groups() {
    let (fixture, fake) = slack();
    let daemon = &fixture.daemon;
    let status = daemon.post_slack_event(
        SLACK_SECRET,
        ALPHA_SLACK,
        "Ev0JOIN",
        json!({"type": "team_join", "user": {"id": SLACK_NEWCOMER, "is_bot": false}}),
    );
    assert_eq!(status, 200);
    // Welcome's greeting DM, verification's button in it.
    let actions_of = |args: &Value| {
        args["blocks"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|b| b["type"] == "actions")
            .cloned()
    };
    eventually("the button to be DMed", || {
        fake.dms(SLACK_NEWCOMER)
            .iter()
            .any(|dm| actions_of(&dm.args).is_some())
    });
    let actions = fake
        .dms(SLACK_NEWCOMER)
        .iter()
        .find_map(|dm| actions_of(&dm.args))
        .unwrap();
    assert_eq!(actions["elements"][0]["type"], "button");
    assert_eq!(actions["elements"][0]["action_id"], "modctl:verify");
    // One DM: the greeting carries the button.
    let dms = fake.dms(SLACK_NEWCOMER);
    assert_eq!(dms.len(), 1, "{dms:?}");
    assert!(dms[0].text.contains("Welcome"), "{:?}", dms[0].text);

    let forged = slack_press(
        &fixture,
        "another-secret",
        ALPHA_SLACK,
        SLACK_NEWCOMER,
        "modctl:verify",
    );
    assert_eq!(forged, 401);
    assert_eq!(
        fake.user_group_users(MEMBERS_GROUP).unwrap(),
        vec![slack::OWNER]
    );

    let status = slack_press(
        &fixture,
        SLACK_SECRET,
        ALPHA_SLACK,
        SLACK_NEWCOMER,
        "modctl:verify",
    );
    assert_eq!(status, 200);
    eventually("the newcomer to join the user group", || {
        fake.user_group_users(MEMBERS_GROUP).unwrap().len() == 2
    });
    assert_eq!(
        fake.user_group_users(MEMBERS_GROUP).unwrap(),
        vec![slack::OWNER, SLACK_NEWCOMER]
    );
    // Beside the greeting with its button, the answer to the press.
    eventually("the newcomer to be told", || {
        fake.dms(SLACK_NEWCOMER)
            .iter()
            .any(|dm| dm.text.contains("You are verified"))
    });

    // Slack lets no bot remove a member: one who never presses is left
    // unverified (out of the user groups), no kick, no case.
    const IDLER: &str = "U0IDLER001";
    fake.add_user(IDLER, "idler");
    daemon.post_slack_event(
        SLACK_SECRET,
        ALPHA_SLACK,
        "Ev0JOIN2",
        json!({"type": "team_join", "user": {"id": IDLER, "is_bot": false}}),
    );
    eventually("the button to be DMed", || !fake.dms(IDLER).is_empty());
    daemon.clock().advance(Duration::from_secs(11 * 60));
    assert_eq!(daemon.tick_workers().unverified_kicked, 0);
    let state: String = daemon.sql(|sql| {
        sql.query_row(
            "SELECT state FROM verifications WHERE server_id = ?1 AND user_id = ?2",
            [ALPHA_SLACK, IDLER],
            |row| row.get(0),
        )
    });
    assert_eq!(state, "dropped");
    assert!(
        !fake
            .user_group_users(MEMBERS_GROUP)
            .unwrap()
            .contains(&IDLER.to_owned())
    );
}

/// A restart in the middle on Telegram: the pending newcomer's press after
/// the restart still verifies them (their prompt deleted), and another
/// newcomer's deadline holds across it.
#[test]
fn telegram_pending_verifications_survive_a_restart() {
    const LATE: i64 = 4_003;
    let (fixture, fake, chat) = telegram();
    let prompt = telegram_join(&fake, chat, TG_NEWCOMER);
    let late_prompt = telegram_join(&fake, chat, LATE);
    eventually("both to be pending", || {
        telegram_state(&fixture, TG_NEWCOMER).as_deref() == Some("pending")
            && telegram_state(&fixture, LATE).as_deref() == Some("pending")
    });
    fixture.daemon.clock().advance(Duration::from_secs(6 * 60));
    let fixture = fixture.restart();
    let daemon = &fixture.daemon;
    assert_eq!(daemon.start_receivers(), 1);

    let pressed = fake.push_press(TG_NEWCOMER, prompt, &format!("modctl:verify:{TG_NEWCOMER}"));
    assert_eq!(telegram_answer(&fake, &pressed)["show_alert"], false);
    eventually("the restriction to be lifted", || {
        !fake.is_muted(TG_NEWCOMER)
    });
    eventually("the prompt to be deleted", || fake.is_deleted(chat, prompt));

    daemon.clock().advance(Duration::from_secs(3 * 60));
    assert_eq!(
        daemon.tick_workers().unverified_kicked,
        0,
        "the deadline held"
    );
    daemon.clock().advance(Duration::from_secs(61));
    assert_eq!(daemon.tick_workers().unverified_kicked, 1);
    assert_eq!(fake.status_of(LATE).as_deref(), Some("left"));
    assert!(fake.is_deleted(chat, late_prompt));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("verified")
    );
}

/// The ephemeral message holding the captcha's buttons (Discord gives it an
/// id like any message's).
const EPHEMERAL: &str = "900000000000000001";

/// A member's captcha as stored: (code, wrong answers, challenges issued).
fn captcha_row(fixture: &Fixture, server: &str, user: &str) -> (Option<String>, i64, i64) {
    let (server, user) = (server.to_owned(), user.to_owned());
    fixture.daemon.sql(move |sql| {
        sql.query_row(
            "SELECT challenge, wrong_answers, challenges FROM verifications
             WHERE server_id = ?1 AND user_id = ?2",
            [server.as_str(), user.as_str()],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
    })
}

/// A code that is not `code` (its first digit changed).
fn wrong(code: &str) -> String {
    let first = code.chars().next().unwrap().to_digit(10).unwrap();
    format!("{}{}", (first + 1) % 10, &code[1..])
}

impl Discord {
    /// `user` presses a button of the ephemeral captcha message (`key`:
    /// `enter` or `new`): the interaction's id.
    fn press_captcha(&self, user: &str, key: &str) -> String {
        let payload = self
            .discord
            .press(user, VERIFY, EPHEMERAL, &format!("modctl:captcha:{key}"));
        let id = payload["id"].as_str().unwrap().to_owned();
        self.gateway.dispatch("INTERACTION_CREATE", payload);
        id
    }

    /// `user` opens the code's modal and sends `code` in it: the
    /// submission's answer text.
    fn type_code(&self, user: &str, code: &str) -> String {
        let enter = self.press_captcha(user, "enter");
        let modal = self.answer(&enter);
        assert_eq!(modal["type"], 9, "a modal: {modal}");
        assert_eq!(modal["data"]["custom_id"], "modctl:captcha:answer");
        let input = &modal["data"]["components"][0]["components"][0];
        assert_eq!(
            (input["type"].as_u64(), input["min_length"].as_u64()),
            (Some(4), Some(5)),
            "{modal}"
        );
        let payload = self
            .discord
            .submit_modal(user, VERIFY, &enter, &[("code", code)])
            .expect("a modal to submit");
        let id = payload["id"].as_str().unwrap().to_owned();
        self.gateway.dispatch("INTERACTION_CREATE", payload);
        let answer = self.answer(&id);
        assert_eq!(answer["data"]["flags"], 64, "ephemeral: {answer}");
        answer["data"]["content"].as_str().unwrap().to_owned()
    }
}

/// Asserts `answer` is an ephemeral image challenge with its two buttons,
/// the code nowhere in it.
fn assert_challenge(answer: &Value, code: &str) {
    assert_eq!(answer["type"], 4, "{answer}");
    assert_eq!(answer["data"]["flags"], 64, "ephemeral: {answer}");
    let file = &answer["files"][0];
    assert_eq!(file["content_type"], "image/png", "{answer}");
    assert_eq!(file["filename"], "captcha.png", "{answer}");
    assert_eq!(file["png"]["width"], 220, "{answer}");
    let ids: Vec<&str> = answer["data"]["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["custom_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["modctl:captcha:enter", "modctl:captcha:new"]);
    assert!(
        !answer.to_string().contains(code),
        "the code leaked: {answer}"
    );
}

/// Discord's captcha: the verify button answers the newcomer with an image
/// (a multipart callback) and its buttons; another member pressing is told
/// there is nothing to verify; a wrong code typed in the modal is counted;
/// a new challenge replaces the code; a restart between the challenge and
/// the answer keeps it; the right code verifies with the roles.
#[test]
fn discord_captcha_typed_in_a_modal_verifies_after_a_wrong_answer_and_a_new_challenge() {
    let d = discord_verifying("captcha");
    d.join(NEWCOMER);
    d.wait_for_state(NEWCOMER, "pending");

    let pressed = d.press(NEWCOMER, "modctl:verify");
    let answer = d.answer(&pressed);
    let (code, wrong_answers, challenges) = captcha_row(&d.fixture, ALPHA_DISCORD, NEWCOMER);
    let code = code.expect("a challenge issued");
    assert_eq!((wrong_answers, challenges), (0, 1));
    assert_challenge(&answer, &code);

    let refused = d.press(OLD_HAND, "modctl:verify");
    let text = d.answer(&refused)["data"]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("nothing for you to verify"), "{text}");
    let text = d.type_code(OLD_HAND, &code);
    assert!(text.contains("nothing for you to verify"), "{text}");
    assert_eq!(
        d.discord.roles_of(OLD_HAND).unwrap(),
        vec![discord::MEMBER_ROLE]
    );

    let text = d.type_code(NEWCOMER, &wrong(&code));
    assert!(text.contains("Wrong code: 2 tries left"), "{text}");
    assert_eq!(captcha_row(&d.fixture, ALPHA_DISCORD, NEWCOMER).1, 1);
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("pending"));

    let new = d.press_captcha(NEWCOMER, "new");
    let answer = d.answer(&new);
    let (fresh, _, challenges) = captcha_row(&d.fixture, ALPHA_DISCORD, NEWCOMER);
    let fresh = fresh.unwrap();
    assert_eq!(challenges, 2);
    assert_challenge(&answer, &fresh);

    // A restart between the challenge and the answer keeps the challenge.
    let Discord {
        fixture,
        discord: fake,
        gateway,
    } = d;
    let d = Discord {
        fixture: fixture.restart(),
        discord: fake,
        gateway,
    };
    d.connect_gateway();
    assert_eq!(
        captcha_row(&d.fixture, ALPHA_DISCORD, NEWCOMER),
        (Some(fresh.clone()), 1, 2)
    );
    let text = d.type_code(NEWCOMER, &fresh);
    assert!(text.contains("You are verified"), "{text}");
    d.wait_for_state(NEWCOMER, "verified");
    let mut roles = d.discord.roles_of(NEWCOMER).unwrap();
    roles.sort();
    assert_eq!(roles, vec![discord::MEMBER_ROLE, VERIFIED_ROLE]);
}

/// Three wrong answers spend the tries: the right code is refused after
/// them, and the member is kicked on the clock like any unverified one.
#[test]
fn discord_captcha_wrong_answers_are_limited_and_the_deadline_still_kicks() {
    let d = discord_verifying("captcha");
    d.join(NEWCOMER);
    d.wait_for_state(NEWCOMER, "pending");
    let pressed = d.press(NEWCOMER, "modctl:verify");
    d.answer(&pressed);
    let code = captcha_row(&d.fixture, ALPHA_DISCORD, NEWCOMER).0.unwrap();
    for left in ["2 tries left", "1 try left", "last try"] {
        let text = d.type_code(NEWCOMER, &wrong(&code));
        assert!(text.contains(left), "{left}: {text}");
    }
    let text = d.type_code(NEWCOMER, &code);
    assert!(text.contains("no tries left"), "{text}");
    let again = d.press(NEWCOMER, "modctl:verify");
    let text = d.answer(&again)["data"]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.contains("no tries left"), "{text}");
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("pending"));
    assert_eq!(d.discord.roles_of(NEWCOMER).unwrap(), Vec::<String>::new());

    let daemon = &d.fixture.daemon;
    daemon.clock().advance(Duration::from_secs(10 * 60 + 1));
    assert_eq!(daemon.tick_workers().unverified_kicked, 1);
    assert!(!d.discord.is_member(NEWCOMER));
    assert_eq!(d.state(NEWCOMER).as_deref(), Some("kicked"));
}

/// The newcomer's Telegram captcha prompt: a photo with a keypad naming
/// them, posted when they join (and restricted until verified).
fn telegram_captcha_prompt(fake: &FakeTelegram, chat: i64, user: i64) -> (i64, Value) {
    fake.add_member(user);
    fake.push_join(user, 1_800_000_000);
    telegram_captcha_prompt_again(fake, chat, user)
}

/// Presses `digits` on `user`'s keypad of `prompt`, each answered: the
/// last answer.
fn telegram_keys(fake: &FakeTelegram, prompt: i64, user: i64, keys: &str) -> Value {
    let mut last = Value::Null;
    for key in keys.chars() {
        let data = format!("modctl:captcha:{user}:{key}");
        let query = fake.push_press(user, prompt, &data);
        last = telegram_answer(fake, &query);
    }
    last
}

/// Telegram's captcha: a photo with a keypad; another member pressing is
/// refused; the progress is told digit by digit; a wrong code is counted;
/// a new challenge replaces the photo; a restart in the middle of typing
/// keeps the digits; the right code lifts the restriction and removes the
/// prompt.
#[test]
fn telegram_captcha_pressed_on_the_keypad_verifies() {
    let (fixture, fake, chat) = telegram_verifying("captcha");
    let (prompt, args) = telegram_captcha_prompt(&fake, chat, TG_NEWCOMER);
    eventually("the newcomer to be restricted", || {
        fake.is_muted(TG_NEWCOMER)
    });
    assert_eq!(args["photo"]["png"]["width"], 220, "{args}");
    let user = TG_NEWCOMER.to_string();
    let (code, _, _) = captcha_row(&fixture, ALPHA_TELEGRAM, &user);
    let code = code.unwrap();
    assert!(!args.to_string().contains(&code), "the code leaked: {args}");

    let refused = fake.push_press(TG_OTHER, prompt, &format!("modctl:captcha:{TG_NEWCOMER}:1"));
    let answer = telegram_answer(&fake, &refused);
    assert_eq!(answer["show_alert"], true, "{answer}");
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("for the new member")
    );

    let answer = telegram_keys(&fake, prompt, TG_NEWCOMER, &wrong(&code)[..2]);
    assert!(
        answer["text"].as_str().unwrap().contains("2 of 5 digits"),
        "{answer}"
    );
    let answer = telegram_keys(&fake, prompt, TG_NEWCOMER, &wrong(&code)[2..]);
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("Wrong code: 2 tries left"),
        "{answer}"
    );
    assert_eq!(captcha_row(&fixture, ALPHA_TELEGRAM, &user).1, 1);

    let new = fake.push_press(
        TG_NEWCOMER,
        prompt,
        &format!("modctl:captcha:{TG_NEWCOMER}:new"),
    );
    telegram_answer(&fake, &new);
    eventually("the old photo to go", || fake.is_deleted(chat, prompt));
    let (prompt, _) = telegram_captcha_prompt_again(&fake, chat, TG_NEWCOMER);
    let (fresh, _, challenges) = captcha_row(&fixture, ALPHA_TELEGRAM, &user);
    let fresh = fresh.unwrap();
    assert_eq!(challenges, 2);

    telegram_keys(&fake, prompt, TG_NEWCOMER, &fresh[..3]);
    let fixture = fixture.restart();
    assert_eq!(fixture.daemon.start_receivers(), 1);
    let answer = telegram_keys(&fake, prompt, TG_NEWCOMER, &fresh[3..]);
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .contains("You are verified"),
        "{answer}"
    );
    eventually("the restriction to be lifted", || {
        !fake.is_muted(TG_NEWCOMER)
    });
    eventually("the prompt to be deleted", || fake.is_deleted(chat, prompt));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("verified")
    );
}

/// The prompt posted for `user` now (not deleted).
fn telegram_captcha_prompt_again(fake: &FakeTelegram, chat: i64, user: i64) -> (i64, Value) {
    let erase = format!("modctl:captcha:{user}:erase");
    let prompt = || {
        fake.sent(chat).into_iter().rev().find(|m| {
            !m.deleted
                && m.from == telegram::BOT
                && m.args["reply_markup"]["inline_keyboard"][3][0]["callback_data"]
                    == erase.as_str()
        })
    };
    eventually("the new captcha to be posted", || prompt().is_some());
    let m = prompt().unwrap();
    (m.message_id, m.args)
}

/// A moderator's timeout placed while the newcomer was still verifying is
/// not lifted by their press: verified, but still restricted, and told so.
#[test]
fn telegram_verifying_does_not_lift_a_moderators_mute() {
    let (fixture, fake, chat) = telegram();
    let prompt = telegram_join(&fake, chat, TG_NEWCOMER);
    eventually("the newcomer to be restricted", || {
        fake.is_muted(TG_NEWCOMER)
    });
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    let body = modctl_types::moderation::ActionRequest {
        user_id: TG_NEWCOMER.to_string(),
        reason: Some("flood".into()),
        minutes: Some(60),
        delete_message_days: None,
    };
    let timed_out = daemon
        .block_on(client.perform_action(ALPHA_TELEGRAM, Action::Timeout, &body))
        .expect("timeout");
    assert!(timed_out.applied, "{timed_out:?}");

    let pressed = fake.push_press(TG_NEWCOMER, prompt, &format!("modctl:verify:{TG_NEWCOMER}"));
    let answer = telegram_answer(&fake, &pressed);
    let text = answer["text"].as_str().unwrap();
    assert!(text.contains("mute still applies"), "{answer}");
    eventually("the prompt to be deleted", || fake.is_deleted(chat, prompt));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("verified")
    );
    assert!(fake.is_muted(TG_NEWCOMER), "the moderator's mute holds");
}

/// A newcomer who leaves and comes back within the minute (Telegram keeps
/// their restriction) gets a new prompt and a new verification, rather
/// than staying restricted with nothing to press.
#[test]
fn telegram_a_member_who_leaves_and_rejoins_at_once_gets_a_new_prompt() {
    let (fixture, fake, chat) = telegram();
    let first = telegram_join(&fake, chat, TG_NEWCOMER);
    fake.push_leave(TG_NEWCOMER, 1_800_000_010);
    eventually("the verification to be dropped", || {
        telegram_state(&fixture, TG_NEWCOMER).as_deref() == Some("dropped")
    });
    fake.push_join(TG_NEWCOMER, 1_800_000_020);
    let data = format!("modctl:verify:{TG_NEWCOMER}");
    let prompts = || {
        fake.sent(chat)
            .into_iter()
            .filter(|m| {
                m.from == telegram::BOT
                    && m.args["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
                        == data.as_str()
            })
            .map(|m| m.message_id)
            .collect::<Vec<_>>()
    };
    eventually("a second prompt to be posted", || prompts().len() == 2);
    let second = *prompts().last().unwrap();
    assert_ne!(second, first);
    assert!(
        fake.is_deleted(chat, first),
        "the first went when they left"
    );
    assert!(!fake.is_deleted(chat, second));
    assert_eq!(
        telegram_state(&fixture, TG_NEWCOMER).as_deref(),
        Some("pending")
    );
    let pressed = fake.push_press(TG_NEWCOMER, second, &data);
    assert!(
        telegram_answer(&fake, &pressed)["text"]
            .as_str()
            .unwrap()
            .contains("You are verified")
    );
    eventually("the restriction to be lifted", || {
        !fake.is_muted(TG_NEWCOMER)
    });
}

/// Alpha's workspace on the fake Slack with captcha verification, and a
/// newcomer who joined (greeted by DM with the verify button).
fn slack_captcha() -> (Fixture, FakeSlack) {
    let (fixture, fake) = slack();
    fixture.daemon.set_config(
        ALPHA_SLACK,
        SectionName::Welcome,
        json!({"enabled": true, "channel_id": slack::MODLOG_CHANNEL, "verification": "captcha",
               "auto_role_ids": [MEMBERS_GROUP], "verify_within_minutes": 10}),
    );
    slack_join(&fixture, &fake, SLACK_NEWCOMER);
    (fixture, fake)
}

/// `user` joins the workspace; waits for their greeting DM.
fn slack_join(fixture: &Fixture, fake: &FakeSlack, user: &str) {
    let status = fixture.daemon.post_slack_event(
        SLACK_SECRET,
        ALPHA_SLACK,
        &format!("Ev0JOIN{user}"),
        json!({"type": "team_join", "user": {"id": user, "is_bot": false}}),
    );
    assert_eq!(status, 200);
    eventually("the greeting DM", || !fake.dms(user).is_empty());
}

/// `user` presses `action_id` and waits for the `count`th image shared in
/// their DM, with the buttons posted under it; asserts the code is not in
/// the DMs.
fn slack_challenge(fixture: &Fixture, fake: &FakeSlack, user: &str, action_id: &str, count: usize) {
    let images = |fake: &FakeSlack| {
        fake.dms(user)
            .into_iter()
            .filter(|dm| dm.args.get("files").is_some())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        slack_press(fixture, SLACK_SECRET, ALPHA_SLACK, user, action_id),
        200
    );
    eventually("the challenge's image in the DM", || {
        images(fake).len() == count
            && fake
                .dms(user)
                .last()
                .is_some_and(|dm| dm.args["blocks"][0]["type"] == "actions")
    });
    let shared = images(fake).pop().unwrap();
    assert!(
        shared.text.contains("type the 5 digits"),
        "{:?}",
        shared.text
    );
    let (declared, received) = *fake.shared_files().last().unwrap();
    assert!(
        declared > 100 && declared == received,
        "{declared} {received}"
    );
    let buttons = fake.dms(user).pop().unwrap().args["blocks"][0]["elements"].clone();
    let ids: Vec<&str> = buttons
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["action_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["modctl:captcha:enter", "modctl:captcha:new"]);
    let code = captcha_row(fixture, ALPHA_SLACK, user).0.unwrap();
    for dm in fake.dms(user) {
        assert!(
            !dm.args.to_string().contains(&code),
            "the code leaked: {dm:?}"
        );
    }
}

/// `user` presses "Enter code" (a modal opens with the press's trigger)
/// and submits `code` in it: the submission's answer, `None` when it
/// closed the modal, else the error under the field.
fn slack_type_code(fixture: &Fixture, fake: &FakeSlack, user: &str, code: &str) -> Option<String> {
    let before = fake.views().len();
    assert_eq!(
        slack_press(
            fixture,
            SLACK_SECRET,
            ALPHA_SLACK,
            user,
            "modctl:captcha:enter"
        ),
        200
    );
    eventually("the modal to open", || fake.views().len() == before + 1);
    let view = fake.views().pop().unwrap().view;
    assert_eq!(view["callback_id"], "modctl:captcha:answer", "{view}");
    let input = &view["blocks"][0];
    assert_eq!(
        (
            input["block_id"].as_str(),
            input["element"]["type"].as_str()
        ),
        (Some("code"), Some("plain_text_input")),
        "{view}"
    );
    slack_submit(fixture, user, code)
}

/// `user` submits `code` in the captcha's modal (a `view_submission`).
fn slack_submit(fixture: &Fixture, user: &str, code: &str) -> Option<String> {
    let payload = json!({
        "type": "view_submission", "team": {"id": ALPHA_SLACK, "domain": "alpha"},
        "user": {"id": user, "team_id": ALPHA_SLACK}, "api_app_id": "A1", "token": "t",
        "trigger_id": "9.9.9",
        "view": {"id": "V0CAPTCHA1", "type": "modal", "callback_id": "modctl:captcha:answer",
                 "hash": "1.abc",
                 "state": {"values": {"code": {"code": {"type": "plain_text_input", "value": code}}}}},
    });
    let (status, body) = slack_interaction(fixture, SLACK_SECRET, &payload);
    assert_eq!(status, 200, "{body}");
    if body.is_null() {
        return None;
    }
    assert_eq!(body["response_action"], "errors", "{body}");
    Some(body["errors"]["code"].as_str().unwrap().to_owned())
}

/// Slack's captcha: the verify button of the greeting DM shares the image
/// in the DM with "Enter code" and "New challenge"; another member's
/// submission does not verify the newcomer; a wrong code is an error under
/// the modal's field; a new challenge is another image; a restart between
/// the challenge and the answer keeps it; the right code closes the modal,
/// adds the newcomer to the user groups and tells them by DM.
#[test]
fn slack_captcha_typed_in_a_modal_verifies_after_a_wrong_answer_and_a_new_challenge() {
    const OTHER: &str = "U0NEWBIE02";
    let (fixture, fake) = slack_captcha();
    fake.add_user(OTHER, "other");
    slack_join(&fixture, &fake, OTHER);
    slack_challenge(&fixture, &fake, SLACK_NEWCOMER, "modctl:verify", 1);
    let (code, wrong_answers, challenges) = captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER);
    let code = code.unwrap();
    assert_eq!((wrong_answers, challenges), (0, 1));

    // Another member sending the newcomer's code answers for themselves
    // only: they have no challenge yet, and someone not pending has
    // nothing to verify.
    let error = slack_type_code(&fixture, &fake, OTHER, &code).unwrap();
    assert!(error.contains("Press the verify button first"), "{error}");
    let error = slack_submit(&fixture, slack::OWNER, &code).unwrap();
    assert!(error.contains("nothing for you to verify"), "{error}");
    assert_eq!(
        captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER),
        (Some(code.clone()), 0, 1)
    );

    let error = slack_type_code(&fixture, &fake, SLACK_NEWCOMER, &wrong(&code)).unwrap();
    assert!(error.contains("Wrong code: 2 tries left"), "{error}");
    assert_eq!(captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER).1, 1);

    slack_challenge(&fixture, &fake, SLACK_NEWCOMER, "modctl:captcha:new", 2);
    let (fresh, _, challenges) = captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER);
    let fresh = fresh.unwrap();
    assert_eq!(challenges, 2);

    // A restart between the challenge and the answer keeps the challenge.
    let fixture = fixture.restart();
    assert_eq!(
        captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER),
        (Some(fresh.clone()), 1, 2)
    );
    assert_eq!(
        slack_type_code(&fixture, &fake, SLACK_NEWCOMER, &fresh),
        None
    );
    eventually("the newcomer to join the user group", || {
        fake.user_group_users(MEMBERS_GROUP).unwrap().len() == 2
    });
    assert_eq!(
        fake.user_group_users(MEMBERS_GROUP).unwrap(),
        vec![slack::OWNER, SLACK_NEWCOMER]
    );
    eventually("the newcomer to be told", || {
        fake.dms(SLACK_NEWCOMER)
            .iter()
            .any(|dm| dm.text.contains("You are verified"))
    });
    assert!(
        !fake
            .user_group_users(MEMBERS_GROUP)
            .unwrap()
            .contains(&OTHER.to_owned())
    );
}

/// Three wrong codes spend the tries: the right one is then refused under
/// the field and the newcomer stays pending, out of the user groups.
#[test]
fn slack_captcha_wrong_answers_are_limited() {
    let (fixture, fake) = slack_captcha();
    slack_challenge(&fixture, &fake, SLACK_NEWCOMER, "modctl:verify", 1);
    let code = captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER)
        .0
        .unwrap();
    for left in ["2 tries left", "1 try left", "last try"] {
        let error = slack_type_code(&fixture, &fake, SLACK_NEWCOMER, &wrong(&code)).unwrap();
        assert!(error.contains(left), "{left}: {error}");
    }
    let error = slack_type_code(&fixture, &fake, SLACK_NEWCOMER, &code).unwrap();
    assert!(error.contains("no tries left"), "{error}");
    assert_eq!(captcha_row(&fixture, ALPHA_SLACK, SLACK_NEWCOMER).1, 3);
    assert_eq!(
        fake.user_group_users(MEMBERS_GROUP).unwrap(),
        vec![slack::OWNER]
    );
    let state: String = fixture.daemon.sql(|sql| {
        sql.query_row(
            "SELECT state FROM verifications WHERE server_id = ?1 AND user_id = ?2",
            [ALPHA_SLACK, SLACK_NEWCOMER],
            |row| row.get(0),
        )
    });
    assert_eq!(state, "pending");
}
