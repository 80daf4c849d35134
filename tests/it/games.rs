//! Games through the store: whole games to each kind of end, an echo mismatch,
//! the hourly reply limit, two moves at the same moment, and PGN read back by
//! an independent reader.

use std::ops::ControlFlow;

use shakmaty::Color;
use wildt::command::{Command, MoveNumber, WrittenMove};
use wildt::config::{Config, LOCAL_TOML};
use wildt::game::{GameResult, PgnHeaders, Termination, pgn};
use wildt::handle::{Handled, Mode, Source, handle_message};
use wildt::mail::InboxId;
use wildt::organise::{self, Mailing, NewGame, OrganiseError};
use wildt::referee::{Rejection, Verdict};
use wildt::store::Store;

pub struct TempStore {
    pub _dir: tempfile::TempDir,
    pub store: Store,
    pub config: Config,
    /// The PostgreSQL password, on the PostgreSQL pass.
    pub password: Option<String>,
}

impl TempStore {
    /// A second store on the same database, as another process opens it.
    pub async fn reopen(&self) -> Store {
        Store::open_with_password(&self.config.database_url, self.password.as_deref())
            .await
            .unwrap()
    }
}

pub async fn temp_store() -> TempStore {
    let dir = tempfile::tempdir().unwrap();
    // On the PostgreSQL pass a fresh database of the test PostgreSQL.
    let (url, password) = if crate::support::cli::on_postgres() {
        let url = crate::support::pg::fresh_database("games");
        (url, Some(crate::support::pg::password()))
    } else {
        let url = format!("sqlite://{}", dir.path().join("wildt.db").display());
        (url, None)
    };
    let store = Store::open_with_password(&url, password.as_deref())
        .await
        .unwrap();
    let mut config = Config::parse(LOCAL_TOML).unwrap();
    config.database_url = url;
    TempStore {
        _dir: dir,
        store,
        config,
        password,
    }
}

async fn new_game(t: &TempStore, fen: Option<&str>) -> i64 {
    organise::create_game(
        &t.store,
        &t.config.referee,
        50,
        NewGame {
            time: wildt::clock::TimeControl::None,
            white_lang: None,
            black_lang: None,
            white: "anna@example.org",
            black: "ben@example.net",
            fen,
            event: Some("Test"),
        },
        Mailing::NoMail,
    )
    .await
    .unwrap()
    .view
    .id
}

/// Plays `moves` alternately from the side to move; every one must be accepted.
async fn play(t: &TempStore, game: i64, moves: &[&str]) -> Verdict {
    let mut last = Verdict::Status;
    for m in moves {
        let g = t.store.game(game).await.unwrap().unwrap();
        let seat = g.view.record.turn();
        last = organise::play_by_hand(
            &t.store,
            &t.config.rules(),
            game,
            seat,
            &Command::single(m.parse().unwrap()),
        )
        .await
        .unwrap();
        assert!(matches!(last, Verdict::Moved { .. }), "{m}: {last:?}");
    }
    last
}

fn long_game() -> Vec<String> {
    include_str!("../fixtures/e2e/long-game.iccf")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn whole_game_to_mate_is_stored_and_finished() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let moves = long_game();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let last = play(&t, id, &refs).await;
    let Verdict::Moved { end: Some(end), .. } = last else {
        panic!("{last:?}")
    };
    assert_eq!(end.result, GameResult::BlackWins);
    assert_eq!(end.termination, Termination::Checkmate);
    let g = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(g.view.record.plies().len(), moves.len());
    assert_eq!(g.view.record.end, Some(end));
    let after = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::White,
        &Command::Resign,
    )
    .await
    .unwrap();
    assert!(matches!(
        after,
        Verdict::Rejected(Rejection::GameOver { .. })
    ));
}

#[tokio::test]
async fn stalemate_is_stored_as_a_draw() {
    let t = temp_store().await;
    let id = new_game(&t, Some("7k/5K2/8/6Q1/8/8/8/8 w - - 0 1")).await;
    play(&t, id, &["7576"]).await;
    let end = t.store.game(id).await.unwrap().unwrap().view.record.end;
    assert_eq!(end.map(|e| e.termination), Some(Termination::Stalemate));
    assert_eq!(end.map(|e| e.result), Some(GameResult::Draw));
}

#[tokio::test]
async fn claimed_threefold_repetition_ends_the_game() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    play(&t, id, &["7163", "7866", "6371", "6678", "7163", "7866"]).await;
    // Only twice so far after Black's knight returns: the claim is refused.
    let v = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::White,
        &Command::ClaimDraw,
    )
    .await
    .unwrap();
    assert!(
        matches!(v, Verdict::Rejected(Rejection::ClaimRefused { .. })),
        "{v:?}"
    );
    play(&t, id, &["6371", "6678"]).await;
    let v = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::White,
        &Command::ClaimDraw,
    )
    .await
    .unwrap();
    assert!(matches!(v, Verdict::Ended { .. }), "{v:?}");
    let end = t.store.game(id).await.unwrap().unwrap().view.record.end;
    assert_eq!(
        end.map(|e| e.termination),
        Some(Termination::ThreefoldRepetition)
    );
}

#[tokio::test]
async fn agreed_draw_survives_a_reload() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    play(&t, id, &["5254"]).await;
    let offer = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::Black,
        &Command::OfferDraw,
    )
    .await
    .unwrap();
    assert_eq!(offer, Verdict::DrawOffered { by: Color::Black });
    let g = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(g.view.record.draw_offer, Some(Color::Black));
    let v = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::White,
        &Command::AcceptDraw,
    )
    .await
    .unwrap();
    assert!(matches!(v, Verdict::Ended { .. }), "{v:?}");
    let g = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(
        g.view.record.end.map(|e| (e.result, e.termination)),
        Some((GameResult::Draw, Termination::DrawAgreed))
    );
    assert_eq!(g.view.record.draw_offer, None);
}

#[tokio::test]
async fn resignation_is_stored() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    play(&t, id, &["5254", "5755"]).await;
    organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::Black,
        &Command::Resign,
    )
    .await
    .unwrap();
    let g = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(
        g.view.record.end.map(|e| (e.result, e.termination)),
        Some((GameResult::WhiteWins, Termination::Resignation))
    );
}

#[tokio::test]
async fn echo_mismatch_changes_nothing() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    play(&t, id, &["5254", "5755"]).await;
    let line = vec![
        WrittenMove {
            number: Some(MoveNumber {
                number: 1,
                black: true,
            }),
            mv: "4745".parse().unwrap(),
        },
        WrittenMove {
            number: Some(MoveNumber {
                number: 2,
                black: false,
            }),
            mv: "7163".parse().unwrap(),
        },
    ];
    let v = organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::White,
        &Command::Play {
            line,
            offer_draw: false,
            claim_draw: false,
        },
    )
    .await
    .unwrap();
    assert!(
        matches!(v, Verdict::Rejected(Rejection::EchoMismatch { .. })),
        "{v:?}"
    );
    let g = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(g.view.record.plies().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_moves_at_the_same_moment_apply_exactly_one() {
    let t = temp_store().await;
    // A second, independent pool on the same file: two processes' worth.
    let other = t.reopen().await;
    let rounds = 25;
    for _ in 0..rounds {
        let id = new_game(&t, None).await;
        let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(2));
        let (a, b) = (t.store.clone(), other.clone());
        let (ra, rb) = (t.config.rules(), t.config.rules());
        let (ba, bb) = (barrier.clone(), barrier.clone());
        let first = tokio::spawn(async move {
            ba.wait().await;
            organise::play_by_hand(
                &a,
                &ra,
                id,
                Color::White,
                &Command::single("5254".parse().unwrap()),
            )
            .await
            .unwrap()
        });
        let second = tokio::spawn(async move {
            bb.wait().await;
            organise::play_by_hand(
                &b,
                &rb,
                id,
                Color::White,
                &Command::single("4244".parse().unwrap()),
            )
            .await
            .unwrap()
        });
        let verdicts = [first.await.unwrap(), second.await.unwrap()];
        let moved = verdicts
            .iter()
            .filter(|v| matches!(v, Verdict::Moved { .. }))
            .count();
        let refused = verdicts
            .iter()
            .filter(|v| {
                matches!(
                    v,
                    Verdict::Rejected(Rejection::NotYourTurn {
                        to_move: Color::Black
                    })
                )
            })
            .count();
        assert_eq!((moved, refused), (1, 1), "{verdicts:?}");
        let g = t.store.game(id).await.unwrap().unwrap();
        assert_eq!(g.view.record.plies().len(), 1);
    }
}

