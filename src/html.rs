//! The HTML part of a game mail: the board as a table of light and dark
//! squares with Unicode pieces, seen from the reader's side, the last move
//! highlighted, ICCF digits 1–8 on all four edges; the record as numeric moves
//! with SAN in the reader's language. [pure: no IO]
//!
//! Mail clients are hostile to HTML: Gmail drops `<style>` blocks and body
//! styles, Outlook ignores much of CSS, some clients strip styles altogether.
//! So: inline styles only, the colours repeated as `bgcolor` attributes (which
//! survive where styles do not), no images, scripts, fonts or links, and
//! white pieces drawn as outlines and black ones solid, so the board still
//! reads as a board in a plain black-and-white table.
//!
//! Templates are maud: the markup is checked by the compiler and every
//! interpolated value is escaped, so a player's address or event name cannot
//! break the page.

use std::borrow::Cow;
use std::sync::OnceLock;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use shakmaty::{Chess, Color, File, Piece, Position, Rank, Role, Square};

use crate::game::Record;
use crate::i18n::{self, Key, Lang, san::push_localized};
use crate::lines::crlf_lines;
use crate::notation::{Ply, push_number};

/// Side of a square, in CSS pixels: large enough to read a piece on a phone
/// (eight squares plus the edges fit a 400 px wide screen).
pub const SQUARE_PX: u32 = 40;
/// Width (left, right) and height (top, bottom) of the coordinate edges.
pub const EDGE_PX: u32 = 18;
/// Square colours as `#rrggbb`: light, dark, and the two of the last move.
pub const LIGHT: &str = "#f0d9b5";
pub const DARK: &str = "#b58863";
pub const LIGHT_LAST_MOVE: &str = "#cdd26a";
pub const DARK_LAST_MOVE: &str = "#aaa23a";

const PIECE_FONTS: &str = "'DejaVu Sans','Segoe UI Symbol','Apple Symbols','Noto Sans Symbols 2','Arial Unicode MS',sans-serif";
const TEXT_FONTS: &str = "Arial,Helvetica,sans-serif";

/// Whether a square is a dark one (a1 is dark).
pub fn is_dark(square: Square) -> bool {
    (u32::from(square.file()) + u32::from(square.rank())) % 2 == 0
}

/// The background of `square`, given the last move's squares.
pub fn square_colour(square: Square, last_move: Option<(Square, Square)>) -> &'static str {
    let on_last = last_move.is_some_and(|(from, to)| square == from || square == to);
    match (is_dark(square), on_last) {
        (false, false) => LIGHT,
        (true, false) => DARK,
        (false, true) => LIGHT_LAST_MOVE,
        (true, true) => DARK_LAST_MOVE,
    }
}

/// The Unicode chess symbol of a piece: White's hollow, Black's solid,
/// followed by U+FE0E so phones draw it as text, not as an emoji.
pub fn piece_glyph(piece: Piece) -> &'static str {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => "\u{2654}\u{FE0E}",
        (Color::White, Role::Queen) => "\u{2655}\u{FE0E}",
        (Color::White, Role::Rook) => "\u{2656}\u{FE0E}",
        (Color::White, Role::Bishop) => "\u{2657}\u{FE0E}",
        (Color::White, Role::Knight) => "\u{2658}\u{FE0E}",
        (Color::White, Role::Pawn) => "\u{2659}\u{FE0E}",
        (Color::Black, Role::King) => "\u{265A}\u{FE0E}",
        (Color::Black, Role::Queen) => "\u{265B}\u{FE0E}",
        (Color::Black, Role::Rook) => "\u{265C}\u{FE0E}",
        (Color::Black, Role::Bishop) => "\u{265D}\u{FE0E}",
        (Color::Black, Role::Knight) => "\u{265E}\u{FE0E}",
        (Color::Black, Role::Pawn) => "\u{265F}\u{FE0E}",
    }
}

/// The squares of the board as the reader sees them, top row first, each
/// row left to right: White sees rank 8 at the top and file 1 on the left;
/// Black the board turned round.
pub fn rows(viewer: Color) -> Vec<Vec<Square>> {
    let ranks: Vec<u32> = match viewer {
        Color::White => (0..8).rev().collect(),
        Color::Black => (0..8).collect(),
    };
    let files: Vec<u32> = match viewer {
        Color::White => (0..8).collect(),
        Color::Black => (0..8).rev().collect(),
    };
    ranks
        .iter()
        .map(|&r| {
            files
                .iter()
                .map(|&f| Square::from_coords(File::new(f), Rank::new(r)))
                .collect()
        })
        .collect()
}

/// The last move's from and to squares (castling is the king's move, as in
/// ICCF), if the record has a move.
pub fn last_move(record: &Record) -> Option<(Square, Square)> {
    record
        .last_ply()
        .map(|p| (p.iccf.from.square(), p.iccf.to.square()))
}

/// The board as a `<table>`: a row of file digits, eight rows of a rank digit,
/// eight squares and the rank digit again, and the file digits once more.
pub fn board(pos: &Chess, last_move: Option<(Square, Square)>, viewer: Color) -> Markup {
    let rows = rows(viewer);
    let file_digits: Vec<u8> = rows[0].iter().map(|sq| u8::from(sq.file()) + 1).collect();
    // What every square shares is said once, on the table, and inherited
    // (the page is in standards mode, where tables inherit fonts): each
    // square carries only its colour. The edges set their own font.
    let table = format!(
        "border-collapse:collapse;border-spacing:0;margin:0;text-align:center;color:#000000;\
         font-family:{PIECE_FONTS};font-size:{}px;line-height:{SQUARE_PX}px",
        SQUARE_PX * 3 / 4
    );
    let edge = format!("font:11px/{EDGE_PX}px {TEXT_FONTS};color:#555555");
    // `width`, `height` and `align` attributes repeat the styles' sizes and
    // centring, so a client that strips styles still draws square squares:
    // said once per column (the digits' row sets the widths), once per row
    // (its rank digit sets the height) and once per row for the centring
    // (`tr align`), not on each of the 64 squares: a board is sent with
    // every move, and those repeats would be a fifth of a reply's bytes.
    // Sizes and styles made here, with nothing to escape (no `&`, `<`, `>`
    // or `"`): written as they are, not passed through the escaper for
    // each of the board's cells.
    let (sq_px, edge_px) = (
        PreEscaped(SQUARE_PX.to_string()),
        PreEscaped(EDGE_PX.to_string()),
    );
    let (table, edge) = (PreEscaped(table), PreEscaped(edge));
    let files_row = html! {
        tr {
            td width=(edge_px) height=(edge_px) style=(edge) {}
            @for d in &file_digits { td width=(sq_px) height=(edge_px) align="center" style=(edge) { (d) } }
            td width=(edge_px) height=(edge_px) style=(edge) {}
        }
    };
    html! {
        table cellspacing="0" cellpadding="0" border="0" style=(table) {
            (files_row)
            @for row in &rows {
                @let rank = u8::from(row[0].rank()) + 1;
                tr align="center" {
                    td height=(sq_px) style=(edge) { (rank) }
                    @for &sq in row {
                        @let colour = square_colour(sq, last_move);
                        // A colour is a constant with nothing to escape.
                        td bgcolor=(PreEscaped(colour)) style={ "background:" (PreEscaped(colour)) } {
                            @if let Some(piece) = pos.board().piece_at(sq) {
                                (piece_glyph(piece))
                            }
                        }
                    }
                    td style=(edge) { (rank) }
                }
            }
            (files_row)
        }
    }
}

