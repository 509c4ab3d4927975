//! Cases, strikes, escalation, jails, idempotency and the demo's simulated
//! servers (issue #4), through the SDK against a real daemon.

use std::time::Duration;

use modctl_client::{CaseQuery, Client, ErrorKind, StatusCode};
use modctl_e2e::fakes::FakeTelegram;
use modctl_e2e::fakes::telegram::TOKEN as TELEGRAM_TOKEN;
use modctl_e2e::{ALPHA_DISCORD, ALPHA_TELEGRAM, BETA_DISCORD, Fixture, TestDaemon};
use modctl_types::Platform;
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest, CaseSource};
use modctld::operator::demo::{
    self, discord_members as dm, slack_members as sm, telegram_members as tm,
};
use modctld::platform::simulator;
use serde_json::json;

fn request(user: &str) -> ActionRequest {
    ActionRequest {
        user_id: user.into(),
        ..Default::default()
    }
}

/// The numbers of every case of Alpha's Discord server that `query` selects,
/// page after page.
async fn case_ids(client: &Client, query: CaseQuery) -> Vec<i64> {
    client
        .all_cases_where(ALPHA_DISCORD, &query)
        .await
        .unwrap()
        .iter()
        .map(|c| c.id)
        .collect()
}

fn simulated() -> (Fixture, Client) {
    let fixture = Fixture::simulated();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    (fixture, client)
}

/// A timeout without `minutes` and a ban without `delete_message_days` take
/// the server's configured defaults, and the case's detail says so (before
/// docs/api.md's decision, a timeout without `minutes` was a 400).
#[tokio::test]
async fn left_out_lengths_take_the_configured_defaults_and_the_detail_says_so() {
    let (fixture, client) = simulated();
    let timeout = client
        .perform_action(ALPHA_DISCORD, Action::Timeout, &request(dm::ALICE))
        .await
        .unwrap();
    assert!(timeout.applied, "{timeout:?}");
    assert!(
        timeout
            .detail
            .ends_with("; no minutes given: 60 from moderation.default_timeout_minutes"),
        "{}",
        timeout.detail
    );
    let case = client.case(ALPHA_DISCORD, timeout.case_id).await.unwrap();
    assert_eq!(case.minutes, Some(60));
    assert_eq!(case.detail, timeout.detail);

    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Moderation,
        json!({"default_timeout_minutes": 90, "default_ban_delete_days": 2}),
    );
    let timeout = client
        .perform_action(ALPHA_DISCORD, Action::Timeout, &request(dm::BOB))
        .await
        .unwrap();
    assert!(
        timeout
            .detail
            .ends_with("no minutes given: 90 from moderation.default_timeout_minutes"),
        "{}",
        timeout.detail
    );
    assert_eq!(
        client
            .case(ALPHA_DISCORD, timeout.case_id)
            .await
            .unwrap()
            .minutes,
        Some(90)
    );
    // A length that is given is used as is, without a note.
    let given = client
        .perform_action(
            ALPHA_DISCORD,
            Action::Timeout,
            &ActionRequest {
                minutes: Some(5),
                ..request(dm::BOB)
            },
        )
        .await
        .unwrap();
    assert!(
        !given.detail.contains("no minutes given"),
        "{}",
        given.detail
    );

    let ban = client
        .perform_action(ALPHA_DISCORD, Action::Ban, &request(dm::ALICE))
        .await
        .unwrap();
    assert_eq!(
        ban.detail,
        "banned; deleted 2 day(s) of their messages; no delete_message_days given: 2 from moderation.default_ban_delete_days"
    );
    let case = client.case(ALPHA_DISCORD, ban.case_id).await.unwrap();
    assert_eq!(case.delete_message_days, Some(2));
}