/// Collects the SAN moves and the result of the first game in a PGN text.
struct Collect;

impl pgn_reader::Visitor for Collect {
    type Tags = ();
    type Movetext = (Vec<String>, Option<String>);
    type Output = (Vec<String>, Option<String>);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((Vec::new(), None))
    }

    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san_plus: pgn_reader::SanPlus,
    ) -> ControlFlow<Self::Output> {
        movetext.0.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut Self::Movetext,
        outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Self::Output> {
        movetext.1 = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext
    }
}

#[tokio::test]
async fn pgn_is_read_back_by_an_independent_reader_with_the_same_moves() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let moves = long_game();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    play(&t, id, &refs).await;
    let g = t.store.game(id).await.unwrap().unwrap();
    let text = pgn(
        &g.view.record,
        &PgnHeaders {
            time_control: None,
            days: Vec::new(),
            event: "Test".into(),
            site: "chess@club.example".into(),
            date: "2026.11.22".into(),
            white: "anna@example.org".into(),
            black: "ben@example.net".into(),
            game_id: id,
        },
    );
    let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(text.as_bytes()));
    let (sans, outcome) = reader.read_game(&mut Collect).unwrap().unwrap();
    let expected: Vec<String> = include_str!("../fixtures/e2e/long-game.san")
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .map(str::to_owned)
        .collect();
    assert_eq!(sans, expected);
    assert_eq!(outcome.as_deref(), Some("0-1"));
}

#[tokio::test]
async fn one_game_too_many_for_a_player_is_refused() {
    let t = temp_store().await;
    let create = |white: &'static str| {
        let store = t.store.clone();
        let referee = t.config.referee.clone();
        async move {
            organise::create_game(
                &store,
                &referee,
                2,
                NewGame {
                    time: wildt::clock::TimeControl::None,
                    white_lang: None,
                    black_lang: None,
                    white,
                    black: "ben@example.net",
                    fen: None,
                    event: None,
                },
                Mailing::NoMail,
            )
            .await
        }
    };
    create("p1@example.org").await.unwrap();
    create("p2@example.org").await.unwrap();
    let err = create("p3@example.org").await.unwrap_err();
    assert!(
        matches!(
            &err,
            OrganiseError::TooManyGames { email, count: 2, limit: 2 } if email == "ben@example.net"
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn rekey_replaces_only_that_seats_key() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let before = t.store.game(id).await.unwrap().unwrap();
    let key = organise::rekey(
        &t.store,
        &t.config.referee,
        id,
        Color::Black,
        Mailing::NoMail,
    )
    .await
    .unwrap();
    let after = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(after.view.black.key, key);
    assert_ne!(after.view.black.key, before.view.black.key);
    assert_eq!(after.view.white.key, before.view.white.key);
    assert!(t.store.due_mail(i64::MAX, 10).await.unwrap().is_empty());
    assert!(matches!(
        organise::rekey(
            &t.store,
            &t.config.referee,
            999,
            Color::White,
            Mailing::NoMail
        )
        .await
        .unwrap_err(),
        OrganiseError::NoGame(999)
    ));
}

/// After a rekey, mail to the old address moves nothing and the player is
/// told the new address; the new address moves; and the rekey itself queued
/// the player's mail with the new address.
#[tokio::test]
async fn after_rekey_the_old_address_moves_nothing_and_the_new_one_does() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let old_key = t.store.game(id).await.unwrap().unwrap().view.white.key;
    let old = wildt::decide::game_address(&t.config.referee, id, &old_key);
    let key = organise::rekey(&t.store, &t.config.referee, id, Color::White, Mailing::Mail)
        .await
        .unwrap();
    let new = wildt::decide::game_address(&t.config.referee, id, &key);

    let queued = t.store.due_mail(i64::MAX, 10).await.unwrap();
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(queued[0].recipient, "anna@example.org");
    let mail = mail_parser::MessageParser::default()
        .parse(&queued[0].raw)
        .unwrap();
    assert_eq!(
        mail.reply_to()
            .and_then(|a| a.first())
            .and_then(|a| a.address()),
        Some(new.as_str())
    );
    let body = crate::support::fixtures::body_text(&queued[0].raw);
    assert!(body.contains(&format!("is now {new}")), "{body}");
    assert!(!body.contains(&old), "{body}");

    let to_old = mail_to(&t, &old, "anna@example.org", 1, "1. 5254").await;
    assert_eq!(to_old.outcome.as_str(), "wrong_key");
    assert!(to_old.record_after.is_none());
    assert_eq!(to_old.mails.len(), 1);
    assert_eq!(to_old.mails[0].to, "anna@example.org");
    assert!(
        to_old.mails[0].body.contains(&new),
        "{}",
        to_old.mails[0].body
    );
    assert_eq!(plies(&t, id).await, 0);

    let to_new = mail_to(&t, &new, "anna@example.org", 2, "1. 5254").await;
    assert_eq!(to_new.outcome.as_str(), "moved", "{}", to_new.detail);
    assert_eq!(plies(&t, id).await, 1);
}

/// A player's move mail to the game address of `seat`, through the daemon's
/// path; how many of the sender's replies the hourly limit dropped.
async fn mail_move(t: &TempStore, game: i64, seat: Color, n: usize, body: &str) -> usize {
    mail_decision(t, game, seat, n, body).await.rate_limited
}

/// A decision with the mails it wrote, as the daemon's path returns them.
#[derive(Debug)]
struct Answer {
    decision: wildt::decide::Decision,
    mails: Vec<wildt::reply::OutMail>,
    rate_limited: usize,
}

impl std::ops::Deref for Answer {
    type Target = wildt::decide::Decision;
    fn deref(&self) -> &Self::Target {
        &self.decision
    }
}

async fn mail_decision(t: &TempStore, game: i64, seat: Color, n: usize, body: &str) -> Answer {
    let g = t.store.game(game).await.unwrap().unwrap();
    let player = g.view.player(seat);
    let to = wildt::decide::game_address(&t.config.referee, game, &player.key);
    mail_to(t, &to, &player.email, n, body).await
}

