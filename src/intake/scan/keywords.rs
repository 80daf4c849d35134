//! The words wildt knows, in every language it reads: the command phrases
//! (resign, the draw commands, status) and the words the line classifier
//! weighs around a number (move words, echo words, fillers, units). Negations
//! are read by the tokenizer, which turns each into the word `not`.
//! Keywords are matched as whole words on the tokenizer's tokens. The accepted
//! words are listed for players in `KEYWORDS.md`; keep the two in sync.
//! [pure: no IO]
//!
//! A phrase maps straight to the [`Command`] it asks for: every command word
//! is a `Command` without data, so no enum of its own is needed.

use crate::command::Command;

use super::tokens::Tok;
use super::{Around, Findings, short};

/// Words a move line may hold besides moves and numbers (lower-cased).
#[rustfmt::skip]
pub(super) const LINE_WORDS: &[&str] = &[
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
pub(super) const MOVE_INTENT: &[&str] = &[
    "move", "play", "playing", "reply", "answer", "zug", "spiele", "ziehe", "antwort", "coup",
    "joue", "réponse", "jugada", "juego", "movimiento", "mossa", "gioco", "zet", "speel",
    "castling", "castle", "castles", "rochade", "roque", "enroque", "promote", "promotes",
];

/// Words that, shortly before a number, say it is the opponent's move (an echo
/// in prose: "after your 5755 I play 7163").
#[rustfmt::skip]
pub(super) const ECHO_CONTEXT: &[&str] = &[
    "your", "you", "yours", "dein", "deine", "deinen", "ihr", "ihren", "votre", "ton", "tu",
    "su", "vuestro", "opponent", "gegner",
];

/// Words that make the number next to them something else (a game, a phone).
#[rustfmt::skip]
pub(super) const NON_MOVE_BEFORE: &[&str] = &[
    "game", "partie", "partida", "partita", "spiel", "tel", "phone", "fax", "mobile", "mob",
    "mobil", "handy", "tél", "telefon", "telefono", "teléfono", "cell", "page", "seite", "room",
    "zimmer", "year", "jahr", "nr", "no", "number", "ext", "plz", "zip",
];

#[rustfmt::skip]
pub(super) const CURRENCY: &[&str] = &[
    "€", "$", "£", "¥", "eur", "euro", "euros", "usd", "dollar", "dollars", "chf", "gbp", "kr",
    "sek", "nok", "dkk", "pln", "%", "km", "kg", "mi",
];

/// Words skipped when matching keyword phrases ("I offer *a* draw").
#[rustfmt::skip]
const FILLERS: &[&str] = &[
    "i", "a", "the", "you", "your", "to", "ich", "ein", "einen", "das", "die", "der",
    "dir", "je", "te", "vous", "la", "le", "une", "yo", "me", "las", "unas", "hereby",
    "hiermit", "please", "bitte", "dein", "deinen", "ihr", "ihren", "votre",
    // the speaker and articles of Italian, Dutch, Portuguese, Polish, Czech, Russian
    "io", "ik", "eu", "ja", "já", "я", "een", "het", "o", "um", "uma",
];

/// The name a command word is reported under when a text mixes commands.
pub(super) fn name(command: &Command) -> &'static str {
    match command {
        Command::Resign => "resign",
        Command::OfferDraw => "offer draw",
        Command::AcceptDraw => "accept draw",
        Command::DeclineDraw => "decline draw",
        Command::ClaimDraw => "claim draw",
        Command::Status => "status",
        Command::XfccPassword => "xfcc password",
        // No phrase stands for a move: a mixed text quotes its move as written.
        Command::Play { .. } => "move",
    }
}

