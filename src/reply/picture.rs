//! The board and record every game mail shows: the diagram with its
//! legend, the record line (written by `record_line`), and what the mails
//! of one reply showing the same record make once for all of them
//! ([`Shown`]). [pure: no IO]

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use shakmaty::{Color, Position};

use crate::game::{Record, board_grid};
use crate::html::RecordHtml;
use crate::i18n::{self, Key, Lang, explain};

use super::cache::{Rendering, Renderings};
use super::record_line::{record_line_of, write_wrapped_plies};

/// The diagram with its legend in `lang`: the letters stay FEN's in every
/// language (the legend says so), the grid is the same for everyone.
pub(super) fn diagram(lang: Lang, record: &Record) -> String {
    format!(
        "{}  {}\n",
        board_grid(record.position()),
        i18n::text(lang, Key::BoardLegend, &[])
    )
}

/// Board, record and whose move: the part every game mail ends with;
/// the record continues `kept`, its first plies as rendered before.
fn picture(lang: Lang, record: &Record, kept: Option<&Rendering>) -> String {
    let record_line = if record.ply_count() == 0 {
        i18n::text(lang, Key::RecordEmpty, &[])
    } else {
        wrapped_record_line(lang, record, kept)
    };
    format!(
        "{}\n{record_line}\n{}\n",
        diagram(lang, record),
        explain::status_line(lang, record)
    )
}

/// The record line (`Record: 1. 5254 (e4) ...`) in `lang`, as
/// [`wrap_record`] breaks it into lines, written in one pass: the message
/// is formatted around a one-character stand-in, and the record written in
/// its place a move at a time, each move's space before it turned into a
/// line break where the move would not fit. Formatting the record as an
/// argument, then wrapping the line, would copy and read a long game's
/// record three times over, once for each reply. With `kept`, the first
/// plies are its text.
fn wrapped_record_line(lang: Lang, record: &Record, kept: Option<&Rendering>) -> String {
    if let Some(kept) = kept {
        // The plies kept rendered, then the rest as if written after them.
        let rest = record.plies_from(kept.plies);
        let mut out = String::with_capacity(kept.text.len() + rest.len() * 16);
        out.push_str(&kept.text);
        let mut line_len = out.rsplit('\n').next().map_or(0, |l| l.chars().count());
        write_wrapped_plies(
            &mut out,
            &mut line_len,
            record.start().fullmoves().get() + kept.moves(),
            Color::White,
            rest,
            lang,
        );
        return out;
    }
    match record_line_of(
        lang,
        record.start().fullmoves().get(),
        record.start().turn(),
        record.plies(),
    ) {
        Ok(line) | Err(line) => line,
    }
}

/// A record as the game mails of one reply show it: the confirmation and
/// the move passed on show the same board and record. What grows with the
/// game is made once for both instead of once per mail: the record copied
/// once into an `Arc` their HTML parts share, and per language the text
/// part's board and record ([`picture`]) and the cell the HTML page's record
/// table is kept in. Both continue the renderings `kept` (see [`cache`](super::cache)).
pub(super) struct Shown<'r> {
    pub(super) record: &'r Record,
    kept: &'r Renderings,
    shared: OnceCell<Arc<Record>>,
    langs: RefCell<Vec<(Lang, InLang)>>,
}

/// What [`Shown`] keeps per language: the text part's board and record, and
/// the cell of the HTML page's record table.
pub(super) type InLang = (Rc<str>, Arc<OnceLock<RecordHtml>>);

impl<'r> Shown<'r> {
    pub(super) fn new(record: &'r Record, kept: &'r Renderings) -> Self {
        Shown {
            record,
            kept,
            shared: OnceCell::new(),
            langs: RefCell::new(Vec::new()),
        }
    }

    pub(super) fn shared(&self) -> Arc<Record> {
        Arc::clone(self.shared.get_or_init(|| Arc::new(self.record.clone())))
    }

    /// The kept rendering the record's mails in `lang` continue.
    pub(super) fn kept(&self, lang: Lang) -> Option<&Arc<Rendering>> {
        self.kept.for_reply(self.record, lang)
    }

