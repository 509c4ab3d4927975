//! `modctld team set-plan` and the plan's server limit at `modctld server
//! claim`, on a real database file while a daemon serves it: the new plan
//! holds from the team's very next request.

use modctl_e2e::TestDaemon;
use modctl_types::{Plan, Scope};

use crate::support::{modctld, run, status_of_request};

fn claim(db: &std::path::Path, id: &str) -> (String, String) {
    let args = [
        "server",
        "claim",
        "--team",
        "beta",
        "--platform",
        "telegram",
        "--id",
        id,
        "--name",
        "G",
    ];
    let output = modctld(db).args(args).output().unwrap();
    let code = output.status.code();
    let err = String::from_utf8(output.stderr).unwrap();
    (format!("{code:?}"), err)
}

/// `PUT /config/webhooks` turning webhooks on: 402 on free, 200 on pro.
fn enable_webhooks(daemon: &TestDaemon, key: &str, server: &str) -> u16 {
    let url = daemon.api(&format!("/servers/{server}/config/webhooks"));
    let body = serde_json::json!({"enabled": true, "url": "https://hooks.example.com/x", "secret": "whsec_YS1zZWNyZXQtb2YtdHdlbnR5LWZvdXIh"});
    status_of_request(|client| client.put(url).bearer_auth(key).json(&body))
}

#[test]
fn set_plan_holds_from_the_next_request_and_claims_beyond_the_limit_fail() {
    let daemon = TestDaemon::start();
    daemon.team("beta", Plan::Free);
    let key = daemon.key("beta", Scope::Write);
    let db = daemon.db_path();
    for id in ["-1001", "-1002", "-1003"] {
        assert_eq!(claim(&db, id).0, "Some(0)");
    }
    let (code, err) = claim(&db, "-1004");
    assert_eq!(code, "Some(1)", "{err}");
    assert!(
        err.contains("claiming more than 3 servers needs the pro plan; team beta is on free")
            && err.contains("modctld team set-plan beta pro"),
        "{err}"
    );
    let (list, _) = run(modctld(&db).args(["server", "list"]), 0);
    assert_eq!(list.lines().count(), 3, "the refused claim wrote nothing");

    // The daemon has seen the key on free; the operator's change is seen next.
    assert_eq!(enable_webhooks(&daemon, &key.full, "-1001"), 402);
    let (_, err) = run(modctld(&db).args(["team", "set-plan", "beta", "pro"]), 0);
    assert!(err.contains("team beta is now on the pro plan"), "{err}");
    assert_eq!(enable_webhooks(&daemon, &key.full, "-1002"), 200);
    assert_eq!(claim(&db, "-1004").0, "Some(0)");
    let (teams, _) = run(modctld(&db).args(["team", "list"]), 0);
    assert!(teams.starts_with("beta\tpro\t"), "{teams}");

    let (_, err) = run(
        modctld(&db).args(["team", "set-rate-limit", "beta", "1200"]),
        0,
    );
    assert!(err.contains("may make 1200 requests a minute"), "{err}");
    let (_, err) = run(
        modctld(&db).args(["team", "set-rate-limit", "beta", "default"]),
        0,
    );
    assert!(
        err.contains("back to the pro plan's rate (600 a minute)"),
        "{err}"
    );
    let (_, err) = run(
        modctld(&db).args(["team", "set-rate-limit", "beta", "0"]),
        2,
    );
    assert!(err.contains("is not a rate"), "{err}");

    let (_, err) = run(modctld(&db).args(["team", "set-plan", "beta", "gold"]), 2);
    assert!(err.contains("unknown plan `gold`"), "{err}");
    let (_, err) = run(modctld(&db).args(["team", "set-plan", "nobody", "pro"]), 1);
    assert!(err.contains("no team named `nobody`"), "{err}");
}
