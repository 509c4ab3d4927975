//! Community activity (issue #12) end to end: events recorded by the
//! receivers and flushed on the clock, batches posted to the API, the
//! rollups they land in and the community insights read from them. No test
//! sleeps: the clock is set and the flush worker driven by hand.

use modctl_e2e::{ALPHA_DISCORD, BETA_DISCORD, Fixture, TestDaemon, UNCLAIMED, error_body};
use modctl_types::Timestamp;
use modctl_types::activity::{ActivityKind, BatchReceipt, CommunityInsights, Ranked};
use modctl_types::config::SectionName;
use modctld::activity::ActivityEvent;
use serde_json::json;

fn event(
    server: &str,
    id: Option<&str>,
    kind: ActivityKind,
    user: &str,
    at: &str,
) -> ActivityEvent {
    ActivityEvent {
        server_id: server.into(),
        event_id: id.map(Into::into),
        kind,
        user_id: user.into(),
        channel_id: matches!(kind, ActivityKind::Message | ActivityKind::Voice)
            .then(|| "300000000000000001".into()),
        at: at.parse::<Timestamp>().unwrap(),
        minutes: if kind == ActivityKind::Voice { 30 } else { 0 },
    }
}

/// (day as YYYY-MM-DD, messages, active members, voice minutes, joins, leaves), oldest first.
fn days(daemon: &TestDaemon, server: &str) -> Vec<(String, i64, i64, i64, i64, i64)> {
    let server = server.to_owned();
    daemon.sql(move |tx| {
        let mut stmt = tx.prepare(
            "SELECT day, messages, active_members, voice_minutes, joins, leaves
             FROM activity_days WHERE server_id = ?1 ORDER BY day",
        )?;
        let rows = stmt
            .query_map([server], |row| {
                Ok((
                    modctld::store::days::date(row.get(0)?).to_string(),
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    })
}

#[test]
fn recorded_events_wait_for_the_flush_then_count_once_on_the_servers_day() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.clock().set("2026-11-22T12:00:00Z".parse().unwrap());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"timezone": "America/New_York"}),
    );
    let activity = &daemon.state().activity;
    // 03:00 UTC on the 22nd is 22:00 on the 21st in New York.
    activity.record(event(
        ALPHA_DISCORD,
        Some("m1"),
        ActivityKind::Message,
        "u1",
        "2026-11-22T03:00:00Z",
    ));
    activity.record(event(
        ALPHA_DISCORD,
        Some("m2"),
        ActivityKind::Message,
        "u1",
        "2026-11-22T06:00:00Z",
    ));
    activity.record(event(
        ALPHA_DISCORD,
        Some("m2"),
        ActivityKind::Message,
        "u1",
        "2026-11-22T06:00:00Z",
    ));
    activity.record(event(
        ALPHA_DISCORD,
        None,
        ActivityKind::Voice,
        "u2",
        "2026-11-22T06:30:00Z",
    ));
    activity.record(event(
        ALPHA_DISCORD,
        None,
        ActivityKind::Join,
        "u3",
        "2026-11-22T07:00:00Z",
    ));
    activity.record(event(
        UNCLAIMED,
        None,
        ActivityKind::Message,
        "u9",
        "2026-11-22T07:00:00Z",
    ));
    assert_eq!(activity.pending(), 6);
    assert!(
        days(daemon, ALPHA_DISCORD).is_empty(),
        "nothing is written before the flush"
    );

    assert_eq!(
        daemon.flush_activity(),
        4,
        "the duplicate and the unclaimed server's event are not counted"
    );
    assert_eq!(activity.pending(), 0);
    assert_eq!(
        days(daemon, ALPHA_DISCORD),
        vec![
            ("2026-11-21".into(), 1, 1, 0, 0, 0),
            ("2026-11-22".into(), 1, 2, 30, 1, 0),
        ]
    );
    // The same event id again in a later flush still counts once.
    activity.record(event(
        ALPHA_DISCORD,
        Some("m1"),
        ActivityKind::Message,
        "u1",
        "2026-11-22T03:00:00Z",
    ));
    assert_eq!(daemon.flush_activity(), 0);
    assert_eq!(
        days(daemon, ALPHA_DISCORD)[0],
        ("2026-11-21".into(), 1, 1, 0, 0, 0)
    );
}

