//! A message's plan applied: a time forfeit that fell first, the language
//! learnt, the replies written (with the plan's clocks and standing), the
//! game's change and the message's row, the prepared answers' sets, a
//! leave, and the replies queued. [IO: database]
//!
//! The writes that need nothing read after them (the message's row, the
//! game's change, the replies' outbox rows) wait in [`Pending`] and go to
//! the database with the next round trip; a step that reads what they
//! change runs them first.

use std::borrow::Cow;

use shakmaty::Color;
use sqlx::AnyConnection;

use super::load::Loaded;
use super::{Handled, Read};
use crate::clock::{ClockState, LeaveCancel, LeaveDecision};
use crate::config::Rules;
use crate::deadlines;
use crate::decide::conditional::{Fate, Sequel};
use crate::decide::deadline::Forfeit;
use crate::decide::{Decision, GameView, LeaveAnswer, Plan, plan};
use crate::event::{CrosstableError, Standing};
use crate::i18n::Lang;
use crate::intake::Intake;
use crate::mail::render::{Rendered, new_message_id, render_as};
use crate::referee::Verdict;
use crate::reply::cache::Renderings;
use crate::reply::{self, LeaveChange, Letters, OutMail};
use crate::store::batch::Batch;
use crate::store::games::StoredGame;
use crate::store::messages::MessageRow;
use crate::store::players::{self, LangSource};
use crate::store::{StoreError, clocks, conditionals, games, messages, outbox};

/// What a handled message leaves to be done before the commit: its writes
/// not yet run, and its replies queued without their bodies.
#[derive(Default)]
pub(super) struct Pending {
    pub writes: Batch,
    pub unrendered: Option<Unrendered>,
}

impl Pending {
    /// Renders the replies left unrendered (those of `last`, the message
    /// handled last) and adds their bodies to the writes.
    pub fn render(&mut self, rules: &Rules, last: Option<&mut Handled>) -> Result<(), StoreError> {
        if let (Some(unrendered), Some(handled)) = (self.unrendered.take(), last) {
            let unwritten = unrendered.render(rules, handled);
            add_bodies(&mut self.writes, handled, &unwritten)?;
        }
        Ok(())
    }
}

/// The replies of a decided message whose outbox rows are written but
/// whose bodies are not rendered yet.
pub(super) struct Unrendered {
    /// The game's thread id.
    root: Option<String>,
    /// The Message-ID of each of the message's mails, in order.
    ids: Vec<String>,
}

impl Unrendered {
    /// Renders the mails of `handled` (the message these replies answer)
    /// into its `mails`; returns the Message-IDs of those that could not be
    /// rendered, whose rows are to be taken out.
    pub fn render(self, rules: &Rules, handled: &mut Handled) -> Vec<String> {
        let Handled::Decided {
            intake,
            letters,
            mails,
            ..
        } = handled
        else {
            return self.ids;
        };
        let mut unwritten = Vec::new();
        mails.reserve(letters.mails.len());
        let root = self.root.as_deref();
        for (mail, id) in letters.mails.iter().zip(self.ids) {
            match render_as(mail, &rules.referee, root, &intake.references, id.clone()) {
                Ok(r) => mails.push(r),
                Err(e) => {
                    // An address lettre cannot write (e.g. a malformed
                    // From): that one mail is not sent; the message is
                    // still recorded.
                    tracing::warn!(recipient = %mail.to, error = %e, "reply not rendered");
                    unwritten.push(id);
                }
            }
        }
        unwritten
    }
}

/// The bodies of `handled`'s rendered mails, and the removal of the rows
/// of the `unwritten` ones, added to `batch`.
pub(super) fn add_bodies(
    batch: &mut Batch,
    handled: &Handled,
    unwritten: &[String],
) -> Result<(), StoreError> {
    let bodies: Vec<&Rendered> = match handled {
        Handled::Decided { mails, .. } => mails.iter().collect(),
        Handled::Duplicate { .. } => Vec::new(),
    };
    outbox::bodies_into(batch, &bodies, unwritten)
}

