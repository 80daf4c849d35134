//! wildt: a correspondence-chess referee that plays ICCF numeric notation by e-mail.
//!
//! Module map. The dependency rule: modules marked [pure] import no tokio, sqlx,
//! lettre or async-imap, and never the IO modules; the IO modules call the pure
//! ones. `wildt check FILE.eml` and the daemon share the same decision code.
//!
//! - [`auth`]     Authentication-Results from the trusted MX -> pass or not  [pure]
//! - [`notation`] ICCF syntax; legality and why a move is illegal; plies, SAN [pure]
//! - [`clock`]    day clocks: controls, charges, leave, deadlines, forfeits [pure]
//! - [`command`]  what a player asks: a move, resign, draw, status          [pure]
//! - [`intake`]   raw mail bytes -> who, which game, what command           [pure]
//! - [`game`]     the game record, its end and result, FEN; diagram, PGN  [pure]
//! - [`referee`]  (game record, command) -> verdict, and its effect        [pure]
//! - [`reply`]    verdict -> the mails to write                             [pure]
//! - [`decide`]   read message + game -> decision and mails (daemon and check) [pure]
//! - [`config`]   TOML -> validated configuration
//! - [`store`]    SQLite: games, moves, processed mail, outbox              [IO]
//! - [`mail`]     inbox (Maildir, IMAP) and outbox (file, SMTP, sendmail)   [IO]
//! - [`daemon`]   the loop: wait, take a message, one transaction, send     [IO]
//!
//! The IO modules are behind the default feature `server`; without it the
//! crate is the pure core alone (what the fuzz targets build).

pub mod auth;
pub mod clock;
pub mod command;
pub mod config;
#[cfg(feature = "server")]
pub mod daemon;
pub mod decide;
pub mod game;
pub mod intake;
#[cfg(feature = "server")]
pub mod mail;
pub mod notation;
pub mod referee;
pub mod reply;
#[cfg(feature = "server")]
pub mod store;
