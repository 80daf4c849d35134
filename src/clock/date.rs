//! Calendar dates for leave periods: whole days of the proleptic Gregorian
//! calendar in UTC, converted to and from Unix seconds. [pure: no IO]
//!
//! Written by hand (Howard Hinnant's civil-date algorithms, a dozen lines)
//! rather than pulling in a date crate: the clock needs nothing but "which UTC
//! day is this instant" and "when does this day start".

use std::fmt;
use std::str::FromStr;

/// Seconds in one day of reflection, and in one calendar day (UTC has no DST).
pub const DAY_SECS: i64 = 86_400;

/// One calendar day in UTC. Ordered by time; `Display` is ISO 8601
/// (`2026-12-20`); `FromStr` reads ISO (`2026-12-20`) and day-first European
/// dates (`20.12.2026`, `20/12/2026`), the years 1 to 9999.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Days since 1970-01-01.
    days: i64,
}

/// Why a text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    #[error("`{0}` is not a date: write 2026-12-20 or 20.12.2026")]
    Malformed(String),
    #[error("{year:04}-{month:02}-{day:02} is not a day of the calendar")]
    NoSuchDay { year: i32, month: u32, day: u32 },
}

impl Date {
    /// The date `year-month-day`, or `None` if there is no such day (or the
    /// year is outside 1..=9999).
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Date> {
        if !(1..=9999).contains(&year) || !(1..=12).contains(&month) {
            return None;
        }
        if day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date {
            days: days_from_civil(i64::from(year), i64::from(month), i64::from(day)),
        })
    }

    /// The UTC day in which the instant `unix_secs` falls.
    pub fn of_instant(unix_secs: i64) -> Date {
        Date {
            days: unix_secs.div_euclid(DAY_SECS),
        }
    }

    /// The first second of this day (00:00:00 UTC), in Unix seconds.
    pub fn start(self) -> i64 {
        self.days * DAY_SECS
    }

    /// `(year, month, day)`.
    pub fn ymd(self) -> (i32, u32, u32) {
        let (y, m, d) = civil_from_days(self.days);
        // In range by construction: every Date comes from from_ymd or an
        // instant, and the arithmetic below keeps years within i32.
        (y as i32, m as u32, d as u32)
    }

    /// The calendar year.
    pub fn year(self) -> i32 {
        self.ymd().0
    }

    /// This date moved by `days` (negative goes back).
    pub fn add_days(self, days: i64) -> Date {
        Date {
            days: self.days + days,
        }
    }

    /// Days from `self` to `later` (negative if `later` is earlier).
    pub fn days_until(self, later: Date) -> i64 {
        later.days - self.days
    }

    /// 1 January of `year`.
    pub fn first_of_year(year: i32) -> Option<Date> {
        Date::from_ymd(year, 1, 1)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

impl FromStr for Date {
    type Err = DateError;

    fn from_str(s: &str) -> Result<Date, DateError> {
        let text = s.trim();
        let malformed = || DateError::Malformed(text.to_owned());
        let (year, month, day) = if let Some(parts) = split3(text, '-') {
            // ISO: exactly four digits of year first.
            if parts[0].len() != 4 || parts[1].len() != 2 || parts[2].len() != 2 {
                return Err(malformed());
            }
            (parts[0], parts[1], parts[2])
        } else if let Some(parts) = split3(text, '.').or_else(|| split3(text, '/')) {
            if parts[0].len() > 2 || parts[1].len() > 2 || parts[2].len() != 4 {
                return Err(malformed());
            }
            (parts[2], parts[1], parts[0])
        } else {
            return Err(malformed());
        };
        let num = |p: &str| -> Result<u32, DateError> {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            p.parse().map_err(|_| malformed())
        };
        let (y, m, d) = (num(year)?, num(month)?, num(day)?);
        // Four digits at most, so the year fits an i32.
        let y = y as i32;
        Date::from_ymd(y, m, d).ok_or(DateError::NoSuchDay {
            year: y,
            month: m,
            day: d,
        })
    }
}

fn split3(text: &str, sep: char) -> Option<[&str; 3]> {
    let mut it = text.split(sep);
    let parts = [it.next()?, it.next()?, it.next()?];
    match it.next() {
        Some(_) => None,
        None => Some(parts),
    }
}

fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Days in `month` (1–12) of `year`.
pub(crate) fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn unix_epoch_is_1970_01_01() {
        assert_eq!(Date::from_ymd(1970, 1, 1).unwrap().start(), 0);
        assert_eq!(Date::of_instant(-1).to_string(), "1969-12-31");
    }

    #[test]
    fn known_instant_falls_on_its_utc_day() {
        // 2026-12-20T23:59:59Z and the next second.
        let t = d("2026-12-20").start() + DAY_SECS - 1;
        assert_eq!(Date::of_instant(t).to_string(), "2026-12-20");
        assert_eq!(Date::of_instant(t + 1).to_string(), "2026-12-21");
        // 2026-11-24T00:00:00Z is 1_795_478_400.
        assert_eq!(d("2026-11-24").start(), 1_795_478_400);
    }

    #[test]
    fn european_and_iso_forms_read_the_same_day() {
        assert_eq!(d("20.12.2026"), d("2026-12-20"));
        assert_eq!(d("20/12/2026"), d("2026-12-20"));
        assert_eq!(d("3.1.2027"), d("2027-01-03"));
    }

    #[test]
    fn impossible_days_are_named() {
        assert_eq!(
            "31.02.2026".parse::<Date>(),
            Err(DateError::NoSuchDay {
                year: 2026,
                month: 2,
                day: 31
            })
        );
        assert_eq!(
            "29.02.2028".parse::<Date>().map(|x| x.to_string()),
            Ok("2028-02-29".into())
        );
        assert_eq!(
            "2026-1-3".parse::<Date>(),
            Err(DateError::Malformed("2026-1-3".into()))
        );
        assert_eq!(
            "20.12.26".parse::<Date>(),
            Err(DateError::Malformed("20.12.26".into()))
        );
    }

    proptest! {
        #[test]
        fn every_day_round_trips_through_its_iso_text(days in -700_000i64..2_900_000) {
            let date = Date { days };
            let back: Date = date.to_string().parse().unwrap();
            prop_assert_eq!(back, date);
            prop_assert_eq!(date.add_days(1).days_until(date), -1);
        }
    }
}