#[tokio::test]
async fn validation_errors_are_400_and_write_nothing() {
    let (fixture, client) = simulated();
    let long_reason = "x".repeat(513);
    let cases: Vec<(Action, ActionRequest, String)> = vec![
        (
            Action::Note,
            request(""),
            "user_id must not be empty: give the platform's user id of the target".into(),
        ),
        (
            Action::Note,
            request("alice"),
            "user_id: `alice` is not a discord user id: expected a snowflake of 17 to 20 digits"
                .into(),
        ),
        (
            Action::Timeout,
            ActionRequest {
                minutes: Some(40_321),
                ..request(dm::ALICE)
            },
            "minutes must be between 1 and 40320 for timeout, got 40321".into(),
        ),
        (
            Action::Timeout,
            ActionRequest {
                minutes: Some(0),
                ..request(dm::ALICE)
            },
            "minutes must be between 1 and 40320 for timeout, got 0".into(),
        ),
        (
            Action::Kick,
            ActionRequest {
                minutes: Some(5),
                ..request(dm::ALICE)
            },
            "minutes is only used by timeout and jail, not by kick".into(),
        ),
        (
            Action::Ban,
            ActionRequest {
                delete_message_days: Some(8),
                ..request(dm::ALICE)
            },
            "delete_message_days must be between 0 and 7 for ban, got 8".into(),
        ),
        (
            Action::Ban,
            ActionRequest {
                delete_message_days: Some(-1),
                ..request(dm::ALICE)
            },
            "delete_message_days must be between 0 and 7 for ban, got -1".into(),
        ),
        (
            Action::Warn,
            ActionRequest {
                delete_message_days: Some(1),
                ..request(dm::ALICE)
            },
            "delete_message_days is only used by ban, not by warn".into(),
        ),
        (
            Action::Warn,
            ActionRequest {
                reason: Some(long_reason),
                ..request(dm::ALICE)
            },
            "reason is too long: at most 512 characters, got 513".into(),
        ),
    ];
    for (action, body, message) in cases {
        let err = client
            .perform_action(ALPHA_DISCORD, action, &body)
            .await
            .unwrap_err();
        assert_eq!(
            err.status(),
            Some(StatusCode::BAD_REQUEST),
            "{action} {body:?}"
        );
        assert_eq!(err.message(), message);
    }

    // Unknown actions and wrong JSON types.
    let http = reqwest::Client::new();
    for (route, body, message) in [
        (
            "smite",
            json!({"user_id": dm::ALICE}),
            "unknown action `smite`: expected one of note, warn, timeout, kick, ban, unban, jail, unjail",
        ),
        (
            "warn",
            json!({"user_id": 800000000000000004_i64}),
            "invalid request body: user_id: invalid type: integer `800000000000000004`, expected a string",
        ),
        (
            "timeout",
            json!({"user_id": dm::ALICE, "minutes": "ten"}),
            "invalid request body: minutes: invalid type: string \"ten\", expected i64",
        ),
        (
            "warn",
            json!({"reason": "x"}),
            "invalid request body: missing field `user_id`",
        ),
        (
            "warn",
            json!({"user_id": dm::ALICE, "duration": 5}),
            "invalid request body: duration: unknown field `duration`, expected one of `user_id`, `reason`, `minutes`, `delete_message_days`",
        ),
    ] {
        let response = http
            .post(
                fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}/actions/{route}")),
            )
            .bearer_auth(&fixture.alpha_rw.full)
            .json(&body)
            .send()
            .await
            .unwrap();
        let (status, got) = modctl_e2e::error_body(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        // serde adds where in the body it stopped: ` at line 1 column N`.
        assert_eq!(got.split(" at line ").next().unwrap(), message);
    }

    // A required reason.
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Moderation,
        json!({"require_reason": true}),
    );
    let err = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(dm::ALICE))
        .await
        .unwrap_err();
    assert!(
        err.message().starts_with("this server requires a reason"),
        "{}",
        err.message()
    );

    // Jail without jail config.
    fixture
        .daemon
        .set_config(ALPHA_DISCORD, SectionName::Jail, json!({"enabled": false}));
    let body = ActionRequest {
        reason: Some("r".into()),
        ..request(dm::ALICE)
    };
    let err = client
        .perform_action(ALPHA_DISCORD, Action::Jail, &body)
        .await
        .unwrap_err();
    assert!(
        err.message()
            .starts_with("jail is not set up on this server"),
        "{}",
        err.message()
    );

    assert!(
        client
            .all_cases(ALPHA_DISCORD, None)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(client.strikes(ALPHA_DISCORD).await.unwrap().is_empty());
    // Nothing reached the simulated platform either.
    let alice = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::ALICE))
        .unwrap();
    assert_eq!(alice.muted_until, None);
}

