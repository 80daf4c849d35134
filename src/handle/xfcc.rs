//! The use case "a move arrives by Xfcc": a MakeAMove, once its sender is
//! authenticated, read as the command a mail would carry and sent down the
//! same steps as a mail (`steps::one_message`: look up, load, plan, apply)
//! in one transaction, with the source `xfcc`. [IO: database]
//!
//! What only a chess GUI needs is checked first, on the game as it stands:
//! the game's number and seat, whose turn it is, the move number, the SAN
//! (read into the move it names in the position), and leave. The referee
//! judges the move again in the transaction, on the game as it is then: a
//! move by mail that came first makes this one a rejection, never a second
//! move. The verdict becomes XfccBasic's result code.

use sha2::{Digest, Sha256};
use shakmaty::Color;

use super::{Handled, Read, Source, hex, steps};
use crate::auth::AuthOutcome;
use crate::clock::Date;
use crate::command::{Command, MoveNumber, WrittenMove};
use crate::config::Rules;
use crate::decide::Outcome;
use crate::game::Termination;
use crate::intake::{Disposition, GameAddress, Intake, Reading};
use crate::notation::{SanInputError, iccf_from_san};
use crate::referee::{Rejection, Verdict};
use crate::store::{Store, StoreError, clocks, now_secs, xfcc};
use crate::xfcc::soap::{MakeAMove, MoveResult};

/// What an Xfcc call adds to the path of a mail.
#[derive(Debug, Clone)]
pub(super) struct XfccExtras {
    /// `myMessage`: rides in the opponent's mail.
    pub note: Option<String>,
    /// The mover gets the usual confirmation mail.
    pub confirm_by_mail: bool,
}

/// What became of a MakeAMove: its result code, and the message as handled
/// when it went down the mail's path (its committed mails are in the
/// outbox).
pub struct XfccHandled {
    pub result: MoveResult,
    pub handled: Option<Handled>,
}

impl XfccHandled {
    fn only(result: MoveResult) -> XfccHandled {
        XfccHandled {
            result,
            handled: None,
        }
    }
}

/// Handles MakeAMove `m` from `user`, already authenticated.
pub async fn handle_xfcc_move(
    store: &Store,
    rules: &Rules,
    user: &str,
    m: &MakeAMove,
    confirm_by_mail: bool,
) -> Result<XfccHandled, StoreError> {
    let Some(game) = store.game(m.game_id).await? else {
        return Ok(XfccHandled::only(MoveResult::InvalidGameID));
    };
    let view = &game.view;
    let Some(seat) = [Color::White, Color::Black]
        .into_iter()
        .find(|c| view.player(*c).email.eq_ignore_ascii_case(user))
    else {
        return Ok(XfccHandled::only(MoveResult::NotYourGame));
    };
    let record = &view.record;
    let command = if m.resign {
        Command::Resign
    } else if m.accept_draw {
        Command::AcceptDraw
    } else if !m.my_move.is_empty() {
        if let Some(end) = record.end {
            return Ok(XfccHandled::only(over(end, seat)));
        }
        if record.turn() != seat {
            return Ok(XfccHandled::only(MoveResult::NotYourTurn));
        }
        let number = record.next_number();
        if m.movecount != number.number {
            return Ok(XfccHandled::only(MoveResult::InvalidMoveNumber));
        }
        let mut conn = store.pool().acquire().await?;
        let today = Date::of_instant(now_secs());
        if clocks::leaves(&mut conn, &view.player(seat).email)
            .await?
            .iter()
            .any(|l| l.contains(today))
        {
            return Ok(XfccHandled::only(MoveResult::YouAreOnLeave));
        }
        drop(conn);
        let mv = match iccf_from_san(record.position(), &m.my_move) {
            Ok(mv) => mv,
            Err(SanInputError::Ambiguous { .. }) => {
                return Ok(XfccHandled::only(MoveResult::MoveIsAmbiguous));
            }
            Err(SanInputError::NotSan { .. } | SanInputError::Illegal { .. }) => {
                return Ok(XfccHandled::only(MoveResult::InvalidMove));
            }
        };
        Command::Play {
            line: vec![WrittenMove {
                number: Some(MoveNumber {
                    number: m.movecount,
                    black: seat == Color::Black,
                }),
                mv,
            }],
            offer_draw: m.offer_draw,
            claim_draw: m.claim_draw,
        }
    } else if m.claim_draw {
        Command::ClaimDraw
    } else if m.offer_draw {
        Command::OfferDraw
    } else {
        return Ok(XfccHandled::only(MoveResult::InvalidMove));
    };
    let key = view.player(seat).key.clone();
    let email = view.player(seat).email.clone();
    let game_id = view.id;
    drop(game);
    let note = (!m.my_message.is_empty()).then(|| m.my_message.clone());
    let read = read(
        rules,
        &email,
        game_id,
        key,
        command,
        note.clone(),
        confirm_by_mail,
    );

    let _turn = store.write_turn().await;
    let mut tx = store.begin().await?;
    let handled = steps::alone(&mut tx, rules, &Source::Xfcc, read).await?;
    let result = result_of(&handled, seat);
    if result == MoveResult::Success {
        // The opponent's GetMyGames shows the note of the last command sent
        // by Xfcc: none, when it came without one.
        xfcc::set_note(
            &mut tx,
            game_id,
            seat,
            note.as_deref().unwrap_or(""),
            now_secs(),
        )
        .await?;
    }
    crate::failpoint::hit("xfcc-before-commit", 1);
    tx.commit().await?;
    Ok(XfccHandled {
        result,
        handled: Some(handled),
    })
}

