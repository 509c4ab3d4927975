//! The insights rollups of an older modctld (schema V14: a row per day,
//! action and source; no running totals) migrated to V15: the cases per day
//! read as they did, the top lists come from the totals the migration sums,
//! and the strikes in force from the expiry rollup it builds.

use modctl_types::activity::Ranked;

use super::ranking::{self, ACTORS, CHANNELS, MEMBERS, TARGETS};
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