#[tokio::test]
async fn cases_record_the_actor_and_page_newest_first() {
    let (fixture, client) = simulated();
    for user in [
        dm::ALICE,
        dm::BOB,
        dm::ALICE,
        dm::BOB,
        dm::ALICE,
        dm::ALICE,
        dm::BOB,
    ] {
        client
            .perform_action(ALPHA_DISCORD, Action::Note, &request(user))
            .await
            .unwrap();
    }
    let first = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                limit: Some(3),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        first.cases.iter().map(|c| c.id).collect::<Vec<_>>(),
        [7, 6, 5]
    );
    assert_eq!(first.next_before, Some(first.cases[2].id));
    let second = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                limit: Some(3),
                before: first.next_before,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        second.cases.iter().map(|c| c.id).collect::<Vec<_>>(),
        [4, 3, 2]
    );
    assert_eq!(
        client.all_cases(ALPHA_DISCORD, None).await.unwrap().len(),
        7
    );

    let alice = client
        .all_cases(ALPHA_DISCORD, Some(dm::ALICE))
        .await
        .unwrap();
    assert_eq!(alice.iter().map(|c| c.id).collect::<Vec<_>>(), [6, 5, 3, 1]);
    let case = &alice[0];
    assert_eq!(case.actor, format!("key:{}", fixture.alpha_rw.key_id));
    assert_eq!(
        (case.action, case.source, case.applied, case.platform),
        (Action::Note, CaseSource::Api, true, Platform::Discord)
    );
    assert_eq!(client.case(ALPHA_DISCORD, case.id).await.unwrap(), *case);

    for limit in [0, 201] {
        let err = client
            .cases(
                ALPHA_DISCORD,
                &CaseQuery {
                    limit: Some(limit),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert_eq!(
            err.message(),
            format!("limit must be between 1 and 200, got {limit}")
        );
    }
    // A case number is the server's own: another server's case #6 does not
    // exist yet, and its first case is #1 whatever the other servers hold.
    let beta = fixture.daemon.client(&fixture.beta_rw);
    let err = beta.case(BETA_DISCORD, case.id).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(
        err.message(),
        format!("case #{} not found on server {BETA_DISCORD}", case.id)
    );
    let beta_first = beta
        .perform_action(BETA_DISCORD, Action::Note, &request(dm::ALICE))
        .await
        .unwrap();
    assert_eq!(beta_first.case_id, 1);
    assert_eq!(
        beta.case(BETA_DISCORD, 1).await.unwrap().platform,
        Platform::Discord
    );
    assert_eq!(
        client.case(ALPHA_DISCORD, 1).await.unwrap().actor,
        format!("key:{}", fixture.alpha_rw.key_id)
    );
    assert_eq!(
        client
            .case(ALPHA_DISCORD, 999_999)
            .await
            .unwrap_err()
            .kind(),
        ErrorKind::NotFound
    );
    assert_eq!(
        client.case(BETA_DISCORD, case.id).await.unwrap_err().kind(),
        ErrorKind::Forbidden
    );
}

#[tokio::test]
async fn strikes_escalate_along_the_ladder_as_linked_cases() {
    let (fixture, client) = simulated();
    fixture.daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"weights": {"warn": 1}, "expiry_days": 30, "ladder": [{"at": 2, "action": "timeout", "minutes": 15}, {"at": 3, "action": "kick"}]}),
    );
    // A case on another server first: the numbers below are this server's
    // own, not row ids shared by all servers.
    client
        .perform_action(ALPHA_TELEGRAM, Action::Note, &request(tm::ALICE))
        .await
        .unwrap();
    let first = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(dm::BOB))
        .await
        .unwrap();
    assert_eq!(
        (first.active_strikes, first.escalation.is_none()),
        (1, true)
    );

    let second = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(dm::BOB))
        .await
        .unwrap();
    assert_eq!(second.active_strikes, 2);
    let escalation = second.escalation.expect("the ladder's first step");
    assert_eq!((second.case_id, escalation.case_id), (2, 3));
    assert_eq!(
        (escalation.action, escalation.applied),
        (Action::Timeout, true)
    );
    let case = client
        .case(ALPHA_DISCORD, escalation.case_id)
        .await
        .unwrap();
    assert_eq!(
        (case.source, case.linked_case_id, case.minutes),
        (CaseSource::Escalation, Some(second.case_id), Some(15))
    );
    assert!(
        case.reason
            .as_deref()
            .unwrap_or_default()
            .ends_with("(case #2)"),
        "the reason cites the triggering case by its number: {:?}",
        case.reason
    );
    let bob = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::BOB))
        .unwrap();
    assert!(
        bob.muted_until.is_some(),
        "the simulated member is timed out"
    );

    let third = client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request(dm::BOB))
        .await
        .unwrap();
    let escalation = third.escalation.expect("the ladder's second step");
    assert_eq!(
        (escalation.action, escalation.applied),
        (Action::Kick, true)
    );
    assert_eq!(
        fixture
            .daemon
            .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::BOB)),
        None
    );

    let strikes = client.strikes(ALPHA_DISCORD).await.unwrap();
    assert_eq!(strikes.len(), 1);
    assert_eq!(
        (
            strikes[0].user_id.as_str(),
            strikes[0].active,
            strikes[0].total
        ),
        (dm::BOB, 3, 3)
    );
    // Escalation cases add no strikes of their own.
    assert_eq!(
        client
            .all_cases(ALPHA_DISCORD, Some(dm::BOB))
            .await
            .unwrap()
            .len(),
        5
    );
}

