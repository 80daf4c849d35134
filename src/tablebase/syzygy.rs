//! The Syzygy tables on disk, probed with `shakmaty-syzygy`. [IO]
//!
//! Opened once at start (the daemon, the CLI): the files are listed here
//! and read lazily when a position is probed. Only the WDL tables
//! (`*.rtbw`) are needed to decide a claim; the DTZ tables (`*.rtbz`) are
//! counted so that `config check` can say whether a set is complete.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Position};
use shakmaty_syzygy::{AmbiguousWdl, SyzygyError, Tablebase};

use super::{SharedTables, TablebaseRules, Tables, Undecided, Wdl};

/// A directory of `[tablebase] path` that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("tablebase directory {}: {source}", path.display())]
pub struct OpenError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// What the directories hold, for `config check` and `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inventory {
    /// WDL tables (`*.rtbw`): one per material.
    pub wdl: usize,
    /// DTZ tables (`*.rtbz`).
    pub dtz: usize,
    /// The most pieces any table holds (0: no table).
    pub max_pieces: usize,
}

/// The Syzygy tables of one or more directories.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    inventory: Inventory,
}

impl std::fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Syzygy")
            .field("inventory", &self.inventory)
            .finish()
    }
}

impl Syzygy {
    /// Lists the tables of `dirs` (no file is opened before a probe).
    pub fn open(dirs: &[PathBuf]) -> Result<Syzygy, OpenError> {
        let mut tables = Tablebase::new();
        let mut inventory = Inventory::default();
        for dir in dirs {
            let err = |source| OpenError {
                path: dir.clone(),
                source,
            };
            tables.add_directory(dir).map_err(err)?;
            for entry in std::fs::read_dir(dir).map_err(err)? {
                let path = entry.map_err(err)?.path();
                match path.extension().and_then(|e| e.to_str()) {
                    Some("rtbw") => inventory.wdl += 1,
                    Some("rtbz") => inventory.dtz += 1,
                    _ => {}
                }
            }
        }
        inventory.max_pieces = tables.max_pieces();
        Ok(Syzygy { tables, inventory })
    }

    pub fn inventory(&self) -> Inventory {
        self.inventory
    }
}

impl Tables for Syzygy {
    fn probe(&self, pos: &Chess) -> Result<Wdl, Undecided> {
        let pieces = pos.board().occupied().count();
        let max = self.tables.max_pieces();
        // The crate resolves a position one piece beyond its tables by
        // searching its captures; a claim stands only on a position the
        // tables hold (a capture is claimed with the move), so more pieces
        // than the largest table are refused first, naming both counts.
        if pieces > max {
            return Err(Undecided::TooManyPieces { pieces, max });
        }
        match self.tables.probe_wdl_after_zeroing(pos) {
            Ok(w) => Ok(match w {
                shakmaty_syzygy::Wdl::Win => self.cursed_by_the_count(pos, Wdl::Win),
                shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
                shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
                shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
                shakmaty_syzygy::Wdl::Loss => self.cursed_by_the_count(pos, Wdl::Loss),
            }),
            Err(SyzygyError::Castling) => Err(Undecided::Castling),
            Err(SyzygyError::TooManyPieces) => Err(Undecided::TooManyPieces { pieces, max }),
            Err(SyzygyError::MissingTable { material, .. }) => Err(Undecided::MissingTable {
                material: material.to_string(),
            }),
            Err(SyzygyError::ProbeFailed { material, .. }) => Err(Undecided::Failed {
                material: material.to_string(),
            }),
        }
    }
}

impl Syzygy {
    /// A win (or loss) the moves already made without a capture or pawn
    /// move would turn into a draw under the 50-move rule: ICCF suspends
    /// the rule here, so it stays a win, and the answer says why. Needs
    /// the DTZ table; without it (or where DTZ rounding leaves it open)
    /// the value stays as the WDL table gives it.
    fn cursed_by_the_count(&self, pos: &Chess, wdl: Wdl) -> Wdl {
        if pos.halfmoves() == 0 {
            return wdl;
        }
        match (wdl, self.tables.probe_wdl(pos)) {
            (Wdl::Win, Ok(AmbiguousWdl::CursedWin)) => Wdl::CursedWin,
            (Wdl::Loss, Ok(AmbiguousWdl::BlessedLoss)) => Wdl::BlessedLoss,
            _ => wdl,
        }
    }
}

/// The tablebase rules of `config`, with its tables opened (none when
/// `[tablebase]` is absent).
pub fn rules(config: Option<&crate::config::TablebaseConfig>) -> Result<TablebaseRules, OpenError> {
    let Some(c) = config else {
        return Ok(TablebaseRules::default());
    };
    let tables = Syzygy::open(&c.paths)?;
    Ok(TablebaseRules {
        adjudicate: c.adjudicate,
        tables: Some(SharedTables(Arc::new(tables))),
    })
}

/// The rules of `config` with its tables opened: what the daemon and the
/// CLI decide by.
pub fn open_rules(config: &crate::config::Config) -> Result<crate::config::Rules, OpenError> {
    let mut rules = config.rules();
    rules.tablebase = self::rules(config.tablebase.as_ref())?;
    Ok(rules)
}

/// The tables of `dirs`, for a one-off question (`config check`).
pub fn inventory(dirs: &[PathBuf]) -> Result<Inventory, OpenError> {
    Syzygy::open(dirs).map(|s| s.inventory())
}
