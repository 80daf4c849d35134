//! The day clocks end to end: `wildt serve --once` and `wildt game` as
//! processes over the Maildir club, at instants set with `WILDT_NOW`, with
//! each delivered file's modification time as its arrival.

use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use serde_json::Value;
use wildt::clock::Date;

use crate::support::cli::json_of;
use crate::support::club::{Club, mail};
use crate::support::fixtures::body_text;

const DAY: i64 = 86_400;
const HOUR: i64 = 3_600;

/// 2026-12-01T00:00:00Z: every test's game starts here.
fn t0() -> i64 {
    Date::from_ymd(2026, 12, 1).unwrap().start()
}

fn rfc3339(t: i64) -> String {
    let secs = t.rem_euclid(DAY);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::of_instant(t),
        secs / HOUR,
        secs % HOUR / 60,
        secs % 60
    )
}

/// `wildt ARGS --config CFG` with `WILDT_NOW` at `now`.
fn wildt_at(club: &Club, now: i64, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .arg("--config")
        .arg(&club.cfg)
        .env("WILDT_NOW", rfc3339(now))
        .output()
        .unwrap()
}

fn serve_at(club: &Club, now: i64) {
    let out = wildt_at(club, now, &["serve", "--once"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn show_at(club: &Club, id: i64, now: i64) -> Value {
    json_of(&wildt_at(
        club,
        now,
        &["game", "show", &id.to_string(), "--json"],
    ))
}

struct Timed {
    id: i64,
    white: String,
    black: String,
}

/// A game under `control`, created at `t0()`, without opening mails.
fn timed_game(club: &Club, control: &str) -> Timed {
    game_between(club, "anna@example.org", "ben@example.net", control)
}

/// A game of `white` against `black` under `control`, created at `t0()`,
/// without opening mails.
fn game_between(club: &Club, white: &str, black: &str, control: &str) -> Timed {
    let v = json_of(&wildt_at(
        club,
        t0(),
        &[
            "game",
            "new",
            "--no-mail",
            "--white",
            white,
            "--black",
            black,
            "--time",
            control,
            "--json",
        ],
    ));
    Timed {
        id: v["id"].as_i64().unwrap(),
        white: v["white"]["address"].as_str().unwrap().to_owned(),
        black: v["black"]["address"].as_str().unwrap().to_owned(),
    }
}

/// Delivers `raw` into `new/` as if it arrived at `at` (the file's mtime).
fn deliver_at(club: &Club, name: &str, raw: &str, at: i64) {
    club.deliver(name, raw);
    let path = club.dir.path().join("mail/new").join(name);
    let when = SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(at).unwrap());
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    let head = raw.split("\r\n\r\n").next().unwrap_or(raw);
    head.lines()
        .find(|l| {
            l.len() > name.len()
                && l[..name.len()].eq_ignore_ascii_case(name)
                && l.as_bytes()[name.len()] == b':'
        })
        .map(|l| l[name.len() + 1..].trim())
}

/// The mails of the outbox to `to` whose subject contains `text`.
fn mails_to(club: &Club, to: &str, text: &str) -> usize {
    club.outbox()
        .iter()
        .filter(|m| header(m, "To") == Some(to))
        .filter(|m| header(m, "Subject").is_some_and(|s| s.contains(text)))
        .count()
}

/// The moves of Byrne–Fischer 1956 in ICCF notation.
fn fischer_moves() -> Vec<String> {
    include_str!("../fixtures/games/byrne_fischer_1956.iccf")
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|t| (4..=5).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

/// The charge of `secs` of reflection under ICCF's rule (all under 20 days
/// here: whole days).
fn whole_days(secs: i64) -> i64 {
    secs / DAY
}

#[test]
fn each_players_time_is_counted_from_arrivals_after_every_move_of_30_moves() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let moves = fischer_moves();
    assert!(moves.len() >= 60, "{}", moves.len());
    let mut at = t0();
    let mut used = [0i64, 0];
    for (i, mv) in moves.iter().take(60).enumerate() {
        let side = i % 2;
        // Reflection varies: 0 to 3 whole days and some hours.
        let thought = (i as i64 * 7 % 4) * DAY + (i as i64 % 5 + 1) * HOUR;
        at += thought;
        used[side] += whole_days(thought);
        let (from, to) = if side == 0 {
            ("anna@example.org", &g.white)
        } else {
            ("ben@example.net", &g.black)
        };
        deliver_at(
            &club,
            &format!("{i}.eml"),
            &mail(from, to, &format!("m{i}@example.org"), mv),
            at,
        );
        // Handled an hour after it arrived: the hour is not charged.
        serve_at(&club, at + HOUR);
        let v = show_at(&club, g.id, at + HOUR);
        assert_eq!(v["moves"].as_array().unwrap().len(), i + 1, "ply {i}: {v}");
        let clock = &v["clock"];
        assert_eq!(clock["control"], "10/50");
        for (k, name) in ["white", "black"].into_iter().enumerate() {
            let made = (i as i64 + 2 - k as i64) / 2; // moves made by this side
            let next = made + 1;
            let allowed = 50 * ((next + 9) / 10);
            assert_eq!(clock[name]["days_used"], used[k], "ply {i} {name}: {clock}");
            assert_eq!(
                clock[name]["days_left"],
                allowed - used[k],
                "ply {i} {name}: {clock}"
            );
        }
    }
    // The confirmations carry both clocks.
    let confirmations: Vec<String> = club
        .outbox()
        .into_iter()
        .filter(|m| header(m, "X-Wildt-Event") == Some("move-accepted"))
        .collect();
    assert_eq!(confirmations.len(), 60);
    let bodies: Vec<String> = confirmations
        .iter()
        .map(|m| body_text(m.as_bytes()))
        .collect();
    // After Black's 30th move: White's 31st is next, 200 days for 40 moves.
    let white_left = 200 - used[0];
    let black_left = 200 - used[1];
    let line_w = format!("White: {white_left} days left for moves 31–40");
    let line_b = format!("Black: {black_left} days left for moves 31–40");
    assert!(
        bodies
            .iter()
            .any(|b| b.contains(&line_w) && b.contains(&line_b)),
        "{line_w} / {line_b} in none of {bodies:#?}"
    );
}

#[test]
fn reminders_at_14_and_28_days_are_sent_once_each_across_restarts() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    serve_at(&club, t0() + 13 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 0);
    serve_at(&club, t0() + 14 * DAY + HOUR);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 1);
    // Each run is a new process: what was done is known from the database.
    serve_at(&club, t0() + 15 * DAY);
    serve_at(&club, t0() + 27 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 1);
    serve_at(&club, t0() + 28 * DAY + HOUR);
    serve_at(&club, t0() + 29 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 2);
    assert_eq!(mails_to(&club, "ben@example.net", "reminder"), 0);
    let reminder = club
        .outbox()
        .into_iter()
        .find(|m| header(m, "Subject").is_some_and(|s| s.contains("reminder")))
        .unwrap();
    assert!(reminder.contains("14 days"), "{reminder}");
    assert_eq!(show_at(&club, g.id, t0() + 29 * DAY)["status"], "active");
}

