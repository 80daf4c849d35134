//! The line classifier: what the tokens of one line say. A line made only of
//! moves, move numbers and a few command words is a *move line* and every move
//! on it counts; in a *prose line* a number counts only when the words before
//! it say it is a move ("my move is 5254"), and a number that merely could be
//! one is asked about rather than guessed. Phone numbers, dates, prices, game
//! numbers and years are never moves. [pure: no IO]

use crate::command::{MoveNumber, WrittenMove};
use crate::notation::{IccfMove, ParseError};

use super::keywords::{
    CURRENCY, ECHO_CONTEXT, LINE_WORDS, MOVE_INTENT, NON_MOVE_BEFORE, is_keyword_word,
    read_keywords,
};
use super::tokens::Tok;
use super::{Around, Findings, short};

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

/// Reads one line's moves and command words. `around` is the sentence
/// context the line shares with its neighbours (a sentence wrapped by the mail
/// client); it only weighs command words, it adds none.
///
/// A line goes through these steps: it is judged a move line or a prose line
/// ([`is_prose`]), its command words are read, and then each number on it is
/// weighed in turn ([`LineMoves::number`]) until the line's moves are handed
/// over ([`LineMoves::finish`]).
pub(super) fn read_line(line: &str, toks: &[Tok], around: Around<'_>, f: &mut Findings) {
    if toks.is_empty() {
        return;
    }
    let prose = is_prose(toks);
    read_keywords(line, toks, around, prose, f);
    // Clause and quote marks weigh command words only.
    let toks: Vec<Tok> = toks
        .iter()
        .filter(|t| !matches!(t, Tok::Pause | Tok::Quote))
        .cloned()
        .collect();
    let mut moves = LineMoves {
        toks: &toks,
        prose,
        phone: phone_digits(&toks),
        segment: Vec::new(),
        pending: None,
        algebraic: Vec::new(),
        last_move_at: None,
    };
    for (i, tok) in toks.iter().enumerate() {
        let (num, digits) = match tok {
            Tok::Num(n) => {
                moves.pending = Some(*n);
                continue;
            }
            Tok::NumMove(n, d) => (Some(*n), d.as_str()),
            Tok::Digits(d) => (moves.pending, d.as_str()),
            Tok::San(s) => {
                moves.algebraic.push(s.clone());
                continue;
            }
            _ => continue,
        };
        moves.pending = None;
        moves.number(i, num, digits, f);
    }
    moves.finish(f);
}

/// A prose line has a word that is neither a move-line word nor a command
/// word, or a token that is neither word nor number.
fn is_prose(toks: &[Tok]) -> bool {
    toks.iter().any(|t| match t {
        Tok::Word(w) => !LINE_WORDS.contains(&w.as_str()) && !is_keyword_word(w),
        Tok::Other(_) => true,
        _ => false,
    })
}

/// The moves of one line as its numbers are weighed.
struct LineMoves<'a> {
    /// The line's tokens without clause and quote marks.
    toks: &'a [Tok],
    prose: bool,
    /// Per token: part of a phone number ([`phone_digits`]).
    phone: Vec<bool>,
    /// The moves read so far: the line's segment of the record.
    segment: Vec<WrittenMove>,
    /// A move number (`13.`) waiting for its move.
    pending: Option<MoveNumber>,
    /// Algebraic moves ("Nf3"): reported only when the line has no moves in
    /// numbers and is not prose.
    algebraic: Vec<String>,
    /// The token index of the last move read.
    last_move_at: Option<usize>,
}

