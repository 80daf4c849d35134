//! Power cuts: `wildt serve` runs a burst of moves with its database (and
//! WAL), its Maildir inbox and its file outbox on LazyFS, a file system
//! whose unsynced data can be dropped as a power cut drops it. At a random
//! moment, or at an exact one (LazyFS's injection at the Nth `fsync` of
//! the WAL, its crash fault before a message is moved to `cur/`, a crash
//! point of a debug build), the cache is dropped and
//! wildt killed in the same instant; LazyFS is mounted again and what is
//! on its disk checked before wildt starts again. [IO: FUSE mounts
//! (scripts/lazyfs.sh builds and mounts LazyFS), processes, the mail rig
//! for the SMTP path]
//!
//! What must hold after every cut ([`State::broken`]): every move whose
//! confirmation exists (a whole reply file, a mail the relay accepted) is
//! in the database; no move is applied twice and no decision's mail is
//! queued twice; every message that arrived is handled or still waiting,
//! and none is in `cur/` unless its outcome is committed; no reply file is
//! empty or cut short; `PRAGMA integrity_check` is `ok`, and the daemon
//! starts again.

mod lazyfs;
mod maildir;
mod smtp;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lazyfs::LazyFs;

use crate::e2e::{numbered, random_line};
use crate::support::club::mail;

/// A club whose state is all on LazyFS: database, Maildir, file outbox.
/// Its configuration and wildt's log are beside the mount, not on it.
pub struct Club {
    pub fs: LazyFs,
    pub cfg: PathBuf,
    pub games: Vec<Game>,
    /// What was delivered, in order.
    pub delivered: Vec<Delivered>,
    /// Spawns of `wildt serve` so far (each has its own log).
    serves: usize,
    tally: std::sync::Mutex<Tally>,
}

pub struct Game {
    pub id: i64,
    pub white: (String, String),
    pub black: (String, String),
    pub line: Vec<String>,
}

pub struct Delivered {
    pub name: String,
    pub message_id: String,
}

impl Club {
    /// A club with `games` games of `plies` plies each (seeded random
    /// lines), between `white` and `black`, mail going out by `outbox`
    /// (the lines of the `[outbox]` section; `None`: the file outbox).
    pub fn new(
        games: usize,
        plies: usize,
        seed: u64,
        players: (&str, &str),
        outbox: Option<&str>,
    ) -> Club {
        let fs = LazyFs::mount();
        let mnt = fs.mnt();
        let mut text = wildt::config::LOCAL_TOML
            .replace("var/wildt.db", &mnt.join("wildt.db").display().to_string())
            .replace("var/mail", &mnt.join("mail").display().to_string())
            .replace("var/outbox", &mnt.join("outbox").display().to_string());
        if let Some(outbox) = outbox {
            let file = format!(
                "kind = \"file\"\npath = \"{}\"\n",
                mnt.join("outbox").display()
            );
            assert!(text.contains(&file), "the embedded outbox section changed");
            text = text.replace(&file, outbox);
        }
        let cfg = fs.outside().join("wildt.toml");
        std::fs::write(&cfg, text).unwrap();
        let mut club = Club {
            fs,
            cfg,
            games: Vec::new(),
            delivered: Vec::new(),
            serves: 0,
            tally: Default::default(),
        };
        for i in 0..games {
            let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
                .args([
                    "game",
                    "new",
                    "--no-mail",
                    "--white",
                    players.0,
                    "--black",
                    players.1,
                    "--json",
                    "--config",
                ])
                .arg(&club.cfg)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            club.games.push(Game {
                id: v["id"].as_i64().unwrap(),
                white: (
                    players.0.to_owned(),
                    v["white"]["address"].as_str().unwrap().to_owned(),
                ),
                black: (
                    players.1.to_owned(),
                    v["black"]["address"].as_str().unwrap().to_owned(),
                ),
                line: random_line(seed + i as u64, plies),
            });
        }
        club
    }