#[tokio::test]
async fn jail_and_unjail_restore_the_members_roles() {
    let (fixture, client) = simulated();
    let before = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::ALICE))
        .unwrap();

    let jailed = client
        .perform_action(ALPHA_DISCORD, Action::Jail, &request(dm::ALICE))
        .await
        .unwrap();
    assert!(jailed.applied, "{}", jailed.detail);
    let during = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::ALICE))
        .unwrap();
    assert_eq!(during.roles, [dm::JAILED_ROLE]);
    let jails = client.jails(ALPHA_DISCORD).await.unwrap();
    assert_eq!(
        (
            jails[0].user_id.as_str(),
            &jails[0].saved_roles,
            jails[0].case_id
        ),
        (dm::ALICE, &before.roles, jailed.case_id)
    );

    let err = client
        .perform_action(ALPHA_DISCORD, Action::Jail, &request(dm::ALICE))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));

    let released = client
        .perform_action(ALPHA_DISCORD, Action::Unjail, &request(dm::ALICE))
        .await
        .unwrap();
    assert!(released.applied, "{}", released.detail);
    let after = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_DISCORD, dm::ALICE))
        .unwrap();
    assert_eq!(after.roles, before.roles);
    assert!(client.jails(ALPHA_DISCORD).await.unwrap().is_empty());

    let err = client
        .perform_action(ALPHA_DISCORD, Action::Unjail, &request(dm::ALICE))
        .await
        .unwrap_err();
    assert_eq!(
        (err.status(), err.message()),
        (
            Some(StatusCode::CONFLICT),
            format!("user {} is not jailed on this server", dm::ALICE).as_str()
        )
    );
}