/// [`piece_glyph`] as [`seven_bit`] writes it: its two characters as
/// numeric character references.
fn piece_glyph_seven_bit(piece: Piece) -> &'static str {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => "&#9812;&#65038;",
        (Color::White, Role::Queen) => "&#9813;&#65038;",
        (Color::White, Role::Rook) => "&#9814;&#65038;",
        (Color::White, Role::Bishop) => "&#9815;&#65038;",
        (Color::White, Role::Knight) => "&#9816;&#65038;",
        (Color::White, Role::Pawn) => "&#9817;&#65038;",
        (Color::Black, Role::King) => "&#9818;&#65038;",
        (Color::Black, Role::Queen) => "&#9819;&#65038;",
        (Color::Black, Role::Rook) => "&#9820;&#65038;",
        (Color::Black, Role::Bishop) => "&#9821;&#65038;",
        (Color::Black, Role::Knight) => "&#9822;&#65038;",
        (Color::Black, Role::Pawn) => "&#9823;&#65038;",
    }
}

/// Appends what [`seven_bit`] makes of [`board`] after other content (a
/// line break first, as before any table), written directly: 7-bit, each
/// row and cell on a line of its own. A mail's page leaves the board's
/// place marked for this instead of passing the board through `seven_bit`,
/// which, glyph by glyph, costs half of writing a short game's page; the
/// test `the_board_written_seven_bit_is_what_seven_bit_makes_of_the_board`
/// holds the two the same.
fn push_board_seven_bit(
    out: &mut String,
    pos: &Chess,
    last_move: Option<(Square, Square)>,
    viewer: Color,
) {
    // What does not change with the position (the table, the digits'
    // rows, the ranks' cells, the line breaks) is written once per side
    // and copied: made here for every board, with a `format!` per cell of
    // the edges, it would be most of writing a board.
    static FRAMES: OnceLock<[BoardFrame; 2]> = OnceLock::new();
    let frames =
        FRAMES.get_or_init(|| [BoardFrame::new(Color::White), BoardFrame::new(Color::Black)]);
    let frame = &frames[usize::from(viewer == Color::Black)];
    out.reserve(frame.len + 64 * 64);
    out.push_str(&frame.open);
    let board = pos.board();
    for (&sq, after) in frame.squares.iter().zip(&frame.after) {
        let colour = square_colour(sq, last_move);
        out.push_str("\r\n<td bgcolor=\"");
        out.push_str(colour);
        out.push_str("\" style=\"background:");
        out.push_str(colour);
        out.push_str("\">");
        if let Some(piece) = board.piece_at(sq) {
            out.push_str(piece_glyph_seven_bit(piece));
        }
        out.push_str(after);
    }
}

/// A board written 7-bit from one side, without its squares' cells: what
/// comes before the first square's cell, and after each square's (its
/// cell's end, then at a rank's end its digit, the row's end and the next
/// row's start, or at the last the digits' row and the table's end).
struct BoardFrame {
    open: String,
    squares: Vec<Square>,
    after: Vec<String>,
    /// The bytes of `open` and of every `after`.
    len: usize,
}

impl BoardFrame {
    fn new(viewer: Color) -> BoardFrame {
        let rows = rows(viewer);
        let edge = format!("font:11px/{EDGE_PX}px {TEXT_FONTS};color:#555555");
        let corner =
            format!("\r\n<td width=\"{EDGE_PX}\" height=\"{EDGE_PX}\" style=\"{edge}\"></td>");
        let mut files_row = format!("\r\n<tr>{corner}");
        for sq in &rows[0] {
            files_row.push_str(&format!(
                "\r\n<td width=\"{SQUARE_PX}\" height=\"{EDGE_PX}\" align=\"center\" style=\"{edge}\">{}</td>",
                u8::from(sq.file()) + 1
            ));
        }
        files_row.push_str(&corner);
        files_row.push_str("</tr>");
        let row_start = |row: &[Square]| {
            format!(
                "\r\n<tr align=\"center\">\r\n<td height=\"{SQUARE_PX}\" style=\"{edge}\">{}</td>",
                u8::from(row[0].rank()) + 1
            )
        };
        let mut open = format!(
            "\r\n<table cellspacing=\"0\" cellpadding=\"0\" border=\"0\" style=\"border-collapse:collapse;\
             border-spacing:0;margin:0;text-align:center;color:#000000;font-family:{PIECE_FONTS};\
             font-size:{}px;line-height:{SQUARE_PX}px\">",
            SQUARE_PX * 3 / 4
        );
        open.push_str(&files_row);
        open.push_str(&row_start(&rows[0]));
        let mut squares = Vec::with_capacity(64);
        let mut after = Vec::with_capacity(64);
        for (r, row) in rows.iter().enumerate() {
            for (f, &sq) in row.iter().enumerate() {
                squares.push(sq);
                let mut end = String::from("</td>");
                if f + 1 == row.len() {
                    let rank = u8::from(sq.rank()) + 1;
                    end.push_str(&format!("\r\n<td style=\"{edge}\">{rank}</td></tr>"));
                    match rows.get(r + 1) {
                        Some(next) => end.push_str(&row_start(next)),
                        None => {
                            end.push_str(&files_row);
                            end.push_str("\r\n</table>");
                        }
                    }
                }
                after.push(end);
            }
        }
        let len = open.len() + after.iter().map(String::len).sum::<usize>();
        BoardFrame {
            open,
            squares,
            after,
            len,
        }
    }
}

