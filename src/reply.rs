//! Decisions -> the mails to write: recipients, subjects, bodies and the
//! headers players filter on. Every word a player reads is written here,
//! every subject by [`subject`]. [pure: no IO]
//!
//! Rendering to RFC 5322 bytes happens at the edge (`mail::render`); here a mail
//! is plain data, so tests can read exactly what a player would.

mod conditional;
pub mod event;

use std::fmt::Write as _;

use shakmaty::{Color, Position};

use crate::config::RefereeConfig;
pub use crate::decide::Seat;
use crate::decide::{Decision, GameView, Notice};
use crate::game::{GameEnd, MoveNumberText, Record, board_diagram, record_text, status_line};
use crate::intake::{Intake, WILDT_SUBJECT_MARK};
use crate::notation::{ColorName, IccfMove, IllegalMove};
use crate::referee::{Rejection, Verdict};

/// The subject of every mail wildt writes: the intake's subject mark, the
/// game number if any, then `text` (`[wildt #17] 1. 5254 accepted`). The
/// intake recognises wildt's own subjects by the same mark.
pub fn subject(game: Option<i64>, text: &str) -> String {
    match game {
        Some(id) => format!("{WILDT_SUBJECT_MARK} #{id}] {text}"),
        None => format!("{WILDT_SUBJECT_MARK}] {text}"),
    }
}

/// What a mail is about; sent as `X-Wildt-Event` so players can filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    MoveAccepted,
    MoveRejected,
    OpponentMoved,
    /// To a player: a prepared answer from their conditional moves was
    /// played for them.
    PreparedMovePlayed,
    GameOver,
    Notice,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::MoveAccepted => "move-accepted",
            Event::MoveRejected => "move-rejected",
            Event::OpponentMoved => "opponent-moved",
            Event::PreparedMovePlayed => "prepared-move-played",
            Event::GameOver => "game-over",
            Event::Notice => "notice",
        }
    }
}

/// A mail to write, before rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutMail {
    /// The recipient's address: whom the mail is for, and what the hourly
    /// limit compares with the sender.
    pub to: String,
    /// The recipient's display name, for the `To` header, when known.
    pub to_name: Option<String>,
    /// The recipient's own game address, so a plain "reply" reaches the game.
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    pub event: Event,
    pub game: Option<i64>,
    /// Message-ID of the mail this answers, if any (without `<>`).
    pub in_reply_to: Option<String>,
}

/// The game as the reply writer needs it.
pub struct GameContext<'a> {
    pub id: i64,
    pub white: &'a Seat,
    pub black: &'a Seat,
    pub record: &'a Record,
}

