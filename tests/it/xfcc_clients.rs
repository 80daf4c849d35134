//! Real Xfcc clients against a running `wildt serve` with `[xfcc]`: Scid's
//! own Xfcc code (Debian's scid, driven by `tests/xfcc/scid/driver.tcl`) and
//! zeep (Debian's python3-zeep, `tests/xfcc/zeep_client.py`, its client built
//! from the WSDL the server serves) each play whole games; and a game played
//! half by mail over the mail rig and half by Xfcc, whose clocks agree in
//! GetMyGames, `wildt game show` and the mails. [IO: processes, network,
//! temp files]
//!
//! Nothing is skipped when a client is missing: the test fails and names
//! the script that installs it (scripts/test.sh).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::e2e::{Options, Referee, fresh_inboxes, move_mail, player};
use crate::support::cli::{json_of, wildt};
use crate::support::club::Club;
use crate::support::rig::{Reader, free_port};

/// Scid's Xfcc client, as Debian's scid-data installs it.
const SCID_XFCC: &str = "/usr/share/scid/tcl/tools/correspondence.tcl";
/// Debian's Python, the one python3-zeep is installed for.
const PYTHON: &str = "/usr/bin/python3";
const INSTALL: &str = "scripts/test.sh installs the Debian packages scid, tdom, tcllib and \
                       python3-zeep";

/// Bound on the server coming up and on mail arriving.
const WAIT: Duration = Duration::from_secs(30);

