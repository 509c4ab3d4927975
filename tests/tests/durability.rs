//! Actions that never lose a case: a client that gives up mid-action, many
//! requests on one member at once, escalations that must not weaken what is
//! in force, and idempotency keys that expire on the daemon's clock.
//!
//! The platform is the stateful fake Discord of the test support; its gates
//! hold a platform call for as long as a test needs. The daemon killed
//! mid-call (a real process and SIGKILL) is in `daemon/tests/crash.rs`.

use std::future::Future;
use std::time::Duration;

use modctl_client::{Client, StatusCode};
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{BOT, JAIL_ROLE, MEMBER_ROLE, MOD_ROLE, TOKEN};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CaseSource, CaseState};
use serde_json::json;

const TARGET: &str = "500000000000000003";
const OTHER_ROLE: &str = "600000000000000009";

fn request(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        ..Default::default()
    }
}

/// The fixture with alpha's Discord server on a fake guild where the target
/// has the member role, jail set up, and `strikes` as the strikes section.
fn discord(strikes: serde_json::Value) -> (Fixture, FakeDiscord, Client) {
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.add_member(BOT, &[MOD_ROLE]);
    fake.add_member(TARGET, &[MEMBER_ROLE]);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Jail,
        json!({"enabled": true, "role_id": JAIL_ROLE}),
    );
    daemon.set_config(ALPHA_DISCORD, SectionName::Strikes, strikes);
    let client = daemon.client(&fixture.alpha_rw);
    (fixture, fake, client)
}

/// Waits for `check` to return `Some`, polling; panics after 10 s. This
/// waits for an event (a background task finishing), not for time to pass.
async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The cases of `user`, oldest first, once none of them is pending.
async fn settled_cases(client: &Client, user: &str, count: usize) -> Vec<Case> {
    eventually("the cases to be settled", || async {
        let mut cases = client.all_cases(ALPHA_DISCORD, Some(user)).await.unwrap();
        cases.reverse();
        (cases.len() == count && cases.iter().all(|c| c.state != CaseState::Pending))
            .then_some(cases)
    })
    .await
}

/// Starts `action` with an `Idempotency-Key` whose client gives up (is
/// dropped, closing its connection) once the platform call `held` is under
/// way; then lets the platform answer.
async fn give_up_during(
    client: &Client,
    fake: &FakeDiscord,
    held: (&str, String),
    action: Action,
    key: &str,
) {
    let gate = fake.hold(held.0, &held.1);
    let request = {
        let (client, key) = (client.clone(), key.to_owned());
        tokio::spawn(async move {
            client
                .perform_action_idempotent(ALPHA_DISCORD, action, &request(TARGET), &key)
                .await
        })
    };
    tokio::time::timeout(Duration::from_secs(10), gate.arrived())
        .await
        .expect("the platform call arrives");
    request.abort();
    let _ = request.await;
    // Give the daemon's HTTP stack a moment to see the closed connection and
    // drop the request's future; without it, a daemon that carried actions
    // out inside the request could pass by finishing before it noticed.
    tokio::time::sleep(Duration::from_millis(300)).await;
    gate.release();
}

#[tokio::test]
async fn a_client_that_gives_up_mid_ban_still_gets_its_case_and_its_retry_answers() {
    let (_fixture, fake, client) = discord(json!({"enabled": false}));
    let ban = format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}");
    give_up_during(&client, &fake, ("PUT", ban.clone()), Action::Ban, "ban-1").await;

    let cases = settled_cases(&client, TARGET, 1).await;
    assert!(fake.is_banned(TARGET));
    let case = &cases[0];
    assert_eq!(
        (case.action, case.state, case.applied),
        (Action::Ban, CaseState::Settled, true)
    );
    assert!(case.detail.starts_with("banned"), "{}", case.detail);

    // The retry answers from that case, and the platform is not called again.
    let retry = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Ban, &request(TARGET), "ban-1")
        .await
        .expect("the retry answers, not 409 in progress");
    assert_eq!((retry.case_id, retry.applied), (case.id, true));
    assert_eq!(fake.requests_to("PUT", &ban).len(), 1);
}

