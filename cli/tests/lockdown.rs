//! `modctl lockdown start|end|status` against a real daemon (issue #26):
//! a lockdown started by hand on a simulated Discord server, refused while
//! it runs, shown, ended, and the exit codes of each refusal.

use crate::support::{modctl, stderr_of, stdout_of};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::Platform;
use modctl_types::lockdown::Lockdown;

#[test]
fn start_status_and_end_by_hand() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let key = Some(&fixture.alpha_rw);

    let none = stdout_of(
        modctl(&fixture, key).args(["lockdown", "status", ALPHA_DISCORD]),
        0,
    );
    assert_eq!(none, "state\tnone\n");

    let started = stdout_of(
        modctl(&fixture, key).args([
            "lockdown",
            "start",
            ALPHA_DISCORD,
            "--minutes",
            "30",
            "--reason",
            "raid in #general",
            "--json",
        ]),
        0,
    );
    let started: Lockdown = serde_json::from_str(&started).expect("a lockdown");
    assert_eq!(started.why, "raid in #general");
    assert_eq!(
        started.ends_at.duration_since(started.started_at).as_mins(),
        30,
        "{started:?}"
    );
    assert!(
        started
            .start_outcome
            .as_deref()
            .is_some_and(|o| o.starts_with("invites paused until")),
        "{started:?}"
    );

    // One at a time: exit 1, in the CLI's words.
    let again = stderr_of(
        modctl(&fixture, key).args(["lockdown", "start", ALPHA_DISCORD]),
        1,
    );
    assert!(again.contains("already runs"), "{again}");
    assert!(
        again.contains(&format!(
            "hint: `modctl lockdown end {ALPHA_DISCORD}` ends it"
        )),
        "{again}"
    );
    // Out of range: the flag named.
    let long = stderr_of(
        modctl(&fixture, key).args(["lockdown", "start", ALPHA_DISCORD, "--minutes", "2000"]),
        1,
    );
    assert!(long.contains("--minutes"), "{long}");

    let status = stdout_of(
        modctl(&fixture, key).args(["lockdown", "status", ALPHA_DISCORD, "--plain"]),
        0,
    );
    assert!(status.contains("state\trunning\n"), "{status}");
    assert!(
        status.contains(&format!("started_by\tkey:{}\n", fixture.alpha_rw.key_id)),
        "{status}"
    );

    // A read key may look, not end it: exit 4.
    stderr_of(
        modctl(&fixture, Some(&fixture.alpha_ro)).args(["lockdown", "end", ALPHA_DISCORD]),
        4,
    );
    let ended = stdout_of(
        modctl(&fixture, key).args(["lockdown", "end", ALPHA_DISCORD]),
        0,
    );
    assert!(ended.contains("state\tended\n"), "{ended}");
    assert!(
        ended.contains("platform_at_end\tinvites enabled again\n"),
        "{ended}"
    );
    // Nothing runs now: exit 5.
    let gone = stderr_of(
        modctl(&fixture, key).args(["lockdown", "end", ALPHA_DISCORD]),
        5,
    );
    assert!(gone.contains("no lockdown runs"), "{gone}");
    assert!(gone.contains("`modctl lockdown status"), "{gone}");
}