/// What `write` makes of the game `view`, seen as the reply writer sees it
/// (both seats with their game addresses, the record).
pub fn with_game<T>(
    view: &GameView,
    referee: &RefereeConfig,
    write: impl FnOnce(&GameContext<'_>) -> T,
) -> T {
    let (white, black) = view.seats(referee);
    write(&GameContext {
        id: view.id,
        white: &white,
        black: &black,
        record: &view.record,
    })
}

impl GameContext<'_> {
    fn seat(&self, color: Color) -> &Seat {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    fn mail(&self, to: Color, event: Event, text: &str, body: String) -> OutMail {
        let seat = self.seat(to);
        OutMail {
            to: seat.email.clone(),
            to_name: seat.name.clone(),
            reply_to: Some(seat.address.clone()),
            subject: subject(Some(self.id), text),
            body,
            event,
            game: Some(self.id),
            in_reply_to: None,
        }
    }

    /// Board, record and whose move: the part every game mail ends with.
    fn picture(&self, record: &Record) -> String {
        let mut s = String::new();
        s.push_str(&board_diagram(record.position()));
        s.push('\n');
        let text = record_text(record, true);
        if text.is_empty() {
            s.push_str("Record: (no moves yet)\n");
        } else {
            let _ = writeln!(s, "Record: {text}");
        }
        let _ = writeln!(s, "{}", status_line(record));
        s
    }
}

/// The closing lines: how to answer (with a move that is legal right now as
/// the example), or that the opponent's move will come.
fn footer(to_play: bool, record: &Record) -> String {
    if to_play {
        let example = record
            .position()
            .legal_moves()
            .first()
            .map(|m| IccfMove::from_move(*m).to_string())
            .unwrap_or_else(|| "5254".to_owned());
        format!(
            "\nReply to this mail with your move in numeric notation, e.g. \"{} {example}\".\n\
             Other commands: resign, offer draw, accept draw, decline draw, claim draw, status.\n",
            number_text(record)
        )
    } else {
        "\nYou will receive your opponent's move by mail.\n".to_owned()
    }
}

fn number_text(record: &Record) -> String {
    MoveNumberText(record.next_number()).to_string()
}

/// The mails that open a game: each player learns the opponent, their colour
/// and their own game address (as `Reply-To`, so replying just works).
pub fn welcome_mails(game: &GameContext<'_>, event: Option<&str>) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let me = game.seat(c);
            let them = game.seat(!c);
            let mut body = greeting(me);
            let _ = write!(
                body,
                "Game {}{}: you play {} against {}.\n\
                 Your address for this game is {} - reply to this mail to reach it.\n\
                 Moves are written in ICCF numeric notation: from-square then to-square, each square\n\
                 as file digit then rank digit (e2-e4 is 5254; castling is the king's move, 5171;\n\
                 a promotion adds 1 queen, 2 rook, 3 bishop, 4 knight).\n\n",
                game.id,
                event.map(|e| format!(" ({e})")).unwrap_or_default(),
                ColorName(c),
                them.who(),
                me.address,
            );
            body.push_str(&game.picture(game.record));
            body.push_str(&footer(game.record.turn() == c, game.record));
            game.mail(
                c,
                Event::Notice,
                &format!(
                    "new game: you play {} against {}",
                    ColorName(c),
                    them.name.as_deref().unwrap_or(&them.email)
                ),
                body,
            )
        })
        .collect()
}

/// The mail that gives a player a new game address after `wildt game rekey`:
/// the old one no longer works, and replying to this mail reaches the new one.
pub fn new_address_mail(game: &GameContext<'_>, seat: Color) -> OutMail {
    let me = game.seat(seat);
    let mut body = greeting(me);
    let _ = write!(
        body,
        "The organiser gave you a new address for game {} (you play {} against {}).\n\
         Your address for this game is now {} - reply to this mail to reach it.\n\
         Mail to your old address is no longer played.\n\n",
        game.id,
        ColorName(seat),
        game.seat(!seat).who(),
        me.address,
    );
    body.push_str(&game.picture(game.record));
    body.push_str(&footer(game.record.turn() == seat, game.record));
    game.mail(seat, Event::Notice, "your new game address", body)
}

/// `Hello Anna Smith,` and a blank line when the player's name is known.
fn greeting(seat: &Seat) -> String {
    seat.name
        .as_ref()
        .map(|name| format!("Hello {name},\n\n"))
        .unwrap_or_default()
}

/// The organiser's notice that a mail to a player failed for good: who,
/// which game, which mail, the relay's answer, and what to do.
pub fn undeliverable_notice(
    organiser: &str,
    game: Option<i64>,
    event: &str,
    recipient: &str,
    row: i64,
    reason: &str,
) -> OutMail {
    let what = match game {
        Some(g) => format!("game {g}"),
        None => "no game".to_owned(),
    };
    let body = format!(
        "A mail to {recipient} ({what}, {event}) could not be delivered and will not be \
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
        event: Event::Notice,
        game,
        in_reply_to: None,
    }
}

fn end_text(end: GameEnd) -> String {
    format!("{} ({})", end.result, end.termination.as_str())
}