#[tokio::test]
async fn a_timed_jail_ends_by_itself_also_after_a_restart() {
    let (fixture, client) = simulated();
    let body = ActionRequest {
        minutes: Some(60),
        ..request(tm::ALICE)
    };
    let jailed = client
        .perform_action(ALPHA_TELEGRAM, Action::Jail, &body)
        .await
        .unwrap();
    assert!(jailed.applied, "{}", jailed.detail);
    assert!(
        client.jails(ALPHA_TELEGRAM).await.unwrap()[0]
            .until
            .is_some()
    );
    // A minute before the end, the jail holds; at the end, it is released.
    fixture.daemon.clock().advance(Duration::from_secs(59 * 60));
    assert_eq!(fixture.daemon.tick_workers().jails_ended, 0);
    assert_eq!(client.jails(ALPHA_TELEGRAM).await.unwrap().len(), 1);
    fixture.daemon.clock().advance(Duration::from_secs(60));
    assert_eq!(fixture.daemon.tick_workers().jails_ended, 1);
    assert!(client.jails(ALPHA_TELEGRAM).await.unwrap().is_empty());
    let release = &client.all_cases(ALPHA_TELEGRAM, None).await.unwrap()[0];
    assert_eq!(
        (release.action, release.source, release.linked_case_id),
        (Action::Unjail, CaseSource::Expiry, Some(jailed.case_id))
    );
    assert_eq!(release.actor, "system:expiry");
    let alice = fixture
        .daemon
        .write(|tx| simulator::member_state(tx, ALPHA_TELEGRAM, tm::ALICE))
        .unwrap();
    assert_eq!(alice.muted_until, None);

    // A jail that ends while the daemon is down ends at the next start.
    let jailed = client
        .perform_action(
            ALPHA_TELEGRAM,
            Action::Jail,
            &ActionRequest {
                minutes: Some(5),
                ..request(tm::BOB)
            },
        )
        .await
        .unwrap();
    let Fixture {
        daemon, alpha_rw, ..
    } = fixture;
    daemon.clock().advance(Duration::from_secs(5 * 60));
    let daemon = daemon.restart();
    let client = daemon.client(&alpha_rw);
    // The worker's first tick at start-up may have released it already.
    daemon.tick_workers();
    assert!(client.jails(ALPHA_TELEGRAM).await.unwrap().is_empty());
    assert_eq!(
        client.all_cases(ALPHA_TELEGRAM, None).await.unwrap()[0].linked_case_id,
        Some(jailed.case_id)
    );
}

#[tokio::test]
async fn an_idempotent_retry_returns_the_first_response_and_acts_once() {
    let fixture = Fixture::start();
    let telegram = FakeTelegram::start(ALPHA_TELEGRAM.parse().unwrap());
    telegram.add_member(4242);
    fixture
        .daemon
        .connect_live(ALPHA_TELEGRAM, TELEGRAM_TOKEN, &telegram.uri());
    let client = fixture.daemon.client(&fixture.alpha_rw);

    let body = ActionRequest {
        reason: Some("raid".into()),
        ..request("4242")
    };
    let first = client
        .perform_action_idempotent(ALPHA_TELEGRAM, Action::Ban, &body, "ban-4242")
        .await
        .unwrap();
    let again = client
        .perform_action_idempotent(ALPHA_TELEGRAM, Action::Ban, &body, "ban-4242")
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(
        client.all_cases(ALPHA_TELEGRAM, None).await.unwrap().len(),
        1
    );

    let other = ActionRequest {
        reason: Some("other".into()),
        ..request("4242")
    };
    let err = client
        .perform_action_idempotent(ALPHA_TELEGRAM, Action::Ban, &other, "ban-4242")
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert!(
        err.message()
            .contains("was already used for a different request"),
        "{}",
        err.message()
    );
    assert_eq!(
        client.all_cases(ALPHA_TELEGRAM, None).await.unwrap().len(),
        1
    );
    // Banned once, on the first request only.
    assert_eq!(telegram.calls("banChatMember").len(), 1);
    assert_eq!(telegram.requests().len(), 1);
    assert!(telegram.is_banned(4242));
}