/// Phrases, as words after fillers are dropped; `?` stands for a question mark.
/// Kept in sync with `KEYWORDS.md`.
const PHRASES: &[(&[&str], Command)] = &[
    // accept
    (&["accept", "draw"], Command::AcceptDraw),
    (&["accept", "draw", "offer"], Command::AcceptDraw),
    (&["accepts", "draw"], Command::AcceptDraw),
    (&["draw", "accepted"], Command::AcceptDraw),
    (&["nehme", "remis", "an"], Command::AcceptDraw),
    (&["nehme", "remisangebot", "an"], Command::AcceptDraw),
    (&["remis", "angenommen"], Command::AcceptDraw),
    (&["accepte", "nulle"], Command::AcceptDraw),
    (&["nulle", "acceptée"], Command::AcceptDraw),
    (&["acepto", "tablas"], Command::AcceptDraw),
    (&["tablas", "aceptadas"], Command::AcceptDraw),
    (&["accetto", "patta"], Command::AcceptDraw),
    (&["patta", "accettata"], Command::AcceptDraw),
    (&["neem", "remise", "aan"], Command::AcceptDraw),
    (&["accepteer", "remise"], Command::AcceptDraw),
    (&["remise", "aangenomen"], Command::AcceptDraw),
    (&["remise", "geaccepteerd"], Command::AcceptDraw),
    (&["aceito", "empate"], Command::AcceptDraw),
    (&["empate", "aceito"], Command::AcceptDraw),
    (&["przyjmuję", "remis"], Command::AcceptDraw),
    (&["remis", "przyjęty"], Command::AcceptDraw),
    (&["přijímám", "remízu"], Command::AcceptDraw),
    (&["remíza", "přijata"], Command::AcceptDraw),
    (&["принимаю", "ничью"], Command::AcceptDraw),
    (&["ничья", "принята"], Command::AcceptDraw),
    // decline
    (&["decline", "draw"], Command::DeclineDraw),
    (&["decline", "draw", "offer"], Command::DeclineDraw),
    (&["declines", "draw"], Command::DeclineDraw),
    (&["draw", "declined"], Command::DeclineDraw),
    (&["no", "draw"], Command::DeclineDraw),
    (&["lehne", "remis", "ab"], Command::DeclineDraw),
    (&["kein", "remis"], Command::DeclineDraw),
    (&["remis", "abgelehnt"], Command::DeclineDraw),
    (&["refuse", "nulle"], Command::DeclineDraw),
    (&["nulle", "refusée"], Command::DeclineDraw),
    (&["rechazo", "tablas"], Command::DeclineDraw),
    (&["no", "tablas"], Command::DeclineDraw),
    (&["tablas", "rechazadas"], Command::DeclineDraw),
    (&["rifiuto", "patta"], Command::DeclineDraw),
    (&["patta", "rifiutata"], Command::DeclineDraw),
    (&["weiger", "remise"], Command::DeclineDraw),
    (&["remise", "geweigerd"], Command::DeclineDraw),
    (&["geen", "remise"], Command::DeclineDraw),
    (&["recuso", "empate"], Command::DeclineDraw),
    (&["empate", "recusado"], Command::DeclineDraw),
    (&["odrzucam", "remis"], Command::DeclineDraw),
    (&["remis", "odrzucony"], Command::DeclineDraw),
    (&["odmítám", "remízu"], Command::DeclineDraw),
    (&["remíza", "odmítnuta"], Command::DeclineDraw),
    (&["отклоняю", "ничью"], Command::DeclineDraw),
    (&["ничья", "отклонена"], Command::DeclineDraw),
    // claim
    (&["claim", "draw"], Command::ClaimDraw),
    (&["claims", "draw"], Command::ClaimDraw),
    (&["draw", "claim"], Command::ClaimDraw),
    (&["beanspruche", "remis"], Command::ClaimDraw),
    (&["reklamiere", "remis"], Command::ClaimDraw),
    (&["réclame", "nulle"], Command::ClaimDraw),
    (&["reclamo", "tablas"], Command::ClaimDraw),
    (&["richiedo", "patta"], Command::ClaimDraw),
    (&["reclamo", "patta"], Command::ClaimDraw),
    (&["claim", "remise"], Command::ClaimDraw),
    (&["remise", "claimen"], Command::ClaimDraw),
    (&["reivindico", "empate"], Command::ClaimDraw),
    (&["reclamo", "empate"], Command::ClaimDraw),
    (&["reklamuję", "remis"], Command::ClaimDraw),
    (&["reklamuji", "remízu"], Command::ClaimDraw),
    (&["требую", "ничью"], Command::ClaimDraw),
    // offer
    (&["offer", "draw"], Command::OfferDraw),
    (&["offers", "draw"], Command::OfferDraw),
    (&["draw", "offer"], Command::OfferDraw),
    (&["draw", "offered"], Command::OfferDraw),
    (&["draw", "?"], Command::OfferDraw),
    (&["biete", "remis", "an"], Command::OfferDraw),
    (&["biete", "remis"], Command::OfferDraw),
    (&["remisangebot"], Command::OfferDraw),
    (&["remis", "?"], Command::OfferDraw),
    (&["propose", "nulle"], Command::OfferDraw),
    (&["nulle", "?"], Command::OfferDraw),
    (&["ofrezco", "tablas"], Command::OfferDraw),
    (&["tablas", "?"], Command::OfferDraw),
    (&["propongo", "patta"], Command::OfferDraw),
    (&["offro", "patta"], Command::OfferDraw),
    (&["patta", "?"], Command::OfferDraw),
    (&["bied", "remise", "aan"], Command::OfferDraw),
    (&["remise", "aanbieden"], Command::OfferDraw),
    (&["remise", "?"], Command::OfferDraw),
    (&["proponho", "empate"], Command::OfferDraw),
    (&["ofereço", "empate"], Command::OfferDraw),
    (&["empate", "?"], Command::OfferDraw),
    (&["proponuję", "remis"], Command::OfferDraw),
    (&["nabízím", "remízu"], Command::OfferDraw),
    (&["remíza", "?"], Command::OfferDraw),
    (&["remízu", "?"], Command::OfferDraw),
    (&["предлагаю", "ничью"], Command::OfferDraw),
    (&["ничья", "?"], Command::OfferDraw),
    (&["ничью", "?"], Command::OfferDraw),
    // resign
    (&["resign"], Command::Resign),
    (&["resigns"], Command::Resign),
    (&["aufgeben"], Command::Resign),
    (&["gebe", "auf"], Command::Resign),
    (&["gebe", "partie", "auf"], Command::Resign),
    (&["gebe", "spiel", "auf"], Command::Resign),
    (&["abandonne"], Command::Resign),
    (&["abandono"], Command::Resign),
    (&["rindo"], Command::Resign),
    (&["abbandono"], Command::Resign),
    (&["arrendo"], Command::Resign),
    (&["opgeven"], Command::Resign),
    (&["geef", "op"], Command::Resign),
    (&["geef", "partij", "op"], Command::Resign),
    (&["desisto"], Command::Resign),
    (&["poddaję", "się"], Command::Resign),
    (&["poddaję"], Command::Resign),
    (&["poddaję", "partię"], Command::Resign),
    (&["vzdávám"], Command::Resign),
    (&["vzdávám", "se"], Command::Resign),
    (&["vzdávám", "partii"], Command::Resign),
    (&["сдаюсь"], Command::Resign),
    // status: only on a line of its own (see `read_line`)
    (&["show", "board"], Command::Status),
    (&["status"], Command::Status),
    (&["board"], Command::Status),
    (&["brett"], Command::Status),
    (&["stellung"], Command::Status),
    (&["échiquier"], Command::Status),
    (&["tablero"], Command::Status),
    (&["scacchiera"], Command::Status),
    (&["stelling"], Command::Status),
    (&["bord"], Command::Status),
    (&["tabuleiro"], Command::Status),
    (&["szachownica"], Command::Status),
    (&["šachovnice"], Command::Status),
    (&["доска"], Command::Status),
    // a new Xfcc password: only on a line of its own, like status
    (&["xfcc", "password"], Command::XfccPassword),
    (&["xfcc", "passwort"], Command::XfccPassword),
    (&["xfcc", "mot", "de", "passe"], Command::XfccPassword),
    (&["xfcc", "contraseña"], Command::XfccPassword),
    (&["xfcc", "wachtwoord"], Command::XfccPassword),
    (&["xfcc", "senha"], Command::XfccPassword),
    (&["xfcc", "hasło"], Command::XfccPassword),
    (&["xfcc", "heslo"], Command::XfccPassword),
    (&["xfcc", "пароль"], Command::XfccPassword),
];

