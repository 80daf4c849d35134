//! Reads a leave announcement, or its cancellation, from one line a player
//! wrote, in the languages of the command keywords. [pure: no IO]
//!
//! The caller hands over lines of what the player wrote *now* (quotes and
//! signatures already removed). A line is about leave when it has a leave word
//! (`leave`, `Urlaub`, `congé`, `vacaciones`, `ferie`, `verlof`, `férias`,
//! `urlop`, `dovolená`, `отпуск`, …, inflected forms included); it takes leave
//! when it also has exactly two dates, the first day and the last (both
//! included), and cancels when it has a cancel word (`cancel`, `stornieren`,
//! `annuler`, `cancelar`, `annulla`, `annuleren`, `anuluj`, `zrušit`,
//! `отменить`, …). Dates are ISO (`2026-12-20`) or day first
//! (`20.12.2026`, `20/12/2026`, `20-12-2026`); a slash date is always read day
//! first, as everywhere but in the USA. The words between (`from`, `to`,
//! `bis`, `du … au`, `od … do`, `с … по`) are not needed, so any language
//! reads the same way.

use super::date::Date;

/// What a line asks about leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveRequest {
    /// Take leave from `from` to `to`, both days included (not yet validated:
    /// see [`super::decide_leave`]).
    Take { from: Date, to: Date },
    /// Cancel a leave: the one starting on (or running on) `from` when a date
    /// was given, else the current or next one (see [`super::cancel_leave`]).
    Cancel { from: Option<Date> },
    /// A leave word with dates that cannot be read: ask the player.
    Unclear(LeaveTextProblem),
}

/// Why a line about leave cannot be acted on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveTextProblem {
    /// This looks like a date but is no day of the calendar (`31.02.2027`).
    NoSuchDate(String),
    /// Only one date: both the first and the last day are needed.
    OneDate(Date),
    /// More than two dates: which is the leave?
    TooManyDates,
}

/// Words that name leave. A word matches when it begins with one of these
/// (inflections: `urlopu`, `dovolenou`, `отпуска`, `congés`); English words
/// must match whole, as they are short and common.
const LEAVE_STEMS: &[&str] = &[
    "urlaub",   // de
    "congé",    // fr
    "conge",    // fr, without accent
    "vacance",  // fr
    "vacacion", // es
    "permiso",  // es
    "licencia", // es
    "ferie",    // it
    "congedo",  // it
    "permesso", // it
    "vacanz",   // it
    "verlof",   // nl
    "vakantie", // nl
    "licença",  // pt
    "licenca",  // pt, without accent
    "férias",   // pt
    "ferias",   // pt, without accent
    "urlop",    // pl
    "dovolen",  // cs
    "отпуск",   // ru
];
const LEAVE_WORDS: &[&str] = &["leave", "vacation", "holiday", "holidays"];

/// Words that cancel, by their beginning.
const CANCEL_STEMS: &[&str] = &[
    "cancel",   // en, es, pt, it (cancella)
    "withdraw", // en
    "storn",    // de stornieren
    "absag",    // de absagen
    "abgesagt", // de
    "widerruf", // de
    "annul",    // fr annuler, nl annuleren, it annullare
    "anul",     // es/pt anular, pl anuluj
    "intrek",   // nl intrekken
    "odwoł",    // pl odwołać
    "odwol",    // pl, without accent
    "zruš",     // cs zrušit
    "zrus",     // cs, without accent
    "отмен",    // ru отменить, отмена
];

fn is_leave_word(word: &str) -> bool {
    LEAVE_WORDS.contains(&word) || LEAVE_STEMS.iter().any(|s| word.starts_with(s))
}

fn is_cancel_word(word: &str) -> bool {
    CANCEL_STEMS.iter().any(|s| word.starts_with(s))
}

/// Reads one line. `None` when the line is not about leave (no leave word,
/// or a leave word without any date and without a cancel word: "I am on leave
/// next week" is prose, not a request).
///
/// ```
/// use wildt::clock::{Date, LeaveRequest, parse_leave_line};
/// let d = |s: &str| s.parse::<Date>().unwrap();
/// assert_eq!(
///     parse_leave_line("Urlaub 20.12.2026 bis 03.01.2027"),
///     Some(LeaveRequest::Take { from: d("2026-12-20"), to: d("2027-01-03") })
/// );
/// assert_eq!(parse_leave_line("cancel leave"), Some(LeaveRequest::Cancel { from: None }));
/// assert_eq!(parse_leave_line("13. 5254"), None);
/// ```
pub fn parse_leave_line(line: &str) -> Option<LeaveRequest> {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if !words.iter().any(|w| is_leave_word(w)) {
        return None;
    }
    let cancel = words.iter().any(|w| is_cancel_word(w));
    let dates = scan_dates(line);
    if let Some(bad) = dates.iter().find_map(|d| d.as_ref().err()) {
        return Some(LeaveRequest::Unclear(LeaveTextProblem::NoSuchDate(
            bad.clone(),
        )));
    }
    let dates: Vec<Date> = dates.into_iter().flatten().collect();
    if cancel {
        return Some(LeaveRequest::Cancel {
            from: dates.first().copied(),
        });
    }
    match dates[..] {
        [] => None,
        [one] => Some(LeaveRequest::Unclear(LeaveTextProblem::OneDate(one))),
        [from, to] => Some(LeaveRequest::Take { from, to }),
        _ => Some(LeaveRequest::Unclear(LeaveTextProblem::TooManyDates)),
    }
}

