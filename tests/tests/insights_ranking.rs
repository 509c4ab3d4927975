//! The insights' top lists (issue #12), read from running totals
//! (`daemon/src/store/ranking.rs`), checked against lists computed here from
//! everything that was posted: for windows of every length, before the
//! retention worker first narrows the totals to a year, after it, after the
//! clock moved on and it subtracted the days that left the year, and after
//! the server's time zone moved its today behind the totals' first day.

use std::collections::BTreeMap;
use std::time::Duration;

use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::activity::{ActivityBatch, ActivityKind, BatchEvent, CommunityInsights, Ranked};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use modctld::operator::demo::discord_members::{ALICE, BOB, MODERATOR};
use serde_json::json;

const DAY: i64 = 86_400;
const WINDOWS: [u32; 7] = [1, 2, 7, 30, 90, 200, 365];

/// A small deterministic generator (the test must not depend on a seed file).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    /// Skewed towards 0: a few very active members, a long tail.
    fn skewed(&mut self, n: u64) -> u64 {
        let a = self.below(n);
        self.below(a + 1)
    }
}

/// One posted event, as the expected lists count it.
struct Posted {
    day: i64,
    user: String,
    channel: String,
    messages: u64,
    minutes: u64,
}

/// The top ten of `counts` (zeros left out), most first, ties by id.
fn top_of(counts: BTreeMap<String, u64>, min: u64) -> Vec<Ranked> {
    let mut all: Vec<(String, u64)> = counts.into_iter().filter(|(_, n)| *n >= min).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(10);
    all.into_iter()
        .map(|(id, count)| Ranked {
            id,
            count,
            name: None,
        })
        .collect()
}

/// The four community lists over days `from..=to`, computed from `posted`.
fn expected(posted: &[Posted], from: i64, to: i64) -> [Vec<Ranked>; 4] {
    let mut sums: [BTreeMap<String, u64>; 4] = Default::default();
    for p in posted.iter().filter(|p| (from..=to).contains(&p.day)) {
        *sums[0].entry(p.channel.clone()).or_default() += p.messages;
        *sums[1].entry(p.channel.clone()).or_default() += p.minutes;
        *sums[2].entry(p.user.clone()).or_default() += p.messages;
        *sums[3].entry(p.user.clone()).or_default() += p.minutes;
    }
    sums.map(|s| top_of(s, 1))
}

async fn community(fixture: &Fixture, days: u32) -> CommunityInsights {
    fixture
        .daemon
        .client(&fixture.alpha_ro)
        .community_insights(ALPHA_DISCORD, Some(days))
        .await
        .expect("community insights")
}

/// Checks every window's four lists against `posted`, today being `today`.
async fn check_community(fixture: &Fixture, posted: &[Posted], today: i64, when: &str) {
    for days in WINDOWS {
        let got = community(fixture, days).await;
        let from = today - i64::from(days) + 1;
        let want = expected(posted, from, today);
        let lists = [
            &got.top_channels_by_messages,
            &got.top_channels_by_voice,
            &got.top_members_by_messages,
            &got.top_members_by_voice,
        ];
        for (i, (got, want)) in lists.into_iter().zip(&want).enumerate() {
            assert_eq!(got, want, "{when}: list {i} of days={days}");
        }
        assert!(!want[2].is_empty(), "{when}: days={days} has activity");
    }
}

/// Posts `events` through the SDK.
async fn post(fixture: &Fixture, events: Vec<BatchEvent>) {
    fixture
        .daemon
        .client(&fixture.alpha_rw)
        .post_activity(ALPHA_DISCORD, &ActivityBatch { events })
        .await
        .expect("batch counted");
}

/// Posts `n` events spread over the `span` days before `now`, remembering
/// them in `posted`.
async fn post_events(
    fixture: &Fixture,
    rng: &mut Lcg,
    posted: &mut Vec<Posted>,
    (now, span, n): (i64, i64, usize),
) {
    let mut events = Vec::new();
    for _ in 0..n {
        let at = now - 1 - rng.below((span * DAY) as u64) as i64;
        let user = format!("5{:017}", rng.skewed(60));
        let channel = format!("7{:017}", rng.skewed(8));
        let voice = rng.below(5) == 0;
        let minutes = if voice { 1 + rng.below(90) } else { 0 };
        events.push(BatchEvent {
            id: format!("e{}", posted.len()),
            kind: if voice {
                ActivityKind::Voice
            } else {
                ActivityKind::Message
            },
            user_id: user.clone(),
            channel_id: Some(channel.clone()),
            at: jiff::Timestamp::from_second(at).unwrap(),
            minutes: voice.then_some(minutes as u32),
        });
        posted.push(Posted {
            day: at.div_euclid(DAY),
            user,
            channel,
            messages: u64::from(!voice),
            minutes,
        });
    }
    post(fixture, events).await;
}

