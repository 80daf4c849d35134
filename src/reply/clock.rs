//! The clock and leave mails: the day clocks in every mail about a move,
//! the reminder and the low-time warning, a leave granted, cancelled or
//! refused, the days a ruling gives. [pure: no IO]

use shakmaty::Color;

use crate::i18n::{self, Arg, Key, Lang, color_arg};

use super::{GameContext, Letters, MailKind, OutMail, footer, game_arg};

/// Both clocks, one line each ("White: 37 days left for moves 11–20");
/// empty for a game without a time control.
pub fn clock_lines(lang: Lang, state: &crate::clock::ClockState) -> String {
    let mut s = String::new();
    for c in [Color::White, Color::Black] {
        let clock = &state.clocks[c];
        let Some(left) = clock.days_left else {
            continue;
        };
        let days = Arg::Count(i64::from(left));
        let line = match clock.control_move {
            Some(to) => i18n::text(
                lang,
                Key::ClockDaysLeft,
                &[
                    ("color", color_arg(c)),
                    ("days", days),
                    ("from", Arg::Count(i64::from(clock.next_move))),
                    ("to", Arg::Count(i64::from(to))),
                ],
            ),
            None => i18n::text(
                lang,
                Key::ClockDaysLeftOpen,
                &[("color", color_arg(c)), ("days", days)],
            ),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// Adds the clocks, in each reader's language, to every mail about a move
/// of game `game` (the confirmation, the relay and the rejection), before
/// the board.
pub fn add_clocks(letters: &mut Letters, game: i64, state: &crate::clock::ClockState) {
    for m in &mut letters.mails {
        let lines = clock_lines(m.lang, state);
        if lines.is_empty() {
            continue;
        }
        if m.game == Some(game)
            && matches!(
                m.kind,
                MailKind::MoveAccepted | MailKind::OpponentMoved | MailKind::MoveRejected
            )
        {
            m.insert_after_first_paragraph(&lines);
        }
    }
}

/// A clock mail to the player of `seat`: `text`, both clocks, the position
/// and how to answer.
fn clock_mail(
    game: &GameContext<'_>,
    seat: Color,
    subject: Key,
    text: &str,
    state: &crate::clock::ClockState,
) -> OutMail {
    let lang = game.lang(seat);
    let to_play = game.record.turn() == seat && !game.record.is_over();
    game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, subject, &[]),
        &match clock_lines(lang, state) {
            // A game without a time control: the notice without clocks.
            lines if lines.is_empty() => format!("{text}\n\n"),
            lines => format!("{text}\n\n{lines}\n"),
        },
        game.record,
        &footer(lang, to_play, game.record),
    )
}

/// The reminder to the player of `seat`, `days` days after the opponent's
/// move arrived: the position and both clocks.
pub fn clock_reminder_mail(
    game: &GameContext<'_>,
    seat: Color,
    days: u32,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = i18n::text(
        game.lang(seat),
        Key::ClockReminder,
        &[game_arg(game.id), ("days", Arg::Count(i64::from(days)))],
    );
    clock_mail(game, seat, Key::SubjectClockReminder, &text, state)
}

/// The warning to the player of `seat` that `days_left` days remain.
pub fn clock_low_time_mail(
    game: &GameContext<'_>,
    seat: Color,
    days_left: u32,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = i18n::text(
        game.lang(seat),
        Key::ClockLowTime,
        &[
            game_arg(game.id),
            ("days", Arg::Count(i64::from(days_left))),
        ],
    );
    clock_mail(game, seat, Key::SubjectClockLowTime, &text, state)
}

/// A notice to both players of the game: `text(lang)` (a leave, a ruling),
/// both clocks and the position, each in the reader's language.
fn clock_notice_pair(
    game: &GameContext<'_>,
    subject: Key,
    text: impl Fn(Lang) -> String,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| clock_mail(game, c, subject, &text(game.lang(c)), state))
        .collect()
}

/// What became of a player's leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveChange {
    Granted(crate::clock::Leave),
    /// The leave starting `from` is cancelled (or ended early).
    Cancelled {
        from: crate::clock::Date,
    },
}

/// The sentence telling that the leave of `seat` changed, in `lang`.
fn leave_change_text(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    lang: Lang,
) -> String {
    match change {
        LeaveChange::Granted(leave) => i18n::text(
            lang,
            Key::ClockLeaveGranted,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("from", leave.from.to_string().into()),
                ("to", leave.to.to_string().into()),
            ],
        ),
        LeaveChange::Cancelled { from } => i18n::text(
            lang,
            Key::ClockLeaveCancelled,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("from", from.to_string().into()),
            ],
        ),
    }
}

/// Both players of the game in which the player of `seat` asked for (or
/// cancelled) leave told of it, with the clocks as they now stand.
pub fn leave_changed_mails(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    clock_notice_pair(
        game,
        Key::SubjectClockLeave,
        |lang| leave_change_text(game, seat, change, lang),
        state,
    )
}

/// The opponent of `seat` told that the player's leave changed, in another
/// game of that player: leave is the player's, and stops all their clocks.
pub fn leave_changed_notice(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    state: &crate::clock::ClockState,
) -> OutMail {
    let text = leave_change_text(game, seat, change, game.lang(!seat));
    clock_mail(game, !seat, Key::SubjectClockLeave, &text, state)
}

