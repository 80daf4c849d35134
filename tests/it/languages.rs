//! Replies in the player's language, end to end: the real binary over the
//! Maildir, reading the written .eml files (text part, HTML part, headers).
//! The language is chosen by the organiser (`game new --white-lang`,
//! `player set --lang`), by the player's mail ("Sprache: Deutsch"), or
//! guessed from command words and `Content-Language`. [IO: processes, temp
//! files]

use mail_parser::MessageParser;
use shakmaty::Position;
use wildt::game::{Record, board_diagram, record_text, status_line};

use crate::support::cli::wildt;
use crate::support::club::{Club, mail};

/// A written mail as a player's client sees it.
pub struct Read {
    pub to: String,
    pub subject: String,
    /// The mail's kind (`X-Wildt-Event`).
    pub kind: String,
    pub lang: String,
    /// The text part, with LF line ends.
    pub text: String,
    /// The HTML part, if the mail has one.
    pub html: Option<String>,
}

pub fn read(raw: &str) -> Read {
    let m = MessageParser::default().parse(raw.as_bytes()).unwrap();
    let header = |name: &str| {
        m.header_raw(name)
            .map(|v| v.trim().to_owned())
            .unwrap_or_default()
    };
    let html = raw
        .contains("Content-Type: text/html")
        .then(|| m.body_html(0).unwrap().into_owned());
    Read {
        to: m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap()
            .to_owned(),
        subject: m.subject().unwrap_or_default().to_owned(),
        kind: header("X-Wildt-Event"),
        lang: header("Content-Language"),
        text: m.body_text(0).unwrap().replace("\r\n", "\n"),
        html,
    }
}

fn mails_to<'a>(mails: &'a [Read], to: &str) -> Vec<&'a Read> {
    mails.iter().filter(|m| m.to == to).collect()
}

fn outbox(club: &Club) -> Vec<Read> {
    club.outbox().iter().map(|m| read(m)).collect()
}

#[test]
fn languages_set_by_the_organiser_write_each_players_mails_in_their_language() {
    let club = Club::new();
    let g = club.new_game_with(&["--white-lang", "de", "--black-lang", "fr"]);
    let shown = club.show(g.id);
    assert_eq!(shown["white"]["lang"], "de");
    assert_eq!(shown["black"]["lang"], "fr");
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 7163"),
    );
    club.serve_once();
    let mails = outbox(&club);
    let anna = mails_to(&mails, "anna@example.org");
    let ben = mails_to(&mails, "ben@example.net");
    assert_eq!((anna.len(), ben.len()), (1, 1));
    let (a, b) = (anna[0], ben[0]);
    assert_eq!(a.lang, "de");
    assert_eq!(a.subject, format!("[wildt #{}] 1. 7163 angenommen", g.id));
    assert!(
        a.text.starts_with(&format!(
            "Partie {}: Ihr Zug 1. 7163 (Sf3) ist notiert.",
            g.id
        )),
        "{}",
        a.text
    );
    assert!(a.text.contains("Schwarz am Zug (1...)"), "{}", a.text);
    assert_eq!(b.lang, "fr");
    assert_eq!(b.kind, "opponent-moved");
    assert_eq!(
        b.subject,
        format!("[wildt #{}] 1. 7163 - à vous de jouer", g.id)
    );
    assert!(
        b.text.starts_with(&format!(
            "Partie {} : les Blancs ont joué 1. 7163 (Cf3).",
            g.id
        )),
        "{}",
        b.text
    );
    for m in [a, b] {
        let html = m.html.as_deref().expect("an HTML part");
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
        assert!(html.contains(&format!("lang=\"{}\"", m.lang)), "{html}");
    }
    // The record in the HTML part: the numeric move with the reader's SAN.
    assert!(a.html.as_deref().unwrap().contains("Sf3"));
    assert!(b.html.as_deref().unwrap().contains("Cf3"));
}