#[test]
fn a_time_forfeit_is_decided_by_the_daemon_with_no_incoming_mail() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    // 50 days for moves 1-10: 36 days on move 1 cost 20 + 2 * 16 = 52.
    serve_at(&club, t0() + 35 * DAY + HOUR);
    assert_eq!(
        show_at(&club, g.id, t0() + 35 * DAY + HOUR)["status"],
        "active"
    );
    assert_eq!(
        mails_to(&club, "anna@example.org", "your time is running out"),
        1
    );
    serve_at(&club, t0() + 36 * DAY + HOUR);
    let v = show_at(&club, g.id, t0() + 37 * DAY);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["termination"], "time forfeit");
    assert_eq!(mails_to(&club, "anna@example.org", "game over"), 1);
    assert_eq!(mails_to(&club, "ben@example.net", "game over"), 1);
    // Decided once: a later run sends nothing more.
    let before = club.outbox().len();
    serve_at(&club, t0() + 40 * DAY);
    assert_eq!(club.outbox().len(), before);
}

#[test]
fn a_move_arriving_after_the_flag_fell_finds_the_game_lost() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    // Arrived on day 37; nobody ran the referee until then.
    deliver_at(
        &club,
        "late.eml",
        &mail("anna@example.org", &g.white, "late@example.org", "1. 5254"),
        t0() + 37 * DAY,
    );
    serve_at(&club, t0() + 37 * DAY + HOUR);
    let v = show_at(&club, g.id, t0() + 38 * DAY);
    assert_eq!(v["termination"], "time forfeit");
    assert_eq!(v["moves"].as_array().unwrap().len(), 0, "{v}");
}