#[tokio::test]
async fn community_top_lists_are_exact_for_every_window_as_the_year_moves() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let start = "2026-11-22T12:00:00Z".parse::<jiff::Timestamp>().unwrap();
    daemon.clock().set(start);
    let now = start.as_second();
    let mut rng = Lcg(7);
    let mut posted = Vec::new();
    // 398 days: some before the year the totals will keep.
    post_events(&fixture, &mut rng, &mut posted, (now, 398, 6000)).await;
    let today = now.div_euclid(DAY);

    // No window start yet: the totals hold every day, a bound for each window.
    check_community(&fixture, &posted, today, "before the worker").await;
    // The worker narrows them to the year: the year is read from the totals.
    daemon.tick_workers();
    check_community(&fixture, &posted, today, "narrowed to the year").await;
    // Late rows between the year's start and the month's (today - 29): in
    // the year's totals, not the month's. A member with many messages 45
    // days back, one with many the day before the month and one the month's
    // first day would top a month listed from totals that took them in.
    let late = [
        ("588888888888888888", today - 45, 300),
        ("577777777777777777", today - 30, 200),
        ("577777777777777777", today - 29, 1),
        ("566666666666666666", today - 29, 3),
    ];
    let mut events = Vec::new();
    for (user, day, n) in late {
        for i in 0..n {
            events.push(BatchEvent {
                id: format!("late-{user}-{day}-{i}"),
                kind: ActivityKind::Message,
                user_id: user.into(),
                channel_id: Some("788888888888888888".into()),
                at: jiff::Timestamp::from_second(day * DAY + 43_200 + i).unwrap(),
                minutes: None,
            });
            posted.push(Posted {
                day,
                user: user.into(),
                channel: "788888888888888888".into(),
                messages: 1,
                minutes: 0,
            });
        }
    }
    post(&fixture, events).await;
    check_community(
        &fixture,
        &posted,
        today,
        "late rows around the month's start",
    )
    .await;

    // Three days on: the days leaving the year are subtracted, new ones added.
    daemon.clock().advance(Duration::from_secs(3 * DAY as u64));
    let now = now + 3 * DAY;
    post_events(&fixture, &mut rng, &mut posted, (now, 4, 500)).await;
    check_community(&fixture, &posted, today + 3, "moved, before the worker").await;
    daemon.tick_workers();
    check_community(&fixture, &posted, today + 3, "moved, after the worker").await;

    // 02:00 UTC is the day before in Los Angeles: the year now starts a day
    // before the totals do, and the lists are summed from the day rows (the
    // rows keep the days they were counted on, in UTC).
    let today = today + 3;
    daemon
        .clock()
        .set(jiff::Timestamp::from_second(today * DAY + 2 * 3600).unwrap());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"timezone": "America/Los_Angeles"}),
    );
    // A member whose only messages are on the day before the totals' first
    // day (`today - 364`): no total at all, yet first in Los Angeles's year.
    let early_day = today - 365;
    let events = (0..2000)
        .map(|i| BatchEvent {
            id: format!("early{i}"),
            kind: ActivityKind::Message,
            user_id: "599999999999999999".into(),
            channel_id: Some("799999999999999999".into()),
            at: jiff::Timestamp::from_second(early_day * DAY + 43_200 + i).unwrap(),
            minutes: None,
        })
        .collect();
    post(&fixture, events).await;
    posted.extend((0..2000).map(|_| Posted {
        day: early_day,
        user: "599999999999999999".into(),
        channel: "799999999999999999".into(),
        messages: 1,
        minutes: 0,
    }));
    let year = community(&fixture, 365).await;
    assert_eq!(
        year.top_members_by_messages[0],
        Ranked {
            id: "599999999999999999".into(),
            count: 2000,
            name: None,
        }
    );
    check_community(&fixture, &posted, today - 1, "a zone behind the totals").await;
    daemon.tick_workers();
    check_community(
        &fixture,
        &posted,
        today - 1,
        "a zone behind, after the worker",
    )
    .await;
}