/// The mails for a verdict given to the player of `seat`. `after` is the record
/// with the verdict applied.
pub fn verdict_mails(
    game: &GameContext<'_>,
    seat: Color,
    verdict: &Verdict,
    after: &Record,
    answering: Option<&str>,
) -> Vec<OutMail> {
    let opp = !seat;
    let mut mails = Vec::new();
    match verdict {
        Verdict::Moved {
            ply,
            number,
            end,
            draw_offered,
            ..
        } => {
            let played = format!("{} {}", MoveNumberText(*number), ply.iccf);
            let mut mine = format!(
                "Game {}: your move {played} ({}) is recorded.\n",
                game.id, ply.san
            );
            if *draw_offered {
                mine.push_str("Your draw offer has been passed on.\n");
            }
            mine.push('\n');
            mine.push_str(&game.picture(after));
            if end.is_none() {
                mine.push_str(&footer(false, after));
            }
            let mut m = game.mail(
                seat,
                Event::MoveAccepted,
                &format!("{played} accepted"),
                mine,
            );
            m.in_reply_to = answering.map(str::to_owned);
            mails.push(m);

            let mut theirs = format!(
                "Game {}: {} played {played} ({}).\n",
                game.id,
                ColorName(seat),
                ply.san
            );
            if *draw_offered {
                theirs.push_str(
                    "With this move your opponent offers a draw: reply \"accept draw\", or simply send your move to decline.\n",
                );
            }
            theirs.push('\n');
            theirs.push_str(&game.picture(after));
            if end.is_none() {
                theirs.push_str(&footer(true, after));
            }
            let subject = if end.is_none() {
                format!("{played} - your move")
            } else {
                played.clone()
            };
            mails.push(game.mail(opp, Event::OpponentMoved, &subject, theirs));
            if let Some(end) = end {
                mails.extend(game_over(game, after, *end));
            }
        }
        Verdict::Ended { by, end } => {
            let how = match end.termination {
                crate::game::Termination::Resignation => {
                    format!("{} resigned.", ColorName(*by))
                }
                crate::game::Termination::DrawAgreed => {
                    format!("{} accepted the draw.", ColorName(*by))
                }
                _ => format!(
                    "{} claimed a draw by {}; the claim is correct.",
                    ColorName(*by),
                    end.termination.as_str()
                ),
            };
            for mut m in game_over(game, after, *end) {
                m.body = format!("{how}\n{}", m.body);
                if m.to == game.seat(seat).email {
                    m.in_reply_to = answering.map(str::to_owned);
                }
                mails.push(m);
            }
        }
        Verdict::DrawOffered { by } => mails.extend(notice_pair(
            game,
            seat,
            after,
            answering,
            ("draw offer sent", "your draw offer has been passed on to your opponent.".to_owned()),
            (
                "draw offered",
                format!(
                    "{} offers a draw.\nReply \"accept draw\" or \"decline draw\"; a move also declines it.",
                    ColorName(*by)
                ),
            ),
        )),
        Verdict::DrawDeclined { by } => mails.extend(notice_pair(
            game,
            seat,
            after,
            answering,
            ("draw declined", "you declined the draw offer.".to_owned()),
            (
                "draw declined",
                format!(
                    "{} declined your draw offer. The game goes on.",
                    ColorName(*by)
                ),
            ),
        )),
        Verdict::Status => {
            let to_play = after.end.is_none() && after.turn() == seat;
            let mut body = format!(
                "Game {}: the position now.\n\n{}",
                game.id,
                game.picture(after)
            );
            if after.end.is_none() {
                body.push_str(&footer(to_play, after));
            }
            let mut m = game.mail(seat, Event::Notice, "status", body);
            m.in_reply_to = answering.map(str::to_owned);
            mails.push(m);
        }
        Verdict::Rejected(why) => {
            let mut body = format!(
                "Game {}: your message was not played.\n\nReason: {why}.\n\nWhat to do: {}\n\n",
                game.id,
                what_to_do(why, after, seat)
            );
            body.push_str(&game.picture(after));
            let mut m = game.mail(seat, Event::MoveRejected, "not played", body);
            m.in_reply_to = answering.map(str::to_owned);
            mails.push(m);
        }
    }
    mails
}

/// A notice to the player who gave the command (answering their message) and
/// one to the opponent, each `Game N: <text>` followed by the board.
fn notice_pair(
    game: &GameContext<'_>,
    seat: Color,
    after: &Record,
    answering: Option<&str>,
    mine: (&str, String),
    theirs: (&str, String),
) -> [OutMail; 2] {
    let body = |text: &str| format!("Game {}: {text}\n\n{}", game.id, game.picture(after));
    let mut m = game.mail(seat, Event::Notice, mine.0, body(&mine.1));
    m.in_reply_to = answering.map(str::to_owned);
    [
        m,
        game.mail(!seat, Event::Notice, theirs.0, body(&theirs.1)),
    ]
}

