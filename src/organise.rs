//! The organiser's use cases, each one transaction: create a game with its
//! welcome mails, give a seat a new key with its notice, record a move by
//! hand. [IO: database]
//!
//! A game and the mails that tell its players their addresses are committed
//! together: a crash can leave neither or both, never a game nobody was told
//! of.

pub mod event;

use shakmaty::Color;
use sqlx::AnyConnection;

use crate::command::Command;
use crate::config::RefereeConfig;
use crate::event::{PlayerListError, parse_player};
use crate::game::{Record, RecordError};
use crate::i18n::Lang;
use crate::keys::new_key;
use crate::mail::render::{RenderError, render};
use crate::referee::{Verdict, judge_with};
use crate::reply;
use crate::store::games::NewGameRow;
use crate::store::players::{self, LangSource};
use crate::store::{Store, StoreError, StoredGame, clocks, games, now_secs, outbox};

#[derive(Debug, thiserror::Error)]
pub enum OrganiseError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {0} does not exist")]
    NoGame(i64),
    #[error("{0}")]
    BadStart(RecordError),
    #[error("{email} already plays {count} unfinished games (the limit is {limit})")]
    TooManyGames {
        email: String,
        count: i64,
        limit: u32,
    },
    #[error("cannot write the mail to {to}: {source}")]
    Unwritable { to: String, source: RenderError },
    #[error("a player cannot play against themselves ({0})")]
    SamePlayer(String),
    /// Not `source`: the text already says why, and a printed error chain
    /// would say it twice.
    #[error(
        "{seat}: {}; write `anna@example.org` or `Anna Smith <anna@example.org>`",
        why(error)
    )]
    NotAnAddress {
        seat: &'static str,
        error: PlayerListError,
    },
    #[error("game {0} is already over")]
    Over(i64),
    #[error("event {0} does not exist")]
    NoEvent(i64),
    #[error(transparent)]
    Pairing(#[from] crate::event::PairingError),
    #[error(transparent)]
    Crosstable(#[from] crate::event::CrosstableError),
    #[error(transparent)]
    Withdraw(#[from] crate::event::WithdrawError),
    #[error("{0} has already withdrawn from this event")]
    AlreadyWithdrawn(String),
}

impl From<sqlx::Error> for OrganiseError {
    fn from(e: sqlx::Error) -> OrganiseError {
        OrganiseError::Store(StoreError::Sql(e))
    }
}

/// Why one player given to `game new` is not one address, in the words of
/// a single entry (the list errors count lines, which a single entry has not).
fn why(e: &PlayerListError) -> String {
    match e {
        PlayerListError::NotAnAddress { entry, .. } => {
            format!("`{entry}` is not an e-mail address")
        }
        PlayerListError::Unbalanced { entry, .. } => {
            format!("`{entry}` has an unclosed quote or angle bracket")
        }
        PlayerListError::BadName { entry, .. } => {
            format!("the name in `{entry}` may not contain @, < or >")
        }
        PlayerListError::Empty | PlayerListError::Duplicate { .. } => e.to_string(),
    }
}

/// A game to create.
#[derive(Debug, Clone, Copy)]
pub struct NewGame<'a> {
    /// `anna@x.example` or `Anna Smith <anna@x.example>`: the player is
    /// matched by the address; the name is kept for the mails.
    pub white: &'a str,
    pub black: &'a str,
    /// Start from this position instead of the initial one.
    pub fen: Option<&'a str>,
    pub event: Option<&'a str>,
    /// The game's time control (`none`: no clocks).
    pub time: crate::clock::TimeControl,
    /// The players' languages, if the organiser chose them; otherwise each
    /// keeps the one stored (or guessed) for their address.
    pub white_lang: Option<Lang>,
    pub black_lang: Option<Lang>,
}

/// Whether the players are mailed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mailing {
    Mail,
    /// The organiser passes the addresses on (e.g. for a postcard game).
    NoMail,
}

/// Creates a game with fresh secret keys and, with [`Mailing::Mail`], queues
/// the mails that tell each player their colour, opponent and game address,
/// in the same transaction.
pub async fn create_game(
    store: &Store,
    referee: &RefereeConfig,
    games_per_player: u32,
    new: NewGame<'_>,
    mailing: Mailing,
) -> Result<StoredGame, OrganiseError> {
    let mut tx = store.begin().await?;
    let game = create_game_in(&mut tx, referee, games_per_player, new, mailing).await?;
    tx.commit().await?;
    Ok(game)
}

