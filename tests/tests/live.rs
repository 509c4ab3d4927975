//! The live view end to end (issue #27): `GET /servers/{id}/events/stream`
//! through the SDK's `Client::events`. A case made through the API, an
//! automod hit of the event path, a config change, a correction and a join
//! reach an open stream; `Last-Event-ID` after a disconnect (and across a restart) gets
//! exactly the missed events; an id too old is a reset; another team's key
//! is refused and a read key is enough; the stream ends when the daemon
//! stops, without holding its shutdown; a key's streams are capped.

use std::sync::Arc;
use std::time::{Duration, Instant};

use modctl_client::ErrorKind;
use modctl_client::live::{EventStream, StreamItem, StreamOptions, summarize};
use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon};
use modctl_types::live::{LiveEvent, LiveEventKind};
use modctl_types::moderation::{Action, ActionRequest};
use modctl_types::{Platform, config::SectionName};
use modctld::events::{Event, EventKind, MemberRef, Membership};
use modctld::operator::demo::discord_members as dm;
use serde_json::json;

/// How long an event may take to reach a stream (the hub looks every
/// 250 ms).
const WAIT: Duration = Duration::from_secs(10);

/// The next item of `stream` that is not a connection notice, within [`WAIT`].
async fn next(stream: &mut EventStream) -> StreamItem {
    loop {
        let item = tokio::time::timeout(WAIT, stream.next())
            .await
            .expect("an item in time")
            .expect("the stream goes on")
            .expect("no error");
        if !matches!(item, StreamItem::Connected) {
            return item;
        }
    }
}

/// The next event of `stream`.
async fn next_event(stream: &mut EventStream) -> LiveEvent {
    match next(stream).await {
        StreamItem::Event(event) => event,
        other => panic!("expected an event, got {other:?}"),
    }
}

/// A stream of alpha's guild for `client`, connected.
async fn open(client: &modctl_client::Client, options: StreamOptions) -> EventStream {
    let mut stream = client.events(ALPHA_DISCORD, options);
    let first = tokio::time::timeout(WAIT, stream.next()).await.unwrap();
    assert!(
        matches!(first, Some(Ok(StreamItem::Connected))),
        "{first:?}"
    );
    stream
}

async fn warn(client: &modctl_client::Client, user: &str) -> i64 {
    let request = ActionRequest {
        user_id: user.into(),
        reason: Some("live view".into()),
        ..Default::default()
    };
    client
        .perform_action(ALPHA_DISCORD, Action::Warn, &request)
        .await
        .expect("warned")
        .case_id
}

#[tokio::test]
async fn cases_hits_config_changes_and_joins_reach_an_open_stream() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    crate::automod_act::automod(daemon, ALPHA_DISCORD, "warn");
    let client = daemon.client(&fixture.alpha_rw);
    // A read key is enough to watch.
    let mut stream = open(&daemon.client(&fixture.alpha_ro), StreamOptions::default()).await;

    let first_case = warn(&client, dm::ALICE).await;
    let event = next_event(&mut stream).await;
    assert_eq!(event.kind, LiveEventKind::CaseCreated);
    assert_eq!(event.data["id"], json!(first_case));
    assert_eq!(event.data["action"], "warn");
    assert_eq!(event.server_id, ALPHA_DISCORD);
    assert!(event.id.is_some());
    let line = summarize(&event);
    assert!(
        line.starts_with(&format!("case #{first_case}: warn")),
        "{line}"
    );

    // A member says a blocked word: the hit, then its warning case.
    let said = daemon
        .block_on(modctld::operator::simulate_message::speak(
            daemon.store(),
            daemon.clock().now(),
            ALPHA_DISCORD,
            dm::BOB,
            "what a scam",
            None,
        ))
        .expect("the simulated member speaks");
    let events = daemon.state().events.clone();
    daemon.block_on(async move { events.publish(said) });
    let hit = next_event(&mut stream).await;
    assert_eq!(hit.kind, LiveEventKind::AutomodHit, "{hit:?}");
    assert_eq!(hit.data["user_id"], dm::BOB);
    assert_eq!(hit.data["filter"], "blocked_words");
    let case = next_event(&mut stream).await;
    assert_eq!(
        (case.kind, case.data["source"].as_str()),
        (LiveEventKind::CaseCreated, Some("automod"))
    );

    // A config change through the API: one event per audit entry.
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Moderation,
            &json!({"default_timeout_minutes": 90}),
            None,
        )
        .await
        .unwrap();
    let changed = next_event(&mut stream).await;
    assert_eq!(changed.kind, LiveEventKind::ConfigChanged);
    assert_eq!(changed.data["section"], "moderation");

    // A correction: the first warning voided.
    client
        .void_case(ALPHA_DISCORD, first_case, "wrong member")
        .await
        .unwrap();
    let voided = next_event(&mut stream).await;
    assert_eq!(voided.kind, LiveEventKind::CaseCorrected, "{voided:?}");
    assert_eq!(voided.data["case"]["id"], json!(first_case));

    // A join is live only: no id.
    let join = Event {
        platform: Platform::Discord,
        server_id: Arc::from(ALPHA_DISCORD),
        at: daemon.clock().now(),
        id: None,
        kind: EventKind::MemberJoined(Membership {
            member: MemberRef {
                id: "800000000000000077".into(),
                is_bot: false,
                display_name: Some("Eve".into()),
            },
            channel_id: None,
            pending: false,
        }),
    };
    let events = daemon.state().events.clone();
    daemon.block_on(async move { events.publish(join) });
    let joined = next_event(&mut stream).await;
    assert_eq!(
        (joined.kind, joined.id, joined.data["name"].as_str()),
        (LiveEventKind::MemberJoined, None, Some("Eve"))
    );
    assert_eq!(summarize(&joined), "Eve (800000000000000077) joined");
}

