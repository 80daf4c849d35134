//! Berger tables: who plays whom, with which colour, in an all-play-all
//! section of 3 to 16 players, once or twice (colours swapped). [pure: no IO]
//!
//! The tables are FIDE's (Handbook C.05, Annex 1): with an even number `n`
//! of seats, round `r` pairs the last seat with seat `s = (r-1)·n/2 mod
//! (n-1) + 1`, the last seat taking Black in odd rounds and White in even
//! ones; every other board `k` pairs `s+k` (White) with `s-k` (Black),
//! counted round the `n-1` other seats. With an odd number of players the
//! table of `n+1` is used and whoever meets the highest seat has a bye.
//!
//! What this guarantees, and the tests check for every size: each pair meets
//! once per cycle; each round is a perfect matching of the seats that play;
//! in one cycle every player's whites and blacks differ by at most one
//! (exactly equal with an odd number of players); with two cycles they are
//! equal, because the second cycle is the first with colours swapped.
//!
//! With two cycles the last two rounds of the first are played in the other
//! order, as C.05 recommends, so that nobody has the same colour three
//! rounds running. In correspondence chess all games start together, so the
//! round is only the order of the games in the welcome mails.

/// The fewest players a section may have.
pub const MIN_PLAYERS: usize = 3;
/// The most players a section may have.
pub const MAX_PLAYERS: usize = 16;

/// One game per pair, or two with colours swapped (`--double`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cycles {
    Single,
    Double,
}

/// One game of the schedule. Seats count from 0 in the order the players
/// were listed (seat 0 is Berger's number 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    pub white: usize,
    pub black: usize,
}

/// One round: its games (board order) and the seat that sits out, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// From 1.
    pub number: usize,
    pub games: Vec<Pairing>,
    pub bye: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("a section needs at least {MIN_PLAYERS} players, not {0}")]
    TooFew(usize),
    #[error("a section has at most {MAX_PLAYERS} players, not {0}")]
    TooMany(usize),
}

/// The schedule of a section of `players` players.
pub fn berger(players: usize, cycles: Cycles) -> Result<Vec<Round>, PairingError> {
    if players < MIN_PLAYERS {
        return Err(PairingError::TooFew(players));
    }
    if players > MAX_PLAYERS {
        return Err(PairingError::TooMany(players));
    }
    let table = even_table(players + players % 2);
    let rounds: Vec<Vec<Pairing>> = match cycles {
        Cycles::Single => table,
        Cycles::Double => {
            let mut first = table.clone();
            let last = first.len() - 1;
            first.swap(last - 1, last);
            let second = table.iter().map(|round| {
                round
                    .iter()
                    .map(|p| Pairing {
                        white: p.black,
                        black: p.white,
                    })
                    .collect()
            });
            first.into_iter().chain(second).collect()
        }
    };
    Ok(rounds
        .into_iter()
        .enumerate()
        .map(|(i, games)| {
            let bye = games.iter().find_map(|p| {
                if p.white == players {
                    Some(p.black)
                } else if p.black == players {
                    Some(p.white)
                } else {
                    None
                }
            });
            let games = games
                .into_iter()
                .filter(|p| p.white < players && p.black < players)
                .collect();
            Round {
                number: i + 1,
                games,
                bye,
            }
        })
        .collect())
}