/// The record as a table: move number, White's move and Black's, each as
/// the numeric move with SAN in `lang`'s piece letters beside it.
pub fn record(record: &Record, lang: Lang) -> Markup {
    let mut rows = String::new();
    write_rows(
        &mut rows,
        record.start().fullmoves().get(),
        record.start().turn(),
        record.plies(),
        lang,
        "",
        escape_into,
    );
    record_table(lang, PreEscaped(rows))
}

/// The record's table around `rows`.
fn record_table(lang: Lang, rows: PreEscaped<impl AsRef<str>>) -> Markup {
    // The font is the table's, inherited. A row is written with as little
    // as a mail client needs (every reply carries the whole record: at ply
    // 300 a style on every cell makes the record 45 KB of a 55 KB mail, a
    // style on two cells of each row 21 KB): the table's `cellpadding`
    // spaces every cell, no cell has a style, the SAN is plain in brackets.
    let head = "text-align:left;color:#555555;font-weight:normal";
    let table =
        format!("border-collapse:collapse;margin:8px 0;font-family:{TEXT_FONTS};font-size:14px");
    html! {
        table cellspacing="0" cellpadding="3" border="0" style=(table) {
            tr {
                th style=(head) {}
                th style=(head) { (i18n::text(lang, Key::ColumnWhite, &[])) }
                th style=(head) { (i18n::text(lang, Key::ColumnBlack, &[])) }
            }
            (rows)
        }
    }
}

/// Appends the record's rows to `out`, each tag that [`seven_bit`] breaks
/// before preceded by `line_break`, the SAN written by `text` (escaped).
/// The rows are written straight into one string (a template's markup per
/// cell costs a string per ply, each reply, for every ply of the game).
fn write_rows(
    out: &mut String,
    first_move: u32,
    first_turn: Color,
    plies: &[Ply],
    lang: Lang,
    line_break: &str,
    text: fn(&mut String, &str),
) {
    let rows = record_rows(first_move, first_turn, plies);
    out.reserve(rows.len() * (84 + 4 * line_break.len()));
    // The markup between the row's variable parts, each one string: a
    // row is some ten appends, not twenty (a long game's page writes one
    // row per move, each reply).
    let open_row = format!("{line_break}<tr>{line_break}<td>");
    let open_cell = format!("</td>{line_break}<td>");
    let open_ply = format!("{open_cell}<b>");
    let mut san = String::new();
    // `<b>5254</b> (e4` after `open_ply`; the caller closes the bracket.
    let mut ply = |out: &mut String, p: &Ply| {
        p.iccf.push_to(out);
        out.push_str("</b> (");
        if lang == Lang::En {
            // English SAN is the stored SAN.
            text(out, &p.san);
        } else {
            san.clear();
            push_localized(&mut san, &p.san, lang);
            text(out, &san);
        }
    };
    for (number, white, black) in &rows {
        out.push_str(&open_row);
        push_number(out, *number, ".");
        match white {
            Some(p) => {
                out.push_str(&open_ply);
                ply(out, p);
                out.push(')');
            }
            None => out.push_str(&open_cell),
        }
        match black {
            Some(p) => {
                out.push_str(&open_ply);
                ply(out, p);
                out.push_str(")</td></tr>");
            }
            None => {
                out.push_str(&open_cell);
                out.push_str("</td></tr>");
            }
        }
    }
}

/// Where [`GamePage::render`] puts the record and the record its rows
/// until [`seven_bit`] has been over the rest: tags no template writes,
/// and escaped text cannot hold a `<`.
const RECORD_MARK: &str = "<wildt-record/>";
/// Where [`GamePage::render_for_mail`] puts the board
/// ([`push_board_seven_bit`]) once `seven_bit` has been over the rest.
const BOARD_MARK: &str = "<wildt-board/>";
const ROWS_MARK: &str = "<wildt-rows/>";

/// The record's table as a page writes it ([`push_record_seven_bit`]), made
/// once for the mails of a reply that show the same record in the same
/// language.
#[derive(Debug, Default)]
pub struct RecordHtml {
    html: String,
    /// Whether the table is 7-bit text in CRLF lines SMTP takes as it is
    /// (see [`MailPage::seven_bit`]), known as it was written.
    fits_mail: bool,
}

/// The longest SAN (in bytes) whose row is known to be a short line:
/// shakmaty writes at most seven characters, a localized letter is at most
/// a few, and each as a character reference at most eight bytes.
const SAN_FITS_LINE: usize = 32;

/// The first rows of a record's table, written before and kept beside the
/// record (a long game's sealed plies, see `reply::cache`): a page puts
/// them in place and writes only the rows after them.
#[derive(Debug, Clone, Copy)]
pub struct KeptRows<'a> {
    /// The rows as [`record_rows_seven_bit`] writes them, for a record
    /// that starts with White.
    pub html: &'a str,
    /// Whether each of them is a line SMTP carries as it is.
    pub fits: bool,
    /// How many plies they show: whole moves, White's and Black's.
    pub plies: usize,
}

impl KeptRows<'_> {
    /// The whole moves the rows show: the next row's move number is the
    /// record's first plus this.
    fn moves(&self) -> u32 {
        u32::try_from(self.plies / 2).unwrap_or(u32::MAX)
    }
}

/// Appends what [`seven_bit`] makes of [`record`] after other content, written
/// without a pass over the rows: they are written 7-bit with their line
/// breaks in place, after the `kept` rows if there are any. Only the
/// table's head goes through `seven_bit`. Says whether the table fits a
/// mail as it is: its head and tail were checked, and each row is one
/// short line unless a SAN is long or holds a control character (only
/// from a database changed by other hands).
fn push_record_seven_bit(
    out: &mut String,
    record: &Record,
    kept: Option<KeptRows<'_>>,
    lang: Lang,
) -> bool {
    let shell = seven_bit(&record_table(lang, PreEscaped(ROWS_MARK)).into_string());
    let (head, tail) = split_at_mark(&shell, ROWS_MARK).unwrap_or((&shell, ""));
    // The table follows the caption: `seven_bit` breaks before it.
    out.push_str("\r\n");
    out.push_str(head);
    let first_move = record.start().fullmoves().get();
    let (rows_fit, from, first_move, first_turn) = match kept {
        Some(kept) => {
            out.push_str(kept.html);
            (
                kept.fits,
                kept.plies,
                first_move + kept.moves(),
                Color::White,
            )
        }
        None => (true, 0, first_move, record.start().turn()),
    };
    let rest = record.plies_from(from);
    write_rows(
        out,
        first_move,
        first_turn,
        rest,
        lang,
        "\r\n",
        seven_bit_text,
    );
    out.push_str(tail);
    let shell_fits = crlf_lines(head).fits_as_is() && crlf_lines(tail).fits_as_is();
    shell_fits && rows_fit && rows_fit_lines(rest)
}

