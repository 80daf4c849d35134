//! "Now" for every command: the system clock, or the instant in `WILDT_NOW`
//! (RFC 3339) so tests — and an organiser replaying a postal game's dates —
//! need not wait for days. [IO: reads the environment and the system clock]
//!
//! Every place that reads the time calls [`now_secs`]; nothing else asks the
//! system clock.

use crate::clock::Date;

/// The variable naming the instant every command takes as now.
pub const ENV: &str = "WILDT_NOW";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "WILDT_NOW={0:?} is not an RFC 3339 instant (like 2026-12-20T09:30:00Z or 2026-12-20T10:30:00+01:00)"
)]
pub struct NowError(pub String);

/// Seconds since the Unix epoch: `WILDT_NOW` when set (and valid), else the
/// system clock. [`check_env`] at start-up refuses an invalid `WILDT_NOW`,
/// so it is never silently ignored.
pub fn now_secs() -> i64 {
    if let Some(Ok(t)) = std::env::var(ENV).ok().map(|v| parse_rfc3339(&v)) {
        return t;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Refuses a set but unreadable `WILDT_NOW`.
pub fn check_env() -> Result<(), NowError> {
    match std::env::var(ENV) {
        Ok(v) => parse_rfc3339(&v).map(|_| ()),
        Err(_) => Ok(()),
    }
}

/// Reads `2026-12-20T09:30:00Z`, `2026-12-20 09:30:00+01:00`, with optional
/// fractional seconds (dropped), into Unix seconds. [pure]
pub fn parse_rfc3339(text: &str) -> Result<i64, NowError> {
    let bad = || NowError(text.to_owned());
    let t = text.trim();
    if t.len() < 20 || !t.is_char_boundary(10) || !t.is_char_boundary(11) {
        return Err(bad());
    }
    let date: Date = t[..10].parse().map_err(|_| bad())?;
    if !matches!(&t[10..11], "T" | "t" | " ") || t.as_bytes().get(4) != Some(&b'-') {
        return Err(bad());
    }
    let rest = &t[11..];
    let two = |s: &str| -> Result<i64, NowError> {
        if s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().map_err(|_| bad())
        } else {
            Err(bad())
        }
    };
    if rest.len() < 9 || &rest[2..3] != ":" || &rest[5..6] != ":" {
        return Err(bad());
    }
    let (h, m, s) = (two(&rest[..2])?, two(&rest[3..5])?, two(&rest[6..8])?);
    if h > 23 || m > 59 || s > 60 {
        return Err(bad());
    }
    let mut zone = &rest[8..];
    if let Some(frac) = zone.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(bad());
        }
        zone = &frac[digits..];
    }
    let offset = match zone {
        "Z" | "z" => 0,
        z if z.len() == 6 && (z.starts_with('+') || z.starts_with('-')) && &z[3..4] == ":" => {
            let secs = two(&z[1..3])? * 3600 + two(&z[4..6])? * 60;
            if z.starts_with('-') { -secs } else { secs }
        }
        _ => return Err(bad()),
    };
    Ok(date.start() + h * 3600 + m * 60 + s - offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_and_offset_instants_are_read_to_the_same_second() {
        let z = parse_rfc3339("2026-12-20T09:30:00Z").unwrap();
        assert_eq!(
            z,
            Date::from_ymd(2026, 12, 20).unwrap().start() + 9 * 3600 + 1800
        );
        assert_eq!(parse_rfc3339("2026-12-20T10:30:00+01:00"), Ok(z));
        assert_eq!(parse_rfc3339("2026-12-20T09:30:00.250Z"), Ok(z));
        assert_eq!(parse_rfc3339("2026-12-20 04:30:00-05:00"), Ok(z));
    }

    #[test]
    fn instants_without_zone_or_with_bad_fields_are_refused() {
        for bad in [
            "2026-12-20T09:30:00",
            "2026-12-20",
            "20.12.2026T09:30:00Z",
            "2026-12-20T24:00:00Z",
            "2026-12-20T09:30:00+1:00",
            "2026-02-30T09:30:00Z",
            "soon",
        ] {
            assert!(parse_rfc3339(bad).is_err(), "{bad} was read");
        }
    }
}