/// FIDE's table for an even `n`, seats from 0.
fn even_table(n: usize) -> Vec<Vec<Pairing>> {
    let others = n - 1;
    // Berger's numbers 1..=others, wrapped round the circle of the others.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(others as isize) as usize + 1 };
    (1..n)
        .map(|r| {
            let s = (r - 1) * (n / 2) % others + 1;
            let mut games = Vec::with_capacity(n / 2);
            games.push(if r % 2 == 0 { (n, s) } else { (s, n) });
            for k in 1..n / 2 {
                let (s, k) = (s as isize, k as isize);
                games.push((wrap(s + k), wrap(s - k)));
            }
            games
                .into_iter()
                .map(|(w, b)| Pairing {
                    white: w - 1,
                    black: b - 1,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round written as FIDE prints it, e.g. "8-5 6-4 7-3 1-2" (numbers from 1).
    fn fide(round: &str) -> Vec<Pairing> {
        round
            .split_whitespace()
            .map(|g| {
                let (w, b) = g.split_once('-').unwrap();
                Pairing {
                    white: w.parse::<usize>().unwrap() - 1,
                    black: b.parse::<usize>().unwrap() - 1,
                }
            })
            .collect()
    }

    fn games(rounds: &[Round]) -> Vec<Pairing> {
        rounds
            .iter()
            .flat_map(|r| r.games.iter().copied())
            .collect()
    }

    // The tables printed in FIDE Handbook C.05 Annex 1, as reproduced at
    // http://c.w.fox.tripod.com/chess/berger.html ("Berger Tables").
    #[test]
    fn eight_players_follow_fides_printed_table() {
        let printed = [
            "1-8 2-7 3-6 4-5",
            "8-5 6-4 7-3 1-2",
            "2-8 3-1 4-7 5-6",
            "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7",
            "8-7 1-6 2-5 3-4",
            "4-8 5-3 6-2 7-1",
        ];
        let rounds = berger(8, Cycles::Single).unwrap();
        assert_eq!(rounds.len(), printed.len());
        for (round, text) in rounds.iter().zip(printed) {
            assert_eq!(round.games, fide(text), "round {}", round.number);
            assert_eq!(round.bye, None);
        }
    }

    #[test]
    fn twelve_players_follow_fides_printed_table() {
        let printed = [
            "1-12 2-11 3-10 4-9 5-8 6-7",
            "12-7 8-6 9-5 10-4 11-3 1-2",
            "2-12 3-1 4-11 5-10 6-9 7-8",
            "12-8 9-7 10-6 11-5 1-4 2-3",
            "3-12 4-2 5-1 6-11 7-10 8-9",
            "12-9 10-8 11-7 1-6 2-5 3-4",
            "4-12 5-3 6-2 7-1 8-11 9-10",
            "12-10 11-9 1-8 2-7 3-6 4-5",
            "5-12 6-4 7-3 8-2 9-1 10-11",
            "12-11 1-10 2-9 3-8 4-7 5-6",
            "6-12 7-5 8-4 9-3 10-2 11-1",
        ];
        let rounds = berger(12, Cycles::Single).unwrap();
        let got: Vec<_> = rounds.iter().map(|r| r.games.clone()).collect();
        let want: Vec<_> = printed.iter().map(|t| fide(t)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn odd_section_gives_the_bye_to_whoever_meets_the_highest_seat() {
        // Five players use the table of six: "1-6 2-5 3-4", "6-4 5-3 1-2", ...
        let rounds = berger(5, Cycles::Single).unwrap();
        let byes: Vec<_> = rounds.iter().map(|r| r.bye.unwrap() + 1).collect();
        assert_eq!(byes, [1, 4, 2, 5, 3]);
        assert_eq!(rounds[0].games, fide("2-5 3-4"));
        assert_eq!(rounds[1].games, fide("5-3 1-2"));
    }

    // The 2018 Candidates Tournament (Berlin) was paired with this table and
    // seats 1 Kramnik, 2 Karjakin, 3 Aronian, 4 Caruana, 5 So, 6 Ding,
    // 7 Mamedyarov, 8 Grischuk; its round 6 was the table's round 7 and round
    // 7 its round 6 (FIDE's swap), and rounds 8-14 the table with colours
    // swapped (e.g. round 8 Grischuk-Kramnik, round 14 Kramnik-Mamedyarov).
    #[test]
    fn double_round_robin_swaps_the_last_two_rounds_then_repeats_with_colours_swapped() {
        let rounds = berger(8, Cycles::Double).unwrap();
        let single = berger(8, Cycles::Single).unwrap();
        assert_eq!(rounds.len(), 14);
        assert_eq!(rounds[5].games, single[6].games);
        assert_eq!(rounds[6].games, single[5].games);
        assert_eq!(rounds[5].games, fide("4-8 5-3 6-2 7-1"));
        assert_eq!(rounds[7].games, fide("8-1 7-2 6-3 5-4"));
        assert_eq!(rounds[13].games, fide("8-4 3-5 2-6 1-7"));
        assert_eq!(
            rounds.iter().map(|r| r.number).collect::<Vec<_>>(),
            (1..=14).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_pair_meets_exactly_once_in_a_single_round_robin_of_3_to_16() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let rounds = berger(n, Cycles::Single).unwrap();
            let mut met = vec![vec![0; n]; n];
            for p in games(&rounds) {
                assert_ne!(p.white, p.black, "n={n}");
                met[p.white][p.black] += 1;
                met[p.black][p.white] += 1;
            }
            for (a, row) in met.iter().enumerate() {
                for (b, &count) in row.iter().enumerate() {
                    assert_eq!(count, usize::from(a != b), "n={n}: {a} v {b}");
                }
            }
            assert_eq!(games(&rounds).len(), n * (n - 1) / 2, "n={n}");
        }
    }

    #[test]
    fn double_round_robin_of_3_to_16_plays_every_pair_twice_with_colours_swapped() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let rounds = berger(n, Cycles::Double).unwrap();
            let mut as_white = vec![vec![0; n]; n];
            for p in games(&rounds) {
                as_white[p.white][p.black] += 1;
            }
            for (a, row) in as_white.iter().enumerate() {
                for (b, &count) in row.iter().enumerate() {
                    assert_eq!(count, usize::from(a != b), "n={n}: {a} White v {b}");
                }
            }
        }
    }

    #[test]
    fn every_round_is_a_perfect_matching_of_the_players_not_on_bye() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            for cycles in [Cycles::Single, Cycles::Double] {
                let rounds = berger(n, cycles).unwrap();
                let per_cycle = n - 1 + n % 2;
                let cycle_count = if cycles == Cycles::Double { 2 } else { 1 };
                assert_eq!(rounds.len(), per_cycle * cycle_count, "n={n}");
                for round in &rounds {
                    let mut seen = vec![0; n];
                    for p in &round.games {
                        seen[p.white] += 1;
                        seen[p.black] += 1;
                    }
                    if let Some(bye) = round.bye {
                        seen[bye] += 1;
                    }
                    assert!(seen.iter().all(|&s| s == 1), "n={n} round {}", round.number);
                    assert_eq!(round.bye.is_some(), n % 2 == 1, "n={n}");
                }
            }
        }
    }

    #[test]
    fn colours_differ_by_at_most_one_per_player_and_are_equal_in_double_or_odd_sections() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            for cycles in [Cycles::Single, Cycles::Double] {
                let mut balance = vec![0i32; n];
                for p in games(&berger(n, cycles).unwrap()) {
                    balance[p.white] += 1;
                    balance[p.black] -= 1;
                }
                let exact = cycles == Cycles::Double || n % 2 == 1;
                for (seat, &b) in balance.iter().enumerate() {
                    if exact {
                        assert_eq!(b, 0, "n={n} {cycles:?} seat {seat}");
                    } else {
                        assert_eq!(b.abs(), 1, "n={n} seat {seat}");
                    }
                }
            }
        }
    }

    #[test]
    fn nobody_has_the_same_colour_three_rounds_running_in_a_double_round_robin() {
        for n in (4..=MAX_PLAYERS).step_by(2) {
            let rounds = berger(n, Cycles::Double).unwrap();
            for seat in 0..n {
                let colours: Vec<bool> = rounds
                    .iter()
                    .map(|r| r.games.iter().any(|p| p.white == seat))
                    .collect();
                for w in colours.windows(3) {
                    assert!(
                        !(w[0] == w[1] && w[1] == w[2]),
                        "n={n} seat {seat}: {colours:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn sections_outside_3_to_16_are_refused() {
        assert_eq!(berger(2, Cycles::Single), Err(PairingError::TooFew(2)));
        assert_eq!(berger(0, Cycles::Double), Err(PairingError::TooFew(0)));
        assert_eq!(berger(17, Cycles::Single), Err(PairingError::TooMany(17)));
    }
}