#[tokio::test]
async fn the_demo_servers_show_real_outcomes() {
    let daemon = TestDaemon::start();
    let keys = daemon
        .block_on(demo::setup(daemon.store(), daemon.clock()))
        .unwrap();
    let client = Client::builder()
        .base_url(daemon.url())
        .api_key(&keys.write)
        .build()
        .unwrap();

    let ban = client
        .perform_action(demo::DISCORD, Action::Ban, &request(dm::ALICE))
        .await
        .unwrap();
    assert_eq!(
        (ban.applied, ban.detail.as_str()),
        (true, "banned; deleted 0 day(s) of their messages")
    );
    assert!(daemon.write(|tx| simulator::is_banned(tx, demo::DISCORD, dm::ALICE)));
    let refused = client
        .perform_action(demo::DISCORD, Action::Ban, &request(dm::ADA))
        .await
        .unwrap();
    assert_eq!(
        (refused.applied, refused.detail.as_str()),
        (
            false,
            "not applied: bot's highest role is below the target's"
        )
    );

    let kick = client
        .perform_action(demo::TELEGRAM, Action::Kick, &request(tm::BOB))
        .await
        .unwrap();
    assert_eq!(
        (kick.applied, kick.detail.as_str()),
        (
            true,
            "removed with a ban followed by an unban; they may rejoin"
        )
    );
    assert_eq!(
        daemon.write(|tx| simulator::member_state(tx, demo::TELEGRAM, tm::BOB)),
        None
    );
    assert!(!daemon.write(|tx| simulator::is_banned(tx, demo::TELEGRAM, tm::BOB)));

    let timeout = ActionRequest {
        minutes: Some(60),
        ..request(sm::ALICE)
    };
    let timeout = client
        .perform_action(demo::SLACK, Action::Timeout, &timeout)
        .await
        .unwrap();
    assert_eq!(
        (timeout.applied, timeout.detail.as_str()),
        (
            false,
            "case recorded; Slack has no timeouts a bot can set: restrict the member on the administrator side"
        )
    );
    let warn = ActionRequest {
        reason: Some("be kind".into()),
        ..request(sm::ALICE)
    };
    assert!(
        client
            .perform_action(demo::SLACK, Action::Warn, &warn)
            .await
            .unwrap()
            .applied
    );
    let posted = daemon.write(|tx| simulator::messages(tx, demo::SLACK, sm::MODLOG));
    assert_eq!(posted, [format!("Warning for <@{}>: be kind", sm::ALICE)]);
}

/// `since` and `until` select by each case's recorded time, not by its place
/// in the numbering: after the daemon's clock stepped back a day (issue #22),
/// the cases recorded behind it are found by `until`, those before `since`
/// are left out, and pages and the other filters still hold.
#[tokio::test]
async fn time_filters_hold_after_the_clock_steps_back() {
    let (fixture, client) = simulated();
    let clock = fixture.daemon.clock().clone();
    let t = clock.now();
    let user = |i: usize| {
        if i.is_multiple_of(2) {
            dm::ALICE
        } else {
            dm::BOB
        }
    };
    // Cases 1 to 6 from T on, 7 to 11 a day earlier: the clock stepped back.
    for i in 0..6 {
        clock.set(t + jiff::SignedDuration::from_mins(10 * i as i64));
        client
            .perform_action(ALPHA_DISCORD, Action::Note, &request(user(i)))
            .await
            .unwrap();
    }
    let day_back = t - jiff::SignedDuration::from_hours(24);
    for i in 0..5 {
        clock.set(day_back + jiff::SignedDuration::from_mins(10 * i as i64));
        client
            .perform_action(ALPHA_DISCORD, Action::Note, &request(user(i)))
            .await
            .unwrap();
    }
    let at = |hours: i64, mins: i64| {
        Some(t + jiff::SignedDuration::from_hours(hours) + jiff::SignedDuration::from_mins(mins))
    };
    let ids = |query: CaseQuery| case_ids(&client, query);
    let q = CaseQuery::default;
    assert_eq!(
        ids(CaseQuery {
            since: at(-1, 0),
            ..q()
        })
        .await,
        [6, 5, 4, 3, 2, 1]
    );
    assert_eq!(
        ids(CaseQuery {
            until: at(-12, 0),
            ..q()
        })
        .await,
        [11, 10, 9, 8, 7]
    );
    assert_eq!(
        ids(CaseQuery {
            since: at(-24, 15),
            until: at(-12, 0),
            ..q()
        })
        .await,
        [11, 10, 9]
    );
    assert_eq!(
        ids(CaseQuery {
            since: at(0, 15),
            until: at(0, 45),
            ..q()
        })
        .await,
        [5, 4, 3]
    );
    assert_eq!(
        ids(CaseQuery {
            user_id: Some(dm::ALICE.into()),
            until: at(-12, 0),
            ..q()
        })
        .await,
        [11, 9, 7]
    );
    assert_eq!(
        ids(CaseQuery {
            user_id: Some(dm::BOB.into()),
            since: at(-1, 0),
            ..q()
        })
        .await,
        [6, 4, 2]
    );
    // Pages of four across the cases behind the clock and the others: the
    // cursor is still a case number, newest first.
    let mut pages = Vec::new();
    let mut before = None;
    loop {
        let page = client
            .cases(
                ALPHA_DISCORD,
                &CaseQuery {
                    limit: Some(4),
                    until: at(1, 0),
                    before,
                    ..q()
                },
            )
            .await
            .unwrap();
        pages.push(page.cases.iter().map(|c| c.id).collect::<Vec<_>>());
        before = page.next_before;
        if before.is_none() {
            break;
        }
    }
    assert_eq!(pages, [vec![11, 10, 9, 8], vec![7, 6, 5, 4], vec![3, 2, 1]]);
}

