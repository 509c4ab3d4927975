//! Days of the rollups: civil dates in a server's time zone, stored as days
//! since 1970-01-01.
//!
//! Converting a timestamp to a zoned date costs a time-zone lookup; an
//! ingestion batch converts every event, and most events of a batch fall on
//! the same day or two. [`DayFinder`] remembers the span of the last day it
//! found, so an event inside it costs two comparisons.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

use super::{StoreError, Tx, config};

/// 1970-01-01, day 0.
const EPOCH: Date = Date::constant(1970, 1, 1);

/// The day number of `date`.
pub fn number(date: Date) -> i64 {
    // Days since the epoch: a span in days, never with larger units.
    i64::from(
        date.since(EPOCH)
            .expect("a civil date is within jiff's span range of 1970")
            .get_days(),
    )
}

/// The date of day `day`; saturates at jiff's limits.
pub fn date(day: i64) -> Date {
    EPOCH
        .checked_add(day.days())
        .unwrap_or(if day < 0 { Date::MIN } else { Date::MAX })
}

/// Finds the day of timestamps in one time zone.
#[derive(Debug, Clone)]
pub struct DayFinder {
    tz: TimeZone,
    /// The last day found: its number and its span `[start, end)` in seconds.
    cached: Option<(i64, i64, i64)>,
}

impl DayFinder {
    /// A finder for `tz`.
    pub fn new(tz: TimeZone) -> DayFinder {
        DayFinder { tz, cached: None }
    }

    /// The time zone.
    pub fn tz(&self) -> &TimeZone {
        &self.tz
    }

    /// The day (number) of `at`, unix seconds, in the time zone.
    pub fn day(&mut self, at: i64) -> i64 {
        if let Some((day, start, end)) = self.cached
            && (start..end).contains(&at)
        {
            return day;
        }
        let ts = Timestamp::from_second(at).unwrap_or(Timestamp::UNIX_EPOCH);
        let date = ts.to_zoned(self.tz.clone()).date();
        let day = number(date);
        if let (Some(start), Ok(tomorrow)) = (self.start_of(date), date.tomorrow())
            && let Some(end) = self.start_of(tomorrow)
        {
            self.cached = Some((day, start, end));
        }
        day
    }

    /// The day of now, by `now` unix seconds.
    pub fn today(&mut self, now: i64) -> i64 {
        self.day(now)
    }

    /// Unix seconds at which `date` starts in the time zone.
    fn start_of(&self, date: Date) -> Option<i64> {
        date.to_zoned(self.tz.clone())
            .ok()
            .map(|z| z.timestamp().as_second())
    }
}

/// The time zone of a server's rollups: its `general.timezone`, UTC when
/// never set (or, for a hand-edited database, not a known zone).
pub fn server_timezone(tx: &Tx<'_>, server_id: &str) -> Result<TimeZone, StoreError> {
    let name = config::general_section(tx, server_id)?
        .and_then(|json| serde_json::from_str::<modctl_types::config::General>(&json).ok())
        .map(|general| general.timezone);
    Ok(name
        .and_then(|name| TimeZone::get(&name).ok())
        .unwrap_or(TimeZone::UTC))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_round_trip_and_follow_the_zone() {
        assert_eq!(number(EPOCH), 0);
        assert_eq!(
            date(number(Date::constant(2026, 11, 22))),
            Date::constant(2026, 11, 22)
        );
        let mut berlin = DayFinder::new(TimeZone::get("Europe/Berlin").unwrap());
        let mut utc = DayFinder::new(TimeZone::UTC);
        // 23:30 UTC on the 21st is 00:30 on the 22nd in Berlin (UTC+1).
        let at: Timestamp = "2026-11-21T23:30:00Z".parse().unwrap();
        assert_eq!(
            utc.day(at.as_second()),
            number(Date::constant(2026, 11, 21))
        );
        assert_eq!(
            berlin.day(at.as_second()),
            number(Date::constant(2026, 11, 22))
        );
        // The cached span answers the same as a fresh lookup at its edges.
        let before: Timestamp = "2026-11-21T22:59:59Z".parse().unwrap();
        assert_eq!(
            berlin.day(before.as_second()),
            number(Date::constant(2026, 11, 21))
        );
        let start: Timestamp = "2026-11-21T23:00:00Z".parse().unwrap();
        assert_eq!(
            berlin.day(start.as_second()),
            number(Date::constant(2026, 11, 22))
        );
    }
}
