//! Files kept in step with the code by hand: the README's config reference
//! covers every field of every section, the README's demo section shows what
//! `modctld demo` suggests trying, and the fuzzing hooks seed the demo's
//! members.

use modctl_types::config::{SectionName, Sections};
use serde_json::Value;

fn paths(prefix: &str, value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) if !map.is_empty() && !prefix.ends_with("templates") => {
            for (key, item) in map {
                paths(&format!("{prefix}.{key}"), item, out);
            }
        }
        _ => out.push(prefix.to_owned()),
    }
}

#[test]
fn every_config_field_is_documented_in_the_readme() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let mut defaults = Sections::default();
    defaults.jail.default_minutes = Some(1);
    let mut missing = Vec::new();
    for section in SectionName::ALL {
        let mut fields = Vec::new();
        paths(
            section.as_str(),
            &defaults.section_json(section),
            &mut fields,
        );
        for field in fields {
            // `strikes.weights.warn` may be documented as `strikes.weights.note` / `.warn` / ...
            let (parent, leaf) = field.rsplit_once('.').unwrap();
            let section = field.split('.').next().unwrap();
            let documented = readme.contains(&format!("`{field}`"))
                || readme.contains(&format!("`{section}.*.{leaf}`"))
                || readme.contains(&format!("`{parent}."))
                    && readme.contains(&format!("`.{leaf}`"));
            if !documented {
                missing.push(field);
            }
        }
    }
    // Fields of ladder steps, which the defaults hold as a list.
    for field in [
        "strikes.ladder[].at",
        "strikes.ladder[].action",
        "strikes.ladder[].minutes",
        "webhooks.secret",
    ] {
        if !readme.contains(&format!("`{field}`")) {
            missing.push(field.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "README's config table misses: {missing:?}"
    );
}

/// `scripts/fuzz_hooks.py` aims requests at the demo's servers and members;
/// `scripts/fuzz` checks the servers itself, this checks the members, whose
/// drift would only make the fuzzing quietly shallower.
#[test]
fn the_fuzz_hooks_seed_exactly_the_demo_members() {
    use modctl_types::Platform;
    use modctld::operator::demo;

    let hooks = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/fuzz_hooks.py"
    ))
    .unwrap();
    let block = hooks
        .split_once("MEMBERS: dict[str, tuple[str, ...]] = {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .expect("fuzz_hooks.py defines MEMBERS")
        .0;
    for (platform, server) in [
        (Platform::Discord, demo::DISCORD),
        (Platform::Telegram, demo::TELEGRAM),
        (Platform::Slack, demo::SLACK),
    ] {
        let line = block
            .split_once(&format!("\"{server}\":"))
            .unwrap_or_else(|| {
                panic!("MEMBERS has no entry for the demo's {platform} server {server}")
            })
            .1;
        let entry = &line[..line.find(")").unwrap()];
        let listed: Vec<&str> = entry.split('"').skip(1).step_by(2).collect();
        let members: Vec<&str> = demo::community(platform)
            .members
            .iter()
            .map(|m| m.user_id)
            .collect();
        assert_eq!(listed, members, "fuzz_hooks.py MEMBERS of {server}");
    }
}

/// The README shows the very lines `modctld demo` prints to try, in order,
/// as one `sh` block: a reader of either sees the same commands and ids.
#[test]
fn the_readme_shows_the_lines_the_demo_suggests_trying() {
    use modctld::operator::demo;

    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let lines = demo::try_these();
    let block = format!("```sh\n{}\n```", lines.join("\n"));
    assert!(
        readme.contains(&block),
        "README's demo section should hold, as printed by the demo:\n{block}"
    );
    // The nuke-and-restore sequence is among them, in that order.
    let position = |fragment: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(fragment))
            .unwrap_or_else(|| panic!("the demo does not suggest `{fragment}`"))
    };
    let sequence = [
        format!("modctl snapshot capture {}", demo::DISCORD),
        format!("modctld simulate nuke {}", demo::DISCORD),
        format!("modctl snapshot restore {} --dry-run", demo::DISCORD),
        format!("modctl snapshot restore {} --yes", demo::DISCORD),
    ];
    let positions: Vec<usize> = sequence.iter().map(|f| position(f)).collect();
    assert!(positions.is_sorted(), "{sequence:?} at {positions:?}");
}

/// The table of what each platform needs is one text, in the README (for
/// operators) and in docs/api.md (beside the decisions it sums up).
#[test]
fn the_platform_needs_table_is_the_same_in_the_readme_and_the_api_notes() {
    let table = |file: &str| {
        let text =
            std::fs::read_to_string(format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let begin = text
            .find("<!-- platform-needs: begin")
            .unwrap_or_else(|| panic!("{file} has no platform-needs table"));
        let end = text[begin..]
            .find("<!-- platform-needs: end -->")
            .unwrap_or_else(|| panic!("{file}'s platform-needs table has no end"));
        text[begin..begin + end].to_owned()
    };
    let readme = table("README.md");
    assert_eq!(readme, table("docs/api.md"), "edit both tables alike");
    for platform in ["Discord", "Telegram", "Slack"] {
        assert!(readme.contains(platform), "{platform} missing");
    }
}

/// docs/api.md's table of error codes (issue #24) has one row per code the
/// daemon knows, in the order of `ErrorCode::KNOWN`, with its status.
#[test]
fn the_error_code_table_lists_every_code_with_its_status() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api.md")).unwrap();
    let begin = text
        .find("| code | status | meaning |")
        .expect("docs/api.md has the table of error codes");
    let rows: Vec<(String, u16)> = text[begin..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_owned(),
                cells[2].parse().expect("a status"),
            )
        })
        .collect();
    let known: Vec<(String, u16)> = modctl_types::ErrorCode::KNOWN
        .iter()
        .map(|code| (code.to_string(), code.status().unwrap()))
        .collect();
    assert_eq!(rows, known);
}
