//! `wildt notation to-san|to-iccf`, run as the real binary: output, JSON and exit
//! codes. [IO: spawns the wildt binary]

use std::process::{Command, Output};

fn wildt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn to_san_prints_one_numbered_move_a_line_and_skips_move_numbers() {
    let o = wildt(&[
        "notation", "to-san", "1.", "5254", "5755", "2.", "7163", "2836",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "1. 5254 e4\n1... 5755 e5\n2. 7163 Nf3\n2... 2836 Nc6\n"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn a_whole_record_in_one_argument_is_read() {
    let o = wildt(&["notation", "to-san", "1. 5254 5755 2.7163 2...2836"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 4);
}

#[test]
fn to_iccf_writes_castling_as_the_kings_move() {
    let o = wildt(&[
        "notation",
        "to-iccf",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("4. O-O 5171\n"), "{out}");
    assert!(out.ends_with("4... Nf6 7866\n"), "{out}");
}

#[test]
fn bad_move_stops_the_line_with_its_number_text_and_reason() {
    let o = wildt(&["notation", "to-san", "1. 5254 5755 2. 7154 2836"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "1. 5254 e4\n1... 5755 e5\n");
    assert_eq!(
        stderr(&o).trim_end(),
        "wildt: move 2 (White) 7154: the knight on 71 cannot reach 54; its legal moves are 7152, 7163, 7183"
    );
}

#[test]
fn unreadable_move_names_black_and_the_text() {
    let o = wildt(&["notation", "to-san", "5254", "2024"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("wildt: move 1 (Black) 2024: 20 is not a square"),
        "{err}"
    );
}

#[test]
fn old_promotion_form_is_answered_with_the_standard_form() {
    let o = wildt(&[
        "notation",
        "to-san",
        "--fen",
        "k7/5P2/8/8/8/8/8/4K3 w - - 0 1",
        "6762",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("move 1 (White) 6762:"), "{err}");
    assert!(err.contains("the standard form is 67682"), "{err}");
}

#[test]
fn fen_start_numbers_moves_from_the_fen_and_starts_with_black() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 12";
    let o = wildt(&["notation", "to-san", "--fen", fen, "12...", "5838", "5171"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "12... 5838 O-O-O\n13. 5171 O-O\n");
}

#[test]
fn json_has_one_object_per_move_with_fen_after() {
    let o = wildt(&["notation", "to-san", "--json", "5254", "5755"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let moves = v.as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["iccf"], "5254");
    assert_eq!(moves[0]["san"], "e4");
    assert_eq!(moves[0]["ply"], 1);
    assert_eq!(moves[0]["number"], 1);
    assert_eq!(moves[0]["color"], "white");
    assert_eq!(
        moves[0]["fen_after"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(moves[1]["color"], "black");
    assert_eq!(moves[1]["number"], 1);
}

#[test]
fn json_with_a_bad_move_still_prints_the_moves_read_so_far() {
    let o = wildt(&["notation", "to-iccf", "--json", "e4", "e5", "Ke3"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let iccf: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccf"].as_str().unwrap())
        .collect();
    assert_eq!(iccf, vec!["5254", "5755"]);
    let err = stderr(&o);
    assert!(
        err.contains("move 2 (White) Ke3: `Ke3` is not a legal move here"),
        "{err}"
    );
}

#[test]
fn to_iccf_reports_ambiguous_san_with_its_candidates() {
    let fen = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
    let o = wildt(&["notation", "to-iccf", "--fen", fen, "Rd1"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("move 1 (White) Rd1:"), "{err}");
    assert!(err.contains("1141, 6141"), "{err}");
}

#[test]
fn invalid_fen_fails_with_exit_code_1() {
    let o = wildt(&["notation", "to-san", "--fen", "not a fen", "5254"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a FEN"), "{}", stderr(&o));
}

#[test]
fn missing_moves_is_a_usage_error_with_exit_code_2() {
    let o = wildt(&["notation", "to-san"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `wildt … | head`: when the reader of the output has gone, wildt ends
/// quietly with success instead of panicking on the broken pipe. The pipe's
/// reading end is closed before wildt starts, so its first line meets it.
#[test]
fn a_closed_output_pipe_ends_wildt_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["notation", "to-san", "1.", "5254", "5755"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}
