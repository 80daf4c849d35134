//! ICCF notation against shakmaty over many positions: round trips over every
//! square pair, every legal move of randomly played and hand-picked positions,
//! real games kept in SAN and ICCF side by side, and garbage input.
//! [IO: reads tests/fixtures/games]

use std::collections::HashSet;
use std::path::Path;

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square};
use wildt::notation::{IccfMove, IccfSquare, IllegalMove, Promotion, parse_move};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn all_squares() -> impl Iterator<Item = IccfSquare> {
    (1..=8u8).flat_map(|f| (1..=8u8).map(move |r| IccfSquare::from_digits(f, r).unwrap()))
}

#[test]
fn every_square_pair_and_promotion_digit_round_trips() {
    let mut count = 0;
    for from in all_squares() {
        for to in all_squares().filter(|&t| t != from) {
            for promotion in std::iter::once(None).chain(Promotion::ALL.map(Some)) {
                let mv = IccfMove {
                    from,
                    to,
                    promotion,
                };
                let text = mv.to_string();
                let parsed: IccfMove = text.parse().unwrap();
                assert_eq!(parsed, mv);
                assert_eq!(parsed.to_string(), text);
                let expected = format!(
                    "{}{}{}{}{}",
                    from.file_digit(),
                    from.rank_digit(),
                    to.file_digit(),
                    to.rank_digit(),
                    promotion.map_or(String::new(), |p| p.digit().to_string())
                );
                assert_eq!(text, expected);
                count += 1;
            }
        }
    }
    assert_eq!(count, 64 * 63 * 5);
}

#[test]
fn every_four_and_five_digit_text_either_parses_back_to_itself_or_is_rejected() {
    let mut ok = 0;
    let four = (0..10_000u32).map(|n| format!("{n:04}"));
    let five = (0..100_000u32).map(|n| format!("{n:05}"));
    for text in four.chain(five) {
        {
            if let Ok(mv) = text.parse::<IccfMove>() {
                assert_eq!(mv.to_string(), text);
                ok += 1;
            }
        }
    }
    assert_eq!(ok, 64 * 63 * 5);
}

#[test]
fn square_digits_are_file_then_rank() {
    let e4 = IccfSquare::new(Square::E4);
    assert_eq!(e4.to_string(), "54");
    assert_eq!(IccfSquare::from_digits(1, 8).unwrap().square(), Square::A8);
    assert_eq!(IccfSquare::from_digits(8, 1).unwrap().square(), Square::H1);
    assert_eq!(IccfSquare::from_digits(0, 1), None);
    assert_eq!(IccfSquare::from_digits(1, 9), None);
}

/// A small deterministic generator, so a failure always replays the same games.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn is_special(m: &Move) -> bool {
    m.is_castle() || m.is_en_passant() || m.is_promotion()
}

