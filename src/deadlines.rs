//! The clock's own actions, taken without any incoming mail: reminders after
//! 14 and 28 days, the low-time warning, and the time forfeit with its
//! game-over mails; and the notices that a player's leave changed, to the
//! opponents of all their games. [IO: database]
//!
//! Which actions are due is decided by `decide::deadline` (pure); this
//! module reads what that needs and takes them.
//!
//! Each action happens once: its deadline key (`12/reminder-14`) is written
//! to `deadlines_done` in the same transaction as the mails it causes, so a
//! restart in between never sends it twice, and never loses it.

use shakmaty::{ByColor, Color};
use sqlx::AnyConnection;

use crate::clock::{self, ClockInput, ClockState, Deadline};
use crate::config::Rules;
use crate::decide::GameView;
use crate::decide::deadline::{self, Clocked, Due, Forfeit, Warning};
use crate::mail::render::render;
use crate::reply::{self, OutMail};
use crate::store::clocks::{self, GameClock};
use crate::store::{Store, StoreError, StoredGame, games, outbox};

/// What one pass over the deadlines did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DueReport {
    pub reminders: u32,
    pub warnings: u32,
    pub forfeits: u32,
    /// The earliest deadline still ahead (Unix seconds), if any.
    pub next_at: Option<i64>,
}