/// Draw words that alone do not say offer, accept or decline.
#[rustfmt::skip]
const VAGUE_DRAW: &[&str] = &[
    "draw", "remis", "nulle", "tablas", "patta", "remise", "empate", "remíza", "remízu", "ничья",
    "ничью",
];

pub(super) fn is_keyword_word(w: &str) -> bool {
    PHRASES.iter().any(|(p, _)| p.contains(&w)) || FILLERS.contains(&w) || w == "not"
}

/// More command phrases than this in one sentence are not weighed one by one.
const MAX_PHRASES_PER_SENTENCE: usize = 8;

/// Commands that cannot be undone: taken only from an unmistakable statement.
fn binding(k: &Command) -> bool {
    matches!(
        k,
        Command::Resign | Command::AcceptDraw | Command::ClaimDraw
    )
}

/// Words that make a sentence conditional or reported speech: a command that
/// cannot be undone is never taken from such a sentence.
#[rustfmt::skip]
const NOT_A_STATEMENT: &[&str] = &[
    // conditions
    "if", "unless", "otherwise", "whether", "when", "once", "until", "wenn", "falls", "sofern",
    "sonst", "ob", "bevor", "si", "sinon", "quand", "lorsque", "se", "als", "tenzij", "mits",
    "hvis", "om", "jos", "qualora", "caso", "jeśli", "jeżeli", "gdy", "jestli", "pokud",
    "když", "если", "когда",
    // reported speech
    "said", "says", "say", "wrote", "writes", "write", "told", "tell", "sagte", "sagt", "sagen",
    "schrieb", "schreibt", "meinte", "dit", "écrit", "dijo", "dice", "escribió", "detto",
    "scritto", "scrisse", "zei", "schreef", "disse", "escreveu", "powiedział", "napisał",
    "řekl", "napsal", "сказал", "написал",
];

