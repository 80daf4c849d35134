//! `wildt::mail::smtp::SmtpTransport` against the rig's Postfix: delivery read
//! back over IMAP, the three TLS modes, and how failures are classified.
//! [IO: needs scripts/mail-rig; messages are told apart by unique subjects]

use wildt::mail::smtp::{SmtpError, SmtpTransport};

use crate::support::fixtures::{REFEREE, message, unique};
use crate::support::rig::{Rig, bounded, free_port};

#[tokio::test]
async fn send_raw_delivers_to_the_inbox_keeping_the_subaddress_in_delivered_to() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");
    let game_address = format!("chess+{}@club.example", unique("g7-k3"));
    let subject = unique("reply");
    let raw = message("anna@example.org", &game_address, &subject, "1. 5254");

    bounded(
        "send",
        transport.send_raw(
            "anna@example.org",
            std::slice::from_ref(&game_address),
            &raw,
        ),
    )
    .await
    .expect("send_raw");

    let mut reader = rig.reader(REFEREE).await;
    let got = reader.wait_for("INBOX", &subject, 1).await;
    assert_eq!(got.len(), 1);
    assert_eq!(
        got[0].header("Delivered-To").as_deref(),
        Some(game_address.as_str())
    );
    assert_eq!(got[0].header("Subject").as_deref(), Some(subject.as_str()));
}

/// Sends `raw` from anna to `to` over the rig's relay (plain SMTP, which
/// offers PIPELINING) and returns the body of the one mail with `subject`
/// in `to`'s INBOX, as Dovecot keeps it: everything after the headers.
async fn sent_body_as_delivered(rig: &Rig, to: &str, subject: &str, raw: &[u8]) -> Vec<u8> {
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");
    bounded(
        "send",
        transport.send_raw("anna@example.org", &[to.to_owned()], raw),
    )
    .await
    .expect("send_raw");
    let mut reader = rig.reader(to).await;
    let got = reader.wait_for("INBOX", subject, 1).await;
    assert_eq!(got.len(), 1);
    let at = got[0]
        .raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a body");
    got[0].raw[at + 4..].to_vec()
}

/// Lines that start with a dot (a lone dot would end the mail early; a
/// dot the relay takes off would change it) reach the inbox as written,
/// over the relay's PIPELINING path, which writes the mail's data itself.
#[tokio::test]
async fn lines_starting_with_a_dot_arrive_as_written() {
    let rig = rig_or_skip!();
    let subject = unique("dots");
    let body = ".\r\n..\r\n.hidden line\r\n1. 5254 (e4)\r\n... 5755\r\n.";
    let raw = message("anna@example.org", "p03@example.org", &subject, body);
    let arrived = sent_body_as_delivered(&rig, "p03@example.org", &subject, &raw).await;
    assert_eq!(arrived, format!("{body}\r\n").into_bytes());
}

/// A mail whose body is 8-bit but not UTF-8 (Latin-1, as an old client
/// writes it) is not the text the prepared write takes: it goes through
/// lettre's own writer with BODY=8BITMIME and arrives byte for byte.
#[tokio::test]
async fn a_latin1_body_arrives_byte_for_byte_over_the_pipelining_relay() {
    let rig = rig_or_skip!();
    let subject = unique("latin1");
    let mut raw = message("anna@example.org", "p04@example.org", &subject, "");
    // "1. 5254, caf\xe9" and a line starting with a dot, in Latin-1.
    raw.extend_from_slice(b"1. 5254, caf\xe9\r\n.r\xe9sign\xe9\r\n");
    assert!(std::str::from_utf8(&raw).is_err());
    let arrived = sent_body_as_delivered(&rig, "p04@example.org", &subject, &raw).await;
    // lettre's writer ends the data with an empty line of its own.
    assert_eq!(arrived, b"\r\n1. 5254, caf\xe9\r\n.r\xe9sign\xe9\r\n\r\n");
}

#[tokio::test]
async fn send_raw_reaches_every_recipient() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");
    let subject = unique("both");
    let to = vec!["p01@example.org".to_owned(), "p02@example.org".to_owned()];
    let raw = message(
        REFEREE,
        "p01@example.org, p02@example.org",
        &subject,
        "board",
    );

    bounded("send", transport.send_raw(REFEREE, &to, &raw))
        .await
        .expect("send_raw");

    for user in &to {
        let mut reader = rig.reader(user).await;
        assert_eq!(reader.wait_for("INBOX", &subject, 1).await.len(), 1);
    }
}

#[tokio::test]
async fn starttls_with_the_rig_ca_delivers() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("starttls")).expect("transport");
    let subject = unique("starttls");
    let raw = message(REFEREE, "anna@example.org", &subject, "x");

    bounded(
        "send",
        transport.send_raw(REFEREE, &["anna@example.org".to_owned()], &raw),
    )
    .await
    .expect("send_raw over STARTTLS");

    let mut reader = rig.reader("anna@example.org").await;
    assert_eq!(reader.wait_for("INBOX", &subject, 1).await.len(), 1);
}

