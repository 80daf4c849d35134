//! The mails answering a move or a command: the move confirmed to its
//! player and passed on to the opponent, a draw offered or declined, the
//! board and record asked for, why a command was not carried out; and the
//! game-over mails, of a game ended by a move, by a command or without a
//! message (a time forfeit, a ruling). [pure: no IO]

use shakmaty::Color;

use crate::command::MoveNumber;
use crate::game::{GameEnd, MoveNumberText, Record};
use crate::i18n::{self, Arg, Key, Lang, color_arg, explain, san};
use crate::notation::Ply;
use crate::referee::Verdict;

use super::picture::Shown;
use super::{GameContext, MailKind, OutMail, footer, game_arg};

/// The mails for a verdict given to the player of `seat`. `after` is the record
/// with the verdict applied.
pub fn verdict_mails(
    game: &GameContext<'_>,
    seat: Color,
    verdict: &Verdict,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let mine = game.lang(seat);
    let theirs = game.lang(!seat);
    match verdict {
        Verdict::Moved {
            ply,
            number,
            end,
            draw_offered,
            ..
        } => {
            let played = Played {
                ply,
                number: *number,
                draw_offered: *draw_offered,
            };
            moved_mails(game, seat, &played, *end, after, answering)
        }
        Verdict::Ended { by, end } => ended_mails(game, seat, *by, *end, after, answering),
        Verdict::TablebaseClaimed {
            by,
            claim,
            proposed,
            said,
            end,
        } => {
            let how = |lang: Lang| {
                let key = match claim {
                    crate::tablebase::Claim::Win => Key::TbClaimedWin,
                    crate::tablebase::Claim::Draw => Key::TbClaimedDraw,
                };
                let line = i18n::text(
                    lang,
                    key,
                    &[
                        ("color", color_arg(*by)),
                        (
                            "position",
                            explain::tb_position(lang, proposed.as_ref()).into(),
                        ),
                        ("said", explain::tb_said(lang, said).into()),
                    ],
                );
                format!("{line}\n")
            };
            answering_one(game, seat, game_over(game, after, *end, how), answering)
        }
        Verdict::DrawOffered { by } => notice_pair(
            game,
            seat,
            after,
            answering,
            (
                Key::SubjectDrawOfferSent,
                i18n::text(mine, Key::DrawOfferSent, &[game_arg(game.id)]),
            ),
            (
                Key::SubjectDrawOffered,
                i18n::text(
                    theirs,
                    Key::DrawOffered,
                    &[game_arg(game.id), ("color", color_arg(*by))],
                ),
            ),
        )
        .into(),
        Verdict::DrawDeclined { by } => notice_pair(
            game,
            seat,
            after,
            answering,
            (
                Key::SubjectDrawDeclined,
                i18n::text(mine, Key::DrawDeclinedMine, &[game_arg(game.id)]),
            ),
            (
                Key::SubjectDrawDeclined,
                i18n::text(
                    theirs,
                    Key::DrawDeclinedTheirs,
                    &[game_arg(game.id), ("color", color_arg(*by))],
                ),
            ),
        )
        .into(),
        Verdict::Status => vec![status_mail(game, seat, after, answering)],
        Verdict::Rejected(why) => vec![rejected_mail(game, seat, why, after, answering)],
    }
}

/// The move a [`Verdict::Moved`] played, as its mails tell it.
struct Played<'v> {
    ply: &'v Ply,
    number: MoveNumber,
    /// The mover offered a draw with it.
    draw_offered: bool,
}

