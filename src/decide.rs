//! From a read message and its game to a decision: who is writing, what the
//! referee says, and which mails go out. [pure: no IO]
//!
//! The daemon and `wildt check` both call [`decide`]; the store only looks up the
//! game before and persists the decision after.

use std::fmt;

use shakmaty::Color;
use subtle::ConstantTimeEq;

use crate::auth::{AuthOutcome, Policy};
use crate::config::RefereeConfig;
use crate::game::Record;
use crate::intake::{Disposition, Intake, Reading, Unclear};
use crate::notation::{IccfMove, IllegalMove, MoveError, ParseError, parse_move};
use crate::referee::{Rejection, Verdict, judge};
use crate::reply::{self, Event, GameContext, OutMail, Seat};

/// A player's seat as stored: registered address and secret key.
#[derive(Debug, Clone)]
pub struct Player {
    pub email: String,
    pub key: String,
}

/// A game with what the decision needs.
#[derive(Debug, Clone)]
pub struct GameView {
    pub id: i64,
    pub white: Player,
    pub black: Player,
    pub record: Record,
}

impl GameView {
    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// White's and Black's seat as the reply writer needs them: the
    /// registered address and the game address.
    pub fn seats(&self, referee: &RefereeConfig) -> (Seat, Seat) {
        let seat = |p: &Player| Seat {
            email: p.email.clone(),
            address: game_address(referee, self.id, &p.key),
        };
        (seat(&self.white), seat(&self.black))
    }
}

/// `local+<game>-<key>@domain`: where the player of a seat sends moves.
pub fn game_address(referee: &RefereeConfig, game: i64, key: &str) -> String {
    format!("{}+{game}-{key}@{}", referee.local, referee.domain)
}

