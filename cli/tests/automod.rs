//! `modctl automod test` against a real daemon (issue #25): plain rows, the
//! exemption line, and a refused body named by the flag typed.

use crate::support::{modctl, stderr_of, stdout_of};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::config::SectionName;
use serde_json::json;

#[test]
fn automod_test_prints_hits_exemptions_and_flag_errors() {
    let fixture = Fixture::start();
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Automod,
        json!({
            "blocked_words": {"enabled": true, "words": ["bad"]},
            "invite_links": {"enabled": true, "action": "ban"},
            "exempt_channel_ids": ["400000000000000001"],
        }),
    );
    let key = Some(&fixture.alpha_ro);
    let test = |text: &str, flags: &[&str]| {
        let mut command = modctl(&fixture, key);
        command
            .args(["automod", "test", ALPHA_DISCORD, text])
            .args(flags);
        command
    };
    let plain = stdout_of(&mut test("ＢＡＤ discord.gg/x", &[]), 0);
    assert_eq!(
        plain,
        "blocked_words\tＢＡＤ\tbad\tdelete\ninvite_links\tdiscord.gg/x\t-\tban\n"
    );
    let spared = stdout_of(&mut test("bad", &["--channel", "400000000000000001"]), 0);
    assert_eq!(spared, "spared_by\texempt_channel:400000000000000001\n");
    let refused = stderr_of(&mut test("bad", &["--channel", "general"]), 1);
    assert!(
        refused.starts_with("error: --channel: `general`"),
        "{refused}"
    );
}