async fn post_batch(fixture: &Fixture, server: &str, body: serde_json::Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(fixture.daemon.api(&format!("/servers/{server}/activity")))
        .bearer_auth(&fixture.alpha_rw.full)
        .json(&body)
        .send()
        .await
        .expect("request")
}

async fn community(fixture: &Fixture, server: &str, days: u32) -> CommunityInsights {
    let response = reqwest::Client::new()
        .get(
            fixture
                .daemon
                .api(&format!("/servers/{server}/community-insights?days={days}")),
        )
        .bearer_auth(&fixture.alpha_ro.full)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("JSON")
}

fn msg(id: &str, user: &str, channel: &str, at: &str) -> serde_json::Value {
    json!({"id": id, "kind": "message", "user_id": user, "channel_id": channel, "at": at})
}

#[tokio::test]
async fn a_batch_with_one_bad_event_is_refused_whole_naming_it() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .clock()
        .set("2026-11-22T12:00:00Z".parse().unwrap());
    let good = msg("e1", "u1", "c1", "2026-11-22T10:00:00Z");
    let cases = [
        (
            json!({"id": "e2", "kind": "voice", "user_id": "u1", "channel_id": "c1", "at": "2026-11-22T10:00:00Z"}),
            "events[1] (id `e2`): a voice event needs minutes from 1 to 1440",
        ),
        (
            json!({"id": "e2", "kind": "message", "user_id": "u1", "at": "2026-11-22T10:00:00Z"}),
            "events[1] (id `e2`): a message event needs a channel_id",
        ),
        (
            json!({"id": "e2", "kind": "join", "user_id": "u1", "at": "2026-11-22T10:00:00Z", "minutes": 3}),
            "events[1] (id `e2`): minutes is only for voice events, not join",
        ),
        (
            msg("e2", "u1", "c1", "2024-01-01T00:00:00Z"),
            "events[1] (id `e2`): at 2024-01-01T00:00:00Z is older than the retention window of 400 days",
        ),
        (
            msg("e2", "u1", "c1", "2026-11-22T13:00:00Z"),
            "events[1] (id `e2`): at 2026-11-22T13:00:00Z is more than 15 minutes in the future",
        ),
        (
            msg("", "u1", "c1", "2026-11-22T10:00:00Z"),
            "events[1] (id ``): id must be 1 to 200 bytes",
        ),
    ];
    for (bad, expected) in cases {
        let response = post_batch(&fixture, ALPHA_DISCORD, json!({"events": [good, bad]})).await;
        let (status, message) = error_body(response).await;
        assert_eq!((status.as_u16(), message.as_str()), (400, expected));
    }
    let response = post_batch(&fixture, ALPHA_DISCORD, json!({"events": []})).await;
    assert_eq!(
        error_body(response).await.1,
        "events must hold 1 to 10000 events, got 0"
    );
    let too_many: Vec<_> = (0..10_001)
        .map(|i| msg(&format!("e{i}"), "u1", "c1", "2026-11-22T10:00:00Z"))
        .collect();
    let response = post_batch(&fixture, ALPHA_DISCORD, json!({"events": too_many})).await;
    assert_eq!(
        error_body(response).await.1,
        "events must hold 1 to 10000 events, got 10001"
    );
    let response = post_batch(
        &fixture,
        ALPHA_DISCORD,
        json!({"events": [{"id": "x", "kind": "shout"}]}),
    )
    .await;
    assert_eq!(error_body(response).await.0, 400);

    // Nothing of the refused batches was stored, not even the good event.
    let insights = community(&fixture, ALPHA_DISCORD, 1).await;
    assert_eq!(insights.totals.messages, 0);
    assert_eq!(insights.last_event_at, None);
    // A read key may not post.
    let response = reqwest::Client::new()
        .post(
            fixture
                .daemon
                .api(&format!("/servers/{ALPHA_DISCORD}/activity")),
        )
        .bearer_auth(&fixture.alpha_ro.full)
        .json(&json!({"events": [good]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn a_retried_batch_counts_once_and_survives_a_restart() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .clock()
        .set("2026-11-22T12:00:00Z".parse().unwrap());
    let events: Vec<_> = (0..5_000)
        .map(|i| {
            msg(
                &format!("m{i}"),
                &format!("u{}", i % 50),
                &format!("c{}", i % 3),
                "2026-11-22T10:00:00Z",
            )
        })
        .collect();
    let body = json!({"events": events});
    let receipt: BatchReceipt = post_batch(&fixture, ALPHA_DISCORD, body.clone())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        receipt,
        BatchReceipt {
            counted: 5_000,
            duplicates: 0
        }
    );
    let retried: BatchReceipt = post_batch(&fixture, ALPHA_DISCORD, body)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        retried,
        BatchReceipt {
            counted: 0,
            duplicates: 5_000
        }
    );
    // The same id twice in one batch counts once too.
    let twice = json!({"events": [msg("t", "u1", "c1", "2026-11-22T10:00:00Z"), msg("t", "u2", "c1", "2026-11-22T10:00:00Z")]});
    let receipt: BatchReceipt = post_batch(&fixture, ALPHA_DISCORD, twice)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        receipt,
        BatchReceipt {
            counted: 1,
            duplicates: 1
        }
    );
    // The same ids on another server are other events.
    let other = json!({"events": [msg("m0", "u1", "c1", "2026-11-22T10:00:00Z")]});
    let receipt: BatchReceipt = post_batch(&fixture, modctl_e2e::ALPHA_TELEGRAM, other)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(receipt.counted, 1);

    // Acknowledged means durable: a restart (no flush) keeps every event.
    let fixture = fixture.restart();
    let insights = community(&fixture, ALPHA_DISCORD, 1).await;
    assert_eq!(insights.totals.messages, 5_001);
    assert_eq!(insights.daily[0].active_members, 50);
    assert_eq!(insights.top_channels_by_messages.len(), 3);
    assert_eq!(
        insights.top_members_by_messages[0].count, 101,
        "u1: 100, and the id sent twice"
    );
    assert_eq!(
        insights.last_event_at,
        Some("2026-11-22T10:00:00Z".parse().unwrap())
    );
}