/// The message a mail would be: from the player, to their own game
/// address, holding `command`. Its digests are of a fresh random value: two
/// calls are two messages (a call sent twice is judged twice, and the
/// second finds the move made).
fn read(
    rules: &Rules,
    email: &str,
    game: i64,
    key: String,
    command: Command,
    note: Option<String>,
    confirm_by_mail: bool,
) -> Read {
    let now = now_secs();
    let nonce = crate::keys::message_key();
    let sha = hex(&Sha256::digest(format!("xfcc\0{email}\0{game}\0{nonce}")));
    let intake = Intake {
        message_id: Some(format!("xfcc-{nonce}@{}", rules.referee.domain)),
        from: Some(email.to_ascii_lowercase()),
        subject: String::new(),
        in_reply_to: None,
        references: Vec::new(),
        game_address: Some(GameAddress { game, key }),
        to_bare_referee: false,
        lang: Default::default(),
        disposition: Disposition::Read(Reading::Command(command)),
        conditionals: None,
    };
    // The password is the proof of the sender, as the trusted server's
    // word is for a mail under a policy that asks for it.
    let auth = rules
        .security
        .policy
        .needs_auth()
        .then_some(AuthOutcome::DmarcPass);
    Read {
        body_sha: sha.clone(),
        sha,
        intake,
        auth,
        source_key: Source::Xfcc.to_string(),
        now,
        arrival: now,
        xfcc: Some(XfccExtras {
            note,
            confirm_by_mail,
        }),
    }
}

/// The result code of a game already over for a move: lost on time when
/// the mover's flag fell.
fn over(end: crate::game::GameEnd, seat: Color) -> MoveResult {
    let lost = end.result == crate::game::GameResult::win_for(seat.other());
    if end.termination == Termination::TimeForfeit && lost {
        MoveResult::LostOnTime
    } else {
        MoveResult::InvalidMove
    }
}

/// XfccBasic's result code for the message as handled.
fn result_of(handled: &Handled, seat: Color) -> MoveResult {
    let Handled::Decided { decision, .. } = handled else {
        return MoveResult::ServerError;
    };
    match decision.outcome {
        o if o.changes_game() => MoveResult::Success,
        Outcome::Rejected => match &decision.verdict {
            Some(Verdict::Rejected(r)) => match r {
                Rejection::NotYourTurn { .. } | Rejection::AlreadyRecorded { .. } => {
                    MoveResult::NotYourTurn
                }
                Rejection::WrongMoveNumber { .. }
                | Rejection::EchoMismatch { .. }
                | Rejection::SeveralNewMoves { .. } => MoveResult::InvalidMoveNumber,
                Rejection::Illegal { .. }
                | Rejection::ClaimRefused { .. }
                | Rejection::TablebaseClaimRefused { .. } => MoveResult::InvalidMove,
                Rejection::NoDrawOffer | Rejection::OwnDrawOffer => MoveResult::NoDrawWasOffered,
                Rejection::GameOver { end } => over(*end, seat),
            },
            _ => MoveResult::ServerError,
        },
        other => {
            tracing::warn!(outcome = %other, detail = %decision.detail, "an Xfcc move was not taken");
            MoveResult::ServerError
        }
    }
}

/// A player's "xfcc password" at their game address, answered (not held
/// back by the hourly limit): a new random password is set and mailed in
/// place of the status mail. Nothing for any other message.
pub(super) async fn password_by_mail(
    tx: &mut sqlx::AnyConnection,
    read: &Read,
    decision: &crate::decide::Decision,
    game: Option<&crate::decide::GameView>,
    letters: &mut crate::reply::Letters,
) -> Result<(), StoreError> {
    let (Some(Command::XfccPassword), Some(seat), Some(g)) =
        (read.intake.command(), decision.seat, game)
    else {
        return Ok(());
    };
    if decision.outcome != Outcome::Status || letters.mails.is_empty() {
        return Ok(());
    }
    let player = g.player(seat);
    let password = crate::xfcc::account::random_password();
    let p = password.clone();
    let hash = tokio::task::spawn_blocking(move || crate::xfcc::account::hash_password(&p))
        .await
        .map_err(|e| StoreError::Invariant(format!("hashing a password: {e}")))?
        .map_err(|e| StoreError::Invariant(e.to_string()))?;
    xfcc::set_password_hash(tx, &player.email, &hash, read.now).await?;
    let mut mail = crate::reply::xfcc::password_mail(
        &player.email,
        player.name.as_deref(),
        player.lang,
        &password,
    );
    mail.game = Some(g.id);
    mail.in_reply_to = read.intake.message_id.clone();
    letters.mails = vec![mail];
    Ok(())
}