impl DueReport {
    fn add(&mut self, other: DueReport) {
        self.reminders += other.reminders;
        self.warnings += other.warnings;
        self.forfeits += other.forfeits;
        self.next_at = match (self.next_at, other.next_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// A game with everything its clocks depend on.
pub struct TimedGame {
    pub game: StoredGame,
    pub clock: GameClock,
    pub leaves: ByColor<Vec<clock::Leave>>,
}

impl TimedGame {
    /// Loads game `id` with its clock and its players' leaves.
    pub async fn load(conn: &mut AnyConnection, id: i64) -> Result<Option<TimedGame>, StoreError> {
        let Some(game) = games::load(conn, id).await? else {
            return Ok(None);
        };
        TimedGame::with_clock(conn, game).await
    }

    /// The already loaded `game` with its clock and its players' leaves.
    pub async fn with_clock(
        conn: &mut AnyConnection,
        game: StoredGame,
    ) -> Result<Option<TimedGame>, StoreError> {
        let id = game.view.id;
        let Some(clock) = clocks::game_clock(conn, id).await? else {
            return Ok(None);
        };
        let leaves = ByColor {
            white: clocks::leaves(conn, &game.view.white.email).await?,
            black: clocks::leaves(conn, &game.view.black.email).await?,
        };
        Ok(Some(TimedGame {
            game,
            clock,
            leaves,
        }))
    }

    pub fn input<'a>(&'a self, rules: &'a clock::ClockRules) -> ClockInput<'a> {
        self.clock.input(rules, self.first_mover(), &self.leaves)
    }

    /// Both clocks at `now` (a finished game's at the instant it ended).
    pub fn state(&self, rules: &clock::ClockRules, now: i64) -> ClockState {
        self.clock
            .state(rules, self.first_mover(), &self.leaves, now)
    }

    fn first_mover(&self) -> Color {
        shakmaty::Position::turn(self.game.view.record.start())
    }

    /// The game as its deadlines are computed, with the keys `done`.
    fn clocked<'a>(&'a self, done: &'a [String]) -> Clocked<'a> {
        Clocked {
            record: &self.game.view.record,
            clock: &self.clock,
            leaves: &self.leaves,
            done,
        }
    }
}

/// Takes every deadline action due at `now` in every unfinished game with a
/// time control, each game in its own transaction; returns what was done and
/// when the next deadline falls.
pub async fn run_due(store: &Store, rules: &Rules, now: i64) -> Result<DueReport, StoreError> {
    let ids = clocks::timed_active_games(&mut *store.pool().acquire().await?).await?;
    let mut report = DueReport::default();
    for id in ids {
        let mut tx = store.begin().await?;
        let done = act_due(&mut tx, rules, id, now, Scope::All).await?;
        tx.commit().await?;
        if done.forfeits > 0 {
            tracing::info!(game = id, "time forfeit");
        }
        report.add(done);
    }
    Ok(report)
}

pub use crate::decide::deadline::Scope;

/// The deadline keys of the game `timed` already acted on, read when it has
/// deadlines to act on (an unfinished game with a control).
async fn done_keys(conn: &mut AnyConnection, timed: &TimedGame) -> Result<Vec<String>, StoreError> {
    if timed.game.view.record.is_over() || !timed.clock.control.is_limited() {
        return Ok(Vec::new());
    }
    clocks::deadlines_done(conn, timed.game.view.id).await
}

/// The deadlines of the game `timed` not yet acted on, earliest first, past
/// ones included; none for a finished game or one without a control.
async fn pending(
    conn: &mut AnyConnection,
    timed: &TimedGame,
    rules: &clock::ClockRules,
) -> Result<Vec<Deadline>, StoreError> {
    let done = done_keys(conn, timed).await?;
    Ok(timed.clocked(&done).pending(rules))
}

/// A deadline of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameDeadline {
    pub game: i64,
    pub deadline: Deadline,
}

/// The earliest deadline not yet acted on over every unfinished game with a
/// time control, an overdue one included: what `wildt status` reports, and
/// what shows whether the referee keeps time. Reads only.
pub async fn next_pending(
    conn: &mut AnyConnection,
    rules: &clock::ClockRules,
) -> Result<Option<GameDeadline>, StoreError> {
    let mut next: Option<GameDeadline> = None;
    for id in clocks::timed_active_games(conn).await? {
        let Some(timed) = TimedGame::load(conn, id).await? else {
            continue;
        };
        let first = pending(conn, &timed, rules)
            .await?
            .into_iter()
            .min_by_key(|d| d.at);
        if let Some(d) = first
            && next.is_none_or(|n| d.at < n.deadline.at)
        {
            next = Some(GameDeadline {
                game: id,
                deadline: d,
            });
        }
    }
    Ok(next)
}

/// Takes the deadline actions of game `id` due at `now`, inside the caller's
/// transaction.
pub async fn act_due(
    conn: &mut AnyConnection,
    rules: &Rules,
    id: i64,
    now: i64,
    scope: Scope,
) -> Result<DueReport, StoreError> {
    let Some(timed) = TimedGame::load(conn, id).await? else {
        return Ok(DueReport::default());
    };
    let done = done_keys(conn, &timed).await?;
    let due = deadline::due(&timed.clocked(&done), &rules.clock, now, scope);
    take_due(conn, rules, &timed, due, now).await
}

/// Takes the actions `due` in the game `timed` at `now`: records each done,
/// and queues its mails.
async fn take_due(
    conn: &mut AnyConnection,
    rules: &Rules,
    timed: &TimedGame,
    due: Due,
    now: i64,
) -> Result<DueReport, StoreError> {
    let mut report = DueReport {
        next_at: due.next_at,
        ..DueReport::default()
    };
    let view = &timed.game.view;
    let id = view.id;
    let mut mails: Vec<OutMail> = Vec::new();
    if let Some(f) = &due.forfeit {
        mails = save_forfeit(conn, rules, view, f, now).await?;
        // An event game's game-over mails end with the player's standing.
        crate::organise::event::add_standing(conn, id, &mut mails).await?;
        report.forfeits += 1;
    }
    if let Some(state) = &due.state {
        for (d, warning) in &due.warnings {
            if !clocks::mark_deadline_done(conn, id, &d.key.to_string(), now).await? {
                continue;
            }
            match *warning {
                Some(Warning::Reminder { side, after_days }) => {
                    mails.push(reply::with_game(view, &rules.referee, |ctx| {
                        reply::clock_reminder_mail(ctx, side, after_days, state)
                    }));
                    report.reminders += 1;
                }
                Some(Warning::LowTime { side, days_left }) => {
                    mails.push(reply::with_game(view, &rules.referee, |ctx| {
                        reply::clock_low_time_mail(ctx, side, days_left, state)
                    }));
                    report.warnings += 1;
                }
                None => {}
            }
        }
    }
    for mail in &mails {
        queue_in_thread(
            conn,
            &rules.referee,
            mail,
            &timed.game.thread_root,
            None,
            now,
        )
        .await?;
    }
    Ok(report)
}

/// Writes the time forfeit `f` of the game `view` (its result, and its
/// deadline done at `now`); returns its game-over mails, not yet queued.
pub async fn save_forfeit(
    conn: &mut AnyConnection,
    rules: &Rules,
    view: &GameView,
    f: &Forfeit,
    now: i64,
) -> Result<Vec<OutMail>, StoreError> {
    games::save_change(
        conn,
        view.id,
        [view.white.lang, view.black.lang],
        &view.record,
        &f.after,
        None,
    )
    .await?;
    clocks::mark_deadline_done(conn, view.id, &f.key.to_string(), now).await?;
    Ok(reply::with_game(view, &rules.referee, |ctx| {
        reply::game_over_mails(ctx, &f.after, f.end)
    }))
}

/// Renders `mail` in the thread `thread_root` and queues it, linked to the
/// message that caused it (if any). A mail that cannot be written is skipped
/// with a warning, as every other mail; the rendered mail is returned.
pub async fn queue_in_thread(
    conn: &mut AnyConnection,
    referee: &crate::config::RefereeConfig,
    mail: &OutMail,
    thread_root: &str,
    message_row: Option<i64>,
    now: i64,
) -> Result<Option<crate::mail::render::Rendered>, StoreError> {
    match render(mail, referee, Some(thread_root), &[]) {
        Ok(r) => {
            outbox::enqueue(conn, message_row, mail, &r, &referee.address, now).await?;
            Ok(Some(r))
        }
        Err(e) => {
            tracing::warn!(recipient = %mail.to, error = %e, "mail not rendered");
            Ok(None)
        }
    }
}

/// A mail about another game than the one being handled, with the thread
/// it belongs to.
#[derive(Debug, Clone)]
pub struct GameMail {
    pub mail: OutMail,
    /// The Message-ID root of that game's thread.
    pub thread_root: String,
}

/// The leave of `email` changed (granted or cancelled, as told in game
/// `told_in`, whose two players are mailed by the caller): the opponent of
/// every other unfinished game of that player is told, with that game's
/// clocks at `now`. The caller queues the mails in its transaction.
pub async fn leave_notices(
    conn: &mut AnyConnection,
    rules: &Rules,
    email: &str,
    told_in: i64,
    change: reply::LeaveChange,
    now: i64,
) -> Result<Vec<GameMail>, StoreError> {
    let mut out = Vec::new();
    for id in clocks::active_games_of(conn, email).await? {
        if id == told_in {
            continue;
        }
        let Some(timed) = TimedGame::load(conn, id).await? else {
            continue;
        };
        let view = &timed.game.view;
        let seat = if view.white.email == email {
            Color::White
        } else {
            Color::Black
        };
        // A game without a time control has no clock lines (see clock_mail).
        let state = timed.state(&rules.clock, now);
        let mail = reply::with_game(view, &rules.referee, |ctx| {
            reply::leave_changed_notice(ctx, seat, change, &state)
        });
        out.push(GameMail {
            mail,
            thread_root: timed.game.thread_root.clone(),
        });
    }
    Ok(out)
}

/// When the daemon next looks at the deadlines: at the earliest one ahead,
/// after mail was handled, and at least every [`Schedule::RESCAN_SECS`]
/// (a game created or a move recorded by the organiser's commands changes
/// them from another process).
#[derive(Debug, Clone, Copy, Default)]
pub struct Schedule {
    last_scan: Option<i64>,
    next_at: Option<i64>,
    mail: bool,
}

impl Schedule {
    pub const RESCAN_SECS: i64 = 60;

    pub fn is_due(&self, now: i64) -> bool {
        match self.last_scan {
            None => true,
            Some(last) => {
                self.mail
                    || now - last >= Self::RESCAN_SECS
                    || self.next_at.is_some_and(|at| at <= now)
            }
        }
    }

    pub fn scanned(&mut self, now: i64, next_at: Option<i64>) {
        self.last_scan = Some(now);
        self.next_at = next_at;
        self.mail = false;
    }

    pub fn mail_handled(&mut self) {
        self.mail = true;
    }

    /// How long the loop may wait for mail before a deadline needs it.
    pub fn wait(&self, now: i64) -> std::time::Duration {
        let until = |at: i64| u64::try_from(at - now).unwrap_or(0).max(1);
        let rescan = self.last_scan.map_or(1, |l| until(l + Self::RESCAN_SECS));
        std::time::Duration::from_secs(self.next_at.map_or(rescan, |at| until(at).min(rescan)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_looks_at_once_then_at_the_next_deadline_after_mail_or_each_minute() {
        let mut s = Schedule::default();
        assert!(s.is_due(1_000));
        s.scanned(1_000, Some(1_030));
        assert!(!s.is_due(1_010));
        assert_eq!(s.wait(1_010), std::time::Duration::from_secs(20));
        assert!(s.is_due(1_030));
        s.scanned(1_030, None);
        assert!(!s.is_due(1_031));
        assert_eq!(s.wait(1_031), std::time::Duration::from_secs(59));
        s.mail_handled();
        assert!(s.is_due(1_031));
        s.scanned(1_031, None);
        assert!(s.is_due(1_031 + Schedule::RESCAN_SECS));
    }
}