/// The only words besides the phrase itself that the clause of a command that
/// cannot be undone may hold: the speaker, articles, the game, "hereby".
/// Anything else ("you should", "he", "would", "want") may make it a sentence
/// about someone else or about a wish, and is asked about.
#[rustfmt::skip]
const STATEMENT_WORDS: &[&str] = &[
    // the speaker
    "i", "ich", "je", "yo", "me", "io", "ik", "jeg", "jag", "minä", "eu", "ja", "já", "я",
    // articles and determiners
    "a", "an", "the", "this", "my", "der", "die", "das", "den", "dem", "ein", "eine", "einen",
    "diese", "dieses", "meine", "la", "le", "les", "l", "un", "une", "cette", "ma", "el", "los",
    "las", "una", "esta", "mi", "il", "lo", "questa", "het", "de", "deze", "mijn", "een", "o",
    "um", "uma", "tuto", "tę", "эту",
    // the game
    "game", "partie", "spiel", "partida", "partita", "match", "hiermit", "hereby", "herewith",
    "partij", "partię", "partii", "партию", "nu", "agora", "teraz", "teď", "ted", "сейчас",
    "now", "jetzt", "nun", "maintenant", "ahora", "gladly", "gerne", "gern", "volontiers",
    "ok", "okay",
    // a claim's reason
    "by", "threefold", "repetition", "fifty", "move", "moves", "rule", "wegen",
    "stellungswiederholung", "dreifacher", "dreimaliger", "par", "répétition", "triple", "por",
    "repetición", "50-move", "fifty-move", "50-zug-regel", "50-züge-regel", "regel",
];

/// The opponent's offer may be named when accepting it ("I accept your draw
/// offer").
#[rustfmt::skip]
const OFFER_OWNER: &[&str] = &[
    "your", "yours", "dein", "deine", "deinen", "ihr", "ihre", "ihren", "votre", "ton", "ta",
    "tu", "su", "vuestro", "uw", "je",
];

/// Whether the command `kw`, matched at `range` of `sentence`, is said
/// unmistakably: no quotation, condition or reported speech in the sentence,
/// and its clause (between commas, semicolons, colons) holds nothing but the
/// phrase, the speaker, articles, the game and moves.
fn unmistakable(sentence: &[Tok], range: std::ops::Range<usize>, kw: &Command) -> bool {
    // The phrase's own words are not conditions: Czech `vzdávám se`
    // ("I resign") holds `se`, which is "if" in Italian and Portuguese.
    let outside = || {
        sentence.iter().enumerate().filter_map(|(i, t)| match t {
            Tok::Word(w) if !range.contains(&i) => Some(w.as_str()),
            _ => None,
        })
    };
    if sentence.contains(&Tok::Quote) || outside().any(|w| NOT_A_STATEMENT.contains(&w)) {
        return false;
    }
    let start = sentence[..range.start]
        .iter()
        .rposition(|t| *t == Tok::Pause)
        .map_or(0, |i| i + 1);
    let end = sentence[range.end..]
        .iter()
        .position(|t| *t == Tok::Pause)
        .map_or(sentence.len(), |i| range.end + i);
    sentence[start..end].iter().all(|t| match t {
        Tok::Word(w) => {
            let w = w.as_str();
            STATEMENT_WORDS.contains(&w)
                || (*kw == Command::AcceptDraw && OFFER_OWNER.contains(&w))
                || PHRASES.iter().any(|(p, k)| k == kw && p.contains(&w))
        }
        // A move beside a claim: `80. 5242 claim draw`.
        Tok::Num(_) | Tok::NumMove(..) | Tok::Digits(_) | Tok::Sym(_) => true,
        // A smiley or a dash (`I resign :-(`), or `50-move` in a claim.
        Tok::Other(o) => {
            !o.chars().any(char::is_alphanumeric)
                || STATEMENT_WORDS.contains(&o.to_lowercase().as_str())
        }
        _ => false,
    })
}

