//! The organiser opens the referee's mailbox on a phone
//! before the daemon fetches, so the move is `\Seen` already. wildt tracks
//! what it handled by its own keyword and UIDVALIDITY + UID, not by `\Seen`:
//! the move is still taken, and once only.

use std::time::Duration;

use super::{Options, Referee, fresh_inboxes, player, ply_mail, random_line, wait_delivered};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_read_by_another_client_before_the_daemon_is_still_processed() {
    let rig = rig_or_skip!();
    // Black shares the referee's account (the accounts are few): the daemon
    // reads only its own new folder there, and only White's mail is counted.
    let (referee, white) = (player(1), player(2));
    let black = referee.clone();
    let mut readers = fresh_inboxes(&rig, &[&referee, &white]).await;
    let mut inbox = readers.remove(0);
    let folder = inbox.new_folder("e2e-seen").await;
    let r = Referee::new(
        &rig,
        &referee,
        Options {
            mailbox: folder.clone(),
            ..Options::default()
        },
    );
    let game = r.new_game(&white, &black, false);
    let line = random_line(7100, 1);
    inbox.append(&folder, &ply_mail(&game, &line, 0)).await;
    // Another client reads it first.
    inbox.mark_all_seen(&folder).await;
    assert!(inbox.messages(&folder).await.iter().all(|m| m.seen_flag));

    let first = r.serve_once();
    println!("seen elsewhere: first run: {first}");
    assert!(first.starts_with("1 messages, 0 duplicates"), "{first}");
    assert_eq!(r.moves(game.id), line[..1].to_vec());
    // White's confirmation arrives (Black's relay lands in the referee's
    // INBOX, which the daemon does not read).
    wait_delivered(&mut readers, &[game.id], 1, Duration::from_secs(30)).await;

    // Handled is remembered: the next run fetches nothing.
    let second = r.serve_once();
    assert!(second.starts_with("0 messages, 0 duplicates"), "{second}");
}