fn game_over(game: &GameContext<'_>, after: &Record, end: GameEnd) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            game.mail(
                c,
                Event::GameOver,
                &format!("game over {}", end.result),
                format!(
                    "Game {} is over: {}.\n\n{}\nThank you for the game.\n",
                    game.id,
                    end_text(end),
                    game.picture(after)
                ),
            )
        })
        .collect()
}

/// The concrete next step for each kind of rejection.
pub fn what_to_do(why: &Rejection, record: &Record, seat: Color) -> String {
    let next = number_text(record);
    match why {
        Rejection::GameOver { .. } => {
            "nothing: the game is finished. Ask the organiser for a new game.".to_owned()
        }
        Rejection::NotYourTurn { .. } => {
            "wait for your opponent's move; it will reach you by mail.".to_owned()
        }
        Rejection::WrongMoveNumber { .. }
        | Rejection::EchoMismatch { .. }
        | Rejection::AlreadyRecorded { .. } => format!(
            "compare your record with the one below, then send your move as \"{next} <move>\"{}.",
            if record.turn() == seat {
                ""
            } else {
                " when it is your turn"
            }
        ),
        Rejection::SeveralNewMoves { .. } => {
            format!("send only your move for {next}.")
        }
        Rejection::Illegal { why, .. } => match why {
            IllegalMove::OldPromotionForm { standard, .. } => {
                format!("send \"{next} {standard}\" if that is your move.")
            }
            IllegalMove::PromotionDigitMissing { options } => format!(
                "send one of {} (5th digit: 1 queen, 2 rook, 3 bishop, 4 knight).",
                options
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            IllegalMove::PromotionDigitNotAllowed { without, .. } => {
                format!("send \"{next} {without}\" if that is your move.")
            }
            _ => format!("send a legal move for {next}; the board is below."),
        },
        Rejection::NoDrawOffer | Rejection::OwnDrawOffer => {
            "to offer a draw yourself, write \"offer draw\" (with your move if you like)."
                .to_owned()
        }
        Rejection::ClaimRefused { .. } => "play on: send your move.".to_owned(),
    }
}

/// The mails a decision sends, and how many to the sender the hourly limit
/// held back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Letters {
    pub mails: Vec<OutMail>,
    /// Mails to the sender dropped by the hourly limit (only ever answers
    /// that do not advance a game).
    pub rate_limited: usize,
}

/// Everything `decision` on the message `intake` sends: the verdict's mails
/// or the notice. An answer that does not advance the game (a rejection, a
/// notice, help, status) is sent to the sender only within
/// `decision.reply_budget`; the mails of an accepted command always go.
/// `game` is the game the decision was taken on.
pub fn write(
    decision: &Decision,
    intake: &Intake,
    game: Option<&GameView>,
    referee: &RefereeConfig,
) -> Letters {
    let answering = intake.message_id.as_deref();
    let mut mails = match (&decision.verdict, decision.seat, game) {
        (Some(verdict), Some(seat), Some(view)) => with_game(view, referee, |ctx| {
            let after = decision.record_after.as_ref().unwrap_or(ctx.record);
            verdict_mails(ctx, seat, verdict, after, answering)
        }),
        _ => match &decision.notice {
            Some(notice) => notice_mail(notice, decision, intake, game, referee)
                .into_iter()
                .collect(),
            None => Vec::new(),
        },
    };
    conditional::amend(&mut mails, decision, answering, game, referee);
    let mut rate_limited = 0;
    // The limit bounds only answers that do not advance a game: an accepted
    // move (or resignation, agreed draw, draw offer) cannot feed a mail loop,
    // since each needs a new legal command from the player's own address,
    // and its confirmation and relay must never be lost.
    if !decision.outcome.changes_game()
        && let Some(sender) = &intake.from
    {
        let before = mails.len();
        let mut to_sender = 0;
        mails.retain(|m| {
            if &m.to != sender {
                return true;
            }
            to_sender += 1;
            to_sender <= decision.reply_budget
        });
        rate_limited = before - mails.len();
    }
    Letters {
        mails,
        rate_limited,
    }
}