/// Finds the command phrases of one line, sentence by sentence. `around`
/// holds the parts of sentences the line shares with its neighbours (a
/// wrapped sentence): they weigh the commands found here but add none.
pub(super) fn read_keywords(
    line: &str,
    toks: &[Tok],
    around: Around<'_>,
    prose: bool,
    f: &mut Findings,
) {
    let sentences: Vec<&[Tok]> = toks.split(|t| *t == Tok::Stop).collect();
    let last = sentences.len() - 1;
    for (k, own) in sentences.iter().enumerate() {
        let before = if k == 0 { around.before } else { &[] };
        let after = if k == last { around.after } else { &[] };
        let sentence: Vec<Tok> = [before, own, after].concat();
        read_sentence(
            line,
            &sentence,
            before.len()..before.len() + own.len(),
            around.subject,
            prose,
            f,
        );
    }
}

/// Reads the phrases of `sentence[own]`; the rest of `sentence` is context.
fn read_sentence(
    line: &str,
    sentence: &[Tok],
    own: std::ops::Range<usize>,
    subject: bool,
    prose: bool,
    f: &mut Findings,
) {
    // Words for matching: fillers and negations dropped, `?` kept; each with
    // its index in `sentence`.
    let words: Vec<(usize, &str)> = sentence
        .iter()
        .enumerate()
        .filter(|(i, _)| own.contains(i))
        .filter_map(|(i, t)| match t {
            Tok::Word(w) if !FILLERS.contains(&w.as_str()) && w != "not" => Some((i, w.as_str())),
            Tok::Question => Some((i, "?")),
            _ => None,
        })
        .collect();
    let texts: Vec<&str> = words.iter().map(|(_, w)| *w).collect();
    let mut used = vec![false; words.len()];
    let mut found: Vec<(Command, std::ops::Range<usize>)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let best = PHRASES
            .iter()
            .filter(|(p, _)| texts[i..].starts_with(p))
            .max_by_key(|(p, _)| p.len());
        match best {
            Some((p, kw)) => {
                // "the board looks sharp" is prose, not a request for the board.
                if !matches!(kw, Command::Status | Command::XfccPassword) || !prose {
                    let range = words[i].0..words[i + p.len() - 1].0 + 1;
                    found.push((kw.clone(), range));
                    used[i..i + p.len()].iter_mut().for_each(|u| *u = true);
                }
                i += p.len();
            }
            None => i += 1,
        }
    }
    // Every command word counts towards the message's limit, taken or not.
    f.words_seen += found.len();
    if found.is_empty() {
        if !prose && texts.iter().any(|w| VAGUE_DRAW.contains(w)) {
            f.vague.get_or_insert_with(|| short(line.trim()));
        }
        return;
    }
    let negated = sentence
        .iter()
        .any(|t| matches!(t, Tok::Word(w) if w == "not"));
    let mut in_phrase = vec![false; sentence.len()];
    for ((j, _), _) in words.iter().zip(&used).filter(|(_, u)| **u) {
        in_phrase[*j] = true;
    }
    let questioned = sentence
        .iter()
        .zip(&in_phrase)
        .any(|(t, p)| *t == Tok::Question && !p);
    // No real sentence holds more than a few commands; judging each against
    // its clause would cost the square of a huge one.
    let crowded = found.len() > MAX_PHRASES_PER_SENTENCE;
    let mut uncertain = false;
    let mut keep = Vec::new();
    for (kw, range) in found {
        let offer = kw == Command::OfferDraw;
        if binding(&kw) && subject {
            // A subject is carried along a thread and names a topic ("I
            // resign from the club committee"): it never resigns, accepts
            // or claims.
            f.subject_binding.get_or_insert_with(|| short(line.trim()));
        } else if ((binding(&kw) || offer) && negated)
            || (binding(&kw) && (questioned || crowded || !unmistakable(sentence, range, &kw)))
        {
            uncertain = true;
        } else {
            keep.push(kw);
        }
    }
    if uncertain {
        f.uncertain.get_or_insert_with(|| short(line.trim()));
        return;
    }
    let leftover = words
        .iter()
        .zip(&used)
        .any(|((_, w), u)| !u && VAGUE_DRAW.contains(w));
    if !prose && leftover {
        f.vague.get_or_insert_with(|| short(line.trim()));
    }
    f.keywords.extend(keep);
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

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
        let doc = include_str!("../KEYWORDS.md");
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
        let doc = include_str!("../KEYWORDS.md");
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

    /// The examples of "Commands that cannot be undone" in `KEYWORDS.md`: the
    /// first rule's are taken, the second rule's are asked about.
    #[test]
    fn keywords_md_irreversible_examples_are_read_as_documented() {
        let doc = include_str!("../KEYWORDS.md");
        let section = doc
            .split("### Commands that cannot be undone")
            .nth(1)
            .and_then(|rest| rest.split("###").next())
            .unwrap_or_default();
        let rules: Vec<&str> = section
            .split("\n\n")
            .find(|p| p.starts_with("- "))
            .unwrap_or_default()
            .split("\n- ")
            .collect();
        assert!(rules.len() >= 2, "{section}");
        let examples = |rule: &str| -> Vec<String> {
            rule.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        };
        let taken = examples(rules[0]);
        for text in &taken {
            assert!(
                matches!(command(text), Command::Resign | Command::AcceptDraw),
                "{text}"
            );
        }
        let asked = examples(rules[1]);
        for text in &asked {
            assert!(matches!(unclear(text), Unclear::Uncertain { .. }), "{text}");
        }
        assert!(taken.len() >= 9 && !asked.is_empty(), "{taken:?} {asked:?}");
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
    fn keywords_in_italian_dutch_portuguese_polish_czech_russian() {
        for (text, want) in [
            ("Abbandono.", Command::Resign),
            ("Mi arrendo", Command::Resign),
            ("Ik geef op.", Command::Resign),
            ("Desisto", Command::Resign),
            ("Poddaję się.", Command::Resign),
            ("Vzdávám se.", Command::Resign),
            ("Сдаюсь.", Command::Resign),
            ("Patta?", Command::OfferDraw),
            ("Ik bied remise aan", Command::OfferDraw),
            ("Ofereço empate", Command::OfferDraw),
            ("Remíza?", Command::OfferDraw),
            ("Предлагаю ничью", Command::OfferDraw),
            ("Accetto patta", Command::AcceptDraw),
            ("Ik neem remise aan", Command::AcceptDraw),
            ("Empate aceito", Command::AcceptDraw),
            ("Przyjmuję remis.", Command::AcceptDraw),
            ("Přijímám remízu", Command::AcceptDraw),
            ("Принимаю ничью", Command::AcceptDraw),
            ("Geen remise", Command::DeclineDraw),
            ("Отклоняю ничью", Command::DeclineDraw),
            ("Reklamuji remízu", Command::ClaimDraw),
            ("Требую ничью", Command::ClaimDraw),
            ("Szachownica", Command::Status),
        ] {
            assert_eq!(command(text), want, "{text}");
        }
    }

    /// The rule for commands that cannot be undone holds in the new
    /// languages too: a question, a condition, a negation or reported
    /// speech is asked about.
    #[test]
    fn irreversible_words_of_the_new_languages_need_a_plain_statement() {
        for text in [
            "Abbandono?",
            "Se vuoi, abbandono.",
            "Als je wilt, geef ik op.",
            "Não desisto.",
            "Jeśli chcesz, poddaję się.",
            "Pokud chceš, vzdávám se.",
            "Он сказал: сдаюсь.",
            "Если хочешь, принимаю ничью.",
            "Nie przyjmuję remis.",
        ] {
            assert!(
                matches!(unclear(text), Unclear::Uncertain { .. }),
                "{text}: {:?}",
                decide(text, None, TEST_LIMIT)
            );
        }
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
                offer_draw: true,
                claim_draw: false,
            })
        );
    }

    #[test]
    fn move_with_declined_draw_is_played() {
        assert_eq!(play("Draw declined. 13. 5254"), ["13.5254"]);
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
            Unclear::Uncertain { .. }
        ));
        assert!(matches!(
            unclear("I will not resign."),
            Unclear::Uncertain { .. }
        ));
    }

    /// Regression: each of these ended the game by resignation.
    #[test]
    fn resignation_from_prose_is_asked_about() {
        for text in [
            "You should resign.",
            "Resign if you want, I am playing on.",
            "Sie sollten aufgeben.",
            "He resigned? No: White resigns.",
            "If you offer a draw, I accept the draw.",
            "Er schrieb: ich gebe auf.",
            "He said I resign",
            "I would resign in your place.",
            "Ich möchte aufgeben.",
        ] {
            assert!(
                matches!(unclear(text), Unclear::Uncertain { .. }),
                "{text}: {:?}",
                decide(text, None, TEST_LIMIT)
            );
        }
    }

    #[test]
    fn quoted_command_is_asked_about() {
        for text in [
            "The word \"resign\" is not in my vocabulary",
            "He wrote “I resign.”",
            "„Ich gebe auf“ sagt man nicht.",
            "'resign'",
        ] {
            assert!(
                matches!(unclear(text), Unclear::Uncertain { .. }),
                "{text}: {:?}",
                decide(text, None, TEST_LIMIT)
            );
        }
    }

    #[test]
    fn first_person_statement_is_taken() {
        for text in [
            "Resign",
            "I resign.",
            "I hereby resign the game.",
            "Thanks for a great game, I resign.",
            "Thank you for the game. I resign!",
            "Ich gebe auf.",
            "Ich gebe die Partie auf.",
            "J'abandonne la partie.",
            "Abandono.",
            "Me rindo",
            "I resign :-(",
        ] {
            assert_eq!(command(text), Command::Resign, "{text}");
        }
        for text in [
            "I accept the draw.",
            "I accept your draw offer, thank you.",
            "Ich nehme das Remis an.",
            "Ich nehme Ihr Remisangebot an.",
            "J'accepte la nulle.",
            "Acepto tablas.",
        ] {
            assert_eq!(command(text), Command::AcceptDraw, "{text}");
        }
        assert_eq!(
            command("I claim a draw by threefold repetition."),
            Command::ClaimDraw
        );
        assert_eq!(
            command("I claim a draw by the 50-move rule."),
            Command::ClaimDraw
        );
    }

    #[test]
    fn sentence_wrapped_by_the_mail_client_is_read_whole() {
        let text = "After that blunder I really think that you should\nresign. Best, Ben";
        assert!(
            matches!(unclear(text), Unclear::Uncertain { .. }),
            "{:?}",
            decide(text, None, TEST_LIMIT)
        );
        let text = "I have looked at the position for a long time and\nI resign.";
        assert_eq!(command(text), Command::Resign);
    }

    /// Regression: a subject "I resign from the club committee" ended the game.
    #[test]
    fn subject_never_resigns_accepts_or_claims() {
        for subject in [
            "I resign from the club committee",
            "Resign",
            "Draw accepted",
            "claim draw",
        ] {
            let r = decide("", Some(subject), TEST_LIMIT);
            assert!(
                matches!(r, Reading::Unclear(Unclear::Uncertain { .. })),
                "{subject}: {r:?}"
            );
            // The body's own command counts.
            let r = decide("13. 5254", Some(subject), TEST_LIMIT);
            assert!(
                matches!(r, Reading::Command(Command::Play { .. })),
                "{subject}: {r:?}"
            );
        }
        // Reversible commands still count from the subject.
        assert_eq!(
            decide("", Some("Draw offer"), TEST_LIMIT),
            Reading::Command(Command::OfferDraw)
        );
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
    fn xfcc_password_is_asked_for_on_a_line_of_its_own_only() {
        assert_eq!(command("xfcc password"), Command::XfccPassword);
        assert_eq!(command("XFCC Passwort"), Command::XfccPassword);
        assert_eq!(command("xfcc пароль"), Command::XfccPassword);
        assert!(matches!(
            unclear("My xfcc password does not work in Scid, can you help?"),
            Unclear::NothingFound
        ));
    }
}
