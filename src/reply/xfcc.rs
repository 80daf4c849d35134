//! The words of Xfcc: the note (`myMessage`) in the opponent's mail, the
//! mover's confirmation left out when asked, and the password mail.
//! [pure: no IO]

use shakmaty::Color;

use super::{Letters, MailKind, OutMail};
use crate::decide::GameView;
use crate::i18n::{self, Key, Lang};

/// The letters of a command sent by Xfcc by the player of `seat` in `game`:
/// `note` added to each mail to the opponent, and the mails to the mover
/// left out unless `confirm_by_mail` (the GUI has the answer already).
pub fn by_xfcc(
    letters: &mut Letters,
    game: &GameView,
    seat: Color,
    note: Option<&str>,
    confirm_by_mail: bool,
) {
    let mover = &game.player(seat).email;
    let opponent = &game.player(seat.other()).email;
    if !confirm_by_mail {
        letters.mails.retain(|m| !m.to.eq_ignore_ascii_case(mover));
    }
    if let Some(note) = note {
        for m in letters
            .mails
            .iter_mut()
            .filter(|m| m.to.eq_ignore_ascii_case(opponent))
        {
            let line = i18n::text(m.lang, Key::XfccNote, &[("note", note.into())]);
            m.append(&format!("\n\n{line}\n"));
        }
    }
}

/// The mail that gives `email` a new Xfcc password.
pub fn password_mail(email: &str, name: Option<&str>, lang: Lang, password: &str) -> OutMail {
    let body = i18n::text(
        lang,
        Key::XfccPassword,
        &[("user", email.into()), ("password", password.into())],
    );
    OutMail {
        to: email.to_owned(),
        to_name: name.map(str::to_owned),
        reply_to: None,
        subject: super::subject(None, &i18n::text(lang, Key::SubjectXfccPassword, &[])),
        body: format!("{body}\n"),
        html: None,
        lang,
        kind: MailKind::Notice,
        game: None,
        in_reply_to: None,
    }
}
