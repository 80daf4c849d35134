//! End-to-end scenarios: the real `wildt` binary as a separate process
//! (`wildt serve --config FILE`) against the mail rig's Dovecot and Postfix.
//! Players are plain SMTP clients (or IMAP APPEND, for bursts), and what wildt
//! sends is read back from the players' IMAP mailboxes. [IO: processes,
//! network, temp files]
//!
//! Isolation: tests run in parallel in one binary, so each test owns a referee
//! account and its players among the rig's `p01..p80@example.org`, and empties
//! their INBOXes first. Accounts: seen_elsewhere p01-p02 (black is the
//! referee's own account: its relays are not counted), whole_game p05-p07,
//! many_games p08-p12, bad_input p13-p16, crash p17-p21, outage (SMTP)
//! p22-p24, outage (IMAP) p25-p27, uidvalidity p28-p30, graceful_stop
//! p31-p35, sender_auth p36-p38, two_games p39-p40 with p03-p04, fair_intake
//! p41-p47, send_rate p48-p50, operator p67-p69; outside e2e: xfcc_clients
//! (the mixed game) p53-p54, powercut (SMTP) p60-p61, tablebase (its mail
//! test) p70-p72.
//!
//! The disruptive scenarios (they stop the rig's servers) live in
//! [`outage`]; `scripts/test.sh` runs them alone, after everything else.

mod bad_input;
mod clock;
mod crash;
mod fair_intake;
mod graceful_stop;
mod many_games;
mod operator;
pub mod outage;
mod seen_elsewhere;
mod send_rate;
mod sender_auth;
mod smtp_login;
mod two_games;
mod uidvalidity;
mod whole_game;

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use serde_json::Value;
use shakmaty::{Chess, Position};
use tempfile::TempDir;
use wildt::notation::IccfMove;

use crate::support::fixtures::unique;
use crate::support::rig::{Reader, Rig, Seen, default_password, toml_str};

/// How often a waiting test looks again.
pub const POLL: Duration = Duration::from_millis(100);

/// The rig account `pNN@example.org`.
pub fn player(n: u32) -> String {
    format!("p{n:02}@example.org")
}

/// What differs between the tests' referee configurations.
#[derive(Debug, Clone)]
pub struct Options {
    /// The referee's folder (default INBOX).
    pub mailbox: String,
    pub max_message_bytes: Option<usize>,
    /// Lines of the `[security]` section, if any.
    pub security: Option<String>,
    /// `[outbox] send_rate`, if any.
    pub send_rate: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            mailbox: "INBOX".to_owned(),
            max_message_bytes: None,
            security: None,
            send_rate: None,
        }
    }
}

/// A referee: its configuration (IMAPS with IDLE in, SMTP out) and database
/// in a temp dir, and the commands run against them.
pub struct Referee {
    pub rig: Rig,
    pub config: PathBuf,
    pub db: PathBuf,
    /// The PostgreSQL database's URL (without password) on the PostgreSQL
    /// pass; `db` is then not used.
    pub pg: Option<String>,
    log: PathBuf,
    _dir: TempDir,
}

/// A game as `wildt game new --json` printed it.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub white_address: String,
    pub black_address: String,
}

