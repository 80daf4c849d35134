//! Endgame tablebases as ICCF rules them: what the tables say about a
//! position, and whether a player's claim of a win or a draw agrees.
//! [pure: no IO] except [`syzygy`], which opens the Syzygy files.
//!
//! The referee never opens a file: it is handed the tables as a [`Tables`]
//! trait object (loaded once at start by the daemon or the CLI), and a
//! claim's judgement ([`judge_claim`]) takes their answer as a value.
//!
//! ICCF suspends the 50-move rule in positions the tablebases resolve, so a
//! cursed win counts as a win and a blessed loss as a loss.

use std::fmt;
use std::sync::Arc;

use shakmaty::{Chess, Color, Position};

use crate::game::GameResult;

#[cfg(feature = "server")]
pub mod syzygy;

/// What a player claims by the tablebases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    Win,
    Draw,
}

impl Claim {
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::Win => "win",
            Claim::Draw => "draw",
        }
    }
}

/// The tables' value of a position for the side to move, as the Syzygy
/// tables hold it (with the 50-move rule marked, not applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wdl {
    Win,
    /// Won, but not within the 50-move rule.
    CursedWin,
    Draw,
    /// Lost, but saved by the 50-move rule.
    BlessedLoss,
    Loss,
}

/// Why the tables cannot decide a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undecided {
    /// `[tablebase] path` is not set.
    Off,
    /// Tablebases hold no position where castling is still possible.
    Castling,
    /// More pieces than the largest table the referee has.
    TooManyPieces { pieces: usize, max: usize },
    /// The table for this material is not among the referee's files.
    MissingTable { material: String },
    /// A table could not be read (a damaged or truncated file).
    Failed { material: String },
}

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Undecided::Off => write!(f, "the referee has no tablebases"),
            Undecided::Castling => write!(
                f,
                "castling is still possible, and tablebases hold no such position"
            ),
            Undecided::TooManyPieces { pieces, max } => write!(
                f,
                "the position has {pieces} pieces and the referee's tables hold at most {max}"
            ),
            Undecided::MissingTable { material } => {
                write!(f, "the referee has no table for {material}")
            }
            Undecided::Failed { material } => {
                write!(f, "the referee's table for {material} could not be read")
            }
        }
    }
}

/// A position the tables resolve: the result with best play, the 50-move
/// rule suspended, and whether that rule would have changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    pub result: GameResult,
    /// A cursed win (or blessed loss): decisive only because ICCF suspends
    /// the 50-move rule here.
    pub cursed: bool,
}

impl Resolved {
    /// The tables' `wdl` for the side to move `turn`, with the 50-move rule
    /// suspended.
    pub fn of(turn: Color, wdl: Wdl) -> Resolved {
        let (result, cursed) = match wdl {
            Wdl::Win => (GameResult::win_for(turn), false),
            Wdl::CursedWin => (GameResult::win_for(turn), true),
            Wdl::Draw => (GameResult::Draw, false),
            Wdl::BlessedLoss => (GameResult::win_for(!turn), true),
            Wdl::Loss => (GameResult::win_for(!turn), false),
        };
        Resolved { result, cursed }
    }
}

impl fmt::Display for Resolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result {
            GameResult::WhiteWins => write!(f, "White wins")?,
            GameResult::BlackWins => write!(f, "Black wins")?,
            GameResult::Draw => write!(f, "draw")?,
        }
        if self.cursed {
            write!(f, " (beyond the 50-move rule, which ICCF suspends here)")?;
        }
        Ok(())
    }
}

/// What the tables say about a position: resolved, or why not.
pub type Said = Result<Resolved, Undecided>;

/// A set of tables the referee may ask. The implementation does IO (the
/// Syzygy files); the referee only calls `probe`.
pub trait Tables: Send + Sync + fmt::Debug {
    /// The tables' value of `pos` for the side to move, or why they have
    /// none.
    fn probe(&self, pos: &Chess) -> Result<Wdl, Undecided>;
}

/// What the tables say about `pos`. A position that is already over (mate,
/// stalemate, too little material) needs no table.
pub fn said(tables: Option<&dyn Tables>, pos: &Chess) -> Said {
    if pos.is_checkmate() {
        return Ok(Resolved::of(pos.turn(), Wdl::Loss));
    }
    if pos.is_stalemate() || pos.is_insufficient_material() {
        return Ok(Resolved::of(pos.turn(), Wdl::Draw));
    }
    let tables = tables.ok_or(Undecided::Off)?;
    tables.probe(pos).map(|wdl| Resolved::of(pos.turn(), wdl))
}

/// A claim judged against what the tables say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// The tables agree: the game ends with this result.
    Upheld(Resolved),
    /// The tables say otherwise (or cannot say): the claim is refused.
    Refused,
}

