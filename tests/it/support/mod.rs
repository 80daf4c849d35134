//! Every helper shared by several test modules, one file per kind:
//!
//! - [`fixtures`]     test data written once: the referee, the game-17
//!   fixture, small mails built and read in memory
//! - [`pathological`] hostile 1 MiB messages (also built by the engine bench)
//! - [`cli`]          the `wildt` binary run by an organiser
//! - [`club`]         the Maildir club of the `serve --once` tests
//! - [`rig`]          the mail rig: configurations, a sender, a reader, a proxy
//! - [`pg`]           the test PostgreSQL: its password, a fresh database
//! - [`logs`]         what wildt's logs say of mail in doubt after a crash

// Each test module uses its own subset of these helpers.
#![allow(dead_code)]

pub mod cli;
pub mod club;
pub mod fixtures;
pub mod logs;
pub mod pathological;
pub mod pg;
#[macro_use]
pub mod rig;