#[test]
fn an_outage_of_the_referee_costs_the_player_nothing() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    // Arrived after 2 days, handled only 30 days later.
    deliver_at(
        &club,
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
        t0() + 2 * DAY,
    );
    serve_at(&club, t0() + 32 * DAY);
    let v = show_at(&club, g.id, t0() + 32 * DAY);
    assert_eq!(v["clock"]["white"]["days_used"], 2, "{v}");
    assert_eq!(v["status"], "active");
}

#[test]
fn an_unreadable_wildt_now_is_refused() {
    let club = Club::new();
    let out = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["game", "list", "--config"])
        .arg(&club.cfg)
        .env("WILDT_NOW", "next tuesday")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("WILDT_NOW"));
}

#[test]
fn a_leave_stops_the_players_clock_and_both_players_are_told() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let id = g.id.to_string();
    // Granted on day 0 for 3-11 December (9 days): White's clock stops then.
    let out = wildt_at(
        &club,
        t0(),
        &[
            "game",
            "leave",
            &id,
            "--as",
            "white",
            "--from",
            "2026-12-03",
            "--to",
            "11.12.2026",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The organiser's mails go out with the referee's next run.
    serve_at(&club, t0());
    assert_eq!(mails_to(&club, "anna@example.org", "leave"), 1);
    assert_eq!(mails_to(&club, "ben@example.net", "leave"), 1);
    let v = show_at(&club, g.id, t0() + 15 * DAY + HOUR);
    let white = &v["clock"]["white"];
    // 15 days and an hour since the start, 9 of them on leave.
    assert_eq!(white["days_used"], 6, "{v}");
    assert_eq!(white["days_left"], 44, "{v}");
    assert_eq!(white["leave_days_left"], 45 - 9, "{v}");
    let during = show_at(&club, g.id, t0() + 5 * DAY);
    assert_eq!(during["clock"]["white"]["on_leave"], true);
    // The first reminder comes after 14 days of running clock: day 23.
    serve_at(&club, t0() + 15 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 0);
    serve_at(&club, t0() + 24 * DAY + HOUR);
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 1);
}

#[test]
fn leave_beyond_45_days_a_year_is_refused() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let id = g.id.to_string();
    let leave = |from: &str, to: &str| {
        wildt_at(
            &club,
            t0(),
            &[
                "game", "leave", &id, "--as", "black", "--from", from, "--to", to,
            ],
        )
    };
    // 2027: 40 days, then 6 more is one too many.
    assert!(leave("2027-01-01", "2027-02-09").status.success());
    let refused = leave("2027-03-01", "2027-03-06");
    assert_eq!(refused.status.code(), Some(2));
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(why.contains("only 5 of the 45 days"), "{why}");
    assert!(leave("2027-03-01", "2027-03-05").status.success());
    serve_at(&club, t0());
    assert_eq!(mails_to(&club, "ben@example.net", "leave"), 2);
}

