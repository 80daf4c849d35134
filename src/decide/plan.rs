//! The whole plan for one message, as a value: a time forfeit that fell
//! before it, the decision with the prepared answers it sets off, the
//! answer to a request for leave, the clocks its replies show, and the
//! event standing its result gives. [pure: no IO]
//!
//! `handle` loads everything a plan is made from ([`Facts`]) before deciding,
//! and applies the plan after: it writes, and queues the mails. An event
//! game's standing needs its whole section, which only a message that ends
//! the game uses: the plan says so ([`Plan::ends`]), and `handle` reads the
//! section for that message alone and has the plan count the standing
//! ([`Plan::count_standing`]).

use shakmaty::{ByColor, Color};

use crate::auth::AuthOutcome;
use crate::clock::{
    ClockRules, ClockState, Date, GameClock, Leave, LeaveCancel, LeaveDecision, LeaveRequest,
    cancel_leave, decide_leave,
};
use crate::conditional::ConditionalTree;
use crate::config::Rules;
use crate::event::{CrosstableError, Section, Standing};
use crate::game::{GameEnd, Record};
use crate::intake::Intake;

use super::deadline::{self, Clocked, Forfeit, Scope};
use super::{Decision, GameView, Recent, conditional, decide};

/// What a plan is made from besides the message: its game and what the
/// store holds for it, read in the message's transaction before deciding.
#[derive(Debug, Clone, Default)]
pub struct Facts<'a> {
    /// The game the message's address names, if it exists.
    pub game: Option<&'a GameView>,
    pub recent: Recent,
    /// Each seat's stored set of conditional moves.
    pub sets: ByColor<Option<ConditionalTree>>,
    /// The game's clock: of a game with a limited time control, and of any
    /// game for a request for leave, which is answered against its
    /// players' leaves (`None`: the request is not answered).
    pub clock: Option<ClockFacts>,
    /// When the message arrived (Unix seconds): its move is charged until
    /// then, and a flag that fell before it ends the game first.
    pub arrival: i64,
    /// When it is handled (Unix seconds): a request for leave is decided
    /// on this day, and a leave's mails show the clocks at this instant.
    pub now: i64,
}

/// A timed game's clock as stored, with what its deadlines depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockFacts {
    pub clock: GameClock,
    /// Both players' leaves.
    pub leaves: ByColor<Vec<Leave>>,
    /// The keys of the deadline actions already taken (read for an
    /// unfinished game only).
    pub done: Vec<String>,
}

/// The answer to a player's request for leave (or its cancellation),
/// decided against their stored leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeaveAnswer {
    /// The dates could not be read: the player is asked again.
    Unclear,
    Take(LeaveDecision),
    Cancel(LeaveCancel),
}

/// A message's plan: what `handle` applies and answers.
#[derive(Debug, Clone)]
pub struct Plan {
    /// A time forfeit that fell before the message arrived: the game ends
    /// first, and the message is decided on the game so ended.
    pub forfeit: Option<Forfeit>,
    /// The verdict and what it changes, with the prepared answers played
    /// after it and each seat's set's fate (`decision.sequel`).
    pub decision: Decision,
    /// The answer to a request for leave by the player of `decision.seat`.
    pub leave: Option<LeaveAnswer>,
    /// Both clocks of a timed game after the message, at its arrival: its
    /// replies about a move show them.
    pub clocks: Option<ClockState>,
    /// Both clocks after a leave granted or cancelled, at `now`: both
    /// players' mails about the leave show them.
    pub leave_clocks: Option<ClockState>,
    /// How the plan ends the game (by the forfeit or by the decision), if
    /// it does.
    pub ends: Option<GameEnd>,
    /// The standing of an event game the plan ends, counted with its
    /// result, for the game-over mails; or why the section's table cannot
    /// be counted. `None` until [`Plan::count_standing`] is given the
    /// section.
    pub standing: Option<Result<Standing, CrosstableError>>,
}

impl Plan {
    /// Counts the standing of the game `game` of `section` with the result
    /// the plan gives it; nothing when the plan does not end the game.
    pub fn count_standing(&mut self, game: i64, section: Option<&Section>) {
        self.standing = self.ends.and_then(|end| standing(section, game, end));
    }
}

