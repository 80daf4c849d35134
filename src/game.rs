//! The game record and how people read it: the record itself (start
//! position, plies, end, pending draw offer), how a game ends and its result,
//! FEN in and out, and for people the board diagram with numeric coordinates,
//! the record in ICCF with SAN, and PGN for other programs. [pure: no IO]
//!
//! `Err` here ([`RecordError`]) is kept for a record that cannot be replayed
//! (a corrupt database), never for a player's mistake.

use std::fmt;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, File, Position, Rank, Square};

use crate::command::MoveNumber;
use crate::notation::{ColorName, IccfMove, Ply, format_record};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    DrawAgreed,
    ThreefoldRepetition,
    FiftyMoveRule,
    /// A player's clock passed what the time control allows.
    TimeForfeit,
    /// The organiser decided the game (`game adjudicate`).
    Adjudication,
    /// Scored without play by the organiser: the other side withdrew from
    /// the event (the result is the win of the side that stayed).
    Forfeit,
    /// Struck from the event by the organiser (ICCF: a player withdrew before
    /// playing half the games). Stored with result `*`; see [`GameEnd`].
    Annulled,
    /// Decided by the endgame tablebases: a player's claim the tables
    /// upheld, the referee's own adjudication, or the organiser's.
    Tablebase,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::Resignation => "resignation",
            Termination::DrawAgreed => "draw agreed",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoveRule => "50-move rule",
            Termination::TimeForfeit => "time forfeit",
            Termination::Adjudication => "adjudication",
            Termination::Forfeit => "forfeit",
            Termination::Annulled => "annulled",
            Termination::Tablebase => "tablebase",
        }
    }

    pub fn parse(text: &str) -> Option<Termination> {
        [
            Termination::Checkmate,
            Termination::Stalemate,
            Termination::InsufficientMaterial,
            Termination::Resignation,
            Termination::DrawAgreed,
            Termination::ThreefoldRepetition,
            Termination::FiftyMoveRule,
            Termination::TimeForfeit,
            Termination::Adjudication,
            Termination::Forfeit,
            Termination::Annulled,
            Termination::Tablebase,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }
}

/// A game's result: `1-0`, `0-1`, `1/2-1/2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    pub(crate) fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// For an [`Termination::Annulled`] game there is no result: the record
    /// carries `Draw` only so that the type need not change, and everything
    /// shown or stored goes through [`GameEnd::result_text`], which says `*`.
    pub result: GameResult,
    pub termination: Termination,
}

impl GameEnd {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` for an annulled game.
    pub fn result_text(self) -> &'static str {
        match self.termination {
            Termination::Annulled => "*",
            _ => self.result.as_str(),
        }
    }
}

/// Why the stored record cannot be replayed: the database is damaged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the start position `{fen}` is not valid: {why}")]
    BadStart { fen: String, why: String },
    #[error("stored ply {ply} `{text}` cannot be replayed: {why}")]
    BadPly {
        ply: usize,
        text: String,
        why: String,
    },
}

/// A game as the referee sees it: start position, plies played, and the state
/// that is not in the moves (result, a pending draw offer).
#[derive(Debug, Clone)]
pub struct Record {
    start: Chess,
    start_fen: String,
    /// The plies: all of them, or with `unread` those after its plies.
    plies: Vec<Ply>,
    /// The first plies as the store keeps them (a long game's sealed
    /// parts, as text), read only when a caller asks for them: judging a
    /// move and storing it need only the plies after them.
    unread: Option<Arc<UnreadPlies>>,
    /// With `unread`: all the plies, once asked for.
    all: OnceLock<Vec<Ply>>,
    /// `positions[i]` is the position after `kept_from + i` plies. A record
    /// replayed from its moves keeps them all (`kept_from` 0, so
    /// `positions[0]` is the start); one loaded from the store keeps only
    /// the position now, and plies pushed since.
    positions: Vec<Chess>,
    kept_from: usize,
    /// The positions (by Zobrist key, one entry each time one stood on the
    /// board) after the plies `earlier_from..kept_from`: the part of the
    /// window a repetition claim counts in (since the last irreversible
    /// move) that is not kept as positions. Counted when a claim asks: a
    /// scan of a few hundred keys at most, where a map of them would cost
    /// a hash per ply of the window with every load. `None`: not read (see
    /// [`Record::window_unread`]; a record loaded for a move without a
    /// claim never needs them), and a count replays them from the plies,
    /// which the record always holds.
    earlier: Option<Vec<u64>>,
    earlier_from: usize,
    pub end: Option<GameEnd>,
    /// The side whose draw offer is waiting for an answer.
    pub draw_offer: Option<Color>,
}

/// A record's first plies as the store keeps them: `count` plies, `iccf
/// san` joined by commas ([`crate::notation::read_stored_plies`]), known
/// to read (the store hands them over only when they are the text it
/// wrote, by a hash).
#[derive(Debug)]
pub struct UnreadPlies {
    pub text: String,
    pub count: usize,
}

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Parses a FEN into a legal standard-chess position.
pub fn position_from_fen(fen: &str) -> Result<Chess, RecordError> {
    let bad = |why: String| RecordError::BadStart {
        fen: fen.to_owned(),
        why,
    };
    let parsed: Fen = fen.trim().parse().map_err(|e| bad(format!("{e}")))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| bad(format!("{e}")))
}

pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

impl Record {
    /// A new game from `fen` (or the standard start).
    pub fn new(fen: Option<&str>) -> Result<Record, RecordError> {
        let start_fen = fen.unwrap_or(START_FEN).trim().to_owned();
        let start = position_from_fen(&start_fen)?;
        Ok(Record {
            start_fen: fen_of(&start),
            positions: vec![start.clone()],
            kept_from: 0,
            earlier: Some(Vec::new()),
            earlier_from: 0,
            start,
            plies: Vec::new(),
            unread: None,
            all: OnceLock::new(),
            end: None,
            draw_offer: None,
        })
    }

    /// Rebuilds a record from stored ICCF moves, recomputing SAN and positions.
    pub fn replay(
        fen: Option<&str>,
        moves: impl IntoIterator<Item = IccfMove>,
    ) -> Result<Record, RecordError> {
        let mut record = Record::new(fen)?;
        for (i, mv) in moves.into_iter().enumerate() {
            let pos = record.position();
            let m = mv.to_move(pos).map_err(|e| RecordError::BadPly {
                ply: i + 1,
                text: mv.to_string(),
                why: e.to_string(),
            })?;
            record.push(mv, m);
        }
        Ok(record)
    }

    /// A record as the store keeps it, without replaying it: the start, the
    /// plies with their SAN, the position now (`None`: the start), and,
    /// for repetition claims, the positions that stood on the board after
    /// the plies `earlier_from..plies.len()` (Zobrist keys, see
    /// [`position_key`], each as often as it stood there, in any order;
    /// `None`: not read, given with [`Record::read_window`] before a claim
    /// is judged, or else replayed from the plies when one is). The caller
    /// vouches that these agree.
    pub fn from_stored(
        start_fen: &str,
        plies: Vec<Ply>,
        now: Option<Chess>,
        earlier: Option<Vec<u64>>,
        earlier_from: usize,
    ) -> Result<Record, RecordError> {
        let mut record = Record::new(Some(start_fen))?;
        if let Some(now) = now {
            record.positions = vec![now];
        }
        record.kept_from = plies.len();
        record.plies = plies;
        record.earlier = earlier;
        record.earlier_from = earlier_from;
        Ok(record)
    }

    /// [`Record::from_stored`] with the first plies left as stored text
    /// (`unread`), read only if all plies are asked for; `plies` are those
    /// after them.
    pub fn from_stored_unread(
        start_fen: &str,
        unread: UnreadPlies,
        plies: Vec<Ply>,
        now: Option<Chess>,
        earlier: Option<Vec<u64>>,
        earlier_from: usize,
    ) -> Result<Record, RecordError> {
        let mut record = Record::from_stored(start_fen, plies, now, earlier, earlier_from)?;
        record.kept_from += unread.count;
        record.unread = Some(Arc::new(unread));
        Ok(record)
    }

