//! `modctl watch` against a real daemon (issue #27): the events since an id
//! printed piped (tab-separated) and as JSON lines, `--types` filtering,
//! `--count` ending it, and a server of another team refused in the CLI's
//! words.

use std::time::Duration;

use crate::support::{modctl, stderr_of, stdout_of};
use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture};
use modctl_types::Platform;
use modctl_types::live::{LiveEvent, LiveEventKind};
use modctl_types::moderation::{Action, ActionRequest};

/// Alpha's simulated guild with two warnings recorded: the case numbers.
fn two_warnings(fixture: &Fixture) -> Vec<i64> {
    fixture
        .daemon
        .connect_simulated(ALPHA_DISCORD, Platform::Discord);
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let users = [
        modctld::operator::demo::discord_members::ALICE,
        modctld::operator::demo::discord_members::BOB,
    ];
    users
        .iter()
        .map(|user| {
            let request = ActionRequest {
                user_id: (*user).into(),
                reason: Some("watch".into()),
                ..Default::default()
            };
            fixture
                .daemon
                .block_on(client.perform_action(ALPHA_DISCORD, Action::Warn, &request))
                .expect("warned")
                .case_id
        })
        .collect()
}

#[test]
fn the_events_since_an_id_piped_and_as_json() {
    let fixture = Fixture::start();
    let cases = two_warnings(&fixture);
    let key = Some(&fixture.alpha_ro);

    let plain = stdout_of(
        modctl(&fixture, key)
            .args(["watch", ALPHA_DISCORD, "--since", "0", "--count", "2"])
            .timeout(Duration::from_secs(30)),
        0,
    );
    let lines: Vec<Vec<&str>> = plain.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 2, "{plain}");
    for (line, (id, case)) in lines.iter().zip([(1, cases[0]), (2, cases[1])]) {
        assert_eq!(line.len(), 4, "{line:?}");
        assert_eq!(&line[1..3], &["case_created", &id.to_string()]);
        assert!(
            line[3].starts_with(&format!("case {case}: warn")),
            "{line:?}"
        );
    }

    let json = stdout_of(
        modctl(&fixture, key)
            .args([
                "watch",
                ALPHA_DISCORD,
                "--since",
                "1",
                "--count",
                "1",
                "--types",
                "case_created,config_changed",
                "--json",
            ])
            .timeout(Duration::from_secs(30)),
        0,
    );
    let event: LiveEvent = serde_json::from_str(json.trim()).expect("one event a line");
    assert_eq!(
        (event.kind, event.id, event.data["id"].as_i64()),
        (LiveEventKind::CaseCreated, Some(2), Some(cases[1]))
    );
}

#[test]
fn an_unknown_type_and_another_teams_server_are_refused() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_ro);
    let unknown = stderr_of(
        modctl(&fixture, key).args(["watch", ALPHA_DISCORD, "--types", "case"]),
        2,
    );
    assert!(
        unknown.contains("unknown event type `case`: use case_created"),
        "{unknown}"
    );
    let output = modctl(&fixture, key)
        .args(["watch", BETA_DISCORD])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(BETA_DISCORD), "{stderr}");
    assert!(!stderr.contains("/api/v1"), "no API path: {stderr}");

    // No daemon there: exit 3 at once, not retried forever.
    let output = modctl(&fixture, key)
        .env("MODCTL_URL", "http://127.0.0.1:9")
        .args(["watch", ALPHA_DISCORD])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("cannot reach the daemon"), "{stderr}");
}

/// `--watch` redraws a terminal: piped, it refuses (exit 2) and says what
/// to do instead; with `--chart` clap refuses the pair.
#[test]
fn activity_and_insights_watch_refuse_a_pipe_with_a_hint() {
    let fixture = Fixture::start();
    let key = Some(&fixture.alpha_ro);
    for command in ["activity", "insights"] {
        let refused = stderr_of(
            modctl(&fixture, key).args([command, ALPHA_DISCORD, "--watch", "10"]),
            2,
        );
        assert!(
            refused.contains("--watch redraws the terminal"),
            "{refused}"
        );
        assert!(
            refused.contains(&format!("modctl watch {ALPHA_DISCORD}")),
            "{refused}"
        );
    }
    let both = stderr_of(
        modctl(&fixture, key).args(["activity", ALPHA_DISCORD, "--watch", "--chart", "a.svg"]),
        2,
    );
    assert!(both.contains("cannot be used with"), "{both}");
}

/// At a terminal: `watch` says what it watches, prints a case as it is
/// made, and Ctrl-C ends it with exit 0; `activity --watch` redraws until
/// Ctrl-C.
#[cfg(unix)]
#[test]
fn at_a_terminal_watch_shows_events_as_they_come_and_ctrl_c_ends_it() {
    use crate::support::{at_terminal, exit_code};
    let fixture = Fixture::start();
    let mut session = at_terminal(&fixture, &fixture.alpha_ro, &["watch", ALPHA_DISCORD]);
    session
        .exp_string(&format!("watching {ALPHA_DISCORD}; Ctrl-C to stop"))
        .unwrap();
    let case = two_warnings(&fixture)[0];
    session
        .exp_string(&format!("case          case {case}: warn"))
        .unwrap();
    session.send_control('c').unwrap();
    assert_eq!(exit_code(&mut session), 0);

    let mut session = at_terminal(
        &fixture,
        &fixture.alpha_ro,
        &["activity", ALPHA_DISCORD, "--watch", "1"],
    );
    session.exp_string("every 1s, updated").unwrap();
    session.exp_string("every 1s, updated").unwrap();
    session.send_control('c').unwrap();
    assert_eq!(exit_code(&mut session), 0);
}