/// A mail from `from` to the address `to`, through the daemon's path (as the
/// `n`th message of a Maildir inbox), under the rules of `t.config` now.
async fn mail_to(t: &TempStore, to: &str, from: &str, n: usize, body: &str) -> Answer {
    let raw = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <mail-{n}@example.org>\r\n\r\n{body}\r\n"
    );
    let source = Source::Inbox(InboxId::Maildir {
        id: format!("test-{n}"),
    });
    match handle_message(
        &t.store,
        &t.config.rules(),
        &source,
        raw.as_bytes(),
        raw.len(),
        Mode::Commit,
    )
    .await
    .unwrap()
    {
        Handled::Decided {
            decision, letters, ..
        } => Answer {
            decision: *decision,
            mails: letters.mails,
            rate_limited: letters.rate_limited,
        },
        other => panic!("{other:?}"),
    }
}

/// The replies of a move this process committed are sent from memory with
/// exactly the bytes stored for them, and only by this process: the
/// stored bodies are damaged before the lease, and the lease still has
/// them whole; another process (a fresh store on the same database) reads
/// the damaged rows and leaves them out; a dry run queues nothing.
#[tokio::test]
async fn committed_replies_are_sent_from_memory_with_the_stored_bytes() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let other = t.reopen().await;
    // The daemon hands the bodies of what it committed to its sender.
    let leases = wildt::daemon::lease::Leases::new(t.store.clone());
    let g = t.store.game(id).await.unwrap().unwrap();
    let white = g.view.player(Color::White);
    let to = wildt::decide::game_address(&t.config.referee, id, &white.key);
    let raw = format!(
        "From: {}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <mail-0@example.org>\r\n\r\n1. 5254\r\n",
        white.email
    );
    let source = Source::Inbox(InboxId::Maildir {
        id: "test-0".into(),
    });
    let rules = t.config.rules();
    let moved = handle_message(
        &t.store,
        &rules,
        &source,
        raw.as_bytes(),
        raw.len(),
        Mode::Commit,
    );
    let Handled::Decided {
        mut mails, letters, ..
    } = moved.await.unwrap()
    else {
        panic!("not decided")
    };
    assert_eq!(letters.rate_limited, 0);
    leases.keep_fresh(&mut mails);
    let stored: Vec<(String, Vec<u8>)> = other
        .due_mail(i64::MAX, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.message_id, r.raw))
        .collect();
    assert_eq!(stored.len(), 2, "the confirmation and the relay");
    sqlx::query(if crate::support::cli::on_postgres() {
        "UPDATE outbox_bodies SET raw = '\\x00'::bytea, packed = 1"
    } else {
        "UPDATE outbox_bodies SET raw = x'00', packed = 1"
    })
    .execute(other.pool())
    .await
    .unwrap();
    assert!(other.due_mail(i64::MAX, 10).await.unwrap().is_empty());
    let leased: Vec<(String, Vec<u8>)> = leases
        .lease_due(wildt::store::now_secs(), 10, "this", i64::MAX)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.message_id, r.raw))
        .collect();
    assert_eq!(leased, stored);
    // Taken once: the lease given back, the next one reads the database.
    t.store.release_leases("this").await.unwrap();
    let again = leases
        .lease_due(wildt::store::now_secs(), 10, "this", i64::MAX)
        .await
        .unwrap();
    assert!(again.is_empty(), "{} sent from memory twice", again.len());

    // A dry run's mails were never committed: none is queued.
    let black = g.view.player(Color::Black);
    let to = wildt::decide::game_address(&t.config.referee, id, &black.key);
    let raw = format!(
        "From: {}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <dry@example.org>\r\n\r\n1... 5755\r\n",
        black.email
    );
    let source = Source::Inbox(InboxId::Maildir { id: "dry".into() });
    let dry = handle_message(
        &t.store,
        &rules,
        &source,
        raw.as_bytes(),
        raw.len(),
        Mode::DryRun,
    );
    let Handled::Decided { mails, .. } = dry.await.unwrap() else {
        panic!("not decided")
    };
    assert_eq!(mails.len(), 2);
    let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox")
        .fetch_one(other.pool())
        .await
        .unwrap();
    assert_eq!(queued, 2, "a dry run's mails were queued");
}

#[tokio::test]
async fn relays_of_the_opponents_moves_do_not_use_up_a_players_reply_limit() {
    let mut t = temp_store().await;
    t.config.limits.replies_per_sender_per_hour = 4;
    let id = new_game(&t, None).await;
    let line = [
        "1. 5254",
        "1... 5755",
        "2. 7163",
        "2... 2836",
        "3. 6125",
        "3... 1716",
    ];
    for (n, mv) in line.iter().enumerate() {
        let seat = if n % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let dropped = mail_move(&t, id, seat, n, mv).await;
        assert_eq!(dropped, 0, "{mv}: the mover's confirmation was dropped");
    }
}

/// Mails from the players of `game`, as one group through the daemon's path
/// (`handle_group`, one transaction): each (seat, body) is the `n`th
/// message of a Maildir inbox from `first` on; the outcomes in order.
async fn group_of(t: &TempStore, game: i64, first: usize, mails: &[(Color, &str)]) -> Vec<Handled> {
    let g = t.store.game(game).await.unwrap().unwrap();
    let raws: Vec<(Source, String)> = mails
        .iter()
        .enumerate()
        .map(|(i, (seat, body))| {
            let player = g.view.player(*seat);
            let to = wildt::decide::game_address(&t.config.referee, game, &player.key);
            let n = first + i;
            let raw = format!(
                "From: {}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <mail-{n}@example.org>\r\n\r\n{body}\r\n",
                player.email
            );
            (Source::Inbox(InboxId::Maildir { id: format!("test-{n}") }), raw)
        })
        .collect();
    take_as_group(t, &raws).await
}

/// The messages `raws` (where each came from, its bytes) as one group
/// through `handle_group`, all of them taken; the outcomes in order.
async fn take_as_group(t: &TempStore, raws: &[(Source, String)]) -> Vec<Handled> {
    let group: Vec<wildt::handle::Incoming<'_>> = raws
        .iter()
        .map(|(source, raw)| wildt::handle::Incoming {
            source: source.clone(),
            raw: raw.as_bytes(),
            size: raw.len(),
            arrived: None,
        })
        .collect();
    let rules = t.config.rules();
    let long = std::time::Duration::from_secs(3600);
    let handled = wildt::handle::handle_group(&t.store, &rules, &group, long, || {})
        .await
        .unwrap();
    assert_eq!(handled.len(), raws.len(), "the whole group was taken");
    handled
}

fn held_back(h: &Handled) -> usize {
    match h {
        Handled::Decided { letters, .. } => letters.rate_limited,
        other => panic!("{other:?}"),
    }
}

/// Within one group (one transaction) each message reads what the ones
/// before it wrote: the hourly limit counts the answers queued earlier in
/// the group.
#[tokio::test]
async fn a_sender_writing_again_and_again_within_one_group_gets_at_most_the_hourly_replies() {
    let mut t = temp_store().await;
    t.config.limits.replies_per_sender_per_hour = 4;
    let id = new_game(&t, None).await;
    let mails = [(Color::White, "hello again"); 6];
    let handled = group_of(&t, id, 0, &mails).await;
    let dropped: Vec<usize> = handled.iter().map(held_back).collect();
    assert_eq!(dropped, [0, 0, 0, 0, 1, 1]);
}

