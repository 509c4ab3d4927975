//! Community activity (issue #12) end to end: events recorded by the
//! receivers and flushed on the clock, batches posted to the API, the
//! rollups they land in and the community insights read from them. No test
//! sleeps: the clock is set and the flush worker driven by hand.

use modctl_e2e::{ALPHA_DISCORD, Fixture, TestDaemon, UNCLAIMED};
use modctl_types::Timestamp;
use modctl_types::activity::ActivityKind;
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
    daemon.write(move |tx| {
        let mut stmt = tx.prepare(
            "SELECT day, messages, active_members, voice_minutes, joins, leaves
             FROM activity_days WHERE server_id = ?1 ORDER BY day",
        )?;
        let rows = stmt
            .query_map([server], |row| {
                Ok((
                    modctld::activity::days::date(row.get(0)?).to_string(),
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