#[tokio::test]
async fn an_escalation_runs_to_its_case_when_the_client_gives_up() {
    let (_fixture, fake, client) = discord(json!({
        "weights": {"warn": 1},
        "ladder": [{"at": 1, "action": "ban"}]
    }));
    let ban = format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}");
    give_up_during(&client, &fake, ("PUT", ban.clone()), Action::Warn, "warn-1").await;

    let cases = settled_cases(&client, TARGET, 2).await;
    let (warn, escalation) = (&cases[0], &cases[1]);
    assert_eq!((warn.action, warn.applied), (Action::Warn, true));
    assert_eq!(
        (
            escalation.action,
            escalation.source,
            escalation.linked_case_id,
            escalation.applied
        ),
        (Action::Ban, CaseSource::Escalation, Some(warn.id), true)
    );
    assert!(fake.is_banned(TARGET));

    let retry = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Warn, &request(TARGET), "warn-1")
        .await
        .unwrap();
    assert_eq!(retry.case_id, warn.id);
    let replayed = retry.escalation.expect("the replay carries the escalation");
    assert_eq!((replayed.case_id, replayed.applied), (escalation.id, true));
    // The ladder step fired once: one ban on the platform, no second escalation.
    assert_eq!(fake.requests_to("PUT", &ban).len(), 1);
}

/// Sends `n` copies of `action` on the target at once; the statuses.
async fn at_once(client: &Client, action: Action, n: usize) -> Vec<Result<i64, StatusCode>> {
    let requests = (0..n).map(|_| {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .perform_action(ALPHA_DISCORD, action, &request(TARGET))
                .await
                .map(|r| r.case_id)
                .map_err(|e| e.status().expect("an HTTP error, not a transport one"))
        })
    });
    let mut results = Vec::new();
    for request in requests.collect::<Vec<_>>() {
        results.push(request.await.unwrap());
    }
    results
}

/// (successes, 409s); anything else, a 500 above all, is in neither.
fn tally(results: &[Result<i64, StatusCode>]) -> (usize, usize) {
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results
        .iter()
        .filter(|r| **r == Err(StatusCode::CONFLICT))
        .count();
    (ok, conflicts)
}

#[tokio::test]
async fn ten_concurrent_jails_then_ten_unjails_make_one_of_each_and_restore_the_roles() {
    let (_fixture, fake, client) = discord(json!({"enabled": false}));
    fake.add_role(OTHER_ROLE, 1, 0);
    fake.add_member(TARGET, &[MEMBER_ROLE, OTHER_ROLE]);

    let jails = at_once(&client, Action::Jail, 10).await;
    assert_eq!(tally(&jails), (1, 9), "{jails:?}");
    assert_eq!(fake.roles_of(TARGET).unwrap(), vec![JAIL_ROLE.to_owned()]);
    let active = client.jails(ALPHA_DISCORD).await.unwrap();
    assert_eq!(active.len(), 1);
    assert_eq!(
        active[0].saved_roles,
        vec![MEMBER_ROLE.to_owned(), OTHER_ROLE.to_owned()]
    );

    let unjails = at_once(&client, Action::Unjail, 10).await;
    assert_eq!(tally(&unjails), (1, 9), "{unjails:?}");
    assert_eq!(
        fake.roles_of(TARGET).unwrap(),
        vec![MEMBER_ROLE.to_owned(), OTHER_ROLE.to_owned()]
    );
    assert!(client.jails(ALPHA_DISCORD).await.unwrap().is_empty());

    let cases = client.all_cases(ALPHA_DISCORD, Some(TARGET)).await.unwrap();
    let count = |action| cases.iter().filter(|c| c.action == action).count();
    assert_eq!(
        (count(Action::Jail), count(Action::Unjail)),
        (1, 1),
        "{cases:?}"
    );
    // One PATCH of the roles each way: the refused requests never reached Discord.
    let member = format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}");
    assert_eq!(fake.requests_to("PATCH", &member).len(), 2);
}

#[tokio::test]
async fn an_escalation_never_shortens_a_running_timeout_nor_bans_twice() {
    let (fixture, fake, client) = discord(json!({
        "weights": {"timeout": 2, "ban": 2},
        "ladder": [{"at": 2, "action": "timeout", "minutes": 60}, {"at": 4, "action": "ban"}]
    }));
    let started = fixture.daemon.now_unix();
    let timeout = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Timeout,
            &ActionRequest {
                minutes: Some(90),
                ..request(TARGET)
            },
        )
        .await
        .unwrap();
    let escalation = timeout.escalation.expect("the ladder step is recorded");
    assert_eq!(
        (escalation.action, escalation.applied),
        (Action::Timeout, false)
    );
    assert!(
        escalation.detail.starts_with("skipped: a timeout until"),
        "{}",
        escalation.detail
    );
    let until: modctl_types::Timestamp = fake.timed_out_until(TARGET).unwrap().parse().unwrap();
    assert_eq!(
        until.as_second(),
        started + 90 * 60,
        "the 90-minute timeout stands"
    );
    let member = format!("/guilds/{ALPHA_DISCORD}/members/{TARGET}");
    assert_eq!(fake.requests_to("PATCH", &member).len(), 1);

    // A ban that reaches the ladder's ban step: the member is banned once.
    let ban = client
        .perform_action(ALPHA_DISCORD, Action::Ban, &request(TARGET))
        .await
        .unwrap();
    assert!(ban.applied);
    let step = ban.escalation.expect("the ban step is recorded");
    assert_eq!((step.action, step.applied), (Action::Ban, false));
    assert!(
        step.detail.contains("the member is banned"),
        "{}",
        step.detail
    );
    let bans = format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}");
    assert_eq!(fake.requests_to("PUT", &bans).len(), 1);
}

