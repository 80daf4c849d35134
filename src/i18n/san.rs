//! SAN in the player's language: the piece letters each chess federation
//! prints, put in place of the English ones shakmaty writes. [pure: no IO]
//!
//! Only the piece letters change; squares (`f3`), captures, checks, castling
//! (`O-O`) and the promotion sign stay as they are, which is how the chess
//! literature of each of these languages writes moves.

use shakmaty::{Position, Role};

use super::Lang;
use crate::game::Record;
use crate::notation::write_record_into;

/// The letter (or letters: Russian writes the king `Кр`) a language uses for
/// a piece in SAN. Pawns have none in SAN; this is for the other five.
pub fn piece_letter(lang: Lang, role: Role) -> &'static str {
    // king, queen, rook, bishop, knight
    let letters: [&str; 5] = match lang {
        Lang::En => ["K", "Q", "R", "B", "N"],
        // König, Dame, Turm, Läufer, Springer
        Lang::De => ["K", "D", "T", "L", "S"],
        // roi, dame, tour, fou, cavalier
        Lang::Fr => ["R", "D", "T", "F", "C"],
        // rey, dama, torre, alfil, caballo
        Lang::Es => ["R", "D", "T", "A", "C"],
        // re, donna, torre, alfiere, cavallo
        Lang::It => ["R", "D", "T", "A", "C"],
        // koning, dame, toren, loper, paard
        Lang::Nl => ["K", "D", "T", "L", "P"],
        // rei, dama, torre, bispo, cavalo
        Lang::Pt => ["R", "D", "T", "B", "C"],
        // król, hetman, wieża, goniec, skoczek
        Lang::Pl => ["K", "H", "W", "G", "S"],
        // král, dáma, věž, střelec, jezdec
        Lang::Cs => ["K", "D", "V", "S", "J"],
        // король, ферзь, ладья, слон, конь
        Lang::Ru => ["Кр", "Ф", "Л", "С", "К"],
    };
    match role {
        Role::King => letters[0],
        Role::Queen => letters[1],
        Role::Rook => letters[2],
        Role::Bishop => letters[3],
        Role::Knight => letters[4],
        Role::Pawn => "",
    }
}

/// An English SAN as shakmaty writes it (`Nf3`, `exd8=Q+`, `O-O-O#`) in the
/// piece letters of `lang` (`Sf3`, `exd8=D+` in German).
///
/// ```
/// use wildt::i18n::{Lang, san::localize};
///
/// assert_eq!(localize("Nxe5+", Lang::De), "Sxe5+");
/// assert_eq!(localize("e8=Q#", Lang::Ru), "e8=Ф#");
/// assert_eq!(localize("O-O", Lang::Fr), "O-O");
/// ```
pub fn localize(san: &str, lang: Lang) -> String {
    let mut out = String::with_capacity(san.len() + 2);
    push_localized(&mut out, san, lang);
    out
}

/// Appends [`localize`]`(san, lang)` to `out`.
pub fn push_localized(out: &mut String, san: &str, lang: Lang) {
    if lang == Lang::En {
        out.push_str(san);
        return;
    }
    for c in san.chars() {
        // Files are lower case and castling is `O`: the only upper-case
        // letters other than `O` are pieces (the moving piece, or after `=`).
        match Role::from_char(c.to_ascii_lowercase()).filter(|_| c.is_ascii_uppercase()) {
            Some(role) if role != Role::Pawn => out.push_str(piece_letter(lang, role)),
            _ => out.push(c),
        }
    }
}

/// The record as the text part prints it, `1. 5254 (e4) 5755 (e5) 2. 7163
/// (Sf3)`, with SAN in `lang`'s letters; empty for no moves.
pub fn record_text(record: &Record, lang: Lang) -> String {
    let mut out = String::new();
    push_record_text(&mut out, record, lang);
    out
}

/// [`record_text`] appended to `out`.
pub fn push_record_text(out: &mut String, record: &Record, lang: Lang) {
    push_plies_text(
        out,
        record.start().fullmoves().get(),
        record.start().turn(),
        record.plies(),
        lang,
    );
}

