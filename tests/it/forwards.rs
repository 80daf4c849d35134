//! Forwards and replies as the major clients write them in 35 interface
//! languages (tests/fixtures/mail/forwards, written by its generate.py from
//! wordings.tsv): a move above the client's boundary is played, and a move
//! only below it never is. Every fixture is read by the intake, as LF and as
//! CRLF; a quarter of them, covering every language and every client format,
//! also through the real `wildt check --json`. [IO: files, processes]

use std::path::{Path, PathBuf};

use serde_json::Value;
use wildt::intake;

use crate::support::cli::{json_of, temp_config, wildt};
use crate::support::fixtures::intake_config;

/// 35 languages × 17 client formats × 2 twins; a folder that lost files fails.
const FIXTURES: usize = 1190;
/// Client formats per language (see generate.py's FORMATS).
const FORMATS: usize = 17;
/// One in this many fixtures also goes through the binary (each `check`
/// opens a database; all of them would add a minute to the suite).
const BINARY_SHARE: usize = 4;

/// What a fixture must give, from its name.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Twin {
    /// `…_above.eml`: Anna's 13. 5254 above the boundary is played.
    Above,
    /// `…_below.eml`: 13. 5254 only below it: no move found.
    Below,
}

fn fixtures() -> Vec<(PathBuf, Twin)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail/forwards");
    let mut out: Vec<(PathBuf, Twin)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            let twin = if name.ends_with("_above") {
                Twin::Above
            } else if name.ends_with("_below") {
                Twin::Below
            } else {
                panic!("{name}: a fixture's name ends in _above or _below");
            };
            (p, twin)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), FIXTURES, "fixtures in {}", dir.display());
    out
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn crlf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 16);
    for &b in raw {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// The intake's summary against the twin's rule; `None` when it holds.
fn intake_mismatch(name: &str, raw: &[u8], twin: Twin) -> Option<String> {
    let summary = intake::read(raw, &intake_config()).summary();
    let ok = match twin {
        Twin::Above => {
            summary.outcome == "play" && summary.line.as_deref() == Some(&["13.5254".to_owned()])
        }
        Twin::Below => summary.outcome == "unclear" && summary.kind == Some("nothing_found"),
    };
    (!ok).then(|| format!("{name}: {}", serde_json::to_string(&summary).unwrap()))
}

#[test]
fn a_move_above_a_forward_or_quote_is_played_and_a_move_only_below_it_never_is() {
    let mut wrong = Vec::new();
    for (path, twin) in fixtures() {
        let raw = std::fs::read(&path).unwrap();
        let name = name(&path);
        wrong.extend(intake_mismatch(&name, &raw, twin));
        wrong.extend(intake_mismatch(
            &format!("{name} (CRLF)"),
            &crlf(&raw),
            twin,
        ));
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `wildt check --json FILE`'s reading, as `(reading, reading_kind, command)`.
fn check(cfg: &Path, path: &Path) -> (String, Value, Value) {
    let out = json_of(&wildt(cfg, &["check", "--json", path.to_str().unwrap()]));
    (
        out["reading"].as_str().unwrap_or_default().to_owned(),
        out["reading_kind"].clone(),
        out["command"].clone(),
    )
}

#[test]
fn wildt_check_plays_the_move_above_a_boundary_and_finds_none_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let all = fixtures();
    // Each language's formats rotate through the share, so every language and
    // every client format is run (sorted by name: language, then format).
    let chosen: Vec<&(PathBuf, Twin)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let (lang, format) = (i / (2 * FORMATS), (i / 2) % FORMATS);
            (lang + format) % BINARY_SHARE == 0
        })
        .map(|(_, f)| f)
        .collect();
    assert!(chosen.len() >= FIXTURES / BINARY_SHARE, "{}", chosen.len());
    // The first run creates the database; the rest share it.
    let first = check(&cfg, &chosen[0].0);
    let judge = |path: &Path, twin: Twin, got: (String, Value, Value)| {
        let ok = match twin {
            Twin::Above => got.0 == "play" && got.2 == "play 13.5254",
            Twin::Below => got.0 == "unclear" && got.1 == "nothing_found" && got.2.is_null(),
        };
        (!ok).then(|| format!("{}: {got:?}", name(path)))
    };
    let mut wrong: Vec<String> = judge(&chosen[0].0, chosen[0].1, first)
        .into_iter()
        .collect();
    let rest = &chosen[1..];
    let half = rest.len().div_ceil(2);
    std::thread::scope(|s| {
        let workers: Vec<_> = rest
            .chunks(half)
            .map(|chunk| {
                let cfg = &cfg;
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|(p, t)| judge(p, *t, check(cfg, p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            wrong.extend(w.join().unwrap());
        }
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The hand-written messages (tests/fixtures/mail/forwards-by-hand): each
/// through the intake and through the real `wildt check --json`. Above:
/// `5254` is played; below: no move is found.
#[test]
fn hand_written_forwards_and_quotes_play_only_the_players_own_move() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail/forwards-by-hand");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 26, "fixtures in {}", dir.display());
    let work = tempfile::tempdir().unwrap();
    let cfg = temp_config(work.path());
    let mut wrong = Vec::new();
    for path in &cases {
        let name = name(path);
        let above = name.ends_with("_above.eml");
        assert!(above || name.ends_with("_below.eml"), "{name}");
        let summary = intake::read(&std::fs::read(path).unwrap(), &intake_config()).summary();
        let read_ok = if above {
            summary.outcome == "play" && summary.line.as_deref() == Some(&["5254".to_owned()])
        } else {
            summary.outcome == "unclear" && summary.kind == Some("nothing_found")
        };
        if !read_ok {
            wrong.push(format!(
                "{name}: intake {}",
                serde_json::to_string(&summary).unwrap()
            ));
        }
        let got = check(&cfg, path);
        let checked_ok = if above {
            got.0 == "play" && got.2 == "play 5254"
        } else {
            got.0 == "unclear" && got.1 == "nothing_found" && got.2.is_null()
        };
        if !checked_ok {
            wrong.push(format!("{name}: check {got:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