/// The mail a notice becomes; `None` when it names a seat of no game.
fn notice_mail(
    what: &Notice,
    decision: &Decision,
    intake: &Intake,
    game: Option<&GameView>,
    referee: &RefereeConfig,
) -> Option<OutMail> {
    let answering = intake.message_id.as_deref();
    let sender = |text: &str, body: String, game: Option<i64>| {
        Some(notice(intake.from.as_deref()?, text, body, game, answering))
    };
    match what {
        Notice::TooLarge { size, limit } => sender(
            "message too large",
            format!(
                "Your message of {size} bytes is larger than this referee reads ({limit} bytes), so it was not read.\n\
                 Please send a short plain-text mail with just your move, without attachments.\n"
            ),
            decision.game,
        ),
        Notice::Help => sender("how to play", help_text(referee), None),
        Notice::WrongAddress { seat } => with_game(game?, referee, |ctx| {
            let seat = ctx.seat(*seat);
            let mut m = notice(
                &seat.email,
                "wrong game address",
                format!(
                    "Your message was sent to an address that is not yours for game {}, so it was not played.\n\
                     Your address for this game is:\n\n    {}\n\nReply to this mail to reach it.\n",
                    ctx.id, seat.address
                ),
                Some(ctx.id),
                answering,
            );
            m.to_name = seat.name.clone();
            m.reply_to = Some(seat.address.clone());
            Some(m)
        }),
        Notice::Stranger { seat, from } => with_game(game?, referee, |ctx| {
            let seat = ctx.seat(*seat);
            Some(security_notice(
                ctx.id,
                seat,
                format!(
                    "A message reached your address for game {} from {from}, which is not your registered address ({}).\n\
                     It was not played. Moves count only when sent from your registered address.\n\
                     If it was not you, nothing needs doing; if you think your game address is known to someone else,\n\
                     ask the organiser for a new one (wildt game rekey).\n",
                    ctx.id, seat.email
                ),
            ))
        }),
        Notice::AuthFailed { seat, from, checks } => with_game(game?, referee, |ctx| {
            // What the club's server found, in the player's words.
            let found = match checks {
                Some(summary) => format!("its checks said: {summary}"),
                None => "it found no proof of the sender on the message".to_owned(),
            };
            Some(security_notice(
                ctx.id,
                ctx.seat(*seat),
                format!(
                    "A message for game {} arrived with your address ({from}) as sender, but the club's mail\n\
                     server could not confirm that it came from you ({found}). It was not played.\n\
                     If you sent it, check that your provider signs your mail (DKIM) and publishes DMARC;\n\
                     if you did not, someone tried to move for you.\n",
                    ctx.id
                ),
            ))
        }),
        Notice::Unclear { seat, unclear } => with_game(game?, referee, |ctx| {
            let mut m = ctx.mail(
                *seat,
                Event::MoveRejected,
                "not understood",
                format!(
                    "Game {}: your message could not be read as one clear command, so nothing was played.\n\n\
                     What was found: {unclear}.\n\n\
                     Please reply with only your move in numeric notation, e.g. \"{} 5254\",\n\
                     or one of: resign, offer draw, accept draw, decline draw, claim draw, status.\n\n{}{}\n",
                    ctx.id,
                    MoveNumberText(ctx.record.next_number()),
                    board_diagram(ctx.record.position()),
                    status_line(ctx.record),
                ),
            );
            m.in_reply_to = answering.map(str::to_owned);
            Some(m)
        }),
    }
}

/// A notice to the real player of a seat about a message that was not
/// theirs; never to the sender, whose From may be forged.
fn security_notice(game: i64, seat: &Seat, body: String) -> OutMail {
    let mut m = notice(
        &seat.email,
        "a message was not played",
        body,
        Some(game),
        None,
    );
    m.to_name = seat.name.clone();
    m.reply_to = Some(seat.address.clone());
    m
}

