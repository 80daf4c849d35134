//! The service as systemd runs it: the unit file checks out, and the daemon
//! speaks the notify protocol (READY, WATCHDOG, STOPPING) on a stand-in
//! NOTIFY_SOCKET, then stops cleanly on SIGTERM.

use std::os::unix::net::UnixDatagram;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::temp_config;

/// The unit with ExecStart pointing at the binary under test, as
/// `systemd-analyze verify` checks that the executable exists.
fn unit_for_test(dir: &std::path::Path) -> std::path::PathBuf {
    let unit = include_str!("../../config/wildt.service")
        .replace("/usr/bin/wildt", env!("CARGO_BIN_EXE_wildt"));
    let path = dir.join("wildt.service");
    std::fs::write(&path, unit).unwrap();
    path
}

#[test]
fn unit_file_verifies_without_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let unit = unit_for_test(dir.path());
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&unit)
        .output()
        .expect("systemd-analyze must be installed (scripts/test.sh installs it)");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert_eq!(said.trim(), "", "verify printed something");
}

#[test]
fn unit_file_security_exposure_is_at_most_1_5() {
    let dir = tempfile::tempdir().unwrap();
    let unit = unit_for_test(dir.path());
    let out = Command::new("systemd-analyze")
        .args(["security", "--offline=true"])
        .arg(&unit)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or_else(|| panic!("no score in:\n{text}"));
    let score: f64 = line
        .split(':')
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("cannot read the score in {line}"));
    assert!(score <= 1.5, "{line}");
}

/// `wildt serve` as systemd starts it: NOTIFY_SOCKET, WATCHDOG_USEC, and
/// WATCHDOG_PID set to the service's own pid (`exec` keeps the shell's).
fn serve_under_watchdog(
    cfg: &std::path::Path,
    sock: &std::path::Path,
    usec: u64,
) -> std::process::Child {
    Command::new("sh")
        .arg("-c")
        .arg("WATCHDOG_PID=$$ exec \"$0\" serve --config \"$1\"")
        .arg(env!("CARGO_BIN_EXE_wildt"))
        .arg(cfg)
        .env("NOTIFY_SOCKET", sock)
        .env("WATCHDOG_USEC", usec.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn receive_until(sock: &UnixDatagram, want: &str, seen: &mut Vec<String>) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        match sock.recv(&mut buf) {
            Ok(n) => {
                let msg = String::from_utf8_lossy(&buf[..n]).to_string();
                let found = msg.lines().any(|l| l == want);
                seen.push(msg);
                if found {
                    return true;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(e) => panic!("notify socket: {e}"),
        }
    }
    false
}

#[test]
fn serve_reports_ready_watchdog_and_stopping_then_exits_zero_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let sock_path = dir.path().join("notify.sock");
    let sock = UnixDatagram::bind(&sock_path).unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut child = serve_under_watchdog(&cfg, &sock_path, 400_000);
    let mut seen = Vec::new();
    assert!(receive_until(&sock, "READY=1", &mut seen), "{seen:?}");
    // Two pings after READY: the watchdog keeps going while idle.
    assert!(receive_until(&sock, "WATCHDOG=1", &mut seen), "{seen:?}");
    assert!(receive_until(&sock, "WATCHDOG=1", &mut seen), "{seen:?}");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(receive_until(&sock, "STOPPING=1", &mut seen), "{seen:?}");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

/// Regression: the notify send blocked once the socket's small queue was
/// full, freezing the daemon (found by the latency benchmark, whose stand-in
/// socket stopped reading after READY).
#[test]
fn serve_keeps_handling_mail_when_nobody_reads_the_notify_socket() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let sock_path = dir.path().join("notify.sock");
    // Bound and never read: its queue fills after a handful of datagrams.
    let _sock = UnixDatagram::bind(&sock_path).unwrap();
    let created = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args([
            "game",
            "new",
            "--no-mail",
            "--json",
            "--white",
            "anna@example.org",
            "--black",
            "ben@example.net",
            "--config",
        ])
        .arg(&cfg)
        .output()
        .unwrap();
    let game: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let white = game["white"]["address"].as_str().unwrap().to_owned();
    // A ping every 50 ms: the queue is full long before the mail comes.
    let mut child = serve_under_watchdog(&cfg, &sock_path, 100_000);
    std::thread::sleep(Duration::from_secs(2));
    let new = dir.path().join("mail/new");
    std::fs::create_dir_all(&new).unwrap();
    std::fs::write(
        new.join("move.eml"),
        format!("From: anna@example.org\r\nTo: {white}\r\nSubject: move\r\nMessage-ID: <n1@example.org>\r\n\r\n1. 5254\r\n"),
    )
    .unwrap();
    let outbox = dir.path().join("outbox");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut answered = 0;
    while Instant::now() < deadline {
        answered = std::fs::read_dir(&outbox)
            .map(|rd| {
                rd.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "eml"))
                })
                .count()
            })
            .unwrap_or(0);
        if answered >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    if answered < 2 {
        // Frozen: a stop request would not be heard either.
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("the move was not answered while the notify socket was full");
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(answered, 2);
    assert_eq!(status.code(), Some(0));
}