/// A move and the answer to it in one group: the answer is judged on the
/// game with the move in it.
#[tokio::test]
async fn a_move_and_its_answer_within_one_group_are_both_recorded() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let mails = [
        (Color::White, "1. 5254"),
        (Color::Black, "1... 5755"),
        (Color::White, "2. 7163"),
    ];
    let handled = group_of(&t, id, 0, &mails).await;
    for h in &handled {
        let Handled::Decided { decision, .. } = h else {
            panic!("{h:?}")
        };
        assert_eq!(decision.outcome.as_str(), "moved", "{}", decision.detail);
    }
    assert_eq!(plies(&t, id).await, 3);
    let queued = number_of(&t, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").await;
    assert_eq!(queued, 6, "a confirmation and a relay for each move");
    let unlinked = number_of(&t, "SELECT COUNT(*) FROM outbox WHERE message IS NULL").await;
    assert_eq!(unlinked, 0, "every reply points at the message it answers");
}

/// The same message twice in one group (a Maildir file copied under
/// another name): decided once, the copy seen as a duplicate.
#[tokio::test]
async fn the_same_message_twice_within_one_group_is_decided_once() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let g = t.store.game(id).await.unwrap().unwrap();
    let white = g.view.player(Color::White);
    let to = wildt::decide::game_address(&t.config.referee, id, &white.key);
    let raw = format!(
        "From: {}\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <twice@example.org>\r\n\r\n1. 5254\r\n",
        white.email
    );
    let raws: Vec<(Source, String)> = ["a", "b"]
        .iter()
        .map(|name| {
            let id = (*name).to_owned();
            (Source::Inbox(InboxId::Maildir { id }), raw.clone())
        })
        .collect();
    let handled = take_as_group(&t, &raws).await;
    assert!(
        matches!(handled[0], Handled::Decided { .. }),
        "{:?}",
        handled[0]
    );
    assert!(
        matches!(handled[1], Handled::Duplicate { .. }),
        "{:?}",
        handled[1]
    );
    assert_eq!(plies(&t, id).await, 1);
}

/// Runs `sqls` in order on the store's pool (a test's edit of the
/// database behind the store's back, e.g. back to an older schema).
async fn run_all(t: &TempStore, sqls: &[&str]) {
    for sql in sqls {
        sqlx::query(sql).execute(t.store.pool()).await.unwrap();
    }
}

async fn number_of(t: &TempStore, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(t.store.pool())
        .await
        .unwrap()
}

/// The limit still bounds a conversation with one sender.
#[tokio::test]
async fn a_sender_writing_again_and_again_gets_at_most_the_hourly_replies() {
    let mut t = temp_store().await;
    t.config.limits.replies_per_sender_per_hour = 4;
    let id = new_game(&t, None).await;
    let mut dropped = Vec::new();
    for n in 0..6 {
        dropped.push(mail_move(&t, id, Color::White, n, "hello again").await);
    }
    assert_eq!(dropped, [0, 0, 0, 0, 1, 1]);
}

/// A database from before the answers were marked as counting against the
/// limit (migration 15): opening it marks the answers of the last hour that
/// count, so the limit holds across the upgrade, and a confirmation still
/// does not count.
#[tokio::test]
async fn answers_recorded_before_the_upgrade_still_count_against_the_hourly_limit() {
    let mut t = temp_store().await;
    t.config.limits.replies_per_sender_per_hour = 4;
    let id = new_game(&t, None).await;
    assert_eq!(mail_move(&t, id, Color::White, 0, "1. 5254").await, 0);
    for n in 1..4 {
        assert_eq!(mail_move(&t, id, Color::White, n, "hello again").await, 0);
    }
    let counted = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM outbox WHERE limited = 1")
            .fetch_one(t.store.pool())
            .await
            .unwrap()
    };
    assert_eq!(
        counted().await,
        3,
        "only the three answers to chatter count"
    );
    // Back to the schema before migration 15, as an older wildt left it.
    run_all(
        &t,
        &[
            "DROP INDEX outbox_limited",
            "ALTER TABLE outbox DROP COLUMN limited",
            "DELETE FROM _sqlx_migrations WHERE version = 15",
        ],
    )
    .await;
    let reopened = t.reopen().await;
    assert_eq!(
        counted().await,
        3,
        "the upgrade did not mark the old answers"
    );
    reopened.close().await;
    // The fourth answer is still given, the fifth held back.
    let dropped = [
        mail_move(&t, id, Color::White, 4, "hello again").await,
        mail_move(&t, id, Color::White, 5, "hello again").await,
    ];
    assert_eq!(dropped, [0, 1]);
}

/// How many plies the stored game has.
async fn plies(t: &TempStore, id: i64) -> usize {
    let game = t.store.game(id).await.unwrap().expect("the game");
    game.view.record.plies().len()
}

/// `[limits] commands_per_message`: a whole-record echo counts each move, so
/// with a limit of 4 the record of five plies is not read (and nothing moves),
/// while with the default the same mail plays the move.
#[tokio::test]
async fn a_message_with_more_commands_than_the_limit_moves_nothing() {
    let mut t = temp_store().await;
    let id = new_game(&t, None).await;
    play(&t, id, &["5254", "5755", "7163", "2836"]).await;
    let record = "1. 5254 5755 2. 7163 2836 3. 6125";
    t.config.limits.commands_per_message = 4;
    let d = mail_decision(&t, id, Color::White, 0, record).await;
    assert_eq!(d.outcome, wildt::decide::Outcome::Unclear, "{d:?}");
    assert!(d.detail.contains("5 moves and commands"), "{}", d.detail);
    let answer = &d.mails[0];
    assert_eq!(answer.to, "anna@example.org");
    assert!(
        answer
            .body
            .contains("5 moves and commands, more than the 4"),
        "{}",
        answer.body
    );
    assert_eq!(plies(&t, id).await, 4);

    t.config.limits = Config::parse(LOCAL_TOML).unwrap().limits;
    let d = mail_decision(&t, id, Color::White, 1, record).await;
    assert_eq!(d.outcome, wildt::decide::Outcome::Moved, "{d:?}");
    assert_eq!(plies(&t, id).await, 5);
}

/// Black's old-form rook promotion straight ahead, `3232` (c2-c1, rook), looks
/// like a move from a square to itself. With the game at hand it is answered
/// like every old-form promotion: with the standard form, and nothing moves.
#[tokio::test]
async fn blacks_old_form_rook_promotion_straight_ahead_is_answered_with_the_standard_form() {
    let t = temp_store().await;
    let id = new_game(&t, Some("4k3/8/8/8/8/8/2p5/4K3 b - - 0 1")).await;
    let d = mail_decision(&t, id, Color::Black, 0, "3232").await;
    assert_eq!(d.outcome, wildt::decide::Outcome::Rejected, "{d:?}");
    assert!(
        matches!(
            &d.verdict,
            Some(Verdict::Rejected(Rejection::Illegal { why, .. }))
                if matches!(why, wildt::notation::IllegalMove::OldPromotionForm { standard, .. }
                    if standard.to_string() == "32312")
        ),
        "{:?}",
        d.verdict
    );
    assert!(d.mails[0].body.contains("32312"), "{}", d.mails[0].body);
    assert!(
        t.store
            .game(id)
            .await
            .unwrap()
            .unwrap()
            .view
            .record
            .plies()
            .is_empty()
    );
    let d = mail_decision(&t, id, Color::Black, 1, "32312").await;
    assert_eq!(d.outcome, wildt::decide::Outcome::Moved, "{d:?}");
}

