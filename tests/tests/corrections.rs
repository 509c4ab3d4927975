//! Moderators are people, and cases can be corrected (issue #27), through
//! the SDK against a real daemon: keys' display names on cases, through a
//! rotation and in `--actor`; a reason edited with the old one kept; a case
//! voided and its strikes recounted for the strike ladder; a member's
//! strikes cleared; and the refusals, each changing nothing.

use modctl_client::{CaseQuery, Client, ErrorKind, StatusCode};
use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture};
use modctl_types::Scope;
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, Case, CorrectionKind};
use modctld::operator::demo::discord_members as dm;
use modctld::store::keys;
use serde_json::json;

fn warn(user: &str, reason: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        reason: Some(reason.into()),
        ..Default::default()
    }
}

/// Strikes: a warning weighs 1, two active strikes time the member out.
fn with_ladder() -> (Fixture, Client) {
    let fixture = Fixture::simulated();
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"weights": {"warn": 1}, "expiry_days": 30,
               "ladder": [{"at": 2, "action": "timeout", "minutes": 15}]}),
    );
    let client = fixture.daemon.client(&fixture.alpha_rw);
    (fixture, client)
}

async fn ids_by(client: &Client, actor: &str) -> Vec<i64> {
    let query = CaseQuery {
        actor: Some(actor.into()),
        ..Default::default()
    };
    let cases = client.cases(ALPHA_DISCORD, &query).await.unwrap().cases;
    cases.iter().map(|c| c.id).collect()
}

async fn active_strikes_of(client: &Client, user: &str) -> (u32, u32) {
    client
        .strikes(ALPHA_DISCORD)
        .await
        .unwrap()
        .iter()
        .find(|s| s.user_id == user)
        .map_or((0, 0), |s| (s.active, s.total))
}

#[tokio::test]
async fn a_keys_name_is_on_its_cases_through_a_rotation_and_finds_them_as_actor() {
    let fixture = Fixture::simulated();
    let mia = fixture.daemon.named_key("alpha", Scope::Write, "Mia");
    let as_mia = fixture.daemon.client(&mia);
    let me = as_mia.me().await.unwrap();
    assert_eq!(me.name.as_deref(), Some("Mia"));

    let first = as_mia
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "spam"))
        .await
        .unwrap();
    let case = as_mia.case(ALPHA_DISCORD, first.case_id).await.unwrap();
    assert_eq!(case.actor, format!("key:{}", mia.key_id));
    assert_eq!(case.actor_name.as_deref(), Some("Mia"));
    // Another moderator's key has no name: none on its case.
    let anon = fixture
        .daemon
        .client(&fixture.alpha_rw)
        .perform_action(ALPHA_DISCORD, Action::Note, &warn(dm::BOB, "watch"))
        .await
        .unwrap();
    let anon = as_mia.case(ALPHA_DISCORD, anon.case_id).await.unwrap();
    assert_eq!(anon.actor_name, None);
    assert!(
        !serde_json::to_string(&anon).unwrap().contains("actor_name"),
        "left out when there is none"
    );

    // A rotation keeps the name: the replacement's cases carry it too.
    let rotated = fixture.daemon.rotate(&mia.key_id, 3600);
    let listed = as_mia.keys().await.unwrap().keys;
    let replacement = listed
        .iter()
        .find(|k| k.key_id == rotated.key_id)
        .expect("the replacement is listed");
    assert_eq!(replacement.name.as_deref(), Some("Mia"));
    let second = fixture
        .daemon
        .client(&rotated)
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::ALICE, "rude"))
        .await
        .unwrap();

    // `actor` by name, any case: every key of that name, newest first.
    let both = vec![second.case_id, first.case_id];
    assert_eq!(ids_by(&as_mia, "mia").await, both);
    assert_eq!(ids_by(&as_mia, "MIA").await, both);
    assert_eq!(ids_by(&as_mia, &mia.key_id).await, vec![first.case_id]);
    assert_eq!(
        ids_by(&as_mia, &format!("key:{}", rotated.key_id)).await,
        vec![second.case_id]
    );
    let err = as_mia
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                actor: Some("nobody".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
    assert_eq!(err.field(), Some("actor"));
    assert!(
        err.message()
            .starts_with("no key of your team is named `nobody`"),
        "{}",
        err.message()
    );

    // Renaming a key changes its next cases, not the history.
    let id = rotated.key_id.clone();
    fixture
        .daemon
        .write(move |tx| keys::rename(tx, &id, Some("Mia R.")));
    let third = fixture
        .daemon
        .client(&rotated)
        .perform_action(ALPHA_DISCORD, Action::Note, &warn(dm::ALICE, "again"))
        .await
        .unwrap();
    let name_of = |case: Case| case.actor_name;
    assert_eq!(
        name_of(as_mia.case(ALPHA_DISCORD, second.case_id).await.unwrap()).as_deref(),
        Some("Mia")
    );
    assert_eq!(
        name_of(as_mia.case(ALPHA_DISCORD, third.case_id).await.unwrap()).as_deref(),
        Some("Mia R.")
    );
}

