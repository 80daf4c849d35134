//! `wildt migrate sqlite-to-postgres`: parsing and printing only; the copy is
//! `wildt::ops::migrate`. [IO: prints]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use wildt::ops::migrate::Copied;

#[derive(Subcommand)]
pub enum MigrateCommand {
    /// Copy a club's SQLite database into an empty PostgreSQL database,
    /// whole or not at all, also while the daemon runs on it; prints each
    /// table's rows on both sides.
    SqliteToPostgres {
        /// The SQLite database file.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The PostgreSQL database, without a password:
        /// postgres://USER@HOST[:PORT]/DATABASE.
        #[arg(long, value_name = "URL")]
        to: String,
        /// The file whose first line is the PostgreSQL password.
        #[arg(long, value_name = "FILE")]
        password_file: Option<PathBuf>,
    },
}

pub fn run(cmd: MigrateCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        MigrateCommand::SqliteToPostgres {
            from,
            to,
            password_file,
        } => {
            let copied = crate::runtime()?.block_on(wildt::ops::migrate::sqlite_to_postgres(
                &from,
                &to,
                password_file.as_deref(),
            ))?;
            print_counts(&copied)?;
            if copied.committed {
                let rows: i64 = copied.counts.iter().map(|c| c.postgres).sum();
                outln!("copied {rows} rows from {} into {to}", from.display())?;
                Ok(ExitCode::SUCCESS)
            } else {
                let differ: Vec<&str> = copied.mismatches().map(|c| c.table.as_str()).collect();
                anyhow::bail!(
                    "the counts differ ({}): the copy was rolled back, {to} is as it was",
                    differ.join(", ")
                )
            }
        }
    }
}

/// `table  sqlite  postgres`, one line per table, in the order copied.
fn print_counts(copied: &Copied) -> std::io::Result<()> {
    let width = copied
        .counts
        .iter()
        .map(|c| c.table.len())
        .chain(["table".len()])
        .max()
        .unwrap_or(0);
    outln!("{:<width$}  {:>10}  {:>10}", "table", "sqlite", "postgres")?;
    for c in &copied.counts {
        let mark = if c.sqlite == c.postgres {
            ""
        } else {
            "  DIFFERS"
        };
        outln!(
            "{:<width$}  {:>10}  {:>10}{mark}",
            c.table,
            c.sqlite,
            c.postgres
        )?;
    }
    Ok(())
}
