//! The insights rollups of an older modctld migrated: from V14 (a row per
//! day, action and source; no running totals) to V15, the cases per day read
//! as they did, the top lists come from the totals the migration sums, and
//! the strikes in force from the expiry rollup it builds; from V17 to V18,
//! the members' totals of the default window start a month back.

use modctl_types::activity::Ranked;

use super::ranking::{self, ACTORS, CHANNELS, MEMBERS, MEMBERS_RECENT, TARGETS};
use super::*;

const SERVER: &str = "123456789012345678";
/// Unix seconds at noon of day 20,000 (2024-10-04).
const NOON: i64 = 20_000 * 86_400 + 43_200;

/// A V14 database: cases, activity and strikes on days 19,999 and 20,000.
fn write_v14_rollups(db: &std::path::Path) {
    let mut conn = rusqlite::Connection::open(db).unwrap();
    configure(&conn, Role::Writer).unwrap();
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(14))
        .run(&mut conn)
        .unwrap();
    conn.execute_batch(&format!(
        "PRAGMA foreign_keys = OFF;
         INSERT INTO teams (id, name, plan, created_at) VALUES (1, 'alpha', 'pro', 0);
         INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{SERVER}', 1, 'discord', 'G', 0);
         INSERT INTO case_days (server_id, day, action, source, cases, applied) VALUES
             ('{SERVER}', 19999, 'warn', 'api', 3, 2),
             ('{SERVER}', 19999, 'timeout', 'escalation', 1, 1),
             ('{SERVER}', 20000, 'ban', 'api', 2, 2);
         INSERT INTO case_target_days (server_id, day, user_id, cases) VALUES
             ('{SERVER}', 19999, 'u1', 3), ('{SERVER}', 19999, 'u2', 1),
             ('{SERVER}', 20000, 'u1', 1), ('{SERVER}', 20000, 'u2', 1);
         INSERT INTO case_actor_days (server_id, day, actor, cases) VALUES
             ('{SERVER}', 19999, 'mod-a', 4), ('{SERVER}', 20000, 'mod-b', 2);
         INSERT INTO activity_member_days (server_id, day, user_id, messages, voice_minutes) VALUES
             ('{SERVER}', 19999, 'm1', 5, 10), ('{SERVER}', 19999, 'm2', 7, 0),
             ('{SERVER}', 20000, 'm1', 1, 0);
         INSERT INTO activity_channel_days (server_id, day, channel_id, messages, voice_minutes) VALUES
             ('{SERVER}', 19999, 'c1', 12, 10), ('{SERVER}', 20000, 'c2', 1, 0);
         INSERT INTO strikes (server_id, user_id, case_id, weight, created_at, expires_at) VALUES
             ('{SERVER}', 'u1', 1, 1, 0, NULL),
             ('{SERVER}', 'u1', 2, 2, 0, {NOON} + 3600),
             ('{SERVER}', 'u2', 3, 1, 0, {NOON} + 86400),
             ('{SERVER}', 'u2', 4, 5, 0, {NOON} - 60);"
    ))
    .unwrap();
}

fn ranked(list: &[(&str, u64)]) -> Vec<Ranked> {
    list.iter()
        .map(|(id, count)| Ranked {
            id: (*id).into(),
            count: *count,
            name: None,
        })
        .collect()
}

#[tokio::test]
async fn older_rollups_read_the_same_after_v15() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    write_v14_rollups(&db);
    let store = Store::open(&db).await.unwrap();

    let (rollup, lists, strikes) = store
        .read(|tx| {
            let both = (19_999, 20_000);
            let top = |ranking, count, window, min| {
                let list = ranking::TopList {
                    ranking,
                    count,
                    server_id: SERVER,
                    window,
                    min,
                };
                ranking::top(tx, &list)
            };
            let lists = [
                top(TARGETS, "cases", both, 2)?,
                top(ACTORS, "cases", both, 1)?,
                top(MEMBERS, "messages", both, 1)?,
                top(MEMBERS, "voice_minutes", both, 1)?,
                top(CHANNELS, "messages", (20_000, 20_000), 1)?,
            ];
            Ok::<_, StoreError>((
                case_rollup::read(tx, SERVER, 19_999, 20_000)?,
                lists,
                cases::strikes_in_force(tx, SERVER, NOON)?,
            ))
        })
        .await
        .unwrap();

    let day = |i: usize| {
        let d = &rollup.daily[i];
        (d.cases, d.applied, d.by_action.clone(), d.by_source.clone())
    };
    let map = |pairs: &[(&str, u64)]| {
        pairs
            .iter()
            .map(|(k, n)| ((*k).to_owned(), *n))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(
        day(0),
        (
            4,
            3,
            map(&[("timeout", 1), ("warn", 3)]),
            map(&[("api", 3), ("escalation", 1)])
        )
    );
    assert_eq!(day(1), (2, 2, map(&[("ban", 2)]), map(&[("api", 2)])));
    assert_eq!(rollup.totals.escalations, 1);
    assert_eq!(
        lists,
        [
            ranked(&[("u1", 4), ("u2", 2)]),
            ranked(&[("mod-a", 4), ("mod-b", 2)]),
            ranked(&[("m2", 7), ("m1", 6)]),
            ranked(&[("m1", 10)]),
            ranked(&[("c2", 1)]),
        ]
    );
    // At noon: the strike without end, the two ending later; not the one
    // that ended a minute ago.
    assert_eq!(strikes, 1 + 2 + 1);
}

