//! The one integration test binary (one link instead of many). Each module is a
//! subject; helpers shared by several live in `support`.

mod notation;
mod notation_cli;