    pub(crate) fn push(&mut self, iccf: IccfMove, m: shakmaty::Move) {
        let pos = self.position().clone();
        let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
        let mut after = pos;
        after.play_unchecked(m);
        let ply = Ply {
            iccf,
            san: san.into(),
        };
        if let Some(all) = self.all.get_mut() {
            all.push(ply.clone());
        }
        self.plies.push(ply);
        self.positions.push(after);
    }

    pub fn start(&self) -> &Chess {
        &self.start
    }

    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// All the plies (a record loaded with its first plies unread reads
    /// them now, once).
    pub fn plies(&self) -> &[Ply] {
        let Some(unread) = &self.unread else {
            return &self.plies;
        };
        self.all.get_or_init(|| {
            let mut all = Vec::with_capacity(unread.count + self.plies.len() + 2);
            // Known to read (see `UnreadPlies`): the text the store wrote.
            let read = crate::notation::read_stored_plies(&mut all, &unread.text);
            debug_assert!(
                read.is_ok() && all.len() == unread.count,
                "unread plies that do not read"
            );
            all.extend_from_slice(&self.plies);
            all
        })
    }

    /// How many plies were played.
    pub fn ply_count(&self) -> usize {
        self.unread.as_ref().map_or(0, |u| u.count) + self.plies.len()
    }

    /// Ply index `i` (0-based from the start).
    pub fn ply(&self, i: usize) -> Option<&Ply> {
        match &self.unread {
            Some(u) if i >= u.count => self.plies.get(i - u.count),
            Some(_) => self.plies().get(i),
            None => self.plies.get(i),
        }
    }

    /// The last ply played.
    pub fn last_ply(&self) -> Option<&Ply> {
        self.ply(self.ply_count().checked_sub(1)?)
    }

