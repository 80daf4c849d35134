//! Conditional moves end to end: the real binary (`wildt serve --once`) over
//! the Maildir club, sets sent by mail, answers played the moment the
//! opponent's move arrives, and what each player reads.

use serde_json::Value;

use crate::support::cli::wildt;
use crate::support::club::{Club, Game, mail};

const ANNA: &str = "anna@example.org";
const BEN: &str = "ben@example.net";

/// A mail as the player reads it.
#[derive(Debug)]
struct Read {
    to: String,
    subject: String,
    body: String,
}

/// A game of the club, and the mails already looked at.
struct Table {
    club: Club,
    g: Game,
    seen: Vec<String>,
    n: usize,
}

impl Table {
    fn new() -> Table {
        let club = Club::new();
        let g = club.new_game();
        Table {
            club,
            g,
            seen: Vec::new(),
            n: 0,
        }
    }

    /// Delivers `body` from White (`white`) or Black, serves once, and
    /// returns the new mails.
    fn send(&mut self, white: bool, body: &str) -> Vec<Read> {
        self.n += 1;
        let (from, to) = if white {
            (ANNA, &self.g.white)
        } else {
            (BEN, &self.g.black)
        };
        let id = format!("c{}@example.org", self.n);
        self.club
            .deliver(&format!("{}.eml", self.n), &mail(from, to, &id, body));
        self.club.serve_once();
        self.fresh()
    }

    fn fresh(&mut self) -> Vec<Read> {
        let all = self.club.outbox();
        let new: Vec<String> = all
            .iter()
            .filter(|m| !self.seen.contains(m))
            .cloned()
            .collect();
        self.seen = all;
        new.iter().map(|raw| read(raw)).collect()
    }