/// [`push_record_text`] of `plies`, the first of them move `first_move`
/// with `first_turn` to play.
pub fn push_plies_text(
    out: &mut String,
    first_move: u32,
    first_turn: shakmaty::Color,
    plies: &[crate::notation::Ply],
    lang: Lang,
) {
    write_record_into(out, first_move, first_turn, plies, |out, ply| {
        out.push_str(" (");
        push_localized(out, &ply.san, lang);
        out.push(')');
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::SanPlus;
    use shakmaty::{Chess, Position};

    /// The Lasker trap and on: every piece moves, captures, checks, a
    /// long castling with check and an underpromotion with check.
    const GAME: &str = "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Ke2 fxg1=N+ \
        Ke1 Qh4+ Kd2 Nc6 Bc3 Bg4 Qc2 O-O-O+ Kc1 Rd1+ Qxd1 Bxd1 Kxd1 Qf2 Be2 Qxg2 \
        Rxg1 Qxg1+ Bf1 Nxe5 Nd2 Nd3 Ke2 Nf4+ Kf3 Qxf1+ Kg4 h5+ Kg5 f6+";

    /// The same game in each language's letters, written by hand from each
    /// language's chess books (not produced by `localize`).
    fn expected(lang: Lang) -> &'static str {
        match lang {
            Lang::En => GAME,
            Lang::De => {
                "d4 d5 c4 e5 dxe5 d4 e3 Lb4+ Ld2 dxe3 Lxb4 exf2+ Ke2 fxg1=S+ \
                Ke1 Dh4+ Kd2 Sc6 Lc3 Lg4 Dc2 O-O-O+ Kc1 Td1+ Dxd1 Lxd1 Kxd1 Df2 Le2 Dxg2 \
                Txg1 Dxg1+ Lf1 Sxe5 Sd2 Sd3 Ke2 Sf4+ Kf3 Dxf1+ Kg4 h5+ Kg5 f6+"
            }
            Lang::Fr => {
                "d4 d5 c4 e5 dxe5 d4 e3 Fb4+ Fd2 dxe3 Fxb4 exf2+ Re2 fxg1=C+ \
                Re1 Dh4+ Rd2 Cc6 Fc3 Fg4 Dc2 O-O-O+ Rc1 Td1+ Dxd1 Fxd1 Rxd1 Df2 Fe2 Dxg2 \
                Txg1 Dxg1+ Ff1 Cxe5 Cd2 Cd3 Re2 Cf4+ Rf3 Dxf1+ Rg4 h5+ Rg5 f6+"
            }
            Lang::Es | Lang::It => {
                "d4 d5 c4 e5 dxe5 d4 e3 Ab4+ Ad2 dxe3 Axb4 exf2+ Re2 fxg1=C+ \
                Re1 Dh4+ Rd2 Cc6 Ac3 Ag4 Dc2 O-O-O+ Rc1 Td1+ Dxd1 Axd1 Rxd1 Df2 Ae2 Dxg2 \
                Txg1 Dxg1+ Af1 Cxe5 Cd2 Cd3 Re2 Cf4+ Rf3 Dxf1+ Rg4 h5+ Rg5 f6+"
            }
            Lang::Nl => {
                "d4 d5 c4 e5 dxe5 d4 e3 Lb4+ Ld2 dxe3 Lxb4 exf2+ Ke2 fxg1=P+ \
                Ke1 Dh4+ Kd2 Pc6 Lc3 Lg4 Dc2 O-O-O+ Kc1 Td1+ Dxd1 Lxd1 Kxd1 Df2 Le2 Dxg2 \
                Txg1 Dxg1+ Lf1 Pxe5 Pd2 Pd3 Ke2 Pf4+ Kf3 Dxf1+ Kg4 h5+ Kg5 f6+"
            }
            Lang::Pt => {
                "d4 d5 c4 e5 dxe5 d4 e3 Bb4+ Bd2 dxe3 Bxb4 exf2+ Re2 fxg1=C+ \
                Re1 Dh4+ Rd2 Cc6 Bc3 Bg4 Dc2 O-O-O+ Rc1 Td1+ Dxd1 Bxd1 Rxd1 Df2 Be2 Dxg2 \
                Txg1 Dxg1+ Bf1 Cxe5 Cd2 Cd3 Re2 Cf4+ Rf3 Dxf1+ Rg4 h5+ Rg5 f6+"
            }
            Lang::Pl => {
                "d4 d5 c4 e5 dxe5 d4 e3 Gb4+ Gd2 dxe3 Gxb4 exf2+ Ke2 fxg1=S+ \
                Ke1 Hh4+ Kd2 Sc6 Gc3 Gg4 Hc2 O-O-O+ Kc1 Wd1+ Hxd1 Gxd1 Kxd1 Hf2 Ge2 Hxg2 \
                Wxg1 Hxg1+ Gf1 Sxe5 Sd2 Sd3 Ke2 Sf4+ Kf3 Hxf1+ Kg4 h5+ Kg5 f6+"
            }
            Lang::Cs => {
                "d4 d5 c4 e5 dxe5 d4 e3 Sb4+ Sd2 dxe3 Sxb4 exf2+ Ke2 fxg1=J+ \
                Ke1 Dh4+ Kd2 Jc6 Sc3 Sg4 Dc2 O-O-O+ Kc1 Vd1+ Dxd1 Sxd1 Kxd1 Df2 Se2 Dxg2 \
                Vxg1 Dxg1+ Sf1 Jxe5 Jd2 Jd3 Ke2 Jf4+ Kf3 Dxf1+ Kg4 h5+ Kg5 f6+"
            }
            Lang::Ru => {
                "d4 d5 c4 e5 dxe5 d4 e3 Сb4+ Сd2 dxe3 Сxb4 exf2+ Крe2 fxg1=К+ \
                Крe1 Фh4+ Крd2 Кc6 Сc3 Сg4 Фc2 O-O-O+ Крc1 Лd1+ Фxd1 Сxd1 Крxd1 Фf2 Сe2 Фxg2 \
                Лxg1 Фxg1+ Сf1 Кxe5 Кd2 Кd3 Крe2 Кf4+ Крf3 Фxf1+ Крg4 h5+ Крg5 f6+"
            }
        }
    }

    fn english_game() -> Vec<String> {
        let mut pos = Chess::default();
        let mut sans = Vec::new();
        for text in GAME.split_whitespace() {
            let san: SanPlus = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let m = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{text} in {sans:?}: {e}"));
            // What shakmaty writes, not what the test wrote.
            sans.push(SanPlus::from_move(pos.clone(), m).to_string());
            pos.play_unchecked(m);
        }
        sans
    }

    #[test]
    fn english_san_is_left_as_shakmaty_writes_it() {
        assert_eq!(
            english_game().join(" "),
            GAME.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }

    #[test]
    fn a_full_game_reads_in_each_languages_piece_letters() {
        let english = english_game();
        for lang in Lang::ALL {
            let localized: Vec<String> = english.iter().map(|s| localize(s, lang)).collect();
            let want: Vec<&str> = expected(lang).split_whitespace().collect();
            assert_eq!(localized, want, "{lang}");
        }
    }

    #[test]
    fn only_piece_letters_change() {
        for lang in Lang::ALL {
            for san in [
                "e4", "exd5", "O-O", "O-O-O#", "h8=Q+", "Nbd7", "R1e2", "Qh4xe1",
            ] {
                let out = localize(san, lang);
                let strip = |s: &str| {
                    s.chars()
                        .filter(|c| !c.is_uppercase() || *c == 'O')
                        .collect::<String>()
                };
                assert_eq!(strip(&out), strip(san), "{lang} {san} -> {out}");
            }
        }
        assert_eq!(localize("Nbd7", Lang::Ru), "Кbd7");
        assert_eq!(localize("Kxe2", Lang::Ru), "Крxe2");
    }

    #[test]
    fn record_text_keeps_numeric_moves_and_localizes_san() {
        use crate::command::Command;
        use crate::referee::{Verdict, judge};
        let mut r = Record::new(None).unwrap();
        for m in ["5254", "5755", "7163"] {
            let v = judge(&r, r.turn(), &Command::single(m.parse().unwrap()));
            assert!(matches!(v, Verdict::Moved { .. }), "{v:?}");
            r.apply(&v);
        }
        assert_eq!(
            record_text(&r, Lang::De),
            "1. 5254 (e4) 5755 (e5) 2. 7163 (Sf3)"
        );
        assert_eq!(
            record_text(&r, Lang::Ru),
            "1. 5254 (e4) 5755 (e5) 2. 7163 (Кf3)"
        );
        assert_eq!(
            record_text(&r, Lang::En),
            crate::game::record_text(&r, true)
        );
    }
}