/// What happened to a message, as recorded in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// An auto-reply, bounce or list mail: recorded, never answered.
    Automatic,
    /// No usable `From`: nobody to answer.
    NoSender,
    TooLarge,
    /// Not addressed to a game (or to a game that does not exist): help sent.
    Help,
    /// A game address whose key belongs to no seat.
    WrongKey,
    /// A player wrote to the opponent's game address.
    OtherSeatKey,
    /// Someone who is not the seat's player wrote to its address.
    Stranger,
    /// The registered sender, but not authenticated as the policy requires.
    AuthFailed,
    /// The player's text held no clear command.
    Unclear,
    Moved,
    Ended,
    DrawOffered,
    DrawDeclined,
    Status,
    Rejected,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Automatic => "automatic",
            Outcome::NoSender => "no_sender",
            Outcome::TooLarge => "too_large",
            Outcome::Help => "help",
            Outcome::WrongKey => "wrong_key",
            Outcome::OtherSeatKey => "other_seat_key",
            Outcome::Stranger => "stranger",
            Outcome::AuthFailed => "auth_failed",
            Outcome::Unclear => "unclear",
            Outcome::Moved => "moved",
            Outcome::Ended => "ended",
            Outcome::DrawOffered => "draw_offered",
            Outcome::DrawDeclined => "draw_declined",
            Outcome::Status => "status",
            Outcome::Rejected => "rejected",
        }
    }

    /// Whether the game's state changes.
    pub fn changes_game(self) -> bool {
        matches!(
            self,
            Outcome::Moved | Outcome::Ended | Outcome::DrawOffered | Outcome::DrawDeclined
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Facts from the database the decision depends on besides the game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Recent {
    /// Replies wildt wrote to this sender, answering its own messages, in the
    /// last hour (relays of an opponent's moves are not counted).
    pub replies_to_sender: u32,
    /// Whether a security notice (stranger, failed authentication) for this
    /// game went out in the last hour.
    pub security_notice_sent: bool,
}

pub struct Limits {
    pub replies_per_sender_per_hour: u32,
    pub max_message_bytes: usize,
}

/// The deployment's policy on who may move, and what the trusted server said
/// about this message's sender (`None` when no trusted server is configured).
#[derive(Debug, Clone, Default)]
pub struct Trust {
    pub policy: Policy,
    pub auth: Option<AuthOutcome>,
}

impl Trust {
    fn authenticated(&self) -> bool {
        self.auth.as_ref().is_some_and(AuthOutcome::passed)
    }
}

#[derive(Debug, Clone)]
pub struct Decision {
    pub outcome: Outcome,
    pub game: Option<i64>,
    pub seat: Option<Color>,
    pub verdict: Option<Verdict>,
    /// The game's record after the verdict, when it changed.
    pub record_after: Option<Record>,
    /// One line for the log and the database.
    pub detail: String,
    pub mails: Vec<OutMail>,
    /// Mails to the sender dropped by the hourly limit.
    pub rate_limited: usize,
    /// What the trusted server said about the sender (`None` when no trusted
    /// server is configured, or the message has no `From`), for the log and
    /// `wildt check`.
    pub auth: Option<AuthOutcome>,
}

impl Decision {
    fn new(outcome: Outcome, detail: impl Into<String>) -> Decision {
        Decision {
            outcome,
            game: None,
            seat: None,
            verdict: None,
            record_after: None,
            detail: detail.into(),
            mails: Vec::new(),
            rate_limited: 0,
            auth: None,
        }
    }
}

fn eq_ct(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Decides what to do with `intake`, given its game (looked up by the game
/// number in its address, if any) and recent history.
pub fn decide(
    intake: &Intake,
    game: Option<&GameView>,
    referee: &RefereeConfig,
    limits: &Limits,
    recent: Recent,
    trust: &Trust,
) -> Decision {
    let mut d = decide_inner(intake, game, referee, limits, recent, trust);
    d.auth = trust.auth.clone();
    // Bound what goes back to the sender: an autoresponder that slips through
    // the header checks must not get an endless conversation.
    if let Some(sender) = &intake.from {
        let budget = limits
            .replies_per_sender_per_hour
            .saturating_sub(recent.replies_to_sender) as usize;
        let mut to_sender = 0;
        let before = d.mails.len();
        d.mails.retain(|m| {
            if &m.to != sender {
                return true;
            }
            to_sender += 1;
            to_sender <= budget
        });
        d.rate_limited = before - d.mails.len();
    }
    d
}

fn decide_inner(
    intake: &Intake,
    game: Option<&GameView>,
    referee: &RefereeConfig,
    limits: &Limits,
    recent: Recent,
    trust: &Trust,
) -> Decision {
    let answering = intake.message_id.as_deref();
    let reading = match &intake.disposition {
        Disposition::Automatic(reason) => {
            return Decision::new(Outcome::Automatic, format!("automatic mail: {reason}"));
        }
        Disposition::TooLarge { size } => {
            let Some(from) = &intake.from else {
                return Decision::new(Outcome::NoSender, "too large, and no sender");
            };
            let mut d = Decision::new(Outcome::TooLarge, format!("{size} bytes"));
            d.game = game.map(|g| g.id);
            d.mails.push(reply::notice(
                from,
                "message too large",
                format!(
                    "Your message of {size} bytes is larger than this referee reads ({} bytes), so it was not read.\n\
                     Please send a short plain-text mail with just your move, without attachments.\n",
                    limits.max_message_bytes
                ),
                d.game,
                answering,
            ));
            return d;
        }
        Disposition::Read(reading) => reading,
    };
    let Some(from) = intake.from.as_deref() else {
        return Decision::new(Outcome::NoSender, "no From address");
    };
    let (Some(addr), Some(game)) = (&intake.game_address, game) else {
        let mut d = Decision::new(
            Outcome::Help,
            match &intake.game_address {
                Some(a) => format!("no game {}", a.game),
                None => "no game address".to_owned(),
            },
        );
        d.mails.push(reply::notice(
            from,
            "how to play",
            reply::help_text(referee),
            None,
            answering,
        ));
        return d;
    };

    let (white_seat, black_seat) = game.seats(referee);
    let seat_of_key = if eq_ct(&addr.key, &game.white.key) {
        Some(Color::White)
    } else if eq_ct(&addr.key, &game.black.key) {
        Some(Color::Black)
    } else {
        None
    };
    let seat_of_sender = [Color::White, Color::Black]
        .into_iter()
        .find(|c| game.player(*c).email.eq_ignore_ascii_case(from));
    let seat_address = |c: Color| match c {
        Color::White => &white_seat,
        Color::Black => &black_seat,
    };

    // Under the `auth` policy the key is not needed: the authenticated From
    // picks the seat.
    let seat_of_key = if trust.policy.needs_key() {
        seat_of_key
    } else {
        seat_of_sender
    };
    let security_notice = |seat: &Seat, text: String| {
        let mut m = reply::notice(
            &seat.email,
            "a message was not played",
            text,
            Some(game.id),
            None,
        );
        m.reply_to = Some(seat.address.clone());
        m
    };
    let mut d = match (seat_of_key, seat_of_sender) {
        (Some(k), Some(s)) if k == s && trust.policy.needs_auth() && !trust.authenticated() => {
            // Never answer the sender: it may be forged. Tell the real player.
            let why = trust
                .auth
                .as_ref()
                .map_or_else(|| "no authentication".to_owned(), ToString::to_string);
            let mut d = Decision::new(Outcome::AuthFailed, format!("{from}: {why}"));
            // What the club's server found, in the player's words.
            let found = match &trust.auth {
                Some(AuthOutcome::Failed { summary }) => format!("its checks said: {summary}"),
                _ => "it found no proof of the sender on the message".to_owned(),
            };
            if !recent.security_notice_sent {
                d.mails.push(security_notice(
                    seat_address(k),
                    format!(
                        "A message for game {} arrived with your address ({from}) as sender, but the club's mail\n\
                         server could not confirm that it came from you ({found}). It was not played.\n\
                         If you sent it, check that your provider signs your mail (DKIM) and publishes DMARC;\n\
                         if you did not, someone tried to move for you.\n",
                        game.id
                    ),
                ));
            }
            d
        }
        (Some(k), Some(s)) if k == s => {
            let ctx = GameContext {
                id: game.id,
                white: &white_seat,
                black: &black_seat,
                record: &game.record,
            };
            judged(&ctx, k, reading, answering)
        }
        (Some(_), Some(s)) => {
            let mut d = Decision::new(
                Outcome::OtherSeatKey,
                format!("{from} used the other seat's address"),
            );
            d.mails
                .push(wrong_address_notice(game.id, seat_address(s), answering));
            d
        }
        (None, Some(s)) => {
            let mut d = Decision::new(
                Outcome::WrongKey,
                format!("{from}: key not valid for game {}", game.id),
            );
            d.mails
                .push(wrong_address_notice(game.id, seat_address(s), answering));
            d
        }
        (Some(k), None) => {
            // Never answer the sender: the From may be forged. Tell the real
            // player instead, at most once an hour per game.
            let mut d = Decision::new(
                Outcome::Stranger,
                format!("{from} is not the player of that address"),
            );
            if !recent.security_notice_sent {
                let seat = seat_address(k);
                d.mails.push(security_notice(
                    seat,
                    format!(
                        "A message reached your address for game {} from {from}, which is not your registered address ({}).\n\
                         It was not played. Moves count only when sent from your registered address.\n\
                         If it was not you, nothing needs doing; if you think your game address is known to someone else,\n\
                         ask the organiser for a new one (wildt game rekey).\n",
                        game.id, seat.email
                    ),
                ));
            }
            d
        }
        (None, None) => Decision::new(Outcome::Stranger, format!("{from}: unknown sender and key")),
    };
    d.game = Some(game.id);
    d
}

fn wrong_address_notice(game: i64, seat: &Seat, answering: Option<&str>) -> OutMail {
    let mut m = reply::notice(
        &seat.email,
        "wrong game address",
        format!(
            "Your message was sent to an address that is not yours for game {game}, so it was not played.\n\
             Your address for this game is:\n\n    {}\n\nReply to this mail to reach it.\n",
            seat.address
        ),
        Some(game),
        answering,
    );
    m.reply_to = Some(seat.address.clone());
    m
}

/// Black's old-form rook promotion straight ahead (`3232` for `32312`) looks
/// like a move from a square to itself, so the intake cannot read it as a
/// move; with the game at hand it is recognised, and answered with the
/// standard form, like every other old-form promotion.
fn old_form_promotion(
    record: &Record,
    seat: Color,
    unclear: &Unclear,
) -> Option<(IccfMove, IllegalMove)> {
    let Unclear::NotAMove {
        error: ParseError::SameSquare { text, square },
        ..
    } = unclear
    else {
        return None;
    };
    if record.turn() != seat || record.is_over() {
        return None;
    }
    match parse_move(text, record.position()) {
        Err(MoveError::Illegal(why @ IllegalMove::OldPromotionForm { .. })) => Some((
            IccfMove {
                from: *square,
                to: *square,
                promotion: None,
            },
            why,
        )),
        _ => None,
    }
}

fn judged(
    ctx: &GameContext<'_>,
    seat: Color,
    reading: &Reading,
    answering: Option<&str>,
) -> Decision {
    let verdict = match reading {
        Reading::Command(c) => judge(ctx.record, seat, c),
        Reading::Unclear(unclear) if old_form_promotion(ctx.record, seat, unclear).is_some() => {
            let (mv, why) = old_form_promotion(ctx.record, seat, unclear).expect("just checked");
            Verdict::Rejected(Rejection::Illegal {
                number: ctx.record.next_number(),
                mv,
                why,
            })
        }
        Reading::Unclear(unclear) => {
            let mut d = Decision::new(Outcome::Unclear, unclear.to_string());
            d.seat = Some(seat);
            let seat_info = if seat == Color::White {
                ctx.white
            } else {
                ctx.black
            };
            let mut m = OutMail {
                to: seat_info.email.clone(),
                reply_to: Some(seat_info.address.clone()),
                subject: format!("[wildt #{}] not understood", ctx.id),
                body: format!(
                    "Game {}: your message could not be read as one clear command, so nothing was played.\n\n\
                     What was found: {unclear}.\n\n\
                     Please reply with only your move in numeric notation, e.g. \"{} 5254\",\n\
                     or one of: resign, offer draw, accept draw, decline draw, claim draw, status.\n\n{}",
                    ctx.id,
                    crate::game::MoveNumberText(ctx.record.next_number()),
                    crate::game::board_diagram(ctx.record.position()),
                ),
                event: Event::MoveRejected,
                game: Some(ctx.id),
                in_reply_to: answering.map(str::to_owned),
            };
            m.body
                .push_str(&format!("{}\n", crate::game::status_line(ctx.record)));
            d.mails.push(m);
            return d;
        }
    };
    let mut after = ctx.record.clone();
    after.apply(&verdict);
    let outcome = match &verdict {
        Verdict::Moved { .. } => Outcome::Moved,
        Verdict::Ended { .. } => Outcome::Ended,
        Verdict::DrawOffered { .. } => Outcome::DrawOffered,
        Verdict::DrawDeclined { .. } => Outcome::DrawDeclined,
        Verdict::Status => Outcome::Status,
        Verdict::Rejected(_) => Outcome::Rejected,
    };
    let detail = match &verdict {
        Verdict::Moved { ply, number, .. } => {
            format!(
                "{} {} ({})",
                crate::game::MoveNumberText(*number),
                ply.iccf,
                ply.san
            )
        }
        Verdict::Rejected(why) => why.to_string(),
        Verdict::Ended { end, .. } => format!("{} {}", end.result, end.termination.as_str()),
        other => format!("{other:?}"),
    };
    let mails = reply::verdict_mails(ctx, seat, &verdict, &after, answering);
    Decision {
        outcome,
        game: Some(ctx.id),
        seat: Some(seat),
        record_after: outcome.changes_game().then_some(after),
        verdict: Some(verdict),
        detail,
        mails,
        rate_limited: 0,
        auth: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intake::{DEFAULT_MAX_COMMANDS, IntakeConfig, read};

    const WHITE_KEY: &str = "k3x9qp2m";
    const BLACK_KEY: &str = "b7y2wq4n";

    fn referee() -> RefereeConfig {
        RefereeConfig {
            address: "chess@club.example".into(),
            local: "chess".into(),
            domain: "club.example".into(),
            name: "Club referee".into(),
        }
    }

    fn game() -> GameView {
        GameView {
            id: 17,
            white: Player {
                email: "anna@example.org".into(),
                key: WHITE_KEY.into(),
            },
            black: Player {
                email: "ben@example.net".into(),
                key: BLACK_KEY.into(),
            },
            record: Record::replay(None, []).expect("the start position"),
        }
    }

    /// `1. 5254` from `from` to `to`, decided under `policy` with the trusted
    /// server's verdict `auth` (`None`: no trusted server named).
    fn decided(policy: Policy, auth: Option<AuthOutcome>, from: &str, to: &str) -> Decision {
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <m@example.org>\r\n\r\n1. 5254\r\n"
        );
        let intake = read(
            raw.as_bytes(),
            &IntakeConfig {
                referee_local: "chess".into(),
                referee_domain: "club.example".into(),
                max_message_bytes: 1 << 20,
                max_commands: DEFAULT_MAX_COMMANDS,
            },
        );
        decide(
            &intake,
            Some(&game()),
            &referee(),
            &Limits {
                replies_per_sender_per_hour: 60,
                max_message_bytes: 1 << 20,
            },
            Recent::default(),
            &Trust { policy, auth },
        )
    }

    fn failed() -> Option<AuthOutcome> {
        Some(AuthOutcome::Failed {
            summary: "dkim=fail, dmarc=fail".into(),
        })
    }

    fn passed() -> Option<AuthOutcome> {
        Some(AuthOutcome::DmarcPass)
    }

    /// policy, the trusted server's verdict, From, To, the outcome, and who
    /// is written to.
    type Case<'a> = (
        Policy,
        &'a Option<AuthOutcome>,
        &'a str,
        &'a str,
        &'a str,
        &'a [&'a str],
    );

    /// Every policy against every kind of sender: who moves, and who is told.
    #[test]
    fn each_policy_lets_only_the_senders_it_names_move() {
        let anna = "anna@example.org";
        let white = format!("chess+17-{WHITE_KEY}@club.example");
        let black = format!("chess+17-{BLACK_KEY}@club.example");
        let wrong = "chess+17-zzzzzzzz@club.example";
        let keyless = "chess+17@club.example";
        let no_trust = None;
        let no_header = Some(AuthOutcome::NoTrustedHeader);
        #[rustfmt::skip]
        let cases: [Case; 16] = [
            // policy           verdict     From                  to        outcome           mails to
            (Policy::Key,        &no_trust,  anna,                 &white,   "moved",          &[anna, "ben@example.net"]),
            (Policy::Key,        &failed(),  anna,                 &white,   "moved",          &[anna, "ben@example.net"]),
            (Policy::Key,        &passed(),  anna,                 wrong,    "wrong_key",      &[anna]),
            (Policy::Key,        &passed(),  anna,                 keyless,  "wrong_key",      &[anna]),
            (Policy::Key,        &passed(),  anna,                 &black,   "other_seat_key", &[anna]),
            (Policy::Key,        &no_trust,  "eve@example.com",    &white,   "stranger",       &[anna]),
            (Policy::KeyAndAuth, &passed(),  anna,                 &white,   "moved",          &[anna, "ben@example.net"]),
            (Policy::KeyAndAuth, &failed(),  anna,                 &white,   "auth_failed",    &[anna]),
            (Policy::KeyAndAuth, &no_header, anna,                 &white,   "auth_failed",    &[anna]),
            (Policy::KeyAndAuth, &no_trust,  anna,                 &white,   "auth_failed",    &[anna]),
            (Policy::KeyAndAuth, &passed(),  anna,                 wrong,    "wrong_key",      &[anna]),
            (Policy::Auth,       &passed(),  anna,                 keyless,  "moved",          &[anna, "ben@example.net"]),
            (Policy::Auth,       &passed(),  anna,                 wrong,    "moved",          &[anna, "ben@example.net"]),
            (Policy::Auth,       &failed(),  anna,                 keyless,  "auth_failed",    &[anna]),
            (Policy::Auth,       &no_header, anna,                 &white,   "auth_failed",    &[anna]),
            (Policy::Auth,       &passed(),  "eve@example.com",    keyless,  "stranger",       &[]),
        ];
        for (policy, auth, from, to, outcome, told) in cases {
            let d = decided(policy, auth.clone(), from, to);
            let case = format!(
                "{policy:?} {auth:?} {from} -> {to}: {} ({})",
                d.outcome.as_str(),
                d.detail
            );
            assert_eq!(d.outcome.as_str(), outcome, "{case}");
            assert_eq!(d.record_after.is_some(), outcome == "moved", "{case}");
            let to: Vec<&str> = d.mails.iter().map(|m| m.to.as_str()).collect();
            assert_eq!(to, told, "{case}");
            assert_eq!(d.auth, *auth, "{case}");
        }
    }

    /// Under `auth` the authenticated From picks the seat, whatever key the
    /// address carries: Black writing to White's address moves Black.
    #[test]
    fn under_auth_the_sender_not_the_key_picks_the_seat() {
        let d = decided(
            Policy::Auth,
            passed(),
            "ben@example.net",
            &format!("chess+17-{WHITE_KEY}@club.example"),
        );
        assert_eq!(d.seat, Some(Color::Black));
        assert_eq!(d.outcome.as_str(), "rejected", "{}", d.detail);
        assert!(d.detail.contains("White's move"), "{}", d.detail);
    }
}
