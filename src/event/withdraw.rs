//! A player leaves a section: what becomes of their unfinished games.
//! [pure: no IO]
//!
//! By default every unfinished game is scored as a forfeit: the opponent
//! wins, termination `forfeit`. Under ICCF's rule, chosen by the organiser,
//! the unfinished games are annulled instead when the player finished fewer
//! than half of their games on the board: struck from the table, so that
//! nobody gains a point from a player who hardly took part. Games already
//! finished stand either way.

use shakmaty::Color;

use super::crosstable::{EventGame, Outcome};

/// What the organiser chose for the unfinished games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithdrawalRule {
    /// Every unfinished game is lost by forfeit.
    Forfeit,
    /// Annulled when fewer than half of the player's games were finished on
    /// the board, lost by forfeit otherwise (ICCF).
    AnnulUnderHalf,
}

/// The rulings of one withdrawal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    /// Games the player finished on the board.
    pub played: usize,
    /// All the player's games in the section.
    pub total: usize,
    /// Whether the unfinished games are annulled (else forfeited).
    pub annulled: bool,
    /// `(game id, new outcome)` for each unfinished game, in the given order.
    pub rulings: Vec<(i64, Outcome)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WithdrawError {
    #[error("{0} plays no game in this section")]
    NotInSection(String),
}

/// Rules on the unfinished games of `email` among the section's `games`.
pub fn withdraw(
    email: &str,
    games: &[EventGame],
    rule: WithdrawalRule,
) -> Result<Withdrawal, WithdrawError> {
    let colour_in = |g: &EventGame| {
        if g.white.eq_ignore_ascii_case(email) {
            Some(Color::White)
        } else if g.black.eq_ignore_ascii_case(email) {
            Some(Color::Black)
        } else {
            None
        }
    };
    let mine: Vec<(&EventGame, Color)> = games
        .iter()
        .filter_map(|g| colour_in(g).map(|c| (g, c)))
        .collect();
    if mine.is_empty() {
        return Err(WithdrawError::NotInSection(email.to_owned()));
    }
    let played = mine
        .iter()
        .filter(|(g, _)| matches!(g.outcome, Outcome::Played(_)))
        .count();
    let total = mine.len();
    // "Fewer than half": 3 of 7 annuls, 4 of 8 does not.
    let annulled = rule == WithdrawalRule::AnnulUnderHalf && 2 * played < total;
    let rulings = mine
        .iter()
        .filter(|(g, _)| g.outcome == Outcome::Unfinished)
        .map(|&(g, colour)| {
            let outcome = if annulled {
                Outcome::Annulled
            } else {
                Outcome::Forfeit {
                    winner: colour.other(),
                }
            };
            (g.id, outcome)
        })
        .collect();
    Ok(Withdrawal {
        played,
        total,
        annulled,
        rulings,
    })
}

