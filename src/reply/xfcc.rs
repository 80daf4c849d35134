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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{game_17, white_moves};

    /// White's move by Xfcc with a note: the note is added to Black's mail
    /// only; without `confirm_by_mail` White's confirmation is left out.
    #[test]
    fn the_note_goes_to_the_opponent_and_the_confirmation_only_when_asked() {
        let game = game_17(&[]);
        let (mut letters, _) = white_moves(&game, "5254", Lang::En);
        by_xfcc(&mut letters, &game, Color::White, Some("Hi Ben"), true);
        let to = |l: &Letters, who: &str| {
            l.mails
                .iter()
                .filter(|m| m.to == who)
                .map(|m| m.body.clone())
                .collect::<Vec<_>>()
        };
        let ben = to(&letters, "ben@example.net");
        assert_eq!(ben.len(), 1);
        assert!(
            ben[0].contains("Your opponent's message: Hi Ben"),
            "{}",
            ben[0]
        );
        let anna = to(&letters, "anna@example.org");
        assert_eq!(anna.len(), 1);
        assert!(!anna[0].contains("Hi Ben"));

        let (mut letters, _) = white_moves(&game, "5254", Lang::En);
        by_xfcc(&mut letters, &game, Color::White, None, false);
        assert!(to(&letters, "anna@example.org").is_empty());
        assert_eq!(to(&letters, "ben@example.net").len(), 1);
    }

    #[test]
    fn the_password_mail_names_the_user_and_the_password() {
        let m = password_mail("anna@example.org", None, Lang::De, "pw123456");
        assert!(m.body.contains("pw123456") && m.body.contains("anna@example.org"));
        assert!(m.subject.contains("Xfcc-Passwort"), "{}", m.subject);
        assert_eq!(m.kind, MailKind::Notice);
    }
}
