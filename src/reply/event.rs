//! The mails of an event: one welcome per player listing all
//! their games, the notice that an opponent withdrew, and the standing line
//! of a game-over mail. [pure: no IO]
//!
//! Each game also keeps its own welcome ([`super::welcome_mails`]): it is the
//! root of that game's thread and its Reply-To is the game address, so a
//! player starts each game by answering it. The summary is the one place
//! that shows the whole section at once.

use shakmaty::Color;

use super::{MailKind, OutMail, subject};
use crate::event::{Player, Row};
use crate::i18n::{self, Key, Lang, color_arg};

/// One of a player's games, as the summary lists it.
#[derive(Debug, Clone)]
pub struct EventGameLine {
    pub game: i64,
    pub colour: Color,
    /// The opponent as the player should recognise them (name and address).
    pub opponent: String,
    /// The player's own address for this game.
    pub address: String,
}

/// How a player is named in their own mail: `Anna Smith <anna@…>` or the
/// bare address.
pub fn private_label(player: &Player) -> String {
    match &player.name {
        Some(name) => format!("{name} <{}>", player.email),
        None => player.email.clone(),
    }
}

/// The welcome that lists every game of `to` in the event `event`.
pub fn event_welcome(
    lang: Lang,
    event: &str,
    players: usize,
    to: &Player,
    games: &[EventGameLine],
) -> OutMail {
    let mut body = i18n::text(
        lang,
        Key::EventWelcomeIntro,
        &[
            ("event", event.into()),
            ("players", players.to_string().into()),
            ("games", games.len().to_string().into()),
        ],
    );
    body.push_str("\n\n");
    for g in games {
        body.push_str(&i18n::text(
            lang,
            Key::EventWelcomeGame,
            &[
                ("game", g.game.to_string().into()),
                ("color", color_arg(g.colour)),
                ("opponent", g.opponent.as_str().into()),
                ("address", g.address.as_str().into()),
            ],
        ));
        body.push('\n');
    }
    body.push('\n');
    body.push_str(&i18n::text(lang, Key::EventWelcomeOutro, &[]));
    body.push('\n');
    OutMail {
        to: to.email.clone(),
        to_name: to.name.clone(),
        reply_to: None,
        subject: subject(
            None,
            &i18n::text(lang, Key::SubjectEventWelcome, &[("event", event.into())]),
        ),
        body,
        html: None,
        lang,
        kind: MailKind::Notice,
        game: None,
        in_reply_to: None,
    }
}

/// Tells `to` (playing game `game` from `address`) that `withdrawn` left the
/// event and how their game was ruled.
pub fn withdrawal_notice(
    lang: Lang,
    event: &str,
    game: i64,
    to: &Player,
    address: &str,
    withdrawn: &str,
    annulled: bool,
) -> OutMail {
    let key = if annulled {
        Key::EventWithdrawalAnnulled
    } else {
        Key::EventWithdrawalForfeit
    };
    let mut body = i18n::text(
        lang,
        key,
        &[
            ("event", event.into()),
            ("game", game.to_string().into()),
            ("opponent", withdrawn.into()),
        ],
    );
    body.push('\n');
    OutMail {
        to: to.email.clone(),
        to_name: to.name.clone(),
        reply_to: Some(address.to_owned()),
        subject: subject(
            Some(game),
            &i18n::text(
                lang,
                Key::SubjectEventWithdrawal,
                &[("event", event.into())],
            ),
        ),
        body,
        html: None,
        lang,
        kind: MailKind::GameOver,
        game: Some(game),
        in_reply_to: None,
    }
}

/// The line a game-over mail of an event ends with: place, points, games.
pub fn standing_line(lang: Lang, event: &str, row: &Row, players: usize) -> String {
    i18n::text(
        lang,
        Key::EventStanding,
        &[
            ("event", event.into()),
            ("rank", row.rank.to_string().into()),
            ("points", row.points.to_string().into()),
            ("played", row.played.to_string().into()),
            ("players", players.to_string().into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_welcome_lists_every_game_with_colour_opponent_and_address() {
        let games = [
            EventGameLine {
                game: 3,
                colour: Color::White,
                opponent: "Bob <bob@x.example>".into(),
                address: "wildt+3-k1@club.example".into(),
            },
            EventGameLine {
                game: 4,
                colour: Color::Black,
                opponent: "cy@x.example".into(),
                address: "wildt+4-k2@club.example".into(),
            },
        ];
        let ann = Player {
            email: "ann@x.example".into(),
            name: None,
        };
        let m = event_welcome(Lang::En, "Spring 2027", 3, &ann, &games);
        assert_eq!(m.to, "ann@x.example");
        assert!(m.subject.contains("Spring 2027"), "{}", m.subject);
        assert!(
            m.body.contains(
                "Game 3: you play White against Bob <bob@x.example> - send your moves to wildt+3-k1@club.example"
            ),
            "{}",
            m.body
        );
        assert!(
            m.body
                .contains("Game 4: you play Black against cy@x.example - send your moves to wildt+4-k2@club.example"),
            "{}",
            m.body
        );
    }

    #[test]
    fn a_withdrawal_notice_says_forfeit_or_annulled() {
        let a = Player {
            email: "a@x".into(),
            name: None,
        };
        let f = withdrawal_notice(Lang::En, "E", 7, &a, "g@club", "Bob", false);
        assert!(f.body.contains("win for you by forfeit"), "{}", f.body);
        assert_eq!(f.reply_to.as_deref(), Some("g@club"));
        let n = withdrawal_notice(Lang::En, "E", 7, &a, "g@club", "Bob", true);
        assert!(n.body.contains("counts for neither side"), "{}", n.body);
    }
}
