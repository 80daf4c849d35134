//! Xfcc against the real `wildt serve`: a Maildir club with `[xfcc]` on a
//! free loopback port, spoken to over raw HTTP/1.1 (a std TcpStream, as a
//! GUI's HTTP library sends it: `charset="utf-8"` with the quotes, no
//! SOAPAction). The opponent's mails are read from the file outbox.
//! [IO: processes, loopback TCP, temp files]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::wildt;
use crate::support::club::{Club, Game, mail};
use crate::support::rig::free_port;

const NS: &str = "http://www.bennedik.com/webservices/XfccBasic";
const ANNA: &str = "anna@example.org";
const BEN: &str = "ben@example.net";
const ANNA_PW: &str = "anna-secret-1";
const BEN_PW: &str = "ben-secret-22";

/// A running `wildt serve` with Xfcc on, killed when dropped.
struct Xfcc {
    club: Club,
    port: u16,
    child: Child,
}

impl Drop for Xfcc {
    fn drop(&mut self) {
        // A test that failed leaves the daemon's log for the reader.
        if std::thread::panicking() {
            let log = std::fs::read_to_string(self.club.dir.path().join("serve.log"));
            eprintln!("serve log:\n{}", log.unwrap_or_default());
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A club with `[xfcc]` (and `extra` lines in it), both players'
/// passwords set by `player set --xfcc-password-file`, and the games made
/// by `games` before the daemon starts.
fn start(extra: &str, now: Option<&str>, games: impl FnOnce(&Club)) -> Xfcc {
    let club = Club::new();
    let port = free_port();
    let mut cfg = std::fs::read_to_string(&club.cfg).unwrap();
    cfg.push_str(&format!(
        "\n[xfcc]\nlisten = \"127.0.0.1:{port}\"\n{extra}\n"
    ));
    std::fs::write(&club.cfg, cfg).unwrap();
    set_password(&club, ANNA, ANNA_PW);
    set_password(&club, BEN, BEN_PW);
    games(&club);
    let env: Vec<(&str, &str)> = now.map(|n| ("WILDT_NOW", n)).into_iter().collect();
    let child = serve(&club, port, &env);
    Xfcc { club, port, child }
}

/// `wildt serve` on `club` with `env`, once its Xfcc port answers.
fn serve(club: &Club, port: u16, env: &[(&str, &str)]) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(club.dir.path().join("serve.log"))
        .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wildt"));
    cmd.args(["serve", "--config"])
        .arg(&club.cfg)
        .stdout(Stdio::null())
        .stderr(log)
        .envs(env.iter().copied());
    let child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the Xfcc server never listened");
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

fn set_password(club: &Club, email: &str, password: &str) {
    let file = club.dir.path().join(format!("{email}.pw"));
    std::fs::write(&file, format!("{password}\n")).unwrap();
    let out = wildt(
        &club.cfg,
        &[
            "player",
            "set",
            email,
            "--xfcc-password-file",
            file.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An HTTP answer: status, headers (names lower-cased), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Xfcc {
    /// Sends `head` (the request line and headers, without the blank line)
    /// and `body`, and reads the answer to the end.
    fn raw(&self, head: &str, body: &[u8]) -> Answer {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(format!("{head}\r\nConnection: close\r\n\r\n").as_bytes())
            .unwrap();
        // The server may answer (413) and close before taking all of it.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        Answer {
            status,
            headers,
            body: body.to_owned(),
        }
    }

    fn post(&self, body: &str) -> Answer {
        let head = format!(
            "POST /xfccbasic.asmx HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/xml; charset=\"utf-8\"\r\nContent-Length: {}",
            self.port,
            body.len()
        );
        self.raw(&head, body.as_bytes())
    }

    fn get_my_games(&self, user: &str, password: &str) -> Answer {
        self.post(&envelope(&format!(
            "<GetMyGames xmlns=\"{NS}\"><username>{user}</username><password>{password}</password></GetMyGames>"
        )))
    }

    /// MakeAMove with the flags given as `name` elements set to true.
    fn make_a_move(
        &self,
        who: (&str, &str),
        game: i64,
        movecount: u32,
        mv: &str,
        flags: &[&str],
        message: &str,
    ) -> String {
        let flag = |n: &str| if flags.contains(&n) { "true" } else { "false" };
        let a = self.post(&envelope(&format!(
            "<MakeAMove xmlns=\"{NS}\"><username>{}</username><password>{}</password>\
             <gameId>{game}</gameId><resign>{}</resign><acceptDraw>{}</acceptDraw>\
             <movecount>{movecount}</movecount><myMove>{mv}</myMove><offerDraw>{}</offerDraw>\
             <claimDraw>{}</claimDraw><myMessage>{message}</myMessage></MakeAMove>",
            who.0,
            who.1,
            flag("resign"),
            flag("acceptDraw"),
            flag("offerDraw"),
            flag("claimDraw"),
        )));
        assert_eq!(a.status, 200, "{}", a.body);
        between(&a.body, "<MakeAMoveResult>", "</MakeAMoveResult>")
            .unwrap_or_else(|| panic!("no MakeAMoveResult in {}", a.body))
            .to_owned()
    }

    /// The mails in the outbox to `to`, waited for until `count` are there.
    fn mails_to(&self, to: &str, count: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let mails: Vec<String> = self
                .club
                .outbox()
                .into_iter()
                .filter(|m| m.contains(&format!("\nTo: {to}")))
                .collect();
            if mails.len() >= count {
                return mails;
            }
            assert!(
                Instant::now() < deadline,
                "{} of {count} mails to {to} came",
                mails.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn plies(&self, game: i64) -> usize {
        let v = self.club.show(game);
        v["plies"]
            .as_array()
            .or_else(|| v["moves"].as_array())
            .map_or_else(|| panic!("no plies in {v}"), Vec::len)
    }
}

fn envelope(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\
         <soap:Body>{body}</soap:Body></soap:Envelope>"
    )
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = s.find(open)? + open.len();
    let end = s[start..].find(close)? + start;
    Some(&s[start..end])
}

fn new_game(club: &Club, extra: &[&str]) -> Game {
    club.new_game_with(extra)
}

fn game_cli(cfg: &Path, args: &[&str]) {
    let out = wildt(cfg, args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// GetMyGames: the ASMX shape exactly (unprefixed result elements in the
/// XfccBasic default namespace, lowercase booleans, the ICCF clocks in
/// days), with a Content-Length; each player sees their own side.
#[test]
fn get_my_games_answers_each_player_in_the_asmx_shape() {
    let x = start("", None, |c| {
        new_game(c, &["--time", "10/50"]);
    });
    let a = x.get_my_games(ANNA, ANNA_PW);
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.header("content-type"), Some("text/xml; charset=utf-8"));
    assert_eq!(
        a.header("content-length"),
        Some(a.body.len().to_string().as_str())
    );
    assert!(a.body.starts_with(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\""
    ));
    let today = &wildt::clock::Date::of_instant(wildt::now::now_secs()).to_string();
    let expected = format!(
        "<soap:Body><GetMyGamesResponse xmlns=\"{NS}\"><GetMyGamesResult><XfccGame><id>1</id>\
         <white>anna@example.org</white><black>ben@example.net</black><event></event>\
         <site>club.example</site><myTurn>true</myTurn><hasWhite>true</hasWhite>\
         <daysPlayer>50</daysPlayer><hoursPlayer>0</hoursPlayer><minutesPlayer>0</minutesPlayer>\
         <daysOpponent>50</daysOpponent><hoursOpponent>0</hoursOpponent><minutesOpponent>0</minutesOpponent>\
         <moves></moves><drawOffered>false</drawOffered><result>Ongoing</result><setup>false</setup>\
         <eventDate>{today}T00:00:00</eventDate><timeControl>10/4320000</timeControl></XfccGame>\
         </GetMyGamesResult></GetMyGamesResponse></soap:Body></soap:Envelope>"
    );
    assert!(a.body.ends_with(&expected), "{}", a.body);
    let b = x.get_my_games(BEN, BEN_PW);
    assert!(
        b.body
            .contains("<myTurn>false</myTurn><hasWhite>false</hasWhite>")
    );
}

/// A move sent by Xfcc is judged and recorded like a mailed one: the
/// opponent gets the relay mail with the note in it, the mover the
/// confirmation, and the opponent's GetMyGames shows the move and the note.
#[test]
fn a_move_by_xfcc_reaches_the_opponent_by_mail_with_its_message() {
    let x = start("", None, |c| {
        new_game(c, &[]);
    });
    let r = x.make_a_move(
        (ANNA, ANNA_PW),
        1,
        1,
        "e4",
        &[],
        "Good luck &amp; have &lt;b&gt;fun&lt;/b&gt;",
    );
    assert_eq!(r, "Success");
    let to_ben = x.mails_to(BEN, 1);
    assert!(to_ben[0].contains("5254"), "{}", to_ben[0]);
    assert!(
        to_ben[0].contains("Your opponent's message: Good luck & have <b>fun</b>"),
        "{}",
        to_ben[0]
    );
    // In the HTML part the note is text, never markup.
    assert!(
        to_ben[0].contains("Good luck &amp; have &lt;b&gt;fun&lt;/b&gt;</p>"),
        "{}",
        to_ben[0]
    );
    let to_anna = x.mails_to(ANNA, 1);
    assert!(to_anna[0].contains("X-Wildt-Event: move-accepted"));
    assert_eq!(x.plies(1), 1);
    let b = x.get_my_games(BEN, BEN_PW);
    assert!(b.body.contains("<myTurn>true</myTurn>"), "{}", b.body);
    assert!(b.body.contains("<moves>1.e4</moves>"), "{}", b.body);
    // Without a time control the clocks show 999 days, never a falling flag.
    assert!(
        b.body.contains("<daysPlayer>999</daysPlayer>"),
        "{}",
        b.body
    );
    assert!(
        b.body
            .contains("<message>Good luck &amp; have &lt;b&gt;fun&lt;/b&gt;</message>"),
        "{}",
        b.body
    );
    // Ben answers by Xfcc with a draw offer; Anna's GUI sees it.
    assert_eq!(
        x.make_a_move((BEN, BEN_PW), 1, 1, "Nf6", &["offerDraw"], ""),
        "Success"
    );
    let a = x.get_my_games(ANNA, ANNA_PW);
    assert!(
        a.body
            .contains("<moves>1.e4 Nf6</moves><drawOffered>true</drawOffered>")
    );
    assert_eq!(
        x.make_a_move((ANNA, ANNA_PW), 1, 2, "", &["acceptDraw"], ""),
        "Success"
    );
    let a = x.get_my_games(ANNA, ANNA_PW);
    assert!(a.body.contains("<result>Draw</result>"), "{}", a.body);
}

/// A wrong password, an unknown user: GetMyGames answers a soap:Fault
/// `AuthenticationFailed`, MakeAMove the result code; past the hourly
/// limit of failures even the right password is refused.
#[test]
fn wrong_passwords_fail_alike_and_are_limited() {
    let x = start("failed_logins_per_hour = 3", None, |c| {
        new_game(c, &[]);
    });
    let a = x.get_my_games(ANNA, "not-the-password");
    assert_eq!(a.status, 500);
    assert!(a.body.contains(
        "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>AuthenticationFailed</faultstring>"
    ));
    let unknown = x.get_my_games("nobody@example.org", ANNA_PW);
    assert_eq!(
        unknown.body, a.body,
        "an unknown user fails as a wrong password does"
    );
    assert_eq!(
        x.make_a_move((ANNA, "wrong-again"), 1, 1, "e4", &[], ""),
        "AuthenticationFailed"
    );
    // Three failures of Anna: the right password now fails too.
    assert_eq!(
        x.make_a_move((ANNA, ANNA_PW), 1, 1, "e4", &[], ""),
        "AuthenticationFailed"
    );
    assert_eq!(x.plies(1), 0);
}

/// Each wrong MakeAMove gets its own code and changes nothing.
#[test]
fn moves_that_cannot_be_played_answer_their_result_codes() {
    let x = start("", None, |c| {
        new_game(c, &[]);
        let out = wildt(
            &c.cfg,
            &[
                "game",
                "new",
                "--no-mail",
                "--white",
                "carl@example.com",
                "--black",
                "dora@example.com",
                "--json",
            ],
        );
        assert!(out.status.success());
        new_game(c, &["--fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"]);
    });
    let anna = (ANNA, ANNA_PW);
    assert_eq!(x.make_a_move(anna, 99, 1, "e4", &[], ""), "InvalidGameID");
    assert_eq!(x.make_a_move(anna, 2, 1, "e4", &[], ""), "NotYourGame");
    assert_eq!(
        x.make_a_move((BEN, BEN_PW), 1, 1, "e5", &[], ""),
        "NotYourTurn"
    );
    assert_eq!(
        x.make_a_move(anna, 1, 2, "e4", &[], ""),
        "InvalidMoveNumber"
    );
    assert_eq!(x.make_a_move(anna, 1, 1, "e5", &[], ""), "InvalidMove");
    assert_eq!(x.make_a_move(anna, 1, 1, "Zz9", &[], ""), "InvalidMove");
    assert_eq!(
        x.make_a_move(anna, 1, 1, "", &["acceptDraw"], ""),
        "NoDrawWasOffered"
    );
    assert_eq!(x.make_a_move(anna, 3, 1, "Nd2", &[], ""), "MoveIsAmbiguous");
    assert_eq!(x.make_a_move(anna, 3, 1, "Nbd2", &[], ""), "Success");
    assert_eq!(x.plies(1), 0);
    assert_eq!(x.plies(3), 1);
    let a = x.get_my_games(ANNA, ANNA_PW);
    assert!(
        a.body
            .contains("<setup>true</setup><fen>4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1</fen>"),
        "{}",
        a.body
    );
}

/// A player on leave cannot move by Xfcc (YouAreOnLeave); one whose flag
/// fell loses on time (LostOnTime).
#[test]
fn a_move_on_leave_or_after_the_flag_fell_is_refused() {
    let today = wildt::clock::Date::of_instant(wildt::now::now_secs());
    let x = start("", None, |c| {
        new_game(c, &["--time", "10/50"]);
        game_cli(
            &c.cfg,
            &[
                "game",
                "leave",
                "1",
                "--as",
                "white",
                "--from",
                &today.to_string(),
                "--to",
                &today.add_days(3).to_string(),
            ],
        );
    });
    assert_eq!(
        x.make_a_move((ANNA, ANNA_PW), 1, 1, "e4", &[], ""),
        "YouAreOnLeave"
    );
    assert_eq!(x.plies(1), 0);
    drop(x);

    // Sixty days after the game began, White's 50 days are gone.
    let later = wildt::now::now_secs() + 60 * 86_400;
    let x = start("", Some(&rfc3339(later)), |c| {
        new_game(c, &["--time", "10/50"]);
    });
    assert_eq!(
        x.make_a_move((ANNA, ANNA_PW), 1, 1, "e4", &[], ""),
        "LostOnTime"
    );
    let b = x.get_my_games(BEN, BEN_PW);
    assert!(
        b.body.contains("<result>WhiteDefaulted</result>"),
        "{}",
        b.body
    );
}

fn rfc3339(t: i64) -> String {
    let d = wildt::clock::Date::of_instant(t);
    let s = t.rem_euclid(86_400);
    format!("{d}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

/// Malformed, oversized and hostile requests are answered (a SOAP fault or
/// 413) and the server goes on answering.
#[test]
fn hostile_requests_are_refused_and_the_server_goes_on() {
    let x = start("max_request_bytes = 4096", None, |c| {
        new_game(c, &[]);
    });
    let malformed = x.post("<soap:Envelope><soap:Body><GetMyGames>");
    assert_eq!(malformed.status, 500);
    assert!(
        malformed
            .body
            .contains("<faultcode>soap:Client</faultcode>")
    );

    let big = envelope(&format!(
        "<GetMyGames xmlns=\"{NS}\"><username>{}</username><password>x</password></GetMyGames>",
        "a".repeat(100_000)
    ));
    let oversized = x.post(&big);
    assert_eq!(oversized.status, 413, "{}", oversized.body);
    // Without a Content-Length (chunked), the body is cut at the limit.
    let chunk = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    let chunked = x.raw(
        &format!(
            "POST /xfccbasic.asmx HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked",
            x.port
        ),
        chunk.as_bytes(),
    );
    assert_eq!(chunked.status, 413);

    let lol = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">\
        <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\
        <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\
        <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">]>";
    let attack = format!(
        "{lol}<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
         <GetMyGames xmlns=\"{NS}\"><username>&lol3;</username><password>x</password></GetMyGames>\
         </soap:Body></soap:Envelope>"
    );
    let refused = x.post(&attack);
    assert_eq!(refused.status, 500);
    assert!(
        refused
            .body
            .contains("document type declarations are not accepted"),
        "{}",
        refused.body
    );
    let xxe = envelope(&format!(
        "<GetMyGames xmlns=\"{NS}\"><username>&xxe;</username><password>x</password></GetMyGames>"
    ));
    assert_eq!(x.post(&xxe).status, 500);

    let wrong_path = x.raw(
        &format!("GET /etc/passwd HTTP/1.1\r\nHost: 127.0.0.1:{}", x.port),
        b"",
    );
    assert_eq!(wrong_path.status, 404);

    let ok = x.get_my_games(ANNA, ANNA_PW);
    assert_eq!(ok.status, 200, "the server still answers");
}

/// The WSDL is served with the service's address as the client reached it.
#[test]
fn the_wsdl_names_the_address_the_client_used() {
    let x = start("", None, |_| {});
    let a = x.raw(
        "GET /xfccbasic.asmx?WSDL HTTP/1.1\r\nHost: chess.example:8443",
        b"",
    );
    assert_eq!(a.status, 200);
    assert!(a.body.contains("http://chess.example:8443/xfccbasic.asmx"));
    assert!(!a.body.contains("XFCC_LOCATION"));
}

/// The same move sent by mail and by Xfcc at the same instant, in several
/// games: each game gets one move, never two, and the Xfcc call is either
/// the one taken (Success) or finds the move made (NotYourTurn).
#[test]
fn the_same_move_by_mail_and_by_xfcc_at_once_is_applied_once() {
    const GAMES: usize = 6;
    let mut games = Vec::new();
    let x = start("", None, |c| {
        for _ in 0..GAMES {
            games.push(new_game(c, &[]));
        }
    });
    let mut results = Vec::new();
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        for (i, g) in games.iter().enumerate() {
            let raw = mail(ANNA, &g.white, &format!("race-{i}@example.org"), "1. 5254");
            let x = &x;
            // Half the games get the mail first, half the call.
            handles.push(s.spawn(move || {
                if i % 2 == 0 {
                    x.club.deliver(&format!("race-{i}"), &raw);
                    x.make_a_move((ANNA, ANNA_PW), g.id, 1, "e4", &[], "")
                } else {
                    let mailed = s.spawn(move || {
                        std::thread::yield_now();
                        x.club.deliver(&format!("race-{i}"), &raw);
                    });
                    let r = x.make_a_move((ANNA, ANNA_PW), g.id, 1, "e4", &[], "");
                    mailed.join().unwrap();
                    r
                }
            }));
        }
        for h in handles {
            results.push(h.join().unwrap());
        }
    });
    eprintln!("Xfcc results beside the mails: {results:?}");
    // Every mail is handled (moved to cur/) before the plies are counted.
    let deadline = Instant::now() + Duration::from_secs(30);
    while x.club.maildir_count("new") > 0 {
        assert!(Instant::now() < deadline, "the mails were never taken");
        std::thread::sleep(Duration::from_millis(50));
    }
    x.mails_to(BEN, GAMES);
    for (g, r) in games.iter().zip(&results) {
        assert!(r == "Success" || r == "NotYourTurn", "game {}: {r}", g.id);
        assert_eq!(x.plies(g.id), 1, "game {} has one move", g.id);
    }
    assert_eq!(x.mails_to(BEN, GAMES).len(), GAMES, "one relay per game");
}

/// The password in a password mail.
fn password_in(mail: &str) -> String {
    let at = mail.find("(Xfcc): ").expect("a password line") + "(Xfcc): ".len();
    mail[at..].split_whitespace().next().unwrap().to_owned()
}

/// A player who writes "xfcc password" to their game address gets a new
/// random password by mail, which works and replaces the old one; the
/// organiser's `--xfcc-password-random` mails one too.
#[test]
fn new_random_passwords_are_mailed_and_replace_the_old_ones() {
    let mut game = None;
    let x = start("", None, |c| game = Some(new_game(c, &[])));
    let game = game.unwrap();
    x.club.deliver(
        "pw-1",
        &mail(ANNA, &game.white, "pw-1@example.org", "xfcc password"),
    );
    let to_anna = x.mails_to(ANNA, 1);
    assert!(to_anna[0].contains("your Xfcc password"), "{}", to_anna[0]);
    let new = password_in(&to_anna[0]);
    assert_ne!(new, ANNA_PW);
    assert_eq!(x.get_my_games(ANNA, &new).status, 200);
    assert_eq!(
        x.get_my_games(ANNA, ANNA_PW).status,
        500,
        "the old one is gone"
    );

    let out = wildt(
        &x.club.cfg,
        &["player", "set", BEN, "--xfcc-password-random"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Mail queued by another process goes when the sender next wakes: a
    // move's mails wake it.
    assert_eq!(x.make_a_move((ANNA, &new), 1, 1, "d4", &[], ""), "Success");
    let to_ben = x.mails_to(BEN, 2);
    let pw_mail = to_ben
        .iter()
        .find(|m| m.contains("(Xfcc): "))
        .expect("the password mail");
    assert_eq!(x.get_my_games(BEN, &password_in(pw_mail)).status, 200);
    assert_eq!(x.get_my_games(BEN, BEN_PW).status, 500);
}

/// With `tls_cert`/`tls_key` the server speaks TLS itself (rustls): a
/// GetMyGames over TLS is answered, and the WSDL names an https address.
#[test]
fn tls_is_served_directly_when_a_certificate_is_configured() {
    let certs = tempfile::tempdir().unwrap();
    let (cert, key) = (certs.path().join("cert.pem"), certs.path().join("key.pem"));
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
        ])
        // rustls refuses a self-signed certificate without these two
        // (CaUsedAsEndEntity), as the mail rig's setup says.
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .args(["-addext", "extendedKeyUsage=serverAuth"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stderr(Stdio::null())
        .status()
        .expect("openssl must be installed (the mail rig's setup installs it)");
    assert!(made.success());
    let extra = format!(
        "tls_cert = \"{}\"\ntls_key = \"{}\"",
        cert.display(),
        key.display()
    );
    let x = start(&extra, None, |c| {
        new_game(c, &[]);
    });
    let pem = std::fs::read(&cert).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for c in rustls_pemfile::certs(&mut pem.as_slice()) {
        roots.add(c.unwrap()).unwrap();
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let over_tls = |request: &str| {
        let conn = rustls::ClientConnection::new(
            std::sync::Arc::new(config.clone()),
            "localhost".try_into().unwrap(),
        )
        .unwrap();
        let tcp = TcpStream::connect(("127.0.0.1", x.port)).unwrap();
        tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        tls.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        // The server may close without a close_notify: what came is kept.
        let _ = tls.read_to_end(&mut raw);
        String::from_utf8_lossy(&raw).into_owned()
    };
    let body = envelope(&format!(
        "<GetMyGames xmlns=\"{NS}\"><username>{ANNA}</username><password>{ANNA_PW}</password></GetMyGames>"
    ));
    let answer = over_tls(&format!(
        "POST /xfccbasic.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=\"utf-8\"\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("<XfccGame><id>1</id>"), "{answer}");
    let wsdl = over_tls(
        "GET /xfccbasic.asmx?wsdl HTTP/1.1\r\nHost: localhost:8443\r\nConnection: close\r\n\r\n",
    );
    assert!(
        wsdl.contains("https://localhost:8443/xfccbasic.asmx"),
        "{wsdl}"
    );
    // Plain HTTP to the TLS port gets no HTTP answer, and the server goes on.
    let mut plain = TcpStream::connect(("127.0.0.1", x.port)).unwrap();
    plain
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    plain
        .write_all(b"GET /xfccbasic.asmx?wsdl HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut raw = Vec::new();
    let _ = plain.read_to_end(&mut raw);
    assert!(
        !raw.starts_with(b"HTTP/"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    assert!(over_tls(&format!(
        "POST /xfccbasic.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
    .starts_with("HTTP/1.1 200"));
}

/// A client that sends half a request head and then nothing is cut off
/// after `request_timeout_secs`; a SIGTERM stops the daemon cleanly (exit
/// 0) while another such client holds a connection open.
#[test]
fn a_stalled_client_is_cut_off_and_sigterm_still_stops_the_daemon() {
    let mut x = start("request_timeout_secs = 1", None, |c| {
        new_game(c, &[]);
    });
    let stalled = |port: u16| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s.write_all(b"POST /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\n")
            .unwrap();
        s
    };
    let mut slow = stalled(x.port);
    let mut rest = Vec::new();
    // Closed by the server (a read of 0 bytes, or a reset), never answered.
    let _ = slow.read_to_end(&mut rest);
    assert!(!rest.starts_with(b"HTTP/1.1 200"));
    assert_eq!(x.get_my_games(ANNA, ANNA_PW).status, 200);

    let _held = stalled(x.port);
    let term = Command::new("kill")
        .args(["-TERM", &x.child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = x.child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "serve did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    assert!(
        TcpStream::connect(("127.0.0.1", x.port)).is_err(),
        "the port is closed"
    );
}

/// A MakeAMove is one transaction: a daemon killed after the move was
/// decided and its mails written, before the commit, leaves no move and no
/// mail; started again, the same call is taken once.
#[test]
fn a_move_cut_off_before_its_commit_leaves_nothing_and_is_taken_when_sent_again() {
    let mut x = start("", None, |c| {
        new_game(c, &[]);
    });
    x.child.kill().unwrap();
    x.child.wait().unwrap();
    x.child = serve(
        &x.club,
        x.port,
        &[("WILDT_FAILPOINT", "xfcc-before-commit:1")],
    );
    let body = envelope(&format!(
        "<MakeAMove xmlns=\"{NS}\"><username>{ANNA}</username><password>{ANNA_PW}</password>\
         <gameId>1</gameId><movecount>1</movecount><myMove>e4</myMove></MakeAMove>"
    ));
    let mut s = TcpStream::connect(("127.0.0.1", x.port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(
        format!(
            "POST /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
    let status = x.child.wait().unwrap();
    assert!(!status.success(), "the failpoint ended the daemon");
    assert_eq!(x.plies(1), 0);
    assert!(x.club.outbox().is_empty());

    x.child = serve(&x.club, x.port, &[]);
    assert_eq!(
        x.make_a_move((ANNA, ANNA_PW), 1, 1, "e4", &[], ""),
        "Success"
    );
    assert_eq!(x.plies(1), 1);
    assert_eq!(x.mails_to(BEN, 1).len(), 1);
}

/// An operator's fault: `[xfcc] listen` names a port another program holds.
/// `serve` stops at once and says which address and why, rather than
/// running without the Xfcc server or retrying in silence.
#[test]
fn a_listen_address_already_taken_stops_serve_with_the_address_and_the_reason() {
    let club = Club::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let mut cfg = std::fs::read_to_string(&club.cfg).unwrap();
    cfg.push_str(&format!("\n[xfcc]\nlisten = \"127.0.0.1:{port}\"\n"));
    std::fs::write(&club.cfg, cfg).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--config"])
        .arg(&club.cfg)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            child.kill().unwrap();
            panic!("serve kept running on a taken Xfcc port");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    assert!(!status.success(), "{said}");
    assert!(
        said.contains(&format!("xfcc: cannot listen on 127.0.0.1:{port}"))
            && said.contains("in use"),
        "{said}"
    );
    drop(taken);
}
