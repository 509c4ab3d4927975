//! Stopping and starting a daemon with actions in flight (issue #22, items 9
//! and 13): the shutdown deadline bounds a stop even while a platform never
//! answers, the action it cut off stays pending in the database, and the
//! next start settles it by asking the platform before any request sees it
//! pending.

use std::time::{Duration, Instant};

use modctl_client::Client;
use modctl_e2e::fakes::discord::{BOT, MEMBER_ROLE, MOD_ROLE, TOKEN};
use modctl_e2e::fakes::{FakeDiscord, Gate};
use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture, TestDaemon, TestKey};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CaseState};
use serde_json::json;

const TARGET: &str = "500000000000000003";

fn ban_path() -> String {
    format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}")
}

/// A daemon with alpha's Discord server on a fake guild where the target is
/// a member (no strikes); the daemon, the fake, alpha's write key and beta's.
fn discord() -> (TestDaemon, FakeDiscord, TestKey, TestKey) {
    let Fixture {
        daemon,
        alpha_rw,
        beta_rw,
        ..
    } = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.add_member(BOT, &[MOD_ROLE]);
    fake.add_member(TARGET, &[MEMBER_ROLE]);
    daemon.connect_live(ALPHA_DISCORD, TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"enabled": false}),
    );
    (daemon, fake, alpha_rw, beta_rw)
}

/// Starts a ban of the target, lets it reach the platform (which holds it
/// unanswered), and stops the daemon: the ban's case is left pending in the
/// database. Returns the gate holding the ban.
async fn stop_mid_ban(daemon: &mut TestDaemon, fake: &FakeDiscord, key: &TestKey) -> Gate {
    let gate = fake.hold("PUT", &ban_path());
    let client = daemon.client(key);
    let request = tokio::spawn(async move { ban(&client).await });
    tokio::time::timeout(Duration::from_secs(10), gate.arrived())
        .await
        .expect("the ban reaches the platform");
    daemon.stop();
    // The client only sees its connection closed.
    assert!(request.await.expect("the request task").is_err());
    gate
}

/// The state of every case in the database file, by number (read directly:
/// the daemon is stopped).
fn stored_states(daemon: &TestDaemon) -> Vec<(i64, String)> {
    let db = rusqlite::Connection::open(daemon.db_path()).expect("open the database");
    let mut statement = db
        .prepare("SELECT number, state FROM cases ORDER BY number")
        .expect("prepare");
    statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
}

async fn ban(
    client: &Client,
) -> Result<modctl_types::moderation::ActionResponse, modctl_client::Error> {
    let request = ActionRequest {
        user_id: TARGET.into(),
        reason: Some("raid".into()),
        ..Default::default()
    };
    client
        .perform_action(ALPHA_DISCORD, Action::Ban, &request)
        .await
}

/// SIGTERM while the platform holds a ban unanswered: without the deadline
/// bounding the action, the stop takes the request timeout of every attempt
/// (3 x 10 s). Here it returns soon after the 1 s deadline, the case is
/// pending in the database, and the next start settles it from what the
/// platform shows.
#[tokio::test]
async fn a_stop_with_a_platform_that_never_answers_keeps_the_deadline_and_leaves_the_case_to_recovery()
 {
    let (mut daemon, fake, key, _) = discord();
    let ban_route = ban_path();
    let started = Instant::now();
    let gate = stop_mid_ban(&mut daemon, &fake, &key).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "starting the ban and stopping took {took:?}: the 1 s shutdown deadline must bound the stop"
    );
    let states = stored_states(&daemon);
    assert_eq!(states, [(1, "pending".to_owned())]);

    // The platform carries out the ban it had received.
    gate.release();
    modctl_e2e::eventually("the held ban to be carried out", || fake.is_banned(TARGET));
    let daemon = daemon.restart();
    let client = daemon.client(&key);
    let case: Case = client.case(ALPHA_DISCORD, 1).await.expect("case 1");
    assert_eq!(
        (case.state, case.applied),
        (CaseState::Settled, true),
        "{case:?}"
    );
    assert!(
        case.detail
            .contains("confirmed on the platform after the daemon restarted"),
        "{}",
        case.detail
    );
    // Recovery asked; it did not ban again.
    assert_eq!(fake.requests_to("PUT", &ban_route).len(), 1);
}

/// A restart over a database holding a pending case whose check is slow
/// (the platform holds the read of the ban): until it is settled, `/ready`
/// is 503 and a read of the server's cases waits, so it never shows the
/// case pending; another team's server is served meanwhile.
#[tokio::test]
async fn after_a_restart_no_request_sees_a_pending_case_and_ready_waits_for_the_settling() {
    let (mut daemon, fake, key, beta) = discord();
    let gate = stop_mid_ban(&mut daemon, &fake, &key).await;
    assert_eq!(stored_states(&daemon), [(1, "pending".to_owned())]);
    gate.release();
    modctl_e2e::eventually("the held ban to be carried out", || fake.is_banned(TARGET));

    // The check of the ban is held at the platform.
    let check = fake.hold("GET", &ban_path());
    let daemon = daemon.restart();
    tokio::time::timeout(Duration::from_secs(10), check.arrived())
        .await
        .expect("recovery asks the platform");
    let ready = reqwest::get(daemon.api("/ready")).await.expect("ready");
    assert_eq!(ready.status(), 503);
    let (_, message) = modctl_e2e::error_body(ready).await;
    assert!(message.contains("settling"), "{message}");
    let other = daemon.client(&beta);
    other
        .all_cases(BETA_DISCORD, None)
        .await
        .expect("another server is served while alpha's settles");

    let client = daemon.client(&key);
    let listing = tokio::spawn(async move { client.all_cases(ALPHA_DISCORD, None).await });
    // Time for a listing that does not wait to be answered (with the case
    // pending); the one that waits is answered after the check.
    tokio::time::sleep(Duration::from_millis(300)).await;
    check.release();
    let cases = listing
        .await
        .expect("the listing task")
        .expect("the listing");
    let states: Vec<_> = cases.iter().map(|c| (c.id, c.state, c.applied)).collect();
    assert_eq!(states, [(1, CaseState::Settled, true)], "{cases:?}");
    let ready = reqwest::get(daemon.api("/ready")).await.expect("ready");
    assert_eq!(ready.status(), 200);
}