fn script(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Fails (never skips) when Scid's client or tclsh is missing.
fn require_scid() {
    for path in ["/usr/bin/tclsh", SCID_XFCC] {
        assert!(Path::new(path).exists(), "{path} is missing: {INSTALL}");
    }
}

/// Fails (never skips) when zeep is missing.
fn require_zeep() {
    let ok = Command::new(PYTHON)
        .args(["-c", "import zeep"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "zeep is missing for {PYTHON}: {INSTALL}");
}

/// Where a `wildt serve` answers Xfcc.
struct Xfcc {
    port: u16,
}

impl Xfcc {
    /// Adds `[xfcc]` on a free loopback port to the configuration `cfg`.
    fn configure(cfg: &Path) -> Xfcc {
        let port = free_port();
        let mut text = std::fs::read_to_string(cfg).expect("read config");
        text.push_str(&format!("\n[xfcc]\nlisten = \"127.0.0.1:{port}\"\n"));
        std::fs::write(cfg, text).expect("write config");
        Xfcc { port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/xfccbasic.asmx", self.port)
    }

    fn wsdl(&self) -> String {
        format!("{}?wsdl", self.url())
    }

    /// Waits (bounded) until the server accepts connections; `log` says why not.
    fn wait_ready(&self, log: impl Fn() -> String) {
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "wildt serve did not listen for Xfcc on {} within {WAIT:?}:\n{}",
                self.port,
                log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Sets `email`'s Xfcc password with `wildt player set --xfcc-password-file`;
/// returns it. The password has XML's special characters, which each client
/// must escape.
fn set_password(cfg: &Path, dir: &Path, email: &str) -> String {
    let password = format!("pw&<{}>'\"", email.split('@').next().unwrap_or(email));
    let file = dir.join(format!("xfcc-password-{email}"));
    std::fs::write(&file, format!("{password}\n")).expect("write password file");
    let out = wildt(
        cfg,
        &[
            "player",
            "set",
            email,
            "--xfcc-password-file",
            &file.display().to_string(),
        ],
    );
    assert!(
        out.status.success(),
        "wildt player set {email} --xfcc-password-file: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    password
}

/// A club on the embedded kind of setup (Maildir in, file outbox out) whose
/// `wildt serve` also answers Xfcc.
struct Server {
    club: Club,
    xfcc: Xfcc,
    serve: Child,
    log: PathBuf,
}

impl Server {
    fn start() -> Server {
        let club = Club::new();
        let xfcc = Xfcc::configure(&club.cfg);
        let log = club.dir.path().join("serve.log");
        let serve = Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--config"])
            .arg(&club.cfg)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("serve log"))
            .spawn()
            .expect("spawn wildt serve");
        let s = Server {
            club,
            xfcc,
            serve,
            log,
        };
        s.xfcc.wait_ready(|| s.log());
        s
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn password(&self, email: &str) -> String {
        set_password(&self.club.cfg, self.club.dir.path(), email)
    }

    /// A game made by the CLI, without opening mails; `extra` for `game new`.
    fn game(&self, white: &str, black: &str, extra: &[&str]) -> i64 {
        let mut args = vec![
            "game",
            "new",
            "--no-mail",
            "--white",
            white,
            "--black",
            black,
            "--json",
        ];
        args.extend_from_slice(extra);
        json_of(&wildt(&self.club.cfg, &args))["id"]
            .as_i64()
            .expect("game id")
    }

    fn show(&self, id: i64) -> Value {
        json_of(&wildt(
            &self.club.cfg,
            &["game", "show", &id.to_string(), "--json"],
        ))
    }

    /// Waits (bounded) until the file outbox holds a mail of game `game` of
    /// kind `kind` to `to` containing `text`; returns its text.
    fn wait_mail(&self, game: i64, kind: &str, to: &str, text: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(m) = self.club.outbox().into_iter().find(|m| {
                header(m, "X-Wildt-Game") == Some(game.to_string())
                    && header(m, "X-Wildt-Event").as_deref() == Some(kind)
                    && header(m, "To").is_some_and(|t| t.contains(to))
                    && decoded(m).contains(text)
            }) {
                return m;
            }
            assert!(
                Instant::now() < deadline,
                "no {kind} mail of game {game} to {to} with {text:?} within {WAIT:?}; outbox:\n{}\nserve log:\n{}",
                self.club.outbox().join("\n----\n"),
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failed test leaves no server behind; errors here change nothing.
        if self.serve.kill().is_ok() {
            self.serve.wait().ok();
        }
    }
}

/// A header of a raw mail, unfolded.
fn header(raw: &str, name: &str) -> Option<String> {
    let head = raw.split("\r\n\r\n").next().unwrap_or(raw);
    let mut value: Option<String> = None;
    for line in head.lines() {
        if let Some(v) = value.as_mut() {
            if line.starts_with([' ', '\t']) {
                v.push(' ');
                v.push_str(line.trim());
                continue;
            }
            break;
        }
        if let Some((n, v)) = line.split_once(':')
            && n.eq_ignore_ascii_case(name)
        {
            value = Some(v.trim().to_owned());
        }
    }
    value
}

/// A mail's text as the reader sees it (transfer encoding undone).
fn decoded(raw: &str) -> String {
    mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

// ---------------------------------------------------------------- Scid

/// Scid's Xfcc client as the player `user`: each call is one run of the
/// driver, with Scid's state in `work`.
struct Scid<'a> {
    url: String,
    user: &'a str,
    password: &'a str,
    work: &'a Path,
}

impl Scid<'_> {
    fn run(&self, args: &[&str]) -> Value {
        let out = Command::new("/usr/bin/tclsh")
            .arg(script("tests/xfcc/scid/driver.tcl"))
            .arg(self.work)
            .args([self.url.as_str(), self.user, self.password])
            .args(args)
            .output()
            .expect("run tclsh");
        assert!(
            out.status.success(),
            "Scid's driver {args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "the driver printed no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        })
    }

    /// "Retrieve": GetMyGames, and what Scid made of it.
    fn fetch(&self) -> Value {
        self.run(&["fetch"])
    }

    /// "Send" (and its siblings), with the flags as Scid's menu passes
    /// them (1/0): resign, accept draw, offer draw, claim draw.
    fn send(&self, game: i64, movecount: u32, mv: &str, comment: &str, flags: [bool; 4]) -> Value {
        let f = flags.map(|b| if b { "1" } else { "0" });
        let (id, n) = (game.to_string(), movecount.to_string());
        self.run(&["send", &id, &n, mv, comment, f[0], f[1], f[2], f[3]])
    }
}

const MOVE: [bool; 4] = [false, false, false, false];
const RESIGN: [bool; 4] = [true, false, false, false];
const ACCEPT_DRAW: [bool; 4] = [false, true, false, false];
const OFFER_DRAW: [bool; 4] = [false, false, true, false];
const CLAIM_DRAW: [bool; 4] = [false, false, false, true];

/// Scid's console says how the server answered a MakeAMove.
fn scid_said(run: &Value, line: &str) -> bool {
    run["console"]
        .as_array()
        .expect("console")
        .iter()
        .any(|l| l == line)
}

fn assert_scid_success(run: &Value) {
    assert!(
        scid_said(run, "info Processing successfull!"),
        "Scid did not report success: {run}"
    );
}

/// The PGN file Scid wrote for game `id` and its game-list state.
fn scid_game(fetch: &Value, id: i64) -> (Value, Value) {
    let name = format!("wildt-{id}");
    let pgn = fetch["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["tags"]["CmailGameName"] == name.as_str())
        .unwrap_or_else(|| panic!("Scid wrote no PGN for {name}: {fetch}"))
        .clone();
    let state = fetch["state"]
        .as_array()
        .expect("state")
        .iter()
        .find(|s| s["name"] == name.as_str())
        .unwrap_or_else(|| panic!("Scid's game list has no {name}: {fetch}"))
        .clone();
    (pgn, state)
}

/// A clock as Scid prints it in its game list (`format "%2ud %2u:%2u"`).
fn scid_clock(days: i64) -> String {
    format!("{days:>2}d {:>2}:{:>2}", 0, 0)
}

#[test]
fn scids_own_xfcc_client_fetches_moves_offers_accepts_a_draw_and_resigns() {
    require_scid();
    let s = Server::start();
    let (white, black) = ("anna@example.org", "ben@example.net");
    let (wpw, bpw) = (s.password(white), s.password(black));
    let mate = s.game(white, black, &["--time", "10/50"]);
    let draw = s.game(white, black, &[]);
    let resign = s.game(white, black, &["--time", "10/50"]);
    let claim = s.game(white, black, &[]);
    let work = tempfile::tempdir().expect("temp dir");
    let (wdir, bdir) = (work.path().join("white"), work.path().join("black"));
    let w = Scid {
        url: s.xfcc.url(),
        user: white,
        password: &wpw,
        work: &wdir,
    };
    let b = Scid {
        url: s.xfcc.url(),
        user: black,
        password: &bpw,
        work: &bdir,
    };

    // A wrong password: Scid's warning box, and no games.
    let wrong = Scid {
        url: s.xfcc.url(),
        user: white,
        password: "not the password",
        work: &wdir,
    }
    .fetch();
    assert!(scid_said(&wrong, "info Authentication failed!"), "{wrong}");
    assert_eq!(
        wrong["messages"][0]["title"], "Scid Authentication Failure!",
        "{wrong}"
    );
    assert_eq!(wrong["games"], json!([]), "{wrong}");

    // White's first look: all four games, White to move, full clocks.
    let first = w.fetch();
    assert_eq!(first["games"].as_array().map(Vec::len), Some(4), "{first}");
    let (pgn, state) = scid_game(&first, mate);
    assert_eq!(pgn["tags"]["White"], white, "{pgn}");
    assert_eq!(pgn["tags"]["Black"], black, "{pgn}");
    assert_eq!(pgn["tags"]["GameId"], mate.to_string(), "{pgn}");
    assert_eq!(pgn["tags"]["Mode"], "XFCC", "{pgn}");
    assert_eq!(pgn["tags"]["Result"], "*", "{pgn}");
    assert_eq!(state["myTurn"], "true", "{state}");
    assert_eq!(state["result"], "Ongoing", "{state}");
    assert_eq!(state["drawOffered"], "false", "{state}");
    let shown = s.show(mate);
    let days = |side: &str| {
        shown["clock"][side]["days_left"]
            .as_i64()
            .expect("days_left")
    };
    assert_eq!(
        state["clockW"],
        scid_clock(days("white")),
        "{state} / {shown}"
    );
    assert_eq!(
        state["clockB"],
        scid_clock(days("black")),
        "{state} / {shown}"
    );

    // Fool's mate, with a draw offer on the way that Black answers by mating.
    assert_scid_success(&w.send(mate, 1, "f3", "", MOVE));
    let again = w.send(mate, 2, "e4", "", MOVE);
    assert!(scid_said(&again, "info Not your turn!"), "{again}");
    let (pgn, state) = scid_game(&b.fetch(), mate);
    assert_eq!(state["myTurn"], "true", "{state}");
    assert!(
        pgn["movetext"]
            .as_str()
            .unwrap_or_default()
            .contains("1.f3"),
        "{pgn}"
    );
    assert_scid_success(&b.send(mate, 1, "e5", "Scid says hello & <welcome>", MOVE));
    s.wait_mail(mate, "opponent-moved", white, "Scid says hello & <welcome>");
    let (pgn, state) = scid_game(&w.fetch(), mate);
    assert_eq!(state["message"], "Scid says hello & <welcome>", "{state}");
    assert!(
        pgn["movetext"]
            .as_str()
            .unwrap_or_default()
            .contains("1.f3 e5 {Scid says hello & <welcome>}"),
        "{pgn}"
    );
    assert_scid_success(&w.send(mate, 2, "g4", "", OFFER_DRAW));
    let (_, state) = scid_game(&b.fetch(), mate);
    assert_eq!(state["drawOffered"], "true", "{state}");
    assert_scid_success(&b.send(mate, 2, "Qh4#", "", MOVE));
    let (pgn, state) = scid_game(&w.fetch(), mate);
    assert_eq!(state["result"], "BlackWins", "{state}");
    assert_eq!(state["myTurn"], "false", "{state}");
    assert_eq!(pgn["tags"]["Result"], "0-1", "{pgn}");
    assert!(
        pgn["movetext"]
            .as_str()
            .unwrap_or_default()
            .contains("2.g4 Qh4#"),
        "{pgn}"
    );
    let over = s.show(mate);
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["result"], "0-1", "{over}");

    // An offer accepted. Scid sends the accept with the last move on the
    // board (White's) as myMove and the number of the move Black would make.
    assert_scid_success(&w.send(draw, 1, "e4", "", MOVE));
    assert_scid_success(&b.send(draw, 1, "e5", "", MOVE));
    assert_scid_success(&w.send(draw, 2, "Nf3", "", OFFER_DRAW));
    let (_, state) = scid_game(&b.fetch(), draw);
    assert_eq!(state["drawOffered"], "true", "{state}");
    assert_scid_success(&b.send(draw, 2, "Nf3", "", ACCEPT_DRAW));
    let (pgn, state) = scid_game(&w.fetch(), draw);
    assert_eq!(state["result"], "Draw", "{state}");
    assert_eq!(pgn["tags"]["Result"], "1/2-1/2", "{pgn}");
    assert_eq!(s.show(draw)["result"], "1/2-1/2");

    // A resignation, as Scid sends it: the opponent's last move as myMove.
    assert_scid_success(&w.send(resign, 1, "d4", "", MOVE));
    assert_scid_success(&b.send(resign, 1, "d4", "", RESIGN));
    let (pgn, state) = scid_game(&w.fetch(), resign);
    assert_eq!(state["result"], "WhiteWins", "{state}");
    assert_eq!(pgn["tags"]["Result"], "1-0", "{pgn}");
    let over = s.show(resign);
    assert_eq!(over["result"], "1-0", "{over}");
    assert_eq!(over["moves"].as_array().map(Vec::len), Some(1), "{over}");

    // Threefold repetition, claimed as Scid claims: the player enters the
    // move that repeats the position, then "Claim draw" sends it with the
    // claim.
    for (n, (wm, bm)) in [("Nf3", "Nf6"), ("Ng1", "Ng8"), ("Nf3", "Nf6")]
        .into_iter()
        .enumerate()
    {
        let n = n as u32 + 1;
        assert_scid_success(&w.send(claim, n, wm, "", MOVE));
        assert_scid_success(&b.send(claim, n, bm, "", MOVE));
    }
    assert_scid_success(&w.send(claim, 4, "Ng1", "", MOVE));
    assert_scid_success(&b.send(claim, 4, "Ng8", "", CLAIM_DRAW));
    let (pgn, state) = scid_game(&w.fetch(), claim);
    assert_eq!(state["result"], "Draw", "{state}");
    assert_eq!(pgn["tags"]["Result"], "1/2-1/2", "{pgn}");
    let over = s.show(claim);
    assert_eq!(over["termination"], "threefold repetition", "{over}");

    // Each move by Xfcc was relayed to the opponent and confirmed to the
    // mover by mail, as a mailed move is.
    s.wait_mail(resign, "move-accepted", white, "");
    s.wait_mail(resign, "opponent-moved", black, "");
}

#[test]
fn scid_shows_a_10_in_50_days_control_as_pgn_time_control_in_seconds() {
    require_scid();
    let s = Server::start();
    let (white, black) = ("anna@example.org", "ben@example.net");
    let wpw = s.password(white);
    let game = s.game(white, black, &["--time", "10/50"]);
    let work = tempfile::tempdir().expect("temp dir");
    let fetch = Scid {
        url: s.xfcc.url(),
        user: white,
        password: &wpw,
        work: work.path(),
    }
    .fetch();
    let (pgn, state) = scid_game(&fetch, game);
    // Scid reads timeControl as PGN's TimeControl tag, MOVES/SECONDS (or
    // SECONDS+SECONDS), and shows it in days.
    assert_eq!(pgn["tags"]["TimeControl"], "10/4320000", "{pgn}");
    assert_eq!(state["TimeControl"], "10 / 50d (ICCF)", "{state}");
}

// ---------------------------------------------------------------- zeep

/// Runs `calls` (a JSON list, see zeep_client.py) through one zeep client
/// built from the server's WSDL; returns one answer per call.
fn zeep(wsdl: &str, calls: &Value) -> Vec<Value> {
    let mut child = Command::new(PYTHON)
        .arg(script("tests/xfcc/zeep_client.py"))
        .arg(wsdl)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run zeep_client.py");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(calls.to_string().as_bytes())
            .expect("write calls");
    }
    let out = child.wait_with_output().expect("zeep_client.py");
    assert!(
        out.status.success(),
        "zeep_client.py failed ({}) on {calls}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = serde_json::from_slice(&out.stdout).expect("zeep JSON");
    assert_eq!(answers.len(), calls.as_array().map_or(0, Vec::len));
    answers
}

fn get_my_games(user: &str, password: &str) -> Value {
    json!({"op": "GetMyGames", "username": user, "password": password})
}

/// A MakeAMove; `extra` sets flags and the message.
fn make_a_move(
    user: &str,
    password: &str,
    game: i64,
    movecount: u32,
    mv: &str,
    extra: Value,
) -> Value {
    let mut call = json!({
        "op": "MakeAMove", "username": user, "password": password,
        "gameId": game, "movecount": movecount, "myMove": mv,
    });
    if let (Some(c), Some(e)) = (call.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    call
}

fn result_of(answer: &Value) -> &str {
    answer["result"]
        .as_str()
        .unwrap_or_else(|| panic!("no MakeAMoveResult: {answer}"))
}

/// The XfccGame `id` of a GetMyGames answer.
fn xfcc_game(answer: &Value, id: i64) -> Value {
    answer["games"]
        .as_array()
        .unwrap_or_else(|| panic!("no games: {answer}"))
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("game {id} is not in {answer}"))
        .clone()
}

/// An RFC 3339 instant `days` days before now.
fn days_ago(days: i64) -> String {
    let t = wildt::now::now_secs() - days * 86_400;
    let secs = t.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        wildt::clock::Date::of_instant(t),
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// `wildt ARGS --config CFG` at the instant `now`.
fn wildt_at(cfg: &Path, now: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .arg("--config")
        .arg(cfg)
        .env("WILDT_NOW", now)
        .output()
        .expect("run wildt")
}

#[test]
fn zeep_from_the_wsdl_plays_mate_draw_and_resignation_and_meets_every_result_code() {
    require_zeep();
    let s = Server::start();
    let wsdl = s.xfcc.wsdl();
    let (white, black) = ("carl@example.org", "dora@example.net");
    let (wpw, bpw) = (s.password(white), s.password(black));
    let mate = s.game(white, black, &["--time", "10/50"]);
    let draw = s.game(white, black, &[]);
    let resign = s.game(white, black, &[]);
    let repeat = s.game(white, black, &[]);
    let others = s.game("anna@example.org", "ben@example.net", &[]);
    // White's flag fell long ago: 60 days on move 1 of a 10/50 game.
    let flagged = json_of(&wildt_at(
        &s.club.cfg,
        &days_ago(60),
        &[
            "game",
            "new",
            "--no-mail",
            "--white",
            white,
            "--black",
            black,
            "--time",
            "10/50",
            "--json",
        ],
    ))["id"]
        .as_i64()
        .expect("id");
    // A leave stops all of a player's clocks: a third player takes it.
    let away = "erik@example.org";
    let away_pw = s.password(away);
    let on_leave = s.game(away, black, &["--time", "10/50"]);
    let today = wildt::clock::Date::of_instant(wildt::now::now_secs()).to_string();
    let tomorrow = wildt::clock::Date::of_instant(wildt::now::now_secs() + 86_400).to_string();
    let out = wildt(
        &s.club.cfg,
        &[
            "game",
            "leave",
            &on_leave.to_string(),
            "--as",
            "white",
            "--from",
            &today,
            "--to",
            &tomorrow,
        ],
    );
    assert!(
        out.status.success(),
        "game leave: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let no = json!({});
    let a = zeep(
        &wsdl,
        &json!([
            get_my_games(white, "not the password"),
            make_a_move(white, "not the password", mate, 1, "e4", no.clone()),
            get_my_games(white, &wpw),
            make_a_move(white, &wpw, 999_999, 1, "e4", no.clone()),
            make_a_move(white, &wpw, others, 1, "e4", no.clone()),
            make_a_move(white, &wpw, mate, 2, "e4", no.clone()),
            make_a_move(white, &wpw, mate, 1, "e5", no.clone()),
            make_a_move(white, &wpw, mate, 1, "Zz9", no.clone()),
            make_a_move(white, &wpw, mate, 1, "", json!({"acceptDraw": true})),
            make_a_move(white, &wpw, flagged, 1, "e4", no.clone()),
            make_a_move(away, &away_pw, on_leave, 1, "e4", no.clone()),
            make_a_move(
                white,
                &wpw,
                mate,
                1,
                "e4",
                json!({"myMessage": "zeep & co <3"})
            ),
            make_a_move(white, &wpw, mate, 2, "Bc4", no.clone()),
            make_a_move(white, &wpw, draw, 1, "d4", no.clone()),
            make_a_move(white, &wpw, resign, 1, "e4", no.clone()),
        ]),
    );
    assert_eq!(a[0]["fault"], "AuthenticationFailed", "{:?}", a[0]);
    assert_eq!(result_of(&a[1]), "AuthenticationFailed");
    let listed: Vec<i64> = a[2]["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["id"].as_i64().expect("id"))
        .collect();
    for id in [mate, draw, resign, flagged] {
        assert!(listed.contains(&id), "game {id} missing from {listed:?}");
    }
    assert!(
        !listed.contains(&others),
        "another pair's game listed: {listed:?}"
    );
    let g = xfcc_game(&a[2], mate);
    assert_eq!(g["white"], white, "{g}");
    assert_eq!(g["black"], black, "{g}");
    assert_eq!(g["myTurn"], true, "{g}");
    assert_eq!(g["hasWhite"], true, "{g}");
    assert_eq!(g["drawOffered"], false, "{g}");
    assert_eq!(g["result"], "Ongoing", "{g}");
    assert!(g["eventDate"].is_string(), "{g}");
    let shown = s.show(mate);
    assert_eq!(
        g["daysPlayer"], shown["clock"]["white"]["days_left"],
        "{g} / {shown}"
    );
    assert_eq!(
        g["daysOpponent"], shown["clock"]["black"]["days_left"],
        "{g} / {shown}"
    );
    assert_eq!(result_of(&a[3]), "InvalidGameID");
    assert_eq!(result_of(&a[4]), "NotYourGame");
    assert_eq!(result_of(&a[5]), "InvalidMoveNumber");
    assert_eq!(result_of(&a[6]), "InvalidMove");
    assert_eq!(result_of(&a[7]), "InvalidMove");
    assert_eq!(result_of(&a[8]), "NoDrawWasOffered");
    assert_eq!(result_of(&a[9]), "LostOnTime");
    assert_eq!(result_of(&a[10]), "YouAreOnLeave");
    assert_eq!(result_of(&a[11]), "Success");
    assert_eq!(result_of(&a[12]), "NotYourTurn");
    assert_eq!(result_of(&a[13]), "Success");
    assert_eq!(result_of(&a[14]), "Success");

    // Black sees the move and the note; answers in all three games, and
    // resigns the last as zeep's caller chooses to (no move sent).
    let b = zeep(
        &wsdl,
        &json!([
            get_my_games(black, &bpw),
            make_a_move(black, &bpw, mate, 1, "e5", no.clone()),
            make_a_move(black, &bpw, draw, 1, "d5", no.clone()),
            make_a_move(black, &bpw, resign, 1, "", json!({"resign": true})),
        ]),
    );
    let g = xfcc_game(&b[0], mate);
    assert_eq!(g["hasWhite"], false, "{g}");
    assert_eq!(g["myTurn"], true, "{g}");
    assert_eq!(g["moves"], "1.e4", "{g}");
    assert_eq!(g["message"], "zeep & co <3", "{g}");
    for (i, answer) in b.iter().enumerate().skip(1) {
        assert_eq!(result_of(answer), "Success", "call {i}");
    }

    // Scholar's mate; in the other game an ambiguous knight move, then an
    // offer that Black accepts.
    let w2 = zeep(
        &wsdl,
        &json!([
            make_a_move(white, &wpw, mate, 2, "Bc4", no.clone()),
            make_a_move(white, &wpw, draw, 2, "Nf3", no.clone()),
        ]),
    );
    assert!(w2.iter().all(|a| result_of(a) == "Success"), "{w2:?}");
    let b2 = zeep(
        &wsdl,
        &json!([
            make_a_move(black, &bpw, mate, 2, "Nc6", no.clone()),
            make_a_move(black, &bpw, draw, 2, "Nf6", no.clone()),
        ]),
    );
    assert!(b2.iter().all(|a| result_of(a) == "Success"), "{b2:?}");
    let w3 = zeep(
        &wsdl,
        &json!([
            make_a_move(white, &wpw, mate, 3, "Qh5", no.clone()),
            make_a_move(white, &wpw, draw, 3, "Nd2", no.clone()),
            make_a_move(white, &wpw, draw, 3, "Nbd2", json!({"offerDraw": true})),
        ]),
    );
    assert_eq!(result_of(&w3[0]), "Success");
    assert_eq!(result_of(&w3[1]), "MoveIsAmbiguous");
    assert_eq!(result_of(&w3[2]), "Success");
    let b3 = zeep(
        &wsdl,
        &json!([
            get_my_games(black, &bpw),
            make_a_move(black, &bpw, mate, 3, "Nf6", no.clone()),
            make_a_move(black, &bpw, draw, 3, "", json!({"acceptDraw": true})),
        ]),
    );
    assert_eq!(xfcc_game(&b3[0], draw)["drawOffered"], true, "{}", b3[0]);
    assert_eq!(result_of(&b3[1]), "Success");
    assert_eq!(result_of(&b3[2]), "Success");
    let w4 = zeep(
        &wsdl,
        &json!([
            make_a_move(white, &wpw, mate, 4, "Qxf7#", no.clone()),
            get_my_games(white, &wpw),
        ]),
    );
    assert_eq!(result_of(&w4[0]), "Success");
    let results: Vec<(i64, Value, Value)> = [mate, draw, resign]
        .into_iter()
        .map(|id| {
            let g = xfcc_game(&w4[1], id);
            (id, g["result"].clone(), g["moves"].clone())
        })
        .collect();
    assert_eq!(
        results,
        vec![
            (
                mate,
                json!("WhiteWins"),
                json!("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#")
            ),
            (draw, json!("Draw"), json!("1.d4 d5 2.Nf3 Nf6 3.Nbd2")),
            (resign, json!("WhiteWins"), json!("1.e4")),
        ]
    );
    // Both players in one client: the position comes back a third time,
    // and White claims it with no move (claimDraw alone).
    let mut calls = Vec::new();
    for (n, (wm, bm)) in [
        ("Nf3", "Nf6"),
        ("Ng1", "Ng8"),
        ("Nf3", "Nf6"),
        ("Ng1", "Ng8"),
    ]
    .into_iter()
    .enumerate()
    {
        let n = n as u32 + 1;
        calls.push(make_a_move(white, &wpw, repeat, n, wm, no.clone()));
        calls.push(make_a_move(black, &bpw, repeat, n, bm, no.clone()));
    }
    calls.push(make_a_move(
        white,
        &wpw,
        repeat,
        5,
        "",
        json!({"claimDraw": true}),
    ));
    let answers = zeep(&wsdl, &Value::Array(calls));
    assert!(
        answers.iter().all(|a| result_of(a) == "Success"),
        "{answers:?}"
    );
    // ServerError is what a broken store answers: no client can cause it.
    for (id, result, termination) in [
        (repeat, "1/2-1/2", "threefold repetition"),
        (mate, "1-0", "checkmate"),
        (draw, "1/2-1/2", "draw agreed"),
        (resign, "1-0", "resignation"),
    ] {
        let v = s.show(id);
        assert_eq!(v["result"], result, "{v}");
        assert_eq!(v["termination"], termination, "{v}");
    }
}

// ---------------------------------------------------------------- mail and Xfcc

/// A mail as a player received it on the rig: to whom, its kind, its text.
struct Received {
    to: String,
    kind: Option<String>,
    game: Option<i64>,
    text: String,
}

async fn received(reader: &mut Reader) -> Vec<Received> {
    reader
        .messages("INBOX")
        .await
        .into_iter()
        .map(|seen| {
            let to = seen.header("To").unwrap_or_default();
            let m = crate::e2e::Mail::parse(seen);
            Received {
                to,
                kind: m.kind,
                game: m.game,
                text: m.text,
            }
        })
        .collect()
}

/// Waits (bounded) for the `n`th mail of `kind` of game `game` to `to`;
/// returns its text.
async fn nth_mail(reader: &mut Reader, game: i64, kind: &str, to: &str, n: usize) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let found: Vec<Received> = received(reader)
            .await
            .into_iter()
            .filter(|m| {
                m.game == Some(game) && m.kind.as_deref() == Some(kind) && m.to.contains(to)
            })
            .collect();
        if found.len() >= n {
            return found[n - 1].text.clone();
        }
        assert!(
            Instant::now() < deadline,
            "mail {n} of kind {kind} of game {game} to {to} did not arrive within {WAIT:?} (found {})",
            found.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Both clocks agree in `wildt game show`, in each player's GetMyGames and
/// in the latest mail `mail` about the game: returns White's and Black's
/// days left.
fn assert_clocks_agree(
    r: &Referee,
    wsdl: &str,
    game: i64,
    players: [(&str, &str); 2],
    mail: &str,
) -> (i64, i64) {
    let shown = r.show(game);
    let left = |side: &str| {
        shown["clock"][side]["days_left"]
            .as_i64()
            .unwrap_or_else(|| panic!("no days_left for {side}: {shown}"))
    };
    let (w, b) = (left("white"), left("black"));
    let answers = zeep(
        wsdl,
        &json!([
            get_my_games(players[0].0, players[0].1),
            get_my_games(players[1].0, players[1].1),
        ]),
    );
    for (view, (mine, theirs)) in answers.iter().zip([(w, b), (b, w)]) {
        let g = xfcc_game(view, game);
        assert_eq!(g["daysPlayer"], mine, "{g} / {shown}");
        assert_eq!(g["daysOpponent"], theirs, "{g} / {shown}");
        for side in ["Player", "Opponent"] {
            let minutes = g[format!("hours{side}")].as_i64().expect("hours") * 60
                + g[format!("minutes{side}")].as_i64().expect("minutes");
            assert!((0..24 * 60).contains(&minutes), "{g}");
        }
    }
    for (color, days) in [("White", w), ("Black", b)] {
        assert!(
            mail.contains(&format!("{color}: {days} days left")),
            "the mail does not say {color}: {days} days left:\n{mail}"
        );
    }
    (w, b)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_switching_between_mail_and_xfcc_keeps_one_record_and_one_clock() {
    require_zeep();
    let rig = rig_or_skip!();
    // Rig accounts used by no other test: p53 the referee, p54 both
    // players, as two sub-addresses (the mails are told apart by To).
    let (referee, players_box) = (player(53), player(54));
    let (white, black) = ("p54+white@example.org", "p54+black@example.org");
    let mut readers = fresh_inboxes(&rig, &[&referee, &players_box]).await;
    let mut inbox = readers.pop().expect("reader");

    let r = Referee::new(&rig, &referee, Options::default());
    let xfcc = Xfcc::configure(&r.config);
    let dir = tempfile::tempdir().expect("temp dir");
    let (wpw, bpw) = (
        set_password(&r.config, dir.path(), white),
        set_password(&r.config, dir.path(), black),
    );
    // Made 2 days and 5 hours ago: White's first move costs 2 days.
    let started = {
        let t = wildt::now::now_secs() - 2 * 86_400 - 5 * 3600;
        let secs = t.rem_euclid(86_400);
        format!(
            "{}T{:02}:{:02}:{:02}Z",
            wildt::clock::Date::of_instant(t),
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        )
    };
    let v = json_of(&wildt_at(
        &r.config,
        &started,
        &[
            "game",
            "new",
            "--no-mail",
            "--white",
            white,
            "--black",
            black,
            "--time",
            "10/50",
            "--json",
        ],
    ));
    let game = v["id"].as_i64().expect("id");
    let (white_address, black_address) = (
        v["white"]["address"].as_str().expect("address").to_owned(),
        v["black"]["address"].as_str().expect("address").to_owned(),
    );
    let _serve = r.spawn();
    xfcc.wait_ready(|| r.log());
    let wsdl = xfcc.wsdl();
    let players = [(white, wpw.as_str()), (black, bpw.as_str())];
    let no = json!({});

    // 1. e4 by mail.
    rig.send(
        white,
        &white_address,
        &move_mail(white, &white_address, "1. 5254"),
    )
    .await;
    let relay = nth_mail(&mut inbox, game, "opponent-moved", black, 1).await;
    let (w_left, b_left) = assert_clocks_agree(&r, &wsdl, game, players, &relay);
    assert_eq!(
        (w_left, b_left),
        (48, 50),
        "White thought for 2 days 5 hours"
    );

    // 1... e5 by Xfcc, with a note for White.
    let a = zeep(
        &wsdl,
        &json!([
            get_my_games(black, &bpw),
            make_a_move(
                black,
                &bpw,
                game,
                1,
                "e5",
                json!({"myMessage": "by Xfcc now"})
            ),
        ]),
    );
    let g = xfcc_game(&a[0], game);
    assert_eq!(
        (g["moves"].clone(), g["myTurn"].clone()),
        (json!("1.e4"), json!(true))
    );
    assert_eq!(result_of(&a[1]), "Success");
    let relay = nth_mail(&mut inbox, game, "opponent-moved", white, 1).await;
    assert!(
        relay.contains("by Xfcc now"),
        "the note rides in the relay:\n{relay}"
    );
    assert_clocks_agree(&r, &wsdl, game, players, &relay);

    // 2. Bc4: White switches to Xfcc.
    let a = zeep(
        &wsdl,
        &json!([
            get_my_games(white, &wpw),
            make_a_move(white, &wpw, game, 2, "Bc4", no.clone()),
        ]),
    );
    let g = xfcc_game(&a[0], game);
    assert_eq!(g["moves"], "1.e4 e5", "{g}");
    assert_eq!(g["message"], "by Xfcc now", "{g}");
    assert_eq!(result_of(&a[1]), "Success");
    let relay = nth_mail(&mut inbox, game, "opponent-moved", black, 2).await;
    assert_clocks_agree(&r, &wsdl, game, players, &relay);

    // The organiser takes 3 days from Black: every view follows.
    let out = r.run(&[
        "game",
        "clock",
        &game.to_string(),
        "--as",
        "black",
        "--add-days=-3",
    ]);
    assert!(
        out.status.success(),
        "game clock: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    // 2... Nc6: Black switches to mail.
    rig.send(
        black,
        &black_address,
        &move_mail(black, &black_address, "2... 2836"),
    )
    .await;
    let relay = nth_mail(&mut inbox, game, "opponent-moved", white, 2).await;
    let (_, b_left) = assert_clocks_agree(&r, &wsdl, game, players, &relay);
    assert_eq!(b_left, 47, "the ruling took 3 of Black's 50 days");

    // 3. Qh5 by mail, 3... Nf6 by Xfcc.
    rig.send(
        white,
        &white_address,
        &move_mail(white, &white_address, "3. 4185"),
    )
    .await;
    let relay = nth_mail(&mut inbox, game, "opponent-moved", black, 3).await;
    assert_clocks_agree(&r, &wsdl, game, players, &relay);
    let a = zeep(
        &wsdl,
        &json!([make_a_move(black, &bpw, game, 3, "Nf6", no.clone())]),
    );
    assert_eq!(result_of(&a[0]), "Success");
    let relay = nth_mail(&mut inbox, game, "opponent-moved", white, 3).await;
    assert_clocks_agree(&r, &wsdl, game, players, &relay);

    // 4. Qxf7# by Xfcc: both players learn it by mail and by Xfcc.
    let a = zeep(
        &wsdl,
        &json!([make_a_move(white, &wpw, game, 4, "Qxf7#", no.clone())]),
    );
    assert_eq!(result_of(&a[0]), "Success");
    nth_mail(&mut inbox, game, "game-over", black, 1).await;
    let end = zeep(&wsdl, &json!([get_my_games(black, &bpw)]));
    let g = xfcc_game(&end[0], game);
    assert_eq!(g["result"], "WhiteWins", "{g}");
    assert_eq!(g["moves"], "1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#", "{g}");
    let shown = r.show(game);
    assert_eq!(shown["result"], "1-0", "{shown}");
    assert_eq!(shown["termination"], "checkmate", "{shown}");
    assert_eq!(shown["moves"].as_array().map(Vec::len), Some(7), "{shown}");
}
