//! The crosstable of a section: points, games, Sonneborn–Berger, wins and
//! rank of each player, each cell the result or `*`; and the JSON of
//! `event show --json`. [pure: no IO]
//!
//! The rules, stated once:
//! - a win scores 1, a draw ½, a loss 0; a forfeit scores as a win and a
//!   loss; an annulled game scores nothing and counts nowhere;
//! - `played` is the number of games with a score (finished or forfeited);
//! - Sonneborn–Berger is the sum, over the games with a score, of the
//!   player's score in the game times the opponent's points;
//! - `wins` counts forfeit wins too (FIDE's "WIN", not "WON");
//! - rank: points, then SB, then wins, all higher first; players equal on all
//!   three share the rank, shown as `3–4`.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;

use serde::Serialize;
use shakmaty::Color;

use super::players::Player;
use crate::game::{GameEnd, GameResult};

/// The termination stored for a game scored by forfeit.
pub const FORFEIT: &str = "forfeit";
/// The termination stored for an annulled game.
pub const ANNULLED: &str = "annulled";

/// Where a game of a section stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Unfinished,
    /// Finished on the board (mate, resignation, agreement, time, …).
    Played(GameResult),
    /// Scored without play: the other side withdrew.
    Forfeit {
        winner: Color,
    },
    /// Struck from the table: no score for either side.
    Annulled,
}

impl Outcome {
    /// Reads a game as the store keeps it: the PGN result and the
    /// termination. `None` when the two contradict each other.
    pub fn from_stored(result: &str, termination: Option<&str>) -> Option<Outcome> {
        let result = match result {
            "*" => None,
            r => Some(GameResult::parse(r)?),
        };
        match (result, termination) {
            (None, None) => Some(Outcome::Unfinished),
            (None, Some(ANNULLED)) => Some(Outcome::Annulled),
            (None, Some(_)) => None,
            (Some(GameResult::WhiteWins), Some(FORFEIT)) => Some(Outcome::Forfeit {
                winner: Color::White,
            }),
            (Some(GameResult::BlackWins), Some(FORFEIT)) => Some(Outcome::Forfeit {
                winner: Color::Black,
            }),
            (Some(_), Some(FORFEIT | ANNULLED)) => None,
            (Some(r), _) => Some(Outcome::Played(r)),
        }
    }

    /// The PGN result to store: `1-0`, `0-1`, `1/2-1/2`, or `*` (unfinished
    /// or annulled).
    pub fn pgn_result(self) -> &'static str {
        match self {
            Outcome::Unfinished | Outcome::Annulled => "*",
            Outcome::Played(r) => r.as_str(),
            Outcome::Forfeit { winner } => GameResult::win_for(winner).as_str(),
        }
    }

    /// The termination to store for a ruling, when this is one.
    pub fn ruling_termination(self) -> Option<&'static str> {
        match self {
            Outcome::Forfeit { .. } => Some(FORFEIT),
            Outcome::Annulled => Some(ANNULLED),
            Outcome::Unfinished | Outcome::Played(_) => None,
        }
    }

    /// The `result` of the JSON: the PGN result, `+-` / `-+` for a forfeit
    /// (the crosstable convention), `annulled`.
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Forfeit {
                winner: Color::White,
            } => "+-",
            Outcome::Forfeit {
                winner: Color::Black,
            } => "-+",
            Outcome::Annulled => ANNULLED,
            Outcome::Unfinished | Outcome::Played(_) => self.pgn_result(),
        }
    }

    /// Half-points of White and Black, when the game has a score.
    fn halves(self) -> Option<(u32, u32)> {
        let result = match self {
            Outcome::Played(r) => r,
            Outcome::Forfeit { winner } => GameResult::win_for(winner),
            Outcome::Unfinished | Outcome::Annulled => return None,
        };
        Some(match result {
            GameResult::WhiteWins => (2, 0),
            GameResult::BlackWins => (0, 2),
            GameResult::Draw => (1, 1),
        })
    }
}

/// A game of a section, its players by address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventGame {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub outcome: Outcome,
}

