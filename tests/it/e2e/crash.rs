//! Scenario 4: `kill -9` during a burst. 300 moves (30 games x 10 plies) wait
//! in the referee's INBOX at once; `wildt serve` is killed at seeded random
//! moments and restarted until every message is decided, then `serve --once`
//! flushes the outbox. Each move must be applied exactly once and each reply
//! delivered once per Message-ID.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use super::{
    Game, Options, Referee, assert_replies_match_lines, fresh_inboxes, player, ply_mail,
    random_line, round_robin, wait_delivered,
};

const GAMES: usize = 30;
const PLIES: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_a_burst_applies_every_move_once_and_loses_no_reply() {
    let rig = rig_or_skip!();
    let referee = player(17);
    let players: Vec<String> = (18..=21).map(player).collect();
    let mut accounts: Vec<&str> = vec![&referee];
    accounts.extend(players.iter().map(String::as_str));
    let mut readers = fresh_inboxes(&rig, &accounts).await;
    let mut inbox = readers.remove(0);

    let r = Referee::new(&rig, &referee, Options::default());
    let games: Vec<Game> = (0..GAMES)
        .map(|i| {
            let (a, b) = (&players[(i / 2) % 2 * 2], &players[(i / 2) % 2 * 2 + 1]);
            if i % 2 == 0 {
                r.new_game(a, b, false)
            } else {
                r.new_game(b, a, false)
            }
        })
        .collect();
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(4000 + i as u64, PLIES))
        .collect();
    // All moves wait at once, in UID order per game.
    for (g, ply) in round_robin(GAMES, PLIES) {
        inbox
            .append("INBOX", &ply_mail(&games[g], &lines[g], ply))
            .await;
    }
    let total = i64::try_from(GAMES * PLIES).expect("count");
    println!("crash: {total} moves appended to {referee}'s INBOX");

    let seed: u64 = std::env::var("WILDT_E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0004);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    println!("crash: seed {seed} (WILDT_E2E_SEED to repeat)");
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut kills = 0;
    loop {
        let decided = r.messages_recorded().await;
        if decided >= total {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "after {kills} kills only {decided} of {total} messages were decided:\n{}",
            r.log()
        );
        let mut serve = r.spawn();
        // A daemon on PostgreSQL takes longer to start deciding (its
        // connections, the leader's lease, LISTEN): the kills reach into
        // its work there with longer delays.
        let longest = if crate::support::cli::on_postgres() {
            1500
        } else {
            400
        };
        let delay = rng.random_range(50..=longest);
        tokio::time::sleep(Duration::from_millis(delay)).await;
        serve.kill9();
        kills += 1;
        println!(
            "crash: kill {kills} after {delay} ms: {} of {total} decided",
            r.messages_recorded().await
        );
    }
    let summary = r.serve_once();
    println!("crash: serve --once after {kills} kills: {summary}");

    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(r.moves(g.id), *line, "game {}", g.id);
    }
    let (d, all) = wait_delivered(
        &mut readers,
        &ids,
        2 * GAMES * PLIES,
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(d.distinct, 2 * GAMES * PLIES, "{d:?}");
    assert_replies_match_lines(&all, &games, &lines);
    println!(
        "crash: {} moves, {kills} kills, {} replies delivered as {} distinct Message-IDs, {} duplicates (same Message-ID, sent again after a kill)",
        GAMES * PLIES,
        d.total,
        d.distinct,
        d.duplicates
    );
}
