//! The words about conditional moves: the sender's set stored, cancelled or
//! refused; the prepared answers played (to their player, with what remains
//! of the set, and to the opponent, who learns only that the move was
//! prepared); a set cleared by a move it did not foresee. [pure: no IO]
//!
//! The opponent's mails never show a set's lines: only the player's own
//! mails list them.

use shakmaty::Color;

use crate::conditional::ConditionalTree;
use crate::decide::conditional::{Cleared, Fate, Prepared, SetChange};
use crate::decide::{Decision, GameView, Outcome};
use crate::game::{MoveNumberText, Record};
use crate::i18n::{Key, Lang, text};
use crate::referee::Verdict;

use super::cache::Renderings;
use super::{GameContext, MailKind, OutMail, footer, subject, verdict_mails, with_game_kept};
use crate::config::RefereeConfig;

/// The lines of a set, one per line, as bullets: a player who copies them
/// into a new mail sends the same set (a dash is read as decoration, where
/// a line number would be read as a move number).
fn tree_lines(tree: &ConditionalTree) -> String {
    tree.lines().iter().map(|l| format!("  - {l}\n")).collect()
}

/// What the sender is told about their set change.
fn set_text(lang: Lang, change: &SetChange, moved: bool) -> String {
    match change {
        SetChange::Replaced(tree) => {
            format!("{}\n{}", text(lang, Key::CondStored, &[]), tree_lines(tree))
        }
        SetChange::Cancelled => format!("{}\n", text(lang, Key::CondCancelled, &[])),
        SetChange::Rejected(why) => rejected(lang, &why.to_string(), moved),
        SetChange::Unreadable(why) => rejected(lang, &why.to_string(), moved),
        SetChange::NotConsidered => format!("{}\n", text(lang, Key::CondNotConsidered, &[])),
    }
}

fn rejected(lang: Lang, reason: &str, moved: bool) -> String {
    let mut s = format!(
        "{}\n",
        text(lang, Key::CondRejected, &[("reason", reason.into())])
    );
    if moved {
        s.push_str(&text(lang, Key::CondMoveCounts, &[]));
        s.push('\n');
    }
    s
}

fn remaining_text(lang: Lang, tree: Option<&ConditionalTree>) -> String {
    match tree {
        Some(t) => format!("{}\n{}", text(lang, Key::CondRemaining, &[]), tree_lines(t)),
        None => format!("{}\n", text(lang, Key::CondNoneRemain, &[])),
    }
}

/// Adds to `mails` (the verdict's or notice's mails of `decision`) what
/// conditional moves change: the sender's set, the prepared answers played,
/// the sets cleared. `answering` is the sender's Message-ID; the mails of
/// prepared answers continue the renderings `kept` beside the record.
pub(super) fn amend(
    mails: &mut Vec<OutMail>,
    decision: &Decision,
    answering: Option<&str>,
    game: Option<&GameView>,
    kept: Option<&Renderings>,
    referee: &RefereeConfig,
) {
    let (Some(seat), Some(view)) = (decision.seat, game) else {
        return;
    };
    with_game_kept(view, kept, referee, |ctx| {
        let lang = ctx.lang(seat);
        if let Some(change) = &decision.conditional {
            let moved = matches!(decision.verdict, Some(Verdict::Moved { .. }));
            let note = set_text(lang, change, moved);
            if decision.outcome == Outcome::Conditionals {
                mails.push(set_mail(ctx, seat, lang, &note, answering));
            } else if let Some(m) = mails
                .iter_mut()
                .find(|m| m.to == ctx.seat(seat).email && m.in_reply_to.as_deref() == answering)
            {
                m.append(&format!("\n{note}"));
            }
        }
        let Some(sequel) = &decision.sequel else {
            return;
        };
        let mut before = decision
            .record_after
            .clone()
            .unwrap_or_else(|| view.record.clone());
        for p in &sequel.played {
            // The player whose answer this is gets one mail with both
            // moves: the relay of the move answered is dropped.
            if let Some(i) = mails
                .iter()
                .rposition(|m| m.to == ctx.seat(p.seat).email && m.kind == MailKind::OpponentMoved)
            {
                mails.remove(i);
            }
            mails.extend(prepared_mails(ctx, p, &before));
            before = p.after.clone();
        }
        for c in [Color::White, Color::Black] {
            let Fate::Clear(why) = sequel.fate.get(c) else {
                continue;
            };
            let lang = ctx.lang(c);
            let note = match why {
                Cleared::OffTree { number, opponent } => text(
                    lang,
                    Key::CondOffTree,
                    &[(
                        "opponent",
                        format!("{} {opponent}", MoveNumberText(*number)).into(),
                    )],
                ),
                Cleared::NoOfferToAccept { number, opponent } => text(
                    lang,
                    Key::CondNoOffer,
                    &[(
                        "opponent",
                        format!("{} {opponent}", MoveNumberText(*number)).into(),
                    )],
                ),
                Cleared::Stale => text(lang, Key::CondStale, &[]),
                Cleared::Cancelled | Cleared::UsedUp | Cleared::GameOver => continue,
            };
            // The mail that brought the move the set did not foresee.
            if let Some(m) = mails
                .iter_mut()
                .rev()
                .find(|m| m.to == ctx.seat(c).email && m.kind == MailKind::OpponentMoved)
            {
                m.insert_after_first_line(&note);
            }
        }
    });
}

