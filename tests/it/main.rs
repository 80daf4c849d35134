//! The one integration test binary (one link instead of many). Each module is a
//! subject; helpers shared by several live in `support`.

mod game_cli;
mod games;
mod serve_maildir;
mod systemd;