#[tokio::test]
async fn a_longer_ladder_timeout_extends_a_shorter_running_one() {
    let (fixture, fake, client) = discord(json!({
        "weights": {"timeout": 2},
        "ladder": [{"at": 2, "action": "timeout", "minutes": 60}]
    }));
    let started = fixture.daemon.now_unix();
    let timeout = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Timeout,
            &ActionRequest {
                minutes: Some(10),
                ..request(TARGET)
            },
        )
        .await
        .unwrap();
    let escalation = timeout.escalation.unwrap();
    assert_eq!(
        (escalation.action, escalation.applied),
        (Action::Timeout, true)
    );
    let until: modctl_types::Timestamp = fake.timed_out_until(TARGET).unwrap().parse().unwrap();
    assert_eq!(until.as_second(), started + 60 * 60);
}

#[tokio::test]
async fn an_idempotency_key_is_forgotten_after_24_hours_on_the_clock() {
    let (fixture, _fake, client) = discord(json!({"enabled": false}));
    let first = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Note, &request(TARGET), "note-1")
        .await
        .unwrap();
    fixture
        .daemon
        .clock()
        .advance(Duration::from_secs(24 * 3600 - 1));
    let replay = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Note, &request(TARGET), "note-1")
        .await
        .unwrap();
    assert_eq!(replay, first);
    fixture.daemon.clock().advance(Duration::from_secs(1));
    let fresh = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Note, &request(TARGET), "note-1")
        .await
        .unwrap();
    assert_ne!(fresh.case_id, first.case_id);
}

#[tokio::test]
async fn a_replay_answers_first_even_when_the_config_would_now_refuse_the_request() {
    let (fixture, _fake, client) = discord(json!({"enabled": false}));
    let first = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Warn, &request(TARGET), "warn-7")
        .await
        .unwrap();
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Moderation,
        json!({"require_reason": true}),
    );
    let replay = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Warn, &request(TARGET), "warn-7")
        .await
        .expect("a replay is answered from its case, before validation");
    assert_eq!(replay, first);
    let fresh = client
        .perform_action_idempotent(ALPHA_DISCORD, Action::Warn, &request(TARGET), "warn-8")
        .await
        .unwrap_err();
    assert_eq!(fresh.status(), Some(StatusCode::BAD_REQUEST));
}

#[tokio::test]
async fn a_case_left_pending_blocks_its_member_until_the_recovery_worker_settles_it() {
    let (fixture, fake, client) = discord(json!({"enabled": false}));
    let daemon = &fixture.daemon;
    // A ban whose task died before it settled (e.g. a failed write): the case
    // is pending and no task holds the member. Its DM was due, and the task
    // died before recording it.
    let orphan = daemon.orphan_ban(ALPHA_DISCORD, TARGET, None);
    let refused = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(TARGET))
        .await
        .unwrap_err();
    assert_eq!(refused.status(), Some(StatusCode::CONFLICT));
    assert!(
        refused.message().contains(&format!("case #{}", orphan.id)),
        "{}",
        refused.message()
    );

    assert_eq!(daemon.tick_workers().recovered, 1);
    let settled = client.case(ALPHA_DISCORD, orphan.id).await.unwrap();
    assert_eq!(
        (settled.state, settled.applied),
        (CaseState::Settled, false)
    );
    assert!(
        settled
            .detail
            .contains("stopped before the ban reached discord"),
        "{}",
        settled.detail
    );
    // Recovery only looked: nothing was banned, and no DM was sent (the
    // DM's fate is unknown: the task may have sent it before dying).
    assert!(!fake.is_banned(TARGET));
    assert!(fake.dms(TARGET).is_empty());
    assert_eq!(
        settled.dm.map(|dm| dm.status),
        Some(modctl_types::moderation::DmStatus::Unknown)
    );
    client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(TARGET))
        .await
        .expect("the member is free again");
}