/// Points, counted in half-points so that ties compare exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Points(pub u32);

impl Points {
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 / 2)?;
        if self.0 % 2 == 1 {
            f.write_str(".5")?;
        }
        Ok(())
    }
}

/// Sonneborn–Berger, counted in quarter points (a draw is half the
/// opponent's half-points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Sb(pub u32);

impl Sb {
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl fmt::Display for Sb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 / 4)?;
        f.write_str(["", ".25", ".5", ".75"][(self.0 % 4) as usize])
    }
}

/// A rank, shared by `first..=last` when players tie on every criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rank {
    pub first: usize,
    pub last: usize,
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}–{}", self.first, self.last)
        }
    }
}

/// One game seen from one player's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Win,
    Draw,
    Loss,
    Unfinished,
    ForfeitWin,
    ForfeitLoss,
    Annulled,
}

impl Cell {
    pub fn symbol(self) -> &'static str {
        match self {
            Cell::Win => "1",
            Cell::Draw => "½",
            Cell::Loss => "0",
            Cell::Unfinished => "*",
            Cell::ForfeitWin => "+",
            Cell::ForfeitLoss => "-",
            Cell::Annulled => "x",
        }
    }

    fn of(outcome: Outcome, mine: Color) -> Cell {
        match outcome {
            Outcome::Unfinished => Cell::Unfinished,
            Outcome::Annulled => Cell::Annulled,
            Outcome::Forfeit { winner } if winner == mine => Cell::ForfeitWin,
            Outcome::Forfeit { .. } => Cell::ForfeitLoss,
            Outcome::Played(GameResult::Draw) => Cell::Draw,
            Outcome::Played(r) if r == GameResult::win_for(mine) => Cell::Win,
            Outcome::Played(_) => Cell::Loss,
        }
    }
}

/// A player's line of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The player's place in the list the section was paired from.
    pub seat: usize,
    pub player: Player,
    pub points: Points,
    pub played: u32,
    pub sb: Sb,
    pub wins: u32,
    pub rank: Rank,
    /// Against the player of each row, in the rows' order: the games in the
    /// order given (two per cell in a double round robin). Empty on the
    /// diagonal.
    pub cells: Vec<Vec<Cell>>,
}

/// The table, rows in rank order (ties in list order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosstable {
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CrosstableError {
    #[error("game {game}: {email} is not a player of the section")]
    UnknownPlayer { game: i64, email: String },
    #[error("game {game}: {email} cannot play themselves")]
    SamePlayer { game: i64, email: String },
}

/// Builds the table of `players` from the section's `games`.
pub fn crosstable(players: &[Player], games: &[EventGame]) -> Result<Crosstable, CrosstableError> {
    let seat_of: HashMap<String, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.email.to_ascii_lowercase(), i))
        .collect();
    let find = |game: i64, email: &str| {
        seat_of
            .get(&email.to_ascii_lowercase())
            .copied()
            .ok_or_else(|| CrosstableError::UnknownPlayer {
                game,
                email: email.to_owned(),
            })
    };
    let mut seated = Vec::with_capacity(games.len());
    for g in games {
        let (w, b) = (find(g.id, &g.white)?, find(g.id, &g.black)?);
        if w == b {
            return Err(CrosstableError::SamePlayer {
                game: g.id,
                email: g.white.clone(),
            });
        }
        seated.push((w, b, g.outcome));
    }

    let n = players.len();
    let mut halves = vec![0u32; n];
    let mut played = vec![0u32; n];
    let mut wins = vec![0u32; n];
    for &(w, b, outcome) in &seated {
        if let Some((hw, hb)) = outcome.halves() {
            halves[w] += hw;
            halves[b] += hb;
            played[w] += 1;
            played[b] += 1;
            wins[w] += u32::from(hw == 2);
            wins[b] += u32::from(hb == 2);
        }
    }
    let mut sb = vec![0u32; n];
    for &(w, b, outcome) in &seated {
        if let Some((hw, hb)) = outcome.halves() {
            sb[w] += hw * halves[b];
            sb[b] += hb * halves[w];
        }
    }

    let key = |s: usize| (halves[s], sb[s], wins[s]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    let mut place = vec![0usize; n];
    for (i, &s) in order.iter().enumerate() {
        place[s] = i;
    }

    let mut rows: Vec<Row> = order
        .iter()
        .enumerate()
        .map(|(i, &s)| Row {
            seat: s,
            player: players[s].clone(),
            points: Points(halves[s]),
            played: played[s],
            sb: Sb(sb[s]),
            wins: wins[s],
            rank: Rank {
                first: order.iter().position(|&t| key(t) == key(s)).unwrap_or(i) + 1,
                last: order.iter().rposition(|&t| key(t) == key(s)).unwrap_or(i) + 1,
            },
            cells: vec![Vec::new(); n],
        })
        .collect();
    for &(w, b, outcome) in &seated {
        rows[place[w]].cells[place[b]].push(Cell::of(outcome, Color::White));
        rows[place[b]].cells[place[w]].push(Cell::of(outcome, Color::Black));
    }
    Ok(Crosstable { rows })
}