/// `status` after the end is answered with the final position and the
/// result, not refused.
#[test]
fn status_after_the_end_is_answered_with_the_final_position_and_result() {
    use wildt::auth::Policy;
    use wildt::decide::{Outcome, Recent, decide};
    use wildt::fixtures::{WHITE_KEY, game_17, referee, rules};
    use wildt::game::GameEnd;

    let mut view = game_17(&["6263", "5755", "7274", "4884"]);
    view.record.end = Some(GameEnd {
        result: GameResult::BlackWins,
        termination: Termination::Checkmate,
    });
    let raw = format!(
        "From: anna@example.org\r\nTo: chess+17-{WHITE_KEY}@club.example\r\nSubject: board\r\nMessage-ID: <s@example.org>\r\n\r\nstatus\r\n"
    );
    let rules = rules(1 << 20, Policy::Key, false);
    let intake = wildt::intake::read(raw.as_bytes(), &rules.intake);
    let d = decide(&intake, Some(&view), Recent::default(), &rules, None);
    assert_eq!(d.outcome, Outcome::Status, "{}", d.detail);
    let mails = wildt::reply::write(
        &d,
        &intake,
        Some(&view),
        None,
        &referee(),
        wildt::i18n::Lang::En,
    )
    .mails;
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].body.contains("Game over: 0-1 (checkmate)"),
        "{}",
        mails[0].body
    );
}

/// Nf3 Nf6 Ng1 Ng8, `rounds` times: the start position comes back every
/// four plies, with no capture or pawn move to end the repetition window.
fn knight_shuffle(rounds: usize) -> Vec<String> {
    ["7163", "7866", "6371", "6678"]
        .iter()
        .cycle()
        .take(4 * rounds)
        .map(|m| (*m).to_owned())
        .collect()
}

fn replay_of(line: &[String]) -> wildt::game::Record {
    wildt::game::Record::replay(None, line.iter().map(|m| m.parse().unwrap())).unwrap()
}

/// Checks that `loaded` reads as `replayed`: plies with SAN, position, side
/// to move, the next move number, and the repetition count a claim reads.
fn assert_same_game(loaded: &wildt::game::Record, replayed: &wildt::game::Record, at: &str) {
    use wildt::game::fen_of;
    assert_eq!(loaded.plies(), replayed.plies(), "{at}");
    assert_eq!(
        fen_of(loaded.position()),
        fen_of(replayed.position()),
        "{at}"
    );
    assert_eq!(loaded.turn(), replayed.turn(), "{at}");
    assert_eq!(loaded.next_number(), replayed.next_number(), "{at}");
    assert_eq!(loaded.repetitions(), replayed.repetitions(), "{at}");
}

/// A game is loaded from its stored last position, plies and repetition
/// counts, without replaying its moves: after every ply of a game to mate
/// and of a knight shuffle that repeats the start position, the loaded
/// record reads as the replayed one, and so does the loaded record with the
/// next move played onto it (as a message's move is judged).
#[tokio::test]
async fn a_stored_game_loads_as_its_replay_after_every_ply_and_one_more() {
    for line in [long_game(), knight_shuffle(10)] {
        let t = temp_store().await;
        let id = new_game(&t, None).await;
        for i in 0..line.len() {
            let mut loaded = t.store.game(id).await.unwrap().unwrap().view.record;
            assert_same_game(&loaded, &replay_of(&line[..i]), &format!("after {i} plies"));
            let seat = loaded.turn();
            let verdict =
                wildt::referee::judge(&loaded, seat, &Command::single(line[i].parse().unwrap()));
            loaded.apply(&verdict);
            assert_same_game(
                &loaded,
                &replay_of(&line[..=i]),
                &format!("ply {} onto the loaded game", i + 1),
            );
            play(&t, id, &[line[i].as_str()]).await;
        }
    }
}

/// A database whose plies were stored before position keys (an earlier
/// version): a game is replayed to be loaded, and opening the database
/// fills the keys in once, after which it loads as its replay again.
#[tokio::test]
async fn plies_stored_without_position_keys_are_replayed_and_then_filled_in() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let line = knight_shuffle(3);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, id, &refs).await;
    let unkeyed = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM moves WHERE key IS NULL")
            .fetch_one(t.store.pool())
            .await
            .unwrap()
    };
    assert_eq!(unkeyed().await, 0, "a new ply is stored without its key");
    sqlx::query("UPDATE moves SET key = NULL")
        .execute(t.store.pool())
        .await
        .unwrap();
    let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
    assert_same_game(&loaded, &replay_of(&line), "replayed");
    assert_eq!(loaded.repetitions(), 4);

    let reopened = t.reopen().await;
    assert_eq!(unkeyed().await, 0, "opening did not fill the keys in");
    let loaded = reopened.game(id).await.unwrap().unwrap().view.record;
    assert_same_game(&loaded, &replay_of(&line), "with the filled-in keys");
    assert_eq!(loaded.repetitions(), 4);
}

/// What a game's plies text is stored as: the plies of each sealed part
/// (counted), in order, and the plies text in `records`.
async fn stored_plies(t: &TempStore, id: i64) -> (Vec<usize>, String) {
    let parts: Vec<String> =
        sqlx::query_scalar("SELECT plies FROM record_parts WHERE game_id = $1 ORDER BY part")
            .bind(id)
            .fetch_all(t.store.pool())
            .await
            .unwrap();
    let tail: String = sqlx::query_scalar("SELECT plies FROM records WHERE game_id = $1")
        .bind(id)
        .fetch_one(t.store.pool())
        .await
        .unwrap();
    (parts.iter().map(|p| p.split(',').count()).collect(), tail)
}

fn plies_in(text: &str) -> usize {
    text.split(',').filter(|p| !p.is_empty()).count()
}

/// A long game's plies text is not one row rewritten with every move:
/// each full 64 plies are sealed in a part of their own, and the row a
/// move rewrites holds only the plies after the last full part. Played
/// one ply at a time past two parts, the game loads as its replay after
/// every ply.
#[tokio::test]
async fn a_long_games_plies_are_sealed_every_64_and_the_row_each_move_rewrites_stays_short() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let line = knight_shuffle(34);
    for n in 1..=line.len() {
        play(&t, id, &[line[n - 1].as_str()]).await;
        let (parts, tail) = stored_plies(&t, id).await;
        assert_eq!(parts, vec![64; n / 64], "after {n} plies");
        assert_eq!(plies_in(&tail), n % 64, "after {n} plies: {tail}");
        let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
        assert_same_game(&loaded, &replay_of(&line[..n]), &format!("after {n} plies"));
    }
}

/// A change that adds many plies at once (a postcard game entered by
/// hand) seals every part it completes, and the game loads as its replay.
#[tokio::test]
async fn plies_added_at_once_across_two_parts_seal_both() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let line = knight_shuffle(33);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, id, &refs[..62]).await;
    let before = t.store.game(id).await.unwrap().unwrap().view.record;
    let after = replay_of(&line);
    let mut conn = t.store.pool().acquire().await.unwrap();
    wildt::store::games::save_change(
        &mut conn,
        id,
        [wildt::i18n::Lang::En, wildt::i18n::Lang::De],
        &before,
        &after,
        None,
    )
    .await
    .unwrap();
    drop(conn);
    let (parts, tail) = stored_plies(&t, id).await;
    assert_eq!(parts, vec![64, 64]);
    assert_eq!(plies_in(&tail), 132 - 128, "{tail}");
    let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
    assert_same_game(&loaded, &after, "after 62 + 70 plies");
}