/// Batches posted at once are written together when they queue behind the
/// writer (`daemon/src/activity/batches.rs`): whichever way they are
/// grouped, each batch's receipt accounts for each of its events once, an
/// id is counted by exactly one of the batches holding it, and the rollups
/// and top lists hold each distinct event once.
#[tokio::test]
async fn batches_posted_at_once_count_every_distinct_event_once() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .clock()
        .set("2026-11-22T12:00:00Z".parse().unwrap());
    // Batch k holds ids k*1000 .. k*1000+1999: each overlaps the next by half.
    const BATCHES: u64 = 8;
    const SIZE: u64 = 2_000;
    let posts = (0..BATCHES).map(|k| {
        let events: Vec<_> = (k * 1_000..k * 1_000 + SIZE)
            .map(|i| {
                msg(
                    &format!("m{i}"),
                    &format!("u{}", i % 7),
                    "c1",
                    "2026-11-22T10:00:00Z",
                )
            })
            .collect();
        let fixture = &fixture;
        async move {
            let response = post_batch(fixture, ALPHA_DISCORD, json!({"events": events})).await;
            assert_eq!(response.status(), 200);
            response.json::<BatchReceipt>().await.unwrap()
        }
    });
    let receipts = futures_util::future::join_all(posts).await;
    let distinct = (BATCHES - 1) * 1_000 + SIZE;
    for receipt in &receipts {
        assert_eq!(receipt.counted + receipt.duplicates, SIZE, "{receipts:?}");
    }
    let counted: u64 = receipts.iter().map(|r| r.counted).sum();
    assert_eq!(counted, distinct, "{receipts:?}");

    let insights = community(&fixture, ALPHA_DISCORD, 1).await;
    assert_eq!(insights.totals.messages, distinct);
    // Ids i with i % 7 == u: members 0..=4 have one more than 5 and 6.
    let top = &insights.top_members_by_messages;
    let by_member = |u: u64| (0..distinct).filter(|i| i % 7 == u).count() as u64;
    assert_eq!(top.len(), 7, "{top:?}");
    for entry in top {
        let u: u64 = entry.id.trim_start_matches('u').parse().unwrap();
        assert_eq!(entry.count, by_member(u), "{top:?}");
    }
}

