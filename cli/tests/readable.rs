//! Output for people at a terminal (a pseudo-terminal driven by rexpect):
//! tables fit its width, times are relative, `applied` is coloured unless
//! `NO_COLOR` is set, and a listing taller than the terminal goes through
//! `$PAGER`; piped, none of that happens.

#![cfg(unix)]

use crate::support::{exit_code, modctl, stdout_of, terminal_command};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctld::operator::demo::discord_members as dm;

/// `modctl cases list` in a 10-row, 100-column pseudo-terminal with `env`.
fn list_at_terminal(fixture: &Fixture, env: &[(&str, &str)]) -> (String, i32) {
    let base = terminal_command(fixture);
    let mut command = std::process::Command::new("sh");
    command.env_clear();
    for (name, value) in base.get_envs() {
        if let Some(value) = value {
            command.env(name, value);
        }
    }
    command
        .env("PATH", std::env::var("PATH").unwrap())
        .env("MODCTL_URL", fixture.daemon.url())
        .env("MODCTL_API_KEY", &fixture.alpha_rw.full)
        .env_remove("NO_COLOR");
    for (name, value) in env {
        command.env(name, value);
    }
    command.args([
        "-c",
        &format!(
            "stty rows 10 cols 100; exec {} cases list {ALPHA_DISCORD} --limit 30",
            env!("CARGO_BIN_EXE_modctl")
        ),
    ]);
    let mut session = rexpect::session::spawn_command(command, Some(20_000)).expect("spawn a pty");
    // rexpect hands back one char per byte: decode the terminal's UTF-8.
    let bytes: Vec<u8> = session
        .exp_eof()
        .unwrap()
        .chars()
        .map(|c| c as u32 as u8)
        .collect();
    let text = String::from_utf8(bytes).unwrap().replace('\r', "");
    (text, exit_code(&mut session))
}

#[test]
fn a_long_listing_pages_fits_and_colours_at_a_terminal_and_not_piped() {
    let fixture = Fixture::simulated();
    let key = Some(&fixture.alpha_rw);
    let long_reason = "raid spam in every channel, ".repeat(8);
    for _ in 0..12 {
        stdout_of(
            modctl(&fixture, key).args([
                "action",
                "note",
                ALPHA_DISCORD,
                dm::BOB,
                "-r",
                &long_reason,
            ]),
            0,
        );
    }

    let (paged, code) = list_at_terminal(&fixture, &[("PAGER", "sed 's/^/paged: /'")]);
    assert_eq!(code, 0, "{paged}");
    let rows: Vec<&str> = paged.lines().filter(|l| l.contains("paged: │ ")).collect();
    assert_eq!(
        rows.len(),
        13,
        "header and 12 cases through the pager:\n{paged}"
    );
    for line in paged.lines() {
        let visible = line
            .replace("\u{1b}[32m", "")
            .replace("\u{1b}[0m", "")
            .replace("paged: ", "");
        assert!(
            visible.trim_end().chars().count() <= 100,
            "wider than the terminal: {line}"
        );
    }
    assert!(paged.contains("…"), "the reason is cut:\n{paged}");
    assert!(
        paged.contains("just now") || paged.contains("s ago"),
        "{paged}"
    );
    assert!(
        paged.contains("\u{1b}[32myes\u{1b}[0m"),
        "applied in green: {paged:?}"
    );

    // NO_COLOR turns colour off; PAGER=cat turns paging off.
    let (plain, code) = list_at_terminal(&fixture, &[("NO_COLOR", "1"), ("PAGER", "cat")]);
    assert_eq!(code, 0);
    assert!(
        !plain.contains("paged: ") && !plain.contains('\u{1b}'),
        "{plain:?}"
    );
    assert!(plain.contains("│ 12 "), "{plain}");

    // Piped: never paged, absolute times, every value whole.
    let piped = stdout_of(
        modctl(&fixture, key)
            .env("PAGER", "sed 's/^/paged: /'")
            .args(["cases", "list", ALPHA_DISCORD, "--limit", "30"]),
        0,
    );
    assert_eq!(piped.lines().count(), 12);
    assert!(
        !piped.contains("paged") && !piped.contains("ago"),
        "{piped}"
    );
    assert!(piped.contains(long_reason.trim_end()), "{piped}");
}