impl Referee {
    pub fn new(rig: &Rig, address: &str, options: Options) -> Referee {
        let dir = tempfile::tempdir().expect("temp dir");
        let password = dir.path().join("imap-password");
        std::fs::write(&password, format!("{}\n", default_password(address)))
            .expect("password file");
        let db = dir.path().join("wildt.db");
        // An SQLite file beside the configuration, or on the PostgreSQL pass
        // a fresh database of the test PostgreSQL.
        let database = crate::support::cli::database_table(dir.path());
        let pg = crate::support::cli::on_postgres().then(|| {
            database
                .lines()
                .find_map(|l| l.strip_prefix("url = \"")?.strip_suffix('"'))
                .expect("the [database] table's url")
                .to_owned()
        });
        let q = toml_str;
        let mut text = format!(
            "[referee]\naddress = {address}\nname = \"e2e referee\"\n\n\
             {database}\n\
             [inbox]\nkind = \"imap\"\nhost = {host}\nport = {imaps}\ntls = \"implicit\"\n\
             ca_file = {ca}\nusername = {address}\npassword_file = {password}\n\
             mailbox = {mailbox}\nidle = true\npoll_interval_secs = 5\n\n\
             [outbox]\nkind = \"smtp\"\nhost = {host}\nport = {smtp}\ntls = \"none\"\n\
             retry_initial_secs = 1\nretry_max_secs = 2\n{send_rate}\n\
             [limits]\n\
             # Players here send dozens of moves a minute (the crash test's\n\
             # 75 each); the hourly reply limit (60) is for autoresponders.\n\
             replies_per_sender_per_hour = 100000\n",
            address = q(address),
            host = q(&rig.host),
            imaps = rig.imaps_port,
            ca = q(&rig.ca.display().to_string()),
            password = q(&password.display().to_string()),
            mailbox = q(&options.mailbox),
            smtp = rig.smtp_port,
            send_rate = options
                .send_rate
                .map_or_else(String::new, |r| format!("send_rate = {r}\n")),
        );
        if let Some(max) = options.max_message_bytes {
            text.push_str(&format!("max_message_bytes = {max}\n"));
        }
        if let Some(security) = &options.security {
            text.push_str(&format!("\n[security]\n{security}\n"));
        }
        let config = dir.path().join("wildt.toml");
        std::fs::write(&config, text).expect("write config");
        Referee {
            rig: rig.clone(),
            config,
            db,
            pg,
            log: dir.path().join("serve.log"),
            _dir: dir,
        }
    }

