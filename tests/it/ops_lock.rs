//! The operator's read-only commands never disturb the daemon: `status` looks
//! at the daemon's lock without taking it, so a daemon that starts while
//! `status` is polled in a tight loop always starts; `backup` and `config
//! check --connect` while `serve` runs refuse nothing and lose nothing.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::support::cli::{temp_config, wildt};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `wildt ARGS --config CONFIG` with `WILDT_PAUSE` set (debug builds sleep
/// at the named point: it widens the window a race needs).
fn paused(config: &Path, args: &[&str], pause: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wildt"))
        .args(args)
        .arg("--config")
        .arg(config)
        .env("WILDT_PAUSE", pause)
        .output()
        .unwrap()
}

/// 200 starts of `serve --once`, each paused between opening the lock file
/// and locking it, while two processes run `status` back to back, each
/// paused after its look at the lock. A probe that takes the lock (even
/// shared, even for a moment) makes some of these starts fail with
/// "another wildt daemon is running".
#[test]
fn serve_starts_200_times_out_of_200_while_status_is_polled_in_a_tight_loop() {
    if crate::support::cli::on_postgres() {
        // SQLite's file lock: PostgreSQL takes none (several daemons share
        // it; `multi` tests them).
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg = temp_config(dir.path());
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.path().join("mail").join(sub)).unwrap();
    }
    // The database and its lock file exist before the race begins.
    let first = wildt(&cfg, &["serve", "--once"]);
    assert!(first.status.success(), "{}", text(&first));

    let stop = Arc::new(AtomicBool::new(false));
    let probes = Arc::new(AtomicUsize::new(0));
    let pollers: Vec<_> = (0..2)
        .map(|_| {
            let (stop, probes, cfg) = (stop.clone(), probes.clone(), cfg.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let out = paused(&cfg, &["status", "--json"], "lock-probe:20");
                    // 0: a daemon is running and all is well; 1: a problem
                    // (here: no daemon running). Anything else is a failure.
                    assert!(
                        matches!(out.status.code(), Some(0 | 1)),
                        "status failed: {}",
                        text(&out)
                    );
                    probes.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();

    let mut refused = Vec::new();
    for start in 0..200 {
        let out = paused(&cfg, &["serve", "--once"], "lock-open:5");
        if !out.status.success() {
            refused.push(format!("start {start}: {}", text(&out)));
        }
    }
    stop.store(true, Ordering::Relaxed);
    for poller in pollers {
        poller.join().expect("a status poller failed");
    }
    let probes = probes.load(Ordering::Relaxed);
    assert!(
        refused.is_empty(),
        "{} of 200 starts refused while status ran {probes} times:\n{}",
        refused.len(),
        refused.join("\n")
    );
    // The race was run: status probed the lock all through the starts.
    assert!(probes >= 100, "status ran only {probes} times");
}
