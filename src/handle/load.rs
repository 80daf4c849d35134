//! What a message's plan is made from, read in its transaction after it
//! was looked up: its game, the game's clock, the claims' repetition
//! window, the stored sets and the players' leaves; and, for a message
//! that ends an event game, the game's section.
//! [IO: database]

use shakmaty::ByColor;
use sqlx::AnyConnection;
use sqlx::any::AnyRow;

use super::Read;
use crate::config::Rules;
use crate::decide::{self, ClockFacts, Facts, Plan};
use crate::event::Section;
use crate::store::games::StoredGame;
use crate::store::messages::History;
use crate::store::{StoreError, clocks, conditionals, games};

/// A message not seen before, with everything its plan is made from.
pub(super) struct Loaded {
    pub read: Read,
    pub history: History,
    /// Its game, as stored.
    pub stored: Option<StoredGame>,
    /// The outcome recorded for another copy of it (then nothing more is
    /// loaded: the copy is not decided again).
    pub copy: Option<String>,
    /// The game's clock: when it keeps one (a limited time control), and
    /// for a request for leave.
    pub clock: Option<ClockFacts>,
    sets: ByColor<Option<crate::conditional::ConditionalTree>>,
}

impl Loaded {
    /// The plan for the message: `decide::plan()` on what was loaded.
    pub fn plan(&mut self, rules: &Rules) -> Plan {
        let facts = Facts {
            game: self.stored.as_ref().map(|g| &g.view),
            recent: self.history.recent,
            sets: std::mem::take(&mut self.sets),
            clock: self.clock.take(),
            arrival: self.read.arrival,
            now: self.read.now,
        };
        decide::plan(&self.read.intake, facts, rules, self.read.auth.take())
    }
}

/// The message's game and facts, from its looked-up rows; `Err` with the
/// outcome recorded before when it was seen before.
pub(super) async fn load(
    tx: &mut AnyConnection,
    read: Read,
    mut history: History,
    game_row: Option<AnyRow>,
) -> Result<Result<Loaded, String>, StoreError> {
    if let Some(outcome) = history.seen {
        return Ok(Err(outcome));
    }
    let mut stored = match &read.intake.game_address {
        Some(a) => games::load_of(tx, a.game, game_row).await?,
        None => None,
    };
    let clock = match &stored {
        Some(g) => clock_facts(tx, g).await?,
        None => None,
    };
    let mut loaded = Loaded {
        read,
        copy: history.copy.take(),
        history,
        stored: None,
        clock,
        sets: ByColor::default(),
    };
    // Another copy of a message already decided (two envelope recipients, a
    // mailbox migrated with its history): other header bytes, but the same
    // Message-ID from the same sender in the same game, with the same body.
    // Answered once.
    if loaded.copy.is_some() {
        loaded.stored = stored;
        return Ok(Ok(loaded));
    }
    // A claim counts repetitions: their keys are read from the store for it
    // alone (the record would replay its plies for them).
    if let (Some(g), Some(command)) = (stored.as_mut(), loaded.read.intake.command())
        && command.claims_draw()
    {
        games::read_window(tx, g.view.id, &mut g.view.record).await?;
    }
    // Both seats' sets are read and written in this transaction: the
    // opponent's move and the prepared answer are stored together or not
    // at all.
    if let Some(g) = stored.as_ref().filter(|g| g.has_conditionals) {
        loaded.sets = conditionals::load(tx, g.view.id).await?;
    }
    // A request for leave is answered against the players' leaves, in a
    // game without a limited time control too.
    if let Some(g) = stored.as_ref()
        && loaded.clock.is_none()
        && decide::plan::asks_for_leave(&loaded.read.intake)
    {
        loaded.clock = leave_clock(tx, g).await?;
    }
    loaded.stored = stored;
    Ok(Ok(loaded))
}

/// The clock of `game` as stored, with its players' leaves and (unfinished)
/// the deadline actions done; `None` when it has no limited time control:
/// an unlimited game never has a deadline and its mails show no clocks.
async fn clock_facts(
    tx: &mut AnyConnection,
    game: &StoredGame,
) -> Result<Option<ClockFacts>, StoreError> {
    if !game.time_control.is_limited() {
        return Ok(None);
    }
    let id = game.view.id;
    let Some(clock) = clocks::game_clock(tx, id).await? else {
        return Ok(None);
    };
    let leaves = ByColor {
        white: clocks::leaves(tx, &game.view.white.email).await?,
        black: clocks::leaves(tx, &game.view.black.email).await?,
    };
    let done = if game.view.record.is_over() || !clock.control.is_limited() {
        Vec::new()
    } else {
        clocks::deadlines_done(tx, id).await?
    };
    Ok(Some(ClockFacts {
        clock,
        leaves,
        done,
    }))
}

/// The clock of `game`, a game without a limited time control, with both
/// players' leaves, for a request for leave; `None` when the game keeps no
/// clock.
async fn leave_clock(
    tx: &mut AnyConnection,
    game: &StoredGame,
) -> Result<Option<ClockFacts>, StoreError> {
    let Some(clock) = clocks::game_clock(tx, game.view.id).await? else {
        return Ok(None);
    };
    Ok(Some(ClockFacts {
        clock,
        leaves: ByColor {
            white: clocks::leaves(tx, &game.view.white.email).await?,
            black: clocks::leaves(tx, &game.view.black.email).await?,
        },
        done: Vec::new(),
    }))
}

/// The section of the event game `g` (`None`: not an event game), read
/// when a message or a flag ends the game: its game-over mails end with
/// the player's standing.
pub async fn event_section(
    tx: &mut AnyConnection,
    g: &StoredGame,
) -> Result<Option<Section>, StoreError> {
    match g.event {
        Some(_) => crate::organise::event::section_of(tx, g.view.id).await,
        None => Ok(None),
    }
}