/// Regression: a flood could put the daemon into a watchdog restart loop,
/// a batch of up to 200 messages fetched and handled with no ping in
/// between. Bodies are taken one at a time with a ping before each: a flood
/// that takes several watchdog intervals is handled with no gap between
/// pings as long as `WATCHDOG_USEC` (the gap after which systemd restarts
/// the service).
#[test]
fn a_flood_longer_than_the_watchdog_interval_is_handled_with_pings_throughout() {
    // Large enough to last several watchdog intervals on a fast machine
    // (4,000 take about 3 s alone, more in CI). The interval is a second:
    // with 300 ms, one commit waiting on a busy disk in CI (a gap of 314 ms
    // between pings otherwise 1-2 ms apart) fails the test although every
    // message is being handled; a daemon whose flood handling never pings
    // leaves a gap as long as the flood.
    const FLOOD: usize = 6_000;
    const USEC: u64 = 1_000_000;
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    let created = Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(["game", "new", "--no-mail", "--json"])
        .args(["--white", "anna@example.org", "--black", "ben@example.net"])
        .arg("--config")
        .arg(&cfg)
        .output()
        .unwrap();
    let game: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let white = game["white"]["address"].as_str().unwrap().to_owned();
    let new = dir.path().join("mail/new");
    std::fs::create_dir_all(&new).unwrap();
    for i in 0..FLOOD {
        std::fs::write(
            new.join(format!("{i:05}.flood")),
            format!(
                "From: anna@example.org\r\nTo: {white}\r\nSubject: hello\r\n\
                 Message-ID: <flood{i}@example.org>\r\n\r\nHello, is anybody there? {i}\r\n"
            ),
        )
        .unwrap();
    }
    let sock_path = dir.path().join("notify.sock");
    let sock = UnixDatagram::bind(&sock_path).unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    let mut child = serve_under_watchdog(&cfg, &sock_path, USEC);
    let mut seen = Vec::new();
    assert!(receive_until(&sock, "READY=1", &mut seen), "{seen:?}");
    let ready = Instant::now();
    let cur = dir.path().join("mail/cur");
    let handled = || std::fs::read_dir(&cur).map(|rd| rd.count()).unwrap_or(0);
    let mut pings = vec![ready];
    let mut buf = [0u8; 4096];
    let deadline = ready + Duration::from_secs(300);
    while handled() < FLOOD && Instant::now() < deadline {
        match sock.recv(&mut buf) {
            Ok(n) => {
                if String::from_utf8_lossy(&buf[..n])
                    .lines()
                    .any(|l| l == "WATCHDOG=1")
                {
                    pings.push(Instant::now());
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("notify socket: {e}"),
        }
    }
    let took = ready.elapsed();
    let done = handled();
    // The flood's end closes the last gap: a daemon that stopped pinging
    // after READY leaves one gap as long as the whole flood.
    let pinged = pings.len() - 1;
    pings.push(Instant::now());
    let alive = child.try_wait().unwrap().is_none();
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(alive, "the daemon exited during the flood");
    assert_eq!(done, FLOOD, "not every message was handled");
    let interval = Duration::from_micros(USEC);
    let longest = pings
        .windows(2)
        .map(|w| w[1] - w[0])
        .max()
        .unwrap_or_default();
    println!("flood: {FLOOD} messages in {took:?}, {pinged} pings, longest gap {longest:?}");
    // Otherwise the flood proves nothing about pings during work.
    assert!(
        took > 2 * interval,
        "the flood took only {took:?}; make it larger"
    );
    assert!(
        longest < interval,
        "no ping for {longest:?}, longer than the watchdog's {interval:?}"
    );
}
