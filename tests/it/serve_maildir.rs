//! `wildt serve --once` on the embedded kind of setup: Maildir in, file outbox
//! out, the real binary as a process.

use serde_json::Value;

use crate::support::cli::wildt;
use crate::support::club::{Club, mail};
use crate::support::fixtures::body_text;

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\r\n\r\n").next().unwrap_or(raw);
    head.lines()
        .find(|l| {
            l.len() > name.len()
                && l[..name.len()].eq_ignore_ascii_case(name)
                && l.as_bytes()[name.len()] == b':'
        })
        .map(|l| l[name.len() + 1..].trim())
}

fn of_kind<'a>(mails: &'a [String], kind: &str) -> Vec<&'a String> {
    mails
        .iter()
        .filter(|m| header(m, "X-Wildt-Event") == Some(kind))
        .collect()
}

#[test]
fn move_in_maildir_is_confirmed_to_mover_and_relayed_to_opponent() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "1.eml",
        &mail(
            "Anna <anna@example.org>",
            &g.white,
            "m1@example.org",
            "1. 5254\r\n\r\nAnna",
        ),
    );
    let summary = club.serve_once();
    assert!(summary.starts_with("1 messages"), "{summary}");
    let mails = club.outbox();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let accepted = of_kind(&mails, "move-accepted");
    let relayed = of_kind(&mails, "opponent-moved");
    assert_eq!((accepted.len(), relayed.len()), (1, 1));
    let a = accepted[0];
    assert_eq!(header(a, "To"), Some("anna@example.org"));
    assert_eq!(header(a, "Reply-To"), Some(g.white.as_str()));
    assert_eq!(header(a, "In-Reply-To"), Some("<m1@example.org>"));
    assert_eq!(header(a, "Auto-Submitted"), Some("auto-replied"));
    assert_eq!(header(a, "X-Wildt-Game"), Some(g.id.to_string().as_str()));
    assert!(header(a, "Message-ID").is_some());
    let r = relayed[0];
    assert_eq!(header(r, "To"), Some("ben@example.net"));
    assert_eq!(header(r, "Reply-To"), Some(g.black.as_str()));
    // Both mails of the game share its thread root.
    let root = header(a, "References")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(header(r, "References").unwrap().contains(root));
    let shown = club.show(g.id);
    assert_eq!(shown["moves"][0]["iccf"], "5254");
    // Handled mail leaves new/ for cur/.
    assert_eq!(club.maildir_count("new"), 0);
    assert_eq!(club.maildir_count("cur"), 1);
}

#[test]
fn the_same_message_delivered_twice_is_applied_once() {
    let club = Club::new();
    let g = club.new_game();
    let m = mail("anna@example.org", &g.white, "twice@example.org", "5254");
    club.deliver("a.eml", &m);
    club.deliver("b.eml", &m);
    let summary = club.serve_once();
    assert!(summary.contains("1 messages, 1 duplicates"), "{summary}");
    assert_eq!(club.outbox().len(), 2);
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 1);
    // A second run finds nothing to do and sends nothing again.
    let again = club.serve_once();
    assert!(
        again.starts_with("0 messages, 0 duplicates, 0 mails sent"),
        "{again}"
    );
    assert_eq!(club.outbox().len(), 2);
}

#[test]
fn illegal_move_is_answered_with_the_reason_and_changes_nothing() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "bad@example.org", "7154"),
    );
    club.serve_once();
    let mails = club.outbox();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let rejected = of_kind(&mails, "move-rejected");
    assert_eq!(rejected.len(), 1);
    assert!(
        rejected[0].contains("the knight on 71 cannot reach 54"),
        "{}",
        rejected[0]
    );
    assert!(rejected[0].contains("7163, 7183"), "{}", rejected[0]);
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn auto_reply_is_recorded_and_never_answered() {
    let club = Club::new();
    let g = club.new_game();
    let m = mail(
        "anna@example.org",
        &g.white,
        "ooo@example.org",
        "I am out of office until 1520.",
    )
    .replacen(
        "Subject: move\r\n",
        "Subject: Out of office\r\nAuto-Submitted: auto-replied\r\n",
        1,
    );
    club.deliver("ooo.eml", &m);
    let summary = club.serve_once();
    assert!(summary.starts_with("1 messages"), "{summary}");
    assert!(club.outbox().is_empty());
    assert_eq!(club.maildir_count("cur"), 1);
}

