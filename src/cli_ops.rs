//! The operator's subcommands: `config check`, `init`, `status`, `backup`, and
//! the hidden `generate` that writes the man pages and shell completions from
//! these very clap definitions (so they never drift from `--help`). Parsing
//! and printing only; the work is in `wildt::ops`. [IO: prints, writes files]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use wildt::ops::check::{self, Finding, Level};
use wildt::ops::init::InitOptions;

use crate::ConfigArgs;

#[derive(Subcommand)]
pub enum OpsCommand {
    /// Check the configuration (and, with --connect, the mail servers).
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Write a commented starting configuration for a domain.
    Init(InitArgs),
    /// The deployment's health: daemon, last message, outbox, the next clock
    /// deadline. Exits 1 when something needs the operator (for monitoring).
    Status {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Failed mail older than this no longer counts as a problem.
        #[arg(long, default_value_t = 168, value_name = "HOURS")]
        failed_window_hours: u32,
    },
    /// Copy the database consistently, also while the daemon runs.
    Backup {
        /// The copy to write (must not exist).
        file: PathBuf,
    },
    /// Copy a club's database to another backend.
    #[command(subcommand)]
    Migrate(crate::cli_migrate::MigrateCommand),
    /// Write the man pages or shell completions (for packaging).
    #[command(subcommand, hide = true)]
    Generate(GenerateCommand),
}