#[tokio::test]
async fn a_void_before_the_next_warning_changes_the_ladder_step() {
    let (_fixture, client) = with_ladder();
    // Without a void, the second warning reaches the step.
    client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::ALICE, "one"))
        .await
        .unwrap();
    let second = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::ALICE, "two"))
        .await
        .unwrap();
    assert_eq!(second.active_strikes, 2);
    assert!(second.escalation.is_some(), "{second:?}");

    // With the first voided, the second is the member's first strike.
    let first = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "one"))
        .await
        .unwrap();
    assert_eq!(active_strikes_of(&client, dm::BOB).await, (1, 1));
    let voided = client
        .void_case(ALPHA_DISCORD, first.case_id, "  wrong member ")
        .await
        .unwrap();
    let void = voided.voided.as_ref().expect("marked voided");
    assert_eq!(void.reason, "wrong member");
    assert_eq!(void.by, client_actor(&_fixture));
    assert_eq!(voided.corrections.len(), 1);
    assert_eq!(voided.corrections[0].kind, CorrectionKind::Void);
    assert_eq!(voided.corrections[0].strikes, 1);
    assert_eq!(active_strikes_of(&client, dm::BOB).await, (0, 0));
    // The insights' strikes in force agree: Alice's two, none of Bob's.
    assert_eq!(strikes_in_force(&client).await, 2);

    let next = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "two"))
        .await
        .unwrap();
    assert_eq!(next.active_strikes, 1);
    assert!(next.escalation.is_none(), "{next:?}");
    let third = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "three"))
        .await
        .unwrap();
    assert_eq!(third.active_strikes, 2);
    assert!(third.escalation.is_some(), "{third:?}");

    // The voided case stays listed, marked, with its reason as it was.
    let listed = client
        .cases(ALPHA_DISCORD, &CaseQuery::default())
        .await
        .unwrap()
        .cases;
    let still = listed.iter().find(|c| c.id == first.case_id).unwrap();
    assert!(still.voided.is_some());
    assert_eq!(still.reason.as_deref(), Some("one"));
    assert!(
        still.corrections.is_empty(),
        "listings leave corrections out"
    );
}

async fn strikes_in_force(client: &Client) -> u64 {
    client
        .insights(ALPHA_DISCORD, Some(7))
        .await
        .unwrap()
        .active_strikes
}

fn client_actor(fixture: &Fixture) -> String {
    format!("key:{}", fixture.alpha_rw.key_id)
}

#[tokio::test]
async fn an_edit_keeps_the_old_reason_in_the_audit_trail() {
    let (fixture, client) = with_ladder();
    let warned = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "spam"))
        .await
        .unwrap();
    let edited = client
        .edit_case_reason(ALPHA_DISCORD, warned.case_id, "links in #general")
        .await
        .unwrap();
    assert_eq!(edited.reason.as_deref(), Some("links in #general"));
    let again = client
        .edit_case_reason(ALPHA_DISCORD, warned.case_id, "scam links in #general")
        .await
        .unwrap();
    let shown = client.case(ALPHA_DISCORD, warned.case_id).await.unwrap();
    assert_eq!(shown, again);
    let trail: Vec<_> = shown
        .corrections
        .iter()
        .map(|c| (c.kind, c.old_reason.as_deref(), c.reason.as_str()))
        .collect();
    assert_eq!(
        trail,
        [
            (CorrectionKind::Edit, Some("spam"), "links in #general"),
            (
                CorrectionKind::Edit,
                Some("links in #general"),
                "scam links in #general"
            ),
        ]
    );
    assert!(
        shown
            .corrections
            .iter()
            .all(|c| c.by == client_actor(&fixture))
    );
    // An edit changes no strikes.
    assert_eq!(active_strikes_of(&client, dm::BOB).await, (1, 1));

    // A voided case's reason is not edited.
    client
        .void_case(ALPHA_DISCORD, warned.case_id, "duplicate")
        .await
        .unwrap();
    let err = client
        .edit_case_reason(ALPHA_DISCORD, warned.case_id, "something else")
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert!(err.message().contains("was voided"), "{}", err.message());
    let after = client.case(ALPHA_DISCORD, warned.case_id).await.unwrap();
    assert_eq!(after.reason.as_deref(), Some("scam links in #general"));
    assert_eq!(after.corrections.len(), 3);
}

