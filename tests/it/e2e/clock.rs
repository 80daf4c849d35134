//! Scenario: a game under a time control over real IMAP, each move's time
//! taken from the server's INTERNALDATE (set by APPEND), never from the
//! sender's `Date:`; then the referee's own clock ends the game on time.

use super::{Options, Referee, fresh_inboxes, move_mail, player};

/// `wildt ARGS` at the instant `now` (RFC 3339), or at the real time.
fn run_at(r: &Referee, now: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wildt"));
    cmd.args(args).arg("--config").arg(&r.config);
    if let Some(now) = now {
        cmd.env("WILDT_NOW", now);
    }
    let out = cmd.output().expect("run wildt");
    assert!(
        out.status.success(),
        "wildt {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_timed_by_internaldate_and_a_silent_player_loses_on_time() {
    let rig = rig_or_skip!();
    let (referee, white, black) = (player(32), player(33), player(34));
    let mut readers = fresh_inboxes(&rig, &[&referee]).await;
    let inbox = &mut readers[0];
    let r = Referee::new(&rig, &referee, Options::default());
    let v: serde_json::Value = serde_json::from_slice(
        &run_at(
            &r,
            Some("2026-10-01T00:00:00Z"),
            &[
                "game",
                "new",
                "--white",
                &white,
                "--black",
                &black,
                "--no-mail",
                "--time",
                "10/50",
                "--json",
            ],
        )
        .stdout,
    )
    .expect("json");
    let id = v["id"].as_i64().expect("id").to_string();
    let (wa, ba) = (
        v["white"]["address"].as_str().expect("address"),
        v["black"]["address"].as_str().expect("address"),
    );
    // White after 3 days 10 hours, Black 7 days 2 hours later; the Date:
    // headers (22 November) are not what counts.
    inbox
        .append_at(
            "INBOX",
            &move_mail(&white, wa, "1. 5254"),
            "04-Oct-2026 10:00:00 +0000",
        )
        .await;
    inbox
        .append_at(
            "INBOX",
            &move_mail(&black, ba, "1... 5755"),
            "11-Oct-2026 12:00:00 +0000",
        )
        .await;
    let at = Some("2026-10-12T00:00:00Z");
    run_at(&r, at, &["serve", "--once"]);
    let shown: serde_json::Value =
        serde_json::from_slice(&run_at(&r, at, &["game", "show", &id, "--json"]).stdout)
            .expect("json");
    assert_eq!(shown["moves"].as_array().map(Vec::len), Some(2), "{shown}");
    assert_eq!(shown["clock"]["white"]["days_used"], 3, "{shown}");
    assert_eq!(shown["clock"]["black"]["days_used"], 7, "{shown}");
    assert_eq!(shown["clock"]["black"]["days_left"], 43, "{shown}");
    // At the real time (weeks later) White, silent since 11 October, has
    // run out: the referee decides it with no mail arriving.
    run_at(&r, None, &["serve", "--once"]);
    let over: serde_json::Value =
        serde_json::from_slice(&run_at(&r, None, &["game", "show", &id, "--json"]).stdout)
            .expect("json");
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["termination"], "time forfeit");
}
