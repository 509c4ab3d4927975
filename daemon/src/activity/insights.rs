//! The two insights answers, read from the rollups in one read transaction
//! each: community activity ([`community`]) and moderation ([`moderation`]).
//!
//! Both cover every day of a window ending today in the server's time zone
//! and compare it with the period of the same length before it; their cost
//! depends on the window (rows per day), never on how many events or cases
//! were ever counted.

use modctl_types::activity::{
    ActivityChange, ActivityDay, ActivityTotals, CommunityInsights, ModerationInsights, Ranked,
    Window,
};

use crate::store::activity as rollups;
use crate::store::days::{self, DayFinder};
use crate::store::{StoreError, Tx, timestamp};
use crate::store::{case_rollup, cases, jails, keys, ranking, teams};

/// The window of `days` days ending today (at `now`) in the server's zone,
/// as day numbers `(from, to)`, and its wire form.
fn window(
    tx: &Tx<'_>,
    server_id: &str,
    days_wanted: u32,
    now: i64,
) -> Result<(i64, i64, Window), StoreError> {
    let mut finder = DayFinder::new(days::server_timezone(tx, server_id)?);
    let to = finder.today(now);
    let from = to - i64::from(days_wanted) + 1;
    let window = Window {
        days: days_wanted,
        from: days::date(from),
        to: days::date(to),
        timezone: finder.tz().iana_name().unwrap_or("UTC").to_owned(),
    };
    Ok((from, to, window))
}

/// `GET /servers/{id}/community-insights?days=`.
pub fn community(
    tx: &Tx<'_>,
    server_id: &str,
    days_wanted: u32,
    now: i64,
) -> Result<CommunityInsights, StoreError> {
    let (from, to, window) = window(tx, server_id, days_wanted, now)?;
    let len = i64::from(days_wanted);
    let mut daily: Vec<ActivityDay> = (from..=to)
        .map(|day| ActivityDay {
            date: days::date(day),
            messages: 0,
            active_members: 0,
            voice_minutes: 0,
            joins: 0,
            leaves: 0,
        })
        .collect();
    let mut previous = Sums::default();
    for stored in rollups::days_between(tx, server_id, from - len, to)? {
        let day = stored.day;
        let found = ActivityDay {
            date: days::date(day),
            messages: stored.messages,
            active_members: stored.active_members,
            voice_minutes: stored.voice_minutes,
            joins: stored.joins,
            leaves: stored.leaves,
        };
        if day < from {
            previous.add(&found);
        } else if let Some(slot) = daily.get_mut((day - from) as usize) {
            *slot = found;
        }
    }
    let mut current = Sums::default();
    daily.iter().for_each(|day| current.add(day));
    let (totals, previous) = (current.totals(len), previous.totals(len));

    let window_days = (from, to);
    let top = |ranking, count| {
        let list = ranking::TopList {
            ranking,
            count,
            server_id,
            window: window_days,
            min: 1,
        };
        ranking::top(tx, &list)
    };
    let (channels_by_messages, channels_by_voice) = (
        top(ranking::CHANNELS, "messages")?,
        top(ranking::CHANNELS, "voice_minutes")?,
    );
    let members = ranking::members_for(to - from + 1);
    let (members_by_messages, members_by_voice) =
        (top(members, "messages")?, top(members, "voice_minutes")?);
    let last = rollups::last_event(tx, server_id)?;
    Ok(CommunityInsights {
        server_id: server_id.to_owned(),
        window,
        daily,
        change: ActivityChange {
            messages: change(totals.messages as f64, previous.messages as f64),
            average_active_members: change(
                totals.average_active_members,
                previous.average_active_members,
            ),
            voice_minutes: change(totals.voice_minutes as f64, previous.voice_minutes as f64),
            joins: change(totals.joins as f64, previous.joins as f64),
            leaves: change(totals.leaves as f64, previous.leaves as f64),
        },
        totals,
        previous,
        top_channels_by_messages: channels_by_messages,
        top_channels_by_voice: channels_by_voice,
        top_members_by_messages: members_by_messages,
        top_members_by_voice: members_by_voice,
        last_event_at: last.map(|(at, _)| timestamp(at)),
        last_received_at: last.map(|(_, at)| timestamp(at)),
    })
}

/// `GET /servers/{id}/insights?days=`.
pub fn moderation(
    tx: &Tx<'_>,
    server_id: &str,
    days_wanted: u32,
    now: i64,
) -> Result<ModerationInsights, StoreError> {
    let (from, to, window) = window(tx, server_id, days_wanted, now)?;
    let rollup = case_rollup::read(tx, server_id, from, to)?;
    let active_strikes = cases::strikes_in_force(tx, server_id, now)?;
    let active_jails = jails::count(tx, server_id)?;
    let mut top_moderators = rollup.top_moderators;
    name_moderators(tx, server_id, &mut top_moderators)?;
    Ok(ModerationInsights {
        server_id: server_id.to_owned(),
        window,
        change: change(rollup.totals.cases as f64, rollup.previous_cases as f64),
        daily: rollup.daily,
        totals: rollup.totals,
        previous_cases: rollup.previous_cases,
        top_moderators,
        top_repeat_targets: rollup.top_repeat_targets,
        active_strikes,
        active_jails,
    })
}

/// Puts each top moderator's key display name beside its `key:<key_id>`
/// (issue #27): the key's name now, as `modctl` shows the key, not the one
/// a case was recorded with. Only a key of the server's own team is named
/// (a server claimed again by another team keeps its cases' actors).
fn name_moderators(
    tx: &Tx<'_>,
    server_id: &str,
    moderators: &mut [Ranked],
) -> Result<(), StoreError> {
    if moderators.is_empty() {
        return Ok(());
    }
    let team = teams::of_server(tx, server_id)?;
    for moderator in moderators {
        let Some(key_id) = moderator.id.strip_prefix("key:") else {
            continue;
        };
        moderator.name = keys::get(tx, key_id)?
            .filter(|key| key.team_id == team.id)
            .and_then(|key| key.name);
    }
    Ok(())
}

#[derive(Debug, Default)]
struct Sums {
    messages: u64,
    active_member_days: u64,
    voice_minutes: u64,
    joins: u64,
    leaves: u64,
}

impl Sums {
    fn add(&mut self, day: &ActivityDay) {
        self.messages += day.messages;
        self.active_member_days += day.active_members;
        self.voice_minutes += day.voice_minutes;
        self.joins += day.joins;
        self.leaves += day.leaves;
    }

    fn totals(&self, days: i64) -> ActivityTotals {
        ActivityTotals {
            messages: self.messages,
            average_active_members: one_decimal(self.active_member_days as f64 / days as f64),
            voice_minutes: self.voice_minutes,
            joins: self.joins,
            leaves: self.leaves,
        }
    }
}

/// Percent change from `before` to `now`, one decimal; `None` from 0.
fn change(now: f64, before: f64) -> Option<f64> {
    (before > 0.0).then(|| one_decimal((now - before) / before * 100.0))
}

fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