#[tokio::test]
async fn clearing_a_members_strikes_restarts_the_ladder_and_is_recorded() {
    let (fixture, client) = with_ladder();
    client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "one"))
        .await
        .unwrap();
    let cleared = client
        .clear_strikes(ALPHA_DISCORD, dm::BOB, "appeal accepted")
        .await
        .unwrap();
    assert_eq!(cleared.active_strikes, 0);
    assert_eq!(cleared.correction.kind, CorrectionKind::ClearStrikes);
    assert_eq!(cleared.correction.strikes, 1);
    // Still in the total (a pardon, not a mistake), with who, when and why.
    let summary = client
        .strikes(ALPHA_DISCORD)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.user_id == dm::BOB)
        .unwrap();
    assert_eq!((summary.active, summary.total), (0, 1));
    let last = summary.last_cleared.expect("the clear is shown");
    assert_eq!(last.reason, "appeal accepted");
    assert_eq!(last.by, client_actor(&fixture));
    assert_eq!(last.at, cleared.correction.at);
    assert_eq!(strikes_in_force(&client).await, 0);

    let next = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "two"))
        .await
        .unwrap();
    assert_eq!(next.active_strikes, 1);
    assert!(next.escalation.is_none(), "{next:?}");
    let third = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "three"))
        .await
        .unwrap();
    assert!(third.escalation.is_some(), "{third:?}");
    assert_eq!(strikes_in_force(&client).await, 2);

    // Voiding the cleared warning takes it out of the total as well, and
    // takes nothing more from what is in force (it stopped counting).
    let first_case = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                user_id: Some(dm::BOB.into()),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .cases
        .last()
        .unwrap()
        .id;
    let voided = client
        .void_case(ALPHA_DISCORD, first_case, "was a test")
        .await
        .unwrap();
    assert_eq!(voided.corrections.last().unwrap().strikes, 0);
    assert_eq!(active_strikes_of(&client, dm::BOB).await, (2, 2));
    assert_eq!(strikes_in_force(&client).await, 2);

    // Nothing to clear: refused.
    let err = client
        .clear_strikes(ALPHA_DISCORD, dm::ALICE, "nothing")
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert!(
        err.message().contains("has no active strikes"),
        "{}",
        err.message()
    );
}