#[test]
fn the_organiser_gives_days_and_adjudicates_with_both_players_mailed() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let id = g.id.to_string();
    let out = wildt_at(
        &club,
        t0() + DAY,
        &["game", "clock", &id, "--as", "white", "--add-days", "7"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = show_at(&club, g.id, t0() + 3 * DAY);
    assert_eq!(v["clock"]["white"]["days_left"], 57 - 3, "{v}");
    serve_at(&club, t0() + 3 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "ruling"), 1);
    assert_eq!(mails_to(&club, "ben@example.net", "ruling"), 1);
    let out = wildt_at(
        &club,
        t0() + 4 * DAY,
        &[
            "game",
            "adjudicate",
            &id,
            "1/2-1/2",
            "--reason",
            "both players withdrew",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serve_at(&club, t0() + 5 * DAY);
    let v = show_at(&club, g.id, t0() + 5 * DAY);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["termination"], "adjudication");
    let over: Vec<String> = club
        .outbox()
        .into_iter()
        .filter(|m| header(m, "X-Wildt-Event") == Some("game-over"))
        .map(|m| body_text(m.as_bytes()))
        .collect();
    assert_eq!(over.len(), 2);
    assert!(
        over.iter().all(|b| b.contains("both players withdrew")),
        "{over:#?}"
    );
}

#[test]
fn pgn_carries_the_time_control_and_the_days_of_each_move() {
    let club = Club::new();
    let g = timed_game(&club, "30+3");
    deliver_at(
        &club,
        "1.eml",
        &mail("anna@example.org", &g.white, "m1@example.org", "1. 5254"),
        t0() + 3 * DAY + HOUR,
    );
    serve_at(&club, t0() + 3 * DAY + 2 * HOUR);
    let out = wildt_at(&club, t0() + 4 * DAY, &["game", "pgn", &g.id.to_string()]);
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert!(pgn.contains("[TimeControl \"30+3\"]"), "{pgn}");
    assert!(pgn.contains("e4 {5254 3d}"), "{pgn}");
}

#[test]
fn leave_asked_by_mail_stops_the_clock_and_both_players_are_told() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    deliver_at(
        &club,
        "leave.eml",
        &mail(
            "anna@example.org",
            &g.white,
            "leave@example.org",
            "Hello,\r\n\r\nleave 2026-12-05 to 2026-12-14\r\n\r\nAnna",
        ),
        t0() + HOUR,
    );
    serve_at(&club, t0() + 2 * HOUR);
    assert_eq!(mails_to(&club, "anna@example.org", "leave"), 1);
    assert_eq!(mails_to(&club, "ben@example.net", "leave"), 1);
    let v = show_at(&club, g.id, t0() + 15 * DAY + HOUR);
    assert_eq!(v["clock"]["white"]["days_used"], 5, "{v}");
    assert_eq!(v["clock"]["white"]["leave_days_left"], 35, "{v}");
    // Cancelled before it began: the clock runs on as without it.
    deliver_at(
        &club,
        "cancel.eml",
        &mail(
            "anna@example.org",
            &g.white,
            "cancel@example.org",
            "cancel leave",
        ),
        t0() + DAY,
    );
    serve_at(&club, t0() + DAY + HOUR);
    assert_eq!(mails_to(&club, "ben@example.net", "leave"), 2);
    let v = show_at(&club, g.id, t0() + 15 * DAY + HOUR);
    assert_eq!(v["clock"]["white"]["days_used"], 15, "{v}");
}

#[test]
fn leave_asked_by_mail_past_45_days_is_refused_with_the_reason() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    deliver_at(
        &club,
        "leave.eml",
        &mail(
            "ben@example.net",
            &g.black,
            "leave@example.net",
            "Urlaub 01.01.2027 bis 20.02.2027",
        ),
        t0() + HOUR,
    );
    serve_at(&club, t0() + 2 * HOUR);
    let answers: Vec<String> = club
        .outbox()
        .into_iter()
        .filter(|m| header(m, "To") == Some("ben@example.net"))
        .map(|m| body_text(m.as_bytes()))
        .collect();
    assert_eq!(answers.len(), 1, "{answers:#?}");
    assert!(
        answers[0]
            .contains("it takes 51 days of 2027, but only 45 of your 45 days a year are left"),
        "{}",
        answers[0]
    );
    assert_eq!(mails_to(&club, "anna@example.org", "leave"), 0);
    let v = show_at(&club, g.id, t0() + 2 * HOUR);
    assert_eq!(v["clock"]["black"]["leave_days_left"], 45, "{v}");
}

