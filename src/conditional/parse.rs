//! Reading condition lines: the words of every language wildt reads for
//! "if … then", "offer/accept draw" at the end of a line and "cancel
//! conditionals", and the line grammar on top of the intake's tokenizer (the
//! same one that reads moves and move numbers in a message). [pure: no IO]
//!
//! A line is a condition line when its first word is an "if" word and it holds
//! a "then" word and a number: `if 12... 7866 then 13. 4143`. Requiring both
//! words keeps prose out ("Als Antwort auf 7866 …" is German prose, not Dutch
//! "als … dan"); once a line is a condition line, anything in it that does not
//! fit the grammar is an error quoted back, never skipped.
//!
//! ```text
//! line   := IF step (IF step)* [draw]
//! step   := move THEN move | move THEN            (the latter only before "accept draw")
//! move   := [N. | N... | N…] DIGITS | N.DIGITS | N...DIGITS
//! ```
//! Filler words ("if *you play* 7866 then *I play* 4143") may stand anywhere.

use crate::command::{MoveNumber, WrittenMove};
use crate::intake::scan::tokens::{Tok, tokenize};
use crate::notation::{IccfMove, ParseError};

use super::{
    Branch, ConditionalLine, ConditionalSet, ConditionalText, DrawAction, Reply, WrittenStep,
};

/// "if", lower-cased: English, German, French/Spanish, Italian/Portuguese,
/// Dutch, Polish, Czech, Russian (with and without diacritics).
#[rustfmt::skip]
pub(super) const IF_WORDS: &[&str] = &[
    "if", "wenn", "falls", "si", "se", "als", "jeśli", "jeżeli", "jesli", "jezeli", "pokud",
    "jestliže", "jestlize", "если",
];

/// "then", lower-cased, in the same languages.
#[rustfmt::skip]
pub(super) const THEN_WORDS: &[&str] = &[
    "then", "dann", "alors", "entonces", "allora", "dan", "então", "entao", "to", "pak", "то",
    "тогда",
];

/// Words that may stand anywhere in a condition line and mean nothing to it
/// ("if you play 7866 then I play 4143", "… and if …").
#[rustfmt::skip]
const FILLERS: &[&str] = &[
    "i", "you", "he", "she", "my", "your", "opponent", "play", "plays", "move", "moves", "reply",
    "answer", "with", "the", "a", "and",
    "ich", "du", "er", "sie", "spielt", "spielst", "spiele", "zieht", "ziehst", "ziehe", "zug",
    "und", "ein", "das",
    "je", "tu", "il", "elle", "joue", "joues", "et", "la", "le", "un",
    "yo", "juega", "juegas", "juego", "y", "las",
    "io", "gioca", "giochi", "gioco", "e",
    "ik", "hij", "zij", "speelt", "speel", "en",
    "eu", "joga", "jogas", "jogo",
    "ja", "gra", "grasz", "gram",
    "já", "hraje", "hraješ", "hraju", "hraji",
    "я", "ты", "он", "играет", "играешь", "играю", "ход", "и",
];

