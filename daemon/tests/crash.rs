//! A real `modctld serve` killed with SIGKILL:
//!
//! - while a platform call is in flight: after a restart on the same
//!   database, the action's case is there and settled from what the platform
//!   shows, and a retry with the same `Idempotency-Key` answers with that case
//!   instead of "in progress";
//! - under load, with many writes committed in groups: every action that was
//!   answered is in the database.

use std::time::Duration;

use crate::support::{operator, seed, serve};
use modctl_e2e::fakes::FakeDiscord;
use modctl_e2e::fakes::discord::{BOT, MEMBER_ROLE, MOD_ROLE, TOKEN};
use modctl_types::moderation::{Action, ActionResponse, CaseList, CaseState, DmStatus};
use serde_json::json;

const GUILD: &str = "112233445566778899";
const TARGET: &str = "500000000000000003";

async fn ban(url: &str, key: &str) -> reqwest::Result<reqwest::Response> {
    reqwest::Client::new()
        .post(format!("{url}/api/v1/servers/{GUILD}/actions/ban"))
        .bearer_auth(key)
        .header("Idempotency-Key", "ban-500000000000000003")
        .json(&json!({"user_id": TARGET, "reason": "raid"}))
        .send()
        .await
}

#[tokio::test]
async fn a_daemon_killed_mid_ban_settles_the_case_at_restart_and_the_key_answers_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let fake = FakeDiscord::start(GUILD);
    fake.add_member(BOT, &[MOD_ROLE]);
    fake.add_member(TARGET, &[MEMBER_ROLE]);
    let key = seed(&db, "free", "discord", GUILD);
    let key = key.as_str();
    let api_base = fake.uri();
    operator(
        &db,
        &[
            "server",
            "connect",
            GUILD,
            "--platform-token-env",
            "BOT_TOKEN",
            "--api-base",
            &api_base,
        ],
        &[("BOT_TOKEN", TOKEN)],
    );

    let (mut daemon, url) = serve(&db, &[]);
    let ban_path = format!("/guilds/{GUILD}/bans/{TARGET}");
    let gate = fake.hold("PUT", &ban_path);
    let request = tokio::spawn({
        let (url, key) = (url.clone(), key.to_owned());
        async move { ban(&url, &key).await }
    });
    tokio::time::timeout(Duration::from_secs(20), gate.arrived())
        .await
        .expect("the ban reaches Discord");
    daemon.kill();
    // The client only sees its connection die; what it asked for is settled below.
    let _ = request.await;

    // Discord carries out the ban it had received, though its caller is gone.
    gate.release();
    for _ in 0..500 {
        if fake.is_banned(TARGET) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(fake.is_banned(TARGET));

    let (_daemon, url) = serve(&db, &[]);
    let retry = ban(&url, key).await.unwrap();
    assert_eq!(retry.status(), 200);
    let retry: ActionResponse = retry.json().await.unwrap();
    assert_eq!((retry.applied, retry.state), (true, CaseState::Settled));
    assert!(
        retry.detail.contains("confirmed on the platform"),
        "{}",
        retry.detail
    );

    let cases: CaseList = reqwest::Client::new()
        .get(format!("{url}/api/v1/servers/{GUILD}/cases"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cases.cases.len(), 1, "one case, recorded before the kill");
    let case = &cases.cases[0];
    assert_eq!(
        (case.id, case.action, case.state, case.applied),
        (retry.case_id, Action::Ban, CaseState::Settled, true)
    );
    // Recovery asked Discord; it did not ban again.
    assert_eq!(fake.requests_to("PUT", &ban_path).len(), 1);
    assert_eq!(fake.requests_to("GET", &ban_path).len(), 1);
    // The DM went out before the ban and was recorded before it was sent:
    // the case says so after the restart, and nothing sent it again.
    assert_eq!(fake.dms(TARGET).len(), 1);
    let dm = case.dm.as_ref().expect("the DM recorded before the ban");
    assert_eq!(
        (dm.status, dm.detail.as_str()),
        (DmStatus::Sent, "sent before the ban")
    );
    assert_eq!(retry.dm, case.dm);
}

/// Many writes in flight at once (so the writer commits them in groups), the
/// daemon killed in the middle of them: every action that was answered with
/// a case is in the database after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_killed_under_load_loses_no_acknowledged_case() {
    const CLIENTS: usize = 16;
    const ACKNOWLEDGED_BEFORE_KILL: usize = 300;
    const SERVER: &str = "-1001234567890";

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = seed(&db, "free", "telegram", SERVER);
    let (mut daemon, url) = serve(&db, &[]);

    // Notes are recorded without a platform call: each one is a write.
    let (acks, mut acked) = tokio::sync::mpsc::unbounded_channel::<i64>();
    let mut clients = Vec::new();
    for client in 0..CLIENTS {
        let (url, key, acks) = (url.clone(), key.clone(), acks.clone());
        clients.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            for n in 0.. {
                // A member per request: no per-member lock serializes them.
                let user = format!("{}", 100_000 + client * 100_000 + n);
                let sent = http
                    .post(format!("{url}/api/v1/servers/{SERVER}/actions/note"))
                    .bearer_auth(&key)
                    .json(&json!({"user_id": user, "reason": "load"}))
                    .send()
                    .await;
                let Ok(response) = sent else { return };
                if !response.status().is_success() {
                    return;
                }
                let Ok(answer) = response.json::<ActionResponse>().await else {
                    return;
                };
                if acks.send(answer.case_id).is_err() {
                    return;
                }
            }
        }));
    }
    drop(acks);
    let mut acknowledged = Vec::new();
    while acknowledged.len() < ACKNOWLEDGED_BEFORE_KILL {
        acknowledged.push(acked.recv().await.expect("clients are running"));
    }
    daemon.kill();
    // Answers that arrived before the kill count too.
    while let Some(case_id) = acked.recv().await {
        acknowledged.push(case_id);
    }
    for client in clients {
        client.await.unwrap();
    }

    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut missing = Vec::new();
    for case_id in &acknowledged {
        let found: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM cases WHERE id = ?1",
                [case_id],
                |row| row.get(0),
            )
            .unwrap();
        if found != 1 {
            missing.push(*case_id);
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} acknowledged cases are missing: {missing:?}",
        missing.len(),
        acknowledged.len()
    );
}
