//! wildt: a correspondence-chess referee that plays ICCF numeric notation by e-mail.
//!
//! Module map. The dependency rule: modules marked [pure] import no tokio, sqlx,
//! lettre or async-imap, and never the IO modules; the IO modules call the pure
//! ones. `wildt check FILE.eml` calls `handle::handle_message`; the daemon
//! calls `handle::handle_group`, which runs the same steps for several
//! messages in one transaction.
//!
//! - [`auth`]     Authentication-Results from the trusted MX -> pass or not  [pure]
//! - [`notation`] ICCF syntax; legality and why a move is illegal; plies, SAN [pure]
//! - [`clock`]    day clocks: controls, charges, leave, deadlines, forfeits [pure]
//! - [`command`]  what a player asks: a move, resign, draw, status          [pure]
//! - [`intake`]   raw mail bytes -> who, which game, what command           [pure]
//! - [`game`]     the game record, its end and result, FEN; diagram, PGN  [pure]
//! - [`referee`]  (game record, command) -> verdict, and its effect        [pure]
//! - [`conditional`] "if 7866 then 4143": read, check, store, apply       [pure]
//! - [`decide`]   message + game + facts + rules -> plan (no mail text)  [pure]
//! - [`reply`]    decision -> every word wildt writes (subjects, bodies)    [pure]
//! - [`event`]    sections: Berger pairings, player lists, crosstable, SB  [pure]
//! - [`html`]     the HTML part: board table, record                     [pure]
//! - [`lines`]    SMTP's line rules for a part: CRLF, 998 octets, 7-bit   [pure]
//! - [`site`]     the public site's pages and PGN files (no address, no key) [pure]
//! - [`i18n`]     languages, translated messages, SAN in each language's letters [pure]
//! - [`config`]   TOML -> validated Config -> Rules
//! - [`handle`]   the use case "a message arrives": load, plan, apply, queue [IO]
//! - [`organise`] the organiser's use cases (new game + welcome, rekey, by hand) [IO]
//! - [`keys`]     secret game keys and Message-ID parts from the OS CSPRNG  [IO]
//! - [`store`]    tables only: `store/games`, `store/messages`, `store/outbox`,
//!   small functions taking a transaction                                  [IO]
//! - [`mail`]     inbox (Maildir, IMAP) and transports (file, SMTP, sendmail) [IO]
//! - [`daemon`]   the loop: wait, hand a message to handle, send            [IO]
//! - [`deadlines`] clock deadlines due: reminders, warnings, time forfeits [IO]
//! - [`now`]      "now": the system clock or `WILDT_NOW`                    [IO]
//! - [`shutdown`] the stop request (SIGTERM, SIGINT) the loop waits beside  [IO]
//! - [`publish`]  the site from the store, swapped in atomically           [IO]
//! - [`ops`]      the operator's tools: config check, init, status, backup  [IO]
//! - [`xfcc`]     Xfcc (XfccBasic SOAP) for chess GUIs: envelopes [pure], the server [IO]
//!
//! A message goes down once: daemon (or `check`) -> handle: intake -> load
//! (store) -> decide (the plan) -> apply (store) and reply -> render -> commit
//! (one transaction) -> the transport.
//!
//! The IO modules are behind the default feature `server`; without it the
//! crate is the pure core alone (what the fuzz targets build).

pub mod auth;
pub mod clock;
pub mod command;
pub mod conditional;
pub mod config;
#[cfg(feature = "server")]
pub mod daemon;
#[cfg(feature = "server")]
pub mod deadlines;
pub mod decide;
pub mod event;
#[cfg(feature = "server")]
pub mod failpoint;
#[doc(hidden)]
pub mod fixtures;
pub mod game;
#[cfg(feature = "server")]
pub mod handle;
pub mod html;
pub mod i18n;
pub mod intake;
#[cfg(feature = "server")]
pub mod keys;
pub mod lines;
#[cfg(feature = "server")]
pub mod mail;
pub mod notation;
#[cfg(feature = "server")]
pub mod now;
#[cfg(feature = "server")]
pub mod ops;
#[cfg(feature = "server")]
pub mod organise;
#[cfg(feature = "server")]
pub mod publish;
pub mod referee;
pub mod reply;
#[cfg(feature = "server")]
pub mod shutdown;
pub mod site;
#[cfg(feature = "server")]
pub mod store;
pub mod xfcc;
