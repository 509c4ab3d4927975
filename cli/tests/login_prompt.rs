//! `modctl login` at a terminal (a pseudo-terminal driven by rexpect): the
//! URL is checked at its prompt before the key is asked for, a profile's
//! saved URL is offered when logging in to it again, and a refused key is
//! not answered with "run `modctl login`".

#![cfg(unix)]

use crate::support::{exit_code, terminal_command};
use modctl_e2e::Fixture;
use rexpect::process::wait::WaitStatus;
use rexpect::session::{PtySession, spawn_command};

/// `modctl login ARGS` on a terminal, with the fixture's private config file
/// and nothing in the environment to answer the prompts.
fn login(fixture: &Fixture, args: &[&str]) -> PtySession {
    let mut command = terminal_command(fixture);
    command.arg("login").args(args);
    spawn_command(command, Some(20_000)).expect("spawn modctl in a pty")
}

#[test]
fn the_url_is_checked_at_its_prompt_before_the_key_is_asked_for() {
    let fixture = Fixture::start();
    let url = fixture.daemon.url().to_owned();
    let bare = url.trim_start_matches("http://").to_owned();
    let mut session = login(&fixture, &[]);
    session
        .exp_string("Daemon URL [http://127.0.0.1:7878]")
        .unwrap();
    session.send_line(&bare).unwrap();
    // Refused at the prompt, which asks again; no key was asked for.
    let refused = session
        .exp_string(&format!("add http:// (or https://): http://{bare}"))
        .unwrap();
    assert!(
        refused.contains(&format!(
            "the daemon URL `{bare}` from the login prompt has no scheme"
        )),
        "{refused}"
    );
    assert!(!refused.contains("API key"), "{refused}");
    session.exp_string("Daemon URL").unwrap();
    session.send_line(&url).unwrap();
    session.exp_string("API key").unwrap();
    session.send_line(&fixture.alpha_ro.full).unwrap();
    session.exp_string("saved as profile `default`").unwrap();
    assert_eq!(exit_code(&mut session), 0);
}

#[test]
fn a_profile_logged_in_again_offers_its_url_and_a_refused_key_does_not_hint_login() {
    let fixture = Fixture::start();
    let url = fixture.daemon.url().to_owned();
    let config = fixture.daemon.scratch_dir().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "default_profile = \"ops\"\n[profiles.ops]\nurl = \"{url}\"\napi_key = \"mdk_old\"\n"
        ),
    )
    .unwrap();

    let mut session = login(&fixture, &["--profile", "ops"]);
    session.exp_string(&format!("Daemon URL [{url}]")).unwrap();
    // Enter takes the offered URL.
    session.send_line("").unwrap();
    session.exp_string("API key").unwrap();
    session
        .send_line("mdk_abcdefgh2345_wrongwrongwrongwrongwrongwrongwrong")
        .unwrap();
    let rest = session.exp_eof().unwrap();
    assert!(rest.contains("error: "), "{rest}");
    assert!(rest.contains("hint: check the key"), "{rest}");
    assert!(!rest.contains("modctl login"), "{rest}");
    match session.process.wait().unwrap() {
        WaitStatus::Exited(_, code) => assert_eq!(code, 4),
        other => panic!("{other:?}"),
    }
    // Nothing was saved over the profile.
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("mdk_old")
    );

    // With the right key the profile is updated.
    let mut session = login(&fixture, &["--profile", "ops"]);
    session.exp_string(&format!("Daemon URL [{url}]")).unwrap();
    session.send_line("").unwrap();
    session.exp_string("API key").unwrap();
    session.send_line(&fixture.alpha_ro.full).unwrap();
    session.exp_string("saved as profile `ops`").unwrap();
    assert_eq!(exit_code(&mut session), 0);
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains(&fixture.alpha_ro.full)
    );
}
