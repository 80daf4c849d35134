//! Endgame tablebase claims and adjudication (ICCF), end to end: the real
//! binary over the Maildir and the file outbox, with the complete 3- and
//! 4-piece Syzygy set of the shared directory (`WILDT_SYZYGY`, by default
//! `../shared/syzygy` beside the project). Each game starts from a FEN.
//! [IO: processes, temp files]
//!
//! The positions (each checked with `shakmaty-syzygy` against the set):
//! - KQvK `8/8/8/4k3/8/8/8/3QK3 w - - 0 70`: White wins;
//! - KRvK `8/8/8/4k3/8/8/8/R3K3 w - - 0 60`: White wins (DTZ 27);
//! - KRvKR `8/8/3k4/3r4/8/3RK3/8/8 w - - 0 80`: draw;
//! - KQvKR `8/8/4k3/8/5r2/2Q5/8/7K w - - 0 1`: White wins, DTZ 53 plies,
//!   no capture or mate in sight: only the tables know;
//! - KQvKQ `7k/8/8/3q4/8/8/8/3Q2K1 w - - 0 64`: after the proposed 64. 4145
//!   (Qxd5) KQvK, White wins;
//! - KRvK `8/8/8/4k3/8/8/8/R3K3 w - - 80 100`: 40 moves already made without
//!   a capture or pawn move and DTZ 27: a cursed win by the count, a win
//!   under ICCF. The 3-4 piece tables seem to hold no cursed win of their
//!   own: probing 3 million random placements in each of KBNvK, KNNvK,
//!   KRvKB, KRvKN, KQvKR, KQvKQ, KPvKP, KBvKP, KNvKP, KRvKP, KQvKP, KBPvK,
//!   KNPvK, KRPvK and KPPvK found none;
//! - `4k3/8/8/8/8/8/8/R3K3 w Q - 0 1`: castling still possible;
//! - `4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1`: five pieces.

use std::path::{Path, PathBuf};

use serde_json::Value;
use shakmaty::{CastlingMode, Chess, Color, fen::Fen};

use crate::languages::{Read, read};
use crate::support::cli::{json_of, wildt};
use crate::support::club::{Club, Game, mail};

const KQK: &str = "8/8/8/4k3/8/8/8/3QK3 w - - 0 70";
const KRK: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 60";
const KRKR: &str = "8/8/3k4/3r4/8/3RK3/8/8 w - - 0 80";
const KQKR: &str = "8/8/4k3/8/5r2/2Q5/8/7K w - - 0 1";
const KQKQ: &str = "7k/8/8/3q4/8/8/8/3Q2K1 w - - 0 64";
const KRK_CURSED: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 80 100";
const CASTLING: &str = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
const FIVE: &str = "4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1";
const ANNA: &str = "anna@example.org";
const BEN: &str = "ben@example.net";

/// The shared 3-4 piece set: `WILDT_SYZYGY`, else `../shared/syzygy`
/// beside the project (or beside a worktree's parent).
fn syzygy() -> PathBuf {
    if let Some(dir) = std::env::var_os("WILDT_SYZYGY") {
        return PathBuf::from(dir);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../shared/syzygy"),
        root.join("../../shared/syzygy"),
    ]
    .into_iter()
    .find(|d| d.join("KQvK.rtbw").is_file())
    .expect("the Syzygy test set: set WILDT_SYZYGY or put it in ../shared/syzygy")
}

/// A club whose configuration has `[tablebase]` with `path` and `extra`.
fn club_with(path: &Path, extra: &str) -> Club {
    let club = Club::new();
    let mut text = std::fs::read_to_string(&club.cfg).unwrap();
    text.push_str(&format!(
        "\n[tablebase]\npath = {}\n{extra}\n",
        crate::support::rig::toml_str(&path.display().to_string())
    ));
    std::fs::write(&club.cfg, text).unwrap();
    club
}

fn club() -> Club {
    club_with(&syzygy(), "")
}