/// Positions reached by seeded random games: special moves (castling, en
/// passant, promotion) are preferred when available so they are well covered.
fn playout_positions(games: usize, max_plies: usize, seed: u64) -> Vec<Chess> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Chess::default();
        for _ in 0..max_plies {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            out.push(p.clone());
            let special: Vec<&Move> = legal.iter().filter(|m| is_special(m)).collect();
            let m = if !special.is_empty() && rng.below(2) == 0 {
                *special[rng.below(special.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            p.play_unchecked(m);
            if p.is_insufficient_material() {
                break;
            }
        }
    }
    out
}

/// Hand-picked positions with castling both ways for both colours, en passant
/// both colours, promotion and under-promotion both colours (with captures).
const SPECIAL_FENS: &[&str] = &[
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
    "4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1",
    "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/p1p5/1N2K3 b - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    castles: HashSet<String>,
    en_passant_white: usize,
    en_passant_black: usize,
    promotions: HashSet<(Color, Role)>,
}

fn check_every_legal_move(p: &Chess, cov: &mut Coverage) {
    cov.positions += 1;
    for &m in p.legal_moves().iter() {
        let iccf = IccfMove::from_move(m);
        let text = iccf.to_string();
        assert_eq!(text.parse::<IccfMove>(), Ok(iccf), "{text}");
        assert_eq!(iccf.to_move(p), Ok(m), "{text} in {}", fen(p));
        assert_eq!(parse_move(&text, p), Ok(m), "{text} in {}", fen(p));
        cov.moves += 1;
        match m {
            Move::Castle { .. } => {
                assert!(["5171", "5131", "5878", "5838"].contains(&text.as_str()));
                cov.castles.insert(text);
            }
            Move::EnPassant { .. } if p.turn() == Color::White => cov.en_passant_white += 1,
            Move::EnPassant { .. } => cov.en_passant_black += 1,
            Move::Normal {
                promotion: Some(role),
                ..
            } => {
                assert_eq!(text.len(), 5);
                cov.promotions.insert((p.turn(), role));
            }
            _ => assert_eq!(text.len(), 4),
        }
    }
}

fn fen(p: &Chess) -> String {
    Fen::from_position(p, shakmaty::EnPassantMode::Legal).to_string()
}

#[test]
fn iccf_and_shakmaty_moves_convert_both_ways_for_every_legal_move() {
    let mut cov = Coverage::default();
    for p in playout_positions(300, 200, 0x1CCF_2026) {
        check_every_legal_move(&p, &mut cov);
    }
    for f in SPECIAL_FENS {
        check_every_legal_move(&pos(f), &mut cov);
    }
    assert!(cov.positions > 10_000, "{cov:?}");
    assert_eq!(cov.castles.len(), 4, "all four castlings: {cov:?}");
    assert!(cov.en_passant_white > 0, "{cov:?}");
    assert!(cov.en_passant_black > 0, "{cov:?}");
    for color in [Color::White, Color::Black] {
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            assert!(
                cov.promotions.contains(&(color, role)),
                "{color:?} {role:?}: {cov:?}"
            );
        }
    }
}