/// The mails of a move played: the confirmation to the mover, the move
/// passed on to the opponent (both showing the same record), and the
/// game-over mails if the move ended the game.
fn moved_mails(
    game: &GameContext<'_>,
    seat: Color,
    played: &Played<'_>,
    end: Option<GameEnd>,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let opp = !seat;
    let mine = game.lang(seat);
    let theirs = game.lang(opp);
    let move_text = format!("{} {}", MoveNumberText(played.number), played.ply.iccf);
    let moved = |lang: Lang, key: Key, color: Option<Color>, offer: Key| {
        let mut args = vec![
            game_arg(game.id),
            ("move", Arg::from(move_text.as_str())),
            ("san", san::localize(&played.ply.san, lang).into()),
        ];
        if let Some(c) = color {
            args.push(("color", color_arg(c)));
        }
        let mut s = i18n::text(lang, key, &args);
        s.push('\n');
        if played.draw_offered {
            s.push_str(&i18n::text(lang, offer, &[]));
            s.push('\n');
        }
        s.push('\n');
        s
    };
    let mut mails = Vec::new();
    let intro = moved(mine, Key::MovedMine, None, Key::MovedMineDrawOffer);
    let outro = if end.is_none() {
        footer(mine, false, after)
    } else {
        String::new()
    };
    let shown = Shown::new(after, game.kept);
    let mut m = game.game_mail_showing(
        seat,
        MailKind::MoveAccepted,
        &i18n::text(
            mine,
            Key::SubjectMoveAccepted,
            &[("move", move_text.as_str().into())],
        ),
        &intro,
        &shown,
        &outro,
    );
    m.in_reply_to = answering.map(str::to_owned);
    mails.push(m);

    let intro = moved(
        theirs,
        Key::MovedTheirs,
        Some(seat),
        Key::MovedTheirsDrawOffer,
    );
    let (subject, outro) = if end.is_none() {
        (
            i18n::text(
                theirs,
                Key::SubjectYourMove,
                &[("move", move_text.as_str().into())],
            ),
            footer(theirs, true, after),
        )
    } else {
        (move_text.clone(), String::new())
    };
    mails.push(game.game_mail_showing(
        opp,
        MailKind::OpponentMoved,
        &subject,
        &intro,
        &shown,
        &outro,
    ));
    if let Some(end) = end {
        mails.extend(game_over(game, after, end, |lang| adjudicated(lang, end)));
    }
    mails
}

/// The line opening the game-over mails when the referee's tables ended
/// the game (`adjudicate = "auto"`, or the organiser); empty otherwise.
fn adjudicated(lang: Lang, end: GameEnd) -> String {
    if end.termination != crate::game::Termination::Tablebase {
        return String::new();
    }
    let said = crate::tablebase::Resolved {
        result: end.result,
        cursed: false,
    };
    format!(
        "{}\n",
        i18n::text(
            lang,
            Key::TbAdjudicated,
            &[("said", explain::tb_said(lang, &said).into())]
        )
    )
}

/// `mails` with the one to `seat` answering its message.
fn answering_one(
    game: &GameContext<'_>,
    seat: Color,
    mut mails: Vec<OutMail>,
    answering: Option<&str>,
) -> Vec<OutMail> {
    for m in &mut mails {
        if m.to == game.seat(seat).email {
            m.in_reply_to = answering.map(str::to_owned);
        }
    }
    mails
}

/// The game-over mails of a game `by` ended with a command (resigned,
/// agreed or claimed a draw); the one to `seat` answers its message.
fn ended_mails(
    game: &GameContext<'_>,
    seat: Color,
    by: Color,
    end: GameEnd,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let how = |lang: Lang| {
        let color = ("color", color_arg(by));
        let line = match end.termination {
            crate::game::Termination::Resignation => i18n::text(lang, Key::EndedResigned, &[color]),
            crate::game::Termination::DrawAgreed => {
                i18n::text(lang, Key::EndedDrawAccepted, &[color])
            }
            t => i18n::text(
                lang,
                Key::EndedDrawClaimed,
                &[color, ("termination", explain::termination(lang, t).into())],
            ),
        };
        format!("{line}\n")
    };
    answering_one(game, seat, game_over(game, after, end, how), answering)
}

