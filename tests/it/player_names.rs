//! Players given with a display name (`--white "Anna Smith <anna@x.example>"`):
//! the real binary over the Maildir. The name goes into the mails; the player
//! is matched by the address only; what is not an address is refused. [IO:
//! temp files, child processes]

use serde_json::Value;

use crate::support::cli::wildt;
use crate::support::club::{Club, mail};
use crate::support::fixtures::body_text;

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\r\n\r\n").next().unwrap_or(raw);
    head.lines().find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Regression: the whole string was stored as the address, so Anna's moves
/// were later "stranger". The name is kept for the mails, the address is
/// what she is matched by, and `game show --json` shows both.
#[test]
fn a_player_given_with_a_name_is_greeted_by_it_and_matched_by_the_address() {
    let club = Club::new();
    let out = wildt(
        &club.cfg,
        &[
            "game",
            "new",
            "--white",
            "Anna Smith <Anna@Example.org>",
            "--black",
            "\"Miller, Ben\" <ben@example.net>",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = v["id"].as_i64().unwrap();
    let white = v["white"]["address"].as_str().unwrap().to_owned();
    assert_eq!(v["white"]["email"], "anna@example.org");
    assert_eq!(v["white"]["name"], "Anna Smith");

    let shown = club.show(id);
    assert_eq!(shown["white"]["email"], "anna@example.org");
    assert_eq!(shown["white"]["name"], "Anna Smith");
    assert_eq!(shown["black"]["email"], "ben@example.net");
    assert_eq!(shown["black"]["name"], "Miller, Ben");

    club.serve_once();
    let welcome = club.outbox();
    assert_eq!(welcome.len(), 2, "{welcome:#?}");
    let to_anna = welcome
        .iter()
        .find(|m| header(m, "To").is_some_and(|t| t.contains("anna@example.org")))
        .expect("a welcome to Anna");
    assert_eq!(
        header(to_anna, "To"),
        Some("\"Anna Smith\" <anna@example.org>")
    );
    let body = body_text(to_anna.as_bytes());
    assert!(body.starts_with("Hello Anna Smith,"), "{body}");
    assert!(
        body.contains("against Miller, Ben (ben@example.net)"),
        "{body}"
    );

    // Her mail, from her address with another name (or none), is hers.
    club.deliver(
        "1.eml",
        &mail(
            "\"A. Smith\" <anna@example.org>",
            &white,
            "n1@example.org",
            "1. 5254",
        ),
    );
    club.serve_once();
    let mails = club.outbox();
    let accepted: Vec<_> = mails
        .iter()
        .filter(|m| header(m, "X-Wildt-Event") == Some("move-accepted"))
        .collect();
    assert_eq!(accepted.len(), 1, "{mails:#?}");
    assert_eq!(
        header(accepted[0], "To"),
        Some("\"Anna Smith\" <anna@example.org>")
    );
    assert_eq!(club.show(id)["moves"][0]["iccf"], "5254");
}

/// What is not one address is refused with the reason and the form to use,
/// and no game is created.
#[test]
fn a_player_that_is_not_an_address_is_refused_with_the_reason() {
    let club = Club::new();
    for (white, why) in [
        ("Anna Smith", "`Anna Smith` is not an e-mail address"),
        (
            "anna@example.org, ben@example.net",
            "`anna@example.org, ben@example.net` is not an e-mail address",
        ),
        ("anna@", "`anna@` is not an e-mail address"),
        (
            "Anna <anna@example.org",
            "`Anna <anna@example.org` has an unclosed quote or angle bracket",
        ),
        (
            "Anna@home <anna@example.org>",
            "the name in `Anna@home <anna@example.org>` may not contain @, < or >",
        ),
    ] {
        let out = wildt(
            &club.cfg,
            &[
                "game",
                "new",
                "--white",
                white,
                "--black",
                "ben@example.net",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{white}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim_end(),
            format!(
                "wildt: white: {why}; write `anna@example.org` or `Anna Smith <anna@example.org>`"
            ),
            "{white}"
        );
    }
    let list = wildt(&club.cfg, &["game", "list", "--json"]);
    let games: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(games, Value::Array(Vec::new()));
}
