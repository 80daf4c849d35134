//! The rendering cache: a long game's first plies as its replies write
//! them, kept by the store beside the game (`store::renders`), so that a
//! reply writes only the plies after them. [pure: no IO]
//!
//! Every reply carries the whole record, in the text part's record line
//! and the HTML page's table; at ply 300 writing them is most of a
//! reply's work. The plies of a game's sealed parts (every full 64 plies,
//! see `store::games`) never change, so their rendering in a language is
//! made once, when a part is sealed, and continued by every reply after.
//!
//! - [`Rendering`]: one language's rendering of a record's first plies.
//! - [`Renderings`]: a game's renderings as loaded beside its record;
//!   [`Renderings::for_reply`] is the one a reply may continue, and
//!   [`Renderings::to_store`] what a change of the game stores back.
//! - A rendering is used only while this build writes the same
//!   ([`fingerprint`]) and only for the plies it was made from (the store
//!   loads it only when their text hashes as when it was made).
//!
//! A reply continued from a rendering is the reply written whole, byte
//! for byte: a caller without renderings (`None`) gets the same mails,
//! only slower for a long game.

use std::sync::{Arc, OnceLock};

use shakmaty::{Color, Position as _};

use crate::game::Record;
use crate::html::KeptRows;
use crate::i18n::Lang;
use crate::notation::IccfMove;

/// The first `plies` plies of a record as the replies in `lang` write
/// them: the text part's wrapped record line so far and the HTML table's
/// rows. Made by [`Rendering::of`], and written by a reply only while
/// `fingerprint` is what this build writes in `lang` ([`fingerprint`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendering {
    pub lang: Lang,
    pub plies: usize,
    pub fingerprint: u64,
    /// The record line up to and including the last ply's SAN, wrapped.
    pub text: String,
    /// The HTML table's rows of those plies, 7-bit in CRLF lines.
    pub html: String,
    /// Whether every one of those rows is a line SMTP carries as it is.
    pub html_fits: bool,
}

impl Rendering {
    /// The first `plies` plies of `record` as the replies in `lang` write
    /// them; `None` where a reply could not continue them: a record
    /// starting with Black, an odd number of plies, or a translation of
    /// the record line that is not words then plies.
    pub fn of(record: &Record, plies: usize, lang: Lang) -> Option<Rendering> {
        if plies == 0 || !plies.is_multiple_of(2) || record.start().turn() != Color::White {
            return None;
        }
        let first = record.plies().get(..plies)?;
        let first_move = record.start().fullmoves().get();
        let text =
            super::record_line::record_line_of(lang, first_move, Color::White, first).ok()?;
        let (html, html_fits) =
            crate::html::record_rows_seven_bit(first_move, Color::White, first, lang);
        Some(Rendering {
            lang,
            plies,
            fingerprint: fingerprint(lang),
            text,
            html,
            html_fits,
        })
    }

    /// The whole moves its plies make (it starts at White's turn and ends
    /// after Black's ply): the next move's number is the record's first
    /// plus this.
    pub fn moves(&self) -> u32 {
        u32::try_from(self.plies / 2).unwrap_or(u32::MAX)
    }

    /// Its rows as the HTML page puts them in place.
    pub(super) fn rows(&self) -> KeptRows<'_> {
        KeptRows {
            html: &self.html,
            fits: self.html_fits,
            plies: self.plies,
        }
    }
}

/// A game's kept renderings, at most one per language, as loaded beside
/// its record. Plies are only ever added to a record, so they hold for
/// the record as loaded and for every record that continues it (the
/// record after a move, after a prepared answer).
#[derive(Debug, Clone, Default)]
pub struct Renderings(Vec<Arc<Rendering>>);

