//! Criterion benches for the pure core. Each bench is its own function in the
//! one `criterion_group!` below; add new ones there. [IO: reads nothing at run
//! time; the game fixtures are compiled in]
//!
//! `iccf_parse_and_legality`: text -> legal shakmaty move, for every move of the
//! real games in tests/fixtures/games, ICCF (`IccfMove::from_str` +
//! `to_move`) next to shakmaty's own UCI (`UciMove::from_str` + `to_move`) on
//! the same moves. The goal: ICCF within 1.5x of UCI.

use std::hint::black_box;
use std::str::FromStr;

use criterion::{Criterion, Throughput, criterion_group};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use wildt::notation::IccfMove;

const GAMES: &[&str] = &[
    include_str!("../tests/fixtures/games/morphy_opera_1858.iccf"),
    include_str!("../tests/fixtures/games/kasparov_topalov_1999.iccf"),
    include_str!("../tests/fixtures/games/byrne_fischer_1956.iccf"),
    include_str!("../tests/fixtures/games/anderssen_dufresne_1852.iccf"),
    include_str!("../tests/fixtures/games/lasker_trap_underpromotion.iccf"),
];

/// Every (position, ICCF text, UCI text) of the fixture games.
fn game_moves() -> Vec<(Chess, String, String)> {
    let mut out = Vec::new();
    for game in GAMES {
        let mut pos = Chess::default();
        let moves = game
            .lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(str::split_whitespace)
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()) && t.len() >= 4);
        for text in moves {
            let m = text
                .parse::<IccfMove>()
                .map(|i| i.to_move(&pos))
                .expect("fixture move parses")
                .expect("fixture move is legal");
            let uci = UciMove::from_move(m, CastlingMode::Standard).to_string();
            out.push((pos.clone(), text.to_owned(), uci));
            pos.play_unchecked(m);
        }
    }
    out
}

fn iccf_parse_and_legality(c: &mut Criterion) {
    let moves = game_moves();
    let mut group = c.benchmark_group("parse+legality");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("iccf", |b| {
        b.iter(|| {
            for (pos, iccf, _) in &moves {
                let m = IccfMove::from_str(black_box(iccf)).map(|i| i.to_move(black_box(pos)));
                black_box(m.is_ok_and(|r| r.is_ok()));
            }
        })
    });
    group.bench_function("uci", |b| {
        b.iter(|| {
            for (pos, _, uci) in &moves {
                let m = UciMove::from_str(black_box(uci)).map(|u| u.to_move(black_box(pos)));
                black_box(m.is_ok_and(|r| r.is_ok()));
            }
        })
    });
    group.finish();
}

/// The slow path: a refused move is explained (legal moves generated, reason
/// chosen). Each game move is sent backwards (to-square to from-square), which
/// is illegal in nearly every position.
fn iccf_explain_illegal(c: &mut Criterion) {
    let moves: Vec<(Chess, String)> = game_moves()
        .into_iter()
        .map(|(pos, iccf, _)| (pos, format!("{}{}", &iccf[2..4], &iccf[0..2])))
        .collect();
    let mut group = c.benchmark_group("explain-illegal");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("iccf", |b| {
        b.iter(|| {
            for (pos, iccf) in &moves {
                let m = IccfMove::from_str(black_box(iccf)).map(|i| i.to_move(black_box(pos)));
                black_box(m.is_ok_and(|r| r.is_err()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, iccf_parse_and_legality, iccf_explain_illegal);

/// A load-robust cross-check of the ICCF/UCI ratio: the two loops alternate,
/// and each keeps its fastest round. On a shared machine the criterion means
/// swing with other processes; the minimum of many alternating rounds does not.
fn paired_minimum() {
    use std::time::{Duration, Instant};
    let moves = game_moves();
    let n = moves.len() as f64;
    let (mut iccf_best, mut uci_best) = (Duration::MAX, Duration::MAX);
    for _ in 0..3000 {
        let t = Instant::now();
        for (pos, iccf, _) in &moves {
            let m = IccfMove::from_str(black_box(iccf)).map(|i| i.to_move(black_box(pos)));
            black_box(m.is_ok_and(|r| r.is_ok()));
        }
        iccf_best = iccf_best.min(t.elapsed());
        let t = Instant::now();
        for (pos, _, uci) in &moves {
            let m = UciMove::from_str(black_box(uci)).map(|u| u.to_move(black_box(pos)));
            black_box(m.is_ok_and(|r| r.is_ok()));
        }
        uci_best = uci_best.min(t.elapsed());
    }
    let (mut iccf_parse, mut uci_parse) = (Duration::MAX, Duration::MAX);
    for _ in 0..3000 {
        let t = Instant::now();
        for (_, iccf, _) in &moves {
            black_box(IccfMove::from_str(black_box(iccf)).is_ok());
        }
        iccf_parse = iccf_parse.min(t.elapsed());
        let t = Instant::now();
        for (_, _, uci) in &moves {
            black_box(UciMove::from_str(black_box(uci)).is_ok());
        }
        uci_parse = uci_parse.min(t.elapsed());
    }
    println!(
        "paired minimum, parsing only: iccf {:.1} ns/move, uci {:.1} ns/move",
        iccf_parse.as_nanos() as f64 / n,
        uci_parse.as_nanos() as f64 / n
    );
    let iccf_ns = iccf_best.as_nanos() as f64 / n;
    let uci_ns = uci_best.as_nanos() as f64 / n;
    println!(
        "paired minimum over 3000 alternating rounds of {n} moves: iccf {iccf_ns:.1} ns/move, uci {uci_ns:.1} ns/move, ratio {:.2}",
        iccf_ns / uci_ns
    );
}

fn main() {
    // `cargo test --benches` runs this binary with `--bench` absent; skip the
    // timing loop there so tests stay quick.
    if std::env::args().any(|a| a == "--bench") {
        paired_minimum();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