#[test]
fn stranger_on_a_game_address_moves_nothing_and_gets_no_reply() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "s.eml",
        &mail("mallory@example.com", &g.white, "s@example.com", "5254"),
    );
    club.serve_once();
    let mails = club.outbox();
    assert!(
        mails
            .iter()
            .all(|m| header(m, "To") != Some("mallory@example.com"))
    );
    // The real player hears of it, once.
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(header(&mails[0], "To"), Some("anna@example.org"));
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
}

/// Strangers writing to a game's address again and again within the hour
/// warn its player once: two in one run, a third in the next.
#[test]
fn a_player_is_warned_once_an_hour_however_many_strangers_write() {
    let club = Club::new();
    let g = club.new_game();
    for (n, from) in ["mallory@example.com", "trudy@example.net"]
        .iter()
        .enumerate()
    {
        club.deliver(
            &format!("s{n}.eml"),
            &mail(from, &g.white, &format!("s{n}@example.com"), "5254"),
        );
    }
    club.serve_once();
    let warned = |mails: &[String]| {
        mails
            .iter()
            .filter(|m| header(m, "To") == Some("anna@example.org"))
            .count()
    };
    let mails = club.outbox();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(warned(&mails), 1, "{mails:#?}");
    club.deliver(
        "s2.eml",
        &mail("eve@example.org", &g.white, "s2@example.org", "5254"),
    );
    club.serve_once();
    let mails = club.outbox();
    assert_eq!(warned(&mails), 1, "{mails:#?}");
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn check_shows_the_decision_and_changes_nothing() {
    let club = Club::new();
    let g = club.new_game();
    let path = club.dir.path().join("m.eml");
    std::fs::write(
        &path,
        mail("anna@example.org", &g.white, "c@example.org", "1. 5254"),
    )
    .unwrap();
    let out = wildt(&club.cfg, &["check", path.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], g.id);
    assert_eq!(v["seat"], "white");
    assert_eq!(v["outcome"], "moved");
    assert_eq!(v["sender_auth"], Value::Null);
    assert_eq!(v["replies"].as_array().unwrap().len(), 2);
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
    assert!(club.outbox().is_empty());
    // Checking twice gives the same answer: nothing was recorded.
    let again = wildt(&club.cfg, &["check", path.to_str().unwrap(), "--json"]);
    let v2: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v2["outcome"], "moved");
}

/// With a trusted server and `key+auth`, `check` says what the trusted
/// server's header said of the sender: an aligned DKIM pass moves; the same
/// mail whose only "pass" comes from another server's header does not.
#[test]
fn check_shows_the_trusted_servers_verdict_on_the_sender() {
    let club = Club::new();
    let mut cfg = std::fs::read_to_string(&club.cfg).unwrap();
    cfg.push_str(
        "\n[security]\ntrusted_authserv_id = \"mx.club.example\"\npolicy = \"key+auth\"\n",
    );
    std::fs::write(&club.cfg, cfg).unwrap();
    let g = club.new_game();
    let signed = format!(
        "Authentication-Results: mx.club.example;\r\n dkim=pass header.d=example.org header.s=s1\r\n{}",
        mail("anna@example.org", &g.white, "a1@example.org", "1. 5254")
    );
    let forged = format!(
        "Authentication-Results: mx.elsewhere.example; dkim=pass header.d=example.org\r\n{}",
        mail("anna@example.org", &g.white, "a2@example.org", "1. 5254")
    );
    let check = |name: &str, raw: &str, json: bool| {
        let path = club.dir.path().join(name);
        std::fs::write(&path, raw).unwrap();
        let mut args = vec!["check", path.to_str().unwrap()];
        if json {
            args.push("--json");
        }
        let out = wildt(&club.cfg, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };

    let v: Value = serde_json::from_str(&check("signed.eml", &signed, true)).unwrap();
    assert_eq!(v["outcome"], "moved", "{v}");
    assert_eq!(v["sender_auth"]["passed"], true, "{v}");
    assert_eq!(v["sender_auth"]["verdict"], "DKIM pass for example.org");
    let text = check("signed.eml", &signed, false);
    assert!(
        text.contains("Sender:   DKIM pass for example.org, says mx.club.example"),
        "{text}"
    );

    let v: Value = serde_json::from_str(&check("forged.eml", &forged, true)).unwrap();
    assert_eq!(v["outcome"], "auth_failed", "{v}");
    assert_eq!(v["sender_auth"]["passed"], false, "{v}");
    assert_eq!(
        v["sender_auth"]["verdict"],
        "no Authentication-Results from the trusted server"
    );
    // The forged sender hears nothing; the real player is told.
    let replies = v["replies"].as_array().unwrap();
    assert_eq!(replies.len(), 1, "{v}");
    assert_eq!(replies[0]["to"], "anna@example.org");
    let body = replies[0]["body"].as_str().unwrap();
    assert!(
        body.contains("could not confirm that it came from you (it found no proof"),
        "{body}"
    );
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
}

/// The Maildir inbox reads no more than `max_message_bytes + 1` bytes of a
/// message, and tells its real size.
#[test]
fn maildir_inbox_reads_a_huge_message_only_up_to_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut inbox = wildt::mail::maildir::MaildirInbox::open(dir.path()).unwrap();
    inbox.set_max_message_bytes(4096);
    let huge = mail(
        "anna@example.org",
        "chess+1-abcdefgh@club.example",
        "h@example.org",
        &"x".repeat(3 * 1024 * 1024),
    );
    let small = mail(
        "anna@example.org",
        "chess@club.example",
        "s@example.org",
        "hi",
    );
    std::fs::write(dir.path().join("new/1.huge"), &huge).unwrap();
    std::fs::write(dir.path().join("new/2.small"), &small).unwrap();
    let mut got = inbox.fetch_waiting(10).unwrap();
    got.sort_by_key(|m| m.size);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].raw, small.as_bytes());
    assert_eq!(got[0].size, small.len());
    assert_eq!(got[1].size, huge.len());
    assert_eq!(got[1].raw, huge.as_bytes()[..4097]);
}