/// Draw phrases that may end a line, after fillers are dropped; `?` is a
/// question mark ("draw?" offers). Kept in sync with the general command list
/// in `KEYWORDS.md` for the languages both have.
#[rustfmt::skip]
const DRAW_PHRASES: &[(&[&str], DrawAction)] = &[
    // English
    (&["offer", "draw"], DrawAction::Offer),
    (&["draw", "offer"], DrawAction::Offer),
    (&["draw", "?"], DrawAction::Offer),
    (&["accept", "draw"], DrawAction::Accept),
    (&["accept", "draw", "offer"], DrawAction::Accept),
    (&["draw", "accepted"], DrawAction::Accept),
    // German
    (&["biete", "remis", "an"], DrawAction::Offer),
    (&["biete", "remis"], DrawAction::Offer),
    (&["remisangebot"], DrawAction::Offer),
    (&["remis", "?"], DrawAction::Offer),
    (&["nehme", "remis", "an"], DrawAction::Accept),
    (&["remis", "annehmen"], DrawAction::Accept),
    (&["remis", "angenommen"], DrawAction::Accept),
    // French
    (&["propose", "nulle"], DrawAction::Offer),
    (&["nulle", "?"], DrawAction::Offer),
    (&["accepte", "nulle"], DrawAction::Accept),
    (&["nulle", "acceptée"], DrawAction::Accept),
    // Spanish
    (&["ofrezco", "tablas"], DrawAction::Offer),
    (&["tablas", "?"], DrawAction::Offer),
    (&["acepto", "tablas"], DrawAction::Accept),
    (&["tablas", "aceptadas"], DrawAction::Accept),
    // Italian
    (&["offro", "patta"], DrawAction::Offer),
    (&["propongo", "patta"], DrawAction::Offer),
    (&["patta", "?"], DrawAction::Offer),
    (&["accetto", "patta"], DrawAction::Accept),
    (&["patta", "accettata"], DrawAction::Accept),
    // Dutch
    (&["bied", "remise", "aan"], DrawAction::Offer),
    (&["remise", "?"], DrawAction::Offer),
    (&["remiseaanbod"], DrawAction::Offer),
    (&["accepteer", "remise"], DrawAction::Accept),
    (&["neem", "remise", "aan"], DrawAction::Accept),
    (&["remise", "aangenomen"], DrawAction::Accept),
    // Portuguese
    (&["ofereço", "empate"], DrawAction::Offer),
    (&["proponho", "empate"], DrawAction::Offer),
    (&["empate", "?"], DrawAction::Offer),
    (&["aceito", "empate"], DrawAction::Accept),
    (&["empate", "aceito"], DrawAction::Accept),
    // Polish ("remis?" is German's phrase too)
    (&["proponuję", "remis"], DrawAction::Offer),
    (&["przyjmuję", "remis"], DrawAction::Accept),
    (&["remis", "przyjęty"], DrawAction::Accept),
    // Czech
    (&["nabízím", "remízu"], DrawAction::Offer),
    (&["remíza", "?"], DrawAction::Offer),
    (&["přijímám", "remízu"], DrawAction::Accept),
    (&["remíza", "přijata"], DrawAction::Accept),
    // Russian
    (&["предлагаю", "ничью"], DrawAction::Offer),
    (&["ничья", "?"], DrawAction::Offer),
    (&["принимаю", "ничью"], DrawAction::Accept),
    (&["ничья", "принята"], DrawAction::Accept),
];

/// "cancel", "clear" … in every language.
#[rustfmt::skip]
const CANCEL_WORDS: &[&str] = &[
    "cancel", "clear", "delete", "withdraw",
    "löschen", "lösche", "streichen", "streiche", "aufheben",
    "annuler", "annule", "annulez",
    "cancelar", "cancelo", "cancela",
    "annulla", "annullare", "annullo",
    "annuleer", "annuleren", "wis",
    "anuluj", "anuluję", "anulować",
    "zrušit", "zruš", "ruším", "zrusit",
    "отменить", "отмени", "отменяю",
];

/// "conditionals", "conditional (moves)" in every language.
#[rustfmt::skip]
const CONDITIONAL_WORDS: &[&str] = &[
    "conditionals", "conditional",
    "bedingte", "bedingten",
    "conditionnels", "conditionnel",
    "condicionales", "condicional", "condicionais",
    "condizionali", "condizionale",
    "voorwaardelijke",
    "warunkowe",
    "podmíněné", "podminene",
    "условные",
];

/// Words a cancel line may hold besides the two above ("cancel *all my*
/// conditional *moves*").
#[rustfmt::skip]
const CANCEL_FILLERS: &[&str] = &[
    "all", "my", "the", "moves", "move", "please", "i",
    "alle", "meine", "züge", "bitte", "ich",
    "tous", "mes", "les", "coups", "je",
    "todas", "todos", "mis", "las", "jugadas", "por", "favor",
    "tutte", "le", "mie", "mosse",
    "mijn", "zetten",
    "os", "meus", "lances",
    "wszystkie", "moje", "ruchy",
    "všechny", "tahy",
    "все", "мои", "ходы",
];