/// A notice outside a game's play, to one address.
fn notice(
    to: &str,
    text: &str,
    body: String,
    game: Option<i64>,
    answering: Option<&str>,
) -> OutMail {
    OutMail {
        to: to.to_owned(),
        to_name: None,
        reply_to: None,
        subject: subject(game, text),
        body,
        event: Event::Notice,
        game,
        in_reply_to: answering.map(str::to_owned),
    }
}

/// The short help sent to mail that reaches the referee without a game address.
pub fn help_text(referee: &RefereeConfig) -> String {
    format!(
        "This is {name} <{addr}>, a correspondence-chess referee.\n\n\
         Moves are accepted only at your own game address, which looks like\n\
         {local}+<game>-<key>@{domain} and was sent to you when your game was created.\n\
         Simply reply to any mail from your game.\n\n\
         Moves are written in ICCF numeric notation: from-square then to-square,\n\
         each square as file digit then rank digit (e2-e4 is 5254; castling is the\n\
         king's move, 5171; a promotion adds 1 queen, 2 rook, 3 bishop, 4 knight).\n\n\
         Commands: a move, resign, offer draw, accept draw, decline draw, claim draw, status.\n",
        name = referee.name,
        addr = referee.address,
        local = referee.local,
        domain = referee.domain,
    )
}

// clock: the day clocks in every game mail, reminders, warnings, forfeits.

