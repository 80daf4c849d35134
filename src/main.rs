//! The `wildt` command: parses arguments, calls the library, prints, sets the exit
//! code. Errors are printed once, with their chain, here.

mod cli_notation;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "wildt",
    version,
    about = "A correspondence-chess referee for ICCF numeric notation by e-mail"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert a line of moves between ICCF numeric notation and SAN.
    #[command(subcommand)]
    Notation(cli_notation::NotationCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Notation(cmd) => cli_notation::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("wildt: {e:#}");
            ExitCode::FAILURE
        }
    }
}
