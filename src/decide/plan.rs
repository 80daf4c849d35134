//! The whole plan for one message, as a value: the decision with the
//! prepared answers it sets off, and the answer to a request for leave.
//! [pure: no IO]
//!
//! `handle` loads everything a plan is made from ([`Facts`]) before deciding,
//! and applies the plan after. What only the applied plan can tell (the
//! clocks after the move, an event's standings after the result, a time
//! forfeit that fell before the message arrived) is read by `handle` from
//! the database around the plan, not decided here.

use shakmaty::ByColor;

use crate::auth::AuthOutcome;
use crate::clock::{
    ClockRules, Date, Leave, LeaveCancel, LeaveDecision, LeaveRequest, cancel_leave, decide_leave,
};
use crate::conditional::ConditionalTree;
use crate::config::Rules;
use crate::intake::Intake;

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
    /// Each player's leaves, for a request for leave in a game with a
    /// clock (`None`: no such request, or the game keeps no clock, and
    /// the request is not answered).
    pub leaves: Option<ByColor<Vec<Leave>>>,
    /// The day a request for leave is decided on.
    pub today: Option<Date>,
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
    /// The verdict and what it changes, with the prepared answers played
    /// after it and each seat's set's fate (`decision.sequel`).
    pub decision: Decision,
    /// The answer to a request for leave by the player of `decision.seat`.
    pub leave: Option<LeaveAnswer>,
}

/// Plans what becomes of `intake` given `facts`, once the trusted
/// server's word on its sender (`auth`) is known.
pub fn plan(intake: &Intake, facts: Facts<'_>, rules: &Rules, auth: Option<AuthOutcome>) -> Plan {
    let Facts {
        game,
        recent,
        sets,
        leaves,
        today,
    } = facts;
    let mut decision = decide(intake, game, recent, rules, auth);
    if let (Some(g), Some(_)) = (game, decision.seat) {
        conditional::follow(&mut decision, g, sets);
    }
    let leave = match (&decision.leave, decision.seat, leaves, today) {
        (Some(req), Some(seat), Some(leaves), Some(today)) => {
            Some(answer_leave(req, &leaves[seat], today, &rules.clock))
        }
        _ => None,
    };
    Plan { decision, leave }
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
