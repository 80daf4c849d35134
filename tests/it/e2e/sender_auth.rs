//! Scenario: only players move, with `[security] policy = "key+auth"` over
//! real mail. The rig's players' provider (submission with SASL) signs mail
//! with DKIM and relays it to the club's MX, whose OpenDKIM verifies it and
//! stamps `Authentication-Results` as the trusted `authserv-id`, removing any
//! copy of that header the message arrived with. wildt (the real binary)
//! reads the MX's verdict only.
//!
//! A forger who knows a player's secret game address writes as that player
//! straight to the MX, with a forged "pass" header: nothing moves, the real
//! player is told once, the opponent hears nothing. The player's own signed
//! mail moves; signed mail to a wrong key does not.

use std::time::Duration;

use super::{Mail, wait_mails};
use super::{Options, Referee, decided, fresh_inboxes, mails, message_id_of, move_mail, player};
use crate::support::fixtures::unique;

const WAIT: Duration = Duration::from_secs(30);

/// A forger's mail: `from` in `From:`, and a header claiming that the club's
/// MX (`authserv_id`) saw DKIM and DMARC pass.
fn forged(from: &str, to: &str, authserv_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <{}@forger.example>\r\n\
         Authentication-Results: {authserv_id}; dkim=pass header.d=example.org;\r\n\
         \tdmarc=pass header.from=example.org\r\n\
         Date: Sun, 22 Nov 2026 04:00:00 +0000\r\n\r\n{body}\r\n",
        unique("forged")
    )
    .into_bytes()
}

fn security_notices(mails: &[Mail]) -> usize {
    mails
        .iter()
        .filter(|m| m.is("notice") && m.text.contains("someone tried to move for you"))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_key_and_auth_only_mail_signed_by_the_players_provider_moves_and_the_player_hears_of_a_forgery_once()
 {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(36), player(37), player(38));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    let mut b = readers.pop().expect("reader");
    let mut w = readers.pop().expect("reader");
    let r = Referee::new(
        &rig,
        &referee,
        Options {
            security: Some(format!(
                "trusted_authserv_id = \"{}\"\npolicy = \"key+auth\"",
                rig.mx_authserv_id
            )),
            ..Options::default()
        },
    );
    let game = r.new_game(&white, &black, false);
    let _serve = r.spawn();

    // Two forgeries with the right key and a forged "pass", straight to the MX.
    for n in 0..2 {
        let raw = forged(&white, &game.white_address, &rig.mx_authserv_id, "1. 5254");
        rig.send_to_mx(&white, &game.white_address, &raw).await;
        let (outcome, detail, replies) = decided(&r, &message_id_of(&raw), WAIT).await;
        println!("sender auth: forgery {n} -> {outcome} ({replies} replies): {detail}");
        assert_eq!(outcome, "auth_failed", "{detail}");
        assert!(detail.contains("not authenticated"), "{detail}");
        // The first forgery is reported to the real player; the second, within
        // the hour, is recorded without another notice.
        assert_eq!(replies, if n == 0 { 1 } else { 0 }, "{detail}");
        assert!(r.moves(game.id).is_empty(), "a forgery moved a piece");
    }
    let notice = wait_mails(&mut w, "INBOX", "security notice", 1, WAIT, |m| {
        m.is("notice")
    })
    .await;
    assert!(
        notice[0].text.contains("someone tried to move for you"),
        "{}",
        notice[0].text
    );

    // White's own mail, signed by the provider, to a wrong key: auth alone is
    // not enough under key+auth.
    let wrong = game.white_address.replacen('-', "-x", 1);
    let raw = move_mail(&white, &wrong, "1. 5254");
    rig.send_via_provider(&white, &wrong, &raw).await;
    let (outcome, detail, _) = decided(&r, &message_id_of(&raw), WAIT).await;
    println!("sender auth: signed, wrong key -> {outcome}: {detail}");
    assert_eq!(outcome, "wrong_key", "{detail}");

    // The players' own signed mail to their game addresses moves.
    for (mover, address, mv) in [
        (&white, &game.white_address, "1. 5254"),
        (&black, &game.black_address, "1... 5755"),
    ] {
        let raw = move_mail(mover, address, mv);
        rig.send_via_provider(mover, address, &raw).await;
        let (outcome, detail, _) = decided(&r, &message_id_of(&raw), WAIT).await;
        println!("sender auth: {mover} signed {mv} -> {outcome}: {detail}");
        assert_eq!(outcome, "moved", "{detail}");
    }
    assert_eq!(r.moves(game.id), ["5254", "5755"]);

    // Black heard only of White's real move, and White of one forgery only.
    let relays = wait_mails(&mut b, "INBOX", "relay of 1. 5254", 1, WAIT, |m| {
        m.is("opponent-moved")
    })
    .await;
    assert_eq!(relays.len(), 1);
    wait_mails(&mut w, "INBOX", "relay of 1... 5755", 1, WAIT, |m| {
        m.is("opponent-moved")
    })
    .await;
    assert_eq!(security_notices(&mails(&mut w, "INBOX").await), 1);
    assert_eq!(security_notices(&mails(&mut b, "INBOX").await), 0);
}