/// The mail for conditions sent without a command.
fn set_mail(
    ctx: &GameContext<'_>,
    seat: Color,
    lang: Lang,
    note: &str,
    answering: Option<&str>,
) -> OutMail {
    let record = ctx.record;
    let outro = if record.end.is_none() {
        footer(lang, record.turn() == seat, record)
    } else {
        String::new()
    };
    let mut m = ctx.game_mail(
        seat,
        MailKind::Notice,
        &text(lang, Key::CondSubject, &[]),
        &format!(
            "{}\n\n{note}\n",
            text(lang, Key::CondIntro, &[("game", ctx.id.to_string().into())])
        ),
        record,
        &outro,
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The mails of one prepared answer: the verdict's own mails, the player's
/// told which move it answered and what remains, the opponent that it was
/// prepared.
fn prepared_mails(ctx: &GameContext<'_>, p: &Prepared, before: &Record) -> Vec<OutMail> {
    let lang = ctx.lang(p.seat);
    let mut mails = verdict_mails(ctx, p.seat, &p.verdict, &p.after, None);
    let (number, opponent) = (
        before.number_of_ply(before.ply_count().saturating_sub(1)),
        p.matched.opponent,
    );
    let opponent = format!("{} {opponent}", MoveNumberText(number));
    let mine = &ctx.seat(p.seat).email;
    let theirs = &ctx.seat(!p.seat).email;
    for m in &mut mails {
        if &m.to == mine && m.kind != MailKind::OpponentMoved {
            let intro = match &p.verdict {
                Verdict::Moved { ply, number, .. } => {
                    let answer = format!("{} {}", MoveNumberText(*number), ply.iccf);
                    if m.kind == MailKind::MoveAccepted {
                        m.kind = MailKind::PreparedMovePlayed;
                        m.subject = subject(
                            Some(ctx.id),
                            &text(
                                lang,
                                Key::CondSubjectPrepared,
                                &[("move", answer.clone().into())],
                            ),
                        );
                    }
                    text(
                        lang,
                        Key::CondPreparedPlayed,
                        &[
                            ("game", ctx.id.to_string().into()),
                            ("opponent", opponent.clone().into()),
                            ("answer", answer.into()),
                        ],
                    )
                }
                _ => text(
                    lang,
                    Key::CondPreparedAccepted,
                    &[
                        ("game", ctx.id.to_string().into()),
                        ("opponent", opponent.clone().into()),
                    ],
                ),
            };
            let mut body = format!("{intro}\n");
            if matches!(p.verdict, Verdict::Moved { end: None, .. }) {
                body.push_str(&remaining_text(lang, p.matched.remaining.as_ref()));
            }
            body.push('\n');
            m.prepend(&body);
        } else if &m.to == theirs && m.kind == MailKind::OpponentMoved {
            let lang = ctx.lang(!p.seat);
            m.insert_after_first_line(&text(lang, Key::CondRelayPrepared, &[]));
        }
    }
    mails
}