/// [`create_game`] inside the caller's transaction (an event creates all its
/// games in one).
pub(crate) async fn create_game_in(
    tx: &mut AnyConnection,
    referee: &RefereeConfig,
    games_per_player: u32,
    new: NewGame<'_>,
    mailing: Mailing,
) -> Result<StoredGame, OrganiseError> {
    let record = Record::new(new.fen).map_err(OrganiseError::BadStart)?;
    let mailbox = |seat, text| {
        parse_player(text).map_err(|error| OrganiseError::NotAnAddress { seat, error })
    };
    let (white_box, black_box) = (mailbox("white", new.white)?, mailbox("black", new.black)?);
    let (white, black) = (white_box.email.clone(), black_box.email.clone());
    if white == black {
        return Err(OrganiseError::SamePlayer(white));
    }
    for email in [&white, &black] {
        let count = games::active_count(&mut *tx, email).await?;
        if count >= i64::from(games_per_player) {
            return Err(OrganiseError::TooManyGames {
                email: email.clone(),
                count,
                limit: games_per_player,
            });
        }
    }
    let thread_root = format!("wildt-game-{}@{}", new_key(), referee.domain);
    let id = games::insert(
        &mut *tx,
        &NewGameRow {
            white: &white,
            black: &black,
            white_name: white_box.name.as_deref(),
            black_name: black_box.name.as_deref(),
            white_key: &new_key(),
            black_key: &new_key(),
            start_fen: record.start_fen(),
            event: new.event,
            thread_root: &thread_root,
        },
    )
    .await?;
    clocks::set_control(&mut *tx, id, new.time, now_secs()).await?;
    for (email, lang) in [(&white, new.white_lang), (&black, new.black_lang)] {
        if let Some(lang) = lang {
            players::set_lang(&mut *tx, email, lang, LangSource::Organiser).await?;
        }
    }
    let game = games::load(&mut *tx, id)
        .await?
        .ok_or(OrganiseError::NoGame(id))?;
    if mailing == Mailing::Mail {
        let now = now_secs();
        let mails = reply::with_game(&game.view, referee, |ctx| {
            reply::welcome_mails(ctx, game.event.as_deref())
        });
        for mail in mails {
            match render(&mail, referee, Some(&game.thread_root), &[]) {
                Ok(r) => outbox::enqueue(&mut *tx, None, &mail, &r, &referee.address, now).await?,
                Err(e) => {
                    tracing::warn!(recipient = %mail.to, error = %e, "welcome not rendered");
                }
            }
        }
    }
    Ok(game)
}

/// Gives a seat a fresh key: its old game address stops working at once.
/// With [`Mailing::Mail`], the player's mail with the new address is queued
/// in the same transaction, so the key never changes without it.
pub async fn rekey(
    store: &Store,
    referee: &RefereeConfig,
    game: i64,
    seat: Color,
    mailing: Mailing,
) -> Result<String, OrganiseError> {
    let key = new_key();
    let mut tx = store.begin().await?;
    if !games::set_key(&mut tx, game, seat, &key).await? {
        return Err(OrganiseError::NoGame(game));
    }
    if mailing == Mailing::Mail {
        let g = games::load(&mut tx, game)
            .await?
            .ok_or(OrganiseError::NoGame(game))?;
        let mail = reply::with_game(&g.view, referee, |ctx| reply::new_address_mail(ctx, seat));
        let r = render(&mail, referee, Some(&g.thread_root), &[]).map_err(|source| {
            OrganiseError::Unwritable {
                to: mail.to.clone(),
                source,
            }
        })?;
        outbox::enqueue(&mut tx, None, &mail, &r, &referee.address, now_secs()).await?;
    }
    tx.commit().await?;
    Ok(key)
}

/// Records a command for a seat by hand (a postcard game), through the
/// referee, in one transaction. Mails are not sent for hand-recorded moves;
/// but a flag that fell first ends the game as for a mailed move, with its
/// game-over mails.
pub async fn play_by_hand(
    store: &Store,
    rules: &crate::config::Rules,
    game: i64,
    seat: Color,
    command: &Command,
) -> Result<Verdict, OrganiseError> {
    play_by_hand_at(store, rules, game, seat, command, None).await
}

