//! Intake tests: every `.eml` fixture against its `.expected.json` (each run as
//! LF and as CRLF), the API shapes the daemon relies on, and robustness on
//! arbitrary and pathological input. The intake is pure; only these tests read
//! files (the fixtures).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;
use wildt::command::Command;
use wildt::intake::{
    self, AutoReason, Disposition, GameAddress, Intake, IntakeConfig, Reading, Unclear,
};

use wildt::fixtures::WHITE_KEY;

use crate::support::fixtures::{GAME_17, REFEREE, game_17_address, intake_config};

/// The fixture folder must never shrink below this: a test over a folder that
/// silently lost its files proves nothing.
const MIN_FIXTURES: usize = 250;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail")
}

fn to_lf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\r' && raw.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

fn to_crlf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 16);
    for &b in &to_lf(raw) {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// Compares every key of `expected` (except the config override) with the
/// intake's summary; returns the mismatches.
fn mismatches(name: &str, expected: &Value, intake: &Intake) -> Vec<String> {
    let actual = serde_json::to_value(intake.summary()).expect("a summary serialises");
    let Value::Object(map) = expected else {
        return vec![format!("{name}: expected.json is not an object")];
    };
    let mut errors = Vec::new();
    for key in ["outcome", "game", "from"] {
        if !map.contains_key(key) {
            errors.push(format!("{name}: expected.json lacks `{key}`"));
        }
    }
    for (key, want) in map {
        if key == "max_message_bytes" {
            continue;
        }
        let got = actual.get(key).unwrap_or(&Value::Null);
        if got != want {
            errors.push(format!("{name}: `{key}` is {got}, expected {want}"));
        }
    }
    if !errors.is_empty() {
        errors.push(format!("{name}: summary {actual}"));
    }
    errors
}

#[test]
fn every_fixture_gives_its_expected_decision_with_lf_and_crlf() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("the fixture folder exists")
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    names.sort();
    assert!(
        names.len() >= MIN_FIXTURES,
        "only {} fixtures in {:?}; at least {MIN_FIXTURES} are required",
        names.len(),
        fixture_dir()
    );
    let mut errors = Vec::new();
    for eml in &names {
        let name = eml.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let json_path = eml.with_extension("expected.json");
        let Ok(json) = std::fs::read_to_string(&json_path) else {
            errors.push(format!("{name}: missing {}", json_path.display()));
            continue;
        };
        let expected: Value = match serde_json::from_str(&json) {
            Ok(v) => v,
            Err(e) => {
                errors.push(format!("{name}: bad expected.json: {e}"));
                continue;
            }
        };
        let mut cfg = intake_config();
        if let Some(max) = expected.get("max_message_bytes").and_then(Value::as_u64) {
            cfg.max_message_bytes = usize::try_from(max).expect("a small size");
        }
        let raw = std::fs::read(eml).expect("a readable fixture");
        for (ending, bytes) in [("LF", to_lf(&raw)), ("CRLF", to_crlf(&raw))] {
            let intake = intake::read(&bytes, &cfg);
            errors.extend(mismatches(
                &format!("{name} ({ending})"),
                &expected,
                &intake,
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_expected_json_has_its_eml() {
    let orphans: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("the fixture folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_owned();
            let stem = name.strip_suffix(".expected.json")?;
            (!p.with_file_name(format!("{stem}.eml")).exists()).then_some(name)
        })
        .collect();
    assert!(
        orphans.is_empty(),
        "expected results without a message: {orphans:?}"
    );
}

/// Anna answering a relay of game 17.
fn head() -> String {
    let address = game_17_address();
    format!(
        "From: Anna Schmidt <Anna@Example.ORG>\nTo: {address}\nSubject: Re: [wildt #17] 12... 3746\nMessage-ID: <m1@example.org>\nIn-Reply-To: <wildt-17-23@club.example>\nReferences: <wildt-17-22@club.example> <wildt-17-23@club.example>\n"
    )
}

fn mail(extra_headers: &str, body: &str) -> Vec<u8> {
    let head = head();
    format!("{head}Content-Type: text/plain; charset=utf-8\n{extra_headers}\n{body}").into_bytes()
}

fn html_mail(body: &str) -> Vec<u8> {
    let head = head();
    format!("{head}Content-Type: text/html; charset=utf-8\n\n{body}").into_bytes()
}

#[test]
fn envelope_fields_are_extracted() {
    let intake = intake::read(&mail("", "13. 5254\n"), &intake_config());
    assert_eq!(intake.message_id.as_deref(), Some("m1@example.org"));
    assert_eq!(intake.from.as_deref(), Some("anna@example.org"));
    assert_eq!(intake.subject, "Re: [wildt #17] 12... 3746");
    assert_eq!(
        intake.in_reply_to.as_deref(),
        Some("wildt-17-23@club.example")
    );
    assert_eq!(
        intake.references,
        ["wildt-17-22@club.example", "wildt-17-23@club.example"]
    );
    assert_eq!(
        intake.game_address,
        Some(GameAddress {
            game: GAME_17,
            key: WHITE_KEY.into()
        })
    );
    assert!(!intake.to_bare_referee);
    assert!(matches!(
        intake.disposition,
        Disposition::Read(Reading::Command(Command::Play { ref line, offer_draw: false, claim_draw: false })) if line.len() == 1
    ));
}

#[test]
fn quoted_move_is_ignored() {
    let intake = intake::read(
        &mail(
            "",
            "13. 5254\n\nOn Sun, Ben wrote:\n> 12... 3746\n> 13. 7163?\n",
        ),
        &intake_config(),
    );
    let Disposition::Read(Reading::Command(Command::Play { line, .. })) = intake.disposition else {
        panic!("{:?}", intake.disposition)
    };
    assert_eq!(line.len(), 1);
    assert_eq!(line[0].mv.to_string(), "5254");
}

/// A player may answer with the whole record and the new move at its end.
/// wildt writes a long game's record in lines of at most 72 characters;
/// pasted back in those lines it is read as the same record on one line.
#[test]
fn a_record_pasted_back_in_the_lines_wildt_wrote_it_is_read_as_on_one_line() {
    use wildt::decide::{Recent, judge_message};
    let shuffle = ["7163", "7866", "6371", "6678"];
    let plies: Vec<&str> = shuffle.iter().copied().cycle().take(60).collect();
    let rules = wildt::fixtures::rules(1 << 20, wildt::auth::Policy::Key, true);
    let status = intake::read(&mail("", "status\n"), &rules.intake);
    let read = |text: &str| match intake::read(&mail("", text), &rules.intake).disposition {
        Disposition::Read(Reading::Command(Command::Play { line, .. })) => line,
        other => panic!("{other:?} for {text}"),
    };
    // The record as each language's status mail writes it (the SAN in
    // that language's letters), its label left out as a player copies it.
    for lang in wildt::i18n::Lang::ALL {
        let mut game = wildt::fixtures::game_17(&plies);
        game.white.lang = lang;
        game.black.lang = lang;
        let d = judge_message(b"", &status, Some(&game), Recent::default(), &rules);
        let letters = wildt::reply::write(&d, &status, Some(&game), None, &rules.referee, lang);
        let body = &letters.mails[0].body;
        let first = body
            .lines()
            .position(|l| l.contains(" 1. 7163 ("))
            .unwrap_or_else(|| panic!("{lang:?}: no record in {body}"));
        let mut record: Vec<&str> = body
            .lines()
            .skip(first + 1)
            .take_while(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        let head = body.lines().nth(first).unwrap();
        record.insert(0, &head[head.find("1. 7163").unwrap()..]);
        assert!(
            record.len() > 3,
            "{lang:?}: the record is not in lines: {body}"
        );
        let wrapped = format!("{} 31. 7163\n", record.join("\n"));
        let one_line = wrapped.replace('\n', " ").trim_end().to_owned() + "\n";
        let line = read(&wrapped);
        assert_eq!(line.len(), 61, "{lang:?}");
        assert_eq!(line, read(&one_line), "{lang:?}");
    }
}

/// Regression: "15. marts 2017 kl. 11.00 skrev" in a Danish attribution was read
/// as a near-move; the date and time go with the quote.
#[test]
fn date_in_a_danish_attribution_is_not_a_near_move() {
    let attribution = "ons. 15. marts 2017 kl. 11.00 skrev Ben Miller <ben@example.net>:";
    let quiet = intake::read(
        &mail(
            "",
            &format!("Tak, jeg tænker over det.\n\n{attribution}\n\n> 12... 3746\n"),
        ),
        &intake_config(),
    );
    assert_eq!(
        quiet.disposition,
        Disposition::Read(Reading::Unclear(Unclear::NothingFound))
    );
    let moved = intake::read(
        &mail("", &format!("13. 5254\n\n{attribution}\n\n> 12... 3746\n")),
        &intake_config(),
    );
    let Disposition::Read(Reading::Command(Command::Play { line, .. })) = moved.disposition else {
        panic!("{:?}", moved.disposition)
    };
    assert_eq!(line.len(), 1);
    assert_eq!(line[0].mv.to_string(), "5254");
}

/// Regression: a Cc to a second game's address routed the copy delivered to
/// the first game to the second one. The envelope recipient decides; To and
/// Cc only when the envelope names no game.
#[test]
fn the_delivered_to_game_wins_over_a_game_in_cc() {
    let address = game_17_address();
    let raw = format!(
        "From: anna@example.org\nTo: ben@example.net, {REFEREE}\nCc: chess+18-aaaaaaaa@club.example\nDelivered-To: {address}\n\n5254\n"
    );
    let intake = intake::read(raw.as_bytes(), &intake_config());
    assert_eq!(intake.game_address.map(|g| g.game), Some(17));
    let raw = format!(
        "From: anna@example.org\nTo: ben@example.net, {REFEREE}\nCc: chess+18-aaaaaaaa@club.example\nDelivered-To: {REFEREE}\n\n5254\n"
    );
    let intake = intake::read(raw.as_bytes(), &intake_config());
    assert_eq!(intake.game_address.map(|g| g.game), Some(18));
}

#[test]
fn address_for_another_domain_is_not_a_game() {
    let raw = b"From: anna@example.org\nTo: chess+17-k3x9qp2m@other.example\n\n5254\n";
    let intake = intake::read(raw, &intake_config());
    assert_eq!(intake.game_address, None);
    assert!(intake.to_bare_referee);
}

#[test]
fn referees_own_mail_coming_back_is_automatic() {
    let address = game_17_address();
    let raw = format!("From: {address}\nTo: {address}\n\n[wildt #17] 5254\n");
    assert!(matches!(
        intake::read(raw.as_bytes(), &intake_config()).disposition,
        Disposition::Automatic(AutoReason::DaemonSender(_))
    ));
}

#[test]
fn oversize_message_is_too_large_with_headers_read() {
    let body = "5254\n".repeat(1000);
    let raw = mail("", &body);
    let cfg = IntakeConfig {
        max_message_bytes: 1024,
        ..intake_config()
    };
    let intake = intake::read(&raw, &cfg);
    assert_eq!(
        intake.disposition,
        Disposition::TooLarge { size: raw.len() }
    );
    assert_eq!(intake.from.as_deref(), Some("anna@example.org"));
    assert_eq!(intake.game_address.map(|g| g.key), Some(WHITE_KEY.into()));
}

#[test]
fn oversize_auto_reply_stays_automatic() {
    let raw = mail("Auto-Submitted: auto-replied\n", &"away\n".repeat(1000));
    let cfg = IntakeConfig {
        max_message_bytes: 1024,
        ..intake_config()
    };
    assert_eq!(
        intake::read(&raw, &cfg).disposition,
        Disposition::Automatic(AutoReason::AutoSubmitted("auto-replied".into()))
    );
}

#[test]
fn each_loop_header_is_automatic() {
    let cases: [(&str, AutoReason); 6] = [
        (
            "Auto-Submitted: auto-generated\n",
            AutoReason::AutoSubmitted("auto-generated".into()),
        ),
        ("Precedence: junk\n", AutoReason::Precedence("junk".into())),
        (
            "X-Autoreply: yes\n",
            AutoReason::AutoReplyHeader("X-Autoreply"),
        ),
        (
            "X-Autorespond: x\n",
            AutoReason::AutoReplyHeader("X-Autorespond"),
        ),
        ("List-Id: <l.example>\n", AutoReason::ListMail),
        ("Return-Path: <>\n", AutoReason::NullReturnPath),
    ];
    for (header, reason) in cases {
        let intake = intake::read(&mail(header, "5254\n"), &intake_config());
        assert_eq!(
            intake.disposition,
            Disposition::Automatic(reason),
            "{header}"
        );
    }
}

#[test]
fn postmaster_sender_is_automatic_whatever_its_case() {
    let raw = format!(
        "From: PostMaster@example.org\nTo: {}\n\n5254\n",
        game_17_address()
    );
    assert_eq!(
        intake::read(raw.as_bytes(), &intake_config()).disposition,
        Disposition::Automatic(AutoReason::DaemonSender("postmaster".into()))
    );
}

#[test]
fn precedence_first_class_is_not_automatic() {
    let intake = intake::read(
        &mail("Precedence: first-class\n", "5254\n"),
        &intake_config(),
    );
    assert!(matches!(
        intake.disposition,
        Disposition::Read(Reading::Command(_))
    ));
}

#[test]
fn explanations_are_plain_words() {
    let u = Unclear::SeveralMoves {
        found: vec!["5254".into(), "7163".into()],
    };
    assert!(u.to_string().contains("5254, 7163"), "{u}");
    assert!(AutoReason::ListMail.to_string().contains("mailing list"));
}

#[test]
fn garbage_without_headers_is_malformed() {
    let intake = intake::read(b"\x00\xff\xfe\x89PNG\r\n\x1a\n", &intake_config());
    assert_eq!(intake.from, None);
    assert_eq!(
        intake.disposition,
        Disposition::Read(Reading::Unclear(Unclear::Malformed))
    );
}

/// A decision whatever the input; oversize input is never read as a command; a
/// move read is never an empty line.
fn check_total(raw: &[u8], cfg: &IntakeConfig) -> Intake {
    let intake = intake::read(raw, cfg);
    assert_eq!(intake.to_bare_referee, intake.game_address.is_none());
    if let Disposition::Read(Reading::Command(Command::Play { line, .. })) = &intake.disposition {
        assert!(!line.is_empty());
    }
    if raw.len() > cfg.max_message_bytes {
        assert!(
            matches!(
                intake.disposition,
                Disposition::TooLarge { .. } | Disposition::Automatic(_)
            ),
            "{:?}",
            intake.disposition
        );
    }
    intake
}

use crate::support::pathological::{self, MIB};

/// Every hostile 1 MiB message is decided, with the answer it must get.
/// (How long each takes in release: `cargo bench --bench engine -- hostile`.)
#[test]
fn pathological_megabyte_messages_are_decided_with_the_expected_answer() {
    let cfg = IntakeConfig {
        max_message_bytes: 2 * MIB,
        ..intake_config()
    };
    let mut wrong = Vec::new();
    for case in pathological::cases() {
        assert!(case.raw.len() > MIB * 9 / 10, "{} is small", case.name);
        let summary = check_total(&case.raw, &cfg).summary();
        let answer = match (summary.outcome, summary.kind, summary.line) {
            ("unclear", Some(kind), _) => format!("unclear: {kind}"),
            ("play", _, Some(line)) => format!("play: {}", line.join(" ")),
            (other, ..) => other.to_owned(),
        };
        println!("{:<32} {:>8} bytes -> {answer}", case.name, case.raw.len());
        if answer != case.answer {
            wrong.push(format!("{}: {answer}, not {}", case.name, case.answer));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// How clients set off the mail they answer: `(lines before the quote, is the
/// quote `>`-marked)`. `{addr}` is the referee's address. One per client style
/// and language; the quoted text follows it.
#[rustfmt::skip]
const QUOTE_STYLES: &[(&str, bool)] = &[
    ("On Sun, 12 May 2024 at 17:45, wildt <{addr}> wrote:", true),
    ("On Sun, 12 May 2024 at 17:45, wildt Chess Referee of the Club\n<{addr}> wrote:", true),
    ("On Sun, May 12, 2024 at 5:45 PM wildt <{addr}\n> wrote:", true),
    ("On Sun, May 12, 2024 at 5:45 PM wildt <{addr}> wrote", true),
    ("2024-05-12 17:45 GMT+02:00 wildt <{addr}>:", true),
    ("Am So., 12. Mai 2024 um 17:45 Uhr schrieb wildt <{addr}>:", true),
    ("Le dim. 12 mai 2024 à 17:45, wildt <{addr}> a écrit :", true),
    ("El dom, 12 may 2024 a las 17:45, wildt (<{addr}>) escribió:", false),
    ("Il giorno dom 12 mag 2024 alle ore 17:45 wildt <{addr}> ha scritto:", false),
    ("Op 12 mei 2024, om 17:45 heeft wildt <{addr}> het volgende geschreven:", true),
    ("Em dom., 12 de mai. de 2024 às 17:45, wildt <{addr}> escreveu:", false),
    ("niedz., 12 maj 2024 o 17:45 wildt <{addr}> napisał(a):", true),
    ("ne 12. 5. 2024 v 17:45 odesílatel wildt <{addr}> napsal:", false),
    ("вс, 12 мая 2024 г. в 17:45, wildt <{addr}>:", true),
    ("su 12.5.2024 klo 17.45 wildt ({addr}) kirjoitti:", false),
    ("ned, 12. svi 2024. u 17:45 wildt <{addr}> napisao je:", true),
    ("2024年5月12日(日) 17:45 wildt <{addr}>:", false),
    ("ons. 15. marts 2017 kl. 11.00 skrev wildt <{addr}>:", true),
    ("søn. 12. mai 2024 kl. 17:45 skrev wildt <{addr}>:", false),
    ("sön 12 maj 2024 kl 17:45 skrev wildt <{addr}>:", true),
    ("---- On Sun, 12 May 2024 17:45:00 +0200 wildt <{addr}> wrote ----", false),
    ("------On Sun, 12 May 2024 17:45, wildt wrote-----", false),
    ("12.05.2024, 17:45, \"wildt\" <{addr}>:", true),
    ("Воскресенье, 12 мая 2024, 17:45 +03:00 от wildt <{addr}>:", true),
    ("Am Sonntag, 12. Mai 2024 um 17:45:00 MESZ hat wildt <{addr}> Folgendes geschrieben:", false),
    ("________________________________\nFrom: wildt <{addr}>\nSent: Sunday, May 12, 2024 5:45 PM\nTo: Anna\nSubject: [wildt #17]", false),
    ("От: wildt <{addr}>\nОтправлено: 12 мая 2024 г. 17:45\nКому: Anna\nТема: [wildt #17]", false),
    ("Fra: wildt <{addr}>\nSendt: 12. maj 2024 17:45\nTil: Anna\nEmne: [wildt #17]", false),
    ("Von: wildt <{addr}>\nGesendet: Sonntag, 12. Mai 2024 17:45\nAn: Anna\nBetreff: [wildt #17]", false),
    ("Lähettäjä: wildt <{addr}>\nLähetetty: sunnuntai 12. toukokuuta 2024 17.45\nVastaanottaja: Anna", false),
    ("差出人: wildt <{addr}>\n送信日時: 2024年5月12日 17:45\n宛先: Anna\n件名: [wildt #17]", false),
    ("-------- Original message --------\nFrom: wildt <{addr}>\nDate: 12/05/2024 17:45 (GMT+01:00)", false),
    ("-------- Исходное сообщение --------\nОт: wildt <{addr}>\nДата: 12.05.2024 17:45", false),
    ("-------- Opprinnelig melding --------\nFra: wildt <{addr}>\nDato: 12.05.2024 17:45", false),
    ("-----Original Message-----\nFrom: wildt [mailto:{addr}]\nSent: Sunday, May 12, 2024 5:45 PM", false),
];

/// `N. MOVE` or `N... MOVE` for the ply at `index` (0 = White's first).
fn numbered(index: usize, mv: &str) -> String {
    let number = index / 2 + 1;
    if index.is_multiple_of(2) {
        format!("{number}. {mv}")
    } else {
        format!("{number}... {mv}")
    }
}

/// A random legal line from the start position, the move the opponent made last
/// (which the referee's mail, quoted, holds) and the player's answer, all in
/// ICCF numeric notation; `None` if the line ended the game.
fn legal_line(choices: &[usize]) -> Option<(Vec<String>, String)> {
    use shakmaty::{Chess, Position};
    use wildt::notation::IccfMove;
    let mut pos = Chess::default();
    let mut line = Vec::new();
    for &c in choices {
        let moves = pos.legal_moves();
        let m = *moves.get(c % moves.len().max(1))?;
        line.push(IccfMove::from_move(m).to_string());
        pos = pos.play(m).ok()?;
    }
    let moves = pos.legal_moves();
    let answer = moves.get(choices.iter().sum::<usize>() % moves.len().max(1))?;
    Some((line, IccfMove::from_move(*answer).to_string()))
}

/// The referee's relay of the opponent's move, as the player's client quotes it.
fn referee_relay(line: &[String]) -> Vec<String> {
    let last = line.len() - 1;
    let record: Vec<String> = line
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if i.is_multiple_of(2) {
                numbered(i, m)
            } else {
                m.clone()
            }
        })
        .collect();
    vec![
        format!(
            "Game 17: your opponent played {}.",
            numbered(last, &line[last])
        ),
        String::new(),
        format!("Record: {}", record.join(" ")),
        format!(
            "Reply to this mail with your move, e.g. \"{}\".",
            numbered(last + 1, &line[last])
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// For a random legal line, a reply holding the player's move above a quote
    /// of the referee's relay of the opponent's move (under any client's
    /// attribution line or header block, `>`-marked or not, LF or CRLF) plays
    /// the player's move and never the quoted one.
    #[test]
    fn the_new_move_is_played_never_the_quoted_one(
        choices in proptest::collection::vec(0usize..64, 1..40),
        style in 0..QUOTE_STYLES.len(),
        crlf in any::<bool>(),
    ) {
        let Some((line, answer)) = legal_line(&choices) else {
            return Err(TestCaseError::reject("the line ended the game"));
        };
        let (lead, marked) = QUOTE_STYLES[style];
        let lead = lead.replace("{addr}", "chess@club.example");
        let mut body = format!("{}\n\nAnna\n\n{lead}\n\n", numbered(line.len(), &answer));
        for quoted in referee_relay(&line) {
            if marked {
                body.push_str("> ");
            }
            body.push_str(&quoted);
            body.push('\n');
        }
        let mut raw = mail("", &body);
        if crlf {
            raw = to_crlf(&raw);
        }
        let intake = intake::read(&raw, &intake_config());
        let Disposition::Read(Reading::Command(Command::Play { line: played, .. })) = &intake.disposition else {
            return Err(TestCaseError::fail(format!("{:?} for\n{body}", intake.disposition)));
        };
        prop_assert_eq!(played.len(), 1, "{}", body);
        prop_assert_eq!(played[0].mv.to_string(), answer, "{}", body);
    }

    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let intake = check_total(&raw, &IntakeConfig { max_message_bytes: 1024, ..intake_config() });
        prop_assert!(intake.from.as_ref().is_none_or(|f| f.to_lowercase() == *f));
    }

    #[test]
    fn arbitrary_bodies_after_real_headers_never_panic(body in "\\PC{0,600}") {
        // The headers are fixed, so whatever the body, the envelope is the same.
        for raw in [mail("", &body), html_mail(&body)] {
            let intake = check_total(&raw, &intake_config());
            prop_assert_eq!(intake.from.as_deref(), Some("anna@example.org"));
            prop_assert_eq!(intake.game_address.map(|g| g.game), Some(17));
        }
    }
}