/// Every date in `line`, in order: `Ok` for a day, `Err(text)` for something
/// shaped like a date that is no day. Digits touching the date on either side
/// make it no date (a longer number).
fn scan_dates(line: &str) -> Vec<Result<Date, String>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_number = b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_digit());
        if starts_number && let Some((end, found)) = date_at(b, i) {
            out.push(found.ok_or_else(|| line[i..end].to_owned()));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// A date starting at `start`: its end and the day (`None` when shaped like a
/// date but no day). `None` when no date starts there.
fn date_at(b: &[u8], start: usize) -> Option<(usize, Option<Date>)> {
    let digits = |from: usize| -> (usize, u32) {
        let mut end = from;
        let mut n = 0u32;
        while end < b.len() && b[end].is_ascii_digit() && end - from < 5 {
            n = n * 10 + u32::from(b[end] - b'0');
            end += 1;
        }
        (end, n)
    };
    let (e1, n1) = digits(start);
    let sep = *b.get(e1).filter(|c| matches!(c, b'-' | b'.' | b'/'))?;
    let (e2, n2) = digits(e1 + 1);
    if b.get(e2) != Some(&sep) {
        return None;
    }
    let (e3, n3) = digits(e2 + 1);
    if b.get(e3).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (l1, l2, l3) = (e1 - start, e2 - e1 - 1, e3 - e2 - 1);
    let short = |l: usize| (1..=2).contains(&l);
    let (year, month, day) = if l1 == 4 && sep == b'-' && short(l2) && short(l3) {
        (n1, n2, n3)
    } else if short(l1) && short(l2) && l3 == 4 {
        (n3, n2, n1)
    } else {
        return None;
    };
    // Four digits at most: fits an i32.
    Some((e3, Date::from_ymd(year as i32, month, day)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    fn take(from: &str, to: &str) -> Option<LeaveRequest> {
        Some(LeaveRequest::Take {
            from: d(from),
            to: d(to),
        })
    }

    #[test]
    fn leave_is_read_in_every_keyword_language() {
        let want = take("2026-12-20", "2027-01-03");
        for line in [
            "leave 2026-12-20 to 2027-01-03",
            "Leave from 20.12.2026 until 03.01.2027.",
            "I'm on holiday 20/12/2026 - 3/1/2027, please note",
            "Urlaub 20.12.2026 bis 03.01.2027",
            "Ich bin im Urlaub vom 20.12.2026 bis 03.01.2027.",
            "congé du 20/12/2026 au 03/01/2027",
            "Congés : du 20.12.2026 jusqu'au 03.01.2027",
            "vacaciones del 20/12/2026 al 03/01/2027",
            "Permiso 2026-12-20 a 2027-01-03",
            "ferie dal 20/12/2026 al 03/01/2027",
            "verlof van 20-12-2026 tot en met 03-01-2027",
            "Vakantie 20-12-2026 t/m 03-01-2027",
            "férias de 20/12/2026 a 03/01/2027",
            "Licença 20.12.2026 até 03.01.2027",
            "urlop od 20.12.2026 do 03.01.2027",
            "Dovolená od 20.12.2026 do 3.1.2027",
            "mám dovolenou 20.12.2026–3.1.2027",
            "Отпуск с 20.12.2026 по 03.01.2027",
            "в отпуске 20.12.2026-03.01.2027",
            "LEAVE 2026-12-20—2027-01-03",
        ] {
            assert_eq!(parse_leave_line(line), want, "{line}");
        }
    }

    #[test]
    fn cancel_leave_is_read_in_every_keyword_language() {
        for line in [
            "cancel leave",
            "Please cancel my leave.",
            "Urlaub stornieren",
            "Ich sage den Urlaub ab, Urlaub abgesagt",
            "annuler congé",
            "j'annule mes congés",
            "cancelar vacaciones",
            "annulla le ferie",
            "verlof annuleren",
            "cancelar férias",
            "anuluj urlop",
            "zrušit dovolenou",
            "Отменить отпуск",
        ] {
            assert_eq!(
                parse_leave_line(line),
                Some(LeaveRequest::Cancel { from: None }),
                "{line}"
            );
        }
        assert_eq!(
            parse_leave_line("cancel leave 2026-12-20 to 2027-01-03"),
            Some(LeaveRequest::Cancel {
                from: Some(d("2026-12-20"))
            })
        );
    }

    #[test]
    fn lines_without_a_leave_word_or_without_dates_are_not_requests() {
        for line in [
            "13. 5254",
            "12.05.2024 was my birthday, 5254",
            "I leave the draw offer open",
            "on leave next week",
            "Urlaub war schön",
            "from 2026-12-20 to 2027-01-03",
            "",
        ] {
            assert_eq!(parse_leave_line(line), None, "{line}");
        }
    }

    #[test]
    fn unreadable_leave_dates_are_kept_to_be_asked_about() {
        assert_eq!(
            parse_leave_line("leave 31.02.2027 to 05.03.2027"),
            Some(LeaveRequest::Unclear(LeaveTextProblem::NoSuchDate(
                "31.02.2027".into()
            )))
        );
        assert_eq!(
            parse_leave_line("Urlaub bis 03.01.2027"),
            Some(LeaveRequest::Unclear(LeaveTextProblem::OneDate(d(
                "2027-01-03"
            ))))
        );
        assert_eq!(
            parse_leave_line("leave 2027-01-01 to 2027-01-05 and 2027-02-01 to 2027-02-03"),
            Some(LeaveRequest::Unclear(LeaveTextProblem::TooManyDates))
        );
    }

    #[test]
    fn longer_numbers_are_not_dates() {
        assert_eq!(parse_leave_line("leave 120.12.2026 to 03.01.20271"), None);
        assert_eq!(parse_leave_line("leave 2026-12-20 phone 030-5254-1234"), {
            Some(LeaveRequest::Unclear(LeaveTextProblem::OneDate(d(
                "2026-12-20",
            ))))
        });
    }
}