/// Both players told of a ruling that gives `seat` `days` days.
pub fn days_given_mails(
    game: &GameContext<'_>,
    seat: Color,
    days: i64,
    state: &crate::clock::ClockState,
) -> Vec<OutMail> {
    let text = |lang| {
        i18n::text(
            lang,
            Key::ClockDaysGiven,
            &[
                game_arg(game.id),
                ("color", color_arg(seat)),
                ("days", Arg::Count(days)),
            ],
        )
    };
    clock_notice_pair(game, Key::SubjectClockRuling, text, state)
}

/// Who reads why a leave was refused: the text names the leave as theirs
/// or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveReader {
    /// The player who asked for it by mail: "your leave".
    Player,
    /// The organiser who asked for it for a player (`wildt game leave`):
    /// "the leave".
    Organiser,
}

/// Why a request for leave was refused, in `lang`, for `reader`: the one
/// text of it, in a refusal mail and in what the CLI prints.
pub fn leave_refusal_text(
    lang: Lang,
    why: &crate::clock::LeaveRefusal,
    reader: LeaveReader,
) -> String {
    use crate::clock::LeaveRefusal as R;
    let d = |d: crate::clock::Date| Arg::from(d.to_string().as_str());
    let organiser = reader == LeaveReader::Organiser;
    match why {
        R::EndsBeforeStart { from, to } => i18n::text(
            lang,
            Key::ClockLeaveWhyEndsBeforeStart,
            &[("from", d(*from)), ("to", d(*to))],
        ),
        R::StartsInThePast { from, today } => i18n::text(
            lang,
            Key::ClockLeaveWhyInPast,
            &[("from", d(*from)), ("today", d(*today))],
        ),
        R::Overlaps { existing } => i18n::text(
            lang,
            if organiser {
                Key::ClockLeaveWhyOverlapsOrganiser
            } else {
                Key::ClockLeaveWhyOverlaps
            },
            &[("from", d(existing.from)), ("to", d(existing.to))],
        ),
        R::ExceedsAllowance {
            year,
            asked,
            remaining,
            allowance,
        } => i18n::text(
            lang,
            if organiser {
                Key::ClockLeaveWhyExceedsOrganiser
            } else {
                Key::ClockLeaveWhyExceeds
            },
            &[
                ("year", Arg::Count(i64::from(*year))),
                ("asked", Arg::Count(i64::from(*asked))),
                ("remaining", Arg::Count(i64::from(*remaining))),
                ("allowance", Arg::Count(i64::from(*allowance))),
            ],
        ),
    }
}

/// The answer to a player whose request for leave was refused (`why`:
/// [`leave_refusal_text`], or `None` when its dates could not be read).
pub fn leave_refused_mail(
    game: &GameContext<'_>,
    seat: Color,
    why: Option<&crate::clock::LeaveRefusal>,
    answering: Option<&str>,
) -> OutMail {
    let lang = game.lang(seat);
    let why = match why {
        Some(w) => leave_refusal_text(lang, w, LeaveReader::Player),
        None => i18n::text(lang, Key::ClockLeaveWhyUnclear, &[]),
    };
    let body = i18n::text(
        lang,
        Key::ClockLeaveRefused,
        &[game_arg(game.id), ("why", why.into())],
    );
    let mut m = game.mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The answer to "cancel leave" when there is none to cancel.
pub fn nothing_to_cancel_mail(
    game: &GameContext<'_>,
    seat: Color,
    answering: Option<&str>,
) -> OutMail {
    let lang = game.lang(seat);
    let body = i18n::text(lang, Key::ClockLeaveNothingToCancel, &[game_arg(game.id)]);
    let mut m = game.mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal the organiser reads names the leave as no one's own, the
    /// player's as theirs; where a refusal names no leave, both read alike.
    #[test]
    fn a_leave_refusal_reads_as_the_organiser_or_the_player_is_told_it() {
        use crate::clock::{Date, Leave, LeaveRefusal as R};
        let day = |m, d| Date::from_ymd(2027, m, d).unwrap();
        let cases = [
            (
                R::EndsBeforeStart {
                    from: day(3, 10),
                    to: day(3, 2),
                },
                "it ends (2027-03-02) before it starts (2027-03-10)",
                "it ends (2027-03-02) before it starts (2027-03-10)",
            ),
            (
                R::StartsInThePast {
                    from: day(1, 2),
                    today: day(1, 5),
                },
                "it starts (2027-01-02) before today (2027-01-05)",
                "it starts (2027-01-02) before today (2027-01-05)",
            ),
            (
                R::Overlaps {
                    existing: Leave {
                        from: day(4, 1),
                        to: day(4, 9),
                    },
                },
                "it overlaps the leave from 2027-04-01 to 2027-04-09",
                "it overlaps your leave from 2027-04-01 to 2027-04-09",
            ),
            (
                R::ExceedsAllowance {
                    year: 2027,
                    asked: 51,
                    remaining: 45,
                    allowance: 45,
                },
                "it takes 51 days of 2027, but only 45 of the 45 days a year are left",
                "it takes 51 days of 2027, but only 45 of your 45 days a year are left",
            ),
        ];
        for (why, organiser, player) in cases {
            assert_eq!(
                leave_refusal_text(Lang::En, &why, LeaveReader::Organiser),
                organiser
            );
            assert_eq!(
                leave_refusal_text(Lang::En, &why, LeaveReader::Player),
                player
            );
        }
    }
}