/// A section as its standings are counted: its name, players and games,
/// as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub players: Vec<Player>,
    pub games: Vec<EventGame>,
}

/// The table of a section, as a game-over mail states a player's line of
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The section's name.
    pub event: String,
    /// How many players it has.
    pub players: usize,
    pub table: Crosstable,
}

impl Section {
    /// The standing with game `game` ended by `end`, as its result is
    /// stored (the PGN result and the termination).
    pub fn standing_with(&self, game: i64, end: GameEnd) -> Result<Standing, CrosstableError> {
        let outcome = Outcome::from_stored(end.result_text(), Some(end.termination.as_str()))
            .unwrap_or(Outcome::Played(end.result));
        let games: Vec<EventGame> = self
            .games
            .iter()
            .map(|g| {
                let mut g = g.clone();
                if g.id == game {
                    g.outcome = outcome;
                }
                g
            })
            .collect();
        Ok(Standing {
            event: self.name.clone(),
            players: self.players.len(),
            table: crosstable(&self.players, &games)?,
        })
    }
}

impl Crosstable {
    /// The row of the player with this address.
    pub fn row_of(&self, email: &str) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.player.email.eq_ignore_ascii_case(email))
    }

    /// The table as fixed-width text, players shown by `label` (their
    /// address for the organiser, [`super::public_name`] for the public).
    pub fn to_text(&self, label: impl Fn(&Player) -> String) -> String {
        let labels: Vec<String> = self.rows.iter().map(|r| label(&r.player)).collect();
        let name_w = labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let rank_w = self
            .rows
            .iter()
            .map(|r| r.rank.to_string().chars().count())
            .max()
            .unwrap_or(1)
            .max(1);
        let cell_w = self
            .rows
            .iter()
            .flat_map(|r| r.cells.iter().map(Vec::len))
            .max()
            .unwrap_or(1)
            .max(self.rows.len().to_string().len());
        let mut out = format!("{:>rank_w$}  {:<name_w$}", "#", "Player");
        for i in 1..=self.rows.len() {
            write!(out, " {i:>cell_w$}").expect("writing to a String");
        }
        out.push_str("  Points  Games     SB\n");
        for (row, label) in self.rows.iter().zip(&labels) {
            write!(out, "{:>rank_w$}  {label:<name_w$}", row.rank.to_string())
                .expect("writing to a String");
            for cell in &row.cells {
                let text: String = cell.iter().map(|c| c.symbol()).collect();
                write!(out, " {text:>cell_w$}").expect("writing to a String");
            }
            writeln!(
                out,
                "  {:>6}  {:>5}  {:>5}",
                row.points.to_string(),
                row.played,
                row.sb.to_string()
            )
            .expect("writing to a String");
        }
        let all: Vec<Cell> = self
            .rows
            .iter()
            .flat_map(|r| r.cells.iter().flatten().copied())
            .collect();
        if all
            .iter()
            .any(|c| matches!(c, Cell::ForfeitWin | Cell::ForfeitLoss))
        {
            out.push_str("+/- won/lost by forfeit\n");
        }
        if all.contains(&Cell::Annulled) {
            out.push_str("x annulled: not counted\n");
        }
        if all.contains(&Cell::Unfinished) {
            out.push_str("* in progress\n");
        }
        out
    }
}