/// A V17 database's members, migrated to V18: the default window's totals
/// hold the days from 32 UTC days back, so the month's list is read from
/// them; the worker then moves their start to the server's own day.
#[tokio::test]
async fn member_activity_of_the_last_month_is_in_the_recent_totals_after_v18() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let today = crate::clock::Clock::system().now_unix().div_euclid(86_400);
    {
        let mut conn = rusqlite::Connection::open(&db).unwrap();
        configure(&conn, Role::Writer).unwrap();
        embedded::migrations::runner()
            .set_target(refinery::Target::Version(17))
            .run(&mut conn)
            .unwrap();
        // m1 is the month's most active, m2 the year's (40 days ago); m3's
        // day is in the 32 days V18 sums, not in the 30 the worker keeps.
        let old = today - 40;
        let recent = today - 10;
        let edge = today - 31;
        conn.execute_batch(&format!(
            "PRAGMA foreign_keys = OFF;
             INSERT INTO teams (id, name, plan, created_at) VALUES (1, 'alpha', 'pro', 0);
             INSERT INTO servers (id, team_id, platform, name, claimed_at) VALUES ('{SERVER}', 1, 'discord', 'G', 0);
             INSERT INTO activity_member_days (server_id, day, user_id, messages, voice_minutes) VALUES
                 ('{SERVER}', {old}, 'm2', 50, 0), ('{SERVER}', {recent}, 'm2', 1, 0),
                 ('{SERVER}', {recent}, 'm1', 3, 4), ('{SERVER}', {today}, 'm1', 2, 0),
                 ('{SERVER}', {edge}, 'm3', 9, 0);
             INSERT INTO activity_member_totals (server_id, user_id, messages, voice_minutes) VALUES
                 ('{SERVER}', 'm2', 51, 0), ('{SERVER}', 'm1', 5, 4), ('{SERVER}', 'm3', 9, 0);"
        ))
        .unwrap();
    }
    let store = Store::open(&db).await.unwrap();
    let lists = |store: Store| async move {
        store
            .read(move |tx| {
                let top = |ranking, count, days: i64| {
                    let list = ranking::TopList {
                        ranking,
                        count,
                        server_id: SERVER,
                        window: (today - days + 1, today),
                        min: 1,
                    };
                    ranking::top(tx, &list)
                };
                Ok::<_, StoreError>([
                    top(MEMBERS_RECENT, "messages", 30)?,
                    top(MEMBERS_RECENT, "voice_minutes", 30)?,
                    top(MEMBERS_RECENT, "messages", 7)?,
                    top(MEMBERS, "messages", 365)?,
                ])
            })
            .await
            .unwrap()
    };
    let expected = [
        ranked(&[("m1", 5), ("m2", 1)]),
        ranked(&[("m1", 4)]),
        ranked(&[("m1", 2)]),
        ranked(&[("m2", 51), ("m3", 9), ("m1", 5)]),
    ];
    assert_eq!(lists(store.clone()).await, expected);
    let recent: Vec<(String, i64)> = store
        .read(|tx| {
            let mut stmt = tx.sql.prepare(
                "SELECT user_id, messages FROM activity_member_recent_totals ORDER BY user_id",
            )?;
            let rows = stmt.rows([], |row| Ok((row.get("user_id")?, row.get("messages")?)))?;
            Ok::<_, StoreError>(rows)
        })
        .await
        .unwrap();
    assert_eq!(
        recent,
        [
            ("m1".to_owned(), 5),
            ("m2".to_owned(), 1),
            ("m3".to_owned(), 9)
        ],
        "from 32 days back: not the day 40 days back"
    );

    // The worker (UTC server) moves the start to today - 29, subtracting
    // m3's day: the same lists, from totals that are now exact.
    store
        .write(move |tx| ranking::advance(tx, |_, _| Ok(today)))
        .await
        .unwrap();
    assert_eq!(lists(store.clone()).await, expected);
    let in_totals: Vec<String> = store
        .read(|tx| {
            let mut stmt = tx
                .sql
                .prepare("SELECT user_id FROM activity_member_recent_totals ORDER BY user_id")?;
            let rows = stmt.rows([], crate::store::scalar)?;
            Ok::<_, StoreError>(rows)
        })
        .await
        .unwrap();
    assert_eq!(in_totals, ["m1", "m2"], "m3's total reached zero and went");
}