#[tokio::test]
async fn types_filter_what_is_sent() {
    let fixture = Fixture::simulated();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let mut stream = open(
        &client,
        StreamOptions {
            types: vec![LiveEventKind::ConfigChanged],
            ..Default::default()
        },
    )
    .await;
    warn(&client, dm::ALICE).await;
    client
        .replace_section_json(
            ALPHA_DISCORD,
            SectionName::Moderation,
            &json!({"default_timeout_minutes": 90}),
            None,
        )
        .await
        .unwrap();
    assert_eq!(
        next_event(&mut stream).await.kind,
        LiveEventKind::ConfigChanged
    );

    let http = modctl_e2e::webhooks::http();
    let refused = http
        .get(fixture.daemon.api(&format!(
            "/servers/{ALPHA_DISCORD}/events/stream?types=case"
        )))
        .bearer_auth(&fixture.alpha_ro.full)
        .send()
        .await
        .unwrap();
    let (status, body) = modctl_e2e::error_body(refused).await;
    assert_eq!(status, 400);
    assert!(
        body.contains("unknown event type `case`: use case_created"),
        "{body}"
    );
}

#[tokio::test]
async fn last_event_id_resumes_with_exactly_the_missed_events_also_after_a_restart() {
    let fixture = Fixture::simulated();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let mut stream = open(&client, StreamOptions::default()).await;
    let first = warn(&client, dm::ALICE).await;
    let seen = next_event(&mut stream).await;
    assert_eq!(seen.data["id"], json!(first));
    let last = stream.last_event_id().expect("an id");
    assert_eq!(seen.id, Some(last));
    drop(stream);

    // Missed while disconnected.
    let missed = [warn(&client, dm::BOB).await, warn(&client, dm::ALICE).await];
    let mut resumed = open(
        &client,
        StreamOptions {
            last_event_id: Some(last),
            ..Default::default()
        },
    )
    .await;
    for case in missed {
        let event = next_event(&mut resumed).await;
        assert_eq!(event.data["id"], json!(case), "{event:?}");
    }
    let after_restart = resumed.last_event_id().unwrap();
    drop(resumed);

    // Across a restart of the daemon.
    let fixture = fixture.restart();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    let missed = warn(&client, dm::BOB).await;
    let mut resumed = open(
        &client,
        StreamOptions {
            last_event_id: Some(after_restart),
            ..Default::default()
        },
    )
    .await;
    let event = next_event(&mut resumed).await;
    assert_eq!(event.data["id"], json!(missed));
    assert_eq!(event.id, Some(after_restart + 1));
    // Nothing else was missed: the next event is a new one.
    let new = warn(&client, dm::ALICE).await;
    assert_eq!(next_event(&mut resumed).await.data["id"], json!(new));
}

#[tokio::test]
async fn an_id_that_cannot_be_resumed_from_is_a_reset() {
    let fixture = Fixture::simulated();
    let client = fixture.daemon.client(&fixture.alpha_rw);
    warn(&client, dm::ALICE).await;
    // Newer than any the server has: another database.
    let mut stream = open(
        &client,
        StreamOptions {
            last_event_id: Some(500),
            ..Default::default()
        },
    )
    .await;
    let newest = match next(&mut stream).await {
        // The simulated fixture's config changes, then the case.
        StreamItem::Reset(reset) => {
            assert!(reset.reason.contains("newer than any"), "{}", reset.reason);
            reset.last_id
        }
        other => panic!("expected a reset, got {other:?}"),
    };
    assert!(newest > 1 && newest < 500, "{newest}");
    assert_eq!(stream.last_event_id(), Some(newest));
    let case = warn(&client, dm::BOB).await;
    assert_eq!(next_event(&mut stream).await.data["id"], json!(case));
}

