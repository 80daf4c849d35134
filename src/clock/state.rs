//! A game's two clocks at a given instant, the instants at which the player on
//! move is reminded, warned or forfeits, and when a flag fell. [pure: no IO]

use std::fmt;

use shakmaty::{ByColor, Color};

use super::ClockRules;
use super::charge::{LeaveSpans, charge_days, reflection_for_charge};
use super::control::TimeControl;
use super::date::{DAY_SECS, Date};
use super::leave::{Leave, leave_days_left};

/// When one ply reached the referee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyTime {
    /// Arrival in Unix seconds: the mailbox's INTERNALDATE (Maildir: the
    /// file's modification time), never later than when the referee handled
    /// it, and never the sender's `Date:` header.
    pub arrived: i64,
    /// The ply costs no time: a conditional or prepared answer played for the
    /// player as soon as the move it answers arrived.
    pub free: bool,
}

/// Everything the clocks of one game depend on. Borrowed, so building one
/// from stored rows costs no copies.
#[derive(Debug, Clone, Copy)]
pub struct ClockInput<'a> {
    pub control: TimeControl,
    pub rules: &'a ClockRules,
    /// When the game began: the first ply's reflection counts from here.
    pub started: i64,
    /// Who makes the first ply (White, unless the game starts from a position
    /// with Black to move). Move numbers of a control count each player's own
    /// moves in this game, from 1.
    pub first_mover: Color,
    /// Every ply played, in order.
    pub plies: &'a [PlyTime],
    /// Each player's leaves (all of them, not only this game's period).
    pub leaves: ByColor<&'a [Leave]>,
    /// Days given (positive) or taken (negative) by organiser rulings, added
    /// to what the control allows at every move.
    pub extra_days: ByColor<i64>,
}

/// One player's clock at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerClock {
    /// Days charged so far, including the move they are thinking on now.
    pub days_used: u32,
    /// Days charged so far on the move they are thinking on (0 when it is not
    /// their move).
    pub thinking_days: u32,
    /// Days left before the next control (`None` without a control; 0 once
    /// the flag has fallen).
    pub days_left: Option<u32>,
    /// The number of their next move (their own moves, from 1).
    pub next_move: u32,
    /// The move by which the current control must be reached (`Some(20)` in
    /// "37 days left for moves 11–20"); `None` for `30+3` and `none`.
    pub control_move: Option<u32>,
    /// Whether they are on leave at this instant.
    pub on_leave: bool,
    /// What is left of their leave allowance in the current calendar year.
    pub leave_days_left: u32,
}

/// A player's time ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlagFall {
    /// Whose time ran out.
    pub side: Color,
    /// The instant it ran out.
    pub at: i64,
    /// The 0-based index of the ply they were thinking on: `plies.len()` if
    /// it is the current move, less if a later ply arrived too late (the
    /// position for the verdict is the one before that ply).
    pub ply: usize,
}

/// Both clocks of a game at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockState {
    pub control: TimeControl,
    /// Whose clock is running.
    pub to_move: Color,
    /// When the current move's reflection began (the arrival of the last ply,
    /// or the start of the game).
    pub turn_started: i64,
    pub clocks: ByColor<PlayerClock>,
    /// Days charged for each ply, in order (for PGN comments).
    pub charges: Vec<u32>,
    /// The first time a flag fell, if it has by the instant asked about.
    pub flag: Option<FlagFall>,
}

fn mover(first: Color, ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        first
    } else {
        first.other()
    }
}

impl ClockInput<'_> {
    fn allowance(&self, side: Color, move_number: u32) -> Option<i64> {
        self.control
            .allowance(move_number)
            .map(|days| days + self.extra_days[side])
    }

    fn turn_start(&self, ply: usize) -> i64 {
        match ply.checked_sub(1) {
            None => self.started,
            Some(prev) => self.plies[prev].arrived,
        }
    }

    /// The instant at which `side`, with `budget` days left when reflection
    /// began at `start`, oversteps: the first charge of `budget + 1` days.
    fn flag_instant(&self, spans: &LeaveSpans, start: i64, budget: i64) -> i64 {
        let need = reflection_for_charge(budget + 1, self.rules.double_after_days);
        spans.instant_after(start, need)
    }
}