/// [`play_by_hand`] for a move that reached the organiser at `arrived` (a
/// postcard's postmark, Unix seconds): the day clocks count it from then,
/// and a flag that fell before then has lost the game (or drawn it, when
/// the opponent cannot mate) before the move is judged.
pub async fn play_by_hand_at(
    store: &Store,
    rules: &crate::config::Rules,
    game: i64,
    seat: Color,
    command: &Command,
    arrived: Option<i64>,
) -> Result<Verdict, OrganiseError> {
    let now = now_secs();
    let at = arrived.map_or(now, |a| a.min(now));
    let mut tx = store.begin().await?;
    let mut stored = games::load(&mut tx, game)
        .await?
        .ok_or(OrganiseError::NoGame(game))?;
    if !stored.view.record.is_over() {
        use crate::deadlines::{Scope, act_due};
        let due = act_due(&mut tx, rules, game, at, Scope::Forfeit).await?;
        if due.forfeits > 0 {
            stored = games::load(&mut tx, game)
                .await?
                .ok_or(OrganiseError::NoGame(game))?;
        }
    }
    if command.claims_draw() {
        games::read_window(&mut tx, game, &mut stored.view.record).await?;
    }
    let verdict = judge_with(&stored.view.record, seat, command, &rules.tablebase);
    let mut after = stored.view.record.clone();
    after.apply(&verdict);
    if !matches!(verdict, Verdict::Rejected(_) | Verdict::Status) {
        games::save_change(
            &mut tx,
            game,
            [stored.view.white.lang, stored.view.black.lang],
            &stored.view.record,
            &after,
            Some(at),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(verdict)
}

/// Queues `mails` of game `g` in `tx` (rendering each; one that cannot be
/// written is skipped with a warning, as for every other mail).
async fn queue(
    tx: &mut sqlx::AnyConnection,
    referee: &RefereeConfig,
    g: &StoredGame,
    mails: &[reply::OutMail],
) -> Result<(), OrganiseError> {
    let now = now_secs();
    for mail in mails {
        crate::deadlines::queue_in_thread(tx, referee, mail, &g.thread_root, None, now).await?;
    }
    Ok(())
}

/// Gives the player of `seat` leave from `from` to `to` (both days included)
/// if the rules allow it; both players of the game are mailed. The leave is
/// the player's: it stops their clock in all their games, and the opponent
/// in each of their other unfinished games is mailed too.
pub async fn grant_leave(
    store: &Store,
    rules: &crate::config::Rules,
    game: i64,
    seat: Color,
    leave: crate::clock::Leave,
) -> Result<crate::clock::LeaveDecision, OrganiseError> {
    use crate::clock::{Date, LeaveDecision, decide_leave};
    let mut tx = store.begin().await?;
    let timed = crate::deadlines::TimedGame::load(&mut tx, game)
        .await?
        .ok_or(OrganiseError::NoGame(game))?;
    let email = timed.game.view.player(seat).email.clone();
    let now = now_secs();
    let decision = decide_leave(
        leave,
        &timed.leaves[seat],
        Date::of_instant(now),
        &rules.clock,
    );
    if let LeaveDecision::Granted(leave) = decision {
        clocks::insert_leave(&mut tx, &email, leave, now).await?;
        let timed = crate::deadlines::TimedGame::load(&mut tx, game)
            .await?
            .ok_or(OrganiseError::NoGame(game))?;
        let state = timed.state(&rules.clock, now);
        let change = reply::LeaveChange::Granted(leave);
        let mails = reply::with_game(&timed.game.view, &rules.referee, |ctx| {
            reply::leave_changed_mails(ctx, seat, change, &state)
        });
        queue(&mut tx, &rules.referee, &timed.game, &mails).await?;
        let others =
            crate::deadlines::leave_notices(&mut tx, rules, &email, game, change, now).await?;
        for other in others {
            crate::deadlines::queue_in_thread(
                &mut tx,
                &rules.referee,
                &other.mail,
                &other.thread_root,
                None,
                now,
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(decision)
}

/// A ruling: `days` more (or, negative, fewer) for `seat`; both mailed.
pub async fn add_days(
    store: &Store,
    rules: &crate::config::Rules,
    game: i64,
    seat: Color,
    days: i64,
) -> Result<(), OrganiseError> {
    let mut tx = store.begin().await?;
    let now = now_secs();
    if games::load(&mut tx, game).await?.is_none() {
        return Err(OrganiseError::NoGame(game));
    }
    clocks::insert_ruling(&mut tx, game, seat, days, None, now).await?;
    let timed = crate::deadlines::TimedGame::load(&mut tx, game)
        .await?
        .ok_or(OrganiseError::NoGame(game))?;
    let state = timed.state(&rules.clock, now);
    let mails = reply::with_game(&timed.game.view, &rules.referee, |ctx| {
        reply::days_given_mails(ctx, seat, days, &state)
    });
    queue(&mut tx, &rules.referee, &timed.game, &mails).await?;
    tx.commit().await?;
    Ok(())
}

/// The organiser decides an unfinished game: `result`, termination
/// adjudication, `reason` mailed to both players.
pub async fn adjudicate(
    store: &Store,
    referee: &RefereeConfig,
    game: i64,
    result: crate::game::GameResult,
    reason: &str,
) -> Result<(), OrganiseError> {
    let end = crate::game::GameEnd {
        result,
        termination: crate::game::Termination::Adjudication,
    };
    end_game(store, referee, game, end, Some(reason)).await
}

/// The organiser applies the endgame tablebases' verdict `result` to an
/// unfinished game (termination tablebase); both players are mailed it in
/// their languages.
pub async fn adjudicate_by_tablebase(
    store: &Store,
    referee: &RefereeConfig,
    game: i64,
    result: crate::game::GameResult,
) -> Result<(), OrganiseError> {
    let end = crate::game::GameEnd {
        result,
        termination: crate::game::Termination::Tablebase,
    };
    end_game(store, referee, game, end, None).await
}

/// Ends an unfinished game by the organiser's hand with `end`, and mails
/// both players: the organiser's `reason`, or (`None`) how it ended.
async fn end_game(
    store: &Store,
    referee: &RefereeConfig,
    game: i64,
    end: crate::game::GameEnd,
    reason: Option<&str>,
) -> Result<(), OrganiseError> {
    let mut tx = store.begin().await?;
    let g = games::load(&mut tx, game)
        .await?
        .ok_or(OrganiseError::NoGame(game))?;
    if g.view.record.is_over() {
        return Err(OrganiseError::Over(game));
    }
    let mut after = g.view.record.clone();
    after.end = Some(end);
    after.draw_offer = None;
    games::save_change(
        &mut tx,
        game,
        [g.view.white.lang, g.view.black.lang],
        &g.view.record,
        &after,
        None,
    )
    .await?;
    let mut view = g.view.clone();
    view.record = after;
    let mails = reply::with_game(&view, referee, |ctx| match reason {
        Some(reason) => reply::adjudicated_mails(ctx, end, reason),
        None => reply::game_over_mails(ctx, ctx.record, end),
    });
    queue(&mut tx, referee, &g, &mails).await?;
    tx.commit().await?;
    Ok(())
}

/// Queues the organiser's notice that outbox row `row` failed for good with
/// `error`, in the game's thread. `Ok(false)`: the failed mail was itself
/// to the organiser (or is gone), so nothing is queued.
pub async fn tell_organiser_of_failure(
    store: &Store,
    referee: &RefereeConfig,
    organiser: &str,
    row: i64,
    error: &str,
) -> Result<bool, OrganiseError> {
    let mut tx = store.begin().await?;
    let Some((game, kind, recipient)) = outbox::failure_facts(&mut tx, row).await? else {
        return Ok(false);
    };
    if recipient.eq_ignore_ascii_case(organiser) {
        return Ok(false);
    }
    let thread_root = match game {
        Some(g) => games::load(&mut tx, g).await?.map(|s| s.thread_root),
        None => None,
    };
    let mail = reply::undeliverable_notice(organiser, game, &kind, &recipient, row, error);
    let r = render(&mail, referee, thread_root.as_deref(), &[]).map_err(|source| {
        OrganiseError::Unwritable {
            to: mail.to.clone(),
            source,
        }
    })?;
    outbox::enqueue(&mut tx, None, &mail, &r, &referee.address, now_secs()).await?;
    tx.commit().await?;
    Ok(true)
}

/// Sets the language `email` reads wildt's mail in (`wildt player set
/// --lang`): it overrides whatever the player chose by mail or wildt guessed.
pub async fn set_player_lang(store: &Store, email: &str, lang: Lang) -> Result<(), OrganiseError> {
    let mut tx = store.begin().await?;
    players::set_lang(&mut tx, email, lang, LangSource::Organiser).await?;
    tx.commit().await?;
    Ok(())
}
