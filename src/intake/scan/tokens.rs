//! The tokenizer: one line of the player's text split at whitespace, each word
//! sorted into a move number (`12.`, `12...`), a numbered move (`12.5254`), a
//! digit run, an algebraic move, a word, or something else (a date, a time, a
//! price, a phone number glued by `-` or `+`): "something else" is never a
//! move. The line classifier (`line`) decides what the tokens mean.
//! [pure: no IO]

use crate::command::MoveNumber;
use crate::i18n::san::piece_letter;

/// Words that negate what follows; the tokenizer reads each as `not`, as it
/// reads a word ending in `n't`.
#[rustfmt::skip]
const NEGATIONS: &[&str] = &[
    "not", "never", "nicht", "nie", "niemals", "pas", "jamais", "nunca", "non", "niet", "nooit",
    "cannot", "não", "nie", "не", "nee",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
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
    /// The word before ended a clause (`,`, `;`, `:`).
    Pause,
    /// A quotation mark opened or closed here.
    Quote,
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

/// Quotation marks of the languages wildt reads (the apostrophe included:
/// inside a word it is no quote, at its edge it may be one).
const QUOTE_MARKS: &[char] = &[
    '"', '\'', '«', '»', '„', '“', '”', '‚', '‘', '’', '‹', '›', '「', '」',
];

pub(crate) fn tokenize(line: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    for raw in line.split_whitespace() {
        let head = &raw[..raw.find(char::is_alphanumeric).unwrap_or(raw.len())];
        let tail = &raw[raw
            .char_indices()
            .rfind(|(_, c)| c.is_alphanumeric())
            .map_or(0, |(i, c)| i + c.len_utf8())..];
        if head.contains(QUOTE_MARKS) {
            out.push(Tok::Quote);
        }
        word(raw, &mut out);
        if !head.is_empty() && head.len() == raw.len() {
            // Punctuation alone: its quote mark was pushed once.
            continue;
        }
        let stop = out.last() == Some(&Tok::Stop);
        if stop {
            out.pop();
        }
        if tail.contains(QUOTE_MARKS) {
            out.push(Tok::Quote);
        }
        if stop {
            out.push(Tok::Stop);
        } else if tail.contains([',', ';', ':']) {
            out.push(Tok::Pause);
        }
    }
    join_spaced_numbers(&mut out);
    out
}

/// One whitespace-separated word, as one or more tokens.
fn word(raw: &str, out: &mut Vec<Tok>) {
    {
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
        let hyphen = dehyphenate(core);
        let core = hyphen.as_deref().unwrap_or(core);
        // `...5755` after `1.`: the ellipsis makes the number Black's.
        if let Some(digits) = ["...", "…", ".."]
            .into_iter()
            .find_map(|d| core.strip_prefix(d))
            .filter(|d| (4..=5).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(Tok::Sym("...".to_owned()));
            out.push(Tok::Digits(digits.to_owned()));
            if question {
                out.push(Tok::Question);
            }
            return;
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
            return;
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
            return;
        }
        out.push(classify_word(core));
        if question {
            out.push(Tok::Question);
        }
        if ends_sentence(raw) {
            out.push(Tok::Stop);
        }
    }
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

/// `57-55`, `67-68-1` (squares joined by a hyphen, as on postcards), also after
/// a move number (`13.52-54`): the same move as `5755`, `67681`. Only digits 1
/// to 8 make a square, so dates (`12-05`), phone numbers and scores stay as
/// they are.
fn dehyphenate(core: &str) -> Option<String> {
    let n_len = core.bytes().take_while(u8::is_ascii_digit).count();
    let (prefix, rest) = match core[n_len..].find(|c: char| c != '.' && c != '…') {
        Some(dots) if n_len > 0 && n_len <= 3 && dots > 0 => core.split_at(n_len + dots),
        _ => ("", core),
    };
    let parts: Vec<&str> = rest.split(['-', '–']).collect();
    let square = |p: &str| p.len() == 2 && p.bytes().all(|b| (b'1'..=b'8').contains(&b));
    let promotion = |p: &str| p.len() == 1 && (b'1'..=b'4').contains(&p.as_bytes()[0]);
    match parts.as_slice() {
        [a, b] if square(a) && square(b) => Some(format!("{prefix}{a}{b}")),
        [a, b, p] if square(a) && square(b) && promotion(p) => Some(format!("{prefix}{a}{b}{p}")),
        _ => None,
    }
}

/// `12 ... 3746` and `12 . 5254`: a short number followed by a lone
/// ellipsis/dot; `1. ... 5755` and `1. … 5755`: White's number made Black's
/// by the ellipsis after it.
fn join_spaced_numbers(toks: &mut Vec<Tok>) {
    let mut i = 0;
    let mut out = Vec::with_capacity(toks.len());
    while i < toks.len() {
        if let (Tok::Num(n), Some(Tok::Sym(s))) = (&toks[i], toks.get(i + 1))
            && !n.black
            && s == "..."
        {
            out.push(Tok::Num(MoveNumber {
                number: n.number,
                black: true,
            }));
            i += 2;
            continue;
        }
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

/// Algebraic notation, castling included, in the piece letters of every
/// language wildt writes SAN in ([`piece_letter`]): a player pasting back
/// the record of a French mail writes `(Cf3)`, of a Russian one `(Кf3)`.
fn is_san(word: &str) -> bool {
    let w = word.trim_end_matches(['+', '#', '!', '?']);
    if matches!(
        w.to_ascii_uppercase().as_str(),
        "O-O" | "O-O-O" | "0-0" | "0-0-0"
    ) {
        return true;
    }
    // Most words of prose have no rank: they stop here.
    if w.len() < 2 || !w.bytes().any(|b| (b'1'..=b'8').contains(&b)) || w.chars().count() > 7 {
        return false;
    }
    let mut rest = w;
    if let Some(piece) = PIECES.iter().find(|p| rest.ends_with(*p)) {
        rest = &rest[..rest.len() - piece.len()];
        rest = rest.strip_suffix('=').unwrap_or(rest);
    }
    let Some(split) = rest
        .len()
        .checked_sub(2)
        .filter(|&i| rest.is_char_boundary(i))
    else {
        return false;
    };
    let (prefix, dest) = rest.split_at(split);
    let dest = dest.as_bytes();
    if !(b'a'..=b'h').contains(&dest[0]) || !(b'1'..=b'8').contains(&dest[1]) {
        return false;
    }
    // The longest letter first: Russian's king `Кр` before its knight `К`.
    let p = PIECES
        .iter()
        .filter(|p| prefix.starts_with(*p))
        .max_by_key(|p| p.len())
        .map_or(prefix, |p| &prefix[p.len()..]);
    // `exd5`, and long algebraic `e2-e4` / `e2xe4`.
    let p = p
        .strip_suffix('x')
        .or_else(|| p.strip_suffix('-'))
        .unwrap_or(p);
    match p.as_bytes() {
        [] => true,
        [f] => (b'a'..=b'h').contains(f) || (b'1'..=b'8').contains(f),
        [f, r] => (b'a'..=b'h').contains(f) && (b'1'..=b'8').contains(r),
        _ => false,
    }
}

/// Every language's piece letters ([`piece_letter`]), each once.
static PIECES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    use shakmaty::Role;
    let mut all: Vec<&'static str> = crate::i18n::Lang::ALL
        .iter()
        .flat_map(|&lang| {
            [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
            ]
            .map(|role| piece_letter(lang, role))
        })
        .collect();
    all.sort_unstable();
    all.dedup();
    all
});

#[cfg(test)]
mod tests {
    use super::super::test_support::*;

    #[test]
    fn numbered_moves_in_all_written_forms() {
        assert_eq!(play("12. 5254"), ["12.5254"]);
        assert_eq!(play("12.5254"), ["12.5254"]);
        assert_eq!(play("12... 3746"), ["12...3746"]);
        assert_eq!(play("12…3746"), ["12...3746"]);
        assert_eq!(play("12 ... 3746"), ["12...3746"]);
        assert_eq!(play("12...3746."), ["12...3746"]);
    }

    /// Regression: `1. ... 5755` was read as White's move 1 ("out of step").
    #[test]
    fn blacks_move_with_spaced_ellipsis_after_the_number() {
        assert_eq!(play("1. ... 5755"), ["1...5755"]);
        assert_eq!(play("1. … 5755"), ["1...5755"]);
        assert_eq!(play("1. ...5755"), ["1...5755"]);
        assert_eq!(play("1...5755"), ["1...5755"]);
        assert_eq!(play("1…5755"), ["1...5755"]);
        assert_eq!(play("12 … 3746"), ["12...3746"]);
    }

    /// Regression: `57-55` was "no move found".
    #[test]
    fn squares_joined_by_a_hyphen_are_a_move() {
        assert_eq!(play("57-55"), ["5755"]);
        assert_eq!(play("57–55"), ["5755"]);
        assert_eq!(play("13. 52-54"), ["13.5254"]);
        assert_eq!(play("13.52-54"), ["13.5254"]);
        assert_eq!(play("1... 57-55"), ["1...5755"]);
        assert_eq!(play("1...57-55"), ["1...5755"]);
        assert_eq!(play("40. 67-68-1"), ["40.67681"]);
        // Dates, phone numbers and scores keep their hyphens.
        assert_eq!(play("5254\n12-05-2024\n0171-5254 123\n1-0"), ["5254"]);
        assert!(matches!(unclear("12-09"), Unclear::NothingFound));
    }

    #[test]
    fn numbered_algebraic_is_algebraic() {
        assert!(matches!(unclear("1.e4"), Unclear::Algebraic { .. }));
        assert!(matches!(unclear("13... Nf6"), Unclear::Algebraic { .. }));
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

    /// Each language's SAN as wildt's mails print it: a numeric move
    /// glossed with it is read as the move, and the SAN alone is answered
    /// as algebraic notation, not as prose.
    #[test]
    fn every_languages_san_is_algebraic() {
        for (gloss, alone) in [
            ("(Cf3)", "Cf3"),
            ("(Fxb5+)", "Fb5"),
            ("(Pf3)", "Pf3"),
            ("(Jf3)", "Jf3"),
            ("(Hd1)", "Hxd8#"),
            ("(Wa1)", "Wa1"),
            ("(Кf3)", "Кf3"),
            ("(Крe2)", "Крxe2"),
            ("(Фh5)", "e8=Ф"),
        ] {
            assert_eq!(play(&format!("13. 7163 {gloss}")), ["13.7163"], "{gloss}");
            assert!(
                matches!(unclear(alone), Unclear::Algebraic { .. }),
                "{alone}"
            );
        }
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
}