/// Longest line text quoted back in an error.
const MAX_QUOTE: usize = 80;

/// Why a condition line cannot be read (no position needed to say so).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("`{text}` is not a move: {error}")]
    NotAMove { text: String, error: ParseError },
    #[error("`{text}` is algebraic notation: write conditional moves in numbers, e.g. 5254")]
    Algebraic { text: String },
    #[error("`{text}` has no place in a condition: write `if <opponent's move> then <your move>`")]
    Unexpected { text: String },
    #[error("a move is missing after `if`")]
    MissingCondition,
    #[error("`then` is missing after the opponent's move")]
    MissingThen,
    #[error("your answer is missing after `then`")]
    MissingAnswer,
    #[error("a move number stands without its move")]
    NumberWithoutMove,
    #[error("a draw offer or acceptance may only end a line")]
    DrawNotAtEnd,
    #[error("a draw can only be offered together with a move")]
    OfferWithoutMove,
}

/// Why a text's conditional moves cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionalParseError {
    #[error("line {line} (`{text}`): {kind}")]
    Line {
        line: usize,
        text: String,
        kind: LineError,
    },
    /// Two lines answer the same opponent move (after the same moves before
    /// it) differently.
    #[error(
        "lines {first_line} and {second_line} answer {opponent}{} differently",
        after_text(before)
    )]
    Conflict {
        first_line: usize,
        second_line: usize,
        /// The moves both lines share before the opponent's move (opponent's
        /// and answers alternating), empty at the root.
        before: Vec<IccfMove>,
        opponent: IccfMove,
        first: Reply,
        second: Reply,
    },
    /// "cancel conditionals" and new conditions in one text: what should stay
    /// if the new set is refused is not clear, so neither is done.
    #[error(
        "line {cancel_line} cancels your conditional moves and line {set_line} sets new ones: send one or the other"
    )]
    CancelAndSet { cancel_line: usize, set_line: usize },
    #[error("your conditional moves hold {count} moves; at most {limit} are read")]
    TooManyMoves { count: usize, limit: usize },
}

fn after_text(before: &[IccfMove]) -> String {
    if before.is_empty() {
        String::new()
    } else {
        let moves: Vec<String> = before.iter().map(ToString::to_string).collect();
        format!(" after {}", moves.join(" "))
    }
}

fn short(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_QUOTE {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(MAX_QUOTE).collect();
        s.push('…');
        s
    }
}

/// A bullet or dash: `-` is a "word" to the tokenizer (it allows hyphens).
fn is_decoration(t: &Tok) -> bool {
    match t {
        Tok::Sym(_) | Tok::Stop => true,
        Tok::Word(w) => !w.chars().any(char::is_alphabetic),
        _ => false,
    }
}

fn starts_with_if(toks: &[Tok]) -> bool {
    matches!(
        toks.iter().find(|t| !is_decoration(t)),
        Some(Tok::Word(w)) if IF_WORDS.contains(&w.as_str())
    )
}

/// Starts with "if" and has a move-shaped number (4 or 5 digits) with a
/// "then" after it: "If you want to play 3 games …" stays prose.
fn is_condition(toks: &[Tok]) -> bool {
    let move_shaped = |t: &Tok| match t {
        Tok::NumMove(..) => true,
        Tok::Digits(d) => (4..=5).contains(&d.len()),
        _ => false,
    };
    starts_with_if(toks)
        && toks.iter().position(move_shaped).is_some_and(|i| {
            toks[i..]
                .iter()
                .any(|t| matches!(t, Tok::Word(w) if THEN_WORDS.contains(&w.as_str())))
        })
}

fn is_cancel(toks: &[Tok]) -> bool {
    let mut verb = false;
    let mut noun = false;
    for t in toks {
        match t {
            Tok::Word(w) if CANCEL_WORDS.contains(&w.as_str()) => verb = true,
            Tok::Word(w) if CONDITIONAL_WORDS.contains(&w.as_str()) => noun = true,
            Tok::Word(w) if CANCEL_FILLERS.contains(&w.as_str()) => {}
            t if is_decoration(t) => {}
            _ => return false,
        }
    }
    verb && noun
}