/// Every leave example KEYWORDS.md gives players is read as that leave.
#[test]
fn the_leave_examples_of_keywords_md_are_read() {
    use wildt::clock::{LeaveRequest, parse_leave_line};
    let text = include_str!("../../src/intake/KEYWORDS.md");
    let section = text.split("### Time").nth(1).expect("a Time section");
    let examples: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Language"))
        .flat_map(|l| l.split('`').skip(1).step_by(2))
        .collect();
    assert!(examples.len() >= 5, "{examples:?}");
    let d = |s: &str| s.parse::<Date>().unwrap();
    for e in examples {
        assert_eq!(
            parse_leave_line(e),
            Some(LeaveRequest::Take {
                from: d("2026-12-20"),
                to: d("2027-01-03")
            }),
            "{e}"
        );
    }
    assert_eq!(
        parse_leave_line("cancel leave 2026-12-20"),
        Some(LeaveRequest::Cancel {
            from: Some(d("2026-12-20"))
        })
    );
}

/// `wildt serve` (the daemon, not `--once`) at the instant `now`.
fn spawn_serve_at(club: &Club, now: i64) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["serve", "--config"])
        .arg(&club.cfg)
        .env("WILDT_NOW", rfc3339(now))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits up to 20 s for `done`.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_reminder_is_sent_once_when_the_daemon_is_killed_and_restarted() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let mut daemon = spawn_serve_at(&club, t0() + 14 * DAY + HOUR);
    wait_until("the reminder", || {
        mails_to(&club, "anna@example.org", "reminder") == 1
    });
    daemon.kill().unwrap();
    daemon.wait().unwrap();
    let mut daemon = spawn_serve_at(&club, t0() + 15 * DAY);
    // A status request: once it is answered, the restarted daemon has been
    // through a whole round, deadlines included.
    deliver_at(
        &club,
        "status.eml",
        &mail("ben@example.net", &g.black, "s1@example.net", "status"),
        t0() + 15 * DAY,
    );
    wait_until("the status answer", || {
        club.outbox()
            .iter()
            .any(|m| header(m, "To") == Some("ben@example.net"))
    });
    daemon.kill().unwrap();
    daemon.wait().unwrap();
    assert_eq!(mails_to(&club, "anna@example.org", "reminder"), 1);
}

/// The subjects of the outbox's mails to `to` that concern leave.
fn leave_subjects(club: &Club, to: &str) -> Vec<String> {
    club.outbox()
        .iter()
        .filter(|m| header(m, "To") == Some(to))
        .filter_map(|m| header(m, "Subject").map(str::to_owned))
        .filter(|s| s.ends_with("leave"))
        .collect()
}