#[tokio::test]
async fn refused_corrections_say_why_and_change_nothing() {
    let (fixture, client) = with_ladder();
    let warned = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "spam"))
        .await
        .unwrap();
    let n = warned.case_id;
    let before = client.case(ALPHA_DISCORD, n).await.unwrap();
    let strikes_before = active_strikes_of(&client, dm::BOB).await;

    let too_long = "x".repeat(513);
    let checks: Vec<(&str, modctl_client::Error, StatusCode, &str)> = vec![
        (
            "empty reason",
            client
                .edit_case_reason(ALPHA_DISCORD, n, " ")
                .await
                .unwrap_err(),
            StatusCode::BAD_REQUEST,
            "reason must not be empty",
        ),
        (
            "long reason",
            client
                .void_case(ALPHA_DISCORD, n, &too_long)
                .await
                .unwrap_err(),
            StatusCode::BAD_REQUEST,
            "reason is too long: at most 512 characters, got 513",
        ),
        (
            "no such case",
            client.void_case(ALPHA_DISCORD, 999, "x").await.unwrap_err(),
            StatusCode::NOT_FOUND,
            "case #999 not found on server",
        ),
        (
            "a read-only key",
            fixture
                .daemon
                .client(&fixture.alpha_ro)
                .void_case(ALPHA_DISCORD, n, "x")
                .await
                .unwrap_err(),
            StatusCode::FORBIDDEN,
            "write",
        ),
        (
            "another team's key",
            fixture
                .daemon
                .client(&fixture.beta_rw)
                .void_case(ALPHA_DISCORD, n, "x")
                .await
                .unwrap_err(),
            StatusCode::FORBIDDEN,
            "claimed by another team",
        ),
        (
            "another team's key clearing",
            fixture
                .daemon
                .client(&fixture.beta_rw)
                .clear_strikes(ALPHA_DISCORD, dm::BOB, "x")
                .await
                .unwrap_err(),
            StatusCode::FORBIDDEN,
            "claimed by another team",
        ),
        (
            "not a user id",
            client
                .clear_strikes(ALPHA_DISCORD, "@bob", "x")
                .await
                .unwrap_err(),
            StatusCode::BAD_REQUEST,
            "user id",
        ),
    ];
    for (what, err, status, words) in checks {
        assert_eq!(err.status(), Some(status), "{what}: {}", err.message());
        assert!(err.message().contains(words), "{what}: {}", err.message());
    }
    assert_eq!(client.case(ALPHA_DISCORD, n).await.unwrap(), before);
    assert_eq!(active_strikes_of(&client, dm::BOB).await, strikes_before);
    // The reason it has already: the case as it is, nothing recorded (a
    // retry of an edit whose answer was lost).
    let same = client
        .edit_case_reason(ALPHA_DISCORD, n, "spam")
        .await
        .unwrap();
    assert!(same.corrections.is_empty(), "{same:?}");
    assert_eq!(client.case(ALPHA_DISCORD, n).await.unwrap(), before);

    // Voiding twice: the second is refused, naming the first.
    client.void_case(ALPHA_DISCORD, n, "mistake").await.unwrap();
    let voided = client.case(ALPHA_DISCORD, n).await.unwrap();
    let err = client
        .void_case(ALPHA_DISCORD, n, "again")
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert!(
        err.message().contains("voided already") && err.message().contains("mistake"),
        "{}",
        err.message()
    );
    assert_eq!(client.case(ALPHA_DISCORD, n).await.unwrap(), voided);
    // Beta's own server has no case #1 of alpha's to reach either.
    let beta = fixture.daemon.client(&fixture.beta_rw);
    let err = beta.void_case(BETA_DISCORD, n, "x").await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
}

/// Each correction is a `case_corrected` webhook event, written with it:
/// the correction and the case as it is now (none for a clear).
#[tokio::test(flavor = "multi_thread")]
async fn corrections_are_delivered_as_case_corrected_events() {
    use modctl_e2e::webhooks::{Receiver, configure};
    let (fixture, client) = with_ladder();
    let receiver = Receiver::start();
    let d = &fixture.daemon;
    configure(
        d,
        &fixture.alpha_rw,
        ALPHA_DISCORD,
        &receiver,
        json!(["case_corrected"]),
    )
    .await;
    let warned = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(dm::BOB, "spam"))
        .await
        .unwrap();
    client
        .edit_case_reason(ALPHA_DISCORD, warned.case_id, "links")
        .await
        .unwrap();
    client
        .clear_strikes(ALPHA_DISCORD, dm::BOB, "appeal")
        .await
        .unwrap();
    client
        .void_case(ALPHA_DISCORD, warned.case_id, "mistake")
        .await
        .unwrap();
    d.deliver_webhooks();
    let bodies: Vec<serde_json::Value> = receiver
        .received()
        .into_iter()
        .map(|r| {
            assert!(r.verified, "{r:?}");
            r.body
        })
        .collect();
    let seen: Vec<_> = bodies
        .iter()
        .map(|b| {
            (
                b["type"].as_str().unwrap().to_owned(),
                b["data"]["correction"]["kind"].as_str().unwrap().to_owned(),
                b["data"]["case"]["id"].as_i64(),
                b["data"]["user_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let corrected = |kind: &str, case: Option<i64>| {
        (
            "case_corrected".to_owned(),
            kind.to_owned(),
            case,
            dm::BOB.to_owned(),
        )
    };
    assert_eq!(
        seen,
        [
            corrected("edit", Some(warned.case_id)),
            corrected("clear_strikes", None),
            corrected("void", Some(warned.case_id)),
        ]
    );
    assert_eq!(bodies[0]["data"]["correction"]["old_reason"], "spam");
    assert_eq!(bodies[2]["data"]["case"]["voided"]["reason"], "mistake");
}