/// The record table's rows of `plies` as [`push_record_seven_bit`] writes
/// them (the first of them move `first_move`, `first_turn` to play), and
/// whether each is a line SMTP carries as it is: what a rendering kept
/// beside a record holds ([`KeptRows`]).
pub(crate) fn record_rows_seven_bit(
    first_move: u32,
    first_turn: Color,
    plies: &[Ply],
    lang: Lang,
) -> (String, bool) {
    let mut rows = String::new();
    write_rows(
        &mut rows,
        first_move,
        first_turn,
        plies,
        lang,
        "\r\n",
        seven_bit_text,
    );
    (rows, rows_fit_lines(plies))
}

/// Whether each row of `plies` is known to be one short line: a row is,
/// unless a SAN is long or holds a control character (only from a
/// database changed by other hands).
fn rows_fit_lines(plies: &[Ply]) -> bool {
    plies.iter().all(|p| {
        let san = p.san.as_str();
        san.len() <= SAN_FITS_LINE && !san.bytes().any(|b| b.is_ascii_control())
    })
}

/// Where the first `mark` in `text` starts, as `str::find` finds it but
/// with memchr's searcher: the generic one costs as much as writing the
/// rest of the page 7-bit.
fn mark_at(text: &str, mark: &str) -> Option<usize> {
    memchr::memmem::find(text.as_bytes(), mark.as_bytes())
}

/// `text` before and after the first `mark` ([`mark_at`]).
fn split_at_mark<'t>(text: &'t str, mark: &str) -> Option<(&'t str, &'t str)> {
    let at = mark_at(text, mark)?;
    Some((&text[..at], &text[at + mark.len()..]))
}

/// Appends `text` escaped as maud escapes it, every character beyond ASCII
/// as a numeric character reference, as [`seven_bit`] writes it.
fn seven_bit_text(out: &mut String, text: &str) {
    // A SAN needs neither (`Nf3`, `exd8=Q+`): copied whole.
    if text
        .bytes()
        .all(|b| b.is_ascii() && !matches!(b, b'&' | b'<' | b'>' | b'"'))
    {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_ascii() => out.push(c),
            c => push_char_reference(out, c),
        }
    }
}

/// Appends `c` as a numeric character reference (`&#9820;`).
fn push_char_reference(out: &mut String, c: char) {
    // itoa, not `write!`: every piece on the board is two of these, 128 a
    // move, and the formatting machinery is the largest part of writing
    // a page 7-bit.
    out.push_str("&#");
    out.push_str(itoa::Buffer::new().format(u32::from(c)));
    out.push(';');
}

/// Appends `text` to `out` escaped as maud escapes it.
fn escape_into(out: &mut String, text: &str) {
    use std::fmt::Write;
    // Writing into a String cannot fail.
    let written = maud::Escaper::new(out).write_str(text);
    debug_assert!(written.is_ok());
}

type RecordRow<'a> = (u32, Option<&'a Ply>, Option<&'a Ply>);

/// Pairs plies into numbered rows; a record starting with Black leaves the
/// first row's White cell empty.
fn record_rows(first_move: u32, first_turn: Color, plies: &[Ply]) -> Vec<RecordRow<'_>> {
    let mut rows: Vec<RecordRow<'_>> = Vec::new();
    let mut number = first_move;
    let mut turn = first_turn;
    for ply in plies {
        match turn {
            Color::White => rows.push((number, Some(ply), None)),
            Color::Black => match rows.last_mut() {
                Some(row) if row.0 == number && row.2.is_none() => row.2 = Some(ply),
                _ => rows.push((number, None, Some(ply))),
            },
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    rows
}

/// Plain text as HTML paragraphs: blank lines separate paragraphs, line
/// breaks are kept.
pub fn paragraphs(text: &str) -> Markup {
    let style = format!("margin:0 0 10px 0;font-family:{TEXT_FONTS};font-size:14px");
    html! {
        @for para in text.split("\n\n").map(|p| p.trim_matches('\n')).filter(|p| !p.is_empty()) {
            p style=(style) {
                @for (i, line) in para.lines().enumerate() {
                    @if i > 0 { br; }
                    (line)
                }
            }
        }
    }
}

/// What a game mail's HTML part shows.
pub struct GamePage<'a> {
    pub lang: Lang,
    /// The mail's subject, as the page title.
    pub title: &'a str,
    /// The text before the board (the same words as the text part).
    pub intro: &'a str,
    pub record: &'a Record,
    /// Whose mail it is: the board is seen from this side.
    pub viewer: Color,
    /// The lines after the board and record (status, how to answer).
    pub outro: &'a str,
    /// The first rows of the record's table, if they are kept beside it.
    pub kept_rows: Option<KeptRows<'a>>,
}