    /// Delivers the next `n` moves in round-robin order (every game's
    /// first ply, then every game's second...), as a delivery agent does:
    /// written in `tmp/`, synced, renamed into `new/`. Returns how many.
    pub fn deliver_next(&mut self, n: usize) -> usize {
        let games = self.games.len();
        let mail_dir = self.fs.mnt().join("mail");
        for sub in ["tmp", "new", "cur"] {
            std::fs::create_dir_all(mail_dir.join(sub)).unwrap();
        }
        let mut done = 0;
        while done < n {
            let k = self.delivered.len();
            let (game, ply) = (k % games, k / games);
            let Some(mv) = self.games[game].line.get(ply) else {
                break;
            };
            let g = &self.games[game];
            // The seat to move writes to its own game address.
            let seat = if ply % 2 == 0 { &g.white } else { &g.black };
            let message_id = format!("pc-{}-{ply}@players.example", g.id);
            let raw = mail(&seat.0, &seat.1, &message_id, &numbered(ply, mv));
            let name = format!("{k:06}.pc");
            let tmp = mail_dir.join("tmp").join(&name);
            let mut f = std::fs::File::create(&tmp).unwrap();
            f.write_all(raw.as_bytes()).unwrap();
            f.sync_all().unwrap();
            std::fs::rename(&tmp, mail_dir.join("new").join(&name)).unwrap();
            self.delivered.push(Delivered { name, message_id });
            done += 1;
        }
        if done > 0 {
            std::fs::File::open(mail_dir.join("new"))
                .unwrap()
                .sync_all()
                .unwrap();
        }
        done
    }

