//! Which language a player writes: a "language: deutsch" command line, and a
//! guess from the command words a mail uses and its `Content-Language`.
//! [pure: no IO]
//!
//! The guess is only called confident when everything points the same way:
//! command words of one language only (a word two languages share, such as
//! `abandono` or `remis`, points nowhere), and a `Content-Language`, if any,
//! that agrees. Only a confident guess is kept for the player.

use crate::i18n::Lang;

/// What a mail says about its writer's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LangHint {
    /// An explicit "language: …" command.
    pub requested: Option<Lang>,
    /// The language the mail's command words and `Content-Language` point to.
    pub guessed: Option<Lang>,
    /// Whether the guess is safe to keep for the player.
    pub confident: bool,
}

/// The word for "language" in the languages wildt writes, as a command line
/// starts with it: `Language: Deutsch`, `Sprache Deutsch`, `langue français`.
const LANGUAGE_WORDS: &[&str] = &[
    "language", "lang", "sprache", "langue", "idioma", "lingua", "língua", "taal", "język",
    "jazyk", "язык",
];

/// The language a line asks for, if it is a language command.
pub fn language_command(line: &str) -> Option<Lang> {
    let line = line.trim().trim_end_matches(['.', '!', ' ']).to_lowercase();
    let (word, rest) = line.split_once([' ', ':', '='])?;
    if !LANGUAGE_WORDS.contains(&word.trim()) {
        return None;
    }
    let name = rest.trim_start_matches([' ', ':', '=', '-']).trim();
    if name.contains(char::is_whitespace) {
        return None;
    }
    name.parse().ok()
}

/// The first language command of `text` and the text without that line.
pub fn take_language_command(text: &str) -> (Option<Lang>, String) {
    let mut found = None;
    let mut rest = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if found.is_none()
            && let Some(lang) = language_command(line)
        {
            found = Some(lang);
            continue;
        }
        rest.push_str(line);
    }
    (found, rest)
}

/// Command words only one language uses (the taught words and their
/// variants in KEYWORDS.md).
const WORDS: &[(Lang, &[&str])] = &[
    (
        Lang::En,
        &[
            "resign", "draw", "offer", "accept", "decline", "claim", "status", "board",
        ],
    ),
    (
        Lang::De,
        &[
            "aufgeben",
            "gebe",
            "biete",
            "angenommen",
            "abgelehnt",
            "reklamiere",
            "beanspruche",
            "stellung",
            "brett",
            "remisangebot",
            "kein",
            "zug",
        ],
    ),
    (
        Lang::Fr,
        &[
            "abandonne",
            "nulle",
            "propose",
            "accepte",
            "refuse",
            "réclame",
            "échiquier",
            "coup",
        ],
    ),
    (
        Lang::Es,
        &[
            "rindo", "tablas", "ofrezco", "acepto", "rechazo", "tablero", "jugada",
        ],
    ),
    (
        Lang::It,
        &[
            "abbandono",
            "arrendo",
            "patta",
            "propongo",
            "accetto",
            "rifiuto",
            "richiedo",
            "scacchiera",
            "mossa",
        ],
    ),
    (
        Lang::Nl,
        &[
            "opgeven",
            "geef",
            "remise",
            "aanbieden",
            "aangenomen",
            "geweigerd",
            "claimen",
            "stelling",
            "bord",
            "zet",
        ],
    ),
    (
        Lang::Pt,
        &[
            "desisto",
            "empate",
            "proponho",
            "aceito",
            "recuso",
            "reivindico",
            "tabuleiro",
            "ofereço",
            "jogada",
        ],
    ),
    (
        Lang::Pl,
        &[
            "poddaję",
            "proponuję",
            "przyjmuję",
            "odrzucam",
            "reklamuję",
            "szachownica",
        ],
    ),
    (
        Lang::Cs,
        &[
            "vzdávám",
            "remízu",
            "remíza",
            "nabízím",
            "přijímám",
            "odmítám",
            "reklamuji",
            "šachovnice",
        ],
    ),
    (
        Lang::Ru,
        &[
            "сдаюсь",
            "ничью",
            "ничья",
            "предлагаю",
            "принимаю",
            "отклоняю",
            "требую",
            "доска",
        ],
    ),
];