    /// `wildt ARGS --config FILE`, waited for.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(args)
            .arg("--config")
            .arg(&self.config)
            .env("NO_COLOR", "1")
            .output()
            .expect("run wildt")
    }

    fn run_ok(&self, args: &[&str]) -> Output {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "wildt {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Creates a game; with `mail`, the opening mails wait in the outbox.
    pub fn new_game(&self, white: &str, black: &str, mail: bool) -> Game {
        let mut args = vec!["game", "new", "--white", white, "--black", black, "--json"];
        if !mail {
            args.push("--no-mail");
        }
        let v: Value = serde_json::from_slice(&self.run_ok(&args).stdout).expect("game json");
        Game {
            id: v["id"].as_i64().expect("id"),
            white: white.to_owned(),
            black: black.to_owned(),
            white_address: v["white"]["address"].as_str().expect("address").to_owned(),
            black_address: v["black"]["address"].as_str().expect("address").to_owned(),
        }
    }

    pub fn show(&self, id: i64) -> Value {
        serde_json::from_slice(
            &self
                .run_ok(&["game", "show", &id.to_string(), "--json"])
                .stdout,
        )
        .expect("show json")
    }

    /// The game's record as ICCF moves.
    pub fn moves(&self, id: i64) -> Vec<String> {
        self.show(id)["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["iccf"].as_str().expect("iccf").to_owned())
            .collect()
    }

    pub fn pgn(&self, id: i64) -> String {
        String::from_utf8(self.run_ok(&["game", "pgn", &id.to_string()]).stdout).expect("utf-8")
    }

    /// `wildt serve --once`: its summary line.
    pub fn serve_once(&self) -> String {
        let out = self.run(&["serve", "--once"]);
        assert!(
            out.status.success(),
            "serve --once failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Starts `wildt serve`; its stderr is appended to this referee's log.
    pub fn spawn(&self) -> Serve {
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("open serve log");
        let child = Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--config"])
            .arg(&self.config)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("spawn wildt serve");
        Serve {
            child: Some(child),
            log: self.log.clone(),
        }
    }

    /// Everything the served processes wrote to stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits (bounded) until the serve log holds `needle` `count` times.
    pub async fn wait_log(&self, needle: &str, count: usize, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let n = self.log().matches(needle).count();
            if n >= count {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the serve log did not show {needle:?} {count} times within {within:?} (saw {n}):\n{}",
                self.log()
            );
            tokio::time::sleep(POLL).await;
        }
    }

    /// Whether wildt's database exists yet (a PostgreSQL one from the start).
    pub fn has_db(&self) -> bool {
        self.pg.is_some() || self.db.exists()
    }

    /// A look at wildt's database (read-only on SQLite), on either backend
    /// (bind `$1, $2…`).
    pub async fn db(&self) -> sqlx::AnyPool {
        use std::str::FromStr as _;
        sqlx::any::install_default_drivers();
        let options = match &self.pg {
            Some(url) => {
                let mut options = sqlx::any::AnyConnectOptions::from_str(url).expect("a URL");
                options
                    .database_url
                    .set_password(Some(&crate::support::pg::password()))
                    .expect("a URL that holds a password");
                options
            }
            None => sqlx::any::AnyConnectOptions::from_str(&format!(
                "sqlite://{}?mode=ro",
                self.db.display()
            ))
            .expect("an SQLite URL"),
        };
        sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .expect("open the referee's database")
    }

    /// Rows of the `messages` table (messages decided, duplicates excluded).
    pub async fn messages_recorded(&self) -> i64 {
        if !self.has_db() {
            return 0;
        }
        let pool = self.db().await;
        // A wildt killed before its first migration leaves a database without
        // the table: nothing decided yet.
        let n = sqlx::query_scalar("SELECT COUNT(*) FROM messages")
            .fetch_one(&pool)
            .await
            .unwrap_or(0);
        pool.close().await;
        n
    }
}

/// A running `wildt serve`; killed (SIGKILL) if still running when dropped.
pub struct Serve {
    child: Option<Child>,
    log: PathBuf,
}

impl Serve {
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// SIGKILL, and reap it.
    pub fn kill9(&mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("kill -9 wildt");
        child.wait().expect("reap wildt");
    }

    /// SIGTERM, then wait (bounded) for it to exit.
    pub async fn terminate(&mut self, within: Duration) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM failed");
        let mut child = self.child.take().expect("running");
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = child.try_wait().expect("wait for wildt") {
                return status;
            }
            if Instant::now() >= deadline {
                child.kill().expect("kill wildt");
                panic!(
                    "wildt did not exit within {within:?} of SIGTERM:\n{}",
                    std::fs::read_to_string(&self.log).unwrap_or_default()
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // A failed test leaves no referee behind; errors here change nothing.
            if child.kill().is_ok() {
                child.wait().ok();
            }
        }
    }
}

/// A mail as a player (or the referee) received it, parsed.
#[derive(Debug, Clone)]
pub struct Mail {
    pub message_id: Option<String>,
    /// The mail's kind (`X-Wildt-Event`).
    pub kind: Option<String>,
    pub game: Option<i64>,
    pub subject: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub reply_to: Option<String>,
    pub text: String,
}

fn strip_angles(s: &str) -> String {
    s.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned()
}

fn ids(value: &mail_parser::HeaderValue<'_>) -> Vec<String> {
    match value {
        mail_parser::HeaderValue::Text(t) => vec![strip_angles(t)],
        mail_parser::HeaderValue::TextList(list) => list.iter().map(|t| strip_angles(t)).collect(),
        _ => Vec::new(),
    }
}

impl Mail {
    pub fn parse(seen: Seen) -> Mail {
        let parsed = mail_parser::MessageParser::default()
            .parse(&seen.raw)
            .unwrap_or_else(|| panic!("unparsable mail: {}", String::from_utf8_lossy(&seen.raw)));
        let header = |name: &str| parsed.header_raw(name).map(|v| v.trim().to_owned());
        Mail {
            message_id: parsed.message_id().map(strip_angles),
            kind: header("X-Wildt-Event"),
            game: header("X-Wildt-Game").and_then(|g| g.parse().ok()),
            subject: parsed.subject().unwrap_or_default().to_owned(),
            in_reply_to: ids(parsed.in_reply_to()).into_iter().next(),
            references: ids(parsed.references()),
            reply_to: parsed
                .reply_to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .map(str::to_owned),
            text: parsed
                .body_text(0)
                .map(|t| t.into_owned())
                .unwrap_or_default(),
        }
    }

    pub fn is(&self, kind: &str) -> bool {
        self.kind.as_deref() == Some(kind)
    }
}

/// Every mail in the folder, parsed.
pub async fn mails(reader: &mut Reader, folder: &str) -> Vec<Mail> {
    reader
        .messages(folder)
        .await
        .into_iter()
        .map(Mail::parse)
        .collect()
}

/// Waits (bounded) until at least `count` mails of the folder satisfy `pred`;
/// returns them.
pub async fn wait_mails(
    reader: &mut Reader,
    folder: &str,
    what: &str,
    count: usize,
    within: Duration,
    pred: impl Fn(&Mail) -> bool,
) -> Vec<Mail> {
    let deadline = Instant::now() + within;
    loop {
        let found: Vec<Mail> = mails(reader, folder)
            .await
            .into_iter()
            .filter(|m| pred(m))
            .collect();
        if found.len() >= count {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "{count} mail(s) {what} did not arrive in {folder} within {within:?} (found {})",
            found.len()
        );
        tokio::time::sleep(POLL).await;
    }
}

/// Logs in as each account and empties its INBOX; returns the readers.
pub async fn fresh_inboxes(rig: &Rig, accounts: &[&str]) -> Vec<Reader> {
    let mut readers = Vec::new();
    for a in accounts {
        let mut r = rig.reader(a).await;
        r.clear("INBOX").await;
        readers.push(r);
    }
    readers
}

/// The written form of the move at `ply` (0-based): `12. 5254` or `12... 5755`.
pub fn numbered(ply: usize, mv: &str) -> String {
    let n = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{n}. {mv}")
    } else {
        format!("{n}... {mv}")
    }
}

/// A player's move mail: plain text, CRLF, a unique Message-ID.
pub fn move_mail(from: &str, to: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <{}@players.example>\r\n\
         Date: Sun, 22 Nov 2026 04:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        unique("move")
    )
    .into_bytes()
}

