//! Scenario 8: SIGTERM while many messages wait. wildt exits 0, and each
//! message is either fully processed (its move recorded and the message
//! `\Seen`) or untouched (neither); `serve --once` then does the rest with no
//! duplicate.

use std::collections::HashMap;
use std::time::Duration;

use super::{
    Game, Options, Referee, fresh_inboxes, message_id_of, player, ply_mail, random_line,
    round_robin, wait_delivered,
};

const GAMES: usize = 20;
const PLIES: usize = 10;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_burst_exits_0_leaving_each_message_done_or_untouched() {
    let rig = rig_or_skip!();
    let referee = player(31);
    let players: Vec<String> = (32..=35).map(player).collect();
    let mut accounts: Vec<&str> = vec![&referee];
    accounts.extend(players.iter().map(String::as_str));
    let mut readers = fresh_inboxes(&rig, &accounts).await;
    let mut inbox = readers.remove(0);

    let r = Referee::new(&rig, &referee, Options::default());
    let games: Vec<Game> = (0..GAMES)
        .map(|i| r.new_game(&players[i % 4], &players[(i + 1) % 4], false))
        .collect();
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(8000 + i as u64, PLIES))
        .collect();
    // Message-ID -> (game index, ply)
    let mut sent: HashMap<String, (usize, usize)> = HashMap::new();
    for (g, ply) in round_robin(GAMES, PLIES) {
        let raw = ply_mail(&games[g], &lines[g], ply);
        sent.insert(message_id_of(&raw), (g, ply));
        inbox.append("INBOX", &raw).await;
    }
    let total = GAMES * PLIES;

    let mut serve = r.spawn();
    // Stop as soon as the work has begun, while most messages still wait.
    r.wait_log("decided", 1, Duration::from_secs(30)).await;
    let status = serve.terminate(Duration::from_secs(60)).await;
    assert_eq!(
        status.code(),
        Some(0),
        "exit status {status:?}:\n{}",
        r.log()
    );

    let records: Vec<Vec<String>> = ids.iter().map(|id| r.moves(*id)).collect();
    let mut done = 0;
    for m in inbox.messages("INBOX").await {
        let (g, ply) = sent[&message_id_of(&m.raw)];
        let recorded = records[g].len() > ply;
        assert_eq!(
            recorded, m.seen_flag,
            "game {} ply {}: recorded {recorded} but \\Seen {}",
            games[g].id, ply, m.seen_flag
        );
        done += usize::from(recorded);
    }
    for (g, rec) in records.iter().enumerate() {
        assert_eq!(rec[..], lines[g][..rec.len()], "game {}", games[g].id);
    }
    println!(
        "graceful stop: SIGTERM after the first decision: exit 0, {done} of {total} messages done, the rest untouched"
    );

    let rest = r.serve_once();
    println!("graceful stop: serve --once: {rest}");
    assert!(
        rest.starts_with(&format!("{} messages, 0 duplicates", total - done)),
        "{rest}"
    );
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(r.moves(g.id), *line, "game {}", g.id);
    }
    assert!(inbox.messages("INBOX").await.iter().all(|m| m.seen_flag));
    let (d, _) = wait_delivered(&mut readers, &ids, 2 * total, Duration::from_secs(60)).await;
    println!(
        "graceful stop: {} replies, {} distinct, {} duplicates",
        d.total, d.distinct, d.duplicates
    );
    assert_eq!((d.distinct, d.duplicates), (2 * total, 0));
}
