//! `wildt notation to-san|to-iccf`: check a line of moves before posting it.
//! [IO: prints]

use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum NotationCommand {
    /// ICCF numeric moves -> SAN, from the start position or a FEN.
    ToSan { moves: Vec<String> },
}

pub fn run(cmd: NotationCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        NotationCommand::ToSan { moves } => {
            anyhow::bail!("not yet implemented: {} moves", moves.len())
        }
    }
}