/// The Message-ID a raw mail carries (without angle brackets).
pub fn message_id_of(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.message_id().map(strip_angles))
        .expect("a Message-ID")
}

/// A seeded random line of `plies` legal moves (ICCF) from the start position
/// that does not end the game.
pub fn random_line(seed: u64, plies: usize) -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    'again: loop {
        let mut pos = Chess::default();
        let mut line = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            let Some(m) = legal.choose(&mut rng).copied() else {
                continue 'again;
            };
            line.push(IccfMove::from_move(m).to_string());
            pos.play_unchecked(m);
        }
        if pos.is_game_over() {
            continue;
        }
        return line;
    }
}

/// The games' moves as one delivery order: every game's first ply, then every
/// game's second, ... (`(game index, ply)`), so per game the order holds.
pub fn round_robin(games: usize, plies: usize) -> Vec<(usize, usize)> {
    (0..plies)
        .flat_map(|p| (0..games).map(move |g| (g, p)))
        .collect()
}

/// Who plays `ply` of `game` and the game address they write to.
fn seat_to_move(game: &Game, ply: usize) -> (&str, &str) {
    if ply.is_multiple_of(2) {
        (&game.white, &game.white_address)
    } else {
        (&game.black, &game.black_address)
    }
}

/// The mail that plays `ply` of `line` in `game`, from the seat to move.
pub fn ply_mail(game: &Game, line: &[String], ply: usize) -> Vec<u8> {
    let (from, to) = seat_to_move(game, ply);
    move_mail(from, to, &numbered(ply, &line[ply]))
}

/// Sends [`ply_mail`] through the rig's SMTP port, from the seat to move.
pub async fn send_ply(rig: &Rig, game: &Game, line: &[String], ply: usize) {
    let (from, to) = seat_to_move(game, ply);
    rig.send(from, to, &ply_mail(game, line, ply)).await;
}

