//! Times as the store keeps them: TEXT holding RFC 3339 in UTC to the second
//! (`2026-11-20T19:00:00Z`), in both engines, so that comparing the text in SQL compares
//! the times. The service works with `chrono` values and hands them to the store, which
//! writes this text only where it binds them.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

/// The stored text of `t`: `2026-11-20T19:00:00Z` (fractions of a second dropped).
pub fn stored(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The first instant of `day` in UTC (a day's bound in the history's date filters).
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_text_is_utc_to_the_second_and_sorts_as_the_times_do() {
        let t = DateTime::parse_from_rfc3339("2026-11-20T20:00:00.750+01:00").unwrap();
        assert_eq!(stored(t.with_timezone(&Utc)), "2026-11-20T19:00:00Z");
        let day = NaiveDate::from_ymd_opt(2026, 3, 9).unwrap();
        assert_eq!(stored(day_start(day)), "2026-03-09T00:00:00Z");
        let (a, b) = (day_start(day), day_start(day.succ_opt().unwrap()));
        assert!(a < b && stored(a) < stored(b));
    }
}