impl GamePage<'_> {
    /// The whole HTML document.
    pub fn render(&self) -> String {
        self.render_sharing(&OnceLock::new())
    }

    /// [`GamePage::render`], the record's table taken from `record_html` if
    /// an earlier page of the same record and language made it, else made
    /// and left there: the confirmation and the move passed on show the
    /// same record, the part of both pages that grows with the game.
    pub fn render_sharing(&self, record_html: &OnceLock<RecordHtml>) -> String {
        self.render_for_mail(record_html).into_html()
    }

    /// [`GamePage::render_sharing`] as a mail carries the page, and whether
    /// it is 7-bit in lines SMTP takes as it is. Only the page around the
    /// record is looked at for that: the record's table was written so, and
    /// a pass over a long game's page is the largest part of checking a
    /// reply.
    pub fn render_for_mail<'r>(&self, record_html: &'r OnceLock<RecordHtml>) -> MailPage<'r> {
        let caption_style =
            format!("margin:12px 0 4px 0;font-family:{TEXT_FONTS};font-size:13px;color:#555555");
        let has_record = self.record.ply_count() > 0;
        let markup = html! {
            (DOCTYPE)
            html lang=(self.lang.code()) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (self.title) }
                }
                body style="margin:0;padding:8px;background:#ffffff;color:#000000" {
                    (paragraphs(self.intro))
                    p style=(caption_style) {
                        (i18n::text(self.lang, Key::BoardCaption, &[("color", i18n::color_arg(self.viewer))]))
                    }
                    (PreEscaped(BOARD_MARK))
                    @if has_record {
                        p style=(caption_style) { (i18n::text(self.lang, Key::RecordHeading, &[])) }
                        (PreEscaped(RECORD_MARK))
                    }
                    (paragraphs(self.outro))
                }
            }
        };
        let made = seven_bit(&markup.into_string());
        // A bare line break can only come from the text around the board (a
        // name decoded from a header): made CRLF here, where the page is
        // small. The record's place is one mark on a line: the table put
        // there ends in a line shorter than the mark, so no line of the
        // page is longer than the lines checked.
        let shell = crlf_lines(&made);
        let shell_fits = shell.seven_bit;
        let shell = match shell.text {
            Cow::Owned(page) => page,
            Cow::Borrowed(_) => made,
        };
        // The board, written 7-bit in short lines, where its mark stood on
        // the line ending the caption (a line the check above saw longer).
        let page = match split_at_mark(&shell, BOARD_MARK) {
            Some((before, after)) => {
                let mut page = String::with_capacity(shell.len() + 9 * 1024);
                page.push_str(before);
                push_board_seven_bit(
                    &mut page,
                    self.record.position(),
                    last_move(self.record),
                    self.viewer,
                );
                page.push_str(after);
                page
            }
            None => shell,
        };
        // The record, the part of the page that grows with the game, is
        // written 7-bit where the template marked its place, not passed over
        // again, and not copied into the page: the mail puts it in place.
        match mark_at(&page, RECORD_MARK) {
            Some(at) if has_record => {
                let rows = record_html.get_or_init(|| {
                    let mut html = String::with_capacity(self.record.ply_count() * 40);
                    let fits_mail =
                        push_record_seven_bit(&mut html, self.record, self.kept_rows, self.lang);
                    RecordHtml { html, fits_mail }
                });
                let page = MailPage {
                    shell: page,
                    record_at: at,
                    record_mark: RECORD_MARK.len(),
                    record: &rows.html,
                    seven_bit: true,
                };
                if shell_fits && rows.fits_mail {
                    return page;
                }
                // A record not known to fit (or a page that does not): the
                // pass over all of it.
                let out = page.into_html();
                let whole = crlf_lines(&out);
                let seven_bit = whole.seven_bit;
                let html = match whole.text {
                    Cow::Owned(copy) => copy,
                    Cow::Borrowed(_) => out,
                };
                MailPage::whole(html, seven_bit)
            }
            _ => MailPage::whole(page, shell_fits),
        }
    }
}

/// A page as a mail carries it: every line break CRLF. Held as the page
/// around the record's place and the record's table, which the
/// confirmation and the move passed on share: a mail puts the three
/// pieces in place ([`MailPage::pieces`]) instead of a copy of the whole.
pub struct MailPage<'r> {
    shell: String,
    /// Where in `shell` the record goes, in place of `record_mark` bytes.
    record_at: usize,
    record_mark: usize,
    record: &'r str,
    /// ASCII without NUL in lines of at most 998 octets: sent `7bit` as it
    /// is (see [`crlf_lines`]).
    pub seven_bit: bool,
}

impl MailPage<'_> {
    /// A page held whole.
    pub fn whole(html: String, seven_bit: bool) -> MailPage<'static> {
        MailPage {
            record_at: html.len(),
            shell: html,
            record_mark: 0,
            record: "",
            seven_bit,
        }
    }

    /// The page in order: before the record, the record, after it.
    pub fn pieces(&self) -> [&str; 3] {
        [
            &self.shell[..self.record_at],
            self.record,
            &self.shell[self.record_at + self.record_mark..],
        ]
    }

    /// The page as one string.
    pub fn into_html(self) -> String {
        if self.record_mark == 0 {
            return self.shell;
        }
        self.pieces().concat()
    }
}