/// A database from before the parts (migration 20), its games' whole
/// plies texts in `records`: opening it seals their full parts from the
/// moves, and the games load as their replays and go on being played.
#[tokio::test]
async fn a_database_from_before_the_parts_has_its_long_games_sealed() {
    let t = temp_store().await;
    let line = knight_shuffle(35);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    let (long, short) = (new_game(&t, None).await, new_game(&t, None).await);
    play(&t, long, &refs[..130]).await;
    play(&t, short, &refs[..5]).await;
    let whole: Vec<String> = replay_of(&line[..130])
        .plies()
        .iter()
        .map(|p| format!("{} {}", p.iccf, p.san))
        .collect();
    run_all(
        &t,
        &[
            "DROP TABLE record_parts",
            "DELETE FROM _sqlx_migrations WHERE version = 20",
        ],
    )
    .await;
    sqlx::query("UPDATE records SET plies = $1 WHERE game_id = $2")
        .bind(whole.join(","))
        .bind(long)
        .execute(t.store.pool())
        .await
        .unwrap();
    let reopened = t.reopen().await;
    reopened.close().await;
    let (parts, tail) = stored_plies(&t, long).await;
    assert_eq!(parts, vec![64, 64]);
    assert_eq!(tail, whole[128..].join(","));
    assert_eq!(
        stored_plies(&t, short).await,
        (vec![], whole[..5].join(","))
    );
    for (id, n) in [(long, 130), (short, 5)] {
        let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
        assert_same_game(&loaded, &replay_of(&line[..n]), &format!("game {id}"));
    }
    play(&t, long, &refs[130..]).await;
    let loaded = t.store.game(long).await.unwrap().unwrap().view.record;
    assert_same_game(&loaded, &replay_of(&line), "played on after the upgrade");
    assert_eq!(stored_plies(&t, long).await.0, vec![64, 64]);
}

/// The plies a game loads with are read from one text per game
/// (`records`), written in the same batch as `moves`. One changed by other
/// hands (here: a ply cut off and one altered) is not believed: the game
/// loads from its moves, as its replay.
#[tokio::test]
async fn a_games_plies_text_that_disagrees_with_its_moves_is_not_believed() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let line = long_game();
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, id, &refs[..12]).await;
    let text = || async {
        sqlx::query_scalar::<_, String>("SELECT plies FROM records WHERE game_id = $1")
            .bind(id)
            .fetch_one(t.store.pool())
            .await
            .unwrap()
    };
    let whole = text().await;
    let expected: Vec<String> = replay_of(&line[..12])
        .plies()
        .iter()
        .map(|p| format!("{} {}", p.iccf, p.san))
        .collect();
    assert_eq!(whole, expected.join(","));
    // The last ply cut off, the first one changed to another first move.
    let cut = whole
        .rsplit_once(',')
        .unwrap()
        .0
        .replacen(&expected[0], "5254 e4", 1);
    assert_ne!(cut.split(',').next(), Some(expected[0].as_str()));
    sqlx::query("UPDATE records SET plies = $1 WHERE game_id = $2")
        .bind(&cut)
        .bind(id)
        .execute(t.store.pool())
        .await
        .unwrap();
    let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
    assert_same_game(&loaded, &replay_of(&line[..12]), "with a cut plies text");
}

/// A database from before `records` (migration 17): opening it writes each
/// game's plies text from its moves, and the games load as their replays
/// and go on being played.
#[tokio::test]
async fn a_database_from_before_the_plies_texts_gets_one_for_every_game() {
    let t = temp_store().await;
    let line = long_game();
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    let (a, b) = (new_game(&t, None).await, new_game(&t, None).await);
    play(&t, a, &refs[..7]).await;
    play(&t, b, &refs[..2]).await;
    let fresh = new_game(&t, None).await;
    run_all(
        &t,
        &[
            "DROP TABLE records",
            "DELETE FROM _sqlx_migrations WHERE version = 17",
        ],
    )
    .await;
    let reopened = t.reopen().await;
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT game_id, plies FROM records ORDER BY game_id")
            .fetch_all(reopened.pool())
            .await
            .unwrap();
    assert_eq!(
        rows.len(),
        2,
        "a game without moves needs no text: {rows:?}"
    );
    let two: Vec<String> = replay_of(&line[..2])
        .plies()
        .iter()
        .map(|p| format!("{} {}", p.iccf, p.san))
        .collect();
    assert_eq!(rows[1], (b, two.join(",")));
    for (id, n) in [(a, 7), (b, 2), (fresh, 0)] {
        let loaded = reopened.game(id).await.unwrap().unwrap().view.record;
        assert_same_game(&loaded, &replay_of(&line[..n]), &format!("game {id}"));
    }
    reopened.close().await;
    play(&t, b, &refs[2..4]).await;
    let loaded = t.store.game(b).await.unwrap().unwrap().view.record;
    assert_same_game(
        &loaded,
        &replay_of(&line[..4]),
        "played on after the upgrade",
    );
}

/// What a game loads for a move leaves the keys a repetition claim counts
/// unread (a long game without a capture or pawn move read and rewrote
/// hundreds each move); a claim reads them from the moves. A database
/// from before (migration 24), whose games kept a window of keys, loses it
/// on opening, a wrong one included, and its games count as their replays.
#[tokio::test]
async fn a_move_leaves_the_repetition_window_unread_and_a_claim_reads_it_from_the_moves() {
    let t = temp_store().await;
    let id = new_game(&t, None).await;
    let line = knight_shuffle(3);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, id, &refs).await;
    // The window as an earlier version kept it, and a wrong one at that.
    run_all(
        &t,
        &[
            "ALTER TABLE records ADD COLUMN window_keys BLOB",
            "UPDATE records SET window_keys = zeroblob(96)",
            "DELETE FROM _sqlx_migrations WHERE version = 24",
        ],
    )
    .await;
    let reopened = t.reopen().await;
    let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info('records')")
        .fetch_all(reopened.pool())
        .await
        .unwrap();
    assert!(!columns.iter().any(|c| c == "window_keys"), "{columns:?}");
    let mut conn = reopened.pool().acquire().await.unwrap();
    let mut record = wildt::store::games::load(&mut conn, id)
        .await
        .unwrap()
        .unwrap()
        .view
        .record;
    // The start and the positions after plies 1..12; the last is kept.
    assert_eq!(record.window_unread(), Some((0, 12)));
    wildt::store::games::read_window(&mut conn, id, &mut record)
        .await
        .unwrap();
    assert_eq!(record.window_unread(), None);
    assert_same_game(&record, &replay_of(&line), "with the window read");
    assert_eq!(record.repetitions(), 4);
}

/// Through the daemon's path, a claim that needs the positions before the
/// ones loaded for a move is judged on all of them: alone (the start for
/// the third time) and with the move that brings the position back.
#[tokio::test]
async fn a_mailed_claim_counts_the_repetitions_a_moves_load_leaves_unread() {
    let t = temp_store().await;
    let alone = new_game(&t, None).await;
    let line = knight_shuffle(2);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, alone, &refs).await;
    let claim = mail_decision(&t, alone, Color::White, 1, "claim draw").await;
    assert_eq!(claim.outcome.as_str(), "ended", "{}", claim.detail);
    let end = loaded(&t, alone).await.end.map(|e| e.termination);
    assert_eq!(end, Some(Termination::ThreefoldRepetition));

    let with_move = new_game(&t, None).await;
    play(&t, with_move, &refs[..7]).await;
    // Too early by one move first: refused, and the move stands.
    let early = new_game(&t, None).await;
    play(&t, early, &refs[..3]).await;
    let refused = mail_decision(&t, early, Color::Black, 2, "2... 6678 claim draw").await;
    assert_eq!(refused.outcome.as_str(), "moved", "{}", refused.detail);
    assert_eq!(loaded(&t, early).await.end, None);
    let claim = mail_decision(&t, with_move, Color::Black, 3, "4... 6678 claim draw").await;
    assert_eq!(claim.outcome.as_str(), "moved", "{}", claim.detail);
    let end = loaded(&t, with_move).await.end.map(|e| e.termination);
    assert_eq!(end, Some(Termination::ThreefoldRepetition));
}