/// Plans what becomes of `intake` given `facts`, once the trusted
/// server's word on its sender (`auth`) is known.
pub fn plan(intake: &Intake, facts: Facts<'_>, rules: &Rules, auth: Option<AuthOutcome>) -> Plan {
    let Facts {
        game,
        recent,
        sets,
        clock,
        arrival,
        now,
    } = facts;
    let forfeit = match (game, &clock) {
        (Some(g), Some(c)) => forfeit_before(&g.record, c, &rules.clock, arrival),
        _ => None,
    };
    // The game as the message finds it: ended, when a flag fell first.
    let forfeited = forfeit.as_ref().zip(game).map(|(f, g)| {
        let mut g = g.clone();
        g.record = f.after.clone();
        g
    });
    let game = forfeited.as_ref().or(game);
    let mut decision = decide(intake, game, recent, rules, auth);
    if let (Some(g), Some(_)) = (game, decision.seat) {
        conditional::follow(&mut decision, g, sets, &rules.tablebase);
    }
    let leave = match (&decision.leave, decision.seat, &clock) {
        (Some(req), Some(seat), Some(c)) => {
            let today = Date::of_instant(now);
            Some(answer_leave(req, &c.leaves[seat], today, &rules.clock))
        }
        _ => None,
    };
    let (mut clocks, mut leave_clocks, mut ends) = (None, None, None);
    if let Some(g) = game {
        let change = Change {
            before: &g.record,
            after: decision.final_record(),
            forfeit: forfeit.as_ref(),
        };
        if let Some(c) = &clock {
            let after = change.clock(&c.clock, arrival, now);
            let first_mover = shakmaty::Position::turn(g.record.start());
            if after.control.is_limited() {
                clocks = Some(after.state(&rules.clock, first_mover, &c.leaves, arrival));
            }
            if let (Some(answer), Some(seat)) = (&leave, decision.seat) {
                leave_clocks = answer
                    .leaves_after(g, seat, &c.leaves)
                    .map(|leaves| after.state(&rules.clock, first_mover, &leaves, now));
            }
        }
        ends = change.ends();
    }
    Plan {
        forfeit,
        decision,
        leave,
        clocks,
        leave_clocks,
        ends,
        standing: None,
    }
}

/// A time forfeit that fell before `arrival` in the game of `record` with
/// the clock `clock`, if any: what the daemon's pass would have done had it
/// run before the message arrived.
pub fn forfeit_before(
    record: &Record,
    clock: &ClockFacts,
    rules: &ClockRules,
    arrival: i64,
) -> Option<Forfeit> {
    let clocked = Clocked {
        record,
        clock: &clock.clock,
        leaves: &clock.leaves,
        done: &clock.done,
    };
    deadline::due(&clocked, rules, arrival, Scope::Forfeit).forfeit
}

/// The standing a result `end` gives the event game `game` of `section`.
pub fn standing(
    section: Option<&Section>,
    game: i64,
    end: GameEnd,
) -> Option<Result<Standing, CrosstableError>> {
    section.map(|s| s.standing_with(game, end))
}

/// What a message does to its game: `before`, as the message finds it
/// (after a `forfeit` that fell first), and `after`, when it changes.
struct Change<'a> {
    before: &'a Record,
    after: Option<&'a Record>,
    forfeit: Option<&'a Forfeit>,
}

impl Change<'_> {
    /// The game's clock after the message arrived (at `arrival`): its
    /// plies charged until then; the game's row rewritten at `now` by a
    /// forfeit or a change, and a game over stops its clocks there.
    fn clock(&self, clock: &GameClock, arrival: i64, now: i64) -> GameClock {
        let new_plies = self
            .after
            .map_or(0, |a| a.ply_count().saturating_sub(self.before.ply_count()));
        let changed = (self.forfeit.is_some() || self.after.is_some()).then_some(now);
        let finished = clock.ended_at.is_some()
            || self.forfeit.is_some()
            || self.after.is_some_and(|a| a.end.is_some());
        clock.after(new_plies, arrival, changed, finished)
    }

    /// How the forfeit or the message ends the game, if either does.
    fn ends(&self) -> Option<GameEnd> {
        match self.forfeit {
            Some(f) => Some(f.end),
            None if self.before.end.is_none() => self.after.and_then(|a| a.end),
            None => None,
        }
    }
}

