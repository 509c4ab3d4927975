//! Stopping and starting a daemon with actions in flight (issue #22, items 9
//! and 13): the shutdown deadline bounds a stop even while a platform never
//! answers, the action it cut off stays pending in the database, and the
//! next start settles it by asking the platform before any request sees it
//! pending.

use std::time::{Duration, Instant};

use modctl_client::Client;
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{BOT, MEMBER_ROLE, MOD_ROLE, TOKEN};
use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon, TestKey};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CaseState};
use serde_json::json;

const TARGET: &str = "500000000000000003";

fn ban_path() -> String {
    format!("/guilds/{ALPHA_DISCORD}/bans/{TARGET}")
}

/// A daemon with alpha's Discord server on a fake guild where the target is
/// a member (no strikes); the daemon, the fake and alpha's write key.
fn discord() -> (TestDaemon, FakeDiscord, TestKey) {
    let Fixture {
        daemon, alpha_rw, ..
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
    (daemon, fake, alpha_rw)
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
    let (mut daemon, fake, key) = discord();
    let ban_route = ban_path();
    let gate = fake.hold("PUT", &ban_route);
    let client = daemon.client(&key);
    let request = tokio::spawn(async move { ban(&client).await });
    tokio::time::timeout(Duration::from_secs(10), gate.arrived())
        .await
        .expect("the ban reaches the platform");

    let started = Instant::now();
    daemon.stop();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "stopping took {took:?}: the 1 s shutdown deadline must bound it"
    );
    // The client only sees its connection closed.
    assert!(request.await.expect("the request task").is_err());
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
