//! Times as the store keeps them: TEXT, RFC 3339 in UTC to the second
//! (`2026-11-20T19:00:00Z`), on both engines, so comparing text compares times. The same
//! text every output writes ([`rfc3339`]); imported times are normalised ([`normalised`]).

use chrono::{DateTime, NaiveDate, SecondsFormat, SubsecRound, Utc};
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Type};

/// `2026-11-20T19:00:00Z`: UTC, fractions dropped.
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The UTC day of `t`, `YYYY-MM-DD`.
pub fn day(t: DateTime<Utc>) -> String {
    let mut text = rfc3339(t);
    text.truncate(10);
    text
}

/// RFC 3339 with any offset or fraction, to UTC seconds. Errors: not RFC 3339.
pub fn normalised(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    DateTime::parse_from_rfc3339(text).map(|t| t.with_timezone(&Utc).trunc_subsecs(0))
}

/// The first instant of `day` in UTC (a day's bound in the history's date filters).
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

/// A time read from TEXT on either engine (`#[sqlx(try_from = "StoredTime")]`): sqlx reads
/// `DateTime` from SQLite TEXT but wants `timestamptz` on PostgreSQL. Errors: not RFC 3339.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredTime(pub DateTime<Utc>);

/// A nullable [`StoredTime`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaybeStoredTime(pub Option<DateTime<Utc>>);

impl From<StoredTime> for DateTime<Utc> {
    fn from(t: StoredTime) -> DateTime<Utc> {
        t.0
    }
}

impl From<MaybeStoredTime> for Option<DateTime<Utc>> {
    fn from(t: MaybeStoredTime) -> Option<DateTime<Utc>> {
        t.0
    }
}

/// Both are read as text: sqlx checks the column against `str`'s type, on either engine.
macro_rules! read_as_text {
    ($($name:ident),*) => {$(
        impl<DB: Database> Type<DB> for $name
        where
            str: Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <str as Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <str as Type<DB>>::compatible(ty)
            }
        }
    )*};
}

read_as_text!(StoredTime, MaybeStoredTime);

impl<'r, DB: Database> Decode<'r, DB> for StoredTime
where
    &'r str: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<StoredTime, BoxDynError> {
        let text = <&'r str as Decode<'r, DB>>::decode(value)?;
        Ok(StoredTime(
            DateTime::parse_from_rfc3339(text)?.with_timezone(&Utc),
        ))
    }
}

impl<'r, DB: Database> Decode<'r, DB> for MaybeStoredTime
where
    &'r str: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<MaybeStoredTime, BoxDynError> {
        if sqlx::ValueRef::is_null(&value) {
            return Ok(MaybeStoredTime(None));
        }
        let StoredTime(t) = <StoredTime as Decode<'r, DB>>::decode(value)?;
        Ok(MaybeStoredTime(Some(t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_text_is_utc_to_the_second_and_sorts_as_the_times_do() {
        let t = DateTime::parse_from_rfc3339("2026-11-20T20:00:00.750+01:00").unwrap();
        assert_eq!(rfc3339(t.with_timezone(&Utc)), "2026-11-20T19:00:00Z");
        let d = NaiveDate::from_ymd_opt(2026, 3, 9).unwrap();
        assert_eq!(rfc3339(day_start(d)), "2026-03-09T00:00:00Z");
        let (a, b) = (day_start(d), day_start(d.succ_opt().unwrap()));
        assert!(a < b && rfc3339(a) < rfc3339(b));
        assert_eq!(day(a), "2026-03-09");
    }

    #[test]
    fn an_imported_time_is_brought_to_utc_and_to_the_second() {
        let t = normalised("2026-11-20T20:00:00.750+01:00").unwrap();
        assert_eq!(rfc3339(t), "2026-11-20T19:00:00Z");
        let utc = "2026-12-06T03:40:35Z";
        assert_eq!(rfc3339(normalised(utc).unwrap()), utc);
        assert_eq!(
            rfc3339(normalised("2026-12-06T03:40:35+00:00").unwrap()),
            utc
        );
        assert!(normalised("2026-12-06 03:40").is_err());
    }
}