    /// `wildt serve`, its output to a log beside the mount; with the crash
    /// point `failpoint` set if given.
    pub fn spawn(&mut self, failpoint: Option<&str>) -> Child {
        self.serves += 1;
        let log = std::fs::File::create(self.log_path(self.serves)).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_wildt"));
        cmd.args(["serve", "--config"])
            .arg(&self.cfg)
            .env("RUST_LOG", "wildt=info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(log);
        if let Some(point) = failpoint {
            cmd.env("WILDT_FAILPOINT", point);
        }
        cmd.spawn().unwrap()
    }

    fn log_path(&self, n: usize) -> PathBuf {
        self.fs.outside().join(format!("serve-{n}.log"))
    }

    /// The last `wildt serve`'s log.
    pub fn last_log(&self) -> String {
        std::fs::read_to_string(self.log_path(self.serves)).unwrap_or_default()
    }

    /// `wildt serve --once` on the mounted state: takes what waits, sends
    /// what is due; its counts line.
    pub fn serve_once(&self) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--once", "--config"])
            .arg(&self.cfg)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        // Its log beside the cut runs' (`serve-N.log`).
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.fs.outside().join("serve-once.log"))
            .unwrap();
        std::io::Write::write_all(&mut log, &out.stderr).unwrap();
        assert!(
            out.status.success(),
            "wildt serve --once after the cuts: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Reads what is on the (mounted) disk: the database and the folders.
    pub async fn read(&self) -> State {
        let mnt = self.fs.mnt();
        let url = format!("sqlite://{}", mnt.join("wildt.db").display());
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(&pool)
            .await
            .unwrap();
        let messages: Vec<(i64, Option<String>)> =
            sqlx::query_as("SELECT id, message_id FROM messages")
                .fetch_all(&pool)
                .await
                .unwrap();
        let moves: Vec<(i64, i64, String, Option<i64>)> =
            sqlx::query_as("SELECT game_id, ply, iccf, message FROM moves ORDER BY game_id, ply")
                .fetch_all(&pool)
                .await
                .unwrap();
        let outbox: Vec<(Option<i64>, String, Option<i64>)> =
            sqlx::query_as("SELECT message, message_id, sent_at FROM outbox")
                .fetch_all(&pool)
                .await
                .unwrap();
        pool.close().await;
        let names = |sub: &str| -> HashSet<String> {
            match std::fs::read_dir(mnt.join("mail").join(sub)) {
                Ok(rd) => rd
                    .map(|e| {
                        let name = e.unwrap().file_name().to_string_lossy().into_owned();
                        // The base name: before the flags and any `.n` a
                        // taken name was given.
                        let base = name.split_once(':').map_or(&*name, |(b, _)| b);
                        base.find(".pc").map_or(base, |i| &base[..i + 3]).to_owned()
                    })
                    .collect(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => HashSet::new(),
                Err(e) => panic!("{sub}: {e}"),
            }
        };
        let mut files = BTreeMap::new();
        if let Ok(rd) = std::fs::read_dir(mnt.join("outbox")) {
            for e in rd {
                let path = e.unwrap().path();
                if path.extension().is_some_and(|x| x == "eml") {
                    files.insert(path.clone(), std::fs::read(&path).unwrap());
                }
            }
        }
        State {
            integrity,
            messages: messages
                .into_iter()
                .map(|(id, mid)| (id, mid.map(|m| m.trim_matches(['<', '>']).to_owned())))
                .collect(),
            moves,
            outbox,
            new: names("new"),
            cur: names("cur"),
            quarantined: names(".wildt-failed/cur"),
            files,
        }
    }
}

/// What a cut left on the disk.
pub struct State {
    pub integrity: String,
    /// (row id, Message-ID without angle brackets).
    pub messages: Vec<(i64, Option<String>)>,
    /// (game, ply, move, message row).
    pub moves: Vec<(i64, i64, String, Option<i64>)>,
    /// (message row, Message-ID, sent at).
    pub outbox: Vec<(Option<i64>, String, Option<i64>)>,
    pub new: HashSet<String>,
    pub cur: HashSet<String>,
    pub quarantined: HashSet<String>,
    /// The file outbox: every `.eml` and its bytes.
    pub files: BTreeMap<PathBuf, Vec<u8>>,
}

/// Why a reply file is not whole, if it is not: empty, zero bytes where
/// the page was dropped, no Message-ID, or its MIME parts not closed.
pub fn not_whole(raw: &[u8]) -> Option<String> {
    if raw.is_empty() {
        return Some("empty".into());
    }
    if raw.contains(&0) {
        return Some("holds zero bytes (a page that never reached the disk)".into());
    }
    if !raw.ends_with(b"\r\n") {
        return Some("does not end with a line break".into());
    }
    use mail_parser::MimeHeaders as _;
    let Some(parsed) = mail_parser::MessageParser::default().parse(raw) else {
        return Some("not a mail".into());
    };
    if parsed.message_id().is_none() {
        return Some("no Message-ID".into());
    }
    let text = String::from_utf8_lossy(raw);
    for line in text.lines() {
        if let Some(b) = line.trim().strip_prefix("boundary=") {
            let b = b.trim_end_matches(';').trim_matches('"');
            if !text.contains(&format!("--{b}--")) {
                return Some(format!("MIME part {b} not closed"));
            }
        }
    }
    if let Some(ct) = parsed.content_type()
        && let Some(b) = ct.attribute("boundary")
        && !text.contains(&format!("--{b}--"))
    {
        return Some(format!("MIME boundary {b} not closed"));
    }
    None
}

fn message_id_of(raw: &[u8]) -> Option<String> {
    mail_parser::MessageParser::default()
        .parse(raw)?
        .message_id()
        .map(str::to_owned)
}

impl State {
    /// The invariants of a cut; `file_outbox` when mail goes to the
    /// file outbox (whose files are then the confirmations). Returns the
    /// broken ones, each a line.
    pub fn broken(&self, club: &Club, file_outbox: bool) -> Vec<String> {
        let mut broken = Vec::new();
        if self.integrity != "ok" {
            broken.push(format!("integrity_check: {}", self.integrity));
        }
        let by_mid: HashMap<&str, i64> = self
            .messages
            .iter()
            .filter_map(|(id, mid)| Some((mid.as_deref()?, *id)))
            .collect();
        // Each message recorded is one move, the delivered one, at its ply;
        // and every game's moves are its line's first moves.
        let mut moves_of: HashMap<i64, usize> = HashMap::new();
        for (id, mid) in &self.messages {
            let n = self.moves.iter().filter(|m| m.3 == Some(*id)).count();
            if n != 1 {
                broken.push(format!("message {mid:?} recorded with {n} moves"));
            }
        }
        for (game, ply, iccf, _) in &self.moves {
            let g = club
                .games
                .iter()
                .find(|g| g.id == *game)
                .expect("a game of the club");
            let at = usize::try_from(*ply - 1).unwrap();
            *moves_of.entry(*game).or_default() += 1;
            if g.line.get(at) != Some(iccf) {
                broken.push(format!(
                    "game {game} ply {ply}: {iccf}, not {:?}",
                    g.line.get(at)
                ));
            }
        }
        for g in &club.games {
            let n = moves_of.get(&g.id).copied().unwrap_or(0);
            let plies: Vec<i64> = self
                .moves
                .iter()
                .filter(|m| m.0 == g.id)
                .map(|m| m.1)
                .collect();
            if plies != (1..=i64::try_from(n).unwrap()).collect::<Vec<_>>() {
                broken.push(format!("game {}: plies {plies:?}", g.id));
            }
        }
        // One decision, its two mails (the confirmation and the move
        // passed on), queued once.
        let mut rows_of: HashMap<i64, usize> = HashMap::new();
        for (message, _, _) in &self.outbox {
            if let Some(m) = message {
                *rows_of.entry(*m).or_default() += 1;
            }
        }
        for (id, mid) in &self.messages {
            let n = rows_of.get(id).copied().unwrap_or(0);
            if n != 2 {
                broken.push(format!("message {mid:?}: {n} mails queued, not 2"));
            }
        }
        // Every message that arrived is handled or waits; none is in cur/
        // unless its outcome is committed; none is quarantined.
        for d in &club.delivered {
            let handled = by_mid.contains_key(d.message_id.as_str());
            if !handled && !self.new.contains(&d.name) {
                broken.push(format!(
                    "{} ({}): neither handled nor waiting",
                    d.name, d.message_id
                ));
            }
            if !handled && self.cur.contains(&d.name) {
                broken.push(format!("{} in cur/ with no outcome recorded", d.name));
            }
            if self.quarantined.contains(&d.name) {
                broken.push(format!("{} quarantined", d.name));
            }
        }
        if file_outbox {
            let queued: HashMap<&str, Option<i64>> = self
                .outbox
                .iter()
                .map(|(_, mid, sent)| (mid.as_str(), *sent))
                .collect();
            let mut whole_ids = HashSet::new();
            for (path, raw) in &self.files {
                let name = path.file_name().unwrap().to_string_lossy();
                if let Some(why) = not_whole(raw) {
                    broken.push(format!("reply file {name}: {why}"));
                    continue;
                }
                let mid = message_id_of(raw).unwrap();
                if !queued.contains_key(mid.as_str()) {
                    broken.push(format!(
                        "reply file {name}: its decision is not in the database"
                    ));
                }
                whole_ids.insert(mid);
            }
            for (_, mid, sent) in &self.outbox {
                if sent.is_some() && !whole_ids.contains(mid) {
                    broken.push(format!("mail {mid} marked sent: no whole reply file"));
                }
            }
        }
        broken
    }
}

/// How a cut is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cut {
    /// After a random delay from the start of `wildt serve`.
    Random,
    /// LazyFS dies right after the Nth `fsync` of the WAL: a commit (a
    /// group's decisions, or the outbox's marks of sent) is on the disk,
    /// and nothing done after it.
    AfterWalFsync,
    /// LazyFS dies right before an `fsync` of the WAL: the commit's frames
    /// written, not synced (the middle of a group commit).
    BeforeWalFsync,
    /// LazyFS dies right before a message is linked into `cur/` (LazyFS
    /// refuses `RENAME_NOREPLACE`, so wildt moves by a link and an unlink):
    /// its outcome committed, the message still in `new/`.
    BeforeMoveToCur,
    /// wildt stops at `group-committed:1` (committed, the inbox not told).
    AfterGroupCommit,
    /// wildt stops at `group-handled:2` (inside a group's transaction).
    InsideGroup,
    /// wildt stops at `batch-sent:1`: the relay took its first batch of
    /// mail, none of it marked sent.
    AfterRelayTook,
}

impl Cut {
    fn injection(self, fs: &LazyFs, n: u32) -> Option<String> {
        let timing = match self {
            Cut::AfterWalFsync => "after",
            Cut::BeforeWalFsync => "before",
            _ => return None,
        };
        Some(format!(
            "[[injection]]\ntype=\"clear-cache\"\nfrom=\"{}\"\ntiming=\"{timing}\"\nop=\"fsync\"\noccurrence={n}\ncrash=true\n",
            fs.backing("wildt.db-wal").display()
        ))
    }