impl LeaveAnswer {
    /// Both players' leaves once this answer to the player of `seat` in
    /// `game` is taken; `None` when it changes none. Leave is the player's:
    /// it is theirs in every seat they hold.
    fn leaves_after(
        &self,
        game: &GameView,
        seat: Color,
        leaves: &ByColor<Vec<Leave>>,
    ) -> Option<ByColor<Vec<Leave>>> {
        let change = |mine: &mut Vec<Leave>| match self {
            LeaveAnswer::Take(LeaveDecision::Granted(leave)) => {
                mine.push(*leave);
                // As the store reads them: earliest first.
                mine.sort_by_key(|l| l.from);
            }
            LeaveAnswer::Cancel(LeaveCancel::Remove(leave)) => {
                mine.retain(|l| l.from != leave.from);
            }
            LeaveAnswer::Cancel(LeaveCancel::EndEarly { leave, new_to }) => {
                for l in mine.iter_mut().filter(|l| l.from == leave.from) {
                    l.to = *new_to;
                }
            }
            LeaveAnswer::Unclear
            | LeaveAnswer::Take(LeaveDecision::Refused(_))
            | LeaveAnswer::Cancel(LeaveCancel::NothingToCancel) => {}
        };
        let changes = matches!(
            self,
            LeaveAnswer::Take(LeaveDecision::Granted(_))
                | LeaveAnswer::Cancel(LeaveCancel::Remove(_) | LeaveCancel::EndEarly { .. })
        );
        if !changes {
            return None;
        }
        let email = &game.player(seat).email;
        let mut after = leaves.clone();
        for s in [Color::White, Color::Black] {
            if &game.player(s).email == email {
                change(&mut after[s]);
            }
        }
        Some(after)
    }
}

/// Whether `intake` asks for leave, so that its facts need the players'
/// leaves.
pub fn asks_for_leave(intake: &Intake) -> bool {
    matches!(
        &intake.disposition,
        crate::intake::Disposition::Read(crate::intake::Reading::Leave(_))
    )
}

