//! From a read message and its game to a decision: who is writing, whether
//! the sender is trusted, and what the referee says. A decision says what
//! happened ([`Notice`], [`Verdict`]); the words are written by `reply`.
//! [pure: no IO]
//!
//! `handle` reaches it through [`plan`], the whole plan for a message (a
//! time forfeit that fell before it, the decision, the prepared answers it
//! sets off, the answer to a request for leave, the clocks and the event
//! standing its replies show), made from what the store loaded before; the
//! store records the plan after. [`deadline`] says which of a game's
//! deadline actions are due, for the plan and for the daemon's pass.
//! [`judge_message`] decides a message alone, for tests, benches and the
//! fuzz targets.

pub mod conditional;
pub mod deadline;
pub mod plan;

pub use plan::{ClockFacts, Facts, LeaveAnswer, Plan, plan};

use std::fmt;

use shakmaty::Color;
use subtle::ConstantTimeEq;

use crate::auth::{self, AuthOutcome};
use crate::conditional::{ConditionalParseError, ConditionalText};
use crate::config::{RefereeConfig, Rules};
use crate::game::Record;
use crate::i18n::Lang;
use crate::intake::{Disposition, Intake, Reading, Unclear};
use crate::notation::{IccfMove, IllegalMove, MoveError, ParseError, parse_move};
use crate::referee::{Rejection, Verdict, judge_with};

/// A player's seat as stored: registered address, display name and secret key.
#[derive(Debug, Clone)]
pub struct Player {
    /// What the player is matched by.
    pub email: String,
    /// Only for the mails (greeting, `To`); never used to match.
    pub name: Option<String>,
    pub key: String,
    /// The language the player reads wildt's mail in.
    pub lang: Lang,
}

/// A player's seat as the reply writer needs it: the registered address,
/// the display name and the game address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub email: String,
    pub name: Option<String>,
    pub address: String,
    pub lang: Lang,
}

impl Seat {
    /// `Anna Smith (anna@x.example)`, or the address alone without a name.
    pub fn who(&self) -> String {
        match &self.name {
            Some(name) => format!("{name} ({})", self.email),
            None => self.email.clone(),
        }
    }
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

    pub fn player_mut(&mut self, color: Color) -> &mut Player {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// White's and Black's seat as the reply writer needs them: the
    /// registered address and the game address.
    pub fn seats(&self, referee: &RefereeConfig) -> (Seat, Seat) {
        let seat = |p: &Player| Seat {
            email: p.email.clone(),
            name: p.name.clone(),
            address: game_address(referee, self.id, &p.key),
            lang: p.lang,
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
    /// Only conditional moves (or their cancellation), no command.
    Conditionals,
    /// A request for leave (or its cancellation).
    Leave,
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
            Outcome::Leave => "leave",
            Outcome::DrawDeclined => "draw_declined",
            Outcome::Status => "status",
            Outcome::Rejected => "rejected",
            Outcome::Conditionals => "conditionals",
        }
    }

    /// The outcomes that change the game's state: an accepted command.
    pub const CHANGING_GAME: [Outcome; 4] = [
        Outcome::Moved,
        Outcome::Ended,
        Outcome::DrawOffered,
        Outcome::DrawDeclined,
    ];

    /// Whether the game's state changes.
    pub fn changes_game(self) -> bool {
        Outcome::CHANGING_GAME.contains(&self)
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
    /// Replies wildt wrote to this sender in the last hour that answered its
    /// own messages without advancing a game: rejections, notices, help,
    /// status. Relays of an opponent's moves and the confirmations of
    /// accepted commands are not counted.
    pub replies_to_sender: u32,
    /// Whether a security notice (stranger, failed authentication) for this
    /// game went out in the last hour.
    pub security_notice_sent: bool,
}

/// What someone is to be told besides a verdict, as data: `reply` writes
/// the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// To the sender: the message was larger than the referee reads.
    TooLarge { size: usize, limit: usize },
    /// To the sender: no game address (or no such game); how to play.
    Help,
    /// To the player of `seat`, who wrote to an address that is not theirs.
    WrongAddress { seat: Color },
    /// To the player of `seat`: `from`, not them, wrote to their address.
    Stranger { seat: Color, from: String },
    /// To the player of `seat`: a message with their address as sender
    /// could not be confirmed as theirs; `checks` is what the trusted
    /// server's checks said, when they failed.
    AuthFailed {
        seat: Color,
        from: String,
        checks: Option<String>,
    },
    /// To the player of `seat`: no clear command was found.
    Unclear { seat: Color, unclear: Unclear },
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
    /// What someone is told besides a verdict, if anything.
    pub notice: Option<Notice>,
    /// Answers that do not advance a game the sender may still get this
    /// hour: an autoresponder that slips through the header checks must not
    /// get an endless conversation. The mails of an accepted command are
    /// not bounded by it.
    pub reply_budget: usize,
    /// What the trusted server said about the sender (`None` when no trusted
    /// server is configured, or the message has no `From`), for the log and
    /// `wildt check`.
    pub auth: Option<AuthOutcome>,
    /// What the mail's conditional lines did to the sender's stored set, if
    /// it had any.
    pub conditional: Option<conditional::SetChange>,
    /// The prepared answers played after the verdict and what becomes of
    /// each seat's stored set ([`conditional::follow`], called by
    /// [`plan()`] with the stored sets); `None` when nothing changes.
    pub sequel: Option<conditional::Sequel>,
    /// The player of `seat` asks for (or cancels) leave: answered against
    /// their stored leaves by [`plan()`] ([`Plan::leave`]).
    pub leave: Option<crate::clock::LeaveRequest>,
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
            notice: None,
            reply_budget: 0,
            auth: None,
            conditional: None,
            sequel: None,
            leave: None,
        }
    }

    fn with_notice(mut self, notice: Notice) -> Decision {
        self.notice = Some(notice);
        self
    }

    /// The game as it is to be stored: after the verdict and any prepared
    /// answers; `None` when the game does not change.
    pub fn final_record(&self) -> Option<&Record> {
        self.sequel
            .as_ref()
            .and_then(conditional::Sequel::record_after)
            .or(self.record_after.as_ref())
    }
}

