//! The README's config reference covers every field of every section.

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
