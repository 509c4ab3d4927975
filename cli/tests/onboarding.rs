//! `modctl onboarding SERVER` against a real daemon whose server runs on the
//! simulator, partly set up: the progress line, then the checklist with its
//! marks and the fix under each open item.

use crate::support::{modctl, stdout_of};
use insta::assert_snapshot;
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::onboarding::{ItemStatus, Onboarding};

#[test]
fn the_checklist_as_table_plain_and_json() {
    // Connected, jail set up; the rest is still to do.
    let fixture = Fixture::simulated();
    let key = Some(&fixture.alpha_rw);
    // Key ids are random: the snapshots name them by their role.
    let stable = |text: String| text.replace(&fixture.alpha_rw.key_id, "ALPHA_RW_KEY_ID");
    let table = stable(stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--table"]),
        0,
    ));
    assert_snapshot!("onboarding_table", table);
    // Asked again: the platform's answer comes from the cache.
    let again = stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--table"]),
        0,
    );
    assert!(again.lines().next().unwrap().contains("cached"), "{again}");

    let plain = stable(stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--refresh"]),
        0,
    ));
    assert_snapshot!("onboarding_plain", plain);

    let json = stdout_of(
        modctl(&fixture, key).args(["onboarding", ALPHA_DISCORD, "--json"]),
        0,
    );
    let parsed: Onboarding = serde_json::from_str(&json).unwrap();
    assert_eq!(
        parsed.items.len(),
        table.lines().filter(|l| l.starts_with('[')).count()
    );
    assert!(parsed.items.iter().any(|i| i.status == ItemStatus::Done));
    assert!(parsed.items.iter().any(|i| i.status == ItemStatus::Todo));
}