#[test]
fn leave_granted_or_cancelled_tells_the_opponent_in_each_of_the_players_unfinished_games() {
    let club = Club::new();
    // Anna plays three unfinished games (White, Black, White) and one over.
    let g1 = game_between(&club, "anna@example.org", "ben@example.net", "10/50");
    let g2 = game_between(&club, "carl@example.com", "anna@example.org", "30+3");
    let g3 = game_between(&club, "anna@example.org", "dora@example.com", "none");
    let g4 = game_between(&club, "anna@example.org", "erik@example.com", "10/50");
    let out = wildt_at(
        &club,
        t0(),
        &[
            "game",
            "adjudicate",
            &g4.id.to_string(),
            "1-0",
            "--reason",
            "withdrawn",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    deliver_at(
        &club,
        "leave.eml",
        &mail(
            "anna@example.org",
            &g1.white,
            "leave@example.org",
            "leave 2026-12-05 to 2026-12-14",
        ),
        t0() + HOUR,
    );
    serve_at(&club, t0() + 2 * HOUR);
    let subject = |g: &Timed| format!("[wildt #{}] leave", g.id);
    assert_eq!(leave_subjects(&club, "anna@example.org"), [subject(&g1)]);
    assert_eq!(leave_subjects(&club, "ben@example.net"), [subject(&g1)]);
    assert_eq!(leave_subjects(&club, "carl@example.com"), [subject(&g2)]);
    assert_eq!(leave_subjects(&club, "dora@example.com"), [subject(&g3)]);
    assert_eq!(
        leave_subjects(&club, "erik@example.com"),
        Vec::<String>::new()
    );
    let to_carl: Vec<String> = club
        .outbox()
        .iter()
        .filter(|m| header(m, "To") == Some("carl@example.com"))
        .map(|m| body_text(m.as_bytes()))
        .collect();
    assert!(
        to_carl[0].contains(&format!(
            "Game {}: Black is on leave from 2026-12-05 to 2026-12-14",
            g2.id
        )),
        "{}",
        to_carl[0]
    );
    // Carl's own game's clocks, Carl to move: the notice asks for his move.
    assert!(to_carl[0].contains("White: 30 days left"), "{}", to_carl[0]);
    assert!(
        to_carl[0].contains("Reply to this mail with your move"),
        "{}",
        to_carl[0]
    );
    // The leave stops Anna's clock in game 2 too.
    let v = show_at(&club, g2.id, t0() + 15 * DAY + HOUR);
    assert_eq!(v["clock"]["black"]["on_leave"], false, "{v}");
    let during = show_at(&club, g2.id, t0() + 6 * DAY);
    assert_eq!(during["clock"]["black"]["on_leave"], true, "{during}");

    // Cancelled by mail to game 2: each opponent told again, each in their game.
    deliver_at(
        &club,
        "cancel.eml",
        &mail(
            "anna@example.org",
            &g2.black,
            "cancel@example.org",
            "cancel leave",
        ),
        t0() + DAY,
    );
    serve_at(&club, t0() + DAY + HOUR);
    assert_eq!(leave_subjects(&club, "ben@example.net").len(), 2);
    assert_eq!(leave_subjects(&club, "carl@example.com").len(), 2);
    assert_eq!(leave_subjects(&club, "dora@example.com").len(), 2);
    assert_eq!(leave_subjects(&club, "anna@example.org").len(), 2);
    let to_dora: Vec<String> = club
        .outbox()
        .iter()
        .filter(|m| header(m, "To") == Some("dora@example.com"))
        .map(|m| body_text(m.as_bytes()))
        .collect();
    let cancelled = format!(
        "Game {}: the leave of White from 2026-12-05 is cancelled",
        g3.id
    );
    assert!(
        to_dora.iter().any(|b| b.contains(&cancelled)),
        "{to_dora:#?}"
    );

    // Granted by the organiser in game 3: the opponents of games 1 and 2 too.
    let out = wildt_at(
        &club,
        t0() + 2 * DAY,
        &[
            "game",
            "leave",
            &g3.id.to_string(),
            "--as",
            "white",
            "--from",
            "2026-12-20",
            "--to",
            "2026-12-24",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serve_at(&club, t0() + 2 * DAY);
    assert_eq!(leave_subjects(&club, "ben@example.net").len(), 3);
    assert_eq!(leave_subjects(&club, "carl@example.com").len(), 3);
    assert_eq!(leave_subjects(&club, "dora@example.com").len(), 3);
    assert_eq!(leave_subjects(&club, "anna@example.org").len(), 3);
    assert_eq!(
        leave_subjects(&club, "erik@example.com"),
        Vec::<String>::new()
    );
}

/// `wildt game move ID MOVE --as SEAT --at AT` run at `now`.
fn move_by_hand(club: &Club, now: i64, id: i64, mv: &str, seat: &str, at: i64) -> Output {
    wildt_at(
        club,
        now,
        &[
            "game",
            "move",
            &id.to_string(),
            mv,
            "--as",
            seat,
            "--at",
            &rfc3339(at),
        ],
    )
}

#[test]
fn a_move_recorded_by_hand_after_the_flag_fell_finds_the_game_lost_on_time() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    // Postmarked on day 30, recorded on day 40: in time, by its postmark.
    let out = move_by_hand(
        &club,
        t0() + 40 * DAY,
        g.id,
        "5254",
        "white",
        t0() + 30 * DAY,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = show_at(&club, g.id, t0() + 40 * DAY);
    // 30 days cost 20 + 2 * 10.
    assert_eq!(v["clock"]["white"]["days_used"], 40, "{v}");
    // Black answers 37 days later: 20 + 2 * 17 = 54 days of 50, the flag fell
    // on day 66.
    let out = move_by_hand(
        &club,
        t0() + 70 * DAY,
        g.id,
        "5755",
        "black",
        t0() + 67 * DAY,
    );
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("over"), "{said}");
    let v = show_at(&club, g.id, t0() + 70 * DAY);
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["result"], "1-0");
    assert_eq!(v["termination"], "time forfeit");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    // Both told, as when the flag falls on a mailed move.
    serve_at(&club, t0() + 70 * DAY);
    assert_eq!(mails_to(&club, "anna@example.org", "game over"), 1);
    assert_eq!(mails_to(&club, "ben@example.net", "game over"), 1);
}

#[test]
fn a_move_recorded_by_hand_after_the_flag_fell_is_a_draw_when_the_opponent_cannot_mate() {
    let club = Club::new();
    // White has king and queen, Black a bare king: Black cannot mate.
    let v = json_of(&wildt_at(
        &club,
        t0(),
        &[
            "game",
            "new",
            "--no-mail",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "--time",
            "10/50",
            "--json",
        ],
    ));
    let id = v["id"].as_i64().unwrap();
    let out = move_by_hand(&club, t0() + 38 * DAY, id, "4144", "white", t0() + 37 * DAY);
    assert_eq!(out.status.code(), Some(2));
    let v = show_at(&club, id, t0() + 38 * DAY);
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["termination"], "time forfeit");
    assert_eq!(v["moves"].as_array().unwrap().len(), 0, "{v}");
}

/// `wildt status --json` at `now`: its exit code and JSON.
fn status_at(club: &Club, now: i64) -> (Option<i32>, Value) {
    let out = wildt_at(club, now, &["status", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    (out.status.code(), v)
}

fn problem_kinds(v: &Value) -> Vec<String> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn status_shows_the_next_deadline_and_fails_when_one_is_overdue_with_or_without_a_daemon() {
    let club = Club::new();
    let g = timed_game(&club, "10/50");
    let (code, v) = status_at(&club, t0() + DAY);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        v["next_deadline"],
        serde_json::json!({"game": g.id, "kind": "reminder-14", "side": "white", "at": t0() + 14 * DAY}),
        "{v}"
    );
    // A few minutes late is no problem yet.
    let (code, v) = status_at(&club, t0() + 14 * DAY + 5 * 60);
    assert_eq!(code, Some(0), "{v}");
    // An hour late with no daemon: nobody keeps time.
    let (code, v) = status_at(&club, t0() + 14 * DAY + HOUR);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(problem_kinds(&v), ["deadline_overdue"], "{v}");
    assert_eq!(v["next_deadline"]["kind"], "reminder-14");
    let detail = v["problems"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("no daemon"), "{detail}");
    // The text form says it too, and exits 1.
    let out = wildt_at(&club, t0() + 14 * DAY + HOUR, &["status"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "next deadline: game {}, reminder-14 of white, overdue",
            g.id
        )),
        "{text}"
    );
    // The referee acts: the next deadline is the second reminder.
    serve_at(&club, t0() + 14 * DAY + HOUR);
    let (code, v) = status_at(&club, t0() + 14 * DAY + HOUR);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["next_deadline"]["kind"], "reminder-28", "{v}");
    assert_eq!(v["next_deadline"]["at"], t0() + 28 * DAY, "{v}");
    // A daemon that runs but does not act (its clock stands on day 15) is
    // not keeping time either.
    let mut daemon = spawn_serve_at(&club, t0() + 15 * DAY);
    wait_until("the daemon holds the lock", || {
        status_at(&club, t0() + 15 * DAY).1["daemon"]["running"] == true
    });
    let (code, v) = status_at(&club, t0() + 29 * DAY);
    daemon.kill().unwrap();
    daemon.wait().unwrap();
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(problem_kinds(&v), ["deadline_overdue"], "{v}");
    let detail = v["problems"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("running daemon"), "{detail}");
    // A finished game has no deadline.
    let out = wildt_at(
        &club,
        t0() + 29 * DAY,
        &[
            "game",
            "adjudicate",
            &g.id.to_string(),
            "1/2-1/2",
            "--reason",
            "agreed",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serve_at(&club, t0() + 29 * DAY);
    let (code, v) = status_at(&club, t0() + 29 * DAY);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["next_deadline"], Value::Null, "{v}");
}