/// Applies `plan`, made from `loaded`: writes what it changes and the
/// replies' outbox rows, leaving in `pending` the writes that can wait
/// and the replies to render (unless a leave's notices to other games
/// need them first).
pub(super) async fn apply(
    tx: &mut AnyConnection,
    rules: &Rules,
    loaded: Loaded,
    plan: Plan,
    pending: &mut Pending,
) -> Result<Handled, StoreError> {
    let Loaded {
        read,
        history,
        mut stored,
        ..
    } = loaded;
    let Plan {
        forfeit,
        decision,
        leave,
        clocks,
        leave_clocks,
        standing,
        ends: _,
    } = plan;
    if let (Some(f), Some(g)) = (&forfeit, stored.as_mut()) {
        save_forfeit(tx, rules, g, f, standing.as_ref(), read.arrival).await?;
    }
    let view = stored.as_ref().map(|g| &g.view);
    let kept = stored.as_ref().map(|g| &g.kept);
    let (sender_lang, reply_view) =
        languages(tx, &read.intake, &decision, view, history.sender_lang).await?;
    let mut letters = reply::write(
        &decision,
        &read.intake,
        reply_view.as_deref(),
        kept,
        &rules.referee,
        sender_lang,
    );
    if let (Some(x), Some(seat), Some(g)) = (&read.xfcc, decision.seat, view) {
        reply::xfcc::by_xfcc(&mut letters, g, seat, x.note.as_deref(), x.confirm_by_mail);
    }
    super::xfcc::password_by_mail(tx, &read, &decision, view, &mut letters).await?;
    // The message's row, with a move's plies, after the writes waiting:
    // one batch, run with the next round trip, or before a read below
    // that needs it.
    let mut mine = std::mem::take(&mut pending.writes);
    record_into(
        &mut mine,
        &read,
        &decision,
        view,
        kept,
        letters.rate_limited,
    )?;
    let mut other_games = Vec::new();
    if let Some(g) = reply_view.as_deref() {
        let after = After {
            view: g,
            clocks: clocks.as_ref(),
            leave_clocks: leave_clocks.as_ref(),
            standing: standing.as_ref(),
            now: read.now,
            answering: read.intake.message_id.as_deref(),
        };
        other_games = after
            .apply(
                tx,
                rules,
                &decision,
                leave.as_ref(),
                &mut mine,
                &mut letters,
            )
            .await?;
    }
    // The replies' outbox rows go with the message's row (the next
    // message's reading counts them against the hourly limit); their
    // bodies are rendered later (see `Pending`).
    let ids = outbox_rows_into(&mut mine, rules, &read.sha, read.now, &letters)?;
    let unrendered = Unrendered {
        root: stored.map(|g| g.thread_root),
        ids,
    };
    let handled = Handled::Decided {
        intake: Box::new(read.intake),
        decision: Box::new(decision),
        letters,
        mails: Vec::new(),
    };
    if other_games.is_empty() {
        pending.writes = mine;
        pending.unrendered = Some(unrendered);
        return Ok(handled);
    }
    let queued = Queued {
        sha: &read.sha,
        now: read.now,
        writes: mine,
        unrendered,
    };
    queued.with_notices(tx, rules, handled, other_games).await
}

