//! What a player asks of the referee, as read from a message or typed at the CLI.
//! [pure: no IO]
//!
//! The intake turns text into these; the referee judges them. A message whose text
//! cannot be read as one clear command never becomes a `Command` at all.

use crate::notation::IccfMove;

/// A move number as written before a move: `12.` (White) or `12...` (Black).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveNumber {
    pub number: u32,
    /// Written with an ellipsis (`12...`, `12…`): the move is Black's.
    pub black: bool,
}

/// One move as the player wrote it, with the move number if one stood before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenMove {
    pub number: Option<MoveNumber>,
    pub mv: IccfMove,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A move, written alone (`5254`, `12. 5254`) or with echoes of earlier plies
    /// (`12... 3746 13. 5254`, or the whole record, in any order). A move's ply
    /// is its number, else one after the move before it; an unnumbered line
    /// ends at the new move. Every move but the new one must match the record.
    Play {
        line: Vec<WrittenMove>,
        /// "5254, and I offer a draw".
        offer_draw: bool,
        /// "80. 5242 claim draw": a claim judged on the position after the
        /// move (FIDE 9.2.1.1); the move stands if the claim is wrong.
        claim_draw: bool,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// A claim by threefold repetition or the 50-move rule; the referee checks it.
    ClaimDraw,
    /// Asks for the board and the record; changes nothing.
    Status,
    /// Asks for a new random Xfcc password, mailed back; changes nothing in
    /// the game (the keyed game address is the proof of the player).
    XfccPassword,
}

impl Command {
    /// Whether the referee judges a draw claim for it, alone or with a
    /// move: only then does it count repetitions.
    pub fn claims_draw(&self) -> bool {
        matches!(
            self,
            Command::ClaimDraw
                | Command::Play {
                    claim_draw: true,
                    ..
                }
        )
    }

    /// A single move with no number: what the CLI's `game move` records.
    pub fn single(mv: IccfMove) -> Self {
        Command::Play {
            line: vec![WrittenMove { number: None, mv }],
            offer_draw: false,
            claim_draw: false,
        }
    }
}