#[tokio::test]
async fn another_teams_key_is_refused_and_an_unclaimed_server_is_not_found() {
    let fixture = Fixture::start();
    let beta = fixture.daemon.client(&fixture.beta_rw);
    let refused = beta
        .events(ALPHA_DISCORD, StreamOptions::default())
        .next()
        .await
        .expect("an answer")
        .expect_err("refused");
    assert_eq!(refused.kind(), ErrorKind::Forbidden, "{refused}");
    let missing = beta
        .events(modctl_e2e::UNCLAIMED, StreamOptions::default())
        .next()
        .await
        .expect("an answer")
        .expect_err("refused");
    assert_eq!(missing.kind(), ErrorKind::NotFound, "{missing}");
}

#[tokio::test]
async fn a_key_holds_four_streams_at_most_and_a_closed_one_frees_its_place() {
    let fixture = Fixture::start();
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let mut streams = Vec::new();
    for _ in 0..4 {
        streams.push(open(&client, StreamOptions::default()).await);
    }
    let refused = client
        .events(ALPHA_DISCORD, StreamOptions::default())
        .next()
        .await
        .expect("an answer")
        .expect_err("over the cap");
    assert_eq!(refused.kind(), ErrorKind::RateLimited);
    assert!(
        refused.message().contains("4 event streams open already"),
        "{refused}"
    );
    // Another key of the team has places of its own.
    let other = fixture.daemon.client(&fixture.alpha_rw);
    let _other = open(&other, StreamOptions::default()).await;
    // Closing one gives its place back (once the daemon sees the
    // connection gone).
    streams.pop();
    let deadline = Instant::now() + WAIT;
    loop {
        match client
            .events(ALPHA_DISCORD, StreamOptions::default())
            .next()
            .await
        {
            Some(Ok(StreamItem::Connected)) => break,
            other if Instant::now() > deadline => panic!("no place came back: {other:?}"),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

#[tokio::test]
async fn the_stream_ends_when_the_daemon_stops_without_holding_the_shutdown() {
    // A shutdown deadline far longer than the test waits: the stream must
    // end by itself, not by being dropped at the deadline.
    let mut fixture = Fixture::seed(TestDaemon::start_with_http_limits(
        modctld::http::HttpLimits {
            shutdown_deadline: Duration::from_secs(60),
            ..modctld::http::HttpLimits::default()
        },
    ));
    let client = fixture.daemon.client(&fixture.alpha_ro);
    let mut stream = open(
        &client,
        StreamOptions {
            no_reconnect: true,
            ..Default::default()
        },
    )
    .await;
    let started = Instant::now();
    let stopping = tokio::task::spawn_blocking(move || {
        fixture.daemon.stop();
        fixture
    });
    let end = tokio::time::timeout(WAIT, stream.next()).await;
    assert!(matches!(end, Ok(None)), "the stream ended: {end:?}");
    let _fixture = stopping.await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the daemon stopped without waiting for its shutdown deadline: {:?}",
        started.elapsed()
    );
}

/// Names beside ids (issue #27): a case's and a jail's member are named in
/// the stream as the reads name them (`user_name`, from the daemon's name
/// cache when sent); a member without a known name has none.
#[tokio::test]
async fn cases_and_jails_name_their_member() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    daemon.state().names.put(
        ALPHA_DISCORD,
        modctld::events::NameKind::User,
        dm::ALICE,
        "Alice",
    );
    let client = daemon.client(&fixture.alpha_rw);
    let mut stream = open(&daemon.client(&fixture.alpha_ro), StreamOptions::default()).await;

    warn(&client, dm::ALICE).await;
    let event = next_event(&mut stream).await;
    assert_eq!(event.data["user_name"], "Alice", "{event:?}");
    let line = summarize(&event);
    assert!(
        line.contains(&format!("warn Alice ({})", dm::ALICE)),
        "{line}"
    );

    warn(&client, dm::BOB).await;
    let event = next_event(&mut stream).await;
    assert_eq!(event.data["user_id"], dm::BOB);
    assert!(event.data.get("user_name").is_none(), "{event:?}");

    let jail = ActionRequest {
        user_id: dm::ALICE.into(),
        ..Default::default()
    };
    client
        .perform_action(ALPHA_DISCORD, Action::Jail, &jail)
        .await
        .expect("jailed");
    let mut jailed = None;
    for _ in 0..2 {
        let event = next_event(&mut stream).await;
        if event.kind == LiveEventKind::JailChanged {
            jailed = Some(event);
        }
    }
    let jailed = jailed.expect("a jail_changed event");
    assert_eq!(jailed.data["jail"]["user_name"], "Alice", "{jailed:?}");
    assert!(
        summarize(&jailed).contains(&format!("for Alice ({})", dm::ALICE)),
        "{}",
        summarize(&jailed)
    );
}
