//! The organiser's mails: to the players, what the organiser's commands
//! send (the welcome that opens a game, a new game address, a game
//! adjudicated); to the organiser, a mail that could not be delivered and
//! a message put in the quarantine. [pure: no IO]

use shakmaty::Color;

use crate::game::GameEnd;
use crate::i18n::{self, Arg, Key, Lang, color_arg};

use super::{GameContext, MailKind, OutMail, Seat, footer, game_arg, subject};

/// The mails that open a game: each player learns the opponent, their colour
/// and their own game address (as `Reply-To`, so replying just works).
pub fn welcome_mails(game: &GameContext<'_>, event: Option<&str>) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let me = game.seat(c);
            let them = game.seat(!c);
            let lang = me.lang;
            let opponent = ("opponent", Arg::from(them.who()));
            let intro = match event {
                Some(e) => i18n::text(
                    lang,
                    Key::WelcomeIntroEvent,
                    &[
                        game_arg(game.id),
                        ("event", e.into()),
                        ("color", color_arg(c)),
                        opponent.clone(),
                    ],
                ),
                None => i18n::text(
                    lang,
                    Key::WelcomeIntro,
                    &[game_arg(game.id), ("color", color_arg(c)), opponent.clone()],
                ),
            };
            let intro = format!(
                "{}{intro}\n{}\n{}\n\n",
                greeting(me),
                i18n::text(
                    lang,
                    Key::WelcomeAddress,
                    &[("address", me.address.as_str().into())]
                ),
                i18n::text(lang, Key::NotationExplained, &[]),
            );
            let subject = i18n::text(
                lang,
                Key::SubjectNewGame,
                &[
                    ("color", color_arg(c)),
                    (
                        "opponent",
                        them.name.as_deref().unwrap_or(&them.email).into(),
                    ),
                ],
            );
            game.game_mail(
                c,
                MailKind::Notice,
                &subject,
                &intro,
                game.record,
                &footer(lang, game.record.turn() == c, game.record),
            )
        })
        .collect()
}

/// The mail that gives a player a new game address after `wildt game rekey`:
/// the old one no longer works, and replying to this mail reaches the new one.
pub fn new_address_mail(game: &GameContext<'_>, seat: Color) -> OutMail {
    let me = game.seat(seat);
    let lang = me.lang;
    let intro = i18n::text(
        lang,
        Key::NewAddress,
        &[
            game_arg(game.id),
            ("color", color_arg(seat)),
            ("opponent", game.seat(!seat).who().into()),
            ("address", me.address.as_str().into()),
        ],
    );
    game.game_mail(
        seat,
        MailKind::Notice,
        &i18n::text(lang, Key::SubjectNewAddress, &[]),
        &format!("{}{intro}\n\n", greeting(me)),
        game.record,
        &footer(lang, game.record.turn() == seat, game.record),
    )
}

/// `Hello Anna Smith,` and a blank line when the player's name is known.
fn greeting(seat: &Seat) -> String {
    seat.name
        .as_ref()
        .map(|name| {
            format!(
                "{}\n\n",
                i18n::text(seat.lang, Key::Greeting, &[("name", name.as_str().into())])
            )
        })
        .unwrap_or_default()
}

/// The organiser's notice that a mail to a player failed for good: who,
/// which game, which mail, the relay's answer, and what to do.
pub fn undeliverable_notice(
    organiser: &str,
    game: Option<i64>,
    kind: &str,
    recipient: &str,
    row: i64,
    reason: &str,
) -> OutMail {
    let what = match game {
        Some(g) => format!("game {g}"),
        None => "no game".to_owned(),
    };
    let body = format!(
        "A mail to {recipient} ({what}, {kind}) could not be delivered and will not be \
         tried again.\n\nThe mail server answered: {reason}\n\n\
         Check the address with the player. Once it is fixed, `wildt outbox retry {row}` \
         sends the mail again; `wildt outbox list --failed` lists every failed mail.\n"
    );
    OutMail {
        to: organiser.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(game, &format!("mail to {recipient} failed")),
        body,
        // To the organiser, who reads the operator's language: English.
        html: None,
        lang: Lang::En,
        kind: MailKind::Notice,
        game,
        in_reply_to: None,
    }
}

/// Both players told the organiser decided the game, and why.
pub fn adjudicated_mails(game: &GameContext<'_>, end: GameEnd, reason: &str) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let lang = game.lang(c);
            let text = i18n::text(
                lang,
                Key::ClockAdjudicated,
                &[
                    game_arg(game.id),
                    ("result", end.result.as_str().into()),
                    ("reason", reason.into()),
                ],
            );
            game.game_mail(
                c,
                MailKind::GameOver,
                &i18n::text(
                    lang,
                    Key::SubjectGameOver,
                    &[("result", end.result.as_str().into())],
                ),
                &format!("{text}\n\n"),
                game.record,
                "",
            )
        })
        .collect()
}

/// The organiser's notice that a message could not be handled and was put
/// in the quarantine `folder`. Names the message only by what the inbox and
/// the headers say (never the player's text), and what to do.
pub fn quarantine_notice(
    organiser: &str,
    source: &str,
    message_id: Option<&str>,
    from: Option<&str>,
    attempts: u32,
    error: &str,
    folder: &str,
) -> OutMail {
    let body = format!(
        "A message could not be handled after {attempts} attempts and was put in the folder \
         \"{folder}\", so that the rest of the inbox goes on.\n\n\
         Inbox: {source}\nMessage-ID: {}\nFrom: {}\nLast error: {error}\n\n\
         Nobody was answered. Find the message in \"{folder}\"; once the cause is fixed \
         (`wildt status`, the journal), move it back to the inbox and it is read again.\n",
        message_id.unwrap_or("(none)"),
        from.unwrap_or("(none)"),
    );
    OutMail {
        to: organiser.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(None, "a message was put in the quarantine"),
        body,
        // For the organiser: English and text only, as the undeliverable notice.
        html: None,
        lang: Lang::En,
        kind: MailKind::Notice,
        game: None,
        in_reply_to: None,
    }
}
