//! Scenario 1: a whole 64-ply game (both castlings, en passant, an
//! under-promotion, mate) between two players over real mail, wildt reading
//! its inbox over IMAPS with IDLE. Each player answers the referee's last mail
//! as a mail client would (reply to it, quote it), and only after it arrived.

use std::time::Duration;

use super::{Mail, Options, Referee, fresh_inboxes, mails, numbered, player, wait_mails};

const LINE: &str = include_str!("../../fixtures/e2e/long-game.iccf");
const SAN: &str = include_str!("../../fixtures/e2e/long-game.san");

/// A reply to `to_this` as a mail client writes it: to its Reply-To, in its
/// thread, with the move on top and the referee's text quoted below.
fn reply(from: &str, to_this: &Mail, body: &str) -> Vec<u8> {
    let to = to_this
        .reply_to
        .as_deref()
        .expect("the referee sets Reply-To");
    let parent = to_this.message_id.as_deref().expect("Message-ID");
    let mut refs: Vec<String> = to_this
        .references
        .iter()
        .map(|r| format!("<{r}>"))
        .collect();
    refs.push(format!("<{parent}>"));
    let quoted: String = to_this.text.lines().map(|l| format!("> {l}\r\n")).collect();
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: {}\r\nMessage-ID: <{}@players.example>\r\n\
         In-Reply-To: <{parent}>\r\nReferences: {}\r\nDate: Sun, 22 Nov 2026 04:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\nOn Sunday the referee wrote:\r\n{quoted}",
        to_this.subject,
        crate::support::fixtures::unique("reply"),
        refs.join(" "),
    )
    .into_bytes()
}

/// The moves of a PGN without headers, comments, numbers' layout or result.
fn pgn_moves(pgn: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out.push(' ');
    }
    out.split_whitespace()
        .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .filter(|t| !t.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_game_over_imaps_idle_ends_in_mate_with_every_mail_in_one_thread() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(5), player(6), player(7));
    let mut readers = fresh_inboxes(&rig, &[&referee, &white, &black]).await;
    let mut b = readers.pop().expect("reader");
    let mut w = readers.pop().expect("reader");
    let line: Vec<&str> = LINE.split_whitespace().collect();
    assert_eq!(line.len(), 64, "the fixture is a 64-ply game");

    let r = Referee::new(&rig, &referee, Options::default());
    // With opening mails: the players learn their game address from them.
    let game = r.new_game(&white, &black, true);
    let _serve = r.spawn();
    let started = std::time::Instant::now();
    let wait = Duration::from_secs(30);
    let opening_w = wait_mails(&mut w, "INBOX", "opening", 1, wait, |m| m.is("notice")).await;
    let opening_b = wait_mails(&mut b, "INBOX", "opening", 1, wait, |m| m.is("notice")).await;
    assert_eq!(
        opening_w[0].reply_to.as_deref(),
        Some(game.white_address.as_str())
    );
    assert_eq!(
        opening_b[0].reply_to.as_deref(),
        Some(game.black_address.as_str())
    );

    // The mail each player answers next: the opening, then the opponent's relay.
    let mut last_w = opening_w[0].clone();
    let mut last_b = opening_b[0].clone();
    for (ply, mv) in line.iter().enumerate() {
        let written = numbered(ply, mv);
        let white_moves = ply.is_multiple_of(2);
        let (from, to_this) = if white_moves {
            (&white, &last_w)
        } else {
            (&black, &last_b)
        };
        let to = to_this.reply_to.clone().expect("the referee sets Reply-To");
        rig.send(from, &to, &reply(from, to_this, &written)).await;
        // The opponent answers once the relay of this move is there.
        let needle = format!("] {written}");
        let opp = if white_moves { &mut b } else { &mut w };
        let relay = wait_mails(opp, "INBOX", &format!("relaying {written}"), 1, wait, |m| {
            m.is("opponent-moved") && m.subject.contains(&needle)
        })
        .await;
        if white_moves {
            last_b = relay[0].clone();
        } else {
            last_w = relay[0].clone();
        }
        println!("whole game: ply {:>2}: {written} relayed", ply + 1);
    }

    // 32 moves each: a confirmation per own move, a relay per opponent move,
    // the opening and the game-over mail.
    for (who, reader) in [("white", &mut w), ("black", &mut b)] {
        let all = wait_mails(reader, "INBOX", "in all", 66, wait, |_| true).await;
        let count = |e: &str| all.iter().filter(|m| m.is(e)).count();
        println!(
            "whole game: {who}: {} mails: {} opening, {} move-accepted, {} opponent-moved, {} game-over",
            all.len(),
            count("notice"),
            count("move-accepted"),
            count("opponent-moved"),
            count("game-over")
        );
        assert_eq!(count("notice"), 1, "{who}: opening mails");
        assert_eq!(count("move-accepted"), 32, "{who}: confirmations");
        assert_eq!(count("opponent-moved"), 32, "{who}: relays");
        assert_eq!(count("game-over"), 1, "{who}: game-over mails");
        assert_eq!(all.len(), 66, "{who}: no other mail");
        let over = all.iter().find(|m| m.is("game-over")).expect("game over");
        assert!(over.subject.contains("0-1"), "{}", over.subject);
    }

    // One thread: every mail's References opens with the game's root.
    let mut every = mails(&mut w, "INBOX").await;
    every.extend(mails(&mut b, "INBOX").await);
    let root = every[0].references.first().expect("References").clone();
    assert!(root.starts_with("wildt-game-"), "root {root}");
    for m in &every {
        assert_eq!(m.game, Some(game.id), "{}", m.subject);
        assert_eq!(
            m.references.first(),
            Some(&root),
            "{} is outside the game's thread: {:?}",
            m.subject,
            m.references
        );
    }

    let pgn = r.pgn(game.id);
    assert_eq!(pgn_moves(&pgn), pgn_moves(SAN), "PGN:\n{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "PGN:\n{pgn}");
    let shown = r.show(game.id);
    assert_eq!(shown["result"], "0-1");
    assert_eq!(shown["termination"], "checkmate");
    println!(
        "whole game: 64 plies, {} mails to the players, one thread <{root}>, {:.1} s",
        every.len(),
        started.elapsed().as_secs_f64()
    );
}
