//! The verdict when a player's time runs out: lost, or drawn when the opponent
//! could never checkmate (FIDE Laws 6.9). [pure: no IO]

use shakmaty::{Color, Position};

/// How a game ends when `flagged`'s time has run out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeForfeit {
    /// `loser` loses on time.
    Lost { loser: Color },
    /// Drawn: the opponent cannot checkmate by any series of legal moves.
    Drawn,
}

impl TimeForfeit {
    /// The winner, `None` for the draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            TimeForfeit::Lost { loser } => Some(loser.other()),
            TimeForfeit::Drawn => None,
        }
    }
}

/// Decides a time forfeit of `flagged` in the position `pos` (the position in
/// which they were to move when their time ran out).
pub fn time_forfeit<P: Position>(pos: &P, flagged: Color) -> TimeForfeit {
    if pos.has_insufficient_material(flagged.other()) {
        TimeForfeit::Drawn
    } else {
        TimeForfeit::Lost { loser: flagged }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn flag_fall_loses_when_the_opponent_can_still_mate() {
        let start = Chess::default();
        assert_eq!(
            time_forfeit(&start, Color::White),
            TimeForfeit::Lost {
                loser: Color::White
            }
        );
        assert_eq!(
            time_forfeit(&start, Color::White).winner(),
            Some(Color::Black)
        );
        // A lone pawn can still promote and mate.
        let pawn = pos("8/8/4k3/8/8/4K3/4P3/8 b - - 0 1");
        assert_eq!(
            time_forfeit(&pawn, Color::Black),
            TimeForfeit::Lost {
                loser: Color::Black
            }
        );
    }

    #[test]
    fn flag_fall_is_a_draw_when_the_opponent_has_a_lone_king_or_minor() {
        // White has a queen, Black a bare king: White oversteps, Black cannot mate.
        let bare = pos("8/8/4k3/8/8/4K3/4Q3/8 w - - 0 1");
        assert_eq!(time_forfeit(&bare, Color::White), TimeForfeit::Drawn);
        assert_eq!(time_forfeit(&bare, Color::White).winner(), None);
        // A lone knight mates only with the opponent's own pieces blocking
        // their king: possible beside a rook, so overstepping there loses...
        let knight_v_rook = pos("8/8/4k3/8/4n3/4K3/4R3/8 w - - 0 1");
        assert_eq!(
            time_forfeit(&knight_v_rook, Color::White),
            TimeForfeit::Lost {
                loser: Color::White
            }
        );
        // ...but never beside a queen alone, so that is a draw.
        let knight_v_queen = pos("8/8/4k3/8/4n3/4K3/4Q3/8 w - - 0 1");
        assert_eq!(
            time_forfeit(&knight_v_queen, Color::White),
            TimeForfeit::Drawn
        );
        // King and bishop against a bare king: the bishop's side cannot mate.
        let bishop = pos("8/8/4k3/8/4b3/4K3/8/8 w - - 0 1");
        assert_eq!(time_forfeit(&bishop, Color::White), TimeForfeit::Drawn);
    }
}