    /// The plies from index `from` on (none past the last), without reading
    /// unread ones before `from`.
    pub fn plies_from(&self, from: usize) -> &[Ply] {
        match &self.unread {
            Some(u) if from >= u.count => self.plies.get(from - u.count..).unwrap_or(&[]),
            _ => self.plies().get(from..).unwrap_or(&[]),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The position after `plies` plies: kept, or replayed from the start
    /// when the record was loaded without it (a forfeit's flag, a page of
    /// the public site; never on a move's path).
    pub fn position_after(&self, plies: usize) -> Option<Chess> {
        if let Some(i) = plies.checked_sub(self.kept_from) {
            return self.positions.get(i).cloned();
        }
        let mut pos = self.start.clone();
        for ply in self.plies().get(..plies)? {
            let m = ply.iccf.to_move(&pos).ok()?;
            pos.play_unchecked(m);
        }
        Some(pos)
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// The move number and side of ply index `i` (0-based from the start).
    pub fn number_of_ply(&self, i: usize) -> MoveNumber {
        let first = self.start.fullmoves().get();
        let offset = usize::from(self.start.turn() == Color::Black);
        let k = i + offset;
        MoveNumber {
            number: first + u32::try_from(k / 2).unwrap_or(u32::MAX),
            black: k % 2 == 1,
        }
    }

    /// The ply index a written move number stands for, if not before the start.
    pub(crate) fn ply_of_number(&self, n: MoveNumber) -> Option<usize> {
        let first = self.start.fullmoves().get();
        let offset = usize::from(self.start.turn() == Color::Black);
        let k = (usize::try_from(n.number.checked_sub(first)?).ok()?)
            .checked_mul(2)?
            .checked_add(usize::from(n.black))?;
        k.checked_sub(offset)
    }

    /// The number the next move must carry.
    pub fn next_number(&self) -> MoveNumber {
        self.number_of_ply(self.ply_count())
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// How many times the current position has stood on the board (same
    /// pieces, side to move, castling rights and en-passant right).
    pub fn repetitions(&self) -> usize {
        let now = position_key(self.position());
        // Only positions since the last irreversible move can repeat: those
        // after the plies `window..=n`.
        let n = self.ply_count();
        let halfmoves = usize::try_from(self.position().halfmoves()).unwrap_or(usize::MAX);
        let window = n - halfmoves.min(n);
        let kept = self
            .positions
            .iter()
            .enumerate()
            .filter(|(i, p)| self.kept_from + i >= window && position_key(p) == now)
            .count();
        // The counted part before the kept positions shares the window's
        // start, as long as no irreversible move was pushed since.
        let counted = window < self.kept_from && window <= self.earlier_from;
        let earlier = match (&self.earlier, counted) {
            (Some(keys), true) => keys.iter().filter(|&&key| key == now).count(),
            // Not read from the store: the plies give the same keys.
            (None, true) => self.replayed_count(now, window),
            (_, false) => 0,
        };
        kept + earlier
    }

    /// How many times the position with `key` stood on the board after the
    /// plies `from..kept_from`, replayed from the start: the keys
    /// [`Record::read_window`] would be given, counted from the plies.
    fn replayed_count(&self, key: u64, from: usize) -> usize {
        let mut pos = self.start.clone();
        let mut count = 0;
        for (i, ply) in self.plies().iter().take(self.kept_from).enumerate() {
            if i >= from && position_key(&pos) == key {
                count += 1;
            }
            let Ok(m) = ply.iccf.to_move(&pos) else {
                // The plies were read from the text the store wrote, which
                // replays; a record that does not counts what it could.
                break;
            };
            pos.play_unchecked(m);
        }
        count
    }

    /// The plies `from..to` whose positions a repetition claim would count
    /// and that were not read with the record (see [`Record::from_stored`]):
    /// the store reads their keys for [`Record::read_window`]. `None` when
    /// nothing is missing.
    pub fn window_unread(&self) -> Option<(usize, usize)> {
        self.earlier
            .is_none()
            .then_some((self.earlier_from, self.kept_from))
    }

    /// Gives the keys of the positions after the plies
    /// [`Record::window_unread`] named (each as often as it stood on the
    /// board, in any order).
    pub fn read_window(&mut self, keys: Vec<u64>) {
        self.earlier = Some(keys);
    }
}

/// The key a position is compared by for repetitions (same pieces, side to
/// move, castling rights and en-passant right), as the store keeps it.
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Displays a move number as written in a record: `12.` or `12...`.
#[derive(Debug, Clone, Copy)]
pub struct MoveNumberText(pub MoveNumber);

impl fmt::Display for MoveNumberText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.black {
            write!(f, "{}...", self.0.number)
        } else {
            write!(f, "{}.", self.0.number)
        }
    }
}

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
    let mut out = board_grid(pos);
    out.push_str("  K king, Q queen, R rook, B bishop, N knight, P pawn; upper case White\n");
    out
}

/// The diagram of [`board_diagram`] without its legend line, for a reply
/// that writes the legend in the reader's language.
pub fn board_grid(pos: &Chess) -> String {
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
        Some(end) => format!(
            "Game over: {} ({})",
            end.result_text(),
            end.termination.as_str()
        ),
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

/// The PGN `Date` tag's form (`2026.11.22`) of the UTC day of a Unix instant.
pub fn pgn_date(unix_secs: i64) -> String {
    let (y, m, d) = crate::clock::Date::of_instant(unix_secs).ymd();
    format!("{y:04}.{m:02}.{d:02}")
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
    /// The `TimeControl` tag (`10/50`, `30+3`), if the game had one.
    pub time_control: Option<String>,
    /// Days charged for each ply, written beside its ICCF form.
    pub days: Vec<u32>,
}

/// Standard PGN: the Seven Tag Roster, FEN/SetUp for a non-standard start, the
/// result and termination, SAN movetext with each move's ICCF form in a comment.
pub fn pgn(record: &Record, h: &PgnHeaders) -> String {
    let result = record.end.map_or("*", GameEnd::result_text);
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
    // The PGN standard's Mode tag: `EM` is electronic mail (`PM` paper mail).
    tag(&mut out, "Mode", "EM");
    if let Some(tc) = &h.time_control {
        // ICCF's days per moves; PGN's own form counts seconds of a
        // move-clock and has no day control.
        tag(&mut out, "TimeControl", tc);
    }
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
        match h.days.get(i) {
            Some(d) => {
                let _ = write!(movetext, "{} {{{} {d}d}} ", ply.san, ply.iccf);
            }
            None => {
                let _ = write!(movetext, "{} {{{}}} ", ply.san, ply.iccf);
            }
        }
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
    wrap_units(text.split(' ').filter(|w| !w.is_empty()), width)
}

/// Joins `units` with spaces into lines of at most `width` characters,
/// breaking only between units (a unit longer than `width` stands alone).
pub fn wrap_units<'a>(units: impl IntoIterator<Item = &'a str>, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for unit in units {
        push_unit(&mut out, unit, &mut line_len, width);
    }
    out
}

/// Appends `unit` to `out` as [`wrap_units`] places it: after a space, or
/// on a new line if the line (`line_len` characters so far) would grow
/// past `width`.
pub(crate) fn push_unit(out: &mut String, unit: &str, line_len: &mut usize, width: usize) {
    if let Some(separator) = place_unit(unit, line_len, width) {
        out.push(separator);
    }
    out.push_str(unit);
}

/// What goes before `unit` after a line of `line_len` characters so far,
/// wrapped at `width`: nothing at a line's start, a space, or a line break
/// if the line would grow past `width`. `line_len` becomes the line's
/// length with the unit on it.
pub(crate) fn place_unit(unit: &str, line_len: &mut usize, width: usize) -> Option<char> {
    // Characters, not bytes; an ASCII unit's are its bytes (counting them
    // one by one would be a tenth of writing a long game's record).
    let n = if unit.is_ascii() {
        unit.len()
    } else {
        unit.chars().count()
    };
    let separator = if *line_len == 0 {
        None
    } else if *line_len + 1 + n > width {
        *line_len = 0;
        Some('\n')
    } else {
        *line_len += 1;
        Some(' ')
    };
    *line_len += n;
    separator
}

#[cfg(test)]
mod tests {
    #[test]
    fn pgn_dates_are_the_utc_day_of_an_instant() {
        assert_eq!(super::pgn_date(0), "1970.01.01");
        assert_eq!(super::pgn_date(951_782_400), "2000.02.29");
        assert_eq!(super::pgn_date(1_795_305_600), "2026.11.22");
    }

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