#[tokio::test]
async fn insights_list_every_day_of_the_window_with_zeros_and_the_change() {
    let fixture = Fixture::start();
    fixture
        .daemon
        .clock()
        .set("2026-11-22T12:00:00Z".parse().unwrap());
    let mut events = vec![
        msg("a", "u1", "c1", "2026-11-22T09:00:00Z"),
        msg("b", "u2", "c1", "2026-11-20T09:00:00Z"),
        msg("c", "u2", "c2", "2026-11-20T10:00:00Z"),
        json!({"id": "v", "kind": "voice", "user_id": "u3", "channel_id": "vc", "at": "2026-11-20T11:00:00Z", "minutes": 45}),
        json!({"id": "j", "kind": "join", "user_id": "u4", "at": "2026-11-19T11:00:00Z"}),
        // The period before a 7-day window: 2026-11-09 to 2026-11-15.
        msg("p1", "u1", "c1", "2026-11-15T09:00:00Z"),
        msg("p2", "u1", "c1", "2026-11-09T09:00:00Z"),
        // Before both: counts in neither.
        msg("old", "u1", "c1", "2026-11-08T09:00:00Z"),
    ];
    events.push(json!({"id": "l", "kind": "leave", "user_id": "u4", "at": "2026-11-21T11:00:00Z"}));
    let response = post_batch(&fixture, ALPHA_DISCORD, json!({"events": events})).await;
    assert_eq!(response.status(), 200);

    let insights = community(&fixture, ALPHA_DISCORD, 7).await;
    assert_eq!(insights.window.days, 7);
    assert_eq!(insights.window.from.to_string(), "2026-11-16");
    assert_eq!(insights.window.to.to_string(), "2026-11-22");
    assert_eq!(insights.window.timezone, "UTC");
    let daily: Vec<_> = insights
        .daily
        .iter()
        .map(|d| {
            (
                d.date.to_string(),
                d.messages,
                d.active_members,
                d.voice_minutes,
                d.joins,
                d.leaves,
            )
        })
        .collect();
    assert_eq!(
        daily,
        vec![
            ("2026-11-16".into(), 0, 0, 0, 0, 0),
            ("2026-11-17".into(), 0, 0, 0, 0, 0),
            ("2026-11-18".into(), 0, 0, 0, 0, 0),
            ("2026-11-19".into(), 0, 0, 0, 1, 0),
            ("2026-11-20".into(), 2, 2, 45, 0, 0),
            ("2026-11-21".into(), 0, 0, 0, 0, 1),
            ("2026-11-22".into(), 1, 1, 0, 0, 0),
        ]
    );
    assert_eq!(insights.totals.messages, 3);
    assert_eq!(insights.previous.messages, 2);
    assert_eq!(insights.change.messages, Some(50.0));
    assert_eq!(
        insights.change.voice_minutes, None,
        "nothing before: no percentage"
    );
    assert_eq!(insights.totals.average_active_members, 0.4);
    let ids = |list: &[Ranked]| {
        list.iter()
            .map(|r| (r.id.clone(), r.count))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ids(&insights.top_channels_by_messages),
        vec![("c1".into(), 2), ("c2".into(), 1)]
    );
    assert_eq!(
        ids(&insights.top_channels_by_voice),
        vec![("vc".into(), 45)]
    );
    assert_eq!(
        ids(&insights.top_members_by_messages),
        vec![("u2".into(), 2), ("u1".into(), 1)]
    );
    assert_eq!(ids(&insights.top_members_by_voice), vec![("u3".into(), 45)]);

    // One day: today only.
    let today = community(&fixture, ALPHA_DISCORD, 1).await;
    assert_eq!(today.daily.len(), 1);
    assert_eq!(today.window.from, today.window.to);
    // The longest window lists 365 days.
    assert_eq!(
        community(&fixture, ALPHA_DISCORD, 365).await.daily.len(),
        365
    );
}

