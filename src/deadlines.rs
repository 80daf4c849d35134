//! The clock's own actions, taken without any incoming mail: reminders after
//! 14 and 28 days, the low-time warning, and the time forfeit with its
//! game-over mails; and the notices that a player's leave changed, to the
//! opponents of all their games. [IO: database]
//!
//! Each action happens once: its deadline key (`12/reminder-14`) is written
//! to `deadlines_done` in the same transaction as the mails it causes, so a
//! restart in between never sends it twice, and never loses it.

use shakmaty::{ByColor, Color};
use sqlx::SqliteConnection;

use crate::clock::{
    self, ClockInput, ClockState, Deadline, DeadlineKind, TimeForfeit, clock_state, deadlines,
};
use crate::config::Rules;
use crate::game::{GameEnd, GameResult, Termination};
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
    pub async fn load(
        conn: &mut SqliteConnection,
        id: i64,
    ) -> Result<Option<TimedGame>, StoreError> {
        let Some(game) = games::load(conn, id).await? else {
            return Ok(None);
        };
        TimedGame::with_clock(conn, game).await
    }

    /// The already loaded `game` with its clock and its players' leaves.
    pub async fn with_clock(
        conn: &mut SqliteConnection,
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
        ClockInput {
            control: self.clock.control,
            rules,
            started: self.clock.started,
            first_mover: shakmaty::Position::turn(self.game.view.record.start()),
            plies: &self.clock.plies,
            leaves: ByColor {
                white: &self.leaves.white,
                black: &self.leaves.black,
            },
            extra_days: self.clock.extra_days,
        }
    }

    /// Both clocks at `now` (a finished game's at the instant it ended).
    pub fn state(&self, rules: &clock::ClockRules, now: i64) -> ClockState {
        clock_state(
            &self.input(rules),
            self.clock.ended_at.unwrap_or(now).min(now),
        )
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

/// Which deadline actions to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything due: the daemon's pass.
    All,
    /// Only a forfeit: a move arriving after the flag fell finds the game
    /// already lost, but no reminder is sent as the answer arrives.
    Forfeit,
}

/// The deadlines of the game `timed` not yet acted on, earliest first, past
/// ones included; none for a finished game or one without a control.
async fn pending(
    conn: &mut SqliteConnection,
    timed: &TimedGame,
    rules: &clock::ClockRules,
) -> Result<Vec<Deadline>, StoreError> {
    if timed.game.view.record.is_over() || !timed.clock.control.is_limited() {
        return Ok(Vec::new());
    }
    let done = clocks::deadlines_done(conn, timed.game.view.id).await?;
    Ok(deadlines(&timed.input(rules))
        .into_iter()
        .filter(|d| !done.contains(&d.key.to_string()))
        .collect())
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
    conn: &mut SqliteConnection,
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
    conn: &mut SqliteConnection,
    rules: &Rules,
    id: i64,
    now: i64,
    scope: Scope,
) -> Result<DueReport, StoreError> {
    let Some(timed) = TimedGame::load(conn, id).await? else {
        return Ok(DueReport::default());
    };
    act_due_on(conn, rules, &timed, now, scope).await
}

/// [`act_due`] on a game already loaded with its clock.
pub async fn act_due_on(
    conn: &mut SqliteConnection,
    rules: &Rules,
    timed: &TimedGame,
    now: i64,
    scope: Scope,
) -> Result<DueReport, StoreError> {
    let mut report = DueReport::default();
    let id = timed.game.view.id;
    let pending = pending(conn, timed, &rules.clock).await?;
    if pending.is_empty() {
        return Ok(report);
    }
    let input = timed.input(&rules.clock);
    report.next_at = pending.iter().filter(|d| d.at > now).map(|d| d.at).min();
    let now_due: Vec<_> = pending.iter().filter(|d| d.at <= now).collect();
    if now_due.is_empty() {
        return Ok(report);
    }
    let view = &timed.game.view;
    let mut mails: Vec<OutMail> = Vec::new();
    if let Some(f) = now_due.iter().find(|d| d.key.kind == DeadlineKind::Forfeit) {
        let state = clock_state(&input, f.at);
        let ply = state.flag.map_or(input.plies.len(), |fl| fl.ply);
        let pos = view
            .record
            .position_after(ply)
            .unwrap_or_else(|| view.record.position().clone());
        let result = match clock::time_forfeit(&pos, f.side) {
            TimeForfeit::Drawn => GameResult::Draw,
            TimeForfeit::Lost {
                loser: Color::White,
            } => GameResult::BlackWins,
            TimeForfeit::Lost {
                loser: Color::Black,
            } => GameResult::WhiteWins,
        };
        let end = GameEnd {
            result,
            termination: Termination::TimeForfeit,
        };
        let mut after = view.record.clone();
        after.end = Some(end);
        after.draw_offer = None;
        games::save_change(
            conn,
            id,
            [view.white.lang, view.black.lang],
            &view.record,
            &after,
            None,
        )
        .await?;
        clocks::mark_deadline_done(conn, id, &f.key.to_string(), now).await?;
        mails = reply::with_game(view, &rules.referee, |ctx| {
            reply::game_over_mails(ctx, &after, end)
        });
        // An event game's game-over mails end with the player's standing.
        crate::organise::event::add_standing(conn, id, &mut mails).await?;
        report.forfeits += 1;
        report.next_at = None;
    } else if scope == Scope::All {
        let state = clock_state(&input, now);
        // After an outage several may be due: only the latest reminder is
        // sent; the earlier ones are recorded done without a mail.
        let latest_reminder = now_due
            .iter()
            .filter_map(|d| match d.key.kind {
                DeadlineKind::Reminder { after_days } => Some(after_days),
                _ => None,
            })
            .max();
        for d in &now_due {
            if !clocks::mark_deadline_done(conn, id, &d.key.to_string(), now).await? {
                continue;
            }
            match d.key.kind {
                DeadlineKind::Reminder { after_days } if Some(after_days) == latest_reminder => {
                    mails.push(reply::with_game(view, &rules.referee, |ctx| {
                        reply::clock_reminder_mail(ctx, d.side, after_days, &state)
                    }));
                    report.reminders += 1;
                }
                DeadlineKind::Reminder { .. } => {}
                DeadlineKind::LowTime => {
                    let left = state.clocks[d.side].days_left.unwrap_or(0);
                    mails.push(reply::with_game(view, &rules.referee, |ctx| {
                        reply::clock_low_time_mail(ctx, d.side, left, &state)
                    }));
                    report.warnings += 1;
                }
                DeadlineKind::Forfeit => {}
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

/// Renders `mail` in the thread `thread_root` and queues it, linked to the
/// message that caused it (if any). A mail that cannot be written is skipped
/// with a warning, as every other mail; the rendered mail is returned.
pub async fn queue_in_thread(
    conn: &mut SqliteConnection,
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
    conn: &mut SqliteConnection,
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
