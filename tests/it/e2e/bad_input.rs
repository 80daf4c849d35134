//! Scenario 3: what players (and machines) get wrong, over real mail. Each
//! message gets its specified outcome (read from wildt's database and from
//! the players' mailboxes), and a rejected one leaves the game as it was.
//! Where the outcome is "no reply", absence is proven: the message is decided
//! with no outbox row, and a later valid move's confirmation arrives while
//! nothing else does.

use std::time::Duration;

use super::{
    Mail, Options, Referee, decided, fresh_inboxes, message_id_of, move_mail, player, wait_mails,
};
use crate::support::fixtures::unique;
use crate::support::rig::Reader;

const WAIT: Duration = Duration::from_secs(30);

/// A mail with extra header lines (CRLF-terminated) and a body as given.
fn mail_with(from: &str, to: &str, extra: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <{}@players.example>\r\n\
         Date: Sun, 22 Nov 2026 04:00:00 +0000\r\n{extra}\r\n{body}\r\n",
        unique("bad")
    )
    .into_bytes()
}

/// Sends `raw`, waits for its decision, checks the outcome, and returns the
/// decision's detail and outbox count.
async fn send(
    r: &Referee,
    name: &str,
    envelope_from: &str,
    to: &str,
    raw: &[u8],
    outcome: &str,
) -> (String, i64) {
    r.rig.send(envelope_from, to, raw).await;
    let id = message_id_of(raw);
    let (got, detail, replies) = decided(r, &id, WAIT).await;
    println!("bad input: {name:<22} -> {got} ({replies} replies): {detail}");
    assert_eq!(got, outcome, "{name}: {detail}");
    (detail, replies)
}

