//! Xfcc: the XfccBasic web service (SOAP 1.1 over HTTP) that chess GUIs
//! (ChessBase, Scid, Arena, ...) use to fetch a player's games and send
//! moves, beside mail.
//!
//! - `soap`    the envelopes read and written                       [pure]
//! - `view`    a stored game as an `XfccGame`                       [pure]
//! - `account` passwords (Argon2id) and the failed-login limit       [IO]
//! - `server`  the HTTP listener `wildt serve` runs beside the inbox [IO]
//!
//! A move sent by Xfcc takes the path of a mail (`handle::xfcc`): the same
//! referee, clocks, replies and transaction.

pub mod soap;
pub mod view;

#[cfg(feature = "server")]
pub mod account;
#[cfg(feature = "server")]
pub mod server;

/// The WSDL served at `/xfccbasic.asmx?wsdl`, with `XFCC_LOCATION` standing
/// where the service's URL goes.
pub const WSDL: &str = include_str!("xfccbasic.wsdl");