impl LineMoves<'_> {
    /// Weighs the number at token `i` (`num` is its move number, if any):
    /// skipped, asked about, answered as not-a-move, or read as a move.
    fn number(&mut self, i: usize, num: Option<MoveNumber>, digits: &str, f: &mut Findings) {
        let toks = self.toks;
        // `12. 5. 2024`: a date written with spaces, not move 5 and `2024`.
        let spaced_date = is_year(digits)
            && i >= 2
            && matches!(toks[i - 1], Tok::Num(_))
            && matches!(toks[i - 2], Tok::Num(_));
        if self.phone[i] || spaced_date || beside_non_move_word(toks, i) {
            return;
        }
        if digits.len() < 4 {
            // A move number written without its dot (`13 5254`) is skipped,
            // not guessed into a number; a lone three-digit number on a move
            // line is most likely a move with a digit missing, so it is
            // answered as not-a-move rather than ignored.
            let before_move = matches!(toks.get(i + 1), Some(Tok::Digits(d)) if d.len() >= 4);
            if !self.prose && !before_move && digits.len() == 3 {
                f.not_moves.push((digits.to_owned(), parse_err(digits)));
            }
            return;
        }
        // `1. 5254 5755` inside a sentence: Black's move continues the
        // numbered record just before it.
        let continues_record = i > 0
            && self.last_move_at == Some(i - 1)
            && self.segment.last().is_some_and(|w| w.number.is_some());
        if self.prose && num.is_none() && !continues_record && !prose_allows(toks, i, digits, f) {
            return;
        }
        self.read_move(i, num, digits, f);
    }

    /// Reads the number at token `i` as a move, or answers it as not-a-move.
    fn read_move(&mut self, i: usize, num: Option<MoveNumber>, digits: &str, f: &mut Findings) {
        match parse_move(digits) {
            Ok(mv) => {
                f.moves_seen += 1;
                self.last_move_at = Some(i);
                let written = WrittenMove { number: num, mv };
                // `5254 5254` is one move written twice, not a record.
                let repeated = self
                    .segment
                    .last()
                    .is_some_and(|l| l.mv == mv && (num.is_none() || l.number == num));
                if !repeated {
                    self.segment.push(written);
                }
            }
            Err(e) => f.not_moves.push((short(digits), e)),
        }
    }

    /// Hands the line's moves over: its segment, or else, on a move line, the
    /// algebraic moves it holds (to be answered with a hint).
    fn finish(self, f: &mut Findings) {
        if !self.segment.is_empty() {
            f.segments.push(self.segment);
        } else if !self.prose && !self.algebraic.is_empty() {
            f.algebraic.extend(self.algebraic);
        }
    }
}

/// Whether a bare number in prose, at token `i`, is read as a move: when the
/// words before it say so or it stands as a sentence of its own. Otherwise a
/// number that could be a move is asked about.
fn prose_allows(toks: &[Tok], i: usize, digits: &str, f: &mut Findings) -> bool {
    match prose_role(toks, i) {
        ProseRole::Echo => false,
        ProseRole::Intended => true,
        ProseRole::Unknown if standalone(toks, i) => true,
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
            false
        }
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
    // The words just before it, in its own sentence only: "I play e4.
    // Fischer 1972!" does not announce 1972 as a move.
    let before = |n: usize| {
        let window = &toks[i.saturating_sub(n)..i];
        let sentence = window
            .iter()
            .rposition(|t| *t == Tok::Stop)
            .map_or(window, |stop| &window[stop + 1..]);
        sentence
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

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn lone_move_is_played() {
        assert_eq!(play("Hi Ben,\n\n5254\n\nAnna"), ["5254"]);
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
    fn game_number_in_subject_is_not_a_move() {
        let r = decide("", Some("Game 1717: 13. 5254"), TEST_LIMIT);
        let Reading::Command(Command::Play { line, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            line.iter()
                .map(crate::intake::written_move_text)
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
    fn year_with_nine_in_prose_is_ignored() {
        assert_eq!(play("I learned chess in 1985.\n13. 5254"), ["13.5254"]);
    }

    #[test]
    fn a_move_word_in_the_sentence_before_does_not_make_a_year_a_move() {
        assert_eq!(play("Since 1999 I play e4. Fischer 1972!\n5254"), ["5254"]);
        // In the same sentence it still does: a slip of the pen is answered.
        assert!(matches!(
            unclear("My move is 1972"),
            Unclear::NotAMove { .. }
        ));
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
    fn move_as_its_own_sentence_in_prose_is_accepted() {
        assert_eq!(play("Thanks! 5254"), ["5254"]);
        assert_eq!(play("Thanks for the move. 5254."), ["5254"]);
        assert!(matches!(
            unclear("Thanks, 5254 then"),
            Unclear::NumberInProse { .. }
        ));
    }

    #[test]
    fn postal_code_with_zero_is_not_asked_about() {
        assert_eq!(
            play("13. 5254\n\nAnna Schmidt\nHauptstr. 12\n10115 Berlin"),
            ["13.5254"]
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
}
