//! The notices about a message that plays nothing: too large, the help, a
//! player writing to the wrong address, a stranger or a message failing
//! authentication (told to the real player, never to the sender), a
//! message in which no clear command was found. [pure: no IO]

use shakmaty::Color;

use crate::config::RefereeConfig;
use crate::decide::{Decision, GameView, Notice};
use crate::i18n::{self, Key, Lang, explain};
use crate::intake::{Intake, Unclear};

use super::cache::Renderings;
use super::picture::diagram;
use super::{
    GameContext, HtmlPart, MailKind, OutMail, Seat, game_arg, notice, number_text, with_game_kept,
};

/// The mail a notice becomes; `None` when it names a seat of no game.
pub(super) fn notice_mail(
    what: &Notice,
    decision: &Decision,
    intake: &Intake,
    game: Option<&GameView>,
    kept: Option<&Renderings>,
    referee: &RefereeConfig,
    lang: Lang,
) -> Option<OutMail> {
    let answering = intake.message_id.as_deref();
    let sender = |key: Key, body: String, game: Option<i64>| {
        let text = i18n::text(lang, key, &[]);
        Some(notice(
            intake.from.as_deref()?,
            lang,
            &text,
            body,
            game,
            answering,
        ))
    };
    match what {
        Notice::TooLarge { size, limit } => sender(
            Key::SubjectTooLarge,
            format!(
                "{}\n",
                i18n::text(
                    lang,
                    Key::TooLarge,
                    &[("size", (*size).into()), ("limit", (*limit).into())]
                )
            ),
            decision.game,
        ),
        Notice::Help => sender(Key::SubjectHowToPlay, help_text(referee, lang), None),
        Notice::WrongAddress { seat } => with_game_kept(game?, kept, referee, |ctx| {
            Some(wrong_address_mail(ctx, *seat, answering))
        }),
        Notice::Stranger { seat, from } => with_game_kept(game?, kept, referee, |ctx| {
            let seat = ctx.seat(*seat);
            Some(security_notice(
                ctx.id,
                seat,
                i18n::text(
                    seat.lang,
                    Key::Stranger,
                    &[
                        game_arg(ctx.id),
                        ("from", from.as_str().into()),
                        ("registered", seat.email.as_str().into()),
                    ],
                ),
            ))
        }),
        Notice::AuthFailed { seat, from, checks } => with_game_kept(game?, kept, referee, |ctx| {
            Some(auth_failed_notice(ctx, *seat, from, checks.as_deref()))
        }),
        Notice::Unclear { seat, unclear } => with_game_kept(game?, kept, referee, |ctx| {
            Some(unclear_mail(ctx, *seat, unclear, answering))
        }),
    }
}

/// To the player of `seat`, at their registered address: they wrote to the
/// wrong address, and which one is their game's.
fn wrong_address_mail(ctx: &GameContext<'_>, seat: Color, answering: Option<&str>) -> OutMail {
    let seat = ctx.seat(seat);
    let mut m = notice(
        &seat.email,
        seat.lang,
        &i18n::text(seat.lang, Key::SubjectWrongAddress, &[]),
        format!(
            "{}\n",
            i18n::text(
                seat.lang,
                Key::WrongAddress,
                &[game_arg(ctx.id), ("address", seat.address.as_str().into())]
            )
        ),
        Some(ctx.id),
        answering,
    );
    m.to_name = seat.name.clone();
    m.reply_to = Some(seat.address.clone());
    m
}

/// To the player of `seat`: a message from `from` with their address as
/// sender failed the authentication checks, and what the club's server
/// found (`checks`).
fn auth_failed_notice(
    ctx: &GameContext<'_>,
    seat: Color,
    from: &str,
    checks: Option<&str>,
) -> OutMail {
    let seat = ctx.seat(seat);
    // What the club's server found, in the player's words.
    let found = match checks {
        Some(summary) => i18n::text(
            seat.lang,
            Key::AuthFoundSummary,
            &[("summary", summary.into())],
        ),
        None => i18n::text(seat.lang, Key::AuthFoundNothing, &[]),
    };
    security_notice(
        ctx.id,
        seat,
        i18n::text(
            seat.lang,
            Key::AuthFailed,
            &[
                game_arg(ctx.id),
                ("from", from.into()),
                ("found", found.into()),
            ],
        ),
    )
}

/// To the player of `seat`: no clear command was found in their message,
/// what was found instead, and the board to answer from.
fn unclear_mail(
    ctx: &GameContext<'_>,
    seat: Color,
    unclear: &Unclear,
    answering: Option<&str>,
) -> OutMail {
    let lang = ctx.lang(seat);
    let intro = format!(
        "{}\n\n{}\n\n{}\n\n",
        i18n::text(lang, Key::UnclearIntro, &[game_arg(ctx.id)]),
        i18n::text(
            lang,
            Key::UnclearFound,
            &[("what", explain::unclear(lang, unclear).into())]
        ),
        i18n::text(
            lang,
            Key::UnclearPlease,
            &[("number", number_text(ctx.record).into())]
        ),
    );
    let status = explain::status_line(lang, ctx.record);
    let mut m = ctx.mail(
        seat,
        MailKind::MoveRejected,
        &i18n::text(lang, Key::SubjectNotUnderstood, &[]),
        format!("{intro}{}{status}\n", diagram(lang, ctx.record)),
    );
    let mut html = HtmlPart::new(lang, intro, ctx.record.clone(), seat, status);
    html.kept = ctx.kept.for_reply(ctx.record, lang).cloned();
    m.html = Some(html);
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// A notice to the real player of a seat about a message that was not
/// theirs; never to the sender, whose From may be forged.
fn security_notice(game: i64, seat: &Seat, text: String) -> OutMail {
    let mut m = notice(
        &seat.email,
        seat.lang,
        &i18n::text(seat.lang, Key::SubjectSecurity, &[]),
        format!("{text}\n"),
        Some(game),
        None,
    );
    m.to_name = seat.name.clone();
    m.reply_to = Some(seat.address.clone());
    m
}

/// The short help sent to mail that reaches the referee without a game address.
pub fn help_text(referee: &RefereeConfig, lang: Lang) -> String {
    let text = i18n::text(
        lang,
        Key::Help,
        &[
            ("name", referee.name.as_str().into()),
            ("address", referee.address.as_str().into()),
            ("local", referee.local.as_str().into()),
            ("domain", referee.domain.as_str().into()),
        ],
    );
    format!("{text}\n")
}