#[tokio::test]
async fn implicit_tls_with_the_rig_ca_delivers() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("implicit")).expect("transport");
    let subject = unique("smtps");
    let raw = message(REFEREE, "ben@example.net", &subject, "x");

    bounded(
        "send",
        transport.send_raw(REFEREE, &["ben@example.net".to_owned()], &raw),
    )
    .await
    .expect("send_raw over implicit TLS");

    let mut reader = rig.reader("ben@example.net").await;
    assert_eq!(reader.wait_for("INBOX", &subject, 1).await.len(), 1);
}

#[tokio::test]
async fn test_connection_is_true_against_the_rig() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");

    let up = bounded("test_connection", transport.test_connection())
        .await
        .expect("test_connection");

    assert!(up);
}

#[tokio::test]
async fn unknown_recipient_is_a_permanent_5xx() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");
    let nobody = format!("{}@club.example", unique("nobody"));
    let raw = message(REFEREE, &nobody, "lost", "x");

    let err = bounded("send", transport.send_raw(REFEREE, &[nobody], &raw))
        .await
        .expect_err("Postfix refuses unknown users");

    assert!(err.is_permanent(), "{err:?}");
    assert!(!err.is_transient(), "{err:?}");
    assert_eq!(err.smtp_code().map(|c| c / 100), Some(5), "{err:?}");
}

#[tokio::test]
async fn a_4xx_answer_is_transient() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");
    let raw = message(REFEREE, "tempfail@club.example", "later", "x");

    let err = bounded(
        "send",
        transport.send_raw(REFEREE, &["tempfail@club.example".to_owned()], &raw),
    )
    .await
    .expect_err("the rig answers 450 for this address");

    assert!(err.is_transient(), "{err:?}");
    assert!(!err.is_permanent(), "{err:?}");
    assert_eq!(err.smtp_code(), Some(450), "{err:?}");
}

#[tokio::test]
async fn refused_connection_is_transient() {
    let rig = rig_or_skip!();
    let mut cfg = rig.smtp("none");
    cfg.port = free_port();
    let transport = SmtpTransport::new(&cfg).expect("transport");
    let raw = message(REFEREE, "anna@example.org", "never", "x");

    let err = bounded(
        "send",
        transport.send_raw(REFEREE, &["anna@example.org".to_owned()], &raw),
    )
    .await
    .expect_err("nothing listens there");

    assert!(err.is_transient(), "{err:?}");
    assert!(!err.is_permanent(), "{err:?}");
    assert!(matches!(err, SmtpError::Connect { .. }), "{err:?}");
    let probe = bounded("test_connection", transport.test_connection()).await;
    assert!(
        matches!(&probe, Err(e) if e.is_transient()),
        "test_connection: {probe:?}"
    );
}

#[tokio::test]
async fn an_invalid_recipient_address_is_permanent_and_sends_nothing() {
    let rig = rig_or_skip!();
    let transport = SmtpTransport::new(&rig.smtp("none")).expect("transport");

    let err = transport
        .send_raw(REFEREE, &["not an address".to_owned()], b"x")
        .await
        .expect_err("the address does not parse");

    assert!(matches!(err, SmtpError::Address { .. }), "{err:?}");
    assert!(err.is_permanent());
}

/// MAIL, RCPT and DATA go to the rig's Postfix in one write (it offers
/// PIPELINING): a refused recipient among good ones must leave the mail
/// unsent to all of them and the connection's answers in step, so the
/// next mail over the same single connection arrives once.
#[tokio::test]
async fn a_refused_recipient_among_good_ones_sends_to_none_and_the_next_mail_still_arrives_once() {
    let rig = rig_or_skip!();
    let mut cfg = rig.smtp("none");
    cfg.connections = 1;
    let transport = SmtpTransport::new(&cfg).expect("transport");
    let nobody = format!("{}@club.example", unique("nobody"));
    let refused = unique("refused");
    let to = vec!["p03@example.org".to_owned(), nobody.clone()];
    let raw = message(REFEREE, "p03@example.org", &refused, "x");

    let err = bounded("send", transport.send_raw(REFEREE, &to, &raw))
        .await
        .expect_err("Postfix refuses the unknown user");
    assert!(err.is_permanent(), "{err:?}");
    assert_eq!(err.smtp_code().map(|c| c / 100), Some(5), "{err:?}");

    let mut subjects = Vec::new();
    for _ in 0..3 {
        let subject = unique("after");
        let raw = message(REFEREE, "p03@example.org", &subject, "y");
        bounded(
            "send",
            transport.send_raw(REFEREE, &["p03@example.org".to_owned()], &raw),
        )
        .await
        .expect("the next mail goes");
        subjects.push(subject);
    }

    let mut reader = rig.reader("p03@example.org").await;
    for subject in &subjects {
        assert_eq!(
            reader.wait_for("INBOX", subject, 1).await.len(),
            1,
            "{subject}"
        );
    }
    let inbox = reader.messages("INBOX").await;
    let count = |needle: &str| {
        inbox
            .iter()
            .filter(|m| String::from_utf8_lossy(&m.raw).contains(needle))
            .count()
    };
    assert_eq!(
        count(&refused),
        0,
        "the mail with a refused recipient went out"
    );
    for subject in &subjects {
        assert_eq!(count(subject), 1, "{subject}");
    }
}
