//! A stored game as an `XfccGame` for one of its players: names, whose turn,
//! the clocks, the movetext in English SAN, the result in XfccBasic's words.
//! [pure: no IO]

use shakmaty::{Chess, Color};

use super::soap::{GameResult, TimeLeft, XfccGame};
use crate::clock::{ClockState, Date, TimeControl};
use crate::decide::{GameView, Player};
use crate::game::{GameEnd, GameResult as Score, Record, Termination, fen_of};

/// The days shown left in a game without a time control. The schema asks
/// for a number; 0 would read as a flag about to fall. ICCF clocks count
/// whole days, so hours and minutes are always 0.
pub const UNLIMITED_DAYS: u32 = 999;

/// What a game's `XfccGame` is made from besides the game itself.
pub struct GameFacts<'a> {
    pub view: &'a GameView,
    pub event: Option<&'a str>,
    pub created_at: i64,
    pub time_control: TimeControl,
    /// Both clocks now, for a game with a limited time control.
    pub clocks: Option<&'a ClockState>,
    /// The opponent's last note to the player, if any.
    pub message: Option<String>,
    /// The referee's domain: the games' site.
    pub site: &'a str,
}

/// The game as the player of `seat` sees it.
pub fn xfcc_game(f: &GameFacts<'_>, seat: Color) -> XfccGame {
    let record = &f.view.record;
    let left = |side: Color| TimeLeft {
        days: f
            .clocks
            .filter(|_| f.time_control.is_limited())
            .map_or(UNLIMITED_DAYS, |c| {
                c.clocks[side].days_left.unwrap_or(UNLIMITED_DAYS)
            }),
        hours: 0,
        minutes: 0,
    };
    let clocks = (left(seat), left(seat.other()));
    let standard = record.start_fen() == fen_of(&Chess::default());
    XfccGame {
        id: f.view.id,
        white: name(&f.view.white),
        black: name(&f.view.black),
        event: f.event.unwrap_or("").to_owned(),
        site: f.site.to_owned(),
        my_turn: record.end.is_none() && record.turn() == seat,
        has_white: seat == Color::White,
        clocks,
        draw_offered: record.end.is_none() && record.draw_offer == Some(seat.other()),
        moves: movetext(record),
        message: f.message.clone(),
        fen: (!standard).then(|| record.start_fen().to_owned()),
        result: result(record.end),
        event_date: format!("{}T00:00:00", Date::of_instant(f.created_at)),
        time_control: pgn_time_control(f.time_control),
    }
}

/// The time control in PGN's form, which the GUIs parse (Scid shows
/// `10/4320000` as "10 / 50d (ICCF)"): moves per seconds, or base plus
/// increment in seconds. ICCF's days are whole days; `None` when untimed.
fn pgn_time_control(tc: TimeControl) -> Option<String> {
    const DAY: u64 = 86_400;
    match tc {
        TimeControl::None => None,
        TimeControl::Moves { moves, days } => Some(format!("{moves}/{}", u64::from(days) * DAY)),
        TimeControl::Increment {
            base_days,
            increment_days,
        } => Some(format!(
            "{}+{}",
            u64::from(base_days) * DAY,
            u64::from(increment_days) * DAY
        )),
    }
}

fn name(p: &Player) -> String {
    p.name.clone().unwrap_or_else(|| p.email.clone())
}

/// `1.e4 e5 2.Nf3`, or `12...Nf6 13.c4` from a position with Black to move.
pub fn movetext(record: &Record) -> String {
    let mut out = String::new();
    for (i, ply) in record.plies().iter().enumerate() {
        let n = record.number_of_ply(i);
        if !out.is_empty() {
            out.push(' ');
        }
        if !n.black {
            out.push_str(&format!("{}.", n.number));
        } else if i == 0 {
            out.push_str(&format!("{}...", n.number));
        }
        out.push_str(&ply.san);
    }
    out
}

/// The result in XfccBasic's words: a decision by the organiser is
/// "adjudicated", a loss on time or by withdrawal "defaulted", a game struck
/// from its event "cancelled".
pub fn result(end: Option<GameEnd>) -> GameResult {
    let Some(end) = end else {
        return GameResult::Ongoing;
    };
    match (end.termination, end.result) {
        (Termination::Annulled, _) => GameResult::Cancelled,
        (Termination::Adjudication, Score::WhiteWins) => GameResult::WhiteWinAdjudicated,
        (Termination::Adjudication, Score::BlackWins) => GameResult::BlackWinAdjudicated,
        (Termination::Adjudication, Score::Draw) => GameResult::DrawAdjudicated,
        (Termination::TimeForfeit | Termination::Forfeit, Score::WhiteWins) => {
            GameResult::BlackDefaulted
        }
        (Termination::TimeForfeit | Termination::Forfeit, Score::BlackWins) => {
            GameResult::WhiteDefaulted
        }
        (Termination::TimeForfeit | Termination::Forfeit, Score::Draw) => GameResult::BothDefaulted,
        (_, Score::WhiteWins) => GameResult::WhiteWins,
        (_, Score::BlackWins) => GameResult::BlackWins,
        (_, Score::Draw) => GameResult::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::IccfMove;

    fn record(moves: &[&str], fen: Option<&str>) -> Record {
        let mut r = Record::new(fen).unwrap();
        for m in moves {
            let mv: IccfMove = m.parse().unwrap();
            let pos = r.position().clone();
            r.push(mv, mv.to_move(&pos).unwrap());
        }
        r
    }

    #[test]
    fn movetext_is_numbered_english_san_without_a_result() {
        let r = record(&["5254", "5755", "7163"], None);
        assert_eq!(movetext(&r), "1.e4 e5 2.Nf3");
        let black_first = record(
            &["7866"],
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12"),
        );
        assert_eq!(movetext(&black_first), "12...Nf6");
    }

    #[test]
    fn results_are_named_as_xfccbasic_names_them() {
        let end = |result, termination| {
            Some(GameEnd {
                result,
                termination,
            })
        };
        assert_eq!(result(None), GameResult::Ongoing);
        assert_eq!(
            result(end(Score::BlackWins, Termination::Resignation)),
            GameResult::BlackWins
        );
        assert_eq!(
            result(end(Score::WhiteWins, Termination::TimeForfeit)),
            GameResult::BlackDefaulted
        );
        assert_eq!(
            result(end(Score::Draw, Termination::Adjudication)),
            GameResult::DrawAdjudicated
        );
        assert_eq!(
            result(end(Score::Draw, Termination::Annulled)),
            GameResult::Cancelled
        );
    }
}
