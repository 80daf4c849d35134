//! A game as people read it: the board diagram with numeric coordinates, the
//! record in ICCF with SAN, and PGN for other programs. [pure: no IO]

use std::fmt::Write as _;

use shakmaty::{Chess, Color, File, Position, Rank, Square};

use crate::notation::{ColorName, format_record};
use crate::referee::{GameEnd, Record, START_FEN};

/// The board from White's side, files and ranks labelled with ICCF digits, so a
/// square reads as file then rank (the king on `51`):
///
/// ```text
///      1 2 3 4 5 6 7 8
///   8  r n b q k b n r  8
///   ...
///   1  R N B Q K B N R  1
///      1 2 3 4 5 6 7 8
/// ```
/// Upper case is White, lower case Black; `.` an empty square.
pub fn board_diagram(pos: &Chess) -> String {
    let mut out = String::new();
    let files = "     1 2 3 4 5 6 7 8\n";
    out.push_str(files);
    for rank in (0..8).rev() {
        let _ = write!(out, "  {}  ", rank + 1);
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), Rank::new(rank));
            let c = match pos.board().piece_at(sq) {
                Some(p) => p.char(),
                None => '.',
            };
            out.push(c);
            if file < 7 {
                out.push(' ');
            }
        }
        let _ = writeln!(out, "  {}", rank + 1);
    }
    out.push_str(files);
    out.push_str("  K king, Q queen, R rook, B bishop, N knight, P pawn; upper case White\n");
    out
}

/// `1. 5254 (e4) 5755 (e5) ...` for the whole record; empty for no moves.
pub fn record_text(record: &Record, with_san: bool) -> String {
    format_record(
        record.start().fullmoves().get(),
        record.start().turn(),
        record.plies(),
        with_san,
    )
}

/// One line on whose move it is, or how the game ended.
pub fn status_line(record: &Record) -> String {
    match record.end {
        Some(end) => format!("Game over: {} ({})", end.result, end.termination.as_str()),
        None => {
            let n = record.next_number();
            let number = if n.black {
                format!("{}...", n.number)
            } else {
                format!("{}.", n.number)
            };
            let mut s = format!("{} to move ({number})", ColorName(record.turn()));
            if let Some(by) = record.draw_offer {
                let _ = write!(s, "; {} has offered a draw", ColorName(by));
            }
            s
        }
    }
}

/// What a PGN file needs beyond the moves.
#[derive(Debug, Clone)]
pub struct PgnHeaders {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    pub white: String,
    pub black: String,
    pub game_id: i64,
}

/// Standard PGN: the Seven Tag Roster, FEN/SetUp for a non-standard start, the
/// result and termination, SAN movetext with each move's ICCF form in a comment.
pub fn pgn(record: &Record, h: &PgnHeaders) -> String {
    let result = record.end.map_or("*", |e: GameEnd| e.result.as_str());
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    };
    tag(&mut out, "Event", &h.event);
    tag(&mut out, "Site", &h.site);
    tag(&mut out, "Date", &h.date);
    tag(&mut out, "Round", "-");
    tag(&mut out, "White", &h.white);
    tag(&mut out, "Black", &h.black);
    tag(&mut out, "Result", result);
    if record.start_fen() != START_FEN {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", record.start_fen());
    }
    if let Some(end) = record.end {
        // Every way a wildt game ends is a "normal" termination in PGN's sense;
        // the precise reason rides in a tag of our own.
        tag(&mut out, "Termination", "normal");
        tag(&mut out, "WildtTermination", end.termination.as_str());
    }
    tag(&mut out, "Mode", "ICCF");
    tag(&mut out, "WildtGame", &h.game_id.to_string());
    out.push('\n');

    let mut movetext = String::new();
    let mut number = record.start().fullmoves().get();
    let mut turn = record.start().turn();
    for (i, ply) in record.plies().iter().enumerate() {
        match turn {
            Color::White => {
                let _ = write!(movetext, "{number}. ");
            }
            Color::Black if i == 0 => {
                let _ = write!(movetext, "{number}... ");
            }
            Color::Black => {}
        }
        let _ = write!(movetext, "{} {{{}}} ", ply.san, ply.iccf);
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    movetext.push_str(result);
    out.push_str(&wrap(&movetext, 79));
    out.push_str("\n\n");
    out
}

/// Wraps at spaces to lines of at most `width` characters (PGN export format).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Command;
    use crate::referee::{Verdict, judge};

    fn played(moves: &[&str]) -> Record {
        let mut r = Record::new(None).unwrap();
        for m in moves {
            let v = judge(&r, r.turn(), &Command::single(m.parse().unwrap()));
            assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
            r.apply(&v);
        }
        r
    }

    #[test]
    fn diagram_labels_squares_with_iccf_digits() {
        let r = played(&["5254"]);
        let d = board_diagram(r.position());
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "     1 2 3 4 5 6 7 8");
        assert_eq!(lines[1], "  8  r n b q k b n r  8");
        // The pawn that went 52 -> 54 stands on file 5, rank 4.
        assert_eq!(lines[5], "  4  . . . . P . . .  4");
        assert_eq!(lines[7], "  2  P P P P . P P P  2");
        assert_eq!(lines[8], "  1  R N B Q K B N R  1");
    }

    #[test]
    fn record_text_numbers_moves_in_iccf_with_san() {
        let r = played(&["5254", "5755", "7163"]);
        assert_eq!(record_text(&r, false), "1. 5254 5755 2. 7163");
        assert_eq!(
            record_text(&r, true),
            "1. 5254 (e4) 5755 (e5) 2. 7163 (Nf3)"
        );
    }

    #[test]
    fn status_line_says_who_is_to_move() {
        let r = played(&["5254"]);
        assert_eq!(status_line(&r), "Black to move (1...)");
    }

    #[test]
    fn pgn_has_seven_tag_roster_and_iccf_comments() {
        let r = played(&["6263", "5755", "7274", "4884"]);
        let text = pgn(
            &r,
            &PgnHeaders {
                event: "Club \"Open\"".into(),
                site: "chess@club.example".into(),
                date: "2026.11.22".into(),
                white: "anna@example.org".into(),
                black: "ben@example.net".into(),
                game_id: 3,
            },
        );
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
            assert!(text.contains(&format!("[{tag} ")), "{tag} missing:\n{text}");
        }
        assert!(text.contains("[Event \"Club \\\"Open\\\"\"]"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("1. f3 {6263} e5 {5755} 2. g4 {7274} Qh4# {4884} 0-1"));
    }
}