/// The page as 7-bit text a mail can carry as it is: every character
/// beyond ASCII as a numeric character reference (`&#9820;`), and a line
/// break (CRLF, as the mail carries it) before each table cell, row, table
/// and paragraph (whitespace HTML ignores there, or reads as the space it
/// was), so no line comes near SMTP's 998-character limit. Then the mail
/// needs no quoted-printable or base64 encoding (the board's pieces and
/// accented words would make lettre pick one, and `=` in every attribute
/// would grow by two bytes), and a client shows the same page. A line that would still
/// be too long is left to lettre, which encodes the part then.
fn seven_bit(html: &str) -> String {
    const BREAK_BEFORE: [&[u8]; 7] = [
        b"<tr", b"<td", b"<th", b"<table", b"<p ", b"<p>", b"</table",
    ];
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    // Runs of plain ASCII are copied whole: `from` is where the part not
    // copied yet starts. memchr finds each `<`, and the run before it is
    // looked at character by character only when `is_ascii` (a word at a
    // time) says it holds more: a loop over every byte costs a tenth of
    // rendering a page.
    let mut from = 0;
    let mut at = 0;
    loop {
        let tag = memchr::memchr(b'<', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        if !bytes[at..tag].is_ascii() {
            // Byte by byte to each character beyond ASCII (a run is mostly
            // a tag's ASCII attributes before a piece's glyph: decoding
            // every character of it is most of writing a board 7-bit).
            // The first byte beyond ASCII after ASCII ones starts a
            // character.
            let mut next = at;
            while let Some(n) = bytes[next..tag].iter().position(|b| !b.is_ascii()) {
                let start = next + n;
                let Some(c) = html[start..].chars().next() else {
                    break;
                };
                out.push_str(&html[from..start]);
                push_char_reference(&mut out, c);
                from = start + c.len_utf8();
                next = from;
            }
        }
        if tag == bytes.len() {
            break;
        }
        // Most tags are not a place to break: the byte after `<` (`t`, `p`
        // or `/`) rules them out before the names are compared.
        let may_break = matches!(bytes.get(tag + 1), Some(b't' | b'p' | b'/'));
        if may_break && tag > 0 && BREAK_BEFORE.iter().any(|t| bytes[tag..].starts_with(t)) {
            out.push_str(&html[from..tag]);
            out.push_str("\r\n");
            from = tag;
        }
        at = tag + 1;
    }
    out.push_str(&html[from..]);
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

    const VOID: [&str; 4] = ["meta", "br", "link", "img"];

    /// Checks that `html` is well formed in the XML sense, allowing only the
    /// doctype and the HTML void elements above as unclosed: every tag closes
    /// in order, attribute values are quoted, text holds no raw `<` or `>`,
    /// and every `&` starts an entity. Returns the element names in order.
    fn well_formed(html: &str) -> Result<Vec<String>, String> {
        let mut stack: Vec<String> = Vec::new();
        let mut seen = Vec::new();
        let mut rest = html.strip_prefix("<!DOCTYPE html>").unwrap_or(html);
        while !rest.is_empty() {
            let Some(lt) = rest.find('<') else {
                check_text(rest)?;
                break;
            };
            check_text(&rest[..lt])?;
            let gt = rest[lt..]
                .find('>')
                .ok_or_else(|| "unterminated tag".to_owned())?
                + lt;
            let tag = &rest[lt + 1..gt];
            rest = &rest[gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(open) if open == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
                continue;
            }
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if name.is_empty() {
                return Err(format!("bad tag <{tag}>"));
            }
            check_attributes(&tag[name.len()..])?;
            seen.push(name.clone());
            if !VOID.contains(&name.as_str()) {
                stack.push(name);
            }
        }
        if stack.is_empty() {
            Ok(seen)
        } else {
            Err(format!("unclosed {stack:?}"))
        }
    }

    fn check_text(text: &str) -> Result<(), String> {
        if text.contains('>') {
            return Err(format!("raw > in text {text:?}"));
        }
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            let ok = ["&amp;", "&lt;", "&gt;", "&quot;", "&#"]
                .iter()
                .any(|e| entity.starts_with(e));
            if !ok {
                return Err(format!("bare & in {text:?}"));
            }
        }
        Ok(())
    }

    fn check_attributes(mut attrs: &str) -> Result<(), String> {
        loop {
            attrs = attrs.trim_start();
            if attrs.is_empty() {
                return Ok(());
            }
            let eq = attrs
                .find('=')
                .ok_or_else(|| format!("attribute without value: {attrs}"))?;
            let name = &attrs[..eq];
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(format!("bad attribute name {name:?}"));
            }
            let value = attrs[eq + 1..]
                .strip_prefix('"')
                .ok_or_else(|| format!("unquoted value for {name}"))?;
            let end = value
                .find('"')
                .ok_or_else(|| format!("unterminated value for {name}"))?;
            check_text(&value[..end])?;
            attrs = &value[end + 1..];
        }
    }

    #[test]
    fn the_checker_rejects_broken_html() {
        assert!(well_formed("<table><tr><td>x</td></tr></table>").is_ok());
        assert!(well_formed("<table><tr><td>x</tr></td></table>").is_err());
        assert!(well_formed("<td style=x>1</td>").is_err());
        assert!(well_formed("<p>a & b</p>").is_err());
        assert!(well_formed("<p>unclosed").is_err());
    }

    fn page(record: &Record, viewer: Color, lang: Lang) -> String {
        GamePage {
            lang,
            title: "[wildt #7] 1. 5254 - <your move> & more",
            intro: "Game 7: White played 1. 5254 (e4).\n\nSecond <paragraph> & \"quotes\".",
            record,
            viewer,
            outro: "Black to move (1...)",
            kept_rows: None,
        }
        .render()
    }

    #[test]
    fn the_page_is_well_formed_with_a_table_of_ten_rows() {
        let r = played(&["5254", "5755", "7163"]);
        let html = page(&r, Color::White, Lang::De);
        let elements = well_formed(&html).unwrap_or_else(|e| panic!("{e}\n{html}"));
        // The board (10 rows) and the record (header and 2 moves).
        assert_eq!(elements.iter().filter(|e| *e == "tr").count(), 10 + 3);
        assert_eq!(elements.iter().filter(|e| *e == "table").count(), 2);
        for forbidden in ["script", "img", "link", "style", "iframe", "object"] {
            assert!(!elements.iter().any(|e| e == forbidden), "{forbidden}");
        }
        assert!(!html.contains("http"), "no external resources");
        // Text from outside is escaped, not markup.
        assert!(html.contains("&lt;your move&gt; &amp; more"));
        assert!(html.contains("Second &lt;paragraph&gt; &amp; &quot;quotes&quot;."));
    }

    /// The page is ASCII in short lines, so the mail carries it as 7-bit
    /// text: the pieces and accented words as character references, which
    /// a browser reads back as the same characters.
    #[test]
    fn the_page_is_seven_bit_text_in_short_lines() {
        let r = played(&["5254", "5755", "7163"]);
        let html = page(&r, Color::Black, Lang::De);
        assert!(html.is_ascii());
        let longest = html.lines().map(str::len).max().unwrap_or(0);
        assert!(longest < 400, "a line of {longest} characters");
        assert!(html.contains(">Wei&#223;</th>"), "{html}");
        // Black's king (U+265A) and the text-style selector (U+FE0E).
        assert!(html.contains("&#9818;&#65038;"));
        assert_eq!(seven_bit("<p>\u{e9}t\u{e9}</p>"), "<p>&#233;t&#233;</p>");
        assert_eq!(seven_bit("<tr><td>1</td></tr>"), "<tr>\r\n<td>1</td></tr>");
    }

    /// The board a mail's page puts in place of its mark is the board as
    /// `seven_bit` wrote it, from either side, with and without the last
    /// move's colours, with every piece (a rook from a promotion, a castled
    /// king).
    #[test]
    fn the_board_written_seven_bit_is_what_seven_bit_makes_of_the_board() {
        let promoted = played(&[
            "5254", "4745", "5445", "3736", "4536", "1716", "3627", "5756", "27182",
        ]);
        let castled = played(&["5254", "5755", "7163", "2836", "6125", "7866", "5171"]);
        for record in [Record::new(None).unwrap(), promoted, castled] {
            for viewer in [Color::White, Color::Black] {
                for last in [None, last_move(&record)] {
                    let mut direct = String::new();
                    push_board_seven_bit(&mut direct, record.position(), last, viewer);
                    let passed = seven_bit(&board(record.position(), last, viewer).into_string());
                    assert_eq!(direct, format!("\r\n{passed}"), "{viewer:?} {last:?}");
                }
            }
        }
        for color in [Color::White, Color::Black] {
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                let piece = Piece { color, role };
                let mut by_char = String::new();
                piece_glyph(piece)
                    .chars()
                    .for_each(|c| push_char_reference(&mut by_char, c));
                assert_eq!(piece_glyph_seven_bit(piece), by_char, "{piece:?}");
            }
        }
    }

    /// Every character beyond ASCII, of two, three or four bytes, alone or
    /// side by side, at a run's start or end, in an attribute or in text,
    /// becomes its reference and nothing else changes (breaks aside).
    #[test]
    fn seven_bit_turns_each_character_beyond_ascii_into_its_reference_wherever_it_stands() {
        let by_char = |html: &str| -> String {
            html.chars()
                .map(|c| {
                    if c.is_ascii() {
                        c.to_string()
                    } else {
                        format!("&#{};", u32::from(c))
                    }
                })
                .collect()
        };
        for html in [
            "\u{e9}",
            "a\u{e9}",
            "\u{e9}<b>x</b>\u{2654}\u{FE0E}",
            "<td title=\"caf\u{e9}\" style=\"x\">\u{265A}\u{FE0E}</td>",
            "<b>\u{1F600}\u{e9}\u{4E2D}</b>z",
            "<i>Wei\u{df}</i><i>\u{fc}ber</i><i>plain</i>\u{2026}",
            "no markup at all \u{f1}",
            "<<\u{e9}<",
        ] {
            assert_eq!(seven_bit(html), by_char(html), "{html}");
        }
    }

    /// The text of each `<td>` of the board, row by row.
    fn board_cells(html: &str) -> Vec<Vec<String>> {
        let table = &html[..html.find("</table>").unwrap()];
        table
            .split("<tr")
            .skip(1)
            .map(|row| {
                row.split("<td")
                    .skip(1)
                    .map(|td| {
                        let start = td.find('>').unwrap() + 1;
                        td[start..td.find("</td>").unwrap()].to_owned()
                    })
                    .collect()
            })
            .collect()
    }

    /// The board writes its styles and sizes without escaping them: they
    /// must hold nothing an attribute would need escaped.
    #[test]
    fn the_boards_styles_and_colours_hold_nothing_to_escape() {
        let needs_escape = |s: &str| s.contains(['&', '<', '>', '"']);
        for text in [
            PIECE_FONTS,
            TEXT_FONTS,
            LIGHT,
            DARK,
            LIGHT_LAST_MOVE,
            DARK_LAST_MOVE,
        ] {
            assert!(!needs_escape(text), "{text}");
        }
        let r = played(&["5254"]);
        let html = board(r.position(), last_move(&r), Color::White).into_string();
        assert!(
            !html.contains("&amp;") && !html.contains("&quot;"),
            "{html}"
        );
        assert_eq!(html.matches("<td").count(), 100);
    }

    #[test]
    fn white_sees_rank_8_on_top_and_file_1_on_the_left() {
        let r = played(&["5254"]);
        let html = board(r.position(), last_move(&r), Color::White).into_string();
        let cells = board_cells(&html);
        assert_eq!(cells.len(), 10);
        let digits = ["", "1", "2", "3", "4", "5", "6", "7", "8", ""];
        assert_eq!(cells[0], digits);
        assert_eq!(cells[9], digits);
        assert_eq!(cells[1][0], "8");
        assert_eq!(cells[8][0], "1");
        assert_eq!(cells[8][9], "1");
        // a8 holds Black's rook, e1 White's king.
        assert_eq!(cells[1][1], "\u{265C}\u{FE0E}");
        assert_eq!(cells[8][5], "\u{2654}\u{FE0E}");
    }

    #[test]
    fn black_sees_the_board_upside_down() {
        let r = played(&["5254"]);
        let html = board(r.position(), last_move(&r), Color::Black).into_string();
        let cells = board_cells(&html);
        let digits = ["", "8", "7", "6", "5", "4", "3", "2", "1", ""];
        assert_eq!(cells[0], digits);
        assert_eq!(cells[9], digits);
        assert_eq!(cells[1][0], "1");
        assert_eq!(cells[8][0], "8");
        // Bottom left is h8 with Black's rook, top left h1 with White's rook;
        // Black's king on e8 is the fourth square of the bottom row.
        assert_eq!(cells[8][1], "\u{265C}\u{FE0E}");
        assert_eq!(cells[1][1], "\u{2656}\u{FE0E}");
        assert_eq!(cells[8][4], "\u{265A}\u{FE0E}");
    }

    #[test]
    fn the_last_move_squares_are_highlighted_and_only_they() {
        let r = played(&["5254", "7866"]); // 1. e4 Nf6: g8 (light) to f6 (dark)
        let html = board(r.position(), last_move(&r), Color::White).into_string();
        let highlighted: Vec<usize> = html
            .split("<td")
            .skip(1)
            .enumerate()
            .filter(|(_, td)| {
                td.contains(&format!("bgcolor=\"{LIGHT_LAST_MOVE}\""))
                    || td.contains(&format!("bgcolor=\"{DARK_LAST_MOVE}\""))
            })
            .map(|(i, _)| i)
            .collect();
        // Cells are numbered row by row, 10 per row: g8 is row 1, column 7;
        // f6 is row 3, column 6.
        assert_eq!(highlighted, vec![10 + 7, 30 + 6]);
        assert_eq!(square_colour(Square::G8, last_move(&r)), LIGHT_LAST_MOVE);
        assert_eq!(square_colour(Square::F6, last_move(&r)), DARK_LAST_MOVE);
        assert_eq!(square_colour(Square::E4, last_move(&r)), LIGHT);
        assert_eq!(square_colour(Square::A1, None), DARK);
        assert_eq!(square_colour(Square::H1, None), LIGHT);
    }

    #[test]
    fn sizes_and_centring_are_said_once_per_column_and_row_not_per_square() {
        let r = Record::new(None).unwrap();
        let html = board(r.position(), None, Color::White).into_string();
        // The two rows of file digits set the ten column widths; each rank's
        // left digit sets its row's height; each rank row centres its cells.
        assert_eq!(html.matches(" width=").count(), 20, "{html}");
        assert_eq!(html.matches(" height=").count(), 20 + 8, "{html}");
        assert_eq!(html.matches("<tr align=\"center\">").count(), 8, "{html}");
        // Each rank row's tags: its two digits and, between them, the 64
        // squares, which carry their colour only.
        for row in html.split("<tr").skip(2).take(8) {
            let tags: Vec<&str> = row
                .split("<td")
                .skip(1)
                .map(|td| &td[..td.find('>').unwrap()])
                .collect();
            assert_eq!(tags.len(), 10, "{row}");
            for tag in &tags[1..9] {
                assert!(tag.trim_start().starts_with("bgcolor="), "{tag}");
                assert!(!tag.contains("width") && !tag.contains("height"), "{tag}");
            }
        }
        let square = format!("<td bgcolor=\"{LIGHT}\" style=\"background:{LIGHT}\">");
        assert!(html.contains(&square), "{html}");
    }

    #[test]
    fn thirty_two_light_and_thirty_two_dark_squares() {
        let r = Record::new(None).unwrap();
        let html = board(r.position(), None, Color::White).into_string();
        let light = format!("bgcolor=\"{LIGHT}\" style=\"background:{LIGHT}\"");
        let dark = format!("bgcolor=\"{DARK}\" style=\"background:{DARK}\"");
        assert_eq!(html.matches(&light).count(), 32);
        assert_eq!(html.matches(&dark).count(), 32);
        assert!(html.contains(&format!("background:{LIGHT}")));
    }

    #[test]
    fn the_record_shows_numeric_moves_with_localized_san() {
        let r = played(&["5254", "5755", "7163"]);
        let html = record(&r, Lang::De).into_string();
        assert!(html.contains("<b>7163</b> (Sf3)</td>"), "{html}");
        assert!(html.contains(">Weiß</th>") && html.contains(">Schwarz</th>"));
        let fr = record(&r, Lang::Fr).into_string();
        assert!(fr.contains("(Cf3)"));
        let rows = record_rows(1, Color::White, r.plies());
        assert_eq!(rows.len(), 2);
        assert!(rows[1].2.is_none());
    }

    /// The page's record is written 7-bit where the template marks its
    /// place, without a pass over it: it must be exactly what `seven_bit`
    /// makes of the record's table after the caption, in every language
    /// (Russian's pieces are Cyrillic), with captures, castling, checks,
    /// promotions, and for a record that starts with Black.
    #[test]
    fn the_pages_record_is_the_seven_bit_form_of_the_record_table() {
        let from_fen = |fen: &str, moves: &[&str]| {
            Record::replay(Some(fen), moves.iter().map(|m| m.parse().unwrap())).unwrap()
        };
        let records = [
            played(&[
                "5254", "5755", "7163", "2836", "6125", "7866", "5171", "6654", "6151",
            ]),
            // Black to move first; promotions to a knight and a queen, a
            // capture and a check.
            from_fen(
                "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 40",
                &["72714", "8171", "5848", "27281"],
            ),
        ];
        for r in &records {
            for lang in Lang::ALL {
                let html = page(r, Color::White, lang);
                assert!(!html.contains("<wildt-"), "a mark was left: {html}");
                // The caption before it is content, so the table is broken
                // before as `seven_bit` breaks it inside a page.
                let table = seven_bit(&format!("<p>{}", record(r, lang).into_string()));
                let table = table.strip_prefix("<p>").unwrap();
                assert!(table.starts_with("\r\n<table"), "{table}");
                assert!(html.contains(table), "{lang:?}: {table}\n---\n{html}");
            }
        }
    }

    /// A page's breaks are CRLF and it says it fits a mail as it is exactly
    /// when a pass over all of it would say so: records in every language, a title and intro with bare
    /// line breaks or a line too long, and records as a database changed by
    /// other hands could hold them (a SAN with a line break, a long SAN).
    #[test]
    fn a_page_fits_a_mail_as_it_is_only_when_a_pass_over_all_of_it_agrees() {
        use crate::notation::{IccfMove, SanText};
        let stored = |san: &str| {
            let ply = Ply {
                iccf: "5254".parse::<IccfMove>().unwrap(),
                san: SanText::new(san),
            };
            Record::from_stored(crate::game::START_FEN, vec![ply], None, Some(Vec::new()), 0)
                .unwrap()
        };
        let shuffle = ["7163", "7866", "6371", "6678"];
        let long: Vec<&str> = (0..300).map(|i| shuffle[i % 4]).collect();
        let records = [
            (played(&[]), true),
            (played(&["5254", "5755", "7163"]), true),
            (played(&long), true),
            (stored("e4"), true),
            // Made CRLF by the pass over the whole page.
            (stored("e\n4"), true),
            (stored("e\r4"), true),
            (stored(&"x".repeat(1200)), false),
        ];
        let too_long = "t".repeat(1200);
        let texts = [
            ("plain", "Game 7: <move> & more.\n\nSecond.", true),
            ("bare\rbreak", "one\rtwo\nthree", true),
            (too_long.as_str(), "intro", false),
        ];
        for (r, record_fits) in &records {
            for lang in Lang::ALL {
                for (title, intro, text_fits) in texts {
                    let rows = OnceLock::new();
                    let page = GamePage {
                        lang,
                        title,
                        intro,
                        record: r,
                        viewer: Color::Black,
                        outro: "Black to move",
                        kept_rows: None,
                    }
                    .render_for_mail(&rows);
                    let seven_bit = page.seven_bit;
                    let html = page.into_html();
                    let whole = crlf_lines(&html);
                    let case = format!("{lang:?} {title:.20} {:?}", r.plies().first());
                    assert!(
                        matches!(whole.text, Cow::Borrowed(_)),
                        "a bare break: {case}"
                    );
                    assert_eq!(seven_bit, whole.seven_bit, "{case}");
                    assert_eq!(seven_bit, *record_fits && text_fits, "{case}");
                }
            }
        }
    }

    /// Every reply carries the whole record: 150 moves stay about 21 KB
    /// of HTML (45 KB with a style on every cell).
    #[test]
    fn a_record_of_three_hundred_plies_stays_small() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let plies: Vec<&str> = (0..300).map(|i| shuffle[i % 4]).collect();
        let r = played(&plies);
        let html = seven_bit(&record(&r, Lang::En).into_string());
        assert!(html.len() < 24_000, "{} bytes", html.len());
        assert_eq!(html.matches("<tr>").count(), 151);
    }

    #[test]
    fn a_record_starting_with_black_leaves_whites_first_cell_empty() {
        let plies = played(&["5254", "5755", "7163"]).plies().to_vec();
        let rows = record_rows(12, Color::Black, &plies);
        assert_eq!(rows[0].0, 12);
        assert!(rows[0].1.is_none());
        assert_eq!(rows[0].2.map(|p| p.iccf.to_string()), Some("5254".into()));
        assert_eq!(rows[1].0, 13);
        assert_eq!(rows[1].2.map(|p| p.iccf.to_string()), Some("7163".into()));
    }
}