/// Both clocks, one line each ("White: 37 days left for moves 11–20");
/// empty for a game without a time control.
pub fn clock_lines(lang: crate::i18n::Lang, state: &crate::clock::ClockState) -> String {
    use crate::i18n::{Arg, Key, color_arg, text};
    let mut s = String::new();
    for c in [Color::White, Color::Black] {
        let clock = &state.clocks[c];
        let Some(left) = clock.days_left else {
            continue;
        };
        let days = Arg::Count(i64::from(left));
        let line = match clock.control_move {
            Some(to) => text(
                lang,
                Key::ClockDaysLeft,
                &[
                    ("color", color_arg(c)),
                    ("days", days),
                    ("from", Arg::Count(i64::from(clock.next_move))),
                    ("to", Arg::Count(i64::from(to))),
                ],
            ),
            None => text(
                lang,
                Key::ClockDaysLeftOpen,
                &[("color", color_arg(c)), ("days", days)],
            ),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// Adds the clock lines to every mail about a move of game `game` (the
/// confirmation, the relay and the rejection), before the board.
pub fn add_clocks(letters: &mut Letters, game: i64, lines: &str) {
    if lines.is_empty() {
        return;
    }
    for m in &mut letters.mails {
        if m.game == Some(game)
            && matches!(
                m.event,
                Event::MoveAccepted | Event::OpponentMoved | Event::MoveRejected
            )
        {
            m.body = match m.body.find("\n\n") {
                Some(i) => format!("{}\n\n{}{}", &m.body[..i], lines, &m.body[i..]),
                None => format!("{}\n\n{lines}", m.body),
            };
        }
    }
}

/// The reminder to the player of `seat`, `days` days after the opponent's
/// move arrived: the position and both clocks.
pub fn clock_reminder_mail(
    game: &GameContext<'_>,
    seat: Color,
    days: u32,
    clocks: &str,
) -> OutMail {
    use crate::i18n::{Arg, Key, Lang, text};
    let lang = Lang::En;
    let mut body = text(
        lang,
        Key::ClockReminder,
        &[
            ("game", game.id.to_string().into()),
            ("days", Arg::Count(i64::from(days))),
        ],
    );
    body.push_str("\n\n");
    body.push_str(clocks);
    body.push('\n');
    body.push_str(&game.picture(game.record));
    body.push_str(&footer(true, game.record));
    game.mail(
        seat,
        Event::Notice,
        &text(lang, Key::SubjectClockReminder, &[]),
        body,
    )
}

/// The warning to the player of `seat` that `days_left` days remain.
pub fn clock_low_time_mail(
    game: &GameContext<'_>,
    seat: Color,
    days_left: u32,
    clocks: &str,
) -> OutMail {
    use crate::i18n::{Arg, Key, Lang, text};
    let lang = Lang::En;
    let mut body = text(
        lang,
        Key::ClockLowTime,
        &[
            ("game", game.id.to_string().into()),
            ("days", Arg::Count(i64::from(days_left))),
        ],
    );
    body.push_str("\n\n");
    body.push_str(clocks);
    body.push('\n');
    body.push_str(&game.picture(game.record));
    body.push_str(&footer(true, game.record));
    game.mail(
        seat,
        Event::Notice,
        &text(lang, Key::SubjectClockLowTime, &[]),
        body,
    )
}

/// A notice to both players of the game: `text` (a leave, a ruling), both
/// clocks and the position.
fn clock_notice_pair(
    game: &GameContext<'_>,
    subject: &str,
    text: &str,
    clocks: &str,
) -> Vec<OutMail> {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| clock_notice(game, c, subject, text, clocks))
        .collect()
}

/// A notice to the player of `to`: `text`, both clocks (none in a game
/// without a time control) and the position.
fn clock_notice(
    game: &GameContext<'_>,
    to: Color,
    subject: &str,
    text: &str,
    clocks: &str,
) -> OutMail {
    let mut body = if clocks.is_empty() {
        format!("{text}\n\n")
    } else {
        format!("{text}\n\n{clocks}\n")
    };
    body.push_str(&game.picture(game.record));
    body.push_str(&footer(
        game.record.turn() == to && !game.record.is_over(),
        game.record,
    ));
    game.mail(to, Event::Notice, subject, body)
}

/// What became of a player's leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaveChange {
    Granted(crate::clock::Leave),
    /// The leave starting `from` is cancelled (or ended early).
    Cancelled {
        from: crate::clock::Date,
    },
}

/// The sentence telling that the leave of `seat` changed.
fn leave_change_text(game: &GameContext<'_>, seat: Color, change: LeaveChange) -> String {
    use crate::i18n::{Key, Lang, color_arg, text};
    let lang = Lang::En;
    match change {
        LeaveChange::Granted(leave) => text(
            lang,
            Key::ClockLeaveGranted,
            &[
                ("game", game.id.to_string().into()),
                ("color", color_arg(seat)),
                ("from", leave.from.to_string().into()),
                ("to", leave.to.to_string().into()),
            ],
        ),
        LeaveChange::Cancelled { from } => text(
            lang,
            Key::ClockLeaveCancelled,
            &[
                ("game", game.id.to_string().into()),
                ("color", color_arg(seat)),
                ("from", from.to_string().into()),
            ],
        ),
    }
}

/// Both players of the game in which the player of `seat` asked for (or
/// cancelled) leave told of it, with the clocks as they now stand.
pub fn leave_changed_mails(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    clocks: &str,
) -> Vec<OutMail> {
    use crate::i18n::{Key, Lang, text};
    clock_notice_pair(
        game,
        &text(Lang::En, Key::SubjectClockLeave, &[]),
        &leave_change_text(game, seat, change),
        clocks,
    )
}

/// The opponent of `seat` told that the player's leave changed, in another
/// game of that player: leave is the player's, and stops all their clocks.
pub fn leave_changed_notice(
    game: &GameContext<'_>,
    seat: Color,
    change: LeaveChange,
    clocks: &str,
) -> OutMail {
    use crate::i18n::{Key, Lang, text};
    clock_notice(
        game,
        !seat,
        &text(Lang::En, Key::SubjectClockLeave, &[]),
        &leave_change_text(game, seat, change),
        clocks,
    )
}

/// Both players told of a ruling that gives `seat` `days` days.
pub fn days_given_mails(
    game: &GameContext<'_>,
    seat: Color,
    days: i64,
    clocks: &str,
) -> Vec<OutMail> {
    use crate::i18n::{Arg, Key, Lang, color_arg, text};
    let lang = Lang::En;
    let body = text(
        lang,
        Key::ClockDaysGiven,
        &[
            ("game", game.id.to_string().into()),
            ("color", color_arg(seat)),
            ("days", Arg::Count(days)),
        ],
    );
    clock_notice_pair(
        game,
        &text(lang, Key::SubjectClockRuling, &[]),
        &body,
        clocks,
    )
}

/// Both players told the organiser decided the game, and why.
pub fn adjudicated_mails(game: &GameContext<'_>, end: GameEnd, reason: &str) -> Vec<OutMail> {
    use crate::i18n::{Key, Lang, text};
    let lang = Lang::En;
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let mut body = text(
                lang,
                Key::ClockAdjudicated,
                &[
                    ("game", game.id.to_string().into()),
                    ("result", end.result.as_str().into()),
                    ("reason", reason.into()),
                ],
            );
            body.push_str("\n\n");
            body.push_str(&game.picture(game.record));
            game.mail(
                c,
                Event::GameOver,
                &format!("game over {}", end.result),
                body,
            )
        })
        .collect()
}

