//! All-play-all sections (issue 20), the pure part: Berger pairings, the
//! player list, the crosstable with Sonneborn–Berger and its JSON, the
//! rulings when a player withdraws, and the name a player shows in public.
//! [pure: no IO]
//!
//! - [`berger`]     who plays whom with which colour, once or twice
//! - [`players`]    `Anna Smith <anna@x.example>` lists; the public name

pub mod berger;
pub mod players;

pub use berger::{Cycles, MAX_PLAYERS, MIN_PLAYERS, Pairing, PairingError, Round, berger};
pub use players::{Player, PlayerListError, is_address, parse_player, parse_players, public_name};
