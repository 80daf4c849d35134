//! The player's text (body without quotes, plus the subject) read as one command,
//! or the reason it cannot be. [pure: no IO]
//!
//! Two stages, per line. The tokenizer splits at whitespace and sorts each word
//! into a move number (`12.`, `12...`), a numbered move (`12.5254`), a digit run,
//! an algebraic move, a word, or something else (a date, a time, a price, a
//! phone number glued by `-` or `+`): "something else" is never a move. The
//! classifier then looks at the whole line: a line made only of moves, move
//! numbers and a few command words is a *move line* and every move on it counts;
//! in a *prose line* a number counts only when the words before it say it is a
//! move ("my move is 5254"), and a number that merely could be one is asked
//! about rather than guessed.
//!
//! Keywords (see `KEYWORDS.md`) are matched as whole words on the same tokens.

use crate::command::{Command, MoveNumber, WrittenMove};
use crate::notation::{IccfMove, ParseError};

use super::{Reading, Unclear};

/// Separate move-holding lines compared with each other; a real mail has a few.
const MAX_SEGMENTS: usize = 64;
/// Longest text quoted back in an `Unclear`.
const MAX_QUOTE: usize = 24;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// `12.`, `12...`, `12…`
    Num(MoveNumber),
    /// `12.5254`, `12...3746`
    NumMove(MoveNumber, String),
    Digits(String),
    /// `Nf3`, `exd5`, `O-O`, `e8=Q`
    San(String),
    /// Lower-cased letters only; `n't` and friends become `not`.
    Word(String),
    /// A trailing or lone `?` (as in "draw?").
    Question,
    /// Currency and the like, standing alone.
    Sym(String),
    /// Anything mixed: `17:45`, `12.05.2024`, `+49`, `€5254`, `0171-5254`.
    Other(String),
    /// The word before ended a sentence (`.`, `!`, `?`).
    Stop,
}

fn number(n: &str, dots: &str) -> Option<MoveNumber> {
    let number: u32 = n.parse().ok()?;
    Some(MoveNumber {
        number,
        black: dots != ".",
    })
}

/// Splits `12...3746` into (`12`, `...`, `3746`); `None` if it is not that shape.
fn split_numbered(core: &str) -> Option<(&str, &str, &str)> {
    let n_len = core.bytes().take_while(u8::is_ascii_digit).count();
    if n_len == 0 || n_len > 3 {
        return None;
    }
    let rest = &core[n_len..];
    let dots = ["...", "…", ".."]
        .into_iter()
        .find(|d| rest.starts_with(d))
        .or_else(|| rest.starts_with('.').then_some("."))?;
    let after = &rest[dots.len()..];
    (after.bytes().all(|b| b.is_ascii_digit()) || is_san(after)).then_some((
        &core[..n_len],
        dots,
        after,
    ))
}

const LEADING_PUNCT: &[char] = &[
    '¿', '¡', '(', '[', '{', '"', '\'', '«', '„', '“', '‘', '*', '_', '<',
];
const TRAILING_PUNCT: &[char] = &[
    ')', ']', '}', '"', '\'', '»', '”', '’', '“', '*', '_', '>', ',', ';', '!', ':',
];

fn tokenize(line: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    for raw in line.split_whitespace() {
        let mut core = raw.trim_start_matches(LEADING_PUNCT);
        let mut question = false;
        loop {
            let before = core.len();
            core = core.trim_end_matches(TRAILING_PUNCT);
            if let Some(c) = core.strip_suffix('?') {
                core = c;
                question = true;
            }
            if core.len() == before {
                break;
            }
        }
        if let Some(tok) = numbered(core) {
            out.push(tok);
            if question {
                out.push(Tok::Question);
            }
            // `12.` is a move number, not a full stop; `12.5254.` ends a sentence.
            if matches!(out.last(), Some(Tok::NumMove(..))) && ends_sentence(raw) {
                out.push(Tok::Stop);
            }
            continue;
        }
        let core = core.trim_end_matches(['.', '…']);
        if core.is_empty() {
            let sym = raw.trim_matches(|c: char| c == '?');
            if question || raw.contains('?') {
                out.push(Tok::Question);
            } else if matches!(raw, "..." | "…" | "..") {
                out.push(Tok::Sym("...".to_owned()));
            } else if !sym.is_empty() {
                out.push(Tok::Sym(sym.to_owned()));
            }
            continue;
        }
        out.push(classify_word(core));
        if question {
            out.push(Tok::Question);
        }
        if ends_sentence(raw) {
            out.push(Tok::Stop);
        }
    }
    join_spaced_numbers(&mut out);
    out
}

fn ends_sentence(raw: &str) -> bool {
    raw.trim_end_matches([')', ']', '"', '\'', '»', '”', '*', '_'])
        .ends_with(['.', '!', '?', '…'])
}

/// `12.`, `12...` (a move number) or `12.5254`, `12...3746.` (a numbered move).
fn numbered(core: &str) -> Option<Tok> {
    if let Some((n, dots, "")) = split_numbered(core) {
        return number(n, dots).map(Tok::Num);
    }
    let (n, dots, after) = split_numbered(core.trim_end_matches(['.', '…']))?;
    if after.is_empty() {
        return None;
    }
    let num = number(n, dots)?;
    if is_san(after) {
        // `1.e4`: algebraic, with its number.
        return Some(Tok::San(after.to_owned()));
    }
    Some(if (4..=5).contains(&after.len()) {
        Tok::NumMove(num, after.to_owned())
    } else {
        Tok::Other(core.to_owned())
    })
}