    /// The text part's picture in `lang` and the cell of its page's record.
    pub(super) fn in_lang(&self, lang: Lang) -> InLang {
        let mut langs = self.langs.borrow_mut();
        if let Some((_, (picture, html))) = langs.iter().find(|(l, _)| *l == lang) {
            return (Rc::clone(picture), Arc::clone(html));
        }
        let picture = picture(lang, self.record, self.kept(lang).map(|k| &**k));
        let made: InLang = (picture.into(), Arc::default());
        langs.push((lang, (Rc::clone(&made.0), Arc::clone(&made.1))));
        made
    }
}

#[cfg(test)]
mod tests {
    use super::super::record_line::{RECORD_WIDTH, wrap_record};
    use super::*;
    use crate::i18n::san;
    use crate::notation::IccfMove;
    use crate::referee::Verdict;
    use crate::reply::HtmlPart;

    /// The record line written a move at a time, each move's space turned
    /// into a line break where the move would not fit, is the line
    /// `wrap_record` makes of the whole record: for games from the start
    /// and from a position with Black to move (`1... 7866`), of one move
    /// up to hundreds, in every language (Cyrillic letters counted as
    /// characters, not bytes).
    #[test]
    fn the_record_line_written_move_by_move_breaks_where_wrapping_the_whole_line_does() {
        use crate::command::Command;
        use crate::referee::judge;
        let black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let shuffles: [(Option<&str>, [&str; 4]); 2] = [
            (None, ["7163", "7866", "6371", "6678"]),
            (Some(black_first), ["7866", "7163", "6678", "6371"]),
        ];
        for (fen, shuffle) in shuffles {
            let mut record = Record::new(fen).unwrap();
            for (n, m) in shuffle.iter().cycle().take(160).enumerate() {
                let v = judge(&record, record.turn(), &Command::single(m.parse().unwrap()));
                assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
                record.apply(&v);
                if ![1, 2, 3, 9, 10, 11, 12, 13, 14, 40, 159].contains(&n) {
                    continue;
                }
                for lang in Lang::ALL {
                    let one_line = i18n::text(
                        lang,
                        Key::RecordLine,
                        &[("record", san::record_text(&record, lang).into())],
                    );
                    assert_eq!(
                        wrapped_record_line(lang, &record, None),
                        wrap_record(&one_line),
                        "{lang:?}, {fen:?}, {} plies",
                        n + 1
                    );
                }
            }
        }
    }

    /// The record of a long game, in every language, is written in lines
    /// of at most 72 characters that together are the record on one line,
    /// each move number with its ply and each ply with its SAN; and a line
    /// too long for one is only wrapped at a move number or a ply.
    #[test]
    fn a_long_record_is_written_in_short_lines_that_keep_each_move_whole() {
        let shuffle = ["7163", "7866", "6371", "6678"];
        let plies: Vec<&str> = shuffle.iter().copied().cycle().take(301).collect();
        let game = crate::fixtures::game_17(&plies);
        for lang in Lang::ALL {
            let one_line = i18n::text(
                lang,
                Key::RecordLine,
                &[("record", san::record_text(&game.record, lang).into())],
            );
            let wrapped = wrap_record(&one_line);
            let lines: Vec<&str> = wrapped.lines().collect();
            assert!(lines.len() > 50, "{lang:?}: {} lines", lines.len());
            assert_eq!(lines.join(" "), one_line, "{lang:?}");
            for line in &lines {
                assert!(line.chars().count() <= RECORD_WIDTH, "{lang:?}: {line}");
            }
            for line in &lines[1..] {
                assert!(
                    line.starts_with(|c: char| c.is_ascii_digit()),
                    "{lang:?}: a line starts inside a move: {line}"
                );
                assert!(!line.ends_with('.'), "{lang:?}: a number alone: {line}");
            }
            assert!(
                picture(lang, &game.record, None).contains(&wrapped),
                "{lang:?}"
            );
        }
        assert_eq!(wrap_record("Record: 1. 5254 (e4)"), "Record: 1. 5254 (e4)");
        assert_eq!(
            wrap_record(&format!("Record: 1. 5254 (e4) {}", "9".repeat(80))),
            format!("Record: 1. 5254 (e4)\n{}", "9".repeat(80))
        );
    }

    /// A game of `plies` plies (fewer if it ends) of moves picked from the
    /// legal ones by `seed`: captures, checks, promotions, castling and
    /// every piece's letter, in an order no hand would write.
    fn varied_game(seed: u64, plies: usize) -> Record {
        use shakmaty::Position as _;
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut record = Record::new(None).unwrap();
        for _ in 0..plies {
            let moves = record.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[usize::try_from(state >> 33).unwrap() % moves.len()];
            record.push(IccfMove::from_move(m), m);
        }
        record
    }

