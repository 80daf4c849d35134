//! Shared test data for the benches and fuzz targets (separate crates, so
//! they cannot share a test module): the club of the mail fixtures and its
//! game 17. Not part of wildt's interface. [pure: no IO]

use crate::auth::Policy;
use crate::config::{Limits, RefereeConfig, Rules, Security};
use crate::decide::{GameView, Player};
use crate::game::Record;
use crate::intake::{DEFAULT_MAX_COMMANDS, IntakeConfig};

/// White's key in game 17 (`chess+17-k3x9qp2m@club.example`).
pub const WHITE_KEY: &str = "k3x9qp2m";
/// Black's key in game 17.
pub const BLACK_KEY: &str = "b7y2wq4n";

/// The referee `chess@club.example`, as the mail fixtures address it.
pub fn referee() -> RefereeConfig {
    RefereeConfig {
        address: "chess@club.example".to_owned(),
        local: "chess".to_owned(),
        domain: "club.example".to_owned(),
        name: "Club referee".to_owned(),
        organiser: None,
    }
}

/// The club's rules with messages up to `max_message_bytes` read, the
/// default limits otherwise, `policy`, and `mx.club.example` as the trusted
/// server when `trusted` is set.
pub fn rules(max_message_bytes: usize, policy: Policy, trusted: bool) -> Rules {
    let referee = referee();
    Rules {
        intake: IntakeConfig {
            referee_local: referee.local.clone(),
            referee_domain: referee.domain.clone(),
            max_message_bytes,
            max_commands: DEFAULT_MAX_COMMANDS,
        },
        referee,
        limits: Limits {
            max_message_bytes,
            replies_per_sender_per_hour: 60,
            games_per_player: 50,
            commands_per_message: DEFAULT_MAX_COMMANDS,
        },
        security: Security {
            trusted_authserv_id: trusted.then(|| "mx.club.example".to_owned()),
            policy,
        },
        clock: crate::clock::ClockRules::default(),
        tablebase: crate::tablebase::TablebaseRules::default(),
    }
}

/// Game 17 between `anna@example.org` (White) and `ben@example.net`
/// (Black) after `moves` (ICCF, from the start).
///
/// # Panics
/// If a move is not ICCF or not legal: fixtures are written by hand.
pub fn game_17(moves: &[&str]) -> GameView {
    GameView {
        id: 17,
        white: Player {
            email: "anna@example.org".to_owned(),
            name: None,
            key: WHITE_KEY.to_owned(),
            lang: crate::i18n::Lang::En,
        },
        black: Player {
            email: "ben@example.net".to_owned(),
            name: None,
            key: BLACK_KEY.to_owned(),
            lang: crate::i18n::Lang::En,
        },
        record: Record::replay(None, moves.iter().map(|m| m.parse().expect("an ICCF move")))
            .expect("a legal fixture game"),
    }
}

/// The replies to White's mail with `text` to `game` (game 17, by White's
/// key), judged under [`rules`] (asserted to be a move) and written with
/// `lang` as the sender's language; and the referee that writes them.
///
/// # Panics
/// If the mail is not judged a move, or does not make two mails.
pub fn white_moves(
    game: &GameView,
    text: &str,
    lang: crate::i18n::Lang,
) -> (crate::reply::Letters, RefereeConfig) {
    use crate::decide::{Recent, judge_message};
    let rules = rules(1 << 20, Policy::Key, true);
    let raw = format!(
        "From: anna@example.org\r\nTo: chess+17-{WHITE_KEY}@club.example\r\n\
         Subject: Re: Game 17\r\nMessage-ID: <move@example.org>\r\n\r\n{text}\r\n"
    );
    let intake = crate::intake::read(raw.as_bytes(), &rules.intake);
    let d = judge_message(
        raw.as_bytes(),
        &intake,
        Some(game),
        Recent::default(),
        &rules,
    );
    assert_eq!(d.outcome.as_str(), "moved", "{}", d.detail);
    let letters = crate::reply::write(&d, &intake, Some(game), None, &rules.referee, lang);
    assert_eq!(letters.mails.len(), 2);
    (letters, rules.referee)
}
