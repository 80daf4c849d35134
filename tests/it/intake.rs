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
const MIN_FIXTURES: usize = 45;

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
        Disposition::Read(Reading::Command(Command::Play { ref line, offer_draw: false })) if line.len() == 1
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

#[test]
fn first_usable_game_address_wins_in_header_order() {
    let address = game_17_address();
    let raw = format!(
        "From: anna@example.org\nTo: ben@example.net, {REFEREE}\nCc: chess+18-aaaaaaaa@club.example\nDelivered-To: {address}\n\n5254\n"
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

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