#[tokio::test]
async fn days_out_of_range_or_not_an_integer_is_refused_with_the_range() {
    let fixture = Fixture::start();
    for path in ["insights", "community-insights"] {
        for bad in ["0", "366", "-1", "abc", "7.5", ""] {
            let response = reqwest::Client::new()
                .get(
                    fixture
                        .daemon
                        .api(&format!("/servers/{ALPHA_DISCORD}/{path}?days={bad}")),
                )
                .bearer_auth(&fixture.alpha_ro.full)
                .send()
                .await
                .unwrap();
            let (status, message) = error_body(response).await;
            assert_eq!(status, 400, "{path}?days={bad}");
            assert_eq!(
                message,
                format!("days must be an integer from 1 to 365, got `{bad}`")
            );
        }
        let response = reqwest::Client::new()
            .get(
                fixture
                    .daemon
                    .api(&format!("/servers/{ALPHA_DISCORD}/{path}")),
            )
            .bearer_auth(&fixture.alpha_ro.full)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["window"]["days"], 30, "default window");
        assert_eq!(body["daily"].as_array().unwrap().len(), 30);
    }
}

/// (per-member rows, remembered event ids, per-day rows) of the daemon.
fn row_counts(daemon: &TestDaemon) -> (i64, i64, i64) {
    daemon.sql(|tx| {
        let count = |table: &str| {
            tx.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| {
                row.get(0)
            })
        };
        Ok((
            count("activity_member_days")?,
            count("activity_seen")?,
            count("activity_days")?,
        ))
    })
}

#[test]
fn the_retention_worker_deletes_member_rows_and_ids_past_400_days_and_keeps_the_totals() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.clock().set("2026-11-22T12:00:00Z".parse().unwrap());
    let activity = &daemon.state().activity;
    activity.record(event(
        ALPHA_DISCORD,
        Some("old"),
        ActivityKind::Message,
        "u1",
        "2026-11-01T10:00:00Z",
    ));
    activity.record(event(
        ALPHA_DISCORD,
        Some("new"),
        ActivityKind::Message,
        "u2",
        "2026-11-22T10:00:00Z",
    ));
    assert_eq!(daemon.flush_activity(), 2);
    assert_eq!(row_counts(daemon), (2, 2, 2));

    // 400 days after the old event's day, plus the day of margin: only the
    // old event's rows are past the window.
    daemon.clock().set("2027-12-08T12:00:00Z".parse().unwrap());
    let state = daemon.state().clone();
    let pruned = daemon
        .block_on(modctld::activity::prune(&state.store, &state.clock))
        .unwrap();
    assert_eq!(pruned, 2, "the old member row and the old id");
    assert_eq!(row_counts(daemon), (1, 1, 2), "per-day totals are kept");

    // Its id forgotten, the old event would be refused as too old anyway.
    activity.record(event(
        ALPHA_DISCORD,
        Some("old"),
        ActivityKind::Message,
        "u1",
        "2026-11-01T10:00:00Z",
    ));
    assert_eq!(daemon.flush_activity(), 0);
}