/// The languages whose command words `text` uses, each once, in `Lang::ALL`
/// order.
pub fn languages_of_words(text: &str) -> Vec<Lang> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    WORDS
        .iter()
        .filter(|(_, list)| words.iter().any(|w| list.contains(w)))
        .map(|(lang, _)| *lang)
        .collect()
}

/// The hint of a mail whose player text is `text` (quotes already removed)
/// and whose `Content-Language` header is `content_language`.
pub fn hint(text: &str, content_language: Option<&str>) -> LangHint {
    let (requested, rest) = take_language_command(text);
    let by_words = languages_of_words(&rest);
    // `Content-Language: de, en` names more than one: it says nothing.
    let by_header = content_language.and_then(|h| match h.split(',').collect::<Vec<_>>()[..] {
        [one] => Lang::from_code(one),
        _ => None,
    });
    let (guessed, confident) = match (by_words.as_slice(), by_header) {
        ([one], None) => (Some(*one), true),
        ([one], Some(h)) => (Some(*one), *one == h),
        ([], Some(h)) => (Some(h), true),
        // No words, or words of several languages: the header alone, unsure.
        (_, h) => (h, false),
    };
    LangHint {
        requested,
        guessed,
        confident,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_commands_in_every_language() {
        for (line, lang) in [
            ("language: deutsch", Lang::De),
            ("Language: German", Lang::De),
            ("Sprache Deutsch", Lang::De),
            ("langue français", Lang::Fr),
            ("Langue : francais", Lang::Fr),
            ("idioma español", Lang::Es),
            ("lingua italiano", Lang::It),
            ("taal: Nederlands", Lang::Nl),
            ("língua português", Lang::Pt),
            ("język polski", Lang::Pl),
            ("jazyk čeština", Lang::Cs),
            ("Язык: русский", Lang::Ru),
            ("language = en", Lang::En),
        ] {
            assert_eq!(language_command(line), Some(lang), "{line}");
        }
        for line in [
            "language is hard",
            "my language: deutsch",
            "Sprache",
            "language: klingon",
            "13. 5254",
        ] {
            assert_eq!(language_command(line), None, "{line}");
        }
    }

    #[test]
    fn the_language_line_is_taken_out_of_the_text() {
        let (lang, rest) = take_language_command("Sprache: Deutsch\n13. 5254\n");
        assert_eq!((lang, rest.as_str()), (Some(Lang::De), "13. 5254\n"));
    }

    #[test]
    fn command_words_of_one_language_are_a_confident_guess() {
        let h = hint("Remis angenommen\n", None);
        assert_eq!((h.guessed, h.confident), (Some(Lang::De), true));
        let h = hint("Предлагаю ничью", None);
        assert_eq!((h.guessed, h.confident), (Some(Lang::Ru), true));
    }

    #[test]
    fn words_shared_or_mixed_are_no_confident_guess() {
        // `abandono` is Spanish and Portuguese alike.
        assert_eq!(hint("abandono", None).guessed, None);
        let h = hint("resign\nRemis angenommen", None);
        assert!(!h.confident);
    }

    #[test]
    fn content_language_guesses_when_words_say_nothing() {
        let h = hint("13. 5254", Some("fr-FR"));
        assert_eq!((h.guessed, h.confident), (Some(Lang::Fr), true));
        let h = hint("13. 5254", Some("de, en"));
        assert_eq!(h.guessed, None);
        // Words and header disagree: the words, unsure.
        let h = hint("accetto patta", Some("en"));
        assert_eq!((h.guessed, h.confident), (Some(Lang::It), false));
    }

    #[test]
    fn a_move_alone_says_no_language() {
        assert_eq!(hint("13. 5254", None), LangHint::default());
    }
}
