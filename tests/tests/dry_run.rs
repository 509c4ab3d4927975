//! Dry runs (issue #27): `POST /servers/{id}/actions/{action}?dry_run=true`
//! answers what the action would do, refused exactly as the action would
//! be, and changes nothing: no case, no strike, no request to the platform.

use modctl_e2e::fakes::discord::{self, FakeDiscord};
use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use modctl_types::query::CaseQuery;
use serde_json::json;

const MEMBER: &str = "800000000000000004";

fn request(reason: &str) -> ActionRequest {
    ActionRequest {
        user_id: MEMBER.into(),
        reason: Some(reason.into()),
        ..Default::default()
    }
}

#[test]
fn a_dry_run_says_what_would_happen_and_changes_nothing() {
    let fixture = Fixture::start();
    let fake = FakeDiscord::start(ALPHA_DISCORD);
    fake.add_member(MEMBER, &[discord::MEMBER_ROLE]);
    let daemon = &fixture.daemon;
    daemon.connect_live(ALPHA_DISCORD, discord::TOKEN, &fake.uri());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"weights": {"warn": 1, "ban": 3}, "ladder": [{"at": 2, "action": "timeout", "minutes": 15}]}),
    );
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Moderation,
        json!({"dm_on_action": true}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    let first = daemon
        .block_on(client.perform_action(ALPHA_DISCORD, Action::Warn, &request("first")))
        .expect("a real warning");
    assert_eq!(first.active_strikes, 1);
    let cases_before = daemon
        .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
        .unwrap()
        .cases;
    let requests_before = fake.requests().len();

    // A second warning would reach the ladder's step at 2.
    let warn = daemon
        .block_on(client.preview_action(ALPHA_DISCORD, Action::Warn, &request("second")))
        .expect("a dry run");
    assert!(warn.dry_run);
    assert_eq!((warn.active_strikes_before, warn.active_strikes), (1, 2));
    assert_eq!(warn.platform_call, None, "a Discord warning is a record");
    assert_eq!(warn.detail, "warning recorded");
    let step = warn.escalation.expect("the ladder's step at 2");
    assert_eq!(
        (step.at, step.action, step.minutes, step.applied),
        (2, Action::Timeout, Some(15), true)
    );
    // Reached by the warning, which would be case #2.
    assert!(step.detail.contains("(case #2)"), "{}", step.detail);

    // A ban: the call Discord would get, the DM before it, the hierarchy.
    let ban = daemon
        .block_on(client.preview_action(ALPHA_DISCORD, Action::Ban, &request("spam")))
        .expect("a dry run");
    assert!(
        ban.platform_call
            .as_deref()
            .is_some_and(|c| c.starts_with("Create Guild Ban (PUT /guilds/{guild}/bans/{user})")),
        "{ban:?}"
    );
    assert!(ban.dm.starts_with("sent before the ban"), "{}", ban.dm);
    assert!(ban.hierarchy.is_some());
    assert_eq!(
        (ban.active_strikes, ban.reason.as_deref()),
        (4, Some("spam"))
    );
    // The step at 2 is crossed, but the ban outweighs it.
    let step = ban.escalation.expect("the step crossed");
    assert!(!step.applied && step.detail.contains("banned"), "{step:?}");

    // Nothing changed: the same cases, no strike, no request to Discord.
    let cases_after = daemon
        .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
        .unwrap()
        .cases;
    assert_eq!(cases_after, cases_before);
    assert_eq!(
        fake.requests().len(),
        requests_before,
        "requests to Discord: {:#?}",
        &fake.requests()[requests_before..]
    );
    assert!(!fake.is_banned(MEMBER));
    let strikes = daemon
        .block_on(client.perform_action(ALPHA_DISCORD, Action::Note, &request("n")))
        .unwrap()
        .active_strikes;
    assert_eq!(strikes, 1, "the dry runs added no strike");
}

#[test]
fn a_dry_run_is_refused_as_the_action_would_be() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    // Not jailed: unjailing is a 409, dry run or not.
    let refused = daemon
        .block_on(client.preview_action(ALPHA_DISCORD, Action::Unjail, &request("x")))
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(409), "{refused}");
    // A bad body: the same 400.
    let bad = ActionRequest {
        user_id: String::new(),
        ..Default::default()
    };
    let refused = daemon
        .block_on(client.preview_action(ALPHA_DISCORD, Action::Warn, &bad))
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
    // A read key may not even ask.
    let read = daemon.client(&fixture.alpha_ro);
    let refused = daemon
        .block_on(read.preview_action(ALPHA_DISCORD, Action::Warn, &request("x")))
        .unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(403), "{refused}");
    let cases = daemon
        .block_on(client.cases(ALPHA_DISCORD, &CaseQuery::default()))
        .unwrap()
        .cases;
    assert!(cases.is_empty(), "{cases:#?}");
}