#[tokio::test]
async fn today_turns_at_the_servers_midnight_on_the_clock() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"timezone": "Asia/Kolkata"}),
    );
    // 18:29 UTC is 23:59 in Kolkata (UTC+5:30).
    daemon.clock().set("2026-11-22T18:29:00Z".parse().unwrap());
    let batch = json!({"events": [msg("late", "u1", "c1", "2026-11-22T18:28:00Z")]});
    assert_eq!(
        post_batch(&fixture, ALPHA_DISCORD, batch).await.status(),
        200
    );
    let before = community(&fixture, ALPHA_DISCORD, 2).await;
    assert_eq!(before.window.timezone, "Asia/Kolkata");
    assert_eq!(before.window.to.to_string(), "2026-11-22");
    assert_eq!(before.daily[1].messages, 1);

    // Two minutes later it is the 23rd there: the message is yesterday's.
    daemon.clock().advance(std::time::Duration::from_secs(120));
    let batch = json!({"events": [msg("early", "u1", "c1", "2026-11-22T18:30:30Z")]});
    assert_eq!(
        post_batch(&fixture, ALPHA_DISCORD, batch).await.status(),
        200
    );
    let after = community(&fixture, ALPHA_DISCORD, 2).await;
    assert_eq!(after.window.to.to_string(), "2026-11-23");
    let daily: Vec<_> = after
        .daily
        .iter()
        .map(|d| (d.date.to_string(), d.messages, d.active_members))
        .collect();
    assert_eq!(
        daily,
        vec![("2026-11-22".into(), 1, 1), ("2026-11-23".into(), 1, 1)]
    );
}

#[tokio::test]
async fn a_teams_batches_count_their_plans_events_a_day_and_no_more() {
    use modctl_client::ErrorKind;
    use modctl_types::activity::{ActivityBatch, BatchEvent};

    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    // 18:00 UTC: six hours left of the day.
    daemon.clock().set("2026-11-22T18:00:00Z".parse().unwrap());
    let at: Timestamp = "2026-11-22T17:00:00Z".parse().unwrap();
    let batch = |first: usize, len: usize| ActivityBatch {
        events: (first..first + len)
            .map(|n| BatchEvent {
                id: format!("e{n}"),
                kind: ActivityKind::Join,
                user_id: format!("u{}", n % 50),
                channel_id: None,
                at,
                minutes: None,
            })
            .collect(),
    };
    // Beta is on free: 100,000 events a UTC day, over all its servers.
    let quota = modctld::plans::FREE.activity_events_per_day as usize;
    // (The SDK never waits out a Retry-After of hours.)
    let client = daemon.client(&fixture.beta_rw);
    let mut posted = 0;
    while posted < quota {
        let receipt = client
            .post_activity(modctl_e2e::BETA_DISCORD, &batch(posted, 10_000))
            .await
            .unwrap();
        assert_eq!(receipt.counted, 10_000);
        posted += 10_000;
    }
    // A batch is admitted by its size, before its ids are looked at: once
    // the day's events are counted, even one event is refused, with when to
    // come back, and nothing of it is counted.
    let error = client
        .post_activity(modctl_e2e::BETA_DISCORD, &batch(0, 1))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::RateLimited, "{error}");
    assert_eq!(
        error.retry_after(),
        Some(std::time::Duration::from_secs(6 * 3600))
    );
    assert!(
        error
            .to_string()
            .contains("100000 activity events a UTC day"),
        "{error}"
    );
    assert!(error.to_string().contains("set-plan beta pro"), "{error}");
    let refused = reqwest::Client::new()
        .post(daemon.api(&format!("/servers/{}/activity", modctl_e2e::BETA_DISCORD)))
        .bearer_auth(&fixture.beta_rw.full)
        .json(&batch(quota, 1))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.headers()["retry-after"], "21600");
    let (status, _) = error_body(refused).await;
    assert_eq!(status, 429);
    let joins = || {
        daemon.sql(|tx| {
            tx.query_row(
                "SELECT SUM(joins) FROM activity_days WHERE server_id = ?1",
                [modctl_e2e::BETA_DISCORD],
                |row| row.get::<_, i64>(0),
            )
        })
    };
    assert_eq!(joins(), quota as i64);
    // An operator may give the team more (`modctld team set-activity-quota`),
    // from its next batch.
    daemon.write(|tx| modctld::store::teams::set_activity_quota(tx, "beta", Some(100_001)));
    let receipt = client
        .post_activity(modctl_e2e::BETA_DISCORD, &batch(quota, 1))
        .await
        .unwrap();
    assert_eq!(receipt.counted, 1);
    daemon.write(|tx| modctld::store::teams::set_activity_quota(tx, "beta", None));

    // Another team's quota is its own.
    let alpha = daemon.client(&fixture.alpha_rw);
    assert_eq!(
        alpha
            .post_activity(ALPHA_DISCORD, &batch(0, 10))
            .await
            .unwrap()
            .counted,
        10
    );
    // The next UTC day, beta posts again.
    daemon.clock().set("2026-11-23T00:00:01Z".parse().unwrap());
    let receipt = client
        .post_activity(modctl_e2e::BETA_DISCORD, &batch(quota + 1, 1))
        .await
        .unwrap();
    assert_eq!(receipt.counted, 1);
}