/// Why a request for leave was refused, in the player's words.
pub fn leave_refusal_text(lang: crate::i18n::Lang, why: &crate::clock::LeaveRefusal) -> String {
    use crate::clock::LeaveRefusal as R;
    use crate::i18n::{Arg, Key, text};
    let d = |d: crate::clock::Date| Arg::from(d.to_string().as_str());
    match why {
        R::EndsBeforeStart { from, to } => text(
            lang,
            Key::ClockLeaveWhyEndsBeforeStart,
            &[("from", d(*from)), ("to", d(*to))],
        ),
        R::StartsInThePast { from, today } => text(
            lang,
            Key::ClockLeaveWhyInPast,
            &[("from", d(*from)), ("today", d(*today))],
        ),
        R::Overlaps { existing } => text(
            lang,
            Key::ClockLeaveWhyOverlaps,
            &[("from", d(existing.from)), ("to", d(existing.to))],
        ),
        R::ExceedsAllowance {
            year,
            asked,
            remaining,
            allowance,
        } => text(
            lang,
            Key::ClockLeaveWhyExceeds,
            &[
                ("year", Arg::Count(i64::from(*year))),
                ("asked", Arg::Count(i64::from(*asked))),
                ("remaining", Arg::Count(i64::from(*remaining))),
                ("allowance", Arg::Count(i64::from(*allowance))),
            ],
        ),
    }
}

/// The answer to a player whose request for leave was refused (`why`:
/// [`leave_refusal_text`], or `None` when its dates could not be read).
pub fn leave_refused_mail(
    game: &GameContext<'_>,
    seat: Color,
    why: Option<&crate::clock::LeaveRefusal>,
    answering: Option<&str>,
) -> OutMail {
    use crate::i18n::{Key, Lang, text};
    let lang = Lang::En;
    let why = match why {
        Some(w) => leave_refusal_text(lang, w),
        None => text(lang, Key::ClockLeaveWhyUnclear, &[]),
    };
    let body = text(
        lang,
        Key::ClockLeaveRefused,
        &[("game", game.id.to_string().into()), ("why", why.into())],
    );
    let mut m = game.mail(
        seat,
        Event::Notice,
        &text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The answer to "cancel leave" when there is none to cancel.
pub fn nothing_to_cancel_mail(
    game: &GameContext<'_>,
    seat: Color,
    answering: Option<&str>,
) -> OutMail {
    use crate::i18n::{Key, Lang, text};
    let lang = Lang::En;
    let body = text(
        lang,
        Key::ClockLeaveNothingToCancel,
        &[("game", game.id.to_string().into())],
    );
    let mut m = game.mail(
        seat,
        Event::Notice,
        &text(lang, Key::SubjectClockLeave, &[]),
        format!("{body}\n"),
    );
    m.in_reply_to = answering.map(str::to_owned);
    m
}

/// The game-over mails to both players when the game ended without a
/// message (a time forfeit decided by the referee's clock, a ruling).
pub fn game_over_mails(game: &GameContext<'_>, after: &Record, end: GameEnd) -> Vec<OutMail> {
    game_over(game, after, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subject starts with the intake's mark, so a player's reply to
    /// any mail of wildt is recognised as quoting wildt, not as a command.
    #[test]
    fn subjects_start_with_the_intakes_mark() {
        assert_eq!(subject(Some(17), "status"), "[wildt #17] status");
        assert_eq!(subject(None, "how to play"), "[wildt] how to play");
        assert!(subject(Some(3), "1. 5254 accepted").starts_with(WILDT_SUBJECT_MARK));
    }
}