/// The inbox remembers a waiting file's delivery time and size between
/// listings; a name that left `new/` and comes back (another message under
/// an old name) is looked at anew, not taken for the one it remembered.
#[test]
fn maildir_listing_looks_again_at_a_name_that_left_and_came_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut inbox = wildt::mail::maildir::MaildirInbox::open(dir.path()).unwrap();
    let path = dir.path().join("new/1.reused");
    std::fs::write(&path, "x".repeat(100)).unwrap();
    let sizes = |inbox: &mut wildt::mail::maildir::MaildirInbox| -> Vec<usize> {
        inbox
            .list_waiting(10)
            .unwrap()
            .iter()
            .map(|w| w.size)
            .collect()
    };
    assert_eq!(sizes(&mut inbox), [100]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(sizes(&mut inbox), [0usize; 0]);
    std::fs::write(&path, "y".repeat(250)).unwrap();
    assert_eq!(sizes(&mut inbox), [250]);
    // And a file delivered beside it is listed with its own size.
    std::fs::write(dir.path().join("new/2.other"), "z".repeat(7)).unwrap();
    let mut got = sizes(&mut inbox);
    got.sort_unstable();
    assert_eq!(got, [7, 250]);
}

/// A 20 MiB mail to the daemon: not read, not played, and the sender is told
/// its real size and the limit.
#[test]
fn a_huge_mail_is_answered_with_its_real_size_and_moves_nothing() {
    let club = Club::new();
    let g = club.new_game();
    let huge = mail(
        "anna@example.org",
        &g.white,
        "huge@example.org",
        &format!("1. 5254\r\n\r\n{}", "x".repeat(20 * 1024 * 1024)),
    );
    club.deliver("huge.eml", &huge);
    club.serve_once();
    let mails = club.outbox();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(header(&mails[0], "To"), Some("anna@example.org"));
    let text = body_text(mails[0].as_bytes());
    assert!(
        text.contains(&format!("Your message of {} bytes", huge.len())),
        "{text}"
    );
    assert!(text.contains("(1048576 bytes)"), "{text}");
    assert_eq!(club.show(g.id)["moves"].as_array().unwrap().len(), 0);
    assert_eq!(club.maildir_count("new"), 0);
}