/// A batch of `events` messages whose ids start with `tag`; every batch of
/// the same tag length and count has the same body length.
fn tagged_batch(tag: &str, events: usize) -> Vec<u8> {
    let events: Vec<_> = (0..events)
        .map(|i| msg(&format!("{tag}-{i:05}"), "u1", "c1", "2026-11-22T10:00:00Z"))
        .collect();
    serde_json::to_vec(&json!({ "events": events })).unwrap()
}

/// Posts `body` to `server` with `key`, giving up (failing the test) after
/// a while: a batch the budget does not refuse waits for the held writer.
async fn post_raw(
    daemon: &TestDaemon,
    server: &str,
    key: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    reqwest::Client::builder()
        .timeout(modctl_e2e::NETWORK_DEADLINE)
        .build()
        .unwrap()
        .post(daemon.api(&format!("/servers/{server}/activity")))
        .bearer_auth(key)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("an answer before the deadline")
}

/// Waits until the batches in flight hold `bytes` of the budget.
async fn in_flight(daemon: &TestDaemon, bytes: usize) {
    let budget = &daemon.state().activity_budget;
    let deadline = std::time::Instant::now() + modctl_e2e::NETWORK_DEADLINE;
    while budget.in_flight_bytes() != bytes {
        assert!(
            std::time::Instant::now() < deadline,
            "{} bytes in flight, waiting for {bytes}",
            budget.in_flight_bytes()
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Issue #22: activity batches hold at most the memory budget from before
/// their body is read until they are written. The budget here is two and a
/// half batches, a team's share one and a half, and the writer is held so
/// that the batches let in stay in flight: alpha's first batch and beta's
/// are let in; alpha's second finds its team's share full (429), gamma's
/// the daemon's budget full (503), each after the short wait, with
/// `Retry-After`, and neither counts anything. Once the writer goes on the
/// two let in are counted, and the refused ones, posted again, count whole:
/// none of their ids had been remembered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_beyond_the_memory_budget_are_refused_with_retry_after_and_change_nothing() {
    use modctld::activity::budget::BatchBudget;
    const EVENTS: usize = 40;
    let bodies = ["a1", "a2", "b1", "g1"].map(|tag| tagged_batch(tag, EVENTS));
    let size = bodies[0].len();
    assert!(bodies.iter().all(|b| b.len() == size));
    let budget = BatchBudget::with_team_share(
        2 * size + size / 2,
        size + size / 2,
        std::time::Duration::from_millis(200),
    );
    let fixture = std::sync::Arc::new(Fixture::seed(TestDaemon::start_with_batch_budget(budget)));
    let daemon = &fixture.daemon;
    daemon.clock().set("2026-11-22T12:00:00Z".parse().unwrap());
    const GAMMA_DISCORD: &str = "300000000000000003";
    daemon.team("gamma", modctl_types::Plan::Pro);
    daemon.claim(
        "gamma",
        modctl_types::Platform::Discord,
        GAMMA_DISCORD,
        "Gamma Guild",
    );
    let gamma_rw = daemon.key("gamma", modctl_types::Scope::Write);
    let [a1, a2, b1, g1] = bodies;
    let (alpha, beta, gamma) = (
        fixture.alpha_rw.full.clone(),
        fixture.beta_rw.full.clone(),
        gamma_rw.full.clone(),
    );
    // Each key's first use is recorded by a write: done now, not behind
    // the held writer.
    for key in [&alpha, &beta, &gamma] {
        let me = reqwest::Client::new()
            .get(daemon.api("/me"))
            .bearer_auth(key)
            .send()
            .await
            .unwrap();
        assert_eq!(me.status(), 200);
    }

    // Hold the writer until released.
    let (started, has_started) = std::sync::mpsc::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let held = daemon.store().write(move |_tx| {
        started.send(()).unwrap();
        released.recv().unwrap();
        Ok::<_, modctld::store::StoreError>(())
    });
    let held = tokio::spawn(held);
    has_started.recv().unwrap();

    let post = |server: &'static str, key: &String, body: &Vec<u8>| {
        let (fixture, key, body) = (fixture.clone(), key.clone(), body.clone());
        async move { post_raw(&fixture.daemon, server, &key, body).await }
    };
    let first_alpha = tokio::spawn(post(ALPHA_DISCORD, &alpha, &a1));
    in_flight(daemon, size).await;
    let first_beta = tokio::spawn(post(BETA_DISCORD, &beta, &b1));
    in_flight(daemon, 2 * size).await;

    let refused = [
        (post(ALPHA_DISCORD, &alpha, &a2).await, 429, "your team's"),
        (
            post(GAMMA_DISCORD, &gamma, &g1).await,
            503,
            "the daemon is holding",
        ),
    ];
    for (response, status, says) in refused {
        let retry_after = response
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_owned());
        let (got, message) = error_body(response).await;
        assert_eq!(got, status, "{message}");
        assert!(message.contains(says), "{message}");
        assert!(
            message.contains("nothing of this batch was counted"),
            "{message}"
        );
        let retry_after: u64 = retry_after.expect("Retry-After").parse().unwrap();
        assert!(retry_after >= 1);
    }
    assert_eq!(
        daemon.state().activity_budget.in_flight_bytes(),
        2 * size,
        "the refused batches hold nothing"
    );

    release.send(()).unwrap();
    held.await.unwrap().unwrap();
    for posted in [first_alpha, first_beta] {
        let response = posted.await.unwrap();
        assert_eq!(response.status(), 200);
        let receipt: BatchReceipt = response.json().await.unwrap();
        assert_eq!((receipt.counted, receipt.duplicates), (EVENTS as u64, 0));
    }
    assert_eq!(daemon.state().activity_budget.in_flight_bytes(), 0);
    assert_eq!(days(daemon, ALPHA_DISCORD).len(), 1);
    assert_eq!(days(daemon, ALPHA_DISCORD)[0].1, EVENTS as i64);
    assert!(days(daemon, GAMMA_DISCORD).is_empty());

    // Posted again, the refused batches count whole.
    for (server, key, body) in [(ALPHA_DISCORD, &alpha, &a2), (GAMMA_DISCORD, &gamma, &g1)] {
        let response = post(server, key, body).await;
        assert_eq!(response.status(), 200);
        let receipt: BatchReceipt = response.json().await.unwrap();
        assert_eq!(
            (receipt.counted, receipt.duplicates),
            (EVENTS as u64, 0),
            "{server}"
        );
    }
    assert_eq!(days(daemon, ALPHA_DISCORD)[0].1, 2 * EVENTS as i64);
}