    fn mv(s: &str) -> IccfMove {
        s.parse().unwrap()
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
                time_control: None,
                days: Vec::new(),
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
        // The standard's value for e-mail play; "ICCF" is no Mode value.
        assert!(text.contains("[Mode \"EM\"]"), "{text}");
        assert!(text.contains("1. f3 {6263} e5 {5755} 2. g4 {7274} Qh4# {4884} 0-1"));
    }

    #[test]
    fn replay_rebuilds_san() {
        let r = Record::replay(None, ["5254", "5755", "7163"].map(mv)).unwrap();
        let sans: Vec<_> = r.plies().iter().map(|p| p.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3"]);
    }

    #[test]
    fn replay_of_corrupt_record_is_an_error() {
        let err = Record::replay(None, ["5254", "5254"].map(mv)).unwrap_err();
        assert!(matches!(err, RecordError::BadPly { ply: 2, .. }), "{err:?}");
    }

    /// A record loaded with its first plies left as the store's text reads
    /// as the whole record: every ply, the plies from any index, the last
    /// ply, the position after an early ply, and, with a move pushed before
    /// or after all its plies were read, the record replayed.
    #[test]
    fn a_record_with_its_first_plies_unread_reads_as_the_whole_record() {
        // e4 e5 Nf3 Nc6 Bc4 Bc5, then the knights back and forth.
        let shuffle = ["6371", "3628", "7163", "2836"].iter().cycle().take(74);
        let line: Vec<IccfMove> = ["5254", "5755", "7163", "2836", "6134", "6835"]
            .iter()
            .chain(shuffle)
            .map(|m| m.parse().unwrap())
            .collect();
        let whole = Record::replay(None, line.iter().copied()).unwrap();
        let stored: Vec<String> = whole.plies()[..64]
            .iter()
            .map(|p| format!("{} {}", p.iccf, p.san.as_str()))
            .collect();
        let unread = || UnreadPlies {
            text: stored.join(","),
            count: 64,
        };
        let lazy = || {
            Record::from_stored_unread(
                START_FEN,
                unread(),
                whole.plies()[64..].to_vec(),
                Some(whole.position().clone()),
                Some(Vec::new()),
                whole.plies().len(),
            )
            .unwrap()
        };
        let r = lazy();
        assert_eq!(r.ply_count(), whole.plies().len());
        assert_eq!(r.ply(70), whole.plies().get(70));
        assert_eq!(r.plies_from(70), &whole.plies()[70..]);
        assert_eq!(r.plies_from(500), &[] as &[Ply]);
        assert_eq!(r.last_ply(), whole.plies().last());
        assert_eq!(r.next_number(), whole.next_number());
        assert_eq!(r.ply(3), whole.plies().get(3));
        assert_eq!(r.plies(), whole.plies());
        assert_eq!(
            r.position_after(10).map(|p| fen_of(&p)),
            whole.position_after(10).map(|p| fen_of(&p))
        );

        let next: IccfMove = "7163".parse().unwrap();
        let mut replayed = whole.clone();
        let m = next.to_move(replayed.position()).unwrap();
        replayed.push(next, m);
        // Pushed onto plies not read yet, and onto plies read before.
        let mut unread_then_pushed = lazy();
        unread_then_pushed.push(next, m);
        assert_eq!(unread_then_pushed.plies_from(79), &replayed.plies()[79..]);
        assert_eq!(unread_then_pushed.plies(), replayed.plies());
        let mut read_then_pushed = lazy();
        assert_eq!(read_then_pushed.plies().len(), 80);
        read_then_pushed.push(next, m);
        assert_eq!(read_then_pushed.plies(), replayed.plies());
        assert_eq!(read_then_pushed.ply_count(), 81);
    }

    /// A record loaded without the keys a claim counts (a caller that does
    /// not read them) still counts its repetitions right: the plies give
    /// them, with or without a move pushed since, and with the keys given.
    #[test]
    fn repetitions_are_counted_from_the_plies_when_the_keys_were_not_read() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        for n in 1..=12 {
            let line: Vec<&str> = shuffle.iter().cycle().take(n).copied().collect();
            let whole = played(&line);
            let plies = whole.plies().to_vec();
            let now = whole.position().clone();
            let halfmoves = usize::try_from(now.halfmoves()).unwrap();
            let from = n - halfmoves.min(n);
            let loaded = Record::from_stored(START_FEN, plies, Some(now), None, from).unwrap();
            assert_eq!(loaded.window_unread(), Some((from, n)), "{n} plies");
            assert_eq!(loaded.repetitions(), whole.repetitions(), "{n} plies");
            let next = mv(shuffle[n % 4]);
            let (mut pushed, mut whole_pushed) = (loaded.clone(), whole.clone());
            pushed.push(next, next.to_move(pushed.position()).unwrap());
            whole_pushed.push(next, next.to_move(whole_pushed.position()).unwrap());
            assert_eq!(pushed.repetitions(), whole_pushed.repetitions(), "{n}+1");
            let keys = (from..n)
                .map(|p| position_key(&whole.position_after(p).unwrap()))
                .collect();
            let mut read = loaded;
            read.read_window(keys);
            assert_eq!(read.repetitions(), whole.repetitions(), "{n} read");
        }
    }
}
