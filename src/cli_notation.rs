//! `wildt notation to-san|to-iccf`: check a line of moves before posting it, by
//! converting it between ICCF numeric notation and SAN. [IO: prints to stdout
//! and stderr; the chess is all in `wildt::notation`]

use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};
use wildt::notation::{self, IccfMove};

const EXIT_HELP: &str = "\
Move numbers in the line (`1.`, `12...`, `1.5254`) and a result (`1-0`) are skipped; one argument may
hold several moves (`\"1. 5254 5755 2. 7163\"`).

Exit codes: 0 when every move is legal; 1 when a move is wrong (the first bad move
stops the line) or the FEN is invalid; 2 for a usage error.
On a bad move, stderr names the move by its number, colour and text, and why it is
wrong. The moves before it are still printed on stdout: with --json, as the JSON
array of the moves read so far (possibly empty), so a script gets valid JSON either way.";

#[derive(clap::Subcommand)]
pub enum NotationCommand {
    /// ICCF numeric moves -> SAN, from the start position or a FEN.
    #[command(after_help = EXIT_HELP)]
    ToSan {
        #[command(flatten)]
        opts: LineOptions,
        /// ICCF moves, e.g. `1. 5254 5755 2. 7163`.
        #[arg(required = true, value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// SAN moves -> ICCF numeric, from the start position or a FEN.
    #[command(after_help = EXIT_HELP)]
    ToIccf {
        #[command(flatten)]
        opts: LineOptions,
        /// SAN moves, e.g. `1. e4 e5 2. Nf3`.
        #[arg(required = true, value_name = "SAN")]
        moves: Vec<String>,
    },
}

#[derive(clap::Args)]
pub struct LineOptions {
    /// Start from this position instead of the initial one.
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Print one JSON array, one object per move: ply, number, color, iccf, san,
    /// fen_after.
    #[arg(long)]
    json: bool,
}

/// One move of the line as printed.
#[derive(Serialize)]
struct Row {
    /// 1-based index of the move in this line.
    ply: usize,
    /// The move number in the game (from the FEN's full-move counter).
    number: u32,
    color: &'static str,
    iccf: String,
    san: String,
    fen_after: String,
}

enum Notation {
    Iccf,
    San,
}

pub fn run(cmd: NotationCommand) -> anyhow::Result<ExitCode> {
    let (opts, moves, from) = match cmd {
        NotationCommand::ToSan { opts, moves } => (opts, moves, Notation::Iccf),
        NotationCommand::ToIccf { opts, moves } => (opts, moves, Notation::San),
    };
    let mut pos = start_position(opts.fen.as_deref())?;
    let mut rows = Vec::new();
    let mut failure = None;
    for token in tokens(&moves) {
        let number = pos.fullmoves().get();
        let turn = pos.turn();
        let read: Result<Move, String> = match from {
            Notation::Iccf => notation::parse_move(token, &pos).map_err(|e| e.to_string()),
            Notation::San => notation::move_from_san(&pos, token).map_err(|e| e.to_string()),
        };
        let m = match read {
            Ok(m) => m,
            Err(why) => {
                failure = Some(format!(
                    "move {number} ({}) {token}: {why}",
                    color_name(turn)
                ));
                break;
            }
        };
        let san = notation::san(&pos, m);
        pos.play_unchecked(m);
        rows.push(Row {
            ply: rows.len() + 1,
            number,
            color: color_key(turn),
            iccf: IccfMove::from_move(m).to_string(),
            san,
            fen_after: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        });
    }
    if opts.json {
        crate::print_json(&rows)?;
    } else {
        for row in &rows {
            let dots = if row.color == "white" { "." } else { "..." };
            let (first, second) = match from {
                Notation::Iccf => (&row.iccf, &row.san),
                Notation::San => (&row.san, &row.iccf),
            };
            outln!("{}{dots} {first} {second}", row.number)?;
        }
    }
    match failure {
        None => Ok(ExitCode::SUCCESS),
        Some(message) => {
            eprintln!("wildt: {message}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn start_position(fen: Option<&str>) -> anyhow::Result<Chess> {
    let Some(text) = fen else {
        return Ok(Chess::default());
    };
    let fen: Fen = text
        .trim()
        .parse()
        .with_context(|| format!("`{text}` is not a FEN"))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| anyhow::anyhow!("the FEN `{text}` is not a legal position: {e}"))
}

/// The moves of the line, move numbers (`1.`, `12...`) and a final result
/// (`1-0`, `0-1`, `1/2-1/2`, `*`) dropped; `1.5254` keeps its move.
fn tokens(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter()
        .flat_map(|a| a.split_whitespace())
        .filter(|t| !["1-0", "0-1", "1/2-1/2", "½-½", "*"].contains(t))
        .map(strip_move_number)
        .filter(|t| !t.is_empty())
}

fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn color_key(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_dropped_and_glued_numbers_split_off() {
        let args = vec!["1. 5254 5755 2.7163".to_owned(), "12... 1-0".to_owned()];
        assert_eq!(
            tokens(&args).collect::<Vec<_>>(),
            vec!["5254", "5755", "7163"]
        );
    }

    #[test]
    fn a_bare_number_without_dot_is_kept_as_a_move() {
        assert_eq!(strip_move_number("5254"), "5254");
        assert_eq!(strip_move_number("e4"), "e4");
        assert_eq!(strip_move_number("3..."), "");
    }
}