fn classify_word(core: &str) -> Tok {
    if core.bytes().all(|b| b.is_ascii_digit()) {
        return Tok::Digits(core.to_owned());
    }
    if is_san(core) {
        return Tok::San(core.to_owned());
    }
    let lower = core.to_lowercase().replace('’', "'");
    if lower.ends_with("n't") || NEGATIONS.contains(&lower.as_str()) {
        return Tok::Word("not".to_owned());
    }
    // `j'abandonne`, `l'échiquier`: the part after the apostrophe is the word.
    let word = lower.rsplit('\'').next().unwrap_or_default();
    if !word.is_empty() && word.chars().all(|c| c.is_alphabetic() || c == '-') {
        return Tok::Word(word.to_owned());
    }
    if core.chars().count() == 1 && !core.chars().all(char::is_alphanumeric) {
        return Tok::Sym(core.to_owned());
    }
    Tok::Other(core.to_owned())
}

/// `12 ... 3746` and `12 . 5254`: a short number followed by a lone ellipsis/dot.
fn join_spaced_numbers(toks: &mut Vec<Tok>) {
    let mut i = 0;
    let mut out = Vec::with_capacity(toks.len());
    while i < toks.len() {
        if let (Tok::Digits(d), Some(Tok::Sym(s))) = (&toks[i], toks.get(i + 1))
            && d.len() <= 3
            && (s == "..." || s == ".")
            && let Some(num) = number(d, s)
        {
            out.push(Tok::Num(num));
            i += 2;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    *toks = out;
}

/// Algebraic notation (English and German piece letters), castling included.
fn is_san(word: &str) -> bool {
    let w = word.trim_end_matches(['+', '#', '!', '?']);
    if matches!(
        w.to_ascii_uppercase().as_str(),
        "O-O" | "O-O-O" | "0-0" | "0-0-0"
    ) {
        return true;
    }
    let b = w.as_bytes();
    if b.len() < 2 || b.len() > 7 {
        return false;
    }
    let mut rest = b;
    if let Some((&last, init)) = rest.split_last()
        && b"QRBNDTLS".contains(&last)
    {
        rest = init.strip_suffix(b"=").unwrap_or(init);
    }
    let Some((dest, prefix)) = rest.split_last_chunk::<2>().map(|(p, d)| (d, p)) else {
        return false;
    };
    if !(b'a'..=b'h').contains(&dest[0]) || !(b'1'..=b'8').contains(&dest[1]) {
        return false;
    }
    let mut p = prefix;
    if let Some((&first, tail)) = p.split_first()
        && b"KQRBNDTLS".contains(&first)
    {
        p = tail;
    }
    // `exd5`, and long algebraic `e2-e4` / `e2xe4`.
    let p = p
        .strip_suffix(b"x")
        .or_else(|| p.strip_suffix(b"-"))
        .unwrap_or(p);
    match p {
        [] => true,
        [f] => (b'a'..=b'h').contains(f) || (b'1'..=b'8').contains(f),
        [f, r] => (b'a'..=b'h').contains(f) && (b'1'..=b'8').contains(r),
        _ => false,
    }
}

#[rustfmt::skip]
const NEGATIONS: &[&str] = &[
    "not", "never", "nicht", "nie", "niemals", "pas", "jamais", "nunca", "non", "niet", "nooit",
    "cannot",
];

/// Words a move line may hold besides moves and numbers (lower-cased).
#[rustfmt::skip]
const LINE_WORDS: &[&str] = &[
    // English
    "my", "move", "moves", "is", "i", "play", "playing", "reply", "answer", "and", "next",
    "now", "here", "it", "s", "ok", "okay", "please", "then", "with", "game", "the", "a",
    "so", "also", "plus", "am", "will", "castling", "castle", "castles",
    // German
    "mein", "meine", "zug", "ich", "spiele", "ziehe", "antwort", "und", "partie", "spiel",
    "nun", "jetzt", "bitte", "hier", "ist", "rochade",
    // French
    "mon", "coup", "je", "joue", "et", "est", "voici", "réponse", "roque",
    // Spanish
    "mi", "jugada", "juego", "juega", "movimiento", "y", "es", "partida", "aquí", "enroque",
    // Italian, Dutch
    "mossa", "gioco", "mio", "zet", "speel", "mijn",
];

/// Words that, shortly before a number in a sentence, say it is the move.
#[rustfmt::skip]
const MOVE_INTENT: &[&str] = &[
    "move", "play", "playing", "reply", "answer", "zug", "spiele", "ziehe", "antwort", "coup",
    "joue", "réponse", "jugada", "juego", "movimiento", "mossa", "gioco", "zet", "speel",
    "castling", "castle", "castles", "rochade", "roque", "enroque", "promote", "promotes",
];

/// Words that, shortly before a number, say it is the opponent's move (an echo
/// in prose: "after your 5755 I play 7163").
#[rustfmt::skip]
const ECHO_CONTEXT: &[&str] = &[
    "your", "you", "yours", "dein", "deine", "deinen", "ihr", "ihren", "votre", "ton", "tu",
    "su", "vuestro", "opponent", "gegner",
];

/// Words that make the number next to them something else (a game, a phone).
#[rustfmt::skip]
const NON_MOVE_BEFORE: &[&str] = &[
    "game", "partie", "partida", "partita", "spiel", "tel", "phone", "fax", "mobile", "mob",
    "mobil", "handy", "tél", "telefon", "telefono", "teléfono", "cell", "page", "seite", "room",
    "zimmer", "year", "jahr", "nr", "no", "number", "ext", "plz", "zip",
];
#[rustfmt::skip]
const CURRENCY: &[&str] = &[
    "€", "$", "£", "¥", "eur", "euro", "euros", "usd", "dollar", "dollars", "chf", "gbp", "kr",
    "sek", "nok", "dkk", "pln", "%", "km", "kg", "mi",
];

/// Words skipped when matching keyword phrases ("I offer *a* draw").
#[rustfmt::skip]
const FILLERS: &[&str] = &[
    "i", "a", "the", "you", "your", "to", "ich", "ein", "einen", "das", "die", "der",
    "dir", "je", "te", "vous", "la", "le", "une", "yo", "me", "las", "unas", "hereby",
    "hiermit", "please", "bitte",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimDraw,
    Status,
}

impl Kw {
    fn command(self) -> Command {
        match self {
            Kw::Resign => Command::Resign,
            Kw::OfferDraw => Command::OfferDraw,
            Kw::AcceptDraw => Command::AcceptDraw,
            Kw::DeclineDraw => Command::DeclineDraw,
            Kw::ClaimDraw => Command::ClaimDraw,
            Kw::Status => Command::Status,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kw::Resign => "resign",
            Kw::OfferDraw => "offer draw",
            Kw::AcceptDraw => "accept draw",
            Kw::DeclineDraw => "decline draw",
            Kw::ClaimDraw => "claim draw",
            Kw::Status => "status",
        }
    }
}

/// Phrases, as words after fillers are dropped; `?` stands for a question mark.
/// Kept in sync with `KEYWORDS.md`.
const PHRASES: &[(&[&str], Kw)] = &[
    // accept
    (&["accept", "draw"], Kw::AcceptDraw),
    (&["accept", "draw", "offer"], Kw::AcceptDraw),
    (&["accepts", "draw"], Kw::AcceptDraw),
    (&["draw", "accepted"], Kw::AcceptDraw),
    (&["nehme", "remis", "an"], Kw::AcceptDraw),
    (&["remis", "angenommen"], Kw::AcceptDraw),
    (&["accepte", "nulle"], Kw::AcceptDraw),
    (&["nulle", "acceptée"], Kw::AcceptDraw),
    (&["acepto", "tablas"], Kw::AcceptDraw),
    (&["tablas", "aceptadas"], Kw::AcceptDraw),
    // decline
    (&["decline", "draw"], Kw::DeclineDraw),
    (&["decline", "draw", "offer"], Kw::DeclineDraw),
    (&["declines", "draw"], Kw::DeclineDraw),
    (&["draw", "declined"], Kw::DeclineDraw),
    (&["no", "draw"], Kw::DeclineDraw),
    (&["lehne", "remis", "ab"], Kw::DeclineDraw),
    (&["kein", "remis"], Kw::DeclineDraw),
    (&["remis", "abgelehnt"], Kw::DeclineDraw),
    (&["refuse", "nulle"], Kw::DeclineDraw),
    (&["nulle", "refusée"], Kw::DeclineDraw),
    (&["rechazo", "tablas"], Kw::DeclineDraw),
    (&["no", "tablas"], Kw::DeclineDraw),
    (&["tablas", "rechazadas"], Kw::DeclineDraw),
    // claim
    (&["claim", "draw"], Kw::ClaimDraw),
    (&["claims", "draw"], Kw::ClaimDraw),
    (&["draw", "claim"], Kw::ClaimDraw),
    (&["beanspruche", "remis"], Kw::ClaimDraw),
    (&["reklamiere", "remis"], Kw::ClaimDraw),
    (&["réclame", "nulle"], Kw::ClaimDraw),
    (&["reclamo", "tablas"], Kw::ClaimDraw),
    // offer
    (&["offer", "draw"], Kw::OfferDraw),
    (&["offers", "draw"], Kw::OfferDraw),
    (&["draw", "offer"], Kw::OfferDraw),
    (&["draw", "offered"], Kw::OfferDraw),
    (&["draw", "?"], Kw::OfferDraw),
    (&["biete", "remis", "an"], Kw::OfferDraw),
    (&["biete", "remis"], Kw::OfferDraw),
    (&["remisangebot"], Kw::OfferDraw),
    (&["remis", "?"], Kw::OfferDraw),
    (&["propose", "nulle"], Kw::OfferDraw),
    (&["nulle", "?"], Kw::OfferDraw),
    (&["ofrezco", "tablas"], Kw::OfferDraw),
    (&["tablas", "?"], Kw::OfferDraw),
    // resign
    (&["resign"], Kw::Resign),
    (&["resigns"], Kw::Resign),
    (&["aufgeben"], Kw::Resign),
    (&["gebe", "auf"], Kw::Resign),
    (&["abandonne"], Kw::Resign),
    (&["abandono"], Kw::Resign),
    (&["rindo"], Kw::Resign),
    // status: only on a line of its own (see `read_line`)
    (&["show", "board"], Kw::Status),
    (&["status"], Kw::Status),
    (&["board"], Kw::Status),
    (&["brett"], Kw::Status),
    (&["stellung"], Kw::Status),
    (&["échiquier"], Kw::Status),
    (&["tablero"], Kw::Status),
];

/// Draw words that alone do not say offer, accept or decline.
#[rustfmt::skip]
const VAGUE_DRAW: &[&str] = &[
    "draw", "remis", "nulle", "tablas",
];

/// Everything one line contributed.
#[derive(Debug, Default)]
struct Findings {
    segments: Vec<Vec<WrittenMove>>,
    not_moves: Vec<(String, ParseError)>,
    algebraic: Vec<String>,
    in_prose: Vec<String>,
    keywords: Vec<Kw>,
    vague: Option<String>,
    uncertain: Option<String>,
    moves_seen: usize,
}

/// Reads the player's body text and subject (already without wildt's own
/// subject and reply prefixes) as one command. A text with more than
/// `max_commands` moves and command words is not read at all.
pub(super) fn decide(body: &str, subject: Option<&str>, max_commands: usize) -> Reading {
    let mut f = Findings::default();
    for line in subject.into_iter().chain(body.lines()) {
        read_line(line, &mut f);
        let count = f.moves_seen + f.keywords.len();
        if count > max_commands {
            return Reading::Unclear(Unclear::TooManyCommands {
                count,
                limit: max_commands,
            });
        }
    }
    conclude(f)
}

fn short(text: &str) -> String {
    if text.chars().count() <= MAX_QUOTE {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(MAX_QUOTE).collect();
        s.push('…');
        s
    }
}

/// Parses a digit run; over-long runs are not handed to the parser whole, so
/// that the error quoted back stays short.
fn parse_move(digits: &str) -> Result<IccfMove, ParseError> {
    if digits.len() > 8 {
        return Err(ParseError::WrongLength {
            text: short(digits),
            count: digits.len(),
        });
    }
    digits.parse()
}

fn word_at(toks: &[Tok], i: usize) -> Option<&str> {
    match toks.get(i) {
        Some(Tok::Word(w)) | Some(Tok::Sym(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// The token before `i`, looking through a full stop ("Tel. 5254").
fn before(toks: &[Tok], i: usize) -> Option<usize> {
    let j = i.checked_sub(1)?;
    match toks[j] {
        Tok::Stop => j.checked_sub(1),
        _ => Some(j),
    }
}

/// Indices of digit tokens that belong to a phone number: two or more number
/// groups in a row where one is glued with `+ - / ( )` or starts with 0 or has a
/// length no move has.
fn phone_digits(toks: &[Tok]) -> Vec<bool> {
    let mut phone = vec![false; toks.len()];
    let is_group = |t: &Tok| match t {
        Tok::Digits(_) => true,
        Tok::Other(o) => {
            o.bytes().any(|b| b.is_ascii_digit())
                && o.bytes()
                    .all(|b| b.is_ascii_digit() || b"+-/()".contains(&b))
        }
        _ => false,
    };
    let mut i = 0;
    while i < toks.len() {
        if !is_group(&toks[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < toks.len() && is_group(&toks[i]) {
            i += 1;
        }
        let run = &toks[start..i];
        let glued_or_leading_zero = run.iter().any(|t| match t {
            Tok::Digits(d) => d.starts_with('0'),
            _ => true,
        });
        let short_group = run
            .iter()
            .any(|t| matches!(t, Tok::Digits(d) if !(4..=5).contains(&d.len())));
        // `13 5254` (a move number without its dot) is two groups, not a phone.
        let phone_like =
            run.len() >= 2 && (glued_or_leading_zero || (run.len() >= 3 && short_group));
        if phone_like {
            phone[start..i].iter_mut().for_each(|p| *p = true);
        }
    }
    phone
}

fn read_line(line: &str, f: &mut Findings) {
    let toks = tokenize(line);
    if toks.is_empty() {
        return;
    }
    let phone = phone_digits(&toks);
    let prose = toks.iter().any(|t| match t {
        Tok::Word(w) => !LINE_WORDS.contains(&w.as_str()) && !is_keyword_word(w),
        Tok::Other(_) => true,
        _ => false,
    });
    read_keywords(line, &toks, prose, f);

    let mut segment: Vec<WrittenMove> = Vec::new();
    let mut pending: Option<MoveNumber> = None;
    let mut algebraic = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        let (num, digits) = match tok {
            Tok::Num(n) => {
                pending = Some(*n);
                continue;
            }
            Tok::NumMove(n, d) => (Some(*n), d.as_str()),
            Tok::Digits(d) => (pending, d.as_str()),
            Tok::San(s) => {
                algebraic.push(s.clone());
                continue;
            }
            _ => continue,
        };
        pending = None;
        // `12. 5. 2024`: a date written with spaces, not move 5 and `2024`.
        let spaced_date = is_year(digits)
            && i >= 2
            && matches!(toks[i - 1], Tok::Num(_))
            && matches!(toks[i - 2], Tok::Num(_));
        if phone[i] || spaced_date || beside_non_move_word(&toks, i) {
            continue;
        }
        if digits.len() < 4 {
            // A move number written without its dot (`13 5254`) is skipped,
            // not guessed into a number; a lone three-digit number on a move
            // line is most likely a move with a digit missing, so it is
            // answered as not-a-move rather than ignored.
            let before_move = matches!(toks.get(i + 1), Some(Tok::Digits(d)) if d.len() >= 4);
            if !prose && !before_move && digits.len() == 3 {
                f.not_moves.push((digits.to_owned(), parse_err(digits)));
            }
            continue;
        }
        if prose && num.is_none() {
            match prose_role(&toks, i) {
                ProseRole::Echo => continue,
                ProseRole::Intended => {}
                ProseRole::Unknown if standalone(&toks, i) => {}
                ProseRole::Unknown => {
                    // A four-digit number is asked about even when it is not a
                    // valid move ("until 1520" may hold a slip of the pen);
                    // years, and five-digit postal codes, pass unasked.
                    let asked = match parse_move(digits) {
                        Ok(_) => true,
                        Err(_) => digits.len() == 4 && !is_year(digits),
                    };
                    if asked {
                        f.in_prose.push(short(digits));
                    }
                    continue;
                }
            }
        }
        match parse_move(digits) {
            Ok(mv) => {
                f.moves_seen += 1;
                let written = WrittenMove { number: num, mv };
                // `5254 5254` is one move written twice, not a record.
                let repeated = segment
                    .last()
                    .is_some_and(|l| l.mv == mv && (num.is_none() || l.number == num));
                if !repeated {
                    segment.push(written);
                }
            }
            Err(e) => f.not_moves.push((short(digits), e)),
        }
    }
    if !segment.is_empty() {
        f.segments.push(segment);
    } else if !prose && !algebraic.is_empty() {
        f.algebraic.extend(algebraic);
    }
}

/// 1900–2099: a year in prose, never a move (both contain a 0 or 9 square digit).
fn is_year(digits: &str) -> bool {
    digits.len() == 4 && (digits.starts_with("19") || digits.starts_with("20"))
}

fn parse_err(digits: &str) -> ParseError {
    match parse_move(digits) {
        Err(e) => e,
        Ok(_) => ParseError::WrongLength {
            text: short(digits),
            count: digits.len(),
        },
    }
}

/// The number is a sentence of its own: "Thanks! 5254" (but not "until 1520").
fn standalone(toks: &[Tok], i: usize) -> bool {
    let starts = i == 0 || matches!(toks[i - 1], Tok::Stop);
    let ends = matches!(
        toks.get(i + 1),
        None | Some(Tok::Stop) | Some(Tok::Question)
    );
    starts && ends
}

enum ProseRole {
    Echo,
    Intended,
    Unknown,
}

/// What the words just before a number in a sentence say it is.
fn prose_role(toks: &[Tok], i: usize) -> ProseRole {
    let before = |n: usize| {
        toks[i.saturating_sub(n)..i]
            .iter()
            .filter_map(|t| match t {
                Tok::Word(w) => Some(w.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    if before(3).iter().any(|w| ECHO_CONTEXT.contains(w)) {
        return ProseRole::Echo;
    }
    if before(4).iter().any(|w| MOVE_INTENT.contains(w)) {
        return ProseRole::Intended;
    }
    ProseRole::Unknown
}

/// A game number ("game 1717"), a phone ("Tel 5254 1234"), a price ("5254 EUR").
fn beside_non_move_word(toks: &[Tok], i: usize) -> bool {
    let p1 = before(toks, i);
    let p2 = p1.and_then(|j| before(toks, j));
    let prev = p1.and_then(|j| word_at(toks, j));
    let prev2 = p2.and_then(|j| word_at(toks, j));
    let next = word_at(toks, i + 1);
    let after_sym_or_digits = p1.is_some_and(|j| matches!(toks[j], Tok::Digits(_) | Tok::Sym(_)));
    prev.is_some_and(|w| NON_MOVE_BEFORE.contains(&w) || CURRENCY.contains(&w) || w == "#")
        || (prev2.is_some_and(|w| NON_MOVE_BEFORE.contains(&w)) && after_sym_or_digits)
        || next.is_some_and(|w| CURRENCY.contains(&w))
}

fn is_keyword_word(w: &str) -> bool {
    PHRASES.iter().any(|(p, _)| p.contains(&w)) || FILLERS.contains(&w) || w == "not"
}

fn read_keywords(line: &str, toks: &[Tok], prose: bool, f: &mut Findings) {
    let words: Vec<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Word(w) if !FILLERS.contains(&w.as_str()) => Some(w.as_str()),
            Tok::Question => Some("?"),
            _ => None,
        })
        .collect();
    let mut used = vec![false; words.len()];
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let best = PHRASES
            .iter()
            .filter(|(p, _)| words[i..].starts_with(p))
            .max_by_key(|(p, _)| p.len());
        match best {
            Some((p, kw)) => {
                // "the board looks sharp" is prose, not a request for the board.
                if *kw != Kw::Status || !prose {
                    found.push(*kw);
                    used[i..i + p.len()].iter_mut().for_each(|u| *u = true);
                }
                i += p.len();
            }
            None => i += 1,
        }
    }
    let leftover =
        |pred: &dyn Fn(&str) -> bool| words.iter().zip(&used).any(|(w, u)| !u && pred(w));
    // Binding commands are taken only when plainly given: "I won't resign",
    // "not offering a draw", "should I resign?" are asked about.
    let binding = |k: &Kw| matches!(k, Kw::Resign | Kw::AcceptDraw | Kw::ClaimDraw);
    let negated =
        found.iter().any(|k| binding(k) || *k == Kw::OfferDraw) && leftover(&|w| w == "not");
    let questioned = found.iter().any(binding) && leftover(&|w| w == "?");
    if negated || questioned {
        f.uncertain.get_or_insert_with(|| short(line.trim()));
        return;
    }
    if !prose && leftover(&|w| VAGUE_DRAW.contains(&w)) {
        f.vague.get_or_insert_with(|| short(line.trim()));
    }
    f.keywords.extend(found);
}

fn conclude(f: Findings) -> Reading {
    let unclear = Reading::Unclear;
    if let Some(text) = f.uncertain {
        return unclear(Unclear::Uncertain { text });
    }
    let line = match merge(f.segments) {
        Ok(line) => line,
        Err(found) => return unclear(Unclear::SeveralMoves { found }),
    };
    if let Some((text, error)) = f.not_moves.into_iter().next() {
        return unclear(Unclear::NotAMove { text, error });
    }
    if let Some(last) = line.last() {
        let in_line = |t: &String| line.iter().any(|w| w.mv.to_string() == *t);
        if let Some(text) = f.in_prose.into_iter().find(|t| !in_line(t)) {
            return unclear(Unclear::NumberInProse { text });
        }
        if let Some(text) = f.vague {
            return unclear(Unclear::VagueDraw { text });
        }
        let mut offer_draw = false;
        let mut others = Vec::new();
        for kw in &f.keywords {
            match kw {
                Kw::OfferDraw => offer_draw = true,
                // The reply to a move shows the board anyway, and moving
                // declines a pending draw offer anyway.
                Kw::Status | Kw::DeclineDraw => {}
                other => {
                    if !others.contains(&other.name().to_owned()) {
                        others.push(other.name().to_owned());
                    }
                }
            }
        }
        if !others.is_empty() {
            let mut found = vec![super::written_move_text(last)];
            found.extend(others);
            return unclear(Unclear::MixedCommands { found });
        }
        return Reading::Command(Command::Play { line, offer_draw });
    }
    if let Some(text) = f.algebraic.into_iter().next() {
        return unclear(Unclear::Algebraic { text });
    }
    if let Some(text) = f.in_prose.into_iter().next() {
        return unclear(Unclear::NumberInProse { text });
    }
    let mut kinds: Vec<Kw> = Vec::new();
    for kw in f.keywords {
        if !kinds.contains(&kw) {
            kinds.push(kw);
        }
    }
    match kinds.as_slice() {
        [] => match f.vague {
            Some(text) => unclear(Unclear::VagueDraw { text }),
            None => unclear(Unclear::NothingFound),
        },
        [kw] => Reading::Command(kw.command()),
        _ => unclear(Unclear::MixedCommands {
            found: kinds.iter().map(|k| k.name().to_owned()).collect(),
        }),
    }
}

/// `S` is contained in `T` as a contiguous run, numbers agreeing where `S` has one.
fn contained(s: &[WrittenMove], t: &[WrittenMove]) -> bool {
    s.len() <= t.len()
        && t.windows(s.len()).any(|w| {
            w.iter()
                .zip(s)
                .all(|(a, b)| a.mv == b.mv && (b.number.is_none() || a.number == b.number))
        })
}

/// The plies of a run of moves are consecutive (where numbers say so).
fn consistent(moves: &[WrittenMove]) -> bool {
    let mut prev: Option<u64> = None;
    for w in moves {
        let ply = w
            .number
            .map(|n| u64::from(n.number) * 2 + u64::from(n.black));
        match (prev, ply) {
            (Some(p), Some(q)) if q != p + 1 => return false,
            (Some(p), _) => prev = Some(p + 1),
            (None, q) => prev = q,
        }
    }
    true
}

/// Joins the move-holding lines into one line, or lists the moves that cannot
/// be one record.
fn merge(segments: Vec<Vec<WrittenMove>>) -> Result<Vec<WrittenMove>, Vec<String>> {
    let distinct = |segs: &[Vec<WrittenMove>]| {
        let mut found: Vec<String> = Vec::new();
        for w in segs.iter().flatten() {
            let t = w.mv.to_string();
            if !found.contains(&t) {
                found.push(t);
            }
            if found.len() >= 8 {
                break;
            }
        }
        found
    };
    if segments.len() > MAX_SEGMENTS {
        return Err(distinct(&segments));
    }
    // Drop lines repeated elsewhere (the move in subject and body; "13. 5254"
    // under a full record).
    let mut kept: Vec<Vec<WrittenMove>> = Vec::new();
    for (i, s) in segments.iter().enumerate() {
        let covered = segments.iter().enumerate().any(|(j, t)| {
            j != i && contained(s, t) && (t.len() > s.len() || (t.len() == s.len() && j < i))
        });
        if !covered {
            kept.push(s.clone());
        }
    }
    let several = || Err(distinct(&kept));
    match kept.len() {
        0 => Ok(Vec::new()),
        1 => {
            if consistent(&kept[0]) {
                Ok(kept.remove(0))
            } else {
                several()
            }
        }
        _ => {
            // Separate lines join into one record only when numbers tie them
            // together: `12... 3746` then `13. 5254`, or a long record wrapped
            // by the mail client (a line may then start with Black's move).
            // `5254` then `7163`, or `5254` then `13. 7163`, are two moves.
            let numbered = |s: &[WrittenMove]| s.iter().any(|w| w.number.is_some());
            let joinable = kept.iter().enumerate().all(|(k, s)| match k {
                0 => numbered(s),
                _ => {
                    s[0].number.is_some()
                        || (numbered(s) && s.len() >= 2)
                        || (s.len() >= 2 && kept[k - 1].len() >= 2 && numbered(&kept[k - 1]))
                }
            });
            if !joinable {
                return several();
            }
            let line: Vec<WrittenMove> = kept.concat();
            if consistent(&line) {
                Ok(line)
            } else {
                several()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default `[limits] commands_per_message`.
    const TEST_LIMIT: usize = crate::intake::DEFAULT_MAX_COMMANDS;

    fn play(text: &str) -> Vec<String> {
        match decide(text, None, TEST_LIMIT) {
            Reading::Command(Command::Play { line, .. }) => {
                line.iter().map(super::super::written_move_text).collect()
            }
            other => panic!("expected a move in {text:?}, got {other:?}"),
        }
    }

    fn unclear(text: &str) -> Unclear {
        match decide(text, None, TEST_LIMIT) {
            Reading::Unclear(u) => u,
            other => panic!("expected unclear for {text:?}, got {other:?}"),
        }
    }

    fn command(text: &str) -> Command {
        match decide(text, None, TEST_LIMIT) {
            Reading::Command(c) => c,
            other => panic!("expected a command for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn lone_move_is_played() {
        assert_eq!(play("Hi Ben,\n\n5254\n\nAnna"), ["5254"]);
    }

    #[test]
    fn numbered_moves_in_all_written_forms() {
        assert_eq!(play("12. 5254"), ["12.5254"]);
        assert_eq!(play("12.5254"), ["12.5254"]);
        assert_eq!(play("12... 3746"), ["12...3746"]);
        assert_eq!(play("12…3746"), ["12...3746"]);
        assert_eq!(play("12 ... 3746"), ["12...3746"]);
        assert_eq!(play("12...3746."), ["12...3746"]);
    }

    #[test]
    fn record_line_keeps_every_move_and_number() {
        assert_eq!(
            play("1. 5254 5755 2. 7163 2836 3. 6125"),
            ["1.5254", "5755", "2.7163", "2836", "3.6125"]
        );
    }

    #[test]
    fn echo_and_move_on_separate_lines_join() {
        assert_eq!(play("12... 3746\n13. 5254"), ["12...3746", "13.5254"]);
    }

    #[test]
    fn record_wrapped_by_the_mail_client_is_one_line() {
        let text = "1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 2514 7866 5. 5171 6857 6. 6151\n2725 7. 1423 4746 8. 3233 5878";
        let line = play(text);
        assert_eq!(line.len(), 16);
        assert_eq!(line.last().map(String::as_str), Some("5878"));
    }

    #[test]
    fn unnumbered_move_before_a_numbered_one_is_several_moves() {
        assert!(matches!(
            unclear("5254\n13. 7163"),
            Unclear::SeveralMoves { .. }
        ));
        assert!(matches!(
            unclear("13. 5254\n7163"),
            Unclear::SeveralMoves { .. }
        ));
    }

    #[test]
    fn promotion_move_has_five_digits() {
        assert_eq!(play("40. 67682"), ["40.67682"]);
    }

    #[test]
    fn move_written_twice_on_a_line_is_one_move() {
        assert_eq!(play("5254 5254"), ["5254"]);
        assert_eq!(play("13. 5254 5254"), ["13.5254"]);
    }

    #[test]
    fn two_different_moves_are_several_moves() {
        assert!(matches!(
            unclear("5254\n\n7163"),
            Unclear::SeveralMoves { .. }
        ));
        assert!(matches!(
            unclear("13. 5254 13. 7163"),
            Unclear::SeveralMoves { .. }
        ));
    }

    #[test]
    fn subject_and_body_with_different_moves_are_several_moves() {
        let r = decide("13. 7163", Some("Game 17: 13. 5254"), TEST_LIMIT);
        assert!(
            matches!(r, Reading::Unclear(Unclear::SeveralMoves { .. })),
            "{r:?}"
        );
    }

    #[test]
    fn same_move_in_subject_and_body_is_one_move() {
        let r = decide("12... 3746 13. 5254", Some("13. 5254"), TEST_LIMIT);
        let Reading::Command(Command::Play { line, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(line.len(), 2);
    }

    #[test]
    fn game_number_in_subject_is_not_a_move() {
        let r = decide("", Some("Game 1717: 13. 5254"), TEST_LIMIT);
        let Reading::Command(Command::Play { line, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            line.iter()
                .map(super::super::written_move_text)
                .collect::<Vec<_>>(),
            ["13.5254"]
        );
    }

    #[test]
    fn phone_number_is_not_a_move() {
        assert_eq!(play("5254\nAnna\n+49 30 5254 1234"), ["5254"]);
        assert_eq!(play("5254\nMobil: 0171-5254 123"), ["5254"]);
        assert_eq!(play("5254\nTel. 030 5254 1234"), ["5254"]);
        assert!(matches!(unclear("+49 30 5254 1234"), Unclear::NothingFound));
    }

    #[test]
    fn dates_times_and_prices_are_not_moves() {
        assert_eq!(play("5254\n2024-05-12\n12.05.2024\n17:45"), ["5254"]);
        assert_eq!(play("5254\nBerlin, den 12. 5. 2024"), ["5254"]);
        assert_eq!(play("5254\n12. 5. 2024"), ["5254"]);
        assert_eq!(play("5254\nthe book costs €5254 or 5254 EUR"), ["5254"]);
        assert!(matches!(
            unclear("See you at 17:45 on 12.05.2024"),
            Unclear::NothingFound
        ));
    }

    #[test]
    fn year_with_nine_in_prose_is_ignored() {
        assert_eq!(play("I learned chess in 1985.\n13. 5254"), ["13.5254"]);
    }

    #[test]
    fn number_in_prose_is_asked_about() {
        assert_eq!(
            unclear("I'll be away until 1520"),
            Unclear::NumberInProse {
                text: "1520".into()
            }
        );
        assert!(matches!(
            unclear("I'll be away until 1520\n13. 5254"),
            Unclear::NumberInProse { .. }
        ));
    }

    #[test]
    fn move_announced_in_prose_is_accepted() {
        assert_eq!(
            play("Thanks for the quick reply, my move is 5254."),
            ["5254"]
        );
        assert_eq!(play("After your 5755 I play 7163."), ["7163"]);
    }

    #[test]
    fn nine_or_zero_makes_a_lone_number_not_a_move() {
        let u = unclear("5259");
        assert!(
            matches!(&u, Unclear::NotAMove { text, error: ParseError::NotASquare { .. } } if text == "5259"),
            "{u:?}"
        );
        assert!(matches!(unclear("2024"), Unclear::NotAMove { .. }));
    }

    #[test]
    fn algebraic_move_is_not_converted() {
        for t in [
            "Nf3", "e4", "O-O", "exd5", "e8=Q", "13. Nf3", "Qxe7+", "e2-e4", "Ng1-f3",
        ] {
            assert!(matches!(unclear(t), Unclear::Algebraic { .. }), "{t}");
        }
        // With the numeric move beside it, the algebraic is a gloss.
        assert_eq!(play("13. 5254 (e4)"), ["13.5254"]);
    }

    #[test]
    fn keywords_in_english() {
        assert_eq!(command("I resign."), Command::Resign);
        assert_eq!(command("Resigns"), Command::Resign);
        assert_eq!(command("I offer a draw"), Command::OfferDraw);
        assert_eq!(command("draw?"), Command::OfferDraw);
        assert_eq!(command("Draw offer"), Command::OfferDraw);
        assert_eq!(command("I accept the draw"), Command::AcceptDraw);
        assert_eq!(command("Draw accepted."), Command::AcceptDraw);
        assert_eq!(command("No draw"), Command::DeclineDraw);
        assert_eq!(command("decline draw"), Command::DeclineDraw);
        assert_eq!(command("I claim a draw"), Command::ClaimDraw);
        assert_eq!(command("status"), Command::Status);
        assert_eq!(command("Show board"), Command::Status);
    }

    /// Every example in the user-facing word list is read as its row says.
    #[test]
    fn keywords_md_examples_are_understood() {
        let doc = include_str!("KEYWORDS.md");
        let mut checked = 0;
        for row in doc.lines().filter(|l| l.starts_with("| ")) {
            let mut cells = row.split('|').map(str::trim).filter(|c| !c.is_empty());
            let want = match cells.next() {
                Some("resign") => Command::Resign,
                Some("offer a draw") => Command::OfferDraw,
                Some("accept a draw") => Command::AcceptDraw,
                Some("decline a draw") => Command::DeclineDraw,
                Some("claim a draw") => Command::ClaimDraw,
                Some("show the board") => Command::Status,
                _ => continue,
            };
            for cell in cells {
                for example in cell.split('`').skip(1).step_by(2) {
                    assert_eq!(command(example), want, "{example}");
                    checked += 1;
                }
            }
        }
        assert!(
            checked >= 40,
            "only {checked} examples found in KEYWORDS.md"
        );
    }

    /// Every move example in the user-facing word list is read as a move.
    #[test]
    fn keywords_md_move_examples_are_moves() {
        let doc = include_str!("KEYWORDS.md");
        let moves = doc
            .split("### Moves")
            .nth(1)
            .and_then(|rest| rest.split("###").next())
            .unwrap_or_default();
        let mut checked = 0;
        for row in moves.lines().filter(|l| l.starts_with("| `")) {
            let first = row.split('|').nth(1).unwrap_or_default();
            for example in first.split('`').skip(1).step_by(2) {
                assert!(!play(example).is_empty(), "{example}");
                checked += 1;
            }
        }
        assert!(
            checked >= 15,
            "only {checked} move examples found in KEYWORDS.md"
        );
    }

    #[test]
    fn keywords_in_german_french_spanish() {
        assert_eq!(command("Ich gebe auf."), Command::Resign);
        assert_eq!(command("J'abandonne"), Command::Resign);
        assert_eq!(command("Abandono"), Command::Resign);
        assert_eq!(command("Remis?"), Command::OfferDraw);
        assert_eq!(command("nulle ?"), Command::OfferDraw);
        assert_eq!(command("¿Tablas?"), Command::OfferDraw);
        assert_eq!(command("Remis angenommen"), Command::AcceptDraw);
        assert_eq!(command("Kein Remis"), Command::DeclineDraw);
    }

    #[test]
    fn move_with_draw_offer_is_one_command() {
        assert_eq!(
            decide("13. 5254 draw?", None, TEST_LIMIT),
            Reading::Command(Command::Play {
                line: vec![WrittenMove {
                    number: Some(MoveNumber {
                        number: 13,
                        black: false
                    }),
                    mv: "5254".parse().unwrap()
                }],
                offer_draw: true
            })
        );
    }

    #[test]
    fn move_as_its_own_sentence_in_prose_is_accepted() {
        assert_eq!(play("Thanks! 5254"), ["5254"]);
        assert_eq!(play("Thanks for the move. 5254."), ["5254"]);
        assert!(matches!(
            unclear("Thanks, 5254 then"),
            Unclear::NumberInProse { .. }
        ));
    }

    #[test]
    fn move_with_declined_draw_is_played() {
        assert_eq!(play("Draw declined. 13. 5254"), ["13.5254"]);
    }

    #[test]
    fn postal_code_with_zero_is_not_asked_about() {
        assert_eq!(
            play("13. 5254\n\nAnna Schmidt\nHauptstr. 12\n10115 Berlin"),
            ["13.5254"]
        );
    }

    #[test]
    fn numbered_algebraic_is_algebraic() {
        assert!(matches!(unclear("1.e4"), Unclear::Algebraic { .. }));
        assert!(matches!(unclear("13... Nf6"), Unclear::Algebraic { .. }));
    }

    #[test]
    fn move_and_resign_are_mixed_commands() {
        assert!(matches!(
            unclear("5254\nI resign"),
            Unclear::MixedCommands { .. }
        ));
        assert!(matches!(
            unclear("accept draw\nno draw"),
            Unclear::MixedCommands { .. }
        ));
    }

    #[test]
    fn resignation_in_a_question_is_asked_about() {
        assert!(matches!(
            unclear("Should I resign?"),
            Unclear::Uncertain { .. }
        ));
        assert!(matches!(
            unclear("Draw accepted?"),
            Unclear::Uncertain { .. }
        ));
        // The question mark is the offer itself here.
        assert_eq!(command("Draw?"), Command::OfferDraw);
    }

    #[test]
    fn negated_resignation_is_asked_about() {
        assert!(matches!(
            unclear("I won't resign!"),
            Unclear::Uncertain { .. }
        ));
        assert!(matches!(
            unclear("Ich gebe nicht auf"),
            Unclear::NothingFound | Unclear::Uncertain { .. }
        ));
    }

    #[test]
    fn bare_draw_is_vague() {
        assert!(matches!(unclear("Draw."), Unclear::VagueDraw { .. }));
    }

    #[test]
    fn board_in_prose_is_not_a_status_request() {
        assert_eq!(play("The board looks sharp now.\n13. 5254"), ["13.5254"]);
    }

    #[test]
    fn keyword_must_be_a_whole_word() {
        assert!(matches!(
            unclear("I am resigned to a long game"),
            Unclear::NothingFound
        ));
        assert!(matches!(unclear("drawing room"), Unclear::NothingFound));
    }

    #[test]
    fn nothing_found_in_greetings() {
        assert_eq!(
            unclear("Hi Ben,\nthanks for the game!\nAnna"),
            Unclear::NothingFound
        );
    }

    #[test]
    fn huge_digit_run_is_quoted_back_short() {
        let digits = "5".repeat(100_000);
        match unclear(&digits) {
            Unclear::NotAMove { text, .. } => assert!(text.chars().count() <= MAX_QUOTE + 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn more_commands_than_the_limit_are_not_read() {
        // Exactly at the limit a whole record is still read (and judged later)...
        let record = "5254 5755 ".repeat(TEST_LIMIT / 2);
        assert!(matches!(
            decide(&record, None, TEST_LIMIT),
            Reading::Command(_)
        ));
        // ...one more command word and the message is not read at all.
        let over = format!("{record}\ndraw?");
        assert_eq!(
            decide(&over, None, TEST_LIMIT),
            Reading::Unclear(Unclear::TooManyCommands {
                count: TEST_LIMIT + 1,
                limit: TEST_LIMIT
            })
        );
        // Command words count as much as moves.
        let words = "resign\n".repeat(11);
        assert!(matches!(
            decide(&words, None, 10),
            Reading::Unclear(Unclear::TooManyCommands {
                count: 11,
                limit: 10
            })
        ));
    }
}