/// Judges `claimant`'s claim by what the tables `said`: a win claim stands
/// only where the tables give the claimant the win, a draw claim only where
/// they say draw (a draw claimed in a won position is refused too: the
/// claimant would give away half a point the tables deny the opponent).
pub fn judge_claim(claimant: Color, claim: Claim, said: &Said) -> Judgement {
    match said {
        Ok(r) => {
            let agrees = match claim {
                Claim::Win => r.result == GameResult::win_for(claimant),
                Claim::Draw => r.result == GameResult::Draw,
            };
            if agrees {
                Judgement::Upheld(*r)
            } else {
                Judgement::Refused
            }
        }
        Err(_) => Judgement::Refused,
    }
}

/// How the referee uses the tables (`[tablebase] adjudicate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Adjudicate {
    /// Only a player's claim ends a game by the tables.
    #[default]
    Claim,
    /// The referee ends a game as soon as a move reaches a resolved position.
    Auto,
}

impl Adjudicate {
    pub fn as_str(self) -> &'static str {
        match self {
            Adjudicate::Claim => "claim",
            Adjudicate::Auto => "auto",
        }
    }
}

/// The tables as the rules carry them: shared by every message of a run.
/// Equal when they are the same loaded set.
#[derive(Clone)]
pub struct SharedTables(pub Arc<dyn Tables>);

impl fmt::Debug for SharedTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for SharedTables {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedTables {}

/// What deciding a message needs of the tablebases.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TablebaseRules {
    pub adjudicate: Adjudicate,
    /// `None`: no tables (the option is off, or the edge did not load them).
    pub tables: Option<SharedTables>,
}

impl TablebaseRules {
    pub fn tables(&self) -> Option<&dyn Tables> {
        self.tables.as_ref().map(|t| &*t.0)
    }

    /// The tables, when the referee ends games by them on its own.
    pub fn auto(&self) -> Option<&dyn Tables> {
        self.tables()
            .filter(|_| self.adjudicate == Adjudicate::Auto)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// Tables that answer every position with one value.
    #[derive(Debug)]
    struct Always(Result<Wdl, Undecided>);

    impl Tables for Always {
        fn probe(&self, _: &Chess) -> Result<Wdl, Undecided> {
            self.0.clone()
        }
    }

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    const KRK_BLACK_TO_MOVE: &str = "8/8/8/4k3/8/8/8/R3K3 b - - 0 60";

    #[test]
    fn a_win_claim_stands_where_the_tables_give_the_claimant_the_win() {
        let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 60");
        let said = said(Some(&Always(Ok(Wdl::Win))), &p);
        assert_eq!(
            judge_claim(Color::White, Claim::Win, &said),
            Judgement::Upheld(Resolved {
                result: GameResult::WhiteWins,
                cursed: false
            })
        );
        assert_eq!(
            judge_claim(Color::White, Claim::Draw, &said),
            Judgement::Refused
        );
    }

    #[test]
    fn the_tables_value_is_for_the_side_to_move() {
        let p = pos(KRK_BLACK_TO_MOVE);
        let said = said(Some(&Always(Ok(Wdl::Loss))), &p);
        assert_eq!(said.as_ref().unwrap().result, GameResult::WhiteWins);
        assert_eq!(
            judge_claim(Color::Black, Claim::Win, &said),
            Judgement::Refused
        );
    }

    #[test]
    fn a_cursed_win_counts_as_a_win_and_a_blessed_loss_as_a_loss() {
        let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 90 100");
        let cursed = said(Some(&Always(Ok(Wdl::CursedWin))), &p);
        assert!(matches!(
            judge_claim(Color::White, Claim::Win, &cursed),
            Judgement::Upheld(Resolved { cursed: true, .. })
        ));
        assert_eq!(
            judge_claim(Color::White, Claim::Draw, &cursed),
            Judgement::Refused
        );
        let blessed = said(Some(&Always(Ok(Wdl::BlessedLoss))), &p);
        assert_eq!(blessed.unwrap().result, GameResult::BlackWins);
    }

    #[test]
    fn a_draw_claim_stands_only_where_the_tables_say_draw() {
        let p = pos("8/8/3k4/3r4/8/3RK3/8/8 w - - 0 1");
        let draw = said(Some(&Always(Ok(Wdl::Draw))), &p);
        assert!(matches!(
            judge_claim(Color::White, Claim::Draw, &draw),
            Judgement::Upheld(_)
        ));
        assert_eq!(
            judge_claim(Color::White, Claim::Win, &draw),
            Judgement::Refused
        );
    }

    #[test]
    fn without_tables_or_with_a_missing_one_nothing_is_decided() {
        let p = pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 60");
        assert_eq!(said(None, &p), Err(Undecided::Off));
        let missing = said(
            Some(&Always(Err(Undecided::MissingTable {
                material: "KRvK".into(),
            }))),
            &p,
        );
        assert_eq!(
            judge_claim(Color::White, Claim::Win, &missing),
            Judgement::Refused
        );
        assert_eq!(
            missing.unwrap_err().to_string(),
            "the referee has no table for KRvK"
        );
    }

    #[test]
    fn a_mate_on_the_board_needs_no_table() {
        // Black is mated: the position is lost for the side to move.
        let p = pos("4k2R/8/4K3/8/8/8/8/8 b - - 0 1");
        assert_eq!(said(None, &p).unwrap().result, GameResult::WhiteWins);
    }
}