/// A game set up from a position whose halfmove clock already runs (here
/// 30: no capture or pawn move for fifteen moves before it): the start
/// counts for repetitions as long as nothing irreversible is played, then
/// a capture starts the window again; after every ply the loaded game
/// reads as its replay, repetitions included, with the keys a claim reads.
#[tokio::test]
async fn a_game_from_a_set_up_position_counts_its_repetitions_through_the_window() {
    // Kings, knights and a black pawn the white knight can take.
    let fen = "4k1n1/8/8/8/8/2p5/8/1N2K3 w - - 30 40";
    let t = temp_store().await;
    let id = new_game(&t, Some(fen)).await;
    // Nb1-d2, Ng8-f6, Nd2-b1, Nf6-g8 twice (the start three times), then
    // Nb1xc3 and the shuffle again from there.
    let line: Vec<String> = [
        "2142", "7866", "4221", "6678", "2142", "7866", "4221", "6678", "2133", "7866", "3321",
        "6678", "2133",
    ]
    .iter()
    .map(|m| (*m).to_owned())
    .collect();
    let replay = |n: usize| {
        wildt::game::Record::replay(Some(fen), line[..n].iter().map(|m| m.parse().unwrap()))
            .unwrap()
    };
    for (i, ply) in line.iter().enumerate() {
        play(&t, id, &[ply.as_str()]).await;
        let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
        assert_same_game(&loaded, &replay(i + 1), &format!("after {} plies", i + 1));
        // What a claim reads: the start and every ply until Nxc3 (ply 9);
        // from it, the plies after Nxc3. The position now is loaded.
        let mut conn = t.store.pool().acquire().await.unwrap();
        let unread = wildt::store::games::load(&mut conn, id)
            .await
            .unwrap()
            .unwrap()
            .view
            .record
            .window_unread();
        let n = i + 1;
        let expected = match n {
            ..9 => Some((0, n)),
            9 => None,
            _ => Some((9, n)),
        };
        assert_eq!(unread, expected, "after {n} plies");
    }
    let loaded = t.store.game(id).await.unwrap().unwrap().view.record;
    assert_eq!(
        loaded.repetitions(),
        2,
        "the position after Nxc3, twice since"
    );
    let after_eight = replay(8);
    assert_eq!(after_eight.repetitions(), 3, "the start, three times");
}

/// Whether a game's player was warned of a stranger within the hour is read
/// from the messages that count (strangers and failed authentications),
/// through their own partial index, not from an index of every message of
/// the game: in a long game that index gave each game a leaf of its own,
/// one more page in every move's commit.
#[tokio::test]
async fn the_history_finds_a_games_refused_messages_through_their_own_index() {
    let t = temp_store().await;
    let mut batch = wildt::store::batch::Batch::default();
    let keys = wildt::store::messages::Keys {
        sha256: "s",
        source: None,
        message_id: Some("m@example.org"),
        from: Some("anna@example.org"),
        game: Some(1),
        body_sha256: "b",
        now: 0,
    };
    wildt::store::messages::history_into(&mut batch, &keys).unwrap();
    let plan: Vec<(i64, i64, i64, String)> =
        sqlx::query_as(&format!("EXPLAIN QUERY PLAN {}", batch.sql()))
            .fetch_all(t.store.pool())
            .await
            .unwrap();
    let details: Vec<&str> = plan.iter().map(|r| r.3.as_str()).collect();
    assert!(
        details
            .iter()
            .any(|d| d.contains("m USING INDEX messages_game_refused")),
        "{details:#?}"
    );
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE tbl_name = 'messages' AND type = 'index'",
    )
    .fetch_all(t.store.pool())
    .await
    .unwrap();
    assert!(!indexes.iter().any(|n| n == "messages_game"), "{indexes:?}");
}

/// Game `id`'s record as a load reads it.
async fn loaded(t: &TempStore, id: i64) -> wildt::game::Record {
    t.store.game(id).await.unwrap().unwrap().view.record
}

/// The renderings a load of game `id` reads beside its record.
async fn kept(t: &TempStore, id: i64) -> wildt::reply::cache::Renderings {
    t.store.game(id).await.unwrap().unwrap().kept
}

/// A game between a German and an English reader with `plies` of a knight
/// shuffle played by hand, the last through the daemon's path as a mail.
async fn german_english_game(plies: usize) -> (TempStore, i64, Vec<String>) {
    let t = temp_store().await;
    let id = organise::create_game(
        &t.store,
        &t.config.referee,
        50,
        NewGame {
            time: wildt::clock::TimeControl::None,
            white_lang: Some(wildt::i18n::Lang::De),
            black_lang: None,
            white: "anna@example.org",
            black: "ben@example.net",
            fen: None,
            event: Some("Test"),
        },
        Mailing::NoMail,
    )
    .await
    .unwrap()
    .view
    .id;
    let line = knight_shuffle(plies.div_ceil(4) + 1);
    let refs: Vec<&str> = line.iter().map(String::as_str).collect();
    play(&t, id, &refs[..plies - 1]).await;
    let seat = if plies % 2 == 1 {
        Color::White
    } else {
        Color::Black
    };
    let answer = mail_decision(&t, id, seat, 1, &line[plies - 1]).await;
    assert_eq!(answer.outcome.as_str(), "moved", "{}", answer.detail);
    (t, id, line)
}

/// When a move seals a part of a game's record (ply 64), the record's
/// plies so far are kept rendered in both players' languages, and a load
/// of the game carries them: the same renderings as made from the replayed
/// record.
#[tokio::test]
async fn a_sealed_part_keeps_the_record_rendered_in_both_players_languages() {
    use wildt::i18n::Lang;
    let (t, id, line) = german_english_game(64).await;
    let langs: Vec<String> =
        sqlx::query_scalar("SELECT lang FROM record_renders WHERE game_id = $1 ORDER BY lang")
            .bind(id)
            .fetch_all(t.store.pool())
            .await
            .unwrap();
    assert_eq!(langs, ["de", "en"]);
    let renderings = kept(&t, id).await;
    let replayed = replay_of(&line[..64]);
    for lang in [Lang::De, Lang::En] {
        let kept = renderings.in_lang(lang).expect("kept rendering loaded");
        assert_eq!(kept.plies, 64);
        assert_eq!(
            Some(kept),
            wildt::reply::cache::Rendering::of(&replayed, 64, lang).as_ref()
        );
    }
    assert!(renderings.in_lang(Lang::Fr).is_none());
}