    fn moves(&self) -> Vec<String> {
        self.club.show(self.g.id)["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["iccf"].as_str().unwrap().to_owned())
            .collect()
    }

    /// `game show ID --as SEAT --conditionals --json`: the stored set's lines,
    /// `None` when there is none.
    fn stored(&self, seat: &str) -> Option<Vec<String>> {
        let out = wildt(
            &self.club.cfg,
            &[
                "game",
                "show",
                &self.g.id.to_string(),
                "--as",
                seat,
                "--conditionals",
                "--json",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let tree = &v["conditionals"];
        if tree.is_null() {
            return None;
        }
        Some(
            tree["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_owned())
                .collect(),
        )
    }
}

fn read(raw: &str) -> Read {
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a mail");
    Read {
        to: m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_owned(),
        subject: m.subject().unwrap_or_default().to_owned(),
        body: m.body_text(0).unwrap_or_default().into_owned(),
    }
}

fn to<'a>(mails: &'a [Read], who: &str) -> Vec<&'a Read> {
    mails.iter().filter(|m| m.to == who).collect()
}

/// Everything `who` read, one text.
fn all_to(mails: &[Read], who: &str) -> String {
    to(mails, who)
        .iter()
        .map(|m| format!("{}\n{}", m.subject, m.body))
        .collect::<Vec<_>>()
        .join("\n----\n")
}

#[test]
fn a_linear_set_answers_the_opponent_at_once_and_the_opponent_never_sees_it() {
    let mut t = Table::new();
    let mails = t.send(
        true,
        "1. 5254\r\nif 1... 5755 then 2. 7163 if 2... 2836 then 3. 6125\r\n\r\nAnna",
    );
    assert_eq!(t.moves(), ["5254"]);
    let anna = all_to(&mails, ANNA);
    assert!(anna.contains("Your conditional moves are stored"), "{anna}");
    assert!(
        anna.contains("  - if 1... 5755 then 2. 7163 if 2... 2836 then 3. 6125"),
        "{anna}"
    );
    let ben = all_to(&mails, BEN);
    assert!(
        !ben.contains("7163") && !ben.contains("conditional"),
        "{ben}"
    );
    assert_eq!(
        t.stored("white").unwrap(),
        ["if 1... 5755 then 2. 7163 if 2... 2836 then 3. 6125"]
    );
    assert_eq!(t.stored("black"), None);

    // Ben's move meets the set: Anna's answer is played in the same breath.
    let mails = t.send(false, "1... 5755");
    assert_eq!(t.moves(), ["5254", "5755", "7163"]);
    let anna = all_to(&mails, ANNA);
    assert_eq!(to(&mails, ANNA).len(), 1, "{anna}");
    assert!(
        anna.contains(
            "your opponent played 1... 5755, and your prepared answer 2. 7163 was played at once"
        ),
        "{anna}"
    );
    assert!(
        anna.contains("What remains of your conditional moves:"),
        "{anna}"
    );
    assert!(anna.contains("  - if 2... 2836 then 3. 6125"), "{anna}");
    let ben = all_to(&mails, BEN);
    assert!(ben.contains("1... 5755"), "{ben}");
    assert!(ben.contains("played 2. 7163"), "{ben}");
    assert!(ben.contains("prepared this move in advance"), "{ben}");
    assert!(!ben.contains("6125") && !ben.contains("2836"), "{ben}");
    assert_eq!(t.stored("white").unwrap(), ["if 2... 2836 then 3. 6125"]);

    // The last answer uses the set up.
    let mails = t.send(false, "2... 2836");
    assert_eq!(t.moves(), ["5254", "5755", "7163", "2836", "6125"]);
    let anna = all_to(&mails, ANNA);
    assert!(anna.contains("No conditional moves remain"), "{anna}");
    assert_eq!(t.stored("white"), None);
}

#[test]
fn a_branching_set_follows_the_branch_played_and_a_move_off_it_clears_it() {
    let mut t = Table::new();
    t.send(
        true,
        "1. 5254\r\nif 1... 5755 then 2. 7163\r\nif 1... 3735 then 2. 4244 if 2... 3544 then 3. 7163",
    );
    assert_eq!(t.stored("white").unwrap().len(), 2);
    t.send(false, "1... 3735");
    assert_eq!(t.moves(), ["5254", "3735", "4244"]);
    assert_eq!(t.stored("white").unwrap(), ["if 2... 3544 then 3. 7163"]);

    // 2... 4746 is on no branch: the set is cleared and Anna told.
    let mails = t.send(false, "2... 4746");
    assert_eq!(t.moves(), ["5254", "3735", "4244", "4746"]);
    assert_eq!(t.stored("white"), None);
    let anna = all_to(&mails, ANNA);
    assert!(
        anna.contains("Your conditional moves did not foresee 2... 4746, so they are cleared"),
        "{anna}"
    );
    assert!(!all_to(&mails, BEN).contains("conditional"));
}

#[test]
fn an_illegal_branch_is_refused_with_its_line_and_move_while_the_mails_move_counts() {
    let mut t = Table::new();
    let mails = t.send(
        true,
        "1. 5254\r\nif 1... 5755 then 2. 7163\r\nif 1... 2836 then 2. 7153",
    );
    // The mail's own move is played; the whole set is refused.
    assert_eq!(t.moves(), ["5254"]);
    assert_eq!(t.stored("white"), None);
    let anna = all_to(&mails, ANNA);
    assert!(
        anna.contains("Your conditional moves were not accepted"),
        "{anna}"
    );
    assert!(
        anna.contains("line 3: 2. 7153 (your answer) is not possible"),
        "{anna}"
    );
    assert!(
        anna.contains("The move in your message is played all the same"),
        "{anna}"
    );

    // A good set, then a bad one alone: the good one stays.
    t.send(true, "if 1... 5755 then 2. 7163");
    assert_eq!(t.stored("white").unwrap(), ["if 1... 5755 then 2. 7163"]);
    let mails = t.send(true, "if 1... 5755 then 2. 5254");
    let anna = all_to(&mails, ANNA);
    assert!(anna.contains("not accepted"), "{anna}");
    assert!(anna.contains("2. 5254"), "{anna}");
    assert_eq!(t.stored("white").unwrap(), ["if 1... 5755 then 2. 7163"]);
    assert!(to(&mails, BEN).is_empty());
}

#[test]
fn a_new_set_replaces_the_old_and_cancel_conditionals_clears_it() {
    let mut t = Table::new();
    t.send(true, "1. 5254\r\nif 1... 5755 then 2. 7163");
    let mails = t.send(true, "if 1... 2836 then 2. 4244");
    assert_eq!(t.stored("white").unwrap(), ["if 1... 2836 then 2. 4244"]);
    assert_eq!(mails.len(), 1, "only Anna is told: {mails:#?}");
    assert!(mails[0].body.contains("  - if 1... 2836 then 2. 4244"));

    // The confirmation's lines, copied back as they stand, are the same set.
    let listed: String = mails[0]
        .body
        .lines()
        .filter(|l| l.starts_with("  - if"))
        .map(|l| format!("{l}\r\n"))
        .collect();
    assert_eq!(listed.lines().count(), 1, "{}", mails[0].body);
    t.send(true, &listed);
    assert_eq!(t.stored("white").unwrap(), ["if 1... 2836 then 2. 4244"]);

    let mails = t.send(true, "cancel conditionals");
    assert_eq!(t.stored("white"), None);
    assert!(
        all_to(&mails, ANNA).contains("Your conditional moves are cancelled"),
        "{mails:#?}"
    );
    // Nothing is prepared any more: Ben's move waits for Anna.
    t.send(false, "1... 2836");
    assert_eq!(t.moves(), ["5254", "2836"]);
}

#[test]
fn a_long_forced_line_is_played_out_by_both_players_sets_in_one_mail() {
    let mut t = Table::new();
    t.send(
        true,
        "1. 5254\r\nif 1... 5755 then 2. 7163 if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514 if 4... 7866 then 5. 5171",
    );
    // Black's move and Black's own set in one mail: White's set answers the
    // move, Black's answers that, and so on to the end of both.
    let mails = t.send(
        false,
        "1... 5755\r\nif 2. 7163 then 2... 2836 if 3. 6125 then 3... 1716 if 4. 2514 then 4... 7866 if 5. 5171 then 5... 6857",
    );
    assert_eq!(
        t.moves(),
        [
            "5254", "5755", "7163", "2836", "6125", "1716", "2514", "7866", "5171", "6857"
        ]
    );
    assert_eq!((t.stored("white"), t.stored("black")), (None, None));
    // Each prepared answer reached its player with the move it answered.
    let anna = all_to(&mails, ANNA);
    for (theirs, mine) in [
        ("1... 5755", "2. 7163"),
        ("2... 2836", "3. 6125"),
        ("3... 1716", "4. 2514"),
        ("4... 7866", "5. 5171"),
    ] {
        assert!(
            anna.contains(&format!(
                "your opponent played {theirs}, and your prepared answer {mine} was played at once"
            )),
            "{theirs} {mine}: {anna}"
        );
    }
    let ben = all_to(&mails, BEN);
    assert!(
        ben.contains("your prepared answer 5... 6857 was played"),
        "{ben}"
    );
    // Neither read the other's conditions.
    assert!(!ben.contains("if 4... 7866 then"), "{ben}");
    assert!(!anna.contains("if 5. 5171 then"), "{anna}");
}

#[test]
fn a_branch_may_end_with_a_draw_offer_played_with_its_last_answer() {
    let mut t = Table::new();
    t.send(true, "1. 5254\r\nif 1... 5755 then 2. 7163 offer draw");
    let mails = t.send(false, "1... 5755");
    assert_eq!(t.moves(), ["5254", "5755", "7163"]);
    assert_eq!(t.club.show(t.g.id)["draw_offer"], "white");
    let ben = all_to(&mails, BEN);
    assert!(ben.contains("your opponent offers a draw"), "{ben}");
    assert!(ben.contains("prepared this move in advance"), "{ben}");
    assert_eq!(t.stored("white"), None);

    // Ben accepts: the game is over.
    t.send(false, "accept draw");
    assert_eq!(t.club.show(t.g.id)["result"], "1/2-1/2");
}

#[test]
fn the_end_of_the_game_clears_every_set() {
    let mut t = Table::new();
    t.send(true, "1. 5254\r\nif 1... 5755 then 2. 7163");
    t.send(false, "I resign");
    assert_eq!(t.club.show(t.g.id)["result"], "1-0");
    assert_eq!(t.stored("white"), None);
}

#[test]
fn check_shows_the_parsed_set() {
    let t = Table::new();
    let path = t.club.dir.path().join("check.eml");
    std::fs::write(
        &path,
        mail(
            ANNA,
            &t.g.white,
            "chk@example.org",
            "1. 5254\r\nwenn 1... 5755 dann 2. 7163",
        ),
    )
    .unwrap();
    let out = wildt(&t.club.cfg, &["check", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Conditional moves: stored"), "{text}");
    assert!(text.contains("1. if 1... 5755 then 2. 7163"), "{text}");
    // A dry run: nothing stored.
    assert_eq!(t.stored("white"), None);
}

/// White's first move and a set that answers Black's Ruy Lopez to castling.
const WHITE_OPENING: &str = "1. 5254\r\nif 1... 5755 then 2. 7163 if 2... 2836 then 3. 6125 if 3... 1716 then 4. 2514 if 4... 7866 then 5. 5171";
/// Black's first move and the set that meets White's.
const BLACK_OPENING: &str = "1... 5755\r\nif 2. 7163 then 2... 2836 if 3. 6125 then 3... 1716 if 4. 2514 then 4... 7866 if 5. 5171 then 5... 6857";
const LINE: [&str; 10] = [
    "5254", "5755", "7163", "2836", "6125", "1716", "2514", "7866", "5171", "6857",
];

/// How many messages the club's store has recorded (0 before the daemon has
/// created it). SQLite's file is read without migrating it, as the daemon
/// being killed may be migrating it; a PostgreSQL database exists from the
/// start and its migrations wait on one another.
async fn recorded(club: &Club) -> i64 {
    if crate::support::cli::on_postgres() {
        let store = crate::support::cli::store_of(&club.cfg).await;
        let n = sqlx::query_scalar("SELECT COUNT(*) FROM messages")
            .fetch_one(store.pool())
            .await
            .unwrap();
        store.close().await;
        return n;
    }
    let db = club.dir.path().join("wildt.db");
    if !db.exists() {
        return 0;
    }
    let url = format!("sqlite://{}", db.display());
    let Ok(pool) = sqlx::SqlitePool::connect(&url).await else {
        return 0;
    };
    // Killed before its first migration: no table, nothing decided.
    let n = sqlx::query_scalar("SELECT COUNT(*) FROM messages")
        .fetch_one(&pool)
        .await
        .unwrap_or(0);
    pool.close().await;
    n
}

async fn prepared_plies(club: &Club, game: i64) -> Vec<i64> {
    let store = crate::support::cli::store_of(&club.cfg).await;
    let plies = sqlx::query_scalar(
        "SELECT ply FROM moves WHERE game_id = $1 AND prepared = 1 ORDER BY ply",
    )
    .bind(game)
    .fetch_all(store.pool())
    .await
    .unwrap();
    store.close().await;
    plies
}

/// `wildt serve` (the daemon) started and killed with SIGKILL after a seeded
/// random delay, again and again, until `total` messages are recorded.
async fn serve_with_kills(club: &Club, total: i64, rng: &mut rand::rngs::StdRng) -> u32 {
    use rand::Rng;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut kills = 0;
    while recorded(club).await < total {
        assert!(
            std::time::Instant::now() < deadline,
            "after {kills} kills only {} of {total} decided",
            recorded(club).await
        );
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wildt"))
            .args(["serve", "--config"])
            .arg(&club.cfg)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // A daemon on PostgreSQL takes longer to start deciding (its
        // connections, the leader's lease, LISTEN): the kills reach into its
        // bursts there with longer delays.
        let longest = if crate::support::cli::on_postgres() {
            1000
        } else {
            120
        };
        let delay = rng.random_range(5..=longest);
        tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
    }
    kills
}

/// Exactly-once under `kill -9`: every game's opponent move and the prepared
/// answers it sets off are one transaction, so a daemon killed at random
/// moments in bursts of conditional play loses no move, doubles none, and
/// every reply goes out under one Message-ID (a file written again after a
/// kill carries the same one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_bursts_of_conditional_play_loses_and_doubles_nothing() {
    use rand::SeedableRng;
    const GAMES: usize = 24;
    let club = Club::new();
    let games: Vec<Game> = (0..GAMES).map(|_| club.new_game()).collect();
    let seed: u64 = std::env::var("WILDT_E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0019);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    // Wave 1: White's moves and sets; wave 2: Black's, each of which plays
    // out ten plies. Waves keep each game's two mails in order.
    for (i, g) in games.iter().enumerate() {
        club.deliver(
            &format!("w{i:02}.eml"),
            &mail(ANNA, &g.white, &format!("w{i}@example.org"), WHITE_OPENING),
        );
    }
    let mut kills = serve_with_kills(&club, GAMES as i64, &mut rng).await;
    for (i, g) in games.iter().enumerate() {
        club.deliver(
            &format!("b{i:02}.eml"),
            &mail(BEN, &g.black, &format!("b{i}@example.org"), BLACK_OPENING),
        );
    }
    kills += serve_with_kills(&club, 2 * GAMES as i64, &mut rng).await;
    club.serve_once();

    for g in &games {
        let moves: Vec<String> = club.show(g.id)["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["iccf"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(moves, LINE, "game {} (seed {seed})", g.id);
        // Plies 3 to 10 were prepared answers: free of reflection time.
        assert_eq!(prepared_plies(&club, g.id).await, [3, 4, 5, 6, 7, 8, 9, 10]);
    }
    let mails = club.outbox();
    let mut ids: Vec<String> = mails
        .iter()
        .map(|raw| {
            let m = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .unwrap();
            m.message_id().unwrap().to_owned()
        })
        .collect();
    let files = ids.len();
    ids.sort();
    ids.dedup();
    // Per game: White's move (confirmation, relay); Black's move
    // (confirmation), then eight prepared answers, each one mail to its
    // player with both moves and one relay, the relays answered by a
    // prepared move folded into those mails: 2 + 1 + 8 + 1.
    assert_eq!(ids.len(), GAMES * 12, "seed {seed}");
    println!(
        "conditional crash: {GAMES} games, {kills} kills, every move once, {} mails as {} distinct Message-IDs",
        files,
        ids.len()
    );
}