impl Renderings {
    /// No renderings: a game's replies written whole.
    pub fn none() -> &'static Renderings {
        static NONE: Renderings = Renderings(Vec::new());
        &NONE
    }

    /// Keeps `rendering`, in place of one in the same language.
    pub fn keep(&mut self, rendering: Rendering) {
        self.0.retain(|r| r.lang != rendering.lang);
        self.0.push(Arc::new(rendering));
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The rendering kept in `lang`, whichever build made it.
    pub fn in_lang(&self, lang: Lang) -> Option<&Rendering> {
        self.0.iter().map(|r| &**r).find(|r| r.lang == lang)
    }

    /// The rendering a reply in `lang` showing `record` continues, if this
    /// build writes it so: its fingerprint is this build's in `lang`, it
    /// shows no more plies than `record` has, and it ends after a Black
    /// ply of a record that starts with White, where the text's next move
    /// number and the HTML table's next row begin.
    pub fn for_reply(&self, record: &Record, lang: Lang) -> Option<&Arc<Rendering>> {
        self.0.iter().find(|r| {
            r.lang == lang
                && r.plies > 0
                && r.plies <= record.ply_count()
                && r.plies.is_multiple_of(2)
                && record.start().turn() == Color::White
                && r.fingerprint == fingerprint(lang)
        })
    }

    /// What a change of the game to `after` stores back, `kept` being the
    /// renderings loaded with the game before it: its first `upto` plies
    /// (the sealed ones) rendered in each of `langs` where this build's
    /// rendering of exactly them is not kept (a part sealed by the
    /// change; a game stored before its renderings, a player's new
    /// language, a build that writes otherwise), once per language. None
    /// for a game that is over: its replies are rare.
    pub fn to_store(
        kept: Option<&Renderings>,
        after: &Record,
        upto: usize,
        langs: [Lang; 2],
    ) -> Vec<Rendering> {
        if upto == 0 || after.end.is_some() {
            return Vec::new();
        }
        let mut made = Vec::new();
        for (i, &lang) in langs.iter().enumerate() {
            let current = kept
                .and_then(|k| k.for_reply(after, lang))
                .is_some_and(|k| k.plies == upto);
            if current || langs[..i].contains(&lang) {
                continue;
            }
            made.extend(Rendering::of(after, upto, lang));
        }
        made
    }
}

/// What this build writes for a record in `lang`, as a number: a sample
/// game (every piece's letter, captures, both castlings) rendered as the
/// text part's record line and the HTML table's rows, hashed. A rendering
/// made by a build that writes otherwise (another translation, other
/// markup) has another and is not used.
pub fn fingerprint(lang: Lang) -> u64 {
    static PRINTS: [OnceLock<u64>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];
    let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    *PRINTS[i].get_or_init(|| {
        const SAMPLE: &str = "5254 4745 5445 4845 2133 4515 4244 7866 7163 3865 6134 5756 3142 \
                              3736 4152 6824 5131 2847 3121 5878 8151 6858 1213 2433 4233 1537";
        let moves = SAMPLE
            .split_whitespace()
            .filter_map(|m| m.parse::<IccfMove>().ok());
        let Ok(sample) = Record::replay(None, moves) else {
            return 0;
        };
        let text = match super::record_line::record_line_of(lang, 1, Color::White, sample.plies()) {
            Ok(line) | Err(line) => line,
        };
        let (html, fits) =
            crate::html::record_rows_seven_bit(1, Color::White, sample.plies(), lang);
        stable_hash(&[text.as_bytes(), &[0, u8::from(fits)], html.as_bytes()])
    })
}

/// A hash of `pieces` (as one run of bytes, each piece's length mixed in)
/// that is the same in every build and on every machine, for what is
/// stored and compared later (a rendering's fingerprint, the plies it was
/// made from). Eight bytes a step: a long game's sealed plies are hashed
/// with every load of its record.
pub fn stable_hash(pieces: &[&[u8]]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |word: u64| {
        h = (h ^ word).wrapping_mul(PRIME).rotate_left(29);
    };
    for piece in pieces {
        mix(piece.len() as u64);
        let mut words = piece.chunks_exact(8);
        for w in &mut words {
            mix(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        mix(u64::from_le_bytes(last));
    }
    h
}