/// `game rekey` prints the seat's new address, the game shows it, and the
/// player's mail with it goes out with the next `serve`; `--no-mail` queues
/// nothing.
#[test]
fn organiser_rekeys_a_seat_and_the_player_is_mailed_the_new_address() {
    let club = Club::new();
    let g = club.new_game();
    let id = g.id.to_string();
    let rekey = |seat: &str, extra: &[&str]| -> Value {
        let mut args = vec!["game", "rekey", &id, "--as", seat, "--json"];
        args.extend(extra);
        let out = wildt(&club.cfg, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };

    let rekeyed = rekey("black", &[]);
    let new = rekeyed["address"].as_str().unwrap();
    assert_ne!(new, g.black);
    assert_eq!(rekeyed["email"], "ben@example.net");
    assert_eq!(rekeyed["mailed"], true);
    let shown = club.show(g.id);
    assert_eq!(shown["black"]["address"], new);
    assert_eq!(shown["white"]["address"], g.white);

    club.serve_once();
    let sent = club.outbox();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert_eq!(header(&sent[0], "To"), Some("ben@example.net"));
    assert_eq!(header(&sent[0], "Reply-To"), Some(new));
    let body = body_text(sent[0].as_bytes());
    assert!(body.contains(&format!("is now {new}")), "{body}");
    assert!(!body.contains(&g.black), "{body}");

    assert_eq!(rekey("white", &["--no-mail"])["mailed"], false);
    club.serve_once();
    assert_eq!(club.outbox().len(), 1);
}

#[test]
fn new_game_mails_each_player_their_own_address() {
    let club = Club::new();
    let out = wildt(
        &club.cfg,
        &[
            "game",
            "new",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--json",
        ],
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    club.serve_once();
    let mails = club.outbox();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for (email, seat) in [("anna@example.org", "white"), ("ben@example.net", "black")] {
        let address = v[seat]["address"].as_str().unwrap();
        let m = mails
            .iter()
            .find(|m| header(m, "To") == Some(email))
            .unwrap_or_else(|| panic!("no mail to {email}"));
        assert_eq!(header(m, "Reply-To"), Some(address));
        assert!(m.contains(address), "{m}");
    }
}

/// An operator's fault: the mail command fails (here `false` in place of
/// sendmail), so a backlog of replies waits in the database. Once it is
/// fixed, `serve --once` sends them all, and the space their bodies took is
/// given back: the database file does not stay at its peak with the free
/// pages scattered in it.
#[tokio::test]
async fn after_a_backlog_of_replies_is_sent_the_database_gives_its_space_back() {
    let club = Club::new();
    let fixed =
        std::fs::read_to_string(&club.cfg).unwrap() + "\n[limits]\ngames_per_player = 1000\n";
    let broken = fixed.replace(
        "kind = \"file\"",
        "kind = \"sendmail\"\ncommand = \"/bin/false\"\nretry_initial_secs = 1",
    );
    std::fs::write(&club.cfg, &broken).unwrap();
    // Enough replies that, packed, they fill more pages than the worker
    // keeps free.
    for n in 0..400 {
        let g = club.new_game();
        club.deliver(
            &format!("{n}.eml"),
            &mail(
                "anna@example.org",
                &g.white,
                &format!("b{n}@example.org"),
                "1. 5254",
            ),
        );
    }
    let summary = club.serve_once();
    assert!(summary.starts_with("400 messages"), "{summary}");
    let db = club.dir.path().join("wildt.db");
    let pragma = |name: &'static str| {
        let db = db.clone();
        async move {
            let url = format!("sqlite://{}?mode=ro", db.display());
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            let n: i64 = sqlx::query_scalar(&format!("PRAGMA {name}"))
                .fetch_one(&pool)
                .await
                .unwrap();
            pool.close().await;
            n
        }
    };
    let waiting_pages = pragma("page_count").await;
    std::fs::write(&club.cfg, &fixed).unwrap();
    // Due now, whatever backoff the failed tries reached (what `wildt
    // outbox retry IDS` does for each).
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    sqlx::query("UPDATE outbox SET next_attempt_at = 0 WHERE sent_at IS NULL")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    club.serve_once();
    assert_eq!(
        club.outbox().len(),
        800,
        "every reply sent once the folder is back"
    );
    assert_eq!(pragma("auto_vacuum").await, 2, "incremental");
    let free = pragma("freelist_count").await;
    assert!(free <= 256, "{free} free pages left in the file");
    let pages = pragma("page_count").await;
    assert!(
        pages < waiting_pages,
        "{pages} pages after sending, {waiting_pages} while the replies waited"
    );
}