/// The listing filters combine; `since` and `until` select by the time a case
/// was recorded (the daemon's clock here), and paging keeps the filters.
#[tokio::test]
async fn cases_filter_by_action_actor_applied_and_time() {
    let (fixture, client) = simulated();
    let clock = fixture.daemon.clock().clone();
    let day_one = clock.now();
    for (action, user) in [
        (Action::Warn, dm::BOB),
        (Action::Ban, dm::ADA), // not applied: Ada's role is above the bot's
        (Action::Note, dm::BOB),
    ] {
        client
            .perform_action(ALPHA_DISCORD, action, &request(user))
            .await
            .unwrap();
    }
    clock.advance(Duration::from_secs(2 * 86_400));
    let day_three = clock.now();
    for user in [dm::ALICE, dm::BOB] {
        client
            .perform_action(ALPHA_DISCORD, Action::Warn, &request(user))
            .await
            .unwrap();
    }
    let ids = |query: CaseQuery| case_ids(&client, query);
    let q = CaseQuery::default;
    assert_eq!(
        ids(CaseQuery {
            action: Some(Action::Warn),
            ..q()
        })
        .await,
        [5, 4, 1]
    );
    assert_eq!(
        ids(CaseQuery {
            applied: Some(false),
            ..q()
        })
        .await,
        [2]
    );
    assert_eq!(
        ids(CaseQuery {
            applied: Some(true),
            user_id: Some(dm::BOB.into()),
            ..q()
        })
        .await,
        [5, 3, 1]
    );
    let actor = format!("key:{}", fixture.alpha_rw.key_id);
    assert_eq!(
        ids(CaseQuery {
            actor: Some(actor.clone()),
            ..q()
        })
        .await,
        [5, 4, 3, 2, 1]
    );
    assert!(
        ids(CaseQuery {
            actor: Some("system:expiry".into()),
            ..q()
        })
        .await
        .is_empty()
    );
    assert_eq!(
        ids(CaseQuery {
            since: Some(day_three),
            ..q()
        })
        .await,
        [5, 4]
    );
    assert_eq!(
        ids(CaseQuery {
            until: Some(day_three),
            ..q()
        })
        .await,
        [3, 2, 1]
    );
    assert_eq!(
        ids(CaseQuery {
            since: Some(day_one),
            until: Some(day_three),
            action: Some(Action::Warn),
            ..q()
        })
        .await,
        [1]
    );
    // Pages of one keep the filter: the cursor is a case number.
    let page = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                limit: Some(1),
                action: Some(Action::Warn),
                ..q()
            },
        )
        .await
        .unwrap();
    assert_eq!((page.cases[0].id, page.next_before), (5, Some(5)));
    let next = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                limit: Some(1),
                action: Some(Action::Warn),
                before: Some(5),
                ..q()
            },
        )
        .await
        .unwrap();
    assert_eq!(next.cases[0].id, 4);

    let err = client
        .cases(
            ALPHA_DISCORD,
            &CaseQuery {
                since: Some(day_three),
                until: Some(day_one),
                ..q()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::BAD_REQUEST));
    assert!(err.message().starts_with("since ("), "{}", err.message());
    // Not a case number: 400 saying what one looks like.
    let raw = reqwest::Client::new()
        .get(format!(
            "{}/api/v1/servers/{ALPHA_DISCORD}/cases/abc",
            fixture.daemon.url()
        ))
        .bearer_auth(&fixture.alpha_rw.full)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = raw.json().await.unwrap();
    assert_eq!(
        body["error"],
        "case id `abc` is not a case number: cases are numbered 1, 2, 3, ... on each server"
    );
}