/// Every well-formed ICCF move from a square of the side to move is accepted
/// exactly when shakmaty lists it as legal: the fast path in `to_move` never
/// accepts an illegal move, never refuses a legal one, and "king takes own
/// rook" is never castling.
#[test]
fn to_move_accepts_exactly_the_legal_moves() {
    let mut positions: Vec<Chess> = playout_positions(40, 120, 7)
        .into_iter()
        .step_by(20)
        .collect();
    positions.extend(SPECIAL_FENS.iter().map(|f| pos(f)));
    let mut refused = 0;
    for p in &positions {
        let legal: HashSet<IccfMove> = p
            .legal_moves()
            .iter()
            .map(|m| IccfMove::from_move(*m))
            .collect();
        for from in all_squares().filter(|s| p.us().contains(s.square())) {
            for to in all_squares().filter(|&t| t != from) {
                for promotion in std::iter::once(None).chain(Promotion::ALL.map(Some)) {
                    let mv = IccfMove {
                        from,
                        to,
                        promotion,
                    };
                    match mv.to_move(p) {
                        Ok(m) => {
                            assert!(legal.contains(&mv), "{mv} accepted in {}", fen(p));
                            assert_eq!(IccfMove::from_move(m), mv);
                        }
                        Err(e) => {
                            assert!(!legal.contains(&mv), "{mv} refused in {}: {e}", fen(p));
                            refused += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(positions.len() > 100, "{}", positions.len());
    assert!(refused > 100_000, "{refused}");
}

/// The moves of a record, move numbers and the result dropped.
fn record_moves(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(|t| match t.split_once('.') {
            Some((number, rest)) if number.bytes().all(|b| b.is_ascii_digit()) => {
                rest.trim_start_matches('.')
            }
            _ => t,
        })
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn record_moves_drop_numbers_and_result() {
    assert_eq!(
        record_moves("[Event \"x\"]\n1. e4 e5 2. Nf3 1-0\n"),
        vec!["e4", "e5", "Nf3"]
    );
    assert_eq!(record_moves("12... 3746 13. 5254 *"), vec!["3746", "5254"]);
}

/// Each game is kept twice, in SAN (`NAME.san`) and ICCF (`NAME.iccf`). SAN is
/// read by shakmaty alone; every ICCF move must be the very same move, and its
/// text what `from_move` writes.
#[test]
fn real_games_in_san_and_iccf_agree_move_by_move() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    let mut games = 0;
    let mut castles = HashSet::new();
    let mut promotions = 0;
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "san"))
        .collect();
    names.sort();
    for san_path in names {
        let iccf_path = san_path.with_extension("iccf");
        let san_text = std::fs::read_to_string(&san_path).unwrap();
        let iccf_text = std::fs::read_to_string(&iccf_path)
            .unwrap_or_else(|e| panic!("{}: {e}", iccf_path.display()));
        let sans = record_moves(&san_text);
        let iccfs = record_moves(&iccf_text);
        let name = san_path.display();
        assert_eq!(sans.len(), iccfs.len(), "{name}: move counts differ");
        let mut p = Chess::default();
        for (i, (san, iccf)) in sans.iter().zip(&iccfs).enumerate() {
            let number = i / 2 + 1;
            let by_san = San::from_ascii(san.trim_end_matches(['+', '#']).as_bytes())
                .unwrap_or_else(|e| panic!("{name} move {number} {san}: {e}"))
                .to_move(&p)
                .unwrap_or_else(|e| panic!("{name} move {number} {san}: {e}"));
            let by_iccf =
                parse_move(iccf, &p).unwrap_or_else(|e| panic!("{name} move {number} {iccf}: {e}"));
            assert_eq!(by_iccf, by_san, "{name} move {number}: {san} vs {iccf}");
            assert_eq!(IccfMove::from_move(by_san).to_string(), *iccf);
            if by_san.is_castle() {
                castles.insert(iccf.to_string());
            }
            if by_san.is_promotion() {
                promotions += 1;
            }
            p.play_unchecked(by_san);
        }
        games += 1;
    }
    assert!(games >= 3, "only {games} games in {}", dir.display());
    assert!(
        castles.contains("5171") && castles.contains("5131"),
        "{castles:?}"
    );
    assert!(
        castles.contains("5878") && castles.contains("5838"),
        "{castles:?}"
    );
    assert!(promotions > 0);
}

#[test]
fn opera_game_ends_in_mate_in_both_notations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    let text = std::fs::read_to_string(dir.join("morphy_opera_1858.iccf")).unwrap();
    let mut p = Chess::default();
    for mv in record_moves(&text) {
        let m = parse_move(mv, &p).unwrap();
        p.play_unchecked(m);
    }
    assert!(p.is_checkmate());
}

#[test]
fn old_promotion_form_is_never_played_in_any_promotion_position() {
    // Every pawn that can promote, in every direction and to every piece: the
    // old 4-digit form is refused and answered with the standard form.
    let mut checked = 0;
    for f in SPECIAL_FENS {
        let p = pos(f);
        for m in p.legal_moves().iter().filter(|m| m.is_promotion()) {
            let standard = IccfMove::from_move(*m);
            let digit = standard.promotion.unwrap().digit();
            let old = format!("{}{}{}", standard.from, standard.to.file_digit(), digit);
            match parse_move(&old, &p) {
                Err(wildt::notation::MoveError::Illegal(IllegalMove::OldPromotionForm {
                    standard: s,
                    ..
                })) => assert_eq!(s, standard),
                // Black's queen form (`3231`) is also the standard move without
                // its digit: the answer then lists the four choices.
                Err(wildt::notation::MoveError::Illegal(IllegalMove::PromotionDigitMissing {
                    options,
                })) => {
                    assert_eq!(p.turn(), Color::Black);
                    assert_eq!(digit, 1);
                    assert!(options.contains(&standard));
                }
                other => panic!("{old} in {f}: {other:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 16, "{checked}");
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics_the_parser(s in "\\PC*") {
        match s.parse::<IccfMove>() {
            Ok(mv) => prop_assert_eq!(mv.to_string(), s),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn digit_strings_never_panic_parse_or_to_move(s in "[0-9]{0,7}") {
        let p = Chess::default();
        match s.parse::<IccfMove>() {
            Ok(mv) => prop_assert_eq!(mv.to_string(), s.clone()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        match parse_move(&s, &p) {
            Ok(m) => prop_assert!(p.is_legal(m)),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