/// The board and record `seat` asked for.
fn status_mail(
    game: &GameContext<'_>,
    seat: Color,
    after: &Record,
    answering: Option<&str>,
) -> OutMail {
    let mine = game.lang(seat);
    let to_play = after.end.is_none() && after.turn() == seat;
    let outro = if after.end.is_none() {
        footer(mine, to_play, after)
    } else {
        String::new()
    };
    let mut m = game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(mine, Key::SubjectStatus, &[]),
        &format!(
            "{}\n\n",
            i18n::text(mine, Key::StatusIntro, &[game_arg(game.id)])
        ),
        after,
        &outro,
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// Why the command of `seat` was not carried out, and what to do.
fn rejected_mail(
    game: &GameContext<'_>,
    seat: Color,
    why: &crate::referee::Rejection,
    after: &Record,
    answering: Option<&str>,
) -> OutMail {
    let mine = game.lang(seat);
    let intro = format!(
        "{}\n\n{}\n\n{}\n\n",
        i18n::text(mine, Key::RejectedIntro, &[game_arg(game.id)]),
        i18n::text(
            mine,
            Key::RejectedReason,
            &[("reason", explain::rejection(mine, why).into())]
        ),
        i18n::text(
            mine,
            Key::RejectedWhatToDo,
            &[("todo", explain::what_to_do(mine, why, after, seat).into())]
        ),
    );
    let mut m = game.game_mail(
        seat,
        MailKind::MoveRejected,
        &i18n::text(mine, Key::SubjectNotPlayed, &[]),
        &intro,
        after,
        "",
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// A notice to the player who gave the command (answering their message) and
/// one to the opponent, each its text (`Game N: …`) followed by the board.
fn notice_pair(
    game: &GameContext<'_>,
    seat: Color,
    after: &Record,
    answering: Option<&str>,
    mine: (Key, String),
    theirs: (Key, String),
) -> [OutMail; 2] {
    let mail = |to: Color, (subject, text): (Key, String)| {
        game.game_mail(
            to,
            MailKind::Notice,
            &i18n::text(game.lang(to), subject, &[]),
            &format!("{text}\n\n"),
            after,
            "",
        )
    };
    let mut m = mail(seat, mine);
    m.in_reply_to = answering.map(str::to_owned);
    [m, mail(!seat, theirs)]
}

/// The game-over mail to each player, each opening with `how(lang)` (how the
/// game ended, if a player's command ended it).
fn game_over(
    game: &GameContext<'_>,
    after: &Record,
    end: GameEnd,
    how: impl Fn(Lang) -> String,
) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let lang = game.lang(c);
            let intro = format!(
                "{}{}\n\n",
                how(lang),
                i18n::text(
                    lang,
                    Key::GameOverBody,
                    &[
                        game_arg(game.id),
                        ("result", end.result.as_str().into()),
                        (
                            "termination",
                            explain::termination(lang, end.termination).into()
                        ),
                    ],
                )
            );
            game.game_mail(
                c,
                MailKind::GameOver,
                &i18n::text(
                    lang,
                    Key::SubjectGameOver,
                    &[("result", end.result.as_str().into())],
                ),
                &intro,
                after,
                &format!("\n{}\n", i18n::text(lang, Key::GameOverThanks, &[])),
            )
        })
        .collect()
}

/// The game-over mails to both players when the game ended without a
/// message (a time forfeit decided by the referee's clock, a ruling).
pub fn game_over_mails(game: &GameContext<'_>, after: &Record, end: GameEnd) -> Vec<OutMail> {
    game_over(game, after, end, |lang| adjudicated(lang, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The confirmation and the move passed on share what they show only
    /// within one language: with White reading German and Black Russian,
    /// each mail's text and page give the record in its reader's SAN, and
    /// in a game of one language both pages carry the same record table.
    #[test]
    fn a_moves_two_mails_show_the_record_each_in_its_readers_language() {
        let mails = |white: Lang, black: Lang| {
            let mut game = crate::fixtures::game_17(&["5254", "5755"]);
            game.white.lang = white;
            game.black.lang = black;
            let (letters, _) = crate::fixtures::white_moves(&game, "2. 7163", white);
            letters
                .mails
                .iter()
                .map(|m| (m.body.clone(), m.html.as_ref().unwrap().render(&m.subject)))
                .collect::<Vec<_>>()
        };
        let mixed = mails(Lang::De, Lang::Ru);
        let (de_text, de_page) = &mixed[0];
        let (ru_text, ru_page) = &mixed[1];
        assert!(de_text.contains("7163 (Sf3)"), "{de_text}");
        assert!(!de_text.contains("\u{41a}f3"), "{de_text}");
        assert!(de_page.contains("<b>7163</b> (Sf3)"), "{de_page}");
        assert!(ru_text.contains("7163 (\u{41a}f3)"), "{ru_text}");
        assert!(!ru_text.contains("(Sf3)"), "{ru_text}");
        assert!(ru_page.contains("<b>7163</b> (&#1050;f3)"), "{ru_page}");
        assert!(!ru_page.contains("(Sf3)"), "{ru_page}");
        // The record's table is the page's last (the board's, seen from
        // each reader's side, comes first).
        let table = |page: &str| {
            let from = page.rfind("<table").unwrap();
            page[from..].split("</table>").next().unwrap().to_owned()
        };
        let same = mails(Lang::En, Lang::En);
        assert!(same[0].1.contains("<b>7163</b> (Nf3)"), "{}", same[0].1);
        assert!(table(&same[0].1).contains("(Nf3)"), "{}", same[0].1);
        assert_eq!(table(&same[0].1), table(&same[1].1));
    }
}
