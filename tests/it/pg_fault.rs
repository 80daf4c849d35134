//! The fault test on PostgreSQL: three `wildt serve` processes share one
//! PostgreSQL database and one IMAP INBOX on the mail rig while a burst of
//! 1,000 moves (200 games, 5 plies each) arrives by SMTP. Every few seconds
//! one daemon is killed with `kill -9` and started again, and once during the
//! burst PostgreSQL itself is restarted. Afterwards every move is recorded
//! once, every confirmation and relay is delivered once (counted by
//! Message-ID in the players' INBOXes), and every reminder that fell due
//! during the run was sent once. [IO: processes, network, the test
//! PostgreSQL, the mail rig]
//!
//! The burst: each game's plies are mailed in order by the seat to move; a
//! ply is mailed as soon as the one before it is in the referee's INBOX
//! (each game's order of arrival is its order of play), whatever the
//! daemons are doing, so the mail arrives as fast as the rig delivers it.
//!
//! "Delivered once": a mail handed to the relay by a process that is then
//! killed with `kill -9`, before it could record that, is in doubt. The
//! daemons run with `[receipts]` (p51): every mail names p51 as a second
//! envelope recipient in the same SMTP transaction, and the next process
//! looks for a mail's copy there before sending it again. Any second copy
//! of a Message-ID in a player's INBOX fails the test. However the kills
//! fall, one batch of every run is in doubt: daemon 0's processes abort at
//! a crash point right after the relay took a batch, before marking it
//! sent, until one has ([`daemons::CRASH_POINT`]); the test fails unless
//! receipts settled that batch. Each daemon process
//! sends through an SMTP tap of its own ([`tap`]), so that a copy would be
//! traced to the processes that handed it.
//!
//! Rig accounts p73-p80: p73 is the referee, p74-p80 the players; p51
//! receives the receipts. The test
//! restarts the PostgreSQL that `WILDT_PG_ROOT` names, which ends every
//! session on it: the test command runs it alone, after the others.
//!
//! For measuring, `WILDT_FAULT_DAEMONS=N` runs N daemons instead of three,
//! `WILDT_FAULT_CHAOS=0` kills nothing and restarts nothing (no crash point
//! either), and `WILDT_FAULT_RECEIPTS=0` sends without receipts; the test
//! prints the burst's moves per second either way. `WILDT_FAULT_SEED`
//! repeats a run's kills.

mod daemons;
mod tap;
mod watch;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::str::FromStr;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures::StreamExt as _;
use lettre::address::Envelope;
use lettre::transport::smtp::PoolConfig;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use rand::{Rng, SeedableRng};
use serde_json::Value;
use wildt::clock::Date;

use crate::e2e::{
    Game, Mail, fresh_inboxes, message_id_of, numbered, player, ply_mail, random_line,
};
use crate::support::pg;
use daemons::{Fleet, restart_postgres};
use watch::Watch;

const GAMES: usize = 200;
const PLIES: usize = 5;
/// Games under a time control whose first reminder falls due during the
/// burst, a few seconds apart.
const REMINDED: usize = 6;
/// Bound on the burst and its replies, so a stuck run fails.
const WITHIN: Duration = Duration::from_secs(240);
/// The organiser's commands run at once (`game new`, `game show`).
const CLI_AT_ONCE: usize = 6;
const DAY: i64 = 86_400;
/// A daemon's log larger than this is a daemon logging in a loop: the run
/// stops rather than fill the disk.
const LOG_MAX: u64 = 200 << 20;

/// A setting from the environment, or its default.
fn setting<T: FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a valid value")),
        Err(_) => default,
    }
}

fn unix_now() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("after 1970")
            .as_secs(),
    )
    .expect("seconds")
}

