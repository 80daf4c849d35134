//! A move that arrives behind a backlog of other players' games is decided
//! in the first group, not after the backlog; the backlog's games still see
//! their moves in the order they arrived. Real Dovecot: the order keys come
//! from the listing's `BODY.PEEK[HEADER.FIELDS ...]`.

use super::{
    Game, Options, Referee, fresh_inboxes, message_id_of, player, ply_mail, random_line,
    round_robin,
};

/// Games of 4 players, 4 plies each: a backlog of a group and a quarter
/// (320 moves with groups of 256, 80 per player).
const PLIES: usize = 4;
const GAMES: usize = wildt::daemon::GROUP_MAX * 5 / 4 / PLIES;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_players_move_is_decided_before_a_backlog_of_other_games() {
    let rig = rig_or_skip!();
    let referee = player(41);
    let busy: Vec<String> = (42..=45).map(player).collect();
    let (white, black) = (player(46), player(47));
    let mut accounts: Vec<&str> = vec![&referee, &white, &black];
    accounts.extend(busy.iter().map(String::as_str));
    let mut readers = fresh_inboxes(&rig, &accounts).await;
    let mut inbox = readers.remove(0);

    let r = Referee::new(&rig, &referee, Options::default());
    let games: Vec<Game> = (0..GAMES)
        .map(|i| r.new_game(&busy[i % 4], &busy[(i + 1) % 4], false))
        .collect();
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(7000 + i as u64, PLIES))
        .collect();
    for (g, ply) in round_robin(GAMES, PLIES) {
        inbox
            .append("INBOX", &ply_mail(&games[g], &lines[g], ply))
            .await;
    }
    // Last of all: the first move of a game between two other players.
    let lone = r.new_game(&white, &black, false);
    let lone_line = random_line(7999, 1);
    let probe = ply_mail(&lone, &lone_line, 0);
    inbox.append("INBOX", &probe).await;

    r.serve_once();

    let db = r.db().await;
    let ids: Vec<String> = sqlx::query_scalar("SELECT message_id FROM messages ORDER BY id")
        .fetch_all(&db)
        .await
        .expect("messages");
    db.close().await;
    assert_eq!(ids.len(), GAMES * PLIES + 1, "every message decided once");
    let rank = ids
        .iter()
        .position(|id| *id == message_id_of(&probe))
        .expect("the lone move decided");
    // In arrival order it would come after the whole backlog, beyond the
    // first group.
    const { assert!(GAMES * PLIES > wildt::daemon::GROUP_MAX) };
    assert!(
        rank < wildt::daemon::GROUP_MAX,
        "the lone move was decided {}th, behind the backlog",
        rank + 1
    );
    assert_eq!(r.moves(lone.id), lone_line);
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(
            &r.moves(g.id),
            line,
            "game {}: its moves out of order",
            g.id
        );
    }
}