/// `req` decided against `existing`, the player's leaves, on `today`.
pub fn answer_leave(
    req: &LeaveRequest,
    existing: &[Leave],
    today: Date,
    rules: &ClockRules,
) -> LeaveAnswer {
    match req {
        LeaveRequest::Unclear(_) => LeaveAnswer::Unclear,
        LeaveRequest::Take { from, to } => {
            let asked = Leave {
                from: *from,
                to: *to,
            };
            LeaveAnswer::Take(decide_leave(asked, existing, today, rules))
        }
        LeaveRequest::Cancel { from } => LeaveAnswer::Cancel(cancel_leave(existing, *from, today)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Policy;
    use crate::clock::{DAY_SECS, PlyTime};
    use crate::decide::Outcome;
    use crate::event::{EventGame, Player};
    use crate::fixtures::{game_17, rules};
    use crate::game::{GameResult, Termination};
    use crate::intake::read;

    const START: i64 = 1_700_000_000;

    /// White's mail `1. 5254` to game 17.
    fn white_moves() -> Intake {
        let raw = "From: anna@example.org\r\nTo: chess+17-k3x9qp2m@club.example\r\n\
                   Subject: move\r\nMessage-ID: <m@example.org>\r\n\r\n1. 5254\r\n";
        read(raw.as_bytes(), &rules(1 << 20, Policy::Key, false).intake)
    }

    /// Game 17's clock under 10/50, started at [`START`], with `plies`.
    fn clock(plies: Vec<PlyTime>) -> ClockFacts {
        ClockFacts {
            clock: GameClock {
                control: "10/50".parse().expect("a control"),
                started: START,
                plies,
                extra_days: ByColor { white: 0, black: 0 },
                ended_at: None,
            },
            leaves: ByColor::default(),
            done: Vec::new(),
        }
    }

    /// Game 17 as the only game of a section of its two players.
    fn section() -> Section {
        let player = |email: &str| Player {
            email: email.to_owned(),
            name: None,
        };
        Section {
            name: "Club cup".to_owned(),
            players: vec![player("anna@example.org"), player("ben@example.net")],
            games: vec![EventGame {
                id: 17,
                white: "anna@example.org".to_owned(),
                black: "ben@example.net".to_owned(),
                outcome: crate::event::Outcome::Unfinished,
            }],
        }
    }

    /// The plan of White's move, with the standing counted in `section`.
    fn planned(clock: ClockFacts, section: Option<Section>, arrival: i64) -> Plan {
        let game = game_17(&[]);
        let facts = Facts {
            game: Some(&game),
            clock: Some(clock),
            arrival,
            ..Facts::default()
        };
        let mut plan = plan(
            &white_moves(),
            facts,
            &rules(1 << 20, Policy::Key, false),
            None,
        );
        plan.count_standing(game.id, section.as_ref());
        plan
    }

    /// A move that arrives after the first mover's 50 days ran out finds
    /// the game lost on time: the plan ends it first, decides the move on
    /// the ended game, and counts the event standing with the forfeit.
    #[test]
    fn a_flag_that_fell_before_the_move_ends_the_game_first() {
        let plan = planned(clock(Vec::new()), Some(section()), START + 40 * DAY_SECS);
        let forfeit = plan.forfeit.expect("a forfeit");
        assert_eq!(
            forfeit.end,
            GameEnd {
                result: GameResult::BlackWins,
                termination: Termination::TimeForfeit,
            }
        );
        assert_eq!(forfeit.after.end, Some(forfeit.end));
        assert_eq!(plan.decision.outcome, Outcome::Rejected);
        assert!(plan.decision.final_record().is_none());
        let standing = plan.standing.expect("an event game").expect("a table");
        let ben = standing.table.row_of("ben@example.net").expect("ben's row");
        assert_eq!((ben.points.0, ben.played, ben.rank.first), (2, 1, 1));
    }

    /// The clocks a move's replies show charge it until its arrival: three
    /// days and an hour cost White three days, and Black's clock starts.
    #[test]
    fn the_clocks_after_a_move_charge_it_until_its_arrival() {
        let arrival = START + 3 * DAY_SECS + 3_600;
        let plan = planned(clock(Vec::new()), None, arrival);
        assert!(plan.forfeit.is_none());
        assert_eq!(plan.decision.outcome, Outcome::Moved);
        let clocks = plan.clocks.expect("a timed game");
        assert_eq!(clocks.to_move, shakmaty::Color::Black);
        assert_eq!(clocks.turn_started, arrival);
        assert_eq!(clocks.charges, vec![3]);
        assert_eq!(clocks.clocks.white.days_used, 3);
        assert_eq!(clocks.clocks.black.days_used, 0);
        assert!(plan.standing.is_none());
    }

    /// A leave granted by mail is counted in the clocks its mails show:
    /// White's leave days left fall by the days taken.
    #[test]
    fn a_granted_leave_shows_in_the_clocks_of_its_mails() {
        let raw = "From: anna@example.org\r\nTo: chess+17-k3x9qp2m@club.example\r\n\
                   Subject: leave\r\nMessage-ID: <l@example.org>\r\n\r\n\
                   leave 2023-11-20 to 2023-11-29\r\n";
        let rules = rules(1 << 20, Policy::Key, false);
        let intake = read(raw.as_bytes(), &rules.intake);
        let game = game_17(&[]);
        let now = START + DAY_SECS;
        let facts = Facts {
            game: Some(&game),
            clock: Some(clock(Vec::new())),
            arrival: now,
            now,
            ..Facts::default()
        };
        let plan = plan(&intake, facts, &rules, None);
        assert!(matches!(
            plan.leave,
            Some(LeaveAnswer::Take(LeaveDecision::Granted(_)))
        ));
        let before = plan.clocks.expect("a timed game").clocks.white;
        let after = plan.leave_clocks.expect("a leave taken").clocks.white;
        assert_eq!(before.leave_days_left, 45);
        assert_eq!(after.leave_days_left, 35);
    }

    /// A move that does not end the game gives an event game no standing.
    #[test]
    fn a_move_that_does_not_end_the_game_gives_no_standing() {
        let plan = planned(clock(Vec::new()), Some(section()), START + DAY_SECS);
        assert_eq!(plan.decision.outcome, Outcome::Moved);
        assert!(plan.standing.is_none());
    }
}
