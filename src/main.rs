//! The `wildt` command: parses arguments, calls the library, prints, sets the exit
//! code. Errors are printed once, with their chain, here.

/// `println!` that hands back the error instead of panicking, so that
/// `wildt … | head` ends quietly when the reader goes away (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// Prints `value` as pretty JSON, a newline after it.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string_pretty(value)?)?;
    Ok(())
}

/// mimalloc instead of glibc's allocator: a message's mails, statements and
/// parsed parts are many small short-lived allocations, and with glibc's
/// allocator malloc and free were 12 % of the instructions of answering a
/// move. Built without transparent huge pages: with them every fresh 2 MiB
/// region is cleared whole, which costs more kernel time than the
/// allocator saves.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli_check;
mod cli_event;
mod cli_game;
mod cli_migrate;
mod cli_notation;
mod cli_ops;
mod cli_outbox;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};
use wildt::config::{Config, LOCAL_TOML};
use wildt::store::Store;

#[derive(Parser)]
#[command(
    name = "wildt",
    version,
    about = "A correspondence-chess referee for ICCF numeric notation by e-mail"
)]
struct Cli {
    /// The options every subcommand takes: accepted before the subcommand
    /// (`wildt --config FILE game list`, as `git -c`) and after it.
    #[command(flatten)]
    config: ConfigArgs,
    #[command(subcommand)]
    command: Command,
}

/// Where the configuration comes from.
#[derive(Args, Clone)]
pub struct ConfigArgs {
    /// Configuration file.
    #[arg(
        long,
        global = true,
        env = "WILDT_CONFIG",
        default_value = "/etc/wildt/wildt.toml"
    )]
    config: PathBuf,
    /// Use the embedded default instead: Maildir var/mail, file outbox
    /// var/outbox, SQLite var/wildt.db, relative to the working directory.
    #[arg(long, global = true)]
    local: bool,
}

impl ConfigArgs {
    pub fn load(&self) -> anyhow::Result<Config> {
        wildt::now::check_env()?;
        if self.local {
            Ok(Config::parse(LOCAL_TOML)?)
        } else {
            Config::load(&self.config).with_context(
                || "use --config FILE, WILDT_CONFIG, or --local for the embedded default",
            )
        }
    }

    /// The configuration and its database, opened.
    pub async fn open(&self) -> anyhow::Result<Opened> {
        let config = self.load()?;
        let store = Store::for_config(&config).await?;
        Ok(Opened { config, store })
    }
}

/// What the commands on games and events work on: the configuration and its
/// open database. Whoever opens it closes `store`.
pub struct Opened {
    pub config: Config,
    pub store: Store,
}

#[derive(Subcommand)]
enum Command {
    /// Convert a line of moves between ICCF numeric notation and SAN.
    #[command(subcommand)]
    Notation(cli_notation::NotationCommand),
    /// Create, list, show, play and export games.
    Game {
        #[command(subcommand)]
        command: cli_game::GameCommand,
    },
    /// All-play-all sections: create, list, show the crosstable, withdraw.
    Event {
        #[command(subcommand)]
        command: cli_event::EventCommand,
    },
    /// Write the public site (events, crosstables, games, PGN) to a folder.
    Publish {
        /// The folder to write; [publish] path in the configuration if not given.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Set what wildt knows of a player (by address): their language.
    Player {
        #[command(subcommand)]
        command: cli_game::PlayerCommand,
    },
    /// Show what wildt would do with a message, changing nothing.
    Check {
        /// The message, as an .eml file (RFC 5322).
        file: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Run the referee: read the inbox, answer, until SIGTERM or SIGINT.
    Serve {
        /// Process what is waiting, try the outbox once, and exit.
        #[arg(long)]
        once: bool,
    },
    /// See the mail waiting or failed, and send failed mail again.
    #[command(subcommand)]
    Outbox(cli_outbox::OutboxCommand),
    #[command(flatten)]
    Ops(cli_ops::OpsCommand),
}

fn init_logging(default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    // Under systemd the journal adds its own timestamps and shows no colours.
    if std::env::var_os("JOURNAL_STREAM").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(false)
            .without_time()
            .with_writer(std::io::stderr)
            .init();
    } else {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .init();
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// SQLite allocates through glibc's malloc (Rust's allocations go to
/// mimalloc), and glibc gave memory back to the kernel whenever 128 KiB lay
/// free at the top of a heap. The page cache SQLite makes for a statement's
/// temporary table (86 KiB, allocated whole) and its statement journals
/// were freed and given back statement after statement, and every first
/// write to them again was a page fault: `perf record -e page-faults` put
/// 48 % of the daemon's faults in `pcache1InitBulk`. Keeping up to 1 MiB
/// free per heap halved the faults (1,000 moves over the real servers:
/// 21,800 to 9,900; 2,000 from a Maildir: 10,800 to 4,900) and cut the
/// CPU time by 8 %, for at most 1 MiB of memory per heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt sets one of glibc malloc's parameters; it takes no
    // pointer and is called first thing in main, before any other thread.
    let set = unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 20) };
    // glibc accepts any threshold; the default would only cost time.
    debug_assert_eq!(set, 1, "mallopt(M_TRIM_THRESHOLD) refused");
}

/// Runs an async command on a runtime of its own, logging at `level`.
fn block_on(
    level: &str,
    command: impl Future<Output = anyhow::Result<ExitCode>>,
) -> anyhow::Result<ExitCode> {
    init_logging(level);
    runtime()?.block_on(command)
}

/// `wildt serve`: the daemon, under its lock; with `--once`, a line of counts.
async fn serve(config: &ConfigArgs, once: bool) -> anyhow::Result<ExitCode> {
    let config = config.load()?;
    let _lock = wildt::ops::lock::DaemonLock::acquire(&config.database_url)?;
    let summary = wildt::daemon::run(
        config,
        wildt::daemon::RunOptions { once },
        wildt::shutdown::terminate_or_interrupt(),
    )
    .await?;
    if once {
        outln!(
            "{} messages, {} duplicates, {} mails sent, {} to retry, {} failed",
            summary.messages,
            summary.duplicates,
            summary.sent,
            summary.retried,
            summary.failed
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    keep_freed_memory();
    let cli = Cli::parse();
    let config = &cli.config;
    let result = match cli.command {
        Command::Notation(cmd) => cli_notation::run(cmd),
        Command::Game { command } => block_on("warn", cli_game::run(config, command)),
        Command::Event { command } => block_on("warn", cli_event::run(config, command)),
        Command::Publish { out } => block_on("warn", cli_event::publish(config, out)),
        Command::Player { command } => block_on("warn", cli_game::player(config, command)),
        Command::Check { file, json } => block_on("warn", cli_check::run(config, &file, json)),
        Command::Ops(cmd) => cli_ops::run(cmd, config),
        Command::Outbox(cmd) => block_on("warn", cli_outbox::run(cmd, config)),
        Command::Serve { once } => block_on("info", serve(config, once)),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`wildt game list | head`):
        // nothing more to say, and nobody to say it to.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wildt: {}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// `e` and its causes joined by ": ", leaving out a cause whose text the
/// one before already says (a store error shows its sqlx error, which shows
/// its own cause: once each, not three times).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let said = cause.to_string();
        if !text.contains(&said) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&said);
        }
    }
    text
}