#[tokio::test]
async fn moderation_top_lists_are_exact_for_every_window_as_the_year_moves() {
    let fixture = Fixture::start();
    let daemon = &fixture.daemon;
    let start = "2026-11-22T12:00:00Z".parse::<jiff::Timestamp>().unwrap();
    let client = daemon.client(&fixture.alpha_rw);
    let mut rng = Lcg(11);
    // Notes on skewed members, a batch every 20 days of the last 400.
    for step in 0..21 {
        let at = start.as_second() - (400 - 20 * step) * DAY;
        daemon
            .clock()
            .set(jiff::Timestamp::from_second(at).unwrap());
        for _ in 0..(3 + rng.below(6)) {
            let request = ActionRequest {
                user_id: format!("5{:017}", rng.skewed(25)),
                reason: Some("ranking".into()),
                ..Default::default()
            };
            client
                .perform_action(ALPHA_DISCORD, Action::Note, &request)
                .await
                .expect("note");
        }
    }
    daemon.clock().set(start);
    let cases = client.all_cases(ALPHA_DISCORD, None).await.unwrap();
    let check = |today: i64, when: &'static str| {
        let client = daemon.client(&fixture.alpha_ro);
        let cases = &cases;
        async move {
            for days in WINDOWS {
                let from = today - i64::from(days) + 1;
                let (mut targets, mut actors) = (BTreeMap::new(), BTreeMap::new());
                for case in cases {
                    let day = case.created_at.as_second().div_euclid(DAY);
                    if (from..=today).contains(&day) {
                        *targets.entry(case.user_id.clone()).or_default() += 1;
                        *actors.entry(case.actor.clone()).or_default() += 1;
                    }
                }
                let got = client.insights(ALPHA_DISCORD, Some(days)).await.unwrap();
                assert_eq!(
                    got.top_repeat_targets,
                    top_of(targets, 2),
                    "{when}: days={days}"
                );
                assert_eq!(got.top_moderators, top_of(actors, 1), "{when}: days={days}");
            }
        }
    };
    let today = start.as_second().div_euclid(DAY);
    check(today, "before the worker").await;
    daemon.tick_workers();
    check(today, "narrowed to the year").await;
    daemon.clock().advance(Duration::from_secs(45 * DAY as u64));
    daemon.tick_workers();
    check(today + 45, "45 days on").await;
}

#[tokio::test]
async fn strikes_in_force_follow_the_clock_through_the_day_they_end() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    let client = daemon.client(&fixture.alpha_rw);
    let reader = daemon.client(&fixture.alpha_ro);
    let warn = |user: &'static str| {
        let client = client.clone();
        async move {
            let request = ActionRequest {
                user_id: user.into(),
                reason: Some("strikes".into()),
                ..Default::default()
            };
            client
                .perform_action(ALPHA_DISCORD, Action::Warn, &request)
                .await
                .expect("warn");
        }
    };
    // A strike without end, then strikes ending a day after they were given.
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"expiry_days": 0}),
    );
    daemon.clock().set("2026-11-22T20:00:00Z".parse().unwrap());
    warn(MODERATOR).await;
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::Strikes,
        json!({"expiry_days": 1}),
    );
    warn(ALICE).await;
    warn(BOB).await;
    // In force as `GET /strikes` counts them, at each moment.
    let check = |at: &'static str, want: u64| {
        let (reader, clock) = (reader.clone(), daemon.clock());
        async move {
            clock.set(at.parse().unwrap());
            let insights = reader.insights(ALPHA_DISCORD, Some(1)).await.unwrap();
            let strikes = reader.strikes(ALPHA_DISCORD).await.unwrap();
            let listed = strikes.iter().map(|s| u64::from(s.active)).sum::<u64>();
            assert_eq!((insights.active_strikes, listed), (want, want), "at {at}");
        }
    };
    check("2026-11-22T20:00:01Z", 3).await;
    // The day the two end: still in force until 20:00.
    check("2026-11-23T19:59:59Z", 3).await;
    check("2026-11-23T20:00:01Z", 1).await;
    check("2026-11-30T00:00:00Z", 1).await;
}