fn eq_ct(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Decides what to do with the message `raw`, read as `intake`, given its
/// game (looked up by the game number in its address, if any) and recent
/// history: first what the trusted server says of the sender, then
/// [`decide`].
pub fn judge_message(
    raw: &[u8],
    intake: &Intake,
    game: Option<&GameView>,
    recent: Recent,
    rules: &Rules,
) -> Decision {
    let auth = auth::sender_verdict(
        raw,
        rules.security.trusted_authserv_id.as_deref(),
        intake.from.as_deref(),
    );
    decide(intake, game, recent, rules, auth)
}

/// Decides what to do with `intake` once the trusted server's word on its
/// sender (`auth`) is known.
pub fn decide(
    intake: &Intake,
    game: Option<&GameView>,
    recent: Recent,
    rules: &Rules,
    auth: Option<AuthOutcome>,
) -> Decision {
    let mut d = decide_inner(intake, game, rules, recent, auth.as_ref());
    d.auth = auth;
    d.reply_budget = rules
        .limits
        .replies_per_sender_per_hour
        .saturating_sub(recent.replies_to_sender) as usize;
    d
}

fn decide_inner(
    intake: &Intake,
    game: Option<&GameView>,
    rules: &Rules,
    recent: Recent,
    auth: Option<&AuthOutcome>,
) -> Decision {
    let reading = match &intake.disposition {
        Disposition::Automatic(reason) => {
            return Decision::new(Outcome::Automatic, format!("automatic mail: {reason}"));
        }
        Disposition::TooLarge { size } => {
            if intake.from.is_none() {
                return Decision::new(Outcome::NoSender, "too large, and no sender");
            }
            let mut d = Decision::new(Outcome::TooLarge, format!("{size} bytes")).with_notice(
                Notice::TooLarge {
                    size: *size,
                    limit: rules.limits.max_message_bytes,
                },
            );
            d.game = game.map(|g| g.id);
            return d;
        }
        Disposition::Read(reading) => reading,
    };
    let Some(from) = intake.from.as_deref() else {
        return Decision::new(Outcome::NoSender, "no From address");
    };
    let (Some(addr), Some(game)) = (&intake.game_address, game) else {
        return Decision::new(
            Outcome::Help,
            match &intake.game_address {
                Some(a) => format!("no game {}", a.game),
                None => "no game address".to_owned(),
            },
        )
        .with_notice(Notice::Help);
    };

    let mut d = by_seat(game, &addr.key, from, reading, intake, rules, recent, auth);
    d.game = Some(game.id);
    d
}

/// The decision on a message from `from` to the game address with `key`:
/// by whose seat the key and the sender name, and what the policy asks.
#[allow(clippy::too_many_arguments)]
fn by_seat(
    game: &GameView,
    key: &str,
    from: &str,
    reading: &Reading,
    intake: &Intake,
    rules: &Rules,
    recent: Recent,
    auth: Option<&AuthOutcome>,
) -> Decision {
    let policy = rules.security.policy;
    let seat_of_key = if eq_ct(key, &game.white.key) {
        Some(Color::White)
    } else if eq_ct(key, &game.black.key) {
        Some(Color::Black)
    } else {
        None
    };
    let seat_of_sender = [Color::White, Color::Black]
        .into_iter()
        .find(|c| game.player(*c).email.eq_ignore_ascii_case(from));

    // Under the `auth` policy the key is not needed: the authenticated From
    // picks the seat.
    let seat_of_key = if policy.needs_key() {
        seat_of_key
    } else {
        seat_of_sender
    };
    let authenticated = auth.is_some_and(AuthOutcome::passed);
    match (seat_of_key, seat_of_sender) {
        (Some(k), Some(s)) if k == s && policy.needs_auth() && !authenticated => {
            // Never answer the sender: it may be forged. Tell the real player.
            let why = auth.map_or_else(|| "no authentication".to_owned(), ToString::to_string);
            let d = Decision::new(Outcome::AuthFailed, format!("{from}: {why}"));
            if recent.security_notice_sent {
                d
            } else {
                d.with_notice(Notice::AuthFailed {
                    seat: k,
                    from: from.to_owned(),
                    checks: match auth {
                        Some(AuthOutcome::Failed { summary }) => Some(summary.clone()),
                        _ => None,
                    },
                })
            }
        }
        (Some(k), Some(s)) if k == s => judged(
            game,
            k,
            reading,
            intake.conditionals.as_ref(),
            &rules.tablebase,
        ),
        (Some(_), Some(s)) => Decision::new(
            Outcome::OtherSeatKey,
            format!("{from} used the other seat's address"),
        )
        .with_notice(Notice::WrongAddress { seat: s }),
        (None, Some(s)) => Decision::new(
            Outcome::WrongKey,
            format!("{from}: key not valid for game {}", game.id),
        )
        .with_notice(Notice::WrongAddress { seat: s }),
        (Some(k), None) => {
            // Never answer the sender: the From may be forged. Tell the real
            // player instead, at most once an hour per game.
            let d = Decision::new(
                Outcome::Stranger,
                format!("{from} is not the player of that address"),
            );
            if recent.security_notice_sent {
                d
            } else {
                d.with_notice(Notice::Stranger {
                    seat: k,
                    from: from.to_owned(),
                })
            }
        }
        (None, None) => Decision::new(Outcome::Stranger, format!("{from}: unknown sender and key")),
    }
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
    game: &GameView,
    seat: Color,
    reading: &Reading,
    conditionals: Option<&Result<ConditionalText, ConditionalParseError>>,
    tablebase: &crate::tablebase::TablebaseRules,
) -> Decision {
    let record = &game.record;
    let verdict = match reading {
        Reading::Command(c) => judge_with(record, seat, c, tablebase),
        // Conditions alone: checked against the game as it stands.
        Reading::Unclear(Unclear::NothingFound) if conditionals.is_some() => {
            let mut d = Decision::new(Outcome::Conditionals, "conditional moves");
            d.seat = Some(seat);
            d.conditional = conditionals.map(|c| conditional::set_change(c, record, seat));
            return d;
        }
        Reading::Leave(req) => {
            let mut d = Decision::new(Outcome::Leave, format!("{req:?}"));
            d.seat = Some(seat);
            d.leave = Some(req.clone());
            return d;
        }
        Reading::Unclear(unclear) => match old_form_promotion(record, seat, unclear) {
            Some((mv, why)) => Verdict::Rejected(Rejection::Illegal {
                number: record.next_number(),
                mv,
                why,
            }),
            None => {
                let mut d = Decision::new(
                    Outcome::Unclear,
                    format!("unclear: {}", unclear.without_player_text()),
                )
                .with_notice(Notice::Unclear {
                    seat,
                    unclear: unclear.clone(),
                });
                d.seat = Some(seat);
                d.conditional = conditionals.map(|_| conditional::SetChange::NotConsidered);
                return d;
            }
        },
    };
    let mut after = record.clone();
    after.apply(&verdict);
    let outcome = match &verdict {
        Verdict::Moved { .. } => Outcome::Moved,
        Verdict::Ended { .. } | Verdict::TablebaseClaimed { .. } => Outcome::Ended,
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
        Verdict::TablebaseClaimed {
            claim, said, end, ..
        } => format!(
            "{} {} (claim of a {} upheld: {said})",
            end.result,
            end.termination.as_str(),
            claim.as_str()
        ),
        other => format!("{other:?}"),
    };
    let mut d = Decision::new(outcome, detail);
    d.seat = Some(seat);
    // The set starts after the mail's own move; a refused move leaves the
    // game as it was, and the set is checked against that.
    d.conditional = conditionals.map(|c| conditional::set_change(c, &after, seat));
    d.record_after = outcome.changes_game().then_some(after);
    d.verdict = Some(verdict);
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Policy;
    use crate::fixtures::{BLACK_KEY, WHITE_KEY, game_17, referee, rules};
    use crate::intake::read;
    use crate::reply;

    fn game() -> GameView {
        game_17(&[])
    }

    /// `1. 5254` from `from` to `to`, decided under `policy` with the trusted
    /// server's verdict `auth` (`None`: no trusted server named); with the
    /// addresses of the mails the decision writes.
    fn decided(
        policy: Policy,
        auth: Option<AuthOutcome>,
        from: &str,
        to: &str,
    ) -> (Decision, Vec<String>) {
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <m@example.org>\r\n\r\n1. 5254\r\n"
        );
        let rules = rules(1 << 20, policy, false);
        let intake = read(raw.as_bytes(), &rules.intake);
        let d = decide(&intake, Some(&game()), Recent::default(), &rules, auth);
        let told = reply::write(&d, &intake, Some(&game()), None, &referee(), Lang::En)
            .mails
            .into_iter()
            .map(|m| m.to)
            .collect();
        (d, told)
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
            let (d, written_to) = decided(policy, auth.clone(), from, to);
            let case = format!(
                "{policy:?} {auth:?} {from} -> {to}: {} ({})",
                d.outcome.as_str(),
                d.detail
            );
            assert_eq!(d.outcome.as_str(), outcome, "{case}");
            assert_eq!(d.record_after.is_some(), outcome == "moved", "{case}");
            assert_eq!(written_to, told, "{case}");
            assert_eq!(d.auth, *auth, "{case}");
        }
    }

    /// A sender whose hourly budget of answers is used up still hears that
    /// an accepted move counted (and the opponent gets the relay), while a
    /// rejection past the limit is held back.
    #[test]
    fn the_hourly_limit_holds_back_rejections_but_never_a_confirmation() {
        let rules = rules(1 << 20, Policy::Key, false);
        let spent = Recent {
            replies_to_sender: rules.limits.replies_per_sender_per_hour,
            security_notice_sent: false,
        };
        let mail = |body: &str| {
            format!(
                "From: anna@example.org\r\nTo: chess+17-{WHITE_KEY}@club.example\r\n\
                 Subject: move\r\nMessage-ID: <m@example.org>\r\n\r\n{body}\r\n"
            )
        };
        let written = |body: &str| {
            let intake = read(mail(body).as_bytes(), &rules.intake);
            let d = decide(&intake, Some(&game()), spent, &rules, None);
            let letters = reply::write(&d, &intake, Some(&game()), None, &referee(), Lang::En);
            (d.outcome, letters)
        };

        let (outcome, letters) = written("1. 5254");
        assert_eq!(outcome, Outcome::Moved);
        let events: Vec<_> = letters
            .mails
            .iter()
            .map(|m| (m.to.as_str(), m.kind))
            .collect();
        assert_eq!(
            events,
            [
                ("anna@example.org", reply::MailKind::MoveAccepted),
                ("ben@example.net", reply::MailKind::OpponentMoved)
            ]
        );
        assert_eq!(letters.rate_limited, 0);

        for rejected in ["1. 5255", "hello"] {
            let (outcome, letters) = written(rejected);
            assert!(!outcome.changes_game(), "{rejected}: {outcome}");
            assert!(letters.mails.is_empty(), "{rejected}: {:?}", letters.mails);
            assert_eq!(letters.rate_limited, 1, "{rejected}");
        }
    }

    /// Under `auth` the authenticated From picks the seat, whatever key the
    /// address carries: Black writing to White's address moves Black.
    #[test]
    fn under_auth_the_sender_not_the_key_picks_the_seat() {
        let (d, _) = decided(
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
