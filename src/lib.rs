//! wildt: a correspondence-chess referee that plays ICCF numeric notation by e-mail.
//!
//! Module map. The dependency rule: modules marked [pure] import no tokio, sqlx,
//! lettre or async-imap, and never the IO modules; the IO modules call the pure
//! ones. `wildt check FILE.eml` and the daemon share the same decision code.
//!
//! - [`notation`] ICCF squares and moves; to and from shakmaty            [pure]
//! - [`command`]  what a player asks: a move, resign, draw, status          [pure]
//! - [`intake`]   raw mail bytes -> who, which game, what command           [pure]
//! - [`referee`]  (game record, command) -> verdict                         [pure]
//! - [`game`]     board diagram, record, PGN                                [pure]
//! - [`reply`]    verdict -> the mails to write                             [pure]
//! - [`config`]   TOML -> validated configuration
//! - [`store`]    SQLite: games, moves, processed mail, outbox              [IO]
//! - [`mail`]     inbox (Maildir, IMAP) and outbox (file, SMTP, sendmail)   [IO]
//! - [`daemon`]   the loop: wait, take a message, one transaction, send     [IO]

pub mod command;
pub mod config;
pub mod intake;
pub mod mail;
pub mod notation;
