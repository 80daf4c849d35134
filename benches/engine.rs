//! Criterion benches of wildt's pure core, per unit of work [pure: no IO but
//! reading the fixture files once]: intake of move mails (per message), the
//! referee judging each ply of the 64-ply fixture game from its record (per
//! ply), `Record::replay` of a 300-ply game (what loading a long game costs),
//! and the whole decision on each hostile 1 MiB message of
//! `tests/it/support/pathological.rs` (`cargo bench --bench engine -- hostile`).
//! Run by `benches/run.sh` with `cargo bench --bench engine`.

use std::hint::black_box;
use std::path::Path;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use wildt::auth::Policy;
use wildt::command::Command;
use wildt::config::Rules;
use wildt::decide::{Decision, GameView, Recent, judge_message};
use wildt::fixtures::{game_17, rules};
use wildt::game::Record;
use wildt::intake::read;
use wildt::notation::IccfMove;
use wildt::referee::{Verdict, judge};
use wildt::reply::{self, Letters};

/// The hostile messages the intake tests decide, shared with them (the tests
/// check each answer; the bench only times them), and the test data they
/// are built from.
#[allow(dead_code)]
#[path = "../tests/it/support/fixtures.rs"]
mod fixtures;
#[allow(dead_code)]
#[path = "../tests/it/support/pathological.rs"]
mod pathological;

/// The fixture corpus if this branch has one, else generated move mails of the
/// shapes players send: bare, numbered, with a quote, with a signature.
fn corpus() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail");
    let mut mails: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .filter_map(|p| std::fs::read(p).ok())
                .collect()
        })
        .unwrap_or_default();
    if mails.is_empty() {
        let bodies = [
            "5254",
            "1. 5254",
            "12... 3746\r\n\r\nAnna",
            "2. 7163\r\n\r\nOn Sun, Ben wrote:\r\n> 1... 5755\r\n> thanks",
            "I play 6125 and offer a draw.\r\n-- \r\nAnna Example\r\nChess Club",
        ];
        for (i, body) in bodies.iter().enumerate() {
            mails.push(format!(
                "From: Anna <anna@example.org>\r\nTo: chess+17-k3x9qp2m@club.example\r\nSubject: Re: Game 17\r\nMessage-ID: <m{i}@example.org>\r\nIn-Reply-To: <wildt-game-x@club.example>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
            ).into_bytes());
        }
    }
    mails
}

fn moves(text: &str) -> Vec<IccfMove> {
    text.split_whitespace()
        .map(|t| t.parse().expect("fixture move"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let cfg = rules(1 << 20, Policy::Key, false).intake;
    let mails = corpus();
    let mut g = c.benchmark_group("intake");
    g.throughput(Throughput::Elements(mails.len() as u64));
    g.bench_function("read corpus (per message)", |b| {
        b.iter(|| {
            for m in &mails {
                black_box(read(black_box(m), &cfg));
            }
        })
    });
    g.finish();

    let long = moves(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e/long-game.iccf"),
        )
        .expect("long-game fixture"),
    );
    // Records before each ply, built once: the bench times only the judging.
    let records: Vec<Record> = (0..long.len())
        .map(|i| Record::replay(None, long[..i].iter().copied()).expect("legal fixture"))
        .collect();
    let commands: Vec<Command> = long.iter().map(|m| Command::single(*m)).collect();
    let mut g = c.benchmark_group("referee");
    g.throughput(Throughput::Elements(long.len() as u64));
    g.bench_function("judge 64-ply game (per ply)", |b| {
        b.iter(|| {
            for (r, cmd) in records.iter().zip(&commands) {
                let v = judge(black_box(r), r.turn(), black_box(cmd));
                assert!(matches!(v, Verdict::Moved { .. }));
            }
        })
    });
    g.finish();

    let shuffle = moves("7163 7866 6371 6678");
    let three_hundred: Vec<IccfMove> = shuffle.iter().copied().cycle().take(300).collect();
    let mut g = c.benchmark_group("record");
    g.throughput(Throughput::Elements(300));
    g.bench_function("replay 300-ply game", |b| {
        b.iter_batched(
            || three_hundred.clone(),
            |mv| Record::replay(None, mv).expect("legal"),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// What the daemon does with a message between reading its bytes and the
/// database, with a trusted server named (so its verdict is read) and the
/// default policy (so a move goes on to the referee): the intake, the
/// `Authentication-Results` scan, and the decision on game 17 (the game the
/// hostile messages are addressed to; white to move) with the mails to write.
fn decide_whole(raw: &[u8], rules: &Rules, game: &GameView) -> (Decision, Letters) {
    let intake = read(raw, &rules.intake);
    let game = intake
        .game_address
        .as_ref()
        .filter(|a| a.game == game.id)
        .map(|_| game);
    let d = judge_message(raw, &intake, game, Recent::default(), rules);
    let letters = reply::write(
        &d,
        &intake,
        game,
        None,
        &rules.referee,
        wildt::i18n::Lang::En,
    );
    (d, letters)
}

/// Each hostile 1 MiB message decided as the daemon decides it (bytes -> the
/// decision and its mails; what the store adds is a game lookup and a few
/// inserts, timed by the pipeline bench).
fn hostile(c: &mut Criterion) {
    let rules = rules(2 * pathological::MIB, Policy::Key, true);
    let game = game_17(&[]);
    let mut g = c.benchmark_group("hostile 1 MiB");
    g.sample_size(10);
    for case in pathological::cases() {
        // The decision must be reached on the game, not short of it.
        let (d, _) = decide_whole(&case.raw, &rules, &game);
        assert_eq!(d.game, Some(17), "{}: {}", case.name, d.detail);
        println!("{}: {} ({})", case.name, d.outcome.as_str(), d.detail);
        g.throughput(Throughput::Bytes(case.raw.len() as u64));
        g.bench_function(case.name, |b| {
            b.iter(|| decide_whole(black_box(&case.raw), &rules, &game))
        });
    }
    g.finish();
}

/// A move's whole reply work as the daemon does it between the game loaded
/// and the database: the decision, both mails rendered to bytes and packed
/// for the outbox, at ply 0 and at ply 300 of a knight shuffle (the record
/// every reply carries is what grows).
fn reply_by_length(c: &mut Criterion) {
    let rules = rules(1 << 20, Policy::Key, true);
    let shuffle = ["7163", "7866", "6371", "6678"];
    let mut g = c.benchmark_group("move and its two replies");
    for ply in [0usize, 300] {
        let plies: Vec<&str> = shuffle.iter().copied().cycle().take(ply).collect();
        let game = game_17(&plies);
        let raw = format!(
            "From: Anna <anna@example.org>\r\nTo: chess+17-{}@club.example\r\nSubject: Re: Game 17\r\nMessage-ID: <r{ply}@example.org>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            wildt::fixtures::WHITE_KEY,
            shuffle[ply % 4]
        )
        .into_bytes();
        let (d, letters) = decide_whole(&raw, &rules, &game);
        assert_eq!(d.outcome.as_str(), "moved", "{}", d.detail);
        assert_eq!(letters.mails.len(), 2);
        g.bench_function(format!("at ply {ply}"), |b| {
            b.iter(|| {
                let (_, letters) = decide_whole(black_box(&raw), &rules, &game);
                letters
                    .mails
                    .iter()
                    .map(|m| {
                        let r = wildt::mail::render::render(m, &rules.referee, None, &[])
                            .expect("renders");
                        wildt::store::outbox::pack(&r.raw).len()
                    })
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

criterion_group!(engine, bench, hostile, reply_by_length);
criterion_main!(engine);
