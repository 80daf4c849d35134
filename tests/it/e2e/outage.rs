//! Scenarios 5 and 6: the rig's servers go away under a running wildt. Postfix
//! stopped while moves are processed (replies wait in the outbox and are
//! retried), and Dovecot restarted while wildt idles (it reconnects).
//!
//! These stop servers every rig test depends on, so `scripts/test.sh` skips
//! this module in the main run and runs it alone afterwards
//! (`cargo test --test it e2e::outage -- --test-threads=1`).

use std::time::{Duration, Instant};

use super::{
    Game, Options, Referee, count_delivered, fresh_inboxes, numbered, player, ply_mail,
    random_line, rig_ctl, round_robin, send_ply, wait_delivered, wait_mails,
};

/// Starts the server again if the test fails while it is stopped, so the
/// tests after this one find a whole rig.
struct Restart(&'static str);

impl Drop for Restart {
    fn drop(&mut self) {
        if std::thread::panicking() {
            rig_ctl(self.0);
        }
    }
}

async fn outbox_state(r: &Referee) -> (i64, i64, i64) {
    let pool = r.db().await;
    let row: (i64, i64, i64) = sqlx::query_as(
        // One text for both backends: PostgreSQL sums no booleans, and its
        // SUM of BIGINTs is NUMERIC.
        "SELECT CAST(COUNT(*) - COUNT(sent_at) AS BIGINT), CAST(COUNT(sent_at) AS BIGINT),
                CAST(COALESCE(SUM(attempts), 0) AS BIGINT) FROM outbox",
    )
    .fetch_one(&pool)
    .await
    .expect("outbox query");
    pool.close().await;
    row
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_outage_keeps_replies_in_the_outbox_and_sends_each_once_after() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(22), player(23), player(24));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    let mut inbox = readers.remove(0);
    let r = Referee::new(&rig, &referee, Options::default());
    let games: Vec<Game> = vec![
        r.new_game(&white, &black, false),
        r.new_game(&black, &white, false),
    ];
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let lines: Vec<Vec<String>> = (0..2).map(|i| random_line(5000 + i, 2)).collect();
    let _serve = r.spawn();
    r.wait_log("ready", 1, Duration::from_secs(30)).await;

    rig_ctl("stop-postfix");
    let restart = Restart("start-postfix");
    println!("smtp outage: postfix stopped");
    for (g, ply) in round_robin(2, 2) {
        inbox
            .append("INBOX", &ply_mail(&games[g], &lines[g], ply))
            .await;
    }
    // The moves are decided and committed although no reply can go out.
    let deadline = Instant::now() + Duration::from_secs(30);
    while r.messages_recorded().await < 4 {
        assert!(Instant::now() < deadline, "moves not decided:\n{}", r.log());
        tokio::time::sleep(super::POLL).await;
    }
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(r.moves(g.id), *line, "game {}", g.id);
    }
    // All 8 replies pending, after 16 failed attempts in all (two rounds).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (pending, sent, attempts) = outbox_state(&r).await;
        assert_eq!(sent, 0, "a reply was sent with postfix down");
        if pending == 8 && attempts >= 16 {
            println!("smtp outage: 8 replies pending after {attempts} failed attempts");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "replies not retried: pending {pending}, attempts {attempts}:\n{}",
            r.log()
        );
        tokio::time::sleep(super::POLL).await;
    }
    let retries = r.log().matches("transient failure").count();
    assert!(retries >= 16, "{retries} retries logged:\n{}", r.log());
    let (none, _) = count_delivered(&mut readers, &ids).await;
    assert_eq!(none.total, 0);

    rig_ctl("start-postfix");
    drop(restart);
    let back = Instant::now();
    println!("smtp outage: postfix started again after {retries} logged retries");
    // Retries are at most retry_max_secs (2 s) apart; the bound is generous.
    let (d, all) = wait_delivered(&mut readers, &ids, 8, Duration::from_secs(30)).await;
    println!(
        "smtp outage: 8 replies delivered {:.1} s after postfix came back; {} mails, {} duplicates",
        back.elapsed().as_secs_f64(),
        d.total,
        d.duplicates
    );
    // Nothing doubled: also after a further retry interval.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (d, _) = count_delivered(&mut readers, &ids).await;
    assert_eq!((d.total, d.distinct, d.duplicates), (8, 8, 0), "{all:#?}");
    let (pending, sent, _) = outbox_state(&r).await;
    assert_eq!((pending, sent), (0, 8));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dovecot_restart_during_idle_is_survived_with_nothing_skipped_or_repeated() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(25), player(26), player(27));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    readers.remove(0);
    let mut b = readers.pop().expect("reader");
    let mut w = readers.pop().expect("reader");
    let r = Referee::new(&rig, &referee, Options::default());
    let game = r.new_game(&white, &black, false);
    let line = random_line(6000, 6);
    let _serve = r.spawn();
    r.wait_log("ready", 1, Duration::from_secs(30)).await;
    let wait = Duration::from_secs(60);

    let play = async |ply: usize,
                      w: &mut crate::support::rig::Reader,
                      b: &mut crate::support::rig::Reader| {
        send_ply(&rig, &game, &line, ply).await;
        let needle = format!("] {} ", numbered(ply, &line[ply]));
        let (mover, opp) = if ply.is_multiple_of(2) {
            (w, b)
        } else {
            (b, w)
        };
        wait_mails(opp, "INBOX", &needle, 1, wait, |m| {
            m.is("opponent-moved") && m.subject.contains(&needle)
        })
        .await;
        wait_mails(mover, "INBOX", &needle, 1, wait, |m| {
            m.is("move-accepted") && m.subject.contains(&needle)
        })
        .await;
        println!(
            "imap restart: {} relayed and confirmed",
            numbered(ply, &line[ply])
        );
    };

    play(0, &mut w, &mut b).await;
    play(1, &mut w, &mut b).await;
    // wildt is idling now: restart Dovecot under it.
    rig_ctl("stop-dovecot");
    let restart = Restart("start-dovecot");
    tokio::time::sleep(Duration::from_secs(2)).await;
    rig_ctl("start-dovecot");
    drop(restart);
    println!("imap restart: dovecot stopped for 2 s and started again");
    let mut w = rig.reader(&white).await;
    let mut b = rig.reader(&black).await;
    for ply in 2..line.len() {
        play(ply, &mut w, &mut b).await;
    }

    assert_eq!(r.moves(game.id), line);
    let mut readers = vec![w, b];
    let (d, _) = count_delivered(&mut readers, &[game.id]).await;
    assert_eq!((d.total, d.distinct), (12, 12), "{d:?}");
    let log = r.log();
    let sessions = log.matches("IMAP session open").count();
    let failures = log.matches("waiting for mail").count() + log.matches("error").count();
    println!(
        "imap restart: {} plies, {} replies, {} duplicates, {sessions} IMAP sessions opened, {failures} error lines while away",
        line.len(),
        d.total,
        d.duplicates
    );
    assert!(sessions >= 2, "wildt never reconnected:\n{log}");
}
