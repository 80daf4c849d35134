//! The daemons of the fault test: `wildt serve` processes sharing one
//! PostgreSQL database and one IMAP INBOX, each process (an incarnation)
//! sending through its own SMTP [`Tap`]; killed with `kill -9` and started
//! again; and the test PostgreSQL restarted under them. [IO: processes,
//! files, network]

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::tap::{Clock, Ledger, Tap};
use crate::e2e::POLL;
use crate::support::pg;
use crate::support::rig::{Rig, default_password, toml_str};

/// One `wildt serve` process as started.
#[derive(Debug, Clone)]
pub struct Incarnation {
    pub slot: usize,
    pub pid: u32,
    /// When it was killed with `kill -9` ([`Clock`] order), if it was.
    pub killed_at: Option<u64>,
}

/// A daemon's place: its process now, and its log, which every process
/// that held the place appends to.
struct Slot {
    child: Option<Child>,
    incarnation: usize,
    log: PathBuf,
}

/// The daemons, their configurations and what became of each process.
pub struct Fleet {
    rig: Rig,
    /// The configuration without its `[outbox]` (each process has its own
    /// tap port).
    base: String,
    /// A configuration for the organiser's commands (`game new`, `game show`).
    pub cli_config: PathBuf,
    dir: TempDir,
    slots: Vec<Slot>,
    pub incarnations: Vec<Incarnation>,
    taps: Vec<Tap>,
    pub clock: Clock,
    pub ledger: Ledger,
    /// Processes that ended without being killed: slot, pid, status, log.
    pub exits: Vec<String>,
    /// Whether a process of daemon 0 reached [`CRASH_POINT`] and aborted.
    pub crashed_at_the_point: bool,
}

/// Daemon 0's processes abort right after the relay took their tenth
/// batch of mail, before marking it sent (until one has): at least one
/// batch of every run is in doubt however the kills fall.
pub const CRASH_POINT: &str = "batch-sent:10";

impl Fleet {
    /// `daemons` places for the referee `address` on the database `url`
    /// (none started yet).
    /// Under `chaos`, daemon 0 aborts at [`CRASH_POINT`] once; with
    /// `receipts`, the daemons send with `[receipts]`.
    pub fn new(
        rig: &Rig,
        address: &str,
        url: &str,
        daemons: usize,
        chaos: bool,
        receipts: bool,
    ) -> Fleet {
        let dir = tempfile::tempdir().expect("temp dir");
        let imap_password = dir.path().join("imap-password");
        std::fs::write(&imap_password, format!("{}\n", default_password(address)))
            .expect("password file");
        let q = toml_str;
        let base = format!(
            "[referee]\naddress = {address}\nname = \"fault referee\"\n\n\
             [database]\nurl = {url}\npassword_file = {db_password}\n\n\
             [inbox]\nkind = \"imap\"\nhost = {host}\nport = {imap}\ntls = \"none\"\n\
             username = {address}\npassword_file = {imap_password}\n\
             mailbox = \"INBOX\"\nidle = true\npoll_interval_secs = 5\n\n\
             [limits]\n\
             # Each player here sends a move every few seconds; the hourly\n\
             # reply limit (60) is for autoresponders.\n\
             replies_per_sender_per_hour = 100000\n\
             # Seven players share the test's 206 games.\n\
             games_per_player = 100\n",
            address = q(address),
            url = q(url),
            db_password = q(&pg::password_file().display().to_string()),
            host = q(&rig.host),
            imap = rig.imap_port,
            imap_password = q(&imap_password.display().to_string()),
        );
        // Receipts (p51): a mail a killed process handed to the relay is
        // found there and marked sent, not sent again.
        let base = if receipts {
            base + &rig.receipts_toml(RECEIPTS, RECEIPTS, dir.path(), RECEIPT_WAIT_SECS)
        } else {
            base
        };
        let cli_config = dir.path().join("cli.toml");
        std::fs::write(&cli_config, format!("{base}{}", outbox(rig, rig.smtp_port)))
            .expect("write config");
        let slots = (0..daemons)
            .map(|i| Slot {
                child: None,
                incarnation: usize::MAX,
                log: dir.path().join(format!("daemon-{i}.log")),
            })
            .collect();
        Fleet {
            rig: rig.clone(),
            base,
            cli_config,
            dir,
            slots,
            incarnations: Vec::new(),
            taps: Vec::new(),
            clock: Clock::default(),
            ledger: Ledger::default(),
            exits: Vec::new(),
            // Without chaos, as if it had been reached: nothing aborts.
            crashed_at_the_point: !chaos,
        }
    }