fn rfc3339(t: i64) -> String {
    let secs = t.rem_euclid(DAY);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::of_instant(t),
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// `wildt ARGS --config CLI` as the organiser runs it, at `now` if given;
/// its output, parsed.
async fn wildt_json(fleet: &Fleet, args: Vec<String>, now: Option<i64>) -> Value {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_wildt"));
    cmd.args(&args)
        .arg("--config")
        .arg(&fleet.cli_config)
        .env("NO_COLOR", "1");
    if let Some(now) = now {
        cmd.env("WILDT_NOW", rfc3339(now));
    }
    let out = cmd.output().await.expect("run wildt");
    assert!(
        out.status.success(),
        "wildt {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "wildt {args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Creates a game per pair (without opening mails), a few at once; with a
/// time control and a creation instant each, when given.
async fn new_games(fleet: &Fleet, pairs: &[(String, String, Option<i64>)]) -> Vec<Game> {
    futures::stream::iter(pairs)
        .map(|(white, black, created)| async move {
            let mut args: Vec<String> = ["game", "new", "--white", white, "--black", black]
                .map(str::to_owned)
                .to_vec();
            args.extend(["--no-mail", "--json"].map(str::to_owned));
            if created.is_some() {
                args.extend(["--time", "10/50"].map(str::to_owned));
            }
            let v = wildt_json(fleet, args, *created).await;
            Game {
                id: v["id"].as_i64().expect("id"),
                white: white.clone(),
                black: black.clone(),
                white_address: v["white"]["address"].as_str().expect("address").to_owned(),
                black_address: v["black"]["address"].as_str().expect("address").to_owned(),
            }
        })
        .buffered(CLI_AT_ONCE)
        .collect()
        .await
}

/// The players' mail as counted: replies of the burst's games, reminders
/// of the timed games, anything else about either.
#[derive(Default)]
struct Tally {
    /// Distinct Message-IDs of confirmations and relays.
    replies: usize,
    /// Distinct Message-IDs of reminders.
    reminders: usize,
}

impl Tally {
    fn of(watches: &[Watch], burst: &HashSet<i64>, timed: &HashSet<i64>) -> Tally {
        let mut replies = HashSet::new();
        let mut reminders = HashSet::new();
        for m in watches.iter().flat_map(|w| &w.seen) {
            let (Some(game), Some(id)) = (m.game, m.message_id.as_deref()) else {
                continue;
            };
            if burst.contains(&game) && (m.is("move-accepted") || m.is("opponent-moved")) {
                replies.insert(id);
            }
            if timed.contains(&game) && is_reminder(m) {
                reminders.insert(id);
            }
        }
        Tally {
            replies: replies.len(),
            reminders: reminders.len(),
        }
    }
}

fn is_reminder(m: &Mail) -> bool {
    m.is("notice") && m.subject.to_lowercase().contains("reminder")
}

/// Mails the test plays the seats with: through the rig's SMTP port, a few
/// connections at once.
struct Players {
    smtp: AsyncSmtpTransport<Tokio1Executor>,
}

impl Players {
    fn new(host: &str, port: u16) -> Players {
        Players {
            smtp: AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
                .port(port)
                .pool_config(PoolConfig::new().max_size(8))
                .build(),
        }
    }

    /// Sends each `(from, to, raw)`, eight at a time.
    async fn send(&self, mails: Vec<(String, String, Vec<u8>)>) {
        futures::stream::iter(mails)
            .for_each_concurrent(8, |(from, to, raw)| async move {
                let envelope = Envelope::new(
                    Some(from.parse().expect("from address")),
                    vec![to.parse().expect("to address")],
                )
                .expect("envelope");
                self.smtp
                    .send_raw(&envelope, &raw)
                    .await
                    .unwrap_or_else(|e| panic!("player {from}: SMTP to {to} failed: {e}"));
            })
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_daemons_killed_and_postgres_restarted_record_each_move_once_and_mail_each_reply_once()
 {
    let rig = rig_or_skip!();
    let daemons: usize = setting("WILDT_FAULT_DAEMONS", 3);
    let chaos: bool = setting::<u8>("WILDT_FAULT_CHAOS", 1) != 0;
    let seed: u64 = setting("WILDT_FAULT_SEED", 0x0053_fa17);
    println!(
        "pg_fault: {daemons} daemons, chaos {chaos}, seed {seed} (WILDT_FAULT_SEED to repeat)"
    );
    let referee = player(73);
    let players: Vec<String> = (74..=80).map(player).collect();
    let mut accounts: Vec<&str> = vec![&referee];
    accounts.extend(players.iter().map(String::as_str));
    drop(fresh_inboxes(&rig, &accounts).await);

    let url = pg::fresh_database("pg_fault");
    let receipts: bool = setting::<u8>("WILDT_FAULT_RECEIPTS", 1) != 0;
    let mut fleet = Fleet::new(&rig, &referee, &url, daemons, chaos, receipts);
    // Each player plays many games, with both colours.
    let n = players.len();
    let pairs: Vec<(String, String, Option<i64>)> = (0..GAMES)
        .map(|i| {
            let (w, b) = (i % n, (i % n + 1 + (i / n) % (n - 1)) % n);
            (players[w].clone(), players[b].clone(), None)
        })
        .collect();
    // The first command alone: it creates the schema.
    let mut games = new_games(&fleet, &pairs[..1]).await;
    games.extend(new_games(&fleet, &pairs[1..]).await);
    let lines: Vec<Vec<String>> = (0..GAMES)
        .map(|i| random_line(53_000 + i as u64, PLIES))
        .collect();
    // White has not moved for 14 days less a few seconds: the reminders
    // fall due 10 to 35 seconds from now, during the burst.
    let now = unix_now();
    let due: Vec<i64> = (0..REMINDED).map(|i| now + 10 + 5 * i as i64).collect();
    let timed_pairs: Vec<(String, String, Option<i64>)> = due
        .iter()
        .enumerate()
        .map(|(i, at)| {
            let (w, b) = (i % n, (i + 3) % n);
            (players[w].clone(), players[b].clone(), Some(at - 14 * DAY))
        })
        .collect();
    let timed = new_games(&fleet, &timed_pairs).await;
    let burst_ids: HashSet<i64> = games.iter().map(|g| g.id).collect();
    let timed_ids: HashSet<i64> = timed.iter().map(|g| g.id).collect();
    println!(
        "pg_fault: {GAMES} games and {REMINDED} timed games created, {:.1} s after the first",
        (unix_now() - now) as f64
    );

    println!(
        "pg_fault: the daemons' logs are in {}",
        fleet.dir().display()
    );
    for slot in 0..daemons {
        fleet.start(slot).await;
    }
    let mut inbox = Watch::open(&rig, &referee).await;
    let mut watches = Vec::new();
    for p in &players {
        watches.push(Watch::open(&rig, p).await);
    }
    let seats = Players::new(&rig.host, rig.smtp_port);

    // Each move mail by its Message-ID: its game and ply.
    let mut moves: HashMap<String, (usize, usize)> = HashMap::new();
    let mut arrived: HashSet<String> = HashSet::new();
    let mut to_send: Vec<(usize, usize)> = (0..GAMES).map(|g| (g, 0)).collect();
    let replies_due = 2 * GAMES * PLIES;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut next_kill = Instant::now() + Duration::from_millis(rng.random_range(2000..=4000));
    let mut kills = 0;
    let mut pg_restart: Option<tokio::task::JoinHandle<Duration>> = None;
    let mut pg_restarted_at: Option<usize> = None;
    let started = Instant::now();
    let mut burst_took: Option<Duration> = None;
    loop {
        if !to_send.is_empty() {
            let mails = std::mem::take(&mut to_send)
                .into_iter()
                .map(|(g, ply)| {
                    let game = &games[g];
                    let raw = ply_mail(game, &lines[g], ply);
                    moves.insert(message_id_of(&raw), (g, ply));
                    let (from, to) = if ply % 2 == 0 {
                        (&game.white, &game.white_address)
                    } else {
                        (&game.black, &game.black_address)
                    };
                    (from.clone(), to.clone(), raw)
                })
                .collect();
            seats.send(mails).await;
        }
        // A ply in the referee's INBOX: the game's next one goes out.
        let before = inbox.seen.len();
        inbox.look().await;
        for m in &inbox.seen[before..] {
            let Some(id) = m.message_id.as_deref() else {
                continue;
            };
            if let Some(&(g, ply)) = moves.get(id)
                && arrived.insert(id.to_owned())
                && ply + 1 < PLIES
            {
                to_send.push((g, ply + 1));
            }
        }
        for w in &mut watches {
            w.look().await;
        }
        let tally = Tally::of(&watches, &burst_ids, &timed_ids);
        if burst_took.is_none() && tally.replies >= replies_due {
            burst_took = Some(started.elapsed());
        }

        if chaos {
            if Instant::now() >= next_kill {
                let slot = rng.random_range(0..daemons);
                fleet.kill_and_restart(slot).await;
                kills += 1;
                next_kill = Instant::now() + Duration::from_millis(rng.random_range(2000..=4000));
            }
            if pg_restart.is_none() && tally.replies * 10 >= replies_due * 3 {
                pg_restarted_at = Some(tally.replies);
                pg_restart = Some(tokio::task::spawn_blocking(restart_postgres));
            }
        }
        fleet.restart_the_exited().await;
        if let Some(runaway) = fleet.runaway_log(LOG_MAX) {
            panic!("{runaway}");
        }

        let restarted = pg_restart.as_ref().is_none_or(|h| h.is_finished());
        if arrived.len() == GAMES * PLIES
            && tally.replies >= replies_due
            && tally.reminders >= REMINDED
            && (restarted || !chaos)
            && (pg_restart.is_some() || !chaos)
        {
            break;
        }
        assert!(
            started.elapsed() < WITHIN,
            "after {WITHIN:?}: {} of {} moves in the referee's INBOX, {} of {replies_due} replies \
             and {} of {REMINDED} reminders delivered; {kills} kills, PostgreSQL restarted: {}; \
             daemons that ended by themselves: {:#?}\n{}",
            arrived.len(),
            GAMES * PLIES,
            tally.replies,
            tally.reminders,
            pg_restart.is_some(),
            fleet.exits,
            fleet.tails(20)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let burst_took = burst_took.expect("every reply delivered");
    let pg_away = match pg_restart {
        Some(h) => Some(h.await.expect("pg_ctl restart")),
        None => None,
    };
    let moves_per_sec = (GAMES * PLIES) as f64 / burst_took.as_secs_f64();
    println!(
        "pg_fault: {} moves and {replies_due} replies in {:.1} s from the first move mailed to the \
         last reply delivered: {moves_per_sec:.1} moves/s ({:.1} mails/s in and out); \
         {daemons} daemons, {kills} kills, PostgreSQL restarted after {:?} replies (away {:?})",
        GAMES * PLIES,
        burst_took.as_secs_f64(),
        (GAMES * PLIES + replies_due) as f64 / burst_took.as_secs_f64(),
        pg_restarted_at,
        pg_away
    );

    let mut problems: Vec<String> = Vec::new();
    let db = pg::pool(&url).await;
    settle(&mut fleet, &db, &mut watches, &mut problems).await;
    problems.extend(fleet.stop_all(Duration::from_secs(30)).await);
    problems.extend(std::mem::take(&mut fleet.exits));

    check_records(&fleet, &games, &lines, &mut problems).await;
    check_messages(&db, &moves, &mut problems).await;
    check_replies(&watches, &games, &lines, &mut problems);
    check_reminders(&watches, &timed, &burst_ids, &timed_ids, &mut problems);
    let copies = check_copies(&fleet, &watches, &burst_ids, &timed_ids, &mut problems);
    println!(
        "pg_fault: {copies} second copies of a mail in the players' INBOXes \
         ({} processes in all)",
        fleet.incarnations.len()
    );
    let crate::support::logs::Doubts {
        released,
        by_receipt,
        resent,
    } = crate::support::logs::doubts(fleet.dir());
    println!(
        "pg_fault: {released} times a daemon took back the leases of a killed one; mail in \
         doubt: {by_receipt} marked sent by their receipt, {resent} sent again after no \
         receipt came"
    );
    if !chaos {
        // Nothing killed: nothing in doubt.
    } else if !fleet.crashed_at_the_point {
        problems.push(format!(
            "no process of daemon 0 reached the crash point {}",
            daemons::CRASH_POINT
        ));
    } else if by_receipt == 0 {
        problems.push(
            "the batch taken by the relay before the crash point was not settled by its receipts"
                .to_owned(),
        );
    }
    db.close().await;
    inbox.close().await;
    for w in watches {
        w.close().await;
    }
    assert!(
        problems.is_empty(),
        "{} problems after {kills} kills and a PostgreSQL restart:\n{}\n{}",
        problems.len(),
        problems.join("\n"),
        fleet.tails(20)
    );
    // Passed: its database (tens of megabytes) goes; a failed run's stays
    // to be looked at.
    let name = url.rsplit('/').next().expect("a database name");
    let admin = pg::pool(&pg::url()).await;
    sqlx::raw_sql(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&admin)
        .await
        .unwrap_or_else(|e| panic!("dropping {name}: {e}"));
    admin.close().await;
}

/// After the burst: waits (bounded) until the outbox holds nothing left to
/// send and the players' INBOXes stop changing, so late copies are counted.
async fn settle(
    fleet: &mut Fleet,
    db: &sqlx::PgPool,
    watches: &mut [Watch],
    problems: &mut Vec<String>,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        fleet.restart_the_exited().await;
        let (pending, failed): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL),
                    COUNT(*) FILTER (WHERE failed_at IS NOT NULL)
             FROM outbox",
        )
        .fetch_one(db)
        .await
        .expect("outbox counts");
        if pending == 0 {
            if failed > 0 {
                problems.push(format!("{failed} outbox rows failed for good"));
            }
            break;
        }
        if Instant::now() >= deadline {
            problems.push(format!(
                "{pending} outbox rows still unsent 60 s after the burst"
            ));
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // Mail handed to the relay reaches the INBOXes within moments; three
    // quiet seconds and nothing more is coming.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut quiet_since = Instant::now();
    while quiet_since.elapsed() < Duration::from_secs(3) && Instant::now() < deadline {
        let mut fresh = 0;
        for w in watches.iter_mut() {
            fresh += w.look().await;
        }
        if fresh > 0 {
            quiet_since = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Every game's record is exactly its line (`game show --json`).
async fn check_records(
    fleet: &Fleet,
    games: &[Game],
    lines: &[Vec<String>],
    problems: &mut Vec<String>,
) {
    let shown: Vec<Value> = futures::stream::iter(games)
        .map(|g| {
            wildt_json(
                fleet,
                vec![
                    "game".into(),
                    "show".into(),
                    g.id.to_string(),
                    "--json".into(),
                ],
                None,
            )
        })
        .buffered(CLI_AT_ONCE)
        .collect()
        .await;
    for ((g, line), v) in games.iter().zip(lines).zip(&shown) {
        let recorded: Vec<&str> = v["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["iccf"].as_str().expect("iccf"))
            .collect();
        if recorded != *line {
            problems.push(format!(
                "game {}: recorded {recorded:?}, mailed {line:?} (status {})",
                g.id, v["status"]
            ));
        }
    }
}

/// Each move mail is one row of `messages`, decided as a move.
async fn check_messages(
    db: &sqlx::PgPool,
    moves: &HashMap<String, (usize, usize)>,
    problems: &mut Vec<String>,
) {
    let rows: Vec<(Option<String>, String)> =
        sqlx::query_as("SELECT message_id, outcome FROM messages")
            .fetch_all(db)
            .await
            .expect("messages");
    let mut by_id: HashMap<String, Vec<String>> = HashMap::new();
    for (id, outcome) in rows {
        let id = id.unwrap_or_default();
        let id = id.trim_start_matches('<').trim_end_matches('>').to_owned();
        by_id.entry(id).or_default().push(outcome);
    }
    let mut wrong: Vec<String> = moves
        .keys()
        .filter_map(|id| {
            let outcomes = by_id.get(id).map(Vec::as_slice).unwrap_or_default();
            (outcomes != ["moved"]).then(|| format!("{id}: {outcomes:?}"))
        })
        .collect();
    wrong.sort();
    if !wrong.is_empty() {
        problems.push(format!(
            "{} move mails not recorded once as a move in `messages`: {}",
            wrong.len(),
            wrong
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
}

/// One confirmation to the mover and one relay to the opponent per ply,
/// each under one Message-ID; nothing else about the burst's games.
fn check_replies(
    watches: &[Watch],
    games: &[Game],
    lines: &[Vec<String>],
    problems: &mut Vec<String>,
) {
    // (game, kind, subject's move, recipient) -> Message-IDs
    let mut got: HashMap<(i64, &str, String), BTreeMap<String, Vec<&str>>> = HashMap::new();
    let ids: HashSet<i64> = games.iter().map(|g| g.id).collect();
    let mut other = Vec::new();
    for w in watches {
        for m in &w.seen {
            let Some(game) = m.game.filter(|g| ids.contains(g)) else {
                continue;
            };
            let kind = m.kind.as_deref().unwrap_or("");
            if kind != "move-accepted" && kind != "opponent-moved" {
                other.push(format!(
                    "game {game}: {kind} to {}: {:?}",
                    w.account, m.subject
                ));
                continue;
            }
            let key = (
                game,
                if kind == "move-accepted" {
                    "move-accepted"
                } else {
                    "opponent-moved"
                },
                m.subject.clone(),
            );
            got.entry(key)
                .or_default()
                .entry(m.message_id.clone().unwrap_or_default())
                .or_default()
                .push(w.account.as_str());
        }
    }
    let mut missing = Vec::new();
    let mut doubled = Vec::new();
    let mut misaddressed = Vec::new();
    let mut matched = 0;
    for (g, line) in games.iter().zip(lines) {
        for (ply, mv) in line.iter().enumerate() {
            let played = numbered(ply, mv);
            let (mover, opponent) = if ply % 2 == 0 {
                (&g.white, &g.black)
            } else {
                (&g.black, &g.white)
            };
            for (kind, to) in [("move-accepted", mover), ("opponent-moved", opponent)] {
                let found: Vec<(&String, &Vec<&str>)> = got
                    .iter()
                    .filter(|((game, k, subject), _)| {
                        *game == g.id && *k == kind && subject.contains(&format!("] {played} "))
                    })
                    .flat_map(|(_, by_id)| by_id.iter())
                    .collect();
                matched += found.len();
                match found.as_slice() {
                    [] => missing.push(format!("game {} {kind} of {played}", g.id)),
                    [(_, accounts)] => {
                        if accounts.iter().any(|a| *a != to.as_str()) {
                            misaddressed.push(format!(
                                "game {} {kind} of {played} to {accounts:?}, not {to}",
                                g.id
                            ));
                        }
                    }
                    more => doubled.push(format!(
                        "game {} {kind} of {played} under {} Message-IDs: {:?}",
                        g.id,
                        more.len(),
                        more.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>()
                    )),
                }
            }
        }
    }
    let distinct: usize = got.values().map(BTreeMap::len).sum();
    if distinct != matched {
        problems.push(format!(
            "{} confirmations or relays name no ply that was mailed",
            distinct - matched
        ));
    }
    for (what, list) in [
        ("replies missing", missing),
        ("replies doubled", doubled),
        ("replies to the wrong player", misaddressed),
        ("other mails about the burst's games", other),
    ] {
        if !list.is_empty() {
            problems.push(format!(
                "{} {what}: {}",
                list.len(),
                list.iter().take(20).cloned().collect::<Vec<_>>().join("; ")
            ));
        }
    }
}

/// One reminder per timed game, to White, under one Message-ID; none about
/// the burst's games (their clocks run for 14 days).
fn check_reminders(
    watches: &[Watch],
    timed: &[Game],
    burst: &HashSet<i64>,
    timed_ids: &HashSet<i64>,
    problems: &mut Vec<String>,
) {
    let mut by_game: HashMap<i64, BTreeMap<String, Vec<&str>>> = HashMap::new();
    for w in watches {
        for m in w.seen.iter().filter(|m| is_reminder(m)) {
            let game = m.game.unwrap_or_default();
            if burst.contains(&game) {
                problems.push(format!(
                    "a reminder about game {game} of the burst to {}",
                    w.account
                ));
            }
            if timed_ids.contains(&game) {
                by_game
                    .entry(game)
                    .or_default()
                    .entry(m.message_id.clone().unwrap_or_default())
                    .or_default()
                    .push(w.account.as_str());
            }
        }
    }
    for g in timed {
        let got = by_game.remove(&g.id).unwrap_or_default();
        let to: Vec<&str> = got.values().flatten().copied().collect();
        if got.len() != 1 || to.iter().any(|a| *a != g.white) {
            problems.push(format!(
                "timed game {}: {} reminders (Message-IDs {:?}) to {to:?}; one to {} was due",
                g.id,
                got.len(),
                got.keys().collect::<Vec<_>>(),
                g.white
            ));
        }
    }
}

/// Every Message-ID of the test's games is in the players' INBOXes once:
/// a second copy is a problem, shown with the processes that handed the
/// mail over (from the taps' ledger) and whether they were killed.
/// Returns the number of second copies.
fn check_copies(
    fleet: &Fleet,
    watches: &[Watch],
    burst: &HashSet<i64>,
    timed: &HashSet<i64>,
    problems: &mut Vec<String>,
) -> usize {
    let mut delivered: HashMap<&str, usize> = HashMap::new();
    for m in watches.iter().flat_map(|w| &w.seen) {
        if let (Some(game), Some(id)) = (m.game, m.message_id.as_deref())
            && (burst.contains(&game) || timed.contains(&game))
        {
            *delivered.entry(id).or_default() += 1;
        }
    }
    let ledger = fleet.ledger.lock().expect("ledger lock");
    let mut handed: HashMap<&str, Vec<(u64, usize)>> = HashMap::new();
    for h in ledger.iter() {
        handed
            .entry(h.message_id.as_str())
            .or_default()
            .push((h.at, h.incarnation));
    }
    let mut doubled = 0;
    let mut unexplained = Vec::new();
    for (id, copies) in delivered.iter().filter(|(_, n)| **n > 1) {
        doubled += copies - 1;
        let mut by = handed.get(id).cloned().unwrap_or_default();
        by.sort_unstable();
        let who: Vec<String> = by
            .iter()
            .map(|(at, i)| {
                let inc = &fleet.incarnations[*i];
                let killed = inc
                    .killed_at
                    .map_or_else(String::new, |k| format!(", killed at event {k}"));
                format!(
                    "at event {at} by process {i} (daemon {}, pid {}{killed})",
                    inc.slot, inc.pid
                )
            })
            .collect();
        unexplained.push(format!("{id} delivered {copies} times, handed by {who:?}"));
    }
    unexplained.sort();
    if !unexplained.is_empty() {
        problems.push(format!(
            "{} Message-IDs delivered more than once: {}",
            unexplained.len(),
            unexplained
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    doubled
}