fn game(club: &Club, fen: &str, extra: &[&str]) -> Game {
    let mut args = vec!["--fen", fen];
    args.extend_from_slice(extra);
    club.new_game_with(&args)
}

/// Delivers `body` from White (Anna) or Black (Ben) to `g`.
fn send(club: &Club, g: &Game, white: bool, name: &str, body: &str) {
    let (from, to) = if white {
        (ANNA, &g.white)
    } else {
        (BEN, &g.black)
    };
    club.deliver(
        &format!("{name}.eml"),
        &mail(from, to, &format!("{name}@example.org"), body),
    );
}

/// The mails written since the last call (the outbox is emptied).
fn take_outbox(club: &Club) -> Vec<Read> {
    let mails = club.outbox().iter().map(|m| read(m)).collect();
    let dir = club.dir.path().join("outbox");
    if dir.is_dir() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    mails
}

/// The mails of `game` to `to`.
fn to<'a>(mails: &'a [Read], to: &str, game: i64) -> Vec<&'a Read> {
    mails
        .iter()
        .filter(|m| m.to == to && m.subject.starts_with(&format!("[wildt #{game}]")))
        .collect()
}

fn the_one<'a>(mails: &'a [Read], who: &str, game: i64) -> &'a Read {
    let m = to(mails, who, game);
    assert_eq!(m.len(), 1, "{who} in game {game}: {:#?}", mails_text(mails));
    m[0]
}