/// `event show --json`: `{"id","name","players":[{"email","name","points",
/// "played","sb","rank"}],"games":[{"id","white","black","result"}]}`,
/// players in rank order, `rank` as shown (`3–4` when shared), `result` as
/// [`Outcome::code`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventJson {
    pub id: i64,
    pub name: String,
    pub players: Vec<PlayerJson>,
    pub games: Vec<GameJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerJson {
    pub email: String,
    pub name: Option<String>,
    pub points: f64,
    pub played: u32,
    pub sb: f64,
    pub rank: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameJson {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub result: String,
}

pub fn event_json(id: i64, name: &str, table: &Crosstable, games: &[EventGame]) -> EventJson {
    EventJson {
        id,
        name: name.to_owned(),
        players: table
            .rows
            .iter()
            .map(|r| PlayerJson {
                email: r.player.email.clone(),
                name: r.player.name.clone(),
                points: r.points.as_f64(),
                played: r.played,
                sb: r.sb.as_f64(),
                rank: r.rank.to_string(),
            })
            .collect(),
        games: games
            .iter()
            .map(|g| GameJson {
                id: g.id,
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.outcome.code().to_owned(),
            })
            .collect(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn players(names: &[&str]) -> Vec<Player> {
        names
            .iter()
            .map(|n| Player {
                email: format!("{}@club.example", n.to_ascii_lowercase()),
                name: Some((*n).to_owned()),
            })
            .collect()
    }

    /// Games written `white-black result` with seats from 1, e.g.
    /// `"1-8 1-0, 2-7 0-1, 3-6 1/2-1/2, 4-5 *"`; ids count from `first_id`.
    pub(crate) fn games(players: &[Player], text: &str, first_id: i64) -> Vec<EventGame> {
        text.split([',', '\n'])
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .enumerate()
            .map(|(i, g)| {
                let (pair, result) = g.split_once(' ').unwrap();
                let (w, b) = pair.split_once('-').unwrap();
                let seat = |s: &str| players[s.parse::<usize>().unwrap() - 1].email.clone();
                EventGame {
                    id: first_id + i as i64,
                    white: seat(w),
                    black: seat(b),
                    outcome: Outcome::from_stored(result.trim(), None).unwrap(),
                }
            })
            .collect()
    }

    fn standings(t: &Crosstable) -> Vec<(String, String, String, u32, String, u32)> {
        t.rows
            .iter()
            .map(|r| {
                (
                    r.rank.to_string(),
                    r.player.name.clone().unwrap(),
                    r.points.to_string(),
                    r.wins,
                    r.sb.to_string(),
                    r.played,
                )
            })
            .collect()
    }

    fn row<'a>(t: &'a Crosstable, name: &str) -> &'a Row {
        t.rows
            .iter()
            .find(|r| r.player.name.as_deref() == Some(name))
            .unwrap()
    }

    fn cell(t: &Crosstable, of: &str, against: &str) -> String {
        let col = t
            .rows
            .iter()
            .position(|r| r.player.name.as_deref() == Some(against))
            .unwrap();
        row(t, of).cells[col].iter().map(|c| c.symbol()).collect()
    }

    // FIDE Candidates Tournament 2018, Berlin, a double round robin of eight,
    // seats as drawn: 1 Kramnik, 2 Karjakin, 3 Aronian, 4 Caruana, 5 So,
    // 6 Ding, 7 Mamedyarov, 8 Grischuk. Round-by-round results as published
    // by The Week in Chess and reproduced on Wikipedia ("Candidates
    // Tournament 2018"); the published final ranking (chesshive.com, "Caruana
    // leads Candidates 2018 with 4 rounds to go", table "Final Ranking": Pts,
    // TB2 = wins, TB3 = Sonneborn–Berger) reads:
    //   Caruana 9, 5 wins, SB 57;      Mamedyarov 8, 3, 54.75;
    //   Karjakin 8, 4, 54.75;          Ding 7.5, 1, 52.5;
    //   Kramnik 6.5, 3, 41.5;          Grischuk 6.5, 2, 44;
    //   So 6, 1, 40.5;                 Aronian 4.5, 1, 33.
    // (chessgames.com agrees on the points and +/−/= of every player.)
    // FIDE broke ties there by the games between the tied players first, so
    // its order (Mamedyarov 2nd, Kramnik 5th) differs from wildt's (SB, then
    // wins), which puts Karjakin 2nd (equal SB, more wins) and Grischuk 5th.
    const CANDIDATES_2018: &str = "
        1-8 1-0, 2-7 0-1, 3-6 1/2-1/2, 4-5 1-0
        8-5 1-0, 6-4 1/2-1/2, 7-3 1/2-1/2, 1-2 1/2-1/2
        2-8 1/2-1/2, 3-1 0-1, 4-7 1/2-1/2, 5-6 1/2-1/2
        8-6 1/2-1/2, 7-5 1/2-1/2, 1-4 0-1, 2-3 0-1
        3-8 1/2-1/2, 4-2 1/2-1/2, 5-1 1/2-1/2, 6-7 1/2-1/2
        4-8 1/2-1/2, 5-3 1-0, 6-2 1/2-1/2, 7-1 1-0
        8-7 1/2-1/2, 1-6 1/2-1/2, 2-5 1-0, 3-4 0-1
        8-1 1-0, 7-2 1/2-1/2, 6-3 1/2-1/2, 5-4 1/2-1/2
        5-8 1/2-1/2, 4-6 1/2-1/2, 3-7 1/2-1/2, 2-1 1-0
        8-2 1/2-1/2, 1-3 1-0, 7-4 1/2-1/2, 6-5 1/2-1/2
        6-8 1/2-1/2, 5-7 1/2-1/2, 4-1 1/2-1/2, 3-2 0-1
        8-3 1/2-1/2, 2-4 1-0, 1-5 1/2-1/2, 7-6 0-1
        7-8 1-0, 6-1 1/2-1/2, 5-2 1/2-1/2, 4-3 1-0
        8-4 0-1, 3-5 1/2-1/2, 2-6 1/2-1/2, 1-7 1/2-1/2";

    fn candidates_2018() -> (Vec<Player>, Vec<EventGame>) {
        let players = players(&[
            "Kramnik",
            "Karjakin",
            "Aronian",
            "Caruana",
            "So",
            "Ding",
            "Mamedyarov",
            "Grischuk",
        ]);
        let games = games(&players, CANDIDATES_2018, 1);
        (players, games)
    }

    #[test]
    fn candidates_2018_points_wins_and_sb_match_the_published_table() {
        let (players, games) = candidates_2018();
        assert_eq!(games.len(), 56);
        let t = crosstable(&players, &games).unwrap();
        let s = |rank: &str, name: &str, pts: &str, wins: u32, sb: &str| {
            (
                rank.to_owned(),
                name.to_owned(),
                pts.to_owned(),
                wins,
                sb.to_owned(),
                14,
            )
        };
        assert_eq!(
            standings(&t),
            [
                s("1", "Caruana", "9", 5, "57"),
                s("2", "Karjakin", "8", 4, "54.75"),
                s("3", "Mamedyarov", "8", 3, "54.75"),
                s("4", "Ding", "7.5", 1, "52.5"),
                s("5", "Grischuk", "6.5", 2, "44"),
                s("6", "Kramnik", "6.5", 3, "41.5"),
                s("7", "So", "6", 1, "40.5"),
                s("8", "Aronian", "4.5", 1, "33"),
            ]
        );
    }

    #[test]
    fn double_round_robin_cells_hold_both_games_in_order() {
        let (players, games) = candidates_2018();
        let t = crosstable(&players, &games).unwrap();
        // Round 5 Caruana-Karjakin ½, round 12 Karjakin-Caruana 1-0.
        assert_eq!(cell(&t, "Caruana", "Karjakin"), "½0");
        assert_eq!(cell(&t, "Karjakin", "Caruana"), "½1");
        assert_eq!(cell(&t, "Caruana", "Aronian"), "11");
        assert_eq!(cell(&t, "Aronian", "Caruana"), "00");
        assert_eq!(cell(&t, "Caruana", "Caruana"), "");
    }

    #[test]
    fn equal_points_are_ranked_by_sonneborn_berger() {
        // A and B both score 2 with two wins; B beat A (2 points) and D, A
        // beat C (1.5) and D, so B's SB is 2.5 and A's 2.
        let p = players(&["A", "B", "C", "D"]);
        let g = games(
            &p,
            "1-2 0-1, 1-3 1-0, 1-4 1-0, 2-3 0-1, 2-4 1-0, 3-4 1/2-1/2",
            1,
        );
        let t = crosstable(&p, &g).unwrap();
        let s = |rank: &str, name: &str, pts: &str, wins: u32, sb: &str| {
            (
                rank.to_owned(),
                name.to_owned(),
                pts.to_owned(),
                wins,
                sb.to_owned(),
                3,
            )
        };
        assert_eq!(
            standings(&t),
            [
                s("1", "B", "2", 2, "2.5"),
                s("2", "A", "2", 2, "2"),
                s("3", "C", "1.5", 1, "2.25"),
                s("4", "D", "0.5", 0, "0.75"),
            ]
        );
    }

    #[test]
    fn equal_points_and_sb_are_ranked_by_wins_and_full_ties_share_the_rank() {
        // Everyone scores 1.5 with SB 2.25; A drew all three, B, C and D won
        // one each, so A is last and the others share "1–3".
        let p = players(&["A", "B", "C", "D"]);
        let g = games(
            &p,
            "1-2 1/2-1/2, 1-3 1/2-1/2, 1-4 1/2-1/2, 2-3 1-0, 4-2 1-0, 3-4 1-0",
            1,
        );
        let t = crosstable(&p, &g).unwrap();
        let s = |rank: &str, name: &str, wins: u32| {
            (
                rank.to_owned(),
                name.to_owned(),
                "1.5".to_owned(),
                wins,
                "2.25".to_owned(),
                3,
            )
        };
        assert_eq!(
            standings(&t),
            [
                s("1–3", "B", 1),
                s("1–3", "C", 1),
                s("1–3", "D", 1),
                s("4", "A", 0)
            ]
        );
        assert_eq!(Rank { first: 3, last: 4 }.to_string(), "3–4");
    }

    #[test]
    fn unfinished_games_show_a_star_and_count_for_nothing_yet() {
        let p = players(&["A", "B", "C"]);
        let g = games(&p, "1-2 1-0, 2-3 *, 3-1 1/2-1/2", 1);
        let t = crosstable(&p, &g).unwrap();
        assert_eq!(cell(&t, "B", "C"), "*");
        assert_eq!(cell(&t, "C", "B"), "*");
        assert_eq!((row(&t, "B").points, row(&t, "B").played), (Points(0), 1));
        assert_eq!((row(&t, "C").points, row(&t, "C").played), (Points(1), 1));
        assert_eq!((row(&t, "A").points, row(&t, "A").played), (Points(3), 2));
        // A: 1 x B's 0 + ½ x C's ½ = 0.25.
        assert_eq!(row(&t, "A").sb, Sb(1));
    }

    #[test]
    fn a_game_with_a_stranger_or_against_oneself_is_refused() {
        let p = players(&["A", "B", "C"]);
        let mut g = games(&p, "1-2 1-0", 1);
        g[0].black = "eve@elsewhere.example".into();
        assert_eq!(
            crosstable(&p, &g),
            Err(CrosstableError::UnknownPlayer {
                game: 1,
                email: "eve@elsewhere.example".into()
            })
        );
        g[0].black = "A@Club.Example".into();
        assert_eq!(
            crosstable(&p, &g),
            Err(CrosstableError::SamePlayer {
                game: 1,
                email: "a@club.example".into()
            })
        );
    }

    #[test]
    fn stored_result_and_termination_read_back_as_the_same_outcome() {
        let all = [
            Outcome::Unfinished,
            Outcome::Played(GameResult::WhiteWins),
            Outcome::Played(GameResult::BlackWins),
            Outcome::Played(GameResult::Draw),
            Outcome::Forfeit {
                winner: Color::White,
            },
            Outcome::Forfeit {
                winner: Color::Black,
            },
            Outcome::Annulled,
        ];
        for o in all {
            assert_eq!(
                Outcome::from_stored(o.pgn_result(), o.ruling_termination()),
                Some(o)
            );
        }
        assert_eq!(
            Outcome::from_stored("0-1", Some("resignation")),
            Some(Outcome::Played(GameResult::BlackWins))
        );
        assert_eq!(Outcome::from_stored("1/2-1/2", Some(FORFEIT)), None);
        assert_eq!(Outcome::from_stored("*", Some(FORFEIT)), None);
        assert_eq!(Outcome::from_stored("*", Some("resignation")), None);
        assert_eq!(Outcome::from_stored("1-0", Some(ANNULLED)), None);
        assert_eq!(Outcome::from_stored("2-0", None), None);
    }

    #[test]
    fn json_has_the_fields_of_the_issue_with_players_in_rank_order() {
        let mut p = players(&["A", "B", "C"]);
        p[2].name = None;
        let mut g = games(&p, "1-2 0-1, 2-3 1/2-1/2, 3-1 *", 7);
        g.push(EventGame {
            id: 10,
            white: p[0].email.clone(),
            black: p[2].email.clone(),
            outcome: Outcome::Forfeit {
                winner: Color::Black,
            },
        });
        g.push(EventGame {
            id: 11,
            white: p[1].email.clone(),
            black: p[0].email.clone(),
            outcome: Outcome::Annulled,
        });
        let t = crosstable(&p, &g).unwrap();
        let json = serde_json::to_value(event_json(3, "Club 2027", &t, &g)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "id": 3,
                "name": "Club 2027",
                "players": [
                    {"email": "b@club.example", "name": "B", "points": 1.5, "played": 2, "sb": 0.75, "rank": "1–2"},
                    {"email": "c@club.example", "name": null, "points": 1.5, "played": 2, "sb": 0.75, "rank": "1–2"},
                    {"email": "a@club.example", "name": "A", "points": 0.0, "played": 2, "sb": 0.0, "rank": "3"},
                ],
                "games": [
                    {"id": 7, "white": "a@club.example", "black": "b@club.example", "result": "0-1"},
                    {"id": 8, "white": "b@club.example", "black": "c@club.example", "result": "1/2-1/2"},
                    {"id": 9, "white": "c@club.example", "black": "a@club.example", "result": "*"},
                    {"id": 10, "white": "a@club.example", "black": "c@club.example", "result": "-+"},
                    {"id": 11, "white": "b@club.example", "black": "a@club.example", "result": "annulled"},
                ],
            })
        );
    }

    #[test]
    fn text_table_shows_ranks_cells_totals_and_a_legend_for_what_is_unusual() {
        let p = players(&["Anna", "Ben", "Cleo"]);
        let g = games(&p, "1-2 1-0, 2-3 *, 3-1 1/2-1/2", 1);
        let t = crosstable(&p, &g).unwrap();
        assert_eq!(
            t.to_text(|p| p.name.clone().unwrap()),
            "#  Player 1 2 3  Points  Games     SB\n\
             1  Anna     ½ 1     1.5      2   0.25\n\
             2  Cleo   ½   *     0.5      1   0.75\n\
             3  Ben    0 *         0      1      0\n\
             * in progress\n"
        );
    }
}