    /// Sets up what LazyFS needs for this cut, on a mount just made and
    /// checked: an injection needs a mount of its own (it is read at the
    /// mount); a crash fault is given through the FIFO.
    pub fn arm(self, fs: &LazyFs, rng: &mut impl rand::Rng) {
        if let Some(injection) = self.injection(fs, rng.random_range(1..=4)) {
            fs.cut();
            fs.set_injection(Some(&injection));
            fs.remount();
            fs.set_injection(None);
        }
        if self == Cut::BeforeMoveToCur {
            fs.crash_before("link", "/mail/new/", "/mail/cur/");
        }
    }

    fn failpoint(self) -> Option<&'static str> {
        match self {
            Cut::AfterGroupCommit => Some("group-committed:1"),
            Cut::InsideGroup => Some("group-handled:2"),
            Cut::AfterRelayTook => Some("batch-sent:1"),
            _ => None,
        }
    }
}

/// Runs `wildt serve` once and cuts it as `cut` says; returns whether the
/// cut came as asked (an injection that never fired, a crash point never
/// reached, is a plain cut at the end of the wait).
pub fn run_and_cut(club: &mut Club, cut: Cut, delay: Duration) -> bool {
    let mut serve = club.spawn(cut.failpoint());
    let exact = match cut {
        Cut::Random => {
            std::thread::sleep(delay);
            true
        }
        Cut::AfterWalFsync | Cut::BeforeWalFsync | Cut::BeforeMoveToCur => {
            let deadline = Instant::now() + Duration::from_secs(10);
            while club.fs.alive() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            club.fs.injection_fired()
        }
        Cut::AfterGroupCommit | Cut::InsideGroup | Cut::AfterRelayTook => {
            let deadline = Instant::now() + Duration::from_secs(10);
            while serve.try_wait().unwrap().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            club.last_log().contains("reached; aborting")
        }
    };
    // The power goes: wildt and the unsynced pages in the same instant.
    serve.kill().unwrap();
    club.fs.cut();
    serve.wait().unwrap();
    // The daemon started on what the last cut left and met no error until
    // this one (an injection's cut ends the file system under it first:
    // its errors then are the cut's).
    if cut == Cut::Random {
        let log = club.last_log();
        assert!(
            !log.contains(" ERROR "),
            "wildt met an error after a cut:\n{log}"
        );
    }
    exact
}