/// The replies to the move after a sealed part, written from the kept
/// rendering, are the replies written from the whole record (the same
/// game with its kept renderings deleted).
#[tokio::test]
async fn the_replies_after_a_sealed_part_read_as_those_written_from_the_whole_record() {
    let (with_kept, id, line) = german_english_game(64).await;
    let (without, id2, _) = german_english_game(64).await;
    sqlx::query("DELETE FROM record_renders")
        .execute(without.store.pool())
        .await
        .unwrap();
    let a = mail_decision(&with_kept, id, Color::White, 2, &line[64]).await;
    let b = mail_decision(&without, id2, Color::White, 2, &line[64]).await;
    assert_eq!(a.outcome.as_str(), "moved", "{}", a.detail);
    assert_eq!(a.mails.len(), 2);
    assert_eq!(a.mails.len(), b.mails.len());
    for (x, y) in a.mails.iter().zip(&b.mails) {
        assert_eq!(x.lang, y.lang);
        assert_eq!(x.body, y.body);
        let (hx, hy) = (x.html.as_ref().unwrap(), y.html.as_ref().unwrap());
        assert_eq!(hx.render(&x.subject), hy.render(&y.subject));
        assert!(x.body.contains("32. 6371 ("), "{}", x.body);
    }
}

/// A move's replies continue the rendering loaded beside the record: a
/// rendering changed in the store (to text of the same length, so that it
/// still reads) shows in both parts of the reply in its language, and not
/// in the other language's.
#[tokio::test]
async fn a_moves_replies_continue_the_rendering_kept_beside_the_record() {
    use wildt::i18n::Lang;
    let (t, id, line) = german_english_game(64).await;
    run_all(
        &t,
        &[if crate::support::cli::on_postgres() {
            "UPDATE record_renders
                 SET rendered = decode(replace(encode(rendered, 'escape'), 'Nf3', 'Nx9'), 'escape')
                 WHERE lang = 'en'"
        } else {
            "UPDATE record_renders SET rendered = CAST(replace(rendered, 'Nf3', 'Nx9') AS BLOB)
               WHERE lang = 'en'"
        }],
    )
    .await;
    let answer = mail_decision(&t, id, Color::White, 2, &line[64]).await;
    assert_eq!(answer.outcome.as_str(), "moved", "{}", answer.detail);
    assert_eq!(answer.mails.len(), 2);
    for m in &answer.mails {
        let page = m.html.as_ref().unwrap().render(&m.subject);
        let marked = m.lang == Lang::En;
        assert_eq!(m.body.contains("(Nx9)"), marked, "{:?}: {}", m.lang, m.body);
        assert_eq!(page.contains("Nx9"), marked, "{:?}: {page}", m.lang);
    }
}

/// A kept rendering is not used for plies other than those it was made
/// from (the sealed plies changed by other hands), nor when its row does
/// not read: the game loads with none, and its replies are written whole.
#[tokio::test]
async fn a_kept_rendering_of_other_plies_or_a_damaged_one_is_not_loaded() {
    use wildt::i18n::Lang;
    let (t, id, _) = german_english_game(64).await;
    assert!(kept(&t, id).await.in_lang(Lang::De).is_some());
    sqlx::query("UPDATE record_parts SET plies = replace(plies, '7163 Nf3', '7163 Nh3')")
        .execute(t.store.pool())
        .await
        .unwrap();
    let changed = t.store.game(id).await.unwrap().unwrap();
    assert_eq!(changed.view.record.plies()[0].san.as_str(), "Nh3");
    assert!(changed.kept.in_lang(Lang::De).is_none());
    assert!(changed.kept.in_lang(Lang::En).is_none());

    let (t, id, _) = german_english_game(64).await;
    sqlx::query("UPDATE record_renders SET rendered = substr(rendered, 1, 200) WHERE lang = 'de'")
        .execute(t.store.pool())
        .await
        .unwrap();
    let damaged = kept(&t, id).await;
    assert!(damaged.in_lang(Lang::De).is_none());
    assert!(damaged.in_lang(Lang::En).is_some());
}

/// A game that ends keeps no renderings of its record: a reply showing it
/// again is rare, and the rows would only fill the database.
#[tokio::test]
async fn a_game_that_ends_forgets_its_kept_renderings() {
    let (t, id, _) = german_english_game(65).await;
    let kept = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM record_renders WHERE game_id = $1")
            .bind(id)
            .fetch_one(t.store.pool())
            .await
            .unwrap()
    };
    assert_eq!(kept().await, 2);
    organise::play_by_hand(
        &t.store,
        &t.config.rules(),
        id,
        Color::Black,
        &Command::Resign,
    )
    .await
    .unwrap();
    assert_eq!(kept().await, 0);
}

/// A long game whose sealed plies are left unread at load (its kept
/// renderings vouch for them) is judged as its replay: the next move and
/// the position and repetitions after it, and a move mail echoing a ply
/// of the sealed part, right (played) or wrong (refused, nothing played).
#[tokio::test]
async fn a_long_game_loaded_with_its_sealed_plies_unread_is_judged_as_its_replay() {
    let (t, id, line) = german_english_game(66).await;
    let game = t.store.game(id).await.unwrap().unwrap();
    let record = game.view.record;
    assert!(game.kept.in_lang(wildt::i18n::Lang::De).is_some());
    assert_same_game(&record, &replay_of(&line[..66]), "loaded");
    let mut after = loaded(&t, id).await;
    let verdict = wildt::referee::judge(
        &after,
        Color::White,
        &Command::single(line[66].parse().unwrap()),
    );
    after.apply(&verdict);
    assert_same_game(&after, &replay_of(&line[..67]), "the next move onto it");

    let wrong = mail_decision(&t, id, Color::White, 2, "1. 6371 34. 6371").await;
    assert_ne!(wrong.outcome.as_str(), "moved", "{}", wrong.detail);
    assert_eq!(plies(&t, id).await, 66);
    let right = mail_decision(&t, id, Color::White, 3, "1. 7163 34. 6371").await;
    assert_eq!(right.outcome.as_str(), "moved", "{}", right.detail);
    assert_eq!(plies(&t, id).await, 67);
}

/// A game without a kept rendering in a player's language (stored before
/// them) or with one another build made (an upgrade that renders
/// otherwise) gets this build's at its next move, not at its next sealed
/// part 64 plies on.
#[tokio::test]
async fn a_game_without_this_builds_rendering_gets_one_at_its_next_move() {
    use wildt::i18n::Lang;
    let (t, id, line) = german_english_game(66).await;
    run_all(
        &t,
        &[
            "DELETE FROM record_renders WHERE lang = 'de'",
            if crate::support::cli::on_postgres() {
                "UPDATE record_renders
                 SET rendered = '\\x0000000000000000'::bytea || substring(rendered from 9)
                 WHERE lang = 'en'"
            } else {
                "UPDATE record_renders SET rendered = CAST(zeroblob(8) || substr(rendered, 9) AS BLOB) WHERE lang = 'en'"
            },
        ],
    )
    .await;
    let before = kept(&t, id).await;
    assert!(before.in_lang(Lang::De).is_none());
    assert_eq!(before.in_lang(Lang::En).map(|k| k.fingerprint), Some(0));

    // By mail: the move's path loads the renderings beside the record and
    // stores this build's where they are missing or another build's.
    let moved = mail_decision(&t, id, Color::White, 2, &line[66]).await;
    assert_eq!(moved.outcome.as_str(), "moved", "{}", moved.detail);
    let after = kept(&t, id).await;
    for lang in [Lang::De, Lang::En] {
        let kept = after
            .in_lang(lang)
            .expect("kept rendering made at the move");
        assert_eq!(kept.plies, 64);
        assert_eq!(kept.fingerprint, wildt::reply::cache::fingerprint(lang));
    }
}