#[test]
fn player_set_changes_the_language_of_every_later_mail() {
    let club = Club::new();
    let g = club.new_game();
    assert_eq!(club.show(g.id)["black"]["lang"], "en");
    let out = wildt(
        &club.cfg,
        &["player", "set", "Ben@Example.NET", "--lang", "русский"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(club.show(g.id)["black"]["lang"], "ru");
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 7163"),
    );
    club.serve_once();
    let mails = outbox(&club);
    let ben = mails_to(&mails, "ben@example.net");
    assert_eq!(ben[0].lang, "ru");
    assert_eq!(
        ben[0].subject,
        format!("[wildt #{}] 1. 7163 - ваш ход", g.id)
    );
    assert!(ben[0].text.contains("(Кf3)"), "{}", ben[0].text);
    assert!(ben[0].html.is_some());
    // Anna has none set: English.
    assert_eq!(mails_to(&mails, "anna@example.org")[0].lang, "en");
}

#[test]
fn a_language_line_by_mail_is_confirmed_in_the_new_language_and_kept() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "1.eml",
        &mail(
            "anna@example.org",
            &g.white,
            "m1@example.org",
            "Język: polski",
        ),
    );
    club.serve_once();
    let mails = outbox(&club);
    // Only the confirmation: a mail holding just the language line is not
    // an unclear one.
    assert_eq!(
        mails.len(),
        1,
        "{:?}",
        mails.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert_eq!(mails[0].subject, format!("[wildt #{}] język: polski", g.id));
    assert!(
        mails[0]
            .text
            .starts_with("Od teraz wildt pisze do Ciebie po polsku.")
    );
    assert_eq!(mails[0].lang, "pl");
    assert_eq!(club.show(g.id)["white"]["lang"], "pl");
    // With a move in the same mail: the move is played, answered in the new
    // language.
    club.deliver(
        "2.eml",
        &mail(
            "anna@example.org",
            &g.white,
            "m2@example.org",
            "Sprache: Deutsch\n1. 5254",
        ),
    );
    club.serve_once();
    let mails = outbox(&club);
    let anna = mails_to(&mails, "anna@example.org");
    assert_eq!(
        anna.len(),
        3,
        "{:?}",
        anna.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(anna.iter().any(|m| m.subject.ends_with("Sprache: Deutsch")));
    let accepted = anna.iter().find(|m| m.kind == "move-accepted").unwrap();
    assert!(
        accepted.text.contains("Ihr Zug 1. 5254 (e4) ist notiert."),
        "{}",
        accepted.text
    );
    assert_eq!(club.show(g.id)["white"]["lang"], "de");
}

#[test]
fn command_words_and_content_language_guess_a_players_language() {
    let club = Club::new();
    let g = club.new_game();
    // German command words: the status is answered in German, and kept.
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "Stellung"),
    );
    // Content-Language alone (a bare move says nothing): Spanish.
    let ben = mail("ben@example.net", &g.black, "m2@example.org", "1... 5755").replace(
        "Content-Type: text/plain",
        "Content-Language: es\r\nContent-Type: text/plain",
    );
    club.deliver("2.eml", &ben);
    club.serve_once();
    let mails = outbox(&club);
    let anna = mails_to(&mails, "anna@example.org");
    assert_eq!(anna[0].subject, format!("[wildt #{}] Stellung", g.id));
    assert!(
        anna[0]
            .text
            .starts_with(&format!("Partie {}: die aktuelle Stellung.", g.id))
    );
    assert!(anna[0].html.is_some());
    let ben = mails_to(&mails, "ben@example.net");
    assert_eq!(ben[0].lang, "es");
    assert_eq!(ben[0].kind, "move-rejected");
    let shown = club.show(g.id);
    assert_eq!(
        (
            shown["white"]["lang"].as_str(),
            shown["black"]["lang"].as_str()
        ),
        (Some("de"), Some("es"))
    );
    // A guess never overrides a choice: Anna, now set to French, writes
    // English words.
    let out = wildt(
        &club.cfg,
        &["player", "set", "anna@example.org", "--lang", "fr"],
    );
    assert!(out.status.success());
    club.deliver(
        "3.eml",
        &mail("anna@example.org", &g.white, "m3@example.org", "status"),
    );
    club.serve_once();
    assert_eq!(club.show(g.id)["white"]["lang"], "fr");
}

#[test]
fn a_header_and_words_that_disagree_are_no_guess() {
    let club = Club::new();
    let g = club.new_game();
    let m = mail("anna@example.org", &g.white, "m1@example.org", "Stellung").replace(
        "Content-Type: text/plain",
        "Content-Language: it\r\nContent-Type: text/plain",
    );
    club.deliver("1.eml", &m);
    club.serve_once();
    let mails = outbox(&club);
    assert_eq!(mails[0].lang, "en");
    assert_eq!(club.show(g.id)["white"]["lang"], "en");
}

/// The text part is what a text-only client shows: word for word the mail
/// wildt wrote before it had an HTML part.
#[test]
fn the_text_part_is_unchanged_for_a_client_that_reads_only_text() {
    let club = Club::new();
    let g = club.new_game();
    club.deliver(
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
    );
    club.serve_once();
    let mails = outbox(&club);
    let relay = mails_to(&mails, "ben@example.net")[0];
    let mut record = Record::new(None).unwrap();
    let v = wildt::referee::judge(
        &record,
        record.turn(),
        &wildt::command::Command::single("5254".parse().unwrap()),
    );
    record.apply(&v);
    let want = format!(
        "Game {}: White played 1. 5254 (e4).\n\n{}\nRecord: {}\n{}\n\n\
         Reply to this mail with your move in numeric notation, e.g. \"1... {}\".\n\
         Other commands: resign, offer draw, accept draw, decline draw, claim draw, status.\n",
        g.id,
        board_diagram(record.position()),
        record_text(&record, true),
        status_line(&record),
        wildt::notation::IccfMove::from_move(record.position().legal_moves()[0]),
    );
    assert_eq!(relay.text, want);
    assert!(relay.html.is_some());
}

/// Conditional moves are answered in the player's language, and their notes
/// reach the HTML part too.
#[test]
fn conditional_move_mails_are_in_the_players_language_in_both_parts() {
    let club = Club::new();
    let g = club.new_game_with(&["--black-lang", "de"]);
    club.deliver(
        "1.eml",
        &mail(
            "ben@example.net",
            &g.black,
            "m1@example.org",
            "wenn 1. 5254 dann 1... 5755",
        ),
    );
    club.serve_once();
    let stored = outbox(&club);
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0].subject,
        format!("[wildt #{}] bedingte Züge", g.id)
    );
    assert!(
        stored[0]
            .text
            .contains("Ihre bedingten Züge sind gespeichert:"),
        "{}",
        stored[0].text
    );
    club.deliver(
        "2.eml",
        &mail("anna@example.org", &g.white, "m2@example.org", "1. 5254"),
    );
    club.serve_once();
    let mails = outbox(&club);
    let played = mails
        .iter()
        .find(|m| m.kind == "prepared-move-played")
        .expect("the prepared answer's mail");
    let note = "Ihre vorbereitete Antwort 1... 5755 wurde sofort gespielt.";
    assert!(played.text.contains(note), "{}", played.text);
    assert!(
        played.html.as_deref().unwrap().contains(note),
        "the note is missing in the HTML part"
    );
}
