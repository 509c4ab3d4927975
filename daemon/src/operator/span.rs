//! Spans of time on the command line: a whole number of minutes, hours or
//! days (`30m`, `6h`, `90d`), as `--backup-every`, `key rotate --grace`
//! and `key create --expires` take them.

use std::time::Duration;

const MINUTE: u64 = 60;
const HOUR: u64 = 3600;
const DAY: u64 = 86_400;

/// `text` as a span from `min` to `max` seconds, or what to type instead.
fn parse(text: &str, min: u64, max: u64) -> Result<Duration, String> {
    let hint = "give it as minutes, hours or days, e.g. 30m, 6h or 90d";
    let split = text.len().saturating_sub(1);
    let (number, unit) = (
        text.get(..split).unwrap_or(""),
        text.get(split..).unwrap_or(""),
    );
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a span of time: {hint}"))?;
    let seconds = match unit {
        "m" => n.saturating_mul(MINUTE),
        "h" => n.saturating_mul(HOUR),
        "d" => n.saturating_mul(DAY),
        _ => return Err(format!("`{text}` has no unit: {hint}")),
    };
    if !(min..=max).contains(&seconds) {
        return Err(format!(
            "`{text}` is out of range: from {} to {}",
            show(min),
            show(max)
        ));
    }
    Ok(Duration::from_secs(seconds))
}

/// A span in its largest whole unit.
fn show(seconds: u64) -> String {
    match seconds {
        0 => "0m".to_owned(),
        s if s % DAY == 0 => format!("{}d", s / DAY),
        s if s % HOUR == 0 => format!("{}h", s / HOUR),
        s => format!("{}m", s / MINUTE),
    }
}

/// `serve --backup-every`: 1 minute to 30 days.
pub(super) fn backup_every(text: &str) -> Result<Duration, String> {
    parse(text, MINUTE, 30 * DAY)
}

/// `key rotate --grace`: how long the old key stays valid, 0 (it stops at
/// once) to 30 days.
pub(super) fn grace(text: &str) -> Result<Duration, String> {
    parse(text, 0, 30 * DAY)
}

/// `key create --expires`, `key rotate --expires`: 1 hour to 10 years.
pub(super) fn expires(text: &str) -> Result<Duration, String> {
    parse(text, HOUR, 3650 * DAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_minutes_hours_or_days_within_each_option_s_bounds() {
        assert_eq!(backup_every("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(backup_every("6h"), Ok(Duration::from_secs(6 * 3600)));
        assert_eq!(expires("90d"), Ok(Duration::from_secs(90 * 86_400)));
        assert_eq!(grace("0m"), Ok(Duration::ZERO));
        for bad in ["", "6", "h", "6x", "-1h", "0m", "31d", "1.5h", "6 h"] {
            assert!(backup_every(bad).is_err(), "{bad}");
        }
        assert_eq!(
            backup_every("31d").unwrap_err(),
            "`31d` is out of range: from 1m to 30d"
        );
        assert_eq!(
            expires("30m").unwrap_err(),
            "`30m` is out of range: from 1h to 3650d"
        );
        assert!(grace("24h").is_ok());
    }
}