    /// `record`'s page in `lang` seen by `viewer`, its table continuing
    /// `kept`.
    fn page_of(
        lang: Lang,
        record: &Record,
        kept: Option<&Arc<Rendering>>,
        viewer: Color,
    ) -> String {
        let mut part = HtmlPart::new(lang, "intro".into(), record.clone(), viewer, "outro".into());
        part.kept = kept.cloned();
        part.render_for_mail("title").into_html()
    }

    /// A long game's reply written from the plies kept rendered beside its
    /// record (the sealed parts, see `cache`) reads exactly as the reply
    /// written from all the plies: the text part's wrapped record line and
    /// the HTML page, in every language, for records ending right after
    /// the kept plies and up to a part beyond them.
    #[test]
    fn a_reply_continuing_the_kept_rendering_of_a_record_is_the_reply_rendered_whole() {
        for seed in 0..3 {
            let game = varied_game(seed, 200);
            assert!(
                game.plies().len() >= 140,
                "seed {seed}: the game ended early"
            );
            for lang in Lang::ALL {
                for kept in [64, 128] {
                    for n in [kept, kept + 1, kept + 2, kept + 37, game.plies().len()] {
                        let whole =
                            Record::replay(None, game.plies()[..n].iter().map(|p| p.iccf)).unwrap();
                        let mut renderings = Renderings::default();
                        renderings.keep(Rendering::of(&whole, kept, lang).unwrap());
                        let continued = renderings.for_reply(&whole, lang);
                        assert!(continued.is_some());
                        let at = format!("seed {seed}, {lang:?}, {kept} kept of {n}");
                        assert_eq!(
                            picture(lang, &whole, continued.map(|k| &**k)),
                            picture(lang, &whole, None),
                            "{at}"
                        );
                        for viewer in [Color::White, Color::Black] {
                            assert_eq!(
                                page_of(lang, &whole, continued, viewer),
                                page_of(lang, &whole, None, viewer),
                                "{at}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A kept rendering is what the reply writes for those plies while its
    /// fingerprint is this build's in the language: one whose fingerprint
    /// is another build's (another translation, other markup) is passed
    /// over and the record written whole, and none is used in another
    /// language or for a record starting with Black.
    #[test]
    fn a_kept_rendering_is_used_only_with_this_builds_fingerprint_in_its_language() {
        let game = varied_game(7, 80);
        let mut made = Rendering::of(&game, 64, Lang::De).unwrap();
        made.text = "Partie: MARKED".to_owned();
        made.html = "<tr><td>MARKED</td></tr>".to_owned();
        let mut kept = Renderings::default();
        kept.keep(made.clone());
        // The picture and the page of `game` in `lang`, as a game mail
        // continuing `kept` writes them.
        let shown = |kept: &Renderings, lang: Lang| {
            let shown = Shown::new(&game, kept);
            let picture = picture(lang, &game, shown.kept(lang).map(|k| &**k));
            (
                picture,
                page_of(lang, &game, shown.kept(lang), Color::White),
            )
        };
        let (picture_de, page) = shown(&kept, Lang::De);
        assert!(picture_de.contains("Partie: MARKED 33. "), "{picture_de}");
        assert!(page.contains("<tr><td>MARKED</td></tr>\r\n<tr>"), "{page}");
        assert!(!shown(&kept, Lang::Fr).0.contains("MARKED"));
        assert!(!shown(&kept, Lang::Fr).1.contains("MARKED"));
        // Not for a record with fewer plies than it shows.
        let short = Record::replay(None, game.plies()[..63].iter().map(|p| p.iccf)).unwrap();
        assert!(kept.for_reply(&short, Lang::De).is_none());

        let mut other_build = Renderings::default();
        made.fingerprint ^= 1;
        other_build.keep(made.clone());
        assert!(!shown(&other_build, Lang::De).0.contains("MARKED"));
        assert_eq!(
            shown(&other_build, Lang::De),
            shown(Renderings::none(), Lang::De)
        );

        let black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let from_black = Record::replay(
            Some(black_first),
            [4745, 5445, 4845].map(|m| m.to_string().parse().unwrap()),
        )
        .unwrap();
        assert_eq!(Rendering::of(&from_black, 2, Lang::De), None);
    }
}