impl Withdrawal {
    /// Applies the rulings to the section's games (what the store does in
    /// its transaction).
    pub fn apply_to(&self, games: &mut [EventGame]) {
        for &(id, outcome) in &self.rulings {
            if let Some(g) = games.iter_mut().find(|g| g.id == id) {
                g.outcome = outcome;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::crosstable::tests::{games, players};
    use crate::event::crosstable::{Cell, Points, Sb, crosstable};

    /// Five players; Eve (seat 5) has finished 1 of her 4 games (a draw with
    /// Anna); the section is otherwise complete.
    fn section(eve_finished: &str) -> (Vec<crate::event::Player>, Vec<EventGame>) {
        let p = players(&["Anna", "Ben", "Cleo", "Dan", "Eve"]);
        let text =
            format!("1-2 1-0, 3-1 1/2-1/2, 1-4 1-0, 2-3 0-1, 4-2 1/2-1/2, 3-4 1-0, {eve_finished}");
        let g = games(&p, &text, 1);
        (p, g)
    }

    fn cells_of(t: &crate::event::Crosstable, name: &str) -> Vec<String> {
        let row = t
            .rows
            .iter()
            .find(|r| r.player.name.as_deref() == Some(name))
            .unwrap();
        row.cells
            .iter()
            .map(|c| c.iter().map(|x| x.symbol()).collect())
            .collect()
    }

    #[test]
    fn withdrawal_scores_the_unfinished_games_as_forfeits_to_the_opponents() {
        let (p, mut g) = section("5-1 1/2-1/2, 2-5 *, 5-3 *, 4-5 *");
        let w = withdraw("eve@club.example", &g, WithdrawalRule::Forfeit).unwrap();
        assert_eq!(
            w,
            Withdrawal {
                played: 1,
                total: 4,
                annulled: false,
                rulings: vec![
                    (
                        8,
                        Outcome::Forfeit {
                            winner: Color::White
                        }
                    ),
                    (
                        9,
                        Outcome::Forfeit {
                            winner: Color::Black
                        }
                    ),
                    (
                        10,
                        Outcome::Forfeit {
                            winner: Color::White
                        }
                    ),
                ],
            }
        );
        assert!(
            w.rulings
                .iter()
                .all(|(_, o)| o.ruling_termination() == Some("forfeit"))
        );
        w.apply_to(&mut g);
        let t = crosstable(&p, &g).unwrap();
        let eve = t.row_of("eve@club.example").unwrap();
        assert_eq!((eve.points, eve.played, eve.wins), (Points(1), 4, 0));
        let ben = t.row_of("ben@club.example").unwrap();
        // Ben: lost to Anna, lost to Cleo, drew Dan, won by forfeit over Eve.
        assert_eq!((ben.points, ben.played, ben.wins), (Points(3), 4, 1));
        let col = t
            .rows
            .iter()
            .position(|r| r.player.name.as_deref() == Some("Eve"))
            .unwrap();
        assert_eq!(ben.cells[col], [Cell::ForfeitWin]);
        assert!(cells_of(&t, "Eve").contains(&"-".to_owned()));
    }

    #[test]
    fn iccf_rule_annuls_the_unfinished_games_when_fewer_than_half_were_played() {
        let (p, mut g) = section("5-1 1/2-1/2, 2-5 *, 5-3 *, 4-5 *");
        let before = crosstable(&p, &g).unwrap();
        let w = withdraw("eve@club.example", &g, WithdrawalRule::AnnulUnderHalf).unwrap();
        assert!(w.annulled);
        assert_eq!(
            w.rulings,
            [
                (8, Outcome::Annulled),
                (9, Outcome::Annulled),
                (10, Outcome::Annulled)
            ]
        );
        assert!(
            w.rulings
                .iter()
                .all(|(_, o)| o.ruling_termination() == Some("annulled"))
        );
        w.apply_to(&mut g);
        let t = crosstable(&p, &g).unwrap();
        // Points, games and SB ignore annulled games: nothing moved but the
        // cells, which now show `x` where they showed `*`.
        for row in &t.rows {
            let old = before.row_of(&row.player.email).unwrap();
            assert_eq!(
                (row.points, row.played, row.sb),
                (old.points, old.played, old.sb)
            );
        }
        assert_eq!(cells_of(&t, "Eve").iter().filter(|c| *c == "x").count(), 3);
        assert!(!cells_of(&t, "Eve").contains(&"*".to_owned()));
        // Eve's draw with Anna stands, and counts in Anna's SB: Ben's ½ + ½ x
        // Cleo's 2½ + Dan's ½ + ½ x Eve's ½ = 2.5.
        assert_eq!(t.row_of("eve@club.example").unwrap().points, Points(1));
        assert_eq!(t.row_of("anna@club.example").unwrap().sb, Sb(10));
    }

    #[test]
    fn iccf_rule_forfeits_when_at_least_half_were_played() {
        // Eve finished 2 of 4: not fewer than half, so forfeits.
        let (_, g) = section("5-1 1/2-1/2, 2-5 0-1, 5-3 *, 4-5 *");
        let w = withdraw("eve@club.example", &g, WithdrawalRule::AnnulUnderHalf).unwrap();
        assert_eq!((w.played, w.total, w.annulled), (2, 4, false));
        assert_eq!(
            w.rulings,
            [
                (
                    9,
                    Outcome::Forfeit {
                        winner: Color::Black
                    }
                ),
                (
                    10,
                    Outcome::Forfeit {
                        winner: Color::White
                    }
                ),
            ]
        );
    }

    #[test]
    fn finished_and_annulled_games_are_left_alone() {
        let (_, mut g) = section("5-1 1/2-1/2, 2-5 0-1, 5-3 1-0, 4-5 *");
        g[9].outcome = Outcome::Annulled;
        let w = withdraw("EVE@club.example", &g, WithdrawalRule::Forfeit).unwrap();
        assert_eq!((w.played, w.total), (3, 4));
        assert!(w.rulings.is_empty());
    }

    #[test]
    fn withdrawing_someone_outside_the_section_is_an_error() {
        let (_, g) = section("5-1 *, 2-5 *, 5-3 *, 4-5 *");
        assert_eq!(
            withdraw("zoe@club.example", &g, WithdrawalRule::Forfeit),
            Err(WithdrawError::NotInSection("zoe@club.example".into()))
        );
    }
}