/// The counted result of a burst: mails of the referee's games in the players'
/// INBOXes.
#[derive(Debug, Default)]
pub struct Delivered {
    pub total: usize,
    pub distinct: usize,
    /// Extra copies of a Message-ID that already arrived.
    pub duplicates: usize,
}

/// Counts the game mails (`X-Wildt-Game` among `games`) in the readers' INBOXes.
pub async fn count_delivered(readers: &mut [Reader], games: &[i64]) -> (Delivered, Vec<Mail>) {
    let mut all = Vec::new();
    for r in readers.iter_mut() {
        all.extend(
            mails(r, "INBOX")
                .await
                .into_iter()
                .filter(|m| m.game.is_some_and(|g| games.contains(&g))),
        );
    }
    let mut ids: Vec<&str> = all
        .iter()
        .map(|m| {
            m.message_id
                .as_deref()
                .expect("every wildt mail has a Message-ID")
        })
        .collect();
    ids.sort_unstable();
    let total = ids.len();
    ids.dedup();
    let d = Delivered {
        total,
        distinct: ids.len(),
        duplicates: total - ids.len(),
    };
    (d, all)
}

/// Waits (bounded) until the readers hold `distinct` different game mails.
pub async fn wait_delivered(
    readers: &mut [Reader],
    games: &[i64],
    distinct: usize,
    within: Duration,
) -> (Delivered, Vec<Mail>) {
    let deadline = Instant::now() + within;
    loop {
        let (d, all) = count_delivered(readers, games).await;
        if d.distinct >= distinct {
            return (d, all);
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {distinct} distinct replies arrived within {within:?}",
            d.distinct
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Each game's confirmations and relays: one of each per ply, named by the
/// move in the subject, all to the right player.
pub fn assert_replies_match_lines(all: &[Mail], games: &[Game], lines: &[Vec<String>]) {
    for (g, line) in games.iter().zip(lines) {
        for (ply, mv) in line.iter().enumerate() {
            let played = numbered(ply, mv);
            for kind in ["move-accepted", "opponent-moved"] {
                let n = all
                    .iter()
                    .filter(|m| {
                        m.game == Some(g.id)
                            && m.is(kind)
                            && m.subject.contains(&format!("] {played} "))
                    })
                    .map(|m| m.message_id.clone())
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                assert_eq!(n, 1, "game {}: {kind} for {played}: {n} mails", g.id);
            }
        }
    }
}

/// Runs a rig control command (`scripts/mail-rig/ctl.sh`) on this test's rig.
pub fn rig_ctl(what: &str) {
    let root = std::env::var("WILDT_RIG_ROOT").expect("WILDT_RIG_ROOT");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/mail-rig/ctl.sh");
    // Not pipes: a server started by the script inherits its stdout and
    // stderr and would hold a pipe open (and `output()` waiting) forever.
    let errors = tempfile::NamedTempFile::new().expect("temp file");
    let status = Command::new(script)
        .arg(what)
        .env("MAILROOT", &root)
        .stdout(Stdio::null())
        .stderr(errors.reopen().expect("reopen temp file"))
        .status()
        .expect("run ctl.sh");
    assert!(
        status.success(),
        "ctl.sh {what} failed: {}",
        std::fs::read_to_string(errors.path()).unwrap_or_default()
    );
}

/// The outcome, detail and number of outbox rows of the message with this id,
/// once wildt has decided it.
pub async fn decided(r: &Referee, message_id: &str, within: Duration) -> (String, String, i64) {
    let deadline = Instant::now() + within;
    loop {
        if r.has_db() {
            let pool = r.db().await;
            let row: Option<(String, String, i64)> = sqlx::query_as(
                "SELECT m.outcome, m.detail, (SELECT COUNT(*) FROM outbox o WHERE o.message = m.id)
                 FROM messages m WHERE m.message_id = $1",
            )
            .bind(message_id)
            .fetch_optional(&pool)
            .await
            .expect("messages query");
            pool.close().await;
            if let Some(row) = row {
                return row;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{message_id} was not decided within {within:?}:\n{}",
            r.log()
        );
        tokio::time::sleep(POLL).await;
    }
}
