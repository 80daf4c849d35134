//! The one integration test binary (one link instead of many). Each module is a
//! subject; every helper shared by several lives in `support`, one file per
//! kind (rig, cli, club, fixtures, pathological).

#[macro_use]
mod support;

mod board_html;
mod cli_typed;
mod clocks;
mod conditional_maildir;
mod e2e;
mod events;
mod forwards;
mod game_cli;
mod games;
mod group_commit;
mod imap_inbox;
mod inbox_faults;
mod intake;
mod languages;
mod migrate;
mod multi;
mod notation;
mod notation_cli;
mod ops_cli;
mod ops_lock;
mod outbox;
mod package;
mod pg_fault;
mod player_names;
mod powercut;
mod receipts;
mod schema;
mod serve_delivery;
mod serve_maildir;
mod smtp_transport;
mod systemd;
mod tablebase;
mod xfcc;
mod xfcc_clients;