fn mails_text(mails: &[Read]) -> Vec<String> {
    mails
        .iter()
        .map(|m| format!("{} | {} | {}", m.to, m.subject, m.text))
        .collect()
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// The mail's HTML part draws the board of `fen` from `viewer`'s side.
fn shows_board(m: &Read, fen: &str, viewer: Color) -> bool {
    // Written seven-bit: each character beyond ASCII as a reference.
    let board: String = wildt::html::board(&position(fen), None, viewer)
        .into_string()
        .chars()
        .map(|c| match c.is_ascii() {
            true => c.to_string(),
            false => format!("&#{};", u32::from(c)),
        })
        .collect();
    // The part's lines are broken between tags for SMTP.
    m.html
        .as_deref()
        .is_some_and(|h| h.replace("\r\n", "").contains(&board))
}

fn status(club: &Club, id: i64) -> (String, Value, usize) {
    let shown = club.show(id);
    (
        shown["status"].as_str().unwrap().to_owned(),
        shown["termination"].clone(),
        shown["moves"].as_array().unwrap().len(),
    )
}

/// Win claims in KQvK and KRvK, a draw claim in KRvKR and a win in KQvKR
/// that only the tables know: each ends its game (termination tablebase),
/// and both players are mailed the claim, the verdict and the board.
#[test]
fn correct_win_and_draw_claims_end_the_game_by_the_tablebases() {
    let club = club();
    let kqk = game(&club, KQK, &[]);
    let krk = game(&club, KRK, &[]);
    let krkr = game(&club, KRKR, &[]);
    let kqkr = game(&club, KQKR, &[]);
    // Before the claim the organiser sees what the tables say.
    assert_eq!(club.show(kqkr.id)["tablebase"]["result"], "1-0");
    send(&club, &kqk, true, "kqk", "claim win by tablebase");
    send(&club, &krk, true, "krk", "I claim a win by tablebase.");
    send(&club, &krkr, true, "krkr", "claim draw by tablebase");
    send(&club, &kqkr, true, "kqkr", "Claim tablebase win");
    club.serve_once();
    let mails = take_outbox(&club);
    for (g, fen, result, said) in [
        (&kqk, KQK, "1-0", "White wins"),
        (&krk, KRK, "1-0", "White wins"),
        (&krkr, KRKR, "1/2-1/2", "draw"),
        (&kqkr, KQKR, "1-0", "White wins"),
    ] {
        let (state, termination, moves) = status(&club, g.id);
        assert_eq!((state.as_str(), moves), ("finished", 0), "{fen}");
        assert_eq!(termination, "tablebase", "{fen}");
        assert_eq!(club.show(g.id)["result"], result, "{fen}");
        let claim = if result == "1-0" { "a win" } else { "a draw" };
        for (who, viewer) in [(ANNA, Color::White), (BEN, Color::Black)] {
            let m = the_one(&mails, who, g.id);
            assert_eq!(m.kind, "game-over", "{fen}");
            assert!(
                m.text.contains(&format!(
                    "White claimed {claim} by the endgame tablebases in the position on the \
                     board; the tablebases say: {said}. The claim is correct."
                )),
                "{fen}: {}",
                m.text
            );
            assert!(shows_board(m, fen, viewer), "{fen}: {:?}", m.html);
        }
    }
    let pgn = wildt(&club.cfg, &["game", "pgn", &kqkr.id.to_string()]);
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(pgn.contains("[WildtTermination \"tablebase\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}

/// `64. 4145 claim tablebase win`: the tables judge the position after the
/// move, and the move is not played, whether the claim is upheld or not.
#[test]
fn a_claim_with_a_proposed_move_is_judged_after_it_and_the_move_is_not_played() {
    let club = club();
    let upheld = game(&club, KQKQ, &[]);
    let refused = game(&club, KQKQ, &[]);
    send(&club, &upheld, true, "up", "64. 4145 claim tablebase win");
    // A draw claimed where the tables give the claimant the win: refused.
    send(
        &club,
        &refused,
        true,
        "down",
        "64. 4145 claim draw by tablebase",
    );
    club.serve_once();
    let mails = take_outbox(&club);
    let (state, termination, moves) = status(&club, upheld.id);
    assert_eq!((state.as_str(), moves), ("finished", 0));
    assert_eq!(termination, "tablebase");
    for who in [ANNA, BEN] {
        let m = the_one(&mails, who, upheld.id);
        assert!(
            m.text.contains(
                "White claimed a win by the endgame tablebases after 64. 4145 (Qxd5), which is \
                 not played; the tablebases say: White wins. The claim is correct."
            ),
            "{}",
            m.text
        );
    }
    let (state, _, moves) = status(&club, refused.id);
    assert_eq!((state.as_str(), moves), ("active", 0));
    assert!(to(&mails, BEN, refused.id).is_empty());
    let m = the_one(&mails, ANNA, refused.id);
    assert_eq!(m.kind, "move-rejected");
    assert!(
        m.text.contains(
            "a draw cannot be claimed after 64. 4145 (Qxd5), which is not played: the \
             tablebases say: White wins"
        ),
        "{}",
        m.text
    );
}

/// A win claimed in a drawn position is refused with the tables' verdict,
/// and so is a claim by the player not on move; both games go on.
#[test]
fn a_wrong_claim_and_a_claim_out_of_turn_are_refused_and_the_game_goes_on() {
    let club = club();
    let wrong = game(&club, KRKR, &[]);
    let early = game(&club, KQK, &[]);
    send(&club, &wrong, true, "wrong", "claim win by tablebase");
    send(&club, &early, false, "early", "claim win by tablebase");
    club.serve_once();
    let mails = take_outbox(&club);
    let m = the_one(&mails, ANNA, wrong.id);
    assert!(
        m.text.contains(
            "a win cannot be claimed in the position on the board: the tablebases say: draw"
        ),
        "{}",
        m.text
    );
    assert!(to(&mails, BEN, wrong.id).is_empty());
    let m = the_one(&mails, BEN, early.id);
    assert!(m.text.contains("it is White's move"), "{}", m.text);
    for g in [&wrong, &early] {
        assert_eq!(status(&club, g.id).0, "active");
    }
}

/// Castling rights, a fifth piece and a table missing from the referee's
/// set each leave the position undecided, and the answer says why.
#[test]
fn positions_the_tables_cannot_decide_are_refused_with_the_reason() {
    let set = syzygy();
    let partial = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&set).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !name.starts_with("KRvK.") {
            std::fs::copy(&path, partial.path().join(&name)).unwrap();
        }
    }
    let club = club_with(partial.path(), "");
    let castling = game(&club, CASTLING, &[]);
    let five = game(&club, FIVE, &[]);
    let missing = game(&club, KRK, &[]);
    for (g, name) in [(&castling, "c"), (&five, "f"), (&missing, "m")] {
        send(&club, g, true, name, "claim win by tablebase");
    }
    club.serve_once();
    let mails = take_outbox(&club);
    for (g, why) in [
        (
            &castling,
            "castling is still possible, and tablebases hold no such position",
        ),
        (
            &five,
            "the position has 5 pieces and the referee's tables hold at most 4",
        ),
        (&missing, "the referee has no table for KRvK"),
    ] {
        let m = the_one(&mails, ANNA, g.id);
        assert!(
            m.text.contains(&format!(
                "nothing can be claimed by the tablebases in the position on the board: {why}"
            )),
            "{}",
            m.text
        );
        assert_eq!(status(&club, g.id).0, "active");
    }
}

/// 40 moves without a capture or pawn move and a mate 27 plies away: the
/// 50-move rule would make it a draw, ICCF's suspension of it a win.
#[test]
fn a_win_cursed_by_the_fifty_move_count_is_a_win() {
    let club = club();
    let g = game(&club, KRK_CURSED, &[]);
    send(&club, &g, true, "cursed", "claim win by tablebase");
    club.serve_once();
    let mails = take_outbox(&club);
    let m = the_one(&mails, BEN, g.id);
    assert!(
        m.text.contains(
            "the tablebases say: White wins (beyond the 50-move rule, which ICCF suspends \
             here). The claim is correct."
        ),
        "{}",
        m.text
    );
    assert_eq!(club.show(g.id)["result"], "1-0");
}

/// Under `adjudicate = "auto"` the capture that leaves four pieces ends
/// the game at once, and both players are told it was the tables.
#[test]
fn under_auto_a_move_into_the_tables_range_ends_the_game() {
    let club = club_with(&syzygy(), "adjudicate = \"auto\"");
    // KQPvKQ, five pieces: beyond the tables until the queen is taken.
    let g = game(&club, "7k/8/8/3q4/8/8/P7/3Q2K1 w - - 0 64", &[]);
    send(&club, &g, true, "auto", "64. 4145");
    club.serve_once();
    let mails = take_outbox(&club);
    let (state, termination, moves) = status(&club, g.id);
    assert_eq!((state.as_str(), moves), ("finished", 1));
    assert_eq!(termination, "tablebase");
    for who in [ANNA, BEN] {
        let over: Vec<_> = to(&mails, who, g.id)
            .into_iter()
            .filter(|m| m.kind == "game-over")
            .collect();
        assert_eq!(over.len(), 1, "{:#?}", mails_text(&mails));
        assert!(
            over[0]
                .text
                .contains("The referee ended the game by the endgame tablebases: White wins."),
            "{}",
            over[0].text
        );
    }
}

/// Under `auto` a prepared answer counts as a move: Black's conditional
/// 64... 4541 (Qxd1+) takes the last White piece but a pawn, and the
/// tables end the game (KPvKQ `7k/8/8/8/8/P7/8/3q2K1 w - - 0 65`: Black
/// wins).
#[test]
fn under_auto_a_prepared_answer_into_the_tables_range_ends_the_game() {
    let club = club_with(&syzygy(), "adjudicate = \"auto\"");
    let g = game(&club, "7k/8/8/3q4/8/8/P7/3Q2K1 w - - 0 64", &[]);
    send(&club, &g, false, "cond", "if 64. 1213 then 64... 4541");
    club.serve_once();
    take_outbox(&club);
    send(&club, &g, true, "move", "64. 1213");
    club.serve_once();
    let mails = take_outbox(&club);
    let shown = club.show(g.id);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 2, "{shown}");
    assert_eq!(
        (&shown["result"], &shown["termination"]),
        (&Value::from("0-1"), &Value::from("tablebase")),
        "{:#?}",
        mails_text(&mails)
    );
}

/// Claims in German and Russian are read, and answered in the player's
/// language.
#[test]
fn claims_in_german_and_russian_are_upheld_in_the_players_language() {
    // One club each: a player's language is the player's, in every game.
    let (de_club, ru_club) = (club(), club());
    let de = game(&de_club, KQK, &["--white-lang", "de"]);
    let ru = game(&ru_club, KRKR, &["--white-lang", "ru"]);
    send(
        &de_club,
        &de,
        true,
        "de",
        "Ich reklamiere den Gewinn laut Tablebase.",
    );
    send(&ru_club, &ru, true, "ru", "Требую ничью по таблицам.");
    de_club.serve_once();
    ru_club.serve_once();
    let mails = take_outbox(&de_club);
    let m = the_one(&mails, ANNA, de.id);
    assert!(
        m.text.contains(
            "Weiß hat den Gewinn laut Tablebase reklamiert (in der Stellung auf dem Brett); \
             die Tablebases sagen: Weiß gewinnt. Die Reklamation ist berechtigt."
        ),
        "{}",
        m.text
    );
    assert_eq!(de_club.show(de.id)["result"], "1-0");
    let mails = take_outbox(&ru_club);
    let m = the_one(&mails, ANNA, ru.id);
    assert!(
        m.text.contains(
            "Белые потребовали ничью по таблицам (в позиции на доске); таблицы говорят: \
             ничья. Требование обосновано."
        ),
        "{}",
        m.text
    );
    assert_eq!(ru_club.show(ru.id)["result"], "1/2-1/2");
}

/// The organiser's side: `check --json` shows what a claim would get,
/// `game adjudicate --tablebase` applies the verdict (and refuses where
/// there is none), `config check` counts the tables, `status` says they
/// are on.
#[test]
fn the_organiser_checks_a_claim_adjudicates_by_the_tables_and_sees_them_configured() {
    let club = club();
    let g = game(&club, KRKR, &[]);
    let eml = club.dir.path().join("claim.eml");
    std::fs::write(
        &eml,
        mail(ANNA, &g.white, "chk@example.org", "claim win by tablebase"),
    )
    .unwrap();
    let checked = json_of(&wildt(
        &club.cfg,
        &["check", eml.to_str().unwrap(), "--json"],
    ));
    assert_eq!(checked["reading"], "claim_tablebase");
    assert_eq!(checked["tablebase"]["upheld"], false);
    assert_eq!(checked["tablebase"]["says"], "draw");
    assert_eq!(
        checked["tablebase"]["answer"],
        "a win cannot be claimed in the position on the board: the tablebases say: draw"
    );
    let text = wildt(&club.cfg, &["game", "show", &g.id.to_string()]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Tablebases: draw (1/2-1/2)"), "{text}");

    let undecided = game(&club, FIVE, &[]);
    let out = wildt(
        &club.cfg,
        &[
            "game",
            "adjudicate",
            &undecided.id.to_string(),
            "--tablebase",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the position has 5 pieces and the referee's tables hold at most 4"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = wildt(
        &club.cfg,
        &["game", "adjudicate", &g.id.to_string(), "--tablebase"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = club.show(g.id);
    assert_eq!(
        (&shown["result"], &shown["termination"]),
        (&Value::from("1/2-1/2"), &Value::from("tablebase"))
    );
    // The CLI queues; the daemon sends.
    club.serve_once();
    let mails = take_outbox(&club);
    for who in [ANNA, BEN] {
        assert!(
            the_one(&mails, who, g.id)
                .text
                .contains("The referee ended the game by the endgame tablebases: draw."),
            "{:#?}",
            mails_text(&mails)
        );
    }

    // A postcard game's claim, typed in by the organiser.
    let postcard = game(&club, KRK, &[]);
    let out = wildt(
        &club.cfg,
        &[
            "game",
            "move",
            &postcard.id.to_string(),
            "claim-tablebase-win",
            "--as",
            "white",
        ],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("The claim of a win stands: the tablebases say: White wins."),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(club.show(postcard.id)["termination"], "tablebase");

    let out = wildt(&club.cfg, &["config", "check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("tablebase.path: 35 WDL and 35 DTZ tables, up to 4 pieces"),
        "{text}"
    );
    // The database exists once a game is made: status reads it.
    let out = wildt(&club.cfg, &["status", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tablebase"]["on"], true);
    assert_eq!(v["tablebase"]["max_pieces"], 4);
    let out = wildt(&club.cfg, &["status"]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("tablebases:    on (35 tables, up to 4 pieces; adjudicate = claim)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Over real mail (the rig's Postfix and Dovecot, IMAPS in and SMTP out):
/// Anna, who reads German, claims the win with a proposed move; the move
/// is not played, and both players receive the tables' verdict, each in
/// their language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_with_a_move_by_mail_through_the_rig_reaches_both_players() {
    use crate::e2e::{Options, Referee, fresh_inboxes, move_mail, player, wait_mails};
    let rig = rig_or_skip!();
    let (referee, anna, ben) = (player(70), player(71), player(72));
    let mut readers = fresh_inboxes(&rig, &[&referee, &anna, &ben]).await;
    let r = Referee::new(&rig, &referee, Options::default());
    let mut text = std::fs::read_to_string(&r.config).unwrap();
    text.push_str(&format!(
        "\n[tablebase]\npath = {}\n",
        crate::support::rig::toml_str(&syzygy().display().to_string())
    ));
    std::fs::write(&r.config, text).unwrap();
    let out = r.run(&[
        "game",
        "new",
        "--no-mail",
        "--white",
        &anna,
        "--black",
        &ben,
        "--white-lang",
        "de",
        "--fen",
        KQKQ,
        "--json",
    ]);
    let g = json_of(&out);
    let (id, white_address) = (
        g["id"].as_i64().unwrap(),
        g["white"]["address"].as_str().unwrap().to_owned(),
    );
    let raw = move_mail(
        &anna,
        &white_address,
        "64. 4145 Ich reklamiere den Gewinn laut Tablebase.",
    );
    rig.send(&anna, &white_address, &raw).await;
    // Wait for the mail to reach the referee's mailbox before one pass.
    readers[0]
        .wait_for("INBOX", &crate::e2e::message_id_of(&raw), 1)
        .await;
    r.serve_once();
    let shown = r.show(id);
    assert_eq!(shown["termination"], "tablebase");
    assert_eq!(shown["result"], "1-0");
    assert!(shown["moves"].as_array().unwrap().is_empty(), "{shown}");
    let within = std::time::Duration::from_secs(20);
    let over = |m: &crate::e2e::Mail| m.is("game-over") && m.game == Some(id);
    let de = wait_mails(&mut readers[1], "INBOX", "game over", 1, within, over).await;
    assert!(
        de[0].text.contains(
            "Weiß hat den Gewinn laut Tablebase reklamiert (nach 64. 4145 (Dxd5), der nicht \
             ausgeführt wird); die Tablebases sagen: Weiß gewinnt."
        ),
        "{}",
        de[0].text
    );
    let en = wait_mails(&mut readers[2], "INBOX", "game over", 1, within, over).await;
    assert!(
        en[0].text.contains(
            "White claimed a win by the endgame tablebases after 64. 4145 (Qxd5), which is not \
             played; the tablebases say: White wins. The claim is correct."
        ),
        "{}",
        en[0].text
    );
}

/// A `[tablebase] path` that names no directory is an error to `config
/// check` and a problem to `status`, each saying which path.
#[test]
fn an_unreadable_tablebase_directory_is_an_error_and_a_problem() {
    let missing = tempfile::tempdir().unwrap().path().join("no-such-dir");
    let club = club_with(&missing, "");
    game(&club, KQK, &[]);
    let out = wildt(&club.cfg, &["config", "check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("tablebase directory {}", missing.display())),
        "{text}"
    );
    let out = wildt(&club.cfg, &["status", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["problems"][0]["kind"], "tablebase_unreadable", "{v}");
    assert_eq!(v["tablebase"]["on"], true);
}