/// The message's row, and the game's change when the plan changes it,
/// added to `batch`.
fn record_into(
    batch: &mut Batch,
    read: &Read,
    decision: &Decision,
    view: Option<&GameView>,
    kept: Option<&Renderings>,
    replies_held_back: usize,
) -> Result<(), StoreError> {
    let row = MessageRow {
        sha256: &read.sha,
        body_sha256: &read.body_sha,
        source: &read.source_key,
        message_id: read.intake.message_id.as_deref(),
        from: read.intake.from.as_deref(),
        game: view.map(|g| g.id),
        outcome: decision.outcome,
        detail: &decision.detail,
        received_at: read.now,
        replies_held_back,
    };
    match (decision.final_record(), view) {
        (Some(after), Some(g)) => games::save_change_into(
            batch,
            &games::Change {
                game: g.id,
                langs: [g.white.lang, g.black.lang],
                before: &g.record,
                kept,
                after,
            },
            Some(&row),
            Some(read.arrival),
        ),
        _ => messages::insert_into(batch, &row),
    }
}

/// What follows a message's row in its game: the steps that read what it
/// wrote.
struct After<'a> {
    /// The game, as the replies show it.
    view: &'a GameView,
    /// Both clocks after the message, for a timed game.
    clocks: Option<&'a ClockState>,
    /// Both clocks after a leave granted or cancelled.
    leave_clocks: Option<&'a ClockState>,
    standing: Option<&'a Result<Standing, CrosstableError>>,
    now: i64,
    answering: Option<&'a str>,
}

impl After<'_> {
    /// The clocks after the move added to the replies, the prepared
    /// answers' sets stored, a leave taken or refused, and an event
    /// game's standing (counted with this result, a prepared answer's
    /// included) added to its game-over mails; returns a leave's notices
    /// to the opponents of the player's other games.
    async fn apply(
        &self,
        tx: &mut AnyConnection,
        rules: &Rules,
        decision: &Decision,
        leave: Option<&LeaveAnswer>,
        mine: &mut Batch,
        letters: &mut Letters,
    ) -> Result<Vec<deadlines::GameMail>, StoreError> {
        if let Some(state) = self.clocks {
            reply::add_clocks(letters, self.view.id, state);
        }
        if let Some(sequel) = &decision.sequel {
            mine.run_now(tx).await?;
            save_sequel(tx, self.view.id, sequel).await?;
        }
        // Notices of a leave to the opponents of the player's other games:
        // each threaded in its own game.
        let mut other_games = Vec::new();
        if let (Some(answer), Some(seat)) = (leave, decision.seat) {
            mine.run_now(tx).await?;
            let (mails, others) = self.leave(tx, rules, seat, answer).await?;
            letters.mails.extend(mails);
            other_games = others;
        }
        add_standing(&mut letters.mails, self.standing)?;
        Ok(other_games)
    }

    /// Applies the answer to the request for leave of the player of
    /// `seat`; returns the mails that answer it: on a change, to both
    /// players of the game, else to the player alone; and, on a change,
    /// the notices to the opponents of the player's other games.
    async fn leave(
        &self,
        conn: &mut AnyConnection,
        rules: &Rules,
        seat: Color,
        answer: &LeaveAnswer,
    ) -> Result<(Vec<OutMail>, Vec<deadlines::GameMail>), StoreError> {
        let (view, now, answering) = (self.view, self.now, self.answering);
        let email = view.player(seat).email.clone();
        let referee = &rules.referee;
        let alone = |mail| Ok((vec![mail], Vec::new()));
        let change = match answer {
            LeaveAnswer::Unclear => {
                return alone(reply::with_game(view, referee, |ctx| {
                    reply::leave_refused_mail(ctx, seat, None, answering)
                }));
            }
            LeaveAnswer::Take(LeaveDecision::Granted(leave)) => {
                clocks::insert_leave(conn, &email, *leave, now).await?;
                LeaveChange::Granted(*leave)
            }
            LeaveAnswer::Take(LeaveDecision::Refused(why)) => {
                return alone(reply::with_game(view, referee, |ctx| {
                    reply::leave_refused_mail(ctx, seat, Some(why), answering)
                }));
            }
            LeaveAnswer::Cancel(LeaveCancel::Remove(leave)) => {
                clocks::delete_leave(conn, &email, leave.from).await?;
                LeaveChange::Cancelled { from: leave.from }
            }
            LeaveAnswer::Cancel(LeaveCancel::EndEarly { leave, new_to }) => {
                clocks::shorten_leave(conn, &email, leave.from, *new_to).await?;
                LeaveChange::Cancelled { from: leave.from }
            }
            LeaveAnswer::Cancel(LeaveCancel::NothingToCancel) => {
                return alone(reply::with_game(view, referee, |ctx| {
                    reply::nothing_to_cancel_mail(ctx, seat, answering)
                }));
            }
        };
        // Both players of this game told, with the clocks as they now stand;
        // and the opponent in each other game of the player.
        let Some(state) = self.leave_clocks else {
            return Ok((Vec::new(), Vec::new()));
        };
        let mails = reply::with_game(view, referee, |ctx| {
            reply::leave_changed_mails(ctx, seat, change, state)
        });
        let others = deadlines::leave_notices(conn, rules, &email, view.id, change, now).await?;
        Ok((mails, others))
    }
}