#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Validate every key (file and line of a mistake), read the password and
    /// CA files; exits 1 on an error.
    Check {
        /// Also log in to IMAP and SMTP, and send the referee a probe at
        /// ADDRESS+probe-… to check sub-addressing and Authentication-Results.
        #[arg(long)]
        connect: bool,
        /// How long the probe may take to arrive.
        #[arg(long, default_value_t = 60, value_name = "SECS")]
        wait: u64,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
pub struct InitArgs {
    /// The club's mail domain; every other value derives from it.
    #[arg(long)]
    domain: String,
    /// Where to write (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Overwrite FILE if it exists.
    #[arg(long)]
    force: bool,
    /// The referee mailbox [default: chess@DOMAIN].
    #[arg(long)]
    address: Option<String>,
    /// Display name on every mail [default: "DOMAIN chess referee"].
    #[arg(long)]
    name: Option<String>,
    /// IMAP server [default: imap.DOMAIN].
    #[arg(long)]
    imap_host: Option<String>,
    /// SMTP submission server [default: smtp.DOMAIN].
    #[arg(long)]
    smtp_host: Option<String>,
    /// Login for both servers [default: the referee address].
    #[arg(long)]
    username: Option<String>,
    /// The authserv-id your MX writes in Authentication-Results.
    #[arg(long)]
    authserv_id: Option<String>,
    /// SQLite URL [default: sqlite:///var/lib/wildt/wildt.db].
    #[arg(long)]
    database_url: Option<String>,
}

#[derive(Subcommand)]
pub enum GenerateCommand {
    /// wildt.1 and one page per subcommand.
    Man {
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// The completion script for SHELL.
    Completions {
        shell: clap_complete::Shell,
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

pub fn run(cmd: OpsCommand, config: &ConfigArgs) -> anyhow::Result<ExitCode> {
    match cmd {
        OpsCommand::Config(ConfigCommand::Check {
            connect,
            wait,
            json,
        }) => config_check(config, connect, Duration::from_secs(wait), json),
        OpsCommand::Init(args) => init(args),
        OpsCommand::Status {
            json,
            failed_window_hours,
        } => status(config, json, failed_window_hours),
        OpsCommand::Backup { file } => backup(config, &file),
        OpsCommand::Migrate(cmd) => crate::cli_migrate::run(cmd),
        OpsCommand::Generate(GenerateCommand::Man { out }) => man_pages(&out),
        OpsCommand::Generate(GenerateCommand::Completions { shell, out }) => {
            completions(shell, &out)
        }
    }
}

/// `wildt status`: exits 1 when something needs the operator.
fn status(config: &ConfigArgs, json: bool, failed_window_hours: u32) -> anyhow::Result<ExitCode> {
    let config = config.load()?;
    let status = crate::runtime()?
        .block_on(wildt::ops::status::read_config(
            &config,
            i64::from(failed_window_hours) * 3600,
        ))?
        .with_tablebase(config.tablebase.as_ref());
    print_status(&status, json)?;
    Ok(if status.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `wildt backup FILE`.
fn backup(config: &ConfigArgs, file: &Path) -> anyhow::Result<ExitCode> {
    let config = config.load()?;
    let size =
        crate::runtime()?.block_on(wildt::ops::backup::backup(&config.database_url, file))?;
    outln!("{}: {size} bytes", file.display())?;
    Ok(ExitCode::SUCCESS)
}

/// `wildt generate man --out DIR`.
fn man_pages(out: &Path) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    clap_mangen::generate_to(command(), out)
        .with_context(|| format!("man pages into {}", out.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// `wildt generate completions SHELL --out DIR`.
fn completions(shell: clap_complete::Shell, out: &Path) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
    let path = clap_complete::generate_to(shell, &mut command(), "wildt", out)
        .with_context(|| format!("{shell} completions into {}", out.display()))?;
    outln!("{}", path.display())?;
    Ok(ExitCode::SUCCESS)
}

fn command() -> clap::Command {
    <crate::Cli as clap::CommandFactory>::command()
}

fn config_check(
    args: &ConfigArgs,
    connect: bool,
    wait: Duration,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut findings = if args.local {
        check::check_text(Path::new("(embedded default)"), wildt::config::LOCAL_TOML)
    } else {
        check::check_file(&args.config)
    };
    if connect && let Some(config) = &findings.config {
        let online = crate::runtime()?.block_on(wildt::ops::probe::connect_checks(config, wait));
        findings.findings.extend(online);
    }
    let findings = findings.findings;
    if json {
        crate::print_json(&findings)?;
    } else {
        for f in &findings {
            print_finding(f)?;
        }
    }
    Ok(if check::has_errors(&findings) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_finding(f: &Finding) -> std::io::Result<()> {
    let tag = match f.level {
        Level::Ok => "ok  ",
        Level::Warning => "warn",
        Level::Error => "FAIL",
    };
    outln!("{tag} {}", f.what)?;
    if !f.fix.is_empty() {
        outln!("     fix: {}", f.fix)?;
    }
    Ok(())
}

fn init(a: InitArgs) -> anyhow::Result<ExitCode> {
    let text = wildt::ops::init::render(&InitOptions {
        domain: a.domain,
        address: a.address,
        name: a.name,
        imap_host: a.imap_host,
        smtp_host: a.smtp_host,
        username: a.username,
        authserv_id: a.authserv_id,
        database_url: a.database_url,
    })?;
    // What init writes must pass the check it recommends.
    wildt::config::Config::parse(&text).context("the written configuration does not parse")?;
    let Some(out) = a.out else {
        outln!("{}", text.trim_end())?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if a.force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    use std::io::Write as _;
    let mut file = match options.open(&out) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            anyhow::bail!("{} exists: use --force to overwrite it", out.display())
        }
        other => other.with_context(|| out.display().to_string())?,
    };
    file.write_all(text.as_bytes())
        .with_context(|| out.display().to_string())?;
    eprintln!(
        "wrote {}; next: put the passwords in the files it names, then `wildt config check --connect`",
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn print_status(s: &wildt::ops::status::Status, json: bool) -> anyhow::Result<()> {
    if json {
        return crate::print_json(s);
    }
    let ago = |t: Option<i64>| match t {
        Some(t) => format!("{} s ago (unix {t})", s.now - t),
        None => "never".to_owned(),
    };
    outln!("database:      {}", s.database.display())?;
    match (s.daemon.running, s.daemon.pid) {
        (true, Some(pid)) => outln!(
            "daemon:        running (pid {pid}, started {})",
            ago(s.daemon.started_at)
        )?,
        (true, None) => outln!("daemon:        running")?,
        (false, _) => outln!("daemon:        not running")?,
    }
    // PostgreSQL: every daemon on the database, the leader marked.
    for d in &s.daemons {
        outln!(
            "  daemon {} on {} (pid {}): {}, started {}, last seen {}{}",
            d.id,
            d.host,
            d.pid,
            if d.live { "live" } else { "gone" },
            ago(Some(d.started_at)),
            ago(Some(d.last_seen_at)),
            if d.leads { ", leads" } else { "" }
        )?;
    }
    outln!("last message:  {}", ago(s.last_message_at))?;
    let next = match s.outbox.next_due_at {
        Some(t) if t <= s.now => format!("due now (for {} s)", s.now - t),
        Some(t) => format!("in {} s", t - s.now),
        None => "none".to_owned(),
    };
    outln!(
        "outbox:        {} waiting (next {next}), {} failed ({} in the last {} h)",
        s.outbox.waiting,
        s.outbox.failed,
        s.outbox.failed_recently,
        s.outbox.failed_window_secs / 3600
    )?;
    let deadline = match &s.next_deadline {
        Some(d) => {
            let when = if d.at <= s.now {
                format!("overdue by {} s", s.now - d.at)
            } else {
                format!("in {} s", d.at - s.now)
            };
            format!(
                "game {}, {} of {}, {when} (unix {})",
                d.game, d.kind, d.side, d.at
            )
        }
        None => "none".to_owned(),
    };
    outln!("next deadline: {deadline}")?;
    outln!("quarantined:   {}", s.quarantined)?;
    let tb = &s.tablebase;
    match (&tb.error, tb.on) {
        (_, false) => outln!("tablebases:    off")?,
        (Some(e), true) => outln!("tablebases:    on, but {e}")?,
        (None, true) => outln!(
            "tablebases:    on ({} tables, up to {} pieces; adjudicate = {})",
            tb.tables,
            tb.max_pieces,
            tb.adjudicate.unwrap_or("claim")
        )?,
    }
    for p in &s.problems {
        outln!("PROBLEM:       {}", p.detail)?;
    }
    if s.ok {
        outln!("ok")?;
    }
    Ok(())
}