    /// Starts a process in `slot` (which holds none), with a tap of its own.
    pub async fn start(&mut self, slot: usize) {
        let incarnation = self.incarnations.len();
        let tap = Tap::start(
            &self.rig.host,
            self.rig.smtp_port,
            incarnation,
            self.clock.clone(),
            self.ledger.clone(),
        )
        .await;
        let config = self.dir.path().join(format!("serve-{incarnation}.toml"));
        std::fs::write(
            &config,
            format!("{}{}", self.base, outbox(&self.rig, tap.port)),
        )
        .expect("write config");
        self.taps.push(tap);
        let s = &mut self.slots[slot];
        let mut log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&s.log)
            .expect("open daemon log");
        writeln!(log, "==== process {incarnation} starts").expect("write daemon log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_wildt"));
        command
            .args(["serve", "--config"])
            .arg(&config)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(log);
        if slot == 0 && !self.crashed_at_the_point {
            command.env("WILDT_FAILPOINT", CRASH_POINT);
        }
        let child = command.spawn().expect("spawn wildt serve");
        self.incarnations.push(Incarnation {
            slot,
            pid: child.id(),
            killed_at: None,
        });
        s.child = Some(child);
        s.incarnation = incarnation;
    }

    /// `kill -9` of the process in `slot`, reaped; then a new one.
    pub async fn kill_and_restart(&mut self, slot: usize) {
        let s = &mut self.slots[slot];
        let mut child = s.child.take().expect("a running daemon");
        child.kill().expect("kill -9 wildt");
        self.incarnations[s.incarnation].killed_at = Some(self.clock.tick());
        child.wait().expect("reap wildt");
        self.start(slot).await;
    }

    /// Processes that ended on their own: each is written down (with its
    /// log's last lines) and its place filled again.
    pub async fn restart_the_exited(&mut self) {
        for slot in 0..self.slots.len() {
            let s = &mut self.slots[slot];
            let Some(child) = s.child.as_mut() else {
                continue;
            };
            if let Some(status) = child.try_wait().expect("wait for wildt") {
                s.child = None;
                if slot == 0
                    && !self.crashed_at_the_point
                    && tail(&s.log, 3).contains(&format!("failpoint {CRASH_POINT} reached"))
                {
                    self.crashed_at_the_point = true;
                    self.incarnations[s.incarnation].killed_at = Some(self.clock.tick());
                    println!(
                        "pg_fault: daemon 0 (process {}) aborted at {CRASH_POINT}, after the \
                         relay took a batch and before marking it sent",
                        s.incarnation
                    );
                    self.start(slot).await;
                    continue;
                }
                let pid = self.incarnations[s.incarnation].pid;
                self.exits.push(format!(
                    "daemon {slot} (process {}, pid {pid}) ended by itself ({status}):\n{}",
                    s.incarnation,
                    tail(&s.log, 15)
                ));
                self.start(slot).await;
            }
        }
    }

    /// SIGTERM to every daemon, then each waited for (bounded): the exit
    /// statuses that were not success, with the logs' last lines.
    pub async fn stop_all(&mut self, within: Duration) -> Vec<String> {
        let mut failures = Vec::new();
        for s in &self.slots {
            if let Some(child) = &s.child {
                let status = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status()
                    .expect("run kill");
                assert!(status.success(), "kill -TERM failed");
            }
        }
        let deadline = Instant::now() + within;
        for (slot, s) in self.slots.iter_mut().enumerate() {
            let Some(mut child) = s.child.take() else {
                continue;
            };
            let status = loop {
                if let Some(status) = child.try_wait().expect("wait for wildt") {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    child.kill().expect("kill wildt");
                    child.wait().expect("reap wildt");
                    break None;
                }
                tokio::time::sleep(POLL).await;
            };
            match status {
                Some(status) if status.success() => {}
                other => failures.push(format!(
                    "daemon {slot} did not stop cleanly on SIGTERM ({other:?}):\n{}",
                    tail(&s.log, 15)
                )),
            }
        }
        failures
    }

    /// Where the daemons' logs are (`daemon-N.log`), for a run watched by hand.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A daemon whose log outgrew `max` bytes (one that logs in a loop),
    /// with the log's last lines: a run stops before it fills the disk.
    pub fn runaway_log(&self, max: u64) -> Option<String> {
        self.slots.iter().enumerate().find_map(|(i, s)| {
            let len = std::fs::metadata(&s.log).map_or(0, |m| m.len());
            (len > max)
                .then(|| format!("daemon {i}'s log holds {len} bytes:\n{}", tail(&s.log, 30)))
        })
    }

    /// The last lines of every daemon's log.
    pub fn tails(&self, lines: usize) -> String {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                format!(
                    "--- daemon {i}, last {lines} lines:\n{}",
                    tail(&s.log, lines)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for s in &mut self.slots {
            if let Some(mut child) = s.child.take() {
                // A failed test leaves no daemon behind; errors change nothing.
                if child.kill().is_ok() {
                    child.wait().ok();
                }
            }
        }
    }
}

