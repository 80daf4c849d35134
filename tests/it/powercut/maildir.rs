//! The embedded default under power cuts: Maildir in, file outbox out,
//! the database beside them, all on LazyFS.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom as _;
use rand::{Rng as _, SeedableRng as _};

use super::{Club, Cut, assert_all_taken, assert_whole, run_and_cut};

const GAMES: usize = 16;
const PLIES: usize = 27;
/// Moves delivered before each run of `wildt serve`.
const WAVE: usize = 6;
const RANDOM_CUTS: usize = 50;
const WAL_CUTS: usize = 6;
const MOVE_CUTS: usize = 3;
const CRASH_POINT_CUTS: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn power_cuts_on_the_maildir_and_file_outbox_lose_no_move_and_no_reply() {
    let seed: u64 = std::env::var("WILDT_POWERCUT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0052);
    println!("powercut: seed {seed} (WILDT_POWERCUT_SEED to repeat)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let started = Instant::now();
    let mut club = Club::new(
        GAMES,
        PLIES,
        seed,
        ("anna@example.org", "ben@example.net"),
        None,
    );

    // The first cut is a plain one: the first mount carries no injection.
    let mut plan = Vec::new();
    plan.extend([Cut::Random].repeat(RANDOM_CUTS - 1));
    plan.extend([Cut::AfterWalFsync, Cut::BeforeWalFsync].repeat(WAL_CUTS));
    plan.extend([Cut::BeforeMoveToCur].repeat(MOVE_CUTS));
    plan.extend([Cut::AfterGroupCommit, Cut::InsideGroup].repeat(CRASH_POINT_CUTS));
    plan.shuffle(&mut rng);
    plan.insert(0, Cut::Random);

    let mut made: BTreeMap<Cut, usize> = BTreeMap::new();
    for (i, &cut) in plan.iter().enumerate() {
        club.deliver_next(WAVE);
        let delay = Duration::from_millis(rng.random_range(0..400));
        let exact = run_and_cut(&mut club, cut, delay);
        *made
            .entry(if exact { cut } else { Cut::Random })
            .or_default() += 1;
        club.fs.remount();
        let what = format!("cut {} ({cut:?}, {delay:?})", i + 1);
        assert_whole(&club, true, &what).await;
        // The next cut's injection or fault is set after the check, which
        // syncs the WAL itself.
        if let Some(next) = plan.get(i + 1) {
            next.arm(&club.fs, &mut rng);
        }
    }
    let cuts_took = started.elapsed();

    // The rest of the burst, then everything must be done, once.
    while club.deliver_next(WAVE) > 0 {}
    let line = club.serve_once();
    let state = assert_whole(&club, true, "the last run").await;
    club.assert_tally_clean("powercut");
    assert_all_taken(&club, &state, &line);
    for g in &club.games {
        let moves: Vec<&str> = state
            .moves
            .iter()
            .filter(|m| m.0 == g.id)
            .map(|m| m.2.as_str())
            .collect();
        assert_eq!(moves, g.line, "game {}", g.id);
    }
    assert_eq!(state.files.len(), 2 * club.delivered.len());

    println!(
        "powercut: {} moves, cuts made: {made:?}, in {cuts_took:?}",
        club.delivered.len()
    );
    let random = made.get(&Cut::Random).copied().unwrap_or(0);
    assert!(random >= RANDOM_CUTS, "only {random} random cuts: {made:?}");
    for exact in [
        Cut::AfterWalFsync,
        Cut::BeforeWalFsync,
        Cut::BeforeMoveToCur,
        Cut::AfterGroupCommit,
        Cut::InsideGroup,
    ] {
        assert!(
            made.get(&exact).is_some_and(|&n| n > 0),
            "no {exact:?} cut came as asked: {made:?}"
        );
    }
}