/// Writes the time forfeit `f` that fell before the message arrived (at
/// `arrival`) in the game `stored`, and queues its game-over mails (with an
/// event game's `standing`); `stored` is left as the forfeit ended it.
async fn save_forfeit(
    tx: &mut AnyConnection,
    rules: &Rules,
    stored: &mut StoredGame,
    f: &Forfeit,
    standing: Option<&Result<Standing, CrosstableError>>,
    arrival: i64,
) -> Result<(), StoreError> {
    let mut mails = deadlines::save_forfeit(tx, rules, &stored.view, f, arrival).await?;
    add_standing(&mut mails, standing)?;
    for mail in &mails {
        let root = &stored.thread_root;
        deadlines::queue_in_thread(tx, &rules.referee, mail, root, None, arrival).await?;
    }
    stored.view.record = f.after.clone();
    Ok(())
}

/// For a copy of a message decided already, which is not decided again: a
/// time forfeit that fell before it arrived, taken.
pub(super) async fn forfeit_only(
    tx: &mut AnyConnection,
    rules: &Rules,
    loaded: Loaded,
) -> Result<(), StoreError> {
    let (Some(mut g), Some(clock)) = (loaded.stored, loaded.clock) else {
        return Ok(());
    };
    let arrival = loaded.read.arrival;
    let Some(f) = plan::forfeit_before(&g.view.record, &clock, &rules.clock, arrival) else {
        return Ok(());
    };
    let section = super::load::event_section(tx, &g).await?;
    let standing = plan::standing(section.as_ref(), g.view.id, f.end);
    save_forfeit(tx, rules, &mut g, &f, standing.as_ref(), arrival).await
}

/// Ends each game-over mail among `mails` with its player's line of the
/// event `standing`, if any.
fn add_standing(
    mails: &mut [OutMail],
    standing: Option<&Result<Standing, CrosstableError>>,
) -> Result<(), StoreError> {
    if !mails.iter().any(|m| m.kind == reply::MailKind::GameOver) {
        return Ok(());
    }
    match standing {
        Some(Ok(standing)) => crate::organise::event::append_standing(mails, standing),
        Some(Err(e)) => return Err(e.clone().into()),
        None => {}
    }
    Ok(())
}

/// The outbox rows of `letters`' mails, answering the message with digest
/// `sha`, added to `batch`; returns their Message-IDs, in order.
fn outbox_rows_into(
    batch: &mut Batch,
    rules: &Rules,
    sha: &str,
    now: i64,
    letters: &Letters,
) -> Result<Vec<String>, StoreError> {
    let ids: Vec<String> = letters
        .mails
        .iter()
        .map(|_| new_message_id(&rules.referee))
        .collect();
    let rows: Vec<(&OutMail, &str)> = letters
        .mails
        .iter()
        .zip(&ids)
        .map(|(m, id)| (m, id.as_str()))
        .collect();
    let answering = outbox::Answering::Digest(sha);
    outbox::rows_into(batch, answering, &rows, &rules.referee.address, now)?;
    Ok(ids)
}

