//! Scenario: `[outbox] send_rate` through the rig's Postfix. Ten games'
//! moves arrive at once; their twenty replies per round are handed to
//! Postfix at most five a second (the database's `sent_at`, in seconds,
//! never holds more than one claim over the rate in one second; without
//! the rate a round's replies leave together), and every reply arrives
//! once.

use std::time::Duration;

use super::{
    Game, Options, Referee, assert_replies_match_lines, fresh_inboxes, player, random_line,
    send_ply, wait_delivered,
};

const GAMES: usize = 10;
const PLIES: usize = 2;
const RATE: u32 = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_leave_at_the_send_rate_and_every_one_arrives_once() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(48), player(49), player(50));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    readers.remove(0);
    let r = Referee::new(
        &rig,
        &referee,
        Options {
            send_rate: Some(RATE),
            ..Options::default()
        },
    );
    let games: Vec<Game> = (0..GAMES)
        .map(|_| r.new_game(&white, &black, false))
        .collect();
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(4800 + i as u64, PLIES))
        .collect();
    let _serve = r.spawn();
    for ply in 0..PLIES {
        for (g, line) in games.iter().zip(&lines) {
            send_ply(&rig, g, line, ply).await;
        }
        let (d, _) = wait_delivered(
            &mut readers,
            &ids,
            2 * GAMES * (ply + 1),
            Duration::from_secs(90),
        )
        .await;
        assert_eq!(d.duplicates, 0, "round {}: {d:?}", ply + 1);
    }
    let (d, all) = wait_delivered(
        &mut readers,
        &ids,
        2 * GAMES * PLIES,
        Duration::from_secs(5),
    )
    .await;
    assert_eq!((d.total, d.duplicates), (2 * GAMES * PLIES, 0), "{d:?}");
    assert_replies_match_lines(&all, &games, &lines);
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(&r.moves(g.id), line);
    }
    let db = r.db().await;
    let busiest: i64 = sqlx::query_scalar(
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NOT NULL GROUP BY sent_at) AS per_second",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    // A claim is one mail at this rate, and claims are a fifth of a second
    // apart at least: five in a second, six where a second's edge falls
    // between a claim and its mark.
    assert!(
        busiest <= i64::from(RATE) + 1,
        "{busiest} mails marked sent within one second at a rate of {RATE}"
    );
}
