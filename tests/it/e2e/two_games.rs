//! Scenario: one mail to two game addresses and the bare referee, sent in one
//! SMTP transaction through the rig's Postfix and Dovecot. Each copy carries
//! its own envelope recipient in Delivered-To; each game gets the move once,
//! and the copy for the bare referee is a duplicate, answered by nobody.

use std::time::Duration;

use lettre::address::Envelope;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use super::{Options, Referee, fresh_inboxes, mails, message_id_of, move_mail, player, wait_mails};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mail_to_two_games_is_played_once_in_each() {
    let rig = rig_or_skip!();
    let (referee, anna, ben, carl) = (player(39), player(40), player(3), player(4));
    let mut readers = fresh_inboxes(&rig, &[&referee, &anna, &ben, &carl]).await;
    let r = Referee::new(&rig, &referee, Options::default());
    let one = r.new_game(&anna, &ben, false);
    let two = r.new_game(&anna, &carl, false);

    let raw = String::from_utf8(move_mail(&anna, &one.white_address, "1. 5254"))
        .unwrap()
        .replacen(
            "Subject:",
            &format!("Cc: {}, {referee}\r\nSubject:", two.white_address),
            1,
        )
        .into_bytes();
    let recipients = [&one.white_address, &two.white_address, &referee];
    let envelope = Envelope::new(
        Some(anna.parse().unwrap()),
        recipients.iter().map(|a| a.parse().unwrap()).collect(),
    )
    .unwrap();
    AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&rig.host)
        .port(rig.smtp_port)
        .build()
        .send_raw(&envelope, &raw)
        .await
        .expect("one transaction, three recipients");
    let id = message_id_of(&raw);
    let copies = readers[0].wait_for("INBOX", &id, 3).await;
    let delivered: Vec<_> = copies
        .iter()
        .map(|c| c.header("Delivered-To").unwrap_or_default())
        .collect();
    assert!(
        recipients.iter().all(|a| delivered.contains(a)),
        "each copy records its envelope recipient: {delivered:?}"
    );

    let summary = r.serve_once();
    assert!(summary.starts_with("2 messages, 1 duplicates"), "{summary}");
    assert_eq!(r.moves(one.id), ["5254"]);
    assert_eq!(r.moves(two.id), ["5254"]);

    let within = Duration::from_secs(20);
    let confirmed = wait_mails(&mut readers[1], "INBOX", "confirming", 2, within, |m| {
        m.is("move-accepted")
    })
    .await;
    let mut games: Vec<_> = confirmed.iter().filter_map(|m| m.game).collect();
    games.sort_unstable();
    assert_eq!(games, [one.id, two.id]);
    for (n, game) in [(2, one.id), (3, two.id)] {
        let relayed = wait_mails(&mut readers[n], "INBOX", "relaying", 1, within, |m| {
            m.is("opponent-moved")
        })
        .await;
        assert_eq!(relayed[0].game, Some(game));
    }
    // Nothing else for Anna: no "not played", no help for the bare copy.
    let all = mails(&mut readers[1], "INBOX").await;
    assert_eq!(
        all.len(),
        2,
        "{:?}",
        all.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
}