/// A message's writes and its replies queued without their bodies.
struct Queued<'a> {
    sha: &'a str,
    now: i64,
    writes: Batch,
    unrendered: Unrendered,
}

impl Queued<'_> {
    /// A leave's notices to the opponents of the player's other games,
    /// queued with their own reads: this message's replies are rendered
    /// and its writes run first, and each notice is threaded in its own
    /// game.
    async fn with_notices(
        mut self,
        tx: &mut AnyConnection,
        rules: &Rules,
        mut handled: Handled,
        other_games: Vec<deadlines::GameMail>,
    ) -> Result<Handled, StoreError> {
        let unwritten = self.unrendered.render(rules, &mut handled);
        add_bodies(&mut self.writes, &handled, &unwritten)?;
        let message_row = messages::run_for_id(tx, self.writes, self.sha).await?;
        if let Handled::Decided { letters, mails, .. } = &mut handled {
            for other in other_games {
                let mail = other.mail;
                let queued = deadlines::queue_in_thread(
                    tx,
                    &rules.referee,
                    &mail,
                    &other.thread_root,
                    Some(message_row),
                    self.now,
                )
                .await?;
                mails.extend(queued);
                letters.mails.push(mail);
            }
        }
        Ok(handled)
    }
}

/// Writes what the stored sets became, and marks the prepared answers'
/// plies as free of reflection time.
async fn save_sequel(
    conn: &mut AnyConnection,
    game: i64,
    sequel: &Sequel,
) -> Result<(), StoreError> {
    for seat in [Color::White, Color::Black] {
        match sequel.fate.get(seat) {
            Fate::Keep => {}
            Fate::Store(tree) => conditionals::save(conn, game, tree).await?,
            Fate::Clear(_) => conditionals::clear(conn, game, seat).await?,
        }
    }
    for p in &sequel.played {
        if matches!(p.verdict, Verdict::Moved { .. }) {
            games::mark_prepared(conn, game, p.after.ply_count()).await?;
        }
    }
    Ok(())
}

/// The language to answer the sender in, and the game as the reply writer
/// sees it: with the seat's language updated when the player chose one by
/// mail ("language: deutsch") or, having none, wrote command words of one
/// language only or a `Content-Language` they agree with (stored as a guess).
/// Only a player at their own game address (`decision.seat`) changes what is
/// stored; anyone else is answered in their stored or confidently guessed
/// language.
async fn languages<'v>(
    tx: &mut AnyConnection,
    intake: &Intake,
    decision: &Decision,
    view: Option<&'v GameView>,
    stored: Option<(Lang, players::LangSource)>,
) -> Result<(Lang, Option<Cow<'v, GameView>>), StoreError> {
    let mut view = view.map(Cow::Borrowed);
    let Some(from) = intake.from.as_deref() else {
        return Ok((Lang::En, view));
    };
    let hint = intake.lang;
    let guess = hint.guessed.filter(|_| hint.confident);
    let lang = match (hint.requested, stored, guess) {
        (Some(chosen), _, _) => {
            if decision.seat.is_some() {
                players::set_lang(tx, from, chosen, LangSource::Mail).await?;
            }
            chosen
        }
        (None, Some((lang, _)), _) => lang,
        (None, None, Some(guess)) => {
            if decision.seat.is_some() {
                players::set_lang(tx, from, guess, LangSource::Guess).await?;
                tracing::info!(player = %from, lang = %guess, "language guessed");
            }
            guess
        }
        (None, None, None) => Lang::En,
    };
    // The game is copied (a long game's record and all) only when the
    // seat's language changes.
    if let (Some(seat), Some(v)) = (decision.seat, view.as_mut())
        && v.player(seat).lang != lang
    {
        v.to_mut().player_mut(seat).lang = lang;
    }
    Ok((lang, view))
}