/// The rig account the copies of the mail sent go to (`[receipts]`).
pub const RECEIPTS: &str = "p51@example.org";

/// How long a mail in doubt waits for its receipt: the rig delivers a
/// copy within a second.
const RECEIPT_WAIT_SECS: u64 = 15;

/// The `[outbox]` section: SMTP to `port` on the rig's host.
fn outbox(rig: &Rig, port: u16) -> String {
    format!(
        "\n[outbox]\nkind = \"smtp\"\nhost = {}\nport = {port}\ntls = \"none\"\n\
         retry_initial_secs = 1\nretry_max_secs = 2\n",
        toml_str(&rig.host)
    )
}

/// The last `lines` lines of a file.
pub fn tail(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Restarts the test PostgreSQL (`pg_ctl restart -m fast`, as the postgres
/// user): every session is ended and the server is down until it has
/// started again. The server keeps the options it was started with
/// (`postmaster.opts`); its log goes where scripts/pg-rig/start.sh puts it.
/// Blocking; returns how long the server was away.
pub fn restart_postgres() -> Duration {
    let var = |name: &str| {
        std::env::var(name).unwrap_or_else(|_| {
            panic!(
                "{name} is not set: source the test PostgreSQL's env file (scripts/pg-rig/start.sh)"
            )
        })
    };
    let (root, bin) = (var("WILDT_PG_ROOT"), var("WILDT_PG_BIN"));
    // Not pipes: the server started by pg_ctl inherits them and would hold
    // them open (and the wait for pg_ctl) for as long as it runs.
    let out = tempfile::NamedTempFile::new().expect("temp file");
    let started = Instant::now();
    let status = Command::new("runuser")
        .args(["-u", "postgres", "--"])
        .arg(format!("{bin}/pg_ctl"))
        .args(["-D", &format!("{root}/data")])
        .args(["-l", &format!("{root}/server.log")])
        .args(["-m", "fast", "-w", "-t", "60", "restart"])
        .stdin(Stdio::null())
        .stdout(out.reopen().expect("reopen temp file"))
        .stderr(out.reopen().expect("reopen temp file"))
        .status()
        .expect("run pg_ctl restart (the test runs as root)");
    assert!(
        status.success(),
        "pg_ctl restart failed ({status}): {}",
        std::fs::read_to_string(out.path()).unwrap_or_default()
    );
    started.elapsed()
}
