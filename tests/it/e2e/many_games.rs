//! Scenario 2: twenty games at once over real mail, moves interleaved across
//! games: each round sends every game's next move, and a game's next move goes
//! out only once the relay of its last one arrived.

use std::time::Duration;

use super::{
    Game, Options, Referee, assert_replies_match_lines, fresh_inboxes, numbered, player,
    random_line, send_ply, wait_delivered,
};

const GAMES: usize = 20;
const PLIES: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_games_interleaved_each_record_exactly_its_line() {
    let rig = rig_or_skip!();
    let referee = player(8);
    let players: Vec<String> = (9..=12).map(player).collect();
    let mut accounts: Vec<&str> = vec![&referee];
    accounts.extend(players.iter().map(String::as_str));
    let mut readers = fresh_inboxes(&rig, &accounts).await;
    readers.remove(0);

    let r = Referee::new(&rig, &referee, Options::default());
    let games: Vec<Game> = (0..GAMES)
        .map(|i| {
            // Four players, each in several games, with both colours.
            let (a, b) = (&players[i % 4], &players[(i + 1 + i / 4) % 4]);
            let (a, b) = if a == b {
                (a, &players[(i + 2) % 4])
            } else {
                (a, b)
            };
            r.new_game(a, b, false)
        })
        .collect();
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(2000 + i as u64, PLIES))
        .collect();
    let _serve = r.spawn();

    let started = std::time::Instant::now();
    for ply in 0..PLIES {
        for (g, line) in games.iter().zip(&lines) {
            send_ply(&rig, g, line, ply).await;
        }
        // Every game's relay of this ply (and its confirmation) is in.
        let (d, all) = wait_delivered(
            &mut readers,
            &ids,
            2 * GAMES * (ply + 1),
            Duration::from_secs(60),
        )
        .await;
        assert_eq!(d.duplicates, 0, "round {}: {d:?}", ply + 1);
        for (g, line) in games.iter().zip(&lines) {
            let needle = format!("] {} ", numbered(ply, &line[ply]));
            assert!(
                all.iter().any(|m| m.game == Some(g.id)
                    && m.is("opponent-moved")
                    && m.subject.contains(&needle)),
                "game {}: no relay of {needle}",
                g.id
            );
        }
        println!(
            "many games: round {:>2}: {GAMES} moves sent, {} replies delivered",
            ply + 1,
            d.total
        );
    }

    let (d, all) = wait_delivered(
        &mut readers,
        &ids,
        2 * GAMES * PLIES,
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(d.total, 2 * GAMES * PLIES, "{d:?}");
    assert_replies_match_lines(&all, &games, &lines);
    for (g, line) in games.iter().zip(&lines) {
        let shown = r.show(g.id);
        let moves: Vec<&str> = shown["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["iccf"].as_str().expect("iccf"))
            .collect();
        assert_eq!(moves, *line, "game {}", g.id);
        assert_eq!(shown["to_move"], "white", "game {}", g.id);
        assert_eq!(shown["status"], "active", "game {}", g.id);
    }
    println!(
        "many games: {GAMES} games x {PLIES} plies = {} moves, {} replies, 0 duplicates, {:.1} s",
        GAMES * PLIES,
        d.total,
        started.elapsed().as_secs_f64()
    );
}
