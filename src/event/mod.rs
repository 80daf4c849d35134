//! All-play-all sections, the pure part: Berger pairings, the
//! player list, the crosstable with Sonneborn–Berger and its JSON, the
//! rulings when a player withdraws, and the name a player shows in public.
//! [pure: no IO]
//!
//! - [`berger`]     who plays whom with which colour, once or twice
//! - [`players`]    `Anna Smith <anna@x.example>` lists; the public name
//! - [`crosstable`] points, games, SB, wins, rank, cells; `event show --json`
//! - [`withdraw`]   forfeit or (ICCF) annul a leaving player's games

pub mod berger;
pub mod crosstable;
pub mod players;
pub mod withdraw;

pub use berger::{Cycles, MAX_PLAYERS, MIN_PLAYERS, Pairing, PairingError, Round, berger};
pub use crosstable::{
    Cell, Crosstable, CrosstableError, EventGame, EventJson, GameJson, Outcome, PlayerJson, Points,
    Rank, Row, Sb, Section, Standing, crosstable, event_json,
};
pub use players::{Player, PlayerListError, is_address, parse_player, parse_players, public_name};
pub use withdraw::{WithdrawError, Withdrawal, WithdrawalRule, withdraw};
