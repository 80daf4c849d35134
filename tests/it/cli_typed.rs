//! The CLI's typed arguments and its messages, against the real binary: a
//! seat, a time control or a result that is not one is refused by the
//! argument parser (exit 2, the accepted values named) before anything is
//! opened; `game new` ends its output with a newline; `config check` names
//! the key of a wrong value and says what it must be.

use std::path::Path;
use std::process::Output;

use crate::support::cli::{json_of, temp_config, wildt};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn new_game(cfg: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "game",
        "new",
        "--white",
        "anna@example.org",
        "--black",
        "ben@example.net",
        "--no-mail",
    ];
    args.extend_from_slice(extra);
    wildt(cfg, &args)
}

#[test]
fn game_new_ends_its_output_with_a_newline() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let out = new_game(&cfg, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Game 1 created.\n"), "{text:?}");
    assert!(text.ends_with('\n'), "{text:?}");
    assert_eq!(text.lines().count(), 3, "{text:?}");
    let out = new_game(&cfg, &["--json"]);
    assert!(
        out.stdout.ends_with(b"}\n"),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_seat_that_is_neither_white_nor_black_is_refused_by_the_parser() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    json_of(&new_game(&cfg, &["--json"]));
    let out = wildt(&cfg, &["game", "move", "1", "5254", "--as", "red"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(
        said.contains("invalid value 'red' for '--as <SEAT>'"),
        "{said}"
    );
    assert!(said.contains("[possible values: white, black]"), "{said}");
    // The seat as written is the seat played.
    let played = json_of(&wildt(
        &cfg,
        &["game", "move", "1", "5254", "--as", "white", "--json"],
    ));
    assert_eq!(played["moves"][0]["iccf"], "5254", "{played}");
    let rekeyed = json_of(&wildt(
        &cfg,
        &["game", "rekey", "1", "--as", "black", "--no-mail", "--json"],
    ));
    assert_eq!(rekeyed["seat"], "black", "{rekeyed}");
    assert_eq!(rekeyed["email"], "ben@example.net", "{rekeyed}");
}

#[test]
fn a_time_control_that_does_not_parse_is_refused_by_the_parser() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let out = new_game(&cfg, &["--time", "soon"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(
        said.contains("invalid value 'soon' for '--time <TIME>'"),
        "{said}"
    );
    // Refused before the database was opened.
    assert!(!dir.path().join("wildt.db").exists());
    for time in ["10/50", "30+3", "none"] {
        json_of(&new_game(&cfg, &["--time", time, "--json"]));
    }
    let shown = json_of(&wildt(&cfg, &["game", "show", "2", "--json"]));
    assert_eq!(shown["clock"]["control"], "30+3", "{shown}");
}

#[test]
fn an_adjudication_result_that_is_no_result_is_refused_by_the_parser() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    json_of(&new_game(&cfg, &["--json"]));
    let out = wildt(&cfg, &["game", "adjudicate", "1", "2-0", "--reason", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(
        said.contains("[possible values: 1-0, 0-1, 1/2-1/2]"),
        "{said}"
    );
    let out = wildt(
        &cfg,
        &[
            "game",
            "adjudicate",
            "1",
            "1/2-1/2",
            "--reason",
            "dead drawn",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Game 1 decided: 1/2-1/2 (adjudication); both players are mailed.\n"
    );
}

#[test]
fn config_check_names_a_wrongly_typed_key_and_what_it_must_be() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("[inbox]\n", "[inbox]\nport = \"abc\"\n");
    std::fs::write(&cfg, &text).unwrap();
    let line = text.lines().position(|l| l.contains("abc")).unwrap() + 1;
    let out = wildt(&cfg, &["config", "check"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!(
            "FAIL {}:{line}: inbox.port must be a number from 1 to 65535, not \"abc\"\n",
            cfg.display()
        )),
        "{said}"
    );
}