/// Waits for the reply (of kind `kind`) to the message `raw` in `reader`'s INBOX.
async fn reply_to(reader: &mut Reader, raw: &[u8], kind: &str) -> Mail {
    let id = message_id_of(raw);
    let mut found = wait_mails(reader, "INBOX", &format!("{kind} to {id}"), 1, WAIT, |m| {
        m.in_reply_to.as_deref() == Some(id.as_str())
    })
    .await;
    assert_eq!(found.len(), 1, "one reply to {id}");
    let m = found.remove(0);
    assert!(m.is(kind), "reply to {id} is {:?}, not {kind}", m.kind);
    m
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_its_specified_outcome_and_changes_nothing() {
    let rig = rig_or_skip!();
    let (referee, white, black, stranger) = (player(13), player(14), player(15), player(16));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black, &stranger]).await;
    let mut s = readers.pop().expect("reader");
    let mut b = readers.pop().expect("reader");
    let mut w = readers.pop().expect("reader");
    let r = Referee::new(
        &rig,
        &referee,
        Options {
            max_message_bytes: Some(4096),
            ..Options::default()
        },
    );
    let g = r.new_game(&white, &black, false);
    let (wa, ba) = (g.white_address.clone(), g.black_address.clone());
    let _serve = r.spawn();

    // Rejected moves: a reply to the sender, the record unchanged.
    let raw = move_mail(&white, &wa, "1. 5255");
    let (detail, _) = send(&r, "illegal move", &white, &wa, &raw, "rejected").await;
    assert!(detail.contains("5255"), "{detail}");
    reply_to(&mut w, &raw, "move-rejected").await;
    assert!(r.moves(g.id).is_empty());

    let raw = move_mail(&black, &ba, "1... 5755");
    send(&r, "wrong turn", &black, &ba, &raw, "rejected").await;
    reply_to(&mut b, &raw, "move-rejected").await;
    assert!(r.moves(g.id).is_empty());

    let raw = move_mail(&white, &wa, "3. 5254");
    send(&r, "wrong move number", &white, &wa, &raw, "rejected").await;
    reply_to(&mut w, &raw, "move-rejected").await;
    assert!(r.moves(g.id).is_empty());

    // Two good moves, so that there is something to echo.
    let raw = move_mail(&white, &wa, "1. 5254");
    send(&r, "good move", &white, &wa, &raw, "moved").await;
    reply_to(&mut w, &raw, "move-accepted").await;
    let raw = move_mail(&black, &ba, "1... 5755");
    send(&r, "good move", &black, &ba, &raw, "moved").await;
    reply_to(&mut b, &raw, "move-accepted").await;
    let two = vec!["5254".to_owned(), "5755".to_owned()];
    assert_eq!(r.moves(g.id), two);

    let raw = move_mail(&white, &wa, "1. 5254 5756 2. 7163");
    let (detail, _) = send(&r, "echo mismatch", &white, &wa, &raw, "rejected").await;
    assert!(detail.contains("5756"), "{detail}");
    reply_to(&mut w, &raw, "move-rejected").await;
    assert_eq!(r.moves(g.id), two);

    // Wrong senders and addresses: the real player is told, nobody else.
    let raw = move_mail(&stranger, &wa, "2. 7163");
    send(&r, "stranger", &stranger, &wa, &raw, "stranger").await;
    let notice = wait_mails(&mut w, "INBOX", "stranger notice", 1, WAIT, |m| {
        m.is("notice") && m.text.contains(&stranger)
    })
    .await;
    assert_eq!(notice[0].reply_to.as_deref(), Some(wa.as_str()));
    assert_eq!(r.moves(g.id), two);

    let local = referee.split('@').next().expect("local part");
    let made_up = format!("{local}+{}-madeupkey7@example.org", g.id);
    let raw = move_mail(&white, &made_up, "2. 7163");
    send(&r, "wrong key", &white, &made_up, &raw, "wrong_key").await;
    let m = reply_to(&mut w, &raw, "notice").await;
    assert!(
        m.text.contains(&wa),
        "the notice gives the right address:\n{}",
        m.text
    );
    assert_eq!(r.moves(g.id), two);

    let raw = move_mail(&white, &ba, "2. 7163");
    send(&r, "other seat's key", &white, &ba, &raw, "other_seat_key").await;
    let m = reply_to(&mut w, &raw, "notice").await;
    assert!(
        m.text.contains(&wa),
        "the notice gives the right address:\n{}",
        m.text
    );
    assert_eq!(r.moves(g.id), two);

    // Machines: decided, never answered, never played.
    let auto = mail_with(&white, &wa, "Auto-Submitted: auto-replied\r\n", "2. 7163");
    let (_, n) = send(&r, "auto-reply", &white, &wa, &auto, "automatic").await;
    assert_eq!(n, 0);
    let bounce = mail_with(
        "MAILER-DAEMON@example.org",
        &wa,
        "MIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"b1\"\r\n",
        "--b1\r\nContent-Type: text/plain\r\n\r\nDelivery failed: 2. 7163\r\n\
         --b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; example.org\r\n\r\n\
         Final-Recipient: rfc822; x@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\n--b1--",
    );
    let (_, n) = send(
        &r,
        "bounce",
        "MAILER-DAEMON@example.org",
        &wa,
        &bounce,
        "automatic",
    )
    .await;
    assert_eq!(n, 0);
    let list = mail_with(
        &white,
        &wa,
        "List-Id: <chess.lists.example.org>\r\n",
        "2. 7163",
    );
    let (_, n) = send(&r, "list mail", &white, &wa, &list, "automatic").await;
    assert_eq!(n, 0);
    assert_eq!(r.moves(g.id), two);

    // Too large, broken, or nothing to read: told so, nothing played.
    let padding = "This line only makes the mail larger than the limit.\r\n".repeat(100);
    let big = move_mail(&white, &wa, &format!("2. 7163\r\n\r\n{padding}"));
    assert!(big.len() > 4096);
    send(&r, "oversize", &white, &wa, &big, "too_large").await;
    let m = reply_to(&mut w, &big, "notice").await;
    assert!(m.subject.contains("too large"), "{}", m.subject);
    assert_eq!(r.moves(g.id), two);

    let broken = mail_with(
        &white,
        &wa,
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zzz\"\r\n",
        "--zzz\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n\
         !!! not base64 at all 2. 7163\r\n--zz",
    );
    send(&r, "malformed MIME", &white, &wa, &broken, "unclear").await;
    let m = reply_to(&mut w, &broken, "move-rejected").await;
    assert!(m.subject.contains("not understood"), "{}", m.subject);
    assert_eq!(r.moves(g.id), two);

    let chat = move_mail(&black, &ba, "Hello! Nice game so far, is it not?");
    send(&r, "no move found", &black, &ba, &chat, "unclear").await;
    let m = reply_to(&mut b, &chat, "move-rejected").await;
    assert!(m.subject.contains("not understood"), "{}", m.subject);
    assert_eq!(r.moves(g.id), two);

    // HTML only, with a move: played. It is also the sentinel for the
    // messages above that must have had no reply.
    let html = mail_with(
        &white,
        &wa,
        "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n",
        "<html><body><p>2. 7163</p><p>Greetings</p></body></html>",
    );
    send(&r, "HTML-only move", &white, &wa, &html, "moved").await;
    reply_to(&mut w, &html, "move-accepted").await;
    wait_mails(&mut b, "INBOX", "relay of 2. 7163", 1, WAIT, |m| {
        m.is("opponent-moved") && m.subject.contains("] 2. 7163")
    })
    .await;
    assert_eq!(r.moves(g.id), ["5254", "5755", "7163"]);

    // Nothing else arrived: the replies counted above are all there is.
    let count = |all: &[Mail], e: &str| all.iter().filter(|m| m.is(e)).count();
    let to_w = super::mails(&mut w, "INBOX").await;
    let to_b = super::mails(&mut b, "INBOX").await;
    let to_s = super::mails(&mut s, "INBOX").await;
    println!(
        "bad input: white got {} mails ({} rejected, {} notices, {} accepted, {} relays), black {}, the stranger {}",
        to_w.len(),
        count(&to_w, "move-rejected"),
        count(&to_w, "notice"),
        count(&to_w, "move-accepted"),
        count(&to_w, "opponent-moved"),
        to_b.len(),
        to_s.len()
    );
    // illegal, wrong number, echo, malformed
    assert_eq!(count(&to_w, "move-rejected"), 4);
    // stranger, wrong key, other seat, oversize
    assert_eq!(count(&to_w, "notice"), 4);
    assert_eq!(count(&to_w, "move-accepted"), 2);
    assert_eq!(count(&to_w, "opponent-moved"), 1);
    assert_eq!(to_w.len(), 11);
    // wrong turn, no move found; 1... accepted; relays of 1. and 2.
    assert_eq!(count(&to_b, "move-rejected"), 2);
    assert_eq!(count(&to_b, "move-accepted"), 1);
    assert_eq!(count(&to_b, "opponent-moved"), 2);
    assert_eq!(to_b.len(), 5);
    assert!(to_s.is_empty(), "the stranger got mail: {to_s:#?}");
}