/// The clocks of the game at the instant `now` (Unix seconds).
///
/// Replays every ply: its reflection runs from the arrival of the ply it
/// answers (the game start for the first) to its own arrival, less the
/// mover's leave, and is charged by [`super::charge_days`] (free plies cost
/// nothing). The player on move is charged for the time since the last ply up
/// to `now`. For a finished game pass the instant it ended as `now`.
pub fn clock_state(input: &ClockInput<'_>, now: i64) -> ClockState {
    let spans = ByColor {
        white: LeaveSpans::new(input.leaves.white),
        black: LeaveSpans::new(input.leaves.black),
    };
    let double = input.rules.double_after_days;
    let mut used = ByColor {
        white: 0i64,
        black: 0i64,
    };
    let mut made = ByColor {
        white: 0u32,
        black: 0u32,
    };
    let mut charges = Vec::with_capacity(input.plies.len());
    let mut flag = None;

    for (i, ply) in input.plies.iter().enumerate() {
        let side = mover(input.first_mover, i);
        let start = input.turn_start(i);
        let charge = if ply.free {
            0
        } else {
            charge_days(spans[side].reflection(start, ply.arrived), double)
        };
        let number = made[side] + 1;
        if flag.is_none()
            && let Some(allowed) = input.allowance(side, number)
            && used[side] + i64::from(charge) > allowed
        {
            flag = Some(FlagFall {
                side,
                at: input.flag_instant(&spans[side], start, allowed - used[side]),
                ply: i,
            });
        }
        charges.push(charge);
        used[side] += i64::from(charge);
        made[side] = number;
    }

    let to_move = mover(input.first_mover, input.plies.len());
    let turn_started = input.turn_start(input.plies.len());
    let thinking = charge_days(spans[to_move].reflection(turn_started, now), double);
    if flag.is_none()
        && let Some(allowed) = input.allowance(to_move, made[to_move] + 1)
        && used[to_move] + i64::from(thinking) > allowed
    {
        flag = Some(FlagFall {
            side: to_move,
            at: input.flag_instant(&spans[to_move], turn_started, allowed - used[to_move]),
            ply: input.plies.len(),
        });
    }

    let year = Date::of_instant(now).year();
    let clock = |side: Color| {
        let thinking_days = if side == to_move { thinking } else { 0 };
        let days_used = used[side] + i64::from(thinking_days);
        let next_move = made[side] + 1;
        PlayerClock {
            days_used: u32::try_from(days_used).unwrap_or(u32::MAX),
            thinking_days,
            days_left: input
                .allowance(side, next_move)
                .map(|allowed| u32::try_from((allowed - days_used).max(0)).unwrap_or(u32::MAX)),
            next_move,
            control_move: input.control.control_move(next_move),
            on_leave: spans[side].covers(now),
            leave_days_left: leave_days_left(input.leaves[side], year, input.rules),
        }
    };
    ClockState {
        control: input.control,
        to_move,
        turn_started,
        clocks: ByColor {
            white: clock(Color::White),
            black: clock(Color::Black),
        },
        charges,
        flag,
    }
}

/// What a deadline is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeadlineKind {
    /// No answer `after_days` days after the opponent's move (leave not
    /// counted): remind the player, with the position and their time.
    Reminder { after_days: u32 },
    /// Their clock shows `ClockRules::warn_days_left` days or fewer.
    LowTime,
    /// Their time is up: decide the game with [`super::time_forfeit`].
    Forfeit,
}

/// Names one deadline of one game, stable across restarts: the ply awaited and
/// the kind. Stored beside the game id with a unique constraint, it makes each
/// deadline's action happen exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeadlineKey {
    /// The 0-based index of the ply being waited for (the number of plies
    /// played when the turn began).
    pub ply: usize,
    pub kind: DeadlineKind,
}

/// `reminder-14`, `low-time`, `forfeit`.
impl fmt::Display for DeadlineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeadlineKind::Reminder { after_days } => write!(f, "reminder-{after_days}"),
            DeadlineKind::LowTime => f.write_str("low-time"),
            DeadlineKind::Forfeit => f.write_str("forfeit"),
        }
    }
}

/// `12/reminder-14`, `12/low-time`, `12/forfeit`: the key as stored text.
impl fmt::Display for DeadlineKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.ply, self.kind)
    }
}

/// An instant at which the referee must act for the player on move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub key: DeadlineKey,
    /// Who is to be reminded, warned or forfeited.
    pub side: Color,
    /// When it falls, in Unix seconds.
    pub at: i64,
}

/// Every deadline of the current turn of an unfinished game, earliest first,
/// past ones included (the caller skips the keys it has done, acts on those
/// with `at <= now`, and sleeps until the next).
///
/// - A reminder for each of `rules.reminder_after_days` (14 and 28): that
///   much reflection after the opponent's move; leave moves it later.
/// - The low-time warning: the first instant at which the clock shows
///   `rules.warn_days_left` days or fewer. When the turn already begins that
///   low, it falls at the turn's start.
/// - The forfeit: the first instant at which the charged days exceed what
///   the control allows.
///
/// Reminders and the warning that would fall at or after the forfeit are
/// left out. If a flag already fell on an earlier ply (a move arrived too
/// late and was recorded anyway), the result is that forfeit alone.
pub fn deadlines(input: &ClockInput<'_>) -> Vec<Deadline> {
    // The history matters only through used days and an earlier flag; the
    // state at the turn's start gives both.
    let turn = input.plies.len();
    let start = input.turn_start(turn);
    let state = clock_state(input, start);
    if let Some(flag) = state.flag {
        return vec![Deadline {
            key: DeadlineKey {
                ply: flag.ply,
                kind: DeadlineKind::Forfeit,
            },
            side: flag.side,
            at: flag.at,
        }];
    }
    let side = state.to_move;
    let spans = LeaveSpans::new(input.leaves[side]);
    let rules = input.rules;
    let at_key = |kind, at| Deadline {
        key: DeadlineKey { ply: turn, kind },
        side,
        at,
    };
    let mut out: Vec<Deadline> = rules
        .reminder_after_days
        .iter()
        .map(|&days| {
            at_key(
                DeadlineKind::Reminder { after_days: days },
                spans.instant_after(start, i64::from(days) * DAY_SECS),
            )
        })
        .collect();
    let clock = state.clocks[side];
    if let Some(allowed) = input.allowance(side, clock.next_move) {
        let budget = allowed - i64::from(clock.days_used);
        let forfeit_at = input.flag_instant(&spans, start, budget);
        let warn_charge = budget - i64::from(rules.warn_days_left);
        out.push(at_key(
            DeadlineKind::LowTime,
            spans.instant_after(
                start,
                reflection_for_charge(warn_charge, rules.double_after_days),
            ),
        ));
        out.retain(|d| d.at < forfeit_at);
        out.push(at_key(DeadlineKind::Forfeit, forfeit_at));
    }
    out.sort_by_key(|d| (d.at, d.key));
    out
}
