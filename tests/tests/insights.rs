//! Moderation insights (issue #12): the cases rollup, written with the
//! cases, read back by `GET /insights`, checked against the cases listed by
//! `GET /cases` across a day boundary of the server's time zone.

use std::collections::BTreeMap;
use std::time::Duration;

use modctl_e2e::{ALPHA_DISCORD, Fixture};
use modctl_types::config::SectionName;
use modctl_types::moderation::{Action, ActionRequest};
use modctld::operator::demo::discord_members::{ADA, ALICE, BOB};
use serde_json::json;

/// Cases, applied, by action, by source.
type DayCounts = (u64, u64, BTreeMap<String, u64>, BTreeMap<String, u64>);

#[tokio::test]
async fn the_cases_rollup_matches_the_cases_across_a_time_zone_midnight() {
    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    // 23:30 in Tokyo (UTC+9) on the 22nd.
    daemon.clock().set("2026-11-22T14:30:00Z".parse().unwrap());
    daemon.set_config(
        ALPHA_DISCORD,
        SectionName::General,
        json!({"timezone": "Asia/Tokyo"}),
    );
    let client = daemon.client(&fixture.alpha_rw);
    let act = |action: Action, user: &str| {
        let client = client.clone();
        let request = ActionRequest {
            user_id: user.into(),
            reason: Some("test".into()),
            ..Default::default()
        };
        async move { client.perform_action(ALPHA_DISCORD, action, &request).await }
    };
    act(Action::Warn, ALICE).await.unwrap();
    act(Action::Warn, ALICE).await.unwrap();
    act(Action::Ban, BOB).await.unwrap();
    // Above the bot: recorded, not applied.
    let refused = act(Action::Kick, ADA).await;
    // An hour later it is the 23rd in Tokyo (still the 22nd in UTC).
    daemon.clock().advance(Duration::from_secs(3600));
    // The third strike escalates (the default ladder: a timeout).
    let third = act(Action::Warn, ALICE).await.unwrap();
    assert!(
        third.escalation.is_some(),
        "the ladder escalated: {third:?}"
    );
    act(Action::Unban, BOB).await.unwrap();

    let cases = client.all_cases(ALPHA_DISCORD, None).await.unwrap();
    assert!(
        cases.len() >= 6,
        "{} cases (kick refused: {refused:?})",
        cases.len()
    );
    let tokyo = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap();
    // What the rollup should say, computed from the cases themselves.
    let mut by_day: BTreeMap<String, DayCounts> = BTreeMap::new();
    let mut actors: BTreeMap<String, u64> = BTreeMap::new();
    let mut targets: BTreeMap<String, u64> = BTreeMap::new();
    for case in &cases {
        let date = case.created_at.to_zoned(tokyo.clone()).date().to_string();
        let day = by_day.entry(date).or_default();
        day.0 += 1;
        day.1 += u64::from(case.applied);
        *day.2.entry(case.action.as_str().to_owned()).or_default() += 1;
        *day.3.entry(case.source.as_str().to_owned()).or_default() += 1;
        *actors.entry(case.actor.clone()).or_default() += 1;
        *targets.entry(case.user_id.clone()).or_default() += 1;
    }
    assert_eq!(
        by_day.keys().cloned().collect::<Vec<_>>(),
        ["2026-11-22", "2026-11-23"],
        "the cases fall on both sides of Tokyo's midnight"
    );

    let insights = daemon
        .client(&fixture.alpha_ro)
        .insights(ALPHA_DISCORD, Some(3))
        .await
        .unwrap();
    assert_eq!(insights.window.timezone, "Asia/Tokyo");
    assert_eq!(insights.window.from.to_string(), "2026-11-21");
    assert_eq!(insights.window.to.to_string(), "2026-11-23");
    let got: BTreeMap<String, DayCounts> = insights
        .daily
        .iter()
        .filter(|d| d.cases > 0)
        .map(|d| {
            assert_eq!(d.applied + d.not_applied, d.cases);
            (
                d.date.to_string(),
                (d.cases, d.applied, d.by_action.clone(), d.by_source.clone()),
            )
        })
        .collect();
    assert_eq!(got, by_day);
    assert_eq!(insights.daily[0].cases, 0, "the 21st: listed, with zeros");
    assert_eq!(insights.totals.cases, cases.len() as u64);
    assert_eq!(
        insights.totals.escalations,
        by_day
            .values()
            .map(|d| d.3.get("escalation").copied().unwrap_or(0))
            .sum::<u64>()
    );
    assert!(insights.totals.escalations >= 1);
    let moderators: Vec<(String, u64)> = insights
        .top_moderators
        .iter()
        .map(|r| (r.id.clone(), r.count))
        .collect();
    let mut expected_moderators: Vec<(String, u64)> = actors.into_iter().collect();
    expected_moderators.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(moderators, expected_moderators);
    let repeat: Vec<(String, u64)> = insights
        .top_repeat_targets
        .iter()
        .map(|r| (r.id.clone(), r.count))
        .collect();
    let mut expected_repeat: Vec<(String, u64)> =
        targets.into_iter().filter(|t| t.1 >= 2).collect();
    expected_repeat.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(repeat, expected_repeat);
    let strikes = client.strikes(ALPHA_DISCORD).await.unwrap();
    assert_eq!(
        insights.active_strikes,
        strikes.iter().map(|s| u64::from(s.active)).sum::<u64>()
    );
    assert_eq!(insights.previous_cases, 0);
    assert_eq!(insights.change, None);

    // Tomorrow the window moves: a 1-day window holds nothing yet.
    daemon.clock().advance(Duration::from_secs(86_400));
    let later = client.insights(ALPHA_DISCORD, Some(1)).await.unwrap();
    assert_eq!(later.totals.cases, 0);
    assert_eq!(later.previous_cases, by_day["2026-11-23"].0);
}

/// Issue #27: the top moderators carry their key's display name beside the
/// key id, the name the key has now (a rename shows at once); a key without
/// a name carries none.
#[tokio::test]
async fn top_moderators_show_their_keys_display_name() {
    use modctl_types::auth::Scope;

    let fixture = Fixture::simulated();
    let daemon = &fixture.daemon;
    let mia = daemon.named_key("alpha", Scope::Write, "Mia");
    let warn = |user: &str| ActionRequest {
        user_id: user.into(),
        reason: Some("test".into()),
        ..Default::default()
    };
    let as_mia = daemon.client(&mia);
    for user in [ALICE, BOB] {
        as_mia
            .perform_action(ALPHA_DISCORD, Action::Warn, &warn(user))
            .await
            .unwrap();
    }
    let client = daemon.client(&fixture.alpha_rw);
    client
        .perform_action(ALPHA_DISCORD, Action::Warn, &warn(ALICE))
        .await
        .unwrap();
    let top = |insights: modctl_types::activity::ModerationInsights| -> Vec<(String, u64, Option<String>)> {
        insights
            .top_moderators
            .into_iter()
            .map(|r| (r.id, r.count, r.name))
            .collect()
    };
    let insights = client.insights(ALPHA_DISCORD, Some(1)).await.unwrap();
    assert_eq!(
        top(insights),
        [
            (format!("key:{}", mia.key_id), 2, Some("Mia".to_owned())),
            (format!("key:{}", fixture.alpha_rw.key_id), 1, None),
        ]
    );
    let key_id = mia.key_id.clone();
    daemon.write(move |tx| modctld::store::keys::rename(tx, &key_id, Some("Mia R.")));
    let insights = client.insights(ALPHA_DISCORD, Some(1)).await.unwrap();
    assert_eq!(top(insights)[0].2.as_deref(), Some("Mia R."));
}
