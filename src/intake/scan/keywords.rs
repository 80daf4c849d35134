//! The words wildt knows, in every language it reads: the command phrases
//! (resign, the draw commands, status) and the words the line classifier
//! weighs around a number (move words, echo words, fillers, negations, units).
//! Keywords are matched as whole words on the tokenizer's tokens. The accepted
//! words are listed for players in `KEYWORDS.md`; keep the two in sync.
//! [pure: no IO]
//!
//! A phrase maps straight to the [`Command`] it asks for: every command word
//! is a `Command` without data, so no enum of its own is needed.

use crate::command::Command;

use super::tokens::Tok;
use super::{Findings, short};

#[rustfmt::skip]
pub(super) const NEGATIONS: &[&str] = &[
    "not", "never", "nicht", "nie", "niemals", "pas", "jamais", "nunca", "non", "niet", "nooit",
    "cannot",
];

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
    "hiermit", "please", "bitte",
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
    (&["remis", "angenommen"], Command::AcceptDraw),
    (&["accepte", "nulle"], Command::AcceptDraw),
    (&["nulle", "acceptée"], Command::AcceptDraw),
    (&["acepto", "tablas"], Command::AcceptDraw),
    (&["tablas", "aceptadas"], Command::AcceptDraw),
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
    // claim
    (&["claim", "draw"], Command::ClaimDraw),
    (&["claims", "draw"], Command::ClaimDraw),
    (&["draw", "claim"], Command::ClaimDraw),
    (&["beanspruche", "remis"], Command::ClaimDraw),
    (&["reklamiere", "remis"], Command::ClaimDraw),
    (&["réclame", "nulle"], Command::ClaimDraw),
    (&["reclamo", "tablas"], Command::ClaimDraw),
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
    // resign
    (&["resign"], Command::Resign),
    (&["resigns"], Command::Resign),
    (&["aufgeben"], Command::Resign),
    (&["gebe", "auf"], Command::Resign),
    (&["abandonne"], Command::Resign),
    (&["abandono"], Command::Resign),
    (&["rindo"], Command::Resign),
    // status: only on a line of its own (see `read_line`)
    (&["show", "board"], Command::Status),
    (&["status"], Command::Status),
    (&["board"], Command::Status),
    (&["brett"], Command::Status),
    (&["stellung"], Command::Status),
    (&["échiquier"], Command::Status),
    (&["tablero"], Command::Status),
];

/// Draw words that alone do not say offer, accept or decline.
#[rustfmt::skip]
const VAGUE_DRAW: &[&str] = &[
    "draw", "remis", "nulle", "tablas",
];

pub(super) fn is_keyword_word(w: &str) -> bool {
    PHRASES.iter().any(|(p, _)| p.contains(&w)) || FILLERS.contains(&w) || w == "not"
}

pub(super) fn read_keywords(line: &str, toks: &[Tok], prose: bool, f: &mut Findings) {
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
                if *kw != Command::Status || !prose {
                    found.push(kw.clone());
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
    let binding = |k: &Command| {
        matches!(
            k,
            Command::Resign | Command::AcceptDraw | Command::ClaimDraw
        )
    };
    let negated =
        found.iter().any(|k| binding(k) || *k == Command::OfferDraw) && leftover(&|w| w == "not");
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
}