/// The state must be whole after the cut; panics with what broke. With
/// `WILDT_POWERCUT_TALLY=1` it only counts, in the club's [`Tally`], the
/// cuts that break each kind of invariant, so that a run before a fix
/// says how many cuts fail and how.
pub async fn assert_whole(club: &Club, file_outbox: bool, what: &str) -> State {
    let state = club.read().await;
    let broken = state.broken(club, file_outbox);
    if tallying() {
        club.tally.lock().unwrap().add(&broken);
        return state;
    }
    assert!(
        broken.is_empty(),
        "after {what}: {} invariants broken:\n{}\nwildt's last log:\n{}",
        broken.len(),
        broken.join("\n"),
        club.last_log()
    );
    state
}

fn tallying() -> bool {
    std::env::var("WILDT_POWERCUT_TALLY").is_ok_and(|v| v == "1")
}

/// What broke, counted by kind (a failure's line without the names in
/// it): in how many states checked, and after how many cuts anew (a
/// failure not seen after an earlier cut: an empty file stays empty).
#[derive(Default)]
pub struct Tally {
    states: usize,
    broken_in: BTreeMap<String, usize>,
    broken_anew: BTreeMap<String, usize>,
    seen: HashSet<String>,
}

impl Tally {
    fn add(&mut self, broken: &[String]) {
        self.states += 1;
        let kind = |b: &String| {
            b.rsplit_once(": ")
                .map_or(b.as_str(), |(_, why)| why)
                .to_owned()
        };
        let kinds: std::collections::BTreeSet<String> = broken.iter().map(kind).collect();
        for k in kinds {
            *self.broken_in.entry(k).or_default() += 1;
        }
        let anew: std::collections::BTreeSet<String> = broken
            .iter()
            .filter(|b| !self.seen.contains(*b))
            .map(kind)
            .collect();
        for k in anew {
            *self.broken_anew.entry(k).or_default() += 1;
        }
        self.seen.extend(broken.iter().cloned());
    }
}

/// After the last run: every delivered message decided once and moved to
/// `cur/` under its own name, none waiting, and every queued mail sent.
pub fn assert_all_taken(club: &Club, state: &State, line: &str) {
    assert_eq!(state.messages.len(), club.delivered.len(), "{line}");
    assert!(
        state.outbox.iter().all(|r| r.2.is_some()),
        "mail left unsent"
    );
    assert!(
        state.new.is_empty(),
        "messages still waiting: {:?}",
        state.new
    );
    let in_cur = club
        .delivered
        .iter()
        .filter(|d| state.cur.contains(&d.name))
        .count();
    assert_eq!(in_cur, club.delivered.len(), "messages not moved to cur/");
}

impl Club {
    /// Under `WILDT_POWERCUT_TALLY=1`: prints the tally, and fails if
    /// any cut broke an invariant.
    pub fn assert_tally_clean(&self, what: &str) {
        if !tallying() {
            return;
        }
        let t = self.tally.lock().unwrap();
        println!(
            "{what}: {} states checked; states that broke each invariant: {:?}; cuts that broke it anew: {:?}",
            t.states, t.broken_in, t.broken_anew
        );
        assert!(
            t.broken_in.is_empty(),
            "{what}: invariants broken: {:?}",
            t.broken_in
        );
    }
}