/// Whether [`parse_conditionals`] reads this line (a condition line or a
/// cancel line); the intake's scan should not read it as a move.
pub fn is_conditional_line(line: &str) -> bool {
    let toks = tokenize(line);
    is_condition(&toks) || is_cancel(&toks)
}

/// `text` without the lines [`parse_conditionals`] reads (each replaced by an
/// empty line, so line numbers stay): what the intake's move scan should read.
pub fn without_conditional_lines(text: &str) -> String {
    text.lines()
        .map(|l| if is_conditional_line(l) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

fn draw_phrase(words: &[String]) -> Option<DrawAction> {
    DRAW_PHRASES
        .iter()
        .find(|(p, _)| p.len() == words.len() && p.iter().zip(words).all(|(a, b)| a == b))
        .map(|(_, d)| *d)
}

fn parse_move(digits: &str) -> Result<IccfMove, LineError> {
    let not_a_move = |error| LineError::NotAMove {
        text: short(digits),
        error,
    };
    if digits.len() > 8 {
        return Err(not_a_move(ParseError::WrongLength {
            text: short(digits),
            count: digits.len(),
        }));
    }
    digits.parse().map_err(not_a_move)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// After `if`: the opponent's move comes next.
    Condition,
    /// After the opponent's move: `then` comes next.
    Then,
    /// After `then`: the answer (or "accept draw") comes next.
    Answer,
    /// After the answer: `if`, a draw phrase, or the end.
    After,
}

/// One condition line, after its leading `if`. A line goes through three
/// steps: each token is sorted ([`LineReader::token`]: filler, grammar word,
/// draw word, move number or error), each move advances the grammar
/// ([`LineReader::read_move`]), and the end of the line decides whether the
/// words left over are a draw phrase ([`LineReader::end`]).
fn parse_line(toks: &[Tok]) -> Result<(Vec<WrittenStep>, Option<DrawAction>), LineError> {
    // The first token that is no decoration is the `if` ([`is_condition`]).
    let start = toks
        .iter()
        .position(|t| !is_decoration(t))
        .map_or(toks.len(), |i| i + 1);
    let mut reader = LineReader {
        state: State::Condition,
        steps: Vec::new(),
        opponent: None,
        number: None,
        words: Vec::new(),
    };
    for tok in &toks[start..] {
        if let Some(written) = reader.token(tok)? {
            reader.read_move(written)?;
        }
    }
    reader.end()
}

/// A condition line being read: where in the grammar it stands and what it
/// has read so far.
struct LineReader {
    state: State,
    /// The finished `if … then …` steps.
    steps: Vec<WrittenStep>,
    /// The opponent's move of the step being read, until its answer comes.
    opponent: Option<WrittenMove>,
    /// A move number (`12...`) waiting for its move.
    number: Option<MoveNumber>,
    /// Words after `then` or after an answer. They may be a draw phrase, which
    /// is only known once the words end, so they are collected, not judged.
    words: Vec<String>,
}

impl LineReader {
    /// Sorts one token: the move it carries (with its number), or `None` when
    /// the token only moves the grammar on or is collected as a word.
    fn token(&mut self, tok: &Tok) -> Result<Option<WrittenMove>, LineError> {
        let state = self.state;
        let (num, digits) = match tok {
            Tok::Stop | Tok::Pause | Tok::Quote | Tok::Sym(_) => return Ok(None),
            t if is_decoration(t) => return Ok(None),
            Tok::Word(w) if FILLERS.contains(&w.as_str()) => return Ok(None),
            Tok::Word(w) if state == State::After && IF_WORDS.contains(&w.as_str()) => {
                if !self.words.is_empty() {
                    return Err(misplaced_words(&self.words));
                }
                self.state = State::Condition;
                return Ok(None);
            }
            Tok::Word(w) if state == State::Then && THEN_WORDS.contains(&w.as_str()) => {
                self.state = State::Answer;
                return Ok(None);
            }
            Tok::Word(w) if matches!(state, State::Answer | State::After) => {
                self.words.push(w.clone());
                return Ok(None);
            }
            Tok::Question if matches!(state, State::Answer | State::After) => {
                self.words.push("?".to_owned());
                return Ok(None);
            }
            Tok::Word(w) if state == State::Condition && THEN_WORDS.contains(&w.as_str()) => {
                return Err(LineError::MissingCondition);
            }
            Tok::Word(w) if state == State::Then && IF_WORDS.contains(&w.as_str()) => {
                return Err(LineError::MissingThen);
            }
            Tok::Word(w) => return Err(LineError::Unexpected { text: short(w) }),
            Tok::Question => return Err(LineError::Unexpected { text: "?".into() }),
            Tok::Other(o) => return Err(LineError::Unexpected { text: short(o) }),
            Tok::San(s) => return Err(LineError::Algebraic { text: short(s) }),
            Tok::Num(n) => {
                if self.number.replace(*n).is_some() {
                    return Err(LineError::NumberWithoutMove);
                }
                return Ok(None);
            }
            Tok::NumMove(n, d) => {
                if self.number.is_some() {
                    return Err(LineError::NumberWithoutMove);
                }
                (Some(*n), d.as_str())
            }
            Tok::Digits(d) => (self.number.take(), d.as_str()),
        };
        Ok(Some(WrittenMove {
            number: num,
            mv: parse_move(digits)?,
        }))
    }

    /// A move: the opponent's after `if`, the answer after `then`; anywhere
    /// else it is an error.
    fn read_move(&mut self, written: WrittenMove) -> Result<(), LineError> {
        match self.state {
            State::Condition => {
                self.opponent = Some(written);
                self.state = State::Then;
            }
            State::Answer => {
                // Words between `then` and the answer ("then accept draw
                // 4143"): a draw phrase may only end a line.
                if !self.words.is_empty() {
                    return Err(misplaced_words(&self.words));
                }
                if let Some(opponent) = self.opponent.take() {
                    self.steps.push(WrittenStep {
                        opponent,
                        answer: Some(written),
                    });
                }
                self.state = State::After;
            }
            State::Then => return Err(LineError::MissingThen),
            State::After => {
                return Err(LineError::Unexpected {
                    text: written.mv.to_string(),
                });
            }
        }
        Ok(())
    }

    /// The end of the line: the words left over must be a draw phrase, and
    /// "accept draw" may stand in place of the last answer.
    fn end(self) -> Result<(Vec<WrittenStep>, Option<DrawAction>), LineError> {
        let LineReader {
            state,
            mut steps,
            opponent,
            number,
            words,
        } = self;
        if number.is_some() {
            return Err(LineError::NumberWithoutMove);
        }
        let draw = match state {
            State::Condition => return Err(LineError::MissingCondition),
            State::Then => return Err(LineError::MissingThen),
            State::Answer => match (draw_phrase(&words), opponent) {
                (Some(DrawAction::Accept), Some(opponent)) => {
                    steps.push(WrittenStep {
                        opponent,
                        answer: None,
                    });
                    Some(DrawAction::Accept)
                }
                (Some(DrawAction::Offer), _) => return Err(LineError::OfferWithoutMove),
                _ if words.is_empty() => return Err(LineError::MissingAnswer),
                _ => return Err(unexpected_words(&words)),
            },
            State::After if words.is_empty() => None,
            State::After => match draw_phrase(&words) {
                Some(d) => Some(d),
                None => return Err(unexpected_words(&words)),
            },
        };
        Ok((steps, draw))
    }
}

/// Words that stand where they may not: a draw phrase before the line's end,
/// or words that are no draw phrase at all.
fn misplaced_words(words: &[String]) -> LineError {
    match draw_phrase(words) {
        Some(_) => LineError::DrawNotAtEnd,
        None => unexpected_words(words),
    }
}

fn unexpected_words(words: &[String]) -> LineError {
    LineError::Unexpected {
        text: short(&words.join(" ")),
    }
}

/// A node being built, with the line that made it (for conflict reports).
struct Building {
    opponent: IccfMove,
    reply: Reply,
    line: usize,
    then: Vec<Building>,
}

fn insert(
    level: &mut Vec<Building>,
    line: &ConditionalLine,
    k: usize,
    before: &mut Vec<IccfMove>,
) -> Result<(), ConditionalParseError> {
    let Some(step) = line.steps.get(k) else {
        return Ok(());
    };
    let last = k + 1 == line.steps.len();
    let reply = Reply {
        mv: step.answer.map(|a| a.mv),
        draw: if last { line.draw } else { None },
    };
    let opponent = step.opponent.mv;
    let i = match level.iter().position(|b| b.opponent == opponent) {
        Some(i) => {
            if level[i].reply != reply {
                return Err(ConditionalParseError::Conflict {
                    first_line: level[i].line,
                    second_line: line.line,
                    before: before.clone(),
                    opponent,
                    first: level[i].reply,
                    second: reply,
                });
            }
            i
        }
        None => {
            level.push(Building {
                opponent,
                reply,
                line: line.line,
                then: Vec::new(),
            });
            level.len() - 1
        }
    };
    before.push(opponent);
    before.extend(reply.mv);
    insert(&mut level[i].then, line, k + 1, before)
}

fn finish(level: Vec<Building>) -> Vec<Branch> {
    level
        .into_iter()
        .map(|b| Branch {
            opponent: b.opponent,
            reply: b.reply,
            then: finish(b.then),
        })
        .collect()
}

/// Reads the conditional moves in the player's own text (body without quotes;
/// the subject may be passed as a line too). `Ok(None)`: the text holds none.
/// At most `max_moves` moves are read over all lines (the intake's
/// `commands_per_message` limit is a fit value).
///
/// ```
/// use wildt::conditional::{parse_conditionals, ConditionalText};
///
/// let text = "12. 5254\n\
///             if 12... 7866 then 13. 4143\n\
///             if 12... 7866 then 13. 4143 if 13... 2836 then 14. 1214\n\
///             wenn 12... 2836 dann 13. 6152";
/// let Ok(Some(ConditionalText::Set(set))) = parse_conditionals(text, 600) else {
///     panic!("not a set");
/// };
/// assert_eq!(set.lines.len(), 3);
/// // The first two lines share their beginning: two branches at the root.
/// assert_eq!(set.branches.len(), 2);
/// assert_eq!(set.branches[0].then.len(), 1);
/// ```
pub fn parse_conditionals(
    text: &str,
    max_moves: usize,
) -> Result<Option<ConditionalText>, ConditionalParseError> {
    let mut lines = Vec::new();
    let mut cancel_line = None;
    let mut count = 0;
    for (i, raw) in text.lines().enumerate() {
        let toks = tokenize(raw);
        if is_cancel(&toks) {
            cancel_line.get_or_insert(i + 1);
            continue;
        }
        if !is_condition(&toks) {
            continue;
        }
        let (steps, draw) = parse_line(&toks).map_err(|kind| ConditionalParseError::Line {
            line: i + 1,
            text: short(raw),
            kind,
        })?;
        count += steps
            .iter()
            .map(|s| 1 + usize::from(s.answer.is_some()))
            .sum::<usize>();
        if count > max_moves {
            return Err(ConditionalParseError::TooManyMoves {
                count,
                limit: max_moves,
            });
        }
        lines.push(ConditionalLine {
            line: i + 1,
            text: short(raw),
            steps,
            draw,
        });
    }
    match (cancel_line, lines.first()) {
        (None, None) => Ok(None),
        (Some(_), None) => Ok(Some(ConditionalText::Cancel)),
        (Some(cancel_line), Some(first)) => Err(ConditionalParseError::CancelAndSet {
            cancel_line,
            set_line: first.line,
        }),
        (None, Some(_)) => {
            let mut root = Vec::new();
            for line in &lines {
                insert(&mut root, line, 0, &mut Vec::new())?;
            }
            Ok(Some(ConditionalText::Set(ConditionalSet {
                lines,
                branches: finish(root),
            })))
        }
    }
}
